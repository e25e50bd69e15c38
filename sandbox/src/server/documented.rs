//! The headers an operation documents on its success answer (the spec's `response_headers`,
//! [`OperationSpec::response_headers`]), sent by every sandbox server: the generated ones
//! (through [`super::Incoming`]'s answers) and `--spec`.

use axum::http::{HeaderName, HeaderValue};
use axum::response::Response;
use tidings_runtime::spec::{HeaderType, OperationSpec};

/// `s` escaped as one path segment (a space as `%20`, a `/` as `%2F`).
pub(crate) fn path_segment(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes())
        .collect::<String>()
        .replace('+', "%20")
}

/// Where item `id` of the collection at `asked` lives: `<asked>/<id>`, or `<name>/<id>.json`
/// beside a `.json` collection (Twilio's `/Messages/<sid>.json` beside `/Messages.json`).
pub(crate) fn item_path(asked: &str, id: &str) -> String {
    let asked = asked.trim_end_matches('/');
    let id = path_segment(id);
    match asked.rsplit_once('/') {
        Some((parent, last)) if last.ends_with(".json") => {
            format!("{parent}/{}/{id}.json", last.trim_end_matches(".json"))
        }
        _ => format!("{asked}/{id}"),
    }
}

/// Whether a header says where the next page is (`Link`, Bandwidth's `Continuation-Token`, a
/// `X-Next-Cursor`): what the paging sets when there is a next page, and left out when there
/// is none. Made up, a client following it would ask for pages forever.
fn marks_a_next_page(name: &str) -> bool {
    name == "link"
        || ["continuation", "cursor", "next", "page-token", "pagetoken"]
            .iter()
            .any(|word| name.contains(word))
}

/// Adds the headers `op` documents that `response` does not carry yet: a created item's
/// `Location` (from `location`), an `ETag` of `body`, a `Last-Modified` or `Date` of now, and
/// any other a value of its type (an enum's first value, text a fresh id). One that marks a
/// next page is not made up: without a next page, it is left out; nor is a CORS header.
pub fn documented_headers(
    op: &OperationSpec,
    location: impl Fn() -> String,
    body: &[u8],
    response: &mut Response,
) {
    use std::hash::{Hash, Hasher};
    for header in op.response_headers {
        let Ok(name) = HeaderName::from_bytes(header.name.as_bytes()) else {
            continue;
        };
        // CORS headers are the server's own policy, never made up: the sandbox answers no
        // other origin (Twilio documents `Access-Control-Allow-Origin` on every answer; made
        // up, it was `hdr_<uuid>`, and `*` would open it to every page).
        if response.headers().contains_key(&name)
            || marks_a_next_page(name.as_str())
            || name.as_str().starts_with("access-control-")
        {
            continue;
        }
        let value = match name.as_str() {
            "location" => location(),
            "etag" => {
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                body.hash(&mut hasher);
                format!("\"{:016x}\"", hasher.finish())
            }
            "last-modified" | "date" => httpdate::fmt_http_date(std::time::SystemTime::now()),
            _ => match header.ty {
                HeaderType::Integer => "1".to_owned(),
                HeaderType::Number => "1.0".to_owned(),
                HeaderType::Boolean => "true".to_owned(),
                HeaderType::DateTime => super::now_rfc3339(),
                HeaderType::Date => super::now_rfc3339()[..10].to_owned(),
                HeaderType::Enum(values) => values.first().copied().unwrap_or_default().to_owned(),
                HeaderType::Text => format!("hdr_{}", uuid::Uuid::new_v4().simple()),
            },
        };
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use tidings_runtime::spec::ResponseHeaderSpec;

    #[test]
    fn a_header_that_marks_a_next_page_or_a_cors_policy_is_not_made_up() {
        let op = OperationSpec::get("list_media", "/media").with_response_headers(&[
            ResponseHeaderSpec {
                name: "Continuation-Token",
                ty: HeaderType::Text,
            },
            ResponseHeaderSpec {
                name: "Link",
                ty: HeaderType::Text,
            },
            ResponseHeaderSpec {
                name: "X-Request-Id",
                ty: HeaderType::Text,
            },
            ResponseHeaderSpec {
                name: "Access-Control-Allow-Origin",
                ty: HeaderType::Text,
            },
        ]);
        let mut response = Response::new(axum::body::Body::empty());
        documented_headers(&op, String::new, b"", &mut response);
        let headers = response.headers();
        assert!(headers.get("continuation-token").is_none());
        assert!(headers.get("link").is_none());
        assert!(headers.get("x-request-id").is_some());
        // Twilio's documented CORS headers: the sandbox's own policy, not made up.
        assert!(headers.get("access-control-allow-origin").is_none());
    }
}
