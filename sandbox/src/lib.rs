//! `tidings-sandbox`: local servers that behave like the email, messaging and realtime services as
//! their specs describe them, in memory, on loopback. Tests and examples start them in-process on
//! free ports; the `tidings-sandbox` binary runs them for other programs.
//!
//! The email and messaging servers are generated from `spec/*.yaml` (a server trait and router
//! per service, see [`server`]), so they cannot drift from the clients; the realtime server speaks
//! the Pusher protocol 7 and its HTTP API.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = tidings_sandbox::Sandbox::start().await?;
//! let email = sandbox.email.client()?;
//! let sent = email
//!     .send_email(&tidings::email::SendEmailRequest::new("ada@example.com", ["grace@example.com"]).text("Hi"))
//!     .await?;
//! println!("{}", sent.id);
//! sandbox.shutdown().await;
//! # Ok(()) }
//! ```

#![forbid(unsafe_code)]

pub mod email;
pub mod inbox;
pub mod messaging;
mod pattern;
pub mod realtime;
mod records;
#[cfg(feature = "serve-spec")]
pub mod served;
pub mod server;
mod settings;
pub mod smtp;
pub mod store;

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

pub use inbox::{Inbox, Retention};

pub use email::{EmailSandbox, EmailSandboxConfig};
pub use messaging::{MessagingSandbox, MessagingSandboxConfig};
pub use realtime::{RealtimeConfig, RealtimeSandbox};
pub use settings::{ServiceConfig, ServiceSettings};

/// Settings of the three sandboxes; each defaults to loopback on free ports.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SandboxConfig {
    /// The email service (REST and SMTP relay).
    pub email: EmailSandboxConfig,
    /// The messaging service.
    pub messaging: MessagingSandboxConfig,
    /// The realtime service.
    pub realtime: RealtimeConfig,
    /// The inbox: what it keeps, where its UI listens, where it persists.
    pub inbox: InboxConfig,
}

/// Settings of the inbox (what the services sent, shown in a web UI and kept for tests).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct InboxConfig {
    /// Where the web UI and its API listen; `127.0.0.1:0` (a free port) by default, `None`
    /// for no UI (the records are still kept and readable from Rust).
    pub ui: Option<SocketAddr>,
    /// How much is kept.
    pub retention: Retention,
    /// A directory to keep the records in (SQLite), so they survive restarts; in memory when
    /// `None` (the default).
    pub data: Option<PathBuf>,
    /// Host names the UI answers to besides IP addresses, `localhost` and `*.localhost`
    /// (any other `Host` is refused: DNS rebinding); none by default.
    pub allowed_hosts: Vec<String>,
}

impl Default for InboxConfig {
    fn default() -> Self {
        InboxConfig {
            ui: Some(SocketAddr::from(([127, 0, 0, 1], 0))),
            retention: Retention::default(),
            data: None,
            allowed_hosts: Vec::new(),
        }
    }
}

/// The three services, running.
pub struct Sandbox {
    /// The email service.
    pub email: EmailSandbox,
    /// The messaging service.
    pub messaging: MessagingSandbox,
    /// The realtime service.
    pub realtime: RealtimeSandbox,
    /// Everything the three sent, for tests ([`Inbox::emails`], [`Inbox::messages`]).
    pub inbox: Inbox,
    ui: Option<inbox::web::InboxServer>,
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sandbox")
            .field("email", &self.email)
            .field("messaging", &self.messaging)
            .field("realtime", &self.realtime)
            .field("inbox", &self.inbox)
            .field("ui", &self.ui)
            .finish()
    }
}

impl Sandbox {
    /// Starts all three with their defaults.
    ///
    /// # Errors
    /// When a listener cannot be bound.
    pub async fn start() -> std::io::Result<Sandbox> {
        Sandbox::start_with(SandboxConfig::default()).await
    }

    /// Starts all three with `config`.
    ///
    /// # Errors
    /// When a listener cannot be bound, or the data directory cannot be opened.
    pub async fn start_with(config: SandboxConfig) -> std::io::Result<Sandbox> {
        let mut config = config;
        let retention = config.inbox.retention;
        let inbox = match &config.inbox.data {
            Some(dir) => store::Db::open(dir)
                .map_err(std::io::Error::other)
                .and_then(|db| Inbox::persistent(retention, db).map_err(std::io::Error::other))?,
            None => Inbox::in_memory(retention),
        };
        config.email.service.inbox = Some(inbox.clone());
        config.messaging.service.inbox = Some(inbox.clone());
        config.realtime.inbox = Some(inbox.clone());
        let email = EmailSandbox::start(config.email).await?;
        let messaging = MessagingSandbox::start(config.messaging).await?;
        let realtime = RealtimeSandbox::start(config.realtime).await?;
        let ui = match config.inbox.ui {
            Some(addr) => {
                let services = inbox::web::Services {
                    realtime: Some(std::sync::Arc::new(realtime.view())),
                    realtime_client: realtime.client().ok(),
                    email_client: email.client().ok(),
                    inbound: Some(std::sync::Arc::new(messaging.inbound_handle())),
                    info: serde_json::json!({
                        "email": email.base_url(),
                        "smtp": email.smtp_addr().map(|a| a.to_string()),
                        "messaging": messaging.base_url(),
                        "realtime": realtime.http_url(),
                        "realtime_ws": realtime.ws_url(),
                    }),
                };
                Some(
                    inbox::web::InboxServer::start(
                        inbox.clone(),
                        services,
                        addr,
                        &config.inbox.allowed_hosts,
                    )
                    .await?,
                )
            }
            None => None,
        };
        Ok(Sandbox {
            email,
            messaging,
            realtime,
            inbox,
            ui,
        })
    }

    /// The web inbox's URL (`http://127.0.0.1:PORT/`), when it runs.
    pub fn inbox_url(&self) -> Option<String> {
        self.ui.as_ref().map(inbox::web::InboxServer::url)
    }

    /// Where each service listens, its test credentials, and the environment variables that
    /// point the generated clients' `from_env()` at it. These are sandbox-only test values.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        let (e, m, r) = (&self.email, &self.messaging, &self.realtime);
        out.push_str(&format!("email      {}\n", e.base_url()));
        if let Some(smtp) = e.smtp_addr() {
            out.push_str(&format!(
                "email SMTP {smtp} (STARTTLS, user `apikey`, password the email API key)\n"
            ));
        }
        out.push_str(&format!("messaging  {}\n", m.base_url()));
        out.push_str(&format!(
            "realtime   {} (WebSocket {})\n",
            r.http_url(),
            r.ws_url()
        ));
        if let Some(url) = self.inbox_url() {
            out.push_str(&format!("inbox UI   {url}\n"));
        }
        out.push('\n');
        out.push_str("# test credentials, for the sandbox only:\n");
        for (name, value) in self.env() {
            out.push_str(&format!("export {name}={value}\n"));
        }
        out
    }

    /// The environment that makes `EmailClient::from_env()` and the others use this sandbox.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        let (e, m, r) = (&self.email, &self.messaging, &self.realtime);
        let (email, messaging, realtime) = (
            &tidings::email::SERVICE,
            &tidings::messaging::SERVICE,
            &tidings::realtime::SERVICE,
        );
        // Every name comes from the specs (through the generated `SERVICE` data).
        vec![
            (email.base_url_env, e.base_url().to_owned()),
            (credential_env(email, "api_key"), e.api_key().to_owned()),
            (messaging.base_url_env, m.base_url().to_owned()),
            (credential_env(messaging, "api_key"), m.api_key().to_owned()),
            (
                tidings::messaging::WEBHOOK_SECRET_ENV,
                m.webhook_secret().to_owned(),
            ),
            (realtime.base_url_env, r.http_url()),
            (credential_env(realtime, "app_id"), r.app_id().to_owned()),
            (credential_env(realtime, "key"), r.key().to_owned()),
            (credential_env(realtime, "secret"), r.secret().to_owned()),
        ]
    }

    /// Stops all three and the inbox UI, then waits until the inbox's changes are written to
    /// its data directory (when it has one) and releases the directory.
    pub async fn shutdown(self) {
        if let Some(ui) = self.ui {
            ui.shutdown().await;
        }
        self.email.shutdown().await;
        self.messaging.shutdown().await;
        self.realtime.shutdown().await;
        let inbox = self.inbox;
        // The writer thread may have a queue to write: wait for it off the async workers.
        let _ = tokio::task::spawn_blocking(move || inbox.close()).await;
    }
}

/// The environment variable a service's spec names for one of its credentials (empty when the
/// spec has no such credential, which `sandbox_env_names_come_from_the_specs` rules out).
fn credential_env(service: &tidings_runtime::spec::ServiceSpec, name: &str) -> &'static str {
    service
        .credentials
        .iter()
        .find(|c| c.name == name)
        .map_or("", |c| c.env)
}
