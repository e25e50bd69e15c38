//! What a build script needs to ship generated code without compiling the generator.
//!
//! `tidings` and `tidings-sandbox` commit the code `tidings-codegen` generates from `spec/*.yaml`
//! (their `src/prebuilt/` directories), so an application that depends on them compiles no YAML
//! parser, no `syn` and no formatter. Their `codegen` feature turns the generator back on (the
//! workspace does, so editing a spec and running `cargo build` still rebuilds the clients).
//!
//! Without the generator, a build script can still tell when the committed code no longer matches
//! the specs beside it: [`fingerprint`] hashes the spec files, `tidings-codegen refresh` writes that
//! hash into [`FINGERPRINT_FILE`] next to the code, and [`check`] compares the two.
//!
//! ```no_run
//! // build.rs of a crate shipping `src/prebuilt/`
//! let spec_dir = tidings_build::spec_dir(".");
//! tidings_build::check(&spec_dir, "src/prebuilt");
//! ```

#![forbid(unsafe_code)]

use std::io;
use std::path::{Path, PathBuf};

/// The file in a prebuilt directory that holds the [`fingerprint`] of the specs its code was
/// generated from.
pub const FINGERPRINT_FILE: &str = "spec.fingerprint";

/// The command that rewrites the committed code from the specs.
pub const REFRESH_COMMAND: &str = "cargo run -p tidings-codegen -- refresh";

/// The spec files of `spec_dir` (`*.yaml` and `*.yml`, not in subdirectories), sorted by name;
/// `spec_dir` may also name one spec file (a crate generated from one service's spec), which is
/// then the only one.
pub fn spec_files(spec_dir: &Path) -> io::Result<Vec<PathBuf>> {
    if spec_dir.is_file() {
        return Ok(vec![spec_dir.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(spec_dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    files.sort();
    Ok(files)
}

/// A hash of the spec files of `spec_dir` (names and contents): 16 hex digits, stable across
/// platforms, Rust versions and checkouts (64-bit FNV-1a; a change detector, not a security
/// measure).
pub fn fingerprint(spec_dir: &Path) -> io::Result<String> {
    let mut hash = Fnv::default();
    for path in spec_files(spec_dir)? {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        hash.write(name.unwrap_or_default().as_bytes());
        hash.write(&[0]);
        let contents = std::fs::read(&path)?;
        hash.write(&(contents.len() as u64).to_le_bytes());
        hash.write(&contents);
    }
    Ok(format!("{:016x}", hash.0))
}

struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The spec directory of a crate whose manifest is in `manifest_dir`: its own `spec/` (what a
/// packaged crate carries; in this repository a link to the workspace's) or else `../spec`.
pub fn spec_dir(manifest_dir: impl AsRef<Path>) -> PathBuf {
    let manifest_dir = manifest_dir.as_ref();
    // `spec`, not `./spec`: the path appears in messages.
    let within = |path: &str| {
        if manifest_dir == Path::new(".") {
            PathBuf::from(path)
        } else {
            manifest_dir.join(path)
        }
    };
    let own = within("spec");
    if own.is_dir() { own } else { within("../spec") }
}

/// Whether the code in `prebuilt_dir` was generated from the specs now in `spec_dir`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Freshness {
    /// The fingerprints match.
    Fresh,
    /// There is no spec directory (or file): the crate was packaged without it, nothing to
    /// compare.
    NoSpecs,
    /// The specs changed since the code was generated.
    Stale {
        /// The fingerprint recorded beside the code (empty when the file is missing).
        recorded: String,
        /// The fingerprint of the specs now.
        current: String,
    },
}

/// Compares the fingerprint recorded in `prebuilt_dir` with the specs in `spec_dir`.
pub fn freshness(spec_dir: &Path, prebuilt_dir: &Path) -> io::Result<Freshness> {
    if !spec_dir.exists() {
        return Ok(Freshness::NoSpecs);
    }
    let current = fingerprint(spec_dir)?;
    let recorded = std::fs::read_to_string(prebuilt_dir.join(FINGERPRINT_FILE))
        .map(|s| s.trim().to_owned())
        .unwrap_or_default();
    Ok(if recorded == current {
        Freshness::Fresh
    } else {
        Freshness::Stale { recorded, current }
    })
}

/// For `build.rs` without the generator: asks cargo to rerun when a spec changes, and fails
/// the build with a `cargo::error` saying what to run when the committed code in `prebuilt_dir`
/// is older than the specs in `spec_dir` (so a stale client is never built silently).
pub fn check(spec_dir: impl AsRef<Path>, prebuilt_dir: impl AsRef<Path>) {
    let (spec_dir, prebuilt_dir) = (spec_dir.as_ref(), prebuilt_dir.as_ref());
    println!("cargo::rerun-if-changed={}", spec_dir.display());
    println!(
        "cargo::rerun-if-changed={}",
        prebuilt_dir.join(FINGERPRINT_FILE).display()
    );
    for file in spec_files(spec_dir).unwrap_or_default() {
        println!("cargo::rerun-if-changed={}", file.display());
    }
    for line in check_lines(spec_dir, prebuilt_dir) {
        println!("cargo::error={line}");
    }
}

/// The errors [`check`] reports (none when the code is fresh).
pub fn check_lines(spec_dir: &Path, prebuilt_dir: &Path) -> Vec<String> {
    match freshness(spec_dir, prebuilt_dir) {
        Ok(Freshness::Fresh | Freshness::NoSpecs) => Vec::new(),
        Ok(Freshness::Stale { .. }) => vec![
            format!(
                "{} changed after the code in {}/ was generated from it",
                if spec_dir.is_file() {
                    spec_dir.display().to_string()
                } else {
                    format!("the specs in {}/", spec_dir.display())
                },
                prebuilt_dir.display()
            ),
            format!(
                "build with the `codegen` feature to generate from the specs (a workspace `cargo build` does), and run `{REFRESH_COMMAND}` to update the committed code"
            ),
        ],
        Err(e) => vec![format!(
            "cannot compare the specs in {} with the code in {}: {e}",
            spec_dir.display(),
            prebuilt_dir.display()
        )],
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_fingerprint_follows_names_and_contents_and_ignores_other_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.yaml"), "x: 1\n").unwrap();
        let first = fingerprint(dir.path()).unwrap();
        assert_eq!(first.len(), 16);
        std::fs::write(dir.path().join("README.md"), "notes").unwrap();
        assert_eq!(fingerprint(dir.path()).unwrap(), first);
        std::fs::write(dir.path().join("a.yaml"), "x: 2\n").unwrap();
        let changed = fingerprint(dir.path()).unwrap();
        assert_ne!(changed, first);
        std::fs::rename(dir.path().join("a.yaml"), dir.path().join("b.yaml")).unwrap();
        assert_ne!(fingerprint(dir.path()).unwrap(), changed);
    }

    #[test]
    fn one_spec_file_is_fingerprinted_alone() {
        let dir = tempfile::tempdir().unwrap();
        let email = dir.path().join("email.yaml");
        std::fs::write(&email, "service: email\n").unwrap();
        std::fs::write(dir.path().join("messaging.yaml"), "service: messaging\n").unwrap();
        assert_eq!(spec_files(&email).unwrap(), vec![email.clone()]);
        let first = fingerprint(&email).unwrap();
        assert_ne!(first, fingerprint(dir.path()).unwrap());
        // An edit of another service's spec leaves this one's code fresh.
        std::fs::write(dir.path().join("messaging.yaml"), "service: messaging2\n").unwrap();
        assert_eq!(fingerprint(&email).unwrap(), first);
        let prebuilt = tempfile::tempdir().unwrap();
        std::fs::write(prebuilt.path().join(FINGERPRINT_FILE), first + "\n").unwrap();
        assert!(check_lines(&email, prebuilt.path()).is_empty());
        std::fs::write(&email, "service: email2\n").unwrap();
        let lines = check_lines(&email, prebuilt.path());
        assert!(
            lines[0].starts_with(&format!("{} changed", email.display())),
            "{lines:?}"
        );
    }

    #[test]
    fn a_spec_edit_makes_the_committed_code_stale_with_an_error_naming_the_fix() {
        let specs = tempfile::tempdir().unwrap();
        let prebuilt = tempfile::tempdir().unwrap();
        std::fs::write(specs.path().join("email.yaml"), "service: email\n").unwrap();
        assert!(matches!(
            freshness(specs.path(), prebuilt.path()).unwrap(),
            Freshness::Stale { ref recorded, .. } if recorded.is_empty()
        ));
        std::fs::write(
            prebuilt.path().join(FINGERPRINT_FILE),
            fingerprint(specs.path()).unwrap() + "\n",
        )
        .unwrap();
        assert_eq!(
            freshness(specs.path(), prebuilt.path()).unwrap(),
            Freshness::Fresh
        );
        assert!(check_lines(specs.path(), prebuilt.path()).is_empty());

        std::fs::write(specs.path().join("email.yaml"), "service: email2\n").unwrap();
        let lines = check_lines(specs.path(), prebuilt.path());
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[1].contains("`codegen` feature"), "{lines:?}");
        assert!(lines[1].contains(REFRESH_COMMAND), "{lines:?}");
    }

    #[test]
    fn a_packaged_crate_without_specs_is_not_checked() {
        let prebuilt = tempfile::tempdir().unwrap();
        let missing = prebuilt.path().join("no-such-spec-dir");
        assert_eq!(
            freshness(&missing, prebuilt.path()).unwrap(),
            Freshness::NoSpecs
        );
    }
}
