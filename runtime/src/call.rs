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

use serde::de::DeserializeOwned;

use crate::Error;
use crate::client::Client;
use crate::request::Request;
use crate::response::Response;

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
/// # use comms_runtime::*;
/// # static GET: OperationSpec = OperationSpec::get("get_email", "/v1/emails/{id}");
/// # async fn demo(client: Client) -> Result<(), Error> {
/// let call: Call<serde_json::Value> = client.call(GET.request().path_param("id", "em_1"));
/// let email = tokio::spawn(call).await.expect("task")?;
/// # let _ = email; Ok(()) }
/// ```
#[must_use = "a call does nothing until it is awaited"]
pub struct Call<T> {
    state: State,
    ignore_body: bool,
    answer: PhantomData<fn() -> T>,
}

enum State {
    /// Not polled yet: what sending needs.
    Prepared(Client, Result<Request, Error>),
    Sending(Sending),
    Done,
}

impl<T> fmt::Debug for Call<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match &self.state {
            State::Prepared(_, Ok(request)) => request.operation().name,
            State::Prepared(_, Err(_)) => "failed to build",
            State::Sending(_) => "sending",
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
        Call {
            state: State::Prepared(self.clone(), request.into()),
            ignore_body: false,
            answer: PhantomData,
        }
    }

    /// A call of `request` whose answer's body, if any, is not needed.
    pub fn call_ignoring_body(&self, request: impl Into<Result<Request, Error>>) -> Call<()> {
        Call {
            state: State::Prepared(self.clone(), request.into()),
            ignore_body: true,
            answer: PhantomData,
        }
    }
}

/// Sends `request`; not generic, so it is compiled once, in this crate.
fn send(client: Client, request: Result<Request, Error>) -> Sending {
    Box::pin(async move { client.execute(request?).await })
}

impl<T: DeserializeOwned> Future for Call<T> {
    type Output = Result<T, Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if let State::Prepared(..) = self.state {
            self.state = match std::mem::replace(&mut self.state, State::Done) {
                State::Prepared(client, request) => State::Sending(send(client, request)),
                other => other,
            };
        }
        let State::Sending(sending) = &mut self.state else {
            return Poll::Ready(Err(Error::invalid_request(
                "call",
                "polled again after it completed",
            )));
        };
        let answer = match sending.as_mut().poll(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(answer) => answer,
        };
        self.state = State::Done;
        Poll::Ready(match answer {
            // `call_ignoring_body` makes only `Call<()>`, which `null` decodes into.
            Ok(_) if self.ignore_body => T::deserialize(serde_json::Value::Null)
                .map_err(|e| Error::decode(format!("no answer expected: {e}"), b"")),
            Ok(response) => response.json(),
            Err(err) => Err(err),
        })
    }
}
