//! Client-side rate limiting shared by a client's clones: at most N requests in any window,
//! plus pauses the server asks for (`X-RateLimit-Remaining: 0` with `X-RateLimit-Reset`, or a
//! 429 with `Retry-After`). Waiting is asynchronous (tokio timers).

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

// tokio's clock, so tests can run the limiter on paused (virtual) time.
use tokio::time::Instant;

use reqwest::header::{HeaderMap, HeaderName};

use crate::config::RateLimit;
use crate::retry::header_str;
use crate::spec::RateLimitHeaders;

/// Longest log kept; larger limits are scaled down (same rate, shorter window).
const MAX_SLOTS: u32 = 4096;

/// The limiter. A bucket of `requests` tokens where each spent token comes back exactly one
/// window after it was spent (a sliding-window log). Unlike a bucket that refills at a steady
/// rate, this never lets more than `requests` calls into any window of `per`, even right after
/// an idle spell, while still allowing a burst of `requests` at once.
#[derive(Debug)]
pub(crate) struct RateLimiter {
    inner: Option<Limiter>,
}

#[derive(Debug)]
struct Limiter {
    /// The spec's `X-RateLimit-Remaining` / `X-RateLimit-Reset` names, parsed once.
    remaining: Option<HeaderName>,
    reset: Option<HeaderName>,
    slots: usize,
    window: Duration,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Start times of the calls in the current window, oldest first.
    sent: VecDeque<Instant>,
    /// The server asked us to hold off until then.
    paused_until: Option<Instant>,
}

impl RateLimiter {
    pub(crate) fn new(limit: Option<RateLimit>, names: &RateLimitHeaders) -> Self {
        let parse =
            |name: Option<&str>| name.and_then(|n| HeaderName::from_bytes(n.as_bytes()).ok());
        let inner = limit.map(|limit| {
            let requests = limit.requests().max(1);
            let scale = requests.div_ceil(MAX_SLOTS);
            Limiter {
                remaining: parse(names.remaining),
                reset: parse(names.reset),
                slots: (requests / scale) as usize,
                window: limit.per() / scale,
                state: Mutex::new(State::default()),
            }
        });
        RateLimiter { inner }
    }

    /// Whether limiting is on.
    pub(crate) fn is_enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// Waits for a slot. `Err(wait)` when the slot would come after `deadline`.
    pub(crate) async fn acquire(
        &self,
        deadline: Option<std::time::Instant>,
    ) -> Result<(), Duration> {
        let deadline = deadline.map(Instant::from_std);
        let Some(limiter) = &self.inner else {
            return Ok(());
        };
        loop {
            let now = Instant::now();
            let ready_at = {
                let mut state = limiter.lock();
                let mut ready_at = now;
                match state.paused_until {
                    Some(until) if until > now => ready_at = until,
                    Some(_) => state.paused_until = None,
                    None => {}
                }
                while state
                    .sent
                    .front()
                    .is_some_and(|&t| t + limiter.window <= now)
                {
                    state.sent.pop_front();
                }
                if state.sent.len() >= limiter.slots {
                    if let Some(&oldest) = state.sent.front() {
                        ready_at = ready_at.max(oldest + limiter.window);
                    }
                }
                if ready_at <= now {
                    state.sent.push_back(now);
                    return Ok(());
                }
                ready_at
            };
            if deadline.is_some_and(|d| ready_at > d) {
                return Err(ready_at - now);
            }
            tracing::trace!(
                wait_ms = u64::try_from((ready_at - now).as_millis()).unwrap_or(u64::MAX),
                "rate limiter: waiting for a slot"
            );
            tokio::time::sleep_until(ready_at).await;
        }
    }

    /// Learns from a response: pauses when the server reports no remaining requests, or asked
    /// for a wait on a 429. Pauses are capped at `cap`.
    pub(crate) fn observe(
        &self,
        status: u16,
        headers: &HeaderMap,
        server_wait: Option<Duration>,
        cap: Duration,
    ) {
        let Some(limiter) = &self.inner else { return };
        let mut pause = None;
        if status == 429 {
            pause = server_wait;
        }
        let exhausted = limiter
            .remaining
            .as_ref()
            .and_then(|name| header_str(headers, name))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .is_some_and(|remaining| remaining <= 0.0);
        if exhausted {
            if let Some(reset) = limiter
                .reset
                .as_ref()
                .and_then(|name| header_str(headers, name))
                .and_then(parse_reset)
            {
                pause = Some(pause.map_or(reset, |p: Duration| p.max(reset)));
            }
        }
        if let Some(pause) = pause.map(|p| p.min(cap)).filter(|p| !p.is_zero()) {
            tracing::debug!(
                pause_ms = u64::try_from(pause.as_millis()).unwrap_or(u64::MAX),
                "rate limiter: server asked to pause"
            );
            let until = Instant::now() + pause;
            let mut state = limiter.lock();
            state.paused_until = Some(state.paused_until.map_or(until, |p| p.max(until)));
        }
    }
}

impl Limiter {
    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent even if a holder panicked: every update is one step.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `X-RateLimit-Reset`: seconds until the reset; values that look like a Unix time are
/// converted.
fn parse_reset(value: &str) -> Option<Duration> {
    let secs = value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)?;
    if secs > 1_000_000_000.0 {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .ok()?
            .as_secs_f64();
        return Some(Duration::from_secs_f64((secs - now).max(0.0)));
    }
    Some(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    /// On virtual time: 10 callers share 20 slots per second. No window of exactly one second
    /// ever holds more than 20 grants, and every second's 20 slots are used.
    #[tokio::test(start_paused = true)]
    async fn concurrent_callers_never_exceed_the_limit_on_virtual_time() {
        let limiter = std::sync::Arc::new(RateLimiter::new(
            Some(RateLimit::per_second(20)),
            &RateLimitHeaders::STANDARD,
        ));
        let grants = std::sync::Arc::new(Mutex::new(Vec::new()));
        let start = Instant::now();
        let mut callers = Vec::new();
        for _ in 0..10 {
            let (limiter, grants) = (limiter.clone(), grants.clone());
            callers.push(tokio::spawn(async move {
                for _ in 0..10 {
                    limiter.acquire(None).await.expect("no deadline");
                    grants.lock().expect("grants").push(Instant::now() - start);
                    // Each call takes a little while.
                    tokio::time::sleep(Duration::from_millis(7)).await;
                }
            }));
        }
        for caller in callers {
            caller.await.expect("caller");
        }
        let mut grants = grants.lock().expect("grants").clone();
        grants.sort();
        assert_eq!(grants.len(), 100);
        for (i, &t) in grants.iter().enumerate() {
            let in_window = grants[i..]
                .iter()
                .take_while(|&&u| u - t < Duration::from_secs(1))
                .count();
            assert!(
                in_window <= 20,
                "{in_window} grants in the second from {t:?}"
            );
        }
        // 100 grants at 20 per second: the last one comes in the fifth second, not later.
        let last = *grants.last().expect("grants");
        assert!(
            last >= Duration::from_secs(4) && last < Duration::from_millis(4_100),
            "{last:?}"
        );
    }

    #[tokio::test]
    async fn burst_up_to_the_limit_then_waits() {
        let limiter = RateLimiter::new(
            Some(RateLimit::new(3, Duration::from_millis(200))),
            &RateLimitHeaders::STANDARD,
        );
        let start = Instant::now();
        for _ in 0..3 {
            limiter.acquire(None).await.expect("no deadline");
        }
        assert!(start.elapsed() < Duration::from_millis(150));
        limiter.acquire(None).await.expect("no deadline");
        assert!(start.elapsed() >= Duration::from_millis(200));
    }

    #[tokio::test]
    async fn deadline_is_reported_instead_of_waiting_past_it() {
        let limiter = RateLimiter::new(
            Some(RateLimit::new(1, Duration::from_secs(60))),
            &RateLimitHeaders::STANDARD,
        );
        limiter.acquire(None).await.expect("first is free");
        let wait = limiter
            .acquire(Some(std::time::Instant::now() + Duration::from_millis(10)))
            .await
            .expect_err("would pass the deadline");
        assert!(wait > Duration::from_secs(50));
    }

    #[tokio::test]
    async fn remaining_zero_pauses_until_reset() {
        let limiter = RateLimiter::new(
            Some(RateLimit::per_second(1000)),
            &RateLimitHeaders::STANDARD,
        );
        let mut headers = HeaderMap::new();
        headers.insert("x-ratelimit-remaining", HeaderValue::from_static("0"));
        headers.insert("x-ratelimit-reset", HeaderValue::from_static("30"));
        limiter.observe(200, &headers, None, Duration::from_secs(60));
        let wait = limiter
            .acquire(Some(std::time::Instant::now() + Duration::from_secs(1)))
            .await
            .expect_err("paused");
        assert!(wait > Duration::from_secs(25));
    }

    #[test]
    fn huge_limits_are_scaled_down() {
        let limiter = RateLimiter::new(
            Some(RateLimit::per_second(1_000_000)),
            &RateLimitHeaders::STANDARD,
        );
        let inner = limiter.inner.as_ref().expect("enabled");
        assert!(inner.slots <= MAX_SLOTS as usize);
        assert!(inner.window < Duration::from_millis(5));
    }

    #[tokio::test]
    async fn disabled_never_waits() {
        let limiter = RateLimiter::new(None, &RateLimitHeaders::STANDARD);
        assert!(!limiter.is_enabled());
        for _ in 0..10_000 {
            limiter
                .acquire(Some(std::time::Instant::now()))
                .await
                .expect("off");
        }
    }
}
