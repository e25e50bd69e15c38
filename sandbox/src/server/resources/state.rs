//! Changes to the store's state, made under its lock: the bounds a new item must fit, putting,
//! finding, filtering and removing items (a removal journaled when durable), and waiting for a
//! commit.

use serde_json::{Map, Value};

use super::durable::{self, Change};
use super::group::{Ticket, Undo};
use super::{Disk, Item, ResourceCall, ResourceLimits, ResourceOp, ServerError, State};

/// Most sequences whose last number the store keeps ([`State::sequences`]); a handful in
/// tests, which reach it.
pub(super) const MAX_SEQUENCES: usize = if cfg!(test) { 4 } else { 10_000 };

impl State {
    /// Bounds the sequences kept: past [`MAX_SEQUENCES`], those of collections no longer held
    /// go, then all (each counts on from its items then).
    pub(super) fn bound_sequences(&mut self) {
        if self.sequences.len() < MAX_SEQUENCES {
            return;
        }
        let collections = &self.collections;
        self.sequences.retain(|key, _| {
            key.rsplit_once(' ')
                .is_some_and(|(c, _)| collections.contains_key(c))
        });
        if self.sequences.len() >= MAX_SEQUENCES {
            self.sequences.clear();
        }
    }

    /// Sends `change`, already made in memory, to disk: the ticket to wait for before
    /// answering (none in memory). When it cannot be queued it is undone here (`undo`) and the
    /// error is the answer. Inside [`State::as_one`] it is collected instead.
    pub(super) fn journal(
        &mut self,
        change: impl FnOnce() -> Change,
        undo: Undo,
    ) -> Result<Option<Ticket>, ServerError> {
        if let Some(pending) = &mut self.pending {
            pending.push((change(), undo));
            return Ok(None);
        }
        let (undo, why) = match &self.disk {
            Disk::None => return Ok(None),
            Disk::Journal(writer) => match writer.queue(change(), undo) {
                Ok(ticket) => return Ok(Some(ticket)),
                Err(refused) => *refused,
            },
            Disk::Closed => (undo, "the sandbox is stopping"),
        };
        undo.apply(self);
        Err(ServerError::new(
            503,
            "unavailable",
            format!("{why}; nothing was kept"),
        ))
    }

    /// Makes the changes of `make` (several items created or deleted by one request) and
    /// journals them as one change, kept whole or not at all: one slot in the writer's queue,
    /// one undo. When `make` fails part way, what it had changed is undone (in memory too)
    /// before the error is answered.
    pub(super) fn as_one<T>(
        &mut self,
        make: impl FnOnce(&mut State) -> Result<T, ServerError>,
    ) -> Result<(T, Option<Ticket>), ServerError> {
        let outer = self.pending.replace(Vec::new());
        let made = make(self);
        let pending = std::mem::replace(&mut self.pending, outer).unwrap_or_default();
        let value = match made {
            Ok(value) => value,
            Err(error) => {
                for (_, undo) in pending.into_iter().rev() {
                    undo.apply(self);
                }
                return Err(error);
            }
        };
        if let Some(outer) = &mut self.pending {
            // Inside another: its change holds these.
            outer.extend(pending);
            return Ok((value, None));
        }
        if pending.is_empty() || matches!(self.disk, Disk::None) {
            return Ok((value, None));
        }
        let (changes, undos): (Vec<Change>, Vec<Undo>) = pending.into_iter().unzip();
        let ticket = self.journal(|| Change::Batch(changes), Undo::Batch(undos))?;
        Ok((value, ticket))
    }
}

/// Waits for a change's commit: `507` when it failed (the change was undone).
pub(super) async fn settle(ticket: Option<Ticket>) -> Result<(), ServerError> {
    let Some(ticket) = ticket else { return Ok(()) };
    match ticket.await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(why)) => Err(durable::not_stored(&why)),
        Err(_) => Err(durable::not_stored("the store's writer stopped")),
    }
}

/// Whether an item of `bytes` fits as `id` in `collection` (replacing the item with that id):
/// the index of the one it replaces, and the store's bytes after.
pub(super) fn room(
    state: &State,
    limits: ResourceLimits,
    collection: &str,
    id: &str,
    bytes: usize,
) -> Result<(Option<usize>, usize), ServerError> {
    let items = state.collections.get(collection);
    if items.is_none() && state.collections.len() >= limits.max_collections {
        return Err(full(format!(
            "the sandbox keeps at most {} collections; `{collection}` would be one more",
            limits.max_collections
        )));
    }
    let items = items.map(Vec::as_slice).unwrap_or_default();
    let existing = items.iter().position(|i| i.id == id);
    let freed = existing.map_or(0, |i| items[i].bytes);
    if existing.is_none() && items.len() >= limits.max_items_per_collection {
        return Err(full(format!(
            "the sandbox keeps at most {} items in `{collection}`; delete some first",
            limits.max_items_per_collection
        )));
    }
    let total = state.stored_bytes - freed + bytes;
    if total > limits.max_stored_bytes {
        return Err(full(format!(
            "the sandbox keeps at most {} bytes of resources; this item would make {total}",
            limits.max_stored_bytes
        )));
    }
    Ok((existing, total))
}

/// Puts `item` in `collection` as [`room`] placed it: the item it replaced and its index.
pub(super) fn put(
    state: &mut State,
    collection: &str,
    existing: Option<usize>,
    item: Item,
    total: usize,
) -> Option<(usize, Item)> {
    let items = state.collections.entry(collection.to_owned()).or_default();
    state.stored_bytes = total;
    match existing {
        Some(i) => Some((i, std::mem::replace(&mut items[i], item))),
        None => {
            items.push(item);
            None
        }
    }
}

pub(super) fn full(message: String) -> ServerError {
    ServerError::conflict("collection_full", message)
}

/// The collection that holds item `id` for an item operation on the top-level collection
/// `collection`: that one when it holds the id, else a collection of the same name (last path
/// segment) nested under a parent that does. APIs often create and list under a parent and
/// address an item on its own: Ably's `POST /accounts/{account_id}/apps` and `PATCH
/// /apps/{id}`. (Never the other way: `DELETE /contacts/{id}/segments/{segment_id}` takes a
/// contact out of a segment, it does not delete the segment.)
pub(super) fn home_of(state: &State, collection: &str, id: Option<&str>) -> String {
    let Some(id) = id else {
        return collection.to_owned();
    };
    let holds = |items: &Vec<Item>| items.iter().any(|i| i.id == id);
    if state.collections.get(collection).is_some_and(holds) {
        return collection.to_owned();
    }
    let name = last_segment(collection);
    state
        .collections
        .iter()
        .find(|(other, items)| {
            other.len() > collection.len() && last_segment(other) == name && holds(items)
        })
        .map_or_else(|| collection.to_owned(), |(other, _)| other.clone())
}

/// The item of `collection` that `body` names by its `id`, or else by its `email` (in any
/// case): its id and value.
pub(super) fn same_item(
    state: &State,
    collection: &str,
    body: &Map<String, Value>,
) -> Option<(String, Map<String, Value>)> {
    let items = state.collections.get(collection)?;
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_ascii_lowercase);
    let by_id = body
        .get("id")
        .and_then(Value::as_str)
        .and_then(|id| items.iter().find(|i| i.id == id));
    let by_email = || {
        let email = text(body.get("email"))?;
        items
            .iter()
            .find(|i| text(i.value.get("email")).as_deref() == Some(email.as_str()))
    };
    by_id
        .or_else(by_email)
        .map(|i| (i.id.clone(), i.value.clone()))
}

fn last_segment(path: &str) -> &str {
    path.rsplit('/').find(|s| !s.is_empty()).unwrap_or_default()
}

pub(super) fn find<'s>(
    state: &'s State,
    collection: &str,
    id: Option<&str>,
    op: &ResourceOp,
) -> Result<&'s Item, ServerError> {
    let id = id.unwrap_or_default();
    let items = state.collections.get(collection);
    items
        .and_then(|items| items.iter().find(|i| i.id == id))
        // Else the item whose field the operation names it by has that value (a lookup by
        // `external_id` of contacts kept by `id`).
        .or_else(|| {
            items?
                .iter()
                .find(|i| i.value.get(op.id_field).and_then(id_text).as_deref() == Some(id))
        })
        .ok_or_else(|| missing(collection, id, op))
}

/// Removes item `id`, and every collection nested under it (`/apps/{id}/keys` beneath
/// `/apps`; `under` names the collections to look beneath: the item's own, and the one the
/// request addressed when the item lives under a parent), and sends the removal to disk when
/// durable as one change: all of it is kept, or none. The item's value and the ticket of its
/// commit.
pub(super) fn remove(
    state: &mut State,
    collection: &str,
    id: Option<&str>,
    op: &ResourceOp,
    under: &[&str],
) -> Result<(Map<String, Value>, Option<Ticket>), ServerError> {
    let id = id.unwrap_or_default();
    let items = state
        .collections
        .get_mut(collection)
        .ok_or_else(|| missing(collection, id, op))?;
    let index = items
        .iter()
        .position(|i| i.id == id)
        .ok_or_else(|| missing(collection, id, op))?;
    let item = items.remove(index);
    let value = item.value.clone();
    let prefixes: Vec<String> = under.iter().map(|c| format!("{c}/{id}/")).collect();
    let names: Vec<String> = state
        .collections
        .keys()
        .filter(|name| prefixes.iter().any(|p| name.starts_with(p.as_str())))
        .cloned()
        .collect();
    let nested: Vec<(String, Vec<Item>)> = names
        .into_iter()
        .filter_map(|name| state.collections.remove(&name).map(|items| (name, items)))
        .collect();
    let freed = item.bytes
        + nested
            .iter()
            .flat_map(|(_, items)| items)
            .map(|i| i.bytes)
            .sum::<usize>();
    state.stored_bytes = state.stored_bytes.saturating_sub(freed);
    let nested_names: Vec<String> = nested.iter().map(|(name, _)| name.clone()).collect();
    let ticket = state.journal(
        || Change::Delete {
            collection: collection.to_owned(),
            id: id.to_owned(),
            nested: nested_names,
        },
        Undo::Delete {
            collection: collection.to_owned(),
            index,
            item,
            nested,
        },
    )?;
    Ok((value, ticket))
}

fn missing(collection: &str, id: &str, op: &ResourceOp) -> ServerError {
    match (op.item_param, op.item_field) {
        (Some(param), _) => {
            ServerError::not_found(format!("`{collection}/{id}`")).with_param(param)
        }
        // Named by a body field (Mandrill's `POST /templates/info`): no path to show.
        (None, Some(field)) => ServerError::not_found(format!(
            "the item of `{collection}` whose `{field}` is `{id}`"
        ))
        .with_param(field),
        (None, None) => ServerError::not_found(format!("`{collection}/{id}`")),
    }
}

/// The items the query's filters keep (see [`ResourceOp::filters`]), every one when the query
/// sets none of them: an item is kept when each filter set finds its field equal (as text) to
/// the value, or to one of the values of a list. A filter on the operation's id field is on the
/// item's id when the item lacks the field (Bandwidth's `messageId` of a message created as
/// `{id}`).
/// How a filter compares an item's value with the one asked, by the operator its parameter's
/// name ends in (`filter[name][contains]`, `filter[created_at][gte]`; equality otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operator {
    Equal,
    /// The value holds the one asked, in any case.
    Contains,
    /// Ordered after (or at) the one asked: as numbers when both are, else as text (RFC 3339
    /// times of one offset order so).
    Above {
        or_equal: bool,
    },
    /// Ordered before (or at) the one asked.
    Below {
        or_equal: bool,
    },
}

impl Operator {
    fn of(param: &str) -> Operator {
        let operator = param
            .rsplit_once("][")
            .and_then(|(_, op)| op.strip_suffix(']'));
        match operator {
            Some("contains") => Operator::Contains,
            Some("gt") => Operator::Above { or_equal: false },
            Some("gte") => Operator::Above { or_equal: true },
            Some("lt") => Operator::Below { or_equal: false },
            Some("lte") => Operator::Below { or_equal: true },
            _ => Operator::Equal,
        }
    }

    fn passes(self, have: &str, wanted: &str) -> bool {
        let order = || match (have.parse::<f64>(), wanted.parse::<f64>()) {
            (Ok(a), Ok(b)) => a.partial_cmp(&b),
            _ => Some(have.cmp(wanted)),
        };
        match self {
            Operator::Equal => have == wanted,
            Operator::Contains => have.to_lowercase().contains(&wanted.to_lowercase()),
            Operator::Above { or_equal } => {
                order().is_some_and(|o| o.is_gt() || (or_equal && o.is_eq()))
            }
            Operator::Below { or_equal } => {
                order().is_some_and(|o| o.is_lt() || (or_equal && o.is_eq()))
            }
        }
    }
}

pub(super) fn filtered<'i>(items: &'i [Item], op: &ResourceOp, query: &Value) -> Vec<&'i Item> {
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    };
    let set: Vec<(&str, Operator, Vec<String>)> = op
        .filters
        .iter()
        .filter_map(|(param, field)| {
            let wanted = match query.get(*param)? {
                Value::Array(values) => values.iter().filter_map(text).collect(),
                // Empty, it filters nothing: Mailgun's document marks the unsubscribes list's
                // `address` required, and `address=` listed none of them.
                Value::Null => return None,
                Value::String(s) if s.is_empty() => return None,
                // Ids as text separated by commas (Textmagic's `ids=1,3`): any of them.
                Value::String(s) if super::names::plain(param).ends_with("ids") => {
                    s.split(',').map(|id| id.trim().to_owned()).collect()
                }
                one => vec![text(one)?],
            };
            // A search's query (`*`): any text field that holds it (see `list_filters`).
            let operator = match *field {
                "*" => Operator::Contains,
                _ => Operator::of(param),
            };
            Some((*field, operator, wanted))
        })
        .collect();
    let matches = |item: &Item| {
        set.iter().all(|(field, operator, wanted)| {
            let passes = |have: String| wanted.iter().any(|w| operator.passes(&have, w));
            match item.value.get(*field) {
                None if *field == "*" => item.value.values().filter_map(text).any(passes),
                None if *field == op.id_field => passes(item.id.clone()),
                // A list field matches by any of its values (Mandrill's `labels` by a `label`).
                Some(Value::Array(values)) => values.iter().filter_map(text).any(passes),
                value => value.and_then(text).is_some_and(passes),
            }
        })
    };
    let mut listed: Vec<&Item> = items.iter().filter(|i| matches(i)).collect();
    // Items are held in the order they were made: `Order=desc` (Twilio's messages) asks for
    // the newest first, and was ignored.
    if asks_for_descending(query) {
        listed.reverse();
    }
    listed
}

/// Whether a list's query asks for its items in descending order: a parameter named as a
/// sort order or direction (`Order`, `sort_order`, `direction`) whose value is `desc`, or
/// `backwards` (Ably's history, newest first by that parameter's default: the latest
/// messages asked for were the oldest).
pub(crate) fn asks_for_descending(query: &Value) -> bool {
    query.as_object().is_some_and(|query| {
        query.iter().any(|(name, value)| {
            let plain = super::names::plain(name);
            matches!(
                plain.as_str(),
                "order"
                    | "sortorder"
                    | "direction"
                    | "sortdirection"
                    | "orderdirection"
                    | "sortdir"
            ) && value.as_str().is_some_and(|v| {
                ["desc", "descending", "backwards"]
                    .iter()
                    .any(|d| v.eq_ignore_ascii_case(d))
            })
        })
    })
}

/// The ids a delete of a collection names in its query parameter or body field `op.items`:
/// a list, or text separated by commas (`?ids=a,b`).
pub(super) fn listed_ids(op: &ResourceOp, call: &ResourceCall) -> Vec<String> {
    let Some(name) = op.items else {
        return Vec::new();
    };
    let given = call.query.get(name).or_else(|| call.body.get(name));
    // An identifier object names its item by its `id` (JSON:API's `{type, id}`).
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Object(o) => match o.get(op.id_field) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        },
        _ => None,
    };
    match given {
        Some(Value::Array(ids)) => ids.iter().filter_map(text).collect(),
        Some(Value::String(ids)) => ids
            .split(',')
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(str::to_owned)
            .collect(),
        Some(other) => text(other).into_iter().collect(),
        None => Vec::new(),
    }
}

/// Whether a delete that names no item removes many: the ids a query parameter or body field
/// lists, the items a filter of the query selects, or, on a collection's own path where no
/// singleton is kept, every item (Sunshine's `DELETE .../messages`, "delete all messages").
pub(super) fn removes_many(state: &State, collection: &str, op: &ResourceOp) -> bool {
    let singleton = || {
        state
            .collections
            .get(collection)
            .is_some_and(|items| items.iter().any(|i| i.id.is_empty()))
    };
    op.items.is_some()
        || !op.filters.is_empty()
        || (op.item_param.is_none() && op.item_field.is_none() && !singleton())
}

/// The ids a delete that [`removes_many`] removes.
pub(super) fn many_ids(
    state: &State,
    collection: &str,
    op: &ResourceOp,
    call: &ResourceCall,
) -> Vec<String> {
    if op.items.is_some() {
        listed_ids(op, call)
    } else if !op.filters.is_empty() {
        selected_ids(state, collection, op, &call.query)
    } else {
        let all = state.collections.get(collection).map(Vec::as_slice);
        all.unwrap_or_default()
            .iter()
            .map(|i| i.id.clone())
            .collect()
    }
}

/// The ids of the items of `collection` that the filters given in `query` select; none when
/// the query gives none of them (a delete without a filter removes nothing).
pub(super) fn selected_ids(
    state: &State,
    collection: &str,
    op: &ResourceOp,
    query: &Value,
) -> Vec<String> {
    let given = op
        .filters
        .iter()
        .any(|(param, _)| query.get(*param).is_some_and(|v| !v.is_null() && v != ""));
    if !given {
        return Vec::new();
    }
    let all = state
        .collections
        .get(collection)
        .map(Vec::as_slice)
        .unwrap_or_default();
    filtered(all, op, query)
        .into_iter()
        .map(|item| item.id.clone())
        .collect()
}

/// Removes each held item of `ids` from `collection`, and what lives under it, in one change:
/// kept together or not at all.
pub(super) fn remove_each(
    state: &mut State,
    collection: &str,
    ids: &[String],
    op: &ResourceOp,
) -> Result<Option<Ticket>, ServerError> {
    let under = [collection];
    let (_, ticket) = state.as_one(|state| {
        for id in ids {
            if find(state, collection, Some(id), op).is_ok() {
                remove(state, collection, Some(id), op, &under)?;
            }
        }
        Ok(())
    })?;
    Ok(ticket)
}

/// A request value read as an item's id: non-empty text, or a number as text.
pub(super) fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

impl super::Resources {
    /// Stores `value` as item `id` of `collection` (replacing an item with that id), within
    /// the bounds, and sends it to disk when durable (with the id counter `next_id` when
    /// given): the ticket of its commit.
    pub(super) fn insert(
        &self,
        state: &mut State,
        collection: &str,
        id: String,
        value: Map<String, Value>,
        next_id: Option<u64>,
    ) -> Result<Option<Ticket>, ServerError> {
        let doc = serde_json::to_string(&value)
            .map_err(|e| ServerError::internal(format!("cannot encode the item: {e}")))?;
        let bytes = doc.len();
        let (existing, total) = room(state, self.limits, collection, &id, bytes)?;
        let (stored_bytes, counter) = (state.stored_bytes, state.next_id);
        let new_collection = !state.collections.contains_key(collection);
        if let Some(n) = next_id {
            state.next_id = n;
        }
        let item = Item {
            id: id.clone(),
            value,
            bytes,
        };
        let replaced = put(state, collection, existing, item, total);
        let undo = Undo::Put {
            collection: collection.to_owned(),
            id: id.clone(),
            replaced,
            new_collection,
            stored_bytes,
            next_id: counter,
        };
        state.journal(
            || Change::Put {
                collection: collection.to_owned(),
                id,
                doc,
                next_id,
            },
            undo,
        )
    }
}
