//! The Redis-shared rate limiter against a real `redis-server` started on a free loopback
//! port: separately built clients (one Redis connection each, as separate processes have)
//! share one limit and one server pause; a killed Redis gives the configured behaviour and a
//! restarted one is used again; keys never hold the credential.
#![cfg(feature = "redis")]
#![allow(clippy::unwrap_used)]

mod common;

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use tidings_runtime::ratelimit::redis::{RedisLimiter, WhenUnreachable};
use tidings_runtime::ratelimit::{LimitScope, Limiter, RateLimit};
use tidings_runtime::*;

/// A `redis-server` child on a loopback port, without persistence; killed on drop.
struct Redis {
    port: u16,
    child: Option<Child>,
}

impl Redis {
    fn start() -> Redis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut redis = Redis { port, child: None };
        redis.restart();
        redis
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    fn restart(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server is installed (scripts/test installs it)");
        self.child = Some(child);
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "redis-server did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Every key in the database (redis-cli is part of the redis-tools package redis-server pulls in).
    fn keys(&self) -> Vec<String> {
        let out = Command::new("redis-cli")
            .args(["-p", &self.port.to_string(), "--raw", "KEYS", "*"])
            .output()
            .expect("redis-cli");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.kill();
    }
}

fn shared(redis: &Redis, when: WhenUnreachable) -> Arc<RedisLimiter> {
    Arc::new(
        RedisLimiter::builder(redis.url())
            .when_unreachable(when)
            .timeout(Duration::from_millis(200))
            .retry_interval(Duration::from_millis(200))
            .build()
            .unwrap(),
    )
}

fn limited_client(server: &TestServer, limit: RateLimit, limiter: Arc<RedisLimiter>) -> Client {
    email_client(server)
        .rate_limit(Some(limit))
        .limiter(limiter)
        .max_attempts(1)
        .build()
        .unwrap()
}

/// Four clients built apart (each with its own Redis connection, like four processes) × five
/// tasks, at 20 per second together: no window of the server's holds more than 20, and the
/// limit is used.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_processes_share_one_limit_through_redis() {
    let redis = Redis::start();
    let server = TestServer::always(Reply::ok()).await;
    let clients: Vec<Client> = (0..4)
        .map(|_| {
            limited_client(
                &server,
                RateLimit::per_second(20),
                shared(&redis, WhenUnreachable::FailClosed),
            )
        })
        .collect();
    let start = Instant::now();
    let run_for = Duration::from_millis(2_500);
    let mut tasks = Vec::new();
    for (p, client) in clients.iter().enumerate() {
        for t in 0..5 {
            let client = client.clone();
            tasks.push(tokio::spawn(async move {
                let mut n = 0;
                while start.elapsed() < run_for {
                    client
                        .execute(get_email(&format!("em_{p}_{t}_{n}")))
                        .await
                        .unwrap();
                    n += 1;
                }
            }));
        }
    }
    for task in tasks {
        task.await.unwrap();
    }
    let mut arrivals: Vec<Instant> = server.requests().iter().map(|r| r.at).collect();
    arrivals.sort();
    // As in rate_limit.rs: a window 200 ms shorter than the limit's absorbs loopback jitter; four
    // unshared limiters would put about 64 requests in it.
    let window = Duration::from_millis(800);
    for (i, &t) in arrivals.iter().enumerate() {
        let in_window = arrivals[i..]
            .iter()
            .take_while(|&&u| u - t < window)
            .count();
        assert!(in_window <= 20, "{in_window} requests within {window:?}");
    }
    // 2.5 s at 20/s with one round trip per window of throughput: at least two full windows.
    assert!(arrivals.len() >= 50, "only {} requests", arrivals.len());
}

/// A 429 with `Retry-After` seen by one process holds every other process off too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_pause_seen_by_one_process_holds_the_others() {
    let redis = Redis::start();
    let busy = TestServer::always(Reply::json(429, "{}").header("retry-after", "2")).await;
    let idle = TestServer::always(Reply::ok()).await;
    let limit = RateLimit::per_second(100);
    let first = limited_client(&busy, limit, shared(&redis, WhenUnreachable::FailClosed));
    let second = limited_client(&idle, limit, shared(&redis, WhenUnreachable::FailClosed));

    let err = first.execute(get_email("em_1")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    // The pause reaches Redis on a task of its own.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let err = second
        .with_options(CallOptions::new().total_timeout(Duration::from_millis(500)))
        .execute(get_email("em_2"))
        .await
        .unwrap_err();
    match err {
        Error::RateLimited {
            retry_after: Some(wait),
            api: None,
            ..
        } => assert!(wait > Duration::from_millis(1_500), "{wait:?}"),
        other => panic!("expected the limiter's refusal, got {other:?}"),
    }
    assert_eq!(idle.count(), 0, "nothing was sent during the pause");
}

/// Failing closed: with Redis gone, calls fail fast with a typed error and send nothing; once
/// Redis is back (same port), calls go through again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_killed_fails_closed_with_a_typed_error_then_recovers() {
    let mut redis = Redis::start();
    let server = TestServer::always(Reply::ok()).await;
    let limiter = shared(&redis, WhenUnreachable::FailClosed);
    let client = limited_client(&server, RateLimit::per_second(100), limiter.clone());
    client.execute(get_email("em_0")).await.unwrap();

    redis.kill();
    let started = Instant::now();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimiterUnavailable, "{err}");
    assert!(err.is_retryable());
    assert!(started.elapsed() < Duration::from_secs(1));
    assert!(!err.to_string().contains(&redis.port.to_string()));
    assert_eq!(server.count(), 1);

    redis.restart();
    let started = Instant::now();
    loop {
        match client.execute(get_email("em_2")).await {
            Ok(_) => break,
            Err(err) => assert_eq!(err.kind(), ErrorKind::LimiterUnavailable),
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "never recovered"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let stats = limiter.stats();
    assert!(stats.refused >= 1 && stats.store_errors >= 1, "{stats:?}");
    assert_eq!(stats.local_grants, 0);
}

/// Failing open: with Redis gone, calls keep going, limited by the process's own window.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_killed_fails_open_onto_the_local_window() {
    let mut redis = Redis::start();
    let server = TestServer::always(Reply::ok()).await;
    let limiter = shared(&redis, WhenUnreachable::FailOpen);
    let client = limited_client(
        &server,
        RateLimit::new(5, Duration::from_secs(60)),
        limiter.clone(),
    );
    // Two sent through Redis, then Redis is gone.
    client.execute(get_email("em_0")).await.unwrap();
    client.execute(get_email("em_1")).await.unwrap();
    redis.kill();
    for n in 2..5 {
        client.execute(get_email(&format!("em_{n}"))).await.unwrap();
    }
    // The local window counts the two Redis granted too: five in all fill the limit, and the
    // sixth waits a window (before, the window started empty and let five more through).
    let err = client
        .with_options(CallOptions::new().total_timeout(Duration::from_millis(300)))
        .execute(get_email("em_5"))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    let stats = limiter.stats();
    assert_eq!(
        (stats.shared_grants, stats.local_grants),
        (2, 3),
        "{stats:?}"
    );
    assert_eq!(server.count(), 5, "never more than the limit in one window");
}

/// Redis keys name the service and a hash of the key, never the key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_keys_hold_a_hash_of_the_credential_never_the_credential() {
    let redis = Redis::start();
    let server = TestServer::always(Reply::ok()).await;
    let client = limited_client(
        &server,
        RateLimit::per_second(100),
        shared(&redis, WhenUnreachable::FailClosed),
    );
    client.execute(get_email("em_0")).await.unwrap();
    let keys = redis.keys();
    assert!(!keys.is_empty());
    for key in &keys {
        assert!(key.starts_with("tidings:ratelimit:{email:"), "{key}");
        assert!(
            !key.contains(API_KEY) && !key.contains("SUPERSECRET"),
            "{key}"
        );
    }
}

/// A slot held by a process that vanished (its permit never released) comes back when its lease
/// runs out, counted as finished then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vanished_holders_slot_returns_after_its_lease() {
    let redis = Redis::start();
    let limiter = RedisLimiter::builder(redis.url())
        .when_unreachable(WhenUnreachable::FailClosed)
        .lease(Duration::from_millis(400))
        .build()
        .unwrap();
    let scope = LimitScope::new(
        "email",
        "sk_test_lease",
        RateLimit::new(1, Duration::from_millis(300)),
    );
    let start = Instant::now();
    let permit = limiter.acquire(&scope, None).await.unwrap();
    std::mem::forget(permit);
    let permit = limiter.acquire(&scope, None).await.unwrap();
    let waited = start.elapsed();
    permit.release().await;
    // Lease (400 ms) then the window from the lease's end (300 ms).
    assert!(waited >= Duration::from_millis(650), "{waited:?}");
    assert!(waited < Duration::from_millis(2_000), "{waited:?}");
}
