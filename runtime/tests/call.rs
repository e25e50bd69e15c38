//! `Call<T>`, what generated methods return: sent on first poll, decoded as `T`, a request that
//! failed to build resolves to its error without sending, and usable as a plain `Future`.

mod common;

use common::*;
use tidings_runtime::spec::*;
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

#[tokio::test]
async fn with_headers_answers_the_value_with_its_status_and_every_header() {
    let reply = Reply::json(201, r#"{"ok":true}"#)
        .header("Location", "/v1/emails/em_9")
        .header("ETag", "\"v1\"")
        .header("Link", "<a>; rel=\"first\"")
        .header("Link", "<b>; rel=\"next\"");
    let server = TestServer::always(reply).await;
    let client = email_client(&server).build().expect("client");
    let answer = client
        .call::<Answer>(get_email("em_9"))
        .with_headers()
        .await
        .expect("answer");
    assert_eq!(answer.status(), 201);
    assert_eq!(answer.value(), &Answer { ok: true });
    assert_eq!(answer.header("location"), Some("/v1/emails/em_9"));
    assert_eq!(answer.header("ETAG"), Some("\"v1\""));
    assert_eq!(
        answer.header_all("link"),
        ["<a>; rel=\"first\"", "<b>; rel=\"next\""]
    );
    assert_eq!(answer.header("x-absent"), None);
    assert_eq!(answer.header("not a header name"), None, "no panic");
    // Debug names the headers, not their values.
    let debug = format!("{answer:?}");
    assert!(
        debug.contains("location") && !debug.contains("em_9"),
        "{debug}"
    );
    assert_eq!(answer.into_value(), Answer { ok: true });

    // A body that is not needed (a HEAD): the headers are the answer.
    let (value, status, headers) = client
        .call_ignoring_body(get_email("em_9"))
        .with_headers()
        .await
        .expect("answer")
        .into_parts();
    assert_eq!((value, status), ((), 201));
    assert_eq!(headers["etag"], "\"v1\"");
}

#[tokio::test]
async fn with_headers_keeps_the_errors_of_the_call() {
    let server = TestServer::always(Reply::json(404, r#"{"error":{"code":"nope"}}"#)).await;
    let client = email_client(&server).build().expect("client");
    let err = client
        .call::<Answer>(get_email("em_1"))
        .with_headers()
        .await
        .expect_err("a 404");
    assert_eq!(err.status(), Some(404), "{err}");
    let failed: Result<Request, Error> = Err(Error::invalid_request("to", "must not be empty"));
    let err = client
        .call::<Answer>(failed)
        .with_headers()
        .await
        .expect_err("the build error");
    assert!(matches!(err, Error::InvalidRequest { .. }), "{err}");
    assert_eq!(server.count(), 1);
}

/// One 400 in two shapes of its own (an RFC 9457 problem, `{errorCode, errorMessage}`), the
/// service's `{"error": {...}}` for the rest.
static SHAPED: OperationSpec = OperationSpec::post("create_flow", "/v1/flows").with_errors(&[
    ErrorBodySpec {
        statuses: (400, 400),
        code: Some("type"),
        message: Some("title"),
        headers: &["X-Problem-Id"],
    },
    ErrorBodySpec {
        statuses: (400, 400),
        code: Some("errorCode"),
        message: Some("errorMessage"),
        headers: &["X-Error-Id"],
    },
]);

#[tokio::test]
async fn an_error_answer_is_read_by_the_first_of_its_shapes_that_finds_a_code_or_message() {
    let server = TestServer::script(vec![
        Reply::json(400, r#"{"type":"about:blank","title":"Bad flow"}"#),
        Reply::json(400, r#"{"errorCode":10001,"errorMessage":"Flow is empty"}"#)
            .header("X-Error-Id", "e-7"),
        Reply::json(
            400,
            r#"{"error":{"code":"bad","message":"platform says no"}}"#,
        ),
    ])
    .await;
    let client = email_client(&server)
        .max_attempts(1)
        .build()
        .expect("client");
    let mut read = Vec::new();
    for _ in 0..3 {
        let err = client
            .call::<Answer>(Request::new(&SHAPED))
            .await
            .expect_err("a 400");
        let api = err.api_error().expect("an API error");
        read.push((
            api.code.clone(),
            api.message.clone(),
            api.header("x-error-id").map(str::to_owned),
        ));
    }
    let s = |t: &str| Some(t.to_owned());
    assert_eq!(
        read,
        [
            (s("about:blank"), s("Bad flow"), None),
            (s("10001"), s("Flow is empty"), s("e-7")),
            (s("bad"), s("platform says no"), None),
        ]
    );
}
