//! Builds the service modules from the specs (`spec/*.yaml`).
//!
//! With the `codegen` feature (on in this workspace), `comms-codegen` generates them into
//! `OUT_DIR`: a broken spec fails the build with every problem listed as a cargo error, as
//! `spec/<file>.yaml:line:column`. Without it (what applications get), the crate compiles the
//! copy committed in `src/prebuilt/`, and this script only checks that the specs have not
//! changed since that copy was written.

fn main() {
    let spec_dir = comms_prebuilt::spec_dir(".");
    #[cfg(feature = "codegen")]
    {
        let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| {
            eprintln!("error: OUT_DIR is not set; run this through cargo");
            std::process::exit(1);
        });
        comms_codegen::project::comms(&spec_dir)
            .out_dir(out_dir)
            .checked_in("src/prebuilt")
            .run_build_script();
    }
    #[cfg(not(feature = "codegen"))]
    comms_prebuilt::check(&spec_dir, "src/prebuilt");
}
