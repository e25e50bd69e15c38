//! A check of a code (Twilio Verify's `POST /v2/Services/{sid}/VerificationCheck {To, Code}`):
//! an action whose body sends a code and whose answer says whether it was right (`valid`,
//! `status`). It answers about the item its body names in a collection beside it (the
//! verification started at `…/Verifications`), by id or by another of the item's values
//! (`To`), the newest that fits; 404 when none is held. It answered the body back, neither
//! right nor wrong, so a client could neither pass nor fail a user.
//!
//! The sandbox's right code: the code the item was started with (its `CustomCode`), else the
//! digits counting up from 1, as long as the code sent and at least four (`1234`, `123456`).
//! Right, the answer and the item say `approved` (and `valid: true`); wrong, `valid: false`
//! and the item's status as it is (`pending` when it has none).

use serde_json::{Map, Value};

use super::names::plain;
use super::{ResourceCall, ResourceOp, ServerError, ServiceSchema, ShapeSchema, State, Ty};

/// Names of a body field that sends the code to check, in lower case without separators.
const CODE_NAMES: &[&str] = &["code", "otp", "pin", "passcode", "verificationcode"];

/// The status of an item whose code was right, and of one still waiting for it.
const APPROVED: &str = "approved";
const PENDING: &str = "pending";

/// The digits a right code counts through, from its start.
const COUNTING: &str = "12345678901234567890";

/// Shortest code the counting digits make.
const MIN_CODE: usize = 4;

/// What a check of a code changes: the item checked (its collection, id and new value, to keep
/// when the code was right) and the answer.
pub(super) struct Checked {
    pub(super) kept: Option<(String, String, Map<String, Value>)>,
    pub(super) answer: Map<String, Value>,
}

/// The check `op` (an action on `collection`, or on its item `item_id`: Twilio's check is a
/// word after the service, `/v2/Services/{sid}/VerificationCheck`) makes of the code `body`
/// sends, when it is one: `None` for any other action, or one whose body names nothing but
/// the code.
pub(super) fn code_check(
    state: &State,
    schema: &ServiceSchema,
    op: &ResourceOp,
    (collection, item_id): (&str, Option<&str>),
    (call, body): (&ResourceCall, &Map<String, Value>),
) -> Option<Result<Checked, ServerError>> {
    let answered = schema.object_fields(op.response.as_ref()?)?;
    let says = |name: &str, ty: Ty| answered.iter().any(|f| f.name == name && f.ty == ty);
    // A check by what it answers (`valid`), or by its name and a `status` (a coupon's redeem
    // `{code}` answering `{status}` is no check).
    let named_a_check = ["check", "verif"].iter().any(|w| op.name.contains(w));
    if !(says("valid", Ty::Boolean) || (named_a_check && says("status", Ty::String))) {
        return None;
    }
    let (code_key, code) = body.iter().find_map(|(k, v)| {
        CODE_NAMES
            .contains(&plain(k).as_str())
            .then_some((k, v.as_str()?))
    })?;
    let named: Vec<(&String, &str)> = body
        .iter()
        .filter(|(k, _)| *k != code_key)
        .filter_map(|(k, v)| Some((k, v.as_str()?)))
        .collect();
    if named.is_empty() {
        return None;
    }
    // The collections beside the action's, under the same parent (the item it acts on).
    let parent = match item_id {
        Some(id) => format!("{collection}/{id}"),
        None => collection
            .rsplit_once('/')
            .map_or("", |(p, _)| p)
            .to_owned(),
    };
    let parent = parent.as_str();
    let beside = |key: &str| {
        key != collection
            && key
                .strip_prefix(parent)
                .and_then(|rest| rest.strip_prefix('/'))
                .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
    };
    let fits = |id: &str, value: &Map<String, Value>| {
        named.iter().any(|(key, sent)| {
            id == *sent
                || value
                    .iter()
                    .any(|(field, held)| held.as_str() == Some(*sent) && plain(field) == plain(key))
        })
    };
    let found = state
        .collections
        .iter()
        .filter(|(key, _)| beside(key))
        .flat_map(|(key, items)| items.iter().map(move |i| (key, i)))
        .filter(|(_, i)| fits(&i.id, &i.value))
        .last()
        .map(|(key, i)| (key.as_str(), i))
        // Or what a start made and the body names by that id (Vonage Verify's `request_id`),
        // wherever it is kept.
        .or_else(|| super::started::named(state, call)?.ok());
    let Some((held_in, item)) = found else {
        let names: Vec<String> = named.iter().map(|(k, v)| format!("`{k}` `{v}`")).collect();
        return Some(Err(ServerError::new(
            404,
            "not_found",
            format!(
                "nothing under `{parent}` to check: no item has {}",
                names.join(" or ")
            ),
        )));
    };
    let custom = item
        .value
        .iter()
        .find(|(k, _)| plain(k) == "customcode")
        .and_then(|(_, v)| v.as_str());
    let right = match custom {
        Some(custom) => custom == code,
        None => code.len() >= MIN_CODE && COUNTING.get(..code.len()) == Some(code),
    };
    // A `status` that is a result code (Vonage's `"0"`, its example), not the item's state.
    let result_code = super::results::result_code(answered);
    let mut value = item.value.clone();
    let kept = right.then(|| {
        if result_code.is_none() || value.contains_key("status") {
            value.insert("status".to_owned(), Value::from(APPROVED));
        }
        if value.contains_key("valid") {
            value.insert("valid".to_owned(), Value::Bool(true));
        }
        super::fill::stamp_last_change(schema, op.response.as_ref(), &mut value);
        (held_in.to_owned(), item.id.clone(), value.clone())
    });
    let mut answer = value;
    if says("valid", Ty::Boolean) {
        answer.insert("valid".to_owned(), Value::Bool(right));
    }
    match result_code {
        // Right, the code of success; wrong, the error the document shows (its `error_text`),
        // never that code.
        Some(code) if right => {
            answer.insert("status".to_owned(), Value::from(code));
        }
        Some(_) => {
            answer.remove("status");
            answer.extend(error_shown(schema, op.response.as_ref()));
        }
        None if says("status", Ty::String) => {
            answer
                .entry("status")
                .or_insert_with(|| Value::from(PENDING));
        }
        None => {}
    }
    Some(Ok(Checked { kept, answer }))
}

/// The text fields an answer's error variant shows in its examples (Vonage's check answers
/// success or `checkErrorResponse`, whose `error_text` is "The code inserted does not match
/// the expected value"), but its status and ids.
fn error_shown(schema: &ServiceSchema, ty: Option<&Ty>) -> Map<String, Value> {
    let Some(Ty::Named(name)) = ty else {
        return Map::new();
    };
    let Some(ShapeSchema::Untagged(variants)) = schema.named(name).map(|t| t.shape) else {
        return Map::new();
    };
    let error = variants.iter().find_map(|v| match v {
        Ty::Named(v) if v.to_ascii_lowercase().contains("error") => {
            schema.object_fields(&Ty::Named(*v))
        }
        _ => None,
    });
    error
        .unwrap_or_default()
        .iter()
        .filter(|f| f.ty == Ty::String && f.name != "status" && !tidings_spec::id_like(f.name))
        .filter_map(|f| Some((f.name.to_owned(), Value::from(f.example?.trim_matches('"')))))
        .collect()
}
