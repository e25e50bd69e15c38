//! How a list operation pages.

use crate::storage::opt_text;
use crate::{Intern, Static, Storage, ToStatic};

/// How a list operation pages: where its items live and how the next page is found.
///
/// ```
/// use tidings_spec::{PaginationSpec, PageStyle};
///
/// // Twilio-like: the items under `messages`, the next page's URL under `next_page_uri`.
/// static MESSAGES: PaginationSpec =
///     PaginationSpec { items: "messages", style: PageStyle::NextUrl { next_field: "next_page_uri" } };
/// // Today's cursor style: `after=<id of the last item>` while `has_more` is true.
/// static EMAILS: PaginationSpec = PaginationSpec::cursor("data", "has_more", "id", "after");
/// assert_eq!(EMAILS.items, "data");
/// # let _ = MESSAGES;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaginationSpec {
    /// Dot path of the page's item array, e.g. `"data"` or `"result.items"`; empty when the
    /// page is the array itself (a bare array paged by the `Link` header).
    pub items: &'static str,
    /// How the next page is found.
    pub style: PageStyle,
}

impl PaginationSpec {
    /// The cursor style: `after_param=<cursor_field of the last item>` while `has_more` is true.
    pub const fn cursor(
        items: &'static str,
        has_more: &'static str,
        cursor_field: &'static str,
        after_param: &'static str,
    ) -> Self {
        PaginationSpec {
            items,
            style: PageStyle::Cursor {
                has_more,
                cursor_field,
                after_param,
            },
        }
    }
}

/// How the next page of a list is found. Every field that names a place in the page body is a
/// dot path (`meta.next_page_token`, `_metadata.next`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PageStyle<S: Storage = Static> {
    /// `after_param=<cursor_field of the last item>` while the boolean `has_more` is true.
    Cursor {
        /// Boolean field saying whether more pages follow, e.g. `"has_more"`.
        has_more: S::Str,
        /// Field of an item used as the next cursor, e.g. `"id"`.
        cursor_field: S::Str,
        /// Query parameter carrying the cursor, e.g. `"after"`.
        after_param: S::Str,
    },
    /// `token_param=<token_field>` until the token is absent, `null` or empty.
    Token {
        /// Where the next page's token is, e.g. `"meta.next_page_token"`.
        token_field: S::Str,
        /// Query parameter carrying it, e.g. `"PageToken"`.
        token_param: S::Str,
    },
    /// A GET of the URL at `next_field` (relative to the base URL, or absolute on the base
    /// URL's origin) until it is absent, `null` or empty.
    NextUrl {
        /// Where the next page's URL is, e.g. `"next_page_uri"` or `"_metadata.next"`.
        next_field: S::Str,
    },
    /// A GET of the `Link: <...>; rel="next"` header's URL (RFC 8288) until there is none.
    LinkHeader,
    /// `offset_param=<items so far>` until a page is empty or the total is reached.
    Offset {
        /// Query parameter with the offset of the first item, e.g. `"offset"`.
        offset_param: S::Str,
        /// Query parameter with the page size, e.g. `"count"`; a page shorter than the size
        /// the request asked for is the last.
        limit_param: Option<S::Str>,
        /// Where the total number of items is, e.g. `"total"`.
        total_field: Option<S::Str>,
    },
    /// `page_param=<n>` counting from `first_page` until a page is empty or short, or the
    /// last page by `total_pages_field` was read.
    Page {
        /// Query parameter with the page number, e.g. `"page"`.
        page_param: S::Str,
        /// Query parameter with the page size, e.g. `"page_size"`.
        size_param: Option<S::Str>,
        /// Number of the first page: 0 or 1.
        first_page: u64,
        /// Where the number of pages is, e.g. `"total_pages"`.
        total_pages_field: Option<S::Str>,
    },
}

impl Copy for PageStyle<Static> {}

impl<S: Storage> PageStyle<S> {
    /// The style's kind, as a spec names it.
    pub fn kind(&self) -> PageKind {
        match self {
            PageStyle::Cursor { .. } => PageKind::Cursor,
            PageStyle::Token { .. } => PageKind::Token,
            PageStyle::NextUrl { .. } => PageKind::NextUrl,
            PageStyle::LinkHeader => PageKind::LinkHeader,
            PageStyle::Offset { .. } => PageKind::Offset,
            PageStyle::Page { .. } => PageKind::Page,
        }
    }

    /// The style's name in a spec (`next_url`).
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }
}

/// The pagination styles a spec names (`style: next_url`): which fields of the pagination
/// section it reads (the style with those fields is a `PageStyle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "PageStyle"))]
pub enum PageKind {
    /// `after=<cursor field of the last item>` while `has_more` is true.
    Cursor,
    /// A token at a path in the body, sent back as a query parameter.
    Token,
    /// The next page's URL at a path in the body.
    NextUrl,
    /// The next page's URL in a `Link: <...>; rel="next"` header.
    LinkHeader,
    /// `offset`/`limit` with a total count.
    Offset,
    /// Page numbers.
    Page,
}

impl PageKind {
    /// The name written in a spec (`link_header`).
    pub const fn name(self) -> &'static str {
        match self {
            PageKind::Cursor => "cursor",
            PageKind::Token => "token",
            PageKind::NextUrl => "next_url",
            PageKind::LinkHeader => "link_header",
            PageKind::Offset => "offset",
            PageKind::Page => "page",
        }
    }
}

impl<S: Storage> ToStatic for PageStyle<S> {
    type Static = PageStyle;

    fn to_static(&self, intern: &mut impl Intern) -> PageStyle {
        match self {
            PageStyle::Cursor {
                has_more,
                cursor_field,
                after_param,
            } => PageStyle::Cursor {
                has_more: intern.text(has_more.as_ref()),
                cursor_field: intern.text(cursor_field.as_ref()),
                after_param: intern.text(after_param.as_ref()),
            },
            PageStyle::Token {
                token_field,
                token_param,
            } => PageStyle::Token {
                token_field: intern.text(token_field.as_ref()),
                token_param: intern.text(token_param.as_ref()),
            },
            PageStyle::NextUrl { next_field } => PageStyle::NextUrl {
                next_field: intern.text(next_field.as_ref()),
            },
            PageStyle::LinkHeader => PageStyle::LinkHeader,
            PageStyle::Offset {
                offset_param,
                limit_param,
                total_field,
            } => PageStyle::Offset {
                offset_param: intern.text(offset_param.as_ref()),
                limit_param: opt_text(limit_param.as_ref(), intern),
                total_field: opt_text(total_field.as_ref(), intern),
            },
            PageStyle::Page {
                page_param,
                size_param,
                first_page,
                total_pages_field,
            } => PageStyle::Page {
                page_param: intern.text(page_param.as_ref()),
                size_param: opt_text(size_param.as_ref(), intern),
                first_page: *first_page,
                total_pages_field: opt_text(total_pages_field.as_ref(), intern),
            },
        }
    }
}
