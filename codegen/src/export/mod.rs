//! Exports of the resolved spec to standard description formats, for tools outside this
//! project: OpenAPI 3.1 for the HTTP APIs ([`openapi`]) and AsyncAPI 3 for WebSocket protocols
//! ([`asyncapi`]).
//!
//! Both are built as [`serde_json::Value`] documents from a checked [`Service`] and written by
//! [`to_json`] with object keys sorted, so the same spec always gives the same bytes. The
//! committed copies live in `spec/openapi/` and `spec/asyncapi/` ([`documents`] names them);
//! a test fails when they are stale.
//!
//! Optional fields accept `null` as well as absence (the generated types read both as unset).
//!
//! What the formats cannot say travels in `x-` extensions:
//!
//! | extension | on | meaning |
//! |---|---|---|
//! | `x-source`, `x-note`, `x-conflict` | every item | provenance: `seed`, `assumed` or `not_shown`, why, and where seed facts disagree |
//! | `x-open-enum` | enum schemas | clients keep values not listed (the schema accepts any string; `enum` inside `anyOf` lists the known ones) |
//! | `x-open-union` | union schemas | clients keep variants not listed as `Unknown` |
//! | `x-format` | strings | the spec's format (`email` also allows `Name <address>`, so it is a `pattern`, not JSON Schema's `format`) |
//! | `x-max-bytes` | strings | longest UTF-8 length |
//! | `x-rules` | objects | the spec's rules across fields (the expressible ones are also in `allOf`) |
//! | `x-idempotency` | operations | retry class: `safe`, `key` or `none` |
//! | `x-rate-limit`, `x-retry`, `x-timeouts`, `x-sizes`, ... | the document | the spec's sections as written |
//!
//! ```
//! let services = tidings_codegen::check::check_paths(&["../spec"], tidings_codegen::ProvenancePolicy::Required).unwrap();
//! let email = services.iter().find(|s| s.name() == "email").unwrap();
//! let doc = tidings_codegen::export::openapi::document(email);
//! assert_eq!(doc["openapi"], "3.1.0");
//! assert!(doc["paths"]["/v1/emails"]["post"].is_object());
//! ```

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::model::{Format, Source};
use crate::resolved::{Constraints, Origin, Service, Ty, TypeInfo, TypeKind};

pub mod asyncapi;
pub mod openapi;

/// One exported document: where it is committed (relative to the spec directory) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedFile {
    /// Path relative to the spec directory, like `openapi/email.openapi.json`.
    pub path: PathBuf,
    /// The document, as [`to_json`] writes it.
    pub contents: String,
}

/// Every exported document of these services: an OpenAPI document for each service with HTTP
/// operations, an AsyncAPI document for each service with a `websocket` section.
pub fn documents(services: &[Service]) -> Vec<ExportedFile> {
    let mut out = Vec::new();
    for service in services {
        if !service.operations.is_empty() {
            out.push(ExportedFile {
                path: Path::new("openapi").join(format!("{}.openapi.json", service.name())),
                contents: to_json(&openapi::document(service)),
            });
        }
        if service.websocket.is_some() {
            out.push(ExportedFile {
                path: Path::new("asyncapi").join(format!("{}.asyncapi.json", service.name())),
                contents: to_json(&asyncapi::document(service)),
            });
        }
    }
    out
}

/// Pretty-printed JSON with every object's keys sorted and a final newline: the same value
/// always gives the same text, whatever order it was built in.
pub fn to_json(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(&sorted(value)).unwrap_or_default();
    text.push('\n');
    text
}

fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for key in keys {
                out.insert(key.clone(), sorted(&map[key]));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// The JSON Schema dialect a document embeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// OpenAPI 3.1: JSON Schema 2020-12, `$ref` may have siblings, `discriminator` is an object.
    OpenApi,
    /// AsyncAPI 3 schemas (a draft-07 superset): `$ref` siblings are ignored, so references
    /// with docs are wrapped in `allOf`; `discriminator` is the tag's name.
    AsyncApi,
}

/// The spec file a document comes from, as `spec/<file>` whatever directory it was read from,
/// so the document does not depend on where the exporter ran.
pub(crate) fn spec_file(service: &Service) -> String {
    let name = Path::new(&service.file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| service.file.clone());
    format!("spec/{name}")
}

/// Reference to a component schema.
pub(crate) fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

/// The component name of a union variant (`Message_Sms`): type names are PascalCase, so the
/// underscore cannot clash with a spec type.
pub(crate) fn variant_component(union: &str, rust: &str) -> String {
    format!("{union}_{rust}")
}

/// The component name of a page of `item` (`Page_Email`).
pub(crate) fn page_component(item: &str) -> String {
    format!("Page_{item}")
}

/// [`provenance`] of a resolved item.
pub(crate) fn origin(obj: &mut Map<String, Value>, origin: &Origin) {
    provenance(
        obj,
        Some(origin.source),
        origin.note.as_deref(),
        origin.conflict.as_deref(),
    );
}

/// Adds `x-source`, and `x-note` / `x-conflict` when set.
pub(crate) fn provenance(
    obj: &mut Map<String, Value>,
    source: Option<Source>,
    note: Option<&str>,
    conflict: Option<&str>,
) {
    if let Some(source) = source {
        obj.insert("x-source".into(), json!(source.as_str()));
    }
    if let Some(note) = note {
        obj.insert("x-note".into(), json!(note));
    }
    if let Some(conflict) = conflict {
        obj.insert("x-conflict".into(), json!(conflict));
    }
}

/// Adds `description` when there are docs.
pub(crate) fn describe(obj: &mut Map<String, Value>, doc: Option<&str>) {
    if let Some(doc) = doc.map(str::trim).filter(|d| !d.is_empty()) {
        obj.insert("description".into(), json!(doc));
    }
}

/// A number as JSON: an integer when it has no fraction.
pub(crate) fn number(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

/// The schema of a type expression.
pub(crate) fn ty_schema(ty: &Ty) -> Value {
    match ty {
        Ty::String => json!({ "type": "string" }),
        Ty::Integer => json!({ "type": "integer", "format": "int64" }),
        Ty::Number => json!({ "type": "number", "format": "double" }),
        Ty::Boolean => json!({ "type": "boolean" }),
        Ty::DateTime => json!({ "type": "string", "format": "date-time" }),
        Ty::Date => json!({ "type": "string", "format": "date" }),
        Ty::Json => json!({ "description": "Any JSON value." }),
        Ty::Bytes => json!({ "type": "string", "format": "binary" }),
        Ty::Named(name) => schema_ref(name),
        Ty::List(item) => json!({ "type": "array", "items": ty_schema(item) }),
        Ty::Map(value) => json!({ "type": "object", "additionalProperties": ty_schema(value) }),
        Ty::Page(item) => match &**item {
            Ty::Named(name) => schema_ref(&page_component(name)),
            other => ty_schema(&Ty::List(Box::new(other.clone()))),
        },
    }
}

/// The client's `email` check as a pattern (ECMA-262 and Python syntax alike, no lookaround):
/// an address, or `Display Name <address>`, with whitespace around. The address: a local part
/// without `@`, whitespace, control characters or `<>,;`, then `@` and a domain of two or more
/// labels of letters, digits and inner hyphens. The check counts bytes (64 for the local part,
/// 63 per label, 254 for the address), which a pattern cannot: it allows 64 and 63 ASCII
/// characters, but 16 and 15 when other characters appear (at most 4 bytes each), and the
/// 254-byte total becomes a `maxLength` ([`EMAIL_MAX_LENGTH`]).
pub(crate) const EMAIL_PATTERN: &str = {
    // Unicode White_Space, what Rust's `trim` and `is_whitespace` take (`\s` differs by engine).
    macro_rules! space {
        () => {
            r"\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
        };
    }
    macro_rules! label {
        () => {
            concat!(
                r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?",
                r"|[^\W_](?:(?:[^\W_]|-){0,13}[^\W_])?)"
            )
        };
    }
    macro_rules! address {
        () => {
            concat!(
                r"(?:[\x21-\x2b\x2d-\x3a\x3d\x3f\x41-\x7e]{1,64}",
                r"|[^@<>,;\x00-\x1f\x7f-\x9f",
                space!(),
                r"]{1,16})@",
                label!(),
                r"(?:\.",
                label!(),
                r")+"
            )
        };
    }
    concat!(
        r"^[",
        space!(),
        r"]*(?:[\s\S]*<",
        address!(),
        r">|",
        address!(),
        r")[",
        space!(),
        r"]*$"
    )
};

/// The `maxLength` of an `email` string: the check's limit on the address (in bytes), applied
/// to the whole value (in characters), so a display name of its own counts too.
pub(crate) const EMAIL_MAX_LENGTH: u64 = 254;

/// Applies a string format to a string schema.
fn apply_format(schema: &mut Map<String, Value>, format: Format) {
    let word = serde_json::to_value(format).unwrap_or(Value::Null);
    schema.insert("x-format".into(), word);
    match format {
        // The spec's email format also allows `Name <address>`, which JSON Schema's `email`
        // format rejects: the rule the client checks is a pattern instead.
        Format::Email => {
            schema.insert("pattern".into(), json!(EMAIL_PATTERN));
            // The check's 254-byte address limit, as near as a length gets: no valid value
            // is longer than 254 characters unless its display name is long.
            schema.insert("maxLength".into(), json!(EMAIL_MAX_LENGTH));
            // Mock servers (Prism) answer with an example; they cannot make one up from this
            // pattern.
            schema.insert("examples".into(), json!(["Ada <ada@example.com>"]));
        }
        Format::E164 => {
            // The rule the client checks: an optional `+`, then 2 to 15 digits, no leading 0.
            schema.insert("pattern".into(), json!("^\\+?[1-9][0-9]{1,14}$"));
        }
        Format::Rfc3339 => {
            schema.insert("format".into(), json!("date-time"));
        }
        Format::Uri => {
            schema.insert("format".into(), json!("uri"));
        }
        Format::Uuid => {
            schema.insert("format".into(), json!("uuid"));
        }
        Format::Date => {
            schema.insert("format".into(), json!("date"));
        }
        // A date-time on the wire as RFC 2822 text: no JSON Schema format says so.
        Format::Rfc2822 => {
            schema.remove("format");
            schema.insert(
                "examples".into(),
                json!(["Wed, 18 Aug 2010 20:01:40 +0000"]),
            );
        }
        // Seconds or milliseconds since the epoch: an integer on the wire.
        // The bounds are years 0000 to 9999, what the clients decode (RFC 3339 writes no more).
        Format::Unix | Format::UnixMs => {
            let scale: i64 = if format == Format::Unix { 1 } else { 1000 };
            schema.remove("format");
            schema.insert("type".into(), json!("integer"));
            schema.insert("format".into(), json!("int64"));
            schema.insert("minimum".into(), json!(-62_167_219_200_i64 * scale));
            schema.insert(
                "maximum".into(),
                json!(253_402_300_799_i64 * scale + (scale - 1)),
            );
            schema.insert("examples".into(), json!([1_282_161_700_i64 * scale]));
        }
    }
}

/// Applies string constraints (lengths, bytes) to a string schema.
fn apply_string_limits(schema: &mut Map<String, Value>, c: &Constraints) {
    if let Some(v) = c.max_len {
        // A format's own bound (email) stays when it is the tighter one.
        let bound = schema
            .get("maxLength")
            .and_then(Value::as_u64)
            .map_or(v, |f| f.min(v));
        schema.insert("maxLength".into(), json!(bound));
    }
    if let Some(v) = c.min_len {
        schema.insert("minLength".into(), json!(v));
    }
    if let Some(v) = c.max_bytes {
        schema.insert("x-max-bytes".into(), json!(v));
    }
    if let Some(v) = &c.pattern {
        schema.insert("pattern".into(), json!(v));
    }
}

/// The schema of a value with its format and constraints (a field or a parameter).
pub(crate) fn constrained_schema(ty: &Ty, format: Option<Format>, c: &Constraints) -> Value {
    let mut schema = ty_schema(ty);
    let Some(obj) = schema.as_object_mut() else {
        return schema;
    };
    match ty {
        Ty::String | Ty::DateTime | Ty::Date => {
            if let Some(f) = format {
                apply_format(obj, f);
            }
            apply_string_limits(obj, c);
        }
        Ty::List(_) | Ty::Map(_) => {
            let (inner_key, max_key, min_key) = if matches!(ty, Ty::List(_)) {
                ("items", "maxItems", "minItems")
            } else {
                ("additionalProperties", "maxProperties", "minProperties")
            };
            if let Some(inner) = obj.get_mut(inner_key).and_then(Value::as_object_mut) {
                if let Some(f) = format {
                    apply_format(inner, f);
                }
                apply_string_limits(inner, c);
            }
            if let Some(v) = c.max_items {
                obj.insert(max_key.into(), json!(v));
            }
            if let Some(v) = c.min_items {
                obj.insert(min_key.into(), json!(v));
            }
        }
        Ty::Integer | Ty::Number => {
            if let Some(v) = c.min {
                obj.insert("minimum".into(), number(v));
            }
            if let Some(v) = c.max {
                obj.insert("maximum".into(), number(v));
            }
        }
        _ => {}
    }
    schema
}

/// An optional field's schema: `null` is accepted too, since the generated types read an
/// explicit `null` as absent (`Option<T>`), on the server as in the clients. The schema becomes
/// `anyOf` with `{"type": "null"}` (rather than a `type` list, which generators read as losing
/// the string's `format`); a schema without a type (`json`) already allows `null`.
pub(crate) fn or_null(schema: Value) -> Value {
    let untyped = schema.as_object().is_some_and(|obj| {
        [
            "type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "not",
        ]
        .iter()
        .all(|k| !obj.contains_key(*k))
    });
    if untyped {
        return schema;
    }
    json!({ "anyOf": [schema, { "type": "null" }] })
}

/// `{"required": [field]}`, with the field not `null` (an explicit `null` is an absent field).
fn present(fields: &[&String]) -> Value {
    let not_null: Map<String, Value> = fields
        .iter()
        .map(|f| ((*f).clone(), json!({ "not": { "type": "null" } })))
        .collect();
    json!({ "required": fields, "properties": not_null })
}

/// Adds docs and extensions to a schema; a bare `$ref` is wrapped in `allOf` where the dialect
/// ignores `$ref` siblings.
pub(crate) fn with_extras(schema: Value, extras: Map<String, Value>, dialect: Dialect) -> Value {
    if extras.is_empty() {
        return schema;
    }
    let is_ref = schema.get("$ref").is_some();
    let mut obj = if is_ref && dialect == Dialect::AsyncApi {
        let mut m = Map::new();
        m.insert("allOf".into(), json!([schema]));
        m
    } else {
        match schema {
            Value::Object(m) => m,
            other => {
                let mut m = Map::new();
                m.insert("allOf".into(), json!([other]));
                m
            }
        }
    };
    for (k, v) in extras {
        // A type's own description (a schema like `json`'s) gives way to the field's.
        obj.insert(k, v);
    }
    Value::Object(obj)
}

/// The component schemas of the named types, plus a component per union variant and per page.
pub(crate) fn type_schemas(
    service: &Service,
    dialect: Dialect,
    keep: &dyn Fn(&str) -> bool,
) -> Map<String, Value> {
    let mut out = Map::new();
    for t in service.types.iter().filter(|t| keep(&t.name)) {
        type_schema(t, dialect, &mut out);
    }
    out
}

fn type_schema(t: &TypeInfo, dialect: Dialect, out: &mut Map<String, Value>) {
    let mut obj = Map::new();
    describe(&mut obj, t.doc.as_deref());
    provenance(
        &mut obj,
        Some(t.source),
        t.note.as_deref(),
        t.conflict.as_deref(),
    );
    match &t.kind {
        TypeKind::Object(fields) => {
            obj.insert("type".into(), json!("object"));
            let mut props = Map::new();
            let mut required = Vec::new();
            for f in fields {
                let mut extras = Map::new();
                describe(&mut extras, f.doc.as_deref());
                provenance(
                    &mut extras,
                    Some(f.source),
                    f.note.as_deref(),
                    f.conflict.as_deref(),
                );
                if f.read_only {
                    extras.insert("readOnly".into(), json!(true));
                }
                if f.write_only {
                    extras.insert("writeOnly".into(), json!(true));
                }
                if f.secret {
                    extras.insert("x-secret".into(), json!(true));
                }
                if f.rust != crate::names::snake(&f.wire) {
                    extras.insert("x-rust-name".into(), json!(f.rust));
                }
                let mut schema = constrained_schema(&f.ty, f.format, &f.constraints);
                if let (Some(default), Some(obj)) = (&f.default, schema.as_object_mut()) {
                    obj.insert("default".into(), default.clone());
                }
                if f.is_option() {
                    schema = or_null(schema);
                }
                props.insert(f.wire.clone(), with_extras(schema, extras, dialect));
                if f.required {
                    required.push(json!(f.wire));
                }
            }
            obj.insert("properties".into(), Value::Object(props));
            if let Some(other) = &t.additional {
                obj.insert("additionalProperties".into(), ty_schema(other));
            }
            if !required.is_empty() {
                obj.insert("required".into(), Value::Array(required));
            }
            rules(t, &mut obj);
        }
        TypeKind::Enum(values) => {
            // Open: the known values are listed, and any other string is accepted too, since
            // clients keep unknown values (`Unknown(String)`) and may send them.
            obj.insert("type".into(), json!("string"));
            let known: Vec<Value> = values.iter().map(|v| json!(v.wire)).collect();
            obj.insert(
                "anyOf".into(),
                json!([
                    { "enum": known },
                    { "description": "A value added after this document was written: clients keep it." }
                ]),
            );
            obj.insert("x-open-enum".into(), json!(true));
            let docs: Map<String, Value> = values
                .iter()
                .filter_map(|v| v.doc.as_ref().map(|d| (v.wire.clone(), json!(d))))
                .collect();
            if !docs.is_empty() {
                obj.insert("x-enum-descriptions".into(), Value::Object(docs));
            }
            let sources: Map<String, Value> = values
                .iter()
                .filter(|v| v.source != t.source)
                .map(|v| (v.wire.clone(), json!(v.source.as_str())))
                .collect();
            if !sources.is_empty() {
                obj.insert("x-enum-sources".into(), Value::Object(sources));
            }
        }
        TypeKind::Untagged { variants } => {
            // First match wins, so several may fit: `anyOf`, not `oneOf`.
            let any_of: Vec<Value> = variants
                .iter()
                .map(|v| {
                    let mut schema =
                        v.ty.as_deref()
                            .and_then(|t| Ty::parse(t).ok())
                            .map(|ty| ty_schema(&ty))
                            .unwrap_or_else(|| json!({}));
                    if let Some(obj) = schema.as_object_mut() {
                        obj.insert("x-variant".into(), json!(v.tag));
                        obj.insert("x-rust-name".into(), json!(v.rust));
                    }
                    schema
                })
                .collect();
            // A request must fit a variant (`--spec` refuses one that fits none, as the
            // provider would); clients still keep an answer that fits none whole (`Unknown`),
            // which `x-open` says.
            obj.insert("anyOf".into(), Value::Array(any_of));
            obj.insert("x-untagged".into(), json!(true));
            obj.insert("x-open".into(), json!(true));
        }
        TypeKind::Union {
            tag,
            content,
            variants,
        } => {
            let mut one_of = Vec::new();
            let mut mapping = Map::new();
            for v in variants {
                let name = variant_component(&t.name, &v.rust);
                let reference = format!("#/components/schemas/{name}");
                one_of.push(json!({ "$ref": reference }));
                mapping.insert(v.tag.clone(), json!(reference));
                let mut variant = Map::new();
                describe(&mut variant, v.doc.as_deref());
                provenance(&mut variant, Some(v.source), None, None);
                variant.insert("type".into(), json!("object"));
                let mut props = Map::new();
                props.insert(tag.clone(), json!({ "const": v.tag, "type": "string" }));
                let mut required = vec![json!(tag)];
                let content_ty = v.ty.as_deref().and_then(|t| Ty::parse(t).ok());
                match (content, content_ty) {
                    (Some(field), Some(ty)) => {
                        props.insert(field.clone(), ty_schema(&ty));
                        required.push(json!(field));
                    }
                    (None, Some(ty)) => {
                        // The content's fields sit beside the tag.
                        variant.insert("allOf".into(), json!([ty_schema(&ty)]));
                    }
                    (_, None) => {}
                }
                variant.insert("properties".into(), Value::Object(props));
                variant.insert("required".into(), Value::Array(required));
                out.insert(name, Value::Object(variant));
            }
            obj.insert("oneOf".into(), Value::Array(one_of));
            match dialect {
                Dialect::OpenApi => {
                    obj.insert(
                        "discriminator".into(),
                        json!({ "propertyName": tag, "mapping": mapping }),
                    );
                }
                Dialect::AsyncApi => {
                    obj.insert("discriminator".into(), json!(tag));
                }
            }
            obj.insert("x-open-union".into(), json!(true));
            obj.insert("x-tag".into(), json!(tag));
            if let Some(content) = content {
                obj.insert("x-content".into(), json!(content));
            }
        }
    }
    out.insert(t.name.clone(), Value::Object(obj));
}

/// Rules across fields: `exclusive` and `require_one` as JSON Schema (`not` + `required`,
/// `anyOf` + `required`, a field counting as set when present and not `null`), everything
/// (with its docs) in `x-rules`.
fn rules(t: &TypeInfo, obj: &mut Map<String, Value>) {
    if t.rules_as_written.is_empty() {
        return;
    }
    let mut all_of = Vec::new();
    for rule in &t.rules_as_written {
        if let Some(fields) = &rule.exclusive {
            let mut pairs = Vec::new();
            for (i, a) in fields.iter().enumerate() {
                for b in &fields[i + 1..] {
                    pairs.push(present(&[a, b]));
                }
            }
            let not = if pairs.len() == 1 {
                pairs.remove(0)
            } else {
                json!({ "anyOf": pairs })
            };
            let mut r = Map::new();
            describe(&mut r, rule.doc.as_deref());
            r.insert("not".into(), not);
            r.insert("x-rule".into(), json!("exclusive"));
            all_of.push(Value::Object(r));
        } else if let Some(fields) = &rule.require_one {
            let any: Vec<Value> = fields.iter().map(|f| present(&[f])).collect();
            let mut r = Map::new();
            describe(&mut r, rule.doc.as_deref());
            r.insert("anyOf".into(), Value::Array(any));
            r.insert("x-rule".into(), json!("require_one"));
            all_of.push(Value::Object(r));
        }
    }
    if !all_of.is_empty() {
        obj.insert("allOf".into(), Value::Array(all_of));
    }
    obj.insert(
        "x-rules".into(),
        serde_json::to_value(&t.rules_as_written).unwrap_or(Value::Null),
    );
}

/// Names of the types reachable from `roots`, through fields, variants and type expressions.
pub(crate) fn reachable(service: &Service, roots: &[Ty]) -> std::collections::BTreeSet<String> {
    let mut seen = std::collections::BTreeSet::new();
    let mut stack: Vec<Ty> = roots.to_vec();
    while let Some(ty) = stack.pop() {
        match ty {
            Ty::Named(name) => {
                if !seen.insert(name.clone()) {
                    continue;
                }
                let Some(t) = service.types.iter().find(|t| t.name == name) else {
                    continue;
                };
                match &t.kind {
                    TypeKind::Object(fields) => stack.extend(fields.iter().map(|f| f.ty.clone())),
                    TypeKind::Enum(_) => {}
                    TypeKind::Union { variants, .. } | TypeKind::Untagged { variants } => stack
                        .extend(
                            variants
                                .iter()
                                .filter_map(|v| v.ty.as_deref().and_then(|t| Ty::parse(t).ok())),
                        ),
                }
            }
            Ty::List(t) | Ty::Map(t) | Ty::Page(t) => stack.push(*t),
            _ => {}
        }
    }
    seen
}
