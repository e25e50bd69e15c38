//! What an application gets from `tidings`: without the `codegen` feature it compiles no part of
//! the generator, only the services it names, and each service's package carries its spec (for
//! the feature and the staleness check).

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;
use std::process::Command;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn cargo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(workspace())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The crates a build of `tidings` with `features` compiles (libraries and build scripts' deps).
fn crates(features: &str) -> Vec<String> {
    let tree = cargo(&[
        "tree",
        "-p",
        "tidings",
        "--no-default-features",
        "--features",
        features,
        "-e",
        "normal,build",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]);
    let mut names: Vec<String> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn an_email_only_app_compiles_no_generator_unless_it_asks_for_codegen() {
    let app = crates("email");
    for generator_crate in [
        "tidings-codegen",
        "serde_yaml",
        "yaml-rust2",
        "prettyplease",
        "schemars",
    ] {
        assert!(
            !app.iter().any(|c| c == generator_crate),
            "{generator_crate} is built for an email-only app: {app:?}"
        );
    }
    assert!(app.iter().any(|c| c == "tidings-build"));
    let maintainer = crates("email,codegen");
    assert!(maintainer.iter().any(|c| c == "tidings-codegen"));
    eprintln!(
        "an email-only app: {} crates; with `codegen`: {}",
        app.len(),
        maintainer.len()
    );
}

#[test]
fn each_service_package_carries_its_spec_and_the_committed_code() {
    for service in ["email", "messaging", "realtime"] {
        // `--allow-dirty`: the files packaged are the question, not whether the tree is committed.
        let files = cargo(&[
            "package",
            "-p",
            &format!("tidings-{service}"),
            "--no-verify",
            "--allow-dirty",
            "--list",
        ]);
        for file in [
            format!("spec/{service}.yaml"),
            format!("src/prebuilt/{service}.rs"),
            "src/prebuilt/spec.fingerprint".to_owned(),
            "build.rs".to_owned(),
        ] {
            assert!(
                files.lines().any(|l| l == file),
                "{file} is not in the package of tidings-{service}:\n{files}"
            );
        }
    }
}

#[test]
fn an_app_of_one_service_compiles_that_service_only() {
    let app = crates("messaging");
    assert!(app.iter().any(|c| c == "tidings-messaging"), "{app:?}");
    for other in ["tidings-email", "tidings-realtime"] {
        assert!(
            !app.iter().any(|c| c == other),
            "{other} is built for a messaging-only app: {app:?}"
        );
    }
}
