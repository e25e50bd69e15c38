//! Whom a TLS connection the runtime opens itself trusts: the web roots plus certificates the
//! application adds (a relay or realtime server with a private CA), or, through the SMTP
//! relay's test-only switch, any certificate. Used by the SMTP relay's implicit TLS and by
//! `wss://` connections given extra roots.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};

use crate::Error;

/// TLS client settings: the web roots plus the certificates of `extra_roots_pem` (each PEM text
/// with at least one certificate), or, with `accept_invalid_certs`, any certificate (the
/// handshake's signatures still checked).
pub(crate) fn client_config(
    extra_roots_pem: &[Vec<u8>],
    accept_invalid_certs: bool,
) -> Result<Arc<ClientConfig>, Error> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::config(format!("TLS settings: {e}")))?;
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
            check_pem(pem)?;
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

/// Refuses PEM text with no certificate in it, which would otherwise trust nothing, silently.
pub(crate) fn check_pem(pem: &[u8]) -> Result<(), Error> {
    if pem.windows(27).any(|w| w == b"-----BEGIN CERTIFICATE-----") {
        Ok(())
    } else {
        Err(Error::config(
            "a trusted certificate is not PEM (no BEGIN CERTIFICATE block)",
        ))
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
