//! Benchmarks against sockudo (ignored by default: run them on purpose, in release mode):
//!
//! ```console
//! $ cargo test --release -p tidings-tests --test realtime_bench -- --ignored --nocapture --test-threads 1
//! ```
//!
//! Signed triggers per second, ours versus the Node `pusher` library, and trigger-to-receive
//! latency (p50, p99) of our WebSocket client versus pusher-js, on the same sockudo.
#![allow(clippy::unwrap_used)]

mod realtime_common;

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use realtime_common::{APP_ID, KEY, SECRET, Sockudo, node_peers};
use tidings::pusher::{self, ConnectionState};
use tokio::io::{AsyncBufReadExt, BufReader};

const TRIGGERS: usize = 3000;
const CONCURRENCY: usize = 8;
const LATENCY_EVENTS: usize = 300;

fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_micros() as u64
}

fn percentiles(mut samples: Vec<u64>) -> (u64, u64) {
    samples.sort_unstable();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.50), at(0.99))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: needs sockudo and node; run with --ignored --release"]
async fn signed_triggers_per_second_rust_vs_node() {
    let peers = node_peers();
    let s = Sockudo::start(None);
    let client = Arc::new(s.client());
    client.trigger(["bench"], "warmup", "x").await.unwrap();
    let start = Instant::now();
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let workers: Vec<_> = (0..CONCURRENCY)
        .map(|_| {
            let (client, next) = (client.clone(), next.clone());
            tokio::spawn(async move {
                while next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < TRIGGERS {
                    client
                        .trigger(["bench"], "tick", &serde_json::json!({"i": 1}))
                        .await
                        .unwrap();
                }
            })
        })
        .collect();
    for w in workers {
        w.await.unwrap();
    }
    let rust = TRIGGERS as f64 / start.elapsed().as_secs_f64();
    let out = tokio::process::Command::new("node")
        .arg(peers.join("bench_trigger.js"))
        .args([
            &s.port.to_string(),
            APP_ID,
            KEY,
            SECRET,
            &TRIGGERS.to_string(),
            &CONCURRENCY.to_string(),
        ])
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let node: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    println!(
        "signed triggers/s ({TRIGGERS} triggers, {CONCURRENCY} in flight): tidings {rust:.0}/s, node pusher {:.0}/s",
        node["per_second"].as_f64().unwrap()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: needs sockudo and node; run with --ignored --release"]
async fn trigger_to_receive_latency_rust_vs_pusher_js() {
    let peers = node_peers();
    let s = Sockudo::start(None);
    let client = s.client();

    // Our WebSocket client.
    let c = pusher::connection(&s.ws_url(), KEY).connect().unwrap();
    c.wait_for(ConnectionState::Connected, Duration::from_secs(10))
        .await
        .unwrap();
    let mut ch = c.subscribe("latency").unwrap();
    ch.wait_subscribed(Duration::from_secs(10)).await.unwrap();
    let mut ours = Vec::new();
    for _ in 0..LATENCY_EVENTS {
        client
            .trigger(["latency"], "t", &serde_json::json!({"sent_us": now_us()}))
            .await
            .unwrap();
        let e = loop {
            let e = ch.next_event().await.unwrap();
            if e.event == "t" {
                break e;
            }
        };
        let received = now_us();
        let sent = e.data::<serde_json::Value>().unwrap()["sent_us"]
            .as_u64()
            .unwrap();
        ours.push(received.saturating_sub(sent));
    }

    // pusher-js (Node build), same triggers.
    let mut child = tokio::process::Command::new("node")
        .arg(peers.join("listen.js"))
        .args([
            &s.port.to_string(),
            KEY,
            "latency-js",
            &LATENCY_EVENTS.to_string(),
        ])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert_eq!(
        lines.next_line().await.unwrap().unwrap(),
        r#"{"ready":true}"#
    );
    let mut theirs = Vec::new();
    for _ in 0..LATENCY_EVENTS {
        client
            .trigger(
                ["latency-js"],
                "t",
                &serde_json::json!({"sent_us": now_us()}),
            )
            .await
            .unwrap();
        let line: serde_json::Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        let sent = line["data"]["sent_us"].as_u64().unwrap();
        theirs.push(line["received_us"].as_u64().unwrap().saturating_sub(sent));
    }
    let (o50, o99) = percentiles(ours);
    let (t50, t99) = percentiles(theirs);
    println!(
        "trigger-to-receive latency ({LATENCY_EVENTS} events): tidings p50 {o50} µs, p99 {o99} µs; pusher-js p50 {t50} µs, p99 {t99} µs"
    );
}
