//! Error answers from a server: `ApiError::from_response` on any status, header request id and
//! body; its Display; the bounded excerpt. Must never panic and never keep more than
//! `EXCERPT_LIMIT` bytes of the body.
#![no_main]

use tidings_runtime::ApiError;
use tidings_runtime::__private::excerpt;

const EXCERPT_LIMIT: usize = ApiError::EXCERPT_LIMIT;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (status, rest) = match data {
        [a, b, rest @ ..] => (u16::from_le_bytes([*a, *b]), rest),
        _ => (500, data),
    };
    // An optional header request id: the text before the first NUL.
    let (header_id, body) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (std::str::from_utf8(&rest[..i]).ok(), &rest[i + 1..]),
        None => (None, rest),
    };
    let api = ApiError::from_response(status, header_id, body);
    let _ = (api.to_string(), format!("{api:?}"));
    assert!(
        api.body_excerpt.trim_end_matches('…').len() <= EXCERPT_LIMIT * 3,
        "excerpt too long"
    );
    let e = excerpt(body);
    let kept = e.strip_suffix('…').unwrap_or(&e);
    // Lossy decoding may widen invalid bytes to U+FFFD (3 bytes each), never more.
    assert!(
        kept.len() <= EXCERPT_LIMIT * 3,
        "excerpt of {} bytes",
        kept.len()
    );
    let decode = tidings_runtime::Error::decode("fuzz", body);
    let _ = (decode.to_string(), format!("{decode:?}"));
});
