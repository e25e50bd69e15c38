//! A served spec's error bodies as its error type has them: every refusal the gateway and the
//! store make (401, 404, 405, 409, 422, 429, 507…) is written with a symbolic code (`not_found`)
//! at the spec's code path and the message at its message path. Two things a provider's type may
//! ask for beyond that:
//!
//! - **a numeric code** (Postmark's `ErrorCode`, Twilio's `code`): the symbolic code becomes
//!   the declared code (`errors.codes`) that comes with the answer's status, preferring the most
//!   specific (the fewest statuses), or the status itself when none is declared for it;
//! - **other required fields** (Twilio's `more_info` and `status`, SendGrid's `field` in each
//!   item of `errors`): filled as the store fills answers, a number named like a status
//!   (`status`, `statusCode`, `http_code`) with the HTTP status.
//!
//! Applied to the finished response, so every path that refuses a request is covered at once.
//! Then an operation with error bodies of its own ([`operation_error`]) gets its answer in
//! that shape instead.

use axum::body::Body;
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::response::Response;
use serde_json::{Map, Value};

use crate::server::Refusal;
use crate::server::resources::{ServiceSchema, ShapeSchema, Ty, failure_flags, fill};

mod examples;
mod status;

use status::{known_where_asked, the_status_in};

/// Largest error body rewritten (a sandbox's own error bodies are far smaller).
const MAX_ERROR_BODY: usize = 64 * 1024;

/// A numeric code's dot path, and the declared codes: `(status, code, statuses it comes with)`.
type NumericCode = (Vec<String>, Vec<(u16, i64, usize)>);

/// How a served spec's error bodies differ from what the gateway writes.
#[derive(Debug, Default)]
pub(crate) struct ErrorShape {
    /// The code's path and the declared codes `(status, code, statuses it comes with)`, when
    /// the error type's code is an integer.
    numeric_code: Option<NumericCode>,
    /// The error type, when it has required fields besides the code and message.
    filled: Option<Ty>,
    /// The code's path and its values, when the error type's code is an enum (Brevo's
    /// `document_not_found`, `invalid_parameter`, ...).
    enum_code: Option<(Vec<String>, &'static [&'static str])>,
    /// The code's path (for a code the field takes as a URI).
    code_path: Vec<String>,
    /// Where the service's errors keep code and message (dot paths), read back when an
    /// operation answers in a shape of its own.
    written: (Option<String>, Option<String>),
    /// Top-level text every documented example of the service's error type gives alike
    /// (Intercom's `type: "error.list"`): what a made-up error of that type says too.
    constants: Map<String, Value>,
    /// The examples documented for one status each, by status and error type: what an
    /// operation that documents none answers in that status ([`examples::by_status`]).
    examples: examples::ByStatus,
    /// The service's error type, as the spec names it.
    ty: Option<tidings_spec::Ty<tidings_spec::Owned>>,
}

/// The field at dot path `path` from the named type `ty`.
fn field_at(
    schema: &ServiceSchema,
    ty: &Ty,
    path: &[String],
) -> Option<&'static crate::server::resources::FieldSchema> {
    let (last, init) = path.split_last()?;
    let fields = schema.object_at(ty, &init.join("."))?;
    fields.iter().find(|f| f.name == last)
}

/// A symbolic code as the code field takes it: a URI where the field's format asks for one
/// (an RFC 9457 problem's `type`: `https://example.com/problems/not_found`), in capitals where
/// the document's example of it is (Zenvia's `VALIDATION_ERROR`: a client matching
/// `NOT_FOUND` never met `not_found`), else the code.
fn code_as_field_takes_it(schema: &ServiceSchema, ty: &Ty, path: &[String], code: Value) -> Value {
    let field = field_at(schema, ty, path);
    let uri = field.is_some_and(|f| f.format == Some(crate::server::resources::Format::Uri));
    let capitals = field.and_then(|f| f.example).is_some_and(|e| {
        e.chars().any(|c| c.is_ascii_uppercase())
            && e.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    });
    match code {
        Value::String(text) if uri && url::Url::parse(&text).is_err() => {
            Value::String(format!("https://example.com/problems/{text}"))
        }
        Value::String(text) if capitals => Value::String(text.to_ascii_uppercase()),
        other => other,
    }
}

/// The type of the field at dot path `path` from the named type `ty`.
fn field_type(schema: &ServiceSchema, ty: &Ty, path: &[String]) -> Option<Ty> {
    if path.is_empty() {
        return Some(*ty);
    }
    field_at(schema, ty, path).map(|f| f.ty)
}

impl ErrorShape {
    /// The shape of `service`'s errors, described by `schema`.
    pub(crate) fn of(service: &tidings_codegen::check::Service, schema: &ServiceSchema) -> Self {
        let Some(errors) = &service.errors else {
            return ErrorShape {
                examples: examples::by_status(service),
                ..ErrorShape::default()
            };
        };
        let written = (errors.code.clone(), errors.message.clone());
        let Some(tidings_spec::Ty::Named(name)) = &errors.ty else {
            return ErrorShape {
                written,
                examples: examples::by_status(service),
                ..ErrorShape::default()
            };
        };
        let Some(named) = schema.named(name.as_str()) else {
            return ErrorShape {
                written,
                ..ErrorShape::default()
            };
        };
        let ty = Ty::Named(named.name);
        let path = |p: &Option<String>| -> Vec<String> {
            p.as_deref()
                .map(|p| p.split('.').map(str::to_owned).collect())
                .unwrap_or_default()
        };
        let code_path = path(&errors.code);
        let numeric_code = (!code_path.is_empty()
            && field_type(schema, &ty, &code_path) == Some(Ty::Integer))
        .then(|| {
            let mut codes = Vec::new();
            for (code, info) in &errors.codes {
                if let Ok(n) = code.parse::<i64>() {
                    for status in &info.status {
                        codes.push((*status, n, info.status.len()));
                    }
                }
            }
            (code_path.clone(), codes)
        });
        // Filled whenever the type has required fields the gateway does not write, at the
        // top (Twilio's `more_info`) or inside (SendGrid's `errors` items want a `field`).
        let enum_code =
            enum_values(schema, &ty, &code_path).map(|values| (code_path.clone(), values));
        let constants = examples::constants(service, errors.ty.as_ref(), &written);
        ErrorShape {
            examples: examples::by_status(service),
            ty: errors.ty.clone(),
            numeric_code,
            filled: Some(ty),
            enum_code,
            code_path,
            written,
            constants,
        }
    }

    /// Puts the example another operation documents for `status` in the service's error type
    /// in place of what the gateway wrote, with the gateway's message (Telnyx's `10005`
    /// "Resource not found", documented once): true when there is one. Not for a refusal of
    /// the request's values, which an example cannot describe.
    fn documented(
        &self,
        status: u16,
        parts: &axum::http::response::Parts,
        object: &mut Map<String, Value>,
        path: &str,
    ) -> bool {
        let validation = parts
            .extensions
            .get::<Refusal>()
            .is_some_and(Refusal::is_validation);
        let key = (status, self.ty.clone());
        let Some(example) =
            examples::borrowed(&self.examples, &key, self.written.0.as_deref(), path)
        else {
            return false;
        };
        if validation {
            return false;
        }
        let at = self.written.1.as_deref();
        let message = at.and_then(|p| at_path(&Value::Object(object.clone()), p).cloned());
        *object = example.clone();
        examples::this_request(object, parts);
        if let (Some(at), Some(message)) = (at, message) {
            let path: Vec<String> = at.split('.').map(str::to_owned).collect();
            put(object, &path, message);
        }
        true
    }

    /// Nothing to rewrite.
    pub(crate) fn is_plain(&self) -> bool {
        self.numeric_code.is_none() && self.filled.is_none() && self.enum_code.is_none()
    }

    /// `response` with its error body in the spec's shape (other answers as they are).
    /// `path` is the request's, answered in a field that says where the error happened.
    pub(crate) async fn apply(
        &self,
        schema: &ServiceSchema,
        response: Response,
        path: &str,
    ) -> Response {
        let status = response.status();
        let json = response
            .headers()
            .get(CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
        if self.is_plain() || !(status.is_client_error() || status.is_server_error()) || !json {
            return response;
        }
        let (mut parts, body) = response.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
            return Response::from_parts(parts, Body::empty());
        };
        let Ok(Value::Object(mut object)) = serde_json::from_slice::<Value>(&bytes) else {
            return Response::from_parts(parts, Body::from(bytes));
        };
        let documented = self.documented(status.as_u16(), &parts, &mut object, path);
        if let Some((path, codes)) = self.numeric_code.as_ref().filter(|_| !documented) {
            let code = codes
                .iter()
                .filter(|(s, _, _)| *s == status.as_u16())
                .min_by_key(|(_, _, n)| *n)
                .map_or(i64::from(status.as_u16()), |(_, code, _)| *code);
            put(&mut object, path, Value::from(code));
        }
        if let Some((path, values)) = self.enum_code.as_ref().filter(|_| !documented) {
            let given = at_path(&Value::Object(object.clone()), &path.join("."))
                .and_then(Value::as_str)
                .map(str::to_owned)
                .unwrap_or_else(|| symbolic_code(status));
            put(
                &mut object,
                path,
                Value::from(enum_code(values, &given, status)),
            );
        }
        if let (Some(ty), false) = (&self.filled, self.code_path.is_empty()) {
            let at = self.code_path.join(".");
            if let Some(code) = at_path(&Value::Object(object.clone()), &at).cloned() {
                let code = code_as_field_takes_it(schema, ty, &self.code_path, code);
                put(&mut object, &self.code_path, code);
            }
        }
        for (key, value) in &self.constants {
            object.entry(key.clone()).or_insert_with(|| value.clone());
        }
        if let Some(ty) = &self.filled {
            let mut given = Value::Object(object.clone());
            failure_flags(schema, ty, &mut given);
            if let Value::Object(mut filled) = fill(schema, ty, Some(&given), 0, None) {
                let keeps_message = self.written.1.is_some();
                refusal_in(schema, ty, &mut filled, &given, &parts, keeps_message);
                the_status_in(&mut filled, &given, status, path);
                known_where_asked(schema, ty, &mut filled, status, path);
                examples::this_request(&mut filled, &parts);
                object.extend(filled);
            }
        }
        let body = serde_json::to_vec(&Value::Object(object)).unwrap_or_default();
        parts.headers.remove(CONTENT_LENGTH);
        Response::from_parts(parts, Body::from(body))
    }
}

/// Names of an error's field that says which request field it refuses (SendGrid's `field`,
/// Stripe's `param`).
const PARAM_NAMES: &[&str] = &[
    "field",
    "param",
    "parameter",
    "property",
    "attribute",
    "fieldName",
    "field_name",
];

/// Names of a field that holds an error's words, in the object a field-keyed map holds per
/// field (Novu's `{messages: [...], value}`).
const WORDS_NAMES: &[&str] = &[
    "message",
    "messages",
    "msg",
    "detail",
    "details",
    "description",
    "errors",
    "reason",
];

/// Writes the request's refusal (when the answer is one) into `filled`, an error made up from
/// `ty` ([`the_refused_field_in`]). A refusal of no one field (a body that is not JSON), where
/// the error type keeps no message of its own, is keyed `base` in a field-keyed map, as Rails
/// writes it (Mailtrap's own examples): it answered `{"errors": {}}`, no reason at all.
fn refusal_in(
    schema: &ServiceSchema,
    ty: &Ty,
    filled: &mut Map<String, Value>,
    given: &Value,
    parts: &axum::http::response::Parts,
    keeps_message: bool,
) {
    let Some(refusal) = parts.extensions.get::<Refusal>() else {
        return;
    };
    let param = match &refusal.param {
        Some(param) => (param.as_str(), true),
        None if !keeps_message => ("base", false),
        None => return,
    };
    the_refused_field_in(schema, ty, filled, given, (param, &refusal.message), 0);
}

/// Writes into `filled` (an error made up from `ty`) the request field `param` it refuses: a
/// map the gateway left empty is keyed by it (Novu's `errors: {"subscriberId": {"messages":
/// [...]}}`, Mailtrap's `errors: {"email": ["..."]}`), and a text field named for it
/// ([`PARAM_NAMES`]) made up as its own name says it (SendGrid's `errors[].field`). Without
/// this a validation error answered `errors: {}`: the client could not tell what was wrong.
fn the_refused_field_in(
    schema: &ServiceSchema,
    ty: &Ty,
    filled: &mut Map<String, Value>,
    given: &Value,
    ((param, a_field), message): ((&str, bool), &str),
    depth: usize,
) {
    let Some(fields) = schema.object_fields(ty) else {
        return;
    };
    for f in fields {
        // An optional map of words left out (Mailtrap's `errors`) is written too.
        if let Ty::Map(inner) = &f.ty
            && !filled.contains_key(f.name)
            && holds_words(schema, inner)
        {
            filled.insert(f.name.to_owned(), Value::Object(Map::new()));
        }
        let Some(value) = filled.get_mut(f.name) else {
            continue;
        };
        let written = given.get(f.name).is_some();
        match (&f.ty, value) {
            (Ty::Map(inner), Value::Object(map)) if map.is_empty() && !written => {
                map.insert(param.to_owned(), words_for(schema, inner, message));
            }
            // Made up as its own name, or a documented example's placeholder (Infobip's
            // `property: property.path`): the gateway writes no such field.
            (Ty::String, Value::String(text)) if a_field && PARAM_NAMES.contains(&f.name) => {
                *text = param.to_owned();
            }
            (Ty::Named(_), Value::Object(inner)) if depth < 2 => {
                let given = given.get(f.name).unwrap_or(&Value::Null);
                let refused = ((param, a_field), message);
                the_refused_field_in(schema, &f.ty, inner, given, refused, depth + 1);
            }
            (Ty::List(item), Value::Array(items)) if depth < 2 => {
                let given = given
                    .get(f.name)
                    .and_then(|g| g.get(0))
                    .unwrap_or(&Value::Null);
                for value in items {
                    if let Value::Object(inner) = value {
                        let refused = ((param, a_field), message);
                        the_refused_field_in(schema, item, inner, given, refused, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether a value of `ty` can hold an error's words: text, a list of text, or an object
/// with a words field ([`WORDS_NAMES`]).
fn holds_words(schema: &ServiceSchema, ty: &Ty) -> bool {
    match ty {
        Ty::String => true,
        Ty::List(inner) => matches!(**inner, Ty::String),
        _ => schema
            .object_fields(ty)
            .is_some_and(|fs| fs.iter().any(|f| WORDS_NAMES.contains(&f.name))),
    }
}

/// What a field-keyed error map holds for one field, as its value type `ty` takes `message`:
/// the text, a list of it, or an object whose words fields hold it ([`WORDS_NAMES`]).
fn words_for(schema: &ServiceSchema, ty: &Ty, message: &str) -> Value {
    match ty {
        Ty::String | Ty::Json => Value::from(message),
        Ty::List(inner) if matches!(**inner, Ty::String | Ty::Json) => {
            Value::Array(vec![Value::from(message)])
        }
        Ty::List(inner) => Value::Array(vec![words_for(schema, inner, message)]),
        Ty::Named(_) => {
            let mut given = Map::new();
            for f in schema.object_fields(ty).unwrap_or_default() {
                if WORDS_NAMES.contains(&f.name) {
                    given.insert(f.name.to_owned(), words_for(schema, &f.ty, message));
                }
            }
            fill(schema, ty, Some(&Value::Object(given)), 1, None)
        }
        other => fill(schema, other, None, 1, None),
    }
}

/// Sets the headers an error body lists (`error_bodies.*.headers`) that carry its message or
/// its code, by their names (Ably's `x-ably-errormessage`, `x-ably-errorcode`), as visible
/// ASCII; other listed headers say what the sandbox cannot know and are left out.
fn error_headers(
    headers: &mut axum::http::HeaderMap,
    listed: &[String],
    code: &Value,
    message: &Value,
) {
    let text = |v: &Value| -> String {
        let text = match v {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        text.chars()
            .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
            .collect()
    };
    for name in listed {
        let lower = name.to_ascii_lowercase();
        let value = if ["message", "msg", "description", "detail", "reason"]
            .iter()
            .any(|w| lower.contains(w))
        {
            text(message)
        } else if lower.contains("code") {
            text(code)
        } else {
            continue;
        };
        if let (Ok(name), Ok(value)) = (
            axum::http::HeaderName::from_bytes(name.as_bytes()),
            axum::http::HeaderValue::from_str(&value),
        ) {
            headers.insert(name, value);
        }
    }
}

/// `response` (already in the service's error shape) as the operation's own error body for
/// its status says, when it has one (`error_bodies`, most specific first): raw text when the
/// body has no type (SendGrid's SSO operations document their errors as text), else the
/// operation's error type with the code and message at its own paths.
pub(crate) async fn operation_error(
    schema: &ServiceSchema,
    service: &ErrorShape,
    op: &tidings_codegen::check::OperationInfo,
    response: Response,
    path: &str,
) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let code = status.as_u16();
    let Some(own) = op
        .error_bodies
        .iter()
        .find(|b| (b.statuses.0..=b.statuses.1).contains(&code))
    else {
        return response;
    };
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let Ok(value) = serde_json::from_slice::<Value>(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    // What the gateway wrote: a symbolic code and a message, wherever the service keeps them
    // (its own paths first: Infobip's `requestError.serviceException.text`).
    let found = |first: &Option<String>, keys: &[&str]| {
        first
            .iter()
            .map(String::as_str)
            .chain(keys.iter().copied())
            .find_map(|k| at_path(&value, k).filter(|v| !v.is_null()).cloned())
    };
    let (written_code, written_message) = &service.written;
    let message = found(
        written_message,
        &[
            "error.message",
            "message",
            "Message",
            "detail",
            "errors.0.message",
        ],
    )
    .unwrap_or_else(|| Value::String(status.canonical_reason().unwrap_or("error").into()));
    let symbolic = found(
        written_code,
        &["error.code", "code", "ErrorCode", "type", "errors.0.code"],
    )
    .filter(|v| v.is_string())
    .unwrap_or_else(|| Value::String(symbolic_code(status)));
    parts.headers.remove(CONTENT_LENGTH);
    // An error the document describes by its headers alone (Ably's `x-ably-errorcode` and
    // `x-ably-errormessage`): the service's body as it was, with them, the code header saying
    // the body's code (a number where the body has one).
    if own.ty.is_none() && own.code.is_none() && own.message.is_none() && !own.headers.is_empty() {
        let body_code = found(written_code, &["error.code", "code", "ErrorCode"]);
        let code = body_code.as_ref().unwrap_or(&symbolic);
        error_headers(&mut parts.headers, &own.headers, code, &message);
        return Response::from_parts(parts, Body::from(bytes));
    }
    let Some(ty) = own.ty.as_ref().map(tidings_codegen::describe::ty_schema) else {
        error_headers(&mut parts.headers, &own.headers, &symbolic, &message);
        let text = match message {
            Value::String(text) => text,
            other => other.to_string(),
        };
        parts.headers.insert(
            CONTENT_TYPE,
            axum::http::HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        return Response::from_parts(parts, Body::from(text));
    };
    // The code and message where the operation's type keeps them, then its other required
    // fields made up around them (a list item's `field`, `error_id`).
    let mut out = Value::Object(Map::new());
    // The code as the body gives it, for the headers: a number where its field is one (the
    // status), else the symbolic code.
    let (mut body_code, request) = (symbolic.clone(), path);
    if let Value::Object(object) = &mut out {
        let path = |p: &Option<String>| -> Vec<String> {
            p.as_deref()
                .map(|p| p.split('.').map(str::to_owned).collect())
                .unwrap_or_default()
        };
        let code_path = path(&own.code);
        // The body the answer is documented with: its code (Mandrill's 404 `code: 5, name:
        // Unknown_Template`) and other values, with the gateway's message.
        let fields = schema.object_fields(&ty).unwrap_or_default();
        let fits = |example: &&Map<String, Value>| {
            example.keys().all(|k| fields.iter().any(|f| f.name == k))
        };
        // Not for a refusal of the request's values: one example of the status (a
        // duplicate name) cannot say what each refused value is.
        let validation = parts
            .extensions
            .get::<Refusal>()
            .is_some_and(Refusal::is_validation);
        // Else another operation's for the status in the type (Telnyx's 404 `10005`, given once).
        let example = own
            .example
            .as_ref()
            .or_else(|| {
                examples::borrowed(
                    &service.examples,
                    &(code, own.ty.clone()),
                    own.code.as_deref(),
                    request,
                )
            })
            .filter(|_| !validation);
        let documented_code = example.filter(fits).and_then(|example| {
            *object = example.clone();
            examples::this_request(object, &parts);
            let example = Value::Object(example.clone());
            at_path(&example, own.code.as_deref()?).cloned()
        });
        if let Some(code) = documented_code {
            body_code = code;
        } else if !code_path.is_empty() {
            let code_value = if field_type(schema, &ty, &code_path) == Some(Ty::Integer) {
                Value::from(code)
            } else if let Some(values) = enum_values(schema, &ty, &code_path) {
                let given = symbolic
                    .as_str()
                    .map_or_else(|| symbolic_code(status), str::to_owned);
                Value::from(enum_code(values, &given, status))
            } else {
                code_as_field_takes_it(schema, &ty, &code_path, symbolic)
            };
            body_code = code_value.clone();
            put(object, &code_path, code_value);
        }
        error_headers(&mut parts.headers, &own.headers, &body_code, &message);
        let message_path = path(&own.message);
        if !message_path.is_empty() {
            put(object, &message_path, message);
        }
    }
    failure_flags(schema, &ty, &mut out);
    let given = out.clone();
    let mut out = fill(schema, &ty, Some(&out), 0, None);
    if let Value::Object(filled) = &mut out {
        refusal_in(schema, &ty, filled, &given, &parts, own.message.is_some());
        the_status_in(filled, &given, status, path);
        examples::this_request(filled, &parts);
    }
    let body = serde_json::to_vec(&out).unwrap_or_default();
    Response::from_parts(parts, Body::from(body))
}

/// [`set`] through lists too: a number in the path (`errors.0.message`) is an index into a
/// list, made (with one item) when missing.
fn put(object: &mut Map<String, Value>, path: &[String], value: Value) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    if rest.is_empty() {
        object.insert(first.clone(), value);
        return;
    }
    let next_is_index = rest[0].parse::<usize>().is_ok();
    let slot = object.entry(first.clone()).or_insert(Value::Null);
    match (next_is_index, slot) {
        (true, slot) => {
            if !slot.is_array() {
                *slot = Value::Array(Vec::new());
            }
            let Value::Array(items) = slot else { return };
            let index = rest[0].parse::<usize>().unwrap_or(0);
            while items.len() <= index {
                items.push(Value::Object(Map::new()));
            }
            if rest.len() == 1 {
                items[index] = value;
                return;
            }
            if !items[index].is_object() {
                items[index] = Value::Object(Map::new());
            }
            if let Value::Object(inner) = &mut items[index] {
                put(inner, &rest[1..], value);
            }
        }
        (false, slot) => {
            if !slot.is_object() {
                *slot = Value::Object(Map::new());
            }
            if let Value::Object(inner) = slot {
                put(inner, rest, value);
            }
        }
    }
}

/// The values of the enum at dot path `path` from the named type `ty`, when it is one.
fn enum_values(
    schema: &ServiceSchema,
    ty: &Ty,
    path: &[String],
) -> Option<&'static [&'static str]> {
    if path.is_empty() {
        return None;
    }
    let Ty::Named(name) = field_type(schema, ty, path)? else {
        return None;
    };
    match schema.named(name)?.shape {
        ShapeSchema::Enum(values) if !values.is_empty() => Some(values),
        _ => None,
    }
}

/// Codes a provider gives a refusal with `status` under other names than the gateway's.
fn code_synonyms(status: u16) -> &'static [&'static str] {
    match status {
        400 | 422 => &[
            "invalid_parameter",
            "invalid_request",
            "validation_error",
            "unprocessable_entity",
            "bad_request",
            "missing_parameter",
            "invalid_arguments",
            "invalid_arg_name",
            "invalid_form_data",
        ],
        401 => &[
            "unauthorized",
            "unauthenticated",
            "invalid_api_key",
            "authentication_failed",
            "not_authed",
            "invalid_auth",
            "not_authenticated",
        ],
        415 => &[
            "unsupported_media_type",
            "invalid_post_type",
            "invalid_form_data",
        ],
        403 => &["permission_denied", "forbidden"],
        404 => &["not_found", "document_not_found", "resource_not_found"],
        405 => &["method_not_allowed"],
        409 => &[
            "conflict",
            "duplicate_request",
            "duplicate_parameter",
            "already_exists",
        ],
        413 => &["payload_too_large", "request_too_large"],
        429 => &["rate_limit_exceeded", "too_many_requests", "rate_limited"],
        _ => &[],
    }
}

/// The enum value that says what the gateway's symbolic code `given` says: itself when the
/// enum has it, else a value holding it (`document_not_found` for `not_found`), else the
/// first of the status's usual names the enum has, else one holding the status's word
/// (`auth` for 401: Slack's `account_inactive` is not it), else for a refusal one holding
/// `invalid`, else the enum's first value (a code the type does not allow would not decode
/// as it).
fn enum_code(values: &[&'static str], given: &str, status: axum::http::StatusCode) -> &'static str {
    let lower = |v: &str| v.to_ascii_lowercase();
    let given = lower(given);
    // What a refused credential is (`invalid_api_key`, `missing_api_key`): a value saying the
    // same of a credential (Slack's `invalid_auth` for a wrong key).
    let same_of_credential = |v: &&&str| {
        let v = lower(v);
        let first = given.split('_').next().unwrap_or_default();
        status == axum::http::StatusCode::UNAUTHORIZED
            && v.starts_with(first)
            && ["auth", "key", "token"].iter().any(|w| v.contains(w))
    };
    values
        .iter()
        .find(|v| lower(v) == given)
        .or_else(|| values.iter().find(|v| lower(v).contains(&given)))
        .or_else(|| values.iter().find(same_of_credential))
        .or_else(|| {
            code_synonyms(status.as_u16())
                .iter()
                .find_map(|s| values.iter().find(|v| lower(v) == *s))
        })
        .or_else(|| {
            let word = match status.as_u16() {
                401 => "auth",
                400 | 415 | 422 => "invalid",
                403 => "permission",
                404 => "not_found",
                409 => "exists",
                429 => "rate",
                _ => return None,
            };
            values.iter().find(|v| lower(v).contains(word))
        })
        // A refusal the enum has no word for (Slack's 404 of a cursor never handed out, whose
        // enum starts with `missing_scope`): a value that says the request is invalid.
        .or_else(|| {
            status
                .is_client_error()
                .then(|| {
                    values.iter().find(|v| {
                        let v = lower(v);
                        v.contains("invalid")
                            && !["auth", "key", "token"].iter().any(|w| v.contains(w))
                    })
                })
                .flatten()
        })
        .or_else(|| values.first())
        .copied()
        .unwrap_or_default()
}

/// The code the gateway gives a refusal with `status`, for a service whose error body keeps
/// none (`validation_error` for 422).
fn symbolic_code(status: axum::http::StatusCode) -> String {
    match status.as_u16() {
        401 => "unauthorized".into(),
        404 => "not_found".into(),
        405 => "method_not_allowed".into(),
        409 => "conflict".into(),
        413 => "payload_too_large".into(),
        422 => "validation_error".into(),
        429 => "rate_limit_exceeded".into(),
        other => status.canonical_reason().map_or_else(
            || other.to_string(),
            |r| r.to_ascii_lowercase().replace(' ', "_"),
        ),
    }
}

/// The value at dot path `path` (`errors.0.message`): objects by key, arrays by index.
fn at_path<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(value, |v, key| match v {
        Value::Object(m) => m.get(key),
        Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

#[cfg(test)]
mod tests;
