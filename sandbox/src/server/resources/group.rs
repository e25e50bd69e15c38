//! Group commit for the durable store: a change is made in memory under the store's lock and
//! queued, in that order, to one writer thread, which commits everything queued so far in one
//! SQLite transaction and only then lets each change be answered.
//!
//! What is acknowledged is on disk: a request waits for the commit of its change (its
//! [`Ticket`]). A change other requests can already read may not be on disk yet, so a crash
//! may lose it, but it was never acknowledged (Redis's append-only file does the same). When a
//! commit fails, the writer takes the store's lock and undoes, newest first, every change made
//! in memory since the last commit that succeeded (the failed batch and whatever queued behind
//! it): memory is again exactly what is on disk, and each of those requests answers `507`.

use std::sync::mpsc::{Receiver, TrySendError};
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;

use super::durable::{Change, Journal};
use super::{Item, State, lock_state};

/// Changes committed in one transaction at most (a larger queue takes several).
pub(super) const MAX_BATCH: usize = 256;

/// Changes queued for the writer at most: past it a change answers `503` at once (the disk is
/// far behind) rather than the queue growing.
pub(super) const MAX_QUEUED: usize = 4_096;

/// How to take one change back out of memory.
#[derive(Debug)]
pub(super) enum Undo {
    /// An item was stored: put back the one it replaced (at its index), or remove it; restore
    /// the bytes and the id counter; drop the collection when this made it.
    Put {
        collection: String,
        id: String,
        replaced: Option<(usize, Item)>,
        new_collection: bool,
        stored_bytes: usize,
        next_id: u64,
    },
    /// An item was removed from `index`, with the collections nested under it: put them back.
    Delete {
        collection: String,
        index: usize,
        item: Item,
        nested: Vec<(String, Vec<Item>)>,
    },
    /// A setting was changed: restore what it was.
    Setting {
        name: String,
        previous: Option<String>,
    },
    /// Several changes made as one, in this order: undone newest first.
    Batch(Vec<Undo>),
}

impl Undo {
    /// Takes the change back out of `state`.
    pub(super) fn apply(self, state: &mut State) {
        match self {
            Undo::Put {
                collection,
                id,
                replaced,
                new_collection,
                stored_bytes,
                next_id,
            } => {
                if let Some(items) = state.collections.get_mut(&collection) {
                    match replaced {
                        Some((index, item)) if index < items.len() => items[index] = item,
                        Some((_, item)) => items.push(item),
                        None => items.retain(|i| i.id != id),
                    }
                    if new_collection && items.is_empty() {
                        state.collections.remove(&collection);
                    }
                }
                state.stored_bytes = stored_bytes;
                state.next_id = next_id;
            }
            Undo::Delete {
                collection,
                index,
                item,
                nested,
            } => {
                state.stored_bytes += item.bytes;
                let items = state.collections.entry(collection).or_default();
                let index = index.min(items.len());
                items.insert(index, item);
                for (name, items) in nested {
                    state.stored_bytes += items.iter().map(|i| i.bytes).sum::<usize>();
                    state.collections.insert(name, items);
                }
            }
            Undo::Batch(undos) => {
                for undo in undos.into_iter().rev() {
                    undo.apply(state);
                }
            }
            Undo::Setting { name, previous } => match previous {
                Some(value) => {
                    state.settings.insert(name, value);
                }
                None => {
                    state.settings.remove(&name);
                }
            },
        }
    }
}

/// A change on its way to disk.
struct Entry {
    change: Change,
    undo: Undo,
    done: tokio::sync::oneshot::Sender<Result<(), String>>,
}

/// What a request waits for before answering: its change's commit (`Err` says why it failed).
pub(super) type Ticket = tokio::sync::oneshot::Receiver<Result<(), String>>;

/// A change that could not be queued: its undo, and why.
pub(super) type Refused = Box<(Undo, &'static str)>;

/// The writer thread and the queue to it.
pub(super) struct Writer {
    queue: Option<std::sync::mpsc::SyncSender<Entry>>,
    thread: Option<JoinHandle<()>>,
}

impl Writer {
    /// Starts the writer committing to `journal`; `state` is the store's (for undoing).
    pub(super) fn spawn(
        journal: Box<dyn Journal>,
        state: Weak<Mutex<State>>,
    ) -> std::io::Result<Writer> {
        let (queue, rx) = std::sync::mpsc::sync_channel(MAX_QUEUED);
        let thread = std::thread::Builder::new()
            .name("tidings-resource-writer".to_owned())
            .spawn(move || run(rx, journal, state))?;
        Ok(Writer {
            queue: Some(queue),
            thread: Some(thread),
        })
    }

    /// Queues `change` (already made in memory; `undo` takes it back). Called with the store's
    /// lock held, so the queue's order is the order of the changes in memory. `Err` gives the
    /// undo back when the change cannot be queued.
    pub(super) fn queue(&self, change: Change, undo: Undo) -> Result<Ticket, Refused> {
        let Some(queue) = &self.queue else {
            return Err(Box::new((undo, "the store is closed")));
        };
        let (done, ticket) = tokio::sync::oneshot::channel();
        match queue.try_send(Entry { change, undo, done }) {
            Ok(()) => Ok(ticket),
            Err(TrySendError::Full(entry)) => Err(Box::new((
                entry.undo,
                "the disk is behind: more changes are waiting to be written than the sandbox queues",
            ))),
            Err(TrySendError::Disconnected(entry)) => {
                Err(Box::new((entry.undo, "the store's writer has stopped")))
            }
        }
    }

    /// Lets the writer commit what is queued and stop, then waits for it (the file is then
    /// released). Never called with the store's lock held: the writer may need it to undo.
    pub(super) fn stop(mut self) {
        self.finish();
    }

    fn finish(&mut self) {
        drop(self.queue.take());
        if let Some(thread) = self.thread.take() {
            // The writer's own thread may hold the last reference to the store (while undoing).
            if thread.thread().id() != std::thread::current().id() {
                let _ = thread.join();
            }
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The writer: commits what is queued in batches until the queue closes.
fn run(rx: Receiver<Entry>, mut journal: Box<dyn Journal>, state: Weak<Mutex<State>>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(entry) => batch.push(entry),
                Err(_) => break,
            }
        }
        let changes: Vec<&Change> = batch.iter().map(|e| &e.change).collect();
        match journal.commit(&changes) {
            Ok(()) => {
                for entry in batch {
                    let _ = entry.done.send(Ok(()));
                }
            }
            Err(why) => {
                tracing::error!(
                    changes = batch.len(),
                    error = %why,
                    "resource store: cannot write to the data directory; the changes are undone \
                     and answered 507"
                );
                undo_all(&rx, batch, state.upgrade(), &why);
            }
        }
    }
}

/// Undoes `batch` and every change queued behind it (all made in memory after the last
/// commit), newest first, and answers each with `why`.
fn undo_all(
    rx: &Receiver<Entry>,
    mut batch: Vec<Entry>,
    state: Option<Arc<Mutex<State>>>,
    why: &str,
) {
    let mut answers = Vec::with_capacity(batch.len());
    {
        let mut guard = state.as_deref().map(lock_state);
        // With the lock held nothing more is queued: what is in the queue now is everything
        // made in memory behind the batch.
        batch.extend(rx.try_iter());
        for entry in batch.into_iter().rev() {
            if let Some(state) = guard.as_deref_mut() {
                entry.undo.apply(state);
            }
            answers.push(entry.done);
        }
    }
    for done in answers {
        let _ = done.send(Err(why.to_owned()));
    }
}

/// A [`Journal`] that keeps what it is given in memory and can be told to fail (tests).
#[cfg(test)]
#[derive(Clone, Default)]
pub(super) struct Recorder {
    pub(super) fail: Arc<std::sync::atomic::AtomicBool>,
    /// The size of each batch committed.
    pub(super) batches: Arc<Mutex<Vec<usize>>>,
    /// Ids of the items committed and not deleted.
    pub(super) kept: Arc<Mutex<Vec<String>>>,
    /// How long each commit takes (so that changes queue behind it).
    pub(super) hold: std::time::Duration,
    /// Commits wait while a test holds this for writing.
    pub(super) gate: Arc<std::sync::RwLock<()>>,
}

#[cfg(test)]
impl Journal for Recorder {
    fn commit(&mut self, changes: &[&Change]) -> Result<(), String> {
        std::thread::sleep(self.hold);
        let _open = self.gate.read();
        if self.fail.load(std::sync::atomic::Ordering::SeqCst) {
            return Err("database or disk is full".to_owned());
        }
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        for change in changes {
            record(&mut kept, change);
        }
        self.batches
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(changes.len());
        Ok(())
    }
}

/// Keeps in `kept` the ids `change` stores, without those it deletes.
#[cfg(test)]
fn record(kept: &mut Vec<String>, change: &Change) {
    match change {
        Change::Put { id, .. } => {
            if !kept.contains(id) {
                kept.push(id.clone());
            }
        }
        Change::Delete { id, .. } => kept.retain(|k| k != id),
        Change::Setting { .. } => {}
        Change::Batch(changes) => {
            for change in changes {
                record(kept, change);
            }
        }
    }
}
