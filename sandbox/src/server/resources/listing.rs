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

/// A search's query in its body (Intercom's `POST /contacts/search {"query": {"field":
/// "email", "operator": "=", "value": "..."}}`, and `{"operator": "AND", "value": [...]}`)
/// keeps the items it passes; one written so (an `operator` at its top) that cannot be read is
/// refused (400). A query of another shape is not read.
pub(super) fn searched(items: &mut Vec<&Item>, body: &Value) -> Result<(), ServerError> {
    let Some(query) = body
        .get("query")
        .filter(|q| q.get("operator").is_some_and(Value::is_string))
    else {
        return Ok(());
    };
    let filter = search_filter(query, 0).map_err(|why| {
        ServerError::bad_request(format!("invalid search query: {why}")).with_param("query")
    })?;
    items.retain(|i| expr::passes(&filter, &i.id, &i.value));
    Ok(())
}

/// Deepest nesting of a search query read.
const MAX_SEARCH_DEPTH: usize = 16;

fn search_filter(query: &Value, depth: usize) -> Result<expr::Filter, String> {
    if depth > MAX_SEARCH_DEPTH {
        return Err(format!("a query nests at most {MAX_SEARCH_DEPTH} deep"));
    }
    let operator = query
        .get("operator")
        .and_then(Value::as_str)
        .ok_or("a query names its `operator`")?;
    let value = query.get("value").cloned().unwrap_or(Value::Null);
    if matches!(operator, "AND" | "OR") {
        let each = value
            .as_array()
            .ok_or("`AND` and `OR` take a list of queries")?
            .iter()
            .map(|q| search_filter(q, depth + 1))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(match operator {
            "AND" => expr::Filter::All(each),
            _ => expr::Filter::Any(each),
        });
    }
    let field = query
        .get("field")
        .and_then(Value::as_str)
        .ok_or("a query names its `field`")?
        .to_owned();
    let test = |name: &str| expr::Filter::Test(name.to_owned(), field.clone(), vec![value.clone()]);
    Ok(match operator {
        "=" => test("equals"),
        "!=" => expr::Filter::Not(Box::new(test("equals"))),
        "IN" => test("any"),
        "NIN" => expr::Filter::Not(Box::new(test("any"))),
        ">" => test("greater-than"),
        "<" => test("less-than"),
        "~" => test("contains"),
        "!~" => expr::Filter::Not(Box::new(test("contains"))),
        "^" => test("starts-with"),
        "$" => test("ends-with"),
        other => return Err(format!("unknown operator `{other}`")),
    })
}

/// The items of a list of members kept as identifiers (a JSON:API relationship's `{type,
/// id}`: Klaviyo's `/api/lists/{id}/profiles`), each as the item it names where the collection
/// of its kind holds it (`/api/profiles`), read now, so a member shows its profile as it is.
/// `None` when no item is an identifier.
pub(super) fn named_members(state: &State, op: &ResourceOp, items: &[&Item]) -> Option<Vec<Item>> {
    let identifier =
        |i: &Item| i.value.contains_key("id") && i.value.keys().all(|k| k == "type" || k == "id");
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
