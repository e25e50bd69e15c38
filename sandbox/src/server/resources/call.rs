//! The inputs of one call to the store.

use serde_json::Value;

use super::{ResourceOp, Ty};

/// The inputs of one call, as JSON: path parameters by wire name, the query and the body
/// (`Null` when the operation has none).
#[derive(Debug, Clone, Default)]
pub struct ResourceCall {
    /// Path parameters, wire name and value.
    pub path: Vec<(&'static str, String)>,
    /// The query as its struct serializes (wire names).
    pub query: Value,
    /// The body.
    pub body: Value,
    /// The body's objects hold only the fields sent, one by one (a form's nested keys:
    /// Twilio's `Bindings.Email.Name`): a merge goes into the objects held, where a JSON
    /// body's object replaces the one held.
    pub merge_nested: bool,
    /// The value the path named the item by, when the store found it by another of its
    /// values (Elastic Email's `PUT /domains/{domain}`, Brevo's contacts by email) and the
    /// path parameter now holds its id: what the item's own field keeps.
    pub named_as: Option<String>,
    /// For a create, the fields its body type can send (in lower case without `_` and `-`),
    /// when it is known: the item's other fields are the service's to set, and a new item
    /// gets them as read-only ones do (Vonage's call `status` and `direction`, Mailtrap's
    /// template `uuid`).
    pub sendable: Option<&'static [&'static str]>,
    /// For a create, the type a read of the item answers when it is not the create's answer
    /// (Textmagic's `POST /messages` answers `{id, href}`, `GET /messages/{id}` its message):
    /// what that type requires besides is made once, with the item, and kept (its
    /// `messageTime` moved at each read).
    pub read_as: Option<Ty>,
    /// For a create, the path template of a read of one item and the parameter in it that
    /// names the item (`/2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json`, `Sid`): a new
    /// item's link to itself (`href`, `uri`) is that path (Textmagic's `href` was the
    /// document's example, a 404 to follow).
    pub item_path: Option<(&'static str, &'static str)>,
    /// For an action on no item that makes an id other operations take back (Vonage Verify's
    /// start and its `request_id`): what it made is kept as an item, found by that id.
    pub keeps_made: bool,
    /// The query parameter or body field by which this call names what such an action made
    /// (`request_id`): the answer is about that item, a 404 when none was made.
    pub names_made: Option<&'static str>,
}

impl ResourceCall {
    /// The path parameters as the request sent them (see [`ResourceCall::named_as`]).
    pub(super) fn path_as_sent(&self, op: &ResourceOp) -> Vec<(&'static str, String)> {
        let mut path = self.path.clone();
        if let (Some(sent), Some(param)) = (&self.named_as, op.item_param)
            && let Some(slot) = path.iter_mut().find(|(name, _)| *name == param)
        {
            slot.1 = sent.clone();
        }
        path
    }
}

/// `template` with each `{name}` replaced by its value.
pub(super) fn substitute(template: &str, path: &[(&'static str, String)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in path {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}
