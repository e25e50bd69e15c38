use super::*;

#[test]
fn display_of_every_variant_and_source() {
    use std::error::Error as _;
    let api = || {
        Box::new(ApiError::from_response(
            400,
            Some("req_1"),
            b"{\"error\":{\"code\":\"bad\",\"message\":\"no\"}}",
        ))
    };
    let cases: Vec<(Error, &str)> = vec![
        (
            Error::invalid_request("to", "is empty"),
            "invalid request: `to`: is empty",
        ),
        (
            Error::Auth(api()),
            "authentication failed: HTTP 400 bad: no [request id req_1]",
        ),
        (
            Error::RateLimited {
                retry_after: Some(Duration::from_secs(2)),
                api: Some(api()),
                context: None,
            },
            "rate limited (retry after 2s): HTTP 400 bad: no [request id req_1]",
        ),
        (
            Error::RateLimited {
                retry_after: None,
                api: None,
                context: None,
            },
            "rate limited",
        ),
        (Error::Api(api()), "HTTP 400 bad: no [request id req_1]"),
        (
            Error::Timeout {
                kind: TimeoutKind::Attempt,
                after: Duration::from_millis(1500),
                context: None,
            },
            "attempt timed out after 1.5s",
        ),
        (
            Error::Transport {
                message: "reset".into(),
                connect: false,
                source: None,
                context: None,
            },
            "transport error: reset",
        ),
        (
            Error::Webhook(WebhookFailure::MissingHeader("webhook-id")),
            "webhook verification failed: missing header `webhook-id`",
        ),
        (
            Error::Webhook(WebhookFailure::InvalidSecret),
            "webhook verification failed: invalid signing secret",
        ),
        (
            Error::Webhook(WebhookFailure::InvalidTimestamp),
            "webhook verification failed: invalid timestamp",
        ),
        (
            Error::Webhook(WebhookFailure::TimestampOutOfTolerance),
            "webhook verification failed: timestamp outside the tolerance",
        ),
        (
            Error::Webhook(WebhookFailure::SignatureMismatch),
            "webhook verification failed: no matching signature",
        ),
        (
            Error::config("no base URL"),
            "configuration error: no base URL",
        ),
    ];
    for (err, expected) in cases {
        assert_eq!(err.to_string(), expected);
        assert!(err.source().is_none(), "{expected}");
    }
    let decode = Error::decode("expected a string", b"{}");
    assert_eq!(decode.to_string(), decode_message(&decode));
}

fn decode_message(err: &Error) -> String {
    match err {
        Error::Decode(inner) => inner.to_string(),
        other => panic!("not a decode error: {other:?}"),
    }
}

#[tokio::test]
async fn transport_errors_keep_their_source() {
    use std::error::Error as _;
    // Nothing listens on port 1 of the loopback address: the connection is refused.
    let err = reqwest::Client::new()
        .get("http://127.0.0.1:1/")
        .send()
        .await
        .unwrap_err();
    let err = Error::transport(err);
    assert!(err.to_string().starts_with("transport error: "), "{err}");
    assert!(err.source().is_some());
}

#[test]
fn excerpt_cuts_on_char_boundary() {
    let body = "é".repeat(400); // 800 bytes
    let ex = excerpt(body.as_bytes());
    assert!(ex.ends_with('…'));
    assert_eq!(ex.trim_end_matches('…').len(), 512);
    let body = format!("a{}", "é".repeat(400)); // boundary falls inside a char
    let ex = excerpt(body.as_bytes());
    assert_eq!(ex.trim_end_matches('…').len(), 511);
    assert_eq!(excerpt(b"short"), "short");
}

#[test]
fn api_error_parses_envelope_and_falls_back_to_header_request_id() {
    let body = br#"{"error":{"code":"validation_error","message":"bad to","param":"to"}}"#;
    let api = ApiError::from_response(422, Some("req_h"), body);
    assert_eq!(api.code.as_deref(), Some("validation_error"));
    assert_eq!(api.param.as_deref(), Some("to"));
    assert_eq!(api.request_id.as_deref(), Some("req_h"));
    let body = br#"{"error":{"code":"x","message":"m","request_id":"req_b"}}"#;
    assert_eq!(
        ApiError::from_response(500, Some("req_h"), body)
            .request_id
            .as_deref(),
        Some("req_b")
    );
}

#[test]
fn paths_read_objects_arrays_and_stop_at_anything_else() {
    let body = serde_json::json!([{"code": 7, "ok": true, "detail": {"message": "m"}}]);
    assert_eq!(json_at(&body, "0.code"), Some(&serde_json::json!(7)));
    assert_eq!(
        json_at(&body, "0.detail.message"),
        Some(&serde_json::json!("m"))
    );
    for missing in [
        "1.code",
        "code",
        "0.code.deeper",
        "0.x",
        "-1.code",
        "0..code",
        "",
    ] {
        assert_eq!(json_at(&body, missing), None, "{missing}");
    }
    assert_eq!(
        scalar_text(&serde_json::json!(true)).as_deref(),
        Some("true")
    );
    assert_eq!(scalar_text(&serde_json::json!(1.5)).as_deref(), Some("1.5"));
    assert_eq!(scalar_text(&serde_json::json!(null)), None);
    assert_eq!(scalar_text(&serde_json::json!({"a": 1})), None);
}

#[test]
fn a_spec_without_code_or_message_paths_reads_neither() {
    let spec = crate::spec::ErrorSpec {
        code: None,
        message: Some("detail"),
        in_success: None,
    };
    let api = ApiError::from_body(400, None, br#"{"error":{"code":"x"},"detail":"d"}"#, &spec);
    assert_eq!((api.code, api.message.as_deref()), (None, Some("d")));
    // An object where the code should be is not a code.
    let spec = crate::spec::ErrorSpec {
        code: Some("error"),
        message: None,
        in_success: None,
    };
    let api = ApiError::from_body(400, None, br#"{"error":{"code":"x"}}"#, &spec);
    assert_eq!(api.code, None);
    assert!(api.body.is_some());
}

#[test]
fn numeric_codes_are_short_text_and_an_out_of_range_one_is_no_code() {
    let spec = crate::spec::ErrorSpec {
        code: Some("code"),
        message: None,
        in_success: None,
    };
    let big = format!(r#"{{"code": 1{}}}"#, "0".repeat(300));
    let api = ApiError::from_body(400, None, big.as_bytes(), &spec);
    assert!(
        api.code.is_some_and(|c| c.len() <= 32),
        "a float's text is short"
    );
    // Past f64's range the body is not JSON to serde: no code, the excerpt stays.
    let huge = format!(r#"{{"code": {}}}"#, "9".repeat(4000));
    let api = ApiError::from_body(400, None, huge.as_bytes(), &spec);
    assert_eq!(api.code, None);
    assert!(api.body.is_none() && !api.body_excerpt.is_empty());
}

#[test]
fn api_error_survives_html() {
    let api = ApiError::from_response(502, None, b"<html><body>Bad gateway</body></html>");
    assert_eq!(api.code, None);
    assert!(api.body_excerpt.contains("Bad gateway"));
    assert!(api.to_string().contains("Bad gateway"));
}

#[test]
fn a_50_mb_error_message_is_kept_and_displayed_bounded() {
    let huge = "x".repeat(50 * 1024 * 1024);
    let long = "y".repeat(1024 * 1024);
    let body = format!(
        r#"{{"error":{{"code":"{long}","message":"{huge}","param":"{long}","request_id":"{long}"}}}}"#
    );
    let api = ApiError::from_response(400, None, body.as_bytes());
    let ellipsis = '…'.len_utf8();
    assert!(
        api.message
            .as_ref()
            .is_some_and(|m| m.len() <= MESSAGE_LIMIT + ellipsis)
    );
    assert!(
        api.code
            .as_ref()
            .is_some_and(|c| c.len() <= CODE_LIMIT + ellipsis)
    );
    assert!(
        api.param
            .as_ref()
            .is_some_and(|p| p.len() <= ID_LIMIT + ellipsis)
    );
    assert!(
        api.request_id
            .as_ref()
            .is_some_and(|r| r.len() <= ID_LIMIT + ellipsis)
    );
    let shown = Error::Api(Box::new(api)).to_string();
    assert!(shown.len() < 4 * 1024, "{} bytes", shown.len());
    assert!(shown.contains("xxx…") && shown.contains("yyy…"));
}

#[test]
fn control_characters_from_the_server_are_escaped() {
    let body = serde_json::json!({"error": {
        "code": "bad\r\nX-Forged: 1",
        "message": "line one\nINFO forged line\r\n\u{1b}[31mred\u{1b}[0m \u{85}nel \u{2028}ls \u{202e}rtl\ttab",
        "param": "to\n",
        "request_id": "req\r\n",
    }})
    .to_string();
    let api = ApiError::from_response(400, None, body.as_bytes());
    let shown = api.to_string();
    for c in ['\r', '\n', '\u{1b}', '\u{85}', '\u{2028}', '\u{202e}', '\t'] {
        assert!(!shown.contains(c), "{c:?} in {shown:?}");
    }
    assert_eq!(
        api.message.as_deref(),
        Some(
            "line one\\nINFO forged line\\r\\n\\u{1b}[31mred\\u{1b}[0m \\u{85}nel \\u{2028}ls \\u{202e}rtl\\ttab"
        )
    );
    assert_eq!(api.code.as_deref(), Some("bad\\r\\nX-Forged: 1"));
    assert_eq!(api.request_id.as_deref(), Some("req\\r\\n"));
    // A header request id and an HTML excerpt are escaped too.
    let api = ApiError::from_response(502, Some("id\u{7f}"), b"<p>\r\nfake</p>");
    assert_eq!(api.request_id.as_deref(), Some("id\\u{7f}"));
    assert!(api.to_string().contains("<p>\\r\\nfake</p>"), "{api}");
}

#[test]
fn escaping_never_splits_a_character_or_an_escape() {
    // Each `\u{1b}` is 6 bytes: a limit of 8 holds one and the rest is cut.
    assert_eq!(bounded_text("\u{1b}\u{1b}", 8), "\\u{1b}…");
    assert_eq!(bounded_text("éé", 3), "é…");
    assert_eq!(bounded_text("plain", 5), "plain");
    assert_eq!(bounded_text("plain!", 5), "plain…");
    assert_eq!(bounded_text("\u{9f}", 6), "\\u{9f}");
    assert_eq!(bounded_text("\u{9f}", 5), "…");
    assert_eq!(bounded_text("a\u{202e}", 9), "a\\u{202e}");
}

#[test]
fn too_large_displays_the_operation_and_the_limit_and_is_not_retryable() {
    let err = Error::ResponseTooLarge(Box::new(TooLarge {
        service: "email",
        operation: "get_email",
        status: 200,
        limit: 1024,
        declared: Some(5_000_000_000),
        request_id: Some("req_1".into()),
    }));
    assert_eq!(err.kind(), ErrorKind::ResponseTooLarge);
    assert_eq!(err.status(), Some(200));
    assert_eq!(err.request_id(), Some("req_1"));
    assert!(!err.is_retryable());
    assert_eq!(
        err.to_string(),
        "response to email.get_email (HTTP 200) too large: it declares 5000000000 bytes, \
         over the limit of 1024 bytes [request id req_1]"
    );
}

#[test]
fn classification_by_status() {
    let api = |s| ApiError::from_response(s, None, b"");
    assert_eq!(Error::from_status(api(401), None).kind(), ErrorKind::Auth);
    assert_eq!(Error::from_status(api(403), None).kind(), ErrorKind::Auth);
    assert_eq!(
        Error::from_status(api(429), None).kind(),
        ErrorKind::RateLimited
    );
    assert_eq!(Error::from_status(api(413), None).kind(), ErrorKind::Api);
    assert!(Error::from_status(api(503), None).is_retryable());
    assert!(!Error::from_status(api(413), None).is_retryable());
    assert_eq!(Error::from_status(api(413), None).status(), Some(413));
}

#[test]
fn smtp_replies_are_their_own_kind_retried_by_smtp_rules_and_worded_as_smtp() {
    for (code, enhanced, retryable) in [
        (421, Some("4.7.0"), true),
        (451, Some("4.3.0"), true),
        (452, None, true),
        // 500 to 504 are command errors in SMTP, whatever HTTP says of those numbers.
        (500, Some("5.5.2"), false),
        (502, None, false),
        (503, Some("5.5.1"), false),
        (504, None, false),
        (550, Some("5.1.1"), false),
        (554, Some("5.6.0"), false),
    ] {
        let err = Error::Smtp(Box::new(SmtpReply::new(code, enhanced, "the reply text")));
        assert_eq!(err.kind(), ErrorKind::Smtp);
        assert_eq!(err.is_retryable(), retryable, "{code}");
        assert_eq!(err.status(), None, "{code} is not an HTTP status");
        let reply = err.smtp_reply().unwrap();
        assert_eq!((reply.code, reply.enhanced.as_deref()), (code, enhanced));
        let shown = err.to_string();
        assert!(shown.starts_with("SMTP relay refused"), "{shown}");
        assert!(!shown.contains("HTTP"), "{shown}");
        assert!(shown.contains(&code.to_string()), "{shown}");
    }
    let bare = Error::Smtp(Box::new(SmtpReply::new(
        554,
        Some("5.6.0"),
        "Bare <LF>\r\nin the message",
    )));
    assert_eq!(
        bare.to_string(),
        "SMTP relay refused (permanent): 554 5.6.0 Bare <LF>\\r\\nin the message"
    );
    let auth = Error::Smtp(Box::new(SmtpReply::new(535, Some("5.7.8"), "bad")));
    assert!(auth.smtp_reply().unwrap().is_auth_failure());
    assert!(auth.to_string().contains("check the API key"), "{auth}");
}

#[test]
fn debug_is_short_and_readable_and_the_alternate_form_lists_the_details() {
    let body = format!(
        "{{\"error\":{{\"code\":\"not_found\",\"message\":\"no such email\",\"request_id\":\"req_9\",\"detail\":\"{}\"}}}}",
        "x".repeat(2000)
    );
    let err = Error::from_status(ApiError::from_response(404, None, body.as_bytes()), None);
    let debug = format!("{err:?}");
    assert_eq!(
        debug,
        "Api: HTTP 404 not_found: no such email [request id req_9]"
    );
    // What `fn main() -> Result<(), Box<dyn Error>>` prints.
    let boxed: Box<dyn std::error::Error> = Box::new(err);
    assert_eq!(format!("{boxed:?}"), debug);
    let Ok(err) = boxed.downcast::<Error>() else {
        panic!("an Error")
    };
    let pretty = format!("{err:#?}");
    assert!(
        pretty.contains("status: 404") && pretty.contains("\"not_found\""),
        "{pretty}"
    );
    assert!(
        pretty.len() < 700,
        "the body is cut: {} bytes",
        pretty.len()
    );
    for err in [
        Error::config("COMMS_EMAIL_API_KEY is not set"),
        Error::invalid_request("to", "is empty"),
        Error::Smtp(Box::new(SmtpReply::new(550, Some("5.1.1"), "User unknown"))),
    ] {
        let debug = format!("{err:?}");
        assert_eq!(debug, format!("{:?}: {err}", err.kind()));
        assert!(debug.len() < 200, "{debug}");
    }
}

#[test]
fn a_text_answer_is_its_own_message() {
    let api = ApiError::from_response(401, None, b"Forbidden");
    assert_eq!(
        (api.code.as_deref(), api.message.as_deref()),
        (None, Some("Forbidden"))
    );
    let api = ApiError::from_response(401, None, b"\"Forbidden\"");
    assert_eq!(api.message.as_deref(), Some("Forbidden"));
    // Markup, several lines, or a JSON object the paths find nothing in: no message.
    for body in [
        &b"<html><body>Forbidden</body></html>"[..],
        b"line one\nline two",
        b"{\"detail\": \"x\"}",
        b"",
    ] {
        let api = ApiError::from_response(401, None, body);
        assert_eq!(api.message, None, "{}", String::from_utf8_lossy(body));
    }
}
