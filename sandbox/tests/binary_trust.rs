//! The `tidings-sandbox` binary as a development server: its log on stderr (issue 28, item 15),
//! its `--data` directory (items 1–4). Each test runs the real binary on loopback.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod binary_support;

use binary_support::{call, start};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn the_binary_logs_its_start_and_each_refused_request_on_stderr_without_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("stderr.log");
    // RUST_LOG unset: the default level must still show the events a developer needs.
    let run = start(&["--email-key", "sk_test_never_logged"], &log, "", &[]);
    let emails = format!("{}/v1/emails", run.url("email"));
    let (status, _) = call(Method::GET, &emails, "sk_wrong_key_never_logged", None).await;
    assert_eq!(status, 401);
    let (status, _) = call(
        Method::POST,
        &emails,
        "sk_test_never_logged",
        Some(json!({"from": "ada@example.com", "to": []})),
    )
    .await;
    assert!((400..500).contains(&status), "{status}");
    let log = run.log.clone();
    run.stop();
    let text = std::fs::read_to_string(log).unwrap();
    assert!(text.contains("tidings-sandbox started"), "{text}");
    let refused: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("request refused"))
        .collect();
    assert_eq!(refused.len(), 2, "{text}");
    assert!(refused[0].contains("401"), "{text}");
    assert!(refused[1].contains("status=422"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no colour codes in a log that is not a terminal"
    );
    assert!(text.contains("stopped"), "{text}");
    assert!(
        !text.contains("never_logged"),
        "a key reached the log: {text}"
    );
}
