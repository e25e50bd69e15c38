//! JSON Schema (as OpenAPI embeds it) to spec types: `$ref`s (local, cycles included),
//! `allOf` merged into one object, `oneOf`/`anyOf` with a discriminator as tagged unions,
//! nullability, maps, open enums, formats and constraints. What the spec language cannot say
//! is typed as `json` or left out, and reported with its pointer.

mod all_of;
mod either;
mod enums;
mod limits;
pub(crate) use limits::{default_in_words, default_of, param_format, param_ty};
pub(crate) use limits::{pattern, rfc3339_like, scalar_target};
pub(crate) mod names;
mod unions;

pub(crate) use names::type_name;

use std::collections::BTreeSet;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::document::{escape, resolve, unescape};
use super::{Converter, FieldOut, TypeOut, VariantOut};
use crate::names::{is_pascal, pascal};

/// Deepest nesting of inline schemas followed before a schema is typed as `json`.
pub(crate) const MAX_SCHEMA_DEPTH: usize = 32;

/// Most components built inside one another (a component whose field is another component,
/// and so on, or a chain of `$ref`s from component to component) before the next is typed as
/// `json` and reported: each level costs stack, and a hostile document can chain thousands.
pub(crate) const MAX_COMPONENT_NESTING: usize = 100;

const COMPONENT_PREFIX: &str = "#/components/schemas/";

/// A schema with its `null` alternative taken off, and whether there was one.
pub(crate) fn unwrap_nullable(schema: &Value) -> (Value, bool) {
    let mut s = schema.clone();
    // Swagger 2.0 has no `nullable`: its documents say `x-nullable` (Textmagic's 96 fields).
    let mut nullable = ["nullable", "x-nullable"]
        .iter()
        .any(|k| s.get(k).and_then(Value::as_bool) == Some(true));
    if let Some(obj) = s.as_object_mut() {
        obj.remove("nullable");
        obj.remove("x-nullable");
        if let Some(Value::Array(types)) = obj.get("type").cloned() {
            let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
            nullable |= rest.len() < types.len();
            match rest.len() {
                0 => {
                    obj.remove("type");
                }
                1 => {
                    obj.insert("type".into(), rest[0].clone());
                }
                _ => {
                    obj.insert("type".into(), Value::Array(rest));
                }
            }
        }
        misplaced_enum(obj);
        // `enum: [a, b, null]` (3.1's nullable enum): `null` is the absent value, not a member.
        if let Some(Value::Array(values)) = obj.get("enum").cloned()
            && values.iter().any(Value::is_null)
        {
            nullable = true;
            let rest: Vec<Value> = values.into_iter().filter(|v| !v.is_null()).collect();
            if rest.is_empty() {
                obj.remove("enum");
            } else {
                obj.insert("enum".into(), Value::Array(rest));
            }
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(members)) = obj.get(key).cloned() {
                // A member that takes `null` itself makes the whole nullable (Mailtrap's custom
                // field value: `oneOf [{type: string, nullable: true}, number, boolean]`; the
                // `null` a client sends to clear it was refused).
                nullable |= members
                    .iter()
                    .any(|m| m.get("$ref").is_none() && unwrap_nullable(m).1);
                let rest: Vec<Value> = members.iter().filter(|m| !is_null(m)).cloned().collect();
                if rest.len() < members.len() {
                    nullable = true;
                    if rest.len() == 1 && obj.get("discriminator").is_none() {
                        obj.remove(key);
                        let only = rest[0].clone();
                        // The one alternative, with this schema's docs kept.
                        let mut merged = only.as_object().cloned().unwrap_or_default();
                        for (k, v) in obj.iter() {
                            if !merged.contains_key(k) && k != "type" {
                                merged.insert(k.clone(), v.clone());
                            }
                        }
                        return (Value::Object(merged), true);
                    }
                    obj.insert(key.into(), Value::Array(rest));
                }
            }
        }
    }
    (s, nullable)
}

/// What a string `enum` beside `type: array` or `type: object` means, if it is there: no array
/// or object equals a string, so the enum cannot be the value's own.
fn enum_misplaced(obj: &Map<String, Value>) -> Option<&'static str> {
    let strings = obj
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|v| !v.is_empty() && v.iter().all(Value::is_string));
    match obj.get("type").and_then(Value::as_str) {
        Some("array") if strings => Some(
            "an `enum` of strings on an array is its items' (the array's own enum cannot hold); read as the items' enum",
        ),
        Some("object") if strings && obj.contains_key("properties") => Some(
            "an `enum` of strings on an object with properties (no object equals a string): read as a map keyed by those names whose values have the properties (how a map keyed by an enum is written by some generators); the keys are not checked against the names",
        ),
        Some("object") if strings => {
            Some("an `enum` of strings on an object (no object equals a string) is dropped")
        }
        _ => None,
    }
}

/// Puts a string `enum` written beside `type: array` or `type: object` where it can hold (see
/// [`enum_misplaced`]): on the items, or on a map's keys (which the spec language leaves
/// unchecked).
fn misplaced_enum(obj: &mut Map<String, Value>) {
    if enum_misplaced(obj).is_none() {
        return;
    }
    let Some(values) = obj.remove("enum") else {
        return;
    };
    match obj.get("type").and_then(Value::as_str) {
        Some("array") => {
            if let Some(items) = obj.get_mut("items").and_then(Value::as_object_mut)
                && !items.contains_key("enum")
                && !items.contains_key("$ref")
            {
                items.insert("enum".into(), values);
            }
        }
        _ => {
            let mut value = Map::new();
            value.insert("type".into(), Value::String("object".into()));
            for key in ["properties", "required", "additionalProperties"] {
                if let Some(v) = obj.remove(key) {
                    value.insert(key.into(), v);
                }
            }
            if value.contains_key("properties") {
                obj.insert("additionalProperties".into(), Value::Object(value));
            }
        }
    }
}

fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
        || schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.len() == 1 && e[0].is_null())
}

/// The component name a reference names, if it points at a whole component schema.
pub(crate) fn component_of(reference: &str) -> Option<String> {
    let rest = reference.strip_prefix(COMPONENT_PREFIX)?;
    (!rest.contains('/')).then(|| unescape(rest))
}

impl Converter<'_> {
    /// The type expression of a schema; `hint` names inline objects, enums and unions.
    pub(crate) fn ty(
        &mut self,
        schema: &Value,
        ptr: &str,
        hint: &str,
        depth: usize,
    ) -> Result<String, String> {
        if depth > MAX_SCHEMA_DEPTH {
            self.approximate(ptr, "schema nested too deeply; typed as json");
            return Ok("json".into());
        }
        if let Some(why) = schema.as_object().and_then(enum_misplaced) {
            self.approximate(ptr, why);
        }
        let (s, _) = unwrap_nullable(schema);
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            return self.reference(r, ptr, hint, depth);
        }
        if !s.is_object() {
            // `true` / `false` schemas.
            return Ok("json".into());
        }
        if let Some(Value::Array(all)) = s.get("allOf") {
            let has_props = s.get("properties").is_some();
            if all.len() == 1 && !has_props {
                // Values beside it narrow it (Discord's `enum: [1], allOf: [WebhookTypes]`).
                if let Some(v) = s.get("enum").or_else(|| s.get("const")) {
                    let why = format!("values {v} beside `allOf` not kept: typed as its schema");
                    self.approximate(ptr, &why);
                }
                return self.ty(&all[0], &format!("{ptr}/allOf/0"), hint, depth + 1);
            }
            return self.object(hint, &s, ptr, depth);
        }
        if let Some(values) = open_enum_values(&s) {
            let mut e = s.clone();
            if let Some(obj) = e.as_object_mut() {
                obj.remove("anyOf");
                obj.remove("oneOf");
                obj.insert("enum".into(), values);
            }
            return Ok(self.enum_type(hint, &e, ptr));
        }
        // Alternatives that only say which of the object's own fields are required
        // (Intercom's contact: `anyOf: [{required: [email]}, {required: [external_id]}, ...]`
        // beside its 12 properties): the object, its properties kept, each optional. Read as
        // a union, every property was dropped.
        let mut s = s;
        if let Some(note) = unions::required_only_alternatives(&s) {
            self.approximate(ptr, &note);
            if let Some(o) = s.as_object_mut() {
                o.remove("anyOf");
                o.remove("oneOf");
            }
        }
        // Properties beside alternatives belong to every alternative.
        let s = unions::properties_into_alternatives(&s).unwrap_or(s);
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(members)) = s.get(key) {
                return self.alternatives(key, members, &s, ptr, hint, depth);
            }
        }
        let numeric = matches!(
            s.get("type").and_then(Value::as_str),
            Some("integer" | "number")
        );
        if let Some(Value::Array(values)) = s.get("enum")
            && !values.is_empty()
        {
            let shown: Vec<String> = values.iter().take(8).map(Value::to_string).collect();
            if values.iter().all(Value::is_string) && !numeric {
                return Ok(self.enum_type(hint, &s, ptr));
            }
            // A number's values (Stream's `layers: [1, 2]`), or text values on a number
            // (its `channels: ["1", "2"]`): the wire type is kept, the values are not.
            let construct = if values.iter().all(Value::is_boolean) {
                "enum of booleans"
            } else {
                "enum of numbers"
            };
            self.approximate(
                ptr,
                &format!(
                    "the allowed values {} are not kept (needs spec construct: {construct}); \
                     typed as its JSON type",
                    shown.join(", ")
                ),
            );
        }
        if let Some(c) = s.get("const")
            && c.is_string()
        {
            return Ok("string".into());
        }
        // A draft-4 tuple `items` with no `type` (Slack's `objs_conversation`: `items: [{...},
        // {...}]`) constrains arrays only, and the document's examples are objects: one of the
        // listed schemas is what it means.
        if s.get("type").is_none()
            && let Some(Value::Array(members)) = s.get("items")
            && !members.is_empty()
        {
            self.approximate(
                ptr,
                "`items` lists schemas and no `type` says array (a draft-4 tuple): read as one of them, as the document's examples are",
            );
            let mut one_of = s.clone();
            if let Some(o) = one_of.as_object_mut() {
                o.remove("items");
                o.insert("oneOf".into(), Value::Array(members.clone()));
            }
            return self.ty(&one_of, ptr, hint, depth + 1);
        }
        let ty = match s.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(_)) => {
                self.approximate(ptr, "a value of several JSON types: needs spec construct: untagged union; typed as json");
                return Ok("json".into());
            }
            _ if s.get("properties").is_some() || s.get("additionalProperties").is_some() => {
                "object"
            }
            _ if s.get("items").is_some() => "array",
            _ => return Ok("json".into()),
        };
        Ok(match ty {
            "string" => match s.get("format").and_then(Value::as_str) {
                Some("date-time") => "datetime".into(),
                // A date whose own example is a date-time (Vonage's reports: `format: date`,
                // `2017-12-01T00:00:00+00:00`, "yyyy-mm-ddThh:mm:ss±hh:mm"): what the wire
                // carries is the example's; typed `date`, every documented value was refused.
                Some("date") if example_is_a_date_time(&s) => {
                    self.approximate(
                        ptr,
                        "format `date` with a date-time example: typed as a date-time, as the example is written",
                    );
                    "datetime".into()
                }
                Some("date") => "date".into(),
                Some("date-time-rfc-2822") => "datetime".into(),
                Some("binary") if self.bytes_fields && depth == 1 => "bytes".into(),
                _ => "string".into(),
            },
            "integer" | "number" if limits::is_unix_time(&s) => "datetime".into(),
            "integer" => "integer".into(),
            // A number whose format says integer (Postmark's `TemplateId`) is one, not `f64`.
            "number" => match s.get("format").and_then(Value::as_str) {
                Some("int" | "integer" | "int32" | "int64") => "integer".into(),
                Some(time @ ("date-time" | "date")) => {
                    // Stream writes 488 fields so: the type and the format disagree, and the
                    // type is what the wire is checked against.
                    self.approximate(
                        ptr,
                        &format!(
                            "a number with format `{time}`: typed as a number, as its type says"
                        ),
                    );
                    "number".into()
                }
                _ => "number".into(),
            },
            "boolean" => "boolean".into(),
            "array" => {
                let items = s.get("items");
                // A multipart field of several files (Mailgun's `attachment`: an array of
                // `format: binary` strings): a file part per item.
                let files = self.bytes_fields
                    && depth == 1
                    && items.is_some_and(|i| {
                        i.get("type").and_then(Value::as_str) == Some("string")
                            && i.get("format").and_then(Value::as_str) == Some("binary")
                    });
                let inner = match items {
                    Some(_) if files => "bytes".into(),
                    Some(items) => self.ty(
                        items,
                        &format!("{ptr}/items"),
                        &format!("{hint}Item"),
                        depth + 1,
                    )?,
                    None => "json".into(),
                };
                format!("list<{inner}>")
            }
            "object" => {
                let props = s.get("properties").and_then(Value::as_object);
                // `properties: {}` says "an object with no fields" only when other keys are
                // refused (`additionalProperties: false`); otherwise it is free-form.
                let closed_empty = props.is_some_and(serde_json::Map::is_empty)
                    && s.get("additionalProperties") == Some(&Value::Bool(false));
                if props.is_some_and(|p| !p.is_empty()) || closed_empty {
                    return self.object(hint, &s, ptr, depth);
                }
                match s.get("additionalProperties") {
                    Some(ap) if ap.is_object() && ap.as_object().is_some_and(|m| !m.is_empty()) => {
                        let inner = self.ty(
                            ap,
                            &format!("{ptr}/additionalProperties"),
                            &format!("{hint}Value"),
                            depth + 1,
                        )?;
                        format!("map<{inner}>")
                    }
                    _ => "json".into(),
                }
            }
            "null" => {
                // Only `null` (Mandrill's `auto_html`, a yes or no in its description): what
                // the field holds is not said, so it takes any JSON.
                self.approximate(ptr, "a schema of type `null` alone; typed as json");
                "json".into()
            }
            "file" => {
                return Err(
                    "a file (Swagger `type: file`): needs spec construct: binary body".into(),
                );
            }
            other => {
                self.approximate(ptr, &format!("unknown JSON type `{other}`; typed as json"));
                "json".into()
            }
        })
    }

    fn reference(
        &mut self,
        r: &str,
        ptr: &str,
        hint: &str,
        depth: usize,
    ) -> Result<String, String> {
        if let Some(name) = component_of(r) {
            return self.component(&name);
        }
        if !r.starts_with('#') {
            return Err(format!("external $ref `{r}` not followed"));
        }
        let Some(target) = resolve(self.doc, r) else {
            return Err(format!("$ref `{r}` points at nothing"));
        };
        let target = target.clone();
        self.ty(&target, r.trim_start_matches('#'), hint, depth + 1)
            .map_err(|e| format!("{e} (through `{r}` at {ptr})"))
    }

    /// The type expression of a component schema: a named type for objects, enums and unions,
    /// the aliased expression otherwise. Cycles through references end at the named type.
    pub(crate) fn component(&mut self, raw: &str) -> Result<String, String> {
        if let Some(t) = self.memo.get(raw) {
            return Ok(t.clone());
        }
        let ptr = format!("/components/schemas/{}", escape(raw));
        let Some(schema) = self
            .doc
            .get("components")
            .and_then(|c| c.get("schemas"))
            .and_then(|s| s.get(raw))
            .cloned()
        else {
            return Err(format!("$ref to the missing schema `{raw}`"));
        };
        if self.in_progress.contains(raw) {
            self.approximate(&ptr, "a $ref that leads back to itself; typed as json");
            return Ok("json".into());
        }
        if self.in_progress.len() >= MAX_COMPONENT_NESTING {
            self.approximate(
                &ptr,
                &format!("components nest (through $refs) more than {MAX_COMPONENT_NESTING} deep; typed as json"),
            );
            return Ok("json".into());
        }
        let name = self.component_name(raw);
        if let Some(members) = self.subtypes(raw, &schema) {
            return self.inheritance(raw, &name, &schema, &members, &ptr);
        }
        if self.is_named_shape(&schema) {
            self.memo.insert(raw.to_owned(), name.clone());
            self.in_progress.insert(raw.to_owned());
            let outer = self.claim.replace(name.clone());
            let result = self.ty(&schema, &ptr, &name, 0);
            self.claim = outer;
            self.in_progress.remove(raw);
            match result {
                Ok(t) if t == name => Ok(name),
                Ok(other) => {
                    // The shape turned out not to need a type of its own (an empty enum...).
                    self.memo.insert(raw.to_owned(), other.clone());
                    Ok(other)
                }
                Err(e) => {
                    self.memo.remove(raw);
                    Err(e)
                }
            }
        } else {
            self.in_progress.insert(raw.to_owned());
            // A type it may still make (an untagged union) takes the component's own name.
            let outer = self.claim.replace(name.clone());
            let result = self.ty(&schema, &ptr, &name, 0);
            self.claim = outer;
            self.in_progress.remove(raw);
            let t = result?;
            self.memo.insert(raw.to_owned(), t.clone());
            Ok(t)
        }
    }

    /// The subtypes of a base schema that holds a discriminator but no `oneOf`/`anyOf`
    /// (inheritance: each subtype is `allOf: [base, ...]`): the components its
    /// `discriminator.mapping` names, else every component whose `allOf` refers to it.
    fn subtypes(&self, raw: &str, schema: &Value) -> Option<Vec<Value>> {
        let (s, _) = unwrap_nullable(schema);
        let discriminator = s.get("discriminator")?;
        if s.get("oneOf").is_some() || s.get("anyOf").is_some() {
            return None;
        }
        let base_ref = format!("{COMPONENT_PREFIX}{}", escape(raw));
        let mut members: Vec<Value> = Vec::new();
        if let Some(mapping) = discriminator.get("mapping").and_then(Value::as_object) {
            for target in mapping.values().filter_map(Value::as_str) {
                let r = if target.starts_with('#') {
                    target.to_owned()
                } else {
                    format!("{COMPONENT_PREFIX}{}", escape(target))
                };
                if r != base_ref {
                    members.push(serde_json::json!({ "$ref": r }));
                }
            }
        } else {
            let schemas = self
                .doc
                .get("components")
                .and_then(|c| c.get("schemas"))
                .and_then(Value::as_object)?;
            for (name, sub) in schemas {
                let refers = sub
                    .get("allOf")
                    .and_then(Value::as_array)
                    .is_some_and(|all| {
                        all.iter()
                            .any(|m| m.get("$ref").and_then(Value::as_str) == Some(&base_ref))
                    });
                if refers && name != raw {
                    members.push(serde_json::json!({
                        "$ref": format!("{COMPONENT_PREFIX}{}", escape(name))
                    }));
                }
            }
        }
        (!members.is_empty()).then_some(members)
    }

    /// A base schema with a discriminator and subtypes that extend it: a tagged union of the
    /// subtypes, each carrying the base's fields and its own (the base alone would hold only
    /// the shared fields and drop the rest).
    fn inheritance(
        &mut self,
        raw: &str,
        name: &str,
        schema: &Value,
        members: &[Value],
        ptr: &str,
    ) -> Result<String, String> {
        let (s, _) = unwrap_nullable(schema);
        let Some(tag) = s
            .get("discriminator")
            .and_then(|d| d.get("propertyName").or(Some(d)))
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            return Err("a discriminator without `propertyName`".into());
        };
        self.memo.insert(raw.to_owned(), name.to_owned());
        self.in_progress.insert(raw.to_owned());
        let mut union_schema = s.clone();
        if let Some(obj) = union_schema.as_object_mut() {
            obj.insert("oneOf".into(), Value::Array(members.to_vec()));
        }
        let outer = self.claim.replace(name.to_owned());
        let result = self.union(name, &tag, members, &union_schema, ptr, 0);
        self.claim = outer;
        self.in_progress.remove(raw);
        match result {
            Ok(t) => Ok(t),
            Err(reason) => {
                // Not a union after all: the base as a plain object, reported.
                self.approximate(
                    ptr,
                    &format!("discriminator on a base schema whose subtypes are not mappable ({reason}); imported as a plain object"),
                );
                let outer = self.claim.replace(name.to_owned());
                self.in_progress.insert(raw.to_owned());
                let t = self.object(name, &s, ptr, 0);
                self.in_progress.remove(raw);
                self.claim = outer;
                t
            }
        }
    }

    /// Whether a schema becomes a named type (object, enum, union) rather than an alias.
    fn is_named_shape(&self, schema: &Value) -> bool {
        let (s, _) = unwrap_nullable(schema);
        if s.get("$ref").is_some() {
            return false;
        }
        if let Some(Value::Array(all)) = s.get("allOf") {
            return all.len() > 1 || s.get("properties").is_some();
        }
        if s.get("discriminator").is_some()
            && (s.get("oneOf").is_some() || s.get("anyOf").is_some())
        {
            return true;
        }
        if open_enum_values(&s).is_some() {
            return true;
        }
        if s.get("oneOf").is_some() || s.get("anyOf").is_some() {
            return false;
        }
        if s.get("enum")
            .and_then(Value::as_array)
            .is_some_and(|v| !v.is_empty() && v.iter().all(Value::is_string))
        {
            return true;
        }
        let closed = s.get("additionalProperties") == Some(&Value::Bool(false));
        s.get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty() || closed)
    }

    /// An object type named from `hint`, its fields from the schema (and its `allOf`).
    fn object(
        &mut self,
        hint: &str,
        schema: &Value,
        ptr: &str,
        depth: usize,
    ) -> Result<String, String> {
        let name = self.inline_name(hint);
        // Reserve the name before the fields, so a field that refers back finds it.
        self.types.insert(name.clone(), TypeOut::Pending);
        let mut props = IndexMap::new();
        let mut required = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let outer_alternatives = std::mem::take(&mut self.alternatives_in_all_of);
        self.collect(schema, ptr, &mut props, &mut required, 0, &mut seen);
        self.drop_sent_fields(ptr, &mut props);
        let keep_other_keys =
            std::mem::replace(&mut self.alternatives_in_all_of, outer_alternatives);
        if schema.get("discriminator").is_some()
            && schema.get("oneOf").is_none()
            && schema.get("anyOf").is_none()
        {
            self.approximate(ptr, "discriminator on a base schema (allOf inheritance): needs spec construct: inheritance; imported as a plain object");
        }
        let mut fields = Vec::new();
        // `new` is the generated constructor; the setters are named after the fields.
        let mut rust_names: BTreeSet<String> = BTreeSet::from(["new".to_owned()]);
        for (wire, (pschema, pptr)) in &props {
            let rename = super::rust_rename(wire, &mut rust_names);
            if let Some(r) = &rename {
                self.approximate(
                    pptr,
                    &format!("renamed: `{wire}` has no Rust name of its own; `rust_name: {r}`"),
                );
            }
            let field_hint = format!("{name}{}", type_name(wire));
            match self.ty(pschema, pptr, &field_hint, depth + 1) {
                Ok(ty) => {
                    let mut f = self.field(wire, ty, pschema, pptr, required.contains(wire));
                    f.rust_name = rename;
                    fields.push(f);
                }
                Err(reason) => self.skip(pptr, "field type not mappable", Some(&reason)),
            }
        }
        let either = either::either_of(&mut fields);
        for [a, b] in &either {
            self.approximate(
                ptr,
                &format!("`{a}` and `{b}` are each required if the other is not given: both optional, one required (`require_one`)"),
            );
        }
        let mut additional = self.additional(schema, ptr, &name, &mut fields, depth)?;
        if keep_other_keys && additional.is_none() {
            additional = Some("json".to_owned());
            for f in &mut fields {
                if f.rust_name.is_none()
                    && crate::names::snake(&f.wire) == crate::resolved::ADDITIONAL_FIELD
                {
                    f.rust_name = Some("additional_field".to_owned());
                }
            }
        }
        let doc = description(schema);
        // Other keys the document invites (not only allows by saying nothing) are the
        // service's to keep and answer back.
        let invited = matches!(
            unwrap_nullable(schema).0.get("additionalProperties"),
            Some(Value::Bool(true) | Value::Object(_))
        );
        self.types.insert(
            name.clone(),
            TypeOut::Object {
                doc,
                fields,
                keeps_other_keys: invited && additional.is_some(),
                additional,
                either,
                pointer: ptr.to_owned(),
            },
        );
        Ok(name)
    }

    /// The type of an object's keys besides its properties: `additionalProperties` as a
    /// schema (typed), `true` or `{}` (`json`), absent or `false` (none: the declared fields
    /// are the object; other keys are not described). A field whose Rust name would be
    /// `additional`, the map's, is renamed.
    fn additional(
        &mut self,
        schema: &Value,
        ptr: &str,
        name: &str,
        fields: &mut [FieldOut],
        depth: usize,
    ) -> Result<Option<String>, String> {
        let (s, _) = unwrap_nullable(schema);
        let ty = match s.get("additionalProperties") {
            Some(Value::Bool(true)) => "json".to_owned(),
            Some(Value::Object(m)) if m.is_empty() => "json".to_owned(),
            Some(ap @ Value::Object(_)) => {
                let aptr = format!("{ptr}/additionalProperties");
                match self.ty(ap, &aptr, &format!("{name}Value"), depth + 1) {
                    Ok(t) => t,
                    Err(reason) => {
                        self.approximate(&aptr, &format!("other keys typed as json ({reason})"));
                        "json".to_owned()
                    }
                }
            }
            None if self.keep_undeclared_keys => "json".to_owned(),
            _ => return Ok(None),
        };
        for f in fields.iter_mut() {
            let rust = f
                .rust_name
                .clone()
                .unwrap_or_else(|| crate::names::snake(&f.wire));
            if rust == crate::resolved::ADDITIONAL_FIELD {
                f.rust_name = Some(format!("{rust}_field"));
            }
        }
        Ok(Some(ty))
    }

    /// A field: its type, whether it must be present, its format and constraints.
    pub(crate) fn field(
        &mut self,
        wire: &str,
        ty: String,
        schema: &Value,
        ptr: &str,
        required: bool,
    ) -> FieldOut {
        let (s, nullable) = unwrap_nullable(schema);
        let s = limits::scalar_target(self.doc, &s).unwrap_or(s);
        let flag = |k: &str| s.get(k).and_then(Value::as_bool) == Some(true);
        // A field sent one way only is present one way only: required in neither (a create
        // does not send the `id` the service sets; an answer does not carry a password). Our
        // own exports (`x-source` on each field) mean `required` as the spec wrote it.
        let one_way = (flag("readOnly") || flag("writeOnly")) && s.get("x-source").is_none();
        // Required but nullable (Novu's `next: null` on a list's last page): always present,
        // `null` allowed. A `json` field holds `null` as one of its values already.
        let mut f = FieldOut {
            wire: wire.to_owned(),
            required: required && !one_way,
            // Written only where it ends up required (a one-way field in the types of its way).
            nullable: required && nullable && ty != "json",
            read_only: flag("readOnly"),
            write_only: flag("writeOnly"),
            required_in_answers: required && one_way && flag("readOnly"),
            required_in_requests: required && one_way && flag("writeOnly"),
            doc: description(&s),
            ..FieldOut::new(ty)
        };
        if flag("writeOnly") {
            let note = "Write-only: the service does not send it back.";
            f.doc = Some(match f.doc.take() {
                Some(d) => format!("{d}\n\n{note}"),
                None => note.to_owned(),
            });
        }
        // A `date-time` the document's own example writes another way (Mandrill's
        // `"2020-06-01 08:15:01"`, no offset) is that text: as RFC 3339 the sandbox would
        // refuse the document's example, and a client could not send it.
        if f.ty == "datetime"
            && s.get("format").and_then(Value::as_str) == Some("date-time")
            && let Some(example) = s
                .get("example")
                .and_then(Value::as_str)
                .filter(|e| !limits::rfc3339_like(e))
        {
            self.approximate(
                ptr,
                &format!("its example `{example}` is not an RFC 3339 date-time: typed as text"),
            );
            f.ty = "string".into();
        }
        limits::constraints(&mut f, &s, ptr, self);
        f.default = limits::default_of(&s, &f.ty, self, ptr);
        f.example = limits::text_example(&s, &f.ty)
            .or_else(|| limits::first_listed_state(&s, &f.wire, &f.ty));
        f
    }
}

/// The known values of an open string enum written as `anyOf: [{enum: [...]}, {...}]` (how
/// our exports and others say "these values, or any other string").
fn open_enum_values(s: &Value) -> Option<Value> {
    if s.get("type").and_then(Value::as_str) != Some("string") {
        return None;
    }
    let members = s.get("anyOf").or_else(|| s.get("oneOf"))?.as_array()?;
    let mut values = None;
    for m in members {
        match m.get("enum").and_then(Value::as_array) {
            Some(e) if e.iter().all(Value::is_string) && values.is_none() => {
                values = Some(Value::Array(e.clone()));
            }
            // Any other member must accept any string.
            None if m.get("$ref").is_none()
                && m.get("type").is_none_or(|t| t == "string")
                && m.get("format").is_none() => {}
            _ => return None,
        }
    }
    values
}

/// A schema's docs: `title` and `description`, trimmed.
pub(crate) fn description(s: &Value) -> Option<String> {
    let d = s
        .get("description")
        .and_then(Value::as_str)
        .or_else(|| s.get("title").and_then(Value::as_str))?
        .trim();
    (!d.is_empty()).then(|| d.to_owned())
}

/// Whether a schema says anything of what its value is (a type, a reference, its values,
/// its members or items), not only notes about it (`{}`, a description, an example).
fn says_what_it_is(schema: &Value) -> bool {
    const SAYS: &[&str] = &[
        "type",
        "$ref",
        "enum",
        "const",
        "format",
        "properties",
        "additionalProperties",
        "items",
        "allOf",
        "oneOf",
        "anyOf",
        "not",
        "pattern",
        "nullable",
    ];
    schema
        .as_object()
        .is_some_and(|o| SAYS.iter().any(|k| o.contains_key(*k)))
}

/// Whether a schema's own example (`example`, or the first of `examples`) is a date and a time
/// (`2017-12-01T00:00:00+00:00`), not a date alone.
fn example_is_a_date_time(schema: &Value) -> bool {
    let example = schema
        .get("example")
        .or_else(|| schema.get("examples")?.get(0));
    example.and_then(Value::as_str).is_some_and(|text| {
        let bytes = text.as_bytes();
        bytes.len() > 16
            && bytes[..10].iter().enumerate().all(|(i, b)| match i {
                4 | 7 => *b == b'-',
                _ => b.is_ascii_digit(),
            })
            && matches!(bytes[10], b'T' | b't' | b' ')
            && bytes[11].is_ascii_digit()
    })
}
