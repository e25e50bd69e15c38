//! What a field's or a collection's name says: its words, its plain form (how a path parameter
//! and a field are matched), the thing a collection holds, whether it names a time or a URL,
//! and whether a type declares it.

use super::{ServiceSchema, Ty};

/// `name` in lower case without `_` and `-`: how a path parameter and a field are matched
/// (`OwnerName` ↔ `owner_name`), and a flag's name read.
pub(crate) fn plain(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// What the items of a collection are, by its last segment in the singular, in lower case
/// without separators (`/v1/workflows` → `workflow`, `/categories` → `category`).
pub(super) fn collection_thing(collection: &str) -> Option<String> {
    let last = collection
        .rsplit('/')
        .find(|s| !s.is_empty() && !s.contains('{'))?;
    let one = singular(&plain(last.split('.').next().unwrap_or_default()));
    (!one.is_empty()).then_some(one)
}

/// An English plural in the singular (`categories` → `category`, `statuses` → `status`,
/// `addresses` → `address`, `people` → `person`, `users` → `user`); a word that is not plural
/// as it is.
pub(super) fn singular(word: &str) -> String {
    if word == "people" {
        return "person".to_owned();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for ending in ["sses", "shes", "ches", "xes", "zes", "uses"] {
        if word.ends_with(ending) {
            return word[..word.len() - 2].to_owned();
        }
    }
    match word.strip_suffix('s') {
        // `status`, `address`, `analysis` are one.
        Some(stem) if !stem.ends_with(['s', 'u', 'i']) => stem.to_owned(),
        _ => word.to_owned(),
    }
}

/// Whether a text field's name says it holds a time (`createdAt`, `modified_at`,
/// `date_created`, `sentDate`, `timestamp`): its made-up value is now, in RFC 3339.
pub(super) fn names_a_time(name: &str) -> bool {
    let words = words_of(name);
    words.last().is_some_and(|w| w == "at")
        || words
            .iter()
            .any(|w| matches!(w.as_str(), "date" | "time" | "timestamp" | "datetime"))
}

/// Whether a text field's name says it holds a URL (`href`, `url`, `callbackUrl`,
/// `status_callback_uri`, `more_info_url`): made up, it gets one, not its own name.
pub(super) fn names_a_url(name: &str) -> bool {
    words_of(name)
        .last()
        .is_some_and(|w| matches!(w.as_str(), "url" | "uri" | "href"))
}

/// A field name's words, lower case: split at `_`, `-`, a space (SendGrid's `updated_at `
/// ends with one) and a capital (`callbackURL`'s capitals stay one word).
pub(super) fn words_of(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let separator = |c: char| matches!(c, '_' | '-' | ' ');
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        // A capital starts a word unless it continues a run of them (an acronym), which
        // ends before the capital a lower-case letter follows (`SMSDate`: `sms`, `date`).
        let after_upper = i > 0 && chars[i - 1].is_ascii_uppercase();
        let before_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
        let starts = c.is_ascii_uppercase() && (!after_upper || before_lower);
        if (separator(c) || starts) && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if !separator(c) {
            word.push(c.to_ascii_lowercase());
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// The text of the field of a create's `body` named for the collection's thing and the id
/// field (`PhoneNumberSid` for the `sid` of `/PhoneNumbers`, `phone_number_id`): the id of the
/// thing the create adds.
pub(crate) fn sent_as_its_id(
    op: &super::ResourceOp,
    body: &serde_json::Map<String, serde_json::Value>,
) -> Option<serde_json::Value> {
    let thing = collection_thing(op.collection)?;
    let wanted = format!("{thing}{}", plain(op.id_field));
    body.iter()
        .find(|(k, v)| plain(k) == wanted && v.is_string())
        .map(|(_, v)| v.clone())
}

/// Whether the object type `ty` declares the field `name`.
pub(super) fn declared(schema: &ServiceSchema, ty: Option<&Ty>, name: &str) -> bool {
    ty.and_then(|ty| schema.object_fields(ty))
        .is_some_and(|fields| fields.iter().any(|f| f.name == name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_times_and_urls_acronyms_and_all() {
        assert_eq!(words_of("SMSDate"), ["sms", "date"]);
        assert_eq!(words_of("callbackURL"), ["callback", "url"]);
        assert_eq!(words_of("updated_at "), ["updated", "at"]);
        assert!(names_a_time("SMSDate") && names_a_time("createdAt"));
        assert!(names_a_url("href") && names_a_url("statusCallbackUrl"));
        assert!(names_a_url("more_info_uri") && names_a_url("callbackURL"));
        assert!(!names_a_url("url_count") && !names_a_url("hurl"));
    }

    #[test]
    fn names_that_hold_a_time() {
        for name in [
            "createdAt",
            "modified_at",
            "date_created",
            "sentDate",
            "timestamp",
            "DateSent",
            "updated_at ",
        ] {
            assert!(names_a_time(name), "{name}");
        }
        for name in [
            "format",
            "chat",
            "update",
            "candidate",
            "timezone",
            "status",
            "data",
        ] {
            assert!(!names_a_time(name), "{name}");
        }
    }
}
