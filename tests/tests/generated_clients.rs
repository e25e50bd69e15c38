//! The generated clients end to end over real HTTP on loopback: what each method puts on the
//! wire (method, path, auth, idempotency key, JSON body, signature), what it makes of the
//! answer, and what it refuses to send.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use futures_util::StreamExt;
use serde_json::json;
use tidings::email::{
    EmailClient, EmailEvent, EmailStatus, ListEmailsQuery, SendEmailRequest, Tag,
};
use tidings::realtime::{RealtimeClient, TriggerEventRequest};
use tidings_runtime::ErrorKind;
use tidings_tests::{Reply, TestServer};

const KEY: &str = "test-api-key-0123456789";

fn email(server: &TestServer) -> EmailClient {
    EmailClient::builder()
        .base_url(server.url())
        .api_key(KEY)
        .build()
        .unwrap()
}

#[tokio::test]
async fn send_email_posts_the_typed_body_with_bearer_auth_and_an_idempotency_key() {
    let server =
        TestServer::start(|_| Reply::json(202, json!({"id": "em_1", "status": "queued"}))).await;
    let request = SendEmailRequest::new("Ada <ada@example.com>", ["grace@example.com"])
        .subject("Hello")
        .text("Sent from Rust.")
        .tags([Tag::new("campaign", "launch")])
        .metadata([("order", "42")]);
    let sent = email(&server).send_email(&request).await.unwrap();
    assert_eq!(sent.id, "em_1");
    assert_eq!(sent.status, EmailStatus::Queued);

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/v1/emails"));
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert!(
        r.query.is_empty(),
        "the key must not travel in the URL by default"
    );
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("application/json")
    );
    let key = r
        .header("idempotency-key")
        .expect("a send carries an idempotency key");
    assert!(!key.is_empty() && key.len() <= 256);
    assert_eq!(
        r.json(),
        json!({
            "from": "Ada <ada@example.com>",
            "to": ["grace@example.com"],
            "subject": "Hello",
            "text": "Sent from Rust.",
            "tags": [{"name": "campaign", "value": "launch"}],
            "metadata": {"order": "42"}
        })
    );
}

#[tokio::test]
async fn invalid_requests_are_refused_before_sending() {
    let server =
        TestServer::start(|_| Reply::json(202, json!({"id": "never", "status": "queued"}))).await;
    let client = email(&server);
    let too_many: Vec<String> = (0..51).map(|i| format!("user{i}@example.com")).collect();
    let cases = [
        SendEmailRequest::new("ada@example.com", too_many),
        SendEmailRequest::new("not an address", ["grace@example.com"]),
        SendEmailRequest::new("ada@example.com", Vec::<String>::new()),
        SendEmailRequest::new("ada@example.com", ["grace@example.com"]).subject("x".repeat(999)),
    ];
    for request in &cases {
        let err = client.send_email(request).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    }
    assert!(
        server.requests().is_empty(),
        "nothing invalid may reach the server"
    );
}

#[tokio::test]
async fn get_email_fills_and_escapes_the_path_parameter() {
    let server = TestServer::start(|_| {
        Reply::json(
            200,
            json!({"id": "em 1/x", "from": "ada@example.com", "to": ["g@example.com"], "status": "bounced_softly", "created_at": "2026-11-22T10:00:00Z"}),
        )
    })
    .await;
    let got = email(&server).get_email("em 1/x").await.unwrap();
    // An enum value this version does not know is kept, not rejected.
    assert_eq!(got.status, EmailStatus::Unknown("bounced_softly".into()));
    let r = &server.requests()[0];
    assert_eq!(r.method, "GET");
    assert_eq!(r.path, "/v1/emails/em%201%2Fx");
}

#[tokio::test]
async fn list_stream_follows_the_cursor_across_pages() {
    let server = TestServer::start(|r| {
        let item = |id: &str| json!({"id": id, "from": "a@example.com", "to": ["b@example.com"], "status": "sent", "created_at": "2026-11-22T10:00:00Z"});
        if r.query_pairs().get("after").map(String::as_str) == Some("em_2") {
            Reply::json(200, json!({"object": "list", "data": [item("em_3")], "has_more": false}))
        } else {
            Reply::json(200, json!({"object": "list", "data": [item("em_1"), item("em_2")], "has_more": true}))
        }
    })
    .await;
    let client = email(&server);
    let query = ListEmailsQuery::default().limit(2);
    let ids: Vec<String> = client
        .list_emails_stream(&query)
        .map(|e| e.unwrap().id)
        .collect()
        .await;
    assert_eq!(ids, ["em_1", "em_2", "em_3"]);
    let queries: Vec<_> = server.requests().iter().map(|r| r.query_pairs()).collect();
    assert_eq!(queries[0].get("limit").map(String::as_str), Some("2"));
    assert_eq!(queries[1].get("after").map(String::as_str), Some("em_2"));
}

#[tokio::test]
async fn api_errors_are_typed_with_code_message_and_request_id() {
    let server = TestServer::start(|_| {
        Reply::json(404, json!({"error": {"code": "not_found", "message": "no such email", "request_id": "req_9"}}))
    })
    .await;
    let err = email(&server).get_email("missing").await.unwrap_err();
    assert_eq!(err.status(), Some(404));
    assert_eq!(err.request_id(), Some("req_9"));
    assert!(!err.is_retryable());
    assert_eq!(server.requests().len(), 1, "a 404 is not retried");
}

#[tokio::test]
async fn realtime_trigger_is_signed_with_the_app_secret() {
    let server = TestServer::start(|_| Reply::json(200, json!({}))).await;
    let client = RealtimeClient::builder()
        .base_url(server.url())
        .credential("app_id", "3")
        .credential("key", "278d425bdf160c739803")
        .credential("secret", "7ad3773142a6692b25b8")
        .build()
        .unwrap();
    let event = TriggerEventRequest::new("foo", r#"{"some":"data"}"#).channels(["project-3"]);
    client.trigger_event(&event).await.unwrap();
    let r = &server.requests()[0];
    assert_eq!(
        (r.method.as_str(), r.path.as_str()),
        ("POST", "/apps/3/events")
    );
    let q = r.query_pairs();
    assert_eq!(
        q.get("auth_key").map(String::as_str),
        Some("278d425bdf160c739803")
    );
    assert_eq!(q.get("auth_version").map(String::as_str), Some("1.0"));
    assert_eq!(q["auth_signature"].len(), 64);
    assert!(q.contains_key("body_md5"));
    assert!(
        !r.query.contains("7ad3773142a6692b25b8"),
        "the secret never travels"
    );
    assert_eq!(r.header("authorization"), None);

    // Both `channel` and `channels`, or neither, is refused before sending.
    let neither = TriggerEventRequest::new("foo", "{}");
    assert_eq!(
        client.trigger_event(&neither).await.unwrap_err().kind(),
        ErrorKind::InvalidRequest
    );
    let big = TriggerEventRequest::new("foo", "x".repeat(10_241)).channel("a");
    assert_eq!(
        client.trigger_event(&big).await.unwrap_err().kind(),
        ErrorKind::InvalidRequest
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn email_webhooks_are_verified_and_decoded() {
    let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    let body = br#"{"type":"email.delivered","created_at":"2026-11-22T10:00:00Z","data":{"email_id":"em_1","to":["g@example.com"]}}"#;
    let signer = tidings_runtime::webhook::StandardWebhooks::new(secret).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let mut headers = tidings_runtime::reqwest::header::HeaderMap::new();
    headers.insert("webhook-id", "msg_1".parse().unwrap());
    headers.insert("webhook-timestamp", now.to_string().parse().unwrap());
    headers.insert(
        "webhook-signature",
        signer.sign("msg_1", now, body).parse().unwrap(),
    );
    match tidings::email::verify_webhook(secret, &headers, body).unwrap() {
        EmailEvent::EmailDelivered(data) => assert_eq!(data.email_id, "em_1"),
        other => panic!("decoded as {other:?}"),
    }
    let mut tampered = body.to_vec();
    tampered[10] ^= 1;
    assert!(tidings::email::verify_webhook(secret, &headers, &tampered).is_err());

    // An event type this version does not know is kept whole.
    let unknown = br#"{"type":"email.teleported","data":{"email_id":"em_2"}}"#;
    headers.insert(
        "webhook-signature",
        signer.sign("msg_1", now, unknown).parse().unwrap(),
    );
    match tidings::email::verify_webhook(secret, &headers, unknown).unwrap() {
        EmailEvent::Unknown(value) => assert_eq!(value["type"], "email.teleported"),
        other => panic!("decoded as {other:?}"),
    }
}

#[tokio::test]
async fn query_limits_are_checked_before_sending() {
    let server =
        TestServer::start(|_| Reply::json(200, json!({"data": [], "has_more": false}))).await;
    let client = email(&server);
    let query = ListEmailsQuery::default().limit(500);
    let err = client.list_emails(&query).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest);
    assert!(err.to_string().contains("limit"), "{err}");
    // The stream refuses the same way, as its first item.
    let first = std::pin::pin!(client.list_emails_stream(&query))
        .next()
        .await
        .unwrap();
    assert_eq!(first.unwrap_err().kind(), ErrorKind::InvalidRequest);
    assert!(server.requests().is_empty());
}

#[test]
fn secret_fields_are_redacted_in_debug_output() {
    let endpoint: tidings::email::WebhookEndpoint = serde_json::from_value(json!({
        "id": "we_1", "url": "https://example.com/hook", "events": ["email.sent"], "status": "enabled", "created_at": "2026-11-22T10:00:00Z",
        "secret": "whsec_c2VjcmV0LXZhbHVlLWZvci10ZXN0cw=="
    }))
    .unwrap();
    let shown = format!("{endpoint:?}");
    assert!(shown.contains("<redacted>"), "{shown}");
    assert!(!shown.contains("whsec_"), "{shown}");
    assert_eq!(
        endpoint.secret.as_deref(),
        Some("whsec_c2VjcmV0LXZhbHVlLWZvci10ZXN0cw==")
    );
}

#[tokio::test]
async fn an_operation_can_name_its_own_auth_scheme() {
    // The realtime seed's generic GET carries `Authorization: Bearer <API_KEY>`, while the
    // rest of that API is signed with the app secret.
    let server = TestServer::start(|_| Reply::json(200, json!({"ok": true}))).await;
    let client = RealtimeClient::builder()
        .base_url(server.url())
        .credential("app_id", "3")
        .credential("key", "278d425bdf160c739803")
        .credential("secret", "7ad3773142a6692b25b8")
        .credential("api_key", "rt-api-key")
        .build()
        .unwrap();
    let root = client.get_root().await.unwrap();
    assert_eq!(root["ok"], true);
    let r = &server.requests()[0];
    assert_eq!((r.method.as_str(), r.path.as_str()), ("GET", "/"));
    assert_eq!(r.header("authorization"), Some("Bearer rt-api-key"));
    assert!(r.query.is_empty(), "not signed: {}", r.query);

    // Without the API key, that one operation fails with a clear config error; nothing is sent.
    let unsigned = RealtimeClient::builder()
        .base_url(server.url())
        .credential("app_id", "3")
        .credential("key", "278d425bdf160c739803")
        .credential("secret", "7ad3773142a6692b25b8")
        .build()
        .unwrap();
    let err = unsigned.get_root().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config);
    assert!(err.to_string().contains("COMMS_REALTIME_API_KEY"), "{err}");
    assert_eq!(server.requests().len(), 1);
}
