//! Retry and timeout policy of a service.

use crate::{Intern, Static, Storage, ToStatic, defaults};

/// Retry policy defaults of a service.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RetrySpec<S: Storage = Static> {
    /// Total attempts, including the first (1 means no retry).
    pub max_attempts: u32,
    /// Backoff base in milliseconds.
    pub base_ms: u64,
    /// Backoff cap in milliseconds.
    pub cap_ms: u64,
    /// HTTP statuses that are retried.
    pub statuses: S::Codes,
    /// Retry connection failures.
    pub connect_errors: bool,
    /// Retry attempts that timed out.
    pub timeouts: bool,
    /// Upper bound on a server-requested wait (`Retry-After`, `retry-after-ms`).
    pub retry_after_cap_ms: u64,
    /// Retry budget: each first attempt earns this percentage of one retry (0 disables the
    /// budget).
    pub budget_ratio_percent: u32,
}

impl Copy for RetrySpec<Static> {}

impl RetrySpec<Static> {
    /// The defaults from `PROTOCOLS.md`: 3 attempts, 0.5 s base, 8 s cap, 60 s `Retry-After` cap,
    /// statuses 408, 429, 500, 502, 503, 504, a 20 % budget.
    pub const DEFAULT: RetrySpec = RetrySpec {
        max_attempts: defaults::MAX_ATTEMPTS,
        base_ms: defaults::BACKOFF_BASE_MS,
        cap_ms: defaults::BACKOFF_CAP_MS,
        statuses: defaults::RETRY_STATUSES,
        connect_errors: true,
        timeouts: true,
        retry_after_cap_ms: defaults::RETRY_AFTER_CAP_MS,
        budget_ratio_percent: defaults::RETRY_BUDGET_PERCENT,
    };
}

/// The timeouts of a service: one policy for connecting, for each attempt and for the whole
/// call (retries, backoff and rate-limiter waits included).
///
/// The policy is coherent by construction: `connect_ms <= attempt_ms <= total_ms`, and the
/// defaults let every attempt the default retry policy allows run in full
/// ([`defaults::TOTAL_TIMEOUT_MS`] = [`defaults::MAX_ATTEMPTS`] × [`defaults::ATTEMPT_TIMEOUT_MS`]).
/// The runtime shortens an attempt to what is left of the deadline, and a spec whose
/// numbers break the order is refused by `tidings-codegen check`.
///
/// ```
/// use tidings_spec::{TimeoutSpec, defaults};
///
/// let t = TimeoutSpec::DEFAULT;
/// assert!(t.connect_ms <= t.attempt_ms && t.attempt_ms <= t.total());
/// assert_eq!(t.total(), u64::from(defaults::MAX_ATTEMPTS) * t.attempt_ms);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeoutSpec {
    /// Connect timeout in milliseconds.
    pub connect_ms: u64,
    /// Per-attempt timeout in milliseconds (sending the request and reading the whole response).
    pub attempt_ms: u64,
    /// Deadline for the whole call in milliseconds, retries included. `None`:
    /// [`defaults::TOTAL_TIMEOUT_MS`]. Only a caller can switch the deadline off (the
    /// runtime's `ClientBuilder::total_timeout(None)`).
    pub total_ms: Option<u64>,
}

impl TimeoutSpec {
    /// Connect 3 s, each attempt 20 s, the whole call 60 s.
    pub const DEFAULT: TimeoutSpec = TimeoutSpec {
        connect_ms: defaults::CONNECT_TIMEOUT_MS,
        attempt_ms: defaults::ATTEMPT_TIMEOUT_MS,
        total_ms: None,
    };

    /// The call deadline in milliseconds: the spec's, else [`defaults::TOTAL_TIMEOUT_MS`].
    pub const fn total(&self) -> u64 {
        match self.total_ms {
            Some(ms) => ms,
            None => defaults::TOTAL_TIMEOUT_MS,
        }
    }
}

impl<S: Storage> ToStatic for RetrySpec<S> {
    type Static = RetrySpec;

    fn to_static(&self, intern: &mut impl Intern) -> RetrySpec {
        RetrySpec {
            max_attempts: self.max_attempts,
            base_ms: self.base_ms,
            cap_ms: self.cap_ms,
            statuses: intern.list(self.statuses.as_ref().to_vec()),
            connect_errors: self.connect_errors,
            timeouts: self.timeouts,
            retry_after_cap_ms: self.retry_after_cap_ms,
            budget_ratio_percent: self.budget_ratio_percent,
        }
    }
}
