//! RFC 3339 timestamps (UTC, second or finer precision) of the sandbox's records. The calendar
//! arithmetic is the runtime's (`tidings_runtime::dates`), kept once.

use std::time::SystemTime;

/// `now` as `2026-11-22T10:00:00.123Z`.
pub fn now_rfc3339() -> String {
    format_rfc3339(SystemTime::now())
}

/// A time as RFC 3339 in UTC with milliseconds.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_250);
/// assert_eq!(tidings_sandbox::server::format_rfc3339(t), "2023-11-14T22:13:20.250Z");
/// ```
pub fn format_rfc3339(time: SystemTime) -> String {
    tidings_runtime::dates::system_time_to_rfc3339_millis(time)
}

/// Parses an RFC 3339 timestamp (`2026-11-22T10:00:00Z`, `...+02:00`, fractions allowed).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let t = tidings_sandbox::server::parse_rfc3339("2023-11-14T23:13:20.250+01:00").unwrap();
/// assert_eq!(t, UNIX_EPOCH + Duration::from_millis(1_700_000_000_250));
/// ```
pub fn parse_rfc3339(text: &str) -> Option<SystemTime> {
    tidings_runtime::dates::rfc3339_to_system_time(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn round_trips_through_text() {
        let t = UNIX_EPOCH + Duration::from_millis(951_782_400_007); // 2000-02-29
        let text = format_rfc3339(t);
        assert_eq!(text, "2000-02-29T00:00:00.007Z");
        assert_eq!(parse_rfc3339(&text), Some(t));
    }

    #[test]
    fn handles_times_before_1970() {
        let t = parse_rfc3339("1083-01-20T17:33:48.250Z").unwrap();
        assert!(t < UNIX_EPOCH);
        assert_eq!(format_rfc3339(t), "1083-01-20T17:33:48.250Z");
        let t = parse_rfc3339("1970-01-01T00:59:59.999+01:00").unwrap();
        assert_eq!(format_rfc3339(t), "1969-12-31T23:59:59.999Z");
    }

    #[test]
    fn rejects_malformed_timestamps() {
        for bad in [
            "",
            "2026-13-01T00:00:00Z",
            "2026-01-01 00:00:00",
            "2026-01-01T00:00:00+0100",
            "x026-01-01T00:00:00Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }
}
