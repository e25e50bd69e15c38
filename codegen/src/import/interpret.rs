//! The generated types' decoding and encoding, interpreted from the resolved model: what the
//! fidelity report runs every example of a document through.

use serde_json::{Map, Value};

use crate::resolved::{Service, Ty, TypeInfo, TypeKind};

/// How a documented example disagrees with the schema of one object field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Disagreement {
    /// It sends a scalar of another JSON type than the schema says (Twilio's `price`:
    /// `type: number`, every example `"-0.00750"`).
    OtherJsonType,
    /// It leaves out a field the schema requires (SendGrid's segment samples without `id`).
    LeftOut,
    /// It writes `null` for a required field of a scalar type (Vonage Dispatch's error
    /// `instance`: `string`, example `null`): the field is nullable, not of another type.
    Null,
    /// It writes a date-time field's value in another way than RFC 3339 (Mandrill's
    /// `"2020-06-01 08:15:01"`, with no offset).
    NotRfc3339,
}

/// Decodes `value` as the generated type of `ty` would and encodes the result again, as JSON;
/// an error where the generated `Deserialize` fails.
///
/// # Errors
/// Where the generated code's decoding fails: a missing required field, a value of another
/// JSON type, an integer out of range.
pub fn interpret(service: &Service, ty: &Ty, value: &Value) -> Result<Value, String> {
    Interpreter::new(service).value(ty, value)
}

/// Deepest nesting interpreted (the generated code's own limit is serde_json's, 128).
const MAX_DEPTH: usize = 128;

pub(super) struct Interpreter<'a> {
    types: std::collections::HashMap<&'a str, &'a TypeInfo>,
    depth: usize,
    /// Set when a scalar had another JSON type than its type says; taken by the object
    /// field that holds it (directly, or in a list or map of scalars).
    pub(super) scalar_mismatch: bool,
    /// Every `(type, field)` an example disagrees with, when collecting (decoding then goes
    /// on past them: the value read as JSON, the missing field as absent).
    pub(super) blamed: Option<Vec<(String, String, Disagreement)>>,
}

impl<'a> Interpreter<'a> {
    pub(super) fn new(service: &'a Service) -> Self {
        Interpreter {
            types: service.types.iter().map(|t| (t.name.as_str(), t)).collect(),
            depth: 0,
            scalar_mismatch: false,
            blamed: None,
        }
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Interpreter<'_> {
    pub(super) fn value(&mut self, ty: &Ty, v: &Value) -> Result<Value, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        let out = self.value_inner(ty, v);
        self.depth -= 1;
        out
    }

    fn value_inner(&mut self, ty: &Ty, v: &Value) -> Result<Value, String> {
        if ty.is_scalar() && !matches!(ty, Ty::Date | Ty::DateTime) {
            let fits = match ty {
                Ty::String => v.is_string(),
                Ty::Integer => v.is_i64(),
                Ty::Number => v.is_number(),
                _ => v.is_boolean(),
            };
            if !fits {
                self.scalar_mismatch = true;
            }
        }
        let wrong = |want: &str| Err(format!("{} where {want} is expected", kind_of(v)));
        match ty {
            Ty::String | Ty::DateTime | Ty::Date => match v {
                Value::String(_) => Ok(v.clone()),
                _ => wrong("a string"),
            },
            Ty::Integer => match v.as_i64() {
                Some(_) => Ok(v.clone()),
                None if v.is_number() => Err(format!("{v} is not a 64-bit integer")),
                None => wrong("an integer"),
            },
            Ty::Number => match v.as_f64() {
                Some(f) => Ok(serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
                None => wrong("a number"),
            },
            Ty::Boolean => match v {
                Value::Bool(_) => Ok(v.clone()),
                _ => wrong("a boolean"),
            },
            Ty::Json => Ok(v.clone()),
            Ty::Bytes => Err("a file part is not JSON".into()),
            Ty::Page(_) => Err("`page<T>` answers are not interpreted".into()),
            Ty::List(item) => match v {
                Value::Array(items) => items
                    .iter()
                    .map(|i| self.value(item, i))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Value::Array),
                _ => wrong("an array"),
            },
            Ty::Map(item) => match v {
                Value::Object(m) => {
                    let mut out = Map::new();
                    for (k, x) in m {
                        out.insert(k.clone(), self.value(item, x)?);
                    }
                    Ok(Value::Object(out))
                }
                _ => wrong("an object"),
            },
            Ty::Named(name) => {
                let Some(t) = self.types.get(name.as_str()).copied() else {
                    return Err(format!("no type `{name}`"));
                };
                self.named(t, v)
            }
        }
    }

    fn named(&mut self, t: &TypeInfo, v: &Value) -> Result<Value, String> {
        match &t.kind {
            TypeKind::Enum(_) => match v {
                Value::String(_) => Ok(v.clone()),
                _ => Err(format!("{} where a string is expected", kind_of(v))),
            },
            TypeKind::Object(fields) => {
                let Value::Object(m) = v else {
                    return Err(format!(
                        "invalid type: {}, expected struct {}",
                        kind_of(v),
                        t.name
                    ));
                };
                let mut out = Map::new();
                for f in fields {
                    match m.get(&f.wire) {
                        // A nullable field left out decodes as `None` (and is sent as `null`).
                        None if f.nullable => {
                            out.insert(f.wire.clone(), Value::Null);
                        }
                        None if f.required => {
                            let Some(all) = &mut self.blamed else {
                                return Err(format!("missing field `{}`", f.wire));
                            };
                            let at = (t.name.clone(), f.wire.clone(), Disagreement::LeftOut);
                            if !all.contains(&at) {
                                all.push(at);
                            }
                        }
                        None => {}
                        // An optional field's `null` is `None`, left out when sent; a
                        // nullable one's is sent as `null`.
                        Some(Value::Null) if f.nullable => {
                            out.insert(f.wire.clone(), Value::Null);
                        }
                        Some(Value::Null) if !f.required => {}
                        // The text `"null"` where a number goes is a document's way of writing
                        // null (Textmagic's `messageId` examples), not a number as text.
                        Some(Value::String(text)) if text == "null" && !f.ty.is_text() => {}
                        // A date-time the example writes otherwise than RFC 3339, where that
                        // is the field's wire form: the generated code keeps the text, but
                        // the sandbox and the client's checks would refuse it.
                        Some(Value::String(text))
                            if f.ty == Ty::DateTime
                                && matches!(
                                    f.format,
                                    None | Some(crate::model::Format::Rfc3339)
                                )
                                && !crate::import::schema::rfc3339_like(text)
                                && self.blamed.is_some() =>
                        {
                            let at = (t.name.clone(), f.wire.clone(), Disagreement::NotRfc3339);
                            if let Some(all) = &mut self.blamed
                                && !all.contains(&at)
                            {
                                all.push(at);
                            }
                            out.insert(f.wire.clone(), Value::String(text.clone()));
                        }
                        // A Unix time, a number on the wire (Mailtrap's `timestampMillis`).
                        Some(x @ Value::Number(n))
                            if f.ty == Ty::DateTime
                                && n.is_i64()
                                && matches!(
                                    f.format,
                                    Some(crate::model::Format::Unix | crate::model::Format::UnixMs)
                                ) =>
                        {
                            out.insert(f.wire.clone(), x.clone());
                        }
                        Some(x) => {
                            self.scalar_mismatch = false;
                            let decoded = self.value(&f.ty, x);
                            let scalar_field = match &f.ty {
                                Ty::List(i) | Ty::Map(i) => i.is_scalar(),
                                other => other.is_scalar(),
                            };
                            if decoded.is_err()
                                && self.scalar_mismatch
                                && scalar_field
                                && let Some(all) = &mut self.blamed
                            {
                                // Collecting: note it and read on as if it were JSON.
                                let how = match x {
                                    Value::Null => Disagreement::Null,
                                    _ => Disagreement::OtherJsonType,
                                };
                                let at = (t.name.clone(), f.wire.clone(), how);
                                if !all.contains(&at) {
                                    all.push(at);
                                }
                                self.scalar_mismatch = false;
                                out.insert(f.wire.clone(), x.clone());
                                continue;
                            }
                            self.scalar_mismatch = false;
                            let decoded = decoded.map_err(|e| format!("{}: {e}", f.wire))?;
                            out.insert(f.wire.clone(), decoded);
                        }
                    }
                }
                if let Some(other) = &t.additional {
                    for (k, x) in m {
                        if !fields.iter().any(|f| &f.wire == k) {
                            let decoded = self.value(other, x).map_err(|e| format!("{k}: {e}"))?;
                            out.insert(k.clone(), decoded);
                        }
                    }
                }
                Ok(Value::Object(out))
            }
            TypeKind::Union {
                tag,
                content,
                variants,
            } => {
                let tag_value = v.get(tag).and_then(Value::as_str);
                let Some(variant) = variants.iter().find(|x| Some(x.tag.as_str()) == tag_value)
                else {
                    // Unknown (or no) tag: kept whole.
                    return Ok(v.clone());
                };
                let mut out = Map::new();
                out.insert(tag.clone(), Value::String(variant.tag.clone()));
                let Some(vty) = &variant.ty else {
                    return Ok(Value::Object(out));
                };
                let vty = Ty::parse(vty)?;
                match content {
                    Some(field) => {
                        let inner = v.get(field).cloned().unwrap_or(Value::Null);
                        out.insert(field.clone(), self.value(&vty, &inner)?);
                    }
                    None => match self.value(&vty, v)? {
                        Value::Object(fields) => {
                            for (k, x) in fields {
                                if &k != tag {
                                    out.insert(k, x);
                                }
                            }
                        }
                        Value::Null => {}
                        _ => {
                            return Err(format!(
                                "the content of union variant `{}` must be an object",
                                variant.tag
                            ));
                        }
                    },
                }
                Ok(Value::Object(out))
            }
            TypeKind::Untagged { variants } => {
                // Collecting, a variant read with disagreements is a poor fit: a later one
                // the example fits as it is wins (Customer.io's object `identify` is not
                // the person `identify` short of its `id`); else the first read at all.
                // Tried in the order the generated code tries them: an object best fit first
                // when two variants or more are objects.
                let types = &self.types;
                let order =
                    match crate::resolved::untagged_keys(variants, |n| types.get(n).copied()) {
                        Some(keys) => {
                            let keys: Vec<Option<&[&str]>> =
                                keys.iter().map(Option::as_deref).collect();
                            let present: Option<Vec<&str>> = v
                                .as_object()
                                .map(|m| m.keys().map(String::as_str).collect());
                            tidings_spec::untagged_fit_order(present.as_deref(), &keys)
                        }
                        None => (0..variants.len()).collect(),
                    };
                let before = self.blamed.clone();
                let mut first = None;
                for variant in order.iter().map(|&i| &variants[i]) {
                    let Some(vty) = variant.ty.as_deref().and_then(|t| Ty::parse(t).ok()) else {
                        continue;
                    };
                    self.blamed.clone_from(&before);
                    if let Ok(out) = self.value(&vty, v) {
                        if self.blamed == before {
                            return Ok(out);
                        }
                        if first.is_none() {
                            first = Some((out, self.blamed.take()));
                        }
                    }
                }
                match first {
                    Some((out, blamed)) => {
                        self.blamed = blamed;
                        Ok(out)
                    }
                    None => {
                        self.blamed = before;
                        Ok(v.clone())
                    }
                }
            }
        }
    }
}
