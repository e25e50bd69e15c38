//! Issue 27 item 10, for a crate's own spec (no `source:` keys): every problem is reported in
//! one run, a broken `service` section included, and a `before_param` the operation does not
//! declare is an error.
#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use tidings_codegen::check::{ProvenancePolicy, check_paths};

const NOTES: &str = r#"
service:
  name: notes
  title: Notes API
  summary: Short notes
  base_url: { env: NOTES_BASE_URL }
credentials:
  api_key: { env: NOTES_API_KEY }
auth:
  - { name: bearer, kind: bearer, credential: api_key }
pagination:
  limit_param: limit
  after_param: after
  before_param: before
  items_field: data
  has_more_field: has_more
  cursor_field: id
types:
  Note:
    fields:
      id: { type: string, required: true }
operations:
  list_notes:
    method: GET
    path: /v1/notes
    query:
      limit: { type: integer }
      after: { type: string }
      before: { type: string }
    response: page<Note>
  get_note:
    method: GET
    path: /v1/notes/{id}
    path_params: { id: { type: string } }
    response: Note
"#;

fn check(text: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.yaml"), text).unwrap();
    check_paths(&[dir.path()], ProvenancePolicy::Optional)
        .map(|_| ())
        .map_err(|d| d.to_string())
}

#[test]
fn the_spec_as_written_passes() {
    check(NOTES).unwrap();
}

#[test]
fn an_undeclared_before_param_is_an_error() {
    let text = NOTES.replace("      before: { type: string }\n", "");
    let err = check(&text).unwrap_err();
    assert!(
        err.contains("a paginated operation needs the query parameter `before`"),
        "{err}"
    );
}

#[test]
fn a_broken_service_section_and_an_unknown_type_are_reported_together() {
    let text = NOTES
        .replace("  summary: Short notes\n", "  sumary: Short notes\n")
        .replace("    response: Note\n", "    response: Nte\n");
    let err = check(&text).unwrap_err();
    assert!(err.contains("unknown key `sumary` in `service`"), "{err}");
    assert!(err.contains("unknown type `Nte`"), "{err}");
    assert!(err.contains("did you mean `Note`?"), "{err}");
    assert!(
        err.contains("2 errors"),
        "nothing about the stand-in: {err}"
    );
}

#[test]
fn files_and_directories_are_checked_together_and_an_empty_directory_is_an_error() {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("notes.yaml");
    std::fs::write(&file, NOTES).unwrap();
    let dir = root.path().join("more");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("memos.yml"),
        NOTES.replace("name: notes", "name: memos"),
    )
    .unwrap();
    let services = check_paths(&[&file, &dir], ProvenancePolicy::Optional).unwrap();
    let names: Vec<&str> = services.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["notes", "memos"]);

    // The same service twice (the file, and the directory holding it) is a duplicate, named.
    let twice = check_paths(
        &[&file, &root.path().to_path_buf()],
        ProvenancePolicy::Optional,
    )
    .unwrap_err()
    .to_string();
    assert!(twice.contains("duplicate service name `notes`"), "{twice}");

    let empty = root.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let refused = check_paths(&[&file, &empty], ProvenancePolicy::Optional)
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("empty") && refused.contains("no spec files (*.yaml, *.yml) here"),
        "{refused}"
    );
}
