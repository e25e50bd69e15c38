//! Test support shared by the email, messaging and SMTP sandbox tests: a loopback webhook
//! receiver that records every delivery (headers and raw body) and can fail the first ones.

#![allow(dead_code, clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use tokio::sync::mpsc;

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub headers: HeaderMap,
    pub body: Bytes,
    /// The status the receiver answered.
    pub answered: u16,
}

/// A loopback HTTP receiver for webhooks.
pub struct Receiver {
    pub url: String,
    rx: mpsc::UnboundedReceiver<Received>,
}

impl Receiver {
    /// Answers 500 to the first `fail_first` requests, 204 afterwards.
    pub async fn start(fail_first: usize) -> Receiver {
        let (tx, rx) = mpsc::unbounded_channel();
        let count = Arc::new(AtomicUsize::new(0));
        let app = axum::Router::new().fallback(move |headers: HeaderMap, body: Bytes| {
            let tx = tx.clone();
            let count = Arc::clone(&count);
            async move {
                let n = count.fetch_add(1, Ordering::SeqCst);
                let status = if n < fail_first {
                    StatusCode::INTERNAL_SERVER_ERROR
                } else {
                    StatusCode::NO_CONTENT
                };
                let _ = tx.send(Received {
                    headers,
                    body,
                    answered: status.as_u16(),
                });
                status
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Receiver {
            url: format!("http://{addr}/hooks"),
            rx,
        }
    }

    /// The next request, waiting at most `wait`.
    pub async fn next(&mut self, wait: Duration) -> Received {
        tokio::time::timeout(wait, self.rx.recv())
            .await
            .expect("no webhook arrived in time")
            .expect("receiver closed")
    }

    /// Requests until one answered with success whose body's `type` is `event_type`.
    pub async fn next_of_type(&mut self, event_type: &str, wait: Duration) -> Received {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let received = self.next(left).await;
            let value: serde_json::Value = serde_json::from_slice(&received.body).unwrap();
            if received.answered < 300 && value["type"] == event_type {
                return received;
            }
        }
    }
}

/// Converts axum's header map into the one `verify_webhook` takes (the same `http` types).
pub fn client_headers(headers: &HeaderMap) -> tidings_runtime::reqwest::header::HeaderMap {
    let mut out = tidings_runtime::reqwest::header::HeaderMap::new();
    for (name, value) in headers {
        out.insert(
            tidings_runtime::reqwest::header::HeaderName::from_bytes(name.as_str().as_bytes())
                .unwrap(),
            tidings_runtime::reqwest::header::HeaderValue::from_bytes(value.as_bytes()).unwrap(),
        );
    }
    out
}

/// Polls `check` every 50 ms until it returns `Some`, for at most `wait`.
pub async fn eventually<T, F, Fut>(wait: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "condition not met in {wait:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
