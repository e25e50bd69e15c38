//! "Fill": any JSON made into a valid value of a spec type, missing or wrong parts made up from
//! the type, format, limits and enum the schema table gives.

use super::names::{names_a_time, names_a_url, plain};
use super::times::{self, made_up_time, names_a_stamp, names_the_last_change};
use super::*;

/// Depth at which fill stops making up nested values (recursive types end there).
const MAX_FILL_DEPTH: usize = 16;
/// Items fill makes up for a list with `min_items` (a larger minimum is capped here).
const MAX_FILL_ITEMS: u64 = 16;

/// A valid value of `ty`: `given` where it has the right shape (nested required fields filled
/// in), a made-up value from type, format, limits and enum where it is missing or wrong.
pub fn fill(
    schema: &ServiceSchema,
    ty: &Ty,
    given: Option<&Value>,
    depth: usize,
    field: Option<&FieldSchema>,
) -> Value {
    if depth > MAX_FILL_DEPTH {
        return given.cloned().unwrap_or(Value::Null);
    }
    let given = given.filter(|v| !v.is_null());
    match ty {
        // Text that breaks the answer's format or length (a value stored from a request
        // whose own field had none, a path parameter) is made up instead: an answer is always
        // a value of its type.
        // A time in its field's wire form, written in it when it came in another.
        Ty::DateTime => match given {
            Some(v) if times::fits(field, v) => v.clone(),
            Some(v) => times::rewritten(field, v).unwrap_or_else(|| times::now(field)),
            None => times::now(field),
        },
        Ty::String | Ty::Bytes => match given {
            Some(Value::String(s)) if fits_text(ty, field, s) => Value::String(s.clone()),
            // An object of one text where the answer has text (Intercom's data attribute
            // written with `options: [{value: "1-10"}]`, answered as `["1-10"]`): that text,
            // never a made-up one in place of what the client sent.
            Some(Value::Object(map)) if map.len() == 1 => match map.values().next() {
                Some(Value::String(s)) if fits_text(ty, field, s) => Value::String(s.clone()),
                _ => Value::String(sample_string(ty, field)),
            },
            // A list sent where the answer has one text (BulkSMS's message sent `to:
            // [{address}]`, answered with its recipient `to`): its first, as above.
            Some(Value::Array(items)) if !items.is_empty() && depth < MAX_FILL_DEPTH => {
                fill(schema, ty, items.first(), depth + 1, field)
            }
            // A yes-or-no or a number sent where the answer has text (Twilio's credential
            // created with `Sandbox=true`, answered `"sandbox": "true"`): its text.
            Some(v @ (Value::Bool(_) | Value::Number(_)))
                if *ty == Ty::String && fits_text(ty, field, &v.to_string()) =>
            {
                Value::String(v.to_string())
            }
            _ => Value::String(sample_string(ty, field)),
        },
        Ty::Date => match given {
            Some(Value::String(s)) if tidings_runtime::dates::is_date(s) => {
                Value::String(s.clone())
            }
            _ => Value::String(now_rfc3339().chars().take(10).collect()),
        },
        Ty::Integer => match given {
            Some(v @ Value::Number(n)) if n.is_i64() => v.clone(),
            _ => {
                let (min, max) = bounds(field);
                // Saturating casts are what we want: a bound beyond i64 clamps.
                let made = made_up_time(field)
                    .or_else(|| names_an_http_status(field).then_some(200))
                    .unwrap_or(0) as f64;
                Value::from(made.max(min.ceil()).min(max.floor()) as i64)
            }
        },
        Ty::Number => match given {
            Some(v @ Value::Number(_)) => v.clone(),
            _ => {
                let (min, max) = bounds(field);
                let made = made_up_time(field).unwrap_or(0) as f64;
                serde_json::Number::from_f64(made.max(min).min(max))
                    .map_or(Value::from(0), Value::Number)
            }
        },
        Ty::Boolean => match given {
            Some(v @ Value::Bool(_)) => v.clone(),
            _ => Value::Bool(made_up_flag(field)),
        },
        Ty::Json => given.cloned().unwrap_or_else(|| Value::Object(Map::new())),
        Ty::List(inner) | Ty::Page(inner) => match given {
            Some(Value::Array(items)) => Value::Array(
                items
                    .iter()
                    .map(|v| fill(schema, inner, Some(v), depth + 1, None))
                    .collect(),
            ),
            // One value where the answer has a list (Resend's `to`: a string or a list of
            // them on the way in, always a list on the way out): the list of that one value,
            // not an empty list that loses it.
            Some(one)
                if kind_fits(schema, inner, one) || text_home(schema, inner, one).is_some() =>
            {
                Value::Array(vec![fill(schema, inner, Some(one), depth + 1, None)])
            }
            _ => {
                let n = field
                    .and_then(|f| f.min_items)
                    .unwrap_or(0)
                    .min(MAX_FILL_ITEMS);
                Value::Array(
                    (0..n)
                        .map(|_| fill(schema, inner, None, depth + 1, None))
                        .collect(),
                )
            }
        },
        Ty::Map(inner) => match given {
            Some(Value::Object(map)) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), fill(schema, inner, Some(v), depth + 1, None)))
                    .collect(),
            ),
            _ => Value::Object(Map::new()),
        },
        Ty::Named(name) => match schema.named(name).map(|t| t.shape) {
            Some(ShapeSchema::Object(fields)) => {
                let given = match (given, given.and_then(|g| text_home(schema, ty, g))) {
                    (Some(Value::Object(map)), _) => map.clone(),
                    // Text sent where the answer has an object that holds it (Telnyx's
                    // `from: "+1555..."` answered as `from: {phone_number, carrier}`).
                    (Some(text), Some(home)) => Map::from_iter([(home.to_owned(), text.clone())]),
                    // A list of objects sent where the answer has one (Vonage's call made
                    // `to: [{type, number}]`, answered `to: {type, number}`): the first.
                    (Some(Value::Array(items)), _) => match items.first() {
                        Some(Value::Object(first)) => first.clone(),
                        _ => Map::new(),
                    },
                    _ => Map::new(),
                };
                fill_object(schema, fields, given, depth)
            }
            Some(ShapeSchema::Enum(values)) => match given {
                Some(Value::String(s)) => Value::String(s.clone()),
                _ => field.and_then(|f| outbound(schema, f)).unwrap_or_else(|| {
                    values
                        .first()
                        .map_or(Value::String(String::new()), |v| Value::from(*v))
                }),
            },
            Some(ShapeSchema::Union {
                tag,
                content,
                variants,
            }) => fill_union(schema, tag, content, variants, given, depth),
            // Decided by shape, as a client decides: of the variants of what was given's JSON
            // kind, the best fit (an object: the one naming most of its keys), filled from it;
            // else the first variant made up (an answer always fits a variant).
            Some(ShapeSchema::Untagged(variants)) => {
                match (given, given.and_then(|v| best_fit(schema, variants, v))) {
                    (Some(v), Some(variant)) => fill(schema, variant, Some(v), depth + 1, None),
                    _ => variants.first().map_or(Value::Null, |first| {
                        fill(schema, first, None, depth + 1, None)
                    }),
                }
            }
            // A name the table lacks (a type of another service): keep what was given.
            None => given.cloned().unwrap_or(Value::Null),
        },
    }
}

/// The variant of an untagged union `value` is read as: the first of its JSON kind, in the
/// order a generated client tries them (`tidings_runtime::union::fit_order`).
fn best_fit<'a>(schema: &ServiceSchema, variants: &'a [Ty], value: &Value) -> Option<&'a Ty> {
    let keys: Vec<Option<Vec<&str>>> = variants
        .iter()
        .map(|v| match v {
            Ty::Named(name) => match schema.named(name)?.shape {
                ShapeSchema::Object(fields) => Some(fields.iter().map(|f| f.name).collect()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let keys: Vec<Option<&[&str]>> = keys.iter().map(Option::as_deref).collect();
    // Best fit first with two object variants or more, as the generated clients read them.
    let order = if keys.iter().flatten().count() >= 2 {
        tidings_runtime::union::fit_order(value, &keys)
    } else {
        (0..variants.len()).collect()
    };
    order
        .into_iter()
        .map(|i| &variants[i])
        .find(|t| kind_fits(schema, t, value))
}

/// The one value of an enum that allows one.
fn one_value(schema: &ServiceSchema, ty: &Ty) -> Option<&'static str> {
    let Ty::Named(name) = ty else {
        return None;
    };
    match schema.named(name)?.shape {
        ShapeSchema::Enum([only]) => Some(*only),
        _ => None,
    }
}

fn fill_object(
    schema: &ServiceSchema,
    fields: &[FieldSchema],
    mut given: Map<String, Value>,
    depth: usize,
) -> Value {
    for f in fields {
        match given.get(f.name).filter(|v| !v.is_null()) {
            // An empty text its field's format refuses (Telnyx's `webhook_failover_url`,
            // `""` by default, format `url`) is no value: an optional field is left out, not
            // given a made-up link that says one is set.
            Some(Value::String(text))
                if text.is_empty() && !f.required && !fits_text(&f.ty, Some(f), text) =>
            {
                given.remove(f.name);
            }
            Some(v) => {
                let v = fill(schema, &f.ty, Some(v), depth + 1, Some(f));
                given.insert(f.name.to_owned(), v);
            }
            // Left out: what the service takes then, when the spec says (`default`). A
            // default its own field's format refuses (Telnyx's `webhook_failover_url: ""`,
            // format `url`) leaves an optional field out: a made-up link would say one is set.
            None if f.default.is_some() => {
                let default: Option<Value> = f.default.and_then(|d| serde_json::from_str(d).ok());
                let refused = matches!(&default, Some(Value::String(text))
                    if matches!(f.ty, Ty::String) && !fits_text(&f.ty, Some(f), text));
                if refused && !f.required {
                    given.remove(f.name);
                    continue;
                }
                let v = fill(schema, &f.ty, default.as_ref(), depth + 1, Some(f));
                given.insert(f.name.to_owned(), v);
            }
            // A kind its type allows one value of (Telnyx's message `record_type: [message]`,
            // optional): the service always says it, so it is answered.
            None if !f.nullable && one_value(schema, &f.ty).is_some() => {
                let v = one_value(schema, &f.ty)
                    .map(Value::from)
                    .unwrap_or_default();
                given.insert(f.name.to_owned(), v);
            }
            // Required but nullable (a list's `next` on its last page): `null`, not made up.
            None if f.nullable => {
                given.insert(f.name.to_owned(), Value::Null);
            }
            None if f.required => {
                let v = fill(schema, &f.ty, None, depth + 1, Some(f));
                given.insert(f.name.to_owned(), v);
            }
            // An answer's own yes/no saying it went well, optional or not (Rocket.Chat's
            // `success`, in every example of every answer): a client checks it.
            None if depth == 0 && f.ty == Ty::Boolean && is_success_flag(f.name) => {
                given.insert(f.name.to_owned(), Value::Bool(true));
            }
            // An answer that is only a wrapper around one object (Telnyx's `{data: ...}`,
            // every field optional), given nothing: that object, made up, not `{}`.
            None if depth == 0
                && fields.len() == 1
                && given.is_empty()
                && schema.object_fields(&f.ty).is_some() =>
            {
                let v = fill(schema, &f.ty, None, depth + 1, Some(f));
                given.insert(f.name.to_owned(), v);
            }
            None => {
                given.remove(f.name);
            }
        }
    }
    Value::Object(given)
}

fn fill_union(
    schema: &ServiceSchema,
    tag: &str,
    content: Option<&str>,
    variants: &[(&'static str, Option<&'static str>)],
    given: Option<&Value>,
    depth: usize,
) -> Value {
    let given_map = match given {
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    };
    let chosen = given_map
        .get(tag)
        .and_then(Value::as_str)
        .and_then(|t| variants.iter().find(|(v, _)| *v == t))
        .or_else(|| variants.first());
    let Some((tag_value, ty)) = chosen else {
        return given.cloned().unwrap_or(Value::Null);
    };
    let mut out = match (content, ty) {
        (Some(content), Some(ty)) => {
            let inner = given_map.get(content);
            let mut out = Map::new();
            out.insert(
                content.to_owned(),
                fill(schema, &Ty::Named(*ty), inner, depth + 1, None),
            );
            out
        }
        (None, Some(ty)) => {
            match fill(
                schema,
                &Ty::Named(*ty),
                Some(&Value::Object(given_map)),
                depth + 1,
                None,
            ) {
                Value::Object(map) => map,
                _ => Map::new(),
            }
        }
        (_, None) => Map::new(),
    };
    out.insert(tag.to_owned(), Value::from(*tag_value));
    Value::Object(out)
}

/// Yes/no fields that say an operation went well (`success`, Mandrill's `added`), in lower
/// case without separators: only words that say nothing else (a contact's `deleted` or a
/// message's `sent` is its state).
const SUCCESS_FLAGS: &[&str] = &["success", "successful", "succeeded", "ok", "added"];

/// Yes/no fields that say what an action did (`sent`, `queued`, `deleted`), in lower case
/// without separators: `true` in an action's answer, the item's state elsewhere.
pub(super) const RESULT_FLAGS: &[&str] = &[
    "sent",
    "queued",
    "accepted",
    "created",
    "updated",
    "deleted",
    "removed",
    "cancelled",
    "canceled",
    "published",
    "scheduled",
    "subscribed",
    "unsubscribed",
];

/// Whether a yes/no field named `name` says an operation went well ([`SUCCESS_FLAGS`]).
pub(crate) fn is_success_flag(name: &str) -> bool {
    SUCCESS_FLAGS.contains(&plain(name).as_str())
}

/// A made-up yes/no: the field's default, else yes for a field that says the operation went
/// well (Loops' `success`, Mandrill's `added`: made up `false`, every answer said it failed),
/// else no.
pub(super) fn made_up_flag(field: Option<&FieldSchema>) -> bool {
    let Some(field) = field else { return false };
    if let Some(Ok(Value::Bool(default))) = field.default.map(serde_json::from_str::<Value>) {
        return default;
    }
    is_success_flag(field.name)
}

fn bounds(field: Option<&FieldSchema>) -> (f64, f64) {
    (
        field.and_then(|f| f.min).unwrap_or(f64::MIN),
        field.and_then(|f| f.max).unwrap_or(f64::MAX),
    )
}

/// A made-up string that passes the field's format, length limits and pattern: one the pattern
/// makes when the sample its format or name suggests does not match (SendGrid's `updated_at`
/// with a pattern of its own for a time).
fn sample_string(ty: &Ty, field: Option<&FieldSchema>) -> String {
    // The document's own example, where it fits the field (Intercom's `type: "contact"`, not
    // `"type"`; Zulip's `msg: ""`, not `"msg"`); an id stays made up, one of its own each time.
    if let Some(example) = field
        .filter(|f| !tidings_spec::id_like(f.name))
        .and_then(|f| f.example)
        .filter(|e| fits_text(ty, field, e))
    {
        return example.to_owned();
    }
    let sample = sample_text(ty, field);
    match field.and_then(|f| Some((f, f.pattern?))) {
        Some((f, pattern)) if !crate::pattern::matches(pattern, &sample) => {
            crate::pattern::example(pattern, 0, f.min_len, f.max_len).unwrap_or(sample)
        }
        _ => sample,
    }
}

/// A made-up string that passes the field's format and length limits.
pub(super) fn sample_text(ty: &Ty, field: Option<&FieldSchema>) -> String {
    let format = field.and_then(|f| f.format);
    let made_id;
    let base = match (ty, format) {
        (_, Some(Format::Rfc3339)) => return now_rfc3339(),
        (_, Some(Format::Email)) => return "sample@example.com".to_owned(),
        (_, Some(Format::E164)) => return "+15555550100".to_owned(),
        (_, Some(Format::Uri)) => return "https://example.com/".to_owned(),
        // One of its own each time (Mailtrap's templates, told apart by their `uuid`).
        (_, Some(Format::Uuid)) => return uuid::Uuid::new_v4().to_string(),
        (_, Some(Format::Date)) => return now_rfc3339().chars().take(10).collect(),
        (_, Some(Format::Rfc2822)) => {
            let now = now_rfc3339();
            return tidings_runtime::dates::rfc3339_to_rfc2822(&now).unwrap_or(now);
        }
        (_, Some(Format::Unix)) => return (times::now_ms() / 1000).to_string(),
        (_, Some(Format::UnixMs)) => return times::now_ms().to_string(),
        (Ty::DateTime, _) => return now_rfc3339(),
        (_, None) if field.is_some_and(|f| names_a_time(f.name)) => return now_rfc3339(),
        (_, None) if field.is_some_and(|f| names_a_url(f.name)) => "https://example.com/",
        // An id made up as its field's name would be the same for every item (Mandrill's
        // sends all answered `"_id": "_id"`), and one item could not be told from another.
        (_, None) if field.is_some_and(|f| tidings_spec::id_like(f.name)) => {
            made_id = format!("res_{}", &uuid::Uuid::new_v4().simple().to_string()[..16]);
            &made_id
        }
        _ => field.map_or("sample", |f| f.name),
    };

    let min = field
        .and_then(|f| f.min_len)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0);
    let max = field
        .and_then(|f| f.max_len)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(usize::MAX);
    let mut s: String = base.chars().take(max).collect();
    while s.chars().count() < min.min(max) {
        s.push('x');
    }
    s
}

/// Names of a text field that says where a message goes.
pub(super) const ADDRESS_NAMES: &[&str] = &[
    "address",
    "destination",
    "email",
    "msisdn",
    "number",
    "phone",
    "phoneNumber",
    "phone_number",
    "recipient",
    "to",
];

/// Names of the field that holds a message's text, of an object with several text fields.
const MESSAGE_TEXT_NAMES: &[&str] = &["message", "text", "body"];

/// The text field of the object type `ty` that holds `value` when text is given where the
/// object is: the one named as an address (`phone_number`, `email`...), else its only text
/// field, else the one named as a message's text; none for a value that is not text, or an
/// object with no such field.
fn text_home(schema: &ServiceSchema, ty: &Ty, value: &Value) -> Option<&'static str> {
    if !value.is_string() {
        return None;
    }
    let Ty::Named(name) = ty else { return None };
    let ShapeSchema::Object(fields) = schema.named(name)?.shape else {
        return None;
    };
    let texts: Vec<&FieldSchema> = fields.iter().filter(|f| f.ty == Ty::String).collect();
    texts
        .iter()
        .find(|f| ADDRESS_NAMES.contains(&f.name))
        .or(match texts.as_slice() {
            [only] => Some(only),
            _ => None,
        })
        // Else the one named as a message's text (ACS Chat's `content: "hello"` sent, read
        // back as `content: {message, topic, ...}`: the text was lost).
        .or_else(|| texts.iter().find(|f| MESSAGE_TEXT_NAMES.contains(&f.name)))
        .map(|f| f.name)
}

/// The first field of `body` that the item type `ty` answers and whose sent value it cannot
/// hold: a value `fill` would replace with a made-up one (text outside the field's format or
/// lengths, another JSON kind). A write that stores it would acknowledge what no read gives
/// back, so it is refused (Intercom's `email: 123` was answered `"email": "email"`).
pub(crate) fn unheld<'b>(
    schema: &ServiceSchema,
    ty: Option<&Ty>,
    body: &'b Map<String, Value>,
) -> Option<(&'b str, String)> {
    let fields = schema.object_fields(ty?)?;
    fields.iter().find_map(|f| {
        let sent = body.get(f.name).filter(|v| !v.is_null())?;
        let held = match (&f.ty, sent) {
            // An empty text an optional field's format refuses is left out (see `fill`).
            (_, Value::String(text)) if text.is_empty() && !f.required => true,
            // A file part (the multipart decoder's `{"$file": {...}}`) is kept as it came.
            (Ty::String | Ty::Bytes, Value::Object(part)) if part.contains_key("$file") => true,
            (Ty::String | Ty::Bytes, Value::String(text)) => fits_text(&f.ty, Some(f), text),
            // A time in any wire form is written in the field's (see `fill`).
            (Ty::DateTime, time) => times::rewritten(Some(f), time).is_some(),
            // A yes-or-no or a number where the answer has text is its text (see `fill`).
            (Ty::String, Value::Bool(_) | Value::Number(_)) => {
                fits_text(&f.ty, Some(f), &sent.to_string())
            }
            (Ty::Date, Value::String(text)) => tidings_runtime::dates::is_date(text),
            // One value where the answer has a list is the list of it (see `fill`).
            (Ty::List(inner), one) if !one.is_array() => {
                kind_fits(schema, inner, one) || text_home(schema, inner, one).is_some()
            }
            // Text where the answer has an object that holds it.
            (ty @ Ty::Named(_), text @ Value::String(_))
                if text_home(schema, ty, text).is_some() =>
            {
                true
            }
            (ty, value) => kind_fits(schema, ty, value),
        };
        (!held).then(|| {
            let what = match &f.ty {
                Ty::String | Ty::Bytes | Ty::DateTime => f.format.map_or_else(
                    || "text within its limits".to_owned(),
                    |fmt| fmt.describe().to_owned(),
                ),
                ty => format!("a value of type `{ty}`"),
            };
            (
                f.name,
                format!(
                    "`{}` is {sent}, which the item's `{}` ({what}) cannot hold",
                    f.name, f.name
                ),
            )
        })
    })
}

/// Whether `value` is of the JSON kind `ty` takes (an array for a list, an object for an
/// object, ...): the variant of an untagged union it is filled as.
fn kind_fits(schema: &ServiceSchema, ty: &Ty, value: &Value) -> bool {
    match ty {
        Ty::String | Ty::Bytes | Ty::Date => value.is_string(),
        // Text, or Unix seconds.
        Ty::DateTime => value.is_string() || value.is_i64(),
        Ty::Integer => value.is_i64(),
        Ty::Number => value.is_number(),
        Ty::Boolean => value.is_boolean(),
        Ty::Json => true,
        Ty::List(_) | Ty::Page(_) => value.is_array(),
        Ty::Map(_) => value.is_object(),
        Ty::Named(name) => match schema.named(name).map(|t| t.shape) {
            Some(ShapeSchema::Object(_) | ShapeSchema::Union { .. }) => value.is_object(),
            Some(ShapeSchema::Enum(_)) => value.is_string(),
            Some(ShapeSchema::Untagged(variants)) => {
                variants.iter().any(|v| kind_fits(schema, v, value))
            }
            None => true,
        },
    }
}

/// Whether `text` is a value of a text field: its format (an RFC 3339 time for `datetime`) and
/// length limits.
pub(super) fn fits_text(ty: &Ty, field: Option<&FieldSchema>, text: &str) -> bool {
    if *ty == Ty::DateTime {
        return times::fits(field, &Value::String(text.to_owned()));
    }
    let Some(field) = field else { return true };
    let chars = text.chars().count() as u64;
    field
        .format
        .is_none_or(|f| tidings_runtime::validate::matches(f, text))
        && field.min_len.is_none_or(|m| chars >= m)
        && field.max_len.is_none_or(|m| chars <= m)
        && field
            .pattern
            .is_none_or(|p| crate::pattern::matches(p, text))
}

/// Whether an integer field holds an HTTP status (Azure's per-recipient `httpStatusCode`,
/// `status_code`): made up, it is 200, what a success says; 0 is no status, and a client that
/// checks it took every recipient as failed.
fn names_an_http_status(field: Option<&FieldSchema>) -> bool {
    field.is_some_and(|f| {
        matches!(
            plain(f.name).as_str(),
            "httpstatuscode" | "httpstatus" | "statuscode" | "httpcode"
        )
    })
}

/// Sets the fields of an item of `ty` that hold the time of its last change
/// ([`names_the_last_change`]) to now, where the item has them or its type requires them: an
/// update moved nothing (Telnyx's and Knock's `updated_at` kept the create's time).
pub(super) fn stamp_last_change(
    schema: &ServiceSchema,
    ty: Option<&Ty>,
    item: &mut Map<String, Value>,
) {
    let Some(fields) = ty.and_then(|ty| schema.object_fields(ty)) else {
        return;
    };
    for f in fields.iter().filter(|f| names_the_last_change(f)) {
        if f.required || item.contains_key(f.name) {
            // A text field shown with an example time is now too, written as that example
            // (Telnyx's `updated_at`, which went back to the example's 2018).
            let now =
                times::now_as_example(f).unwrap_or_else(|| fill(schema, &f.ty, None, 0, Some(f)));
            item.insert(f.name.to_owned(), now);
        }
    }
    // And its revision moves on (Twilio Sync's `revision`, Studio's flow `revision`).
    for f in fields.iter().filter(|f| plain(f.name) == "revision") {
        let next = match item.get(f.name) {
            Some(Value::Number(n)) => n.as_u64().map(|n| Value::from(n + 1)),
            Some(Value::String(t)) => t
                .parse::<u64>()
                .ok()
                .map(|n| Value::from((n + 1).to_string())),
            _ => None,
        };
        if let Some(next) = next.or_else(|| first_revision(f)) {
            item.insert(f.name.to_owned(), next);
        }
    }
}

/// The revision of a new item, where its type has a field `revision`: `"0"` as text (Twilio
/// Sync's, answered as the word `revision`, its example), 1 as a number (Studio's flow).
fn first_revision(f: &FieldSchema) -> Option<Value> {
    match f.ty {
        Ty::String => Some(Value::from("0")),
        Ty::Integer | Ty::Number => Some(Value::from(1)),
        _ => None,
    }
}

/// What the service sets on a new item of `ty` that its create did not send: the next number
/// of a sequence ([`sequences::next_in_sequence`], against the items `held`), the objects the item names by
/// id ([`objects_named_by_id`]), and its read-only times, numbers and enum values
/// ([`made_by_the_service`]).
pub(super) fn new_item(
    schema: &ServiceSchema,
    ty: Option<&Ty>,
    item: &mut Map<String, Value>,
    (held, given): (&[&Map<String, Value>], sequences::Sequences<'_>),
    sendable: Option<&[&str]>,
) {
    sequences::next_in_sequence(schema, ty, item, held, given);
    objects_named_by_id(schema, ty, item);
    for f in ty
        .and_then(|ty| schema.object_fields(ty))
        .unwrap_or_default()
        .iter()
        .filter(|f| plain(f.name) == "revision")
    {
        if let (false, Some(first)) = (item.contains_key(f.name), first_revision(f)) {
            item.insert(f.name.to_owned(), first);
        }
    }
    made_by_the_service(schema, ty, item, sendable);
}

/// Sets each text field of the types `tys` named as an item's link to itself (`href`, `uri`,
/// `self`) that a new `item` lacks to the path of a read of it: `template` with the call's
/// `path` values and `param` the item's `id` (Textmagic's `href`, Twilio's `uri`). A field
/// of the `uri` format, an absolute URL, is left to the answer, which writes where the item
/// lives in place of the made-up link: one the create cannot send (Twilio's `url`, "an
/// absolute API resource URL for this conversation", never there) is that link now.
pub(super) fn self_link(
    schema: &ServiceSchema,
    tys: [Option<&Ty>; 2],
    item: &mut Map<String, Value>,
    (template, param): (&str, &'static str),
    (path, sendable): (&[(&'static str, String)], Option<&[&str]>),
    id: &str,
) {
    const LINKS: &[&str] = &["href", "uri", "self", "selflink", "selfuri"];
    for f in tys
        .into_iter()
        .filter_map(|ty| schema.object_fields(ty?))
        .flatten()
    {
        let service_sets = sendable.is_some_and(|s| !s.contains(&plain(f.name).as_str()));
        if f.ty == Ty::String
            && f.format == Some(Format::Uri)
            && (LINKS.contains(&plain(f.name).as_str()) || f.name == "url")
            && service_sets
            && !item.contains_key(f.name)
        {
            item.insert(f.name.to_owned(), Value::String(MADE_UP_LINK.to_owned()));
            continue;
        }
        if f.ty == Ty::String
            && f.format != Some(Format::Uri)
            && LINKS.contains(&plain(f.name).as_str())
            && !item.contains_key(f.name)
        {
            let mut path = path.to_vec();
            path.retain(|(name, _)| *name != param);
            path.push((param, id.to_owned()));
            let link = super::call::substitute(template, &path);
            item.insert(f.name.to_owned(), Value::String(link));
        }
    }
}

/// The link made up for a field of format `uri` (the answer puts where the item lives there).
const MADE_UP_LINK: &str = "https://example.com/";

/// Sets each text field of `ty` that names the item's own id (`id`, `uuid`, `sid`, or the
/// collection's thing and `id`: `conversation_id` of `/conversations`) and that `item` lacks
/// to the id the item has in `op`'s id field: Vonage's conversation is created as `id` and
/// read as `uuid`, the same value in the document; the read made up another.
pub(super) fn id_again(
    schema: &ServiceSchema,
    ty: Option<&Ty>,
    op: &super::ResourceOp,
    item: &mut Map<String, Value>,
) {
    let (Some(fields), Some(id)) = (
        ty.and_then(|ty| schema.object_fields(ty)),
        item.get(op.id_field).filter(|v| v.is_string()).cloned(),
    ) else {
        return;
    };
    let thing = super::names::collection_thing(op.collection).unwrap_or_default();
    let own = |name: &str| {
        let name = plain(name);
        ["id", "uuid", "sid", "guid"].contains(&name.as_str())
            || (!thing.is_empty() && [format!("{thing}id"), format!("{thing}uuid")].contains(&name))
    };
    let text = id.as_str().unwrap_or_default();
    for f in fields.iter().filter(|f| f.ty == Ty::String && own(f.name)) {
        // Only where it fits the field (a `uuid` of that format takes no `res_` id).
        if fits_text(&f.ty, Some(f), text) {
            item.entry(f.name.to_owned()).or_insert_with(|| id.clone());
        }
    }
}

/// Each read-only field of a new item of `ty` the create left out that the service sets
/// itself: a time (now), a number (its least) or one of an enum's values (its first: the one
/// a kind field holds, a status's first state). Telnyx's messages and messaging profiles,
/// whose fields are all optional, answered none of `record_type`, `direction`, `parts`,
/// `created_at` and `updated_at`. Text stays out unless the document shows an example of it,
/// lists and objects do: made up, they would say something the service never set.
fn made_by_the_service(
    schema: &ServiceSchema,
    ty: Option<&Ty>,
    item: &mut Map<String, Value>,
    sendable: Option<&[&str]>,
) {
    let Some(fields) = ty.and_then(|ty| schema.object_fields(ty)) else {
        return;
    };
    // What the create's body cannot send (Vonage's call `status`, Mailtrap's template `uuid`).
    let unsendable =
        |f: &FieldSchema| sendable.is_some_and(|s| !s.contains(&plain(f.name).as_str()));
    // Read-only fields, and the times a name says the service stamps (Intercom's
    // `created_at`, `updated_at`, Unix seconds, not marked read-only).
    let set = |f: &FieldSchema| f.read_only || names_a_stamp(f);
    for f in fields.iter().filter(|f| set(f) || unsendable(f)) {
        let made = match f.ty {
            // Not a time or a number only the body cannot send: a new domain's `verified_at`
            // or a new list's `members_count` is not now, nor 0 whatever it holds.
            Ty::DateTime | Ty::Date | Ty::Integer | Ty::Number => set(f),
            // Text the document shows an example of (Intercom's `type: "contact"`), and, where
            // the body cannot send it, text of a format or pattern the service's own values
            // have (a `uuid`, Twilio's `^AC[0-9a-fA-F]{32}$` account).
            Ty::String => {
                (f.example.is_some()
                    && !tidings_spec::id_like(f.name)
                    && (set(f) || !names_a_time(f.name)))
                    || names_a_stamp(f)
                    || (unsendable(f) && (f.format == Some(Format::Uuid) || f.pattern.is_some()))
            }
            Ty::Named(name) => schema
                .named(name)
                .is_some_and(|t| matches!(t.shape, ShapeSchema::Enum(_))),
            _ => false,
        };
        if made && !f.nullable && !item.contains_key(f.name) {
            // A stamp as text, the example a time (Vonage's `created_at`): now, not that day.
            let value = times::now_as_example(f)
                .filter(|_| names_a_stamp(f))
                .unwrap_or_else(|| fill(schema, &f.ty, None, 1, Some(f)));
            item.insert(f.name.to_owned(), value);
        }
    }
}

/// The outbound value of a `direction` enum field (`OUT`, `outbound`, Twilio's
/// `outbound-api`): a direction made up is the way of what the client sent (Zenvia's sent
/// messages were all `IN`, the enum's first value).
fn outbound(schema: &ServiceSchema, field: &FieldSchema) -> Option<Value> {
    let Ty::Named(name) = field.ty else {
        return None;
    };
    let ShapeSchema::Enum(values) = schema.named(name)?.shape else {
        return None;
    };
    if plain(field.name) != "direction" {
        return None;
    }
    let out = values
        .iter()
        .find(|v| v.to_ascii_lowercase().starts_with("out"))?;
    Some(Value::String((*out).to_owned()))
}

/// Sets each object field `X` of a new item of `ty` whose type has an `id` to `{"id": ...}`
/// when the create sent `X_id` (or `XId`) and no `X`: Stream's message sent with `user_id`
/// answers its sender `user` (a made-up user of another id every time).
fn objects_named_by_id(schema: &ServiceSchema, ty: Option<&Ty>, item: &mut Map<String, Value>) {
    let Some(fields) = ty.and_then(|ty| schema.object_fields(ty)) else {
        return;
    };
    for f in fields {
        let has_id = schema
            .object_fields(&f.ty)
            .is_some_and(|inner| inner.iter().any(|i| i.name == "id" && i.ty == Ty::String));
        if !has_id || item.contains_key(f.name) {
            continue;
        }
        let wanted = format!("{}id", plain(f.name));
        let sent = item
            .iter()
            .find(|(k, v)| plain(k) == wanted && v.is_string())
            .map(|(_, v)| v.clone());
        if let Some(id) = sent {
            item.insert(f.name.to_owned(), serde_json::json!({ "id": id }));
        }
    }
}
