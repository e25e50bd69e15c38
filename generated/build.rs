//! Generates the service modules from `../spec/*.yaml` into `OUT_DIR`.
//! A broken spec fails the build with every problem listed as a cargo error, as
//! `spec/<file>.yaml:line:column` (from the workspace root).

fn main() {
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| {
        eprintln!("error: OUT_DIR is not set; run this through cargo");
        std::process::exit(1);
    });
    comms_codegen::Generator::new("../spec")
        .out_dir(out_dir)
        // Hand-written items in `src/ext/<service>.rs` appear in `comms::<service>` too.
        .extension_module("crate::ext")
        .run_build_script();
}
