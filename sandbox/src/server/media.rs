//! Whether a request body's media type is the one its operation takes, and the 415 when not.

use axum::http::header::HeaderValue;
use tidings_runtime::spec::BodyEncoding;

use super::ServerError;

/// Whether a request's `Content-Type` fits the operation's body encoding (`is_json` for JSON).
pub(crate) fn media_fits(
    op: &tidings_runtime::spec::OperationSpec,
    value: &HeaderValue,
    is_json: impl Fn(&HeaderValue) -> bool,
) -> bool {
    let essence = |v: &HeaderValue| {
        v.to_str()
            .unwrap_or_default()
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    };
    match op.body_encoding {
        // JSON, or a form (in either encoding, as a form operation takes it) where the spec
        // says the service also takes one (Mailgun's bounces).
        BodyEncoding::Json => {
            is_json(value)
                || (op.body_media.iter().any(|m| is_form_media(m))
                    && is_form_media(&essence(value)))
        }
        // Either form encoding, whichever the operation documents (see `Incoming::form`).
        BodyEncoding::Form(_) | BodyEncoding::Multipart(_) => matches!(
            essence(value).as_str(),
            "application/x-www-form-urlencoded" | "multipart/form-data"
        ),
        BodyEncoding::Binary => value
            .to_str()
            .is_ok_and(|v| v.contains('/') && op.takes_media(v)),
    }
}

/// The 415 for a body of the wrong media type, naming the one the operation takes.
pub(crate) fn unsupported_media(op: &tidings_runtime::spec::OperationSpec) -> ServerError {
    let media = match op.body_encoding {
        BodyEncoding::Json => "application/json",
        BodyEncoding::Form(_) => "application/x-www-form-urlencoded` or `multipart/form-data",
        BodyEncoding::Multipart(_) => "multipart/form-data` or `application/x-www-form-urlencoded",
        BodyEncoding::Binary if op.body_media.is_empty() => "<the file's media type>",
        BodyEncoding::Binary => &op.body_media.join("` or `"),
    };
    let kind = match op.body_encoding {
        BodyEncoding::Json => "a JSON",
        BodyEncoding::Form(_) => "a form",
        BodyEncoding::Multipart(_) => "a multipart",
        BodyEncoding::Binary => "a binary",
    };
    ServerError::new(
        415,
        "unsupported_media_type",
        format!("this operation takes {kind} body: send `Content-Type: {media}`"),
    )
    .with_param("Content-Type")
}

/// Whether `essence` (a media type, lower case) is one of the two form encodings.
pub(crate) fn is_form_media(essence: &str) -> bool {
    matches!(
        essence,
        "application/x-www-form-urlencoded" | "multipart/form-data"
    )
}
