//! The error body: where the document's error schema keeps the code and the message.

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

impl Converter<'_> {
    /// The error body: the schema most error responses of imported operations share.
    pub(super) fn errors_section(&mut self) -> Option<Node> {
        let doc = self.doc;
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        let mut by_schema: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for op in &self.ops {
            let Some(o) = document::resolve(doc, &format!("#{}", op.pointer)) else {
                continue;
            };
            for (code, r) in o
                .get("responses")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let is_error = code == "default" || code.starts_with('4') || code.starts_with('5');
                if !is_error {
                    continue;
                }
                let Some((r, _)) = document::deref(doc, r, "") else {
                    continue;
                };
                let schema_ref = r
                    .get("content")
                    .and_then(Value::as_object)
                    .and_then(|c| c.iter().find(|(k, _)| k.contains("json")))
                    .and_then(|(_, m)| m.get("schema"))
                    .and_then(|s| s.get("$ref"))
                    .and_then(Value::as_str)
                    .and_then(schema::component_of);
                if let Some(c) = schema_ref {
                    *counts.entry(c.clone()).or_default() += 1;
                    by_schema.entry(c).or_default().push(format!(
                        "{}/responses/{}",
                        op.pointer,
                        document::escape(code)
                    ));
                }
            }
        }
        let (best, _) = counts
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))?;
        let best = best.clone();
        let ty = self.component(&best).ok()?;
        if !matches!(self.types.get(&ty), Some(TypeOut::Object { .. })) {
            return None;
        }
        let mut node = Node::map();
        // Where code and message are in it (the checker holds the paths to the type). An RFC
        // 9457 problem (`type`, `title`, `detail`, `status`) names its kind by the `type` URI
        // and explains it in `detail` (else `title`).
        let problem = self.is_problem_details(&ty);
        let code = if problem {
            Some("type".to_owned())
        } else {
            self.error_field_path(&ty, ERROR_CODE_NAMES)
        };
        let message = if problem {
            self.error_field_path(&ty, &["detail", "title"])
        } else {
            self.error_field_path(&ty, ERROR_MESSAGE_NAMES)
        };
        let schema_ptr = self.pointer(&format!("/components/schemas/{}", document::escape(&best)));
        let how = if problem {
            "RFC 9457 problem details"
        } else {
            "field names"
        };
        for (what, path) in [("code", &code), ("message", &message)] {
            self.report.inferred.push(Finding {
                pointer: schema_ptr.clone(),
                reason: match path {
                    Some(p) => format!("error {what} read at `{p}` (by {how})"),
                    None => format!("error {what}: no field found (by {how})"),
                },
                detail: None,
            });
        }
        // Operations whose error answers have another schema are decoded with this one.
        for (other, pointers) in &by_schema {
            if *other == best {
                continue;
            }
            for pointer in pointers {
                self.report.inferred.push(Finding {
                    pointer: self.pointer(pointer),
                    reason: format!(
                        "this error answer has the schema `{other}`, decoded with the service's error type `{ty}` (one error shape per service)"
                    ),
                    detail: None,
                });
            }
        }
        node.set("type", Node::str(ty));
        for (key, path, default) in [
            ("code", code, crate::resolved::defaults::ERROR_CODE_PATH),
            (
                "message",
                message,
                crate::resolved::defaults::ERROR_MESSAGE_PATH,
            ),
        ] {
            let path = path.unwrap_or_else(|| "none".to_owned());
            if path != default {
                node.set(key, Node::str(path));
            }
        }
        self.provenance(
            &mut node,
            &format!("/components/schemas/{}", document::escape(&best)),
        );
        Some(node)
    }

    /// Whether error type `ty` is an RFC 9457 problem: `type` and `status`, and `title` or
    /// `detail`.
    fn is_problem_details(&self, ty: &str) -> bool {
        let Some(TypeOut::Object { fields, .. }) = self.types.get(ty) else {
            return false;
        };
        let has = |name: &str| fields.iter().any(|f| f.wire == name);
        has("type") && has("status") && (has("title") || has("detail"))
    }

    /// The dot path of the first field of error type `ty` named like one of `names`: at the
    /// top, else one level down in an object field (`error.code`) or in the first element of
    /// a list of objects (`errors.0.message`).
    pub(super) fn error_field_path(&self, ty: &str, names: &[&str]) -> Option<String> {
        let fields_of = |ty: &str| match self.types.get(ty) {
            Some(TypeOut::Object { fields, .. }) => Some(fields),
            _ => None,
        };
        // A code or message is text (or a number): `error: {code, message}` is not a code.
        let scalar = |f: &FieldOut| {
            matches!(
                f.ty.as_str(),
                "string" | "integer" | "number" | "boolean" | "json"
            ) || matches!(self.types.get(&f.ty), Some(TypeOut::Enum { .. }))
        };
        let named = |fields: &Vec<FieldOut>| {
            names.iter().find_map(|n| {
                fields
                    .iter()
                    .find(|f| f.wire.eq_ignore_ascii_case(n) && scalar(f))
                    .map(|f| f.wire.clone())
            })
        };
        let fields = fields_of(ty)?;
        if let Some(found) = named(fields) {
            return Some(found);
        }
        fields.iter().find_map(|f| {
            let (inner, index) = match f.ty.strip_prefix("list<").and_then(|t| t.strip_suffix('>'))
            {
                Some(inner) => (inner, ".0"),
                None => (f.ty.as_str(), ""),
            };
            let found = named(fields_of(inner)?)?;
            Some(format!("{}{index}.{found}", f.wire))
        })
    }
}
