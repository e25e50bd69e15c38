//! `tidings-runtime`: the hand-written engine behind the generated `tidings` clients.
//!
//! Generated code describes each service and operation as `'static` data
//! ([`spec::ServiceSpec`], [`spec::OperationSpec`]), fills a [`Request`] and calls the one
//! non-generic entry point, [`Client::execute`]. Everything that is the same for every service
//! lives here: configuration ([`ClientBuilder`], [`CallOptions`]), auth ([`TokenMinter`],
//! [`oauth2`]) and request signing ([`Signer`]), retries ([`RetryPolicy`]), client-side rate
//! limiting ([`ratelimit`]), the HTTP pipeline ([`Client::execute`]), errors ([`Error`]),
//! pagination ([`paginate()`]), webhook verification ([`webhook`]), secrets ([`Secret`]),
//! pre-send validation ([`validate`]), open tagged unions ([`union`]) and the [`open_enum!`]
//! macro.
//!
//! Every public type has one path: the client's own types at the root
//! (`tidings_runtime::Error`), the descriptions in [`spec`], and each feature beside the HTTP
//! client in its module ([`ratelimit::RateLimit`], [`webhook::Verifier`]).
//!
//! The API generated code may use is pinned in `docs/RUNTIME_CONTRACT.md`.
//!
//! Layers, bottom up; a module imports only from the layers below it, so the module graph has
//! no cycle (`scripts/module-cycles runtime/src` prints it and fails on one):
//! 1. [`spec`] (the descriptions, defined in the `tidings-spec` crate), `secret`, `random`:
//!    data, no behaviour;
//! 2. `retry`: the [`RetryPolicy`] and every retry rule (what is retryable, backoff, the
//!    `Retry-After` cap, the budget);
//! 3. `error` (asks `retry` what is retryable), then [`validate`], `sign`, `headers` (every
//!    response header the runtime reads);
//! 4. `auth`, [`ratelimit`] ([`ratelimit::RateLimit`] with its limiters), `request`, `response` (reading
//!    and classifying an answer), `options` (timeouts, body limits, [`CallOptions`]);
//! 5. `pipeline`: the attempt loop; it only asks the retry, limiter, auth and timeout parts;
//! 6. `client`: [`Client`] with its [`ClientBuilder`] (auth resolved once per call);
//! 7. `call`, [`paginate()`], [`webhook`], `smtp`, `realtime`.
//!
//! Cargo features: `tls` (default; HTTPS, and `wss://` for `realtime`, through rustls with the
//! webpki roots; without it an `https` base URL is an [`Error::Config`] unless you pass your own
//! HTTP client), `http2` (default; HTTP/2 negotiated over TLS, else HTTP/1.1 only), `smtp` (the
//! SMTP relay, with rustls of its own), `realtime` (the WebSocket client) and `server` (the form
//! and multipart body decoders a server needs; `tidings-sandbox` turns it on). A client that only
//! calls `http://` endpoints (a sidecar, a sandbox, a TLS-terminating proxy) can take
//! `default-features = false` and skip compiling TLS and HTTP/2.
//!
//! ```no_run
//! use tidings_runtime::spec::*;
//! use tidings_runtime::{Client, Error};
//!
//! static SPEC: ServiceSpec = ServiceSpec {
//!     name: "email",
//!     title: "Email service",
//!     base_url: None,
//!     base_url_env: "COMMS_EMAIL_BASE_URL",
//!     credentials: &[CredentialSpec { name: "api_key", env: "COMMS_EMAIL_API_KEY", secret: true, value: None }],
//!     auth: &[AuthScheme::Bearer { credential: "api_key" }],
//!     rate_limit: Some(RateLimitSpec { requests: 1000, per_seconds: 60 }),
//!     rate_limit_headers: RateLimitHeaders::STANDARD,
//!     retry: RetrySpec::DEFAULT,
//!     timeouts: TimeoutSpec::DEFAULT,
//!     idempotency: Some(IdempotencySpec { header: "Idempotency-Key", max_len: 256 }),
//!     errors: ErrorSpec::DEFAULT,
//! };
//! static SEND: OperationSpec = OperationSpec::post("send_email", "/v1/emails").idempotency_key();
//!
//! # async fn demo() -> Result<(), Error> {
//! let client = Client::from_env(&SPEC)?;
//! let body = serde_json::json!({"from": "a@example.com", "to": ["b@example.com"], "subject": "hi"});
//! let request = tidings_runtime::Request::new(&SEND).json(&body)?;
//! let sent: serde_json::Value = client.execute(request).await?.json()?;
//! # let _ = sent; Ok(()) }
//! ```

#![forbid(unsafe_code)]
// Feature badges (`doc(cfg)`) when docs are built with `--cfg docsrs` on nightly.
#![cfg_attr(docsrs, feature(doc_cfg))]

// Private modules, their public items re-exported here, so that each has one path
// (`tidings_runtime::Error`, not also `tidings_runtime::error::Error`). The public modules
// are namespaces of their own: descriptions (`spec`), wire helpers generated code calls
// (`object`, `union`, `validate`, `query`, `form`, `dates`), and the features beside the
// HTTP client (`ratelimit`, `oauth2`, `webhook`, `smtp`, `realtime`).
mod auth;
mod base_url;
mod call;
mod client;
pub mod dates;
mod error;
pub mod form;
mod headers;
mod macros;
pub mod oauth2;
pub mod object;
mod options;
mod paginate;
mod pipeline;
pub mod query;
mod random;
pub mod ratelimit;
#[cfg(feature = "realtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "realtime")))]
pub mod realtime;
mod request;
mod response;
mod retry;
mod secret;
mod sign;
#[cfg(feature = "smtp")]
#[cfg_attr(docsrs, doc(cfg(feature = "smtp")))]
pub mod smtp;
pub mod spec;
#[cfg(any(feature = "smtp", all(feature = "tls", feature = "realtime")))]
mod trust;
pub mod union;
pub mod validate;
pub mod webhook;
// Shared by `query` and `form`: ordered JSON form of a value, one value's text as a type.
mod wire_text;

pub use reqwest;

pub use auth::{MintFuture, MintRequest, TokenMinter};
pub use base_url::plain_http_env;
pub use call::{Answered, Call, WithHeaders};
pub use client::{Client, ClientBuilder};
pub use error::{
    ApiError, CallContext, DecodeError, Error, ErrorKind, SmtpReply, TimeoutKind, TooLarge,
    WebhookFailure,
};
pub use options::{CallOptions, DEFAULT_TOTAL_TIMEOUT};
pub use paginate::{DEFAULT_MAX_PAGES, ItemStream, NextPage, Page, paginate};
pub use request::{Binary, Request};
pub use response::Response;
pub use retry::RetryPolicy;
pub use secret::{Secret, constant_time_eq};
pub use sign::{PusherSigner, SignableRequest, SignedParts, Signer};

/// `Result` with this crate's [`Error`]: what every generated method returns.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Re-exports used by macro expansions; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use serde;

    // For the fuzz targets: the excerpt an error body is kept as.
    pub use crate::error::excerpt;
}
