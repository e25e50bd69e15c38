//! The [`Gateway`] every request of a generated server passes ([`Incoming::accept`]): auth by
//! the spec's schemes, the spec's rate limit (429 with `Retry-After` and `X-RateLimit-*`),
//! idempotency keys (a replay answers the same, another body under the same key is a 409), then
//! decoding and validation of path, query and body, and finally the encoded answer. Bodies are
//! read within [`HttpLimits`](super::HttpLimits), their JSON shape is bounded before it is
//! parsed, and the idempotency store keeps a hash of each body, not the body.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use axum::extract::{FromRequestParts, RawPathParams, Request};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use axum::http::{StatusCode, request::Parts};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde::Serialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use sha2::{Digest, Sha256};
use tidings_runtime::validate::{Validate, Validator};
use tidings_runtime::{AuthScheme, OperationSpec, RetryClass, ServiceSpec};

use super::limits::{DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_JSON_VALUES};
use super::limits::{ShapeError, is_json, json_shape};
use super::{BodyError, HttpLimits, ServerError, X_REQUEST_ID, read_body};

/// A request rate limit: `requests` per `per`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Requests allowed in one window.
    pub requests: u32,
    /// The window.
    pub per: Duration,
}

impl RateLimit {
    /// `requests` per `per`.
    pub fn new(requests: u32, per: Duration) -> Self {
        RateLimit { requests, per }
    }

    /// The spec's limit of a service (`limits.rate`), when it has one.
    pub fn from_spec(service: &ServiceSpec) -> Option<Self> {
        service
            .rate_limit
            .map(|r| RateLimit::new(r.requests, Duration::from_secs(u64::from(r.per_seconds))))
    }
}

/// The request header that makes an authenticated call fail in a chosen way, for testing an
/// app's handling: `429` (with `Retry-After: 1`), `500`, `503` (with `Retry-After: 1`), or
/// `timeout` (no answer for [`FAULT_TIMEOUT`], then `504`). Nothing is done or kept.
pub const FAULT_HEADER: &str = "x-sandbox-fault";
/// How long a `X-Sandbox-Fault: timeout` call waits before its `504`.
pub const FAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The answer a `X-Sandbox-Fault` asks for.
async fn fault_answer(fault: &str) -> ServerError {
    match fault.trim() {
        "429" => ServerError::new(
            429,
            "rate_limit_exceeded",
            "X-Sandbox-Fault: 429 (a fault asked for; retry after 1 s)",
        )
        .with_header("Retry-After", "1"),
        "500" => ServerError::new(
            500,
            "internal_error",
            "X-Sandbox-Fault: 500 (a fault asked for)",
        ),
        "503" => ServerError::new(
            503,
            "service_unavailable",
            "X-Sandbox-Fault: 503 (a fault asked for; retry after 1 s)",
        )
        .with_header("Retry-After", "1"),
        "timeout" => {
            tokio::time::sleep(FAULT_TIMEOUT).await;
            ServerError::new(
                504,
                "timeout",
                "X-Sandbox-Fault: timeout (a fault asked for)",
            )
        }
        other => ServerError::bad_request(format!(
            "X-Sandbox-Fault: `{}` is not one of 429, 500, 503, timeout",
            other.escape_debug()
        )),
    }
}

/// How long idempotency keys are kept when the spec does not say (its `retention_hours`).
pub const DEFAULT_IDEMPOTENCY_RETENTION: Duration = Duration::from_secs(24 * 3600);

/// Largest request body accepted by default (the email spec allows 40 MiB of attachments).
pub const DEFAULT_MAX_BODY_BYTES: usize = 48 * 1024 * 1024;

/// What every request of one service passes: the credentials it accepts, the rate limit and
/// the idempotency store. Built from the generated client's `SERVICE` description, so the auth
/// schemes, limit, headers and idempotency header are the spec's.
///
/// ```
/// use std::time::Duration;
/// use tidings_sandbox::server::{Gateway, RateLimit};
/// let gateway = Gateway::new(&tidings::email::SERVICE)
///     .credential("api_key", "test-key")
///     .rate_limit(Some(RateLimit::new(5, Duration::from_secs(1))));
/// assert_eq!(gateway.service().name, "email");
/// ```
#[derive(Clone)]
pub struct Gateway {
    service: &'static ServiceSpec,
    credentials: Vec<(String, String)>,
    limiter: Option<Arc<Limiter>>,
    idempotency: IdempotencyStore,
    max_body_bytes: usize,
    body_read_timeout: Duration,
    max_json_values: usize,
    max_json_depth: usize,
    /// Checks of minted tokens (JWTs ...), by minter name.
    token_checks: Vec<(String, TokenCheck)>,
}

/// Decides whether a minted token (the header value after the scheme's prefix) is valid.
pub type TokenCheck = Arc<dyn Fn(&str) -> bool + Send + Sync>;

impl fmt::Debug for Gateway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gateway")
            .field("service", &self.service.name)
            .field(
                "credentials",
                &self
                    .credentials
                    .iter()
                    .map(|(name, _)| format!("{name}: <redacted>"))
                    .collect::<Vec<_>>(),
            )
            .field("rate_limit", &self.limiter.as_ref().map(|l| l.limit))
            .field("max_body_bytes", &self.max_body_bytes)
            .field("body_read_timeout", &self.body_read_timeout)
            .field("max_json_values", &self.max_json_values)
            .field("max_json_depth", &self.max_json_depth)
            .finish_non_exhaustive()
    }
}

impl Gateway {
    /// A gateway for `service` with the spec's rate limit and no credentials yet (so every
    /// request is refused until [`Gateway::credential`] names one).
    pub fn new(service: &'static ServiceSpec) -> Self {
        Gateway {
            service,
            credentials: Vec::new(),
            limiter: RateLimit::from_spec(service).map(|l| Arc::new(Limiter::new(l))),
            idempotency: IdempotencyStore::new(
                DEFAULT_IDEMPOTENCY_RETENTION,
                super::DEFAULT_IDEMPOTENCY_MAX_ENTRIES,
                super::DEFAULT_IDEMPOTENCY_MAX_BYTES,
            ),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            body_read_timeout: super::DEFAULT_BODY_READ_TIMEOUT,
            max_json_values: DEFAULT_MAX_JSON_VALUES,
            max_json_depth: DEFAULT_MAX_JSON_DEPTH,
            token_checks: Vec::new(),
        }
    }

    /// How to check the tokens of the spec's minted auth scheme whose `minter` is `minter`
    /// (e.g. verify a JWT's signature and expiry). Without one, every minted token is refused.
    pub fn token_check(
        mut self,
        minter: impl Into<String>,
        check: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> Self {
        let minter = minter.into();
        self.token_checks.retain(|(m, _)| *m != minter);
        self.token_checks.push((minter, Arc::new(check)));
        self
    }

    /// Applies the request-side bounds of `limits`: the body size (when it sets one), the body
    /// read timeout and the idempotency store's capacity (keys already stored are forgotten).
    pub fn limits(mut self, limits: &HttpLimits) -> Self {
        if let Some(max) = limits.max_body_bytes {
            self.max_body_bytes = max;
        }
        self.body_read_timeout = limits.body_read_timeout;
        self.idempotency = IdempotencyStore::new(
            self.idempotency.retention,
            limits.idempotency_max_entries,
            limits.idempotency_max_bytes,
        );
        self
    }

    /// Most JSON values and deepest nesting a request body may have (413 and 422 past them);
    /// they bound what parsing a body can allocate, whatever its size.
    pub fn json_shape(mut self, max_values: usize, max_depth: usize) -> Self {
        self.max_json_values = max_values;
        self.max_json_depth = max_depth;
        self
    }

    /// Accepts `value` for the spec credential `name` (`api_key`).
    pub fn credential(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        let name = name.into();
        self.credentials.retain(|(n, _)| *n != name);
        self.credentials.push((name, value.into()));
        self
    }

    /// Replaces the spec's rate limit; `None` turns limiting off.
    pub fn rate_limit(mut self, limit: Option<RateLimit>) -> Self {
        self.limiter = limit.map(|l| Arc::new(Limiter::new(l)));
        self
    }

    /// How long idempotency keys are remembered.
    pub fn idempotency_retention(mut self, retention: Duration) -> Self {
        self.idempotency = IdempotencyStore::new(
            retention,
            self.idempotency.max_entries,
            self.idempotency.max_bytes,
        );
        self
    }

    /// Idempotency keys stored now (in flight or answered), and the bytes their answers take.
    pub fn idempotency_usage(&self) -> (usize, usize) {
        let slots = lock(&self.idempotency.slots);
        (slots.map.len(), slots.bytes)
    }

    /// Largest request body; larger ones get 413 `payload_too_large`.
    pub fn max_body_bytes(mut self, max: usize) -> Self {
        self.max_body_bytes = max;
        self
    }

    /// The service this gateway guards.
    pub fn service(&self) -> &'static ServiceSpec {
        self.service
    }

    /// The rate limit in force.
    pub fn current_rate_limit(&self) -> Option<RateLimit> {
        self.limiter.as_ref().map(|l| l.limit)
    }

    /// Checks a presented credential value against the one configured for `name`, in constant
    /// time. Used by the SMTP listener too.
    pub fn accepts(&self, name: &str, presented: &str) -> bool {
        self.credentials.iter().any(|(n, v)| {
            n == name && tidings_runtime::constant_time_eq(v.as_bytes(), presented.as_bytes())
        })
    }

    /// Takes one request from the rate limit (for front doors other than HTTP, like SMTP):
    /// `Err` holds the wait until the window resets.
    pub fn take_rate_limit(&self) -> Result<(), Duration> {
        match &self.limiter {
            Some(limiter) => {
                let state = limiter.take();
                if state.allowed {
                    Ok(())
                } else {
                    Err(state.reset)
                }
            }
            None => Ok(()),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock cannot leave these maps inconsistent: keep serving.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A fixed-window limiter: `requests` per window, the window starting at its first request.
#[derive(Debug)]
struct Limiter {
    limit: RateLimit,
    window: Mutex<(Instant, u32)>,
}

struct LimitState {
    allowed: bool,
    remaining: u32,
    reset: Duration,
}

impl Limiter {
    fn new(limit: RateLimit) -> Self {
        Limiter {
            limit,
            window: Mutex::new((Instant::now(), 0)),
        }
    }

    fn take(&self) -> LimitState {
        let mut window = lock(&self.window);
        let now = Instant::now();
        if now.duration_since(window.0) >= self.limit.per {
            *window = (now, 0);
        }
        let reset = self.limit.per.saturating_sub(now.duration_since(window.0));
        if window.1 >= self.limit.requests {
            return LimitState {
                allowed: false,
                remaining: 0,
                reset,
            };
        }
        window.1 += 1;
        LimitState {
            allowed: true,
            remaining: self.limit.requests - window.1,
            reset,
        }
    }
}

/// Whole seconds, rounded up, at least 1: what `Retry-After` and `X-RateLimit-Reset` carry.
fn ceil_secs(d: Duration) -> u64 {
    let s = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    s.max(1)
}

/// What an idempotency key maps to.
#[derive(Debug, Clone)]
enum Slot {
    InFlight {
        fingerprint: Fingerprint,
    },
    Done {
        fingerprint: Fingerprint,
        answer: StoredAnswer,
        at: Instant,
    },
}

/// The SHA-256 of a request's method, path and raw body: what tells a replay from another
/// request under the same key, in 32 bytes whatever the body's size. Clients retry with the
/// same bytes, so the raw body is what is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fingerprint([u8; 32]);

impl Fingerprint {
    fn new(parts: &Parts, body: &[u8]) -> Self {
        let mut hash = Sha256::new();
        hash.update(parts.method.as_str().as_bytes());
        hash.update([0]);
        hash.update(parts.uri.path().as_bytes());
        hash.update([0]);
        hash.update(body);
        Fingerprint(hash.finalize().into())
    }
}

/// What a replay needs: status, body and request id of the first answer.
#[derive(Debug, Clone)]
struct StoredAnswer {
    status: StatusCode,
    body: Bytes,
    request_id: String,
}

/// Bytes one stored key costs besides its answer's body (the key, hash, id, bookkeeping).
const SLOT_OVERHEAD: usize = 128;

/// Idempotency keys and the answers given to them: kept for the retention time, at most
/// `max_entries` keys and `max_bytes` of answers (the oldest answers go first).
#[derive(Debug, Clone)]
struct IdempotencyStore {
    retention: Duration,
    max_entries: usize,
    max_bytes: usize,
    slots: Arc<Mutex<Slots>>,
}

#[derive(Debug, Default)]
struct Slots {
    map: HashMap<String, Slot>,
    /// Answered keys, oldest first (answers expire in this order too).
    answered: VecDeque<String>,
    /// What the answered keys cost, by [`StoredAnswer::cost`].
    bytes: usize,
}

impl StoredAnswer {
    fn cost(&self, key: &str) -> usize {
        SLOT_OVERHEAD + key.len() + self.body.len() + self.request_id.len()
    }
}

impl Slots {
    /// Forgets the oldest answer; false when there is none.
    fn evict_oldest(&mut self) -> bool {
        let Some(key) = self.answered.pop_front() else {
            return false;
        };
        if let Some(Slot::Done { answer, .. }) = self.map.remove(&key) {
            self.bytes = self.bytes.saturating_sub(answer.cost(&key));
        }
        true
    }

    fn expire(&mut self, retention: Duration) {
        while let Some(key) = self.answered.front() {
            let expired = match self.map.get(key) {
                Some(Slot::Done { at, .. }) => at.elapsed() >= retention,
                _ => true,
            };
            if !expired {
                break;
            }
            self.evict_oldest();
        }
    }
}

enum Claim {
    /// First use: the request goes ahead.
    Reserved,
    /// A replay of a finished request: answer the same.
    Replay(StoredAnswer),
    /// Another body under this key, the first request is still running, or the store is full
    /// of requests in flight.
    Conflict(ServerError),
}

impl IdempotencyStore {
    fn new(retention: Duration, max_entries: usize, max_bytes: usize) -> Self {
        IdempotencyStore {
            retention,
            max_entries: max_entries.max(1),
            max_bytes,
            slots: Arc::new(Mutex::new(Slots::default())),
        }
    }

    fn claim(&self, key: &str, fingerprint: Fingerprint) -> Claim {
        let mut slots = lock(&self.slots);
        slots.expire(self.retention);
        match slots.map.get(key) {
            None => {
                while slots.map.len() >= self.max_entries {
                    if !slots.evict_oldest() {
                        return Claim::Conflict(
                            ServerError::new(
                                503,
                                "service_unavailable",
                                "too many requests with idempotency keys are in flight; retry",
                            )
                            .with_header("Retry-After", "1"),
                        );
                    }
                }
                slots
                    .map
                    .insert(key.to_owned(), Slot::InFlight { fingerprint });
                Claim::Reserved
            }
            Some(Slot::Done {
                fingerprint: seen,
                answer,
                ..
            }) if *seen == fingerprint => Claim::Replay(answer.clone()),
            Some(Slot::InFlight { fingerprint: seen }) if *seen == fingerprint => {
                Claim::Conflict(ServerError::conflict(
                    "idempotency_key_reused",
                    "a request with this idempotency key is still being processed; retry later",
                ))
            }
            Some(_) => Claim::Conflict(ServerError::conflict(
                "idempotency_key_reused",
                "this idempotency key was used with a different request",
            )),
        }
    }

    /// Stores the answer for a replay; an answer too large to keep (over a quarter of the
    /// store) is not kept, and the key is released instead.
    fn complete(&self, key: &str, answer: StoredAnswer) {
        let mut slots = lock(&self.slots);
        let Some(Slot::InFlight { fingerprint }) = slots.map.remove(key) else {
            return;
        };
        let cost = answer.cost(key);
        if cost > self.max_bytes / 4 {
            return;
        }
        while slots.bytes + cost > self.max_bytes && slots.evict_oldest() {}
        slots.bytes += cost;
        slots.answered.push_back(key.to_owned());
        slots.map.insert(
            key.to_owned(),
            Slot::Done {
                fingerprint,
                answer,
                at: Instant::now(),
            },
        );
    }

    fn release(&self, key: &str) {
        let mut slots = lock(&self.slots);
        if matches!(slots.map.get(key), Some(Slot::InFlight { .. })) {
            slots.map.remove(key);
        }
    }
}

/// A claimed idempotency key; released on drop unless an answer was stored.
#[derive(Debug)]
struct Reservation {
    store: IdempotencyStore,
    key: String,
    done: bool,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if !self.done {
            self.store.release(&self.key);
        }
    }
}

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
    errors: &'static tidings_runtime::ErrorSpec,
}

impl Incoming {
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

        let schemes: &[AuthScheme] = match &op.auth {
            Some(scheme) => std::slice::from_ref(scheme),
            None => gateway.service.auth,
        };
        // A credential in the body is checked once the body is read.
        let body_auth = schemes.iter().any(|s| matches!(s, AuthScheme::Body { .. }));
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
            put(names.limit, limiter.limit.requests.to_string());
            put(names.remaining, state.remaining.to_string());
            put(names.reset, reset.clone());
            if !state.allowed {
                let retry_after = names.retry_after.unwrap_or("Retry-After");
                let error = ServerError::new(
                    429,
                    "rate_limit_exceeded",
                    format!(
                        "more than {} requests in {} s; retry after {reset} s",
                        limiter.limit.requests,
                        limiter.limit.per.as_secs_f64()
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
        if op.has_body && content_type.is_some_and(|v| !super::bodies::media_fits(op, v, is_json)) {
            let error = super::bodies::unsupported_media(op);
            return Err(with_headers(
                error.to_response_as(&request_id, shape),
                &limit_headers,
            ));
        }
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
        if op.has_body && content_type.is_none() && !body.is_empty() {
            let error = super::bodies::unsupported_media(op);
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
        for scheme in schemes {
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
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Err(ServerError::bad_request(format!(
                "`{}` needs a JSON body",
                self.op.name
            )));
        }
        // Syntax first, without building anything; then the shape, so the tree built below
        // is bounded by the value count, not by what a body of this size could expand to.
        serde_json::from_slice::<IgnoredAny>(&self.body)
            .map_err(|e| ServerError::bad_request(format!("the body is not valid JSON: {e}")))?;
        if self.body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(ServerError::new(
                422,
                "validation_error",
                "invalid body: expected a JSON object",
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

    fn answer(mut self, result: Result<(u16, Bytes), ServerError>) -> Response {
        let request_id = self.context.request_id.clone();
        let (status, body, error_headers) = match result {
            Ok((status, body)) => (
                StatusCode::from_u16(status).unwrap_or(StatusCode::OK),
                body,
                None,
            ),
            Err(error) => {
                let response = error.to_response_as(&request_id, self.errors);
                let status = response.status();
                let body = Bytes::from(
                    serde_json::to_vec(&error.body_as(&request_id, self.errors))
                        .unwrap_or_default(),
                );
                (status, body, Some(response.headers().clone()))
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
        let headers = response.headers_mut();
        if let Some(extra) = error_headers {
            headers.extend(extra);
        }
        if !body.is_empty() {
            headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        }
        if let Ok(id) = HeaderValue::from_str(&request_id) {
            headers.insert(X_REQUEST_ID, id);
        }
        with_headers(response, &self.limit_headers)
    }
}

/// Rewrites every number with a zero fraction that fits an `i64` (`5.0`, `-2e3`) as that
/// integer: JSON Schema's `integer` accepts them, serde's integers do not.
fn integral_floats_to_integers(value: &mut serde_json::Value) {
    // 2^63 as a float: the first value past `i64::MAX`.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    match value {
        serde_json::Value::Number(n) if n.is_f64() => {
            if let Some(f) = n
                .as_f64()
                .filter(|f| f.fract() == 0.0 && (-LIMIT..LIMIT).contains(f))
            {
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

/// The top-level text fields of a request body (a JSON object or a form), for credentials sent
/// in the body. A body that is neither (or breaks the JSON bounds) has none.
struct BodyFields {
    form: bool,
    fields: Vec<(String, String)>,
}

impl BodyFields {
    fn read(body: &[u8], gateway: &Gateway, form: bool) -> BodyFields {
        let fields = if form {
            url::form_urlencoded::parse(body).into_owned().collect()
        } else if json_shape(body, gateway.max_json_values, gateway.max_json_depth).is_ok() {
            match serde_json::from_slice::<serde_json::Value>(body) {
                Ok(serde_json::Value::Object(map)) => map
                    .into_iter()
                    .filter_map(|(k, v)| Some((k, v.as_str()?.to_owned())))
                    .collect(),
                _ => Vec::new(),
            }
        } else {
            Vec::new()
        };
        BodyFields { form, fields }
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// `body` without the fields body schemes put credentials in (unchanged when none is
    /// there or the body cannot be read).
    fn without_credentials(&self, body: Bytes, schemes: &[AuthScheme]) -> Bytes {
        let fields: Vec<&str> = schemes
            .iter()
            .filter_map(|s| match s {
                AuthScheme::Body { fields } => Some(fields.iter().map(|(field, _)| *field)),
                _ => None,
            })
            .flatten()
            .collect();
        if !fields.iter().any(|f| self.get(f).is_some()) {
            return body;
        }
        if self.form {
            let mut out = url::form_urlencoded::Serializer::new(String::new());
            for (k, v) in url::form_urlencoded::parse(&body) {
                if !fields.contains(&k.as_ref()) {
                    out.append_pair(&k, &v);
                }
            }
            return Bytes::from(out.finish());
        }
        match serde_json::from_slice::<serde_json::Value>(&body) {
            Ok(serde_json::Value::Object(mut map)) => {
                for f in &fields {
                    map.remove(*f);
                }
                serde_json::to_vec(&map).map(Bytes::from).unwrap_or(body)
            }
            _ => body,
        }
    }
}

/// The credential of an `Authorization: Basic` header: user name and password.
fn basic_credentials(headers: &HeaderMap) -> Option<(String, String)> {
    use base64::Engine as _;
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (kind, encoded) = value.trim().split_once(' ')?;
    if !kind.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (user, pass) = text.split_once(':')?;
    Some((user.to_owned(), pass.to_owned()))
}

/// The token of an `Authorization: Bearer` header.
fn bearer_token(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (kind, token) = value.trim().split_once(' ')?;
    kind.eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_owned())
}

/// The credential name under which a gateway keeps the access token it accepts for an OAuth2
/// client-credentials scheme (the token its server's own token endpoint hands out).
pub const OAUTH2_TOKEN_CREDENTIAL: &str = "oauth2_access_token";

/// A header's value after `prefix` (compared without case, like an auth scheme word).
fn header_after_prefix(headers: &HeaderMap, header: &str, prefix: Option<&str>) -> Option<String> {
    let value = headers.get(header)?.to_str().ok()?.trim();
    let prefix = prefix.unwrap_or("");
    let head = value.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| value[prefix.len()..].trim().to_owned())
}

/// Checks the credential against the operation's schemes: the first scheme that carries one
/// decides. Signing schemes are not served by this gateway. `body` is given when a scheme
/// reads the credential from the body.
fn authenticate(
    gateway: &Gateway,
    schemes: &[AuthScheme],
    headers: &HeaderMap,
    query: &str,
    body: Option<&BodyFields>,
) -> Result<(), ServerError> {
    let mut presented = false;
    let mut hint = Vec::new();
    for scheme in schemes {
        let (credential, value) = match scheme {
            AuthScheme::Basic { username, password } => {
                hint.push("`Authorization: Basic <base64 user:password>`".to_owned());
                let Some((user, pass)) = basic_credentials(headers) else {
                    continue;
                };
                presented = true;
                let pass_ok = match password {
                    Some(password) => gateway.accepts(password, &pass),
                    None => pass.is_empty(),
                };
                // Both halves are compared, so timing does not tell which one failed.
                if gateway.accepts(username, &user) & pass_ok {
                    return Ok(());
                }
                continue;
            }
            AuthScheme::Body { fields } => {
                let names: Vec<&str> = fields.iter().map(|(field, _)| *field).collect();
                hint.push(format!("the body fields `{}`", names.join("`, `")));
                let values: Vec<Option<&str>> = fields
                    .iter()
                    .map(|(field, _)| body.and_then(|b| b.get(field)).filter(|v| !v.is_empty()))
                    .collect();
                if values.iter().all(Option::is_none) {
                    continue;
                }
                presented = true;
                // Every field is compared, so timing does not tell which one failed.
                let all_ok = fields.iter().zip(&values).fold(true, |ok, ((_, cred), v)| {
                    ok & v.is_some_and(|v| gateway.accepts(cred, v))
                });
                if all_ok {
                    return Ok(());
                }
                continue;
            }
            AuthScheme::Minted {
                minter,
                header,
                prefix,
            } => {
                hint.push(format!("`{header}: {}<token>`", prefix.unwrap_or("")));
                let Some(token) =
                    header_after_prefix(headers, header, *prefix).filter(|t| !t.is_empty())
                else {
                    continue;
                };
                presented = true;
                let check = gateway.token_checks.iter().find(|(m, _)| m == minter);
                if check.is_some_and(|(_, check)| check(&token)) {
                    return Ok(());
                }
                continue;
            }
            AuthScheme::Bearer { credential } => {
                hint.push("`Authorization: Bearer <key>`".to_owned());
                (*credential, bearer_token(headers))
            }
            AuthScheme::OAuth2ClientCredentials { token_url, .. } => {
                hint.push(format!(
                    "`Authorization: Bearer <access token from {token_url}>`"
                ));
                (OAUTH2_TOKEN_CREDENTIAL, bearer_token(headers))
            }
            AuthScheme::Header {
                header,
                credential,
                prefix,
            } => {
                hint.push(format!("`{header}: {}<key>`", prefix.unwrap_or("")));
                (*credential, header_after_prefix(headers, header, *prefix))
            }
            AuthScheme::Query { param, credential } => {
                hint.push(format!("`?{param}=<key>`"));
                let value = url::form_urlencoded::parse(query.as_bytes())
                    .find(|(k, _)| k == param)
                    .map(|(_, v)| v.into_owned());
                (*credential, value)
            }
            _ => continue,
        };
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            presented = true;
            if gateway.accepts(credential, &value) {
                return Ok(());
            }
        }
    }
    if presented {
        Err(ServerError::new(
            401,
            "invalid_api_key",
            "the API key is not valid",
        ))
    } else {
        Err(ServerError::new(
            401,
            "missing_api_key",
            format!("no API key: send {}", hint.join(" or ")),
        ))
    }
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
    fn limiter_refuses_past_the_limit_and_resets_after_the_window() {
        let limiter = Limiter::new(RateLimit::new(2, Duration::from_millis(50)));
        assert!(limiter.take().allowed);
        let second = limiter.take();
        assert!(second.allowed);
        assert_eq!(second.remaining, 0);
        assert!(!limiter.take().allowed);
        std::thread::sleep(Duration::from_millis(60));
        assert!(limiter.take().allowed);
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(ceil_secs(Duration::from_millis(1)), 1);
        assert_eq!(ceil_secs(Duration::from_millis(1001)), 2);
        assert_eq!(ceil_secs(Duration::from_secs(60)), 60);
    }

    #[test]
    fn integral_floats_become_integers_and_others_stay() {
        let mut v = serde_json::json!({"a": 178.0, "b": [1.5, -2e3], "c": {"d": 1e300}, "e": 7});
        integral_floats_to_integers(&mut v);
        assert_eq!(v["a"], serde_json::json!(178));
        assert!(v["a"].is_i64());
        assert_eq!(v["b"], serde_json::json!([1.5, -2000]));
        assert!(v["c"]["d"].is_f64());
        assert!(v["e"].is_i64());
    }
}
