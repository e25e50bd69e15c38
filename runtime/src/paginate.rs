//! Cursor pagination: [`paginate`] turns a list operation into a stream of items, following
//! `after=<cursor of the last item>` while the page says `has_more`.

use std::collections::{HashSet, VecDeque};
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::Error;
use crate::client::Client;
use crate::error::{DecodeError, excerpt};
use crate::request::Request;
use crate::spec::PaginationSpec;

/// Streams every item of every page.
///
/// Each page is fetched with [`Client::execute`] (so retries, rate limiting and timeouts apply
/// per page). The stream ends after the last page or after the first error. A server that
/// repeats a cursor, or says `has_more` without giving one, ends the stream with an
/// [`Error::Decode`] instead of looping.
///
/// ```no_run
/// # use comms_runtime::*;
/// # static LIST: OperationSpec = OperationSpec::get("list_emails", "/v1/emails");
/// static PAGES: PaginationSpec =
///     PaginationSpec { items: "data", has_more: "has_more", cursor_field: "id", after_param: "after" };
/// # async fn demo(client: Client) -> Result<(), Error> {
/// use futures_util::StreamExt;
/// let mut items = paginate::<serde_json::Value>(client, LIST.request(), &PAGES);
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
    }
}

/// The stream itself, made on the first poll: so its code (generic in `T`) is compiled where a
/// stream is read, not where one is only made (in every generated list method).
fn start<T: DeserializeOwned + Send + 'static>(
    client: Client,
    request: Result<Request, Error>,
    spec: &'static PaginationSpec,
) -> Pin<Box<dyn Stream<Item = Result<T, Error>> + Send>> {
    // A request that could not be prepared (its query did not serialise) is the stream's only item.
    let (request, next) = match request {
        Ok(request) => (Some(request), Next::First),
        Err(err) => (None, Next::Fail(err)),
    };
    let state = State {
        client,
        request,
        spec,
        buffered: VecDeque::new(),
        next,
        seen: HashSet::new(),
    };
    let stream = futures_util::stream::unfold(state, |mut state| async move {
        loop {
            if let Some(item) = state.buffered.pop_front() {
                return Some((Ok(item), state));
            }
            let cursor = match std::mem::replace(&mut state.next, Next::Done) {
                Next::Done => return None,
                Next::Fail(err) => return Some((Err(err), state)),
                Next::First => None,
                Next::After(cursor) => Some(cursor),
            };
            let mut request = state.request.clone()?;
            if let Some(cursor) = &cursor {
                request.set_query_param(state.spec.after_param, cursor);
            }
            match fetch_page::<T>(&state.client, request, state.spec).await {
                Err(err) => return Some((Err(err), state)),
                Ok(page) => {
                    state.buffered = page.items;
                    state.next = match (page.failure, page.has_more, page.cursor) {
                        (Some(err), _, _) => Next::Fail(err),
                        (None, false, _) => Next::Done,
                        (None, true, None) => Next::Fail(Error::decode(
                            format!(
                                "page says `{}` but its last item has no `{}` to continue from",
                                state.spec.has_more, state.spec.cursor_field
                            ),
                            &page.raw_excerpt,
                        )),
                        (None, true, Some(next)) => {
                            if state.seen.insert(next.clone()) {
                                Next::After(next)
                            } else {
                                Next::Fail(Error::decode(
                                    format!("server repeated pagination cursor `{next}`"),
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
            self.inner = Inner::Running(start(client, request, spec));
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
    seen: HashSet<String>,
}

enum Next {
    First,
    After(String),
    Fail(Error),
    Done,
}

struct Page<T> {
    items: VecDeque<T>,
    /// An item that failed to decode; the items before it are still delivered.
    failure: Option<Error>,
    has_more: bool,
    cursor: Option<String>,
    raw_excerpt: Vec<u8>,
}

async fn fetch_page<T: DeserializeOwned>(
    client: &Client,
    request: Request,
    spec: &PaginationSpec,
) -> Result<Page<T>, Error> {
    let response = client.execute(request).await?;
    let mut page: Map<String, Value> = response.json()?;
    let raw_excerpt = excerpt(response.body()).into_bytes();
    let items = match page.remove(spec.items) {
        Some(Value::Array(items)) => items,
        Some(Value::Null) | None => Vec::new(),
        Some(_) => {
            return Err(Error::decode(
                format!("page field `{}` is not an array", spec.items),
                response.body(),
            ));
        }
    };
    let has_more = page
        .get(spec.has_more)
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let cursor = items
        .last()
        .and_then(|item| match item.get(spec.cursor_field) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        });
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
    Ok(Page {
        items: decoded,
        failure,
        has_more,
        cursor,
        raw_excerpt,
    })
}

/// Lets [`paginate`] take a ready [`Request`] as well as the result of preparing one.
impl From<Request> for Result<Request, Error> {
    fn from(request: Request) -> Self {
        Ok(request)
    }
}
