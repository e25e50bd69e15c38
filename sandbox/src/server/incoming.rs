//! An accepted request of one operation ([`Incoming`]): what the gateway let through, decoded
//! and validated by the generated handlers, and answered with the spec's encoding and headers.

use std::time::SystemTime;

use axum::extract::{FromRequestParts, RawPathParams, Request};
use axum::http::StatusCode;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde::Serialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use tidings_runtime::spec::{AuthScheme, OperationSpec, RetryClass};
use tidings_runtime::validate::{Validate, Validator};

use super::auth::{BodyFields, authenticate};
use super::gateway::{FAULT_HEADER, Gateway, ceil_secs, fault_answer};
use super::idempotency::{Claim, Fingerprint, Reservation, StoredAnswer};
use super::limits::{ShapeError, is_json, json_shape};
use super::{BodyError, ServerError, X_REQUEST_ID, read_body};

/// What a handler knows about its request besides its decoded inputs.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RequestContext {
    /// This request's id, sent back as `X-Request-Id` and in error bodies.
    pub request_id: String,
    /// The operation's name (`send_email`).
    pub operation: &'static str,
    /// The idempotency key the request carried (operations with `idempotency: key`).
    pub idempotency_key: Option<String>,
    /// The request headers, without the credential-carrying ones.
    pub headers: HeaderMap,
    /// When the request arrived.
    pub received_at: SystemTime,
}

impl RequestContext {
    /// A context for work that did not arrive over HTTP (the SMTP listener), with a fresh
    /// request id.
    pub fn internal(operation: &'static str, idempotency_key: Option<String>) -> Self {
        RequestContext {
            request_id: new_request_id(),
            operation,
            idempotency_key,
            headers: HeaderMap::new(),
            received_at: SystemTime::now(),
        }
    }
}

/// A fresh request id: `req_<32 hex>`.
pub fn new_request_id() -> String {
    format!("req_{}", uuid::Uuid::new_v4().simple())
}

/// An accepted request of one operation, between [`Incoming::accept`] and
/// [`Incoming::finish`]: generated handlers decode its inputs with its methods, call the
/// server, and answer with `finish`.
#[derive(Debug)]
pub struct Incoming {
    context: RequestContext,
    op: &'static OperationSpec,
    path_params: Vec<(String, String)>,
    query: String,
    body: Bytes,
    max_json_values: usize,
    max_json_depth: usize,
    limit_headers: HeaderMap,
    reservation: Option<Reservation>,
    /// The shape of the service's error bodies.
    errors: &'static tidings_runtime::spec::ErrorSpec,
    /// The path asked (a created item's `Location` is under it).
    path: String,
    /// Whether a success answer gets the headers the operation documents
    /// ([`super::documented_headers`]); `--spec` adds them itself.
    documented: bool,
}

impl Incoming {
    /// The request body as received (empty for a body-less request): what the inbox shows of
    /// a served spec's call.
    pub(crate) fn body_bytes(&self) -> Bytes {
        self.body.clone()
    }

    /// Runs the gateway over `request` for `op`: auth (401 `missing_api_key` /
    /// `invalid_api_key`), rate limit (429 `rate_limit_exceeded` with `Retry-After`), body size
    /// (413), idempotency key (a stored answer for a replay, 409 for a reused key). `Err` is the
    /// answer to send as is.
    pub async fn accept(
        gateway: &Gateway,
        op: &'static OperationSpec,
        request: Request,
    ) -> Result<Incoming, Response> {
        Self::accept_with_path(gateway, op, request, None).await
    }

    /// [`Incoming::accept`] with the path parameters the caller matched itself (a server that
    /// routes at run time, `--spec`); `None` reads them from the axum route.
    pub async fn accept_with_path(
        gateway: &Gateway,
        op: &'static OperationSpec,
        request: Request,
        matched: Option<Vec<(String, String)>>,
    ) -> Result<Incoming, Response> {
        let request_id = new_request_id();
        // Error answers take the shape the spec's `errors` section declares.
        let shape = &gateway.service.errors;
        let (mut parts, body) = request.into_parts();
        let query = parts.uri.query().unwrap_or("").to_owned();
        let path = parts.uri.path().to_owned();

        let schemes: &[AuthScheme] = match &op.auth {
            Some(scheme) => std::slice::from_ref(scheme),
            None => gateway.service.auth,
        };
        // A credential in the body is checked once the body is read.
        let body_auth = schemes
            .iter()
            .flat_map(AuthScheme::parts)
            .any(|s| matches!(s, AuthScheme::Body { .. }));
        if !body_auth {
            authenticate(gateway, schemes, &parts.headers, &query, None)
                .map_err(|e| e.to_response_as(&request_id, shape))?;
        }
        if let Some(fault) = parts.headers.get(FAULT_HEADER) {
            return Err(fault_answer(fault.to_str().unwrap_or_default())
                .await
                .to_response_as(&request_id, shape));
        }

        let mut limit_headers = HeaderMap::new();
        if let Some(limiter) = &gateway.limiter {
            let state = limiter.take();
            let names = &gateway.service.rate_limit_headers;
            let reset = ceil_secs(state.reset).to_string();
            let mut put = |name: Option<&str>, value: String| {
                if let (Some(Ok(name)), Ok(value)) = (
                    name.map(|n| HeaderName::from_bytes(n.as_bytes())),
                    HeaderValue::from_str(&value),
                ) {
                    limit_headers.insert(name, value);
                }
            };
            put(names.limit, limiter.limit.requests().to_string());
            put(names.remaining, state.remaining.to_string());
            put(names.reset, reset.clone());
            if !state.allowed {
                let retry_after = names.retry_after.unwrap_or("Retry-After");
                let error = ServerError::new(
                    429,
                    "rate_limit_exceeded",
                    format!(
                        "more than {} requests in {} s; retry after {reset} s",
                        limiter.limit.requests(),
                        limiter.limit.per().as_secs_f64()
                    ),
                )
                .with_header(retry_after, &reset);
                let mut response = error.to_response_as(&request_id, shape);
                response.headers_mut().extend(limit_headers);
                return Err(response);
            }
        }

        let path_params = match matched {
            Some(params) => params,
            None => match RawPathParams::from_request_parts(&mut parts, &()).await {
                Ok(params) => params
                    .iter()
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect(),
                Err(rejection) => {
                    let error = ServerError::bad_request(format!("bad path: {rejection}"));
                    return Err(with_headers(
                        error.to_response_as(&request_id, shape),
                        &limit_headers,
                    ));
                }
            },
        };

        let content_type = parts.headers.get(CONTENT_TYPE);
        // A media type the operation does not take is refused once a body comes with it: no
        // bytes are no body of any type (Twilio's clients name a form on every `POST`, one
        // with no body too, and were refused).
        let unfit =
            op.has_body && content_type.is_some_and(|v| !super::media::media_fits(op, v, is_json));
        // The spec's own body size for this operation (`body_size:`), within the gateway's.
        let max_body_bytes = op.max_body_bytes.map_or(gateway.max_body_bytes, |max| {
            max.min(gateway.max_body_bytes)
        });
        let body = match read_body(
            &parts.headers,
            body,
            max_body_bytes,
            gateway.body_read_timeout,
        )
        .await
        {
            Ok(body) => body,
            Err(e) => {
                let error = match e {
                    BodyError::TooLarge => ServerError::new(
                        413,
                        "payload_too_large",
                        format!("the body is larger than {max_body_bytes} bytes"),
                    ),
                    BodyError::Incomplete(reason) => ServerError::bad_request(format!(
                        "the body ended before its declared length: {reason}"
                    )),
                    BodyError::TimedOut => ServerError::new(
                        408,
                        "request_timeout",
                        format!(
                            "the body did not arrive within {} s",
                            gateway.body_read_timeout.as_secs_f64()
                        ),
                    ),
                };
                return Err(with_headers(
                    error.to_response_as(&request_id, shape),
                    &limit_headers,
                ));
            }
        };
        if op.has_body && (unfit || content_type.is_none()) && !body.is_empty() {
            let error = super::media::unsupported_media(op);
            return Err(with_headers(
                error.to_response_as(&request_id, shape),
                &limit_headers,
            ));
        }
        let mut body = body;
        if body_auth {
            let fields = BodyFields::read(&body, gateway, content_type.is_some_and(is_form));
            authenticate(gateway, schemes, &parts.headers, &query, Some(&fields))
                .map_err(|e| with_headers(e.to_response_as(&request_id, shape), &limit_headers))?;
            // The handler sees the body as the spec's request type has it: without the key.
            body = fields.without_credentials(body, schemes);
        }

        let mut idempotency_key = None;
        let mut reservation = None;
        if let (RetryClass::IdempotencyKey, Some(spec)) = (op.retry, gateway.service.idempotency)
            && let Some(value) = parts.headers.get(spec.header)
        {
            let key = match value.to_str() {
                Ok(key) if !key.is_empty() && key.len() <= spec.max_len => key.to_owned(),
                _ => {
                    let error = ServerError::bad_request(format!(
                        "the `{}` header must be 1 to {} visible ASCII characters",
                        spec.header, spec.max_len
                    ))
                    .with_param(spec.header);
                    return Err(with_headers(
                        error.to_response_as(&request_id, shape),
                        &limit_headers,
                    ));
                }
            };
            let scoped = format!("{}\u{0}{key}", gateway.service.name);
            match gateway
                .idempotency
                .claim(&scoped, Fingerprint::new(&parts, &body))
            {
                Claim::Reserved => {
                    reservation = Some(Reservation {
                        store: gateway.idempotency.clone(),
                        key: scoped,
                        done: false,
                    });
                }
                Claim::Replay(answer) => {
                    let mut response = (answer.status, answer.body).into_response();
                    let headers = response.headers_mut();
                    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                    if let Ok(id) = HeaderValue::from_str(&answer.request_id) {
                        headers.insert(X_REQUEST_ID, id);
                    }
                    headers.insert(
                        HeaderName::from_static("idempotent-replayed"),
                        HeaderValue::from_static("true"),
                    );
                    return Err(with_headers(response, &limit_headers));
                }
                Claim::Conflict(error) => {
                    let error = error.with_param(spec.header);
                    return Err(with_headers(
                        error.to_response_as(&request_id, shape),
                        &limit_headers,
                    ));
                }
            }
            idempotency_key = Some(key);
        }

        let mut headers = parts.headers;
        headers.remove(AUTHORIZATION);
        for scheme in schemes.iter().flat_map(AuthScheme::parts) {
            if let AuthScheme::Header { header, .. } | AuthScheme::Minted { header, .. } = scheme {
                headers.remove(*header);
            }
        }
        Ok(Incoming {
            context: RequestContext {
                request_id,
                operation: op.name,
                idempotency_key,
                headers,
                received_at: SystemTime::now(),
            },
            op,
            path_params,
            query,
            body,
            max_json_values: gateway.max_json_values,
            max_json_depth: gateway.max_json_depth,
            limit_headers,
            reservation,
            errors: &gateway.service.errors,
            path,
            documented: true,
        })
    }

    /// The context handed to the server method.
    pub fn context(&self) -> RequestContext {
        self.context.clone()
    }

    /// A path parameter, parsed; 400 when it is missing or does not parse.
    pub fn path_param<T: std::str::FromStr>(&self, name: &str) -> Result<T, ServerError> {
        let raw = self
            .path_params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| {
                ServerError::bad_request(format!("missing path parameter `{name}`"))
                    .with_param(name)
            })?;
        raw.parse().map_err(|_| {
            ServerError::bad_request(format!("path parameter `{name}` is not valid: `{raw}`"))
                .with_param(name)
        })
    }

    /// The query string decoded into `Q`; 400 naming the parameter when it does not decode. A
    /// name given several times is a list (`To=a&To=b`).
    pub fn query<Q: DeserializeOwned>(&self) -> Result<Q, ServerError> {
        let pairs = url::form_urlencoded::parse(self.query.as_bytes())
            .into_owned()
            .collect();
        decode_pairs(pairs, "query")
    }

    /// The header parameters decoded into `H` (its fields named by lower-case header names);
    /// 400 naming the header when one does not decode.
    pub fn header_params<H: DeserializeOwned>(&self) -> Result<H, ServerError> {
        let mut pairs = Vec::new();
        for (name, value) in &self.context.headers {
            let value = value.to_str().map_err(|_| {
                ServerError::bad_request(format!("header `{name}` is not visible ASCII"))
                    .with_param(name.as_str())
            })?;
            pairs.push((name.as_str().to_owned(), value.to_owned()));
        }
        decode_pairs(pairs, "header")
    }

    /// [`Incoming::header_params`], then the spec's limits (422 naming the header).
    pub fn header_params_checked<H: DeserializeOwned + Validate>(&self) -> Result<H, ServerError> {
        let headers: H = self.header_params()?;
        Validator::check(&headers)?;
        Ok(headers)
    }

    /// For several operations on one method and path: reads the body (within the gateway's
    /// size limit and read timeout) and the text of its top-level `field`, and gives back the
    /// request with the same body for the operation that value selects. `Err` is the answer.
    pub async fn body_field(
        gateway: &Gateway,
        request: Request,
        field: &str,
    ) -> Result<(Option<String>, Request), Response> {
        let (parts, body) = request.into_parts();
        let bytes = read_body(
            &parts.headers,
            body,
            gateway.max_body_bytes,
            gateway.body_read_timeout,
        )
        .await
        .map_err(|e| {
            let error = match e {
                BodyError::TooLarge => ServerError::new(
                    413,
                    "payload_too_large",
                    format!("the body is larger than {} bytes", gateway.max_body_bytes),
                ),
                BodyError::Incomplete(reason) => ServerError::bad_request(format!(
                    "the body ended before its declared length: {reason}"
                )),
                BodyError::TimedOut => {
                    ServerError::new(408, "request_timeout", "the body did not arrive in time")
                }
            };
            error.to_response(&new_request_id())
        })?;
        let value = serde_json::from_slice::<serde_json::Value>(&bytes)
            .ok()
            .and_then(|v| v.get(field).and_then(|f| f.as_str()).map(str::to_owned));
        Ok((
            value,
            Request::from_parts(parts, axum::body::Body::from(bytes)),
        ))
    }

    /// The answer when the body field selects none of the operations on a route: 422 naming
    /// the field and the values it may have.
    pub fn no_operation_for(field: &str, known: &[&str]) -> Response {
        ServerError::new(
            422,
            "validation_error",
            format!(
                "`{field}` must be one of {} to say which operation this is",
                known.join(", ")
            ),
        )
        .with_param(field)
        .to_response(&new_request_id())
    }

    /// [`Incoming::query`], then the spec's limits (422 naming the parameter).
    pub fn query_checked<Q: DeserializeOwned + Validate>(&self) -> Result<Q, ServerError> {
        let query: Q = self.query()?;
        Validator::check(&query)?;
        Ok(query)
    }

    /// The JSON body decoded into `B`: 400 when it is not JSON, 422 naming the field when it
    /// does not fit the type. Request bodies are JSON objects: any other JSON value is a 422
    /// (serde would otherwise read an array as a struct's fields in order). A number with a
    /// zero fraction (`5.0`) is the integer it equals, as in JSON Schema.
    pub fn json<B: DeserializeOwned>(&self) -> Result<B, ServerError> {
        self.json_of(Some(b'{'), "a JSON object")
    }

    /// [`Incoming::json`] for an operation whose body is a list: a JSON array.
    pub fn json_array<B: DeserializeOwned>(&self) -> Result<B, ServerError> {
        self.json_of(Some(b'['), "a JSON array")
    }

    /// [`Incoming::json`] for an operation whose body is any JSON value (`body: json`):
    /// `null`, a number or a text too.
    pub fn json_any<B: DeserializeOwned>(&self) -> Result<B, ServerError> {
        self.json_of(None, "any JSON value")
    }

    /// The body decoded into `B`, which must start with `open` (`{` or `[`, `what`) when
    /// one is given.
    fn json_of<B: DeserializeOwned>(&self, open: Option<u8>, what: &str) -> Result<B, ServerError> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Err(ServerError::bad_request(format!(
                "`{} {}` needs a JSON body",
                self.op.method, self.op.path
            )));
        }
        // Syntax first, without building anything; then the shape, so the tree built below
        // is bounded by the value count, not by what a body of this size could expand to.
        serde_json::from_slice::<IgnoredAny>(&self.body)
            .map_err(|e| ServerError::bad_request(format!("the body is not valid JSON: {e}")))?;
        if let Some(open) = open
            && self.body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&open)
        {
            return Err(ServerError::new(
                422,
                "validation_error",
                format!("invalid body: expected {what}"),
            ));
        }
        json_shape(&self.body, self.max_json_values, self.max_json_depth).map_err(|e| match e {
            ShapeError::TooManyValues(_) => {
                ServerError::new(413, "payload_too_large", format!("the body {e}"))
            }
            ShapeError::TooDeep(_) => {
                ServerError::new(422, "validation_error", format!("invalid body: {e}"))
            }
        })?;
        let mut value: serde_json::Value = serde_json::from_slice(&self.body)
            .map_err(|e| ServerError::bad_request(format!("the body is not valid JSON: {e}")))?;
        integral_floats_to_integers(&mut value);
        serde_path_to_error::deserialize(value).map_err(
            |e: serde_path_to_error::Error<serde_json::Error>| {
                let path = e.path().to_string();
                let error = ServerError::new(
                    422,
                    "validation_error",
                    format!("invalid body: {}", e.inner()),
                );
                if path == "." {
                    error
                } else {
                    error.with_param(path)
                }
            },
        )
    }

    /// [`Incoming::json`], then the same checks the clients run before sending (formats,
    /// lengths, rules), as 422 naming the field.
    pub fn json_checked<B: DeserializeOwned + Validate>(&self) -> Result<B, ServerError> {
        let body: B = self.json()?;
        Validator::check(&body)?;
        Ok(body)
    }

    /// Answers an input that did not decode.
    pub fn reject(self, error: ServerError) -> Response {
        self.answer(Err(error))
    }

    /// Answers with the server's result: `status` and the JSON body on success, the spec's
    /// error body otherwise. Remembers the answer for the request's idempotency key.
    pub fn finish<T: Serialize>(self, result: Result<T, ServerError>, status: u16) -> Response {
        let result = result.and_then(|value| {
            serde_json::to_vec(&value)
                .map(|body| (status, Bytes::from(body)))
                .map_err(|e| ServerError::internal(format!("cannot encode the answer: {e}")))
        });
        self.answer(result)
    }

    /// [`Incoming::finish`] for operations without a response body.
    pub fn finish_empty(self, result: Result<(), ServerError>, status: u16) -> Response {
        let body = if status == 204 {
            Bytes::new()
        } else {
            Bytes::from_static(b"{}")
        };
        self.answer(result.map(|()| (status, body)))
    }

    /// Leaves the documented answer headers to the caller (`--spec`, which knows where an item
    /// lives).
    pub(crate) fn without_documented_headers(mut self) -> Self {
        self.documented = false;
        self
    }

    /// Where a created item lives: the path asked and the answer's `id` (text or number), or
    /// the path asked; beside a `.json` collection its item is `<name>/<id>.json` (Twilio's
    /// `/Messages/<sid>.json` beside `/Messages.json`).
    fn created_at(&self, body: &[u8]) -> String {
        let id = serde_json::from_slice::<serde_json::Value>(body)
            .ok()
            .and_then(|v| match v.get("id") {
                Some(serde_json::Value::String(s)) => Some(s.clone()),
                Some(serde_json::Value::Number(n)) => Some(n.to_string()),
                _ => None,
            });
        match id {
            Some(id) => super::item_path(&self.path, &id),
            None => self.path.clone(),
        }
    }

    fn answer(mut self, result: Result<(u16, Bytes), ServerError>) -> Response {
        let request_id = self.context.request_id.clone();
        let (status, body, error_headers) = match result {
            Ok((status, body)) => (
                StatusCode::from_u16(status).unwrap_or(StatusCode::OK),
                body,
                None,
            ),
            Err(error) => {
                // Its headers and extensions (the refused field) go with the answer.
                let (parts, _) = error.to_response_as(&request_id, self.errors).into_parts();
                let body = Bytes::from(
                    serde_json::to_vec(&error.body_as(&request_id, self.errors))
                        .unwrap_or_default(),
                );
                (parts.status, body, Some(parts))
            }
        };
        if let Some(mut reservation) = self.reservation.take() {
            // Transient failures may be retried under the same key; everything else is final.
            let transient = status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS;
            if !transient {
                reservation.store.complete(
                    &reservation.key,
                    StoredAnswer {
                        status,
                        body: body.clone(),
                        request_id: request_id.clone(),
                    },
                );
                reservation.done = true;
            }
        }
        let mut response = (status, body.clone()).into_response();
        if let Some(parts) = error_headers {
            response.headers_mut().extend(parts.headers);
            response.extensions_mut().extend(parts.extensions);
        }
        let headers = response.headers_mut();
        // An empty answer (a 204) has no media type: none is sent, not the bytes' default.
        if body.is_empty() {
            headers.remove(CONTENT_TYPE);
        } else {
            headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        }
        if let Ok(id) = HeaderValue::from_str(&request_id) {
            headers.insert(X_REQUEST_ID, id);
        }
        if self.documented && status.is_success() && !self.op.response_headers.is_empty() {
            let location = || self.created_at(&body);
            super::documented_headers(self.op, location, &body, &mut response);
        }
        with_headers(response, &self.limit_headers)
    }
}

/// Rewrites every number with a zero fraction that a float holds exactly (`5.0`, `-2e3`, at
/// most 2^53 either way) as that integer: JSON Schema's `integer` accepts them, serde's
/// integers do not. Past 2^53 a float no longer tells which integer was sent
/// (`-9223372036854775809` reads as `i64::MIN`): such a number stays a float, and an integer
/// field refuses it rather than keep another value.
fn integral_floats_to_integers(value: &mut serde_json::Value) {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match value {
        serde_json::Value::Number(n) if n.is_f64() => {
            if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() <= EXACT) {
                // In range and integral, so the cast is exact.
                #[allow(clippy::cast_possible_truncation)]
                let i = f as i64;
                *value = serde_json::Value::from(i);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(integral_floats_to_integers),
        serde_json::Value::Object(fields) => {
            fields.values_mut().for_each(integral_floats_to_integers);
        }
        _ => {}
    }
}

fn with_headers(mut response: Response, extra: &HeaderMap) -> Response {
    for (name, value) in extra {
        response.headers_mut().insert(name.clone(), value.clone());
    }
    response
}

fn is_form(value: &HeaderValue) -> bool {
    value.to_str().is_ok_and(|v| {
        v.split(';').next().is_some_and(|t| {
            t.trim()
                .eq_ignore_ascii_case("application/x-www-form-urlencoded")
        })
    })
}

/// What form and multipart decoding and non-JSON answers (`bodies.rs`) read of a request.
impl Incoming {
    /// The raw request body.
    pub fn raw_body(&self) -> &[u8] {
        &self.body
    }

    /// The raw query string (without `?`).
    pub fn raw_query(&self) -> &str {
        &self.query
    }

    /// Adds `name=value` to the query when the request left `name` out: the value the
    /// service takes then (a page size's documented default), seen by what reads the query.
    pub(crate) fn default_query_param(&mut self, name: &str, value: &str) {
        let given = url::form_urlencoded::parse(self.query.as_bytes())
            .any(|(k, v)| k == name && !v.is_empty());
        if given {
            return;
        }
        let mut pair = url::form_urlencoded::Serializer::new(String::new());
        pair.append_pair(name, value);
        if !self.query.is_empty() {
            self.query.push('&');
        }
        self.query.push_str(&pair.finish());
    }

    /// The operation being served.
    pub fn operation(&self) -> &'static OperationSpec {
        self.op
    }

    /// Answers with an already encoded body of media type `content_type` and `extra` headers
    /// on success (an error still gets the spec's JSON error body).
    pub fn finish_encoded(
        self,
        result: Result<(u16, Bytes), ServerError>,
        content_type: &'static str,
        extra: HeaderMap,
    ) -> Response {
        let ok = result.as_ref().is_ok_and(|(_, body)| !body.is_empty());
        let mut response = self.answer(result);
        if ok {
            let headers = response.headers_mut();
            headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
            headers.extend(extra);
        }
        response
    }
}

/// Name/value pairs (query or headers) decoded into `T`: 400 naming the parameter when they do
/// not decode.
fn decode_pairs<T: DeserializeOwned>(
    pairs: Vec<(String, String)>,
    what: &str,
) -> Result<T, ServerError> {
    let deserializer = tidings_runtime::query::pairs_deserializer(pairs)
        .map_err(|e| ServerError::bad_request(format!("bad {what}: {e}")))?;
    serde_path_to_error::deserialize(deserializer).map_err(
        |e: serde_path_to_error::Error<serde::de::value::Error>| {
            let path = e.path().to_string();
            let error = ServerError::bad_request(format!("bad {what}: {}", e.inner()));
            if path == "." {
                error
            } else {
                error.with_param(path)
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integral_floats_become_integers_and_others_stay() {
        let mut v = serde_json::json!({"a": 178.0, "b": [1.5, -2e3], "c": {"d": 1e300}, "e": 7});
        integral_floats_to_integers(&mut v);
        // One below the i64 range reads as a float equal to i64::MIN: not taken for it.
        let mut below: serde_json::Value = serde_json::from_str("-9223372036854775809").unwrap();
        integral_floats_to_integers(&mut below);
        assert!(below.is_f64(), "{below}");
        assert_eq!(v["a"], serde_json::json!(178));
        assert!(v["a"].is_i64());
        assert_eq!(v["b"], serde_json::json!([1.5, -2000]));
        assert!(v["c"]["d"].is_f64());
        assert!(v["e"].is_i64());
    }
}
