//! Operations that say what they do in the last segment of their path and name the item in
//! their body (the RPC style of Mandrill's `POST /templates/add`, `/templates/info`,
//! `/templates/update`, `/templates/delete` and `/templates/list`, each with
//! `{"name": ...}`): a collection's create, get, update, delete and list all the same.

use super::{FieldInfo, OperationInfo, ResourceAction, ResourceShape, Service, item_fields};
use crate::model::Method;
use tidings_spec::id_like;

/// What a last path segment says its operation does, when it is a verb of plain CRUD
/// (`add`, `info`, `update`, `delete`, `list`; an extension such as `.json` aside).
fn verb(segment: &str) -> Option<ResourceAction> {
    let word = segment.split('.').next().unwrap_or_default();
    Some(match word.to_ascii_lowercase().as_str() {
        "add" | "create" | "new" => ResourceAction::Create,
        "info" | "get" | "read" | "show" | "retrieve" | "fetch" => ResourceAction::Get,
        "update" | "edit" | "modify" => ResourceAction::Merge,
        "delete" | "remove" | "destroy" => ResourceAction::Delete,
        "list" | "all" => ResourceAction::List,
        _ => return None,
    })
}

/// The verb and collection path of `op`, when its path is `<collection>/<verb>` under a
/// literal segment (not `/messages/{id}/delete`, an action on an item the path names), by
/// `POST` or `GET`.
fn verb_of(op: &OperationInfo) -> Option<(ResourceAction, &str)> {
    if !matches!(op.method, Method::Post | Method::Get) {
        return None;
    }
    let (collection, last) = op.path.rsplit_once('/')?;
    let parent = collection.rsplit('/').next().unwrap_or_default();
    if parent.is_empty() || parent.contains('{') {
        return None;
    }
    Some((verb(last)?, collection))
}

/// `op`'s shape when it is one of a family of verbs on one collection that creates items and
/// reads, changes or deletes them by a field of the request: the field that the create's body
/// and the item have too, and that the reading operation (a get, else a delete, else an
/// update) sends, required ones first. `None` for any other operation, so an `info` with no
/// `add` beside it (Mandrill's `/messages/info`) stays an action that makes up its answer.
pub(super) fn verb_shape(service: &Service, op: &OperationInfo) -> Option<ResourceShape> {
    let (kind, collection) = verb_of(op)?;
    let family: Vec<(ResourceAction, &OperationInfo)> = service
        .operations
        .iter()
        .filter_map(|o| {
            let (kind, of) = verb_of(o)?;
            (of == collection).then_some((kind, o))
        })
        .collect();
    let with = |want: ResourceAction| family.iter().find(|(k, _)| *k == want).map(|(_, o)| *o);
    let create = with(ResourceAction::Create)?;
    let get = with(ResourceAction::Get);
    let reader = get
        .or_else(|| with(ResourceAction::Delete))
        .or_else(|| with(ResourceAction::Merge))?;
    let field = item_field(service, create, get, reader)?;
    let names_item = matches!(
        kind,
        ResourceAction::Get | ResourceAction::Merge | ResourceAction::Delete
    );
    Some(ResourceShape {
        kind,
        collection: collection.to_owned(),
        item_param: None,
        item_field: names_item.then(|| field.clone()),
        id_field: field,
        items: None,
    })
}

/// The request field by which `reader` names an item that `create` made (see [`verb_shape`]).
fn item_field(
    service: &Service,
    create: &OperationInfo,
    get: Option<&OperationInfo>,
    reader: &OperationInfo,
) -> Option<String> {
    let created = item_fields(service, create.body.as_ref())?;
    // The item's own fields: what the get answers, else what the create does.
    let item = get
        .and_then(|g| item_fields(service, g.response.as_ref()))
        .or_else(|| item_fields(service, create.response.as_ref()));
    let of_item = |name: &str| {
        item.is_none_or(|fs| fs.iter().any(|f| f.wire == name))
            && created.iter().any(|f| f.wire == name && !f.secret)
    };
    let sent: Vec<(&str, bool)> = match item_fields(service, reader.body.as_ref()) {
        Some(fields) => fields
            .iter()
            .map(|f: &FieldInfo| (f.wire.as_str(), f.required))
            .collect(),
        None => reader
            .query
            .iter()
            .map(|p| (p.wire.as_str(), p.required))
            .collect(),
    };
    let pick = |fits: &dyn Fn(&str) -> bool| {
        let mut candidates = sent.iter().filter(|(name, _)| fits(name));
        let first = candidates.clone().next();
        candidates
            .find(|(_, required)| *required)
            .or(first)
            .map(|(name, _)| (*name).to_owned())
    };
    // Else an id the service makes (Mandrill's webhooks: `/webhooks/add` answers the `id`
    // that `/webhooks/info` is sent): an id-like field of the item.
    let made_id =
        |name: &str| id_like(name) && item.is_some_and(|fs| fs.iter().any(|f| f.wire == name));
    pick(&of_item).or_else(|| pick(&made_id))
}
