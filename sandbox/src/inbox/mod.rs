//! The inbox: a bounded record of everything the sandboxed services send (emails, messages,
//! webhook deliveries, realtime events), fed by small hooks in each service, optionally kept in
//! SQLite ([`crate::store`]), served as a web UI and a test API ([`web`]), and waited on from
//! Rust tests ([`Inbox::emails`], [`Inbox::messages`]).
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! let sandbox = tidings_sandbox::Sandbox::start().await?;
//! // ... the app under test sends an email through `sandbox.email` ...
//! let mail = sandbox
//!     .inbox
//!     .emails()
//!     .wait_for(Duration::from_secs(5), |m| m.subject.as_deref() == Some("Welcome"))
//!     .await?;
//! println!("{} went to {:?}", mail.id, mail.to);
//! # Ok(()) }
//! ```

mod guard;
mod mail;
pub mod web;
mod writer;

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch};

use crate::server::{Delivery, DeliveryOutcome, WebhookSender, now_rfc3339};
use crate::store::{Db, StateRow, StoreError};

pub use crate::records::{
    AttachmentInfo, CapturedEmail, CapturedMessage, Header, RealtimeRecord, StatusChange,
    WebhookRecord,
};
pub(crate) use mail::{bare_address, render_rest};
use writer::Writer;
pub use writer::{Durable, PersistStats, WRITE_QUEUE};

/// How much the inbox keeps; past a limit the oldest records are pruned (from SQLite too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Retention {
    /// Most records kept of each kind (emails, messages, webhook deliveries, realtime events);
    /// 5,000 by default.
    pub max_records: usize,
    /// Records older than this are pruned; none by default.
    pub max_age: Option<Duration>,
    /// Largest raw email source kept, in bytes (10 MiB by default); a larger one is kept
    /// truncated, without its attachments.
    pub max_raw_bytes: usize,
    /// Most bytes of emails kept in memory (raw sources, text and HTML bodies), whatever
    /// `max_records` says: past it the oldest emails are pruned (the newest one always stays);
    /// 256 MiB by default.
    pub max_bytes: usize,
}

/// Default of [`Retention::max_bytes`].
pub const DEFAULT_MAX_BYTES: usize = 256 * 1024 * 1024;

impl Default for Retention {
    fn default() -> Self {
        Retention {
            max_records: 5_000,
            max_age: None,
            max_raw_bytes: 10 * 1024 * 1024,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

impl Retention {
    /// Keeps at most `n` records of each kind (at least 1).
    #[must_use]
    pub fn max_records(mut self, n: usize) -> Self {
        self.max_records = n.max(1);
        self
    }

    /// Prunes records older than `age`.
    #[must_use]
    pub fn max_age(mut self, age: Option<Duration>) -> Self {
        self.max_age = age;
        self
    }

    /// Keeps at most `bytes` of emails in memory (at least 1 MiB).
    #[must_use]
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes.max(1024 * 1024);
        self
    }
}

/// What one kept email costs in memory, roughly: its source, its bodies and a fixed part.
fn email_bytes(email: &CapturedEmail, raw: Option<&Arc<[u8]>>) -> usize {
    raw.map_or(0, |r| r.len())
        + email.text.as_ref().map_or(0, String::len)
        + email.html.as_ref().map_or(0, String::len)
        + 512
}

/// What the inbox holds ([`Inbox::counts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct InboxCounts {
    /// Emails kept.
    pub emails: usize,
    /// Messages kept.
    pub messages: usize,
    /// Webhook deliveries kept.
    pub webhooks: usize,
    /// Realtime events kept.
    pub realtime: usize,
    /// Bytes the emails take in memory, as [`Retention::max_bytes`] counts them.
    pub email_bytes: usize,
}

/// What changed in the inbox, sent to live views (the UI's SSE stream).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// `email`, `message`, `webhook`, `realtime` or `all`.
    pub kind: &'static str,
    /// `new`, `update`, `delete` or `clear`.
    pub action: &'static str,
    /// The record's id (empty for `clear`).
    pub id: String,
}

/// Errors of the inbox's waits and persistence.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InboxError {
    /// Nothing matching arrived in time.
    #[error("nothing matching arrived within {0:?}")]
    Timeout(Duration),
    /// The SQLite store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The thread that writes to SQLite cannot start.
    #[error("cannot start the inbox's SQLite writer: {0}")]
    Writer(std::io::Error),
}

/// Why a recorded webhook cannot be sent again ([`Inbox::redeliver`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RedeliverError {
    /// The inbox holds no delivery with this id.
    #[error("no such delivery")]
    NotFound,
    /// The service that sent it is not running in this process (or has stopped).
    #[error("the {0} service is not running in this process")]
    NotRunning(String),
    /// The service's delivery queue is full; try again later.
    #[error("the {0} webhook queue is full; try again later")]
    Busy(String),
    /// The delivery cannot be signed again (its secret is missing or invalid).
    #[error("cannot sign the delivery again: {0}")]
    Unsigned(String),
}

/// A service that can send one of its recorded webhooks again, as a new delivery that it
/// records in the inbox like the first.
pub(crate) trait Redeliver: Send + Sync + 'static {
    /// Sends `record` again (signed with `secret`, the secret stored with it, or the service's
    /// own); the new delivery's id.
    fn redeliver(
        &self,
        inbox: &Inbox,
        record: &WebhookRecord,
        secret: Option<&str>,
    ) -> Result<String, RedeliverError>;
}

impl Redeliver for WebhookSender {
    fn redeliver(
        &self,
        _inbox: &Inbox,
        record: &WebhookRecord,
        secret: Option<&str>,
    ) -> Result<String, RedeliverError> {
        let secret = secret
            .filter(|s| !s.is_empty())
            .ok_or_else(|| RedeliverError::Unsigned("no secret is stored with it".into()))?;
        self.send(
            &record.url,
            secret,
            &record.event_type,
            record.body.clone().into_bytes(),
        )
        .map_err(|e| RedeliverError::Unsigned(e.to_string()))
    }
}

/// Capacity of the live-change channel; a slower viewer skips ahead and reloads.
const LIVE_CAPACITY: usize = 1024;

/// The recorder shared by the services and the UI. Cloning it is cheap (one shared state).
#[derive(Clone)]
pub struct Inbox {
    inner: Arc<Inner>,
}

impl fmt::Debug for Inbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.state();
        f.debug_struct("Inbox")
            .field("emails", &state.emails.len())
            .field("messages", &state.messages.len())
            .field("webhooks", &state.webhooks.len())
            .field("realtime", &state.realtime.len())
            .field("persistent", &self.inner.writer.is_some())
            .finish()
    }
}

struct Inner {
    retention: Retention,
    state: Mutex<State>,
    writer: Option<Writer>,
    live: broadcast::Sender<Change>,
    version: watch::Sender<u64>,
    senders: Mutex<BTreeMap<String, Arc<dyn Redeliver>>>,
    /// The services' state as the database held it at start, taken by each service once.
    loaded_state: Mutex<BTreeMap<String, Vec<StateRow>>>,
}

#[derive(Default)]
struct State {
    seq: u64,
    emails: VecDeque<CapturedEmail>,
    raws: BTreeMap<String, Arc<[u8]>>,
    messages: VecDeque<CapturedMessage>,
    webhooks: VecDeque<WebhookRecord>,
    secrets: BTreeMap<String, String>,
    realtime: VecDeque<RealtimeRecord>,
}

fn lock_ignoring_poison<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl State {
    /// Bytes the kept emails take ([`email_bytes`] summed).
    fn email_bytes(&self) -> usize {
        self.emails
            .iter()
            .map(|e| email_bytes(e, self.raws.get(&e.id)))
            .sum()
    }
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Default for Inbox {
    fn default() -> Self {
        Inbox::in_memory(Retention::default())
    }
}

impl Inbox {
    /// An inbox kept in memory only.
    pub fn in_memory(retention: Retention) -> Inbox {
        Inbox::build(retention, None, State::default())
    }

    /// An inbox kept in `db` too: loads what it holds (pruned to `retention`) and writes every
    /// change through, in order, from a thread of its own (see [`Inbox::flush`]).
    ///
    /// # Errors
    ///
    /// When the records cannot be read or the writer thread cannot start.
    pub fn persistent(retention: Retention, db: Db) -> Result<Inbox, InboxError> {
        let mut state = State::default();
        let loaded = db.load()?;
        state.seq = loaded.max_seq;
        state.emails = loaded.emails.into();
        state.raws = loaded
            .raws
            .into_iter()
            .map(|(id, raw)| (id, Arc::from(raw)))
            .collect();
        state.messages = loaded.messages.into();
        state.webhooks = loaded.webhooks.into();
        state.secrets = loaded.secrets;
        state.realtime = loaded.realtime.into();
        let writer = Writer::start(db, WRITE_QUEUE).map_err(InboxError::Writer)?;
        let inbox = Inbox::build(retention, Some(writer), state);
        *lock_ignoring_poison(&inbox.inner.loaded_state) = loaded.state;
        inbox.prune(&mut inbox.state());
        Ok(inbox)
    }

    fn build(retention: Retention, writer: Option<Writer>, state: State) -> Inbox {
        let (live, _) = broadcast::channel(LIVE_CAPACITY);
        let (version, _) = watch::channel(0);
        Inbox {
            inner: Arc::new(Inner {
                retention,
                state: Mutex::new(state),
                writer,
                live,
                version,
                senders: Mutex::new(BTreeMap::new()),
                loaded_state: Mutex::new(BTreeMap::new()),
            }),
        }
    }

    /// The retention limits.
    pub fn retention(&self) -> Retention {
        self.inner.retention
    }

    /// Whether records are kept in SQLite.
    pub fn is_persistent(&self) -> bool {
        self.inner.writer.is_some()
    }

    /// Waits until every change made so far is written to SQLite (at once in memory). The
    /// sandbox's shutdown calls it; so can a test before it reopens the data directory.
    pub fn flush(&self) {
        if let Some(writer) = &self.inner.writer {
            writer.flush();
        }
    }

    /// Writes what is queued, then closes the database, releasing the data directory for
    /// another process (the sandbox's shutdown calls it). Later changes stay in memory only.
    pub fn close(&self) {
        if let Some(writer) = &self.inner.writer {
            writer.close();
        }
    }

    /// The state `service` kept in the data directory at start (empty in memory, and on a
    /// second call): its objects `(kind, id, JSON)` in creation order.
    pub(crate) fn take_state(&self, service: &str) -> Vec<StateRow> {
        lock_ignoring_poison(&self.inner.loaded_state)
            .remove(service)
            .unwrap_or_default()
    }

    /// Stores (`Some` JSON) or removes (`None`) one object of `service`'s state, after every
    /// change queued before; the answer resolves once it is committed. Call it while holding
    /// the service's lock, so changes reach the disk in the order they were made.
    pub(crate) fn save_state(
        &self,
        service: &'static str,
        kind: &'static str,
        id: &str,
        doc: Option<String>,
    ) -> Durable {
        match &self.inner.writer {
            Some(writer) => {
                let id = id.to_owned();
                writer.write_durable(Box::new(move |db| {
                    db.put_state(service, kind, &id, doc.as_deref())
                }))
            }
            None => Durable::ready(),
        }
    }

    /// How many records of each kind are kept and the bytes the emails take, read under the
    /// lock without copying anything (the UI's summary).
    pub fn counts(&self) -> InboxCounts {
        let state = self.state();
        InboxCounts {
            emails: state.emails.len(),
            messages: state.messages.len(),
            webhooks: state.webhooks.len(),
            realtime: state.realtime.len(),
            email_bytes: state.email_bytes(),
        }
    }

    /// Counters of the writes to SQLite (zero in memory).
    pub fn persist_stats(&self) -> PersistStats {
        self.inner
            .writer
            .as_ref()
            .map(Writer::stats)
            .unwrap_or_default()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `f` for the database, when there is one. Called with the state lock held, so
    /// changes reach SQLite in the order they were made; the write itself happens on the
    /// writer thread. A failure is logged and counted, not raised: the services must keep
    /// answering even when the disk is full.
    fn persist(&self, f: impl FnOnce(&Db) -> Result<(), StoreError> + Send + 'static) {
        if let Some(writer) = &self.inner.writer {
            writer.write(Box::new(f));
        }
    }

    /// [`Inbox::persist`], and when the change is on disk.
    fn persist_durable(
        &self,
        f: impl FnOnce(&Db) -> Result<(), StoreError> + Send + 'static,
    ) -> Durable {
        match &self.inner.writer {
            Some(writer) => writer.write_durable(Box::new(f)),
            None => Durable::ready(),
        }
    }

    fn changed(&self, kind: &'static str, action: &'static str, id: &str) {
        let _ = self.inner.live.send(Change {
            kind,
            action,
            id: id.to_owned(),
        });
        self.inner.version.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// A receiver of every later change (for live views).
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.inner.live.subscribe()
    }

    /// Drops records past the retention limits, from memory and the database.
    fn prune(&self, state: &mut State) {
        let max = self.inner.retention.max_records;
        let cutoff = self
            .inner
            .retention
            .max_age
            .map(|age| now_ms().saturating_sub(u64::try_from(age.as_millis()).unwrap_or(0)));
        let old = |ms: u64| cutoff.is_some_and(|c| ms < c);
        let mut gone: Vec<(&'static str, String)> = Vec::new();
        for id in expire(&mut state.emails, max, |e| old(e.created_ms), |e| e.id) {
            state.raws.remove(&id);
            gone.push(("email", id));
        }
        // Bytes, whatever the count: the oldest go first, the newest stays.
        let mut bytes = state.email_bytes();
        let max_bytes = self.inner.retention.max_bytes;
        if bytes > max_bytes {
            let before = gone.len();
            while bytes > max_bytes && state.emails.len() > 1 {
                let Some(email) = state.emails.pop_front() else {
                    break;
                };
                let raw = state.raws.remove(&email.id);
                bytes = bytes.saturating_sub(email_bytes(&email, raw.as_ref()));
                gone.push(("email", email.id));
            }
            tracing::info!(
                pruned = gone.len() - before,
                max_bytes,
                "inbox: email memory budget reached; the oldest emails were pruned"
            );
        }
        for id in expire(&mut state.messages, max, |m| old(m.created_ms), |m| m.id) {
            gone.push(("message", id));
        }
        for id in expire(&mut state.webhooks, max, |w| old(w.created_ms), |w| w.id) {
            state.secrets.remove(&id);
            gone.push(("webhook", id));
        }
        for id in expire(&mut state.realtime, max, |r| old(r.created_ms), |r| r.id) {
            gone.push(("realtime", id));
        }
        if !gone.is_empty() {
            self.persist(move |db| db.delete_many(&gone));
        }
    }

    // ---- hooks called by the services ----

    /// Records an email the email service accepted; `raw` is the message as received (SMTP)
    /// or as the sandbox renders it (REST).
    pub(crate) fn record_email(
        &self,
        email: &tidings::email::Email,
        source: &str,
        raw: Vec<u8>,
    ) -> Durable {
        let (mut raw, truncated) = (raw, false);
        let truncated = truncated || raw.len() > self.inner.retention.max_raw_bytes;
        raw.truncate(self.inner.retention.max_raw_bytes);
        let attachments = if truncated {
            Vec::new()
        } else {
            mail::attachments(&raw)
        };
        let mut state = self.state();
        state.seq += 1;
        let record = CapturedEmail {
            id: email.id.clone(),
            seq: state.seq,
            source: source.to_owned(),
            from: email.from.clone(),
            to: email.to.clone(),
            cc: email.cc.clone().unwrap_or_default(),
            bcc: email.bcc.clone().unwrap_or_default(),
            subject: email.subject.clone(),
            text: email.text.clone(),
            html: email.html.clone(),
            status: email.status.to_string(),
            events: vec![StatusChange {
                status: email.status.to_string(),
                at: email.created_at.clone(),
            }],
            tags: email
                .tags
                .iter()
                .flatten()
                .map(|t| {
                    let v = serde_json::to_value(t).unwrap_or_default();
                    format!(
                        "{}={}",
                        v["name"].as_str().unwrap_or_default(),
                        v["value"].as_str().unwrap_or_default()
                    )
                })
                .collect(),
            attachments,
            raw_truncated: truncated,
            created_at: email.created_at.clone(),
            created_ms: now_ms(),
        };
        let raw: Arc<[u8]> = raw.into();
        let (saved, saved_raw) = (record.clone(), raw.clone());
        let durable = self.persist_durable(move |db| db.put_email(&saved, &saved_raw));
        state.raws.insert(record.id.clone(), raw);
        let id = record.id.clone();
        state.emails.push_back(record);
        self.prune(&mut state);
        drop(state);
        self.changed("email", "new", &id);
        durable
    }

    /// Records an email's new status.
    pub(crate) fn email_status(&self, id: &str, status: &str) {
        let mut state = self.state();
        let Some(record) = state.emails.iter_mut().rev().find(|e| e.id == id) else {
            return;
        };
        record.status = status.to_owned();
        record.events.push(StatusChange {
            status: status.to_owned(),
            at: now_rfc3339(),
        });
        let record = record.clone();
        self.persist(move |db| db.update_email(&record));
        drop(state);
        self.changed("email", "update", id);
    }

    /// Records a message sent (or received) by the messaging service.
    pub(crate) fn record_message(
        &self,
        message: &tidings::messaging::MessageRecord,
        content: serde_json::Value,
        templates: &[tidings::messaging::Template],
    ) -> Durable {
        let mut content = content;
        if let Some(map) = content.as_object_mut() {
            map.remove("webhook_url");
        }
        let channel = message.channel.to_string();
        let sms = (channel == "sms")
            .then(|| {
                message
                    .text
                    .as_deref()
                    .map(tidings::messaging::sms::segments)
            })
            .flatten();
        let template = content.get("template").cloned().map(|t| {
            let mut t = t;
            let name = t["name"].as_str().unwrap_or_default().to_owned();
            let language = t["language"].as_str().unwrap_or_default().to_owned();
            let known = templates
                .iter()
                .find(|k| k.name == name && k.language == language);
            if let (Some(known), Some(map)) = (known, t.as_object_mut()) {
                let body = known
                    .components
                    .iter()
                    .flatten()
                    .find(|c| c["type"] == "BODY")
                    .and_then(|c| c["text"].as_str())
                    .unwrap_or_default()
                    .to_owned();
                let params = template_parameters(&content);
                map.insert("rendered".into(), render_template(&body, &params).into());
            }
            t
        });
        let mut state = self.state();
        state.seq += 1;
        let status = message.status.to_string();
        let at = message.timestamp.clone().unwrap_or_else(now_rfc3339);
        let record = CapturedMessage {
            id: message.message_uuid.clone(),
            seq: state.seq,
            channel,
            message_type: message
                .message_type
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
            direction: message
                .direction
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
            from: message.from.clone(),
            to: message.to.clone(),
            text: message.text.clone(),
            encoding: sms.as_ref().map(|s| match s.encoding {
                tidings::messaging::sms::Encoding::Gsm7 => "GSM-7".to_owned(),
                _ => "UCS-2".to_owned(),
            }),
            segments: sms.map(|s| s.segments),
            template,
            content,
            status: status.clone(),
            events: vec![StatusChange {
                status,
                at: at.clone(),
            }],
            created_at: at,
            created_ms: now_ms(),
        };
        let saved = record.clone();
        let durable = self.persist_durable(move |db| db.put_message(&saved));
        let id = record.id.clone();
        state.messages.push_back(record);
        self.prune(&mut state);
        drop(state);
        self.changed("message", "new", &id);
        durable
    }

    /// Records a message's new status.
    pub(crate) fn message_status(&self, id: &str, status: &str) {
        let mut state = self.state();
        let Some(record) = state.messages.iter_mut().rev().find(|m| m.id == id) else {
            return;
        };
        record.status = status.to_owned();
        record.events.push(StatusChange {
            status: status.to_owned(),
            at: now_rfc3339(),
        });
        let record = record.clone();
        self.persist(move |db| db.update_message(&record));
        drop(state);
        self.changed("message", "update", id);
    }

    /// Records a realtime event.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record_realtime(
        &self,
        app_id: &str,
        kind: &str,
        channel: &str,
        event: Option<&str>,
        data: Option<&str>,
        socket_id: Option<&str>,
    ) {
        let mut state = self.state();
        state.seq += 1;
        let record = RealtimeRecord {
            id: state.seq.to_string(),
            seq: state.seq,
            app_id: app_id.to_owned(),
            kind: kind.to_owned(),
            channel: channel.to_owned(),
            event: event.map(str::to_owned),
            data: data.map(str::to_owned),
            socket_id: socket_id.map(str::to_owned),
            created_at: now_rfc3339(),
            created_ms: now_ms(),
        };
        let saved = record.clone();
        self.persist(move |db| db.put_realtime(&saved));
        let id = record.id.clone();
        state.realtime.push_back(record);
        self.prune(&mut state);
        drop(state);
        self.changed("realtime", "new", &id);
    }

    /// Follows the deliveries of `sender` (the `email` or `messaging` service's), so the inbox
    /// can show and redeliver them.
    pub(crate) fn watch_sender(&self, service: &str, sender: &WebhookSender) {
        self.watch_redeliverer(service, Arc::new(sender.clone()));
    }

    /// Makes `redeliverer` the one that sends `service`'s recorded webhooks again (the
    /// realtime service's hook).
    pub(crate) fn watch_redeliverer(&self, service: &str, redeliverer: Arc<dyn Redeliver>) {
        self.inner
            .senders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(service.to_owned(), redeliverer);
    }

    /// A webhook was queued (the observer hook of [`WebhookSender`], and the realtime
    /// service's). `secret` is kept for redelivery when given (Standard Webhooks secrets);
    /// the realtime app secret is not: its service signs redeliveries itself.
    pub(crate) fn webhook_queued(
        &self,
        service: &str,
        delivery: &Delivery,
        secret: Option<&str>,
        body: &[u8],
    ) {
        let mut state = self.state();
        state.seq += 1;
        let now = now_rfc3339();
        let mut record = WebhookRecord {
            id: delivery.id.clone(),
            seq: state.seq,
            service: service.to_owned(),
            url: delivery.url.clone(),
            event_type: delivery.event_type.clone(),
            attempts: 0,
            status: String::new(),
            response_status: None,
            error: None,
            headers: Vec::new(),
            body: String::from_utf8_lossy(body).into_owned(),
            redelivery_of: None,
            created_at: now.clone(),
            updated_at: now,
            created_ms: now_ms(),
        };
        apply_outcome(&mut record, delivery);
        let (saved, saved_secret) = (record.clone(), secret.map(str::to_owned));
        self.persist(move |db| db.put_webhook(&saved, saved_secret.as_deref()));
        if let Some(secret) = secret {
            state.secrets.insert(record.id.clone(), secret.to_owned());
        }
        let id = record.id.clone();
        state.webhooks.push_back(record);
        self.prune(&mut state);
        drop(state);
        self.changed("webhook", "new", &id);
    }

    /// A webhook attempt ended (the observer hook of [`WebhookSender`]).
    pub(crate) fn webhook_updated(&self, delivery: &Delivery) {
        let mut state = self.state();
        let Some(record) = state
            .webhooks
            .iter_mut()
            .rev()
            .find(|w| w.id == delivery.id)
        else {
            return;
        };
        apply_outcome(record, delivery);
        record.updated_at = now_rfc3339();
        let record = record.clone();
        self.persist(move |db| db.update_webhook(&record));
        drop(state);
        self.changed("webhook", "update", &delivery.id);
    }

    // ---- reading ----

    /// The emails, newest first.
    pub fn emails(&self) -> Emails<'_> {
        Emails { inbox: self }
    }

    /// The messages, newest first.
    pub fn messages(&self) -> Messages<'_> {
        Messages { inbox: self }
    }

    /// Every webhook delivery, newest first.
    pub fn webhooks(&self) -> Vec<WebhookRecord> {
        self.state().webhooks.iter().rev().cloned().collect()
    }

    /// One webhook delivery.
    pub fn webhook(&self, id: &str) -> Option<WebhookRecord> {
        self.state().webhooks.iter().find(|w| w.id == id).cloned()
    }

    /// The realtime event log, newest first.
    pub fn realtime_events(&self) -> Vec<RealtimeRecord> {
        self.state().realtime.iter().rev().cloned().collect()
    }

    /// The raw source of an email.
    pub fn raw_email(&self, id: &str) -> Option<Vec<u8>> {
        self.state().raws.get(id).map(|raw| raw.to_vec())
    }

    /// Sends a recorded webhook again, as a new delivery to the same URL with the same body:
    /// an email or messaging one with a new `webhook-id`, signed with the secret it was sent
    /// with; a realtime one signed again with the app's secret (which the inbox never keeps).
    /// Returns the new delivery's id.
    ///
    /// # Errors
    ///
    /// [`RedeliverError`] when the delivery is unknown, its service is not running in this
    /// process, its queue is full, or it cannot be signed.
    pub fn redeliver(&self, id: &str) -> Result<String, RedeliverError> {
        let (record, secret) = {
            let state = self.state();
            let record = state
                .webhooks
                .iter()
                .find(|w| w.id == id)
                .ok_or(RedeliverError::NotFound)?
                .clone();
            (record, state.secrets.get(id).cloned())
        };
        let sender = self
            .inner
            .senders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&record.service)
            .cloned()
            .ok_or_else(|| RedeliverError::NotRunning(record.service.clone()))?;
        let new_id = sender.redeliver(self, &record, secret.as_deref())?;
        let mut state = self.state();
        if let Some(w) = state.webhooks.iter_mut().rev().find(|w| w.id == new_id) {
            w.redelivery_of = Some(id.to_owned());
            let w = w.clone();
            self.persist(move |db| db.update_webhook(&w));
            drop(state);
            self.changed("webhook", "update", &new_id);
        }
        Ok(new_id)
    }

    /// Forgets one email; false when there was none.
    pub fn delete_email(&self, id: &str) -> bool {
        let mut state = self.state();
        let before = state.emails.len();
        state.emails.retain(|e| e.id != id);
        state.raws.remove(id);
        let found = state.emails.len() != before;
        if found {
            let gone = [("email", id.to_owned())];
            self.persist(move |db| db.delete_many(&gone));
        }
        drop(state);
        if found {
            self.changed("email", "delete", id);
        }
        found
    }

    /// Forgets one message; false when there was none.
    pub fn delete_message(&self, id: &str) -> bool {
        let mut state = self.state();
        let before = state.messages.len();
        state.messages.retain(|m| m.id != id);
        let found = state.messages.len() != before;
        if found {
            let gone = [("message", id.to_owned())];
            self.persist(move |db| db.delete_many(&gone));
        }
        drop(state);
        if found {
            self.changed("message", "delete", id);
        }
        found
    }

    /// Forgets every record of `kind` (`email`, `message`, `webhook`, `realtime`), or of every
    /// kind with `None`.
    pub fn clear(&self, kind: Option<&str>) {
        let mut state = self.state();
        let all = kind.is_none();
        let is = |k: &str| all || kind == Some(k);
        if is("email") {
            state.emails.clear();
            state.raws.clear();
        }
        if is("message") {
            state.messages.clear();
        }
        if is("webhook") {
            state.webhooks.clear();
            state.secrets.clear();
        }
        if is("realtime") {
            state.realtime.clear();
        }
        let cleared = kind.map(str::to_owned);
        self.persist(move |db| db.clear(cleared.as_deref()));
        drop(state);
        let kind = match kind {
            Some("email") => "email",
            Some("message") => "message",
            Some("webhook") => "webhook",
            Some("realtime") => "realtime",
            _ => "all",
        };
        self.changed(kind, "clear", "");
    }

    /// Waits until `find` returns something (checked now and after every change), at most
    /// `timeout`.
    async fn wait<T>(
        &self,
        timeout: Duration,
        mut find: impl FnMut(&State) -> Option<T>,
    ) -> Result<T, InboxError> {
        let mut version = self.inner.version.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            version.borrow_and_update();
            if let Some(found) = find(&self.state()) {
                return Ok(found);
            }
            match tokio::time::timeout_at(deadline, version.changed()).await {
                Ok(Ok(())) => {}
                _ => return Err(InboxError::Timeout(timeout)),
            }
        }
    }
}

fn apply_outcome(record: &mut WebhookRecord, delivery: &Delivery) {
    record.attempts = delivery.attempts;
    record.headers = delivery
        .headers
        .iter()
        .map(|(name, value)| Header {
            name: name.clone(),
            value: value.clone(),
        })
        .collect();
    match &delivery.outcome {
        DeliveryOutcome::Delivered { status } => {
            record.status = "delivered".into();
            record.response_status = Some(*status);
            record.error = None;
        }
        DeliveryOutcome::Failed { reason } => {
            record.status = "failed".into();
            record.error = Some(reason.clone());
        }
        DeliveryOutcome::NotSent => record.status = "not_sent".into(),
        _ => {
            record.status = "pending".into();
            record.error = delivery.last_error.clone();
        }
    }
}

/// The text parameters of a WhatsApp template message's body component, in order.
fn template_parameters(content: &serde_json::Value) -> Vec<String> {
    let template = &content["template"];
    let mut out = Vec::new();
    for component in template["components"].as_array().into_iter().flatten() {
        for p in component["parameters"].as_array().into_iter().flatten() {
            if let Some(text) = p["text"].as_str() {
                out.push(text.to_owned());
            }
        }
    }
    for p in template["parameters"].as_array().into_iter().flatten() {
        if let Some(text) = p.as_str().or_else(|| p["text"].as_str()) {
            out.push(text.to_owned());
        }
    }
    out
}

/// Fills `{{1}}`, `{{2}}`... with `params`.
fn render_template(body: &str, params: &[String]) -> String {
    let mut out = body.to_owned();
    for (i, value) in params.iter().enumerate() {
        out = out.replace(&format!("{{{{{}}}}}", i + 1), value);
    }
    out
}

/// A filter on emails: every field given must be contained (case-insensitively) in the
/// email's field; `q` in any of from, to, subject or text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct EmailFilter {
    /// Any of from, to, cc, subject or text.
    pub q: Option<String>,
    /// The sender.
    pub from: Option<String>,
    /// A recipient (to, cc or bcc).
    pub to: Option<String>,
    /// The subject.
    pub subject: Option<String>,
    /// The text or HTML body.
    pub text: Option<String>,
    /// Only emails that arrived after this `seq`.
    pub after_seq: Option<u64>,
}

fn contains(haystack: &str, needle: &str) -> bool {
    haystack.to_lowercase().contains(&needle.to_lowercase())
}

impl EmailFilter {
    /// Whether `email` passes.
    pub fn matches(&self, email: &CapturedEmail) -> bool {
        let recipients = || email.to.iter().chain(&email.cc).chain(&email.bcc);
        let subject = email.subject.as_deref().unwrap_or_default();
        let body = || {
            [email.text.as_deref(), email.html.as_deref()]
                .into_iter()
                .flatten()
        };
        let field = |f: &Option<String>, check: &dyn Fn(&str) -> bool| {
            f.as_deref().filter(|s| !s.is_empty()).is_none_or(check)
        };
        field(&self.from, &|n| contains(&email.from, n))
            && field(&self.to, &|n| recipients().any(|r| contains(r, n)))
            && field(&self.subject, &|n| contains(subject, n))
            && field(&self.text, &|n| body().any(|b| contains(b, n)))
            && field(&self.q, &|n| {
                contains(&email.from, n)
                    || recipients().any(|r| contains(r, n))
                    || contains(subject, n)
                    || body().any(|b| contains(b, n))
            })
            && self.after_seq.is_none_or(|s| email.seq > s)
    }
}

/// A filter on messages, like [`EmailFilter`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct MessageFilter {
    /// Any of from, to or text.
    pub q: Option<String>,
    /// The channel, exactly (`sms`).
    pub channel: Option<String>,
    /// The sender.
    pub from: Option<String>,
    /// The recipient.
    pub to: Option<String>,
    /// The text.
    pub text: Option<String>,
    /// Only messages that arrived after this `seq`.
    pub after_seq: Option<u64>,
}

impl MessageFilter {
    /// Whether `message` passes.
    pub fn matches(&self, message: &CapturedMessage) -> bool {
        let text = message.text.as_deref().unwrap_or_default();
        let field = |f: &Option<String>, check: &dyn Fn(&str) -> bool| {
            f.as_deref().filter(|s| !s.is_empty()).is_none_or(check)
        };
        field(&self.channel, &|c| message.channel.eq_ignore_ascii_case(c))
            && field(&self.from, &|n| contains(&message.from, n))
            && field(&self.to, &|n| contains(&message.to, n))
            && field(&self.text, &|n| contains(text, n))
            && field(&self.q, &|n| {
                contains(&message.from, n) || contains(&message.to, n) || contains(text, n)
            })
            && self.after_seq.is_none_or(|s| message.seq > s)
    }
}

/// The inbox's emails (see [`Inbox::emails`]).
#[derive(Debug, Clone, Copy)]
pub struct Emails<'a> {
    inbox: &'a Inbox,
}

impl Emails<'_> {
    /// Every email kept, newest first.
    pub fn all(&self) -> Vec<CapturedEmail> {
        self.inbox.state().emails.iter().rev().cloned().collect()
    }

    /// The emails `filter` passes, newest first.
    pub fn search(&self, filter: &EmailFilter) -> Vec<CapturedEmail> {
        self.inbox
            .state()
            .emails
            .iter()
            .rev()
            .filter(|e| filter.matches(e))
            .cloned()
            .collect()
    }

    /// One email.
    pub fn get(&self, id: &str) -> Option<CapturedEmail> {
        self.inbox
            .state()
            .emails
            .iter()
            .find(|e| e.id == id)
            .cloned()
    }

    /// The newest email `matches` accepts, once there is one: now or after a later arrival or
    /// status change, at most `timeout` from now.
    ///
    /// # Errors
    ///
    /// [`InboxError::Timeout`] when none came in time.
    pub async fn wait_for(
        &self,
        timeout: Duration,
        mut matches: impl FnMut(&CapturedEmail) -> bool,
    ) -> Result<CapturedEmail, InboxError> {
        self.inbox
            .wait(timeout, |s| {
                s.emails.iter().rev().find(|e| matches(e)).cloned()
            })
            .await
    }
}

/// The inbox's messages (see [`Inbox::messages`]).
#[derive(Debug, Clone, Copy)]
pub struct Messages<'a> {
    inbox: &'a Inbox,
}

impl Messages<'_> {
    /// Every message kept, newest first.
    pub fn all(&self) -> Vec<CapturedMessage> {
        self.inbox.state().messages.iter().rev().cloned().collect()
    }

    /// The messages `filter` passes, newest first.
    pub fn search(&self, filter: &MessageFilter) -> Vec<CapturedMessage> {
        self.inbox
            .state()
            .messages
            .iter()
            .rev()
            .filter(|m| filter.matches(m))
            .cloned()
            .collect()
    }

    /// One message.
    pub fn get(&self, id: &str) -> Option<CapturedMessage> {
        self.inbox
            .state()
            .messages
            .iter()
            .find(|m| m.id == id)
            .cloned()
    }

    /// The newest message `matches` accepts, once there is one, at most `timeout` from now.
    ///
    /// # Errors
    ///
    /// [`InboxError::Timeout`] when none came in time.
    pub async fn wait_for(
        &self,
        timeout: Duration,
        mut matches: impl FnMut(&CapturedMessage) -> bool,
    ) -> Result<CapturedMessage, InboxError> {
        self.inbox
            .wait(timeout, |s| {
                s.messages.iter().rev().find(|m| matches(m)).cloned()
            })
            .await
    }
}

/// The [`DeliveryObserver`] that feeds a service's webhook deliveries into the inbox. Holds the
/// inbox weakly: the inbox holds the sender (for redelivery).
struct SenderHook {
    inbox: std::sync::Weak<Inner>,
    service: &'static str,
}

impl crate::server::DeliveryObserver for SenderHook {
    fn queued(&self, delivery: &Delivery, secret: &str, body: &[u8]) {
        if let Some(inner) = self.inbox.upgrade() {
            Inbox { inner }.webhook_queued(self.service, delivery, Some(secret), body);
        }
    }

    fn updated(&self, delivery: &Delivery) {
        if let Some(inner) = self.inbox.upgrade() {
            Inbox { inner }.webhook_updated(delivery);
        }
    }
}

impl Inbox {
    /// Makes `sender` report to this inbox and keeps it for redelivery (the services' hook).
    pub(crate) fn attach_sender(
        &self,
        service: &'static str,
        sender: WebhookSender,
    ) -> WebhookSender {
        let sender = sender.observe(Arc::new(SenderHook {
            inbox: Arc::downgrade(&self.inner),
            service,
        }));
        self.watch_sender(service, &sender);
        sender
    }
}

impl Inbox {
    /// Records one of the realtime service's webhook-shaped events (`channel_occupied`,
    /// `member_added`, `client_event`...).
    pub(crate) fn record_realtime_hook(&self, app_id: &str, event: &serde_json::Value) {
        let text = |key: &str| event.get(key).and_then(serde_json::Value::as_str);
        let kind = text("name").unwrap_or("unknown");
        let data = text("data").or_else(|| text("user_id"));
        self.record_realtime(
            app_id,
            kind,
            text("channel").unwrap_or_default(),
            text("event"),
            data,
            text("socket_id"),
        );
    }
}

/// Pops records off the front of `queue` (the oldest) while it holds more than `max` or the
/// oldest is `old`; returns their ids.
fn expire<T>(
    queue: &mut VecDeque<T>,
    max: usize,
    old: impl Fn(&T) -> bool,
    id: impl Fn(T) -> String,
) -> Vec<String> {
    let mut ids = Vec::new();
    while queue.front().is_some_and(|r| queue.len() > max || old(r)) {
        if let Some(r) = queue.pop_front() {
            ids.push(id(r));
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;

    /// What writers and a reader of a persistent inbox wait: `n` realtime records written from
    /// one thread while another takes the state lock in a loop. Printed (`--nocapture`).
    fn measure(n: usize) -> (Inbox, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let inbox = Inbox::persistent(
            Retention::default().max_records(n + 1),
            Db::open(dir.path()).unwrap(),
        )
        .unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let (inbox, stop) = (inbox.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut waits = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    drop(inbox.state());
                    waits.push(t.elapsed());
                    std::thread::yield_now();
                }
                waits
            })
        };
        let started = Instant::now();
        let mut calls = Vec::with_capacity(n);
        for i in 0..n {
            let t = Instant::now();
            inbox.record_realtime(
                "1",
                "api_event",
                "load",
                Some("e"),
                Some(&i.to_string()),
                None,
            );
            calls.push(t.elapsed());
        }
        let written = started.elapsed();
        stop.store(true, Ordering::Relaxed);
        let mut waits = reader.join().unwrap();
        calls.sort();
        waits.sort();
        let pct = |v: &[Duration], p: f64| v[((v.len() - 1) as f64 * p) as usize];
        eprintln!(
            "{n} records: {written:?} in all; per call p50 {:?} p99 {:?} max {:?}; \
             reader lock wait p99 {:?} max {:?}",
            pct(&calls, 0.5),
            pct(&calls, 0.99),
            calls[n - 1],
            pct(&waits, 0.99),
            waits[waits.len() - 1],
        );
        (inbox, dir)
    }

    #[test]
    fn persistence_measured_keeps_every_record_in_order() {
        let (inbox, dir) = measure(2_000);
        let t = Instant::now();
        inbox.flush();
        eprintln!("flushed in {:?}; {:?}", t.elapsed(), inbox.persist_stats());
        // A burst this size may fill the queue (and wait); it never loses a write.
        assert_eq!(inbox.persist_stats().failed, 0);
        drop(inbox);
        let loaded = Db::open(dir.path()).unwrap().load().unwrap();
        let data: Vec<String> = loaded
            .realtime
            .iter()
            .filter_map(|r| r.data.clone())
            .collect();
        let expected: Vec<String> = (0..2_000).map(|i| i.to_string()).collect();
        assert_eq!(data, expected);
    }
}
