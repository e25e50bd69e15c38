//! The details some errors carry: an SMTP relay's reply, a body that did not decode, a body or
//! message over its limit, a webhook that failed verification.

use super::*;

/// A failure reply of an SMTP relay: `550 5.1.1 User unknown`.
///
/// The text comes from the relay, so it is bounded ([`MESSAGE_LIMIT`], [`CODE_LIMIT`]) and its
/// control characters escaped, like an [`ApiError`]'s.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SmtpReply {
    /// The reply code, e.g. 550 (RFC 5321 section 4.2).
    pub code: u16,
    /// The enhanced status code, e.g. `"5.1.1"` (RFC 3463), when the reply has one.
    pub enhanced: Option<String>,
    /// The reply text after the codes, lines joined by spaces.
    pub message: String,
}

impl SmtpReply {
    /// A reply from its code, enhanced status code and text (bounded and escaped here).
    pub fn new(code: u16, enhanced: Option<&str>, message: &str) -> SmtpReply {
        SmtpReply {
            code,
            enhanced: enhanced.map(|e| bounded_text(e, CODE_LIMIT)),
            message: bounded_text(message.trim(), MESSAGE_LIMIT),
        }
    }

    /// Whether the relay may accept later (a 4xx reply, RFC 5321 section 4.2.1); a 5xx reply
    /// is permanent.
    pub fn is_transient(&self) -> bool {
        (400..500).contains(&self.code)
    }

    /// Whether the relay refused the credentials (530, 534, 535, 538, or enhanced `5.7.8`).
    pub fn is_auth_failure(&self) -> bool {
        matches!(self.code, 530 | 534 | 535 | 538) || self.enhanced.as_deref() == Some("5.7.8")
    }
}

impl fmt::Display for SmtpReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code)?;
        if let Some(enhanced) = &self.enhanced {
            write!(f, " {}", Escaped(enhanced, CODE_LIMIT))?;
        }
        if !self.message.is_empty() {
            write!(f, " {}", Escaped(&self.message, MESSAGE_LIMIT))?;
        }
        Ok(())
    }
}

/// A body that did not decode into the expected type.
#[derive(Debug)]
#[non_exhaustive]
pub struct DecodeError {
    /// What failed, e.g. the serde message with line and column.
    pub message: String,
    /// HTTP status of the response, when the body came from one.
    pub status: Option<u16>,
    /// Request id of the response, when known.
    pub request_id: Option<String>,
    /// The start of the body (at most [`EXCERPT_LIMIT`] bytes).
    pub body_excerpt: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "could not decode response")?;
        if let Some(status) = self.status {
            write!(f, " (HTTP {status})")?;
        }
        // The serde message can quote server text (an unknown variant, a field name).
        write!(
            f,
            ": {}; body starts: {:?}",
            Escaped(&self.message, MESSAGE_LIMIT),
            self.body_excerpt
        )?;
        if let Some(id) = &self.request_id {
            write!(f, " [request id {}]", Escaped(id, ID_LIMIT))?;
        }
        Ok(())
    }
}

/// A successful answer whose body is larger than the client's limit.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TooLarge {
    /// The service, e.g. `"email"`.
    pub service: &'static str,
    /// The operation, e.g. `"get_email"`.
    pub operation: &'static str,
    /// HTTP status of the answer.
    pub status: u16,
    /// The limit in force, in bytes.
    pub limit: u64,
    /// The `Content-Length` the server declared, when that alone refused the body (nothing of
    /// it was read); `None` when the body was read up to the limit and went past it.
    pub declared: Option<u64>,
    /// The `x-request-id` header, when present (bounded and escaped).
    pub request_id: Option<String>,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "response to {}.{} (HTTP {}) too large: ",
            self.service, self.operation, self.status
        )?;
        match self.declared {
            Some(declared) => write!(
                f,
                "it declares {declared} bytes, over the limit of {} bytes",
                self.limit
            )?,
            None => write!(f, "the body went past the limit of {} bytes", self.limit)?,
        }
        if let Some(id) = &self.request_id {
            write!(f, " [request id {}]", Escaped(id, ID_LIMIT))?;
        }
        Ok(())
    }
}

/// Why a webhook was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WebhookFailure {
    /// The signing secret is not usable (e.g. not `whsec_<base64>`).
    InvalidSecret,
    /// A required header is missing or not text.
    MissingHeader(&'static str),
    /// The timestamp header is not a Unix time in seconds.
    InvalidTimestamp,
    /// The timestamp is further from now than the tolerance allows.
    TimestampOutOfTolerance,
    /// No signature matched.
    SignatureMismatch,
    /// The body is larger than the webhook body limit (bytes).
    BodyTooLarge {
        /// The limit that was exceeded, in bytes.
        limit: usize,
    },
    /// A form-encoded body has more parameters than the limit.
    TooManyParameters {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// None of the service's payload types matches the delivery (header, field or path).
    UnknownPayload,
    /// No secret was given for the signature scheme a payload type uses (its name).
    MissingSecret(&'static str),
}

impl fmt::Display for WebhookFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebhookFailure::InvalidSecret => f.write_str("invalid signing secret"),
            WebhookFailure::MissingHeader(name) => write!(f, "missing header `{name}`"),
            WebhookFailure::InvalidTimestamp => f.write_str("invalid timestamp"),
            WebhookFailure::TimestampOutOfTolerance => {
                f.write_str("timestamp outside the tolerance")
            }
            WebhookFailure::SignatureMismatch => f.write_str("no matching signature"),
            WebhookFailure::BodyTooLarge { limit } => {
                write!(f, "body larger than the limit of {limit} bytes")
            }
            WebhookFailure::TooManyParameters { limit } => {
                write!(f, "form body with more than {limit} parameters")
            }
            WebhookFailure::UnknownPayload => {
                f.write_str("no payload type of this service matches the delivery")
            }
            WebhookFailure::MissingSecret(scheme) => {
                write!(f, "no secret given for the signature scheme `{scheme}`")
            }
        }
    }
}

impl std::error::Error for WebhookFailure {}
