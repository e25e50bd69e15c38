//! OAuth 2.0 client credentials (RFC 6749 section 4.4): the access token of an
//! [`AuthScheme::OAuth2ClientCredentials`](crate::spec::AuthScheme::OAuth2ClientCredentials) scheme,
//! fetched from the token URL with the client id and secret (HTTP Basic, section 2.3.1), kept
//! until shortly before it expires, fetched again then, and dropped when the API answers 401
//! with it (the call then tries once more with a new one).
//!
//! One cache per client, shared by its clones and by every operation that uses the scheme:
//! callers that find no usable token wait for one fetch instead of each making their own.
//! The secret and the token are [`Secret`]s and marked sensitive in headers: never in `Debug`
//! output, logs or errors.

use std::fmt;
use std::time::{Duration, Instant};

use base64::Engine as _;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue};

use crate::Error;
use crate::error::{ApiError, TimeoutKind};
use crate::secret::Secret;
use crate::spec::ErrorSpec;

/// Largest token answer read, in bytes; a longer one is refused.
pub const MAX_TOKEN_RESPONSE_BYTES: usize = 64 * 1024;

/// The most a token is refreshed ahead of its expiry: a token is used until
/// `expires_in - min(REFRESH_AHEAD_MAX, expires_in / 5)` has passed since it was fetched.
pub const REFRESH_AHEAD_MAX: Duration = Duration::from_secs(60);

/// Where RFC 6749 section 5.2 puts the error code and its description.
static TOKEN_ERRORS: ErrorSpec = ErrorSpec {
    code: Some("error"),
    message: Some("error_description"),
    in_success: None,
};

/// The token cache of one client-credentials scheme.
pub(crate) struct OAuth2Tokens {
    /// The token URL as resolved against the base URL (no credentials in it).
    pub(crate) token_url: url::Url,
    /// The scheme's identity in the spec, to find this cache again: (token URL as written,
    /// client id credential name).
    pub(crate) key: (&'static str, &'static str),
    client_id: Secret,
    client_secret: Secret,
    scopes: &'static [&'static str],
    /// The current token; the lock is held across a fetch, so concurrent callers share it.
    current: tokio::sync::Mutex<Option<Token>>,
    /// Tokens fetched so far: each token's generation (from 1), so that a 401 forgets the
    /// token it was answered to, not a newer one.
    fetched: std::sync::atomic::AtomicU64,
}

struct Token {
    generation: u64,
    header: HeaderValue,
    /// When to fetch a new one; `None`: the answer gave no lifetime (kept until a 401).
    refresh_at: Option<Instant>,
}

impl fmt::Debug for OAuth2Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuth2Tokens")
            .field("token_url", &self.token_url.as_str())
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

impl OAuth2Tokens {
    pub(crate) fn new(
        token_url: url::Url,
        key: (&'static str, &'static str),
        client_id: Secret,
        client_secret: Secret,
        scopes: &'static [&'static str],
    ) -> OAuth2Tokens {
        OAuth2Tokens {
            token_url,
            key,
            client_id,
            client_secret,
            scopes,
            current: tokio::sync::Mutex::new(None),
            fetched: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// The `Authorization` value of an attempt and its token's generation: the cached token
    /// while it is fresh, else one fetched now (within `timeout`).
    pub(crate) async fn header(
        &self,
        http: &reqwest::Client,
        timeout: Duration,
    ) -> Result<(HeaderValue, u64), Error> {
        let mut current = self.current.lock().await;
        if let Some(token) = &*current
            && token.refresh_at.is_none_or(|at| Instant::now() < at)
        {
            return Ok((token.header.clone(), token.generation));
        }
        let fetched = match tokio::time::timeout(timeout, self.fetch(http)).await {
            Ok(fetched) => fetched?,
            Err(_) => {
                return Err(Error::Timeout {
                    kind: TimeoutKind::Attempt,
                    after: timeout,
                    context: None,
                });
            }
        };
        let answer = (fetched.header.clone(), fetched.generation);
        *current = Some(fetched);
        Ok(answer)
    }

    /// Forgets the token (by generation) the API refused with 401, unless a newer one
    /// replaced it already.
    pub(crate) async fn refused(&self, generation: u64) {
        let mut current = self.current.lock().await;
        if current.as_ref().is_some_and(|t| t.generation == generation) {
            *current = None;
        }
    }

    async fn fetch(&self, http: &reqwest::Client) -> Result<Token, Error> {
        tracing::debug!(token_url = %self.token_url, "fetching an OAuth2 access token");
        // Built before the first wait: the serializer is not `Sync`.
        let form = {
            let mut form = url::form_urlencoded::Serializer::new(String::new());
            form.append_pair("grant_type", "client_credentials");
            if !self.scopes.is_empty() {
                form.append_pair("scope", &self.scopes.join(" "));
            }
            form.finish()
        };
        // RFC 6749 section 2.3.1: both halves form-encoded, then Basic.
        let encode =
            |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
        let pair = format!(
            "{}:{}",
            encode(self.client_id.expose()),
            encode(self.client_secret.expose())
        );
        let mut basic = HeaderValue::from_str(&format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(pair)
        ))
        .map_err(|_| Error::config("the OAuth2 client credentials are not usable in a header"))?;
        basic.set_sensitive(true);
        let sent = Instant::now();
        let mut response = http
            .post(self.token_url.clone())
            .header(AUTHORIZATION, basic)
            .header(ACCEPT, "application/json")
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(form)
            .send()
            .await
            .map_err(Error::transport)?;
        let status = response.status().as_u16();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(Error::transport)? {
            if body.len() + chunk.len() > MAX_TOKEN_RESPONSE_BYTES {
                return Err(Error::decode(
                    format!(
                        "the OAuth2 token answer is larger than {MAX_TOKEN_RESPONSE_BYTES} bytes"
                    ),
                    &body,
                ));
            }
            body.extend_from_slice(&chunk);
        }
        if !(200..300).contains(&status) {
            let mut api = ApiError::from_body(status, None, &body, &TOKEN_ERRORS);
            api.message = Some(format!(
                "the OAuth2 token endpoint {} refused the client credentials{}",
                self.token_url,
                api.message
                    .as_deref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            ));
            // A refused client is a credential problem; anything else keeps its status.
            return Err(match status {
                400 | 401 | 403 => Error::Auth(Box::new(api)),
                _ => Error::from_status(api, None),
            });
        }
        #[derive(serde::Deserialize)]
        struct Answer {
            access_token: String,
            #[serde(default)]
            token_type: Option<String>,
            #[serde(default)]
            expires_in: Option<serde_json::Value>,
        }
        let answer: Answer = serde_json::from_slice(&body).map_err(|e| {
            Error::decode(
                format!("the OAuth2 token answer is not a token: {e}"),
                b"(not shown: it may hold a token)",
            )
        })?;
        if let Some(kind) = &answer.token_type
            && !kind.eq_ignore_ascii_case("bearer")
        {
            return Err(Error::config(format!(
                "the OAuth2 token endpoint issued a `{}` token; only bearer tokens are supported",
                crate::error::bounded_text(kind, 64)
            )));
        }
        let lifetime = match &answer.expires_in {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Number(n)) => n.as_f64(),
            Some(serde_json::Value::String(s)) => s.trim().parse::<f64>().ok(),
            Some(_) => None,
        }
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(1e9)));
        let refresh_at = lifetime.map(|life| sent + life - (life / 5).min(REFRESH_AHEAD_MAX));
        let mut header = HeaderValue::from_str(&format!("Bearer {}", answer.access_token))
            .map_err(|_| {
                Error::decode(
                    "the OAuth2 access token has characters not allowed in a header",
                    b"",
                )
            })?;
        header.set_sensitive(true);
        let generation = 1 + self
            .fetched
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(Token {
            generation,
            header,
            refresh_at,
        })
    }
}
