//! `tidings-codegen`: typed Rust clients from declarative YAML service specs.
//!
//! The pipeline is `load → check → emit → format`:
//! [`load`] reads `spec/*.yaml` into the [`model`] keeping every key's line and column,
//! [`check`] resolves names, applies every default once and collects every problem as a
//! [`Diagnostic`], giving the [`resolved`] model; [`emit`], [`export`] and [`gaps`] read only
//! that model. [`emit`] turns it into Rust tokens, formatted with `prettyplease`.
//!
//! A `build.rs` uses [`Generator`]:
//!
//! ```no_run
//! // Every *.yaml of ../spec, written into OUT_DIR (cargo's directory for a build script).
//! tidings_codegen::Generator::new("../spec").run_build_script();
//! ```

#![forbid(unsafe_code)]

pub mod check;
pub mod describe;
pub mod diag;
pub mod emit;
pub mod export;
pub mod gaps;
mod generator;
pub mod import;
pub mod load;
pub mod model;
mod names;
// How this repository's crates generate from `spec/` (their build scripts read it): hidden from
// the API docs and outside the semver promise. The other chores (the committed-code refresh,
// the synthetic specs of the benchmarks) are the binary's own (`src/cli/`).
#[doc(hidden)]
pub mod project;
pub mod resolved;

pub use check::ProvenancePolicy;
pub use diag::{Diagnostic, Diagnostics};
pub use generator::{GeneratedFile, Generator};
