//! Helpers behind generated open tagged unions: decode by a tag field (the content beside it
//! or under a content field), keep unknown variants whole, and encode back to the same shape;
//! and behind untagged ones: try the variants in the order that fits the payload best
//! ([`fit_order`]).
//!
//! Generated code implements `Serialize`/`Deserialize` for each union by calling
//! [`split`], [`content`] and [`serialize`]; keeping the logic here keeps generated code thin.

use std::fmt;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::ser::{Error as _, SerializeMap};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// A variant's content, waiting to be decoded into the variant's type with [`content`].
/// Carries the deserializer's error type so `?` works in generated `deserialize` bodies.
pub struct Content<E> {
    value: Value,
    error: PhantomData<fn() -> E>,
}

impl<E> fmt::Debug for Content<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Content").field(&self.value).finish()
    }
}

impl<E> Content<E> {
    /// The raw content.
    pub fn value(&self) -> &Value {
        &self.value
    }
}

/// Reads a union value: its tag (when the tag field holds a string), its content (the field
/// `content` names, or the whole object when the content sits beside the tag), and the whole
/// value (for `Unknown`).
///
/// ```
/// use serde::de::IntoDeserializer;
/// let value = serde_json::json!({"type": "email.sent", "data": {"id": "em_1"}});
/// let (tag, content, whole) =
///     tidings_runtime::union::split(value.clone(), "type", Some("data")).unwrap();
/// assert_eq!(tag.as_deref(), Some("email.sent"));
/// assert_eq!(content.value(), &serde_json::json!({"id": "em_1"}));
/// assert_eq!(whole, value);
/// ```
#[allow(clippy::type_complexity)]
pub fn split<'de, D: Deserializer<'de>>(
    deserializer: D,
    tag: &str,
    content: Option<&str>,
) -> Result<(Option<String>, Content<D::Error>, Value), D::Error> {
    let whole = Value::deserialize(deserializer)?;
    let tag_value = whole.get(tag).and_then(Value::as_str).map(str::to_owned);
    let content_value = match content {
        Some(field) => whole.get(field).cloned().unwrap_or(Value::Null),
        None => whole.clone(),
    };
    Ok((
        tag_value,
        Content {
            value: content_value,
            error: PhantomData,
        },
        whole,
    ))
}

/// Decodes a variant's content into its type.
pub fn content<T: DeserializeOwned, E: serde::de::Error>(content: Content<E>) -> Result<T, E> {
    serde_json::from_value(content.value).map_err(E::custom)
}

/// Writes a union value: the tag first, then the content under the `content` field, or the
/// content's own fields beside the tag when `content` is `None`.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Occupied { channel: String }
/// struct Event(Occupied);
/// impl serde::Serialize for Event {
///     fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
///         tidings_runtime::union::serialize(s, "name", None, "channel_occupied", Some(&self.0))
///     }
/// }
/// let json = serde_json::to_string(&Event(Occupied { channel: "c".into() })).unwrap();
/// assert_eq!(json, r#"{"name":"channel_occupied","channel":"c"}"#);
/// ```
pub fn serialize<S: Serializer, T: Serialize + ?Sized>(
    serializer: S,
    tag: &str,
    content: Option<&str>,
    value: &str,
    data: Option<&T>,
) -> Result<S::Ok, S::Error> {
    match content {
        Some(field) => {
            let mut map = serializer.serialize_map(Some(1 + usize::from(data.is_some())))?;
            map.serialize_entry(tag, value)?;
            if let Some(data) = data {
                map.serialize_entry(field, data)?;
            }
            map.end()
        }
        None => {
            let fields = match data {
                None => Map::new(),
                Some(data) => match serde_json::to_value(data).map_err(S::Error::custom)? {
                    Value::Object(fields) => fields,
                    Value::Null => Map::new(),
                    _ => {
                        return Err(S::Error::custom(format!(
                            "the content of union variant `{value}` must be an object"
                        )));
                    }
                },
            };
            let mut map = serializer.serialize_map(Some(fields.len() + 1))?;
            map.serialize_entry(tag, value)?;
            for (key, field_value) in fields.iter().filter(|(key, _)| key.as_str() != tag) {
                map.serialize_entry(key, field_value)?;
            }
            map.end()
        }
    }
}

/// The order in which to try the variants of an untagged union on `value`, best fit first.
///
/// `keys[i]` holds the wire names of variant `i`'s fields when it is an object (`None`
/// otherwise). When `value` is an object, the object variants come first, those leaving
/// fewest of its keys undeclared before the others, then those declaring fewest fields (the
/// tightest fit), then in the order written; the other variants follow in theirs. So a payload
/// is read as the variant that names what it holds, whatever the order the document wrote them
/// in: Vonage's `{"request_id": "…", "status": "0"}` is its success answer, not the error
/// answer that also has an `error_text`, and `{"status": "16", "error_text": "…"}` is the error.
/// When `value` is no object, the order written. The rule is
/// [`tidings_spec::untagged_fit_order`]'s.
///
/// ```
/// let success: &[&str] = &["request_id", "status"];
/// let error: &[&str] = &["request_id", "status", "error_text"];
/// let keys = [Some(error), Some(success), None];
/// let fit = |v| tidings_runtime::union::fit_order(&v, &keys);
/// assert_eq!(fit(serde_json::json!({"request_id": "a1", "status": "0"})), [1, 0, 2]);
/// assert_eq!(fit(serde_json::json!({"status": "2", "error_text": "Missing"})), [0, 1, 2]);
/// assert_eq!(fit(serde_json::json!("text")), [0, 1, 2]);
/// ```
pub fn fit_order(value: &Value, keys: &[Option<&[&str]>]) -> Vec<usize> {
    let present: Option<Vec<&str>> = value
        .as_object()
        .map(|map| map.keys().map(String::as_str).collect());
    tidings_spec::untagged_fit_order(present.as_deref(), keys)
}

/// `value` read as `T`, or `None` when it does not fit.
pub fn fits<T: DeserializeOwned>(value: &Value) -> Option<T> {
    T::deserialize(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Sent {
        id: String,
    }

    #[derive(Debug, Clone, PartialEq)]
    enum Event {
        Sent(Sent),
        Ping,
        Unknown(Value),
    }

    impl Serialize for Event {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                Event::Sent(c) => serialize(s, "type", Some("data"), "email.sent", Some(c)),
                Event::Ping => serialize::<_, ()>(s, "type", Some("data"), "ping", None),
                Event::Unknown(v) => v.serialize(s),
            }
        }
    }

    impl<'de> Deserialize<'de> for Event {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let (tag, content, whole) = split(d, "type", Some("data"))?;
            Ok(match tag.as_deref() {
                Some("email.sent") => Event::Sent(super::content(content)?),
                Some("ping") => Event::Ping,
                _ => Event::Unknown(whole),
            })
        }
    }

    #[test]
    fn round_trips_known_and_unknown_variants() {
        for json in [
            r#"{"type":"email.sent","data":{"id":"em_1"}}"#,
            r#"{"type":"ping"}"#,
            r#"{"type":"email.teleported","data":{"x":1}}"#,
            r#""not an object""#,
        ] {
            let event: Event = serde_json::from_str(json).expect("decodes");
            let back: Value =
                serde_json::from_str(&serde_json::to_string(&event).expect("encodes"))
                    .expect("json");
            assert_eq!(
                back,
                serde_json::from_str::<Value>(json).expect("json"),
                "{json}"
            );
        }
        // Known variants write the tag first.
        assert_eq!(
            serde_json::to_string(&Event::Sent(Sent { id: "em_1".into() })).expect("encodes"),
            r#"{"type":"email.sent","data":{"id":"em_1"}}"#
        );
        let event: Event =
            serde_json::from_str(r#"{"type":"email.sent","data":{"id":"em_1"}}"#).expect("decodes");
        assert_eq!(event, Event::Sent(Sent { id: "em_1".into() }));
    }

    #[test]
    fn bad_content_of_a_known_variant_is_an_error() {
        assert!(serde_json::from_str::<Event>(r#"{"type":"email.sent","data":{"id":3}}"#).is_err());
    }
}
