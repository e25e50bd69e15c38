//! Files sent as they are (`body_encoding: binary`, Bandwidth's media upload): the store keeps
//! their bytes (base64) and media type in the item, a `bytes` answer sends them back as they
//! came, and no JSON answer shows them.

use serde_json::Value;

use crate::server::Incoming;
use crate::server::resources::{FILE_BYTES, FILE_MEDIA};

/// The item a file upload stores: the bytes (base64) and the media type they came with. The
/// body limits bound them, and the store counts them against its bytes.
pub(super) fn stored_file(incoming: &Incoming) -> Value {
    use base64::Engine as _;
    let media = incoming
        .context()
        .headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("application/octet-stream")
        .to_owned();
    let encoded = base64::engine::general_purpose::STANDARD.encode(incoming.raw_body());
    serde_json::json!({ FILE_BYTES: encoded, FILE_MEDIA: media })
}

/// The file an item holds (what a `bytes` answer sends) and its media type; none: no bytes.
pub(super) fn file_of(item: &Value) -> (Vec<u8>, Option<String>) {
    use base64::Engine as _;
    let bytes = item
        .get(FILE_BYTES)
        .and_then(Value::as_str)
        .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
        .unwrap_or_default();
    let media = item
        .get(FILE_MEDIA)
        .and_then(Value::as_str)
        .map(str::to_owned);
    (bytes, media)
}

/// `value` without the keys a stored file keeps (at any depth): they are not the answer's.
pub(super) fn without_files(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove(FILE_BYTES);
            map.remove(FILE_MEDIA);
            map.values_mut().for_each(without_files);
        }
        Value::Array(items) => items.iter_mut().for_each(without_files),
        _ => {}
    }
}
