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
        dir: "generated/services/email",
        generator: email,
    },
    ProjectCrate {
        dir: "generated/services/messaging",
        generator: messaging,
    },
    ProjectCrate {
        dir: "generated/services/realtime",
        generator: realtime,
    },
    ProjectCrate {
        dir: "sandbox",
        generator: sandbox,
    },
];

/// A service's client crate (`tidings-<service>`): its module generated from
/// `spec/<service>.yaml` alone, with the hand-written items of `src/ext/<service>.rs` re-exported
/// beside the generated ones. One crate per service, so an edit of one spec recompiles that
/// service only; `tidings` re-exports the three. Doc examples name `tidings`, the crate apps use.
pub fn service(spec_dir: &Path, name: &str) -> Generator {
    Generator::new(spec_dir.join(format!("{name}.yaml")))
        .extension_module("crate::ext")
        .crate_path("tidings")
}

/// `tidings-email`: [`service`] `email`.
pub fn email(spec_dir: &Path) -> Generator {
    service(spec_dir, "email")
}

/// `tidings-messaging`: [`service`] `messaging`.
pub fn messaging(spec_dir: &Path) -> Generator {
    service(spec_dir, "messaging")
}

/// `tidings-realtime`: [`service`] `realtime`.
pub fn realtime(spec_dir: &Path) -> Generator {
    service(spec_dir, "realtime")
}

/// `tidings-sandbox`: the server modules (a trait and an axum router per service) over the
/// client types of `tidings`; spec problems are listed once, by the build of the service's client
/// crate (`tidings-<service>`).
pub fn sandbox(spec_dir: &Path) -> Generator {
    Generator::new(spec_dir)
        .server("::tidings")
        .server_support("crate::server")
        .server_only()
        .problems_reported_by("tidings-<service>")
}
