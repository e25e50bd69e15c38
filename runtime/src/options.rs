//! What a call is allowed: the timeouts and body limits in force for a client (from its
//! [`ServiceSpec`](crate::spec::ServiceSpec) unless overridden), the default deadline, and the
//! per-call [`CallOptions`].

use std::time::{Duration, Instant};

use crate::retry::RetryPolicy;
use crate::spec::{ResponseLimitSpec, TimeoutSpec};

/// The deadline of a whole call (retries, backoff and rate-limiter waits included) when the spec
/// gives none: 60 s ([`defaults::TOTAL_TIMEOUT_MS`](crate::spec::defaults::TOTAL_TIMEOUT_MS)), room for
/// the three default attempts of 20 s each. An attempt never runs past the deadline: it is
/// shortened to what is left. Change it with
/// [`ClientBuilder::total_timeout`](crate::ClientBuilder::total_timeout) (`None` switches it off) or [`CallOptions::total_timeout`].
pub const DEFAULT_TOTAL_TIMEOUT: Duration =
    Duration::from_millis(crate::spec::defaults::TOTAL_TIMEOUT_MS);

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
            total: Some(Duration::from_millis(spec.total())),
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

/// Per-call overrides, applied with [`Client::with_options`](crate::Client::with_options).
///
/// ```no_run
/// # async fn demo(client: tidings_runtime::Client, request: tidings_runtime::Request) -> Result<(), tidings_runtime::Error> {
/// # use tidings_runtime::CallOptions;
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

/// No overrides, for the calls of a client that has none (a static: not a value in each call's
/// future).
pub(crate) static NO_OPTIONS: CallOptions = CallOptions {
    attempt_timeout: None,
    total_timeout: None,
    deadline: None,
    idempotency_key: None,
    max_attempts: None,
    retry: None,
    max_response_bytes: None,
    max_error_body_bytes: None,
};

impl CallOptions {
    /// No overrides.
    pub fn new() -> Self {
        CallOptions::default()
    }

    /// Per-attempt timeout. (The connect timeout belongs to the connection pool and is set on
    /// the client: [`ClientBuilder::connect_timeout`](crate::ClientBuilder::connect_timeout).)
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
    /// [`ClientBuilder::max_response_bytes`](crate::ClientBuilder::max_response_bytes)); a larger one is an [`Error::ResponseTooLarge`](crate::Error::ResponseTooLarge).
    pub fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.max_response_bytes = Some(bytes);
        self
    }

    /// How much of an error answer's body these calls read, in bytes (the client's is
    /// [`ClientBuilder::max_error_body_bytes`](crate::ClientBuilder::max_error_body_bytes)).
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(TimeoutSpec::DEFAULT.total_ms, None);
        assert_eq!(
            Timeouts::from(&TimeoutSpec::DEFAULT).total,
            Some(DEFAULT_TOTAL_TIMEOUT)
        );
        assert_eq!(DEFAULT_TOTAL_TIMEOUT, Duration::from_secs(60));
        // Every default attempt fits in the default deadline.
        let attempt = Timeouts::from(&TimeoutSpec::DEFAULT).attempt;
        assert!(attempt * crate::spec::defaults::MAX_ATTEMPTS <= DEFAULT_TOTAL_TIMEOUT);
        let own = TimeoutSpec {
            total_ms: Some(90_000),
            ..TimeoutSpec::DEFAULT
        };
        assert_eq!(Timeouts::from(&own).total, Some(Duration::from_secs(90)));
    }
}
