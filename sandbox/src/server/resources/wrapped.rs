//! The item an answer holds in a field of its own (Mailgun's `{"message", "template": {...}}`),
//! or lists as the one entry of a list field: which field, and what a send puts there.

use serde_json::{Map, Value};
use tidings_spec::id_like;

use super::names::{collection_thing, declared, plain, singular};
use super::{FieldSchema, ResourceOp, ServiceSchema, ShapeSchema, Ty};

/// The field of an answer that holds the item, and the item's type: the answer is a named
/// object with no id-like field of its own, exactly one field of a named object type, and
/// only text, number and boolean fields besides (Mailgun's template and mailing-list answers:
/// `{"message": "...", "template": {...}}`, `{"list": {...}}`; ClickSend's `{"http_code": 200,
/// "response_msg": "...", "data": {...}}`), or lists too when the item has an id-like field
/// (Bandwidth's `{"links": [...], "data": {"endpointId": ...}, "errors": []}`) and the field
/// holding it is named as a holder (`data`, `result`...) or as the collection's items (Zulip's
/// `user` of `/users/{user_id}`): a Discord guild member, `{"user": {"id"}, "nick", "roles":
/// [...]}`, is the item. Text fields may be of an enum (Zulip's `result: success`); maps and
/// other objects beside it count as lists, and of several objects the one required with an
/// id-like field holds the item.
pub(super) fn wrapped_item(schema: &ServiceSchema, op: &ResourceOp) -> Option<(&'static str, Ty)> {
    let ty = op.response.as_ref();
    let Some(Ty::Named(name)) = ty else {
        return None;
    };
    let Some(ShapeSchema::Object(fields)) = schema.named(name).map(|t| t.shape) else {
        return None;
    };
    // A read answering the item as the one entry of a list named for the collection, an
    // envelope's parts aside (WhatsApp's `GET /groups/{id}`: `{"groups": [info], "meta"}`).
    let content: Vec<&FieldSchema> = fields.iter().filter(|f| !envelope_part(f)).collect();
    if op.kind == super::ResourceAction::Get
        && let [one] = content.as_slice()
        && let Ty::List(item) = one.ty
        && schema.object_fields(item).is_some()
        && collection_thing(op.collection).is_some_and(|t| singular(&plain(one.name)) == t)
    {
        return Some((one.name, one.ty));
    }
    // An object, or a union of them (Telnyx's `GET /messages/{id}` answers `{"data":
    // oneOf[outbound, inbound]}` where its create answers `{"data": outbound}`).
    let is_object = |ty: &Ty| match ty {
        Ty::Named(n) => matches!(
            schema.named(n).map(|t| t.shape),
            Some(ShapeSchema::Object(_) | ShapeSchema::Union { .. } | ShapeSchema::Untagged(_))
        ),
        _ => false,
    };
    let identified = |ty: &Ty| {
        schema
            .object_fields(ty)
            .is_some_and(|fs| fs.iter().any(|f| id_like(f.name)))
    };
    let mut objects = Vec::new();
    let mut lists = false;
    for f in fields {
        let lower = f.name.to_ascii_lowercase();
        // The answer's own id (Twilio's `sid` beside a phone number's `capabilities`): the
        // item itself, not a holder of it.
        if lower == "id"
            || lower.ends_with("_id")
            || f.name.ends_with("Id")
            || f.name == op.id_field
        {
            return None;
        }
        match &f.ty {
            ty if is_object(ty) => objects.push(f),
            Ty::String | Ty::DateTime | Ty::Date | Ty::Integer | Ty::Number | Ty::Boolean => {}
            Ty::Named(n)
                if matches!(schema.named(n).map(|t| t.shape), Some(ShapeSchema::Enum(_))) => {}
            // What only the service fills, beside the item (ACS Chat's read-only
            // `invalidParticipants` beside `chatThread`), is no other content.
            Ty::List(_) | Ty::Map(_) | Ty::Json if f.read_only => {}
            Ty::List(_) | Ty::Map(_) | Ty::Json => lists = true,
            _ => return None,
        }
    }
    // Of several objects, the one required with an id, the others beside it (Stream's
    // `{"message": {...}, "channel_context": {...}, "mentioned_members": {...}}`).
    let holder = match objects.as_slice() {
        [one] => Some((one.name, one.ty)),
        several => {
            lists = true;
            let mut items = several.iter().filter(|f| f.required && identified(&f.ty));
            match (items.next(), items.next()) {
                (Some(one), None) => Some((one.name, one.ty)),
                _ => None,
            }
        }
    };
    let named_as_holder = |field: &str| {
        const HOLDERS: &[&str] = &["data", "result", "item", "object", "response", "payload"];
        let plain = plain(field);
        // The collection's word as it is, too: `aliases` holds an `alias`.
        let word = op
            .collection
            .rsplit('/')
            .find(|s| !s.is_empty() && !s.contains('{'))
            .map(|s| super::names::plain(s.split('.').next().unwrap_or_default()))
            .unwrap_or_default();
        HOLDERS.contains(&plain.as_str())
            || [format!("{plain}s"), format!("{plain}es")].contains(&word)
            || collection_thing(op.collection).is_some_and(|thing| {
                // Or its last word (ACS Chat's `chatThread` of `/chat/threads`).
                let last = field
                    .rfind(|c: char| c.is_ascii_uppercase())
                    .map_or(field, |at| &field[at..]);
                singular(&plain) == thing || singular(&last.to_ascii_lowercase()) == thing
            })
    };
    holder.filter(|(field, ty)| !lists || (identified(ty) && named_as_holder(field)))
}

/// The field an operation's answer holds its item in, when it does (see [`wrapped_item`],
/// [`made_in_list`]), and the type of the item it stores or reads: Mailgun's `{"message",
/// "template": {...}}` holds a template; Knock's `POST /v1/schedules`, answering a list of what
/// it made, keeps each as an item of the list's type; an answer with the item's id field of
/// its own is the item (Mandrill's tracking domain, named by `domain`, beside its one object
/// field `cname`).
pub(crate) fn item_type(
    schema: &ServiceSchema,
    op: &ResourceOp,
) -> (Option<(&'static str, Ty)>, Option<Ty>) {
    use super::ResourceAction::{Create, Get, Merge, Replace};
    let wrapped = match op.kind {
        Create | Get | Merge | Replace => wrapped_item(schema, op),
        _ => None,
    }
    .or_else(|| match op.kind {
        Create => made_in_list(schema, op.response.as_ref(), op.id_field),
        _ => None,
    })
    .filter(|_| !declared(schema, op.response.as_ref(), op.id_field));
    let item_ty = wrapped.map(|(_, ty)| match ty {
        Ty::List(item) => *item,
        ty => ty,
    });
    let item_ty = item_ty.or(match (op.kind, op.response) {
        (Create, Some(Ty::List(item))) => Some(*item),
        (_, response) => response,
    });
    (wrapped, item_ty)
}

/// What a send's body holds of the object its answer wraps (see [`wrapped_item`]), put in
/// that field of `value` when the body does not send the field itself.
pub(super) fn sent_into_wrapped(
    schema: &ServiceSchema,
    op: &ResourceOp,
    body: &Map<String, Value>,
    value: &mut Map<String, Value>,
) {
    let Some((field, ty)) = wrapped_item(schema, op) else {
        return;
    };
    if body.contains_key(field) || value.contains_key(field) {
        return;
    }
    let Some(fields) = schema.object_fields(&ty) else {
        return;
    };
    let sent: Map<String, Value> = fields
        .iter()
        .filter_map(|f| Some((f.name.to_owned(), body.get(f.name)?.clone())))
        .collect();
    if !sent.is_empty() {
        value.insert(field.to_owned(), Value::Object(sent));
    }
}

/// Whether `field` is an optional part of an envelope around the content, not content (see
/// [`tidings_spec::envelope_part`]).
fn envelope_part(field: &FieldSchema) -> bool {
    tidings_spec::envelope_part(field.name, field.required)
}

/// The field of a create's answer that lists what it made, and the list's type: the answer is
/// a named object with no object field and no id-like field of its own, exactly one list
/// field, of objects with an id-like field (or the `id_field` the item is keyed by: WhatsApp's
/// users by `username`), and only text, number and boolean fields besides (Sunshine
/// Conversations' `POST .../messages` answers `{"messages": [message]}`), an envelope's parts
/// aside (WhatsApp's `{"messages": [{"id"}], "meta", "errors"}`, see [`envelope_part`]). The
/// item made is answered as that list's one entry.
pub(super) fn made_in_list(
    schema: &ServiceSchema,
    ty: Option<&Ty>,
    id_field: &str,
) -> Option<(&'static str, Ty)> {
    let Some(Ty::Named(name)) = ty else {
        return None;
    };
    let Some(ShapeSchema::Object(fields)) = schema.named(name).map(|t| t.shape) else {
        return None;
    };
    let mut holder = None;
    for f in fields.iter().filter(|f| !envelope_part(f)) {
        match &f.ty {
            _ if id_like(f.name) => return None,
            Ty::List(item) if schema.object_fields(item).is_some() => {
                if holder.replace((f.name, f.ty)).is_some() {
                    return None;
                }
            }
            Ty::String | Ty::DateTime | Ty::Date | Ty::Integer | Ty::Number | Ty::Boolean => {}
            _ => return None,
        }
    }
    holder.filter(|(_, ty)| match ty {
        Ty::List(item) => schema
            .object_fields(item)
            .is_some_and(|fs| fs.iter().any(|f| id_like(f.name) || f.name == id_field)),
        _ => false,
    })
}

/// The item a body wraps in its one key (Rails' root key: Mailtrap's `{"contact": {...}}`),
/// when the item's type has no field of that name and declares a field of the object's.
pub(super) fn root_wrapped(
    schema: &ServiceSchema,
    item_ty: Option<&Ty>,
    body: &Map<String, Value>,
) -> Option<Map<String, Value>> {
    let (key, Value::Object(inner)) = body.iter().next().filter(|_| body.len() == 1)? else {
        return None;
    };
    let fields = item_ty.and_then(|ty| schema.object_fields(ty))?;
    let declared = |name: &str| fields.iter().any(|f| f.name == name);
    (!declared(key) && inner.keys().any(|k| declared(k))).then(|| inner.clone())
}
