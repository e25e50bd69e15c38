//! [`Client`] and its [`ClientBuilder`], together: the builder validates the configuration
//! (base URL, credentials, auth) and assembles the pieces a call needs; the client resolves
//! the call's auth and hands each request to the attempt [`Pipeline`].

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tracing::Instrument;
use tracing::field::Empty;

use crate::Error;
use crate::auth::{
    AuthChoice, AuthState, Minters, ResolvedAuth, TokenMinter, required_credentials, sends_a_secret,
};
use crate::base_url::{
    BaseUrlSource, plain_http_env, refuse_plain_http, shown_url, validate_base_url,
};
use crate::options::{BodyLimits, CallOptions, NO_OPTIONS, Timeouts};
use crate::pipeline::Pipeline;
use crate::ratelimit::{Limiter, RateLimit, RateLimiter};
use crate::request::Request;
use crate::response::Response;
use crate::retry::{RetryBudget, RetryPolicy};
use crate::secret::Secret;
use crate::sign::Signer;
use crate::spec::{AuthScheme, CredentialSpec, OperationSpec, ResponseLimitSpec, ServiceSpec};

/// A service client. Cheap to clone: clones share the connection pool, the rate limiter and the
/// retry budget.
///
/// ```no_run
/// # use tidings_runtime::*;
/// # use tidings_runtime::spec::*;
/// # static SPEC: ServiceSpec = ServiceSpec { name: "email", title: "Email", base_url: None,
/// #   base_url_env: "COMMS_EMAIL_BASE_URL",
/// #   credentials: &[CredentialSpec { name: "api_key", env: "COMMS_EMAIL_API_KEY", secret: true, value: None }],
/// #   auth: &[AuthScheme::Bearer { credential: "api_key" }], rate_limit: None,
/// #   rate_limit_headers: RateLimitHeaders::STANDARD, retry: RetrySpec::DEFAULT,
/// #   timeouts: TimeoutSpec::DEFAULT, idempotency: None,
/// #   errors: ErrorSpec::DEFAULT };
/// static GET_EMAIL: OperationSpec = OperationSpec::get("get_email", "/v1/emails/{id}");
///
/// # async fn demo() -> Result<(), Error> {
/// let client = Client::from_env(&SPEC)?;
/// let request = tidings_runtime::Request::new(&GET_EMAIL).path_param("id", "em_123");
/// let email: serde_json::Value = client.execute(request).await?.json()?;
/// # let _ = email; Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    shared: Arc<Shared>,
    options: Option<Arc<CallOptions>>,
}

/// What a client's clones share: the attempt pipeline, and what only the client knows (its
/// credentials, its resolved auth).
pub(crate) struct Shared {
    pub(crate) pipeline: Pipeline,
    pub(crate) base_url: String,
    pub(crate) credentials: Vec<(&'static CredentialSpec, Secret)>,
    pub(crate) auth: ResolvedAuth,
    /// Token minters by name and OAuth2 token caches, for the client's scheme and for
    /// operations that name a scheme of their own (clones share the caches).
    pub(crate) auth_state: AuthState,
}

impl fmt::Debug for Client {
    // Never prints credential values; only which ones are set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &*self.shared;
        let p = &s.pipeline;
        f.debug_struct("Client")
            .field("service", &p.spec.name)
            .field("base_url", &s.base_url)
            .field(
                "credentials",
                &s.credentials
                    .iter()
                    .map(|(c, _)| c.name)
                    .collect::<Vec<_>>(),
            )
            .field("auth", &s.auth)
            .field("timeouts", &p.timeouts)
            .field("limits", &p.limits)
            .field("retry", &p.retry)
            .field("rate_limiter", &p.limiter.is_enabled())
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
        self.shared.pipeline.spec
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
    /// [`RetryClass`](crate::spec::RetryClass) allow, and classifies the answer. Non-2xx answers become errors.
    ///
    /// Each attempt's timeout covers reading the whole body, which is streamed and held only up
    /// to its limit: 16 MiB for a successful answer (else [`Error::ResponseTooLarge`], and a
    /// larger `Content-Length` is refused before reading), 64 KiB of an error answer (the rest
    /// is not read). See [`ClientBuilder::max_response_bytes`]. The whole call ends by its
    /// deadline, 30 s by default ([`ClientBuilder::total_timeout`]).
    ///
    /// Runs inside a `tidings.request` tracing span (service, operation, attempts, status,
    /// request id), with one `attempt` span per attempt. Neither carries a credential, a
    /// query string or an auth header value.
    pub fn execute(
        &self,
        request: Request,
    ) -> impl Future<Output = Result<Response, Error>> + Send + '_ {
        execute(self, request)
    }

    /// The auth of an operation that names its own scheme, resolved from the client's
    /// credentials; `None` when the operation uses the client's.
    /// (Boxed: it is rare, and a call's future holds it while the call runs.)
    fn operation_auth(&self, op: &OperationSpec) -> Result<Option<Box<ResolvedAuth>>, Error> {
        match op.auth {
            Some(scheme) => ResolvedAuth::resolve(
                AuthChoice::Scheme(scheme),
                self.shared.pipeline.spec,
                &self.shared.credentials,
                &self.shared.auth_state,
            )
            .map(|auth| Some(Box::new(auth))),
            None => Ok(None),
        }
    }
}

/// [`Client::execute`], for a borrowed or an owned client (a [`crate::Call`] owns its clone).
/// One `async fn` from the span to the attempt loop: each nested level would copy the whole
/// future once more when built.
#[allow(clippy::manual_async_fn)] // an async fn would keep the arguments twice (see below)
pub(crate) fn execute<C: std::borrow::Borrow<Client> + Send>(
    client: C,
    request: Request,
) -> impl Future<Output = Result<Response, Error>> + Send {
    // An `async` block rather than an `async fn`: the block keeps `client` and `request` once,
    // where a function's future keeps its arguments and their moved copies.
    async move {
        let client = client.borrow();
        let shared = &*client.shared;
        let span = tracing::debug_span!(
            "tidings.request",
            service = shared.pipeline.spec.name,
            operation = request.op.name,
            attempts = Empty,
            status = Empty,
            request_id = Empty,
        );
        let mut attempts = 0;
        // Resolved once per call: an operation with its own scheme (the realtime seed GET)
        // gets it from the client's credentials; the others use the client's. (Its own
        // statement: a `match` on the call would keep its result across the wait.)
        let op_auth = match client.operation_auth(request.op) {
            Ok(op_auth) => op_auth,
            Err(error) => return record_call(&span, attempts, Err(error)),
        };
        let auth = op_auth.as_deref().unwrap_or(&shared.auth);
        let options = client.options.as_deref().unwrap_or(&NO_OPTIONS);
        // Built where it is awaited: binding it first would copy it once more.
        let result = if span.is_disabled() {
            shared
                .pipeline
                .run(&request, auth, options, &mut attempts)
                .await
        } else {
            shared
                .pipeline
                .run(&request, auth, options, &mut attempts)
                .instrument(span.clone())
                .await
        };
        record_call(&span, attempts, result)
    }
}

/// Writes a finished call's attempts, status and request id into its `tidings.request` span,
/// with the closing event (when the span is on), and returns the result.
fn record_call(
    span: &tracing::Span,
    attempts: u32,
    result: Result<Response, Error>,
) -> Result<Response, Error> {
    if span.is_disabled() {
        return result;
    }
    span.record("attempts", attempts);
    let (status, request_id) = match &result {
        Ok(response) => (Some(response.status()), response.request_id()),
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
    result
}

/// Builds a [`Client`]. Every default comes from the [`ServiceSpec`].
///
/// ```
/// # use tidings_runtime::*;
/// # use tidings_runtime::ratelimit::RateLimit;
/// # use tidings_runtime::spec::*;
/// # static SPEC: ServiceSpec = ServiceSpec { name: "email", title: "Email", base_url: None,
/// #   base_url_env: "COMMS_EMAIL_BASE_URL",
/// #   credentials: &[CredentialSpec { name: "api_key", env: "COMMS_EMAIL_API_KEY", secret: true, value: None }],
/// #   auth: &[AuthScheme::Bearer { credential: "api_key" }], rate_limit: None,
/// #   rate_limit_headers: RateLimitHeaders::STANDARD, retry: RetrySpec::DEFAULT,
/// #   timeouts: TimeoutSpec::DEFAULT, idempotency: None,
/// #   errors: ErrorSpec::DEFAULT };
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
    /// Whether `base_url` came from the environment (errors then name the variable).
    base_url_from_env: bool,
    credentials: Vec<(String, Secret)>,
    auth: AuthChoice,
    http: Option<reqwest::Client>,
    timeouts: Timeouts,
    limits: BodyLimits,
    retry: RetryPolicy,
    rate_limit: Option<RateLimit>,
    limiter: Option<Arc<dyn Limiter>>,
    user_agent: Option<String>,
    minters: Minters,
    allow_plain_http: bool,
}

impl<C> fmt::Debug for ClientBuilder<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("service", &self.spec.name)
            // As an error would show it: user info and any query cut out (they may hold
            // secrets, and the builder has not refused them yet).
            .field("base_url", &self.base_url.as_deref().map(shown_url))
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
            base_url_from_env: false,
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
            minters: Vec::new(),
            allow_plain_http: false,
        }
    }

    /// The base URL, e.g. `https://api.example.com` (required when the spec has none).
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self.base_url_from_env = false;
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
    /// the spec's, else [`DEFAULT_TOTAL_TIMEOUT`](crate::DEFAULT_TOTAL_TIMEOUT) (60 s); `None` switches the deadline off, so
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

    /// Authenticates with this scheme instead of the spec's default: the first scheme (not a
    /// query parameter) whose credentials are all set, else the first. Several schemes are
    /// alternatives, so setting only a Basic user name and password picks the Basic scheme of
    /// a service whose first scheme is an API key. Passing an [`AuthScheme::Query`] is how a
    /// caller opts into sending the key in the URL.
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

    /// Registers the [`TokenMinter`] that makes the tokens of the spec's minted auth scheme
    /// whose `minter` is `name` (e.g. `"jwt"`); it is asked once per attempt. Registering a
    /// name twice keeps the last minter.
    pub fn token_minter(mut self, name: impl Into<String>, minter: impl TokenMinter) -> Self {
        let name = name.into();
        self.minters.retain(|(n, _)| *n != name);
        self.minters.push((name, Arc::new(minter)));
        self
    }

    /// Sends no credentials at all.
    pub fn no_auth(mut self) -> Self {
        self.auth = AuthChoice::None;
        self
    }

    /// Lets the client send its credentials over plain `http://` to a host other than this
    /// machine (off by default: [`ClientBuilder::build`] refuses such a base URL, since the
    /// credentials would cross the network unencrypted). For a server on a private network,
    /// such as the sandbox in another container. Loopback (`127.0.0.1`, `[::1]`, `localhost`)
    /// needs nothing. The environment's way: [`plain_http_env`] set to `1`.
    ///
    /// ```
    /// # fn demo(spec: &'static tidings_runtime::spec::ServiceSpec) -> Result<(), tidings_runtime::Error> {
    /// let client = tidings_runtime::Client::builder(spec)
    ///     .base_url("http://sandbox:8025")
    ///     .api_key("sk_sandbox_0123")
    ///     .allow_plain_http(true)
    ///     .build()?;
    /// # Ok(()) }
    /// ```
    pub fn allow_plain_http(mut self, allow: bool) -> Self {
        self.allow_plain_http = allow;
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
            self.base_url_from_env = self.base_url.is_some();
        }
        if get(&plain_http_env(self.spec)).is_some_and(|v| matches!(v.trim(), "1" | "true" | "yes"))
        {
            self.allow_plain_http = true;
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

    fn build_client(mut self) -> Result<Client, Error> {
        let spec = self.spec;
        // A misspelt credential name first: it explains a missing credential.
        let mut credentials: Vec<(&'static CredentialSpec, Secret)> = Vec::new();
        for (name, value) in self.credentials {
            let Some(cred) = spec.credentials.iter().find(|c| c.name == name) else {
                return Err(Error::config(format!(
                    "unknown credential `{name}` for the {} service: use one of {}",
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
        // A value the provider fixes (Mailgun's Basic user name `api`), unless one was set.
        for cred in spec.credentials {
            if let Some(value) = cred.value
                && !credentials.iter().any(|(c, _)| c.name == cred.name)
            {
                credentials.push((cred, Secret::new(value.to_owned())));
            }
        }
        // Everything missing is reported at once, each with the variable that sets it.
        let mut missing = Vec::new();
        let raw_base = self.base_url.as_deref().or(spec.base_url);
        if raw_base.is_none() {
            missing.push(format!(
                "{} (its base URL, or call base_url())",
                spec.base_url_env
            ));
        }
        // Several schemes are alternatives (OpenAPI's `security: [{a}, {b}]`, Infobip's API
        // key or Basic): by default, the first non-query scheme whose credentials are all
        // set; when none is complete, the first, whose missing credentials are reported.
        if matches!(self.auth, AuthChoice::Default)
            && let Some(scheme) = AuthScheme::offered_alone(spec.auth).find(|s| {
                let needed = required_credentials(&AuthChoice::Scheme(**s), spec);
                !crate::auth::in_url(s)
                    && !needed.is_empty()
                    && needed
                        .iter()
                        .all(|n| credentials.iter().any(|(c, _)| c.name == *n))
            })
        {
            self.auth = AuthChoice::Scheme(*scheme);
        }
        let first_secret = spec.credentials.iter().find(|c| c.secret).map(|c| c.name);
        for name in required_credentials(&self.auth, spec) {
            if credentials.iter().any(|(c, _)| c.name == name) {
                continue;
            }
            // A credential the spec does not declare is the spec's mistake: resolving the
            // auth below says so.
            if let Some(cred) = spec.credentials.iter().find(|c| c.name == name) {
                let call = if first_secret == Some(name) {
                    "api_key(..)".to_owned()
                } else {
                    format!("credential(\"{name}\", ..)")
                };
                missing.push(format!(
                    "{} (credential `{name}`, or call {call})",
                    cred.env
                ));
            }
        }
        if !missing.is_empty() {
            return Err(Error::config(format!(
                "the {} service is not configured: set {}",
                spec.name,
                and_list(&missing)
            )));
        }
        let raw_base = raw_base.unwrap_or_default();
        let source = if self.base_url.is_none() {
            BaseUrlSource::Spec
        } else if self.base_url_from_env {
            BaseUrlSource::Env(spec.base_url_env)
        } else {
            BaseUrlSource::Code
        };
        let (base_url, base) = validate_base_url(raw_base, spec, source)?;
        let auth_credentials = required_credentials(&self.auth, spec);
        if sends_a_secret(&self.auth, spec) && !self.allow_plain_http {
            refuse_plain_http(&base, raw_base, spec, source)?;
        }
        let auth_state = AuthState::with_oauth2(
            self.minters,
            spec,
            &credentials,
            &base,
            self.allow_plain_http,
        )?;
        let auth = ResolvedAuth::resolve(self.auth, spec, &credentials, &auth_state)?;
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
            .unwrap_or_else(|| concat!("tidings-runtime/", env!("CARGO_PKG_VERSION")).to_owned());
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
            pipeline: Pipeline {
                spec,
                http,
                base,
                user_agent,
                timeouts: self.timeouts,
                limits: self.limits,
                retry: self.retry,
                limiter,
                budget,
                auth_credentials,
            },
            base_url,
            credentials,
            auth,
            auth_state,
        }))
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ErrorKind;
    use crate::options::DEFAULT_TOTAL_TIMEOUT;
    use crate::spec::*;

    /// A service like the email one, for the runtime's unit tests.
    pub(crate) static SPEC: ServiceSpec = ServiceSpec {
        name: "email",
        title: "Email",
        base_url: None,
        base_url_env: "COMMS_EMAIL_BASE_URL",
        credentials: &[CredentialSpec {
            name: "api_key",
            env: "COMMS_EMAIL_API_KEY",
            secret: true,
            value: None,
        }],
        auth: &[
            AuthScheme::Bearer {
                credential: "api_key",
            },
            AuthScheme::Query {
                params: &[("api_key", "api_key")],
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
        errors: ErrorSpec::DEFAULT,
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
        // Nor does the builder's Debug show them, before `build` refuses the URL.
        let builder =
            ClientBuilder::new(&SPEC).base_url("http://user:hunter2@127.0.0.1:9/?key=sk_1");
        let shown = format!("{builder:?}");
        assert!(
            !shown.contains("hunter2") && !shown.contains("sk_1") && shown.contains("127.0.0.1:9"),
            "{shown}"
        );
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

    #[test]
    fn the_spec_deadline_applies_until_the_caller_switches_it_off() {
        let builder = ClientBuilder::new(&SPEC);
        assert_eq!(builder.timeouts.total, Some(DEFAULT_TOTAL_TIMEOUT));
        let off = ClientBuilder::new(&SPEC).total_timeout(None);
        assert_eq!(off.timeouts.total, None);
    }
}
