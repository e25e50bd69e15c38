//! A crate that owns its spec: `spec/notes.yaml` becomes [`notes`] at build time (see
//! `build.rs`), with no provenance keys and docs that name this crate. The worked example of
//! `docs/OWN_SPECS.md`; its doc tests and `tests/loopback.rs` prove the guide.
//!
//! ```no_run
//! # async fn example() -> Result<(), own_spec::Error> {
//! let client = own_spec::notes::NotesClient::from_env()?;
//! let note = client
//!     .create_note(&own_spec::notes::NewNote::new("Standup at ten"))
//!     .await?;
//! println!("stored as {}", note.id);
//! # Ok(())
//! # }
//! ```

pub use tidings_runtime::{CallOptions, Error, Result};

include!(concat!(env!("OUT_DIR"), "/notes.rs"));
