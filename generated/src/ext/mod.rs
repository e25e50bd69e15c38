//! Hand-written additions to the generated modules: conveniences that are domain knowledge
//! rather than spec data (an attachment read from a file, an SMS segment count, ...). Each
//! file extends one service's generated types with inherent `impl` blocks.

#[cfg(feature = "email")]
pub(crate) mod email;
#[cfg(feature = "smtp")]
mod email_smtp;
#[cfg(feature = "messaging")]
pub(crate) mod messaging;
#[cfg(feature = "realtime")]
pub(crate) mod realtime;
