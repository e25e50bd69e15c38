//! `Call<T>`, what generated methods return: sent on first poll, decoded as `T`, a request that
//! failed to build resolves to its error without sending, and usable as a plain `Future`.

mod common;

use common::*;
use tidings_runtime::*;

#[derive(Debug, serde::Deserialize, PartialEq)]
struct Answer {
    ok: bool,
}

#[tokio::test]
async fn a_call_sends_only_when_polled_and_decodes_the_answer() {
    let server = TestServer::always(Reply::ok()).await;
    let client = email_client(&server).build().expect("client");
    let call: Call<Answer> = client.call(get_email("em_1"));
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    assert_eq!(
        server.count(),
        0,
        "nothing is sent before the call is polled"
    );
    // A plain `Future`, `Send + 'static`: it can be spawned.
    let answer = tokio::spawn(call).await.expect("task").expect("answer");
    assert_eq!(answer, Answer { ok: true });
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn a_request_that_failed_to_build_is_the_answer_and_nothing_is_sent() {
    let server = TestServer::always(Reply::ok()).await;
    let client = email_client(&server).build().expect("client");
    let failed: Result<Request, Error> = Err(Error::invalid_request("to", "must not be empty"));
    let err = client
        .call::<Answer>(failed)
        .await
        .expect_err("the build error");
    assert!(
        matches!(err, Error::InvalidRequest { ref field, .. } if field == "to"),
        "{err}"
    );
    assert_eq!(server.count(), 0);
}

#[tokio::test]
async fn ignoring_the_body_accepts_any_answer_and_decoding_reports_a_wrong_one() {
    let server = TestServer::always(Reply::json(200, r#"{"deleted":true}"#)).await;
    let client = email_client(&server).build().expect("client");
    client
        .call_ignoring_body(get_email("em_1"))
        .await
        .expect("the body is not needed");
    let err = client
        .call::<Answer>(get_email("em_1"))
        .await
        .expect_err("`ok` is missing");
    assert!(matches!(err, Error::Decode { .. }), "{err}");
}
