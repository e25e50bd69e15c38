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
    // A listed item lives where a created one does.
    let (ResourceAction::Create | ResourceAction::List, Some(id)) = (op.resource.kind, id) else {
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

/// Names of an item's link to itself (Textmagic's `href`, Twilio's `uri`).
const SELF_LINKS: &[&str] = &[
    "href",
    "uri",
    "url",
    "self",
    "self_link",
    "selfLink",
    "resource_uri",
    "resourceUri",
];

/// The link the store makes up for a field that holds one (the sample of format `uri`).
const MADE_UP_LINK: &str = "https://example.com/";

/// Sets an item's made-up link to itself ([`SELF_LINKS`]), in the answer or in its object that
/// holds the item's id field, to where the item lives (`location` of that object, as
/// [`created_location`] says), an absolute URL on the request's `host` as the made-up one was
/// (Twilio's `url`): a client that followed `href` left the sandbox (Textmagic's `{id,
/// href}`).
pub(super) fn self_links(
    value: &mut Value,
    (id_field, host): (&str, Option<&str>),
    location: impl Fn(&Value) -> String,
) {
    let holds_item = |map: &serde_json::Map<String, Value>| map.contains_key(id_field);
    let top_holds = value.as_object().is_some_and(holds_item);
    // The items of a list too, bare or in a page's field (Twilio's `{"services": [...]}`):
    // each item's own link, where they all said `https://example.com/`.
    let holders: Vec<&mut serde_json::Map<String, Value>> = match value {
        Value::Object(top) if top_holds => vec![top],
        Value::Object(top) => top
            .values_mut()
            .flat_map(objects_in)
            .filter(|m| holds_item(m))
            .collect(),
        Value::Array(_) => objects_in(value)
            .into_iter()
            .filter(|m| holds_item(m))
            .collect(),
        _ => return,
    };
    for holder in holders {
        let names: Vec<&str> = SELF_LINKS
            .iter()
            .copied()
            .filter(|name| holder.get(*name).and_then(Value::as_str) == Some(MADE_UP_LINK))
            .collect();
        if names.is_empty() {
            continue;
        }
        let here = location(&Value::Object(holder.clone()));
        let here = match host {
            Some(host) if here.starts_with('/') => format!("http://{host}{here}"),
            _ => here,
        };
        for name in names {
            holder.insert(name.to_owned(), Value::String(here.clone()));
        }
    }
}

/// The objects `value` is, or lists.
fn objects_in(value: &mut Value) -> Vec<&mut serde_json::Map<String, Value>> {
    match value {
        Value::Array(items) => items.iter_mut().filter_map(Value::as_object_mut).collect(),
        Value::Object(map) => vec![map],
        _ => Vec::new(),
    }
}
