//! Which query parameters of a list filter its items, and on which field.

use super::{
    FieldInfo, OperationInfo, Service, Ty, TypeKind, answers_list, envelope_items, item_fields,
    names_the_collection, param_name,
};
use crate::model::Method;
use tidings_spec::{Format, PageStyle};

/// The query parameters of a list that filter its items, as `(parameter, item field)` wire
/// names: each named like a field of the listed items (the same name, or the same letters
/// without case, `_` and `-`: Twilio's `To` for `to`, Bandwidth's `messageId`), of a type an
/// item matches by equality (text without a date or time format, a whole number, a boolean, an
/// enum, or a list of them, any of which matches). Paging parameters and a date's bounds
/// (Twilio's `DateSent>`) are not filters; neither is anything of an operation that lists
/// nothing. A `DELETE` of the collection itself filters the same way what it removes, by the
/// fields of the items the collection's list or create answers (Ably's `DELETE
/// /push/deviceRegistrations?clientId=alice` removes Alice's devices).
pub fn list_filters(service: &Service, op: &OperationInfo) -> Vec<(String, String)> {
    let items = if op.method == Method::Delete && op.path_params.is_empty() {
        let at_path = |method: Method| {
            service
                .operations
                .iter()
                .find(|o| o.method == method && o.path == op.path)
        };
        match (at_path(Method::Get), at_path(Method::Post)) {
            (Some(list), _) if answers_list(service, list) => match envelope_items(service, list) {
                Some((_, item)) => item_fields(service, Some(&item)),
                None => item_fields(service, list.response.as_ref()),
            },
            (_, Some(create)) => item_fields(service, create.response.as_ref()),
            _ => None,
        }
    } else if matches!(op.method, Method::Get | Method::Post) && answers_list(service, op) {
        match envelope_items(service, op) {
            Some((_, item)) => item_fields(service, Some(&item)),
            None => item_fields(service, op.response.as_ref()),
        }
    } else {
        None
    };
    let Some(items) = items else {
        return Vec::new();
    };
    let paging: Vec<&str> = op.pagination.as_ref().map_or_else(Vec::new, |p| {
        let mut names = vec![p.limit_param.as_deref()];
        names.extend(match &p.style {
            PageStyle::Cursor { after_param, .. } => vec![Some(after_param.as_str())],
            PageStyle::Token { token_param, .. } => vec![Some(token_param.as_str())],
            PageStyle::NextUrl { .. } | PageStyle::LinkHeader => Vec::new(),
            PageStyle::Offset {
                offset_param,
                limit_param,
                ..
            } => vec![Some(offset_param.as_str()), limit_param.as_deref()],
            PageStyle::Page {
                page_param,
                size_param,
                ..
            } => vec![Some(page_param.as_str()), size_param.as_deref()],
        });
        names.into_iter().flatten().collect()
    });
    let loose = |name: &str| name.to_ascii_lowercase().replace(['_', '-'], "");
    let compared = |ty: &Ty| match ty {
        Ty::String | Ty::Integer | Ty::Boolean => true,
        Ty::Named(n) => matches!(
            service.type_named(n).map(|t| &t.kind),
            Some(TypeKind::Enum(_))
        ),
        _ => false,
    };
    let dated = |f: &FieldInfo| {
        matches!(
            f.format,
            Some(Format::Rfc3339 | Format::Date | Format::Rfc2822 | Format::Unix | Format::UnixMs)
        )
    };
    // A list around a point (Sendbird's messages: `message_id` or `message_ts` with
    // `prev_limit` and `next_limit`) takes the item's own id as that point, not as a filter
    // (which answered the one item, or none).
    let around = op.query.iter().any(|q| {
        let w = loose(&q.wire);
        w.starts_with("prev") || w.starts_with("next") || w.starts_with("before")
    });
    let noun = op
        .path
        .rsplit('/')
        .find(|s| !s.is_empty() && param_name(s).is_none())
        .unwrap_or_default();
    let own_id = |f: &FieldInfo| f.wire == "id" || names_the_collection(&f.wire, noun);
    // The query's parameters; for a list asked by a `POST` (Mandrill's `/templates/list`
    // `{label}`), its body's fields too.
    let body = match op.method {
        Method::Post => item_fields(service, op.body.as_ref()).unwrap_or_default(),
        _ => &[],
    };
    // A field every item is created with, that a list asks for again though its items do not
    // answer it (OneSignal's templates: `app_id` required in the create's body and the list's
    // query, absent from a template): the items made with that value. The store keeps what
    // the create was sent.
    let created: Vec<&FieldInfo> = service
        .operations
        .iter()
        .filter(|o| o.method == Method::Post && o.path == op.path && o.name != op.name)
        .filter_map(|o| item_fields(service, o.body.as_ref()))
        .flatten()
        .filter(|f| f.required && !f.secret && !items.iter().any(|i| i.wire == f.wire))
        .collect();
    let asked_again = |wire: &str| {
        op.query
            .iter()
            .any(|p| p.wire == wire && p.required)
            .then(|| created.iter().find(|f| f.wire == wire).copied())
            .flatten()
    };
    let given = op
        .query
        .iter()
        .filter(|p| p.from_credential.is_none())
        .map(|p| (p.wire.as_str(), &p.ty))
        .chain(
            body.iter()
                .filter(|f| !f.secret)
                .map(|f| (f.wire.as_str(), &f.ty)),
        );
    let mut filters: Vec<(String, String)> = given
        .clone()
        .filter(|(wire, _)| !paging.contains(wire))
        .filter_map(|(wire, ty)| {
            let (named, operator) = filtered_field(wire);
            let field = items
                .iter()
                .find(|f| f.wire == named)
                .or_else(|| items.iter().find(|f| loose(&f.wire) == loose(named)))
                // One value of a list field (Mandrill's `label` of a template's `labels`).
                .or_else(|| {
                    items.iter().find(|f| {
                        loose(&f.wire) == format!("{}s", loose(named))
                            && matches!(&f.ty, Ty::List(inner) if compared(inner))
                    })
                })
                // A list of values named as the field's plural (Elastic Email's
                // `templateTypes` of a template's `TemplateType`, `statuses`): any matches.
                .or_else(|| {
                    let plural = loose(named);
                    items.iter().find(|f| {
                        matches!(ty, Ty::List(_))
                            && [
                                format!("{}s", loose(&f.wire)),
                                format!("{}es", loose(&f.wire)),
                            ]
                            .contains(&plural)
                    })
                })
                .or_else(|| asked_again(wire))
                .filter(|f| !(around && own_id(f)))?;
            let param_ty = match ty {
                Ty::List(inner) => inner,
                ty => ty,
            };
            let field_ty = match &field.ty {
                Ty::List(inner) if !matches!(ty, Ty::List(_)) => inner,
                ty => ty,
            };
            // A time compared for order (`filter[created_at][gte]`) filters; for equality, it
            // hardly ever meets an item's own instant, and names a window instead.
            let ordered = matches!(operator, "gt" | "gte" | "lt" | "lte");
            let timed = dated(field) || field_ty == &Ty::DateTime;
            let kinds = (compared(field_ty) || (ordered && timed)) && compared(param_ty);
            (kinds && (ordered || !dated(field))).then(|| (wire.to_owned(), field.wire.clone()))
        })
        .collect();
    // A search's text parameters (Textmagic's `GET /messages/search?ids=1,3&query=hello`):
    // ids as text separated by commas pick the items of those ids; a query, the items any of
    // whose text fields holds it (`*`, which the sandbox reads so). A search found them all.
    if op.path.ends_with("/search") {
        let id = items.iter().find(|f| f.wire == "id");
        let taken: Vec<String> = filters.iter().map(|(p, _)| p.clone()).collect();
        for (wire, ty) in given.filter(|(w, _)| !taken.iter().any(|p| p == w)) {
            let text = matches!(ty, Ty::String);
            if text
                && super::names_ids(wire)
                && let Some(id) = id
            {
                filters.push((wire.to_owned(), id.wire.clone()));
            } else if text && matches!(loose(wire).as_str(), "q" | "query" | "search" | "term") {
                filters.push((wire.to_owned(), "*".to_owned()));
            }
        }
    }
    filters
}

/// The field a query parameter filters on by its name, and how: the parameter's own name
/// (equality), or the key of a `deepObject` filter and its operator (Telnyx's `filter[name]`
/// and `filter[name][eq]`, `filter[name][contains]`, `filter[created_at][gte]`; the sandbox
/// reads the operator back from the parameter's name). Another operator names nothing.
fn filtered_field(wire: &str) -> (&str, &str) {
    let Some((_, rest)) = wire.split_once('[') else {
        return (wire, "eq");
    };
    let Some((key, after)) = rest.split_once(']') else {
        return (wire, "eq");
    };
    let operator = match after {
        "" => "eq",
        _ => match after.strip_prefix('[').and_then(|a| a.strip_suffix(']')) {
            Some(op @ ("eq" | "contains" | "gt" | "gte" | "lt" | "lte")) => op,
            _ => return (wire, "eq"),
        },
    };
    if key.is_empty() {
        return (wire, "eq");
    }
    (key, operator)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Telnyx's lists filter by `filter[name]` (a `deepObject` parameter the importer writes
    /// as its properties): the sandbox ignored it and answered every item.
    #[test]
    fn a_deep_object_filter_names_the_field_it_filters_on() {
        for (wire, field, operator) in [
            ("name", "name", "eq"),
            ("filter[name]", "name", "eq"),
            ("filter[name][eq]", "name", "eq"),
            ("filter[name][contains]", "name", "contains"),
            ("filter[created_at][gte]", "created_at", "gte"),
            ("filter[name][matches]", "filter[name][matches]", "eq"),
            ("filter[]", "filter[]", "eq"),
            ("page[number", "page[number", "eq"),
        ] {
            assert_eq!(filtered_field(wire), (field, operator), "{wire}");
        }
    }
}
