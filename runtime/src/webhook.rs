//! Webhook verification on raw body bytes: Standard Webhooks (the email and messaging
//! services) and Pusher (`X-Pusher-Signature`), plus [`decode_event`] for typed payloads.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, Mac};
use reqwest::header::HeaderMap;
use serde::de::DeserializeOwned;
use sha2::Sha256;

use crate::Error;
use crate::error::{DecodeError, WebhookFailure};
use crate::secret::Secret;
use crate::sign::hmac_sha256;

type HmacSha256 = Hmac<Sha256>;

/// Default tolerance between the sender's timestamp and our clock, in both directions.
pub const DEFAULT_TOLERANCE: Duration = Duration::from_secs(5 * 60);

/// Verifies [Standard Webhooks](https://www.standardwebhooks.com/) signatures: headers
/// `webhook-id`, `webhook-timestamp`, `webhook-signature` (`svix-*` accepted too), HMAC-SHA256
/// over `{id}.{timestamp}.{body}` keyed by the base64 part of `whsec_...`.
///
/// ```
/// use comms_runtime::webhook::StandardWebhooks;
/// use reqwest::header::{HeaderMap, HeaderValue};
///
/// let verifier = StandardWebhooks::new("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")?;
/// let body = br#"{"type":"email.sent"}"#;
/// let now = 1_700_000_000;
/// let mut headers = HeaderMap::new();
/// headers.insert("webhook-id", HeaderValue::from_static("msg_1"));
/// headers.insert("webhook-timestamp", HeaderValue::from_str(&now.to_string()).unwrap());
/// headers.insert("webhook-signature", HeaderValue::from_str(&verifier.sign("msg_1", now, body)).unwrap());
/// verifier.verify_at(&headers, body, now)?;
/// # Ok::<(), comms_runtime::Error>(())
/// ```
#[derive(Clone)]
pub struct StandardWebhooks {
    key: Secret,
    key_bytes: std::sync::Arc<[u8]>,
    tolerance: Duration,
}

impl fmt::Debug for StandardWebhooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StandardWebhooks")
            .field("key", &self.key)
            .field("tolerance", &self.tolerance)
            .finish()
    }
}

impl StandardWebhooks {
    /// From a `whsec_<base64>` secret (the prefix is optional).
    pub fn new(secret: &str) -> Result<Self, Error> {
        let encoded = secret.trim();
        let encoded = encoded.strip_prefix("whsec_").unwrap_or(encoded);
        let key = BASE64
            .decode(encoded)
            .map_err(|_| Error::Webhook(WebhookFailure::InvalidSecret))?;
        if key.is_empty() {
            return Err(Error::Webhook(WebhookFailure::InvalidSecret));
        }
        Ok(StandardWebhooks {
            key: Secret::new(secret),
            key_bytes: key.into(),
            tolerance: DEFAULT_TOLERANCE,
        })
    }

    /// From raw key bytes.
    pub fn from_bytes(key: &[u8]) -> Self {
        StandardWebhooks {
            key: Secret::new(format!("whsec_{}", BASE64.encode(key))),
            key_bytes: key.into(),
            tolerance: DEFAULT_TOLERANCE,
        }
    }

    /// Changes the allowed clock difference (both directions).
    pub fn with_tolerance(mut self, tolerance: Duration) -> Self {
        self.tolerance = tolerance;
        self
    }

    /// Verifies a delivery against the current time.
    pub fn verify(&self, headers: &HeaderMap, body: &[u8]) -> Result<(), Error> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_err(|_| Error::Webhook(WebhookFailure::InvalidTimestamp))?;
        self.verify_at(
            headers,
            body,
            i64::try_from(now.as_secs()).unwrap_or(i64::MAX),
        )
    }

    /// Verifies a delivery as of `now` (Unix seconds).
    pub fn verify_at(&self, headers: &HeaderMap, body: &[u8], now: i64) -> Result<(), Error> {
        let fail = |f| Err(Error::Webhook(f));
        let id = header(headers, "webhook-id", "svix-id")?;
        let timestamp_raw = header(headers, "webhook-timestamp", "svix-timestamp")?;
        let signatures = header(headers, "webhook-signature", "svix-signature")?;
        let Ok(timestamp) = timestamp_raw.trim().parse::<i64>() else {
            return fail(WebhookFailure::InvalidTimestamp);
        };
        let tolerance = i64::try_from(self.tolerance.as_secs()).unwrap_or(i64::MAX);
        if now.abs_diff(timestamp) > tolerance.unsigned_abs() {
            return fail(WebhookFailure::TimestampOutOfTolerance);
        }
        let mac = self.mac(id, timestamp, body);
        let matched = signatures.split_whitespace().any(|entry| {
            let Some(("v1", encoded)) = entry.split_once(',') else {
                return false;
            };
            match BASE64.decode(encoded) {
                // verify_slice compares in constant time.
                Ok(candidate) => mac.clone().verify_slice(&candidate).is_ok(),
                Err(_) => false,
            }
        });
        if matched {
            Ok(())
        } else {
            fail(WebhookFailure::SignatureMismatch)
        }
    }

    /// The `webhook-signature` value for a delivery: `v1,<base64>`.
    pub fn sign(&self, id: &str, timestamp: i64, body: &[u8]) -> String {
        format!(
            "v1,{}",
            BASE64.encode(self.mac(id, timestamp, body).finalize().into_bytes())
        )
    }

    fn mac(&self, id: &str, timestamp: i64, body: &[u8]) -> HmacSha256 {
        let mut mac = <HmacSha256 as Mac>::new_from_slice(&self.key_bytes)
            .unwrap_or_else(|_| unreachable!("HMAC takes any key length"));
        mac.update(id.as_bytes());
        mac.update(b".");
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        mac
    }
}

fn header<'a>(
    headers: &'a HeaderMap,
    name: &'static str,
    alias: &'static str,
) -> Result<&'a str, Error> {
    headers
        .get(name)
        .or_else(|| headers.get(alias))
        .and_then(|v| v.to_str().ok())
        .ok_or(Error::Webhook(WebhookFailure::MissingHeader(name)))
}

/// Verifies a Pusher webhook: `X-Pusher-Signature` must be hex HMAC-SHA256(secret, raw body).
/// Comparison is constant-time.
///
/// ```
/// let body = br#"{"time_ms":1,"events":[]}"#;
/// let signature = "5b3a0a46b3b1c0ff1e0a3d0b3e6d9f64e8c5b0f1d2b0c3a8e1b6f4d2c0a9e8f7";
/// assert!(comms_runtime::webhook::verify_pusher("secret", signature, body).is_err());
/// ```
pub fn verify_pusher(secret: &str, signature_header: &str, body: &[u8]) -> Result<(), Error> {
    let Ok(candidate) = hex::decode(signature_header.trim()) else {
        return Err(Error::Webhook(WebhookFailure::SignatureMismatch));
    };
    let mut mac = <HmacSha256 as Mac>::new_from_slice(secret.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC takes any key length"));
    mac.update(body);
    mac.verify_slice(&candidate)
        .map_err(|_| Error::Webhook(WebhookFailure::SignatureMismatch))
}

/// The `X-Pusher-Signature` value for a body (for tests and local senders).
pub fn sign_pusher(secret: &str, body: &[u8]) -> String {
    hex::encode(hmac_sha256(secret.as_bytes(), body))
}

/// Decodes a verified webhook body into a typed event; [`Error::Decode`] with an excerpt.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Event { r#type: String }
/// let event: Event = comms_runtime::webhook::decode_event(br#"{"type":"email.sent"}"#)?;
/// assert_eq!(event.r#type, "email.sent");
/// # Ok::<(), comms_runtime::Error>(())
/// ```
pub fn decode_event<T: DeserializeOwned>(body: &[u8]) -> Result<T, Error> {
    serde_json::from_slice(body).map_err(|e| {
        Error::Decode(Box::new(DecodeError {
            message: crate::error::bounded_text(
                &format!("webhook event: {e}"),
                crate::error::MESSAGE_LIMIT,
            ),
            status: None,
            request_id: None,
            body_excerpt: crate::error::excerpt(body),
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use reqwest::header::HeaderValue;

    // Test vector from the Standard Webhooks specification's reference libraries.
    const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const TS: i64 = 1614265330;
    const BODY: &[u8] = br#"{"test": 2432232314}"#;
    const SIG: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    fn headers(sig: &str, ts: i64) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("webhook-id", HeaderValue::from_static(ID));
        h.insert(
            "webhook-timestamp",
            HeaderValue::from_str(&ts.to_string()).expect("ascii"),
        );
        h.insert(
            "webhook-signature",
            HeaderValue::from_str(sig).expect("ascii"),
        );
        h
    }

    fn failure(err: Error) -> WebhookFailure {
        match err {
            Error::Webhook(f) => f,
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn reference_vector_verifies() {
        let v = StandardWebhooks::new(SECRET).expect("secret");
        assert_eq!(v.sign(ID, TS, BODY), SIG);
        v.verify_at(&headers(SIG, TS), BODY, TS).expect("valid");
    }

    #[test]
    fn any_signature_of_a_rotation_list_matches() {
        let v = StandardWebhooks::new(SECRET).expect("secret");
        let list = format!("v1,bm90IGl0 v2,whatever {SIG}");
        v.verify_at(&headers(&list, TS), BODY, TS).expect("valid");
    }

    #[test]
    fn tampered_body_and_wrong_version_fail() {
        let v = StandardWebhooks::new(SECRET).expect("secret");
        let err = v
            .verify_at(&headers(SIG, TS), br#"{"test": 1}"#, TS)
            .expect_err("tampered");
        assert_eq!(err.kind(), ErrorKind::Webhook);
        assert_eq!(failure(err), WebhookFailure::SignatureMismatch);
        let v2 = SIG.replacen("v1,", "v2,", 1);
        assert_eq!(
            failure(v.verify_at(&headers(&v2, TS), BODY, TS).expect_err("v2")),
            WebhookFailure::SignatureMismatch
        );
    }

    #[test]
    fn tolerance_applies_both_ways() {
        let v = StandardWebhooks::new(SECRET).expect("secret");
        v.verify_at(&headers(SIG, TS), BODY, TS + 300)
            .expect("edge");
        v.verify_at(&headers(SIG, TS), BODY, TS - 300)
            .expect("edge");
        assert_eq!(
            failure(
                v.verify_at(&headers(SIG, TS), BODY, TS + 301)
                    .expect_err("late")
            ),
            WebhookFailure::TimestampOutOfTolerance
        );
        assert_eq!(
            failure(
                v.verify_at(&headers(SIG, TS), BODY, TS - 301)
                    .expect_err("early")
            ),
            WebhookFailure::TimestampOutOfTolerance
        );
        let tight = v.with_tolerance(Duration::from_secs(10));
        assert!(tight.verify_at(&headers(SIG, TS), BODY, TS + 11).is_err());
    }

    #[test]
    fn missing_headers_and_bad_secret() {
        let v = StandardWebhooks::new(SECRET).expect("secret");
        let mut h = headers(SIG, TS);
        h.remove("webhook-signature");
        assert_eq!(
            failure(v.verify_at(&h, BODY, TS).expect_err("missing")),
            WebhookFailure::MissingHeader("webhook-signature")
        );
        let mut h = headers(SIG, TS);
        h.insert("webhook-timestamp", HeaderValue::from_static("yesterday"));
        assert_eq!(
            failure(v.verify_at(&h, BODY, TS).expect_err("bad ts")),
            WebhookFailure::InvalidTimestamp
        );
        assert!(StandardWebhooks::new("whsec_***").is_err());
        assert!(!format!("{v:?}").contains("MfKQ9r8G"));
    }

    #[test]
    fn pusher_signature_round_trip() {
        let body =
            br#"{"time_ms":1327078148132,"events":[{"name":"channel_occupied","channel":"test"}]}"#;
        let sig = sign_pusher("7ad3773142a6692b25b8", body);
        verify_pusher("7ad3773142a6692b25b8", &sig, body).expect("valid");
        verify_pusher("7ad3773142a6692b25b8", &sig.to_uppercase(), body).expect("hex case");
        assert!(verify_pusher("7ad3773142a6692b25b8", &sig, b"{}").is_err());
        assert!(verify_pusher("other", &sig, body).is_err());
        assert!(verify_pusher("7ad3773142a6692b25b8", "zz", body).is_err());
    }

    #[test]
    fn decode_event_keeps_excerpt() {
        let err = decode_event::<serde_json::Value>(b"<html>").expect_err("not json");
        assert_eq!(err.kind(), ErrorKind::Decode);
        assert!(err.to_string().contains("<html>"));
    }
}
