//! Why one SMTP attempt failed, as the pool and the TLS connector report it to the transport,
//! which turns it into the crate's `Error`.

/// Why a message did not go through.
pub(super) enum Failure {
    /// lettre's error, from connecting, TLS, AUTH or the transaction.
    Smtp(lettre::transport::smtp::Error),
    /// STARTTLS is required and the relay does not offer it.
    NoStartTls,
    /// The message needs an extension the relay does not offer (nothing was sent).
    Unsupported(&'static str),
    /// The TCP connection could not be made.
    Connect(std::io::Error),
    /// The TLS handshake of an implicit-TLS connection failed (a certificate not trusted, say).
    Tls(std::io::Error),
}

impl From<lettre::transport::smtp::Error> for Failure {
    fn from(err: lettre::transport::smtp::Error) -> Self {
        Failure::Smtp(err)
    }
}
