//! The fault matrix: each failure a server or the network can produce, against a real loopback
//! server, gives the typed error or the retried success it should.

mod common;

use std::time::{Duration, Instant, SystemTime};

use common::*;
use tidings_runtime::spec::*;
use tidings_runtime::*;

#[tokio::test]
async fn retries_429_after_retry_after_seconds() {
    let server = TestServer::script(vec![
        Reply::json(
            429,
            r#"{"error":{"code":"rate_limit_exceeded","message":"slow down"}}"#,
        )
        .header("retry-after", "1"),
        Reply::ok(),
    ])
    .await;
    let client = email_client(&server).build().expect("client");
    let response = client
        .execute(get_email("em_1"))
        .await
        .expect("retried success");
    assert_eq!(response.status(), 200);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    let gap = reqs[1].at - reqs[0].at;
    assert!(gap >= Duration::from_millis(900), "waited only {gap:?}");
}

#[tokio::test]
async fn retries_429_after_retry_after_http_date() {
    let server = TestServer::start(|n, _| {
        if n == 0 {
            let when = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(2));
            Reply::json(429, "{}").header("retry-after", &when)
        } else {
            Reply::ok()
        }
    })
    .await;
    let client = email_client(&server).build().expect("client");
    client
        .execute(get_email("em_1"))
        .await
        .expect("retried success");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    // The date has one-second resolution: the wait is between 1 and 2 seconds.
    let gap = reqs[1].at - reqs[0].at;
    assert!(gap >= Duration::from_millis(500), "waited only {gap:?}");
}

#[tokio::test]
async fn retry_after_ms_is_honoured() {
    let server = TestServer::script(vec![
        Reply::json(503, "{}").header("retry-after-ms", "300"),
        Reply::ok(),
    ])
    .await;
    let client = email_client(&server).build().expect("client");
    client
        .execute(get_email("em_1"))
        .await
        .expect("retried success");
    let reqs = server.requests();
    assert!(reqs[1].at - reqs[0].at >= Duration::from_millis(250));
}

#[tokio::test]
async fn retry_after_is_capped() {
    let server = TestServer::script(vec![
        Reply::json(429, "{}").header("retry-after", "3600"),
        Reply::ok(),
    ])
    .await;
    let client = email_client(&server)
        .retry(
            RetryPolicy::from_spec(&RetrySpec::DEFAULT).retry_after_cap(Duration::from_millis(50)),
        )
        .build()
        .expect("client");
    let start = Instant::now();
    client
        .execute(get_email("em_1"))
        .await
        .expect("retried success");
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "the one-hour wait was not capped"
    );
}

#[tokio::test]
async fn rate_limited_after_last_attempt_reports_the_wait() {
    let server = TestServer::always(
        Reply::json(429, r#"{"error":{"code":"rate_limit_exceeded","message":"slow down","request_id":"req_42"}}"#)
            .header("retry-after", "0"),
    )
    .await;
    let client = email_client(&server)
        .max_attempts(2)
        .build()
        .expect("client");
    let err = client
        .execute(get_email("em_1"))
        .await
        .expect_err("still limited");
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    assert_eq!(err.status(), Some(429));
    assert_eq!(err.request_id(), Some("req_42"));
    assert!(err.is_retryable());
    match err {
        Error::RateLimited { retry_after, .. } => assert_eq!(retry_after, Some(Duration::ZERO)),
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(server.count(), 2);
}

#[tokio::test]
async fn bursts_of_5xx_are_retried_until_success() {
    let server = TestServer::script(vec![
        Reply::json(500, "{}"),
        Reply::html(502, "<html>bad gateway</html>"),
        Reply::json(503, "{}"),
        Reply::json(504, "{}"),
        Reply::json(200, r#"{"id":"em_1","status":"queued"}"#),
    ])
    .await;
    let client = email_client(&server)
        .max_attempts(5)
        .build()
        .expect("client");
    let response = client
        .execute(get_email("em_1"))
        .await
        .expect("retried success");
    let body: serde_json::Value = response.json().expect("json");
    assert_eq!(body["status"], "queued");
    assert_eq!(server.count(), 5);
}

#[tokio::test]
async fn persistent_5xx_gives_api_error_after_max_attempts() {
    let server = TestServer::always(
        Reply::json(
            503,
            r#"{"error":{"code":"internal_error","message":"down"}}"#,
        )
        .header("x-request-id", "req_h"),
    )
    .await;
    let client = email_client(&server)
        .max_attempts(3)
        .build()
        .expect("client");
    let err = client.execute(get_email("em_1")).await.expect_err("fails");
    assert_eq!(err.kind(), ErrorKind::Api);
    assert_eq!(err.status(), Some(503));
    assert_eq!(err.request_id(), Some("req_h"));
    assert!(err.is_retryable());
    assert_eq!(
        err.api_error().and_then(|a| a.code.as_deref()),
        Some("internal_error")
    );
    assert_eq!(server.count(), 3);
}

#[tokio::test]
async fn connection_reset_is_retried_for_safe_requests() {
    let server = TestServer::script(vec![Reply::Reset, Reply::ok()]).await;
    let client = email_client(&server).build().expect("client");
    client
        .execute(get_email("em_1"))
        .await
        .expect("retried success");
    assert_eq!(server.count(), 2);
}

#[tokio::test]
async fn persistent_reset_is_a_transport_error() {
    let server = TestServer::always(Reply::Reset).await;
    let client = email_client(&server)
        .max_attempts(2)
        .build()
        .expect("client");
    let err = client.execute(get_email("em_1")).await.expect_err("fails");
    assert_eq!(err.kind(), ErrorKind::Transport);
    assert!(err.is_retryable());
    assert_eq!(server.count(), 2);
}

#[tokio::test]
async fn connection_refused_is_a_connect_transport_error() {
    let addr = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr")
    };
    let client = Client::builder(&EMAIL)
        .base_url(format!("http://{addr}"))
        .api_key(API_KEY)
        .retry(
            RetryPolicy::from_spec(&RetrySpec::DEFAULT)
                .backoff(Duration::from_millis(1), Duration::from_millis(2)),
        )
        .build()
        .expect("client");
    // Even a never-retried POST may be retried when the connection was never made.
    let err = client
        .execute(cancel_email("em_1"))
        .await
        .expect_err("nobody listens");
    match err {
        Error::Transport { connect, .. } => assert!(connect),
        other => panic!("unexpected {other:?}"),
    }
}

#[tokio::test]
async fn headers_slower_than_attempt_timeout_time_out_and_are_retried() {
    let server = TestServer::script(vec![Reply::Stall(Duration::from_secs(3)), Reply::ok()]).await;
    let client = email_client(&server)
        .attempt_timeout(Duration::from_millis(200))
        .build()
        .expect("client");
    client
        .execute(get_email("em_1"))
        .await
        .expect("retried success");
    assert_eq!(server.count(), 2);
}

#[tokio::test]
async fn persistent_stall_is_a_timeout_error() {
    let server = TestServer::always(Reply::Stall(Duration::from_secs(3))).await;
    let client = email_client(&server)
        .attempt_timeout(Duration::from_millis(100))
        .max_attempts(2)
        .build()
        .expect("client");
    let err = client
        .execute(get_email("em_1"))
        .await
        .expect_err("times out");
    assert_eq!(err.kind(), ErrorKind::Timeout);
    match err {
        Error::Timeout { kind, .. } => assert_eq!(kind, TimeoutKind::Attempt),
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(server.count(), 2);
}

#[tokio::test]
async fn per_call_timeout_overrides_the_client() {
    let server = TestServer::always(Reply::Stall(Duration::from_secs(3))).await;
    let client = email_client(&server)
        .attempt_timeout(Duration::from_secs(30))
        .build()
        .expect("client");
    let start = Instant::now();
    let err = client
        .with_options(
            CallOptions::new()
                .attempt_timeout(Duration::from_millis(100))
                .max_attempts(1),
        )
        .execute(get_email("em_1"))
        .await
        .expect_err("times out");
    assert_eq!(err.kind(), ErrorKind::Timeout);
    assert!(start.elapsed() < Duration::from_secs(3));
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn truncated_json_is_a_decode_error_with_excerpt() {
    let server = TestServer::always(Reply::json(200, r#"{"id":"em_1","sta"#)).await;
    let client = email_client(&server).build().expect("client");
    let response = client.execute(get_email("em_1")).await.expect("2xx");
    let err = response.json::<serde_json::Value>().expect_err("truncated");
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert_eq!(err.status(), Some(200));
    assert!(
        err.to_string().contains(r#"{\"id\":\"em_1\",\"sta"#),
        "{err}"
    );
}

#[tokio::test]
async fn body_cut_short_is_a_transport_error() {
    let raw =
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"id\":"
            .to_vec();
    let server = TestServer::always(Reply::Raw(raw)).await;
    let client = email_client(&server)
        .max_attempts(2)
        .build()
        .expect("client");
    let err = client
        .execute(get_email("em_1"))
        .await
        .expect_err("cut short");
    assert_eq!(err.kind(), ErrorKind::Transport);
    assert_eq!(server.count(), 2, "a safe request is retried");
}

#[tokio::test]
async fn html_error_page_is_an_api_error_with_excerpt() {
    let page = format!(
        "<html><head><title>502 Bad Gateway</title></head><body>{}</body></html>",
        "x".repeat(2000)
    );
    let server = TestServer::always(Reply::html(502, &page)).await;
    let client = email_client(&server)
        .max_attempts(1)
        .build()
        .expect("client");
    let err = client.execute(get_email("em_1")).await.expect_err("502");
    assert_eq!(err.kind(), ErrorKind::Api);
    assert_eq!(err.status(), Some(502));
    let api = err.api_error().expect("details");
    assert!(
        api.body_excerpt
            .starts_with("<html><head><title>502 Bad Gateway")
    );
    assert!(api.body_excerpt.len() <= 512 + '…'.len_utf8());
}

#[tokio::test]
async fn html_success_page_is_a_decode_error() {
    let server = TestServer::always(Reply::html(200, "<html>maintenance</html>")).await;
    let client = email_client(&server).build().expect("client");
    let err = client
        .execute(get_email("em_1"))
        .await
        .expect("2xx")
        .json::<serde_json::Value>()
        .expect_err("html");
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert!(err.to_string().contains("maintenance"));
}

#[tokio::test]
async fn unauthorized_is_an_auth_error_and_not_retried() {
    let server = TestServer::always(
        Reply::json(
            401,
            r#"{"error":{"code":"invalid_api_key","message":"bad key"}}"#,
        )
        .header("x-request-id", "req_401"),
    )
    .await;
    let client = email_client(&server).build().expect("client");
    let err = client.execute(get_email("em_1")).await.expect_err("401");
    assert_eq!(err.kind(), ErrorKind::Auth);
    assert_eq!(err.status(), Some(401));
    assert_eq!(err.request_id(), Some("req_401"));
    assert_eq!(
        err.api_error().and_then(|a| a.code.as_deref()),
        Some("invalid_api_key")
    );
    assert!(!err.is_retryable());
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn payload_too_large_is_an_api_error_and_not_retried() {
    let server = TestServer::always(Reply::json(
        413,
        r#"{"error":{"code":"payload_too_large","message":"too big","param":"attachments","request_id":"req_413"}}"#,
    ))
    .await;
    let client = email_client(&server).build().expect("client");
    let err = client.execute(send_email()).await.expect_err("413");
    assert_eq!(err.kind(), ErrorKind::Api);
    let api = err.api_error().expect("details");
    assert_eq!(api.status, 413);
    assert_eq!(api.code.as_deref(), Some("payload_too_large"));
    assert_eq!(api.param.as_deref(), Some("attachments"));
    assert_eq!(err.request_id(), Some("req_413"));
    assert!(!err.is_retryable());
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn post_without_idempotency_key_is_never_sent_twice() {
    for reply in [
        Reply::json(503, "{}"),
        Reply::Reset,
        Reply::Stall(Duration::from_secs(2)),
    ] {
        let server = TestServer::always(reply).await;
        let client = email_client(&server)
            .attempt_timeout(Duration::from_millis(200))
            .max_attempts(5)
            .build()
            .expect("client");
        let err = client
            .execute(cancel_email("em_1"))
            .await
            .expect_err("fails");
        assert!(err.is_retryable(), "{err}");
        assert_eq!(server.count(), 1, "sent twice after {err}");
        assert!(server.requests()[0].header("idempotency-key").is_none());
    }
}

#[tokio::test]
async fn idempotency_key_is_identical_across_attempts() {
    let server = TestServer::script(vec![
        Reply::json(503, "{}"),
        Reply::Reset,
        Reply::Stall(Duration::from_secs(2)),
        Reply::json(202, r#"{"id":"em_1","status":"queued"}"#),
    ])
    .await;
    let client = email_client(&server)
        .attempt_timeout(Duration::from_millis(300))
        .max_attempts(4)
        .build()
        .expect("client");
    let response = client.execute(send_email()).await.expect("retried success");
    assert_eq!(response.status(), 202);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 4);
    let key = reqs[0]
        .header("idempotency-key")
        .expect("key sent")
        .to_owned();
    let uuid = uuid::Uuid::parse_str(&key).expect("a UUID");
    assert_eq!(uuid.get_version_num(), 4);
    for r in &reqs {
        assert_eq!(r.header("idempotency-key"), Some(key.as_str()));
        assert_eq!(r.body, reqs[0].body);
    }

    // A second call gets a fresh key.
    client.execute(send_email()).await.expect("success");
    let second = server.requests()[4]
        .header("idempotency-key")
        .expect("key")
        .to_owned();
    assert_ne!(second, key);
}

#[tokio::test]
async fn callers_idempotency_key_is_sent_and_validated() {
    let server = TestServer::script(vec![Reply::json(500, "{}"), Reply::json(202, "{}")]).await;
    let client = email_client(&server).build().expect("client");
    client
        .with_options(CallOptions::new().idempotency_key("order-1234"))
        .execute(send_email())
        .await
        .expect("retried success");
    let reqs = server.requests();
    assert!(
        reqs.iter()
            .all(|r| r.header("idempotency-key") == Some("order-1234"))
    );
    let err = client
        .with_options(CallOptions::new().idempotency_key("k".repeat(257)))
        .execute(send_email())
        .await
        .expect_err("too long");
    assert!(
        matches!(err, Error::InvalidRequest { ref field, .. } if field == "idempotency_key"),
        "{err}"
    );
    assert_eq!(server.count(), 2, "nothing sent for an invalid request");
}

#[tokio::test]
async fn retries_stop_at_the_deadline() {
    let server = TestServer::always(Reply::json(503, "{}")).await;
    let client = email_client(&server)
        .retry(
            RetryPolicy::from_spec(&RetrySpec::DEFAULT)
                .max_attempts(1000)
                .backoff(Duration::from_millis(20), Duration::from_millis(40))
                .budget_ratio_percent(0),
        )
        .total_timeout(Some(Duration::from_millis(400)))
        .build()
        .expect("client");
    let start = Instant::now();
    let err = client
        .execute(get_email("em_1"))
        .await
        .expect_err("deadline");
    // The last answer (503), or, when the deadline falls inside an attempt on a loaded
    // machine, the total timeout: never another retry past it.
    assert!(
        err.status() == Some(503) || err.kind() == ErrorKind::Timeout,
        "{err}"
    );
    assert!(start.elapsed() < Duration::from_secs(5));
    let count = server.count();
    assert!((2..1000).contains(&count), "{count} attempts");
}

#[tokio::test]
async fn retry_after_past_the_deadline_is_not_waited_for() {
    let server = TestServer::always(Reply::json(429, "{}").header("retry-after", "20")).await;
    let client = email_client(&server).build().expect("client");
    let start = Instant::now();
    let err = client
        .with_options(CallOptions::new().total_timeout(Duration::from_millis(500)))
        .execute(get_email("em_1"))
        .await
        .expect_err("limited");
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn stalled_attempt_is_cut_at_the_deadline() {
    let server = TestServer::always(Reply::Stall(Duration::from_secs(3))).await;
    let client = email_client(&server)
        .total_timeout(Some(Duration::from_millis(200)))
        .build()
        .expect("client");
    let err = client
        .execute(get_email("em_1"))
        .await
        .expect_err("deadline");
    match err {
        Error::Timeout { kind, .. } => assert_eq!(kind, TimeoutKind::Deadline),
        other => panic!("unexpected {other:?}"),
    }
}

#[tokio::test]
async fn retry_budget_is_shared_by_clones() {
    let server = TestServer::always(Reply::json(503, "{}")).await;
    let client = email_client(&server)
        .retry(
            RetryPolicy::from_spec(&RetrySpec::DEFAULT)
                .max_attempts(5)
                .backoff(Duration::from_millis(1), Duration::from_millis(1))
                .budget_ratio_percent(1),
        )
        .build()
        .expect("client");
    for _ in 0..20 {
        let clone = client.clone();
        let _ = clone.execute(get_email("em_1")).await;
    }
    // 20 first attempts, the 10-retry reserve, and what 20 × 1 % buys (nothing whole).
    let count = server.count();
    assert!(
        count <= 20 + 10,
        "{count} requests: the budget did not hold"
    );
    assert!(
        count >= 20 + 9,
        "{count} requests: the reserve was not used"
    );
}

#[tokio::test]
async fn server_reported_exhaustion_pauses_the_limiter() {
    let server = TestServer::script(vec![
        Reply::ok()
            .header("x-ratelimit-remaining", "0")
            .header("x-ratelimit-reset", "1"),
        Reply::ok(),
    ])
    .await;
    let client = Client::builder(&EMAIL)
        .base_url(server.base_url())
        .api_key(API_KEY)
        .rate_limit(Some(ratelimit::RateLimit::per_second(1000)))
        .build()
        .expect("client");
    client.execute(get_email("em_1")).await.expect("ok");
    client.clone().execute(get_email("em_2")).await.expect("ok");
    let reqs = server.requests();
    assert!(reqs[1].at - reqs[0].at >= Duration::from_millis(900));
}

#[tokio::test]
async fn invalid_requests_are_caught_before_sending() {
    let server = TestServer::always(Reply::ok()).await;
    let client = email_client(&server).build().expect("client");
    let err = client
        .execute(tidings_runtime::Request::new(&GET_EMAIL))
        .await
        .expect_err("no id");
    assert!(
        matches!(err, Error::InvalidRequest { ref field, .. } if field == "id"),
        "{err}"
    );
    let err = client
        .execute(
            get_email("em_1")
                .json(&serde_json::json!({}))
                .expect("body"),
        )
        .await
        .expect_err("GET with a body");
    assert!(
        matches!(err, Error::InvalidRequest { ref field, .. } if field == "body"),
        "{err}"
    );
    assert_eq!(server.count(), 0);
}

#[tokio::test]
async fn a_write_given_no_body_sends_an_empty_object() {
    let server = TestServer::always(Reply::ok()).await;
    let client = email_client(&server).build().expect("client");
    client.execute(cancel_email("em_1")).await.expect("ok");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].method, "POST");
    assert_eq!(reqs[0].body, b"{}");
    assert!(
        reqs[0]
            .headers
            .iter()
            .any(|(k, v)| k.eq_ignore_ascii_case("content-type") && v == "application/json"),
        "{:?}",
        reqs[0].headers
    );
}
