//! Signed webhook delivery (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
//! `webhook-signature`, signed with `tidings_runtime::webhook::StandardWebhooks::sign`), retried
//! with exponential backoff, with a log of every delivery for inspection.
//!
//! Bounded whatever the receivers do: at most [`MAX_PENDING_DELIVERIES`] deliveries wait or run
//! per sender (one more is recorded as failed, "queue full", and logged), at most
//! [`MAX_DELIVERIES_IN_FLIGHT`] requests are open at once and [`MAX_DELIVERIES_PER_ENDPOINT`] to
//! one URL, each attempt within [`WebhookRetry::timeout`]. A receiver that never answers costs
//! a few sockets, never the APIs' answers.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use tidings_runtime::webhook::{StandardWebhooks, Verifier, WebhookRequest};

use super::{Background, ServerError};

/// A new Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64.
pub fn generate_secret() -> String {
    let key: [u8; 32] = rand::random();
    format!(
        "whsec_{}",
        base64::engine::general_purpose::STANDARD.encode(key)
    )
}

/// Where a sandbox sends every event it produces, and the secret it signs them with.
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookTarget {
    /// The receiving URL.
    pub url: String,
    /// The `whsec_...` signing secret.
    pub secret: String,
}

impl WebhookTarget {
    /// Events go to `url`, signed with `secret` (`whsec_...`; see [`generate_secret`]).
    pub fn new(url: impl Into<String>, secret: impl Into<String>) -> Self {
        WebhookTarget {
            url: url.into(),
            secret: secret.into(),
        }
    }
}

impl fmt::Debug for WebhookTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WebhookTarget")
            .field("url", &self.url)
            .field("secret", &"<redacted>")
            .finish()
    }
}

/// How failed deliveries are retried: `attempts` in all, waiting `base × 2^n` (at most `cap`)
/// after failure `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookRetry {
    /// Attempts in all, the first included.
    pub attempts: u32,
    /// Wait after the first failure.
    pub base: Duration,
    /// Longest wait.
    pub cap: Duration,
    /// Timeout of one attempt.
    pub timeout: Duration,
}

impl Default for WebhookRetry {
    /// 6 attempts, 500 ms doubling up to 30 s, 10 s per attempt.
    fn default() -> Self {
        WebhookRetry {
            attempts: 6,
            base: Duration::from_millis(500),
            cap: Duration::from_secs(30),
            timeout: Duration::from_secs(10),
        }
    }
}

impl WebhookRetry {
    /// The wait after failure `n` (0-based).
    pub fn delay(&self, n: u32) -> Duration {
        self.base
            .saturating_mul(2u32.saturating_pow(n.min(20)))
            .min(self.cap)
    }
}

/// Where a delivery stands.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeliveryOutcome {
    /// Not yet accepted by the receiver; more attempts may follow.
    Pending,
    /// The receiver answered 2xx.
    Delivered {
        /// Its status.
        status: u16,
    },
    /// Every attempt failed.
    Failed {
        /// The last failure.
        reason: String,
    },
    /// Not sent: deliveries are turned off ([`WebhookSender::deliveries_off`]).
    NotSent,
}

/// One event sent to one URL.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Delivery {
    /// The `webhook-id`, the same on every attempt.
    pub id: String,
    /// The receiving URL.
    pub url: String,
    /// The event type (`email.delivered`).
    pub event_type: String,
    /// Attempts made so far.
    pub attempts: u32,
    /// Where it stands.
    pub outcome: DeliveryOutcome,
    /// The signature headers of the last attempt (`webhook-id`, `webhook-timestamp`,
    /// `webhook-signature`); empty before the first.
    pub headers: Vec<(String, String)>,
    /// Why the last attempt failed, while more may follow.
    pub last_error: Option<String>,
}

/// Told about every delivery a [`WebhookSender`] queues and every attempt it makes (the
/// inbox's hook).
pub trait DeliveryObserver: Send + Sync + 'static {
    /// `delivery` was queued with this `secret` and `body`.
    fn queued(&self, delivery: &Delivery, secret: &str, body: &[u8]);
    /// An attempt of `delivery` ended.
    fn updated(&self, delivery: &Delivery);
}

/// Deliveries of one sender waiting or running, at most; one more is recorded as failed.
pub const MAX_PENDING_DELIVERIES: usize = 10_000;
/// Delivery requests of one sender open at once, at most (all endpoints together).
pub const MAX_DELIVERIES_IN_FLIGHT: usize = 32;
/// Delivery requests to one URL open at once, at most.
pub const MAX_DELIVERIES_PER_ENDPOINT: usize = 4;

/// The bounds shared by a sender's clones.
#[derive(Debug)]
struct Bounds {
    pending: AtomicUsize,
    dropped: AtomicU64,
    in_flight: tokio::sync::Semaphore,
    per_endpoint: Mutex<HashMap<String, Arc<tokio::sync::Semaphore>>>,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            pending: AtomicUsize::new(0),
            dropped: AtomicU64::new(0),
            in_flight: tokio::sync::Semaphore::new(MAX_DELIVERIES_IN_FLIGHT),
            per_endpoint: Mutex::new(HashMap::new()),
        }
    }
}

impl Bounds {
    /// The semaphore of `url`, made on first use; unused ones are dropped as the map grows.
    fn endpoint(&self, url: &str) -> Arc<tokio::sync::Semaphore> {
        let mut map = self
            .per_endpoint
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() >= 1024 {
            map.retain(|_, s| Arc::strong_count(s) > 1);
        }
        map.entry(url.to_owned())
            .or_insert_with(|| Arc::new(tokio::sync::Semaphore::new(MAX_DELIVERIES_PER_ENDPOINT)))
            .clone()
    }
}

/// Counts one pending delivery until dropped.
struct PendingSlot(Arc<Bounds>);

impl Drop for PendingSlot {
    fn drop(&mut self) {
        self.0.pending.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Sends signed webhooks in the background and keeps a log of them.
#[derive(Debug, Clone)]
pub struct WebhookSender {
    bounds: Arc<Bounds>,
    http: reqwest::Client,
    retry: WebhookRetry,
    background: Background,
    log: Arc<Mutex<Vec<Delivery>>>,
    enabled: bool,
    observer: Option<Arc<dyn DeliveryObserver>>,
}

impl fmt::Debug for dyn DeliveryObserver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DeliveryObserver")
    }
}

/// How a delivery is signed ([`WebhookSender::send_with`]).
#[derive(Clone)]
pub enum Signing {
    /// Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`.
    Standard(StandardWebhooks),
    /// A spec's own scheme (`events.signatures`, or a built-in one): its id and timestamp
    /// headers when it signs them, then its signature header, computed per attempt over the
    /// request as the receiver gets it (URL, headers, body).
    Scheme(Verifier),
    /// Not signed (`signature: none`).
    Unsigned,
}

impl fmt::Debug for Signing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Signing::Standard(_) => "Standard",
            Signing::Scheme(_) => "Scheme",
            Signing::Unsigned => "Unsigned",
        })
    }
}

/// One delivery's request: its media type, headers of its own (what tells it apart), body and
/// signing.
#[derive(Debug, Clone)]
pub struct Outgoing {
    /// The body's media type.
    pub content_type: &'static str,
    /// Headers sent on every attempt, before the signature's.
    pub headers: Vec<(String, String)>,
    /// The body, exactly as sent and signed.
    pub body: Vec<u8>,
    /// How it is signed.
    pub signing: Signing,
}

/// What one attempt sent and how it failed, for the log.
struct Attempt {
    headers: Vec<(String, String)>,
    error: Option<String>,
}

/// Most deliveries kept in the log (older ones are dropped).
const LOG_LIMIT: usize = 10_000;

impl WebhookSender {
    /// A sender whose deliveries run on `background`.
    pub fn new(background: Background, retry: WebhookRetry) -> Self {
        WebhookSender {
            bounds: Arc::new(Bounds::default()),
            http: reqwest::Client::builder()
                .timeout(retry.timeout)
                .connect_timeout(retry.timeout)
                .pool_max_idle_per_host(MAX_DELIVERIES_PER_ENDPOINT)
                // A signed delivery goes to the URL it was registered for, nowhere else.
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap_or_default(),
            retry,
            background,
            log: Arc::new(Mutex::new(Vec::new())),
            enabled: true,
            observer: None,
        }
    }

    /// Tells `observer` about every delivery and attempt.
    pub fn observe(mut self, observer: Arc<dyn DeliveryObserver>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Sends nothing: every event is still signed and logged, as [`DeliveryOutcome::NotSent`].
    /// For runs whose requests name arbitrary URLs (fuzzers), so the sandbox never posts to
    /// them.
    ///
    /// ```
    /// use tidings_sandbox::server::{Background, WebhookRetry, WebhookSender};
    /// let sender = WebhookSender::new(Background::new(), WebhookRetry::default()).deliveries_off();
    /// assert!(!sender.delivers());
    /// ```
    pub fn deliveries_off(mut self) -> Self {
        self.enabled = false;
        self
    }

    /// Whether events are posted (see [`WebhookSender::deliveries_off`]).
    pub fn delivers(&self) -> bool {
        self.enabled
    }

    /// Queues `body` (a JSON event of type `event_type`) for `url`, signed with `secret`.
    /// Returns the `webhook-id`.
    ///
    /// # Errors
    ///
    /// A 500 when `secret` is not a valid `whsec_` secret.
    pub fn send(
        &self,
        url: &str,
        secret: &str,
        event_type: &str,
        body: Vec<u8>,
    ) -> Result<String, ServerError> {
        let signer = StandardWebhooks::new(secret)
            .map_err(|e| ServerError::internal(format!("webhook secret: {e}")))?;
        let outgoing = Outgoing {
            content_type: "application/json",
            headers: Vec::new(),
            body,
            signing: Signing::Standard(signer),
        };
        Ok(self.send_with(url, secret, event_type, outgoing))
    }

    /// Queues `outgoing` for `url`, signed as it says (`secret` is only shown to the
    /// observer); returns the delivery's id. Bounded and logged as [`WebhookSender::send`].
    pub fn send_with(
        &self,
        url: &str,
        secret: &str,
        event_type: &str,
        outgoing: Outgoing,
    ) -> String {
        let id = format!("msg_{}", uuid::Uuid::new_v4().simple());
        let slot = if self.enabled {
            let before = self.bounds.pending.fetch_add(1, Ordering::AcqRel);
            let slot = PendingSlot(self.bounds.clone());
            (before < MAX_PENDING_DELIVERIES).then_some(slot)
        } else {
            None
        };
        let full = self.enabled && slot.is_none();
        let delivery = {
            let mut log = self.lock();
            if log.len() >= LOG_LIMIT {
                log.remove(0);
            }
            let delivery = Delivery {
                id: id.clone(),
                url: url.to_owned(),
                event_type: event_type.to_owned(),
                attempts: 0,
                outcome: if full {
                    DeliveryOutcome::Failed {
                        reason: format!(
                            "not sent: {MAX_PENDING_DELIVERIES} deliveries are already waiting \
                             (receivers too slow or unreachable)"
                        ),
                    }
                } else if self.enabled {
                    DeliveryOutcome::Pending
                } else {
                    DeliveryOutcome::NotSent
                },
                headers: Vec::new(),
                last_error: None,
            };
            log.push(delivery.clone());
            delivery
        };
        if let Some(observer) = &self.observer {
            observer.queued(&delivery, secret, &outgoing.body);
        }
        let Some(slot) = slot else {
            if full {
                let dropped = self.bounds.dropped.fetch_add(1, Ordering::Relaxed) + 1;
                if dropped.is_power_of_two() {
                    tracing::warn!(
                        dropped,
                        "webhook queue full ({MAX_PENDING_DELIVERIES} deliveries waiting); \
                         a delivery to {} is recorded as failed",
                        origin_of(url)
                    );
                }
            }
            return id;
        };
        let sender = self.clone();
        let (url, task_id) = (url.to_owned(), id.clone());
        self.background.spawn(async move {
            sender.deliver(&task_id, &url, &outgoing).await;
            drop(slot);
        });
        id
    }

    /// Every delivery so far, oldest first.
    pub fn deliveries(&self) -> Vec<Delivery> {
        self.lock().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Delivery>> {
        self.log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn record(&self, id: &str, attempts: u32, outcome: DeliveryOutcome, attempt: Attempt) {
        let updated = self.lock().iter_mut().rev().find(|d| d.id == id).map(|d| {
            d.attempts = attempts;
            d.outcome = outcome;
            d.headers = attempt.headers;
            d.last_error = attempt.error;
            d.clone()
        });
        if let (Some(observer), Some(delivery)) = (&self.observer, updated) {
            observer.updated(&delivery);
        }
    }

    /// The headers of one attempt at `timestamp`: the delivery's own, then its signature's.
    fn attempt_headers(
        id: &str,
        url: &str,
        outgoing: &Outgoing,
        timestamp: i64,
    ) -> Result<Vec<(String, String)>, String> {
        let mut headers = outgoing.headers.clone();
        match &outgoing.signing {
            Signing::Standard(signer) => {
                let signature = signer.sign(id, timestamp, &outgoing.body);
                headers.push(("webhook-id".to_owned(), id.to_owned()));
                headers.push(("webhook-timestamp".to_owned(), timestamp.to_string()));
                headers.push(("webhook-signature".to_owned(), signature));
            }
            Signing::Scheme(verifier) => {
                let scheme = verifier.scheme();
                if let Some(name) = scheme.id_header {
                    headers.push((name.to_owned(), id.to_owned()));
                }
                if let Some(name) = scheme.timestamp_header {
                    headers.push((name.to_owned(), timestamp.to_string()));
                }
                let mut map = reqwest::header::HeaderMap::new();
                for (k, v) in &headers {
                    let (Ok(k), Ok(v)) = (
                        reqwest::header::HeaderName::from_bytes(k.as_bytes()),
                        reqwest::header::HeaderValue::from_str(v),
                    ) else {
                        return Err(format!("not sent: `{k}` is not a header"));
                    };
                    map.append(k, v);
                }
                let signature = verifier
                    .sign(&WebhookRequest::new(url, &map, &outgoing.body))
                    .map_err(|e| format!("not sent: cannot sign it: {e}"))?;
                headers.push((scheme.header.to_owned(), signature));
            }
            Signing::Unsigned => {}
        }
        Ok(headers)
    }

    async fn deliver(&self, id: &str, url: &str, outgoing: &Outgoing) {
        let attempts = self.retry.attempts.max(1);
        for attempt in 0..attempts {
            // One of the URL's few connections, then one of the sender's; both are given back
            // before the wait for the next attempt.
            let endpoint = self.bounds.endpoint(url);
            let Ok(endpoint_permit) = endpoint.acquire().await else {
                return;
            };
            let Ok(permit) = self.bounds.in_flight.acquire().await else {
                return;
            };
            let timestamp = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
            let headers = match Self::attempt_headers(id, url, outgoing, timestamp) {
                Ok(headers) => headers,
                Err(reason) => {
                    tracing::warn!(webhook_id = id, %reason, "webhook not sent");
                    let done = Attempt {
                        headers: Vec::new(),
                        error: None,
                    };
                    self.record(id, attempt + 1, DeliveryOutcome::Failed { reason }, done);
                    return;
                }
            };
            let mut request = self
                .http
                .post(url)
                .header("content-type", outgoing.content_type);
            for (k, v) in &headers {
                request = request.header(k.as_str(), v.as_str());
            }
            let result = request.body(outgoing.body.clone()).send().await;
            let failure = match result {
                Ok(response) if response.status().is_success() => {
                    let status = response.status().as_u16();
                    let done = Attempt {
                        headers,
                        error: None,
                    };
                    self.record(id, attempt + 1, DeliveryOutcome::Delivered { status }, done);
                    tracing::debug!(webhook_id = id, status, "webhook delivered");
                    return;
                }
                Ok(response) => answered(response.status()),
                Err(e) => format!("cannot reach the receiver: {}", e.without_url()),
            };
            tracing::info!(webhook_id = id, attempt, %failure, "webhook attempt failed");
            if attempt + 1 == attempts {
                let done = Attempt {
                    headers,
                    error: None,
                };
                tracing::warn!(webhook_id = id, attempts, %failure, "webhook failed; no more attempts");
                let outcome = DeliveryOutcome::Failed { reason: failure };
                self.record(id, attempt + 1, outcome, done);
                return;
            }
            let done = Attempt {
                headers,
                error: Some(failure),
            };
            self.record(id, attempt + 1, DeliveryOutcome::Pending, done);
            drop((permit, endpoint_permit));
            tokio::time::sleep(self.retry.delay(attempt)).await;
        }
    }
}

/// Why a delivery answered with a non-2xx `status` failed; a redirect says it was not followed.
pub(crate) fn answered(status: reqwest::StatusCode) -> String {
    if status.is_redirection() {
        format!(
            "the receiver answered {} (a redirect; webhooks are not sent on to another URL)",
            status.as_u16()
        )
    } else {
        format!("the receiver answered {}", status.as_u16())
    }
}

/// `scheme://host:port` of `url`, for logs (no path or query: they may carry tokens).
fn origin_of(url: &str) -> String {
    url::Url::parse(url).map_or_else(
        |_| "an invalid URL".to_owned(),
        |u| u.origin().ascii_serialization(),
    )
}
