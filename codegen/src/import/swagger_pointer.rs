//! Pointers into a Swagger 2.0 document as its reader knows them. The importer reads such a
//! document rewritten into the OpenAPI 3 shape ([`super::document::swagger_to_openapi`]); the
//! notes and the report name places of that shape (`requestBody/content/<media>/schema`,
//! `#/servers/0`), which the maintainer's file does not have. [`swagger_pointer`] names the
//! place of the original instead.

use serde_json::Value;

use super::document::{escape, resolve, unescape};

/// `pointer` (of the OpenAPI 3 form of `raw`, with or without its leading `#`) as the place it
/// came from in `raw`, the Swagger 2.0 document, with a leading `#`:
/// - `#/servers/0` → `#/host` (or `#/basePath`);
/// - `#/components/schemas/X` → `#/definitions/X` (parameters, responses and security schemes
///   alike);
/// - an operation's `requestBody/content/<media>/schema` → its `in: body` parameter's
///   `schema`; a form body's `.../schema/properties/<name>` → that `in: formData` parameter;
/// - a response's `content/<media>/schema` → its `schema`; an answer header's `schema` → the
///   header itself;
/// - an operation's `parameters/<n>` (counted without the body and form parameters) → the
///   parameter at its place in the original list, whose `schema` is the parameter itself.
///
/// A pointer that is no such place is kept as it is.
pub(crate) fn swagger_pointer(raw: &Value, pointer: &str) -> String {
    let bare = pointer.strip_prefix('#').unwrap_or(pointer);
    let tokens: Vec<String> = bare.split('/').skip(1).map(unescape).collect::<Vec<_>>();
    let mapped = mapped(raw, &tokens).unwrap_or_else(|| tokens.clone());
    let mut out = String::from("#");
    for token in &mapped {
        out.push('/');
        out.push_str(&escape(token));
    }
    out
}

fn mapped(raw: &Value, tokens: &[String]) -> Option<Vec<String>> {
    let first = tokens.first()?.as_str();
    let owned = |t: &[&str]| t.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    match first {
        "servers" => {
            let place = if raw.get("host").is_some() {
                "host"
            } else {
                "basePath"
            };
            Some(owned(&[place]))
        }
        "components" => {
            let section = match tokens.get(1)?.as_str() {
                "schemas" => "definitions",
                "parameters" => "parameters",
                "responses" => "responses",
                "securitySchemes" => "securityDefinitions",
                _ => return None,
            };
            let mut out = vec![section.to_owned()];
            out.extend(tokens.get(2).cloned());
            let rest = tokens.get(3..).unwrap_or_default();
            match section {
                "responses" => out.extend(in_response(rest)),
                "parameters" => out.extend(in_parameter(rest)),
                _ => out.extend(rest.iter().cloned()),
            }
            Some(out)
        }
        "paths" => {
            let path = tokens.get(1)?;
            let item = raw.get("paths")?.get(path)?;
            let mut out = owned(&["paths"]);
            out.push(path.clone());
            let Some(second) = tokens.get(2) else {
                return Some(out);
            };
            if second == "parameters" {
                out.extend(in_parameters(raw, item.get("parameters"), &tokens[3..]));
                return Some(out);
            }
            out.push(second.clone());
            let op = item.get(second)?;
            let rest = &tokens[3..];
            match rest.first().map(String::as_str) {
                Some("requestBody") => out.extend(in_body(raw, op, &rest[1..])?),
                Some("parameters") => {
                    out.extend(in_parameters(raw, op.get("parameters"), &rest[1..]));
                }
                Some("responses") => {
                    out.push("responses".to_owned());
                    out.extend(rest.get(1).cloned());
                    out.extend(in_response(rest.get(2..).unwrap_or_default()));
                }
                _ => out.extend(rest.iter().cloned()),
            }
            Some(out)
        }
        _ => None,
    }
}

/// Within a response: `content/<media>/schema/...` → `schema/...`, `content/<media>/example`
/// → `examples/<media>`, `headers/<name>/schema` → `headers/<name>`.
fn in_response(rest: &[String]) -> Vec<String> {
    match rest.first().map(String::as_str) {
        Some("content") if rest.len() >= 3 => {
            let media = &rest[1];
            match rest[2].as_str() {
                "example" | "examples" => vec!["examples".to_owned(), media.clone()],
                _ => rest[2..].to_vec(),
            }
        }
        Some("headers") if rest.len() >= 2 => {
            let mut out = rest[..2].to_vec();
            out.extend(in_parameter(&rest[2..]));
            out
        }
        _ => rest.to_vec(),
    }
}

/// Within a parameter of the 3 shape: its `schema/...` is the parameter itself in 2.0.
fn in_parameter(rest: &[String]) -> Vec<String> {
    match rest.first().map(String::as_str) {
        Some("schema") => rest[1..].to_vec(),
        _ => rest.to_vec(),
    }
}

/// `<n>/...` of a converted parameter list → the original index (the `body` and `formData`
/// parameters the conversion moved out counted back in).
fn in_parameters(raw: &Value, list: Option<&Value>, rest: &[String]) -> Vec<String> {
    let mut out = vec!["parameters".to_owned()];
    let (Some(index), Some(list)) = (
        rest.first().and_then(|i| i.parse::<usize>().ok()),
        list.and_then(Value::as_array),
    ) else {
        out.extend(rest.iter().cloned());
        return out;
    };
    let original = list
        .iter()
        .enumerate()
        .filter(|(_, p)| !matches!(place_of(raw, p), Some("body" | "formData")))
        .nth(index)
        .map_or(index, |(i, _)| i);
    out.push(original.to_string());
    out.extend(in_parameter(&rest[1..]));
    out
}

/// Where a parameter (or the one its `$ref` names) goes: `query`, `body`, `formData`...
fn place_of<'a>(raw: &'a Value, p: &'a Value) -> Option<&'a str> {
    let p = match p.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(raw, r)?,
        None => p,
    };
    p.get("in").and_then(Value::as_str)
}

/// Within an operation's `requestBody`: `content/<media>/schema/...` → the body parameter's
/// `schema/...`, or for a form `.../schema/properties/<name>/...` → that form parameter.
fn in_body(raw: &Value, op: &Value, rest: &[String]) -> Option<Vec<String>> {
    let params = op.get("parameters")?.as_array()?;
    let at = |i: usize| vec!["parameters".to_owned(), i.to_string()];
    let schema_rest = match rest {
        [content, _, schema, tail @ ..] if content == "content" && schema == "schema" => tail,
        _ => &[],
    };
    if let Some(i) = params.iter().position(|p| place_of(raw, p) == Some("body")) {
        let mut out = at(i);
        out.push("schema".to_owned());
        out.extend(schema_rest.iter().cloned());
        return Some(out);
    }
    let named = |name: &str| {
        params.iter().position(|p| {
            place_of(raw, p) == Some("formData")
                && p.get("name").and_then(Value::as_str) == Some(name)
        })
    };
    match schema_rest {
        [properties, name, tail @ ..] if properties == "properties" => {
            let mut out = at(named(name)?);
            out.extend(tail.iter().cloned());
            Some(out)
        }
        _ => {
            let first = params
                .iter()
                .position(|p| place_of(raw, p) == Some("formData"))?;
            Some(at(first))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> Value {
        json!({
            "swagger": "2.0",
            "host": "api.example.com",
            "paths": {
                "/webhooks/add": {"post": {"parameters": [
                    {"name": "X-Trace", "in": "header", "type": "string"},
                    {"name": "body", "in": "body", "schema": {"type": "object",
                        "properties": {"url": {"type": "string"}}}},
                    {"name": "verbose", "in": "query", "type": "boolean"}
                ], "responses": {"200": {"schema": {"type": "object"},
                    "headers": {"X-Id": {"type": "string"}}}}}},
                "/messages": {"post": {"parameters": [
                    {"name": "To", "in": "formData", "type": "string"},
                    {"name": "Body", "in": "formData", "type": "string"}
                ], "responses": {"201": {"description": "made"}}}}
            },
            "definitions": {"Hook": {"type": "object"}}
        })
    }

    /// Helper-17's finding: a Swagger 2.0 import's notes and report named OpenAPI 3 places the
    /// document has not (`requestBody/content/...`, `#/servers/0`). Each maps to its place in
    /// the document, and resolves there.
    #[test]
    fn each_openapi_3_place_names_the_swagger_2_place_it_came_from() {
        let raw = doc();
        let cases = [
            ("#/servers/0", "#/host"),
            ("#/components/schemas/Hook", "#/definitions/Hook"),
            (
                "#/paths/~1webhooks~1add/post/requestBody/content/application~1json/schema",
                "#/paths/~1webhooks~1add/post/parameters/1/schema",
            ),
            (
                "#/paths/~1webhooks~1add/post/requestBody/content/application~1json/schema/properties/url",
                "#/paths/~1webhooks~1add/post/parameters/1/schema/properties/url",
            ),
            (
                "#/paths/~1webhooks~1add/post/responses/200/content/application~1json/schema",
                "#/paths/~1webhooks~1add/post/responses/200/schema",
            ),
            (
                "#/paths/~1webhooks~1add/post/responses/200/headers/X-Id/schema",
                "#/paths/~1webhooks~1add/post/responses/200/headers/X-Id",
            ),
            // The query parameter is the second left after the body moved out.
            (
                "#/paths/~1webhooks~1add/post/parameters/1/schema",
                "#/paths/~1webhooks~1add/post/parameters/2",
            ),
            (
                "#/paths/~1messages/post/requestBody/content/application~1x-www-form-urlencoded/schema/properties/Body",
                "#/paths/~1messages/post/parameters/1",
            ),
            ("#/paths/~1messages/post", "#/paths/~1messages/post"),
        ];
        for (from, to) in cases {
            let mapped = swagger_pointer(&raw, from);
            assert_eq!(mapped, to, "{from}");
            assert!(
                resolve(&raw, &mapped).is_some(),
                "{mapped} is in the document"
            );
        }
    }
}
