//! A service: its name, base URL, credentials, auth, limits, retry and timeout policy, errors.

use crate::{AuthScheme, ErrorSpec, RetrySpec, TimeoutSpec, defaults};

/// Everything the runtime needs to know about one service.
///
/// # Example
///
/// ```
/// use tidings_spec::*;
///
/// static EMAIL: ServiceSpec = ServiceSpec {
///     name: "email",
///     title: "Email service",
///     base_url: None,
///     base_url_env: "COMMS_EMAIL_BASE_URL",
///     credentials: &[CredentialSpec {
///         name: "api_key",
///         env: "COMMS_EMAIL_API_KEY",
///         secret: true,
///         value: None,
///     }],
///     auth: &[
///         AuthScheme::Bearer { credential: "api_key" },
///         AuthScheme::Query { params: &[("api_key", "api_key")] },
///     ],
///     rate_limit: Some(RateLimitSpec { requests: 1000, per_seconds: 60 }),
///     rate_limit_headers: RateLimitHeaders::STANDARD,
///     retry: RetrySpec::DEFAULT,
///     timeouts: TimeoutSpec::DEFAULT,
///     idempotency: Some(IdempotencySpec { header: "Idempotency-Key", max_len: 256 }),
///     errors: ErrorSpec::DEFAULT,
/// };
/// assert_eq!(EMAIL.name, "email");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServiceSpec {
    /// Short machine name, e.g. `"email"`; used in tracing spans.
    pub name: &'static str,
    /// Human title, e.g. `"Email service"`.
    pub title: &'static str,
    /// Default base URL; `None` when the spec shows none and the user must give one.
    pub base_url: Option<&'static str>,
    /// Environment variable that overrides (or supplies) the base URL.
    pub base_url_env: &'static str,
    /// Credentials the service knows about.
    pub credentials: &'static [CredentialSpec],
    /// Auth schemes in preference order, each an alternative ([`AuthScheme::offered_alone`]
    /// leaves out those an [`AuthScheme::All`] listed before them sends); the first one that puts no
    /// key in the URL is the default.
    pub auth: &'static [AuthScheme],
    /// Client-side rate limit; `None` for no limit.
    pub rate_limit: Option<RateLimitSpec>,
    /// Names of the response headers that report rate-limit state.
    pub rate_limit_headers: RateLimitHeaders,
    /// Retry policy defaults.
    pub retry: RetrySpec,
    /// Timeout defaults.
    pub timeouts: TimeoutSpec,
    /// How idempotency keys are sent, when the service supports them.
    pub idempotency: Option<IdempotencySpec>,
    /// Where an error answer's code and message live, and which successful answers are errors.
    pub errors: ErrorSpec,
}

/// One credential: its name (as used by [`AuthScheme`]), the environment variable it is read
/// from, and whether it is a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CredentialSpec {
    /// Name, e.g. `"api_key"` or `"app_id"`.
    pub name: &'static str,
    /// Environment variable read by the runtime's `Client::from_env`.
    pub env: &'static str,
    /// Secret credentials are never logged and never returned by
    /// the runtime's `Client::credential_value`.
    pub secret: bool,
    /// A value fixed by the provider, used when none is set (Mailgun's HTTP Basic user name is
    /// always `api`); never a secret's.
    pub value: Option<&'static str>,
}

/// A request rate: `requests` per `per_seconds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimitSpec {
    /// Requests allowed per window.
    pub requests: u32,
    /// Window length in seconds.
    pub per_seconds: u32,
}

/// Names of the response headers that report rate-limit state (`None`: not reported).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimitHeaders {
    /// e.g. `X-RateLimit-Limit`.
    pub limit: Option<&'static str>,
    /// e.g. `X-RateLimit-Remaining`.
    pub remaining: Option<&'static str>,
    /// e.g. `X-RateLimit-Reset` (seconds until the window resets).
    pub reset: Option<&'static str>,
    /// e.g. `Retry-After` (seconds or an HTTP date).
    pub retry_after: Option<&'static str>,
}

impl RateLimitHeaders {
    /// The `X-RateLimit-*` family plus `Retry-After`.
    pub const STANDARD: RateLimitHeaders = RateLimitHeaders {
        limit: Some("x-ratelimit-limit"),
        remaining: Some("x-ratelimit-remaining"),
        reset: Some("x-ratelimit-reset"),
        retry_after: Some("retry-after"),
    };
    /// No rate-limit headers.
    pub const NONE: RateLimitHeaders = RateLimitHeaders {
        limit: None,
        remaining: None,
        reset: None,
        retry_after: None,
    };
}

/// How idempotency keys are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdempotencySpec {
    /// Header name, e.g. `Idempotency-Key`.
    pub header: &'static str,
    /// Longest key the server accepts.
    pub max_len: usize,
}

/// How large a response body the client reads. Not yet a field of [`ServiceSpec`] (the
/// generator does not emit it): clients start from [`ResponseLimitSpec::DEFAULT`], and a spec
/// that carries its own limits can hand them to the runtime the same way later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResponseLimitSpec {
    /// Largest body of a successful (2xx) answer, in bytes; a larger one is an
    /// `Error::ResponseTooLarge`.
    pub max_body_bytes: u64,
    /// How much of an error answer's body is read, in bytes; the rest is not read and the
    /// error says so (`ApiError::body_truncated`).
    pub max_error_body_bytes: u64,
}

impl ResponseLimitSpec {
    /// 16 MiB for a successful answer, 64 KiB of an error answer.
    pub const DEFAULT: ResponseLimitSpec = ResponseLimitSpec {
        max_body_bytes: defaults::MAX_RESPONSE_BODY_BYTES,
        max_error_body_bytes: defaults::MAX_ERROR_BODY_BYTES,
    };
}
