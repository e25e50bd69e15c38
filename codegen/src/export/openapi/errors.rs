//! The error answers of the OpenAPI document: the service's error response per status (a
//! component every operation refers to), and an operation's own error bodies written in place.

use serde_json::{Map, Value, json};

use super::{header_refs, reason};
use crate::export::{origin, schema_ref, ty_schema};
use crate::resolved::{ErrorBodyInfo, Service, Ty};

pub(super) fn error_response(service: &Service, status: Option<u16>) -> Value {
    let mut r = Map::new();
    let errors = service.errors.as_ref();
    let codes: Vec<String> = errors
        .map(|e| {
            e.codes
                .iter()
                .filter(|(_, c)| status.is_some_and(|s| c.status.contains(&s)))
                .map(|(name, c)| {
                    let source = c
                        .source
                        .map(|s| format!(" ({})", s.as_str()))
                        .unwrap_or_default();
                    match &c.doc {
                        Some(doc) => format!("`{name}`{source}: {doc}"),
                        None => format!("`{name}`{source}"),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let mut description = match status {
        Some(s) => reason(s).to_owned(),
        None => "Any other error".to_owned(),
    };
    if !codes.is_empty() {
        description.push_str(&format!(". Error codes: {}.", codes.join(", ")));
    }
    r.insert("description".into(), json!(description));
    let content = match errors.and_then(|e| e.ty.as_ref()) {
        Some(Ty::Named(ty)) => json!({ "application/json": { "schema": schema_ref(ty) } }),
        Some(ty) => json!({ "application/json": { "schema": ty_schema(ty) } }),
        None => json!({
            "text/plain": { "schema": { "type": "string", "description": "The server's error text, kept raw." } },
            "application/json": { "schema": { "description": "Some servers answer errors as JSON." } },
        }),
    };
    r.insert("content".into(), content);
    let headers = header_refs(service, status);
    if !headers.is_empty() {
        r.insert("headers".into(), Value::Object(headers));
    }
    if let Some(e) = errors {
        origin(&mut r, &e.origin);
        // Where a client finds code and message (dot paths; `null`: not in the body).
        r.insert(
            "x-error-fields".into(),
            json!({ "code": e.code, "message": e.message }),
        );
    }
    Value::Object(r)
}

/// An error answer read with the operation's own bodies (`error_bodies`, one or several shapes
/// of one key): its schema (`oneOf` the shapes), the headers that carry details, and where
/// code and message are (`x-error-fields`, a list for several shapes).
pub(super) fn own_error_response(
    service: &Service,
    bodies: &[&ErrorBodyInfo],
    status: Option<u16>,
) -> Value {
    let Some(body) = bodies.first() else {
        return error_response_ref(status);
    };
    let mut r = Map::new();
    let description = match (status, body.key.parse::<u16>()) {
        (Some(s), Ok(_)) => reason(s).to_owned(),
        (_, _) if body.key == "default" => "Any other error".to_owned(),
        _ => format!("Errors {}", body.key.to_ascii_uppercase()),
    };
    r.insert("description".into(), json!(description));
    let schema_of = |ty: &Ty| match ty {
        Ty::Named(ty) => schema_ref(ty),
        ty => ty_schema(ty),
    };
    let typed: Vec<Value> = bodies
        .iter()
        .filter_map(|b| b.ty.as_ref().map(schema_of))
        .collect();
    let content = match &body.ty {
        Some(_) if typed.len() > 1 => {
            json!({ "application/json": { "schema": { "oneOf": typed } } })
        }
        Some(Ty::Named(ty)) => json!({ "application/json": { "schema": schema_ref(ty) } }),
        Some(ty) => json!({ "application/json": { "schema": ty_schema(ty) } }),
        None => json!({
            "text/plain": { "schema": { "type": "string", "description": "The server's error text, kept raw." } },
        }),
    };
    let mut content = content;
    if let (Some(example), Some(media)) = (
        &body.example,
        content
            .get_mut("application/json")
            .and_then(Value::as_object_mut),
    ) {
        media.insert("example".into(), Value::Object(example.clone()));
    }
    r.insert("content".into(), content);
    let mut headers = header_refs(service, status);
    for name in bodies.iter().flat_map(|b| &b.headers) {
        headers.insert(
            name.clone(),
            json!({ "description": "Carries details of the error.", "schema": { "type": "string" } }),
        );
    }
    if !headers.is_empty() {
        r.insert("headers".into(), Value::Object(headers));
    }
    let fields = |b: &ErrorBodyInfo| json!({ "code": b.code, "message": b.message });
    let fields = match bodies {
        [one] => fields(one),
        many => Value::Array(many.iter().map(|b| fields(b)).collect()),
    };
    r.insert("x-error-fields".into(), fields);
    Value::Object(r)
}

/// The component name of an error response (`Error404`, `ErrorDefault`).
pub(super) fn error_response_name(status: Option<u16>) -> String {
    match status {
        Some(s) => format!("Error{s}"),
        None => "ErrorDefault".into(),
    }
}

pub(super) fn error_response_ref(status: Option<u16>) -> Value {
    json!({ "$ref": format!("#/components/responses/{}", error_response_name(status)) })
}

/// Every error status any operation answers, and `default`, as response components.
pub(super) fn error_responses(service: &Service) -> Map<String, Value> {
    let mut statuses: Vec<u16> = service
        .operations
        .iter()
        .flat_map(|o| o.errors.iter().copied())
        .collect();
    if rate_reported(service) {
        statuses.push(429);
    }
    statuses.sort_unstable();
    statuses.dedup();
    let mut out = Map::new();
    for status in statuses.into_iter().map(Some).chain([None]) {
        out.insert(error_response_name(status), error_response(service, status));
    }
    out
}

/// Whether the service says how it reports rate limiting (then every operation may answer 429).
pub(super) fn rate_reported(service: &Service) -> bool {
    service
        .rate_limit_headers
        .as_ref()
        .is_some_and(|h| h.retry_after.is_some())
}
