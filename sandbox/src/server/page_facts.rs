//! What a page says of itself beside its items and its style's field: its number, its size,
//! the whole count, links to this page, the first, the one before and the last (a paged list),
//! or that it is the one page of all the items (a list answered whole).

use super::page::PageWindow;

/// Names of the page's number, its size and the count of every item, as a list's page meta
/// gives them beside its style's own field (Telnyx's `{page_number, page_size, total_pages,
/// total_results}`, Twilio's `{page, page_size, next_page_url, ...}`).
const PAGE_FACTS: [&[&str]; 3] = [
    &[
        "page_number",
        "pageNumber",
        "current_page",
        "currentPage",
        "page_index",
        "pageIndex",
        "page",
    ],
    &[
        "page_size",
        "pageSize",
        "per_page",
        "perPage",
        "size",
        "limit",
    ],
    &[
        "total_results",
        "totalResults",
        "total_count",
        "totalCount",
        "total_items",
        "totalItems",
        "total",
    ],
];

/// Names of the links to this page, the first one, the one before and the last, beside a next
/// link (Twilio's `meta.{url, first_page_url, previous_page_url}`, Mailgun's `paging.{first,
/// previous, last}`).
const PAGE_LINKS: [&[&str]; 4] = [
    &["url", "uri", "self", "current_page_url", "current_page_uri"],
    &["first_page_url", "first_page_uri", "first", "first_url"],
    &[
        "previous_page_url",
        "previous_page_uri",
        "prev_page_url",
        "previous",
        "prev",
        "previous_url",
        "prev_url",
    ],
    &["last_page_url", "last_page_uri", "last", "last_url"],
];

/// The object a page's own fields sit in: the one that holds its style's field (`meta` of
/// `meta.next_page_url`, `""` for the answer itself, or a style's that names none), none for
/// a page told by its `Link` header.
pub(crate) fn page_meta_holder(spec: &tidings_runtime::spec::PaginationSpec) -> Option<&str> {
    use tidings_runtime::spec::PageStyle;
    let field = match spec.style {
        PageStyle::Cursor { has_more, .. } => has_more,
        PageStyle::Token { token_field, .. } => token_field,
        PageStyle::NextUrl { next_field } => next_field,
        // Where the style names no field, the answer itself (Vonage Media's `page_index` and
        // `page_size` beside `_embedded`: they were 0).
        PageStyle::Offset { total_field, .. } => total_field.unwrap_or_default(),
        PageStyle::Page {
            total_pages_field, ..
        } => total_pages_field.unwrap_or_default(),
        PageStyle::LinkHeader => return None,
    };
    Some(field.rsplit_once('.').map_or("", |(holder, _)| holder))
}

/// In the object beside a page's style field ([`page_meta_holder`]), the fields that say the
/// page's number, its size, the count of every item, the links to this page, the first, the
/// one before and the last, and the items' key (Twilio's `meta.key`: `"conversations"`), where the answer
/// has them or its type declares them (`declared`, the holder's fields): they were made up
/// (`page_number: 0` beside the second page) or left out. Numbers go only where the type
/// takes a number, links and the key only where it takes text; a link to no page (the one
/// before the first) is left out, or the first page where the type requires it.
pub(crate) fn page_facts(
    answer: &mut serde_json::Value,
    spec: &tidings_runtime::spec::PaginationSpec,
    window: &PageWindow,
    declared: Option<&[tidings_spec::FieldSchema]>,
) {
    use serde_json::Value;
    use tidings_spec::Ty;
    let Some(holder_path) = page_meta_holder(spec) else {
        return;
    };
    let holder = holder_path
        .split('.')
        .filter(|k| !k.is_empty())
        .try_fold(&mut *answer, |node, key| node.get_mut(key));
    let Some(Value::Object(holder)) = holder else {
        return;
    };
    let takes = |name: &str, text: bool| match declared {
        Some(fields) => fields.iter().any(|f| {
            f.name == name
                && match f.ty {
                    Ty::Integer | Ty::Number => !text,
                    Ty::String => text,
                    _ => false,
                }
        }),
        None => match holder.get(name) {
            Some(Value::Number(_)) => !text,
            Some(Value::String(_)) => text,
            _ => false,
        },
    };
    let mut set: Vec<(&str, Option<Value>)> = Vec::new();
    for (names, value) in PAGE_FACTS
        .iter()
        .zip([window.number, window.size, window.total])
    {
        if let Some(name) = names.iter().find(|n| takes(n, false)) {
            set.push((name, Some(Value::from(value))));
        }
    }
    if let Some(links) = &window.links {
        // The page before the first, where the type must have one (Mailgun's `previous`): the
        // first page again.
        let previous = links.previous.clone().or_else(|| {
            let required = |name: &str| {
                declared.is_some_and(|fields| {
                    fields
                        .iter()
                        .any(|f| f.name == name && f.required && !f.nullable)
                })
            };
            PAGE_LINKS[2]
                .iter()
                .any(|n| required(n))
                .then(|| links.first.clone())
        });
        let values = [
            Some(links.this.clone()),
            Some(links.first.clone()),
            previous,
            Some(links.last.clone()),
        ];
        for (names, value) in PAGE_LINKS.iter().zip(values) {
            if let Some(name) = names.iter().find(|n| takes(n, true)) {
                set.push((name, value.map(Value::String)));
            }
        }
        let key = spec.items.rsplit('.').next().unwrap_or_default();
        if !key.is_empty() && takes("key", true) {
            set.push(("key", Some(Value::from(key))));
        }
    }
    for (name, value) in set {
        match value {
            Some(value) => holder.insert(name.to_owned(), value),
            None => holder.remove(name),
        };
    }
}

/// Names of the count of pages (Telnyx's `meta.total_pages`).
const PAGE_COUNTS: &[&str] = &["total_pages", "totalPages", "page_count", "pageCount"];

/// In a list answered whole (an operation that does not page), the page fields its type has
/// beside the items, in `holder` (the answer, or an object in it) whose fields are `declared`:
/// one page of `count` items, numbered 1 (Telnyx's `meta` of its autoresponse configs, all
/// required, answered zeros beside the items).
pub(crate) fn whole_list_facts(
    holder: &mut serde_json::Map<String, serde_json::Value>,
    declared: &[tidings_spec::FieldSchema],
    count: usize,
) {
    use tidings_spec::Ty;
    let number = |name: &str| {
        declared
            .iter()
            .any(|f| f.name == name && matches!(f.ty, Ty::Integer | Ty::Number))
    };
    let facts = PAGE_FACTS
        .iter()
        .zip([1, count, count])
        .chain(std::iter::once((&PAGE_COUNTS, usize::from(count > 0))));
    for (names, value) in facts {
        if let Some(name) = names.iter().find(|n| number(n)) {
            holder.insert((*name).to_owned(), serde_json::Value::from(value));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::server::page::page_object_with_window;
    use serde_json::json;
    use tidings_runtime::spec::{PageStyle, PaginationSpec};

    /// Telnyx's `meta` beside a page: `{page_number, page_size, total_pages, total_results}`,
    /// all required. Only the page count was right; the others were zeros (was). A field the
    /// answer lacks and its type does not declare is not added.
    #[test]
    fn a_page_meta_says_the_page_its_size_and_the_whole_count() {
        static META: PaginationSpec = PaginationSpec {
            items: "data",
            style: PageStyle::Page {
                page_param: "page[number]",
                size_param: Some("page[size]"),
                first_page: 1,
                total_pages_field: Some("meta.total_pages"),
            },
        };
        let items: Vec<u32> = (1..=5).collect();
        let answer = json!({"data": items,
            "meta": {"page_number": 0, "page_size": 0, "total_pages": 3, "total_results": 0}});
        let query = "page%5Bsize%5D=2&page%5Bnumber%5D=2";
        let (page, window) =
            page_object_with_window(answer, &META, Some("page[size]"), query, "/").unwrap();
        let mut body = page.body;
        page_facts(&mut body, &META, &window, None);
        assert_eq!(
            body["meta"],
            json!({"page_number": 2, "page_size": 2, "total_pages": 3, "total_results": 5})
        );
        let (page, window) = page_object_with_window(
            json!({"data": [], "meta": {"total_pages": 1}}),
            &META,
            None,
            "",
            "/",
        )
        .unwrap();
        let mut body = page.body;
        page_facts(&mut body, &META, &window, None);
        assert_eq!(body["meta"], json!({"total_pages": 0}), "no field added");
    }

    /// Twilio's `meta` beside `next_page_url`: `{key, page, page_size, url, first_page_url,
    /// previous_page_url}`, all optional, were left out (was). Declared, each is answered; the
    /// link before the first page is left out, and a number field is not given a link.
    #[test]
    fn a_next_link_meta_says_where_the_page_is_and_links_to_it_the_first_and_the_one_before() {
        use tidings_spec::{FieldSchema, Ty};
        static PAGES: PaginationSpec = PaginationSpec {
            items: "conversations",
            style: PageStyle::NextUrl {
                next_field: "meta.next_page_url",
            },
        };
        static META: [FieldSchema; 8] = [
            FieldSchema::new("key", Ty::String),
            FieldSchema::new("page", Ty::Integer),
            FieldSchema::new("page_size", Ty::Integer),
            FieldSchema::new("url", Ty::String),
            FieldSchema::new("first_page_url", Ty::String),
            FieldSchema::new("previous_page_url", Ty::String),
            FieldSchema::new("next_page_url", Ty::String),
            FieldSchema::new("uri", Ty::Integer),
        ];
        let answer = || json!({"conversations": [1, 2, 3, 4, 5], "meta": {}});
        let (page, window) =
            page_object_with_window(answer(), &PAGES, Some("PageSize"), "PageSize=2", "/c")
                .unwrap();
        let mut body = page.body;
        page_facts(&mut body, &PAGES, &window, Some(&META));
        assert_eq!(
            body["meta"],
            json!({"key": "conversations", "page": 0, "page_size": 2,
                "url": "/c?PageSize=2&page_offset=0", "first_page_url": "/c?PageSize=2&page_offset=0",
                "next_page_url": "/c?PageSize=2&page_offset=2"})
        );
        let next = body["meta"]["next_page_url"].as_str().unwrap().to_owned();
        let query = next.split_once('?').unwrap().1;
        let (page, window) =
            page_object_with_window(answer(), &PAGES, Some("PageSize"), query, "/c").unwrap();
        let mut body = page.body;
        page_facts(&mut body, &PAGES, &window, Some(&META));
        assert_eq!(body["meta"]["page"], 1);
        assert_eq!(body["meta"]["url"], next.as_str());
        assert_eq!(
            body["meta"]["previous_page_url"],
            "/c?PageSize=2&page_offset=0"
        );
        assert_eq!(window.total, 5);
    }

    /// Textmagic's lists: `{page, pageCount, limit, resources}`, `limit` being "the number of
    /// results per page", answered 0 on every page (was).
    #[test]
    fn a_page_s_limit_field_says_its_size() {
        use tidings_spec::{FieldSchema, Ty};
        static PAGES: PaginationSpec = PaginationSpec {
            items: "resources",
            style: PageStyle::Page {
                page_param: "page",
                size_param: Some("limit"),
                first_page: 1,
                total_pages_field: Some("pageCount"),
            },
        };
        static TOP: [FieldSchema; 3] = [
            FieldSchema::new("page", Ty::Integer),
            FieldSchema::new("pageCount", Ty::Integer),
            FieldSchema::new("limit", Ty::Integer),
        ];
        let answer = json!({"resources": [1, 2, 3, 4, 5], "page": 0, "pageCount": 0, "limit": 0});
        let (page, window) =
            page_object_with_window(answer, &PAGES, Some("limit"), "page=2&limit=2", "/t").unwrap();
        let mut body = page.body;
        page_facts(&mut body, &PAGES, &window, Some(&TOP));
        assert_eq!(
            (&body["page"], &body["pageCount"], &body["limit"]),
            (&json!(2), &json!(3), &json!(2)),
            "{body}"
        );
    }
}
