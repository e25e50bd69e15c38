//! A client's base URL: where it came from, what makes it valid, how an error shows it (never
//! its user info or query), and the rule that keeps credentials off plain HTTP to other hosts.

use crate::error::Error;
use crate::spec::ServiceSpec;

/// Where a base URL came from, so an error about it can say what to change.
#[derive(Clone, Copy)]
pub(crate) enum BaseUrlSource {
    /// The spec's default.
    Spec,
    /// This environment variable.
    Env(&'static str),
    /// `ClientBuilder::base_url`.
    Code,
}

/// Checks a base URL and returns it without a trailing slash. Errors name the value (with any
/// user info and query cut out: they may hold secrets), where it came from and what to set.
pub(crate) fn validate_base_url(
    raw: &str,
    spec: &ServiceSpec,
    source: BaseUrlSource,
) -> Result<(String, url::Url), Error> {
    let fail = |problem: &str, example: String| {
        let (from, fix) = match source {
            BaseUrlSource::Env(var) => (format!(" (from {var})"), format!("set {var} to")),
            BaseUrlSource::Code => (
                " (given to base_url())".to_owned(),
                "pass base_url()".to_owned(),
            ),
            BaseUrlSource::Spec => (
                " (the spec's default)".to_owned(),
                format!("set {} or call base_url() with", spec.base_url_env),
            ),
        };
        Error::config(format!(
            "the {} service's base URL `{}`{from} {problem}: {fix} {example}",
            spec.name,
            shown_url(raw)
        ))
    };
    let absolute = "an absolute http:// or https:// URL such as https://api.example.com".to_owned();
    let trimmed = raw.trim();
    let url = match url::Url::parse(trimmed) {
        Ok(url) => url,
        Err(e) => {
            let problem = format!("is not a valid URL ({e})");
            return Err(match trimmed.contains("://") {
                true => fail(&problem, absolute),
                false => fail(
                    &problem,
                    format!("a URL with its scheme, e.g. http://{}", shown_url(trimmed)),
                ),
            });
        }
    };
    if !matches!(url.scheme(), "http" | "https") {
        let example = match trimmed.contains("://") {
            true => absolute,
            false => format!("a URL with its scheme, e.g. http://{}", shown_url(trimmed)),
        };
        return Err(fail("does not start with http:// or https://", example));
    }
    if url.password().is_some() || !url.username().is_empty() {
        return Err(fail(
            "carries user credentials",
            "the URL without them, and the credentials with credential() or their environment \
             variables"
                .to_owned(),
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(fail(
            "has a query or fragment",
            "the URL without them".to_owned(),
        ));
    }
    Ok((url.as_str().trim_end_matches('/').to_owned(), url))
}

/// The environment variable that allows plain `http://` to another host for `spec`'s clients
/// ([`ClientBuilder::allow_plain_http`](crate::ClientBuilder::allow_plain_http)): its base URL variable with `ALLOW_PLAIN_HTTP` in place
/// of `BASE_URL` (`COMMS_EMAIL_BASE_URL` → `COMMS_EMAIL_ALLOW_PLAIN_HTTP`), or with
/// `_ALLOW_PLAIN_HTTP` added when it does not end so.
pub fn plain_http_env(spec: &ServiceSpec) -> String {
    match spec.base_url_env.strip_suffix("BASE_URL") {
        Some(stem) => format!("{stem}ALLOW_PLAIN_HTTP"),
        None => format!("{}_ALLOW_PLAIN_HTTP", spec.base_url_env),
    }
}

/// Refuses a plain `http://` base URL of a host other than this machine (for a client that
/// would send credentials there): they would cross the network unencrypted.
pub(crate) fn refuse_plain_http(
    base: &url::Url,
    raw: &str,
    spec: &ServiceSpec,
    source: BaseUrlSource,
) -> Result<(), Error> {
    if base.scheme() != "http" || is_this_machine(base) {
        return Ok(());
    }
    let from = match source {
        BaseUrlSource::Env(var) => format!(" (from {var})"),
        BaseUrlSource::Code => " (given to base_url())".to_owned(),
        BaseUrlSource::Spec => " (the spec's default)".to_owned(),
    };
    Err(Error::config(format!(
        "the {} service's base URL `{}`{from} is plain HTTP to a host other than this \
         machine: its credentials would cross the network unencrypted. Use https://, or, for \
         a server on a private network (the sandbox in another container), set {}=1 or call \
         allow_plain_http(true)",
        spec.name,
        shown_url(raw),
        plain_http_env(spec)
    )))
}

/// Whether `url` names this machine: a loopback address, the unspecified address (`0.0.0.0`,
/// what a server bound to every interface prints, reached on this machine), `localhost` or a
/// `*.localhost` name.
pub(crate) fn is_this_machine(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback() || ip.is_unspecified(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback() || ip.is_unspecified(),
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
        None => false,
    }
}

/// A base URL as an error may show it: user info and anything from `?` or `#` on replaced by
/// `…` (they may hold secrets), control characters escaped, at most 200 bytes.
pub(crate) fn shown_url(raw: &str) -> String {
    let raw = raw.trim();
    let (mut text, cut) = match raw.find(['?', '#']) {
        Some(at) => (raw[..at].to_owned(), true),
        None => (raw.to_owned(), false),
    };
    let host_start = text.find("://").map_or(0, |i| i + 3);
    let host_end = text[host_start..]
        .find('/')
        .map_or(text.len(), |i| host_start + i);
    if let Some(at) = text[host_start..host_end].rfind('@') {
        text.replace_range(host_start..host_start + at + 1, "…@");
    }
    if cut {
        text.push('…');
    }
    crate::error::bounded_text(&text, 200)
}
