//! Retry mechanics: full-jitter backoff, server-requested waits (`Retry-After` in seconds or as
//! an HTTP date, `retry-after-ms`), and the retry budget a client's clones share.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use reqwest::header::HeaderMap;

use crate::config::RetryPolicy;
use crate::spec::RateLimitHeaders;

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

/// The wait the server asked for: `retry-after-ms`, then `Retry-After` (or the spec's name for
/// it) as seconds or an HTTP date. Past dates mean "now".
pub(crate) fn server_wait(headers: &HeaderMap, names: &RateLimitHeaders) -> Option<Duration> {
    if let Some(ms) =
        header_str(headers, "retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok())
        && ms.is_finite()
        && ms >= 0.0
    {
        return Some(Duration::from_secs_f64(ms.min(1e12) / 1000.0));
    }
    let value = names
        .retry_after
        .and_then(|name| header_str(headers, name))
        .or_else(|| header_str(headers, "retry-after"))?
        .trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(1e9)));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(
        date.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

pub(crate) fn header_str<K: reqwest::header::AsHeaderName>(
    headers: &HeaderMap,
    name: K,
) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
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
    use crate::spec::RetrySpec;
    use reqwest::header::HeaderValue;

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
    fn retry_after_forms() {
        let names = RateLimitHeaders::STANDARD;
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("7"));
        assert_eq!(server_wait(&h, &names), Some(Duration::from_secs(7)));
        h.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(server_wait(&h, &names), Some(Duration::from_millis(250)));
        let mut h = HeaderMap::new();
        let later = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(30));
        h.insert("retry-after", HeaderValue::from_str(&later).expect("valid"));
        let wait = server_wait(&h, &names).expect("parsed");
        assert!(
            wait > Duration::from_secs(25) && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        h.insert(
            "retry-after",
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(server_wait(&h, &names), Some(Duration::ZERO));
        h.insert("retry-after", HeaderValue::from_static("soon"));
        assert_eq!(server_wait(&h, &names), None);
        h.insert("retry-after", HeaderValue::from_static("-3"));
        assert_eq!(server_wait(&h, &names), None);
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
}
