//! Webhook delivery: events are gathered for a short window, then POSTed as
//! `{"time_ms", "events": [...]}` with `X-Pusher-Key` and `X-Pusher-Signature` (hex
//! HMAC-SHA256 of the body with the app secret), retried with backoff until the receiver
//! answers 2xx or the attempts run out. Batches go out one at a time, in order.
//!
//! Bounded: at most [`MAX_QUEUED`] events wait while a batch is being delivered (a slow or dead
//! receiver cannot grow the sandbox's memory); further events are dropped, counted and logged.
//! A batch holds at most [`MAX_BATCH`] events; a full batch goes out before its window ends.
//!
//! With an inbox, every POST is recorded there (service `realtime`: URL, event names, signature
//! headers, attempts, response status), and the inbox's redelivery queues the same body again
//! behind the waiting events, signed again with the app secret (which the inbox never keeps).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use tidings_runtime::Secret;
use tidings_runtime::reqwest;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::inbox::{Inbox, Redeliver, RedeliverError, WebhookRecord};
use crate::server::{Delivery as Logged, DeliveryOutcome};

/// Events waiting for delivery, at most: beyond it events are dropped (and counted).
pub(crate) const MAX_QUEUED: usize = 10_000;
/// Events in one webhook POST, at most.
pub(crate) const MAX_BATCH: usize = 1_000;

/// What waits in the delivery queue: an event for the next batch, or a recorded POST to send
/// again.
#[derive(Debug)]
enum Item {
    Event(Value),
    Resend {
        id: String,
        url: String,
        body: String,
    },
}

/// Where events wait for delivery.
#[derive(Debug, Clone)]
pub(crate) struct Webhooks {
    tx: mpsc::Sender<Item>,
    dropped: Arc<AtomicU64>,
}

impl Webhooks {
    /// Queues an event; `false` when the queue is full (or delivery stopped) and it was dropped.
    pub(crate) fn push(&self, event: Value) -> bool {
        match self.tx.try_send(Item::Event(event)) {
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

    /// The inbox's way to send a recorded delivery again (through this queue, in order).
    pub(crate) fn redeliverer(&self) -> Arc<dyn Redeliver> {
        Arc::new(Redeliverer {
            tx: self.tx.clone(),
        })
    }
}

/// Sends a recorded realtime webhook again through the delivery queue.
struct Redeliverer {
    tx: mpsc::Sender<Item>,
}

impl Redeliver for Redeliverer {
    fn redeliver(
        &self,
        inbox: &Inbox,
        record: &WebhookRecord,
        _secret: Option<&str>,
    ) -> Result<String, RedeliverError> {
        // A place in the queue first: a refused redelivery leaves no record behind.
        let permit = self.tx.try_reserve().map_err(|e| match e {
            mpsc::error::TrySendError::Full(()) => RedeliverError::Busy("realtime".into()),
            mpsc::error::TrySendError::Closed(()) => RedeliverError::NotRunning("realtime".into()),
        })?;
        let id = delivery_id();
        let logged = pending(&id, &record.url, &record.event_type);
        inbox.webhook_queued("realtime", &logged, None, record.body.as_bytes());
        permit.send(Item::Resend {
            id: id.clone(),
            url: record.url.clone(),
            body: record.body.clone(),
        });
        Ok(id)
    }
}

/// A new delivery's id in the inbox (Pusher webhooks carry none of their own).
fn delivery_id() -> String {
    format!("rt_{}", uuid::Uuid::new_v4().simple())
}

fn pending(id: &str, url: &str, events: &str) -> Logged {
    Logged {
        id: id.to_owned(),
        url: url.to_owned(),
        event_type: events.to_owned(),
        attempts: 0,
        outcome: DeliveryOutcome::Pending,
        headers: Vec::new(),
        last_error: None,
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
    /// Where each POST is recorded, if anywhere.
    pub(crate) inbox: Option<Inbox>,
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

async fn run(delivery: Delivery, mut rx: mpsc::Receiver<Item>, batch: usize) {
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
    // A redelivery met while gathering a batch goes out right after that batch.
    let mut next: Option<Item> = None;
    loop {
        let item = match next.take() {
            Some(item) => item,
            None => match rx.recv().await {
                Some(item) => item,
                None => return,
            },
        };
        let first = match item {
            Item::Event(event) => event,
            Item::Resend { id, url, body } => {
                let logged = pending(&id, &url, "");
                post(&client, &delivery, &url, body, logged).await;
                continue;
            }
        };
        let mut events = vec![first];
        let deadline = tokio::time::Instant::now() + delivery.window;
        while events.len() < batch {
            match tokio::time::timeout_at(deadline, rx.recv()).await {
                Ok(Some(Item::Event(event))) => events.push(event),
                Ok(Some(resend)) => {
                    next = Some(resend);
                    break;
                }
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

/// The distinct event names of a batch, in order of first appearance (`channel_occupied,
/// member_added`).
fn event_names(events: &[Value]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for name in events
        .iter()
        .filter_map(|e| e.get("name").and_then(Value::as_str))
    {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join(", ")
}

async fn send(client: &reqwest::Client, delivery: &Delivery, events: Vec<Value>) {
    let names = event_names(&events);
    let body = json!({"time_ms": now_ms(), "events": events}).to_string();
    let logged = pending(&delivery_id(), &delivery.url, &names);
    if let Some(inbox) = &delivery.inbox {
        inbox.webhook_queued("realtime", &logged, None, body.as_bytes());
    }
    post(client, delivery, &delivery.url, body, logged).await;
}

/// POSTs `body` to `url`, signed with the app secret, retrying with backoff; every attempt is
/// reported to the inbox as `logged`.
async fn post(
    client: &reqwest::Client,
    delivery: &Delivery,
    url: &str,
    body: String,
    mut logged: Logged,
) {
    let signature =
        tidings_runtime::webhook::sign_pusher(delivery.secret.expose(), body.as_bytes());
    logged.headers = vec![
        ("X-Pusher-Key".to_owned(), delivery.key.clone()),
        ("X-Pusher-Signature".to_owned(), signature.clone()),
    ];
    let attempts = delivery.attempts.max(1);
    let mut delay = Duration::from_millis(100);
    for attempt in 1..=attempts {
        let result = client
            .post(url)
            .header("Content-Type", "application/json")
            .header("X-Pusher-Key", &delivery.key)
            .header("X-Pusher-Signature", &signature)
            .body(body.clone())
            .send()
            .await;
        logged.attempts = attempt;
        let problem = match result {
            Ok(r) if r.status().is_success() => {
                logged.outcome = DeliveryOutcome::Delivered {
                    status: r.status().as_u16(),
                };
                logged.last_error = None;
                report(delivery, &logged);
                return;
            }
            Ok(r) => format!("the receiver answered {}", r.status().as_u16()),
            Err(e) => format!("cannot reach the receiver: {}", e.without_url()),
        };
        tracing::debug!(
            attempt,
            "realtime sandbox: webhook delivery failed: {problem}"
        );
        if attempt < attempts {
            logged.last_error = Some(problem);
            report(delivery, &logged);
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(Duration::from_secs(2));
        } else {
            tracing::warn!(
                "realtime sandbox: webhook dropped after {attempt} attempts ({problem})"
            );
            logged.outcome = DeliveryOutcome::Failed { reason: problem };
            report(delivery, &logged);
        }
    }
}

fn report(delivery: &Delivery, logged: &Logged) {
    if let Some(inbox) = &delivery.inbox {
        inbox.webhook_updated(logged);
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
                inbox: None,
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

        // A redelivery finds the queue full too: refused with a clear error, nothing recorded.
        let inbox = Inbox::default();
        let record = WebhookRecord {
            id: "rt_1".into(),
            seq: 1,
            service: "realtime".into(),
            url: "http://127.0.0.1:9/hooks".into(),
            event_type: "channel_occupied".into(),
            attempts: 1,
            status: "delivered".into(),
            response_status: Some(200),
            error: None,
            headers: Vec::new(),
            body: "{}".into(),
            redelivery_of: None,
            created_at: String::new(),
            updated_at: String::new(),
            created_ms: 0,
        };
        let refused = hooks.redeliverer().redeliver(&inbox, &record, None);
        assert_eq!(refused, Err(RedeliverError::Busy("realtime".into())));
        assert!(inbox.webhooks().is_empty());
        task.abort();
    }
}
