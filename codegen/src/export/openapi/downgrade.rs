//! The OpenAPI 3.1 document rewritten as 3.0.3 for tools that read only 3.0.

#[allow(clippy::wildcard_imports)] // the document's shared helpers and imports
use super::*;

/// The same document as OpenAPI 3.0.3, for tools that read only 3.0 (`tidings-codegen openapi
/// SPEC_FILE --openapi-version 3.0`). What differs is rewritten or moved, never silently lost
/// where 3.0 can say it:
///
/// - `openapi` becomes `3.0.3`; `jsonSchemaDialect` is dropped;
/// - `webhooks` moves to `x-webhooks` (3.0 has no webhooks), `info.summary` to `info.x-summary`;
/// - in schemas: `const: v` becomes `enum: [v]`; a `type` array with `null` becomes the other
///   type with `nullable: true`; `examples` becomes `example` (the first); numeric
///   `exclusiveMinimum`/`exclusiveMaximum` become `minimum`/`maximum` with the boolean form;
///   a `$ref` keeps no siblings (3.0 ignores them: their `description` moves to
///   `x-description`);
/// - an operation's `default` (error) response is said as `4XX` and `5XX` ranges, which
///   OpenAPI 3.0 generators such as progenitor read as errors only (they take `default` as a
///   possible success, and refuse one whose body differs from the success body).
///
/// ```
/// let services = tidings_codegen::check::check_paths(&["../spec"], tidings_codegen::ProvenancePolicy::Required).unwrap();
/// let email = services.iter().find(|s| s.name() == "email").unwrap();
/// let doc = tidings_codegen::export::openapi::document(email);
/// let old = tidings_codegen::export::openapi::downgrade_to_3_0(doc);
/// assert_eq!(old["openapi"], "3.0.3");
/// assert!(old.get("webhooks").is_none() && old["x-webhooks"].is_object());
/// ```
pub fn downgrade_to_3_0(document: Value) -> Value {
    let Value::Object(mut doc) = document else {
        return document;
    };
    doc.insert("openapi".into(), json!("3.0.3"));
    doc.remove("jsonSchemaDialect");
    if let Some(hooks) = doc.remove("webhooks") {
        doc.insert("x-webhooks".into(), hooks);
    }
    if let Some(Value::Object(info)) = doc.get_mut("info")
        && let Some(summary) = info.remove("summary")
    {
        info.insert("x-summary".into(), summary);
    }
    for (key, value) in doc.iter_mut() {
        if !key.starts_with("x-") {
            downgrade_container(key, value);
        }
    }
    // 3.0 generators (progenitor) read a `default` response as a possible success too, and
    // refuse an operation whose success and `default` bodies differ: say `4XX` and `5XX`.
    if let Some(Value::Object(paths)) = doc.get_mut("paths") {
        for item in paths.values_mut().filter_map(Value::as_object_mut) {
            for op in item.values_mut().filter_map(Value::as_object_mut) {
                let Some(Value::Object(responses)) = op.get_mut("responses") else {
                    continue;
                };
                if let Some(default) = responses.remove("default") {
                    for range in ["4XX", "5XX"] {
                        responses.entry(range).or_insert_with(|| default.clone());
                    }
                }
            }
        }
    }
    Value::Object(doc)
}

/// Walks the non-schema parts of a document, downgrading every schema found under a `schema`
/// key or in `components.schemas`; `x-` extensions are left as written.
fn downgrade_container(key: &str, value: &mut Value) {
    match value {
        Value::Object(map) if key == "schemas" => map.values_mut().for_each(downgrade_schema),
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                if k == "schema" {
                    downgrade_schema(v);
                } else if !k.starts_with("x-") {
                    downgrade_container(k, v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| downgrade_container(key, v)),
        _ => {}
    }
}

/// One JSON Schema 2020-12 schema (and the schemas inside it) as an OpenAPI 3.0 schema object.
fn downgrade_schema(schema: &mut Value) {
    let Value::Object(s) = schema else { return };
    if s.contains_key("$ref") && s.len() > 1 {
        let description = s.remove("description");
        s.retain(|k, _| k == "$ref" || k.starts_with("x-"));
        if let Some(d) = description {
            s.insert("x-description".into(), d);
        }
        return;
    }
    if let Some(c) = s.remove("const") {
        s.entry("enum").or_insert_with(|| json!([c]));
    }
    if let Some(Value::Array(types)) = s.get("type").cloned() {
        let nullable = types.iter().any(|t| t == "null");
        let rest: Vec<Value> = types.into_iter().filter(|t| t != "null").collect();
        match rest.as_slice() {
            [one] => {
                s.insert("type".into(), one.clone());
            }
            _ => {
                s.remove("type");
            }
        }
        if nullable {
            s.insert("nullable".into(), json!(true));
        }
    } else if s.get("type").is_some_and(|t| t == "null") {
        s.remove("type");
        s.insert("nullable".into(), json!(true));
        s.insert("enum".into(), json!([null]));
    }
    if let Some(Value::Array(examples)) = s.remove("examples")
        && let Some(first) = examples.into_iter().next()
    {
        s.entry("example").or_insert(first);
    }
    for (exclusive, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(limit) = s.get(exclusive).filter(|v| v.is_number()).cloned() {
            s.insert(bound.into(), limit);
            s.insert(exclusive.into(), json!(true));
        }
    }
    for (key, value) in s.iter_mut() {
        match (key.as_str(), value) {
            ("properties" | "patternProperties" | "$defs", Value::Object(map)) => {
                map.values_mut().for_each(downgrade_schema);
            }
            ("items" | "additionalProperties" | "not", v @ Value::Object(_)) => {
                downgrade_schema(v);
            }
            ("allOf" | "anyOf" | "oneOf", Value::Array(items)) => {
                items.iter_mut().for_each(downgrade_schema);
            }
            _ => {}
        }
    }
}
