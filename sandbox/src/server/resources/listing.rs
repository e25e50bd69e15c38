//! What a list answers beyond the store's filters: a `filter` expression and a `sort`, and
//! members kept as identifiers read as the items they name.

use serde_json::Value;

use super::{Item, ResourceOp, ServerError, State, expr};

/// A list's `filter` written as an expression (see [`expr`]) keeps the items it passes; its
/// `sort` (`email`, `-created`: fields at the item's top or in its `attributes`) orders them.
/// A filter that does not parse is refused (400), not read as no filter.
pub(super) fn expressed(items: &mut Vec<&Item>, query: &Value) -> Result<(), ServerError> {
    if let Some(text) = query.get("filter").and_then(Value::as_str)
        && expr::is_expression(text)
    {
        let filter = expr::parse(text).map_err(|why| {
            ServerError::bad_request(format!("invalid filter `{text}`: {why}")).with_param("filter")
        })?;
        items.retain(|i| expr::passes(&filter, &i.id, &i.value));
    }
    if let Some(sort) = query.get("sort").and_then(Value::as_str) {
        for key in sort.split(',').rev() {
            let (descending, field) = key.strip_prefix('-').map_or((false, key), |f| (true, f));
            items.sort_by(|a, b| {
                let order = expr::compare(&a.value, &b.value, field);
                if descending { order.reverse() } else { order }
            });
        }
    }
    Ok(())
}

/// The items of a list of members kept as identifiers (a JSON:API relationship's `{type,
/// id}`: Klaviyo's `/api/lists/{id}/profiles`), each as the item it names where the collection
/// of its kind holds it (`/api/profiles`), read now, so a member shows its profile as it is.
/// `None` when no item is an identifier.
pub(super) fn named_members(state: &State, op: &ResourceOp, items: &[&Item]) -> Option<Vec<Item>> {
    let identifier =
        |i: &Item| i.value.len() <= 2 && i.value.keys().all(|k| k == "type" || k == "id");
    if !items.iter().any(|i| identifier(i)) {
        return None;
    }
    // `/api/lists/{id}/profiles` → `/api/profiles`: the kind's own collection.
    let kind = op.collection.rsplit('/').next()?;
    let above: Vec<&str> = op
        .collection
        .split('/')
        .take_while(|s| !s.contains('{'))
        .collect();
    let (_, root) = above.split_last()?;
    let home = format!("{}/{kind}", root.join("/"));
    let held = state.collections.get(&home)?;
    Some(
        items
            .iter()
            .map(
                |i| match held.iter().find(|h| h.id == i.id).filter(|_| identifier(i)) {
                    Some(named) => Item {
                        id: i.id.clone(),
                        value: named.value.clone(),
                        bytes: named.bytes,
                    },
                    None => Item {
                        id: i.id.clone(),
                        value: i.value.clone(),
                        bytes: i.bytes,
                    },
                },
            )
            .collect(),
    )
}
