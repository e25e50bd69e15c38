//! Webhooks as data: a signature scheme ([`SignatureScheme`]: which header, which HMAC, over
//! what, how written) and a service's payload types ([`WebhookSpec`]: how each is encoded and
//! told apart), with the closed words a spec names for them (`algorithm: hmac_sha1`,
//! `encoding: hex`, `encoding: form`). The runtime's `webhook` module verifies and decodes by
//! them; the sandbox signs by them.
//!
//! ```
//! use tidings_spec::{HmacAlgorithm, PayloadEncoding, SignatureEncoding};
//!
//! assert_eq!(HmacAlgorithm::Sha1.name(), "HMAC-SHA1");
//! assert_eq!(SignatureEncoding::Hex.name(), "hex");
//! assert_eq!(PayloadEncoding::Form.media_type(), "application/x-www-form-urlencoded");
//! ```

use crate::storage::opt_text;
use crate::{Intern, Static, Storage, ToStatic};

/// The HMAC a webhook signature scheme uses. In a spec: `hmac_sha1`, `hmac_sha256`,
/// `hmac_sha512`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum HmacAlgorithm {
    /// HMAC-SHA1 (Twilio's `X-Twilio-Signature`).
    #[cfg_attr(feature = "serde", serde(rename = "hmac_sha1"))]
    Sha1,
    /// HMAC-SHA256.
    #[cfg_attr(feature = "serde", serde(rename = "hmac_sha256"))]
    Sha256,
    /// HMAC-SHA512.
    #[cfg_attr(feature = "serde", serde(rename = "hmac_sha512"))]
    Sha512,
}

impl HmacAlgorithm {
    /// Its usual name, as documentation writes it (`HMAC-SHA256`).
    pub const fn name(self) -> &'static str {
        match self {
            HmacAlgorithm::Sha1 => "HMAC-SHA1",
            HmacAlgorithm::Sha256 => "HMAC-SHA256",
            HmacAlgorithm::Sha512 => "HMAC-SHA512",
        }
    }
}

/// How the signature bytes are written in their header. In a spec: `base64` (the default) or
/// `hex`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SignatureEncoding {
    /// Standard base64 with padding.
    Base64,
    /// Hexadecimal (either case accepted on arrival).
    Hex,
}

impl SignatureEncoding {
    /// The name a spec writes (`hex`).
    pub const fn name(self) -> &'static str {
        match self {
            SignatureEncoding::Base64 => "base64",
            SignatureEncoding::Hex => "hex",
        }
    }
}

/// How a webhook payload's body is encoded. In a spec: `json` (the default) or `form`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PayloadEncoding {
    /// `application/json`.
    Json,
    /// `application/x-www-form-urlencoded` (Twilio's status callbacks).
    Form,
}

impl PayloadEncoding {
    /// Its media type.
    pub const fn media_type(self) -> &'static str {
        match self {
            PayloadEncoding::Json => "application/json",
            PayloadEncoding::Form => "application/x-www-form-urlencoded",
        }
    }
}

/// What a signature is computed over.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SignedContent<S: Storage = Static> {
    /// The raw body bytes.
    RawBody,
    /// The full URL the sender called, then each form parameter's name and value, sorted by name
    /// (then value), with no separators (Twilio's scheme).
    UrlSortedParams,
    /// A template over `{id}`, `{timestamp}`, `{body}` and `{url}`, such as
    /// `{id}.{timestamp}.{body}` (Standard Webhooks).
    Template(S::Str),
}

/// How the secret text becomes the HMAC key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretFormat {
    /// The secret's UTF-8 bytes are the key.
    Text,
    /// The key is the base64 of the secret, after an optional prefix (`whsec_`).
    Base64 {
        /// Stripped when present; `""` for none.
        prefix: &'static str,
    },
}

/// A webhook signature scheme, as data: which header, which HMAC, over what, how encoded.
/// Generated code emits one `static` per scheme a spec declares; [`STANDARD_WEBHOOKS`] and
/// [`PUSHER`] are built in. The runtime's `webhook::Verifier` verifies by it; the sandbox signs
/// by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignatureScheme {
    /// The scheme's name in the spec (`twilio`).
    pub name: &'static str,
    /// The header that carries the signature(s).
    pub header: &'static str,
    /// The HMAC.
    pub algorithm: HmacAlgorithm,
    /// What is signed.
    pub over: SignedContent,
    /// How signatures are written.
    pub encoding: SignatureEncoding,
    /// Written before each signature (`v1,`); `""` for none. Entries without it are skipped.
    pub prefix: &'static str,
    /// When set, the header holds several signatures separated by this character (key rotation);
    /// any one matching is enough.
    pub separator: Option<char>,
    /// The header with the message id (`{id}` in a template).
    pub id_header: Option<&'static str>,
    /// The header with the Unix timestamp (`{timestamp}` in a template, and the tolerance check).
    pub timestamp_header: Option<&'static str>,
    /// Largest allowed distance between the timestamp and now, in seconds; `None`: not checked.
    pub tolerance_s: Option<u64>,
    /// How the secret becomes the key.
    pub secret: SecretFormat,
    /// Other names accepted for the headers above: `(name, alias)` pairs.
    pub aliases: &'static [(&'static str, &'static str)],
}

/// [Standard Webhooks](https://www.standardwebhooks.com/): `webhook-signature` holds
/// space-separated `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, the key is the base64
/// part of `whsec_...`, timestamps within 5 minutes; `svix-*` header names are accepted too.
pub static STANDARD_WEBHOOKS: SignatureScheme = SignatureScheme {
    name: "standard_webhooks",
    header: "webhook-signature",
    algorithm: HmacAlgorithm::Sha256,
    over: SignedContent::Template("{id}.{timestamp}.{body}"),
    encoding: SignatureEncoding::Base64,
    prefix: "v1,",
    separator: Some(' '),
    id_header: Some("webhook-id"),
    timestamp_header: Some("webhook-timestamp"),
    tolerance_s: Some(300),
    secret: SecretFormat::Base64 { prefix: "whsec_" },
    aliases: &[
        ("webhook-id", "svix-id"),
        ("webhook-timestamp", "svix-timestamp"),
        ("webhook-signature", "svix-signature"),
    ],
};

/// Pusher webhooks: `X-Pusher-Signature` is the hex HMAC-SHA256 of the raw body, keyed with the
/// app secret.
pub static PUSHER: SignatureScheme = SignatureScheme {
    name: "pusher",
    header: "X-Pusher-Signature",
    algorithm: HmacAlgorithm::Sha256,
    over: SignedContent::RawBody,
    encoding: SignatureEncoding::Hex,
    prefix: "",
    separator: None,
    id_header: None,
    timestamp_header: None,
    tolerance_s: None,
    secret: SecretFormat::Text,
    aliases: &[],
};

/// What tells a payload type apart from the service's others.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Select<S: Storage = Static> {
    /// A header is present (`equals: None`) or has this value (case-sensitive).
    Header {
        /// The header name.
        name: S::Str,
        /// The value it must have.
        equals: Option<S::Str>,
    },
    /// A body field (a dot path into JSON; a parameter name in a form) is present or has this
    /// value (strings compared as text; a number, boolean or null when `equals` is that JSON value).
    Field {
        /// The field.
        name: S::Str,
        /// The value it must have.
        equals: Option<S::Str>,
    },
    /// The request path is exactly this.
    Path(S::Str),
}

/// One payload type of a service, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookSpec {
    /// Its name in the spec (`message_status`).
    pub name: &'static str,
    /// JSON or form.
    pub encoding: PayloadEncoding,
    /// What tells it apart; `None`: everything the others do not take.
    pub select: Option<Select>,
    /// Its signature scheme; `None`: unsigned (decoded only).
    pub signature: Option<&'static SignatureScheme>,
    /// The env var the runtime's `WebhookSecrets::from_env` reads the secret from.
    pub secret_env: Option<&'static str>,
}

impl Copy for SignedContent<Static> {}

impl Copy for Select<Static> {}

impl<S: Storage> SignedContent<S> {
    /// What the signature is over, as a spec names it.
    pub fn kind(&self) -> SignedOver {
        match self {
            SignedContent::RawBody => SignedOver::RawBody,
            SignedContent::UrlSortedParams => SignedOver::UrlSortedParams,
            SignedContent::Template(_) => SignedOver::Template,
        }
    }
}

/// What a signature is computed over, as a spec names it (`over: template`); the content with
/// its template is a `SignedContent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SignedOver {
    /// The raw body bytes.
    RawBody,
    /// The full URL, then every form parameter's name and value sorted by name (Twilio).
    UrlSortedParams,
    /// `template`, over `{id}`, `{timestamp}`, `{body}` and `{url}`.
    Template,
}

impl SecretFormat {
    /// The format's kind, as a spec names it.
    pub const fn kind(&self) -> SecretKind {
        match self {
            SecretFormat::Text => SecretKind::Text,
            SecretFormat::Base64 { .. } => SecretKind::Base64,
        }
    }
}

/// How a webhook secret becomes the HMAC key, as a spec names it (`secret_format: base64`);
/// the format with its prefix is a `SecretFormat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "SecretFormat"))]
pub enum SecretKind {
    /// The secret's UTF-8 bytes (the default).
    Text,
    /// Base64-decoded, after `secret_prefix` when present.
    Base64,
}

impl<S: Storage> ToStatic for SignedContent<S> {
    type Static = SignedContent;

    fn to_static(&self, intern: &mut impl Intern) -> SignedContent {
        match self {
            SignedContent::RawBody => SignedContent::RawBody,
            SignedContent::UrlSortedParams => SignedContent::UrlSortedParams,
            SignedContent::Template(t) => SignedContent::Template(intern.text(t.as_ref())),
        }
    }
}

impl<S: Storage> ToStatic for Select<S> {
    type Static = Select;

    fn to_static(&self, intern: &mut impl Intern) -> Select {
        match self {
            Select::Header { name, equals } => Select::Header {
                name: intern.text(name.as_ref()),
                equals: opt_text(equals.as_ref(), intern),
            },
            Select::Field { name, equals } => Select::Field {
                name: intern.text(name.as_ref()),
                equals: opt_text(equals.as_ref(), intern),
            },
            Select::Path(path) => Select::Path(intern.text(path.as_ref())),
        }
    }
}
