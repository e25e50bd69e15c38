//! The connection state machine, as pusher-js exposes it, and the reconnect policy the spec's
//! close-code ranges define.

use std::fmt;
use std::time::Duration;

use super::{CloseAction, WebSocketSpec};

/// Where a connection stands.
///
/// `Initialized` → `Connecting` → `Connected`; a lost connection goes back to `Connecting`
/// (or `Unavailable` while the server cannot be reached); [`crate::realtime::Connection::disconnect`]
/// ends in `Disconnected`; a close code that forbids reconnecting ends in `Failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConnectionState {
    /// Created, not yet connecting.
    Initialized,
    /// Opening the socket or waiting for `connection_established`.
    Connecting,
    /// Connected: the socket id is known.
    Connected,
    /// The server cannot be reached; retrying with backoff.
    Unavailable,
    /// Closed on purpose; no reconnect.
    Disconnected,
    /// The server refused the connection for good (a close code that forbids reconnecting).
    Failed,
}

impl ConnectionState {
    /// The lower-case name pusher-js uses.
    pub fn as_str(self) -> &'static str {
        match self {
            ConnectionState::Initialized => "initialized",
            ConnectionState::Connecting => "connecting",
            ConnectionState::Connected => "connected",
            ConnectionState::Unavailable => "unavailable",
            ConnectionState::Disconnected => "disconnected",
            ConnectionState::Failed => "failed",
        }
    }

    /// True for states the connection never leaves by itself.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            ConnectionState::Disconnected | ConnectionState::Failed
        )
    }
}

impl fmt::Display for ConnectionState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A state transition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct StateChange {
    /// The state before.
    pub previous: ConnectionState,
    /// The state now.
    pub current: ConnectionState,
}

/// What to do after the socket closed or could not open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reconnect {
    /// Do not reconnect.
    Never,
    /// Reconnect after this long.
    After(Duration),
}

/// The reconnect plan for a close `code` (`None`: the socket broke or never opened), on the
/// `attempt`-th consecutive failure (0-based).
pub(crate) fn after_close(spec: &WebSocketSpec, code: Option<u16>, attempt: u32) -> Reconnect {
    let backoff = jittered(spec, attempt);
    match code.and_then(|c| spec.close_code(c)) {
        Some(rule) => match rule.action {
            CloseAction::Fail => Reconnect::Never,
            CloseAction::Reconnect => Reconnect::After(Duration::ZERO),
            CloseAction::Backoff => {
                Reconnect::After(backoff.max(Duration::from_millis(rule.min_delay_ms)))
            }
        },
        None => Reconnect::After(backoff),
    }
}

/// Full jitter: `rand[0,1) × min(cap, base × 2^attempt)`.
fn jittered(spec: &WebSocketSpec, attempt: u32) -> Duration {
    let r = spec.reconnect;
    let ceiling = r
        .base_ms
        .saturating_mul(1u64 << attempt.min(20))
        .min(r.cap_ms);
    Duration::from_millis((crate::random::unit_f64() * ceiling as f64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::realtime::test_spec::SPEC;

    #[test]
    fn close_code_ranges_decide_the_reconnect() {
        assert_eq!(after_close(&SPEC, Some(4000), 0), Reconnect::Never);
        assert_eq!(after_close(&SPEC, Some(4099), 3), Reconnect::Never);
        assert_eq!(
            after_close(&SPEC, Some(4200), 5),
            Reconnect::After(Duration::ZERO)
        );
        for attempt in 0..8 {
            match after_close(&SPEC, Some(4100), attempt) {
                Reconnect::After(d) => {
                    assert!(d >= Duration::from_secs(1) && d <= Duration::from_secs(30))
                }
                Reconnect::Never => panic!("4100 reconnects"),
            }
            match after_close(&SPEC, None, attempt) {
                Reconnect::After(d) => assert!(d <= Duration::from_secs(30)),
                Reconnect::Never => panic!("a broken socket reconnects"),
            }
        }
        assert_eq!(ConnectionState::Unavailable.to_string(), "unavailable");
        assert!(ConnectionState::Failed.is_final());
    }
}
