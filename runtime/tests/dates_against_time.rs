//! Our calendar code (`tidings_runtime::dates`) checked against the `time` crate on 200,000
//! moments spread over years 0001-9999 (RFC 3339) and 1900-9999 (RFC 2822, as `time` writes
//! it), with offsets and fractions: both read each other's text as the same instant, and agree
//! on which calendar dates exist.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use tidings_runtime::dates;
use time::format_description::well_known::{Rfc2822, Rfc3339};
use time::{OffsetDateTime, UtcOffset};

/// SplitMix64: deterministic, so a failure names a reproducible case.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let z = (self.0 ^ (self.0 >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn between(&mut self, low: i64, high: i64) -> i64 {
        low + i64::try_from(self.next() % u64::try_from(high - low).unwrap()).unwrap()
    }
}

/// Unix seconds of 0001-01-01, 1900-01-01 and 9999-12-31T23:59:59.
const YEAR_1: i64 = -62_135_596_800;
const YEAR_1900: i64 = -2_208_988_800;
const YEAR_9999_END: i64 = 253_402_300_799;

fn moment(rng: &mut Rng, from: i64) -> OffsetDateTime {
    // Offsets a whole number of minutes within ±23:59, kept inside the years both write.
    let offset =
        UtcOffset::from_whole_seconds(i32::try_from(rng.between(-1439, 1440) * 60).unwrap())
            .unwrap();
    let secs = rng.between(from + 86_400, YEAR_9999_END - 86_400);
    let nanos = u32::try_from(rng.between(0, 1_000_000_000)).unwrap();
    OffsetDateTime::from_unix_timestamp(secs)
        .unwrap()
        .replace_nanosecond(nanos)
        .unwrap()
        .to_offset(offset)
}

#[test]
fn rfc3339_reads_and_writes_the_same_instants_as_time() {
    let mut rng = Rng(0x5eed_0001);
    for _ in 0..100_000 {
        let t = moment(&mut rng, YEAR_1);
        let text = t.format(&Rfc3339).unwrap();
        assert_eq!(
            dates::rfc3339_to_unix(&text),
            Some(t.unix_timestamp()),
            "{text}"
        );
        let system = dates::rfc3339_to_system_time(&text).unwrap();
        let nanos = system
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| i128::try_from(d.as_nanos()).unwrap())
            .unwrap_or_else(|e| -i128::try_from(e.duration().as_nanos()).unwrap());
        assert_eq!(nanos, t.unix_timestamp_nanos(), "{text}");
        // Ours, read by `time`.
        let ours = dates::unix_to_rfc3339(t.unix_timestamp()).unwrap();
        let back = OffsetDateTime::parse(&ours, &Rfc3339).unwrap();
        assert_eq!(back.unix_timestamp(), t.unix_timestamp(), "{ours}");
    }
}

#[test]
fn rfc2822_reads_and_writes_the_same_instants_as_time() {
    let mut rng = Rng(0x5eed_0002);
    for _ in 0..100_000 {
        let t = moment(&mut rng, YEAR_1900).replace_nanosecond(0).unwrap();
        let text = t.format(&Rfc2822).unwrap();
        let ours = dates::rfc2822_to_rfc3339(&text).unwrap_or_else(|| panic!("{text}"));
        assert_eq!(
            dates::rfc3339_to_unix(&ours),
            Some(t.unix_timestamp()),
            "{text} → {ours}"
        );
        // Ours, written as `time` writes it, the offset kept, and read back by `time`.
        let written = dates::rfc3339_to_rfc2822(&t.format(&Rfc3339).unwrap()).unwrap();
        assert_eq!(written, text, "{t}");
        if !reads_minus_zero_hours_wrong(t) {
            let back = OffsetDateTime::parse(&written, &Rfc2822).unwrap();
            assert_eq!(back, t, "{written}");
        }
    }
}

/// Whether `t`'s offset is negative and under an hour (`-0023`), which `time`'s RFC 2822
/// parser (0.3.55) reads back as positive: such texts are checked against `time`'s writing only.
fn reads_minus_zero_hours_wrong(t: OffsetDateTime) -> bool {
    (-3599..0).contains(&t.offset().whole_seconds())
}

#[test]
fn calendar_dates_exist_where_time_says_they_do() {
    let mut rng = Rng(0x5eed_0003);
    for _ in 0..50_000 {
        let (y, m, d) = (
            rng.between(1, 10_000),
            rng.between(1, 13),
            rng.between(1, 32),
        );
        let text = format!("{y:04}-{m:02}-{d:02}");
        let exists = time::Month::try_from(u8::try_from(m).unwrap())
            .ok()
            .and_then(|month| {
                time::Date::from_calendar_date(
                    i32::try_from(y).unwrap(),
                    month,
                    u8::try_from(d).unwrap(),
                )
                .ok()
            })
            .is_some();
        assert_eq!(dates::is_date(&text), exists, "{text}");
    }
}
