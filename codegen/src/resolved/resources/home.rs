//! A create at a path of its own that makes the items of another collection (Twilio's `POST
//! /v1/ConversationWithParticipants` makes a conversation, read at `/v1/Conversations/{Sid}`).

use super::{OperationInfo, ResourceAction, ResourceShape, Service, answered_fields, shape_of};
use crate::model::Method;
use tidings_spec::id_like;

/// The create in another collection that a `POST` at a literal path nothing else reads is:
/// the collection whose get answers an item with an id field of the same name and the same
/// pattern as the `POST`'s answer (Twilio's `sid`, `^CH[0-9a-fA-F]{32}$`). `None` for any
/// other operation, or where no other collection or more than one fits.
pub(super) fn made_elsewhere(
    service: &Service,
    op: &OperationInfo,
    shape: &ResourceShape,
) -> Option<ResourceShape> {
    let made_here = matches!(shape.kind, ResourceAction::Create | ResourceAction::Action)
        && op.method == Method::Post
        && shape.item_param.is_none()
        && shape.item_field.is_none()
        && !op.path.contains('{');
    if !made_here {
        return None;
    }
    let beneath = format!("{}/", op.path);
    // A `GET` at the same path answering the request's own type shows what to send
    // (ZoomConnect's `GET /sms/send`, "an example of the data to POST"): no read of what
    // was made.
    let shows_the_request = |o: &OperationInfo| {
        o.path == op.path
            && o.method == Method::Get
            && o.response.is_some()
            && o.response == op.body
    };
    let read_here = service.operations.iter().any(|o| {
        o.name != op.name
            && (o.path == op.path || o.path.starts_with(&beneath))
            && !shows_the_request(o)
    });
    if read_here {
        return None;
    }
    let pattern_of = |o: &OperationInfo, field: &str| {
        answered_fields(service, o)?
            .iter()
            .find(|f| f.wire == field)?
            .constraints
            .pattern
            .clone()
    };
    let answered = answered_fields(service, op)?;
    // The id field, by its pattern; or, where no id field has one, a field whose name is the
    // path parameter a get names its items by (The SMS Works' `POST /message/send` answers
    // `messageid`, read at `/messages/{messageid}`).
    let patterned = answered
        .iter()
        .find(|f| f.constraints.pattern.is_some() && id_like(&f.wire));
    let (id_field, pattern) = match patterned {
        Some(f) => (f.wire.clone(), pattern_of(op, &f.wire)),
        None => (String::new(), None),
    };
    if patterned.is_some() && pattern.is_none() {
        return None;
    }
    let mut homes = service.operations.iter().filter_map(|o| {
        if o.method != Method::Get || !o.path.ends_with('}') {
            return None;
        }
        let read = shape_of(service, o);
        let same_id = match &pattern {
            Some(pattern) => {
                read.id_field == id_field && pattern_of(o, &read.id_field).as_ref() == Some(pattern)
            }
            // Named alike in the answer, the read's path and the read's answer, and longer
            // than a bare `id` (which names anything).
            // (The path's name may be the field's in snake case: ZoomConnect's `message_id`
            // of `messageId`.)
            None => {
                read.item_param
                    .as_deref()
                    .is_some_and(|param| same_words(param, &read.id_field))
                    && read.id_field.len() > 3
                    && pattern_of(o, &read.id_field).is_none()
                    && answered.iter().any(|f| f.wire == read.id_field)
            }
        };
        (read.kind == ResourceAction::Get && !read.collection.contains('{') && same_id)
            .then_some((read.collection, read.id_field))
    });
    match (homes.next(), homes.next()) {
        (Some((collection, id_field)), None) => Some(ResourceShape {
            kind: ResourceAction::Create,
            collection,
            item_param: None,
            item_field: None,
            id_field,
            items: None,
        }),
        _ => None,
    }
}

/// Whether two names are the same words (`message_id`, `messageId`).
fn same_words(a: &str, b: &str) -> bool {
    let plain = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    plain(a) == plain(b)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_create_at_a_path_of_its_own_makes_the_items_whose_id_it_answers() {
        let yaml = r#"
service: { name: talk, title: Talk, summary: Talk, source: assumed, base_url: { default: "http://localhost:1", env: TALK_BASE_URL, source: assumed } }
operations:
  create_conversation: { method: POST, path: "/v1/Conversations", body: NewConversation, response: Conversation, source: assumed }
  fetch_conversation: { method: GET, path: "/v1/Conversations/{Sid}", path_params: { Sid: { type: string } }, response: Conversation, source: assumed }
  create_with_participants: { method: POST, path: "/v1/ConversationWithParticipants", body: NewConversation, response: ConversationWithParticipants, source: assumed }
  create_note: { method: POST, path: "/v1/Notes", body: NewConversation, response: Note, source: assumed }
types:
  NewConversation: { source: assumed, fields: { FriendlyName: { type: string } } }
  Conversation: { source: assumed, fields: { sid: { type: string, pattern: "^CH[0-9a-f]{32}$" }, friendly_name: { type: string } } }
  ConversationWithParticipants: { source: assumed, fields: { sid: { type: string, pattern: "^CH[0-9a-f]{32}$" }, friendly_name: { type: string } } }
  Note: { source: assumed, fields: { sid: { type: string, pattern: "^NO[0-9a-f]{32}$" } } }
"#;
        let shape_of = super::super::tests::shapes_of(yaml);
        let shape = |name: &str| {
            let s = shape_of(name);
            (s.kind.name(), s.collection)
        };
        assert_eq!(
            shape("create_with_participants"),
            ("Create", "/v1/Conversations".into())
        );
        // An id of another pattern names another thing: not a conversation.
        assert_eq!(shape("create_note").1, "/v1/Notes");
        assert_eq!(
            shape("create_conversation"),
            ("Create", "/v1/Conversations".into())
        );
    }

    #[test]
    fn a_send_answering_the_id_a_get_names_its_items_by_makes_those_items() {
        // The SMS Works: `POST /message/send` answers `{messageid}`, read at
        // `/messages/{messageid}`; no pattern says so, the names do. A bare `id` names
        // anything: a send answering one is no message.
        let yaml = r#"
service: { name: sms, title: Sms, summary: Sms, source: assumed, base_url: { default: "http://localhost:1", env: SMS_BASE_URL, source: assumed } }
operations:
  send_message: { method: POST, path: "/message/send", body: NewMessage, response: Sent, source: assumed }
  get_message: { method: GET, path: "/messages/{messageid}", path_params: { messageid: { type: string } }, response: Message, source: assumed }
  send_note: { method: POST, path: "/note/send", body: NewMessage, response: Note, source: assumed }
  get_note: { method: GET, path: "/notes/{id}", path_params: { id: { type: string } }, response: Note, source: assumed }
types:
  NewMessage: { source: assumed, fields: { content: { type: string } } }
  Sent: { source: assumed, fields: { messageid: { type: string }, status: { type: string } } }
  Message: { source: assumed, fields: { messageid: { type: string }, content: { type: string } } }
  Note: { source: assumed, fields: { id: { type: string } } }
"#;
        let shape_of = super::super::tests::shapes_of(yaml);
        let send = shape_of("send_message");
        assert_eq!(
            (
                send.kind.name(),
                send.collection.as_str(),
                send.id_field.as_str()
            ),
            ("Create", "/messages", "messageid")
        );
        assert_eq!(shape_of("send_note").collection, "/note/send");
    }
}
