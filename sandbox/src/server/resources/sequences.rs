//! Numbers that say where an item comes in its collection: Twilio's message `index`, a Sync
//! list item's `index`, given in order and never again after a delete.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{ResourceOp, ServiceSchema, Ty};

/// Names of an integer field that says where an item comes in its collection (Twilio's
/// message `index`: "in order of when the message was received").
const SEQUENCE_NAMES: &[&str] = &["index", "sequence", "seq", "position", "sequence_number"];

/// The numbers a collection's sequences gave, so a deleted item's is not given again.
pub(super) struct Sequences<'s> {
    /// The collection the new item goes in.
    pub(super) collection: &'s str,
    /// The last number given, keyed `collection field`.
    pub(super) last: &'s mut HashMap<String, i64>,
}

/// Sets each integer field of a new item of `ty` named as its place in the collection
/// ([`SEQUENCE_NAMES`]) that the create did not send to one past the largest the collection's
/// `held` items have and the sequence gave (0 for the first): every message was `index: 0`,
/// its `default`; after the newest was deleted, the next took its number (Twilio's message
/// `index`, "in order of when the message was received").
pub(super) fn next_in_sequence(
    schema: &ServiceSchema,
    ty: Option<&Ty>,
    item: &mut Map<String, Value>,
    held: &[&Map<String, Value>],
    given: Sequences<'_>,
) {
    let Some(fields) = ty.and_then(|ty| schema.object_fields(ty)) else {
        return;
    };
    for f in fields {
        if f.ty != Ty::Integer || !SEQUENCE_NAMES.contains(&f.name) || item.contains_key(f.name) {
            continue;
        }
        let next = next_number((given.collection, held), given.last, f.name);
        item.insert(f.name.to_owned(), Value::from(next));
    }
}

/// Numbers a new item's id where the id field is an integer named as its place (Twilio Sync's
/// list item `index`, read at `/Items/{Index}`): one past the collection's last, 0 for the
/// first, in `body` as if sent. Made from the store's counter, the first item of a list was
/// `index` 11, the next list's first 28.
pub(super) fn position_id(
    schema: &ServiceSchema,
    (op, item_ty): (&ResourceOp, Option<&Ty>),
    (collection, held): (&str, &[&Map<String, Value>]),
    last: &mut HashMap<String, i64>,
    body: &mut Map<String, Value>,
) {
    let integer = item_ty
        .and_then(|ty| schema.object_fields(ty))
        .and_then(|fs| fs.iter().find(|f| f.name == op.id_field))
        .is_some_and(|f| f.ty == Ty::Integer);
    if !integer || !SEQUENCE_NAMES.contains(&op.id_field) || body.contains_key(op.id_field) {
        return;
    }
    let next = next_number((collection, held), last, op.id_field);
    body.insert(op.id_field.to_owned(), Value::from(next));
}

/// The next number of the sequence `field` of `collection`: one past the largest its `held`
/// items have and the sequence gave (`last`, which keeps it), 0 for the first.
fn next_number(
    (collection, held): (&str, &[&Map<String, Value>]),
    last: &mut HashMap<String, i64>,
    field: &str,
) -> i64 {
    let key = format!("{collection} {field}");
    let next = held
        .iter()
        .filter_map(|h| h.get(field)?.as_i64())
        .chain(last.get(&key).copied())
        .max()
        .map_or(0, |n| n.saturating_add(1));
    last.insert(key, next);
    next
}
