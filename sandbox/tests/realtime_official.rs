//! The official Pusher libraries against the sandbox: pusher-js (its Node build) subscribes to
//! every channel kind, signs in, sends and receives client events, and gets what our HTTP
//! client triggers (encrypted data included); the Node `pusher` server library triggers through
//! the sandbox (its own signatures and encryption) and our WebSocket client receives it. Node
//! and the npm packages are required: the tests fail, never skip, without them.
#![allow(clippy::unwrap_used)]

mod realtime_common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use realtime_common::*;
use tidings::pusher::{self, ConnectionState, MasterKey};
use tokio::sync::mpsc;

/// A Node script whose stdout lines arrive on a channel; killed on drop.
struct NodePeer {
    child: Child,
    lines: mpsc::UnboundedReceiver<String>,
}

impl NodePeer {
    fn spawn(script: &std::path::Path, args: &[&str]) -> NodePeer {
        let modules = node_modules();
        let mut child = Command::new("node")
            .arg(script)
            .args(args)
            .env("NODE_PATH", &modules)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run node {}: {e}", script.display()));
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        NodePeer { child, lines }
    }

    async fn line(&mut self) -> serde_json::Value {
        let line = tokio::time::timeout(Duration::from_secs(30), self.lines.recv())
            .await
            .expect("a line from the node peer in time")
            .expect("the node peer ended early (its stderr is above)");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    fn wait_success(mut self) {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "the node peer exited with {status}");
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the node peer did not exit"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for NodePeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn pusher_js_receives_what_our_client_triggers() {
    // The listener of the realtime client tests, unchanged: a public channel.
    let s = sandbox().await;
    let port = s.port().to_string();
    let mut peer = NodePeer::spawn(&shared_peer("listen.js"), &[&port, s.key(), "interop", "2"]);
    assert_eq!(peer.line().await, serde_json::json!({"ready": true}));
    let client = s.client().unwrap();
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
    let first = peer.line().await;
    assert_eq!(first["event"], "from-rust");
    assert_eq!(first["data"], serde_json::json!({"n": 1, "text": "héllo"}));
    assert_eq!(peer.line().await["data"], "just text");
    peer.wait_success();
    s.shutdown().await;
}

#[tokio::test]
async fn pusher_js_on_every_channel_kind_with_presence_signin_and_client_events() {
    let s = sandbox().await;
    let master = MasterKey::from_base64(MASTER_KEY).unwrap();
    let ours = connected(&s, Some("rust-1")).await;
    let mut private = subscribed(&ours, "private-interop").await;
    let mut presence = subscribed(&ours, "presence-interop").await;

    let port = s.port().to_string();
    let mut js = NodePeer::spawn(
        &own_peer("pusher_js_client.js"),
        &[&port, s.key(), s.secret(), "js-1", MASTER_KEY, "6"],
    );
    let ready = js.line().await;
    assert_eq!(ready["ready"], true, "{ready}");
    assert_eq!(
        ready["members"],
        serde_json::json!(["js-1", "rust-1"]),
        "{ready}"
    );
    assert_eq!(
        js.line().await,
        serde_json::json!({"sent": "client-from-js"})
    );

    // pusher-js joined the presence channel and sent a client event: we see both.
    let joined = next_named(&mut presence, "pusher_internal:member_added").await;
    assert_eq!(
        joined.data::<serde_json::Value>().unwrap()["user_id"],
        "js-1"
    );
    assert_eq!(
        presence.members().unwrap().get("js-1").unwrap().user_info["name"],
        "from js"
    );
    let from_js = next_named(&mut private, "client-from-js").await;
    assert_eq!(
        from_js.data::<serde_json::Value>().unwrap(),
        serde_json::json!({"from": "js"})
    );

    // Everything we send reaches pusher-js: app events on each kind (encrypted data opened by
    // pusher-js with the shared secret from the official library), a user's event, and our
    // client event with its sender.
    let client = s.client().unwrap();
    client
        .trigger(
            ["interop"],
            "app-public",
            &serde_json::json!({"k": "public"}),
        )
        .await
        .unwrap();
    client
        .trigger(
            ["private-interop"],
            "app-private",
            &serde_json::json!({"k": "private"}),
        )
        .await
        .unwrap();
    client
        .trigger(
            ["presence-interop"],
            "app-presence",
            &serde_json::json!({"k": "presence"}),
        )
        .await
        .unwrap();
    client
        .trigger_encrypted(
            "private-encrypted-interop",
            "app-sealed",
            &serde_json::json!({"k": "sealed"}),
            &master,
        )
        .await
        .unwrap();
    client
        .send_to_user("js-1", "direct", &serde_json::json!({"k": "user"}))
        .await
        .unwrap();
    presence
        .trigger("client-from-rust", &serde_json::json!({"k": "client"}))
        .unwrap();

    let mut got = std::collections::BTreeMap::new();
    for _ in 0..6 {
        let e = js.line().await;
        got.insert(e["event"].as_str().unwrap().to_owned(), e);
    }
    let expect = |event: &str, channel: &str, k: &str| {
        let e = got
            .get(event)
            .unwrap_or_else(|| panic!("pusher-js did not get {event}: {got:?}"));
        assert_eq!(e["channel"], channel, "{e}");
        assert_eq!(e["data"], serde_json::json!({ "k": k }), "{e}");
    };
    expect("app-public", "interop", "public");
    expect("app-private", "private-interop", "private");
    expect("app-presence", "presence-interop", "presence");
    expect("app-sealed", "private-encrypted-interop", "sealed");
    expect("direct", "user", "user");
    expect("client-from-rust", "presence-interop", "client");
    assert_eq!(got["client-from-rust"]["user_id"], "rust-1");
    js.wait_success();

    // pusher-js left: its member is removed.
    let left = next_named(&mut presence, "pusher_internal:member_removed").await;
    assert_eq!(left.data::<serde_json::Value>().unwrap()["user_id"], "js-1");
    s.shutdown().await;
}

#[tokio::test]
async fn what_the_node_library_triggers_reaches_our_client() {
    // The trigger script of the realtime client tests, unchanged.
    let s = sandbox().await;
    let c = connected(&s, None).await;
    for channel in ["interop-public", "private-interop"] {
        let mut ch = subscribed(&c, channel).await;
        let port = s.port().to_string();
        let peer = NodePeer::spawn(
            &shared_peer("trigger.js"),
            &[
                &port,
                s.app_id(),
                s.key(),
                s.secret(),
                channel,
                "from-node",
                r#"{"lang":"js","n":[1,2]}"#,
            ],
        );
        let event = next_named(&mut ch, "from-node").await;
        assert_eq!(
            event.data::<serde_json::Value>().unwrap(),
            serde_json::json!({"lang": "js", "n": [1, 2]})
        );
        peer.wait_success();
    }
    s.shutdown().await;
}

#[tokio::test]
async fn the_node_library_uses_the_whole_http_api() {
    let s = sandbox().await;
    let c = connected(&s, Some("rust-2")).await;
    c.signin(WAIT).await.unwrap();
    let mut public = subscribed(&c, "lib-public").await;
    let mut private = subscribed(&c, "private-lib").await;
    let mut sealed = subscribed(&c, "private-encrypted-lib").await;
    let mut room = subscribed(&c, "presence-lib").await;
    let mut mine = pusher::user_channel(&c, "rust-2");
    let mut states = c.state_changes();

    let port = s.port().to_string();
    let mut lib = NodePeer::spawn(
        &own_peer("pusher_server_lib.js"),
        &[&port, s.app_id(), s.key(), s.secret(), MASTER_KEY, "rust-2"],
    );
    let result = lib.line().await;
    lib.wait_success();

    let data = |e: pusher::ChannelEvent| e.data::<serde_json::Value>().unwrap();
    assert_eq!(
        data(next_named(&mut public, "from-lib").await),
        serde_json::json!({"lang": "js", "n": [1, 2]})
    );
    assert_eq!(
        next_named(&mut public, "multi").await.data.as_deref(),
        Some("plain text")
    );
    assert_eq!(
        next_named(&mut private, "multi").await.data.as_deref(),
        Some("plain text")
    );
    // Encrypted by the Node library, passed through untouched, opened by our client.
    assert_eq!(
        data(next_named(&mut sealed, "sealed").await),
        serde_json::json!({"secret": "only for subscribers"})
    );
    assert_eq!(
        data(next_named(&mut public, "batch-1").await),
        serde_json::json!({"i": 1})
    );
    assert_eq!(
        data(next_named(&mut private, "batch-2").await),
        serde_json::json!({"i": 2})
    );
    assert_eq!(
        data(next_named(&mut mine, "direct").await),
        serde_json::json!({"to": "rust-2"})
    );
    assert_eq!(
        next_named(&mut room, "with-info").await.data.as_deref(),
        Some("x")
    );

    assert_eq!(
        result["trigger_info"],
        serde_json::json!({"channels": {"presence-lib": {"user_count": 1, "subscription_count": 1}}}),
        "{result}"
    );
    assert_eq!(
        result["channels"],
        serde_json::json!({"channels": {"presence-lib": {"user_count": 1}}}),
        "{result}"
    );
    assert_eq!(
        result["channel"],
        serde_json::json!({"occupied": true, "user_count": 1, "subscription_count": 1}),
        "{result}"
    );
    assert_eq!(
        result["users"],
        serde_json::json!({"users": [{"id": "rust-2"}]}),
        "{result}"
    );
    assert_eq!(result["wrong_secret_status"], 401, "{result}");
    // Its last call terminated our signed-in connection.
    let change = tokio::time::timeout(WAIT, states.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(change.previous, ConnectionState::Connected, "{change:?}");
    s.shutdown().await;
}
