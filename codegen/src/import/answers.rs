//! The success answers of an operation: its type, the headers it documents, and the other
//! 2xx bodies read as that type.

use serde_json::{Map, Value};

use super::Converter;
use super::document::{deref, escape};
use super::schema::{component_of, type_name};
use super::yaml::Node;
use crate::check::MAX_RESPONSE_HEADERS;

impl Converter<'_> {
    /// Reports 2xx answers whose body differs from the one imported (the spec has one
    /// response type for all success statuses).
    pub(super) fn other_success_bodies(
        &mut self,
        responses: Option<&Map<String, Value>>,
        statuses: &[u16],
        chosen: u16,
        ptr: &str,
    ) {
        let Some(responses) = responses else { return };
        let content = |code: u16| {
            responses
                .get(&code.to_string())
                .and_then(|r| deref(self.doc, r, ptr))
                .and_then(|(r, _)| r.get("content").cloned())
                .filter(|c| c.as_object().is_some_and(|m| !m.is_empty()))
        };
        let first = content(chosen);
        for s in statuses.iter().filter(|s| **s != chosen) {
            let other = content(*s);
            if other.is_some() && other != first {
                self.approximate(
                    &format!("{ptr}/responses/{s}"),
                    &format!("its body differs from the {chosen} answer's; both read as that type"),
                );
            }
        }
    }

    /// The headers the success answers (`statuses`, and a `2XX` range) document, first answer
    /// first, each with its type (a scalar or an enum; anything else is text, reported) and
    /// description.
    pub(super) fn response_headers(
        &mut self,
        responses: Option<&Map<String, Value>>,
        statuses: &[u16],
        ptr: &str,
        op_pascal: &str,
    ) -> Vec<(String, Node)> {
        let doc = self.doc;
        let mut out: Vec<(String, Node)> = Vec::new();
        let Some(responses) = responses else {
            return out;
        };
        for (key, answer) in responses {
            // A success status of the operation, or the success range (Ably's `2XX`).
            let success = key.parse::<u16>().is_ok_and(|c| statuses.contains(&c))
                || key.eq_ignore_ascii_case("2XX");
            if !success {
                continue;
            }
            let rptr = format!("{ptr}/responses/{}", escape(key));
            let Some((answer, at)) = deref(doc, answer, &rptr) else {
                continue;
            };
            let Some(headers) = answer.get("headers").and_then(Value::as_object) else {
                continue;
            };
            for (name, header) in headers {
                let hptr = format!("{at}/headers/{}", escape(name));
                if out.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
                    continue;
                }
                if name.is_empty() || !name.bytes().all(crate::check::is_header_name_byte) {
                    self.skip(&hptr, "not an HTTP header name", Some(name));
                    continue;
                }
                let Some((header, hat)) = deref(doc, header, &hptr) else {
                    continue;
                };
                // OpenAPI 3 gives a `schema`; Swagger 2.0 its type in place.
                let schema = match header.get("schema") {
                    Some(s) => s.clone(),
                    None => {
                        let mut s = header.clone();
                        if let Some(m) = s.as_object_mut() {
                            m.remove("description");
                        }
                        s
                    }
                };
                let hint = format!("{op_pascal}{}Header", type_name(name));
                let ty = match self.ty(&schema, &format!("{hat}/schema"), &hint, 1) {
                    Ok(t)
                        if matches!(
                            t.as_str(),
                            "string" | "integer" | "number" | "boolean" | "datetime" | "date"
                        ) || matches!(self.types.get(&t), Some(super::TypeOut::Enum { .. })) =>
                    {
                        t
                    }
                    Ok(t) => {
                        self.approximate(
                            &hat,
                            &format!("response header `{name}` of type `{t}` read as text"),
                        );
                        "string".to_owned()
                    }
                    Err(e) => {
                        self.approximate(
                            &hat,
                            &format!("response header `{name}` read as text: {e}"),
                        );
                        "string".to_owned()
                    }
                };
                let mut node = Node::map();
                if ty != "string" {
                    node.set("type", Node::str(&ty));
                }
                if let Some(d) = header
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|d| !d.is_empty())
                {
                    node.set("doc", Node::str(d));
                }
                if out.len() == MAX_RESPONSE_HEADERS {
                    self.skip(
                        &hptr,
                        "more response headers than an operation documents",
                        Some(&format!("at most {MAX_RESPONSE_HEADERS}")),
                    );
                    continue;
                }
                out.push((name.clone(), node));
            }
        }
        out
    }

    /// The success type; `page<T>` where our own exports mark a paginated operation.
    pub(super) fn response_type(
        &mut self,
        op: &Value,
        schema: &Value,
        ptr: &str,
        op_pascal: &str,
    ) -> Result<String, String> {
        if op.get("x-pagination").is_some()
            && self.pagination.is_some()
            && let Some(item) = schema
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(component_of)
                .and_then(|c| c.strip_prefix("Page_").map(str::to_owned))
        {
            let t = self
                .component(&item)
                .map_err(|e| format!("response type not mappable | {e}"))?;
            return Ok(format!("page<{t}>"));
        }
        self.ty(schema, ptr, &format!("{op_pascal}Response"), 0)
            .map_err(|e| format!("response type not mappable | {e}"))
    }
}
