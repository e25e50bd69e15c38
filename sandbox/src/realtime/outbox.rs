//! A connection's outbound queue: bounded in frames and in bytes, so a client that stops
//! reading is closed (4100, over capacity) instead of buffered; and the close request, which
//! never waits behind queued frames.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{mpsc, watch};

use super::codes;

/// A close to send: code and reason.
pub(crate) type CloseRequest = (u16, String);

/// The hub's end: queues frames and asks for the close.
#[derive(Debug)]
pub(crate) struct OutboxSender {
    frames: mpsc::Sender<String>,
    queued_bytes: Arc<AtomicUsize>,
    max_bytes: usize,
    close: watch::Sender<Option<CloseRequest>>,
}

/// The socket task's end.
#[derive(Debug)]
pub(crate) struct OutboxReceiver {
    frames: mpsc::Receiver<String>,
    queued_bytes: Arc<AtomicUsize>,
    close: watch::Receiver<Option<CloseRequest>>,
}

/// What the socket task does next.
#[derive(Debug)]
pub(crate) enum Next {
    /// Writes this frame.
    Text(String),
    /// Closes with this code and reason.
    Close(CloseRequest),
    /// The hub dropped the connection.
    Gone,
}

/// A queue of at most `max_frames` frames and `max_bytes` bytes.
pub(crate) fn outbox(max_frames: usize, max_bytes: usize) -> (OutboxSender, OutboxReceiver) {
    let (tx, rx) = mpsc::channel(max_frames.max(1));
    let (close_tx, close_rx) = watch::channel(None);
    let queued_bytes = Arc::new(AtomicUsize::new(0));
    (
        OutboxSender {
            frames: tx,
            queued_bytes: queued_bytes.clone(),
            max_bytes,
            close: close_tx,
        },
        OutboxReceiver {
            frames: rx,
            queued_bytes,
            close: close_rx,
        },
    )
}

impl OutboxSender {
    /// Queues a frame; when the queue is full the connection is closed with 4100 instead.
    pub(crate) fn push(&self, text: &str) {
        let len = text.len();
        let before = self.queued_bytes.fetch_add(len, Ordering::AcqRel);
        let over_bytes = before.saturating_add(len) > self.max_bytes;
        if over_bytes || self.frames.try_send(text.to_owned()).is_err() {
            self.queued_bytes.fetch_sub(len, Ordering::AcqRel);
            if !self.frames.is_closed() {
                self.close(
                    codes::OVER_CAPACITY,
                    "over capacity: the client is not reading its events fast enough",
                );
            }
        }
    }

    /// Asks the socket task to close; the first request wins.
    pub(crate) fn close(&self, code: u16, reason: &str) {
        self.close.send_if_modified(|slot| {
            if slot.is_some() {
                return false;
            }
            *slot = Some((code, reason.to_owned()));
            true
        });
    }
}

impl OutboxReceiver {
    /// The next thing to do: a close request goes before any queued frame.
    pub(crate) async fn next(&mut self) -> Next {
        tokio::select! {
            biased;
            request = self.close.wait_for(Option::is_some) => match request {
                Ok(request) => request.clone().map_or(Next::Gone, Next::Close),
                Err(_) => Next::Gone,
            },
            frame = self.frames.recv() => match frame {
                Some(text) => {
                    self.queued_bytes.fetch_sub(text.len(), Ordering::AcqRel);
                    Next::Text(text)
                }
                None => Next::Gone,
            },
        }
    }

    /// Resolves when a close is requested (to race a write against).
    pub(crate) async fn close_requested(&mut self) -> Option<CloseRequest> {
        let request = match self.close.wait_for(Option::is_some).await {
            Ok(request) => request.clone(),
            Err(_) => None,
        };
        match request {
            Some(request) => Some(request),
            None => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[tokio::test]
    async fn a_full_queue_turns_into_a_close_with_over_capacity() {
        let (tx, mut rx) = outbox(2, 1024);
        tx.push("a");
        tx.push("b");
        tx.push("c");
        match rx.next().await {
            Next::Close((code, _)) => assert_eq!(code, codes::OVER_CAPACITY),
            other => panic!("expected a close, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn the_byte_bound_closes_before_the_frame_bound() {
        let (tx, mut rx) = outbox(100, 10);
        tx.push("12345");
        tx.push("123456");
        assert!(matches!(
            rx.next().await,
            Next::Close((codes::OVER_CAPACITY, _))
        ));
    }

    #[tokio::test]
    async fn frames_come_out_in_order_and_free_their_bytes() {
        let (tx, mut rx) = outbox(2, 10);
        for round in 0..5 {
            tx.push("12345");
            tx.push("12345");
            for _ in 0..2 {
                match rx.next().await {
                    Next::Text(t) => assert_eq!(t, "12345", "round {round}"),
                    other => panic!("round {round}: {other:?}"),
                }
            }
        }
    }
}
