//! Creates of many items in one call: a list body (SendGrid's contacts, Mailgun's bounces),
//! or items keyed by their ids (Stream's users), all or none.

use super::state::{full, same_item};
use super::*;

/// The items of a body that keys them by their ids (Stream's `users: {"<id>": {...}}`): each
/// value, with its key as its `id_field` where it names none.
pub(super) fn keyed_items(keyed: &Map<String, Value>, id_field: &str) -> Vec<Value> {
    keyed
        .iter()
        .map(|(key, item)| {
            let mut item = item.clone();
            if let Value::Object(fields) = &mut item {
                fields
                    .entry(id_field.to_owned())
                    .or_insert_with(|| Value::String(key.clone()));
            }
            item
        })
        .collect()
}

/// The type of the items a create of many answers (Stream's `users: map<FullUserResponse>`,
/// keyed by id): the object type of a list or map field of the answer that has the id field.
fn answered_item_type(schema: &ServiceSchema, op: &ResourceOp) -> Option<Ty> {
    let fields = schema.object_fields(op.response.as_ref()?)?;
    fields.iter().find_map(|f| match f.ty {
        Ty::List(item) | Ty::Map(item) => schema
            .object_fields(item)?
            .iter()
            .any(|i| i.name == op.id_field)
            .then_some(*item),
        _ => None,
    })
}

/// The items kept, each as the answer's item type `ty` shows it.
fn answered_each(schema: &ServiceSchema, ty: &Ty, kept: Vec<Map<String, Value>>) -> Vec<Value> {
    kept.into_iter()
        .map(|item| {
            let item = Value::Object(item);
            only_declared(schema, ty, fill(schema, ty, Some(&item), 0, None))
        })
        .collect()
}

/// The list field of an object answer whose items hold the operation's id field (a list of
/// what was made, or of their ids), and its item type.
fn made_listed(schema: &ServiceSchema, op: &ResourceOp) -> Option<(&'static str, Ty)> {
    let fields = schema.object_fields(op.response.as_ref()?)?;
    fields.iter().find_map(|f| match f.ty {
        Ty::List(item) => schema
            .object_fields(item)?
            .iter()
            .any(|i| i.name == op.id_field)
            .then_some((f.name, *item)),
        _ => None,
    })
}

impl Resources {
    /// Creates each object of a list body, all or none (a bound hit part way undoes the ones
    /// before it; when durable, they are one change), answering the operation's response type.
    pub(super) fn create_each(
        &self,
        schema: &ServiceSchema,
        op: &ResourceOp,
        collection: &str,
        sent: &Value,
        items: &[Value],
        upsert: bool,
    ) -> Result<(Value, Option<Ticket>), ServerError> {
        let mut bodies = Vec::with_capacity(items.len());
        let mut bytes = 0;
        for item in items {
            let body = match item {
                Value::Object(body) => body.clone(),
                // A plain value is an item of a set, keyed by itself (SendGrid's suppressed
                // `recipient_emails`): one held already is kept once.
                Value::String(_) | Value::Number(_) if op.items.is_some() => {
                    Map::from_iter([(op.id_field.to_owned(), item.clone())])
                }
                _ => {
                    return Err(ServerError::bad_request(
                        "each item of a list body to create must be an object",
                    ));
                }
            };
            bytes += item.to_string().len();
            bodies.push(body);
        }
        let item_ty = answered_item_type(schema, op);
        let mut state = self.lock();
        // All or none: the whole list must fit (counted as new items) before any is kept.
        let held = state.collections.get(collection).map_or(0, Vec::len);
        if held + bodies.len() > self.limits.max_items_per_collection {
            return Err(full(format!(
                "the sandbox keeps at most {} items in `{collection}`; {} more do not fit beside {held}",
                self.limits.max_items_per_collection,
                bodies.len()
            )));
        }
        if state.stored_bytes + bytes > self.limits.max_stored_bytes {
            return Err(full(format!(
                "the sandbox keeps at most {} bytes of resources; these {} items would make {}",
                self.limits.max_stored_bytes,
                bodies.len(),
                state.stored_bytes + bytes
            )));
        }
        // One change for the whole list: kept together or not at all.
        let mut made = Vec::new();
        let mut kept = Vec::new();
        let ((), ticket) = state.as_one(|state| {
            for body in bodies {
                match upsert
                    .then(|| same_item(state, collection, &body))
                    .flatten()
                {
                    // Merged into the item it names, which keeps its id.
                    Some((id, mut value)) => {
                        value.extend(body);
                        fill::stamp_last_change(schema, item_ty.as_ref(), &mut value);
                        kept.push(value.clone());
                        self.insert(state, collection, id, value, None)?;
                    }
                    // Filled as the answer shows the items (their times made once, kept);
                    // stored as sent where the answer shows none.
                    None => {
                        let (value, _) = self.create_one(
                            state,
                            schema,
                            op,
                            collection,
                            (item_ty.as_ref(), &ResourceCall::default()),
                            body,
                        )?;
                        made.extend(value.get(op.id_field).cloned());
                        kept.push(value);
                    }
                }
            }
            Ok(())
        })?;
        drop(state);
        // An answer that lists what was made (BulkSMS's `POST /messages`: "the messages that
        // were created") lists the items kept, by the ids a read finds them by; made up from
        // the body, its ids were of no item.
        if let Some(Ty::List(answered)) = &op.response
            && !upsert
            && kept.len() == items.len()
        {
            let each = answered_each(schema, answered, kept);
            return Ok((Value::Array(each), ticket));
        }
        // An answer whose list holds what was made, or its ids (CallFire's `POST /contacts`
        // answers `{"items": [{"id": 1}, ...]}`, `POST /texts` `{"items": [<text>, ...]}`):
        // the items kept, in the order sent; it was `{}`.
        if let (Some(ty), Some((field, answered))) = (&op.response, made_listed(schema, op))
            && !upsert
            && kept.len() == items.len()
        {
            let each = answered_each(schema, &answered, kept);
            let listed = Value::Object(Map::from_iter([(field.to_owned(), Value::Array(each))]));
            let value = only_declared(schema, ty, fill(schema, ty, Some(&listed), 0, None));
            return Ok((value, ticket));
        }
        let value = op.response.as_ref().map_or(Value::Null, |ty| {
            // What the answer shares with the body is answered as sent (SendGrid's suppression
            // answers the `recipient_emails` added).
            let value = only_declared(schema, ty, fill(schema, ty, Some(sent), 0, None));
            let value = with_made_ids(schema, ty, value, &made);
            if upsert {
                self.fresh_ids(schema, ty, value)
            } else {
                value
            }
        });
        Ok((value, ticket))
    }
}

/// The answer of a create of many with its list of the ids made, in the order sent, where its
/// type has one (Zulip's `POST /drafts` answering `ids`: a client edits and deletes each draft
/// by it; it was left out).
fn with_made_ids(schema: &ServiceSchema, ty: &Ty, mut value: Value, made: &[Value]) -> Value {
    let Some(fields) = schema.object_fields(ty) else {
        return value;
    };
    let ids = fields.iter().find(|f| {
        let plain = f.name.to_ascii_lowercase();
        (plain == "ids" || plain.ends_with("_ids"))
            && matches!(f.ty, Ty::List(Ty::Integer | Ty::String))
    });
    if let (Some(f), Value::Object(map)) = (ids, &mut value)
        && !made.is_empty()
    {
        map.insert(f.name.to_owned(), Value::Array(made.to_vec()));
    }
    value
}
