//! The realtime service's typed client, generated from `spec/realtime.yaml`: the module
//! [`realtime`] (the HTTP API: triggers, channels, users) and [`pusher`], the WebSocket client
//! and the app server's channel authorization (the Pusher Channels protocol).
//!
//! Apps depend on `tidings`, which re-exports this crate as `tidings::realtime` (and the errors,
//! options and runtime types it uses); its documentation has the overview. The services are
//! separate crates so that an edit of one spec recompiles one service, and an app that uses one
//! service can depend on `tidings` with that service's feature only.

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// Hand-written additions to the generated module: conveniences that are domain knowledge rather
/// than spec data. The generated module re-exports their public items beside its own.
mod ext {
    pub(crate) mod realtime;
}

pub use ext::realtime::pusher;

// The module is generated from the spec at build time with the `codegen` feature, otherwise the
// committed copy of the same code (`tidings-codegen refresh` writes it).
#[cfg(feature = "codegen")]
include!(concat!(env!("OUT_DIR"), "/realtime.rs"));
#[cfg(not(feature = "codegen"))]
include!("prebuilt/realtime.rs");
