//! Webhook delivery: events are gathered for a short window, then POSTed as
//! `{"time_ms", "events": [...]}` with `X-Pusher-Key` and `X-Pusher-Signature` (hex
//! HMAC-SHA256 of the body with the app secret), retried with backoff until the receiver
//! answers 2xx or the attempts run out. Batches go out one at a time, in order.
//!
//! Bounded: at most [`MAX_QUEUED`] events wait while a batch is being delivered (a slow or dead
//! receiver cannot grow the sandbox's memory); further events are dropped, counted and logged.
//! A batch holds at most [`MAX_BATCH`] events; a full batch goes out before its window ends.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use comms_runtime::Secret;
use comms_runtime::reqwest;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Events waiting for delivery, at most: beyond it events are dropped (and counted).
pub(crate) const MAX_QUEUED: usize = 10_000;
/// Events in one webhook POST, at most.
pub(crate) const MAX_BATCH: usize = 1_000;

/// Where events wait for delivery.
#[derive(Debug, Clone)]
pub(crate) struct Webhooks {
    tx: mpsc::Sender<Value>,
    dropped: Arc<AtomicU64>,
}

impl Webhooks {
    /// Queues an event; `false` when the queue is full (or delivery stopped) and it was dropped.
    pub(crate) fn push(&self, event: Value) -> bool {
        match self.tx.try_send(event) {
            Ok(()) => true,
            Err(e) => {
                let dropped = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
                if dropped.is_power_of_two() {
                    tracing::warn!(
                        dropped,
                        "realtime sandbox: webhook queue full ({MAX_QUEUED} events) or closed; \
                         event dropped: {}",
                        match e {
                            mpsc::error::TrySendError::Full(_) => "full",
                            mpsc::error::TrySendError::Closed(_) => "closed",
                        }
                    );
                }
                false
            }
        }
    }

    /// Events dropped so far because the queue was full.
    #[cfg(test)]
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

/// How webhooks are sent.
#[derive(Debug, Clone)]
pub(crate) struct Delivery {
    pub(crate) url: String,
    pub(crate) key: String,
    pub(crate) secret: Secret,
    pub(crate) window: Duration,
    pub(crate) attempts: u32,
}

/// Starts the delivery task.
pub(crate) fn start(delivery: Delivery) -> (Webhooks, JoinHandle<()>) {
    start_bounded(delivery, MAX_QUEUED, MAX_BATCH)
}

fn start_bounded(delivery: Delivery, queued: usize, batch: usize) -> (Webhooks, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(queued.max(1));
    let task = tokio::spawn(run(delivery, rx, batch.max(1)));
    let dropped = Arc::new(AtomicU64::new(0));
    (Webhooks { tx, dropped }, task)
}

async fn run(delivery: Delivery, mut rx: mpsc::Receiver<Value>, batch: usize) {
    let client = match reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
    {
        Ok(c) => c,
        Err(e) => {
            tracing::error!("realtime sandbox: cannot build the webhook HTTP client: {e}");
            return;
        }
    };
    while let Some(first) = rx.recv().await {
        let mut events = vec![first];
        let deadline = tokio::time::Instant::now() + delivery.window;
        while events.len() < batch {
            match tokio::time::timeout_at(deadline, rx.recv()).await {
                Ok(Some(event)) => events.push(event),
                _ => break,
            }
        }
        send(&client, &delivery, events).await;
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

async fn send(client: &reqwest::Client, delivery: &Delivery, events: Vec<Value>) {
    let count = events.len();
    let body = json!({"time_ms": now_ms(), "events": events}).to_string();
    let signature = comms_runtime::webhook::sign_pusher(delivery.secret.expose(), body.as_bytes());
    let mut delay = Duration::from_millis(100);
    for attempt in 1..=delivery.attempts.max(1) {
        let result = client
            .post(&delivery.url)
            .header("Content-Type", "application/json")
            .header("X-Pusher-Key", &delivery.key)
            .header("X-Pusher-Signature", &signature)
            .body(body.clone())
            .send()
            .await;
        let problem = match result {
            Ok(r) if r.status().is_success() => return,
            Ok(r) => format!("answered {}", r.status()),
            Err(e) => format!("failed: {e}"),
        };
        tracing::debug!(attempt, "realtime sandbox: webhook delivery {problem}");
        if attempt < delivery.attempts {
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(Duration::from_secs(2));
        } else {
            tracing::warn!(
                events = count,
                "realtime sandbox: webhook dropped after {attempt} attempts ({problem})"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use tokio::io::AsyncReadExt;

    /// A receiver that accepts connections and never answers keeps the first batch in flight;
    /// the queue then fills to its cap and further events are dropped and counted, not held.
    #[tokio::test]
    async fn a_stalled_receiver_fills_the_queue_to_its_cap_then_events_are_dropped() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hooks", listener.local_addr().unwrap());
        let (got_request_tx, mut got_request) = mpsc::channel(1);
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((mut socket, _)) = listener.accept().await {
                let mut buf = [0u8; 1024];
                let _ = socket.read(&mut buf).await;
                let _ = got_request_tx.try_send(());
                held.push(socket);
            }
        });
        let (hooks, task) = start_bounded(
            Delivery {
                url,
                key: "key".into(),
                secret: Secret::new("secret"),
                window: Duration::from_millis(1),
                attempts: 1,
            },
            4,
            2,
        );
        assert!(hooks.push(json!({"name": "a"})));
        assert!(hooks.push(json!({"name": "b"})));
        got_request.recv().await.unwrap();
        for name in ["c", "d", "e", "f"] {
            assert!(hooks.push(json!({ "name": name })), "{name} fits the queue");
        }
        assert!(
            !hooks.push(json!({"name": "g"})),
            "the fifth waiting event is refused"
        );
        assert!(!hooks.push(json!({"name": "h"})));
        assert_eq!(hooks.dropped(), 2);
        task.abort();
    }
}
