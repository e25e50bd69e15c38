//! The SMS segment calculator against hand-counted vectors: the GSM-7 and UCS-2 single-segment
//! limits (160, 70) and their split sizes (153, 67), extension characters counting twice, one
//! character outside GSM-7 switching the whole text to UCS-2, emoji counting as two UTF-16 units,
//! and characters never cut across segments.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use tidings::messaging::sms::{
    Encoding, SegmentCount, encoding, gsm7_septets, segments, segments_as,
};

fn shape(c: SegmentCount) -> (Encoding, usize, usize, usize, usize) {
    (c.encoding, c.units, c.segments, c.per_segment, c.remaining)
}

#[test]
fn pure_gsm7_fits_160_in_one_segment_and_161_needs_two() {
    assert_eq!(
        shape(segments(&"a".repeat(160))),
        (Encoding::Gsm7, 160, 1, 160, 0)
    );
    assert_eq!(
        shape(segments(&"a".repeat(161))),
        (Encoding::Gsm7, 161, 2, 153, 145)
    );
    assert_eq!(
        shape(segments(&"a".repeat(306))),
        (Encoding::Gsm7, 306, 2, 153, 0)
    );
    assert_eq!(
        shape(segments(&"a".repeat(307))),
        (Encoding::Gsm7, 307, 3, 153, 152)
    );
}

#[test]
fn the_whole_basic_alphabet_is_gsm7() {
    let basic = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
    assert_eq!(basic.chars().count(), 127, "128 codes minus the escape");
    let count = segments(basic);
    assert_eq!(
        (count.encoding, count.units, count.characters),
        (Encoding::Gsm7, 127, 127)
    );
}

#[test]
fn extension_characters_count_twice() {
    for c in ['^', '{', '}', '\\', '[', '~', ']', '|', '€', '\u{c}'] {
        assert_eq!(gsm7_septets(c), Some(2), "{c:?}");
    }
    let text = "^{}\\[~]|€";
    let count = segments(text);
    assert_eq!(
        (count.encoding, count.characters, count.units),
        (Encoding::Gsm7, 9, 18)
    );
    // 80 euro signs are 160 septets: one segment; one more character tips it over.
    assert_eq!(
        shape(segments(&"€".repeat(80))),
        (Encoding::Gsm7, 160, 1, 160, 0)
    );
    assert_eq!(segments(&format!("{}a", "€".repeat(80))).segments, 2);
    // 159 plain + one extension is 161 septets: two segments.
    assert_eq!(segments(&format!("{}€", "a".repeat(159))).segments, 2);
}

#[test]
fn an_extension_character_is_never_split_across_segments() {
    // 152 septets, then an escape pair that would straddle the 153 boundary: it moves to
    // segment two, which then holds 2 + 152 = 154 > 153, so a third segment starts.
    let text = format!("{}€{}", "a".repeat(152), "a".repeat(152));
    let count = segments(&text);
    assert_eq!(
        count.units, 306,
        "the septet total alone would say 2 segments"
    );
    assert_eq!(count.segments, 3);
    assert_eq!(count.remaining, 153 - 1);
}

#[test]
fn one_emoji_turns_the_whole_message_into_ucs2() {
    let plain = "a".repeat(60);
    assert_eq!(encoding(&plain), Encoding::Gsm7);
    let with_emoji = format!("{plain}😀");
    let count = segments(&with_emoji);
    assert_eq!(count.encoding, Encoding::Ucs2);
    assert_eq!(count.characters, 61);
    assert_eq!(
        count.units, 62,
        "the emoji is a surrogate pair: 2 UTF-16 units"
    );
    assert_eq!(
        (count.segments, count.per_segment, count.remaining),
        (1, 70, 8)
    );
    // 100 GSM characters fit one GSM-7 segment, but not one UCS-2 segment once an emoji joins.
    assert_eq!(segments(&"a".repeat(100)).segments, 1);
    assert_eq!(
        shape(segments(&format!("{}👍", "a".repeat(100)))),
        (Encoding::Ucs2, 102, 2, 67, 32)
    );
}

#[test]
fn ucs2_fits_70_in_one_segment_and_71_needs_two() {
    assert_eq!(
        shape(segments(&"ж".repeat(70))),
        (Encoding::Ucs2, 70, 1, 70, 0)
    );
    assert_eq!(
        shape(segments(&"ж".repeat(71))),
        (Encoding::Ucs2, 71, 2, 67, 63)
    );
    assert_eq!(
        shape(segments(&"ж".repeat(134))),
        (Encoding::Ucs2, 134, 2, 67, 0)
    );
    assert_eq!(
        shape(segments(&"ж".repeat(135))),
        (Encoding::Ucs2, 135, 3, 67, 66)
    );
    // 35 emoji are exactly 70 units.
    assert_eq!(
        shape(segments(&"😀".repeat(35))),
        (Encoding::Ucs2, 70, 1, 70, 0)
    );
}

#[test]
fn a_surrogate_pair_is_never_split_across_segments() {
    // 66 units, then an emoji that would straddle the 67 boundary: it starts segment two.
    let text = format!("{}😀{}", "ж".repeat(66), "ж".repeat(66));
    let count = segments(&text);
    assert_eq!(
        count.units, 134,
        "the unit total alone would say 2 segments"
    );
    assert_eq!(count.segments, 3);
}

#[test]
fn an_empty_text_is_no_segment() {
    assert_eq!(shape(segments("")), (Encoding::Gsm7, 0, 0, 160, 160));
}

#[test]
fn a_forced_encoding_is_honoured() {
    // Forcing UCS-2 on plain text: 71 characters need two segments.
    assert_eq!(
        shape(segments_as(&"a".repeat(71), Encoding::Ucs2)),
        (Encoding::Ucs2, 71, 2, 67, 63)
    );
    // Forcing GSM-7 on text it cannot carry: each such character is replaced, one septet each.
    assert_eq!(segments_as("日本", Encoding::Gsm7).units, 2);
}
