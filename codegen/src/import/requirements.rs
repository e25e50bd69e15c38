//! The document's security requirements: which schemes guard which operations, alone or
//! together.

use serde_json::Value;

/// Every security requirement object of the document: its default and each operation's.
pub(super) fn requirements(doc: &Value) -> Vec<&Value> {
    security_lists(doc).into_iter().flatten().collect()
}

/// Every security list of the document: its own, then each operation's.
fn security_lists(doc: &Value) -> Vec<&Vec<Value>> {
    let mut lists: Vec<&Vec<Value>> = doc
        .get("security")
        .and_then(Value::as_array)
        .into_iter()
        .collect();
    for item in path_items(doc) {
        lists.extend(
            item.values()
                .filter_map(|op| op.get("security")?.as_array()),
        );
    }
    lists
}

/// The document's path items (each path's object of operations and shared parameters).
pub(crate) fn path_items(doc: &Value) -> impl Iterator<Item = &serde_json::Map<String, Value>> {
    doc.get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.values())
        .filter_map(Value::as_object)
}

/// Whether schemes `a` and `b` both guard operations but are never offered on the same one
/// (no security list, the document's or an operation's, names both).
pub(super) fn used_apart(doc: &Value, a: &str, b: &str) -> bool {
    let lists = security_lists(doc);
    let names = |list: &Vec<Value>, s: &str| list.iter().any(|r| r.get(s).is_some());
    lists.iter().any(|l| names(l, a))
        && lists.iter().any(|l| names(l, b))
        && !lists.iter().any(|l| names(l, a) && names(l, b))
}

/// Whether schemes `a` and `b` are required together somewhere (one requirement object names
/// both: Vonage's `api_key` and `api_secret` query parameters), so they send two secrets, not
/// one key two ways.
pub(super) fn required_together(doc: &Value, a: &str, b: &str) -> bool {
    requirements(doc)
        .iter()
        .filter_map(|r| r.as_object())
        .any(|r| r.contains_key(a) && r.contains_key(b))
}
