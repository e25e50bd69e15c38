//! [`Call`]: what a generated method returns: a prepared request that is sent when awaited.
//!
//! Generated methods are plain functions that fill a [`Request`] and wrap it in a `Call<T>`, a
//! `Future` that on first poll sends it with [`Client::execute`] and then decodes the answer
//! as `T`. So the generated crate holds no `async fn` state machine per operation and no JSON
//! decoder per answer type: the one future that sends is the runtime's (boxed, not generic),
//! and the decoding, the only generic part, is compiled where an application awaits a call,
//! for the operations it actually uses.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use reqwest::header::HeaderMap;
use serde::de::DeserializeOwned;

use crate::Error;
use crate::client::Client;
use crate::request::Request;
use crate::response::Response;
use crate::spec::PaginationSpec;

/// A request's query pairs, kept to read a page's next offset or number.
type Query = Vec<(String, String)>;

/// The future that sends a request: one type for every operation.
type Sending = Pin<Box<dyn Future<Output = Result<Response, Error>> + Send>>;

/// A prepared call, a `Future` of the typed answer: `.await` it, `block_on` it, spawn it.
///
/// The request (path, query, body, the spec's checks) was built when the method was called;
/// nothing is sent until the call is first polled. A request that failed to build (a check
/// failed, say) is the error the call resolves to, and nothing is sent. The call owns what it
/// needs (a clone of the client, the serialised body), so it is `Send + 'static` and `Unpin`:
/// it can be stored, moved to another task and awaited later.
///
/// ```no_run
/// # use tidings_runtime::*;
/// # use tidings_runtime::spec::*;
/// # static GET: OperationSpec = OperationSpec::get("get_email", "/v1/emails/{id}");
/// # async fn demo(client: Client) -> Result<(), Error> {
/// let call: Call<serde_json::Value> = client.call(tidings_runtime::Request::new(&GET).path_param("id", "em_1"));
/// let email = tokio::spawn(call).await.expect("task")?;
/// # let _ = email; Ok(()) }
/// ```
#[must_use = "a call does nothing until it is awaited"]
pub struct Call<T> {
    state: State,
    decode: Decode,
    answer: PhantomData<fn() -> T>,
}

/// How a call reads a successful answer.
#[derive(Debug, Clone, Copy)]
enum Decode {
    /// JSON (an empty body as `null`).
    Json,
    /// Not read: `()`.
    Ignore,
    /// UTF-8 text.
    Text,
    /// The raw bytes (`Vec<u8>`).
    Bytes,
    /// `null` (so `None`) on these statuses whatever the body, else JSON.
    EmptyOn(&'static [u16]),
    /// A page of this style, as [`crate::Page`].
    Page(&'static PaginationSpec),
}

enum State {
    /// Not polled yet: what sending needs.
    Prepared(Client, Result<Request, Error>),
    /// Sent; with the request's query when a page's next offset or number is read from it.
    Sending(Sending, Option<Vec<(String, String)>>),
    Done,
}

impl<T> fmt::Debug for Call<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match &self.state {
            State::Prepared(_, Ok(request)) => request.operation().name,
            State::Prepared(_, Err(_)) => "failed to build",
            State::Sending(..) => "sending",
            State::Done => "done",
        };
        f.debug_struct("Call")
            .field("state", &state)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A call of `request` whose answer decodes as JSON into `T` (an empty body as `null`, so
    /// `()` and `Option` fit a 204).
    pub fn call<T: DeserializeOwned>(&self, request: impl Into<Result<Request, Error>>) -> Call<T> {
        self.call_with(request, Decode::Json)
    }

    /// A call of `request` whose answer's body, if any, is not needed.
    pub fn call_ignoring_body(&self, request: impl Into<Result<Request, Error>>) -> Call<()> {
        self.call_with(request, Decode::Ignore)
    }

    /// A call whose answer is text (UTF-8; anything else is an [`Error::Decode`]).
    pub fn call_text(&self, request: impl Into<Result<Request, Error>>) -> Call<String> {
        self.call_with(request, Decode::Text)
    }

    /// A call whose answer is the body's bytes.
    pub fn call_bytes(&self, request: impl Into<Result<Request, Error>>) -> Call<Vec<u8>> {
        self.call_with(request, Decode::Bytes)
    }

    /// A call whose answer is `None` on the `empty` statuses (204, say) and JSON otherwise:
    /// an operation that answers 200 with a body or 204 without.
    pub fn call_optional<T: DeserializeOwned>(
        &self,
        request: impl Into<Result<Request, Error>>,
        empty: &'static [u16],
    ) -> Call<Option<T>> {
        self.call_with(request, Decode::EmptyOn(empty))
    }

    /// A call whose answer is one page of a list in `spec`'s style, as a [`crate::Page`] (its
    /// items and how to fetch the next page).
    pub fn call_page<T: DeserializeOwned>(
        &self,
        request: impl Into<Result<Request, Error>>,
        spec: &'static PaginationSpec,
    ) -> Call<crate::Page<T>> {
        self.call_with(request, Decode::Page(spec))
    }

    fn call_with<T>(&self, request: impl Into<Result<Request, Error>>, decode: Decode) -> Call<T> {
        Call {
            state: State::Prepared(self.clone(), request.into()),
            decode,
            answer: PhantomData,
        }
    }
}

/// Sends `request`; not generic, so it is compiled once, in this crate. The pipeline's future
/// is boxed as it is (a wrapping `async` block would copy it once more), and the query is
/// kept only for reading a page's next offset or number.
fn send(client: Client, request: Request, decode: Decode) -> State {
    let query = matches!(decode, Decode::Page(_)).then(|| request.query.clone());
    State::Sending(Box::pin(crate::client::execute(client, request)), query)
}

/// Reads a successful answer as `decode` says; not generic, so compiled once.
fn normalise(
    decode: Decode,
    response: &Response,
    query: &[(String, String)],
) -> Result<Option<serde_json::Value>, Error> {
    Ok(match decode {
        Decode::Ignore => Some(serde_json::Value::Null),
        Decode::EmptyOn(statuses) if statuses.contains(&response.status()) => {
            Some(serde_json::Value::Null)
        }
        Decode::Text => Some(serde_json::Value::String(
            String::from_utf8(response.body().to_vec())
                .map_err(|_| Error::decode("the answer is not UTF-8 text", response.body()))?,
        )),
        Decode::Page(spec) => Some(crate::paginate::page_json(spec, response, query)?),
        Decode::Json | Decode::EmptyOn(_) | Decode::Bytes => None,
    })
}

impl<T> Call<T> {
    /// The same call, answering the decoded value together with the answer's status and
    /// headers: what an operation documents in its `response_headers` (a created item's
    /// `Location`, an `ETag`, a `HEAD`'s `Content-Length`) or any other header.
    ///
    /// ```no_run
    /// # use tidings_runtime::*;
    /// # use tidings_runtime::spec::*;
    /// # static CREATE: OperationSpec = OperationSpec::post("create_contact", "/v1/contacts");
    /// # async fn demo(client: Client) -> Result<(), Error> {
    /// let call: Call<serde_json::Value> = client.call(Request::new(&CREATE));
    /// let answer = call.with_headers().await?;
    /// assert_eq!(answer.status(), 201);
    /// let location = answer.header("location").map(str::to_owned);
    /// let contact = answer.into_value();
    /// # let _ = (location, contact); Ok(()) }
    /// ```
    pub fn with_headers(self) -> WithHeaders<T> {
        WithHeaders { call: self }
    }

    /// Drives the sending to its answer (and the request's query, for paging).
    fn poll_answer(&mut self, cx: &mut Context<'_>) -> Poll<Result<(Response, Query), Error>> {
        if let State::Prepared(..) = self.state {
            let decode = self.decode;
            self.state = match std::mem::replace(&mut self.state, State::Done) {
                State::Prepared(client, Ok(request)) => send(client, request, decode),
                // Nothing to send: the error that stopped the request is the answer.
                State::Prepared(_, Err(error)) => return Poll::Ready(Err(error)),
                other => other,
            };
        }
        let State::Sending(sending, _) = &mut self.state else {
            return Poll::Ready(Err(Error::invalid_request(
                "call",
                "polled again after it completed",
            )));
        };
        let answer = match sending.as_mut().poll(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(answer) => answer,
        };
        let query = match std::mem::replace(&mut self.state, State::Done) {
            State::Sending(_, query) => query.unwrap_or_default(),
            _ => Vec::new(),
        };
        Poll::Ready(answer.map(|response| (response, query)))
    }
}

/// Decodes a successful answer as `decode` says.
fn decode_answer<T: DeserializeOwned>(
    decode: Decode,
    response: &Response,
    query: &[(String, String)],
) -> Result<T, Error> {
    if let Decode::Bytes = decode {
        // `call_bytes` makes only `Call<Vec<u8>>`, which a sequence of bytes decodes into.
        let bytes = serde::de::value::SeqDeserializer::<_, serde_json::Error>::new(
            response.body().iter().copied(),
        );
        return T::deserialize(bytes).map_err(|e| Error::decode(format!("bytes answer: {e}"), b""));
    }
    match normalise(decode, response, query)? {
        // `call_ignoring_body` makes only `Call<()>`, `call_text` only `Call<String>`,
        // `call_optional` `Call<Option<_>>`, which these values decode into.
        Some(value) => T::deserialize(value)
            .map_err(|e| Error::decode(format!("answer: {e}"), response.body())),
        None => response.json(),
    }
}

impl<T: DeserializeOwned> Future for Call<T> {
    type Output = Result<T, Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let decode = self.decode;
        self.poll_answer(cx).map(|answer| {
            answer.and_then(|(response, query)| decode_answer(decode, &response, &query))
        })
    }
}

/// A [`Call`] whose answer comes with its status and headers: [`Call::with_headers`].
#[must_use = "a call does nothing until it is awaited"]
pub struct WithHeaders<T> {
    call: Call<T>,
}

impl<T> fmt::Debug for WithHeaders<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("WithHeaders").field(&self.call).finish()
    }
}

impl<T: DeserializeOwned> Future for WithHeaders<T> {
    type Output = Result<Answered<T>, Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let decode = self.call.decode;
        self.call.poll_answer(cx).map(|answer| {
            answer.and_then(|(response, query)| {
                let value = decode_answer(decode, &response, &query)?;
                Ok(Answered {
                    value,
                    status: response.status(),
                    headers: response.into_headers(),
                })
            })
        })
    }
}

/// A decoded answer with its status and headers ([`Call::with_headers`]).
#[derive(Clone)]
pub struct Answered<T> {
    value: T,
    status: u16,
    headers: HeaderMap,
}

impl<T: fmt::Debug> fmt::Debug for Answered<T> {
    /// Header names only: a header's value may be a credential (a session cookie, a token).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.headers.keys().map(|n| n.as_str()).collect();
        f.debug_struct("Answered")
            .field("value", &self.value)
            .field("status", &self.status)
            .field("headers", &names)
            .finish()
    }
}

impl<T> Answered<T> {
    /// The decoded answer.
    pub fn value(&self) -> &T {
        &self.value
    }

    /// The decoded answer, the headers dropped.
    pub fn into_value(self) -> T {
        self.value
    }

    /// The HTTP status (2xx).
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The first value of header `name` (any case), when it is there and is text; a header
    /// sent several times is read whole with [`Answered::header_all`].
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Every value of header `name`, in the order received (those that are text).
    pub fn header_all(&self, name: &str) -> Vec<&str> {
        self.headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect()
    }

    /// All the answer's headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// Value, status and headers.
    pub fn into_parts(self) -> (T, u16, HeaderMap) {
        (self.value, self.status, self.headers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::tests::SPEC;
    use crate::spec::*;

    static GET: OperationSpec = OperationSpec::get("get_email", "/v1/emails/{id}");

    /// Largest request glibc serves from its per-thread cache (`tcache`, 64 bytes to 1,032
    /// on 64-bit): a larger box takes the slower bins and can consolidate free chunks on every
    /// call. The call's future was 3.5 KB before it was flattened (BENCHMARKS.md § 3).
    const THREAD_CACHE_MAX: usize = 1032;

    #[test]
    fn the_future_a_call_boxes_fits_the_allocators_thread_cache() {
        let client = Client::builder(&SPEC)
            .base_url("http://127.0.0.1:9")
            .api_key("sk_test")
            .build()
            .expect("client");
        let sending =
            crate::client::execute(client, crate::Request::new(&GET).path_param("id", "em_1"));
        let size = std::mem::size_of_val(&sending);
        assert!(
            size <= THREAD_CACHE_MAX,
            "the call's future is {size} bytes; keep what it holds across a wait small \
             (BENCHMARKS.md § 3)"
        );
    }
}
