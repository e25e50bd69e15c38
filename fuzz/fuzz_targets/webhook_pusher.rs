//! Pusher webhooks (realtime): `X-Pusher-Signature` verification and `WebhookBody` decoding.
//!
//! Input without a NUL byte: it is the body, signed correctly, so verification must pass and
//! only a decode error is allowed. Input with NUL bytes: `secret\0signature\0key\0body`, all
//! attacker-chosen. Never a panic.
#![no_main]

use tidings::pusher;
use tidings_runtime::ErrorKind;
use tidings_runtime::reqwest::header::{HeaderMap, HeaderValue};
use tidings_runtime::webhook::{sign_pusher, verify_pusher};
use libfuzzer_sys::fuzz_target;

const KEY: &str = "app-key";
const SECRET: &str = "app-secret";

fn headers(key: &[u8], signature: &[u8]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (name, value) in [("x-pusher-key", key), ("x-pusher-signature", signature)] {
        if let Ok(v) = HeaderValue::from_bytes(value) {
            h.insert(name, v);
        }
    }
    h
}

fuzz_target!(|data: &[u8]| {
    if !data.contains(&0) {
        let signature = sign_pusher(SECRET, data);
        verify_pusher(SECRET, &signature, data).expect("own signature verifies");
        let h = headers(KEY.as_bytes(), signature.as_bytes());
        for result in [
            tidings::realtime::verify_webhook(SECRET, &signature, data),
            pusher::verify_webhook(Some(KEY), SECRET, &h, data),
            pusher::verify_webhook(None, SECRET, &h, data),
        ] {
            match result {
                Ok(body) => {
                    let _ = format!("{body:?}");
                }
                Err(e) => {
                    let _ = (e.to_string(), format!("{e:?}"));
                    assert_eq!(e.kind(), ErrorKind::Decode, "a signed body failed: {e}");
                }
            }
        }
        return;
    }
    let mut parts = data.splitn(4, |&b| b == 0);
    let secret = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let signature = parts.next().unwrap_or_default();
    let key = parts.next().unwrap_or_default();
    let body = parts.next().unwrap_or_default();
    let _ = verify_pusher(&secret, &String::from_utf8_lossy(signature), body);
    let h = headers(key, signature);
    for result in [
        pusher::verify_webhook(Some(KEY), &secret, &h, body),
        pusher::verify_webhook(None, &secret, &h, body),
    ] {
        if let Err(e) = result {
            let _ = (e.to_string(), format!("{e:?}"));
        }
    }
});
