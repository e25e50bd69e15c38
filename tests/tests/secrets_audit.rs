//! Secrets audit: every operation of every service (email, messaging, realtime HTTP) runs
//! against a loopback server, answered with success and with errors, while TRACE logging of
//! every target (our runtime, reqwest, hyper, h2, rustls) is captured into a buffer. No API
//! key, app secret or webhook secret may appear in the logs, in errors (Display and Debug), or
//! in the Debug output of clients, builders, requests, responses and the types that carry
//! secrets.
//!
//! Each check is paired with proof that the secret was in play (the server saw it, or the
//! value holds it), so the audit cannot pass by not using the secrets.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::net::TcpListener as StdListener;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tidings_runtime::reqwest::header::{HeaderMap, HeaderValue};
use tidings_runtime::spec::{OperationSpec, ServiceSpec};
use tidings_runtime::webhook::StandardWebhooks;
use tidings_runtime::{Client, ClientBuilder, Request, RetryPolicy};
use tidings_tests::{Recorded, Reply, TestServer};

const EMAIL_KEY: &str = "re_AUDITemailKey_5d1f0a9c77";
const MESSAGING_KEY: &str = "AUDITmessagingKey_77ab21fe";
const REALTIME_SECRET: &str = "AUDITrealtimeSecret_9e4410";
const REALTIME_API_KEY: &str = "AUDITrealtimeApiKey_3c2b58";
/// base64 of "AUDIT-webhook-signing-key-0451!!"
const WEBHOOK_SECRET: &str = "whsec_QVVESVQtd2ViaG9vay1zaWduaW5nLWtleS0wNDUxISE=";
const MASTER_KEY: &str = "zyrm8pvV2C9fJcBfhyXzvxbJVN/H7QLmbe0xJi1GhPU=";

/// Every secret of the audit, as text that must never show up.
fn secrets() -> Vec<&'static str> {
    vec![
        EMAIL_KEY,
        MESSAGING_KEY,
        REALTIME_SECRET,
        REALTIME_API_KEY,
        WEBHOOK_SECRET,
        WEBHOOK_SECRET.trim_start_matches("whsec_"),
        MASTER_KEY,
    ]
}

// ---------------------------------------------------------------------------------------
// Log capture: one global subscriber at TRACE (with the `log` bridge, so reqwest and rustls
// records arrive too) writing into a buffer.

#[derive(Clone)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn log_buffer() -> &'static Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let writer = Buffer(buffer.clone());
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_target(true)
            .with_writer(move || writer.clone())
            .try_init()
            .expect("the audit installs the only subscriber of this test binary");
        buffer
    })
}

fn logs() -> String {
    String::from_utf8_lossy(&log_buffer().lock().unwrap()).into_owned()
}

/// Fails naming the secret and a bit of context around it.
fn assert_clean(what: &str, text: &str) {
    for secret in secrets() {
        if let Some(at) = text.find(secret) {
            let from = text[..at]
                .char_indices()
                .rev()
                .nth(200)
                .map_or(0, |(i, _)| i);
            let to = (at + secret.len() + 200).min(text.len());
            let to = (to..=text.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(text.len());
            panic!(
                "{what} contains the secret `{secret}`: ...{}...",
                &text[from..to]
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Every operation, from the generated statics; the count is checked against the spec.

macro_rules! ops {
    ($module:ident: $($name:ident),* $(,)?) => {
        vec![$(&tidings::$module::operations::$name),*]
    };
}

fn email_ops() -> Vec<&'static OperationSpec> {
    ops!(email: LIST_RESOURCES, SEND_EMAIL, SEND_BATCH, LIST_EMAILS, GET_EMAIL, RESCHEDULE_EMAIL,
        CANCEL_EMAIL, CREATE_TEMPLATE, LIST_TEMPLATES, GET_TEMPLATE, UPDATE_TEMPLATE,
        DELETE_TEMPLATE, PUBLISH_TEMPLATE, CREATE_CONTACT, UPSERT_CONTACT, LIST_CONTACTS,
        GET_CONTACT, UPDATE_CONTACT, DELETE_CONTACT, CREATE_LIST, LIST_LISTS, GET_LIST,
        UPDATE_LIST, DELETE_LIST, LIST_LIST_CONTACTS, ADD_LIST_CONTACT, REMOVE_LIST_CONTACT,
        CREATE_SUPPRESSION, LIST_SUPPRESSIONS, GET_SUPPRESSION, DELETE_SUPPRESSION,
        CREATE_WEBHOOK, LIST_WEBHOOKS, GET_WEBHOOK, UPDATE_WEBHOOK, DELETE_WEBHOOK)
}

fn messaging_ops() -> Vec<&'static OperationSpec> {
    ops!(messaging: LIST_RESOURCES, SEND_MESSAGE, LIST_MESSAGES, GET_MESSAGE, UPDATE_MESSAGE,
        LIST_TEMPLATES)
}

fn realtime_ops() -> Vec<&'static OperationSpec> {
    ops!(realtime: GET_ROOT, TRIGGER_EVENT, TRIGGER_BATCH, LIST_CHANNELS, GET_CHANNEL,
        LIST_PRESENCE_USERS, TERMINATE_USER_CONNECTIONS)
}

/// The operation names of a spec file, as the generator reads them.
fn spec_operations(service: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spec")
        .join(format!("{service}.yaml"));
    let loaded = tidings_codegen::load::load_file(&path).unwrap();
    let checked = tidings_codegen::check::check(&loaded).unwrap();
    let mut names: Vec<String> = checked.operations.into_iter().map(|o| o.name).collect();
    names.sort();
    names
}

fn assert_covers(service: &str, ops: &[&'static OperationSpec]) {
    let mut ours: Vec<String> = ops.iter().map(|o| o.name.to_owned()).collect();
    ours.sort();
    ours.dedup();
    assert_eq!(
        ours,
        spec_operations(service),
        "the audit must call every {service} operation"
    );
}

/// A request for `op` with dummy path parameters, a small query and (for writes) a minimal
/// JSON body.
fn request_for(op: &'static OperationSpec) -> Request {
    let mut request = tidings_runtime::Request::new(op);
    let mut rest = op.path;
    while let Some(start) = rest.find('{') {
        let end = start + rest[start..].find('}').unwrap();
        let name: &'static str = &rest[start + 1..end];
        request = request.path_param(name, &format!("dummy-{name}"));
        rest = &rest[end + 1..];
    }
    request = request.query(&[("limit", "1")]).unwrap();
    if op.has_body {
        request = request
            .json(&serde_json::json!({"name": "audit", "data": "{}", "channels": ["audit"]}))
            .unwrap();
    }
    request
}

/// Error answers the audit cycles through, each with a realistic envelope.
fn error_reply(n: usize) -> Reply {
    let statuses = [400, 401, 403, 404, 409, 413, 422, 429, 500, 503];
    let status = statuses[n % statuses.len()];
    Reply::json(
        status,
        serde_json::json!({"error": {
            "code": "audit_error", "message": format!("scripted {status}"), "param": "to",
            "request_id": format!("req_{n}")
        }}),
    )
    .header("retry-after", "0")
    .header("x-request-id", &format!("req_h{n}"))
}

fn quick_retries<C: From<Client>>(builder: ClientBuilder<C>) -> ClientBuilder<C> {
    builder.retry(
        RetryPolicy::from_spec(&tidings_runtime::spec::RetrySpec::DEFAULT)
            .max_attempts(2)
            .backoff(Duration::from_millis(1), Duration::from_millis(5))
            .retry_after_cap(Duration::from_millis(5)),
    )
}

/// Runs every operation against a success server and an error server; returns every
/// Debug/Display text produced on the way and the requests the servers saw.
async fn exercise(
    spec: &'static ServiceSpec,
    ops: &[&'static OperationSpec],
    configure: impl Fn(ClientBuilder<Client>) -> ClientBuilder<Client>,
) -> (Vec<String>, Vec<Recorded>) {
    let ok = TestServer::start(|r| {
        if r.method == "DELETE" {
            Reply {
                status: 204,
                headers: Vec::new(),
                body: Vec::new(),
            }
        } else {
            Reply::json(
                200,
                serde_json::json!({"id": "x", "data": [], "has_more": false}),
            )
            .header("x-request-id", "req_ok")
        }
    })
    .await;
    let counter = Arc::new(Mutex::new(0usize));
    let failing = TestServer::start(move |_| {
        let mut n = counter.lock().unwrap();
        *n += 1;
        error_reply(*n)
    })
    .await;
    let mut texts = Vec::new();
    for (url, expect_ok) in [(ok.url(), true), (failing.url(), false)] {
        let builder = quick_retries(configure(Client::builder(spec).base_url(url)));
        texts.push(format!("{builder:?}"));
        let client = builder.build().unwrap();
        texts.push(format!("{client:?}"));
        for op in ops {
            let request = request_for(op);
            texts.push(format!("{request:?}"));
            match client.execute(request).await {
                Ok(response) => {
                    assert!(expect_ok, "{}: an error answer succeeded", op.name);
                    texts.push(format!("{response:?}"));
                    texts.push(format!("{:?}", response.json::<serde_json::Value>()));
                    texts.push(response.text());
                }
                Err(err) => {
                    assert!(
                        !expect_ok,
                        "{}: failed against the success server: {err:?}",
                        op.name
                    );
                    texts.push(err.to_string());
                    texts.push(format!("{err:?}"));
                    let mut source = std::error::Error::source(&err);
                    while let Some(inner) = source {
                        texts.push(format!("{inner} / {inner:?}"));
                        source = inner.source();
                    }
                }
            }
        }
    }
    let mut seen = ok.requests();
    seen.extend(failing.requests());
    (texts, seen)
}

fn check_texts(service: &str, texts: &[String]) {
    for (i, text) in texts.iter().enumerate() {
        assert_clean(&format!("{service} output #{i}"), text);
    }
}

#[tokio::test]
async fn every_email_operation_keeps_the_api_key_secret() {
    log_buffer();
    let ops = email_ops();
    assert_covers("email", &ops);
    assert_eq!(ops.len(), 36);
    let (texts, seen) = exercise(&tidings::email::SERVICE, &ops, |b| {
        b.credential("api_key", EMAIL_KEY)
    })
    .await;
    check_texts("email", &texts);
    // The key was used: every request carried it.
    assert!(seen.len() >= ops.len() * 2, "{} requests", seen.len());
    for r in &seen {
        assert_eq!(
            r.header("authorization"),
            Some(format!("Bearer {EMAIL_KEY}").as_str())
        );
    }
    // A generated type that carries a secret: the webhook endpoint.
    let endpoint: tidings::email::WebhookEndpoint = serde_json::from_value(serde_json::json!({
        "id": "wh_1", "url": "https://example.com/hooks", "events": ["email.sent"],
        "status": "enabled", "secret": WEBHOOK_SECRET, "created_at": "2026-01-01T00:00:00Z"
    }))
    .unwrap();
    assert_eq!(endpoint.secret.as_deref(), Some(WEBHOOK_SECRET));
    assert_clean("WebhookEndpoint Debug", &format!("{endpoint:?}"));
    assert_clean("the captured logs", &logs());
}

#[tokio::test]
async fn every_messaging_operation_keeps_the_api_key_secret_even_with_query_auth() {
    log_buffer();
    let ops = messaging_ops();
    assert_covers("messaging", &ops);
    for query in [false, true] {
        let (texts, seen) = exercise(&tidings::messaging::SERVICE, &ops, |b| {
            let b = b.credential("api_key", MESSAGING_KEY);
            if query { b.query_auth() } else { b }
        })
        .await;
        check_texts("messaging", &texts);
        assert!(seen.len() >= ops.len() * 2);
        for r in &seen {
            let sent = if query {
                r.query_pairs().get("api_key").cloned()
            } else {
                r.header("authorization")
                    .and_then(|v| v.strip_prefix("Bearer "))
                    .map(str::to_owned)
            };
            assert_eq!(sent.as_deref(), Some(MESSAGING_KEY), "{r:?}");
        }
    }
    assert_clean("the captured logs", &logs());
}

#[tokio::test]
async fn every_realtime_operation_keeps_the_app_secret_and_api_key_secret() {
    log_buffer();
    let ops = realtime_ops();
    assert_covers("realtime", &ops);
    let (texts, seen) = exercise(&tidings::realtime::SERVICE, &ops, |b| {
        b.credential("app_id", "4242")
            .credential("key", "audit-key")
            .credential("secret", REALTIME_SECRET)
            .credential("api_key", REALTIME_API_KEY)
    })
    .await;
    check_texts("realtime", &texts);
    // Signed requests carry a signature made with the secret; the one bearer operation the key.
    let signed = seen
        .iter()
        .filter(|r| r.query_pairs().contains_key("auth_signature"))
        .count();
    let bearer = seen
        .iter()
        .filter(|r| r.header("authorization") == Some(&format!("Bearer {REALTIME_API_KEY}")))
        .count();
    assert!(
        signed >= (ops.len() - 1) * 2,
        "{signed} signed of {}",
        seen.len()
    );
    assert!(bearer >= 2, "{bearer} bearer requests");
    for r in seen
        .iter()
        .filter(|r| r.query_pairs().contains_key("auth_signature"))
    {
        let signature = r.query_pairs()["auth_signature"].clone();
        assert_eq!(signature.len(), 64, "a hex HMAC-SHA256: {r:?}");
    }

    // Webhooks, channel auth and encryption: values computed from the secrets.
    let body = br#"{"time_ms":1,"events":[{"name":"channel_occupied","channel":"a"}]}"#;
    let signature = tidings_runtime::webhook::sign_pusher(REALTIME_SECRET, body);
    tidings::realtime::verify_webhook(REALTIME_SECRET, &signature, body).unwrap();
    let err = tidings::realtime::verify_webhook(REALTIME_SECRET, "00", body).unwrap_err();
    let master = tidings::pusher::MasterKey::from_base64(MASTER_KEY).unwrap();
    let auth = tidings::pusher::authorize_encrypted(
        "audit-key",
        REALTIME_SECRET,
        "1.2",
        "private-encrypted-audit",
        &master,
    )
    .unwrap();
    let shared = auth.shared_secret.clone().unwrap();
    assert!(
        !format!("{auth:?}").contains(&shared),
        "ChannelAuth Debug shows the channel key: {auth:?}"
    );
    let authorizer =
        tidings::pusher::local_authorizer("audit-key", REALTIME_SECRET).master_key(master.clone());
    let connection =
        tidings::pusher::connection("ws://127.0.0.1:9", "audit-key").authorizer(authorizer.clone());
    for (what, text) in [
        ("webhook error", format!("{err} / {err:?}")),
        ("channel auth", format!("{auth:?}")),
        ("master key", format!("{master:?}")),
        ("local authorizer", format!("{authorizer:?}")),
        ("connection builder", format!("{connection:?}")),
    ] {
        assert_clean(what, &text);
    }
    assert_clean("the captured logs", &logs());
}

#[tokio::test]
async fn standard_webhook_secrets_stay_out_of_errors_and_debug() {
    log_buffer();
    let verifier = StandardWebhooks::new(WEBHOOK_SECRET).unwrap();
    let body = br#"{"type":"email.sent","created_at":"2026-11-22T10:00:01Z","data":{}}"#;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let mut headers = HeaderMap::new();
    headers.insert("webhook-id", HeaderValue::from_static("msg_audit"));
    headers.insert(
        "webhook-timestamp",
        HeaderValue::from_str(&now.to_string()).unwrap(),
    );
    headers.insert(
        "webhook-signature",
        HeaderValue::from_str(&verifier.sign("msg_audit", now, body)).unwrap(),
    );
    let mut texts = vec![format!("{verifier:?}")];
    // Verification passes; the body then fails to decode (its data is incomplete), and a
    // wrong secret, a tampered body, a stale timestamp and a bad secret all fail.
    for result in [
        tidings::email::verify_webhook(WEBHOOK_SECRET, &headers, body).map(|e| format!("{e:?}")),
        tidings::messaging::verify_webhook(WEBHOOK_SECRET, &headers, body)
            .map(|e| format!("{e:?}")),
        tidings::email::verify_webhook("whsec_d3Jvbmc=", &headers, body).map(|e| format!("{e:?}")),
        tidings::email::verify_webhook(WEBHOOK_SECRET, &headers, b"{}").map(|e| format!("{e:?}")),
        tidings::email::verify_webhook(&WEBHOOK_SECRET.replace('Q', "!"), &headers, body)
            .map(|e| format!("{e:?}")),
        verifier
            .verify_at(&headers, body, now + 3600)
            .map(|()| String::new()),
    ] {
        match result {
            Ok(text) => texts.push(text),
            Err(e) => texts.push(format!("{e} / {e:?}")),
        }
    }
    assert!(texts.len() == 7);
    for (i, text) in texts.iter().enumerate() {
        assert_clean(&format!("webhook output #{i}"), text);
    }
    assert_clean("the captured logs", &logs());
}

#[tokio::test]
async fn transport_failures_and_timeouts_do_not_carry_the_url_or_key() {
    log_buffer();
    // Nothing listens on this port: a connect error, with the key in the query.
    let closed = {
        let l = StdListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    // This one accepts and never answers: an attempt timeout.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_port = silent.local_addr().unwrap().port();
    let hold = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            held.push(socket);
        }
    });
    let mut texts = Vec::new();
    for port in [closed, silent_port] {
        let client = tidings::messaging::MessagingClient::builder()
            .base_url(format!("http://127.0.0.1:{port}"))
            .credential("api_key", MESSAGING_KEY)
            .query_auth()
            .attempt_timeout(Duration::from_millis(300))
            .retry(RetryPolicy::none())
            .build()
            .unwrap();
        let err = client
            .runtime()
            .execute(request_for(&tidings::messaging::operations::LIST_MESSAGES))
            .await
            .unwrap_err();
        texts.push(format!("{err} / {err:?}"));
        let mut source = std::error::Error::source(&err);
        while let Some(inner) = source {
            texts.push(format!("{inner} / {inner:?}"));
            source = inner.source();
        }
    }
    hold.abort();
    assert!(texts.iter().any(|t| t.contains("timed out")), "{texts:?}");
    for (i, text) in texts.iter().enumerate() {
        assert_clean(&format!("transport error #{i}"), text);
    }
    assert_clean("the captured logs", &logs());
}

#[tokio::test]
async fn the_log_capture_sees_our_runtime_and_the_http_stack() {
    // Proof the capture works: the runtime's and hyper/reqwest's records arrive.
    log_buffer();
    let server = TestServer::start(|_| Reply::json(200, serde_json::json!({}))).await;
    let client = tidings::email::EmailClient::builder()
        .base_url(server.url())
        .credential("api_key", EMAIL_KEY)
        .build()
        .unwrap();
    client
        .runtime()
        .execute(request_for(&tidings::email::operations::GET_EMAIL))
        .await
        .unwrap();
    let text = logs();
    assert!(text.contains("sending request"), "{text}");
    assert!(
        text.contains("reqwest") || text.contains("hyper"),
        "no HTTP-stack records captured: {text}"
    );
    assert!(text.contains("TRACE") || text.contains("DEBUG"), "{text}");
    assert_clean("the captured logs", &text);
}
