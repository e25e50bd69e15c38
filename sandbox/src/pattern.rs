//! A text field's `pattern` in the sandbox: checking what a client sends against it, and making
//! values that match it (the ids the store gives, the credentials `--spec` makes), so that what
//! the sandbox answers is what the spec allows (Twilio's message SIDs: `^SM[0-9a-fA-F]{32}$`).
//!
//! Patterns are compiled by `tidings_spec::pattern::compile`, the engine the checker refused
//! unusable patterns with, and kept in a cache of at most [`MAX_CACHED_PATTERNS`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use tidings_spec::pattern::Regex;

/// Most compiled patterns kept; past it, a pattern is compiled for each use.
pub(crate) const MAX_CACHED_PATTERNS: usize = 1024;

/// Longest text [`example`] makes.
const MAX_EXAMPLE_CHARS: usize = 4096;
/// Most characters added to a made text so that it holds its whole number (20 digits hold
/// any `u64`; a pattern of one-character choices needs at most 64).
const MAX_GROWTH: usize = 64;

fn compiled(pattern: &str) -> Option<Arc<Regex>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Option<Arc<Regex>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(hit) = cache
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(pattern)
    {
        return hit.clone();
    }
    let made = tidings_spec::pattern::compile(pattern).ok().map(Arc::new);
    let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
    if cache.len() < MAX_CACHED_PATTERNS {
        cache.insert(pattern.to_owned(), made.clone());
    }
    made
}

/// Whether `text` matches `pattern` somewhere (JSON Schema's meaning). A pattern that does not
/// compile checks nothing: the checker refuses those, so only a hand-built table can hold one.
pub(crate) fn matches(pattern: &str, text: &str) -> bool {
    compiled(pattern).is_none_or(|re| re.is_match(text))
}

/// One place of a pattern: a choice of characters, or a group of alternatives (the first is
/// made), repeated `min` times at least and `max` at most.
#[derive(Debug)]
enum Atom {
    Chars(Vec<char>),
    Group(Vec<Piece>),
}

#[derive(Debug)]
struct Piece {
    atom: Atom,
    min: usize,
    max: usize,
}

/// Letters and digits: what `.`, `\w` and a negated class choose from.
fn word_chars() -> Vec<char> {
    ('0'..='9').chain('A'..='Z').chain('a'..='z').collect()
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
}

impl Parser<'_> {
    /// A sequence up to `)` or the end; of alternatives (`0|[1-9][0-9]*`), the first unless
    /// it makes one text only and a later one makes more (ids must differ).
    fn sequence(&mut self, depth: usize) -> Option<Vec<Piece>> {
        if depth > 16 {
            return None;
        }
        let mut pieces = Vec::new();
        while let Some(&c) = self.chars.peek() {
            let atom = match c {
                ')' => break,
                '|' => {
                    self.chars.next();
                    let other = self.sequence(depth + 1)?;
                    if !varies(&pieces) && varies(&other) {
                        pieces = other;
                    }
                    break;
                }
                '^' | '$' => {
                    self.chars.next();
                    continue;
                }
                '(' => {
                    self.chars.next();
                    if self.chars.peek() == Some(&'?') {
                        // Only a non-capturing or named group: `(?:`, `(?P<n>`, `(?<n>`.
                        self.chars.next();
                        match self.chars.next()? {
                            ':' => {}
                            'P' | '<' => {
                                if !self.chars.by_ref().any(|c| c == '>') {
                                    return None;
                                }
                            }
                            _ => return None,
                        }
                    }
                    let inner = self.sequence(depth + 1)?;
                    (self.chars.next()? == ')').then_some(())?;
                    Atom::Group(inner)
                }
                '[' => {
                    self.chars.next();
                    Atom::Chars(self.class()?)
                }
                '\\' => {
                    self.chars.next();
                    Atom::Chars(self.escape()?)
                }
                '.' => {
                    self.chars.next();
                    Atom::Chars(word_chars())
                }
                '*' | '+' | '?' | '{' | ']' | '}' => return None,
                c => {
                    self.chars.next();
                    Atom::Chars(vec![c])
                }
            };
            let (min, max) = self.quantifier()?;
            pieces.push(Piece { atom, min, max });
        }
        Some(pieces)
    }

    fn escape(&mut self) -> Option<Vec<char>> {
        Some(match self.chars.next()? {
            'd' => ('0'..='9').collect(),
            'w' => {
                let mut w = word_chars();
                w.push('_');
                w
            }
            's' => vec![' '],
            c if c.is_ascii_alphanumeric() => return None,
            c => vec![c],
        })
    }

    /// A class after its `[`: ranges, single characters and `\d`/`\w`; a negated class
    /// chooses among letters and digits it does not hold.
    fn class(&mut self) -> Option<Vec<char>> {
        let negated = self.chars.peek() == Some(&'^');
        if negated {
            self.chars.next();
        }
        let mut set = Vec::new();
        loop {
            let c = self.chars.next()?;
            let c = match c {
                ']' if !set.is_empty() || negated => break,
                '\\' => {
                    set.extend(self.escape()?);
                    continue;
                }
                '[' => return None,
                c => c,
            };
            if self.chars.peek() == Some(&'-') {
                self.chars.next();
                match self.chars.next()? {
                    ']' => {
                        set.extend([c, '-']);
                        break;
                    }
                    '\\' => return None,
                    hi if hi >= c => set.extend(c..=hi),
                    _ => return None,
                }
            } else {
                set.push(c);
            }
        }
        if negated {
            let held = set;
            set = word_chars()
                .into_iter()
                .filter(|c| !held.contains(c))
                .collect();
        }
        // A letter in both cases (`[0-9a-fA-F]`, Twilio's SIDs) is made in lower case only:
        // values that differ only by case (`VEa…`, `VEA…`) are one to a case-blind store, and
        // the provider's own are lower case.
        let lower: Vec<char> = set
            .iter()
            .copied()
            .filter(char::is_ascii_lowercase)
            .collect();
        set.retain(|c| !(c.is_ascii_uppercase() && lower.contains(&c.to_ascii_lowercase())));
        set.dedup();
        (!set.is_empty()).then_some(set)
    }

    fn quantifier(&mut self) -> Option<(usize, usize)> {
        let bounds = match self.chars.peek() {
            Some('?') => (0, 1),
            Some('*') => (0, usize::MAX),
            Some('+') => (1, usize::MAX),
            Some('{') => {
                self.chars.next();
                let mut text = String::new();
                for c in self.chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    text.push(c);
                }
                let (lo, hi) = match text.split_once(',') {
                    None => (text.as_str(), Some(text.as_str())),
                    Some((lo, "")) => (lo, None),
                    Some((lo, hi)) => (lo, Some(hi)),
                };
                let lo: usize = lo.trim().parse().ok()?;
                let hi = match hi {
                    Some(hi) => hi.trim().parse().ok()?,
                    None => usize::MAX,
                };
                if self.chars.peek() == Some(&'?') {
                    self.chars.next();
                }
                return (lo <= hi && lo <= MAX_EXAMPLE_CHARS).then_some((lo, hi));
            }
            _ => return Some((1, 1)),
        };
        self.chars.next();
        if self.chars.peek() == Some(&'?') {
            self.chars.next();
        }
        Some(bounds)
    }
}

/// Whether a sequence makes more than one text: a choice of characters, or a repetition.
fn varies(pieces: &[Piece]) -> bool {
    pieces.iter().any(|p| {
        p.max > p.min
            || match &p.atom {
                Atom::Chars(set) => set.len() > 1,
                Atom::Group(inner) => varies(inner),
            }
    })
}

/// Fewest characters a sequence makes, and whether it can make more.
fn shortest(pieces: &[Piece]) -> usize {
    pieces
        .iter()
        .map(|p| {
            let one = match &p.atom {
                Atom::Chars(_) => 1,
                Atom::Group(inner) => shortest(inner),
            };
            one.saturating_mul(p.min)
        })
        .fold(0, usize::saturating_add)
}

/// Writes the sequence into `out`, taking each choice of characters from `n` (last place
/// first, as digits of a number in mixed bases), each piece repeated its minimum times and the
/// last open-ended one of single characters (a group's own included) more, up to `extra`
/// characters.
fn write(pieces: &[Piece], n: &mut u64, extra: &mut usize, out: &mut Vec<char>) {
    let mut parts: Vec<Vec<char>> = Vec::with_capacity(pieces.len());
    for piece in pieces.iter().rev() {
        let mut part = Vec::new();
        let grow = match &piece.atom {
            Atom::Chars(_) => (*extra).min(piece.max - piece.min),
            Atom::Group(_) => 0,
        };
        *extra -= grow;
        for _ in 0..piece.min + grow {
            match &piece.atom {
                Atom::Chars(set) => {
                    let base = set.len() as u64;
                    part.push(set[(*n % base) as usize]);
                    *n /= base;
                }
                Atom::Group(inner) => {
                    // What is left to add may go inside (`(0|[1-9][0-9]*)` grows its digits).
                    let mut inner_out = Vec::new();
                    write(inner, n, extra, &mut inner_out);
                    part.extend(inner_out);
                }
            }
        }
        parts.push(part);
    }
    out.extend(parts.into_iter().rev().flatten());
}

/// A text that matches `pattern` and has between `min_len` and `max_len` characters, made from
/// `n`: different numbers give different texts as far as the pattern's choices allow (32 hex
/// digits hold any `u64`). `None` when the pattern uses what this does not make (look-around,
/// back-references, `\b`), or the text cannot fit: the caller keeps its own form then.
pub(crate) fn example(
    pattern: &str,
    n: u64,
    min_len: Option<u64>,
    max_len: Option<u64>,
) -> Option<String> {
    let mut parser = Parser {
        chars: pattern.chars().peekable(),
    };
    let pieces = parser.sequence(0)?;
    if parser.chars.next().is_some() {
        return None;
    }
    let base = shortest(&pieces);
    let want = min_len
        .and_then(|m| usize::try_from(m).ok())
        .unwrap_or(0)
        .min(MAX_EXAMPLE_CHARS);
    if base > MAX_EXAMPLE_CHARS {
        return None;
    }
    // Longer until the whole of `n` is written (`[1-9][0-9]*` holds 9 numbers in one
    // character): different numbers then give different texts.
    let longest = max_len
        .and_then(|m| usize::try_from(m).ok())
        .unwrap_or(MAX_EXAMPLE_CHARS)
        .min(MAX_EXAMPLE_CHARS);
    let mut grow = want.saturating_sub(base);
    let text: String = loop {
        let (mut extra, mut rest, mut out) = (grow, n, Vec::new());
        write(&pieces, &mut rest, &mut extra, &mut out);
        // `extra` left over: the pattern has no room to grow, so longer tries change nothing.
        if rest == 0 || extra > 0 || base + grow >= longest || grow >= MAX_GROWTH {
            break out.into_iter().collect();
        }
        grow += 1;
    };
    let chars = text.chars().count() as u64;
    let fits = min_len.is_none_or(|m| chars >= m) && max_len.is_none_or(|m| chars <= m);
    (fits && matches(pattern, &text)).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_values_match_their_pattern_and_differ_by_number() {
        let sid = "^SM[0-9a-fA-F]{32}$";
        let one = example(sid, 1, Some(34), Some(34)).unwrap();
        let two = example(sid, 2, Some(34), Some(34)).unwrap();
        assert!(one.starts_with("SM") && one.len() == 34, "{one}");
        assert!(matches(sid, &one) && matches(sid, &two));
        assert_ne!(one, two);
        for (pattern, n) in [
            ("^[A-Z]{2}\\d{4}$", 7),
            ("^(?:AC|SK)[a-f0-9]{8}$", 9),
            ("^[^@\\s]+@example\\.com$", 3),
            ("^key-[a-z0-9_-]{6,}$", 12),
            ("^+?[1-9]\\d{1,14}$", 0),
            ("\\w+", 5),
        ] {
            match example(pattern, n, None, None) {
                Some(text) => assert!(matches(pattern, &text), "{pattern}: {text}"),
                // `+?` after `^` is a quantifier on nothing: not made, never wrong.
                None => assert_eq!(pattern, "^+?[1-9]\\d{1,14}$"),
            }
        }
    }

    #[test]
    fn a_letter_allowed_in_both_cases_is_made_in_lower_case() {
        let made: Vec<String> = (0..40)
            .map(|n| example("^VE[0-9a-fA-F]{32}$", n, None, None).unwrap())
            .collect();
        assert!(
            made.iter()
                .all(|m| !m[2..].chars().any(|c| c.is_ascii_uppercase())),
            "{made:?}"
        );
        let folded: std::collections::HashSet<String> =
            made.iter().map(|m| m.to_ascii_lowercase()).collect();
        assert_eq!(folded.len(), made.len(), "{made:?}");
        // One case only: kept as written.
        let upper = example("^[A-F]{2}$", 1, None, None).unwrap();
        assert!(upper.chars().all(|c| c.is_ascii_uppercase()), "{upper}");
    }

    #[test]
    fn made_ids_of_a_narrow_pattern_differ_by_number_as_they_grow() {
        // Discord's snowflakes: the first alternative makes one text only.
        let snowflake = "^(0|[1-9][0-9]*)$";
        let made: Vec<String> = (1..200)
            .map(|n| example(snowflake, n, None, None).unwrap())
            .collect();
        for text in &made {
            assert!(matches(snowflake, text), "{text}");
        }
        let distinct: std::collections::BTreeSet<&String> = made.iter().collect();
        assert_eq!(distinct.len(), made.len(), "{made:?}");
        // A fixed length holds what it holds; it does not grow past it.
        let two = example("^[A-Z]{2}$", 10_000, None, None).unwrap();
        assert_eq!(two.len(), 2);
    }

    #[test]
    fn a_made_value_grows_to_the_shortest_length_the_field_allows() {
        let text = example("^ref_[a-z0-9]+$", 42, Some(12), Some(20)).unwrap();
        assert_eq!(text.len(), 12, "{text}");
        assert!(matches("^ref_[a-z0-9]+$", &text));
        // Lengths the pattern cannot meet make nothing.
        assert_eq!(example("^[0-9]{4}$", 1, Some(10), None), None);
    }

    #[test]
    fn patterns_beyond_what_is_made_make_nothing() {
        for pattern in [
            "\\bword\\b",
            "(a)\\1",
            "a{2,1}",
            "[z-a]",
            "(?=x)y",
            "x{99999}",
        ] {
            assert_eq!(example(pattern, 1, None, None), None, "{pattern}");
        }
    }

    #[test]
    fn checking_uses_the_pattern_unanchored_and_caches_within_its_bound() {
        assert!(matches("[0-9]{3}", "ab123"));
        assert!(!matches("^[0-9]{3}$", "ab123"));
        for i in 0..MAX_CACHED_PATTERNS + 10 {
            assert!(matches(&format!("^{i}$"), &i.to_string()));
        }
        assert!(!matches("^5$", "6"));
    }
}
