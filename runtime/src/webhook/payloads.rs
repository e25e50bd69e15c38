//! Services with several webhook payload types: which type a delivery is ([`Select`]), its
//! encoding, the secrets per type, and [`receive`] (verify, select, decode in one call).

#[allow(clippy::wildcard_imports)] // the verifier's imports and helpers
use super::*;

use tidings_spec::{PayloadEncoding, Select, WebhookSpec};

/// Secrets for a service's signature schemes, by scheme name (or one for all), and the limits
/// deliveries are read with. `Debug` never shows a secret.
#[derive(Clone, Default)]
pub struct WebhookSecrets {
    by_scheme: Vec<(String, Secret)>,
    all: Option<Secret>,
    limits: WebhookLimits,
}

impl fmt::Debug for WebhookSecrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let schemes: Vec<&str> = self.by_scheme.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("WebhookSecrets")
            .field("schemes", &schemes)
            .field("all", &self.all.as_ref().map(|_| "<redacted>"))
            .field("limits", &self.limits)
            .finish()
    }
}

impl WebhookSecrets {
    /// No secrets: only unsigned payloads are accepted.
    pub fn new() -> Self {
        Self::default()
    }

    /// One secret for every scheme (most providers sign with one account secret).
    pub fn all(secret: impl Into<String>) -> Self {
        WebhookSecrets {
            all: Some(Secret::new(secret.into())),
            ..Self::default()
        }
    }

    /// Adds the secret of one scheme (by its name in the spec).
    pub fn with(mut self, scheme: impl Into<String>, secret: impl Into<String>) -> Self {
        self.by_scheme
            .push((scheme.into(), Secret::new(secret.into())));
        self
    }

    /// Changes the body and form limits.
    pub fn with_limits(mut self, limits: WebhookLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The body and form limits deliveries are read with.
    pub fn limits(&self) -> &WebhookLimits {
        &self.limits
    }

    /// Reads each signed payload type's `secret_env`; a missing variable is a config error
    /// naming it.
    pub fn from_env(webhooks: &[WebhookSpec]) -> Result<Self, Error> {
        let mut secrets = WebhookSecrets::new();
        for hook in webhooks {
            let (Some(scheme), Some(env)) = (hook.signature, hook.secret_env) else {
                continue;
            };
            if secrets.by_scheme.iter().any(|(n, _)| n == scheme.name) {
                continue;
            }
            let value = std::env::var(env).map_err(|_| {
                Error::config(format!(
                    "the webhook secret `{env}` is not set (signature scheme `{}`)",
                    scheme.name
                ))
            })?;
            secrets = secrets.with(scheme.name, value);
        }
        Ok(secrets)
    }

    fn secret(&self, scheme: &'static SignatureScheme) -> Result<&Secret, Error> {
        self.by_scheme
            .iter()
            .find(|(n, _)| n == scheme.name)
            .map(|(_, s)| s)
            .or(self.all.as_ref())
            .ok_or(Error::Webhook(WebhookFailure::MissingSecret(scheme.name)))
    }
}

/// Which of `webhooks` a delivery is: the first whose [`Select`] matches, else the first
/// without one; [`WebhookFailure::UnknownPayload`] when none.
pub fn select(
    webhooks: &[WebhookSpec],
    request: &WebhookRequest<'_>,
    limits: &WebhookLimits,
) -> Result<usize, Error> {
    limits.check_body(request.body)?;
    // The body is parsed at most once per encoding, and only when a field decides.
    let mut json: Option<Option<serde_json::Value>> = None;
    let mut form: Option<Vec<(String, String)>> = None;
    for (index, hook) in webhooks.iter().enumerate() {
        let Some(select) = hook.select else { continue };
        let matched = match select {
            Select::Path(path) => request.path() == path,
            Select::Header { name, equals } => {
                let value = request.headers.get(name).and_then(|v| v.to_str().ok());
                value.is_some_and(|v| equals.is_none_or(|e| v.trim() == e))
            }
            Select::Field { name, equals } => match hook.encoding {
                PayloadEncoding::Json => {
                    let doc = json
                        .get_or_insert_with(|| serde_json::from_slice(request.body).ok())
                        .as_ref();
                    let value = doc.and_then(|d| name.split('.').try_fold(d, |v, k| v.get(k)));
                    value.is_some_and(|v| {
                        equals.is_none_or(|e| match v {
                            serde_json::Value::String(s) => s == e,
                            other => serde_json::from_str::<serde_json::Value>(e)
                                .is_ok_and(|want| want == *other),
                        })
                    })
                }
                PayloadEncoding::Form => {
                    // A body that is not a form (or too large a one) matches no form field;
                    // decoding reports the limit when a form type takes it.
                    if form.is_none() {
                        form = Some(form_pairs(request.body, limits).unwrap_or_default());
                    }
                    form.iter()
                        .flatten()
                        .any(|(k, v)| k == name && equals.is_none_or(|e| v == e))
                }
            },
        };
        if matched {
            return Ok(index);
        }
    }
    webhooks
        .iter()
        .position(|h| h.select.is_none())
        .ok_or(Error::Webhook(WebhookFailure::UnknownPayload))
}

/// Picks the payload type of a delivery ([`select`]) and verifies its signature (unsigned
/// types are not verified); returns its index in `webhooks`. Generated `handle_webhook`
/// functions call this, then decode with [`decode_payload`].
pub fn receive(
    webhooks: &[WebhookSpec],
    secrets: &WebhookSecrets,
    request: &WebhookRequest<'_>,
) -> Result<usize, Error> {
    let index = select(webhooks, request, &secrets.limits)?;
    if let Some(scheme) = webhooks.get(index).and_then(|h| h.signature) {
        verify(scheme, secrets, request)?;
    }
    Ok(index)
}

/// Verifies one delivery with the scheme's secret from `secrets`.
pub fn verify(
    scheme: &'static SignatureScheme,
    secrets: &WebhookSecrets,
    request: &WebhookRequest<'_>,
) -> Result<(), Error> {
    let secret = secrets.secret(scheme)?;
    Verifier::new(scheme, secret.expose())?
        .with_limits(secrets.limits)
        .verify(request)
}

/// Decodes a payload body (JSON or form), bounded by [`WebhookLimits::DEFAULT`]; a body that
/// does not fit the type is [`Error::Decode`] with an excerpt.
pub fn decode_payload<T: DeserializeOwned>(
    encoding: PayloadEncoding,
    body: &[u8],
) -> Result<T, Error> {
    decode_payload_with(encoding, body, &WebhookLimits::DEFAULT)
}

/// [`decode_payload`] with explicit limits.
pub fn decode_payload_with<T: DeserializeOwned>(
    encoding: PayloadEncoding,
    body: &[u8],
    limits: &WebhookLimits,
) -> Result<T, Error> {
    limits.check_body(body)?;
    match encoding {
        PayloadEncoding::Json => serde_json::from_slice(body)
            .map_err(|e| decode_error("webhook payload", &e.to_string(), body)),
        PayloadEncoding::Form => {
            // Count first, so a body of a million `&` is refused before any decoding.
            form_pairs(body, limits)?;
            serde_urlencoded::from_bytes(body)
                .map_err(|e| decode_error("webhook form payload", &e.to_string(), body))
        }
    }
}
