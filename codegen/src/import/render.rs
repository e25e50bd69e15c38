//! Rendering: the converted types and operations as the spec's YAML nodes.

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

impl Converter<'_> {
    pub(super) fn render_types(&mut self) -> Node {
        let mut out = Node::map();
        let mut types: Vec<(String, TypeOut)> = self
            .types
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        types.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, t) in types {
            let mut node = Node::map();
            match t {
                TypeOut::Pending => continue,
                TypeOut::Object {
                    doc,
                    fields,
                    additional,
                    keeps_other_keys,
                    either,
                    pointer,
                } => {
                    if let Some(d) = doc {
                        node.set("doc", Node::str(d));
                    }
                    self.provenance(&mut node, &pointer);
                    let mut fs = Node::map();
                    for f in fields {
                        fs.set(&f.wire, field_node(&f));
                    }
                    node.set("fields", fs);
                    if let Some(a) = additional {
                        node.set("additional", Node::str(a));
                    }
                    if keeps_other_keys {
                        node.set("keeps_other_keys", Node::Bool(true));
                    }
                    let rules: Vec<Node> = either
                        .iter()
                        .map(|pair| {
                            let mut rule = Node::map();
                            rule.set(
                                "require_one",
                                Node::Seq(pair.iter().map(Node::str).collect()),
                            );
                            rule
                        })
                        .collect();
                    if !rules.is_empty() {
                        node.set("rules", Node::Seq(rules));
                    }
                }
                TypeOut::Enum {
                    doc,
                    values,
                    rust_names,
                    pointer,
                } => {
                    if let Some(d) = doc {
                        node.set("doc", Node::str(d));
                    }
                    self.provenance(&mut node, &pointer);
                    let value = |v: String| match rust_names.iter().find(|(named, _)| *named == v) {
                        Some((_, rust)) => {
                            let mut named = Node::map();
                            named.set("value", Node::Str(v));
                            named.set("rust_name", Node::str(rust));
                            named
                        }
                        None => Node::Str(v),
                    };
                    node.set("values", Node::Seq(values.into_iter().map(value).collect()));
                }
                TypeOut::Union {
                    doc,
                    untagged,
                    tag,
                    content,
                    variants,
                    pointer,
                } => {
                    if let Some(d) = doc {
                        node.set("doc", Node::str(d));
                    }
                    self.provenance(&mut node, &pointer);
                    if untagged {
                        node.set("untagged", Node::Bool(true));
                    } else {
                        node.set("tag", Node::str(tag));
                    }
                    if let Some(c) = content {
                        node.set("content", Node::str(c));
                    }
                    let mut vs = Node::map();
                    for v in variants {
                        let mut vn = Node::map();
                        if let Some(t) = v.ty {
                            vn.set("type", Node::str(t));
                        }
                        if let Some(n) = v.name {
                            vn.set("name", Node::str(n));
                        }
                        vs.set(&v.tag, vn);
                    }
                    node.set("variants", vs);
                }
            }
            out.set(&name, node);
        }
        out
    }

    /// An operation named like the page spec of a paged one (`get_lists_pages` beside a
    /// paged `get_lists`: both statics would be `GET_LISTS_PAGES`) gets `_op` after its name.
    fn rename_page_static_clashes(&mut self) {
        let paged: HashSet<String> = self
            .ops
            .iter()
            .filter(|o| o.pagination.is_some())
            .map(|o| format!("{}_pages", o.name))
            .collect();
        let mut taken: HashSet<String> = self.ops.iter().map(|o| o.name.clone()).collect();
        let mut renamed = Vec::new();
        for op in &mut self.ops {
            if !paged.contains(&op.name) {
                continue;
            }
            let mut name = format!("{}_op", op.name);
            let mut n = 2;
            while taken.contains(&name) || paged.contains(&name) {
                name = format!("{}_op{n}", op.name);
                n += 1;
            }
            taken.insert(name.clone());
            renamed.push((op.pointer.clone(), op.name.clone(), name.clone()));
            op.name = name;
        }
        for (pointer, old, new) in renamed {
            self.approximate(
                &pointer,
                &format!("renamed: operation `{old}` is `{new}`, since `{}` is the page spec of a paged operation", crate::names::shouty(&old)),
            );
        }
    }

    pub(super) fn render_operations(&mut self) -> Node {
        self.rename_page_static_clashes();
        let mut out = Node::map();
        let ops = std::mem::take(&mut self.ops);
        for op in &ops {
            let mut node = Node::map();
            node.set("method", Node::str(&op.method));
            node.set("path", Node::str(&op.path));
            if let Some(d) = &op.doc {
                node.set("doc", Node::str(d));
            }
            for (key, params) in [
                ("path_params", &op.path_params),
                ("query", &op.query),
                ("headers", &op.headers),
            ] {
                if params.is_empty() {
                    continue;
                }
                let mut ps = Node::map();
                for p in params {
                    let mut pn = Node::map();
                    if p.ty != "string" {
                        pn.set("type", Node::str(&p.ty));
                    }
                    if p.required && key != "path_params" {
                        pn.set("required", Node::Bool(true));
                    }
                    if let Some(r) = &p.rust_name {
                        pn.set("rust_name", Node::str(r));
                    }
                    if let Some(st) = p.style {
                        pn.set("style", Node::str(st));
                    }
                    if let Some(c) = &p.from_credential {
                        pn.set("from_credential", Node::str(c));
                    }
                    if let Some(v) = p.min {
                        pn.set("min", number(v));
                    }
                    if let Some(v) = p.max {
                        pn.set("max", number(v));
                    }
                    if let Some(v) = p.max_len {
                        pn.set("max_len", Node::Int(i64::try_from(v).unwrap_or(i64::MAX)));
                    }
                    if let Some(v) = p.min_len {
                        pn.set("min_len", Node::Int(i64::try_from(v).unwrap_or(i64::MAX)));
                    }
                    if let Some(v) = &p.pattern {
                        pn.set("pattern", Node::str(v));
                    }
                    if let Some(d) = p.default.as_ref().and_then(default_node) {
                        pn.set("default", d);
                    }
                    if let Some(d) = &p.doc {
                        pn.set("doc", Node::str(d));
                    }
                    ps.set(&p.wire, pn);
                }
                node.set(key, ps);
            }
            if let Some(b) = &op.body {
                node.set("body", Node::str(b));
            }
            if let Some(e) = op.body_encoding {
                node.set("body_encoding", Node::str(e));
            }
            if !op.body_media.is_empty() {
                node.set(
                    "body_media",
                    Node::Seq(op.body_media.iter().map(Node::str).collect()),
                );
            }
            if let Some((arrays, nested)) = op.form_style {
                let mut fs = Node::map();
                fs.set("arrays", Node::str(arrays));
                fs.set("nested", Node::str(nested));
                node.set("form_style", fs);
            }
            if let Some(r) = &op.response {
                node.set("response", Node::str(r));
            }
            if let Some(p) = &op.pagination {
                node.set("pagination", p.clone());
            }
            match op.status.as_slice() {
                [] => {}
                [one] => node.set("status", Node::Int(i64::from(*one))),
                many => node.set(
                    "status",
                    Node::Seq(many.iter().map(|s| Node::Int(i64::from(*s))).collect()),
                ),
            }
            if !op.errors.is_empty() {
                node.set(
                    "errors",
                    Node::Seq(op.errors.iter().map(|e| Node::Int(i64::from(*e))).collect()),
                );
            }
            if !op.error_bodies.is_empty() {
                // A status answered in several shapes is a list of them, in order.
                let mut keys: Vec<&str> = Vec::new();
                for (key, _) in &op.error_bodies {
                    if !keys.contains(&key.as_str()) {
                        keys.push(key);
                    }
                }
                let mut bodies = Node::map();
                for key in keys {
                    let mut shapes: Vec<Node> = op
                        .error_bodies
                        .iter()
                        .filter(|(k, _)| k == key)
                        .map(|(_, body)| body.clone())
                        .collect();
                    let value = if shapes.len() == 1 {
                        shapes.remove(0)
                    } else {
                        Node::Seq(shapes)
                    };
                    bodies.set(key, value);
                }
                node.set("error_bodies", bodies);
            }
            if !op.response_headers.is_empty() {
                let mut headers = Node::map();
                for (name, header) in &op.response_headers {
                    headers.set(name, header.clone());
                }
                node.set("response_headers", headers);
            }
            if let Some(i) = op.idempotency {
                node.set("idempotency", Node::str(i));
            }
            if let Some(a) = &op.auth {
                node.set("auth", Node::str(a));
            }
            self.provenance(&mut node, &op.pointer);
            out.set(&op.name, node);
        }
        self.ops = ops;
        out
    }
}

fn number(v: f64) -> Node {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        Node::Int(v as i64)
    } else {
        Node::Float(v)
    }
}

/// A `default` as the spec writes it: only scalars are kept (`default_of`).
fn default_node(value: &serde_json::Value) -> Option<Node> {
    match value {
        serde_json::Value::String(text) => Some(Node::str(text)),
        serde_json::Value::Bool(b) => Some(Node::Bool(*b)),
        serde_json::Value::Number(x) => Some(match x.as_i64() {
            Some(i) => Node::Int(i),
            None => number(x.as_f64().unwrap_or_default()),
        }),
        _ => None,
    }
}

fn field_node(f: &FieldOut) -> Node {
    let mut n = Node::map();
    n.set("type", Node::str(&f.ty));
    if let Some(r) = &f.rust_name {
        n.set("rust_name", Node::str(r));
    }
    if f.required {
        n.set("required", Node::Bool(true));
    }
    if f.nullable && f.required {
        n.set("nullable", Node::Bool(true));
    }
    if f.read_only {
        n.set("read_only", Node::Bool(true));
    }
    if f.write_only {
        n.set("write_only", Node::Bool(true));
    }
    if let Some(fmt) = f.format {
        n.set("format", Node::str(fmt));
    }
    let int = |v: u64| Node::Int(i64::try_from(v).unwrap_or(i64::MAX));
    for (k, v) in [
        ("max_len", f.max_len),
        ("min_len", f.min_len),
        ("max_items", f.max_items),
        ("min_items", f.min_items),
    ] {
        if let Some(v) = v {
            n.set(k, int(v));
        }
    }
    if let Some(v) = &f.pattern {
        n.set("pattern", Node::str(v));
    }
    if let Some(d) = f.default.as_ref().and_then(default_node) {
        n.set("default", d);
    }
    if let Some(e) = &f.example {
        n.set("example", Node::str(e));
    }
    if let Some(v) = f.min {
        n.set("min", number(v));
    }
    if let Some(v) = f.max {
        n.set("max", number(v));
    }
    if let Some(d) = &f.doc {
        n.set("doc", Node::str(d));
    }
    n
}
