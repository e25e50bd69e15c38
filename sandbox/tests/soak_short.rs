//! The soak of `examples/soak.rs`, short enough for CI: 10 tasks for 20 s against a limit of
//! 50 requests per 5 s (600 a minute; four window boundaries crossed), through the proxy that
//! cuts answers after the server worked and resets connections before forwarding. Zero 429s,
//! zero lost sends, every email stored exactly once, replays served for the cut answers.
#![allow(clippy::unwrap_used)]

#[allow(dead_code)]
#[path = "../examples/soak.rs"]
mod soak;

use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_soak_at_the_rate_limit_with_lost_answers_and_resets() {
    let settings = soak::Settings {
        duration: Duration::from_secs(20),
        tasks: 10,
        limit: 50,
        per: Duration::from_secs(5),
        // Faults on every 7th and 11th request: enough retries in 200 requests.
        cut_every: 7,
        reset_every: 11,
    };
    let report = soak::run(settings).await.unwrap();
    println!("{report}");
    report.check().unwrap();
    // The run really happened near the limit (4 windows of 50; resets take client slots
    // without reaching the server, retries take slots of their own), and the faults happened.
    assert!(report.succeeded >= 140, "{report}");
    assert!(report.forwarded >= 170, "{report}");
    assert!(
        report.cut_after >= 10 && report.reset_before >= 10,
        "{report}"
    );
    assert!(report.replays >= report.cut_after / 2, "{report}");
}
