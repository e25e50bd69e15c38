//! Reading a form body back: the pairs into the body's JSON form (names split by the nested
//! style, arrays and objects rebuilt), then the target type read leniently from it.

use super::*;

/// Reads a form body back into `T` (what a server does with what [`encode`] wrote): repeated
/// names and `[]`/`[0]` become arrays, `a[b]` (or `a.b`) nested fields, and text becomes the
/// number or boolean `T` asks for.
///
/// ```
/// use tidings_runtime::form::decode;
/// use tidings_runtime::spec::FormStyle;
/// #[derive(serde::Deserialize, PartialEq, Debug)]
/// struct Send { #[serde(rename = "To")] to: String, #[serde(rename = "MediaUrl")] media: Vec<String>, n: u32 }
/// let got: Send = decode(b"To=%2B1555&MediaUrl=a&MediaUrl=b&n=3", FormStyle::DEFAULT)?;
/// assert_eq!(got, Send { to: "+1555".into(), media: vec!["a".into(), "b".into()], n: 3 });
/// # Ok::<(), tidings_runtime::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Decode`] when the body has more than [`MAX_FIELDS`] pairs, is nested deeper than
/// [`MAX_DEPTH`], mixes a value and fields under one name, or does not fit `T`.
pub fn decode<T: DeserializeOwned>(body: &[u8], style: FormStyle) -> Result<T, Error> {
    let value = decode_value(body, style)?;
    T::deserialize(Lenient {
        value,
        comma: style.arrays == ArrayStyle::Comma,
    })
    .map_err(|e| Error::decode(format!("form body: {e}"), body))
}

/// The JSON form of a form body: every value is text; see [`decode`].
///
/// # Errors
///
/// As [`decode`], except fitting a type.
pub fn decode_value(body: &[u8], style: FormStyle) -> Result<Value, Error> {
    let mut root = Value::Object(Map::new());
    for (count, (name, value)) in url::form_urlencoded::parse(body).enumerate() {
        if count >= MAX_FIELDS {
            return Err(Error::decode(
                format!("a form body may have at most {MAX_FIELDS} fields"),
                b"",
            ));
        }
        let path = split_name(&name, style.nested);
        if path.len() > MAX_DEPTH + 1 {
            return Err(Error::decode(
                format!("form field `{name}` is nested deeper than {MAX_DEPTH}"),
                b"",
            ));
        }
        // Under `NestedStyle::Json` an object (or a list of them) comes as its JSON text, and
        // under `ArrayStyle::Json` any list.
        let value = match serde_json::from_str::<Value>(&value) {
            Ok(json @ (Value::Object(_) | Value::Array(_)))
                if style.nested == NestedStyle::Json && path.len() == 1 =>
            {
                json
            }
            Ok(json @ Value::Array(_)) if style.arrays == ArrayStyle::Json && path.len() == 1 => {
                json
            }
            _ => Value::String(value.into_owned()),
        };
        insert(&mut root, &path, value)
            .map_err(|m| Error::decode(format!("form field `{name}`: {m}"), b""))?;
    }
    Ok(root)
}

/// `a[b][]` → `["a", "b", ""]`; with dots, `a.b[0]` → `["a", "b", "0"]`.
pub(super) fn split_name(name: &str, nested: NestedStyle) -> Vec<String> {
    let (head, rest) = match name.find('[') {
        Some(i) if name.ends_with(']') => (&name[..i], &name[i..]),
        _ => (name, ""),
    };
    let mut path: Vec<String> = match nested {
        NestedStyle::Dots => head.split('.').map(str::to_owned).collect(),
        NestedStyle::Brackets | NestedStyle::Json => vec![head.to_owned()],
    };
    let mut rest = rest;
    while let Some(inner) = rest.strip_prefix('[') {
        let Some(close) = inner.find(']') else {
            break;
        };
        path.push(inner[..close].to_owned());
        rest = &inner[close + 1..];
    }
    path
}

pub(super) fn insert(node: &mut Value, path: &[String], value: Value) -> Result<(), &'static str> {
    let Some((first, rest)) = path.split_first() else {
        return Ok(());
    };
    // `name[]` and `name[<n>]` under an array append or fill by index.
    if let Value::Array(items) = node {
        let index = if first.is_empty() {
            items.len()
        } else {
            first
                .parse::<usize>()
                .map_err(|_| "mixes an array and fields")?
        };
        if index > items.len() || index >= MAX_FIELDS {
            return Err("array index out of order");
        }
        if index == items.len() {
            items.push(Value::Null);
        }
        return match &mut items[index] {
            slot if rest.is_empty() => {
                *slot = value;
                Ok(())
            }
            slot => {
                if slot.is_null() {
                    *slot = empty_for(&rest[0]);
                }
                insert(slot, rest, value)
            }
        };
    }
    let Value::Object(fields) = node else {
        return Err("has both a value and fields");
    };
    if rest.is_empty() {
        match fields.get_mut(first.as_str()) {
            // A repeated name is an array.
            Some(Value::Array(items)) => items.push(value),
            Some(existing @ Value::String(_)) => {
                let old = existing.take();
                *existing = Value::Array(vec![old, value]);
            }
            // Several files under one name (a `list<bytes>` field: Mailgun's `attachment`).
            Some(existing) if is_file(existing) && is_file(&value) => {
                let old = existing.take();
                *existing = Value::Array(vec![old, value]);
            }
            Some(_) => return Err("has both a value and fields"),
            None => {
                fields.insert(first.clone(), value);
            }
        }
        return Ok(());
    }
    let child = fields
        .entry(first.clone())
        .or_insert_with(|| empty_for(&rest[0]));
    if let Value::String(_) = child {
        return Err("has both a value and fields");
    }
    insert(child, rest, value)
}

/// Whether `value` is a multipart file part as the decoder writes it (a `FilePart`:
/// `{"$file": {...}}`).
fn is_file(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|m| m.len() == 1 && m.contains_key("$file"))
}

fn empty_for(segment: &str) -> Value {
    if segment.is_empty() || segment.parse::<usize>().is_ok() {
        Value::Array(Vec::new())
    } else {
        Value::Object(Map::new())
    }
}

/// A JSON value read leniently: text where a number, boolean or list is wanted is converted.
pub(super) struct Lenient {
    pub(super) value: Value,
    pub(super) comma: bool,
}

impl Lenient {
    fn child(&self, value: Value) -> Lenient {
        Lenient {
            value,
            comma: self.comma,
        }
    }
}

type DeError = serde_json::Error;

/// Text read as a number or boolean through the shared lenient reading; other values as they are.
macro_rules! from_text {
    ($($name:ident)*) => {
        $(fn $name<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            match self.value {
                Value::String(s) => Text::<DeError>::lenient(s).$name(visitor),
                other => Lenient { value: other, comma: self.comma }.deserialize_any(visitor),
            }
        })*
    };
}

impl<'de> de::Deserializer<'de> for Lenient {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let comma = self.comma;
        match self.value {
            Value::Array(items) => visitor.visit_seq(Seq {
                items: items.into_iter(),
                comma,
            }),
            Value::Object(fields) => visitor.visit_map(Fields {
                fields: fields.into_iter(),
                pending: None,
                comma,
            }),
            other => other.deserialize_any(visitor),
        }
    }

    from_text!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_u8
        deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32 deserialize_f64
        deserialize_bool);

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let items = match self.value {
            Value::Array(items) => items,
            Value::String(s) if self.comma => {
                s.split(',').map(|p| Value::String(p.to_owned())).collect()
            }
            // One value under a name that may repeat: a list of one.
            other => vec![other],
        };
        visitor.visit_seq(Seq {
            items: items.into_iter(),
            comma: self.comma,
        })
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.value.deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char str string bytes byte_buf unit unit_struct tuple tuple_struct map struct
        identifier ignored_any
    }
}

struct Seq {
    items: std::vec::IntoIter<Value>,
    comma: bool,
}

impl<'de> de::SeqAccess<'de> for Seq {
    type Error = DeError;

    fn next_element_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, DeError> {
        match self.items.next() {
            Some(value) => seed
                .deserialize(Lenient {
                    value,
                    comma: self.comma,
                })
                .map(Some),
            None => Ok(None),
        }
    }
}

struct Fields {
    fields: serde_json::map::IntoIter,
    pending: Option<Value>,
    comma: bool,
}

impl<'de> de::MapAccess<'de> for Fields {
    type Error = DeError;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        match self.fields.next() {
            Some((key, value)) => {
                self.pending = Some(value);
                seed.deserialize(key.into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, DeError> {
        let value = self.pending.take().unwrap_or(Value::Null);
        let parent = Lenient {
            value: Value::Null,
            comma: self.comma,
        };
        seed.deserialize(parent.child(value))
    }
}
