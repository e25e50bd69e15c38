//! Figures of the clustered server (ignored by default; BENCHMARKS.md, "Scaling out: realtime
//! on two nodes", records them):
//!
//! ```console
//! $ cargo test --release -p tidings-tests --test cluster_bench -- --ignored --nocapture --test-threads 1
//! ```
//!
//! Trigger-to-receive latency (p50, p99) on one standalone sockudo, on one node of the cluster,
//! and across its nodes, for our client and pusher-js; fan-out of one event to 1,000
//! subscribers spread over both nodes by the balancer, our client versus pusher-js.
#![allow(clippy::unwrap_used)]

mod cluster_common;
mod realtime_common;

use std::process::Stdio;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use cluster_common::{Cluster, connected, subscribed};
use realtime_common::{KEY, Sockudo, node_peers};
use tidings::pusher::ConnectionState;
use tidings::realtime::RealtimeClient;
use tokio::io::{AsyncBufReadExt, BufReader};

const LATENCY_EVENTS: usize = 300;
const FANOUT_SUBSCRIBERS: usize = 1000;
const FANOUT_EVENTS: usize = 20;

fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_micros() as u64
}

/// (p50, p99) of the samples, in µs.
fn percentiles(mut samples: Vec<u64>) -> (u64, u64) {
    samples.sort_unstable();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.50), at(0.99))
}

/// Our client subscribed at `ws_url`; events triggered one at a time through `api`.
async fn ours_latency(api: &RealtimeClient, ws_url: &str, channel: &str) -> Vec<u64> {
    let c = connected(ws_url, None).await;
    let mut ch = subscribed(&c, channel).await;
    let mut out = Vec::new();
    for i in 0..=LATENCY_EVENTS {
        api.trigger([channel], "t", &serde_json::json!({"sent_us": now_us()}))
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
        if i > 0 {
            out.push(received.saturating_sub(sent)); // the first is a warm-up
        }
    }
    c.disconnect();
    out
}

/// pusher-js (listen.js) subscribed on `port`; the same triggers.
async fn js_latency(api: &RealtimeClient, port: u16, channel: &str) -> Vec<u64> {
    let mut child = tokio::process::Command::new("node")
        .arg(node_peers().join("listen.js"))
        .args([
            &port.to_string(),
            KEY,
            channel,
            &(LATENCY_EVENTS + 1).to_string(),
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
    let mut out = Vec::new();
    for i in 0..=LATENCY_EVENTS {
        api.trigger([channel], "t", &serde_json::json!({"sent_us": now_us()}))
            .await
            .unwrap();
        let line: serde_json::Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        let sent = line["data"]["sent_us"].as_u64().unwrap();
        if i > 0 {
            out.push(line["received_us"].as_u64().unwrap().saturating_sub(sent));
        }
    }
    out
}

fn row(what: &str, ours: Vec<u64>, theirs: Vec<u64>) {
    let (o50, o99) = percentiles(ours);
    let (t50, t99) = percentiles(theirs);
    println!(
        "| {what} | {o50} / {o99} µs | {t50} / {t99} µs | {:.2}× / {:.2}× |",
        o50 as f64 / t50 as f64,
        o99 as f64 / t99 as f64
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: needs sockudo, redis-server, haproxy and node; run with --ignored"]
async fn cluster_latency_single_node_vs_across_nodes_ours_vs_pusher_js() {
    println!(
        "trigger-to-receive latency, {LATENCY_EVENTS} events one at a time, p50 / p99 (ours, pusher-js, ratio)"
    );
    {
        let s = Sockudo::start(None);
        let api = s.client();
        let ours = ours_latency(&api, &s.ws_url(), "lat-single").await;
        let theirs = js_latency(&api, s.port, "lat-single-js").await;
        row("one sockudo, local adapter", ours, theirs);
    }
    let c = Cluster::start();
    let api = c.a.client();
    let ours = ours_latency(&api, &c.a.ws_url(), "lat-same").await;
    let theirs = js_latency(&api, c.a.port, "lat-same-js").await;
    row("cluster, trigger on A, subscriber on A", ours, theirs);
    let ours = ours_latency(&api, &c.b.ws_url(), "lat-across").await;
    let theirs = js_latency(&api, c.b.port, "lat-across-js").await;
    row("cluster, trigger on A, subscriber on B", ours, theirs);
}

/// Per event: the time for all subscribers to have it (µs); and every delivery's latency.
struct Fanout {
    to_last: Vec<u64>,
    deliveries: Vec<u64>,
}

impl Fanout {
    fn print(self, who: &str) {
        let (d50, d99) = percentiles(self.deliveries);
        let (l50, l99) = percentiles(self.to_last.clone());
        println!(
            "{who}: {FANOUT_SUBSCRIBERS} subscribers × {FANOUT_EVENTS} events: delivery p50 {d50} µs, p99 {d99} µs; last subscriber p50 {l50} µs, p99 {l99} µs"
        );
    }
}

async fn ours_fanout(c: &Cluster, api: &RealtimeClient) -> Fanout {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(i64, u64)>();
    let mut conns = Vec::new();
    let url = c.balancer_ws_url();
    // In batches of 100, so the accept queues are not the thing measured.
    for _ in 0..FANOUT_SUBSCRIBERS / 100 {
        let made = futures_util::future::join_all((0..100).map(|_| {
            let url = url.clone();
            async move {
                let conn = connected(&url, None).await;
                let ch = subscribed(&conn, "fanout").await;
                (conn, ch)
            }
        }))
        .await;
        for (conn, mut ch) in made {
            let tx = tx.clone();
            tokio::spawn(async move {
                while let Some(e) = ch.next_event().await {
                    if e.event == "t" {
                        let received = now_us();
                        let v: serde_json::Value = e.data().unwrap();
                        let sent = v["sent_us"].as_u64().unwrap();
                        let _ =
                            tx.send((v["seq"].as_i64().unwrap(), received.saturating_sub(sent)));
                    }
                }
            });
            conns.push(conn);
        }
    }
    let mut result = Fanout {
        to_last: Vec::new(),
        deliveries: Vec::new(),
    };
    for seq in -1..FANOUT_EVENTS as i64 {
        api.trigger(
            ["fanout"],
            "t",
            &serde_json::json!({"seq": seq, "sent_us": now_us()}),
        )
        .await
        .unwrap();
        let mut lat = Vec::new();
        while lat.len() < FANOUT_SUBSCRIBERS {
            let (s, l) = tokio::time::timeout(Duration::from_secs(30), rx.recv())
                .await
                .unwrap()
                .unwrap();
            assert_eq!(s, seq, "one event at a time");
            lat.push(l);
        }
        if seq >= 0 {
            result.to_last.push(*lat.iter().max().unwrap());
            result.deliveries.extend(lat);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for conn in &conns {
        assert_eq!(conn.state(), ConnectionState::Connected);
        conn.disconnect();
    }
    result
}

async fn js_fanout(c: &Cluster, api: &RealtimeClient) -> Fanout {
    let mut child = tokio::process::Command::new("node")
        .arg(node_peers().join("cluster_fanout.js"))
        .args([
            &c.balancer_port.to_string(),
            KEY,
            "fanout-js",
            &FANOUT_SUBSCRIBERS.to_string(),
            &FANOUT_EVENTS.to_string(),
        ])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = async || -> serde_json::Value {
        let line = tokio::time::timeout(Duration::from_secs(60), lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        serde_json::from_str(&line).unwrap()
    };
    assert_eq!(next().await, serde_json::json!({"ready": true}));
    let mut result = Fanout {
        to_last: Vec::new(),
        deliveries: Vec::new(),
    };
    for seq in -1..FANOUT_EVENTS as i64 {
        api.trigger(
            ["fanout-js"],
            "t",
            &serde_json::json!({"seq": seq, "sent_us": now_us()}),
        )
        .await
        .unwrap();
        let line = next().await;
        if seq >= 0 {
            assert_eq!(line["seq"], seq);
            let lat: Vec<u64> = line["lat_us"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap_or(0))
                .collect();
            assert_eq!(lat.len(), FANOUT_SUBSCRIBERS);
            result.to_last.push(*lat.iter().max().unwrap());
            result.deliveries.extend(lat);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    result
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: needs sockudo, redis-server, haproxy and node; run with --ignored"]
async fn cluster_fanout_to_1000_subscribers_over_both_nodes_ours_vs_pusher_js() {
    let c = Cluster::start();
    let api = c.a.client();
    ours_fanout(&c, &api).await.print("tidings");
    // Let node A and B drop our sockets before pusher-js connects.
    tokio::time::sleep(Duration::from_secs(1)).await;
    js_fanout(&c, &api).await.print("pusher-js");
}
