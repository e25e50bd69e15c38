//! The headers an operation documents on its success answer (the spec's `response_headers`,
//! [`OperationSpec::response_headers`]), sent by every sandbox server: the generated ones
//! (through [`super::Incoming`]'s answers) and `--spec`.

use axum::http::{HeaderName, HeaderValue};
use axum::response::Response;
use tidings_runtime::{HeaderType, OperationSpec};

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

/// Adds the headers `op` documents that `response` does not carry yet: a created item's
/// `Location` (from `location`), an `ETag` of `body`, a `Last-Modified` or `Date` of now, and
/// any other a value of its type (an enum's first value, text a fresh id).
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
        if response.headers().contains_key(&name) {
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
