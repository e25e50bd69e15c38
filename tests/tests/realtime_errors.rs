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
}
