//! Filling answers: untagged unions, texts named for what they hold, times in their wire form.

use super::super::fill::{fill, sample_text};
use super::*;
use serde_json::json;

const SCHEMA: ServiceSchema = ServiceSchema {
    types: &[TypeSchema {
        name: "Channels",
        keeps_other_keys: false,
        shape: ShapeSchema::Untagged(&[Ty::List(&Ty::Integer), Ty::String]),
    }],
    page: None,
};

#[test]
fn an_untagged_answer_is_filled_as_the_variant_of_its_kind() {
    let channels = Ty::Named("Channels");
    let fill = |given: Value| fill(&SCHEMA, &channels, Some(&given), 0, None);
    assert_eq!(
        fill(json!([1, "x"])),
        json!([1, 0]),
        "a list, its items made integers"
    );
    assert_eq!(fill(json!("all")), json!("all"));
    // An object fits no variant (an action's empty answer): the first variant, made up.
    assert_eq!(fill(json!({})), json!([]));
}

#[test]
fn a_field_named_as_a_url_is_made_up_a_url() {
    let href = super::field("href", Ty::String, true);
    assert_eq!(
        sample_text(&Ty::String, Some(&href)),
        "https://example.com/"
    );
}

#[test]
fn a_time_is_made_kept_and_rewritten_in_its_wire_form() {
    let field = |format| FieldSchema {
        format: Some(format),
        ..super::field("sent", Ty::DateTime, true)
    };
    let fill = |format, given: Value| {
        fill(
            &SCHEMA,
            &Ty::DateTime,
            Some(&given),
            0,
            Some(&field(format)),
        )
    };
    let rfc2822 = "Wed, 18 Aug 2010 20:01:40 +0000";
    assert_eq!(fill(Format::Rfc2822, json!(rfc2822)), json!(rfc2822));
    // Sent in another form, written in the field's.
    assert_eq!(
        fill(Format::Rfc2822, json!("2010-08-18T20:01:40Z")),
        json!(rfc2822)
    );
    assert_eq!(fill(Format::Unix, json!(rfc2822)), json!(1_282_161_700));
    assert_eq!(
        fill(Format::Rfc3339, json!(rfc2822)),
        json!("2010-08-18T20:01:40Z")
    );
    assert_eq!(
        fill(Format::UnixMs, json!(1_282_161_700_123_i64)),
        json!(1_282_161_700_123_i64)
    );
    // Made up: now, in the field's form.
    let now = super::super::fill::fill(&SCHEMA, &Ty::DateTime, None, 0, Some(&field(Format::Unix)));
    assert!(now.as_i64().is_some_and(|s| s > 1_700_000_000), "{now}");
    let made = super::super::fill::fill(
        &SCHEMA,
        &Ty::DateTime,
        Some(&json!("soon")),
        0,
        Some(&field(Format::Rfc2822)),
    );
    assert!(
        tidings_runtime::dates::rfc2822_to_rfc3339(made.as_str().unwrap()).is_some(),
        "{made}"
    );
}

#[test]
fn one_value_where_the_answer_has_a_list_is_a_list_of_it() {
    // Resend's `to`: sent as `"b@example.com"` (a string or a list, on the way in),
    // answered as a list: the one address, never `[]`.
    let to = Ty::List(&Ty::String);
    let fill = |given: Value| fill(&SCHEMA, &to, Some(&given), 0, None);
    assert_eq!(fill(json!("b@example.com")), json!(["b@example.com"]));
    assert_eq!(fill(json!(["a", "b"])), json!(["a", "b"]));
    // A value of another kind than the items is not one of them: made up (no items).
    assert_eq!(fill(json!({"x": 1})), json!([]));
}

#[test]
fn an_object_given_to_an_untagged_answer_is_filled_as_the_variant_naming_its_keys() {
    // Vonage's verify answers: the error type has every field of the success and more, and
    // comes first; the success sent back is the success, with no error text made up for it.
    const ERROR: &[FieldSchema] = &[
        super::field("request_id", Ty::String, false),
        super::field("status", Ty::String, false),
        super::field("error_text", Ty::String, true),
    ];
    const SUCCESS: &[FieldSchema] = &[
        super::field("request_id", Ty::String, false),
        super::field("status", Ty::String, false),
    ];
    const VERIFY: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Answer",
                keeps_other_keys: false,
                shape: ShapeSchema::Untagged(&[Ty::Named("Error"), Ty::Named("Success")]),
            },
            TypeSchema {
                name: "Error",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(ERROR),
            },
            TypeSchema {
                name: "Success",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(SUCCESS),
            },
        ],
        page: None,
    };
    let answer = Ty::Named("Answer");
    let fill = |given: Value| fill(&VERIFY, &answer, Some(&given), 0, None);
    let success = json!({"request_id": "a1", "status": "0"});
    assert_eq!(fill(success.clone()), success);
    let error = fill(json!({"status": "16", "error_text": "wrong code"}));
    assert_eq!(error["error_text"], "wrong code");
}
