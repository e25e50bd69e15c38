//! Name conversions, done once for the whole generator: wire names to Rust identifiers.

/// Rust keywords that need a raw identifier (`r#type`) or cannot be one at all.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super"];

/// Splits a wire name into lower-case words at `_`, `-`, `.`, spaces and case changes.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let boundary = (p.is_lowercase() || p.is_ascii_digit()) && c.is_uppercase();
            if boundary && !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
        }
        current.extend(c.to_lowercase());
        prev = Some(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `email.delivery_delayed` → `email_delivery_delayed`.
pub fn snake(name: &str) -> String {
    words(name).join("_")
}

/// `email.delivery_delayed` → `EmailDeliveryDelayed`.
pub fn pascal(name: &str) -> String {
    words(name)
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect()
}

/// `send_email` → `SEND_EMAIL`.
pub fn shouty(name: &str) -> String {
    snake(name).to_uppercase()
}

/// True when `name` is a plain snake_case identifier (`send_email`).
pub fn is_snake(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !name.ends_with('_')
        && !name.contains("__")
}

/// True when `name` is a PascalCase identifier (`SendEmailRequest`).
pub fn is_pascal(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

/// True for a Rust keyword.
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

/// True when the word can be used as an identifier at all (raw if need be).
pub fn can_be_ident(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !NOT_RAW.contains(&name)
        && name != "_"
}

/// `name` with letters outside ASCII spelled in ASCII, so a Rust name can be derived from it:
/// Latin letters with marks lose them (`é` → `e`), `ä ö ü ß æ ø å` are spelled out (`ae`, `oe`,
/// `ue`, `ss`, `ae`, `o`, `a`), and any other character outside ASCII becomes `u<hex>`
/// (`ü` in `größe` → `groesse`; `名` → `u540d`). ASCII passes unchanged.
pub fn ascii_fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        let lower = c.to_lowercase().next().unwrap_or(c);
        let upper = c != lower;
        let folded: &str = match lower {
            'à' | 'á' | 'â' | 'ã' | 'ā' | 'ă' | 'ą' => "a",
            'å' => "a",
            'ä' | 'æ' => "ae",
            'ç' | 'ć' | 'č' => "c",
            'ď' | 'đ' | 'ð' => "d",
            'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
            'ğ' => "g",
            'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
            'ł' | 'ľ' | 'ĺ' => "l",
            'ñ' | 'ń' | 'ň' => "n",
            'ò' | 'ó' | 'ô' | 'õ' | 'ō' | 'ő' | 'ø' => "o",
            'ö' | 'œ' => "oe",
            'ř' | 'ŕ' => "r",
            'ś' | 'š' | 'ş' | 'ș' => "s",
            'ß' => "ss",
            'ť' | 'ţ' | 'ț' => "t",
            'þ' => "th",
            'ù' | 'ú' | 'û' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
            'ü' => "ue",
            'ý' | 'ÿ' => "y",
            'ź' | 'ż' | 'ž' => "z",
            _ => {
                // A separate word, so case conversion keeps it apart.
                out.push_str(&format!(" u{:04x} ", u32::from(c)));
                continue;
            }
        };
        if upper {
            let mut chars = folded.chars();
            if let Some(first) = chars.next() {
                out.push(first.to_ascii_uppercase());
                out.push_str(chars.as_str());
            }
        } else {
            out.push_str(folded);
        }
    }
    out
}

/// A Rust identifier for a value-level name, raw when it is a keyword.
pub fn ident(name: &str) -> proc_macro2::Ident {
    if is_keyword(name) && !NOT_RAW.contains(&name) {
        proc_macro2::Ident::new_raw(name, proc_macro2::Span::call_site())
    } else {
        proc_macro2::Ident::new(name, proc_macro2::Span::call_site())
    }
}

/// Why `name` cannot be an identifier of generated code (raw if need be), if it cannot: the
/// one test the checker applies to every final Rust name.
pub fn ident_problem(name: &str) -> Option<&'static str> {
    let Some(first) = name.chars().next() else {
        return Some("the name is empty");
    };
    if name == "_" {
        return Some("`_` is not a name");
    }
    if NOT_RAW.contains(&name) {
        return Some("it is a Rust keyword that cannot be a raw identifier either");
    }
    if first.is_ascii_digit() {
        return Some("it starts with a digit");
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some("only ASCII letters, digits and `_` make a Rust name here");
    }
    None
}

/// The static of an operation in `<service>::operations` (`SEND_EMAIL`).
pub fn op_static(op: &str) -> String {
    shouty(op)
}

/// The client method that streams a paginated operation's items (`list_emails_stream`).
pub fn stream_method(op: &str) -> String {
    format!("{op}_stream")
}

/// The generated struct of an operation's query parameters (`ListEmailsQuery`).
pub fn query_type(op: &str) -> String {
    format!("{}Query", pascal(op))
}

/// The generated client struct of a service (`EmailClient`).
pub fn client_type(service: &str) -> String {
    format!("{}Client", pascal(service))
}

/// Methods every generated client has besides one per operation.
pub const CLIENT_METHODS: &[&str] = &[
    "builder",
    "from_env",
    "with_options",
    "runtime",
    "verify_webhook",
];

/// Methods every generated server trait has besides one per operation.
pub const SERVER_METHODS: &[&str] = &["gateway"];

/// Names generated methods and handlers give their own arguments and locals, which a path
/// parameter's Rust name must not take.
pub const RESERVED_ARGS: &[&str] = &["ctx", "body", "query", "incoming", "server"];

/// Whether a path placeholder named `name` is renamed `{name}_param` for Rust (a keyword such
/// as `type`, or one of [`RESERVED_ARGS`]), as `import openapi` does.
pub fn renamed_for_rust(name: &str) -> bool {
    RESERVED_ARGS.contains(&name) || is_keyword(name)
}

/// The closest candidate to `name`, when one is close enough to be a useful hint.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_lowercase()), c))
        .filter(|(score, _)| *score > 0.82)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// The variant of an error code in the generated `ErrorCode` enum: `not_found` → `NotFound`,
/// `20404` → `Code20404` (a variant cannot start with a digit).
pub fn error_code_variant(code: &str) -> String {
    let name: String = pascal(code)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    match name.chars().next() {
        // `Self` is the one PascalCase keyword.
        Some(c) if c.is_ascii_alphabetic() && name != "Self" => name,
        _ => format!("Code{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_wire_names() {
        assert_eq!(snake("email.delivery_delayed"), "email_delivery_delayed");
        assert_eq!(pascal("email.delivery_delayed"), "EmailDeliveryDelayed");
        assert_eq!(pascal("private-encrypted"), "PrivateEncrypted");
        assert_eq!(snake("sendEmail"), "send_email");
        assert_eq!(shouty("send_email"), "SEND_EMAIL");
        assert_eq!(pascal("e164"), "E164");
    }

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(
            did_you_mean("Contcat", ["Contact", "Template"]),
            Some("Contact")
        );
        assert_eq!(did_you_mean("Zebra", ["Contact", "Template"]), None);
    }

    #[test]
    fn checks_identifier_shapes() {
        assert!(is_snake("send_email"));
        assert!(!is_snake("SendEmail"));
        assert!(!is_snake("send__email"));
        assert!(is_pascal("SendEmail"));
        assert!(!is_pascal("send_email"));
        assert_eq!(ident("type").to_string(), "r#type");
    }

    #[test]
    fn error_code_variants_are_pascal_and_never_start_with_a_digit() {
        assert_eq!(error_code_variant("not_found"), "NotFound");
        assert_eq!(error_code_variant("20404"), "Code20404");
        assert_eq!(
            error_code_variant("rate-limit.exceeded"),
            "RateLimitExceeded"
        );
        assert_eq!(error_code_variant(""), "Code");
        assert_eq!(error_code_variant("self"), "CodeSelf");
    }

    #[test]
    fn names_identifier_problems() {
        assert_eq!(ident_problem("date_sent"), None);
        assert_eq!(
            ident_problem("r#type"),
            Some("only ASCII letters, digits and `_` make a Rust name here")
        );
        assert!(ident_problem("self").is_some());
        assert!(ident_problem("Self").is_some());
        assert!(ident_problem("1st").is_some());
        assert!(ident_problem("größe").is_some());
        assert_eq!(ident_problem("type"), None, "a raw identifier does");
        assert_eq!(query_type("list_emails"), "ListEmailsQuery");
        assert_eq!(op_static("list_emails"), "LIST_EMAILS");
    }
}
