//! Soak test of the email client against the email sandbox, which enforces the spec's rate
//! limit (1000 requests per minute): concurrent tasks send as fast as the client's rate limiter
//! lets them, through a fault-injecting loopback proxy, for several minutes. At the end, every
//! send the client saw succeed must exist exactly once in the sandbox, the server must never
//! have answered 429, and no send may be lost.
//!
//! The proxy understands HTTP/1.1 framing. For a fraction of requests it forwards the request,
//! reads the server's whole answer and then resets the client's connection instead of passing
//! the answer on (the server did the work; the client retries with the same `Idempotency-Key`
//! and the sandbox must replay instead of creating a second email). For another fraction it
//! resets the connection before forwarding anything.
//!
//! ```console
//! $ cargo run --release -p tidings-sandbox --example soak -- --minutes 3
//! ```
//!
//! Options: `--minutes M` (fractions allowed), `--tasks N` (10), `--limit N` and
//! `--per-secs S` (the spec's limit), `--cut-every N` (23: every Nth request is cut after the
//! server answered), `--reset-every N` (37: every Nth is reset before forwarding).
//! `sandbox/tests/soak_short.rs` runs the same soak for 20 s at a scaled-down window.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tidings::email::{EmailClient, ListEmailsQuery, SendEmailRequest};
use tidings_runtime::{CallOptions, ErrorKind};
use tidings_sandbox::ServiceConfig;
use tidings_sandbox::server::RateLimit;
use tidings_sandbox::{EmailSandbox, EmailSandboxConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Any error, for the harness.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Attempts per send at the application level (each is a full client call with the client's
/// own retries), all with the same idempotency key.
const APP_TRIES: u32 = 5;

/// What to run.
#[derive(Debug, Clone)]
pub struct Settings {
    /// How long the tasks keep starting new sends.
    pub duration: Duration,
    /// Concurrent sending tasks.
    pub tasks: usize,
    /// The rate limit, enforced by the sandbox and followed by the client.
    pub limit: u32,
    /// Its window.
    pub per: Duration,
    /// Every Nth proxied request is forwarded, answered by the server, then cut (0: never).
    pub cut_every: u64,
    /// Every Nth proxied request is reset before it is forwarded (0: never).
    pub reset_every: u64,
}

impl Settings {
    /// The spec's email rate limit, 10 tasks, faults on about 7% of requests.
    pub fn spec(duration: Duration) -> Settings {
        let (limit, per) = tidings::email::SERVICE
            .rate_limit
            .map_or((1000, 60), |r| (r.requests, u64::from(r.per_seconds)));
        Settings {
            duration,
            tasks: 10,
            limit,
            per: Duration::from_secs(per),
            cut_every: 23,
            reset_every: 37,
        }
    }
}

/// Counters of the fault-injecting proxy.
#[derive(Debug, Default)]
pub struct ProxyStats {
    /// Requests read from the client.
    pub requests: AtomicU64,
    /// Requests forwarded to the server.
    pub forwarded: AtomicU64,
    /// Connections reset before the request was forwarded.
    pub reset_before: AtomicU64,
    /// Answers the server gave that the client never saw (connection cut after them).
    pub cut_after: AtomicU64,
    /// Answers marked `Idempotent-Replayed: true`.
    pub replays: AtomicU64,
    /// Server answers by status, cut ones included.
    pub statuses: Mutex<BTreeMap<u16, u64>>,
    /// When each request was forwarded (≈ when the server saw it).
    pub arrivals: Mutex<Vec<Instant>>,
}

/// A loopback HTTP/1.1 proxy that loses some answers and resets some connections.
#[derive(Debug)]
pub struct FaultProxy {
    /// Where it listens.
    pub addr: SocketAddr,
    /// What it did.
    pub stats: Arc<ProxyStats>,
    faults: Arc<AtomicBool>,
}

impl FaultProxy {
    /// Listens on a free loopback port, forwarding to `upstream`.
    pub async fn start(
        upstream: SocketAddr,
        cut_every: u64,
        reset_every: u64,
    ) -> std::io::Result<FaultProxy> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let stats = Arc::new(ProxyStats::default());
        let faults = Arc::new(AtomicBool::new(true));
        let (s, f) = (stats.clone(), faults.clone());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let _ = client.set_nodelay(true);
                tokio::spawn(serve(
                    client,
                    upstream,
                    s.clone(),
                    f.clone(),
                    cut_every,
                    reset_every,
                ));
            }
        });
        Ok(FaultProxy {
            addr,
            stats,
            faults,
        })
    }

    /// Turns fault injection on or off.
    pub fn set_faults(&self, on: bool) {
        self.faults.store(on, Ordering::SeqCst);
    }
}

/// One client connection: request by request, each forwarded over one upstream connection.
async fn serve(
    mut client: TcpStream,
    upstream: SocketAddr,
    stats: Arc<ProxyStats>,
    faults: Arc<AtomicBool>,
    cut_every: u64,
    reset_every: u64,
) {
    let mut server: Option<TcpStream> = None;
    let (mut from_client, mut from_server) = (Vec::new(), Vec::new());
    loop {
        let request = match read_message(&mut client, &mut from_client, false).await {
            Ok(Some(request)) => request,
            Ok(None) | Err(_) => return,
        };
        let n = stats.requests.fetch_add(1, Ordering::SeqCst) + 1;
        let chaos = faults.load(Ordering::SeqCst);
        if chaos && reset_every > 0 && n.is_multiple_of(reset_every) {
            stats.reset_before.fetch_add(1, Ordering::SeqCst);
            reset(client);
            return;
        }
        if server.is_none() {
            match TcpStream::connect(upstream).await {
                Ok(s) => {
                    let _ = s.set_nodelay(true);
                    server = Some(s);
                }
                Err(_) => return,
            }
        }
        let Some(upstream_conn) = server.as_mut() else {
            return;
        };
        if let Ok(mut arrivals) = stats.arrivals.lock() {
            arrivals.push(Instant::now());
        }
        stats.forwarded.fetch_add(1, Ordering::SeqCst);
        if upstream_conn.write_all(&request.bytes).await.is_err() {
            return;
        }
        let answer = match read_message(upstream_conn, &mut from_server, true).await {
            Ok(Some(answer)) => answer,
            Ok(None) | Err(_) => return,
        };
        if let Ok(mut statuses) = stats.statuses.lock() {
            *statuses.entry(answer.status).or_default() += 1;
        }
        if answer.replayed {
            stats.replays.fetch_add(1, Ordering::SeqCst);
        }
        if chaos && cut_every > 0 && n.is_multiple_of(cut_every) {
            stats.cut_after.fetch_add(1, Ordering::SeqCst);
            reset(client);
            return;
        }
        if client.write_all(&answer.bytes).await.is_err() {
            return;
        }
    }
}

/// Closes with a TCP reset rather than an orderly close.
fn reset(stream: TcpStream) {
    let _ = stream.set_zero_linger();
    drop(stream);
}

/// One HTTP/1.1 message, head and body.
#[derive(Debug)]
struct Message {
    bytes: Vec<u8>,
    /// The status of an answer (0 for a request).
    status: u16,
    replayed: bool,
}

/// Reads more into `buf`; `false` at end of stream.
async fn fill(stream: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    let mut chunk = [0u8; 16 * 1024];
    let n = stream.read(&mut chunk).await?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(n > 0)
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// Reads one message from `stream` (bytes beyond it stay in `buf`). `None` when the stream
/// ends cleanly before a message starts. Bodies are framed by `Content-Length` or chunked.
async fn read_message(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    response: bool,
) -> std::io::Result<Option<Message>> {
    let eof = || std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "message cut short");
    let head_end = loop {
        if let Some(at) = find(buf, b"\r\n\r\n", 0) {
            break at + 4;
        }
        if !fill(stream, buf).await? {
            return if buf.is_empty() { Ok(None) } else { Err(eof()) };
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
    let mut lines = head.split("\r\n");
    let status = if response {
        lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .unwrap_or(0)
    } else {
        lines.next();
        0
    };
    let (mut length, mut chunked, mut replayed) = (0usize, false, false);
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        match (name.trim(), value.trim()) {
            ("content-length", v) => length = v.parse().unwrap_or(0),
            ("transfer-encoding", v) => chunked = v.contains("chunked"),
            ("idempotent-replayed", v) => replayed = v == "true",
            _ => {}
        }
    }
    if response && (status == 204 || status == 304 || status < 200) {
        length = 0;
    }
    let end = if chunked {
        let mut at = head_end;
        loop {
            let line_end = loop {
                if let Some(i) = find(buf, b"\r\n", at) {
                    break i;
                }
                if !fill(stream, buf).await? {
                    return Err(eof());
                }
            };
            let size_text = String::from_utf8_lossy(&buf[at..line_end]).into_owned();
            let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
                .map_err(|_| std::io::Error::other("bad chunk size"))?;
            at = line_end + 2;
            if size == 0 {
                // No trailers: the last chunk is followed by an empty line.
                while buf.len() < at + 2 {
                    if !fill(stream, buf).await? {
                        return Err(eof());
                    }
                }
                break at + 2;
            }
            at += size + 2;
            while buf.len() < at {
                if !fill(stream, buf).await? {
                    return Err(eof());
                }
            }
        }
    } else {
        while buf.len() < head_end + length {
            if !fill(stream, buf).await? {
                return Err(eof());
            }
        }
        head_end + length
    };
    Ok(Some(Message {
        bytes: buf.drain(..end).collect(),
        status,
        replayed,
    }))
}

/// What the client side saw.
#[derive(Debug, Default)]
pub struct ClientStats {
    /// Calls that returned an error (after the client's own retries).
    pub call_errors: AtomicU64,
    /// Of those, rate-limit errors.
    pub rate_limited: AtomicU64,
    /// Sends abandoned after [`APP_TRIES`] calls.
    pub lost: Mutex<Vec<String>>,
    /// Failed calls by error kind.
    pub errors: Mutex<BTreeMap<String, u64>>,
}

/// The outcome of a soak run.
#[derive(Debug)]
pub struct Report {
    /// The settings it ran with.
    pub settings: Settings,
    /// Time spent sending (from the first send to the last answer).
    pub elapsed: Duration,
    /// Sends the client saw succeed.
    pub succeeded: usize,
    /// Sends abandoned after every try.
    pub lost: usize,
    /// Client calls that failed (the send was then tried again with the same key).
    pub call_errors: u64,
    /// Of those, rate-limit errors.
    pub client_rate_limited: u64,
    /// Error kinds of the failed calls.
    pub errors: BTreeMap<String, u64>,
    /// Requests the proxy read from the client during the sending phase.
    pub requests: u64,
    /// Of those, forwarded to the server.
    pub forwarded: u64,
    /// Connections reset before forwarding.
    pub reset_before: u64,
    /// Answers cut after the server gave them.
    pub cut_after: u64,
    /// Answers the server marked as replays.
    pub replays: u64,
    /// Server answers by status.
    pub statuses: BTreeMap<u16, u64>,
    /// The most requests the server saw in any window of `per` (sliding).
    pub busiest_window: usize,
    /// Successful sends whose email is missing from the sandbox.
    pub missing: Vec<String>,
    /// Keys with more than one email in the sandbox.
    pub duplicates: Vec<String>,
    /// Emails of this run in the sandbox that no successful send reported.
    pub orphans: Vec<String>,
    /// Emails of this run in the sandbox.
    pub stored: usize,
    /// Successful sends whose id `get_email` did not return with the right subject (a sample).
    pub get_mismatches: Vec<String>,
}

impl Report {
    /// The server's 429 answers.
    pub fn server_429s(&self) -> u64 {
        self.statuses.get(&429).copied().unwrap_or(0)
    }

    /// Successful sends per minute.
    pub fn sends_per_minute(&self) -> f64 {
        self.succeeded as f64 * 60.0 / self.elapsed.as_secs_f64()
    }

    /// Requests the server saw per minute.
    pub fn requests_per_minute(&self) -> f64 {
        self.forwarded as f64 * 60.0 / self.elapsed.as_secs_f64()
    }

    /// The limit per minute.
    pub fn limit_per_minute(&self) -> f64 {
        f64::from(self.settings.limit) * 60.0 / self.settings.per.as_secs_f64()
    }

    /// Every property the soak promises; `Err` lists the ones that failed.
    pub fn check(&self) -> Result<(), String> {
        let mut failed = Vec::new();
        if self.server_429s() > 0 || self.client_rate_limited > 0 {
            failed.push(format!(
                "429s: server {}, client errors {}",
                self.server_429s(),
                self.client_rate_limited
            ));
        }
        if self.busiest_window > self.settings.limit as usize {
            failed.push(format!(
                "the server saw {} requests in one window (limit {})",
                self.busiest_window, self.settings.limit
            ));
        }
        if self.lost > 0 {
            failed.push(format!("{} sends lost", self.lost));
        }
        for (what, list) in [
            ("missing from the sandbox", &self.missing),
            ("stored more than once", &self.duplicates),
            ("stored without a successful send", &self.orphans),
            ("get_email mismatches", &self.get_mismatches),
        ] {
            if !list.is_empty() {
                failed.push(format!(
                    "{} {what}: {:?}",
                    list.len(),
                    &list[..list.len().min(5)]
                ));
            }
        }
        if self.stored != self.succeeded {
            failed.push(format!(
                "{} stored, {} succeeded",
                self.stored, self.succeeded
            ));
        }
        let other_errors: u64 = self
            .statuses
            .iter()
            .filter(|(s, _)| !(200..300).contains(*s))
            .map(|(_, n)| n)
            .sum();
        if other_errors > 0 {
            failed.push(format!("server error answers: {:?}", self.statuses));
        }
        if self.settings.cut_every > 0 && self.replays < self.cut_after / 2 {
            failed.push(format!(
                "only {} replays for {} cut answers",
                self.replays, self.cut_after
            ));
        }
        if failed.is_empty() {
            Ok(())
        } else {
            Err(failed.join("; "))
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.settings;
        writeln!(
            f,
            "soak: {} tasks for {:.1} s against a limit of {} per {} s ({:.0}/min)",
            s.tasks,
            self.elapsed.as_secs_f64(),
            s.limit,
            s.per.as_secs_f64(),
            self.limit_per_minute()
        )?;
        writeln!(
            f,
            "  sends: {} succeeded ({:.1}/min), {} lost; {} stored, {} missing, {} duplicated, {} orphans, {} get_email mismatches",
            self.succeeded,
            self.sends_per_minute(),
            self.lost,
            self.stored,
            self.missing.len(),
            self.duplicates.len(),
            self.orphans.len(),
            self.get_mismatches.len()
        )?;
        writeln!(
            f,
            "  requests at the server: {} ({:.1}/min, {:.1}% of the limit); busiest window {} of {}",
            self.forwarded,
            self.requests_per_minute(),
            100.0 * self.requests_per_minute() / self.limit_per_minute(),
            self.busiest_window,
            s.limit
        )?;
        writeln!(
            f,
            "  faults: {} reset before forwarding, {} answers cut after the server worked; {} replays served",
            self.reset_before, self.cut_after, self.replays
        )?;
        writeln!(
            f,
            "  server statuses: {:?}; 429s: {} at the server, {} rate-limit errors at the client",
            self.statuses,
            self.server_429s(),
            self.client_rate_limited
        )?;
        write!(
            f,
            "  client calls that failed after the client's retries: {} {:?}",
            self.call_errors, self.errors
        )
    }
}

/// Starts the sandbox and the proxy, runs the soak and checks the sandbox's store.
///
/// # Errors
/// When the sandbox cannot start or the final listing fails.
pub async fn run(settings: Settings) -> Result<Report, BoxError> {
    let mut config = EmailSandboxConfig::default()
        .rate_limit(Some(RateLimit::new(settings.limit, settings.per)))
        .smtp(None)
        .deliver_webhooks(false);
    // Fewer lifecycle steps in the background; the soak is about the front door.
    config.service.lifecycle_step = Duration::from_secs(3600);
    let sandbox = EmailSandbox::start(config).await?;
    let proxy = FaultProxy::start(sandbox.addr(), settings.cut_every, settings.reset_every).await?;
    let client = EmailClient::builder()
        .base_url(format!("http://{}", proxy.addr))
        .api_key(sandbox.api_key().to_owned())
        .rate_limit(Some(tidings_runtime::ratelimit::RateLimit::new(
            settings.limit,
            settings.per,
        )))
        // Senders queue for the limiter on purpose (a slot may be most of a window away):
        // no total deadline, so a wait is never cut short into a RateLimited error.
        .total_timeout(None)
        .build()?;

    let run_id = format!("soak-{}", std::process::id());
    let stats = Arc::new(ClientStats::default());
    let started = Instant::now();
    let until = started + settings.duration;
    let mut tasks = Vec::new();
    for task in 0..settings.tasks {
        tasks.push(tokio::spawn(sender(
            client.clone(),
            format!("{run_id}-t{task}"),
            until,
            stats.clone(),
        )));
    }
    let mut sent: HashMap<String, String> = HashMap::new();
    for task in tasks {
        sent.extend(task.await?);
    }
    let elapsed = started.elapsed();
    let report = verify(settings, &proxy, &client, &run_id, sent, &stats, elapsed).await?;
    sandbox.shutdown().await;
    Ok(report)
}

/// Checks the sandbox's store against what the senders saw succeed, and builds the report.
///
/// # Errors
/// When listing the sandbox's emails fails.
pub async fn verify(
    settings: Settings,
    proxy: &FaultProxy,
    client: &EmailClient,
    run_id: &str,
    sent: HashMap<String, String>,
    stats: &ClientStats,
    elapsed: Duration,
) -> Result<Report, BoxError> {
    let forwarded = proxy.stats.forwarded.load(Ordering::SeqCst);
    let requests = proxy.stats.requests.load(Ordering::SeqCst);
    let busiest_window = busiest(
        &proxy
            .stats
            .arrivals
            .lock()
            .map(|a| a.clone())
            .unwrap_or_default(),
        settings.per,
    );

    // Check the sandbox's store, through the same client (so the listing respects the limit)
    // with faults off.
    proxy.set_faults(false);
    let mut stored: HashMap<String, Vec<String>> = HashMap::new();
    let mut pages =
        std::pin::pin!(client.list_emails_stream(&ListEmailsQuery::default().limit(100)));
    while let Some(email) = pages.next().await {
        let email = email?;
        if let Some(subject) = email.subject.filter(|s| s.starts_with(run_id)) {
            stored.entry(subject).or_default().push(email.id);
        }
    }
    let mut missing = Vec::new();
    for (key, id) in &sent {
        match stored.get(key) {
            Some(ids) if ids.contains(id) => {}
            _ => missing.push(key.clone()),
        }
    }
    let duplicates: Vec<String> = stored
        .iter()
        .filter(|(_, ids)| ids.len() > 1)
        .map(|(k, _)| k.clone())
        .collect();
    let orphans: Vec<String> = stored
        .keys()
        .filter(|k| !sent.contains_key(*k))
        .cloned()
        .collect();
    let mut get_mismatches = Vec::new();
    for (key, id) in sent.iter().take(20) {
        let email = client.get_email(id).await?;
        if email.subject.as_deref() != Some(key.as_str()) {
            get_mismatches.push(key.clone());
        }
    }
    let lost = stats.lost.lock().map(|l| l.len()).unwrap_or(0);
    let report = Report {
        elapsed,
        succeeded: sent.len(),
        lost,
        call_errors: stats.call_errors.load(Ordering::SeqCst),
        client_rate_limited: stats.rate_limited.load(Ordering::SeqCst),
        errors: stats.errors.lock().map(|e| e.clone()).unwrap_or_default(),
        requests,
        forwarded,
        reset_before: proxy.stats.reset_before.load(Ordering::SeqCst),
        cut_after: proxy.stats.cut_after.load(Ordering::SeqCst),
        replays: proxy.stats.replays.load(Ordering::SeqCst),
        statuses: proxy
            .stats
            .statuses
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default(),
        busiest_window,
        missing,
        duplicates,
        orphans,
        stored: stored.values().map(Vec::len).sum(),
        get_mismatches,
        settings,
    };
    Ok(report)
}

/// One task: sends until `until`, each send under its own idempotency key (also its subject),
/// tried again with the same key when a call fails. Returns key → email id.
pub async fn sender(
    client: EmailClient,
    prefix: String,
    until: Instant,
    stats: Arc<ClientStats>,
) -> Vec<(String, String)> {
    let mut done = Vec::new();
    let mut n = 0u64;
    while Instant::now() < until {
        n += 1;
        let key = format!("{prefix}-n{n}");
        let request = SendEmailRequest::new("Soak <soak@example.com>", ["sink@example.com"])
            .subject(key.clone())
            .text("soak");
        let keyed = client.with_options(CallOptions::new().idempotency_key(key.clone()));
        let mut sent = None;
        let mut tries = 0;
        while tries < APP_TRIES {
            tries += 1;
            match keyed.send_email(&request).await {
                Ok(answer) => {
                    sent = Some(answer.id);
                    break;
                }
                Err(e) if e.kind() == ErrorKind::LimiterUnavailable => {
                    // A shared limiter that fails closed while its store is down: the send
                    // waits for it (a while past the end of the run at most) without using a try.
                    stats.call_errors.fetch_add(1, Ordering::SeqCst);
                    if let Ok(mut errors) = stats.errors.lock() {
                        *errors.entry(format!("{:?}", e.kind())).or_default() += 1;
                    }
                    if Instant::now() > until + Duration::from_secs(30) {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    tries -= 1;
                }
                Err(e) => {
                    stats.call_errors.fetch_add(1, Ordering::SeqCst);
                    if e.kind() == ErrorKind::RateLimited {
                        stats.rate_limited.fetch_add(1, Ordering::SeqCst);
                    }
                    if let Ok(mut errors) = stats.errors.lock() {
                        *errors.entry(format!("{:?}", e.kind())).or_default() += 1;
                    }
                }
            }
        }
        match sent {
            Some(id) => done.push((key, id)),
            None => {
                if let Ok(mut lost) = stats.lost.lock() {
                    lost.push(key);
                }
            }
        }
    }
    done
}

/// The most arrivals in any window of length `per`.
fn busiest(arrivals: &[Instant], per: Duration) -> usize {
    let mut sorted = arrivals.to_vec();
    sorted.sort();
    let mut window = VecDeque::new();
    let mut most = 0;
    for t in sorted {
        while window.front().is_some_and(|&f: &Instant| t - f >= per) {
            window.pop_front();
        }
        window.push_back(t);
        most = most.max(window.len());
    }
    most
}

fn parse_args() -> Result<Settings, String> {
    let mut settings = Settings::spec(Duration::from_secs(180));
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .ok_or_else(|| format!("`{flag}` needs a value"))?;
        let bad = |_| format!("`{flag} {value}` is not a number");
        match flag.as_str() {
            "--minutes" => {
                let minutes: f64 = value.parse().map_err(|_| bad(()))?;
                if !(minutes.is_finite() && minutes > 0.0 && minutes <= 24.0 * 60.0) {
                    return Err("--minutes must be between 0 and 1440".into());
                }
                settings.duration = Duration::from_secs_f64(minutes * 60.0);
            }
            "--tasks" => settings.tasks = value.parse().map_err(|_| bad(()))?,
            "--limit" => settings.limit = value.parse().map_err(|_| bad(()))?,
            "--per-secs" => {
                settings.per = Duration::from_secs(value.parse().map_err(|_| bad(()))?);
            }
            "--cut-every" => settings.cut_every = value.parse().map_err(|_| bad(()))?,
            "--reset-every" => settings.reset_every = value.parse().map_err(|_| bad(()))?,
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(settings)
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let settings = parse_args()?;
    println!(
        "soak: {} tasks for {:.1} min at {} requests per {} s, through a proxy that cuts the answer of 1 request in {} and resets 1 in {} before forwarding",
        settings.tasks,
        settings.duration.as_secs_f64() / 60.0,
        settings.limit,
        settings.per.as_secs(),
        settings.cut_every,
        settings.reset_every
    );
    let report = run(settings).await?;
    println!("{report}");
    match report.check() {
        Ok(()) => {
            println!("soak passed");
            Ok(())
        }
        Err(failed) => Err(format!("soak failed: {failed}").into()),
    }
}
