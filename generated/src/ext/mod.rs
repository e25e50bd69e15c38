//! Hand-written additions to the generated modules: conveniences that are domain knowledge
//! rather than spec data (an attachment read from a file, an SMS segment count, ...). Each
//! file extends one service's generated types with inherent `impl` blocks.

#[cfg(feature = "email")]
mod email;
#[cfg(feature = "messaging")]
mod messaging;
#[cfg(feature = "realtime")]
mod realtime;
