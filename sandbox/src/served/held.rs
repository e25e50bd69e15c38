//! When a write finds an item held, or none: which creates are upserts, and which replaces
//! create what they do not find.

use serde_json::Value;

use crate::server::resources::ResourceCall;

/// Whether an operation is an upsert: its name says so ([`names_an_upsert`]), or its
/// description does ([`described_as_upsert`]).
pub(super) fn upserts(info: &tidings_codegen::check::OperationInfo) -> bool {
    names_an_upsert(&info.name) || described_as_upsert(info)
}

/// Whether an operation's description says it creates or updates (Ably's `PUT
/// /push/deviceRegistrations/{id}`: "can be upserted").
pub(super) fn described_as_upsert(info: &tidings_codegen::check::OperationInfo) -> bool {
    let doc = info.doc.as_deref().unwrap_or_default().to_ascii_lowercase();
    [
        "create or update",
        "creates or updates",
        "upsert",
        "or updates",
        "or update ",
    ]
    .iter()
    .any(|words| doc.contains(words))
        || (doc.contains("already exist") && doc.contains("updated"))
}

/// Whether the call asks a create to fail on an item held (Novu's `failIfExists=true`, in its
/// query or body).
pub(super) fn asks_to_fail_if_held(call: &ResourceCall) -> bool {
    [&call.query, &call.body]
        .into_iter()
        .filter_map(Value::as_object)
        .flatten()
        .any(|(name, value)| {
            crate::server::resources::plain(name).contains("failifexist")
                && (value == &Value::Bool(true) || value.as_str() == Some("true"))
        })
}

/// Whether an operation's name says it creates or replaces (`upsert_user`,
/// `create_or_update_user`, `identify_user`, `set_object`, `update_users`): a create of an id
/// held replaces the item.
fn names_an_upsert(name: &str) -> bool {
    name.split('_').any(|word| {
        matches!(
            word,
            "upsert" | "update" | "replace" | "set" | "put" | "identify" | "save" | "merge"
        )
    })
}

/// Whether an operation's name says it creates what it does not find (`upsert_user`,
/// `create_or_update_user`, `identify_user`, `set_object`).
pub(super) fn names_a_create_or_update(name: &str) -> bool {
    let words: Vec<&str> = name.split('_').collect();
    words
        .iter()
        .any(|w| matches!(*w, "upsert" | "identify" | "set" | "or" | "save"))
}

/// The 404 of a create (or a list that documents a 404) under a parent the store does not
/// hold, where the spec creates such parents (Mailtrap's `POST /api/projects/{project_id}/sandboxes`, Mailgun's members of
/// a mailing list never made, Twilio's participants of an unknown conversation): not an item
/// under no parent, which a later create of the parent would find there. A parent named by a
/// credential's value is the caller's own (Twilio's `{AccountSid}`, the account the client
/// signs in as): it is there.
pub(super) fn missing_parent(
    served: &super::ops::Served,
    op: &super::ops::ServedOp,
    call: &ResourceCall,
) -> Option<crate::server::ServerError> {
    // A list under an unknown parent is 404 where the operation says so, or says nothing of
    // its errors (Twilio's documents list none: its messages of a deleted conversation are a
    // 404, where an empty page hid the loss); some answer an empty list (BulkSMS's related
    // messages of "an id that is not a sent message", beside errors it lists).
    if op.resource.kind == crate::server::resources::ResourceAction::List
        && !op.info.errors.contains(&404)
        && !op.info.errors.is_empty()
    {
        return None;
    }
    let (parent, param) = parent_of(&served.ops, op)?;
    let named = call.path.iter().find(|(name, _)| *name == param)?;
    if served.gateway.accepts_any(&named.1) {
        return None;
    }
    served
        .store
        .missing_under(parent, param, &op.resource, call)
}

/// Whether the item an operation's path names is the caller's own account, named by a
/// credential's value (Vonage's `POST /{api_key}/transfer-number`, the account signing in):
/// it is there, though nothing made it.
pub(super) fn the_callers_own(
    served: &super::ops::Served,
    op: &super::ops::ServedOp,
    call: &ResourceCall,
) -> bool {
    let Some(param) = op.resource.item_param else {
        return false;
    };
    call.path
        .iter()
        .any(|(name, value)| *name == param && served.gateway.accepts_any(value))
}

/// The operation as it is served: an update of an item path named by a key the client
/// chooses, in a collection nothing creates in (Twilio Sync's `POST …/Permissions/{Identity}`, its only write: "update" grants the
/// permission) writes the item, created when absent, as a replace does (a `POST` keeps what
/// its body does not send). It was a 404 for every identity, and the permissions list stayed
/// empty.
pub(super) fn written_by_its_update(
    served: &super::ops::Served,
    op: &super::ops::ServedOp,
) -> crate::server::resources::ResourceOp {
    use crate::server::resources::ResourceAction;
    let mut resource = op.resource;
    let created = served.ops.iter().any(|o| {
        o.resource.kind == ResourceAction::Create && o.resource.collection == resource.collection
    });
    // Named by a key the client chooses (an identity, a name), not an id the service made
    // (Ably's `/apps/{id}`, made at `/accounts/{account_id}/apps`, is no new app).
    let chosen = resource
        .item_param
        .is_some_and(|p| !tidings_spec::id_like(p));
    if resource.kind == ResourceAction::Merge && chosen && !created {
        resource.kind = ResourceAction::Replace;
    }
    resource
}

/// The collection template and parameter of the parent item an operation creates or lists
/// under (`/api/projects` and `project_id` of `/api/projects/{project_id}/sandboxes`), when
/// another operation creates such parents: the parent can then be missing.
fn parent_of<'o>(
    ops: &'o [super::ops::ServedOp],
    op: &super::ops::ServedOp,
) -> Option<(&'o str, &'static str)> {
    use crate::server::resources::ResourceAction;
    if !matches!(
        op.resource.kind,
        ResourceAction::Create | ResourceAction::List
    ) {
        return None;
    }
    // Slices of the `'static` collection template are `'static` themselves.
    let collection: &'static str = op.resource.collection;
    let (parent, rest) = collection.rsplit_once("/{")?;
    let (param, _) = rest.split_once('}')?;
    // Twilio's parents are created at `/Accounts.json`, their children under `/Accounts/{Sid}`.
    let creates_there = |c: &str| c == parent || c.strip_suffix(".json") == Some(parent);
    let creator = ops.iter().find(|o| {
        o.resource.kind == ResourceAction::Create && creates_there(o.resource.collection)
    })?;
    Some((creator.resource.collection, param))
}

/// What a delete named for a cancel merges into the item instead of removing it (OneSignal's
/// `cancel_notification`, `DELETE /notifications/{notification_id}`; Telnyx's
/// `CancelMessage`, `DELETE /messages/{id}`, "cancel a scheduled message", whose message is
/// read for days after): the item stays, readable and listed, with its `canceled` (or
/// `cancelled`) boolean set where the item the collection's get answers has one, else its
/// `status` (or `state`) at the `cancelled` (or `canceled`) value of its enum, else unchanged.
pub(super) fn cancel_change(
    service: &tidings_codegen::check::Service,
    info: &tidings_codegen::check::OperationInfo,
    resource: &crate::server::resources::ResourceOp,
) -> Option<serde_json::Value> {
    use crate::server::resources::ResourceAction;
    use tidings_codegen::check::{Ty, TypeKind};
    let cancelling = |w: &str| matches!(w, "cancel" | "void" | "abort");
    // An HTTP `DELETE`: a `POST /number/cancel` gives the number back (Vonage), and it goes.
    if resource.kind != ResourceAction::Delete
        || info.method != tidings_codegen::model::Method::Delete
        || !info.name.split('_').any(cancelling)
    {
        return None;
    }
    let get = service.operations.iter().find(|o| {
        let read = tidings_codegen::describe::resource_op(service, o);
        read.kind == ResourceAction::Get && read.collection == resource.collection
    });
    let fields = match get.and_then(|g| g.response.as_ref()) {
        Some(Ty::Named(item)) => match &service.type_named(item).map(|t| &t.kind) {
            Some(TypeKind::Object(fields)) => fields.as_slice(),
            _ => &[],
        },
        _ => &[],
    };
    if let Some(flag) = fields
        .iter()
        .find(|f| matches!(f.wire.as_str(), "canceled" | "cancelled") && f.ty == Ty::Boolean)
    {
        return Some(serde_json::json!({ flag.wire.clone(): true }));
    }
    let cancelled = fields.iter().find_map(|f| {
        let Ty::Named(name) = &f.ty else { return None };
        let TypeKind::Enum(values) = &service.type_named(name)?.kind else {
            return None;
        };
        let value = values
            .iter()
            .find(|v| matches!(v.wire.as_str(), "cancelled" | "canceled"))?;
        matches!(f.wire.as_str(), "status" | "state").then(|| (f.wire.clone(), value.wire.clone()))
    });
    Some(match cancelled {
        Some((field, value)) => serde_json::json!({ field: value }),
        None => serde_json::json!({}),
    })
}

/// What an attach by identifier names: a create under a parent whose body is only the `id`
/// (and `type`) of an item of the kind its last segment says (Intercom's `POST
/// /contacts/{contact_id}/tags {id}`), where the spec serves that kind's own collection
/// (`/tags`) and the answer declares an `id`: that item as the collection holds it (the attach
/// answered the request's `{id}`), or 404 where the operation documents one (an unknown tag was
/// attached and listed). `None` for any other call.
pub(super) fn attached(
    served: &super::ops::Served,
    op: &super::ops::ServedOp,
    body: &serde_json::Value,
) -> Option<Result<serde_json::Value, crate::server::ServerError>> {
    use crate::server::resources::ResourceAction;
    use serde_json::Value;
    let fields = body.as_object()?;
    let id = match fields.get("id")? {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let identifier = fields.keys().all(|k| k == "id" || k == "type");
    let collection = op.resource.collection;
    if op.resource.kind != ResourceAction::Create || !identifier || !collection.contains('{') {
        return None;
    }
    let declares_id = op
        .resource
        .response
        .as_ref()
        .and_then(|ty| served.schema.object_fields(ty))
        .is_some_and(|fs| fs.iter().any(|f| f.name == "id"));
    // `/contacts/{contact_id}/tags` → `/tags`.
    let kind = collection.rsplit('/').next()?;
    let above: Vec<&str> = collection
        .split('/')
        .take_while(|s| !s.contains('{'))
        .collect();
    let (_, root) = above.split_last()?;
    let home = format!("{}/{kind}", root.join("/"));
    let served_home = served.ops.iter().any(|o| o.resource.collection == home);
    if !declares_id || !served_home || kind.contains('{') {
        return None;
    }
    let names = |v: &serde_json::Map<String, Value>| match v.get("id") {
        Some(Value::String(s)) => *s == id,
        Some(Value::Number(n)) => n.to_string() == id,
        _ => false,
    };
    match served.store.find(&home, names) {
        Some(item) => Some(Ok(item)),
        None if op.info.errors.contains(&404) => Some(Err(crate::server::ServerError::not_found(
            format!("`{home}/{id}`"),
        )
        .with_param("id"))),
        None => None,
    }
}

/// Puts the id a create names the thing it adds by into its body's id field (Twilio's
/// `PhoneNumberSid` of a service's `/PhoneNumbers`): the item is that thing, its `sid` the one
/// sent (one was made up, and a number added twice was two).
pub(super) fn named_by_what_it_adds(op: &super::ops::ServedOp, call: &mut ResourceCall) {
    if op.resource.kind == crate::server::resources::ResourceAction::Create
        && let Some(body) = call.body.as_object_mut()
        && !body.contains_key(op.resource.id_field)
        && let Some(sent) = crate::server::resources::sent_as_its_id(&op.resource, body)
    {
        body.insert(op.resource.id_field.to_owned(), sent);
    }
}

/// `value` (a checked create body) with the caller's identity (a credential that is no
/// secret: Twilio's account SID, the Basic user name) in the new item's text field of the
/// credential's name, where the body does not set it: Twilio's `account_sid` was a made-up
/// `AC000…`, a stranger's account, where a client compares it with its own.
pub(crate) fn with_caller(
    served: &super::ops::Served,
    op: &super::ops::ServedOp,
    value: Value,
) -> Value {
    let Value::Object(mut body) = value else {
        return value;
    };
    let answered = op.read_as.as_ref().or(op.resource.response.as_ref());
    let fields = answered
        .and_then(|ty| served.schema.object_fields(ty))
        .unwrap_or_default();
    for (name, identity) in &served.caller {
        let wanted = crate::server::resources::plain(name);
        if let Some(f) = fields.iter().find(|f| {
            f.ty == crate::server::resources::Ty::String
                && crate::server::resources::plain(f.name) == wanted
        }) {
            body.entry(f.name)
                .or_insert_with(|| Value::String(identity.clone()));
        }
    }
    Value::Object(body)
}
