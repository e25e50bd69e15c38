//! The attempt loop behind [`Client::execute`](crate::Client::execute). Per call it fixes the
//! idempotency key and the deadline; per attempt it asks the rate limiter for a slot, applies
//! the call's auth (resolved once by the client), sends within the attempt's timeout, and asks
//! the retry policy ([`RetryPolicy::next`]) whether and when to go again. It decides nothing
//! itself: retry rules live in [`crate::retry`], limits in [`crate::ratelimit`], answers are
//! read by [`crate::response`].

use std::time::{Duration, Instant};

use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, USER_AGENT};
use tracing::Instrument;
use tracing::field::Empty;

use crate::Error;
use crate::auth::ResolvedAuth;
use crate::error::TimeoutKind;
use crate::error::{CallContext, advice};
use crate::headers::server_wait;
use crate::options::{BodyLimits, CallOptions, Timeouts};
use crate::ratelimit::RateLimiter;
use crate::request::{Request, render_path};
use crate::response::{RawResponse, Response, send};
use crate::retry::{Attempted, Next, RetryBudget, RetryPolicy, StopReason};
use crate::sign::SignableRequest;
use crate::spec::{OperationSpec, RetryClass, ServiceSpec};

/// What the attempt loop needs of a client; one per client, shared by its clones.
pub(crate) struct Pipeline {
    pub(crate) spec: &'static ServiceSpec,
    pub(crate) http: reqwest::Client,
    /// The base URL, parsed once at build; only the path is set per call.
    pub(crate) base: url::Url,
    pub(crate) user_agent: HeaderValue,
    pub(crate) timeouts: Timeouts,
    pub(crate) limits: BodyLimits,
    pub(crate) retry: RetryPolicy,
    pub(crate) limiter: RateLimiter,
    pub(crate) budget: RetryBudget,
    /// The credentials (spec names) the client's auth sends, for the advice of a refusal.
    pub(crate) auth_credentials: Vec<&'static str>,
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
    wait: Option<Duration>,
    /// Whether the request may have reached the server (false only for connect failures).
    reached_server: bool,
}

impl Pipeline {
    /// Runs the attempts of one call with `auth` (the client's, or the operation's own),
    /// counting them in `attempts`.
    pub(crate) async fn run(
        &self,
        request: &Request,
        auth: &ResolvedAuth,
        options: &CallOptions,
        attempts: &mut u32,
    ) -> Result<Response, Error> {
        let idempotency_key = idempotency_header(self.spec, request.op, options)?;
        // Once the request may have reached the server, may it be sent again?
        let repeatable = match request.op.retry {
            RetryClass::Safe => true,
            RetryClass::IdempotencyKey => idempotency_key.is_some(),
            RetryClass::Never => false,
        };
        // The first attempt takes these parts; a retry builds them again (same key).
        let first = self.prepare(request, auth, idempotency_key.as_ref())?;
        let mut first_parts = Some(first);

        let policy = options.retry.as_ref().unwrap_or(&self.retry);
        let max_attempts = options.max_attempts.unwrap_or(policy.max_attempts).max(1);
        let attempt_timeout = options.attempt_timeout.unwrap_or(self.timeouts.attempt);
        let limits = BodyLimits {
            success: options.max_response_bytes.unwrap_or(self.limits.success),
            error: options.max_error_body_bytes.unwrap_or(self.limits.error),
        };
        let start = Instant::now();
        let deadline = match (
            options.total_timeout.or(self.timeouts.total),
            options.deadline,
        ) {
            (Some(total), Some(at)) => Some((start + total).min(at)),
            (Some(total), None) => Some(start + total),
            (None, at) => at,
        };

        self.budget.deposit();
        // The generation of the OAuth2 token an attempt sent (0: none), and whether a 401
        // already made the call fetch a new one (once per call). Small: kept across waits.
        let mut sent_token = 0u64;
        let mut token_refreshed = false;
        loop {
            *attempts += 1;
            let attempt = *attempts;
            // The clock is read once per attempt (the first one starts with the call) and that
            // reading serves the limiter, the timeout and the deadline: each read costs the
            // calling thread about as much as an uncontended lock (BENCHMARKS.md § 3). Not
            // kept across the attempt's wait (the call's future stays small).
            let mut now = if attempt == 1 { start } else { Instant::now() };

            // Held until the attempt has finished: the slot's window starts then. A free slot
            // is taken without building the waiting future (the common case).
            let permit = match self.limiter.try_acquire(now) {
                Some(permit) => permit,
                // Boxed: waiting for a slot (or asking a shared limiter) is the rare path.
                None => match Box::pin(self.limiter.acquire(deadline)).await {
                    Ok(permit) => {
                        // The wait moved the clock.
                        now = Instant::now();
                        permit
                    }
                    Err(error) => {
                        return Err(self.in_context(
                            error,
                            &self.origin(request, auth, options),
                            attempt,
                            None,
                        ));
                    }
                },
            };
            let timeout = match deadline {
                Some(d) if d.saturating_duration_since(now) < attempt_timeout => {
                    (d.saturating_duration_since(now), TimeoutKind::Deadline)
                }
                _ => (attempt_timeout, TimeoutKind::Attempt),
            };
            if timeout.0.is_zero() {
                let error = Error::Timeout {
                    kind: TimeoutKind::Deadline,
                    after: now - start,
                    context: None,
                };
                return Err(self.in_context(
                    error,
                    &self.origin(request, auth, options),
                    attempt,
                    None,
                ));
            }

            // A minted token is made per attempt, so a short-lived one is always fresh.
            if auth.is_minted() {
                let parts = match &mut first_parts {
                    Some(parts) => parts,
                    None => {
                        first_parts.insert(self.prepare(request, auth, idempotency_key.as_ref())?)
                    }
                };
                // Boxed: minting or fetching a token (an HTTP exchange) would otherwise grow
                // the future of every call, minted or not (BENCHMARKS.md § 3).
                if let Some((name, value, generation)) = Box::pin(auth.minted_header(
                    self.spec.name,
                    request.op.name,
                    &self.http,
                    timeout.0,
                ))
                .await?
                {
                    sent_token = generation;
                    parts.headers.insert(name, value);
                }
                // The attempt's own time starts once its token is there.
                now = Instant::now();
            }
            // The attempt is awaited here, not in a nested `async fn`, and its future is built
            // where it is awaited, not bound first: each nesting or binding is one more copy of
            // the whole future (see BENCHMARKS.md § 3). (Its own statement for the request:
            // a `?` inside the awaited expression would keep its temporary across the wait.)
            // The body is read inside the timeout: a slow or endless body ends with the attempt.
            let http_request =
                self.next_request(request, auth, &mut first_parts, idempotency_key.as_ref())?;
            let span = tracing::debug_span!("attempt", attempt, status = Empty);
            let answer = if span.is_disabled() {
                self.log_sending(request, auth);
                tokio::time::timeout_at(
                    tokio::time::Instant::from_std(now + timeout.0),
                    send(&self.http, http_request, limits),
                )
                .await
            } else {
                // Nothing of the attempt's is borrowed by a closure: a borrowed value would be
                // kept in the call's future across the wait.
                span.in_scope(|| self.log_sending(request, auth));
                tokio::time::timeout_at(
                    tokio::time::Instant::from_std(now + timeout.0),
                    send(&self.http, http_request, limits),
                )
                .instrument(span.clone())
                .await
            };
            // The answer is classified (and the rate limiter told) before the slot is
            // released, as the attempt has only finished then. A shared limiter's release is
            // awaited with the outcome moved into it rather than bound here across the wait.
            let outcome = match permit.release_now() {
                None => self.attempt_outcome(request.op, answer, timeout, policy, limits, &span),
                // Boxed: a shared limiter only, whose release is a round trip anyway.
                Some(release) => {
                    let outcome =
                        self.attempt_outcome(request.op, answer, timeout, policy, limits, &span);
                    Box::pin(after(release, outcome)).await
                }
            };
            // `{ outcome }` moves it whole: matching the binding itself would leave it held
            // (partly moved) across the backoff's wait below.
            #[allow(clippy::blocks_in_conditions)] // the block is the point: see above
            let failure = match { outcome } {
                Ok(response) => return Ok(response),
                Err(failure) => failure,
            };

            // A 401 with an OAuth2 token: the token was revoked or expired early. Forget it
            // and try once more at once with a new one, whatever the retry policy says (the
            // server refused before doing anything).
            if let Some(tokens) = auth.oauth2()
                && sent_token != 0
                && !token_refreshed
                && failure.error.status() == Some(401)
            {
                token_refreshed = true;
                tracing::debug!(
                    attempt,
                    "the API refused the OAuth2 token (401): fetching a new one"
                );
                drop(failure);
                Box::pin(tokens.refused(std::mem::take(&mut sent_token))).await;
                continue;
            }
            let failed = Attempted {
                transience: failure.error.transience(),
                server_wait: failure.wait,
                reached_server: failure.reached_server,
                repeatable,
            };
            match policy.next(attempt, max_attempts, &failed, deadline, &self.budget) {
                Next::Retry(delay) => {
                    tracing::debug!(
                        attempt,
                        backoff_ms = millis(delay),
                        "retrying after backoff"
                    );
                    // Not needed any more: not kept in the future across the wait.
                    drop(failure);
                    tokio::time::sleep(delay).await;
                }
                Next::Stop(reason) => {
                    tracing::debug!("not retrying: {reason}");
                    let origin = self.origin(request, auth, options);
                    return Err(self.in_context(failure.error, &origin, attempt, Some(reason)));
                }
            }
        }
    }

    /// Validates the request and builds an attempt's URL (with a query credential, when that
    /// scheme is chosen) and headers (auth, the call's idempotency key).
    fn prepare(
        &self,
        request: &Request,
        auth: &ResolvedAuth,
        idempotency_key: Option<&(HeaderName, HeaderValue)>,
    ) -> Result<Prepared, Error> {
        let op = request.op;
        // `Request::new` starts an operation that carries a body with `{}`, so only the
        // opposite mistake can happen.
        if !op.has_body && request.body.is_some() {
            return Err(Error::invalid_request(
                "body",
                format!("`{}` takes no request body", op.name),
            ));
        }
        let mut url = self.base.clone();
        let mut path = String::with_capacity(64);
        path.push_str(self.base.path().trim_end_matches('/'));
        match &request.path_override {
            // The next page's URL, already checked to lie under the base URL.
            Some(rest) => path.push_str(rest),
            None => render_path(op.path, &request.path_params, &mut path)?,
        }
        url.set_path(&path);
        if !request.query.is_empty() {
            url.query_pairs_mut().extend_pairs(&request.query);
        }
        for part in auth.parts() {
            if let ResolvedAuth::Query { params } = part {
                let mut query = url.query_pairs_mut();
                for (param, value) in params.iter() {
                    query.append_pair(param, value.expose());
                }
            }
        }

        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        headers.insert(USER_AGENT, self.user_agent.clone());
        if request.body.is_some() {
            let content_type = HeaderValue::from_str(request.content_type())
                .map_err(|_| Error::invalid_request("body", "bad content type"))?;
            headers.insert(CONTENT_TYPE, content_type);
        }
        // Header parameters first, so auth and the idempotency key always win.
        for (name, value) in &request.headers {
            headers.append(name.clone(), value.clone());
        }
        for part in auth.parts() {
            if let ResolvedAuth::Header { name, value } = part {
                headers.insert(name.clone(), value.clone());
            }
        }
        if let Some((name, value)) = idempotency_key {
            headers.insert(name.clone(), value.clone());
        }
        Ok(Prepared { url, headers })
    }

    /// The request of the next attempt: the first attempt's parts, or built again (same key).
    fn next_request(
        &self,
        request: &Request,
        auth: &ResolvedAuth,
        first_parts: &mut Option<Prepared>,
        idempotency_key: Option<&(HeaderName, HeaderValue)>,
    ) -> Result<reqwest::Request, Error> {
        let parts = match first_parts.take() {
            Some(parts) => parts,
            None => self.prepare(request, auth, idempotency_key)?,
        };
        attempt_request(request, auth, parts)
    }

    fn log_sending(&self, request: &Request, auth: &ResolvedAuth) {
        tracing::debug!(
            method = %request.op.method,
            path = request.op.path,
            auth = auth.scheme_name(),
            "sending request"
        );
    }

    /// Classifies one attempt's answer, inside the attempt's span `span`: a [`Response`], or
    /// the [`Failure`] the retry policy weighs. Also tells the rate limiter what the server
    /// said.
    fn attempt_outcome(
        &self,
        op: &'static OperationSpec,
        answer: Result<Result<RawResponse, reqwest::Error>, tokio::time::error::Elapsed>,
        timeout: (Duration, TimeoutKind),
        policy: &RetryPolicy,
        limits: BodyLimits,
        span: &tracing::Span,
    ) -> Result<Response, Failure> {
        span.in_scope(|| self.classify(op, answer, timeout, policy, limits, span))
    }

    fn classify(
        &self,
        op: &'static OperationSpec,
        answer: Result<Result<RawResponse, reqwest::Error>, tokio::time::error::Elapsed>,
        (timeout, timeout_kind): (Duration, TimeoutKind),
        policy: &RetryPolicy,
        limits: BodyLimits,
        span: &tracing::Span,
    ) -> Result<Response, Failure> {
        let failure = match answer {
            Err(_elapsed) => Failure {
                error: Error::Timeout {
                    kind: timeout_kind,
                    after: timeout,
                    context: None,
                },
                wait: None,
                reached_server: true,
            },
            Ok(Err(err)) => {
                let connect = err.is_connect();
                let error = if connect && err.is_timeout() {
                    Error::Timeout {
                        kind: TimeoutKind::Connect,
                        after: self.timeouts.connect,
                        context: None,
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
                span.record("status", raw.status);
                tracing::debug!("response received");
                let wait = if raw.is_success() {
                    None
                } else {
                    server_wait(&raw.headers, &self.spec.rate_limit_headers)
                };
                self.limiter
                    .observe(raw.status, &raw.headers, wait, policy.retry_after_cap);
                match raw.into_response(self.spec.name, op, limits.success, wait, &self.spec.errors)
                {
                    Ok(response) => return Ok(response),
                    Err(error) => Failure {
                        error,
                        wait,
                        reached_server: true,
                    },
                }
            }
        };
        tracing::debug!(kind = ?failure.error.kind(), "attempt failed: {}", failure.error);
        Err(failure)
    }
}

/// Which call an error belongs to, as errors show it.
struct Origin<'a> {
    service: &'static str,
    operation: &'static str,
    method: crate::spec::Method,
    /// With `auth`, what the URL is built from again when an error shows it (not on every
    /// call: a call that succeeds never needs it).
    request: &'a Request,
    auth: &'a ResolvedAuth,
    /// The operation's own auth scheme, when it has one.
    op_auth: Option<crate::spec::AuthScheme>,
    /// The call's total timeout, when its deadline comes from one.
    total: Option<Duration>,
}

impl Pipeline {
    /// Which call `request` is, for an error's context; built only when an error needs it.
    fn origin<'a>(
        &self,
        request: &'a Request,
        auth: &'a ResolvedAuth,
        options: &CallOptions,
    ) -> Origin<'a> {
        Origin {
            service: self.spec.name,
            operation: request.op.name,
            method: request.op.method,
            request,
            auth,
            op_auth: request.op.auth,
            // A deadline timeout reports the configured total, not what was left of it.
            total: match (
                options.total_timeout.or(self.timeouts.total),
                options.deadline,
            ) {
                (Some(total), None) => Some(total),
                _ => None,
            },
        }
    }

    /// `error` with the call it ended (service, operation, method, URL, attempts, why it was
    /// not retried) and what to check ([`crate::error::advice`]), as its [`CallContext`]: every
    /// error a call's attempts end with carries one (API errors of every status, refused
    /// credentials, rate limits, timeouts, transport failures, an unreachable shared limiter).
    fn in_context(
        &self,
        mut error: Error,
        origin: &Origin<'_>,
        attempts: u32,
        stop: Option<StopReason>,
    ) -> Error {
        if error.context_slot().is_none() {
            return error;
        }
        // A deadline timeout reports the configured total, not what was left of it.
        if let (
            Error::Timeout {
                kind: TimeoutKind::Deadline,
                after,
                ..
            },
            Some(total),
        ) = (&mut error, origin.total)
        {
            *after = total;
        }
        // The attempt's URL with a query credential's value cut out (built as the first
        // attempt built it, which succeeded, so it builds again).
        let url = match self.prepare(origin.request, origin.auth, None) {
            Ok(prepared) => shown_url(&prepared.url, origin.auth),
            Err(_) => self.base.as_str().to_owned(),
        };
        // The credentials the call sent: its operation's own scheme's, or the client's.
        let op_credentials = origin.op_auth.map(|scheme| {
            crate::auth::required_credentials(&crate::auth::AuthChoice::Scheme(scheme), self.spec)
        });
        let facts = advice::CallFacts {
            spec: self.spec,
            operation: origin.operation,
            base: self.base.as_str().trim_end_matches('/'),
            credentials: op_credentials.as_deref().unwrap_or(&self.auth_credentials),
        };
        let context = CallContext {
            service: origin.service,
            operation: origin.operation,
            method: origin.method.to_string(),
            url,
            attempts,
            not_retried: stop
                .filter(|s| *s != StopReason::NotRetryable)
                .map(|s| s.to_string()),
            advice: advice::for_error(&error, &facts),
        };
        if let Some(slot) = error.context_slot() {
            *slot = Some(Box::new(context));
        }
        error
    }
}

/// `url` as errors may show it: the value of a query credential replaced by `***`.
fn shown_url(url: &url::Url, auth: &ResolvedAuth) -> String {
    let in_url = |param: &str| {
        auth.parts().iter().any(|part| match part {
            ResolvedAuth::Query { params } => params.iter().any(|(p, _)| *p == param),
            _ => false,
        })
    };
    if !auth
        .parts()
        .iter()
        .any(|part| matches!(part, ResolvedAuth::Query { .. }))
    {
        return url.as_str().to_owned();
    }
    let mut shown = url.clone();
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(k, v)| {
            let secret = in_url(&k);
            let v = if secret { "***".into() } else { v };
            (k.into_owned(), v.into_owned())
        })
        .collect();
    shown.query_pairs_mut().clear().extend_pairs(&pairs);
    shown.as_str().to_owned()
}

/// One attempt's HTTP request; a signing scheme signs it now, so each attempt is fresh.
fn attempt_request(
    request: &Request,
    auth: &ResolvedAuth,
    Prepared {
        mut url,
        mut headers,
    }: Prepared,
) -> Result<reqwest::Request, Error> {
    if let ResolvedAuth::Signer(signer) = auth {
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
    let mut http_request = reqwest::Request::new(crate::spec::http_method(request.op.method), url);
    *http_request.headers_mut() = headers;
    let body_auth = auth
        .parts()
        .iter()
        .find(|part| matches!(part, ResolvedAuth::Body { .. }));
    match (body_auth, &request.body) {
        (Some(ResolvedAuth::Body { fields }), Some(body)) => {
            // A form body takes the credentials as more pairs; anything else is JSON.
            let form = http_request
                .headers()
                .get(reqwest::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
            let body = crate::auth::body_with_credentials(body, form, fields)?;
            *http_request.body_mut() = Some(body.into());
        }
        (Some(ResolvedAuth::Body { fields }), None) => {
            let names: Vec<&str> = fields.iter().map(|(field, _)| *field).collect();
            return Err(Error::invalid_request(
                "body",
                format!(
                    "`{}` sends no body, and the auth scheme puts credentials in the body's `{}`",
                    request.op.name,
                    names.join("`, `")
                ),
            ));
        }
        (_, Some(body)) => *http_request.body_mut() = Some(body.clone().into()),
        (_, None) => {}
    }
    Ok(http_request)
}

/// `value` once `release` (a shared limiter's record of a finished attempt) is done.
async fn after<T>(release: crate::ratelimit::BoxFuture<'static, ()>, value: T) -> T {
    release.await;
    value
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
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
