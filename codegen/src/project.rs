//! How this repository's crates generate from `spec/`, defined once: their build scripts use
//! these generators (with their `codegen` feature), and the binary's `refresh` writes the same files
//! into their committed `src/prebuilt/`, which builds without the generator compile instead.

use std::path::Path;

use crate::Generator;

/// Where a crate commits its generated code, relative to the crate.
pub const PREBUILT_DIR: &str = "src/prebuilt";

/// A crate of this repository that generates from the specs and commits the result.
#[derive(Debug, Clone, Copy)]
pub struct ProjectCrate {
    /// The crate's directory, relative to the workspace root (the spec directory's parent).
    pub dir: &'static str,
    /// Its generator for a spec directory.
    pub generator: fn(&Path) -> Generator,
}

/// Every crate that commits generated code.
pub const CRATES: &[ProjectCrate] = &[
    ProjectCrate {
        dir: "generated",
        generator: tidings,
    },
    ProjectCrate {
        dir: "sandbox",
        generator: sandbox,
    },
];

/// `tidings`: the client modules, with the hand-written items of `src/ext/<service>.rs`
/// re-exported beside the generated ones.
pub fn tidings(spec_dir: &Path) -> Generator {
    Generator::new(spec_dir)
        .extension_module("crate::ext")
        .crate_path("tidings")
}

/// `tidings-sandbox`: the server modules (a trait and an axum router per service) over the
/// client types of `tidings`; spec problems are listed once, by the build of `tidings`.
pub fn sandbox(spec_dir: &Path) -> Generator {
    Generator::new(spec_dir)
        .server("::tidings")
        .server_support("crate::server")
        .server_only()
        .problems_reported_by("tidings")
}
