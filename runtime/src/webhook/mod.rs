//! Webhook verification and decoding on raw body bytes: one generic verifier for HMAC
//! signature schemes described as data ([`SignatureScheme`]; Standard Webhooks and Pusher are two
//! built-in instances), payload selection and bounded JSON/form decoding for services with
//! several payload types ([`WebhookSpec`](crate::spec::WebhookSpec), [`receive`]), plus [`decode_event`].

mod payloads;
#[cfg(test)]
mod tests;

pub use payloads::{WebhookSecrets, decode_payload, decode_payload_with, receive, select, verify};

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, Mac};
use reqwest::header::{HeaderMap, HeaderValue};
use serde::de::DeserializeOwned;
use subtle::ConstantTimeEq;

use crate::Error;
use crate::error::{DecodeError, WebhookFailure};
use crate::secret::Secret;

/// Default tolerance between the sender's timestamp and our clock, in both directions.
pub const DEFAULT_TOLERANCE: Duration = Duration::from_secs(5 * 60);

/// Largest webhook body read by default (1 MiB); see [`WebhookLimits`].
pub const DEFAULT_MAX_BODY_BYTES: usize = 1 << 20;

/// Most parameters a form-encoded webhook body may have by default; see [`WebhookLimits`].
pub const DEFAULT_MAX_FORM_PARAMS: usize = 1000;

/// How much of a delivery is read: body bytes and form parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookLimits {
    /// Largest body, in bytes ([`DEFAULT_MAX_BODY_BYTES`]).
    pub max_body_bytes: usize,
    /// Most `name=value` pairs of a form body ([`DEFAULT_MAX_FORM_PARAMS`]).
    pub max_form_params: usize,
}

impl WebhookLimits {
    /// 1 MiB bodies, 1000 form parameters.
    pub const DEFAULT: WebhookLimits = WebhookLimits {
        max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        max_form_params: DEFAULT_MAX_FORM_PARAMS,
    };

    fn check_body(&self, body: &[u8]) -> Result<(), Error> {
        if body.len() > self.max_body_bytes {
            return Err(Error::Webhook(WebhookFailure::BodyTooLarge {
                limit: self.max_body_bytes,
            }));
        }
        Ok(())
    }
}

impl Default for WebhookLimits {
    fn default() -> Self {
        WebhookLimits::DEFAULT
    }
}

use tidings_spec::{
    HmacAlgorithm, PUSHER, STANDARD_WEBHOOKS, SecretFormat, SignatureEncoding, SignatureScheme,
    SignedContent,
};

/// The parts of a delivery a verifier reads.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct WebhookRequest<'a> {
    /// The full URL the sender called, query included (`https://example.com/hooks/sms?x=1`),
    /// as it appears to the sender (behind a proxy: the public URL). A path alone works for
    /// schemes that do not sign the URL.
    pub url: &'a str,
    /// The request headers.
    pub headers: &'a HeaderMap,
    /// The raw body bytes, exactly as received.
    pub body: &'a [u8],
}

impl<'a> WebhookRequest<'a> {
    /// Describes a delivery.
    pub fn new(url: &'a str, headers: &'a HeaderMap, body: &'a [u8]) -> Self {
        WebhookRequest { url, headers, body }
    }

    /// The URL's path (no scheme, host, query or fragment).
    pub fn path(&self) -> &'a str {
        let rest = match self.url.find("://") {
            Some(i) => {
                let after = &self.url[i + 3..];
                after.find('/').map_or("", |p| &after[p..])
            }
            None => self.url,
        };
        let end = rest.find(['?', '#']).unwrap_or(rest.len());
        &rest[..end]
    }
}

/// The verifier's work on a scheme's description (which lives in `tidings-spec`).
trait Scheme {
    fn header<'a>(&self, headers: &'a HeaderMap, name: &'static str) -> Result<&'a str, Error>;
    fn key(&self, secret: &str) -> Result<Vec<u8>, Error>;
    fn mac(
        &self,
        key: &[u8],
        request: &WebhookRequest<'_>,
        limits: &WebhookLimits,
    ) -> Result<Vec<u8>, Error>;
    fn placeholder<'a>(
        &self,
        request: &WebhookRequest<'a>,
        header: Option<&'static str>,
        what: &str,
    ) -> Result<&'a [u8], Error>;
    fn encode(&self, mac: &[u8]) -> String;
    fn decode(&self, entry: &str) -> Option<Vec<u8>>;
}

impl Scheme for SignatureScheme {
    fn header<'a>(&self, headers: &'a HeaderMap, name: &'static str) -> Result<&'a str, Error> {
        let alias = self
            .aliases
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, a)| *a);
        headers
            .get(name)
            .or_else(|| alias.and_then(|a| headers.get(a)))
            .and_then(|v| v.to_str().ok())
            .ok_or(Error::Webhook(WebhookFailure::MissingHeader(name)))
    }

    /// The key bytes for a secret.
    fn key(&self, secret: &str) -> Result<Vec<u8>, Error> {
        let key = match self.secret {
            SecretFormat::Text => secret.as_bytes().to_vec(),
            SecretFormat::Base64 { prefix } => {
                let encoded = secret.trim();
                let encoded = encoded.strip_prefix(prefix).unwrap_or(encoded);
                BASE64
                    .decode(encoded)
                    .map_err(|_| Error::Webhook(WebhookFailure::InvalidSecret))?
            }
        };
        if key.is_empty() {
            return Err(Error::Webhook(WebhookFailure::InvalidSecret));
        }
        Ok(key)
    }

    /// The MAC of a delivery (headers read as the scheme says).
    fn mac(
        &self,
        key: &[u8],
        request: &WebhookRequest<'_>,
        limits: &WebhookLimits,
    ) -> Result<Vec<u8>, Error> {
        let mut mac = AnyMac::new(self.algorithm, key);
        match self.over {
            SignedContent::RawBody => mac.update(request.body),
            SignedContent::UrlSortedParams => {
                mac.update(request.url.as_bytes());
                for (name, value) in sorted_params(request.body, limits)? {
                    mac.update(name.as_bytes());
                    mac.update(value.as_bytes());
                }
            }
            SignedContent::Template(template) => {
                let mut rest = template;
                while let Some(open) = rest.find('{') {
                    mac.update(&rest.as_bytes()[..open]);
                    let after = &rest[open + 1..];
                    let Some(close) = after.find('}') else {
                        return Err(Error::config(format!(
                            "webhook signature `{}`: unclosed `{{` in its template",
                            self.name
                        )));
                    };
                    match &after[..close] {
                        "body" => mac.update(request.body),
                        "url" => mac.update(request.url.as_bytes()),
                        "id" => mac.update(self.placeholder(request, self.id_header, "id")?),
                        "timestamp" => mac.update(self.placeholder(
                            request,
                            self.timestamp_header,
                            "timestamp",
                        )?),
                        other => {
                            return Err(Error::config(format!(
                                "webhook signature `{}`: unknown placeholder `{{{other}}}`",
                                self.name
                            )));
                        }
                    }
                    rest = &after[close + 1..];
                }
                mac.update(rest.as_bytes());
            }
        }
        Ok(mac.finalize())
    }

    fn placeholder<'a>(
        &self,
        request: &WebhookRequest<'a>,
        header: Option<&'static str>,
        what: &str,
    ) -> Result<&'a [u8], Error> {
        let header = header.ok_or_else(|| {
            Error::config(format!(
                "webhook signature `{}` signs `{{{what}}}` but names no header for it",
                self.name
            ))
        })?;
        Ok(self.header(request.headers, header)?.trim().as_bytes())
    }

    fn encode(&self, mac: &[u8]) -> String {
        let encoded = match self.encoding {
            SignatureEncoding::Base64 => BASE64.encode(mac),
            SignatureEncoding::Hex => hex::encode(mac),
        };
        format!("{}{encoded}", self.prefix)
    }

    fn decode(&self, entry: &str) -> Option<Vec<u8>> {
        let encoded = entry.trim().strip_prefix(self.prefix)?;
        match self.encoding {
            SignatureEncoding::Base64 => BASE64.decode(encoded).ok(),
            SignatureEncoding::Hex => hex::decode(encoded).ok(),
        }
    }
}

/// The form parameters of a body, sorted by name then value (bounded by `limits`). A body that
/// is not a form (JSON) has none.
fn sorted_params(body: &[u8], limits: &WebhookLimits) -> Result<Vec<(String, String)>, Error> {
    let mut params = match form_pairs(body, limits) {
        Ok(params) => params,
        Err(e @ Error::Webhook(_)) => return Err(e),
        Err(_) => Vec::new(),
    };
    params.sort();
    Ok(params)
}

/// Parses `a=1&b=2` into pairs, refusing more than the limit before decoding anything.
fn form_pairs(body: &[u8], limits: &WebhookLimits) -> Result<Vec<(String, String)>, Error> {
    let count = body.split(|b| *b == b'&').filter(|p| !p.is_empty()).count();
    if count > limits.max_form_params {
        return Err(Error::Webhook(WebhookFailure::TooManyParameters {
            limit: limits.max_form_params,
        }));
    }
    serde_urlencoded::from_bytes(body).map_err(|e| decode_error("form", &e.to_string(), body))
}

enum AnyMac {
    Sha1(Hmac<sha1::Sha1>),
    Sha256(Hmac<sha2::Sha256>),
    Sha512(Hmac<sha2::Sha512>),
}

impl AnyMac {
    fn new(algorithm: HmacAlgorithm, key: &[u8]) -> Self {
        // HMAC accepts keys of any length, so `new_from_slice` cannot fail.
        match algorithm {
            HmacAlgorithm::Sha1 => AnyMac::Sha1(
                <Hmac<sha1::Sha1> as Mac>::new_from_slice(key)
                    .unwrap_or_else(|_| unreachable!("HMAC takes any key length")),
            ),
            HmacAlgorithm::Sha256 => AnyMac::Sha256(
                <Hmac<sha2::Sha256> as Mac>::new_from_slice(key)
                    .unwrap_or_else(|_| unreachable!("HMAC takes any key length")),
            ),
            HmacAlgorithm::Sha512 => AnyMac::Sha512(
                <Hmac<sha2::Sha512> as Mac>::new_from_slice(key)
                    .unwrap_or_else(|_| unreachable!("HMAC takes any key length")),
            ),
        }
    }

    fn update(&mut self, data: &[u8]) {
        match self {
            AnyMac::Sha1(m) => m.update(data),
            AnyMac::Sha256(m) => m.update(data),
            AnyMac::Sha512(m) => m.update(data),
        }
    }

    fn finalize(self) -> Vec<u8> {
        match self {
            AnyMac::Sha1(m) => m.finalize().into_bytes().to_vec(),
            AnyMac::Sha256(m) => m.finalize().into_bytes().to_vec(),
            AnyMac::Sha512(m) => m.finalize().into_bytes().to_vec(),
        }
    }
}

fn now_unix() -> Result<i64, Error> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_err(|_| Error::Webhook(WebhookFailure::InvalidTimestamp))?;
    Ok(i64::try_from(now.as_secs()).unwrap_or(i64::MAX))
}

/// Verifies (and, for tests and local senders, makes) signatures of one [`SignatureScheme`]
/// with one secret. Comparison is constant-time; the key never appears in `Debug`.
///
/// A Twilio-style scheme (HMAC-SHA1 over the URL and the sorted form parameters, base64):
///
/// ```
/// use tidings_runtime::spec::*;
/// use tidings_runtime::webhook::*;
/// use reqwest::header::{HeaderMap, HeaderValue};
///
/// static TWILIO: SignatureScheme = SignatureScheme {
///     name: "twilio", header: "X-Twilio-Signature", algorithm: HmacAlgorithm::Sha1,
///     over: SignedContent::UrlSortedParams, encoding: SignatureEncoding::Base64, prefix: "",
///     separator: None, id_header: None, timestamp_header: None, tolerance_s: None,
///     secret: SecretFormat::Text, aliases: &[],
/// };
/// let verifier = Verifier::new(&TWILIO, "auth-token")?;
/// let url = "https://example.com/sms/status";
/// let body = b"MessageStatus=delivered&MessageSid=SM1";
/// let mut headers = HeaderMap::new();
/// let signature = verifier.sign(&WebhookRequest::new(url, &headers, body))?;
/// headers.insert("X-Twilio-Signature", HeaderValue::from_str(&signature).unwrap());
/// verifier.verify(&WebhookRequest::new(url, &headers, body))?;
/// assert!(verifier.verify(&WebhookRequest::new("https://evil.example/sms/status", &headers, body)).is_err());
/// # Ok::<(), tidings_runtime::Error>(())
/// ```
#[derive(Clone)]
pub struct Verifier {
    scheme: &'static SignatureScheme,
    key: Arc<[u8]>,
    tolerance: Option<Duration>,
    limits: WebhookLimits,
}

impl fmt::Debug for Verifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verifier")
            .field("scheme", &self.scheme.name)
            .field("key", &"<redacted>")
            .field("tolerance", &self.tolerance)
            .finish()
    }
}

impl Verifier {
    /// A verifier for `scheme` keyed by `secret` (read as the scheme's [`SecretFormat`] says).
    pub fn new(scheme: &'static SignatureScheme, secret: &str) -> Result<Self, Error> {
        Ok(Self::from_key(scheme, &scheme.key(secret)?))
    }

    /// A verifier from raw key bytes.
    pub fn from_key(scheme: &'static SignatureScheme, key: &[u8]) -> Self {
        Verifier {
            scheme,
            key: key.into(),
            tolerance: scheme.tolerance_s.map(Duration::from_secs),
            limits: WebhookLimits::DEFAULT,
        }
    }

    /// The scheme.
    pub fn scheme(&self) -> &'static SignatureScheme {
        self.scheme
    }

    /// Changes the allowed clock difference (both directions); only for schemes with a
    /// timestamp header.
    pub fn with_tolerance(mut self, tolerance: Duration) -> Self {
        self.tolerance = Some(tolerance);
        self
    }

    /// Changes the body and form limits.
    pub fn with_limits(mut self, limits: WebhookLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Verifies a delivery against the current time.
    pub fn verify(&self, request: &WebhookRequest<'_>) -> Result<(), Error> {
        self.verify_at(request, now_unix()?)
    }

    /// Verifies a delivery as of `now` (Unix seconds).
    pub fn verify_at(&self, request: &WebhookRequest<'_>, now: i64) -> Result<(), Error> {
        let scheme = self.scheme;
        self.limits.check_body(request.body)?;
        let signatures = scheme.header(request.headers, scheme.header)?;
        if let Some(name) = scheme.timestamp_header {
            let raw = scheme.header(request.headers, name)?;
            let Ok(timestamp) = raw.trim().parse::<i64>() else {
                return Err(Error::Webhook(WebhookFailure::InvalidTimestamp));
            };
            if let Some(tolerance) = self.tolerance
                && now.abs_diff(timestamp) > tolerance.as_secs()
            {
                return Err(Error::Webhook(WebhookFailure::TimestampOutOfTolerance));
            }
        }
        let mac = scheme.mac(&self.key, request, &self.limits)?;
        let mut entries: Box<dyn Iterator<Item = &str>> = match scheme.separator {
            Some(' ') => Box::new(signatures.split_whitespace()),
            Some(c) => Box::new(signatures.split(c)),
            None => Box::new(std::iter::once(signatures)),
        };
        // Every entry is compared in constant time; stopping at the first match leaks only
        // which entry matched, never the MAC.
        let matched = entries.any(|entry| {
            scheme
                .decode(entry)
                .is_some_and(|candidate| bool::from(candidate.as_slice().ct_eq(&mac)))
        });
        if matched {
            Ok(())
        } else {
            Err(Error::Webhook(WebhookFailure::SignatureMismatch))
        }
    }

    /// The signature header value for a delivery (the id and timestamp headers, when the scheme
    /// signs them, must already be in `request.headers`).
    pub fn sign(&self, request: &WebhookRequest<'_>) -> Result<String, Error> {
        self.limits.check_body(request.body)?;
        Ok(self
            .scheme
            .encode(&self.scheme.mac(&self.key, request, &self.limits)?))
    }
}

/// Verifies [Standard Webhooks](https://www.standardwebhooks.com/) signatures: headers
/// `webhook-id`, `webhook-timestamp`, `webhook-signature` (`svix-*` accepted too), HMAC-SHA256
/// over `{id}.{timestamp}.{body}` keyed by the base64 part of `whsec_...`. A thin wrapper over
/// a [`Verifier`] of [`STANDARD_WEBHOOKS`].
///
/// ```
/// use tidings_runtime::webhook::StandardWebhooks;
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
/// # Ok::<(), tidings_runtime::Error>(())
/// ```
#[derive(Clone)]
pub struct StandardWebhooks {
    key: Secret,
    verifier: Verifier,
}

impl fmt::Debug for StandardWebhooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StandardWebhooks")
            .field("key", &self.key)
            .field("tolerance", &self.verifier.tolerance)
            .finish()
    }
}

impl StandardWebhooks {
    /// From a `whsec_<base64>` secret (the prefix is optional).
    pub fn new(secret: &str) -> Result<Self, Error> {
        Ok(StandardWebhooks {
            key: Secret::new(secret),
            verifier: Verifier::new(&STANDARD_WEBHOOKS, secret)?,
        })
    }

    /// From raw key bytes.
    pub fn from_bytes(key: &[u8]) -> Self {
        StandardWebhooks {
            key: Secret::new(format!("whsec_{}", BASE64.encode(key))),
            verifier: Verifier::from_key(&STANDARD_WEBHOOKS, key),
        }
    }

    /// Changes the allowed clock difference (both directions).
    pub fn with_tolerance(mut self, tolerance: Duration) -> Self {
        self.verifier = self.verifier.with_tolerance(tolerance);
        self
    }

    /// Verifies a delivery against the current time.
    pub fn verify(&self, headers: &HeaderMap, body: &[u8]) -> Result<(), Error> {
        self.verify_at(headers, body, now_unix()?)
    }

    /// Verifies a delivery as of `now` (Unix seconds).
    pub fn verify_at(&self, headers: &HeaderMap, body: &[u8], now: i64) -> Result<(), Error> {
        self.verifier
            .verify_at(&WebhookRequest::new("", headers, body), now)
    }

    /// The `webhook-signature` value for a delivery: `v1,<base64>`.
    pub fn sign(&self, id: &str, timestamp: i64, body: &[u8]) -> String {
        let mut mac = AnyMac::new(HmacAlgorithm::Sha256, &self.verifier.key);
        mac.update(id.as_bytes());
        mac.update(b".");
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        STANDARD_WEBHOOKS.encode(&mac.finalize())
    }
}

/// Verifies a Pusher webhook: `X-Pusher-Signature` must be hex HMAC-SHA256(secret, raw body).
/// Comparison is constant-time. A thin wrapper over a [`Verifier`] of [`PUSHER`].
///
/// ```
/// let body = br#"{"time_ms":1,"events":[]}"#;
/// let signature = "5b3a0a46b3b1c0ff1e0a3d0b3e6d9f64e8c5b0f1d2b0c3a8e1b6f4d2c0a9e8f7";
/// assert!(tidings_runtime::webhook::verify_pusher("secret", signature, body).is_err());
/// ```
pub fn verify_pusher(secret: &str, signature_header: &str, body: &[u8]) -> Result<(), Error> {
    let Ok(value) = HeaderValue::from_str(signature_header.trim()) else {
        return Err(Error::Webhook(WebhookFailure::SignatureMismatch));
    };
    let mut headers = HeaderMap::new();
    headers.insert(PUSHER.header, value);
    Verifier::new(&PUSHER, secret)?.verify_at(&WebhookRequest::new("", &headers, body), 0)
}

/// The `X-Pusher-Signature` value for a body (for tests and local senders).
pub fn sign_pusher(secret: &str, body: &[u8]) -> String {
    let mut mac = AnyMac::new(HmacAlgorithm::Sha256, secret.as_bytes());
    mac.update(body);
    PUSHER.encode(&mac.finalize())
}

/// Decodes a verified webhook body into a typed event; [`Error::Decode`] with an excerpt.
/// Bodies above [`DEFAULT_MAX_BODY_BYTES`] are refused.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Event { r#type: String }
/// let event: Event = tidings_runtime::webhook::decode_event(br#"{"type":"email.sent"}"#)?;
/// assert_eq!(event.r#type, "email.sent");
/// # Ok::<(), tidings_runtime::Error>(())
/// ```
pub fn decode_event<T: DeserializeOwned>(body: &[u8]) -> Result<T, Error> {
    WebhookLimits::DEFAULT.check_body(body)?;
    serde_json::from_slice(body).map_err(|e| decode_error("webhook event", &e.to_string(), body))
}

fn decode_error(what: &str, message: &str, body: &[u8]) -> Error {
    Error::Decode(Box::new(DecodeError {
        message: crate::error::bounded_text(
            &format!("{what}: {message}"),
            crate::error::MESSAGE_LIMIT,
        ),
        status: None,
        request_id: None,
        body_excerpt: crate::error::excerpt(body),
    }))
}
