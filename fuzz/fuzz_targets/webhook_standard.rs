//! Standard Webhooks (email and messaging): verification and event decoding.
//!
//! Input without a NUL byte: it is the body, signed correctly now, so it must pass
//! verification and reach the typed decoders of both services (`EmailEvent`,
//! `MessagingEvent`); only a decode error is allowed. Input with NUL bytes:
//! `secret\0id\0timestamp\0signature\0body`, all attacker-chosen, so verification must fail
//! cleanly or pass. Never a panic.
#![no_main]

use tidings_runtime::ErrorKind;
use tidings_runtime::reqwest::header::{HeaderMap, HeaderValue};
use tidings_runtime::webhook::{StandardWebhooks, decode_event};
use libfuzzer_sys::fuzz_target;

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

fn headers(id: &[u8], timestamp: &[u8], signature: &[u8]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (name, value) in [
        ("webhook-id", id),
        ("webhook-timestamp", timestamp),
        ("webhook-signature", signature),
    ] {
        if let Ok(v) = HeaderValue::from_bytes(value) {
            h.insert(name, v);
        }
    }
    h
}

fn check_both(secret: &str, h: &HeaderMap, body: &[u8], signed: bool) {
    for result in [
        tidings::email::verify_webhook(secret, h, body).map(|e| format!("{e:?}")),
        tidings::messaging::verify_webhook(secret, h, body).map(|e| format!("{e:?}")),
    ] {
        if let Err(e) = result {
            let _ = (e.to_string(), format!("{e:?}"));
            if signed {
                assert_eq!(e.kind(), ErrorKind::Decode, "a signed body failed: {e}");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if !data.contains(&0) {
        let verifier = StandardWebhooks::new(SECRET).expect("test secret");
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        let signature = verifier.sign("msg_fuzz", now, data);
        let h = headers(
            b"msg_fuzz",
            now.to_string().as_bytes(),
            signature.as_bytes(),
        );
        verifier
            .verify_at(&h, data, now)
            .expect("own signature verifies");
        check_both(SECRET, &h, data, true);
        let _ = decode_event::<tidings::email::EmailEvent>(data);
        let _ = decode_event::<tidings::messaging::MessagingEvent>(data);
        return;
    }
    let mut parts = data.splitn(5, |&b| b == 0);
    let secret = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let id = parts.next().unwrap_or_default();
    let timestamp = parts.next().unwrap_or_default();
    let signature = parts.next().unwrap_or_default();
    let body = parts.next().unwrap_or_default();
    let h = headers(id, timestamp, signature);
    if let Ok(verifier) = StandardWebhooks::new(&secret) {
        let _ = format!("{verifier:?}");
        for now in [0, 1_614_265_330, i64::MAX, i64::MIN] {
            let _ = verifier.verify_at(&h, body, now);
        }
        let _ = verifier.sign(&String::from_utf8_lossy(id), i64::MIN, body);
    }
    check_both(&secret, &h, body, false);
});
