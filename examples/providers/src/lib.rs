//! Typed clients for real providers' APIs, generated at build time from the specs beside this
//! crate's `Cargo.toml` (see `build.rs`): the proof that the spec language describes real
//! communication APIs (issue 16), and the example of a crate that owns its specs.
//!
//! Each spec was written from the provider's published OpenAPI document; the excerpts the
//! tests serve through Prism, and their sources, are in `tests/providers/`.

pub use tidings_runtime::{CallOptions, Error, Result};

include!(concat!(env!("OUT_DIR"), "/postmark.rs"));
include!(concat!(env!("OUT_DIR"), "/sendgrid.rs"));
include!(concat!(env!("OUT_DIR"), "/twilio.rs"));
include!(concat!(env!("OUT_DIR"), "/vonage.rs"));

// Imported unchanged from the excerpts by `tidings-codegen import openapi` (see `imported/`).
include!(concat!(env!("OUT_DIR"), "/brevo_imported.rs"));
include!(concat!(env!("OUT_DIR"), "/clicksend_imported.rs"));
include!(concat!(env!("OUT_DIR"), "/infobip_voice_imported.rs"));
include!(concat!(env!("OUT_DIR"), "/mailgun_imported.rs"));
include!(concat!(env!("OUT_DIR"), "/resend_imported.rs"));
include!(concat!(env!("OUT_DIR"), "/sendgrid_imported.rs"));
include!(concat!(env!("OUT_DIR"), "/twilio_imported.rs"));

include!(concat!(env!("OUT_DIR"), "/fidelity_imported.rs"));
include!(concat!(env!("OUT_DIR"), "/operations_imported.rs"));
