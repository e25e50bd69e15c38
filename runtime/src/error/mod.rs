//! The one error type of the runtime, [`Error`], with its [`ErrorKind`], the API error details
//! read from error bodies where the spec says they are ([`crate::spec::ErrorSpec`], by default
//! `{"error": {...}}`), and bounded body excerpts. Server-provided text is
//! bounded and its control characters escaped before it reaches a `Display` or a log line.

use std::fmt;
use std::time::Duration;

use crate::retry::Transience;

pub(crate) mod advice;
mod api;
mod context;
mod text;
pub use api::ApiError;
pub(crate) use api::json_at;
pub(crate) use api::scalar_text;
use context::Advice;
pub use context::CallContext;
pub(crate) use text::Escaped;
pub(crate) use text::bounded_text;
pub use text::excerpt;

// The bounds on server-provided text, documented on [`ApiError`]'s constants.
pub(crate) const EXCERPT_LIMIT: usize = ApiError::EXCERPT_LIMIT;
pub(crate) const MESSAGE_LIMIT: usize = ApiError::MESSAGE_LIMIT;
pub(crate) const CODE_LIMIT: usize = ApiError::CODE_LIMIT;
pub(crate) const ID_LIMIT: usize = ApiError::ID_LIMIT;
pub(crate) const BODY_JSON_LIMIT: usize = ApiError::BODY_JSON_LIMIT;
pub(crate) const MAX_ERROR_HEADERS: usize = ApiError::MAX_ERROR_HEADERS;

/// Everything that can go wrong in a call, in verification or in configuration.
///
/// Never contains a credential: transport errors are stripped of their URL, and auth header
/// values are never copied into errors.
///
/// ```
/// # use tidings_runtime::{Call, ErrorKind};
/// # async fn demo(call: Call<String>) {
/// // `call`: what any generated method returns, e.g. `email.get_email("em_1")`.
/// match call.await {
///     Ok(answer) => println!("{answer:?}"),
///     Err(err) if err.kind() == ErrorKind::RateLimited => eprintln!("slow down: {err}"),
///     Err(err) => eprintln!("failed ({:?}, request id {:?}): {err}", err.status(), err.request_id()),
/// }
/// # }
/// ```
///
/// `Debug` is short and readable, because `fn main() -> Result<(), Box<dyn std::error::Error>>`
/// prints it: the kind, then the `Display` text (`Api: HTTP 404 not_found: no such email`).
/// `{:#?}` lists the details (status, code, request id, SMTP reply, call context) one a line.
#[non_exhaustive]
pub enum Error {
    /// The request was rejected before it was sent.
    #[non_exhaustive]
    InvalidRequest {
        /// The offending field, parameter or option.
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// The server refused the credentials (401 or 403).
    Auth(Box<ApiError>),
    /// Too many requests: the server answered 429, or the client-side limiter could not grant a
    /// slot before the deadline.
    #[non_exhaustive]
    RateLimited {
        /// How long the server (or the limiter) asked to wait, when known.
        retry_after: Option<Duration>,
        /// The server's answer, when there was one.
        api: Option<Box<ApiError>>,
        /// The call it ended and what to do, when it came from a call.
        context: Option<Box<CallContext>>,
    },
    /// The server answered with an error status.
    Api(Box<ApiError>),
    /// An SMTP relay refused with a failure reply (RFC 5321): its reply code, enhanced status
    /// code and text. Not an HTTP status: [`Error::status`] is `None` for it. Transient (4xx)
    /// replies are retryable, permanent (5xx) ones are not ([`SmtpReply::is_transient`]),
    /// refused credentials included ([`SmtpReply::is_auth_failure`]).
    Smtp(Box<SmtpReply>),
    /// A timeout elapsed.
    #[non_exhaustive]
    Timeout {
        /// Which timeout.
        kind: TimeoutKind,
        /// The configured duration that elapsed.
        after: Duration,
        /// The call it ended and what to do, when it came from a call.
        context: Option<Box<CallContext>>,
    },
    /// The connection failed or broke.
    #[non_exhaustive]
    Transport {
        /// What happened, without the URL.
        message: Box<str>,
        /// Whether the failure happened while connecting (the request never left).
        connect: bool,
        /// The underlying error, stripped of its URL.
        source: Option<reqwest::Error>,
        /// The call it ended and what to do, when it came from a call.
        context: Option<Box<CallContext>>,
    },
    /// A body could not be decoded into the expected type.
    Decode(Box<DecodeError>),
    /// A successful answer's body was larger than the client accepts (see
    /// [`crate::ClientBuilder::max_response_bytes`]). Not retryable: the same request would get
    /// the same body.
    ResponseTooLarge(Box<TooLarge>),
    /// A webhook failed verification.
    Webhook(WebhookFailure),
    /// A shared rate limiter (Redis) could not be reached and is configured to fail closed:
    /// nothing was sent.
    #[non_exhaustive]
    LimiterUnavailable {
        /// What failed, without the store's address or password.
        message: String,
        /// The call it ended and what to do, when it came from a call.
        context: Option<Box<CallContext>>,
    },
    /// The client could not be configured.
    #[non_exhaustive]
    Config {
        /// What is missing or wrong, naming the setting or environment variable.
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidRequest { field, message } => {
                write!(f, "invalid request: `{field}`: {message}")
            }
            Error::Auth(api) => match &api.context {
                Some(context) => write!(
                    f,
                    "authentication failed: {context}: {api}; {}",
                    context.advice
                ),
                None => write!(f, "authentication failed: {api}"),
            },
            Error::RateLimited {
                retry_after,
                api,
                context,
            } => {
                write!(f, "rate limited{}", RetryAfterDisplay(*retry_after))?;
                if let Some(context) = context {
                    write!(f, ": {context}")?;
                }
                write!(f, "{}", ApiSuffix(api.as_deref()))?;
                if let Some(context) = context {
                    write!(f, "; {}", context.advice)?;
                }
                Ok(())
            }
            Error::Api(api) => {
                write!(f, "{api}")?;
                if let Some(context) = &api.context {
                    write!(f, ": {context}{}", Advice(&context.advice))?;
                }
                Ok(())
            }
            Error::Smtp(reply) => {
                if reply.is_auth_failure() {
                    write!(f, "SMTP relay refused the credentials: {reply}")?;
                } else if reply.is_transient() {
                    write!(f, "SMTP relay refused for now (transient): {reply}")?;
                } else {
                    write!(f, "SMTP relay refused (permanent): {reply}")?;
                }
                match &reply.context {
                    Some(context) => write!(f, ": {context}{}", Advice(&context.advice)),
                    None if reply.is_auth_failure() => f.write_str(
                        "; check the API key (SmtpRelayBuilder::api_key) and the user name",
                    ),
                    None => Ok(()),
                }
            }
            Error::Timeout {
                kind,
                after,
                context,
            } => {
                write!(f, "{kind} timed out after {after:?}")?;
                if let Some(context) = context {
                    write!(f, ": {context}; {}", context.advice)?;
                }
                Ok(())
            }
            Error::Transport {
                message, context, ..
            } => match context {
                Some(c) => write!(f, "transport error: {c}: {message}{}", Advice(&c.advice)),
                None => write!(f, "transport error: {message}"),
            },
            Error::Decode(decode) => write!(f, "{decode}"),
            Error::ResponseTooLarge(too_large) => write!(f, "{too_large}"),
            Error::Webhook(failure) => write!(f, "webhook verification failed: {failure}"),
            Error::LimiterUnavailable { message, context } => match context {
                Some(c) => write!(
                    f,
                    "shared rate limiter unavailable: {c}: {message}{}",
                    Advice(&c.advice)
                ),
                None => write!(f, "shared rate limiter unavailable: {message}"),
            },
            Error::Config { message } => write!(f, "configuration error: {message}"),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return write!(f, "{:?}: {self}", self.kind());
        }
        let mut d = f.debug_struct("Error");
        d.field("kind", &self.kind());
        if let Some(status) = self.status() {
            d.field("status", &status);
        }
        if let Some(code) = self.code() {
            d.field("code", &code);
        }
        if let Some(message) = self.api_error().and_then(|a| a.message.as_deref()) {
            d.field("message", &message);
        }
        if let Some(id) = self.request_id() {
            d.field("request_id", &id);
        }
        if let Some(reply) = self.smtp_reply() {
            d.field("smtp_reply", reply);
        }
        if let Some(context) = self.context() {
            d.field("context", context);
        }
        if let Some(excerpt) = self.api_error().map(|a| &a.body_excerpt)
            && !excerpt.is_empty()
        {
            d.field("body_excerpt", &Escaped(excerpt, 160).to_string());
        }
        d.field("display", &self.to_string()).finish()
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Transport {
                source: Some(source),
                ..
            } => Some(source),
            _ => None,
        }
    }
}

/// The kind of an [`Error`], for matching without destructuring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// See [`Error::InvalidRequest`].
    InvalidRequest,
    /// See [`Error::Auth`].
    Auth,
    /// See [`Error::RateLimited`].
    RateLimited,
    /// See [`Error::Api`].
    Api,
    /// See [`Error::Smtp`].
    Smtp,
    /// See [`Error::Timeout`].
    Timeout,
    /// See [`Error::Transport`].
    Transport,
    /// See [`Error::Decode`].
    Decode,
    /// See [`Error::ResponseTooLarge`].
    ResponseTooLarge,
    /// See [`Error::Webhook`].
    Webhook,
    /// See [`Error::LimiterUnavailable`].
    LimiterUnavailable,
    /// See [`Error::Config`].
    Config,
}

/// Which timeout elapsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TimeoutKind {
    /// Establishing the connection.
    Connect,
    /// One attempt (send and read the response).
    Attempt,
    /// The whole call's deadline, retries included.
    Deadline,
}

impl fmt::Display for TimeoutKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TimeoutKind::Connect => "connect",
            TimeoutKind::Attempt => "attempt",
            TimeoutKind::Deadline => "call deadline",
        })
    }
}

/// A failure reply of an SMTP relay: `550 5.1.1 User unknown`.
///
/// The text comes from the relay, so it is bounded ([`ApiError::MESSAGE_LIMIT`], [`ApiError::CODE_LIMIT`]) and its
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
    /// The send it ended and what to do, when it came from the `smtp` feature's `SmtpRelay`.
    pub context: Option<Box<CallContext>>,
}

impl SmtpReply {
    /// A reply from its code, enhanced status code and text (bounded and escaped here).
    pub fn new(code: u16, enhanced: Option<&str>, message: &str) -> SmtpReply {
        SmtpReply {
            code,
            enhanced: enhanced.map(|e| bounded_text(e, CODE_LIMIT)),
            message: bounded_text(message.trim(), MESSAGE_LIMIT),
            context: None,
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
    /// The start of the body (at most [`ApiError::EXCERPT_LIMIT`] bytes).
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

impl Error {
    /// The kind of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::InvalidRequest { .. } => ErrorKind::InvalidRequest,
            Error::Auth(_) => ErrorKind::Auth,
            Error::RateLimited { .. } => ErrorKind::RateLimited,
            Error::Api(_) => ErrorKind::Api,
            Error::Smtp(_) => ErrorKind::Smtp,
            Error::Timeout { .. } => ErrorKind::Timeout,
            Error::Transport { .. } => ErrorKind::Transport,
            Error::Decode(_) => ErrorKind::Decode,
            Error::ResponseTooLarge(_) => ErrorKind::ResponseTooLarge,
            Error::Webhook(_) => ErrorKind::Webhook,
            Error::LimiterUnavailable { .. } => ErrorKind::LimiterUnavailable,
            Error::Config { .. } => ErrorKind::Config,
        }
    }

    /// The HTTP status of the server's answer, when there was one (never an SMTP reply code:
    /// see [`Error::smtp_reply`]).
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Auth(api) | Error::Api(api) => Some(api.status),
            Error::RateLimited { api, .. } => api.as_ref().map(|a| a.status),
            Error::Decode(d) => d.status,
            Error::ResponseTooLarge(t) => Some(t.status),
            _ => None,
        }
    }

    /// The server's request id, when known (body `error.request_id` or `x-request-id`).
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Auth(api) | Error::Api(api) => api.request_id.as_deref(),
            Error::RateLimited { api, .. } => api.as_ref().and_then(|a| a.request_id.as_deref()),
            Error::Decode(d) => d.request_id.as_deref(),
            Error::ResponseTooLarge(t) => t.request_id.as_deref(),
            _ => None,
        }
    }

    /// The server's error code (where the spec says it lives), for the errors that carry an
    /// [`ApiError`]. Generated `ErrorCode::of` reads it.
    pub fn code(&self) -> Option<&str> {
        self.api_error().and_then(|api| api.code.as_deref())
    }

    /// The SMTP relay's failure reply, for [`Error::Smtp`].
    pub fn smtp_reply(&self) -> Option<&SmtpReply> {
        match self {
            Error::Smtp(reply) => Some(reply),
            _ => None,
        }
    }

    /// The server's error details, for [`Error::Api`], [`Error::Auth`] and [`Error::RateLimited`].
    pub fn api_error(&self) -> Option<&ApiError> {
        match self {
            Error::Auth(api) | Error::Api(api) => Some(api),
            Error::RateLimited { api, .. } => api.as_deref(),
            _ => None,
        }
    }

    /// The call this error ended (service, operation, method, URL, attempts) and what to do,
    /// for every error a call's attempts end with: error statuses, refused credentials, rate
    /// limits, timeouts, transport failures, an unreachable shared limiter, and an SMTP relay's
    /// refusals, timeouts and broken connections (service `smtp`, operation `send`).
    ///
    /// ```
    /// # async fn demo(client: tidings_runtime::Client, request: tidings_runtime::Request) {
    /// if let Err(err) = client.execute(request).await {
    ///     if let Some(context) = err.context() {
    ///         eprintln!("{} attempts at {}: {}", context.attempts, context.url, context.advice);
    ///     }
    /// }
    /// # }
    /// ```
    pub fn context(&self) -> Option<&CallContext> {
        match self {
            Error::Auth(api) | Error::Api(api) => api.context.as_deref(),
            Error::Smtp(reply) => reply.context.as_deref(),
            Error::RateLimited { context, .. }
            | Error::Timeout { context, .. }
            | Error::Transport { context, .. }
            | Error::LimiterUnavailable { context, .. } => context.as_deref(),
            _ => None,
        }
    }

    /// Where this error keeps the call it ended: the errors a call's attempts end with (an
    /// error status, a refused credential, a rate limit, a timeout, a transport failure, an
    /// unreachable shared limiter, an SMTP reply); `None` for the others.
    pub(crate) fn context_slot(&mut self) -> Option<&mut Option<Box<CallContext>>> {
        match self {
            Error::Auth(api) | Error::Api(api) => Some(&mut api.context),
            Error::Smtp(reply) => Some(&mut reply.context),
            Error::RateLimited { context, .. }
            | Error::Timeout { context, .. }
            | Error::Transport { context, .. }
            | Error::LimiterUnavailable { context, .. } => Some(context),
            _ => None,
        }
    }

    /// Whether trying again later may succeed (transient statuses, rate limits, timeouts,
    /// transport failures). Says nothing about whether repeating is *safe*: the runtime decides
    /// that from the operation's [`crate::spec::RetryClass`].
    ///
    /// The same rules decide what a client retries ([`crate::RetryPolicy`]): the
    /// statuses of [`crate::spec::RetrySpec::DEFAULT`], timeouts and transport failures, plus every
    /// rate limit and an unreachable shared limiter.
    pub fn is_retryable(&self) -> bool {
        crate::retry::may_succeed_later(self.transience())
    }

    /// What this error says about trying again, for the retry rules.
    pub(crate) fn transience(&self) -> Transience {
        match self {
            Error::Timeout { .. } => Transience::Timeout,
            Error::Transport { .. } => Transience::Connection,
            Error::Api(api) | Error::Auth(api) => Transience::Status(api.status),
            Error::RateLimited { api, .. } => Transience::Throttled(api.as_ref().map(|a| a.status)),
            Error::Smtp(reply) => Transience::SmtpReply(reply.code),
            Error::LimiterUnavailable { .. } => Transience::LimiterUnavailable,
            Error::InvalidRequest { .. }
            | Error::Decode(_)
            | Error::ResponseTooLarge(_)
            | Error::Webhook(_)
            | Error::Config { .. } => Transience::Permanent,
        }
    }

    /// An [`Error::InvalidRequest`] about `field`.
    pub fn invalid_request(field: impl Into<String>, message: impl Into<String>) -> Error {
        Error::InvalidRequest {
            field: field.into(),
            message: message.into(),
        }
    }

    /// An [`Error::Config`].
    pub fn config(message: impl Into<String>) -> Error {
        Error::Config {
            message: message.into(),
        }
    }

    /// The [`Error::Config`] for `what` (a URL with a TLS scheme) in a build without TLS.
    #[cfg(not(feature = "tls"))]
    pub(crate) fn tls_not_compiled_in(what: &str) -> Error {
        Error::config(format!(
            "{what} needs TLS, which is not compiled in: enable the `tls` feature of \
             tidings-runtime (on by default)"
        ))
    }

    /// An [`Error::Decode`] for `body`, keeping an excerpt. `message` is bounded to
    /// [`ApiError::MESSAGE_LIMIT`] and escaped.
    pub fn decode(message: impl Into<String>, body: &[u8]) -> Error {
        Error::Decode(Box::new(DecodeError {
            message: bounded_text(&message.into(), MESSAGE_LIMIT),
            status: None,
            request_id: None,
            body_excerpt: excerpt(body),
        }))
    }

    /// Classifies an error status: 401/403 → [`Error::Auth`], 429 → [`Error::RateLimited`],
    /// anything else → [`Error::Api`].
    pub(crate) fn from_status(api: ApiError, retry_after: Option<Duration>) -> Error {
        match api.status {
            401 | 403 => Error::Auth(Box::new(api)),
            429 => Error::RateLimited {
                retry_after,
                api: Some(Box::new(api)),
                context: None,
            },
            _ => Error::Api(Box::new(api)),
        }
    }

    /// Wraps a transport error, dropping its URL (which may carry a query credential).
    pub(crate) fn transport(err: reqwest::Error) -> Error {
        let err = err.without_url();
        let connect = err.is_connect();
        let mut message = err.to_string();
        let mut source = std::error::Error::source(&err);
        while let Some(inner) = source {
            message.push_str(": ");
            message.push_str(&inner.to_string());
            source = inner.source();
        }
        Error::Transport {
            message: message.into(),
            connect,
            source: Some(err),
            context: None,
        }
    }
}

struct RetryAfterDisplay(Option<Duration>);

impl fmt::Display for RetryAfterDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(wait) => write!(f, " (retry after {wait:?})"),
            None => Ok(()),
        }
    }
}

struct ApiSuffix<'a>(Option<&'a ApiError>);

impl fmt::Display for ApiSuffix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(api) => write!(f, ": {api}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
