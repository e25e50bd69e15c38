//! A form's fields, all text on the wire, read as the body type types them.

use serde_json::Value;

use crate::server::resources::{ServiceSchema, ShapeSchema, Ty};

/// A form's fields (all text) as the body type's fields are typed: numbers and booleans
/// parsed, nested objects and lists followed; text that does not parse stays text, for the
/// validation to name it.
pub(super) fn typed_fields(schema: &ServiceSchema, ty: Option<&Ty>, value: Value) -> Value {
    let Some(ty) = ty else { return value };
    match (ty, value) {
        // A form has no null: an empty or `null` value of a non-text field is none.
        (Ty::Integer | Ty::Number | Ty::Boolean, Value::String(text))
            if text.is_empty() || text == "null" =>
        {
            Value::Null
        }
        // Nor an object: an empty or `null` value where an object goes is none (Mailgun's
        // `email_preview=null`).
        (Ty::Named(name), Value::String(text))
            if (text.is_empty() || text == "null")
                && matches!(
                    schema.named(name).map(|t| t.shape),
                    Some(ShapeSchema::Object(_) | ShapeSchema::Union { .. })
                ) =>
        {
            Value::Null
        }
        // A map likewise (Infobip's template preview `placeholders=null`).
        (Ty::Map(_), Value::String(text)) if text.is_empty() || text == "null" => Value::Null,
        // A JSON part sent without its `application/json` type (curl, schemathesis): where an
        // object or a map goes, text that is a JSON object is that object.
        (Ty::Map(_) | Ty::Named(_), Value::String(text))
            if text.trim_start().starts_with('{') && takes_object(schema, ty) =>
        {
            match serde_json::from_str::<Value>(&text) {
                Ok(object @ Value::Object(_)) => typed_fields(schema, Some(ty), object),
                _ => Value::String(text),
            }
        }
        // Free-form JSON a form sends as its text (Twilio Sync's `Data={"a":1}`): that JSON,
        // kept and answered as the object, not the text (a reader got a string to parse).
        (Ty::Json, Value::String(text)) if text.trim_start().starts_with(['{', '[']) => {
            serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text))
        }
        (Ty::Integer, Value::String(text)) => text
            .trim()
            .parse::<i64>()
            .map_or(Value::String(text), Value::from),
        (Ty::Number, Value::String(text)) => match text.trim().parse::<f64>() {
            Ok(n) if n.is_finite() => Value::from(n),
            _ => Value::String(text),
        },
        (Ty::Boolean, Value::String(text)) => {
            super::params::yes_or_no(&text).map_or(Value::String(text), Value::Bool)
        }
        (Ty::List(item), Value::Array(items)) => Value::Array(
            items
                .into_iter()
                .map(|v| typed_fields(schema, Some(item), v))
                .collect(),
        ),
        // One value where the spec takes a list: a list of one, as the form decoder of a
        // typed server reads it (text, or one file part of a `list<bytes>`: Infobip's
        // `attachment` with one file).
        (Ty::List(item), one @ (Value::String(_) | Value::Object(_))) => {
            Value::Array(vec![typed_fields(schema, Some(item), one)])
        }
        (Ty::Map(item), Value::Object(map)) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, typed_fields(schema, Some(item), v)))
                .collect(),
        ),
        (Ty::Named(name), Value::Object(map)) => {
            let fields = match schema.named(name).map(|t| t.shape) {
                Some(ShapeSchema::Object(fields)) => fields,
                _ => return Value::Object(map),
            };
            Value::Object(
                map.into_iter()
                    .map(|(k, v)| {
                        let ty = fields.iter().find(|f| f.name == k).map(|f| &f.ty);
                        let v = typed_fields(schema, ty, v);
                        (k, v)
                    })
                    .collect(),
            )
        }
        // An untagged union (Zulip's `to`: an integer, or a list of them): the first variant
        // the text reads as (`to=9` is the integer, where it stayed text no variant takes).
        (Ty::Named(name), Value::String(text)) => match schema.named(name).map(|t| t.shape) {
            Some(ShapeSchema::Untagged(variants)) => variants
                .iter()
                // Scalars and lists of them: a named variant's text is an object (read above),
                // and a union that holds itself must not be followed.
                .filter(|v| match v {
                    Ty::List(item) => matches!(**item, Ty::Integer | Ty::Number | Ty::Boolean),
                    other => matches!(other, Ty::Integer | Ty::Number | Ty::Boolean),
                })
                .map(|v| typed_fields(schema, Some(v), Value::String(text.clone())))
                .find(|v| !v.is_string())
                .unwrap_or(Value::String(text)),
            _ => Value::String(text),
        },
        (_, other) => other,
    }
}

/// A form's required list fields that are absent, as empty lists: a form writes an empty
/// list as no field at all (Mailgun's send with `to` empty has no `to` part). A list that
/// must hold items is still refused by its `min_items`.
pub(super) fn empty_lists(schema: &ServiceSchema, ty: Option<&Ty>, mut value: Value) -> Value {
    let (Some(Ty::Named(name)), Value::Object(map)) = (ty, &mut value) else {
        return value;
    };
    if let Some(ShapeSchema::Object(fields)) = schema.named(name).map(|t| t.shape) {
        for f in fields {
            if f.required && matches!(f.ty, Ty::List(_)) && !map.contains_key(f.name) {
                map.insert(f.name.to_owned(), Value::Array(Vec::new()));
            }
        }
    }
    value
}

/// Whether a value of `ty` is a JSON object: a map, or a named object or union.
pub(super) fn takes_object(schema: &ServiceSchema, ty: &Ty) -> bool {
    match ty {
        Ty::Map(_) => true,
        Ty::Named(name) => matches!(
            schema.named(name).map(|t| t.shape),
            Some(ShapeSchema::Object(_) | ShapeSchema::Union { .. })
        ),
        _ => false,
    }
}
