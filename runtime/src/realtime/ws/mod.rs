//! The WebSocket client: a [`Connection`] that keeps itself connected (heartbeat, close-code
//! policy, backoff), re-authorizes and resubscribes every channel after a reconnect, and hands
//! out [`Channel`]s with their own event streams.
//!
//! ```no_run
//! # async fn demo(spec: &'static tidings_runtime::spec::WebSocketSpec) -> Result<(), tidings_runtime::Error> {
//! use std::time::Duration;
//! use tidings_runtime::realtime::{ConnectionBuilder, ConnectionState};
//! let connection = ConnectionBuilder::new(spec, "ws://127.0.0.1:6001", "app-key").connect()?;
//! connection.wait_for(ConnectionState::Connected, Duration::from_secs(5)).await?;
//! let mut news = connection.subscribe("news")?;
//! news.wait_subscribed(Duration::from_secs(5)).await?;
//! while let Some(event) = news.next_event().await {
//!     println!("{}: {:?}", event.event, event.data);
//! }
//! # Ok(()) }
//! ```

mod connection;
mod socket;

use crate::realtime::WebSocketRules;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::{Notify, broadcast, watch};

use super::auth::{Authorizer, ChannelAuth, UserAuth};
use super::presence::Members;
use super::state::{ConnectionState, StateChange};
use super::{DataEncoding, Frame, WebSocketSpec};
use crate::Error;

mod builder;
mod channel;
mod events;

pub use builder::ConnectionBuilder;
pub use channel::Channel;
pub use events::{ChannelEvent, ConnectionEvent};
use events::{EventQueue, LazyBroadcast};

/// Most undelivered events per channel handle, and per observer of a connection's events.
const EVENT_BUFFER: usize = 1024;

#[derive(Debug, Clone, PartialEq)]
enum Subscription {
    Pending,
    Subscribed,
    Failed(String),
}

/// A channel of a connection: one entry of its channel map, which every handle on the channel
/// refers to by name and `id`. Rarely used parts are boxed to keep the map small.
struct Slot {
    /// Tells this slot from an earlier one of the same name (unsubscribed, then subscribed
    /// again): handles of the earlier one see it as unsubscribed.
    id: u64,
    /// Send `subscribe` for it (false for channels the server joins us to, like a user's).
    subscribe: bool,
    /// This session has started its subscription (and not left it, nor seen it fail): a
    /// `Subscribe` command for it is already served. Without it, a channel added while the
    /// session connects is subscribed twice, by the resubscribe-all on connect and by its
    /// queued command (issue 18).
    requested: bool,
    status: Subscription,
    /// The queue of the first live handle (usually the only one) ...
    first: Option<Arc<EventQueue>>,
    /// ... and of the others.
    more: Vec<Arc<EventQueue>>,
    /// Presence members, the encryption key, the own user id: only on some kinds.
    extra: Option<Box<SlotExtra>>,
}

#[derive(Default)]
struct SlotExtra {
    members: Option<Members>,
    key: Option<[u8; 32]>,
    me: Option<String>,
}

impl Slot {
    fn new(id: u64, subscribe: bool) -> Slot {
        Slot {
            id,
            subscribe,
            requested: false,
            status: Subscription::Pending,
            first: None,
            more: Vec::new(),
            extra: None,
        }
    }

    fn add_queue(&mut self, queue: Arc<EventQueue>) {
        if self.first.is_none() {
            self.first = Some(queue);
        } else {
            self.more.push(queue);
        }
    }

    fn extra(&mut self) -> &mut SlotExtra {
        self.extra.get_or_insert_with(Box::default)
    }

    fn members(&self) -> Option<&Members> {
        self.extra.as_ref().and_then(|e| e.members.as_ref())
    }

    fn key(&self) -> Option<&[u8; 32]> {
        self.extra.as_ref().and_then(|e| e.key.as_ref())
    }

    /// Hands `event` to every live handle of the channel (dropping the queues of handles
    /// that are gone).
    fn deliver(&mut self, event: ChannelEvent) {
        let live = |q: &Arc<EventQueue>| Arc::strong_count(q) > 1;
        self.more.retain(live);
        if self.first.as_ref().is_some_and(|q| !live(q)) {
            self.first = self.more.pop();
        }
        let Some(first) = &self.first else {
            return;
        };
        for queue in &self.more {
            queue.push(event.clone());
        }
        first.push(event);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        for queue in self.first.iter().chain(&self.more) {
            queue.close();
        }
    }
}

struct Inner {
    state: ConnectionState,
    socket_id: Option<String>,
    channels: HashMap<Arc<str>, Slot>,
    /// The id of the next new slot.
    next_slot: u64,
    /// What handles asked of the connection task, oldest first (see [`Shared::command`]).
    commands: VecDeque<Command>,
    /// The connection task has ended: commands are refused.
    ended: bool,
    want_signin: bool,
    user_data: Option<String>,
    client_events: VecDeque<Instant>,
    /// The latest problems (a `pusher:error`, a close code with its reason, a refused
    /// handshake), newest last, so `wait_for` can say why a connection is not there.
    problems: VecDeque<String>,
}

/// Problems kept for error messages, and the length each is cut to.
const PROBLEMS_KEPT: usize = 3;
const PROBLEM_CHARS: usize = 300;

pub(crate) struct Shared {
    spec: &'static WebSocketSpec,
    /// The connection's URL (moved here from the task's settings, not copied).
    url: url::Url,
    inner: Mutex<Inner>,
    /// A command was queued.
    command_ready: Notify,
    /// A channel's subscription status changed (any channel's: one signal per connection
    /// instead of a watch channel per channel, 368 bytes each).
    subscriptions_changed: Notify,
    states: LazyBroadcast<StateChange>,
    state_watch: watch::Sender<ConnectionState>,
    events: LazyBroadcast<ConnectionEvent>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `error` (a timeout, a connection that never came up) with what it ended: the
    /// service, the wait (`operation`), the connection's URL without its query, and `advice`.
    fn in_context(&self, mut error: Error, operation: &'static str, advice: String) -> Error {
        let mut url = self.url.clone();
        url.set_query(None);
        if let Some(slot) = error.context_slot() {
            *slot = Some(Box::new(crate::error::CallContext {
                service: self.spec.service,
                operation,
                method: "WebSocket".to_owned(),
                url: url.to_string(),
                attempts: 1,
                not_retried: None,
                advice,
            }));
        }
        error
    }

    /// Queues a command for the connection task.
    ///
    /// A queue in the shared state rather than a tokio channel: an mpsc channel allocates
    /// 2.3 KiB per connection up front (its state and a block of 32 commands); this one
    /// allocates only while commands wait. Frames to send are bounded
    /// ([`MAX_QUEUED_COMMANDS`] waiting: an application sending faster than the socket takes
    /// them is told so); the other commands are one per subscription, sign-in or
    /// reconnect and always go in, so a full queue can still be disconnected.
    fn command(&self, command: Command) -> Queued {
        {
            let mut inner = self.lock();
            if inner.ended {
                return Queued::Ended;
            }
            if matches!(command, Command::Send(_)) && inner.commands.len() >= MAX_QUEUED_COMMANDS {
                return Queued::Full;
            }
            inner.commands.push_back(command);
        }
        self.command_ready.notify_one();
        Queued::Yes
    }

    /// The next command (for the connection task, its only reader). Cancel-safe: a command
    /// is taken only when this returns.
    async fn next_command(&self) -> Command {
        loop {
            {
                let mut inner = self.lock();
                if let Some(command) = inner.commands.pop_front() {
                    if inner.commands.is_empty() {
                        // Give back what a burst (a subscription per channel) took.
                        inner.commands = VecDeque::new();
                    }
                    return command;
                }
            }
            // A command queued between the check and here left a permit: this returns at once.
            self.command_ready.notified().await;
        }
    }

    /// Marks the connection task as ended: later commands are refused, queued ones dropped.
    fn end_commands(&self) {
        let mut inner = self.lock();
        inner.ended = true;
        inner.commands = VecDeque::new();
    }

    /// Sets a channel's subscription status and wakes those waiting on one.
    fn set_status(&self, slot: &mut Slot, status: Subscription) {
        slot.status = status;
        self.subscriptions_changed.notify_waiters();
    }

    /// Remembers a problem for later error messages (bounded: the last few, each cut short).
    pub(crate) fn note(&self, problem: String) {
        let problem: String = problem.chars().take(PROBLEM_CHARS).collect();
        let mut inner = self.lock();
        if inner.problems.back() == Some(&problem) {
            return;
        }
        if inner.problems.len() == PROBLEMS_KEPT {
            inner.problems.pop_front();
        }
        inner.problems.push_back(problem);
    }

    /// Whether a remembered problem mentions `text`.
    pub(crate) fn noted(&self, text: &str) -> bool {
        self.lock().problems.iter().any(|p| p.contains(text))
    }

    /// The remembered problems, oldest first, as one clause: `": a; then b"`, or `""`.
    fn problems(&self) -> String {
        let inner = self.lock();
        if inner.problems.is_empty() {
            return String::new();
        }
        let list: Vec<&str> = inner.problems.iter().map(String::as_str).collect();
        format!(": {}", list.join("; then "))
    }

    pub(crate) fn set_state(&self, state: ConnectionState) {
        let change = {
            let mut inner = self.lock();
            if inner.state == state {
                return;
            }
            let change = StateChange {
                previous: inner.state,
                current: state,
            };
            inner.state = state;
            if state != ConnectionState::Connected {
                inner.socket_id = None;
            }
            change
        };
        tracing::debug!(service = self.spec.service, from = %change.previous, to = %change.current, "realtime connection state");
        self.state_watch.send_replace(state);
        self.states.send_with(|| change);
        self.events
            .send_with(|| ConnectionEvent::StateChanged(change));
    }

    pub(crate) fn report(
        &self,
        message: impl Into<String>,
        code: Option<i64>,
        channel: Option<String>,
    ) {
        let message = message.into();
        tracing::debug!(
            service = self.spec.service,
            code,
            "realtime problem: {message}"
        );
        self.events.send_with(|| ConnectionEvent::Error {
            message,
            code,
            channel,
        });
    }
}

/// What handles ask of the connection task. Large payloads are boxed: the command queue
/// allocates a block of 32 commands per connection up front.
/// Commands that may wait for the connection task before frames to send are refused.
pub(super) const MAX_QUEUED_COMMANDS: usize = 1024;

/// What became of a command given to the connection task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Queued {
    Yes,
    /// The task has ended: nothing will read it.
    Ended,
    /// [`MAX_QUEUED_COMMANDS`] are waiting (frames to send only).
    Full,
}

enum Command {
    Subscribe(String),
    Unsubscribe(String),
    Send(Box<Frame>),
    Signin,
    Authorized {
        channel: String,
        socket_id: String,
        result: Box<Result<ChannelAuth, String>>,
    },
    UserAuthenticated {
        socket_id: String,
        result: Box<Result<UserAuth, String>>,
    },
    Reconnect,
    Disconnect,
}

/// A realtime connection. Cheap to clone; the background task ends when every clone is dropped
/// or [`Connection::disconnect`] is called.
#[derive(Clone)]
pub struct Connection {
    shared: Arc<Shared>,
}

impl fmt::Debug for Connection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connection")
            .field("service", &self.shared.spec.service)
            .field("state", &self.state())
            .field("socket_id", &self.socket_id())
            .finish()
    }
}

impl Connection {
    /// The protocol this connection speaks.
    pub fn spec(&self) -> &'static WebSocketSpec {
        self.shared.spec
    }

    /// The current state.
    pub fn state(&self) -> ConnectionState {
        self.shared.lock().state
    }

    /// The socket id while connected.
    pub fn socket_id(&self) -> Option<String> {
        self.shared.lock().socket_id.clone()
    }

    /// Every state change from now on.
    pub fn state_changes(&self) -> broadcast::Receiver<StateChange> {
        self.shared.states.subscribe()
    }

    /// Every connection event (state changes, frames, problems) from now on.
    pub fn events(&self) -> broadcast::Receiver<ConnectionEvent> {
        self.shared.events.subscribe()
    }

    /// Waits until the state is `target`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when the connection reaches a final state other than `target` (the
    /// server's `pusher:error` and close code in the message: a wrong app key reads
    /// `... will not become connected: the server said App key ... does not exist (4001)`);
    /// after `timeout`, [`Error::Transport`] naming the failed attempts (a refused handshake
    /// such as an HTTP 404 from a wrong URL) when waiting to connect, else [`Error::Timeout`].
    pub async fn wait_for(&self, target: ConnectionState, timeout: Duration) -> Result<(), Error> {
        let mut watch = self.shared.state_watch.subscribe();
        let wait = async {
            loop {
                let now = *watch.borrow_and_update();
                if now == target {
                    return Ok(());
                }
                if now.is_final() {
                    return Err(Error::config(format!(
                        "the realtime connection is {now} and will not become {target}{}",
                        self.shared.problems()
                    )));
                }
                if watch.changed().await.is_err() {
                    return Err(Error::config("the connection task ended"));
                }
            }
        };
        match tokio::time::timeout(timeout, wait).await {
            Ok(done) => done,
            // Still trying: when attempts failed, say why rather than only how long it took.
            Err(_) => match self.shared.problems() {
                problems if !problems.is_empty() && target == ConnectionState::Connected => {
                    Err(self.shared.in_context(
                        Error::Transport {
                            message: format!(
                                "the realtime connection is not {target} after {timeout:?}{problems}"
                            )
                            .into(),
                            connect: true,
                            source: None,
                            context: None,
                        },
                        "wait_for",
                        "check the URL, the app key and that the server runs; the connection \
                         keeps trying in the background"
                            .to_owned(),
                    ))
                }
                _ => Err(self.shared.in_context(
                    Error::Timeout {
                        kind: crate::TimeoutKind::Deadline,
                        after: timeout,
                        context: None,
                    },
                    "wait_for",
                    format!(
                        "the connection did not become {target}; wait longer, or watch \
                         Connection::events for why"
                    ),
                )),
            },
        }
    }

    /// Subscribes to a channel (again, after every reconnect, until unsubscribed) and returns
    /// a handle with its own event stream. Private, presence and encrypted channels are
    /// authorized through the connection's authorizer first.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] for a name the spec rejects.
    pub fn subscribe(&self, channel: &str) -> Result<Channel, Error> {
        self.shared.spec.check_channel_name(channel, false)?;
        let handle = self.handle(channel, true);
        self.shared.command(Command::Subscribe(channel.to_owned()));
        Ok(handle)
    }

    /// A handle on a channel the server joins this connection to by itself (such as the
    /// signed-in user's own channel); nothing is sent.
    pub fn listen(&self, channel: &str) -> Channel {
        self.handle(channel, false)
    }

    fn handle(&self, channel: &str, subscribe: bool) -> Channel {
        let mut guard = self.shared.lock();
        let inner = &mut *guard;
        // The handle shares the map's copy of the name.
        let name = inner
            .channels
            .get_key_value(channel)
            .map_or_else(|| Arc::from(channel), |(name, _)| name.clone());
        let id = inner.next_slot;
        let slot = inner
            .channels
            .entry(name.clone())
            .or_insert_with(|| Slot::new(id, subscribe));
        if slot.id == id {
            inner.next_slot += 1;
        }
        slot.subscribe |= subscribe;
        let events = Arc::new(EventQueue::default());
        slot.add_queue(events.clone());
        Channel {
            name,
            id: slot.id,
            connection: self.clone(),
            events,
        }
    }

    /// Leaves a channel; its handles stop receiving events.
    pub fn unsubscribe(&self, channel: &str) {
        let removed = self.shared.lock().channels.remove(channel);
        if let Some(slot) = removed {
            if slot.subscribe {
                self.shared
                    .command(Command::Unsubscribe(channel.to_owned()));
            }
            // Handles waiting for the subscription learn it is gone.
            self.shared.subscriptions_changed.notify_waiters();
        }
    }

    /// Signs the connection in as a user (`pusher:signin`), through the authorizer, and again
    /// after every reconnect. Returns the user data the server confirmed.
    ///
    /// # Errors
    ///
    /// [`Error::Timeout`] when no confirmation comes within `timeout`; the reason, if any, is
    /// reported as a [`ConnectionEvent::Error`].
    pub async fn signin(&self, timeout: Duration) -> Result<String, Error> {
        let mut events = self.events();
        {
            let mut inner = self.shared.lock();
            inner.want_signin = true;
            inner.user_data = None;
        }
        self.shared.command(Command::Signin);
        let wait = async {
            loop {
                match events.recv().await {
                    Ok(ConnectionEvent::SignedIn { user_data }) => return Ok(user_data),
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => {
                        return Err(Error::config("the connection task ended"));
                    }
                }
            }
        };
        tokio::time::timeout(timeout, wait).await.map_err(|_| {
            self.shared.in_context(
                Error::Timeout {
                    kind: crate::TimeoutKind::Deadline,
                    after: timeout,
                    context: None,
                },
                "signin",
                "no `pusher:signin_success` came: check the authorizer's user authentication \
                 (the server's reason, if any, is a ConnectionEvent::Error)"
                    .to_owned(),
            )
        })?
    }

    /// The user data of the signed-in user, once `signin_success` came.
    pub fn user_data(&self) -> Option<String> {
        self.shared.lock().user_data.clone()
    }

    /// Sends a raw frame (for protocol messages this client has no method for).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when the connection task has ended; [`Error::Transport`] when
    /// 1,024 commands already wait for the socket (the application sends faster than the
    /// connection writes: wait and send again).
    pub fn send_frame(&self, frame: Frame) -> Result<(), Error> {
        match self.shared.command(Command::Send(Box::new(frame))) {
            Queued::Yes => Ok(()),
            Queued::Ended => Err(Error::config("the connection task ended")),
            Queued::Full => Err(Error::Transport {
                message: format!(
                    "the realtime connection's send queue is full ({MAX_QUEUED_COMMANDS} \
                     commands waiting for the socket); wait and send again"
                )
                .into(),
                connect: false,
                source: None,
                context: None,
            }),
        }
    }

    /// Drops the socket and connects again at once (as after a lost connection).
    pub fn reconnect(&self) {
        self.shared.command(Command::Reconnect);
    }

    /// Closes the connection for good (state `Disconnected`).
    pub fn disconnect(&self) {
        self.shared.command(Command::Disconnect);
    }

    fn trigger<T: Serialize + ?Sized>(
        &self,
        channel: &str,
        event: &str,
        data: &T,
    ) -> Result<(), Error> {
        let spec = self.shared.spec;
        spec.check_client_event(channel, event)?;
        {
            let mut inner = self.shared.lock();
            if inner.state != ConnectionState::Connected {
                return Err(Error::invalid_request(
                    "channel",
                    format!("not connected: client event `{event}` was not sent"),
                ));
            }
            let subscribed = inner
                .channels
                .get(channel)
                .is_some_and(|s| s.status == Subscription::Subscribed);
            if !subscribed {
                return Err(Error::invalid_request(
                    "channel",
                    format!("client events need a subscribed channel; `{channel}` is not"),
                ));
            }
            if let Some(max) = spec.client_events.and_then(|c| c.max_per_second) {
                let now = Instant::now();
                let window = Duration::from_secs(1);
                while inner
                    .client_events
                    .front()
                    .is_some_and(|t| now.duration_since(*t) >= window)
                {
                    inner.client_events.pop_front();
                }
                if inner.client_events.len() >= max as usize {
                    let wait = inner
                        .client_events
                        .front()
                        .map_or(window, |t| window.saturating_sub(now.duration_since(*t)));
                    return Err(Error::RateLimited {
                        retry_after: Some(wait),
                        api: None,
                        context: None,
                    });
                }
                inner.client_events.push_back(now);
            }
        }
        let frame = Frame::encode(event, Some(channel), Some(data), DataEncoding::Object)?;
        self.send_frame(frame)
    }
}

#[cfg(test)]
mod tests;
