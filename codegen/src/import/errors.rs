//! The error body: where the document's error schema keeps the code and the message.

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

impl Converter<'_> {
    /// The error body: the schema most error responses of imported operations share.
    pub(super) fn errors_section(&mut self) -> Option<Node> {
        let doc = self.doc;
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
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
                    *counts.entry(c).or_default() += 1;
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
        // Where code and message are in it (the checker holds the paths to the type).
        let code = self.error_field_path(&ty, ERROR_CODE_NAMES);
        let message = self.error_field_path(&ty, ERROR_MESSAGE_NAMES);
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

    /// The dot path of the first field of error type `ty` named like one of `names`: at the
    /// top, else one level down in an object field (`error.code`) or in the first element of
    /// a list of objects (`errors.0.message`).
    pub(super) fn error_field_path(&self, ty: &str, names: &[&str]) -> Option<String> {
        let fields_of = |ty: &str| match self.types.get(ty) {
            Some(TypeOut::Object { fields, .. }) => Some(fields),
            _ => None,
        };
        let named = |fields: &Vec<FieldOut>| {
            names.iter().find_map(|n| {
                fields
                    .iter()
                    .find(|f| f.wire.eq_ignore_ascii_case(n))
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
