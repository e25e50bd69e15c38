//! Every file in `tests/broken/` is a spec with a mistake; its diagnostics are pinned as insta
//! snapshots, so a change in what the checker says (or where) shows up in review.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::Path;

fn diagnostics_of(path: &Path) -> String {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("spec.yaml");
    let text = std::fs::read_to_string(path).unwrap();
    let display = format!("broken/{name}");
    let (loaded, mut diagnostics) = tidings_codegen::load::load_str_partial(&display, &text);
    if let Some(Err(more)) = loaded.as_ref().map(tidings_codegen::check::check) {
        diagnostics.extend(more);
    }
    assert!(
        !diagnostics.is_empty(),
        "{name} is supposed to be broken, but it checks clean"
    );
    diagnostics.sorted().to_string()
}

#[test]
fn broken_specs_report_located_errors() {
    let mut count = 0;
    insta::glob!("broken/*.yaml", |path| {
        count += 1;
        let report = diagnostics_of(path);
        // Every line that reports an error carries file:line:column.
        for line in report.lines().filter(|l| l.contains("error:")) {
            let location = line.split(": error:").next().unwrap();
            let parts: Vec<&str> = location.rsplitn(3, ':').collect();
            assert!(
                parts.len() == 3
                    && parts[0].parse::<usize>().is_ok()
                    && parts[1].parse::<usize>().is_ok(),
                "no location in {line}"
            );
        }
        insta::assert_snapshot!(report);
    });
    assert!(count >= 20, "only {count} broken specs");
}

#[test]
fn many_mistakes_are_reported_in_one_run() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken/many_errors_at_once.yaml");
    let report = diagnostics_of(&path);
    let errors = report.lines().filter(|l| l.contains(": error:")).count();
    assert!(
        errors >= 2,
        "expected several errors in one run, got:\n{report}"
    );
}

#[test]
fn arbitrary_text_never_panics() {
    let samples = [
        "",
        "~",
        "[]",
        "{}",
        "service: 3",
        "service: {}",
        ":\n:\n",
        "- - - -",
        "service:\n  name: [a",
        "types:\n  A: { fields: { x: { type: 'list<list<list<' } } }",
        "operations: 7",
        "auth: {}",
        "\u{0}\u{1}",
        "service: &a\n  name: *a",
    ];
    for text in samples {
        if let (Some(loaded), _) = tidings_codegen::load::load_str_partial("sample.yaml", text) {
            let _ = tidings_codegen::check::check(&loaded);
        }
    }
}
