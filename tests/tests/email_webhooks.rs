//! Email webhooks against an independent implementation: events signed by the Python
//! `standardwebhooks` package verify and decode into the typed `EmailEvent`; tampered bodies,
//! stale timestamps and wrong secrets are refused; and what this crate signs, Python accepts.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::io::Write;
use std::process::{Command, Stdio};

use tidings::email::{BounceType, EmailEvent, SuppressionReason, WebhookEventType, verify_webhook};
use tidings_runtime::reqwest::header::HeaderMap;
use tidings_runtime::{Error, ErrorKind, WebhookFailure};

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const OTHER_SECRET: &str = "whsec_dGhpcyBpcyBub3QgdGhlIHNlY3JldCBrZXkhIQ==";

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// Runs Python with `standardwebhooks`; the body goes through stdin, untouched.
fn python(program: &str, args: &[&str], stdin: &[u8]) -> String {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python failed (scripts/test installs the standardwebhooks package): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// The `webhook-signature` header Python's `standardwebhooks` makes for this body.
fn python_sign(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> String {
    const SIGN: &str = r#"
import sys, datetime
from standardwebhooks.webhooks import Webhook
body = sys.stdin.buffer.read().decode("utf-8")
at = datetime.datetime.fromtimestamp(int(sys.argv[3]), tz=datetime.timezone.utc)
print(Webhook(sys.argv[1]).sign(sys.argv[2], at, body))
"#;
    python(SIGN, &[secret, id, &timestamp.to_string()], body)
}

fn headers(id: &str, timestamp: i64, signature: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert("webhook-id", id.parse().unwrap());
    h.insert("webhook-timestamp", timestamp.to_string().parse().unwrap());
    h.insert("webhook-signature", signature.parse().unwrap());
    h
}

fn signed(body: &[u8]) -> HeaderMap {
    let at = now();
    headers("msg_2Lh9", at, &python_sign(SECRET, "msg_2Lh9", at, body))
}

fn failure(err: Error) -> WebhookFailure {
    match err {
        Error::Webhook(f) => f,
        other => panic!("expected a webhook error, got {other:?}"),
    }
}

#[test]
fn every_event_type_signed_by_python_verifies_and_decodes() {
    let common = r#""email_id":"em_1","from":"Ada <ada@example.com>","to":["grace@example.com"],"subject":"Launch","tags":[{"name":"campaign","value":"launch"}],"created_at":"2026-11-22T10:00:00Z""#;
    let bodies = [
        format!(r#"{{"type":"email.sent","created_at":"2026-11-22T10:00:01Z","data":{{{common}}}}}"#),
        format!(r#"{{"type":"email.delivered","created_at":"2026-11-22T10:00:02Z","data":{{{common}}}}}"#),
        format!(
            r#"{{"type":"email.delivery_delayed","data":{{{common},"diagnostic_code":"smtp; 451 4.7.1 greylisted","next_attempt_at":"2026-11-22T10:05:00Z"}}}}"#
        ),
        format!(
            r#"{{"type":"email.bounced","data":{{{common},"bounce":{{"type":"hard","sub_type":"no_email","diagnostic_code":"smtp; 550 5.1.1 user unknown"}}}}}}"#
        ),
        format!(r#"{{"type":"email.complained","data":{{{common}}}}}"#),
        format!(
            r#"{{"type":"email.opened","data":{{{common},"opened_at":"2026-11-22T11:00:00Z","user_agent":"Mail/1.0","ip_address":"192.0.2.1"}}}}"#
        ),
        format!(
            r#"{{"type":"email.clicked","data":{{{common},"link":"https://example.com/launch?ref=email","clicked_at":"2026-11-22T11:01:00Z"}}}}"#
        ),
        format!(r#"{{"type":"email.unsubscribed","data":{{{common}}}}}"#),
        format!(r#"{{"type":"email.failed","data":{{{common},"reason":"invalid_from_domain"}}}}"#),
        format!(r#"{{"type":"email.suppressed","data":{{{common},"reason":"complaint"}}}}"#),
        format!(r#"{{"type":"email.scheduled","data":{{{common}}}}}"#),
        r#"{"type":"contact.created","data":{"id":"ct_1","email":"grace@example.com","first_name":"Grace","list_ids":["lst_1"],"unsubscribed":false}}"#.to_owned(),
        r#"{"type":"contact.updated","data":{"id":"ct_1","email":"grace@example.com","unsubscribed":true,"updated_at":"2026-11-23T08:00:00Z"}}"#.to_owned(),
        r#"{"type":"contact.deleted","data":{"id":"ct_1","email":"grace@example.com"}}"#.to_owned(),
    ];
    let mut types = Vec::new();
    for body in &bodies {
        let event = verify_webhook(SECRET, &signed(body.as_bytes()), body.as_bytes())
            .unwrap_or_else(|e| panic!("{body}: {e}"));
        assert!(
            !matches!(event, EmailEvent::Unknown(_)),
            "{body} decoded as unknown"
        );
        // The type names a subscription can use are the event's own.
        let subscribable: WebhookEventType = event.event_type().parse().unwrap();
        assert_eq!(subscribable.as_str(), event.event_type());
        assert!(!matches!(subscribable, WebhookEventType::Unknown(_)));
        match &event {
            EmailEvent::EmailBounced(d) => {
                assert_eq!(d.bounce.r#type, BounceType::Hard);
                assert!(d.bounce.is_permanent());
                assert_eq!(d.bounce.sub_type.as_deref(), Some("no_email"));
                assert_eq!(
                    d.bounce.diagnostic_code.as_deref(),
                    Some("smtp; 550 5.1.1 user unknown")
                );
            }
            EmailEvent::EmailClicked(d) => {
                assert_eq!(d.link, "https://example.com/launch?ref=email")
            }
            EmailEvent::EmailDeliveryDelayed(d) => {
                assert_eq!(d.next_attempt_at.as_deref(), Some("2026-11-22T10:05:00Z"))
            }
            EmailEvent::EmailSuppressed(d) => {
                assert_eq!(d.reason, Some(SuppressionReason::Complaint))
            }
            EmailEvent::EmailOpened(d) => assert_eq!(d.user_agent.as_deref(), Some("Mail/1.0")),
            EmailEvent::EmailFailed(d) => {
                assert_eq!(d.reason.as_deref(), Some("invalid_from_domain"))
            }
            EmailEvent::ContactUpdated(d) => assert_eq!(d.unsubscribed, Some(true)),
            _ => {}
        }
        if event.event_type().starts_with("email.") {
            assert_eq!(event.email_id(), Some("em_1"));
        } else {
            assert_eq!(event.email_id(), None);
        }
        // Decoding then encoding gives the event's type and data back.
        let again: serde_json::Value = serde_json::to_value(&event).unwrap();
        let original: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(again["type"], original["type"]);
        assert_eq!(again["data"], original["data"]);
        types.push(event.event_type().to_owned());
    }
    assert_eq!(types.len(), 14);
}

#[test]
fn tampered_bodies_stale_timestamps_and_wrong_secrets_are_refused() {
    let body = br#"{"type":"email.delivered","data":{"email_id":"em_1"}}"#;
    let good = signed(body);
    verify_webhook(SECRET, &good, body).unwrap();

    // One byte changed.
    let tampered = br#"{"type":"email.delivered","data":{"email_id":"em_2"}}"#;
    assert_eq!(
        failure(verify_webhook(SECRET, &good, tampered).unwrap_err()),
        WebhookFailure::SignatureMismatch
    );
    // Whitespace added: the signature covers the raw bytes, not the JSON value.
    let reformatted = br#"{"type": "email.delivered","data":{"email_id":"em_1"}}"#;
    assert_eq!(
        failure(verify_webhook(SECRET, &good, reformatted).unwrap_err()),
        WebhookFailure::SignatureMismatch
    );
    // Another secret.
    assert_eq!(
        failure(verify_webhook(OTHER_SECRET, &good, body).unwrap_err()),
        WebhookFailure::SignatureMismatch
    );
    // A secret that is not `whsec_<base64>`.
    assert_eq!(
        verify_webhook("whsec_***", &good, body).unwrap_err().kind(),
        ErrorKind::Webhook
    );
    // Signed by Python ten minutes ago (outside the 5 minute tolerance), and in the future.
    for skew in [-600, 600] {
        let at = now() + skew;
        let stale = headers("msg_old", at, &python_sign(SECRET, "msg_old", at, body));
        assert_eq!(
            failure(verify_webhook(SECRET, &stale, body).unwrap_err()),
            WebhookFailure::TimestampOutOfTolerance,
            "skew {skew}"
        );
    }
    // The id is signed too.
    let mut other_id = good.clone();
    other_id.insert("webhook-id", "msg_other".parse().unwrap());
    assert_eq!(
        failure(verify_webhook(SECRET, &other_id, body).unwrap_err()),
        WebhookFailure::SignatureMismatch
    );
    // A missing header.
    let mut missing = good.clone();
    missing.remove("webhook-signature");
    assert_eq!(
        failure(verify_webhook(SECRET, &missing, body).unwrap_err()),
        WebhookFailure::MissingHeader("webhook-signature")
    );
}

#[test]
fn a_rotated_secret_verifies_when_any_listed_signature_matches() {
    let body = br#"{"type":"email.opened","data":{"email_id":"em_1"}}"#;
    let at = now();
    let old = python_sign(OTHER_SECRET, "msg_1", at, body);
    let new = python_sign(SECRET, "msg_1", at, body);
    let both = headers("msg_1", at, &format!("{old} {new}"));
    assert!(matches!(
        verify_webhook(SECRET, &both, body).unwrap(),
        EmailEvent::EmailOpened(_)
    ));
}

#[test]
fn a_signed_body_that_is_not_an_event_is_a_decode_error_not_a_panic() {
    for body in [
        &b"<html>502</html>"[..],
        br#"{"type":"email.bounced","data":{"email_id":"em_1"}}"#,
    ] {
        let err = verify_webhook(SECRET, &signed(body), body).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Decode, "{err}");
    }
}

#[test]
fn python_accepts_what_this_crate_signs() {
    let body = br#"{"type":"email.sent","data":{"email_id":"em_1"}}"#;
    let at = now();
    let signature = tidings_runtime::webhook::StandardWebhooks::new(SECRET)
        .unwrap()
        .sign("msg_rs", at, body);
    const VERIFY: &str = r#"
import sys, json
from standardwebhooks.webhooks import Webhook
body = sys.stdin.buffer.read()
headers = {"webhook-id": sys.argv[2], "webhook-timestamp": sys.argv[3], "webhook-signature": sys.argv[4]}
print(json.dumps(Webhook(sys.argv[1]).verify(body, headers)))
"#;
    let out = python(
        VERIFY,
        &[SECRET, "msg_rs", &at.to_string(), &signature],
        body,
    );
    let decoded: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(decoded["data"]["email_id"], "em_1");
}
