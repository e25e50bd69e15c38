//! Server support shared by the sandboxed services, service-agnostic and driven by the specs:
//! the generated servers (`email_server`, `messaging_server`: a trait and an axum router per
//! service, from `tidings-codegen` with its `server` option) call into [`Incoming`] and
//! [`Gateway`] for auth, rate limits, idempotency, decoding and error bodies; the sandboxes use
//! [`paginate`], [`WebhookSender`] and [`Background`]. Every operation a sandbox does not
//! implement by hand is served by the spec-driven [`resources`] store.

mod auth;
mod background;
mod bodies;
mod documented;
mod error;
mod gateway;
mod idempotency;
mod incoming;
pub(crate) mod limits;
mod media;
mod origin;
mod page;
mod page_facts;
pub(crate) mod per_address;
pub mod resources;
mod serve;
mod time;
pub(crate) mod webhooks;

pub use auth::OAUTH2_TOKEN_CREDENTIAL;
pub use background::Background;
pub use documented::documented_headers;
pub(crate) use documented::{item_path, path_segment};
pub(crate) use error::Refusal;
pub use error::ServerError;
pub use gateway::{
    DEFAULT_IDEMPOTENCY_RETENTION, DEFAULT_MAX_BODY_BYTES, FAULT_HEADER, FAULT_TIMEOUT, Gateway,
    RateLimit, TokenCheck,
};
pub use incoming::{Incoming, RequestContext, new_request_id};
pub(crate) use limits::{BodyError, read_body};
pub use limits::{
    DEFAULT_BODY_READ_TIMEOUT, DEFAULT_HEADER_READ_TIMEOUT, DEFAULT_IDEMPOTENCY_MAX_BYTES,
    DEFAULT_IDEMPOTENCY_MAX_ENTRIES, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_JSON_DEPTH,
    DEFAULT_MAX_JSON_VALUES, DEFAULT_WRITE_TIMEOUT, HttpLimits,
};
pub(crate) use origin::Writes;
pub(crate) use page::set_path;
pub use page::{
    DEFAULT_PAGE_LIMIT, MAX_PAGE_SIZE, NEXT_LINK_PARAM, PageLinks, PageRequest, PageWindow,
    StyledPage, page_in_style, page_object_in_style, page_object_with_window, paginate,
};
pub(crate) use page_facts::{page_facts, page_meta_holder, whole_list_facts};
pub use per_address::per_address_cap;
pub use resources::{ResourceLimits, Resources};
pub(crate) use serve::Serving;

/// How long `shutdown()` waits for a sandbox's HTTP server to finish open requests.
pub(crate) const SHUTDOWN_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
pub use time::{format_rfc3339, now_rfc3339, parse_rfc3339};
pub use webhooks::{
    Delivery, DeliveryObserver, DeliveryOutcome, MAX_DELIVERIES_IN_FLIGHT,
    MAX_DELIVERIES_PER_ENDPOINT, MAX_PENDING_DELIVERIES, Outgoing, Signing, WebhookRetry,
    WebhookSender, WebhookTarget, generate_secret,
};

use axum::http::HeaderName;
use axum::response::Response;

/// The header that carries the request id (the clients read it into their errors).
pub(crate) const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The answer to a path no operation has: 404 with the spec's error body.
pub async fn not_found() -> Response {
    ServerError::new(404, "not_found", "no operation has this path").to_response(&new_request_id())
}

/// The answer to a method a path does not take: 405 with the spec's error body.
pub async fn method_not_allowed() -> Response {
    ServerError::new(
        405,
        "method_not_allowed",
        "this path does not take this method",
    )
    .to_response(&new_request_id())
}

// Generated from the specs at build time with the `codegen` feature, otherwise the committed
// copy of the same code (`tidings-codegen refresh` writes it).
#[cfg(feature = "codegen")]
include!(concat!(env!("OUT_DIR"), "/email_server.rs"));
#[cfg(feature = "codegen")]
include!(concat!(env!("OUT_DIR"), "/messaging_server.rs"));
#[cfg(not(feature = "codegen"))]
include!("../prebuilt/email_server.rs");
#[cfg(not(feature = "codegen"))]
include!("../prebuilt/messaging_server.rs");
