//! Implicit TLS (port 465) on a socket of our own: lettre opens that socket itself and leaves
//! Nagle on, so a message's final dot (a second small write) waited for the relay's delayed ACK,
//! 40 ms per message. Here the relay connects, turns Nagle off, does the TLS handshake with the
//! same trust as lettre's (the web roots, the builder's extra roots, or the test-only switch)
//! and hands lettre the encrypted stream.

use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use lettre::transport::smtp::client::AsyncTokioStream;
use rustls::ClientConfig;
use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

use super::failure::Failure;

/// Connects to `host:port` with Nagle off and does the TLS handshake, within `timeout`: a
/// failure to connect (or the time running out) is [`Failure::Connect`], a failed handshake
/// [`Failure::Tls`].
pub(super) async fn connect(
    host: &str,
    port: u16,
    config: Arc<ClientConfig>,
    timeout: Duration,
) -> Result<Box<dyn AsyncTokioStream>, Failure> {
    let name = ServerName::try_from(host.to_owned())
        .map_err(|e| Failure::Tls(io::Error::new(io::ErrorKind::InvalidInput, e)))?;
    let connecting = async {
        let tcp = TcpStream::connect((host, port))
            .await
            .map_err(Failure::Connect)?;
        tcp.set_nodelay(true).map_err(Failure::Connect)?;
        tokio_rustls::TlsConnector::from(config)
            .connect(name, tcp)
            .await
            .map_err(Failure::Tls)
    };
    let tls = tokio::time::timeout(timeout, connecting)
        .await
        .map_err(|_| Failure::Connect(io::ErrorKind::TimedOut.into()))??;
    Ok(Box::new(TlsSocket(tls)))
}

/// The encrypted stream, as lettre takes an existing one.
struct TlsSocket(TlsStream<TcpStream>);

impl fmt::Debug for TlsSocket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TlsSocket")
            .field(&self.0.get_ref().0)
            .finish()
    }
}

impl AsyncTokioStream for TlsSocket {
    fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.0.get_ref().0.peer_addr()
    }
}

impl AsyncRead for TlsSocket {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_read(cx, buf)
    }
}

impl AsyncWrite for TlsSocket {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().0).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_shutdown(cx)
    }
}
