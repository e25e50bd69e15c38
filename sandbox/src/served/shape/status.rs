//! An error's fields that repeat its status or say where it happened: the answer's own
//! values, not text made up as the field's name.

use serde_json::{Map, Value};

use crate::server::resources::{ServiceSchema, ShapeSchema, Ty};

/// Names of a field that repeats the answer's HTTP status (Twilio's `status`, Novu's and Ably's
/// `statusCode`, ClickSend's `http_code`).
const STATUS_NAMES: &[&str] = &[
    "status",
    "statusCode",
    "status_code",
    "StatusCode",
    "http_code",
    "httpCode",
    "httpStatus",
    "http_status",
    "httpStatusCode",
];

/// Sets each numeric field of `filled` named like a status ([`STATUS_NAMES`]) that `given` (what
/// the gateway wrote) does not have to the answer's `status`: made up, it said 0.
/// Text made up as its field's name (`"title": "title"`, Telnyx's errors; Mandrill's
/// `"status": "status"`) says the status's reason instead (`Not Found`), `error` for a
/// status field, or the request's `path` for a field that says where ([`PATH_NAMES`]).
pub(super) fn the_status_in(
    filled: &mut Map<String, Value>,
    given: &Value,
    status: axum::http::StatusCode,
    path: &str,
) {
    for (key, value) in filled.iter_mut() {
        if value.is_number()
            && STATUS_NAMES.contains(&key.as_str())
            && given.get(key.as_str()).is_none()
        {
            *value = Value::from(status.as_u16());
        }
    }
    let reason = status.canonical_reason().unwrap_or("error");
    for (key, value) in filled.iter_mut() {
        no_name_as_text(key, value, reason, path, 0);
    }
    // A problem's `title` and `instance` made up from their fields' examples (Vonage
    // Messages' `"Internal error"` and one fixed trace id, answered with every 401 and 422)
    // are this answer's: the status's reason, the request's path.
    let problem = filled.contains_key("type") && filled.contains_key("detail");
    for (key, own) in [("title", reason), ("instance", path)] {
        if problem
            && given.get(key).is_none()
            && let Some(value) = filled.get_mut(key).filter(|v| v.is_string())
        {
            *value = Value::String(own.to_owned());
        }
    }
}

/// Adds to an error what the sandbox knows of it under each optional top-level field of the
/// error type that is absent: the answer's `status` under an integer field named like one
/// (Twilio's `status`, documented, not required); the request's path under a text field
/// named for where ([`PATH_NAMES`], RFC 9457's `instance`); and the status's reason under a
/// problem's `title` (Vonage's `{type, title, detail, instance}`, none required, answered
/// with `type` and `detail` alone). Values the sandbox knows, not ones made up.
pub(super) fn known_where_asked(
    schema: &ServiceSchema,
    ty: &Ty,
    filled: &mut Map<String, Value>,
    status: axum::http::StatusCode,
    path: &str,
) {
    let fields = match ty {
        Ty::Named(name) => match schema.named(name).map(|t| t.shape) {
            Some(ShapeSchema::Object(fields)) => fields,
            _ => return,
        },
        _ => return,
    };
    let has = |name: &str| fields.iter().any(|f| f.name == name);
    let problem = has("type") && has("detail");
    for f in fields {
        let known = match &f.ty {
            Ty::Integer if STATUS_NAMES.contains(&f.name) => Value::from(status.as_u16()),
            Ty::String if PATH_NAMES.contains(&f.name) => Value::String(path.to_owned()),
            Ty::String if problem && f.name == "title" => {
                Value::String(status.canonical_reason().unwrap_or("error").to_owned())
            }
            _ => continue,
        };
        filled.entry(f.name).or_insert(known);
    }
}

/// Names of a field of an error that says where it happened (Novu's `path`, RFC 9457's
/// `instance`): the request's path.
const PATH_NAMES: &[&str] = &[
    "path",
    "instance",
    "request_path",
    "requestPath",
    "endpoint",
];

/// [`the_status_in`]'s text named after its field, through nested objects and lists.
fn no_name_as_text(key: &str, value: &mut Value, reason: &str, path: &str, depth: usize) {
    if depth > 4 {
        return;
    }
    match value {
        Value::String(text) if text == key => {
            *text = if STATUS_NAMES.contains(&key) {
                "error".to_owned()
            } else if PATH_NAMES.contains(&key) {
                path.to_owned()
            } else {
                reason.to_owned()
            };
        }
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                no_name_as_text(k, v, reason, path, depth + 1);
            }
        }
        Value::Array(items) => {
            for v in items {
                no_name_as_text(key, v, reason, path, depth + 1);
            }
        }
        _ => {}
    }
}
