//! Reading the response headers the runtime acts on, in one place: `Retry-After` and
//! `retry-after-ms`, the `X-RateLimit-*` family and `x-request-id`. A malformed value counts as
//! absent; nothing here panics on what a server sends.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use reqwest::header::{AsHeaderName, HeaderMap, HeaderName};

use crate::error::{ID_LIMIT, bounded_text};
use crate::spec::RateLimitHeaders;

static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// A header's value as text, when it is present and visible ASCII.
pub(crate) fn header_str<K: AsHeaderName>(headers: &HeaderMap, name: K) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The `x-request-id` header, bounded and escaped ([`ID_LIMIT`]).
pub(crate) fn request_id(headers: &HeaderMap) -> Option<String> {
    header_str(headers, &X_REQUEST_ID).map(|id| bounded_text(id, ID_LIMIT))
}

/// The wait the server asked for: `retry-after-ms`, then `Retry-After` (or the spec's name for
/// it) as seconds or an HTTP date. Past dates mean "now".
pub(crate) fn server_wait(headers: &HeaderMap, names: &RateLimitHeaders) -> Option<Duration> {
    if let Some(ms) =
        header_str(headers, "retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok())
        && ms.is_finite()
        && ms >= 0.0
    {
        return Some(Duration::from_secs_f64(ms.min(1e12) / 1000.0));
    }
    let value = names
        .retry_after
        .and_then(|name| header_str(headers, name))
        .or_else(|| header_str(headers, "retry-after"))?
        .trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(1e9)));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(
        date.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

/// Whether an `X-RateLimit-Remaining` value says no request is left.
pub(crate) fn none_remaining(value: &str) -> bool {
    value
        .trim()
        .parse::<f64>()
        .is_ok_and(|remaining| remaining <= 0.0)
}

/// An `X-RateLimit-Reset` value: seconds until the reset; values that look like a Unix time
/// are converted.
pub(crate) fn rate_limit_reset(value: &str) -> Option<Duration> {
    let secs = value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)?;
    if secs > 1_000_000_000.0 {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .ok()?
            .as_secs_f64();
        // Clamped: `from_secs_f64` panics past u64::MAX seconds (`1e300` is a valid number).
        return Some(Duration::from_secs_f64((secs - now).clamp(0.0, 1e9)));
    }
    Some(Duration::from_secs_f64(secs.min(1e9)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn retry_after_forms() {
        let names = RateLimitHeaders::STANDARD;
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("7"));
        assert_eq!(server_wait(&h, &names), Some(Duration::from_secs(7)));
        h.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(server_wait(&h, &names), Some(Duration::from_millis(250)));
        let mut h = HeaderMap::new();
        let later = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(30));
        h.insert("retry-after", HeaderValue::from_str(&later).expect("valid"));
        let wait = server_wait(&h, &names).expect("parsed");
        assert!(
            wait > Duration::from_secs(25) && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        h.insert(
            "retry-after",
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(server_wait(&h, &names), Some(Duration::ZERO));
        h.insert("retry-after", HeaderValue::from_static("soon"));
        assert_eq!(server_wait(&h, &names), None);
        h.insert("retry-after", HeaderValue::from_static("-3"));
        assert_eq!(server_wait(&h, &names), None);
    }

    #[test]
    fn rate_limit_values_parse_leniently() {
        assert!(none_remaining("0"));
        assert!(none_remaining(" 0.0 "));
        assert!(!none_remaining("3"));
        assert!(!none_remaining("none"));
        assert_eq!(rate_limit_reset("30"), Some(Duration::from_secs(30)));
        assert_eq!(rate_limit_reset("-1"), None);
        assert_eq!(rate_limit_reset("NaN"), None);
        assert_eq!(
            rate_limit_reset("1e300"),
            Some(Duration::from_secs(1_000_000_000))
        );
        let soon = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("after 1970")
            .as_secs()
            + 20;
        let wait = rate_limit_reset(&soon.to_string()).expect("a Unix time");
        assert!(wait <= Duration::from_secs(20) && wait > Duration::from_secs(15));
    }

    #[test]
    fn request_id_is_bounded_and_escaped() {
        let mut h = HeaderMap::new();
        assert_eq!(request_id(&h), None);
        h.insert("x-request-id", HeaderValue::from_static("req_1"));
        assert_eq!(request_id(&h).as_deref(), Some("req_1"));
        let long = "r".repeat(4 * ID_LIMIT);
        h.insert("x-request-id", HeaderValue::from_str(&long).expect("ascii"));
        assert!(request_id(&h).is_some_and(|id| id.len() <= ID_LIMIT + '…'.len_utf8()));
    }
}
