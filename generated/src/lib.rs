//! Typed Rust clients for the email, messaging and realtime services: the one dependency an
//! app needs.
//!
//! Each service module is generated from `spec/<service>.yaml` into a crate of its own
//! (`tidings-email`, `tidings-messaging`, `tidings-realtime`), re-exported here behind a cargo
//! feature of its name; `smtp`, `tls` and `http2` are features too (all on by default). The crates
//! ship the generated code, so an app compiles no generator; the `codegen` feature (off by
//! default) generates it from the specs at build time instead, for those who edit them.
//! Hand-written conveniences sit in the same modules as the generated items (such as
//! [`messaging::sms`], the SMS segment calculator). The engine underneath (auth, retries, rate
//! limits, timeouts, pagination, webhook checks) is [`runtime`].
//!
//! | To | Use |
//! |---|---|
//! | send email over HTTP | [`email::EmailClient`], [`email::SendEmailRequest`] |
//! | send email over SMTP | [`smtp::SmtpRelay`] |
//! | send SMS, WhatsApp, voice, Instagram | [`messaging::MessagingClient`], [`messaging::Message`] |
//! | trigger realtime events, read channels | [`realtime::RealtimeClient`] |
//! | subscribe over WebSocket (presence, encrypted) | [`pusher::connection`], [`pusher::Connection`], [`pusher::Channel`] |
//! | authorize channels on the app server | [`pusher::authorize_channel`], [`pusher::authorize_presence`] |
//! | verify webhooks | [`email::verify_webhook`], [`messaging::verify_webhook`], [`realtime::verify_webhook`], with [`http::HeaderMap`] |
//! | read every page | each `list_*_stream` method: an [`ItemStream`] (read it with `futures-util`'s `StreamExt`) |
//! | set timeouts, retries, an idempotency key per call | [`CallOptions`] with the client's `with_options`; [`RetryPolicy`], [`RateLimit`] on its builder ([`ClientBuilder`]) |
//! | handle errors | [`Error`]: [`Error::kind`], [`Error::status`], [`Error::context`] (which call, what to do) |
//!
//! Each client's `from_env()` reads the variables its spec names (`COMMS_EMAIL_BASE_URL` and
//! `COMMS_EMAIL_API_KEY` for email) and names every missing one at once:
//!

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(feature = "email", doc = "```no_run")]
#![cfg_attr(not(feature = "email"), doc = "```ignore")]
//! use tidings::email::{EmailClient, SendEmailRequest};
//!
//! # async fn example() -> Result<(), tidings::Error> {
//! let email = EmailClient::from_env()?;
//! let request = SendEmailRequest::new("Ada <ada@example.com>", ["grace@example.com"])
//!     .subject("Hello")
//!     .text("Sent from Rust.");
//! let sent = email.send_email(&request).await?;
//! println!("queued as {}", sent.id);
//! # Ok(())
//! # }
//! ```

pub use tidings_runtime::ratelimit::RateLimit;
pub use tidings_runtime::{
    ApiError, Call, CallContext, CallOptions, Client, ClientBuilder, DecodeError, Error, ErrorKind,
    ItemStream, Result, RetryPolicy, Secret, SmtpReply, TimeoutKind, TooLarge, WebhookFailure,
};

/// The JSON crate the clients speak (`serde_json`), re-exported so an app reads event data and
/// builds JSON payloads without adding it (and without a second version of it):
///
/// ```
/// use tidings::serde_json::{self, json};
///
/// let data = json!({"order": 1042});
/// let back: serde_json::Value = serde_json::from_str(&data.to_string()).unwrap();
/// assert_eq!(back["order"], 1042);
/// ```
pub use serde_json;

/// The engine underneath (`tidings-runtime`), for what the re-exports leave out: the untyped
/// client and request, service and operation specs, custom signers and rate limiters.
#[doc(inline)]
pub use tidings_runtime as runtime;

/// HTTP header types, as `verify_webhook` and [`CallOptions`] take them (the `http` crate's,
/// re-exported so an app needs no `http` dependency of its own).
pub mod http {
    pub use tidings_runtime::reqwest::header::{HeaderMap, HeaderName, HeaderValue};
}

/// The email service's SMTP relay (feature `smtp`): send a
/// [`SendEmailRequest`](crate::email::SendEmailRequest) over SMTP with pooled connections.
#[cfg(feature = "smtp")]
#[cfg_attr(docsrs, doc(cfg(feature = "smtp")))]
pub mod smtp {
    pub use tidings_runtime::smtp::{SmtpReceipt, SmtpRelay, SmtpRelayBuilder, SmtpTls};
}

// Each service is a crate of its own (`tidings-email`, `tidings-messaging`, `tidings-realtime`),
// generated from its spec, so that an edit of one spec recompiles that service only; its module
// is re-exported here under its feature, with its badge (`doc(cfg)`).
#[cfg(feature = "email")]
#[cfg_attr(docsrs, doc(cfg(feature = "email")))]
pub use tidings_email::email;

#[cfg(feature = "messaging")]
#[cfg_attr(docsrs, doc(cfg(feature = "messaging")))]
pub use tidings_messaging::messaging;

#[cfg(feature = "realtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "realtime")))]
pub use tidings_realtime::pusher;
#[cfg(feature = "realtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "realtime")))]
pub use tidings_realtime::realtime;

/// The README's Rust examples, compiled as doctests so they stay true.
#[cfg(all(doctest, feature = "email", feature = "messaging"))]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
