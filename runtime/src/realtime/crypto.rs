//! End-to-end encrypted channels (`private-encrypted-`): each channel's key is
//! SHA-256(channel name ‖ 32-byte master key), and event data travels as
//! `{"nonce": b64(24 bytes), "ciphertext": b64(NaCl secretbox)}` (XSalsa20-Poly1305).
//!
//! ```
//! use tidings_runtime::realtime::crypto::{decrypt, encrypt, shared_secret, MasterKey};
//! let master = MasterKey::from_base64("zyrm8pvV2C9fJcBfhyXzvxbJVN/H7QLmbe0xJi1GhPU=")?;
//! let key = shared_secret("private-encrypted-bla", &master);
//! let sealed = encrypt(&key, br#"{"hello":"world"}"#);
//! assert_eq!(decrypt(&key, &sealed)?, br#"{"hello":"world"}"#);
//! # Ok::<(), tidings_runtime::Error>(())
//! ```

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use crypto_secretbox::aead::{Aead, KeyInit};
use crypto_secretbox::{Key, Nonce, XSalsa20Poly1305};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::decode_error;
use crate::Error;

/// The 32-byte master key of encrypted channels. Redacted in `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct MasterKey([u8; 32]);

impl fmt::Debug for MasterKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MasterKey(<redacted>)")
    }
}

impl MasterKey {
    /// From raw bytes.
    pub fn new(bytes: [u8; 32]) -> MasterKey {
        MasterKey(bytes)
    }

    /// From base64 text, as Pusher libraries take it.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] unless the text is base64 of exactly 32 bytes.
    pub fn from_base64(text: &str) -> Result<MasterKey, Error> {
        let bytes = BASE64
            .decode(text.trim())
            .map_err(|_| Error::config("the encryption master key is not base64"))?;
        let bytes: [u8; 32] = bytes.try_into().map_err(|b: Vec<u8>| {
            Error::config(format!(
                "the encryption master key must be 32 bytes, not {}",
                b.len()
            ))
        })?;
        Ok(MasterKey(bytes))
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

/// The key of one channel: SHA-256(channel name ‖ master key).
pub fn shared_secret(channel: &str, master: &MasterKey) -> [u8; 32] {
    let mut hash = Sha256::new();
    hash.update(channel.as_bytes());
    hash.update(master.0);
    hash.finalize().into()
}

/// Decodes a base64 `shared_secret` as an authorizer returns it.
///
/// # Errors
///
/// [`Error::Decode`] unless it is base64 of 32 bytes.
pub fn decode_shared_secret(text: &str) -> Result<[u8; 32], Error> {
    BASE64
        .decode(text.trim())
        .ok()
        .and_then(|b| <[u8; 32]>::try_from(b).ok())
        .ok_or_else(|| decode_error("shared_secret is not base64 of 32 bytes".into(), b""))
}

/// Encrypted event data: `{"nonce", "ciphertext"}`, both base64.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct EncryptedData {
    /// Base64 of 24 random bytes.
    pub nonce: String,
    /// Base64 of the sealed box (the Poly1305 tag first, as NaCl writes it).
    pub ciphertext: String,
}

impl EncryptedData {
    /// From its two base64 parts.
    pub fn new(nonce: impl Into<String>, ciphertext: impl Into<String>) -> EncryptedData {
        EncryptedData {
            nonce: nonce.into(),
            ciphertext: ciphertext.into(),
        }
    }
}

/// Seals `plaintext` under `key` with a fresh random nonce.
pub fn encrypt(key: &[u8; 32], plaintext: &[u8]) -> EncryptedData {
    let nonce: [u8; 24] = crate::random::bytes();
    encrypt_with_nonce(key, &nonce, plaintext)
}

/// Seals `plaintext` with the given nonce (tests and fixed vectors only: never reuse a nonce).
pub fn encrypt_with_nonce(key: &[u8; 32], nonce: &[u8; 24], plaintext: &[u8]) -> EncryptedData {
    let cipher = XSalsa20Poly1305::new(Key::from_slice(key));
    // Encryption into a Vec cannot fail for in-memory sizes.
    let sealed = cipher
        .encrypt(Nonce::from_slice(nonce), plaintext)
        .unwrap_or_default();
    EncryptedData {
        nonce: BASE64.encode(nonce),
        ciphertext: BASE64.encode(sealed),
    }
}

/// Opens sealed data.
///
/// # Errors
///
/// [`Error::Decode`] when the nonce or ciphertext is not valid base64 of the right size, or
/// the box does not open under `key` (tampered data or the wrong key).
pub fn decrypt(key: &[u8; 32], data: &EncryptedData) -> Result<Vec<u8>, Error> {
    let nonce = BASE64
        .decode(&data.nonce)
        .ok()
        .and_then(|n| <[u8; 24]>::try_from(n).ok())
        .ok_or_else(|| {
            decode_error(
                "encrypted data: the nonce is not base64 of 24 bytes".into(),
                data.nonce.as_bytes(),
            )
        })?;
    let sealed = BASE64.decode(&data.ciphertext).map_err(|_| {
        decode_error(
            "encrypted data: the ciphertext is not base64".into(),
            data.ciphertext.as_bytes(),
        )
    })?;
    XSalsa20Poly1305::new(Key::from_slice(key))
        .decrypt(Nonce::from_slice(&nonce), sealed.as_slice())
        .map_err(|_| {
            decode_error(
                "encrypted data does not open with this channel's key".into(),
                b"",
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MASTER: &str = "zyrm8pvV2C9fJcBfhyXzvxbJVN/H7QLmbe0xJi1GhPU=";

    #[test]
    fn shared_secret_vector_from_protocols_md() {
        let master = MasterKey::from_base64(MASTER).unwrap();
        assert_eq!(
            BASE64.encode(shared_secret("private-encrypted-bla", &master)),
            "nlr49ISQHz91yS3cy/yWmW8wFMNeTnNL5tNHnbPJcLQ="
        );
    }

    #[test]
    fn sealed_box_matches_nacl_layout_and_rejects_tampering() {
        let key = [7u8; 32];
        let sealed = encrypt_with_nonce(&key, &[1u8; 24], b"hello");
        // NaCl secretbox: 16-byte tag plus the message.
        assert_eq!(BASE64.decode(&sealed.ciphertext).unwrap().len(), 16 + 5);
        assert_eq!(decrypt(&key, &sealed).unwrap(), b"hello");
        assert!(decrypt(&[8u8; 32], &sealed).is_err());
        let mut bytes = BASE64.decode(&sealed.ciphertext).unwrap();
        bytes[20] ^= 1;
        let tampered = EncryptedData {
            nonce: sealed.nonce.clone(),
            ciphertext: BASE64.encode(bytes),
        };
        assert!(decrypt(&key, &tampered).is_err());
        let bad_nonce = EncryptedData {
            nonce: "AAAA".into(),
            ciphertext: sealed.ciphertext,
        };
        assert!(decrypt(&key, &bad_nonce).is_err());
        assert!(MasterKey::from_base64("c2hvcnQ=").is_err());
        assert!(format!("{:?}", MasterKey::new(key)).contains("redacted"));
    }
}
