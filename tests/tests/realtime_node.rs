//! Interoperability with the official libraries over sockudo: what our HTTP client triggers
//! reaches pusher-js (its Node build), and what the Node `pusher` library triggers reaches our
//! WebSocket client.
#![allow(clippy::unwrap_used)]

mod realtime_common;

use std::process::Stdio;
use std::time::Duration;

use realtime_common::{APP_ID, KEY, SECRET, Sockudo, node_peers};
use tidings::pusher::{self, ConnectionState};
use tokio::io::{AsyncBufReadExt, BufReader};

const WAIT: Duration = Duration::from_secs(20);

#[tokio::test]
async fn what_our_client_triggers_reaches_pusher_js() {
    let peers = node_peers();
    let s = Sockudo::start(None);
    let mut child = tokio::process::Command::new("node")
        .arg(peers.join("listen.js"))
        .args([&s.port.to_string(), KEY, "interop", "2"])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let ready = tokio::time::timeout(WAIT, lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(ready, r#"{"ready":true}"#);
    let client = s.client();
    client
        .trigger(
            ["interop"],
            "from-rust",
            &serde_json::json!({"n": 1, "text": "héllo"}),
        )
        .await
        .unwrap();
    client
        .trigger(["interop"], "plain", "just text")
        .await
        .unwrap();
    let first: serde_json::Value = serde_json::from_str(
        &tokio::time::timeout(WAIT, lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["event"], "from-rust");
    assert_eq!(first["data"], serde_json::json!({"n": 1, "text": "héllo"}));
    let second: serde_json::Value = serde_json::from_str(
        &tokio::time::timeout(WAIT, lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(second["data"], "just text");
    assert!(child.wait().await.unwrap().success());
}

#[tokio::test]
async fn what_the_node_library_triggers_reaches_our_client() {
    let peers = node_peers();
    let s = Sockudo::start(None);
    let c = pusher::connection(&s.ws_url(), KEY)
        .authorizer(pusher::local_authorizer(KEY, SECRET))
        .connect()
        .unwrap();
    c.wait_for(ConnectionState::Connected, WAIT).await.unwrap();
    for channel in ["interop-public", "private-interop"] {
        let mut ch = c.subscribe(channel).unwrap();
        ch.wait_subscribed(WAIT).await.unwrap();
        let status = tokio::process::Command::new("node")
            .arg(peers.join("trigger.js"))
            .args([
                &s.port.to_string(),
                APP_ID,
                KEY,
                SECRET,
                channel,
                "from-node",
                r#"{"lang":"js","n":[1,2]}"#,
            ])
            .status()
            .await
            .unwrap();
        assert!(status.success(), "trigger.js failed");
        let event = tokio::time::timeout(WAIT, async {
            loop {
                let e = ch.next_event().await.unwrap();
                if e.event == "from-node" {
                    return e;
                }
            }
        })
        .await
        .unwrap();
        assert_eq!(
            event.data::<serde_json::Value>().unwrap(),
            serde_json::json!({"lang": "js", "n": [1, 2]})
        );
    }
}
