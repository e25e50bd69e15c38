//! Bounds that hold whatever clients and receivers do (issue 28, items 9, 11, 12): webhook
//! deliveries to receivers that never answer, one client holding many connections, WebSockets
//! filling the realtime listener. Real sockets on loopback.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tidings_sandbox::server::{
    DeliveryOutcome, MAX_DELIVERIES_IN_FLIGHT, MAX_PENDING_DELIVERIES, WebhookRetry,
};
use tidings_sandbox::{Sandbox, SandboxConfig};
use tokio::io::AsyncReadExt;

/// A receiver that accepts connections and never answers; counts how many are open at most.
async fn black_hole() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (open, max) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let seen = max.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            let now = open.fetch_add(1, Ordering::SeqCst) + 1;
            seen.fetch_max(now, Ordering::SeqCst);
            let open = open.clone();
            tokio::spawn(async move {
                let mut sink = [0u8; 4096];
                while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
                open.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    (url, max)
}

fn open_files() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, Iterator::count)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhooks_to_a_hundred_black_holes_stay_bounded_and_the_api_keeps_answering() {
    let (hole, max_open) = black_hole().await;
    let mut config = SandboxConfig::default();
    config.email.lifecycle_step = Duration::from_millis(5);
    config.email.rate_limit = None;
    config.email.webhook_retry = WebhookRetry {
        attempts: 2,
        base: Duration::from_millis(50),
        cap: Duration::from_millis(50),
        timeout: Duration::from_secs(1),
    };
    config.inbox.ui = None;
    let sandbox = Sandbox::start_with(config).await.unwrap();
    let (base, key) = (
        sandbox.email.base_url().to_owned(),
        sandbox.email.api_key().to_owned(),
    );
    let http = reqwest::Client::new();
    for i in 0..100 {
        let status = http
            .post(format!("{base}/v1/webhooks"))
            .bearer_auth(&key)
            .json(&json!({"url": format!("{hole}/h{i}"), "events": ["email.sent", "email.delivered"]}))
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, 201);
    }
    let files_before = open_files();
    let mut worst_files = 0;
    let mut slowest = Duration::ZERO;
    for n in 0..300 {
        let started = Instant::now();
        let status = http
            .post(format!("{base}/v1/emails"))
            .bearer_auth(&key)
            .json(&json!({"from": "ada@example.com", "to": ["grace@example.com"], "subject": format!("storm {n}"), "text": "x"}))
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, 202);
        slowest = slowest.max(started.elapsed());
        worst_files = worst_files.max(open_files());
    }
    // The storm goes on in the background; the API answers all along.
    let until = Instant::now() + Duration::from_secs(3);
    while Instant::now() < until {
        let started = Instant::now();
        let status = http
            .get(format!("{base}/v1/emails?limit=1"))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, 200);
        slowest = slowest.max(started.elapsed());
        worst_files = worst_files.max(open_files());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let deliveries = sandbox.email.webhook_deliveries();
    let queue_full = deliveries
        .iter()
        .filter(|d| matches!(&d.outcome, DeliveryOutcome::Failed { reason } if reason.contains("already waiting")))
        .count();
    sandbox.shutdown().await;
    let max_open = max_open.load(Ordering::SeqCst);
    assert!(max_open > 0, "deliveries were attempted");
    // A connection given up at its timeout closes a moment after its slot is reused, so the
    // receiver may briefly count more than the cap (unbounded, it counted thousands).
    assert!(
        max_open <= 2 * MAX_DELIVERIES_IN_FLIGHT,
        "{max_open} connections open at once"
    );
    // Both ends of each connection are in this process.
    let grown = worst_files.saturating_sub(files_before);
    assert!(
        grown <= 4 * MAX_DELIVERIES_IN_FLIGHT + 32,
        "{grown} more open files"
    );
    assert!(
        slowest < Duration::from_secs(1),
        "an API call took {slowest:?}"
    );
    assert!(
        queue_full > 0,
        "past {MAX_PENDING_DELIVERIES} waiting, deliveries are refused"
    );
}
