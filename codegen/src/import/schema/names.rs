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

/// The pieces of a component named by its package path (Go's
/// `github.com-mailgun-blackbook-model-Bounce`, Java's `com.example.model.Bounce`): three or
/// more, all but the last in lower case, the last a word with a capital in it.
fn package_pieces(raw: &str) -> Option<Vec<&str>> {
    let pieces: Vec<&str> = raw
        .split(['-', '.', '/'])
        .filter(|p| !p.is_empty())
        .collect();
    let (last, path) = pieces.split_last()?;
    (pieces.len() >= 3
        && last.starts_with(|c: char| c.is_ascii_alphabetic())
        && last.chars().any(|c| c.is_ascii_uppercase())
        && path
            .iter()
            .all(|p| !p.chars().any(|c| c.is_ascii_uppercase())))
    .then_some(pieces)
}

/// Shorter names for components named by their package path: the fewest last pieces that no
/// other such component ends with (`…-model-Bounce` → `Bounce`; two `PagingResponse`s in
/// different packages → `PagingPagingResponse` and `ModelPagingResponse`). Other names are
/// not in the map.
pub(crate) fn package_short_names<'n>(
    names: impl IntoIterator<Item = &'n str>,
) -> std::collections::HashMap<String, String> {
    let all: Vec<(&str, Vec<&str>)> = names
        .into_iter()
        .filter_map(|n| package_pieces(n).map(|p| (n, p)))
        .collect();
    let mut out = std::collections::HashMap::new();
    for (raw, pieces) in &all {
        let short = (1..pieces.len()).find_map(|k| {
            let tail = &pieces[pieces.len() - k..];
            let shared = all
                .iter()
                .filter(|(other, p)| other != raw && p.len() >= k && &p[p.len() - k..] == tail)
                .count();
            (shared == 0).then(|| tail.join("_"))
        });
        if let Some(short) = short {
            out.insert((*raw).to_owned(), short);
        }
    }
    out
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
        let hint = self.short_names.get(raw).cloned();
        let n = self.fresh_name(hint.as_deref().unwrap_or(raw));
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
    fn package_paths_leave_type_names_down_to_what_tells_them_apart() {
        let names = [
            "github.com-mailgun-blackbook-model-Bounce",
            "github.com-mailgun-scaffold-httpapi-paging-PagingResponse",
            "github.com-mailgun-logs-api-pkg-api-model-PagingResponse",
            "com.example.model.Contact",
            "github.com-mailgun-blackbook-api-getBouncesPaginationResponse",
            "api.v2010.account.message",
            "SendEmailRequest",
        ];
        let short = super::package_short_names(names);
        assert_eq!(short[names[0]], "Bounce");
        assert_eq!(short[names[1]], "paging_PagingResponse");
        assert_eq!(short[names[2]], "model_PagingResponse");
        assert_eq!(short[names[3]], "Contact");
        assert_eq!(short[names[4]], "getBouncesPaginationResponse");
        assert!(
            !short.contains_key(names[5]),
            "the last piece is not a type's name"
        );
        assert!(!short.contains_key(names[6]));
        assert_eq!(type_name(&short[names[1]]), "PagingPagingResponse");
    }

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
