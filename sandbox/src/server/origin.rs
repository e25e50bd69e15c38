//! What the sandbox's HTTP listeners let in from other origins. They serve a developer's own
//! machine, so a browser must not be turned against them:
//!
//! - DNS rebinding: a request is served only when its `Host` is a name the listener answers to:
//!   an IP literal (no DNS involved), `localhost` or a `*.localhost` name (always loopback), or
//!   a name given in [`HttpLimits::allowed_hosts`](super::HttpLimits::allowed_hosts)
//!   (`--allowed-host`). Anything else is 403 `host_not_allowed`, for every method: a page
//!   whose name was rebound to 127.0.0.1 reads nothing and changes nothing.
//! - Cross-site requests: a state-changing request (any method but `GET`, `HEAD`, `OPTIONS`)
//!   is refused with 403 `cross_site` when the browser says it comes from another site
//!   (`Sec-Fetch-Site` other than `same-origin`/`none`) or another origin (`Origin` not the
//!   listener's own). Apps' HTTP clients send neither header, so they are never refused. The
//!   inbox ([`Writes::JsonOnly`]) also answers 415 when a `POST` body is not
//!   `application/json`: a page can send `text/plain` or a form anywhere without asking, and
//!   JSON needs a CORS preflight the inbox never grants. The services' APIs take the bodies
//!   their specs declare (forms included), so for them the two checks above are the guard.
//!
//! WebSocket upgrades are `GET`s: browsers of any origin may open the realtime service's
//! connections (the Pusher protocol's app key is public by design), on an allowed `Host`.
//!
//! Every refusal is logged with why.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

/// Which state-changing requests a listener takes, besides the origin checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Writes {
    /// Any body (a service's API: its spec says which).
    Any,
    /// `application/json` bodies only (the inbox).
    JsonOnly,
}

/// The names a listener answers to, besides IP literals and `localhost`.
#[derive(Debug, Clone)]
pub(crate) struct Allowed {
    /// Extra host names (lowercase, no port).
    pub(crate) names: Vec<String>,
    /// The port the listener listens on (an `Origin` must name it).
    pub(crate) port: u16,
    /// What the listener serves, for messages and logs (`inbox`, `email`, a spec's name).
    pub(crate) what: &'static str,
    /// The bodies it takes.
    pub(crate) writes: Writes,
}

impl Allowed {
    /// The names of `hosts` as [`Allowed::names`] keeps them (trimmed, lowercase, no final dot).
    pub(crate) fn new(hosts: &[String], port: u16, what: &'static str, writes: Writes) -> Self {
        Allowed {
            names: hosts
                .iter()
                .map(|h| h.trim().trim_end_matches('.').to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect(),
            port,
            what,
            writes,
        }
    }

    /// Whether `host` (a `Host` value, with or without port) is one the listener answers to.
    fn host(&self, host: &str) -> bool {
        let name = strip_port(host).to_ascii_lowercase();
        let name = name.trim_end_matches('.');
        if name.is_empty() {
            return false;
        }
        let literal = name.trim_start_matches('[').trim_end_matches(']');
        literal.parse::<std::net::IpAddr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || self.names.iter().any(|n| n == name)
    }

    /// Whether `origin` (`http://host:port`) is the listener itself.
    fn origin(&self, origin: &str) -> bool {
        let Some(rest) = origin.strip_prefix("http://") else {
            return false;
        };
        let port = match rest.rsplit_once(':') {
            Some((_, port)) if !port.ends_with(']') => port.parse::<u16>().ok(),
            _ => Some(80),
        };
        port == Some(self.port) && self.host(rest)
    }
}

/// `host:port` → `host`, `[::1]:80` → `[::1]`.
fn strip_port(host: &str) -> &str {
    if let Some(end) = host.find(']') {
        return &host[..=end];
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// Why a request is refused, when it is.
fn refusal(
    allowed: &Allowed,
    method: &Method,
    headers: &HeaderMap,
) -> Option<(StatusCode, &'static str, String)> {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let host = text(header::HOST.as_str()).unwrap_or_default();
    if !allowed.host(host) {
        return Some((
            StatusCode::FORBIDDEN,
            "host_not_allowed",
            format!(
                "the {} sandbox does not answer to Host `{}`; it answers to localhost, IP \
                 addresses and names given with --allowed-host",
                allowed.what,
                host.escape_debug()
            ),
        ));
    }
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    if let Some(site) = text("sec-fetch-site")
        && site != "same-origin"
        && site != "none"
    {
        return Some((
            StatusCode::FORBIDDEN,
            "cross_site",
            format!(
                "a {site} page cannot change the {} sandbox (Sec-Fetch-Site)",
                allowed.what
            ),
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("null");
        if !allowed.origin(origin) {
            return Some((
                StatusCode::FORBIDDEN,
                "cross_site",
                format!(
                    "a page on {} cannot change the {} sandbox (Origin)",
                    origin.escape_debug(),
                    allowed.what
                ),
            ));
        }
    }
    if *method == Method::POST && allowed.writes == Writes::JsonOnly {
        let json = text(header::CONTENT_TYPE.as_str()).is_some_and(|t| {
            t.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
        });
        let empty = headers.get(header::CONTENT_TYPE).is_none()
            && headers.get(header::TRANSFER_ENCODING).is_none()
            && text(header::CONTENT_LENGTH.as_str()).is_none_or(|n| n.trim() == "0");
        if !json && !empty {
            return Some((
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "json_required",
                format!(
                    "the {} takes `Content-Type: application/json` bodies only",
                    allowed.what
                ),
            ));
        }
    }
    None
}

/// The middleware: refuses what [`refusal`] names, passes the rest on.
pub(crate) async fn check(
    State(allowed): State<Allowed>,
    request: Request,
    next: Next,
) -> Response {
    match refusal(&allowed, request.method(), request.headers()) {
        None => next.run(request).await,
        Some((status, code, message)) => {
            tracing::info!(
                status = status.as_u16(),
                code,
                "{}: refused {} {}: {message}",
                allowed.what,
                request.method(),
                request.uri().path()
            );
            let body = serde_json::json!({"error": {"code": code, "message": message}});
            let mut response = Response::new(axum::body::Body::from(body.to_string()));
            *response.status_mut() = status;
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            );
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_ip_literals_localhost_and_given_names_pass_others_do_not() {
        let allowed = Allowed::new(
            &[" Inbox.Test. ".to_owned()],
            8025,
            "inbox",
            Writes::JsonOnly,
        );
        for ok in [
            "127.0.0.1:8025",
            "localhost:8025",
            "LOCALHOST",
            "app.localhost:1",
            "[::1]:8025",
            "10.0.0.5",
            "inbox.test:8025",
        ] {
            assert!(allowed.host(ok), "{ok}");
        }
        for bad in [
            "evil.example:8025",
            "",
            "localhost.evil.example",
            "inbox.test.evil",
        ] {
            assert!(!allowed.host(bad), "{bad}");
        }
        assert!(allowed.origin("http://127.0.0.1:8025"));
        assert!(allowed.origin("http://[::1]:8025"));
        assert!(
            !allowed.origin("http://127.0.0.1:3000"),
            "another port is another origin"
        );
        assert!(!allowed.origin("http://evil.example:8025"));
        assert!(!allowed.origin("null"));
        assert!(!allowed.origin("https://127.0.0.1:8025"));
    }

    #[test]
    fn an_api_takes_any_body_from_apps_but_no_change_from_another_origin() {
        let api = Allowed::new(&[], 8026, "email", Writes::Any);
        let inbox = Allowed::new(&[], 8026, "inbox", Writes::JsonOnly);
        let headers = |pairs: &[(&'static str, &str)]| {
            let mut map = HeaderMap::new();
            for (name, value) in pairs {
                map.insert(*name, value.parse().unwrap());
            }
            map
        };
        let form = headers(&[
            ("host", "127.0.0.1:8026"),
            ("content-type", "application/x-www-form-urlencoded"),
            ("content-length", "3"),
        ]);
        assert_eq!(
            refusal(&api, &Method::POST, &form),
            None,
            "an app's form body"
        );
        let refused = refusal(&inbox, &Method::POST, &form).map(|r| r.1);
        assert_eq!(refused, Some("json_required"));
        for page in [
            &[("origin", "http://evil.example")][..],
            &[("sec-fetch-site", "cross-site")][..],
            &[
                ("origin", "http://127.0.0.1:3000"),
                ("sec-fetch-site", "same-site"),
            ][..],
        ] {
            let mut from_page = form.clone();
            from_page.extend(headers(page));
            let refused = refusal(&api, &Method::POST, &from_page).map(|r| (r.0, r.1));
            assert_eq!(
                refused,
                Some((StatusCode::FORBIDDEN, "cross_site")),
                "{page:?}"
            );
            assert_eq!(
                refusal(&api, &Method::GET, &from_page),
                None,
                "reads are not changes"
            );
        }
        let rebound = headers(&[("host", "rebound.example:8026")]);
        let refused = refusal(&api, &Method::GET, &rebound).map(|r| r.1);
        assert_eq!(refused, Some("host_not_allowed"));
    }
}
