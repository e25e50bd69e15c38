//! SMTP ingestion speed (issue 28, item 18): messages per second over STARTTLS + AUTH with one
//! and eight connections, each sending its messages one after another (MAIL, RCPT, DATA, wait
//! for `250`). Ignored by default; run it and read the numbers:
//!
//! ```console
//! $ cargo test -p tidings-sandbox --test smtp_speed -- --ignored --nocapture
//! ```
#![allow(clippy::unwrap_used)]

mod smtp_support;

use std::time::{Duration, Instant};

use smtp_support::logged_in;
use tidings_sandbox::email::{EmailSandbox, EmailSandboxConfig};

async fn send(
    client: &mut smtp_support::Client<tokio_rustls::client::TlsStream<tokio::net::TcpStream>>,
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
    let one = rate(&sandbox, 1, 56).await;
    let eight = rate(&sandbox, 8, 896).await;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "SMTP STARTTLS+AUTH ingestion: 1 connection {one:.0} msg/s, 8 connections {eight:.0} msg/s (load {})",
        load.trim()
    );
    sandbox.shutdown().await;
}
