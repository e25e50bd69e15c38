//! Media types of request and answer bodies: JSON, forms and their array styles, bytes sent
//! as they are, and query list styles.

use serde_json::{Map, Value};

use super::Converter;

/// The JSON media type of a content map, if it has one (`*/*` counts, unless its schema is a
/// binary string: then it is any file).
pub(super) fn json_media(content: &Map<String, Value>) -> Option<(&str, &Value)> {
    content
        .iter()
        .find(|(k, _)| k.split(';').next() == Some("application/json"))
        .or_else(|| content.iter().find(|(k, _)| k.contains("json")))
        .or_else(|| {
            content
                .iter()
                .find(|(k, v)| k.as_str() == "*/*" && !binary_string(v.get("schema")))
        })
        .map(|(k, v)| (k.as_str(), v))
}

/// Whether a schema is a string of bytes (`format: binary`).
pub(super) fn binary_string(schema: Option<&Value>) -> bool {
    schema.is_some_and(|s| {
        s.get("type").and_then(Value::as_str) == Some("string")
            && s.get("format").and_then(Value::as_str) == Some("binary")
    })
}

/// The media types of a body sent as it is (`application/octet-stream`, `image/png`, `*/*`):
/// none of them JSON (but as bytes) or a form; empty when any type goes (`*/*`, or our own
/// export of it).
pub(super) fn binary_media(body: &Value, content: &Map<String, Value>) -> Option<Vec<String>> {
    let own = body.get("x-body-encoding").and_then(Value::as_str) == Some("binary");
    // A JSON media type whose schema is a binary string is not JSON (Bandwidth's media
    // upload lists `application/json` first among its 48 file types, `format: binary`).
    let plain = content.iter().all(|(k, v)| {
        (!k.contains("json") || binary_string(v.get("schema"))) && form_encoding(k).is_none()
    });
    if content.is_empty() || !(own || plain) {
        return None;
    }
    let media: Vec<String> = content
        .keys()
        .map(|k| k.split(';').next().unwrap_or_default().trim().to_owned())
        .collect();
    Some(if media.iter().any(|m| m == "*/*") {
        Vec::new()
    } else {
        media
    })
}

/// Why a body of this media type cannot be imported.
pub(super) fn body_reason(media: &str) -> String {
    if media.contains("x-www-form-urlencoded") {
        "needs spec construct: form body (issue 16)".into()
    } else if media.contains("multipart") {
        "needs spec construct: multipart body (issue 16)".into()
    } else {
        format!("needs spec construct: `{media}` body")
    }
}

/// The texts of an untyped `enum` whose values are scalars of more than one JSON type
/// (`[true, false, 0, 1]` → `true`, `false`, `0`, `1`); `None` for any other schema.
pub(super) fn scalar_enum_texts(schema: &Value) -> Option<Vec<String>> {
    if schema.get("type").is_some() || schema.get("$ref").is_some() {
        return None;
    }
    let values = schema.get("enum")?.as_array()?;
    let kind = |v: &Value| match v {
        Value::Bool(_) => Some(0),
        Value::Number(_) => Some(1),
        Value::String(_) => Some(2),
        _ => None,
    };
    let kinds: Option<std::collections::BTreeSet<u8>> = values.iter().map(kind).collect();
    if kinds?.len() < 2 {
        return None;
    }
    Some(
        values
            .iter()
            .map(|v| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect(),
    )
}

/// Whether a schema's alternatives (`oneOf`/`anyOf`) include plain text.
pub(super) fn takes_text(schema: &Value) -> bool {
    ["oneOf", "anyOf"].iter().any(|k| {
        schema
            .get(*k)
            .and_then(Value::as_array)
            .is_some_and(|members| {
                members.iter().any(|m| {
                    m.get("type").and_then(Value::as_str) == Some("string")
                        && m.get("format").is_none()
                        && m.get("enum").is_none()
                })
            })
    })
}

/// `form` or `multipart` for those media types.
pub(super) fn form_encoding(media: &str) -> Option<&'static str> {
    let m = media.split(';').next().unwrap_or_default().trim();
    match m {
        "application/x-www-form-urlencoded" => Some("form"),
        "multipart/form-data" => Some("multipart"),
        // Not a registered media type, but how some documents spell multipart (Mailgun's
        // `POST /v3/{domain_name}/whitelists`): read as it, reported.
        "application/form-data" => Some("multipart"),
        _ => None,
    }
}

/// The `x-form-style` of our own export (`{arrays, nested}`), when both are known.
pub(super) fn own_form_style(style: &Value) -> Option<(&'static str, &'static str)> {
    let arrays = match style.get("arrays")?.as_str()? {
        "repeat" => "repeat",
        "brackets" => "brackets",
        "indexed" => "indexed",
        "comma" => "comma",
        "json" => "json",
        _ => return None,
    };
    let nested = match style.get("nested")?.as_str()? {
        "brackets" => "brackets",
        "dots" => "dots",
        "json" => "json",
        _ => return None,
    };
    Some((arrays, nested))
}

/// Whether a media type's `encoding` writes some field as a `deepObject` (`a[b]=1`).
pub(super) fn deep_object(media: &Value) -> bool {
    media
        .get("encoding")
        .and_then(Value::as_object)
        .is_some_and(|e| {
            e.values()
                .any(|f| f.get("style").and_then(Value::as_str) == Some("deepObject"))
        })
}

/// The item type of a `list<T>` type expression.
pub(super) fn t_list_item(ty: Option<&String>) -> Option<String> {
    ty?.strip_prefix("list<")?
        .strip_suffix('>')
        .map(str::to_owned)
}

impl Converter<'_> {
    /// Reports the media types a body takes besides `media`, the one the client sends (Ably's
    /// publish: MessagePack and a form besides JSON; a Swagger 2.0 body of form fields keeps
    /// the other media types its `consumes` lists aside: Slack's methods take JSON too), and
    /// returns, for a JSON body that the document also takes as a form (Mailgun's bounces:
    /// `application/json` and form data), the media types the service takes it in: JSON and
    /// those forms, for the spec's `body_media` (what the sandbox takes).
    pub(super) fn other_media(
        &mut self,
        body: &Value,
        content: &Map<String, Value>,
        media: &str,
        at: &str,
    ) -> Vec<String> {
        let swagger_others = body
            .get("x-also-consumes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str);
        let others: Vec<&str> = content
            .keys()
            .map(String::as_str)
            .chain(swagger_others)
            .filter(|k| *k != media && !(k.contains("json") && media.contains("json")))
            .collect();
        if others.is_empty() {
            return Vec::new();
        }
        let listed: Vec<String> = others.iter().map(|k| format!("`{k}`")).collect();
        self.approximate(
            at,
            &format!(
                "the body is sent as `{media}`; the document also takes {}",
                listed.join(", ")
            ),
        );
        let forms: Vec<String> = others
            .iter()
            .filter_map(|k| form_encoding(k))
            .map(|e| match e {
                "multipart" => "multipart/form-data".to_owned(),
                _ => "application/x-www-form-urlencoded".to_owned(),
            })
            .collect();
        if forms.is_empty() || !media.contains("json") {
            return Vec::new();
        }
        let mut taken = vec!["application/json".to_owned()];
        for form in forms {
            if !taken.contains(&form) {
                taken.push(form);
            }
        }
        taken
    }

    /// How a form body writes arrays, from the media type's `encoding` (`style`, `explode`);
    /// `None` for the defaults (`repeat`, `brackets`).
    pub(super) fn form_style(
        &mut self,
        media: &Value,
        ptr: &str,
    ) -> Option<(&'static str, &'static str)> {
        let encodings = media.get("encoding").and_then(Value::as_object)?;
        if let Some(json) = self.json_fields(media, encodings, ptr) {
            return Some(json);
        }
        let mut arrays = std::collections::BTreeSet::new();
        let mut nested = std::collections::BTreeSet::new();
        for e in encodings.values() {
            let style = e.get("style").and_then(Value::as_str).unwrap_or("form");
            let explode = e
                .get("explode")
                .and_then(Value::as_bool)
                .unwrap_or(style == "form");
            match (style, explode) {
                ("form", true) => {
                    arrays.insert("repeat");
                }
                ("form", false) => {
                    arrays.insert("comma");
                }
                ("deepObject", _) => {
                    nested.insert("brackets");
                }
                (other, _) => {
                    self.approximate(
                        &format!("{ptr}/encoding"),
                        &format!("form style `{other}` is not a form_style; the default is used"),
                    );
                }
            }
        }
        if arrays.len() > 1 {
            self.approximate(
                &format!("{ptr}/encoding"),
                "fields of one form body state different array styles; `repeat` is used for all",
            );
            return None;
        }
        let a = arrays.into_iter().next()?;
        (a != "repeat").then_some((a, "brackets"))
    }

    /// `json` for lists and objects when the `encoding` sends some field as JSON text
    /// (`contentType: application/json`: Zulip's `principals=[9,10]`); reported when another
    /// list or object field of the body is not marked so (the style is the body's).
    fn json_fields(
        &mut self,
        media: &Value,
        encodings: &Map<String, Value>,
        ptr: &str,
    ) -> Option<(&'static str, &'static str)> {
        let marked: Vec<&String> = encodings
            .iter()
            .filter(|(_, e)| {
                e.get("contentType")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.to_ascii_lowercase().contains("json"))
            })
            .map(|(name, _)| name)
            .collect();
        if marked.is_empty() {
            return None;
        }
        let schema = media
            .get("schema")
            .and_then(|s| super::document::deref(self.doc, s, "").map(|(s, _)| s.clone()));
        let properties = schema
            .as_ref()
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object);
        let unmarked: Vec<&String> = properties
            .into_iter()
            .flatten()
            .filter(|(name, _)| !marked.contains(name))
            .filter(|(_, p)| {
                let p = super::document::deref(self.doc, p, "").map_or(*p, |(p, _)| p);
                matches!(
                    p.get("type").and_then(Value::as_str),
                    Some("array" | "object")
                )
            })
            .map(|(name, _)| name)
            .collect();
        if !unmarked.is_empty() {
            self.approximate(
                &format!("{ptr}/encoding"),
                &format!(
                    "some fields are sent as JSON text (`contentType: application/json`), so every list and object field is: {} too",
                    unmarked
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        Some(("json", "json"))
    }

    /// The `style` of a list query parameter: OpenAPI `style`/`explode`, or Swagger 2.0's
    /// `collectionFormat` (default `csv`). `None` for `repeat`, the spec's default.
    pub(super) fn list_style(
        &mut self,
        p: &Value,
        _at: &str,
    ) -> Result<Option<&'static str>, String> {
        if self.swagger {
            let f = p
                .get("x-collection-format")
                .and_then(Value::as_str)
                .unwrap_or("csv");
            return match f {
                "csv" => Ok(Some("comma")),
                "multi" => Ok(None),
                other => Err(format!(
                    "needs spec construct: list query parameter with collectionFormat `{other}`"
                )),
            };
        }
        let style = p.get("style").and_then(Value::as_str).unwrap_or("form");
        let explode = p
            .get("explode")
            .and_then(Value::as_bool)
            .unwrap_or(style == "form");
        match (style, explode) {
            ("form", true) => Ok(None),
            ("form", false) => Ok(Some("comma")),
            (other, _) => Err(format!(
                "needs spec construct: list query parameter with style `{other}`"
            )),
        }
    }
}
