//! Attacks on the realtime sandbox (issue 14), over real loopback sockets: a subscriber that
//! never reads while events flow (closed with 4100, heap bounded, measured by the test binary's
//! counting allocator), subscriptions past the per-connection cap, a frame over the size cap,
//! oversized or non-JSON HTTP API bodies, and WebSockets counted against the listener's cap.
#![allow(clippy::unwrap_used)]

mod limits_common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use limits_common::*;
use tidings_runtime::spec::Method;
use tidings_runtime::{PusherSigner, Secret, SignableRequest};
use tidings_sandbox::realtime::{RealtimeConfig, RealtimeSandbox, codes};
use tidings_sandbox::server::HttpLimits;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

#[global_allocator]
static HEAP: Counting = Counting;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn open(s: &RealtimeSandbox) -> Ws {
    let url = format!("{}/app/{}?protocol=7", s.ws_url(), s.key());
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let first = next_text(&mut ws).await;
    assert!(first.contains("pusher:connection_established"), "{first}");
    ws
}

async fn next_text(ws: &mut Ws) -> String {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("a frame in time")
            .expect("the connection is open")
            .unwrap();
        if let Message::Text(text) = message {
            return text.to_string();
        }
    }
}

async fn subscribe(ws: &mut Ws, channel: &str) -> String {
    let frame = serde_json::json!({"event": "pusher:subscribe", "data": {"channel": channel}});
    ws.send(Message::text(frame.to_string())).await.unwrap();
    next_text(ws).await
}

/// The close code the server ends with, reading (and dropping) whatever comes before it.
async fn close_code(ws: &mut Ws, within: Duration) -> Option<u16> {
    tokio::time::timeout(within, async {
        while let Some(message) = ws.next().await {
            match message {
                Ok(Message::Close(frame)) => return frame.map(|f| u16::from(f.code)),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    })
    .await
    .unwrap_or(None)
}

/// A signed HTTP API request with a raw body and content type.
async fn api(s: &RealtimeSandbox, body: &[u8], content_type: &str) -> (u16, String) {
    let path = format!("/apps/{}/events", s.app_id());
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let parts = PusherSigner::new(s.key(), Secret::new(s.secret())).sign_at(
        &SignableRequest::new(&Method::Post, &path, &[], Some(body)),
        i64::try_from(now).unwrap(),
    );
    let answer = reqwest::Client::new()
        .post(format!("{}{path}", s.http_url()))
        .query(&parts.query)
        .header("content-type", content_type)
        .body(body.to_vec())
        .send()
        .await
        .unwrap();
    (answer.status().as_u16(), answer.text().await.unwrap())
}

#[tokio::test]
async fn a_subscriber_that_never_reads_is_closed_with_4100_and_the_heap_stays_bounded() {
    let _one = MEASURING.lock().await;
    let s = RealtimeSandbox::start(RealtimeConfig::default().outbound_queue(64, 256 * 1024))
        .await
        .unwrap();
    let mut slow = open(&s).await;
    assert!(
        subscribe(&mut slow, "flood")
            .await
            .contains("subscription_succeeded")
    );
    let client = s.client().unwrap();
    let data = "x".repeat(10_000);
    let before = reset_peak();
    // Up to 40 MB of events at a reader that takes none of them, until the server lets go of
    // it (the socket buffers hold a few MB, the queue 256 KiB).
    let mut sent = 0usize;
    while sent < 40_000_000 && s.connection_count() > 0 {
        client.trigger(["flood"], "tick", &data).await.unwrap();
        sent += data.len();
    }
    let peak = peak() - before;
    assert_eq!(
        s.connection_count(),
        0,
        "the slow subscriber was never let go"
    );
    // The client reads at last: what was in flight, then the close code (the server waits a
    // few seconds for a close frame to go out).
    let code = close_code(&mut slow, Duration::from_secs(10)).await;
    for _ in 0..100 {
        if s.connection_count() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let kept = heap_now().saturating_sub(before);
    eprintln!(
        "slow subscriber: {:.1} MB sent, peak +{:.1} MiB, kept +{} KiB, closed with {code:?}",
        sent as f64 / 1e6,
        peak as f64 / MIB as f64,
        kept / 1024
    );
    assert_eq!(code, Some(codes::OVER_CAPACITY));
    assert_eq!(
        s.connection_count(),
        0,
        "the slow subscriber is still connected"
    );
    assert!(peak < 8 * MIB, "peak heap grew by {peak} bytes");
    assert!(kept < 2 * MIB, "{kept} bytes kept after the close");
    s.shutdown().await;
}

#[tokio::test]
async fn subscriptions_past_the_per_connection_cap_are_refused_with_4100() {
    let s = RealtimeSandbox::start(RealtimeConfig::default().max_subscriptions_per_connection(3))
        .await
        .unwrap();
    let mut ws = open(&s).await;
    for channel in ["a", "b", "c"] {
        assert!(
            subscribe(&mut ws, channel)
                .await
                .contains("subscription_succeeded")
        );
    }
    let refused: serde_json::Value = serde_json::from_str(&subscribe(&mut ws, "d").await).unwrap();
    assert_eq!(refused["event"], "pusher:error", "{refused}");
    assert_eq!(refused["data"]["code"], codes::OVER_CAPACITY, "{refused}");
    assert_eq!(refused["channel"], "d");
    // Resubscribing to one it has is not a new subscription; the connection is still usable.
    assert!(
        subscribe(&mut ws, "a")
            .await
            .contains("subscription_succeeded")
    );
    assert_eq!(s.connection_count(), 1);
    s.shutdown().await;
}

#[tokio::test]
async fn a_frame_over_the_size_cap_ends_the_connection_and_one_under_it_does_not() {
    let s = RealtimeSandbox::start(RealtimeConfig::default())
        .await
        .unwrap();
    let mut ws = open(&s).await;
    let under = serde_json::json!({"event": "unknown-event", "data": "y".repeat(200 * 1024)});
    ws.send(Message::text(under.to_string())).await.unwrap();
    assert!(next_text(&mut ws).await.contains("pusher:error"));
    assert_eq!(s.connection_count(), 1);
    let over = serde_json::json!({"event": "unknown-event", "data": "y".repeat(300 * 1024)});
    let _ = ws.send(Message::text(over.to_string())).await;
    let code = close_code(&mut ws, Duration::from_secs(5)).await;
    assert!(
        code.is_none_or(|c| c == u16::from(CloseCode::Size)),
        "closed with {code:?}"
    );
    for _ in 0..50 {
        if s.connection_count() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        s.connection_count(),
        0,
        "the oversized frame left the connection open"
    );
    s.shutdown().await;
}

#[tokio::test]
async fn the_http_api_refuses_oversized_truncated_and_non_json_bodies() {
    let s = RealtimeSandbox::start(
        // The raw request below names the sandbox `sandbox`, as an app in another container
        // would.
        RealtimeConfig::default().limits(
            HttpLimits::default()
                .max_body_bytes(64 * 1024)
                .allowed_host("sandbox"),
        ),
    )
    .await
    .unwrap();
    let event = br#"{"name":"e","channel":"news","data":"x"}"#;
    assert_eq!(api(&s, event, "application/json").await.0, 200);
    let (status, text) = api(&s, event, "text/plain").await;
    assert_eq!(status, 415, "{text}");
    let big = format!(
        r#"{{"name":"e","channel":"news","data":"{}"}}"#,
        "x".repeat(100_000)
    );
    assert_eq!(api(&s, big.as_bytes(), "application/json").await.0, 413);
    let many = format!(
        r#"{{"name":"e","channels":[{}"c"],"data":"x"}}"#,
        "\"c\",".repeat(12_000)
    );
    assert_eq!(api(&s, many.as_bytes(), "application/json").await.0, 413);
    // Truncated: a declared length the body never reaches.
    let mut stream = tcp(s.addr()).await;
    let head = format!(
        "POST /apps/{}/events HTTP/1.1\r\nhost: sandbox\r\ncontent-type: application/json\r\n\
         content-length: 500\r\n\r\n{{\"name\"",
        s.app_id()
    );
    send(&mut stream, head.as_bytes()).await;
    tokio::io::AsyncWriteExt::shutdown(&mut stream)
        .await
        .unwrap();
    let (answer, _) = read_until_closed(&mut stream, Duration::from_secs(5)).await;
    assert_eq!(status_of(&answer), 400, "{answer}");
    s.shutdown().await;
}

#[tokio::test]
async fn websockets_count_against_the_listeners_connection_cap() {
    let s = RealtimeSandbox::start(
        // Six connections: three WebSockets at most (the other half is the HTTP API's).
        RealtimeConfig::default().limits(HttpLimits::default().max_connections(6)),
    )
    .await
    .unwrap();
    let mut sockets = Vec::new();
    for _ in 0..3 {
        sockets.push(open(&s).await);
    }
    let url = format!("{}/app/{}?protocol=7", s.ws_url(), s.key());
    let refused = tokio_tungstenite::connect_async(&url).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 503);
        }
        other => panic!(
            "a fourth connection was not refused: {:?}",
            other.map(|_| ())
        ),
    }
    let mut first = sockets.remove(0);
    first.close(None).await.unwrap();
    let _ = close_code(&mut first, Duration::from_secs(2)).await;
    drop(first);
    let mut reopened = None;
    for _ in 0..50 {
        if let Ok((ws, _)) = tokio_tungstenite::connect_async(&url).await {
            reopened = Some(ws);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(reopened.is_some(), "a freed slot was not reused");
    s.shutdown().await;
}
