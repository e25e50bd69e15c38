//! What a connection hands its user: channel events and connection events, through a bounded
//! queue per channel and broadcasts made on first use.

use super::*;

/// A broadcast sender made on the first subscription: tokio allocates its ring of
/// [`EVENT_BUFFER`] slots up front (about 150 KiB for connection events), which a connection
/// nobody observes does not need.
pub(super) struct LazyBroadcast<T>(OnceLock<broadcast::Sender<T>>);

impl<T: Clone> LazyBroadcast<T> {
    pub(super) fn new() -> Self {
        LazyBroadcast(OnceLock::new())
    }

    pub(super) fn subscribe(&self) -> broadcast::Receiver<T> {
        self.0
            .get_or_init(|| broadcast::channel(EVENT_BUFFER).0)
            .subscribe()
    }

    /// Sends the value `make` builds, only when someone listens.
    pub(super) fn send_with(&self, make: impl FnOnce() -> T) {
        if let Some(sender) = self.0.get()
            && sender.receiver_count() > 0
        {
            let _ = sender.send(make());
        }
    }
}

/// The undelivered events of one [`Channel`] handle. It grows with the backlog instead of
/// being allocated up front (a broadcast ring of [`EVENT_BUFFER`] events cost 128 KiB per
/// channel), and holds at most [`EVENT_BUFFER`]: events beyond are skipped and counted.
#[derive(Debug, Default)]
pub(super) struct EventQueue {
    state: Mutex<QueueState>,
    ready: Notify,
}

#[derive(Debug, Default)]
pub(super) struct QueueState {
    pub(super) events: VecDeque<ChannelEvent>,
    pub(super) skipped: u64,
    pub(super) closed: bool,
}

impl EventQueue {
    pub(super) fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn push(&self, event: ChannelEvent) {
        {
            let mut state = self.lock();
            if state.events.len() >= EVENT_BUFFER {
                state.skipped += 1;
                return;
            }
            // Double from one slot: most handles hold one or two events at a time (the
            // subscription's confirmation until it is read), and `VecDeque` starts at four.
            let len = state.events.len();
            if len == state.events.capacity() {
                state.events.reserve_exact(len.max(1));
            }
            state.events.push_back(event);
        }
        self.ready.notify_one();
    }

    pub(super) fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_one();
    }

    /// The next event; `None` once closed and drained.
    pub(super) async fn pop(&self, channel: &str) -> Option<ChannelEvent> {
        loop {
            {
                let mut state = self.lock();
                if let Some(event) = state.events.pop_front() {
                    if state.skipped > 0 {
                        tracing::debug!(channel, skipped = state.skipped, "slow channel consumer");
                        state.skipped = 0;
                    }
                    // Give back what a burst took.
                    if state.events.is_empty() && state.events.capacity() > 64 {
                        state.events.shrink_to(64);
                    }
                    return Some(event);
                }
                if state.closed {
                    return None;
                }
            }
            // A push between the check and here left a permit: this returns at once.
            self.ready.notified().await;
        }
    }
}

/// One event delivered on a channel: an app event, a client event, or a presence member
/// joining or leaving (`pusher_internal:member_added` / `member_removed`), with encrypted data
/// already decrypted. The subscription's own protocol messages (`subscription_succeeded`,
/// `subscription_error`, ...) are not events: see [`Channel::wait_subscribed`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ChannelEvent {
    /// The event name.
    pub event: String,
    /// The channel.
    pub channel: String,
    /// The data as text: a string as sent, anything else as JSON; `None` when absent.
    pub data: Option<String>,
    /// The sender, on client events where the server names it.
    pub user_id: Option<String>,
}

impl ChannelEvent {
    /// Decodes the data as JSON into `T` (text that is not JSON decodes as a JSON string).
    ///
    /// # Errors
    ///
    /// [`Error::Decode`] with an excerpt when the data does not fit `T`.
    pub fn data<T: DeserializeOwned>(&self) -> Result<T, Error> {
        let frame = Frame {
            event: self.event.clone(),
            channel: Some(self.channel.clone()),
            data: self.data.clone().map(serde_json::Value::String),
            user_id: None,
        };
        frame.payload()
    }
}

/// What a connection reports besides channel events.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ConnectionEvent {
    /// The state changed.
    StateChanged(StateChange),
    /// Every frame received, as parsed (for typed decoding of protocol messages).
    Frame(Frame),
    /// A problem: a malformed frame, a `pusher:error`, a failed authorization or decryption,
    /// a missed pong. The connection carries on (or reconnects) by itself.
    Error {
        /// What happened.
        message: String,
        /// The protocol error code, when the server gave one.
        code: Option<i64>,
        /// The channel it is about, if any.
        channel: Option<String>,
    },
    /// `pusher:signin` succeeded; the user data the server confirmed.
    SignedIn {
        /// The user, JSON-encoded.
        user_data: String,
    },
}
