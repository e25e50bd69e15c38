//! What query strings and form bodies share: a serialisable value's JSON form read back with its
//! fields in the order written ([`Node`]), and a deserializer of one value's text that parses
//! the number or boolean the target type asks for ([`Text`]).

use std::marker::PhantomData;

use serde::de::{self, IntoDeserializer, Visitor};
use serde::{Deserializer, Serialize};

/// A value's JSON form with object fields in the order they were serialised (a JSON map would
/// sort them; providers' examples and signatures read queries and forms in field order).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// `null` (a `None` field).
    Null,
    /// A number or boolean, as text.
    Scalar(String),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Node>),
    /// An object's fields, in order.
    Object(Vec<(String, Node)>),
}

/// Why [`Node::of`] failed.
#[derive(Debug)]
pub(crate) enum NodeError {
    /// The value's `Serialize` failed.
    Encode(serde_json::Error),
    /// Its JSON could not be read back (nested deeper than the JSON reader allows).
    Read(serde_json::Error),
}

impl Node {
    /// The JSON form of `value`, through JSON text (the one serializer that keeps every
    /// `serde` attribute's meaning).
    pub(crate) fn of<B: Serialize + ?Sized>(value: &B) -> Result<Node, NodeError> {
        Node::read(serde_json::to_vec(value))
    }

    /// [`Node::of`] after the value is written as JSON: the part that is the same for every
    /// type, so each caller's type compiles only the writing.
    fn read(text: Result<Vec<u8>, serde_json::Error>) -> Result<Node, NodeError> {
        serde_json::from_slice(&text.map_err(NodeError::Encode)?).map_err(NodeError::Read)
    }

    /// The text of a number, boolean or string; `None` for anything else.
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            Node::Scalar(s) | Node::String(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de> serde::Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Node;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_none<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
                serde::Deserialize::deserialize(d)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
                Ok(Node::Scalar(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
                Ok(Node::Scalar(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
                Ok(Node::Scalar(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
                Ok(Node::Scalar(
                    serde_json::Number::from_f64(v)
                        .map_or_else(|| v.to_string(), |n| n.to_string()),
                ))
            }
            fn visit_str<E>(self, v: &str) -> Result<Node, E> {
                Ok(Node::String(v.to_owned()))
            }
            fn visit_string<E>(self, v: String) -> Result<Node, E> {
                Ok(Node::String(v))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Node::Array(items))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut fields = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    fields.push(entry);
                }
                Ok(Node::Object(fields))
            }
        }
        d.deserialize_any(V)
    }
}

/// One value's text (a query parameter, a form field), read as the target type asks: numbers
/// and booleans are parsed from it, anything else gets the text.
///
/// Strict (query parameters): the text must be exactly the type's form (`true`, `-3`), parsed
/// as the asked width. Lenient (form bodies, which providers write loosely): surrounding
/// spaces are ignored, integers and floats are parsed at 64 bits and the visitor narrows them,
/// and `True`/`1`, `False`/`0` are booleans too.
#[derive(Debug)]
pub struct Text<E = de::value::Error> {
    text: String,
    lenient: bool,
    error: PhantomData<fn() -> E>,
}

impl<E> Text<E> {
    /// The strict reading (query parameters).
    pub fn strict(text: impl Into<String>) -> Self {
        Text {
            text: text.into(),
            lenient: false,
            error: PhantomData,
        }
    }

    /// The lenient reading (form bodies).
    pub fn lenient(text: impl Into<String>) -> Self {
        Text {
            text: text.into(),
            lenient: true,
            error: PhantomData,
        }
    }
}

impl<'de, E: de::Error> IntoDeserializer<'de, E> for Text<E> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

/// Strict: parse the asked type exactly; lenient: trim and parse the 64-bit `$wide`.
macro_rules! parsed {
    ($($method:ident => $visit:ident, $wide:ty, $wide_visit:ident;)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
            let name = &stringify!($method)[12..];
            if self.lenient {
                match self.text.trim().parse::<$wide>() {
                    Ok(v) => visitor.$wide_visit(v),
                    Err(_) => Err(E::custom(format!(
                        "`{}` is not a {}", self.text, stringify!($wide)
                    ))),
                }
            } else {
                match self.text.parse() {
                    Ok(v) => visitor.$visit(v),
                    Err(_) => Err(E::custom(format!("`{}` is not a valid {name}", self.text))),
                }
            }
        })*
    };
}

impl<'de, E: de::Error> Deserializer<'de> for Text<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_string(self.text)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        let value = match (self.text.as_str(), self.lenient) {
            ("true", _) | ("True" | "1", true) => true,
            ("false", _) | ("False" | "0", true) => false,
            (other, true) => return Err(E::custom(format!("`{other}` is not a boolean"))),
            (other, false) => return Err(E::custom(format!("`{other}` is not a valid bool"))),
        };
        visitor.visit_bool(value)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_enum(self.text.into_deserializer())
    }

    parsed! {
        deserialize_i8 => visit_i8, i64, visit_i64;
        deserialize_i16 => visit_i16, i64, visit_i64;
        deserialize_i32 => visit_i32, i64, visit_i64;
        deserialize_i64 => visit_i64, i64, visit_i64;
        deserialize_u8 => visit_u8, u64, visit_u64;
        deserialize_u16 => visit_u16, u64, visit_u64;
        deserialize_u32 => visit_u32, u64, visit_u64;
        deserialize_u64 => visit_u64, u64, visit_u64;
        deserialize_f32 => visit_f32, f64, visit_f64;
        deserialize_f64 => visit_f64, f64, visit_f64;
    }

    serde::forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any i128 u128
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde::Deserialize;

    type Strict = Text<de::value::Error>;

    #[test]
    fn strict_text_parses_exact_forms_only() {
        assert_eq!(u8::deserialize(Strict::strict("200")).unwrap(), 200);
        assert!(u8::deserialize(Strict::strict("300")).is_err());
        assert!(i64::deserialize(Strict::strict(" 3")).is_err());
        assert!(bool::deserialize(Strict::strict("true")).unwrap());
        let err = bool::deserialize(Strict::strict("1")).unwrap_err();
        assert_eq!(err.to_string(), "`1` is not a valid bool");
        assert_eq!(
            Option::<String>::deserialize(Strict::strict("x")).unwrap(),
            Some("x".into())
        );
    }

    #[test]
    fn lenient_text_trims_and_takes_numeric_booleans() {
        assert_eq!(i32::deserialize(Strict::lenient(" -3 ")).unwrap(), -3);
        assert!(bool::deserialize(Strict::lenient("1")).unwrap());
        assert!(!bool::deserialize(Strict::lenient("False")).unwrap());
        let err = u8::deserialize(Strict::lenient("seven")).unwrap_err();
        assert_eq!(err.to_string(), "`seven` is not a u64");
        // Narrowing is the visitor's: out of range is still an error.
        assert!(u8::deserialize(Strict::lenient("300")).is_err());
    }

    #[test]
    fn nodes_keep_field_order_and_number_text() {
        #[derive(Serialize)]
        struct Later {
            b: f64,
            a: bool,
            none: Option<u8>,
            list: Vec<&'static str>,
        }
        let value = Later {
            b: 1.5,
            a: true,
            none: None,
            list: vec!["x"],
        };
        assert_eq!(
            Node::of(&value).unwrap(),
            Node::Object(vec![
                ("b".into(), Node::Scalar("1.5".into())),
                ("a".into(), Node::Scalar("true".into())),
                ("none".into(), Node::Null),
                ("list".into(), Node::Array(vec![Node::String("x".into())])),
            ])
        );
    }
}
