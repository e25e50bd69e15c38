//! What a realtime app sees when the connection cannot be made: the error says why (the
//! server's `pusher:error` and close code, the refused handshake), not only that it timed out.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::time::Duration;

use tidings::ErrorKind;
use tidings::pusher::{self, ConnectionState};
use tidings_sandbox::realtime::{RealtimeConfig, RealtimeSandbox};

const WAIT: Duration = Duration::from_secs(5);

#[tokio::test]
async fn a_wrong_app_key_fails_with_the_servers_reason_and_close_code() {
    let sandbox = RealtimeSandbox::start(RealtimeConfig::default())
        .await
        .unwrap();
    let connection = pusher::connection(&sandbox.ws_url(), "no-such-key")
        .connect()
        .unwrap();
    let err = connection
        .wait_for(ConnectionState::Connected, WAIT)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config, "{err}");
    // The whole sentence, as an app developer reads it: what state, why, the server's words once.
    assert_eq!(
        err.to_string(),
        "configuration error: the realtime connection is failed and will not become connected: \
         the server said App key no-such-key does not exist (4001); then the server closed the \
         connection with code 4001"
    );
}

#[tokio::test]
async fn a_wrong_websocket_url_says_what_the_server_answered_when_the_wait_ends() {
    // An HTTP server that is not a WebSocket endpoint: every upgrade gets a 404.
    let http = tidings_tests::TestServer::start(|_| {
        tidings_tests::Reply::json(404, serde_json::json!({}))
    })
    .await;
    let connection = pusher::connection(&http.url(), "key").connect().unwrap();
    let err = connection
        .wait_for(ConnectionState::Connected, Duration::from_millis(1500))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert_eq!(err.kind(), ErrorKind::Transport, "{text}");
    assert!(text.contains("404"), "{text}");
    assert!(text.contains("not connected after"), "{text}");
    // What it ended, as for an HTTP call: the wait, the URL without its query, what to check.
    let context = err
        .context()
        .unwrap_or_else(|| panic!("no context: {text}"));
    assert_eq!(
        (context.service, context.operation),
        ("realtime", "wait_for")
    );
    let port = http
        .url()
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_owned();
    assert_eq!(context.url, format!("ws://127.0.0.1:{port}/app/key"));
    assert!(context.advice.contains("the app key"), "{text}");
}

/// A server that takes the connection and never answers the handshake: the wait ends as a
/// timeout carrying the connection it waited on; a subscription that is never confirmed
/// ends the same way, naming the channel.
#[tokio::test]
async fn waits_that_time_out_name_the_connection_and_what_to_check() {
    let port = tidings_tests::silent_listener().await;
    let connection = pusher::connection(&format!("ws://127.0.0.1:{port}"), "key")
        .connect()
        .unwrap();
    let err = connection
        .wait_for(ConnectionState::Connected, Duration::from_millis(300))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Timeout, "{err}");
    let context = err.context().unwrap_or_else(|| panic!("no context: {err}"));
    assert_eq!(context.url, format!("ws://127.0.0.1:{port}/app/key"));
    assert!(
        err.to_string().contains(&format!(
            "realtime.wait_for (WebSocket ws://127.0.0.1:{port}/app/key) failed after 1 attempt"
        )),
        "{err}"
    );
    let mut channel = connection.subscribe("orders").unwrap();
    let err = channel
        .wait_subscribed(Duration::from_millis(200))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Timeout, "{err}");
    let context = err.context().unwrap_or_else(|| panic!("no context: {err}"));
    assert_eq!(context.operation, "wait_subscribed");
    assert!(context.advice.contains("`orders`"), "{err}");
}
