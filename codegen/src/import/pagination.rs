//! Pagination inference: the page style of a list operation read from the shapes its document
//! states (a next-page URL field; a token or cursor field and the query parameter it goes back
//! in; an offset parameter with a total; a page number parameter with a page count), written as
//! the operation's own `pagination:`. A style is written only when both its response field and
//! its query parameter are in the document; anything else is left to the `pagination` gap.

use std::collections::BTreeMap;

use super::yaml::Node;
use super::{Converter, FieldOut, OpOut, ParamOut, TypeOut};
use crate::names::snake;

/// Item arrays by name, most likely first, when a page has more than one list field.
pub(super) const ITEMS_NAMES: &[&str] = &[
    "data", "items", "results", "result", "records", "entries", "values", "elements",
];
/// Fields that hold the next page's URL wherever they sit.
const NEXT_URL_NAMES: &[&str] = &[
    "next_page_uri",
    "next_page_url",
    "next_url",
    "next_uri",
    "next_link",
    "next_page_link",
];
/// Objects whose `next` string is the next page's URL (SendGrid's `_metadata`, `links`).
const LINK_CONTAINERS: &[&str] = &["links", "metadata", "link"];
/// Objects whose `next` string is a URL only when its format says so, else a token.
const META_CONTAINERS: &[&str] = &[
    "meta",
    "pages",
    "pagination",
    "paging",
    "page_info",
    "response_metadata",
];
/// Fields that hold the next page's token or cursor wherever they sit.
const TOKEN_FIELDS: &[&str] = &[
    "next_page_token",
    "next_token",
    "next_cursor",
    "next_continuation_token",
    "continuation_token",
    "next_marker",
    "next_page_cursor",
    "after_cursor",
];
/// Query parameters that carry a token or cursor back, most likely first.
const TOKEN_PARAMS: &[&str] = &[
    "page_token",
    "cursor",
    "next_token",
    "continuation_token",
    "marker",
    "token",
    "page_cursor",
    "starting_after",
    "after",
    "iterator",
    "page_after",
];
/// Query parameters that ask for the items after a cursor item (cursor style; Sunshine's
/// deep-object `page[after]`).
const AFTER_PARAMS: &[&str] = &["starting_after", "after", "after_id", "page_after"];
/// Booleans saying whether more pages follow (cursor style).
const HAS_MORE_NAMES: &[&str] = &["has_more", "has_next", "has_next_page", "more"];
/// Query parameters with the page size.
const LIMIT_PARAMS: &[&str] = &[
    "page_size",
    "limit",
    "per_page",
    "count",
    "size",
    "max_results",
    "page_limit",
    // Azure's data-plane lists (`maxPageSize` beside `x-ms-pageable`'s `nextLink`; OData's
    // `$top`).
    "max_page_size",
    "maxpagesize",
    "top",
];
/// Query parameters with the size of a numbered page (page style on a bare array).
const SIZE_PARAMS: &[&str] = &["page_size", "per_page", "size", "limit", "count"];
/// Query parameters with the offset of the first item.
/// (Vonage's `record_index`: "return calls from this index".)
const OFFSET_PARAMS: &[&str] = &["offset", "skip", "record_index", "start_index"];
/// Totals of items (offset style).
const TOTAL_NAMES: &[&str] = &[
    "total",
    "total_count",
    "total_results",
    "total_items",
    "total_records",
    "total_size",
];
/// Query parameters with the page number.
/// (Vonage's `page_index`, and `index` described as the page index.)
const PAGE_PARAMS: &[&str] = &["page", "page_number", "page_num", "page_no", "page_index"];
/// Counts of pages (page style).
const TOTAL_PAGES_NAMES: &[&str] = &[
    "total_pages",
    "num_pages",
    "page_count",
    "pages",
    "last_page",
];
/// The page number echoed in a page (page style, when no page count is given).
const PAGE_ECHO_NAMES: &[&str] = &["page", "page_number", "current_page"];

/// A field reachable from a page type: its dot path, the name of the object holding it
/// (`None` at the top) and the field itself.
struct Reachable<'f> {
    path: String,
    container: Option<String>,
    field: &'f FieldOut,
}

/// What a list operation's response is, for the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    /// Not a list (a single item, no body, or not a GET).
    NotList,
    /// A bare array: nothing in the body can say where the next page is.
    Bare,
    /// An object with an item array.
    Page,
}

/// A name as the tables above write it (`nextPageToken` → `next_page_token`,
/// `_metadata` → `metadata`).
fn norm(name: &str) -> String {
    snake(name)
}

fn in_names(name: &str, names: &[&str]) -> bool {
    names.contains(&norm(name).as_str())
}

/// The first query parameter named like one of `names` (in the order of `names`).
fn param<'p>(query: &'p [ParamOut], names: &[&str]) -> Option<&'p ParamOut> {
    names
        .iter()
        .find_map(|n| query.iter().find(|p| norm(&p.wire) == *n))
}

fn is_number(ty: &str) -> bool {
    matches!(ty, "integer" | "number")
}

/// A page's own item array: its only list field, else the one named like items.
/// Whether a type is a list of plain values (text, numbers, booleans), not of records.
fn is_plain_list(ty: &str) -> bool {
    matches!(
        ty,
        "list<string>" | "list<integer>" | "list<number>" | "list<boolean>"
    )
}

fn direct_items(fields: &[FieldOut]) -> Option<&FieldOut> {
    let lists: Vec<&FieldOut> = fields
        .iter()
        .filter(|f| f.ty.starts_with("list<") && !f.wire.contains('.'))
        .collect();
    match lists.as_slice() {
        [one] => Some(one),
        [] => None,
        many => ITEMS_NAMES
            .iter()
            .find_map(|n| many.iter().find(|f| norm(&f.wire) == *n).copied())
            .or_else(|| {
                // Else the one list of named items beside lists of plain values (Zulip's
                // `messages` beside `ignored_parameters_unsupported: [string]`).
                let mut named = many.iter().filter(|f| !is_plain_list(&f.ty));
                let one = named.next()?;
                named.next().is_none().then_some(*one)
            }),
    }
}

impl Converter<'_> {
    fn object_fields(&self, ty: &str) -> Option<&Vec<FieldOut>> {
        match self.types.get(ty) {
            Some(TypeOut::Object { fields, .. }) => Some(fields),
            _ => None,
        }
    }

    /// The fields of an object type, or of the first object variant of an untagged union
    /// that has fields (Slack's `response_metadata`, one of two objects with
    /// `next_cursor`): a page's metadata read through a union.
    fn fields_within(&self, ty: &str) -> Option<&Vec<FieldOut>> {
        self.object_fields(ty).or_else(|| match self.types.get(ty) {
            Some(TypeOut::Union {
                untagged: true,
                variants,
                ..
            }) => variants
                .iter()
                .filter_map(|v| v.ty.as_deref())
                .find_map(|t| self.object_fields(t).filter(|fs| !fs.is_empty())),
            _ => None,
        })
    }

    /// The item array of a page type, with its dot path: its only list field, else the one
    /// named like items; without one, the list inside a HAL `_embedded` object (Vonage's
    /// `_embedded: {applications: [...]}`, or one object down) or inside the page the answer
    /// wraps.
    fn items_field<'s>(&'s self, fields: &'s [FieldOut]) -> Option<(String, &'s FieldOut)> {
        if let Some(f) = direct_items(fields) {
            return Some((f.wire.clone(), f));
        }
        let embedded = fields
            .iter()
            .find(|f| norm(&f.wire) == "embedded" && !f.wire.contains('.'));
        if let Some(embedded) = embedded {
            let within = self.object_fields(&embedded.ty)?;
            if let Some(inner) = direct_items(within) {
                return Some((format!("{}.{}", embedded.wire, inner.wire), inner));
            }
            // Or in the one object inside it (Vonage's conversations v2:
            // `_embedded: {data: {conversations: [...]}}`).
            let (wrapper, page) = self.wrapped_page(within)?;
            let inner = direct_items(page)?;
            return Some((
                format!("{}.{}.{}", embedded.wire, wrapper.wire, inner.wire),
                inner,
            ));
        }
        let (wrapper, page) = self.wrapped_page(fields)?;
        let inner = direct_items(page)?;
        Some((format!("{}.{}", wrapper.wire, inner.wire), inner))
    }

    /// The page an answer wraps in its one object field that holds a list of items (Novu's
    /// `{"data": {"data": [...], "next": "...", "totalCount": 3}}`), with that field.
    fn wrapped_page<'s>(
        &'s self,
        fields: &'s [FieldOut],
    ) -> Option<(&'s FieldOut, &'s [FieldOut])> {
        if direct_items(fields).is_some() {
            return None;
        }
        let mut pages = fields
            .iter()
            .filter(|f| !f.wire.contains('.') && norm(&f.wire) != "embedded")
            .filter_map(|f| {
                let inner = self.object_fields(&f.ty)?;
                direct_items(inner).map(|_| (f, inner.as_slice()))
            });
        let one = pages.next()?;
        pages.next().is_none().then_some(one)
    }

    /// The fields of a page type and of the objects it holds, one level down (a wire name
    /// with a dot cannot be part of a dot path, so it is not reachable). A page the answer
    /// wraps ([`Converter::wrapped_page`]) comes first, its fields read as a page's own.
    fn reachable<'s>(&'s self, fields: &'s [FieldOut]) -> Vec<Reachable<'s>> {
        let mut out = Vec::new();
        if let Some((wrapper, page)) = self.wrapped_page(fields) {
            self.reach_into(page, &format!("{}.", wrapper.wire), &mut out);
        }
        self.reach_into(fields, "", &mut out);
        out
    }

    fn reach_into<'s>(
        &'s self,
        fields: &'s [FieldOut],
        prefix: &str,
        out: &mut Vec<Reachable<'s>>,
    ) {
        for f in fields.iter().filter(|f| !f.wire.contains('.')) {
            out.push(Reachable {
                path: format!("{prefix}{}", f.wire),
                container: None,
                field: f,
            });
            if let Some(inner) = self.fields_within(&f.ty) {
                for g in inner.iter().filter(|g| !g.wire.contains('.')) {
                    out.push(Reachable {
                        path: format!("{prefix}{}.{}", f.wire, g.wire),
                        container: Some(norm(&f.wire)),
                        field: g,
                    });
                    // The next page's parameters as an object (Intercom's
                    // `pages.next.starting_after` with `?starting_after=`): in the same
                    // container.
                    let next = self
                        .fields_within(&g.ty)
                        .filter(|_| norm(&g.wire) == "next");
                    for h in next.into_iter().flatten().filter(|h| !h.wire.contains('.')) {
                        out.push(Reachable {
                            path: format!("{prefix}{}.{}.{}", f.wire, g.wire, h.wire),
                            container: Some(norm(&f.wire)),
                            field: h,
                        });
                    }
                }
            }
        }
    }

    /// Whether an operation lists items, and how.
    pub(crate) fn list_kind(&self, op: &OpOut) -> ListKind {
        let Some(response) = op.response.as_deref() else {
            return ListKind::NotList;
        };
        if op.method != "GET" {
            return ListKind::NotList;
        }
        if response.starts_with("page<") {
            return ListKind::Page;
        }
        if response.starts_with("list<") {
            return ListKind::Bare;
        }
        // An item with a list field (`/templates/{id}` and its versions) is not a list: a
        // page is addressed by a collection path, or says how to get the next one.
        let collection = !op
            .path
            .rsplit('/')
            .next()
            .is_some_and(|last| last.starts_with('{'));
        // One of several lists (an untagged union of arrays, Ably's `/channels`) is a list
        // no page style reads; the fidelity report counts it as unpaged, and so does this.
        if let Some(TypeOut::Union {
            untagged: true,
            variants,
            ..
        }) = self.types.get(response)
        {
            let all_lists = !variants.is_empty()
                && variants
                    .iter()
                    .all(|v| v.ty.as_deref().is_some_and(|t| t.starts_with("list<")));
            return if all_lists && collection {
                ListKind::Page
            } else {
                ListKind::NotList
            };
        }
        let Some(fields) = self.object_fields(response) else {
            return ListKind::NotList;
        };
        let Some((_, items)) = self.items_field(fields) else {
            return ListKind::NotList;
        };
        if self.infer_pagination(op).is_some() {
            return ListKind::Page;
        }
        // Unpaged, a list of plain values (a configuration's `filters: [string]`) is a field,
        // not a list of records, and so is a list inside one object field (Slack's
        // `team.profile.get`: `{profile: {fields: [...]}}`).
        if collection && !is_plain_list(&items.ty) && self.wrapped_page(fields).is_none() {
            ListKind::Page
        } else {
            ListKind::NotList
        }
    }

    /// Whether the operation's success answer documents a `Link` header (RFC 8288).
    fn documents_link_header(&self, op: &OpOut) -> bool {
        let Some(o) = super::document::resolve(self.doc, &format!("#{}", op.pointer)) else {
            return false;
        };
        o.get("responses")
            .and_then(serde_json::Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(code, _)| code.starts_with('2'))
            .filter_map(|(_, r)| super::document::deref(self.doc, r, "").map(|(r, _)| r))
            .any(|r| {
                r.get("headers")
                    .and_then(serde_json::Value::as_object)
                    .is_some_and(|h| h.keys().any(|k| k.eq_ignore_ascii_case("link")))
            })
    }

    /// The operation's own `pagination:` when its document says how it pages, with the style.
    /// How a list operation pages ([`Converter::infer_pagination`]), with the parameters its
    /// answer's next page names added where it declares none ([`Converter::paged_by_undeclared`]).
    pub(crate) fn pagination_of(
        &mut self,
        op: &mut OpOut,
        ptr: &str,
    ) -> Option<(&'static str, Node)> {
        self.infer_pagination(op)
            .or_else(|| self.paged_by_undeclared(op, ptr))
    }

    /// The pages of a list whose answer names the parameters of its next page (Intercom's
    /// `pages.next: {per_page, starting_after}`) where the operation declares none of them:
    /// those parameters added as optional query parameters (a token named as one, and a page
    /// size beside it), and reported. Without them every contact came on one page.
    fn paged_by_undeclared(&mut self, op: &mut OpOut, ptr: &str) -> Option<(&'static str, Node)> {
        let added = self.undeclared_page_params(op);
        if added.is_empty() {
            return None;
        }
        let names: Vec<String> = added.iter().map(|p| p.wire.clone()).collect();
        let before = op.query.len();
        op.query.extend(added);
        let Some(found) = self.infer_pagination(op) else {
            op.query.truncate(before);
            return None;
        };
        self.report.inferred.push(super::report::Finding {
            pointer: ptr.to_owned(),
            reason: format!(
                "query parameter(s) `{}` that the answer's next page names, not declared by the operation: added (optional)",
                names.join("`, `")
            ),
            detail: None,
        });
        Some(found)
    }

    /// The token and page size fields of a `next` object the answer holds, as query
    /// parameters the operation does not declare (see [`Converter::paged_by_undeclared`]).
    fn undeclared_page_params(&self, op: &OpOut) -> Vec<ParamOut> {
        let Some(fields) = (op.method == "GET")
            .then_some(op.response.as_deref())
            .flatten()
            .and_then(|r| self.object_fields(r))
        else {
            return Vec::new();
        };
        let declared = |wire: &str| op.query.iter().any(|p| norm(&p.wire) == norm(wire));
        let in_next = |r: &&Reachable<'_>| r.path.rsplit('.').nth(1) == Some("next");
        let reach = self.reachable(fields);
        let token = reach
            .iter()
            .filter(in_next)
            .find(|r| r.field.ty == "string" && in_names(&r.field.wire, TOKEN_PARAMS));
        let Some(token) = token.filter(|t| !declared(&t.field.wire)) else {
            return Vec::new();
        };
        let mut added = vec![ParamOut::new(token.field.wire.clone(), "string".to_owned())];
        let size = reach
            .iter()
            .filter(in_next)
            .find(|r| is_number(&r.field.ty) && in_names(&r.field.wire, LIMIT_PARAMS));
        if let Some(size) = size.filter(|s| !declared(&s.field.wire)) {
            added.push(ParamOut::new(size.field.wire.clone(), "integer".to_owned()));
        }
        added
    }

    pub(crate) fn infer_pagination(&self, op: &OpOut) -> Option<(&'static str, Node)> {
        if op.method != "GET" {
            return None;
        }
        let response = op.response.as_deref()?;
        if response.starts_with("list<") {
            return self.bare_pagination(op);
        }
        let fields = self.object_fields(response)?;
        let (items_path, items) = self.items_field(fields)?;
        let reach = self.reachable(fields);
        let limit = param(&op.query, LIMIT_PARAMS);
        let mut keys: Vec<(&str, Node)> = Vec::new();
        let style = if let Some(next) = next_url(&reach, self) {
            keys.push(("next_field", Node::str(next)));
            if let Some(l) = limit {
                keys.push(("limit_param", Node::str(&l.wire)));
            }
            "next_url"
        } else if let Some((field, p)) = token(&reach, &op.query) {
            keys.push(("token_field", Node::str(field)));
            keys.push(("token_param", Node::str(&p.wire)));
            if let Some(l) = limit {
                keys.push(("limit_param", Node::str(&l.wire)));
            }
            "token"
        } else if let Some((has_more, after, l, cursor)) = self.cursor(&reach, items, &op.query) {
            keys.push(("has_more_field", Node::str(has_more)));
            keys.push(("cursor_field", Node::str(cursor)));
            keys.push(("after_param", Node::str(&after.wire)));
            keys.push(("limit_param", Node::str(&l.wire)));
            "cursor"
        } else if let Some((offset, limit, total)) = offset(&reach, &op.query) {
            keys.push(("offset_param", Node::str(&offset.wire)));
            if let Some(l) = limit {
                keys.push(("limit_param", Node::str(&l.wire)));
            }
            if let Some(total) = total {
                keys.push(("total_field", Node::str(total)));
            }
            "offset"
        } else if let Some((page, total_pages)) = page(&reach, &op.query) {
            keys.push(("page_param", Node::str(&page.wire)));
            let size = param(&op.query, SIZE_PARAMS).filter(|s| s.wire != page.wire);
            if let Some(l) = size.or(limit) {
                keys.push(("size_param", Node::str(&l.wire)));
            }
            if counts_from_zero(page) {
                keys.push(("first_page", Node::Int(0)));
            }
            if let Some(t) = total_pages {
                keys.push(("total_pages_field", Node::str(t)));
            }
            "page"
        } else if self.documents_link_header(op) {
            if let Some(l) = limit {
                keys.push(("limit_param", Node::str(&l.wire)));
            }
            "link_header"
        } else if let Some(next) = unpaired_next(&reach) {
            // A `next` string in a page metadata object that no query parameter takes back
            // cannot be a token: the only way to use it is as the next page's URL.
            keys.push(("next_field", Node::str(next)));
            if let Some(l) = limit {
                keys.push(("limit_param", Node::str(&l.wire)));
            }
            "next_url"
        } else {
            return None;
        };
        let mut node = Node::map();
        node.set("style", Node::str(style));
        node.set("items_field", Node::str(&items_path));
        for (k, v) in keys {
            node.set(k, v);
        }
        self.provenance(&mut node, &op.pointer);
        Some((style, node))
    }

    /// The `pagination:` of a list answered as a bare array: the `Link` header when the
    /// answer documents one, else an offset and a page size (a page shorter than asked for,
    /// or empty, is the last), else a page number and a page size.
    fn bare_pagination(&self, op: &OpOut) -> Option<(&'static str, Node)> {
        let limit = param(&op.query, LIMIT_PARAMS);
        let mut keys: Vec<(&str, Node)> = Vec::new();
        let style = if self.documents_link_header(op) {
            if let Some(l) = limit {
                keys.push(("limit_param", Node::str(&l.wire)));
            }
            "link_header"
        } else if let Some((offset, Some(l), _)) = offset(&[], &op.query) {
            keys.push(("offset_param", Node::str(&offset.wire)));
            keys.push(("limit_param", Node::str(&l.wire)));
            "offset"
        } else if let Some(p) = param(&op.query, PAGE_PARAMS).filter(|p| is_number(&p.ty))
            && let Some(size) = param(&op.query, SIZE_PARAMS).filter(|s| s.wire != p.wire)
        {
            keys.push(("page_param", Node::str(&p.wire)));
            keys.push(("size_param", Node::str(&size.wire)));
            if counts_from_zero(p) {
                keys.push(("first_page", Node::Int(0)));
            }
            "page"
        } else {
            return None;
        };
        let mut node = Node::map();
        node.set("style", Node::str(style));
        node.set("items_field", Node::str(""));
        for (k, v) in keys {
            node.set(k, v);
        }
        self.provenance(&mut node, &op.pointer);
        Some((style, node))
    }

    /// Cursor style: a `has_more` boolean, an after-cursor parameter, a page size parameter
    /// and items with an `id` (the cursor); all four must be there.
    fn cursor<'r, 'q>(
        &self,
        reach: &'r [Reachable<'_>],
        items: &FieldOut,
        query: &'q [ParamOut],
    ) -> Option<(&'r str, &'q ParamOut, &'q ParamOut, &'static str)> {
        let has_more = reach
            .iter()
            .find(|r| r.field.ty == "boolean" && in_names(&r.field.wire, HAS_MORE_NAMES))?;
        let after = param(query, AFTER_PARAMS)?;
        let limit = param(query, LIMIT_PARAMS)?;
        let item = items.ty.strip_prefix("list<")?.strip_suffix('>')?;
        let has_id = self
            .object_fields(item)?
            .iter()
            .any(|f| f.wire == "id" && f.ty == "string");
        has_id.then_some((has_more.path.as_str(), after, limit, "id"))
    }
}

/// The next page's URL: a field named for it, `next` in a links object, a `next` object's
/// `href` there, a `next` string whose format is `uri`, or a `next` string beside a `first` or
/// `last` string (Mailgun's `paging`: links to the ends travel with URLs, not tokens).
fn next_url(reach: &[Reachable<'_>], conv: &Converter<'_>) -> Option<String> {
    for r in reach {
        let name = norm(&r.field.wire);
        if r.field.ty == "string" && NEXT_URL_NAMES.contains(&name.as_str()) {
            return Some(r.path.clone());
        }
        if name != "next" {
            continue;
        }
        let in_links = r
            .container
            .as_deref()
            .is_some_and(|c| LINK_CONTAINERS.contains(&c));
        let beside_ends = r.container.is_some()
            && !says_token(r.field)
            && reach.iter().any(|s| {
                s.container == r.container
                    && s.field.ty == "string"
                    && matches!(norm(&s.field.wire).as_str(), "first" | "last")
            });
        if r.field.ty == "string"
            && (in_links || beside_ends || r.field.format == Some("uri") || says_link(r.field))
        {
            return Some(r.path.clone());
        }
        // HAL: `_links.next.href`.
        if in_links
            && let Some(inner) = conv.object_fields(&r.field.ty)
            && inner.iter().any(|f| f.wire == "href" && f.ty == "string")
        {
            return Some(format!("{}.href", r.path));
        }
    }
    None
}

/// Whether a field's description calls it a token or cursor (and not a URL or link).
fn says_token(field: &FieldOut) -> bool {
    field.doc.as_deref().is_some_and(|d| {
        let d = d.to_ascii_lowercase();
        (d.contains("token") || d.contains("cursor"))
            && !(d.contains("url") || d.contains("uri") || d.contains("link"))
    })
}

/// Whether a field's description calls it a link or URL (Front's `_pagination.next`, "Link to
/// next page of results"), and not a token, a cursor or an opaque value (one "added to the
/// request URL as `after`" is a token).
fn says_link(field: &FieldOut) -> bool {
    field.doc.as_deref().is_some_and(|d| {
        let d = d.to_ascii_lowercase();
        (d.contains("link") || d.contains("url") || d.contains("uri"))
            && !["token", "cursor", "opaque", "value"]
                .iter()
                .any(|w| d.contains(w))
    })
}

/// A `next` string in a page metadata object (`paging.next`, `meta.next`), for when no query
/// parameter could carry it back as a token.
fn unpaired_next<'r>(reach: &'r [Reachable<'_>]) -> Option<&'r str> {
    reach
        .iter()
        .find(|r| {
            r.field.ty == "string"
                && norm(&r.field.wire) == "next"
                && !says_token(r.field)
                && r.container
                    .as_deref()
                    .is_some_and(|c| META_CONTAINERS.contains(&c))
        })
        .map(|r| r.path.as_str())
}

/// A token field and the query parameter it goes back in; both must be there. A field
/// `next_<param>` pairs with `<param>` first; else a field named as the token parameter it
/// goes back in (Knock's `page_info.after` with `?after=`, Svix's `iterator`).
fn token<'r, 'q>(
    reach: &'r [Reachable<'_>],
    query: &'q [ParamOut],
) -> Option<(&'r str, &'q ParamOut)> {
    named_token(reach, query).or_else(|| same_named_token(reach, query))
}

/// A text field named as a token query parameter, beside the items or in a page metadata
/// object (see [`token`]): Svix's `iterator` with `?iterator=`.
fn same_named_token<'r, 'q>(
    reach: &'r [Reachable<'_>],
    query: &'q [ParamOut],
) -> Option<(&'r str, &'q ParamOut)> {
    reach.iter().find_map(|r| {
        let placed = r
            .container
            .as_deref()
            .is_none_or(|c| META_CONTAINERS.contains(&c));
        if r.field.ty != "string" || !placed || !in_names(&r.field.wire, TOKEN_PARAMS) {
            return None;
        }
        let p = query
            .iter()
            .find(|p| norm(&p.wire) == norm(&r.field.wire))?;
        Some((r.path.as_str(), p))
    })
}

/// A token field named as one (`next_cursor`), or a `next` that a page metadata object holds
/// or its description calls a token, and the query parameter it goes back in.
fn named_token<'r, 'q>(
    reach: &'r [Reachable<'_>],
    query: &'q [ParamOut],
) -> Option<(&'r str, &'q ParamOut)> {
    // A `next` in a page metadata object, or one its description calls a cursor or token
    // (Novu's "The cursor for the next page of results"), or one beside the items, said to
    // be no link, where the operation takes a token back (Sendbird's `next` with `?token=`).
    let beside_with_token = |r: &Reachable<'_>| {
        r.container.is_none()
            && !says_link(r.field)
            && r.field.format.is_none_or(|f| f != "uri" && f != "url")
            && param(query, TOKEN_PARAMS).is_some()
    };
    let field = reach.iter().find(|r| {
        r.field.ty == "string"
            && (in_names(&r.field.wire, TOKEN_FIELDS)
                || (norm(&r.field.wire) == "next"
                    && (says_token(r.field)
                        || beside_with_token(r)
                        || r.container
                            .as_deref()
                            .is_some_and(|c| META_CONTAINERS.contains(&c)))))
    })?;
    let name = norm(&field.field.wire);
    // `next_<param>` goes back in `<param>`; `<x>_cursor` in the parameter whose last word is
    // `<x>` (Sunshine's `meta.afterCursor` in `page[after]`).
    let paired = name
        .strip_prefix("next_")
        .and_then(|rest| query.iter().find(|p| norm(&p.wire) == rest))
        .or_else(|| {
            let x = name.strip_suffix("_cursor")?;
            query.iter().find(|p| {
                let wire = norm(&p.wire);
                wire == x || wire.ends_with(&format!("_{x}"))
            })
        });
    let p = paired.or_else(|| param(query, TOKEN_PARAMS))?;
    Some((field.path.as_str(), p))
}

/// An offset parameter with a page size parameter, a total of items, or both (the total
/// under a name of its own at the top or in a metadata object, or `count` in a metadata
/// object: a `count` beside the items may be the page's own). Without a total, a page
/// shorter than the size asked for, or empty, is the last.
fn offset<'r, 'q>(
    reach: &'r [Reachable<'_>],
    query: &'q [ParamOut],
) -> Option<(&'q ParamOut, Option<&'q ParamOut>, Option<&'r str>)> {
    let p = param(query, OFFSET_PARAMS)?;
    // A count beside an offset, even typed as text (Mailgun's `limit` and `skip`, strings
    // "Defaults to 100"): left out, the list paged by the sandbox's own size, and a client
    // stepping the offset by its limit got pages that overlapped.
    let limit = param(query, LIMIT_PARAMS)
        .filter(|l| l.wire != p.wire && (is_number(&l.ty) || l.ty == "string"));
    let total = reach.iter().find(|r| {
        let in_meta = r.container.as_deref().is_some_and(|c| {
            META_CONTAINERS.contains(&c) || LINK_CONTAINERS.contains(&c) || c == "metadata"
        });
        is_number(&r.field.ty)
            && (in_names(&r.field.wire, TOTAL_NAMES)
                || (in_meta && in_names(&r.field.wire, &["count", "total_count"])))
    });
    if limit.is_none() && total.is_none() {
        return None;
    }
    Some((p, limit, total.map(|t| t.path.as_str())))
}

/// A page number parameter, with a page count (or the page number echoed) in the page, or a
/// page size parameter beside it (SendGrid's contact lists: `page` and `page_size`; then a
/// page shorter than the size asked for, or empty, is the last).
fn page<'r, 'q>(
    reach: &'r [Reachable<'_>],
    query: &'q [ParamOut],
) -> Option<(&'q ParamOut, Option<&'r str>)> {
    let p = param(query, PAGE_PARAMS)
        .or_else(|| {
            // `index` alone is too common a name: a page number only when described as one.
            query.iter().find(|p| {
                norm(&p.wire) == "index"
                    && p.doc
                        .as_deref()
                        .is_some_and(|d| d.to_ascii_lowercase().starts_with("page index"))
            })
        })
        .filter(|p| is_number(&p.ty))?;
    let numbers = || reach.iter().filter(|r| is_number(&r.field.ty));
    if let Some(t) = numbers().find(|r| in_names(&r.field.wire, TOTAL_PAGES_NAMES)) {
        return Some((p, Some(t.path.as_str())));
    }
    let echoed = numbers().any(|r| in_names(&r.field.wire, PAGE_ECHO_NAMES));
    let sized = param(query, SIZE_PARAMS).is_some_and(|s| s.wire != p.wire && is_number(&s.ty));
    (echoed || sized).then_some((p, None))
}

/// List operations of an import and the pagination styles inferred for them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PaginationCounts {
    /// GET operations answering an object with an item array (or our own `page<T>`).
    pub page_lists: usize,
    /// GET operations answering a bare array (no field can say where the next page is).
    pub bare_lists: usize,
    /// Operations that got a `pagination` section, by style.
    pub by_style: BTreeMap<&'static str, usize>,
}

impl PaginationCounts {
    /// Operations that got a `pagination` section.
    pub fn paginated(&self) -> usize {
        self.by_style.values().sum()
    }
}

/// Whether a page parameter counts pages from 0: it may be 0 or is 0 unless given (Twilio's
/// `Page`, Vonage's `page_index`), or its description says so (Sinch's "The page number
/// starting from 0.").
fn counts_from_zero(page: &ParamOut) -> bool {
    if page.min == Some(0.0)
        || page.default.as_ref().and_then(serde_json::Value::as_f64) == Some(0.0)
    {
        return true;
    }
    let doc = page.doc.as_deref().unwrap_or_default().to_ascii_lowercase();
    let words: Vec<&str> = doc
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    let from_zero = words.windows(3).any(|w| {
        matches!(
            w[0],
            "starting" | "starts" | "start" | "begins" | "beginning"
        ) && matches!(w[1], "from" | "at" | "with")
            && matches!(w[2], "0" | "zero")
    });
    from_zero
        || words
            .iter()
            .any(|w| matches!(*w, "zero-based" | "0-based" | "zero-indexed" | "0-indexed"))
}
