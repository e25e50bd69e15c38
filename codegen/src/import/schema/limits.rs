//! What limits a field's value, read from its schema: lengths, counts, bounds, formats and
//! patterns.

use serde_json::Value;

use super::super::{Converter, FieldOut};

/// The spec's string format of an OpenAPI `format`, if it has one (`e.164`, as Sinch writes
/// it, is `e164`).
/// The spec format of a Unix time a number's `format` names: `unix` for seconds (`unix-time`,
/// `timestamp`), `unix_ms` for milliseconds (Mailtrap's `timestampMillis`); such a field is a
/// `datetime` (a client reading milliseconds as seconds was off by a factor of 1,000).
pub(super) fn unix_time_format(format: &str) -> Option<&'static str> {
    let plain: String = format
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect();
    match plain.as_str() {
        "unixtime" | "unixtimestamp" | "timestamp" | "epoch" | "epochseconds" | "unixseconds" => {
            Some("unix")
        }
        "timestampmillis" | "timestampms" | "unixms" | "unixmillis" | "unixtimems"
        | "unixtimemillis" | "epochmillis" | "epochms" | "unixtimestampms" => Some("unix_ms"),
        _ => None,
    }
}

/// A parameter's type read off its schema `s`: a Unix time stays the number it is sent as (a
/// parameter has no wire format to carry).
pub(crate) fn param_ty(ty: String, s: &Value) -> String {
    match ty.as_str() {
        "datetime" if is_unix_time(s) => "integer".to_owned(),
        _ => ty,
    }
}

/// Whether the number schema `s` is a Unix time ([`unix_time_of`]).
pub(super) fn is_unix_time(s: &Value) -> bool {
    unix_time_of(s).is_some()
}

/// The spec format of the Unix time a number schema `s` holds: the one its `format` names
/// ([`unix_time_format`]), else the one its description says, a number of seconds or
/// milliseconds "since the epoch" (Ably's message `timestamp`, `int64`: "milliseconds since
/// the epoch", read as a count).
pub(super) fn unix_time_of(s: &Value) -> Option<&'static str> {
    if !matches!(
        s.get("type").and_then(Value::as_str),
        Some("integer" | "number")
    ) {
        return None;
    }
    if let Some(unix) = s
        .get("format")
        .and_then(Value::as_str)
        .and_then(unix_time_format)
    {
        return Some(unix);
    }
    let said = s.get("description")?.as_str()?.to_ascii_lowercase();
    let epoch = [
        "since the epoch",
        "since epoch",
        "since the unix epoch",
        "unix timestamp",
    ]
    .iter()
    .any(|p| said.contains(p));
    let millis = said.contains("millisecond") || said.contains("ms since");
    epoch.then_some(if millis { "unix_ms" } else { "unix" })
}

fn spec_format(format: &str) -> Option<&'static str> {
    match format.to_ascii_lowercase().as_str() {
        "email" | "idn-email" => Some("email"),
        "uri" | "url" | "iri" => Some("uri"),
        "uuid" => Some("uuid"),
        "e164" | "e.164" | "phone-e164" => Some("e164"),
        _ => None,
    }
}

/// Why a `format: uuid` cannot be what the field holds, if it cannot: its lengths leave no
/// room for a UUID's 36 characters, or its own example is no UUID (Intercom's `from.id`:
/// `format: uuid`, 24 characters, example `536e564f316c83104c000020`; no value passed).
fn not_a_uuid(s: &Value, min_len: Option<u64>, max_len: Option<u64>) -> Option<String> {
    const UUID_LEN: u64 = 36;
    if min_len.is_some_and(|n| n > UUID_LEN) || max_len.is_some_and(|n| n < UUID_LEN) {
        let lo = min_len.map_or(String::new(), |n| n.to_string());
        let hi = max_len.map_or(String::new(), |n| n.to_string());
        return Some(format!(
            "its lengths ({lo}..{hi}) leave no room for a UUID's {UUID_LEN} characters; the lengths are kept"
        ));
    }
    let example = s.get("example").and_then(Value::as_str)?;
    let uuid = example.len() == 36
        && example.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_hexdigit(),
        });
    (!uuid).then(|| format!("its own example `{example}` is no UUID"))
}

/// Reports a parameter's text format that its type does not carry (Sinch's `format:
/// ISO-8601` dates, an `email`): the parameter is sent and served as plain text.
pub(crate) fn param_format(conv: &mut Converter<'_>, s: &Value, ty: &str, at: &str) {
    let Some(format) = s.get("format").and_then(Value::as_str) else {
        return;
    };
    let carried = matches!(ty, "datetime" | "date" | "bytes" | "integer" | "number")
        || matches!(
            format,
            "binary" | "byte" | "password" | "date-time" | "date"
        );
    if !carried {
        conv.approximate(
            at,
            &format!("format `{format}` of a parameter not kept: sent and served as plain text"),
        );
    }
}

/// A reference to a plain scalar schema (Sinch's `msisdn: {type: string, format: e.164}`)
/// read as that schema, the reference's own keys over it, so that the format, bounds and docs
/// of the schema apply to each field that names it; `None` for anything else.
pub(crate) fn scalar_target(doc: &Value, s: &Value) -> Option<Value> {
    let mut target = s;
    for _ in 0..8 {
        let Some(reference) = target.get("$ref").and_then(Value::as_str) else {
            break;
        };
        target = super::super::document::resolve(doc, reference)?;
    }
    // `type: string`, or (OpenAPI 3.1) one scalar type or null: Telnyx's
    // `WebhookTimeoutSecs: {type: [integer, "null"], maximum: 30}` keeps its bounds.
    let is_scalar = |t: &str| matches!(t, "string" | "integer" | "number" | "boolean");
    let typed = match target.get("type") {
        Some(Value::String(t)) => is_scalar(t),
        Some(Value::Array(types)) => {
            let mut named = types
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null");
            named.next().is_some_and(is_scalar) && named.next().is_none()
        }
        _ => false,
    };
    let scalar = typed && target.get("enum").is_none() && target.get("$ref").is_none();
    if !scalar || std::ptr::eq(target, s) {
        return None;
    }
    let mut merged = target.as_object()?.clone();
    for (k, v) in s.as_object()? {
        if k != "$ref" {
            merged.insert(k.clone(), v.clone());
        }
    }
    Some(Value::Object(merged))
}

/// Lengths, counts, bounds and formats that apply to the field's type.
pub(super) fn constraints(f: &mut FieldOut, s: &Value, ptr: &str, conv: &mut Converter<'_>) {
    let ty = f.ty.as_str();
    let stringish =
        matches!(ty, "string" | "datetime") || ty == "list<string>" || ty == "map<string>";
    let u = |k: &str, from: &Value| from.get(k).and_then(Value::as_u64);
    let inner = s
        .get("items")
        .or_else(|| s.get("additionalProperties"))
        .filter(|i| i.is_object());
    let inner_target = inner.and_then(|i| scalar_target(conv.doc, i));
    let inner = inner_target.as_ref().or(inner);
    let string_schema = if matches!(ty, "string" | "datetime") {
        Some(s)
    } else {
        inner
    };
    if stringish && let Some(ss) = string_schema {
        f.max_len = u("maxLength", ss);
        f.min_len = u("minLength", ss);
        if let (Some(lo), Some(hi)) = (f.min_len, f.max_len)
            && lo > hi
        {
            f.min_len = None;
            f.max_len = None;
        }
        f.pattern = pattern(ss, ptr, conv);
        // Our exports say the spec's own format in `x-format`.
        let own = ss
            .get("x-format")
            .and_then(Value::as_str)
            .and_then(spec_format_word);
        if let Some(sf) = own {
            f.format = Some(sf);
        } else if ty == "datetime"
            && let Some(unix) = unix_time_of(ss)
        {
            f.format = Some(unix);
            if ss
                .get("format")
                .and_then(Value::as_str)
                .and_then(unix_time_format)
                .is_none()
            {
                conv.inferred(
                    ptr,
                    &format!("a Unix time (`{unix}`): its description says so"),
                );
            }
        } else if let Some(fmt) = ss.get("format").and_then(Value::as_str) {
            match spec_format(fmt) {
                Some("uuid") if let Some(why) = not_a_uuid(ss, f.min_len, f.max_len) => {
                    conv.approximate(ptr, &format!("format `uuid` not kept: {why}"));
                }
                Some(sf) => f.format = Some(sf),
                None if fmt == "date-time" => {}
                None if fmt == "date-time-rfc-2822" && ty == "datetime" => {
                    f.format = Some("rfc2822");
                }
                None => conv.approximate(
                    ptr,
                    &format!(
                        "format `{fmt}` kept as plain text (needs spec construct: format {fmt})"
                    ),
                ),
            }
        }
    }
    if ty.starts_with("list<") {
        f.max_items = u("maxItems", s);
        f.min_items = u("minItems", s);
        if s.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
            conv.approximate(
                ptr,
                "`uniqueItems`: the list is not checked for repeated items (needs spec construct: unique items)",
            );
        }
    } else if ty.starts_with("map<") {
        f.max_items = u("maxProperties", s);
        f.min_items = u("minProperties", s);
    }
    if let (Some(lo), Some(hi)) = (f.min_items, f.max_items)
        && lo > hi
    {
        f.min_items = None;
        f.max_items = None;
    }
    if matches!(ty, "integer" | "number") {
        f.min = s
            .get("minimum")
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite());
        f.max = s
            .get("maximum")
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite());
        if let (Some(lo), Some(hi)) = (f.min, f.max)
            && lo > hi
        {
            f.min = None;
            f.max = None;
        }
    }
}

/// A schema's `default` when it is a value of the field's type `ty` (a string of a text or of
/// an enum's values, a number, a boolean); others are left to the field's docs.
pub(crate) fn default_of(
    s: &Value,
    ty: &str,
    conv: &mut Converter<'_>,
    ptr: &str,
) -> Option<Value> {
    // On the field, or on the schema it names (Bandwidth's `callbackMethodEnum`: `POST`).
    let value = s.get("default").or_else(|| {
        let target = super::super::document::resolve(conv.doc, s.get("$ref")?.as_str()?)?;
        target.get("default")
    })?;
    // A number written as text (Ably's `limit`: `default: "100"`) is that number.
    let parsed = match (ty, value) {
        ("integer", Value::String(text)) => text.trim().parse::<i64>().ok().map(Value::from),
        ("number", Value::String(text)) => text
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number),
        ("boolean", Value::String(text)) => text.trim().parse::<bool>().ok().map(Value::Bool),
        _ => None,
    };
    if let Some(parsed) = parsed {
        return Some(parsed);
    }
    let fits = match (ty, value) {
        ("string" | "datetime" | "date", Value::String(_)) => true,
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
        ("number", Value::Number(_)) | ("boolean", Value::Bool(_)) => true,
        (name, Value::String(text)) => matches!(
            conv.types.get(name),
            Some(super::super::TypeOut::Enum { values, .. }) if values.contains(text)
        ),
        _ => false,
    };
    if !fits {
        conv.approximate(
            ptr,
            &format!("default `{value}` is not a value of the type `{ty}`: left out"),
        );
    }
    fits.then(|| value.clone())
}

/// A schema's `pattern`, when the sandbox can check it; one it cannot (look-around,
/// back-references) is reported as approximated, not kept.
pub(crate) fn pattern(s: &Value, ptr: &str, conv: &mut Converter<'_>) -> Option<String> {
    let pattern = s.get("pattern")?.as_str()?;
    // A constant's name left unexpanded (Novu's `SLUG_IDENTIFIER_REGEX`): upper-case words with
    // no pattern syntax, that no example of the field matches. Kept, it refused every real
    // value.
    let constant_name = pattern.len() >= 4
        && pattern.contains('_')
        && pattern
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if constant_name {
        conv.approximate(
            ptr,
            &format!(
                "pattern `{pattern}` not kept: it names a constant the document left unexpanded, \
                 not a pattern of the values"
            ),
        );
        return None;
    }
    match tidings_spec::pattern::compile(pattern) {
        Ok(_) => Some(pattern.to_owned()),
        Err(e) => {
            let why = e.lines().last().unwrap_or_default().trim();
            conv.approximate(
                ptr,
                &format!("pattern `{pattern}` not kept: the sandbox cannot check it ({why})"),
            );
            None
        }
    }
}

fn spec_format_word(word: &str) -> Option<&'static str> {
    match word {
        "email" => Some("email"),
        "e164" => Some("e164"),
        "rfc3339" => Some("rfc3339"),
        "uri" => Some("uri"),
        "uuid" => Some("uuid"),
        _ => None,
    }
}

/// Whether `text` reads as an RFC 3339 date and time: `2024-05-01T10:00:00`, a fraction or
/// not, then `Z` or an offset (`T` may be a space, as RFC 3339 allows).
pub(crate) fn rfc3339_like(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        b.get(range)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let fixed = b.len() >= 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && matches!(b[10], b'T' | b't' | b' ')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19);
    if !fixed {
        return false;
    }
    let mut rest = &text[19..];
    if let Some(fraction) = rest.strip_prefix('.') {
        let n = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &fraction[n..];
    }
    match rest.as_bytes() {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => [h1, h2, m1, m2].iter().all(|d| d.is_ascii_digit()),
        _ => false,
    }
}

/// The number a description says a value defaults to: "The default is 50", "Defaults to 20",
/// "default: 10" (the first such phrase with a whole number after it; `None` without one).
pub(crate) fn default_in_words(doc: &str) -> Option<u64> {
    let lower = doc.to_ascii_lowercase();
    [
        "default is ",
        "defaults to ",
        "default: ",
        "default value is ",
    ]
    .iter()
    .find_map(|phrase| {
        let rest = &lower[lower.find(phrase)? + phrase.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let after = &rest[digits.len()..];
        // "1.5" is no whole number.
        let fraction =
            after.starts_with('.') && after[1..].starts_with(|c: char| c.is_ascii_digit());
        if digits.is_empty() || fraction {
            return None;
        }
        digits.parse().ok()
    })
}

/// The example a text field's schema shows (`example`, or the first of `examples`): short,
/// one line, so it can stand for a value the sandbox makes up (Intercom's `type: "contact"`,
/// Zulip's `msg: ""`).
pub(crate) fn text_example(s: &Value, ty: &str) -> Option<String> {
    if ty != "string" {
        return None;
    }
    let example = s
        .get("example")
        .or_else(|| s.get("examples").and_then(Value::as_array)?.first())?
        .as_str()?;
    (example.len() <= 200 && !example.contains('\n')).then(|| example.to_owned())
}

/// The first value the description of a state field (`status`, `state`) with no example lists
/// in backquotes after "can be" (or "one of", "possible values"): the state a new item is in
/// (Twilio's verification `status`, "Can be: `pending`, `approved`, `canceled`…": a started
/// verification had none, where every client reads `pending` right after the start).
pub(crate) fn first_listed_state(s: &Value, wire: &str, ty: &str) -> Option<String> {
    if ty != "string" || !matches!(wire.to_ascii_lowercase().as_str(), "status" | "state") {
        return None;
    }
    let text = s.get("description").and_then(Value::as_str)?;
    let lower = text.to_ascii_lowercase();
    let start = ["can be", "one of", "possible values"]
        .iter()
        .find_map(|lead| lower.find(lead).map(|i| i + lead.len()))?;
    let first = text[start..].split('`').nth(1)?;
    let word = !first.is_empty()
        && first.len() <= 32
        && first
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
    word.then(|| first.to_owned())
}

#[cfg(test)]
mod tests {
    use super::default_in_words;

    #[test]
    fn a_state_fields_first_listed_value_is_its_example() {
        let status = serde_json::json!({"type": "string", "description":
            "The status of the verification. Can be: `pending`, `approved`, `canceled`."});
        assert_eq!(
            super::first_listed_state(&status, "status", "string").as_deref(),
            Some("pending")
        );
        assert_eq!(
            super::first_listed_state(&status, "channel", "string"),
            None
        );
        let prose = serde_json::json!({"type": "string", "description": "Can be anything."});
        assert_eq!(super::first_listed_state(&prose, "status", "string"), None);
    }

    #[test]
    fn a_default_said_in_words_is_its_whole_number() {
        let twilio = "How many resources to return in each list page. The default is 50, and the maximum is 100.";
        assert_eq!(default_in_words(twilio), Some(50));
        assert_eq!(default_in_words("Page size. Defaults to 20."), Some(20));
        assert_eq!(default_in_words("Ratio; the default is 1.5"), None);
        assert_eq!(default_in_words("The default is the account's own."), None);
        assert_eq!(default_in_words("How many to return."), None);
    }
}
