//! The closed words of a webhook signature scheme and payload type: the HMAC, how the
//! signature is written and how the body is encoded. A spec names them
//! (`algorithm: hmac_sha1`, `encoding: hex`, `encoding: form`); the runtime's `webhook`
//! module verifies and decodes by them; the sandbox signs by them.
//!
//! ```
//! use tidings_spec::{HmacAlgorithm, PayloadEncoding, SignatureEncoding};
//!
//! assert_eq!(HmacAlgorithm::Sha1.name(), "HMAC-SHA1");
//! assert_eq!(SignatureEncoding::Hex.name(), "hex");
//! assert_eq!(PayloadEncoding::Form.media_type(), "application/x-www-form-urlencoded");
//! ```

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
