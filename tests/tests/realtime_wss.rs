//! `wss://`: a realtime connection over TLS. A TLS-terminating proxy on loopback (a throwaway
//! certificate for `localhost`, made here) sits in front of the sandbox's realtime server. With
//! the certificate added to the connection's trust the client connects, subscribes and gets the
//! confirmation through TLS; without it the handshake is refused and the error says why.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tidings::pusher::{self, ConnectionState};
use tidings_sandbox::realtime::{RealtimeConfig, RealtimeSandbox};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::{TlsAcceptor, rustls};

const WAIT: Duration = Duration::from_secs(5);

/// A TLS proxy to `upstream` on a free port: the port and its certificate (PEM).
async fn tls_proxy(upstream: SocketAddr) -> (u16, String) {
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    let pem = certified.cert.pem();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(certified.key_pair.serialize_der().into());
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
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(socket).await else {
                    return; // a client that refused the certificate
                };
                let mut plain = TcpStream::connect(upstream).await.unwrap();
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    (port, pem)
}

#[tokio::test]
async fn wss_connects_through_tls_to_a_server_whose_ca_was_added_and_refuses_one_not_added() {
    let sandbox = RealtimeSandbox::start(RealtimeConfig::default())
        .await
        .unwrap();
    let (port, pem) = tls_proxy(sandbox.addr()).await;
    let url = format!("wss://localhost:{port}");

    let trusted = pusher::connection(&url, sandbox.key())
        .add_root_certificate_pem(pem.as_bytes().to_vec())
        .connect()
        .unwrap();
    trusted
        .wait_for(ConnectionState::Connected, WAIT)
        .await
        .unwrap();
    let mut channel = trusted.subscribe("over-tls").unwrap();
    channel.wait_subscribed(WAIT).await.unwrap();
    assert_eq!(sandbox.connection_count(), 1);

    // The web roots alone do not know the throwaway CA: refused in the handshake.
    let untrusted = pusher::connection(&url, sandbox.key())
        .connect_timeout(Duration::from_secs(2))
        .connect()
        .unwrap();
    let err = untrusted
        .wait_for(ConnectionState::Connected, Duration::from_millis(1500))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("certificate"), "{err}");
    assert_eq!(sandbox.connection_count(), 1);

    // Text with no certificate in it is refused when connecting, not trusted as nothing.
    let err = pusher::connection(&url, sandbox.key())
        .add_root_certificate_pem(b"not a certificate".to_vec())
        .connect()
        .unwrap_err();
    assert!(err.to_string().contains("BEGIN CERTIFICATE"), "{err}");
}
