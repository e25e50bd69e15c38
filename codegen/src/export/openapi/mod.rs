//! OpenAPI 3.1 documents of a service's HTTP API.
//!
//! Every operation becomes a path item method with its parameters (path, query, the
//! idempotency header of `idempotency: key` operations), JSON request body, success response
//! (`page<T>` as a `Page_T` schema) and error responses (the service's error body, rate-limit
//! headers, `Retry-After` on 429 and 503). Auth schemes become security schemes: `bearer` an HTTP
//! bearer scheme, `query` and `header` API keys, and a request-signing scheme an API key in the
//! query (`auth_signature`) with `x-signing` saying how the signature is made. The webhook
//! becomes an entry of the 3.1 `webhooks` section with its signature headers.
//!
//! Open enums accept any string (see [`crate::export`]): a client's valid requests always pass
//! a validating server, and answers with values added later still validate.

use serde_json::{Map, Value, json};

use super::{
    Dialect, constrained_schema, describe, origin, page_component, provenance, schema_ref,
    ty_schema, type_schemas,
};
use crate::model::{IdempotencyMode, QueryStyle, WebhookSignature};
use crate::resolved::{
    Answer, AuthScheme, BodyEncodingInfo, OperationInfo, PageStyle, PaginationInfo, ParamInfo,
    Service, SigningScheme, Ty,
};

mod downgrade;
mod errors;
mod security;
mod webhooks;

pub use downgrade::downgrade_to_3_0;
use errors::{error_response_ref, error_responses, own_error_response, rate_reported};
use security::{body_auth, security_schemes};
use webhooks::webhooks;
/// The OpenAPI 3.1 document of a service's HTTP API.
pub fn document(service: &Service) -> Value {
    let mut doc = Map::new();
    doc.insert("openapi".into(), json!("3.1.0"));
    // No `jsonSchemaDialect`: the default dialect is meant, and Prism stops validating request
    // bodies when the key is present.
    doc.insert("info".into(), info(service));
    doc.insert("servers".into(), servers(service));

    // Components: schemas, security schemes, headers, parameters.
    let mut components = Map::new();
    let mut schemas = type_schemas(service, Dialect::OpenApi, &|_| true);
    for op in &service.operations {
        // An operation's own pagination has its own page shape, written inline at the operation.
        if let (Some(Ty::Named(item)), Some(Ty::Page(_)), Some(false)) = (
            op.page_item(),
            &op.response,
            op.pagination.as_ref().map(|p| p.own),
        ) {
            schemas.insert(page_component(item), page_schema(service, op, item));
        }
    }
    components.insert("schemas".into(), Value::Object(schemas));
    let schemes = security_schemes(service);
    if !schemes.is_empty() {
        components.insert("securitySchemes".into(), Value::Object(schemes));
    }
    components.insert("responses".into(), Value::Object(error_responses(service)));
    let headers = rate_headers(service);
    if !headers.is_empty() {
        components.insert("headers".into(), Value::Object(headers));
    }
    if let Some(i) = &service.idempotency {
        let mut p = Map::new();
        p.insert("name".into(), json!(i.header));
        p.insert("in".into(), json!("header"));
        p.insert("required".into(), json!(false));
        let retention = i
            .retention_hours
            .map(|h| format!(" The service keeps keys for {h} hours."))
            .unwrap_or_default();
        p.insert(
            "description".into(),
            json!(format!(
                "A unique key per logical request, reused on every retry of it, so a retry is \
                 not applied twice. The generated clients send one on every call of this \
                 operation.{retention}"
            )),
        );
        p.insert(
            "schema".into(),
            json!({ "type": "string", "minLength": 1, "maxLength": i.max_len }),
        );
        provenance(&mut p, i.source, i.note.as_deref(), i.conflict.as_deref());
        components.insert(
            "parameters".into(),
            json!({ "IdempotencyKey": Value::Object(p) }),
        );
    }
    doc.insert("components".into(), Value::Object(components));

    // Security: the first scheme is the default; `query` schemes are accepted alternatives.
    let default_security: Vec<Value> = service
        .auth
        .iter()
        .enumerate()
        .filter(|(i, a)| *i == 0 || matches!(a.method, AuthScheme::Query { .. }))
        .filter(|(_, a)| !matches!(a.method, AuthScheme::Body { .. }))
        .map(|(_, a)| security::requirement(service, a))
        .collect();
    if !default_security.is_empty() {
        doc.insert("security".into(), Value::Array(default_security));
    }
    // Errors inside 2xx answers: no OpenAPI construct says a success body can be a failure.
    if let Some(s) = service.errors.as_ref().and_then(|e| e.in_success.as_ref()) {
        doc.insert(
            "x-errors-in-success".into(),
            json!({ "field": s.field, "equals": s.equals, "present": s.equals.is_empty() }),
        );
    }
    let body_auth = body_auth(service);
    if !body_auth.is_empty() {
        doc.insert("x-body-auth".into(), Value::Array(body_auth));
    }

    // Paths and tags.
    let mut paths = Map::new();
    let mut tags: Vec<String> = Vec::new();
    for op in &service.operations {
        let tag = tag_of(service, op);
        if !tags.contains(&tag) {
            tags.push(tag.clone());
        }
        let operation = operation(service, op, &tag);
        if let Value::Object(item) = paths.entry(op.path.clone()).or_insert_with(|| json!({})) {
            let method = op.method.as_str().to_ascii_lowercase();
            match item.get_mut(&method) {
                // Several operations on one method and path (told apart by `when`): one
                // OpenAPI operation whose body is any of theirs.
                Some(existing) => share_route(existing, op, operation),
                None => {
                    item.insert(method, operation);
                }
            }
        }
    }
    doc.insert("paths".into(), Value::Object(paths));
    doc.insert(
        "tags".into(),
        Value::Array(
            tags.iter()
                .map(|t| json!({ "name": t, "description": format!("Operations on /{t}.") }))
                .collect(),
        ),
    );

    if let Some(webhooks) = webhooks(service) {
        doc.insert("webhooks".into(), webhooks);
    }
    extensions(service, &mut doc);
    Value::Object(doc)
}

fn info(service: &Service) -> Value {
    let s = &service.info;
    let mut info = Map::new();
    info.insert("title".into(), json!(s.title));
    info.insert("summary".into(), json!(s.summary));
    let mut description = s.doc.clone().unwrap_or_default().trim().to_owned();
    if !description.is_empty() {
        description.push_str("\n\n");
    }
    description.push_str(&format!(
        "Exported from `{}` by `tidings-codegen openapi`. Every item says where it comes from in \
         `x-source`: `seed` (the seed document states it), `assumed` (our design) or \
         `not_shown` (still unknown); `x-note` says why, `x-conflict` where seed facts disagree. \
         Enums are open: the listed values are the known ones, and clients keep any other.",
        super::spec_file(service)
    ));
    info.insert("description".into(), json!(description));
    let version = s
        .version
        .as_ref()
        .and_then(|v| v.prefix.clone())
        .unwrap_or_else(|| "unversioned".into());
    info.insert("version".into(), json!(version));
    provenance(
        &mut info,
        s.source,
        s.note.as_deref(),
        s.conflict.as_deref(),
    );
    Value::Object(info)
}

fn servers(service: &Service) -> Value {
    let b = &service.info.base_url;
    let mut variable = Map::new();
    variable.insert(
        "default".into(),
        json!(
            b.default
                .clone()
                .unwrap_or_else(|| "http://localhost".into())
        ),
    );
    let what = if b.default.is_some() {
        format!("The service's base URL; `{}` overrides it.", b.env)
    } else {
        format!(
            "The service's base URL is not shown, so clients require one (from `{}` or the \
             builder); the default here is a placeholder.",
            b.env
        )
    };
    variable.insert("description".into(), json!(what));
    let mut server = Map::new();
    server.insert("url".into(), json!("{base_url}"));
    server.insert("variables".into(), json!({ "base_url": variable }));
    provenance(
        &mut server,
        b.source,
        b.note.as_deref(),
        b.conflict.as_deref(),
    );
    json!([server])
}

fn page_schema(service: &Service, op: &OperationInfo, item: &str) -> Value {
    let Some(p) = op.pagination.as_ref() else {
        return json!({});
    };
    let mut obj = Map::new();
    obj.insert("type".into(), json!("object"));
    let how = match &p.style {
        PageStyle::Cursor {
            has_more,
            cursor_field,
            after_param,
        } => format!(
            "`{has_more}` says whether more follow; the next page is asked for with \
             `{after_param}=<{cursor_field} of the last item>`."
        ),
        PageStyle::Token {
            token_field,
            token_param,
        } => format!("The next page is asked for with `{token_param}=<{token_field}>`."),
        PageStyle::NextUrl { next_field } => {
            format!("`{next_field}` is the next page's URL.")
        }
        PageStyle::LinkHeader => "The `Link` header's `rel=\"next\"` URL is the next page.".into(),
        PageStyle::Offset { offset_param, .. } => {
            format!("The next page is asked for with `{offset_param}=<items so far>`.")
        }
        PageStyle::Page { page_param, .. } => {
            format!("The next page is asked for with `{page_param}=<page + 1>`.")
        }
    };
    obj.insert(
        "description".into(),
        json!(format!("One page of `{item}` items. {how}")),
    );
    let mut fields: Vec<(&str, Value)> = vec![(
        &p.items_field,
        json!({ "type": "array", "items": schema_ref(item) }),
    )];
    match &p.style {
        PageStyle::Cursor { has_more, .. } => fields.push((has_more, json!({ "type": "boolean" }))),
        PageStyle::Token { token_field, .. } => {
            fields.push((token_field, json!({ "type": ["string", "null"] })));
        }
        PageStyle::NextUrl { next_field } => {
            fields.push((next_field, json!({ "type": ["string", "null"] })));
        }
        PageStyle::Offset {
            total_field: Some(f),
            ..
        }
        | PageStyle::Page {
            total_pages_field: Some(f),
            ..
        } => fields.push((f, json!({ "type": "integer" }))),
        _ => {}
    }
    let mut props = Map::new();
    for (path, schema) in fields {
        insert_path(&mut props, path, schema);
    }
    obj.insert("properties".into(), Value::Object(props));
    let mut required = vec![p.items_field.split('.').next().unwrap_or_default()];
    if let PageStyle::Cursor { has_more, .. } = &p.style
        && !has_more.contains('.')
    {
        required.push(has_more);
    }
    obj.insert("required".into(), json!(required));
    if let PageStyle::Cursor { cursor_field, .. } = &p.style {
        obj.insert("x-cursor-field".into(), json!(cursor_field));
    }
    if let Some(written) = &service.pagination {
        provenance(
            &mut obj,
            written.source,
            written.note.as_deref(),
            written.conflict.as_deref(),
        );
    }
    Value::Object(obj)
}

/// Puts `schema` at a dot path of nested object properties.
fn insert_path(props: &mut Map<String, Value>, path: &str, schema: Value) {
    match path.split_once('.') {
        None => {
            props.insert(path.to_owned(), schema);
        }
        Some((head, rest)) => {
            let entry = props
                .entry(head.to_owned())
                .or_insert_with(|| json!({ "type": "object", "properties": {} }));
            if let Some(Value::Object(inner)) = entry.get_mut("properties") {
                insert_path(inner, rest, schema);
            }
        }
    }
}

/// An operation's pagination as the spec's keys (`x-pagination`).
fn pagination_json(p: &PaginationInfo) -> Value {
    let mut out = Map::new();
    let style = match &p.style {
        PageStyle::Cursor {
            has_more,
            cursor_field,
            after_param,
        } => {
            out.insert("has_more_field".into(), json!(has_more));
            out.insert("cursor_field".into(), json!(cursor_field));
            out.insert("after_param".into(), json!(after_param));
            "cursor"
        }
        PageStyle::Token {
            token_field,
            token_param,
        } => {
            out.insert("token_field".into(), json!(token_field));
            out.insert("token_param".into(), json!(token_param));
            "token"
        }
        PageStyle::NextUrl { next_field } => {
            out.insert("next_field".into(), json!(next_field));
            "next_url"
        }
        PageStyle::LinkHeader => "link_header",
        PageStyle::Offset {
            offset_param,
            total_field,
            ..
        } => {
            out.insert("offset_param".into(), json!(offset_param));
            if let Some(t) = total_field {
                out.insert("total_field".into(), json!(t));
            }
            "offset"
        }
        PageStyle::Page {
            page_param,
            size_param,
            first_page,
            total_pages_field,
        } => {
            out.insert("page_param".into(), json!(page_param));
            if let Some(s) = size_param {
                out.insert("size_param".into(), json!(s));
            }
            out.insert("first_page".into(), json!(first_page));
            if let Some(t) = total_pages_field {
                out.insert("total_pages_field".into(), json!(t));
            }
            "page"
        }
    };
    out.insert("style".into(), json!(style));
    out.insert("items_field".into(), json!(p.items_field));
    if let Some(l) = &p.limit_param {
        out.insert("limit_param".into(), json!(l));
    }
    Value::Object(out)
}

/// Header components: the rate-limit family and `Retry-After`, as the spec names them.
fn rate_headers(service: &Service) -> Map<String, Value> {
    let mut out = Map::new();
    let Some(h) = &service.rate_limit_headers else {
        return out;
    };
    let entries = [
        (
            &h.limit,
            "Requests allowed in the current window.",
            json!({ "type": "integer", "minimum": 0 }),
            json!(1000),
        ),
        (
            &h.remaining,
            "Requests left in the current window; at 0 clients pause until the reset.",
            json!({ "type": "integer", "minimum": 0 }),
            json!(999),
        ),
        (
            &h.reset,
            "Seconds until the window resets.",
            json!({ "type": "integer", "minimum": 0 }),
            json!(60),
        ),
        (
            &h.retry_after,
            "How long to wait before retrying: seconds, or an HTTP date.",
            json!({ "type": "string" }),
            json!("30"),
        ),
    ];
    for (name, doc, schema, example) in entries {
        let Some(name) = name else { continue };
        let mut header = Map::new();
        header.insert("description".into(), json!(doc));
        header.insert("schema".into(), schema);
        header.insert("example".into(), example);
        provenance(
            &mut header,
            h.source,
            h.note.as_deref(),
            h.conflict.as_deref(),
        );
        out.insert(name.clone(), Value::Object(header));
    }
    out
}

fn header_refs(service: &Service, status: Option<u16>) -> Map<String, Value> {
    let mut out = Map::new();
    let Some(h) = &service.rate_limit_headers else {
        return out;
    };
    for name in [&h.limit, &h.remaining, &h.reset].into_iter().flatten() {
        out.insert(
            name.clone(),
            json!({ "$ref": format!("#/components/headers/{name}") }),
        );
    }
    if matches!(status, Some(429 | 503))
        && let Some(name) = &h.retry_after
    {
        out.insert(
            name.clone(),
            json!({ "$ref": format!("#/components/headers/{name}") }),
        );
    }
    out
}

/// The tag of an operation: its first fixed path segment after the version prefix and after a
/// segment whose parameter comes from a credential (`/apps/{app_id}/channels` → `channels`).
fn tag_of(service: &Service, op: &OperationInfo) -> String {
    let prefix = service.version_prefix().map(str::to_owned);
    let segments: Vec<&str> = op.path.split('/').filter(|s| !s.is_empty()).collect();
    let mut i = 0;
    if prefix
        .as_deref()
        .is_some_and(|p| segments.first() == Some(&p))
    {
        i = 1;
    }
    while i < segments.len() {
        let seg = segments[i];
        let next_is_credential = segments.get(i + 1).is_some_and(|n| {
            op.path_params
                .iter()
                .any(|p| p.from_credential.is_some() && *n == format!("{{{}}}", p.wire))
        });
        if seg.starts_with('{') || next_is_credential {
            i += 1;
            continue;
        }
        return seg.to_owned();
    }
    "root".into()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        s if s < 300 => "Success",
        _ => "Error",
    }
}

/// Folds `op` (with its OpenAPI form `added`) into the operation already on its method and
/// path: the body becomes `anyOf` the bodies, and `x-operations` lists each operation with the
/// body field value that selects it.
fn share_route(existing: &mut Value, op: &OperationInfo, added: Value) {
    let Some(obj) = existing.as_object_mut() else {
        return;
    };
    let body_of = |o: &Value| {
        o.pointer("/requestBody/content/application~1json/schema")
            .cloned()
    };
    let mut bodies: Vec<Value> = match body_of(&Value::Object(obj.clone())) {
        Some(Value::Object(b)) if b.contains_key("x-shared-route") => b
            .get("anyOf")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
        Some(b) => vec![b],
        None => Vec::new(),
    };
    bodies.extend(body_of(&added));
    obj.insert(
        "requestBody".into(),
        json!({
            "required": true,
            "content": { "application/json": { "schema": { "anyOf": bodies, "x-shared-route": true } } },
        }),
    );
    let first = json!({
        "operationId": obj.get("operationId").cloned().unwrap_or(Value::Null),
        "when": obj.get("x-when").cloned().unwrap_or(Value::Null),
    });
    let list = obj.entry("x-operations").or_insert_with(|| json!([first]));
    if let Value::Array(list) = list {
        list.push(json!({
            "operationId": op.name,
            "when": op.when.as_ref().map(|w| json!({ "field": w.field, "equals": w.equals })),
        }));
    }
}

fn parameter(p: &ParamInfo, location: &str) -> Value {
    let mut obj = Map::new();
    let name = match p.style {
        Some(QueryStyle::Brackets) => format!("{}[]", p.wire),
        _ => p.wire.clone(),
    };
    obj.insert("name".into(), json!(name));
    obj.insert("in".into(), json!(location));
    match p.style {
        Some(QueryStyle::Repeat | QueryStyle::Brackets) => {
            obj.insert("style".into(), json!("form"));
            obj.insert("explode".into(), json!(true));
        }
        Some(QueryStyle::Comma) => {
            obj.insert("style".into(), json!("form"));
            obj.insert("explode".into(), json!(false));
        }
        Some(QueryStyle::Json) | None => {}
    }
    if p.rust != crate::names::snake(&p.wire) {
        obj.insert("x-rust-name".into(), json!(p.rust));
    }
    obj.insert("required".into(), json!(p.required));
    describe(&mut obj, p.doc.as_deref());
    let mut schema = constrained_schema(&p.ty, None, &p.constraints);
    if let (Some(default), Some(s)) = (&p.default, schema.as_object_mut()) {
        s.insert("default".into(), default.clone());
    }
    if p.style == Some(QueryStyle::Json) {
        // A parameter whose value is JSON text: OpenAPI says so with a media type.
        obj.insert(
            "content".into(),
            json!({ "application/json": { "schema": schema } }),
        );
    } else {
        obj.insert("schema".into(), schema);
    }
    if let Some(c) = &p.from_credential {
        obj.insert("x-from-credential".into(), json!(c));
    }
    provenance(&mut obj, Some(p.source), None, None);
    Value::Object(obj)
}

fn operation(service: &Service, op: &OperationInfo, tag: &str) -> Value {
    let mut o = Map::new();
    o.insert("operationId".into(), json!(op.name));
    o.insert("tags".into(), json!([tag]));
    if let Some(doc) = op.doc.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        let summary = doc.lines().next().unwrap_or_default().trim();
        o.insert("summary".into(), json!(summary));
        o.insert("description".into(), json!(doc));
    }

    let mut params: Vec<Value> = Vec::new();
    params.extend(op.path_params.iter().map(|p| parameter(p, "path")));
    params.extend(op.query.iter().map(|p| parameter(p, "query")));
    params.extend(op.headers.iter().map(|p| parameter(p, "header")));
    if op.idempotency == IdempotencyMode::Key && service.idempotency.is_some() {
        params.push(json!({ "$ref": "#/components/parameters/IdempotencyKey" }));
    }
    if !params.is_empty() {
        o.insert("parameters".into(), Value::Array(params));
    }

    if let Some(body) = &op.body {
        let (media, style) = match op.body_encoding {
            BodyEncodingInfo::Json => ("application/json", None),
            BodyEncodingInfo::Form(s) => ("application/x-www-form-urlencoded", Some(s)),
            BodyEncodingInfo::Multipart(s) => ("multipart/form-data", Some(s)),
            BodyEncodingInfo::Binary => ("application/octet-stream", None),
        };
        let mut request_body = json!({
            "required": true,
            "content": { media: { "schema": ty_schema(body) } },
        });
        if op.body_encoding == BodyEncodingInfo::Binary {
            // The bytes as they are, of each media type the operation takes (any when none).
            let bytes = json!({ "schema": { "type": "string", "format": "binary" } });
            let content: Map<String, Value> = if op.body_media.is_empty() {
                [("*/*".to_owned(), bytes)].into_iter().collect()
            } else {
                op.body_media
                    .iter()
                    .map(|m| (m.clone(), bytes.clone()))
                    .collect()
            };
            request_body["content"] = Value::Object(content);
            // Our own import reads it back as `body_encoding: binary` (a `*/*` alone reads as
            // JSON in other documents).
            request_body["x-body-encoding"] = json!("binary");
        }
        if let Some(style) = style {
            request_body["x-form-style"] = json!({
                "arrays": serde_json::to_value(style.arrays).unwrap_or(Value::Null),
                "nested": serde_json::to_value(style.nested).unwrap_or(Value::Null),
            });
        }
        o.insert("requestBody".into(), request_body);
    } else if op.has_body {
        // A write without a body in the spec: the client sends `{}` (every write carries a
        // JSON body), which a validating server must accept.
        o.insert(
            "requestBody".into(),
            json!({
                "required": false,
                "description": "No fields: the client sends an empty JSON object.",
                "content": { "application/json": {
                    "schema": { "type": "object", "maxProperties": 0 }
                } },
            }),
        );
    }

    let mut responses = Map::new();
    for &status in &op.success_statuses {
        let mut ok = Map::new();
        let empty = op.empty_statuses.contains(&status);
        let content = match (&op.answer, &op.response) {
            _ if empty => None,
            (Answer::Text, _) => Some(("text/plain", json!({ "type": "string" }))),
            (Answer::Bytes, _) => Some((
                "application/octet-stream",
                json!({ "type": "string", "format": "binary" }),
            )),
            (_, None) => None,
            (_, Some(Ty::Json)) => Some((
                "application/json",
                json!({
                    "type": "object",
                    "description": "An open JSON object; its fields vary by server.",
                }),
            )),
            (_, Some(Ty::Page(item))) if op.pagination.as_ref().is_some_and(|p| p.own) => {
                let schema = match &**item {
                    Ty::Named(name) => page_schema(service, op, name),
                    other => ty_schema(other),
                };
                Some(("application/json", schema))
            }
            (_, Some(ty)) => Some(("application/json", ty_schema(ty))),
        };
        let description = match (&content, status) {
            (None, 204) => reason(status).to_owned(),
            (None, _) if empty => format!("{}; no body.", reason(status)),
            (None, _) => format!("{}; clients ignore the body.", reason(status)),
            _ => reason(status).to_owned(),
        };
        ok.insert("description".into(), json!(description));
        if let Some((media, schema)) = content {
            ok.insert("content".into(), json!({ media: { "schema": schema } }));
        }
        let mut headers = header_refs(service, None);
        for h in &op.response_headers {
            let mut header = Map::new();
            if let Some(doc) = &h.doc {
                header.insert("description".into(), json!(doc));
            }
            header.insert("schema".into(), ty_schema(&h.ty));
            headers.insert(h.name.clone(), Value::Object(header));
        }
        if !headers.is_empty() {
            ok.insert("headers".into(), Value::Object(headers));
        }
        responses.insert(status.to_string(), Value::Object(ok));
    }

    let mut errors: Vec<u16> = op.errors.clone();
    // Every request counts against the rate limit, so every operation may answer 429 when the
    // service says how it reports one.
    if rate_reported(service) && !errors.contains(&429) {
        errors.push(429);
    }
    errors.sort_unstable();
    errors.dedup();
    // An answer the operation reads with a body of its own (`error_bodies`) says so in place;
    // the others refer to the service's error response.
    // The shapes of the most specific key covering a status.
    let shapes_of = |key: &str| -> Vec<&crate::resolved::ErrorBodyInfo> {
        op.error_bodies.iter().filter(|b| b.key == key).collect()
    };
    let own = |status: u16| {
        op.error_bodies
            .iter()
            .find(|b| (b.statuses.0..=b.statuses.1).contains(&status))
            .map(|b| shapes_of(&b.key))
    };
    for e in errors {
        let answer = match own(e) {
            Some(bodies) => own_error_response(service, &bodies, Some(e)),
            None => error_response_ref(Some(e)),
        };
        responses.insert(e.to_string(), answer);
    }
    for body in &op.error_bodies {
        // Ranges (`4XX`) and `default` are answers of their own (their first shape stands
        // for them all).
        if body.key.parse::<u16>().is_err() && body.shape == 0 {
            let status = (body.key != "default").then_some(body.statuses.0);
            let key = if body.key == "default" {
                "default".to_owned()
            } else {
                body.key.to_ascii_uppercase()
            };
            responses.insert(
                key,
                own_error_response(service, &shapes_of(&body.key), status),
            );
        }
    }
    if !responses.contains_key("default") {
        responses.insert("default".into(), error_response_ref(None));
    }
    o.insert("responses".into(), Value::Object(responses));

    match &op.auth {
        // A public operation: no requirement at all.
        Some(auth) if auth.is_anonymous() => {
            o.insert("security".into(), json!([]));
        }
        Some(auth) => {
            o.insert(
                "security".into(),
                json!([security::requirement(service, auth)]),
            );
        }
        None => {}
    }
    if let Some(w) = &op.when {
        o.insert(
            "x-when".into(),
            json!({ "field": w.field, "equals": w.equals }),
        );
    }
    o.insert(
        "x-idempotency".into(),
        json!(match op.idempotency {
            IdempotencyMode::Safe => "safe",
            IdempotencyMode::Key => "key",
            IdempotencyMode::None => "none",
        }),
    );
    if op.page_item().is_some()
        && let Some(p) = &op.pagination
    {
        // The service's section as written (unset keys left out); an operation's own, resolved.
        let value = match &service.pagination {
            Some(written) if !p.own => match serde_json::to_value(written) {
                Ok(Value::Object(m)) => {
                    Value::Object(m.into_iter().filter(|(_, v)| !v.is_null()).collect())
                }
                _ => Value::Null,
            },
            _ => pagination_json(p),
        };
        o.insert("x-pagination".into(), value);
    }
    provenance(
        &mut o,
        Some(op.source),
        op.note.as_deref(),
        op.conflict.as_deref(),
    );
    Value::Object(o)
}

/// The spec's sections OpenAPI has no place for, as written (with their provenance).
fn extensions(service: &Service, doc: &mut Map<String, Value>) {
    for (key, value) in &service.as_written {
        doc.insert(format!("x-{key}"), value.clone());
    }
}

#[cfg(test)]
mod downgrade_tests {
    use serde_json::json;

    #[test]
    fn schemas_are_rewritten_in_3_0_terms_and_property_names_are_left_alone() {
        let doc = json!({
            "openapi": "3.1.0",
            "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
            "info": { "title": "t", "summary": "s", "version": "v1" },
            "webhooks": { "Event": {} },
            "components": { "schemas": { "A": {
                "type": "object",
                "properties": {
                    "const": { "const": "x" },
                    "type": { "type": ["string", "null"] },
                    "n": { "anyOf": [{ "$ref": "#/components/schemas/B", "description": "d" }, { "type": "null" }] },
                    "m": { "type": "integer", "exclusiveMinimum": 0, "examples": [5] },
                },
            } } },
            "paths": { "/a": { "get": { "responses": {
                "200": { "description": "OK", "content": { "application/json": { "schema": { "const": 1 } } } },
                "default": { "description": "Error" },
            } } } },
            "x-events": { "const": "kept as written" },
        });
        let old = super::downgrade_to_3_0(doc);
        assert_eq!(old["openapi"], "3.0.3");
        assert!(old.get("jsonSchemaDialect").is_none() && old.get("webhooks").is_none());
        assert_eq!(old["x-webhooks"], json!({ "Event": {} }));
        assert_eq!(old["info"]["x-summary"], "s");
        let props = &old["components"]["schemas"]["A"]["properties"];
        assert_eq!(props["const"], json!({ "enum": ["x"] }));
        assert_eq!(props["type"], json!({ "type": "string", "nullable": true }));
        assert_eq!(
            props["n"]["anyOf"][0],
            json!({ "$ref": "#/components/schemas/B", "x-description": "d" })
        );
        assert_eq!(props["n"]["anyOf"][1]["nullable"], true);
        assert_eq!(
            props["m"],
            json!({ "type": "integer", "minimum": 0, "exclusiveMinimum": true, "example": 5 })
        );
        let responses = &old["paths"]["/a"]["get"]["responses"];
        assert_eq!(
            responses["200"]["content"]["application/json"]["schema"],
            json!({ "enum": [1] })
        );
        assert!(responses.get("default").is_none());
        assert_eq!(responses["4XX"], responses["5XX"]);
        assert_eq!(old["x-events"], json!({ "const": "kept as written" }));
    }
}
