//! Messaging webhooks signed by an independent implementation (the Python `standardwebhooks`
//! package, installed by `scripts/test`) are verified by `tidings::messaging::verify_webhook` and
//! decoded into typed status and inbound events; tampered, stale or wrongly keyed deliveries are
//! rejected.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::json;
use tidings::messaging::{Channel, MessageStatus, MessageType, MessagingEvent, verify_webhook};
use tidings_runtime::ErrorKind;
use tidings_runtime::reqwest::header::{HeaderMap, HeaderValue};

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const OTHER_SECRET: &str = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";

const SIGN: &str = r#"
import sys
from datetime import datetime, timezone
from standardwebhooks.webhooks import Webhook
secret, msg_id, ts = sys.argv[1], sys.argv[2], int(sys.argv[3])
body = sys.stdin.buffer.read().decode("utf-8")
print(Webhook(secret).sign(msg_id, datetime.fromtimestamp(ts, tz=timezone.utc), body))
"#;

fn now() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs(),
    )
    .unwrap()
}

/// The `webhook-signature` value the Python package computes.
fn python_sign(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> String {
    let mut child = Command::new("python3")
        .args(["-c", SIGN, secret, id, &timestamp.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed (scripts/test needs it)");
    child.stdin.take().unwrap().write_all(body).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "signing with the Python standardwebhooks package failed (scripts/test installs it): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn headers(id: &str, timestamp: i64, signature: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert("webhook-id", HeaderValue::from_str(id).unwrap());
    h.insert(
        "webhook-timestamp",
        HeaderValue::from_str(&timestamp.to_string()).unwrap(),
    );
    h.insert(
        "webhook-signature",
        HeaderValue::from_str(signature).unwrap(),
    );
    h
}

fn status_body() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "type": "message.status",
        "message_uuid": "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
        "to": "+447700900123",
        "from": "Acme",
        "channel": "sms",
        "timestamp": "2026-11-22T10:00:05Z",
        "status": "undeliverable",
        "client_ref": "otp-1",
        "error": {"code": "1320", "title": "Unreachable", "detail": "The handset is off."},
        "usage": {"price": "0.0333", "currency": "EUR"},
        "sms": {"segments": 2}
    }))
    .unwrap()
}

#[test]
fn a_status_event_signed_by_python_is_verified_and_typed() {
    let body = status_body();
    let ts = now();
    let sig = python_sign(SECRET, "msg_status_1", ts, &body);
    let event = verify_webhook(SECRET, &headers("msg_status_1", ts, &sig), &body).unwrap();
    let MessagingEvent::Status(status) = event else {
        panic!("expected a status event, got {event:?}");
    };
    assert_eq!(status.status, MessageStatus::Undeliverable);
    assert!(status.status.is_terminal(&status.channel));
    assert_eq!(status.channel, Channel::Sms);
    assert_eq!(status.client_ref.as_deref(), Some("otp-1"));
    assert_eq!(status.error.unwrap().code, "1320");
    assert_eq!(status.usage.unwrap().price, "0.0333");
    assert_eq!(status.sms.unwrap().segments, Some(2));
}

#[test]
fn voice_call_states_arrive_as_typed_statuses() {
    let ts = now();
    for (state, terminal) in [
        ("started", false),
        ("ringing", false),
        ("answered", false),
        ("completed", true),
        ("busy", true),
        ("unanswered", true),
        ("timeout", true),
        ("failed", true),
        ("rejected", true),
        ("cancelled", true),
        ("machine", true),
    ] {
        let body = serde_json::to_vec(&json!({
            "type": "message.status", "message_uuid": "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
            "to": "+447700900123", "from": "+14155550100", "channel": "voice",
            "timestamp": "2026-11-22T10:00:05Z", "status": state
        }))
        .unwrap();
        let sig = python_sign(SECRET, "msg_voice", ts, &body);
        let event = verify_webhook(SECRET, &headers("msg_voice", ts, &sig), &body).unwrap();
        let MessagingEvent::Status(status) = event else {
            panic!("{state}: expected a status event");
        };
        assert!(!status.status.is_unknown(), "{state} is a known status");
        assert_eq!(status.status.as_str(), state);
        assert_eq!(
            status.status.is_terminal(&Channel::Voice),
            terminal,
            "{state}"
        );
    }
}

#[test]
fn an_inbound_whatsapp_image_signed_by_python_is_verified_and_typed() {
    let body = serde_json::to_vec(&json!({
        "type": "message.inbound",
        "message_uuid": "bbbbbbbb-cccc-4ddd-8eee-ffffffffffff",
        "channel": "whatsapp",
        "message_type": "image",
        "from": "+447700900123",
        "to": "+14155550100",
        "timestamp": "2026-11-22T10:01:00Z",
        "image": {"url": "https://example.com/in.jpg", "caption": "Broken part"},
        "profile": {"name": "Ada"},
        "context": {"message_uuid": "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"}
    }))
    .unwrap();
    let ts = now();
    let sig = python_sign(SECRET, "msg_in_1", ts, &body);
    let event = verify_webhook(SECRET, &headers("msg_in_1", ts, &sig), &body).unwrap();
    let MessagingEvent::Inbound(inbound) = event else {
        panic!("expected an inbound event, got {event:?}");
    };
    assert_eq!(
        (inbound.channel, inbound.message_type),
        (Channel::Whatsapp, MessageType::Image)
    );
    let image = inbound.image.unwrap();
    assert_eq!(image.url, "https://example.com/in.jpg");
    assert_eq!(image.caption.as_deref(), Some("Broken part"));
    assert_eq!(inbound.profile.unwrap().name.as_deref(), Some("Ada"));
    assert_eq!(
        inbound.context.unwrap().message_uuid.as_deref(),
        Some("aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee")
    );
}

#[test]
fn a_rotated_secret_list_is_accepted_when_one_signature_matches() {
    let body = status_body();
    let ts = now();
    let old = python_sign(OTHER_SECRET, "msg_rot", ts, &body);
    let new = python_sign(SECRET, "msg_rot", ts, &body);
    let both = format!("{old} {new}");
    verify_webhook(SECRET, &headers("msg_rot", ts, &both), &body).unwrap();
}

#[test]
fn tampered_stale_or_wrongly_keyed_deliveries_are_rejected() {
    let body = status_body();
    let ts = now();
    let sig = python_sign(SECRET, "msg_t", ts, &body);

    // The body changed after signing (the status flipped to delivered).
    let tampered = String::from_utf8(body.clone())
        .unwrap()
        .replace("undeliverable", "delivered")
        .into_bytes();
    let err = verify_webhook(SECRET, &headers("msg_t", ts, &sig), &tampered).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Webhook, "{err}");

    // Another delivery's id, or another timestamp, with this signature.
    for h in [
        headers("msg_other", ts, &sig),
        headers("msg_t", ts + 1, &sig),
    ] {
        let err = verify_webhook(SECRET, &h, &body).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Webhook, "{err}");
    }

    // A flipped signature byte.
    let mut flipped = sig.clone().into_bytes();
    let last = flipped.len() - 2;
    flipped[last] = if flipped[last] == b'A' { b'B' } else { b'A' };
    let flipped = String::from_utf8(flipped).unwrap();
    let err = verify_webhook(SECRET, &headers("msg_t", ts, &flipped), &body).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Webhook, "{err}");

    // Signed with another secret.
    let other = python_sign(OTHER_SECRET, "msg_t", ts, &body);
    let err = verify_webhook(SECRET, &headers("msg_t", ts, &other), &body).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Webhook, "{err}");

    // Correctly signed, but ten minutes old (tolerance is five).
    let stale_ts = ts - 600;
    let stale = python_sign(SECRET, "msg_t", stale_ts, &body);
    let err = verify_webhook(SECRET, &headers("msg_t", stale_ts, &stale), &body).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Webhook, "{err}");

    // Headers missing altogether.
    let err = verify_webhook(SECRET, &HeaderMap::new(), &body).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Webhook, "{err}");
}

#[test]
fn a_signed_body_that_is_not_an_event_is_a_decode_error_not_a_panic() {
    let ts = now();
    for body in [
        &b"not json"[..],
        br#"{"type":"message.status","status":42}"#,
    ] {
        let sig = python_sign(SECRET, "msg_bad", ts, body);
        let err = verify_webhook(SECRET, &headers("msg_bad", ts, &sig), body).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Decode, "{err}");
    }
    // An event type this version does not know is kept whole.
    let body = br#"{"type":"message.reaction","emoji":"+1"}"#;
    let sig = python_sign(SECRET, "msg_new", ts, body);
    let event = verify_webhook(SECRET, &headers("msg_new", ts, &sig), body).unwrap();
    assert!(matches!(event, MessagingEvent::Unknown(v) if v["emoji"] == "+1"));
}
