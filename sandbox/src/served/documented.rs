//! What an answer documents besides its body: the status a refusal is given in, where a created
//! item lives (`Location`), and the response headers the operation declares.

use axum::response::Response;
use serde_json::Value;
use tidings_codegen::check::OperationInfo;

use crate::server::{item_path, path_segment};

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
    // The refusal was logged with the status it was made with: say which one the wire gets.
    tracing::info!(
        from = response.status().as_u16(),
        status = swap.as_u16(),
        operation = %op.name,
        "refusal answered in the status the operation documents"
    );
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
    let encode = path_segment;
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
    item_path(asked, &id)
}
