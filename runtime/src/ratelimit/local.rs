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
/// window after the call that spent it has finished (a sliding-window log). Unlike a bucket
/// that refills at a steady rate, this never lets more than `requests` calls into any window
/// of `per`, even right after an idle spell, while still allowing a burst of `requests` at
/// once.
///
/// The window is counted from when the attempt *finished* (answer read, or failed), not from
/// when its slot was granted: the server stamps a request somewhere between the two, and
/// counting from the grant let a request that waited longer on its way (a new connection, a
/// busy proxy) be counted by the server in the same window as the one that took its slot a
/// window later — one request over the limit, a 429 at the window's edge. Counting from the
/// finish is the latest time the server can have seen it, so no window the server can draw
/// holds more than `requests` (at the price of one round trip per window of throughput).
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
    /// Wakes callers waiting for an in-flight call to finish.
    released: tokio::sync::Notify,
}

#[derive(Debug, Default)]
struct State {
    /// When the finished calls of the current window finished, oldest first.
    sent: VecDeque<Instant>,
    /// Calls granted a slot that have not finished yet.
    in_flight: usize,
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
                released: tokio::sync::Notify::new(),
            }
        });
        RateLimiter { inner }
    }

    /// Whether limiting is on.
    pub(crate) fn is_enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// Waits for a slot. `Err(wait)` when the slot would come after `deadline`. The slot is
    /// held until the returned [`Permit`] is dropped, when the attempt has finished; its window
    /// starts then.
    pub(crate) async fn acquire(
        &self,
        deadline: Option<std::time::Instant>,
    ) -> Result<Permit<'_>, Duration> {
        let deadline = deadline.map(Instant::from_std);
        let Some(limiter) = &self.inner else {
            return Ok(Permit { limiter: None });
        };
        loop {
            // Registered before looking, so a release between the look and the wait is seen.
            let released = limiter.released.notified();
            tokio::pin!(released);
            released.as_mut().enable();
            let now = Instant::now();
            let (ready_at, all_in_flight) = {
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
                let mut all_in_flight = false;
                if state.sent.len() + state.in_flight >= limiter.slots {
                    match state.sent.front() {
                        Some(&oldest) => ready_at = ready_at.max(oldest + limiter.window),
                        // Every slot is held by a running call: the first comes back one
                        // window after that call finishes, so at least a window from now.
                        None => {
                            all_in_flight = true;
                            ready_at = ready_at.max(now + limiter.window);
                        }
                    }
                }
                if ready_at <= now {
                    state.in_flight += 1;
                    return Ok(Permit {
                        limiter: Some(limiter),
                    });
                }
                (ready_at, all_in_flight)
            };
            if deadline.is_some_and(|d| ready_at > d) {
                return Err(ready_at - now);
            }
            tracing::trace!(
                wait_ms = u64::try_from((ready_at - now).as_millis()).unwrap_or(u64::MAX),
                "rate limiter: waiting for a slot"
            );
            if all_in_flight {
                // Look again when a call finishes (its slot's return time is known then).
                released.await;
            } else {
                tokio::time::sleep_until(ready_at).await;
            }
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

/// A granted slot; dropping it marks the attempt finished and starts the slot's window.
#[must_use = "the slot is released when the permit is dropped"]
#[derive(Debug)]
pub(crate) struct Permit<'a> {
    limiter: Option<&'a Limiter>,
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        if let Some(limiter) = self.limiter {
            {
                let mut state = limiter.lock();
                state.in_flight = state.in_flight.saturating_sub(1);
                state.sent.push_back(Instant::now());
            }
            limiter.released.notify_waiters();
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
                    let permit = limiter.acquire(None).await.expect("no deadline");
                    grants.lock().expect("grants").push(Instant::now() - start);
                    // Each call takes a little while, holding its slot.
                    tokio::time::sleep(Duration::from_millis(7)).await;
                    drop(permit);
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
        // 100 grants at 20 per second (plus a 7 ms call per slot and window): the last one
        // comes early in the fifth second, not later.
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
            drop(limiter.acquire(None).await.expect("no deadline"));
        }
        assert!(start.elapsed() < Duration::from_millis(150));
        drop(limiter.acquire(None).await.expect("no deadline"));
        assert!(start.elapsed() >= Duration::from_millis(200));
    }

    /// A slot comes back one window after its call finished, not after it was granted: a
    /// server that stamps the request late in a slow call never sees two calls in one window.
    #[tokio::test(start_paused = true)]
    async fn a_slot_comes_back_a_window_after_its_call_finished() {
        let limiter = std::sync::Arc::new(RateLimiter::new(
            Some(RateLimit::new(1, Duration::from_secs(1))),
            &RateLimitHeaders::STANDARD,
        ));
        let start = Instant::now();
        let slow = limiter.acquire(None).await.expect("first is free");
        // While the only slot is held, a caller with a deadline inside the window is refused
        // at once, and one without a deadline waits for the call to finish.
        let wait = limiter
            .acquire(Some(std::time::Instant::now() + Duration::from_millis(500)))
            .await
            .expect_err("the slot is held");
        assert!(wait >= Duration::from_secs(1), "{wait:?}");
        let waiter = {
            let limiter = limiter.clone();
            tokio::spawn(async move {
                drop(limiter.acquire(None).await.expect("no deadline"));
                Instant::now() - start
            })
        };
        tokio::time::sleep(Duration::from_millis(300)).await;
        drop(slow);
        let granted = waiter.await.expect("waiter");
        assert_eq!(granted, Duration::from_millis(1300));
    }

    #[tokio::test]
    async fn deadline_is_reported_instead_of_waiting_past_it() {
        let limiter = RateLimiter::new(
            Some(RateLimit::new(1, Duration::from_secs(60))),
            &RateLimitHeaders::STANDARD,
        );
        drop(limiter.acquire(None).await.expect("first is free"));
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
            drop(
                limiter
                    .acquire(Some(std::time::Instant::now()))
                    .await
                    .expect("off"),
            );
        }
    }
}
