//! Decoding of generated structs from objects, walked here instead of derived per type.
//!
//! `#[derive(Deserialize)]` writes a field enum, a visitor, and map and sequence handlers for
//! every struct: about 285 lines each for the generated email API, most of what is left of
//! the generated crate's compile time. A generated struct instead describes itself with
//! [`Decode`] (its wire field names, one `match` that decodes field *n*, and a `finish` that
//! checks the required ones) and its `Deserialize` calls [`deserialize`]; the key lookup and
//! the map loop are compiled once, here.
//!
//! It decodes what the derive decodes, with the same errors (`missing field`, `duplicate
//! field`, `invalid type: …, expected struct Name`); unknown fields are skipped. A JSON array
//! is not read as a struct (the derive accepts one; no API sends it).
//!
//! ```
//! use tidings_runtime::object::{self, Decode};
//! use serde::de::{Error, MapAccess};
//!
//! #[derive(Debug, PartialEq)]
//! struct Email {
//!     id: String,
//!     tags: Option<Vec<String>>,
//! }
//!
//! impl Decode for Email {
//!     const NAME: &'static str = "Email";
//!     const FIELDS: &'static [&'static str] = &["id", "tags"];
//!     type Partial = (Option<String>, Option<Option<Vec<String>>>);
//!     fn start() -> Self::Partial {
//!         (None, None)
//!     }
//!     fn field<'de, A: MapAccess<'de>>(
//!         p: &mut Self::Partial,
//!         index: usize,
//!         map: &mut A,
//!     ) -> Result<(), A::Error> {
//!         match index {
//!             0 => object::value(&mut p.0, map, "id"),
//!             _ => object::value(&mut p.1, map, "tags"),
//!         }
//!     }
//!     fn finish<E: Error>(p: Self::Partial) -> Result<Self, E> {
//!         Ok(Self { id: object::required(p.0, "id")?, tags: p.1.flatten() })
//!     }
//! }
//!
//! impl<'de> serde::Deserialize<'de> for Email {
//!     fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
//!         object::deserialize(d)
//!     }
//! }
//!
//! let email: Email = serde_json::from_str(r#"{"id":"em_1","extra":1}"#).unwrap();
//! assert_eq!(email, Email { id: "em_1".into(), tags: None });
//! let missing = serde_json::from_str::<Email>(r#"{"tags":null}"#).unwrap_err();
//! assert!(missing.to_string().starts_with("missing field `id`"));
//! ```

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// A struct decoded from an object by [`deserialize`]: its field table and how to fill it.
///
/// Implemented by generated code; see the [module docs](self) for an example.
pub trait Decode: Sized {
    /// The type's name, as error messages show it (`expected struct Name`).
    const NAME: &'static str;
    /// The wire names of the fields; [`Decode::field`] is called with an index into it.
    const FIELDS: &'static [&'static str];
    /// The fields read so far: one `Option` per field (an optional field's is
    /// `Option<Option<T>>`, so a `null` still counts as given).
    type Partial;
    /// An empty [`Decode::Partial`].
    fn start() -> Self::Partial;
    /// Reads the value of field `index` (of [`Decode::FIELDS`]) from `map` into `partial`.
    fn field<'de, A: MapAccess<'de>>(
        partial: &mut Self::Partial,
        index: usize,
        map: &mut A,
    ) -> Result<(), A::Error>;
    /// The value, once the object ended: an error when a required field is missing.
    fn finish<E: de::Error>(partial: Self::Partial) -> Result<Self, E>;
    /// Whether keys not in [`Decode::FIELDS`] are kept (an object whose spec says
    /// `additional: T`): each is then passed to [`Decode::other`] instead of skipped.
    const KEEPS_OTHER_KEYS: bool = false;
    /// Reads the value of a key not in [`Decode::FIELDS`] (see [`Decode::KEEPS_OTHER_KEYS`]);
    /// by default it is skipped.
    fn other<'de, A: MapAccess<'de>>(
        partial: &mut Self::Partial,
        key: String,
        map: &mut A,
    ) -> Result<(), A::Error> {
        let _ = (partial, key);
        map.next_value::<IgnoredAny>()?;
        Ok(())
    }
}

/// Decodes a [`Decode`] struct: what its `Deserialize` impl calls.
pub fn deserialize<'de, T: Decode, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_struct(T::NAME, T::FIELDS, ObjectVisitor(PhantomData::<fn() -> T>))
}

/// Reads one field's value into its slot; a field given twice is an error, as with the derive.
pub fn value<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// [`value`] for a field whose wire form is another type `W` (a date-time sent as Unix
/// seconds, say), converted with [`FromWire`].
pub fn value_as<'de, W, T, A>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error>
where
    W: Deserialize<'de> + FromWire<T>,
    A: MapAccess<'de>,
{
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value::<W>()?.into_value());
    Ok(())
}

/// Reads the value of a key besides the declared fields into the map of other keys (see
/// [`Decode::other`]); a key given twice is an error, as a declared field's is.
pub fn other_value<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
    others: &mut std::collections::BTreeMap<String, T>,
    key: String,
    map: &mut A,
) -> Result<(), A::Error> {
    let value = map.next_value()?;
    match others.entry(key) {
        std::collections::btree_map::Entry::Occupied(e) => Err(de::Error::custom(format_args!(
            "duplicate field `{}`",
            e.key()
        ))),
        std::collections::btree_map::Entry::Vacant(e) => {
            e.insert(value);
            Ok(())
        }
    }
}

/// A required field's value, or the derive's `missing field` error.
pub fn required<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

/// A wire form that converts to the field's Rust type (see [`value_as`]).
pub trait FromWire<T> {
    /// The value in its Rust form.
    fn into_value(self) -> T;
}

impl<T, W: FromWire<T>> FromWire<Option<T>> for Option<W> {
    fn into_value(self) -> Option<T> {
        self.map(FromWire::into_value)
    }
}

struct ObjectVisitor<T>(PhantomData<fn() -> T>);

impl<'de, T: Decode> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "struct {}", T::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut partial = T::start();
        let key = Key {
            fields: T::FIELDS,
            keep_others: T::KEEPS_OTHER_KEYS,
        };
        while let Some(key) = map.next_key_seed(key)? {
            match key {
                Found::Field(index) => T::field(&mut partial, index, &mut map)?,
                Found::Other(name) => T::other(&mut partial, name, &mut map)?,
                Found::Skipped => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        T::finish(partial)
    }
}

/// A key, looked up in the field table: a field's index, another key kept by name (when the
/// type keeps them), or skipped; only kept keys allocate.
#[derive(Clone, Copy)]
struct Key {
    fields: &'static [&'static str],
    keep_others: bool,
}

/// What a key turned out to be.
enum Found {
    Field(usize),
    Other(String),
    Skipped,
}

impl Key {
    fn other(self, key: impl FnOnce() -> String) -> Found {
        if self.keep_others {
            Found::Other(key())
        } else {
            Found::Skipped
        }
    }
}

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Found;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for Key {
    type Value = Found;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(match self.fields.iter().position(|name| *name == key) {
            Some(index) => Found::Field(index),
            None => self.other(|| key.to_owned()),
        })
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<Self::Value, E> {
        Ok(
            match self.fields.iter().position(|name| name.as_bytes() == key) {
                Some(index) => Found::Field(index),
                None if !self.keep_others => Found::Skipped,
                None => match std::str::from_utf8(key) {
                    Ok(text) => Found::Other(text.to_owned()),
                    Err(_) => return Err(E::custom("a key that is not UTF-8 text")),
                },
            },
        )
    }

    // Formats without names send the field's position, as the derive's field visitor accepts.
    fn visit_u64<E: de::Error>(self, index: u64) -> Result<Self::Value, E> {
        Ok(
            match usize::try_from(index)
                .ok()
                .filter(|i| *i < self.fields.len())
            {
                Some(i) => Found::Field(i),
                None => Found::Skipped,
            },
        )
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// What the derive makes of a struct like the generated ones, to compare against.
    #[derive(Debug, PartialEq, Deserialize)]
    struct Derived {
        id: String,
        #[serde(rename = "sentAt")]
        sent_at: Option<i64>,
        tags: Option<Vec<String>>,
    }

    #[derive(Debug, PartialEq)]
    struct Walked {
        id: String,
        sent_at: Option<i64>,
        tags: Option<Vec<String>>,
    }

    impl Decode for Walked {
        const NAME: &'static str = "Derived";
        const FIELDS: &'static [&'static str] = &["id", "sentAt", "tags"];
        type Partial = (
            Option<String>,
            Option<Option<i64>>,
            Option<Option<Vec<String>>>,
        );
        fn start() -> Self::Partial {
            (None, None, None)
        }
        fn field<'de, A: MapAccess<'de>>(
            p: &mut Self::Partial,
            index: usize,
            map: &mut A,
        ) -> Result<(), A::Error> {
            match index {
                0 => value(&mut p.0, map, "id"),
                1 => value(&mut p.1, map, "sentAt"),
                _ => value(&mut p.2, map, "tags"),
            }
        }
        fn finish<E: de::Error>(p: Self::Partial) -> Result<Self, E> {
            Ok(Self {
                id: required(p.0, "id")?,
                sent_at: p.1.flatten(),
                tags: p.2.flatten(),
            })
        }
    }

    impl<'de> Deserialize<'de> for Walked {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize(d)
        }
    }

    fn both(json: &str) -> (Result<Derived, String>, Result<Walked, String>) {
        (
            serde_json::from_str(json).map_err(|e| e.to_string()),
            serde_json::from_str(json).map_err(|e| e.to_string()),
        )
    }

    #[test]
    fn decodes_what_the_derive_decodes_with_the_same_errors() {
        for json in [
            r#"{"id":"em_1","sentAt":5,"tags":["a"]}"#,
            r#"{"tags":null,"id":"em_1"}"#,
            r#"{"id":"em_\u0031","unknown":{"deep":[1,2]},"sentAt":null}"#,
            r#"{"sentAt":5}"#,
            r#"{"id":"a","id":"b"}"#,
            r#"{"id":"a","tags":null,"tags":null}"#,
            r#"{"id":5}"#,
            r#""text""#,
            r#"{"id":"a","sentAt":"x"}"#,
            r#"{"id":"a""#,
        ] {
            let (derived, walked) = both(json);
            match (derived, walked) {
                (Ok(d), Ok(w)) => {
                    assert_eq!(
                        (d.id, d.sent_at, d.tags),
                        (w.id, w.sent_at, w.tags),
                        "{json}"
                    );
                }
                (Err(d), Err(w)) => assert_eq!(d, w, "{json}"),
                (d, w) => panic!("{json}: derive {d:?}, walked {w:?}"),
            }
        }
    }

    #[test]
    fn decodes_from_a_json_value_and_its_escaped_keys() {
        let value = serde_json::json!({"id": "em_1", "tags": ["x"]});
        let walked: Walked = serde_json::from_value(value).unwrap();
        assert_eq!(walked.tags, Some(vec!["x".to_owned()]));
        let escaped: Walked = serde_json::from_str(r#"{"\u0069d":"em_2"}"#).unwrap();
        assert_eq!(escaped.id, "em_2");
    }

    /// A struct that keeps the keys besides its fields, as `additional: T` generates it.
    #[derive(Debug, PartialEq)]
    struct Open {
        id: String,
        additional: std::collections::BTreeMap<String, i64>,
    }

    impl Decode for Open {
        const NAME: &'static str = "Open";
        const FIELDS: &'static [&'static str] = &["id"];
        type Partial = (Option<String>, std::collections::BTreeMap<String, i64>);
        fn start() -> Self::Partial {
            (None, std::collections::BTreeMap::new())
        }
        fn field<'de, A: MapAccess<'de>>(
            p: &mut Self::Partial,
            _: usize,
            map: &mut A,
        ) -> Result<(), A::Error> {
            value(&mut p.0, map, "id")
        }
        fn finish<E: de::Error>(p: Self::Partial) -> Result<Self, E> {
            Ok(Self {
                id: required(p.0, "id")?,
                additional: p.1,
            })
        }
        const KEEPS_OTHER_KEYS: bool = true;
        fn other<'de, A: MapAccess<'de>>(
            p: &mut Self::Partial,
            key: String,
            map: &mut A,
        ) -> Result<(), A::Error> {
            other_value(&mut p.1, key, map)
        }
    }

    impl<'de> Deserialize<'de> for Open {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize(d)
        }
    }

    #[test]
    fn other_keys_are_kept_typed_and_checked() {
        let open: Open = serde_json::from_str(r#"{"a":1,"id":"x","b":2}"#).unwrap();
        assert_eq!(open.id, "x");
        assert_eq!(open.additional.len(), 2);
        assert_eq!(open.additional["b"], 2);
        let wrong = serde_json::from_str::<Open>(r#"{"id":"x","a":"text"}"#).unwrap_err();
        assert!(wrong.to_string().contains("invalid type"), "{wrong}");
        let twice = serde_json::from_str::<Open>(r#"{"id":"x","a":1,"a":2}"#).unwrap_err();
        assert!(
            twice.to_string().starts_with("duplicate field `a`"),
            "{twice}"
        );
        // From a `Value` too (keys arrive as owned strings).
        let open: Open = serde_json::from_value(serde_json::json!({"id": "y", "c": 3})).unwrap();
        assert_eq!(open.additional["c"], 3);
        // Types without other keys still skip them.
        let walked: Walked = serde_json::from_str(r#"{"id":"x","c":{"d":[1]}}"#).unwrap();
        assert_eq!(walked.id, "x");
    }

    struct Doubled(i64);
    impl FromWire<i64> for Doubled {
        fn into_value(self) -> i64 {
            self.0 * 2
        }
    }
    impl<'de> Deserialize<'de> for Doubled {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            i64::deserialize(d).map(Doubled)
        }
    }

    #[test]
    fn a_wire_form_converts_and_null_stays_none() {
        struct Seen(Option<Option<i64>>);
        impl<'de> Deserialize<'de> for Seen {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = Seen;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a map")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Seen, A::Error> {
                        let mut slot = None;
                        while map.next_key::<String>()?.is_some() {
                            value_as::<Option<Doubled>, _, _>(&mut slot, &mut map, "n")?;
                        }
                        Ok(Seen(slot))
                    }
                }
                d.deserialize_map(V)
            }
        }
        let seen: Seen = serde_json::from_str(r#"{"n":21}"#).unwrap();
        assert_eq!(seen.0, Some(Some(42)));
        let seen: Seen = serde_json::from_str(r#"{"n":null}"#).unwrap();
        assert_eq!(seen.0, Some(None));
        let twice = serde_json::from_str::<Seen>(r#"{"n":1,"n":2}"#)
            .err()
            .unwrap();
        assert!(
            twice.to_string().starts_with("duplicate field `n`"),
            "{twice}"
        );
    }
}
