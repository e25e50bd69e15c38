//! The soak of `soak.rs` with one account shared by several processes: N worker processes
//! (copies of this program) × T tasks send with the same API key through the fault-injecting
//! proxy to the email sandbox, which enforces the limit once for the key. Each worker's client
//! takes its slots from one Redis (`RedisLimiter`), so together they stay under the limit. With
//! `--kill-redis`, Redis is killed a third of the way in and restarted at two thirds.
//!
//! ```console
//! $ cargo run --release -p tidings-sandbox --example soak_shared -- --processes 4 --minutes 3
//! $ cargo run --release -p tidings-sandbox --example soak_shared -- --minutes 1 --kill-redis --fail open
//! ```
//!
//! Options: those of `soak.rs`, plus `--processes N` (4), `--kill-redis`, `--fail open|closed`
//! (closed) and `--redis URL` (default: a `redis-server` started on a free loopback port).
//! `sandbox/tests/soak_shared_short.rs` runs it for a few seconds.

#[allow(dead_code)]
#[path = "soak.rs"]
mod soak;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tidings::email::EmailClient;
use tidings_runtime::ratelimit::redis::{RedisLimiter, WhenUnreachable};
use tidings_sandbox::ServiceConfig;
use tidings_sandbox::server::RateLimit;
use tidings_sandbox::{EmailSandbox, EmailSandboxConfig};

pub use soak::Settings as SoakSettings;
use soak::{BoxError, ClientStats, FaultProxy, Report, Settings};

/// The environment variable that turns a copy of the program into a worker (its JSON config).
pub const WORKER_ENV: &str = "COMMS_SOAK_SHARED_WORKER";

/// What to run.
#[derive(Debug, Clone)]
pub struct SharedSettings {
    /// The single-process soak's settings; `tasks` is per process.
    pub soak: Settings,
    /// Worker processes.
    pub processes: usize,
    /// Kill Redis a third of the way in and restart it at two thirds.
    pub kill_redis: bool,
    /// What the limiters do while Redis is down.
    pub fail_open: bool,
    /// An existing Redis; `None` starts one.
    pub redis_url: Option<String>,
}

/// A worker's instructions (the API key travels in `COMMS_EMAIL_API_KEY`, never in here).
#[derive(Debug, Serialize, Deserialize)]
struct WorkerConfig {
    base_url: String,
    redis_url: String,
    run_id: String,
    tasks: usize,
    millis: u64,
    limit: u32,
    per_millis: u64,
    fail_open: bool,
}

/// Starts the line of a worker's report on its standard output (a test harness prints lines
/// of its own there too).
const REPORT_MARK: &str = "soak-shared-worker-report: ";

/// What a worker saw, printed as one JSON line after [`REPORT_MARK`].
#[derive(Debug, Default, Serialize, Deserialize)]
struct WorkerReport {
    sent: Vec<(String, String)>,
    lost: Vec<String>,
    call_errors: u64,
    rate_limited: u64,
    errors: BTreeMap<String, u64>,
    shared_grants: u64,
    local_grants: u64,
    refused: u64,
    store_errors: u64,
}

/// A `redis-server` child on a free loopback port, without persistence.
#[derive(Debug)]
pub struct RedisProcess {
    port: u16,
    child: Option<Child>,
}

impl RedisProcess {
    /// Starts one and waits until it accepts connections.
    ///
    /// # Errors
    /// When `redis-server` is missing or does not start within 10 s.
    pub fn start() -> Result<RedisProcess, BoxError> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let mut redis = RedisProcess { port, child: None };
        redis.restart()?;
        Ok(redis)
    }

    /// Its URL.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Starts it again on the same port (after [`RedisProcess::kill`]).
    ///
    /// # Errors
    /// As [`RedisProcess::start`].
    pub fn restart(&mut self) -> Result<(), BoxError> {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start redis-server (scripts/test installs it): {e}"))?;
        self.child = Some(child);
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            if start.elapsed() > Duration::from_secs(10) {
                return Err("redis-server did not start within 10 s".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// Kills it (SIGKILL): no goodbye to connected clients.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for RedisProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The outcome of a shared soak.
#[derive(Debug)]
pub struct SharedReport {
    /// The combined run, checked against the sandbox's store.
    pub report: Report,
    /// Worker processes.
    pub processes: usize,
    /// Slots granted by Redis, by this process's window (fail open) and calls refused (fail
    /// closed), over every worker.
    pub shared_grants: u64,
    /// See [`SharedReport::shared_grants`].
    pub local_grants: u64,
    /// See [`SharedReport::shared_grants`].
    pub refused: u64,
    /// Redis commands that failed.
    pub store_errors: u64,
    /// When Redis was killed and restarted, from the start.
    pub redis_outage: Option<(Duration, Duration)>,
}

impl SharedReport {
    /// The share of the limit the clients used: every request they sent (those the proxy reset
    /// before forwarding included: each took a slot), per minute of the whole run (process
    /// start-up and the last window's tail included), over the limit per minute.
    pub fn limit_used(&self) -> f64 {
        let sent_per_minute =
            self.report.requests as f64 * 60.0 / self.report.elapsed.as_secs_f64();
        sent_per_minute / self.report.limit_per_minute()
    }
}

impl fmt::Display for SharedReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "shared soak: {} processes × {} tasks, one API key, one Redis",
            self.processes,
            self.report.settings.tasks / self.processes.max(1)
        )?;
        writeln!(f, "{}", self.report)?;
        writeln!(
            f,
            "  requests the clients sent: {} ({:.1}% of the limit over the whole run)",
            self.report.requests,
            100.0 * self.limit_used()
        )?;
        write!(
            f,
            "  limiter: {} slots from Redis, {} from the local window, {} calls refused, {} Redis errors",
            self.shared_grants, self.local_grants, self.refused, self.store_errors
        )?;
        if let Some((killed, restarted)) = self.redis_outage {
            write!(
                f,
                "; Redis killed at {:.1} s, restarted at {:.1} s",
                killed.as_secs_f64(),
                restarted.as_secs_f64()
            )?;
        }
        Ok(())
    }
}

/// Runs the shared soak: `worker()` gives the command that starts one worker (this program,
/// or a test binary running its worker entry point); the harness adds the environment.
///
/// # Errors
/// When the sandbox, Redis or a worker cannot start, or a worker fails.
pub async fn run(
    settings: SharedSettings,
    worker: impl Fn() -> Command,
) -> Result<SharedReport, BoxError> {
    let soak = settings.soak.clone();
    let mut config = EmailSandboxConfig::default()
        .rate_limit(Some(RateLimit::new(soak.limit, soak.per)))
        .smtp(None)
        .deliver_webhooks(false);
    config.service.lifecycle_step = Duration::from_secs(3600);
    let sandbox = EmailSandbox::start(config).await?;
    let proxy = FaultProxy::start(sandbox.addr(), soak.cut_every, soak.reset_every).await?;
    let mut redis = match &settings.redis_url {
        Some(_) => None,
        None => Some(RedisProcess::start()?),
    };
    let redis_url = match (&settings.redis_url, &redis) {
        (Some(url), _) => url.clone(),
        (None, Some(redis)) => redis.url(),
        (None, None) => return Err("no Redis".into()),
    };
    let run_id = format!("shared-{}", std::process::id());
    let started = Instant::now();
    let mut children = Vec::new();
    for p in 0..settings.processes {
        let config = WorkerConfig {
            base_url: format!("http://{}", proxy.addr),
            redis_url: redis_url.clone(),
            run_id: format!("{run_id}-p{p}"),
            tasks: soak.tasks,
            millis: u64::try_from(soak.duration.as_millis()).unwrap_or(u64::MAX),
            limit: soak.limit,
            per_millis: u64::try_from(soak.per.as_millis()).unwrap_or(u64::MAX),
            fail_open: settings.fail_open,
        };
        let child = worker()
            .env(WORKER_ENV, serde_json::to_string(&config)?)
            .env("COMMS_EMAIL_API_KEY", sandbox.api_key())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        children.push(tokio::task::spawn_blocking(move || {
            child.wait_with_output()
        }));
    }
    let mut redis_outage = None;
    if settings.kill_redis
        && let Some(redis) = redis.as_mut()
    {
        tokio::time::sleep(soak.duration / 3).await;
        redis.kill();
        let killed = started.elapsed();
        tokio::time::sleep(soak.duration / 3).await;
        redis.restart()?;
        redis_outage = Some((killed, started.elapsed()));
    }
    let mut total = WorkerReport::default();
    for child in children {
        let output = child.await??;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let line = stdout
            .lines()
            .find_map(|l| l.split_once(REPORT_MARK).map(|(_, report)| report))
            .unwrap_or_default();
        let report: WorkerReport = serde_json::from_str(line)
            .map_err(|e| format!("worker exited with {} and no report ({e})", output.status))?;
        total.sent.extend(report.sent);
        total.lost.extend(report.lost);
        total.call_errors += report.call_errors;
        total.rate_limited += report.rate_limited;
        for (kind, n) in report.errors {
            *total.errors.entry(kind).or_default() += n;
        }
        total.shared_grants += report.shared_grants;
        total.local_grants += report.local_grants;
        total.refused += report.refused;
        total.store_errors += report.store_errors;
    }
    let elapsed = started.elapsed();
    let stats = ClientStats::default();
    stats.call_errors.store(total.call_errors, Ordering::SeqCst);
    stats
        .rate_limited
        .store(total.rate_limited, Ordering::SeqCst);
    if let Ok(mut lost) = stats.lost.lock() {
        *lost = total.lost;
    }
    if let Ok(mut errors) = stats.errors.lock() {
        *errors = total.errors;
    }
    // The check lists the store through a client of its own (local limiter, full limit): the
    // workers are done, so it has the account to itself.
    let checker = EmailClient::builder()
        .base_url(format!("http://{}", proxy.addr))
        .api_key(sandbox.api_key().to_owned())
        .rate_limit(Some(tidings_runtime::ratelimit::RateLimit::new(
            soak.limit, soak.per,
        )))
        .build()?;
    let sent: HashMap<String, String> = total.sent.into_iter().collect();
    let mut soak_settings = soak;
    soak_settings.tasks *= settings.processes;
    let report = soak::verify(
        soak_settings,
        &proxy,
        &checker,
        &run_id,
        sent,
        &stats,
        elapsed,
    )
    .await?;
    sandbox.shutdown().await;
    Ok(SharedReport {
        report,
        processes: settings.processes,
        shared_grants: total.shared_grants,
        local_grants: total.local_grants,
        refused: total.refused,
        store_errors: total.store_errors,
        redis_outage,
    })
}

/// The worker side: when [`WORKER_ENV`] is set, sends for the configured time and prints its
/// report as one JSON line. Returns `Ok(false)` when this process is not a worker.
///
/// # Errors
/// When the configuration is malformed or the client cannot be built.
pub async fn worker_main() -> Result<bool, BoxError> {
    let Ok(config) = std::env::var(WORKER_ENV) else {
        return Ok(false);
    };
    let config: WorkerConfig = serde_json::from_str(&config)?;
    let limiter = RedisLimiter::builder(config.redis_url.clone())
        // Generous for a loaded test machine: a slow answer is not an outage.
        .timeout(Duration::from_secs(1))
        .when_unreachable(if config.fail_open {
            WhenUnreachable::FailOpen
        } else {
            WhenUnreachable::FailClosed
        })
        .build()?;
    let client = EmailClient::builder()
        .env()
        .base_url(config.base_url.clone())
        .rate_limit(Some(tidings_runtime::ratelimit::RateLimit::new(
            config.limit,
            Duration::from_millis(config.per_millis),
        )))
        .limiter(Arc::new(limiter.clone()))
        // Senders queue for the limiter on purpose (a slot may be most of a window away):
        // no total deadline, so a wait is never cut short into a RateLimited error.
        .total_timeout(None)
        .build()?;
    let stats = Arc::new(ClientStats::default());
    let until = Instant::now() + Duration::from_millis(config.millis);
    let mut tasks = Vec::new();
    for task in 0..config.tasks {
        tasks.push(tokio::spawn(soak::sender(
            client.clone(),
            format!("{}-t{task}", config.run_id),
            until,
            stats.clone(),
        )));
    }
    let mut report = WorkerReport::default();
    for task in tasks {
        report.sent.extend(task.await?);
    }
    report.lost = stats.lost.lock().map(|l| l.clone()).unwrap_or_default();
    report.call_errors = stats.call_errors.load(Ordering::SeqCst);
    report.rate_limited = stats.rate_limited.load(Ordering::SeqCst);
    report.errors = stats.errors.lock().map(|e| e.clone()).unwrap_or_default();
    let limiter = limiter.stats();
    report.shared_grants = limiter.shared_grants;
    report.local_grants = limiter.local_grants;
    report.refused = limiter.refused;
    report.store_errors = limiter.store_errors;
    println!("{REPORT_MARK}{}", serde_json::to_string(&report)?);
    Ok(true)
}

fn parse_args() -> Result<SharedSettings, String> {
    let mut settings = SharedSettings {
        soak: Settings::spec(Duration::from_secs(180)),
        processes: 4,
        kill_redis: false,
        fail_open: false,
        redis_url: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--kill-redis" {
            settings.kill_redis = true;
            continue;
        }
        let value = args
            .next()
            .ok_or_else(|| format!("`{flag}` needs a value"))?;
        let bad = || format!("`{flag} {value}` is not a number");
        match flag.as_str() {
            "--minutes" => {
                let minutes: f64 = value.parse().map_err(|_| bad())?;
                if !(minutes.is_finite() && minutes > 0.0 && minutes <= 24.0 * 60.0) {
                    return Err("--minutes must be between 0 and 1440".into());
                }
                settings.soak.duration = Duration::from_secs_f64(minutes * 60.0);
            }
            "--processes" => settings.processes = value.parse().map_err(|_| bad())?,
            "--tasks" => settings.soak.tasks = value.parse().map_err(|_| bad())?,
            "--limit" => settings.soak.limit = value.parse().map_err(|_| bad())?,
            "--per-secs" => {
                settings.soak.per = Duration::from_secs(value.parse().map_err(|_| bad())?);
            }
            "--cut-every" => settings.soak.cut_every = value.parse().map_err(|_| bad())?,
            "--reset-every" => settings.soak.reset_every = value.parse().map_err(|_| bad())?,
            "--fail" => match value.as_str() {
                "open" => settings.fail_open = true,
                "closed" => settings.fail_open = false,
                _ => return Err("--fail takes `open` or `closed`".into()),
            },
            "--redis" => settings.redis_url = Some(value),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    if !(1..=64).contains(&settings.processes) {
        return Err("--processes must be between 1 and 64".into());
    }
    Ok(settings)
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    if worker_main().await? {
        return Ok(());
    }
    let settings = parse_args()?;
    let exe = std::env::current_exe()?;
    let report = run(settings, || Command::new(&exe)).await?;
    println!("{report}");
    match report.report.check() {
        Ok(()) => {
            println!("shared soak passed");
            Ok(())
        }
        Err(failed) => Err(format!("shared soak failed: {failed}").into()),
    }
}
