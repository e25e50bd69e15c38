//! `check` passing means the generated code compiles: synthetic specs with hard wire names
//! (`DateSent<`, `type`, `self`, unicode, leading digits, generated names) are checked; those
//! the checker refuses must say where, and a sample of those it accepts is generated into one
//! crate and `cargo check`ed against the workspace's runtime.
//!
//! CI runs a small sample; `COMMS_NAME_CASES=2000 COMMS_NAME_COMPILE=200 cargo test -p
//! tidings-codegen --test rust_names` runs a larger one. The crate builds in
//! `target/rust-names`, so later runs only check the new code.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;
use std::process::Command;

use tidings_codegen::{check, emit, load};

// The binary's synthetic specs, included (they are not in the library).
#[allow(dead_code)]
#[path = "../src/cli/synthetic.rs"]
mod synthetic;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn env_count(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The checker's verdict on one spec text: the generated module, or the diagnostics.
fn check_and_emit(file: &str, text: &str) -> Result<String, String> {
    let loaded = load::load_str(file, text).map_err(|d| d.to_string())?;
    let service = check::check(&loaded).map_err(|d| d.to_string())?;
    emit::emit_service(&service).map_err(|e| format!("the emitter failed: {e}"))
}

/// `cargo check` of a crate holding `modules`, against the workspace's runtime.
fn cargo_check(modules: &[String]) -> (bool, String) {
    let ws = workspace();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        format!(
            r#"[package]
name = "rust-names"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
tidings-runtime = {{ path = "{}" }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"

[workspace]
"#,
            ws.join("runtime").display()
        ),
    )
    .unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), modules.join("\n")).unwrap();
    // The workspace's lock file: the same dependency versions, and it works offline.
    std::fs::copy(ws.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["check", "--quiet", "--offline", "--lib"])
        .current_dir(dir.path())
        .env("CARGO_TARGET_DIR", ws.join("target/rust-names"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn specs_check_accepts_with_hard_names_compile() {
    let cases = env_count("COMMS_NAME_CASES", 60);
    let compile = env_count("COMMS_NAME_COMPILE", 12) as usize;
    let (mut accepted, mut refused) = (Vec::new(), 0);
    for seed in 0..cases {
        let service = format!("synth{seed}");
        let text = synthetic::mangled(&service, 8, seed);
        match check_and_emit(&format!("{service}.yaml"), &text) {
            Ok(module) => accepted.push((seed, module)),
            Err(report) => {
                refused += 1;
                // A refusal says where and why, never "a bug in tidings-codegen".
                assert!(
                    report.contains(&format!("{service}.yaml:")) && !report.contains("bug in"),
                    "seed {seed}:\n{report}\n{text}"
                );
            }
        }
    }
    assert!(
        !accepted.is_empty() && refused > 0,
        "{} accepted, {refused} refused: the mutations no longer test both sides",
        accepted.len()
    );
    let sample: Vec<String> = accepted
        .iter()
        .take(compile)
        .map(|(_, m)| m.clone())
        .collect();
    let (ok, stderr) = cargo_check(&sample);
    let seeds: Vec<u64> = accepted.iter().take(compile).map(|(s, _)| *s).collect();
    assert!(
        ok,
        "check accepted specs (seeds {seeds:?}) whose code does not compile:\n{stderr}"
    );
}

/// A real provider's query (`DateSent`, `DateSent<`, `DateSent>`) once became three `date_sent`
/// fields (rustc E0124); the checker now refuses it where it is written, with a rename hint.
#[test]
fn query_parameters_that_become_one_rust_name_are_refused_with_a_hint() {
    let text = synthetic::spec(4).replacen(
        "    query:\n",
        "    query:\n      DateSent: { type: string }\n      \"DateSent<\": { type: string }\n      \"DateSent>\": { type: string }\n",
        1,
    );
    let report = check_and_emit("synth.yaml", &text).unwrap_err();
    assert!(
        report.contains("query parameter `DateSent<` becomes the field `date_sent`, as query parameter `DateSent` does"),
        "{report}"
    );
    assert!(report.contains("`DateSent>`"), "{report}");
    assert!(report.contains("add `rust_name:`"), "{report}");
    assert!(report.contains("2 errors"), "{report}");
}

#[test]
fn generated_names_and_arguments_are_refused() {
    let cases = [
        // A path parameter that would be a second `body` argument.
        (
            synthetic::spec(4).replacen(
                "path: /v1/resources0/{id}\n    path_params: { id: { doc: The id. } }",
                "path: /v1/resources0/{body}\n    path_params: { body: { doc: The id. } }",
                1,
            ),
            "path parameter `body` becomes the argument `body`",
        ),
        // An operation named like a method every client has.
        (
            synthetic::spec(4).replacen(
                "operations:\n",
                "operations:\n  runtime:\n    method: GET\n    path: /v1/x\n    response: Resource0\n    source: assumed\n",
                1,
            ),
            "operation `runtime` needs the method name `runtime`, which the generated method `runtime` has",
        ),
        // Two operations whose query structs get one name.
        (
            synthetic::spec(4).replacen(
                "operations:\n",
                "operations:\n  list_resource_0:\n    method: GET\n    path: /v1/y\n    query: { q: { type: string } }\n    response: Resource0\n    source: assumed\n",
                1,
            ),
            "needs the query struct `ListResource0Query`, which the query struct of `list_resource_0` has",
        ),
    ];
    for (text, needle) in &cases {
        let report = check_and_emit("synth.yaml", text).unwrap_err();
        assert!(report.contains(needle), "{report}");
    }
}
