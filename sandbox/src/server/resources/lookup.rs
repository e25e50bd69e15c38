//! Which item a request names: by its path or a body field, by another of its values (an
//! alias), one an action names that the store does not hold, or the one item of a singleton.

use super::call::substitute;
use super::shape::answers_another;
use super::state::{find, home_of, id_text};
use super::{ResourceAction, ResourceCall, ResourceOp, Resources, ServerError, Value};

impl Resources {
    /// The id of the item a path names by another of its values (Brevo's
    /// `/contacts/{identifier}` takes a contact's id *or* its email, Postmark's
    /// `/templates/{templateIdOrAlias}` an alias): `None` when an item has that id, or no
    /// single item has a top-level text field of that value.
    pub fn alias_of(&self, op: &ResourceOp, call: &ResourceCall) -> Option<String> {
        let param = op.item_param?;
        let value = &call.path.iter().find(|(name, _)| *name == param)?.1;
        let collection = substitute(op.collection, &call.path);
        let state = self.lock();
        let items = state.collections.get(&collection)?;
        if items.iter().any(|i| i.id == *value) {
            return None;
        }
        // Text, or a number whose digits the path carries (Zulip's `/users/{user_id}`).
        let holds = |v: &Value| match v {
            Value::String(text) => text == value,
            Value::Number(n) => n.to_string() == *value,
            _ => false,
        };
        // At the top of the item, or in an object of its under the label another path
        // parameter names (OneSignal's `/users/by/external_id/u-1`: `identity.external_id`).
        let labels: Vec<&str> = call.path.iter().map(|(_, v)| v.as_str()).collect();
        let labelled = |v: &Value| {
            v.as_object()
                .is_some_and(|map| labels.iter().any(|l| map.get(*l).is_some_and(holds)))
        };
        // Only a field that may stand for the item (its unique name, alias, email): a
        // profile's `name` is not its id (Telnyx's `DELETE /outbound_voice_profiles/abc`
        // deleted the one named `abc`).
        let stands_for = |field: &str| tidings_spec::names_in_place_of_id(field, param);
        let mut found = items.iter().filter(|i| {
            i.value
                .iter()
                .any(|(field, v)| (holds(v) && stands_for(field)) || labelled(v))
        });
        match (found.next(), found.next()) {
            (Some(item), None) => Some(item.id.clone()),
            _ => None,
        }
    }

    /// `call` with each parent its path names by another of its values (Twilio Sync's
    /// `/Lists/{ListSid}/Items`, where the list's `unique_name` may stand for its sid) naming
    /// it by its id, as its children are kept: the one item of the parent's collection that
    /// holds the value in a top-level text field, where none has it as its id. The items of
    /// a list named by its unique name were a 404.
    pub fn parents_by_alias(&self, op: &ResourceOp, call: &mut ResourceCall) {
        let state = self.lock();
        let mut rest = op.collection;
        let mut upto = 0;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                return;
            };
            let param = &rest[open + 1..open + close];
            let parent = &op.collection[..upto + open].trim_end_matches('/');
            upto += open + close + 1;
            rest = &op.collection[upto..];
            let collection = substitute(parent, &call.path);
            let Some(items) = state.collections.get(&collection) else {
                continue;
            };
            let Some(slot) = call.path.iter_mut().find(|(name, _)| *name == param) else {
                continue;
            };
            if items.iter().any(|i| i.id == slot.1) {
                continue;
            }
            let mut found = items.iter().filter(|i| {
                i.value.iter().any(|(field, v)| {
                    v.as_str() == Some(slot.1.as_str())
                        && tidings_spec::names_in_place_of_id(field, param)
                })
            });
            if let (Some(item), None) = (found.next(), found.next()) {
                slot.1 = item.id.clone();
            }
        }
    }

    /// Makes the ids of items of `collections` (templates, as [`ResourceOp::collection`])
    /// numbers where no answer says what an id is: an integer path parameter names their items
    /// (Zulip's `/user_groups/{user_group_id}`), so a made-up text id could never be named.
    pub fn key_by_integers(&self, collections: impl IntoIterator<Item = String>) {
        self.lock().integer_keyed.extend(collections);
    }

    /// An item named in the request by another of its values, where the operation names items
    /// by a request field the request leaves out (Rocket.Chat's `users.info?username=` beside
    /// `userId`, `channels.info?roomName=` beside `roomId`): the one item whose field of that
    /// name, or of its last word (`roomName` → `name`), holds the value sent.
    pub fn named_otherwise(&self, op: &ResourceOp, call: &ResourceCall) -> Option<String> {
        let field = op.item_field.filter(|_| op.item_param.is_none())?;
        let sent = |v: &Value| v.as_object().filter(|m| m.contains_key(field)).is_some();
        if sent(&call.body) || sent(&call.query) {
            return None;
        }
        let pairs: Vec<(&String, &str)> = [&call.body, &call.query]
            .into_iter()
            .filter_map(Value::as_object)
            .flatten()
            .filter_map(|(name, v)| v.as_str().map(|text| (name, text)))
            .collect();
        let collection = substitute(op.collection, &call.path);
        let state = self.lock();
        let items = state.collections.get(&collection)?;
        let mut found = items.iter().filter(|i| {
            pairs.iter().any(|(name, text)| {
                let last = last_word(name);
                [name.as_str(), last.as_str()]
                    .iter()
                    .any(|n| i.value.get(*n).and_then(Value::as_str) == Some(*text))
            })
        });
        match (found.next(), found.next()) {
            (Some(item), None) => Some(item.id.clone()),
            _ => None,
        }
    }

    /// The item a create-or-update names by the one value its body holds besides an id
    /// (Intercom's `POST /tags {"name": "vip"}`, "created if not found"): a body of one text
    /// can only be keyed by that text, so the one held item whose field of that name holds it
    /// is the one updated. `None` when the body gives an id, holds more than one other
    /// field, or no item (or more than one) holds the value.
    pub fn keyed_by_its_one_value(&self, op: &ResourceOp, call: &ResourceCall) -> Option<String> {
        let body = call.body.as_object()?;
        if op.kind != ResourceAction::Create || body.contains_key(op.id_field) {
            return None;
        }
        let [(field, Value::String(text))] = body.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let collection = substitute(op.collection, &call.path);
        let state = self.lock();
        let mut found = state
            .collections
            .get(&collection)?
            .iter()
            .filter(|i| i.value.get(field.as_str()).and_then(Value::as_str) == Some(text));
        match (found.next(), found.next()) {
            (Some(item), None) => Some(item.id.clone()),
            _ => None,
        }
    }

    /// The 409 of a create that gives the id of an item the store holds (Loops' second
    /// `POST /contacts/create` of one email: "Email or userId already exists"), for an
    /// operation that documents a 409; otherwise a create with a held id replaces the item.
    ///
    /// So does a create whose field named as unique (Twilio's `UniqueName`, which "can be
    /// used to address the resource in place of the resource's `sid`", and a User's
    /// `Identity`) holds the value an item holds there: two items of one name made the name
    /// address neither.
    ///
    /// An update that gives an item's unique name another item holds is refused too (it made
    /// both items lose their address): the item it updates excepted.
    pub(crate) fn already_held(&self, op: &ResourceOp, call: &ResourceCall) -> Option<ServerError> {
        // The item an update names: its own name is no conflict.
        let updated = match op.kind {
            ResourceAction::Merge | ResourceAction::Replace => {
                let param = op.item_param?;
                Some(call.path.iter().find(|(name, _)| *name == param)?.1.clone())
            }
            _ => None,
        };
        // A create that asks to update what it names when it is held (Mailgun's member added
        // with `upsert=yes`): no conflict, the item is replaced.
        if (op.kind != ResourceAction::Create && updated.is_none())
            || call.body.get("upsert").and_then(Value::as_bool) == Some(true)
        {
            return None;
        }
        let collection = substitute(op.collection, &call.path);
        let state = self.lock();
        let collection = home_of(&state, &collection, updated.as_deref());
        // The updated item is not among the others, named by its id or another of its values
        // (Twilio's conversation by its `UniqueName`).
        let items: Vec<_> = state
            .collections
            .get(&collection)?
            .iter()
            .filter(|i| {
                updated.as_deref().is_none_or(|id| {
                    i.id != id && !i.value.values().any(|v| v.as_str() == Some(id))
                })
            })
            .collect();
        let held = |field: &str, value: &str| {
            ServerError::conflict(
                "already_exists",
                format!("`{collection}` already holds an item whose `{field}` is `{value}`"),
            )
            .with_param(field)
        };
        if updated.is_none()
            && let Some(id) = call.body.get(op.id_field).and_then(id_text)
            && items.iter().any(|i| i.id == id)
        {
            return Some(held(op.id_field, &id));
        }
        // An identity of aliases (OneSignal's user `identity: {"external_id": "u-1"}`): one
        // alias another item holds is a conflict, as the document's 409 says.
        if let Some(Value::Object(aliases)) = call.body.get("identity") {
            for (label, alias) in aliases {
                let Some(alias) = alias.as_str() else {
                    continue;
                };
                let taken = items.iter().any(|i| {
                    i.value.get("identity").and_then(|held| held.get(label))
                        == Some(&Value::String(alias.to_owned()))
                });
                if taken {
                    return Some(held(&format!("identity.{label}"), alias));
                }
            }
        }
        // An `Identity` names a user (Twilio Chat's, a participant of a conversation), not a
        // thing a user holds several of (Notify's bindings: "up to 20 for the same Identity").
        let people = super::names::collection_thing(op.collection).is_some_and(|thing| {
            ["user", "participant", "member", "identity", "person"].contains(&thing.as_str())
        });
        let unique = call.body.as_object()?.iter().find_map(|(name, value)| {
            let plain = super::names::plain(name);
            let value = value.as_str().filter(|v| !v.is_empty())?;
            (plain.contains("unique") || (plain == "identity" && people))
                .then_some((name, plain, value))
        });
        let (name, plain, value) = unique?;
        items
            .iter()
            .any(|i| {
                i.value
                    .iter()
                    .any(|(k, v)| super::names::plain(k) == plain && v.as_str() == Some(value))
            })
            .then(|| held(name, value))
    }

    /// The 404 of an action on an item that the store does not hold: the item its path names
    /// (`POST /messages/{id}/cancel`), or the one its last parameter names beneath
    /// (`POST /calls/{call_control_id}/actions/answer`) in a collection the store holds items
    /// of (a parent never created here, Ably's channels, is no evidence). None for another
    /// operation, or an item held.
    pub(crate) fn missing_item(&self, op: &ResourceOp, call: &ResourceCall) -> Option<ServerError> {
        if op.kind != ResourceAction::Action || answers_another(op) {
            return None;
        }
        let value = |param: &str| {
            call.path
                .iter()
                .find(|(name, _)| *name == param)
                .map(|(_, v)| v.as_str())
        };
        let state = self.lock();
        // An item the body names (Mandrill's `/templates/publish {name}`).
        if op.item_param.is_none() && op.item_field.is_some() {
            let id = named_item(op, call)?;
            let collection = substitute(op.collection, &call.path);
            return find(&state, &collection, Some(&id), op).err();
        }
        let (collection, id) = match op.item_param {
            Some(param) => {
                let id = value(param)?;
                let collection = substitute(op.collection, &call.path);
                let collection = if op.collection.contains('{') {
                    collection
                } else {
                    home_of(&state, &collection, Some(id))
                };
                (collection, id)
            }
            None => {
                let (parent, rest) = op.collection.rsplit_once("/{")?;
                let id = value(rest.split_once('}')?.0)?;
                let collection = substitute(parent, &call.path);
                let collection = home_of(&state, &collection, Some(id));
                if !state.collections.contains_key(&collection) {
                    return None;
                }
                (collection, id)
            }
        };
        find(&state, &collection, Some(id), op).err()
    }
}

impl Resources {
    /// The 404 of an item the store does not hold, named by the path parameter `param` in the
    /// collection `template` (a template, its parameters from the call): the parent a create
    /// or list is under (`{parent}/{param}/...`), or the item a replace names.
    pub(crate) fn missing_under(
        &self,
        template: &str,
        param: &str,
        op: &ResourceOp,
        call: &ResourceCall,
    ) -> Option<ServerError> {
        let id = call
            .path
            .iter()
            .find(|(name, _)| *name == param)
            .map(|(_, v)| v.as_str())?;
        let state = self.lock();
        let collection = home_of(&state, &substitute(template, &call.path), Some(id));
        find(&state, &collection, Some(id), op)
            .err()
            .map(|_| ServerError::not_found(format!("`{collection}/{id}`")).with_param(param))
    }

    /// The 404 of a replace (`PUT`) of an item its path names that the store does not hold;
    /// none for another operation, or an item held.
    pub(crate) fn missing_replaced(
        &self,
        op: &ResourceOp,
        call: &ResourceCall,
    ) -> Option<ServerError> {
        if op.kind != ResourceAction::Replace {
            return None;
        }
        self.missing_under(op.collection, op.item_param?, op, call)
    }
}

/// The id of the item a request names: by the path parameter, or by the body field (else
/// query parameter) of an operation that names it there (see [`ResourceOp::item_field`]).
pub(super) fn named_item(op: &ResourceOp, call: &ResourceCall) -> Option<String> {
    if let Some(param) = op.item_param {
        return call
            .path
            .iter()
            .find(|(name, _)| *name == param)
            .map(|(_, v)| v.clone());
    }
    let field = op.item_field?;
    id_text(call.body.get(field).or_else(|| call.query.get(field))?)
}

/// Whether `op` reads or writes a singleton: the one object at a path no item parameter
/// names (Svix's `GET`/`PUT /endpoint/{id}/headers`, SendGrid's `GET`/`PATCH` of a setting),
/// kept under the empty id.
pub(super) fn is_singleton(op: &ResourceOp) -> bool {
    op.item_param.is_none()
        && op.item_field.is_none()
        && matches!(
            op.kind,
            ResourceAction::Get | ResourceAction::Merge | ResourceAction::Replace
        )
}

impl Resources {
    /// `op` as it acts now: a singleton not set yet is made up from its type when first read,
    /// and kept, so every read answers the same (BulkSMS's `/profile` answered another `id`
    /// and `created` each time), and merged into as a replace creates it.
    pub(super) fn singleton_now(&self, op: &ResourceOp, call: &ResourceCall) -> ResourceOp {
        if !is_singleton(op) {
            return *op;
        }
        let collection = substitute(op.collection, &call.path);
        let held = self
            .lock()
            .collections
            .get(&collection)
            .is_some_and(|items| items.iter().any(|i| i.id.is_empty()));
        match op.kind {
            ResourceAction::Merge | ResourceAction::Get if !held => ResourceOp {
                kind: ResourceAction::Replace,
                ..*op
            },
            _ => *op,
        }
    }
}

/// The last word of a camelCase or snake_case name, in lower case (`roomName` → `name`).
fn last_word(name: &str) -> String {
    let start = name
        .char_indices()
        .filter(|(i, c)| *i > 0 && (c.is_ascii_uppercase() || *c == '_'))
        .map(|(i, c)| if c == '_' { i + 1 } else { i })
        .next_back()
        .unwrap_or(0);
    name[start..].to_ascii_lowercase()
}
