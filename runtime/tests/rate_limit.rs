//! The client-side rate limiter under concurrency: 10 callers sharing one client (through
//! clones) at 20 requests per second never exceed it and use at least 98 % of it.

mod common;

use std::time::{Duration, Instant};

use common::*;
use tidings_runtime::ratelimit::RateLimit;
use tidings_runtime::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_callers_never_exceed_the_limit_and_use_it() {
    let server = TestServer::always(Reply::ok()).await;
    let client = Client::builder(&EMAIL)
        .base_url(server.base_url())
        .api_key(API_KEY)
        .rate_limit(Some(RateLimit::per_second(20)))
        .build()
        .expect("client");

    let start = Instant::now();
    let run_for = Duration::from_millis(2_000);
    let mut callers = Vec::new();
    for caller in 0..10 {
        let client = client.clone();
        callers.push(tokio::spawn(async move {
            let mut sent = 0;
            while start.elapsed() < run_for {
                client
                    .execute(get_email(&format!("em_{caller}_{sent}")))
                    .await
                    .expect("ok");
                sent += 1;
            }
            sent
        }));
    }
    for caller in callers {
        caller.await.expect("caller");
    }

    let mut arrivals: Vec<Instant> = server.requests().iter().map(|r| r.at).collect();
    arrivals.sort();
    let first = arrivals[0];

    // Never more than 20 in any window. Arrival times carry the loopback latency of each
    // request, which varies (a loaded machine can stall one for a while), so the window checked is
    // 200 ms shorter than a second: a steadily refilled bucket would still fail it (≈ 36 in 800 ms).
    let window = Duration::from_millis(800);
    for (i, &t) in arrivals.iter().enumerate() {
        let in_window = arrivals[i..]
            .iter()
            .take_while(|&&u| u - t < window)
            .count();
        assert!(
            in_window <= 20,
            "{in_window} requests within {window:?} starting at {:?}",
            t - first
        );
    }

    // At least 98 % of the allowed 2 × 20 in the first two seconds.
    let in_two_seconds = arrivals
        .iter()
        .filter(|&&t| t - first < Duration::from_secs(2))
        .count();
    assert!(
        in_two_seconds * 100 >= 40 * 98,
        "only {in_two_seconds} of 40 allowed requests in 2 s"
    );
}

#[tokio::test]
async fn limiter_can_be_switched_off() {
    let server = TestServer::always(Reply::ok()).await;
    let client = Client::builder(&EMAIL)
        .base_url(server.base_url())
        .api_key(API_KEY)
        .rate_limit(None)
        .build()
        .expect("client");
    let start = Instant::now();
    for i in 0..30 {
        client
            .execute(get_email(&format!("em_{i}")))
            .await
            .expect("ok");
    }
    // The spec's 1000/min would allow all 30 anyway; with a limit of 1/s they would take 29 s.
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[tokio::test]
async fn limiter_wait_past_the_deadline_is_a_rate_limited_error() {
    let server = TestServer::always(Reply::ok()).await;
    let client = Client::builder(&EMAIL)
        .base_url(server.base_url())
        .api_key(API_KEY)
        .rate_limit(Some(RateLimit::per_minute(1)))
        .build()
        .expect("client");
    client
        .execute(get_email("em_1"))
        .await
        .expect("first is free");
    let err = client
        .with_options(CallOptions::new().total_timeout(Duration::from_millis(100)))
        .execute(get_email("em_2"))
        .await
        .expect_err("no slot before the deadline");
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    assert_eq!(server.count(), 1);
}
