//! Generates the client and the server of the test-only specs in `specs/` (today `shapes.yaml`,
//! every naming and typing construct) into `OUT_DIR`, for `tests/names_types.rs`.

fn main() {
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| {
        eprintln!("error: OUT_DIR is not set; run this through cargo");
        std::process::exit(1);
    });
    comms_codegen::Generator::new("specs")
        .out_dir(out_dir)
        // The test includes the client module at its crate root.
        .server("crate")
        .run_build_script();
}
