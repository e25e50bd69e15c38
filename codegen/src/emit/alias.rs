//! One definition per shape: named types (and parameter structs) that would be emitted as the
//! same Rust code under different names are emitted once, the others as `pub type` aliases of
//! it.
//!
//! Provider documents repeat shapes: SendGrid's 334 operations each name their own error body,
//! its errors list, and an `on-behalf-of` header struct, 997 types in all of which 464 differ.
//! Every definition costs the compiler its derives, serde impls, constructor and setters, so
//! the repeats were most of the crate's build time. An alias costs nothing, keeps every name
//! the spec gives (a method still answers `GetFooError500`), and is the same type on the wire:
//! the shapes are equal field for field, wire name, Rust name, type, limits and docs. Types
//! whose docs differ stay apart, so no field loses the words its spec gave it.

use std::collections::BTreeMap;

use crate::resolved::{Flow, ParamInfo, Service, Ty, TypeInfo, TypeKind};

/// The named types of a service that are emitted as aliases: each one's name to the name of the
/// first type (in spec order) of the same shape, and the flow each kept type serves (the union
/// of its aliases': a shape sent by one name and received by another needs both serde
/// directions).
#[derive(Debug, Default)]
pub(crate) struct TypeAliases {
    target: BTreeMap<String, String>,
    flow: BTreeMap<String, Flow>,
}

impl TypeAliases {
    /// The shapes of `service`'s named types, found by refining a partition until it holds: two
    /// types are one shape when everything but their names and own docs agrees and every named
    /// type they refer to is of one shape too.
    pub(crate) fn of(service: &Service) -> TypeAliases {
        let types = &service.types;
        let mut class: BTreeMap<&str, usize> = types.iter().map(|t| (t.name.as_str(), 0)).collect();
        let mut classes = 1;
        loop {
            let mut keys: BTreeMap<String, usize> = BTreeMap::new();
            let next: BTreeMap<&str, usize> = types
                .iter()
                .map(|t| {
                    let key = type_key(t, &class);
                    let len = keys.len();
                    (t.name.as_str(), *keys.entry(key).or_insert(len))
                })
                .collect();
            let count = keys.len();
            class = next;
            // Refinement only splits classes: the same count means nothing moved.
            if count == classes {
                break;
            }
            classes = count;
        }
        let mut first: BTreeMap<usize, &TypeInfo> = BTreeMap::new();
        let mut aliases = TypeAliases::default();
        for t in types {
            let kept = *first.entry(class[t.name.as_str()]).or_insert(t);
            let flow = aliases.flow.entry(kept.name.clone()).or_insert(Flow {
                sent: false,
                received: false,
            });
            flow.sent |= t.flow.sent;
            flow.received |= t.flow.received;
            if kept.name != t.name {
                aliases.target.insert(t.name.clone(), kept.name.clone());
            }
        }
        aliases
    }

    /// The type `name` is an alias of, when it is one.
    pub(crate) fn target(&self, name: &str) -> Option<&str> {
        self.target.get(name).map(String::as_str)
    }

    /// The flow of a kept type: its own and its aliases'.
    pub(crate) fn flow(&self, t: &TypeInfo) -> Flow {
        self.flow.get(&t.name).copied().unwrap_or(t.flow)
    }

    /// A type expression with each named type by the name its definition is emitted under.
    pub(crate) fn kept_ty(&self, ty: &Ty) -> Ty {
        ty_key(ty, &|n| self.kept(n).to_owned())
    }

    /// The name a type's definition is emitted under: its own, or the one it is an alias of.
    pub(crate) fn kept<'a>(&'a self, name: &'a str) -> &'a str {
        self.target(name).unwrap_or(name)
    }
}

/// What a type's emitted code depends on besides its name, type-level docs and flow, with the
/// named types it refers to by their shape's number.
fn type_key(t: &TypeInfo, class: &BTreeMap<&str, usize>) -> String {
    let named = |n: &str| {
        class
            .get(n)
            .map_or_else(|| n.to_owned(), |c| format!("#{c}"))
    };
    let mut t = TypeInfo {
        name: String::new(),
        doc: None,
        note: None,
        conflict: None,
        flow: Flow::BOTH,
        ..t.clone()
    };
    match &mut t.kind {
        TypeKind::Object(fields) => {
            for f in fields {
                f.ty = ty_key(&f.ty, &named);
            }
        }
        TypeKind::Enum(_) => {}
        TypeKind::Union { variants, .. } | TypeKind::Untagged { variants } => {
            for v in variants {
                v.ty = v.ty.as_deref().map(named);
            }
        }
    }
    t.additional = t.additional.as_ref().map(|a| ty_key(a, &named));
    format!("{t:?}")
}

/// A type expression with each named type replaced by `named` of it.
fn ty_key(ty: &Ty, named: &dyn Fn(&str) -> String) -> Ty {
    match ty {
        Ty::Named(n) => Ty::Named(named(n)),
        Ty::List(t) => Ty::List(Box::new(ty_key(t, named))),
        Ty::Map(t) => Ty::Map(Box::new(ty_key(t, named))),
        Ty::Page(t) => Ty::Page(Box::new(ty_key(t, named))),
        other => other.clone(),
    }
}

/// The parameter structs (query or headers) of a service's operations that are emitted as
/// aliases: each struct's name to the first of the same parameters, by operation order.
pub(crate) fn param_aliases<'a>(
    service: &'a Service,
    params: impl Fn(&'a crate::resolved::OperationInfo) -> Option<(String, &'a [ParamInfo])>,
) -> BTreeMap<String, String> {
    let mut first: BTreeMap<String, String> = BTreeMap::new();
    let mut aliases = BTreeMap::new();
    for op in &service.operations {
        let Some((name, list)) = params(op) else {
            continue;
        };
        // The operation's provenance decides which parameter docs say theirs.
        let key = format!("{:?}{list:?}", op.source);
        let kept = first.entry(key).or_insert_with(|| name.clone());
        if *kept != name {
            aliases.insert(name, kept.clone());
        }
    }
    aliases
}
