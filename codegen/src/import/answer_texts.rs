//! Text fields' examples read off the document's success answers: a text property of an
//! answer's schema with no example of its own takes the one-line text the answer's example
//! shows there (Mailgun's send `message`, "Queued. Thank you.", which the sandbox answered as
//! `"message"`, its own name, where it makes the field up).
//!
//! Only text with nothing of its own to show: no `example`, `examples`, `enum`, `const` or
//! `default`, no time or date format (the sandbox makes those now), and not what is each
//! item's own (an id, a secret, a link: one shown would be every item's, and a link the real
//! service's). A property its examples show with different texts (one shared answer type
//! saying "stored" on an update, "deleted" on a delete) takes none. The document's schemas are
//! changed in place before the walk, so the field's `example` is what the import keeps.

use serde_json::Value;

use super::document::{escape, resolve};
use super::example_types::{examples_of, success_media};

/// Deepest schema and example nesting followed.
const MAX_DEPTH: usize = 16;

/// Longest text taken as an example, in bytes (what a one-line example is kept up to).
const MAX_TEXT: usize = 200;

/// Lends each text property of a success answer's schema the text its examples show, where it
/// has none. Returns how many properties took one.
pub(crate) fn lend(doc: &mut Value) -> usize {
    // Read first (schemas and examples may be `$ref`s into the document), written after.
    let mut lent: Vec<(String, String)> = Vec::new();
    for (at, m) in success_media(doc) {
        let Some(schema) = m.get("schema") else {
            continue;
        };
        let at = format!("{at}/schema");
        for example in examples_of(doc, m) {
            walk(doc, schema, Some(at.clone()), &example, 0, &mut lent);
        }
    }
    // A property whose examples disagree (Mailgun's shared `message`: "template has been
    // stored" on an update's, "... deleted" on a delete's) says nothing of any one answer.
    let agreed: Vec<(String, String)> = lent
        .iter()
        .filter(|(at, text)| lent.iter().all(|(a, t)| a != at || t == text))
        .cloned()
        .collect();
    let mut count = 0;
    for (pointer, text) in agreed {
        if let Some(Value::Object(schema)) = doc.pointer_mut(&pointer)
            && !schema.contains_key("example")
        {
            schema.insert("example".into(), Value::String(text));
            count += 1;
        }
    }
    count
}

/// A schema with its `$ref`s followed, and the pointer of the last one followed (where a
/// property's schema lives when it is not written in place).
fn deref<'d>(doc: &'d Value, mut node: &'d Value) -> (&'d Value, Option<String>) {
    let mut at = None;
    for _ in 0..MAX_DEPTH {
        let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let Some(target) = resolve(doc, reference) else {
            break;
        };
        at = reference.strip_prefix('#').map(str::to_owned);
        node = target;
    }
    (node, at)
}

/// Notes, for each text property of `schema` (whose pointer is `at`, when known) that
/// `example` shows, the pointer of its schema and the text.
fn walk(
    doc: &Value,
    schema: &Value,
    at: Option<String>,
    example: &Value,
    depth: usize,
    lent: &mut Vec<(String, String)>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let (schema, referenced) = deref(doc, schema);
    let at = referenced.or(at);
    for member in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        walk(doc, member, None, example, depth + 1, lent);
    }
    match example {
        Value::Object(shown) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            for (name, property) in properties.into_iter().flatten() {
                let Some(value) = shown.get(name) else {
                    continue;
                };
                let place = at
                    .as_ref()
                    .map(|a| format!("{a}/properties/{}", escape(name)));
                let (target, referenced) = deref(doc, property);
                let place = referenced.or(place);
                match value {
                    Value::String(text) if takes(target, name, text) => {
                        if let Some(place) = place {
                            lent.push((place, text.clone()));
                        }
                    }
                    Value::Object(_) | Value::Array(_) => {
                        walk(doc, property, place, value, depth + 1, lent);
                    }
                    _ => {}
                }
            }
        }
        Value::Array(items) => {
            if let (Some(first), Some(inner)) = (items.first(), schema.get("items")) {
                let place = at.map(|a| format!("{a}/items"));
                walk(doc, inner, place, first, depth + 1, lent);
            }
        }
        _ => {}
    }
}

/// Whether a property's name says each value is its own: an id (`id`, `account_sid`,
/// `messageId`), a secret or a key, a link (`url`, `uri`, `href`, a page's `next` and `self`),
/// a time.
fn own_each_time(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    tidings_spec::id_like(name)
        || lower.ends_with("sid")
        || ["secret", "token", "password", "key", "url", "uri", "href", "link"]
            .iter()
            .any(|w| lower.contains(w))
        || matches!(lower.as_str(), "next" | "self" | "prev" | "previous" | "first" | "last")
        // A time (Mailgun's `created_at` text): the sandbox makes it now.
        || lower.ends_with("_at")
        || name.ends_with("At")
        || lower.contains("date")
        || lower.contains("time")
}

/// Whether the text property `name` of schema `s` takes `text` as its example.
fn takes(s: &Value, name: &str, text: &str) -> bool {
    let own = ["example", "examples", "enum", "const", "default"]
        .iter()
        .any(|k| s.get(*k).is_some());
    let timed = matches!(
        s.get("format").and_then(Value::as_str),
        Some("date-time" | "date" | "date-time-rfc-2822" | "time")
    );
    s.get("type").and_then(Value::as_str) == Some("string")
        && !own
        && !timed
        && !own_each_time(name)
        && !text.starts_with("http")
        && !text.starts_with('/')
        && !text.is_empty()
        && text.len() <= MAX_TEXT
        && !text.contains('\n')
        && !looks_like_an_id(text)
}

/// Whether `text` reads as an identifier or a token, whatever its field's name: 20 letters
/// and digits or more (Twilio's message `to`, "the SID of the Channel":
/// `CHaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa`, shown as every message's channel), or as many with
/// `-` and a digit (a UUID). Words joined by `_` or `-` are a name
/// (`voicebase_high_accuracy_transcription`, `sms-inbound-shortcode`).
fn looks_like_an_id(text: &str) -> bool {
    let joined = text.contains('-');
    text.len() >= 20
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && (!joined || text.chars().any(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn ids_and_tokens_are_nobody_s_example_and_names_are() {
        for id in [
            "CHaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
        ] {
            assert!(super::looks_like_an_id(id), "{id}");
        }
        for name in [
            "sms-inbound-shortcode",
            "voicebase_high_accuracy_transcription",
            "Queued. Thank you.",
            "+15017122661",
        ] {
            assert!(!super::looks_like_an_id(name), "{name}");
        }
    }

    #[test]
    fn a_text_property_takes_what_its_answer_s_example_shows_there() {
        let mut doc = json!({
            "paths": {"/messages": {"post": {"responses": {"200": {"content": {
                "application/json": {
                    "schema": {"$ref": "#/components/schemas/Sent"},
                    "examples": {"one": {"value": {
                        "id": "<20111114174239.25659.5817@samples.mailgun.org>",
                        "message": "Queued. Thank you.",
                        "state": "active",
                        "created": "Tue, 09 Aug 2011 20:50:27 -0000",
                        "note": "line one\nline two",
                        "detail": {"reason": "accepted"},
                        "items": [{"kind": "sms"}]
                    }}}
                }}}}}}},
            "components": {"schemas": {
                "Sent": {"type": "object", "properties": {
                    "id": {"type": "string"},
                    "message": {"type": "string"},
                    "state": {"type": "string", "enum": ["active", "disabled"]},
                    "created": {"type": "string", "format": "date-time"},
                    "note": {"type": "string"},
                    "detail": {"type": "object", "properties": {"reason": {"type": "string"}}},
                    "items": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}
                }},
                "Item": {"type": "object", "properties": {"kind": {"type": "string"}}}
            }}
        });
        let mut shown = doc.clone();
        assert_eq!(super::lend(&mut shown), 3);
        let sent = &shown["components"]["schemas"]["Sent"]["properties"];
        assert_eq!(sent["message"]["example"], "Queued. Thank you.");
        assert_eq!(
            sent["detail"]["properties"]["reason"]["example"],
            "accepted"
        );
        assert_eq!(
            shown["components"]["schemas"]["Item"]["properties"]["kind"]["example"],
            "sms"
        );
        // An id, an enum, a time and text of several lines take nothing.
        for name in ["id", "state", "created", "note"] {
            assert!(sent[name].get("example").is_none(), "{name}");
        }

        // Another answer of the same type showing another text: the texts disagree, and the
        // field takes none.
        doc["paths"]["/messages"]["delete"] = json!({"responses": {"200": {"content": {
        "application/json": {
            "schema": {"$ref": "#/components/schemas/Sent"},
            "example": {"message": "Deleted."}
        }}}}});
        assert_eq!(super::lend(&mut doc), 2);
        let message = &doc["components"]["schemas"]["Sent"]["properties"]["message"];
        assert!(message.get("example").is_none(), "{message}");
    }
}
