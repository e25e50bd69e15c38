//! Generates one module per spec in this directory (`*.yaml`, e.g. `sendgrid.yaml` →
//! `tidings_providers::sendgrid`) into `OUT_DIR`; `src/lib.rs` includes them.
//!
//! This is all a crate with its own specs needs: a build dependency on `tidings-codegen`, a
//! dependency on `tidings-runtime`, `serde` and `serde_json` (what the generated code calls), this
//! file, and one `include!` per spec. A broken spec fails the build with `file:line:column`.

fn main() {
    let Ok(out_dir) = std::env::var("OUT_DIR") else {
        eprintln!("error: OUT_DIR is not set; run this through cargo");
        std::process::exit(1);
    };
    // Specs are read from the crate's own directory; cargo reruns this when one changes.
    tidings_codegen::Generator::new(".")
        .out_dir(&out_dir)
        .run_build_script();
    // Specs made by `tidings-codegen import openapi` from the excerpts the provider tests serve,
    // checked in as imported (`imported/README.md`); their modules end in `_imported`.
    tidings_codegen::Generator::new("imported")
        .out_dir(&out_dir)
        .run_build_script();
    // The import-fidelity document (`codegen/tests/import/fidelity_3_0.yaml`) as imported, with
    // both serde directions on every type: its examples are decoded and encoded again.
    tidings_codegen::Generator::new("fidelity")
        .out_dir(&out_dir)
        .serde(tidings_codegen::emit::SerdeDirections::Both)
        .run_build_script();
}
