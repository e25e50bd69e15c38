//! Which ways each named type travels ([`Flow`]): sent from request bodies and parameters,
//! received from answers, errors, pages and events, then carried to the types they contain, so
//! the emitter derives only the serde direction the client needs.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::Direction;
use crate::resolved::{
    ErrorsInfo, Flow, OperationInfo, Ty, TypeInfo, TypeKind, WebSocketInfo, WebhookInfo,
    WebhookTypeInfo,
};

/// What the client does with the types of a service, gathered from where they are used.
pub(super) struct Uses<'a> {
    pub operations: &'a [OperationInfo],
    pub errors: Option<&'a ErrorsInfo>,
    pub webhook: Option<&'a WebhookInfo>,
    pub webhooks: &'a [WebhookTypeInfo],
    pub websocket: Option<&'a WebSocketInfo>,
}

/// Sets each type's [`Flow`]. A type used nowhere keeps [`Flow::BOTH`]: hand-written code may
/// use it either way.
pub(super) fn mark(types: &mut [TypeInfo], uses: &Uses<'_>) {
    let mut sent = Vec::new();
    let mut received = Vec::new();
    for op in uses.operations {
        if let Some(body) = &op.body {
            body.names(&mut sent);
        }
        for p in op.path_params.iter().chain(&op.query).chain(&op.headers) {
            p.ty.names(&mut sent);
        }
        for ty in op
            .response
            .iter()
            .chain(&op.stream_item)
            .chain(op.error_bodies.iter().filter_map(|b| b.ty.as_ref()))
        {
            ty.names(&mut received);
        }
    }
    if let Some(ty) = uses.errors.and_then(|e| e.ty.as_ref()) {
        ty.names(&mut received);
    }
    received.extend(uses.webhook.and_then(|w| w.ty.clone()));
    received.extend(uses.webhooks.iter().map(|w| w.ty.clone()));
    for m in uses.websocket.iter().flat_map(|w| &w.messages) {
        let Some(data) = &m.data else { continue };
        if matches!(m.direction, Direction::ClientToServer | Direction::Both) {
            sent.push(data.clone());
        }
        if matches!(m.direction, Direction::ServerToClient | Direction::Both) {
            received.push(data.clone());
        }
    }
    let contains: BTreeMap<&str, Vec<String>> = types
        .iter()
        .map(|t| (t.name.as_str(), contained(t)))
        .collect();
    let sent = closure(sent, &contains);
    let received = closure(received, &contains);
    // A type used nowhere keeps both directions, and so must every type it holds (its derives
    // need theirs).
    let unused: Vec<String> = types
        .iter()
        .filter(|t| !sent.contains(&t.name) && !received.contains(&t.name))
        .map(|t| t.name.clone())
        .collect();
    let both = closure(unused, &contains);
    let flows: Vec<Flow> = types
        .iter()
        .map(|t| {
            if both.contains(&t.name) {
                Flow::BOTH
            } else {
                Flow {
                    sent: sent.contains(&t.name),
                    received: received.contains(&t.name),
                }
            }
        })
        .collect();
    for (t, flow) in types.iter_mut().zip(flows) {
        t.flow = flow;
    }
}

/// The named types a type's fields or variants hold.
fn contained(t: &TypeInfo) -> Vec<String> {
    let mut out = Vec::new();
    match &t.kind {
        TypeKind::Object(fields) => {
            fields.iter().for_each(|f| f.ty.names(&mut out));
            if let Some(ty) = &t.additional {
                ty.names(&mut out);
            }
        }
        TypeKind::Union { variants, .. } | TypeKind::Untagged { variants } => {
            for v in variants {
                // An untagged variant may be a type expression (`list<Contact>`).
                if let Some(ty) = v.ty.as_deref().and_then(|ty| Ty::parse(ty).ok()) {
                    ty.names(&mut out);
                }
            }
        }
        TypeKind::Enum(_) => {}
    }
    out
}

/// `roots` and every type they reach through fields and variants.
fn closure(roots: Vec<String>, contains: &BTreeMap<&str, Vec<String>>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = roots;
    while let Some(name) = stack.pop() {
        if let Some(inner) = contains.get(name.as_str())
            && seen.insert(name)
        {
            stack.extend(inner.iter().cloned());
        }
    }
    seen
}
