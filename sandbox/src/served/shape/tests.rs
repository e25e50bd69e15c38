//! The error shapes' own rules, one at a time.

use super::*;

/// Telnyx's errors said `"title": "title"` and Mandrill's `"status": "status"`: text made
/// up as its field's name. It says the status's reason, or `error` for a status.
#[test]
fn no_error_field_says_its_own_name() {
    let mut filled = serde_json::json!({
        "errors": [{"code": "not_found", "title": "title", "detail": "`/x` does not exist"}],
        "status": "status",
        "name": "name",
        "path": "path"
    });
    let Value::Object(map) = &mut filled else {
        unreachable!()
    };
    the_status_in(map, &Value::Null, axum::http::StatusCode::NOT_FOUND, "/x");
    assert_eq!(
        filled,
        serde_json::json!({
            "errors": [{"code": "not_found", "title": "Not Found", "detail": "`/x` does not exist"}],
            "status": "error",
            "name": "Not Found",
            "path": "/x"
        })
    );
}

/// Slack's 404 of a cursor it never handed out answered `missing_scope`, its enum's first
/// value, telling the client its token lacked a scope.
#[test]
fn a_refusal_the_enum_has_no_word_for_is_an_invalid_one_not_the_first() {
    use axum::http::StatusCode;
    let slack = [
        "missing_scope",
        "not_authed",
        "invalid_auth",
        "invalid_arg_name",
    ];
    assert_eq!(
        enum_code(&slack, "not_found", StatusCode::NOT_FOUND),
        "invalid_arg_name"
    );
    assert_eq!(
        enum_code(&slack, "unauthorized", StatusCode::UNAUTHORIZED),
        "not_authed"
    );
    let none_invalid = ["missing_scope", "ratelimited"];
    assert_eq!(
        enum_code(&none_invalid, "not_found", StatusCode::NOT_FOUND),
        "missing_scope"
    );
}
