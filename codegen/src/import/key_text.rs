//! What a key scheme's text says about the values it sends: a user name an HTTP Basic
//! scheme's description fixes, the values a header's description lists, and a key's prefix
//! read from a description or from the document's examples of the header.

use serde_json::Value;

/// The user name an HTTP Basic scheme's description fixes, written before a placeholder for
/// the key (Mailgun's `api:YOUR_API_KEY`, also `api:<key>`), and the credential name the
/// placeholder gives the key (`YOUR_API_KEY` → `api_key`).
pub(super) fn fixed_basic_user(description: &str) -> Option<(String, Option<String>)> {
    description.split_whitespace().find_map(|word| {
        let word =
            word.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ',' | '.' | '(' | ')'));
        let (user, key) = word.split_once(':')?;
        let user_ok = !user.is_empty()
            && user.len() <= 32
            && user
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        let caps = key.len() > 1
            && key
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        let bracketed = (key.starts_with('<') && key.ends_with('>'))
            || (key.starts_with('{') && key.ends_with('}'));
        if !user_ok || key.starts_with("//") || !(caps || bracketed) {
            return None;
        }
        let name = caps.then(|| {
            let lower = key.to_ascii_lowercase();
            lower.strip_prefix("your_").unwrap_or(&lower).to_owned()
        });
        Some((user.to_owned(), name.filter(|n| crate::names::is_snake(n))))
    })
}

/// The values a key scheme's description says it takes, in the order written: the words in
/// backquotes after "possible values" (or "allowed values", "valid values") in the same
/// sentence (Stream's "Possible values: `jwt` or `anonymous`."). None when it lists none, or
/// lists something that is not a short word: a key's description saying where to find the key
/// is not a list of values.
pub(super) fn listed_values(description: &str) -> Option<Vec<String>> {
    let text = description.split_whitespace().collect::<Vec<_>>().join(" ");
    let lower = text.to_ascii_lowercase();
    let start = ["possible values", "allowed values", "valid values"]
        .iter()
        .find_map(|lead| lower.find(lead).map(|i| i + lead.len()))?;
    let rest = &text[start..];
    let sentence = rest.split_once(". ").map_or(rest, |(s, _)| s);
    let values: Vec<String> = sentence
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    let word = |v: &String| {
        !v.is_empty()
            && v.len() <= 32
            && v.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    };
    (!values.is_empty() && values.iter().all(word)).then_some(values)
}

/// The `example` and `examples` values the document gives for a header parameter named
/// `header` (in `components.parameters` and on operations), as text.
pub(super) fn header_examples(doc: &Value, header: &str) -> Vec<String> {
    let mut params: Vec<&Value> = doc
        .pointer("/components/parameters")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|m| m.values())
        .collect();
    for item in super::requirements::path_items(doc) {
        params.extend(
            item.get("parameters")
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        );
        for op in item.values() {
            params.extend(
                op.get("parameters")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten(),
            );
        }
    }
    let mut out = Vec::new();
    for p in params {
        let is_header = p.get("in").and_then(Value::as_str) == Some("header")
            && p.get("name")
                .and_then(Value::as_str)
                .is_some_and(|n| n.eq_ignore_ascii_case(header));
        if !is_header {
            continue;
        }
        let mut values: Vec<&Value> = Vec::new();
        values.extend(p.get("example"));
        values.extend(p.pointer("/schema/example"));
        values.extend(
            p.get("examples")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|m| m.values())
                .filter_map(|e| e.get("value")),
        );
        out.extend(
            values
                .into_iter()
                .filter_map(Value::as_str)
                .map(str::to_owned),
        );
    }
    out
}

/// The prefix of a header value written as `<Word> <key>`: `App 3f9a…`, `App {apiKey}`,
/// `App <key>`, `Token [token]`, `App $KEY`; `None` for a bare key or a sentence.
pub(super) fn prefix_of_value(value: &str) -> Option<String> {
    let (word, key) = value.trim().split_once(' ')?;
    let key = key.trim();
    let placeholder = [('<', '>'), ('{', '}'), ('[', ']')]
        .iter()
        .any(|(open, close)| key.starts_with(*open) && key.ends_with(*close) && key.len() > 2)
        || (key.starts_with('$') && key.len() > 1 && !key.contains(' '));
    let literal = key.len() >= 12
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._~+/=".contains(c));
    let word_ok = !word.is_empty()
        && word.len() <= 32
        && word.starts_with(|c: char| c.is_ascii_alphabetic())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    (word_ok && (placeholder || literal)).then(|| format!("{word} "))
}

/// `Bearer ` for an API key in `Authorization` of a scheme named for bearer tokens
/// (WhatsApp's and Ably's `bearerAuth`: Swagger 2.0 has no bearer scheme, so theirs is an API
/// key in `Authorization`, which their clients send as `Bearer <token>`).
pub(super) fn bearer_by_name(scheme: &str, header: &str) -> Option<String> {
    (header.eq_ignore_ascii_case("authorization") && scheme.to_ascii_lowercase().contains("bearer"))
        .then(|| "Bearer ".to_owned())
}

/// A key prefix the scheme's description shows: a quoted or backquoted header value such as
/// "`App {apiKey}`" or "`Authorization: App <key>`" (any word before a placeholder or a key),
/// else one of the prefixes providers commonly state in quotes.
pub(super) fn prefix_in_text(description: &str, header: &str) -> Option<String> {
    for quote in ['`', '"', '\'', '\u{201c}'] {
        let close = if quote == '\u{201c}' {
            '\u{201d}'
        } else {
            quote
        };
        let mut rest = description;
        while let Some(start) = rest.find(quote) {
            let after = &rest[start + quote.len_utf8()..];
            let Some(end) = after.find(close) else { break };
            let quoted = after[..end].trim();
            // `Authorization: App <key>` names the header first.
            let value = match quoted.split_once(':') {
                Some((name, value)) if name.trim().eq_ignore_ascii_case(header) => value.trim(),
                _ => quoted,
            };
            if let Some(prefix) = prefix_of_value(value) {
                return Some(prefix);
            }
            rest = &after[end + close.len_utf8()..];
        }
    }
    // `Authorization: App <key>` written without quotes.
    let lower = description.to_ascii_lowercase();
    if let Some(at) = lower.find(&format!("{}:", header.to_ascii_lowercase())) {
        let value = description[at + header.len() + 1..].trim_start();
        let two: Vec<&str> = value.split_whitespace().take(2).collect();
        if two.len() == 2
            && let Some(prefix) = prefix_of_value(&two.join(" "))
        {
            return Some(prefix);
        }
    }
    known_prefix(Some(description)).map(str::to_owned)
}

/// A key prefix (`Bearer `, `Token `...) the scheme's description states in backquotes or
/// quotes, such as "send `Bearer <key>`".
fn known_prefix(description: Option<&str>) -> Option<&'static str> {
    let d = description?;
    [
        "Bearer ",
        "Token ",
        "Basic ",
        "App ",
        "AccessKey ",
        "Key ",
        "Klaviyo-API-Key ",
    ]
    .into_iter()
    .find(|p| {
        [format!("`{p}"), format!("\"{p}"), format!("'{p}")]
            .iter()
            .any(|q| d.contains(q.as_str()))
    })
}

/// Whether a Basic user name's credential name says it names an account, not a key
/// (`account_sid`, `account_id`): `AccountSid` is in Twilio's every path, no secret. A generic
/// `username` (some APIs take their secret key there) stays one.
pub(super) fn names_an_account(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("account") && (lower.ends_with("sid") || lower.ends_with("_id"))
}
