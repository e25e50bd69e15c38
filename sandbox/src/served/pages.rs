//! What a page of a served list says about the pages after it: the last page's "no next
//! page", and a list answered whole saying it is one page of them all.

use serde_json::Value;

use super::ops::ServedOp;
use crate::server::resources::{ResourceAction, ServiceSchema, Ty};

/// The last page's "no next page" as its type can say it: the `null` the page put at the next
/// token or link (`before`) is gone where the field is optional, and made up where it is a
/// required text — there it is the empty text, which ends the list (Infobip: "empty if there
/// are no subsequent results"), never a made-up token a client would follow. A next link that
/// must be there leads from the last page with items to the empty page past it, whose own is
/// empty: Mailgun links every page and its clients stop at a page with no items (the empty
/// link they were given failed each walk at its end).
pub(super) fn last_page_mark(
    (schema, ty): (&ServiceSchema, Option<&Ty>),
    before: &Value,
    filled: &Value,
    body: &mut Value,
    (pages, window): (
        &tidings_runtime::spec::PaginationSpec,
        &crate::server::PageWindow,
    ),
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
            let past_end = window.links.as_ref().map(|l| l.past_end.clone());
            let has_items = pages
                .items
                .split('.')
                .try_fold(before, |v, key| v.get(key))
                .and_then(Value::as_array)
                .is_some_and(|items| !items.is_empty());
            let next = match past_end {
                Some(link) if has_items => link,
                _ => String::new(),
            };
            crate::server::set_path(body, field, Value::String(next));
        }
        // Optional (the type's filling left it out): no key, not a `null` the type refuses.
        None => {
            remove_at(body, field);
            let parent = field.rsplit_once('.').map_or("", |(p, _)| p);
            // The next page's parameters as an object (Intercom's `pages.next`, whose
            // `starting_after` just went): no next page, no object, where the type lets it go;
            // a client looping while `pages.next` exists started over.
            let (above, next) = parent.rsplit_once('.').unwrap_or(("", parent));
            let optional = ty
                .and_then(|ty| schema.object_at(ty, above))
                .and_then(|fields| fields.iter().find(|f| f.name == next))
                .is_some_and(|f| !f.required || f.nullable);
            if next == "next" && optional {
                remove_at(body, parent);
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

/// Query parameters that carry a next page's cursor back, by name.
const CURSOR_PARAMS: &[&str] = &[
    "page[cursor]",
    "cursor",
    "page_cursor",
    "pagecursor",
    "page_token",
    "pagetoken",
    "next_token",
    "continuation_token",
];

/// Removes the key at dot path `path` of `body`, where it is.
fn remove_at(body: &mut Value, path: &str) {
    let (parent, key) = path.rsplit_once('.').unwrap_or(("", path));
    let holder = parent
        .split('.')
        .filter(|k| !k.is_empty())
        .try_fold(&mut *body, |v, k| v.get_mut(k));
    if let Some(Value::Object(map)) = holder {
        map.remove(key);
    }
}

/// The list's own cursor parameter, for a page whose next page is a link the sandbox writes
/// (Klaviyo's `page[cursor]` beside `links.next`): the link carries it, and a cursor sent in
/// it is read, in place of the sandbox's own [`crate::server::NEXT_LINK_PARAM`].
pub(super) fn cursor_param(op: &ServedOp) -> Option<&str> {
    let pages = op.pages?;
    if !matches!(
        pages.style,
        tidings_runtime::spec::PageStyle::NextUrl { .. }
    ) {
        return None;
    }
    op.info
        .query
        .iter()
        .map(|p| p.wire.as_str())
        .find(|w| CURSOR_PARAMS.contains(&w.to_ascii_lowercase().as_str()))
}

/// The cursor the request sent in the list's own parameter, as the sandbox's.
pub(super) fn cursor_in(incoming: &mut crate::server::Incoming, param: &str) {
    let sent = url::form_urlencoded::parse(incoming.raw_query().as_bytes())
        .find(|(k, _)| k == param)
        .map(|(_, v)| v.into_owned());
    if let Some(sent) = sent {
        incoming.default_query_param(crate::server::NEXT_LINK_PARAM, &sent);
    }
}

/// The next link at `field` of `body`, and the other links beside it (`self`, `prev`), their
/// cursors under the list's own parameter.
pub(super) fn cursors_out(body: &mut Value, field: &str, param: &str) {
    let parent = field.rsplit_once('.').map_or("", |(p, _)| p);
    let holder = parent
        .split('.')
        .filter(|k| !k.is_empty())
        .try_fold(&*body, |v, k| v.get(k));
    let links: Vec<String> = match holder {
        Some(Value::Object(map)) => map
            .iter()
            .filter(|(_, v)| v.is_string())
            .map(|(k, _)| match parent {
                "" => k.clone(),
                _ => format!("{parent}.{k}"),
            })
            .collect(),
        _ => vec![field.to_owned()],
    };
    for link in links {
        cursor_out(body, &link, param);
    }
}

fn cursor_out(body: &mut Value, field: &str, param: &str) {
    let link = field.split('.').try_fold(&mut *body, |v, k| v.get_mut(k));
    let Some(Value::String(link)) = link else {
        return;
    };
    // A link written relative to the server (`/api/profiles?...`) is read against a base.
    let relative = link.starts_with('/');
    let parsed = match relative {
        true => url::Url::parse(&format!("http://relative{link}")),
        false => url::Url::parse(link),
    };
    let Ok(mut url) = parsed else {
        return;
    };
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .into_owned()
        .filter(|(k, _)| k != param)
        .map(|(k, v)| match k == crate::server::NEXT_LINK_PARAM {
            true => (param.to_owned(), v),
            false => (k, v),
        })
        .collect();
    url.query_pairs_mut().clear().extend_pairs(pairs);
    *link = match relative {
        true => format!("{}?{}", url.path(), url.query().unwrap_or_default()),
        false => url.into(),
    };
}
