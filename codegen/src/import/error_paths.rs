//! Where an error type keeps its code and its message, read from its field names (or as an
//! RFC 9457 problem).

use super::errors::{ERROR_CODE_NAMES, ERROR_MESSAGE_NAMES};
#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

/// Names a code is kept under in some envelopes, read when none of [`ERROR_CODE_NAMES`] is
/// found at any depth (Infobip's `serviceException.messageId`: the kind of error, not a
/// message's id, there).
const WEAK_ERROR_CODE_NAMES: &[&str] = &["messageId", "errorId", "type", "name"];

/// Names a message is kept under in some envelopes, read when none of
/// [`ERROR_MESSAGE_NAMES`] is found at any depth (Infobip's `serviceException.text`).
const WEAK_ERROR_MESSAGE_NAMES: &[&str] = &["text", "reason", "errorDetails", "error_details"];

/// How deep in an error body its code and message are looked for (`a.b.c` is 2).
const MAX_ERROR_DEPTH: usize = 3;

impl Converter<'_> {
    /// Where error type `ty` keeps its code and message, each inference reported at `ptr`.
    pub(super) fn error_paths_of(
        &mut self,
        ty: &str,
        ptr: &str,
    ) -> (Option<String>, Option<String>) {
        // An RFC 9457 problem (`type`, `title`, `detail`, `status`) names its kind by the
        // `type` URI and explains it in `detail` (else `title`).
        let problem = self.is_problem_details(ty);
        // A text field its description calls the message (Mailtrap's `error` and `errors`,
        // "Error message") is the message, whatever its name says.
        let described = (!problem).then(|| self.described_message(ty)).flatten();
        let code = if problem {
            Some("type".to_owned())
        } else {
            self.error_field_path(ty, ERROR_CODE_NAMES)
                .or_else(|| {
                    // A weak name inside a list is a listed thing's (Vonage's
                    // `invalid_parameters.0.name`, the parameter refused), not the code.
                    self.error_field_path(ty, WEAK_ERROR_CODE_NAMES)
                        .filter(|code| !self.only_on_server_errors(ty, code))
                        .filter(|code| !code.contains(".0."))
                })
                .filter(|code| Some(code) != described.as_ref())
        };
        let message = if problem {
            self.error_field_path(ty, &["detail", "title"])
        } else {
            self.error_field_path(ty, ERROR_MESSAGE_NAMES)
                .or(described)
                .or_else(|| self.error_field_path(ty, WEAK_ERROR_MESSAGE_NAMES))
                .or_else(|| self.listed_messages(ty))
        };
        // An error of one text field alone (Mailscript's `{"error": "..."}`) says why in it:
        // the message, which a code in its place would leave unsaid.
        let lone = match self.types.get(ty) {
            Some(TypeOut::Object { fields, .. }) => {
                fields.len() == 1
                    && code.as_deref() == Some(fields[0].wire.as_str())
                    && !self.field_is_enum(ty, &fields[0].wire)
            }
            _ => false,
        };
        let (code, message) = match (lone, message) {
            (true, None) => (None, code),
            (_, message) => (code, message),
        };
        let how = if problem {
            "RFC 9457 problem details"
        } else {
            "field names"
        };
        for (what, path) in [("code", &code), ("message", &message)] {
            self.report.inferred.push(Finding {
                pointer: ptr.to_owned(),
                reason: match path {
                    Some(p) => format!("error {what} read at `{p}` (by {how})"),
                    None => format!("error {what}: no field found (by {how})"),
                },
                detail: None,
            });
        }
        (code, message)
    }

    /// The top-level text field of error type `ty` whose description calls it the message
    /// ("Error message"), when one does and it is not described as a code.
    fn described_message(&self, ty: &str) -> Option<String> {
        let Some(TypeOut::Object { fields, .. }) = self.types.get(ty) else {
            return None;
        };
        let mut described = fields.iter().filter(|f| {
            f.ty == "string"
                && f.doc.as_deref().is_some_and(|d| {
                    let d = d.to_ascii_lowercase();
                    d.contains("message") && !d.contains("code")
                })
        });
        let one = described.next()?;
        described.next().is_none().then(|| one.wire.clone())
    }

    /// `errors.0` when error type `ty` lists its messages as text in an `errors` field
    /// (OneSignal's `{"errors": ["..."]}`, a free-form `errors` in its document), at the top
    /// or in one of its object fields (Customer.io's `{"meta": {"errors": ["..."]}}`).
    fn listed_messages(&self, ty: &str) -> Option<String> {
        let fields_of = |ty: &str| match self.types.get(ty) {
            Some(TypeOut::Object { fields, .. }) => Some(fields),
            _ => None,
        };
        let listed = |fields: &Vec<FieldOut>| {
            fields
                .iter()
                .find(|f| f.wire == "errors" && matches!(f.ty.as_str(), "list<string>" | "json"))
                .map(|f| format!("{}.0", f.wire))
        };
        let fields = fields_of(ty)?;
        listed(fields).or_else(|| {
            fields
                .iter()
                .filter(|f| !f.wire.contains('.'))
                .find_map(|f| Some(format!("{}.{}", f.wire, listed(fields_of(&f.ty)?)?)))
        })
    }

    /// Whether error type `ty` is an RFC 9457 problem: `type`, `title` or `detail`, and
    /// `status` or `instance` (Vonage's problems carry `instance` and no `status`).
    fn is_problem_details(&self, ty: &str) -> bool {
        let Some(TypeOut::Object { fields, .. }) = self.types.get(ty) else {
            return false;
        };
        let has = |name: &str| fields.iter().any(|f| f.wire == name);
        has("type") && (has("status") || has("instance")) && (has("title") || has("detail"))
    }

    /// The dot path of the first field of error type `ty` named like one of `names`: at the
    /// top, else in an object field (`error.code`) or in the first element of a list of
    /// objects (`errors.0.message`), nearest first, down to [`MAX_ERROR_DEPTH`] levels
    /// (Infobip's `requestError.serviceException.text`).
    /// Whether the top-level field `path` of error type `ty` is described as present on
    /// server errors only (Novu's `errorId`: "only available for 500"): no code of the other
    /// errors.
    fn only_on_server_errors(&self, ty: &str, path: &str) -> bool {
        let Some(TypeOut::Object { fields, .. }) = self.types.get(ty) else {
            return false;
        };
        fields
            .iter()
            .find(|f| f.wire == path)
            .and_then(|f| f.doc.as_deref())
            .map(str::to_ascii_lowercase)
            .is_some_and(|doc| {
                doc.contains("only")
                    && ["500", "5xx", "server error"]
                        .iter()
                        .any(|w| doc.contains(w))
            })
    }

    pub(super) fn error_field_path(&self, ty: &str, names: &[&str]) -> Option<String> {
        let fields_of = |ty: &str| match self.types.get(ty) {
            Some(TypeOut::Object { fields, .. }) => Some(fields),
            _ => None,
        };
        // A code or message is text (or a number): `error: {code, message}` is not a code.
        // A union that may be text is one too (Novu's `message`: one of a string, a number,
        // a boolean, an object or a list; the client reads it when it is text or a number).
        let plain = |ty: &str| matches!(ty, "string" | "integer" | "number" | "boolean" | "json");
        let scalar = |f: &FieldOut| {
            plain(&f.ty)
                || match self.types.get(&f.ty) {
                    Some(TypeOut::Enum { .. }) => true,
                    Some(TypeOut::Union { variants, .. }) => {
                        variants.iter().any(|v| v.ty.as_deref().is_some_and(plain))
                    }
                    _ => false,
                }
        };
        let named = |fields: &Vec<FieldOut>| {
            names.iter().find_map(|n| {
                fields
                    .iter()
                    .find(|f| f.wire.eq_ignore_ascii_case(n) && scalar(f))
                    .map(|f| f.wire.clone())
            })
        };
        // Breadth first: (the dot path to an object, its type), one level at a time.
        let mut level = vec![(String::new(), ty.to_owned())];
        for _ in 0..=MAX_ERROR_DEPTH {
            let mut next = Vec::new();
            for (prefix, ty) in &level {
                let Some(fields) = fields_of(ty) else {
                    continue;
                };
                if let Some(found) = named(fields) {
                    return Some(format!("{prefix}{found}"));
                }
                // A wire name with a dot cannot be a step of a dot path.
                for f in fields.iter().filter(|f| !f.wire.contains('.')) {
                    let (inner, index) =
                        match f.ty.strip_prefix("list<").and_then(|t| t.strip_suffix('>')) {
                            Some(inner) => (inner, ".0"),
                            None => (f.ty.as_str(), ""),
                        };
                    if fields_of(inner).is_some() {
                        next.push((format!("{prefix}{}{index}.", f.wire), inner.to_owned()));
                    }
                }
            }
            level = next;
        }
        None
    }
}
