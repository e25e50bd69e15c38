//! The naming and typing constructs of the spec language, end to end over loopback: the client
//! generated from `tests/specs/shapes.yaml` against a recording server (exact query strings of
//! list parameters, header parameters, RFC 2822 and Unix dates, Rust names for wire names,
//! `include`, untagged unions) and against the server generated from the same spec (list
//! queries and headers decoded, shared routes dispatched by their `when` field).

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/shapes.rs"));
    include!(concat!(env!("OUT_DIR"), "/shapes_server.rs"));
}

use std::sync::{Arc, Mutex};

use generated::shapes::*;
use generated::shapes_server::{ShapesServer, router};
use serde_json::json;
use tidings_runtime::ErrorKind;
use tidings_sandbox::server::{Gateway, RequestContext, ServerError};
use tidings_tests::{Reply, TestServer};

const KEY: &str = "shapes-test-key";

fn client(url: &str) -> ShapesClient {
    ShapesClient::builder()
        .base_url(url)
        .credential("api_key", KEY)
        .build()
        .unwrap()
}

fn query() -> ListMessagesQuery {
    ListMessagesQuery::default()
        .date_sent_before("2024-01-02")
        .to(["+15550001", "+15550002"])
        .tag(["a b", "c"])
        .ids([1, 22])
}

fn headers() -> ListMessagesHeaders {
    ListMessagesHeaders::new("trace-1").page_size(50)
}

#[tokio::test]
async fn list_params_headers_and_wire_dates_travel_as_the_spec_says() {
    let server = TestServer::start(|_| {
        Reply::json(
            200,
            json!([{
                "sid": "SM1",
                "self": "/v1/messages/SM1",
                "date_created": "Wed, 18 Aug 2010 20:01:40 +0000",
                "date_updated": 1_282_161_700,
                "sent_ms": 1_282_161_700_250_i64,
                "status": "1",
                "send_on": "2010-08-19"
            }]),
        )
    })
    .await;
    let messages = client(&server.url())
        .list_messages(&query(), &headers())
        .await
        .unwrap();
    let request = &server.requests()[0];
    assert_eq!(
        request.query,
        "DateSent%3C=2024-01-02&To=%2B15550001&To=%2B15550002&Tag%5B%5D=a+b&Tag%5B%5D=c&ids=1%2C22"
    );
    assert_eq!(request.header("x-trace"), Some("trace-1"));
    assert_eq!(request.header("x-page-size"), Some("50"));
    assert_eq!(
        request.header("authorization"),
        Some("Bearer shapes-test-key")
    );

    let m = &messages[0];
    // Included fields first (Resource, Timestamps), the wire name `self` as `self_link`.
    assert_eq!(m.sid, "SM1");
    assert_eq!(m.self_link.as_deref(), Some("/v1/messages/SM1"));
    assert_eq!(m.date_created, "2010-08-18T20:01:40Z");
    assert_eq!(m.date_updated.as_deref(), Some("2010-08-18T20:01:40Z"));
    assert_eq!(m.sent_ms.as_deref(), Some("2010-08-18T20:01:40.25Z"));
    assert_eq!(m.status, Some(MessageStatus::FirstAttempt));
    assert_eq!(m.send_on.as_deref(), Some("2010-08-19"));
    // And back to the wire forms.
    let back = serde_json::to_value(m).unwrap();
    assert_eq!(back["date_created"], "Wed, 18 Aug 2010 20:01:40 +0000");
    assert_eq!(back["date_updated"], 1_282_161_700);
    assert_eq!(back["self"], "/v1/messages/SM1");
}

#[tokio::test]
async fn a_date_that_is_not_rfc_2822_is_a_decode_error() {
    let server = TestServer::start(|_| {
        Reply::json(
            200,
            json!([{ "sid": "SM1", "date_created": "2010-08-18T20:01:40Z" }]),
        )
    })
    .await;
    let err = client(&server.url())
        .list_messages(&ListMessagesQuery::default(), &headers())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Decode, "{err}");
    assert!(err.to_string().contains("RFC 2822"), "{err}");
}

/// A required field that may be `null` is always on the wire: the client sends `null` for one
/// it leaves unset (it was left out, and the service refused the request), reads `null` or a
/// missing key as `None`, and writes `None` back as `null`.
#[tokio::test]
async fn a_required_nullable_field_is_sent_as_null_when_unset() {
    let server = TestServer::start(|_| Reply::json(200, json!({ "id": "x" }))).await;
    let client = client(&server.url());
    client
        .send_sms(&SendSms::new("sms", "+15550001"))
        .await
        .unwrap();
    let set = SendSms::new("sms", "+15550001").callback_url("https://example.com/cb");
    client.send_sms(&set).await.unwrap();
    let requests = server.requests();
    let unset = requests[0].json();
    let unset = unset.as_object().unwrap();
    assert_eq!(unset.get("callback_url"), Some(&serde_json::Value::Null));
    // An optional field left unset is still left out.
    assert!(!unset.contains_key("send_on"), "{unset:?}");
    assert_eq!(requests[1].json()["callback_url"], "https://example.com/cb");

    let created = "Wed, 18 Aug 2010 20:01:40 +0000";
    for answer in [
        json!({ "sid": "SM1", "date_created": created, "date_updated": null }),
        json!({ "sid": "SM1", "date_created": created }),
    ] {
        let m: Message = serde_json::from_value(answer).unwrap();
        assert_eq!(m.date_updated, None);
        let back = serde_json::to_value(&m).unwrap();
        assert_eq!(back.get("date_updated"), Some(&serde_json::Value::Null));
    }
    // A value goes through its wire form (Unix seconds) as before.
    let m: Message = serde_json::from_value(
        json!({ "sid": "SM1", "date_created": created, "date_updated": 1_282_161_700 }),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&m).unwrap()["date_updated"],
        1_282_161_700
    );
}

#[tokio::test]
async fn bad_dates_and_header_limits_are_refused_before_sending() {
    let server = TestServer::start(|_| Reply::json(200, json!({ "id": "x" }))).await;
    let client = client(&server.url());
    let bad_date = SendSms::new("sms", "+15550001").send_on("2024-02-30");
    let err = client.send_sms(&bad_date).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    assert!(err.to_string().contains("send_on"), "{err}");
    let bad_time = SendSms::new("sms", "+15550001").send_at("yesterday");
    let err = client.send_sms(&bad_time).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    let long = ListMessagesHeaders::new("x".repeat(65));
    let err = client
        .list_messages(&ListMessagesQuery::default(), &long)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    assert!(server.requests().is_empty());

    // A valid one goes out as Unix seconds.
    let ok = SendSms::new("sms", "+15550001")
        .send_at("2024-01-01T01:00:00+01:00")
        .send_on("2024-02-29");
    client.send_sms(&ok).await.unwrap();
    let body = server.requests()[0].json();
    assert_eq!(body["send_at"], 1_704_067_200);
    assert_eq!(body["send_on"], "2024-02-29");
}

#[tokio::test]
async fn untagged_unions_take_the_variant_that_fits() {
    let server = TestServer::start(|r| match r.path.as_str() {
        "/v1/answers/ok" => Reply::json(200, json!({ "id": "A1" })),
        "/v1/answers/err" => Reply::json(200, json!({ "error_code": 7, "message": "no" })),
        _ => Reply::json(200, json!({ "something": "else" })),
    })
    .await;
    let client = client(&server.url());
    assert_eq!(
        client.get_answer("ok").await.unwrap(),
        Answer::Ok(Success { id: "A1".into() })
    );
    assert_eq!(
        client.get_answer("err").await.unwrap(),
        Answer::Failed(Failure {
            error_code: 7,
            message: Some("no".into())
        })
    );
    assert_eq!(
        client.get_answer("other").await.unwrap(),
        Answer::Unknown(json!({ "something": "else" }))
    );
    assert_eq!(
        serde_json::to_value(Answer::from(Success { id: "B".into() })).unwrap(),
        json!({ "id": "B" })
    );
}

#[tokio::test]
async fn an_object_is_read_as_the_untagged_variant_naming_its_keys() {
    // Vonage's verify start answers success and refusal alike with a 200, untagged, nothing
    // required, the refusal a success plus `error_text`: listed first, it took every success.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let server =
        TestServer::start(
            |_| match CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst) {
                0 => Reply::json(200, json!({ "request_id": "abc", "status": "0" })),
                1 => Reply::json(
                    200,
                    json!({ "status": "2", "error_text": "Missing number" }),
                ),
                _ => Reply::json(200, json!([1, 2])),
            },
        )
        .await;
    let client = client(&server.url());
    assert_eq!(
        client.start_check().await.unwrap(),
        Outcome::Started(Started {
            request_id: Some("abc".into()),
            status: Some("0".into()),
        })
    );
    assert_eq!(
        client.start_check().await.unwrap(),
        Outcome::Refused(Refused {
            request_id: None,
            status: Some("2".into()),
            error_text: Some("Missing number".into()),
        })
    );
    // No object: no variant fits, kept whole.
    assert_eq!(
        client.start_check().await.unwrap(),
        Outcome::Unknown(json!([1, 2]))
    );
    // Written as its content, either way.
    assert_eq!(
        serde_json::to_value(Outcome::from(Refused {
            request_id: None,
            status: Some("3".into()),
            error_text: None,
        }))
        .unwrap(),
        json!({ "status": "3" })
    );
}

/// The generated server, recording what each method received.
struct Shapes {
    gateway: Gateway,
    resources: tidings_sandbox::server::Resources,
    seen: Mutex<Vec<String>>,
}

impl ShapesServer for Shapes {
    fn gateway(&self) -> &Gateway {
        &self.gateway
    }
    fn resource_store(&self) -> &tidings_sandbox::server::Resources {
        &self.resources
    }

    async fn list_messages(
        &self,
        _ctx: RequestContext,
        query: ListMessagesQuery,
        headers: ListMessagesHeaders,
    ) -> Result<Vec<Message>, ServerError> {
        self.seen
            .lock()
            .unwrap()
            .push(format!("list {query:?} {headers:?}"));
        Ok(vec![Message {
            sid: "SM9".into(),
            self_link: None,
            date_created: "2024-05-01T12:00:00+02:00".into(),
            date_updated: None,
            sent_ms: None,
            body: None,
            status: Some(MessageStatus::Queued),
            send_on: None,
        }])
    }

    async fn get_answer(&self, _ctx: RequestContext, id: String) -> Result<Answer, ServerError> {
        Ok(Answer::Ok(Success { id }))
    }

    async fn send_sms(&self, _ctx: RequestContext, body: SendSms) -> Result<Answer, ServerError> {
        self.seen.lock().unwrap().push(format!("sms {}", body.to));
        Ok(Answer::Ok(Success { id: "sms".into() }))
    }

    async fn send_mms(&self, _ctx: RequestContext, body: SendMms) -> Result<Answer, ServerError> {
        self.seen
            .lock()
            .unwrap()
            .push(format!("mms {} {}", body.to, body.media.len()));
        Ok(Answer::Failed(Failure {
            error_code: 1,
            message: None,
        }))
    }
}

async fn serve() -> (String, Arc<Shapes>) {
    let shapes = Arc::new(Shapes {
        gateway: Gateway::new(&SERVICE).credential("api_key", KEY),
        resources: tidings_sandbox::server::Resources::new(Default::default()),
        seen: Mutex::new(Vec::new()),
    });
    let app = router(Arc::clone(&shapes));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, shapes)
}

#[tokio::test]
async fn the_generated_server_decodes_list_queries_and_header_params() {
    let (url, shapes) = serve().await;
    let messages = client(&url)
        .list_messages(&query(), &headers())
        .await
        .unwrap();
    assert_eq!(messages[0].date_created, "2024-05-01T12:00:00+02:00");
    let seen = shapes.seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [format!("list {:?} {:?}", query(), headers())],
        "the server got what the client sent"
    );
}

#[tokio::test]
async fn one_route_serves_two_operations_told_apart_by_the_body() {
    let (url, shapes) = serve().await;
    let client = client(&url);
    let sms = client
        .send_sms(&SendSms::new("sms", "+15550001"))
        .await
        .unwrap();
    assert_eq!(sms, Answer::Ok(Success { id: "sms".into() }));
    let mms = client
        .send_mms(&SendMms {
            channel: "mms".into(),
            to: "+15550002".into(),
            media: vec!["https://example.com/a.png".into()],
        })
        .await
        .unwrap();
    assert!(matches!(mms, Answer::Failed(Failure { error_code: 1, .. })));
    assert_eq!(
        shapes.seen.lock().unwrap().clone(),
        ["sms +15550001", "mms +15550002 1"]
    );
    // The client refuses a body that would select another operation (or none).
    let err = client
        .send_sms(&SendSms::new("mms", "+15550003"))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    assert!(err.to_string().contains("channel"), "{err}");
    assert_eq!(shapes.seen.lock().unwrap().len(), 2, "nothing was sent");
}

#[tokio::test]
async fn the_server_answers_422_when_the_body_selects_no_operation() {
    let (url, shapes) = serve().await;
    // Another client's request, with a channel no operation has.
    let runtime = client(&url).runtime().clone();
    let request = tidings_runtime::Request::new(&operations::SEND_SMS)
        .json(&json!({ "channel": "fax", "to": "+15550003" }))
        .unwrap();
    let err = runtime.execute(request).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Api, "{err}");
    assert!(err.to_string().contains("channel"), "{err}");
    assert!(shapes.seen.lock().unwrap().is_empty());
}
