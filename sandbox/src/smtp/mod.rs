//! The SMTP relay listener of the email sandbox: a small SMTP server (RFC 5321 subset: EHLO/HELO,
//! STARTTLS with a self-signed certificate made at start, AUTH PLAIN and LOGIN with user
//! `apikey` and the API key as password, MAIL/RCPT/DATA, RSET, NOOP, QUIT) that parses each
//! message and hands it to a [`MailSink`] (the email sandbox's store, so `get_email` and
//! `list_emails` show it).
//!
//! As the spec's `gaps.smtp_relay` describes: `X-Tags` (`name=value` pairs, comma-separated),
//! `X-Template-Id` and `X-Idempotency-Key` headers are honoured; throttling (the gateway's rate
//! limit) is answered with 452. AUTH is only offered after STARTTLS: the API key is the password.
//!
//! Every resource a client can grow is bounded ([`SmtpConfig`] has the limits and their
//! defaults): connections (excess answered `421`), command and DATA line length (enforced while
//! reading, so a line with no break is never buffered), message size, bytes of messages in
//! flight over all sessions, recipients (`452` at `RCPT`), AUTH failures per connection and per
//! address, and time (idle, DATA, whole session, TLS handshake). Only `<CR><LF>.<CR><LF>` ends
//! DATA; a bare `<CR>` or `<LF>` refuses the message (RFC 5321 §2.3.8), so no second message can
//! be smuggled inside one. Recipients are the envelope's; headers are content.

mod mail;
mod session;
mod throttle;
mod wire;

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;

pub use self::mail::{MailSink, ReceivedMail};
use crate::server::{Background, Gateway};

/// The SMTP user name; the password is the API key.
pub const SMTP_USERNAME: &str = tidings_runtime::smtp::DEFAULT_USERNAME;

/// Default longest command line, octets with CRLF (RFC 5321 asks for at least 512; AUTH
/// responses are longer, and ours are short).
pub const DEFAULT_MAX_COMMAND_LINE: usize = 4096;

/// Default longest DATA line, octets with CRLF (RFC 5321's limit is 1,000; generous for
/// clients that do not fold, bounded for the rest).
pub const DEFAULT_MAX_DATA_LINE: usize = 64 * 1024;

/// Default most recipients per message (the spec's `limits.sizes.recipients_per_email`).
pub const DEFAULT_MAX_RECIPIENTS: usize = 50;

/// Default most concurrent connections.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;

/// Default most bytes of messages being received at once, over all sessions.
pub const DEFAULT_MAX_BUFFERED_BYTES: usize = 256 * 1024 * 1024;

/// Default wait for each command or DATA line (RFC 5321 §4.5.3.2.7: at least 5 minutes).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// Default longest DATA phase of one message (RFC 5321 §4.5.3.2.6 gives a client 10 minutes).
pub const DEFAULT_DATA_TIMEOUT: Duration = Duration::from_secs(600);

/// Default longest session.
pub const DEFAULT_SESSION_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// Default longest TLS handshake after STARTTLS.
pub const DEFAULT_TLS_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Default AUTH failures on one connection before it is closed.
pub const DEFAULT_AUTH_FAILURES_PER_CONNECTION: u32 = 3;

/// Default AUTH failures from one address within [`DEFAULT_AUTH_FAILURE_WINDOW`] before AUTH
/// from it is refused (`421`) until the window ends.
pub const DEFAULT_AUTH_FAILURES_PER_ADDRESS: u32 = 20;

/// Default window over which AUTH failures per address are counted.
pub const DEFAULT_AUTH_FAILURE_WINDOW: Duration = Duration::from_secs(10 * 60);

/// Default pause before each AUTH failure is answered.
pub const DEFAULT_AUTH_FAILURE_DELAY: Duration = Duration::from_secs(1);

/// Settings of the SMTP listener, limits included (each has a `DEFAULT_*` constant).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SmtpConfig {
    /// Port; 0 (the default) picks a free one.
    pub port: u16,
    /// The name the server greets with and puts in its certificate (`localhost`).
    pub hostname: String,
    /// Largest message accepted, in bytes (advertised as `SIZE`). A larger one is read and
    /// dropped up to its end, then refused (`552`); past twice this the connection is closed.
    pub max_message_bytes: usize,
    /// Longest command line, octets with CRLF (at least 512); longer: `500` and close.
    pub max_command_line: usize,
    /// Longest DATA line, octets with CRLF (at least 1,000); longer: the message is refused.
    pub max_data_line: usize,
    /// Most recipients per message; more `RCPT` are answered `452`.
    pub max_recipients: usize,
    /// Most concurrent connections; more are answered `421` and closed.
    pub max_connections: usize,
    /// Most bytes of messages being received at once, over all sessions; past it a message
    /// is answered `452` (insufficient storage).
    pub max_buffered_bytes: usize,
    /// Longest wait for a command, a DATA line or a reply write; then `421` and close.
    pub idle_timeout: Duration,
    /// Longest DATA phase of one message; then `421` and close.
    pub data_timeout: Duration,
    /// Longest session; then `421` and close.
    pub session_timeout: Duration,
    /// Longest TLS handshake after STARTTLS; then the connection is closed.
    pub tls_handshake_timeout: Duration,
    /// AUTH failures on one connection before `421` and close.
    pub auth_failures_per_connection: u32,
    /// AUTH failures from one address within `auth_failure_window` before AUTH from it is
    /// answered `421` until the window ends.
    pub auth_failures_per_address: u32,
    /// The window of `auth_failures_per_address`.
    pub auth_failure_window: Duration,
    /// Pause before each AUTH failure is answered.
    pub auth_failure_delay: Duration,
}

impl Default for SmtpConfig {
    fn default() -> Self {
        SmtpConfig {
            port: 0,
            hostname: "localhost".into(),
            max_message_bytes: crate::server::DEFAULT_MAX_BODY_BYTES,
            max_command_line: DEFAULT_MAX_COMMAND_LINE,
            max_data_line: DEFAULT_MAX_DATA_LINE,
            max_recipients: DEFAULT_MAX_RECIPIENTS,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_buffered_bytes: DEFAULT_MAX_BUFFERED_BYTES,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            data_timeout: DEFAULT_DATA_TIMEOUT,
            session_timeout: DEFAULT_SESSION_TIMEOUT,
            tls_handshake_timeout: DEFAULT_TLS_HANDSHAKE_TIMEOUT,
            auth_failures_per_connection: DEFAULT_AUTH_FAILURES_PER_CONNECTION,
            auth_failures_per_address: DEFAULT_AUTH_FAILURES_PER_ADDRESS,
            auth_failure_window: DEFAULT_AUTH_FAILURE_WINDOW,
            auth_failure_delay: DEFAULT_AUTH_FAILURE_DELAY,
        }
    }
}

impl SmtpConfig {
    /// Listens on this port (0: a free one).
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }

    /// Largest message accepted, in bytes.
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = bytes;
        self
    }

    /// Longest command line, octets with CRLF (raised to 512 if lower).
    pub fn max_command_line(mut self, octets: usize) -> Self {
        self.max_command_line = octets;
        self
    }

    /// Longest DATA line, octets with CRLF (raised to 1,000 if lower).
    pub fn max_data_line(mut self, octets: usize) -> Self {
        self.max_data_line = octets;
        self
    }

    /// Most recipients per message.
    pub fn max_recipients(mut self, recipients: usize) -> Self {
        self.max_recipients = recipients;
        self
    }

    /// Most concurrent connections (at least 1).
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections;
        self
    }

    /// Most bytes of messages being received at once, over all sessions.
    pub fn max_buffered_bytes(mut self, bytes: usize) -> Self {
        self.max_buffered_bytes = bytes;
        self
    }

    /// Longest wait for each command or DATA line.
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// Longest DATA phase of one message.
    pub fn data_timeout(mut self, timeout: Duration) -> Self {
        self.data_timeout = timeout;
        self
    }

    /// Longest session.
    pub fn session_timeout(mut self, timeout: Duration) -> Self {
        self.session_timeout = timeout;
        self
    }

    /// Longest TLS handshake after STARTTLS.
    pub fn tls_handshake_timeout(mut self, timeout: Duration) -> Self {
        self.tls_handshake_timeout = timeout;
        self
    }

    /// AUTH throttling: failures per connection and per address (within `window`) before the
    /// session is closed with `421`, and the pause before each failure is answered.
    pub fn auth_throttle(
        mut self,
        per_connection: u32,
        per_address: u32,
        window: Duration,
        delay: Duration,
    ) -> Self {
        self.auth_failures_per_connection = per_connection;
        self.auth_failures_per_address = per_address;
        self.auth_failure_window = window;
        self.auth_failure_delay = delay;
        self
    }

    /// The limits raised to the floors RFC 5321 and common sense ask for.
    fn floored(mut self) -> Self {
        self.max_command_line = self.max_command_line.max(512);
        self.max_data_line = self.max_data_line.max(1000);
        self.max_connections = self.max_connections.max(1);
        self.auth_failures_per_connection = self.auth_failures_per_connection.max(1);
        self.auth_failures_per_address = self.auth_failures_per_address.max(1);
        self
    }
}

/// A running SMTP listener.
pub struct SmtpListener {
    addr: SocketAddr,
    certificate_pem: String,
}

impl fmt::Debug for SmtpListener {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpListener")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

/// What every session of one listener shares.
struct Shared {
    config: SmtpConfig,
    gateway: Gateway,
    sink: Arc<dyn MailSink>,
    tls: TlsAcceptor,
    auth_throttle: throttle::AuthThrottle,
    storage: Arc<wire::Storage>,
}

/// Answer to a connection over the cap; written without waiting (a fresh socket's buffer
/// takes it), so a flood never blocks the accept loop.
const TOO_MANY_CONNECTIONS: &[u8] = b"421 4.3.2 Too many connections; try again later\r\n";
/// The reply to a connection over its address's cap ([`crate::server::per_address_cap`]).
const TOO_MANY_FROM_ADDRESS: &[u8] =
    b"421 4.3.2 Too many connections from your address; try again later\r\n";

impl SmtpListener {
    /// Binds `host:config.port`, makes a self-signed certificate for the host name, `localhost`
    /// and the address, and serves sessions on `background` until it shuts down. Credentials
    /// are checked with `gateway` (credential `api_key`).
    ///
    /// # Errors
    ///
    /// When the port cannot be bound or the certificate cannot be made.
    pub async fn start(
        config: SmtpConfig,
        host: IpAddr,
        gateway: Gateway,
        sink: Arc<dyn MailSink>,
        background: Background,
    ) -> std::io::Result<SmtpListener> {
        let config = config.floored();
        let names = vec![
            config.hostname.clone(),
            "localhost".into(),
            host.to_string(),
        ];
        let certified = rcgen::generate_simple_self_signed(names)
            .map_err(|e| std::io::Error::other(format!("cannot make the certificate: {e}")))?;
        let certificate_pem = certified.cert.pem();
        let key =
            rustls::pki_types::PrivateKeyDer::Pkcs8(certified.key_pair.serialize_der().into());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(std::io::Error::other)?
            .with_no_client_auth()
            .with_single_cert(vec![certified.cert.der().clone()], key)
            .map_err(std::io::Error::other)?;
        let listener = TcpListener::bind((host, config.port)).await?;
        let addr = listener.local_addr()?;
        let permits = Arc::new(Semaphore::new(config.max_connections));
        let per_address =
            crate::server::per_address::PerAddress::for_listener(config.max_connections);
        let shared = Arc::new(Shared {
            auth_throttle: throttle::AuthThrottle::new(
                config.auth_failures_per_address,
                config.auth_failure_window,
            ),
            storage: wire::Storage::new(config.max_buffered_bytes),
            config,
            gateway,
            sink,
            tls: TlsAcceptor::from(Arc::new(tls)),
        });
        let sessions = background.clone();
        background.spawn(async move {
            loop {
                match listener.accept().await {
                    Ok((stream, peer)) => {
                        // Replies go out at once (no wait for the client's delayed ACK).
                        let _ = stream.set_nodelay(true);
                        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
                            let _ = stream.try_write(TOO_MANY_CONNECTIONS);
                            tracing::warn!(%peer, "SMTP: connection cap reached; one more refused with 421");
                            continue;
                        };
                        let Some(slot) = per_address.take(peer.ip()) else {
                            let _ = stream.try_write(TOO_MANY_FROM_ADDRESS);
                            tracing::warn!(
                                %peer,
                                "SMTP: {} connections open from one address; one more refused with 421",
                                per_address.cap()
                            );
                            continue;
                        };
                        let shared = Arc::clone(&shared);
                        sessions.spawn(async move {
                            session::run(stream, peer.ip(), &shared).await;
                            drop((permit, slot));
                        });
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "SMTP accept failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
            }
        });
        Ok(SmtpListener {
            addr,
            certificate_pem,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its self-signed certificate, PEM, for clients to trust.
    pub fn certificate_pem(&self) -> &str {
        &self.certificate_pem
    }
}
