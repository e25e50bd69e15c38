//! Client-side validation before sending: generated code implements [`Validate`] for request
//! types with the checks their spec declares (formats, lengths, item counts, ranges, field
//! rules), and [`Validator::check`] turns failures into [`Error::InvalidRequest`] naming the
//! field (`to[2]`, `template.variables[0].key`).

use std::collections::{BTreeMap, HashMap};

use crate::Error;

use tidings_spec::Format;

/// Whether `value` has the string format `format` (a `datetime` encoding: whether `value` is
/// such a date as text: an RFC 2822 date, or an integer for `unix` and `unix_ms`).
///
/// ```
/// use tidings_runtime::spec::Format;
/// use tidings_runtime::validate::matches;
/// assert!(matches(Format::Email, "Ann <ann@example.com>"));
/// assert!(matches(Format::E164, "+14155550100"));
/// assert!(!matches(Format::Rfc3339, "2024-02-30T00:00:00Z"));
/// ```
pub fn matches(format: Format, value: &str) -> bool {
    match format {
        Format::Email => is_email(value),
        Format::E164 => is_e164(value),
        Format::Rfc3339 => is_rfc3339(value),
        Format::Uri => url::Url::parse(value).is_ok(),
        Format::Uuid => crate::random::is_hyphenated_uuid(value),
        Format::Date => crate::dates::is_date(value),
        Format::Rfc2822 => crate::dates::rfc2822_to_rfc3339(value).is_some(),
        Format::Unix | Format::UnixMs => value.parse::<i64>().is_ok(),
    }
}

/// A type with checks to run before it is sent.
pub trait Validate {
    /// Reports every problem to `v`.
    fn validate(&self, v: &mut Validator);
}

impl<T: Validate + ?Sized> Validate for &T {
    fn validate(&self, v: &mut Validator) {
        (**self).validate(v);
    }
}

impl<T: Validate + ?Sized> Validate for Box<T> {
    fn validate(&self, v: &mut Validator) {
        (**self).validate(v);
    }
}

impl<T: Validate> Validate for Option<T> {
    fn validate(&self, v: &mut Validator) {
        if let Some(value) = self {
            value.validate(v);
        }
    }
}

impl<T: Validate> Validate for [T] {
    fn validate(&self, v: &mut Validator) {
        for (i, item) in self.iter().enumerate() {
            v.scoped(format!("[{i}]"), |v| item.validate(v));
        }
    }
}

impl<T: Validate> Validate for Vec<T> {
    fn validate(&self, v: &mut Validator) {
        self.as_slice().validate(v);
    }
}

impl<T: Validate> Validate for BTreeMap<String, T> {
    fn validate(&self, v: &mut Validator) {
        for (key, item) in self {
            v.scoped(format!("[{key:?}]"), |v| item.validate(v));
        }
    }
}

impl<T: Validate, S> Validate for HashMap<String, T, S> {
    fn validate(&self, v: &mut Validator) {
        for (key, item) in self {
            v.scoped(format!("[{key:?}]"), |v| item.validate(v));
        }
    }
}

/// Collects problems while a value validates itself.
///
/// ```
/// use tidings_runtime::spec::Format;
/// use tidings_runtime::validate::{Validate, Validator};
/// struct Send { to: Vec<String>, subject: Option<String> }
/// impl Validate for Send {
///     fn validate(&self, v: &mut Validator) {
///         v.format("to", &self.to, Format::Email);
///         v.min_items("to", &self.to, 1);
///         v.max_len("subject", &self.subject, 998);
///     }
/// }
/// let err = Validator::check(&Send { to: vec!["a@example.com".into(), "nope".into()], subject: None })
///     .unwrap_err();
/// assert!(err.to_string().contains("to[1]"));
/// ```
#[derive(Debug, Default)]
pub struct Validator {
    prefix: String,
    problems: Vec<(String, String)>,
}

impl Validator {
    /// An empty validator.
    pub fn new() -> Self {
        Validator::default()
    }

    /// Validates `value`; the first problem becomes an [`Error::InvalidRequest`] naming its
    /// field, with any further problems listed in the message.
    pub fn check<T: Validate + ?Sized>(value: &T) -> Result<(), Error> {
        let mut v = Validator::new();
        value.validate(&mut v);
        v.finish()
    }

    /// The problems found so far: (field path, message).
    pub fn problems(&self) -> &[(String, String)] {
        &self.problems
    }

    /// `Ok` when nothing was reported.
    pub fn finish(self) -> Result<(), Error> {
        let mut problems = self.problems.into_iter();
        let Some((field, mut message)) = problems.next() else {
            return Ok(());
        };
        let rest: Vec<String> = problems.map(|(f, m)| format!("`{f}` {m}")).collect();
        if !rest.is_empty() {
            message.push_str("; also ");
            message.push_str(&rest.join("; "));
        }
        Err(Error::invalid_request(field, message))
    }

    /// Reports a problem with `field` (relative to the value being validated).
    pub fn report(&mut self, field: &str, message: impl Into<String>) {
        let path = self.path(field);
        self.problems.push((path, message.into()));
    }

    /// Checks every string in `value` against `format`.
    pub fn format<V: Texts + ?Sized>(&mut self, field: &str, value: &V, format: Format) {
        value.each_text(&mut |index, text| {
            if !matches(format, text) {
                self.report(
                    &indexed(field, index),
                    format!("must be {}", format.describe()),
                );
            }
        });
    }

    /// Every string in `value` has at most `max` characters.
    pub fn max_len<V: Texts + ?Sized>(&mut self, field: &str, value: &V, max: usize) {
        value.each_text(&mut |index, text| {
            let len = text.chars().count();
            if len > max {
                self.report(
                    &indexed(field, index),
                    format!("must be at most {max} characters (is {len})"),
                );
            }
        });
    }

    /// Every string in `value` has at least `min` characters.
    pub fn min_len<V: Texts + ?Sized>(&mut self, field: &str, value: &V, min: usize) {
        value.each_text(&mut |index, text| {
            if text.chars().count() < min {
                self.report(
                    &indexed(field, index),
                    format!("must be at least {min} characters"),
                );
            }
        });
    }

    /// Every string in `value` has at most `max` bytes of UTF-8.
    pub fn max_bytes<V: Texts + ?Sized>(&mut self, field: &str, value: &V, max: usize) {
        value.each_text(&mut |index, text| {
            if text.len() > max {
                self.report(
                    &indexed(field, index),
                    format!("must be at most {max} bytes (is {})", text.len()),
                );
            }
        });
    }

    /// `value` (when present) has at most `max` items.
    pub fn max_items<V: Count + ?Sized>(&mut self, field: &str, value: &V, max: usize) {
        let count = value.count();
        if value.is_present() && count > max {
            self.report(
                field,
                format!("must have at most {max} items (has {count})"),
            );
        }
    }

    /// `value` (when present) has at least `min` items.
    pub fn min_items<V: Count + ?Sized>(&mut self, field: &str, value: &V, min: usize) {
        if value.is_present() && value.count() < min {
            self.report(
                field,
                format!(
                    "must have at least {min} item{}",
                    if min == 1 { "" } else { "s" }
                ),
            );
        }
    }

    /// Every number in `value` lies within `min..=max`.
    pub fn range<V: Numbers + ?Sized>(
        &mut self,
        field: &str,
        value: &V,
        min: Option<f64>,
        max: Option<f64>,
    ) {
        value.each_number(&mut |index, n| {
            if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) || n.is_nan() {
                let bounds = match (min, max) {
                    (Some(lo), Some(hi)) => format!("between {lo} and {hi}"),
                    (Some(lo), None) => format!("at least {lo}"),
                    (None, Some(hi)) => format!("at most {hi}"),
                    (None, None) => "a number".to_owned(),
                };
                self.report(
                    &indexed(field, index.map(Place::Index)),
                    format!("must be {bounds} (is {n})"),
                );
            }
        });
    }

    /// Validates a nested value, reporting its problems under `field.`.
    pub fn nested<V: Validate + ?Sized>(&mut self, field: &str, value: &V) {
        let segment = if self.prefix.is_empty() {
            field.to_owned()
        } else {
            format!(".{field}")
        };
        self.scoped(segment, |v| value.validate(v));
    }

    /// At most one of `fields` is set (`present` says which are).
    pub fn exclusive(&mut self, fields: &[&str], present: &[bool]) {
        let set: Vec<&str> = fields
            .iter()
            .zip(present)
            .filter(|(_, p)| **p)
            .map(|(f, _)| *f)
            .collect();
        if set.len() > 1 {
            self.report(
                set[1],
                format!(
                    "cannot be combined with {}: set only one of {}",
                    quoted(&set[..1]),
                    quoted(fields)
                ),
            );
        }
    }

    /// At least one of `fields` is set.
    pub fn require_one(&mut self, fields: &[&str], present: &[bool]) {
        if !present.iter().any(|p| *p) {
            let first = fields.first().copied().unwrap_or("");
            self.report(first, format!("is required: set one of {}", quoted(fields)));
        }
    }

    /// The item counts of `fields` add up to at most `max`.
    pub fn max_total(&mut self, fields: &[&str], counts: &[usize], max: usize) {
        let total: usize = counts.iter().sum();
        if total > max {
            let first = fields.first().copied().unwrap_or("");
            self.report(
                first,
                format!(
                    "{} together must have at most {max} items (have {total})",
                    quoted(fields)
                ),
            );
        }
    }

    fn path(&self, field: &str) -> String {
        match (self.prefix.is_empty(), field.is_empty()) {
            (true, _) => field.to_owned(),
            (false, true) => self.prefix.clone(),
            (false, false) if field.starts_with('[') => format!("{}{field}", self.prefix),
            (false, false) => format!("{}.{field}", self.prefix),
        }
    }

    fn scoped(&mut self, segment: String, f: impl FnOnce(&mut Validator)) {
        let saved = self.prefix.len();
        self.prefix.push_str(&segment);
        f(self);
        self.prefix.truncate(saved);
    }
}

fn indexed(field: &str, place: Option<Place<'_>>) -> String {
    match place {
        Some(Place::Index(i)) => format!("{field}[{i}]"),
        Some(Place::Key(key)) => format!("{field}[{key}]"),
        None => field.to_owned(),
    }
}

fn quoted(fields: &[&str]) -> String {
    fields
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Values holding strings: a string, an optional one, or a list or map of them.
pub trait Texts {
    /// Calls `f` with each string and its place in a list or map (`None` outside them).
    fn each_text(&self, f: &mut dyn FnMut(Option<Place<'_>>, &str));
}

impl Texts for str {
    fn each_text(&self, f: &mut dyn FnMut(Option<Place<'_>>, &str)) {
        f(None, self);
    }
}

impl Texts for String {
    fn each_text(&self, f: &mut dyn FnMut(Option<Place<'_>>, &str)) {
        f(None, self);
    }
}

impl<T: Texts + ?Sized> Texts for &T {
    fn each_text(&self, f: &mut dyn FnMut(Option<Place<'_>>, &str)) {
        (**self).each_text(f);
    }
}

impl<T: Texts> Texts for Option<T> {
    fn each_text(&self, f: &mut dyn FnMut(Option<Place<'_>>, &str)) {
        if let Some(value) = self {
            value.each_text(f);
        }
    }
}

impl<T: Texts> Texts for [T] {
    fn each_text(&self, f: &mut dyn FnMut(Option<Place<'_>>, &str)) {
        for (i, item) in self.iter().enumerate() {
            item.each_text(&mut |_, text| f(Some(Place::Index(i)), text));
        }
    }
}

impl<T: Texts> Texts for Vec<T> {
    fn each_text(&self, f: &mut dyn FnMut(Option<Place<'_>>, &str)) {
        self.as_slice().each_text(f);
    }
}

impl<T: Texts> Texts for BTreeMap<String, T> {
    fn each_text(&self, f: &mut dyn FnMut(Option<Place<'_>>, &str)) {
        for (key, value) in self {
            value.each_text(&mut |_, text| f(Some(Place::Key(key)), text));
        }
    }
}

/// Where in a list or a map a checked value sits, as a problem names it (`to[2]`,
/// `webhook_urls[call.answered]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place<'a> {
    /// An item of a list.
    Index(usize),
    /// A value of a map, by its key.
    Key(&'a str),
}

/// Values holding numbers: a number, an optional one, or a list of them.
pub trait Numbers {
    /// Calls `f` with each number and its list index (`None` outside a list).
    fn each_number(&self, f: &mut dyn FnMut(Option<usize>, f64));
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl Numbers for $t {
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            fn each_number(&self, f: &mut dyn FnMut(Option<usize>, f64)) {
                f(None, *self as f64);
            }
        }
    )*};
}
numbers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64);

impl<T: Numbers + ?Sized> Numbers for &T {
    fn each_number(&self, f: &mut dyn FnMut(Option<usize>, f64)) {
        (**self).each_number(f);
    }
}

impl<T: Numbers> Numbers for Option<T> {
    fn each_number(&self, f: &mut dyn FnMut(Option<usize>, f64)) {
        if let Some(value) = self {
            value.each_number(f);
        }
    }
}

impl<T: Numbers> Numbers for [T] {
    fn each_number(&self, f: &mut dyn FnMut(Option<usize>, f64)) {
        for (i, item) in self.iter().enumerate() {
            item.each_number(&mut |_, n| f(Some(i), n));
        }
    }
}

impl<T: Numbers> Numbers for Vec<T> {
    fn each_number(&self, f: &mut dyn FnMut(Option<usize>, f64)) {
        self.as_slice().each_number(f);
    }
}

/// Values with an item count: lists, maps, optional ones (absent counts 0), single strings (1).
pub trait Count {
    /// Number of items.
    fn count(&self) -> usize;
    /// Whether the value is set at all (`false` only for `None`).
    fn is_present(&self) -> bool {
        true
    }
}

impl<T: Count + ?Sized> Count for &T {
    fn count(&self) -> usize {
        (**self).count()
    }
    fn is_present(&self) -> bool {
        (**self).is_present()
    }
}

impl<T: Count> Count for Option<T> {
    fn count(&self) -> usize {
        self.as_ref().map_or(0, Count::count)
    }
    fn is_present(&self) -> bool {
        self.is_some()
    }
}

impl<T> Count for [T] {
    fn count(&self) -> usize {
        self.len()
    }
}

impl<T> Count for Vec<T> {
    fn count(&self) -> usize {
        self.len()
    }
}

impl<K, V> Count for BTreeMap<K, V> {
    fn count(&self) -> usize {
        self.len()
    }
}

impl<K, V, S> Count for HashMap<K, V, S> {
    fn count(&self) -> usize {
        self.len()
    }
}

impl Count for String {
    fn count(&self) -> usize {
        1
    }
}

impl Count for str {
    fn count(&self) -> usize {
        1
    }
}

impl Count for serde_json::Value {
    fn count(&self) -> usize {
        match self {
            serde_json::Value::Null => 0,
            serde_json::Value::Array(items) => items.len(),
            serde_json::Value::Object(fields) => fields.len(),
            _ => 1,
        }
    }
}

fn is_email(value: &str) -> bool {
    let value = value.trim();
    // "Display Name <addr>"
    let addr = match (value.rfind('<'), value.strip_suffix('>')) {
        (Some(open), Some(inner)) => &inner[open + 1..],
        _ => value,
    };
    let Some((local, domain)) = addr.rsplit_once('@') else {
        return false;
    };
    if local.is_empty() || local.len() > 64 || addr.len() > 254 || local.contains('@') {
        return false;
    }
    if addr
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | ',' | ';'))
    {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_alphanumeric() || c == '-')
        })
}

fn is_e164(value: &str) -> bool {
    let digits = value.strip_prefix('+').unwrap_or(value);
    (2..=15).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0')
}

fn is_rfc3339(value: &str) -> bool {
    let b = value.as_bytes();
    let num = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(range)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(part).ok()?.parse().ok()
    };
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        num(0..4),
        num(5..7),
        num(8..10),
        num(11..13),
        num(14..16),
        num(17..19),
    ) else {
        return false;
    };
    if !(at(4, b'-')
        && at(7, b'-')
        && matches!(b.get(10), Some(b'T' | b't'))
        && at(13, b':')
        && at(16, b':'))
    {
        return false;
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days || hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 19;
    if at(i, b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            let (Some(oh), Some(om)) = (num(i + 1..i + 3), num(i + 4..i + 6)) else {
                return false;
            };
            at(i + 3, b':') && oh <= 23 && om <= 59 && i + 6 == b.len()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn formats() {
        for ok in [
            "a@example.com",
            "Ann Lee <ann.lee+tag@mail.example.co.uk>",
            "ü@bücher.de",
        ] {
            assert!(matches(Format::Email, ok), "{ok}");
        }
        for bad in [
            "",
            "a",
            "a@b",
            "a@@b.com",
            "a b@c.com",
            "@c.com",
            "a@-c.com",
            "Ann <a@c.com",
            "a@c..com",
        ] {
            assert!(!matches(Format::Email, bad), "{bad}");
        }
        for ok in ["+14155550100", "447700900123", "+12"] {
            assert!(matches(Format::E164, ok), "{ok}");
        }
        for bad in ["+0123", "+1", "+1234567890123456", "+1 415", "phone"] {
            assert!(!matches(Format::E164, bad), "{bad}");
        }
        for ok in [
            "2024-05-01T12:00:00Z",
            "2024-02-29T23:59:60.123+05:30",
            "1999-12-31t00:00:00z",
        ] {
            assert!(matches(Format::Rfc3339, ok), "{ok}");
        }
        for bad in [
            "2023-02-29T00:00:00Z",
            "2024-05-01 12:00:00Z",
            "2024-05-01T12:00:00",
            "2024-13-01T00:00:00Z",
            "2024-05-01T12:00:00.Z",
            "2024-05-01T12:00:00+0530",
        ] {
            assert!(!matches(Format::Rfc3339, bad), "{bad}");
        }
        assert!(matches(Format::Uri, "https://example.com/hook"));
        assert!(!matches(Format::Uri, "/relative"));
        assert!(matches(
            Format::Uuid,
            "67e55044-10b1-426f-9247-bb680e5fe0c8"
        ));
        assert!(!matches(Format::Uuid, "67e5504410b1426f9247bb680e5fe0c8"));
    }

    struct Variable {
        key: String,
    }
    impl Validate for Variable {
        fn validate(&self, v: &mut Validator) {
            v.min_len("key", &self.key, 1);
        }
    }
    struct Template {
        variables: Option<Vec<Variable>>,
    }
    impl Validate for Template {
        fn validate(&self, v: &mut Validator) {
            v.nested("variables", &self.variables);
        }
    }
    struct Send {
        to: Vec<String>,
        cc: Option<Vec<String>>,
        channels: Option<Vec<String>>,
        channel: Option<String>,
        ttl: Option<i64>,
        template: Option<Template>,
    }
    impl Validate for Send {
        fn validate(&self, v: &mut Validator) {
            v.format("to", &self.to, Format::Email);
            v.min_items("to", &self.to, 1);
            v.min_items("cc", &self.cc, 1);
            v.max_len("channels", &self.channels, 5);
            v.range("ttl", &self.ttl, Some(1.0), Some(100.0));
            v.exclusive(
                &["channels", "channel"],
                &[self.channels.is_some(), self.channel.is_some()],
            );
            v.require_one(
                &["channels", "channel"],
                &[self.channels.is_some(), self.channel.is_some()],
            );
            v.max_total(
                &["to", "cc"],
                &[Count::count(&self.to), Count::count(&self.cc)],
                3,
            );
            v.nested("template", &self.template);
        }
    }

    fn good() -> Send {
        Send {
            to: vec!["a@example.com".into()],
            cc: None,
            channels: None,
            channel: Some("c".into()),
            ttl: None,
            template: None,
        }
    }

    fn first_field(send: &Send) -> String {
        match Validator::check(send) {
            Err(Error::InvalidRequest { field, .. }) => field,
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn valid_value_passes() {
        Validator::check(&good()).expect("valid");
    }

    #[test]
    fn problems_name_their_field() {
        assert_eq!(
            first_field(&Send {
                to: vec!["a@example.com".into(), "x".into()],
                ..good()
            }),
            "to[1]"
        );
        assert_eq!(
            first_field(&Send {
                to: vec![],
                ..good()
            }),
            "to"
        );
        assert_eq!(
            first_field(&Send {
                cc: Some(vec![]),
                ..good()
            }),
            "cc"
        );
        assert_eq!(
            first_field(&Send {
                ttl: Some(0),
                ..good()
            }),
            "ttl"
        );
        assert_eq!(
            first_field(&Send {
                channels: Some(vec!["toolong".into()]),
                channel: None,
                ..good()
            }),
            "channels[0]"
        );
        assert_eq!(
            first_field(&Send {
                channels: Some(vec!["a".into()]),
                ..good()
            }),
            "channel"
        );
        assert_eq!(
            first_field(&Send {
                channel: None,
                ..good()
            }),
            "channels"
        );
        assert_eq!(
            first_field(&Send {
                to: vec!["a@b.co".into(); 2],
                cc: Some(vec!["c@d.co".into(); 2]),
                ..good()
            }),
            "to"
        );
        let nested = Send {
            template: Some(Template {
                variables: Some(vec![
                    Variable { key: "k".into() },
                    Variable { key: String::new() },
                ]),
            }),
            ..good()
        };
        assert_eq!(first_field(&nested), "template.variables[1].key");
    }

    #[test]
    fn all_problems_are_listed() {
        let err = Validator::check(&Send {
            to: vec![],
            channel: None,
            ..good()
        })
        .expect_err("invalid");
        assert_eq!(err.kind(), ErrorKind::InvalidRequest);
        let text = err.to_string();
        assert!(text.contains("`channels`"), "{text}");
    }

    /// Telnyx's `webhook_urls`, a map of event names to URIs: each value is checked, and a
    /// problem names its key.
    #[test]
    fn each_value_of_a_map_is_checked_and_named_by_its_key() {
        struct Hooks(Option<BTreeMap<String, String>>);
        impl Validate for Hooks {
            fn validate(&self, v: &mut Validator) {
                v.format("webhook_urls", &self.0, Format::Uri);
                v.max_len("webhook_urls", &self.0, 30);
            }
        }
        let hooks = |pairs: &[(&str, &str)]| {
            Hooks(Some(
                pairs
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                    .collect(),
            ))
        };
        assert!(Validator::check(&hooks(&[("call.answered", "https://a.example/")])).is_ok());
        assert!(Validator::check(&Hooks(None)).is_ok());
        let err = Validator::check(&hooks(&[
            ("call.answered", "https://a.example/"),
            ("call.hangup", "not a uri"),
        ]))
        .expect_err("not a URI");
        assert!(
            matches!(&err, Error::InvalidRequest { field, .. } if field == "webhook_urls[call.hangup]"),
            "{err}"
        );
    }
}
