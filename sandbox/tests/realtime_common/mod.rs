//! Shared by the realtime sandbox tests: start a sandbox, connect our WebSocket client to it,
//! wait for events, find the Node peers.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use tidings::pusher::{self, ChannelEvent, ConnectionEvent, ConnectionState, MasterKey};
use tidings_runtime::realtime::{Channel, Connection};
use tidings_sandbox::realtime::{RealtimeConfig, RealtimeSandbox};

pub const WAIT: Duration = Duration::from_secs(10);
/// Base64 of 32 bytes: the encrypted channels' master key of the tests.
pub const MASTER_KEY: &str = "zyrm8pvV2C9fJcBfhyXzvxbJVN/H7QLmbe0xJi1GhPU=";

pub async fn sandbox() -> RealtimeSandbox {
    RealtimeSandbox::start(RealtimeConfig::default())
        .await
        .unwrap()
}

pub fn connect(s: &RealtimeSandbox, user: Option<&str>) -> Connection {
    connect_with_secret(s, user, s.secret())
}

pub fn connect_with_secret(s: &RealtimeSandbox, user: Option<&str>, secret: &str) -> Connection {
    let mut authorizer = pusher::local_authorizer(s.key(), secret)
        .master_key(MasterKey::from_base64(MASTER_KEY).unwrap());
    if let Some(id) = user {
        authorizer = authorizer.user(id, serde_json::json!({"name": format!("user {id}")}));
    }
    pusher::connection(&s.ws_url(), s.key())
        .authorizer(authorizer)
        .connect()
        .unwrap()
}

pub async fn connected(s: &RealtimeSandbox, user: Option<&str>) -> Connection {
    let c = connect(s, user);
    c.wait_for(ConnectionState::Connected, WAIT).await.unwrap();
    c
}

pub async fn subscribed(c: &Connection, channel: &str) -> Channel {
    let mut ch = c.subscribe(channel).unwrap();
    ch.wait_subscribed(WAIT).await.unwrap();
    ch
}

/// The next event with this name (protocol events on the way are skipped).
pub async fn next_named(ch: &mut Channel, name: &str) -> ChannelEvent {
    tokio::time::timeout(WAIT, async {
        loop {
            let e = ch.next_event().await.expect("channel open");
            if e.event == name {
                return e;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no `{name}` on {} in time", ch.name()))
}

/// Asserts that no event with this name arrives within `within`.
pub async fn none_named(ch: &mut Channel, name: &str, within: Duration) {
    let got = tokio::time::timeout(within, async {
        loop {
            let e = ch.next_event().await.expect("channel open");
            if e.event == name {
                return e;
            }
        }
    })
    .await;
    if let Ok(e) = got {
        panic!("unexpected `{name}` on {}: {e:?}", ch.name());
    }
}

/// The next `pusher:error` the connection reports (as an error event with a code).
pub async fn next_error(
    events: &mut tokio::sync::broadcast::Receiver<ConnectionEvent>,
) -> (String, Option<i64>, Option<String>) {
    tokio::time::timeout(WAIT, async {
        loop {
            if let ConnectionEvent::Error {
                message,
                code,
                channel,
            } = events.recv().await.unwrap()
            {
                return (message, code, channel);
            }
        }
    })
    .await
    .expect("an error event in time")
}

/// The directory of the Node packages `pusher-js` and `pusher`, installed by scripts/test into
/// tests/peers/realtime/node_modules; fails (never skips) when they are missing.
pub fn node_modules() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/peers/realtime/node_modules");
    for package in ["pusher-js", "pusher"] {
        assert!(
            dir.join(package).is_dir(),
            "the npm package `{package}` is missing from {}: run scripts/test (it installs pusher-js and pusher there)",
            dir.display()
        );
    }
    let node = std::process::Command::new("node").arg("--version").output();
    assert!(
        node.as_ref().is_ok_and(|o| o.status.success()),
        "`node` is not installed or does not run ({node:?}): the official-client tests need Node 20"
    );
    dir
}

/// A script of tests/peers/realtime (ours from the realtime client tests).
pub fn shared_peer(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/peers/realtime")
        .join(name)
}

/// A script of sandbox/tests/peers.
pub fn own_peer(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers")
        .join(name)
}
