//! Webhook delivery: events are gathered for a short window, then POSTed as
//! `{"time_ms", "events": [...]}` with `X-Pusher-Key` and `X-Pusher-Signature` (hex
//! HMAC-SHA256 of the body with the app secret), retried with backoff until the receiver
//! answers 2xx or the attempts run out. Batches go out one at a time, in order.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use comms_runtime::Secret;
use comms_runtime::reqwest;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Where events wait for delivery.
#[derive(Debug, Clone)]
pub(crate) struct Webhooks {
    tx: mpsc::UnboundedSender<Value>,
}

impl Webhooks {
    pub(crate) fn push(&self, event: Value) {
        let _ = self.tx.send(event);
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
    let (tx, rx) = mpsc::unbounded_channel();
    let task = tokio::spawn(run(delivery, rx));
    (Webhooks { tx }, task)
}

async fn run(delivery: Delivery, mut rx: mpsc::UnboundedReceiver<Value>) {
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
        while let Ok(Some(event)) = tokio::time::timeout_at(deadline, rx.recv()).await {
            events.push(event);
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
