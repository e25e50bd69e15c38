//! Date-time wire forms other than RFC 3339: generated fields keep RFC 3339 text in Rust and
//! use these serde `with` modules to read and write RFC 2822 dates, Unix seconds or Unix
//! milliseconds on the wire. Bad input is a decode error, never a panic.
//!
//! ```
//! #[derive(serde::Deserialize, serde::Serialize)]
//! struct Message {
//!     #[serde(with = "tidings_runtime::dates::rfc2822")]
//!     date_created: String,
//! }
//! let m: Message =
//!     serde_json::from_str(r#"{"date_created":"Wed, 18 Aug 2010 20:01:40 +0000"}"#).unwrap();
//! assert_eq!(m.date_created, "2010-08-18T20:01:40Z");
//! assert_eq!(
//!     serde_json::to_string(&m).unwrap(),
//!     r#"{"date_created":"Wed, 18 Aug 2010 20:01:40 +0000"}"#
//! );
//! ```

/// A moment: seconds since the Unix epoch (UTC), nanoseconds, and the offset it was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Moment {
    secs: i64,
    nanos: u32,
    offset_min: i32,
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a count of days since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// Checks a calendar date and time of day; leap seconds (`:60`) are taken as `:59`.
fn moment(
    (y, mo, d): (i64, u32, u32),
    (h, mi, s): (u32, u32, u32),
    nanos: u32,
    offset_min: i32,
) -> Option<Moment> {
    if !(0..=9999).contains(&y)
        || !(1..=12).contains(&mo)
        || d == 0
        || d > days_in_month(y, mo)
        || h > 23
        || mi > 59
        || s > 60
        || offset_min.abs() >= 24 * 60
    {
        return None;
    }
    let local = days_from_civil(y, mo, d) * 86_400
        + i64::from(h) * 3600
        + i64::from(mi) * 60
        + i64::from(s.min(59));
    Some(Moment {
        secs: local - i64::from(offset_min) * 60,
        nanos,
        offset_min,
    })
}

/// Parses RFC 3339 (`2010-08-18T20:01:40.5+02:00`).
fn parse_rfc3339(text: &str) -> Option<Moment> {
    let b = text.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let y = digits(text.get(0..4)?, 4)?;
    let mo = digits(text.get(5..7)?, 2)?;
    let d = digits(text.get(8..10)?, 2)?;
    let h = digits(text.get(11..13)?, 2)?;
    let mi = digits(text.get(14..16)?, 2)?;
    let s = digits(text.get(17..19)?, 2)?;
    let mut rest = text.get(19..)?;
    let mut nanos = 0u32;
    if let Some(frac) = rest.strip_prefix('.') {
        let len = frac.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 {
            return None;
        }
        // Digits past nanoseconds are dropped.
        let kept = &frac[..len.min(9)];
        nanos = kept.parse::<u32>().ok()? * 10u32.pow(9 - kept.len() as u32);
        rest = &frac[len..];
    }
    let offset_min = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            if rest.len() != 6 || rest.as_bytes()[3] != b':' {
                return None;
            }
            let oh = digits(&rest[1..3], 2)?;
            let om = digits(&rest[4..6], 2)?;
            if om > 59 {
                return None;
            }
            sign * (oh * 60 + om) as i32
        }
    };
    moment((i64::from(y), mo, d), (h, mi, s), nanos, offset_min)
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/// Parses RFC 2822 (`Wed, 18 Aug 2010 20:01:40 +0000`), with the obsolete zone names (`GMT`,
/// `UT`, `EST`, ...) and two-digit years it still allows readers to accept.
fn parse_rfc2822(text: &str) -> Option<Moment> {
    let mut text = text.trim();
    if let Some((day, rest)) = text.split_once(',') {
        if !WEEKDAYS.iter().any(|w| w.eq_ignore_ascii_case(day.trim())) {
            return None;
        }
        text = rest;
    }
    let mut parts = text.split_ascii_whitespace();
    let day_text = parts.next()?;
    let d: u32 = (1..=2)
        .contains(&day_text.len())
        .then(|| day_text.parse().ok())
        .flatten()?;
    let month = parts.next()?;
    let mo = MONTHS.iter().position(|m| m.eq_ignore_ascii_case(month))? as u32 + 1;
    let year_text = parts.next()?;
    let y: i64 = match year_text.len() {
        4 => i64::from(digits(year_text, 4)?),
        // Obsolete two-digit years: 00-49 are 2000-2049, 50-99 are 1950-1999.
        2 => {
            let v = i64::from(digits(year_text, 2)?);
            if v < 50 { 2000 + v } else { 1900 + v }
        }
        _ => return None,
    };
    let time = parts.next()?;
    let mut hms = time.split(':');
    let h = digits(hms.next()?, 2)?;
    let mi = digits(hms.next()?, 2)?;
    let s = match hms.next() {
        Some(s) => digits(s, 2)?,
        None => 0,
    };
    if hms.next().is_some() {
        return None;
    }
    let zone = parts.next()?;
    if parts.next().is_some() {
        return None;
    }
    let named = [
        ("GMT", 0),
        ("UT", 0),
        ("UTC", 0),
        ("Z", 0),
        ("EDT", -4 * 60),
        ("EST", -5 * 60),
        ("CDT", -5 * 60),
        ("CST", -6 * 60),
        ("MDT", -6 * 60),
        ("MST", -7 * 60),
        ("PDT", -7 * 60),
        ("PST", -8 * 60),
    ];
    let offset_min = match named.iter().find(|(n, _)| n.eq_ignore_ascii_case(zone)) {
        Some((_, offset)) => *offset,
        None => {
            let sign = match zone.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let hh = digits(zone.get(1..3)?, 2)?;
            let mm = digits(zone.get(3..)?, 2)?;
            if mm > 59 {
                return None;
            }
            sign * (hh * 60 + mm) as i32
        }
    };
    moment((y, mo, d), (h, mi, s), 0, offset_min)
}

/// Local date and time fields of a moment in its own offset.
fn local(m: Moment) -> (i64, u32, u32, i64, i64, i64) {
    let local = m.secs + i64::from(m.offset_min) * 60;
    let days = local.div_euclid(86_400);
    let secs = local.rem_euclid(86_400);
    let (y, mo, d) = civil_from_days(days);
    (y, mo, d, secs / 3600, secs % 3600 / 60, secs % 60)
}

/// Appends `value` (below 10^`width`) as exactly `width` decimal digits.
fn push_digits(out: &mut String, value: u64, width: u32) {
    let mut div = 10u64.pow(width.saturating_sub(1));
    while div > 0 {
        // A digit is below 10, so the cast keeps it.
        out.push(char::from(b'0' + (value / div % 10) as u8));
        div /= 10;
    }
}

fn write_offset(out: &mut String, offset_min: i32, colon: bool) {
    out.push(if offset_min < 0 { '-' } else { '+' });
    let abs = u64::from(offset_min.unsigned_abs());
    push_digits(out, abs / 60, 2);
    if colon {
        out.push(':');
    }
    push_digits(out, abs % 60, 2);
}

fn to_rfc3339(m: Moment) -> String {
    let (y, mo, d, h, mi, s) = local(m);
    let mut out = String::with_capacity(35);
    // Years 0-9999 only (`from_unix` and the parsers keep to them).
    push_digits(&mut out, y.unsigned_abs(), 4);
    for (sep, v) in [('-', mo.into()), ('-', d.into()), ('T', h.unsigned_abs())] {
        out.push(sep);
        push_digits(&mut out, v, 2);
    }
    for v in [mi, s] {
        out.push(':');
        push_digits(&mut out, v.unsigned_abs(), 2);
    }
    if m.nanos != 0 {
        // The fraction without its trailing zeros.
        let mut nanos = m.nanos;
        let mut width = 9;
        while nanos.is_multiple_of(10) {
            nanos /= 10;
            width -= 1;
        }
        out.push('.');
        push_digits(&mut out, u64::from(nanos), width);
    }
    if m.offset_min == 0 {
        out.push('Z');
    } else {
        write_offset(&mut out, m.offset_min, true);
    }
    out
}

fn to_rfc2822(m: Moment) -> String {
    let (y, mo, d, h, mi, s) = local(m);
    let local_days = (m.secs + i64::from(m.offset_min) * 60).div_euclid(86_400);
    // 1970-01-01 was a Thursday.
    let weekday = WEEKDAYS[(local_days + 4).rem_euclid(7) as usize];
    let month = MONTHS[(mo - 1) as usize];
    let mut out = String::with_capacity(31);
    out.push_str(weekday);
    out.push_str(", ");
    push_digits(&mut out, d.into(), 2);
    out.push(' ');
    out.push_str(month);
    out.push(' ');
    push_digits(&mut out, y.unsigned_abs(), 4);
    out.push(' ');
    push_digits(&mut out, h.unsigned_abs(), 2);
    for v in [mi, s] {
        out.push(':');
        push_digits(&mut out, v.unsigned_abs(), 2);
    }
    out.push(' ');
    write_offset(&mut out, m.offset_min, false);
    out
}

/// A moment from Unix time in `unit`s per second (1 or 1000), when it is within years 0-9999.
fn from_unix(value: i64, per_second: i64) -> Option<Moment> {
    let secs = value.div_euclid(per_second);
    let sub = value.rem_euclid(per_second);
    let m = Moment {
        secs,
        nanos: u32::try_from(sub * (1_000_000_000 / per_second)).ok()?,
        offset_min: 0,
    };
    // Years 0000 to 9999 only, as RFC 3339 writes them.
    (-62_167_219_200..=253_402_300_799)
        .contains(&secs)
        .then_some(m)
}

/// `text` (RFC 2822) as RFC 3339, or `None` when it is not a valid RFC 2822 date.
pub fn rfc2822_to_rfc3339(text: &str) -> Option<String> {
    parse_rfc2822(text).map(to_rfc3339)
}

/// `text` (RFC 3339) as RFC 2822, keeping its offset; fractions of a second are dropped.
pub fn rfc3339_to_rfc2822(text: &str) -> Option<String> {
    parse_rfc3339(text).map(to_rfc2822)
}

/// Seconds since the epoch of an RFC 3339 text (fractions dropped, rounding down).
pub fn rfc3339_to_unix(text: &str) -> Option<i64> {
    parse_rfc3339(text).map(|m| m.secs)
}

/// Milliseconds since the epoch of an RFC 3339 text (finer fractions dropped).
pub fn rfc3339_to_unix_ms(text: &str) -> Option<i64> {
    parse_rfc3339(text).map(|m| m.secs * 1000 + i64::from(m.nanos / 1_000_000))
}

/// RFC 3339 text (UTC) of Unix seconds, `None` outside years 0-9999.
pub fn unix_to_rfc3339(secs: i64) -> Option<String> {
    from_unix(secs, 1).map(to_rfc3339)
}

/// RFC 3339 text (UTC) of Unix milliseconds, `None` outside years 0-9999.
pub fn unix_ms_to_rfc3339(ms: i64) -> Option<String> {
    from_unix(ms, 1000).map(to_rfc3339)
}

/// The moment an RFC 3339 text names, as a [`SystemTime`](std::time::SystemTime) (to the
/// nanosecond), or `None` when it is not a valid RFC 3339 date-time.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use tidings_runtime::dates::rfc3339_to_system_time;
/// let t = rfc3339_to_system_time("2023-11-14T23:13:20.250+01:00").unwrap();
/// assert_eq!(t, UNIX_EPOCH + Duration::from_millis(1_700_000_000_250));
/// assert_eq!(rfc3339_to_system_time("2023-02-30T00:00:00Z"), None);
/// ```
pub fn rfc3339_to_system_time(text: &str) -> Option<std::time::SystemTime> {
    use std::time::{Duration, UNIX_EPOCH};
    let m = parse_rfc3339(text)?;
    let whole = match u64::try_from(m.secs) {
        Ok(after) => UNIX_EPOCH.checked_add(Duration::from_secs(after))?,
        Err(_) => UNIX_EPOCH.checked_sub(Duration::from_secs(m.secs.unsigned_abs()))?,
    };
    whole.checked_add(Duration::from_nanos(u64::from(m.nanos)))
}

/// A [`SystemTime`](std::time::SystemTime) as RFC 3339 in UTC with milliseconds, the form
/// servers stamp records with (`2023-11-14T22:13:20.250Z`).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_250);
/// assert_eq!(tidings_runtime::dates::system_time_to_rfc3339_millis(t), "2023-11-14T22:13:20.250Z");
/// ```
pub fn system_time_to_rfc3339_millis(time: std::time::SystemTime) -> String {
    // Whole seconds since the epoch (negative before it, rounded down) and the millisecond.
    let (secs, millis) = match time.duration_since(std::time::UNIX_EPOCH) {
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
    let (y, mo, d, h, mi, s) = local(Moment {
        secs,
        nanos: 0,
        offset_min: 0,
    });
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{millis:03}Z")
}

/// True for a valid calendar date `YYYY-MM-DD`.
pub fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(y), Some(m), Some(d)) = (
        digits(&text[0..4], 4),
        digits(&text[5..7], 2),
        digits(&text[8..10], 2),
    ) else {
        return false;
    };
    (1..=12).contains(&m) && d >= 1 && d <= days_in_month(i64::from(y), m)
}

/// Serde support shared by the wire forms: each form is a pair of text conversions.
macro_rules! wire_form {
    ($(#[$doc:meta])* $name:ident, $wire:ty, $what:literal, $to_wire:expr, $from_wire:expr) => {
        $(#[$doc])*
        pub mod $name {
            use serde::de::Error as _;
            use serde::ser::Error as _;
            use serde::{Deserialize, Deserializer, Serialize, Serializer};

            /// Writes RFC 3339 text in this wire form; other text is a serialisation error.
            pub fn serialize<S: Serializer>(value: &str, serializer: S) -> Result<S::Ok, S::Error> {
                let convert: fn(&str) -> Option<$wire> = $to_wire;
                match convert(value) {
                    Some(wire) => wire.serialize(serializer),
                    None => Err(S::Error::custom(format!(
                        "`{value}` is not an RFC 3339 date-time"
                    ))),
                }
            }

            /// Reads this wire form as RFC 3339 text; anything else is a decode error.
            pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
                let wire = <$wire>::deserialize(deserializer)?;
                let convert: fn(&$wire) -> Option<String> = $from_wire;
                convert(&wire).ok_or_else(|| {
                    D::Error::custom(format!(concat!("`{:?}` is not ", $what), wire))
                })
            }

            /// A value read in this wire form, as RFC 3339 text: what generated `Deserialize`
            /// impls read a field of this form as (through [`crate::object::value_as`]).
            #[derive(Debug, Clone, PartialEq)]
            pub struct Wire(pub String);

            impl<'de> Deserialize<'de> for Wire {
                fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    deserialize(deserializer).map(Wire)
                }
            }

            impl crate::object::FromWire<String> for Wire {
                fn into_value(self) -> String {
                    self.0
                }
            }

            /// RFC 3339 text to write in this wire form: what generated `Serialize` impls
            /// write a field of this form as.
            #[derive(Debug, Clone, Copy)]
            pub struct AsWire<'a>(pub &'a str);

            impl Serialize for AsWire<'_> {
                fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    serialize(self.0, serializer)
                }
            }

            /// The same for an optional field (`null` or absent is `None`).
            pub mod option {
                use serde::{Deserialize, Deserializer, Serializer};

                /// See [`super::serialize`]; `None` is written as `null`.
                pub fn serialize<S: Serializer>(
                    value: &Option<String>,
                    serializer: S,
                ) -> Result<S::Ok, S::Error> {
                    match value {
                        Some(v) => super::serialize(v, serializer),
                        None => serializer.serialize_none(),
                    }
                }

                /// See [`super::deserialize`].
                pub fn deserialize<'de, D: Deserializer<'de>>(
                    deserializer: D,
                ) -> Result<Option<String>, D::Error> {
                    #[derive(Deserialize)]
                    struct Wrap(#[serde(with = "super")] String);
                    Ok(Option::<Wrap>::deserialize(deserializer)?.map(|w| w.0))
                }
            }
        }
    };
}

wire_form!(
    /// RFC 2822 text on the wire (`Wed, 18 Aug 2010 20:01:40 +0000`); the offset is kept.
    rfc2822,
    String,
    "an RFC 2822 date",
    super::rfc3339_to_rfc2822,
    |w| super::rfc2822_to_rfc3339(w)
);

wire_form!(
    /// Whole seconds since the Unix epoch on the wire (a JSON integer); RFC 3339 UTC in Rust.
    unix,
    i64,
    "a Unix time in seconds within years 0-9999",
    super::rfc3339_to_unix,
    |w| super::unix_to_rfc3339(*w)
);

wire_form!(
    /// Milliseconds since the Unix epoch on the wire (a JSON integer); RFC 3339 UTC in Rust.
    unix_ms,
    i64,
    "a Unix time in milliseconds within years 0-9999",
    super::rfc3339_to_unix_ms,
    |w| super::unix_ms_to_rfc3339(*w)
);

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn twilio_rfc2822_dates_convert_both_ways() {
        let text = "Wed, 18 Aug 2010 20:01:40 +0000";
        assert_eq!(rfc2822_to_rfc3339(text).unwrap(), "2010-08-18T20:01:40Z");
        assert_eq!(rfc3339_to_rfc2822("2010-08-18T20:01:40Z").unwrap(), text);
        assert_eq!(
            rfc2822_to_rfc3339("Thu, 1 Feb 2024 09:05:00 -0530").unwrap(),
            "2024-02-01T09:05:00-05:30"
        );
        assert_eq!(
            rfc3339_to_rfc2822("2024-02-01T09:05:00.75-05:30").unwrap(),
            "Thu, 01 Feb 2024 09:05:00 -0530"
        );
        assert_eq!(
            rfc2822_to_rfc3339("18 Aug 10 20:01 GMT").unwrap(),
            "2010-08-18T20:01:00Z"
        );
    }

    #[test]
    fn bad_dates_are_none_never_a_panic() {
        for bad in [
            "",
            "Wed,",
            "Xyz, 18 Aug 2010 20:01:40 +0000",
            "31 Feb 2010 20:01:40 +0000",
            "18 Aug 2010 24:01:40 +0000",
            "18 Aug 2010 20:01:40 +2400",
            "18 Foo 2010 20:01:40 +0000",
            "18 Aug 2010 20:01:40",
            "18 Aug 2010 20:01:40 +0000 extra",
            "é8 Aug 2010 20:01:40 +0000",
            "18 Aug 2010 20:01:40 +00é0",
        ] {
            assert_eq!(rfc2822_to_rfc3339(bad), None, "{bad}");
        }
        for bad in [
            "",
            "2010-08-18",
            "2010-13-01T00:00:00Z",
            "2010-08-18T20:01:40",
            "2010-08-18T20:01:40+0100",
            "2010-08-18T20:01:40.Z",
            "2010-08-18T20:01:4é",
        ] {
            assert_eq!(rfc3339_to_rfc2822(bad), None, "{bad}");
        }
        assert_eq!(unix_to_rfc3339(i64::MAX), None);
        assert_eq!(unix_ms_to_rfc3339(i64::MIN), None);
    }

    #[test]
    fn mutated_dates_never_panic() {
        let samples = [
            "Wed, 18 Aug 2010 20:01:40 +0000",
            "2010-08-18T20:01:40.123456789+05:30",
            "2024-02-29",
        ];
        for sample in samples {
            let chars: Vec<char> = sample.chars().collect();
            for i in 0..=chars.len() {
                for c in ['é', '9', ':', '+', '-', ' ', 'Z', '.', ','] {
                    let mut replaced = chars.clone();
                    if i < replaced.len() {
                        replaced[i] = c;
                    }
                    let mut inserted = chars.clone();
                    inserted.insert(i, c);
                    for text in [replaced, inserted, chars[..i].to_vec()] {
                        let text: String = text.into_iter().collect();
                        let _ = rfc2822_to_rfc3339(&text);
                        let _ = rfc3339_to_rfc2822(&text);
                        let _ = rfc3339_to_unix_ms(&text);
                        let _ = is_date(&text);
                    }
                }
            }
        }
    }

    #[test]
    fn unix_times_convert_in_utc() {
        assert_eq!(
            unix_to_rfc3339(1_282_161_700).unwrap(),
            "2010-08-18T20:01:40Z"
        );
        assert_eq!(unix_to_rfc3339(-1).unwrap(), "1969-12-31T23:59:59Z");
        assert_eq!(
            unix_ms_to_rfc3339(1_282_161_700_250).unwrap(),
            "2010-08-18T20:01:40.25Z"
        );
        assert_eq!(
            rfc3339_to_unix("2010-08-18T22:01:40+02:00").unwrap(),
            1_282_161_700
        );
        assert_eq!(
            rfc3339_to_unix_ms("2010-08-18T20:01:40.25Z").unwrap(),
            1_282_161_700_250
        );
    }

    #[test]
    fn civil_day_conversion_round_trips_over_four_centuries() {
        for days in (-800_000..800_000).step_by(97) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn dates_check_the_calendar() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2024-2-29"));
        assert!(!is_date("2024-02-29T00:00:00Z"));
    }

    #[test]
    fn serde_modules_give_decode_errors_on_bad_input() {
        #[derive(serde::Deserialize, serde::Serialize, Debug)]
        struct T {
            #[serde(with = "unix")]
            at: String,
            #[serde(
                default,
                with = "rfc2822::option",
                skip_serializing_if = "Option::is_none"
            )]
            sent: Option<String>,
        }
        let t: T = serde_json::from_str(r#"{"at": 0}"#).unwrap();
        assert_eq!(t.at, "1970-01-01T00:00:00Z");
        assert_eq!(t.sent, None);
        assert!(serde_json::from_str::<T>(r#"{"at": "0"}"#).is_err());
        assert!(serde_json::from_str::<T>(r#"{"at": 0, "sent": "yesterday"}"#).is_err());
        assert!(serde_json::from_str::<T>(r#"{"at": 99999999999999999}"#).is_err());
        let bad = T {
            at: "not a date".into(),
            sent: None,
        };
        assert!(serde_json::to_string(&bad).is_err());
    }
}
