//! Error messages as a user reads them, pinned as text (insta snapshots): a failed call names
//! the service, operation, method and URL, the attempts and why there was no retry, and what
//! to check; a configuration error names the value, the variable to set, and every missing
//! one at once. Review changes with `cargo insta review` (or `INSTA_UPDATE=always`).
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use common::*;
use tidings_runtime::spec::*;
use tidings_runtime::*;

/// A loopback port with nothing listening (bound, then released).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// An error's text with the test server's port (which changes per run) as `PORT`.
fn shown(err: &Error, server: &TestServer) -> String {
    let port = server.base_url().rsplit(':').next().unwrap().to_owned();
    err.to_string().replace(&port, "PORT")
}

fn from_env(vars: &[(&str, &str)]) -> Result<Client, Error> {
    Client::builder(&EMAIL)
        .env_with(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        })
        .build()
}

#[tokio::test]
async fn connection_refused_names_the_call_the_attempts_and_what_to_check() {
    let port = closed_port();
    let client = Client::builder(&EMAIL)
        .base_url(format!("http://127.0.0.1:{port}"))
        .api_key(API_KEY)
        .rate_limit(None)
        .retry(
            RetryPolicy::from_spec(&RetrySpec::DEFAULT)
                .backoff(Duration::from_millis(1), Duration::from_millis(2)),
        )
        .build()
        .unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Transport);
    let text = err.to_string().replace(&port.to_string(), "PORT");
    assert!(!text.contains(API_KEY));
    insta::assert_snapshot!(text);
}

#[tokio::test]
async fn a_query_credential_is_cut_out_of_the_url_in_the_message() {
    let port = closed_port();
    let client = Client::builder(&EMAIL)
        .base_url(format!("http://127.0.0.1:{port}"))
        .api_key(API_KEY)
        .query_auth()
        .rate_limit(None)
        .max_attempts(1)
        .build()
        .unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    let text = err.to_string().replace(&port.to_string(), "PORT");
    assert!(!text.contains(API_KEY), "{text}");
    insta::assert_snapshot!(text);
}

#[tokio::test]
async fn an_attempt_timeout_names_the_call_and_the_setting_to_raise() {
    let server = TestServer::always(Reply::Stall(Duration::from_secs(3))).await;
    let client = email_client(&server)
        .attempt_timeout(Duration::from_millis(100))
        .max_attempts(1)
        .build()
        .unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    let context = err.context().unwrap();
    assert_eq!(
        (context.operation, context.attempts, context.method.as_str()),
        ("get_email", 1, "GET")
    );
    insta::assert_snapshot!(shown(&err, &server));
}

#[tokio::test]
async fn a_deadline_timeout_says_the_deadline_covers_retries() {
    let server = TestServer::always(Reply::Stall(Duration::from_secs(3))).await;
    let client = email_client(&server)
        .total_timeout(Some(Duration::from_millis(150)))
        .max_attempts(1)
        .build()
        .unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Timeout);
    insta::assert_snapshot!(shown(&err, &server));
}

#[test]
fn a_base_url_without_a_scheme_names_the_value_and_the_variable() {
    let err = from_env(&[
        ("COMMS_TEST_EMAIL_BASE_URL", "api.example.com/v1"),
        ("COMMS_TEST_EMAIL_API_KEY", "k"),
    ])
    .unwrap_err();
    insta::assert_snapshot!(err.to_string());
}

#[test]
fn a_base_url_given_in_code_says_to_fix_the_call() {
    let err = Client::builder(&EMAIL)
        .base_url("localhost:8080")
        .api_key("k")
        .build()
        .unwrap_err();
    insta::assert_snapshot!(err.to_string());
}

#[test]
fn a_base_url_with_credentials_is_shown_without_them() {
    let err = from_env(&[
        (
            "COMMS_TEST_EMAIL_BASE_URL",
            "https://user:hunter2@api.example.com/?key=sk_live_1",
        ),
        ("COMMS_TEST_EMAIL_API_KEY", "k"),
    ])
    .unwrap_err();
    let text = err.to_string();
    assert!(
        !text.contains("hunter2") && !text.contains("sk_live_1"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn every_missing_variable_is_listed_at_once() {
    let err = from_env(&[]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config);
    insta::assert_snapshot!(err.to_string());
}

#[test]
fn every_missing_credential_of_a_signed_service_is_listed() {
    let err = Client::builder(&REALTIME)
        .env_with(|_| None)
        .base_url("http://127.0.0.1:1")
        .build()
        .unwrap_err();
    insta::assert_snapshot!(err.to_string());
}

#[tokio::test]
async fn unauthorized() {
    let server = TestServer::always(
        Reply::json(
            401,
            r#"{"error":{"code":"invalid_api_key","message":"The API key is not valid"}}"#,
        )
        .header("x-request-id", "req_401"),
    )
    .await;
    let client = email_client(&server).build().unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    assert!(!err.to_string().contains(API_KEY));
    insta::assert_snapshot!(shown(&err, &server));
}

#[tokio::test]
async fn forbidden_names_the_operation_and_the_credential_to_check() {
    let server = TestServer::always(Reply::json(
        403,
        r#"{"error":{"code":"forbidden","message":"This key may not read emails"}}"#,
    ))
    .await;
    let client = email_client(&server).build().unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Auth);
    insta::assert_snapshot!(shown(&err, &server));
}

#[tokio::test]
async fn a_refused_query_credential_is_cut_out_of_the_url() {
    let server =
        TestServer::always(Reply::json(401, r#"{"error":{"code":"invalid_api_key"}}"#)).await;
    let client = email_client(&server).query_auth().build().unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    let text = shown(&err, &server);
    assert!(!text.contains(API_KEY), "{text}");
    assert!(err.context().unwrap().url.ends_with("api_key=***"));
    insta::assert_snapshot!(text);
}

#[tokio::test]
async fn a_refused_signature_names_every_credential_it_is_made_from() {
    let server = TestServer::always(Reply::json(
        401,
        r#"{"error":{"code":"invalid_signature","message":"Invalid signature"}}"#,
    ))
    .await;
    let client = Client::builder(&REALTIME)
        .base_url(server.base_url())
        .credential("app_id", "123")
        .credential("key", PUSHER_KEY)
        .api_key(PUSHER_SECRET)
        .build()
        .unwrap();
    let request = tidings_runtime::Request::new(&CHANNELS).path_param("app_id", "123");
    let err = client.execute(request).await.unwrap_err();
    let text = shown(&err, &server);
    assert!(!text.contains(PUSHER_SECRET), "{text}");
    insta::assert_snapshot!(text);
}

#[tokio::test]
async fn rate_limited_with_retry_after() {
    let server = TestServer::always(
        Reply::json(
            429,
            r#"{"error":{"code":"rate_limit_exceeded","message":"Too many requests"}}"#,
        )
        .header("retry-after", "30"),
    )
    .await;
    // The 30 s wait would pass the 2 s deadline, so the call gives up at once.
    let client = email_client(&server)
        .total_timeout(Some(Duration::from_secs(2)))
        .build()
        .unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    assert_eq!(server.count(), 1);
    assert_eq!(err.context().unwrap().attempts, 1);
    insta::assert_snapshot!(shown(&err, &server));
}

#[tokio::test]
async fn rate_limited_after_every_retry_names_the_attempts() {
    let server = TestServer::always(Reply::json(
        429,
        r#"{"error":{"code":"rate_limit_exceeded","message":"Too many requests"}}"#,
    ))
    .await;
    let client = email_client(&server).max_attempts(3).build().unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    assert_eq!(server.count(), 3);
    insta::assert_snapshot!(shown(&err, &server));
}

#[tokio::test]
async fn the_clients_own_limit_says_nothing_was_sent() {
    let server = TestServer::always(Reply::json(200, r#"{"id":"em_1"}"#)).await;
    let client = email_client(&server)
        .rate_limit(Some(ratelimit::RateLimit::new(1, Duration::from_secs(60))))
        .total_timeout(Some(Duration::from_millis(200)))
        .build()
        .unwrap();
    client.execute(get_email("em_1")).await.unwrap();
    let err = client.execute(get_email("em_2")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    assert_eq!(server.count(), 1);
    // The wait left in the window changes from run to run: checked by its parts.
    let text = shown(&err, &server);
    for part in [
        "rate limited (retry after ",
        "email.get_email (GET http://127.0.0.1:PORT/v1/emails/em_2) failed after 1 attempt",
        "nothing was sent: the client's own rate limit had no slot",
        "rate_limit()",
    ] {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
}

#[tokio::test]
async fn decode_error() {
    let server = TestServer::always(Reply::json(200, r#"{"id": 42}"#)).await;
    let client = email_client(&server).build().unwrap();
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Email {
        id: String,
    }
    let err = client.call::<Email>(get_email("em_1")).await.unwrap_err();
    insta::assert_snapshot!(err.to_string());
}

#[tokio::test]
async fn an_error_status_names_the_call_and_what_to_check() {
    // Every error a call ends with carries the call (issue 29, item 4), not only refusals,
    // rate limits and timeouts: a 404 names the operation, method and URL and what to check.
    let server = TestServer::always(Reply::json(
        404,
        r#"{"error":{"code":"not_found","message":"No email em_1"}}"#,
    ))
    .await;
    let client = email_client(&server).build().unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Api);
    let context = err
        .context()
        .expect("a 404 from a call carries its context");
    assert_eq!(
        (context.service, context.operation, context.attempts),
        ("email", "get_email", 1)
    );
    assert!(context.url.ends_with("/v1/emails/em_1"), "{}", context.url);
    insta::assert_snapshot!(shown(&err, &server));
}

#[tokio::test]
async fn a_server_failure_not_retried_says_why() {
    // A 500 to a send that may have reached the server and has no idempotency key is not
    // sent again: the error says so, and which call it was.
    let server = TestServer::always(Reply::json(
        500,
        r#"{"error":{"code":"internal","message":"Something broke"}}"#,
    ))
    .await;
    let client = email_client(&server).build().unwrap();
    let err = client.execute(cancel_email("em_1")).await.unwrap_err();
    let context = err.context().unwrap();
    assert_eq!(context.operation, "cancel_email");
    assert_eq!((server.count(), context.attempts), (1, 1));
    assert!(context.not_retried.is_some(), "{context:?}");
    insta::assert_snapshot!(shown(&err, &server));
}

#[test]
fn plain_http_to_another_host_is_refused_unless_allowed_and_loopback_needs_nothing() {
    // A dropped `s` in the variable: the key would cross the network in clear text.
    let err = from_env(&[
        ("COMMS_TEST_EMAIL_BASE_URL", "http://api.example.com/v1"),
        ("COMMS_TEST_EMAIL_API_KEY", "k"),
    ])
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config);
    insta::assert_snapshot!(err.to_string());
    assert_eq!(plain_http_env(&EMAIL), "COMMS_TEST_EMAIL_ALLOW_PLAIN_HTTP");
    // Allowed by the environment (a sandbox in another container) or in code.
    from_env(&[
        ("COMMS_TEST_EMAIL_BASE_URL", "http://sandbox:8025"),
        ("COMMS_TEST_EMAIL_API_KEY", "k"),
        ("COMMS_TEST_EMAIL_ALLOW_PLAIN_HTTP", "1"),
    ])
    .unwrap();
    Client::builder(&EMAIL)
        .base_url("http://10.0.0.7:8025")
        .api_key("k")
        .allow_plain_http(true)
        .build()
        .unwrap();
    // This machine needs nothing: loopback addresses and `localhost` names.
    for base in [
        "http://127.0.0.1:8025",
        "http://127.8.9.1",
        "http://[::1]:8025",
        "http://0.0.0.0:8025",
        "http://localhost:8025",
        "http://app.localhost",
    ] {
        Client::builder(&EMAIL)
            .base_url(base)
            .api_key("k")
            .build()
            .unwrap_or_else(|e| panic!("{base}: {e}"));
    }
    // Nothing to protect: a client that sends no credential may use plain HTTP anywhere.
    Client::builder(&EMAIL)
        .base_url("http://api.example.com")
        .no_auth()
        .build()
        .unwrap();
    // A signing scheme sends a signature, never its secret: plain HTTP shows nothing.
    Client::builder(&REALTIME)
        .base_url("http://realtime.internal:6001")
        .credential("app_id", "3")
        .credential("key", "public-key")
        .credential("secret", "s3cret")
        .build()
        .unwrap();
    // Spoofed loopback names are other hosts.
    for base in [
        "http://localhost.example.com",
        "http://127.0.0.1.example.com",
    ] {
        let err = Client::builder(&EMAIL)
            .base_url(base)
            .api_key("k")
            .build()
            .unwrap_err();
        assert!(err.to_string().contains("plain HTTP"), "{base}: {err}");
    }
}

#[test]
fn a_minted_token_counts_as_a_secret_on_the_wire() {
    static MINTED: ServiceSpec = ServiceSpec {
        name: "minted",
        base_url_env: "COMMS_TEST_MINTED_BASE_URL",
        credentials: &[],
        auth: &[AuthScheme::Minted {
            minter: "jwt",
            header: "Authorization",
            prefix: Some("Bearer "),
        }],
        ..EMAIL
    };
    // No credential is configured, yet the token it mints would travel in clear.
    let err = Client::builder(&MINTED)
        .base_url("http://api.example.com")
        .build()
        .unwrap_err();
    assert!(err.to_string().contains("plain HTTP"), "{err}");
}
