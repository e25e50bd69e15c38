//! What a page of a served list says about the pages after it: the last page's "no next
//! page", and a list answered whole saying it is one page of them all.

use serde_json::Value;

use super::ops::ServedOp;
use crate::server::resources::{ResourceAction, ServiceSchema, Ty};

/// The last page's "no next page" as its type can say it: the `null` the page put at the next
/// token or link (`before`) is gone where the field is optional, and made up where it is a
/// required text — there it is the empty text, which ends the list (Infobip: "empty if there
/// are no subsequent results"), never a made-up token a client would follow.
pub(super) fn last_page_mark(
    (schema, ty): (&ServiceSchema, Option<&Ty>),
    before: &Value,
    filled: &Value,
    body: &mut Value,
    pages: &tidings_runtime::spec::PaginationSpec,
) {
    let field = match pages.style {
        tidings_runtime::spec::PageStyle::Token { token_field, .. } => token_field,
        tidings_runtime::spec::PageStyle::NextUrl { next_field } => next_field,
        _ => return,
    };
    let at = |value: &Value| {
        field
            .split('.')
            .try_fold(value, |v, key| v.get(key))
            .cloned()
    };
    if at(before) != Some(Value::Null) {
        return;
    }
    match at(filled) {
        Some(Value::String(_)) => {
            crate::server::set_path(body, field, Value::String(String::new()));
        }
        // Optional (the type's filling left it out): no key, not a `null` the type refuses.
        None => {
            let (parent, key) = field.rsplit_once('.').map_or(("", field), |(p, k)| (p, k));
            let holder = parent
                .split('.')
                .filter(|k| !k.is_empty())
                .try_fold(&mut *body, |v, k| v.get_mut(k));
            if let Some(Value::Object(map)) = holder {
                map.remove(key);
            }
            // The next page's parameters as an object (Intercom's `pages.next`, whose
            // `starting_after` just went): no next page, no object, where the type lets it go;
            // a client looping while `pages.next` exists started over.
            let (above, next) = parent.rsplit_once('.').unwrap_or(("", parent));
            let optional = ty
                .and_then(|ty| schema.object_at(ty, above))
                .and_then(|fields| fields.iter().find(|f| f.name == next))
                .is_some_and(|f| !f.required || f.nullable);
            if next == "next" && optional {
                let holder = above
                    .split('.')
                    .filter(|k| !k.is_empty())
                    .try_fold(&mut *body, |v, k| v.get_mut(k));
                if let Some(Value::Object(map)) = holder {
                    map.remove(next);
                }
            }
        }
        Some(_) => {}
    }
}

/// A list that does not page, answered whole inside an object: the page fields beside its
/// items (in the answer, or in an object of it) say it is one page of them all.
pub(super) fn whole_list(schema: &ServiceSchema, op: &ServedOp, answer: &mut Value) {
    let (ResourceAction::List, Some(items), Some(ty)) = (
        op.resource.kind,
        op.resource.items,
        op.resource.response.as_ref(),
    ) else {
        return;
    };
    let Some(count) = items
        .split('.')
        .try_fold(&*answer, |node, key| node.get(key))
        .and_then(Value::as_array)
        .map(Vec::len)
    else {
        return;
    };
    let Some(fields) = schema.object_fields(ty) else {
        return;
    };
    let Value::Object(top) = answer else {
        return;
    };
    crate::server::whole_list_facts(top, fields, count);
    let first = items.split('.').next().unwrap_or_default();
    for f in fields.iter().filter(|f| f.name != first) {
        if let (Some(inner), Some(Value::Object(holder))) =
            (schema.object_fields(&f.ty), top.get_mut(f.name))
        {
            crate::server::whole_list_facts(holder, inner, count);
        }
    }
}
