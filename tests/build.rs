//! Generates clients from `specs/*.yaml` into `OUT_DIR`: test services that exercise spec
//! constructs the real services do not use yet (form bodies, answer kinds, pagination styles),
//! with their generated server side.

fn main() {
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| {
        eprintln!("error: OUT_DIR is not set; run this through cargo");
        std::process::exit(1);
    });
    // The server side too (`<service>_server.rs`), served by the sandbox's support code.
    comms_codegen::Generator::new("specs")
        .out_dir(out_dir)
        .server("crate::generated")
        .run_build_script();
}
