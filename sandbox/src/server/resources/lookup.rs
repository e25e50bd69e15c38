//! Which item a request names: by another of its values (an alias), or one an action names
//! that the store does not hold.

use super::shape::answers_another;
use super::state::{find, home_of};
use super::{
    ResourceAction, ResourceCall, ResourceOp, Resources, ServerError, Value, id_text, substitute,
};

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
        let holds = |v: &Value| v.as_str() == Some(value.as_str());
        let mut found = items.iter().filter(|i| i.value.values().any(holds));
        match (found.next(), found.next()) {
            (Some(item), None) => Some(item.id.clone()),
            _ => None,
        }
    }

    /// The 409 of a create that gives the id of an item the store holds (Loops' second
    /// `POST /contacts/create` of one email: "Email or userId already exists"), for an
    /// operation that documents a 409; otherwise a create with a held id replaces the item.
    pub(crate) fn already_held(&self, op: &ResourceOp, call: &ResourceCall) -> Option<ServerError> {
        if op.kind != ResourceAction::Create {
            return None;
        }
        let id = id_text(call.body.get(op.id_field)?)?;
        let collection = substitute(op.collection, &call.path);
        let state = self.lock();
        state
            .collections
            .get(&collection)?
            .iter()
            .any(|i| i.id == id)
            .then(|| {
                ServerError::conflict(
                    "already_exists",
                    format!(
                        "`{collection}` already holds an item whose `{}` is `{id}`",
                        op.id_field
                    ),
                )
                .with_param(op.id_field)
            })
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
