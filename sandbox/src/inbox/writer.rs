//! The inbox's SQLite writer: one thread that applies the inbox's changes to the database in
//! the order they were queued, fed through a bounded queue, so no service waits on the disk
//! while it holds the inbox's lock (only when the queue is full, and that is counted).
//!
//! Group commit: the thread applies what waits (up to [`BATCH`] changes) in one transaction and
//! then tells every change that asked ([`Durable`]) whether its transaction committed. A service
//! answers a send only after that, so what it acknowledged survives `kill -9`; a failed commit
//! (a full disk) reaches the sender as an error and is logged.

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

/// Told once the change's transaction committed (`Ok`) or failed (`Err` with why).
type Ack = tokio::sync::oneshot::Sender<Result<(), String>>;

enum Msg {
    Write(Job, Option<Ack>),
    Flush(SyncSender<()>),
    /// Ends the thread (closing the database and releasing the data directory's lock).
    Close(SyncSender<()>),
}

/// A change on its way to the disk: [`Durable::wait`] resolves once its transaction committed.
/// Without a data directory it is ready at once.
#[derive(Debug)]
#[must_use = "a change is durable only once `wait` says so"]
pub struct Durable(Vec<tokio::sync::oneshot::Receiver<Result<(), String>>>);

impl Durable {
    /// A change that needs no disk (in memory).
    pub(crate) fn ready() -> Durable {
        Durable(Vec::new())
    }

    /// A change that could not even be queued (`why` says so).
    pub(crate) fn failed(why: String) -> Durable {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let _ = tx.send(Err(why));
        Durable(vec![rx])
    }

    /// [`Durable::wait`] as a service's answer: 507 `insufficient_storage` when the change is
    /// not on disk (SMTP answers it with 452).
    pub(crate) async fn answer(self) -> Result<(), crate::server::ServerError> {
        self.wait().await.map_err(|why| {
            crate::server::ServerError::new(
                507,
                "insufficient_storage",
                format!(
                    "the sandbox cannot store this in its data directory ({why}); nothing \
                     was kept, try again once there is room"
                ),
            )
        })
    }

    /// Waits until the change is committed.
    ///
    /// # Errors
    ///
    /// Why it was not (a full disk, an I/O error, the writer stopped).
    pub async fn wait(self) -> Result<(), String> {
        for rx in self.0 {
            rx.await
                .unwrap_or_else(|_| Err("the SQLite writer has stopped".to_owned()))?;
        }
        Ok(())
    }
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
                .spawn(move || run(db, &rx, &counters))?
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
        self.send(job, None);
    }

    /// [`Writer::write`], and a [`Durable`] that resolves once the change is committed.
    pub(crate) fn write_durable(&self, job: Job) -> Durable {
        let (ack, rx) = tokio::sync::oneshot::channel();
        self.send(job, Some(ack));
        Durable(vec![rx])
    }

    fn send(&self, job: Job, ack: Option<Ack>) {
        let Some(tx) = &self.tx else { return };
        let msg = match tx.try_send(Msg::Write(job, ack)) {
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

    /// Writes what is queued, then closes the database (releasing the data directory).
    pub(crate) fn close(&self) {
        let Some(tx) = &self.tx else { return };
        let (ack, done) = sync_channel(1);
        if tx.send(Msg::Close(ack)).is_ok() {
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
/// commit for many small writes), then answers the batch's [`Durable`]s. A change SQLite refuses
/// fails its whole batch (rolled back: a refused write may have ended the transaction).
fn run(db: Db, rx: &Receiver<Msg>, counters: &Counters) {
    while let Ok(first) = rx.recv() {
        let mut acks = Vec::new();
        let mut flushes = Vec::new();
        let mut close = None;
        let mut failure: Option<String> = None;
        let in_transaction = db.begin().is_ok();
        let mut next = Some(first);
        let mut count = 0;
        let mut writes = 0u64;
        while let Some(msg) = next.take() {
            match msg {
                Msg::Write(job, ack) => {
                    writes += 1;
                    if let Err(e) = job(&db)
                        && failure.is_none()
                    {
                        failure = Some(e.to_string());
                    }
                    acks.extend(ack);
                }
                Msg::Flush(ack) => flushes.push(ack),
                Msg::Close(ack) => {
                    close = Some(ack);
                    break;
                }
            }
            count += 1;
            if count < BATCH {
                next = rx.try_recv().ok();
            }
        }
        if in_transaction {
            let committed = match &failure {
                None => db.commit().map_err(|e| e.to_string()),
                Some(_) => Err(String::new()),
            };
            if let Err(e) = committed {
                if failure.is_none() {
                    failure = Some(e);
                }
                // Leave no transaction open for the next batch.
                let _ = db.rollback();
            }
        }
        if let Some(why) = &failure {
            counters.failed.fetch_add(writes, Ordering::Relaxed);
            tracing::error!(
                changes = writes,
                "inbox: cannot write to the data directory ({why}); the senders of these \
                 changes get an error"
            );
        }
        for ack in acks {
            let _ = ack.send(failure.clone().map_or(Ok(()), Err));
        }
        for ack in flushes {
            let _ = ack.send(());
        }
        if let Some(ack) = close {
            drop(db);
            let _ = ack.send(());
            return;
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
        // The refused write fails its whole batch (those queued with it are counted too).
        assert!(writer.stats().failed >= 1);
    }
}
