//! Requests from other origins (issue 28, items 6–8): the inbox, the services' APIs and every
//! served spec answer only to their own names (DNS rebinding) and refuse state changes a page
//! on another origin can make, and the webhook sender does not follow a redirect to another
//! host. Real sockets on loopback.
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
    config.email.service.webhook = Some(WebhookTarget::new(
        url,
        tidings_sandbox::server::generate_secret(),
    ));
    config.email.service.webhook_retry = WebhookRetry {
        attempts: 2,
        base: Duration::from_millis(10),
        cap: Duration::from_millis(10),
        timeout: Duration::from_secs(2),
    };
    config.email.service.lifecycle_step = Duration::from_millis(10);
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

/// The first line of the answer to a raw request, read without waiting for the connection to
/// close (a WebSocket upgrade keeps it open).
async fn status_line(addr: &str, request: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = vec![0u8; 12];
    stream.read_exact(&mut head).await.unwrap();
    String::from_utf8_lossy(&head).into_owned()
}

/// Every listener the sandbox opens, not only the inbox: the email, messaging and realtime
/// APIs answer only to their names (a rebound name reads nothing, even with the key) and take
/// no change from a page on another origin, while an app's own requests (no `Origin`, no
/// `Sec-Fetch-Site`) go through on any allowed name; a browser on another origin may still open
/// the realtime WebSocket (the Pusher app key is public by design).
#[tokio::test]
async fn the_services_apis_answer_only_to_their_names_and_take_no_change_from_a_page() {
    let mut config = SandboxConfig::default();
    config.email.service.limits.allowed_hosts = vec!["sandbox.test".into()];
    let sandbox = Sandbox::start_with(config).await.unwrap();
    let email = sandbox.email.addr().to_string();
    let bearer = format!("Bearer {}", sandbox.email.api_key());
    let auth = ("Authorization", bearer.as_str());
    let json = ("Content-Type", "application/json");
    let body = r#"{"from":"ada@example.com","to":["grace@example.com"],"subject":"Hi","text":"x"}"#;

    // DNS rebinding: a foreign name reads nothing, key or not; the names given and IP
    // literals read.
    let (status, answer) = raw(
        &email,
        "GET",
        "/v1/emails",
        &[("Host", "evil.example"), auth],
        "",
    )
    .await;
    assert_eq!(status, 403, "{answer}");
    assert!(answer.contains("host_not_allowed"), "{answer}");
    for host in ["sandbox.test:8025", email.as_str(), "localhost"] {
        let (status, answer) = raw(&email, "GET", "/v1/emails", &[("Host", host), auth], "").await;
        assert_eq!(status, 200, "{host}: {answer}");
    }
    // A name given to the email API is not one the messaging API answers to.
    let messaging = sandbox.messaging.addr().to_string();
    let (status, _) = raw(
        &messaging,
        "GET",
        "/v1/templates",
        &[("Host", "sandbox.test")],
        "",
    )
    .await;
    assert_eq!(status, 403);

    // A page on another origin changes nothing; the app's own send is accepted.
    let host = ("Host", email.as_str());
    for page in [
        ("Origin", "http://evil.example"),
        ("Sec-Fetch-Site", "cross-site"),
        ("Origin", "http://localhost:3000"),
    ] {
        let (status, answer) = raw(
            &email,
            "POST",
            "/v1/emails",
            &[host, auth, json, page],
            body,
        )
        .await;
        assert_eq!(status, 403, "{page:?}: {answer}");
        assert!(answer.contains("cross_site"), "{answer}");
    }
    let (status, listed) = raw(&email, "GET", "/v1/emails", &[host, auth], "").await;
    assert_eq!(status, 200);
    assert!(
        !listed.contains("grace@example.com"),
        "nothing was sent: {listed}"
    );
    let (status, answer) = raw(&email, "POST", "/v1/emails", &[host, auth, json], body).await;
    assert_eq!(status, 202, "{answer}");

    // The realtime WebSocket: open to pages of any origin, on an allowed name only.
    let realtime = sandbox.realtime.addr().to_string();
    let upgrade = |host: &str| {
        format!(
            "GET /app/{}?protocol=7 HTTP/1.1\r\nHost: {host}\r\nOrigin: http://app.example\r\n\
             Upgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
            sandbox.realtime.key()
        )
    };
    assert_eq!(
        status_line(&realtime, &upgrade(&realtime)).await,
        "HTTP/1.1 101"
    );
    assert_eq!(
        status_line(&realtime, &upgrade("evil.example")).await,
        "HTTP/1.1 403"
    );
    sandbox.shutdown().await;
}

/// A spec served with `--spec` whose create operation is public (`auth: none`): a page on
/// another origin cannot create through it, nor read it through a rebound name; an app can.
#[tokio::test]
async fn a_served_specs_public_operation_takes_no_change_from_a_page_on_another_origin() {
    use tidings_sandbox::served::{ServeConfig, ServedService, load};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.yaml");
    std::fs::write(
        &path,
        "service:\n  name: notes\n  title: Notes\n  summary: Public notes\n  \
         base_url: { env: NOTES_BASE_URL }\n\
         credentials:\n  api_key: { env: NOTES_API_KEY }\n\
         auth:\n  - { name: bearer, kind: bearer, credential: api_key }\n\
         types:\n  Note:\n    fields:\n      id: { type: string }\n      \
         title: { type: string, required: true }\n\
         operations:\n  create_note:\n    method: POST\n    path: /v1/notes\n    auth: none\n    \
         body: Note\n    response: Note\n    status: 201\n  \
         list_notes:\n    method: GET\n    path: /v1/notes\n    auth: none\n    response: list<Note>\n",
    )
    .unwrap();
    let mut config = ServeConfig::default();
    config.limits.allowed_hosts = vec!["notes.test".into()];
    let served = ServedService::start(load(&path).unwrap().remove(0), config)
        .await
        .unwrap();
    let addr = served
        .base_url()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let host = ("Host", addr.as_str());
    let json = ("Content-Type", "application/json");
    let note = r#"{"title":"from a page"}"#;
    let (status, answer) = raw(
        &addr,
        "POST",
        "/v1/notes",
        &[host, json, ("Origin", "http://evil.example")],
        note,
    )
    .await;
    assert_eq!(status, 403, "{answer}");
    let (status, answer) = raw(&addr, "GET", "/v1/notes", &[("Host", "evil.example")], "").await;
    assert_eq!(
        (status, answer.contains("host_not_allowed")),
        (403, true),
        "{answer}"
    );
    let (status, listed) = raw(&addr, "GET", "/v1/notes", &[("Host", "notes.test")], "").await;
    assert_eq!(status, 200, "{listed}");
    assert!(
        !listed.contains("from a page"),
        "nothing was created: {listed}"
    );
    let (status, answer) = raw(&addr, "POST", "/v1/notes", &[host, json], note).await;
    assert_eq!(status, 201, "an app's request: {answer}");
    served.shutdown().await;
}
