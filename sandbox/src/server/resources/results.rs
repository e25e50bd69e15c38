//! What an answer says of how the operation went: an action's flags of success (`sent`),
//! its result code (Vonage's `status: "0"`), an error's flags of failure.

use serde_json::Value;

use super::names::plain;
use super::{FieldSchema, ServiceSchema, Ty, fill};

/// `answer`, an action's answer of type `ty`, with `true` in each yes/no field it lacks that
/// says what an action does (`sent`, `queued`, `deleted`; see [`fill::RESULT_FLAGS`]): an
/// action stores nothing, so its answer is its result, not an item's state.
pub(super) fn result_flags(schema: &ServiceSchema, ty: &Ty, answer: &mut Value) {
    let (Some(fields), Value::Object(map)) = (schema.object_fields(ty), answer) else {
        return;
    };
    for f in fields
        .iter()
        .filter(|f| f.ty == Ty::Boolean && f.default.is_none())
    {
        if fill::RESULT_FLAGS.contains(&plain(f.name).as_str()) {
            map.entry(f.name.to_owned()).or_insert(Value::Bool(true));
        }
    }
    // A result code that the document shows as success (Vonage's start and cancel answer
    // `status: "0"`, its numbers' buy `error-code: "200"`, which its clients read before
    // anything else); not where the answer tells an error (a wrong code's `error_text`).
    let failed = map.keys().any(|k| k.to_ascii_lowercase().contains("error"));
    if failed {
        return;
    }
    for f in fields
        .iter()
        .filter(|f| RESULT_CODES.contains(&plain(f.name).as_str()))
    {
        if let Some(code) = code_shown(f) {
            map.entry(f.name.to_owned())
                .or_insert_with(|| Value::from(code));
        }
    }
}

/// Names (in lower case without separators) of an answer's field that tells how the call
/// went by a code: Vonage's `status` (`"0"`) and `error-code` (`"200"`).
const RESULT_CODES: &[&str] = &["status", "errorcode", "statuscode", "resultcode"];

/// The code a text field shows in its example, when it is one: all digits (Vonage's `"0"`),
/// not a word of an item's state (`pending`).
fn code_shown(f: &FieldSchema) -> Option<&'static str> {
    (f.ty == Ty::String)
        .then_some(f.example?)
        .map(|e| e.trim_matches('"'))
        .filter(|e| !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit()))
}

/// The result code an answer's `status` text field shows in its example (see [`code_shown`]).
pub(super) fn result_code(fields: &[FieldSchema]) -> Option<&'static str> {
    code_shown(fields.iter().find(|f| f.name == "status")?)
}

/// `error`, an error answer of type `ty`, with `false` in each yes/no field it lacks that
/// would say the operation went well (Loops' failure answer `{"success": false, ...}`), before
/// the rest is made up.
pub fn failure_flags(schema: &ServiceSchema, ty: &Ty, error: &mut Value) {
    let (Some(fields), Value::Object(map)) = (schema.object_fields(ty), error) else {
        return;
    };
    for f in fields.iter().filter(|f| f.ty == Ty::Boolean) {
        if fill::made_up_flag(Some(f)) && f.default.is_none() {
            map.entry(f.name.to_owned()).or_insert(Value::Bool(false));
        }
    }
}
