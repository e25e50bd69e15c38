//! A request body checked against its operation's body type, as the store takes it.

use serde_json::Value;

use super::validate::{check, not_service_set, with_defaults, without_read_only};
use crate::server::ServerError;

/// A body as read checked against `op`'s body type, with what the service takes for a field a
/// create left out, and only what an update may write.
pub(super) fn checked_body(
    served: &super::ops::Served,
    op: &super::ops::ServedOp,
    value: Value,
) -> Result<Value, ServerError> {
    use crate::server::resources::ResourceAction;
    Ok(match &op.body {
        Some(ty) => {
            check(served.schema, ty, &value, "")?;
            let value = without_read_only(served.schema, ty, value);
            // A create keeps what the service takes for a field left out; an update
            // leaves such a field as it is, and writes only what its body's type has,
            // never what only the service sets on the item (Zenvia's template `status`:
            // a client approved its own template).
            match op.resource.kind {
                ResourceAction::Create => {
                    super::held::with_caller(served, op, with_defaults(served.schema, ty, value))
                }
                ResourceAction::Merge | ResourceAction::Replace => {
                    let value =
                        crate::server::resources::declared_keys_only(served.schema, ty, value);
                    not_service_set(served.schema, &op.resource, value)
                }
                _ => value,
            }
        }
        // A write the spec gives no body: the client sends `{}`, and nothing else is
        // read (its exported document says so too).
        None if value.as_object().is_some_and(|m| !m.is_empty()) => {
            return Err(ServerError::validation(
                "body".to_owned(),
                format!("`{}` takes no body fields", op.info.name),
            ));
        }
        None => value,
    })
}
