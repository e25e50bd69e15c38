//! The SMTP relay's connection pool: at most `max_size` authenticated connections, kept open
//! between messages for `idle_timeout` and replaced when the relay has closed them meanwhile.
//!
//! A connection is only put back after a complete transaction (or a refused one followed by a
//! successful `RSET`); one that broke or timed out mid-transaction is dropped, so the next
//! message never inherits half a conversation.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

use lettre::Address;
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
use lettre::transport::smtp::response::Response;
use tokio::sync::Semaphore;

use super::SmtpTls;
use super::failure::Failure;

/// How long a parked connection gets to say `QUIT` before it is dropped anyway.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// The mechanisms offered to the relay, in order of preference.
const MECHANISMS: [Mechanism; 2] = [Mechanism::Plain, Mechanism::Login];

/// What opens and authenticates one connection.
pub(super) struct Connector {
    pub(super) host: String,
    pub(super) port: u16,
    pub(super) tls: SmtpTls,
    pub(super) params: TlsParameters,
    /// The TLS settings of implicit-TLS connections (`None` with STARTTLS).
    pub(super) implicit: Option<Arc<rustls::ClientConfig>>,
    pub(super) credentials: Credentials,
    pub(super) timeout: Duration,
}

impl Connector {
    async fn open(&self) -> Result<AsyncSmtpConnection, Failure> {
        let hello = ClientId::default();
        let mut conn = match self.tls {
            // Our own socket, to turn Nagle off: lettre writes a message's content and its
            // final dot separately, and the second write would wait for the relay's delayed
            // ACK (40 ms per message on Linux).
            SmtpTls::StartTls => {
                let tcp = tokio::time::timeout(
                    self.timeout,
                    tokio::net::TcpStream::connect((self.host.as_str(), self.port)),
                )
                .await
                .map_err(|_| Failure::Connect(std::io::ErrorKind::TimedOut.into()))?
                .map_err(Failure::Connect)?;
                tcp.set_nodelay(true).map_err(Failure::Connect)?;
                AsyncSmtpConnection::connect_with_transport(Box::new(tcp), &hello).await?
            }
            // The same, encrypted from the first byte: our socket and handshake (`tls.rs`).
            SmtpTls::Implicit => {
                let config = self.implicit.clone().ok_or_else(|| {
                    Failure::Connect(std::io::Error::other("no TLS settings for implicit TLS"))
                })?;
                let stream =
                    super::tls::connect(&self.host, self.port, config, self.timeout).await?;
                AsyncSmtpConnection::connect_with_transport(stream, &hello).await?
            }
        };
        if self.tls == SmtpTls::StartTls {
            if !conn.can_starttls() {
                conn.abort().await;
                return Err(Failure::NoStartTls);
            }
            conn.starttls(self.params.clone(), &hello).await?;
        }
        if let Err(err) = conn.auth(&MECHANISMS, &self.credentials).await {
            conn.abort().await;
            return Err(err.into());
        }
        Ok(conn)
    }
}

/// Where in a transaction a failure happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// `MAIL`, `RCPT` or `DATA`: the relay cannot have accepted the message yet.
    Envelope,
    /// The content and its final dot: the relay may have accepted it.
    Content,
}

struct TxError {
    err: Failure,
    stage: Stage,
    /// The connection is at a clean transaction boundary and may carry another message.
    reusable: bool,
}

/// True when the relay is gone rather than answering: the socket closed or broke, or the
/// relay said 421 (closing the channel).
fn connection_gone(err: &lettre::transport::smtp::Error) -> bool {
    match err.status() {
        Some(code) => u16::from(code) == 421,
        None => !err.is_client(),
    }
}

fn non_ascii(address: &Address) -> bool {
    !AsRef::<str>::as_ref(address).is_ascii()
}

/// One transaction: `MAIL`, `RCPT` per recipient, `DATA`, the content.
async fn transact(
    conn: &mut AsyncSmtpConnection,
    envelope: &Envelope,
    raw: &[u8],
) -> Result<Response, TxError> {
    let local = |message: &'static str| TxError {
        err: Failure::Unsupported(message),
        stage: Stage::Envelope,
        reusable: true,
    };
    let mut options = Vec::new();
    if envelope.from().is_some_and(non_ascii) || envelope.to().iter().any(non_ascii) {
        if !conn.server_info().supports_feature(Extension::SmtpUtfEight) {
            return Err(local(
                "the envelope has non-ASCII addresses and the relay does not support SMTPUTF8",
            ));
        }
        options.push(MailParameter::SmtpUtfEight);
    }
    if !raw.is_ascii() {
        if !conn.server_info().supports_feature(Extension::EightBitMime) {
            return Err(local(
                "the message has non-ASCII content and the relay does not support 8BITMIME",
            ));
        }
        options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    let envelope_result = async {
        conn.command(Mail::new(envelope.from().cloned(), options))
            .await?;
        for to in envelope.to() {
            conn.command(Rcpt::new(to.clone(), Vec::new())).await?;
        }
        conn.command(Data).await
    }
    .await;
    if let Err(err) = envelope_result {
        // A refused envelope leaves the session usable once reset; anything else does not.
        let reusable = !connection_gone(&err) && err.status().is_some() && {
            conn.command(Rset).await.is_ok()
        };
        return Err(TxError {
            err: Failure::Smtp(err),
            stage: Stage::Envelope,
            reusable,
        });
    }
    conn.message(raw).await.map_err(|err| TxError {
        // After the final reply the session is between transactions again.
        reusable: err.status().is_some() && !connection_gone(&err),
        err: Failure::Smtp(err),
        stage: Stage::Content,
    })
}

struct Parked {
    conn: AsyncSmtpConnection,
    since: Instant,
}

struct Idle {
    /// Oldest first.
    parked: Vec<Parked>,
    /// A task closing expired connections is running.
    reaper: bool,
}

/// The pool; shared by every clone of the relay.
pub(super) struct Pool {
    connector: Connector,
    idle: Mutex<Idle>,
    permits: Arc<Semaphore>,
    max_size: usize,
    idle_timeout: Duration,
}

impl Pool {
    pub(super) fn new(connector: Connector, max_size: usize, idle_timeout: Duration) -> Arc<Pool> {
        Arc::new(Pool {
            connector,
            idle: Mutex::new(Idle {
                parked: Vec::new(),
                reaper: false,
            }),
            permits: Arc::new(Semaphore::new(max_size)),
            max_size,
            idle_timeout,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Idle> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sends one message on a pooled connection (at most `max_size` at a time). A reused
    /// connection the relay has closed meanwhile is replaced and the message sent again on a
    /// new one, once, and only when the failure came before the content: nothing was accepted.
    pub(super) async fn send(
        self: &Arc<Self>,
        envelope: &Envelope,
        raw: &[u8],
    ) -> Result<Response, Failure> {
        // The semaphore is never closed, so this waits for a slot and does not fail.
        let _permit = self.permits.acquire().await;
        let (mut conn, reused) = match self.take_idle() {
            Some(conn) => (conn, true),
            None => (self.connector.open().await?, false),
        };
        let mut result = transact(&mut conn, envelope, raw).await;
        if reused {
            let stale = matches!(
                &result,
                Err(TxError { err: Failure::Smtp(err), stage: Stage::Envelope, .. })
                    if connection_gone(err)
            );
            if stale {
                tracing::debug!("the relay closed a pooled SMTP connection; reconnecting");
                drop(conn);
                conn = self.connector.open().await?;
                result = transact(&mut conn, envelope, raw).await;
            }
        }
        match result {
            Ok(response) => {
                self.put_back(conn).await;
                Ok(response)
            }
            Err(TxError { err, reusable, .. }) => {
                if reusable {
                    self.put_back(conn).await;
                }
                Err(err)
            }
        }
    }

    /// The most recently used live connection, dropping those idle for too long.
    fn take_idle(&self) -> Option<AsyncSmtpConnection> {
        let (conn, _expired) = {
            let mut idle = self.lock();
            let expired = expired_prefix(&mut idle.parked, self.idle_timeout);
            (idle.parked.pop().map(|p| p.conn), expired)
        };
        // `_expired` is dropped here, outside the lock: closing sockets takes no lock.
        conn
    }

    /// Parks `conn` for the next message, or closes it when reuse is off.
    async fn put_back(self: &Arc<Self>, mut conn: AsyncSmtpConnection) {
        if self.idle_timeout.is_zero() || conn.has_broken() {
            let _ = tokio::time::timeout(QUIT_GRACE, conn.quit()).await;
            return;
        }
        let start_reaper = {
            let mut idle = self.lock();
            if idle.parked.len() >= self.max_size {
                return; // cannot happen while every connection holds a permit; stay bounded anyway
            }
            idle.parked.push(Parked {
                conn,
                since: Instant::now(),
            });
            !std::mem::replace(&mut idle.reaper, true)
        };
        if start_reaper {
            match tokio::runtime::Handle::try_current() {
                Ok(handle) => {
                    handle.spawn(reap(Arc::downgrade(self)));
                }
                Err(_) => self.lock().reaper = false,
            }
        }
    }
}

/// Removes the connections idle for `timeout` or longer (a prefix: oldest first).
fn expired_prefix(parked: &mut Vec<Parked>, timeout: Duration) -> Vec<Parked> {
    let cut = parked.partition_point(|p| p.since.elapsed() >= timeout);
    parked.drain(..cut).collect()
}

/// Closes parked connections as they expire, until none is left.
async fn reap(pool: Weak<Pool>) {
    loop {
        let (expired, next) = {
            let Some(pool) = pool.upgrade() else { return };
            let mut idle = pool.lock();
            let expired = expired_prefix(&mut idle.parked, pool.idle_timeout);
            let next = idle
                .parked
                .first()
                .map(|p| (p.since + pool.idle_timeout).saturating_duration_since(Instant::now()));
            if next.is_none() {
                idle.reaper = false;
            }
            (expired, next)
        };
        for mut parked in expired {
            let _ = tokio::time::timeout(QUIT_GRACE, parked.conn.quit()).await;
        }
        match next {
            Some(wait) => tokio::time::sleep(wait).await,
            None => return,
        }
    }
}
