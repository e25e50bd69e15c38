//! Every retry rule in one place: the [`RetryPolicy`], which failures are worth another
//! attempt (for a client's policy and for [`crate::Error::is_retryable`]), the full-jitter
//! backoff, how far a server-requested wait (`Retry-After`) is honoured, and the retry budget a
//! client's clones share. The attempt loop asks the policy what to do next and does it.

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::spec::RetrySpec;

/// How failed attempts are retried. Starts from the service's [`RetrySpec`].
///
/// ```
/// # use tidings_runtime::RetryPolicy;
/// # use tidings_runtime::spec::RetrySpec;
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

    /// Whether this policy retries a failure of this kind (not whether repeating is safe: that
    /// is the operation's [`crate::spec::RetryClass`]).
    pub(crate) fn retries(&self, failure: Transience) -> bool {
        match failure {
            Transience::Timeout => self.timeouts,
            Transience::Connection => self.connect_errors,
            Transience::Status(status) | Transience::Throttled(Some(status)) => {
                self.statuses.contains(&status)
            }
            // SMTP's own rule (RFC 5321 section 4.2.1): 4xx is transient, 5xx permanent.
            Transience::SmtpReply(code) => (400..500).contains(&code),
            // The client's own limiter already waited as long as the deadline allows.
            Transience::Throttled(None)
            | Transience::LimiterUnavailable
            | Transience::Permanent => false,
        }
    }

    /// The wait before retry number `retry` (0 for the first): the server's, capped at
    /// [`RetryPolicy::retry_after_cap`], else the full-jitter backoff.
    pub(crate) fn delay(&self, server_wait: Option<Duration>, retry: u32) -> Duration {
        match server_wait {
            Some(wait) => wait.min(self.retry_after_cap),
            None => backoff(self, retry),
        }
    }

    /// What the attempt loop does after attempt number `attempt` (1-based) failed: wait and
    /// retry, or stop and say why. Takes a retry from `budget` only when it says retry.
    pub(crate) fn next(
        &self,
        attempt: u32,
        max_attempts: u32,
        failed: &Attempted,
        deadline: Option<Instant>,
        budget: &RetryBudget,
    ) -> Next {
        if !self.retries(failed.transience) {
            return Next::Stop(StopReason::NotRetryable);
        }
        if attempt >= max_attempts {
            return Next::Stop(StopReason::AttemptsExhausted);
        }
        if failed.reached_server && !failed.repeatable {
            return Next::Stop(StopReason::NotRepeatable);
        }
        let delay = self.delay(failed.server_wait, attempt.saturating_sub(1));
        if deadline.is_some_and(|d| Instant::now() + delay >= d) {
            return Next::Stop(StopReason::PastDeadline(delay));
        }
        if !budget.try_withdraw() {
            return Next::Stop(StopReason::BudgetSpent);
        }
        Next::Retry(delay)
    }
}

/// What a failure says about trying again, whatever produced it (an HTTP attempt, the SMTP
/// relay, the rate limiter). [`crate::Error`] maps each of its variants onto one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transience {
    /// A timeout elapsed.
    Timeout,
    /// The connection failed or broke.
    Connection,
    /// The server answered with this error status.
    Status(u16),
    /// An SMTP relay's failure reply, with its reply code (not an HTTP status).
    SmtpReply(u16),
    /// Rate limited: by the server (its status), or by the client's own limiter (`None`).
    Throttled(Option<u16>),
    /// A shared rate limiter could not be reached.
    LimiterUnavailable,
    /// Nothing a later attempt would change (a bad request, a decode failure...).
    Permanent,
}

/// Whether trying again later may succeed: what the default policy ([`RetrySpec::DEFAULT`])
/// retries, plus every rate limit and an unreachable shared limiter. What
/// [`crate::Error::is_retryable`] answers.
pub(crate) fn may_succeed_later(failure: Transience) -> bool {
    match failure {
        Transience::Throttled(_) | Transience::LimiterUnavailable => true,
        other => RetryPolicy::from_spec(&RetrySpec::DEFAULT).retries(other),
    }
}

/// A failed attempt, as the retry decision sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Attempted {
    /// What failed.
    pub(crate) transience: Transience,
    /// The wait the server asked for, if any.
    pub(crate) server_wait: Option<Duration>,
    /// Whether the request may have reached the server (false only for connect failures).
    pub(crate) reached_server: bool,
    /// Whether the operation may be sent again once it may have reached the server (safe
    /// methods, or an idempotency key on the request).
    pub(crate) repeatable: bool,
}

/// What [`RetryPolicy::next`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// Wait this long, then send again.
    Retry(Duration),
    /// Give up: the last failure is the call's error.
    Stop(StopReason),
}

/// Why a call was not retried after its last failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopReason {
    /// The policy does not retry this kind of failure.
    NotRetryable,
    /// Every attempt the policy allows was made.
    AttemptsExhausted,
    /// The request may have reached the server and the operation is not safe to repeat.
    NotRepeatable,
    /// The wait before the next attempt (this long) would pass the call's deadline.
    PastDeadline(Duration),
    /// The client's retry budget is spent.
    BudgetSpent,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Each reads after "failed after N attempts, ".
            StopReason::NotRetryable => f.write_str("not retried: this failure is not retryable"),
            StopReason::AttemptsExhausted => f.write_str("the most the retry policy allows"),
            StopReason::NotRepeatable => f.write_str(
                "not retried: the request may have reached the server and is not safe to repeat",
            ),
            StopReason::PastDeadline(wait) => write!(
                f,
                "not retried: the wait of {wait:?} before another would pass the deadline"
            ),
            StopReason::BudgetSpent => {
                f.write_str("not retried: the client's retry budget is spent")
            }
        }
    }
}

/// The wait before retry number `retry` (0 for the first retry):
/// `rand[0,1) × min(cap, base × 2^retry)` ("full jitter").
pub(crate) fn backoff(policy: &RetryPolicy, retry: u32) -> Duration {
    let ceiling = exponential(policy.base, policy.cap, retry);
    ceiling.mul_f64(crate::random::unit_f64())
}

/// `min(cap, base × 2^n)` without overflow.
pub(crate) fn exponential(base: Duration, cap: Duration, n: u32) -> Duration {
    let factor = 1u32.checked_shl(n.min(31)).unwrap_or(u32::MAX);
    base.checked_mul(factor).unwrap_or(cap).min(cap)
}

/// Token bucket of retries shared by a client's clones: each call deposits
/// `ratio_percent`% of a retry, each retry withdraws one. It starts with
/// [`RetryBudget::INITIAL`] retries and holds at most [`RetryBudget::MAX`], so a failing server
/// sees at most about `ratio_percent`% extra traffic once the reserve is spent.
#[derive(Debug)]
pub(crate) struct RetryBudget {
    /// In thousandths of a retry.
    milli: AtomicU64,
    deposit: u64,
    enabled: bool,
}

impl RetryBudget {
    const UNIT: u64 = 1000;
    pub(crate) const INITIAL: u64 = 10;
    pub(crate) const MAX: u64 = 100;

    pub(crate) fn new(ratio_percent: u32) -> Self {
        RetryBudget {
            milli: AtomicU64::new(Self::INITIAL * Self::UNIT),
            deposit: u64::from(ratio_percent) * Self::UNIT / 100,
            enabled: ratio_percent > 0,
        }
    }

    /// Called once per call.
    pub(crate) fn deposit(&self) {
        if !self.enabled {
            return;
        }
        let max = Self::MAX * Self::UNIT;
        // Relaxed is enough: the budget is a heuristic, not a lock.
        let _ = self
            .milli
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |m| {
                (m < max).then(|| (m + self.deposit).min(max))
            });
    }

    /// Takes one retry from the budget; `false` when it is spent.
    pub(crate) fn try_withdraw(&self) -> bool {
        if !self.enabled {
            return true;
        }
        self.milli
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |m| {
                m.checked_sub(Self::UNIT)
            })
            .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_is_capped_and_never_overflows() {
        let base = Duration::from_millis(500);
        let cap = Duration::from_secs(8);
        assert_eq!(exponential(base, cap, 0), base);
        assert_eq!(exponential(base, cap, 2), Duration::from_secs(2));
        assert_eq!(exponential(base, cap, 5), cap);
        assert_eq!(exponential(base, cap, 200), cap);
    }

    #[test]
    fn backoff_stays_below_the_ceiling() {
        let policy = RetryPolicy::from_spec(&RetrySpec::DEFAULT);
        for n in 0..10 {
            assert!(
                backoff(&policy, n)
                    < exponential(policy.base, policy.cap, n) + Duration::from_nanos(1)
            );
        }
    }

    #[test]
    fn budget_runs_out_and_refills() {
        let budget = RetryBudget::new(50);
        for _ in 0..RetryBudget::INITIAL {
            assert!(budget.try_withdraw());
        }
        assert!(!budget.try_withdraw());
        budget.deposit();
        assert!(!budget.try_withdraw());
        budget.deposit();
        assert!(budget.try_withdraw());
        let off = RetryBudget::new(0);
        for _ in 0..1000 {
            assert!(off.try_withdraw());
        }
    }

    fn failed(transience: Transience) -> Attempted {
        Attempted {
            transience,
            server_wait: None,
            reached_server: true,
            repeatable: true,
        }
    }

    #[test]
    fn the_default_policy_and_is_retryable_share_one_list_of_statuses() {
        let policy = RetryPolicy::from_spec(&RetrySpec::DEFAULT);
        for status in 100..600 {
            let listed = RetrySpec::DEFAULT.statuses.contains(&status);
            assert_eq!(policy.retries(Transience::Status(status)), listed);
            assert_eq!(may_succeed_later(Transience::Status(status)), listed);
        }
        // A rate limit may pass later even when this policy does not retry it.
        assert!(may_succeed_later(Transience::Throttled(None)));
        assert!(!policy.retries(Transience::Throttled(None)));
        assert!(!may_succeed_later(Transience::Permanent));
    }

    #[test]
    fn next_stops_for_each_reason_in_order() {
        let policy = RetryPolicy::from_spec(&RetrySpec::DEFAULT);
        let budget = RetryBudget::new(0);
        let next = |f: &Attempted, attempt, deadline| policy.next(attempt, 3, f, deadline, &budget);
        assert_eq!(
            next(&failed(Transience::Permanent), 1, None),
            Next::Stop(StopReason::NotRetryable)
        );
        assert_eq!(
            next(&failed(Transience::Status(503)), 3, None),
            Next::Stop(StopReason::AttemptsExhausted)
        );
        let once = Attempted {
            repeatable: false,
            ..failed(Transience::Timeout)
        };
        assert_eq!(next(&once, 1, None), Next::Stop(StopReason::NotRepeatable));
        let refused = Attempted {
            reached_server: false,
            ..once
        };
        assert!(matches!(next(&refused, 1, None), Next::Retry(_)));
        let wait = Attempted {
            server_wait: Some(Duration::from_secs(120)),
            ..failed(Transience::Throttled(Some(429)))
        };
        // The server's wait is capped at retry_after_cap (60 s) and then weighed against the
        // deadline.
        assert_eq!(
            next(&wait, 1, Some(Instant::now() + Duration::from_secs(10))),
            Next::Stop(StopReason::PastDeadline(Duration::from_secs(60)))
        );
        assert_eq!(next(&wait, 1, None), Next::Retry(Duration::from_secs(60)));
        let spent = RetryBudget::new(50);
        while spent.try_withdraw() {}
        assert_eq!(
            policy.next(1, 3, &failed(Transience::Timeout), None, &spent),
            Next::Stop(StopReason::BudgetSpent)
        );
    }
}
