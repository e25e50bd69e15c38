//! Times in items: a `datetime`'s wire form (its `format`: RFC 3339 text by default, RFC 2822
//! text, or Unix seconds or milliseconds as a JSON integer), and which fields a name or a type
//! says hold a time the service sets.
//!
//! A time is kept and answered in its field's wire form whatever form it came in (a request's
//! RFC 3339 `send_at` where the answer writes Twilio's RFC 2822), and made up as now in it: a
//! client decodes a field in one form only.

use serde_json::Value;
use tidings_runtime::dates;

use super::names::{names_a_time, words_of};
use super::{FieldSchema, Format, Ty, now_rfc3339};

/// The wire form of a time field: its format when that is a time's.
fn form(field: Option<&FieldSchema>) -> Option<Format> {
    field
        .and_then(|f| f.format)
        .filter(|f| f.is_datetime_encoding())
}

/// Whether `value` is a time in the wire form of `field` (RFC 3339 text for none).
pub(crate) fn fits(field: Option<&FieldSchema>, value: &Value) -> bool {
    match form(field) {
        Some(Format::Rfc2822) => value
            .as_str()
            .is_some_and(|t| dates::rfc2822_to_rfc3339(t).is_some()),
        Some(Format::Unix) => value
            .as_i64()
            .is_some_and(|s| dates::unix_to_rfc3339(s).is_some()),
        Some(Format::UnixMs) => value
            .as_i64()
            .is_some_and(|ms| dates::unix_ms_to_rfc3339(ms).is_some()),
        _ => value
            .as_str()
            .is_some_and(|t| dates::rfc3339_to_unix(t).is_some()),
    }
}

/// `value`, a time in any wire form (RFC 3339 or RFC 2822 text, Unix seconds or, for a
/// `unix_ms` field, milliseconds), written in the wire form of `field`; `None` when it is no
/// time.
pub(super) fn rewritten(field: Option<&FieldSchema>, value: &Value) -> Option<Value> {
    let form = form(field);
    let rfc3339 = match value {
        Value::String(t) if dates::rfc3339_to_unix(t).is_some() => t.clone(),
        Value::String(t) => dates::rfc2822_to_rfc3339(t)?,
        Value::Number(n) if form == Some(Format::UnixMs) => dates::unix_ms_to_rfc3339(n.as_i64()?)?,
        Value::Number(n) => dates::unix_to_rfc3339(n.as_i64()?)?,
        _ => return None,
    };
    written(form, &rfc3339)
}

/// Now, in the wire form of `field`.
pub(super) fn now(field: Option<&FieldSchema>) -> Value {
    let now = now_rfc3339();
    written(form(field), &now).unwrap_or(Value::String(now))
}

fn written(form: Option<Format>, rfc3339: &str) -> Option<Value> {
    match form {
        Some(Format::Rfc2822) => dates::rfc3339_to_rfc2822(rfc3339).map(Value::String),
        Some(Format::Unix) => dates::rfc3339_to_unix(rfc3339).map(Value::from),
        Some(Format::UnixMs) => dates::rfc3339_to_unix_ms(rfc3339).map(Value::from),
        _ => Some(Value::String(rfc3339.to_owned())),
    }
}

/// Now, for a text field the document shows an example time in (Vonage's subaccount
/// `created_at: "2018-03-02T16:34:49Z"`, with no format): written as the example is (RFC 3339
/// or RFC 2822); `None` for a field of another type, or whose example is no such time.
pub(super) fn now_as_example(field: &FieldSchema) -> Option<Value> {
    let example = field
        .example
        .filter(|_| field.ty == Ty::String)?
        .trim_matches('"');
    let now = now_rfc3339();
    if dates::rfc3339_to_unix(example).is_some() {
        Some(Value::String(now))
    } else {
        dates::rfc2822_to_rfc3339(example)?;
        dates::rfc3339_to_rfc2822(&now).map(Value::String)
    }
}

/// Milliseconds since the Unix epoch.
pub(super) fn now_ms() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}

/// A number field's made-up time, now: in milliseconds for `unix_ms`, else in seconds, for a
/// field whose format is a time (Stream's `created_at`: `number`, `date-time`) or whose name
/// says it holds one (`created_at`, `timestamp`); none for another field.
pub(super) fn made_up_time(field: Option<&FieldSchema>) -> Option<u64> {
    let field = field?;
    let ms = u64::try_from(now_ms()).unwrap_or(u64::MAX);
    match field.format {
        Some(Format::UnixMs) => Some(ms),
        Some(Format::Unix | Format::Rfc3339 | Format::Rfc2822) => Some(ms / 1000),
        _ => {
            // Not a bare `time` word: a number named `wait_time` is a duration.
            let words = words_of(field.name);
            (words.last().is_some_and(|w| w == "at") || words.iter().any(|w| w == "timestamp"))
                .then_some(ms / 1000)
        }
    }
}

/// Whether the field's name says it holds the time of the last change (`updated_at`,
/// `updatedAt`, Twilio's `date_updated`, `modified_at`, `last_modified`): made again on every
/// change of the item.
pub(super) fn names_the_last_change(field: &FieldSchema) -> bool {
    let timed = matches!(field.ty, Ty::DateTime)
        || matches!(
            field.format,
            Some(Format::Rfc3339 | Format::Rfc2822 | Format::Unix | Format::UnixMs)
        )
        || names_a_time(field.name);
    timed
        && words_of(field.name)
            .iter()
            .any(|w| matches!(w.as_str(), "updated" | "modified" | "changed" | "edited"))
}

/// Whether a field's name and type say it is the time an item was made or last changed
/// (`created_at`, `updatedAt`, `date_created`).
pub(super) fn names_a_stamp(field: &FieldSchema) -> bool {
    let timed = matches!(
        field.ty,
        Ty::DateTime | Ty::Integer | Ty::Number | Ty::String
    ) && names_a_time(field.name);
    timed
        && words_of(field.name)
            .iter()
            .any(|w| matches!(w.as_str(), "created" | "updated" | "modified"))
}
