//! An SMTP send that cannot reach its relay, or whose relay never answers, fails with the send
//! it ended (`Error::context`: the relay's URL, the attempts, why no other, what to check), as
//! an HTTP call does. Real sockets on loopback; no peer needed.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::time::Duration;

use tidings::email::SendEmailRequest;
use tidings_runtime::ErrorKind;
use tidings_runtime::smtp::{SmtpRelay, SmtpTls};

fn request() -> SendEmailRequest {
    SendEmailRequest::new("ada@example.com", ["grace@example.com"]).text("Hi")
}

#[tokio::test]
async fn a_relay_nobody_listens_at_is_a_connect_failure_naming_where() {
    // A port that was free a moment ago.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let relay = SmtpRelay::builder("127.0.0.1")
        .port(port)
        .tls(SmtpTls::StartTls)
        .api_key("sk_test_not_shown")
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let err = relay.send(&request()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Transport, "{err}");
    let context = err.context().unwrap_or_else(|| panic!("no context: {err}"));
    assert_eq!((context.service, context.operation), ("smtp", "send"));
    assert_eq!(context.url, format!("smtp://127.0.0.1:{port}"));
    assert_eq!(context.attempts, 1);
    assert_eq!(
        context.not_retried.as_deref(),
        Some("not retried: the relay could not be reached")
    );
    assert!(
        context
            .advice
            .contains(&format!("a relay listens at 127.0.0.1:{port}")),
        "{err}"
    );
    let shown = format!("{err} {err:?} {err:#?}");
    assert!(!shown.contains("sk_test_not_shown"), "{shown}");
}

#[tokio::test]
async fn a_relay_that_never_greets_times_out_with_the_timeout_to_raise() {
    let port = tidings_tests::silent_listener().await;
    let relay = SmtpRelay::builder("127.0.0.1")
        .port(port)
        .tls(SmtpTls::Implicit)
        .api_key("sk_test_not_shown")
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let err = relay.send(&request()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Timeout, "{err}");
    let context = err.context().unwrap_or_else(|| panic!("no context: {err}"));
    assert_eq!(context.url, format!("smtps://127.0.0.1:{port}"));
    assert_eq!(context.attempts, 1);
    assert!(
        context
            .advice
            .contains("SmtpRelayBuilder::timeout, 300ms now"),
        "{err}"
    );
    assert!(
        err.to_string().starts_with(&format!(
            "attempt timed out after 300ms: smtp.send (SMTP smtps://127.0.0.1:{port}) failed after 1 attempt, not retried"
        )),
        "{err}"
    );
}
