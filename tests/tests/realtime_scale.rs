//! Realtime at scale (issue 21, item 5): many WebSocket connections with several
//! subscriptions each from one process against sockudo, ours beside pusher-js in Node (same
//! counts, same server, same run): memory per connection (RSS delta / connections), process
//! CPU time over an idle stretch with the heartbeat on, and fan-out latency (one trigger to a
//! channel every connection is subscribed to; trigger to receive, p50/p99).
//!
//! ```console
//! $ cargo test --release -p tidings-tests --test realtime_scale -- --ignored --nocapture
//! ```
//!
//! `SCALE_CONNECTIONS` (default 1000) and `SCALE_IDLE_SECS` (default 30) change the run;
//! `SCALE_EXIT_AFTER_MEMORY=1` exits right after our memory figure, so a heap profiler
//! (`heaptrack`) reports what the connections hold as "leaked"; `SCALE_MALLOC_TRIM=1` also
//! prints the RSS after `malloc_trim` (how much of it is free memory the allocator kept).
#![allow(clippy::unwrap_used, clippy::print_stdout)]
// The counting allocator below forwards to the system allocator.
#![allow(unsafe_code)]

mod realtime_common;

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use realtime_common::{KEY, Sockudo, node_peers};
use tidings::pusher::{self, ConnectionState};
use tidings_runtime::realtime::Channel;
use tokio::io::{AsyncBufReadExt, BufReader};

/// Counts the bytes the process holds on the heap, to tell live data from allocator slack in
/// the RSS figure, and the live blocks by size (the heap breakdown of BENCHMARKS 8.2).
struct Counting;

static LIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Live blocks per size class: sizes below [`EXACT`] each have their own counter (rounded up
/// to 8 bytes), larger ones are grouped by power of two.
const EXACT: usize = 8192;
const CLASSES: usize = EXACT / 8 + 48;
static BY_SIZE: [std::sync::atomic::AtomicIsize; CLASSES] =
    [const { std::sync::atomic::AtomicIsize::new(0) }; CLASSES];

fn size_class(size: usize) -> usize {
    if size < EXACT {
        size.div_ceil(8)
    } else {
        EXACT / 8 + (usize::BITS - size.leading_zeros()) as usize
    }
}

/// The smallest size of a class (its label in the breakdown).
fn class_size(class: usize) -> usize {
    if class <= EXACT / 8 {
        class * 8
    } else {
        1 << (class - EXACT / 8 - 1)
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged; only counters are kept.
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), std::sync::atomic::Ordering::Relaxed);
        BY_SIZE[size_class(layout.size())].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: the caller's layout contract is passed on as is.
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        LIVE.fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
        BY_SIZE[size_class(layout.size())].fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live_heap() -> usize {
    LIVE.load(std::sync::atomic::Ordering::Relaxed)
}

fn live_by_size() -> Vec<isize> {
    BY_SIZE
        .iter()
        .map(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        .collect()
}

/// glibc's heap statistics (`mallinfo2`): sizes in bytes.
#[repr(C)]
#[derive(Default, Clone, Copy)]
struct MallInfo2 {
    arena: usize,
    ordblks: usize,
    smblks: usize,
    hblks: usize,
    hblkhd: usize,
    usmblks: usize,
    fsmblks: usize,
    uordblks: usize,
    fordblks: usize,
    keepcost: usize,
}

unsafe extern "C" {
    fn mallinfo2() -> MallInfo2;
    fn malloc_trim(pad: usize) -> i32;
}

fn malloc_info() -> MallInfo2 {
    // SAFETY: glibc's mallinfo2 takes nothing and returns a plain struct.
    unsafe { mallinfo2() }
}

/// Prints the blocks that appeared between two snapshots, per connection, largest share first.
fn print_breakdown(before: &[isize], after: &[isize], connections: usize) {
    let mut rows: Vec<(usize, f64, f64)> = before
        .iter()
        .zip(after)
        .enumerate()
        .map(|(class, (b, a))| {
            let blocks = (a - b) as f64 / connections as f64;
            (class_size(class), blocks, blocks * class_size(class) as f64)
        })
        .filter(|r| r.1 >= 0.5)
        .collect();
    rows.sort_by(|x, y| y.2.total_cmp(&x.2));
    println!("live heap blocks per connection by size (size: blocks, bytes):");
    for (size, blocks, bytes) in rows.iter().take(30) {
        println!("  {size:>6} B: {blocks:>5.1} blocks, {bytes:>7.0} B");
    }
}

const SUBSCRIPTIONS: usize = 10;
/// Heartbeat of both clients: a ping after this much silence.
const PING_AFTER: Duration = Duration::from_secs(10);
const FANOUT_EVENTS: usize = 20;
const WAIT: Duration = Duration::from_secs(60);

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn now_us() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
        * 1e6
}

/// Resident set size of this process, in bytes.
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

/// User + system CPU time of this process, in microseconds.
fn cpu_us() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // Fields after the command name (which ends with ')'): utime is the 14th field overall.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    let hz = 100; // USER_HZ on Linux
    ticks * 1_000_000 / hz
}

fn percentiles(mut samples: Vec<f64>) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.50), at(0.99))
}

#[derive(Debug)]
struct Figures {
    bytes_per_connection: f64,
    /// Heap bytes in use per connection (ours only).
    heap_per_connection: f64,
    idle_cpu_ms: f64,
    received: usize,
    p50_us: f64,
    p99_us: f64,
}

async fn fan_out(s: &Sockudo) {
    let client = s.client();
    for _ in 0..FANOUT_EVENTS {
        client
            .trigger(["fanout"], "f", &serde_json::json!({ "sent_us": now_us() }))
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn ours(s: &Sockudo, connections: usize, idle: Duration) -> Figures {
    let rss_before = rss();
    let malloc_before = malloc_info();
    let heap_before = live_heap();
    let sizes_before = live_by_size();
    let mut conns = Vec::with_capacity(connections);
    for _ in 0..connections {
        conns.push(
            pusher::connection(&s.ws_url(), KEY)
                .ping_after(PING_AFTER)
                .connect()
                .unwrap(),
        );
    }
    let mut fanout: Vec<Channel> = Vec::with_capacity(connections);
    let mut others: Vec<Channel> = Vec::with_capacity(connections * (SUBSCRIPTIONS - 1));
    for (i, c) in conns.iter().enumerate() {
        c.wait_for(ConnectionState::Connected, WAIT).await.unwrap();
        fanout.push(c.subscribe("fanout").unwrap());
        for k in 1..SUBSCRIPTIONS {
            others.push(c.subscribe(&format!("c{i}-{k}")).unwrap());
        }
    }
    for ch in fanout.iter_mut().chain(others.iter_mut()) {
        ch.wait_subscribed(WAIT).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let bytes_per_connection = (rss().saturating_sub(rss_before)) as f64 / connections as f64;
    let heap_per_connection = (live_heap().saturating_sub(heap_before)) as f64 / connections as f64;
    print_breakdown(&sizes_before, &live_by_size(), connections);
    let malloc_after = malloc_info();
    let per = |a: usize, b: usize| (a as f64 - b as f64) / connections as f64 / 1024.0;
    println!(
        "malloc per connection: arenas {:.1} KiB, in use {:.1} KiB, free in arenas {:.1} KiB, mmapped {:.1} KiB",
        per(malloc_after.arena, malloc_before.arena),
        per(malloc_after.uordblks, malloc_before.uordblks),
        per(malloc_after.fordblks, malloc_before.fordblks),
        per(malloc_after.hblkhd, malloc_before.hblkhd),
    );
    if std::env::var_os("SCALE_MALLOC_TRIM").is_some() {
        // SAFETY: malloc_trim only returns free memory to the system.
        unsafe { malloc_trim(0) };
        println!(
            "RSS per connection after malloc_trim: {:.1} KiB",
            rss().saturating_sub(rss_before) as f64 / connections as f64 / 1024.0
        );
    }
    if std::env::var_os("SCALE_EXIT_AFTER_MEMORY").is_some() {
        // For heap profilers: what is still allocated at exit is what the connections hold.
        println!(
            "memory per connection (RSS): {:.1} KiB (heap in use {:.1} KiB)",
            bytes_per_connection / 1024.0,
            heap_per_connection / 1024.0
        );
        std::process::exit(0);
    }

    let cpu_before = cpu_us();
    tokio::time::sleep(idle).await;
    let idle_cpu_ms = (cpu_us() - cpu_before) as f64 / 1000.0;

    let latencies = Arc::new(Mutex::new(Vec::with_capacity(connections * FANOUT_EVENTS)));
    let readers: Vec<_> = fanout
        .into_iter()
        .map(|mut ch| {
            let latencies = latencies.clone();
            tokio::spawn(async move {
                let mut got = 0;
                while got < FANOUT_EVENTS {
                    let Some(e) = ch.next_event().await else {
                        break;
                    };
                    if e.event != "f" {
                        continue;
                    }
                    let at = now_us();
                    let sent = e.data::<serde_json::Value>().unwrap()["sent_us"]
                        .as_f64()
                        .unwrap();
                    latencies.lock().unwrap().push(at - sent);
                    got += 1;
                }
            })
        })
        .collect();
    fan_out(s).await;
    let _ = tokio::time::timeout(WAIT, futures_util::future::join_all(readers)).await;
    let samples = latencies.lock().unwrap().clone();
    let received = samples.len();
    let (p50_us, p99_us) = percentiles(samples);
    for c in &conns {
        c.disconnect();
    }
    drop(others);
    Figures {
        bytes_per_connection,
        heap_per_connection,
        idle_cpu_ms,
        received,
        p50_us,
        p99_us,
    }
}

async fn node(s: &Sockudo, connections: usize, idle: Duration) -> Figures {
    let mut child = tokio::process::Command::new("node")
        .arg("--expose-gc")
        .arg(node_peers().join("scale.js"))
        .args([
            s.port.to_string(),
            KEY.to_owned(),
            connections.to_string(),
            SUBSCRIPTIONS.to_string(),
            PING_AFTER.as_millis().to_string(),
            idle.as_millis().to_string(),
            FANOUT_EVENTS.to_string(),
        ])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = async || -> serde_json::Value {
        let line = tokio::time::timeout(idle + WAIT, lines.next_line())
            .await
            .expect("scale.js answers in time")
            .unwrap()
            .expect("scale.js ended early");
        serde_json::from_str(&line).unwrap()
    };
    let ready = next().await;
    let bytes_per_connection = (ready["rss_after"].as_f64().unwrap()
        - ready["rss_before"].as_f64().unwrap())
        / connections as f64;
    let cpu = next().await;
    let idle_cpu_ms = cpu["idle_cpu_us"].as_f64().unwrap() / 1000.0;
    assert_eq!(next().await["listening"], true);
    fan_out(s).await;
    let done = next().await;
    let _ = child.wait().await;
    Figures {
        bytes_per_connection,
        heap_per_connection: f64::NAN,
        idle_cpu_ms,
        received: done["received"].as_u64().unwrap() as usize,
        p50_us: done["p50_us"].as_f64().unwrap(),
        p99_us: done["p99_us"].as_f64().unwrap(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: needs sockudo and node; run with --ignored --release --nocapture"]
async fn many_connections_memory_idle_cpu_and_fan_out_rust_vs_pusher_js() {
    let connections = env_or("SCALE_CONNECTIONS", 1000) as usize;
    let idle = Duration::from_secs(env_or("SCALE_IDLE_SECS", 30));
    let s = Sockudo::start_with_max_connections(None, 3 * connections as u32 + 10);
    // Warm the trigger path (HTTP client, sockudo's app) before either side is measured.
    s.client().trigger(["fanout"], "warmup", "x").await.unwrap();

    let rust = ours(&s, connections, idle).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let js = node(&s, connections, idle).await;

    let want = connections * FANOUT_EVENTS;
    println!(
        "{connections} connections x {SUBSCRIPTIONS} subscriptions, sockudo, ping after {PING_AFTER:?}"
    );
    println!(
        "memory per connection (RSS): tidings {:.1} KiB (heap in use {:.1} KiB), pusher-js {:.1} KiB, ratio {:.3}",
        rust.bytes_per_connection / 1024.0,
        rust.heap_per_connection / 1024.0,
        js.bytes_per_connection / 1024.0,
        rust.bytes_per_connection / js.bytes_per_connection
    );
    println!(
        "CPU over {idle:?} idle: tidings {:.0} ms, pusher-js {:.0} ms, ratio {:.3}",
        rust.idle_cpu_ms,
        js.idle_cpu_ms,
        rust.idle_cpu_ms / js.idle_cpu_ms
    );
    println!(
        "fan-out ({FANOUT_EVENTS} events x {connections}): tidings p50 {:.0} us, p99 {:.0} us ({} received); pusher-js p50 {:.0} us, p99 {:.0} us ({} received); p99 ratio {:.3}",
        rust.p50_us,
        rust.p99_us,
        rust.received,
        js.p50_us,
        js.p99_us,
        js.received,
        rust.p99_us / js.p99_us
    );
    assert_eq!(rust.received, want, "every connection got every event");
    assert_eq!(
        js.received, want,
        "pusher-js: every connection got every event"
    );
}
