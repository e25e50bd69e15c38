//! The execute pipeline: [`Client`], [`Request`] and [`Response`]. One non-generic entry point,
//! [`Client::execute`]: validate → authenticate/sign → rate-limit → send with timeout →
//! read the body within its limit → classify → retry with backoff → typed response or typed
//! error.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, USER_AGENT};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tracing::Instrument;
use tracing::field::Empty;

use crate::Error;
use crate::auth::ResolvedAuth;
use crate::config::{BodyLimits, CallOptions, ClientBuilder, RetryPolicy, Timeouts};
use crate::error::{
    ApiError, DecodeError, ID_LIMIT, MESSAGE_LIMIT, TimeoutKind, TooLarge, bounded_text, excerpt,
};
use crate::ratelimit::RateLimiter;
use crate::retry::{RetryBudget, backoff, server_wait};
use crate::secret::Secret;
use crate::sign::SignableRequest;
use crate::spec::{CredentialSpec, OperationSpec, RetryClass, ServiceSpec};
use crate::validate::{Validate, Validator};

/// A service client. Cheap to clone: clones share the connection pool, the rate limiter and the
/// retry budget.
///
/// ```no_run
/// # use comms_runtime::*;
/// # static SPEC: ServiceSpec = ServiceSpec { name: "email", title: "Email", base_url: None,
/// #   base_url_env: "COMMS_EMAIL_BASE_URL",
/// #   credentials: &[CredentialSpec { name: "api_key", env: "COMMS_EMAIL_API_KEY", secret: true }],
/// #   auth: &[AuthScheme::Bearer { credential: "api_key" }], rate_limit: None,
/// #   rate_limit_headers: RateLimitHeaders::STANDARD, retry: RetrySpec::DEFAULT,
/// #   timeouts: TimeoutSpec::DEFAULT, idempotency: None };
/// static GET_EMAIL: OperationSpec = OperationSpec::get("get_email", "/v1/emails/{id}");
///
/// # async fn demo() -> Result<(), Error> {
/// let client = Client::from_env(&SPEC)?;
/// let request = GET_EMAIL.request().path_param("id", "em_123");
/// let email: serde_json::Value = client.execute(request).await?.json()?;
/// # let _ = email; Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    shared: Arc<Shared>,
    options: Option<Arc<CallOptions>>,
}

/// What a client's clones share.
pub(crate) struct Shared {
    pub(crate) spec: &'static ServiceSpec,
    pub(crate) http: reqwest::Client,
    pub(crate) base_url: String,
    pub(crate) base: url::Url,
    pub(crate) credentials: Vec<(&'static CredentialSpec, Secret)>,
    pub(crate) auth: ResolvedAuth,
    pub(crate) timeouts: Timeouts,
    pub(crate) limits: BodyLimits,
    pub(crate) retry: RetryPolicy,
    pub(crate) limiter: RateLimiter,
    pub(crate) budget: RetryBudget,
    pub(crate) user_agent: HeaderValue,
}

impl fmt::Debug for Client {
    // Never prints credential values; only which ones are set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &*self.shared;
        f.debug_struct("Client")
            .field("service", &s.spec.name)
            .field("base_url", &s.base_url)
            .field(
                "credentials",
                &s.credentials
                    .iter()
                    .map(|(c, _)| c.name)
                    .collect::<Vec<_>>(),
            )
            .field("auth", &s.auth)
            .field("timeouts", &s.timeouts)
            .field("limits", &s.limits)
            .field("retry", &s.retry)
            .field("rate_limiter", &s.limiter.is_enabled())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A builder with every default taken from `spec`.
    pub fn builder(spec: &'static ServiceSpec) -> ClientBuilder {
        ClientBuilder::new(spec)
    }

    /// A client configured from the environment variables the spec names (base URL and
    /// credentials); fails with [`Error::Config`] naming what is missing.
    pub fn from_env(spec: &'static ServiceSpec) -> Result<Client, Error> {
        ClientBuilder::new(spec).env().build()
    }

    pub(crate) fn from_shared(shared: Shared) -> Client {
        Client {
            shared: Arc::new(shared),
            options: None,
        }
    }

    /// A clone whose calls use these options on top of any this client already has.
    pub fn with_options(&self, options: CallOptions) -> Client {
        let merged = match &self.options {
            Some(existing) => CallOptions::clone(existing).merged(options),
            None => options,
        };
        Client {
            shared: Arc::clone(&self.shared),
            options: Some(Arc::new(merged)),
        }
    }

    /// The service this client talks to.
    pub fn spec(&self) -> &'static ServiceSpec {
        self.shared.spec
    }

    /// The base URL in use (no trailing slash).
    pub fn base_url(&self) -> &str {
        &self.shared.base_url
    }

    /// A non-secret credential's value by name (e.g. `app_id` for a path parameter). Returns
    /// `None` for secret credentials and for ones that are not set.
    pub fn credential_value(&self, name: &str) -> Option<&str> {
        self.shared
            .credentials
            .iter()
            .find(|(c, _)| c.name == name && !c.secret)
            .map(|(_, value)| value.expose())
    }

    /// Sends a request: validates it, authenticates or signs each attempt, waits for the rate
    /// limiter, sends with timeouts, retries what the policy and the operation's
    /// [`RetryClass`] allow, and classifies the answer. Non-2xx answers become errors.
    ///
    /// Each attempt's timeout covers reading the whole body, which is streamed and held only up
    /// to its limit: 16 MiB for a successful answer (else [`Error::ResponseTooLarge`], and a
    /// larger `Content-Length` is refused before reading), 64 KiB of an error answer (the rest
    /// is not read). See [`ClientBuilder::max_response_bytes`]. The whole call ends by its
    /// deadline, 30 s by default ([`ClientBuilder::total_timeout`]).
    ///
    /// Runs inside a `comms.request` tracing span (service, operation, attempts, status,
    /// request id), with one `attempt` span per attempt. Neither carries a credential, a
    /// query string or an auth header value.
    pub async fn execute(&self, request: Request) -> Result<Response, Error> {
        let span = tracing::debug_span!(
            "comms.request",
            service = self.shared.spec.name,
            operation = request.op.name,
            attempts = Empty,
            status = Empty,
            request_id = Empty,
        );
        let mut attempts = 0;
        let result = self
            .run(request, &mut attempts)
            .instrument(span.clone())
            .await;
        if !span.is_disabled() {
            span.record("attempts", attempts);
            let (status, request_id) = match &result {
                Ok(response) => (Some(response.status), response.request_id()),
                Err(err) => (err.status(), err.request_id()),
            };
            if let Some(status) = status {
                span.record("status", status);
            }
            if let Some(id) = request_id {
                span.record("request_id", id);
            }
            span.in_scope(|| match &result {
                Ok(_) => tracing::debug!("call succeeded"),
                Err(err) => tracing::debug!(kind = ?err.kind(), "call failed: {err}"),
            });
        }
        result
    }

    async fn run(&self, request: Request, attempt: &mut u32) -> Result<Response, Error> {
        let shared = &*self.shared;
        let no_options = CallOptions::default();
        let options = self.options.as_deref().unwrap_or(&no_options);
        let idempotency_key = idempotency_header(shared.spec, request.op, options)?;
        // Once the request may have reached the server, may it be sent again?
        let repeatable = match request.op.retry {
            RetryClass::Safe => true,
            RetryClass::IdempotencyKey => idempotency_key.is_some(),
            RetryClass::Never => false,
        };
        // The first attempt takes these parts; a retry builds them again (same key).
        let mut first_parts = Some(self.prepare(&request, idempotency_key.as_ref())?);

        let policy = options.retry.as_ref().unwrap_or(&shared.retry);
        let max_attempts = options.max_attempts.unwrap_or(policy.max_attempts).max(1);
        let attempt_timeout = options.attempt_timeout.unwrap_or(shared.timeouts.attempt);
        let limits = BodyLimits {
            success: options.max_response_bytes.unwrap_or(shared.limits.success),
            error: options.max_error_body_bytes.unwrap_or(shared.limits.error),
        };
        let start = Instant::now();
        let deadline = match (
            options.total_timeout.or(shared.timeouts.total),
            options.deadline,
        ) {
            (Some(total), Some(at)) => Some((start + total).min(at)),
            (Some(total), None) => Some(start + total),
            (None, at) => at,
        };

        shared.budget.deposit();
        loop {
            *attempt += 1;
            let attempt = *attempt;

            // Held until the attempt has finished: the slot's window starts then.
            let permit = shared.limiter.acquire(deadline).await?;
            let now = Instant::now();
            let timeout = match deadline {
                Some(d) if d.saturating_duration_since(now) < attempt_timeout => {
                    (d.saturating_duration_since(now), TimeoutKind::Deadline)
                }
                _ => (attempt_timeout, TimeoutKind::Attempt),
            };
            if timeout.0.is_zero() {
                return Err(Error::Timeout {
                    kind: TimeoutKind::Deadline,
                    after: now - start,
                });
            }

            let parts = match first_parts.take() {
                Some(parts) => parts,
                None => self.prepare(&request, idempotency_key.as_ref())?,
            };
            let http_request = self.attempt_request(&request, parts)?;
            let outcome = self
                .send_attempt(request.op, http_request, timeout, policy, limits)
                .instrument(tracing::debug_span!("attempt", attempt, status = Empty))
                .await;
            permit.release().await;
            let failure = match outcome {
                Ok(response) => return Ok(response),
                Err(failure) => failure,
            };

            let retryable = match &failure.error {
                Error::Timeout { .. } => policy.timeouts,
                Error::Transport { .. } => policy.connect_errors,
                Error::Api(api) | Error::Auth(api) => policy.statuses.contains(&api.status),
                Error::RateLimited { api: Some(api), .. } => policy.statuses.contains(&api.status),
                _ => false,
            };
            if !retryable || attempt >= max_attempts {
                return Err(failure.error);
            }
            if failure.reached_server && !repeatable {
                tracing::debug!(
                    "not retrying: the request may have reached the server and is not repeatable"
                );
                return Err(failure.error);
            }
            let delay = match failure.wait {
                Some(wait) => wait.min(policy.retry_after_cap),
                None => backoff(policy, attempt - 1),
            };
            if deadline.is_some_and(|d| Instant::now() + delay >= d) {
                tracing::debug!(
                    backoff_ms = millis(delay),
                    "not retrying: the wait would pass the deadline"
                );
                return Err(failure.error);
            }
            if !shared.budget.try_withdraw() {
                tracing::debug!("not retrying: retry budget spent");
                return Err(failure.error);
            }
            tracing::debug!(
                attempt,
                backoff_ms = millis(delay),
                "retrying after backoff"
            );
            tokio::time::sleep(delay).await;
        }
    }

    /// The auth of an operation that names its own scheme, resolved from the client's
    /// credentials; `None` when the operation uses the client's.
    fn operation_auth(&self, op: &OperationSpec) -> Result<Option<ResolvedAuth>, Error> {
        match op.auth {
            Some(scheme) => ResolvedAuth::resolve(
                crate::auth::AuthChoice::Scheme(scheme),
                self.shared.spec,
                &self.shared.credentials,
            )
            .map(Some),
            None => Ok(None),
        }
    }

    /// Validates the request and builds an attempt's URL (with a query credential, when that
    /// scheme is chosen) and headers (auth, the call's idempotency key).
    fn prepare(
        &self,
        request: &Request,
        idempotency_key: Option<&(HeaderName, HeaderValue)>,
    ) -> Result<Prepared, Error> {
        let shared = &*self.shared;
        let op = request.op;
        // `Request::new` starts an operation that carries a body with `{}`, so only the
        // opposite mistake can happen.
        if !op.has_body && request.body.is_some() {
            return Err(Error::invalid_request(
                "body",
                format!("`{}` takes no request body", op.name),
            ));
        }
        // The base was parsed once at build; only the path is set per call.
        let mut url = shared.base.clone();
        let mut path = String::with_capacity(64);
        path.push_str(shared.base.path().trim_end_matches('/'));
        render_path(op.path, &request.path_params, &mut path)?;
        url.set_path(&path);
        if !request.query.is_empty() {
            url.query_pairs_mut().extend_pairs(&request.query);
        }
        let op_auth = self.operation_auth(op)?;
        let auth = op_auth.as_ref().unwrap_or(&shared.auth);
        if let ResolvedAuth::Query { param, value } = auth {
            url.query_pairs_mut().append_pair(param, value.expose());
        }

        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        headers.insert(USER_AGENT, shared.user_agent.clone());
        if request.body.is_some() {
            headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        }
        if let ResolvedAuth::Header { name, value } = auth {
            headers.insert(name.clone(), value.clone());
        }
        if let Some((name, value)) = idempotency_key {
            headers.insert(name.clone(), value.clone());
        }
        Ok(Prepared { url, headers })
    }

    /// One attempt's HTTP request; a signing scheme signs it now, so each attempt is fresh.
    fn attempt_request(
        &self,
        request: &Request,
        Prepared {
            mut url,
            mut headers,
        }: Prepared,
    ) -> Result<reqwest::Request, Error> {
        let op_auth = self.operation_auth(request.op)?;
        if let ResolvedAuth::Signer(signer) = op_auth.as_ref().unwrap_or(&self.shared.auth) {
            let signable = SignableRequest::new(
                &request.op.method,
                url.path(),
                &request.query,
                request.body.as_deref(),
            );
            let parts = signer.sign(&signable)?;
            if !parts.query.is_empty() {
                url.query_pairs_mut().extend_pairs(&parts.query);
            }
            headers.extend(parts.headers);
        }
        // Built directly (not through RequestBuilder) so the headers move in without a merge.
        let mut http_request = reqwest::Request::new(request.op.method.clone(), url);
        *http_request.headers_mut() = headers;
        if let Some(body) = &request.body {
            *http_request.body_mut() = Some(body.clone().into());
        }
        Ok(http_request)
    }

    /// Sends one attempt within `timeout` and classifies the answer.
    async fn send_attempt(
        &self,
        op: &'static OperationSpec,
        http_request: reqwest::Request,
        (timeout, timeout_kind): (std::time::Duration, TimeoutKind),
        policy: &RetryPolicy,
        limits: BodyLimits,
    ) -> Result<Response, Failure> {
        let shared = &*self.shared;
        let names = &shared.spec.rate_limit_headers;
        tracing::debug!(method = %op.method, path = op.path, auth = shared.auth.scheme_name(), "sending request");
        // The body is read inside the timeout: a slow or endless body ends with the attempt.
        let sending = send(&shared.http, http_request, limits);
        let failure = match tokio::time::timeout(timeout, sending).await {
            Err(_elapsed) => Failure {
                error: Error::Timeout {
                    kind: timeout_kind,
                    after: timeout,
                },
                wait: None,
                reached_server: true,
            },
            Ok(Err(err)) => {
                let connect = err.is_connect();
                let error = if connect && err.is_timeout() {
                    Error::Timeout {
                        kind: TimeoutKind::Connect,
                        after: shared.timeouts.connect,
                    }
                } else {
                    Error::transport(err)
                };
                Failure {
                    error,
                    wait: None,
                    reached_server: !connect,
                }
            }
            Ok(Ok(raw)) => {
                tracing::Span::current().record("status", raw.status);
                tracing::debug!("response received");
                let request_id = raw
                    .headers
                    .get(&X_REQUEST_ID)
                    .and_then(|v| v.to_str().ok())
                    .map(|id| bounded_text(id, ID_LIMIT));
                let success = (200..300).contains(&raw.status);
                let wait = if success {
                    None
                } else {
                    server_wait(&raw.headers, names)
                };
                shared
                    .limiter
                    .observe(raw.status, &raw.headers, wait, policy.retry_after_cap);
                match (success, raw.body) {
                    (true, Body::Whole(body)) => {
                        return Ok(Response {
                            status: raw.status,
                            headers: raw.headers,
                            body,
                            request_id,
                        });
                    }
                    (true, Body::Over { declared, .. }) => Failure {
                        error: Error::ResponseTooLarge(Box::new(TooLarge {
                            service: shared.spec.name,
                            operation: op.name,
                            status: raw.status,
                            limit: u64::try_from(limits.success).unwrap_or(u64::MAX),
                            declared,
                            request_id,
                        })),
                        wait: None,
                        reached_server: true,
                    },
                    (false, body) => {
                        let (bytes, truncated) = match body {
                            Body::Whole(bytes) => (bytes, false),
                            Body::Over { start, .. } => (start, true),
                        };
                        let mut api =
                            ApiError::from_response(raw.status, request_id.as_deref(), &bytes);
                        api.body_truncated = truncated;
                        Failure {
                            error: Error::from_status(api, wait),
                            wait,
                            reached_server: true,
                        }
                    }
                }
            }
        };
        tracing::debug!(kind = ?failure.error.kind(), "attempt failed: {}", failure.error);
        Err(failure)
    }
}

/// An attempt's URL and headers before signing.
struct Prepared {
    url: url::Url,
    headers: HeaderMap,
}

/// Why an attempt did not produce a response.
struct Failure {
    error: Error,
    /// The wait the server asked for, if any.
    wait: Option<std::time::Duration>,
    /// Whether the request may have reached the server (false only for connect failures).
    reached_server: bool,
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// One attempt's answer, body read up to its limit.
struct RawResponse {
    status: u16,
    headers: HeaderMap,
    body: Body,
}

/// A body as far as it was read.
enum Body {
    /// All of it, within the limit.
    Whole(Bytes),
    /// More than the limit: reading stopped there.
    Over {
        /// The first `limit` bytes when the caller wanted them (error bodies), else empty.
        start: Bytes,
        /// The `Content-Length` that alone refused the body (nothing read), if that was it.
        declared: Option<u64>,
    },
}

async fn send(
    http: &reqwest::Client,
    request: reqwest::Request,
    limits: BodyLimits,
) -> Result<RawResponse, reqwest::Error> {
    let mut response = http.execute(request).await?;
    let status = response.status().as_u16();
    let headers = std::mem::take(response.headers_mut());
    let body = if (200..300).contains(&status) {
        read_body(&mut response, limits.success, false).await?
    } else {
        read_body(&mut response, limits.error, true).await?
    };
    Ok(RawResponse {
        status,
        headers,
        body,
    })
}

/// Reads the body chunk by chunk, holding at most `limit` bytes. A declared `Content-Length`
/// over the limit refuses the body before reading, unless `keep_start` asks for its first
/// `limit` bytes (error bodies). A body that arrives in one chunk is returned without a copy.
async fn read_body(
    response: &mut reqwest::Response,
    limit: usize,
    keep_start: bool,
) -> Result<Body, reqwest::Error> {
    let declared = response.content_length();
    let over_declared = declared.filter(|&n| n > u64::try_from(limit).unwrap_or(u64::MAX));
    if over_declared.is_some() && !keep_start {
        return Ok(Body::Over {
            start: Bytes::new(),
            declared: over_declared,
        });
    }
    let over = |start: Bytes| Body::Over {
        start: if keep_start { start } else { Bytes::new() },
        declared: None,
    };
    let Some(first) = response.chunk().await? else {
        return Ok(Body::Whole(Bytes::new()));
    };
    if first.len() > limit {
        return Ok(over(first.slice(..limit)));
    }
    let Some(second) = response.chunk().await? else {
        return Ok(Body::Whole(first));
    };
    // Several chunks: gather them, growing the buffer only up to the limit.
    let hint = declared.map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let mut buf = Vec::with_capacity(hint.max(first.len() + second.len()).min(limit));
    buf.extend_from_slice(&first);
    drop(first);
    let mut chunk = second;
    loop {
        let room = limit - buf.len();
        if chunk.len() > room {
            if !keep_start {
                return Ok(over(Bytes::new()));
            }
            buf.extend_from_slice(&chunk[..room]);
            return Ok(over(Bytes::from(buf)));
        }
        let needed = buf.len() + chunk.len();
        if needed > buf.capacity() {
            let target = needed.max(buf.capacity().saturating_mul(2)).min(limit);
            buf.reserve_exact(target - buf.len());
        }
        buf.extend_from_slice(&chunk);
        chunk = match response.chunk().await? {
            Some(chunk) => chunk,
            None => return Ok(Body::Whole(Bytes::from(buf))),
        };
    }
}

/// The idempotency header for this call, when the operation carries one and the service has
/// the header: the caller's key, or a fresh UUID v4 reused on every attempt.
fn idempotency_header(
    spec: &ServiceSpec,
    op: &OperationSpec,
    options: &CallOptions,
) -> Result<Option<(HeaderName, HeaderValue)>, Error> {
    let (RetryClass::IdempotencyKey, Some(idem)) = (op.retry, spec.idempotency) else {
        return Ok(None);
    };
    let key = match &options.idempotency_key {
        Some(key) => {
            if key.is_empty() || key.len() > idem.max_len {
                return Err(Error::invalid_request(
                    "idempotency_key",
                    format!("must be 1 to {} characters long", idem.max_len),
                ));
            }
            key.clone()
        }
        None => crate::random::uuid_v4(),
    };
    let name = HeaderName::from_bytes(idem.header.as_bytes()).map_err(|_| {
        Error::config(format!(
            "idempotency header `{}` is not a valid header name",
            idem.header
        ))
    })?;
    let value = HeaderValue::from_str(&key)
        .map_err(|_| Error::invalid_request("idempotency_key", "must be visible ASCII"))?;
    Ok(Some((name, value)))
}

/// Fills a path template, percent-encoding each value as one segment.
fn render_path(
    template: &str,
    params: &[(&'static str, String)],
    out: &mut String,
) -> Result<(), Error> {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or_else(|| {
            Error::invalid_request(
                "path",
                format!("unclosed `{{` in path template `{template}`"),
            )
        })?;
        let name = &after[..close];
        let value = params
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| Error::invalid_request(name, "path parameter is missing"))?;
        if value.is_empty() {
            return Err(Error::invalid_request(
                name,
                "path parameter must not be empty",
            ));
        }
        if value == "." || value == ".." {
            return Err(Error::invalid_request(
                name,
                "path parameter must not be `.` or `..`",
            ));
        }
        percent_encode_segment(value, out);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    let in_template = |name: &str| {
        template.match_indices('{').any(|(i, _)| {
            template[i + 1..]
                .strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('}'))
        })
    };
    if let Some((name, _)) = params.iter().find(|(n, _)| !in_template(n)) {
        return Err(Error::invalid_request(
            *name,
            format!("not a parameter of `{template}`"),
        ));
    }
    Ok(())
}

fn percent_encode_segment(value: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in value.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        }
    }
}

/// What generated code fills in for one call: the operation, path parameters, query and body.
#[derive(Debug, Clone)]
pub struct Request {
    pub(crate) op: &'static OperationSpec,
    pub(crate) path_params: Vec<(&'static str, String)>,
    pub(crate) query: Vec<(String, String)>,
    pub(crate) body: Option<Bytes>,
}

impl Request {
    /// An empty request for `op`; an operation that carries a body starts with `{}`.
    pub fn new(op: &'static OperationSpec) -> Request {
        Request {
            op,
            path_params: Vec::new(),
            query: Vec::new(),
            body: op.has_body.then(|| Bytes::from_static(b"{}")),
        }
    }

    /// The operation.
    pub fn operation(&self) -> &'static OperationSpec {
        self.op
    }

    /// Sets a path parameter; it is percent-encoded into its segment. Missing, empty, unknown
    /// or dot-segment parameters make [`Client::execute`] fail with [`Error::InvalidRequest`].
    #[must_use]
    pub fn path_param(mut self, name: &'static str, value: &str) -> Request {
        self.path_params.push((name, value.to_owned()));
        self
    }

    /// Adds query parameters from a serialisable struct or map (`None` fields skipped).
    ///
    /// ```
    /// # use comms_runtime::*;
    /// # static LIST: OperationSpec = OperationSpec::get("list_emails", "/v1/emails");
    /// #[derive(serde::Serialize)]
    /// struct ListQuery { limit: Option<u32>, after: Option<String> }
    /// let request = LIST.request().query(&ListQuery { limit: Some(10), after: None })?;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn query<Q: Serialize + ?Sized>(mut self, query: &Q) -> Result<Request, Error> {
        let encoded = serde_urlencoded::to_string(query)
            .map_err(|e| Error::invalid_request("query", format!("cannot be encoded ({e})")))?;
        self.query
            .extend(url::form_urlencoded::parse(encoded.as_bytes()).into_owned());
        Ok(self)
    }

    /// [`Self::query`] after checking the parameters' limits ([`Validator::check`]): a query
    /// that breaks them is an [`Error::InvalidRequest`] and nothing is sent.
    pub fn checked_query<Q: Serialize + Validate + ?Sized>(
        self,
        query: &Q,
    ) -> Result<Request, Error> {
        Validator::check(query)?;
        self.query(query)
    }

    /// Sets a query parameter, replacing any earlier value.
    pub(crate) fn set_query_param(&mut self, name: &str, value: &str) {
        self.query.retain(|(k, _)| k != name);
        self.query.push((name.to_owned(), value.to_owned()));
    }

    /// Sets the JSON body; it is serialised once and reused on every attempt. An operation
    /// that carries a body but is given none sends `{}`.
    pub fn json<B: Serialize + ?Sized>(mut self, body: &B) -> Result<Request, Error> {
        let bytes = serde_json::to_vec(body)
            .map_err(|e| Error::invalid_request("body", format!("cannot be serialised ({e})")))?;
        self.body = Some(Bytes::from(bytes));
        Ok(self)
    }

    /// [`Self::json`] after the checks the spec gives for the body ([`Validator::check`]): a
    /// body that breaks them is an [`Error::InvalidRequest`] and nothing is sent.
    pub fn checked_json<B: Serialize + Validate + ?Sized>(
        self,
        body: &B,
    ) -> Result<Request, Error> {
        Validator::check(body)?;
        self.json(body)
    }
}

/// A successful (2xx) answer, body read in full.
pub struct Response {
    status: u16,
    headers: HeaderMap,
    body: Bytes,
    request_id: Option<String>,
}

impl fmt::Debug for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Response")
            .field("status", &self.status)
            .field("request_id", &self.request_id)
            .field("body_len", &self.body.len())
            .finish_non_exhaustive()
    }
}

impl Response {
    /// Decodes the body as JSON. An empty body decodes as JSON `null` (so `()` and `Option`
    /// work for 204s). Fails with [`Error::Decode`] carrying a body excerpt.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, Error> {
        let body: &[u8] = if self.body.iter().all(u8::is_ascii_whitespace) {
            b"null"
        } else {
            &self.body
        };
        serde_json::from_slice(body).map_err(|e| {
            Error::Decode(Box::new(DecodeError {
                message: bounded_text(&e.to_string(), MESSAGE_LIMIT),
                status: Some(self.status),
                request_id: self.request_id.clone(),
                body_excerpt: excerpt(&self.body),
            }))
        })
    }

    /// HTTP status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The `x-request-id` header, when present.
    pub fn request_id(&self) -> Option<&str> {
        self.request_id.as_deref()
    }

    /// Response headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The raw body.
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The body as text (lossy UTF-8), for services that answer in plain text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn params(pairs: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
        pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
    }

    #[test]
    fn path_params_are_encoded_as_one_segment() {
        let mut p = String::from("/base");
        render_path(
            "/v1/emails/{id}/cancel",
            &params(&[("id", "a/b c?")]),
            &mut p,
        )
        .expect("renders");
        assert_eq!(p, "/base/v1/emails/a%2Fb%20c%3F/cancel");
    }

    #[test]
    fn bad_path_params_are_invalid_requests_naming_the_field() {
        for (ps, field) in [
            (params(&[]), "id"),
            (params(&[("id", "")]), "id"),
            (params(&[("id", "..")]), "id"),
            (params(&[("id", "x"), ("other", "y")]), "other"),
        ] {
            let err =
                render_path("/v1/emails/{id}", &ps, &mut String::new()).expect_err("rejected");
            assert_eq!(err.kind(), ErrorKind::InvalidRequest);
            match err {
                Error::InvalidRequest { field: f, .. } => assert_eq!(f, field),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    #[test]
    fn response_json_decode_error_keeps_excerpt() {
        let response = Response {
            status: 200,
            headers: HeaderMap::new(),
            body: Bytes::from_static(b"<html>oops</html>"),
            request_id: Some("req_1".into()),
        };
        let err = response.json::<serde_json::Value>().expect_err("not json");
        assert_eq!(err.kind(), ErrorKind::Decode);
        assert_eq!(err.request_id(), Some("req_1"));
        assert!(err.to_string().contains("<html>oops"));
        let empty = Response {
            status: 204,
            headers: HeaderMap::new(),
            body: Bytes::new(),
            request_id: None,
        };
        empty.json::<()>().expect("empty body is null");
    }
}
