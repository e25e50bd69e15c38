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
    let read_here = service
        .operations
        .iter()
        .any(|o| o.name != op.name && (o.path == op.path || o.path.starts_with(&beneath)));
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
    let id_field = answered_fields(service, op)?
        .iter()
        .find(|f| f.constraints.pattern.is_some() && id_like(&f.wire))?
        .wire
        .clone();
    let pattern = pattern_of(op, &id_field)?;
    let mut homes = service.operations.iter().filter_map(|o| {
        if o.method != Method::Get || !o.path.ends_with('}') {
            return None;
        }
        let read = shape_of(service, o);
        (read.kind == ResourceAction::Get
            && !read.collection.contains('{')
            && read.id_field == id_field
            && pattern_of(o, &read.id_field).as_ref() == Some(&pattern))
        .then_some(read.collection)
    });
    match (homes.next(), homes.next()) {
        (Some(collection), None) => Some(ResourceShape {
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
}
