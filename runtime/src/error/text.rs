//! Server text made safe to show: control characters and text-reordering characters escaped,
//! cut at a byte limit.

use std::fmt;

use super::EXCERPT_LIMIT;

/// `text` made safe to display and log: control characters escaped (see [`ApiError`](super::ApiError)), cut to at
/// most `limit` bytes (plus a closing `…` when cut).
pub fn bounded_text(text: &str, limit: usize) -> String {
    if text.len() <= limit && !text.chars().any(needs_escape) {
        return text.to_owned();
    }
    Escaped(text, limit).to_string()
}

/// Characters that could end a log line, rewrite a terminal or reorder text.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// Displays a string with [`needs_escape`] characters escaped, cut at a byte limit.
pub(crate) struct Escaped<'a>(pub(crate) &'a str, pub(crate) usize);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        let Escaped(text, limit) = *self;
        if text.len() <= limit && !text.chars().any(needs_escape) {
            return f.write_str(text);
        }
        let mut written = 0;
        for c in text.chars() {
            let escaped = needs_escape(c);
            let len = match c {
                _ if !escaped => c.len_utf8(),
                '\n' | '\r' | '\t' => 2,
                // `\u{` + hex digits + `}`
                _ => 4 + (u32::from(c).max(1).ilog2() / 4 + 1) as usize,
            };
            if written + len > limit {
                return f.write_str("…");
            }
            written += len;
            match c {
                _ if !escaped => f.write_char(c)?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                _ => write!(f, "\\u{{{:x}}}", u32::from(c))?,
            }
        }
        Ok(())
    }
}

/// The start of `body` as text: at most [`ApiError::EXCERPT_LIMIT`](crate::ApiError::EXCERPT_LIMIT) bytes, cut on a char boundary, with
/// `…` appended when cut.
pub fn excerpt(body: &[u8]) -> String {
    let cut = &body[..body.len().min(EXCERPT_LIMIT)];
    let mut text = match std::str::from_utf8(cut) {
        Ok(s) => s.to_owned(),
        // The limit fell inside a multi-byte character: keep the whole characters before it.
        Err(e) if e.error_len().is_none() => {
            String::from_utf8_lossy(&cut[..e.valid_up_to()]).into_owned()
        }
        Err(_) => String::from_utf8_lossy(cut).into_owned(),
    };
    if body.len() > EXCERPT_LIMIT {
        text.push('…');
    }
    text
}
