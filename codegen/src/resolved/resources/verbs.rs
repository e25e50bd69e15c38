//! Operations that say what they do in the last segment of their path and name the item in
//! their body (the RPC style of Mandrill's `POST /templates/add`, `/templates/info`,
//! `/templates/update`, `/templates/delete` and `/templates/list`, each with
//! `{"name": ...}`): a collection's create, get, update, delete and list all the same. A verb
//! may carry its noun (`/inbound/add-domain`, `/inbound/domains`, `/ips/pool-info`), which
//! names a collection of its own beneath the path.

use super::{
    FieldInfo, OperationInfo, ResourceAction, ResourceShape, Service, Ty, answered_item,
    answers_list, envelope_items, item_fields, singular,
};
use crate::model::Method;
use tidings_spec::id_like;

/// What a word says its operation does, when it is a verb of plain CRUD.
fn verb(word: &str) -> Option<ResourceAction> {
    Some(match word {
        "add" | "create" | "new" => ResourceAction::Create,
        "info" | "get" | "read" | "show" | "retrieve" | "fetch" => ResourceAction::Get,
        "update" | "edit" | "modify" | "patch" | "rename" => ResourceAction::Merge,
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
    let word = split_camel_case(segment.split('.').next().unwrap_or_default());
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

/// `postMessage` as `post-message`: a lower-case letter or digit followed by an upper-case one
/// starts a word; the whole in lower case.
fn split_camel_case(word: &str) -> String {
    let mut out = String::with_capacity(word.len() + 4);
    let mut after_lower = false;
    for c in word.chars() {
        if c.is_ascii_uppercase() && after_lower {
            out.push('-');
        }
        after_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// What the verb of a method named `<noun>.<verb>` does: a plain CRUD verb, or one that sends
/// a new item (Rocket.Chat's `chat.postMessage`, `chat.sendMessage`), with the noun after it.
fn method_words(word: &str) -> (Option<ResourceAction>, String) {
    let (kind, noun) = words(word);
    if kind.is_some() {
        return (kind, noun);
    }
    let split = split_camel_case(word);
    match split.split_once('-') {
        Some(("post" | "send", rest)) if !rest.is_empty() => {
            (Some(ResourceAction::Create), singular(rest))
        }
        _ => (kind, noun),
    }
}

/// One operation of a verb family: what it does, on which noun, under which path.
struct Verb<'o> {
    kind: Option<ResourceAction>,
    noun: String,
    parent: &'o str,
    /// Named `<noun>.<verb>` (Slack's `/reminders.add`): its word after the dot is a verb,
    /// never a noun of its own.
    dotted: bool,
    op: &'o OperationInfo,
}

/// What follows a dot at the end of a path that is a file's kind, not a verb (Twilio's
/// `/Messages.json`).
const EXTENSIONS: &[&str] = &[
    "json", "xml", "csv", "txt", "html", "htm", "yaml", "yml", "pdf", "png", "jpg", "jpeg", "gif",
    "mp3", "mp4", "wav", "zip", "ics", "vcf", "eml",
];

/// A method named `<noun>.<verb>` (Slack's `/conversations.create`, `/reminders.info`):
/// the path up to the last dot, which names the noun's items, and the verb after it.
fn dotted_method(path: &str) -> Option<(&str, &str)> {
    let (noun_path, verb) = path.rsplit_once('.')?;
    let last = noun_path.rsplit('/').next().unwrap_or_default();
    let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (word(last)
        && word(verb)
        && verb.starts_with(|c: char| c.is_ascii_alphabetic())
        && !EXTENSIONS.contains(&verb.to_ascii_lowercase().as_str()))
    .then_some((noun_path, verb))
}

/// `op` read as a verb: its path is `<parent>/<segment>` under a literal segment (not
/// `/messages/{id}/delete`, an action on an item the path names), or `<noun>.<verb>`.
fn verb_of(op: &OperationInfo) -> Option<Verb<'_>> {
    let (parent, last) = op.path.rsplit_once('/')?;
    if last.contains('{') {
        return None;
    }
    if let Some((noun_path, word)) = dotted_method(&op.path) {
        // A verb with a noun after it names a family of that noun (`chat.postMessage`,
        // `chat.getMessage`); a word that is no verb of CRUD stays a verb of the noun's items.
        let (kind, noun) = method_words(word);
        return Some(Verb {
            kind,
            noun: if kind.is_some() { noun } else { String::new() },
            parent: noun_path,
            dotted: true,
            op,
        });
    }
    let above = parent.rsplit('/').next().unwrap_or_default();
    if above.is_empty() || above.contains('{') {
        return None;
    }
    let (kind, noun) = words(last);
    Some(Verb {
        kind,
        noun,
        parent,
        dotted: false,
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
        && (this.dotted
            || !service.operations.iter().any(|o| {
                verb_of(o).is_some_and(|v| {
                    v.parent == this.parent
                        && v.noun == this.noun
                        && v.kind == Some(ResourceAction::Create)
                })
            }));
    if other_verb {
        this.noun = String::new();
    }
    // A method's verb alone (`chat.update`, `chat.delete`) where the noun's own family makes
    // nothing acts on the one family beside it that does (`chat.postMessage`'s messages).
    if this.dotted && this.noun.is_empty() && this.kind.is_some_and(|k| k != ResourceAction::Create)
    {
        let mut made = service
            .operations
            .iter()
            .filter_map(verb_of)
            .filter(|v| {
                v.dotted && v.parent == this.parent && v.kind == Some(ResourceAction::Create)
            })
            .map(|v| v.noun);
        if let (Some(noun), None) = (made.next(), made.next())
            && !noun.is_empty()
        {
            this.noun = noun;
        }
    }
    // Only the operations beside it are read as words (every operation of a service asks).
    let beside = |o: &&OperationInfo| o.path.starts_with(this.parent);
    let family: Vec<Verb<'_>> = service
        .operations
        .iter()
        .filter(beside)
        .filter_map(verb_of)
        .filter(|v| v.parent == this.parent && v.noun == this.noun)
        .collect();
    let with = |want: ResourceAction| family.iter().find(|v| v.kind == Some(want)).map(|v| v.op);
    // A list verb whose items a REST path reads, made elsewhere (ZoomConnect's `GET
    // /messages/all` beside `GET /messages/{messageId}`, its messages sent at `/sms/send`):
    // that collection's list.
    if this.kind == Some(ResourceAction::List)
        && !this.dotted
        && this.noun.is_empty()
        && with(ResourceAction::Create).is_none()
        && answers_list(service, op)
        && let Some(read) = service.operations.iter().find(|o| {
            o.method == Method::Get
                && o.path
                    .strip_prefix(this.parent)
                    .and_then(|rest| rest.strip_prefix("/{"))
                    .is_some_and(|rest| rest.ends_with('}') && !rest.contains('/'))
        })
    {
        let read = super::shape_of(service, read);
        return (read.kind == ResourceAction::Get).then(|| ResourceShape {
            kind: ResourceAction::List,
            collection: read.collection,
            item_param: None,
            item_field: None,
            id_field: read.id_field,
            items: envelope_items(service, op).map(|(path, _)| path),
        });
    }
    let create = with(ResourceAction::Create)?;
    // A noun alone lists the noun a family creates (`/inbound/domains` beside
    // `/inbound/add-domain`) when it answers a list.
    // Another verb whose body names the item (Mandrill's `/templates/publish {name}`) acts
    // on the item held: its answer is that item, its 404 one never made (checked below).
    // A dotted verb that answers a list lists something else (Slack's
    // `/conversations.history` lists messages).
    let kind = match this.kind {
        Some(kind) => kind,
        None if answers_list(service, op) && !this.dotted => ResourceAction::List,
        None if other_verb => ResourceAction::Action,
        None => return None,
    };
    let get = with(ResourceAction::Get);
    let collection = match this.noun.as_str() {
        "" => this.parent.to_owned(),
        noun => format!("{}/{noun}", this.parent),
    };
    let Some(reader) = get
        .or_else(|| with(ResourceAction::Delete))
        .or_else(|| with(ResourceAction::Merge))
    else {
        return match kind {
            _ if this.dotted => None,
            ResourceAction::Create => create_beside_rest(service, op, &collection),
            // The list verb beside such a create (ZoomConnect's `/contacts/all` beside
            // `/contacts/create` and `/contacts/{contactId}`): that collection's list.
            ResourceAction::List => {
                let made = create_beside_rest(service, create, &collection)?;
                Some(ResourceShape {
                    kind,
                    items: envelope_items(service, op).map(|(path, _)| path),
                    ..made
                })
            }
            _ => None,
        };
    };
    let list = with(ResourceAction::List);
    let (field, id_field) = item_field(service, &collection, create, get.or(list), reader)?;
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
    // A list inside an object (Slack's `{"ok": true, "reminders": [...]}`).
    let items = (kind == ResourceAction::List)
        .then(|| envelope_items(service, op).map(|(path, _)| path))
        .flatten();
    Some(ResourceShape {
        kind,
        collection,
        item_param: None,
        item_field: names_item.then_some(field),
        id_field,
        items,
    })
}

/// A custom method that adds to a collection (Azure's `POST
/// /chat/threads/{id}/participants/:add`, Google's `participants:batchAdd`): the collection's
/// own create, so what it adds is listed there (it answered 201 and kept nothing).
pub(super) fn custom_method_shape(service: &Service, op: &OperationInfo) -> Option<ResourceShape> {
    let (collection, verb) = op.path.rsplit_once(':')?;
    let collection = collection.trim_end_matches('/');
    let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric());
    if op.method != Method::Post || !word(verb) || collection.ends_with('}') {
        return None;
    }
    let (kind, _) = method_words(verb);
    if kind != Some(ResourceAction::Create) && !verb.eq_ignore_ascii_case("batchadd") {
        return None;
    }
    create_beside_rest(service, op, collection)
}

/// A create verb with no verb beside it that reads what it made, under a collection that
/// REST paths (or a list verb) list and name items of (Zulip's `POST /user_groups/create`
/// beside `GET /user_groups` and `PATCH`/`DELETE /user_groups/{user_group_id}`): the create of
/// that collection, so what it makes is listed, read, changed and deleted there (it kept
/// nothing).
fn create_beside_rest(
    service: &Service,
    op: &OperationInfo,
    collection: &str,
) -> Option<ResourceShape> {
    // Listed at the collection's path, or by a list verb beneath it (ZoomConnect's
    // `/contacts/all`).
    let list_verb = |o: &OperationInfo| {
        verb_of(o).is_some_and(|v| {
            !v.dotted && v.parent == collection && v.kind == Some(ResourceAction::List)
        })
    };
    let listed = service.operations.iter().any(|o| {
        o.method == Method::Get
            && (o.path == collection || list_verb(o))
            && answers_list(service, o)
    });
    let item_path = service.operations.iter().any(|o| {
        o.path
            .strip_prefix(collection)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| rest.starts_with('{') && rest.ends_with('}') && !rest.contains('/'))
    });
    // A custom method's collection need only be listed (ACS Chat's participants have no item
    // path: `:remove` takes one out).
    let custom = op.path.contains(':');
    if !listed || !(item_path || custom) {
        return None;
    }
    let as_rest = OperationInfo {
        path: collection.to_owned(),
        ..op.clone()
    };
    let shape = super::shape_of(service, &as_rest);
    (shape.kind == ResourceAction::Create).then_some(shape)
}

/// The `GET` at `path` that lists its items, and the one that reads an item beneath it
/// (`path/{id}`), when the service has both.
fn listed_and_read<'s>(
    service: &'s Service,
    path: &str,
) -> Option<(&'s OperationInfo, &'s OperationInfo)> {
    let get = |want: &dyn Fn(&str) -> bool| {
        service
            .operations
            .iter()
            .find(|o| o.method == Method::Get && want(&o.path))
    };
    let list = get(&|p| p == path).filter(|o| answers_list(service, o))?;
    let read = get(&|p| {
        p.strip_prefix(path)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| rest.starts_with('{') && rest.ends_with('}') && !rest.contains('/'))
    })?;
    Some((list, read))
}

/// Whether most of what `op`'s body sends, and two fields at least, are fields of the item
/// `read` answers: the body writes that item.
fn writes_item(service: &Service, op: &OperationInfo, read: &OperationInfo) -> bool {
    let (Some(sent), Some((_, item))) = (
        item_fields(service, op.body.as_ref()),
        answered_item(service, read),
    ) else {
        return false;
    };
    let shared = sent
        .iter()
        .filter(|f| item.iter().any(|i| i.wire == f.wire))
        .count();
    shared >= 2 && shared * 2 >= sent.len()
}

/// A write at a word after a collection or its item that is no verb (Textmagic's `POST
/// /contacts/normalized`, `PUT /contacts/{id}/normalized`: the phone taken in a normal form)
/// where the plain path has no such write, whose body writes the item the collection reads:
/// the collection's create, or a merge into the item (the contact was kept in a collection of
/// its own, and every read of it was a 404).
pub(super) fn qualified_write_shape(
    service: &Service,
    op: &OperationInfo,
) -> Option<ResourceShape> {
    let (plain, last) = op.path.rsplit_once('/')?;
    let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !word(last) || words(last).0.is_some() {
        return None;
    }
    let written_plain = service
        .operations
        .iter()
        .any(|o| o.path == plain && o.method == op.method);
    match op.method {
        Method::Post if !written_plain => {
            let (_, read) = listed_and_read(service, plain)?;
            writes_item(service, op, read)
                .then(|| create_beside_rest(service, op, plain))
                .flatten()
        }
        Method::Put | Method::Patch if plain.ends_with('}') => {
            let read = service
                .operations
                .iter()
                .find(|o| o.path == plain && o.method == Method::Get)?;
            let writes = service.operations.iter().any(|o| {
                o.path == plain && matches!(o.method, Method::Put | Method::Patch | Method::Post)
            });
            let shape = super::resource_shape(service, read);
            let merges = !writes && shape.kind == ResourceAction::Get;
            (merges && writes_item(service, op, read)).then_some(ResourceShape {
                kind: ResourceAction::Merge,
                ..shape
            })
        }
        _ => None,
    }
}

/// A `POST` of a delete verb after a listed collection whose body names the items by ids
/// (Textmagic's `POST /messages/delete` with `{"ids": "3,4"}`, with no create beside it to
/// make a family of verbs): a delete of those items of the collection (it acknowledged and
/// removed nothing).
pub(super) fn delete_verb_shape(service: &Service, op: &OperationInfo) -> Option<ResourceShape> {
    let (collection, last) = op.path.rsplit_once('/')?;
    if op.method != Method::Post || words(last) != (Some(ResourceAction::Delete), String::new()) {
        return None;
    }
    let (list, _) = listed_and_read(service, collection)?;
    let ids = item_fields(service, op.body.as_ref())?
        .iter()
        .find(|f| super::names_ids(&f.wire) && matches!(f.ty, Ty::String | Ty::List(_)))?;
    Some(ResourceShape {
        kind: ResourceAction::Delete,
        item_param: None,
        item_field: None,
        items: Some(ids.wire.clone()),
        ..super::resource_shape(service, list)
    })
}

/// The request field by which `reader` names an item that `create` made in `collection` (see
/// [`verb_shape`]), and the item's field it holds; `shown` answers the item (a get, else a
/// list of them).
fn item_field(
    service: &Service,
    collection: &str,
    create: &OperationInfo,
    shown: Option<&OperationInfo>,
    reader: &OperationInfo,
) -> Option<(String, String)> {
    let created = item_fields(service, create.body.as_ref())?;
    // The item's own fields: what the get (or each of the list) answers, else the create.
    let answered = shown
        .and_then(|g| answered_item(service, g))
        .or_else(|| answered_item(service, create));
    let item = answered.map(|(_, fs)| fs);
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
    let noun = collection
        .rsplit(['/', '.'])
        .next()
        .map(singular)
        .unwrap_or_default();
    let wrapper = answered.and_then(|(key, _)| key);
    // A parameter named after the noun or the answer's wrapper with `Id`, shortened or not
    // (Rocket.Chat's `msgId` of a `message`, `userId` of a `user`).
    let names_its_id = |name: &str| {
        let base = name.strip_suffix("Id").or_else(|| name.strip_suffix("_id"));
        base.is_some_and(|b| shortens(b, &noun) || wrapper.is_some_and(|w| shortens(b, w)))
    };
    // The item's id, which the service makes: its id-like field the create does not send.
    let made = item.and_then(|fs| {
        fs.iter()
            .filter(|f| id_like(&f.wire) && matches!(f.ty, Ty::String | Ty::Integer))
            .filter(|f| !created.iter().any(|c| c.wire == f.wire))
            .min_by_key(|f| f.wire != "id")
    });
    // Such a parameter names that id before any field the client chose (`users.info?userId=`
    // beside `username=`, which still finds the user: see the store's `named_otherwise`).
    if let Some(made) = made
        && let Some(field) = pick(&names_its_id)
    {
        return Some((field, made.wire.clone()));
    }
    if let Some(field) = pick(&of_item) {
        return Some((field.clone(), field));
    }
    // Else an id the service makes (Mandrill's webhooks: `/webhooks/add` answers the `id`
    // that `/webhooks/info` is sent): an id-like field of the item.
    let made_id =
        |name: &str| id_like(name) && item.is_some_and(|fs| fs.iter().any(|f| f.wire == name));
    if let Some(field) = pick(&made_id) {
        return Some((field.clone(), field));
    }
    // Else a parameter named after the noun, or after the field its answer wraps the item in
    // (Slack's `reminders.info?reminder=` and `conversations.info?channel=`, each answered
    // `{"ok": true, "<that name>": {...}}`), or either with `Id`: it carries the item's id.
    let names_item = |name: &str| name == noun || Some(name) == wrapper || names_its_id(name);
    let id = item?
        .iter()
        .filter(|f| id_like(&f.wire) && matches!(f.ty, Ty::String | Ty::Integer))
        .min_by_key(|f| f.wire != "id")?;
    // Else the one id-like parameter the reader sends (Rocket.Chat's `channels.info?roomId=`
    // of a `channel`: its rooms are channels, groups and direct messages).
    let only_id =
        |name: &str| id_like(name) && sent.iter().filter(|(other, _)| id_like(other)).count() == 1;
    pick(&names_item)
        .or_else(|| pick(&only_id))
        .map(|field| (field, id.wire.clone()))
}

/// Whether `short` is `word` or a shortening of it: its first letter, then the rest of its
/// letters in order (`msg` of `message`), three letters at least.
fn shortens(short: &str, word: &str) -> bool {
    let short = short.to_ascii_lowercase();
    if short == word {
        return true;
    }
    if short.len() < 3 || short.chars().next() != word.chars().next() {
        return false;
    }
    let mut rest = word.chars();
    short.chars().all(|c| rest.any(|w| w == c))
}

#[cfg(test)]
mod tests {
    /// Slack's Web API: every method `/<noun>.<verb>`, each answer `{"ok": true, ...}` holding
    /// the item under a name of its own, the item named in requests after the noun.
    const SLACK: &str = r#"
service: { name: slack, title: Slack, summary: Slack, source: assumed, base_url: { default: "http://localhost:1/api", env: SLACK_BASE_URL, source: assumed } }
operations:
  reminders_add: { method: POST, path: "/reminders.add", body: NewReminder, response: ReminderAnswer, source: assumed }
  reminders_info: { method: GET, path: "/reminders.info", query: { reminder: { type: string, required: true } }, response: ReminderAnswer, source: assumed }
  reminders_list: { method: GET, path: "/reminders.list", response: Reminders, source: assumed }
  reminders_delete: { method: POST, path: "/reminders.delete", body: ReminderRef, response: Done, source: assumed }
  conversations_create: { method: POST, path: "/conversations.create", body: NewChannel, response: ChannelAnswer, source: assumed }
  conversations_info: { method: GET, path: "/conversations.info", query: { channel: { type: string, required: true } }, response: ChannelAnswer, source: assumed }
  conversations_rename: { method: POST, path: "/conversations.rename", body: Rename, response: ChannelAnswer, source: assumed }
  conversations_archive: { method: POST, path: "/conversations.archive", body: ChannelRef, response: Done, source: assumed }
  conversations_history: { method: GET, path: "/conversations.history", query: { channel: { type: string, required: true } }, response: History, source: assumed }
  messages_list: { method: GET, path: "/Messages.json", response: History, source: assumed }
types:
  NewReminder: { source: assumed, fields: { text: { type: string, required: true } } }
  ReminderRef: { source: assumed, fields: { reminder: { type: string, required: true } } }
  Reminder: { source: assumed, fields: { id: { type: string, required: true }, text: { type: string, required: true } } }
  ReminderAnswer: { source: assumed, fields: { ok: { type: boolean, required: true }, reminder: { type: Reminder, required: true } } }
  Reminders: { source: assumed, fields: { ok: { type: boolean, required: true }, reminders: { type: "list<Reminder>", required: true } } }
  Done: { source: assumed, fields: { ok: { type: boolean, required: true } } }
  NewChannel: { source: assumed, fields: { name: { type: string, required: true } } }
  ChannelRef: { source: assumed, fields: { channel: { type: string, required: true } } }
  Rename: { source: assumed, fields: { channel: { type: string, required: true }, name: { type: string, required: true } } }
  Channel: { source: assumed, fields: { id: { type: string, required: true }, name: { type: string, required: true } } }
  ChannelAnswer: { source: assumed, fields: { ok: { type: boolean, required: true }, channel: { type: Channel, required: true } } }
  Message: { source: assumed, fields: { ts: { type: string, required: true }, text: { type: string } } }
  History: { source: assumed, fields: { ok: { type: boolean, required: true }, messages: { type: "list<Message>", required: true } } }
"#;

    #[test]
    fn a_method_named_noun_dot_verb_acts_on_the_noun_s_items() {
        let shape_of = super::super::tests::shapes_of(SLACK);
        let shape = |name: &str| {
            let s = shape_of(name);
            (
                s.kind.name(),
                s.collection,
                s.item_field.unwrap_or_default(),
                s.id_field,
                s.items.unwrap_or_default(),
            )
        };
        let at = |kind: &'static str, coll: &str, field: &str, id: &str, items: &str| {
            (kind, coll.into(), field.into(), id.into(), items.into())
        };
        assert_eq!(
            shape("reminders_add"),
            at("Create", "/reminders", "", "id", "")
        );
        assert_eq!(
            shape("reminders_info"),
            at("Get", "/reminders", "reminder", "id", "")
        );
        assert_eq!(
            shape("reminders_list"),
            at("List", "/reminders", "", "id", "reminders")
        );
        assert_eq!(
            shape("reminders_delete"),
            at("Delete", "/reminders", "reminder", "id", "")
        );
        // The item is named after the field its answer holds it in.
        assert_eq!(
            shape("conversations_info"),
            at("Get", "/conversations", "channel", "id", "")
        );
        assert_eq!(
            shape("conversations_rename"),
            at("Merge", "/conversations", "channel", "id", "")
        );
        assert_eq!(
            shape("conversations_archive"),
            at("Action", "/conversations", "channel", "id", "")
        );
        // A verb of its own answering a list lists something else: not the family's list.
        assert_ne!(shape("conversations_history").0, "List");
        // A file's kind is no verb.
        assert_ne!(shape("messages_list").1, "/Messages");
    }

    /// Rocket.Chat's `chat.*` methods: camelCase verbs with their noun (`postMessage`,
    /// `getMessage`), a verb alone beside them (`update`, `delete`), the item named `msgId`.
    const ROCKET: &str = r#"
service: { name: rocket, title: Rocket, summary: Rocket, source: assumed, base_url: { default: "http://localhost:1", env: ROCKET_BASE_URL, source: assumed } }
operations:
  post_message: { method: POST, path: "/api/v1/chat.postMessage", body: NewMessage, response: MessageAnswer, source: assumed }
  get_message: { method: GET, path: "/api/v1/chat.getMessage", query: { msgId: { type: string, required: true } }, response: MessageAnswer, source: assumed }
  update: { method: POST, path: "/api/v1/chat.update", body: Edit, response: MessageAnswer, source: assumed }
  delete: { method: POST, path: "/api/v1/chat.delete", body: Ref, response: Done, source: assumed }
types:
  NewMessage: { source: assumed, fields: { roomId: { type: string, required: true }, text: { type: string } } }
  Edit: { source: assumed, fields: { roomId: { type: string, required: true }, msgId: { type: string, required: true }, text: { type: string } } }
  Ref: { source: assumed, fields: { roomId: { type: string, required: true }, msgId: { type: string, required: true } } }
  Message: { source: assumed, fields: { _id: { type: string }, rid: { type: string }, msg: { type: string } } }
  MessageAnswer: { source: assumed, fields: { message: { type: Message }, success: { type: boolean } } }
  Done: { source: assumed, fields: { success: { type: boolean } } }
"#;

    #[test]
    fn camel_case_methods_and_a_shortened_id_name_the_family_s_items() {
        let shape_of = super::super::tests::shapes_of(ROCKET);
        let shape = |name: &str| {
            let s = shape_of(name);
            let field = s.item_field.unwrap_or_default();
            (s.kind.name(), s.collection, field, s.id_field)
        };
        let at = |kind: &'static str, field: &str| {
            (
                kind,
                "/api/v1/chat/message".to_owned(),
                field.to_owned(),
                "_id".to_owned(),
            )
        };
        assert_eq!(shape("post_message"), at("Create", ""));
        assert_eq!(shape("get_message"), at("Get", "msgId"));
        assert_eq!(shape("update"), at("Merge", "msgId"));
        assert_eq!(shape("delete"), at("Delete", "msgId"));
        assert!(super::shortens("msg", "message"));
        assert!(!super::shortens("ms", "message"));
        assert!(!super::shortens("room", "message"));
        assert_eq!(super::split_camel_case("lookupByEmail"), "lookup-by-email");
    }
}
