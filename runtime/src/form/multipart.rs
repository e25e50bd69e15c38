//! Multipart bodies: written from a serde type (a part per field, a file part per
//! [`FilePart`]) and read back, bounded in bytes, depth and fields.

#[cfg(feature = "server")]
use super::decode::{Lenient, insert, split_name};
use super::*;

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
    let mut jsons = Vec::new();
    for (name, value) in fields {
        // A list of files (a `list<bytes>` field): a file part per item, under the one name.
        if let Node::Array(items) = &value
            && !items.is_empty()
            && let Some(each) = items
                .iter()
                .map(FilePart::from_node)
                .collect::<Option<Vec<_>>>()
        {
            files.extend(each.into_iter().map(|file| (name.clone(), file)));
            continue;
        }
        match FilePart::from_node(&value) {
            Some(file) => files.push((name, file)),
            None if style.nested == NestedStyle::Json && is_structured(&value) => {
                jsons.push((name, json_text(&value)));
            }
            None if style.arrays == ArrayStyle::Json && matches!(value, Node::Array(_)) => {
                jsons.push((name, json_text(&value)));
            }
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
    for (name, text) in &jsons {
        let head = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{}\"\r\nContent-Type: application/json\r\n\r\n",
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
#[cfg(feature = "server")]
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
#[cfg(feature = "server")]
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
        // A part without a file name whose bytes are not text is a file all the same (a
        // `format: binary` field sent as a plain part): a text field refuses it by type.
        let filename = filename.or_else(|| std::str::from_utf8(data).is_err().then(String::new));
        let value = match filename {
            Some(filename) => serde_json::to_value(FilePart {
                filename,
                content_type: part_type.unwrap_or_else(|| "application/octet-stream".into()),
                data: data.to_vec(),
            })
            .map_err(|e| bad(&e.to_string()))?,
            None => {
                let text = String::from_utf8(data.to_vec())
                    .map_err(|_| bad("a text part is not UTF-8"))?;
                // A JSON part (an object field under `NestedStyle::Json`) is that value.
                let json = part_type.as_deref().is_some_and(|t| {
                    t.split(';')
                        .next()
                        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
                });
                if json {
                    serde_json::from_str(&text)
                        .map_err(|e| bad(&format!("part `{name}` is not JSON: {e}")))?
                } else {
                    Value::String(text)
                }
            }
        };
        let path = split_name(&name, style.nested);
        if path.len() > MAX_DEPTH + 1 {
            return Err(bad(&format!("part `{name}` is nested too deep")));
        }
        insert(&mut root, &path, value).map_err(|m| bad(&format!("part `{name}`: {m}")))?;
    }
    Ok(root)
}

#[cfg(feature = "server")]
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

#[cfg(all(test, feature = "server"))]
mod decode_tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_part_without_a_file_name_whose_bytes_are_not_text_is_a_file() {
        let body = b"--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n\x89PNG\r\n\x1a\n\r\n\
                     --b\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n--b--\r\n";
        let value =
            decode_multipart_value(body, "multipart/form-data; boundary=b", FormStyle::DEFAULT)
                .unwrap();
        assert_eq!(value["note"], "hello");
        let file: FilePart = serde_json::from_value(value["file"].clone()).unwrap();
        assert_eq!(file.data, b"\x89PNG\r\n\x1a\n");
        assert_eq!(file.content_type, "application/octet-stream");
    }

    #[test]
    fn several_files_under_one_name_are_a_list_of_files() {
        // Mailgun's `attachment`: a `list<bytes>` field, a file part per item.
        #[derive(serde::Deserialize)]
        struct Send {
            attachment: Vec<FilePart>,
        }
        let part = |name: &str, data: &str| {
            format!(
                "--b\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"{name}\"\r\n\r\n{data}\r\n"
            )
        };
        let two = format!(
            "{}{}--b--\r\n",
            part("a.png", "png"),
            part("b.txt", "hello")
        );
        let sent: Send = decode_multipart(
            two.as_bytes(),
            "multipart/form-data; boundary=b",
            FormStyle::DEFAULT,
        )
        .unwrap();
        let names: Vec<&str> = sent
            .attachment
            .iter()
            .map(|f| f.filename.as_str())
            .collect();
        assert_eq!(names, ["a.png", "b.txt"]);
        assert_eq!(sent.attachment[1].data, b"hello");
        // A third file joins the list.
        let three = format!(
            "{}{}{}--b--\r\n",
            part("a.png", "png"),
            part("b.txt", "hello"),
            part("c", "c")
        );
        let sent: Send = decode_multipart(
            three.as_bytes(),
            "multipart/form-data; boundary=b",
            FormStyle::DEFAULT,
        )
        .unwrap();
        assert_eq!(sent.attachment.len(), 3);
        // What the client sends for a `list<bytes>`: a file part per item, read back the same.
        let files = serde_json::json!({"attachment": [
            FilePart { filename: "a.png".into(), content_type: "image/png".into(), data: vec![0x89, 0, 0xff] },
            FilePart { filename: "b.txt".into(), content_type: "text/plain".into(), data: b"hi".to_vec() },
        ]});
        // As imported multipart bodies are styled: object fields as JSON parts.
        let style = FormStyle {
            nested: crate::spec::NestedStyle::Json,
            ..FormStyle::DEFAULT
        };
        let (body, content_type) = multipart(&files, style).unwrap();
        let text = String::from_utf8_lossy(&body);
        assert_eq!(text.matches("filename=").count(), 2, "{text}");
        let sent: Send = decode_multipart(&body, &content_type, style).unwrap();
        assert_eq!(sent.attachment[0].data, [0x89, 0, 0xff]);
        assert_eq!(sent.attachment[1].filename, "b.txt");
    }
}
