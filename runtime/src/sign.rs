//! Request signing: the [`Signer`] hook the pipeline calls once per attempt, and
//! [`PusherSigner`], the Pusher Channels HTTP API signature (`auth_version=1.0`).

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use hmac::{Hmac, Mac};
use md5::{Digest, Md5};
use reqwest::header::HeaderMap;
use sha2::Sha256;

use crate::Error;
use crate::secret::Secret;
use crate::spec::Method;

/// What a [`Signer`] sees of one attempt.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct SignableRequest<'a> {
    /// HTTP method.
    pub method: &'a Method,
    /// The URL path as sent (percent-encoded, base path included), e.g. `/apps/3/events`.
    pub path: &'a str,
    /// The request's own query pairs, unencoded (auth pairs not included).
    pub query: &'a [(String, String)],
    /// The body bytes, when there is a body.
    pub body: Option<&'a [u8]>,
}

impl<'a> SignableRequest<'a> {
    /// Describes a request to sign.
    pub fn new(
        method: &'a Method,
        path: &'a str,
        query: &'a [(String, String)],
        body: Option<&'a [u8]>,
    ) -> Self {
        SignableRequest {
            method,
            path,
            query,
            body,
        }
    }
}

/// What a [`Signer`] adds to an attempt.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SignedParts {
    /// Query pairs appended to the URL (unencoded).
    pub query: Vec<(String, String)>,
    /// Headers added to the request (mark secret ones sensitive).
    pub headers: HeaderMap,
}

impl SignedParts {
    /// Parts that add these query pairs.
    pub fn with_query(query: Vec<(String, String)>) -> Self {
        SignedParts {
            query,
            headers: HeaderMap::new(),
        }
    }
}

/// A request-signing scheme, called once per attempt (so timestamps are fresh on retries).
///
/// `Debug` implementations must not print secrets.
///
/// ```
/// use tidings_runtime::{Error, SignableRequest, SignedParts, Signer};
///
/// #[derive(Debug)]
/// struct Nonce;
/// impl Signer for Nonce {
///     fn sign(&self, request: &SignableRequest<'_>) -> Result<SignedParts, Error> {
///         Ok(SignedParts::with_query(vec![("nonce".into(), request.path.len().to_string())]))
///     }
/// }
/// ```
pub trait Signer: Send + Sync + fmt::Debug {
    /// Returns what to add to this attempt.
    fn sign(&self, request: &SignableRequest<'_>) -> Result<SignedParts, Error>;
}

type HmacSha256 = Hmac<Sha256>;

/// Pusher Channels HTTP API signing (`auth_version=1.0`).
///
/// Adds `auth_key`, `auth_timestamp`, `auth_version=1.0`, `body_md5` (only with a body) and
/// `auth_signature` = hex HMAC-SHA256(secret, `METHOD\nPATH\nQUERY`), where QUERY is every
/// parameter but the signature, keys lowercased and sorted, `k=v` joined by `&`, unescaped.
///
/// ```
/// use tidings_runtime::{PusherSigner, Secret, SignableRequest};
/// use tidings_runtime::spec::Method;
/// let signer = PusherSigner::new("278d425bdf160c739803", Secret::new("7ad3773142a6692b25b8"));
/// let body = br#"{"name":"foo","channels":["project-3"],"data":"{\"some\":\"data\"}"}"#;
/// let parts = signer.sign_at(&SignableRequest::new(&Method::Post, "/apps/3/events", &[], Some(body)), 1353088179);
/// let sig = parts.query.iter().find(|(k, _)| k == "auth_signature").map(|(_, v)| v.as_str());
/// assert_eq!(sig, Some("da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c"));
/// ```
#[derive(Debug, Clone)]
pub struct PusherSigner {
    key: String,
    secret: Secret,
}

impl PusherSigner {
    /// A signer for an app key and secret.
    pub fn new(key: impl Into<String>, secret: Secret) -> Self {
        PusherSigner {
            key: key.into(),
            secret,
        }
    }

    /// Signs as of `timestamp` (Unix seconds).
    pub fn sign_at(&self, request: &SignableRequest<'_>, timestamp: i64) -> SignedParts {
        let mut auth: Vec<(String, String)> = vec![
            ("auth_key".to_owned(), self.key.clone()),
            ("auth_timestamp".to_owned(), timestamp.to_string()),
            ("auth_version".to_owned(), "1.0".to_owned()),
        ];
        if let Some(body) = request.body.filter(|b| !b.is_empty()) {
            auth.push(("body_md5".to_owned(), hex::encode(Md5::digest(body))));
        }
        let mut all: Vec<(String, &str)> = request
            .query
            .iter()
            .chain(auth.iter())
            .filter(|(k, _)| !k.eq_ignore_ascii_case("auth_signature"))
            .map(|(k, v)| (k.to_ascii_lowercase(), v.as_str()))
            .collect();
        all.sort();
        let query = all
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&");
        let to_sign = format!("{}\n{}\n{}", request.method.as_str(), request.path, query);
        auth.push((
            "auth_signature".to_owned(),
            hmac_sha256_hex(self.secret.expose().as_bytes(), to_sign.as_bytes()),
        ));
        SignedParts::with_query(auth)
    }
}

impl Signer for PusherSigner {
    fn sign(&self, request: &SignableRequest<'_>) -> Result<SignedParts, Error> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_err(|_| Error::config("system clock is before 1970"))?;
        Ok(self.sign_at(request, i64::try_from(now.as_secs()).unwrap_or(i64::MAX)))
    }
}

/// Hex HMAC-SHA256.
pub(crate) fn hmac_sha256_hex(key: &[u8], message: &[u8]) -> String {
    hex::encode(hmac_sha256(key, message))
}

/// Raw HMAC-SHA256.
pub(crate) fn hmac_sha256(key: &[u8], message: &[u8]) -> Vec<u8> {
    // HMAC accepts keys of any length, so this cannot fail.
    let mut mac = <HmacSha256 as Mac>::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC takes any key length"));
    mac.update(message);
    mac.finalize().into_bytes().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "278d425bdf160c739803";
    const SECRET: &str = "7ad3773142a6692b25b8";
    const BODY: &[u8] = br#"{"name":"foo","channels":["project-3"],"data":"{\"some\":\"data\"}"}"#;

    fn get<'a>(parts: &'a SignedParts, key: &str) -> Option<&'a str> {
        parts
            .query
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn pusher_vector_from_protocols_md() {
        let signer = PusherSigner::new(KEY, Secret::new(SECRET));
        let parts = signer.sign_at(
            &SignableRequest::new(&Method::Post, "/apps/3/events", &[], Some(BODY)),
            1353088179,
        );
        assert_eq!(get(&parts, "auth_key"), Some(KEY));
        assert_eq!(get(&parts, "auth_timestamp"), Some("1353088179"));
        assert_eq!(get(&parts, "auth_version"), Some("1.0"));
        assert_eq!(
            get(&parts, "body_md5"),
            Some("ec365a775a4cd0599faeb73354201b6f")
        );
        assert_eq!(
            get(&parts, "auth_signature"),
            Some("da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c")
        );
    }

    #[test]
    fn get_without_body_has_no_body_md5_and_signs_sorted_lowercased_query() {
        let signer = PusherSigner::new(KEY, Secret::new(SECRET));
        let query = vec![
            ("Info".to_owned(), "user_count".to_owned()),
            ("filter_by_prefix".to_owned(), "presence-".to_owned()),
        ];
        let parts = signer.sign_at(
            &SignableRequest::new(&Method::Get, "/apps/3/channels", &query, None),
            1353088179,
        );
        assert_eq!(get(&parts, "body_md5"), None);
        let expected = hmac_sha256_hex(
            SECRET.as_bytes(),
            b"GET\n/apps/3/channels\nauth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_version=1.0&filter_by_prefix=presence-&info=user_count",
        );
        assert_eq!(get(&parts, "auth_signature"), Some(expected.as_str()));
    }

    #[test]
    fn debug_hides_the_secret() {
        let signer = PusherSigner::new(KEY, Secret::new(SECRET));
        assert!(!format!("{signer:?}").contains(SECRET));
    }
}
