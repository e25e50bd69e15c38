//! Fields present one way only: a field the document requires and marks `readOnly` is sent in
//! every answer and never in a request, so the importer leaves it optional (a create does not
//! send the `id` the service sets). In a type that only answers carry, nothing stops it being
//! required, and the client's type should say it is always there. The other way round, a
//! required `writeOnly` field (a password) is required in a type only requests carry.

use std::collections::HashSet;

use super::Converter;
use super::out::TypeOut;

impl Converter<'_> {
    /// Makes each required, read-only field required in the types that answers reach and no
    /// request does; each required, write-only one in the types requests reach and no answer
    /// does.
    pub(super) fn required_in_answers(&mut self) {
        let requests = self.reached(self.ops.iter().flat_map(|op| {
            op.body
                .iter()
                .chain(op.path_params.iter().map(|p| &p.ty))
                .chain(op.query.iter().map(|p| &p.ty))
                .chain(op.headers.iter().map(|p| &p.ty))
        }));
        let answers = self.reached(self.ops.iter().filter_map(|op| op.response.as_ref()));
        for (name, ty) in &mut self.types {
            let (answered, sent) = (answers.contains(name), requests.contains(name));
            if let TypeOut::Object { fields, .. } = ty {
                for f in fields.iter_mut() {
                    // A write-only field the document requires (OneSignal's `app_id` of a
                    // notification) is required where only requests use the type.
                    if (f.required_in_answers && answered && !sent)
                        || (f.required_in_requests && sent && !answered)
                    {
                        f.required = true;
                    }
                }
            }
        }
    }

    /// The types named by `roots` (type expressions such as `list<Batch>`) and every type their
    /// fields, extra keys and variants name, transitively.
    fn reached<'t>(&self, roots: impl Iterator<Item = &'t String>) -> HashSet<String> {
        let mut seen = HashSet::new();
        let mut stack: Vec<String> = roots.flat_map(|t| self.named_in(t)).collect();
        while let Some(name) = stack.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            match self.types.get(&name) {
                Some(TypeOut::Object {
                    fields, additional, ..
                }) => {
                    for t in fields.iter().map(|f| &f.ty).chain(additional) {
                        stack.extend(self.named_in(t));
                    }
                }
                Some(TypeOut::Union { variants, .. }) => {
                    for t in variants.iter().filter_map(|v| v.ty.as_ref()) {
                        stack.extend(self.named_in(t));
                    }
                }
                _ => {}
            }
        }
        seen
    }

    /// The spec's own types a type expression names (`map<list<Batch>>` names `Batch`).
    fn named_in(&self, ty: &str) -> Vec<String> {
        ty.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|word| self.types.contains_key(*word))
            .map(str::to_owned)
            .collect()
    }
}
