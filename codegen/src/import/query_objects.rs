//! The parameters an operation keeps, and an object query parameter as the query parameters its
//! style writes (`?status=sent`, `?filter[name]=x`, `?filter[address_book][eq]=x`).

use serde_json::{Map, Value};

use super::Converter;
use super::document::{deref, escape};

/// A parameter an operation keeps, read after its place is known.
pub(super) struct Kept {
    /// The parameter (OpenAPI 3 shape; an object's property as a parameter of its own).
    pub(super) param: Value,
    /// Its pointer.
    pub(super) at: String,
    /// Its schema's pointer (the property's own for an object's property).
    pub(super) schema_at: String,
    /// Its wire name.
    pub(super) name: String,
    /// `path`, `query` or `header`.
    pub(super) place: String,
    pub(super) required: bool,
}

impl Kept {
    /// A parameter as the document writes it, its schema under its `schema`.
    pub(super) fn new(param: Value, at: String, name: String, place: &str, required: bool) -> Self {
        Kept {
            param,
            schema_at: format!("{at}/schema"),
            at,
            name,
            place: place.to_owned(),
            required,
        }
    }
}

impl Converter<'_> {
    /// Drops the types made since the `made_from`th, those of a parameter left out or sent as
    /// text (Telnyx's `filter[address_book]`, an object of operators): no operation would name
    /// them. Kept when one of them is a component, which another item may name.
    pub(super) fn forget_types_since(&mut self, made_from: usize) {
        let components: std::collections::HashSet<&String> = self.memo.values().collect();
        if self
            .types
            .keys()
            .skip(made_from)
            .any(|name| components.contains(name))
        {
            return;
        }
        self.types.truncate(made_from);
    }
}

/// An object query parameter as the query parameters its style writes (OpenAPI's default
/// `form` with `explode`: `?status=sent&from=2026-01-01`; `deepObject`:
/// `?filter[status]=sent`): one parameter per property, required when the object is and the
/// property is, each with the property's schema and pointer. `None` for anything else (a
/// free-form object, another style, a property named twice), which is skipped as before.
pub(super) fn object_query_properties(
    doc: &Value,
    p: &Value,
    at: &str,
    pname: &str,
    required: bool,
) -> Option<Vec<(Value, String, String, bool)>> {
    let (schema, sat) = deref(doc, p.get("schema")?, &format!("{at}/schema"))?;
    let properties = schema.get("properties")?.as_object()?;
    if properties.is_empty() || schema.get("type").is_some_and(|t| t != "object") {
        return None;
    }
    let style = p.get("style").and_then(Value::as_str).unwrap_or("form");
    let explode = p.get("explode").and_then(Value::as_bool);
    let deep = match style {
        "form" if explode != Some(false) => false,
        "deepObject" => true,
        _ => return None,
    };
    let needed: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out: Vec<(Value, String, String, bool)> = Vec::with_capacity(properties.len());
    let mut push = |wire: String, prop: &Value, pat: String, prop_required: bool| {
        if out.iter().any(|(_, _, w, _)| *w == wire) {
            return false;
        }
        let mut param = Map::new();
        param.insert("name".into(), Value::String(wire.clone()));
        param.insert("in".into(), Value::String("query".into()));
        param.insert("required".into(), Value::Bool(prop_required));
        param.insert("schema".into(), prop.clone());
        if let Some(doc_text) = prop.get("description").or_else(|| p.get("description")) {
            param.insert("description".into(), doc_text.clone());
        }
        out.push((Value::Object(param), pat, wire, prop_required));
        true
    };
    for (name, prop) in properties {
        let prop_required = required && needed.contains(&name.as_str());
        let pat = format!(
            "{}/properties/{}",
            sat.trim_start_matches('#'),
            escape(name)
        );
        // A `deepObject` property that is an object of plain values (Telnyx's
        // `filter[address_book][eq]`, operators of one filter): one parameter per value.
        let operators = deep
            .then(|| deref(doc, prop, &pat))
            .flatten()
            .and_then(|(inner, inner_at)| Some((scalar_properties(doc, inner)?, inner_at)));
        if let Some((subs, inner_at)) = operators {
            for (sub, sub_schema) in subs {
                let wire = format!("{pname}[{name}][{sub}]");
                let at = format!(
                    "{}/properties/{}",
                    inner_at.trim_start_matches('#'),
                    escape(sub)
                );
                if !push(wire, sub_schema, at, false) {
                    return None;
                }
            }
            continue;
        }
        let wire = if deep {
            format!("{pname}[{name}]")
        } else {
            name.clone()
        };
        if !push(wire, prop, pat, prop_required) {
            return None;
        }
    }
    Some(out)
}

/// The properties of an object schema whose every property is a plain value (text, a number,
/// a boolean, an enum of them, or a list of them); `None` for anything else.
fn scalar_properties<'d>(
    doc: &'d Value,
    schema: &'d Value,
) -> Option<Vec<(&'d String, &'d Value)>> {
    let properties = schema.get("properties")?.as_object()?;
    let plain = |s: &Value| {
        let s = match s.get("$ref").and_then(Value::as_str) {
            Some(r) => super::document::resolve(doc, r),
            None => Some(s),
        };
        let kind = |s: &Value| {
            matches!(
                s.get("type").and_then(Value::as_str),
                Some("string" | "integer" | "number" | "boolean")
            )
        };
        s.is_some_and(|s| {
            kind(s)
                || (s.get("type").and_then(Value::as_str) == Some("array")
                    && s.get("items").is_some_and(kind))
        })
    };
    (!properties.is_empty() && properties.values().all(plain)).then(|| properties.iter().collect())
}
