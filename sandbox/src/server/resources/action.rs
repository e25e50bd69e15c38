//! What an action answers: built from its body and the item it names (when held), or, for an
//! action that makes something (a send), a fresh id and the path's values; nothing is kept.

use serde_json::{Map, Value};

use super::names::{declared, plain};
use super::shape::{
    answers_another, field_id, fits_id_field, from_path, id_value, make_id, per_item,
    per_recipient, recipients,
};
use super::wrapped::sent_into_wrapped;
use super::{ResourceCall, ResourceOp, ServerError, ServiceSchema, ShapeSchema, State, Ty};
use tidings_spec::id_like;

/// What an action answers: its value, for a send answering a bare list that list's entries,
/// and the id it made for its answer's id field, when it made one.
pub(super) struct Answered {
    pub(super) value: Map<String, Value>,
    pub(super) listed: Option<Vec<Value>>,
    pub(super) made: Option<String>,
}

/// The answer of the action `op` on `collection` (on the item `item_id` names, when given,
/// or the one an earlier action made and the call names by that id: see `started`).
///
/// # Errors
/// 404 when the call names by its id something no action made.
pub(super) fn answer(
    state: &mut State,
    schema: &ServiceSchema,
    op: &ResourceOp,
    collection: &str,
    item_id: Option<&str>,
    call: &ResourceCall,
    mut body: Map<String, Value>,
) -> Result<Answered, ServerError> {
    // What an earlier action made and this call names by its id (Vonage Verify's search by
    // `request_id`): answered as an item the path named.
    let started = super::started::value_named(state, call)?;
    // An action under an item that answers another thing it made (Ably's
    // `POST /channels/{channel_id}/messages` answers a `messageId`) answers that
    // thing, not the item: a fresh id, the path's values in the fields they name.
    let makes = (item_id.is_none() && started.is_none()) || answers_another(op);
    let item_id = item_id.filter(|_| !makes);
    // Whether the answer is about an item held (named by the path or by a made id).
    let about = item_id.is_some() || (started.is_some() && !makes);
    let mut made_id = None;
    let mut value = item_id
        .and_then(|id| {
            state
                .collections
                .get(collection)?
                .iter()
                .find(|i| i.id == id)
        })
        // An answer that names the item by a field the item has not (Sinch's
        // delivery report of a batch: `batch_id`) is about the item, not the
        // item: none of the item's fields (its `type` is the batch's own).
        .filter(|i| {
            i.value.contains_key(op.id_field)
                || !declared(schema, op.response.as_ref(), op.id_field)
        })
        .map(|i| i.value.clone())
        .or(started.filter(|_| !makes))
        .unwrap_or_default();
    match item_id {
        // The item the path names, when its id fits the answer's id field (else
        // the field is made up, as for any answer).
        Some(id) if fits_id_field(schema, op, id) => {
            value
                .entry(op.id_field.to_owned())
                .or_insert_with(|| id_value(schema, op, id));
        }
        Some(_) => {}
        // An action that makes something (a send): a fresh id for its answer's
        // id field, when it has one; nothing is kept.
        None if !about
            && declared(schema, op.response.as_ref(), op.id_field)
            && !body.contains_key(op.id_field) =>
        {
            state.next_id += 1;
            let id = make_id(schema, op, state.next_id);
            value.insert(op.id_field.to_owned(), id_value(schema, op, &id));
            made_id = Some(id);
        }
        None => {}
    }
    // A send answers every id it promises (Elastic Email's `{TransactionID, MessageID}`):
    // each other id field the request does not name, a fresh id of its own.
    if !about {
        let answered = op.response.as_ref().and_then(|ty| schema.object_fields(ty));
        for f in answered.unwrap_or_default() {
            let named = call.path.iter().any(|(p, _)| plain(p) == plain(f.name));
            if f.ty == Ty::String
                && id_like(f.name)
                && !named
                && !value.contains_key(f.name)
                && !body.contains_key(f.name)
            {
                state.next_id += 1;
                value.insert(f.name.to_owned(), Value::String(field_id(state.next_id, f)));
            }
            // A list of ids, one per recipient (Mailtrap's send: `message_ids`, "one per
            // recipient"), where the request names none.
            if f.ty == Ty::List(&Ty::String)
                && names_ids(f.name)
                && !value.contains_key(f.name)
                && !body.contains_key(f.name)
            {
                let ids = (0..recipient_count(&body))
                    .map(|_| {
                        state.next_id += 1;
                        Value::String(field_id(state.next_id, f))
                    })
                    .collect();
                value.insert(f.name.to_owned(), Value::Array(ids));
            }
        }
    }
    if makes {
        from_path(
            schema,
            op,
            op.response.as_ref(),
            &call.path_as_sent(op),
            &mut body,
        );
    }
    let made = match (about.then_some(()), &call.body) {
        // A batch (Resend's `POST /emails/batch`, a list body): one entry per
        // thing sent in the answer's list, each given its id below.
        (None, Value::Array(sent)) => op
            .response
            .as_ref()
            .map(|ty| per_item(schema, ty, sent.len())),
        (None, _) => op
            .response
            .as_ref()
            .map(|ty| per_recipient(schema, ty, &body)),
        (Some(_), _) => None,
    };
    // A send answering a bare list, one result per recipient (Mandrill's
    // `messages/send`).
    // A batch answering a bare list (Postmark's `/email/batch`): one entry per thing sent,
    // with what the entry shares with it (`To`); it was one empty entry.
    let per_sent = |item: &Ty, sent: &[Value]| -> Vec<Value> {
        let fields = schema.object_fields(item).unwrap_or_default();
        let entry = |sent: &Value| {
            let shared = sent
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(key, _)| fields.iter().any(|f| f.name == key.as_str()));
            Value::Object(shared.map(|(k, v)| (k.clone(), v.clone())).collect())
        };
        sent.iter().map(entry).collect()
    };
    let listed = match (&op.response, about.then_some(()), &call.body) {
        (Some(Ty::List(item)), None, Value::Array(sent)) => Some(per_sent(item, sent)),
        // Or a body holding the batch in its one list of objects (Postmark's
        // `/email/batchWithTemplates`, `{"Messages": [...]}`), where no recipients are listed.
        (Some(Ty::List(item)), None, Value::Object(sent)) => recipients(schema, item, &body)
            .or_else(|| {
                let mut lists = sent.values().filter_map(|v| {
                    v.as_array()
                        .filter(|l| !l.is_empty() && l.iter().all(Value::is_object))
                });
                match (lists.next(), lists.next()) {
                    (Some(one), None) => Some(per_sent(item, one)),
                    _ => None,
                }
            }),
        (Some(Ty::List(item)), None, _) => recipients(schema, item, &body),
        _ => None,
    };
    // A send answering what it made in a field of its own (Slack's
    // `chat.postMessage` {channel, text} → `{"message": {"text", "ts"}}`): that
    // object carries what the body sent in fields of its type, not made-up ones.
    if makes {
        sent_into_wrapped(schema, op, &body, &mut value);
    }
    match about {
        // An action on a held item answers the item as it is, the body filling
        // only what it lacks (Intercom's reply `{type: "admin", body}` to a
        // conversation answered `type: "admin"`, outside the conversation's enum).
        true => {
            let fields = op.response.as_ref().and_then(|ty| schema.object_fields(ty));
            for (name, sent) in body {
                // Nor a value outside the answer's enum for that field (the reply's `type`
                // where the conversation's is `conversation`).
                let field = fields.and_then(|fs| fs.iter().find(|f| f.name == name));
                if field.is_none_or(|f| in_its_enum(schema, &f.ty, &sent)) {
                    value.entry(name).or_insert(sent);
                }
            }
        }
        false => value.extend(body),
    }
    value.extend(made.into_iter().flatten());
    if about {
        only_in_enums(schema, op.response.as_ref(), &mut value);
    }
    Ok(Answered {
        value,
        listed,
        made: made_id,
    })
}

/// Removes from `value` the fields whose values lie outside the enum `ty` declares for them
/// (a search answering `status` in words of its own: what a check kept is not one of them).
fn only_in_enums(schema: &ServiceSchema, ty: Option<&Ty>, value: &mut Map<String, Value>) {
    let Some(fields) = ty.and_then(|ty| schema.object_fields(ty)) else {
        return;
    };
    value.retain(|name, v| {
        fields
            .iter()
            .find(|f| f.name == name)
            .is_none_or(|f| in_its_enum(schema, &f.ty, v))
    });
}

/// Whether `value` is one of the values of `ty`, where `ty` is an enum (any value otherwise).
fn in_its_enum(schema: &ServiceSchema, ty: &Ty, value: &Value) -> bool {
    match ty {
        Ty::Named(name) => match schema.named(name).map(|t| t.shape) {
            Some(ShapeSchema::Enum(values)) => value.as_str().is_some_and(|v| values.contains(&v)),
            _ => true,
        },
        _ => true,
    }
}

/// Most ids a send's answer lists, one per recipient (providers take at most 1,000 in a send).
const MAX_RECIPIENT_IDS: usize = 1_000;

/// Whether a field's name says it lists ids (`message_ids`, `messageIds`).
fn names_ids(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with("_ids") || name.ends_with("Ids") || name.ends_with("IDs")
}

/// How many recipients a send names: the entries of its `to`, `cc` and `bcc` lists (one for
/// an address given as text), else one.
fn recipient_count(body: &Map<String, Value>) -> usize {
    let count: usize = ["to", "cc", "bcc"]
        .iter()
        .filter_map(|k| body.get(*k))
        .map(|v| match v {
            Value::Array(items) => items.len(),
            Value::Null => 0,
            _ => 1,
        })
        .sum();
    count.clamp(1, MAX_RECIPIENT_IDS)
}
