//! Operations that say what they do in the last segment of their path and name the item in
//! their body (the RPC style of Mandrill's `POST /templates/add`, `/templates/info`,
//! `/templates/update`, `/templates/delete` and `/templates/list`, each with
//! `{"name": ...}`): a collection's create, get, update, delete and list all the same. A verb
//! may carry its noun (`/inbound/add-domain`, `/inbound/domains`, `/ips/pool-info`), which
//! names a collection of its own beneath the path.

use super::{
    FieldInfo, OperationInfo, ResourceAction, ResourceShape, Service, answers_list, item_fields,
    singular,
};
use crate::model::Method;
use tidings_spec::id_like;

/// What a word says its operation does, when it is a verb of plain CRUD.
fn verb(word: &str) -> Option<ResourceAction> {
    Some(match word {
        "add" | "create" | "new" => ResourceAction::Create,
        "info" | "get" | "read" | "show" | "retrieve" | "fetch" => ResourceAction::Get,
        "update" | "edit" | "modify" | "patch" => ResourceAction::Merge,
        "delete" | "remove" | "destroy" => ResourceAction::Delete,
        "list" | "all" | "find" | "search" => ResourceAction::List,
        _ => return None,
    })
}

/// The verb and noun of a last path segment (an extension such as `.json` aside): `add` →
/// (create, none), `add-domain` → (create, `domain`), `pool-info` → (get, `pool`),
/// `list-pools` → (list, `pool`). A segment without a verb is a noun alone (`domains`),
/// which lists that noun when a family has it.
fn words(segment: &str) -> (Option<ResourceAction>, String) {
    let word = segment
        .split('.')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let parts: Vec<&str> = word.split(['-', '_']).filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [only] => match verb(only) {
            Some(kind) => (Some(kind), String::new()),
            None => (None, singular(only)),
        },
        [first, rest @ ..] if verb(first).is_some() => (verb(first), singular(&rest.join("-"))),
        [rest @ .., last] if verb(last).is_some() => (verb(last), singular(&rest.join("-"))),
        _ => (None, singular(&parts.join("-"))),
    }
}

/// One operation of a verb family: what it does, on which noun, under which path.
struct Verb<'o> {
    kind: Option<ResourceAction>,
    noun: String,
    parent: &'o str,
    op: &'o OperationInfo,
}

/// `op` read as a verb: its path is `<parent>/<segment>` under a literal segment (not
/// `/messages/{id}/delete`, an action on an item the path names).
fn verb_of(op: &OperationInfo) -> Option<Verb<'_>> {
    let (parent, last) = op.path.rsplit_once('/')?;
    let above = parent.rsplit('/').next().unwrap_or_default();
    if above.is_empty() || above.contains('{') || last.contains('{') {
        return None;
    }
    let (kind, noun) = words(last);
    Some(Verb {
        kind,
        noun,
        parent,
        op,
    })
}

/// An update named by a verb after the item's own path (Mattermost's `PUT
/// /posts/{post_id}/patch`, "omitted fields are left unchanged"): a merge into the item that a
/// `GET` of that path reads (it answered the change and kept nothing).
pub(super) fn item_verb_shape(service: &Service, op: &OperationInfo) -> Option<ResourceShape> {
    if !matches!(op.method, Method::Put | Method::Post | Method::Patch) {
        return None;
    }
    let (parent, last) = op.path.rsplit_once('/')?;
    let item_path = parent
        .rsplit('/')
        .next()
        .is_some_and(|s| s.starts_with('{') && s.ends_with('}'));
    let (Some(ResourceAction::Merge), noun) = words(last) else {
        return None;
    };
    if !item_path || !noun.is_empty() {
        return None;
    }
    let get = service
        .operations
        .iter()
        .find(|o| o.path == parent && o.method == Method::Get)?;
    let read = super::resource_shape(service, get);
    (read.kind == ResourceAction::Get).then_some(ResourceShape {
        kind: ResourceAction::Merge,
        ..read
    })
}

/// `op`'s shape when it is one of a family of verbs on one noun under one path that creates
/// items and reads, changes or deletes them by a field of the request: the field that the
/// create's body and the item have too, and that the reading operation (a get, else a delete,
/// else an update) sends, required ones first. `None` for any other operation, so an `info`
/// with no `add` beside it (Mandrill's `/messages/info`) stays an action that makes up its
/// answer.
pub(super) fn verb_shape(service: &Service, op: &OperationInfo) -> Option<ResourceShape> {
    let mut this = verb_of(op)?;
    // A word that is no verb of CRUD and names no family of its own, sent a body (Mandrill's
    // `/templates/publish`), is another verb of the family beside it.
    let other_verb = this.kind.is_none()
        && op.body.is_some()
        && !answers_list(service, op)
        && !service.operations.iter().any(|o| {
            verb_of(o).is_some_and(|v| {
                v.parent == this.parent
                    && v.noun == this.noun
                    && v.kind == Some(ResourceAction::Create)
            })
        });
    if other_verb {
        this.noun = String::new();
    }
    // Only the operations beside it are read as words (every operation of a service asks).
    let beside = |o: &&OperationInfo| o.path.rsplit_once('/').map(|(p, _)| p) == Some(this.parent);
    let family: Vec<Verb<'_>> = service
        .operations
        .iter()
        .filter(beside)
        .filter_map(verb_of)
        .filter(|v| v.noun == this.noun)
        .collect();
    let with = |want: ResourceAction| family.iter().find(|v| v.kind == Some(want)).map(|v| v.op);
    let create = with(ResourceAction::Create)?;
    // A noun alone lists the noun a family creates (`/inbound/domains` beside
    // `/inbound/add-domain`) when it answers a list.
    // Another verb whose body names the item (Mandrill's `/templates/publish {name}`) acts
    // on the item held: its answer is that item, its 404 one never made (checked below).
    let kind = match this.kind {
        Some(kind) => kind,
        None if answers_list(service, op) => ResourceAction::List,
        None if other_verb => ResourceAction::Action,
        None => return None,
    };
    let get = with(ResourceAction::Get);
    let reader = get
        .or_else(|| with(ResourceAction::Delete))
        .or_else(|| with(ResourceAction::Merge))?;
    let list = with(ResourceAction::List);
    let field = item_field(service, create, get.or(list), reader)?;
    let sends_field =
        item_fields(service, op.body.as_ref()).is_some_and(|fs| fs.iter().any(|f| f.wire == field));
    if kind == ResourceAction::Action && !sends_field {
        return None;
    }
    let names_item = matches!(
        kind,
        ResourceAction::Get
            | ResourceAction::Merge
            | ResourceAction::Delete
            | ResourceAction::Action
    );
    let collection = match this.noun.as_str() {
        "" => this.parent.to_owned(),
        noun => format!("{}/{noun}", this.parent),
    };
    Some(ResourceShape {
        kind,
        collection,
        item_param: None,
        item_field: names_item.then(|| field.clone()),
        id_field: field,
        items: None,
    })
}

/// The request field by which `reader` names an item that `create` made (see [`verb_shape`]);
/// `shown` answers the item (a get, else a list of them).
fn item_field(
    service: &Service,
    create: &OperationInfo,
    shown: Option<&OperationInfo>,
    reader: &OperationInfo,
) -> Option<String> {
    let created = item_fields(service, create.body.as_ref())?;
    // The item's own fields: what the get (or each of the list) answers, else the create.
    let item = shown
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
