//! Form bodies (`application/x-www-form-urlencoded`) and multipart bodies (`multipart/form-data`)
//! written from, and read back into, serde types, with arrays and nested fields in a declared
//! [`FormStyle`]. Both directions are bounded by depth and by the number of fields.
//!
//! serde_urlencoded writes neither arrays nor nested objects, so the encoder walks the body's
//! JSON form instead; the decoder builds that JSON form from the pairs and reads the target type
//! from it, turning text into the numbers and booleans the type asks for.

use serde::Serialize;
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde_json::{Map, Value};

use crate::Error;
use crate::spec::{ArrayStyle, FormStyle, NestedStyle};
use crate::wire_text::{Node, NodeError, Text};

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
/// use tidings_runtime::{ArrayStyle, FormStyle, NestedStyle};
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
    match value {
        Node::Null => Ok(()),
        Node::Scalar(s) | Node::String(s) => {
            out.push((name.to_owned(), s.clone()));
            Ok(())
        }
        Node::Object(fields) => {
            for (key, value) in fields {
                let child = match style.nested {
                    NestedStyle::Brackets => format!("{name}[{key}]"),
                    NestedStyle::Dots => format!("{name}.{key}"),
                };
                write_value(&child, value, style, depth + 1, out)?;
            }
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

/// Reads a form body back into `T` (what a server does with what [`encode`] wrote): repeated
/// names and `[]`/`[0]` become arrays, `a[b]` (or `a.b`) nested fields, and text becomes the
/// number or boolean `T` asks for.
///
/// ```
/// use tidings_runtime::form::decode;
/// use tidings_runtime::FormStyle;
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
        insert(&mut root, &path, Value::String(value.into_owned()))
            .map_err(|m| Error::decode(format!("form field `{name}`: {m}"), b""))?;
    }
    Ok(root)
}

/// `a[b][]` → `["a", "b", ""]`; with dots, `a.b[0]` → `["a", "b", "0"]`.
fn split_name(name: &str, nested: NestedStyle) -> Vec<String> {
    let (head, rest) = match name.find('[') {
        Some(i) if name.ends_with(']') => (&name[..i], &name[i..]),
        _ => (name, ""),
    };
    let mut path: Vec<String> = match nested {
        NestedStyle::Dots => head.split('.').map(str::to_owned).collect(),
        NestedStyle::Brackets => vec![head.to_owned()],
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

fn insert(node: &mut Value, path: &[String], value: Value) -> Result<(), &'static str> {
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

fn empty_for(segment: &str) -> Value {
    if segment.is_empty() || segment.parse::<usize>().is_ok() {
        Value::Array(Vec::new())
    } else {
        Value::Object(Map::new())
    }
}

/// A multipart body built from a serialisable body: its bytes and its `Content-Type` (with the
/// boundary). Each scalar field is a text part; arrays repeat the part, nested fields are named
/// as the style says. A field serialised by [`FilePart`] is a file part.
///
/// # Errors
///
/// As [`pairs`], and [`Error::InvalidRequest`] when the body would exceed
/// [`MAX_MULTIPART_BYTES`].
pub fn multipart<B: Serialize + ?Sized>(
    body: &B,
    style: FormStyle,
) -> Result<(Vec<u8>, String), Error> {
    let Node::Object(fields) = node_of(body)? else {
        return Err(Error::invalid_request(
            "body",
            "a multipart body must be an object of fields",
        ));
    };
    let mut files = Vec::new();
    let mut texts = Vec::new();
    for (name, value) in fields {
        match FilePart::from_node(&value) {
            Some(file) => files.push((name, file)),
            None => texts.push((name, value)),
        }
    }
    let pairs = fields_to_pairs(&texts, style)?;
    let boundary = format!("tidings-{}", hex::encode(crate::random::bytes::<12>()));
    let mut out = Vec::new();
    let push = |out: &mut Vec<u8>, head: String, data: &[u8]| -> Result<(), Error> {
        if out.len() + head.len() + data.len() + boundary.len() + 8 > MAX_MULTIPART_BYTES {
            return Err(Error::invalid_request(
                "body",
                format!("a multipart body may be at most {MAX_MULTIPART_BYTES} bytes"),
            ));
        }
        out.extend_from_slice(head.as_bytes());
        out.extend_from_slice(data);
        out.extend_from_slice(b"\r\n");
        Ok(())
    };
    for (name, text) in &pairs {
        let head = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{}\"\r\n\r\n",
            quoted(name)
        );
        push(&mut out, head, text.as_bytes())?;
    }
    for (name, file) in &files {
        let head = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{}\"; filename=\"{}\"\r\nContent-Type: {}\r\n\r\n",
            quoted(name),
            quoted(&file.filename),
            file.content_type.replace(['\r', '\n'], "")
        );
        push(&mut out, head, &file.data)?;
    }
    out.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok((out, format!("multipart/form-data; boundary={boundary}")))
}

/// Reads a multipart body (what [`multipart`] wrote) back into `T`: text parts as form fields
/// (named in `style`), file parts as [`FilePart`]s.
///
/// # Errors
///
/// [`Error::Decode`] when the content type has no boundary, a part is malformed, there are more
/// than [`MAX_FIELDS`] parts, or the fields do not fit `T`.
pub fn decode_multipart<T: DeserializeOwned>(
    body: &[u8],
    content_type: &str,
    style: FormStyle,
) -> Result<T, Error> {
    let value = decode_multipart_value(body, content_type, style)?;
    T::deserialize(Lenient {
        value,
        comma: style.arrays == ArrayStyle::Comma,
    })
    .map_err(|e| Error::decode(format!("multipart body: {e}"), b""))
}

/// The JSON form of a multipart body; see [`decode_multipart`].
///
/// # Errors
///
/// As [`decode_multipart`], except fitting a type.
pub fn decode_multipart_value(
    body: &[u8],
    content_type: &str,
    style: FormStyle,
) -> Result<Value, Error> {
    let bad = |m: &str| Error::decode(format!("multipart body: {m}"), b"");
    let boundary = content_type
        .split(';')
        .filter_map(|p| p.trim().split_once('='))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("boundary"))
        .map(|(_, v)| v.trim().trim_matches('"'))
        .filter(|b| !b.is_empty() && b.len() <= 200)
        .ok_or_else(|| bad("no boundary in the content type"))?;
    let delimiter = format!("--{boundary}");
    let mut root = Value::Object(Map::new());
    let mut rest = body;
    // Up to the first delimiter: a preamble, ignored.
    let start = find(rest, delimiter.as_bytes()).ok_or_else(|| bad("no first boundary"))?;
    rest = &rest[start + delimiter.len()..];
    for count in 0.. {
        if rest.starts_with(b"--") {
            return Ok(root);
        }
        if count >= MAX_FIELDS {
            return Err(bad(&format!("more than {MAX_FIELDS} parts")));
        }
        rest = rest
            .strip_prefix(b"\r\n")
            .ok_or_else(|| bad("a boundary is not followed by a line break"))?;
        let head_end =
            find(rest, b"\r\n\r\n").ok_or_else(|| bad("a part has no end of headers"))?;
        let head =
            std::str::from_utf8(&rest[..head_end]).map_err(|_| bad("part headers are not text"))?;
        rest = &rest[head_end + 4..];
        let end = find(rest, format!("\r\n{delimiter}").as_bytes())
            .ok_or_else(|| bad("a part has no closing boundary"))?;
        let data = &rest[..end];
        rest = &rest[end + 2 + delimiter.len()..];
        let mut name = None;
        let mut filename = None;
        let mut part_type = None;
        for line in head.split("\r\n") {
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            if key.trim().eq_ignore_ascii_case("content-disposition") {
                for param in value.split(';').skip(1) {
                    if let Some((k, v)) = param.trim().split_once('=') {
                        let v = v.trim().trim_matches('"').to_owned();
                        match k.trim() {
                            "name" => name = Some(v),
                            "filename" => filename = Some(v),
                            _ => {}
                        }
                    }
                }
            } else if key.trim().eq_ignore_ascii_case("content-type") {
                part_type = Some(value.trim().to_owned());
            }
        }
        let name = name.ok_or_else(|| bad("a part has no name"))?;
        let value = match filename {
            Some(filename) => serde_json::to_value(FilePart {
                filename,
                content_type: part_type.unwrap_or_else(|| "application/octet-stream".into()),
                data: data.to_vec(),
            })
            .map_err(|e| bad(&e.to_string()))?,
            None => Value::String(
                String::from_utf8(data.to_vec()).map_err(|_| bad("a text part is not UTF-8"))?,
            ),
        };
        let path = split_name(&name, style.nested);
        if path.len() > MAX_DEPTH + 1 {
            return Err(bad(&format!("part `{name}` is nested too deep")));
        }
        insert(&mut root, &path, value).map_err(|m| bad(&format!("part `{name}`: {m}")))?;
    }
    Ok(root)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// A name inside a quoted header parameter: quotes and line breaks escaped.
fn quoted(name: &str) -> String {
    name.replace('\\', "\\\\")
        .replace('"', "%22")
        .replace(['\r', '\n'], " ")
}

/// A file in a multipart body: a field of type `bytes` in a spec.
///
/// It serialises (as JSON) to `{"$file": {"filename", "content_type", "data"}}` with the data in
/// base64, which [`multipart`] turns into a file part; it reads that form back.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct FilePart {
    /// The file name sent in `Content-Disposition`.
    pub filename: String,
    /// Its media type, e.g. `image/png`.
    pub content_type: String,
    /// Its content.
    pub data: Vec<u8>,
}

impl std::fmt::Debug for FilePart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FilePart")
            .field("filename", &self.filename)
            .field("content_type", &self.content_type)
            .field("len", &self.data.len())
            .finish()
    }
}

impl FilePart {
    /// A file part named `filename` of media type `content_type`.
    pub fn new(
        filename: impl Into<String>,
        content_type: impl Into<String>,
        data: impl Into<Vec<u8>>,
    ) -> Self {
        FilePart {
            filename: filename.into(),
            content_type: content_type.into(),
            data: data.into(),
        }
    }

    fn from_node(value: &Node) -> Option<FilePart> {
        let Node::Object(fields) = value else {
            return None;
        };
        let [(marker, Node::Object(inner))] = fields.as_slice() else {
            return None;
        };
        let text = |key: &str| {
            inner.iter().find_map(|(k, v)| match v {
                Node::String(s) if k == key => Some(s.as_str()),
                _ => None,
            })
        };
        use base64::Engine as _;
        let data = base64::engine::general_purpose::STANDARD
            .decode(text("data")?)
            .ok()?;
        (marker == "$file").then(|| FilePart {
            filename: text("filename").unwrap_or_default().to_owned(),
            content_type: text("content_type")
                .unwrap_or("application/octet-stream")
                .to_owned(),
            data,
        })
    }
}

mod base64_bytes {
    use base64::Engine as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(data: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(data))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .map_err(serde::de::Error::custom)
    }
}

/// Wrapped as `{"$file": ...}` so the multipart encoder can tell it from an object field.
#[derive(serde::Serialize, serde::Deserialize)]
struct Marked<F> {
    #[serde(rename = "$file")]
    file: F,
}

#[derive(serde::Serialize)]
struct Plain<'a> {
    filename: &'a str,
    content_type: &'a str,
    #[serde(with = "base64_bytes")]
    data: &'a [u8],
}

#[derive(serde::Deserialize)]
struct Owned {
    #[serde(default)]
    filename: String,
    #[serde(default)]
    content_type: String,
    #[serde(with = "base64_bytes")]
    data: Vec<u8>,
}

impl Serialize for FilePart {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Marked {
            file: Plain {
                filename: &self.filename,
                content_type: &self.content_type,
                data: &self.data,
            },
        }
        .serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for FilePart {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FilePart, D::Error> {
        let Marked { file } = Marked::<Owned>::deserialize(d)?;
        Ok(FilePart {
            filename: file.filename,
            content_type: file.content_type,
            data: file.data,
        })
    }
}

/// A JSON value read leniently: text where a number, boolean or list is wanted is converted.
struct Lenient {
    value: Value,
    comma: bool,
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const STYLE: FormStyle = FormStyle::DEFAULT;

    #[test]
    fn twilio_style_keeps_field_order_repeats_arrays_and_encodes_plus_signs() {
        #[derive(serde::Serialize)]
        #[serde(rename_all = "PascalCase")]
        struct Create {
            to: &'static str,
            from: &'static str,
            body: &'static str,
            media_url: Vec<&'static str>,
            status_callback: Option<&'static str>,
        }
        let body = Create {
            to: "+15558675310",
            from: "+15017122661",
            body: "Hi there & welcome",
            media_url: vec!["https://e.x/a.png", "https://e.x/b.png"],
            status_callback: None,
        };
        assert_eq!(
            encode(&body, STYLE).unwrap(),
            "To=%2B15558675310&From=%2B15017122661&Body=Hi+there+%26+welcome\
             &MediaUrl=https%3A%2F%2Fe.x%2Fa.png&MediaUrl=https%3A%2F%2Fe.x%2Fb.png"
        );
    }

    #[test]
    fn every_array_and_nesting_style_round_trips() {
        let body = json!({"to": ["a", "b"], "meta": {"k": "v", "deep": {"n": "1"}}, "skip": null});
        for arrays in [
            ArrayStyle::Repeat,
            ArrayStyle::Brackets,
            ArrayStyle::Indexed,
            ArrayStyle::Comma,
        ] {
            for nested in [NestedStyle::Brackets, NestedStyle::Dots] {
                let style = FormStyle { arrays, nested };
                let text = encode(&body, style).unwrap();
                let back: Value = decode(text.as_bytes(), style).unwrap();
                assert_eq!(
                    back,
                    json!({"to": if arrays == ArrayStyle::Comma { json!("a,b") } else { json!(["a", "b"]) },
                        "meta": {"k": "v", "deep": {"n": "1"}}}),
                    "{style:?}: {text}"
                );
            }
        }
        let style = FormStyle {
            arrays: ArrayStyle::Indexed,
            nested: NestedStyle::Dots,
        };
        assert_eq!(
            encode(&body, style).unwrap(),
            "meta.deep.n=1&meta.k=v&to%5B0%5D=a&to%5B1%5D=b"
        );
    }

    #[test]
    fn decoding_converts_text_to_the_types_asked_for() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct Body {
            n: u32,
            f: f64,
            on: bool,
            one: Vec<String>,
            tags: Option<Vec<u8>>,
        }
        let style = FormStyle {
            arrays: ArrayStyle::Comma,
            nested: NestedStyle::Brackets,
        };
        let got: Body = decode(b"n=7&f=1.5&on=true&one=x&tags=1,2", style).unwrap();
        assert_eq!(
            got,
            Body {
                n: 7,
                f: 1.5,
                on: true,
                one: vec!["x".into()],
                tags: Some(vec![1, 2])
            }
        );
        let err = decode::<Body>(b"n=seven&f=1&on=true&one=x", style).unwrap_err();
        assert!(err.to_string().contains("`seven` is not a"), "{err}");
    }

    #[test]
    fn limits_refuse_deep_and_huge_bodies() {
        let mut deep = json!("x");
        for _ in 0..=MAX_DEPTH + 1 {
            deep = json!({ "a": deep });
        }
        let err = encode(&deep, STYLE).unwrap_err();
        assert!(err.to_string().contains("nested at most"), "{err}");
        let many: Vec<u32> = (0..=u32::try_from(MAX_FIELDS).unwrap()).collect();
        let err = encode(&json!({ "n": many }), STYLE).unwrap_err();
        assert!(err.to_string().contains("at most 10000 fields"), "{err}");
        let huge = "a=1&".repeat(MAX_FIELDS + 1);
        let err = decode_value(huge.as_bytes(), STYLE).unwrap_err();
        assert!(err.to_string().contains("at most 10000 fields"), "{err}");
        let deep_name = format!("a{}=1", "[b]".repeat(MAX_DEPTH + 2));
        assert!(decode_value(deep_name.as_bytes(), STYLE).is_err());
        assert!(decode_value(b"a=1&a[b]=2", STYLE).is_err());
        assert!(decode_value(b"a[5]=1", STYLE).is_err());
        assert!(encode(&json!([1, 2]), STYLE).is_err());
    }

    #[test]
    fn multipart_writes_text_and_file_parts() {
        #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
        struct Upload {
            to: Vec<String>,
            file: FilePart,
        }
        let body = Upload {
            to: vec!["a".into(), "b".into()],
            file: FilePart::new("x\".png", "image/png", vec![0u8, 1, 2]),
        };
        let (bytes, content_type) = multipart(&body, STYLE).unwrap();
        let boundary = content_type
            .strip_prefix("multipart/form-data; boundary=")
            .unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(text.matches("name=\"to\"").count(), 2);
        assert!(text.contains("filename=\"x%22.png\"\r\nContent-Type: image/png\r\n\r\n"));
        assert!(bytes.windows(3).any(|w| w == [0, 1, 2]));
        assert!(text.ends_with(&format!("--{boundary}--\r\n")));
        let back: Upload = decode_multipart(&bytes, &content_type, STYLE).unwrap();
        assert_eq!(back.to, body.to);
        assert_eq!(back.file.data, [0, 1, 2]);
        assert_eq!(back.file.filename, "x%22.png");
        let err =
            decode_multipart::<Upload>(b"--x\r\nno end", "multipart/form-data; boundary=x", STYLE)
                .unwrap_err();
        assert!(err.to_string().contains("multipart body"), "{err}");
        assert!(decode_multipart_value(&bytes, "multipart/form-data", STYLE).is_err());
    }
}
