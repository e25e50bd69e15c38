//! Client-side rate limiting: the [`RateLimit`] a client keeps to (at most N requests in any
//! window), plus pauses the server asks for
//! (`X-RateLimit-Remaining: 0` with `X-RateLimit-Reset`, or a 429 with `Retry-After`). Where
//! the slots live is a [`Limiter`]: this process ([`LocalLimiter`], the default) or Redis,
//! shared by every process using one credential (`redis::RedisLimiter`, feature `redis`).

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName};
use sha2::{Digest, Sha256};

use crate::Error;
use crate::headers::{header_str, none_remaining, rate_limit_reset};
use crate::spec::{RateLimitHeaders, RateLimitSpec};

mod local;
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub mod redis;

pub use local::LocalLimiter;
use local::Window;

/// A client-side request rate: at most `requests` in any window of `per`.
///
/// ```
/// # use tidings_runtime::ratelimit::RateLimit;
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

/// A boxed, `Send` future: what [`Limiter`] methods return (the trait stays object-safe).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Where a client's rate-limit slots live.
///
/// Same semantics for every implementation: a slot is held for a whole attempt (from
/// [`Limiter::acquire`] until the [`Permit`] is released), its window is counted from when the
/// attempt ended, and a pause the server asked for ([`Limiter::pause`]) holds every caller off.
/// [`LocalLimiter`] keeps them in this process; `RedisLimiter` (feature `redis`) in Redis, so
/// every process sending with one credential shares one budget.
pub trait Limiter: Send + Sync + fmt::Debug {
    /// Waits for a slot of `scope`'s limit, or refuses: [`Refusal::Wait`] when the slot would
    /// come after `deadline`, [`Refusal::Unavailable`] when the limiter cannot decide.
    fn acquire<'a>(
        &'a self,
        scope: &'a LimitScope,
        deadline: Option<std::time::Instant>,
    ) -> BoxFuture<'a, Result<Permit<'a>, Refusal>>;

    /// The server asked every caller of `scope` to hold off for `pause`.
    fn pause(&self, scope: &LimitScope, pause: Duration);
}

/// Why a [`Limiter`] did not grant a slot.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The slot would come after the call's deadline; this is how long it would take.
    Wait(Duration),
    /// The limiter's store cannot be reached and it is configured to fail closed.
    Unavailable(String),
}

/// One rate limit as a [`Limiter`] sees it: the service, a fingerprint of the credential (never
/// the credential), the limit, and the in-process state the local limiter (and a shared
/// limiter's fallback) uses. The client builder makes one per client.
#[derive(Debug)]
pub struct LimitScope {
    service: &'static str,
    fingerprint: String,
    local: Window,
}

impl LimitScope {
    /// The scope of `limit` for `service`, keyed by a hash of `credential`.
    pub fn new(service: &'static str, credential: &str, limit: RateLimit) -> LimitScope {
        LimitScope {
            service,
            fingerprint: fingerprint(service, credential),
            local: Window::new(limit.requests(), limit.per()),
        }
    }

    /// The service name (`"email"`).
    pub fn service(&self) -> &'static str {
        self.service
    }

    /// A hex SHA-256 digest of the service name and the credential, cut to 32 characters:
    /// identifies the account without revealing the key.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// Slots per window (limits above 4,096 are scaled down to the same rate).
    pub fn slots(&self) -> usize {
        self.local.slots
    }

    /// The window a slot stays spent after its attempt ended.
    pub fn window(&self) -> Duration {
        self.local.window
    }

    /// Waits for a slot of this process's own window (what [`LocalLimiter`] does).
    /// `Err(wait)` when the slot would come after `deadline`.
    pub async fn acquire_local(
        &self,
        deadline: Option<std::time::Instant>,
    ) -> Result<Permit<'_>, Duration> {
        self.local.acquire(deadline).await
    }

    /// Holds this process's callers off for `pause`.
    pub fn pause_local(&self, pause: Duration) {
        self.local.pause(pause);
    }

    /// How long this process's pause still lasts, if one is in force.
    pub fn local_pause_remaining(&self) -> Option<Duration> {
        self.local.paused_for()
    }
}

fn fingerprint(service: &str, credential: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(b"tidings-ratelimit\0");
    hash.update(service.as_bytes());
    hash.update(b"\0");
    hash.update(credential.as_bytes());
    let mut hex = hex::encode(hash.finalize());
    hex.truncate(32);
    hex
}

/// A granted slot. [`Permit::release`] it when the attempt has finished: the slot's window
/// starts then. Dropping it does the same (a shared limiter's release then runs on a spawned
/// task, when there is a tokio runtime).
#[must_use = "the slot is released when the permit is released or dropped"]
pub struct Permit<'a> {
    local: Option<&'a Window>,
    shared: Option<BoxFuture<'static, ()>>,
}

impl fmt::Debug for Permit<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Permit")
            .field("local", &self.local.is_some())
            .field("shared", &self.shared.is_some())
            .finish()
    }
}

impl<'a> Permit<'a> {
    pub(crate) fn local(window: &'a Window) -> Permit<'a> {
        Permit {
            local: Some(window),
            shared: None,
        }
    }

    /// A permit of a shared limiter: `release` runs when the attempt has finished.
    pub fn shared(release: impl Future<Output = ()> + Send + 'static) -> Permit<'static> {
        Permit {
            local: None,
            shared: Some(Box::pin(release)),
        }
    }

    /// A permit of a shared limiter that this process's window of `scope` also counts (see
    /// [`Permit::shared`]): when the shared limiter becomes unreachable and fails open onto
    /// [`LimitScope::acquire_local`], the local window already holds every attempt this
    /// process sent, so the process never exceeds the limit it would keep alone.
    pub fn shared_in(
        scope: &'a LimitScope,
        release: impl Future<Output = ()> + Send + 'static,
    ) -> Permit<'a> {
        scope.local.hold_granted_elsewhere();
        Permit {
            local: Some(&scope.local),
            shared: Some(Box::pin(release)),
        }
    }

    /// A permit that holds nothing (limiting is off).
    pub fn unlimited() -> Permit<'static> {
        Permit {
            local: None,
            shared: None,
        }
    }

    /// Marks the attempt finished and waits until the limiter has recorded it.
    pub async fn release(self) {
        if let Some(release) = self.release_now() {
            release.await;
        }
    }

    /// Marks the attempt finished in this process now; a shared limiter's record is the
    /// returned future, to be awaited. (What [`Permit::release`] does, without a future when
    /// there is nothing to wait for.)
    pub(crate) fn release_now(mut self) -> Option<BoxFuture<'static, ()>> {
        if let Some(window) = self.local.take() {
            window.finish();
        }
        self.shared.take()
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        if let Some(window) = self.local.take() {
            window.finish();
        }
        if let Some(release) = self.shared.take() {
            // A cancelled attempt: record it in the background. Without a runtime the record
            // is lost and the shared limiter's lease expiry returns the slot.
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(release);
            }
        }
    }
}

/// The client's limiter: the scope, the [`Limiter`] holding its slots (`None`: this process),
/// and the spec's rate-limit header names. Off when the client has no limit.
#[derive(Debug)]
pub(crate) struct RateLimiter {
    /// The spec's `X-RateLimit-Remaining` / `X-RateLimit-Reset` names, parsed once.
    remaining: Option<HeaderName>,
    reset: Option<HeaderName>,
    scope: Option<LimitScope>,
    shared: Option<Arc<dyn Limiter>>,
}

impl RateLimiter {
    /// A limiter of this process (no credential needed: nothing leaves the process).
    #[cfg(test)]
    pub(crate) fn new(limit: Option<RateLimit>, names: &RateLimitHeaders) -> Self {
        RateLimiter::with(limit, names, "", "", None)
    }

    /// A limiter of `limit` for `service` and `credential`, in `shared` or this process.
    pub(crate) fn with(
        limit: Option<RateLimit>,
        names: &RateLimitHeaders,
        service: &'static str,
        credential: &str,
        shared: Option<Arc<dyn Limiter>>,
    ) -> Self {
        let parse =
            |name: Option<&str>| name.and_then(|n| HeaderName::from_bytes(n.as_bytes()).ok());
        RateLimiter {
            remaining: parse(names.remaining),
            reset: parse(names.reset),
            scope: limit.map(|limit| LimitScope::new(service, credential, limit)),
            shared,
        }
    }

    /// Whether limiting is on.
    pub(crate) fn is_enabled(&self) -> bool {
        self.scope.is_some()
    }

    /// A slot when one is free right now without waiting or asking a shared limiter (limiting
    /// off, or a free slot in this process's window); `None` means: call [`Self::acquire`].
    pub(crate) fn try_acquire(&self, now: std::time::Instant) -> Option<Permit<'_>> {
        let Some(scope) = &self.scope else {
            return Some(Permit::unlimited());
        };
        match &self.shared {
            None => scope
                .local
                .try_acquire_at(tokio::time::Instant::from_std(now)),
            Some(_) => None,
        }
    }

    /// Waits for a slot, held until the returned [`Permit`] is released (when the attempt has
    /// finished; its window starts then). A [`Error::RateLimited`] when the slot would come
    /// after `deadline`; a [`Error::LimiterUnavailable`] when a shared limiter that fails closed
    /// cannot reach its store.
    pub(crate) async fn acquire(
        &self,
        deadline: Option<std::time::Instant>,
    ) -> Result<Permit<'_>, Error> {
        let Some(scope) = &self.scope else {
            return Ok(Permit::unlimited());
        };
        let refused = match &self.shared {
            None => match scope.acquire_local(deadline).await {
                Ok(permit) => return Ok(permit),
                Err(wait) => Refusal::Wait(wait),
            },
            Some(shared) => match shared.acquire(scope, deadline).await {
                Ok(permit) => return Ok(permit),
                Err(refusal) => refusal,
            },
        };
        Err(match refused {
            Refusal::Wait(wait) => {
                tracing::debug!(
                    wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                    "rate limiter slot comes after the deadline"
                );
                Error::RateLimited {
                    retry_after: Some(wait),
                    api: None,
                    context: None,
                }
            }
            Refusal::Unavailable(message) => Error::LimiterUnavailable {
                message,
                context: None,
            },
        })
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
        let Some(scope) = &self.scope else { return };
        let mut pause = None;
        if status == 429 {
            pause = server_wait;
        }
        let exhausted = self
            .remaining
            .as_ref()
            .and_then(|name| header_str(headers, name))
            .is_some_and(none_remaining);
        if exhausted
            && let Some(reset) = self
                .reset
                .as_ref()
                .and_then(|name| header_str(headers, name))
                .and_then(rate_limit_reset)
        {
            pause = Some(pause.map_or(reset, |p: Duration| p.max(reset)));
        }
        if let Some(pause) = pause.map(|p| p.min(cap)).filter(|p| !p.is_zero()) {
            tracing::debug!(
                pause_ms = u64::try_from(pause.as_millis()).unwrap_or(u64::MAX),
                "rate limiter: server asked to pause"
            );
            match &self.shared {
                None => scope.pause_local(pause),
                Some(shared) => shared.pause(scope, pause),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;
    use std::sync::Mutex;
    use tokio::time::Instant;

    /// The wait a refusal reports.
    fn wait_of(err: Error) -> Duration {
        match err {
            Error::RateLimited {
                retry_after: Some(wait),
                api: None,
                ..
            } => wait,
            other => panic!("not a limiter refusal: {other:?}"),
        }
    }

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
        let wait = wait_of(
            limiter
                .acquire(Some(std::time::Instant::now() + Duration::from_millis(500)))
                .await
                .expect_err("the slot is held"),
        );
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
        let wait = wait_of(
            limiter
                .acquire(Some(std::time::Instant::now() + Duration::from_millis(10)))
                .await
                .expect_err("would pass the deadline"),
        );
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
        let wait = wait_of(
            limiter
                .acquire(Some(std::time::Instant::now() + Duration::from_secs(1)))
                .await
                .expect_err("paused"),
        );
        assert!(wait > Duration::from_secs(25));
    }

    #[test]
    fn huge_limits_are_scaled_down() {
        let limiter = RateLimiter::new(
            Some(RateLimit::per_second(1_000_000)),
            &RateLimitHeaders::STANDARD,
        );
        let scope = limiter.scope.as_ref().expect("enabled");
        assert!(scope.slots() <= local::MAX_SLOTS as usize);
        assert!(scope.window() < Duration::from_millis(5));
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
