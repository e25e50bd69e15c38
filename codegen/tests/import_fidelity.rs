//! Import fidelity (issue 30, item 1), on the generator's side: what the importer makes of
//! `tests/import/fidelity_3_0.yaml` (free-form objects, `additionalProperties` beside declared
//! properties, discriminated unions by mapping and by schema name, a base schema extended by
//! `allOf` subtypes), and how `check` holds the new `additional:` key. The compiled round trip
//! of every example is `tests/tests/providers_fidelity.rs`.
#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

use tidings_codegen::check::{Service, TypeKind};
use tidings_codegen::import::{ImportOptions, Imported, import_openapi};
use tidings_codegen::resolved::Ty;

fn import_text(text: &str) -> Imported {
    import_openapi(text, &ImportOptions::new("fidelity", "doc.yaml"), None).unwrap()
}

/// Imported with `--drop-undeclared-keys`: only the declared fields.
fn import_declared_only(text: &str) -> Imported {
    let mut options = ImportOptions::new("fidelity", "doc.yaml");
    options.keep_undeclared_keys = false;
    import_openapi(text, &options, None).unwrap()
}

fn fixture() -> Imported {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import/fidelity_3_0.yaml");
    import_text(&std::fs::read_to_string(path).unwrap())
}

fn checked(yaml: &str) -> Service {
    let loaded = tidings_codegen::load::load_str("fidelity.yaml", yaml).unwrap();
    let service = tidings_codegen::check::check(&loaded).unwrap_or_else(|d| panic!("{d}\n{yaml}"));
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    syn::parse_file(&code).unwrap();
    service
}

fn kind<'a>(service: &'a Service, name: &str) -> &'a TypeKind {
    &service.types.iter().find(|t| t.name == name).unwrap().kind
}

fn field_ty(service: &Service, ty: &str, wire: &str) -> Ty {
    match kind(service, ty) {
        TypeKind::Object(fields) => fields.iter().find(|f| f.wire == wire).unwrap().ty.clone(),
        other => panic!("{ty} is {other:?}"),
    }
}

#[test]
fn free_form_objects_are_json_and_typed_maps_stay_typed() {
    let service = checked(&fixture().yaml);
    assert_eq!(field_ty(&service, "Contact", "attributes"), Ty::Json);
    assert_eq!(field_ty(&service, "Contact", "empty_properties"), Ty::Json);
    assert_eq!(field_ty(&service, "Contact", "params"), Ty::Json);
    assert_eq!(
        field_ty(&service, "Contact", "scores"),
        Ty::Map(Box::new(Ty::Integer))
    );
    // No object type without fields was made (it would send `{}`).
    for t in &service.types {
        if let TypeKind::Object(fields) = &t.kind {
            assert!(
                !fields.is_empty() || t.additional.is_some(),
                "{} is empty",
                t.name
            );
        }
    }
}

#[test]
fn declared_properties_and_additional_properties_give_fields_and_additional() {
    let service = checked(&fixture().yaml);
    let contact = service.types.iter().find(|t| t.name == "Contact").unwrap();
    assert_eq!(contact.additional, Some(Ty::String));
    let metadata = service
        .types
        .iter()
        .find(|t| t.name == "ContactMetadata")
        .unwrap();
    assert_eq!(metadata.additional, Some(Ty::Json));
    // The property called `additional` keeps its wire name under another Rust name.
    match &contact.kind {
        TypeKind::Object(fields) => {
            let f = fields.iter().find(|f| f.wire == "additional").unwrap();
            assert_eq!(f.rust, "additional_field");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn discriminators_by_mapping_by_name_and_on_a_base_schema_give_tagged_unions() {
    let imported = fixture();
    let service = checked(&imported.yaml);
    for (name, tag, variants) in [
        ("Message", "message_type", vec!["image", "text"]),
        ("Channel", "channel", vec!["Sms", "Mms"]),
        ("Pet", "petType", vec!["Cat", "Dog"]),
    ] {
        match kind(&service, name) {
            TypeKind::Union {
                tag: t,
                content: None,
                variants: vs,
            } => {
                assert_eq!(t, tag, "{name}");
                let tags: Vec<&str> = vs.iter().map(|v| v.tag.as_str()).collect();
                assert_eq!(tags, variants, "{name}");
            }
            other => panic!("{name} is {other:?}"),
        }
    }
    // Each subtype has the base's fields and its own.
    assert_eq!(field_ty(&service, "Cat", "name"), Ty::String);
    assert_eq!(field_ty(&service, "Cat", "huntingSkill"), Ty::String);
    assert!(
        !imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("inheritance")),
        "{}",
        imported.report
    );
}

#[test]
fn a_base_schema_with_an_explicit_mapping_takes_the_mapped_subtypes() {
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
paths:
  /v:
    post:
      operationId: make
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Vehicle' } } } }
      responses: { "204": { description: ok } }
components:
  schemas:
    Vehicle:
      type: object
      required: [kind]
      properties: { kind: { type: string }, wheels: { type: integer } }
      discriminator: { propertyName: kind, mapping: { car: Car, bike: '#/components/schemas/Bike' } }
    Car:
      allOf: [ { $ref: '#/components/schemas/Vehicle' }, { properties: { seats: { type: integer } } } ]
    Bike:
      allOf: [ { $ref: '#/components/schemas/Vehicle' }, { properties: { gears: { type: integer } } } ]
"##;
    let service = checked(&import_text(doc).yaml);
    match kind(&service, "Vehicle") {
        TypeKind::Union { tag, variants, .. } => {
            assert_eq!(tag, "kind");
            let pairs: Vec<(&str, Option<&str>)> = variants
                .iter()
                .map(|v| (v.tag.as_str(), v.ty.as_deref()))
                .collect();
            assert_eq!(pairs, [("bike", Some("Bike")), ("car", Some("Car"))]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(field_ty(&service, "Car", "wheels"), Ty::Integer);
}

#[test]
fn a_subtype_that_adds_nothing_to_its_base_carries_the_base_fields() {
    // Infobip's WhatsApp templates: `MARKETING` maps to a schema that is `allOf: [base]` and
    // nothing else. It was a variant without content, so a marketing template decoded to its
    // tag alone (every other field dropped). The base named in its own mapping is the same case.
    let doc = r##"
openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /templates:
    get:
      operationId: list_templates
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Template' }
              example: { category: MARKETING, id: "1", businessAccountId: 222 }
components:
  schemas:
    Template:
      type: object
      required: [id]
      properties:
        id: { type: string }
        businessAccountId: { type: integer, format: int64 }
        category: { type: string, enum: [MARKETING, UTILITY, PLAIN] }
      discriminator:
        propertyName: category
        mapping:
          MARKETING: '#/components/schemas/Marketing'
          UTILITY: '#/components/schemas/Utility'
          PLAIN: '#/components/schemas/Template'
    Marketing:
      type: object
      allOf: [ { $ref: '#/components/schemas/Template' } ]
    Utility:
      allOf: [ { $ref: '#/components/schemas/Template' }, { properties: { sub: { type: string } } } ]
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    match kind(&service, "Template") {
        TypeKind::Union { variants, .. } => {
            for v in variants {
                let ty =
                    v.ty.as_deref()
                        .unwrap_or_else(|| panic!("{} has no content", v.tag));
                assert_eq!(
                    field_ty(&service, ty, "businessAccountId"),
                    Ty::Integer,
                    "{}",
                    v.tag
                );
            }
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(field_ty(&service, "Marketing", "id"), Ty::String);
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(report.examples_lossless, 1, "{report:#?}");
    assert!(report.lossy.is_empty(), "{report:#?}");
}

#[test]
fn an_error_example_in_the_services_shape_decodes_where_the_operation_has_its_own() {
    // Infobip's voice API: a route's 400 documents its new body (`errorCode`, `description`)
    // and, beside it, an example in the older shape the rest of the API answers. The client
    // reads the service's paths when the operation's find nothing; the report counts the same.
    let doc = r##"
openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /a:
    get:
      operationId: get_a
      responses:
        "204": { description: ok }
        "400": { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Legacy' } } } }
  /b:
    get:
      operationId: get_b
      responses:
        "204": { description: ok }
        "400": { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Legacy' } } } }
  /routes:
    get:
      operationId: get_routes
      responses:
        "204": { description: ok }
        "400":
          description: bad
          content:
            application/json:
              schema: { $ref: '#/components/schemas/ApiError' }
              examples:
                new: { value: { errorCode: E400, description: Request cannot be processed. } }
                old: { value: { requestError: { serviceException: { messageId: BAD_REQUEST, text: Bad request } } } }
components:
  schemas:
    Legacy:
      type: object
      properties:
        requestError:
          type: object
          properties:
            serviceException:
              type: object
              properties: { messageId: { type: string }, text: { type: string } }
    ApiError:
      type: object
      properties: { errorCode: { type: string }, description: { type: string } }
"##;
    let imported = import_text(doc);
    checked(&imported.yaml);
    assert!(
        imported
            .yaml
            .contains("code: requestError.serviceException.messageId"),
        "{}",
        imported.yaml
    );
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(
        (report.errors_documented, report.errors_decoded),
        (2, 2),
        "{report:#?}"
    );
    // Typed from their schemas, examples or not: `/a`, `/b` and `/routes` (Textmagic's and
    // Ably's errors, none with an example, were counted nowhere).
    assert_eq!(report.errors_typed, 3, "{report:#?}");
}

#[test]
fn error_examples_without_a_schema_give_their_paths_and_a_missing_code_loses_nothing() {
    // Brevo: a 401 documented by an example alone (`{"error": "..."}`), and a 400 whose
    // example has a message and no code. Was 263 of 407 errors decoded; the first now reads
    // its text as the message, the second has no code to lose.
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
paths:
  /a:
    get:
      operationId: get_a
      responses:
        "204": { description: ok }
        "400":
          description: bad
          content:
            application/json:
              schema: { $ref: '#/components/schemas/ErrorModel' }
              example: { message: Not valid data. }
        "401":
          description: unauthenticated
          content:
            application/json:
              examples:
                failed: { value: { error: request authentication failed } }
  /b:
    get:
      operationId: get_b
      responses:
        "204": { description: ok }
        "404":
          description: missing
          content:
            application/json:
              schema: { $ref: '#/components/schemas/ErrorModel' }
              example: { code: document_not_found, message: No such thing, detail: gone }
components:
  schemas:
    ErrorModel:
      type: object
      properties: { code: { type: string }, message: { type: string } }
"##;
    let imported = import_text(doc);
    checked(&imported.yaml);
    assert!(
        imported
            .yaml
            .contains(r#""401": { code: none, message: error }"#),
        "{}",
        imported.yaml
    );
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    // The 404 example has a `detail` no path reads... but its code and message are both
    // read, so nothing is missing: decoded. All three are.
    assert_eq!(
        (report.errors_documented, report.errors_decoded),
        (3, 3),
        "{report:#?}"
    );
    // A path that finds nothing while the example has a key no path reads is not decoded.
    let other = doc.replace(
        "example: { message: Not valid data. }",
        "example: { message: Not valid data., errorCode: E400 }",
    );
    let imported = import_text(&other);
    let report =
        tidings_codegen::import::fidelity_report(&other, &imported, "fidelity.yaml").unwrap();
    assert_eq!(report.errors_decoded, 2, "{report:#?}");
    assert!(
        report.errors_not_decoded[0]
            .reason
            .contains("no code at `code`"),
        "{report:#?}"
    );
}

#[test]
fn an_error_answered_as_text_is_decoded_as_its_message() {
    // Mailgun's send: `401` with the schema `string` and the example `"Forbidden"`; the
    // runtime reads such an answer whole as the error's message.
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
paths:
  /send:
    post:
      operationId: send
      responses:
        "204": { description: ok }
        "401":
          description: unauthenticated
          content:
            application/json:
              schema: { type: string }
              example: Forbidden
"##;
    let imported = import_text(doc);
    checked(&imported.yaml);
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(
        (report.errors_documented, report.errors_decoded),
        (1, 1),
        "{report:#?}"
    );
}

#[test]
fn additional_properties_without_type_object_is_still_a_map() {
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
paths:
  /v:
    post:
      operationId: make
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                labels: { additionalProperties: { type: string } }
      responses: { "204": { description: ok } }
"##;
    let service = checked(&import_text(doc).yaml);
    assert_eq!(
        field_ty(&service, "MakeRequest", "labels"),
        Ty::Map(Box::new(Ty::String))
    );
}

fn check_errors(yaml: &str) -> String {
    let loaded = tidings_codegen::load::load_str("t.yaml", yaml).unwrap();
    tidings_codegen::check::check(&loaded)
        .unwrap_err()
        .to_string()
}

const HEAD: &str = "service: { name: t, title: T, summary: T, source: assumed, base_url: { default: \"https://api.example.com\", env: T_BASE_URL, source: assumed } }\n";

#[test]
fn check_refuses_additional_on_a_non_object_and_a_field_that_takes_its_rust_name() {
    let on_enum = format!(
        "{HEAD}types:\n  Status:\n    source: assumed\n    values: [a]\n    additional: string\n"
    );
    let errors = check_errors(&on_enum);
    assert!(
        errors.contains("t.yaml:") && errors.contains("`additional` applies to objects"),
        "{errors}"
    );
    let clash = format!(
        "{HEAD}types:\n  Contact:\n    source: assumed\n    fields:\n      additional: {{ type: string }}\n    additional: json\n"
    );
    let errors = check_errors(&clash);
    assert!(
        errors.contains("t.yaml:6:7:") && errors.contains("rename it with `rust_name`"),
        "{errors}"
    );
    let unknown = format!(
        "{HEAD}types:\n  Contact:\n    source: assumed\n    fields:\n      a: {{ type: string }}\n    additional: Nowhere\n"
    );
    assert!(check_errors(&unknown).contains("Nowhere"));
    let renamed = format!(
        "{HEAD}types:\n  Contact:\n    source: assumed\n    fields:\n      additional: {{ type: string, rust_name: additional_field }}\n    additional: map<integer>\n"
    );
    let service = checked(&renamed);
    assert_eq!(
        service.types[0].additional,
        Some(Ty::Map(Box::new(Ty::Integer)))
    );
}

#[test]
fn the_fidelity_report_counts_examples_errors_and_lists_with_pointers() {
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /notes:
    get:
      operationId: listNotes
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Note' } }
        "404":
          description: missing
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Problem' }
              examples:
                gone: { value: { code: not_found, message: No such note } }
                bare: { value: { detail: nothing } }
    post:
      operationId: createNote
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Note' }
            example: { text: hi, color: red }
      responses:
        "201":
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Note' }
              example: { id: n1, text: hi }
components:
  schemas:
    Note:
      type: object
      required: [text]
      properties: { id: { type: string }, text: { type: string } }
      example: { text: "hello", id: 3 }
    Problem:
      type: object
      properties: { code: { type: string }, message: { type: string } }
"##;
    // By default an object keeps the keys its schema does not declare: nothing is lost.
    let imported = import_text(doc);
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(report.examples_total, 3, "{report:#?}");
    assert_eq!(report.examples_lossless, 3, "{report:#?}");
    assert!(report.lossy.is_empty(), "{report:#?}");
    // With `--drop-undeclared-keys`, the request example's undeclared key is reported lost.
    let imported = import_declared_only(doc);
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(report.operations_in_document, 2);
    assert_eq!(report.examples_total, 3, "{report:#?}");
    // The schema's own example sends `id` as a number: `id` is typed json (see below), so
    // only the request example, with a key the schema does not declare, loses something.
    assert_eq!(report.examples_lossless, 2, "{report:#?}");
    let reasons: Vec<(&str, &str)> = report
        .lossy
        .iter()
        .map(|l| (l.pointer.as_str(), l.reason.as_str()))
        .collect();
    assert!(
        reasons.contains(&(
            "#/paths/~1notes/post/requestBody/content/application~1json/example",
            "/color: \"red\" is lost"
        )),
        "{reasons:?}"
    );
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert_eq!(report.errors_documented, 2);
    assert_eq!(report.errors_decoded, 1, "{report:#?}");
    assert!(
        report.errors_not_decoded[0]
            .pointer
            .ends_with("/bare/value")
    );
    assert_eq!(report.lists_paged, 0);
    assert!(report.lists_unpaged[0].reason.contains("bare array"));
    let json = serde_json::to_value(&report).unwrap();
    for key in [
        "operations_in_document",
        "operations_imported",
        "operations_skipped",
        "examples_total",
        "examples_lossless",
        "lossy",
        "errors_documented",
        "errors_decoded",
        "lists_paged",
        "lists_unpaged",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
}

#[test]
fn a_field_whose_examples_send_another_json_type_is_typed_json_and_reported() {
    // Twilio's `price`: `type: number` in the schema, `"-0.00750"` in every example (and on
    // the wire); typed as the schema says, every real answer would fail to decode.
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /calls/{sid}:
    get:
      operationId: fetchCall
      parameters: [{ name: sid, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Call' }
              example: { sid: CA1, price: "-0.00750", duration: 3, tags: ["a"] }
components:
  schemas:
    Call:
      type: object
      properties:
        sid: { type: string }
        price: { type: number, nullable: true, minimum: -100 }
        duration: { type: integer }
        tags: { type: array, items: { type: string } }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    assert_eq!(field_ty(&service, "Call", "price"), Ty::Json);
    assert_eq!(field_ty(&service, "Call", "duration"), Ty::Integer);
    assert!(
        imported.report.approximated.iter().any(|f| f.pointer
            == "#/paths/~1calls~1{sid}/get/responses/200/content/application~1json/example"
            && f.reason.contains("`price` of `Call`")),
        "{}",
        imported.report
    );
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!((report.examples_lossless, report.examples_total), (1, 1));
}

#[test]
fn a_3_1_nullable_enum_is_a_nullable_enum_and_its_null_example_is_lossless() {
    // Resend's `DomainClaim.blocked_reason`: `type: [string, "null"]`, `null` among the enum's
    // values and `example: null`. Was typed `json` (the enum dropped for its `null` member,
    // then the example read as "another JSON type").
    let doc = r##"
openapi: 3.1.0
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /claims/{id}:
    get:
      operationId: getClaim
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Claim' }
components:
  schemas:
    Claim:
      type: object
      required: [id, blocked_reason]
      properties:
        id: { type: string, example: c_1 }
        blocked_reason:
          type: [string, "null"]
          enum: [grace_period, recent_owner_activity, null]
          example: null
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    let Ty::Named(name) = field_ty(&service, "Claim", "blocked_reason") else {
        panic!("{}", imported.yaml)
    };
    let TypeKind::Enum(values) = kind(&service, &name) else {
        panic!("{name}: {}", imported.yaml)
    };
    let wires: Vec<&str> = values.iter().map(|v| v.wire.as_str()).collect();
    assert_eq!(wires, ["grace_period", "recent_owner_activity"]);
    let TypeKind::Object(fields) = kind(&service, "Claim") else {
        unreachable!()
    };
    let blocked = fields.iter().find(|f| f.wire == "blocked_reason").unwrap();
    assert!(blocked.required && blocked.nullable);
    assert!(
        !imported
            .report
            .approximated
            .iter()
            .any(|f| f.pointer.contains("blocked_reason")),
        "{}",
        imported.report
    );
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(
        (report.examples_lossless, report.examples_total),
        (2, 2),
        "{report:?}"
    );
}

#[test]
fn a_required_error_field_the_error_examples_leave_out_is_optional() {
    // Brevo's `errorModel` requires `code` and `message`; 92 of its error examples send only
    // `{"message": "..."}`. With `code` required, the typed error body of those answers did
    // not decode at all.
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /things:
    post:
      operationId: createThing
      responses:
        "201": { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: integer } } } } } }
        "400":
          description: bad
          content:
            application/json:
              schema: { $ref: '#/components/schemas/ErrorModel' }
              example: { message: Not valid data. }
components:
  schemas:
    ErrorModel:
      type: object
      required: [code, message]
      properties:
        code: { type: string }
        message: { type: string }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    let TypeKind::Object(fields) = kind(&service, "ErrorModel") else {
        panic!("{}", imported.yaml)
    };
    let required = |wire: &str| fields.iter().find(|f| f.wire == wire).unwrap().required;
    assert!(!required("code"), "{}", imported.yaml);
    assert!(required("message"));
    assert!(
        imported.report.approximated.iter().any(|f| f
            .pointer
            .ends_with("/responses/400/content/application~1json/example")
            && f.reason.contains("leaves out `code` of `ErrorModel`")),
        "{}",
        imported.report
    );
}

#[test]
fn mailguns_media_type_files_and_json_text_query_parameters_are_imported() {
    // Mailgun's document: `POST /v3/{domain}/whitelists` takes `application/form-data` (was
    // skipped), and the send's `attachment` is an array of `format: binary` strings (was
    // `list<string>`: no file could be attached).
    let doc = r##"
openapi: 3.1.0
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /messages:
    post:
      operationId: sendMessage
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [to]
              properties:
                to: { type: array, items: { type: string } }
                attachment: { type: array, items: { type: string, format: binary } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
  /lists/{address}/members.json:
    post:
      operationId: addMembers
      parameters:
        - { name: address, in: path, required: true, schema: { type: string } }
        - name: members
          in: query
          required: true
          schema:
            oneOf:
              - { type: string }
              - { type: array, items: { type: object, properties: { address: { type: string } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { message: { type: string } } } } } }
  /whitelists:
    post:
      operationId: allow
      requestBody:
        required: true
        content:
          application/form-data:
            schema:
              type: object
              properties:
                address: { type: string }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { message: { type: string } } } } } }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    let send = service
        .operations
        .iter()
        .find(|o| o.name == "send_message")
        .unwrap();
    let Some(Ty::Named(body)) = &send.body else {
        panic!("{}", imported.yaml)
    };
    assert_eq!(
        field_ty(&service, body, "attachment"),
        Ty::List(Box::new(Ty::Bytes))
    );
    assert_eq!(
        field_ty(&service, body, "to"),
        Ty::List(Box::new(Ty::String))
    );
    // A required query parameter that is text or a structure: text (was: operation skipped).
    let members = service.operations.iter().find(|o| o.name == "add_members");
    let members = members.unwrap_or_else(|| panic!("imported: {}", imported.report));
    assert_eq!(members.query[0].ty, Ty::String);
    let allow = service.operations.iter().find(|o| o.name == "allow");
    assert!(
        allow.is_some(),
        "imported, not skipped: {}",
        imported.report
    );
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("`application/form-data`")),
        "{}",
        imported.report
    );
}

/// A document whose one operation answers 400 with component `Problem`, written `error_schema`.
fn doc_with_error(error_schema: &str) -> String {
    format!(
        r##"
openapi: 3.0.3
info: {{ title: T, version: "1" }}
servers: [{{ url: https://api.example.com }}]
paths:
  /things:
    get:
      operationId: listThings
      responses:
        "200": {{ description: ok, content: {{ application/json: {{ schema: {{ type: object, properties: {{ n: {{ type: integer }} }} }} }} }} }}
        "400":
          description: bad
          content:
            application/json:
              schema: {{ $ref: '#/components/schemas/Problem' }}
components:
  schemas:
    Problem: {error_schema}
"##
    )
}

#[test]
fn error_paths_are_inferred_from_problem_details_and_oauth_errors_and_listed() {
    let doc = doc_with_error;
    let problem = doc(
        "{ type: object, properties: { type: { type: string }, title: { type: string }, status: { type: integer }, detail: { type: string } } }",
    );
    let imported = import_text(&problem);
    let service = checked(&imported.yaml);
    let errors = service.errors.as_ref().unwrap();
    assert_eq!(errors.code.as_deref(), Some("type"));
    assert_eq!(errors.message.as_deref(), Some("detail"));
    let report = tidings_codegen::import::fidelity_report(&problem, &imported, "f.yaml").unwrap();
    assert!(
        report
            .inferred
            .iter()
            .any(|l| l.pointer == "#/components/schemas/Problem"
                && l.reason == "error code read at `type` (by RFC 9457 problem details)"),
        "{:?}",
        report.inferred
    );
    let oauth = doc(
        "{ type: object, properties: { error: { type: string }, error_description: { type: string } } }",
    );
    let service = checked(&import_text(&oauth).yaml);
    let errors = service.errors.as_ref().unwrap();
    assert_eq!(errors.code.as_deref(), Some("error"));
    assert_eq!(errors.message.as_deref(), Some("error_description"));
    // Vonage's Numbers API.
    let vonage = doc(
        "{ type: object, properties: { error-code: { type: string }, error-code-label: { type: string } } }",
    );
    let service = checked(&import_text(&vonage).yaml);
    let errors = service.errors.as_ref().unwrap();
    assert_eq!(errors.code.as_deref(), Some("error-code"));
    assert_eq!(errors.message.as_deref(), Some("error-code-label"));
}

#[test]
fn a_nested_error_object_is_not_taken_for_the_code() {
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /things:
    get:
      operationId: listThings
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { n: { type: integer } } } } } }
        "400":
          description: bad
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Envelope' }
components:
  schemas:
    Envelope:
      type: object
      properties:
        error:
          type: object
          properties: { code: { type: integer }, message: { type: string } }
"##;
    let service = checked(&import_text(doc).yaml);
    let errors = service.errors.as_ref().unwrap();
    assert_eq!(errors.code.as_deref(), Some("error.code"));
    assert_eq!(errors.message.as_deref(), Some("error.message"));
}

#[test]
fn error_code_and_message_are_found_deep_in_an_envelope_and_under_weaker_names() {
    // Infobip's errors: `{errorCode, description, ...}` on newer endpoints, and
    // `{requestError: {serviceException: {messageId, text}}}` on older ones.
    let api_error = doc_with_error(
        "{ type: object, properties: { errorCode: { type: string }, description: { type: string }, action: { type: string } } }",
    );
    let service = checked(&import_text(&api_error).yaml);
    let errors = service.errors.as_ref().unwrap();
    assert_eq!(errors.code.as_deref(), Some("errorCode"));
    assert_eq!(errors.message.as_deref(), Some("description"));

    let envelope = doc_with_error(
        "{ type: object, properties: { requestError: { type: object, properties: { serviceException: { type: object, properties: { messageId: { type: string }, text: { type: string }, validationErrors: { type: object, additionalProperties: { type: array, items: { type: string } } } } } } } } }",
    );
    let service = checked(&import_text(&envelope).yaml);
    let errors = service.errors.as_ref().unwrap();
    assert_eq!(
        errors.code.as_deref(),
        Some("requestError.serviceException.messageId")
    );
    assert_eq!(
        errors.message.as_deref(),
        Some("requestError.serviceException.text")
    );

    // A strong name deeper wins over a weak one nearer: `type` is a code only when nothing
    // is named like one.
    let typed = doc_with_error(
        "{ type: object, properties: { type: { type: string }, error: { type: object, properties: { code: { type: string }, message: { type: string } } } } }",
    );
    let service = checked(&import_text(&typed).yaml);
    let errors = service.errors.as_ref().unwrap();
    assert_eq!(errors.code.as_deref(), Some("error.code"));
    assert_eq!(errors.message.as_deref(), Some("error.message"));
}

#[test]
fn what_is_typed_loosely_is_a_not_shown_gap_with_its_pointers() {
    let imported = fixture();
    let loaded = tidings_codegen::load::load_str("fidelity.yaml", &imported.yaml).unwrap();
    let gap = &loaded.spec.gaps["loosely_typed"];
    assert_eq!(gap.source, Some(tidings_codegen::model::Source::NotShown));
    for pointer in [
        "#/components/schemas/Envelope/properties/mixed/items",
        "#/components/schemas/Reply/allOf/1",
    ] {
        assert!(gap.text.contains(pointer), "{}", gap.text);
    }
    // A type that holds itself (`Tree.parent`) is typed, its field boxed: not loose.
    assert!(
        !gap.text.contains("#/components/schemas/Tree"),
        "{}",
        gap.text
    );
    let service = checked(&imported.yaml);
    let tree = service.types.iter().find(|t| t.name == "Tree").unwrap();
    let tidings_codegen::check::TypeKind::Object(fields) = &tree.kind else {
        panic!("Tree is not an object")
    };
    let parent = fields.iter().find(|f| f.wire == "parent").unwrap();
    assert!(parent.boxed && !fields.iter().any(|f| f.wire == "children" && f.boxed));
}

#[test]
fn a_get_with_a_form_body_keeps_its_operation_without_the_body() {
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /search:
    get:
      operationId: search
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, properties: { q: { type: string } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { n: { type: integer } } } } } }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    assert_eq!(
        imported.report.operations_imported, 1,
        "{}",
        imported.report
    );
    let op = service
        .operations
        .iter()
        .find(|o| o.name == "search")
        .unwrap();
    assert!(op.body.is_none());
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("GET request body left out")),
        "{}",
        imported.report
    );
}

#[test]
fn a_lossy_example_that_breaks_its_own_schema_is_told_apart_from_a_loss() {
    // `Stats` is an object, its example an array: no faithful type decodes it, and the report
    // says the document disagrees with itself. `Note`'s example sends a key its schema does not
    // declare: with `--drop-undeclared-keys`, a real loss, and valid.
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /stats:
    get:
      operationId: getStats
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Stats' }
              example: [{ sent: 3 }]
  /notes:
    post:
      operationId: createNote
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Note' }
              example: { text: hi, pinned: true }
components:
  schemas:
    Stats:
      type: object
      properties: { sent: { type: integer } }
    Note:
      type: object
      properties: { text: { type: string } }
"##;
    let imported = import_declared_only(doc);
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(report.examples_total, 2, "{report:?}");
    assert_eq!(report.examples_lossless, 0, "{report:?}");
    assert_eq!(report.examples_invalid, 1, "{report:?}");
    let invalid = report
        .lossy
        .iter()
        .find(|l| l.pointer.contains("stats"))
        .unwrap();
    assert!(
        invalid
            .reason
            .contains("disagrees with its own schema: `/` is an array, its schema says `object`"),
        "{invalid:?}"
    );
    let lost = report
        .lossy
        .iter()
        .find(|l| l.pointer.contains("notes"))
        .unwrap();
    assert!(lost.reason.contains("/pinned: true is lost"), "{lost:?}");
    assert!(!lost.reason.contains("disagrees"), "{lost:?}");
}

#[test]
fn a_required_field_the_document_s_own_example_leaves_out_is_optional_and_reported() {
    // SendGrid's segment samples leave out `id`, which their schema requires: typed as the
    // schema says, every answer like the document's own would fail to decode.
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /contacts:
    post:
      operationId: createContact
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Contact' }
            example: { name: Ann }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Contact' }
              example: { email: ann@example.com, name: Ann }
components:
  schemas:
    Contact:
      type: object
      required: [email, name]
      properties: { email: { type: string }, name: { type: string } }
"##;
    let imported = import_text(doc);
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(report.examples_total, 2, "{report:?}");
    assert_eq!(report.examples_lossless, 2, "{report:?}");
    let service = checked(&imported.yaml);
    let contact = service.types.iter().find(|t| t.name == "Contact").unwrap();
    let TypeKind::Object(fields) = &contact.kind else {
        panic!("{contact:?}")
    };
    let required: Vec<(&str, bool)> = fields
        .iter()
        .map(|f| (f.wire.as_str(), f.required))
        .collect();
    // `name`, which every example sends, stays required.
    assert_eq!(required, [("email", false), ("name", true)]);
    assert!(
        imported.report.approximated.iter().any(|f| f.pointer
            == "#/paths/~1contacts/post/requestBody/content/application~1json/example"
            && f.reason
                == "this example leaves out `email` of `Contact`, which its schema requires; imported as optional"),
        "{}",
        imported.report
    );
}

#[test]
fn an_error_schema_written_in_place_is_the_operation_s_own_error_body() {
    // SendGrid's IP pools answer a 404 with an inline `{"error": "<text>"}`, not the
    // service's `errors[]` component: the text is the message.
    let doc = r##"
swagger: "2.0"
info: { title: T, version: "1" }
host: api.example.com
paths:
  /pools/{name}:
    delete:
      operationId: deletePool
      parameters: [{ name: name, in: path, required: true, type: string }]
      responses:
        "204": { description: gone }
        "404":
          description: missing
          schema:
            type: object
            properties: { error: { type: string } }
          examples:
            application/json: { error: "Unable to locate specified IPs Pool" }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    let op = service
        .operations
        .iter()
        .find(|o| o.name == "delete_pool")
        .unwrap();
    let body = &op.error_bodies[0];
    assert_eq!(body.statuses, (404, 404));
    assert_eq!(body.code, None);
    assert_eq!(body.message.as_deref(), Some("error"));
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(
        (report.errors_documented, report.errors_decoded),
        (1, 1),
        "{report:?}"
    );
    // The exported document says that answer in place, with its own schema and fields; the
    // others still refer to the service's error response.
    let exported = tidings_codegen::export::openapi::document(&service);
    let responses = &exported["paths"]["/pools/{name}"]["delete"]["responses"];
    let own = &responses["404"];
    assert!(own.get("$ref").is_none(), "{own}");
    let schema = own["content"]["application/json"]["schema"]["$ref"]
        .as_str()
        .unwrap();
    let name = schema.rsplit('/').next().unwrap();
    let component = &exported["components"]["schemas"][name];
    assert_eq!(
        component["properties"]["error"]["anyOf"][0]["type"], "string",
        "{component}"
    );
    assert_eq!(
        own["x-error-fields"],
        serde_json::json!({ "code": null, "message": "error" })
    );
    assert_eq!(
        responses["default"]["$ref"],
        "#/components/responses/ErrorDefault"
    );
}

#[test]
fn a_field_s_own_examples_are_counted_and_followed() {
    // Vonage shows values on the properties themselves: each is an example of its field's
    // type, round-tripped and counted; one of another JSON type retypes the field as json.
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /sms:
    post:
      operationId: sendSms
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [to]
              properties:
                to: { type: string, example: "447700900000" }
                ttl: { type: integer, example: "90000" }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Sent' }
components:
  schemas:
    Sent:
      type: object
      allOf:
        - properties: { id: { type: string, example: aaaa-bbbb } }
"##;
    let imported = import_text(doc);
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(report.examples_total, 3, "{report:#?}");
    assert_eq!(report.examples_lossless, 3, "{report:#?}");
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.pointer.ends_with("/properties/ttl/example")
                && f.reason.contains("sends `ttl`")
                && f.reason.contains("typed as json")),
        "{}",
        imported.report
    );
}

#[test]
fn a_string_enum_on_an_array_is_its_items_and_on_an_object_names_a_maps_keys() {
    // Infobip's documents write the items' enum on the array too (`enabledSSLProtocols`), and a
    // map keyed by day names as an object with an enum of the names and the values' properties
    // (`workWeek`). Both were typed as a string enum, and their examples did not decode.
    let doc = r##"
openapi: 3.0.1
info: { title: T, version: "1" }
paths:
  /profiles:
    put:
      operationId: set_profile
      requestBody:
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Profile" }
            example:
              protocols: [TLSv1.2, TLSv1.3]
              week: { MONDAY: { start: 0, end: 1440 }, SUNDAY: { start: 60, end: 120 } }
      responses: { "204": { description: ok } }
components:
  schemas:
    Profile:
      type: object
      properties:
        protocols:
          type: array
          enum: [TLSv1.2, TLSv1.3]
          items: { type: string }
        week:
          type: object
          enum: [MONDAY, SUNDAY]
          properties:
            start: { type: integer }
            end: { type: integer }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    match field_ty(&service, "Profile", "protocols") {
        Ty::List(item) => match *item {
            Ty::Named(name) => assert!(matches!(kind(&service, &name), TypeKind::Enum(_))),
            other => panic!("items are {other:?}"),
        },
        other => panic!("protocols is {other:?}"),
    }
    match field_ty(&service, "Profile", "week") {
        Ty::Map(value) => match *value {
            Ty::Named(name) => {
                assert_eq!(field_ty(&service, &name, "start"), Ty::Integer);
            }
            other => panic!("values are {other:?}"),
        },
        other => panic!("week is {other:?}"),
    }
    for (field, says) in [
        ("protocols", "its items'"),
        ("week", "a map keyed by those names"),
    ] {
        assert!(
            imported.report.approximated.iter().any(|f| f.pointer
                == format!("#/components/schemas/Profile/properties/{field}")
                && f.reason.contains(says)),
            "{field}: {}",
            imported.report
        );
    }
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(
        (report.examples_lossless, report.examples_total),
        (1, 1),
        "{report:#?}"
    );
}

#[test]
fn an_untagged_object_is_read_as_the_variant_naming_its_keys_whatever_the_order() {
    // Twilio's A2P campaign answer: `oneOf: [v1, v2]`, v2 = v1's fields + `privacy_policy_url`.
    // Tried in the order written, v1 took v2's payloads and dropped the URL; moving v2 first
    // then read Vonage's verify success (`{request_id, status}`) as the error type that adds
    // `error_text`. The order stays the document's; the client reads an object as the variant
    // naming most of its keys.
    let doc = r##"
openapi: 3.0.1
info: { title: T, version: "1" }
paths:
  /campaigns/{sid}:
    get:
      operationId: get_campaign
      parameters: [{ name: sid, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                oneOf: [{ $ref: "#/components/schemas/V1" }, { $ref: "#/components/schemas/Other" }, { $ref: "#/components/schemas/V2" }]
              examples:
                v2: { value: { sid: QE1, privacy_policy_url: "https://example.com/privacy" } }
                v1: { value: { sid: QE2 } }
components:
  schemas:
    V1:
      type: object
      additionalProperties: false
      properties: { sid: { type: string } }
    Other:
      type: object
      additionalProperties: false
      properties: { code: { type: integer } }
      required: [code]
    V2:
      type: object
      properties:
        sid: { type: string }
        privacy_policy_url: { type: string }
      required: [privacy_policy_url]
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    let union = service
        .types
        .iter()
        .find(|t| matches!(t.kind, TypeKind::Untagged { .. }))
        .unwrap();
    let TypeKind::Untagged { variants } = &union.kind else {
        unreachable!()
    };
    let order: Vec<&str> = variants.iter().filter_map(|v| v.ty.as_deref()).collect();
    assert_eq!(order, ["V1", "Other", "V2"]);
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("read as the variant that fits best")),
        "{}",
        imported.report
    );
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(
        (report.examples_lossless, report.examples_total),
        (2, 2),
        "{report:#?}"
    );
}

#[test]
fn an_error_answer_of_several_shapes_reads_the_other_shape_then_the_services() {
    // Infobip's CAMARA API: a 403 is `oneOf` its own `{status, code, message}` and the
    // platform's `requestError.serviceException`. Only the platform's was read (9 examples
    // lost their code and message across the family).
    let doc = r##"
openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /a:
    get:
      operationId: get_a
      responses:
        "204": { description: ok }
        "400": { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Platform' } } } }
  /swap:
    post:
      operationId: check_swap
      responses:
        "204": { description: ok }
        "403":
          description: denied
          content:
            application/json:
              schema:
                oneOf: [{ $ref: '#/components/schemas/Camara' }, { $ref: '#/components/schemas/Platform' }]
              examples:
                camara: { value: { status: 403, code: PERMISSION_DENIED, message: Not allowed } }
                platform: { value: { requestError: { serviceException: { messageId: UNAUTHORIZED, text: Invalid login } } } }
components:
  schemas:
    Platform:
      type: object
      properties:
        requestError:
          type: object
          properties:
            serviceException:
              type: object
              properties: { messageId: { type: string }, text: { type: string } }
    Camara:
      type: object
      properties: { status: { type: integer }, code: { type: string }, message: { type: string } }
"##;
    let imported = import_text(doc);
    checked(&imported.yaml);
    // Its own body, with the example it is documented with.
    assert!(
        imported
            .yaml
            .contains("\"403\":\n        type: Camara\n        code: code\n        message: message\n        example: { code: PERMISSION_DENIED"),
        "{}",
        imported.yaml
    );
    assert!(
        imported.report.inferred.iter().any(|f| f
            .reason
            .contains("this error answer is one of several shapes")
            && f.detail.as_deref() == Some("`Camara`, then the service's `Platform`")),
        "{}",
        imported.report
    );
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(
        (report.errors_documented, report.errors_decoded),
        (2, 2),
        "{report:#?}"
    );
}

#[test]
fn an_error_answer_of_three_shapes_is_a_list_of_the_operation_s_own_tried_in_order() {
    // Infobip's Moments: a 400 is `oneOf` an RFC 9457 problem, its own `{errorCode,
    // errorMessage}` and the platform's `requestError.serviceException`. One own body held
    // only the first shape: the second's examples lost their code and message.
    let doc = r##"
openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /a:
    get:
      operationId: get_a
      responses:
        "204": { description: ok }
        "400": { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Platform' } } } }
  /flows:
    post:
      operationId: create_flow
      responses:
        "204": { description: ok }
        "400":
          description: bad
          headers:
            X-Error-Id: { schema: { type: string } }
          content:
            application/json:
              schema:
                oneOf:
                  - { $ref: '#/components/schemas/Problem' }
                  - { $ref: '#/components/schemas/MomentsError' }
                  - { $ref: '#/components/schemas/Platform' }
              examples:
                problem: { value: { type: "https://example.com/bad", title: Bad flow, status: 400 } }
                moments: { value: { errorCode: 10001, errorMessage: Flow is empty } }
                platform: { value: { requestError: { serviceException: { messageId: BAD_REQUEST, text: Bad request } } } }
components:
  schemas:
    Platform:
      type: object
      properties:
        requestError:
          type: object
          properties:
            serviceException:
              type: object
              properties: { messageId: { type: string }, text: { type: string } }
    Problem:
      type: object
      properties: { type: { type: string }, title: { type: string }, status: { type: integer } }
    MomentsError:
      type: object
      properties: { errorCode: { type: integer }, errorMessage: { type: string } }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    let flow = service
        .operations
        .iter()
        .find(|o| o.name == "create_flow")
        .unwrap();
    let shapes: Vec<(Option<&str>, Option<&str>, usize)> = flow
        .error_bodies
        .iter()
        .map(|b| (b.code.as_deref(), b.message.as_deref(), b.shape))
        .collect();
    assert_eq!(
        shapes,
        [
            (Some("type"), Some("title"), 0),
            (Some("errorCode"), Some("errorMessage"), 1)
        ],
        "{}",
        imported.yaml
    );
    assert_eq!(flow.error_bodies[0].headers, ["X-Error-Id"]);
    assert!(
        imported.report.inferred.iter().any(|f| f.detail.as_deref()
            == Some("`MomentsError`, then `Problem`, then the service's `Platform`")
            || f.detail.as_deref()
                == Some("`Problem`, then `MomentsError`, then the service's `Platform`")),
        "{}",
        imported.report
    );
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(
        (report.errors_documented, report.errors_decoded),
        (3, 3),
        "{report:#?}"
    );
    // The generated operation carries both shapes, in order, for the runtime to try.
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    let compact: String = code.split_whitespace().collect();
    let first = compact.find("(\"title\")").expect("the problem's paths");
    let second = compact
        .find("(\"errorMessage\")")
        .expect("the Moments paths");
    assert!(first < second, "{code}");
    // Exported: one answer, `oneOf` the two shapes; imported again, the same two.
    let exported = tidings_codegen::export::openapi::document(&service);
    let answer = &exported["paths"]["/flows"]["post"]["responses"]["400"];
    assert_eq!(
        answer["content"]["application/json"]["schema"]["oneOf"]
            .as_array()
            .map(Vec::len),
        Some(2),
        "{answer:#}"
    );
    assert_eq!(answer["x-error-fields"][1]["code"], "errorCode");
    let again = tidings_codegen::import::import_openapi(
        &serde_json::to_string(&exported).unwrap(),
        &tidings_codegen::import::ImportOptions::new("again", "again.json"),
        None,
    )
    .unwrap();
    let again = checked(&again.yaml);
    let flow_again = again
        .operations
        .iter()
        .find(|o| o.name == "create_flow")
        .unwrap();
    let paths =
        |o: &tidings_codegen::check::OperationInfo| -> Vec<(Option<String>, Option<String>)> {
            o.error_bodies
                .iter()
                .map(|b| (b.code.clone(), b.message.clone()))
                .collect()
        };
    assert_eq!(paths(flow_again), paths(flow));
}

#[test]
fn an_error_object_that_names_no_fields_is_read_where_its_examples_keep_code_and_message() {
    // Infobip MMS: a 400 of `{type: object}` whose example answers `errorMessage`. The
    // service's `requestError` paths found nothing in it.
    let doc = r##"
openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /a:
    get:
      operationId: get_a
      responses:
        "204": { description: ok }
        "400": { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Platform' } } } }
  /content:
    post:
      operationId: upload_content
      responses:
        "204": { description: ok }
        "400":
          description: bad
          content:
            application/json:
              schema: { type: object }
              examples:
                missing: { value: { bulkId: "", messages: [], errorMessage: "Required header 'X-Content-Id' is not present" } }
components:
  schemas:
    Platform:
      type: object
      properties:
        requestError:
          type: object
          properties:
            serviceException:
              type: object
              properties: { messageId: { type: string }, text: { type: string } }
"##;
    let imported = import_text(doc);
    checked(&imported.yaml);
    assert!(
        imported
            .yaml
            .contains("\"400\": { code: none, message: errorMessage"),
        "{}",
        imported.yaml
    );
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(
        (report.errors_documented, report.errors_decoded),
        (1, 1),
        "{report:#?}"
    );
}

#[test]
fn check_reads_an_error_body_list_and_places_its_mistakes() {
    let spec = |bodies: &str| {
        format!(
            r#"
service: {{ name: shapes, title: Shapes, summary: Shapes, source: assumed, base_url: {{ default: "https://api.example.com", env: SHAPES_URL, source: assumed }} }}
types:
  Problem:
    source: assumed
    fields: {{ type: {{ type: string }}, title: {{ type: string }} }}
  Own:
    source: assumed
    fields: {{ errorCode: {{ type: integer }}, errorMessage: {{ type: string }} }}
operations:
  send:
    method: POST
    path: /send
    error_bodies:
      "400": {bodies}
    source: assumed
"#
        )
    };
    let fine = spec(
        "[{ type: Problem, code: type, message: title }, { type: Own, code: errorCode, message: errorMessage }]",
    );
    let loaded = tidings_codegen::load::load_str("shapes.yaml", &fine).unwrap();
    tidings_codegen::check::check(&loaded).unwrap_or_else(|d| panic!("{d}"));
    for (bodies, says) in [
        (
            "[{ type: Problem, code: type, message: title }, { type: Own, code: nope, message: errorMessage }]",
            // Located at the second shape's `code` value.
            "shapes.yaml:15:81: error: `nope` is not a path in the error type: `Own`",
        ),
        ("[]", "0 error bodies for `400`"),
        ("[{ type: Problem, code: type, mesage: title }]", "mesage"),
    ] {
        let text = spec(bodies);
        let errors = match tidings_codegen::load::load_str("shapes.yaml", &text) {
            Ok(loaded) => tidings_codegen::check::check(&loaded)
                .unwrap_err()
                .to_string(),
            Err(e) => e.to_string(),
        };
        assert!(errors.contains(says), "{bodies}: {errors}");
    }
}

#[test]
fn error_paths_come_from_the_object_examples_and_error_details_is_a_message() {
    // Infobip People: one of a 400's examples is text (its JSON broken), which kept the paths
    // of the others (`errorCode`, `message`) from being read. Infobip Signals answers
    // `{"errorDetails": "..."}`.
    let doc = r##"
openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /lists/{name}:
    patch:
      operationId: update_list
      parameters: [{ name: name, in: path, required: true, schema: { type: string } }]
      responses:
        "204": { description: ok }
        "400":
          description: bad
          content:
            application/json:
              examples:
                missing: { value: { errorCode: 400116, message: "Missing parameter: type" } }
                broken: { value: "{\"errorCode\": 429002, \"message\": \"Ids should be presented\"}" }
  /check:
    get:
      operationId: check
      responses:
        "204": { description: ok }
        "400":
          description: bad
          content:
            application/json:
              schema: { $ref: '#/components/schemas/ErrorResponse' }
              examples:
                invalid: { value: { errorDetails: "Invalid MSISDNs: abc" } }
components:
  schemas:
    ErrorResponse:
      type: object
      properties: { errorDetails: { type: string } }
"##;
    let imported = import_text(doc);
    checked(&imported.yaml);
    assert!(
        imported.yaml.contains("code: errorCode") && imported.yaml.contains("message: message"),
        "{}",
        imported.yaml
    );
    assert!(
        imported.yaml.contains("message: errorDetails"),
        "{}",
        imported.yaml
    );
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(
        (report.errors_documented, report.errors_decoded),
        (3, 3),
        "{report:#?}"
    );
}

/// Mailtrap's contact `created_at` is `{type: integer, format: timestampMillis}` (example
/// `1742820600230`): imported as an integer, the format dropped unreported, a client took it
/// for seconds (or the sandbox made it up so). A number whose format names a Unix time is a
/// `datetime` sent as that number; a parameter so written stays the number it is sent as.
#[test]
fn a_number_whose_format_names_a_unix_time_is_a_time_sent_as_that_number() {
    let doc = r##"{"openapi":"3.0.1","info":{"title":"T","version":"1"},
"paths":{"/contacts":{"get":{"operationId":"listContacts",
"parameters":[{"name":"since","in":"query","schema":{"type":"integer","format":"unix-time"}}],
"responses":{"200":{"description":"ok","content":{"application/json":{
"schema":{"$ref":"#/components/schemas/Contact"},
"example":{"id":"a","created_at":1742820600230,"seen":1742820600}}}}}}}},
"components":{"schemas":{"Contact":{"type":"object","properties":{"id":{"type":"string"},
"created_at":{"type":"integer","format":"timestampMillis"},
"seen":{"type":"integer","format":"unix-time"}}}}}}"##;
    let imported = import_text(doc);
    assert!(
        imported
            .yaml
            .contains("created_at: { type: datetime, format: unix_ms }"),
        "{}",
        imported.yaml
    );
    assert!(
        imported
            .yaml
            .contains("seen: { type: datetime, format: unix }"),
        "{}",
        imported.yaml
    );
    assert!(
        imported.yaml.contains("since: { type: integer }"),
        "{}",
        imported.yaml
    );
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert_eq!(report.examples_lossless, 1, "{report:#?}");
    checked(&imported.yaml);
}

#[test]
fn a_part_skipped_inside_an_operation_is_in_the_json_report() {
    // A callback without a body (no payload to type) is skipped: told only in the text
    // report, the JSON report said nothing was skipped. (WhatsApp's, with a body, is its
    // webhook now.)
    let doc = r##"
openapi: 3.0.0
info: { title: T, version: "1" }
paths:
  /settings:
    patch:
      operationId: update_settings
      requestBody: { content: { application/json: { schema: { type: object, properties: { url: { type: string } } } } } }
      responses: { "200": { description: ok } }
      callbacks:
        incoming:
          "{$request.body#/url}":
            post:
              responses: { "200": { description: ok } }
"##;
    let imported = import_text(doc);
    let report = tidings_codegen::import::fidelity_report(doc, &imported, "fidelity.yaml").unwrap();
    assert!(report.operations_skipped.is_empty(), "{report:#?}");
    assert!(
        report
            .parts_skipped
            .iter()
            .any(|p| p.pointer.contains("/callbacks/incoming/")
                && p.reason.contains("webhook without a JSON or form body")),
        "{report:#?}"
    );
}

/// Ably's message `timestamp`: `{type: integer, format: int64}`, "as milliseconds since the
/// epoch". Imported as a count, a client could not read it as a time, and the sandbox never
/// stamped it. A number whose description says it counts from the epoch is a Unix time.
#[test]
fn a_number_described_as_counting_from_the_epoch_is_a_unix_time() {
    let doc = r##"{"openapi":"3.0.1","info":{"title":"T","version":"1"},
"paths":{"/messages":{"get":{"operationId":"listMessages",
"responses":{"200":{"description":"ok","content":{"application/json":{
"schema":{"$ref":"#/components/schemas/Message"}}}}}}}},
"components":{"schemas":{"Message":{"type":"object","properties":{"id":{"type":"string"},
"timestamp":{"type":"integer","format":"int64","description":"When it was received, as milliseconds since the epoch."},
"sent":{"type":"integer","description":"Seconds since the Unix epoch."},
"count":{"type":"integer","description":"Messages since the last epoch of the game."}}}}}}"##;
    let imported = import_text(doc);
    let yaml = &imported.yaml;
    assert!(yaml.contains("format: unix_ms"), "{yaml}");
    assert!(
        yaml.contains("sent: { type: datetime, format: unix"),
        "{yaml}"
    );
    assert!(yaml.contains("count: { type: integer"), "{yaml}");
    assert!(
        imported
            .report
            .inferred
            .iter()
            .any(|f| f.pointer.ends_with("/timestamp")
                && f.reason.contains("its description says so")),
        "{}",
        imported.report
    );
    checked(yaml);
}

/// Zenvia's SMS batch: `allOf` of a base whose `message` requires `from` and a member that says
/// `message` again with its `contents`. Each member holds, so the message has both; the second
/// replaced the first, and a batch with no sender was a valid one.
#[test]
fn an_object_property_said_again_in_an_all_of_holds_both() {
    let doc = r##"
openapi: 3.0.0
info: { title: T, version: "1" }
paths:
  /batches:
    post:
      operationId: create_batch
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/SmsBatch' } } } }
      responses: { "200": { description: ok } }
components:
  schemas:
    Message:
      type: object
      required: [from]
      properties: { from: { type: string } }
    Base:
      type: object
      properties: { name: { type: string }, message: { $ref: '#/components/schemas/Message' } }
    SmsBatch:
      allOf:
        - $ref: '#/components/schemas/Base'
        - type: object
          properties:
            message: { type: object, required: [contents], properties: { contents: { type: array, items: { type: string } } } }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    let TypeKind::Object(batch) = kind(&service, "SmsBatch") else {
        panic!("{}", imported.yaml)
    };
    let message = batch.iter().find(|f| f.wire == "message").unwrap();
    let Ty::Named(name) = &message.ty else {
        panic!("{}", imported.yaml)
    };
    let TypeKind::Object(fields) = kind(&service, name) else {
        panic!("{}", imported.yaml)
    };
    let required: Vec<(&str, bool)> = fields
        .iter()
        .map(|f| (f.wire.as_str(), f.required))
        .collect();
    assert_eq!(
        required,
        [("from", true), ("contents", true)],
        "{}",
        imported.yaml
    );
    // The type's note names a place in the document, not one the import made.
    assert!(
        imported
            .yaml
            .contains("doc.yaml#/components/schemas/SmsBatch/allOf/1/properties/message\""),
        "{}",
        imported.yaml
    );
}

/// A member of a `oneOf` that takes `null` itself (`{type: string, nullable: true}` beside a
/// number and a boolean: Mailtrap's scalar values) makes a required field nullable: the
/// `null` its answers hold did not decode.
#[test]
fn a_nullable_member_of_a_union_makes_the_field_nullable() {
    let doc = r##"{"openapi":"3.0.1","info":{"title":"T","version":"1"},
"paths":{"/fields":{"get":{"operationId":"getField",
"responses":{"200":{"description":"ok","content":{"application/json":{
"schema":{"$ref":"#/components/schemas/Field"}}}}}}}},
"components":{"schemas":{"Field":{"type":"object","required":["value"],"properties":{
"value":{"oneOf":[{"type":"string","nullable":true},{"type":"number"},{"type":"boolean"}]}}}}}}"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    let TypeKind::Object(fields) = kind(&service, "Field") else {
        panic!("{}", imported.yaml)
    };
    let value = fields.iter().find(|f| f.wire == "value").unwrap();
    assert!(value.nullable, "{}", imported.yaml);
}

#[test]
fn the_one_error_shape_written_in_place_is_the_services_unless_another_differs() {
    let doc = |second: &str| {
        format!(
            r##"
openapi: 3.0.1
info: {{ title: T, version: "1" }}
paths:
  /a:
    post:
      operationId: make_a
      responses:
        "201": {{ description: ok }}
        "429":
          description: limited
          headers: {{ Access-Control-Allow-Origin: {{ schema: {{ type: string }} }} }}
          content:
            application/json:
              schema:
                type: object
                properties: {{ code: {{ type: integer }}, message: {{ type: string }}, more_info: {{ type: string }}, status: {{ type: integer }} }}
  /b:
    get:
      operationId: get_b
      responses:
        "200": {{ description: ok }}
{second}
"##
        )
    };
    let imported = import_text(&doc(""));
    let service = checked(&imported.yaml);
    let errors = service.errors.as_ref().expect("an errors section");
    assert_eq!(
        errors.ty.as_ref().map(ToString::to_string).as_deref(),
        Some("Error")
    );
    assert!(
        imported
            .report
            .inferred
            .iter()
            .any(|f| f.reason.contains("the one error shape the document shows")),
        "{}",
        imported.report
    );
    // CORS headers are no error details.
    assert!(
        !imported.yaml.contains("Access-Control-Allow-Origin"),
        "{}",
        imported.yaml
    );
    // A second shape in place: neither is the service's.
    let other = r#"        "404":
          description: missing
          content:
            application/json:
              schema: { type: object, properties: { error: { type: string } } }"#;
    let imported = import_text(&doc(other));
    assert!(
        checked(&imported.yaml).errors.is_none(),
        "{}",
        imported.yaml
    );
}

#[test]
fn a_status_whose_description_lists_its_values_starts_at_the_first() {
    // Twilio's verification `status`: a string, "Can be: `pending`, `approved`, ...", no
    // enum, no example: a started verification had no status in the sandbox.
    let doc = r##"
openapi: 3.0.1
info: { title: T, version: "1" }
paths:
  /verifications:
    post:
      operationId: create_verification
      responses:
        "201":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  sid: { type: string }
                  status: { type: string, description: "The status of the verification. Can be: `pending`, `approved`, `canceled`." }
                  channel: { type: string, description: "Can be: `sms`, `call`." }
"##;
    let imported = import_text(doc);
    assert!(
        imported.yaml.contains("example: pending"),
        "{}",
        imported.yaml
    );
    assert!(!imported.yaml.contains("example: sms"), "{}", imported.yaml);
}

#[test]
fn each_place_a_file_not_brought_in_is_referred_to_is_counted() {
    // Vonage's applications refer to `common/common_errors.yml` for 17 error answers; without
    // it, they kept their status and lost their body, and the report said one line.
    let doc = r##"
openapi: 3.0.1
info: { title: T, version: "1" }
paths:
  /a:
    get:
      operationId: get_a
      responses:
        "200": { description: ok }
        "401": { $ref: "common/errors.yml#/components/responses/Unauthorized" }
        "404": { $ref: "common/errors.yml#/components/responses/NotFound" }
  /b:
    get:
      operationId: get_b
      responses:
        "200": { description: ok }
        "401": { $ref: "common/errors.yml#/components/responses/Unauthorized" }
"##;
    let imported = import_text(doc);
    let found = imported
        .report
        .approximated
        .iter()
        .find(|f| f.reason.contains("another file not brought in"))
        .unwrap_or_else(|| panic!("{}", imported.report));
    let detail = found.detail.as_deref().unwrap_or_default();
    assert!(detail.contains("`common/errors.yml`"), "{detail}");
    assert!(detail.contains("3 place(s)"), "{detail}");
    assert!(
        detail.contains("`#/paths/~1b/get/responses/401`"),
        "{detail}"
    );
}

#[test]
fn a_form_example_writing_a_boolean_in_capitals_keeps_the_field_a_boolean() {
    // Twilio Notify's service create: `LogEnabled` is a boolean its form example writes
    // `"True"` (what Python's clients send). Read as another JSON type, the field was typed
    // `json`, and the sandbox refused every value of it.
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /v1/Services:
    post:
      operationId: createService
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              properties:
                FriendlyName: { type: string }
                LogEnabled: { type: boolean }
            examples:
              create: { value: { FriendlyName: n, LogEnabled: "True" } }
      responses:
        "201": { description: ok, content: { application/json: { schema: { type: object, properties: { sid: { type: string } } } } } }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    assert_eq!(
        field_ty(&service, "CreateServiceRequest", "LogEnabled"),
        Ty::Boolean,
        "{}",
        imported.yaml
    );
}

#[test]
fn a_union_member_listing_every_tag_value_is_the_one_its_name_says() {
    // Vonage's reports: `oneOf` SMS, VOICE-CALL, ... with `discriminator: {propertyName:
    // product}` and no mapping; every member's `product` enum lists all the products. Each
    // member took the enum's first value, `SMS`, the last replacing the others: one variant
    // of eight, read as another's schema, and nothing said so.
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /v2/reports:
    post:
      operationId: createReport
      requestBody:
        content:
          application/json:
            schema:
              oneOf: [{ $ref: "#/components/schemas/SMS" }, { $ref: "#/components/schemas/VOICE-CALL" }]
              discriminator: { propertyName: product }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { request_id: { type: string } } } } } }
components:
  schemas:
    base:
      type: object
      required: [product]
      properties:
        product: { type: string, enum: [SMS, VOICE-CALL] }
    SMS:
      allOf:
        - { $ref: "#/components/schemas/base" }
        - { type: object, required: [direction], properties: { direction: { type: string } } }
    VOICE-CALL:
      allOf:
        - { $ref: "#/components/schemas/base" }
        - { type: object, properties: { status: { type: string } } }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    let tags: Vec<&str> = match kind(&service, "CreateReportRequest") {
        TypeKind::Union { variants, .. } => variants.iter().map(|v| v.tag.as_str()).collect(),
        other => panic!("{other:?}\n{}", imported.yaml),
    };
    assert_eq!(tags, ["SMS", "VOICE-CALL"], "{}", imported.yaml);
}

#[test]
fn a_date_whose_example_is_a_date_time_is_a_date_time() {
    // Vonage's reports: `date_start` is `format: date`, its example `2017-12-01T00:00:00+00:00`
    // and its text "yyyy-mm-ddThh:mm:ss±hh:mm"; typed as a date, every value the document
    // shows was refused. A date with a date example stays a date.
    let doc = r##"
openapi: 3.0.3
info: { title: T, version: "1" }
servers: [{ url: https://api.example.com }]
paths:
  /v2/reports:
    post:
      operationId: createReport
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                date_start: { type: string, format: date, example: "2017-12-01T00:00:00+00:00" }
                birthday: { type: string, format: date, example: "1990-04-01" }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { request_id: { type: string } } } } } }
"##;
    let imported = import_text(doc);
    let service = checked(&imported.yaml);
    assert_eq!(
        field_ty(&service, "CreateReportRequest", "date_start"),
        Ty::DateTime,
        "{}",
        imported.yaml
    );
    assert_eq!(
        field_ty(&service, "CreateReportRequest", "birthday"),
        Ty::Date
    );
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("date-time example")),
        "{}",
        imported.report
    );
}
