//! Recursive types: an object that holds itself by value, directly or through other objects
//! and unions (`Node { child: Node }`, `Filter { and: Condition }` with `Condition` a union
//! holding a `Filter`), has no size in Rust. Every object field that is part of such a cycle
//! is boxed (`Option<Box<Node>>`); lists and maps hold their items on the heap already and
//! break no cycle. A cycle of union variants alone cannot be boxed by a field and is refused.

use std::collections::HashMap;

use super::Checker;
use crate::resolved::{Ty, TypeInfo, TypeKind};

/// The named types `ty` holds by value (a named type itself; not inside a list or a map).
fn by_value(ty: &Ty) -> Option<&str> {
    match ty {
        Ty::Named(n) => Some(n),
        _ => None,
    }
}

/// Tarjan's strongly connected components, iteratively: the component index of each node.
fn components(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let mut comp = vec![usize::MAX; n];
    let (mut next, mut comps) = (0, 0);
    let mut stack = Vec::new();
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(start, 0)];
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if *e == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*e) {
                *e += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = comps;
                    if w == v {
                        break;
                    }
                }
                comps += 1;
            }
        }
    }
    comp
}

impl Checker<'_> {
    /// Boxes the object fields that close a cycle of types held by value; refuses a cycle
    /// made of union variants only.
    pub(super) fn box_recursion(&mut self, types: &mut [TypeInfo]) {
        let at: HashMap<String, usize> = types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect();
        let variant_types = |kind: &TypeKind| -> Vec<String> {
            match kind {
                TypeKind::Union { variants, .. } | TypeKind::Untagged { variants } => variants
                    .iter()
                    .filter_map(|v| v.ty.as_deref())
                    .filter_map(|t| Ty::parse(t).ok())
                    .filter_map(|t| by_value(&t).map(str::to_owned))
                    .collect(),
                _ => Vec::new(),
            }
        };
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); types.len()];
        let mut union_edges: Vec<Vec<usize>> = vec![Vec::new(); types.len()];
        for (i, t) in types.iter().enumerate() {
            match &t.kind {
                TypeKind::Object(fields) => {
                    edges[i].extend(
                        fields
                            .iter()
                            .filter_map(|f| by_value(&f.ty))
                            .filter_map(|n| at.get(n).copied()),
                    );
                }
                kind => {
                    let targets: Vec<usize> = variant_types(kind)
                        .iter()
                        .filter_map(|n| at.get(n).copied())
                        .collect();
                    edges[i].extend(&targets);
                    union_edges[i].extend(targets);
                }
            }
        }
        let comp = components(&edges);
        for i in 0..types.len() {
            let TypeKind::Object(fields) = &mut types[i].kind else {
                continue;
            };
            for f in fields.iter_mut() {
                if let Some(j) = by_value(&f.ty).and_then(|n| at.get(n).copied())
                    && comp[j] == comp[i]
                {
                    f.boxed = true;
                }
            }
        }
        // Union variants alone going round: no field to box.
        let union_comp = components(&union_edges);
        let mut reported = Vec::new();
        for (i, targets) in union_edges.iter().enumerate() {
            if targets.iter().any(|&j| union_comp[j] == union_comp[i])
                && !reported.contains(&union_comp[i])
            {
                reported.push(union_comp[i]);
                let d = self.error(
                    &format!("types.{}", types[i].name),
                    format!(
                        "union `{}` holds itself through its variants alone: a value of it would have no end",
                        types[i].name
                    ),
                );
                d.hint = Some("hold the inner union in an object field, a list or a map".into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn components_group_cycles_and_leave_the_rest_alone() {
        // 0 -> 1 -> 2 -> 0, 3 -> 3, 4 -> 0
        let edges = vec![vec![1], vec![2], vec![0], vec![3], vec![0]];
        let c = components(&edges);
        assert!(c[0] == c[1] && c[1] == c[2]);
        assert!(c[3] != c[0] && c[4] != c[0] && c[4] != c[3]);
        // A long chain does not overflow the stack.
        let n = 100_000;
        let chain: Vec<Vec<usize>> = (0..n).map(|i| vec![(i + 1) % n]).collect();
        let c = components(&chain);
        assert!(c.iter().all(|&x| x == c[0]));
    }
}
