//! Type names: readable names from component names and hints (hash pieces dropped), each
//! taken once.

use super::super::Converter;
use crate::names::{is_pascal, pascal};

/// Whether a piece of a name is a hash (16 or more hex digits, some of them digits): it
/// says nothing to a reader, and `fresh_name` disambiguates without it.
fn is_hash(piece: &str) -> bool {
    piece.len() >= 16
        && piece.chars().all(|c| c.is_ascii_hexdigit())
        && piece.chars().any(|c| c.is_ascii_digit())
}

/// The name without its hash pieces (`20085a…f3-SmsRequestEnvelope` → `SmsRequestEnvelope`),
/// when something readable is left; a hash glued to the front of a word counts too.
fn without_hashes(raw: &str) -> String {
    let pieces: Vec<&str> = raw
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let kept: Vec<String> = pieces
        .iter()
        .filter(|p| !is_hash(p))
        .map(|p| {
            // A hex run of 16+ in front of a word (`20085af3…SmsRequest`); when the word
            // starts with a hex letter (`…e5Envelope`), it starts at the run's last capital.
            let run = p.chars().take_while(char::is_ascii_hexdigit).count();
            let mut cut = run;
            if p[run..].starts_with(|c: char| c.is_ascii_lowercase())
                && let Some(capital) = p[..run].rfind(|c: char| c.is_ascii_uppercase())
            {
                cut = capital;
            }
            if cut < p.len() && is_hash(&p[..cut]) {
                p[cut..].to_owned()
            } else {
                (*p).to_owned()
            }
        })
        .collect();
    let unchanged = kept.len() == pieces.len() && kept.iter().zip(&pieces).all(|(k, p)| k == p);
    if kept.is_empty() || unchanged {
        return raw.to_owned();
    }
    kept.join("_")
}

/// A PascalCase type name for any text; `T` in front when it would start with a digit.
pub(crate) fn type_name(raw: &str) -> String {
    let raw = &without_hashes(raw);
    if is_pascal(raw) {
        return raw.clone();
    }
    let p: String = pascal(raw)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    match p.chars().next() {
        None => "Type".into(),
        Some(c) if c.is_ascii_digit() => format!("T{p}"),
        Some(c) if c.is_ascii_lowercase() => {
            let mut s = c.to_ascii_uppercase().to_string();
            s.push_str(&p[1..]);
            s
        }
        _ => p,
    }
}

impl Converter<'_> {
    /// A free type name built from `hint`.
    pub(crate) fn fresh_name(&mut self, hint: &str) -> String {
        let base = type_name(hint);
        let mut name = base.clone();
        let mut n = 2;
        while self.used_names.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.used_names.insert(name.clone());
        name
    }

    /// The type name of a component, chosen once.
    pub(crate) fn component_name(&mut self, raw: &str) -> String {
        if let Some(n) = self.component_names.get(raw) {
            return n.clone();
        }
        let n = self.fresh_name(raw);
        self.component_names.insert(raw.to_owned(), n.clone());
        n
    }

    /// Name for an inline type: the hint itself when this is the component being built (the
    /// hint is then its reserved name), a fresh one otherwise.
    pub(super) fn inline_name(&mut self, hint: &str) -> String {
        if self.claim.as_deref() == Some(hint) {
            self.claim = None;
            return hint.to_owned();
        }
        self.fresh_name(hint)
    }
}

#[cfg(test)]
mod name_tests {
    use super::type_name;

    #[test]
    fn hash_pieces_leave_type_names() {
        let hash = "20085af3b1c2d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccdd";
        assert_eq!(
            type_name(&format!("{hash}-SmsRequestEnvelope")),
            "SmsRequestEnvelope"
        );
        assert_eq!(
            type_name(&format!("{hash}SmsRequestEnvelope")),
            "SmsRequestEnvelope"
        );
        assert_eq!(type_name(&format!("{hash}Envelope")), "Envelope");
        assert_eq!(type_name(&format!("sms_{hash}_request")), "SmsRequest");
        // Nothing readable left, or no hash: as before.
        assert_eq!(type_name(hash), format!("T{}", crate::names::pascal(hash)));
        assert_eq!(type_name("Deadbeef"), "Deadbeef");
        assert_eq!(type_name("v2_message"), "V2Message");
    }
}
