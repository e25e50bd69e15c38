//! Overhead of the runtime pipeline: requests per second through `Client::execute` +
//! `Response::json` versus a hand-written reqwest call with the same `reqwest::Client`
//! settings, against the same keep-alive loopback server answering a small JSON body.
//! Retries and rate limiting are armed but idle (the rate limit is set very high).
//!
//! It also prints heap allocations per call for both (counted on the calling thread only, so
//! the server's allocations are left out).
//!
//! Run: `cargo bench -p tidings-runtime --bench overhead`
//!
//! For a profiler, `OVERHEAD_PROFILE=reqwest` (or `tidings_runtime`) makes the bench binary skip
//! criterion and make `OVERHEAD_CALLS` (default 100,000) calls of that side one at a time, then
//! print the time they took: two runs with the same count compare sample for sample.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group};
use futures_util::future::join_all;
use tidings_runtime::ratelimit::RateLimit;
use tidings_runtime::spec::*;
use tidings_runtime::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Counts allocations made on threads that switched counting on.
struct CountingAllocator;

static ALLOCATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

thread_local! {
    static COUNTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting only reads a
// thread-local flag and bumps an atomic. (The only `unsafe` in the workspace: a global
// allocator cannot be written without it.)
#[allow(unsafe_code)]
unsafe impl std::alloc::GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        if COUNTING.try_with(std::cell::Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        if COUNTING.try_with(std::cell::Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { std::alloc::System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
#[allow(unsafe_code)]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Allocations per call of `call`, on this thread, after a warm-up.
fn allocations_per_call<F: std::future::Future>(
    rt: &tokio::runtime::Runtime,
    mut call: impl FnMut() -> F,
) -> f64 {
    const CALLS: u64 = 2_000;
    rt.block_on(async {
        for _ in 0..200 {
            call().await;
        }
        ALLOCATIONS.store(0, std::sync::atomic::Ordering::Relaxed);
        COUNTING.with(|c| c.set(true));
        for _ in 0..CALLS {
            call().await;
        }
        COUNTING.with(|c| c.set(false));
    });
    ALLOCATIONS.load(std::sync::atomic::Ordering::Relaxed) as f64 / CALLS as f64
}

const BODY: &str = r#"{"id":"em_123","object":"email","status":"queued","to":["b@example.com"]}"#;
const CONCURRENT: usize = 16;
const KEY: &str = "sk_bench_key";

static SPEC: ServiceSpec = ServiceSpec {
    name: "email",
    title: "Email service",
    base_url: None,
    base_url_env: "COMMS_BENCH_BASE_URL",
    credentials: &[CredentialSpec {
        name: "api_key",
        env: "COMMS_BENCH_API_KEY",
        secret: true,
        value: None,
    }],
    auth: &[AuthScheme::Bearer {
        credential: "api_key",
    }],
    rate_limit: Some(RateLimitSpec {
        requests: 1000,
        per_seconds: 60,
    }),
    rate_limit_headers: RateLimitHeaders::STANDARD,
    retry: RetrySpec::DEFAULT,
    timeouts: TimeoutSpec::DEFAULT,
    idempotency: Some(IdempotencySpec {
        header: "Idempotency-Key",
        max_len: 256,
    }),
    errors: ErrorSpec::DEFAULT,
};

static GET_EMAIL: OperationSpec = OperationSpec::get("get_email", "/v1/emails/{id}");

/// A keep-alive HTTP/1.1 server on its own thread and runtime.
fn start_server() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let addr = listener.local_addr().expect("addr");
    listener.set_nonblocking(true).expect("nonblocking");
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{BODY}",
                BODY.len()
            );
            loop {
                let Ok((mut stream, _)) = listener.accept().await else { return };
                let response = response.clone();
                tokio::spawn(async move {
                    let mut buf = Vec::with_capacity(2048);
                    let mut chunk = [0u8; 2048];
                    loop {
                        // GET requests only: a request ends at the blank line.
                        while let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            buf.drain(..end + 4);
                            if stream.write_all(response.as_bytes()).await.is_err() {
                                return;
                            }
                        }
                        match stream.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    }
                });
            }
        });
    });
    addr
}

/// The same settings the runtime's default client uses.
fn reqwest_client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(3))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("reqwest client")
}

/// The hand-written equivalent: bearer header, accept header, timeout, status check, JSON.
async fn raw_call(http: &reqwest::Client, url: &str) -> serde_json::Value {
    http.get(url)
        .bearer_auth(KEY)
        .header(reqwest::header::ACCEPT, "application/json")
        .timeout(Duration::from_secs(60))
        .send()
        .await
        .expect("send")
        .error_for_status()
        .expect("2xx")
        .json()
        .await
        .expect("json")
}

/// The path a generated method takes: fill the request, return a `Call`, await it.
async fn runtime_call(client: &Client) -> serde_json::Value {
    let request = tidings_runtime::Request::new(&GET_EMAIL).path_param("id", "em_123");
    client.call(request).await.expect("call")
}

/// A loopback server and both sides pointed at it: a current-thread runtime, the raw reqwest
/// client with the URL it calls, and the runtime's client (rate limit armed but never reached).
fn sides() -> (tokio::runtime::Runtime, reqwest::Client, String, Client) {
    let addr = start_server();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let raw = reqwest_client();
    let url = format!("http://{addr}/v1/emails/em_123");
    let client = Client::builder(&SPEC)
        .base_url(format!("http://{addr}"))
        .api_key(KEY)
        .http_client(reqwest_client())
        .rate_limit(Some(RateLimit::per_second(100_000_000)))
        .build()
        .expect("client");
    (rt, raw, url, client)
}

fn overhead(c: &mut Criterion) {
    let (rt, raw, url, client) = sides();

    let raw_allocs = allocations_per_call(&rt, || raw_call(&raw, &url));
    let runtime_allocs = allocations_per_call(&rt, || runtime_call(&client));
    println!(
        "allocations per call (calling thread): reqwest {raw_allocs:.1}, tidings_runtime \
         {runtime_allocs:.1} ({:+.1})",
        runtime_allocs - raw_allocs
    );

    let mut group = c.benchmark_group("sequential");
    group.throughput(Throughput::Elements(1));
    group.bench_function("reqwest", |b| b.to_async(&rt).iter(|| raw_call(&raw, &url)));
    group.bench_function("tidings_runtime", |b| {
        b.to_async(&rt).iter(|| runtime_call(&client))
    });
    group.finish();

    let mut group = c.benchmark_group("concurrent_16");
    group.throughput(Throughput::Elements(CONCURRENT as u64));
    group.bench_function("reqwest", |b| {
        b.to_async(&rt)
            .iter(|| join_all((0..CONCURRENT).map(|_| raw_call(&raw, &url))))
    });
    group.bench_function("tidings_runtime", |b| {
        b.to_async(&rt)
            .iter(|| join_all((0..CONCURRENT).map(|_| runtime_call(&client))))
    });
    group.finish();

    // Other work on a shared machine skews runs measured seconds apart, so these groups
    // alternate blocks of both calls and time each side separately: criterion reports the
    // runtime's side, and the ratio of the two sums is printed after each group.
    for concurrency in [1, CONCURRENT] {
        let raw_total = std::cell::Cell::new(Duration::ZERO);
        let runtime_total = std::cell::Cell::new(Duration::ZERO);
        let mut group = c.benchmark_group(format!("paired_{concurrency}"));
        group.throughput(Throughput::Elements(concurrency as u64));
        group.bench_function("tidings_runtime_interleaved_with_reqwest", |b| {
            b.to_async(&rt).iter_custom(|iters| {
                let (raw, client, url) = (&raw, &client, &url);
                let (raw_total, runtime_total) = (&raw_total, &runtime_total);
                async move {
                    const BLOCK: u64 = 25;
                    let mut measured = Duration::ZERO;
                    let mut done = 0;
                    while done < iters {
                        let n = BLOCK.min(iters - done);
                        let start = Instant::now();
                        for _ in 0..n {
                            let calls = (0..concurrency).map(|_| raw_call(raw, url));
                            std::hint::black_box(join_all(calls).await);
                        }
                        raw_total.set(raw_total.get() + start.elapsed());
                        let start = Instant::now();
                        for _ in 0..n {
                            let calls = (0..concurrency).map(|_| runtime_call(client));
                            std::hint::black_box(join_all(calls).await);
                        }
                        let elapsed = start.elapsed();
                        runtime_total.set(runtime_total.get() + elapsed);
                        measured += elapsed;
                        done += n;
                    }
                    measured
                }
            })
        });
        group.finish();
        let (raw_secs, runtime_secs) = (
            raw_total.get().as_secs_f64(),
            runtime_total.get().as_secs_f64(),
        );
        if runtime_secs > 0.0 {
            println!(
                "paired_{concurrency}: tidings_runtime throughput / reqwest throughput = {:.3} \
                 (reqwest {:.2?} vs tidings_runtime {:.2?} for the same calls)",
                raw_secs / runtime_secs,
                raw_total.get(),
                runtime_total.get()
            );
        }
    }
}

/// `OVERHEAD_PROFILE` mode: a fixed number of calls of one side, for `perf record` or
/// `perf stat` (criterion's own loop varies its iteration count).
fn profile_one_side(side: &str) {
    let calls: u64 = std::env::var("OVERHEAD_CALLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let (rt, raw, url, client) = sides();
    let elapsed = rt.block_on(async {
        let start = Instant::now();
        for _ in 0..calls {
            match side {
                "reqwest" => drop(std::hint::black_box(raw_call(&raw, &url).await)),
                _ => drop(std::hint::black_box(runtime_call(&client).await)),
            }
        }
        start.elapsed()
    });
    println!(
        "{side}: {calls} calls in {elapsed:.2?} ({:.2?} per call)",
        elapsed / u32::try_from(calls).unwrap_or(u32::MAX)
    );
    // On Linux, each thread's time on a CPU (the bench's thread, then the server's): the
    // wall time above also holds the waits for the other thread and the scheduler.
    for (thread, cpu_ns) in thread_cpu_ns() {
        println!(
            "  thread {thread}: {:.2} µs of CPU per call",
            cpu_ns as f64 / 1_000.0 / calls as f64
        );
    }
}

/// Nanoseconds on a CPU of each thread of this process, from `/proc/self/task/*/schedstat`
/// (empty where that does not exist).
fn thread_cpu_ns() -> Vec<(String, u64)> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut threads: Vec<(String, u64)> = tasks
        .filter_map(Result::ok)
        .filter_map(|task| {
            let stat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
            let ns = stat.split_whitespace().next()?.parse().ok()?;
            Some((task.file_name().to_string_lossy().into_owned(), ns))
        })
        .collect();
    threads.sort_by_key(|(tid, _)| tid.parse::<u64>().unwrap_or(u64::MAX));
    threads
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(30);
    targets = overhead
}

fn main() {
    if let Ok(side) = std::env::var("OVERHEAD_PROFILE") {
        profile_one_side(&side);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
