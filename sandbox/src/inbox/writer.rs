//! The inbox's SQLite writer: one thread that applies the inbox's changes to the database in
//! the order they were queued, fed through a bounded queue, so no service waits on the disk
//! while it holds the inbox's lock (only when the queue is full, and that is counted).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;

use serde::Serialize;

use crate::store::{Db, StoreError};

/// Writes waiting for the database, at most; past it the caller waits (nothing is dropped).
pub const WRITE_QUEUE: usize = 1024;
/// Writes applied in one SQLite transaction, at most.
const BATCH: usize = 256;

/// One change to apply to the database.
pub(crate) type Job = Box<dyn FnOnce(&Db) -> Result<(), StoreError> + Send>;

enum Msg {
    Write(Job),
    Flush(SyncSender<()>),
}

/// Counters of the inbox's writes to its database (see [`super::Inbox::persist_stats`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PersistStats {
    /// Times a change found the write queue full ([`WRITE_QUEUE`]) and waited for the disk.
    pub waited_full: u64,
    /// Writes SQLite refused (logged; the record stays in memory).
    pub failed: u64,
}

#[derive(Default)]
struct Counters {
    waited_full: AtomicU64,
    failed: AtomicU64,
}

/// The writer thread and its queue. Dropping it writes what is queued, then ends the thread.
pub(crate) struct Writer {
    tx: Option<SyncSender<Msg>>,
    thread: Option<JoinHandle<()>>,
    counters: Arc<Counters>,
    capacity: usize,
}

impl Writer {
    /// Starts the thread that owns `db`; at most `capacity` writes wait.
    pub(crate) fn start(db: Db, capacity: usize) -> std::io::Result<Writer> {
        let capacity = capacity.max(1);
        let (tx, rx) = sync_channel(capacity);
        let counters = Arc::new(Counters::default());
        let thread = {
            let counters = counters.clone();
            std::thread::Builder::new()
                .name("inbox-sqlite".into())
                .spawn(move || run(&db, &rx, &counters))?
        };
        Ok(Writer {
            tx: Some(tx),
            thread: Some(thread),
            counters,
            capacity,
        })
    }

    /// Queues `job`; waits when the queue is full (counted and logged), so no change is lost
    /// and the order holds.
    pub(crate) fn write(&self, job: Job) {
        let Some(tx) = &self.tx else { return };
        let msg = match tx.try_send(Msg::Write(job)) {
            Ok(()) => return,
            Err(TrySendError::Full(msg)) => msg,
            Err(TrySendError::Disconnected(_)) => {
                self.counters.failed.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("inbox: the SQLite writer has stopped; a change is not saved");
                return;
            }
        };
        let waited = self.counters.waited_full.fetch_add(1, Ordering::Relaxed) + 1;
        if waited.is_power_of_two() {
            tracing::warn!(
                waited,
                "inbox: the SQLite write queue is full ({} changes); waiting for the disk",
                self.capacity
            );
        }
        if tx.send(msg).is_err() {
            self.counters.failed.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Waits until every change queued before this call is written.
    pub(crate) fn flush(&self) {
        let Some(tx) = &self.tx else { return };
        let (ack, done) = sync_channel(1);
        if tx.send(Msg::Flush(ack)).is_ok() {
            let _ = done.recv();
        }
    }

    pub(crate) fn stats(&self) -> PersistStats {
        PersistStats {
            waited_full: self.counters.waited_full.load(Ordering::Relaxed),
            failed: self.counters.failed.load(Ordering::Relaxed),
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Closing the queue ends the thread once it has written what waits.
        self.tx.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Applies writes in queue order, up to [`BATCH`] of those already waiting per transaction (one
/// commit for many small writes).
fn run(db: &Db, rx: &Receiver<Msg>, counters: &Counters) {
    let apply = |job: Job| {
        if let Err(e) = job(db) {
            counters.failed.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(error = %e, "inbox: cannot write to the data directory");
        }
    };
    while let Ok(first) = rx.recv() {
        let mut acks = Vec::new();
        let in_transaction = db.begin().is_ok();
        let mut next = Some(first);
        let mut count = 0;
        while let Some(msg) = next.take() {
            match msg {
                Msg::Write(job) => apply(job),
                Msg::Flush(ack) => acks.push(ack),
            }
            count += 1;
            if count < BATCH {
                next = rx.try_recv().ok();
            }
        }
        if in_transaction && let Err(e) = db.commit() {
            counters.failed.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(error = %e, "inbox: cannot commit to the data directory");
            // Leave no transaction open for the next batch.
            let _ = db.rollback();
        }
        for ack in acks {
            let _ = ack.send(());
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::sync::Mutex;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    #[test]
    fn a_full_queue_makes_the_caller_wait_counts_it_and_keeps_the_order() {
        let dir = tempfile::tempdir().unwrap();
        let writer = Writer::start(Db::open(dir.path()).unwrap(), 1).unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let (started_tx, started) = channel();
        let (gate, gate_rx) = channel::<()>();
        let job = |n: u32| -> Job {
            let order = order.clone();
            Box::new(move |_| {
                order.lock().unwrap().push(n);
                Ok(())
            })
        };
        // The first write holds the thread until the gate opens.
        {
            let order = order.clone();
            writer.write(Box::new(move |_| {
                started_tx.send(()).unwrap();
                gate_rx.recv().unwrap();
                order.lock().unwrap().push(0);
                Ok(())
            }));
        }
        started.recv().unwrap();
        writer.write(job(1)); // fills the queue of one
        assert_eq!(writer.stats().waited_full, 0);
        let opener = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            gate.send(()).unwrap();
        });
        writer.write(job(2)); // waits for room
        assert_eq!(writer.stats().waited_full, 1);
        // A refused write is counted, not raised.
        writer.write(Box::new(|_| {
            Err(StoreError::Decode(
                serde_json::from_str::<u8>("x").unwrap_err(),
            ))
        }));
        writer.flush();
        opener.join().unwrap();
        assert_eq!(*order.lock().unwrap(), [0, 1, 2]);
        // (That write may have waited for room too: only the failure is certain.)
        assert_eq!(writer.stats().failed, 1);
    }
}
