//! The messaging service's typed client, generated from `spec/messaging.yaml`: the module
//! [`messaging`] (SMS, WhatsApp, voice and Instagram messages through one API, with the SMS
//! segment calculator `messaging::sms`).
//!
//! Apps depend on `tidings`, which re-exports this crate as `tidings::messaging` (and the errors,
//! options and runtime types it uses); its documentation has the overview. The services are
//! separate crates so that an edit of one spec recompiles one service, and an app that uses one
//! service can depend on `tidings` with that service's feature only.

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// Hand-written additions to the generated module: conveniences that are domain knowledge rather
/// than spec data. The generated module re-exports their public items beside its own.
mod ext {
    pub(crate) mod messaging;
}

// The module is generated from the spec at build time with the `codegen` feature, otherwise the
// committed copy of the same code (`tidings-codegen refresh` writes it).
#[cfg(feature = "codegen")]
include!(concat!(env!("OUT_DIR"), "/messaging.rs"));
#[cfg(not(feature = "codegen"))]
include!("prebuilt/messaging.rs");
