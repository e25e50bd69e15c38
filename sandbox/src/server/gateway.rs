//! The [`Gateway`] every request of a generated server passes
//! ([`Incoming::accept`](super::Incoming::accept)): auth by the spec's schemes, the spec's rate
//! limit (429 with `Retry-After` and `X-RateLimit-*`), idempotency keys (a replay answers the
//! same, another body under the same key is a 409), then decoding and validation of path, query
//! and body, and finally the encoded answer. Bodies are read within
//! [`HttpLimits`](super::HttpLimits), their JSON shape is bounded before it is parsed, and the
//! idempotency store keeps a hash of each body, not the body.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tidings_runtime::spec::ServiceSpec;

use super::idempotency::{IdempotencyStore, lock};
use super::limits::{DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_JSON_VALUES};
use super::{HttpLimits, ServerError};

/// A request rate limit: `requests` per `per`, the runtime's own type (one definition for the
/// client's limiter and the sandbox's); a service's is its spec's `limits.rate`
/// (`service.rate_limit.map(RateLimit::from)`).
pub use tidings_runtime::ratelimit::RateLimit;

/// The request header that makes an authenticated call fail in a chosen way, for testing an
/// app's handling: `429` (with `Retry-After: 1`), `500`, `503` (with `Retry-After: 1`), or
/// `timeout` (no answer for [`FAULT_TIMEOUT`], then `504`). Nothing is done or kept.
pub const FAULT_HEADER: &str = "x-sandbox-fault";
/// How long a `X-Sandbox-Fault: timeout` call waits before its `504`.
pub const FAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The answer a `X-Sandbox-Fault` asks for.
pub(super) async fn fault_answer(fault: &str) -> ServerError {
    match fault.trim() {
        "429" => ServerError::new(
            429,
            "rate_limit_exceeded",
            "X-Sandbox-Fault: 429 (a fault asked for; retry after 1 s)",
        )
        .with_header("Retry-After", "1"),
        "500" => ServerError::new(
            500,
            "internal_error",
            "X-Sandbox-Fault: 500 (a fault asked for)",
        ),
        "503" => ServerError::new(
            503,
            "service_unavailable",
            "X-Sandbox-Fault: 503 (a fault asked for; retry after 1 s)",
        )
        .with_header("Retry-After", "1"),
        "timeout" => {
            tokio::time::sleep(FAULT_TIMEOUT).await;
            ServerError::new(
                504,
                "timeout",
                "X-Sandbox-Fault: timeout (a fault asked for)",
            )
        }
        other => ServerError::bad_request(format!(
            "X-Sandbox-Fault: `{}` is not one of 429, 500, 503, timeout",
            other.escape_debug()
        )),
    }
}

/// How long idempotency keys are kept when the spec does not say (its `retention_hours`).
pub const DEFAULT_IDEMPOTENCY_RETENTION: Duration = Duration::from_secs(24 * 3600);

/// Largest request body accepted by default (the email spec allows 40 MiB of attachments).
pub const DEFAULT_MAX_BODY_BYTES: usize = 48 * 1024 * 1024;

/// What every request of one service passes: the credentials it accepts, the rate limit and
/// the idempotency store. Built from the generated client's `SERVICE` description, so the auth
/// schemes, limit, headers and idempotency header are the spec's.
///
/// ```
/// use std::time::Duration;
/// use tidings_sandbox::server::{Gateway, RateLimit};
/// let gateway = Gateway::new(&tidings::email::SERVICE)
///     .credential("api_key", "test-key")
///     .rate_limit(Some(RateLimit::new(5, Duration::from_secs(1))));
/// assert_eq!(gateway.service().name, "email");
/// ```
#[derive(Clone)]
pub struct Gateway {
    pub(super) service: &'static ServiceSpec,
    pub(super) credentials: Vec<(String, String)>,
    pub(super) limiter: Option<Arc<Limiter>>,
    pub(super) idempotency: IdempotencyStore,
    pub(super) max_body_bytes: usize,
    pub(super) body_read_timeout: Duration,
    pub(super) max_json_values: usize,
    pub(super) max_json_depth: usize,
    /// Checks of minted tokens (JWTs ...), by minter name.
    pub(super) token_checks: Vec<(String, TokenCheck)>,
}

/// Decides whether a minted token (the header value after the scheme's prefix) is valid.
pub type TokenCheck = Arc<dyn Fn(&str) -> bool + Send + Sync>;

impl fmt::Debug for Gateway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gateway")
            .field("service", &self.service.name)
            .field(
                "credentials",
                &self
                    .credentials
                    .iter()
                    .map(|(name, _)| format!("{name}: <redacted>"))
                    .collect::<Vec<_>>(),
            )
            .field("rate_limit", &self.limiter.as_ref().map(|l| l.limit))
            .field("max_body_bytes", &self.max_body_bytes)
            .field("body_read_timeout", &self.body_read_timeout)
            .field("max_json_values", &self.max_json_values)
            .field("max_json_depth", &self.max_json_depth)
            .finish_non_exhaustive()
    }
}

impl Gateway {
    /// A gateway for `service` with the spec's rate limit and no credentials yet (so every
    /// request is refused until [`Gateway::credential`] names one).
    pub fn new(service: &'static ServiceSpec) -> Self {
        Gateway {
            service,
            credentials: Vec::new(),
            limiter: service
                .rate_limit
                .map(|r| Arc::new(Limiter::new(RateLimit::from(r)))),
            idempotency: IdempotencyStore::new(
                DEFAULT_IDEMPOTENCY_RETENTION,
                super::DEFAULT_IDEMPOTENCY_MAX_ENTRIES,
                super::DEFAULT_IDEMPOTENCY_MAX_BYTES,
            ),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            body_read_timeout: super::DEFAULT_BODY_READ_TIMEOUT,
            max_json_values: DEFAULT_MAX_JSON_VALUES,
            max_json_depth: DEFAULT_MAX_JSON_DEPTH,
            token_checks: Vec::new(),
        }
    }

    /// How to check the tokens of the spec's minted auth scheme whose `minter` is `minter`
    /// (e.g. verify a JWT's signature and expiry). Without one, every minted token is refused.
    pub fn token_check(
        mut self,
        minter: impl Into<String>,
        check: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> Self {
        let minter = minter.into();
        self.token_checks.retain(|(m, _)| *m != minter);
        self.token_checks.push((minter, Arc::new(check)));
        self
    }

    /// Applies the request-side bounds of `limits`: the body size (when it sets one), the body
    /// read timeout and the idempotency store's capacity (keys already stored are forgotten).
    pub fn limits(mut self, limits: &HttpLimits) -> Self {
        if let Some(max) = limits.max_body_bytes {
            self.max_body_bytes = max;
        }
        self.body_read_timeout = limits.body_read_timeout;
        self.rebuild_idempotency(
            self.idempotency.retention,
            limits.idempotency_max_entries,
            limits.idempotency_max_bytes,
        );
        self
    }

    /// Most JSON values and deepest nesting a request body may have (413 and 422 past them);
    /// they bound what parsing a body can allocate, whatever its size.
    pub fn json_shape(mut self, max_values: usize, max_depth: usize) -> Self {
        self.max_json_values = max_values;
        self.max_json_depth = max_depth;
        self
    }

    /// Accepts `value` for the spec credential `name` (`api_key`).
    pub fn credential(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        let name = name.into();
        self.credentials.retain(|(n, _)| *n != name);
        self.credentials.push((name, value.into()));
        self
    }

    /// Replaces the spec's rate limit; `None` turns limiting off.
    pub fn rate_limit(mut self, limit: Option<RateLimit>) -> Self {
        self.limiter = limit.map(|l| Arc::new(Limiter::new(l)));
        self
    }

    /// How long idempotency keys are remembered.
    pub fn idempotency_retention(mut self, retention: Duration) -> Self {
        self.rebuild_idempotency(
            retention,
            self.idempotency.max_entries,
            self.idempotency.max_bytes,
        );
        self
    }

    /// A new idempotency store with these bounds (reloading the answers kept in its file, when
    /// it has one).
    fn rebuild_idempotency(&mut self, retention: Duration, max_entries: usize, max_bytes: usize) {
        let fresh = IdempotencyStore::new(retention, max_entries, max_bytes);
        self.idempotency = match self.idempotency.file.take() {
            Some(file) => fresh.with_file(file).unwrap_or_else(|why| {
                tracing::error!(error = %why, "idempotency: cannot reload the kept answers");
                IdempotencyStore::new(retention, max_entries, max_bytes)
            }),
            None => fresh,
        };
    }

    /// Closes the file of [`Gateway::idempotency_data`], releasing it for the next start on
    /// the same data directory (the services call it when they stop). Nothing to do without one.
    pub fn close_idempotency_data(&self) {
        if let Some(file) = &self.idempotency.file {
            file.close();
        }
    }

    /// With a data directory, keeps the answers given to idempotency keys in
    /// `DIR/idempotency/<name>.sqlite3` (each written before it is sent) and loads those kept
    /// there that are younger than the retention, so a retry after a restart is answered as
    /// before, not run again. Without one, nothing changes.
    ///
    /// # Errors
    ///
    /// When the file cannot be created or read, or another process holds it.
    pub fn idempotency_data(
        mut self,
        data: Option<&std::path::Path>,
        name: &str,
    ) -> std::io::Result<Self> {
        if let Some(dir) = data {
            let file =
                super::idempotency::AnswerFile::open(&super::idempotency::answer_path(dir, name))
                    .map_err(std::io::Error::other)?;
            let store = std::mem::replace(
                &mut self.idempotency,
                IdempotencyStore::new(Duration::ZERO, 1, 0),
            );
            self.idempotency = store.with_file(file).map_err(std::io::Error::other)?;
        }
        Ok(self)
    }

    /// Idempotency keys stored now (in flight or answered), and the bytes their answers take.
    pub fn idempotency_usage(&self) -> (usize, usize) {
        let slots = lock(&self.idempotency.slots);
        (slots.map.len(), slots.bytes)
    }

    /// Largest request body; larger ones get 413 `payload_too_large`.
    pub fn max_body_bytes(mut self, max: usize) -> Self {
        self.max_body_bytes = max;
        self
    }

    /// The service this gateway guards.
    pub fn service(&self) -> &'static ServiceSpec {
        self.service
    }

    /// The rate limit in force.
    pub fn current_rate_limit(&self) -> Option<RateLimit> {
        self.limiter.as_ref().map(|l| l.limit)
    }

    /// Checks a presented credential value against the one configured for `name`, in constant
    /// time. Used by the SMTP listener too.
    pub fn accepts(&self, name: &str, presented: &str) -> bool {
        self.credentials.iter().any(|(n, v)| {
            n == name && tidings_runtime::constant_time_eq(v.as_bytes(), presented.as_bytes())
        })
    }

    /// Whether `presented` is the value of any credential (a path naming the caller's own
    /// account by the user name it signs in with), compared in constant time.
    pub fn accepts_any(&self, presented: &str) -> bool {
        self.credentials
            .iter()
            .any(|(_, v)| tidings_runtime::constant_time_eq(v.as_bytes(), presented.as_bytes()))
    }

    /// Takes one request from the rate limit (for front doors other than HTTP, like SMTP):
    /// `Err` holds the wait until the window resets.
    pub fn take_rate_limit(&self) -> Result<(), Duration> {
        match &self.limiter {
            Some(limiter) => {
                let state = limiter.take();
                if state.allowed {
                    Ok(())
                } else {
                    Err(state.reset)
                }
            }
            None => Ok(()),
        }
    }
}

/// A fixed-window limiter: `requests` per window, the window starting at its first request.
#[derive(Debug)]
pub(super) struct Limiter {
    pub(super) limit: RateLimit,
    pub(super) window: Mutex<(Instant, u32)>,
}

pub(super) struct LimitState {
    pub(super) allowed: bool,
    pub(super) remaining: u32,
    pub(super) reset: Duration,
}

impl Limiter {
    fn new(limit: RateLimit) -> Self {
        Limiter {
            limit,
            window: Mutex::new((Instant::now(), 0)),
        }
    }

    pub(super) fn take(&self) -> LimitState {
        let mut window = lock(&self.window);
        let now = Instant::now();
        if now.duration_since(window.0) >= self.limit.per() {
            *window = (now, 0);
        }
        let reset = self
            .limit
            .per()
            .saturating_sub(now.duration_since(window.0));
        if window.1 >= self.limit.requests() {
            return LimitState {
                allowed: false,
                remaining: 0,
                reset,
            };
        }
        window.1 += 1;
        LimitState {
            allowed: true,
            remaining: self.limit.requests() - window.1,
            reset,
        }
    }
}

/// Whole seconds, rounded up, at least 1: what `Retry-After` and `X-RateLimit-Reset` carry.
pub(super) fn ceil_secs(d: Duration) -> u64 {
    let s = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    s.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limiter_refuses_past_the_limit_and_resets_after_the_window() {
        let limiter = Limiter::new(RateLimit::new(2, Duration::from_millis(50)));
        assert!(limiter.take().allowed);
        let second = limiter.take();
        assert!(second.allowed);
        assert_eq!(second.remaining, 0);
        assert!(!limiter.take().allowed);
        std::thread::sleep(Duration::from_millis(60));
        assert!(limiter.take().allowed);
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(ceil_secs(Duration::from_millis(1)), 1);
        assert_eq!(ceil_secs(Duration::from_millis(1001)), 2);
        assert_eq!(ceil_secs(Duration::from_secs(60)), 60);
    }
}
