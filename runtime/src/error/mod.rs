//! The one error type of the runtime, [`Error`], with its [`ErrorKind`], the API error details
//! read from error bodies where the spec says they are ([`crate::ErrorSpec`], by default
//! `{"error": {...}}`), and bounded body excerpts. Server-provided text is
//! bounded and its control characters escaped before it reaches a `Display` or a log line.

use std::fmt;
use std::time::Duration;

use crate::retry::Transience;

mod api;
mod details;
mod text;

pub(crate) use api::scalar_text;
pub use api::{ApiError, CallContext, json_at};
pub use details::{DecodeError, SmtpReply, TooLarge, WebhookFailure};
pub(crate) use text::Escaped;
pub use text::{bounded_text, excerpt};

/// Longest body excerpt kept in an error, in bytes.
pub const EXCERPT_LIMIT: usize = 512;

/// Longest server-provided error message kept ([`ApiError::message`], [`DecodeError::message`]),
/// in bytes after escaping; longer ones are cut and end with `…`.
pub const MESSAGE_LIMIT: usize = 2048;

/// Longest server-provided error code ([`ApiError::code`]) kept, in bytes after escaping.
pub const CODE_LIMIT: usize = 128;

/// Longest server-provided `param` and request id kept, in bytes after escaping.
pub const ID_LIMIT: usize = 256;

/// Largest body kept decoded in [`ApiError::body`], in bytes (a longer one, e.g. a 2xx answer
/// that carries an error, keeps its code, message and excerpt only).
pub const BODY_JSON_LIMIT: usize = 64 * 1024;

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
        message: String,
        /// Whether the failure happened while connecting (the request never left).
        connect: bool,
        /// The underlying error, stripped of its URL.
        source: Option<reqwest::Error>,
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
            Error::Api(api) => write!(f, "{api}"),
            Error::Smtp(reply) if reply.is_auth_failure() => write!(
                f,
                "SMTP relay refused the credentials: {reply}; check the API key \
                 (SmtpRelayBuilder::api_key) and the user name"
            ),
            Error::Smtp(reply) if reply.is_transient() => {
                write!(f, "SMTP relay refused for now (transient): {reply}")
            }
            Error::Smtp(reply) => write!(f, "SMTP relay refused (permanent): {reply}"),
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
            Error::Transport { message, .. } => write!(f, "transport error: {message}"),
            Error::Decode(decode) => write!(f, "{decode}"),
            Error::ResponseTooLarge(too_large) => write!(f, "{too_large}"),
            Error::Webhook(failure) => write!(f, "webhook verification failed: {failure}"),
            Error::LimiterUnavailable { message } => {
                write!(f, "shared rate limiter unavailable: {message}")
            }
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
    /// for timeouts, refused credentials and rate limits that came from a call.
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
            Error::Auth(api) => api.context.as_deref(),
            Error::RateLimited { context, .. } | Error::Timeout { context, .. } => {
                context.as_deref()
            }
            _ => None,
        }
    }

    /// Whether trying again later may succeed (transient statuses, rate limits, timeouts,
    /// transport failures). Says nothing about whether repeating is *safe*: the runtime decides
    /// that from the operation's [`crate::RetryClass`].
    ///
    /// The answer comes from [`crate::retry`], which also decides what a client retries: the
    /// statuses of [`crate::RetrySpec::DEFAULT`], timeouts and transport failures, plus every
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
    /// [`MESSAGE_LIMIT`] and escaped.
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
            message,
            connect,
            source: Some(err),
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
