//! Randomness straight from the operating system (`getrandom`): backoff jitter, nonces and
//! UUID v4 idempotency keys, plus the check for the hyphenated UUID form.

/// `N` random bytes from the operating system.
///
/// # Panics
///
/// When the operating system cannot supply random bytes (as `rand::random` would).
pub(crate) fn bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    if let Err(err) = getrandom::fill(&mut bytes) {
        panic!("the operating system's random number generator failed: {err}");
    }
    bytes
}

/// A uniformly distributed `f64` in `[0, 1)` (53 random bits).
pub(crate) fn unit_f64() -> f64 {
    let bits = u64::from_le_bytes(bytes()) >> 11;
    bits as f64 / (1u64 << 53) as f64
}

/// A fresh random UUID v4 in lowercase hyphenated form (`8-4-4-4-12` hex digits): 128 bits from
/// the operating system's generator, of which the `uuid` crate sets the version and variant.
pub(crate) fn uuid_v4() -> String {
    uuid::Builder::from_random_bytes(bytes())
        .into_uuid()
        .hyphenated()
        .to_string()
}

/// Whether `value` is a UUID in hyphenated form: 32 hex digits (either case) grouped 8-4-4-4-12.
/// Any version and variant.
pub(crate) fn is_hyphenated_uuid(value: &str) -> bool {
    // 36 characters: the hyphenated form is the only one `uuid` parses at that length.
    value.len() == 36 && uuid::Uuid::try_parse(value).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v4_keys_are_hyphenated_lowercase_with_version_and_variant() {
        for _ in 0..200 {
            let key = uuid_v4();
            assert!(is_hyphenated_uuid(&key), "{key}");
            assert!(!key.bytes().any(|b| b.is_ascii_uppercase()), "{key}");
            assert_eq!(&key[14..15], "4", "{key}");
            assert!(matches!(&key[19..20], "8" | "9" | "a" | "b"), "{key}");
        }
    }

    #[test]
    fn v4_keys_differ() {
        let keys: std::collections::HashSet<String> = (0..1000).map(|_| uuid_v4()).collect();
        assert_eq!(keys.len(), 1000);
    }

    #[test]
    fn unit_f64_is_in_range_and_spread() {
        let samples: Vec<f64> = (0..2000).map(|_| unit_f64()).collect();
        assert!(samples.iter().all(|x| (0.0..1.0).contains(x)));
        let low = samples.iter().filter(|&&x| x < 0.5).count();
        assert!((800..1200).contains(&low), "{low} of 2000 below 0.5");
    }

    #[test]
    fn bytes_differ() {
        assert_ne!(bytes::<24>(), bytes::<24>());
    }

    #[test]
    fn hyphenated_form_only() {
        assert!(is_hyphenated_uuid("67e55044-10b1-426f-9247-bb680e5fe0c8"));
        assert!(is_hyphenated_uuid("67E55044-10B1-426F-9247-BB680E5FE0C8"));
        assert!(is_hyphenated_uuid("00000000-0000-0000-0000-000000000000"));
        assert!(!is_hyphenated_uuid("67e5504410b1426f9247bb680e5fe0c8"));
        assert!(!is_hyphenated_uuid(
            "{67e55044-10b1-426f-9247-bb680e5fe0c8}"
        ));
        assert!(!is_hyphenated_uuid("67e55044-10b1-426f-9247-bb680e5fe0c"));
        assert!(!is_hyphenated_uuid("67e55044-10b1-426f-9247-bb680e5fe0c8a"));
        assert!(!is_hyphenated_uuid("67e5504-410b1-426f-9247-bb680e5fe0c8"));
        assert!(!is_hyphenated_uuid("67e55044-10b1-426f-9247-bb680e5fe0cg"));
        assert!(!is_hyphenated_uuid("67e55044+10b1-426f-9247-bb680e5fe0c8"));
        // 36 bytes but not 36 ASCII characters.
        assert!(!is_hyphenated_uuid("67e55044-10b1-426f-9247-bb680e5fe0é"));
    }
}
