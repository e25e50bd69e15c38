//! [`RedisLimiter`]: one rate limit shared by every process that sends with the same
//! credential, kept in Redis and changed only by Lua scripts (atomic on the server, sent with
//! EVALSHA and loaded on a `NOSCRIPT` answer), with a configured behaviour when Redis is down.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{RedisError, Script};
use tokio::sync::OnceCell;
use tokio::time::Instant;

use super::{BoxFuture, LimitScope, Limiter, Permit, Refusal};
use crate::Error;

/// Grants a slot when the window has room. Keys: finished attempts (sorted set scored by when
/// they finished), attempts in flight (scored by when their lease runs out), the pause (a
/// string holding when it ends). Times are the Redis server's, in milliseconds, so the
/// processes' clocks never need to agree. Returns `{1, 0}` (granted) or `{0, wait_ms}`.
const ACQUIRE: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slots = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local lease = tonumber(ARGV[3])
local paused = tonumber(redis.call('GET', KEYS[3]) or '0') or 0
if paused > now then return {0, paused - now} end
-- An attempt whose process vanished counts as finished when its lease ran out.
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'WITHSCORES')
for i = 1, #expired, 2 do redis.call('ZADD', KEYS[1], expired[i + 1], expired[i]) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2]) < slots then
  redis.call('ZADD', KEYS[2], now + lease, ARGV[4])
  redis.call('PEXPIRE', KEYS[2], lease + window)
  return {1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then return {0, math.max(1, tonumber(oldest[2]) + window - now)} end
-- Every slot is held by a running attempt: none comes back sooner than a window from now.
return {0, window}
";

/// Marks an attempt finished: out of the in-flight set, into the window at the server's now.
const RELEASE: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]))
return 1
";

/// Extends the shared pause to at least `ARGV[1]` ms from the server's now.
const PAUSE: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ms = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if now + ms > current then redis.call('SET', KEYS[1], now + ms, 'PX', ms) end
return 1
";

/// What a [`RedisLimiter`] does while Redis cannot be reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum WhenUnreachable {
    /// Keep sending, limited by this process's own window, which also counts what Redis granted
    /// this process before it went away: one process never exceeds the client's limit, but
    /// `n` processes together may send up to `n` times the limit until Redis is back (the
    /// server's 429s then pause them).
    #[default]
    FailOpen,
    /// Send nothing: calls fail with [`Error::LimiterUnavailable`].
    FailClosed,
}

/// A [`Limiter`] whose slots live in Redis, shared by every process (and every client) that
/// uses the same Redis, service and credential. Cheap to clone; clones share one connection.
///
/// Keys are `<prefix>:{<service>:<fingerprint>}:<part>`, where the fingerprint is a hash of the
/// credential (never the credential itself); the braces keep one limit's keys in one Redis
/// Cluster slot. Keys expire on their own once a limit is idle.
///
/// ```no_run
/// use std::sync::Arc;
/// use tidings_runtime::ratelimit::redis::{RedisLimiter, WhenUnreachable};
/// # fn demo(spec: &'static tidings_runtime::spec::ServiceSpec) -> Result<(), tidings_runtime::Error> {
/// let shared = RedisLimiter::builder("redis://127.0.0.1:6379/")
///     .when_unreachable(WhenUnreachable::FailClosed)
///     .build()?;
/// let client = tidings_runtime::Client::builder(spec)
///     .env()
///     .limiter(Arc::new(shared))
///     .build()?;
/// # let _ = client; Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisLimiter {
    inner: Arc<Inner>,
}

struct Inner {
    client: redis::Client,
    connection: OnceCell<ConnectionManager>,
    acquire: Script,
    release: Script,
    pause: Script,
    prefix: String,
    when_unreachable: WhenUnreachable,
    timeout: Duration,
    lease: Duration,
    retry_interval: Duration,
    /// Until then Redis is not asked (it failed a moment ago).
    down_until: Mutex<Option<Instant>>,
    /// Makes permit names unique across processes.
    owner: String,
    next_permit: AtomicU64,
    stats: Counters,
}

#[derive(Debug, Default)]
struct Counters {
    shared: AtomicU64,
    local: AtomicU64,
    refused: AtomicU64,
    store_errors: AtomicU64,
}

/// What a [`RedisLimiter`] has done since it was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct RedisLimiterStats {
    /// Slots granted by Redis.
    pub shared_grants: u64,
    /// Slots granted by this process's window while Redis was unreachable (fail open).
    pub local_grants: u64,
    /// Calls refused because Redis was unreachable (fail closed).
    pub refused: u64,
    /// Redis commands that failed or timed out.
    pub store_errors: u64,
}

impl fmt::Debug for RedisLimiter {
    // No address: a Redis URL may carry a password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &*self.inner;
        f.debug_struct("RedisLimiter")
            .field("prefix", &inner.prefix)
            .field("when_unreachable", &inner.when_unreachable)
            .field("timeout", &inner.timeout)
            .field("lease", &inner.lease)
            .finish_non_exhaustive()
    }
}

/// Builds a [`RedisLimiter`]; see [`RedisLimiter::builder`].
#[must_use]
pub struct RedisLimiterBuilder {
    url: String,
    prefix: String,
    when_unreachable: WhenUnreachable,
    timeout: Duration,
    lease: Duration,
    retry_interval: Duration,
}

impl fmt::Debug for RedisLimiterBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisLimiterBuilder")
            .field("prefix", &self.prefix)
            .field("when_unreachable", &self.when_unreachable)
            .field("timeout", &self.timeout)
            .field("lease", &self.lease)
            .field("retry_interval", &self.retry_interval)
            .finish_non_exhaustive()
    }
}

impl RedisLimiterBuilder {
    /// The prefix of every key (default `tidings:ratelimit`).
    pub fn key_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// What to do while Redis cannot be reached (default [`WhenUnreachable::FailOpen`]).
    pub fn when_unreachable(mut self, behaviour: WhenUnreachable) -> Self {
        self.when_unreachable = behaviour;
        self
    }

    /// Longest wait for one Redis command, connecting included (default 250 ms); past it Redis
    /// counts as unreachable.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How long a slot of an attempt whose process vanished stays in flight before it counts
    /// as finished (default 120 s; keep it above the attempt timeout).
    pub fn lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// After a failure, how long to use the fallback before asking Redis again (default 1 s).
    pub fn retry_interval(mut self, interval: Duration) -> Self {
        self.retry_interval = interval;
        self
    }

    /// Checks the URL (`redis://[:password@]host:port[/db]`); connects lazily, on first use.
    pub fn build(self) -> Result<RedisLimiter, Error> {
        let client = redis::Client::open(self.url.as_str()).map_err(|e| {
            Error::config(format!(
                "invalid Redis URL for the rate limiter: {}",
                describe(&e)
            ))
        })?;
        let owner = hex::encode(crate::random::bytes::<8>());
        Ok(RedisLimiter {
            inner: Arc::new(Inner {
                client,
                connection: OnceCell::new(),
                acquire: Script::new(ACQUIRE),
                release: Script::new(RELEASE),
                pause: Script::new(PAUSE),
                prefix: self.prefix,
                when_unreachable: self.when_unreachable,
                timeout: self.timeout.max(Duration::from_millis(1)),
                lease: self.lease.max(Duration::from_millis(1)),
                retry_interval: self.retry_interval,
                down_until: Mutex::new(None),
                owner,
                next_permit: AtomicU64::new(0),
                stats: Counters::default(),
            }),
        })
    }
}

impl RedisLimiter {
    /// A builder for the Redis at `url` (`redis://host:port/`), with the defaults: fail open,
    /// 250 ms per command, 120 s lease, 1 s between tries while Redis is down.
    pub fn builder(url: impl Into<String>) -> RedisLimiterBuilder {
        RedisLimiterBuilder {
            url: url.into(),
            prefix: "tidings:ratelimit".to_owned(),
            when_unreachable: WhenUnreachable::FailOpen,
            timeout: Duration::from_millis(250),
            lease: Duration::from_secs(120),
            retry_interval: Duration::from_secs(1),
        }
    }

    /// What this limiter has done so far.
    pub fn stats(&self) -> RedisLimiterStats {
        let s = &self.inner.stats;
        RedisLimiterStats {
            shared_grants: s.shared.load(Ordering::Relaxed),
            local_grants: s.local.load(Ordering::Relaxed),
            refused: s.refused.load(Ordering::Relaxed),
            store_errors: s.store_errors.load(Ordering::Relaxed),
        }
    }
}

impl Limiter for RedisLimiter {
    fn acquire<'a>(
        &'a self,
        scope: &'a LimitScope,
        deadline: Option<std::time::Instant>,
    ) -> BoxFuture<'a, Result<Permit<'a>, Refusal>> {
        Box::pin(self.acquire_slot(scope, deadline))
    }

    fn pause(&self, scope: &LimitScope, pause: Duration) {
        // This process holds off at once; the others learn it from Redis.
        scope.pause_local(pause);
        let inner = Arc::clone(&self.inner);
        let key = inner.key(scope, "pause");
        let ms = u64::try_from(pause.as_millis()).unwrap_or(u64::MAX).max(1);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let mut invocation = inner.pause.key(key);
                invocation.arg(ms);
                let _ = inner.run::<i64>(&invocation).await;
            });
        }
    }
}

impl RedisLimiter {
    async fn acquire_slot<'a>(
        &'a self,
        scope: &'a LimitScope,
        deadline: Option<std::time::Instant>,
    ) -> Result<Permit<'a>, Refusal> {
        let inner = &*self.inner;
        let deadline = deadline.map(Instant::from_std);
        let window_ms = u64::try_from(scope.window().as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let lease_ms = u64::try_from(inner.lease.as_millis()).unwrap_or(u64::MAX);
        let keys = [
            inner.key(scope, "done"),
            inner.key(scope, "held"),
            inner.key(scope, "pause"),
        ];
        let member = format!(
            "{}-{}",
            inner.owner,
            inner.next_permit.fetch_add(1, Ordering::Relaxed)
        );
        loop {
            // A pause this process learned holds whether or not Redis answers.
            let wait = match scope.local_pause_remaining() {
                Some(wait) => Some(wait),
                None if inner.is_down() => return inner.fallback(scope, deadline).await,
                None => {
                    let mut invocation = inner.acquire.prepare_invoke();
                    invocation
                        .key(&keys[0])
                        .key(&keys[1])
                        .key(&keys[2])
                        .arg(scope.slots())
                        .arg(window_ms)
                        .arg(lease_ms)
                        .arg(&member);
                    match inner.run::<(u8, u64)>(&invocation).await {
                        Ok((1, _)) => None,
                        Ok((_, wait_ms)) => Some(Duration::from_millis(wait_ms.max(1))),
                        Err(()) => return inner.fallback(scope, deadline).await,
                    }
                }
            };
            let Some(wait) = wait else {
                inner.stats.shared.fetch_add(1, Ordering::Relaxed);
                let inner = Arc::clone(&self.inner);
                let [done, held, _] = keys;
                return Ok(Permit::shared_in(scope, async move {
                    let mut invocation = inner.release.key(done);
                    invocation
                        .key(held)
                        .arg(member)
                        .arg(window_ms)
                        .arg(lease_ms);
                    let _ = inner.run::<i64>(&invocation).await;
                }));
            };
            let now = Instant::now();
            if deadline.is_some_and(|d| now + wait > d) {
                return Err(Refusal::Wait(wait));
            }
            tracing::trace!(
                wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                "shared rate limiter: waiting for a slot"
            );
            tokio::time::sleep(wait).await;
        }
    }
}

impl Inner {
    fn key(&self, scope: &LimitScope, part: &str) -> String {
        format!(
            "{}:{{{}:{}}}:{part}",
            self.prefix,
            scope.service(),
            scope.fingerprint()
        )
    }

    fn is_down(&self) -> bool {
        let down_until = self.down_until.lock().unwrap_or_else(|p| p.into_inner());
        down_until.is_some_and(|until| Instant::now() < until)
    }

    /// Runs a script within the timeout. A failure marks Redis down for the retry interval.
    async fn run<T: redis::FromRedisValue>(
        &self,
        invocation: &redis::ScriptInvocation<'_>,
    ) -> Result<T, ()> {
        let outcome = tokio::time::timeout(self.timeout, async {
            let connection = self
                .connection
                .get_or_try_init(|| async {
                    let config = ConnectionManagerConfig::new()
                        .set_connection_timeout(Some(self.timeout))
                        .set_response_timeout(Some(self.timeout))
                        .set_number_of_retries(1);
                    ConnectionManager::new_lazy_with_config(self.client.clone(), config)
                })
                .await?;
            let mut connection = connection.clone();
            invocation.invoke_async::<T>(&mut connection).await
        })
        .await;
        let failure = match outcome {
            Ok(Ok(value)) => {
                let mut down_until = self.down_until.lock().unwrap_or_else(|p| p.into_inner());
                if down_until.take().is_some() {
                    tracing::info!("shared rate limiter: Redis answers again");
                }
                return Ok(value);
            }
            Ok(Err(err)) => describe(&err),
            Err(_elapsed) => format!("no answer within {:?}", self.timeout),
        };
        self.stats.store_errors.fetch_add(1, Ordering::Relaxed);
        let mut down_until = self.down_until.lock().unwrap_or_else(|p| p.into_inner());
        if down_until.is_none() {
            tracing::warn!(
                behaviour = ?self.when_unreachable,
                "shared rate limiter: Redis unreachable ({failure})"
            );
        }
        *down_until = Some(Instant::now() + self.retry_interval);
        Err(())
    }

    async fn fallback<'a>(
        &self,
        scope: &'a LimitScope,
        deadline: Option<Instant>,
    ) -> Result<Permit<'a>, Refusal> {
        match self.when_unreachable {
            WhenUnreachable::FailOpen => {
                let permit = scope
                    .acquire_local(deadline.map(Instant::into_std))
                    .await
                    .map_err(Refusal::Wait)?;
                self.stats.local.fetch_add(1, Ordering::Relaxed);
                Ok(permit)
            }
            WhenUnreachable::FailClosed => {
                self.stats.refused.fetch_add(1, Ordering::Relaxed);
                Err(Refusal::Unavailable(
                    "Redis cannot be reached and the limiter fails closed".to_owned(),
                ))
            }
        }
    }
}

/// A Redis error without anything that could carry the address or a password.
fn describe(err: &RedisError) -> String {
    if err.is_timeout() {
        "timed out".to_owned()
    } else if err.is_connection_refusal() {
        "connection refused".to_owned()
    } else if err.is_connection_dropped() {
        "connection dropped".to_owned()
    } else {
        format!("{} error", err.category())
    }
}
