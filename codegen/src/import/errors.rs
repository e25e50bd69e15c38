//! The error body: where the document's error schema keeps the code and the message.

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

/// Field names an error body keeps its code under, most likely first.
pub(super) const ERROR_CODE_NAMES: &[&str] = &[
    "code",
    "error_code",
    "errorCode",
    "status_code",
    // ClickSend's `{http_code, response_code: "NOT_FOUND", response_msg}`.
    "response_code",
    "error-code", // Vonage's Numbers: `{"error-code": "401", "error-code-label": "..."}`.
    // OAuth 2.0 (RFC 6749 5.2): `{"error": "invalid_request", "error_description": ...}`.
    "error",
];

/// Field names an error body keeps its message under, most likely first.
pub(super) const ERROR_MESSAGE_NAMES: &[&str] = &[
    "message",
    "error_message",
    "errorMessage",
    "response_msg",
    "response_message",
    "error-code-label", // Vonage's Numbers
    "error_text",       // Vonage's SMS and Verify
    "detail",
    "error_description",
    "description",
    "title",
    // FastAPI's validation errors (Svix's `detail: [{loc, msg, type}]`).
    "msg",
];

/// Headers of error answers that are not error details: the runtime reads them for rate
/// limits and retries, or they describe the body.
const NOT_DETAIL_HEADERS: &[&str] = &[
    "retry-after",
    "content-type",
    "content-length",
    "date",
    "x-request-id",
    "request-id",
];

/// Most documented headers one error body keeps (the runtime keeps as many).
const MAX_ERROR_HEADERS: usize = 16;

/// An error type with the paths of its code and message (`None`: not found).
type ErrorType = (String, Option<String>, Option<String>);

/// One documented error answer of an imported operation.
pub(super) struct ErrorAnswer {
    /// Index of the operation in `Converter::ops`.
    op: usize,
    /// The status key as the spec writes it (`404`, `4XX`, `default`).
    key: String,
    /// The component its JSON schema refers to.
    pub(super) schema: Option<String>,
    /// Its JSON schema when written in place (not a `$ref`), with its pointer.
    pub(super) inline: Option<(Value, String)>,
    /// Its documented headers that carry error details, as the document spells them.
    headers: Vec<String>,
    /// Where its examples keep code and message, when it has examples and no schema
    /// (Brevo's `401`: `{"error": "request authentication failed"}`).
    example_paths: Option<(Option<String>, Option<String>)>,
    /// The components its schema is one of (`oneOf`/`anyOf` of `$ref`s, in place or as the
    /// component it refers to): several error shapes for one answer.
    alternatives: Vec<String>,
    /// The body it is documented with: its media's example, else its schema's (Mandrill's
    /// `TemplateNotFoundError`, `allOf: [Error]` with `code: 5, name: Unknown_Template`);
    /// why it is not kept, when it is not an object or is too large.
    example: Option<Result<serde_json::Map<String, Value>, String>>,
    /// Its JSON pointer.
    pub(super) pointer: String,
}

/// Writes into `body` an error body's `type` and where its `code` and `message` are (`none`
/// where it keeps none; left out where they are where the spec looks by default).
pub(super) fn typed_error_body(
    body: &mut Node,
    ty: &str,
    code: Option<String>,
    message: Option<String>,
) {
    body.set("type", Node::str(ty));
    for (key, path, default) in [
        ("code", code, crate::resolved::defaults::ERROR_CODE_PATH),
        (
            "message",
            message,
            crate::resolved::defaults::ERROR_MESSAGE_PATH,
        ),
    ] {
        let path = path.unwrap_or_else(|| "none".to_owned());
        if path != default {
            body.set(key, Node::str(path));
        }
    }
}

/// The components a union schema's members refer to, in order (empty for anything else).
fn union_members(schema: &Value) -> Vec<String> {
    ["oneOf", "anyOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten()
        .filter_map(|m| m.get("$ref").and_then(Value::as_str))
        .filter_map(schema::component_of)
        .collect()
}

/// The object an error answer is documented with: its media's `example`, the first of its
/// `examples`, Swagger 2.0's `examples` of a JSON type, else its schema's own `example` (the
/// component it refers to); why it is left out, when it is not an object or is too large.
fn answer_example(
    doc: &Value,
    response: &Value,
    media: Option<&Value>,
    schema: Option<&Value>,
) -> Option<Result<serde_json::Map<String, Value>, String>> {
    let deref = |v: &Value| document::deref(doc, v, "").map(|(v, _)| v.clone());
    let from_media = media.and_then(|m| {
        m.get("example").cloned().or_else(|| {
            let first = m.get("examples")?.as_object()?.values().next()?;
            deref(first)?.get("value").cloned()
        })
    });
    let from_swagger = || {
        response
            .get("examples")?
            .as_object()?
            .iter()
            .find(|(mime, _)| mime.contains("json"))
            .map(|(_, v)| v.clone())
    };
    let from_schema = || deref(schema?)?.get("example").cloned();
    match from_media.or_else(from_swagger).or_else(from_schema)? {
        Value::Object(map) if map.is_empty() => None,
        // An error's example is a few fields; a larger one is left out, not written into
        // every operation that answers it.
        Value::Object(map) => {
            let bytes = serde_json::to_string(&map).map_or(0, |t| t.len());
            Some(if bytes <= MAX_EXAMPLE_BYTES {
                Ok(map)
            } else {
                Err(format!(
                    "its example is {bytes} bytes of JSON, over the {MAX_EXAMPLE_BYTES} kept"
                ))
            })
        }
        _ => Some(Err("its example is not an object".to_owned())),
    }
}

/// `keys` in words: "key `a` is", "keys `a`, `b` are".
fn plural_keys(keys: &[String]) -> String {
    match keys {
        [one] => format!("key {one} is"),
        many => format!("keys {} are", many.join(", ")),
    }
}

/// Largest error example kept, in bytes of JSON text.
const MAX_EXAMPLE_BYTES: usize = 2048;

/// Whether `schema` is an object that names none of its fields (`{type: object}`, `{}`): no
/// reference, properties, composition or other type.
fn says_no_fields(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    map.keys().all(|k| {
        matches!(
            k.as_str(),
            "type" | "description" | "title" | "example" | "additionalProperties" | "nullable"
        )
    }) && map.get("type").is_none_or(|t| t == "object")
        && map.get("additionalProperties").is_none_or(|a| {
            a.as_bool() == Some(true) || a.as_object().is_some_and(serde_json::Map::is_empty)
        })
}

/// Where the examples of an error media type (`media`, with no schema) keep code and
/// message: the first top-level name of [`ERROR_CODE_NAMES`] and of [`ERROR_MESSAGE_NAMES`]
/// that every object example has, as text or a number. `{"error": "text"}` alone is a message.
/// `None` when no example is an object or they name neither.
fn example_error_paths(media: &Value) -> Option<(Option<String>, Option<String>)> {
    let mut examples: Vec<&Value> = media.get("example").into_iter().collect();
    if let Some(Value::Object(named)) = media.get("examples") {
        examples.extend(named.values().filter_map(|e| e.get("value")));
    }
    // An example written as text (one of Infobip People's, its JSON broken) is its own
    // message: the paths come from the others.
    examples.retain(|e| e.is_object());
    if examples.is_empty() {
        return None;
    }
    let everywhere = |names: &[&str], text_only: bool| {
        names
            .iter()
            .find(|name| {
                examples.iter().all(|e| match e.get(**name) {
                    Some(Value::String(_)) => true,
                    Some(Value::Number(_)) => !text_only,
                    _ => false,
                })
            })
            .map(|name| (*name).to_owned())
    };
    let mut code = everywhere(ERROR_CODE_NAMES, false);
    let mut message = everywhere(ERROR_MESSAGE_NAMES, true);
    if message.is_none() && code.as_deref() == Some("error") {
        (code, message) = (None, Some("error".to_owned()));
    }
    (code.is_some() || message.is_some()).then_some((code, message))
}

/// The component an error body is: a `$ref`, an `allOf` of one `$ref` and members that only
/// note things (Zulip's `allOf: [$ref CodedError, {example: ...}]`), or a `oneOf`/`anyOf`
/// whose members each are that same one (with other notes). Members of several shapes are
/// read elsewhere, each in turn.
fn named_component(schema: &Value) -> Option<&str> {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return Some(r);
    }
    if let Some(Value::Array(all)) = schema.get("allOf") {
        let mut refs = all
            .iter()
            .filter_map(|m| m.get("$ref").and_then(Value::as_str));
        let one = refs.next()?;
        let notes = all.iter().filter(|m| m.get("$ref").is_none()).all(|m| {
            m.as_object().is_some_and(|o| {
                o.keys()
                    .all(|k| matches!(k.as_str(), "example" | "examples" | "description" | "title"))
            })
        });
        return (refs.next().is_none() && notes).then_some(one);
    }
    ["oneOf", "anyOf"].iter().find_map(|key| {
        let members = schema.get(*key)?.as_array()?;
        let names = members
            .iter()
            .map(named_component)
            .collect::<Option<Vec<_>>>()?;
        let first = *names.first()?;
        names.iter().all(|n| *n == first).then_some(first)
    })
}

impl Converter<'_> {
    /// Whether the document shows the body of any error answer (a schema, in place or a
    /// `$ref`, or examples); without one the served errors are in a shape of our own.
    pub(super) fn shows_error_bodies(&self) -> bool {
        self.error_answers().iter().any(|a| {
            a.schema.is_some()
                || a.inline.is_some()
                || a.example_paths.is_some()
                || !a.alternatives.is_empty()
        })
    }

    /// Whether the field `wire` of the object type `ty` is an enum (a closed set of codes).
    pub(super) fn field_is_enum(&self, ty: &str, wire: &str) -> bool {
        let Some(TypeOut::Object { fields, .. }) = self.types.get(ty) else {
            return false;
        };
        fields
            .iter()
            .find(|f| f.wire == wire)
            .is_some_and(|f| matches!(self.types.get(&f.ty), Some(TypeOut::Enum { .. })))
    }

    /// The documented error answers of the imported operations.
    fn error_answers(&self) -> Vec<ErrorAnswer> {
        let doc = self.doc;
        let mut out = Vec::new();
        for (index, op) in self.ops.iter().enumerate() {
            let Some(o) = document::resolve(doc, &format!("#{}", op.pointer)) else {
                continue;
            };
            for (code, r) in o
                .get("responses")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let class = code.len() == 3
                    && matches!(code.as_bytes()[0], b'4' | b'5')
                    && (code[1..].bytes().all(|b| b.is_ascii_digit())
                        || code[1..].eq_ignore_ascii_case("xx"));
                let key = match code.as_str() {
                    "default" => code.clone(),
                    _ if class => code.to_ascii_uppercase(),
                    _ => continue,
                };
                let Some((r, _)) = document::deref(doc, r, "") else {
                    continue;
                };
                let media = r
                    .get("content")
                    .and_then(Value::as_object)
                    .and_then(|c| c.iter().find(|(k, _)| k.contains("json")));
                let json_schema = media.and_then(|(_, m)| m.get("schema"));
                let schema = json_schema
                    .and_then(named_component)
                    .and_then(schema::component_of);
                // The operation's own success answer at an error status (Novu's 409 of `POST
                // /v2/subscribers` is the subscriber held) is no error envelope: its code and
                // message were looked for among the item's fields.
                if schema.is_some() && schema.as_deref() == op.response.as_deref() {
                    continue;
                }
                // An object schema written in place (Swagger 2.0's `{"error": "..."}`).
                let inline = json_schema
                    .filter(|s| named_component(s).is_none() && s.get("properties").is_some())
                    .zip(media)
                    .map(|(s, (mime, _))| {
                        let response =
                            format!("{}/responses/{}", op.pointer, document::escape(code));
                        // Swagger 2.0 keeps the schema on the response itself.
                        let at = if self.swagger {
                            format!("{response}/schema")
                        } else {
                            format!("{response}/content/{}/schema", document::escape(mime))
                        };
                        (s.clone(), at)
                    });
                let headers = r
                    .get("headers")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(name, _)| name.clone())
                    .filter(|name| {
                        let lower = name.to_ascii_lowercase();
                        let valid =
                            !name.is_empty() && name.bytes().all(crate::check::is_header_name_byte);
                        valid
                            && !NOT_DETAIL_HEADERS.contains(&lower.as_str())
                            // CORS headers (Twilio's on every answer) describe the answer.
                            && !lower.starts_with("access-control-")
                            && !lower.contains("ratelimit")
                            && !lower.contains("rate-limit")
                            && !self.auth_headers.contains(&lower)
                    })
                    .take(MAX_ERROR_HEADERS)
                    .collect();
                // No schema, or an object that says nothing of its fields (Infobip MMS's
                // `{type: object}` beside `{"errorMessage": ...}` examples): the examples tell.
                let example_paths = match (json_schema, media) {
                    (None, Some((_, m))) => example_error_paths(m),
                    (Some(s), Some((_, m))) if says_no_fields(s) => example_error_paths(m),
                    _ => None,
                };
                let alternatives = match &schema {
                    Some(component) => doc
                        .get("components")
                        .and_then(|c| c.get("schemas"))
                        .and_then(|s| s.get(component))
                        .map(union_members)
                        .unwrap_or_default(),
                    None => json_schema.map(union_members).unwrap_or_default(),
                };
                let example = answer_example(doc, r, media.map(|(_, m)| m), json_schema);
                out.push(ErrorAnswer {
                    op: index,
                    key,
                    schema,
                    inline,
                    headers,
                    example_paths,
                    alternatives,
                    example,
                    pointer: format!("{}/responses/{}", op.pointer, document::escape(code)),
                });
            }
        }
        out
    }

    /// The component schema `raw` extends first (`allOf: [{$ref: Base}, ...]`).
    fn base_of(&self, raw: &str) -> Option<String> {
        let schema = self.doc.get("components")?.get("schemas")?.get(raw)?;
        schema.get("allOf")?.as_array()?.iter().find_map(|member| {
            member
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(schema::component_of)
        })
    }

    /// The error body: the schema most error responses of imported operations share. The
    /// error answers with another schema, or with headers that carry error details, become
    /// their operation's own `error_bodies`.
    pub(super) fn errors_section(&mut self) -> Option<Node> {
        let answers = self.error_answers();
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for a in &answers {
            if let Some(c) = &a.schema {
                *counts.entry(c.as_str()).or_default() += 1;
            }
        }
        // The service's error type: the most shared object schema; or the base it extends
        // when other answers' schemas extend it too (Mandrill's `InvalidKeyError`, `allOf:
        // [Error, {name: enum [Invalid_Key]}]`, answers every 401, and its siblings the other
        // statuses: every error is an `Error`, not an invalid key).
        let best = counts
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(c, _)| (*c).to_owned())
            .map(|best| match self.base_of(&best) {
                Some(base)
                    if counts
                        .keys()
                        .filter(|k| self.base_of(k).as_ref() == Some(&base))
                        .count()
                        >= 2 =>
                {
                    base
                }
                _ => best,
            });
        let best_ty = best.as_ref().and_then(|b| {
            let ty = self.component(b).ok()?;
            matches!(self.types.get(&ty), Some(TypeOut::Object { .. })).then_some(ty)
        });
        let mut section = match (&best, &best_ty) {
            (Some(best), Some(ty)) => {
                let at = format!("/components/schemas/{}", document::escape(best));
                Some(self.service_errors(&at, &ty.clone()))
            }
            _ => None,
        };
        // No component: the one shape written in place, when every such answer has it
        // (Twilio's `{code, message, more_info, status}`, on one 429 of Verify's 57
        // operations), is the service's.
        let mut shown_in_place = false;
        if section.is_none()
            && let Some(node) = self.one_shape_in_place(&answers)
        {
            section = Some(node);
            shown_in_place = true;
        }
        let service_schema = best.filter(|_| best_ty.is_some());
        // Paths of each other error type, inferred once.
        let mut paths: BTreeMap<String, Option<ErrorType>> = BTreeMap::new();
        for a in answers {
            // An answer of several error shapes: its own bodies are the shapes that are not
            // the service's, in order (the runtime tries each, then the service's paths).
            let shapes: Vec<String> = a
                .alternatives
                .iter()
                .filter(|m| Some(*m) != service_schema.as_ref())
                .cloned()
                .collect();
            let shape = shapes.first().cloned();
            if !shapes.is_empty() {
                let service = a
                    .alternatives
                    .iter()
                    .find(|m| Some(*m) == service_schema.as_ref());
                self.report.inferred.push(Finding {
                    pointer: self.pointer(&a.pointer),
                    reason: "this error answer is one of several shapes: its code and message are read where the first shape that keeps them does, the service's last".into(),
                    detail: Some(format!(
                        "{}{}",
                        shapes
                            .iter()
                            .map(|s| format!("`{s}`"))
                            .collect::<Vec<_>>()
                            .join(", then "),
                        service.map_or(String::new(), |s| format!(", then the service's `{s}`"))
                    )),
                });
            }
            let own_schema = shape
                .as_ref()
                .or(a.schema.as_ref())
                .filter(|s| Some(*s) != service_schema.as_ref());
            // Examples without a schema that the service's paths would read anyway need
            // no body of their own.
            let example_paths = a.example_paths.clone().filter(|(code, message)| {
                let service = |key: &str, default: &str| {
                    section
                        .as_ref()
                        .and_then(|s| s.get(key))
                        .and_then(Node::as_str)
                        .unwrap_or(default)
                        .to_owned()
                };
                section.is_none()
                    || code.as_deref().is_some_and(|c| {
                        c != service("code", crate::resolved::defaults::ERROR_CODE_PATH)
                    })
                    || message.as_deref().is_some_and(|m| {
                        m != service("message", crate::resolved::defaults::ERROR_MESSAGE_PATH)
                    })
            });
            // Nothing but the service's body: kept only for an example of its own (Slack's
            // `channel_not_found` of `conversations.info`, `name_taken` of `.create`).
            let inline = a.inline.as_ref().filter(|_| !shown_in_place);
            let only_for_example = own_schema.is_none()
                && inline.is_none()
                && a.headers.is_empty()
                && example_paths.is_none();
            if only_for_example && !matches!(a.example, Some(Ok(_))) {
                self.example_left_out(&a, None);
                continue;
            }
            let mut body = Node::map();
            if let Some((schema, at)) = inline {
                // A schema in place: its own type, named after the operation and status.
                let hint = format!(
                    "{}Error{}",
                    crate::names::pascal(&self.ops[a.op].name),
                    a.key
                );
                let ty = self
                    .ty(schema, at, &hint, 0)
                    .ok()
                    .filter(|ty| matches!(self.types.get(ty), Some(TypeOut::Object { .. })));
                let Some(ty) = ty else { continue };
                let ptr = self.pointer(at);
                let (mut code, mut message) = self.error_paths_of(&ty, &ptr);
                // `{"error": "text"}` alone: the text is the message (an OAuth error has its
                // text in `error_description` beside it), unless it is one of listed values:
                // Slack's `{"ok": false, "error": "invalid_auth"}` is a code.
                if message.is_none()
                    && code.as_deref() == Some("error")
                    && !self.field_is_enum(&ty, "error")
                {
                    (code, message) = (None, Some("error".to_owned()));
                }
                typed_error_body(&mut body, &ty, code, message);
            } else if let Some(schema) = own_schema {
                body = self.component_error_body(schema, &mut paths);
                if body.get("type").is_some() {
                    let ty = body.get("type").and_then(Node::as_str).unwrap_or_default();
                    self.report.inferred.push(Finding {
                        pointer: self.pointer(&a.pointer),
                        reason: format!(
                            "this error answer has the schema `{schema}`: the operation's own error body `{ty}` for `{}`",
                            a.key
                        ),
                        detail: None,
                    });
                } else {
                    self.report.inferred.push(Finding {
                        pointer: self.pointer(&a.pointer),
                        reason: format!(
                            "this error answer's schema `{schema}` is not an object: its code and message are not read (the body is kept as JSON)"
                        ),
                        detail: None,
                    });
                }
            } else if shown_in_place
                || service_schema
                    .as_ref()
                    .is_some_and(|schema| a.schema.as_ref() == Some(schema))
            {
                // The service's body, with headers of its own: the same paths.
                for key in ["type", "code", "message"] {
                    if let Some(v) = section.as_ref().and_then(|s| s.get(key)) {
                        body.set(key, v.clone());
                    }
                }
            } else if let Some((code, message)) = example_paths {
                // No schema: code and message where the examples keep them, the body's
                // other keys kept as JSON.
                for (key, path) in [("code", code), ("message", message)] {
                    body.set(key, Node::str(path.unwrap_or_else(|| "none".to_owned())));
                }
                self.report.inferred.push(Finding {
                    pointer: self.pointer(&a.pointer),
                    reason: format!(
                        "this error answer has examples and no schema: its code and message read where the examples keep them, for `{}`",
                        a.key
                    ),
                    detail: None,
                });
            } else {
                body.set("code", Node::str("none"));
                body.set("message", Node::str("none"));
            }
            if !a.headers.is_empty() {
                self.report.inferred.push(Finding {
                    pointer: self.pointer(&a.pointer),
                    reason: format!(
                        "error details in the documented headers {} (kept on the error)",
                        a.headers.join(", ")
                    ),
                    detail: None,
                });
                body.set(
                    "headers",
                    Node::Seq(a.headers.iter().map(Node::str).collect()),
                );
            }
            // The answer's other shapes, tried after the first, each with its own paths
            // (their headers are the first's).
            let mut extra = Vec::new();
            for other in shapes.iter().skip(1) {
                let other = self.component_error_body(other, &mut paths);
                if other.get("type").is_some() {
                    extra.push(other);
                }
            }
            // An example whose keys are the type's fields (Infobip's 404 example is the
            // older `requestError` shape beside an `ApiError` schema: not kept).
            let ty = body.get("type").and_then(Node::as_str).map(str::to_owned);
            if let Some(Ok(example)) = &a.example
                && ty.as_deref().is_some_and(|ty| self.fits(ty, example))
            {
                body.set("example", Node::from_json(&Value::Object(example.clone())));
            } else {
                self.example_left_out(&a, ty.as_deref());
                if only_for_example {
                    continue;
                }
            }
            self.ops[a.op].error_bodies.push((a.key.clone(), body));
            for other in extra {
                self.ops[a.op].error_bodies.push((a.key.clone(), other));
            }
        }
        section
    }

    /// Whether `example`'s keys are fields of the object type `ty` (Infobip's 404 example is
    /// the older `requestError` shape beside an `ApiError` schema: not kept).
    fn fits(&self, ty: &str, example: &serde_json::Map<String, Value>) -> bool {
        match self.types.get(ty) {
            Some(TypeOut::Object { fields, .. }) => {
                example.keys().all(|k| fields.iter().any(|f| &f.wire == k))
            }
            _ => false,
        }
    }

    /// Reports the example of error answer `a` as left out, and why (its body's type is `ty`).
    fn example_left_out(&mut self, a: &ErrorAnswer, ty: Option<&str>) {
        let reason = match (&a.example, ty) {
            (None, _) => return,
            (Some(Err(why)), _) => why.clone(),
            (Some(Ok(example)), Some(ty)) => {
                let fields: &[FieldOut] = match self.types.get(ty) {
                    Some(TypeOut::Object { fields, .. }) => fields,
                    _ => &[],
                };
                let outside: Vec<String> = example
                    .keys()
                    .filter(|k| !fields.iter().any(|f| &f.wire == *k))
                    .map(|k| format!("`{k}`"))
                    .collect();
                format!(
                    "its example's {} not a field of `{ty}`",
                    plural_keys(&outside)
                )
            }
            (Some(Ok(_)), None) => "its body has no object type to check it against".to_owned(),
        };
        self.report.skipped.push(Finding {
            pointer: self.pointer(&a.pointer),
            reason: format!("this error answer's example is not kept: {reason}"),
            detail: None,
        });
    }

    /// The error body of component `schema`: its type and where it keeps code and message
    /// (inferred once per schema, kept in `paths`); `code: none, message: none` when the
    /// schema is not an object.
    fn component_error_body(
        &mut self,
        schema: &str,
        paths: &mut BTreeMap<String, Option<ErrorType>>,
    ) -> Node {
        if !paths.contains_key(schema) {
            let found = self
                .component(schema)
                .ok()
                .filter(|ty| matches!(self.types.get(ty), Some(TypeOut::Object { .. })));
            let found = found.map(|ty| {
                let ptr =
                    self.pointer(&format!("/components/schemas/{}", document::escape(schema)));
                let (code, message) = self.error_paths_of(&ty, &ptr);
                (ty, code, message)
            });
            paths.insert(schema.to_owned(), found);
        }
        let mut body = Node::map();
        match paths.get(schema).cloned().flatten() {
            Some((ty, code, message)) => {
                typed_error_body(&mut body, &ty, code, message);
            }
            None => {
                body.set("code", Node::str("none"));
                body.set("message", Node::str("none"));
            }
        }
        body
    }
}
