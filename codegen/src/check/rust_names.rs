//! Every Rust name the generated code derives from a spec (fields, parameters, enum values,
//! variants, methods, statics, helper types, message variants), taken from the resolved model
//! so renames (`rust_name:`, `name:`) count, checked for identifiers that cannot exist and for
//! clashes within each Rust namespace: a spec that checks clean gives code that compiles.

use std::collections::HashMap;

use super::Checker;
use crate::names::{
    CLIENT_METHODS, RESERVED_ARGS, SERVER_METHODS, client_type, ident_problem, op_static,
    query_type, stream_method,
};
use crate::resolved::{OperationInfo, TypeInfo, TypeKind, WebSocketInfo};

const RENAME_HINT: &str = "add `rust_name:` with another Rust name (the wire name stays)";

/// One Rust namespace: names taken so far and what took them.
#[derive(Default)]
struct Namespace {
    taken: HashMap<String, String>,
}

impl Namespace {
    /// Takes `rust` for `what`; returns what had it already.
    fn take(&mut self, rust: &str, what: &str) -> Option<String> {
        match self.taken.get(rust) {
            Some(owner) => Some(owner.clone()),
            None => {
                self.taken.insert(rust.to_owned(), what.to_owned());
                None
            }
        }
    }
}

impl Checker<'_> {
    /// Checks the final Rust names of the resolved parts; runs only on an otherwise clean spec,
    /// so a problem the checks before it found is not reported twice.
    pub(super) fn rust_names(
        &mut self,
        types: &[TypeInfo],
        operations: &[OperationInfo],
        websocket: Option<&WebSocketInfo>,
    ) {
        if !self.errors.is_empty() {
            return;
        }
        self.type_member_names(types);
        self.operation_names(types, operations);
        if let Some(ws) = websocket {
            self.message_names(ws, types);
        }
    }

    fn name_error(&mut self, path: &str, message: String, hint: &str) {
        let d = self.error(path, message);
        d.hint = Some(hint.to_owned());
    }

    fn type_member_names(&mut self, types: &[TypeInfo]) {
        for t in types {
            let path = format!("types.{}", t.name);
            match &t.kind {
                TypeKind::Object(fields) => {
                    // Fields, and the setters named after them beside the constructor `new`.
                    let mut ns = Namespace::default();
                    ns.take("new", "the constructor `new`");
                    for f in fields {
                        let fpath = format!("{path}.fields.{}", f.wire);
                        if let Some(why) = ident_problem(&f.rust) {
                            self.name_error(
                                &fpath,
                                format!("field `{}` becomes `{}` in Rust: {why}", f.wire, f.rust),
                                RENAME_HINT,
                            );
                        } else if let Some(owner) = ns.take(&f.rust, &format!("field `{}`", f.wire))
                        {
                            self.name_error(
                                &fpath,
                                format!(
                                    "field `{}` becomes `{}` in Rust, as {owner} does",
                                    f.wire, f.rust
                                ),
                                RENAME_HINT,
                            );
                        }
                    }
                }
                TypeKind::Enum(values) => {
                    let mut ns = Namespace::default();
                    ns.take("Unknown", "the variant that keeps unknown values");
                    for (i, v) in values.iter().enumerate() {
                        let vpath = format!("{path}.values.{i}");
                        if let Some(why) = ident_problem(&v.rust) {
                            self.name_error(
                                &vpath,
                                format!(
                                    "enum value `{}` becomes `{}` in Rust: {why}",
                                    v.wire, v.rust
                                ),
                                RENAME_HINT,
                            );
                        } else if let Some(owner) = ns.take(&v.rust, &format!("value `{}`", v.wire))
                        {
                            self.name_error(
                                &vpath,
                                format!(
                                    "enum value `{}` becomes `{}` in Rust, as {owner} does",
                                    v.wire, v.rust
                                ),
                                RENAME_HINT,
                            );
                        }
                    }
                }
                TypeKind::Union { variants, .. } | TypeKind::Untagged { variants } => {
                    let mut ns = Namespace::default();
                    ns.take("Unknown", "the variant that keeps unknown variants");
                    for v in variants {
                        let vpath = format!("{path}.variants.{}", v.tag);
                        let hint = "set the variant's `name:` to another PascalCase name";
                        if let Some(why) = ident_problem(&v.rust) {
                            self.name_error(
                                &vpath,
                                format!("variant `{}` becomes `{}` in Rust: {why}", v.tag, v.rust),
                                hint,
                            );
                        } else if let Some(owner) =
                            ns.take(&v.rust, &format!("variant `{}`", v.tag))
                        {
                            self.name_error(
                                &vpath,
                                format!(
                                    "variant `{}` becomes `{}` in Rust, as {owner} does",
                                    v.tag, v.rust
                                ),
                                hint,
                            );
                        }
                    }
                }
            }
        }
    }

    fn operation_names(&mut self, types: &[TypeInfo], operations: &[OperationInfo]) {
        let op_hint = "rename the operation (its Rust method takes the operation's name)";
        // Client methods, server trait methods, statics and types each share one namespace.
        let mut methods = Namespace::default();
        for m in CLIENT_METHODS.iter().chain(SERVER_METHODS) {
            methods.take(m, &format!("the generated method `{m}`"));
        }
        // The statics live in their own `operations` module.
        let mut statics = Namespace::default();
        let mut type_names = Namespace::default();
        for t in types {
            type_names.take(&t.name, &format!("the spec type `{}`", t.name));
        }
        type_names.take(
            &client_type(&self.spec.service.name),
            "the generated client struct",
        );
        for op in operations {
            let path = format!("operations.{}", op.name);
            if let Some(why) = ident_problem(&op.name) {
                self.name_error(
                    &path,
                    format!("operation `{}` cannot be a Rust method: {why}", op.name),
                    op_hint,
                );
            }
            let mut own = vec![(op.name.clone(), format!("operation `{}`", op.name))];
            if op.page_item().is_some() {
                own.push((
                    stream_method(&op.name),
                    format!("the stream method of operation `{}`", op.name),
                ));
            }
            for (name, what) in own {
                if let Some(owner) = methods.take(&name, &what) {
                    self.name_error(
                        &path,
                        format!("{what} needs the method name `{name}`, which {owner} has"),
                        op_hint,
                    );
                }
            }
            let name = op_static(&op.name);
            if let Some(owner) = statics.take(&name, &format!("operation `{}`", op.name)) {
                self.name_error(
                    &path,
                    format!(
                        "operation `{}` needs the static `{name}`, which {owner} has",
                        op.name
                    ),
                    op_hint,
                );
            }
            if let Some(q) = &op.query_type {
                debug_assert_eq!(q, &query_type(&op.name));
                if let Some(owner) =
                    type_names.take(q, &format!("the query struct of `{}`", op.name))
                {
                    self.name_error(
                        &path,
                        format!(
                            "operation `{}` needs the query struct `{q}`, which {owner} has",
                            op.name
                        ),
                        op_hint,
                    );
                }
            }
            self.param_names(op);
        }
    }

    /// The arguments of an operation's client method and server handler, and the fields of
    /// its query struct.
    fn param_names(&mut self, op: &OperationInfo) {
        let path = format!("operations.{}", op.name);
        let mut args = Namespace::default();
        for reserved in RESERVED_ARGS {
            args.take(
                reserved,
                &format!("the generated argument or local `{reserved}`"),
            );
        }
        for p in op
            .path_params
            .iter()
            .filter(|p| p.from_credential.is_none())
        {
            let ppath = format!("{path}.path_params.{}", p.wire);
            if let Some(why) = ident_problem(&p.rust) {
                self.name_error(
                    &ppath,
                    format!(
                        "path parameter `{}` becomes `{}` in Rust: {why}",
                        p.wire, p.rust
                    ),
                    RENAME_HINT,
                );
            } else if let Some(owner) = args.take(&p.rust, &format!("path parameter `{}`", p.wire))
            {
                self.name_error(
                    &ppath,
                    format!(
                        "path parameter `{}` becomes the argument `{}`, as {owner} does",
                        p.wire, p.rust
                    ),
                    RENAME_HINT,
                );
            }
        }
        let mut fields = Namespace::default();
        for p in &op.query {
            let qpath = format!("{path}.query.{}", p.wire);
            if let Some(why) = ident_problem(&p.rust) {
                self.name_error(
                    &qpath,
                    format!(
                        "query parameter `{}` becomes `{}` in Rust: {why}",
                        p.wire, p.rust
                    ),
                    RENAME_HINT,
                );
            } else if let Some(owner) =
                fields.take(&p.rust, &format!("query parameter `{}`", p.wire))
            {
                self.name_error(
                    &qpath,
                    format!(
                        "query parameter `{}` becomes the field `{}`, as {owner} does",
                        p.wire, p.rust
                    ),
                    RENAME_HINT,
                );
            }
        }
    }

    fn message_names(&mut self, ws: &WebSocketInfo, types: &[TypeInfo]) {
        let mut ns = Namespace::default();
        ns.take("Other", "the variant that keeps other events");
        for m in &ws.messages {
            let path = format!("websocket.messages.{}", m.name);
            if let Some(why) = ident_problem(&m.rust) {
                self.name_error(
                    &path,
                    format!("message `{}` becomes `{}` in Rust: {why}", m.name, m.rust),
                    "rename the message",
                );
            } else if let Some(owner) = ns.take(&m.rust, &format!("message `{}`", m.name)) {
                self.name_error(
                    &path,
                    format!(
                        "message `{}` becomes the variant `{}`, as {owner} does",
                        m.name, m.rust
                    ),
                    "rename the message",
                );
            }
        }
        for generated in ["ClientMessage", "ServerMessage"] {
            if types.iter().any(|t| t.name == generated) {
                self.name_error(
                    &format!("types.{generated}"),
                    format!(
                        "type name `{generated}` is taken by the generated protocol message enum"
                    ),
                    "rename the type",
                );
            }
        }
    }
}
