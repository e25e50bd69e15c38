//! Name/value pairs for query strings and header parameters: encoding a generated struct into
//! pairs (a list becomes one pair per item: `To=a&To=b`, or `To[]=...` when the field is renamed
//! so), decoding pairs back into the struct (repeated names into lists) for servers, and the
//! `comma` style (`To=a,b`).

use serde::de::value::{Error as DeError, MapDeserializer, SeqDeserializer};
use serde::de::{self, IntoDeserializer, Visitor};
use serde::{Deserializer, Serialize};
use serde_json::Value;

use crate::Error;
pub use crate::wire_text::Text;
use crate::wire_text::{Node, NodeError};

/// Most items a list parameter decodes (servers); more is a decode error.
pub const MAX_LIST_ITEMS: usize = 1000;

/// `value` (a struct or map of scalars and lists of scalars, or a list of name/value pairs) as
/// name/value pairs, in field order; `None` fields are left out. `what` names the part in errors (`query`, `headers`).
pub fn encode<Q: Serialize + ?Sized>(
    what: &str,
    value: &Q,
) -> Result<Vec<(String, String)>, Error> {
    // Only the walk into a `Node` is made per type; the pairs are made once for all.
    encode_node(what, Node::of(value))
}

/// [`encode`] of the value read into a [`Node`]: the part that is the same for every type.
fn encode_node(what: &str, node: Result<Node, NodeError>) -> Result<Vec<(String, String)>, Error> {
    let bad = |why: String| Error::invalid_request(what, why);
    let entries = match node {
        Ok(Node::Object(fields)) => fields,
        // A list of name/value pairs (`&[("limit", "2")]`), as form encoders take.
        Ok(Node::Array(items)) => items
            .into_iter()
            .map(|item| match item {
                Node::Array(pair) => match <[Node; 2]>::try_from(pair) {
                    Ok([Node::String(name), value]) => Ok((name, value)),
                    _ => Err(()),
                },
                _ => Err(()),
            })
            .collect::<Result<_, ()>>()
            .map_err(|()| bad("is not a set of named values".into()))?,
        Ok(_) | Err(NodeError::Read(_)) => return Err(bad("is not a set of named values".into())),
        Err(NodeError::Encode(e)) => return Err(bad(format!("cannot be encoded ({e})"))),
    };
    let mut out = Vec::with_capacity(entries.len());
    for (name, value) in entries {
        match value {
            Node::Null => {}
            Node::Array(items) => {
                for item in items {
                    let text = item.text().ok_or_else(|| {
                        bad(format!(
                            "`{name}` holds a list item that is not a single value"
                        ))
                    })?;
                    out.push((name.clone(), text.to_owned()));
                }
            }
            Node::Scalar(text) | Node::String(text) => out.push((name, text)),
            Node::Object(_) => {
                return Err(bad(format!("`{name}` is not a single value or a list")));
            }
        }
    }
    Ok(out)
}

fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A deserializer of pairs into a struct: a name given several times is a list, numbers and
/// booleans are parsed from their text. Lists longer than [`MAX_LIST_ITEMS`] are an error.
pub fn pairs_deserializer<'de, I>(
    pairs: I,
) -> Result<MapDeserializer<'de, std::vec::IntoIter<(String, Values)>, DeError>, DeError>
where
    I: IntoIterator<Item = (String, String)>,
{
    let mut grouped: Vec<(String, Values)> = Vec::new();
    for (name, value) in pairs {
        match grouped.iter_mut().find(|(n, _)| *n == name) {
            Some((_, Values(values))) => {
                if values.len() >= MAX_LIST_ITEMS {
                    return Err(de::Error::custom(format!(
                        "`{name}` is given more than {MAX_LIST_ITEMS} times"
                    )));
                }
                values.push(value);
            }
            None => grouped.push((name, Values(vec![value]))),
        }
    }
    Ok(MapDeserializer::new(grouped.into_iter()))
}

/// Every value given for one name.
#[derive(Debug)]
pub struct Values(Vec<String>);

impl<'de> IntoDeserializer<'de, DeError> for Values {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl Values {
    fn last(mut self) -> Part {
        Part::strict(self.0.pop().unwrap_or_default())
    }
}

macro_rules! to_last {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            self.last().$method(visitor)
        })*
    };
}

impl<'de> Deserializer<'de> for Values {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.0.len() == 1 {
            self.last().deserialize_any(visitor)
        } else {
            self.deserialize_seq(visitor)
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_seq(SeqDeserializer::new(self.0.into_iter().map(Part::strict)))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_some(self)
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
        self.last().deserialize_enum(name, variants, visitor)
    }

    to_last!(deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32
        deserialize_f64 deserialize_char deserialize_str deserialize_string deserialize_identifier);

    serde::forward_to_deserialize_any! {
        bytes byte_buf unit unit_struct tuple tuple_struct map struct ignored_any i128 u128
    }
}

/// One value's text, parsed as the type asks (strictly: `true`, `-3`, nothing looser).
pub type Part = Text<DeError>;

/// The `comma` style: a list written as one value, items joined by `,` (`To=a,b`). Items may
/// not contain a comma themselves (the join could not be undone): that is an encoding error.
pub mod comma {
    use serde::de::{DeserializeOwned, Error as _};
    use serde::ser::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{MAX_LIST_ITEMS, Part};

    /// Writes the items joined by commas.
    pub fn serialize<T: Serialize, S: Serializer>(
        items: &[T],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut joined = String::new();
        for (i, item) in items.iter().enumerate() {
            let value = serde_json::to_value(item).map_err(S::Error::custom)?;
            let text = super::scalar(&value)
                .ok_or_else(|| S::Error::custom("a list item is not a single value"))?;
            if text.contains(',') {
                return Err(S::Error::custom(format!(
                    "`{text}` contains a comma, which the comma style cannot carry"
                )));
            }
            if i > 0 {
                joined.push(',');
            }
            joined.push_str(&text);
        }
        serializer.serialize_str(&joined)
    }

    /// Reads comma-joined items (an empty value is an empty list).
    pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<T>, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text.is_empty() {
            return Ok(Vec::new());
        }
        if text.split(',').count() > MAX_LIST_ITEMS {
            return Err(D::Error::custom(format!(
                "more than {MAX_LIST_ITEMS} items in one list"
            )));
        }
        text.split(',')
            .map(|item| T::deserialize(Part::strict(item)).map_err(D::Error::custom))
            .collect()
    }

    /// The same for an optional list.
    pub mod option {
        use serde::de::DeserializeOwned;
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        /// See [`super::serialize`]; `None` is left out.
        pub fn serialize<T: Serialize, S: Serializer>(
            items: &Option<Vec<T>>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match items {
                Some(items) => super::serialize(items, serializer),
                None => serializer.serialize_none(),
            }
        }

        /// See [`super::deserialize`].
        pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<Vec<T>>, D::Error> {
            #[derive(Deserialize)]
            #[serde(bound = "T: DeserializeOwned")]
            struct Wrap<T>(#[serde(with = "super")] Vec<T>);
            Ok(Option::<Wrap<T>>::deserialize(deserializer)?.map(|w| w.0))
        }
    }
}

/// The `json` style: the value as its JSON text (`filter={"name":"ann"}`, percent-encoded on
/// the wire), for a parameter of any type (OpenAPI's `content: application/json` on a
/// parameter). What the text holds is bounded by the query string's own limit.
pub mod json {
    use serde::de::{DeserializeOwned, Error as _};
    use serde::ser::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the value's JSON text.
    pub fn serialize<T: Serialize, S: Serializer>(
        value: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let text = serde_json::to_string(value).map_err(S::Error::custom)?;
        serializer.serialize_str(&text)
    }

    /// Reads the value from its JSON text.
    pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        let text = String::deserialize(deserializer)?;
        serde_json::from_str(&text)
            .map_err(|e| D::Error::custom(format!("not the JSON it takes: {e}")))
    }

    /// The same for an optional value.
    pub mod option {
        use serde::de::DeserializeOwned;
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        /// See [`super::serialize`]; `None` is left out.
        pub fn serialize<T: Serialize, S: Serializer>(
            value: &Option<T>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match value {
                Some(value) => super::serialize(value, serializer),
                None => serializer.serialize_none(),
            }
        }

        /// See [`super::deserialize`].
        pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<T>, D::Error> {
            #[derive(Deserialize)]
            #[serde(bound = "T: DeserializeOwned")]
            struct Wrap<T>(#[serde(with = "super")] T);
            Ok(Option::<Wrap<T>>::deserialize(deserializer)?.map(|w| w.0))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[derive(Serialize, serde::Deserialize, Debug, PartialEq, Default)]
    struct Q {
        #[serde(rename = "To")]
        to: Vec<String>,
        #[serde(rename = "Tag[]", skip_serializing_if = "Option::is_none")]
        tags: Option<Vec<i64>>,
        #[serde(
            with = "comma::option",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        ids: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        limit: Option<i64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        on: Option<bool>,
    }

    #[test]
    fn lists_encode_per_style_and_decode_back() {
        let q = Q {
            to: vec!["+1".into(), "+2".into()],
            tags: Some(vec![3, 4]),
            ids: Some(vec!["a".into(), "b".into()]),
            limit: Some(10),
            on: Some(true),
        };
        let pairs = encode("query", &q).unwrap();
        let text: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(
            text,
            [
                "To=+1", "To=+2", "Tag[]=3", "Tag[]=4", "ids=a,b", "limit=10", "on=true"
            ]
        );
        let back: Q = serde::Deserialize::deserialize(pairs_deserializer(pairs).unwrap()).unwrap();
        assert_eq!(back, q);
    }

    #[test]
    fn one_item_still_decodes_as_a_list_and_bad_numbers_are_errors() {
        let pairs = vec![("To".to_owned(), "+1".to_owned())];
        let q: Q = serde::Deserialize::deserialize(pairs_deserializer(pairs).unwrap()).unwrap();
        assert_eq!(q.to, ["+1"]);
        let pairs = vec![("To".into(), "x".into()), ("limit".into(), "ten".into())];
        let err = <Q as serde::Deserialize>::deserialize(pairs_deserializer(pairs).unwrap());
        assert!(err.unwrap_err().to_string().contains("ten"));
    }

    #[test]
    fn too_many_repeats_are_refused() {
        let pairs = (0..=MAX_LIST_ITEMS).map(|i| ("To".to_owned(), i.to_string()));
        assert!(pairs_deserializer(pairs).is_err());
    }

    #[test]
    fn comma_items_with_commas_and_nested_values_are_encode_errors() {
        let q = Q {
            ids: Some(vec!["a,b".into()]),
            ..Q::default()
        };
        assert!(encode("query", &q).is_err());
        assert!(encode("query", &serde_json::json!({"a": {"b": 1}})).is_err());
        assert!(encode("query", &serde_json::json!([1])).is_err());
        assert!(encode("query", &"text").is_err());
        let pairs = encode("query", &[("limit", "2"), ("after", "x")]).unwrap();
        assert_eq!(
            pairs,
            [("limit".into(), "2".into()), ("after".into(), "x".into())]
        );
    }

    #[derive(Serialize, serde::Deserialize, Debug, PartialEq, Default)]
    struct Filtered {
        #[serde(with = "json")]
        filter: serde_json::Value,
        #[serde(
            with = "json::option",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        sort: Option<Vec<Sort>>,
    }

    #[derive(Serialize, serde::Deserialize, Debug, PartialEq, Default)]
    struct Sort {
        field: String,
        direction: i64,
    }

    #[test]
    fn a_json_parameter_travels_as_its_json_text_and_reads_back() {
        let q = Filtered {
            filter: serde_json::json!({ "name": { "$eq": "ann & bob" } }),
            sort: Some(vec![Sort {
                field: "created_at".into(),
                direction: -1,
            }]),
        };
        let pairs = encode("query", &q).unwrap();
        assert_eq!(
            pairs,
            [
                ("filter".into(), r#"{"name":{"$eq":"ann & bob"}}"#.into()),
                (
                    "sort".into(),
                    r#"[{"field":"created_at","direction":-1}]"#.into()
                ),
            ]
        );
        let back: Filtered =
            serde::Deserialize::deserialize(pairs_deserializer(pairs).unwrap()).unwrap();
        assert_eq!(back, q);
        // Left out when `None`; text that is not the JSON asked for is an error that says so.
        let pairs = encode("query", &Filtered::default()).unwrap();
        assert_eq!(pairs, [("filter".into(), "null".into())]);
        let bad = vec![
            ("filter".to_owned(), "{}".to_owned()),
            ("sort".into(), "[1]".into()),
        ];
        let err = <Filtered as serde::Deserialize>::deserialize(pairs_deserializer(bad).unwrap())
            .unwrap_err();
        assert!(err.to_string().contains("not the JSON it takes"), "{err}");
    }
}
