//! Types for answers a document shows only by example: a success's JSON media type with
//! `example` or `examples` and no `schema` (documents made from recorded calls, ClickSend's 203 answers)
//! would be typed `json`, and its lists never paged. Each such media type gets a schema read
//! off its examples before the import walks the document, so the answer is typed, its lists
//! page as their fields say, and the report lists each one as inferred.
//!
//! What an example cannot tell is left open rather than guessed: every field is optional (an
//! example shows what one answer held, not what every answer holds), other keys are kept
//! (`additionalProperties: true`), a value shown only as `null` or as an empty list's items is
//! `json`, and a field whose examples disagree on its JSON type is `json`. An object whose
//! keys are data (ids, numbers, addresses) rather than names is a map.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::document::{escape, resolve};

/// Deepest example nesting read; below it a value is `json`.
const MAX_DEPTH: usize = 32;

/// Marks a schema this module wrote (a vendor extension, which the walk reads past).
pub(crate) const INFERRED: &str = "x-inferred-from-examples";

/// Gives every JSON media type of an operation's success answers (`2XX`) that has examples
/// and no schema a schema read off them. Returns the pointer of each schema added and how
/// many examples it was read from.
pub(crate) fn fill(doc: &mut Value) -> Vec<(String, usize)> {
    // Read first (examples may be `$ref`s into the document), written after: the document is
    // not copied.
    let mut shown = Vec::new();
    for (at, m) in success_media(doc) {
        let examples = examples_of(doc, m);
        if !m.contains_key("schema") && !examples.is_empty() {
            shown.push((at, examples));
        }
    }
    // A field shown only as `null` takes the type its name has elsewhere in the document's
    // examples (ClickSend's `next_page_url`, `null` on a one-page list, a URL on others).
    let mut named = Named::default();
    for (_, examples) in &shown {
        for e in examples {
            named.collect(e, 0);
        }
    }
    let mut added = Vec::new();
    for (at, examples) in shown {
        let mut schema = examples
            .iter()
            .map(|e| named.of_value(e, 0))
            .reduce(merge)
            .unwrap_or_else(|| json!({}));
        if let Some(obj) = schema.as_object_mut() {
            obj.insert(INFERRED.into(), Value::Bool(true));
            obj.insert(
                "description".into(),
                Value::String(format!(
                    "Read off the document's {} example(s): it gives no schema for this answer. Every field is optional and other keys are kept.",
                    examples.len()
                )),
            );
        }
        if let Some(Value::Object(m)) = doc.pointer_mut(&at) {
            m.insert("schema".into(), schema);
            added.push((format!("#{at}/schema"), examples.len()));
        }
    }
    added
}

/// The scalar type each field name shows across the document's examples (`None` where they
/// disagree).
#[derive(Default)]
struct Named(HashMap<String, Option<Value>>);

impl Named {
    fn collect(&mut self, value: &Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match value {
            Value::Array(items) => items.iter().for_each(|i| self.collect(i, depth + 1)),
            Value::Object(fields) => {
                for (k, v) in fields {
                    if matches!(v, Value::Bool(_) | Value::Number(_) | Value::String(_)) {
                        let shown = Self::default().of_value(v, depth + 1);
                        let entry = self.0.entry(k.clone()).or_insert(Some(shown.clone()));
                        *entry = entry
                            .take()
                            .map(|t| merge(t, shown))
                            .filter(|t| !disagree(t));
                    }
                    self.collect(v, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// The schema one example value shows. `null` shows nothing (`{}`, merged away by any
    /// other value of the same place) unless the field's name shows a type elsewhere.
    fn of_value(&self, value: &Value, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return json!({});
        }
        match value {
            Value::Null => json!({}),
            Value::Bool(_) => json!({ "type": "boolean" }),
            Value::Number(n) if n.is_i64() || n.is_u64() => json!({ "type": "integer" }),
            Value::Number(_) => json!({ "type": "number" }),
            // A one-line text keeps its example: the sandbox answers it where it makes the
            // field up (an id's shape, a kind's word).
            Value::String(s) if s.len() <= 200 && !s.contains('\n') => {
                json!({ "type": "string", "example": s })
            }
            Value::String(_) => json!({ "type": "string" }),
            Value::Array(items) => {
                let mut schema = json!({ "type": "array" });
                let item = items
                    .iter()
                    .map(|i| self.of_value(i, depth + 1))
                    .reduce(merge);
                if let Some(item) = item {
                    schema["items"] = item;
                }
                schema
            }
            Value::Object(fields) if !fields.is_empty() && fields.keys().all(|k| is_data(k)) => {
                let values = fields
                    .values()
                    .map(|v| self.of_value(v, depth + 1))
                    .reduce(merge);
                json!({ "type": "object", "additionalProperties": values.unwrap_or_else(|| json!({})) })
            }
            Value::Object(fields) => {
                let properties: Map<String, Value> = fields
                    .iter()
                    .map(|(k, v)| {
                        let shown = match (v, self.0.get(k)) {
                            // Its type, not another place's example.
                            (Value::Null, Some(Some(elsewhere))) => {
                                let mut ty = elsewhere.clone();
                                if let Some(ty) = ty.as_object_mut() {
                                    ty.remove("example");
                                }
                                ty
                            }
                            _ => self.of_value(v, depth + 1),
                        };
                        (k.clone(), shown)
                    })
                    .collect();
                json!({ "type": "object", "properties": properties, "additionalProperties": true })
            }
        }
    }
}

fn disagree(schema: &Value) -> bool {
    schema.get(DISAGREE).is_some()
}

/// Each JSON media type of the operations' success answers (`2XX`), once each, with its
/// pointer (in the response component a `$ref` names, else in place). Error answers shown by
/// example keep their own reading (`errors`: where the examples keep code and message).
pub(super) fn success_media(doc: &Value) -> Vec<(String, &Map<String, Value>)> {
    let mut out: Vec<(String, &Map<String, Value>)> = Vec::new();
    let paths = doc.get("paths").and_then(Value::as_object);
    for (path, item) in paths.into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            let responses = op.get("responses").and_then(Value::as_object);
            let successes = responses
                .into_iter()
                .flatten()
                .filter(|(status, _)| status.starts_with('2'));
            for (status, response) in successes {
                let (response, at) = match response.get("$ref").and_then(Value::as_str) {
                    Some(r) => match (resolve(doc, r), r.strip_prefix('#')) {
                        (Some(shared), Some(at)) => (shared, at.to_owned()),
                        _ => continue,
                    },
                    None => (
                        response,
                        format!(
                            "/paths/{}/{method}/responses/{}",
                            escape(path),
                            escape(status)
                        ),
                    ),
                };
                let content = response.get("content").and_then(Value::as_object);
                for (media, m) in content.into_iter().flatten() {
                    let at = format!("{at}/content/{}", escape(media));
                    if let Some(m) = m.as_object().filter(|_| media.contains("json"))
                        && !out.iter().any(|(seen, _)| *seen == at)
                    {
                        out.push((at, m));
                    }
                }
            }
        }
    }
    out
}

/// A media type's example values: `example`, and each of `examples` (its `value`, or the
/// component a `$ref` names).
pub(super) fn examples_of(doc: &Value, media: &Map<String, Value>) -> Vec<Value> {
    let mut out: Vec<Value> = media.get("example").cloned().into_iter().collect();
    if let Some(Value::Object(named)) = media.get("examples") {
        for e in named.values() {
            let e = match e.get("$ref").and_then(Value::as_str) {
                Some(r) => resolve(doc, r).unwrap_or(&Value::Null),
                None => e,
            };
            if let Some(v) = e.get("value") {
                out.push(v.clone());
            }
        }
    }
    out
}

/// Whether an object key is data rather than a field's name: it starts with a digit or a
/// `+`, or holds a character no field name has (`@`, a space, `.`, `:`).
fn is_data(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_digit() || c == '+')
        || key.contains(['@', ' ', '.', ':', '/'])
}

/// One schema for two examples of the same place: the same JSON type merges (an object's
/// fields, a list's items), an integer and a number are a number, `{}` (nothing shown) takes
/// the other, and two other types are `json` (marked [`DISAGREE`]).
fn merge(a: Value, b: Value) -> Value {
    let kind = |s: &Value| s.get("type").and_then(Value::as_str).map(str::to_owned);
    match (kind(&a), kind(&b)) {
        (None, _) if a.as_object().is_some_and(Map::is_empty) => b,
        (_, None) if b.as_object().is_some_and(Map::is_empty) => a,
        (Some(x), Some(y)) if x == y && x == "object" => merge_objects(a, b),
        (Some(x), Some(y)) if x == y && x == "array" => {
            let item = match (a.get("items").cloned(), b.get("items").cloned()) {
                (Some(i), Some(j)) => Some(merge(i, j)),
                (i, j) => i.or(j),
            };
            let mut schema = json!({ "type": "array" });
            if let Some(item) = item {
                schema["items"] = item;
            }
            schema
        }
        (Some(x), Some(y)) if x == y => a,
        (Some(x), Some(y))
            if matches!(
                (x.as_str(), y.as_str()),
                ("integer", "number") | ("number", "integer")
            ) =>
        {
            json!({ "type": "number" })
        }
        _ => json!({ DISAGREE: true }),
    }
}

/// Marks a place whose examples disagree on its JSON type (`json`, which a later example of
/// any type leaves so), unlike `{}`, a place shown only as `null`, which a later example types.
const DISAGREE: &str = "x-examples-disagree";

/// Two objects' schemas as one: a map stays a map only when both are; otherwise the fields of
/// both, each merged where both show it.
fn merge_objects(mut a: Value, b: Value) -> Value {
    let map_of = |s: &Value| {
        s.get("additionalProperties")
            .filter(|v| v.is_object())
            .cloned()
    };
    let props_of = |s: &Value| s.get("properties").and_then(Value::as_object).cloned();
    match (map_of(&a), map_of(&b)) {
        (Some(x), Some(y)) => {
            return json!({ "type": "object", "additionalProperties": merge(x, y) });
        }
        (Some(_), None) => return b,
        (None, Some(_)) => return a,
        (None, None) => {}
    }
    let mut props = props_of(&a).unwrap_or_default();
    for (k, v) in props_of(&b).unwrap_or_default() {
        match props.get_mut(&k) {
            Some(old) => *old = merge(std::mem::take(old), v),
            None => {
                props.insert(k, v);
            }
        }
    }
    a["properties"] = Value::Object(props);
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_shown_only_by_example_gets_a_schema_of_optional_fields_that_keeps_other_keys() {
        let mut doc = json!({ "paths": { "/lists": { "get": { "responses": { "200": {
            "content": { "application/json": { "examples": {
                "one": { "value": { "data": { "current_page": 1, "next_page_url": null,
                    "data": [ { "list_id": 428, "list_name": "a", "count": 0 } ] } } },
                "two": { "value": { "data": { "current_page": 2,
                    "next_page_url": "https://x/lists?page=3",
                    "data": [ { "list_id": 429, "count": 1.5, "extra": true } ] } } }
            } } } } } } } } });
        let added = fill(&mut doc);
        assert_eq!(
            added,
            [(
                "#/paths/~1lists/get/responses/200/content/application~1json/schema".to_owned(),
                2
            )]
        );
        let schema = &doc["paths"]["/lists"]["get"]["responses"]["200"]["content"]["application/json"]
            ["schema"];
        assert_eq!(schema[INFERRED], true);
        assert_eq!(schema["additionalProperties"], true);
        assert!(schema.get("required").is_none());
        let page = &schema["properties"]["data"]["properties"];
        assert_eq!(page["current_page"]["type"], "integer");
        // `null` in one example, text in the other: text.
        assert_eq!(page["next_page_url"]["type"], "string");
        let item = &page["data"]["items"]["properties"];
        assert_eq!(item["list_id"], json!({ "type": "integer" }));
        // 0 and 1.5: a number; a field shown in one example only is still there.
        assert_eq!(item["count"]["type"], "number");
        assert_eq!(item["extra"]["type"], "boolean");
        // Text keeps its example.
        assert_eq!(
            item["list_name"],
            json!({ "type": "string", "example": "a" })
        );
    }

    #[test]
    fn what_examples_cannot_tell_is_json_and_keys_that_are_data_make_a_map() {
        let schema = [
            json!({ "a": null, "b": [], "c": 1, "by_id": { "552786": { "n": 1 }, "552787": { "n": 2 } } }),
            json!({ "a": null, "b": [], "c": "one" }),
        ]
        .iter()
        .map(|v| Named::default().of_value(v, 0))
        .reduce(merge)
        .unwrap();
        let p = &schema["properties"];
        assert_eq!(p["a"], json!({}));
        assert_eq!(p["b"], json!({ "type": "array" }));
        assert_eq!(
            p["c"],
            json!({ DISAGREE: true }),
            "a number and a text: json"
        );
        assert_eq!(
            p["by_id"],
            json!({ "type": "object", "additionalProperties": {
                "type": "object", "properties": { "n": { "type": "integer" } },
                "additionalProperties": true } })
        );
    }

    #[test]
    fn a_field_shown_only_as_null_takes_the_type_its_name_shows_elsewhere() {
        let answer = |next: Value| {
            json!({ "content": { "application/json": { "example": {
                "data": { "next_page_url": next, "gender": ["f"] } } } } })
        };
        let mut doc = json!({ "paths": {
            "/lists": { "get": { "responses": { "200": answer(Value::Null) } } },
            "/numbers": { "get": { "responses": { "200": answer(json!("https://x/numbers?page=2")) } } },
            "/voices": { "get": { "responses": { "200": { "content": { "application/json": {
                "examples": { "a": { "value": { "data": [
                    { "gender": ["f", "m"] }, { "gender": "f" }, { "gender": ["m"] }
                ] } } } } } } } } }
        } });
        assert_eq!(fill(&mut doc).len(), 3);
        let schema = |path: &str| {
            doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
                .clone()
        };
        assert_eq!(
            schema("/lists")["properties"]["data"]["properties"]["next_page_url"]["type"],
            "string"
        );
        // A list, a text, a list: they disagree, and stay so.
        assert_eq!(
            schema("/voices")["properties"]["data"]["items"]["properties"]["gender"],
            json!({ DISAGREE: true })
        );
    }

    #[test]
    fn a_schema_the_document_gives_is_kept_and_deep_examples_stop_at_the_limit() {
        let mut doc = json!({ "paths": { "/a": { "get": { "responses": { "200": {
            "content": { "application/json": { "schema": { "type": "string" }, "example": 1 } }
        } } } } } });
        assert!(fill(&mut doc).is_empty());
        let mut deep = json!(1);
        for _ in 0..200 {
            deep = json!([deep]);
        }
        let schema = Named::default().of_value(&deep, 0);
        let mut at = &schema;
        let mut levels = 0;
        while let Some(items) = at.get("items") {
            at = items;
            levels += 1;
        }
        assert!(levels <= MAX_DEPTH + 1, "{levels}");
    }
}
