//! Writes named for what they do to a thing the account holds, listed elsewhere: Vonage's
//! numbers are bought at `POST /number/buy {country, msisdn}`, changed at `/number/update`,
//! given back at `/number/cancel`, and listed at `GET /account/numbers`. Each was an action
//! (nothing kept): a bought number was never listed, and a cancel of one never bought
//! succeeded.

use super::{OperationInfo, ResourceAction, ResourceShape, Service, answered_item, answers_list};
use super::{item_fields, resource_shape};
use crate::model::Method;

/// What a verb at the end of a literal path does to the thing its body names.
fn verb(word: &str) -> Option<ResourceAction> {
    Some(match word.to_ascii_lowercase().as_str() {
        "buy" | "purchase" | "rent" | "provision" | "reserve" => ResourceAction::Create,
        "cancel" | "release" | "deprovision" => ResourceAction::Delete,
        "update" | "modify" | "edit" => ResourceAction::Merge,
        _ => return None,
    })
}

/// Names (lower case) of a field that says which thing a body names, among its required ones:
/// a phone number, an id.
const KEYS: &[&str] = &[
    "msisdn",
    "number",
    "phone_number",
    "phonenumber",
    "did",
    "id",
];

/// The shape of `op` when it is such a write: a create, delete or merge in the one collection
/// listed at another literal path (not a search of things to buy) whose items have every
/// field the body requires, keyed by the required one naming the thing (`msisdn`). `None`
/// for any other operation, or where no collection, or more than one, fits.
pub(super) fn held_elsewhere(service: &Service, op: &OperationInfo) -> Option<ResourceShape> {
    if op.method != Method::Post || op.path.contains('{') {
        return None;
    }
    let (_, word) = op.path.rsplit_once('/')?;
    let kind = verb(word)?;
    let body = item_fields(service, op.body.as_ref())?;
    let required: Vec<&str> = body
        .iter()
        .filter(|f| f.required)
        .map(|f| f.wire.as_str())
        .collect();
    let key = required
        .iter()
        .find(|r| KEYS.contains(&r.to_ascii_lowercase().as_str()))?
        .to_string();
    // A cancel gives back a number; a thing cancelled by its id (a scheduled message) stays
    // where it is read, with its status.
    if kind == ResourceAction::Delete && key.eq_ignore_ascii_case("id") {
        return None;
    }
    // The answer is a result, not the thing (Vonage's `{"error-code": "200"}`).
    if answered_item(service, op).is_some_and(|(_, fs)| fs.iter().any(|f| f.wire == key)) {
        return None;
    }
    let mut homes = service.operations.iter().filter(|o| {
        let last = o
            .path
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        o.method == Method::Get
            && !o.path.contains('{')
            && !["search", "available", "find"].contains(&last.as_str())
            && answers_list(service, o)
            && answered_item(service, o)
                .is_some_and(|(_, fs)| required.iter().all(|r| fs.iter().any(|f| f.wire == *r)))
    });
    let (Some(list), None) = (homes.next(), homes.next()) else {
        return None;
    };
    let listed = resource_shape(service, list);
    Some(ResourceShape {
        kind,
        collection: listed.collection,
        item_param: None,
        item_field: (kind != ResourceAction::Create).then(|| key.clone()),
        id_field: key,
        items: None,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_number_bought_updated_and_cancelled_lives_in_the_owned_list() {
        // Vonage's numbers: bought, updated and cancelled at `/number/*`, listed at
        // `/account/numbers`; `/number/search` lists numbers to buy, not those held.
        let yaml = r#"
service: { name: n, title: N, summary: N, source: assumed, base_url: { default: "http://localhost:1", env: N_BASE_URL, source: assumed } }
operations:
  get_owned_numbers: { method: GET, path: "/account/numbers", query: { index: { type: integer }, size: { type: integer } }, response: Owned, pagination: { style: page, items_field: numbers, page_param: index, size_param: size }, source: assumed }
  get_available_numbers: { method: GET, path: "/number/search", query: { index: { type: integer }, size: { type: integer } }, response: Available, pagination: { style: page, items_field: numbers, page_param: index, size_param: size }, source: assumed }
  buy_number: { method: POST, path: "/number/buy", body: Details, body_encoding: form, response: Response, source: assumed }
  update_number: { method: POST, path: "/number/update", body: Update, body_encoding: form, response: Response, source: assumed }
  cancel_number: { method: POST, path: "/number/cancel", body: Details, body_encoding: form, response: Response, source: assumed }
  list_messages: { method: GET, path: "/messages", query: { index: { type: integer }, size: { type: integer } }, response: Messages, pagination: { style: page, items_field: messages, page_param: index, size_param: size }, source: assumed }
  cancel_message: { method: POST, path: "/message/cancel", body: MessageId, response: Response, source: assumed }
types:
  Details: { source: assumed, fields: { country: { type: string, required: true }, msisdn: { type: string, required: true } } }
  Update: { source: assumed, fields: { country: { type: string, required: true }, msisdn: { type: string, required: true }, moHttpUrl: { type: string } } }
  Response: { source: assumed, fields: { error-code: { type: string } } }
  Number: { source: assumed, fields: { country: { type: string }, msisdn: { type: string }, moHttpUrl: { type: string } } }
  Owned: { source: assumed, fields: { count: { type: integer }, numbers: { type: "list<Number>" } } }
  Available: { source: assumed, fields: { count: { type: integer }, numbers: { type: "list<Number>" } } }
  MessageId: { source: assumed, fields: { id: { type: string, required: true } } }
  Message: { source: assumed, fields: { id: { type: string }, status: { type: string } } }
  Messages: { source: assumed, fields: { count: { type: integer }, messages: { type: "list<Message>" } } }
"#;
        let shape_of = super::super::tests::shapes_of(yaml);
        let shape = |name: &str| {
            let s = shape_of(name);
            (s.kind.name(), s.collection, s.item_field, s.id_field)
        };
        let home = "/account/numbers".to_owned();
        let msisdn = || "msisdn".to_owned();
        assert_eq!(
            shape("buy_number"),
            ("Create", home.clone(), None, msisdn())
        );
        assert_eq!(
            shape("update_number"),
            ("Merge", home.clone(), Some(msisdn()), msisdn())
        );
        assert_eq!(
            shape("cancel_number"),
            ("Delete", home, Some(msisdn()), msisdn())
        );
        assert_ne!(shape("cancel_message").0, "Delete");
    }
}
