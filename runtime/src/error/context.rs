//! The call an error ended ([`CallContext`]) and how its advice is shown.

use std::fmt;

/// The call an error ended, as [`Error`](super::Error)'s `Display` shows it: service, operation, method and
/// URL (a query credential's value shown as `***`), the attempts made and why there was no
/// other, and what to check or change. Carried by every error a call's attempts end with
/// ([`Error::context`](super::Error::context)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallContext {
    /// The service, e.g. `"email"`.
    pub service: &'static str,
    /// The operation, e.g. `"get_email"`.
    pub operation: &'static str,
    /// The HTTP method, e.g. `"GET"`.
    pub method: String,
    /// The first attempt's URL, the value of a query credential replaced by `***`.
    pub url: String,
    /// Attempts made, the last one included.
    pub attempts: u32,
    /// Why no other attempt was made, as it reads after `failed after N attempts, `: `the most
    /// the retry policy allows`, `not retried: the request may have reached the server and is
    /// not safe to repeat`, ...; `None` when the failure is not retryable at all.
    pub not_retried: Option<String>,
    /// What to check or change, naming the setting or environment variable.
    pub advice: String,
}

/// `; <advice>` after a call's context, nothing when there is no advice.
pub(super) struct Advice<'a>(pub(super) &'a str);

impl fmt::Display for Advice<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            Ok(())
        } else {
            write!(f, "; {}", self.0)
        }
    }
}

impl fmt::Display for CallContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{} ({} {}) failed after {} attempt{}",
            self.service,
            self.operation,
            self.method,
            self.url,
            self.attempts,
            if self.attempts == 1 { "" } else { "s" }
        )?;
        if let Some(reason) = &self.not_retried {
            write!(f, ", {reason}")?;
        }
        Ok(())
    }
}
