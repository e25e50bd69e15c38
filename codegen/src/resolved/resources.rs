//! What each operation does to a sandbox's resource store, read once from its method and path
//! (and the other operations on the same collection): the generated servers' defaults and the
//! sandbox's `--spec` server both read it from here.

use super::{FieldInfo, OperationInfo, Service, Ty, TypeKind};
use crate::model::Method;
use tidings_spec::id_like;

mod answers;
mod filters;
mod home;
mod owned;
mod search;
mod verbs;
mod view;

pub use answers::envelope_items;
use answers::{answered_fields, answered_item, items_beneath, singleton, wrapped_fields};
use search::{search_of, searches};

pub use filters::list_filters;

pub use tidings_spec::ResourceAction;

/// What an operation does to the resource store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceShape {
    /// What it does.
    pub kind: ResourceAction,
    /// Path template of its collection (`/v1/lists/{id}/contacts`).
    pub collection: String,
    /// The path parameter naming the item, for item operations and actions on an item.
    pub item_param: Option<String>,
    /// The request field naming the item, for an operation that names it there (Mandrill's
    /// `POST /templates/info` with `{"name": ...}`): a body field, or a query parameter.
    pub item_field: Option<String>,
    /// The response field that carries an item's id.
    pub id_field: String,
    /// A list answered inside an object (Brevo's `GetContacts`): the dot path of its items.
    /// For a create: the body field whose items are each created or updated (SendGrid's
    /// `PUT /marketing/contacts`: `contacts`; a list of plain values: a set). For a delete
    /// of the collection: the query parameter or body field listing the ids it removes.
    pub items: Option<String>,
}

impl ResourceShape {
    /// One line saying what the operation does (for generated docs).
    pub fn describe(&self) -> String {
        if let (ResourceAction::Delete, Some(ids)) = (self.kind, &self.items) {
            return format!("deletes the items `{ids}` names from `{}`", self.collection);
        }
        let what = match self.kind {
            ResourceAction::Create => "creates an item in",
            ResourceAction::List => "lists a page of",
            ResourceAction::Get => "gets an item of",
            ResourceAction::Merge => "merges the body into an item of",
            ResourceAction::Replace => "replaces (or creates) an item of",
            ResourceAction::Delete => "deletes an item of",
            ResourceAction::Action if self.item_param.is_some() => {
                "answers a valid response built from the body and the item it names (when \
                 stored) in"
            }
            ResourceAction::Action => {
                "answers a valid response built from the body, nothing stored, at"
            }
        };
        match &self.item_field {
            Some(field) => format!(
                "{what} `{}`, named by the request's `{field}`",
                self.collection
            ),
            None => format!("{what} `{}`", self.collection),
        }
    }
}

fn param_name(segment: &str) -> Option<&str> {
    // One segment: `{service_sid}/Bindings/{sid}` names no parameter (it named
    // `service_sid}/Bindings/{sid`, and Twilio Notify's services were keyed by another field).
    segment
        .strip_prefix('{')?
        .strip_suffix('}')
        .filter(|name| !name.contains(['{', '}', '/']))
}

/// `{sid}.json`: a parameter and the extension after it (`.json`), as some providers spell
/// item paths (`/Messages/{sid}.json` beside the collection `/Messages.json`).
fn param_with_extension(segment: &str) -> Option<(&str, &str)> {
    let rest = segment.strip_prefix('{')?;
    let (name, extension) = rest.split_once('}')?;
    (extension.starts_with('.') && !extension.contains(['{', '}'])).then_some((name, extension))
}

/// The named object type of a response (or of a page's items), if any.
fn item_fields<'s>(service: &'s Service, ty: Option<&Ty>) -> Option<&'s [FieldInfo]> {
    let name = match ty? {
        Ty::Named(n) => n,
        Ty::Page(inner) | Ty::List(inner) => match &**inner {
            Ty::Named(n) => n,
            _ => return None,
        },
        _ => return None,
    };
    object_fields(service, name)
}

/// The fields of the object type `name`; of an untagged union of objects, its first variant's
/// (Slack's `objs_conversation`, a channel's fields first, then a group's and a DM's): what
/// the store keeps of an item is read from it.
fn object_fields<'s>(service: &'s Service, name: &str) -> Option<&'s [FieldInfo]> {
    match &service.type_named(name)?.kind {
        TypeKind::Object(fields) => Some(fields),
        TypeKind::Untagged { variants } => {
            let first = variants.first()?.ty.as_deref()?;
            match &service.type_named(first)?.kind {
                TypeKind::Object(fields) => Some(fields),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The collection a `GET <collection>/pages` lists (Mailgun's `/v3/lists/pages` lists what
/// `POST /v3/lists` creates): the parent path, when some operation creates there.
fn pages_of(service: &Service, op: &OperationInfo) -> Option<String> {
    let parent = op.path.strip_suffix("/pages")?;
    (op.method == Method::Get
        && service
            .operations
            .iter()
            .any(|o| o.path == parent && o.method == Method::Post))
    .then(|| parent.to_owned())
}

/// The last word of a parameter's name, lower case: after its last `_` or `-`, and its last
/// capital (`event_type_name` → `name`, Novu's `topicKey` → `key`).
fn last_word(param: &str) -> Option<String> {
    let segment = param.rsplit(['_', '-']).next()?;
    let start = segment
        .char_indices()
        .skip(1)
        .filter(|(_, c)| c.is_ascii_uppercase())
        .map(|(i, _)| i)
        .last()
        .filter(|i| segment[..*i].chars().any(|c| c.is_ascii_lowercase()))
        .unwrap_or(0);
    Some(segment[start..].to_ascii_lowercase())
}

/// The text field of `fields` named as the last word of the parameter `param` (Svix's
/// `name` of `event_type_name`), else the one ending in it (`key` of `subaccount_key`:
/// `api_key`; the shortest, when the others end in it), when none of them is named like an id.
fn keyed_like(fields: Option<&[FieldInfo]>, param: &str) -> Option<String> {
    let fields = fields?;
    if fields.iter().any(|f| id_like(&f.wire)) {
        return None;
    }
    let word = last_word(param)?;
    if word.len() < 3 || word == param.to_ascii_lowercase() {
        return None;
    }
    if let Some(f) = fields
        .iter()
        .find(|f| f.ty == Ty::String && f.wire.eq_ignore_ascii_case(&word))
    {
        return Some(f.wire.clone());
    }
    let suffix = format!("_{word}");
    let keyed: Vec<&str> = fields
        .iter()
        .filter(|f| f.ty == Ty::String && f.wire.to_ascii_lowercase().ends_with(&suffix))
        .map(|f| f.wire.as_str())
        .collect();
    // The shortest, when the others end in it (`api_key`, not `primary_account_api_key`).
    let shortest = keyed.iter().min_by_key(|w| w.len())?;
    keyed
        .iter()
        .all(|w| w.ends_with(shortest))
        .then(|| (*shortest).to_owned())
}

/// Whether a create of the collection at `path` (or above an item `path`) sends a field
/// `wire` in its body.
/// A body of one shape or another (Vonage's report of each product) sends what any sends.
fn sent_by_a_create(service: &Service, path: &str, wire: &str) -> bool {
    let sends = |ty: &Ty| {
        let Ty::Named(name) = ty else { return false };
        let variants: Vec<&str> = match &service.type_named(name).map(|t| &t.kind) {
            Some(TypeKind::Union { variants, .. } | TypeKind::Untagged { variants }) => {
                variants.iter().filter_map(|v| v.ty.as_deref()).collect()
            }
            _ => vec![name.as_str()],
        };
        variants
            .iter()
            .any(|v| object_fields(service, v).is_some_and(|fs| fs.iter().any(|f| f.wire == wire)))
    };
    service.operations.iter().any(|o| {
        o.method == Method::Post
            && (o.path == path || path.starts_with(&format!("{}/", o.path)))
            && o.body.as_ref().is_some_and(sends)
    })
}

/// Whether `op` answers a list: `list<T>`, `page<T>` or items inside an object.
fn answers_list(service: &Service, op: &OperationInfo) -> bool {
    matches!(op.response, Some(Ty::Page(_) | Ty::List(_))) || envelope_items(service, op).is_some()
}

/// Whether the id field `field` is named after the collection `segment`: `TemplateID` or
/// `template_id` of `templates`, `queueId` of `Queues.json`.
fn names_the_collection(field: &str, segment: &str) -> bool {
    let field = field.to_ascii_lowercase().replace(['_', '-'], "");
    let Some(base) = field.strip_suffix("id").filter(|b| !b.is_empty()) else {
        return false;
    };
    let segment = segment.split('.').next().unwrap_or_default();
    let segment = segment.to_ascii_lowercase().replace(['_', '-'], "");
    segment == base || segment.strip_suffix('s') == Some(base)
}

/// What `op` does to the resource store of `service`.
pub fn resource_shape(service: &Service, op: &OperationInfo) -> ResourceShape {
    let shape = owned::held_elsewhere(service, op)
        .or_else(|| view::item_view(service, op))
        .unwrap_or_else(|| shape_of(service, op));
    let mut shape = home::made_elsewhere(service, op, &shape).unwrap_or(shape);
    // A collection at the root of its base URL (Vonage's calls: `POST /`, `GET /{uuid}`) is
    // the one its items' `/{uuid}` is beneath: `` for both.
    if shape.collection.ends_with('/')
        && service
            .operations
            .iter()
            .any(|o| o.path.starts_with(&format!("{}{{", shape.collection)))
    {
        shape.collection.pop();
    }
    shape
}

/// [`resource_shape`], each operation read on its own.
fn shape_of(service: &Service, op: &OperationInfo) -> ResourceShape {
    if let Some(shape) = verbs::verb_shape(service, op)
        .or_else(|| verbs::item_verb_shape(service, op))
        .or_else(|| verbs::custom_method_shape(service, op))
        .or_else(|| verbs::qualified_write_shape(service, op))
        .or_else(|| verbs::delete_verb_shape(service, op))
    {
        return shape;
    }
    let segments: Vec<&str> = op.path.split('/').collect();
    let (last, parent) = match segments.split_last() {
        Some((last, parent)) => (*last, parent),
        None => ("", &[][..]),
    };
    let envelope = envelope_items(service, op);
    let fields = answered_fields(service, op);
    let has_field = |name: &str| fields.is_some_and(|fs| fs.iter().any(|f| f.wire == name));
    // A create whose body (or each item of a list body) has the field the item path is keyed
    // by (Mailgun's bounces: `POST /bounces` with `address`, read as `/bounces/{address}`).
    let body_fields = item_fields(service, op.body.as_ref());
    let in_body = |name: &str| body_fields.is_some_and(|fs| fs.iter().any(|f| f.wire == name));
    // The field that carries an item's id: the item path parameter's name when the type (or
    // the body) has such a field, else `id`, else the scalar field named like an id: the one
    // named after the collection first (Postmark's `TemplateID` of `/templates`, not its
    // `AssociatedServerId`), else the first (Brevo's `messageId`); a number counts.
    let noun = segments
        .iter()
        .rev()
        .find(|s| !s.is_empty() && !s.contains('{'))
        .copied()
        .unwrap_or_default();
    // The text field the item parameter's last word names, that the create's body sends: a key
    // the client chooses (Novu's topics at `/v2/topics/{topicKey}`, created with `key`, answered
    // with an `_id` of the service's).
    // Not where the item has an id named after its collection (Postmark's `TemplateID` beside
    // `Alias`, at `/templates/{templateIdOrAlias}`), nor for a parameter that takes either.
    let chosen_key = |param: &str| {
        let either = param.contains("Or") || param.to_ascii_lowercase().contains("_or_");
        let own_id = fields?
            .iter()
            .any(|f| id_like(&f.wire) && names_the_collection(&f.wire, noun));
        if either || own_id {
            return None;
        }
        let word = last_word(param).filter(|w| w.len() >= 3 && *w != param.to_ascii_lowercase())?;
        let answered = fields?
            .iter()
            .find(|f| f.ty == Ty::String && f.wire.eq_ignore_ascii_case(&word) && in_body(&f.wire))
            .map(|f| f.wire.clone());
        // Or the body's, where the answer has no id at all (WhatsApp's users, created with
        // `username`, read at `/users/{UserUsername}`, answered in an envelope): two creates
        // of one name made two users, neither found by it.
        let sent = || {
            body_fields?
                .iter()
                .find(|f| f.ty == Ty::String && f.wire.eq_ignore_ascii_case(&word))
                .filter(|_| !fields.is_some_and(|fs| fs.iter().any(|f| id_like(&f.wire))))
                .map(|f| f.wire.clone())
        };
        answered.or_else(sent)
    };
    // A placeholder renamed for Rust (`{type}` imported as `{type_param}`) still names its
    // field.
    let param_field = |p: &str| {
        p.strip_suffix("_param")
            .filter(|base| has_field(base) && crate::names::renamed_for_rust(base))
            .map(str::to_owned)
    };
    let id_field = |param: Option<&str>| match param {
        Some(p) if has_field(p) || in_body(p) => p.to_owned(),
        Some(p) if param_field(p).is_some() => param_field(p).unwrap_or_default(),
        Some(p) if chosen_key(p).is_some() => chosen_key(p).unwrap_or_default(),
        _ if has_field("id") => "id".to_owned(),
        _ => {
            // No field named like an id: the text field ending in the item parameter's last
            // word (Vonage's `/subaccounts/{subaccount_key}` keys an item by its `api_key`).
            if let Some(keyed) = param.and_then(|p| keyed_like(fields, p)) {
                return keyed;
            }
            let ids: Vec<&FieldInfo> = fields
                .into_iter()
                .flatten()
                .filter(|f| {
                    id_like(&f.wire) && matches!(f.ty, Ty::String | Ty::Integer | Ty::Number)
                })
                .collect();
            // Then an id of no other thing (Twilio's `sid` beside `account_sid`, where a
            // notification is read nowhere), then the first.
            let own = |f: &&&FieldInfo| {
                matches!(f.wire.to_ascii_lowercase().as_str(), "sid" | "uuid" | "_id")
            };
            // Then one no create of the collection sends: what a client sends is another
            // thing's (Vonage's report names its `account_id`; its own is `request_id`).
            let made = |f: &&&FieldInfo| !sent_by_a_create(service, &op.path, &f.wire);
            ids.iter()
                .find(|f| names_the_collection(&f.wire, noun))
                .or_else(|| ids.iter().find(own))
                .or_else(|| ids.iter().find(made))
                .or(ids.first())
                .map_or_else(|| "id".to_owned(), |f| f.wire.clone())
        }
    };
    // The item parameter of `<collection>/{x}` (or of `<collection minus .ext>/{x}.ext`), when
    // some operation has such a path.
    let item_param_of = |collection: &str| {
        // `/` (a collection at the root of the base URL) has its items at `/{uuid}`.
        let collection = collection.strip_suffix('/').unwrap_or(collection);
        service.operations.iter().find_map(|o| {
            if let Some(rest) = o
                .path
                .strip_prefix(collection)
                .and_then(|r| r.strip_prefix('/'))
            {
                return param_name(rest).map(str::to_owned);
            }
            let (parent, last) = o.path.rsplit_once('/')?;
            let (name, extension) = param_with_extension(last)?;
            (collection.strip_suffix(extension) == Some(parent)).then(|| name.to_owned())
        })
    };
    if let Some((param, extension)) = param_with_extension(last) {
        let kind = item_action(op.method);
        return ResourceShape {
            kind,
            collection: format!("{}{extension}", parent.join("/")),
            item_param: Some(param.to_owned()),
            item_field: None,
            id_field: id_field(Some(param)),
            items: None,
        };
    }
    // A last parameter of a closed set of values (Vonage's `/{format}`: `json` or `xml`)
    // chooses how to answer, it names no item: the operation answers from its body.
    let selector = param_name(last).is_some_and(|param| {
        op.path_params.iter().any(|p| {
            p.wire == param
                && matches!(&p.ty, Ty::Named(n)
                    if matches!(service.type_named(n).map(|t| &t.kind), Some(TypeKind::Enum(_))))
        })
    });
    if selector {
        return ResourceShape {
            kind: ResourceAction::Action,
            collection: op.path.clone(),
            item_param: None,
            item_field: None,
            id_field: id_field(None),
            items: None,
        };
    }
    // A `GET` of `/v1/objects/{collection}` answering a list of the items beneath it lists
    // them; it reads no item of `/v1/objects`. So does one that pages where nothing is at the
    // parent path (Knock's feed of a user, `/v1/users/{user_id}/feeds/{id}`: empty until
    // something is put there; `GET /reports/{id}` beside `POST /reports` reads a report).
    let parent_path = parent.join("/");
    let parent_is_collection = service.operations.iter().any(|o| o.path == parent_path);
    let lists_beneath = matches!(op.method, Method::Get)
        && (items_beneath(service, &op.path) || (op.pagination.is_some() && !parent_is_collection))
        && answers_list(service, op);
    // A lookup by another field (Intercom's `GET /contacts/find_by_external_id/{external_id}`):
    // a get from the collection above, by that field.
    if let (Some(param), Method::Get, Some((lookup, above))) =
        (param_name(last), op.method, parent.split_last())
    {
        let lookup = lookup.to_ascii_lowercase();
        if lookup.starts_with("find_by") || lookup.starts_with("by_") || lookup == "by" {
            return ResourceShape {
                kind: ResourceAction::Get,
                collection: above.join("/"),
                item_param: Some(param.to_owned()),
                item_field: None,
                id_field: id_field(Some(param)),
                items: None,
            };
        }
    }
    // An item named by a label and a value (OneSignal's users at
    // `/apps/{app_id}/users/by/{alias_label}/{alias_id}`, `external_id` and its value in the
    // user's `identity`): the item of the collection above `by` that holds the value.
    if let (Some(param), [above @ .., by, label]) = (param_name(last), parent)
        && by.eq_ignore_ascii_case("by")
        && param_name(label).is_some()
    {
        let kind = item_action(op.method);
        return ResourceShape {
            kind,
            collection: above.join("/"),
            item_param: Some(param.to_owned()),
            item_field: None,
            id_field: id_field(None),
            items: None,
        };
    }
    // A JSON:API relationship (Klaviyo's `POST /api/lists/{id}/relationships/profiles` with
    // `{data: [{type, id}]}`): its members are the items of `<item>/<rel>` (what `GET
    // /api/lists/{id}/profiles` lists), added, listed and removed by the identifiers in `data`.
    if let [item @ .., item_param, relationships, rel] = segments.as_slice()
        && *relationships == "relationships"
        && param_name(item_param).is_some()
        && param_name(rel).is_none()
    {
        let kind = match op.method {
            Method::Get | Method::Head => ResourceAction::List,
            Method::Delete => ResourceAction::Delete,
            _ => ResourceAction::Create,
        };
        let items = match kind {
            ResourceAction::List => envelope.map(|(path, _)| path),
            _ => body_fields
                .and_then(|fs| fs.iter().find(|f| matches!(f.ty, Ty::List(_))))
                .map(|f| f.wire.clone()),
        };
        return ResourceShape {
            kind,
            collection: format!("{}/{item_param}/{rel}", item.join("/")),
            item_param: None,
            item_field: None,
            id_field: "id".to_owned(),
            items,
        };
    }
    // A secret after an item's path (Discord's `POST /webhooks/{webhook_id}/{webhook_token}`,
    // beside `GET /webhooks/{webhook_id}`) proves the caller may use the item; it names no
    // item of its own: the operation is on the item the path before it names.
    if let (Some(secret), Some((item, above))) = (param_name(last), parent.split_last())
        && let Some(param) = param_name(item)
        && matches!(last_word(secret).as_deref(), Some("token" | "secret"))
        && service
            .operations
            .iter()
            .any(|o| o.method == Method::Get && o.path == parent_path)
    {
        let kind = match op.method {
            Method::Post => ResourceAction::Action,
            method => item_action(method),
        };
        return ResourceShape {
            kind,
            collection: above.join("/"),
            item_param: Some(param.to_owned()),
            item_field: None,
            id_field: id_field(Some(param)),
            items: None,
        };
    }
    if let Some(param) = param_name(last).filter(|_| !lists_beneath) {
        let kind = match op.method {
            Method::Get | Method::Head => ResourceAction::Get,
            Method::Delete => ResourceAction::Delete,
            // A `POST` with nothing to merge puts the item the path names, as `PUT` does:
            // Resend's `POST /contacts/{contact_id}/segments/{segment_id}` adds the contact to
            // the segment (its `DELETE` takes it out, its list shows it).
            Method::Put => ResourceAction::Replace,
            Method::Post if op.body.is_none() => ResourceAction::Replace,
            Method::Patch | Method::Post => ResourceAction::Merge,
        };
        return ResourceShape {
            kind,
            collection: parent.join("/"),
            item_param: Some(param.to_owned()),
            item_field: None,
            id_field: id_field(Some(param)),
            items: None,
        };
    }
    let listed = service
        .operations
        .iter()
        .any(|o| o.path == op.path && o.method == Method::Get && answers_list(service, o));
    let sibling = item_param_of(&op.path);
    let parent_is_literal = parent.last().is_some_and(|s| param_name(s).is_none());
    let collection_shape = |kind| ResourceShape {
        kind,
        collection: op.path.clone(),
        item_param: None,
        item_field: None,
        id_field: id_field(sibling.as_deref()),
        items: None,
    };
    // A `PUT` on a listed collection whose body holds a list of objects: each is created, or
    // updated when one with its id or email is there (SendGrid's `PUT /marketing/contacts`
    // with `contacts: [...]`, listed by `GET /marketing/contacts`).
    // So does a `POST` or `PUT` whose body's one field maps ids to items (Stream's `POST
    // /users` with `users: {"<id>": {...}}`, listed by `GET /users`): each value an item,
    // keyed by its key where it names no id.
    let bulk = match op.method {
        Method::Put if listed => body_fields.and_then(|fs| {
            fs.iter().find(|f| match &f.ty {
                Ty::List(item) => item_fields(service, Some(item)).is_some(),
                _ => false,
            })
        }),
        // Or its one field lists them (Zulip's `POST /drafts` with `drafts: [...]`).
        Method::Post | Method::Put if listed => body_fields.and_then(|fs| match fs {
            [f] if matches!(&f.ty, Ty::Map(item) | Ty::List(item) if item_fields(service, Some(item)).is_some()) => {
                Some(f)
            }
            _ => None,
        }),
        _ => None,
    };
    // A set of plain values: a `POST` (or `PUT`) on a collection whose body is one list of
    // strings or integers, listed by a `GET` answering such a list or with an item path
    // (SendGrid's `POST /asm/groups/{group_id}/suppressions` with `recipient_emails`, listed
    // by its `GET`, each removed by `DELETE .../suppressions/{email}`). Each value is an item
    // of its own, keyed by itself and kept under the field's singular (`recipient_email`).
    let set_field = match op.method {
        Method::Post | Method::Put => body_fields.and_then(|fs| match fs {
            [field] if plain_list(&field.ty) => Some(field),
            _ => None,
        }),
        _ => None,
    };
    let listed_plain = service.operations.iter().any(|o| {
        o.path == op.path && o.method == Method::Get && o.response.as_ref().is_some_and(plain_list)
    });
    if let Some(field) = set_field.filter(|_| listed_plain || sibling.is_some()) {
        return ResourceShape {
            id_field: singular(&field.wire),
            items: Some(field.wire.clone()),
            ..collection_shape(ResourceAction::Create)
        };
    }
    // A `DELETE` of a collection naming the items it removes in a query parameter or a body
    // field of ids (SendGrid's `DELETE /marketing/contacts?ids=a,b`, `DELETE
    // /marketing/singlesends?ids=...`).
    let listed_ids = op
        .query
        .iter()
        .map(|p| (&p.wire, &p.ty))
        .chain(body_fields.into_iter().flatten().map(|f| (&f.wire, &f.ty)))
        .find(|(name, ty)| names_ids(name) && matches!(ty, Ty::String | Ty::List(_)));
    if let (Method::Delete, Some((name, _))) = (op.method, listed_ids) {
        return ResourceShape {
            items: Some(name.clone()),
            ..collection_shape(ResourceAction::Delete)
        };
    }
    if let Some(field) = bulk {
        // The items are kept under `id` (what the list answers), not under the answer's own
        // id (`job_id`).
        return ResourceShape {
            id_field: "id".to_owned(),
            items: Some(field.wire.clone()),
            ..collection_shape(ResourceAction::Create)
        };
    }
    // A send variant beside its collection (Telnyx's `POST /messages/long_code` and
    // `/messages/schedule`, each answering the message that `GET /messages/{id}` reads, with no
    // item beneath the variant's own path): a create in that collection, so what it
    // acknowledges is read, listed and cancelled there.
    let parent_path = parent.join("/");
    let variant_of = (op.method == Method::Post
        && !listed
        && sibling.is_none()
        && parent_is_literal
        && has_field("id")
        && !parent_path.is_empty())
    .then(|| item_param_of(&parent_path))
    .flatten()
    .filter(|param| {
        let item_path = format!("{parent_path}/{{{param}}}");
        service.operations.iter().any(|o| {
            o.path == item_path
                && o.method == Method::Get
                && wrapped_fields(service, o.response.as_ref())
                    .or_else(|| item_fields(service, o.response.as_ref()))
                    .zip(fields)
                    .is_some_and(|(read, made)| wire_names(read) == wire_names(made))
        })
    });
    // A create at a singular noun under its parent (Stream's `POST
    // /channels/{type}/{id}/message`, the message `GET /messages/{id}` reads): a create in the
    // plural collection beside it, where the spec names that plural elsewhere, so the item is
    // read, listed and removed where it lives.
    let plural = plural_of(last);
    let plural_home = op.method == Method::Post
        && !listed
        && sibling.is_none()
        && has_field("id")
        && param_name(last).is_none()
        && plural != last
        && service
            .operations
            .iter()
            .any(|o| o.path.split('/').any(|s| s == plural));
    // A list at a plural noun beside a create at its singular whose items are beneath it
    // (Stream's `GET /messages/{id}/reactions` beside `POST /messages/{id}/reaction` and
    // `DELETE /messages/{id}/reaction/{type}`): it lists what that create makes.
    let singular_path = format!("{parent_path}/{}", singular(last));
    let singular_home = op.method == Method::Get
        && !last.is_empty()
        && param_name(last).is_none()
        && singular_path != op.path
        && answers_list(service, op)
        && !service
            .operations
            .iter()
            .any(|o| o.path == op.path && o.method == Method::Post)
        && service
            .operations
            .iter()
            .any(|o| o.path == singular_path && o.method == Method::Post)
        && item_param_of(&singular_path).is_some();
    if singular_home {
        return ResourceShape {
            kind: ResourceAction::List,
            id_field: id_field(item_param_of(&singular_path).as_deref()),
            collection: singular_path,
            item_param: None,
            item_field: None,
            items: envelope.map(|(path, _)| path),
        };
    }
    if plural_home {
        return ResourceShape {
            kind: ResourceAction::Create,
            collection: format!("{parent_path}/{plural}"),
            item_param: None,
            item_field: None,
            id_field: id_field(None),
            items: None,
        };
    }
    if let Some(param) = variant_of {
        return ResourceShape {
            kind: ResourceAction::Create,
            collection: parent_path,
            item_param: None,
            item_field: None,
            id_field: id_field(Some(&param)),
            items: None,
        };
    }
    // A search of a collection (Intercom's `POST /contacts/search`, answering the list `GET
    // /contacts` answers): a list of that collection, its query in the body not read.
    if let Some((searched, items)) = search_of(service, op) {
        return ResourceShape {
            kind: ResourceAction::List,
            id_field: id_field(item_param_of(&searched).as_deref()),
            collection: searched,
            item_param: None,
            item_field: None,
            items,
        };
    }
    match op.method {
        Method::Get if envelope.is_some() => ResourceShape {
            items: envelope.as_ref().map(|(path, _)| path.clone()),
            collection: pages_of(service, op).unwrap_or_else(|| op.path.clone()),
            ..collection_shape(ResourceAction::List)
        },
        Method::Get if answers_list(service, op) => collection_shape(ResourceAction::List),
        // A `DELETE` of the collection with filters of its items in the query removes the
        // items they select (Ably's `DELETE /push/deviceRegistrations?clientId=alice`).
        // So does one of a listed collection that takes nothing to select by: all of them
        // (Sunshine's `DELETE .../messages`, "delete all messages").
        Method::Delete
            if (listed && op.body.is_none() && op.query.is_empty())
                || !list_filters(service, op).is_empty() =>
        {
            collection_shape(ResourceAction::Delete)
        }
        Method::Post if searches(service, op) => collection_shape(ResourceAction::List),
        Method::Post
            if listed
                || sibling.is_some()
                || (parent_is_literal && has_field("id"))
                || read_by_label(service, &op.path) =>
        {
            collection_shape(ResourceAction::Create)
        }
        // `/boards/{board}/notes` answering a note: a create in the nested collection, not
        // an action on the board (which would keep nothing). An answer with an id that is not
        // the parent item's own type, or (the parent not readable) a plural noun, says so.
        Method::Post
            if ["id", "sid", "uuid"].iter().any(|f| has_field(f))
                && parent.last().is_some_and(|p| param_name(p).is_some())
                && param_name(last).is_none()
                && nested_collection(service, op, &parent.join("/"), last) =>
        {
            collection_shape(ResourceAction::Create)
        }
        // The one object at a path a `PUT` or `PATCH` writes and a `GET` reads (Svix's
        // `/endpoint/{id}/headers`, SendGrid's settings): kept, read back, and deleted.
        Method::Get | Method::Put | Method::Patch | Method::Delete | Method::Post
            if singleton(service, op) =>
        {
            collection_shape(match op.method {
                Method::Get | Method::Head => ResourceAction::Get,
                Method::Put => ResourceAction::Replace,
                Method::Patch | Method::Post => ResourceAction::Merge,
                Method::Delete => ResourceAction::Delete,
            })
        }
        _ => match parent.split_last() {
            // `/{id}/cancel`: an action on the item the parent path names.
            Some((p, grand)) if param_name(p).is_some() => {
                let param = param_name(p).map(str::to_owned);
                ResourceShape {
                    kind: ResourceAction::Action,
                    collection: grand.join("/"),
                    id_field: id_field(param.as_deref()),
                    item_param: param,
                    item_field: None,
                    items: None,
                }
            }
            _ => collection_shape(ResourceAction::Action),
        },
    }
}

/// The plural of an English noun as paths name collections (`message` → `messages`, `reply`
/// → `replies`, `box` → `boxes`).
fn plural_of(noun: &str) -> String {
    let vowel_before_y = noun
        .strip_suffix('y')
        .and_then(|stem| stem.chars().last())
        .is_some_and(|c| "aeiou".contains(c));
    if let Some(stem) = noun.strip_suffix('y').filter(|_| !vowel_before_y) {
        format!("{stem}ies")
    } else if ["s", "x", "ch", "sh", "z"]
        .iter()
        .any(|e| noun.ends_with(e))
    {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// The wire names of `fields`, sorted.
fn wire_names(fields: &[FieldInfo]) -> Vec<&str> {
    let mut names: Vec<&str> = fields.iter().map(|f| f.wire.as_str()).collect();
    names.sort_unstable();
    names
}

/// Whether a parameter's name says it holds ids: `ids`, `contact_ids`, `messageIds`.
fn names_ids(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower == "ids" || lower.ends_with("_ids") || name.ends_with("Ids") || name.ends_with("IDs")
}

/// `list<string>` or `list<integer>`: a list of plain values.
fn plain_list(ty: &Ty) -> bool {
    matches!(ty, Ty::List(item) if matches!(**item, Ty::String | Ty::Integer))
}

/// The singular of a plural field name (`recipient_emails` → `recipient_email`, `addresses`
/// → `address`, `entries` → `entry`); a name that is not plural as it is.
fn singular(name: &str) -> String {
    for (plural, one) in [
        ("ies", "y"),
        ("sses", "ss"),
        ("xes", "x"),
        ("ches", "ch"),
        ("shes", "sh"),
    ] {
        if let Some(stem) = name.strip_suffix(plural).filter(|s| !s.is_empty()) {
            return format!("{stem}{one}");
        }
    }
    match name.strip_suffix('s') {
        Some(stem) if !stem.is_empty() && !stem.ends_with(['s', 'u']) => stem.to_owned(),
        _ => name.to_owned(),
    }
}

/// What a method does to the item a path names: reads, deletes, replaces, or merges into it.
fn item_action(method: Method) -> ResourceAction {
    match method {
        Method::Get | Method::Head => ResourceAction::Get,
        Method::Delete => ResourceAction::Delete,
        Method::Put => ResourceAction::Replace,
        Method::Patch | Method::Post => ResourceAction::Merge,
    }
}

/// Whether some operation reads an item of `collection` by a label and a value
/// (`<collection>/by/{alias_label}/{alias_id}`).
fn read_by_label(service: &Service, collection: &str) -> bool {
    service.operations.iter().any(|o| {
        let Some(rest) = o.path.strip_prefix(collection) else {
            return false;
        };
        let segments: Vec<&str> = rest.split('/').collect();
        matches!(segments.as_slice(), ["", by, label, value]
            if by.eq_ignore_ascii_case("by") && param_name(label).is_some() && param_name(value).is_some())
    })
}

/// Whether `POST <parent>/<last>` (the parent an item path) creates in a collection nested
/// under that item: `last` reads as a plural noun (`notes`, not `cancel` or Resend's
/// `verify`, whose answers are other types than the item's too), and its answer is not the
/// type a `GET` of the parent answers.
fn nested_collection(service: &Service, op: &OperationInfo, parent: &str, last: &str) -> bool {
    let plural =
        last.len() > 1 && last.ends_with('s') && !last.ends_with("ss") && !last.ends_with("us");
    let parent_type = service
        .operations
        .iter()
        .find(|o| o.path == parent && o.method == Method::Get)
        .map(|o| o.response.as_ref());
    plural && parent_type.is_none_or(|parent_type| parent_type != op.response.as_ref())
}

#[cfg(test)]
mod tests;
