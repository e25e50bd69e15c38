//! Generates the test-only service specs into `OUT_DIR` (the same way `generated/build.rs` does
//! for `../spec`), so tests compile and call real generated code for spec constructs the three
//! services do not use: `webhooks/spec/` (webhook payload types and signature schemes) and
//! `specs/` (form bodies, answer kinds, pagination styles, names and types, with their
//! generated server side).

fn main() {
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| {
        eprintln!("error: OUT_DIR is not set; run this through cargo");
        std::process::exit(1);
    });
    tidings_codegen::Generator::new("webhooks/spec")
        .out_dir(&out_dir)
        .run_build_script();
    // The server side too (`<service>_server.rs`), served by the sandbox's support code.
    tidings_codegen::Generator::new("specs")
        .out_dir(out_dir)
        .server("crate::generated")
        .run_build_script();
}
