//! A raw SMTP client for the listener's limit tests: plain TCP or STARTTLS (trusting the
//! sandbox's self-signed certificate), one command and its whole reply at a time, so a test can
//! send exactly the bytes an attacker would.

#![allow(dead_code, clippy::unwrap_used)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tidings_sandbox::email::EmailSandbox;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};

/// How long a test waits for one reply before it fails.
pub const REPLY_WAIT: Duration = Duration::from_secs(10);

/// One SMTP conversation over `S`.
pub struct Client<S> {
    pub io: BufReader<S>,
}

/// A reply: its code and every line's text (after the code and separator).
#[derive(Debug, Clone)]
pub struct Reply {
    pub code: u16,
    pub text: String,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Client<S> {
    /// Sends bytes as they are.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.io.get_mut().write_all(bytes).await.unwrap();
        self.io.get_mut().flush().await.unwrap();
    }

    /// The next reply; `None` when the server closed the connection (or reset it) first.
    pub async fn reply(&mut self) -> Option<Reply> {
        let mut text = String::new();
        loop {
            let mut line = String::new();
            let read = tokio::time::timeout(REPLY_WAIT, self.io.read_line(&mut line))
                .await
                .expect("a reply within the wait");
            match read {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            let code: u16 = line.get(..3)?.parse().ok()?;
            text.push_str(line.get(4..).unwrap_or("").trim_end());
            text.push('\n');
            if line.as_bytes().get(3) != Some(&b'-') {
                return Some(Reply { code, text });
            }
        }
    }

    /// Sends one command line (CRLF added) and returns its reply.
    pub async fn command(&mut self, line: &str) -> Option<Reply> {
        self.send_raw(format!("{line}\r\n").as_bytes()).await;
        self.reply().await
    }

    /// Sends a command and asserts the reply's code.
    pub async fn expect(&mut self, line: &str, code: u16) -> Reply {
        let reply = self.command(line).await;
        match reply {
            Some(r) if r.code == code => r,
            other => panic!("`{line}`: expected {code}, got {other:?}"),
        }
    }

    /// True when the server closes the connection within the wait (EOF or reset).
    pub async fn closed(&mut self) -> bool {
        let mut rest = Vec::new();
        let read = tokio::io::AsyncReadExt::read_to_end(&mut self.io, &mut rest);
        tokio::time::timeout(REPLY_WAIT, read).await.is_ok()
    }
}

/// A plain connection, after the 220 greeting.
pub async fn connect(addr: SocketAddr) -> Client<TcpStream> {
    let stream = TcpStream::connect(addr).await.unwrap();
    let mut client = Client {
        io: BufReader::new(stream),
    };
    let greeting = client.reply().await.expect("a greeting");
    assert_eq!(greeting.code, 220, "{greeting:?}");
    client
}

/// EHLO, STARTTLS and EHLO again over TLS, trusting the sandbox's certificate.
pub async fn connect_tls(sandbox: &EmailSandbox) -> Client<TlsStream<TcpStream>> {
    let mut plain = connect(sandbox.smtp_addr().unwrap()).await;
    plain.expect("EHLO test", 250).await;
    plain.expect("STARTTLS", 220).await;
    let stream = plain.io.into_inner();
    let tls = tls_handshake(sandbox, stream).await;
    let mut client = Client {
        io: BufReader::new(tls),
    };
    client.expect("EHLO test", 250).await;
    client
}

/// The client side of the TLS handshake, trusting the sandbox's certificate.
pub async fn tls_handshake(sandbox: &EmailSandbox, stream: TcpStream) -> TlsStream<TcpStream> {
    let mut roots = rustls::RootCertStore::empty();
    let pem = sandbox.smtp_certificate_pem().unwrap();
    roots
        .add(CertificateDer::from_pem_slice(pem.as_bytes()).unwrap())
        .unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    TlsConnector::from(Arc::new(config))
        .connect(ServerName::try_from("localhost").unwrap(), stream)
        .await
        .unwrap()
}

/// AUTH PLAIN with user `apikey` and this password; the reply.
pub async fn auth_plain<S: AsyncRead + AsyncWrite + Unpin>(
    client: &mut Client<S>,
    password: &str,
) -> Option<Reply> {
    use base64::Engine as _;
    let token = base64::engine::general_purpose::STANDARD.encode(format!("\0apikey\0{password}"));
    client.command(&format!("AUTH PLAIN {token}")).await
}

/// A TLS session, logged in with the sandbox's key, ready for MAIL.
pub async fn logged_in(sandbox: &EmailSandbox) -> Client<TlsStream<TcpStream>> {
    let mut client = connect_tls(sandbox).await;
    let reply = auth_plain(&mut client, sandbox.api_key()).await.unwrap();
    assert_eq!(reply.code, 235, "{reply:?}");
    client
}
