//! An item read and written at a literal path beneath it (Vonage Media's `GET` and `PUT
//! /{id}/info`, beside `POST /` and `DELETE /{id}`): the item itself, not a thing of its own
//! under it that no create made.

use super::super::{OperationInfo, Service, Ty};
use super::{ResourceAction, ResourceShape, shape_of};
use crate::model::Method;

/// The item operation `op` is, where its path is an item path of a collection with a literal
/// segment after it, nothing lives beneath it, and what it answers (or the `GET` at its path
/// answers) is what the collection's create answers or its list holds. A write there merges:
/// it changes what the view shows of the item. `None` for any other operation.
pub(super) fn item_view(service: &Service, op: &OperationInfo) -> Option<ResourceShape> {
    let kind = match op.method {
        Method::Get => ResourceAction::Get,
        Method::Put | Method::Patch => ResourceAction::Merge,
        _ => return None,
    };
    let (head, last) = op.path.rsplit_once('/')?;
    if last.is_empty() || last.contains(['{', '}', '.', ':']) {
        return None;
    }
    let (parent, segment) = head.rsplit_once('/')?;
    let param = segment.strip_prefix('{')?.strip_suffix('}')?;
    let beneath = format!("{}/", op.path);
    if service
        .operations
        .iter()
        .any(|o| o.path.starts_with(&beneath))
    {
        return None;
    }
    let named = |o: &OperationInfo| match &o.response {
        Some(Ty::Named(name)) => Some(name.clone()),
        _ => None,
    };
    let viewed = match kind {
        ResourceAction::Get => named(op)?,
        _ => service
            .operations
            .iter()
            .find(|o| o.path == op.path && o.method == Method::Get)
            .and_then(named)?,
    };
    let root = if parent.is_empty() { "/" } else { parent };
    service
        .operations
        .iter()
        .filter(|o| o.path == root || o.path == parent)
        .find_map(|o| {
            let shape = shape_of(service, o);
            let holds = match shape.kind {
                ResourceAction::Create => named(o).as_ref() == Some(&viewed),
                ResourceAction::List => lists(service, o.response.as_ref(), &viewed),
                _ => false,
            };
            holds.then(|| ResourceShape {
                kind,
                collection: shape.collection,
                item_param: Some(param.to_owned()),
                item_field: None,
                id_field: shape.id_field,
                items: None,
            })
        })
}

/// Whether `answer` is a list of `item`, or an object with one, at its top or in an object
/// of its (Vonage Media's `_embedded.media`).
fn lists(service: &Service, answer: Option<&Ty>, item: &str) -> bool {
    lists_within(service, answer, item, 2)
}

fn lists_within(service: &Service, answer: Option<&Ty>, item: &str, depth: usize) -> bool {
    let of_item =
        |ty: &Ty| matches!(ty, Ty::List(inner) if matches!(&**inner, Ty::Named(n) if n == item));
    match answer {
        Some(ty) if of_item(ty) => true,
        Some(Ty::Named(name)) if depth > 0 => match service.type_named(name).map(|t| &t.kind) {
            Some(super::super::TypeKind::Object(fields)) => fields
                .iter()
                .any(|f| of_item(&f.ty) || lists_within(service, Some(&f.ty), item, depth - 1)),
            _ => false,
        },
        _ => false,
    }
}
