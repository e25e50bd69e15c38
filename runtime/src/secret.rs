//! [`Secret`]: a credential value that is redacted in `Debug`, never logged and compared in
//! constant time.

use std::fmt;
use std::sync::Arc;

/// A secret string (API key, app secret, webhook secret).
///
/// `Debug` prints `Secret(<redacted>)`; there is deliberately no `Display`. Read the value with
/// [`Secret::expose`] at the one place that sends it. Cloning is cheap (shared).
///
/// ```
/// # use tidings_runtime::Secret;
/// let key = Secret::new("sk_live_123");
/// assert_eq!(format!("{key:?}"), "Secret(<redacted>)");
/// assert_eq!(key.expose(), "sk_live_123");
/// ```
#[derive(Clone)]
pub struct Secret(Arc<str>);

impl Secret {
    /// Wraps a value.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(Arc::from(value.into()))
    }

    /// The value itself. Call only where it is sent or used as a key.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether the value is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

impl PartialEq for Secret {
    /// Constant-time in the length of the shorter value.
    fn eq(&self, other: &Self) -> bool {
        constant_time_eq(self.0.as_bytes(), other.0.as_bytes())
    }
}

impl Eq for Secret {}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Secret::new(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Secret::new(value)
    }
}

/// Whether two byte strings are equal, in time that does not depend on where they first
/// differ (only on their lengths): for comparing presented credentials and signatures with
/// the expected ones. The workspace's one implementation, on `subtle`.
///
/// ```
/// use tidings_runtime::constant_time_eq;
/// assert!(constant_time_eq(b"sk_live_123", b"sk_live_123"));
/// assert!(!constant_time_eq(b"sk_live_123", b"sk_live_124"));
/// assert!(!constant_time_eq(b"sk_live_123", b"sk_live_12"));
/// ```
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    // `ct_eq` on slices of different lengths is false without looking at the bytes.
    bool::from(a.ct_eq(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_is_redacted() {
        let s = Secret::new("hunter2");
        assert!(!format!("{s:?}").contains("hunter2"));
        assert!(!format!("{:?}", Some(s.clone())).contains("hunter2"));
    }

    #[test]
    fn equality_compares_values() {
        assert_eq!(Secret::new("a"), Secret::new("a"));
        assert_ne!(Secret::new("a"), Secret::new("b"));
        assert_ne!(Secret::new("a"), Secret::new("ab"));
    }

    #[test]
    fn constant_time_eq_compares_whole_values() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(constant_time_eq(b"", b""));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
        assert!(!constant_time_eq(b"", b"a"));
    }
}
