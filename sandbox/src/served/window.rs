//! A list that does not page in a declared style but takes a size and the ids it starts after
//! or ends before (Discord's `GET /channels/{id}/messages?before=&after=&limit=`): the window
//! of its items those parameters ask for, so a client paging by ids ends.

use serde_json::Value;

use super::ops::ServedOp;
use crate::server::resources::{ResourceAction, Ty};

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
    let newest_first = declared(&["before", "before_id"], false).is_some();
    let after = given(declared(&["after", "after_id"], false));
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
