//! The resolved `events.webhooks` and `events.signatures`: payload types with their selection
//! and signature scheme, and the schemes as the runtime's generic verifier reads them.

use super::Origin;
use crate::model::{HmacAlgorithm, PayloadEncoding, SecretKind, SignatureEncoding};
use tidings_spec::{Owned, Select, SignedContent};

/// One webhook payload type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookTypeInfo {
    /// Its name in the spec (`message_status`), snake_case.
    pub name: String,
    /// The payload type's name.
    pub ty: String,
    /// JSON or form.
    pub encoding: PayloadEncoding,
    /// What tells it apart; `None`: the fallback.
    pub select: Option<Select<Owned>>,
    /// The name of its scheme in [`crate::resolved::Service::signatures`]; `None`: unsigned.
    pub signature: Option<String>,
    /// The env var with its secret (its own, else the scheme's).
    pub secret_env: Option<String>,
    /// What it is.
    pub doc: Option<String>,
    /// Where it comes from.
    pub origin: Origin,
}

/// A signature scheme used by at least one payload type, defaults applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureInfo {
    /// Its name (`twilio`, or a built-in: `standard_webhooks`, `pusher`).
    pub name: String,
    /// True for the runtime's built-in instances (emitted as references to them).
    pub builtin: bool,
    /// The signature header.
    pub header: String,
    /// The HMAC.
    pub algorithm: HmacAlgorithm,
    /// What is signed.
    pub over: SignedContent<Owned>,
    /// How signatures are written.
    pub encoding: SignatureEncoding,
    /// Before each signature; `""` for none.
    pub prefix: String,
    /// Between several signatures.
    pub separator: Option<char>,
    /// The id header.
    pub id_header: Option<String>,
    /// The timestamp header.
    pub timestamp_header: Option<String>,
    /// Tolerance in seconds.
    pub tolerance_s: Option<u64>,
    /// How the secret becomes the key.
    pub secret_format: SecretKind,
    /// Stripped from the secret; `""` for none.
    pub secret_prefix: String,
    /// Env var of the secret.
    pub secret_env: Option<String>,
    /// What it is.
    pub doc: Option<String>,
}

impl SignatureInfo {
    /// Standard Webhooks, as `tidings_runtime::spec::STANDARD_WEBHOOKS` defines it.
    pub fn standard_webhooks() -> Self {
        SignatureInfo {
            name: "standard_webhooks".into(),
            builtin: true,
            header: "webhook-signature".into(),
            algorithm: HmacAlgorithm::Sha256,
            over: SignedContent::Template("{id}.{timestamp}.{body}".into()),
            encoding: SignatureEncoding::Base64,
            prefix: "v1,".into(),
            separator: Some(' '),
            id_header: Some("webhook-id".into()),
            timestamp_header: Some("webhook-timestamp".into()),
            tolerance_s: Some(super::defaults::WEBHOOK_TOLERANCE_S),
            secret_format: SecretKind::Base64,
            secret_prefix: "whsec_".into(),
            secret_env: None,
            doc: Some("Standard Webhooks: HMAC-SHA256 over `{id}.{timestamp}.{body}`.".into()),
        }
    }

    /// Pusher, as `tidings_runtime::spec::PUSHER` defines it.
    pub fn pusher() -> Self {
        SignatureInfo {
            name: "pusher".into(),
            builtin: true,
            header: "X-Pusher-Signature".into(),
            algorithm: HmacAlgorithm::Sha256,
            over: SignedContent::RawBody,
            encoding: SignatureEncoding::Hex,
            prefix: String::new(),
            separator: None,
            id_header: None,
            timestamp_header: None,
            tolerance_s: None,
            secret_format: SecretKind::Text,
            secret_prefix: String::new(),
            secret_env: None,
            doc: Some("Pusher: hex HMAC-SHA256 of the raw body with the app secret.".into()),
        }
    }

    /// A sentence saying how the signature is made (for docs and exports).
    pub fn describe(&self) -> String {
        let alg = self.algorithm.name();
        let over = match &self.over {
            SignedContent::RawBody => "the raw body".to_owned(),
            SignedContent::UrlSortedParams => {
                "the full URL followed by each form parameter's name and value, sorted by name"
                    .to_owned()
            }
            SignedContent::Template(t) => format!("`{t}`"),
        };
        let enc = self.encoding.name();
        let prefix = if self.prefix.is_empty() {
            String::new()
        } else {
            format!(", prefixed `{}`", self.prefix)
        };
        let several = self
            .separator
            .map(|c| format!("; several signatures separated by `{c}`, any one matching"))
            .unwrap_or_default();
        let tolerance = self
            .tolerance_s
            .map(|t| format!("; the timestamp must be within {t} s of now"))
            .unwrap_or_default();
        format!(
            "`{}`: {enc} {alg} of {over}{prefix}{several}{tolerance}",
            self.header
        )
    }
}
