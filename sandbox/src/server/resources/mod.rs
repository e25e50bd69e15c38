//! The spec-driven default behaviour of every generated server operation: a bounded in-memory
//! store of JSON resources keyed by the path's collection, and "fill", which turns any JSON
//! into a valid value of a spec type (missing required fields made up from type, format and
//! enum), guided by the static schema table the generator emits per service.
//!
//! With a data directory the store is durable ([`Resources::open`]): each change is committed to
//! its own SQLite file before it is made in memory and answered.
//!
//! Hand-written sandbox code overrides an operation by implementing its trait method; every
//! operation it does not implement lands here (see `spec/README.md`, "What the sandbox does with
//! a new operation").

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{PageRequest, ServerError, now_rfc3339, paginate};

mod action;
mod answer;
mod call;
mod check;
mod durable;
mod each;
mod expr;
mod fill;
mod group;
mod ids;
mod listing;
mod lookup;
mod merge;
mod names;
mod results;
mod sequences;
mod shape;
mod started;
mod state;
mod times;
mod typed;
mod wrapped;

pub use answer::{
    answer, answer_bytes, answer_empty, answer_optional, answer_text, call, from_json, to_json,
};
pub use call::ResourceCall;
pub use durable::{DIR_NAME, OpenError, store_path};
pub use fill::fill;
pub(crate) use fill::is_success_flag;
use names::declared;
pub(crate) use names::{plain, sent_as_its_id};
pub use results::failure_flags;
pub(crate) use shape::declared_keys_only;
pub(crate) use state::asks_for_descending;
pub(crate) use times::fits as time_fits;

use call::substitute;
use durable::Change;
use group::{Ticket, Undo, Writer};
use lookup::named_item;
use merge::merge_patch;
use shape::{
    answers_another, deleted_answer, envelope_of, filled_object, fits_id_field, from_path,
    id_value, make_id, only_declared, page_of,
};
use state::{
    filtered, find, home_of, id_text, many_ids, put, remove, remove_each, removes_many, room,
    settle,
};
pub(crate) use wrapped::item_type;

pub use tidings_spec::{
    FieldSchema, Format, PageSchema, ResourceAction, ResourceOp, ServiceSchema, ShapeSchema, Ty,
    TypeSchema,
};

/// Most fresh ids a create tries before it gives up on one that no item holds.
const MAX_ID_TRIES: u64 = 1024;

/// Items one collection keeps when [`ResourceLimits`] gives no other number.
pub const DEFAULT_MAX_ITEMS_PER_COLLECTION: usize = 1_000;
/// Collections (one per concrete collection path, so one per parent of a nested collection)
/// the store keeps by default.
pub const DEFAULT_MAX_COLLECTIONS: usize = 1_000;
/// Bytes of JSON (as serialized) the whole store keeps by default.
pub const DEFAULT_MAX_STORED_BYTES: usize = 64 * 1024 * 1024;

/// Where an item keeps a file sent as it is (`body_encoding: binary`): its bytes in base64,
/// beside what the answer holds; never answered as JSON (see `served::files`).
pub(crate) const FILE_BYTES: &str = "__sandbox_file_bytes";
/// Where an item keeps the media type its file came with.
pub(crate) const FILE_MEDIA: &str = "__sandbox_file_media_type";

/// Bounds of a [`Resources`] store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceLimits {
    /// Items one collection keeps ([`DEFAULT_MAX_ITEMS_PER_COLLECTION`]).
    pub max_items_per_collection: usize,
    /// Collections kept ([`DEFAULT_MAX_COLLECTIONS`]).
    pub max_collections: usize,
    /// Bytes of JSON kept in all ([`DEFAULT_MAX_STORED_BYTES`]).
    pub max_stored_bytes: usize,
}

impl Default for ResourceLimits {
    fn default() -> Self {
        ResourceLimits {
            max_items_per_collection: DEFAULT_MAX_ITEMS_PER_COLLECTION,
            max_collections: DEFAULT_MAX_COLLECTIONS,
            max_stored_bytes: DEFAULT_MAX_STORED_BYTES,
        }
    }
}

#[derive(Debug)]
struct Item {
    id: String,
    value: Map<String, Value>,
    bytes: usize,
}

#[derive(Debug, Default)]
struct State {
    /// Changes collected to be journaled as one ([`State::as_one`]), while one is under way.
    pending: Option<Vec<(Change, Undo)>>,
    collections: HashMap<String, Vec<Item>>,
    stored_bytes: usize,
    next_id: u64,
    settings: std::collections::BTreeMap<String, String>,
    disk: Disk,
    /// Collections whose items an integer path parameter names (see
    /// [`Resources::key_by_integers`]).
    integer_keyed: Vec<String>,
    /// The last number each collection's sequence field gave (keyed `collection field`): a
    /// deleted item's number is not given again while the sandbox runs (a restart counts on
    /// from the items kept).
    sequences: HashMap<String, i64>,
}

/// Where changes go once they are made in memory.
#[derive(Default)]
enum Disk {
    /// Memory only.
    #[default]
    None,
    /// Durable: every change queued to this writer, and answered once it has committed it.
    Journal(Writer),
    /// Durable, and closed ([`Resources::close`]): changes are refused.
    Closed,
}

impl fmt::Debug for Disk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Disk::None => "memory",
            Disk::Journal(_) => "durable",
            Disk::Closed => "closed",
        })
    }
}

/// The store's lock. A panic elsewhere while holding it leaves plain data behind: keep serving.
fn lock_state(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The bounded in-memory store behind every operation a sandbox does not implement by hand.
///
/// Durable when opened with [`Resources::open`] (`--data`): every change is committed to the
/// store's SQLite file before it is answered (concurrent changes share one transaction); a
/// change that cannot be committed answers `507 insufficient_storage` and is taken back out of
/// memory. Reads stay in memory.
///
/// ```
/// use tidings_sandbox::server::resources::{ResourceLimits, Resources};
/// let store = Resources::new(ResourceLimits::default());
/// assert_eq!(store.len(), 0);
/// ```
#[derive(Debug, Default)]
pub struct Resources {
    state: Arc<Mutex<State>>,
    limits: ResourceLimits,
}

impl Drop for Resources {
    /// Lets the writer commit what is queued and releases the file.
    fn drop(&mut self) {
        self.close();
    }
}

impl Resources {
    /// An empty store with these bounds.
    pub fn new(limits: ResourceLimits) -> Self {
        Resources {
            state: Arc::default(),
            limits,
        }
    }

    /// A durable store: loads the SQLite file at `path` (created when missing; see
    /// [`store_path`]) within `limits`, then commits every change to it before answering it. Items past a bound are left on disk, not loaded, and logged (a larger bound
    /// loads them again); an unreadable item is skipped with a warning. The id counter goes on
    /// past every stored id, so a new id never repeats a kept one. The file stays taken
    /// (SQLite's exclusive lock) until [`Resources::close`] or the store is dropped.
    ///
    /// # Errors
    ///
    /// When the file cannot be created, opened or read, or another store holds it.
    pub fn open(limits: ResourceLimits, path: &Path) -> Result<Resources, OpenError> {
        Resources::load(limits, path, durable::Sqlite::open(path)?)
    }

    /// [`Resources::open`] with the file already open.
    fn load(
        limits: ResourceLimits,
        path: &Path,
        sqlite: durable::Sqlite,
    ) -> Result<Resources, OpenError> {
        let stored = sqlite.load().map_err(|source| OpenError::Sqlite {
            path: path.to_owned(),
            source,
        })?;
        let store = Resources::new(limits);
        {
            let mut state = store.lock();
            let mut next_id = stored.next_id;
            state.settings = stored.settings;
            let (mut over, mut unreadable) = (0usize, 0usize);
            for row in stored.rows {
                next_id = next_id.max(durable::id_number(&row.id).unwrap_or(0));
                let Ok(Value::Object(value)) = serde_json::from_str::<Value>(&row.doc) else {
                    unreadable += 1;
                    tracing::warn!(
                        collection = row.collection,
                        id = row.id,
                        "resource store: skipping an unreadable stored item"
                    );
                    continue;
                };
                let bytes = row.doc.len();
                match room(&state, limits, &row.collection, &row.id, bytes) {
                    Ok((existing, total)) => {
                        let _ = put(
                            &mut state,
                            &row.collection,
                            existing,
                            Item {
                                id: row.id,
                                value,
                                bytes,
                            },
                            total,
                        );
                    }
                    Err(_) => over += 1,
                }
            }
            state.next_id = next_id;
            if over > 0 {
                tracing::warn!(
                    path = %path.display(),
                    not_loaded = over,
                    "resource store: the stored items are more than its bounds allow \
                     (items per collection, collections, bytes); the rest stay on disk, not served"
                );
            }
            let loaded: usize = state.collections.values().map(Vec::len).sum();
            tracing::info!(path = %path.display(), loaded, unreadable, "resource store loaded");
            state.disk = Disk::Journal(
                Writer::spawn(Box::new(sqlite), Arc::downgrade(&store.state)).map_err(
                    |source| OpenError::Writer {
                        path: path.to_owned(),
                        source,
                    },
                )?,
            );
        }
        Ok(store)
    }

    /// [`Resources::open`] on the file `name` names in the data directory `data` (see
    /// [`store_path`]), or [`Resources::new`] without one.
    ///
    /// # Errors
    ///
    /// As [`Resources::open`].
    pub fn in_data_dir(
        limits: ResourceLimits,
        data: Option<&Path>,
        name: &str,
    ) -> Result<Resources, OpenError> {
        match data {
            Some(dir) => Resources::open(limits, &store_path(dir, name)),
            None => Ok(Resources::new(limits)),
        }
    }

    /// A store committing to `journal` (tests of the failure path).
    #[cfg(test)]
    fn with_journal(limits: ResourceLimits, journal: Box<dyn durable::Journal>) -> Resources {
        let store = Resources::new(limits);
        let writer = Writer::spawn(journal, Arc::downgrade(&store.state));
        store.lock().disk = Disk::Journal(writer.unwrap_or_else(|e| panic!("writer: {e}")));
        store
    }

    /// A value kept with the store by [`Resources::keep_setting`] (loaded back by
    /// [`Resources::open`]).
    pub fn setting(&self, name: &str) -> Option<String> {
        self.lock().settings.get(name).cloned()
    }

    /// Keeps `value` as `name` with the store (a served spec's credentials, so a restart on
    /// the same data directory accepts the same ones); committed first when durable.
    ///
    /// # Errors
    ///
    /// `507` when it cannot be committed (then nothing changes).
    pub async fn keep_setting(&self, name: &str, value: &str) -> Result<(), ServerError> {
        let ticket = {
            let mut state = self.lock();
            if state.settings.get(name).is_some_and(|v| v == value) {
                return Ok(());
            }
            let previous = state.settings.insert(name.to_owned(), value.to_owned());
            state.journal(
                || Change::Setting {
                    name: name.to_owned(),
                    value: value.to_owned(),
                },
                Undo::Setting {
                    name: name.to_owned(),
                    previous,
                },
            )?
        };
        settle(ticket).await
    }

    /// Whether changes are committed to disk ([`Resources::open`]).
    pub fn is_durable(&self) -> bool {
        !matches!(self.lock().disk, Disk::None)
    }

    /// Closes a durable store's file (releasing it for the next start); later changes answer
    /// `503` and change nothing, reads go on. Nothing to do in memory. The services call it
    /// when they stop.
    pub fn close(&self) {
        let writer = {
            let mut state = self.lock();
            match std::mem::take(&mut state.disk) {
                Disk::Journal(writer) => {
                    state.disk = Disk::Closed;
                    Some(writer)
                }
                other => {
                    state.disk = other;
                    None
                }
            }
        };
        // Outside the lock: the writer may need it to undo a failed batch before it stops.
        if let Some(writer) = writer {
            writer.stop();
        }
    }

    /// Items stored, in all collections.
    pub fn len(&self) -> usize {
        self.lock().collections.values().map(Vec::len).sum()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every collection and the items it holds, in name order (a nested collection is one per
    /// parent: `lists/7/members`).
    pub fn collections(&self) -> Vec<(String, usize)> {
        let state = self.lock();
        let mut out: Vec<(String, usize)> = state
            .collections
            .iter()
            .map(|(name, items)| (name.clone(), items.len()))
            .collect();
        out.sort();
        out
    }

    /// Items `skip..skip + take` of `collection`, oldest first, as stored, and how many it
    /// holds; `None` when there is no such collection.
    ///
    /// ```
    /// use tidings_sandbox::server::resources::{ResourceLimits, Resources};
    /// let store = Resources::new(ResourceLimits::default());
    /// assert!(store.items("notes", 0, 10).is_none());
    /// ```
    pub fn items(&self, collection: &str, skip: usize, take: usize) -> Option<(usize, Vec<Value>)> {
        let state = self.lock();
        let items = state.collections.get(collection)?;
        let page = items
            .iter()
            .skip(skip)
            .take(take)
            .map(|i| Value::Object(i.value.clone()))
            .collect();
        Some((items.len(), page))
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        lock_state(&self.state)
    }

    /// Runs `op`'s default behaviour and returns its success body as JSON (`Null` for an
    /// empty answer).
    ///
    /// # Errors
    /// 404 for an item (or a cursor) that does not exist, 409 `collection_full` when a bound
    /// of [`ResourceLimits`] is reached; durable, 507 when the change cannot be committed.
    pub async fn serve(
        &self,
        schema: &ServiceSchema,
        op: &ResourceOp,
        call: &ResourceCall,
    ) -> Result<Value, ServerError> {
        let (value, ticket) = self.change(schema, op, call)?;
        settle(ticket).await?;
        Ok(value)
    }

    /// [`Resources::serve`] waited for on a runtime of its own (tests).
    #[cfg(test)]
    pub(crate) fn serve_now(
        &self,
        schema: &ServiceSchema,
        op: &ResourceOp,
        call: &ResourceCall,
    ) -> Result<Value, ServerError> {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime")
            .block_on(self.serve(schema, op, call))
    }

    /// [`Resources::serve`] in memory: the answer, and the ticket of its commit when durable.
    fn change(
        &self,
        schema: &ServiceSchema,
        op: &ResourceOp,
        call: &ResourceCall,
    ) -> Result<(Value, Option<Ticket>), ServerError> {
        let op = &self.singleton_now(op, call);
        let collection = substitute(op.collection, &call.path);
        let named = named_item(op, call);
        let item_id = named.as_deref();
        let body = match &call.body {
            Value::Object(map) => map.clone(),
            _ => Map::new(),
        };
        // A create with a list of items (Mailgun's bounces: up to 1,000 in one call) creates
        // each, and answers its response type.
        if let (ResourceAction::Create, Value::Array(items)) = (op.kind, &call.body) {
            return self.create_each(schema, op, &collection, &call.body, items, false);
        }
        // A create of each item of a body list (SendGrid's `PUT /marketing/contacts` with
        // `contacts: [...]`): one with the id or email of an item held updates that item.
        if let (ResourceAction::Create, Some(field)) = (op.kind, op.items) {
            match call.body.get(field) {
                Some(Value::Array(items)) => {
                    return self.create_each(schema, op, &collection, &call.body, items, true);
                }
                // Items keyed by their ids (Stream's `users: {"<id>": {...}}`): each value,
                // its id the key where it names none.
                Some(Value::Object(keyed)) => {
                    let items = each::keyed_items(keyed, op.id_field);
                    return self.create_each(schema, op, &collection, &call.body, &items, true);
                }
                _ => {}
            }
        }
        let (wrapped, item_ty) = item_type(schema, op);
        let mut body = body;
        // A body that holds the item in the field the answer holds it in (Stream's `POST
        // .../message` with `{"message": {"id", "text"}}`, answered `{"message": {...}}`):
        // that object is what is written.
        if let Some((field, _)) = wrapped
            && !body.contains_key(op.id_field)
            && let Some(Value::Object(inner)) = body.get(field)
        {
            body = inner.clone();
        } else if let Some(inner) = wrapped::root_wrapped(schema, item_ty.as_ref(), &body) {
            // A body that wraps the item in one key the item does not have (Mailtrap's
            // `{"email_template": {...}}`, Rails' root key), answered unwrapped.
            body = inner;
        }
        // What the path names is the item's too (a replace under a parent: Resend's contact
        // added to a segment answers its `contact_id`).
        if matches!(op.kind, ResourceAction::Create | ResourceAction::Replace) {
            from_path(
                schema,
                op,
                item_ty.as_ref(),
                &call.path_as_sent(op),
                &mut body,
            );
        }
        // What the item cannot hold is refused, not stored and answered as a made-up value.
        if matches!(
            op.kind,
            ResourceAction::Create | ResourceAction::Replace | ResourceAction::Merge
        ) && let Some((field, why)) = fill::unheld(schema, item_ty.as_ref(), &body)
        {
            return Err(ServerError::validation(field, why));
        }
        let mut state = self.lock();
        // An item of a top-level collection may live under a parent (see `home_of`); an
        // item path under a parent (`/contacts/{id}/segments/{segment_id}`) names its own.
        let addressed = collection.clone();
        let collection = match op.kind {
            ResourceAction::Create | ResourceAction::List => collection,
            _ if op.collection.contains('{') => collection,
            _ => home_of(&state, &collection, item_id),
        };
        let mut ticket = None;
        // The answer's items, when it is a list made from the request.
        let mut listed = None;
        let found = match op.kind {
            ResourceAction::Create => {
                let (value, committed) = self.create_one(
                    &mut state,
                    schema,
                    op,
                    &collection,
                    (item_ty.as_ref(), call),
                    body,
                )?;
                ticket = committed;
                Some(value)
            }
            ResourceAction::List => {
                let all = state
                    .collections
                    .get(&collection)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                // A list asked by a `POST` names its filters in its body too (Mandrill's
                // `/templates/list {label}`).
                let asked = match (&call.query, &call.body) {
                    (Value::Object(query), Value::Object(body)) if !body.is_empty() => {
                        let mut both = body.clone();
                        both.extend(query.clone());
                        std::borrow::Cow::Owned(Value::Object(both))
                    }
                    (Value::Null, body @ Value::Object(_)) => std::borrow::Cow::Borrowed(body),
                    (query, _) => std::borrow::Cow::Borrowed(query),
                };
                let mut items = filtered(all, op, &asked);
                listing::expressed(&mut items, &call.query)?;
                listing::searched(&mut items, &call.body)?;
                let members = listing::named_members(&state, op, &items);
                if let Some(members) = &members {
                    items = members.iter().collect();
                }
                let items = items.as_slice();
                if let (Some(path), Some(ty)) = (op.items, &op.response) {
                    return Ok((envelope_of(schema, op, ty, path, items), None));
                }
                return Ok((page_of(schema, op, items, &call.query)?, None));
            }
            ResourceAction::Get => {
                let item = find(&state, &collection, item_id, op)?;
                let mut value = item.value.clone();
                // The id also under the name this answer gives it, when the item lacks it
                // (Postmark's create answers `TemplateId`, its get `TemplateID`).
                if declared(schema, item_ty.as_ref(), op.id_field)
                    && !item.id.is_empty()
                    && fits_id_field(schema, op, &item.id)
                {
                    value
                        .entry(op.id_field.to_owned())
                        .or_insert_with(|| id_value(schema, op, &item.id));
                }
                Some(value)
            }
            ResourceAction::Merge => {
                let id = item_id.unwrap_or_default().to_owned();
                let mut value = find(&state, &collection, item_id, op)?.value.clone();
                // A body naming another item than the path (JSON:API's `data.id`) is a
                // conflict, not a new id for this one (two items then had the same id).
                if let Some(sent) = body
                    .get(op.id_field)
                    .filter(|_| tidings_spec::id_like(op.id_field))
                    && let Some(held) = value.get(op.id_field)
                    && text_of(sent) != text_of(held)
                {
                    let why = format!(
                        "the body's `{}` is {sent}, not the item's {held}",
                        op.id_field
                    );
                    return Err(ServerError::new(409, "conflict", why).with_param(op.id_field));
                }
                let required = shape::required_of(schema, item_ty.as_ref());
                let body = match op.item_field {
                    Some(named_by) => merge::changes_inside(body, &value, Some(named_by)),
                    None => body,
                };
                merge_patch(&mut value, body, required, call.merge_nested);
                fill::stamp_last_change(schema, item_ty.as_ref(), &mut value);
                let value = filled_object(schema, item_ty.as_ref(), value);
                ticket = self.insert(&mut state, &collection, id, value.clone(), None)?;
                Some(value)
            }
            ResourceAction::Replace => {
                let id = item_id.unwrap_or_default().to_owned();
                // An item that exists keeps what the body does not send (many APIs' `PUT` is
                // partial: Brevo's contact update), and its id as it was stored.
                let kept = state
                    .collections
                    .get(&collection)
                    .and_then(|items| items.iter().find(|i| i.id == id))
                    .map(|i| i.value.clone());
                let id_kept = kept.as_ref().and_then(|v| v.get(op.id_field)).cloned();
                let mut value = kept.unwrap_or_default();
                for (key, v) in body {
                    if v.is_null() {
                        value.remove(&key);
                    } else {
                        value.insert(key, v);
                    }
                }
                // A singleton (kept under the empty id) has no id of its own.
                if let Some(kept) =
                    id_kept.or_else(|| (!id.is_empty()).then(|| id_value(schema, op, &id)))
                {
                    value.insert(op.id_field.to_owned(), kept);
                }
                fill::stamp_last_change(schema, item_ty.as_ref(), &mut value);
                let value = filled_object(schema, item_ty.as_ref(), value);
                ticket = self.insert(&mut state, &collection, id, value.clone(), None)?;
                Some(value)
            }
            // The items a query parameter or body field lists by id, or (Ably's devices of one
            // `clientId`) a filter of the query selects, or all: each held one removed.
            ResourceAction::Delete
                if item_id.is_none() && removes_many(&state, &collection, op) =>
            {
                let ids = many_ids(&state, &collection, op, call);
                ticket = remove_each(&mut state, &collection, &ids, op)?;
                Some(Map::new())
            }
            ResourceAction::Delete => {
                // What lives under the item goes with it (an Ably app's keys).
                let under = [collection.as_str(), addressed.as_str()];
                let (mut value, committed) = remove(&mut state, &collection, item_id, op, &under)?;
                ticket = committed;
                value.insert("deleted".to_owned(), Value::Bool(true));
                Some(deleted_answer(schema, op, value))
            }
            // A check of a code answers about the item it names (see `check`).
            ResourceAction::Action
                if let Some(checked) = check::code_check(
                    &state,
                    schema,
                    op,
                    (&collection, item_id),
                    (call, &body),
                ) =>
            {
                let checked = checked?;
                if let Some((held_in, id, value)) = checked.kept {
                    ticket = self.insert(&mut state, &held_in, id, value, None)?;
                }
                Some(checked.answer)
            }
            ResourceAction::Action => {
                let answered =
                    action::answer(&mut state, schema, op, &collection, item_id, call, body)?;
                listed = answered.listed;
                // What a start made is kept, found by its id (see `started`).
                if let Some(id) = answered
                    .made
                    .filter(|_| call.keeps_made && listed.is_none())
                {
                    ticket =
                        self.insert(&mut state, &collection, id, answered.value.clone(), None)?;
                }
                Some(answered.value)
            }
        };
        drop(state);
        let found = match (wrapped, found) {
            (Some((field, ty)), Some(item)) => {
                let item = match ty {
                    Ty::List(_) => Value::Array(vec![Value::Object(item)]),
                    _ => Value::Object(item),
                };
                Some(Map::from_iter([(field.to_owned(), item)]))
            }
            (_, found) => found,
        };
        let value = match (&op.response, found) {
            // A file kept as it came is answered as it is (the caller sends its bytes).
            (None | Some(Ty::String), Some(value)) if value.contains_key(FILE_BYTES) => {
                Value::Object(value)
            }
            (Some(ty), Some(value)) => {
                let mut value = listed.map_or(Value::Object(value), Value::Array);
                if op.kind == ResourceAction::Action && (item_id.is_none() || answers_another(op)) {
                    // A send answers an id for each thing it made (Infobip's
                    // `messages[].messageId`), given before the rest is made up.
                    value = self.item_ids(schema, ty, value);
                }
                // What an action answers is what it did: `sent`, `queued`, Mandrill's
                // pool `deleted` (an item's own flags stay as they are).
                if op.kind == ResourceAction::Action {
                    results::result_flags(schema, ty, &mut value);
                }
                let value = fill(schema, ty, Some(&value), 0, None);
                // What any operation answers is its response type, not the request echoed
                // (Brevo's contact creation answers `{"id": 21}`; a Telnyx call must not
                // answer the `sip_auth_password` it was dialled with); what is stored keeps
                // every field.
                only_declared(schema, ty, value)
            }
            _ => Value::Null,
        };
        Ok((value, ticket))
    }

    /// Stores `body` as a new item of `collection`: keyed by the id the client gave in the id
    /// field (an item with that id is updated with what the body sends), else by a fresh one
    /// (past the counter, and not one a replace already put there); a new item gets what
    /// `call` says the service sets (its `sendable` fields, `read_as`, `item_path`). The item
    /// stored, and the ticket of its commit.
    fn create_one(
        &self,
        state: &mut State,
        schema: &ServiceSchema,
        op: &ResourceOp,
        collection: &str,
        (item_ty, call): (Option<&Ty>, &ResourceCall),
        mut body: Map<String, Value>,
    ) -> Result<(Map<String, Value>, Option<Ticket>), ServerError> {
        let (sendable, read_as) = (call.sendable, call.read_as.as_ref());
        let held: Vec<_> = state
            .collections
            .get(collection)
            .into_iter()
            .flatten()
            .map(|i| &i.value)
            .collect();
        sequences::position_id(
            schema,
            (op, item_ty),
            (collection, &held),
            &mut state.sequences,
            &mut body,
        );
        let given = body.get(op.id_field).and_then(id_text);
        // Numbers where an integer path parameter names the items and the id field takes them.
        let integers =
            shape::digits_fit(schema, op) && state.integer_keyed.iter().any(|c| c == op.collection);
        let make_id = |schema, op, n: u64| match integers {
            true => shape::integer_id(schema, op, n),
            false => make_id(schema, op, n),
        };
        let (id, counter) = match given {
            Some(id) => (id, None),
            None => {
                let mut n = state.next_id + 1;
                let mut id = make_id(schema, op, n);
                // Bounded: a pattern that makes few texts runs out (a 409, not a spin).
                let last = n.saturating_add(MAX_ID_TRIES);
                while state
                    .collections
                    .get(collection)
                    .is_some_and(|items| items.iter().any(|i| i.id == id))
                {
                    if n >= last {
                        return Err(ServerError::conflict(
                            "ids_exhausted",
                            format!("no fresh id of `{collection}` fits its id field"),
                        ));
                    }
                    n += 1;
                    id = make_id(schema, op, n);
                }
                let value = match integers && !shape::id_field_known(schema, op) {
                    true => Value::from(n),
                    false => id_value(schema, op, &id),
                };
                body.insert(op.id_field.to_owned(), value);
                (id, Some(n))
            }
        };
        let counter = shape::own_number(schema, op, item_ty, &mut body, counter, state.next_id);
        // An upsert of an item held (a create that may replace: Novu's topics by `key`) keeps
        // what it does not send (its `_id`, its creation time).
        let body = match state
            .collections
            .get(collection)
            .and_then(|items| items.iter().find(|i| i.id == id))
        {
            Some(held) => {
                let mut merged = held.value.clone();
                merged.extend(body);
                fill::stamp_last_change(schema, item_ty, &mut merged);
                merged
            }
            None => {
                state.bound_sequences();
                let held = state
                    .collections
                    .get(collection)
                    .map(|items| items.iter().map(|i| &i.value).collect::<Vec<_>>());
                let (mut body, held) = (body, held.unwrap_or_default());
                if let Some(item) = call.item_path {
                    let tys = [item_ty, read_as];
                    fill::self_link(schema, tys, &mut body, item, (&call.path, sendable), &id);
                }
                // What the service sets on the item the create answers; of what the read
                // answers besides, only what it requires (below): Textmagic's message read
                // back the document's example recipient and reject reason.
                let given = sequences::Sequences {
                    collection,
                    last: &mut state.sequences,
                };
                fill::new_item(schema, item_ty, &mut body, (&held, given), sendable);
                body
            }
        };
        // The item's own id under the answer's and the read's names for it too (Vonage's
        // member, keyed by `member_id`, answered as `id`, read as `uuid`).
        let mut body = body;
        fill::id_again(schema, item_ty, op, &mut body);
        let mut value = filled_object(schema, item_ty, body);
        // What a read answers besides is made now and kept (see `ResourceCall::read_as`).
        fill::id_again(schema, read_as, op, &mut value);
        for (key, made) in filled_object(schema, read_as, value.clone()) {
            value.entry(key).or_insert(made);
        }
        let ticket = self.insert(state, collection, id, value.clone(), counter)?;
        Ok((value, ticket))
    }
}

#[cfg(test)]
pub(crate) mod tests;

/// A JSON value as text: a string as it is, anything else as JSON.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
