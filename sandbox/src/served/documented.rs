//! What an answer documents besides its body: the status a refusal is given in, where a created
//! item lives (`Location`), and the response headers the operation declares.

use axum::http::HeaderValue;
use axum::response::Response;
use serde_json::Value;
use tidings_codegen::check::{OperationInfo, Ty};

use crate::server::new_request_id;
use crate::server::resources::{ServiceSchema, ShapeSchema};

use super::ops::{Served, ServedOp};

/// A refusal of input in the status the operation documents for it: `400` where it documents
/// 400 and not 422 (Brevo, most providers), `422` the other way round.
pub(super) fn documented_status(op: &OperationInfo, mut response: Response) -> Response {
    use axum::http::StatusCode;
    let documented = |s: u16| op.errors.contains(&s);
    let swap = match response.status() {
        StatusCode::UNPROCESSABLE_ENTITY if documented(400) && !documented(422) => {
            StatusCode::BAD_REQUEST
        }
        StatusCode::BAD_REQUEST if documented(422) && !documented(400) => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        _ => return response,
    };
    *response.status_mut() = swap;
    response
}

/// Where the item an operation answered lives: for a create, the path of the operation that
/// gets it (the request's parameters and the new id put in its template), else
/// `<collection>/<id>` (`/Messages/<id>.json` beside `/Messages.json`); for any other operation,
/// the path asked.
pub(super) fn created_location(
    served: &Served,
    op: &ServedOp,
    asked: &str,
    params: &[(&'static str, String)],
    item: Option<&Value>,
) -> String {
    use crate::server::resources::ResourceAction;
    let id = item
        .and_then(|v| v.get(op.resource.id_field))
        .and_then(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        });
    let (ResourceAction::Create, Some(id)) = (op.resource.kind, id) else {
        return asked.to_owned();
    };
    let encode = |s: &str| {
        url::form_urlencoded::byte_serialize(s.as_bytes())
            .collect::<String>()
            .replace('+', "%20")
    };
    let getter = served.ops.iter().find(|o| {
        o.resource.kind == ResourceAction::Get && o.resource.collection == op.resource.collection
    });
    if let Some(get) = getter
        && let Some(item_param) = get.resource.item_param
    {
        let mut path = get.info.path.clone();
        for (name, value) in params {
            path = path.replace(&format!("{{{name}}}"), &encode(value));
        }
        return path.replace(&format!("{{{item_param}}}"), &encode(&id));
    }
    let asked = asked.trim_end_matches('/');
    match asked.rsplit_once('/') {
        Some((parent, last)) if last.ends_with(".json") => {
            format!(
                "{parent}/{}/{}.json",
                last.trim_end_matches(".json"),
                encode(&id)
            )
        }
        _ => format!("{asked}/{}", encode(&id)),
    }
}

/// The headers `op` documents on its success answer (`response_headers`) that the answer
/// does not carry yet: a created item's `Location` (its path), an `ETag` of the body, a
/// `Last-Modified` of now, and any other a value of its type (an enum's first value, text a
/// fresh id).
pub(super) fn documented_headers(
    schema: &ServiceSchema,
    op: &ServedOp,
    location: impl Fn() -> String,
    item: Option<&Value>,
    response: &mut Response,
) {
    use axum::http::HeaderName;
    use std::hash::{Hash, Hasher};
    for header in &op.info.response_headers {
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
                item.map(Value::to_string).hash(&mut hasher);
                format!("\"{:016x}\"", hasher.finish())
            }
            "last-modified" | "date" => httpdate::fmt_http_date(std::time::SystemTime::now()),
            _ => match &header.ty {
                Ty::Integer => "1".to_owned(),
                Ty::Number => "1.0".to_owned(),
                Ty::Boolean => "true".to_owned(),
                Ty::DateTime => crate::server::now_rfc3339(),
                Ty::Date => crate::server::now_rfc3339()[..10].to_owned(),
                Ty::Named(n) => match schema.named(n).map(|t| t.shape) {
                    Some(ShapeSchema::Enum(values)) => {
                        values.first().copied().unwrap_or_default().to_owned()
                    }
                    _ => new_request_id(),
                },
                _ => new_request_id(),
            },
        };
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert(name, value);
        }
    }
}
