//! Our calendar code (`tidings_runtime::dates`, what generated `datetime` fields with an
//! `rfc2822` or `unix` wire form call on every decode and encode) against the `time` crate
//! doing the same conversions: reading RFC 3339 to Unix seconds, and RFC 2822 to RFC 3339.
//! `tests/dates_against_time.rs` checks both give the same instants.
//!
//! Run: `cargo bench -p tidings-runtime --bench dates`

use criterion::{Criterion, criterion_group, criterion_main};
use time::OffsetDateTime;
use time::format_description::well_known::{Rfc2822, Rfc3339};

const RFC3339: &str = "2026-11-27T13:48:25.250+01:00";
const RFC2822: &str = "Fri, 27 Nov 2026 13:48:25 +0100";

fn dates(c: &mut Criterion) {
    // Both read the same instants before anything is timed.
    let ours = tidings_runtime::dates::rfc3339_to_unix(RFC3339).expect("ours reads it");
    let theirs = OffsetDateTime::parse(RFC3339, &Rfc3339).expect("time reads it");
    assert_eq!(ours, theirs.unix_timestamp());
    let ours = tidings_runtime::dates::rfc2822_to_rfc3339(RFC2822).expect("ours reads it");
    let theirs = OffsetDateTime::parse(RFC2822, &Rfc2822).expect("time reads it");
    assert_eq!(
        tidings_runtime::dates::rfc3339_to_unix(&ours),
        Some(theirs.unix_timestamp())
    );

    pair(
        c,
        "rfc3339_to_unix",
        || tidings_runtime::dates::rfc3339_to_unix(std::hint::black_box(RFC3339)),
        || {
            OffsetDateTime::parse(std::hint::black_box(RFC3339), &Rfc3339)
                .map(OffsetDateTime::unix_timestamp)
                .ok()
        },
    );
    pair(
        c,
        "rfc2822_to_rfc3339",
        || tidings_runtime::dates::rfc2822_to_rfc3339(std::hint::black_box(RFC2822)),
        || {
            OffsetDateTime::parse(std::hint::black_box(RFC2822), &Rfc2822)
                .ok()
                .and_then(|t| t.format(&Rfc3339).ok())
        },
    );
}

/// One group: ours, then `time`, doing the same conversion.
fn pair<A, B>(c: &mut Criterion, name: &str, ours: impl Fn() -> A, time: impl Fn() -> B) {
    let mut group = c.benchmark_group(name);
    group.bench_function("ours", |b| b.iter(&ours));
    group.bench_function("time", |b| b.iter(&time));
    group.finish();
}

criterion_group!(benches, dates);
criterion_main!(benches);
