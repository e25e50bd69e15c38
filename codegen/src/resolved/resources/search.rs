//! Searches: a `POST` (or `GET`) `<collection>/search`, and a `POST` of search criteria to
//! the collection itself.

use super::{OperationInfo, Service, answers_list, envelope_items};
use crate::model::Method;

/// The collection a `POST` (or `GET`) `<collection>/search` searches, and where its answer
/// holds the items: the parent path, when its `GET` answers the same list (that list's items
/// path) or a page of the same items (the search's own items path), or when a `POST` search
/// answers a list of its own and some operation creates there.
pub(super) fn search_of(service: &Service, op: &OperationInfo) -> Option<(String, Option<String>)> {
    let parent = op.path.strip_suffix("/search")?;
    if !matches!(op.method, Method::Post | Method::Get) || op.response.is_none() {
        return None;
    }
    let at_parent = |method| {
        service
            .operations
            .iter()
            .find(|o| o.path == parent && o.method == method)
    };
    if let Some(list) =
        at_parent(Method::Get).filter(|o| o.response == op.response && answers_list(service, o))
    {
        return Some((
            parent.to_owned(),
            envelope_items(service, list).map(|(p, _)| p),
        ));
    }
    // Or answers a page of its own of the same items (Textmagic's `GET /messages/search`).
    let own = envelope_items(service, op);
    let same_items = |list: &&OperationInfo| {
        own.as_ref()
            .is_some_and(|(_, item)| envelope_items(service, list).is_some_and(|(_, i)| i == *item))
    };
    if at_parent(Method::Get).filter(same_items).is_some() {
        return own.map(|(path, _)| (parent.to_owned(), Some(path)));
    }
    (op.method == Method::Post && answers_list(service, op) && at_parent(Method::Post).is_some())
        .then(|| {
            let items = envelope_items(service, op).map(|(p, _)| p);
            (parent.to_owned(), items)
        })
}

/// Whether a `POST` to a collection sends search criteria and answers the items that fit, not
/// a new item: its body's type is named for a query, search or filter, and it answers a list
/// (The SMS Works' `POST /messages` with a `Query`, answering the messages that match; it
/// made a message of the criteria, and answered only that).
pub(super) fn searches(service: &Service, op: &OperationInfo) -> bool {
    let Some(super::Ty::Named(body)) = &op.body else {
        return false;
    };
    let body = body.to_ascii_lowercase();
    op.method == Method::Post
        && ["query", "search", "filter", "criteria"]
            .iter()
            .any(|w| body.contains(w))
        && answers_list(service, op)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_post_of_search_criteria_to_a_collection_lists_its_items() {
        // The SMS Works: `POST /messages` with a `Query` answers the messages that match;
        // `POST /notes` with a note answering a list of notes is still a create.
        let yaml = r#"
service: { name: sms, title: Sms, summary: Sms, source: assumed, base_url: { default: "http://localhost:1", env: SMS_BASE_URL, source: assumed } }
operations:
  search_messages: { method: POST, path: "/messages", body: Query, response: "list<Message>", source: assumed }
  get_message: { method: GET, path: "/messages/{messageid}", path_params: { messageid: { type: string } }, response: Message, source: assumed }
  create_notes: { method: POST, path: "/notes", body: Note, response: "list<Note>", source: assumed }
types:
  Query: { source: assumed, fields: { status: { type: string }, sender: { type: string } } }
  Message: { source: assumed, fields: { messageid: { type: string }, sender: { type: string } } }
  Note: { source: assumed, fields: { id: { type: string } } }
"#;
        let shape_of = super::super::tests::shapes_of(yaml);
        let search = shape_of("search_messages");
        assert_eq!(
            (search.kind.name(), search.collection.as_str()),
            ("List", "/messages")
        );
        assert_eq!(shape_of("create_notes").kind.name(), "Create");
    }
}
