//! The defaults the generator applies where a spec says nothing. The numbers live in one place,
//! `tidings_spec::defaults` (the runtime starts from the same constants); this module turns them
//! into the resolved model's values. `check` applies them once, while building the resolved
//! model; nothing else decides a default.

use crate::model::{IdempotencyMode, Method};
use tidings_spec::defaults as d;

use super::{Owned, RetrySpec, TimeoutSpec};

/// The retry policy of a service without a `retry` section: 3 attempts, 0.5 s base, 8 s cap,
/// statuses 408, 429, 500, 502, 503, 504, connect errors and timeouts, `Retry-After` capped at
/// 60 s, a 20 % retry budget (the runtime's `RetrySpec::DEFAULT`).
pub fn retry() -> RetrySpec<Owned> {
    RetrySpec {
        max_attempts: d::MAX_ATTEMPTS,
        base_ms: d::BACKOFF_BASE_MS,
        cap_ms: d::BACKOFF_CAP_MS,
        statuses: d::RETRY_STATUSES.to_vec(),
        connect_errors: true,
        timeouts: true,
        retry_after_cap_ms: RETRY_AFTER_CAP_MS,
        budget_ratio_percent: RETRY_BUDGET_PERCENT,
    }
}

/// Longest `Retry-After` honoured when the retry section does not say.
pub const RETRY_AFTER_CAP_MS: u64 = d::RETRY_AFTER_CAP_MS;

/// The retry budget when the retry section does not say.
pub const RETRY_BUDGET_PERCENT: u32 = d::RETRY_BUDGET_PERCENT;

/// Timeouts of a service without a `timeouts` section: connect 3 s, 20 s per attempt, the
/// runtime's default deadline (60 s) for the whole call.
pub const TIMEOUTS: TimeoutSpec = TimeoutSpec::DEFAULT;

/// The retry class of an operation that does not state one: methods that are idempotent in
/// HTTP are retried as they are, the others never once they may have reached the server.
pub fn idempotency(method: Method) -> IdempotencyMode {
    match method {
        Method::Get | Method::Head | Method::Put | Method::Delete => IdempotencyMode::Safe,
        Method::Post | Method::Patch => IdempotencyMode::None,
    }
}

/// Whether a request of this method carries a body (`{}` when the spec names none).
pub fn has_body(method: Method) -> bool {
    method.has_body()
}

/// The success status of an operation that does not state one.
pub fn success_status(has_response: bool) -> u16 {
    if has_response { 200 } else { 204 }
}

/// WebSocket heartbeat: ping after 120 s of silence, give up 30 s after the ping.
pub const PING_AFTER_MS: u64 = d::PING_AFTER_MS;
/// See [`PING_AFTER_MS`].
pub const PONG_TIMEOUT_MS: u64 = d::PONG_TIMEOUT_MS;

/// WebSocket reconnection backoff: 1 s base, 30 s cap.
pub const RECONNECT_BASE_MS: u64 = d::RECONNECT_BASE_MS;
/// See [`RECONNECT_BASE_MS`].
pub const RECONNECT_CAP_MS: u64 = d::RECONNECT_CAP_MS;

/// Webhook timestamp tolerance of the built-in Standard Webhooks scheme, in seconds.
pub const WEBHOOK_TOLERANCE_S: u64 = d::WEBHOOK_TOLERANCE_S;
/// Where the error code is when the `errors` section does not say (`{"error": {"code"}}`).
pub const ERROR_CODE_PATH: &str = d::ERROR_CODE_PATH;

/// Where the error message is when the `errors` section does not say.
pub const ERROR_MESSAGE_PATH: &str = d::ERROR_MESSAGE_PATH;

/// The header a minted token travels in when the auth scheme does not say.
pub const MINTED_HEADER: &str = d::MINTED_HEADER;
/// First page number of the `page` pagination style when the spec does not say.
pub const FIRST_PAGE: u64 = d::FIRST_PAGE;

/// The form style when an operation with a form or multipart body does not say: arrays repeat
/// the name (`To=a&To=b`), nested fields use brackets (`a[b]=1`).
pub const FORM_STYLE: super::FormStyleInfo = super::FormStyleInfo {
    arrays: crate::model::FormArrays::Repeat,
    nested: crate::model::FormNested::Brackets,
};

/// Success statuses that carry no body: an operation listing one of them beside another
/// answers `Option<T>`.
pub const EMPTY_STATUSES: &[u16] = &[204, 205];
