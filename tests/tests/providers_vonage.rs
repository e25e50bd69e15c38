//! Vonage's SMS API against Prism serving Vonage's own document (the excerpt in
//! `tests/providers/vonage/`): the client generated from `examples/providers/vonage.yaml` sends
//! a form-encoded SMS with the API key and secret in the body and Prism accepts it; the
//! documented failure inside a 200 answer (`messages[0].status` "2") becomes a typed error with
//! Vonage's code and `error-text`. The API has no list, so there is no stream to walk.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod providers_common;

use providers_common::{Calls, Prism, prefer};
use serde_json::json;
use tidings_providers::vonage::*;
use tidings_runtime::RetryPolicy;
use tidings_tests::{Reply, TestServer};

const KEY: &str = "abcd1234";
const SECRET: &str = "secret-not-a-secret";

fn client(base: &str, http: Option<tidings_runtime::reqwest::Client>) -> VonageClient {
    let mut builder = VonageClient::builder()
        .base_url(base)
        .credential("api_key", KEY)
        .credential("api_secret", SECRET)
        .retry(RetryPolicy::none());
    if let Some(http) = http {
        builder = builder.http_client(http);
    }
    builder.build().unwrap()
}

fn sms() -> SendSmsRequest {
    SendSmsRequest::new("AcmeInc", "447700900000")
        .text("Hello from the proof")
        .client_ref("proof-1")
        .status_report_req(true)
}

#[tokio::test]
async fn vonage_send_sms_is_accepted_by_prism() {
    let prism = Prism::start("vonage").await;
    let vonage = client(&prism.url, Some(prefer("example=sent")));
    let mut c = Calls::default();
    let answer = c.ok("send_sms", vonage.send_sms(&sms()).await);
    assert_eq!(answer.messages[0].status, "0");
    assert_eq!(
        answer.messages[0].message_id.as_deref(),
        Some("0A0000000123ABCD1")
    );
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn vonage_failure_inside_a_200_answer_is_a_typed_error() {
    let prism = Prism::start("vonage").await;
    let vonage = client(&prism.url, Some(prefer("example=missing_params")));
    let mut c = Calls::default();
    let err = c.err("send_sms", vonage.send_sms(&sms()).await);
    assert_eq!(err.status(), Some(200), "the HTTP answer was a 200: {err}");
    let api = err.api_error().unwrap();
    assert_eq!(api.code.as_deref(), Some("2"), "{api:?}");
    assert_eq!(api.message.as_deref(), Some("Missing to param"), "{api:?}");
    assert_eq!(ErrorCode::of(&err), Some(ErrorCode::from("2")));
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn vonage_credentials_travel_in_the_form_body_only() {
    let server = TestServer::start(|_| {
        Reply::json(
            200,
            json!({"message-count": "1", "messages": [{"status": "0", "message-id": "m1"}]}),
        )
    })
    .await;
    client(&server.url(), None).send_sms(&sms()).await.unwrap();
    let r = &server.requests()[0];
    assert_eq!(r.path, "/json");
    assert_eq!(
        r.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    let form: std::collections::BTreeMap<String, String> =
        url::form_urlencoded::parse(&r.body).into_owned().collect();
    assert_eq!(form.get("api_key").map(String::as_str), Some(KEY));
    assert_eq!(form.get("api_secret").map(String::as_str), Some(SECRET));
    assert_eq!(form.get("client-ref").map(String::as_str), Some("proof-1"));
    assert!(r.header("authorization").is_none());
    assert!(!r.query.contains(SECRET), "never in the URL");
}
