//! The gateway's idempotency store: keys and the answers given to them, kept for the retention
//! time within an entry and byte budget, with a hash of each request to tell a replay from a reuse.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::http::{StatusCode, request::Parts};
use bytes::Bytes;
use sha2::{Digest, Sha256};

use super::ServerError;

mod file;

pub(crate) use file::AnswerFile;
pub use file::answer_path;

/// What an idempotency key maps to.
#[derive(Debug, Clone)]
pub(super) enum Slot {
    InFlight {
        fingerprint: Fingerprint,
    },
    Done {
        fingerprint: Fingerprint,
        answer: StoredAnswer,
        at: Instant,
    },
}

/// The SHA-256 of a request's method, path and raw body: what tells a replay from another
/// request under the same key, in 32 bytes whatever the body's size. Clients retry with the
/// same bytes, so the raw body is what is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fingerprint(pub(super) [u8; 32]);

impl Fingerprint {
    pub(super) fn new(parts: &Parts, body: &[u8]) -> Self {
        let mut hash = Sha256::new();
        hash.update(parts.method.as_str().as_bytes());
        hash.update([0]);
        hash.update(parts.uri.path().as_bytes());
        hash.update([0]);
        hash.update(body);
        Fingerprint(hash.finalize().into())
    }
}

/// What a replay needs: status, body and request id of the first answer.
#[derive(Debug, Clone)]
pub(super) struct StoredAnswer {
    pub(super) status: StatusCode,
    pub(super) body: Bytes,
    pub(super) request_id: String,
}

/// Bytes one stored key costs besides its answer's body (the key, hash, id, bookkeeping).
const SLOT_OVERHEAD: usize = 128;

/// Idempotency keys and the answers given to them: kept for the retention time, at most
/// `max_entries` keys and `max_bytes` of answers (the oldest answers go first).
#[derive(Debug, Clone)]
pub(super) struct IdempotencyStore {
    pub(super) retention: Duration,
    pub(super) max_entries: usize,
    pub(super) max_bytes: usize,
    pub(super) slots: Arc<Mutex<Slots>>,
    /// Where answers are kept across restarts (`--data`).
    pub(super) file: Option<AnswerFile>,
}

#[derive(Debug, Default)]
pub(super) struct Slots {
    pub(super) map: HashMap<String, Slot>,
    /// Answered keys, oldest first (answers expire in this order too).
    pub(super) answered: VecDeque<String>,
    /// What the answered keys cost, by [`StoredAnswer::cost`].
    pub(super) bytes: usize,
}

impl StoredAnswer {
    pub(super) fn cost(&self, key: &str) -> usize {
        SLOT_OVERHEAD + key.len() + self.body.len() + self.request_id.len()
    }
}

impl Slots {
    /// Forgets the oldest answer: its key, `None` when there is none.
    pub(super) fn evict_oldest(&mut self) -> Option<String> {
        let key = self.answered.pop_front()?;
        if let Some(Slot::Done { answer, .. }) = self.map.remove(&key) {
            self.bytes = self.bytes.saturating_sub(answer.cost(&key));
        }
        Some(key)
    }

    /// Forgets the answers older than `retention`: their keys.
    pub(super) fn expire(&mut self, retention: Duration) -> Vec<String> {
        let mut gone = Vec::new();
        while let Some(key) = self.answered.front() {
            let expired = match self.map.get(key) {
                Some(Slot::Done { at, .. }) => at.elapsed() >= retention,
                _ => true,
            };
            if !expired {
                break;
            }
            gone.extend(self.evict_oldest());
        }
        gone
    }
}

pub(super) enum Claim {
    /// First use: the request goes ahead.
    Reserved,
    /// A replay of a finished request: answer the same.
    Replay(StoredAnswer),
    /// Another body under this key, the first request is still running, or the store is full
    /// of requests in flight.
    Conflict(ServerError),
}

impl IdempotencyStore {
    pub(super) fn new(retention: Duration, max_entries: usize, max_bytes: usize) -> Self {
        IdempotencyStore {
            retention,
            max_entries: max_entries.max(1),
            max_bytes,
            slots: Arc::new(Mutex::new(Slots::default())),
            file: None,
        }
    }

    /// Keeps answers in `file` from now on, after loading the ones it holds that are younger
    /// than the retention, within the bounds (the rest are deleted from it).
    pub(crate) fn with_file(mut self, file: AnswerFile) -> Result<Self, String> {
        let kept = file.load(self.retention)?;
        let mut forgotten = Vec::new();
        {
            let mut slots = lock(&self.slots);
            for kept in kept {
                let cost = kept.answer.cost(&kept.key);
                if cost > self.max_bytes / 4 {
                    forgotten.push(kept.key);
                    continue;
                }
                while slots.map.len() >= self.max_entries || slots.bytes + cost > self.max_bytes {
                    match slots.evict_oldest() {
                        Some(key) => forgotten.push(key),
                        None => break,
                    }
                }
                slots.bytes += cost;
                slots.answered.push_back(kept.key.clone());
                let at = Instant::now()
                    .checked_sub(kept.age)
                    .unwrap_or_else(Instant::now);
                slots.map.insert(
                    kept.key,
                    Slot::Done {
                        fingerprint: kept.fingerprint,
                        answer: kept.answer,
                        at,
                    },
                );
            }
            tracing::info!(kept = slots.map.len(), "idempotency answers loaded");
        }
        file.forget(&forgotten);
        self.file = Some(file);
        Ok(self)
    }

    /// Deletes forgotten keys from the file too.
    fn forget(&self, keys: &[String]) {
        if let Some(file) = &self.file {
            file.forget(keys);
        }
    }

    pub(super) fn claim(&self, key: &str, fingerprint: Fingerprint) -> Claim {
        let mut slots = lock(&self.slots);
        let expired = slots.expire(self.retention);
        self.forget(&expired);
        match slots.map.get(key) {
            None => {
                while slots.map.len() >= self.max_entries {
                    if let Some(evicted) = slots.evict_oldest() {
                        self.forget(&[evicted]);
                    } else {
                        return Claim::Conflict(
                            ServerError::new(
                                503,
                                "service_unavailable",
                                "too many requests with idempotency keys are in flight; retry",
                            )
                            .with_header("Retry-After", "1"),
                        );
                    }
                }
                slots
                    .map
                    .insert(key.to_owned(), Slot::InFlight { fingerprint });
                Claim::Reserved
            }
            Some(Slot::Done {
                fingerprint: seen,
                answer,
                ..
            }) if *seen == fingerprint => Claim::Replay(answer.clone()),
            Some(Slot::InFlight { fingerprint: seen }) if *seen == fingerprint => {
                Claim::Conflict(ServerError::conflict(
                    "idempotency_key_reused",
                    "a request with this idempotency key is still being processed; retry later",
                ))
            }
            Some(_) => Claim::Conflict(ServerError::conflict(
                "idempotency_key_reused",
                "this idempotency key was used with a different request",
            )),
        }
    }

    /// Stores the answer for a replay (with a file, written there before it is sent); an
    /// answer too large to keep (over a quarter of the store) is not kept, and the key is
    /// released instead.
    pub(super) fn complete(&self, key: &str, answer: StoredAnswer) {
        let mut slots = lock(&self.slots);
        let Some(Slot::InFlight { fingerprint }) = slots.map.remove(key) else {
            return;
        };
        let cost = answer.cost(key);
        if cost > self.max_bytes / 4 {
            return;
        }
        while slots.bytes + cost > self.max_bytes {
            match slots.evict_oldest() {
                Some(evicted) => self.forget(&[evicted]),
                None => break,
            }
        }
        if let Some(file) = &self.file
            && let Err(why) = file.keep(key, &fingerprint, &answer)
        {
            // The request itself was done: its answer goes out, but a retry after a restart
            // would run it again.
            tracing::error!(
                error = %why,
                "idempotency: cannot keep an answer in the data directory; a retry after a \
                 restart would run the request again"
            );
        }
        slots.bytes += cost;
        slots.answered.push_back(key.to_owned());
        slots.map.insert(
            key.to_owned(),
            Slot::Done {
                fingerprint,
                answer,
                at: Instant::now(),
            },
        );
    }

    pub(super) fn release(&self, key: &str) {
        let mut slots = lock(&self.slots);
        if matches!(slots.map.get(key), Some(Slot::InFlight { .. })) {
            slots.map.remove(key);
        }
    }
}

/// A claimed idempotency key; released on drop unless an answer was stored.
#[derive(Debug)]
pub(super) struct Reservation {
    pub(super) store: IdempotencyStore,
    pub(super) key: String,
    pub(super) done: bool,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if !self.done {
            self.store.release(&self.key);
        }
    }
}

/// Locks `mutex`, going on with the data when a holder panicked (the gateway's state stays
/// usable).
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock cannot leave these maps inconsistent: keep serving.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
