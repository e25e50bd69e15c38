//! Reading a provider's document: JSON or YAML text to one JSON value, the OpenAPI version it
//! speaks, Swagger 2.0 rewritten into the OpenAPI 3 shape, and JSON pointer helpers.

use serde_json::{Map, Value, json};

use super::ImportError;

/// Which description format a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// Swagger 2.0 (rewritten to the 3.0 shape before import).
    Swagger2,
    /// OpenAPI 3.0.x.
    OpenApi30,
    /// OpenAPI 3.1.x.
    OpenApi31,
}

impl Version {
    /// How reports name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Version::Swagger2 => "Swagger 2.0",
            Version::OpenApi30 => "OpenAPI 3.0",
            Version::OpenApi31 => "OpenAPI 3.1",
        }
    }
}

/// Deepest nesting of `[`/`{` accepted in a document (JSON parsers stop at 128 too; real
/// provider documents nest a few dozen deep).
pub const MAX_NESTING: usize = 128;

/// Refuses text whose flow brackets nest deeper than `limit`, in one linear pass before any
/// parser runs (a YAML parser takes time quadratic in flow nesting). Brackets inside quoted
/// strings and comments do not count; a plain scalar's brackets do, which can only refuse a
/// document that no parser would give a useful tree anyway.
pub(crate) fn check_nesting(text: &str, limit: usize) -> Result<(), ImportError> {
    let mut depth = 0usize;
    let mut line = 1usize;
    let mut chars = text.chars().peekable();
    let mut prev = '\n';
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '"' => {
                // To the closing quote; `\"` escapes it.
                while let Some(q) = chars.next() {
                    match q {
                        '\\' if chars.next() == Some('\n') => line += 1,
                        '"' => break,
                        '\n' => line += 1,
                        _ => {}
                    }
                }
            }
            // A quote opens a YAML single-quoted string only where a scalar starts.
            '\'' if matches!(prev, ' ' | '\t' | '\n' | '[' | '{' | ',' | ':') => {
                while let Some(q) = chars.next() {
                    match q {
                        '\'' if chars.peek() == Some(&'\'') => {
                            chars.next();
                        }
                        '\'' => break,
                        '\n' => line += 1,
                        _ => {}
                    }
                }
            }
            '#' if matches!(prev, ' ' | '\t' | '\n') => {
                for q in chars.by_ref() {
                    if q == '\n' {
                        line += 1;
                        break;
                    }
                }
                prev = '\n';
                continue;
            }
            '[' | '{' => {
                depth += 1;
                if depth > limit {
                    return Err(ImportError::TooDeep { line, limit });
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        prev = c;
    }
    Ok(())
}

/// Parses JSON or YAML text (YAML keys that are numbers or booleans become strings).
pub(crate) fn parse(text: &str) -> Result<Value, ImportError> {
    check_nesting(text, MAX_NESTING)?;
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{')
        && let Ok(v) = serde_json::from_str::<Value>(trimmed)
    {
        return Ok(v);
    }
    let yaml: serde_yaml::Value =
        serde_yaml::from_str(trimmed).map_err(|e| ImportError::Parse(e.to_string()))?;
    let mut doc = from_yaml(&yaml);
    scalars_as_text(&mut doc);
    Ok(doc)
}

/// In YAML an unquoted `+11203494390` or `1` is a number and `true` a boolean: in a
/// schema whose `type` is `string`, its `example`, `default`, `enum` and `examples` values are
/// that text (Sinch's `from: {type: string, example: +11203494390}`), not a number that would
/// make the field `json`. A JSON document means what it writes and is left alone.
fn scalars_as_text(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.get("type").and_then(Value::as_str) == Some("string") {
                let text = |v: &mut Value| {
                    if matches!(v, Value::Number(_) | Value::Bool(_)) {
                        *v = Value::String(v.to_string());
                    }
                };
                for key in ["example", "default"] {
                    if let Some(v) = map.get_mut(key) {
                        text(v);
                    }
                }
                for key in ["enum", "examples"] {
                    if let Some(Value::Array(items)) = map.get_mut(key) {
                        items.iter_mut().for_each(text);
                    }
                }
            }
            map.values_mut().for_each(scalars_as_text);
        }
        Value::Array(items) => items.iter_mut().for_each(scalars_as_text),
        _ => {}
    }
}

fn from_yaml(value: &serde_yaml::Value) -> Value {
    use serde_yaml::Value as V;
    match value {
        V::Null => Value::Null,
        V::Bool(b) => json!(b),
        V::Number(n) => {
            if let Some(i) = n.as_i64() {
                json!(i)
            } else if let Some(u) = n.as_u64() {
                json!(u)
            } else {
                n.as_f64()
                    .and_then(serde_json::Number::from_f64)
                    .map_or(Value::Null, Value::Number)
            }
        }
        V::String(s) => json!(s),
        V::Sequence(items) => Value::Array(items.iter().map(from_yaml).collect()),
        V::Mapping(m) => {
            let mut out = Map::new();
            for (k, v) in m {
                let key = match k {
                    V::String(s) => s.clone(),
                    V::Number(n) => n.to_string(),
                    V::Bool(b) => b.to_string(),
                    _ => continue,
                };
                out.insert(key, from_yaml(v));
            }
            Value::Object(out)
        }
        V::Tagged(t) => from_yaml(&t.value),
    }
}

/// The version a document declares.
pub(crate) fn version(doc: &Value) -> Result<Version, ImportError> {
    if let Some(v) = doc.get("openapi") {
        let text = v
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| v.to_string());
        return if text.starts_with("3.0") {
            Ok(Version::OpenApi30)
        } else if text.starts_with("3.1") {
            Ok(Version::OpenApi31)
        } else {
            Err(ImportError::Unsupported(format!(
                "OpenAPI version `{text}` (3.0, 3.1 and Swagger 2.0 are read)"
            )))
        };
    }
    if let Some(v) = doc.get("swagger") {
        let text = v
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| v.to_string());
        return if text.starts_with("2.") {
            Ok(Version::Swagger2)
        } else {
            Err(ImportError::Unsupported(format!(
                "Swagger version `{text}`"
            )))
        };
    }
    Err(ImportError::Unsupported(
        "not an OpenAPI or Swagger document: neither `openapi` nor `swagger` is set".into(),
    ))
}

/// Escapes one JSON pointer token (`~` → `~0`, `/` → `~1`).
pub(crate) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Unescapes one JSON pointer token; `%xx` escapes of URI fragments are decoded too.
pub(crate) fn unescape(token: &str) -> String {
    percent_decode(token).replace("~1", "/").replace("~0", "~")
}

fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_owned();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The value at a local reference (`#/components/schemas/A`), if the document has it.
pub(crate) fn resolve<'a>(doc: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(doc);
    }
    let mut cur = doc;
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = unescape(token);
        cur = match cur {
            Value::Object(m) => m.get(&token)?,
            Value::Array(a) => a.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Follows `$ref`s of a non-schema object (a parameter, a response, a request body) to the
/// object itself, with the pointer it sits at; `None` for a missing or external target or a
/// chain longer than 16 links (a loop).
pub(crate) fn deref<'a>(
    doc: &'a Value,
    value: &'a Value,
    pointer: &str,
) -> Option<(&'a Value, String)> {
    let mut cur = value;
    let mut at = pointer.to_owned();
    for _ in 0..16 {
        match cur.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                cur = resolve(doc, r)?;
                at = r.trim_start_matches('#').to_owned();
            }
            None => return Some((cur, at)),
        }
    }
    None
}

/// Rewrites a Swagger 2.0 document into the OpenAPI 3.0 shape the importer reads: servers
/// from `schemes`/`host`/`basePath`, `definitions` to `components.schemas` (and every `$ref`
/// with it), `securityDefinitions` to security schemes, `body` and `formData` parameters to
/// request bodies, response `schema`s to JSON content.
pub(crate) fn swagger_to_openapi(doc: &Value) -> Value {
    let mut out = Map::new();
    out.insert("openapi".into(), json!("3.0.0"));
    for key in ["info", "tags", "security", "x-webhooks"] {
        if let Some(v) = doc.get(key) {
            out.insert(key.into(), rewrite_refs(v));
        }
    }
    if let Some(host) = doc.get("host").and_then(Value::as_str) {
        let scheme = doc
            .get("schemes")
            .and_then(Value::as_array)
            .and_then(|s| {
                s.iter()
                    .filter_map(Value::as_str)
                    .find(|s| *s == "https")
                    .or_else(|| s.first().and_then(Value::as_str))
            })
            .unwrap_or("https");
        let base = doc.get("basePath").and_then(Value::as_str).unwrap_or("");
        out.insert(
            "servers".into(),
            json!([{ "url": format!("{scheme}://{host}{base}") }]),
        );
    } else if let Some(base) = doc.get("basePath").and_then(Value::as_str) {
        out.insert("servers".into(), json!([{ "url": base }]));
    }
    let consumes = media_list(doc.get("consumes"));
    let produces = media_list(doc.get("produces"));

    let mut components = Map::new();
    if let Some(defs) = doc.get("definitions") {
        components.insert("schemas".into(), rewrite_refs(defs));
    }
    if let Some(Value::Object(params)) = doc.get("parameters") {
        let mut ps = Map::new();
        for (name, p) in params {
            ps.insert(name.clone(), parameter(&rewrite_refs(p)));
        }
        components.insert("parameters".into(), Value::Object(ps));
    }
    if let Some(Value::Object(responses)) = doc.get("responses") {
        let mut rs = Map::new();
        for (name, r) in responses {
            rs.insert(name.clone(), response(&rewrite_refs(r), &produces));
        }
        components.insert("responses".into(), Value::Object(rs));
    }
    if let Some(Value::Object(schemes)) = doc.get("securityDefinitions") {
        let mut ss = Map::new();
        for (name, s) in schemes {
            let mut s = s.clone();
            if s.get("type").and_then(Value::as_str) == Some("basic") {
                s = json!({ "type": "http", "scheme": "basic" });
            }
            ss.insert(name.clone(), s);
        }
        components.insert("securitySchemes".into(), Value::Object(ss));
    }
    out.insert("components".into(), Value::Object(components));

    let mut paths = Map::new();
    if let Some(Value::Object(items)) = doc.get("paths") {
        for (path, item) in items {
            let Value::Object(item) = rewrite_refs(item) else {
                continue;
            };
            let mut new_item = Map::new();
            for (key, op) in item {
                if key == "parameters" {
                    new_item.insert(key.clone(), parameters(doc, &Value::Null, &op).0);
                    continue;
                }
                let Value::Object(mut op) = op else {
                    new_item.insert(key.clone(), op);
                    continue;
                };
                let op_consumes = op
                    .get("consumes")
                    .map(|c| media_list(Some(c)))
                    .unwrap_or_else(|| consumes.clone());
                let op_produces = op
                    .get("produces")
                    .map(|c| media_list(Some(c)))
                    .unwrap_or_else(|| produces.clone());
                let whole = Value::Object(op.clone());
                let (params, body) =
                    parameters(doc, &whole, op.get("parameters").unwrap_or(&Value::Null));
                // A form field that is the credential the security scheme sends (Slack's
                // `token` in 15 methods' forms): left to the scheme, and said so by the
                // importer, which reads this list.
                let left = left_to_scheme(doc, &whole, op.get("parameters"));
                op.insert("parameters".into(), params);
                if !left.is_empty() {
                    op.insert(LEFT_TO_SCHEME.into(), json!(left));
                }
                if let Some(body) = body {
                    op.insert("requestBody".into(), request_body(body, &op_consumes));
                }
                if let Some(Value::Object(responses)) = op.get("responses") {
                    let mut rs = Map::new();
                    for (code, r) in responses {
                        rs.insert(code.clone(), response(r, &op_produces));
                    }
                    op.insert("responses".into(), Value::Object(rs));
                }
                new_item.insert(key.clone(), Value::Object(op));
            }
            paths.insert(path.clone(), Value::Object(new_item));
        }
    }
    out.insert("paths".into(), Value::Object(paths));
    for (k, v) in doc.as_object().into_iter().flatten() {
        if k.starts_with("x-") && !out.contains_key(k) {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

fn media_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// `#/definitions/X` → `#/components/schemas/X` (and parameters, responses) everywhere.
fn rewrite_refs(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    if k == "$ref"
                        && let Some(r) = v.as_str()
                    {
                        let r = r
                            .replacen("#/definitions/", "#/components/schemas/", 1)
                            .replacen("#/parameters/", "#/components/parameters/", 1)
                            .replacen("#/responses/", "#/components/responses/", 1);
                        return (k.clone(), json!(r));
                    }
                    (k.clone(), rewrite_refs(v))
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(rewrite_refs).collect()),
        other => other.clone(),
    }
}

/// A 2.0 parameter in 3.0 shape: its type keys move under `schema`.
fn parameter(p: &Value) -> Value {
    let Value::Object(m) = p else {
        return p.clone();
    };
    if m.contains_key("$ref") || m.contains_key("schema") {
        return p.clone();
    }
    let mut out = Map::new();
    let mut schema = Map::new();
    for (k, v) in m {
        match k.as_str() {
            "name" | "in" | "description" | "required" | "deprecated" | "allowEmptyValue" => {
                out.insert(k.clone(), v.clone());
            }
            "collectionFormat" => {
                out.insert("x-collection-format".into(), v.clone());
            }
            k if k.starts_with("x-") => {
                out.insert(k.to_owned(), v.clone());
            }
            _ => {
                schema.insert(k.clone(), v.clone());
            }
        }
    }
    out.insert("schema".into(), Value::Object(schema));
    Value::Object(out)
}

/// The key under which a converted operation lists its form fields left to its security
/// scheme (see [`left_to_scheme`]).
pub(super) const LEFT_TO_SCHEME: &str = "x-form-credential";

/// The `formData` parameters of `op` that carry the credential its security scheme sends
/// (named `token`, described as the authentication token, the operation secured): the
/// conversion leaves them out of the form body.
fn left_to_scheme(doc: &Value, op: &Value, params: Option<&Value>) -> Vec<String> {
    params
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| form_credential(doc, op, p))
        .collect()
}

fn form_credential(doc: &Value, op: &Value, p: &Value) -> Option<String> {
    let resolved = match p.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(
            doc,
            &r.replacen("#/components/parameters/", "#/parameters/", 1),
        )?
        .clone(),
        None => p.clone(),
    };
    let name = resolved.get("name").and_then(Value::as_str)?;
    (resolved.get("in").and_then(Value::as_str) == Some("formData")
        && super::security::carries_the_credential(doc, op, &resolved, &name.to_ascii_lowercase()))
    .then(|| name.to_owned())
}

/// The non-body parameters (3.0 shape) and the body: a `body` parameter's schema, or the
/// `formData` parameters as an object schema marked form-encoded (less those that carry the
/// credential of `op`'s security scheme).
fn parameters(doc: &Value, op: &Value, params: &Value) -> (Value, Option<(Value, bool, bool)>) {
    let mut out = Vec::new();
    let mut body = None;
    let mut form = Map::new();
    let mut form_required = Vec::new();
    for p in params.as_array().into_iter().flatten() {
        let resolved = match p.get("$ref").and_then(Value::as_str) {
            // Body and form parameters must be seen to be moved; others stay references.
            Some(r) => resolve(
                doc,
                &r.replacen("#/components/parameters/", "#/parameters/", 1),
            )
            .map(rewrite_refs),
            None => Some(p.clone()),
        };
        let Some(resolved) = resolved else {
            out.push(p.clone());
            continue;
        };
        match resolved.get("in").and_then(Value::as_str) {
            Some("body") => {
                // Swagger 2.0's `required` of a body parameter defaults to false (WhatsApp's
                // login, sent with no body, was refused for want of one).
                let required = resolved.get("required").and_then(Value::as_bool) == Some(true);
                let schema = resolved.get("schema").cloned().unwrap_or(json!({}));
                body = Some((schema, false, required));
            }
            Some("formData") if form_credential(doc, op, &resolved).is_some() => {}
            Some("formData") => {
                if let Some(name) = resolved.get("name").and_then(Value::as_str) {
                    if resolved.get("required").and_then(Value::as_bool) == Some(true) {
                        form_required.push(json!(name));
                    }
                    if let Value::Object(p3) = parameter(&resolved) {
                        form.insert(
                            name.to_owned(),
                            p3.get("schema").cloned().unwrap_or(json!({})),
                        );
                    }
                }
            }
            _ if p.get("$ref").is_some() => out.push(p.clone()),
            _ => out.push(parameter(&resolved)),
        }
    }
    if body.is_none() && !form.is_empty() {
        body = Some((
            json!({ "type": "object", "properties": form, "required": form_required }),
            true,
            true,
        ));
    }
    (Value::Array(out), body)
}

/// A Swagger 2.0 body as an OpenAPI 3 `requestBody`: form fields under the form media type
/// its `consumes` lists (the others kept aside as `x-also-consumes`), any other body under
/// each media type listed (WhatsApp's media upload takes 13: only the first was kept, and an
/// image was refused), required as its parameter says.
fn request_body((schema, form, required): (Value, bool, bool), consumes: &[String]) -> Value {
    if form {
        let media = consumes
            .iter()
            .find(|c| c.contains("form"))
            .cloned()
            .unwrap_or_else(|| "application/x-www-form-urlencoded".into());
        // Form fields are what the operation declares; the other media types it takes are
        // reported, not dropped in silence.
        let others: Vec<&String> = consumes.iter().filter(|c| **c != media).collect();
        if !others.is_empty() {
            return json!({ "required": true, "content": { media: { "schema": schema } },
                "x-also-consumes": others });
        }
        return json!({ "required": true, "content": { media: { "schema": schema } } });
    }
    let mut content = Map::new();
    for media in consumes {
        content.insert(media.clone(), json!({ "schema": schema }));
    }
    if content.is_empty() {
        content.insert("application/json".into(), json!({ "schema": schema }));
    }
    json!({ "required": required, "content": content })
}

fn response(r: &Value, produces: &[String]) -> Value {
    let Value::Object(m) = r else {
        return r.clone();
    };
    if m.contains_key("$ref") {
        return r.clone();
    }
    let mut out = m.clone();
    if let Some(schema) = out.remove("schema") {
        let media = produces
            .iter()
            .find(|c| c.contains("json"))
            .or(produces.first())
            .cloned()
            .unwrap_or_else(|| "application/json".into());
        out.insert("content".into(), json!({ media: { "schema": schema } }));
    } else if let Some((media, example)) = out
        .get("examples")
        .and_then(Value::as_object)
        .and_then(|e| e.iter().find(|(mime, _)| mime.contains("json")))
    {
        // Shown by example only: its schema is read off the example (`example_types`).
        let content = json!({ media: { "example": example } });
        out.insert("content".into(), content);
    }
    Value::Object(out)
}

/// Reads a document from `path`, at most `limit` bytes: reading stops as soon as the file
/// goes past the limit (a huge file or `/dev/zero` costs `limit` bytes of memory, not its
/// size), and text that is not UTF-8 is an error.
///
/// # Errors
/// [`ImportError::TooLargeToRead`] past the limit, [`ImportError::Read`] when the file cannot
/// be read or is not UTF-8.
pub fn read_document(path: &std::path::Path, limit: usize) -> Result<String, ImportError> {
    use std::io::Read as _;
    let file = std::fs::File::open(path)
        .map_err(|e| ImportError::Read(format!("{}: {e}", path.display())))?;
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    file.take(cap)
        .read_to_end(&mut bytes)
        .map_err(|e| ImportError::Read(format!("{}: {e}", path.display())))?;
    if bytes.len() > limit {
        return Err(ImportError::TooLargeToRead { limit });
    }
    String::from_utf8(bytes)
        .map_err(|e| ImportError::Read(format!("{}: not UTF-8 text ({e})", path.display())))
}

/// An OpenAPI or Swagger document (JSON or YAML text) as JSON, as the importer reads it
/// (Swagger 2.0 left as written), for tools that walk it beside the spec (examples, say).
///
/// # Errors
/// When the text does not parse; see [`ImportError`].
pub fn parse_document(text: &str) -> Result<serde_json::Value, ImportError> {
    parse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_and_resolve() {
        let doc = json!({ "paths": { "/a/{id}": { "get": { "x": 1 } } } });
        let ptr = format!("#/paths/{}/get/x", escape("/a/{id}"));
        assert_eq!(resolve(&doc, &ptr), Some(&json!(1)));
        assert_eq!(unescape("a~1b~0c%7Bd%7D"), "a/b~c{d}");
        assert_eq!(unescape("%"), "%");
        assert_eq!(unescape("%4"), "%4");
    }

    #[test]
    fn yaml_keys_that_are_numbers_become_strings() {
        let v = parse("responses:\n  200: { description: ok }\n").unwrap();
        assert!(v["responses"]["200"].is_object());
    }

    #[test]
    fn yaml_numbers_in_a_text_schema_s_examples_and_values_are_text() {
        let v = parse(
            "from: { type: string, example: +11203494390, default: 7, enum: [1, true, a] }\n\
             count: { type: integer, example: 3 }\n",
        )
        .unwrap();
        assert_eq!(v["from"]["example"], json!("11203494390"));
        assert_eq!(v["from"]["default"], json!("7"));
        assert_eq!(v["from"]["enum"], json!(["1", "true", "a"]));
        assert_eq!(v["count"]["example"], json!(3));
        // JSON means what it writes.
        let j = parse(r#"{"from": {"type": "string", "example": 5}}"#).unwrap();
        assert_eq!(j["from"]["example"], json!(5));
    }
}
