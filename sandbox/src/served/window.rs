//! A list that does not page in a declared style but takes a size and the ids it starts after
//! or ends before (Discord's `GET /channels/{id}/messages?before=&after=&limit=`): the window
//! of its items those parameters ask for, so a client paging by ids ends.

use serde_json::Value;

use super::ops::ServedOp;
use crate::server::resources::{ResourceAction, ServiceSchema, Ty};

/// Query parameters that bound a list's size, most likely first.
const SIZE_PARAMS: &[&str] = &["limit", "per_page", "page_size", "count", "max_results"];

/// Keeps the items of an unpaged list answer that the query's `after`, `before` and size
/// parameters ask for, where the operation declares them: after (before) an id, the items
/// whose id field sorts after (before) it, numbers as numbers; of those, the `limit` closest
/// to the id. A list that takes `before` pages back from the newest (Discord's messages):
/// with no id, its newest `limit`, answered newest first, so a client paging by the last
/// id it was given reaches the oldest; other lists answer oldest first.
pub(super) fn window(op: &ServedOp, query: &str, answer: &mut Value) {
    let Value::Array(items) = answer else {
        return;
    };
    if op.resource.kind != ResourceAction::List || op.info.pagination.is_some() {
        return;
    }
    let declared = |names: &[&str], integer: bool| {
        op.info
            .query
            .iter()
            .find(|p| names.contains(&p.wire.as_str()) && (!integer || p.ty == Ty::Integer))
            .map(|p| p.wire.as_str())
    };
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let given = |name: Option<&str>| {
        let name = name?;
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    // Asked newest first (BulkSMS's `sortOrder=DESCENDING`), the window keeps that order.
    let query_object: serde_json::Map<String, Value> = pairs
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let descending = crate::server::resources::asks_for_descending(&Value::Object(query_object));
    let newest_first = descending || declared(&["before", "before_id"], false).is_some();
    // Mailtrap's suppressions take `last_id`: "returns records after this suppression".
    let after = given(declared(
        &["after", "after_id", "last_id", "since_id"],
        false,
    ));
    let before = given(declared(&["before", "before_id"], false));
    let limit = given(declared(SIZE_PARAMS, true)).and_then(|l| l.parse::<usize>().ok());
    if after.is_none() && before.is_none() && limit.is_none() {
        return;
    }
    let id_field = op.resource.id_field;
    let id_of = |item: &Value| match item.get(id_field) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(n @ Value::Number(_)) => Some(n.to_string()),
        _ => None,
    };
    items.retain(|item| {
        let Some(id) = id_of(item) else {
            return true;
        };
        after.is_none_or(|a| sorts(&id, a).is_gt()) && before.is_none_or(|b| sorts(&id, b).is_lt())
    });
    items.sort_by(|a, b| match (id_of(a), id_of(b)) {
        (Some(a), Some(b)) => sorts(&a, &b),
        _ => std::cmp::Ordering::Equal,
    });
    if let Some(limit) = limit
        && items.len() > limit
    {
        // The `limit` closest to the id given; with none, the newest of a list paged back.
        if after.is_none() && (before.is_some() || newest_first) {
            items.drain(..items.len() - limit);
        } else {
            items.truncate(limit);
        }
    }
    if newest_first {
        items.reverse();
    }
}

/// Keeps the items of an unpaged list that an anchor and counts around it ask for (Zulip's
/// `GET /messages?anchor=&num_before=&num_after=&include_anchor=`): in id order, the
/// `num_before` items before the anchor, the anchor itself (unless `include_anchor=false`) and
/// the `num_after` after it; `newest` and `oldest` name the last and the first item. Where the
/// answer's type has them, `anchor` says the id it resolved to and `found_anchor`,
/// `found_oldest` and `found_newest` whether the window holds the anchor and reaches either end,
/// so a client paging back until `found_oldest` ends (every call answered every item, and none
/// of the flags).
pub(super) fn anchored(schema: &ServiceSchema, op: &ServedOp, query: &str, answer: &mut Value) {
    if op.resource.kind != ResourceAction::List || op.info.pagination.is_some() {
        return;
    }
    let declares = |name: &str| op.info.query.iter().any(|p| p.wire == name);
    if !(declares("anchor") && declares("num_before") && declares("num_after")) {
        return;
    }
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let given = |name: &str| pairs.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v);
    let count = |name: &str| {
        given(name)
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(0)
    };
    let (before, after) = (count("num_before"), count("num_after"));
    let include = given("include_anchor").is_none_or(|v| v != "false");
    let id_field = op.resource.id_field;
    let id_of = |item: &Value| item.get(id_field).and_then(Value::as_i64);
    let items_at = op.resource.items.unwrap_or_default();
    let Some(Value::Array(items)) = items_mut(answer, items_at) else {
        return;
    };
    items.sort_by_key(|item| id_of(item).unwrap_or(i64::MIN));
    let ids: Vec<i64> = items.iter().filter_map(id_of).collect();
    let (Some(&first), Some(&last)) = (ids.first(), ids.last()) else {
        return;
    };
    let anchor = match given("anchor").map(String::as_str) {
        Some("oldest") => first,
        Some(text) => text.parse::<i64>().unwrap_or(last),
        None => last,
    };
    let below = ids.iter().filter(|id| **id < anchor).count();
    let at = usize::from(ids.contains(&anchor));
    let start = below.saturating_sub(before);
    let end = (below + at + after).min(ids.len());
    let kept: Vec<Value> = items
        .drain(..)
        .enumerate()
        .filter(|(i, item)| (start..end).contains(i) && (include || id_of(item) != Some(anchor)))
        .map(|(_, item)| item)
        .collect();
    *items = kept;
    let flags = [
        ("anchor", Value::from(anchor)),
        // Whether the anchor is among the items answered.
        ("found_anchor", Value::Bool(at == 1 && include)),
        ("found_oldest", Value::Bool(start == 0)),
        ("found_newest", Value::Bool(end == ids.len())),
    ];
    let declared = op
        .resource
        .response
        .as_ref()
        .and_then(|ty| schema.object_fields(ty))
        .unwrap_or_default();
    if let Value::Object(map) = answer {
        for (name, value) in flags {
            if declared.iter().any(|f| f.name == name) {
                map.insert(name.to_owned(), value);
            }
        }
    }
}

/// The list at the dot path `at` of an answer (the answer itself when `at` is empty).
fn items_mut<'a>(answer: &'a mut Value, at: &str) -> Option<&'a mut Value> {
    at.split('.')
        .filter(|p| !p.is_empty())
        .try_fold(answer, |value, part| value.get_mut(part))
}

/// Two ids in order: as numbers where both are whole numbers (Discord's snowflakes), else as
/// text.
fn sorts(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.parse::<u128>(), b.parse::<u128>()) {
        (Ok(a), Ok(b)) => a.cmp(&b),
        _ => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::sorts;
    use std::cmp::Ordering;

    #[test]
    fn ids_sort_as_numbers_where_both_are_numbers() {
        assert_eq!(sorts("9", "10"), Ordering::Less);
        assert_eq!(sorts("res_00000009", "res_00000010"), Ordering::Less);
        assert_eq!(sorts("b", "a"), Ordering::Greater);
    }
}
