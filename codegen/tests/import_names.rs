//! Names (issue 30, item 5): an operation named like the page spec of a paged operation
//! (`get_lists_pages` beside a paged `get_lists`, both the static `GET_LISTS_PAGES`) is caught
//! by `check` with its location, and the importer renames it instead of dropping it; schema
//! names made of a hash and a word keep the word; operations without ids are named from their
//! routes; and what a name or format says of a type (`format: int` on a number) is kept.
#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use serde_json::json;
use tidings_codegen::import::{ImportOptions, import_openapi};

fn document() -> String {
    let page = json!({"type": "object", "properties": {
        "lists": {"type": "array", "items": {"$ref": "#/components/schemas/20085af3b1c2d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccdd-MailingList"}},
        "next_page_uri": {"type": "string"}
    }});
    let ok = |schema: serde_json::Value| json!({"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}});
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Lists", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": {
            "/v3/lists": {"get": {
                "operationId": "getV3Lists",
                "parameters": [{"name": "page_size", "in": "query", "schema": {"type": "integer"}}],
                "responses": ok(page)
            }},
            "/v3/lists/pages": {"get": {
                "operationId": "getV3ListsPages",
                "responses": ok(json!({"type": "object", "properties": {"n": {"type": "integer"}}}))
            }}
        },
        "components": {"schemas": {
            "20085af3b1c2d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccdd-MailingList":
                {"type": "object", "properties": {"id": {"type": "string"}}}
        }}
    })
    .to_string()
}

#[test]
fn an_operation_named_like_a_page_spec_is_renamed_on_import_and_the_code_parses() {
    let imported = import_openapi(
        &document(),
        &ImportOptions::new("lists", "lists.json"),
        None,
    )
    .unwrap();
    assert!(
        imported.yaml.contains("  get_v3_lists:"),
        "{}",
        imported.yaml
    );
    assert!(
        imported.yaml.contains("  get_v3_lists_pages_op:"),
        "{}",
        imported.yaml
    );
    assert!(imported.report.skipped.is_empty(), "{}", imported.report);
    assert!(
        imported.report.approximated.iter().any(|f| f
            .reason
            .contains("`get_v3_lists_pages` is `get_v3_lists_pages_op`")),
        "{}",
        imported.report
    );
    // The hash is gone from the type name.
    assert!(
        imported.yaml.contains("  MailingList:"),
        "{}",
        imported.yaml
    );
    assert!(!imported.yaml.contains("T20085"), "{}", imported.yaml);
    let loaded = tidings_codegen::load::load_str("lists.yaml", &imported.yaml).unwrap();
    let service = tidings_codegen::check::check(&loaded).unwrap();
    syn::parse_file(&tidings_codegen::emit::emit_service(&service).unwrap()).unwrap();

    // Written by hand, the same clash is a `check` error at the operation.
    let clashing = imported
        .yaml
        .replace("get_v3_lists_pages_op:", "get_v3_lists_pages:");
    let loaded = tidings_codegen::load::load_str("lists.yaml", &clashing).unwrap();
    let errors = tidings_codegen::check::check(&loaded)
        .unwrap_err()
        .to_string();
    let line = clashing
        .lines()
        .position(|l| l == "  get_v3_lists_pages:")
        .unwrap()
        + 1;
    assert!(
        errors.contains(&format!("lists.yaml:{line}:"))
            && errors.contains("the generated static `GET_V3_LISTS_PAGES`"),
        "{errors}"
    );
}

#[test]
fn a_component_named_like_the_generated_webhook_enum_is_renamed_not_dropped() {
    // Infobip's documents have a `WebhookPayload` schema and several webhooks, whose generated
    // enum is `WebhookPayload`: the checker refused the type and the import dropped it.
    let ok = json!({"200": {"description": "ok"}});
    let body = |name: &str| json!({"content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{name}")}}}});
    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "Hooks", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": {"/v1/hooks": {"post": {
            "operationId": "createHook",
            "requestBody": body("WebhookPayload"),
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WebhookPayload"}}}}}
        }}},
        "webhooks": {
            "delivered": {"post": {"requestBody": body("Delivery"), "responses": ok}},
            "seen": {"post": {"requestBody": body("WebhookPayload"), "responses": ok}}
        },
        "components": {"schemas": {
            "WebhookPayload": {"type": "object", "properties": {"url": {"type": "string"}, "events": {"type": "array", "items": {"type": "string"}}}},
            "Delivery": {"type": "object", "properties": {"id": {"type": "string"}}}
        }}
    })
    .to_string();
    let imported = import_openapi(&doc, &ImportOptions::new("hooks", "hooks.json"), None).unwrap();
    assert!(imported.report.skipped.is_empty(), "{}", imported.report);
    assert!(
        imported.yaml.contains("  WebhookPayload2:"),
        "{}",
        imported.yaml
    );
    let loaded = tidings_codegen::load::load_str("hooks.yaml", &imported.yaml).unwrap();
    let service = tidings_codegen::check::check(&loaded).unwrap();
    let payload = service
        .types
        .iter()
        .find(|t| t.name == "WebhookPayload2")
        .unwrap();
    assert!(
        matches!(&payload.kind, tidings_codegen::resolved::TypeKind::Object(f) if f.len() == 2)
    );
    syn::parse_file(&tidings_codegen::emit::emit_service(&service).unwrap()).unwrap();
}

/// Without `operationId`s, a collection's route and its item's route make the same name
/// (`get_apps_rules`): the item's gets `_by_<its parameter>`, and a route whose name is its
/// own keeps it.
#[test]
fn an_item_route_without_an_operation_id_is_named_by_its_parameter() {
    let ok = json!({"200": {"description": "ok"}});
    let document = json!({
        "openapi": "3.0.3",
        "info": {"title": "Apps", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": {
            "/apps/{app_id}/rules/{ruleId}": {
                "parameters": [
                    {"name": "app_id", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "ruleId", "in": "path", "required": true, "schema": {"type": "string"}}
                ],
                "get": {"responses": ok},
                "delete": {"responses": ok}
            },
            "/apps/{app_id}/rules": {
                "parameters": [
                    {"name": "app_id", "in": "path", "required": true, "schema": {"type": "string"}}
                ],
                "get": {"responses": ok},
            },
            "/apps/{id}": {
                "parameters": [
                    {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}
                ],
                "get": {"responses": ok}
            }
        }
    })
    .to_string();
    let imported =
        import_openapi(&document, &ImportOptions::new("apps", "apps.json"), None).unwrap();
    let mut names: Vec<&str> = imported
        .yaml
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.strip_suffix(':'))
        .filter(|n| n.starts_with("get_") || n.starts_with("delete_"))
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "delete_apps_rules",
            "get_apps",
            "get_apps_rules",
            "get_apps_rules_by_rule_id",
        ],
        "{}",
        imported.yaml
    );
}

/// A `number` whose format says integer (Postmark's `TemplateId`: `format: int`) is imported
/// as an integer, so an id is an `i64`, not an `f64`; other numbers stay numbers.
#[test]
fn a_number_whose_format_says_integer_is_an_integer() {
    let document = json!({
        "swagger": "2.0",
        "info": {"title": "Templates", "version": "1"},
        "host": "api.example.com",
        "schemes": ["https"],
        "paths": {"/templates": {"post": {
            "parameters": [{"in": "body", "name": "body", "schema": {"type": "object"}}],
            "responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Record"}}}
        }}},
        "definitions": {"Record": {"type": "object", "properties": {
            "TemplateId": {"type": "number", "format": "int"},
            "Count": {"type": "number", "format": "int64"},
            "Rate": {"type": "number", "format": "double"},
            "Score": {"type": "number"}
        }}}
    })
    .to_string();
    let imported =
        import_openapi(&document, &ImportOptions::new("templates", "t.json"), None).unwrap();
    for (field, ty) in [
        ("TemplateId", "integer"),
        ("Count", "integer"),
        ("Rate", "number"),
        ("Score", "number"),
    ] {
        let line = imported
            .yaml
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{field}:")))
            .unwrap_or_else(|| panic!("no {field}: {}", imported.yaml));
        assert!(line.contains(&format!("type: {ty}")), "{field}: {line}");
    }
}

#[test]
fn inline_union_members_are_named_after_their_title_or_most_specific_reference() {
    // Vonage's inbound message: `oneOf` of inline `allOf`s, each a shared part and the kind's
    // own schema; two unions of their own, each kind of one channel holding that channel's
    // options (named by the channel: what their shared references do not share); one member
    // titled; one with none of these (named by position).
    let object = |field: &str| json!({"type": "object", "required": [field], "properties": {field: {"type": "string"}}});
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "Inbound", "version": "1"},
        "paths": {"/inbound": {"post": {
            "operationId": "receive",
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Inbound"}}}},
            "responses": {"204": {"description": ""}}
        }}},
        "components": {"schemas": {
            "Inbound": {"oneOf": [
                {"allOf": [{"$ref": "#/components/schemas/common"}, {"$ref": "#/components/schemas/SmsInbound"}]},
                {"allOf": [{"$ref": "#/components/schemas/common"}, {"$ref": "#/components/schemas/mmsInbound"}]},
                {"title": "Voice call", "type": "object", "required": ["call"], "properties": {"call": {"type": "string"}}},
                {"oneOf": [
                    {"allOf": [{"$ref": "#/components/schemas/common"}, {"$ref": "#/components/schemas/channelOptionsWhatsapp"}, {"$ref": "#/components/schemas/SmsInbound"}]},
                    {"allOf": [{"$ref": "#/components/schemas/common"}, {"$ref": "#/components/schemas/channelOptionsWhatsapp"}, {"$ref": "#/components/schemas/mmsInbound"}]}
                ]},
                {"oneOf": [
                    {"allOf": [{"$ref": "#/components/schemas/common"}, {"$ref": "#/components/schemas/channelOptionsViber"}, {"$ref": "#/components/schemas/SmsInbound"}]},
                    {"allOf": [{"$ref": "#/components/schemas/common"}, {"$ref": "#/components/schemas/channelOptionsViber"}, {"$ref": "#/components/schemas/mmsInbound"}]}
                ]},
                {"type": "object", "required": ["other"], "properties": {"other": {"type": "integer"}}}
            ]},
            "common": object("uuid"),
            "SmsInbound": object("text"),
            "mmsInbound": object("image"),
            "channelOptionsWhatsapp": object("to"),
            "channelOptionsViber": object("from")
        }}
    });
    let imported = import_openapi(
        &doc.to_string(),
        &ImportOptions::new("inbound", "inbound.json"),
        None,
    )
    .unwrap();
    for line in [
        "sms_inbound: { type: InboundSmsInbound }",
        "mms_inbound: { type: InboundMmsInbound }",
        "voice_call: { type: InboundVoiceCall }",
        "whatsapp: { type: InboundWhatsapp }",
        "viber: { type: InboundViber }",
        "inbound6: { type: Inbound6 }",
    ] {
        assert!(imported.yaml.contains(line), "{line}:\n{}", imported.yaml);
    }
}
