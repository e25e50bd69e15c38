//! Bounds that hold whatever clients and receivers do (issue 28, items 9, 11, 12): webhook
//! deliveries to receivers that never answer, one client holding many connections, WebSockets
//! filling the realtime listener. Real sockets on loopback.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tidings_sandbox::ServiceConfig;
use tidings_sandbox::server::{
    DeliveryOutcome, MAX_DELIVERIES_IN_FLIGHT, MAX_DELIVERIES_PER_ENDPOINT, MAX_PENDING_DELIVERIES,
    WebhookRetry,
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

/// A sandbox whose emails move along at once, with no rate limit and no inbox page, whose
/// webhook deliveries make `attempts` attempts of `timeout` each: it, the email base URL
/// and the key.
async fn storm_sandbox(attempts: u32, timeout: Duration) -> (Sandbox, String, String) {
    let mut config = SandboxConfig::default();
    config.email.service.lifecycle_step = Duration::from_millis(5);
    config.email.service.rate_limit = None;
    config.email.service.webhook_retry = WebhookRetry {
        attempts,
        base: Duration::from_millis(50),
        cap: Duration::from_millis(50),
        timeout,
    };
    config.inbox.ui = None;
    let sandbox = Sandbox::start_with(config).await.unwrap();
    let (base, key) = (
        sandbox.email.base_url().to_owned(),
        sandbox.email.api_key().to_owned(),
    );
    (sandbox, base, key)
}

fn open_files() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, Iterator::count)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhooks_to_a_hundred_black_holes_stay_bounded_and_the_api_keeps_answering() {
    let (hole, max_open) = black_hole().await;
    let (sandbox, base, key) = storm_sandbox(2, Duration::from_secs(1)).await;
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

/// A receiver that answers every request `200` and closes; counts the requests.
async fn answering() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            let seen = seen.clone();
            tokio::spawn(async move {
                use tokio::io::AsyncWriteExt;
                let mut head = [0u8; 8192];
                if matches!(stream.read(&mut head).await, Ok(n) if n > 0) {
                    seen.fetch_add(1, Ordering::SeqCst);
                    let _ = stream
                        .write_all(
                            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                        )
                        .await;
                }
            });
        }
    });
    (url, count)
}

/// One receiver that never answers holds at most its own share of the delivery slots
/// (`MAX_DELIVERIES_PER_ENDPOINT`), not all of them: another endpoint's deliveries go on
/// while it hangs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receiver_that_never_answers_holds_only_its_own_share_of_delivery_slots() {
    let (hole, max_open) = black_hole().await;
    let (healthy, answered) = answering().await;
    let (sandbox, base, key) = storm_sandbox(1, Duration::from_secs(5)).await;
    let http = reqwest::Client::new();
    for url in [&hole, &healthy] {
        let status = http
            .post(format!("{base}/v1/webhooks"))
            .bearer_auth(&key)
            .json(&json!({"url": url, "events": ["email.sent"]}))
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, 201);
    }
    let emails = 40;
    for n in 0..emails {
        let status = http
            .post(format!("{base}/v1/emails"))
            .bearer_auth(&key)
            .json(&json!({"from": "ada@example.com", "to": ["grace@example.com"], "subject": format!("share {n}"), "text": "x"}))
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, 202);
    }
    // Within the black hole's 5 s timeout, the healthy endpoint gets every `email.sent`.
    let until = Instant::now() + Duration::from_secs(4);
    while answered.load(Ordering::SeqCst) < emails && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let held = max_open.load(Ordering::SeqCst);
    sandbox.shutdown().await;
    assert_eq!(
        answered.load(Ordering::SeqCst),
        emails,
        "the healthy endpoint was starved"
    );
    assert!(
        (1..=MAX_DELIVERIES_PER_ENDPOINT).contains(&held),
        "the black hole held {held} connections at once (its share: {MAX_DELIVERIES_PER_ENDPOINT})"
    );
}

/// A TCP connection from `from` (another loopback address: 127.0.0.0/8 is all loopback).
async fn connect_from(from: &str, to: std::net::SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(to).await.unwrap()
}

/// What arrives before the peer closes (or 2 s pass).
async fn read_some(stream: &mut tokio::net::TcpStream) -> String {
    let mut buf = vec![0u8; 1024];
    let n = tokio::time::timeout(Duration::from_secs(2), stream.read(&mut buf))
        .await
        .map_or(0, |r| r.unwrap_or(0));
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

#[tokio::test]
async fn one_address_cannot_hold_a_listeners_whole_cap_http_and_smtp() {
    use tidings_sandbox::server::{HttpLimits, per_address_cap};
    use tidings_sandbox::smtp::SmtpConfig;
    let mut config = SandboxConfig::default();
    config.email.service.limits = HttpLimits::default().max_connections(8);
    config.email.smtp = Some(SmtpConfig::default().max_connections(8));
    config.inbox.ui = None;
    let sandbox = Sandbox::start_with(config).await.unwrap();
    let cap = per_address_cap(8);
    assert!(cap < 8);
    // HTTP: one address holds `cap` idle connections; one more from it is refused, another
    // address is served.
    let http = sandbox.email.addr();
    let mut held = Vec::new();
    for _ in 0..cap {
        held.push(connect_from("127.0.0.2", http).await);
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut over = connect_from("127.0.0.2", http).await;
    let answer = read_some(&mut over).await;
    assert!(
        answer.starts_with("HTTP/1.1 503") && answer.contains("your address"),
        "{answer}"
    );
    let status = reqwest::Client::new()
        .get(format!("{}/v1/emails", sandbox.email.base_url()))
        .bearer_auth(sandbox.email.api_key())
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, 200, "another address is served");
    drop(held);
    // SMTP: the same, with 421.
    let smtp = sandbox.email.smtp_addr().unwrap();
    let mut held = Vec::new();
    for _ in 0..cap {
        let mut stream = connect_from("127.0.0.2", smtp).await;
        assert!(read_some(&mut stream).await.starts_with("220"));
        held.push(stream);
    }
    let mut over = connect_from("127.0.0.2", smtp).await;
    let answer = read_some(&mut over).await;
    assert!(
        answer.starts_with("421") && answer.contains("your address"),
        "{answer}"
    );
    let mut other = connect_from("127.0.0.1", smtp).await;
    assert!(
        read_some(&mut other).await.starts_with("220"),
        "another address is served"
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn websockets_filling_their_share_leave_the_realtime_http_api_answering() {
    use tidings_sandbox::realtime::{RealtimeConfig, RealtimeSandbox, websocket_cap};
    use tidings_sandbox::server::HttpLimits;
    let s = RealtimeSandbox::start(
        RealtimeConfig::default().limits(HttpLimits::default().max_connections(16)),
    )
    .await
    .unwrap();
    let url = format!("{}/app/{}?protocol=7", s.ws_url(), s.key());
    let mut sockets = Vec::new();
    loop {
        match tokio_tungstenite::connect_async(&url).await {
            Ok((ws, _)) => sockets.push(ws),
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status().as_u16(), 503);
                break;
            }
            Err(e) => panic!("{e}"),
        }
        assert!(sockets.len() <= 16, "WebSockets took the whole listener");
    }
    assert_eq!(sockets.len(), websocket_cap(16));
    // The signed HTTP API, from the same address, still answers.
    let client = s.client().unwrap();
    for n in 0..5 {
        let request =
            tidings::realtime::TriggerEventRequest::new("flash", "{}").channel(format!("news-{n}"));
        client.trigger_event(&request).await.unwrap();
    }
    drop(sockets);
    s.shutdown().await;
}

#[tokio::test]
async fn the_inbox_keeps_emails_within_its_byte_budget_whatever_the_record_count() {
    let mut config = SandboxConfig::default();
    config.inbox.retention = tidings_sandbox::Retention::default().max_bytes(4 * 1024 * 1024);
    config.email.service.rate_limit = None;
    let sandbox = Sandbox::start_with(config).await.unwrap();
    let client = sandbox.email.client().unwrap();
    let text = "x".repeat(256 * 1024);
    for n in 0..12 {
        client
            .send_email(
                &tidings::email::SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                    .subject(format!("big {n}"))
                    .text(text.clone()),
            )
            .await
            .unwrap();
    }
    let counts = sandbox.inbox.counts();
    assert!(counts.email_bytes <= 4 * 1024 * 1024, "{counts:?}");
    assert!(counts.emails < 12 && counts.emails > 0, "{counts:?}");
    let kept = sandbox.inbox.emails().all();
    assert_eq!(
        kept[0].subject.as_deref(),
        Some("big 11"),
        "the newest stays"
    );
    // The summary reads the same counts without copying the inbox.
    let summary: serde_json::Value =
        reqwest::get(format!("{}api/summary", sandbox.inbox_url().unwrap()))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
    assert_eq!(summary["counts"]["emails"], counts.emails);
    assert_eq!(summary["email_bytes"], counts.email_bytes);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn the_email_api_keeps_bodies_within_its_byte_budget() {
    use tidings_sandbox::email::{EmailSandbox, EmailSandboxConfig};
    let mut config = EmailSandboxConfig::default().rate_limit(None);
    config.max_email_bytes = 2 * 1024 * 1024;
    let sandbox = EmailSandbox::start(config).await.unwrap();
    let client = sandbox.client().unwrap();
    let text = "x".repeat(256 * 1024);
    let mut ids = Vec::new();
    for n in 0..12 {
        let sent = client
            .send_email(
                &tidings::email::SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                    .subject(format!("big {n}"))
                    .text(text.clone()),
            )
            .await
            .unwrap();
        ids.push(sent.id);
    }
    let http = reqwest::Client::new();
    let status = |id: String| {
        let request = http
            .get(format!("{}/v1/emails/{id}", sandbox.base_url()))
            .bearer_auth(sandbox.api_key());
        async move { request.send().await.unwrap().status().as_u16() }
    };
    assert_eq!(status(ids[0].clone()).await, 404, "the oldest is forgotten");
    assert_eq!(status(ids[11].clone()).await, 200, "the newest stays");
    let kept = futures_util::future::join_all(ids.iter().cloned().map(status)).await;
    let kept = kept.iter().filter(|s| **s == 200).count();
    assert!((1..=8).contains(&kept), "{kept} kept of 12 under 2 MiB");

    // No body at all, the bytes in metadata (no length limit of its own): counted the same.
    let mut ids = Vec::new();
    for n in 0..12 {
        let sent = client
            .send_email(
                &tidings::email::SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                    .subject(format!("meta {n}"))
                    .text("hi")
                    .metadata([("blob".to_owned(), text.clone())]),
            )
            .await
            .unwrap();
        ids.push(sent.id);
    }
    let kept = futures_util::future::join_all(ids.iter().cloned().map(status)).await;
    assert_eq!(kept[0], 404, "the oldest metadata-heavy email is forgotten");
    let kept = kept.iter().filter(|s| **s == 200).count();
    assert!((1..=8).contains(&kept), "{kept} kept of 12 under 2 MiB");
    sandbox.shutdown().await;
}
