//! Attacks on the client's resources over real loopback sockets: huge, endless and slow bodies,
//! huge declared lengths, huge or forged error messages and a server that never answers. Memory
//! is measured by this binary's own counting allocator, so the tests run one at a time.

#![allow(clippy::unwrap_used)]

mod common;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
use tidings_runtime::spec::*;
use tidings_runtime::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const KIB: usize = 1024;
const MIB: usize = 1024 * 1024;

// --- memory accounting -------------------------------------------------------------------

/// Forwards to the system allocator and keeps the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = IN_USE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator; the bookkeeping only
// touches atomics and never allocates.
#[allow(unsafe_code)]
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { std::alloc::System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { std::alloc::System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let new = unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        new
    }
}

#[global_allocator]
#[allow(unsafe_code)]
static GLOBAL: Counting = Counting;

/// One test at a time: the allocator counts every thread of the process.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Runs `f` and returns its output and the peak of heap bytes in use above the start.
async fn peak_growth<T>(f: impl std::future::Future<Output = T>) -> (T, usize) {
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f.await;
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

// --- a streaming loopback server -----------------------------------------------------------

/// 64 KiB of filler, written again and again: the server holds nothing per byte it sends.
static FILL: [u8; 64 * KIB] = [b'x'; 64 * KIB];

/// What the server answers every request with.
#[derive(Debug, Clone, Copy)]
enum Answer {
    /// `200`, `Transfer-Encoding: chunked`, 64 KiB chunks: this many bytes (`None`: endless).
    Chunked(Option<usize>),
    /// `200` declaring this `Content-Length`, then filler until the client goes away.
    Declared(u64),
    /// `200`, chunked, `bytes` every `every`, endless.
    Drip { bytes: usize, every: Duration },
    /// Reads the request and never answers.
    Silence,
    /// `status` with a JSON error whose `message` is `fill` bytes of filler.
    HugeMessage { status: u16, fill: usize },
}

struct StreamServer {
    addr: SocketAddr,
    /// Body bytes written (accepted by the kernel) over every connection.
    written: Arc<AtomicU64>,
    /// Requests read.
    requests: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl StreamServer {
    async fn start(answer: Answer) -> StreamServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let written = Arc::new(AtomicU64::new(0));
        let requests = Arc::new(AtomicUsize::new(0));
        let (w, r) = (Arc::clone(&written), Arc::clone(&requests));
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (w, r) = (Arc::clone(&w), Arc::clone(&r));
                tokio::spawn(async move {
                    let _ = serve(stream, answer, &w, &r).await;
                });
            }
        });
        StreamServer {
            addr,
            written,
            requests,
            task,
        }
    }

    fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn written(&self) -> u64 {
        self.written.load(Ordering::Relaxed)
    }
}

impl Drop for StreamServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(
    mut stream: TcpStream,
    answer: Answer,
    written: &AtomicU64,
    requests: &AtomicUsize,
) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
    }
    requests.fetch_add(1, Ordering::Relaxed);
    let mut send = async |bytes: &[u8]| -> std::io::Result<()> {
        stream.write_all(bytes).await?;
        written.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        Ok(())
    };
    const CHUNKED: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
        transfer-encoding: chunked\r\n\r\n";
    match answer {
        Answer::Chunked(total) => {
            send(CHUNKED).await?;
            let mut left = total.unwrap_or(usize::MAX);
            while left > 0 {
                let n = left.min(FILL.len());
                send(format!("{n:x}\r\n").as_bytes()).await?;
                send(&FILL[..n]).await?;
                send(b"\r\n").await?;
                left -= n;
            }
            send(b"0\r\n\r\n").await?;
        }
        Answer::Declared(length) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {length}\r\n\r\n"
            );
            send(head.as_bytes()).await?;
            loop {
                send(&FILL).await?;
            }
        }
        Answer::Drip { bytes, every } => {
            send(CHUNKED).await?;
            loop {
                send(format!("{bytes:x}\r\n").as_bytes()).await?;
                send(&FILL[..bytes]).await?;
                send(b"\r\n").await?;
                tokio::time::sleep(every).await;
            }
        }
        Answer::Silence => {
            // Hold the connection open, say nothing.
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
        Answer::HugeMessage { status, fill } => {
            let (prefix, suffix) = (r#"{"error":{"code":"invalid","message":""#, r#""}}"#);
            let length = prefix.len() + fill + suffix.len();
            let head = format!(
                "HTTP/1.1 {status} Error\r\ncontent-type: application/json\r\ncontent-length: {length}\r\n\r\n"
            );
            send(head.as_bytes()).await?;
            send(prefix.as_bytes()).await?;
            let mut left = fill;
            while left > 0 {
                let n = left.min(FILL.len());
                send(&FILL[..n]).await?;
                left -= n;
            }
            send(suffix.as_bytes()).await?;
        }
    }
    stream.shutdown().await
}

/// A client of the test email service at `base_url`: no rate limit, tiny backoff.
fn client(base_url: &str) -> ClientBuilder {
    Client::builder(&EMAIL)
        .base_url(base_url)
        .api_key(API_KEY)
        .rate_limit(None)
        .retry(
            RetryPolicy::from_spec(&RetrySpec::DEFAULT)
                .backoff(Duration::from_millis(1), Duration::from_millis(5)),
        )
        .attempt_timeout(Duration::from_secs(10))
}

fn too_large(err: &Error) -> &TooLarge {
    match err {
        Error::ResponseTooLarge(t) => t,
        other => panic!("expected ResponseTooLarge, got {other:?}"),
    }
}

// --- success bodies ------------------------------------------------------------------------

#[tokio::test]
async fn a_64_mib_body_against_a_1_mib_cap_is_refused_in_bounded_memory() {
    let _serial = SERIAL.lock().await;
    let server = StreamServer::start(Answer::Chunked(Some(64 * MIB))).await;
    let client = client(&server.base_url())
        .max_response_bytes(MIB)
        .build()
        .unwrap();
    let started = Instant::now();
    let (result, peak) = peak_growth(client.execute(get_email("em_1"))).await;
    let err = result.expect_err("over the cap");
    assert_eq!(err.kind(), ErrorKind::ResponseTooLarge);
    let t = too_large(&err);
    assert_eq!(
        (t.limit, t.declared, t.status, t.operation),
        (MIB as u64, None, 200, "get_email")
    );
    assert!(err.to_string().contains("email.get_email"), "{err}");
    // Not retried: the same request gets the same body.
    assert_eq!(server.requests.load(Ordering::Relaxed), 1);
    eprintln!(
        "64 MiB chunked body, 1 MiB cap: peak heap growth {} KiB, server wrote {} KiB, {:?}",
        peak / KIB,
        server.written() / 1024,
        started.elapsed()
    );
    assert!(peak < 3 * MIB, "peak heap growth {peak} bytes");
    assert!(server.written() < 32 * MIB as u64, "the client read it all");
}

#[tokio::test]
async fn without_a_cap_over_it_the_same_body_is_held_whole() {
    // The control of the test above: the accounting does see a body held whole (the runtime
    // before limits read every body this way).
    let _serial = SERIAL.lock().await;
    let server = StreamServer::start(Answer::Chunked(Some(64 * MIB))).await;
    let client = client(&server.base_url())
        .max_response_bytes(128 * MIB)
        .build()
        .unwrap();
    let (result, peak) = peak_growth(client.execute(get_email("em_1"))).await;
    assert_eq!(result.expect("within the cap").body().len(), 64 * MIB);
    assert!(peak >= 64 * MIB, "peak heap growth {peak} bytes");
    // What the runtime did before it had limits: `reqwest::Response::bytes()`.
    let url = format!("{}/v1/emails/em_1", server.base_url());
    let (whole, before) = peak_growth(async {
        reqwest::get(&url)
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap()
            .len()
    })
    .await;
    assert_eq!(whole, 64 * MIB);
    eprintln!(
        "64 MiB chunked body: peak heap growth {} KiB with a 128 MiB cap, {} KiB read whole by \
         reqwest's bytes() (the runtime before limits)",
        peak / KIB,
        before / KIB
    );
    assert!(before >= 64 * MIB, "peak heap growth {before} bytes");
}

#[tokio::test]
async fn an_endless_chunked_body_ends_at_the_cap() {
    let _serial = SERIAL.lock().await;
    let server = StreamServer::start(Answer::Chunked(None)).await;
    let client = client(&server.base_url())
        .max_response_bytes(MIB)
        .build()
        .unwrap();
    let started = Instant::now();
    let (result, peak) = peak_growth(client.execute(get_email("em_1"))).await;
    let elapsed = started.elapsed();
    assert_eq!(
        result.expect_err("endless").kind(),
        ErrorKind::ResponseTooLarge
    );
    eprintln!(
        "endless chunked body, 1 MiB cap: peak heap growth {} KiB, {elapsed:?}",
        peak / KIB
    );
    assert!(elapsed < Duration::from_secs(3), "took {elapsed:?}");
    assert!(peak < 3 * MIB, "peak heap growth {peak} bytes");
}

#[tokio::test]
async fn an_endless_slow_body_ends_at_the_attempt_timeout() {
    let _serial = SERIAL.lock().await;
    let server = StreamServer::start(Answer::Drip {
        bytes: 512,
        every: Duration::from_millis(10),
    })
    .await;
    let client = client(&server.base_url())
        .attempt_timeout(Duration::from_millis(300))
        .max_attempts(1)
        .build()
        .unwrap();
    let started = Instant::now();
    let err = client
        .execute(get_email("em_1"))
        .await
        .expect_err("never ends");
    let elapsed = started.elapsed();
    assert!(
        matches!(
            err,
            Error::Timeout {
                kind: TimeoutKind::Attempt,
                ..
            }
        ),
        "{err:?}"
    );
    // The server really was sending: the timeout cut a body in progress.
    assert!(server.written() > 4 * 1024, "wrote {}", server.written());
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
}

#[tokio::test]
async fn a_huge_content_length_is_refused_without_reading_the_body() {
    let _serial = SERIAL.lock().await;
    let server = StreamServer::start(Answer::Declared(5_000_000_000)).await;
    let client = client(&server.base_url()).build().unwrap(); // the default 16 MiB cap
    let started = Instant::now();
    let (result, peak) = peak_growth(client.execute(get_email("em_1"))).await;
    let elapsed = started.elapsed();
    let err = result.expect_err("5 GB declared");
    let t = too_large(&err);
    assert_eq!(t.declared, Some(5_000_000_000));
    assert_eq!(t.limit, 16 * MIB as u64);
    eprintln!(
        "5 GB Content-Length: peak heap growth {} KiB, server wrote {} KiB, {elapsed:?}",
        peak / KIB,
        server.written() / 1024
    );
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
    assert!(peak < MIB, "peak heap growth {peak} bytes");
}

#[tokio::test]
async fn a_body_at_the_cap_passes_and_one_byte_more_is_refused() {
    let _serial = SERIAL.lock().await;
    let body = |n: usize| format!("\"{}\"", "a".repeat(n - 2));
    let server = TestServer::start(move |n, _| match n {
        0 => Reply::json(200, &body(1000)),
        1 => Reply::json(200, &body(1001)),
        // 1001 bytes in two chunks, no Content-Length.
        _ => Reply::Raw(
            format!(
                "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1f4\r\n{}\r\n1f5\r\n{}\r\n0\r\n\r\n",
                "a".repeat(500),
                "a".repeat(501)
            )
            .into_bytes(),
        ),
    })
    .await;
    let client = client(&server.base_url())
        .max_response_bytes(1000)
        .build()
        .unwrap();
    let ok = client.execute(get_email("em_1")).await.expect("at the cap");
    assert_eq!(ok.body().len(), 1000);
    let declared = client.execute(get_email("em_1")).await.expect_err("1001");
    assert_eq!(too_large(&declared).declared, Some(1001));
    let streamed = client.execute(get_email("em_1")).await.expect_err("1001");
    assert_eq!(too_large(&streamed).declared, None);
    assert_eq!(server.count(), 3, "a body over the cap is not retried");
}

#[tokio::test]
async fn a_per_call_cap_overrides_the_client_cap() {
    let _serial = SERIAL.lock().await;
    let server = TestServer::always(Reply::json(200, &format!("\"{}\"", "a".repeat(2000)))).await;
    let roomy = client(&server.base_url()).build().unwrap();
    let tight = roomy.with_options(CallOptions::new().max_response_bytes(1000));
    let err = tight.execute(get_email("em_1")).await.expect_err("tight");
    assert_eq!(too_large(&err).limit, 1000);
    roomy.execute(get_email("em_1")).await.expect("roomy");
    let small = client(&server.base_url())
        .max_response_bytes(1000)
        .build()
        .unwrap();
    small
        .with_options(CallOptions::new().max_response_bytes(4000))
        .execute(get_email("em_1"))
        .await
        .expect("the call's cap wins");
}

// --- error bodies --------------------------------------------------------------------------

#[tokio::test]
async fn a_50_mb_error_body_is_read_only_up_to_its_cap() {
    let _serial = SERIAL.lock().await;
    let server = StreamServer::start(Answer::HugeMessage {
        status: 400,
        fill: 50_000_000,
    })
    .await;
    let client = client(&server.base_url()).build().unwrap(); // the default 64 KiB
    let started = Instant::now();
    let (result, peak) = peak_growth(client.execute(get_email("em_1"))).await;
    let err = result.expect_err("400");
    assert_eq!(err.status(), Some(400));
    let api = err.api_error().unwrap();
    assert!(api.body_truncated);
    // Cut JSON does not parse: what is left is the excerpt.
    assert_eq!(api.message, None);
    let shown = err.to_string();
    eprintln!(
        "400 with a 50 MB message, 64 KiB error cap: Display {} bytes, peak heap growth {} KiB, \
         server wrote {} KiB, {:?}",
        shown.len(),
        peak / KIB,
        server.written() / 1024,
        started.elapsed()
    );
    assert!(shown.len() < 2 * KIB, "Display is {} bytes", shown.len());
    assert!(shown.contains("cut at the client's limit"), "{shown}");
    assert!(peak < MIB, "peak heap growth {peak} bytes");
}

#[tokio::test]
async fn a_50_mb_error_message_displays_bounded_when_read_whole() {
    let _serial = SERIAL.lock().await;
    let server = StreamServer::start(Answer::HugeMessage {
        status: 422,
        fill: 50_000_000,
    })
    .await;
    let client = client(&server.base_url())
        .max_error_body_bytes(64 * MIB)
        .build()
        .unwrap();
    let err = client.execute(get_email("em_1")).await.expect_err("422");
    let api = err.api_error().unwrap();
    assert!(!api.body_truncated);
    assert_eq!(api.code.as_deref(), Some("invalid"));
    let message = api.message.as_deref().unwrap();
    assert!(message.len() <= 2048 + 3 && message.ends_with('…'));
    let shown = err.to_string();
    eprintln!(
        "422 with a 50 MB message read whole: Display {} bytes",
        shown.len()
    );
    assert!(shown.len() < 4 * KIB, "Display is {} bytes", shown.len());
}

#[tokio::test]
async fn a_cut_error_body_keeps_its_status_for_retries() {
    let _serial = SERIAL.lock().await;
    let page = format!("<html>{}</html>", "busy ".repeat(40_000)); // 200 KB
    let server = TestServer::script(vec![Reply::html(503, &page), Reply::ok()]).await;
    let client = client(&server.base_url()).build().unwrap();
    client
        .execute(get_email("em_1"))
        .await
        .expect("retried after the 503");
    assert_eq!(server.count(), 2);
}

// --- control characters in logs ------------------------------------------------------------

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Buffer {
    type Writer = Buffer;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

#[tokio::test]
async fn cr_lf_and_escapes_in_an_error_cannot_forge_a_log_line() {
    let _serial = SERIAL.lock().await;
    let buffer = Buffer::default();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(buffer.clone())
        .with_ansi(false)
        .without_time()
        .finish();
    // This thread only (the test runtime is single-threaded): other tests are not captured.
    let _default = tracing::subscriber::set_default(subscriber);

    let forged = "bad key\r\n INFO tidings.request: call succeeded\n\u{1b}[2K\u{1b}[1A\u{85}done";
    let body = serde_json::json!({"error": {
        "code": "invalid\nkey", "message": forged, "request_id": "req\r\nX",
    }})
    .to_string();
    let server = TestServer::always(Reply::json(400, &body).header("x-request-id", "req_h")).await;
    let client = client(&server.base_url()).build().unwrap();
    let err = client.execute(get_email("em_1")).await.expect_err("400");
    let shown = err.to_string();
    assert!(
        !shown.contains(['\r', '\n', '\u{1b}', '\u{85}']),
        "{shown:?}"
    );

    let log = String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap();
    assert!(log.contains("call failed"), "{log}");
    assert!(log.contains(r"bad key\r\n INFO tidings.request"), "{log}");
    assert!(!log.contains(['\r', '\u{1b}', '\u{85}']), "{log:?}");
    // Every line is a record of its own: it starts with a level, none is the forged one.
    for line in log.lines() {
        let level = line.trim_start().split(' ').next().unwrap_or("");
        assert!(
            ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"].contains(&level),
            "a line that is no record: {line:?}"
        );
        assert!(
            !line
                .trim_start()
                .starts_with("INFO tidings.request: call succeeded")
        );
    }
}

// --- a server that never answers ------------------------------------------------------------

#[tokio::test]
async fn a_silent_server_ends_at_the_call_deadline() {
    let _serial = SERIAL.lock().await;
    let server = StreamServer::start(Answer::Silence).await;
    let client = client(&server.base_url())
        .attempt_timeout(Duration::from_millis(300))
        .total_timeout(Some(Duration::from_millis(700)))
        .build()
        .unwrap();
    let started = Instant::now();
    let err = client
        .execute(get_email("em_1"))
        .await
        .expect_err("silence");
    let elapsed = started.elapsed();
    assert_eq!(err.kind(), ErrorKind::Timeout, "{err:?}");
    assert!(
        elapsed >= Duration::from_millis(650) && elapsed < Duration::from_millis(1500),
        "took {elapsed:?}"
    );
    // Three attempts fit: 300 + 300 + what is left of the 700 ms.
    assert_eq!(server.requests.load(Ordering::Relaxed), 3);
}

#[tokio::test]
#[ignore = "takes the default 60 s deadline; run with --ignored"]
async fn a_silent_server_with_the_defaults_ends_at_the_60_s_deadline() {
    let _serial = SERIAL.lock().await;
    let server = StreamServer::start(Answer::Silence).await;
    // The spec's timeouts (20 s per attempt, no total): the runtime's default deadline (60 s)
    // applies, and the attempts that timed out were retried within it.
    let client = Client::builder(&EMAIL)
        .base_url(server.base_url())
        .api_key(API_KEY)
        .build()
        .unwrap();
    let started = Instant::now();
    let err = client
        .execute(get_email("em_1"))
        .await
        .expect_err("silence");
    let elapsed = started.elapsed();
    eprintln!(
        "silent server, default timeouts: {err} after {elapsed:?}, {} request(s)",
        server.requests.load(Ordering::Relaxed)
    );
    assert!(
        matches!(
            err,
            Error::Timeout {
                kind: TimeoutKind::Deadline,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(elapsed < Duration::from_secs(61), "took {elapsed:?}");
    assert!(
        server.requests.load(Ordering::Relaxed) >= 2,
        "a timed-out attempt is retried"
    );
}
