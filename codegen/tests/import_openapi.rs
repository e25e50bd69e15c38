//! `import openapi`: documents of each version (fixtures in `tests/import/`) become specs that
//! check and whose generated code parses, with every skipped or approximated item reported by
//! its JSON pointer, `--include` filters, limits, and identical bytes on a second import.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

use tidings_codegen::check::{Service, Ty, TypeKind};
use tidings_codegen::import::{ImportError, ImportOptions, Imported, Version, import_openapi};
use tidings_codegen::model::{AuthKind, Format};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/import")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

fn import(name: &str, service: &str) -> Imported {
    import_openapi(&fixture(name), &ImportOptions::new(service, name), None).unwrap()
}

/// A spec that passed `check`: the resolved service, and the spec as written.
struct Checked {
    service: Service,
    spec: tidings_codegen::model::SpecFile,
}

impl std::ops::Deref for Checked {
    type Target = Service;
    fn deref(&self) -> &Service {
        &self.service
    }
}

/// Checks the spec and parses its generated code as Rust.
fn checked(imported: &Imported) -> Checked {
    let loaded = tidings_codegen::load::load_str("imported.yaml", &imported.yaml).unwrap();
    let service =
        tidings_codegen::check::check(&loaded).unwrap_or_else(|d| panic!("{d}\n{}", imported.yaml));
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    syn::parse_file(&code).unwrap();
    Checked {
        service,
        spec: loaded.spec,
    }
}

fn ty<'a>(s: &'a Service, name: &str) -> &'a TypeKind {
    &s.types
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no type {name}"))
        .kind
}

fn field<'a>(s: &'a Service, ty_name: &str, wire: &str) -> &'a tidings_codegen::check::FieldInfo {
    match ty(s, ty_name) {
        TypeKind::Object(fields) => fields
            .iter()
            .find(|f| f.wire == wire)
            .unwrap_or_else(|| panic!("no field {ty_name}.{wire}")),
        other => panic!("{ty_name} is {other:?}"),
    }
}

fn op<'a>(s: &'a Service, name: &str) -> &'a tidings_codegen::check::OperationInfo {
    s.operations
        .iter()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no operation {name}"))
}

fn has(imported: &Imported, pointer: &str, reason: &str) -> bool {
    imported
        .report
        .skipped
        .iter()
        .chain(&imported.report.approximated)
        .any(|f| f.pointer == pointer && f.reason.contains(reason))
}

#[test]
fn openapi_3_0_schemas_map_to_objects_enums_unions_and_maps() {
    let imported = import("features_3_0.yaml", "parcels");
    let s = checked(&imported);
    assert_eq!(imported.report.version, Some(Version::OpenApi30));
    // allOf merges the base's fields; readOnly, formats, constraints and maps come along.
    assert!(field(&s, "Parcel", "created_by").ty == Ty::String);
    let id = field(&s, "Parcel", "id");
    // Read-only and required: the service sets it, and no request sends a `Parcel` (the create
    // sends a body of its own), so every answer has it: required.
    assert!(id.required && id.format == Some(Format::Uuid));
    assert!(s.spec.types["Parcel"].fields.as_ref().unwrap()["id"].read_only);
    assert_eq!(
        field(&s, "Parcel", "metadata").ty,
        Ty::Map(Box::new(Ty::String))
    );
    assert_eq!(
        field(&s, "Parcel", "metadata").constraints.max_items,
        Some(10)
    );
    assert_eq!(field(&s, "Parcel", "extra").ty, Ty::Json);
    assert_eq!(field(&s, "Parcel", "created").ty, Ty::DateTime);
    assert_eq!(
        field(&s, "Parcel", "contents").ty,
        Ty::List(Box::new(Ty::Named("Item".into())))
    );
    // A nullable property is optional; a required one stays required.
    assert!(!field(&s, "Label", "text").required);
    assert!(field(&s, "Error", "message").required);
    // A discriminated oneOf is a tagged union; one without a discriminator is untagged.
    match ty(&s, "ParcelTracking") {
        TypeKind::Union { tag, variants, .. } => {
            assert_eq!(tag, "kind");
            let tags: Vec<&str> = variants.iter().map(|v| v.tag.as_str()).collect();
            assert_eq!(tags, ["delivery", "scan"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        ty(&s, "ParcelReference"),
        TypeKind::Untagged { variants } if variants.len() == 2
    ));
    assert!(has(
        &imported,
        "#/components/schemas/Parcel/allOf/1/properties/reference",
        "untagged union"
    ));
    // Enum values without a Rust name of their own, or with another's, get one.
    match ty(&s, "ParcelStatus") {
        TypeKind::Enum(values) => {
            let named: Vec<(&str, &str)> = values
                .iter()
                .map(|v| (v.wire.as_str(), v.rust.as_str()))
                .collect();
            assert_eq!(
                named,
                [
                    ("created", "Created"),
                    ("in_transit", "InTransit"),
                    ("delivered", "Delivered"),
                    ("", "Empty"),
                    ("In-Transit", "InTransit2")
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    // A type that holds itself by value stays typed there, boxed; through a list it is a
    // plain `Vec` (no box needed).
    assert_eq!(field(&s, "Item", "inner").ty, Ty::Named("Item".into()));
    assert!(field(&s, "Item", "inner").boxed);
    assert!(!field(&s, "Item", "children").boxed);
    assert_eq!(
        field(&s, "Item", "children").ty,
        Ty::List(Box::new(Ty::Named("Item".into())))
    );
    // `@type` keeps its wire name (Rust `r#type`); `self` gets a `rust_name`.
    assert!(field(&s, "Label", "@type").rust == "type");
    assert!(field(&s, "Label", "self").rust == "self_value");
    assert!(has(
        &imported,
        "#/components/schemas/Label/properties/self",
        "rust_name: self_value"
    ));
    // An alias of itself is `json`.
    assert_eq!(op(&s, "get_shipment").response, Some(Ty::Json));
}

#[test]
fn openapi_3_0_operations_keep_routes_parameters_statuses_and_auth() {
    let imported = import("features_3_0.yaml", "parcels");
    let s = checked(&imported);
    // The server URL stays whole, its path (`/{version}`, filled from its default) included:
    // operation paths are relative to it, as OpenAPI has them and as a mock of the document
    // serves them. No path then carries a version prefix.
    assert_eq!(
        s.spec.service.base_url.default.as_deref(),
        Some("https://api.parcels.example.com/v2")
    );
    assert!(s.spec.service.version.is_none());
    let list = op(&s, "list_parcels");
    assert_eq!(list.path, "/parcels");
    let limit = list.query.iter().find(|q| q.wire == "limit").unwrap();
    assert_eq!(
        (limit.constraints.min, limit.constraints.max),
        (Some(1.0), Some(100.0))
    );
    assert_eq!(
        list.query.iter().find(|q| q.wire == "status").unwrap().ty,
        Ty::Named("ParcelStatus".into())
    );
    assert_eq!(
        list.response,
        Some(Ty::List(Box::new(Ty::Named("Parcel".into()))))
    );
    let create = op(&s, "create_parcel");
    assert_eq!(create.body, Some(Ty::Named("CreateParcelRequest".into())));
    assert_eq!(
        s.spec.operations["create_parcel"].status,
        Some(tidings_codegen::model::Statuses::One(201))
    );
    assert_eq!(s.spec.operations["create_parcel"].errors, [422]);
    assert_eq!(
        field(&s, "CreateParcelRequest", "to").format,
        Some(Format::Email)
    );
    // A keyword operation id gets a suffix; `{ParcelId}` becomes `{parcel_id}`.
    assert_eq!(op(&s, "type_op").path, "/parcels/{parcel_id}");
    // The first mappable scheme of an operation's security wins over the default.
    assert_eq!(
        op(&s, "delete_parcel")
            .auth
            .as_ref()
            .map(|a| a.name.as_str()),
        Some("basic_auth")
    );
    let kinds: Vec<AuthKind> = s.spec.auth.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, [AuthKind::Bearer, AuthKind::Basic, AuthKind::Query]);
    // Form and multipart bodies, header and list parameters are kept.
    let ops = &s.spec.operations;
    assert_eq!(
        ops["create_label"].body_encoding,
        Some(tidings_codegen::model::BodyKind::Form)
    );
    assert_eq!(
        ops["upload_photo"].body_encoding,
        Some(tidings_codegen::model::BodyKind::Multipart)
    );
    assert!(ops["get_account"].headers["On-Behalf-Of"].required);
    assert!(ops["list_parcels"].headers.contains_key("X-Trace"));
    assert_eq!(
        ops["list_parcels"].query["ids"].ty.as_deref(),
        Some("list<string>")
    );
    assert_eq!(s.spec.errors.as_ref().unwrap().ty.as_deref(), Some("Error"));
    // A HEAD is imported (it answers whether the parcel is there).
    assert_eq!(
        ops["parcel_exists"].method,
        tidings_codegen::model::Method::Head
    );
    // What the spec language cannot say, each with its pointer.
    assert!(
        has(
            &imported,
            "#/paths/~1parcels/post/callbacks/delivered/{$request.body#~1callback}/post",
            "webhook without a JSON or form body"
        ),
        "{}",
        imported.report
    );
    assert_eq!(imported.report.operations_in_document, 9);
    assert_eq!(imported.report.operations_imported, 9);
    assert_eq!(imported.report.skipped_operations().count(), 0);
}

#[test]
fn openapi_3_1_type_arrays_const_and_webhooks() {
    let imported = import("features_3_1.json", "notify");
    let s = checked(&imported);
    assert_eq!(imported.report.version, Some(Version::OpenApi31));
    assert!(!field(&s, "Message", "body").required);
    assert_eq!(field(&s, "Message", "body").ty, Ty::String);
    assert_eq!(field(&s, "Message", "sent_at").ty, Ty::DateTime);
    assert_eq!(field(&s, "Message", "channel").ty, Ty::String);
    assert_eq!(field(&s, "Message", "to").format, Some(Format::E164));
    assert_eq!(field(&s, "Message", "price").ty, Ty::Json);
    assert_eq!(field(&s, "Message", "tags").constraints.max_len, Some(20));
    // No operationId: a name from the method and path; a `2XX` answer is the success body.
    let list = op(&s, "get_2024_01_01_messages");
    assert!(matches!(&list.response, Some(Ty::Named(_))));
    assert_eq!(
        s.spec.service.version.as_ref().unwrap().prefix.as_deref(),
        Some("2024-01-01")
    );
    assert_eq!(
        op(&s, "update_message").body,
        Some(Ty::Named("MessageUpdate".into()))
    );
    let hook = s.spec.events.as_ref().unwrap().webhook.as_ref().unwrap();
    assert_eq!(hook.ty.as_deref(), Some("StatusEvent"));
    assert!(hook.signature.is_none());
    assert_eq!(s.spec.auth[0].header.as_deref(), Some("X-Api-Key"));
}

#[test]
fn swagger_2_0_body_and_form_parameters_and_definitions() {
    let imported = import("swagger_2_0.yaml", "mailer");
    let s = checked(&imported);
    assert_eq!(imported.report.version, Some(Version::Swagger2));
    assert_eq!(
        s.spec.service.base_url.default.as_deref(),
        Some("https://mail.example.com/v3")
    );
    let send = op(&s, "post_mail_send");
    assert_eq!(send.path, "/mail/send");
    assert_eq!(send.body, Some(Ty::Named("Mail".into())));
    assert_eq!(
        s.spec.operations["post_mail_send"].status,
        Some(tidings_codegen::model::Statuses::One(202))
    );
    assert_eq!(field(&s, "Email", "email").format, Some(Format::Email));
    let templates = op(&s, "get_templates");
    assert_eq!(
        templates
            .query
            .iter()
            .map(|q| q.wire.as_str())
            .collect::<Vec<_>>(),
        ["page_size", "generations"]
    );
    // Swagger 2.0's `collectionFormat: csv` (its default) is the comma style.
    assert_eq!(
        s.spec.operations["get_templates"].query["generations"].style,
        Some(tidings_codegen::model::QueryStyle::Comma)
    );
    // `formData` parameters are a form body.
    assert_eq!(
        s.spec.operations["post_template_upload"].body_encoding,
        Some(tidings_codegen::model::BodyKind::Form)
    );
    assert!(s.spec.auth.iter().any(|a| a.kind == AuthKind::Basic));
    assert_eq!(s.spec.auth[0].kind, AuthKind::Header);
    assert_eq!(s.spec.auth[0].header.as_deref(), Some("Authorization"));
    // Pointers into definitions use the document's own words.
    assert!(imported.yaml.contains("swagger_2_0.yaml#/definitions/Mail"));
}

#[test]
fn every_item_says_where_it_was_imported_from_and_the_unknowns_are_gaps() {
    let imported = import("features_3_0.yaml", "parcels");
    let s = checked(&imported);
    for (name, o) in &s.spec.operations {
        assert_eq!(
            o.source,
            Some(tidings_codegen::model::Source::Imported),
            "{name}"
        );
        let note = o.note.as_deref().unwrap_or_default();
        assert!(
            note.starts_with("imported from features_3_0.yaml#/paths/"),
            "{name}: {note}"
        );
    }
    for (name, t) in &s.spec.types {
        assert_eq!(
            t.source,
            Some(tidings_codegen::model::Source::Imported),
            "{name}"
        );
        assert!(
            t.note
                .as_deref()
                .unwrap_or_default()
                .starts_with("imported from features_3_0.yaml#/"),
            "{name}"
        );
    }
    let report = tidings_codegen::gaps::report(std::slice::from_ref(&s.service));
    for gap in [
        "limits.rate",
        "retry_policy",
        "timeouts",
        "idempotency",
        "webhook_signature",
    ] {
        assert!(report.contains(gap), "gaps should list {gap}:\n{report}");
    }
}

#[test]
fn importing_the_same_document_twice_gives_the_same_bytes() {
    for (name, service) in [
        ("features_3_0.yaml", "parcels"),
        ("features_3_1.json", "notify"),
        ("swagger_2_0.yaml", "mailer"),
    ] {
        let a = import(name, service);
        let b = import(name, service);
        assert_eq!(a.yaml, b.yaml, "{name}");
        let again = import_openapi(
            &fixture(name),
            &ImportOptions::new(service, name),
            Some(&a.yaml),
        )
        .unwrap();
        assert_eq!(
            again.yaml, a.yaml,
            "{name}: merging into its own import changes nothing"
        );
    }
}

#[test]
fn include_filters_take_tags_path_globs_and_operation_ids_and_only_their_types() {
    let by_tag = import_openapi(
        &fixture("features_3_0.yaml"),
        &ImportOptions::new("parcels", "features_3_0.yaml").include("parcels"),
        None,
    )
    .unwrap();
    let s = checked(&by_tag);
    let names: Vec<&str> = s.operations.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["list_parcels", "create_parcel"]);
    assert!(s.spec.types.get("Shipment").is_none() && s.spec.types.get("Label").is_some());
    assert_eq!(by_tag.report.operations_filtered_out, 7);

    let by_glob_and_id = import_openapi(
        &fixture("features_3_0.yaml"),
        &ImportOptions::new("parcels", "features_3_0.yaml")
            .include("/parcels/*")
            .include("getShipment"),
        None,
    )
    .unwrap();
    let s = checked(&by_glob_and_id);
    let names: Vec<&str> = s.operations.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        ["type_op", "delete_parcel", "parcel_exists", "get_shipment"]
    );
}

#[test]
fn bad_input_is_a_typed_error_not_a_panic() {
    let options = ImportOptions::new("x", "doc.json");
    assert!(matches!(
        import_openapi("{ not json: [", &options, None),
        Err(ImportError::Parse(_))
    ));
    assert!(matches!(
        import_openapi("openapi: 4.0.0\n", &options, None),
        Err(ImportError::Unsupported(_))
    ));
    assert!(matches!(
        import_openapi("swagger: '1.2'\n", &options, None),
        Err(ImportError::Unsupported(_))
    ));
    assert!(matches!(
        import_openapi("just: yaml\n", &options, None),
        Err(ImportError::Unsupported(_))
    ));
    assert!(matches!(
        import_openapi("- a list\n", &options, None),
        Err(ImportError::Unsupported(_))
    ));
    let bad_name = ImportOptions::new("Not-A-Module", "doc.json");
    assert!(matches!(
        import_openapi("openapi: 3.0.0\n", &bad_name, None),
        Err(ImportError::Options(_))
    ));
    // The smallest document imports to a spec with no operations.
    let empty = import_openapi(
        "openapi: 3.0.0\ninfo: { title: E, version: '1' }\npaths: {}\n",
        &options,
        None,
    )
    .unwrap();
    assert_eq!(empty.report.operations_imported, 0);
    checked(&empty);
}

#[test]
fn documents_over_the_size_limit_are_refused_before_parsing() {
    let mut options = ImportOptions::new("x", "doc.json");
    options.max_document_bytes = 1024;
    let big = format!(
        "openapi: 3.0.0\ninfo: {{ title: '{}', version: '1' }}\n",
        "x".repeat(2000)
    );
    match import_openapi(&big, &options, None) {
        Err(ImportError::TooLarge { size, limit }) => {
            assert_eq!((size > 1024, limit), (true, 1024))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn cli_writes_the_spec_to_stdout_and_the_report_to_stderr() {
    let doc = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import/swagger_2_0.yaml");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tidings-codegen"))
        .args(["import", "openapi"])
        .arg(&doc)
        .args(["--service", "mailer"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let yaml = String::from_utf8(out.stdout).unwrap();
    assert_eq!(yaml, import("swagger_2_0.yaml", "mailer").yaml);
    let report = String::from_utf8(out.stderr).unwrap();
    assert!(
        report.contains("operations: 3 in the document, 3 imported, 0 skipped"),
        "{report}"
    );
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_tidings-codegen"))
        .args(["import", "openapi"])
        .arg(&doc)
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--service"));
}

#[test]
fn a_body_of_bytes_is_imported_as_binary_with_its_media_types_and_exported_back() {
    // Infobip's `POST /mms/1/content` takes `application/octet-stream`; an image upload takes
    // two image types; `*/*` with a binary string takes any file. All were skipped.
    let doc = r##"
openapi: 3.0.1
info: { title: T, version: "1" }
paths:
  /content:
    post:
      operationId: upload_binary
      requestBody:
        required: true
        content:
          application/octet-stream:
            schema: { type: string, format: binary }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { type: object, properties: { id: { type: string } } }
  /images:
    put:
      operationId: put_image
      requestBody:
        content:
          image/png: { schema: { type: string, format: binary } }
          image/jpeg; q=0.5: { schema: { type: string, format: binary } }
      responses: { "204": { description: ok } }
  /files:
    post:
      operationId: put_any
      requestBody:
        content:
          "*/*": { schema: { type: string, format: binary } }
      responses: { "204": { description: ok } }
"##;
    let imported = import_openapi(doc, &ImportOptions::new("uploads", "doc.yaml"), None).unwrap();
    assert!(imported.report.skipped.is_empty(), "{}", imported.report);
    let service = checked(&imported);
    let media = |name: &str| {
        let o = op(&service, name);
        assert_eq!(
            o.body_encoding,
            tidings_codegen::resolved::BodyEncodingInfo::Binary
        );
        assert_eq!(o.body, Some(Ty::Bytes));
        o.body_media.clone()
    };
    assert_eq!(media("upload_binary"), ["application/octet-stream"]);
    assert_eq!(media("put_image"), ["image/jpeg", "image/png"]);
    assert!(media("put_any").is_empty());
    assert!(
        imported
            .report
            .inferred
            .iter()
            .any(|f| f.pointer == "#/paths/~1images/put/requestBody/content"
                && f.reason.contains("`body_encoding: binary`")
                && f.detail.as_deref() == Some("one of image/jpeg, image/png")),
        "{}",
        imported.report
    );
    // The client takes the bytes with their media type.
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    assert!(
        code.contains("pub fn put_image(&self, body: rt::Binary)"),
        "{code}"
    );
    // Exported, then imported again: the same operations.
    let exported = tidings_codegen::export::openapi::document(&service);
    let content = &exported["paths"]["/images"]["put"]["requestBody"]["content"];
    assert_eq!(content["image/png"]["schema"]["format"], "binary");
    let again = import_openapi(
        &serde_json::to_string(&exported).unwrap(),
        &ImportOptions::new("uploads", "again.json"),
        None,
    )
    .unwrap();
    let again = checked(&again);
    for name in ["upload_binary", "put_image", "put_any"] {
        assert_eq!(
            op(&again, name).body_media,
            op(&service, name).body_media,
            "{name}"
        );
        assert_eq!(
            op(&again, name).body_encoding,
            op(&service, name).body_encoding
        );
    }
}

#[test]
fn check_refuses_a_binary_body_that_is_not_bytes_and_media_types_without_one() {
    let spec = |op: &str| {
        format!(
            r#"
service: {{ name: files, title: Files, summary: Files, source: assumed, base_url: {{ default: "https://api.example.com", env: FILES_URL, source: assumed }} }}
types:
  Note:
    source: assumed
    fields: {{ text: {{ type: string, required: true }} }}
operations:
  upload:
    method: POST
    path: /files
{op}
    source: assumed
"#
        )
    };
    for (op, says) in [
        (
            "    body: Note\n    body_encoding: binary",
            "a binary body is the bytes as they are",
        ),
        (
            "    body: bytes",
            "a `bytes` body is sent as it is: say so with `body_encoding: binary`",
        ),
        (
            "    body: Note\n    body_media: [image/png]",
            "`body_media` lists the media types of a binary body",
        ),
        (
            "    body: bytes\n    body_encoding: binary\n    body_media: [png]",
            "`png` is not a media type",
        ),
        (
            "    body: bytes\n    body_encoding: binary\n    form_style: { arrays: comma }",
            "`form_style` applies to form and multipart bodies",
        ),
    ] {
        let text = spec(op);
        let loaded = tidings_codegen::load::load_str("files.yaml", &text).unwrap();
        let errors = tidings_codegen::check::check(&loaded)
            .unwrap_err()
            .to_string();
        assert!(errors.contains(says), "{op}: {errors}");
    }
    let fine = spec(
        "    body: bytes\n    body_encoding: binary\n    body_media: [image/*, application/pdf]",
    );
    let loaded = tidings_codegen::load::load_str("files.yaml", &fine).unwrap();
    tidings_codegen::check::check(&loaded).unwrap_or_else(|d| panic!("{d}"));
}

#[test]
fn answer_headers_are_imported_typed_documented_and_exported_back() {
    // Infobip's WhatsApp media metadata is a HEAD whose answer is its headers; creates answer
    // `Location`; Swagger 2.0 types a header in place. Success headers were dropped (a HEAD's
    // only reported).
    let doc = r##"
openapi: 3.0.1
info: { title: T, version: "1" }
components:
  headers:
    Remaining: { description: Calls left in this window., schema: { type: integer } }
paths:
  /media/{id}:
    head:
      operationId: media_metadata
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: ok
          headers:
            Content-Type: { schema: { type: string } }
            Content-Length: { description: "Size in bytes.\nSecond line.", schema: { type: integer } }
            Last-Modified: { schema: { type: string, format: date-time } }
            X-Tier: { schema: { type: string, enum: [free, paid] } }
            X-Meta: { schema: { type: object, properties: { a: { type: string } } } }
            X-RateLimit-Remaining: { $ref: "#/components/headers/Remaining" }
          content:
            application/json: { schema: { type: object, properties: { size: { type: integer } } } }
        "404": { description: gone }
  /media:
    post:
      operationId: create_media
      responses:
        "201":
          description: created
          headers:
            Location: { description: The new item., schema: { type: string, format: uri } }
          content:
            application/json: { schema: { type: object, properties: { id: { type: string } } } }
        "202":
          description: queued
          headers:
            location: { schema: { type: string } }
            Retry-After: { schema: { type: integer } }
"##;
    let imported = import_openapi(doc, &ImportOptions::new("media", "doc.yaml"), None).unwrap();
    assert!(imported.report.skipped.is_empty(), "{}", imported.report);
    let service = checked(&imported);
    let head = op(&service, "media_metadata");
    assert_eq!(head.method, tidings_codegen::model::Method::Head);
    assert_eq!(head.response, None);
    assert_eq!(head.success_status, 200);
    let headers: Vec<(&str, &Ty)> = head
        .response_headers
        .iter()
        .map(|h| (h.name.as_str(), &h.ty))
        .collect();
    // In the order of the importer's sorted maps.
    let Ty::Named(tier) = headers[5].1 else {
        panic!("{headers:?}")
    };
    assert!(matches!(ty(&service, tier), TypeKind::Enum(_)), "{tier}");
    assert_eq!(
        headers,
        [
            ("Content-Length", &Ty::Integer),
            ("Content-Type", &Ty::String),
            ("Last-Modified", &Ty::DateTime),
            ("X-Meta", &Ty::String),
            ("X-RateLimit-Remaining", &Ty::Integer),
            ("X-Tier", &Ty::Named(tier.clone())),
        ],
        "every documented header, typed (a structure as text)"
    );
    assert_eq!(
        head.response_headers[0].doc.as_deref(),
        Some("Size in bytes.\nSecond line.")
    );
    assert_eq!(
        head.response_headers[4].doc.as_deref(),
        Some("Calls left in this window."),
        "a header given by reference"
    );
    assert!(has(
        &imported,
        "#/paths/~1media~1{id}/head/responses/200/headers/X-Meta",
        "response header `X-Meta` of type"
    ));
    assert!(has(
        &imported,
        "#/paths/~1media~1{id}/head/responses/200",
        "an answer to a HEAD carries no body"
    ));
    // Both success answers' headers, a name written twice (case aside) once.
    let create = op(&service, "create_media");
    let names: Vec<&str> = create
        .response_headers
        .iter()
        .map(|h| h.name.as_str())
        .collect();
    assert_eq!(names, ["Location", "Retry-After"]);
    // The method's docs list them and say how to read them.
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    assert!(code.contains("- `Location`: The new item."), "{code}");
    assert!(code.contains("`.with_headers()`"), "{code}");
    // Exported, then imported again: the same headers, types and docs.
    let exported = tidings_codegen::export::openapi::document(&service);
    let length =
        &exported["paths"]["/media/{id}"]["head"]["responses"]["200"]["headers"]["Content-Length"];
    assert_eq!(length["schema"]["type"], "integer");
    let again = import_openapi(
        &serde_json::to_string(&exported).unwrap(),
        &ImportOptions::new("media", "again.json"),
        None,
    )
    .unwrap();
    let again = checked(&again);
    for name in ["media_metadata", "create_media"] {
        assert_eq!(
            op(&again, name).response_headers,
            op(&service, name).response_headers,
            "{name}"
        );
    }

    // Swagger 2.0: the header's type in place.
    let doc = r##"
swagger: "2.0"
info: { title: T, version: "1" }
paths:
  /things:
    post:
      operationId: create_thing
      responses:
        "201":
          description: created
          headers:
            Location: { type: string, description: Where it is. }
            X-Count: { type: integer }
"##;
    let imported = import_openapi(doc, &ImportOptions::new("things", "doc.yaml"), None).unwrap();
    let service = checked(&imported);
    let headers = &op(&service, "create_thing").response_headers;
    assert_eq!(headers[0].name, "Location");
    assert_eq!(headers[0].doc.as_deref(), Some("Where it is."));
    assert_eq!(
        (headers[1].name.as_str(), &headers[1].ty),
        ("X-Count", &Ty::Integer)
    );
}

#[test]
fn check_refuses_response_headers_that_are_not_headers_or_not_scalars() {
    let spec = |headers: &str| {
        format!(
            r#"
service: {{ name: files, title: Files, summary: Files, source: assumed, base_url: {{ default: "https://api.example.com", env: FILES_URL, source: assumed }} }}
types:
  Note:
    source: assumed
    fields: {{ text: {{ type: string, required: true }} }}
operations:
  get_note:
    method: GET
    path: /notes
    response: Note
    response_headers: {headers}
    source: assumed
"#
        )
    };
    for (headers, says) in [
        ("{ \"X Bad\": {} }", "`X Bad` is not an HTTP header name"),
        (
            "{ ETag: {}, etag: {} }",
            "response header `etag` is listed twice",
        ),
        (
            "{ X-Note: { type: Note } }",
            "response header `X-Note` must be a scalar",
        ),
        ("{ X-Note: { type: Nope } }", "Nope"),
        ("{ X-Note: { kind: string } }", "kind"),
    ] {
        let text = spec(headers);
        let errors = match tidings_codegen::load::load_str("files.yaml", &text) {
            Ok(loaded) => tidings_codegen::check::check(&loaded)
                .unwrap_err()
                .to_string(),
            Err(e) => e.to_string(),
        };
        assert!(errors.contains(says), "{headers}: {errors}");
    }
    let many: Vec<String> = (0..=tidings_codegen::check::MAX_RESPONSE_HEADERS)
        .map(|i| format!("X-H{i}: {{}}"))
        .collect();
    let text = spec(&format!("{{ {} }}", many.join(", ")));
    let loaded = tidings_codegen::load::load_str("files.yaml", &text).unwrap();
    let errors = tidings_codegen::check::check(&loaded)
        .unwrap_err()
        .to_string();
    assert!(errors.contains("65 response headers"), "{errors}");
    let fine = spec("{ ETag: {}, X-Count: { type: integer, doc: How many. } }");
    let loaded = tidings_codegen::load::load_str("files.yaml", &fine).unwrap();
    tidings_codegen::check::check(&loaded).unwrap_or_else(|d| panic!("{d}"));
}

#[test]
fn an_untyped_parameter_enum_of_mixed_scalars_is_the_enum_of_their_texts() {
    // Vonage's conversion API: `delivered` is `{enum: [true, false, 0, 1]}`, required; the
    // operations were skipped ("object query parameter").
    let doc = r##"
openapi: 3.0.1
info: { title: T, version: "1" }
paths:
  /sms:
    post:
      operationId: sms_conversion
      parameters:
        - { name: delivered, in: query, required: true, schema: { enum: [true, false, 0, 1] } }
      responses: { "200": { description: ok } }
"##;
    let imported = import_openapi(doc, &ImportOptions::new("conv", "doc.yaml"), None).unwrap();
    assert!(imported.report.skipped.is_empty(), "{}", imported.report);
    let service = checked(&imported);
    let param = &op(&service, "sms_conversion").query[0];
    let Ty::Named(name) = &param.ty else {
        panic!("{:?}", param.ty)
    };
    match ty(&service, name) {
        TypeKind::Enum(values) => {
            let wires: Vec<&str> = values.iter().map(|v| v.wire.as_str()).collect();
            assert_eq!(wires, ["true", "false", "0", "1"], "0 and 1 are named");
            let rust: Vec<&str> = values.iter().map(|v| v.rust.as_str()).collect();
            assert_eq!(rust, ["True", "False", "V0", "V1"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(has(
        &imported,
        "#/paths/~1sms/post/parameters/0/schema",
        "an enum of values of several JSON types (true, false, 0, 1): sent as their text"
    ));
}

#[test]
fn a_plain_http_server_of_another_host_is_kept_and_reported() {
    let doc = |url: &str| {
        format!(
            "openapi: 3.0.0\ninfo: {{ title: E, version: '1' }}\nservers: [{{ url: '{url}' }}]\npaths: {{}}\n"
        )
    };
    let options = ImportOptions::new("e", "doc.yaml");
    let remote = import_openapi(&doc("http://api.example.com/v3"), &options, None).unwrap();
    assert!(
        remote.yaml.contains("default: http://api.example.com/v3"),
        "as written"
    );
    let finding = remote
        .report
        .inferred
        .iter()
        .find(|f| f.reason.contains("plain http://"))
        .unwrap_or_else(|| panic!("{}", remote.report));
    assert_eq!(finding.detail.as_deref(), Some("http://api.example.com/v3"));
    for local in [
        "http://localhost:4010",
        "http://127.0.0.1:4010/v1",
        "https://api.example.com",
    ] {
        let imported = import_openapi(&doc(local), &options, None).unwrap();
        assert!(
            !imported
                .report
                .inferred
                .iter()
                .any(|f| f.reason.contains("plain http://")),
            "{local}: {}",
            imported.report
        );
    }
}

/// Vonage's older APIs take `api_key` and `api_secret` as query parameters, two apiKey schemes
/// in one requirement object (both at once). They import as one `query` scheme sending both
/// (two credentials, not one key sent twice); an alternative (a requirement of its own) stays
/// a scheme of its own; and the export says the same again (one apiKey scheme per parameter,
/// required together), which imports back to the same scheme.
#[test]
fn query_keys_required_together_are_one_scheme_sending_each_and_survive_a_round_trip() {
    let document = r#"{
      "openapi": "3.0.3",
      "info": {"title": "Numbers", "version": "1"},
      "servers": [{"url": "https://rest.example.com"}],
      "security": [{"apiKey": [], "apiSecret": []}, {"bearer": []}],
      "components": {"securitySchemes": {
        "apiKey": {"type": "apiKey", "in": "query", "name": "api_key"},
        "apiSecret": {"type": "apiKey", "in": "query", "name": "api_secret"},
        "bearer": {"type": "http", "scheme": "bearer"}
      }},
      "paths": {"/numbers": {"get": {
        "operationId": "listNumbers",
        "security": [{"apiSecret": [], "apiKey": []}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {
          "schema": {"type": "object", "properties": {"count": {"type": "integer"}}}}}}}
      }}}
    }"#;
    let imported = import_openapi(
        document,
        &ImportOptions::new("numbers", "numbers.json"),
        None,
    )
    .unwrap();
    let s = checked(&imported);
    let schemes: Vec<(
        &str,
        &tidings_codegen::check::AuthScheme<tidings_codegen::check::Owned>,
    )> = s
        .auth
        .iter()
        .map(|a| (a.name.as_str(), &a.method))
        .collect();
    let pairs = vec![
        ("api_key".to_owned(), "api_key".to_owned()),
        ("api_secret".to_owned(), "api_secret".to_owned()),
    ];
    assert_eq!(schemes.len(), 2, "{}", imported.yaml);
    assert_eq!(schemes[0].0, "api_key");
    assert_eq!(
        *schemes[0].1,
        tidings_codegen::check::AuthScheme::Query {
            params: pairs.clone()
        }
    );
    assert_eq!(schemes[1].1.kind(), Some(AuthKind::Bearer));
    let credentials: Vec<&str> = s.credentials.iter().map(|c| c.name.as_str()).collect();
    assert!(
        credentials.contains(&"api_key") && credentials.contains(&"api_secret"),
        "{credentials:?}"
    );
    // The operation names both: it is served by the joined scheme (the service's first), and
    // names it, so the bearer scheme the service also has is refused there.
    assert_eq!(
        op(&s, "list_numbers")
            .auth
            .as_ref()
            .map(|a| a.name.as_str()),
        Some("api_key"),
        "{}",
        imported.yaml
    );

    let exported = tidings_codegen::export::openapi::document(&s);
    let security = &exported["components"]["securitySchemes"];
    assert_eq!(security["api_key_api_key"]["name"], "api_key");
    assert_eq!(security["api_key_api_secret"]["name"], "api_secret");
    assert_eq!(
        exported["security"][0],
        serde_json::json!({"api_key_api_key": [], "api_key_api_secret": []})
    );
    let again = import_openapi(
        &exported.to_string(),
        &ImportOptions::new("numbers", "exported.json"),
        None,
    )
    .unwrap();
    let again = checked(&again);
    assert_eq!(again.auth[0].name, "api_key");
    assert_eq!(
        again.auth[0].method,
        tidings_codegen::check::AuthScheme::Query { params: pairs }
    );
}

/// Vonage's Verify document has no security scheme: every operation carries `api_key` and
/// `api_secret`, as form fields of its body or (the search) as query parameters. They import as
/// a `body` scheme and a `query` scheme (the search's own) with a credential each, and leave
/// the request types and the query; the `/{format}` parameter (`json` or `xml`) names no item,
/// so the sandbox answers those operations from their bodies.
#[test]
fn credentials_every_operation_carries_as_fields_become_auth_schemes() {
    let document = r##"{
      "openapi": "3.0.0",
      "info": {"title": "Verify", "version": "1"},
      "servers": [{"url": "https://api.example.com/verify"}],
      "components": {
        "parameters": {
          "format": {"name": "format", "in": "path", "required": true,
                     "schema": {"type": "string", "enum": ["json", "xml"]}},
          "api_key": {"name": "api_key", "in": "query", "required": true, "schema": {"type": "string"}},
          "api_secret": {"name": "api_secret", "in": "query", "required": true, "schema": {"type": "string"}}
        },
        "schemas": {
          "verifyRequest": {"type": "object", "required": ["api_key", "api_secret", "number"],
            "properties": {"api_key": {"type": "string"}, "api_secret": {"type": "string"},
                           "number": {"type": "string"}, "brand": {"type": "string"}}}
        }
      },
      "paths": {
        "/{format}": {"post": {"operationId": "verifyRequest",
          "parameters": [{"$ref": "#/components/parameters/format"}],
          "requestBody": {"content": {"application/x-www-form-urlencoded": {
            "schema": {"$ref": "#/components/schemas/verifyRequest"}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object", "properties": {"request_id": {"type": "string"}}}}}}}}},
        "/search/{format}": {"get": {"operationId": "verifySearch",
          "parameters": [{"$ref": "#/components/parameters/format"},
                         {"$ref": "#/components/parameters/api_key"},
                         {"$ref": "#/components/parameters/api_secret"},
                         {"name": "request_id", "in": "query", "schema": {"type": "string"}}],
          "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object", "properties": {"status": {"type": "string"}}}}}}}}}
      }
    }"##;
    let imported =
        import_openapi(document, &ImportOptions::new("verify", "verify.json"), None).unwrap();
    let s = checked(&imported);
    let pairs = vec![
        ("api_key".to_owned(), "api_key".to_owned()),
        ("api_secret".to_owned(), "api_secret".to_owned()),
    ];
    use tidings_codegen::check::AuthScheme;
    assert_eq!(
        s.auth[0].method,
        AuthScheme::Body {
            fields: pairs.clone()
        },
        "{}",
        imported.yaml
    );
    assert_eq!(s.auth[1].method, AuthScheme::Query { params: pairs });
    let credentials: Vec<&str> = s.credentials.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(credentials, ["api_key", "api_secret"]);
    // The request type and the search's query no longer take them.
    let TypeKind::Object(fields) = ty(&s, "VerifyRequest") else {
        panic!("{}", imported.yaml)
    };
    let wires: Vec<&str> = fields.iter().map(|f| f.wire.as_str()).collect();
    assert_eq!(wires, ["brand", "number"]);
    let search = op(&s, "verify_search");
    let query: Vec<&str> = search.query.iter().map(|q| q.wire.as_str()).collect();
    assert_eq!(query, ["request_id"]);
    assert_eq!(
        search.auth.as_ref().map(|a| a.name.as_str()),
        Some("query_credentials")
    );
    assert!(op(&s, "verify_request").auth.is_none());
    // `/{format}` chooses the answer's format: no item is named there.
    let shape = tidings_codegen::check::resource_shape(&s, op(&s, "verify_request"));
    assert_eq!(shape.kind, tidings_codegen::check::ResourceAction::Action);
    assert_eq!(shape.item_param, None);
}

/// Discord writes its numeric enums as `oneOf` of `const`s: an integer, reported. Customer.io's
/// batch example holds an object `identify` beside a person one: each is read as the variant
/// it fits as written, so the person's `id` stays required.
#[test]
fn const_alternatives_are_their_scalar_and_an_example_is_read_as_the_variant_it_fits() {
    let text = r##"
openapi: 3.1.0
info: { title: unions, version: "1" }
paths:
  /webhooks:
    post:
      operationId: create_webhook
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Webhook" } } } }
      responses: { "200": { description: ok } }
  /batch:
    post:
      operationId: batch
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                batch: { type: array, items: { anyOf: [ { $ref: "#/components/schemas/person_ops" }, { $ref: "#/components/schemas/object_ops" } ] } }
            example:
              batch:
                - { type: person, identifiers: { id: "42" }, action: identify }
                - { type: object, identifiers: { object_id: acme }, action: identify }
      responses: { "200": { description: ok } }
components:
  schemas:
    WebhookTypes:
      type: integer
      oneOf: [ { title: INCOMING, const: 1 }, { title: FOLLOWER, const: 2 } ]
    Webhook:
      type: object
      required: [type]
      properties: { type: { $ref: "#/components/schemas/WebhookTypes" } }
    person_ops:
      oneOf: [ { $ref: "#/components/schemas/identify_person" } ]
      discriminator: { propertyName: action }
    object_ops:
      oneOf: [ { $ref: "#/components/schemas/identify_object" } ]
      discriminator: { propertyName: action }
    identify_person:
      allOf:
        - { type: object, required: [type, identifiers], properties: { type: { type: string, enum: [person] }, identifiers: { type: object, required: [id], properties: { id: { type: string } } } } }
        - { type: object, required: [action], properties: { action: { type: string, enum: [identify] } } }
    identify_object:
      type: object
      required: [type, identifiers, action]
      properties:
        type: { type: string, enum: [object] }
        action: { type: string, enum: [identify] }
        identifiers: { type: object, required: [object_id], properties: { object_id: { type: string } } }
"##;
    let imported =
        import_openapi(text, &ImportOptions::new("unions", "unions.yaml"), None).unwrap();
    let s = checked(&imported);
    assert_eq!(field(&s, "Webhook", "type").ty, Ty::Integer);
    assert!(has(
        &imported,
        "#/components/schemas/WebhookTypes",
        "`const` values typed as integer"
    ));
    let left_out = imported
        .report
        .approximated
        .iter()
        .filter(|f| f.reason.contains("leaves out"))
        .count();
    assert_eq!(left_out, 0, "{}", imported.report);
    let person = s
        .types
        .iter()
        .filter_map(|t| match &t.kind {
            TypeKind::Object(fields) => fields
                .iter()
                .find(|f| f.wire == "id" && t.name.contains("Identifiers")),
            _ => None,
        })
        .next()
        .expect("the person's identifiers");
    assert!(person.required, "{}", imported.yaml);
}

#[test]
fn an_all_of_member_naming_a_field_without_a_type_keeps_its_type_and_a_referenced_text_or_number_is_text()
 {
    // Zulip: success answers extend `JsonSuccessBase` with `allOf`, naming `result: {}` and
    // `msg: {}` again (they were `json`, answered `{}`); `anchor` is a `$ref` to `oneOf
    // [string, integer]` (it was left out as an object query parameter).
    let doc = r##"
openapi: 3.0.1
info: { title: T, version: "1" }
components:
  schemas:
    Anchor: { oneOf: [ { type: string }, { type: integer } ] }
    JsonSuccessBase:
      type: object
      required: [result, msg]
      properties: { result: { type: string, enum: [success] }, msg: { type: string } }
paths:
  /messages:
    get:
      operationId: get_messages
      parameters:
        - { name: anchor, in: query, schema: { $ref: "#/components/schemas/Anchor" } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                allOf:
                  - $ref: "#/components/schemas/JsonSuccessBase"
                  - required: [count]
                    properties: { result: {}, msg: { description: empty on success }, count: { type: integer } }
"##;
    let imported = import_openapi(doc, &ImportOptions::new("z", "doc.yaml"), None).unwrap();
    assert!(imported.report.skipped.is_empty(), "{}", imported.report);
    let service = checked(&imported);
    let get = op(&service, "get_messages");
    assert_eq!(get.query[0].wire, "anchor");
    assert_eq!(get.query[0].ty, Ty::String);
    let Some(Ty::Named(answer)) = &get.response else {
        panic!("{:?}", get.response)
    };
    let TypeKind::Object(fields) = ty(&service, answer) else {
        panic!("an object")
    };
    let of = |name: &str| &fields.iter().find(|f| f.wire == name).unwrap().ty;
    assert_eq!(of("msg"), &Ty::String);
    assert_eq!(of("count"), &Ty::Integer);
    let Ty::Named(result) = of("result") else {
        panic!("{:?}", of("result"))
    };
    assert!(matches!(ty(&service, result), TypeKind::Enum(_)));
}

#[test]
fn form_fields_encoded_as_json_give_the_json_form_style_and_unmarked_lists_are_reported() {
    // Zulip's form bodies mark their lists `encoding: {<field>: {contentType:
    // application/json}}` (they were read as repeated pairs, and refused).
    let doc = r##"
openapi: 3.0.1
info: { title: T, version: "1" }
paths:
  /subscriptions:
    post:
      operationId: subscribe
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              properties:
                principals: { type: array, items: { type: integer } }
                tags: { type: array, items: { type: string } }
            encoding:
              principals: { contentType: application/json }
      responses: { "200": { description: ok } }
"##;
    let imported = import_openapi(doc, &ImportOptions::new("z", "doc.yaml"), None).unwrap();
    assert!(
        imported
            .yaml
            .contains("form_style: { arrays: json, nested: json }"),
        "{}",
        imported.yaml
    );
    checked(&imported);
    assert!(has(
        &imported,
        "#/paths/~1subscriptions/post/requestBody/content/application~1x-www-form-urlencoded/encoding",
        "some fields are sent as JSON text (`contentType: application/json`), so every list and object field is: `tags` too"
    ));
}

#[test]
fn a_swagger_form_body_reports_the_other_media_types_it_consumes() {
    // Slack's methods: `consumes: [application/x-www-form-urlencoded, application/json]` with
    // `in: formData` parameters (JSON was dropped in silence).
    let doc = r##"
swagger: "2.0"
info: { title: T, version: "1" }
paths:
  /rooms.create:
    post:
      operationId: rooms_create
      consumes: [application/x-www-form-urlencoded, application/json]
      parameters:
        - { in: formData, name: name, type: string, required: true }
      responses: { "200": { description: ok } }
"##;
    let imported = import_openapi(doc, &ImportOptions::new("t", "doc.yaml"), None).unwrap();
    checked(&imported);
    assert!(
        imported.yaml.contains("body_encoding: form"),
        "{}",
        imported.yaml
    );
    assert!(
        imported.report.approximated.iter().any(|f| f.reason
            == "the body is sent as `application/x-www-form-urlencoded`; the document also takes `application/json`"),
        "{}",
        imported.report
    );
}

#[test]
fn a_swagger_body_keeps_every_media_type_it_consumes_and_its_required() {
    // WhatsApp's `POST /media`: 13 file types in `consumes`, only the first was kept (an image
    // was refused); its `POST /users/login` body is `required: false`, made required.
    let doc = r##"
swagger: "2.0"
info: { title: T, version: "1" }
paths:
  /media:
    post:
      operationId: upload_media
      consumes: [application/pdf, image/png, video/mp4]
      parameters:
        - { in: body, name: body, required: true, schema: { type: string, format: binary } }
      responses: { "201": { description: ok } }
  /users/login:
    post:
      operationId: login
      consumes: [application/json]
      parameters:
        - { in: body, name: body, required: false, schema: { type: object, properties: { new_password: { type: string } } } }
      responses: { "200": { description: ok } }
"##;
    let imported = import_openapi(doc, &ImportOptions::new("t", "doc.yaml"), None).unwrap();
    checked(&imported);
    assert!(
        imported
            .yaml
            .contains("body_media: [application/pdf, image/png, video/mp4]"),
        "{}",
        imported.yaml
    );
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.pointer.contains("login") && f.reason.starts_with("the body is optional")),
        "{}",
        imported.report
    );
}

#[test]
fn a_draft_4_tuple_of_schemas_without_a_type_is_one_of_them() {
    // Slack's `objs_conversation`: `items: [{object}, {object}]` and no `type`, with objects
    // for examples (it was `list<json>`, answered `[]`).
    let doc = r##"
swagger: "2.0"
info: { title: T, version: "1" }
definitions:
  thing:
    items:
      - { type: object, required: [id, name], properties: { id: { type: string }, name: { type: string } } }
      - { type: object, required: [id], properties: { id: { type: string } } }
paths:
  /things.info:
    get:
      operationId: things_info
      responses:
        "200":
          description: ok
          schema: { type: object, required: [thing], properties: { thing: { $ref: "#/definitions/thing" } } }
"##;
    let imported = import_openapi(doc, &ImportOptions::new("t", "doc.yaml"), None).unwrap();
    let service = checked(&imported);
    let thing = &field(&service, "ThingsInfoResponse", "thing").ty;
    let Ty::Named(name) = thing else {
        panic!("{thing:?}\n{}", imported.yaml)
    };
    assert!(
        matches!(ty(&service, name), TypeKind::Untagged { .. }),
        "{}",
        imported.yaml
    );
    assert!(has(
        &imported,
        "#/definitions/thing",
        "`items` lists schemas and no `type` says array (a draft-4 tuple): read as one of them, as the document's examples are"
    ));
}

#[test]
fn a_document_that_shows_no_error_body_leaves_the_error_body_gap() {
    // Twilio's and Front's documents declare no error answers: the served errors are in a
    // shape of our own, and the spec says so.
    let without = r##"
openapi: 3.0.1
info: { title: T, version: "1" }
paths:
  /things:
    get:
      operationId: list_things
      responses: { "200": { description: ok } }
"##;
    let with = without.replace(
        r#"{ "200": { description: ok } }"#,
        r#"{ "200": { description: ok }, "400": { description: bad, content: { application/json: { schema: { type: object, properties: { code: { type: string }, message: { type: string } } } } } } }"#,
    );
    let gap = |doc: &str| {
        let imported = import_openapi(doc, &ImportOptions::new("t", "doc.yaml"), None).unwrap();
        checked(&imported);
        imported.yaml.contains("\n  error_body:\n")
    };
    assert!(gap(without));
    assert!(!gap(&with));
}

/// Sendbird's messages list around a point (`message_id` with `prev_limit` and `next_limit`,
/// required): the point is no filter on the item's own id (which answered the one message, or
/// none); another field still filters. Telnyx's send variants beside `/messages` (`POST
/// /messages/schedule`, answering the message `GET /messages/{id}` reads) create in
/// `/messages`.
#[test]
fn a_list_around_a_point_does_not_filter_on_it_and_a_send_variant_creates_in_its_collection() {
    let text = r##"
openapi: 3.0.3
info: { title: around, version: "1" }
components:
  schemas:
    Message: { type: object, properties: { message_id: { type: integer }, user_id: { type: string }, message: { type: string } } }
    Messages: { type: object, properties: { messages: { type: array, items: { $ref: "#/components/schemas/Message" } } } }
    Sent: { type: object, properties: { id: { type: string }, text: { type: string } } }
paths:
  /channels/{channel_url}/messages:
    parameters: [ { name: channel_url, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: listMessages
      parameters:
        - { name: message_id, in: query, required: true, schema: { type: integer } }
        - { name: prev_limit, in: query, schema: { type: integer } }
        - { name: next_limit, in: query, schema: { type: integer } }
        - { name: user_id, in: query, schema: { type: string } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Messages" } } } } }
  /sms:
    post:
      operationId: send
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Sent" } } } } }
  /sms/schedule:
    post:
      operationId: schedule
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Sent" } } } } }
  /sms/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: get_sms
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Sent" } } } } }
"##;
    let imported =
        import_openapi(text, &ImportOptions::new("around", "around.yaml"), None).unwrap();
    let s = checked(&imported);
    let filters = tidings_codegen::resolved::list_filters(&s, op(&s, "list_messages"));
    assert_eq!(filters, [("user_id".to_owned(), "user_id".to_owned())]);
    let shape = tidings_codegen::check::resource_shape(&s, op(&s, "schedule"));
    assert_eq!(shape.kind, tidings_codegen::check::ResourceAction::Create);
    assert_eq!(
        (shape.collection.as_str(), shape.id_field.as_str()),
        ("/sms", "id")
    );
}

/// Mailtrap's errors keep their message in a field named for something else, each described
/// "Error message": `errors` (text) and `error` (read as an OAuth code before, and answered
/// with a code word). Neither was the message: errors were answered `{}` or with a code.
#[test]
fn a_text_field_described_as_the_error_message_is_the_message() {
    let text = r##"
openapi: 3.0.0
info: { title: errors, version: "1" }
components:
  schemas:
    NotFound: { type: object, properties: { error: { type: string, description: Error message } } }
    Thing: { type: object, properties: { id: { type: string } } }
paths:
  /things/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: get_thing
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Thing" } } } }
        "404": { description: gone, content: { application/json: { schema: { $ref: "#/components/schemas/NotFound" } } } }
"##;
    let imported =
        import_openapi(text, &ImportOptions::new("errors", "errors.yaml"), None).unwrap();
    let s = checked(&imported);
    let errors = s.spec.errors.as_ref().expect("an error shape");
    assert_eq!(
        errors.message.as_deref(),
        Some("error"),
        "{}",
        imported.yaml
    );
    assert_eq!(errors.code.as_deref(), Some("none"), "{}", imported.yaml);
}

/// iSendPro's document has no security scheme either: every operation carries its API key as
/// `keyid` ("Clé API"), a body field or a query parameter. It was imported as an ordinary
/// argument of each call, and the sandbox took any key.
#[test]
fn a_keyid_every_operation_carries_is_a_credential() {
    let document = r##"{
      "openapi": "3.0.0",
      "info": {"title": "SMS", "version": "1"},
      "servers": [{"url": "https://api.example.com/cgi-bin"}],
      "paths": {
        "/sms": {"post": {"operationId": "sendSms",
          "requestBody": {"content": {"application/json": {"schema": {"type": "object",
            "required": ["keyid", "num", "sms"],
            "properties": {"keyid": {"type": "string", "description": "Clé API"},
                           "num": {"type": "string"}, "sms": {"type": "string"}}}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object", "properties": {"etat": {"type": "string"}}}}}}}}},
        "/credit": {"get": {"operationId": "getCredit",
          "parameters": [{"name": "keyid", "in": "query", "required": true, "schema": {"type": "string"}},
                         {"name": "credit", "in": "query", "schema": {"type": "string"}}],
          "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object", "properties": {"credit": {"type": "number"}}}}}}}}}
      }
    }"##;
    let imported = import_openapi(document, &ImportOptions::new("sms", "sms.json"), None).unwrap();
    let s = checked(&imported);
    let pairs = vec![("keyid".to_owned(), "keyid".to_owned())];
    use tidings_codegen::check::AuthScheme;
    assert_eq!(
        s.auth[0].method,
        AuthScheme::Body {
            fields: pairs.clone()
        },
        "{}",
        imported.yaml
    );
    assert_eq!(s.auth[1].method, AuthScheme::Query { params: pairs });
    let credit = op(&s, "get_credit");
    let query: Vec<&str> = credit.query.iter().map(|q| q.wire.as_str()).collect();
    assert_eq!(query, ["credit"]);
}
