//! Generates the test-only service specs under `webhooks/spec/` into `OUT_DIR` (the same way
//! `generated/build.rs` does for `../spec`), so tests compile and call real generated code for
//! spec constructs the three services do not use.

fn main() {
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| {
        eprintln!("error: OUT_DIR is not set; run this through cargo");
        std::process::exit(1);
    });
    comms_codegen::Generator::new("webhooks/spec")
        .out_dir(out_dir)
        .run_build_script();
}
