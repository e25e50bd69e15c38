//! Builds the server side of every service (`<service>_server.rs`: a server trait and an axum
//! router over the `tidings` client types) from the specs, so the sandbox serves exactly what the
//! clients send.
//!
//! With the `codegen` feature, `tidings-codegen` generates them into `OUT_DIR` (a broken spec fails
//! the build with one line pointing at the `tidings` build, which lists every problem, so each is
//! printed once). Without it, the crate compiles the copy committed in `src/prebuilt/`, and this
//! script only checks that the specs have not changed since that copy was written.

fn main() {
    let spec_dir = tidings_build::spec_dir(".");
    #[cfg(feature = "codegen")]
    {
        let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| {
            eprintln!("error: OUT_DIR is not set; run this through cargo");
            std::process::exit(1);
        });
        tidings_codegen::project::sandbox(&spec_dir)
            .out_dir(out_dir)
            .checked_in("src/prebuilt")
            .run_build_script();
    }
    #[cfg(not(feature = "codegen"))]
    tidings_build::check(&spec_dir, "src/prebuilt");
}
