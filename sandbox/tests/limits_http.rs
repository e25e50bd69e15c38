//! Attacks on the sandboxes' HTTP listeners (issue 14), over real loopback sockets, each with
//! the bound it must hit: bodies (size while reading, truncation, content type, a JSON body
//! built to amplify), the idempotency store (bounded, keeps no body), and connections (a cap
//! per listener, idle and slow heads timed out, one flooded service leaves the others up).
//! Heap figures come from the test binary's own counting allocator.
#![allow(clippy::unwrap_used)]

mod limits_common;

use std::time::{Duration, Instant};

use limits_common::*;
use tidings_sandbox::ServiceConfig;
use tidings_sandbox::server::HttpLimits;
use tidings_sandbox::{EmailSandbox, EmailSandboxConfig, MessagingSandbox, MessagingSandboxConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[global_allocator]
static HEAP: Counting = Counting;

async fn email(limits: HttpLimits) -> EmailSandbox {
    EmailSandbox::start(
        EmailSandboxConfig::default()
            .smtp(None)
            .rate_limit(None)
            .deliver_webhooks(false)
            // The raw requests below name the sandbox `sandbox`, as an app in another
            // container would.
            .limits(limits.allowed_host("sandbox")),
    )
    .await
    .unwrap()
}

/// A raw `POST /v1/emails` head (HTTP/1.1, the sandbox's key, a JSON body of `length` bytes).
fn post_head(s: &EmailSandbox, length: usize, extra: &str) -> String {
    format!(
        "POST /v1/emails HTTP/1.1\r\nhost: sandbox\r\nauthorization: Bearer {}\r\n\
         content-type: application/json\r\ncontent-length: {length}\r\n{extra}\r\n",
        s.api_key()
    )
}

fn valid_email() -> &'static str {
    r#"{"from":"ada@example.com","to":["grace@example.com"],"subject":"Hi","text":"Hello"}"#
}

#[tokio::test]
async fn an_8_mib_json_array_with_an_idempotency_key_is_refused_and_nothing_of_it_is_kept() {
    let _one = MEASURING.lock().await;
    let s = email(HttpLimits::default()).await;
    let http = reqwest::Client::new();
    let url = format!("{}/v1/emails", s.base_url());
    let send = |body: Vec<u8>, key: &'static str| {
        http.post(&url)
            .bearer_auth(s.api_key())
            .header("content-type", "application/json")
            .header("idempotency-key", key)
            .body(body)
            .send()
    };
    // Warm up (connection pool, lazy statics), then measure from here.
    let _ = send(b"{}".to_vec(), "warm-up").await.unwrap();
    let mut body = Vec::with_capacity(8 * MIB + 2);
    body.push(b'[');
    while body.len() < 8 * MIB {
        body.extend_from_slice(b"0,");
    }
    body.push(b'0');
    body.push(b']');
    let sent = body.len();
    let before = reset_peak();
    let answer = send(body, "attack").await.unwrap();
    assert_eq!(
        answer.status().as_u16(),
        422,
        "a JSON array is not a request body"
    );
    let _ = answer.bytes().await.unwrap();
    let peak = peak() - before;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let kept = heap_now().saturating_sub(before);
    eprintln!(
        "8 MiB array: peak +{:.1} MiB (the client's own copy of the body included), kept +{} KiB",
        peak as f64 / MIB as f64,
        kept / 1024
    );
    // The body is held once by the client and once by the server while read: nothing close
    // to the 4 million JSON values it would parse into (~128 MiB), nothing of it kept.
    assert!(
        peak < 4 * sent,
        "peak heap grew by {peak} bytes for a {sent}-byte body"
    );
    assert!(kept < MIB, "{kept} bytes kept after the request");
    // The stored answer still replays.
    let replay = send(b"[0]".to_vec(), "attack").await.unwrap();
    assert_eq!(
        replay.status().as_u16(),
        409,
        "another body under the same key"
    );
    s.shutdown().await;
}

#[tokio::test]
async fn a_body_sent_without_a_length_is_cut_at_the_limit_while_read() {
    let _one = MEASURING.lock().await;
    let s = email(HttpLimits::default().max_body_bytes(MIB)).await;
    let mut stream = tcp(s.addr()).await;
    let head = format!(
        "POST /v1/emails HTTP/1.1\r\nhost: sandbox\r\nauthorization: Bearer {}\r\n\
         content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n",
        s.api_key()
    );
    send(&mut stream, head.as_bytes()).await;
    let chunk = vec![b' '; 64 * 1024];
    let frame = [
        format!("{:x}\r\n", chunk.len()).into_bytes(),
        chunk,
        b"\r\n".to_vec(),
    ]
    .concat();
    let before = reset_peak();
    // Offer 64 MiB; the server must answer long before taking it all.
    let (mut reader, mut writer) = stream.into_split();
    let writing = tokio::spawn(async move {
        let mut written = 0usize;
        while written < 64 * MIB {
            if writer.write_all(&frame).await.is_err() {
                break;
            }
            written += frame.len();
        }
        written
    });
    let head = tokio::time::timeout(Duration::from_secs(10), async {
        let mut out = Vec::new();
        let mut buf = [0u8; 1024];
        while !out.ends_with(b"\r\n\r\n") {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    })
    .await
    .unwrap();
    let peak = peak() - before;
    drop(reader);
    let written = writing.await.unwrap();
    eprintln!(
        "chunked body against a 1 MiB cap: {}, peak +{:.1} MiB, {:.1} MiB offered",
        head.lines().next().unwrap_or(""),
        peak as f64 / MIB as f64,
        written as f64 / MIB as f64
    );
    assert_eq!(status_of(&head), 413, "{head}");
    assert!(written < 64 * MIB, "the server read the whole 64 MiB");
    assert!(
        peak < 4 * MIB,
        "peak heap grew by {peak} bytes against a 1 MiB cap"
    );
    s.shutdown().await;
}

#[tokio::test]
async fn a_declared_length_over_the_limit_is_refused_before_the_body_is_sent() {
    let s = email(HttpLimits::default().max_body_bytes(MIB)).await;
    let mut stream = tcp(s.addr()).await;
    send(&mut stream, post_head(&s, 64 * MIB, "").as_bytes()).await;
    let head = read_head(&mut stream, Duration::from_secs(5)).await;
    assert_eq!(status_of(&head), 413, "{head}");
    s.shutdown().await;
}

#[tokio::test]
async fn a_truncated_body_is_a_400_not_a_413() {
    let s = email(HttpLimits::default()).await;
    let mut stream = tcp(s.addr()).await;
    let body = valid_email();
    send(&mut stream, post_head(&s, body.len() + 500, "").as_bytes()).await;
    send(&mut stream, body.as_bytes()).await;
    stream.shutdown().await.unwrap();
    let (answer, _) = read_until_closed(&mut stream, Duration::from_secs(5)).await;
    assert_eq!(status_of(&answer), 400, "{answer}");
    assert!(answer.contains("declared length"), "{answer}");
    s.shutdown().await;
}

#[tokio::test]
async fn a_body_that_stops_arriving_is_answered_408_after_the_body_timeout() {
    let s = email(HttpLimits::default().body_read_timeout(Duration::from_millis(300))).await;
    let mut stream = tcp(s.addr()).await;
    send(&mut stream, post_head(&s, 1000, "").as_bytes()).await;
    send(&mut stream, b"{\"from\":").await;
    let started = Instant::now();
    let head = read_head(&mut stream, Duration::from_secs(5)).await;
    assert_eq!(status_of(&head), 408, "{head}");
    assert!(started.elapsed() >= Duration::from_millis(250));
    s.shutdown().await;
}

#[tokio::test]
async fn json_operations_refuse_other_content_types_with_415() {
    let s = email(HttpLimits::default()).await;
    let http = reqwest::Client::new();
    let url = format!("{}/v1/emails", s.base_url());
    let post = |content_type: Option<&'static str>| {
        let mut request = http.post(&url).bearer_auth(s.api_key()).body(valid_email());
        if let Some(t) = content_type {
            request = request.header("content-type", t);
        }
        request.send()
    };
    for refused in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let answer = post(refused).await.unwrap();
        assert_eq!(answer.status().as_u16(), 415, "{refused:?}");
        let body: serde_json::Value = answer.json().await.unwrap();
        assert_eq!(body["error"]["code"], "unsupported_media_type", "{body}");
    }
    let accepted = post(Some("application/json; charset=utf-8")).await.unwrap();
    assert_eq!(accepted.status().as_u16(), 202);
    s.shutdown().await;
}

#[tokio::test]
async fn deeply_nested_or_value_heavy_bodies_are_refused_before_they_are_built() {
    let s = email(HttpLimits::default()).await;
    let http = reqwest::Client::new();
    let url = format!("{}/v1/emails", s.base_url());
    let post = |body: String| {
        http.post(&url)
            .bearer_auth(s.api_key())
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let deep = format!(
        r#"{{"from":"a@example.com","to":["b@example.com"],"metadata":{{"x":{}1{}}}}}"#,
        "[".repeat(100),
        "]".repeat(100)
    );
    assert_eq!(post(deep).await.unwrap().status().as_u16(), 422);
    let many = format!(
        r#"{{"from":"a@example.com","to":["b@example.com"],"metadata":{{"x":[{}0]}}}}"#,
        "0,".repeat(200_000)
    );
    let answer = post(many).await.unwrap();
    assert_eq!(answer.status().as_u16(), 413);
    s.shutdown().await;
}

#[tokio::test]
async fn the_idempotency_store_forgets_its_oldest_answers_past_its_capacity() {
    let s = email(HttpLimits::default().idempotency_capacity(2, MIB)).await;
    let http = reqwest::Client::new();
    let url = format!("{}/v1/emails", s.base_url());
    let post = |key: &'static str, subject: &'static str| {
        http.post(&url)
            .bearer_auth(s.api_key())
            .header("content-type", "application/json")
            .header("idempotency-key", key)
            .body(valid_email().replace("\"Hi\"", &format!("\"{subject}\"")))
            .send()
    };
    for key in ["k1", "k2", "k3"] {
        assert_eq!(post(key, "first").await.unwrap().status().as_u16(), 202);
    }
    let replayed = post("k3", "first").await.unwrap();
    assert_eq!(replayed.status().as_u16(), 202);
    assert_eq!(replayed.headers()["idempotent-replayed"], "true");
    assert_eq!(post("k2", "other").await.unwrap().status().as_u16(), 409);
    // `k1` was the oldest of three keys in a store of two: forgotten, so a new request.
    let fresh = post("k1", "other").await.unwrap();
    assert_eq!(fresh.status().as_u16(), 202);
    assert!(fresh.headers().get("idempotent-replayed").is_none());
    s.shutdown().await;
}

#[tokio::test]
async fn idle_connections_fill_one_listener_and_time_out_while_the_other_services_answer() {
    let idle = Duration::from_millis(600);
    let s = email(
        HttpLimits::default()
            .max_connections(8)
            .header_read_timeout(idle),
    )
    .await;
    let m = MessagingSandbox::start(MessagingSandboxConfig::default().rate_limit(None))
        .await
        .unwrap();
    let opened = Instant::now();
    let mut idlers = Vec::new();
    for _ in 0..8 {
        idlers.push(tcp(s.addr()).await);
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    // Over the cap: answered at once, not queued behind the idle ones.
    let mut extra = tcp(s.addr()).await;
    let (refused, closed) = read_until_closed(&mut extra, Duration::from_secs(2)).await;
    assert!(closed, "the connection over the cap was left open");
    assert_eq!(status_of(&refused), 503, "{refused}");
    // Another service is not affected.
    let listed = reqwest::Client::new()
        .get(format!("{}/v1/messages", m.base_url()))
        .bearer_auth(m.api_key())
        .send()
        .await
        .unwrap();
    assert_eq!(listed.status().as_u16(), 200);
    // The idle ones are closed by the server after the header-read timeout...
    for mut idler in idlers {
        let (_, closed) = read_until_closed(&mut idler, Duration::from_secs(3)).await;
        assert!(closed, "an idle connection was not closed");
    }
    assert!(opened.elapsed() >= idle - Duration::from_millis(100));
    // ... and the same listener answers again.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let answer = reqwest::Client::new()
        .get(format!("{}/v1/emails", s.base_url()))
        .bearer_auth(s.api_key())
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    m.shutdown().await;
    s.shutdown().await;
}

#[tokio::test]
async fn a_kept_alive_connection_is_closed_after_the_idle_timeout() {
    let s = email(HttpLimits::default().header_read_timeout(Duration::from_millis(400))).await;
    let mut stream = tcp(s.addr()).await;
    let request = format!(
        "GET /v1/emails HTTP/1.1\r\nhost: sandbox\r\nauthorization: Bearer {}\r\n\r\n",
        s.api_key()
    );
    send(&mut stream, request.as_bytes()).await;
    let head = read_head(&mut stream, Duration::from_secs(2)).await;
    assert_eq!(status_of(&head), 200, "{head}");
    let started = Instant::now();
    let (_, closed) = read_until_closed(&mut stream, Duration::from_secs(3)).await;
    assert!(closed, "the kept-alive connection stayed open");
    assert!(started.elapsed() >= Duration::from_millis(300));
    s.shutdown().await;
}

#[tokio::test]
async fn a_slowloris_head_is_cut_off_at_the_header_read_timeout() {
    let s = email(HttpLimits::default().header_read_timeout(Duration::from_millis(500))).await;
    let mut stream = tcp(s.addr()).await;
    send(&mut stream, b"GET /v1/emails HTTP/1.1\r\nhost: sandbox\r\n").await;
    let started = Instant::now();
    // One header byte every 50 ms: it never ends, but it never stops either.
    let mut cut = false;
    for _ in 0..60 {
        if stream.write_all(b"x").await.is_err() {
            cut = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        let mut probe = [0u8; 1];
        if let Ok(Ok(0)) =
            tokio::time::timeout(Duration::from_millis(1), stream.read(&mut probe)).await
        {
            cut = true;
            break;
        }
    }
    let took = started.elapsed();
    assert!(cut, "a head trickling for {took:?} was not cut off");
    assert!(took < Duration::from_secs(2), "cut after {took:?}");
    s.shutdown().await;
}
