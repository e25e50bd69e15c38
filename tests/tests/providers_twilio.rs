//! Twilio Programmable Messaging against Prism serving Twilio's own document (the excerpt in
//! `tests/providers/twilio/`): the client generated from `examples/providers/twilio.yaml` calls
//! every operation (Basic auth, form bodies, 201 and 204 answers) and Prism accepts every
//! request; the documented error answer decodes to Twilio's code and message; the message list
//! follows `next_page_uri` for three pages. A scripted loopback server pins what Prism cannot
//! (its static examples always offer a next page): the walk ends when `next_page_uri` is null.
//! A status callback signed by an independent signer (Python) verifies; a tampered one does not.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod providers_common;

use futures_util::StreamExt;
use providers_common::{Calls, Prism, prefer};
use serde_json::json;
use tidings_providers::twilio::*;
use tidings_runtime::RetryPolicy;
use tidings_tests::{Reply, TestServer};

const SID: &str = "ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const TOKEN: &str = "auth-token-not-a-secret";
const MESSAGE: &str = "SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

fn client(base: &str, http: Option<tidings_runtime::reqwest::Client>) -> TwilioClient {
    let mut builder = TwilioClient::builder()
        .base_url(base)
        .credential("account_sid", SID)
        .credential("auth_token", TOKEN)
        .retry(RetryPolicy::none());
    if let Some(http) = http {
        builder = builder.http_client(http);
    }
    builder.build().unwrap()
}

fn message() -> CreateMessageRequest {
    CreateMessageRequest::new("+15558675310")
        .from("+15017122661")
        .body("Hello from the proof")
        .media_url(["https://example.com/a.png", "https://example.com/b.png"])
        .status_callback("https://example.com/twilio/status")
}

#[tokio::test]
async fn every_twilio_operation_is_accepted_by_prism() {
    let prism = Prism::start("twilio").await;
    let tw = client(&prism.url, None);
    let mut c = Calls::default();

    let created = c.ok("create_message", tw.create_message(&message()).await);
    assert_eq!(created.sid, MESSAGE);
    assert!(created.date_created.is_some(), "an RFC 2822 date decodes");
    let page = c.ok(
        "list_messages",
        tw.list_messages(
            &ListMessagesQuery::default()
                .to("+123456789")
                .from("+987654321")
                .date_sent_before("2008-01-02")
                .page_size(2),
        )
        .await,
    );
    assert_eq!(page.items.len(), 2);
    c.ok("fetch_message", tw.fetch_message(MESSAGE).await);
    c.ok(
        "update_message",
        tw.update_message(MESSAGE, &UpdateMessageRequest::default().body(""))
            .await,
    );
    // Prism picks the first documented answer with a body unless asked: ask for the 204.
    let tw204 = client(&prism.url, Some(prefer("code=204")));
    c.ok("delete_message", tw204.delete_message(MESSAGE).await);

    assert_eq!(c.0, 5, "every operation of the spec is called");
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn twilio_error_answers_decode_to_code_and_message() {
    let prism = Prism::start("twilio").await;
    let mut c = Calls::default();
    let cases = [
        (
            404,
            "fetch_message",
            "20404",
            "The requested resource was not found",
        ),
        (400, "create_message", "21211", "Invalid 'To' Phone Number"),
        (401, "list_messages", "20003", "Authenticate"),
    ];
    for (status, call, code, text) in cases {
        let tw = client(&prism.url, Some(prefer(&format!("code={status}"))));
        let err = match call {
            "fetch_message" => c.err(call, tw.fetch_message(MESSAGE).await),
            "create_message" => c.err(call, tw.create_message(&message()).await),
            _ => c.err(call, tw.list_messages(&ListMessagesQuery::default()).await),
        };
        assert_eq!(err.status(), Some(status), "{call}: {err}");
        let api = err.api_error().unwrap();
        assert_eq!(api.code.as_deref(), Some(code), "{call}: {api:?}");
        assert_eq!(api.message.as_deref(), Some(text), "{call}: {api:?}");
        assert_eq!(ErrorCode::of(&err), Some(ErrorCode::from(code)), "{call}");
    }
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn twilio_message_stream_follows_next_page_uri_through_prism() {
    let prism = Prism::start("twilio").await;
    let tw = client(&prism.url, None);
    // Prism answers every page with the documented example (two messages and a next link):
    // the second page's next link is the one just followed, and the client stops there rather
    // than loop (the three-page walk is `twilio_message_stream_ends_when_next_page_uri_is_null`).
    let items: Vec<_> = tw
        .list_messages_stream(&ListMessagesQuery::default().page_size(2))
        .take(6)
        .collect()
        .await;
    assert_eq!(items.len(), 5, "two pages, then the error: {items:?}");
    assert!(items[..4].iter().all(Result::is_ok), "{items:?}");
    let err = items[4].as_ref().unwrap_err().to_string();
    assert!(err.contains("repeated the next page"), "{err}");
    prism.assert_all_accepted(2);
}

#[tokio::test]
async fn twilio_message_stream_ends_when_next_page_uri_is_null() {
    let page = |n: u32, next: Option<String>| {
        json!({
            "messages": [
                {"sid": format!("SM{n:032}"), "account_sid": SID, "status": "delivered",
                 "date_created": "Thu, 24 Aug 2023 05:01:45 +0000"},
                {"sid": format!("SM{:032}", n + 100), "account_sid": SID, "status": "sent",
                 "date_created": "Thu, 24 Aug 2023 05:01:45 +0000"}
            ],
            "page": n, "page_size": 2, "next_page_uri": next,
            "uri": format!("/2010-04-01/Accounts/{SID}/Messages.json?PageSize=2&Page={n}")
        })
    };
    let server = TestServer::start(move |r| {
        let q = r.query_pairs();
        let next = |n: u32| {
            Some(format!(
                "/2010-04-01/Accounts/{SID}/Messages.json?PageSize=2&Page={n}&PageToken=PA{n}"
            ))
        };
        match q.get("PageToken").map(String::as_str) {
            None => Reply::json(200, page(0, next(1))),
            Some("PA1") => Reply::json(200, page(1, next(2))),
            Some("PA2") => Reply::json(200, page(2, None)),
            Some(other) => {
                Reply::json(400, json!({"code": 20001, "message": other, "status": 400}))
            }
        }
    })
    .await;
    let tw = client(&server.url(), None);
    let items: Vec<_> = tw
        .list_messages_stream(&ListMessagesQuery::default().page_size(2))
        .collect()
        .await;
    let items: Vec<Message> = items.into_iter().map(Result::unwrap).collect();
    assert_eq!(items.len(), 6, "{items:?}");
    let requests = server.requests();
    assert_eq!(
        requests.len(),
        3,
        "one request per page, none after the last"
    );
    for r in &requests {
        assert_eq!(r.path, format!("/2010-04-01/Accounts/{SID}/Messages.json"));
        assert!(r.header("authorization").unwrap().starts_with("Basic "));
    }
    assert_eq!(
        requests[2].query_pairs().get("Page").map(String::as_str),
        Some("2")
    );
}

#[tokio::test]
async fn twilio_create_message_sends_a_form_with_repeated_media_urls() {
    let server = TestServer::start(|_| {
        Reply::json(
            201,
            json!({"sid": MESSAGE, "account_sid": SID, "status": "queued"}),
        )
    })
    .await;
    let tw = client(&server.url(), None);
    tw.create_message(&message()).await.unwrap();
    let r = &server.requests()[0];
    assert_eq!(
        r.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    let body = String::from_utf8(r.body.clone()).unwrap();
    assert_eq!(
        body.matches("MediaUrl=").count(),
        2,
        "arrays: repeat (MediaUrl=a&MediaUrl=b): {body}"
    );
    assert!(body.contains("To=%2B15558675310"), "{body}");
    // Basic auth: the account SID and token, never in the URL.
    let expected = format!(
        "Basic {}",
        base64::Engine::encode(
            &base64::engine::general_purpose::STANDARD,
            format!("{SID}:{TOKEN}")
        )
    );
    assert_eq!(r.header("authorization"), Some(expected.as_str()));
    assert!(!r.query.contains(TOKEN));
}

/// X-Twilio-Signature computed by an independent implementation (Python's hmac) of the
/// documented scheme: HMAC-SHA1 keyed with the auth token over the full URL followed by every
/// POST parameter sorted by name (name then value), base64.
fn python_twilio_signature(token: &str, url: &str, params: &[(&str, &str)]) -> String {
    let script = r#"
import base64, hashlib, hmac, json, sys
token, url, params = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
data = url + "".join(k + v for k, v in sorted(params))
print(base64.b64encode(hmac.new(token.encode(), data.encode(), hashlib.sha1).digest()).decode())
"#;
    let params = serde_json::to_string(params).unwrap();
    let out = std::process::Command::new("python3")
        .args(["-c", script, token, url, &params])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

// `handle_webhook` picks the payload type by path (`select`), verifies the HMAC-SHA1 signature
// with the auth token, then decodes the form.
#[test]
fn twilio_status_callback_signature_from_an_independent_signer_verifies() {
    let url = "https://example.com/twilio/status?tenant=7";
    let params = [
        ("MessageSid", MESSAGE),
        ("SmsSid", MESSAGE),
        ("AccountSid", SID),
        ("MessageStatus", "delivered"),
        ("To", "+15558675310"),
        ("From", "+15017122661"),
        ("ApiVersion", "2010-04-01"),
    ];
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish();
    let signature = python_twilio_signature(TOKEN, url, &params);
    let mut headers = tidings_runtime::reqwest::header::HeaderMap::new();
    headers.insert("x-twilio-signature", signature.parse().unwrap());
    headers.insert(
        "content-type",
        "application/x-www-form-urlencoded".parse().unwrap(),
    );

    let secrets = tidings_runtime::webhook::WebhookSecrets::all(TOKEN);
    let delivery = |body: &str, secrets: &tidings_runtime::webhook::WebhookSecrets| {
        let request = tidings_runtime::webhook::WebhookRequest::new(url, &headers, body.as_bytes());
        handle_webhook(secrets, &request)
    };
    match delivery(&body, &secrets).unwrap() {
        WebhookPayload::MessageStatus(status) => {
            assert_eq!(status.message_status, MessageStatus::Delivered);
            assert_eq!(status.message_sid, MESSAGE);
        }
        other => panic!("selected by path /twilio/status: {other:?}"),
    }
    // One changed parameter, or the wrong token, and it no longer verifies.
    let tampered = body.replace("delivered", "failed");
    assert!(delivery(&tampered, &secrets).is_err());
    let wrong = tidings_runtime::webhook::WebhookSecrets::all("another-token");
    assert!(delivery(&body, &wrong).is_err());
}
