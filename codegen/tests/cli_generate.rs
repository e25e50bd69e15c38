//! `tidings-codegen generate` for a user's own crate (issue 30, item 6): doc examples name the
//! crate given by `--crate`, and by default (`--serde both`) no `cfg(feature = "server")` gate
//! is written, so a crate without a build script to declare it compiles without
//! `unexpected_cfgs` warnings (measured: the full Twilio 2010 and SendGrid v3 imports, 0
//! warnings; with `--serde client` and no `server` feature, 1,594).
#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;
use std::process::Command;

fn generate(args: &[&str]) -> (std::process::Output, PathBuf) {
    let spec = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/own-spec/spec");
    let out = std::env::temp_dir().join(format!(
        "tidings-cli-generate-{}-{}",
        std::process::id(),
        args.join("_").replace(['-', ':'], "")
    ));
    let _ = std::fs::remove_dir_all(&out);
    let output = Command::new(env!("CARGO_BIN_EXE_tidings-codegen"))
        .arg("generate")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .args(["--provenance", "optional"])
        .args(args)
        .output()
        .unwrap();
    (output, out)
}

fn written(dir: &PathBuf) -> String {
    let mut all = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        all.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    all
}

#[test]
fn doc_examples_name_the_crate_given_by_crate() {
    let (output, dir) = generate(&["--crate", "my_api", "--serde", "client"]);
    assert!(output.status.success(), "{output:?}");
    let code = written(&dir);
    assert!(code.contains("my_api::"), "no `my_api::` in the docs");
    assert!(!code.contains("tidings::"), "docs still name `tidings::`");
    // With `--serde client` the gate stays, and the CLI says what to declare.
    assert!(code.contains("cfg(feature = \"server\")"));
    let note = String::from_utf8_lossy(&output.stderr);
    assert!(note.contains("server = []"), "{note}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn by_default_no_feature_gate_is_written() {
    let (output, dir) = generate(&["--crate", "my_api::generated"]);
    assert!(output.status.success(), "{output:?}");
    let code = written(&dir);
    assert!(!code.contains("cfg(feature"), "a feature gate is left");
    assert!(code.contains("my_api::generated::"));
    assert!(output.stderr.is_empty(), "{output:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_crate_that_is_not_a_rust_path_is_refused() {
    let (output, _) = generate(&["--crate", "my-api"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("is not a Rust path"));
}

#[test]
fn help_after_any_command_is_help_on_stdout() {
    for args in [
        &["--help"][..],
        &["import", "openapi", "--help"],
        &["generate", "-h"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_tidings-codegen"))
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("import openapi DOC --service NAME"),
            "{args:?}: {stdout}"
        );
        assert!(output.stderr.is_empty(), "{args:?}");
    }
}
