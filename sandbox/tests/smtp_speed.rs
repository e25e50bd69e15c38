//! SMTP ingestion speed (issue 28, item 18): messages per second over STARTTLS + AUTH with one
//! and eight connections, each sending its messages one after another (MAIL, RCPT, DATA, wait
//! for `250`). Ignored by default; run it and read the numbers:
//!
//! ```console
//! $ cargo test -p tidings-sandbox --test smtp_speed -- --ignored --nocapture
//! ```
//!
//! With `MAILDEV_SMTP=127.0.0.1:PORT` (and `MAILDEV_PID` for its memory) it measures a running
//! MailDev in the same run, over plain SMTP without AUTH (what it offers by default), and
//! prints both side by side.
#![allow(clippy::unwrap_used)]

mod smtp_support;

use std::time::{Duration, Instant};

use smtp_support::logged_in;
use tidings_sandbox::ServiceConfig;
use tidings_sandbox::email::{EmailSandbox, EmailSandboxConfig};

async fn send<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(
    client: &mut smtp_support::Client<S>,
    n: usize,
) {
    client.expect("MAIL FROM:<ada@example.com>", 250).await;
    client.expect("RCPT TO:<grace@example.com>", 250).await;
    client.expect("DATA", 354).await;
    let body = format!(
        "From: ada@example.com\r\nTo: grace@example.com\r\nSubject: speed {n}\r\n\r\nHello {n}\r\n.\r\n"
    );
    client.send_raw(body.as_bytes()).await;
    let reply = client.reply().await.unwrap();
    assert_eq!(reply.code, 250, "{reply:?}");
}

/// Messages per second with `connections` sessions sending `total` messages in all (the
/// sessions are opened, TLS and AUTH included, inside the timing).
async fn rate(sandbox: &EmailSandbox, connections: usize, total: usize) -> f64 {
    let started = Instant::now();
    let per = total / connections;
    let mut tasks = Vec::new();
    for c in 0..connections {
        let mut client = logged_in(sandbox).await;
        tasks.push(async move {
            for n in 0..per {
                send(&mut client, c * per + n).await;
            }
        });
    }
    futures_util::future::join_all(tasks).await;
    (per * connections) as f64 / started.elapsed().as_secs_f64()
}

/// The same over plain SMTP to `addr` (MailDev), EHLO and no AUTH.
async fn plain_rate(addr: std::net::SocketAddr, connections: usize, total: usize) -> f64 {
    let started = Instant::now();
    let per = total / connections;
    let mut tasks = Vec::new();
    for c in 0..connections {
        let mut client = smtp_support::connect(addr).await;
        client.expect("EHLO test", 250).await;
        tasks.push(async move {
            for n in 0..per {
                send(&mut client, c * per + n).await;
            }
        });
    }
    futures_util::future::join_all(tasks).await;
    (per * connections) as f64 / started.elapsed().as_secs_f64()
}

/// Resident memory of a process, MiB (`VmRSS`).
fn rss_mib(pid: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run with --ignored --nocapture"]
async fn smtp_ingestion_messages_per_second() {
    let sandbox = EmailSandbox::start(
        EmailSandboxConfig::default()
            .rate_limit(None)
            .lifecycle_step(Duration::from_secs(3600)),
    )
    .await
    .unwrap();
    let one = rate(&sandbox, 1, 112).await;
    let eight = rate(&sandbox, 8, 896).await;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "ours, STARTTLS+AUTH: 1 connection {one:.0} msg/s, 8 connections {eight:.0} msg/s, \
         RSS of this test process (server and client) {:.1} MiB (load {})",
        rss_mib("self"),
        load.trim()
    );
    if let Ok(addr) = std::env::var("MAILDEV_SMTP") {
        let addr = addr.parse().unwrap();
        let peer_one = plain_rate(addr, 1, 112).await;
        let peer_eight = plain_rate(addr, 8, 896).await;
        let pid = std::env::var("MAILDEV_PID").unwrap_or_default();
        println!(
            "MailDev, plain SMTP: 1 connection {peer_one:.0} msg/s, 8 connections \
             {peer_eight:.0} msg/s, RSS {:.1} MiB; ours/MailDev {:.1}x and {:.1}x",
            rss_mib(&pid),
            one / peer_one,
            eight / peer_eight
        );
    }
    sandbox.shutdown().await;
}
