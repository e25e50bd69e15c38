//! Round trip: for each of our specs, importing its exported OpenAPI document gives back the
//! same operations, types and auth schemes.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::collections::BTreeMap;
use std::path::PathBuf;

use tidings_codegen::check::{Service, TypeKind};
use tidings_codegen::import::{ImportOptions, import_openapi};

fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

/// What must survive: per operation its route, parameters, body, response and retry class.
fn operations(s: &Service) -> BTreeMap<String, String> {
    s.operations
        .iter()
        .map(|o| {
            let params = |ps: &[tidings_codegen::check::ParamInfo]| {
                let mut v: Vec<String> = ps
                    .iter()
                    .map(|p| {
                        format!(
                            "{}:{:?}:{}:{:?}",
                            p.wire, p.ty, p.required, p.from_credential
                        )
                    })
                    .collect();
                v.sort();
                v.join(",")
            };
            (
                o.name.clone(),
                format!(
                    "{} {} path[{}] query[{}] body={:?} response={:?} idempotency={:?} auth={:?}",
                    o.method.as_str(),
                    o.path,
                    params(&o.path_params),
                    params(&o.query),
                    o.body,
                    o.response,
                    o.idempotency,
                    o.auth.as_ref().map(|a| (&a.name, &a.method))
                ),
            )
        })
        .collect()
}

/// Per type: its kind and members (fields with type and presence, values, variants).
fn types(s: &Service) -> BTreeMap<String, String> {
    s.types
        .iter()
        .map(|t| {
            let shape = match &t.kind {
                TypeKind::Object(fields) => {
                    let mut v: Vec<String> = fields
                        .iter()
                        .map(|f| format!("{}:{:?}:{}:{:?}", f.wire, f.ty, f.required, f.format))
                        .collect();
                    v.sort();
                    format!("object {}", v.join(","))
                }
                TypeKind::Enum(values) => {
                    let mut v: Vec<&str> = values.iter().map(|v| v.wire.as_str()).collect();
                    v.sort();
                    format!("enum {}", v.join(","))
                }
                TypeKind::Untagged { variants } => {
                    let v: Vec<String> = variants
                        .iter()
                        .map(|v| format!("{}={}:{:?}", v.tag, v.rust, v.ty))
                        .collect();
                    format!("untagged {}", v.join(","))
                }
                TypeKind::Union {
                    tag,
                    content,
                    variants,
                } => {
                    let mut v: Vec<String> = variants
                        .iter()
                        .map(|v| format!("{}={}:{:?}", v.tag, v.rust, v.ty))
                        .collect();
                    v.sort();
                    format!("union tag={tag} content={content:?} {}", v.join(","))
                }
            };
            (t.name.clone(), shape)
        })
        .collect()
}

fn auth(s: &Service) -> Vec<String> {
    // The resolved schemes: name and how each credential travels.
    let mut v: Vec<String> = s
        .auth
        .iter()
        .map(|a| format!("{} {:?}", a.name, a.method))
        .collect();
    // The default scheme stays first; the others may come in any order.
    v[1..].sort();
    v
}

#[test]
fn export_then_import_gives_back_operations_types_and_auth() {
    let services = tidings_codegen::check::check_paths(
        &[&spec_dir()],
        tidings_codegen::ProvenancePolicy::Required,
    )
    .unwrap();
    assert_eq!(services.len(), 3);
    for original in &services {
        let document = tidings_codegen::export::openapi::document(original);
        let text = tidings_codegen::export::to_json(&document);
        let options =
            ImportOptions::new(original.name(), format!("{}.openapi.json", original.name()));
        let imported = import_openapi(&text, &options, None)
            .unwrap_or_else(|e| panic!("{}: {e}", original.name()));
        let loaded = tidings_codegen::load::load_str("imported.yaml", &imported.yaml).unwrap();
        let back = tidings_codegen::check::check(&loaded)
            .unwrap_or_else(|d| panic!("{}: {d}\n{}", original.name(), imported.yaml));
        let name = original.name();
        assert_eq!(
            operations(&back),
            operations(original),
            "operations of {name}"
        );
        assert_eq!(types(&back), types(original), "types of {name}");
        assert_eq!(auth(&back), auth(original), "auth of {name}");
        assert_eq!(
            imported.report.skipped_operations().count(),
            0,
            "{name}: {}",
            imported.report
        );
    }
}
