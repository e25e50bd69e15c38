//! Form bodies (`application/x-www-form-urlencoded`) and multipart bodies (`multipart/form-data`)
//! written from, and read back into, serde types, with arrays and nested fields in a declared
//! [`FormStyle`]. Both directions are bounded by depth and by the number of fields.
//!
//! serde_urlencoded writes neither arrays nor nested objects, so the encoder walks the body's
//! JSON form instead; the decoder builds that JSON form from the pairs and reads the target type
//! from it, turning text into the numbers and booleans the type asks for. The decoders are a
//! server's concern: they are compiled with the feature `server` only (`tidings-sandbox` turns it
//! on), so clients do not carry them.

use serde::Serialize;
// What the decoders (feature `server`) read through `use super::*`.
#[cfg(feature = "server")]
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
#[cfg(feature = "server")]
use serde_json::{Map, Value};

use crate::Error;
use crate::spec::{ArrayStyle, FormStyle, NestedStyle};
#[cfg(feature = "server")]
use crate::wire_text::Text;
use crate::wire_text::{Node, NodeError};

#[cfg(feature = "server")]
mod decode;
mod multipart;

#[cfg(feature = "server")]
pub use decode::{decode, decode_value};
pub use multipart::{FilePart, multipart};
#[cfg(feature = "server")]
pub use multipart::{decode_multipart, decode_multipart_value};

/// Deepest nesting of objects and arrays a form body may have.
pub const MAX_DEPTH: usize = 16;
/// Most `name=value` pairs (or parts) in one form body.
pub const MAX_FIELDS: usize = 10_000;
/// Largest multipart body the encoder writes, in bytes.
pub const MAX_MULTIPART_BYTES: usize = 32 * 1024 * 1024;

/// The `name=value` pairs a serialisable body stands for, in field order. `None` (`null`)
/// fields are left out.
///
/// ```
/// use tidings_runtime::form::pairs;
/// use tidings_runtime::spec::{ArrayStyle, FormStyle, NestedStyle};
/// #[derive(serde::Serialize)]
/// struct Send { #[serde(rename = "To")] to: &'static str, #[serde(rename = "MediaUrl")] media: Vec<&'static str>, opt: Opt }
/// #[derive(serde::Serialize)]
/// struct Opt { x: u32 }
/// let body = Send { to: "+15550001", media: vec!["a", "b"], opt: Opt { x: 1 } };
/// let style = FormStyle { arrays: ArrayStyle::Repeat, nested: NestedStyle::Brackets };
/// let got = pairs(&body, style)?;
/// assert_eq!(got, [("To", "+15550001"), ("MediaUrl", "a"), ("MediaUrl", "b"), ("opt[x]", "1")]
///     .map(|(k, v)| (k.to_owned(), v.to_owned())));
/// # Ok::<(), tidings_runtime::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidRequest`] when the body is not an object, is nested deeper than
/// [`MAX_DEPTH`], has more than [`MAX_FIELDS`] pairs, or (comma style) has an array of
/// non-scalars.
pub fn pairs<B: Serialize + ?Sized>(
    body: &B,
    style: FormStyle,
) -> Result<Vec<(String, String)>, Error> {
    let Node::Object(fields) = node_of(body)? else {
        return Err(Error::invalid_request(
            "body",
            "a form body must be an object of fields",
        ));
    };
    fields_to_pairs(&fields, style)
}

fn fields_to_pairs(
    fields: &[(String, Node)],
    style: FormStyle,
) -> Result<Vec<(String, String)>, Error> {
    let mut out = Vec::new();
    for (name, value) in fields {
        write_value(name, value, style, 0, &mut out)?;
    }
    Ok(out)
}

/// The body's JSON form, fields in order.
fn node_of<B: Serialize + ?Sized>(body: &B) -> Result<Node, Error> {
    Node::of(body).map_err(|(NodeError::Encode(e) | NodeError::Read(e))| {
        Error::invalid_request("body", format!("cannot be serialised ({e})"))
    })
}

/// The body as `application/x-www-form-urlencoded` text (spaces as `+`).
///
/// # Errors
///
/// As [`pairs`].
pub fn encode<B: Serialize + ?Sized>(body: &B, style: FormStyle) -> Result<String, Error> {
    let pairs = pairs(body, style)?;
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    out.extend_pairs(pairs);
    Ok(out.finish())
}

/// Whether `value` is an object or a list holding one: what [`NestedStyle::Json`] sends whole.
fn is_structured(value: &Node) -> bool {
    match value {
        Node::Object(_) => true,
        Node::Array(items) => items
            .iter()
            .any(|i| matches!(i, Node::Object(_) | Node::Array(_))),
        _ => false,
    }
}

/// `value` as JSON text (numbers and booleans are already their JSON text).
fn json_text(value: &Node) -> String {
    match value {
        Node::Null => "null".to_owned(),
        Node::Scalar(s) => s.clone(),
        Node::String(s) => serde_json::Value::String(s.clone()).to_string(),
        Node::Array(items) => {
            let items: Vec<String> = items.iter().map(json_text).collect();
            format!("[{}]", items.join(","))
        }
        Node::Object(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .filter(|(_, v)| !matches!(v, Node::Null))
                .map(|(k, v)| format!("{}:{}", serde_json::Value::String(k.clone()), json_text(v)))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
    }
}

fn too_many() -> Error {
    Error::invalid_request(
        "body",
        format!("a form body may have at most {MAX_FIELDS} fields"),
    )
}

fn write_value(
    name: &str,
    value: &Node,
    style: FormStyle,
    depth: usize,
    out: &mut Vec<(String, String)>,
) -> Result<(), Error> {
    if depth > MAX_DEPTH {
        return Err(Error::invalid_request(
            "body",
            format!("a form body may be nested at most {MAX_DEPTH} deep"),
        ));
    }
    if out.len() >= MAX_FIELDS {
        return Err(too_many());
    }
    if style.nested == NestedStyle::Json && is_structured(value) {
        out.push((name.to_owned(), json_text(value)));
        return Ok(());
    }
    match value {
        Node::Null => Ok(()),
        Node::Scalar(s) | Node::String(s) => {
            out.push((name.to_owned(), s.clone()));
            Ok(())
        }
        Node::Object(fields) => {
            for (key, value) in fields {
                let child = match style.nested {
                    NestedStyle::Brackets | NestedStyle::Json => format!("{name}[{key}]"),
                    NestedStyle::Dots => format!("{name}.{key}"),
                };
                write_value(&child, value, style, depth + 1, out)?;
            }
            Ok(())
        }
        // A top-level list as its JSON text (an empty one too: `[]` says "none").
        Node::Array(_) if style.arrays == ArrayStyle::Json && depth == 0 => {
            out.push((name.to_owned(), json_text(value)));
            Ok(())
        }
        Node::Array(items) => {
            let scalars = items
                .iter()
                .all(|v| !matches!(v, Node::Array(_) | Node::Object(_)));
            if style.arrays == ArrayStyle::Comma {
                if !scalars {
                    return Err(Error::invalid_request(
                        name,
                        "the comma array style takes only numbers, strings and booleans",
                    ));
                }
                let mut joined = String::new();
                for (i, item) in items.iter().enumerate() {
                    if let Node::Scalar(s) | Node::String(s) = item {
                        if i > 0 {
                            joined.push(',');
                        }
                        joined.push_str(s);
                    }
                }
                if !items.is_empty() {
                    out.push((name.to_owned(), joined));
                }
                return Ok(());
            }
            for (i, item) in items.iter().enumerate() {
                // Objects inside arrays need an index to keep their fields together.
                let child = match (style.arrays, scalars) {
                    (ArrayStyle::Repeat, true) => name.to_owned(),
                    (ArrayStyle::Brackets, true) => format!("{name}[]"),
                    _ => format!("{name}[{i}]"),
                };
                write_value(&child, item, style, depth + 1, out)?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
#[cfg(feature = "server")]
mod tests;
