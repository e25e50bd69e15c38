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
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

use super::pool::Failure;
use crate::Error;

/// The TLS settings of implicit-TLS connections: the web roots plus `extra_roots_pem` (each a
/// PEM text with at least one certificate, checked by the builder), or, with
/// `accept_invalid_certs`, any certificate (signatures still checked).
pub(super) fn client_config(
    extra_roots_pem: &[Vec<u8>],
    accept_invalid_certs: bool,
) -> Result<Arc<ClientConfig>, Error> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::config(format!("TLS settings for the SMTP relay: {e}")))?;
    let config = if accept_invalid_certs {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AcceptAnyCertificate(provider)))
            .with_no_client_auth()
    } else {
        let mut roots = RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        for pem in extra_roots_pem {
            for cert in CertificateDer::pem_slice_iter(pem) {
                let cert = cert.map_err(|e| {
                    Error::config(format!("a trusted certificate does not parse: {e}"))
                })?;
                roots.add(cert).map_err(|e| {
                    Error::config(format!("a trusted certificate does not parse: {e}"))
                })?;
            }
        }
        builder.with_root_certificates(roots).with_no_client_auth()
    };
    Ok(Arc::new(config))
}

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

/// `danger_accept_invalid_certs`: any certificate for any name, as lettre's switch does; the
/// handshake's signatures are still checked.
#[derive(Debug)]
struct AcceptAnyCertificate(Arc<CryptoProvider>);

impl ServerCertVerifier for AcceptAnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}
