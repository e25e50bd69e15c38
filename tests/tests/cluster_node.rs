//! pusher-js and the Node `pusher` library on the clustered server (two sockudo nodes, one
//! Redis, HAProxy): what our client triggers on node A reaches pusher-js on node B, what the
//! Node library triggers on node A reaches our client on node B, and pusher-js clients of a
//! killed node come back through the balancer, resubscribed, within 2 s.
#![allow(clippy::unwrap_used)]

mod cluster_common;
mod realtime_common;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Stdio;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use cluster_common::{Cluster, api_client, connected, next_named, subscribed};
use realtime_common::{APP_ID, KEY, SECRET, node_peers};
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout};

const WAIT: Duration = Duration::from_secs(20);

fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_micros() as u64
}

/// A Node peer whose stdout is read line by line as JSON; killed on drop.
struct Peer {
    _child: Child,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Peer {
    fn spawn(script: &str, args: &[&str]) -> Peer {
        let mut child = tokio::process::Command::new("node")
            .arg(node_peers().join(script))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Peer {
            _child: child,
            lines,
        }
    }

    /// The next line, as JSON.
    async fn next(&mut self) -> serde_json::Value {
        let line = tokio::time::timeout(WAIT, self.lines.next_line())
            .await
            .expect("a line from the Node peer in time")
            .unwrap()
            .expect("the Node peer is still running");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }
}

#[tokio::test]
async fn cluster_pusher_js_on_node_b_receives_what_our_client_triggers_on_node_a() {
    let c = Cluster::start();
    let mut listener = Peer::spawn(
        "listen.js",
        &[&c.b.port.to_string(), KEY, "interop-cluster", "2"],
    );
    assert_eq!(listener.next().await, serde_json::json!({"ready": true}));
    let a = c.a.client();
    a.trigger(
        ["interop-cluster"],
        "from-rust",
        &serde_json::json!({"n": 1, "text": "héllo"}),
    )
    .await
    .unwrap();
    a.trigger(["interop-cluster"], "plain", "just text")
        .await
        .unwrap();
    let first = listener.next().await;
    assert_eq!(first["event"], "from-rust");
    assert_eq!(first["data"], serde_json::json!({"n": 1, "text": "héllo"}));
    assert_eq!(listener.next().await["data"], "just text");
}

#[tokio::test]
async fn cluster_the_node_library_triggers_on_node_a_and_our_client_on_node_b_receives() {
    let c = Cluster::start();
    let on_b = connected(&c.b.ws_url(), None).await;
    let mut ch = subscribed(&on_b, "private-from-node").await;
    let status = tokio::process::Command::new("node")
        .arg(node_peers().join("trigger.js"))
        .args([
            &c.a.port.to_string(),
            APP_ID,
            KEY,
            SECRET,
            "private-from-node",
            "from-node",
            r#"{"lang":"js","n":[1,2]}"#,
        ])
        .stdout(Stdio::null())
        .status()
        .await
        .unwrap();
    assert!(status.success(), "trigger.js failed");
    let e = next_named(&mut ch, "from-node").await;
    assert_eq!(
        e.data::<serde_json::Value>().unwrap(),
        serde_json::json!({"lang": "js", "n": [1, 2]})
    );
}

#[tokio::test]
async fn cluster_pusher_js_clients_of_a_killed_node_resubscribe_through_the_balancer_within_2s() {
    const CLIENTS: usize = 4;
    const CHANNELS: [&str; 2] = ["ticker", "private-ticker"];
    let mut c = Cluster::start();
    let mut peer = Peer::spawn(
        "cluster_clients.js",
        &[
            &c.balancer_port.to_string(),
            APP_ID,
            KEY,
            SECRET,
            &CLIENTS.to_string(),
            &CHANNELS.join(","),
        ],
    );
    // Every client subscribed to every channel: (client, channel) -> socket id.
    let mut first_sockets = BTreeMap::new();
    while first_sockets.len() < CLIENTS * CHANNELS.len() {
        let line = peer.next().await;
        if let Some(channel) = line["subscribed"].as_str() {
            first_sockets.insert(
                (line["i"].as_u64().unwrap(), channel.to_owned()),
                line["socket_id"].as_str().unwrap().to_owned(),
            );
        }
    }

    let killed_us = now_us();
    c.b.kill();
    // Read until every client that lost its connection has both channels back, and 2 s have
    // passed for the others to show they kept theirs.
    let mut lost = BTreeSet::new();
    let mut back = BTreeMap::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let settled = !lost.is_empty()
            && back.len() == lost.len() * CHANNELS.len()
            && now_us() - killed_us > 2_000_000;
        if settled {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "lost {lost:?}, back {back:?}\n{}",
            c.logs()
        );
        // Short waits, so that the 2 s pass without a line too (next_line is cancel-safe).
        let Ok(line) = tokio::time::timeout(Duration::from_millis(100), peer.next()).await else {
            continue;
        };
        let i = line["i"].as_u64().unwrap();
        if line["previous"] == "connected" {
            lost.insert(i);
        }
        if let Some(channel) = line["subscribed"].as_str() {
            let socket = line["socket_id"].as_str().unwrap();
            assert_ne!(
                Some(&socket.to_owned()),
                first_sockets.get(&(i, channel.to_owned())),
                "a new socket"
            );
            back.insert((i, channel.to_owned()), line["at_us"].as_u64().unwrap());
        }
    }
    assert!(
        (1..CLIENTS).contains(&lost.len()),
        "{} of {CLIENTS} pusher-js clients were on node B",
        lost.len()
    );
    let slowest_us = back.values().max().unwrap() - killed_us;
    println!(
        "{} of {CLIENTS} pusher-js clients moved to node A, all resubscribed {} ms after the kill",
        lost.len(),
        slowest_us / 1000
    );
    assert!(
        slowest_us <= 2_000_000,
        "pusher-js resubscribed {slowest_us} µs after the kill"
    );

    // Later events reach every client, moved or not.
    let api = api_client(&c.balancer_http_url());
    api.trigger(CHANNELS, "after-kill", &serde_json::json!({"k": 1}))
        .await
        .unwrap();
    let mut got = BTreeSet::new();
    while got.len() < CLIENTS * CHANNELS.len() {
        let line = peer.next().await;
        if line["event"] == "after-kill" {
            assert_eq!(line["data"]["k"], 1);
            got.insert((line["i"].as_u64().unwrap(), line["channel"].to_string()));
        }
    }
}
