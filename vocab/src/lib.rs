//! The vocabulary of tidings specs, in one place.
//!
//! A spec (`spec/*.yaml`, or a provider's imported API document) is read by `tidings-codegen`,
//! checked and resolved into the values of this crate: what a service is ([`ServiceSpec`]), each
//! operation ([`OperationSpec`]), how lists page ([`PaginationSpec`]), where errors keep their
//! code and message ([`ErrorSpec`]), the retry and timeout policy ([`RetrySpec`],
//! [`TimeoutSpec`]), a realtime service's WebSocket protocol ([`WebSocketSpec`]) and the schema
//! table the sandbox serves from ([`ServiceSchema`]). The generator writes them as `static`
//! items (feature `tokens`: one `quote::ToTokens` per type); the runtime interprets them;
//! the sandbox serves them, also when it builds them at run time from a spec it loads
//! (`tidings-sandbox --spec`).
//!
//! Every default lives in [`defaults`].
//!
//! The descriptions are spec data: their fields are public and generated code builds them with
//! struct literal syntax, so they are deliberately not `#[non_exhaustive]`; they hold
//! `&'static` data so a client's descriptions cost nothing at run time. Those that carry text
//! take a [`Storage`] parameter ([`Static`] by default, [`Owned`] in the generator's resolved
//! model), so the generator and the runtime name one type; [`ToStatic`] turns one into the
//! other. The kinds a spec names ([`AuthKind`], [`PageKind`], [`BodyKind`], ...) sit beside the
//! descriptions they name (`AuthScheme::kind`).
//!
//! ```
//! use tidings_spec::*;
//!
//! static EMAIL: ServiceSpec = ServiceSpec {
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
//! static SEND_EMAIL: OperationSpec = OperationSpec::post("send_email", "/v1/emails").idempotency_key();
//! assert_eq!(SEND_EMAIL.method, Method::Post);
//! assert_eq!(EMAIL.timeouts.total(), defaults::TOTAL_TIMEOUT_MS);
//! ```
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod auth;
pub mod defaults;
mod errors;
mod format;
mod operation;
mod pagination;
#[cfg(feature = "pattern")]
pub mod pattern;
mod policy;
mod schema;
mod service;
mod storage;
#[cfg(feature = "tokens")]
mod tokens;
mod ty;
mod webhook;
mod websocket;

pub use auth::{AuthKind, AuthScheme, AuthSchemes, SigningKind, SigningScheme};
pub use errors::{ErrorBodySpec, ErrorSpec, FailureWhen, InSuccessSpec};
pub use format::Format;
pub use operation::{
    AnswerKind, ArrayStyle, BodyEncoding, BodyKind, FormStyle, HeaderType, Method, NestedStyle,
    OperationSpec, ResponseHeaderSpec, RetryClass,
};
pub use pagination::{PageKind, PageStyle, PaginationSpec};
pub use policy::{RetrySpec, TimeoutSpec};
pub use schema::{
    FieldSchema, PageSchema, ResourceAction, ResourceOp, ServiceSchema, ShapeSchema, TypeSchema,
    envelope_part, id_like, names_a_secret, names_in_place_of_id, untagged_fit_order,
};
pub use service::{
    CredentialSpec, IdempotencySpec, RateLimitHeaders, RateLimitSpec, ResponseLimitSpec,
    ServiceSpec,
};
pub use storage::{Intern, Owned, Static, Storage, ToStatic};
pub use ty::{BUILTIN_TYPES, Ty};
pub use webhook::{
    HmacAlgorithm, PUSHER, PayloadEncoding, STANDARD_WEBHOOKS, SecretFormat, SecretKind, Select,
    SignatureEncoding, SignatureScheme, SignedContent, SignedOver, WebhookSpec,
};
pub use websocket::{
    BackoffSpec, ChannelAuthKind, ChannelKindSpec, ChannelNameSpec, ClientEventSpec, CloseAction,
    CloseCodeSpec, DataEncoding, Direction, HeartbeatSpec, MessageRole, MessageSpec, WebSocketSpec,
};
