//! Issue 32, item 1: types (and parameter structs) of one shape are defined once, the other
//! names being aliases of it, so a provider's document that repeats a shape per operation
//! (SendGrid's 997 types are 464 shapes) costs the compiler each shape once. Every name the spec
//! gives stays, and a name is merged only with one that is the same Rust code.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use tidings_codegen::{check, emit, load};

const SPEC: &str = r#"
service:
  name: demo
  title: Demo service
  summary: Shapes repeated per operation
  source: assumed
  base_url: { env: DEMO_BASE_URL, source: assumed }
credentials:
  api_key: { env: DEMO_API_KEY, source: assumed }
auth:
  - { name: bearer, kind: bearer, credential: api_key, source: assumed }
types:
  GetAError:
    source: assumed
    fields:
      errors: { type: "list<GetAErrorItem>" }
  GetAErrorItem:
    source: assumed
    fields:
      field: { type: string }
      message: { type: string, required: true }
  GetBError:
    source: assumed
    fields:
      errors: { type: "list<GetBErrorItem>" }
  GetBErrorItem:
    source: assumed
    fields:
      field: { type: string }
      message: { type: string, required: true }
  Worded:
    source: assumed
    fields:
      field: { type: string, doc: The field at fault. }
      message: { type: string, required: true }
  Counted:
    source: assumed
    fields:
      field: { type: integer }
      message: { type: string, required: true }
  Either:
    source: assumed
    tag: kind
    variants:
      a: { type: GetAErrorItem }
      b: { type: GetBErrorItem }
      c: { type: Counted }
  Sent:
    source: assumed
    fields:
      note: { type: string, required: true }
  Received:
    source: assumed
    fields:
      note: { type: string, required: true }
operations:
  get_a:
    method: GET
    path: /a
    query:
      limit: { type: integer, min: 1, max: 100 }
    response: GetAError
    source: assumed
  get_b:
    method: GET
    path: /b
    query:
      limit: { type: integer, min: 1, max: 100 }
    response: GetBError
    source: assumed
  get_c:
    method: GET
    path: /c
    query:
      limit: { type: integer, min: 1, max: 50 }
    response: Either
    source: assumed
  send:
    method: POST
    path: /sent
    body: Sent
    response: Received
    source: assumed
"#;

fn generated() -> String {
    let loaded = load::load_str("spec/demo.yaml", SPEC).unwrap();
    let service = check::check(&loaded).unwrap_or_else(|d| panic!("{d}"));
    emit::emit_service(&service).unwrap()
}

#[test]
fn a_repeated_shape_is_defined_once_and_every_name_stays() {
    let code = generated();
    // The second error body and its item are the first's, by name.
    assert!(code.contains("pub struct GetAError {"), "{code}");
    assert!(code.contains("pub struct GetAErrorItem {"));
    assert!(code.contains("pub type GetBError = GetAError;"), "{code}");
    assert!(code.contains("pub type GetBErrorItem = GetAErrorItem;"));
    // The same query parameters and limits: one struct; other limits: a struct of its own.
    assert!(code.contains("pub struct GetAQuery {"));
    assert!(code.contains("pub type GetBQuery = GetAQuery;"));
    assert!(code.contains("pub struct GetCQuery {"));
    // Other docs, or another field type: not the same code, so not merged.
    assert!(code.contains("pub struct Worded {"));
    assert!(code.contains("pub struct Counted {"));
    // The aliases are documented, with a link to the definition.
    assert!(code.contains("The same shape as [`GetAError`]"));
}

#[test]
fn a_union_of_two_names_for_one_shape_has_no_conflicting_from() {
    let code = generated();
    // Variants `a` and `b` hold one Rust type: a `From` of it could build either, so neither
    // has one (two would not compile); `c` keeps its own.
    assert!(
        !code.contains("impl From<GetAErrorItem> for Either"),
        "{code}"
    );
    assert!(
        !code.contains("impl From<GetBErrorItem> for Either"),
        "{code}"
    );
    assert!(code.contains("impl From<Counted> for Either"), "{code}");
}

#[test]
fn a_shape_sent_by_one_name_and_received_by_another_has_both_serde_directions() {
    let code = generated();
    assert!(code.contains("pub type Received = Sent;"), "{code}");
    let sent = &code[code.find("pub struct Sent {").unwrap()..];
    // The client sends `Sent` and receives `Received`: the one definition serializes and
    // decodes, neither behind the server feature.
    let serialize = sent.find("impl ::serde::Serialize for Sent").unwrap();
    let decode = sent.find("impl rt::object::Decode for Sent").unwrap();
    for at in [serialize, decode] {
        let before = &sent[..at];
        let last_item = before.rfind("\n    }").map_or(0, |i| i);
        assert!(
            !before[last_item..].contains("cfg(feature = \"server\")"),
            "{}",
            &sent[..decode + 200]
        );
    }
}
