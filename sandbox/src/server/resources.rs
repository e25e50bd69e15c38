//! The spec-driven default behaviour of every generated server operation: a bounded in-memory
//! store of JSON resources keyed by the path's collection, and "fill", which turns any JSON
//! into a valid value of a spec type (missing required fields made up from type, format and
//! enum), guided by the static schema table the generator emits per service.
//!
//! Hand-written sandbox code overrides an operation by implementing its trait method; every
//! operation it does not implement lands here (see `spec/README.md`, "What the sandbox does with
//! a new operation").

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{PageRequest, ServerError, now_rfc3339, paginate};

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
}

/// The bounded in-memory store behind every operation a sandbox does not implement by hand.
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
                state.next_id += 1;
                let id = make_id(schema, op, state.next_id);
                let mut value = body;
                value.insert(op.id_field.to_owned(), Value::String(id.clone()));
                let value = filled_object(schema, op.response.as_ref(), value);
                self.insert(&mut state, &collection, id, value.clone(), false)?;
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
                self.insert(&mut state, &collection, id, value.clone(), true)?;
                Some(value)
            }
            ResourceAction::Replace => {
                let id = item_id.unwrap_or_default().to_owned();
                let mut value = body;
                value.insert(op.id_field.to_owned(), Value::String(id.clone()));
                let value = filled_object(schema, op.response.as_ref(), value);
                self.insert(&mut state, &collection, id, value.clone(), true)?;
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

    fn insert(
        &self,
        state: &mut State,
        collection: &str,
        id: String,
        value: Map<String, Value>,
        replace: bool,
    ) -> Result<(), ServerError> {
        let bytes = serde_json::to_vec(&value).map_or(0, |v| v.len());
        let limits = self.limits;
        if !state.collections.contains_key(collection)
            && state.collections.len() >= limits.max_collections
        {
            return Err(full(format!(
                "the sandbox keeps at most {} collections; `{collection}` would be one more",
                limits.max_collections
            )));
        }
        let items = state.collections.entry(collection.to_owned()).or_default();
        let existing = items.iter().position(|i| i.id == id).filter(|_| replace);
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
        let item = Item { id, value, bytes };
        match existing {
            Some(i) => items[i] = item,
            None => items.push(item),
        }
        state.stored_bytes = total;
        Ok(())
    }
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

fn remove(
    state: &mut State,
    collection: &str,
    id: Option<&str>,
    op: &ResourceOp,
) -> Result<Item, ServerError> {
    let id = id.unwrap_or_default();
    let items = state
        .collections
        .get_mut(collection)
        .ok_or_else(|| missing(collection, id, op))?;
    let index = items
        .iter()
        .position(|i| i.id == id)
        .ok_or_else(|| missing(collection, id, op))?;
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

/// A valid value of `ty`: `given` where it has the right shape (nested required fields filled
/// in), a made-up value from type, format, limits and enum where it is missing or wrong.
pub fn fill(
    schema: &ServiceSchema,
    ty: &TySchema,
    given: Option<&Value>,
    depth: usize,
    field: Option<&FieldSchema>,
) -> Value {
    if depth > MAX_FILL_DEPTH {
        return given.cloned().unwrap_or(Value::Null);
    }
    let given = given.filter(|v| !v.is_null());
    match ty {
        TySchema::String | TySchema::DateTime => match given {
            Some(Value::String(s)) => Value::String(s.clone()),
            _ => Value::String(sample_string(ty, field)),
        },
        TySchema::Date => match given {
            Some(Value::String(s)) => Value::String(s.clone()),
            _ => Value::String(now_rfc3339().chars().take(10).collect()),
        },
        TySchema::Integer => match given {
            Some(v @ Value::Number(n)) if n.is_i64() => v.clone(),
            _ => {
                let (min, max) = bounds(field);
                // Saturating casts are what we want: a bound beyond i64 clamps.
                Value::from(0f64.max(min.ceil()).min(max.floor()) as i64)
            }
        },
        TySchema::Number => match given {
            Some(v @ Value::Number(_)) => v.clone(),
            _ => {
                let (min, max) = bounds(field);
                serde_json::Number::from_f64(0f64.max(min).min(max))
                    .map_or(Value::from(0), Value::Number)
            }
        },
        TySchema::Boolean => match given {
            Some(v @ Value::Bool(_)) => v.clone(),
            _ => Value::Bool(false),
        },
        TySchema::Json => given.cloned().unwrap_or_else(|| Value::Object(Map::new())),
        TySchema::List(inner) | TySchema::Page(inner) => match given {
            Some(Value::Array(items)) => Value::Array(
                items
                    .iter()
                    .map(|v| fill(schema, inner, Some(v), depth + 1, None))
                    .collect(),
            ),
            _ => {
                let n = field
                    .and_then(|f| f.min_items)
                    .unwrap_or(0)
                    .min(MAX_FILL_ITEMS);
                Value::Array(
                    (0..n)
                        .map(|_| fill(schema, inner, None, depth + 1, None))
                        .collect(),
                )
            }
        },
        TySchema::Map(inner) => match given {
            Some(Value::Object(map)) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), fill(schema, inner, Some(v), depth + 1, None)))
                    .collect(),
            ),
            _ => Value::Object(Map::new()),
        },
        TySchema::Named(name) => match schema.named(name).map(|t| t.shape) {
            Some(ShapeSchema::Object(fields)) => {
                let given = match given {
                    Some(Value::Object(map)) => map.clone(),
                    _ => Map::new(),
                };
                fill_object(schema, fields, given, depth)
            }
            Some(ShapeSchema::Enum(values)) => match given {
                Some(Value::String(s)) => Value::String(s.clone()),
                _ => values
                    .first()
                    .map_or(Value::String(String::new()), |v| Value::from(*v)),
            },
            Some(ShapeSchema::Union {
                tag,
                content,
                variants,
            }) => fill_union(schema, tag, content, variants, given, depth),
            // Decided by shape: what was given stands; else the first variant, filled.
            Some(ShapeSchema::Untagged(variants)) => match given {
                Some(v) => v.clone(),
                None => variants.first().map_or(Value::Null, |first| {
                    fill(schema, &TySchema::Named(first), None, depth + 1, None)
                }),
            },
            // A name the table lacks (a type of another service): keep what was given.
            None => given.cloned().unwrap_or(Value::Null),
        },
    }
}

fn fill_object(
    schema: &ServiceSchema,
    fields: &[FieldSchema],
    mut given: Map<String, Value>,
    depth: usize,
) -> Value {
    for f in fields {
        match given.get(f.name).filter(|v| !v.is_null()) {
            Some(v) => {
                let v = fill(schema, &f.ty, Some(v), depth + 1, Some(f));
                given.insert(f.name.to_owned(), v);
            }
            None if f.required => {
                let v = fill(schema, &f.ty, None, depth + 1, Some(f));
                given.insert(f.name.to_owned(), v);
            }
            None => {
                given.remove(f.name);
            }
        }
    }
    Value::Object(given)
}

fn fill_union(
    schema: &ServiceSchema,
    tag: &str,
    content: Option<&str>,
    variants: &[(&'static str, Option<&'static str>)],
    given: Option<&Value>,
    depth: usize,
) -> Value {
    let given_map = match given {
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    };
    let chosen = given_map
        .get(tag)
        .and_then(Value::as_str)
        .and_then(|t| variants.iter().find(|(v, _)| *v == t))
        .or_else(|| variants.first());
    let Some((tag_value, ty)) = chosen else {
        return given.cloned().unwrap_or(Value::Null);
    };
    let mut out = match (content, ty) {
        (Some(content), Some(ty)) => {
            let inner = given_map.get(content);
            let mut out = Map::new();
            out.insert(
                content.to_owned(),
                fill(schema, &TySchema::Named(ty), inner, depth + 1, None),
            );
            out
        }
        (None, Some(ty)) => {
            match fill(
                schema,
                &TySchema::Named(ty),
                Some(&Value::Object(given_map)),
                depth + 1,
                None,
            ) {
                Value::Object(map) => map,
                _ => Map::new(),
            }
        }
        (_, None) => Map::new(),
    };
    out.insert(tag.to_owned(), Value::from(*tag_value));
    Value::Object(out)
}

fn bounds(field: Option<&FieldSchema>) -> (f64, f64) {
    (
        field.and_then(|f| f.min).unwrap_or(f64::MIN),
        field.and_then(|f| f.max).unwrap_or(f64::MAX),
    )
}

/// A made-up string that passes the field's format and length limits.
fn sample_string(ty: &TySchema, field: Option<&FieldSchema>) -> String {
    let format = field.and_then(|f| f.format);
    let base = match (ty, format) {
        (TySchema::DateTime, _) | (_, Some(Format::Rfc3339)) => return now_rfc3339(),
        (_, Some(Format::Email)) => return "sample@example.com".to_owned(),
        (_, Some(Format::E164)) => return "+15555550100".to_owned(),
        (_, Some(Format::Uri)) => return "https://example.com/".to_owned(),
        (_, Some(Format::Uuid)) => {
            return "00000000-0000-4000-8000-000000000000".to_owned();
        }
        _ => field.map_or("sample", |f| f.name),
    };
    let min = field
        .and_then(|f| f.min_len)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0);
    let max = field
        .and_then(|f| f.max_len)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(usize::MAX);
    let mut s: String = base.chars().take(max).collect();
    while s.chars().count() < min.min(max) {
        s.push('x');
    }
    s
}

/// A generated default's inputs as JSON.
///
/// # Errors
/// 500 when a value does not serialize (it came from a decoded request, so it always does).
pub fn to_json<T: Serialize>(value: &T) -> Result<Value, ServerError> {
    serde_json::to_value(value)
        .map_err(|e| ServerError::internal(format!("cannot re-encode the request: {e}")))
}

/// A generated default's JSON answer as the operation's response type.
///
/// # Errors
/// 500 naming the operation when the filled value does not decode as its response type
/// (a gap in fill, not a client error).
pub fn from_json<T: DeserializeOwned>(operation: &str, value: Value) -> Result<T, ServerError> {
    serde_json::from_value(value).map_err(|e| {
        ServerError::internal(format!(
            "the sandbox's default answer of `{operation}` does not match its response type: {e}"
        ))
    })
}

/// A generated default's inputs: path parameters, the query and the body (`&()` for none) as
/// JSON.
///
/// # Errors
/// As [`to_json`].
pub fn call<Q: Serialize, B: Serialize>(
    path: Vec<(&'static str, String)>,
    query: &Q,
    body: &B,
) -> Result<ResourceCall, ServerError> {
    Ok(ResourceCall {
        path,
        query: to_json(query)?,
        body: to_json(body)?,
    })
}

/// The default behaviour of an operation with an empty answer.
///
/// # Errors
/// As [`Resources::serve`].
pub fn answer_empty(
    store: &Resources,
    schema: &ServiceSchema,
    op: &ResourceOp,
    call: Result<ResourceCall, ServerError>,
) -> Result<(), ServerError> {
    store.serve(schema, op, &call?).map(drop)
}

/// The whole default behaviour of one operation, as a generated trait method calls it.
///
/// # Errors
/// As [`Resources::serve`] and [`from_json`].
pub fn answer<T: DeserializeOwned>(
    store: &Resources,
    schema: &ServiceSchema,
    op: &ResourceOp,
    call: Result<ResourceCall, ServerError>,
) -> Result<T, ServerError> {
    let value = store.serve(schema, op, &call?)?;
    from_json(op.name, value)
}

/// The default of an operation that answers 200 with a body or 204 without: the body.
///
/// # Errors
/// As [`answer`].
pub fn answer_optional<T: DeserializeOwned>(
    store: &Resources,
    schema: &ServiceSchema,
    op: &ResourceOp,
    call: Result<ResourceCall, ServerError>,
) -> Result<Option<T>, ServerError> {
    answer(store, schema, op, call).map(Some)
}

/// The default of an operation that answers text: the stored value as text (a string as is,
/// anything else as JSON).
///
/// # Errors
/// As [`Resources::serve`].
pub fn answer_text(
    store: &Resources,
    schema: &ServiceSchema,
    op: &ResourceOp,
    call: Result<ResourceCall, ServerError>,
) -> Result<String, ServerError> {
    Ok(match store.serve(schema, op, &call?)? {
        Value::String(text) => text,
        Value::Null => String::new(),
        other => other.to_string(),
    })
}

/// The default of an operation that answers bytes: [`answer_text`]'s text as bytes.
///
/// # Errors
/// As [`Resources::serve`].
pub fn answer_bytes(
    store: &Resources,
    schema: &ServiceSchema,
    op: &ResourceOp,
    call: Result<ResourceCall, ServerError>,
) -> Result<Vec<u8>, ServerError> {
    answer_text(store, schema, op, call).map(String::into_bytes)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

    use super::*;
    use serde_json::json;

    const FIELDS: &[FieldSchema] = &[
        field("id", TySchema::String, true),
        FieldSchema {
            min_len: Some(3),
            ..field("name", TySchema::String, true)
        },
        FieldSchema {
            format: Some(Format::Email),
            ..field("owner", TySchema::String, true)
        },
        field("status", TySchema::Named("Status"), true),
        field("count", TySchema::Integer, false),
        field("created_at", TySchema::DateTime, true),
    ];

    const fn field(name: &'static str, ty: TySchema, required: bool) -> FieldSchema {
        FieldSchema {
            name,
            ty,
            required,
            format: None,
            min_len: None,
            max_len: None,
            min_items: None,
            min: None,
            max: None,
        }
    }

    const SCHEMA: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Domain",
                shape: ShapeSchema::Object(FIELDS),
            },
            TypeSchema {
                name: "Status",
                shape: ShapeSchema::Enum(&["pending", "verified"]),
            },
        ],
        page: Some(PageSchema {
            limit_param: "limit",
            after_param: "after",
            before_param: None,
            items_field: "data",
            has_more_field: "has_more",
        }),
    };

    fn op(kind: ResourceAction, item: bool) -> ResourceOp {
        ResourceOp {
            name: "op",
            kind,
            collection: "/v1/domains",
            item_param: item.then_some("id"),
            id_field: "id",
            response: Some(if kind == ResourceAction::List {
                TySchema::Page(&TySchema::Named("Domain"))
            } else {
                TySchema::Named("Domain")
            }),
        }
    }

    fn call(id: Option<&str>, query: Value, body: Value) -> ResourceCall {
        ResourceCall {
            path: id.map(|i| ("id", i.to_owned())).into_iter().collect(),
            query,
            body,
        }
    }

    #[test]
    fn create_fills_required_fields_from_type_format_and_enum() {
        let store = Resources::default();
        let created = store
            .serve(
                &SCHEMA,
                &op(ResourceAction::Create, false),
                &call(None, Value::Null, json!({"count": 2})),
            )
            .unwrap();
        assert_eq!(created["count"], 2);
        assert_eq!(created["name"], "name");
        assert_eq!(created["owner"], "sample@example.com");
        assert_eq!(created["status"], "pending");
        assert!(created["created_at"].as_str().unwrap().ends_with('Z'));
        assert!(created["id"].as_str().unwrap().starts_with("res_"));
    }

    #[test]
    fn created_items_come_back_from_get_list_merge_and_delete() {
        let store = Resources::default();
        let create = op(ResourceAction::Create, false);
        let a = store
            .serve(
                &SCHEMA,
                &create,
                &call(None, Value::Null, json!({"name": "a.example"})),
            )
            .unwrap();
        let b = store
            .serve(
                &SCHEMA,
                &create,
                &call(None, Value::Null, json!({"name": "b.example"})),
            )
            .unwrap();
        let (a_id, b_id) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
        let got = store
            .serve(
                &SCHEMA,
                &op(ResourceAction::Get, true),
                &call(Some(a_id), Value::Null, Value::Null),
            )
            .unwrap();
        assert_eq!(got, a);
        let list = op(ResourceAction::List, false);
        let page = store
            .serve(
                &SCHEMA,
                &list,
                &call(None, json!({"limit": 1}), Value::Null),
            )
            .unwrap();
        assert_eq!(page["data"][0]["name"], "a.example");
        assert_eq!(page["has_more"], true);
        let page = store
            .serve(
                &SCHEMA,
                &list,
                &call(None, json!({"after": a_id}), Value::Null),
            )
            .unwrap();
        assert_eq!(page["data"][0]["id"], b_id);
        assert_eq!(page["has_more"], false);
        let merged = store
            .serve(
                &SCHEMA,
                &op(ResourceAction::Merge, true),
                &call(Some(a_id), Value::Null, json!({"status": "verified"})),
            )
            .unwrap();
        assert_eq!(
            (merged["status"].as_str(), merged["name"].as_str()),
            (Some("verified"), Some("a.example"))
        );
        store
            .serve(
                &SCHEMA,
                &op(ResourceAction::Delete, true),
                &call(Some(a_id), Value::Null, Value::Null),
            )
            .unwrap();
        let gone = store
            .serve(
                &SCHEMA,
                &op(ResourceAction::Get, true),
                &call(Some(a_id), Value::Null, Value::Null),
            )
            .unwrap_err();
        assert_eq!(gone.status(), 404);
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn a_full_collection_answers_409_collection_full_and_keeps_serving_reads() {
        let store = Resources::new(ResourceLimits {
            max_items_per_collection: 2,
            ..ResourceLimits::default()
        });
        let create = op(ResourceAction::Create, false);
        for _ in 0..2 {
            store
                .serve(&SCHEMA, &create, &call(None, Value::Null, json!({})))
                .unwrap();
        }
        let err = store
            .serve(&SCHEMA, &create, &call(None, Value::Null, json!({})))
            .unwrap_err();
        assert_eq!((err.status(), err.code()), (409, "collection_full"));
        assert!(
            err.message().contains("at most 2 items in `/v1/domains`"),
            "{}",
            err.message()
        );
        assert_eq!(store.len(), 2);
    }

    #[test]
    fn the_byte_budget_bounds_the_whole_store() {
        let store = Resources::new(ResourceLimits {
            max_stored_bytes: 300,
            ..ResourceLimits::default()
        });
        let create = op(ResourceAction::Create, false);
        let big = json!({"name": "x".repeat(400)});
        let err = store
            .serve(&SCHEMA, &create, &call(None, Value::Null, big))
            .unwrap_err();
        assert_eq!(err.code(), "collection_full");
        assert!(store.is_empty());
    }

    #[test]
    fn fill_respects_min_len_and_replaces_values_of_the_wrong_shape() {
        let value = fill(
            &SCHEMA,
            &TySchema::Named("Domain"),
            Some(&json!({"count": "many", "extra": 1})),
            0,
            None,
        );
        assert_eq!(value["count"], 0);
        assert_eq!(value["extra"], 1);
        let short = FieldSchema {
            min_len: Some(8),
            ..field("ab", TySchema::String, true)
        };
        assert_eq!(
            fill(&SCHEMA, &TySchema::String, None, 0, Some(&short)),
            "abxxxxxx"
        );
    }

    #[test]
    fn an_action_on_a_stored_item_answers_with_its_fields() {
        let store = Resources::default();
        let a = store
            .serve(
                &SCHEMA,
                &op(ResourceAction::Create, false),
                &call(None, Value::Null, json!({"name": "kept.example"})),
            )
            .unwrap();
        let id = a["id"].as_str().unwrap();
        let action = op(ResourceAction::Action, true);
        let answer = store
            .serve(&SCHEMA, &action, &call(Some(id), Value::Null, Value::Null))
            .unwrap();
        assert_eq!(answer["name"], "kept.example");
        // An item the store does not have (served by hand-written code): still a valid answer.
        let answer = store
            .serve(
                &SCHEMA,
                &action,
                &call(Some("em_9"), Value::Null, Value::Null),
            )
            .unwrap();
        assert_eq!(answer["id"], "em_9");
    }
}
