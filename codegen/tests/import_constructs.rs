//! `import openapi` maps the constructs the spec language gained in issue 16 (fixture
//! `tests/import/constructs_3_1.yaml`): form and multipart bodies, HTTP Basic, a prefixed key,
//! header and list parameters, renamed wire names, dates, untagged unions, several success
//! statuses, text and binary answers and several webhooks; each approximation is reported.
#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

use tidings_codegen::check::{Service, Ty, TypeKind};
use tidings_codegen::import::{ImportOptions, Imported, import_openapi};
use tidings_codegen::model::{
    AuthKind, BodyKind, FormArrays, PayloadEncoding, QueryStyle, SpecFile, Statuses,
};
use tidings_codegen::resolved::Answer;

const FIXTURE: &str = "constructs_3_1.yaml";

fn import() -> Imported {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/import")
        .join(FIXTURE);
    let text = std::fs::read_to_string(path).unwrap();
    import_openapi(&text, &ImportOptions::new("texts", FIXTURE), None).unwrap()
}

/// The spec as written and the checked service; the generated code parses as Rust.
fn checked(imported: &Imported) -> (SpecFile, Service) {
    let loaded = tidings_codegen::load::load_str("texts.yaml", &imported.yaml).unwrap();
    let service =
        tidings_codegen::check::check(&loaded).unwrap_or_else(|d| panic!("{d}\n{}", imported.yaml));
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    syn::parse_file(&code).unwrap();
    (loaded.spec, service)
}

fn approximated(imported: &Imported, pointer: &str, reason: &str) -> bool {
    imported
        .report
        .approximated
        .iter()
        .any(|f| f.pointer == pointer && f.reason.contains(reason))
}

#[test]
fn every_operation_of_the_document_is_imported_and_nothing_is_skipped() {
    let imported = import();
    checked(&imported);
    assert_eq!(imported.report.operations_in_document, 5);
    assert_eq!(imported.report.operations_imported, 5);
    assert!(imported.report.skipped.is_empty(), "{}", imported.report);
}

#[test]
fn form_and_multipart_bodies_keep_their_encoding_and_array_style() {
    let imported = import();
    let (spec, service) = checked(&imported);
    let create = &spec.operations["create_message"];
    assert_eq!(create.body_encoding, Some(BodyKind::Form));
    // `encoding: {MediaUrl: {style: form, explode: false}}` writes `MediaUrl=a,b`.
    assert_eq!(
        create.form_style.as_ref().and_then(|f| f.arrays),
        Some(FormArrays::Comma)
    );
    assert_eq!(create.status, Some(Statuses::One(201)));
    let upload = &spec.operations["upload_media"];
    assert_eq!(upload.body_encoding, Some(BodyKind::Multipart));
    // A binary string of a multipart body is a file part.
    let fields = spec.types["UploadMediaRequest"].fields.as_ref().unwrap();
    assert_eq!(fields["file"].ty, "bytes");
    // Its schema does not forbid other keys, so the type keeps them (sent as text parts),
    // as a JSON body's does.
    assert_eq!(
        spec.types["UploadMediaRequest"].additional.as_deref(),
        Some("json")
    );
    // Its object field is a part of type `application/json`, as OpenAPI has it by default.
    assert_eq!(
        upload.form_style.as_ref().and_then(|f| f.nested),
        Some(tidings_codegen::model::FormNested::Json)
    );
    let op = service
        .operations
        .iter()
        .find(|o| o.name == "upload_media")
        .unwrap();
    assert!(matches!(
        op.body_encoding,
        tidings_codegen::resolved::BodyEncodingInfo::Multipart(_)
    ));
}

#[test]
fn http_basic_and_a_prefixed_key_become_basic_and_header_schemes() {
    let imported = import();
    let (spec, _) = checked(&imported);
    let basic = &spec.auth[0];
    assert_eq!(basic.kind, AuthKind::Basic);
    // Named from the scheme `accountSid_authToken`, and reported as such.
    assert_eq!(basic.username.as_deref(), Some("account_sid"));
    assert_eq!(basic.password.as_deref(), Some("auth_token"));
    assert!(spec.credentials.contains_key("account_sid"));
    assert!(spec.credentials.contains_key("auth_token"));
    assert!(approximated(
        &imported,
        "#/components/securitySchemes/accountSid_authToken",
        "credentials named from the scheme"
    ));
    let app = &spec.auth[1];
    assert_eq!(app.kind, AuthKind::Header);
    assert_eq!(app.prefix.as_deref(), Some("App "));
    assert_eq!(
        spec.operations["upload_media"].auth.as_deref(),
        Some("app_key")
    );
}

#[test]
fn header_and_list_parameters_and_renamed_wire_names_are_kept() {
    let imported = import();
    let (spec, service) = checked(&imported);
    let list = &spec.operations["list_message"];
    assert!(list.headers.contains_key("on-behalf-of"));
    let tag = &list.headers["X-Request-Tag"];
    assert!(tag.required);
    assert_eq!(list.query["To"].ty.as_deref(), Some("list<string>"));
    assert_eq!(list.query["To"].style, None); // repeat, the default
    assert_eq!(list.query["Tags"].style, Some(QueryStyle::Comma));
    assert_eq!(list.query["DateSent"].ty.as_deref(), Some("date"));
    assert_eq!(
        list.query["DateSent<"].rust_name.as_deref(),
        Some("date_sent_before")
    );
    assert_eq!(
        list.query["DateSent>"].rust_name.as_deref(),
        Some("date_sent_after")
    );
    let op = service
        .operations
        .iter()
        .find(|o| o.name == "list_message")
        .unwrap();
    let rust: Vec<&str> = op.query.iter().map(|q| q.rust.as_str()).collect();
    assert!(rust.contains(&"date_sent_before") && rust.contains(&"date_sent"));
    assert_eq!(op.headers.len(), 2);
    // A field named `self` gets a Rust name of its own.
    let message = spec.types["Message"].fields.as_ref().unwrap();
    assert_eq!(message["self"].rust_name.as_deref(), Some("self_value"));
    assert!(approximated(
        &imported,
        "#/paths/~1Accounts~1{AccountSid}~1Messages.json/get/parameters/1",
        "rust_name: date_sent_before"
    ));
}

#[test]
fn dates_untagged_unions_statuses_and_plain_answers_are_typed() {
    let imported = import();
    let (spec, service) = checked(&imported);
    let message = spec.types["Message"].fields.as_ref().unwrap();
    assert_eq!(message["date_due"].ty, "date");
    assert_eq!(message["date_created"].ty, "datetime");
    assert_eq!(
        message["date_created"]
            .format
            .map(|f| format!("{f:?}").to_lowercase()),
        Some("rfc2822".to_owned())
    );
    // oneOf [number, Price] without a discriminator: tried in order, reported.
    let price = service
        .types
        .iter()
        .find(|t| t.name == "MessagePrice")
        .unwrap();
    match &price.kind {
        TypeKind::Untagged { variants } => {
            let types: Vec<&str> = variants.iter().filter_map(|v| v.ty.as_deref()).collect();
            assert_eq!(types, ["number", "Price"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(approximated(
        &imported,
        "#/components/schemas/Message/properties/price",
        "untagged union"
    ));
    // 200 with a body and 204 without: a status list, the answer optional.
    assert_eq!(
        spec.operations["upload_media"].status,
        Some(Statuses::Many(vec![200, 204]))
    );
    let answer = |name: &str| {
        service
            .operations
            .iter()
            .find(|o| o.name == name)
            .unwrap()
            .answer
    };
    assert_eq!(answer("fetch_body_text"), Answer::Text);
    assert_eq!(answer("fetch_media_content"), Answer::Bytes);
    let upload = service
        .operations
        .iter()
        .find(|o| o.name == "upload_media")
        .unwrap();
    assert_eq!(upload.empty_statuses, [204]);
    assert_eq!(upload.response, Some(Ty::Named("Message".into())));
}

#[test]
fn several_webhooks_become_unsigned_payload_types_with_the_gap_left_open() {
    let imported = import();
    let (spec, _) = checked(&imported);
    let events = spec.events.as_ref().unwrap();
    assert!(events.webhook.is_none());
    let status = &events.webhooks["message_status"];
    assert_eq!(status.ty, "StatusCallback");
    assert_eq!(status.encoding, Some(PayloadEncoding::Form));
    assert_eq!(status.signature, "none");
    assert_eq!(
        status.select.as_ref().and_then(|s| s.path.as_deref()),
        Some("/message_status")
    );
    assert_eq!(events.webhooks["inbound_message"].ty, "Message");
    assert!(approximated(
        &imported,
        "#/webhooks/MessageStatus/post",
        "signature: none"
    ));
    assert!(spec.gaps.contains_key("webhook_signature"));
}

#[test]
fn importing_the_constructs_twice_gives_the_same_bytes() {
    assert_eq!(import().yaml, import().yaml);
}

/// Providers' full documents (not committed), when `COMMS_IMPORT_FULL_DOCS` lists their paths
/// (`:`-separated): at least 95 % of each document's operations are imported and the spec
/// checks. Without the variable there is nothing to measure and the test passes.
#[test]
fn full_provider_documents_import_at_least_95_percent_of_their_operations() {
    let Ok(paths) = std::env::var("COMMS_IMPORT_FULL_DOCS") else {
        return;
    };
    for path in paths.split(':').filter(|p| !p.is_empty()) {
        let text = std::fs::read_to_string(path).unwrap();
        let imported = import_openapi(&text, &ImportOptions::new("provider", path), None).unwrap();
        let r = &imported.report;
        println!(
            "{path}: {} in the document, {} imported, skipped by reason {:?}",
            r.operations_in_document,
            r.operations_imported,
            r.skipped_operations_by_reason()
        );
        let p = &r.pagination;
        println!(
            "{path}: pagination inferred for {} of {} list operations ({} answer a bare array), by style {:?}",
            p.paginated(),
            p.page_lists + p.bare_lists,
            p.bare_lists,
            p.by_style
        );
        assert!(
            r.operations_imported * 100 >= r.operations_in_document * 95,
            "{path}: {r}"
        );
        checked(&imported);
    }
}

#[test]
fn a_form_style_comes_back_from_our_own_export_as_it_was() {
    // The import's default for a multipart body is `nested: json`; a spec that says otherwise
    // keeps its style through the export (`x-form-style`) and back.
    let imported = import();
    let (_, service) = checked(&imported);
    let exported = tidings_codegen::export::openapi::document(&service);
    let again = import_openapi(
        &exported.to_string(),
        &ImportOptions::new("texts", "texts.json"),
        None,
    )
    .unwrap();
    let (spec, _) = checked(&again);
    let nested = |spec: &SpecFile, op: &str| {
        spec.operations[op]
            .form_style
            .as_ref()
            .and_then(|f| f.nested)
    };
    assert_eq!(
        nested(&spec, "upload_media"),
        Some(tidings_codegen::model::FormNested::Json)
    );
    let dotted = imported.yaml.replace("nested: json", "nested: dots");
    assert_ne!(dotted, imported.yaml);
    let loaded = tidings_codegen::load::load_str("texts.yaml", &dotted).unwrap();
    let service = tidings_codegen::check::check(&loaded).unwrap();
    let exported = tidings_codegen::export::openapi::document(&service);
    let again = import_openapi(
        &exported.to_string(),
        &ImportOptions::new("texts", "texts.json"),
        None,
    )
    .unwrap();
    let (spec, _) = checked(&again);
    assert_eq!(
        nested(&spec, "upload_media"),
        Some(tidings_codegen::model::FormNested::Dots)
    );
}

/// An object query parameter is the query parameters its style writes: OpenAPI's default
/// (`form`, exploded) one per property under the property's name, `deepObject` as
/// `name[property]`; each required when the object and the property are. The operation is
/// imported (it was skipped, or refused when the object was required), and reported.
#[test]
fn object_query_parameters_are_sent_as_the_parameters_their_style_writes() {
    let doc = serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Objects", "version": "1"},
        "paths": {"/emails": {"get": {
            "operationId": "list_emails",
            "parameters": [
                {"name": "filter", "in": "query", "required": true, "style": "deepObject",
                 "schema": {"$ref": "#/components/schemas/Filter"}},
                {"name": "paging", "in": "query",
                 "schema": {"type": "object", "properties": {
                     "limit": {"type": "integer", "maximum": 100},
                     "tags": {"type": "array", "items": {"type": "string"}}}}},
                {"name": "spaced", "in": "query", "style": "spaceDelimited",
                 "schema": {"type": "object", "properties": {"a": {"type": "string"}}}}
            ],
            "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"type": "object"}}}}}
        }}},
        "components": {"schemas": {"Filter": {
            "type": "object", "required": ["status"],
            "properties": {
                "status": {"type": "string", "enum": ["sent", "bounced"]},
                "from": {"type": "string", "format": "date"}
            }
        }}}
    });
    let imported = import_openapi(
        &doc.to_string(),
        &ImportOptions::new("texts", "objects.json"),
        None,
    )
    .unwrap();
    let (spec, service) = checked(&imported);
    let query = &spec.operations["list_emails"].query;
    let mut names: Vec<&str> = query.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["filter[from]", "filter[status]", "limit", "tags"]);
    assert!(query["filter[status]"].required);
    assert!(!query["filter[from]"].required, "the property is optional");
    assert!(!query["limit"].required, "the object is optional");
    assert_eq!(query["filter[from]"].ty.as_deref(), Some("date"));
    assert_eq!(query["tags"].ty.as_deref(), Some("list<string>"));
    let op = service
        .operations
        .iter()
        .find(|o| o.name == "list_emails")
        .unwrap();
    let rust: Vec<&str> = op.query.iter().map(|q| q.rust.as_str()).collect();
    assert!(rust.contains(&"filter_status"), "{rust:?}");
    assert!(approximated(
        &imported,
        "#/paths/~1emails/get/parameters/0",
        "object query parameter `filter` sent as its properties"
    ));
    // A style that writes an object otherwise is still left out, with its reason.
    assert!(
        imported
            .report
            .skipped
            .iter()
            .any(|f| f.pointer.ends_with("/parameters/2")
                && f.reason.contains("object query parameter")),
        "{:#?}",
        imported.report
    );
}
