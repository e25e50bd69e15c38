//! Builds a served spec's operations: each with its runtime descriptions, what its create's
//! body can send, and the change a cancelling delete makes.

use axum::http::Method;
use tidings_codegen::check::OperationInfo;

use super::ops::{PathTemplate, ServedOp};
use crate::server::resources::{ResourceAction, ResourceOp, ServiceSchema, Ty, item_type};

/// Builds the operations of `service`, each with its runtime descriptions.
pub(crate) fn operations(service: &tidings_codegen::check::Service) -> Vec<ServedOp> {
    use tidings_codegen::describe as vocab;
    use tidings_codegen::model::QueryStyle;
    service
        .operations
        .iter()
        .map(|info| {
            let mut resource = vocab::resource_op(service, info);
            let cancels = super::held::cancel_change(service, info, &resource);
            if cancels.is_some() {
                resource.kind = ResourceAction::Merge;
            }
            // Paged after the store: a whole list (a page, a bare list), or a list inside an
            // object, paged in the object.
            let paged = vocab::pages_after_store(info) || resource.items.is_some();
            ServedOp {
                method: Method::from_bytes(info.method.as_str().as_bytes()).unwrap_or(Method::GET),
                template: PathTemplate::parse(&info.path),
                spec: Box::leak(Box::new(vocab::operation_spec(info))),
                resource,
                pages: paged
                    .then_some(info.pagination.as_ref())
                    .flatten()
                    .map(|p| &*Box::leak(Box::new(vocab::pagination_spec(p)))),
                body: info.body.as_ref().map(vocab::ty_schema),
                json_query: info
                    .query
                    .iter()
                    .filter(|p| p.style == Some(QueryStyle::Json))
                    .map(|p| (p.wire.clone(), vocab::ty_schema(&p.ty)))
                    .collect(),
                sendable: sendable(service, info, &resource),
                read_as: None,
                item_path: None,
                keeps_made: false,
                names_made: None,
                children: Vec::new(),
                info: info.clone(),
                cancels,
            }
        })
        .collect()
}

/// Gives each create of `ops` the item type its collection's `GET` of one item answers, when
/// the create answers another (Textmagic's `{id, href}`): the store makes what that read
/// requires with the item, once, rather than anew at each read; and that `GET`'s path, the
/// item's link to itself.
pub(crate) fn read_types(schema: &ServiceSchema, ops: &mut [ServedOp]) {
    let reads: Vec<_> = ops
        .iter()
        .filter(|op| op.resource.kind == ResourceAction::Get)
        .filter_map(|op| {
            let path: &'static str = Box::leak(op.info.path.clone().into_boxed_str());
            let item = (path, op.resource.item_param?);
            Some((
                op.resource.collection,
                item_type(schema, &op.resource).1,
                item,
            ))
        })
        .collect();
    // A collection read only as a list (Mailscript's addresses, triggers, workflows): its
    // items as the list answers them, whose `createdAt` was made anew at each read.
    let lists: Vec<_> = ops
        .iter()
        .filter(|op| op.resource.kind == ResourceAction::List)
        .map(|op| (op.resource.collection, listed_type(schema, &op.resource)))
        .collect();
    for op in ops
        .iter_mut()
        .filter(|op| op.resource.kind == ResourceAction::Create)
    {
        let made = item_type(schema, &op.resource).1;
        let read = match reads.iter().find(|(c, ..)| *c == op.resource.collection) {
            Some((_, read, item)) => {
                op.item_path = Some(*item);
                *read
            }
            None => match lists.iter().find(|(c, _)| *c == op.resource.collection) {
                Some((_, listed)) => *listed,
                None => continue,
            },
        };
        op.read_as = read.filter(|ty| Some(*ty) != made && schema.object_fields(ty).is_some());
    }
}

/// The type of the items a list answers: its element, or that of the list at its dot path
/// `items` in the answer (Mailscript's `{"list": [...]}`).
fn listed_type(schema: &ServiceSchema, op: &ResourceOp) -> Option<Ty> {
    let mut ty = op.response?;
    for part in op.items.into_iter().flat_map(|path| path.split('.')) {
        ty = schema
            .object_fields(&ty)?
            .iter()
            .find(|f| f.name == part)?
            .ty;
    }
    match ty {
        Ty::List(inner) | Ty::Page(inner) => Some(*inner),
        _ => None,
    }
}

/// The fields a create's body can send, by their plain names (`FriendlyName` and
/// `friendly_name` alike), those of an object it wraps the item in too (Mailtrap's
/// `{"email_template": {...}}`); none for another operation or a body of no object type. What
/// the item's answer has besides is the service's to set (see `ResourceCall::sendable`).
fn sendable(
    service: &tidings_codegen::check::Service,
    info: &OperationInfo,
    resource: &ResourceOp,
) -> Option<&'static [&'static str]> {
    use tidings_codegen::check::{Ty as SpecTy, TypeKind};
    if resource.kind != ResourceAction::Create {
        return None;
    }
    let fields = |ty: &SpecTy| match ty {
        SpecTy::Named(name) => match &service.type_named(name)?.kind {
            TypeKind::Object(fields) => Some(fields),
            _ => None,
        },
        _ => None,
    };
    let body = info.body.as_ref()?;
    // A body of one shape or another (Vonage's call: with an `ncco`, or an `answer_url`):
    // what any of them sends.
    let tops: Vec<&Vec<_>> = match body {
        SpecTy::Named(name) => match &service.type_named(name)?.kind {
            TypeKind::Untagged { variants } => variants
                .iter()
                .filter_map(|v| fields(&SpecTy::Named(v.ty.clone()?)))
                .collect(),
            _ => vec![fields(body)?],
        },
        _ => return None,
    };
    let plain = |name: &str| -> &'static str {
        Box::leak(crate::server::resources::plain(name).into_boxed_str())
    };
    let mut names: Vec<&'static str> = Vec::new();
    for top in tops {
        for f in top {
            names.push(plain(&f.wire));
            if let (1, Some(inner)) = (top.len(), fields(&f.ty)) {
                names.extend(inner.iter().map(|f| plain(&f.wire)));
            }
        }
    }
    (!names.is_empty()).then(|| &*Box::leak(names.into_boxed_slice()))
}

/// Marks the actions of `ops` that make an id other operations take back by the same name
/// (Vonage Verify's start answers `request_id`; its search, check and control send it), and
/// those others: what the start made is kept as an item, and found by that id (see
/// `ResourceCall::keeps_made`). An id only its maker knows is not kept (a send's `message_id`
/// that nothing reads back).
pub(crate) fn made_and_named(service: &tidings_codegen::check::Service, ops: &mut [ServedOp]) {
    use tidings_codegen::check::{Ty as SpecTy, TypeKind};
    // The query parameters and body fields each operation sends, by wire name.
    let sent: Vec<Vec<&str>> = ops
        .iter()
        .map(|op| {
            let body = match &op.info.body {
                Some(SpecTy::Named(name)) => match service.type_named(name).map(|t| &t.kind) {
                    Some(TypeKind::Object(fields)) => {
                        fields.iter().map(|f| f.wire.as_str()).collect()
                    }
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            };
            let query = op.info.query.iter().map(|p| p.wire.as_str());
            query.chain(body).collect()
        })
        .collect();
    let starts: Vec<(usize, &'static str)> = ops
        .iter()
        .enumerate()
        .filter(|(_, op)| {
            op.resource.kind == ResourceAction::Action
                && op.resource.item_param.is_none()
                && op.resource.item_field.is_none()
                && tidings_spec::id_like(op.resource.id_field)
        })
        .map(|(i, op)| (i, op.resource.id_field))
        .filter(|(i, field)| !sent[*i].contains(field))
        .collect();
    let mut names = vec![None; ops.len()];
    let mut keeps = vec![false; ops.len()];
    for (start, field) in starts {
        for (i, op) in ops.iter().enumerate() {
            let takes = i != start
                && op.resource.kind == ResourceAction::Action
                && op.resource.item_param.is_none()
                && sent[i].contains(&field);
            if takes {
                names[i] = Some(field);
                keeps[start] = true;
            }
        }
    }
    for ((op, keeps), names) in ops.iter_mut().zip(keeps).zip(names) {
        op.keeps_made = keeps;
        op.names_made = names;
    }
}
