//! The service's error shape: the `errors` section made from the error type the document
//! shares, or from the one shape it writes in place.

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

use super::errors::{ERROR_CODE_NAMES, ERROR_MESSAGE_NAMES, ErrorAnswer, typed_error_body};

/// The name of an error type made from a shape written in place.
const ERROR_TYPE_HINT: &str = "Error";

impl Converter<'_> {
    /// The service's `errors` section for the error schema at `at` (a pointer into the
    /// document), imported as `ty`.
    pub(super) fn service_errors(&mut self, at: &str, ty: &str) -> Node {
        let schema_ptr = self.pointer(at);
        let (code, message) = self.error_paths_of(ty, &schema_ptr);
        let mut node = Node::map();
        typed_error_body(&mut node, ty, code, message);
        self.provenance(&mut node, at);
        node
    }

    /// The `errors` section from the error answers' one shape written in place, when no
    /// error answer names a component, every schema written in place has the same
    /// properties, and they hold a code and a message at the top (Twilio's Verify documents
    /// `{code, message, more_info, status}` on one `429` only; its other errors are the same
    /// shape, and without it the sandbox answered a shape of its own). Reported.
    pub(super) fn one_shape_in_place(&mut self, answers: &[ErrorAnswer]) -> Option<Node> {
        if answers.iter().any(|a| a.schema.is_some()) {
            return None;
        }
        let in_place: Vec<&(Value, String)> =
            answers.iter().filter_map(|a| a.inline.as_ref()).collect();
        let keys = |schema: &Value| {
            schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect::<BTreeSet<String>>())
        };
        let (schema, at) = in_place.first()?;
        let first = keys(schema)?;
        let has = |names: &[&str]| names.iter().any(|n| first.contains(*n));
        if !has(ERROR_CODE_NAMES)
            || !has(ERROR_MESSAGE_NAMES)
            || in_place
                .iter()
                .any(|(s, _)| keys(s).as_ref() != Some(&first))
        {
            return None;
        }
        let ty = self
            .ty(schema, at, ERROR_TYPE_HINT, 0)
            .ok()
            .filter(|ty| matches!(self.types.get(ty), Some(TypeOut::Object { .. })))?;
        let node = self.service_errors(at, &ty);
        let places: Vec<String> = answers
            .iter()
            .filter(|a| a.inline.is_some())
            .map(|a| format!("`{}`", self.pointer(&a.pointer)))
            .collect();
        self.report.inferred.push(Finding {
            pointer: self.pointer(at),
            reason: format!(
                "the one error shape the document shows (written in place, on {} answer(s)) is taken as the service's: every error is read and answered in it as `{ty}`",
                places.len()
            ),
            detail: Some(places.join(", ")),
        });
        Some(node)
    }
}
