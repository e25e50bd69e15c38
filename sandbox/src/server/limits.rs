//! [`HttpLimits`]: the bounds of one sandbox HTTP listener (connections, timeouts, request
//! bodies, the idempotency store), and [`read_body`], the one place request bodies are read.

use std::time::Duration;

use axum::body::Body;
use axum::http::header::CONTENT_LENGTH;
use axum::http::{HeaderMap, HeaderValue};
use bytes::Bytes;

/// Connections one listener serves at once; more are answered 503 and closed.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;
/// How long a client has to send a request's head; the same clock runs while a kept-alive
/// connection waits for its next request, so it is the idle timeout too.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a write to a client may make no progress (a client that stops reading).
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a request body may take to arrive, once the head is in.
pub const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// Idempotency keys kept at once per service (the oldest answers are forgotten first).
pub const DEFAULT_IDEMPOTENCY_MAX_ENTRIES: usize = 10_000;
/// Bytes of stored answers (and their keys) kept per service for idempotent replays.
pub const DEFAULT_IDEMPOTENCY_MAX_BYTES: usize = 16 * 1024 * 1024;
/// Most JSON values (objects, arrays, scalars) in one request body.
pub const DEFAULT_MAX_JSON_VALUES: usize = 100_000;
/// Deepest nesting of objects and arrays in one request body.
pub const DEFAULT_MAX_JSON_DEPTH: usize = 32;

/// The bounds of one sandbox HTTP listener. `Default` gives the `DEFAULT_*` values of this
/// module and no body size (each service then uses its own: see
/// [`DEFAULT_MAX_BODY_BYTES`](super::DEFAULT_MAX_BODY_BYTES)).
///
/// ```
/// use std::time::Duration;
/// use tidings_sandbox::server::HttpLimits;
/// let limits = HttpLimits::default()
///     .max_connections(64)
///     .header_read_timeout(Duration::from_secs(2))
///     .max_body_bytes(1 << 20);
/// assert_eq!(limits.max_connections, 64);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpLimits {
    /// Connections served at once (WebSocket connections included, until they close).
    pub max_connections: usize,
    /// Time to receive a request head, and the idle time allowed between requests.
    pub header_read_timeout: Duration,
    /// Time a write may make no progress before the connection is dropped.
    pub write_timeout: Duration,
    /// Largest request body (`None`: the service's default).
    pub max_body_bytes: Option<usize>,
    /// Time a request body may take to arrive (408 after it).
    pub body_read_timeout: Duration,
    /// Idempotency keys kept at once.
    pub idempotency_max_entries: usize,
    /// Bytes of stored idempotent answers kept at once.
    pub idempotency_max_bytes: usize,
    /// Host names the listener answers to besides IP addresses, `localhost` and `*.localhost`
    /// (the binary's `--allowed-host`); a request naming any other `Host` is refused with 403
    /// `host_not_allowed` (DNS rebinding). None by default.
    pub allowed_hosts: Vec<String>,
}

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
            max_body_bytes: None,
            body_read_timeout: DEFAULT_BODY_READ_TIMEOUT,
            idempotency_max_entries: DEFAULT_IDEMPOTENCY_MAX_ENTRIES,
            idempotency_max_bytes: DEFAULT_IDEMPOTENCY_MAX_BYTES,
            allowed_hosts: Vec::new(),
        }
    }
}

impl HttpLimits {
    /// Answers to the host name `name` too (repeat for more), besides IP addresses and
    /// `localhost`: the name an app in another container or on another machine reaches the
    /// sandbox by.
    ///
    /// ```
    /// use tidings_sandbox::server::HttpLimits;
    /// let limits = HttpLimits::default().allowed_host("sandbox");
    /// assert_eq!(limits.allowed_hosts, ["sandbox"]);
    /// ```
    #[must_use]
    pub fn allowed_host(mut self, name: impl Into<String>) -> Self {
        self.allowed_hosts.push(name.into());
        self
    }

    /// Serves at most `n` connections at once (at least 1).
    #[must_use]
    pub fn max_connections(mut self, n: usize) -> Self {
        self.max_connections = n.max(1);
        self
    }

    /// Time to receive a request head (and the idle keep-alive time).
    #[must_use]
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.header_read_timeout = timeout;
        self
    }

    /// Time a write may stall before the connection is dropped.
    #[must_use]
    pub fn write_timeout(mut self, timeout: Duration) -> Self {
        self.write_timeout = timeout;
        self
    }

    /// Largest request body, in bytes.
    #[must_use]
    pub fn max_body_bytes(mut self, max: usize) -> Self {
        self.max_body_bytes = Some(max);
        self
    }

    /// Time a request body may take to arrive.
    #[must_use]
    pub fn body_read_timeout(mut self, timeout: Duration) -> Self {
        self.body_read_timeout = timeout;
        self
    }

    /// Idempotency keys kept at once, and the bytes of their stored answers.
    #[must_use]
    pub fn idempotency_capacity(mut self, entries: usize, bytes: usize) -> Self {
        self.idempotency_max_entries = entries.max(1);
        self.idempotency_max_bytes = bytes;
        self
    }
}

/// Why a request body could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BodyError {
    /// Larger than the limit (declared or sent): 413.
    TooLarge,
    /// The connection ended or failed before the declared body was in: 400.
    Incomplete(String),
    /// The body did not arrive in time: 408.
    TimedOut,
}

/// Reads a body of at most `max` bytes within `timeout`: a declared `Content-Length` over the
/// limit is refused before reading, and reading stops at the limit, so no more than `max` bytes
/// are ever held.
pub(crate) async fn read_body(
    headers: &HeaderMap,
    body: Body,
    max: usize,
    timeout: Duration,
) -> Result<Bytes, BodyError> {
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Err(BodyError::TooLarge);
    }
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, max)).await {
        Err(_) => Err(BodyError::TimedOut),
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) => {
            if is_length_limit(&e) {
                Err(BodyError::TooLarge)
            } else {
                Err(BodyError::Incomplete(e.to_string()))
            }
        }
    }
}

/// Whether a body error is the length limit (and not the connection failing).
fn is_length_limit(error: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if e.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = e.source();
    }
    false
}

/// A JSON body past the shape bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShapeError {
    /// More values than this.
    TooManyValues(usize),
    /// Nested deeper than this.
    TooDeep(usize),
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShapeError::TooManyValues(max) => write!(f, "has more than {max} JSON values"),
            ShapeError::TooDeep(max) => write!(f, "is nested deeper than {max} levels"),
        }
    }
}

/// Counts the values of a JSON text and its nesting depth without parsing it, so that what a
/// parse of it builds is bounded by `max_values`, whatever the body's size. Text that is not
/// JSON is counted all the same (the parse reports it).
pub(crate) fn json_shape(
    body: &[u8],
    max_values: usize,
    max_depth: usize,
) -> Result<(), ShapeError> {
    // Outside strings, each `[`, `{`, `,` and `:` opens room for one more value (a key counts
    // as one), so their count plus one bounds the values the parse will build.
    let mut values = 1usize;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in body {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                values += 1;
                depth += 1;
                if depth > max_depth {
                    return Err(ShapeError::TooDeep(max_depth));
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' | b':' => values += 1,
            _ => {}
        }
        if values > max_values {
            return Err(ShapeError::TooManyValues(max_values));
        }
    }
    Ok(())
}

/// Whether a `Content-Type` is JSON: `application/json` or `application/<x>+json`, any
/// parameters.
pub(crate) fn is_json(value: &HeaderValue) -> bool {
    let Ok(text) = value.to_str() else {
        return false;
    };
    let essence = text
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || essence
            .strip_prefix("application/")
            .is_some_and(|sub| sub.ends_with("+json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_shape_counts_values_outside_strings_only() {
        assert_eq!(json_shape(br#"{"a":[1,2,3]}"#, 10, 8), Ok(()));
        assert_eq!(
            json_shape(br#"[1,2,3,4,5,6,7,8,9,10,11]"#, 10, 8),
            Err(ShapeError::TooManyValues(10))
        );
        assert_eq!(json_shape(br#"{"a":"x,y,[[[[\",,,,"}"#, 4, 2), Ok(()));
        assert_eq!(
            json_shape(b"[[[[1]]]]", 100, 3),
            Err(ShapeError::TooDeep(3))
        );
    }

    #[test]
    fn json_content_types_are_recognised_with_parameters() {
        for ok in [
            "application/json",
            "Application/JSON; charset=utf-8",
            "application/merge-patch+json",
        ] {
            assert!(is_json(&HeaderValue::from_static(ok)), "{ok}");
        }
        for no in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "application/jsonx",
            "",
        ] {
            assert!(!is_json(&HeaderValue::from_static(no)), "{no}");
        }
    }
}
