//! Webhooks from the sandbox: channel_occupied / vacated, member_added / removed and
//! client_event reach a receiver, signed so that `tidings::pusher::verify_webhook` accepts them
//! (and rejects them under a wrong secret), retried when the receiver fails.
#![allow(clippy::unwrap_used)]

mod realtime_common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use realtime_common::*;
use tidings::pusher;
use tidings::realtime::WebhookEvent;
use tidings_sandbox::realtime::{RealtimeConfig, RealtimeSandbox};

#[derive(Clone, Default)]
struct Receiver {
    requests: Arc<Mutex<Vec<(HeaderMap, Bytes)>>>,
    /// Answer 500 to this many requests first.
    fail_first: Arc<Mutex<usize>>,
}

async fn receive(State(r): State<Receiver>, headers: HeaderMap, body: Bytes) -> StatusCode {
    r.requests.lock().unwrap().push((headers, body));
    let mut fail = r.fail_first.lock().unwrap();
    if *fail > 0 {
        *fail -= 1;
        return StatusCode::INTERNAL_SERVER_ERROR;
    }
    StatusCode::OK
}

async fn receiver(fail_first: usize) -> (Receiver, String) {
    let r = Receiver::default();
    *r.fail_first.lock().unwrap() = fail_first;
    let app = Router::new()
        .route("/hooks", post(receive))
        .with_state(r.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (r, url)
}

/// Every event received so far, verified, as short descriptions; each request is also checked
/// to fail verification under a wrong secret or key.
fn verified(r: &Receiver, key: &str, secret: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (headers, body) in r.requests.lock().unwrap().iter() {
        let hook = pusher::verify_webhook(Some(key), secret, headers, body)
            .unwrap_or_else(|e| panic!("webhook does not verify: {e}"));
        assert!(pusher::verify_webhook(Some(key), "wrong", headers, body).is_err());
        assert!(pusher::verify_webhook(Some("other-key"), secret, headers, body).is_err());
        assert!(hook.time_ms > 1_600_000_000_000, "time_ms {}", hook.time_ms);
        for e in hook.events {
            names.push(match e {
                WebhookEvent::ChannelOccupied(c) => format!("occupied {}", c.channel),
                WebhookEvent::ChannelVacated(c) => format!("vacated {}", c.channel),
                WebhookEvent::MemberAdded(m) => format!("member_added {} {}", m.channel, m.user_id),
                WebhookEvent::MemberRemoved(m) => {
                    format!("member_removed {} {}", m.channel, m.user_id)
                }
                WebhookEvent::ClientEvent(c) => format!(
                    "client_event {} {} {} {}",
                    c.channel,
                    c.event,
                    c.data.as_str().unwrap_or("<not a string>"),
                    c.user_id.unwrap_or_default()
                ),
                other => format!("{other:?}"),
            });
        }
    }
    names
}

async fn wait_for(r: &Receiver, key: &str, secret: &str, wanted: &[&str]) -> Vec<String> {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let names = verified(r, key, secret);
        if wanted.iter().all(|w| names.iter().any(|n| n == w)) {
            return names;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "wanted {wanted:?}, got {names:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn webhooks_are_sent_signed_and_verified() {
    let (r, url) = receiver(0).await;
    let s = RealtimeSandbox::start(RealtimeConfig::default().webhook_url(url))
        .await
        .unwrap();
    let a = connected(&s, Some("w1")).await;
    let _room = subscribed(&a, "presence-hooks").await;
    let b = connected(&s, Some("w2")).await;
    let ch_b = subscribed(&b, "presence-hooks").await;
    ch_b.trigger("client-hello", &serde_json::json!({"w": 2}))
        .unwrap();
    let _public = subscribed(&a, "plain").await;
    a.unsubscribe("plain");
    b.disconnect();
    let names = wait_for(
        &r,
        s.key(),
        s.secret(),
        &[
            "occupied presence-hooks",
            "member_added presence-hooks w1",
            "member_added presence-hooks w2",
            r#"client_event presence-hooks client-hello {"w":2} w2"#,
            "occupied plain",
            "vacated plain",
            "member_removed presence-hooks w2",
        ],
    )
    .await;
    // Occupied once, however many join; member w1 stays.
    assert_eq!(
        names
            .iter()
            .filter(|n| *n == "occupied presence-hooks")
            .count(),
        1,
        "{names:?}"
    );
    assert!(
        !names
            .iter()
            .any(|n| n == "member_removed presence-hooks w1"),
        "{names:?}"
    );
    // Events close together share a request.
    let requests = r.requests.lock().unwrap().len();
    assert!(
        requests < names.len(),
        "{requests} requests for {} events",
        names.len()
    );
    s.shutdown().await;
}

#[tokio::test]
async fn failed_deliveries_are_retried() {
    let (r, url) = receiver(2).await;
    let s = RealtimeSandbox::start(RealtimeConfig::default().webhook_url(url))
        .await
        .unwrap();
    let a = connected(&s, None).await;
    let _ch = subscribed(&a, "retry-me").await;
    wait_for(&r, s.key(), s.secret(), &["occupied retry-me"]).await;
    let deadline = tokio::time::Instant::now() + WAIT;
    while r.requests.lock().unwrap().len() < 3 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let requests = r.requests.lock().unwrap().clone();
    assert_eq!(
        requests.len(),
        3,
        "two failures, then the delivery, then nothing more"
    );
    // The same body each time.
    assert_eq!(requests[0].1, requests[2].1);
    s.shutdown().await;
}

/// A receiver answering a redirect is not followed to where it points (the realtime sender
/// has its own HTTP client): the other host is never reached, and the attempt is retried at
/// the registered URL as a failure.
#[tokio::test]
async fn a_webhook_answered_with_a_redirect_is_not_followed() {
    let (other, other_url) = receiver(0).await;
    let redirected = Arc::new(Mutex::new(0usize));
    let app = {
        let redirected = redirected.clone();
        let location = other_url.clone();
        Router::new().route(
            "/hooks",
            post(move || async move {
                *redirected.lock().unwrap() += 1;
                (StatusCode::TEMPORARY_REDIRECT, [("location", location)])
            }),
        )
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let mut config = RealtimeConfig::default().webhook_url(url);
    config.webhook_attempts = 2;
    let s = RealtimeSandbox::start(config).await.unwrap();
    let a = connected(&s, None).await;
    let _channel = subscribed(&a, "redirected").await;
    let deadline = tokio::time::Instant::now() + WAIT;
    while *redirected.lock().unwrap() < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the occupied webhook was not tried twice"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Give a follower time to have followed.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        other.requests.lock().unwrap().is_empty(),
        "the redirect was followed"
    );
}
