//! What an answer holds: the items of a list inside an object, and the item an answer wraps
//! beside fields about the answer (`{"ok": true, "channel": {...}}`).

use super::{
    FieldInfo, OperationInfo, Service, Ty, TypeKind, answers_list, id_like, item_fields,
    keyed_like, pages_of, param_name,
};
use crate::model::Method;

/// The items' type of a list answered inside an object: `op`'s answer is a named object and
/// its own pagination names the list field its items are in (`contacts` of Brevo's
/// `GetContacts`, `result` of SendGrid's list answers). The dot path and the item type.
pub fn envelope_items(service: &Service, op: &OperationInfo) -> Option<(String, Ty)> {
    let Some(pages) = op.pagination.as_ref() else {
        return unpaged_envelope_items(service, op);
    };
    if pages.generated_page || pages.items_field.is_empty() {
        return None;
    }
    let mut ty = match &op.response {
        Some(ty @ Ty::Named(_)) => ty.clone(),
        _ => return None,
    };
    for part in pages.items_field.split('.') {
        let Ty::Named(name) = &ty else { return None };
        let TypeKind::Object(fields) = &service.type_named(name)?.kind else {
            return None;
        };
        ty = fields.iter().find(|f| f.wire == part)?.ty.clone();
    }
    match ty {
        Ty::List(item) => Some((pages.items_field.clone(), *item)),
        _ => None,
    }
}

/// Whether some operation addresses an item beneath `path` (`{path}/{id}`): a path ending in
/// a parameter is then a collection of its own (Knock's `/v1/objects/{collection}`, whose
/// objects are `/v1/objects/{collection}/{id}`).
pub(super) fn items_beneath(service: &Service, path: &str) -> bool {
    service.operations.iter().any(|o| {
        o.path
            .strip_prefix(path)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| param_name(rest).is_some())
    })
}

/// The items of a list answered whole inside an object, with no pagination (Resend's
/// `GET /contacts`: `{"object": "list", "data": [...]}`): a `GET` of a collection path (its
/// last segment not a parameter, unless items live beneath it) whose named object answer has exactly one list field, of
/// objects with an id-like field; or, with no list field of its own, exactly one inside one of
/// its object fields (a HAL answer: Vonage's `_embedded.subaccounts`).
fn unpaged_envelope_items(service: &Service, op: &OperationInfo) -> Option<(String, Ty)> {
    let ends_in_param = op.path.rsplit('/').next().is_some_and(|l| l.contains('{'));
    if op.method != Method::Get || (ends_in_param && !items_beneath(service, &op.path)) {
        return None;
    }
    let Some(Ty::Named(name)) = &op.response else {
        return None;
    };
    let (path, item) = only_list(service, name).or_else(|| {
        let TypeKind::Object(fields) = &service.type_named(name)?.kind else {
            return None;
        };
        let mut nested = fields.iter().filter_map(|f| match &f.ty {
            Ty::Named(inner) => {
                only_list(service, inner).map(|(p, i)| (format!("{}.{p}", f.wire), i))
            }
            _ => None,
        });
        match (nested.next(), nested.next()) {
            (Some(found), None) => Some(found),
            _ => None,
        }
    })?;
    let fields = item_fields(service, Some(&item))?;
    let identified = fields
        .iter()
        .any(|f| id_like(&f.wire) && matches!(f.ty, Ty::String | Ty::Integer))
        || keyed_by_item_path(service, &op.path, fields)
        || sent_as_list(service, &op.path, &item);
    (identified || pages_of(service, op).is_some() || path.contains('.')).then_some((path, item))
}

/// Whether a write of `path` (or a custom method on it, `path/:add`) sends a list of `item`s
/// in its body's one field (ACS Chat's participants, with no id of their own, added by
/// `participants/:add {participants: [...]}`): the answer's list is of the items kept there.
fn sent_as_list(service: &Service, path: &str, item: &Ty) -> bool {
    service.operations.iter().any(|o| {
        let on_path = o.path == path
            || o.path
                .strip_prefix(path)
                .is_some_and(|rest| rest.trim_start_matches('/').starts_with(':'));
        let one_list = match item_fields(service, o.body.as_ref()) {
            Some([field]) => matches!(&field.ty, Ty::List(sent) if **sent == *item),
            _ => false,
        };
        on_path && matches!(o.method, Method::Post | Method::Put) && one_list
    })
}

/// Whether items with `fields` are named by the parameter of `{collection}/{param}`, some
/// operation's path: a field of the parameter's name, or one [`keyed_like`] it (Svix's event
/// types, by `name` at `/event-type/{event_type_name}`).
fn keyed_by_item_path(service: &Service, collection: &str, fields: &[FieldInfo]) -> bool {
    service.operations.iter().any(|o| {
        o.path
            .strip_prefix(collection)
            .and_then(|rest| rest.strip_prefix('/'))
            .and_then(param_name)
            .is_some_and(|param| {
                // In any case: Twilio's `{Index}` names a list item's `index`.
                fields.iter().any(|f| f.wire.eq_ignore_ascii_case(param))
                    || keyed_like(Some(fields), param).is_some()
            })
    })
}

/// The fields of the item an answer holds in a field of its own (as the sandbox's store reads
/// it): the answer has no id-like field, exactly one field of an object type, and text,
/// numbers and booleans besides (ClickSend's `{"response_msg": ..., "data": {"list_id": ..}}`),
/// or lists, maps and other objects too when the item has an id-like field (Bandwidth's
/// `links`, `data`, `errors`; of several objects, the required one with an id).
pub(super) fn wrapped_fields<'s>(service: &'s Service, ty: Option<&Ty>) -> Option<&'s [FieldInfo]> {
    wrapping(service, ty).map(|(_, fields)| fields)
}

/// The fields of the item `op` answers: each of a list (inside an object too), the object
/// an answer wraps (Slack's `{"ok": true, "reminder": {...}}`: with the wrapping field's
/// name), else the answer itself.
pub(super) fn answered_item<'s>(
    service: &'s Service,
    op: &OperationInfo,
) -> Option<(Option<&'s str>, &'s [FieldInfo])> {
    if let Some((_, item)) = envelope_items(service, op) {
        return item_fields(service, Some(&item)).map(|fs| (None, fs));
    }
    wrapping(service, op.response.as_ref())
        .map(|(key, fs)| (Some(key), fs))
        .or_else(|| item_fields(service, op.response.as_ref()).map(|fs| (None, fs)))
}

/// The fields of the item `op` answers (see [`answered_item`]).
pub(super) fn answered_fields<'s>(
    service: &'s Service,
    op: &OperationInfo,
) -> Option<&'s [FieldInfo]> {
    answered_item(service, op).map(|(_, fields)| fields)
}

/// [`wrapped_fields`] and the name of the field that holds them.
fn wrapping<'s>(service: &'s Service, ty: Option<&Ty>) -> Option<(&'s str, &'s [FieldInfo])> {
    let fields = item_fields(service, ty).filter(|_| matches!(ty, Some(Ty::Named(_))))?;
    let identified = |f: &FieldInfo| {
        item_fields(service, Some(&f.ty)).is_some_and(|fs| fs.iter().any(|f| id_like(&f.wire)))
    };
    let mut objects = Vec::new();
    let mut lists = false;
    // An envelope's `meta` holds no item (WhatsApp's `{"meta", "errors", "users": [...]}`).
    for f in fields
        .iter()
        .filter(|f| !tidings_spec::envelope_part(&f.wire, f.required))
    {
        if id_like(&f.wire) {
            return None;
        }
        match &f.ty {
            Ty::Named(_) if item_fields(service, Some(&f.ty)).is_some() => objects.push(f),
            Ty::Named(n) if matches!(service.type_named(n)?.kind, TypeKind::Enum(_)) => {}
            Ty::String | Ty::DateTime | Ty::Date | Ty::Integer | Ty::Number | Ty::Boolean => {}
            Ty::List(_) | Ty::Map(_) | Ty::Json => lists = true,
            _ => return None,
        }
    }
    // Of several objects, the one required with an id, the others beside it (Stream's
    // `{"message": {...}, "channel_context": {...}, "mentioned_members": {...}}`).
    let holder = match objects.as_slice() {
        [one] => *one,
        several => {
            lists = true;
            let mut items = several.iter().filter(|f| f.required && identified(f));
            match (items.next(), items.next()) {
                (Some(one), None) => *one,
                _ => return None,
            }
        }
    };
    let inner = item_fields(service, Some(&holder.ty))?;
    (!lists || identified(holder)).then_some((holder.wire.as_str(), inner))
}

/// The one list field of the object type `name` and its item type; of several, the one whose
/// items have an id-like field when only one does (ClickSend's page: `data` of lists, beside
/// `links` of page links), leaving out `errors`, `warnings` and `links`.
fn only_list(service: &Service, name: &str) -> Option<(String, Ty)> {
    let TypeKind::Object(fields) = &service.type_named(name)?.kind else {
        return None;
    };
    let lists: Vec<(&FieldInfo, &Ty)> = fields
        .iter()
        .filter_map(|f| match &f.ty {
            Ty::List(item) => Some((f, &**item)),
            _ => None,
        })
        .collect();
    let identified = |item: &Ty| {
        item_fields(service, Some(item)).is_some_and(|fs| fs.iter().any(|f| id_like(&f.wire)))
    };
    let (list, item) = match lists.as_slice() {
        [one] => *one,
        several => {
            // What an envelope says about the answer is not its items (Bandwidth's `errors`,
            // whose items have an `id` too, beside `data`).
            let about = |f: &FieldInfo| matches!(f.wire.as_str(), "errors" | "warnings" | "links");
            let mut ided = several
                .iter()
                .filter(|(f, item)| !about(f) && identified(item));
            match (ided.next(), ided.next()) {
                (Some(one), None) => *one,
                _ => return None,
            }
        }
    };
    Some((list.wire.clone(), item.clone()))
}

/// Whether `op`'s path holds a singleton: its last segment is not a parameter, a `GET` answers
/// one object there and a `PUT`, a `PATCH` or a `POST` answering what the `GET` answers
/// (Twilio's `POST /v1/Configuration`, its settings) writes it, or nothing writes it at a path
/// with no parameter (BulkSMS's `/profile`), with no other `POST` beside them and no item
/// beneath (a path a create or an item path names is a collection).
pub(super) fn singleton(service: &Service, op: &OperationInfo) -> bool {
    let beside = |method: Method| {
        service
            .operations
            .iter()
            .filter(move |o| o.path == op.path && o.method == method)
    };
    let last_literal = op
        .path
        .rsplit('/')
        .next()
        .is_some_and(|l| !l.is_empty() && param_name(l).is_none());
    let read = beside(Method::Get).next().map(|o| &o.response);
    let mut reads = beside(Method::Get).peekable();
    let mut posts = beside(Method::Post).peekable();
    let posted = posts.peek().is_some();
    let post_writes = posted
        && posts.all(|o| {
            o.response.is_some() && read.is_some_and(|r| same_answer(service, &o.response, r))
        });
    // Read only, at a path with no parameter (BulkSMS's `/profile`, an account's settings):
    // the one object there, made up once and read back the same.
    let read_only = !op.path.contains('{')
        && service
            .operations
            .iter()
            .all(|o| o.path != op.path || o.method == Method::Get);
    last_literal
        && reads.peek().is_some()
        && reads.all(|o| o.response.is_some() && !answers_list(service, o))
        && (beside(Method::Put).next().is_some()
            || beside(Method::Patch).next().is_some()
            || post_writes
            || read_only)
        && (!posted || post_writes)
        && !items_beneath(service, &op.path)
}

/// Whether two answers are the same: one type, or named objects of the same fields (Mailtrap's
/// company info: one shared response that the import names once per operation, `Get...`,
/// `Create...`, `Update...`).
fn same_answer(service: &Service, a: &Option<Ty>, b: &Option<Ty>) -> bool {
    if a == b {
        return true;
    }
    let fields = |ty: &Option<Ty>| match ty {
        Some(Ty::Named(name)) => match &service.type_named(name)?.kind {
            TypeKind::Object(fields) => Some(fields),
            _ => None,
        },
        _ => None,
    };
    let shape = |fields: &[FieldInfo]| {
        fields
            .iter()
            .map(|f| (f.wire.clone(), f.ty.clone(), f.required))
            .collect::<Vec<_>>()
    };
    match (fields(a), fields(b)) {
        (Some(x), Some(y)) => shape(x) == shape(y),
        _ => false,
    }
}
