//! An operation's `body_size:` (a `limits.sizes` entry in bytes) bounds its body in the
//! sandbox: one byte past it is a 413 with the spec's error body, at it the request passes. Over
//! a real loopback socket, through the gateway the generated servers use.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use axum::response::IntoResponse;
use tidings_runtime::spec::OperationSpec;
use tidings_sandbox::server::{Gateway, Incoming};

/// `send_email` as the generator emits it once `limits.sizes.message_size` has `max: 64`.
static SEND_EMAIL: OperationSpec = OperationSpec::post("send_email", "/v1/emails")
    .idempotency_key()
    .max_body_bytes(64);

async fn serve() -> String {
    let gateway = Arc::new(
        Gateway::new(&tidings::email::SERVICE)
            .credential("api_key", "re_test_key")
            .rate_limit(None),
    );
    let app = axum::Router::new().route(
        "/v1/emails",
        axum::routing::post(move |request: axum::extract::Request| {
            let gateway = gateway.clone();
            async move {
                match Incoming::accept(&gateway, &SEND_EMAIL, request).await {
                    Ok(_) => axum::http::StatusCode::ACCEPTED.into_response(),
                    Err(response) => response,
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1/emails", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

fn body_of(len: usize) -> String {
    // {"text":"xxx..."} padded to exactly `len` bytes.
    format!(r#"{{"text":"{}"}}"#, "x".repeat(len - 11))
}

#[tokio::test]
async fn a_body_past_the_operations_size_is_a_413_with_the_error_body() {
    let url = serve().await;
    let http = reqwest::Client::new();
    let post = |body: String| {
        http.post(&url)
            .bearer_auth("re_test_key")
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    assert_eq!(body_of(64).len(), 64);
    assert_eq!(post(body_of(64)).await.unwrap().status().as_u16(), 202);
    let refused = post(body_of(65)).await.unwrap();
    assert_eq!(refused.status().as_u16(), 413);
    let text = refused.text().await.unwrap();
    let _: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(text.contains("payload_too_large"), "{text}");
    assert!(text.contains("larger than 64 bytes"), "{text}");
}

/// `SmsText.text` takes its limit from `limits.sizes.sms_text` (1600 characters): the
/// messaging sandbox answers 422 with the spec's error body one character past it.
#[tokio::test]
async fn an_sms_text_past_the_sms_text_size_is_a_422_naming_the_field() {
    let sandbox = tidings_sandbox::MessagingSandbox::start(
        tidings_sandbox::MessagingSandboxConfig::default(),
    )
    .await
    .unwrap();
    let http = reqwest::Client::new();
    let url = format!("{}/v1/messages", sandbox.base_url());
    let post = |chars: usize| {
        http.post(&url)
            .bearer_auth(sandbox.api_key())
            .header("content-type", "application/json")
            .body(format!(
                r#"{{"channel":"sms","message_type":"text","from":"Acme","to":"+447700900123","text":"{}"}}"#,
                "x".repeat(chars)
            ))
            .send()
    };
    assert_eq!(post(1600).await.unwrap().status().as_u16(), 202);
    let refused = post(1601).await.unwrap();
    assert_eq!(refused.status().as_u16(), 422);
    let text = refused.text().await.unwrap();
    assert!(
        text.contains("validation_error") && text.contains("text"),
        "{text}"
    );
    sandbox.shutdown().await;
}
