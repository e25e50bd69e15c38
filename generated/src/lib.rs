//! Typed Rust clients for the email, messaging and realtime services.
//!
//! Every module here is generated at build time from `spec/<service>.yaml` by `comms-codegen`
//! and calls into [`comms_runtime`], the hand-written engine (auth, retries, rate limiting,
//! timeouts, errors, pagination, webhooks). Each service sits behind a cargo feature of its name.
//!
//! Hand-written conveniences (`src/ext/`) sit in the same modules as the generated items, such
//! as `comms::messaging::sms` (the SMS segment calculator).
//!
#![cfg_attr(feature = "email", doc = "```no_run")]
#![cfg_attr(not(feature = "email"), doc = "```ignore")]
//! # async fn example() -> Result<(), comms_runtime::Error> {
//! let email = comms::email::EmailClient::from_env()?;
//! # let _ = email;
//! # Ok(())
//! # }
//! ```

pub use comms_runtime::{
    ApiError, Call, CallContext, CallOptions, DecodeError, Error, ErrorKind, ItemStream, RateLimit,
    Result, RetryPolicy, Secret, TimeoutKind, TooLarge, WebhookFailure,
};

/// HTTP header types, as `verify_webhook` and [`CallOptions`] take them (the `http` crate's,
/// re-exported so an app needs no `http` dependency of its own).
pub mod http {
    pub use comms_runtime::reqwest::header::{HeaderMap, HeaderName, HeaderValue};
}

/// The email service's SMTP relay (feature `smtp`): send a
/// [`SendEmailRequest`](crate::email::SendEmailRequest) over SMTP with pooled connections.
#[cfg(feature = "smtp")]
pub mod smtp {
    pub use comms_runtime::smtp::{SmtpReceipt, SmtpRelay, SmtpRelayBuilder, SmtpTls};
}

mod ext;

#[cfg(feature = "email")]
include!(concat!(env!("OUT_DIR"), "/email.rs"));

#[cfg(feature = "messaging")]
include!(concat!(env!("OUT_DIR"), "/messaging.rs"));

#[cfg(feature = "realtime")]
include!(concat!(env!("OUT_DIR"), "/realtime.rs"));
#[cfg(feature = "realtime")]
pub use ext::realtime::pusher;

/// The README's Rust examples, compiled as doctests so they stay true.
#[cfg(all(doctest, feature = "email", feature = "messaging"))]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
