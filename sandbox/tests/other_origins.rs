//! Requests from other origins (issue 28, items 6–8): the inbox answers only to its own names
//! (DNS rebinding), refuses state changes a page on another origin can make, and the webhook
//! sender does not follow a redirect to another host. Real sockets on loopback.
#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::routing::post;
use tidings_sandbox::server::{DeliveryOutcome, WebhookRetry, WebhookTarget};
use tidings_sandbox::{Sandbox, SandboxConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Request headers, as name and value.
type Headers<'a> = Vec<(&'a str, &'a str)>;

/// One raw HTTP/1.1 request (so `Host` is exactly what the test says); status and body.
async fn raw(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text[9..12].parse().unwrap();
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

fn ui_addr(sandbox: &Sandbox) -> String {
    sandbox
        .inbox_url()
        .unwrap()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned()
}

async fn send_one(sandbox: &Sandbox) {
    sandbox
        .email
        .client()
        .unwrap()
        .send_email(
            &tidings::email::SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                .subject("reset")
                .text("token 123456"),
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn the_inbox_answers_only_to_its_own_host_names() {
    let mut config = SandboxConfig::default();
    config.inbox.allowed_hosts = vec!["inbox.test".into()];
    let sandbox = Sandbox::start_with(config).await.unwrap();
    send_one(&sandbox).await;
    let addr = ui_addr(&sandbox);
    let port = addr.rsplit_once(':').unwrap().1.to_owned();
    for host in [
        "evil.example",
        &format!("evil.example:{port}"),
        "localhost.evil.example",
    ] {
        let (status, body) = raw(&addr, "GET", "/api/emails", &[("Host", host)], "").await;
        assert_eq!(status, 403, "{host}: {body}");
        assert!(
            body.contains("host_not_allowed") && !body.contains("123456"),
            "{body}"
        );
        let (status, _) = raw(&addr, "DELETE", "/api/emails", &[("Host", host)], "").await;
        assert_eq!(status, 403);
    }
    let (status, _) = raw(&addr, "GET", "/api/emails", &[], "").await;
    assert_eq!(status, 403, "no Host at all");
    assert_eq!(sandbox.inbox.emails().all().len(), 1, "nothing was deleted");
    for host in [
        addr.as_str(),
        &format!("localhost:{port}"),
        "inbox.test",
        &format!("[::1]:{port}"),
    ] {
        let (status, body) = raw(&addr, "GET", "/api/emails", &[("Host", host)], "").await;
        assert_eq!(status, 200, "{host}: {body}");
    }
    sandbox.shutdown().await;
}

#[tokio::test]
async fn state_changing_inbox_requests_from_another_origin_are_refused() {
    let sandbox = Sandbox::start().await.unwrap();
    let addr = ui_addr(&sandbox);
    let inbound =
        r#"{"channel": "sms", "from": "+447700900123", "to": "+15550100", "text": "STOP"}"#;
    let trigger = r#"{"channel": "news", "event": "flash", "data": "{}"}"#;
    let host = ("Host", addr.as_str());
    let json = ("Content-Type", "application/json");
    let text = ("Content-Type", "text/plain");
    let cases: [(&str, Headers<'_>, u16); 6] = [
        // What a page can send anywhere without a preflight.
        ("/api/messages/inbound", vec![host, text], 415),
        ("/api/realtime/trigger", vec![host, text], 415),
        (
            "/api/realtime/trigger",
            vec![host, ("Content-Type", "application/x-www-form-urlencoded")],
            415,
        ),
        // The browser says where the page is.
        (
            "/api/messages/inbound",
            vec![host, json, ("Origin", "http://evil.example")],
            403,
        ),
        (
            "/api/realtime/trigger",
            vec![host, json, ("Sec-Fetch-Site", "cross-site")],
            403,
        ),
        (
            "/api/messages/inbound",
            vec![host, json, ("Origin", "null")],
            403,
        ),
    ];
    for (path, headers, expected) in cases {
        let body = if path.ends_with("inbound") {
            inbound
        } else {
            trigger
        };
        let (status, answer) = raw(&addr, "POST", path, &headers, body).await;
        assert_eq!(status, expected, "{path} {headers:?}: {answer}");
    }
    let (status, _) = raw(
        &addr,
        "DELETE",
        "/api/all",
        &[host, ("Origin", "http://localhost:3000")],
        "",
    )
    .await;
    assert_eq!(status, 403, "another port is another origin");
    assert!(
        sandbox.inbox.messages().all().is_empty(),
        "no inbound SMS was made"
    );
    assert!(
        sandbox.inbox.realtime_events().is_empty(),
        "no event was published"
    );
    // The inbox's own page (same origin, JSON) still works.
    let origin = format!("http://{addr}");
    let own = [
        host,
        json,
        ("Origin", origin.as_str()),
        ("Sec-Fetch-Site", "same-origin"),
    ];
    let (status, answer) = raw(&addr, "POST", "/api/messages/inbound", &own, inbound).await;
    assert_eq!(status, 201, "{answer}");
    assert_eq!(sandbox.inbox.messages().all().len(), 1);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_webhook_answered_with_a_redirect_is_not_followed_and_is_recorded_as_one() {
    // The second host: records whatever reaches it.
    let reached = Arc::new(Mutex::new(0));
    let app = {
        let reached = reached.clone();
        Router::new().route(
            "/",
            post(move || async move {
                *reached.lock().unwrap() += 1;
                StatusCode::OK
            }),
        )
    };
    let other = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let other_url = format!("http://{}/", other.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(other, app).await.unwrap() });
    // The registered receiver: 307 to the second host.
    let redirect = Router::new().route(
        "/hook",
        post(move || async move { (StatusCode::TEMPORARY_REDIRECT, [("location", other_url)]) }),
    );
    let first = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", first.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(first, redirect).await.unwrap() });

    let mut config = SandboxConfig::default();
    config.email.webhook = Some(WebhookTarget::new(
        url,
        tidings_sandbox::server::generate_secret(),
    ));
    config.email.webhook_retry = WebhookRetry {
        attempts: 2,
        base: Duration::from_millis(10),
        cap: Duration::from_millis(10),
        timeout: Duration::from_secs(2),
    };
    config.email.lifecycle_step = Duration::from_millis(10);
    let sandbox = Sandbox::start_with(config).await.unwrap();
    send_one(&sandbox).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let failed = loop {
        let deliveries = sandbox.email.webhook_deliveries();
        let failed: Vec<_> = deliveries
            .iter()
            .filter_map(|d| match &d.outcome {
                DeliveryOutcome::Failed { reason } => Some(reason.clone()),
                _ => None,
            })
            .collect();
        if !failed.is_empty() || tokio::time::Instant::now() > deadline {
            break failed;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        !failed.is_empty(),
        "{:?}",
        sandbox.email.webhook_deliveries()
    );
    assert!(
        failed[0].contains("307") && failed[0].contains("redirect"),
        "{}",
        failed[0]
    );
    assert!(
        !sandbox
            .email
            .webhook_deliveries()
            .iter()
            .any(|d| matches!(d.outcome, DeliveryOutcome::Delivered { .. })),
        "a redirect is not a delivery"
    );
    assert_eq!(
        *reached.lock().unwrap(),
        0,
        "the signed POST reached the other host"
    );
    sandbox.shutdown().await;
}
