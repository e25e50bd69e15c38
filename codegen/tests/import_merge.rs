//! `import openapi --merge`: hand-written items win and get a `conflict:` note where the
//! document differs, `not_shown` items are filled, imported items are refreshed, and merging
//! the same document again changes nothing.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

use tidings_codegen::import::{ImportOptions, import_openapi};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/import")
            .join(name),
    )
    .unwrap()
}

/// A spec a maintainer wrote before the provider's document was known.
const HAND_WRITTEN: &str = r#"# yaml-language-server: $schema=spec.schema.json
service:
  name: parcels
  title: Parcels
  summary: Our own words.
  base_url: { env: COMMS_PARCELS_BASE_URL, source: seed }
  source: seed
credentials:
  api_key: { env: COMMS_PARCELS_API_KEY, source: seed }
auth:
  - { name: bearer_auth, kind: bearer, credential: api_key, source: seed }
limits:
  rate: { requests: 100, per: second, source: seed, note: The seed says so. }
types:
  Error:
    source: assumed
    note: Our guess before the document.
    fields:
      message: { type: string, required: true }
      detail: { type: string }
  Address:
    source: not_shown
    fields:
      line1: { type: string }
operations:
  list_parcels:
    method: GET
    path: /v2/parcels
    response: list<Address>
    source: seed
    conflict: The seed's second page disagrees.
  ping:
    method: GET
    path: /v2/ping
    source: assumed
"#;

fn merge(existing: &str) -> tidings_codegen::import::Imported {
    import_openapi(
        &fixture("features_3_0.yaml"),
        &ImportOptions::new("parcels", "features_3_0.yaml"),
        Some(existing),
    )
    .unwrap()
}

/// A merged spec that passed `check`, as written (the items' notes and conflicts are spec text).
struct Checked {
    spec: tidings_codegen::model::SpecFile,
}

fn check(yaml: &str) -> Checked {
    let loaded = tidings_codegen::load::load_str("merged.yaml", yaml).unwrap();
    tidings_codegen::check::check(&loaded).unwrap_or_else(|d| panic!("{d}\n{yaml}"));
    Checked { spec: loaded.spec }
}

#[test]
fn hand_written_items_win_and_differences_become_conflict_notes() {
    let merged = merge(HAND_WRITTEN);
    let s = check(&merged.yaml);
    // The service, the limit and hand-written items stay as written.
    assert_eq!(s.spec.service.title, "Parcels");
    assert_eq!(
        s.spec
            .limits
            .as_ref()
            .unwrap()
            .rate
            .as_ref()
            .unwrap()
            .requests,
        Some(100)
    );
    let error = &s.spec.types["Error"];
    assert_eq!(
        error.note.as_deref(),
        Some("Our guess before the document.")
    );
    assert!(error.fields.as_ref().unwrap().contains_key("detail"));
    let conflict = error.conflict.as_deref().unwrap();
    assert!(
        conflict
            .starts_with("the import of features_3_0.yaml#/components/schemas/Error differs in:"),
        "{conflict}"
    );
    assert!(
        conflict.contains("fields.detail") && conflict.contains("fields.code"),
        "{conflict}"
    );
    // The seed's own conflict note is kept beside the import's.
    let list = &s.spec.operations["list_parcels"];
    assert_eq!(list.response.as_deref(), Some("list<Address>"));
    let conflict = list.conflict.as_deref().unwrap();
    assert!(
        conflict.starts_with("The seed's second page disagrees.; the import of"),
        "{conflict}"
    );
    assert!(
        conflict.contains("response") && conflict.contains("query"),
        "{conflict}"
    );
    // Items the document does not have are kept; new ones are added.
    assert!(s.spec.operations.contains_key("ping"));
    assert!(s.spec.operations.contains_key("create_parcel"));
    assert_eq!(merged.report.conflicts.len(), 2, "{}", merged.report);
}

#[test]
fn not_shown_items_are_filled_from_the_document() {
    let s = check(&merge(HAND_WRITTEN).yaml);
    let address = &s.spec.types["Address"];
    assert!(
        address
            .note
            .as_deref()
            .unwrap()
            .starts_with("imported from features_3_0.yaml#")
    );
    assert!(address.fields.as_ref().unwrap().contains_key("country"));
}

#[test]
fn merging_the_same_document_again_changes_nothing() {
    let once = merge(HAND_WRITTEN);
    let twice = merge(&once.yaml);
    assert_eq!(once.yaml, twice.yaml);
    let thrice = merge(&twice.yaml);
    assert_eq!(twice.yaml, thrice.yaml);
}

#[test]
fn a_spec_to_merge_into_that_is_not_yaml_is_an_error() {
    let err = import_openapi(
        &fixture("features_3_0.yaml"),
        &ImportOptions::new("parcels", "features_3_0.yaml"),
        Some("service: [unclosed"),
    )
    .unwrap_err();
    assert!(
        matches!(err, tidings_codegen::import::ImportError::Merge(_)),
        "{err}"
    );
}

/// The operation names of a checked spec, in order.
fn operation_names(s: &Checked) -> Vec<String> {
    s.spec.operations.keys().cloned().collect()
}

#[test]
fn the_include_filter_is_recorded_and_a_merge_without_one_keeps_it() {
    let doc = fixture("features_3_0.yaml");
    let trimmed = import_openapi(
        &doc,
        &ImportOptions::new("parcels", "features_3_0.yaml").include("parcels"),
        None,
    )
    .unwrap();
    let s = check(&trimmed.yaml);
    assert_eq!(operation_names(&s), ["list_parcels", "create_parcel"]);
    let record = s.spec.service.import.as_ref().unwrap();
    assert_eq!(record.include, ["parcels"]);
    assert!(!trimmed.report.include_kept);

    // Merged again with no --include: the same operations, not all nine of the document.
    let again = import_openapi(
        &doc,
        &ImportOptions::new("parcels", "features_3_0.yaml"),
        Some(&trimmed.yaml),
    )
    .unwrap();
    assert_eq!(again.yaml, trimmed.yaml, "the same spec, byte for byte");
    assert!(again.report.include_kept);
    assert_eq!(again.report.operations_filtered_out, 7);
    assert!(
        again
            .report
            .to_string()
            .contains("include: parcels (recorded in the merged spec)"),
        "{}",
        again.report
    );

    // An --include given with --merge replaces the recorded one (and adds its operations).
    let widened = import_openapi(
        &doc,
        &ImportOptions::new("parcels", "features_3_0.yaml")
            .include("parcels")
            .include("getShipment"),
        Some(&trimmed.yaml),
    )
    .unwrap();
    let s = check(&widened.yaml);
    assert_eq!(
        operation_names(&s),
        ["list_parcels", "create_parcel", "get_shipment"]
    );
    assert_eq!(
        s.spec.service.import.as_ref().unwrap().include,
        ["parcels", "getShipment"]
    );

    // Without a filter at all, no record is written.
    let whole = import_openapi(
        &doc,
        &ImportOptions::new("parcels", "features_3_0.yaml"),
        None,
    )
    .unwrap();
    assert!(check(&whole.yaml).spec.service.import.is_none());
    assert!(!whole.yaml.contains("import:"), "{}", whole.yaml);
}
