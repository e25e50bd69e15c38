//! [`Channel`]: one subscription of a connection, its events and its presence members.

use super::*;

/// A channel of a [`Connection`]: its events, its subscription state, its presence members.
#[derive(Debug)]
pub struct Channel {
    pub(super) name: Arc<str>,
    /// The slot this handle belongs to (see [`Slot::id`]).
    pub(super) id: u64,
    pub(super) connection: Connection,
    pub(super) events: Arc<EventQueue>,
}

impl Channel {
    /// The channel's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next app or client event (or presence member change); `None` once the channel is
    /// unsubscribed or the connection is gone. Protocol messages about the subscription never
    /// come here. Events that arrive while this handle has 1024 undelivered ones are skipped.
    pub async fn next_event(&mut self) -> Option<ChannelEvent> {
        self.events.pop(&self.name).await
    }

    /// The events as a stream.
    pub fn into_stream(self) -> impl futures_core::Stream<Item = ChannelEvent> + Send + 'static {
        futures_util::stream::unfold(self, |mut channel| async move {
            channel.next_event().await.map(|event| (event, channel))
        })
    }

    /// The subscription status; `None` once unsubscribed.
    pub(super) fn status(&self) -> Option<Subscription> {
        let inner = self.connection.shared.lock();
        inner
            .channels
            .get(&*self.name)
            .filter(|s| s.id == self.id)
            .map(|s| s.status.clone())
    }

    /// True while the server has confirmed the subscription.
    pub fn is_subscribed(&self) -> bool {
        self.status() == Some(Subscription::Subscribed)
    }

    /// Waits until the subscription is confirmed (after a reconnect too).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] saying the subscription `was refused` and why (the authorizer failed,
    /// the server refused); [`Error::Timeout`] after `timeout`.
    pub async fn wait_subscribed(&mut self, timeout: Duration) -> Result<(), Error> {
        let shared = self.connection.shared.clone();
        let wait = async {
            loop {
                // Listening before looking: a change in between still wakes this.
                let changed = shared.subscriptions_changed.notified();
                let mut changed = std::pin::pin!(changed);
                changed.as_mut().enable();
                match self.status() {
                    Some(Subscription::Subscribed) => return Ok(()),
                    // The server or the authorizer refused it: an authorization failure.
                    Some(Subscription::Failed(reason)) => {
                        return Err(Error::config(format!(
                            "the subscription to `{}` was refused: {reason}",
                            self.name
                        )));
                    }
                    Some(Subscription::Pending) => {}
                    None => {
                        return Err(Error::config(format!("`{}` was unsubscribed", self.name)));
                    }
                }
                changed.await;
            }
        };
        tokio::time::timeout(timeout, wait).await.map_err(|_| {
            shared.in_context(
                Error::Timeout {
                    kind: crate::TimeoutKind::Deadline,
                    after: timeout,
                    context: None,
                },
                "wait_subscribed",
                format!(
                    "the server did not confirm `{}`: check that the connection is up and, for \
                     a private or presence channel, the authorizer",
                    self.name
                ),
            )
        })?
    }

    /// The members of a presence channel (after the subscription succeeded).
    pub fn members(&self) -> Option<Members> {
        let inner = self.connection.shared.lock();
        inner
            .channels
            .get(&*self.name)
            .filter(|s| s.id == self.id)
            .and_then(|s| s.members().cloned())
    }

    /// Sends a client event to the channel's other subscribers: the name must carry the
    /// client-event prefix, the channel kind must allow them, and at most the spec's number
    /// per second leave this connection.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] for a name or channel that does not qualify or when not
    /// subscribed; [`Error::RateLimited`] over the per-second limit.
    pub fn trigger<T: Serialize + ?Sized>(&self, event: &str, data: &T) -> Result<(), Error> {
        self.connection.trigger(&self.name, event, data)
    }
}
