//! What a served spec's documented error examples say beyond one operation: the text every
//! example of the error type gives alike, and the example documented for each status.

use std::collections::HashMap;

use serde_json::{Map, Value};

/// An example's request id (Intercom's errors all answered the documented
/// `b5d5c8d1-...`) as this answer's own: its `x-request-id`, else a fresh one.
pub(super) fn this_request(object: &mut Map<String, Value>, parts: &axum::http::response::Parts) {
    let own = parts
        .headers
        .get(crate::server::X_REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .map_or_else(
            || format!("req_{}", uuid::Uuid::new_v4().simple()),
            str::to_owned,
        );
    for key in ["request_id", "requestId", "trace_id", "traceId"] {
        if let Some(slot) = object.get_mut(key).filter(|v| v.is_string()) {
            // A UUID where the document shows one (Intercom's `request_id`, format `uuid`):
            // the request's own when it is one, else a fresh one, never a fixed one.
            let uuid = |v: &str| uuid::Uuid::try_parse(v).is_ok();
            *slot = Value::String(match slot.as_str() {
                Some(held) if uuid(held) && !uuid(&own) => uuid::Uuid::new_v4().to_string(),
                _ => own.clone(),
            });
        }
    }
}

/// The example documented for a status in an error type, by `(status, type)`.
pub(super) type ByStatus =
    HashMap<(u16, Option<tidings_spec::Ty<tidings_spec::Owned>>), Map<String, Value>>;

/// The example each status has in each error type, where an operation documents one for that
/// status alone (Telnyx's 404 `{"errors": [{"code": "10005", "title": "Resource not found"}]}`,
/// documented once where every operation answers 404): the first, in the spec's order.
pub(super) fn by_status(service: &tidings_codegen::check::Service) -> ByStatus {
    let mut found = ByStatus::new();
    let bodies = service.operations.iter().flat_map(|o| &o.error_bodies);
    for body in bodies.filter(|b| b.statuses.0 == b.statuses.1) {
        if let Some(example) = &body.example {
            found
                .entry((body.statuses.0, body.ty.clone()))
                .or_insert_with(|| example.clone());
        }
    }
    found
}

/// The top-level text fields that two or more documented examples of the error type `ty`
/// give, all alike, one of them of a client error, less the code's and the message's: text
/// shown only with server errors is theirs (Vonage Messages' `title: "Internal error"`, shown
/// on each 500, was answered with every 401 and 422).
pub(super) fn constants(
    service: &tidings_codegen::check::Service,
    ty: Option<&tidings_spec::Ty<tidings_spec::Owned>>,
    (code, message): &(Option<String>, Option<String>),
) -> Map<String, Value> {
    let examples = service
        .operations
        .iter()
        .flat_map(|o| &o.error_bodies)
        .filter(|b| b.ty.as_ref() == ty)
        .filter_map(|b| Some((b.statuses, b.example.as_ref()?)));
    let mut seen: Map<String, Value> = Map::new();
    // How many examples give each key, and whether one is of a client error.
    let mut counts: HashMap<String, (usize, bool)> = HashMap::new();
    let mut differ = std::collections::HashSet::new();
    for (statuses, example) in examples {
        for (key, value) in example.iter().filter(|(_, v)| v.is_string()) {
            match seen.get(key) {
                Some(held) if held != value => {
                    differ.insert(key.clone());
                }
                Some(_) => {}
                None => {
                    seen.insert(key.clone(), value.clone());
                }
            }
            let count = counts.entry(key.clone()).or_default();
            count.0 += 1;
            count.1 |= statuses.0 < 500;
        }
    }
    let top = |path: &Option<String>, key: &str| {
        path.as_deref()
            .is_some_and(|p| p.split('.').next() == Some(key))
    };
    seen.retain(|key, _| {
        !differ.contains(key)
            && counts
                .get(key)
                .is_some_and(|(n, client)| *n >= 2 && *client)
            && !top(code, key)
            && !top(message, key)
    });
    seen
}

/// The example another operation documents for `key` (a status and an error type), unless its
/// code (at the dotted `code` path) says which thing was not found and the request's `path`
/// does not name that thing: Intercom's 404 `admin_not_found`, documented once, answered for
/// a deleted contact, would say the wrong thing is missing.
pub(super) fn borrowed<'a>(
    examples: &'a ByStatus,
    key: &(u16, Option<tidings_spec::Ty<tidings_spec::Owned>>),
    code: Option<&str>,
    path: &str,
) -> Option<&'a Map<String, Value>> {
    let example = examples.get(key)?;
    let whole = Value::Object(example.clone());
    let value = code.and_then(|c| super::at_path(&whole, c));
    let thing = value
        .and_then(Value::as_str)
        .and_then(|c| c.strip_suffix("_not_found"));
    match thing {
        Some(thing)
            if !path
                .to_ascii_lowercase()
                .contains(&thing.to_ascii_lowercase()) =>
        {
            None
        }
        _ => Some(example),
    }
}
