//! The exported documents checked by independent tools: `openapi-spec-validator` (Python) on
//! every OpenAPI document, the official AsyncAPI parser (`@asyncapi/parser`, through
//! `tests/peers/exports/validate_asyncapi.js`) on the AsyncAPI one. `scripts/test` installs
//! both and sets `COMMS_REQUIRE_TOOLS=1`, under which a missing tool fails the test with what to
//! run; a plain `cargo test -p tidings-codegen` in a fresh clone skips these tests and says why.
//!
//! Each checker is also shown a broken copy, so a checker that accepts anything fails here.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn documents(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("spec").join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no documents in spec/{dir}");
    files
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

const INSTALL: &str = "run scripts/test, which installs the export checkers";

/// A checker is missing: a failure under `COMMS_REQUIRE_TOOLS` (scripts/test, CI), otherwise a
/// skip that says what to run. Returns `None` so the test can return early.
fn missing<T>(what: &str) -> Option<T> {
    if std::env::var_os("COMMS_REQUIRE_TOOLS").is_some() {
        panic!("{what}: {INSTALL}");
    }
    eprintln!(
        "skipped: {what}; {INSTALL} (with COMMS_REQUIRE_TOOLS=1 a missing checker fails the test)"
    );
    None
}

fn openapi_spec_validator(file: &Path) -> Option<Output> {
    let probe = Command::new("python3")
        .args(["-c", "import openapi_spec_validator"])
        .output();
    match probe {
        Err(e) => return missing(&format!("python3 cannot be run ({e})")),
        Ok(probe) if !probe.status.success() => {
            return missing(&format!(
                "openapi-spec-validator is not installed ({})",
                text(&probe).trim()
            ));
        }
        Ok(_) => {}
    }
    let out = Command::new("python3")
        .args([
            "-m",
            "openapi_spec_validator",
            "--schema",
            "3.1",
            "--validation-errors",
            "all",
        ])
        .arg(file)
        .output()
        .unwrap();
    Some(out)
}

fn asyncapi_parser(file: &Path) -> Option<Output> {
    let peers = root().join("tests/peers/exports");
    if !peers.join("node_modules/@asyncapi/parser").is_dir() {
        return missing("@asyncapi/parser is not installed in tests/peers/exports");
    }
    match Command::new("node")
        .arg(peers.join("validate_asyncapi.js"))
        .arg(file)
        .output()
    {
        Ok(out) => Some(out),
        Err(e) => missing(&format!("node cannot be run ({e})")),
    }
}

#[test]
fn openapi_documents_pass_openapi_spec_validator() {
    for file in documents("openapi") {
        let Some(out) = openapi_spec_validator(&file) else {
            return;
        };
        let report = text(&out);
        assert!(
            out.status.success() && report.contains(": OK"),
            "openapi-spec-validator rejects {}:\n{report}",
            file.display()
        );
    }
}

#[test]
fn openapi_spec_validator_catches_a_broken_document() {
    let file = &documents("openapi")[0];
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    // A response without its required description, and a parameter in no known place.
    let paths = doc["paths"].as_object_mut().unwrap();
    let (_, item) = paths.iter_mut().next().unwrap();
    let (_, op) = item.as_object_mut().unwrap().iter_mut().next().unwrap();
    let (_, response) = op["responses"]
        .as_object_mut()
        .unwrap()
        .iter_mut()
        .next()
        .unwrap();
    response.as_object_mut().unwrap().remove("description");
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.openapi.json");
    std::fs::write(&broken, doc.to_string()).unwrap();
    let Some(out) = openapi_spec_validator(&broken) else {
        return;
    };
    assert!(
        !out.status.success(),
        "a response without a description passed:\n{}",
        text(&out)
    );
}

#[test]
fn asyncapi_documents_pass_the_asyncapi_parser() {
    for file in documents("asyncapi") {
        let Some(out) = asyncapi_parser(&file) else {
            return;
        };
        let report = text(&out);
        assert!(
            out.status.success() && report.contains(" 0 errors, 0 warnings"),
            "the AsyncAPI parser reports problems in {}:\n{report}",
            file.display()
        );
    }
}

#[test]
fn asyncapi_parser_catches_a_broken_document() {
    let file = &documents("asyncapi")[0];
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    doc["operations"]["send_subscribe"]["action"] = "publish".into();
    doc["channels"]["connection"]["messages"]["missing"] =
        serde_json::json!({ "$ref": "#/components/messages/missing" });
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.asyncapi.json");
    std::fs::write(&broken, doc.to_string()).unwrap();
    let Some(out) = asyncapi_parser(&broken) else {
        return;
    };
    let report = text(&out);
    assert!(
        !out.status.success() && report.contains("invalid-ref"),
        "a broken document passed:\n{report}"
    );
}

#[test]
fn webhook_payload_types_export_passes_openapi_spec_validator() {
    let spec = root().join("tests/webhooks/spec/hooks.yaml");
    let service =
        tidings_codegen::check::check_paths(&[&spec], tidings_codegen::ProvenancePolicy::Required)
            .map(|mut services| services.remove(0))
            .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hooks.openapi.json");
    let doc = tidings_codegen::export::openapi::document(&service);
    std::fs::write(&file, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let Some(out) = openapi_spec_validator(&file) else {
        return;
    };
    let report = text(&out);
    assert!(
        out.status.success() && report.contains(": OK"),
        "openapi-spec-validator rejects the webhooks export:\n{report}"
    );
}
