//! Cursor pagination as the specs describe it: `limit`, `after`, `before` over a list in
//! listing order, the cursor being each item's id.

use super::ServerError;

/// Page size when a request gives no `limit`.
pub const DEFAULT_PAGE_LIMIT: usize = 20;

/// The cursor parameters of a list request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageRequest<'a> {
    /// Page size; [`DEFAULT_PAGE_LIMIT`] when absent. Its range is checked by the spec.
    pub limit: Option<i64>,
    /// Items after this cursor.
    pub after: Option<&'a str>,
    /// Items before this cursor.
    pub before: Option<&'a str>,
}

/// One page of `items` (already in listing order): the items and whether more follow in the
/// direction of paging. An empty cursor (`?after=`) is no cursor; a cursor naming no item is a
/// 404 `not_found` naming the parameter (the request is well-formed, the item it points at does
/// not exist).
///
/// ```
/// use tidings_sandbox::server::{PageRequest, paginate};
/// let items = ["a", "b", "c", "d"];
/// let (page, more) = paginate(&items, |i| i, PageRequest { limit: Some(2), after: Some("a"), before: None })?;
/// assert_eq!((page, more), (vec!["b", "c"], true));
/// let (page, more) = paginate(&items, |i| i, PageRequest { limit: Some(2), after: None, before: Some("b") })?;
/// assert_eq!((page, more), (vec!["a"], false));
/// let (page, _) = paginate(&items, |i| i, PageRequest { limit: Some(1), after: Some(""), before: None })?;
/// assert_eq!(page, vec!["a"]);
/// let unknown = paginate(&items, |i| i, PageRequest { limit: None, after: Some("z"), before: None });
/// assert_eq!(unknown.unwrap_err().status(), 404);
/// # Ok::<(), tidings_sandbox::server::ServerError>(())
/// ```
pub fn paginate<T: Clone>(
    items: &[T],
    cursor: impl Fn(&T) -> &str,
    request: PageRequest<'_>,
) -> Result<(Vec<T>, bool), ServerError> {
    let limit = request.limit.map_or(DEFAULT_PAGE_LIMIT, |l| {
        usize::try_from(l.max(1)).unwrap_or(1)
    });
    let position = |param: &str, value: &str| {
        items
            .iter()
            .position(|item| cursor(item) == value)
            .ok_or_else(|| {
                ServerError::not_found(format!("the item of cursor `{value}`")).with_param(param)
            })
    };
    if let Some(after) = request.after.filter(|c| !c.is_empty()) {
        let start = position("after", after)? + 1;
        let end = (start + limit).min(items.len());
        return Ok((items[start..end].to_vec(), end < items.len()));
    }
    if let Some(before) = request.before.filter(|c| !c.is_empty()) {
        let end = position("before", before)?;
        let start = end.saturating_sub(limit);
        return Ok((items[start..end].to_vec(), start > 0));
    }
    let end = limit.min(items.len());
    Ok((items[..end].to_vec(), end < items.len()))
}

/// Largest page size [`page_in_style`] serves.
pub const MAX_PAGE_SIZE: usize = 1_000;

/// Query parameter of the next links [`page_in_style`] writes (next URL and `Link` styles): the
/// offset of the next page's first item.
pub const NEXT_LINK_PARAM: &str = "page_offset";

/// One page in a list operation's pagination style: the body (items and the style's fields at
/// their dot paths) and, for the `Link` style, the `Link` header value.
#[derive(Debug, Clone, PartialEq)]
pub struct StyledPage {
    /// The answer's JSON body.
    pub body: serde_json::Value,
    /// `<...>; rel="next"` when the style is the `Link` header and another page follows.
    pub link: Option<String>,
}

/// Where a page sits in its list: what the page's own meta fields say beside the style's
/// (Twilio's `meta.{page, page_size, url, first_page_url, previous_page_url}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageWindow {
    /// The page's number as its style counts them: the number asked for (from the style's
    /// first page) in the page style, else the index from 0 of pages of this size.
    pub number: usize,
    /// Items per page.
    pub size: usize,
    /// Items in the whole list.
    pub total: usize,
    /// Whether another page follows.
    pub more: bool,
    /// Links to this page, the first and the one before (none on the first page), in the next
    /// link's form; for the styles that link their pages (next URL, `Link` header) only.
    pub links: Option<PageLinks>,
}

/// [`PageWindow::links`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageLinks {
    /// This page.
    pub this: String,
    /// The first page.
    pub first: String,
    /// The page before, none on the first.
    pub previous: Option<String>,
    /// The last page.
    pub last: String,
    /// The empty page past the last item: where a next link that must be there on the last
    /// page leads (Mailgun's, which its clients follow until a page has no items).
    pub past_end: String,
}

/// Pages `items` (all of the list, in listing order) as `spec`'s style says, reading the
/// request's `query` (raw, without `?`): the cursor, token, offset or page number, and the page
/// size from `size_param` ([`DEFAULT_PAGE_LIMIT`] when absent, at most [`MAX_PAGE_SIZE`]).
/// Next URLs are `path` with [`NEXT_LINK_PARAM`]; tokens are offsets in text. A cursor, token or
/// offset that does not parse or points past the list is a 400/404 naming the parameter.
///
/// ```
/// use tidings_runtime::spec::{PageStyle, PaginationSpec};
/// use tidings_sandbox::server::page_in_style;
/// static PAGES: PaginationSpec = PaginationSpec {
///     items: "result.items",
///     style: PageStyle::Token { token_field: "meta.next", token_param: "PageToken" },
/// };
/// let items: Vec<u32> = (0..5).collect();
/// let page = page_in_style(&items, &PAGES, Some("size"), "size=2&PageToken=2", "/v1/n")?;
/// assert_eq!(page.body, serde_json::json!({"result": {"items": [2, 3]}, "meta": {"next": "4"}}));
/// # Ok::<(), tidings_sandbox::server::ServerError>(())
/// ```
pub fn page_in_style<T: serde::Serialize>(
    items: &[T],
    spec: &tidings_runtime::spec::PaginationSpec,
    size_param: Option<&str>,
    query: &str,
    path: &str,
) -> Result<StyledPage, ServerError> {
    styled_page(items, spec, size_param, query, path).map(|(page, _)| page)
}

/// [`page_in_style`], and where the page sits in the list.
fn styled_page<T: serde::Serialize>(
    items: &[T],
    spec: &tidings_runtime::spec::PaginationSpec,
    size_param: Option<&str>,
    query: &str,
    path: &str,
) -> Result<(StyledPage, PageWindow), ServerError> {
    use serde_json::{Value, json};
    use tidings_runtime::spec::PageStyle;
    let pairs = query_pairs(query);
    let get = |name: &str| last_value(&pairs, name);
    let number = |name: &str| -> Result<Option<usize>, ServerError> {
        get(name)
            .map(|v| {
                whole_number(v).ok_or_else(|| {
                    ServerError::bad_request(format!("`{name}` is not a number: `{v}`"))
                        .with_param(name)
                })
            })
            .transpose()
    };
    // A page token (or the next link's position) is opaque to the client: one this server
    // did not hand out names no page (404, as an unknown cursor), not a malformed request.
    let token = |name: &str| -> Result<Option<usize>, ServerError> {
        get(name)
            .map(|v| {
                v.parse::<usize>().map_err(|_| {
                    ServerError::not_found(format!("the page of token `{v}`")).with_param(name)
                })
            })
            .transpose()
    };
    let size = match size_param {
        Some(p) => number(p)?.unwrap_or(DEFAULT_PAGE_LIMIT),
        None => DEFAULT_PAGE_LIMIT,
    }
    .clamp(1, MAX_PAGE_SIZE);
    let values: Vec<Value> = items
        .iter()
        .map(|i| serde_json::to_value(i).unwrap_or(Value::Null))
        .collect();
    let total = values.len();
    let mut first_item = 0;
    let mut window = |start: usize,
                      param: &str|
     -> Result<(Vec<Value>, Option<usize>), ServerError> {
        if start > total {
            return Err(ServerError::not_found(format!("the page at `{start}`")).with_param(param));
        }
        first_item = start;
        let end = start.saturating_add(size).min(total);
        Ok((values[start..end].to_vec(), (end < total).then_some(end)))
    };
    let next_link = |offset: usize| {
        let mut url = url::form_urlencoded::Serializer::new(String::new());
        for (k, v) in pairs.iter().filter(|(k, _)| k != NEXT_LINK_PARAM) {
            url.append_pair(k, v);
        }
        url.append_pair(NEXT_LINK_PARAM, &offset.to_string());
        format!("{path}?{}", url.finish())
    };
    let mut body = json!({});
    let mut link = None;
    let mut page_number = None;
    let (page, more) = match spec.style {
        PageStyle::Cursor {
            has_more,
            cursor_field,
            after_param,
        } => {
            let cursor = |v: &Value| match v.get(cursor_field) {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            let keys: Vec<String> = values.iter().map(cursor).collect();
            let after = get(after_param);
            let start = match after {
                Some(a) => {
                    keys.iter().position(|k| k == a).ok_or_else(|| {
                        ServerError::not_found(format!("the item of cursor `{a}`"))
                            .with_param(after_param)
                    })? + 1
                }
                None => 0,
            };
            let (page, next) = window(start, after_param)?;
            set_path(&mut body, has_more, json!(next.is_some()));
            (page, next.is_some())
        }
        PageStyle::Token {
            token_field,
            token_param,
        } => {
            let (page, next) = window(token(token_param)?.unwrap_or(0), token_param)?;
            set_path(&mut body, token_field, json!(next.map(|n| n.to_string())));
            (page, next.is_some())
        }
        PageStyle::NextUrl { next_field } => {
            let (page, next) = window(token(NEXT_LINK_PARAM)?.unwrap_or(0), NEXT_LINK_PARAM)?;
            set_path(&mut body, next_field, json!(next.map(next_link)));
            (page, next.is_some())
        }
        PageStyle::LinkHeader => {
            let (page, next) = window(token(NEXT_LINK_PARAM)?.unwrap_or(0), NEXT_LINK_PARAM)?;
            link = next.map(|n| format!("<{}>; rel=\"next\"", next_link(n)));
            (page, next.is_some())
        }
        PageStyle::Offset {
            offset_param,
            total_field,
            ..
        } => {
            // An offset the client chose past the end is an empty page (a token past the end
            // is one this server never handed out: 404).
            let offset = number(offset_param)?.unwrap_or(0).min(total);
            let (page, next) = window(offset, offset_param)?;
            if let Some(f) = total_field {
                set_path(&mut body, f, json!(total));
            }
            (page, next.is_some())
        }
        PageStyle::Page {
            page_param,
            first_page,
            total_pages_field,
            ..
        } => {
            let first = usize::try_from(first_page).unwrap_or(0);
            // A number before the first page (which a document without a minimum allows)
            // is the first page.
            let asked = number(page_param)?.unwrap_or(first).max(first);
            page_number = Some(asked);
            let index = asked - first;
            let start = index.saturating_mul(size);
            // A page past the end is empty (the client stops there), not an error.
            let (page, next) = window(start.min(total), page_param)?;
            if let Some(f) = total_pages_field {
                set_path(&mut body, f, json!(total.div_ceil(size)));
            }
            (page, next.is_some())
        }
    };
    if spec.items.is_empty() {
        // A bare array (`items_field: ""`): the page is the body; what tells the next page
        // apart travels outside it (a `Link` header, the offset asked for).
        body = Value::Array(page);
    } else {
        set_path(&mut body, spec.items, Value::Array(page));
    }
    let links = matches!(
        spec.style,
        PageStyle::NextUrl { .. } | PageStyle::LinkHeader
    )
    .then(|| PageLinks {
        this: next_link(first_item),
        first: next_link(0),
        previous: (first_item > 0).then(|| next_link(first_item.saturating_sub(size))),
        last: next_link(total.saturating_sub(1) / size * size),
        past_end: next_link(total),
    });
    let window = PageWindow {
        number: page_number.unwrap_or(first_item / size),
        size,
        total,
        more,
        links,
    };
    Ok((StyledPage { body, link }, window))
}

/// The query's name/value pairs, decoded.
fn query_pairs(query: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect()
}

/// The last non-empty value `pairs` give `name` (a repeated parameter's last one wins).
fn last_value<'p>(pairs: &'p [(String, String)], name: &str) -> Option<&'p str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

/// A page parameter's count: digits, or a number written as a float (SendGrid types its
/// `page_size` as a `number`, and clients send `1.0`), its whole part; a negative one (which
/// a document without a minimum allows) counts from 0.
fn whole_number(text: &str) -> Option<usize> {
    if let Ok(n) = text.parse::<usize>() {
        return Some(n);
    }
    let f = text.parse::<f64>().ok().filter(|f| f.is_finite())?;
    // Floored and clamped into range first, so the cast is exact.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some(f.floor().clamp(0.0, (1u64 << 52) as f64) as usize)
}

/// [`page_in_style`] of a list answered inside an object (`answer`, every item at
/// `spec.items`): the page of items and the style's fields put back into the object, its
/// other fields kept.
///
/// ```
/// use tidings_runtime::spec::{PageStyle, PaginationSpec};
/// use tidings_sandbox::server::page_object_in_style;
/// static PAGES: PaginationSpec = PaginationSpec {
///     items: "contacts",
///     style: PageStyle::Offset { offset_param: "offset", limit_param: Some("limit"), total_field: None },
/// };
/// let answer = serde_json::json!({"contacts": [1, 2, 3], "count": 3});
/// let page = page_object_in_style(answer, &PAGES, Some("limit"), "limit=2&offset=2", "/contacts")?;
/// assert_eq!(page.body, serde_json::json!({"contacts": [3], "count": 3}));
/// # Ok::<(), tidings_sandbox::server::ServerError>(())
/// ```
///
/// # Errors
/// As [`page_in_style`].
pub fn page_object_in_style(
    answer: serde_json::Value,
    spec: &tidings_runtime::spec::PaginationSpec,
    size_param: Option<&str>,
    query: &str,
    path: &str,
) -> Result<StyledPage, ServerError> {
    page_object_with_window(answer, spec, size_param, query, path).map(|(page, _)| page)
}

/// [`page_object_in_style`], and where the page sits in the list.
///
/// # Errors
/// As [`page_in_style`].
pub fn page_object_with_window(
    mut answer: serde_json::Value,
    spec: &tidings_runtime::spec::PaginationSpec,
    size_param: Option<&str>,
    query: &str,
    path: &str,
) -> Result<(StyledPage, PageWindow), ServerError> {
    let items = match take_path(&mut answer, spec.items) {
        Some(serde_json::Value::Array(items)) => items,
        _ => Vec::new(),
    };
    let (page, window) = styled_page(&items, spec, size_param, query, path)?;
    merge(&mut answer, page.body);
    mark_last_page(&mut answer, window.more);
    if let tidings_runtime::spec::PageStyle::Offset {
        offset_param,
        total_field: Some(total_field),
        ..
    } = spec.style
    {
        let offset = last_value(&query_pairs(query), offset_param)
            .and_then(whole_number)
            .unwrap_or(0);
        counts_of_page(&mut answer, spec.items, total_field, (offset_param, offset));
    }
    Ok((
        StyledPage {
            body: answer,
            link: page.link,
        },
        window,
    ))
}

/// Beside an offset page's declared total, its other counts are the page's (Rocket.Chat's
/// `count` beside `total`: the items answered, which a client adds to its offset), and a field
/// named as the offset parameter is the offset asked for; each where the answer has it (they
/// were the whole list's count, and made up).
fn counts_of_page(
    answer: &mut serde_json::Value,
    items: &str,
    total_field: &str,
    (offset_param, offset): (&str, usize),
) {
    let (holder_path, _) = items.rsplit_once('.').unwrap_or(("", items));
    let holder = holder_path
        .split('.')
        .filter(|p| !p.is_empty())
        .try_fold(&mut *answer, |at, part| at.get_mut(part));
    let Some(serde_json::Value::Object(holder)) = holder else {
        return;
    };
    let leaf = items.rsplit('.').next().unwrap_or(items);
    let on_page = holder
        .get(leaf)
        .and_then(|v| v.as_array())
        .map_or(0, Vec::len);
    let total_leaf = total_field.rsplit('.').next().unwrap_or(total_field);
    for (name, value) in holder.iter_mut() {
        if !value.is_number() || name == total_leaf {
            continue;
        }
        if name == "count" {
            *value = serde_json::Value::from(on_page);
        } else if name == offset_param {
            *value = serde_json::Value::from(offset);
        }
    }
}

/// Booleans a page may carry beside its style's own field, saying it is the last (Svix's
/// `done` beside its `iterator`) or that more follow.
const LAST_PAGE_FLAGS: &[&str] = &["done", "is_last", "isLast", "last_page", "lastPage"];
const MORE_FLAGS: &[&str] = &["has_more", "hasMore", "has_next", "hasNext", "more"];

/// Whether a yes/no field named `name` says whether another page follows (or none does).
pub(crate) fn is_page_flag(name: &str) -> bool {
    LAST_PAGE_FLAGS.contains(&name) || MORE_FLAGS.contains(&name)
}

/// Sets the answer's own yes/no fields that say whether it is the last page (made up until
/// now: a `done: false` on the last page sends a client that loops until `done` round forever),
/// at the top and in its objects one level down (Sunshine's `meta.hasMore`).
pub(crate) fn mark_last_page(answer: &mut serde_json::Value, more: bool) {
    mark_flags(answer, more, 1);
}

fn mark_flags(answer: &mut serde_json::Value, more: bool, depth: usize) {
    let Some(fields) = answer.as_object_mut() else {
        return;
    };
    for (name, value) in fields.iter_mut() {
        if value.is_object() && depth > 0 {
            mark_flags(value, more, depth - 1);
        }
        if !value.is_boolean() {
            continue;
        }
        if LAST_PAGE_FLAGS.contains(&name.as_str()) {
            *value = serde_json::Value::Bool(!more);
        } else if MORE_FLAGS.contains(&name.as_str()) {
            *value = serde_json::Value::Bool(more);
        }
    }
}

/// Takes the value at a dot path out of `body`.
fn take_path(body: &mut serde_json::Value, path: &str) -> Option<serde_json::Value> {
    let (parent, last) = match path.rsplit_once('.') {
        Some((parent, last)) => (
            parent
                .split('.')
                .try_fold(body, |node, key| node.get_mut(key))?,
            last,
        ),
        None => (body, path),
    };
    parent.as_object_mut()?.remove(last)
}

/// `from`'s fields written into `into`, objects merged key by key.
fn merge(into: &mut serde_json::Value, from: serde_json::Value) {
    match (into, from) {
        (serde_json::Value::Object(into), serde_json::Value::Object(from)) => {
            for (key, value) in from {
                match into.get_mut(&key) {
                    Some(existing) if existing.is_object() && value.is_object() => {
                        merge(existing, value);
                    }
                    _ => {
                        into.insert(key, value);
                    }
                }
            }
        }
        (into, from) => *into = from,
    }
}

/// Puts `value` at a dot path of `body`, making the objects on the way.
pub(crate) fn set_path(body: &mut serde_json::Value, path: &str, value: serde_json::Value) {
    let mut node = body;
    let mut keys = path.split('.').peekable();
    while let Some(key) = keys.next() {
        let serde_json::Value::Object(map) = node else {
            return;
        };
        if keys.peek().is_none() {
            map.insert(key.to_owned(), value);
            return;
        }
        node = map
            .entry(key.to_owned())
            .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
    }
}

#[cfg(test)]
mod style_tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;
    use tidings_runtime::spec::{PageStyle, PaginationSpec};

    static NEXT: PaginationSpec = PaginationSpec {
        items: "result",
        style: PageStyle::NextUrl {
            next_field: "_metadata.next",
        },
    };
    static LINK: PaginationSpec = PaginationSpec {
        items: "data",
        style: PageStyle::LinkHeader,
    };
    static OFFSET: PaginationSpec = PaginationSpec {
        items: "items",
        style: PageStyle::Offset {
            offset_param: "offset",
            limit_param: Some("count"),
            total_field: Some("total"),
        },
    };
    static PAGES: PaginationSpec = PaginationSpec {
        items: "items",
        style: PageStyle::Page {
            page_param: "page",
            size_param: Some("page_size"),
            first_page: 1,
            total_pages_field: Some("total_pages"),
        },
    };
    static CURSOR: PaginationSpec = PaginationSpec::cursor("data", "has_more", "id", "after");

    #[test]
    fn every_style_pages_and_links_to_the_next_page() {
        let items: Vec<u32> = (0..5).collect();
        let p = page_in_style(&items, &NEXT, Some("n"), "n=2", "/v3/lists").unwrap();
        assert_eq!(
            p.body,
            json!({"result": [0, 1], "_metadata": {"next": "/v3/lists?n=2&page_offset=2"}})
        );
        let p = page_in_style(&items, &NEXT, Some("n"), "n=2&page_offset=4", "/v3/lists").unwrap();
        assert_eq!(p.body, json!({"result": [4], "_metadata": {"next": null}}));
        let p = page_in_style(&items, &LINK, Some("n"), "n=3", "/v1/l").unwrap();
        assert_eq!(
            p.link.as_deref(),
            Some("</v1/l?n=3&page_offset=3>; rel=\"next\"")
        );
        let p = page_in_style(&items, &OFFSET, Some("count"), "count=2&offset=2", "/").unwrap();
        assert_eq!(p.body, json!({"items": [2, 3], "total": 5}));
        let p =
            page_in_style(&items, &PAGES, Some("page_size"), "page_size=2&page=3", "/").unwrap();
        assert_eq!(p.body, json!({"items": [4], "total_pages": 3}));
        let p =
            page_in_style(&items, &PAGES, Some("page_size"), "page_size=2&page=9", "/").unwrap();
        assert_eq!(p.body, json!({"items": [], "total_pages": 3}));
        let contacts = [json!({"id": "a"}), json!({"id": "b"}), json!({"id": "c"})];
        let p = page_in_style(&contacts, &CURSOR, Some("limit"), "limit=1&after=a", "/").unwrap();
        assert_eq!(p.body, json!({"data": [{"id": "b"}], "has_more": true}));
    }

    #[test]
    fn a_page_s_own_flags_say_whether_another_page_follows_in_every_style() {
        let items: Vec<u32> = (0..5).collect();
        // A made-up answer with the flags a page may carry beside its style's own fields.
        let made = |items_field: &str| {
            let mut answer = json!({"done": false, "is_last": true, "has_more": false});
            answer[items_field] = json!(items);
            answer
        };
        let cases = [
            (&OFFSET, "count", "count=2&offset=0", true),
            (&OFFSET, "count", "count=2&offset=4", false),
            (&PAGES, "page_size", "page_size=2&page=1", true),
            (&PAGES, "page_size", "page_size=2&page=3", false),
            (&NEXT, "n", "n=2", true),
            (&NEXT, "n", "n=2&page_offset=4", false),
        ];
        for (spec, size, query, more) in cases {
            let answer = made(spec.items);
            let p = page_object_in_style(answer, spec, Some(size), query, "/").unwrap();
            let flags = (&p.body["done"], &p.body["is_last"], &p.body["has_more"]);
            assert_eq!(
                flags,
                (&json!(!more), &json!(!more), &json!(more)),
                "{query}: {}",
                p.body
            );
        }
    }

    #[test]
    fn a_bare_array_is_the_page_itself() {
        static BARE: PaginationSpec = PaginationSpec {
            items: "",
            style: PageStyle::LinkHeader,
        };
        let items: Vec<u32> = (0..5).collect();
        let p = page_in_style(&items, &BARE, Some("limit"), "limit=2", "/v1/m").unwrap();
        assert_eq!(p.body, json!([0, 1]));
        assert_eq!(
            p.link.as_deref(),
            Some("</v1/m?limit=2&page_offset=2>; rel=\"next\"")
        );
        let p = page_in_style(
            &items,
            &BARE,
            Some("limit"),
            "limit=2&page_offset=4",
            "/v1/m",
        )
        .unwrap();
        assert_eq!((p.body, p.link), (json!([4]), None));
    }

    #[test]
    fn numbers_a_document_allows_read_as_the_nearest_page() {
        let items: Vec<u32> = (0..5).collect();
        // Page 0 of pages counted from 1, a negative offset, a whole float size.
        let p = page_in_style(&items, &PAGES, Some("size"), "page=0&size=2", "/").unwrap();
        assert_eq!(p.body["items"], json!([0, 1]));
        let p = page_in_style(&items, &OFFSET, Some("count"), "offset=-3&count=2.0", "/").unwrap();
        assert_eq!(p.body["items"], json!([0, 1]));
        let p = page_in_style(&items, &OFFSET, Some("count"), "count=2.5", "/").unwrap();
        assert_eq!(p.body["items"], json!([0, 1]), "its whole part");
    }

    #[test]
    fn bad_page_parameters_are_client_errors_naming_the_parameter() {
        let items: Vec<u32> = (0..5).collect();
        let e = page_in_style(&items, &OFFSET, None, "offset=x", "/").unwrap_err();
        assert_eq!(e.status(), 400);
        // An offset past the end skips every item: an empty page (Novu's `offset`, "Number of
        // items to skip"), not a 404 (was).
        let p = page_in_style(&items, &OFFSET, None, "offset=99", "/").unwrap();
        assert_eq!(p.body["items"], json!([]));
        let e = page_in_style(&items, &PAGES, None, "page=x", "/").unwrap_err();
        assert_eq!(e.status(), 400);
        let e = page_in_style(&[json!({"id": "a"})], &CURSOR, None, "after=zz", "/").unwrap_err();
        assert_eq!(e.status(), 404);
    }

    #[test]
    fn a_page_token_this_server_did_not_hand_out_names_no_page() {
        // Infobip's `cursor` is any text to its document: one never handed out is 404 (as an
        // unknown cursor), not 400.
        static TOKEN: PaginationSpec = PaginationSpec {
            items: "results",
            style: PageStyle::Token {
                token_field: "cursor.nextCursor",
                token_param: "cursor",
            },
        };
        let items: Vec<u32> = (0..5).collect();
        let e = page_in_style(&items, &TOKEN, None, "cursor=abc", "/").unwrap_err();
        assert_eq!(
            (e.status(), e.message()),
            (404, "the page of token `abc` does not exist")
        );
        let e = page_in_style(&items, &NEXT, None, "page_offset=zz", "/").unwrap_err();
        assert_eq!(e.status(), 404);
    }
}
