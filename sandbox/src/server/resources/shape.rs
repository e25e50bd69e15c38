//! The shape of what the store answers: ids made in the answer's id format, list envelopes,
//! per-recipient lists, the item an answer wraps, and pages in the service's style.

use serde_json::{Map, Value};
use tidings_spec::id_like;

use super::fill::{self, fill};
use super::names::{self, collection_thing, declared, plain, singular};
use super::wrapped::{made_in_list, wrapped_item};
use super::{
    FieldSchema, Format, Item, PageRequest, ResourceAction, ResourceOp, ServerError, ServiceSchema,
    ShapeSchema, Ty, paginate,
};

/// Longest id made to fit an id field's minimum length.
pub(super) const MAX_MADE_ID_LEN: usize = 128;

/// The answer's id field: in the item the answer holds, when it holds one in a field of its
/// own (`wrapped_item`), else in the answer.
fn id_field_of(schema: &ServiceSchema, op: &ResourceOp) -> Option<&'static FieldSchema> {
    let response = op.response.as_ref()?;
    let wrapped = wrapped_item(schema, op).or_else(|| {
        (op.kind == ResourceAction::Create)
            .then(|| made_in_list(schema, Some(response), op.id_field))
            .flatten()
    });
    let item = match wrapped.map_or(*response, |(_, ty)| ty) {
        Ty::List(item) => *item,
        item => item,
    };
    schema
        .object_fields(&item)?
        .iter()
        .find(|f| f.name == op.id_field)
}

/// Whether `name` is an item's own id named after its collection (`user_id` of `/users`).
pub(super) fn own_id_of(name: &str, collection: &str) -> bool {
    named_thing(name).is_some_and(|thing| Some(thing) == names::collection_thing(collection))
}

/// Whether the answer of `op` says what its items' id is (a field of that name).
pub(super) fn id_field_known(schema: &ServiceSchema, op: &ResourceOp) -> bool {
    id_field_of(schema, op).is_some()
}

/// Whether a number written as text is an id the answer's id field takes: it has none, or it is
/// plain text (no format, no pattern, no length a number's digits cannot reach). Intercom's
/// conversations answer a text `id` and are named by an integer `{conversation_id}`.
pub(super) fn digits_fit(schema: &ServiceSchema, op: &ResourceOp) -> bool {
    id_field_of(schema, op).is_none_or(|f| {
        f.ty == Ty::String
            && f.format.is_none()
            && f.pattern.is_none()
            && f.min_len.is_none_or(|n| n <= 8)
    })
}

/// A number as the id of an item an integer path parameter names: its digits, as many as the
/// id field's example has when that is a bare run of hexadecimal digits (Intercom's contacts,
/// 24-hex and named by an integer `{contact_id}` in one operation: `000000000000000000000001`
/// is a number and as long as a conversation's `from.id` must be).
pub(super) fn integer_id(schema: &ServiceSchema, op: &ResourceOp, n: u64) -> String {
    let width = id_field_of(schema, op)
        .and_then(|f| f.example)
        .filter(|e| (8..=64).contains(&e.len()) && e.chars().all(|c| c.is_ascii_hexdigit()))
        .map_or(0, str::len);
    format!("{n:0width$}")
}

/// A fresh id, shaped as the response's id field wants it: a UUID when its format or its name
/// (Vonage's `message_uuid`) says so, one matching its pattern when it has one, else `res_`
/// and the number, padded or shortened to the field's length bounds (Twilio's 34-character
/// sids) when they ask for another length.
pub(super) fn make_id(schema: &ServiceSchema, op: &ResourceOp, n: u64) -> String {
    let id_field = id_field_of(schema, op);
    let named_uuid = op.id_field.to_ascii_lowercase().ends_with("uuid");
    if id_field.and_then(|f| f.format) == Some(Format::Uuid)
        || (named_uuid && id_field.is_some_and(|f| f.ty == Ty::String))
    {
        return format!("00000000-0000-4000-8000-{n:012x}");
    }
    // A `number` id is a whole number too (BulkSMS's webhook `id`, example `234`): made as
    // text, it was answered `0.0`, and no path named the item.
    if id_field.is_some_and(|f| matches!(f.ty, Ty::Integer | Ty::Number)) {
        return n.to_string();
    }
    match id_field {
        Some(f) => field_id(n, f),
        None => numbered_id(n, None, None),
    }
}

/// A fresh id for the text field `field`: one its pattern makes from `n` (Twilio's
/// `^SM[0-9a-fA-F]{32}$`), else one in the shape of its example, else `numbered_id` within
/// its lengths.
pub(super) fn field_id(n: u64, field: &FieldSchema) -> String {
    field
        .pattern
        .and_then(|p| crate::pattern::example(p, n, field.min_len, field.max_len))
        .or_else(|| {
            let id = shaped_like(n, field.example?)?;
            let len = id.len() as u64;
            let fits =
                field.min_len.is_none_or(|m| len >= m) && field.max_len.is_none_or(|m| len <= m);
            fits.then_some(id)
        })
        .unwrap_or_else(|| numbered_id(n, field.min_len, field.max_len))
}

/// `n` in the shape of an example id: its prefix up to the last `_` or `-` kept, the rest as
/// many hexadecimal digits (lower case) or decimal digits as the example has (Intercom's
/// 24-hex `5ba682d23d7cf92bef87bfd4`, which a conversation's `from.id` must be the length of).
/// `None` for an example of another shape.
fn shaped_like(n: u64, example: &str) -> Option<String> {
    let cut = example.rfind(['_', '-']).map_or(0, |i| i + 1);
    let (prefix, body) = example.split_at(cut);
    let width = body.len();
    if !(8..=64).contains(&width) {
        return None;
    }
    if body.chars().all(|c| c.is_ascii_digit()) {
        return Some(format!("{prefix}{n:0width$}"));
    }
    let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
    body.chars()
        .all(hex)
        .then(|| format!("{prefix}{n:0width$x}"))
}

/// `res_` and the number (eight digits at least), padded to `min_len` characters or shortened
/// to `max_len` (the number alone) when the field asks for another length; an id that cannot
/// fit keeps its natural form.
pub(super) fn numbered_id(n: u64, min_len: Option<u64>, max_len: Option<u64>) -> String {
    let made = format!("res_{n:08}");
    let bound = |v: Option<u64>| v.and_then(|v| usize::try_from(v).ok());
    let len = match (bound(min_len), bound(max_len)) {
        (Some(lo), _) if lo > made.len() => lo.min(MAX_MADE_ID_LEN),
        (_, Some(hi)) if hi < made.len() => hi,
        _ => return made,
    };
    let digits = n.to_string().len();
    if len >= digits + 4 {
        format!("res_{n:0width$}", width = len - 4)
    } else if len >= digits {
        format!("{n:0len$}")
    } else {
        made
    }
}

/// The id field's value: a number when the answer's id field is an integer (Brevo's contact
/// ids), else the id as text.
pub(super) fn id_value(schema: &ServiceSchema, op: &ResourceOp, id: &str) -> Value {
    let integer = id_field_of(schema, op).is_some_and(|f| matches!(f.ty, Ty::Integer | Ty::Number));
    match id.parse::<i64>() {
        Ok(n) if integer => Value::from(n),
        _ => Value::String(id.to_owned()),
    }
}

/// Whether `id` is a value of the answer's id field: its format and length (any id when the
/// answer has no such field).
pub(super) fn fits_id_field(schema: &ServiceSchema, op: &ResourceOp, id: &str) -> bool {
    let Some(field) = id_field_of(schema, op) else {
        return true;
    };
    match field.ty {
        Ty::Integer | Ty::Number => id.parse::<i64>().is_ok(),
        Ty::String => fill::fits_text(&field.ty, Some(field), id),
        _ => false,
    }
}

/// What an id-like name names, in lower case without separators (`channel_id`, `channelId`
/// → `channel`); nothing for a bare `id`, `sid` or `uuid`.
fn named_thing(name: &str) -> Option<String> {
    if !id_like(name) {
        return None;
    }
    let plain = plain(name);
    let stem = ["uuid", "sid", "id"]
        .iter()
        .find_map(|end| plain.strip_suffix(end))?;
    (!stem.is_empty()).then(|| stem.to_owned())
}

/// Whether an operation on an item answers another thing than the item: its answer's id field
/// and its path's item parameter name different things (Ably's `POST
/// /channels/{channel_id}/messages` answers a `messageId`, the message it made).
/// A parameter not named like an id names an item of its collection (Knock's `POST
/// /v1/workflows/{key}/trigger` answers a `workflow_run_id`: a run, not the workflow).
pub(super) fn answers_another(op: &ResourceOp) -> bool {
    let (Some(param), Some(answered)) = (op.item_param, named_thing(op.id_field)) else {
        return false;
    };
    match named_thing(param) {
        Some(item) => item != answered,
        // Unless the parameter's own name says the answered thing (Postmark's `messageid`
        // beside a `MessageID` answer).
        None => {
            !plain(param).contains(&answered)
                && collection_thing(op.collection).is_some_and(|c| c != answered)
        }
    }
}

/// `value` with only the fields the object type `ty` declares, or each item of a list of them
/// (an object where a list is declared read as its one item), and so on down the declared
/// fields; anything else as it is: what an answer shows of a request or an item the answer's type is
/// not (Mandrill's send answers a list of statuses, never the request's `key`). A type that
/// takes other keys keeps them, but for a secret another type declares.
pub(super) fn only_declared(schema: &ServiceSchema, ty: &Ty, value: Value) -> Value {
    match (ty, value) {
        (Ty::List(inner) | Ty::Page(inner), Value::Array(items)) => Value::Array(
            items
                .into_iter()
                .map(|v| only_declared(schema, inner, v))
                .collect(),
        ),
        (Ty::List(inner) | Ty::Page(inner), one @ Value::Object(_)) => {
            only_declared(schema, inner, one)
        }
        (ty, Value::Object(mut map)) => {
            if let Some(names) = declared_names(schema, ty, 0) {
                let open = matches!(ty, Ty::Named(n) if schema.named(n).is_some_and(|t| t.keeps_other_keys));
                // Another type's secret is not this answer's (see [`declared_anywhere`]); the
                // rest a client sent stays (Mailscript's action `config.to`, a field of its
                // send request too, was dropped and made up again).
                map.retain(|key, _| {
                    names.contains(&key.as_str())
                        || (open
                            && !(tidings_spec::names_a_secret(key)
                                && declared_anywhere(schema, key)))
                });
            }
            // What the fields hold too (a stored Telnyx call answered inside `data` kept the
            // `sip_auth_password` it was dialled with). A write-only field (OneSignal's
            // `apns_p12_password`) is kept, never answered (unless the answer requires it).
            for f in schema.object_fields(ty).unwrap_or_default() {
                if f.write_only && !f.required {
                    map.remove(f.name);
                    continue;
                }
                if let Some(v) = map.remove(f.name) {
                    map.insert(f.name.to_owned(), only_declared(schema, &f.ty, v));
                }
            }
            Value::Object(map)
        }
        (_, value) => value,
    }
}

/// `body` with only the top-level keys its type `ty` declares (and, where the type takes other
/// keys, those no type of the service declares): what an update writes. Zenvia's template
/// update took `channel` and `senderId`, which its body's type has not.
pub(crate) fn declared_keys_only(schema: &ServiceSchema, ty: &Ty, body: Value) -> Value {
    let Value::Object(mut map) = body else {
        return body;
    };
    if let Some(names) = declared_names(schema, ty, 0) {
        let open =
            matches!(ty, Ty::Named(n) if schema.named(n).is_some_and(|t| t.keeps_other_keys));
        map.retain(|key, _| {
            names.contains(&key.as_str()) || (open && !declared_anywhere(schema, key))
        });
    }
    Value::Object(map)
}

/// Whether `key` is a field of some object type of the service. An answer that takes other
/// keys answers back those a client sent of its own (Knock's custom properties of a user),
/// not a field another type declares (the `sip_auth_password` a Telnyx call was dialled
/// with, sent as a field of the dial request).
fn declared_anywhere(schema: &ServiceSchema, key: &str) -> bool {
    schema.types.iter().any(|t| match t.shape {
        ShapeSchema::Object(fields) => fields.iter().any(|f| f.name == key),
        _ => false,
    })
}

/// The keys an object answer of type `ty` may hold: an object's fields; a union's tag, its
/// content field, and every field of each variant. None when any key may be there (a map, a
/// union with a map or JSON variant).
fn declared_names(schema: &ServiceSchema, ty: &Ty, depth: usize) -> Option<Vec<&'static str>> {
    let Ty::Named(name) = ty else { return None };
    if depth > 8 {
        return None;
    }
    let variants = |types: &mut dyn Iterator<Item = Ty>, names: &mut Vec<&'static str>| {
        for variant in types {
            match variant {
                Ty::Named(_) => names.extend(declared_names(schema, &variant, depth + 1)?),
                // Any key fits these; a text, number or list variant is no object.
                Ty::Map(_) | Ty::Json => return None,
                _ => {}
            }
        }
        Some(())
    };
    let mut names = Vec::new();
    match schema.named(name)?.shape {
        ShapeSchema::Object(fields) => names.extend(fields.iter().map(|f| f.name)),
        ShapeSchema::Enum(_) => return None,
        ShapeSchema::Union {
            tag,
            content,
            variants: list,
        } => {
            names.push(tag);
            match content {
                Some(content) => names.push(content),
                None => variants(
                    &mut list.iter().filter_map(|(_, ty)| ty.map(Ty::Named)),
                    &mut names,
                )?,
            }
        }
        ShapeSchema::Untagged(list) => variants(&mut list.iter().copied(), &mut names)?,
    }
    Some(names)
}

/// `item` with its kind in a text field `object` the answer declares and the item lacks
/// (Stripe's and Resend's `{"object": "contact", "id": ..., "deleted": true}`): the
/// collection's last segment in the singular.
fn with_kind(
    fields: &[FieldSchema],
    op: &ResourceOp,
    mut item: Map<String, Value>,
) -> Map<String, Value> {
    let kind = op
        .collection
        .rsplit('/')
        .find(|s| !s.is_empty() && !s.contains('{'))
        .map(singular);
    if let Some(kind) = kind
        && !item.contains_key("object")
        && fields
            .iter()
            .any(|f| f.name == "object" && f.ty == Ty::String)
    {
        item.insert("object".to_owned(), Value::String(kind));
    }
    item
}

/// What a delete answers: the item removed (with `deleted: true` where the type has it) when
/// the answer is the item's type, alone or wrapped (it declares the id field); the item's
/// fields the answer declares when they are two or more and hold every required one (a view
/// of the item without its id); else the answer's own object type with its yes-or-no fields true, in it and in the object it wraps
/// (OneSignal's `{"success": true}`, Novu's `{"data": {"acknowledged": true}}`), the rest made
/// up: the item is not that answer, and merged into it would change what it holds.
pub(super) fn deleted_answer(
    schema: &ServiceSchema,
    op: &ResourceOp,
    item: Map<String, Value>,
) -> Map<String, Value> {
    let ty = op.response.as_ref();
    let Some(fields) = ty.and_then(|ty| schema.object_fields(ty)) else {
        return item;
    };
    if declared(schema, ty, op.id_field) {
        return with_kind(fields, op, item);
    }
    if let Some((field, _)) =
        wrapped_item(schema, op).filter(|(_, inner)| declared(schema, Some(inner), op.id_field))
    {
        return Map::from_iter([(field.to_owned(), Value::Object(item))]);
    }
    // A view of the item without its id (Sinch's cancel answers the batch as it was sent):
    // two or more of its fields, every required one among them, are the item's own.
    let shared = fields.iter().filter(|f| item.contains_key(f.name)).count();
    if shared >= 2
        && fields
            .iter()
            .all(|f| !f.required || item.contains_key(f.name))
    {
        return item
            .into_iter()
            .filter(|(k, _)| fields.iter().any(|f| f.name == k))
            .collect();
    }
    let yes = |fields: &[FieldSchema]| -> Map<String, Value> {
        fields
            .iter()
            .filter(|f| f.ty == Ty::Boolean)
            .map(|f| (f.name.to_owned(), Value::Bool(true)))
            .collect()
    };
    let mut answer = yes(fields);
    for f in fields {
        if let Some(inner) = schema.object_fields(&f.ty) {
            let inner = yes(inner);
            if !inner.is_empty() {
                answer.insert(f.name.to_owned(), Value::Object(inner));
            }
        }
    }
    answer
}

/// A list answered inside the object type `ty`: every item at the dot path `path`, filled as
/// the field's item type, and the object's other required fields made up.
pub(super) fn envelope_of(
    schema: &ServiceSchema,
    op: &ResourceOp,
    ty: &Ty,
    path: &str,
    items: &[&Item],
) -> Value {
    let mut item_ty = *ty;
    // The object holding the items, and its dot path (with the dot).
    let (mut holder, mut holder_path) = (*ty, String::new());
    let mut parts = path.split('.').peekable();
    while let Some(part) = parts.next() {
        if parts.peek().is_some() {
            holder_path.push_str(part);
            holder_path.push('.');
        }
        holder = item_ty;
        item_ty = schema
            .object_fields(&item_ty)
            .and_then(|fields| fields.iter().find(|f| f.name == part))
            .map_or(Ty::Json, |f| f.ty);
    }
    let item_ty = match item_ty {
        Ty::List(inner) | Ty::Page(inner) => *inner,
        _ => Ty::Json,
    };
    let listed: Vec<Value> = items
        .iter()
        .map(|i| listed_item(schema, op, &item_ty, i))
        .collect();
    let total = listed.len();
    let mut envelope = Value::Object(Map::new());
    super::super::page::set_path(&mut envelope, path, Value::Array(listed));
    // A count of the items beside them, under a common name, is their number (Novu's
    // `totalCount`, a `number`, beside `data.data`).
    for f in schema.object_fields(&holder).unwrap_or_default() {
        if matches!(f.ty, Ty::Integer | Ty::Number) && TOTAL_NAMES.contains(&f.name) {
            let at = format!("{holder_path}{}", f.name);
            super::super::page::set_path(&mut envelope, &at, Value::from(total));
        }
        // Where they start (Rocket.Chat's `offset`): the whole list's is 0; a page says its own.
        if f.ty == Ty::Integer && f.name == "offset" {
            let at = format!("{holder_path}{}", f.name);
            super::super::page::set_path(&mut envelope, &at, Value::from(0));
        }
    }
    // The yes/no fields the type declares to say whether more pages follow, beside the items
    // or one object down (Sunshine's optional `meta.hasMore`), are always answered: a client
    // may page until they say no more.
    for f in schema.object_fields(&holder).unwrap_or_default() {
        let flags = schema.object_fields(&f.ty).unwrap_or_default();
        let flags = flags.iter().map(|g| (format!("{}.{}", f.name, g.name), g));
        for (at, g) in std::iter::once((f.name.to_owned(), f)).chain(flags) {
            if g.ty == Ty::Boolean && super::super::page::is_page_flag(g.name) {
                let at = format!("{holder_path}{at}");
                super::super::page::set_path(&mut envelope, &at, Value::Bool(false));
            }
        }
    }
    let mut answer = fill(schema, ty, Some(&envelope), 0, None);
    // The whole list: no page follows (Svix's `done: true`).
    super::super::page::mark_last_page(&mut answer, false);
    answer
}

/// Names of a field that counts the items of a list answered inside an object.
pub(super) const TOTAL_NAMES: &[&str] = &[
    "count",
    "total",
    "total_count",
    "totalCount",
    "TotalCount",
    "total_items",
    "totalItems",
];

/// For an answer to a batch of `n` things: its first list field whose items have an
/// id-like field, with `n` empty entries (the answer's ids are put in them after).
pub(super) fn per_item(schema: &ServiceSchema, ty: &Ty, n: usize) -> Vec<(String, Value)> {
    let Some(fields) = schema.object_fields(ty) else {
        return Vec::new();
    };
    let listed = fields.iter().find(|f| match f.ty {
        Ty::List(item) => schema
            .object_fields(item)
            .is_some_and(|fs| fs.iter().any(|i| id_like(i.name))),
        _ => false,
    });
    listed
        .map(|f| {
            let entries = vec![Value::Object(Map::new()); n];
            (f.name.to_owned(), Value::Array(entries))
        })
        .into_iter()
        .collect()
}

/// The lists a send answers one entry per recipient in, made from the request (`body`): each
/// list field of the answer's type that the request does not send, whose items take the
/// request's recipients (see [`recipients`]). The other fields of each item (its id, its
/// status) are made up as for any answer.
pub(super) fn per_recipient(
    schema: &ServiceSchema,
    ty: &Ty,
    body: &Map<String, Value>,
) -> Vec<(String, Value)> {
    let Some(fields) = schema.object_fields(ty) else {
        return Vec::new();
    };
    fields
        .iter()
        .filter_map(|f| {
            let Ty::List(item) = f.ty else { return None };
            if body.get(f.name).is_some_and(|v| !v.is_null()) {
                return None;
            }
            let items = recipients(schema, item, body)?;
            Some((f.name.to_owned(), Value::Array(items)))
        })
        .collect()
}

/// How deep in the request's objects [`recipients`] looks (Mandrill's are one level down, in
/// `message.to`).
const RECIPIENTS_DEPTH: usize = 2;

/// One entry of `item` per recipient the request names, each holding the recipient's fields
/// the item has too:
/// - a list of text under a name the item has as a text field (Infobip's email `to: [a, b]`
///   answered as `messages: [{to: a}, {to: b}]`);
/// - a list of objects whose address fields (of an email or phone format, or named as an
///   address) the item has too (Mandrill's `message.to: [{email, name}]` answered as
///   `[{email, _id, status}]`, one result per recipient).
///
/// The request is searched nearest level first, down to [`RECIPIENTS_DEPTH`] nested objects.
pub(super) fn recipients(
    schema: &ServiceSchema,
    item: &Ty,
    body: &Map<String, Value>,
) -> Option<Vec<Value>> {
    let item_fields = schema.object_fields(item)?;
    let mut level = vec![body];
    for _ in 0..=RECIPIENTS_DEPTH {
        let mut deeper = Vec::new();
        for (key, value) in level.into_iter().flatten() {
            match value {
                Value::Object(inner) => deeper.push(inner),
                Value::Array(values) if !values.is_empty() => {
                    if let Some(entries) = recipient_entries(item_fields, key, values) {
                        return Some(entries);
                    }
                }
                _ => {}
            }
        }
        level = deeper;
    }
    None
}

/// The entries of [`recipients`] for the request's list `key: values`, when it lists them.
fn recipient_entries(
    item_fields: &[FieldSchema],
    key: &str,
    values: &[Value],
) -> Option<Vec<Value>> {
    let text = |f: &&FieldSchema| f.ty == Ty::String;
    if values.iter().all(Value::is_string) {
        let field = item_fields.iter().filter(text).find(|f| f.name == key)?;
        let entries = values
            .iter()
            .map(|v| Value::Object(Map::from_iter([(field.name.to_owned(), v.clone())])))
            .collect();
        return Some(entries);
    }
    let objects: Vec<&Map<String, Value>> =
        values.iter().map(Value::as_object).collect::<Option<_>>()?;
    let address = |f: &&FieldSchema| {
        matches!(f.format, Some(Format::Email | Format::E164))
            || fill::ADDRESS_NAMES.contains(&f.name)
    };
    let shared: Vec<&str> = item_fields
        .iter()
        .filter(text)
        .filter(address)
        .filter(|f| {
            objects
                .iter()
                .all(|o| o.get(f.name).is_some_and(Value::is_string))
        })
        .map(|f| f.name)
        .collect();
    if shared.is_empty() {
        return None;
    }
    let entries = objects
        .iter()
        .map(|o| {
            let kept = shared
                .iter()
                .map(|name| ((*name).to_owned(), o[*name].clone()));
            Value::Object(kept.collect())
        })
        .collect();
    Some(entries)
}

/// The names of the required fields of the object type `ty` (none for another type).
pub(super) fn required_of(schema: &ServiceSchema, ty: Option<&Ty>) -> Vec<&'static str> {
    let fields = ty
        .and_then(|ty| schema.object_fields(ty))
        .unwrap_or_default();
    fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect()
}

/// `value` with the required fields of the response type filled (what is stored).
pub(super) fn filled_object(
    schema: &ServiceSchema,
    ty: Option<&Ty>,
    value: Map<String, Value>,
) -> Map<String, Value> {
    let Some(ty) = ty else { return value };
    let mut whole = value.clone();
    if let Value::Object(filled) = fill(schema, ty, Some(&Value::Object(value)), 0, None) {
        // Keep the body's own fields too: another operation may answer with a wider type.
        whole.extend(filled);
    }
    whole
}

/// `item` as a list of `item_ty` shows it: a list of plain values answers the items' ids (the
/// members of a set: SendGrid's suppressed addresses); an object has the list item type's
/// fields only, its id in the field the list names it by when it lacks one (Bandwidth's
/// messages, created as `{id}` and listed as `{messageId}`).
fn listed_item(schema: &ServiceSchema, op: &ResourceOp, item_ty: &Ty, item: &Item) -> Value {
    let value = match item_ty {
        Ty::String => Value::String(item.id.clone()),
        Ty::Integer => item
            .id
            .parse::<i64>()
            .map_or_else(|_| Value::String(item.id.clone()), Value::from),
        _ => {
            let mut value = item.value.clone();
            if declared(schema, Some(item_ty), op.id_field) && !value.contains_key(op.id_field) {
                value.insert(op.id_field.to_owned(), id_value(schema, op, &item.id));
            }
            if value.contains_key(super::FILE_BYTES) {
                describe_file(schema, item_ty, &mut value, &item.id);
            }
            Value::Object(value)
        }
    };
    only_declared(
        schema,
        item_ty,
        fill(schema, item_ty, Some(&value), 0, None),
    )
}

/// A stored file (an upload sent as it is) described in the fields of the list item type
/// that name its facts (Bandwidth's media, uploaded to `PUT /media/{mediaId}` and listed as
/// `{mediaName, contentLength}`): a text field named as a name or key, its name (the id it was
/// put at); a number field named as a length or size, its bytes; a text field named as a
/// content or media type, the type it came with. The bytes themselves are no field.
fn describe_file(schema: &ServiceSchema, item_ty: &Ty, value: &mut Map<String, Value>, id: &str) {
    let encoded = value
        .get(super::FILE_BYTES)
        .and_then(Value::as_str)
        .unwrap_or_default();
    let padding = encoded.bytes().rev().take_while(|b| *b == b'=').count();
    let length = (encoded.len() / 4 * 3).saturating_sub(padding);
    let media = value.get(super::FILE_MEDIA).cloned();
    for f in schema.object_fields(item_ty).unwrap_or_default() {
        if value.contains_key(f.name) {
            continue;
        }
        let name = plain(f.name);
        let fact = match f.ty {
            Ty::String
                if ["contenttype", "mediatype", "mimetype"]
                    .iter()
                    .any(|w| name.ends_with(w)) =>
            {
                media.clone()
            }
            Ty::String if name.ends_with("name") || name.ends_with("key") => Some(Value::from(id)),
            Ty::Integer if name.ends_with("length") || name.ends_with("size") => {
                Some(Value::from(length))
            }
            _ => None,
        };
        if let Some(fact) = fact {
            value.insert(f.name.to_owned(), fact);
        }
    }
}

/// One page of `items` in the service's pagination, as its `Page<T>` serializes. The one place
/// paging happens, so further pagination styles extend this function.
pub(super) fn page_of(
    schema: &ServiceSchema,
    op: &ResourceOp,
    items: &[&Item],
    query: &Value,
) -> Result<Value, ServerError> {
    let item_ty = match op.response {
        Some(Ty::Page(t) | Ty::List(t)) => *t,
        _ => Ty::Json,
    };
    let param = |name: &str| query.get(name);
    let text = |name: Option<&str>| name.and_then(param).and_then(Value::as_str);
    let out = |item: &Item| listed_item(schema, op, &item_ty, item);
    let Some(Ty::Page(_)) = op.response else {
        // A plain list: every item.
        return Ok(Value::Array(items.iter().copied().map(out).collect()));
    };
    let Some(page) = schema.page else {
        return Ok(Value::Array(items.iter().copied().map(out).collect()));
    };
    let request = PageRequest {
        limit: param(page.limit_param).and_then(Value::as_i64),
        after: text(Some(page.after_param)),
        before: text(page.before_param),
    };
    let (chosen, more) = paginate(items, |i| i.id.as_str(), request)?;
    let mut body = Map::new();
    body.insert(
        page.items_field.to_owned(),
        Value::Array(chosen.into_iter().map(out).collect()),
    );
    body.insert(page.has_more_field.to_owned(), Value::Bool(more));
    Ok(Value::Object(body))
}

/// The path's parameters as the fields of the same name (case, `_` and `-` aside) that the
/// item's type declares and the body does not send: Twilio's `AccountSid` of
/// `/Accounts/{AccountSid}/Messages.json` is the created message's `account_sid`. Never the
/// item's own id field (a parent's `{id}` is not the new item's), and only a value the field
/// takes.
pub(super) fn from_path(
    schema: &ServiceSchema,
    op: &ResourceOp,
    ty: Option<&Ty>,
    path: &[(&'static str, String)],
    body: &mut Map<String, Value>,
) {
    let Some(fields) = ty.and_then(|ty| schema.object_fields(ty)) else {
        return;
    };
    for (param, value) in path {
        // The field the parameter names, else the thing its id is of (`channel_id` is the
        // `channel`'s).
        let wanted = plain(param);
        let thing = named_thing(param);
        // A bare `{id}` is the id of the collection's item before it (`/messages/{id}/reaction`):
        // the field named after that thing's id holds it (a reaction's `message_id`).
        let parent_id = || {
            let placeholder = format!("{{{param}}}");
            let segments: Vec<&str> = op.collection.split('/').collect();
            let at = segments.iter().position(|s| *s == placeholder)?;
            let thing = singular(&plain(segments.get(at.checked_sub(1)?)?));
            let field = format!("{thing}{wanted}");
            fields
                .iter()
                .find(|f| thing.len() > 1 && plain(f.name) == field)
        };
        let Some(field) = fields
            .iter()
            .find(|f| plain(f.name) == wanted)
            .or_else(|| fields.iter().find(|f| Some(plain(f.name)) == thing))
            .or_else(|| parent_id().filter(|_| thing.is_none()))
        else {
            continue;
        };
        // An object the parameter's id is of (Discord's member `user` of
        // `/guilds/{guild_id}/members/{user_id}`): that value is its `id`.
        if let Some(id) = schema
            .object_fields(&field.ty)
            .and_then(|inner| inner.iter().find(|f| f.name == "id"))
            .filter(|_| thing == Some(plain(field.name)))
            .filter(|id| id.ty == Ty::String && fill::fits_text(&id.ty, Some(id), value))
        {
            if let Value::Object(held) = body
                .entry(field.name.to_owned())
                .or_insert_with(|| Value::Object(Map::new()))
            {
                held.entry(id.name.to_owned())
                    .or_insert_with(|| Value::String(value.clone()));
            }
            continue;
        }
        // Only a value the field takes (its format and length): the answer stays valid. A
        // number field takes the parameter's digits (ClickSend's contact answers the
        // `list_id` of `/lists/{list_id}/contacts` it was created under).
        if field.name == op.id_field || body.contains_key(field.name) {
            continue;
        }
        let taken = match field.ty {
            Ty::String if fill::fits_text(&field.ty, Some(field), value) => {
                Value::String(value.clone())
            }
            Ty::Integer | Ty::Number => match value.parse::<i64>() {
                Ok(n) => Value::from(n),
                Err(_) => continue,
            },
            _ => continue,
        };
        body.insert(field.name.to_owned(), taken);
    }
}

/// An item keyed by a value the client chose (Zulip's users by `email`) whose type has its own
/// id named after the collection (`user_id`), not sent: made as a fresh id is, so the paths
/// that name the item by it find it. The id counter after it.
pub(super) fn own_number(
    schema: &ServiceSchema,
    op: &ResourceOp,
    item_ty: Option<&Ty>,
    body: &mut Map<String, Value>,
    counter: Option<u64>,
    next_id: u64,
) -> Option<u64> {
    let fields = item_ty
        .and_then(|t| schema.object_fields(t))
        .unwrap_or_default();
    let own = fields.iter().find(|f| {
        f.name != op.id_field
            && !body.contains_key(f.name)
            && matches!(f.ty, Ty::Integer | Ty::String)
            && own_id_of(f.name, op.collection)
    });
    let Some(own) = own.filter(|_| counter.is_none()) else {
        return counter;
    };
    let n = next_id + 1;
    let value = match own.ty {
        Ty::Integer => Value::from(n),
        _ => Value::String(field_id(n, own)),
    };
    body.insert(own.name.to_owned(), value);
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::singular;

    #[test]
    fn plurals_are_read_in_the_singular_and_singulars_stay() {
        for (plural, one) in [
            ("users", "user"),
            ("categories", "category"),
            ("statuses", "status"),
            ("addresses", "address"),
            ("batches", "batch"),
            ("people", "person"),
            ("status", "status"),
            ("address", "address"),
            ("user", "user"),
        ] {
            assert_eq!(singular(plural), one, "{plural}");
        }
    }
}
