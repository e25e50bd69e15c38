//! Client configuration: [`ClientBuilder`] (defaults from the [`ServiceSpec`], overridable per
//! client, filled from the environment by [`ClientBuilder::env`]), [`RetryPolicy`],
//! [`RateLimit`] and the per-call [`CallOptions`].

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::Error;
use crate::auth::{AuthChoice, ResolvedAuth};
use crate::http::{Client, Shared};
use crate::ratelimit::{Limiter, RateLimiter};
use crate::retry::RetryBudget;
use crate::secret::Secret;
use crate::sign::Signer;
use crate::spec::{
    AuthScheme, CredentialSpec, RateLimitSpec, ResponseLimitSpec, RetrySpec, ServiceSpec,
    TimeoutSpec,
};

/// The deadline of a whole call (retries and rate-limiter waits included) when the spec gives
/// none: 30 s. With the specs' 60 s attempt timeout, this is what ends a call to a server that
/// never answers (one attempt, 30 s, instead of 3 × 60 s). Change it with
/// [`ClientBuilder::total_timeout`] (`None` switches it off) or [`CallOptions::total_timeout`].
pub const DEFAULT_TOTAL_TIMEOUT: Duration = Duration::from_secs(30);

/// Timeouts in force for a client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Timeouts {
    pub(crate) connect: Duration,
    pub(crate) attempt: Duration,
    pub(crate) total: Option<Duration>,
}

impl From<&TimeoutSpec> for Timeouts {
    fn from(spec: &TimeoutSpec) -> Self {
        Timeouts {
            connect: Duration::from_millis(spec.connect_ms),
            attempt: Duration::from_millis(spec.attempt_ms),
            total: Some(
                spec.total_ms
                    .map_or(DEFAULT_TOTAL_TIMEOUT, Duration::from_millis),
            ),
        }
    }
}

/// Response body limits in force for a client, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BodyLimits {
    /// Largest successful body held.
    pub(crate) success: usize,
    /// Most of an error body read.
    pub(crate) error: usize,
}

impl From<&ResponseLimitSpec> for BodyLimits {
    fn from(spec: &ResponseLimitSpec) -> Self {
        let bytes = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        BodyLimits {
            success: bytes(spec.max_body_bytes),
            error: bytes(spec.max_error_body_bytes),
        }
    }
}

/// How failed attempts are retried. Starts from the service's [`RetrySpec`].
///
/// ```
/// use comms_runtime::{RetryPolicy, RetrySpec};
/// use std::time::Duration;
/// let policy = RetryPolicy::from_spec(&RetrySpec::DEFAULT)
///     .max_attempts(5)
///     .backoff(Duration::from_millis(100), Duration::from_secs(2));
/// assert_eq!(policy.attempts(), 5);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    pub(crate) max_attempts: u32,
    pub(crate) base: Duration,
    pub(crate) cap: Duration,
    pub(crate) statuses: Cow<'static, [u16]>,
    pub(crate) connect_errors: bool,
    pub(crate) timeouts: bool,
    pub(crate) retry_after_cap: Duration,
    pub(crate) budget_ratio_percent: u32,
}

impl RetryPolicy {
    /// The policy a spec describes.
    pub fn from_spec(spec: &RetrySpec) -> Self {
        RetryPolicy {
            max_attempts: spec.max_attempts.max(1),
            base: Duration::from_millis(spec.base_ms),
            cap: Duration::from_millis(spec.cap_ms),
            statuses: Cow::Borrowed(spec.statuses),
            connect_errors: spec.connect_errors,
            timeouts: spec.timeouts,
            retry_after_cap: Duration::from_millis(spec.retry_after_cap_ms),
            budget_ratio_percent: spec.budget_ratio_percent,
        }
    }

    /// A policy that never retries.
    pub fn none() -> Self {
        RetryPolicy::from_spec(&RetrySpec::DEFAULT).max_attempts(1)
    }

    /// Total attempts, including the first (at least 1).
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// Backoff base and cap: the n-th retry waits `rand[0,1) × min(cap, base × 2^n)`.
    pub fn backoff(mut self, base: Duration, cap: Duration) -> Self {
        self.base = base;
        self.cap = cap;
        self
    }

    /// Upper bound on a server-requested wait (`Retry-After`, `retry-after-ms`).
    pub fn retry_after_cap(mut self, cap: Duration) -> Self {
        self.retry_after_cap = cap;
        self
    }

    /// The HTTP statuses that are retried.
    pub fn statuses(mut self, statuses: impl Into<Vec<u16>>) -> Self {
        self.statuses = Cow::Owned(statuses.into());
        self
    }

    /// Whether connection failures are retried.
    pub fn connect_errors(mut self, retry: bool) -> Self {
        self.connect_errors = retry;
        self
    }

    /// Whether timed-out attempts are retried.
    pub fn timeouts(mut self, retry: bool) -> Self {
        self.timeouts = retry;
        self
    }

    /// Retry budget: each call earns this percentage of one retry; 0 turns the budget off.
    pub fn budget_ratio_percent(mut self, percent: u32) -> Self {
        self.budget_ratio_percent = percent;
        self
    }

    /// Total attempts in force.
    pub fn attempts(&self) -> u32 {
        self.max_attempts
    }
}

/// A client-side request rate: at most `requests` in any window of `per`.
///
/// ```
/// use comms_runtime::RateLimit;
/// let plan = RateLimit::per_minute(3000);
/// assert_eq!(plan.requests(), 3000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    requests: u32,
    per: Duration,
}

impl RateLimit {
    /// `requests` per `per` (both clamped to at least 1 and 1 ms).
    pub fn new(requests: u32, per: Duration) -> Self {
        RateLimit {
            requests: requests.max(1),
            per: per.max(Duration::from_millis(1)),
        }
    }

    /// `requests` per second.
    pub fn per_second(requests: u32) -> Self {
        RateLimit::new(requests, Duration::from_secs(1))
    }

    /// `requests` per minute.
    pub fn per_minute(requests: u32) -> Self {
        RateLimit::new(requests, Duration::from_secs(60))
    }

    /// Requests per window.
    pub fn requests(&self) -> u32 {
        self.requests
    }

    /// Window length.
    pub fn per(&self) -> Duration {
        self.per
    }
}

impl From<RateLimitSpec> for RateLimit {
    fn from(spec: RateLimitSpec) -> Self {
        RateLimit::new(
            spec.requests,
            Duration::from_secs(u64::from(spec.per_seconds)),
        )
    }
}

/// Per-call overrides, applied with [`Client::with_options`].
///
/// ```no_run
/// # async fn demo(client: comms_runtime::Client, request: comms_runtime::Request) -> Result<(), comms_runtime::Error> {
/// use comms_runtime::CallOptions;
/// use std::time::Duration;
/// let response = client
///     .with_options(
///         CallOptions::new()
///             .attempt_timeout(Duration::from_secs(5))
///             .total_timeout(Duration::from_secs(20))
///             .idempotency_key("order-1234-receipt"),
///     )
///     .execute(request)
///     .await?;
/// # let _ = response; Ok(()) }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallOptions {
    pub(crate) attempt_timeout: Option<Duration>,
    pub(crate) total_timeout: Option<Duration>,
    pub(crate) deadline: Option<Instant>,
    pub(crate) idempotency_key: Option<String>,
    pub(crate) max_attempts: Option<u32>,
    pub(crate) retry: Option<RetryPolicy>,
    pub(crate) max_response_bytes: Option<usize>,
    pub(crate) max_error_body_bytes: Option<usize>,
}

impl CallOptions {
    /// No overrides.
    pub fn new() -> Self {
        CallOptions::default()
    }

    /// Per-attempt timeout. (The connect timeout belongs to the connection pool and is set on
    /// the client: [`ClientBuilder::connect_timeout`].)
    pub fn attempt_timeout(mut self, timeout: Duration) -> Self {
        self.attempt_timeout = Some(timeout);
        self
    }

    /// Deadline for the whole call, retries included, counted from the start of each call.
    pub fn total_timeout(mut self, timeout: Duration) -> Self {
        self.total_timeout = Some(timeout);
        self
    }

    /// An absolute deadline (the earlier of this and the total timeout wins).
    pub fn deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// The idempotency key to send (instead of a generated UUID v4) on operations that carry one.
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }

    /// Total attempts, including the first.
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = Some(attempts.max(1));
        self
    }

    /// A whole retry policy for these calls.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = Some(policy);
        self
    }

    /// Largest successful body these calls accept, in bytes (the client's is
    /// [`ClientBuilder::max_response_bytes`]); a larger one is an [`Error::ResponseTooLarge`].
    pub fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.max_response_bytes = Some(bytes);
        self
    }

    /// How much of an error answer's body these calls read, in bytes (the client's is
    /// [`ClientBuilder::max_error_body_bytes`]).
    pub fn max_error_body_bytes(mut self, bytes: usize) -> Self {
        self.max_error_body_bytes = Some(bytes);
        self
    }

    /// `self` with every option `over` sets replaced by `over`'s.
    pub(crate) fn merged(mut self, over: CallOptions) -> CallOptions {
        self.attempt_timeout = over.attempt_timeout.or(self.attempt_timeout);
        self.total_timeout = over.total_timeout.or(self.total_timeout);
        self.deadline = over.deadline.or(self.deadline);
        self.idempotency_key = over.idempotency_key.or(self.idempotency_key);
        self.max_attempts = over.max_attempts.or(self.max_attempts);
        self.retry = over.retry.or(self.retry);
        self.max_response_bytes = over.max_response_bytes.or(self.max_response_bytes);
        self.max_error_body_bytes = over.max_error_body_bytes.or(self.max_error_body_bytes);
        self
    }
}

/// Builds a [`Client`]. Every default comes from the [`ServiceSpec`].
///
/// ```
/// # use comms_runtime::*;
/// # static SPEC: ServiceSpec = ServiceSpec { name: "email", title: "Email", base_url: None,
/// #   base_url_env: "COMMS_EMAIL_BASE_URL",
/// #   credentials: &[CredentialSpec { name: "api_key", env: "COMMS_EMAIL_API_KEY", secret: true }],
/// #   auth: &[AuthScheme::Bearer { credential: "api_key" }], rate_limit: None,
/// #   rate_limit_headers: RateLimitHeaders::STANDARD, retry: RetrySpec::DEFAULT,
/// #   timeouts: TimeoutSpec::DEFAULT, idempotency: None };
/// use std::time::Duration;
/// # #[cfg(feature = "tls")] {
/// let client = Client::builder(&SPEC)
///     .base_url("https://api.example.com")
///     .api_key("sk_test_123")
///     .attempt_timeout(Duration::from_secs(10))
///     .rate_limit(Some(RateLimit::per_minute(3000)))
///     .build()?;
/// assert!(!format!("{client:?}").contains("sk_test_123"));
/// # }
/// # Ok::<(), Error>(())
/// ```
///
/// The type parameter is what [`ClientBuilder::build`] returns: a [`Client`], or a generated
/// service client (`EmailClient::builder()` builds an `EmailClient`).
pub struct ClientBuilder<C = Client> {
    client: std::marker::PhantomData<fn() -> C>,
    spec: &'static ServiceSpec,
    base_url: Option<String>,
    credentials: Vec<(String, Secret)>,
    auth: AuthChoice,
    http: Option<reqwest::Client>,
    timeouts: Timeouts,
    limits: BodyLimits,
    retry: RetryPolicy,
    rate_limit: Option<RateLimit>,
    limiter: Option<Arc<dyn Limiter>>,
    user_agent: Option<String>,
}

impl<C> fmt::Debug for ClientBuilder<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("service", &self.spec.name)
            .field("base_url", &self.base_url)
            .field(
                "credentials",
                &self
                    .credentials
                    .iter()
                    .map(|(name, _)| name)
                    .collect::<Vec<_>>(),
            )
            .field("auth", &self.auth)
            .field("timeouts", &self.timeouts)
            .field("limits", &self.limits)
            .field("retry", &self.retry)
            .field("rate_limit", &self.rate_limit)
            .field("limiter", &self.limiter)
            .finish_non_exhaustive()
    }
}

impl ClientBuilder<Client> {
    /// A builder of a plain [`Client`] with the defaults of `spec`.
    pub fn new(spec: &'static ServiceSpec) -> Self {
        ClientBuilder::for_service(spec)
    }
}

impl<C: From<Client>> ClientBuilder<C> {
    /// A builder with the defaults of `spec` that builds a `C`: what a generated client's
    /// `builder()` returns.
    pub fn for_service(spec: &'static ServiceSpec) -> Self {
        ClientBuilder {
            client: std::marker::PhantomData,
            spec,
            base_url: None,
            credentials: Vec::new(),
            auth: AuthChoice::Default,
            http: None,
            timeouts: Timeouts::from(&spec.timeouts),
            // Not in the spec yet: every service starts from the runtime's defaults.
            limits: BodyLimits::from(&ResponseLimitSpec::DEFAULT),
            retry: RetryPolicy::from_spec(&spec.retry),
            rate_limit: spec.rate_limit.map(RateLimit::from),
            limiter: None,
            user_agent: None,
        }
    }

    /// The base URL, e.g. `https://api.example.com` (required when the spec has none).
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// Sets a credential by its spec name (e.g. `"api_key"`, `"app_id"`).
    pub fn credential(mut self, name: &str, value: impl Into<Secret>) -> Self {
        self.credentials.retain(|(n, _)| n != name);
        self.credentials.push((name.to_owned(), value.into()));
        self
    }

    /// Sets the service's first secret credential (its API key).
    pub fn api_key(self, value: impl Into<Secret>) -> Self {
        match self.spec.credentials.iter().find(|c| c.secret) {
            Some(c) => self.credential(c.name, value),
            None => self.credential("api_key", value),
        }
    }

    /// Uses the caller's own `reqwest::Client` (its pool, proxy and TLS settings). The builder's
    /// connect timeout then does not apply: set it on that client.
    pub fn http_client(mut self, client: reqwest::Client) -> Self {
        self.http = Some(client);
        self
    }

    /// Connect timeout of the default HTTP client.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.timeouts.connect = timeout;
        self
    }

    /// Per-attempt timeout: sending the request and reading the whole response.
    pub fn attempt_timeout(mut self, timeout: Duration) -> Self {
        self.timeouts.attempt = timeout;
        self
    }

    /// Deadline for each whole call, retries and rate-limiter waits included. The default is
    /// the spec's, else [`DEFAULT_TOTAL_TIMEOUT`] (30 s); `None` switches the deadline off, so
    /// a call to a server that never answers then takes up to attempts × attempt timeout.
    pub fn total_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeouts.total = timeout;
        self
    }

    /// Largest body of a successful answer the client accepts, in bytes (default 16 MiB,
    /// [`ResponseLimitSpec::DEFAULT`]). The body is read chunk by chunk and never held past
    /// this; a larger one, or a `Content-Length` over it (refused before reading), is an
    /// [`Error::ResponseTooLarge`]. Per call: [`CallOptions::max_response_bytes`].
    pub fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.limits.success = bytes;
        self
    }

    /// How much of an error answer's body the client reads, in bytes (default 64 KiB,
    /// [`ResponseLimitSpec::DEFAULT`]). The rest is left unread; the error keeps what was read
    /// and says it was cut ([`crate::ApiError::body_truncated`]). Per call:
    /// [`CallOptions::max_error_body_bytes`].
    pub fn max_error_body_bytes(mut self, bytes: usize) -> Self {
        self.limits.error = bytes;
        self
    }

    /// Replaces the retry policy.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Total attempts, including the first.
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.retry = self.retry.max_attempts(attempts);
        self
    }

    /// The client-side rate limit: the caller's plan, or `None` to switch limiting off.
    pub fn rate_limit(mut self, limit: Option<RateLimit>) -> Self {
        self.rate_limit = limit;
        self
    }

    /// Where the rate limit's slots live: a shared [`Limiter`] such as
    /// `ratelimit::redis::RedisLimiter` (feature `redis`), so every process sending with the
    /// same credential shares one budget. Default: this process
    /// ([`crate::ratelimit::LocalLimiter`]).
    pub fn limiter(mut self, limiter: Arc<dyn Limiter>) -> Self {
        self.limiter = Some(limiter);
        self
    }

    /// Authenticates with this scheme instead of the spec's default. Passing an
    /// [`AuthScheme::Query`] is how a caller opts into sending the key in the URL.
    pub fn auth_scheme(mut self, scheme: AuthScheme) -> Self {
        self.auth = AuthChoice::Scheme(scheme);
        self
    }

    /// Opts into the spec's query-parameter scheme (the key goes into the URL, where proxies
    /// and servers may log it; prefer the header).
    pub fn query_auth(mut self) -> Self {
        self.auth = AuthChoice::Query;
        self
    }

    /// Signs every attempt with a custom [`Signer`].
    pub fn signer(mut self, signer: Arc<dyn Signer>) -> Self {
        self.auth = AuthChoice::Signer(signer);
        self
    }

    /// Sends no credentials at all.
    pub fn no_auth(mut self) -> Self {
        self.auth = AuthChoice::None;
        self
    }

    /// The `User-Agent` header.
    pub fn user_agent(mut self, agent: impl Into<String>) -> Self {
        self.user_agent = Some(agent.into());
        self
    }

    /// Fills what is not set yet from the environment variables the spec names: the base URL
    /// from `base_url_env`, each credential from its `env`. Empty variables count as unset.
    pub fn env(self) -> Self {
        self.env_with(|name| std::env::var(name).ok())
    }

    /// [`ClientBuilder::env`] with a custom lookup (for tests and config files).
    pub fn env_with(mut self, lookup: impl Fn(&str) -> Option<String>) -> Self {
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        if self.base_url.is_none() {
            self.base_url = get(self.spec.base_url_env);
        }
        for cred in self.spec.credentials {
            if self.credentials.iter().any(|(n, _)| n == cred.name) {
                continue;
            }
            if let Some(value) = get(cred.env) {
                self.credentials
                    .push((cred.name.to_owned(), Secret::new(value)));
            }
        }
        self
    }

    /// Validates the configuration and builds the client.
    ///
    /// Fails with [`Error::Config`] for a missing or malformed base URL, an unknown credential
    /// name, a credential the auth scheme needs but nobody set (naming its environment
    /// variable), or an HTTP client that cannot be built. Without the crate's `tls` feature, an
    /// `https` base URL is a configuration error too, unless [`ClientBuilder::http_client`]
    /// supplies a client (whose TLS support is then the caller's business).
    pub fn build(self) -> Result<C, Error> {
        self.build_client().map(C::from)
    }

    fn build_client(self) -> Result<Client, Error> {
        let spec = self.spec;
        let (base_url, base) = match self.base_url.as_deref().or(spec.base_url) {
            Some(url) => validate_base_url(url)?,
            None => {
                return Err(Error::config(format!(
                    "no base URL for the {} service: call base_url() or set {}",
                    spec.name, spec.base_url_env
                )));
            }
        };
        let mut credentials: Vec<(&'static CredentialSpec, Secret)> = Vec::new();
        for (name, value) in self.credentials {
            let Some(cred) = spec.credentials.iter().find(|c| c.name == name) else {
                return Err(Error::config(format!(
                    "unknown credential `{name}` for the {} service (known: {})",
                    spec.name,
                    spec.credentials
                        .iter()
                        .map(|c| c.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            };
            credentials.push((cred, value));
        }
        let auth = ResolvedAuth::resolve(self.auth, spec, &credentials)?;
        #[cfg(not(feature = "tls"))]
        if self.http.is_none() && base.scheme() == "https" {
            return Err(Error::tls_not_compiled_in("an https base URL"));
        }
        let http = match self.http {
            Some(http) => http,
            None => reqwest::Client::builder()
                .connect_timeout(self.timeouts.connect)
                // Redirects would replay credentials to wherever the server points.
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(|e| {
                    Error::config(format!("cannot build the HTTP client: {}", e.without_url()))
                })?,
        };
        let user_agent = self
            .user_agent
            .unwrap_or_else(|| concat!("comms-runtime/", env!("CARGO_PKG_VERSION")).to_owned());
        let user_agent = reqwest::header::HeaderValue::from_str(&user_agent)
            .map_err(|_| Error::config("user agent is not a valid header value"))?;
        let budget = RetryBudget::new(self.retry.budget_ratio_percent);
        let limiter = RateLimiter::with(
            self.rate_limit,
            &spec.rate_limit_headers,
            spec.name,
            // The account is the first secret credential (the API key, the app secret).
            credentials
                .iter()
                .find(|(c, _)| c.secret)
                .map_or("", |(_, value)| value.expose()),
            self.limiter,
        );
        Ok(Client::from_shared(Shared {
            spec,
            http,
            base_url,
            base,
            credentials,
            auth,
            timeouts: self.timeouts,
            limits: self.limits,
            retry: self.retry,
            limiter,
            budget,
            user_agent,
        }))
    }
}

/// Checks a base URL and returns it without a trailing slash.
fn validate_base_url(raw: &str) -> Result<(String, url::Url), Error> {
    let url = url::Url::parse(raw.trim())
        .map_err(|e| Error::config(format!("base URL is not a valid URL ({e})")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Error::config(
            "base URL must start with http:// or https://",
        ));
    }
    if url.password().is_some() || !url.username().is_empty() {
        return Err(Error::config(
            "base URL must not carry user credentials; use credential()",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(Error::config("base URL must not have a query or fragment"));
    }
    Ok((url.as_str().trim_end_matches('/').to_owned(), url))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use crate::spec::*;

    static SPEC: ServiceSpec = ServiceSpec {
        name: "email",
        title: "Email",
        base_url: None,
        base_url_env: "COMMS_EMAIL_BASE_URL",
        credentials: &[CredentialSpec {
            name: "api_key",
            env: "COMMS_EMAIL_API_KEY",
            secret: true,
        }],
        auth: &[
            AuthScheme::Bearer {
                credential: "api_key",
            },
            AuthScheme::Query {
                param: "api_key",
                credential: "api_key",
            },
        ],
        rate_limit: Some(RateLimitSpec {
            requests: 1000,
            per_seconds: 60,
        }),
        rate_limit_headers: RateLimitHeaders::STANDARD,
        retry: RetrySpec::DEFAULT,
        timeouts: TimeoutSpec::DEFAULT,
        idempotency: None,
    };

    #[test]
    fn env_fills_base_url_and_key() {
        let client = ClientBuilder::new(&SPEC)
            .env_with(|name| match name {
                "COMMS_EMAIL_BASE_URL" => Some("http://127.0.0.1:9/".to_owned()),
                "COMMS_EMAIL_API_KEY" => Some("sk_env".to_owned()),
                _ => None,
            })
            .build()
            .expect("builds");
        assert_eq!(client.base_url(), "http://127.0.0.1:9");
    }

    #[test]
    fn missing_base_url_names_the_env_var() {
        let err = ClientBuilder::new(&SPEC)
            .env_with(|_| None)
            .build()
            .expect_err("fails");
        assert_eq!(err.kind(), ErrorKind::Config);
        assert!(err.to_string().contains("COMMS_EMAIL_BASE_URL"), "{err}");
    }

    #[test]
    fn explicit_base_url_after_env_wins() {
        ClientBuilder::new(&SPEC)
            .env_with(|_| None)
            .base_url("http://127.0.0.1:9")
            .api_key("k")
            .build()
            .expect("builds");
    }

    #[test]
    fn missing_credential_names_the_env_var() {
        let err = ClientBuilder::new(&SPEC)
            .base_url("http://127.0.0.1:9")
            .build()
            .expect_err("fails");
        assert_eq!(err.kind(), ErrorKind::Config);
        assert!(err.to_string().contains("COMMS_EMAIL_API_KEY"), "{err}");
    }

    #[test]
    fn unknown_credential_is_rejected() {
        let err = ClientBuilder::new(&SPEC)
            .base_url("http://127.0.0.1:9")
            .credential("apikey", "x")
            .build()
            .expect_err("fails");
        assert!(err.to_string().contains("apikey"), "{err}");
    }

    #[test]
    fn base_url_with_userinfo_is_rejected() {
        let err = ClientBuilder::new(&SPEC)
            .base_url("http://user:pw@127.0.0.1:9")
            .api_key("k")
            .build()
            .expect_err("fails");
        assert!(!err.to_string().contains("pw"));
    }

    #[test]
    fn call_options_merge_prefers_the_newer() {
        let a = CallOptions::new()
            .max_attempts(2)
            .idempotency_key("a")
            .max_response_bytes(10);
        let b = CallOptions::new()
            .idempotency_key("b")
            .max_error_body_bytes(20);
        let m = a.merged(b);
        assert_eq!(m.max_attempts, Some(2));
        assert_eq!(m.idempotency_key.as_deref(), Some("b"));
        assert_eq!(m.max_response_bytes, Some(10));
        assert_eq!(m.max_error_body_bytes, Some(20));
    }

    #[test]
    fn a_spec_without_a_total_deadline_gets_the_runtime_default() {
        let builder = ClientBuilder::new(&SPEC);
        assert_eq!(SPEC.timeouts.total_ms, None);
        assert_eq!(builder.timeouts.total, Some(DEFAULT_TOTAL_TIMEOUT));
        assert_eq!(DEFAULT_TOTAL_TIMEOUT, Duration::from_secs(30));
        let own = TimeoutSpec {
            total_ms: Some(90_000),
            ..TimeoutSpec::DEFAULT
        };
        assert_eq!(Timeouts::from(&own).total, Some(Duration::from_secs(90)));
        // Only the caller can switch it off.
        let off = ClientBuilder::new(&SPEC).total_timeout(None);
        assert_eq!(off.timeouts.total, None);
    }

    #[test]
    fn body_limits_default_to_16_mib_and_64_kib_and_can_be_changed() {
        let builder = ClientBuilder::new(&SPEC);
        assert_eq!(builder.limits.success, 16 * 1024 * 1024);
        assert_eq!(builder.limits.error, 64 * 1024);
        let builder = builder.max_response_bytes(1).max_error_body_bytes(2);
        assert_eq!(
            builder.limits,
            BodyLimits {
                success: 1,
                error: 2
            }
        );
    }
}
