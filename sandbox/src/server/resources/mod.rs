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
use std::sync::{Mutex, MutexGuard};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{PageRequest, ServerError, now_rfc3339, paginate};

mod answer;
mod durable;
mod fill;

pub use answer::{
    answer, answer_bytes, answer_empty, answer_optional, answer_text, call, from_json, to_json,
};
pub use durable::{DIR_NAME, OpenError, store_path};
pub use fill::fill;

use durable::{Change, Journal};

pub use tidings_spec::{
    FieldSchema, Format, PageSchema, ResourceAction, ResourceOp, ServiceSchema, ShapeSchema,
    TySchema, TypeSchema,
};

/// Items one collection keeps when [`ResourceLimits`] gives no other number.
pub const DEFAULT_MAX_ITEMS_PER_COLLECTION: usize = 1_000;
/// Collections (one per concrete collection path, so one per parent of a nested collection)
/// the store keeps by default.
pub const DEFAULT_MAX_COLLECTIONS: usize = 1_000;
/// Bytes of JSON (as serialized) the whole store keeps by default.
pub const DEFAULT_MAX_STORED_BYTES: usize = 64 * 1024 * 1024;
/// Depth at which fill stops making up nested values (recursive types end there).
const MAX_FILL_DEPTH: usize = 16;
/// Items fill makes up for a list with `min_items` (a larger minimum is capped here).
const MAX_FILL_ITEMS: u64 = 16;

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

/// The inputs of one call, as JSON: path parameters by wire name, the query and the body
/// (`Null` when the operation has none).
#[derive(Debug, Clone, Default)]
pub struct ResourceCall {
    /// Path parameters, wire name and value.
    pub path: Vec<(&'static str, String)>,
    /// The query as its struct serializes (wire names).
    pub query: Value,
    /// The body.
    pub body: Value,
}

#[derive(Debug)]
struct Item {
    id: String,
    value: Map<String, Value>,
    bytes: usize,
}

#[derive(Debug, Default)]
struct State {
    collections: HashMap<String, Vec<Item>>,
    stored_bytes: usize,
    next_id: u64,
    settings: std::collections::BTreeMap<String, String>,
    disk: Disk,
}

/// Where changes are committed before they are made in memory.
#[derive(Default)]
enum Disk {
    /// Memory only.
    #[default]
    None,
    /// Durable: every change committed here first.
    Journal(Box<dyn Journal>),
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

impl Disk {
    /// Commits `change` (at once in memory); the error is the answer to send.
    fn commit(&mut self, change: Change<'_>) -> Result<(), ServerError> {
        match self {
            Disk::None => Ok(()),
            Disk::Journal(journal) => journal
                .commit(change)
                .map_err(|why| durable::not_stored(&why)),
            Disk::Closed => Err(ServerError::new(
                503,
                "unavailable",
                "the sandbox is stopping; nothing was kept",
            )),
        }
    }
}

/// The bounded in-memory store behind every operation a sandbox does not implement by hand.
///
/// Durable when opened with [`Resources::open`] (`--data`): every change is committed to the
/// store's SQLite file before it is made in memory and answered; a change that cannot be
/// committed answers `507 insufficient_storage` and changes nothing. Reads stay in memory.
///
/// ```
/// use tidings_sandbox::server::resources::{ResourceLimits, Resources};
/// let store = Resources::new(ResourceLimits::default());
/// assert_eq!(store.len(), 0);
/// ```
#[derive(Debug, Default)]
pub struct Resources {
    state: Mutex<State>,
    limits: ResourceLimits,
}

impl Resources {
    /// An empty store with these bounds.
    pub fn new(limits: ResourceLimits) -> Self {
        Resources {
            state: Mutex::default(),
            limits,
        }
    }

    /// A durable store: loads the SQLite file at `path` (created when missing; see
    /// [`store_path`]) within `limits`, then commits every change to it before making it in
    /// memory. Items past a bound are left on disk, not loaded, and logged (a larger bound
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
                        put(
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
            state.disk = Disk::Journal(Box::new(sqlite));
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
    fn with_journal(limits: ResourceLimits, journal: Box<dyn Journal>) -> Resources {
        let store = Resources::new(limits);
        store.lock().disk = Disk::Journal(journal);
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
    pub fn keep_setting(&self, name: &str, value: &str) -> Result<(), ServerError> {
        let mut state = self.lock();
        if state.settings.get(name).is_some_and(|v| v == value) {
            return Ok(());
        }
        state.disk.commit(Change::Setting { name, value })?;
        state.settings.insert(name.to_owned(), value.to_owned());
        Ok(())
    }

    /// Whether changes are committed to disk ([`Resources::open`]).
    pub fn is_durable(&self) -> bool {
        !matches!(self.lock().disk, Disk::None)
    }

    /// Closes a durable store's file (releasing it for the next start); later changes answer
    /// `503` and change nothing, reads go on. Nothing to do in memory. The services call it
    /// when they stop.
    pub fn close(&self) {
        let mut state = self.lock();
        if matches!(state.disk, Disk::Journal(_)) {
            state.disk = Disk::Closed;
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

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves plain data behind: keep serving.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Runs `op`'s default behaviour and returns its success body as JSON (`Null` for an
    /// empty answer).
    ///
    /// # Errors
    /// 404 for an item (or a cursor) that does not exist, 409 `collection_full` when a bound
    /// of [`ResourceLimits`] is reached.
    pub fn serve(
        &self,
        schema: &ServiceSchema,
        op: &ResourceOp,
        call: &ResourceCall,
    ) -> Result<Value, ServerError> {
        let collection = substitute(op.collection, &call.path);
        let item_id = op
            .item_param
            .and_then(|p| call.path.iter().find(|(name, _)| *name == p))
            .map(|(_, v)| v.as_str());
        let body = match &call.body {
            Value::Object(map) => map.clone(),
            _ => Map::new(),
        };
        let mut state = self.lock();
        let found = match op.kind {
            ResourceAction::Create => {
                // A fresh id: past the counter, and not one a replace already put here.
                let mut n = state.next_id + 1;
                let mut id = make_id(schema, op, n);
                while state
                    .collections
                    .get(&collection)
                    .is_some_and(|items| items.iter().any(|i| i.id == id))
                {
                    n += 1;
                    id = make_id(schema, op, n);
                }
                let mut value = body;
                value.insert(op.id_field.to_owned(), Value::String(id.clone()));
                let value = filled_object(schema, op.response.as_ref(), value);
                self.insert(&mut state, &collection, id, value.clone(), Some(n))?;
                Some(value)
            }
            ResourceAction::List => {
                let items = state
                    .collections
                    .get(&collection)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                return page_of(schema, op, items, &call.query);
            }
            ResourceAction::Get => Some(find(&state, &collection, item_id, op)?.value.clone()),
            ResourceAction::Merge => {
                let id = item_id.unwrap_or_default().to_owned();
                let mut value = find(&state, &collection, item_id, op)?.value.clone();
                for (key, v) in body {
                    if v.is_null() {
                        value.remove(&key);
                    } else {
                        value.insert(key, v);
                    }
                }
                let value = filled_object(schema, op.response.as_ref(), value);
                self.insert(&mut state, &collection, id, value.clone(), None)?;
                Some(value)
            }
            ResourceAction::Replace => {
                let id = item_id.unwrap_or_default().to_owned();
                let mut value = body;
                value.insert(op.id_field.to_owned(), Value::String(id.clone()));
                let value = filled_object(schema, op.response.as_ref(), value);
                self.insert(&mut state, &collection, id, value.clone(), None)?;
                Some(value)
            }
            ResourceAction::Delete => {
                let removed = remove(&mut state, &collection, item_id, op)?;
                let mut value = removed.value;
                value.insert("deleted".to_owned(), Value::Bool(true));
                Some(value)
            }
            ResourceAction::Action => {
                let mut value = item_id
                    .and_then(|id| {
                        state
                            .collections
                            .get(&collection)?
                            .iter()
                            .find(|i| i.id == id)
                    })
                    .map(|i| i.value.clone())
                    .unwrap_or_default();
                if let Some(id) = item_id {
                    value
                        .entry(op.id_field.to_owned())
                        .or_insert_with(|| Value::String(id.to_owned()));
                }
                value.extend(body);
                Some(value)
            }
        };
        drop(state);
        Ok(match (&op.response, found) {
            (Some(ty), Some(value)) => fill(schema, ty, Some(&Value::Object(value)), 0, None),
            _ => Value::Null,
        })
    }

    /// Stores `value` as item `id` of `collection` (replacing an item with that id), within
    /// the bounds; durable: committed first (with the id counter `next_id` when given), and
    /// nothing changes in memory when the commit fails.
    fn insert(
        &self,
        state: &mut State,
        collection: &str,
        id: String,
        value: Map<String, Value>,
        next_id: Option<u64>,
    ) -> Result<(), ServerError> {
        let doc = serde_json::to_string(&value)
            .map_err(|e| ServerError::internal(format!("cannot encode the item: {e}")))?;
        let bytes = doc.len();
        let (existing, total) = room(state, self.limits, collection, &id, bytes)?;
        state.disk.commit(Change::Put {
            collection,
            id: &id,
            doc: &doc,
            next_id,
        })?;
        if let Some(n) = next_id {
            state.next_id = n;
        }
        put(
            state,
            collection,
            existing,
            Item { id, value, bytes },
            total,
        );
        Ok(())
    }
}

/// Whether an item of `bytes` fits as `id` in `collection` (replacing the item with that id):
/// the index of the one it replaces, and the store's bytes after.
fn room(
    state: &State,
    limits: ResourceLimits,
    collection: &str,
    id: &str,
    bytes: usize,
) -> Result<(Option<usize>, usize), ServerError> {
    let items = state.collections.get(collection);
    if items.is_none() && state.collections.len() >= limits.max_collections {
        return Err(full(format!(
            "the sandbox keeps at most {} collections; `{collection}` would be one more",
            limits.max_collections
        )));
    }
    let items = items.map(Vec::as_slice).unwrap_or_default();
    let existing = items.iter().position(|i| i.id == id);
    let freed = existing.map_or(0, |i| items[i].bytes);
    if existing.is_none() && items.len() >= limits.max_items_per_collection {
        return Err(full(format!(
            "the sandbox keeps at most {} items in `{collection}`; delete some first",
            limits.max_items_per_collection
        )));
    }
    let total = state.stored_bytes - freed + bytes;
    if total > limits.max_stored_bytes {
        return Err(full(format!(
            "the sandbox keeps at most {} bytes of resources; this item would make {total}",
            limits.max_stored_bytes
        )));
    }
    Ok((existing, total))
}

/// Puts `item` in `collection` as [`room`] placed it.
fn put(state: &mut State, collection: &str, existing: Option<usize>, item: Item, total: usize) {
    let items = state.collections.entry(collection.to_owned()).or_default();
    match existing {
        Some(i) => items[i] = item,
        None => items.push(item),
    }
    state.stored_bytes = total;
}

fn full(message: String) -> ServerError {
    ServerError::conflict("collection_full", message)
}

fn find<'s>(
    state: &'s State,
    collection: &str,
    id: Option<&str>,
    op: &ResourceOp,
) -> Result<&'s Item, ServerError> {
    let id = id.unwrap_or_default();
    state
        .collections
        .get(collection)
        .and_then(|items| items.iter().find(|i| i.id == id))
        .ok_or_else(|| missing(collection, id, op))
}

/// Removes item `id` (durable: committed first; nothing changes when the commit fails).
fn remove(
    state: &mut State,
    collection: &str,
    id: Option<&str>,
    op: &ResourceOp,
) -> Result<Item, ServerError> {
    let id = id.unwrap_or_default();
    let items = state
        .collections
        .get(collection)
        .ok_or_else(|| missing(collection, id, op))?;
    let index = items
        .iter()
        .position(|i| i.id == id)
        .ok_or_else(|| missing(collection, id, op))?;
    state.disk.commit(Change::Delete { collection, id })?;
    let Some(items) = state.collections.get_mut(collection) else {
        return Err(missing(collection, id, op));
    };
    let item = items.remove(index);
    state.stored_bytes = state.stored_bytes.saturating_sub(item.bytes);
    Ok(item)
}

fn missing(collection: &str, id: &str, op: &ResourceOp) -> ServerError {
    let error = ServerError::not_found(format!("`{collection}/{id}`"));
    match op.item_param {
        Some(param) => error.with_param(param),
        None => error,
    }
}

/// `template` with each `{name}` replaced by its value.
fn substitute(template: &str, path: &[(&'static str, String)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in path {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// A fresh id, shaped as the response's id field wants it (a UUID when its format says so).
fn make_id(schema: &ServiceSchema, op: &ResourceOp, n: u64) -> String {
    let id_field = op
        .response
        .as_ref()
        .and_then(|ty| object_fields(schema, ty))
        .and_then(|fields| fields.iter().find(|f| f.name == op.id_field));
    match id_field.and_then(|f| f.format) {
        Some(Format::Uuid) => format!("00000000-0000-4000-8000-{n:012x}"),
        _ => format!("res_{n:08}"),
    }
}

fn object_fields(schema: &ServiceSchema, ty: &TySchema) -> Option<&'static [FieldSchema]> {
    match ty {
        TySchema::Named(name) => match schema.named(name)?.shape {
            ShapeSchema::Object(fields) => Some(fields),
            _ => None,
        },
        _ => None,
    }
}

/// `value` with the required fields of the response type filled (what is stored).
fn filled_object(
    schema: &ServiceSchema,
    ty: Option<&TySchema>,
    value: Map<String, Value>,
) -> Map<String, Value> {
    let Some(ty) = ty else { return value };
    let mut whole = value.clone();
    if let Value::Object(filled) = fill(schema, ty, Some(&Value::Object(value)), 0, None) {
        // Keep the body's own fields too: another operation may answer with a wider type.
        whole.extend(filled);
    }
    whole
}

/// One page of `items` in the service's pagination, as its `Page<T>` serializes. The one place
/// paging happens, so further pagination styles extend this function.
fn page_of(
    schema: &ServiceSchema,
    op: &ResourceOp,
    items: &[Item],
    query: &Value,
) -> Result<Value, ServerError> {
    let item_ty = match op.response {
        Some(TySchema::Page(t) | TySchema::List(t)) => *t,
        _ => TySchema::Json,
    };
    let param = |name: &str| query.get(name);
    let text = |name: Option<&str>| name.and_then(param).and_then(Value::as_str);
    let out = |item: &Item| {
        fill(
            schema,
            &item_ty,
            Some(&Value::Object(item.value.clone())),
            0,
            None,
        )
    };
    let Some(TySchema::Page(_)) = op.response else {
        // A plain list: every item.
        return Ok(Value::Array(items.iter().map(out).collect()));
    };
    let Some(page) = schema.page else {
        return Ok(Value::Array(items.iter().map(out).collect()));
    };
    let request = PageRequest {
        limit: param(page.limit_param).and_then(Value::as_i64),
        after: text(Some(page.after_param)),
        before: text(page.before_param),
    };
    let refs: Vec<&Item> = items.iter().collect();
    let (chosen, more) = paginate(&refs, |i| i.id.as_str(), request)?;
    let mut body = Map::new();
    body.insert(
        page.items_field.to_owned(),
        Value::Array(chosen.into_iter().map(out).collect()),
    );
    body.insert(page.has_more_field.to_owned(), Value::Bool(more));
    Ok(Value::Object(body))
}

#[cfg(test)]
mod tests;
