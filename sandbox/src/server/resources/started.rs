//! What an action starts and other operations name by the id it made, RPC style: Vonage
//! Verify's `POST /json` answers a `request_id`, which `GET /search/json`, `POST /check/json`
//! and `POST /control/json` take back in their query or body. The start is kept as an item
//! of its own (its request and the ids made), so that those find it: the search answers the
//! request started, a check of its code passes or fails, an id never made is a 404. Before,
//! nothing was kept: the search answered a made-up request, and the check had nothing to check.

use serde_json::{Map, Value};

use super::{Item, ResourceCall, ServerError, State};

/// The item `call` names by an id an action made (see `ResourceCall::names_made`), with its
/// collection: `None` when the call names none that way; a 404 when no start made that id.
///
/// # Errors
/// 404 `not_found` when the id names nothing held.
pub(super) fn named<'s>(
    state: &'s State,
    call: &ResourceCall,
) -> Option<Result<(&'s str, &'s Item), ServerError>> {
    let field = call.names_made?;
    let sent = [&call.query, &call.body]
        .into_iter()
        .find_map(|v| v.get(field)?.as_str())?;
    let found = state.collections.iter().find_map(|(key, items)| {
        items
            .iter()
            .rev()
            .find(|i| i.id == sent && i.value.get(field).and_then(Value::as_str) == Some(sent))
            .map(|i| (key.as_str(), i))
    });
    Some(found.ok_or_else(|| {
        ServerError::not_found(format_args!(
            "the `{field}` `{sent}` (nothing started made it)"
        ))
        .with_param(field)
    }))
}

/// The value of the item `call` names by an id an action made: its fields, for the answer to
/// start from.
///
/// # Errors
/// As [`named`].
pub(super) fn value_named(
    state: &State,
    call: &ResourceCall,
) -> Result<Option<Map<String, Value>>, ServerError> {
    named(state, call)
        .transpose()
        .map(|found| found.map(|(_, item)| item.value.clone()))
}
