//! Every default the project applies where a spec says nothing, in one place: the generator
//! writes them into the resolved model, the runtime starts from them, the sandbox serves them.
//! The retry and timeout numbers start from `PROTOCOLS.md` ("Retry and timeout defaults").

/// Attempts of a call, the first included.
pub const MAX_ATTEMPTS: u32 = 3;
/// Backoff base (full jitter), in milliseconds.
pub const BACKOFF_BASE_MS: u64 = 500;
/// Longest backoff between two attempts, in milliseconds.
pub const BACKOFF_CAP_MS: u64 = 8_000;
/// Statuses retried: 408, 429, 500, 502, 503, 504.
pub const RETRY_STATUSES: &[u16] = &[408, 429, 500, 502, 503, 504];
/// Longest server-requested wait (`Retry-After`, `retry-after-ms`) honoured, in milliseconds.
pub const RETRY_AFTER_CAP_MS: u64 = 60_000;
/// Share of a retry each first attempt earns for the retry budget, in percent.
pub const RETRY_BUDGET_PERCENT: u32 = 20;

/// Connect timeout, in milliseconds.
pub const CONNECT_TIMEOUT_MS: u64 = 3_000;
/// Timeout of one attempt (sending the request and reading the whole answer), in milliseconds.
pub const ATTEMPT_TIMEOUT_MS: u64 = 20_000;
/// Deadline of a whole call, in milliseconds: room for every default attempt in full.
pub const TOTAL_TIMEOUT_MS: u64 = MAX_ATTEMPTS as u64 * ATTEMPT_TIMEOUT_MS;

/// Largest successful answer body the client reads, in bytes (16 MiB).
pub const MAX_RESPONSE_BODY_BYTES: u64 = 16 * 1024 * 1024;
/// How much of an error answer's body the client reads, in bytes (64 KiB).
pub const MAX_ERROR_BODY_BYTES: u64 = 64 * 1024;

/// Where an error answer's code is (`{"error": {"code"}}`).
pub const ERROR_CODE_PATH: &str = "error.code";
/// Where an error answer's message is (`{"error": {"message"}}`).
pub const ERROR_MESSAGE_PATH: &str = "error.message";

/// The header a minted token travels in.
pub const MINTED_HEADER: &str = "Authorization";
/// First page number of the `page` pagination style.
pub const FIRST_PAGE: u64 = 1;

/// WebSocket heartbeat: ping after this much silence, in milliseconds.
pub const PING_AFTER_MS: u64 = 120_000;
/// WebSocket heartbeat: give up this long after the ping, in milliseconds.
pub const PONG_TIMEOUT_MS: u64 = 30_000;
/// WebSocket reconnection backoff base, in milliseconds.
pub const RECONNECT_BASE_MS: u64 = 1_000;
/// WebSocket reconnection backoff cap, in milliseconds.
pub const RECONNECT_CAP_MS: u64 = 30_000;

/// WebSocket connect timeout (TCP, TLS and the upgrade), in milliseconds.
pub const WS_CONNECT_TIMEOUT_MS: u64 = 10_000;

/// SMTP relay: timeout of one send (connect, TLS, AUTH and the whole transaction), in
/// milliseconds.
pub const SMTP_TIMEOUT_MS: u64 = 60_000;
/// SMTP relay: how long an unused connection is kept for the next message, in milliseconds.
pub const SMTP_IDLE_TIMEOUT_MS: u64 = 30_000;
/// SMTP relay: connections kept open at once.
pub const SMTP_MAX_CONNECTIONS: usize = 8;

/// Timestamp tolerance of the built-in Standard Webhooks scheme, in seconds.
pub const WEBHOOK_TOLERANCE_S: u64 = 300;

// The policy holds by construction: checked when this crate compiles.
const _: () = {
    assert!(CONNECT_TIMEOUT_MS <= ATTEMPT_TIMEOUT_MS);
    assert!(ATTEMPT_TIMEOUT_MS * MAX_ATTEMPTS as u64 <= TOTAL_TIMEOUT_MS);
    assert!(BACKOFF_BASE_MS <= BACKOFF_CAP_MS);
};
