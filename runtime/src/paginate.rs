//! Pagination in every style a spec can declare ([`PageStyle`]): [`paginate`] turns a list
//! operation into a stream of items, and [`Page`] is one page with what fetches the next
//! ([`NextPage`]). A stream is bounded: a page limit, and a next link that repeats or leaves the
//! base URL's origin (it would carry the credentials elsewhere) ends it with an error.

use std::collections::{HashSet, VecDeque};
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;
use reqwest::header::{HeaderMap, LINK};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::Error;
use crate::client::Client;
use crate::error::{DecodeError, excerpt};
use crate::request::Request;
use crate::spec::{PageStyle, PaginationSpec};

/// Pages a stream fetches at most, unless [`ItemStream::max_pages`] says otherwise.
pub const DEFAULT_MAX_PAGES: u32 = 10_000;

/// Links read from the `Link` headers of one answer, at most.
const MAX_LINKS: usize = 64;

/// What fetches the next page of a list, as the page's style says.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum NextPage {
    /// The cursor to send as the `after` parameter.
    Cursor(String),
    /// The page token to send.
    Token(String),
    /// The next page's URL (as the server gave it: relative or absolute).
    Url(String),
    /// The offset of the next page's first item.
    Offset(u64),
    /// The next page's number.
    Page(u64),
}

/// One page of a list: its items and, when another page follows, how to fetch it
/// ([`Request::with_next_page`]). What a paginated operation returns when its style is not the
/// service's plain cursor page.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Page<T> {
    /// The items of this page.
    pub items: Vec<T>,
    /// How to fetch the next page; `None` on the last page.
    pub next: Option<NextPage>,
}

/// Streams every item of every page.
///
/// Each page is fetched with [`Client::execute`] (so retries, rate limiting and timeouts apply
/// per page). The stream ends after the last page or after the first error. A server that
/// repeats a cursor, token, offset or link, says `has_more` without a cursor, points the next
/// link at another origin, or gives more than [`DEFAULT_MAX_PAGES`] pages, ends the stream with
/// an [`Error::Decode`] instead of looping.
///
/// ```no_run
/// # use tidings_runtime::*;
/// # use tidings_runtime::spec::*;
/// # static LIST: OperationSpec = OperationSpec::get("list_emails", "/v1/emails");
/// static PAGES: PaginationSpec = PaginationSpec::cursor("data", "has_more", "id", "after");
/// # async fn demo(client: Client) -> Result<(), Error> {
/// use futures_util::StreamExt;
/// let mut items = paginate::<serde_json::Value>(client, tidings_runtime::Request::new(&LIST), &PAGES);
/// while let Some(item) = items.next().await {
///     println!("{}", item?);
/// }
/// # Ok(()) }
/// ```
pub fn paginate<T: DeserializeOwned + Send + 'static>(
    client: Client,
    request: impl Into<Result<Request, Error>>,
    spec: &'static PaginationSpec,
) -> ItemStream<T> {
    ItemStream {
        inner: Inner::NotStarted(Some((client, request.into(), spec))),
        max_pages: DEFAULT_MAX_PAGES,
    }
}

/// The stream itself, made on the first poll: so its code (generic in `T`) is compiled where a
/// stream is read, not where one is only made (in every generated list method).
fn start<T: DeserializeOwned + Send + 'static>(
    client: Client,
    request: Result<Request, Error>,
    spec: &'static PaginationSpec,
    max_pages: u32,
) -> Pin<Box<dyn Stream<Item = Result<T, Error>> + Send>> {
    // A request that could not be prepared (its query did not serialise) is the stream's only item.
    let (request, next) = match request {
        Ok(request) => (Some(request), Next::Fetch(None)),
        Err(err) => (None, Next::Fail(err)),
    };
    let state = State {
        client,
        request,
        spec,
        buffered: VecDeque::new(),
        next,
        seen: HashSet::new(),
        pages: 0,
        max_pages,
    };
    let stream = futures_util::stream::unfold(state, |mut state| async move {
        loop {
            if let Some(item) = state.buffered.pop_front() {
                return Some((Ok(item), state));
            }
            let next = match std::mem::replace(&mut state.next, Next::Done) {
                Next::Done => return None,
                Next::Fail(err) => return Some((Err(err), state)),
                Next::Fetch(next) => next,
            };
            if state.pages >= state.max_pages {
                let err = Error::decode(
                    format!(
                        "stopped after {} pages, the stream's page limit (ItemStream::max_pages)",
                        state.pages
                    ),
                    b"",
                );
                return Some((Err(err), state));
            }
            state.pages += 1;
            let mut request = state.request.clone()?;
            if let Some(next) = &next {
                request = match request.with_next_page(state.spec, next, state.client.base_url()) {
                    Ok(request) => request,
                    Err(err) => return Some((Err(err), state)),
                };
            }
            match fetch_page::<T>(&state.client, &request, state.spec).await {
                Err(err) => return Some((Err(err), state)),
                Ok(page) => {
                    state.buffered = page.items;
                    state.next = match (page.failure, page.next) {
                        (Some(err), _) => Next::Fail(err),
                        (None, None) => Next::Done,
                        (None, Some(next)) => {
                            if state.seen.insert(next.clone()) {
                                Next::Fetch(Some(next))
                            } else {
                                Next::Fail(Error::decode(
                                    format!("server repeated the next page ({next:?})"),
                                    &page.raw_excerpt,
                                ))
                            }
                        }
                    };
                }
            }
        }
    });
    Box::pin(stream)
}

/// The items of every page of a list, fetched page by page as the stream is read: what
/// [`paginate`] and the generated `<operation>_stream` methods return.
///
/// A named type (rather than `impl Stream`) so it can be stored in a struct field; it is
/// `Unpin`, so `StreamExt::next` works on it directly.
pub struct ItemStream<T> {
    inner: Inner<T>,
    max_pages: u32,
}

impl<T> ItemStream<T> {
    /// The same stream, fetching at most `pages` pages (default [`DEFAULT_MAX_PAGES`]); one
    /// more page ends the stream with an [`Error::Decode`]. Only before the first poll.
    #[must_use]
    pub fn max_pages(mut self, pages: u32) -> Self {
        self.max_pages = pages;
        self
    }
}

/// What the stream needs before its first poll; the stream after it.
type Start = (Client, Result<Request, Error>, &'static PaginationSpec);

enum Inner<T> {
    NotStarted(Option<Start>),
    Running(Pin<Box<dyn Stream<Item = Result<T, Error>> + Send>>),
}

impl<T: DeserializeOwned + Send + 'static> Stream for ItemStream<T> {
    type Item = Result<T, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Inner::NotStarted(args) = &mut self.inner {
            let Some((client, request, spec)) = args.take() else {
                return Poll::Ready(None);
            };
            let max_pages = self.max_pages;
            self.inner = Inner::Running(start(client, request, spec, max_pages));
        }
        match &mut self.inner {
            Inner::Running(stream) => stream.as_mut().poll_next(cx),
            Inner::NotStarted(_) => Poll::Ready(None),
        }
    }
}

impl<T> std::fmt::Debug for ItemStream<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ItemStream").finish_non_exhaustive()
    }
}

impl Client {
    /// [`paginate`] with this client: every item of every page of the list `request` asks
    /// for. A request that could not be prepared (`Err`) is the stream's only item.
    pub fn paginate<T: DeserializeOwned + Send + 'static>(
        &self,
        request: impl Into<Result<Request, Error>>,
        spec: &'static PaginationSpec,
    ) -> ItemStream<T> {
        paginate(self.clone(), request, spec)
    }
}

struct State<T> {
    client: Client,
    request: Option<Request>,
    spec: &'static PaginationSpec,
    buffered: VecDeque<T>,
    next: Next,
    seen: HashSet<NextPage>,
    pages: u32,
    max_pages: u32,
}

enum Next {
    Fetch(Option<NextPage>),
    Fail(Error),
    Done,
}

struct FetchedPage<T> {
    items: VecDeque<T>,
    /// An item that failed to decode; the items before it are still delivered.
    failure: Option<Error>,
    next: Option<NextPage>,
    raw_excerpt: Vec<u8>,
}

async fn fetch_page<T: DeserializeOwned>(
    client: &Client,
    request: &Request,
    spec: &PaginationSpec,
) -> Result<FetchedPage<T>, Error> {
    let response = client.execute(request.clone()).await?;
    let mut body: Value = response.json()?;
    let items = take_items(&mut body, spec.items).map_err(|m| Error::decode(m, response.body()))?;
    let next = next_page(spec, &body, response.headers(), &items, request)
        .map_err(|m| Error::decode(m, response.body()))?;
    let mut decoded = VecDeque::with_capacity(items.len());
    let mut failure = None;
    for item in items {
        match serde_json::from_value::<T>(item.clone()) {
            Ok(value) => decoded.push_back(value),
            Err(e) => {
                failure = Some(Error::Decode(Box::new(DecodeError {
                    message: crate::error::bounded_text(
                        &format!("list item: {e}"),
                        crate::error::MESSAGE_LIMIT,
                    ),
                    status: Some(response.status()),
                    request_id: response.request_id().map(str::to_owned),
                    body_excerpt: excerpt(item.to_string().as_bytes()),
                })));
                break;
            }
        }
    }
    Ok(FetchedPage {
        items: decoded,
        failure,
        next,
        raw_excerpt: excerpt(response.body()).into_bytes(),
    })
}

/// The value at a dot path (`meta.next_page_token`); a segment that is a number indexes an array.
pub(crate) fn at_path<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(value, |v, key| match v {
        Value::Object(m) => m.get(key),
        Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

/// Takes the item array at `path` out of a page (absent or `null`: no items); an empty path
/// is a page that is the array itself (a bare array paged by the `Link` header).
fn take_items(body: &mut Value, path: &str) -> Result<Vec<Value>, String> {
    if path.is_empty() {
        return match std::mem::take(body) {
            Value::Array(items) => Ok(items),
            Value::Null => Ok(Vec::new()),
            _ => Err("the page is not an array".to_owned()),
        };
    }
    let mut node = body;
    let mut keys = path.split('.').peekable();
    while let Some(key) = keys.next() {
        let Value::Object(map) = node else {
            return Ok(Vec::new());
        };
        if keys.peek().is_none() {
            return match map.remove(key) {
                Some(Value::Array(items)) => Ok(items),
                Some(Value::Null) | None => Ok(Vec::new()),
                Some(_) => Err(format!("page field `{path}` is not an array")),
            };
        }
        match map.get_mut(key) {
            Some(child) => node = child,
            None => return Ok(Vec::new()),
        }
    }
    Ok(Vec::new())
}

/// A scalar as text: strings as they are, numbers written out; empty, `null` and the rest: none.
fn text_at(body: &Value, path: &str) -> Option<String> {
    match at_path(body, path)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn number_at(body: &Value, path: &str) -> Option<u64> {
    match at_path(body, path)? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn query_number(request: &Request, name: &str) -> Option<u64> {
    request
        .query
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .and_then(|(_, v)| v.parse().ok())
}

/// How to fetch the page after this one, by the spec's style; `None` on the last page.
fn next_page(
    spec: &PaginationSpec,
    body: &Value,
    headers: &HeaderMap,
    items: &[Value],
    request: &Request,
) -> Result<Option<NextPage>, String> {
    let count = u64::try_from(items.len()).unwrap_or(u64::MAX);
    Ok(match spec.style {
        PageStyle::Cursor {
            has_more,
            cursor_field,
            ..
        } => {
            if !at_path(body, has_more)
                .and_then(Value::as_bool)
                .unwrap_or(false)
            {
                return Ok(None);
            }
            let cursor = items.last().and_then(|item| text_at(item, cursor_field));
            match cursor {
                Some(cursor) => Some(NextPage::Cursor(cursor)),
                None => {
                    return Err(format!(
                        "page says `{has_more}` but its last item has no `{cursor_field}` to continue from"
                    ));
                }
            }
        }
        PageStyle::Token { token_field, .. } => text_at(body, token_field).map(NextPage::Token),
        // A page with no items is the last: some servers (Mailgun) give a next link on every
        // page, the empty one after the last item included.
        PageStyle::NextUrl { next_field } => (count > 0)
            .then(|| text_at(body, next_field))
            .flatten()
            .map(NextPage::Url),
        PageStyle::LinkHeader => next_link(headers).map(NextPage::Url),
        PageStyle::Offset {
            offset_param,
            limit_param,
            total_field,
        } => {
            let offset = query_number(request, offset_param).unwrap_or(0);
            let next = offset.saturating_add(count);
            let total = total_field.and_then(|f| number_at(body, f));
            let short = limit_param
                .and_then(|p| query_number(request, p))
                .is_some_and(|limit| count < limit);
            (count > 0 && !short && total.is_none_or(|t| next < t))
                .then_some(NextPage::Offset(next))
        }
        PageStyle::Page {
            page_param,
            size_param,
            first_page,
            total_pages_field,
        } => {
            let page = query_number(request, page_param).unwrap_or(first_page);
            let read = page.saturating_sub(first_page).saturating_add(1);
            let total = total_pages_field.and_then(|f| number_at(body, f));
            let short = size_param
                .and_then(|p| query_number(request, p))
                .is_some_and(|size| count < size);
            (count > 0 && !short && total.is_none_or(|t| read < t))
                .then_some(NextPage::Page(page.saturating_add(1)))
        }
    })
}

/// The target of the first `rel="next"` link in the `Link` headers (RFC 8288).
fn next_link(headers: &HeaderMap) -> Option<String> {
    let mut seen = 0;
    for value in headers.get_all(LINK) {
        let Ok(text) = value.to_str() else {
            continue;
        };
        let mut rest = text;
        while let Some(open) = rest.find('<') {
            seen += 1;
            if seen > MAX_LINKS {
                return None;
            }
            let after = &rest[open + 1..];
            let close = after.find('>')?;
            let target = &after[..close];
            let params_end = after[close..].find('<').map_or(after.len(), |i| close + i);
            // Up to the next link: its separating comma is not part of the last parameter.
            let params = after[close + 1..params_end]
                .trim_end()
                .trim_end_matches(',');
            let is_next = params.split(';').any(|p| {
                let Some((key, value)) = p.split_once('=') else {
                    return false;
                };
                key.trim().eq_ignore_ascii_case("rel")
                    && value
                        .trim()
                        .trim_matches('"')
                        .split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("next"))
            });
            if is_next && !target.is_empty() {
                return Some(target.to_owned());
            }
            rest = &after[params_end..];
        }
    }
    None
}

impl Request {
    /// This list request, asking for the page `next` names: the cursor, token, offset or page
    /// number in its query parameter, or the next URL (resolved against `base_url`) in place of
    /// its path and query.
    ///
    /// # Errors
    ///
    /// [`Error::Decode`] when a next URL is not a URL, is on another origin than `base_url`
    /// (following it would send the credentials there) or lies outside the base URL's path;
    /// [`Error::InvalidRequest`] when `next` does not fit the spec's style.
    pub fn with_next_page(
        mut self,
        spec: &PaginationSpec,
        next: &NextPage,
        base_url: &str,
    ) -> Result<Request, Error> {
        match (spec.style, next) {
            (PageStyle::Cursor { after_param, .. }, NextPage::Cursor(c)) => {
                self.set_query_param(after_param, c);
            }
            (PageStyle::Token { token_param, .. }, NextPage::Token(t)) => {
                self.set_query_param(token_param, t);
            }
            (PageStyle::Offset { offset_param, .. }, NextPage::Offset(o)) => {
                self.set_query_param(offset_param, &o.to_string());
            }
            (PageStyle::Page { page_param, .. }, NextPage::Page(p)) => {
                self.set_query_param(page_param, &p.to_string());
            }
            (PageStyle::NextUrl { .. } | PageStyle::LinkHeader, NextPage::Url(u)) => {
                let (path, query) = next_url_parts(base_url, u)?;
                self.path_override = Some(path);
                self.path_params.clear();
                self.query = query;
            }
            (_, other) => {
                return Err(Error::invalid_request(
                    "next",
                    format!("{other:?} is not a next page of this list's style"),
                ));
            }
        }
        Ok(self)
    }
}

/// The path (below the base URL's path) and query of a next-page URL, refused when it leaves the
/// base URL's origin or path.
fn next_url_parts(base_url: &str, next: &str) -> Result<(String, Vec<(String, String)>), Error> {
    let bad = |why: &str| Error::decode(format!("next page link `{next}` {why}"), b"");
    let base = url::Url::parse(base_url).map_err(|_| bad("cannot be resolved"))?;
    let url = base.join(next).map_err(|_| bad("is not a URL"))?;
    if url.origin() != base.origin() {
        return Err(bad(
            "points at another origin than the base URL; not followed (the request carries credentials)",
        ));
    }
    let base_path = base.path().trim_end_matches('/');
    let path = url.path();
    let below = path
        .strip_prefix(base_path)
        .filter(|rest| rest.starts_with('/'))
        .ok_or_else(|| bad("lies outside the base URL's path"))?;
    let query = url.query_pairs().into_owned().collect();
    Ok((below.to_owned(), query))
}

/// Reads a page of `spec`'s style into the shape of [`Page`] (`{"items": [...], "next": ...}`),
/// so a call can decode it into `Page<T>`.
pub(crate) fn page_json(
    spec: &PaginationSpec,
    response: &crate::Response,
    request_query: &[(String, String)],
) -> Result<Value, Error> {
    let mut body: Value = response.json()?;
    let items = take_items(&mut body, spec.items).map_err(|m| Error::decode(m, response.body()))?;
    let probe = Request {
        query: request_query.to_vec(),
        ..Request::new(&PROBE)
    };
    let next = next_page(spec, &body, response.headers(), &items, &probe)
        .map_err(|m| Error::decode(m, response.body()))?;
    let next = serde_json::to_value(next).map_err(|e| Error::decode(e.to_string(), b""))?;
    Ok(serde_json::json!({ "items": items, "next": next }))
}

/// A stand-in operation for reading a page's query parameters in [`page_json`].
static PROBE: crate::spec::OperationSpec = crate::spec::OperationSpec::get("page", "/");

/// Lets [`paginate`] take a ready [`Request`] as well as the result of preparing one.
impl From<Request> for Result<Request, Error> {
    fn from(request: Request) -> Self {
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn link_header_next_is_found_among_several_links() {
        let mut headers = HeaderMap::new();
        headers.append(
            LINK,
            HeaderValue::from_static(
                r#"<https://api.x/v1/a?page=1>; rel="prev", <https://api.x/v1/a?page=3>; rel="next last""#,
            ),
        );
        assert_eq!(
            next_link(&headers).as_deref(),
            Some("https://api.x/v1/a?page=3")
        );
        // `next` before another link, as GitHub writes it: the comma between them is no
        // part of the relation.
        headers.clear();
        headers.append(
            LINK,
            HeaderValue::from_static(r#"</v1/a?page=2>; rel="next", </v1/a?page=9>; rel="last""#),
        );
        assert_eq!(next_link(&headers).as_deref(), Some("/v1/a?page=2"));
        headers.clear();
        headers.append(LINK, HeaderValue::from_static(r#"</v1/a?p=2>; rel=next"#));
        assert_eq!(next_link(&headers).as_deref(), Some("/v1/a?p=2"));
        headers.clear();
        headers.append(LINK, HeaderValue::from_static(r#"<x>; rel="prev""#));
        assert_eq!(next_link(&headers), None);
    }

    #[test]
    fn next_urls_stay_on_the_base_origin_and_path() {
        let base = "http://127.0.0.1:9000/api";
        let (path, query) = next_url_parts(base, "/api/v1/m?PageToken=PA1&Page=1").unwrap();
        assert_eq!(path, "/v1/m");
        assert_eq!(query[0], ("PageToken".into(), "PA1".into()));
        let (path, _) = next_url_parts(base, "http://127.0.0.1:9000/api/v1/m").unwrap();
        assert_eq!(path, "/v1/m");
        for bad in [
            "http://evil.example/api/v1/m",
            "https://127.0.0.1:9000/api/v1/m",
            "http://127.0.0.1:9001/api/v1/m",
            "/other/v1/m",
            "/apix/v1",
            "//evil.example/api/v1",
        ] {
            assert!(next_url_parts(base, bad).is_err(), "{bad} was followed");
        }
    }

    #[test]
    fn dot_paths_reach_nested_fields_and_array_items() {
        let body = serde_json::json!({"_metadata": {"next": "u"}, "errors": [{"code": 7}]});
        assert_eq!(text_at(&body, "_metadata.next").as_deref(), Some("u"));
        assert_eq!(text_at(&body, "errors.0.code").as_deref(), Some("7"));
        assert_eq!(text_at(&body, "missing.x"), None);
    }
}
