//! Checks a request's JSON against the served spec's types at run time: what a compiled server
//! gets from decoding into the generated types and their `Validate` checks (required fields,
//! JSON types, formats, lengths, item counts, number ranges), as 422 naming the field.
//!
//! Enums are open, as the spec's are (an unknown value still decodes, in the clients, and the
//! exported OpenAPI document says so, which schemathesis holds the sandbox to); a union's tag
//! is not: a variant the document does not name leaves nothing of the object to check.
//! Recursion follows the value, whose depth the gateway has already bounded.

use serde_json::Value;

use crate::server::ServerError;
use crate::server::resources::{FieldSchema, ServiceSchema, ShapeSchema, Ty};

/// Checks `value` against `ty`; `at` is the dot path of `value` (empty for the body itself).
pub fn check(schema: &ServiceSchema, ty: &Ty, value: &Value, at: &str) -> Result<(), ServerError> {
    let wrong = |expected: &str| {
        let name = if at.is_empty() { "the body" } else { at };
        let error = ServerError::validation(
            at.to_owned(),
            format!("invalid body: `{name}` must be {expected}"),
        );
        if at.is_empty() {
            Err(ServerError::new(
                422,
                "validation_error",
                format!("invalid body: expected {expected}"),
            ))
        } else {
            Err(error)
        }
    };
    match ty {
        Ty::Json => Ok(()),
        Ty::String | Ty::Bytes => match value {
            Value::String(_) => Ok(()),
            // A multipart file part (`bytes` fields are text to the schema table): the
            // decoder's `{"$file": {filename, content_type, data}}`.
            Value::Object(part) if part.len() == 1 && part.contains_key("$file") => Ok(()),
            _ => wrong("a string"),
        },
        Ty::DateTime => match value.as_str() {
            Some(text) if tidings_runtime::dates::rfc3339_to_unix(text).is_some() => Ok(()),
            _ => wrong("an RFC 3339 date and time"),
        },
        Ty::Date => match value.as_str() {
            Some(text) if tidings_runtime::dates::is_date(text) => Ok(()),
            _ => wrong("a date (YYYY-MM-DD)"),
        },
        // The clients hold integers as `i64`: one past its range does not decode there.
        Ty::Integer => match value {
            Value::Number(n) if n.is_i64() => Ok(()),
            Value::Number(n) if n.is_u64() => wrong("an integer of at most 9223372036854775807"),
            // `5.0` or `1e3`; past 2^53 a float no longer tells which integer it was (one below
            // the `i64` range reads as its first value).
            Value::Number(n)
                if n.as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0) =>
            {
                Ok(())
            }
            _ => wrong("an integer"),
        },
        Ty::Number => match value {
            Value::Number(_) => Ok(()),
            _ => wrong("a number"),
        },
        Ty::Boolean => match value {
            Value::Bool(_) => Ok(()),
            _ => wrong("true or false"),
        },
        Ty::List(item) | Ty::Page(item) => match value {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .try_for_each(|(i, v)| check(schema, item, v, &join(at, &i.to_string()))),
            _ => wrong("a list"),
        },
        Ty::Map(item) => match value {
            Value::Object(map) => map
                .iter()
                .try_for_each(|(k, v)| check(schema, item, v, &join(at, k))),
            _ => wrong("an object"),
        },
        Ty::Named(name) => {
            let Some(named) = schema.types.iter().find(|t| t.name == *name) else {
                // A type the table does not have (a built-in the generator spells as a name):
                // nothing more to check than what JSON already is.
                return Ok(());
            };
            match named.shape {
                ShapeSchema::Object(fields) => match value {
                    Value::Object(_) => fields.iter().try_for_each(|f| field(schema, f, value, at)),
                    _ => wrong(&format!("a `{name}` object")),
                },
                ShapeSchema::Enum(_) => match value {
                    Value::String(_) => Ok(()),
                    _ => wrong(&format!("a `{name}` value (text)")),
                },
                ShapeSchema::Union {
                    tag,
                    content,
                    variants,
                } => {
                    let Value::Object(map) = value else {
                        return wrong(&format!("a `{name}` object"));
                    };
                    let Some(tag_value) = map.get(tag).and_then(Value::as_str) else {
                        return Err(ServerError::validation(
                            join(at, tag),
                            format!("invalid body: `{}` is required", join(at, tag)),
                        ));
                    };
                    let variant = variants.iter().find(|(t, _)| *t == tag_value);
                    match (variant, content) {
                        (Some((_, Some(ty))), Some(content)) => match map.get(content) {
                            Some(inner) => {
                                check(schema, &Ty::Named(*ty), inner, &join(at, content))
                            }
                            None => Ok(()),
                        },
                        (Some((_, Some(ty))), None) => check(schema, &Ty::Named(*ty), value, at),
                        (Some(_), _) => Ok(()),
                        // The client keeps an unknown tag it reads (its unknown variant), but
                        // what it sends must be one the document names: nothing of an unknown
                        // variant could be checked.
                        (None, _) => {
                            let known: Vec<String> =
                                variants.iter().map(|(t, _)| format!("`{t}`")).collect();
                            let path = join(at, tag);
                            Err(ServerError::validation(
                                path.clone(),
                                format!(
                                    "invalid body: `{path}` must be one of {}",
                                    known.join(", ")
                                ),
                            ))
                        }
                    }
                }
                // One variant must take the value whole (a variant of a type the table lacks
                // takes anything, as above).
                ShapeSchema::Untagged(variants) => {
                    if variants.is_empty()
                        || variants.iter().any(|v| check(schema, v, value, at).is_ok())
                    {
                        Ok(())
                    } else {
                        let names: Vec<String> = variants.iter().map(Ty::to_string).collect();
                        wrong(&format!("one of {}", names.join(", ")))
                    }
                }
            }
        }
    }
}

fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_owned()
    } else {
        format!("{at}.{key}")
    }
}

/// `value` (a checked request body) without the fields `ty` says the service sets
/// (`read_only`), at its top level or in each item of a list: a request's value for them is not
/// kept (Ably's `Message.id`, a device's `push.state`), as a service ignores it.
pub fn without_read_only(schema: &ServiceSchema, ty: &Ty, value: Value) -> Value {
    match (ty, value) {
        (Ty::List(inner), Value::Array(items)) => Value::Array(
            items
                .into_iter()
                .map(|v| without_read_only(schema, inner, v))
                .collect(),
        ),
        (Ty::Named(name), Value::Object(mut map)) => {
            if let Some(ShapeSchema::Object(fields)) = schema.named(name).map(|t| t.shape) {
                for f in fields.iter().filter(|f| f.read_only) {
                    map.remove(f.name);
                }
            }
            Value::Object(map)
        }
        (_, value) => value,
    }
}

/// `body` of an update of the item `op` writes without the item's read-only fields (its id
/// field aside, which names the item).
pub(super) fn not_service_set(
    schema: &ServiceSchema,
    op: &crate::server::resources::ResourceOp,
    body: Value,
) -> Value {
    let Some(item) = crate::server::resources::item_type(schema, op).1 else {
        return body;
    };
    let id = body.get(op.id_field).cloned();
    let mut body = without_read_only(schema, &item, body);
    if let (Some(id), Some(map)) = (id, body.as_object_mut()) {
        map.insert(op.id_field.to_owned(), id);
    }
    body
}

/// `value` (a checked create body) with the `default` of each field it leaves out (Svix's
/// endpoint `description`, `""` by default), in each object and list item it sends too: what
/// the service takes then is what the item keeps and is answered with.
pub fn with_defaults(schema: &ServiceSchema, ty: &Ty, value: Value) -> Value {
    match (ty, value) {
        (Ty::List(inner), Value::Array(items)) => Value::Array(
            items
                .into_iter()
                .map(|v| with_defaults(schema, inner, v))
                .collect(),
        ),
        (Ty::Named(name), Value::Object(mut map)) => {
            if let Some(ShapeSchema::Object(fields)) = schema.named(name).map(|t| t.shape) {
                for f in fields.iter().filter(|f| !f.read_only) {
                    // The objects sent inside take theirs too (Mailtrap's webhook, wrapped in
                    // `{"webhook": {...}}`, `active` `true` by default); the value's depth is
                    // the gateway's to bound.
                    if let Some(inner) = map.get_mut(f.name)
                        && (inner.is_object() || inner.is_array())
                    {
                        *inner = with_defaults(schema, &f.ty, inner.take());
                        continue;
                    }
                    let Some(default) = f.default.and_then(|d| serde_json::from_str(d).ok()) else {
                        continue;
                    };
                    map.entry(f.name.to_owned()).or_insert(default);
                }
            }
            Value::Object(map)
        }
        (_, value) => value,
    }
}

fn field(
    schema: &ServiceSchema,
    f: &FieldSchema,
    object: &Value,
    at: &str,
) -> Result<(), ServerError> {
    let path = join(at, f.name);
    let value = match object.get(f.name) {
        // `null` is a value of a `json` field (the client's `serde_json::Value` sends it),
        // and the absence of any other.
        Some(Value::Null) if matches!(f.ty, Ty::Json) => return Ok(()),
        // A field the service sets is no request's to send; a nullable one is sent as `null`.
        Some(Value::Null) if f.nullable => return Ok(()),
        None | Some(Value::Null) if f.required && !f.read_only => {
            return Err(ServerError::validation(
                path.clone(),
                format!("invalid body: `{path}` is required"),
            ));
        }
        None | Some(Value::Null) => return Ok(()),
        Some(value) => value,
    };
    match f.ty {
        // A time in its field's wire form (Twilio's RFC 2822, SendGrid's Unix seconds).
        Ty::DateTime if !crate::server::resources::time_fits(Some(f), value) => {
            let form = f.format.filter(|f| f.is_datetime_encoding());
            let what = form.map_or("an RFC 3339 date and time", |f| f.describe());
            return Err(ServerError::validation(
                path.clone(),
                format!("invalid body: `{path}` must be {what}"),
            ));
        }
        Ty::DateTime => {}
        _ => check(schema, &f.ty, value, &path)?,
    }
    let fail = |what: String| {
        Err(ServerError::validation(
            path.clone(),
            format!("`{path}` {what}"),
        ))
    };
    if let (Some(min), Some(items)) = (f.min_items, value.as_array())
        && (items.len() as u64) < min
    {
        let plural = if min == 1 { "" } else { "s" };
        return fail(format!("must have at least {min} item{plural}"));
    }
    if let (Some(max), Some(items)) = (f.max_items, value.as_array())
        && (items.len() as u64) > max
    {
        let plural = if max == 1 { "" } else { "s" };
        return fail(format!("must have at most {max} item{plural}"));
    }
    // A list's or a map's text and number limits are its items' (`list<string>` with
    // `format: email`, Telnyx's `webhook_urls`: a `map<string>` of URIs).
    let item = |at: String, item: &Value| {
        scalar_limits(f, item).map_or(Ok(()), |what| {
            Err(ServerError::validation(
                at.clone(),
                format!("`{at}` {what}"),
            ))
        })
    };
    match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| item(format!("{path}.{i}"), v)),
        Value::Object(map) if matches!(f.ty, Ty::Map(_)) => map
            .iter()
            .try_for_each(|(key, v)| item(format!("{path}.{key}"), v)),
        _ => scalar_limits(f, value).map_or(Ok(()), fail),
    }
}

/// What a text or number value breaks of the field's limits (length, format, range).
fn scalar_limits(f: &FieldSchema, value: &Value) -> Option<String> {
    if let Some(text) = value.as_str() {
        let chars = text.chars().count() as u64;
        if let Some(min) = f.min_len.filter(|m| chars < *m) {
            return Some(format!("must be at least {min} characters long"));
        }
        if let Some(max) = f.max_len.filter(|m| chars > *m) {
            return Some(format!("must be at most {max} characters long"));
        }
        if let Some(format) = f.format
            && !tidings_runtime::validate::matches(format, text)
        {
            return Some(format!("must be {}", format.describe()));
        }
        if let Some(pattern) = f.pattern
            && !crate::pattern::matches(pattern, text)
        {
            return Some(format!("must match the pattern `{pattern}`"));
        }
    }
    if let Some(n) = value.as_f64() {
        if let Some(min) = f.min.filter(|m| n < *m) {
            return Some(format!("must be at least {min}"));
        }
        if let Some(max) = f.max.filter(|m| n > *m) {
            return Some(format!("must be at most {max}"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::resources::{FieldSchema, Format, TypeSchema};
    use serde_json::json;

    const FIELDS: &[FieldSchema] = &[
        FieldSchema {
            required: true,
            format: Some(Format::E164),
            ..FieldSchema::new("to", Ty::String)
        },
        FieldSchema {
            min: Some(1.0),
            max: Some(10.0),
            ..FieldSchema::new("count", Ty::Integer)
        },
    ];
    const TYPES: &[TypeSchema] = &[
        TypeSchema {
            name: "Sms",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(FIELDS),
        },
        TypeSchema {
            name: "Message",
            keeps_other_keys: false,
            shape: ShapeSchema::Union {
                tag: "channel",
                content: None,
                variants: &[("sms", Some("Sms")), ("ping", None)],
            },
        },
        TypeSchema {
            name: "State",
            keeps_other_keys: false,
            shape: ShapeSchema::Enum(&["initializing", "inactive", "active", "closed"]),
        },
        // Brevo's attribute values: text, a number, a list of text, or an `Sms`.
        TypeSchema {
            name: "Value",
            keeps_other_keys: false,
            shape: ShapeSchema::Untagged(&[
                Ty::String,
                Ty::Number,
                Ty::List(&Ty::String),
                Ty::Named("Sms"),
            ]),
        },
    ];
    const SCHEMA: ServiceSchema = ServiceSchema {
        types: TYPES,
        page: None,
    };

    fn run(value: Value) -> Result<(), ServerError> {
        check(&SCHEMA, &Ty::Named("Sms"), &value, "")
    }

    #[test]
    fn an_untagged_union_takes_what_one_variant_takes_scalars_included() {
        let value = |v: Value| check(&SCHEMA, &Ty::Named("Value"), &v, "attributes.A");
        for fits in [
            json!("text"),
            json!(31),
            json!(["India", "China"]),
            json!({"to": "+14155550100"}),
        ] {
            assert!(value(fits.clone()).is_ok(), "{fits}");
        }
        for fits_none in [
            json!(true),
            json!([1, 2]),
            json!({"to": "call me"}),
            json!([null]),
        ] {
            let refused = value(fits_none.clone()).unwrap_err();
            assert_eq!(refused.status(), 422, "{fits_none}");
            assert!(
                refused
                    .to_string()
                    .contains("one of string, number, list<string>, Sms"),
                "{refused}"
            );
        }
    }

    #[test]
    fn required_fields_types_formats_and_ranges_are_checked_naming_the_field() {
        assert!(run(json!({"to": "+14155550100", "count": 3})).is_ok());
        let missing = run(json!({"count": 3})).unwrap_err();
        assert_eq!(missing.status(), 422);
        assert!(
            missing.to_string().contains("`to` is required"),
            "{missing}"
        );
        let format = run(json!({"to": "call me"})).unwrap_err();
        assert!(format.to_string().contains("E.164"), "{format}");
        let range = run(json!({"to": "+14155550100", "count": 11})).unwrap_err();
        let wide = check(
            &SCHEMA,
            &Ty::Integer,
            &serde_json::from_str("9223372036854775808").unwrap(),
            "n",
        )
        .unwrap_err();
        assert!(
            wide.to_string().contains("at most 9223372036854775807"),
            "{wide}"
        );
        assert!(range.to_string().contains("at most 10"), "{range}");
        let ty = run(json!({"to": "+14155550100", "count": "3"})).unwrap_err();
        assert!(ty.to_string().contains("an integer"), "{ty}");
        let not_object = run(json!(["+14155550100"])).unwrap_err();
        assert_eq!(not_object.status(), 422);
    }

    #[test]
    fn a_union_s_tag_must_be_one_the_document_names_and_selects_what_is_checked() {
        let message = |value: Value| check(&SCHEMA, &Ty::Named("Message"), &value, "");
        assert!(message(json!({"channel": "sms", "to": "+14155550100"})).is_ok());
        assert!(message(json!({"channel": "ping"})).is_ok());
        let inner = message(json!({"channel": "sms"})).unwrap_err();
        assert!(inner.to_string().contains("`to` is required"), "{inner}");
        let unknown = message(json!({"channel": "fax", "to": 5})).unwrap_err();
        assert_eq!(unknown.status(), 422);
        assert!(
            unknown
                .to_string()
                .contains("`channel` must be one of `sms`, `ping`"),
            "{unknown}"
        );
        let untagged = message(json!({"to": "+14155550100"})).unwrap_err();
        assert!(
            untagged.to_string().contains("`channel` is required"),
            "{untagged}"
        );
    }

    #[test]
    fn an_enum_takes_any_text_as_the_spec_s_open_enums_do() {
        let state = |v: Value| check(&SCHEMA, &Ty::Named("State"), &v, "State");
        assert!(state(json!("active")).is_ok());
        assert!(state(json!("added_later")).is_ok());
        let number = state(json!(1)).unwrap_err();
        assert!(
            number.to_string().contains("a `State` value (text)"),
            "{number}"
        );
    }

    #[test]
    fn defaults_are_taken_at_every_depth_sent() {
        // Mailtrap's webhook create: `{"webhook": {url, ...}}`, whose `active` is `true` by
        // default; only the top level took its defaults.
        const HOOK: &[FieldSchema] = &[
            FieldSchema::new("url", Ty::String),
            FieldSchema {
                default: Some("true"),
                ..FieldSchema::new("active", Ty::Boolean)
            },
        ];
        const WRAP: &[FieldSchema] = &[FieldSchema::new("webhook", Ty::Named("Hook"))];
        const TYPES: &[TypeSchema] = &[
            TypeSchema {
                name: "Hook",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(HOOK),
            },
            TypeSchema {
                name: "Wrap",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(WRAP),
            },
        ];
        let schema = ServiceSchema {
            types: TYPES,
            page: None,
        };
        let sent = json!({"webhook": {"url": "https://example.com/h"}});
        assert_eq!(
            with_defaults(&schema, &Ty::Named("Wrap"), sent),
            json!({"webhook": {"url": "https://example.com/h", "active": true}})
        );
        let listed = json!([{"url": "a"}, {"url": "b", "active": false}]);
        assert_eq!(
            with_defaults(&schema, &Ty::List(&Ty::Named("Hook")), listed),
            json!([{"url": "a", "active": true}, {"url": "b", "active": false}])
        );
    }
}
