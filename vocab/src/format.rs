//! The formats a spec names for a field: string formats checked before sending and by the
//! sandbox, and the wire encodings of a `datetime`.

/// A field's format: what a string must look like, or how a `datetime` travels.
///
/// In a spec: `format: email` on a string field; `format: rfc2822`, `unix` or `unix_ms` on a
/// `datetime` field. The runtime checks string formats before sending
/// (`tidings_runtime::validate::matches`); the sandbox checks them on arrival.
///
/// ```
/// use tidings_spec::Format;
///
/// assert_eq!(Format::E164.name(), "e164");
/// assert_eq!(Format::from_name("unix_ms"), Some(Format::UnixMs));
/// assert!(Format::Unix.is_datetime_encoding() && !Format::Email.is_datetime_encoding());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Format {
    /// An email address, bare (`a@example.com`) or with a display name (`Ann <a@example.com>`).
    Email,
    /// An E.164 phone number: `^\+?[1-9]\d{1,14}$`.
    E164,
    /// An RFC 3339 date-time, e.g. `2024-05-01T12:00:00Z`.
    Rfc3339,
    /// An absolute URI.
    Uri,
    /// A hyphenated UUID.
    Uuid,
    /// A calendar date, `YYYY-MM-DD`.
    Date,
    /// A `datetime` sent as an RFC 2822 date: `Wed, 18 Aug 2010 20:01:40 +0000`.
    Rfc2822,
    /// A `datetime` sent as whole seconds since the Unix epoch (a JSON integer).
    Unix,
    /// A `datetime` sent as milliseconds since the Unix epoch (a JSON integer).
    UnixMs,
}

impl Format {
    /// Every format, in declaration order.
    pub const ALL: [Format; 9] = [
        Format::Email,
        Format::E164,
        Format::Rfc3339,
        Format::Uri,
        Format::Uuid,
        Format::Date,
        Format::Rfc2822,
        Format::Unix,
        Format::UnixMs,
    ];

    /// Its name in a spec (`email`, `e164`, `rfc3339`, `uri`, `uuid`, `date`, `rfc2822`, `unix`,
    /// `unix_ms`).
    pub const fn name(self) -> &'static str {
        match self {
            Format::Email => "email",
            Format::E164 => "e164",
            Format::Rfc3339 => "rfc3339",
            Format::Uri => "uri",
            Format::Uuid => "uuid",
            Format::Date => "date",
            Format::Rfc2822 => "rfc2822",
            Format::Unix => "unix",
            Format::UnixMs => "unix_ms",
        }
    }

    /// The format a spec names `name`.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether it says how a `datetime` travels rather than what a string looks like.
    pub const fn is_datetime_encoding(self) -> bool {
        matches!(self, Format::Rfc2822 | Format::Unix | Format::UnixMs)
    }

    /// What a value of this format is, for error messages: "an email address".
    pub const fn describe(self) -> &'static str {
        match self {
            Format::Email => "an email address",
            Format::E164 => "an E.164 phone number (like +14155550100)",
            Format::Rfc3339 => "an RFC 3339 date-time (like 2024-05-01T12:00:00Z)",
            Format::Uri => "an absolute URI",
            Format::Uuid => "a UUID",
            Format::Date => "a date (like 2024-05-01)",
            Format::Rfc2822 => "an RFC 2822 date (like Wed, 18 Aug 2010 20:01:40 +0000)",
            Format::Unix => "whole seconds since the Unix epoch",
            Format::UnixMs => "milliseconds since the Unix epoch",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Format;

    #[test]
    fn every_name_reads_back_as_its_format() {
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
        assert_eq!(Format::from_name("email "), None);
    }
}
