//! SMTP relay glue (feature `smtp`): [`SmtpRelay`] sends a MIME message through a service's
//! SMTP relay with `lettre` (tokio, rustls), authenticated with the service's API key, and maps
//! the relay's answers onto [`Error`]. Service crates turn their typed requests into messages by
//! implementing [`SmtpMessage`].
//!
//! How replies map:
//!
//! | relay answer | [`Error`] | [`Error::is_retryable`] |
//! |---|---|---|
//! | 4xx (throttling, temporary failure) | [`Error::Smtp`] | yes; retried by the relay per its [`RetryPolicy`] |
//! | 5xx (rejected for good; 530, 534, 535, 538: the credentials) | [`Error::Smtp`] | no |
//! | TLS handshake or certificate failure, STARTTLS not offered | [`Error::Config`] | no |
//! | connection refused or broken | [`Error::Transport`] | yes |
//! | no answer in time | [`Error::Timeout`] | yes |
//!
//! A reply is an [`SmtpReply`] ([`Error::smtp_reply`]): the reply code (e.g. 550), the enhanced
//! status code (e.g. `"5.1.1"`) and the text, judged by SMTP's rules (RFC 5321 section 4.2.1:
//! 4xx transient, 5xx permanent), never as an HTTP status.
//!
//! Connections are pooled: at most [`SmtpRelayBuilder::max_connections`] are open at once
//! (sends beyond that wait for one), each is kept for the next message until it has been idle
//! for [`SmtpRelayBuilder::idle_timeout`], and one the relay closed meanwhile is replaced
//! without the caller noticing. The message is then sent again on the new connection, once,
//! and only when the old one failed before the message content went out, so the relay cannot
//! have accepted it.

mod failure;
mod pool;
mod tls;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

pub use lettre;

use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, TlsParameters};
use tracing::Instrument as _;

use crate::error::{CallContext, SmtpReply, TimeoutKind};

/// Why a send that timed out or broke is not tried again.
const NOT_REPEATED: &str =
    "not retried: the relay may have taken the message, and a repeat could deliver it twice";
use crate::Error;
use crate::retry::RetryPolicy;
use crate::retry::backoff;
use crate::secret::Secret;
use crate::spec::RetrySpec;

/// The SMTP user name relays of this kind expect; the password is the API key.
pub const DEFAULT_USERNAME: &str = "apikey";

/// Most connections open to the relay at once, unless set with
/// [`SmtpRelayBuilder::max_connections`].
pub const DEFAULT_MAX_CONNECTIONS: usize = crate::spec::defaults::SMTP_MAX_CONNECTIONS;

/// How long an unused connection is kept open, unless set with
/// [`SmtpRelayBuilder::idle_timeout`].
pub const DEFAULT_IDLE_TIMEOUT: Duration =
    Duration::from_millis(crate::spec::defaults::SMTP_IDLE_TIMEOUT_MS);

/// The largest CA file [`SmtpRelay::from_vars`] reads, in bytes (1 MiB: a bundle of several
/// hundred certificates).
pub const MAX_CA_FILE_BYTES: u64 = 1024 * 1024;

/// Reads the PEM file `path` named by the variable `variable`, refusing one above
/// [`MAX_CA_FILE_BYTES`] without reading it whole.
fn read_ca_file(variable: &str, path: &str) -> Result<Vec<u8>, Error> {
    use std::io::Read as _;
    let cannot = |why: String| Error::config(format!("{variable} (`{path}`): {why}"));
    let file = std::fs::File::open(path).map_err(|e| cannot(format!("cannot open it: {e}")))?;
    let mut pem = Vec::new();
    file.take(MAX_CA_FILE_BYTES + 1)
        .read_to_end(&mut pem)
        .map_err(|e| cannot(format!("cannot read it: {e}")))?;
    if pem.len() as u64 > MAX_CA_FILE_BYTES {
        return Err(cannot(format!(
            "it is larger than {MAX_CA_FILE_BYTES} bytes; a CA file holds a few certificates"
        )));
    }
    Ok(pem)
}

/// The largest [`SmtpRelayBuilder::max_connections`] accepted.
pub const MAX_CONNECTIONS_LIMIT: usize = 1024;

/// How the connection to the relay is secured. There is deliberately no plaintext mode: the
/// API key is the password.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum SmtpTls {
    /// Plain connection upgraded with `STARTTLS` before authenticating (port 587). Refuses
    /// relays that do not offer it.
    #[default]
    StartTls,
    /// TLS from the first byte (port 465).
    Implicit,
}

impl SmtpTls {
    /// The usual port for this mode: 587 or 465.
    pub fn default_port(self) -> u16 {
        match self {
            SmtpTls::StartTls => 587,
            SmtpTls::Implicit => 465,
        }
    }
}

/// A typed request that can be sent through an SMTP relay.
///
/// Implemented by service crates for their send requests (e.g. `tidings::email::SendEmailRequest`)
/// and here for ready-made [`lettre::Message`]s.
pub trait SmtpMessage {
    /// Builds the MIME message, with `idempotency_key` carried in whatever header the service
    /// reads. Called once per send, so every retry carries the same key.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when the request cannot be expressed as a message.
    fn to_smtp_message(&self, idempotency_key: &str) -> Result<lettre::Message, Error>;
}

impl SmtpMessage for lettre::Message {
    fn to_smtp_message(&self, _idempotency_key: &str) -> Result<lettre::Message, Error> {
        Ok(self.clone())
    }
}

/// The relay's positive answer to a message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SmtpReceipt {
    /// The reply code, e.g. 250.
    pub code: u16,
    /// The reply text, lines joined by newlines, e.g. `2.0.0 Ok: queued as 4Bq`.
    pub message: String,
    /// The idempotency key the message carried.
    pub idempotency_key: String,
}

/// Settings of an [`SmtpRelay`]; from [`SmtpRelay::builder`].
#[derive(Clone)]
pub struct SmtpRelayBuilder {
    host: String,
    port: Option<u16>,
    tls: SmtpTls,
    username: String,
    password: Option<Secret>,
    timeout: Duration,
    retry: RetryPolicy,
    extra_roots_pem: Vec<Vec<u8>>,
    accept_invalid_certs: bool,
    max_connections: usize,
    idle_timeout: Duration,
}

impl fmt::Debug for SmtpRelayBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpRelayBuilder")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .field("username", &self.username)
            .field("password", &self.password)
            .field("timeout", &self.timeout)
            .field("extra_roots", &self.extra_roots_pem.len())
            .field("accept_invalid_certs", &self.accept_invalid_certs)
            .field("max_connections", &self.max_connections)
            .field("idle_timeout", &self.idle_timeout)
            .finish()
    }
}

impl SmtpRelayBuilder {
    /// The port; the TLS mode's usual one (587 or 465) when not set.
    pub fn port(mut self, port: u16) -> Self {
        self.port = Some(port);
        self
    }

    /// How the connection is secured (STARTTLS by default).
    pub fn tls(mut self, tls: SmtpTls) -> Self {
        self.tls = tls;
        self
    }

    /// The API key, sent as the SMTP password.
    pub fn api_key(mut self, key: impl Into<Secret>) -> Self {
        self.password = Some(key.into());
        self
    }

    /// The SMTP user name ([`DEFAULT_USERNAME`] unless the relay wants another).
    pub fn username(mut self, username: impl Into<String>) -> Self {
        self.username = username.into();
        self
    }

    /// Timeout of one attempt: connecting, TLS, authenticating and the whole transaction;
    /// 60 s by default.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How transient (4xx) answers are retried; [`RetrySpec::DEFAULT`] by default (3 attempts,
    /// full-jitter backoff). Only 4xx answers are retried: the relay has then refused the
    /// message, so sending it again cannot deliver it twice.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Also trusts this CA certificate (PEM), beside the built-in web roots: for a relay with a
    /// private CA, or a test relay.
    pub fn add_root_certificate_pem(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.extra_roots_pem.push(pem.into());
        self
    }

    /// Accepts any certificate, self-signed or expired included. For tests against a local
    /// relay only: it lets anyone on the path read the API key.
    pub fn danger_accept_invalid_certs(mut self, accept: bool) -> Self {
        self.accept_invalid_certs = accept;
        self
    }

    /// Most connections open to the relay at once ([`DEFAULT_MAX_CONNECTIONS`] by default,
    /// at most [`MAX_CONNECTIONS_LIMIT`]). Sends beyond it wait for a connection to come free
    /// (within their [`timeout`](Self::timeout)). Relays often cap connections per client.
    pub fn max_connections(mut self, max: usize) -> Self {
        self.max_connections = max;
        self
    }

    /// How long a connection is kept open without a message before it is closed
    /// ([`DEFAULT_IDLE_TIMEOUT`] by default). [`Duration::ZERO`] turns reuse off: every
    /// message then opens, authenticates and closes a connection of its own.
    pub fn idle_timeout(mut self, idle: Duration) -> Self {
        self.idle_timeout = idle;
        self
    }

    /// The relay.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when the host or the API key is missing, a certificate does not
    /// parse, or [`max_connections`](Self::max_connections) is 0 or above
    /// [`MAX_CONNECTIONS_LIMIT`].
    pub fn build(self) -> Result<SmtpRelay, Error> {
        if self.host.trim().is_empty() {
            return Err(Error::config("the SMTP relay host is empty"));
        }
        if !(1..=MAX_CONNECTIONS_LIMIT).contains(&self.max_connections) {
            return Err(Error::config(format!(
                "SMTP relay max_connections is {}; it must be 1 to {MAX_CONNECTIONS_LIMIT}",
                self.max_connections
            )));
        }
        let password = match &self.password {
            Some(key) if !key.is_empty() => key.clone(),
            _ => {
                return Err(Error::config(
                    "the SMTP relay needs the API key (SmtpRelayBuilder::api_key)",
                ));
            }
        };
        let mut params = TlsParameters::builder(self.host.clone());
        for pem in &self.extra_roots_pem {
            // lettre accepts PEM text without a certificate in it (trusting nothing).
            crate::trust::check_pem(pem)?;
            let cert = Certificate::from_pem(pem)
                .map_err(|e| Error::config(format!("a trusted certificate does not parse: {e}")))?;
            params = params.add_root_certificate(cert);
        }
        let params = params
            .dangerous_accept_invalid_certs(self.accept_invalid_certs)
            .build_rustls()
            .map_err(|e| Error::config(format!("TLS settings for the SMTP relay: {e}")))?;
        let implicit = match self.tls {
            SmtpTls::Implicit => Some(crate::trust::client_config(
                &self.extra_roots_pem,
                self.accept_invalid_certs,
            )?),
            SmtpTls::StartTls => None,
        };
        let port = self.port.unwrap_or(self.tls.default_port());
        let connector = pool::Connector {
            host: self.host.clone(),
            port,
            tls: self.tls,
            params,
            implicit,
            credentials: Credentials::new(self.username.clone(), password.expose().to_owned()),
            timeout: self.timeout,
        };
        Ok(SmtpRelay {
            pool: pool::Pool::new(connector, self.max_connections, self.idle_timeout),
            host: self.host,
            port,
            tls: self.tls,
            timeout: self.timeout,
            retry: self.retry,
        })
    }
}

/// A service's SMTP relay: sends typed requests or ready-made messages.
///
/// Connections are opened on demand (TLS, then AUTH with the API key) and kept for the next
/// message; clones share them (see the [module docs](self) for the limits). The key never
/// appears in `Debug` output or errors.
///
/// ```no_run
/// # use tidings_runtime::smtp::{SmtpRelay, SmtpTls};
/// # async fn demo(message: tidings_runtime::smtp::lettre::Message) -> Result<(), tidings_runtime::Error> {
/// let relay = SmtpRelay::builder("smtp.example.com")
///     .tls(SmtpTls::StartTls) // port 587
///     .api_key(std::env::var("COMMS_EMAIL_API_KEY").unwrap_or_default())
///     .build()?;
/// let receipt = relay.send(&message).await?;
/// println!("accepted: {} {}", receipt.code, receipt.message);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct SmtpRelay {
    pool: Arc<pool::Pool>,
    host: String,
    port: u16,
    tls: SmtpTls,
    timeout: Duration,
    retry: RetryPolicy,
}

impl fmt::Debug for SmtpRelay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpRelay")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .finish_non_exhaustive()
    }
}

impl SmtpRelay {
    /// A builder for the relay at `host`: STARTTLS on 587, user `apikey`, 60 s timeout, up to
    /// [`DEFAULT_MAX_CONNECTIONS`] connections kept for [`DEFAULT_IDLE_TIMEOUT`].
    pub fn builder(host: impl Into<String>) -> SmtpRelayBuilder {
        SmtpRelayBuilder {
            host: host.into(),
            port: None,
            tls: SmtpTls::default(),
            username: DEFAULT_USERNAME.to_owned(),
            password: None,
            timeout: Duration::from_millis(crate::spec::defaults::SMTP_TIMEOUT_MS),
            retry: RetryPolicy::from_spec(&RetrySpec::DEFAULT),
            extra_roots_pem: Vec::new(),
            accept_invalid_certs: false,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
        }
    }

    /// A relay configured from the email service's environment variables, the ones
    /// `tidings-sandbox` prints: `COMMS_EMAIL_SMTP_HOST` (required), `COMMS_EMAIL_SMTP_PORT`,
    /// `COMMS_EMAIL_SMTP_TLS` (`starttls` or `implicit`), `COMMS_EMAIL_SMTP_CA_FILE` (a PEM file
    /// of certificates to trust besides the usual roots) and `COMMS_EMAIL_API_KEY` (the
    /// password). See [`SmtpRelay::from_vars`] for the rules.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the variable that is missing or wrong.
    pub fn from_env() -> Result<SmtpRelay, Error> {
        SmtpRelay::from_vars("COMMS_EMAIL", |name| std::env::var(name).ok())
    }

    /// A relay configured from variables named `<prefix>_SMTP_HOST`, `<prefix>_SMTP_PORT`,
    /// `<prefix>_SMTP_TLS`, `<prefix>_SMTP_CA_FILE` and `<prefix>_API_KEY`, looked up with
    /// `var` (the process environment for [`SmtpRelay::from_env`]). The port defaults to the TLS
    /// mode's ([`SmtpTls::default_port`]), the mode to STARTTLS; the CA file is read (at most
    /// [`MAX_CA_FILE_BYTES`]) and added to the roots.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use tidings_runtime::smtp::{SmtpRelay, SmtpTls};
    ///
    /// let vars = HashMap::from([
    ///     ("MAIL_SMTP_HOST", "smtp.example.com"),
    ///     ("MAIL_SMTP_TLS", "implicit"),
    ///     ("MAIL_API_KEY", "sk_test"),
    /// ]);
    /// let relay = SmtpRelay::from_vars("MAIL", |name| vars.get(name).map(|v| v.to_string()))?;
    /// assert_eq!(relay.endpoint(), ("smtp.example.com", 465, SmtpTls::Implicit));
    ///
    /// let bad = HashMap::from([("MAIL_SMTP_HOST", "h"), ("MAIL_SMTP_PORT", "smtp"), ("MAIL_API_KEY", "k")]);
    /// let err = SmtpRelay::from_vars("MAIL", |name| bad.get(name).map(|v| v.to_string())).unwrap_err();
    /// assert!(err.to_string().contains("MAIL_SMTP_PORT"));
    /// # Ok::<(), tidings_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the variable that is missing or wrong, or the CA file that
    /// cannot be read or is too large.
    pub fn from_vars(
        prefix: &str,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<SmtpRelay, Error> {
        let name = |suffix: &str| format!("{prefix}_{suffix}");
        let set = |suffix: &str| var(&name(suffix)).filter(|v| !v.trim().is_empty());
        let host = set("SMTP_HOST")
            .ok_or_else(|| Error::config(format!("{} is not set", name("SMTP_HOST"))))?;
        let mut builder = SmtpRelay::builder(host.trim());
        if let Some(tls) = set("SMTP_TLS") {
            builder = builder.tls(match tls.trim().to_ascii_lowercase().as_str() {
                "starttls" => SmtpTls::StartTls,
                "implicit" | "tls" => SmtpTls::Implicit,
                other => {
                    return Err(Error::config(format!(
                        "{} is `{other}`; it must be `starttls` or `implicit`",
                        name("SMTP_TLS")
                    )));
                }
            });
        }
        if let Some(port) = set("SMTP_PORT") {
            let port = port
                .trim()
                .parse::<u16>()
                .ok()
                .filter(|p| *p != 0)
                .ok_or_else(|| {
                    Error::config(format!(
                        "{} is `{}`; it must be a port number (1 to 65535)",
                        name("SMTP_PORT"),
                        port.trim()
                    ))
                })?;
            builder = builder.port(port);
        }
        if let Some(path) = set("SMTP_CA_FILE") {
            builder = builder.add_root_certificate_pem(read_ca_file(&name("SMTP_CA_FILE"), &path)?);
        }
        if let Some(key) = var(&name("API_KEY")) {
            builder = builder.api_key(key);
        }
        builder.build()
    }

    /// The host, port and TLS mode in use.
    pub fn endpoint(&self) -> (&str, u16, SmtpTls) {
        (&self.host, self.port, self.tls)
    }

    /// Sends `message` with a fresh idempotency key (a UUID v4, the same on every retry).
    ///
    /// # Errors
    ///
    /// See the [module docs](self) for how the relay's answers map onto [`Error`].
    pub async fn send<M: SmtpMessage + ?Sized>(&self, message: &M) -> Result<SmtpReceipt, Error> {
        let key = crate::random::uuid_v4();
        self.send_with_key(message, &key).await
    }

    /// Sends `message` carrying `idempotency_key`, so a repeated send of the same message
    /// (after a crash, say) is recognised by the service.
    ///
    /// # Errors
    ///
    /// See the [module docs](self).
    pub async fn send_with_key<M: SmtpMessage + ?Sized>(
        &self,
        message: &M,
        idempotency_key: &str,
    ) -> Result<SmtpReceipt, Error> {
        let message = message.to_smtp_message(idempotency_key)?;
        let mut made = 0;
        self.attempts(&message, idempotency_key, &mut made)
            .await
            .map_err(|error| self.in_context(error, made))
    }

    /// Sends `message`, trying again after a transient reply as the retry policy allows;
    /// `made` counts the attempts.
    async fn attempts(
        &self,
        message: &lettre::Message,
        idempotency_key: &str,
        made: &mut u32,
    ) -> Result<SmtpReceipt, Error> {
        let envelope = message.envelope().clone();
        let raw = message.formatted();
        let attempts = self.retry.attempts();
        let mut attempt = 0;
        loop {
            *made += 1;
            let span =
                tracing::debug_span!("smtp_send", host = %self.host, port = self.port, attempt);
            let result = tokio::time::timeout(self.timeout, self.pool.send(&envelope, &raw))
                .instrument(span)
                .await;
            let Ok(result) = result else {
                return Err(Error::Timeout {
                    kind: TimeoutKind::Attempt,
                    after: self.timeout,
                    context: None,
                });
            };
            match result {
                Ok(response) => {
                    return Ok(SmtpReceipt {
                        code: u16::from(response.code()),
                        message: response.message().collect::<Vec<_>>().join("\n"),
                        idempotency_key: idempotency_key.to_owned(),
                    });
                }
                Err(failure::Failure::NoStartTls) => {
                    return Err(Error::config(format!(
                        "the SMTP relay at {}:{} does not offer STARTTLS; use SmtpTls::Implicit if it speaks TLS from the first byte",
                        self.host, self.port
                    )));
                }
                Err(failure::Failure::Unsupported(reason)) => {
                    return Err(Error::invalid_request("message", reason));
                }
                Err(failure::Failure::Connect(err)) => {
                    if err.kind() == std::io::ErrorKind::TimedOut {
                        return Err(Error::Timeout {
                            kind: TimeoutKind::Attempt,
                            after: self.timeout,
                            context: None,
                        });
                    }
                    return Err(Error::Transport {
                        message: format!(
                            "SMTP relay: cannot connect to {}:{}: {err}",
                            self.host, self.port
                        )
                        .into(),
                        connect: true,
                        source: None,
                        context: None,
                    });
                }
                Err(failure::Failure::Tls(err)) => {
                    return Err(Error::config(format!(
                        "TLS with the SMTP relay failed (check the host, port, TLS mode and trusted certificates): {err}"
                    )));
                }
                Err(failure::Failure::Smtp(err)) => {
                    let error = map_error(&err, self.timeout);
                    let transient = error.smtp_reply().is_some_and(SmtpReply::is_transient);
                    attempt += 1;
                    if !transient || attempt >= attempts {
                        return Err(error);
                    }
                    tracing::debug!(error = %error, "SMTP relay answered with a transient failure; retrying");
                    tokio::time::sleep(backoff(&self.retry, attempt - 1)).await;
                }
            }
        }
    }

    /// `error` with the send it ended: the relay's URL, the attempts made, why no other was,
    /// and what to check.
    fn in_context(&self, mut error: Error, attempts: u32) -> Error {
        let scheme = match self.tls {
            SmtpTls::Implicit => "smtps",
            _ => "smtp",
        };
        let at = format!("{}:{}", self.host, self.port);
        let (not_retried, advice) = match &error {
            Error::Smtp(reply) if reply.is_auth_failure() => (
                None,
                "check the API key (SmtpRelayBuilder::api_key) and the user name".to_owned(),
            ),
            Error::Smtp(reply) if reply.is_transient() => (
                Some("the most the retry policy allows".to_owned()),
                "the relay may accept it later: send it again with the same idempotency key \
                 (send_with_key)"
                    .to_owned(),
            ),
            Error::Smtp(_) => (
                None,
                "the relay will not take this message as it is: check the sender, the \
                 recipients and the message"
                    .to_owned(),
            ),
            Error::Timeout { .. } => (
                Some(NOT_REPEATED.to_owned()),
                format!(
                    "check that {at} is reachable and answers SMTP, or raise the timeout \
                     (SmtpRelayBuilder::timeout, {:?} now)",
                    self.timeout
                ),
            ),
            Error::Transport { connect: true, .. } => (
                Some("not retried: the relay could not be reached".to_owned()),
                format!(
                    "check the host and port (SmtpRelayBuilder::host and port, or \
                     COMMS_<SERVICE>_SMTP_HOST and _SMTP_PORT) and that a relay listens at {at}"
                ),
            ),
            Error::Transport { .. } => (
                Some(NOT_REPEATED.to_owned()),
                format!("the connection to {at} broke; the relay may have taken the message"),
            ),
            _ => return error,
        };
        if let Some(slot) = error.context_slot() {
            *slot = Some(Box::new(CallContext {
                service: "smtp",
                operation: "send",
                method: "SMTP".to_owned(),
                url: format!("{scheme}://{at}"),
                attempts,
                not_retried,
                advice,
            }));
        }
        error
    }
}

/// Maps a `lettre` SMTP error onto [`Error`] (see the module docs).
fn map_error(err: &lettre::transport::smtp::Error, timeout: Duration) -> Error {
    if let Some(code) = err.status() {
        let text = std::error::Error::source(err)
            .map(ToString::to_string)
            .unwrap_or_default();
        let enhanced = text
            .split_whitespace()
            .next()
            .filter(|w| is_enhanced_code(w));
        let message = match enhanced {
            Some(e) => &text[e.len()..],
            None => &text,
        };
        // The relay's reply is server text: bounded and escaped by `SmtpReply::new`.
        let reply = SmtpReply::new(
            u16::from(code),
            enhanced,
            &message.replace(['\r', '\n'], " "),
        );
        return Error::Smtp(Box::new(reply));
    }
    if err.is_timeout() {
        return Error::Timeout {
            kind: TimeoutKind::Attempt,
            after: timeout,
            context: None,
        };
    }
    let mut message = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(inner) = source {
        let text = inner.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = inner.source();
    }
    // rustls reports certificate failures through the connection error; lettre has no
    // accessor for them, so they are recognised by their text.
    if err.is_tls() || message.contains("certificate") || message.contains("handshake") {
        return Error::config(format!(
            "TLS with the SMTP relay failed (check the host, port, TLS mode and trusted certificates): {message}"
        ));
    }
    if err.is_client() {
        return Error::invalid_request("message", message);
    }
    Error::Transport {
        message: format!("SMTP relay: {message}").into(),
        connect: message.starts_with("Connection error"),
        source: None,
        context: None,
    }
}

/// `class.subject.detail`, e.g. `5.1.1` (RFC 3463).
fn is_enhanced_code(word: &str) -> bool {
    let parts: Vec<&str> = word.split('.').collect();
    parts.len() == 3
        && matches!(parts[0], "2" | "4" | "5")
        && parts[1..]
            .iter()
            .all(|p| (1..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enhanced_codes_are_recognised() {
        assert!(is_enhanced_code("5.1.1"));
        assert!(is_enhanced_code("4.7.0"));
        assert!(is_enhanced_code("2.0.0"));
        assert!(!is_enhanced_code("550"));
        assert!(!is_enhanced_code("5.1"));
        assert!(!is_enhanced_code("user.unknown.x"));
    }

    #[test]
    fn a_ca_file_above_the_limit_is_refused_unread_and_a_missing_host_is_named() {
        let path = std::env::temp_dir().join(format!("tidings-ca-{}.pem", std::process::id()));
        std::fs::write(&path, vec![b'A'; MAX_CA_FILE_BYTES as usize + 1]).unwrap();
        let vars = |name: &str| match name {
            "T_SMTP_HOST" => Some("smtp.example.com".to_owned()),
            "T_SMTP_CA_FILE" => Some(path.display().to_string()),
            "T_API_KEY" => Some("k".to_owned()),
            _ => None,
        };
        let err = SmtpRelay::from_vars("T", vars).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(err.kind(), crate::ErrorKind::Config);
        assert!(
            err.to_string().contains("larger than 1048576 bytes"),
            "{err}"
        );
        let err = SmtpRelay::from_vars("T", |_| None).unwrap_err();
        assert!(err.to_string().contains("T_SMTP_HOST is not set"), "{err}");
    }

    #[test]
    fn builder_refuses_a_missing_key_and_debug_hides_it() {
        let err = SmtpRelay::builder("smtp.example.com").build().unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Config);
        let builder = SmtpRelay::builder("smtp.example.com").api_key("sk_secret_value");
        assert!(!format!("{builder:?}").contains("sk_secret_value"));
        let relay = builder.tls(SmtpTls::Implicit).build().unwrap();
        assert_eq!(
            relay.endpoint(),
            ("smtp.example.com", 465, SmtpTls::Implicit)
        );
        assert!(!format!("{relay:?}").contains("sk_secret_value"));
    }

    #[test]
    fn a_bad_certificate_is_a_config_error() {
        let err = SmtpRelay::builder("smtp.example.com")
            .api_key("k")
            .add_root_certificate_pem(b"not a certificate".to_vec())
            .build()
            .unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Config);
    }
}
