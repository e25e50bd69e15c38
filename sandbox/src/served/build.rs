//! Builds a served spec's operations: each with its runtime descriptions, what its create's
//! body can send, and the change a cancelling delete makes.

use axum::http::Method;
use tidings_codegen::check::OperationInfo;

use super::ops::{PathTemplate, ServedOp};
use crate::server::resources::{ResourceAction, ResourceOp, ServiceSchema, item_type};

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
    for op in ops
        .iter_mut()
        .filter(|op| op.resource.kind == ResourceAction::Create)
    {
        let made = item_type(schema, &op.resource).1;
        let Some((_, read, item)) = reads.iter().find(|(c, ..)| *c == op.resource.collection)
        else {
            continue;
        };
        op.item_path = Some(*item);
        op.read_as = read.filter(|ty| Some(*ty) != made && schema.object_fields(ty).is_some());
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
    let top = fields(info.body.as_ref()?)?;
    let plain = |name: &str| -> &'static str {
        Box::leak(crate::server::resources::plain(name).into_boxed_str())
    };
    let mut names: Vec<&'static str> = Vec::new();
    for f in top {
        names.push(plain(&f.wire));
        if let (1, Some(inner)) = (top.len(), fields(&f.ty)) {
            names.extend(inner.iter().map(|f| plain(&f.wire)));
        }
    }
    Some(Box::leak(names.into_boxed_slice()))
}
