//! A minimal SMTP sink on loopback for the relay's pool tests and benchmark: STARTTLS with a
//! self-signed certificate, AUTH PLAIN, MAIL/RCPT/DATA, RSET, NOOP, QUIT; it counts
//! connections and messages, and can be scripted to drop connections the way relays do.

#![allow(dead_code, clippy::unwrap_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use tidings_runtime::smtp::{SmtpRelay, SmtpRelayBuilder};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;

/// The API key the sink accepts.
pub const KEY: &str = "sk_test_sink_key";

/// Longest command line the sink reads.
const MAX_LINE: u64 = 4096;

/// How the sink misbehaves.
#[derive(Debug, Clone, Default)]
pub struct Script {
    /// Closes the connection, without a word, after this many messages on it (as a relay
    /// that timed out an idle connection).
    pub close_after: Option<usize>,
    /// Answers `MAIL` with `421` and closes, on a connection's second and later messages.
    pub mail_421_on_reuse: bool,
    /// Reads a second message's content on a connection, then closes without answering.
    pub drop_after_content_on_reuse: bool,
    /// Waits this long before answering a message's final dot.
    pub data_delay: Duration,
    /// TLS from the first byte (port 465 style) instead of STARTTLS.
    pub implicit: bool,
}

/// What the sink saw.
#[derive(Debug, Default)]
pub struct Stats {
    /// Connections accepted.
    pub connections: AtomicUsize,
    /// Connections open now.
    pub open: AtomicUsize,
    /// Most connections open at once.
    pub max_open: AtomicUsize,
    /// `QUIT` commands received.
    pub quits: AtomicUsize,
    /// Message contents received in full (answered or not).
    pub contents: AtomicUsize,
    /// Subjects of the messages accepted (answered 250), in order.
    pub accepted: Mutex<Vec<String>>,
}

/// A running sink; stops when dropped.
pub struct Sink {
    /// The port on 127.0.0.1.
    pub port: u16,
    /// The self-signed certificate to trust (PEM).
    pub cert_pem: String,
    /// What it saw.
    pub stats: Arc<Stats>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Sink {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Sink {
    /// Starts a sink with `script` on a free port.
    pub async fn start(script: Script) -> Sink {
        let certified =
            rcgen::generate_simple_self_signed(vec!["localhost".to_owned(), "127.0.0.1".into()])
                .unwrap();
        let cert_pem = certified.cert.pem();
        let key =
            rustls::pki_types::PrivateKeyDer::Pkcs8(certified.key_pair.serialize_der().into());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![certified.cert.der().clone()], key)
            .unwrap();
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let stats = Arc::new(Stats::default());
        let task = {
            let stats = stats.clone();
            tokio::spawn(async move {
                while let Ok((socket, _)) = listener.accept().await {
                    let (stats, acceptor, script) =
                        (stats.clone(), acceptor.clone(), script.clone());
                    tokio::spawn(async move {
                        stats.connections.fetch_add(1, Ordering::SeqCst);
                        let open = stats.open.fetch_add(1, Ordering::SeqCst) + 1;
                        stats.max_open.fetch_max(open, Ordering::SeqCst);
                        let _ = session(socket, &acceptor, &script, &stats).await;
                        stats.open.fetch_sub(1, Ordering::SeqCst);
                    });
                }
            })
        };
        Sink {
            port,
            cert_pem,
            stats,
            task,
        }
    }

    /// A relay builder pointed at the sink (STARTTLS, trusting its certificate; set
    /// `.tls(SmtpTls::Implicit)` for a sink started with `implicit`).
    pub fn relay(&self) -> SmtpRelayBuilder {
        SmtpRelay::builder("localhost")
            .port(self.port)
            .api_key(KEY)
            .add_root_certificate_pem(self.cert_pem.as_bytes().to_vec())
            .timeout(Duration::from_secs(20))
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.stats.connections.load(Ordering::SeqCst)
    }

    /// Subjects of the messages accepted so far.
    pub fn accepted(&self) -> Vec<String> {
        self.stats.accepted.lock().unwrap().clone()
    }
}

type Io = Box<dyn IoStream>;
trait IoStream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> IoStream for T {}

async fn read_line<R: AsyncBufReadExt + Unpin>(reader: &mut R) -> std::io::Result<String> {
    let mut line = Vec::new();
    let n = reader.take(MAX_LINE).read_until(b'\n', &mut line).await?;
    if n == 0 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(String::from_utf8_lossy(&line).trim_end().to_owned())
}

async fn reply<W: AsyncWrite + Unpin>(writer: &mut W, text: &str) -> std::io::Result<()> {
    writer.write_all(text.as_bytes()).await?;
    writer.flush().await
}

async fn session(
    socket: TcpStream,
    acceptor: &TlsAcceptor,
    script: &Script,
    stats: &Stats,
) -> std::io::Result<()> {
    socket.set_nodelay(true)?;
    if script.implicit {
        let tls = acceptor.accept(socket).await?;
        let mut io: BufReader<Io> = BufReader::new(Box::new(tls));
        reply(&mut io, "220 sink ESMTP\r\n").await?;
        return encrypted(io, script, stats).await;
    }
    // Plain phase: greeting, EHLO, STARTTLS.
    let mut plain = BufReader::new(socket);
    reply(&mut plain, "220 sink ESMTP\r\n").await?;
    loop {
        let line = read_line(&mut plain).await?;
        let verb = line.split(' ').next().unwrap_or("").to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" => reply(&mut plain, "250-sink\r\n250-STARTTLS\r\n250 8BITMIME\r\n").await?,
            "STARTTLS" => {
                reply(&mut plain, "220 2.0.0 go ahead\r\n").await?;
                break;
            }
            "QUIT" => {
                stats.quits.fetch_add(1, Ordering::SeqCst);
                return reply(&mut plain, "221 bye\r\n").await;
            }
            _ => reply(&mut plain, "530 5.7.0 STARTTLS first\r\n").await?,
        }
    }
    let tls = acceptor.accept(plain.into_inner()).await?;
    encrypted(BufReader::new(Box::new(tls)), script, stats).await
}

/// The encrypted phase: EHLO, AUTH and transactions.
async fn encrypted(mut io: BufReader<Io>, script: &Script, stats: &Stats) -> std::io::Result<()> {
    let mut authed = false;
    let mut messages_here = 0usize;
    loop {
        let line = read_line(&mut io).await?;
        let verb = line.split(' ').next().unwrap_or("").to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" => {
                reply(
                    &mut io,
                    "250-sink\r\n250-AUTH PLAIN LOGIN\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n",
                )
                .await?
            }
            "AUTH" => {
                let given = line.split(' ').nth(2).unwrap_or("");
                let decoded = base64::engine::general_purpose::STANDARD
                    .decode(given)
                    .unwrap_or_default();
                let expected = format!("\0apikey\0{KEY}");
                authed = decoded == expected.as_bytes();
                let answer = if authed {
                    "235 2.7.0 ok\r\n"
                } else {
                    "535 5.7.8 bad credentials\r\n"
                };
                reply(&mut io, answer).await?;
            }
            "MAIL" if !authed => reply(&mut io, "530 5.7.0 AUTH first\r\n").await?,
            "MAIL" => {
                if script.mail_421_on_reuse && messages_here > 0 {
                    reply(&mut io, "421 4.4.2 sink closing idle connection\r\n").await?;
                    return Ok(());
                }
                reply(&mut io, "250 2.1.0 ok\r\n").await?
            }
            "RCPT" => reply(&mut io, "250 2.1.5 ok\r\n").await?,
            "DATA" => {
                reply(&mut io, "354 go ahead\r\n").await?;
                let mut subject = String::new();
                loop {
                    let line = read_line(&mut io).await?;
                    if line == "." {
                        break;
                    }
                    if let Some(s) = line.strip_prefix("Subject: ") {
                        subject = s.to_owned();
                    }
                }
                stats.contents.fetch_add(1, Ordering::SeqCst);
                if script.drop_after_content_on_reuse && messages_here > 0 {
                    return Ok(());
                }
                if !script.data_delay.is_zero() {
                    tokio::time::sleep(script.data_delay).await;
                }
                stats.accepted.lock().unwrap().push(subject);
                reply(&mut io, "250 2.0.0 Ok: queued\r\n").await?;
                messages_here += 1;
                if script.close_after.is_some_and(|n| messages_here >= n) {
                    return Ok(());
                }
            }
            "RSET" | "NOOP" => reply(&mut io, "250 2.0.0 ok\r\n").await?,
            "QUIT" => {
                stats.quits.fetch_add(1, Ordering::SeqCst);
                return reply(&mut io, "221 2.0.0 bye\r\n").await;
            }
            _ => reply(&mut io, "500 5.5.2 what?\r\n").await?,
        }
    }
}

/// A small message with `subject`.
pub fn message(subject: &str) -> tidings_runtime::smtp::lettre::Message {
    tidings_runtime::smtp::lettre::Message::builder()
        .from("ada@example.com".parse().unwrap())
        .to("grace@example.com".parse().unwrap())
        .subject(subject)
        .body("Hello from the pool tests.\r\n".to_owned())
        .unwrap()
}
