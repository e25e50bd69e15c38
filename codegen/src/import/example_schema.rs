//! Whether an example agrees with its own schema in the document, read from the document alone
//! (not from the imported types): a lossy example that breaks its schema (a required field
//! missing, a value of another JSON type) is the document disagreeing with itself, and the
//! report says so beside the loss. Only what the schema states for sure is checked: `oneOf` and
//! `anyOf` count as agreeing when one alternative does, `enum` values are not checked (open
//! enums keep others), and keys a schema does not declare are allowed (as OpenAPI reads an
//! absent `additionalProperties`).

use serde_json::Value;

use super::document;

/// Deepest schema nesting (through `$ref`s and `allOf`) walked before giving up (agreeing).
const MAX_DEPTH: usize = 64;

/// The schema an example at `pointer` (a JSON pointer without `#`) illustrates, found from
/// where the example sits: `<schema>/example`, `<schema>/examples/<i>`,
/// `<media>/example` or `<media>/examples/<name>/value` (the media type's `schema`), Swagger
/// 2.0 `<response>/examples/<mime>` (the response's `schema`) and `<parameter>/x-examples/<mime>`.
pub(crate) fn schema_of<'d>(doc: &'d Value, pointer: &str) -> Option<&'d Value> {
    let parts: Vec<&str> = pointer.split('/').collect();
    let n = parts.len();
    let at = |upto: usize, tail: &str| -> Option<&'d Value> {
        let base = parts[..upto].join("/");
        document::resolve(doc, &format!("#{base}{tail}"))
    };
    match parts.as_slice() {
        [.., "content", _, "example"] => at(n - 1, "/schema"),
        [.., "content", _, "examples", _, "value"] => at(n - 3, "/schema"),
        [.., "responses", _, "examples", _] => at(n - 2, "/schema"),
        [.., "x-examples", _] => at(n - 2, "/schema"),
        [.., "example"] => at(n - 1, ""),
        [.., "examples", _] => at(n - 2, ""),
        _ => None,
    }
}

/// Where and how `value` breaks `schema`, or `None` when it agrees (as far as checked).
pub(crate) fn violation(doc: &Value, schema: &Value, value: &Value) -> Option<String> {
    Checker { doc, enums: false }.check(schema, value, "", 0)
}

/// [`violation`], also refusing a value its schema's `enum` does not list and text its `uri`
/// format refuses: what a strict validator (Prism) refuses when the document's own example
/// is sent.
pub(crate) fn strict_violation(doc: &Value, schema: &Value, value: &Value) -> Option<String> {
    Checker { doc, enums: true }.check(schema, value, "", 0)
}

struct Checker<'d> {
    doc: &'d Value,
    /// `enum` lists are closed.
    enums: bool,
}

impl Checker<'_> {
    fn check(&self, schema: &Value, value: &Value, at: &str, depth: usize) -> Option<String> {
        let doc = self.doc;
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let target = document::resolve(doc, r)?;
            return self.check(target, value, at, depth + 1);
        }
        // `null` is what an optional or nullable value may be; the imported types read it as
        // absent.
        if value.is_null() {
            return None;
        }
        if self.enums
            && let Some(Value::Array(allowed)) = schema.get("enum")
            && !allowed.contains(value)
        {
            return Some(format!(
                "`{}` is {value}, which its schema's `enum` does not list",
                shown(at)
            ));
        }
        if self.enums
            && schema.get("format").and_then(Value::as_str) == Some("uri")
            && let Value::String(text) = value
            && !has_scheme(text)
        {
            return Some(format!(
                "`{}` is {value}, not a URI as its schema's `format` says",
                shown(at)
            ));
        }
        if let Some(Value::Array(all)) = schema.get("allOf") {
            for member in all {
                if let Some(v) = self.check(member, value, at, depth + 1) {
                    return Some(v);
                }
            }
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(alternatives)) = schema.get(key)
                && !alternatives.is_empty()
                && alternatives
                    .iter()
                    .all(|a| self.check(a, value, at, depth + 1).is_some())
            {
                return Some(format!(
                    "`{}` fits none of its schema's `{key}` alternatives",
                    shown(at)
                ));
            }
        }
        let ty = match schema.get("type") {
            Some(Value::String(t)) => Some(t.as_str()),
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
            _ => None,
        };
        let ty = ty.or_else(|| schema.get("properties").map(|_| "object"));
        let fits = match (ty, value) {
            (None, _) => true,
            (Some("object"), Value::Object(_))
            | (Some("array"), Value::Array(_))
            | (Some("string"), Value::String(_))
            | (Some("boolean"), Value::Bool(_))
            | (Some("number"), Value::Number(_)) => true,
            (Some("integer"), Value::Number(n)) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            _ => false,
        };
        if !fits {
            return Some(format!(
                "`{}` is {}, its schema says `{}`",
                shown(at),
                kind(value),
                ty.unwrap_or("?")
            ));
        }
        match value {
            Value::Object(map) => {
                if let Some(Value::Array(required)) = schema.get("required") {
                    for r in required.iter().filter_map(Value::as_str) {
                        if !map.contains_key(r) {
                            return Some(format!(
                                "`{at}/{r}` is required by its schema and missing"
                            ));
                        }
                        // `null` for a required field its schema does not let be null.
                        let sub = schema.get("properties").and_then(|p| p.get(r));
                        if map.get(r).is_some_and(Value::is_null)
                            && sub.is_some_and(|s| !self.allows_null(s, depth + 1))
                        {
                            return Some(format!(
                                "`{at}/{r}` is null, which its schema (required, not nullable) refuses"
                            ));
                        }
                    }
                }
                let props = schema.get("properties").and_then(Value::as_object);
                for (k, v) in map {
                    let sub = props
                        .and_then(|p| p.get(k))
                        .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
                    if let Some(sub) = sub
                        && let Some(found) =
                            self.check(sub, v, &format!("{at}/{}", document::escape(k)), depth + 1)
                    {
                        return Some(found);
                    }
                }
                None
            }
            Value::Array(items) => {
                let item = schema.get("items")?;
                items
                    .iter()
                    .enumerate()
                    .find_map(|(i, v)| self.check(item, v, &format!("{at}/{i}"), depth + 1))
            }
            _ => None,
        }
    }
}

impl Checker<'_> {
    /// Whether a schema lets a value be `null` (`nullable`, a `"null"` type, a `null` in its
    /// `enum`, an alternative that does, or no type at all).
    fn allows_null(&self, schema: &Value, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return true;
        }
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            return document::resolve(self.doc, r).is_none_or(|t| self.allows_null(t, depth + 1));
        }
        if schema.get("nullable").and_then(Value::as_bool) == Some(true)
            || schema
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.iter().any(Value::is_null))
        {
            return true;
        }
        let alternatives = ["oneOf", "anyOf"]
            .iter()
            .filter_map(|k| schema.get(*k).and_then(Value::as_array))
            .flatten();
        if alternatives.clone().next().is_some() {
            return alternatives
                .into_iter()
                .any(|a| self.allows_null(a, depth + 1));
        }
        match schema.get("type") {
            Some(Value::String(t)) => t == "null",
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
            _ => true,
        }
    }
}

/// An absolute URI starts with a scheme (RFC 3986: a letter, then letters, digits, `+`, `-`
/// or `.`, then `:`).
fn has_scheme(text: &str) -> bool {
    text.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

fn shown(at: &str) -> &str {
    if at.is_empty() { "/" } else { at }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{schema_of, violation};

    #[test]
    fn missing_required_fields_and_other_types_are_found_and_undeclared_keys_pass() {
        let doc = json!({"components": {"schemas": {
            "Contact": {"type": "object", "required": ["email"], "properties": {
                "email": {"type": "string"}, "age": {"type": "integer"},
                "tags": {"type": "array", "items": {"type": "string"}}},
                "example": {"age": 3}},
        }}});
        let schema = &doc["components"]["schemas"]["Contact"];
        assert_eq!(
            violation(&doc, schema, &json!({"age": 3})).as_deref(),
            Some("`/email` is required by its schema and missing")
        );
        assert_eq!(
            violation(&doc, schema, &json!({"email": "a", "age": "3"})).as_deref(),
            Some("`/age` is a string, its schema says `integer`")
        );
        assert_eq!(
            violation(&doc, schema, &json!({"email": "a", "tags": ["x", 1]})).as_deref(),
            Some("`/tags/1` is a number, its schema says `string`")
        );
        assert_eq!(
            violation(&doc, schema, &json!({"email": "a", "other": 1})),
            None
        );
        assert!(std::ptr::eq(
            schema_of(&doc, "/components/schemas/Contact/example").unwrap(),
            schema
        ));
    }

    #[test]
    fn null_for_a_required_field_that_cannot_be_null_is_found() {
        // Brevo's example sending `null` for a required array said only "does not decode".
        let doc = json!({"components": {"schemas": {
            "List": {"type": "object", "required": ["ids", "note", "kind"], "properties": {
                "ids": {"type": "array", "items": {"type": "integer"}},
                "note": {"type": ["string", "null"]},
                "kind": {"type": "string", "enum": ["a", null]}}},
        }}});
        let schema = &doc["components"]["schemas"]["List"];
        assert_eq!(
            violation(
                &doc,
                schema,
                &json!({"ids": null, "note": null, "kind": null})
            )
            .as_deref(),
            Some("`/ids` is null, which its schema (required, not nullable) refuses")
        );
        assert_eq!(
            violation(
                &doc,
                schema,
                &json!({"ids": [], "note": null, "kind": null})
            ),
            None
        );
    }
}
