//! Checking a request's credential against the operation's auth schemes (headers, query or
//! body), as the gateway does before anything else.

use axum::http::header::{AUTHORIZATION, HeaderMap};
use bytes::Bytes;
use tidings_runtime::spec::AuthScheme;

use super::ServerError;
use super::gateway::Gateway;
use super::limits::json_shape;

/// The top-level text fields of a request body (a JSON object or a form), for credentials sent
/// in the body. A body that is neither (or breaks the JSON bounds) has none.
pub(super) struct BodyFields {
    form: bool,
    fields: Vec<(String, String)>,
}

impl BodyFields {
    pub(super) fn read(body: &[u8], gateway: &Gateway, form: bool) -> BodyFields {
        let fields = if form {
            url::form_urlencoded::parse(body).into_owned().collect()
        } else if json_shape(body, gateway.max_json_values, gateway.max_json_depth).is_ok() {
            match serde_json::from_slice::<serde_json::Value>(body) {
                Ok(serde_json::Value::Object(map)) => map
                    .into_iter()
                    .filter_map(|(k, v)| Some((k, v.as_str()?.to_owned())))
                    .collect(),
                _ => Vec::new(),
            }
        } else {
            Vec::new()
        };
        BodyFields { form, fields }
    }

    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// `body` without the fields body schemes put credentials in (unchanged when none is
    /// there or the body cannot be read).
    pub(super) fn without_credentials(&self, body: Bytes, schemes: &[AuthScheme]) -> Bytes {
        let fields: Vec<&str> = schemes
            .iter()
            .flat_map(AuthScheme::parts)
            .filter_map(|s| match s {
                AuthScheme::Body { fields } => Some(fields.iter().map(|(field, _)| *field)),
                _ => None,
            })
            .flatten()
            .collect();
        if !fields.iter().any(|f| self.get(f).is_some()) {
            return body;
        }
        if self.form {
            let mut out = url::form_urlencoded::Serializer::new(String::new());
            for (k, v) in url::form_urlencoded::parse(&body) {
                if !fields.contains(&k.as_ref()) {
                    out.append_pair(&k, &v);
                }
            }
            return Bytes::from(out.finish());
        }
        match serde_json::from_slice::<serde_json::Value>(&body) {
            Ok(serde_json::Value::Object(mut map)) => {
                for f in &fields {
                    map.remove(*f);
                }
                serde_json::to_vec(&map).map(Bytes::from).unwrap_or(body)
            }
            _ => body,
        }
    }
}

/// The credential of an `Authorization: Basic` header: user name and password.
fn basic_credentials(headers: &HeaderMap) -> Option<(String, String)> {
    use base64::Engine as _;
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (kind, encoded) = value.trim().split_once(' ')?;
    if !kind.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (user, pass) = text.split_once(':')?;
    Some((user.to_owned(), pass.to_owned()))
}

/// The token of an `Authorization: Bearer` header.
fn bearer_token(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (kind, token) = value.trim().split_once(' ')?;
    kind.eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_owned())
}

/// The credential name under which a gateway keeps the access token it accepts for an OAuth2
/// client-credentials scheme (the token its server's own token endpoint hands out).
pub const OAUTH2_TOKEN_CREDENTIAL: &str = "oauth2_access_token";

/// A header's value after `prefix` (compared without case, like an auth scheme word).
fn header_after_prefix(headers: &HeaderMap, header: &str, prefix: Option<&str>) -> Option<String> {
    let value = headers.get(header)?.to_str().ok()?.trim();
    let prefix = prefix.unwrap_or("");
    let head = value.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| value[prefix.len()..].trim().to_owned())
}

/// Checks the credential against the operation's schemes: the first scheme that carries one
/// decides. Signing schemes are not served by this gateway. `body` is given when a scheme
/// reads the credential from the body.
pub(super) fn authenticate(
    gateway: &Gateway,
    schemes: &[AuthScheme],
    headers: &HeaderMap,
    query: &str,
    body: Option<&BodyFields>,
) -> Result<(), ServerError> {
    // A spec that declares no scheme, or a public operation, takes no credential.
    if schemes.is_empty() || schemes.contains(&AuthScheme::Anonymous) {
        return Ok(());
    }
    let sent = Sent {
        headers,
        query,
        body,
    };
    let mut presented = false;
    let mut hint = Vec::new();
    for scheme in AuthScheme::offered_alone(schemes) {
        match verdict(gateway, scheme, &sent, &mut hint) {
            Verdict::Accepted => return Ok(()),
            Verdict::Refused => presented = true,
            Verdict::Absent => {}
        }
    }
    if presented {
        Err(ServerError::new(
            401,
            "invalid_api_key",
            "the API key is not valid",
        ))
    } else {
        // Several schemes sending alike (Telnyx's eight bearer schemes) say it once.
        let mut said = std::collections::HashSet::new();
        hint.retain(|h| said.insert(h.clone()));
        Err(ServerError::new(
            401,
            "missing_api_key",
            format!("no API key: send {}", hint.join(" or ")),
        ))
    }
}

/// Where a request may carry credentials.
struct Sent<'a> {
    headers: &'a HeaderMap,
    query: &'a str,
    body: Option<&'a BodyFields>,
}

/// How one scheme went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Nothing of it was sent.
    Absent,
    /// Sent, and every credential it carries is accepted.
    Accepted,
    /// Sent, and some credential is missing or not accepted.
    Refused,
}

/// How `scheme` went, with what it expects added to `hint`.
fn verdict(
    gateway: &Gateway,
    scheme: &AuthScheme,
    sent: &Sent<'_>,
    hint: &mut Vec<String>,
) -> Verdict {
    let from_pairs = |outcome: Option<bool>| match outcome {
        None => Verdict::Absent,
        Some(true) => Verdict::Accepted,
        Some(false) => Verdict::Refused,
    };
    let (credential, value) = match scheme {
        AuthScheme::All { schemes } => {
            // Every member is checked, so timing does not tell which one failed.
            let mut wanted = Vec::new();
            let verdicts: Vec<Verdict> = schemes
                .iter()
                .map(|member| verdict(gateway, member, sent, &mut wanted))
                .collect();
            hint.push(wanted.join(" and "));
            return if verdicts.iter().all(|v| *v == Verdict::Accepted) {
                Verdict::Accepted
            } else if verdicts.iter().all(|v| *v == Verdict::Absent) {
                Verdict::Absent
            } else {
                Verdict::Refused
            };
        }
        AuthScheme::Basic { username, password } => {
            hint.push("`Authorization: Basic <base64 user:password>`".to_owned());
            let Some((user, pass)) = basic_credentials(sent.headers) else {
                return Verdict::Absent;
            };
            let pass_ok = match password {
                Some(password) => gateway.accepts(password, &pass),
                None => pass.is_empty(),
            };
            // Both halves are compared, so timing does not tell which one failed.
            return if gateway.accepts(username, &user) & pass_ok {
                Verdict::Accepted
            } else {
                Verdict::Refused
            };
        }
        AuthScheme::Body { fields } => {
            let names: Vec<&str> = fields.iter().map(|(field, _)| *field).collect();
            hint.push(format!("the body fields `{}`", names.join("`, `")));
            let value = |field: &str| sent.body.and_then(|b| b.get(field)).map(str::to_owned);
            return from_pairs(pairs_accepted(gateway, fields, value));
        }
        AuthScheme::Query { params } => {
            let names: Vec<String> = params.iter().map(|(p, _)| format!("{p}=<key>")).collect();
            hint.push(format!("`?{}`", names.join("&")));
            let value = |param: &str| {
                url::form_urlencoded::parse(sent.query.as_bytes())
                    .find(|(k, _)| k == param)
                    .map(|(_, v)| v.into_owned())
            };
            return from_pairs(pairs_accepted(gateway, params, value));
        }
        AuthScheme::Minted {
            minter,
            header,
            prefix,
        } => {
            hint.push(format!("`{header}: {}<token>`", prefix.unwrap_or("")));
            let Some(token) =
                header_after_prefix(sent.headers, header, *prefix).filter(|t| !t.is_empty())
            else {
                return Verdict::Absent;
            };
            let check = gateway.token_checks.iter().find(|(m, _)| m == minter);
            return if check.is_some_and(|(_, check)| check(&token)) {
                Verdict::Accepted
            } else {
                Verdict::Refused
            };
        }
        AuthScheme::Bearer { credential } => {
            hint.push("`Authorization: Bearer <key>`".to_owned());
            (*credential, bearer_token(sent.headers))
        }
        AuthScheme::OAuth2ClientCredentials { token_url, .. } => {
            hint.push(format!(
                "`Authorization: Bearer <access token from {token_url}>`"
            ));
            (OAUTH2_TOKEN_CREDENTIAL, bearer_token(sent.headers))
        }
        AuthScheme::Header {
            header,
            credential,
            prefix,
        } => {
            hint.push(format!("`{header}: {}<key>`", prefix.unwrap_or("")));
            (
                *credential,
                header_after_prefix(sent.headers, header, *prefix),
            )
        }
        AuthScheme::Signature { .. } | AuthScheme::Anonymous => return Verdict::Absent,
    };
    match value.filter(|v| !v.is_empty()) {
        None => Verdict::Absent,
        Some(value) if gateway.accepts(credential, &value) => Verdict::Accepted,
        Some(_) => Verdict::Refused,
    }
}

/// How a scheme of several named values (body fields, query parameters) went: `None` when none
/// was sent, else whether each was sent with its credential's value. Every value is compared,
/// so timing does not tell which one failed.
fn pairs_accepted(
    gateway: &Gateway,
    pairs: &[(&str, &str)],
    value: impl Fn(&str) -> Option<String>,
) -> Option<bool> {
    let values: Vec<Option<String>> = pairs
        .iter()
        .map(|(name, _)| value(name).filter(|v| !v.is_empty()))
        .collect();
    if values.iter().all(Option::is_none) {
        return None;
    }
    Some(pairs.iter().zip(&values).fold(true, |ok, ((_, cred), v)| {
        ok & v.as_deref().is_some_and(|v| gateway.accepts(cred, v))
    }))
}
