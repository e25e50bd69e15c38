//! A string's `pattern`: the regular expression a value must match, as JSON Schema's `pattern`
//! (unanchored; `^` and `$` anchor it). One compiler, so that the checker refuses exactly the
//! patterns the sandbox could not use.
//!
//! The engine is `regex-lite`: the syntax of OpenAPI documents' patterns (classes, repetition,
//! alternation, groups, `\d`, `\w`), without look-around or back-references. A compiled
//! pattern is bounded ([`PATTERN_SIZE_LIMIT`] bytes, [`PATTERN_NEST_LIMIT`] levels), so a
//! pattern in a spec cannot make the sandbox use unbounded memory.
//!
//! ```
//! let sid = tidings_spec::pattern::compile("^SM[0-9a-fA-F]{32}$").unwrap();
//! assert!(sid.is_match("SM0123456789abcdef0123456789ABCDEF"));
//! assert!(!sid.is_match("MM0123456789abcdef0123456789ABCDEF"));
//! // Look-ahead is not supported: the checker refuses it.
//! assert!(tidings_spec::pattern::compile("^(?=a)").is_err());
//! ```

pub use regex_lite::Regex;

/// Most bytes a compiled pattern may take.
pub const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// Deepest nesting of groups and repetitions in a pattern.
pub const PATTERN_NEST_LIMIT: u32 = 64;

/// Compiles `pattern` within the limits; the error says why it cannot be used.
pub fn compile(pattern: &str) -> Result<Regex, String> {
    regex_lite::RegexBuilder::new(pattern)
        .size_limit(PATTERN_SIZE_LIMIT)
        .nest_limit(PATTERN_NEST_LIMIT)
        .build()
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_matches_anywhere_unless_anchored() {
        let digits = compile("[0-9]{3}").unwrap();
        assert!(digits.is_match("ab123cd"));
        let anchored = compile("^[0-9]{3}$").unwrap();
        assert!(!anchored.is_match("ab123cd"));
        assert!(anchored.is_match("123"));
    }

    #[test]
    fn patterns_the_engine_cannot_use_are_refused_with_a_reason() {
        for bad in ["(?=a)b", "(a)\\1", "[a-", "a{2,1}"] {
            let err = compile(bad).unwrap_err();
            assert!(!err.is_empty(), "{bad}");
        }
    }

    #[test]
    fn a_pattern_past_the_size_limit_is_refused() {
        // Each `\w{1000}` compiles to thousands of states; nesting multiplies them.
        let huge = "(\\w{1000}){1000}";
        let err = compile(huge).unwrap_err();
        assert!(err.contains("limit") || err.contains("size"), "{err}");
    }
}
