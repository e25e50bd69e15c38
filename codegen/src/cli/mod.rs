//! The binary's chores for this repository: `refresh` (every derived, committed file) and
//! `synth` (synthetic specs for the benchmarks). Not in the library: an application that
//! generates from its own specs needs neither.

pub(crate) mod refresh;
// The binary prints `spec`; the rest (`mangled`, `Rng`, `HARD_NAMES`) is for the tests and
// benchmarks that include this file.
#[allow(dead_code)]
pub(crate) mod synthetic;
