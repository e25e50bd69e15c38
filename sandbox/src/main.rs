//! `tidings-sandbox`: runs the local stand-ins of the three services and the web inbox on
//! loopback, prints their URLs and test credentials, and runs until Ctrl-C. With `--data DIR`
//! the inbox and the keys are kept in SQLite and survive restarts.
//!
//! ```console
//! $ cargo run -p tidings-sandbox -- --help
//! $ cargo run -p tidings-sandbox -- --data .sandbox --ui-port 8025 --email-key sk_test_1
//! ```

#![forbid(unsafe_code)]

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use tidings_sandbox::served::ServeConfig;
use tidings_sandbox::server::{RateLimit, WebhookTarget, generate_secret};
use tidings_sandbox::store::Db;
use tidings_sandbox::{Retention, Sandbox, SandboxConfig};

/// Local stand-ins of the email, messaging and realtime services, with a web inbox of
/// everything they send. Ports are free ones unless given; keys are made at start unless
/// given (or kept in `--data`). Every value printed is a sandbox-only test credential.
#[derive(Debug, Parser)]
#[command(
    name = "tidings-sandbox",
    version,
    after_help = "Failures on demand: an email to an address starting with `bounce` ends \
                  `bounced` (webhook and hard-bounce suppression); a message to a number \
                  ending in `0000` ends `undeliverable` (voice: `unanswered`); the header \
                  `X-Sandbox-Fault: 429|500|503|timeout` makes an email or messaging call \
                  fail that way; an SMTP recipient `smtp-<code>@...` (450-452, 550-554) is \
                  refused at RCPT with that reply; the realtime event `sandbox:close` with \
                  `{\"code\": 4200}` (4000-4299) closes the connection with that code; \
                  with `--spec`, a check of a code (Twilio Verify's `VerificationCheck`) \
                  passes with the digits counting up from 1 (`123456`, as long as the code) \
                  or the code the verification was started with, and fails with any other.\n\
                  Logs go to stderr (RUST_LOG, `info` by default)."
)]
struct Cli {
    /// Address every listener binds (loopback by default) but the web inbox's, which stays on
    /// loopback unless `--ui-host` says otherwise.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// Address the web inbox binds: loopback by default, whatever `--host` says. The inbox has
    /// no login and shows every captured email (password-reset links among them): give a
    /// non-loopback address only where no one else can reach it (inside a container).
    #[arg(long, value_name = "ADDR")]
    ui_host: Option<IpAddr>,
    /// Email REST API port.
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    email_port: u16,
    /// Email SMTP relay port.
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    smtp_port: u16,
    /// Turn the SMTP relay off.
    #[arg(long)]
    no_smtp: bool,
    /// Messaging REST API port.
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    messaging_port: u16,
    /// Realtime port (WebSocket and HTTP API).
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    realtime_port: u16,
    /// Web inbox port.
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    ui_port: u16,
    /// Do not serve the web inbox.
    #[arg(long)]
    no_ui: bool,
    /// The email API key to accept (REST and SMTP).
    #[arg(
        long,
        value_name = "KEY",
        env = "COMMS_SANDBOX_EMAIL_KEY",
        hide_env_values = true
    )]
    email_key: Option<String>,
    /// The messaging API key to accept.
    #[arg(
        long,
        value_name = "KEY",
        env = "COMMS_SANDBOX_MESSAGING_KEY",
        hide_env_values = true
    )]
    messaging_key: Option<String>,
    /// The realtime app id.
    #[arg(long, value_name = "ID")]
    realtime_app_id: Option<String>,
    /// The realtime app key.
    #[arg(long, value_name = "KEY")]
    realtime_key: Option<String>,
    /// The realtime app secret.
    #[arg(
        long,
        value_name = "SECRET",
        env = "COMMS_SANDBOX_REALTIME_SECRET",
        hide_env_values = true
    )]
    realtime_secret: Option<String>,
    /// Where every service posts its webhooks (each service's own flag wins); each `--spec`
    /// spec delivers its own there too (`POST /__sandbox/webhooks/<name>` on its port).
    #[arg(long, value_name = "URL")]
    webhook_url: Option<String>,
    /// Where the email service posts its events (signed with a printed `whsec_` secret).
    #[arg(long, value_name = "URL")]
    email_webhook_url: Option<String>,
    /// Where the messaging service posts its events (signed with a printed `whsec_` secret).
    #[arg(long, value_name = "URL")]
    messaging_webhook_url: Option<String>,
    /// Where the realtime service posts its webhooks (signed with the app secret).
    #[arg(long, value_name = "URL")]
    realtime_webhook_url: Option<String>,
    /// A host name the sandbox answers to besides IP addresses and `localhost` (repeat for
    /// more): the inbox, the services' APIs and every `--spec`; any other `Host` header is
    /// refused with 403 (DNS rebinding). E.g. the name an app in another container uses.
    #[arg(long, value_name = "NAME")]
    allowed_host: Vec<String>,
    /// Keep the inbox, the keys, the services' state and every `--spec`'s resources and
    /// credentials in SQLite in this directory (created when missing, readable by you only;
    /// an existing one others can read is warned about); a change is answered only once it is
    /// stored.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Most records of each kind the inbox keeps (the oldest are pruned).
    #[arg(long, value_name = "N", default_value_t = Retention::default().max_records)]
    retention: usize,
    /// Most MiB of emails the inbox keeps in memory (sources and bodies), and the email API
    /// (bodies) and the messaging API (messages) each; the oldest are pruned past it,
    /// whatever `--retention` says.
    #[arg(long, value_name = "MIB", default_value_t = tidings_sandbox::inbox::DEFAULT_MAX_BYTES / (1024 * 1024))]
    retention_mib: usize,
    /// Prune records older than this many hours.
    #[arg(long, value_name = "HOURS")]
    retention_hours: Option<u64>,
    /// The email and messaging APIs' rate limit, and that of every `--spec`: `off` (bulk
    /// loads, benchmarks), or `N/s`, `N/min` (each spec's own limit when not given).
    #[arg(long, value_name = "off|N/s|N/min", value_parser = parse_rate_limit)]
    rate_limit: Option<RateSetting>,
    /// Print only the `export NAME=value` lines.
    #[arg(long, conflicts_with = "json")]
    quiet: bool,
    /// Print the URLs and credentials as one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    served: tidings_sandbox::served::SpecArgs,
}

/// `--rate-limit`: lifted, or a limit of its own.
#[derive(Debug, Clone, Copy)]
enum RateSetting {
    Off,
    Limit(RateLimit),
}

fn parse_rate_limit(text: &str) -> Result<RateSetting, String> {
    if text.eq_ignore_ascii_case("off") {
        return Ok(RateSetting::Off);
    }
    let (n, per) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}`: give `off`, `N/s` or `N/min`"))?;
    let n: u32 = n
        .trim()
        .parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("`{n}`: a whole number of requests, at least 1"))?;
    let per = match per.trim() {
        "s" | "sec" => Duration::from_secs(1),
        "min" | "m" => Duration::from_secs(60),
        other => return Err(format!("`{other}`: the window is `s` or `min`")),
    };
    Ok(RateSetting::Limit(RateLimit::new(n, per)))
}

/// The keys in effect: from the flags, else from `--data`, else made now.
struct Keys {
    email: String,
    messaging: String,
    email_webhook_secret: String,
    messaging_webhook_secret: String,
    realtime_app_id: String,
    realtime_key: String,
    realtime_secret: String,
}

fn sandbox_key() -> String {
    format!("sk_sandbox_{}", uuid_like())
}

fn uuid_like() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn keys(cli: &Cli, db: Option<&Db>) -> Result<Keys, String> {
    let stored = |name: &str| -> Result<Option<String>, String> {
        match db {
            Some(db) => db.key(name).map_err(|e| e.to_string()),
            None => Ok(None),
        }
    };
    let pick =
        |name: &str, flag: &Option<String>, make: &dyn Fn() -> String| -> Result<String, String> {
            let value = match flag {
                Some(value) => value.clone(),
                None => stored(name)?.unwrap_or_else(make),
            };
            if let Some(db) = db {
                db.set_key(name, &value).map_err(|e| e.to_string())?;
            }
            Ok(value)
        };
    let defaults = tidings_sandbox::RealtimeConfig::default();
    Ok(Keys {
        email: pick("email_api_key", &cli.email_key, &sandbox_key)?,
        messaging: pick("messaging_api_key", &cli.messaging_key, &sandbox_key)?,
        email_webhook_secret: pick("email_webhook_secret", &None, &generate_secret)?,
        messaging_webhook_secret: pick("messaging_webhook_secret", &None, &generate_secret)?,
        realtime_app_id: pick("realtime_app_id", &cli.realtime_app_id, &|| {
            defaults.app_id.clone()
        })?,
        realtime_key: pick("realtime_key", &cli.realtime_key, &|| defaults.key.clone())?,
        realtime_secret: realtime_secret(cli, db, &|| defaults.secret.expose().to_owned())?,
    })
}

/// The realtime app secret earlier builds gave every sandbox (public: it was documented).
const PUBLIC_OLD_SECRET: &str = "sandbox-secret";

/// The realtime app secret: the flag's, else the one the data directory kept, else a new
/// random one. Never a value others know: a page on any origin may open the realtime
/// WebSocket, and with the secret it could sign its own way into private and presence
/// channels. A data directory that kept the public secret of earlier builds gets a new one.
fn realtime_secret(
    cli: &Cli,
    db: Option<&Db>,
    make: &dyn Fn() -> String,
) -> Result<String, String> {
    const NAME: &str = "realtime_secret";
    let secret = match (&cli.realtime_secret, db) {
        (Some(given), _) => given.clone(),
        (None, Some(db)) => match db.key(NAME).map_err(|e| e.to_string())? {
            Some(kept) if kept != PUBLIC_OLD_SECRET => kept,
            Some(_) => {
                tracing::info!(
                    "the realtime app secret kept in --data was the public one of earlier builds; a new one is made"
                );
                make()
            }
            None => make(),
        },
        (None, None) => make(),
    };
    if let Some(db) = db {
        db.set_key(NAME, &secret).map_err(|e| e.to_string())?;
    }
    Ok(secret)
}

/// The inbox's address: `--ui-host`, else `--host` when it is loopback, else loopback (of the
/// same family).
fn ui_host(cli: &Cli) -> IpAddr {
    match cli.ui_host {
        Some(host) => host,
        None if cli.host.is_loopback() => cli.host,
        None if cli.host.is_ipv6() => IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
        None => IpAddr::V4(Ipv4Addr::LOCALHOST),
    }
}

/// Says, on stderr, what listens beyond this machine.
fn warn_about_exposure(cli: &Cli) {
    if !cli.host.is_loopback() {
        tracing::warn!(
            host = %cli.host,
            "the APIs listen on an address other machines may reach (each service checks its key; \
             a --spec's public operations need none); the inbox stays on loopback unless \
             --ui-host says otherwise"
        );
    }
    let ui = ui_host(cli);
    if !cli.no_ui && !ui.is_loopback() {
        tracing::warn!(
            ui_host = %ui,
            "the inbox listens on an address other machines may reach, and it has no login: \
             whoever reaches it reads every captured email"
        );
    }
}

fn config(cli: &Cli, keys: &Keys) -> SandboxConfig {
    let mut config = SandboxConfig::default();
    let any = cli.webhook_url.clone();
    config.email.service.host = cli.host;
    config.email.service.port = cli.email_port;
    config.email.service.api_key = keys.email.clone();
    if cli.no_smtp {
        config.email.smtp = None;
    } else if let Some(smtp) = config.email.smtp.as_mut() {
        smtp.port = cli.smtp_port;
    }
    if let Some(url) = cli.email_webhook_url.clone().or(any.clone()) {
        config.email.service.webhook = Some(WebhookTarget::new(url, &keys.email_webhook_secret));
    }
    if let Some(setting) = cli.rate_limit {
        let limit = match setting {
            RateSetting::Off => None,
            RateSetting::Limit(limit) => Some(limit),
        };
        config.email.service.rate_limit = limit;
        config.messaging.service.rate_limit = limit;
    }
    config.messaging.service.host = cli.host;
    config.messaging.service.port = cli.messaging_port;
    config.messaging.service.api_key = keys.messaging.clone();
    // The account's secret signs message webhooks, also those to a message's own webhook_url.
    let messaging_url = cli.messaging_webhook_url.clone().or(any.clone());
    config.messaging.service.webhook = Some(WebhookTarget::new(
        messaging_url.clone().unwrap_or_default(),
        &keys.messaging_webhook_secret,
    ));
    if messaging_url.is_none() {
        config.messaging.service.webhook = None;
    }
    config.realtime = config
        .realtime
        .addr(SocketAddr::new(cli.host, cli.realtime_port))
        .credentials(
            keys.realtime_app_id.clone(),
            keys.realtime_key.clone(),
            keys.realtime_secret.clone(),
        );
    if let Some(url) = cli.realtime_webhook_url.clone().or(any) {
        config.realtime = config.realtime.webhook_url(url);
    }
    config.inbox.ui = (!cli.no_ui).then(|| SocketAddr::new(ui_host(cli), cli.ui_port));
    config.inbox.retention = Retention::default()
        .max_records(cli.retention)
        .max_bytes(cli.retention_mib.saturating_mul(1024 * 1024))
        .max_age(
            cli.retention_hours
                .map(|h| Duration::from_secs(h.saturating_mul(3600))),
        );
    // The email API keeps bodies within the same budget as the inbox.
    config.email.max_email_bytes = cli
        .retention_mib
        .saturating_mul(1024 * 1024)
        .max(1024 * 1024);
    // And the messaging API its messages.
    config.messaging.max_message_bytes = config.email.max_email_bytes;
    config.inbox.data = cli.data.clone();
    config.inbox.allowed_hosts.clone_from(&cli.allowed_host);
    config
        .email
        .service
        .limits
        .allowed_hosts
        .clone_from(&cli.allowed_host);
    config
        .messaging
        .service
        .limits
        .allowed_hosts
        .clone_from(&cli.allowed_host);
    config
        .realtime
        .limits
        .allowed_hosts
        .clone_from(&cli.allowed_host);
    config
}

/// Writes the SMTP relay's certificate: in `--data` when given, else in a new file of the
/// temporary directory under a name no one can guess ahead (created exclusively: a file or a
/// link another user of the machine put there beforehand is never written through or
/// trusted). Its path.
fn write_certificate(cli: &Cli, port: u16, pem: &str) -> std::io::Result<PathBuf> {
    if let Some(dir) = &cli.data {
        let path = dir.join("smtp-certificate.pem");
        std::fs::write(&path, pem)?;
        return Ok(path);
    }
    let path = std::env::temp_dir().join(format!(
        "tidings-sandbox-smtp-{port}-{:016x}.pem",
        rand::random::<u64>()
    ));
    // `create_new`: O_EXCL, which neither opens an existing file nor follows a link.
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)?;
    std::io::Write::write_all(&mut file, pem.as_bytes())?;
    Ok(path)
}

/// How an app outside this process reaches the SMTP relay: host, port, TLS mode and the file
/// holding the relay's self-signed certificate (written now, so the app can trust it instead of
/// turning certificate checks off). Empty without the relay.
fn smtp_env(sandbox: &Sandbox, cli: &Cli) -> Result<Vec<(&'static str, String)>, String> {
    let (Some(addr), Some(pem)) = (
        sandbox.email.smtp_addr(),
        sandbox.email.smtp_certificate_pem(),
    ) else {
        return Ok(Vec::new());
    };
    let path = write_certificate(cli, addr.port(), pem).map_err(|e| {
        format!(
            "cannot write the SMTP certificate (into {}): {e}",
            cli.data
                .clone()
                .unwrap_or_else(std::env::temp_dir)
                .display()
        )
    })?;
    Ok(vec![
        // The certificate names `localhost`, the host name and the bound address.
        ("COMMS_EMAIL_SMTP_HOST", "localhost".to_owned()),
        ("COMMS_EMAIL_SMTP_PORT", addr.port().to_string()),
        ("COMMS_EMAIL_SMTP_TLS", "starttls".to_owned()),
        ("COMMS_EMAIL_SMTP_CA_FILE", path.display().to_string()),
    ])
}

/// Every URL and credential, for `--json`.
fn describe_json(
    sandbox: &Sandbox,
    cli: &Cli,
    keys: &Keys,
    smtp: &[(&'static str, String)],
) -> serde_json::Value {
    let env: serde_json::Map<String, serde_json::Value> = sandbox
        .env()
        .into_iter()
        .chain(smtp.iter().cloned())
        .map(|(k, v)| (k.to_owned(), v.into()))
        .collect();
    serde_json::json!({
        "email": sandbox.email.base_url(),
        "smtp": sandbox.email.smtp_addr().map(|a| a.to_string()),
        "messaging": sandbox.messaging.base_url(),
        "realtime": sandbox.realtime.http_url(),
        "realtime_ws": sandbox.realtime.ws_url(),
        "inbox": sandbox.inbox_url(),
        "data": cli.data.as_ref().map(|d| d.display().to_string()),
        "env": env,
        "email_webhook_secret": email_webhook_secret(cli, keys),
    })
}

fn email_webhook_secret<'k>(cli: &Cli, keys: &'k Keys) -> Option<&'k str> {
    (cli.email_webhook_url.is_some() || cli.webhook_url.is_some())
        .then_some(keys.email_webhook_secret.as_str())
}

/// The log filter when `RUST_LOG` is unset: the sandbox's own events from `info`, everything
/// else from `warn`.
const DEFAULT_LOG: &str = "tidings_sandbox=info,tidings_runtime=warn,warn";

/// Logs to stderr (stdout carries the `export` lines), one line per event, filtered by
/// `RUST_LOG` (`RUST_LOG=tidings_sandbox=debug` for every connection and webhook attempt).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_LOG));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .try_init();
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging();
    let db = match &cli.data {
        Some(dir) => match Db::open(dir) {
            Ok(db) => Some(db),
            Err(e) => {
                tracing::error!("cannot open the data directory: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let keys = match keys(&cli, db.as_ref()) {
        Ok(keys) => keys,
        Err(e) => {
            tracing::error!("cannot keep the keys in the data directory: {e}");
            return ExitCode::FAILURE;
        }
    };
    drop(db);
    warn_about_exposure(&cli);
    let sandbox = match Sandbox::start_with(config(&cli, &keys)).await {
        Ok(sandbox) => sandbox,
        Err(e) => {
            tracing::error!("cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served_limit = cli.rate_limit.map(|setting| match setting {
        RateSetting::Off => None,
        RateSetting::Limit(limit) => Some(limit),
    });
    let mut serve = ServeConfig::default();
    serve.addr = SocketAddr::new(cli.host, 0);
    serve.rate_limit = served_limit;
    serve.data.clone_from(&cli.data);
    serve.webhook_url.clone_from(&cli.webhook_url);
    serve.limits.allowed_hosts.clone_from(&cli.allowed_host);
    // Shown in the inbox's page, so recorded only when it is served.
    serve.inbox = (!cli.no_ui).then(|| sandbox.inbox.clone());
    let served = match cli.served.start(&serve).await {
        Ok(served) => served,
        Err(e) => {
            tracing::error!("cannot serve --spec: {e}");
            return ExitCode::FAILURE;
        }
    };
    tracing::info!(
        email = sandbox.email.base_url(),
        smtp = ?sandbox.email.smtp_addr(),
        messaging = sandbox.messaging.base_url(),
        realtime = %sandbox.realtime.http_url(),
        inbox = ?sandbox.inbox_url(),
        data = ?cli.data,
        "tidings-sandbox started"
    );
    // Listening for Ctrl-C and SIGTERM before anything is printed: a script that stops the
    // sandbox as soon as it reads the URLs gets the graceful stop (queued writes finished, the
    // temporary certificate removed), never the signal's default of dying on the spot.
    let stop = stop_requested();
    let smtp = match smtp_env(&sandbox, &cli) {
        Ok(smtp) => smtp,
        Err(e) => {
            tracing::error!("{e}");
            sandbox.shutdown().await;
            return ExitCode::FAILURE;
        }
    };
    let mut secret_line = email_webhook_secret(&cli, &keys)
        .map(|s| format!("export COMMS_EMAIL_WEBHOOK_SECRET={s}\n"))
        .unwrap_or_default();
    for (name, value) in &smtp {
        secret_line.push_str(&format!("export {name}={value}\n"));
    }
    if cli.json {
        let mut json = describe_json(&sandbox, &cli, &keys, &smtp);
        json["specs"] = served.iter().map(|s| s.to_json()).collect();
        println!("{json}");
    } else if cli.quiet {
        for (name, value) in sandbox.env() {
            println!("export {name}={value}");
        }
        print!("{secret_line}");
        for line in served.iter().flat_map(|s| s.export_lines()) {
            println!("{line}");
        }
    } else {
        println!(
            "tidings-sandbox is running (Ctrl-C to stop){}\n\n{}{secret_line}",
            cli.data
                .as_ref()
                .map(|d| format!(", keeping its data in {}", d.display()))
                .unwrap_or_default(),
            sandbox.describe()
        );
        for s in &served {
            println!(
                "\n{} (served from its spec, {} operations): {}",
                s.name(),
                s.operations(),
                s.base_url()
            );
            for line in s.export_lines() {
                println!("{line}");
            }
            let hooks = s.webhooks();
            if !hooks.is_empty() {
                println!(
                    "# webhooks {}: POST {}{}<name> sends one to {}",
                    hooks.join(", "),
                    s.base_url(),
                    tidings_sandbox::served::TRIGGER_PREFIX,
                    cli.webhook_url
                        .as_deref()
                        .unwrap_or("--webhook-url (not given)")
                );
            }
        }
    }
    stop.await;
    tracing::info!("stopping: finishing open requests and writing what is queued");
    for s in served {
        s.shutdown().await;
    }
    sandbox.shutdown().await;
    if cli.data.is_none()
        && let Some((_, path)) = smtp.iter().find(|(k, _)| *k == "COMMS_EMAIL_SMTP_CA_FILE")
    {
        let _ = std::fs::remove_file(path);
    }
    tracing::info!("stopped");
    ExitCode::SUCCESS
}

/// Ctrl-C, or SIGTERM where there is one (a service manager or a test stopping it).
/// Resolves on Ctrl-C or SIGTERM; the handlers are registered when this is called (not when
/// the future is first awaited).
#[cfg(unix)]
fn stop_requested() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{SignalKind, signal};
    let term = signal(SignalKind::terminate()).ok();
    let interrupt = signal(SignalKind::interrupt()).ok();
    async move {
        match (term, interrupt) {
            (Some(mut term), Some(mut interrupt)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = interrupt.recv() => {}
                }
            }
            (Some(mut one), None) | (None, Some(mut one)) => {
                one.recv().await;
            }
            (None, None) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
}

/// Resolves on Ctrl-C.
#[cfg(not(unix))]
fn stop_requested() -> impl std::future::Future<Output = ()> {
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}
