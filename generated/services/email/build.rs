//! Builds the email module from `spec/email.yaml`.
//!
//! With the `codegen` feature (on in this workspace), `tidings-codegen` generates it into
//! `OUT_DIR`: a broken spec fails the build with every problem listed as a cargo error. Without
//! it (what applications get), the crate compiles the copy committed in `src/prebuilt/`, and this
//! script only checks that the spec has not changed since that copy was written. Only this
//! service's spec is read, so an edit of another service's spec does not rebuild this crate.

fn main() {
    let spec_dir = tidings_build::spec_dir(".");
    #[cfg(feature = "codegen")]
    {
        let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| {
            eprintln!("error: OUT_DIR is not set; run this through cargo");
            std::process::exit(1);
        });
        tidings_codegen::project::email(&spec_dir)
            .out_dir(out_dir)
            .checked_in("src/prebuilt")
            .run_build_script();
    }
    #[cfg(not(feature = "codegen"))]
    tidings_build::check(spec_dir.join("email.yaml"), "src/prebuilt");
}
