//! Generates `own_spec::notes` (client) and `notes_server.rs` (server, used by the tests) from
//! `spec/notes.yaml` into `OUT_DIR`, under the optional-provenance policy of a crate's own specs.

use tidings_codegen::{Generator, ProvenancePolicy};

fn main() {
    // Writes into `OUT_DIR` (cargo's directory for a build script) unless `out_dir` says else.
    Generator::new("spec")
        // Our spec carries no `source:` keys, and its docs should not speak of a seed.
        .provenance(ProvenancePolicy::Optional)
        // Doc examples name this crate (`own_spec::notes::...`); the default in a build script
        // is the package name, spelled here so the guide shows the option.
        .crate_path("own_spec")
        // The server side too, for the loopback test: client types from this crate, support
        // from tidings-sandbox. Only the test includes it, so the library does not need axum.
        .server("::own_spec")
        .run_build_script();
}
