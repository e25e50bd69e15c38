//! The children a create lists in its body: Twilio Events' subscription is created with
//! `Types=[{type, schema_version}]`, the items of its `SubscribedEvents`; Proxy's session with
//! `Participants=[...]`, its `Participants`. Each listed item is created in the new item's
//! child collection as that collection's own create would, checked before anything is kept.

use serde_json::{Map, Value};
use tidings_codegen::check::{Service, Ty as SpecTy, TypeKind};

use super::body::checked_body;
use super::ops::{Listed, Served, ServedOp};
use crate::server::ServerError;
use crate::server::resources::{ResourceAction, plain};

/// Children of one create, ready to make once the parent is: the child create and the checked
/// bodies of its items.
pub(crate) type Prepared = Vec<(usize, Vec<Value>)>;

/// Gives each create of `ops` the lists of its body that may hold its new item's children.
pub(crate) fn listed(service: &Service, ops: &mut [ServedOp]) {
    let shapes: Vec<String> = ops
        .iter()
        .map(|op| without_names(op.resource.collection))
        .collect();
    for i in 0..ops.len() {
        if ops[i].resource.kind != ResourceAction::Create {
            continue;
        }
        let lists = list_fields(service, ops[i].info.body.as_ref());
        if lists.is_empty() {
            continue;
        }
        // Creates of a collection one parameter and one literal segment under this one's.
        let under: Vec<(usize, &str)> = (0..ops.len())
            .filter(|&j| ops[j].resource.kind == ResourceAction::Create)
            .filter_map(|j| {
                let rest = shapes[j].strip_prefix(&shapes[i])?.strip_prefix("/{}/")?;
                (!rest.is_empty() && !rest.contains(['/', '{'])).then_some((j, rest))
            })
            .collect();
        if under.is_empty() {
            continue;
        }
        let mut found = Vec::new();
        for field in lists {
            let named = under
                .iter()
                .find(|(_, segment)| plain(segment) == plain(field))
                .map(|(j, _)| *j);
            found.push(Listed {
                field,
                creates: named.map_or_else(|| under.iter().map(|(j, _)| *j).collect(), |j| vec![j]),
                named: named.is_some(),
            });
        }
        ops[i].children = found;
    }
}

/// A path template with its parameters' names left out (`/v1/Services/{}/Sessions`): two
/// operations may name one parameter differently.
fn without_names(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut inside = false;
    for c in template.chars() {
        match c {
            '{' => {
                inside = true;
                out.push('{');
            }
            '}' => {
                inside = false;
                out.push('}');
            }
            _ if inside => {}
            _ => out.push(c),
        }
    }
    out
}

/// The fields of a body object that are lists of objects (or of any JSON).
fn list_fields(service: &Service, body: Option<&SpecTy>) -> Vec<&'static str> {
    let Some(SpecTy::Named(name)) = body else {
        return Vec::new();
    };
    let Some(TypeKind::Object(fields)) = service.type_named(name).map(|t| &t.kind) else {
        return Vec::new();
    };
    fields
        .iter()
        .filter(|f| match &f.ty {
            SpecTy::List(item) => match &**item {
                SpecTy::Json => true,
                SpecTy::Named(inner) => matches!(
                    service.type_named(inner).map(|t| &t.kind),
                    Some(TypeKind::Object(_))
                ),
                _ => false,
            },
            _ => false,
        })
        .map(|f| &*Box::leak(f.wire.clone().into_boxed_str()))
        .collect()
}

/// The children `call`'s body lists for `op`, each item checked as its own create checks
/// its body: a refusal of one refuses the whole create, before anything is kept, where the
/// list is named as the children's collection.
pub(crate) fn prepared(
    served: &Served,
    op: &ServedOp,
    body: &Value,
) -> Result<Prepared, ServerError> {
    let mut prepared = Vec::new();
    for listed in &op.children {
        let Some(Value::Array(items)) = body.get(listed.field) else {
            continue;
        };
        let objects: Vec<&Map<String, Value>> = items.iter().filter_map(Value::as_object).collect();
        if objects.is_empty() || objects.len() != items.len() {
            continue;
        }
        // The create the field names, else the one create under the new item whose body
        // names every key the items have.
        let fits: Vec<usize> = listed
            .creates
            .iter()
            .copied()
            .filter(|&j| {
                listed.named || objects.iter().all(|o| renamed(served, &served.ops[j], o).1)
            })
            .collect();
        let [child] = fits[..] else {
            continue;
        };
        // Items the child's create refuses refuse the whole create where the field names the
        // children's collection; a list matched by its keys alone that does not pass is no
        // list of children (a `Tags` list beside a `Labels` collection), and is left as sent.
        let mut bodies = Vec::with_capacity(objects.len());
        for (at, object) in objects.into_iter().enumerate() {
            let (body, _) = renamed(served, &served.ops[child], object);
            match checked_body(served, &served.ops[child], Value::Object(body)) {
                Ok(checked) => bodies.push(checked),
                Err(refused) if listed.named => return Err(inside(refused, listed.field, at)),
                Err(_) => {
                    bodies.clear();
                    break;
                }
            }
        }
        if !bodies.is_empty() {
            prepared.push((child, bodies));
        }
    }
    Ok(prepared)
}

/// `object`'s keys as `op`'s body names its fields (`type` → `Type`), and whether each key
/// names one.
fn renamed(
    served: &Served,
    op: &ServedOp,
    object: &Map<String, Value>,
) -> (Map<String, Value>, bool) {
    let fields: Vec<&str> = op
        .body
        .as_ref()
        .and_then(|ty| served.schema.object_fields(ty))
        .unwrap_or_default()
        .iter()
        .map(|f| f.name)
        .collect();
    let mut all = true;
    let body = object
        .iter()
        .map(|(key, value)| {
            let wire = fields.iter().find(|f| plain(f) == plain(key));
            all &= wire.is_some();
            (
                wire.map_or_else(|| key.clone(), |w| (*w).to_owned()),
                value.clone(),
            )
        })
        .collect();
    (body, all)
}

/// A refusal of the `at`th item of `field`, named as in the parent's body.
fn inside(error: ServerError, field: &str, at: usize) -> ServerError {
    let param = match error.param() {
        Some(param) => format!("{field}[{at}].{param}"),
        None => format!("{field}[{at}]"),
    };
    let message = format!("`{field}[{at}]`: {}", error.message());
    ServerError::new(error.status(), error.code().to_owned(), message).with_param(param)
}

/// Creates the `prepared` children of the item `answer` is, under it: each as its own create
/// would (its id, what the path names, its limits).
pub(crate) async fn create(
    served: &Served,
    parent: &ServedOp,
    path: &[(&'static str, String)],
    answer: &Value,
    prepared: Prepared,
) -> Result<(), ServerError> {
    let Some(id) = answer.get(parent.resource.id_field).and_then(|v| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }) else {
        return Ok(());
    };
    for (child, bodies) in prepared {
        let op = &served.ops[child];
        // The child's parameters in order: the parent's own, then the new item's id.
        let names = op.template.params();
        let mut values = path.iter().map(|(_, v)| v.clone()).chain([id.clone()]);
        let params: Vec<(&'static str, String)> = names
            .iter()
            .map(|n| (*n, values.next().unwrap_or_default()))
            .collect();
        for body in bodies {
            let call = op.call(served.schema, params.clone(), Value::Null, body, false);
            served
                .store
                .serve(served.schema, &op.resource, &call)
                .await?;
        }
    }
    Ok(())
}
