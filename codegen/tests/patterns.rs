//! A string's `pattern` travels from a provider's document to the spec, the checked model, the
//! generated docs and the exported document, and back: nothing of it is lost on the way, and a
//! pattern the sandbox cannot check is reported, not kept silently.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use serde_json::{Value, json};
use tidings_codegen::check::{Service, TypeKind};
use tidings_codegen::import::{ImportOptions, Imported, import_openapi};
use tidings_codegen::{check, emit, export, load};

const SID: &str = "^SM[0-9a-fA-F]{32}$";

fn document() -> Value {
    json!({
        "openapi": "3.0.3",
        "info": { "title": "Texts", "version": "1" },
        "servers": [{ "url": "https://api.example.com" }],
        "paths": {
            "/messages/{sid}": {
                "get": {
                    "operationId": "get_message",
                    "parameters": [{
                        "name": "sid", "in": "path", "required": true,
                        "schema": { "type": "string", "pattern": SID }
                    }],
                    "responses": { "200": {
                        "description": "ok",
                        "content": { "application/json": {
                            "schema": { "$ref": "#/components/schemas/Message" }
                        } }
                    } }
                }
            }
        },
        "components": { "schemas": { "Message": {
            "type": "object",
            "properties": {
                "sid": { "type": "string", "pattern": SID },
                "tags": { "type": "array", "items": { "type": "string", "pattern": "^[a-z]+$" } },
                "odd": { "type": "string", "pattern": "^(?=x)y" }
            }
        } } }
    })
}

fn import(doc: &Value) -> Imported {
    import_openapi(
        &doc.to_string(),
        &ImportOptions::new("texts", "texts.json"),
        None,
    )
    .unwrap()
}

fn checked(yaml: &str) -> Service {
    let loaded = load::load_str("texts.yaml", yaml).unwrap();
    check::check(&loaded).unwrap_or_else(|d| panic!("{d}\n{yaml}"))
}

fn field_pattern(service: &Service, ty: &str, field: &str) -> Option<String> {
    let t = service.types.iter().find(|t| t.name == ty).unwrap();
    let TypeKind::Object(fields) = &t.kind else {
        panic!("{ty} is not an object")
    };
    let f = fields.iter().find(|f| f.wire == field).unwrap();
    f.constraints.pattern.clone()
}

fn param_pattern(service: &Service) -> Option<String> {
    let op = service.operations.iter().find(|o| o.name == "get_message");
    op.unwrap().path_params[0].constraints.pattern.clone()
}

#[test]
fn a_documents_patterns_are_kept_and_one_the_sandbox_cannot_check_is_reported() {
    let imported = import(&document());
    let service = checked(&imported.yaml);
    assert_eq!(
        field_pattern(&service, "Message", "sid").as_deref(),
        Some(SID)
    );
    assert_eq!(
        field_pattern(&service, "Message", "tags").as_deref(),
        Some("^[a-z]+$")
    );
    assert_eq!(param_pattern(&service).as_deref(), Some(SID));
    // Look-ahead: not kept, and said so with where it was and why.
    assert_eq!(field_pattern(&service, "Message", "odd"), None);
    let finding = imported
        .report
        .approximated
        .iter()
        .find(|f| f.reason.contains("^(?=x)y"))
        .unwrap_or_else(|| panic!("{:#?}", imported.report.approximated));
    assert!(
        finding.pointer.ends_with("/Message/properties/odd"),
        "{finding:?}"
    );
    assert!(finding.reason.contains("not kept"), "{finding:?}");
}

#[test]
fn a_pattern_that_names_an_unexpanded_constant_is_reported_not_kept() {
    // Novu's `workflowId`: `pattern: SLUG_IDENTIFIER_REGEX`, a constant's name its document
    // left unexpanded. Kept, only a value holding those letters passed (every real slug: 422).
    let mut doc = document();
    doc["components"]["schemas"]["Message"]["properties"]["slug"] =
        json!({ "type": "string", "pattern": "SLUG_IDENTIFIER_REGEX" });
    let imported = import(&doc);
    let service = checked(&imported.yaml);
    assert_eq!(field_pattern(&service, "Message", "slug"), None);
    assert!(
        imported.report.approximated.iter().any(|f| {
            f.pointer.ends_with("/Message/properties/slug") && f.reason.contains("unexpanded")
        }),
        "{:#?}",
        imported.report.approximated
    );
    // A pattern of capitals with its syntax is a pattern.
    assert_eq!(
        field_pattern(&service, "Message", "sid").as_deref(),
        Some(SID)
    );
}

#[test]
fn the_client_documents_a_pattern_and_does_not_check_it() {
    let service = checked(&import(&document()).yaml);
    let code = emit::emit_service(&service).unwrap();
    let shown = format!("Matches the pattern `{SID}`");
    // On the field and on the path parameter.
    assert!(code.matches(&shown).count() >= 2, "{code}");
    assert!(!code.contains("v.pattern("), "the client checks no pattern");
}

#[test]
fn an_exported_document_carries_each_pattern_and_imports_back_the_same() {
    let service = checked(&import(&document()).yaml);
    let exported = export::openapi::document(&service);
    let message = &exported["components"]["schemas"]["Message"]["properties"];
    // Optional fields: the value's schema, or null.
    let value = |field: &str| &message[field]["anyOf"][0];
    assert_eq!(value("sid")["pattern"], SID);
    assert_eq!(value("tags")["items"]["pattern"], "^[a-z]+$");
    let back = checked(&import(&exported).yaml);
    assert_eq!(field_pattern(&back, "Message", "sid").as_deref(), Some(SID));
    assert_eq!(
        field_pattern(&back, "Message", "tags").as_deref(),
        Some("^[a-z]+$")
    );
    assert_eq!(param_pattern(&back).as_deref(), Some(SID));
}

#[test]
fn the_checker_refuses_a_pattern_the_sandbox_cannot_use_or_on_a_number() {
    let yaml = import(&document()).yaml;
    let sid_field = yaml
        .lines()
        .find(|l| l.trim_start().starts_with("sid:") && l.contains("pattern"))
        .unwrap_or_else(|| panic!("{yaml}"));
    let with = |field: &str| {
        let indent = &sid_field[..sid_field.len() - sid_field.trim_start().len()];
        let text = yaml.replacen(sid_field, &format!("{indent}{field}"), 1);
        assert_ne!(text, yaml);
        text
    };
    let refused = |field: &str| {
        let loaded = load::load_str("texts.yaml", &with(field)).unwrap();
        check::check(&loaded).unwrap_err().to_string()
    };
    let lookahead = refused("sid: { type: string, pattern: '^(?=SM)' }");
    assert!(
        lookahead.contains("texts.yaml:")
            && lookahead.contains("not a regular expression the sandbox can use: look-around"),
        "{lookahead}"
    );
    let number = refused("sid: { type: integer, pattern: '^[0-9]+$' }");
    assert!(number.contains("`pattern` applies to strings"), "{number}");
    checked(&with("sid: { type: string, pattern: '^SM' }"));
}
