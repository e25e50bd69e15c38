//! RFC 3339 timestamps (UTC, second or finer precision) without a date-time dependency.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

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
    // Whole seconds since the epoch (negative before it, rounded down) and the millisecond.
    let (secs, millis) = match time.duration_since(UNIX_EPOCH) {
        Ok(since) => (
            i64::try_from(since.as_secs()).unwrap_or(i64::MAX),
            since.subsec_millis(),
        ),
        Err(before) => {
            let before = before.duration();
            let whole = -i64::try_from(before.as_secs()).unwrap_or(i64::MAX);
            match before.subsec_nanos() {
                0 => (whole, 0),
                nanos => (whole - 1, (1_000_000_000 - nanos) / 1_000_000),
            }
        }
    };
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60,
    )
}

/// Parses an RFC 3339 timestamp (`2026-11-22T10:00:00Z`, `...+02:00`, fractions allowed).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let t = tidings_sandbox::server::parse_rfc3339("2023-11-14T23:13:20.250+01:00").unwrap();
/// assert_eq!(t, UNIX_EPOCH + Duration::from_millis(1_700_000_000_250));
/// ```
pub fn parse_rfc3339(text: &str) -> Option<SystemTime> {
    let b = text.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = text.get(r)?;
        if !s.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut i = 19;
    let mut nanos: u64 = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = text.get(start..i)?;
        if digits.is_empty() {
            return None;
        }
        let mut padded: String = digits.chars().take(9).collect();
        while padded.len() < 9 {
            padded.push('0');
        }
        nanos = padded.parse().ok()?;
    }
    let offset_secs: i64 = match b.get(i)? {
        b'Z' | b'z' if i + 1 == b.len() => 0,
        sign @ (b'+' | b'-') if i + 6 == b.len() && b[i + 3] == b':' => {
            let h = num(i + 1..i + 3)?;
            let m = num(i + 4..i + 6)?;
            let total = h * 3600 + m * 60;
            if *sign == b'+' { total } else { -total }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset_secs;
    // Times before 1970 are valid RFC 3339 too (years 0000 to 9999).
    let whole = match u64::try_from(secs) {
        Ok(after) => UNIX_EPOCH.checked_add(Duration::from_secs(after))?,
        Err(_) => UNIX_EPOCH.checked_sub(Duration::from_secs(secs.unsigned_abs()))?,
    };
    whole.checked_add(Duration::from_nanos(nanos))
}

// Howard Hinnant's civil-date algorithms (proleptic Gregorian calendar).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

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
