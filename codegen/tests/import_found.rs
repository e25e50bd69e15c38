//! What importing providers' documents not tried before found (OneSignal, Textmagic,
//! ClickSend, Bandwidth, Novu, Ably, Mandrill, Stream, Sinch, Telnyx),
//! each as the smallest document that shows it: a query string in a
//! path template, keys for different operations, Swagger 2.0's `x-nullable`, the text
//! `"null"` as an example of a number, fields present one way only.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use serde_json::{Value, json};
use tidings_codegen::check::{AuthScheme, Service, Ty, TypeKind};
use tidings_codegen::import::{ImportOptions, Imported, import_openapi};
use tidings_codegen::{check, load};
use tidings_spec::PageStyle;

fn import(doc: &Value) -> Imported {
    import_openapi(
        &doc.to_string(),
        &ImportOptions::new("found", "found.json"),
        None,
    )
    .unwrap()
}

fn checked(imported: &Imported) -> Service {
    let loaded = load::load_str("found.yaml", &imported.yaml).unwrap();
    check::check(&loaded).unwrap_or_else(|d| panic!("{d}\n{}", imported.yaml))
}

fn field<'s>(service: &'s Service, ty: &str, wire: &str) -> &'s tidings_codegen::check::FieldInfo {
    let t = service.types.iter().find(|t| t.name == ty).unwrap();
    let TypeKind::Object(fields) = &t.kind else {
        panic!("{ty} is not an object")
    };
    fields.iter().find(|f| f.wire == wire).unwrap()
}

fn ok() -> Value {
    json!({ "200": { "description": "ok" } })
}

/// OneSignal's `/players/csv_export?app_id={app_id}`: the path was kept with its query string,
/// so no request could match it.
#[test]
fn a_query_string_in_a_path_template_becomes_required_query_parameters() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/players/csv_export?app_id={app_id}&format=csv": { "post": {
            "operationId": "export_players",
            "parameters": [{ "name": "app_id", "in": "path", "required": true,
                             "schema": { "type": "string" } }],
            "responses": ok()
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let op = &service.operations[0];
    assert_eq!(op.path, "/players/csv_export");
    assert!(op.path_params.is_empty());
    let app_id = op.query.iter().find(|p| p.wire == "app_id").unwrap();
    assert!(app_id.required);
    let format = op.query.iter().find(|p| p.wire == "format").unwrap();
    assert!(format.required);
    let Ty::Named(name) = &format.ty else {
        panic!("{:?}", format.ty)
    };
    let values = &service.types.iter().find(|t| &t.name == name).unwrap().kind;
    assert!(format!("{values:?}").contains("\"csv\""), "{values:?}");
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("query string in the path template")),
        "{:#?}",
        imported.report.approximated
    );
    // ClickSend's `/numbers/search/{country}?{search}=1&{search_type}=2`, `search` and
    // `search_type` declared in the path: those parameters, under their own names.
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/numbers/search/{country}?{search}=1&{search_type}=2": { "get": {
            "operationId": "search_numbers",
            "parameters": [
                { "name": "country", "in": "path", "required": true, "schema": { "type": "string" } },
                { "name": "search", "in": "path", "required": true, "schema": { "type": "string" } },
                { "name": "search_type", "in": "path", "required": true, "schema": { "type": "number" } }],
            "responses": ok()
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let op = &service.operations[0];
    assert_eq!(op.path, "/numbers/search/{country}");
    let names: Vec<&str> = op.query.iter().map(|p| p.wire.as_str()).collect();
    assert_eq!(names, ["search", "search_type"], "{}", imported.yaml);
    assert_eq!(op.query[1].ty, Ty::Number);
}

/// OneSignal's `organization_api_key` (apps) and `rest_api_key` (notifications): two bearer
/// keys for different operations were one credential, so a client sent one key to both.
/// Schemes offered on the same operation stay one key sent either way.
#[test]
fn keys_for_different_operations_are_two_credentials_and_alternatives_one() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "components": { "securitySchemes": {
            "org_key": { "type": "http", "scheme": "bearer" },
            "rest_key": { "type": "http", "scheme": "bearer" }
        } },
        "paths": {
            "/apps": { "get": { "operationId": "list_apps",
                "security": [{ "org_key": [] }], "responses": ok() } },
            "/notifications": { "get": { "operationId": "list_notifications",
                "security": [{ "rest_key": [] }], "responses": ok() } }
        }
    });
    let service = checked(&import(&doc));
    let credential_of = |name: &str| match service.auth.iter().find(|a| a.name == name) {
        Some(a) => match &a.method {
            AuthScheme::Bearer { credential } => credential.clone(),
            other => panic!("{other:?}"),
        },
        None => panic!("no scheme {name}"),
    };
    assert_ne!(credential_of("org_key"), credential_of("rest_key"));
    assert_eq!(service.credentials.len(), 2, "{:?}", service.credentials);

    // The same two schemes offered on one operation: one key, sent either way.
    let mut together = doc.clone();
    together["paths"]["/apps"]["get"]["security"] = json!([{ "org_key": [] }, { "rest_key": [] }]);
    let service = checked(&import(&together));
    let credentials: Vec<&str> = service
        .credentials
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(credentials, ["api_key"]);
}

/// Vonage Media writes its item paths as Express does, `/:id` and `/:id/info`, declaring no
/// parameter: kept as literal text, a client called `/:id/info` and named no item.
#[test]
fn a_colon_segment_is_a_path_parameter() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": {
            "/:id/info": { "get": { "operationId": "get_media", "responses": ok() } },
            "/v1/:account_id/users/:id": { "delete": { "operationId": "delete_user",
                "responses": ok() } },
            "/threads/{id}/participants/:add": { "post": { "operationId": "add_participants",
                "responses": ok() } }
        }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let path_of = |name: &str| {
        let op = service.operations.iter().find(|o| o.name == name).unwrap();
        let params: Vec<&str> = op.path_params.iter().map(|p| p.wire.as_str()).collect();
        (op.path.clone(), params)
    };
    assert_eq!(path_of("get_media"), ("/{id}/info".to_owned(), vec!["id"]));
    assert_eq!(
        path_of("delete_user"),
        (
            "/v1/{account_id}/users/{id}".to_owned(),
            vec!["account_id", "id"]
        )
    );
    // A verb so written is a custom method, not a parameter.
    assert_eq!(
        path_of("add_participants").0,
        "/threads/{id}/participants/:add"
    );
}

/// Telnyx writes its one key's scheme twice, as `BearerAuth` and `bearerAuth` (19 operations
/// name the second): that made a second credential, and the one Telnyx key was refused there.
#[test]
fn one_scheme_written_twice_under_names_differing_in_case_is_one_key() {
    let key = json!({ "type": "apiKey", "in": "header", "name": "Authorization" });
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "components": { "securitySchemes": { "BearerAuth": key, "bearerAuth": key } },
        "security": [{ "BearerAuth": [] }],
        "paths": {
            "/profiles": { "get": { "operationId": "list_profiles", "responses": ok() } },
            "/records": { "get": { "operationId": "list_records",
                "security": [{ "bearerAuth": [] }], "responses": ok() } }
        }
    });
    let service = checked(&import(&doc));
    let credentials: Vec<&str> = service
        .credentials
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(credentials, ["api_key"]);
}

/// Swagger 2.0's `x-nullable` (Textmagic's `sessionId`, required and nullable) was ignored:
/// the field stayed required, and a real `null` failed to decode. Then it was made optional,
/// and a request left out a key the service requires: it is required and nullable.
#[test]
fn swagger_x_nullable_makes_a_required_field_nullable() {
    let doc = json!({
        "swagger": "2.0",
        "info": { "title": "Found", "version": "1" },
        "host": "api.example.com",
        "paths": { "/things": { "get": {
            "operationId": "get_thing",
            "responses": { "200": { "description": "ok",
                "schema": { "$ref": "#/definitions/Thing" } } }
        } } },
        "definitions": { "Thing": {
            "type": "object",
            "required": ["id", "note"],
            "properties": {
                "id": { "type": "integer" },
                "note": { "type": "string", "x-nullable": true }
            }
        } }
    });
    let service = checked(&import(&doc));
    assert!(field(&service, "Thing", "id").required);
    assert!(!field(&service, "Thing", "id").nullable);
    let note = field(&service, "Thing", "note");
    assert!(note.required && note.nullable && note.is_option());
}

/// Postmark's template send requires `TemplateId` and `TemplateAlias`, each "Required if
/// '<the other>' is not specified": kept both required, a send by alias alone was refused.
#[test]
fn two_fields_each_required_without_the_other_are_one_of_two() {
    let doc = json!({
        "swagger": "2.0",
        "info": { "title": "Found", "version": "1" },
        "host": "api.example.com",
        "paths": { "/email/withTemplate": { "post": {
            "operationId": "send_with_template",
            "parameters": [{ "in": "body", "name": "body", "required": true,
                "schema": { "$ref": "#/definitions/WithTemplate" } }],
            "responses": { "200": { "description": "ok", "schema": { "type": "object",
                "properties": { "MessageID": { "type": "string" } } } } }
        } } },
        "definitions": { "WithTemplate": {
            "type": "object",
            "required": ["TemplateId", "TemplateAlias", "To"],
            "properties": {
                "TemplateId": { "type": "integer",
                    "description": "Required if 'TemplateAlias' is not specified." },
                "TemplateAlias": { "type": "string",
                    "description": "Required if 'TemplateId' is not specified." },
                "To": { "type": "string" }
            }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    assert!(!field(&service, "WithTemplate", "TemplateId").required);
    assert!(!field(&service, "WithTemplate", "TemplateAlias").required);
    assert!(field(&service, "WithTemplate", "To").required);
    assert!(
        imported
            .yaml
            .contains("- { require_one: [TemplateAlias, TemplateId] }"),
        "{}",
        imported.yaml
    );
}

/// Vonage Dispatch's error `instance` is a required `string` whose example is `null`: typed
/// `json` for it, the sandbox answered `{}`, which a client with a text field cannot read. It
/// is text that may be null.
#[test]
fn a_null_example_makes_a_required_field_nullable_not_json() {
    let doc = json!({
        "swagger": "2.0",
        "info": { "title": "Found", "version": "1" },
        "host": "api.example.com",
        "paths": { "/things": { "get": {
            "operationId": "get_thing",
            "responses": {
                "200": { "description": "ok", "schema": { "type": "object",
                    "properties": { "id": { "type": "string" } } } },
                "401": { "description": "no", "schema": { "$ref": "#/definitions/Error" } }
            }
        } } },
        "definitions": { "Error": {
            "type": "object",
            "required": ["type", "detail", "instance"],
            "properties": {
                "type": { "type": "string" },
                "detail": { "type": "string" },
                "instance": { "type": "string", "example": null }
            }
        } }
    });
    let service = checked(&import(&doc));
    let instance = field(&service, "Error", "instance");
    assert_eq!(instance.ty, Ty::String);
    assert!(instance.required && instance.nullable);
}

/// Textmagic's examples write a missing `messageId` as the text `"null"`: that typed the
/// integer fields `json`.
#[test]
fn the_text_null_as_an_example_of_a_number_keeps_the_number() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/messages": { "post": {
            "operationId": "send",
            "responses": { "201": { "description": "ok", "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/Sent" },
                "example": { "id": 1, "messageId": "null" }
            } } } }
        } } },
        "components": { "schemas": { "Sent": {
            "type": "object",
            "properties": {
                "id": { "type": "integer" },
                "messageId": { "type": "integer", "example": "null" }
            }
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    assert_eq!(field(&service, "Sent", "messageId").ty, Ty::Integer);
    assert!(
        !imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("messageId")),
        "{:#?}",
        imported.report.approximated
    );
}

/// A required `readOnly` field (the `id` the service sets) was required in a create's body;
/// a required `writeOnly` one (a password) in every answer.
#[test]
fn fields_present_one_way_only_are_required_in_neither() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/users": { "post": {
            "operationId": "create_user",
            "requestBody": { "required": true, "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/User" } } } },
            "responses": { "201": { "description": "ok", "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/User" } } } } }
        } } },
        "components": { "schemas": { "User": {
            "type": "object",
            "required": ["id", "name", "password"],
            "properties": {
                "id": { "type": "string", "readOnly": true },
                "name": { "type": "string" },
                "password": { "type": "string", "writeOnly": true }
            }
        } } }
    });
    let service = checked(&import(&doc));
    assert!(field(&service, "User", "name").required);
    assert!(!field(&service, "User", "id").required);
    assert!(field(&service, "User", "id").read_only);
    assert!(!field(&service, "User", "password").required);
}

/// Sinch's `batch_id`: required and read-only in a type only answers use (the batch a send
/// answers), it was imported optional, so every client had to unwrap an id that is always
/// there. A type a request also sends keeps it optional (the create does not send it), and so
/// does one reached through another request type.
#[test]
fn a_required_read_only_field_is_required_in_a_type_only_answers_use() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": {
            "/batches": { "post": {
                "operationId": "send_batch",
                "requestBody": { "required": true, "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/SendRequest" } } } },
                "responses": { "201": { "description": "ok", "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/Batch" } } } } }
            } },
            "/groups": { "post": {
                "operationId": "create_group",
                "requestBody": { "required": true, "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/Group" } } } },
                "responses": { "201": { "description": "ok", "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/Group" } } } } }
            } }
        },
        "components": { "schemas": {
            "SendRequest": { "type": "object", "required": ["to"], "properties": {
                "to": { "type": "string" },
                "tag": { "$ref": "#/components/schemas/Tag" }
            } },
            "Batch": { "type": "object", "required": ["id", "to"], "properties": {
                "id": { "type": "string", "readOnly": true },
                "to": { "type": "string" },
                "created_at": { "type": "string", "readOnly": true },
                "tag": { "$ref": "#/components/schemas/Tag" },
                "receipt": { "$ref": "#/components/schemas/Receipt" }
            } },
            "Receipt": { "type": "object", "required": ["code"], "properties": {
                "code": { "type": "string", "readOnly": true }
            } },
            "Tag": { "type": "object", "required": ["key"], "properties": {
                "key": { "type": "string", "readOnly": true }
            } },
            "Group": { "type": "object", "required": ["id", "name"], "properties": {
                "id": { "type": "string", "readOnly": true },
                "name": { "type": "string" }
            } }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    assert!(field(&service, "Batch", "id").required, "{}", imported.yaml);
    assert!(field(&service, "Batch", "id").read_only);
    assert!(!field(&service, "Batch", "created_at").required);
    // Reached through an answer's field.
    assert!(field(&service, "Receipt", "code").required);
    // Reached by a request too: through a field of the send's body, and as a create's body.
    assert!(!field(&service, "Tag", "key").required);
    assert!(!field(&service, "Group", "id").required);
}

/// Bandwidth's document has no `servers` of its own: each path names one of six hosts. The
/// base URL was left without a default, its note citing a `#/servers/0` that is not there.
#[test]
fn servers_named_per_path_give_the_base_url_and_operations_elsewhere_are_reported() {
    let on = |url: &str, id: &str| json!({ "servers": [{ "url": url }], "get": { "operationId": id, "responses": ok() } });
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": {
            "/calls": on("https://voice.example.com/api/v2", "list_calls"),
            "/recordings": on("https://voice.example.com/api/v2", "list_recordings"),
            "/messages": on("https://messaging.example.com/api/v2", "list_messages")
        }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    assert_eq!(
        service.info.base_url.default.as_deref(),
        Some("https://voice.example.com/api/v2")
    );
    let elsewhere: Vec<&str> = imported
        .report
        .approximated
        .iter()
        .filter(|f| f.reason.contains("not at the base URL"))
        .map(|f| f.pointer.as_str())
        .collect();
    assert_eq!(elsewhere, ["#/paths/~1messages/get"]);

    // Importing that host's operations alone: its server is the base URL, nothing to report.
    let mut options = ImportOptions::new("found", "found.json");
    options.include = vec!["/messages".into()];
    let alone = import_openapi(&doc.to_string(), &options, None).unwrap();
    assert!(
        alone
            .yaml
            .contains("default: https://messaging.example.com/api/v2"),
        "{}",
        alone.yaml
    );
    assert!(
        !alone
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("not at the base URL"))
    );
}

/// Twilio Messaging's `GET /v1/Deactivations` answers only a 307 (to a file) with a body: the
/// import kept no answer and said nothing.
#[test]
fn an_operation_that_answers_only_a_redirect_is_reported() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/v1/Deactivations": { "get": { "operationId": "FetchDeactivation",
            "responses": { "307": { "description": "redirect", "content": { "application/json": {
                "schema": { "type": "object", "properties": { "redirect_to": { "type": "string" } } } } } } } } } }
    });
    let imported = import(&doc);
    checked(&imported);
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.pointer == "#/paths/~1v1~1Deactivations/get"
                && f.reason.starts_with("answers only 307")),
        "{}",
        imported.report
    );
}

/// Vonage's conversation document (v1) has its own server (`/v0.1`) and one operation with
/// another (`PUT .../record`, at `/v1`): the operation was served at the document's in silence.
#[test]
fn an_operation_on_a_server_of_its_own_beside_the_document_s_is_reported() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "servers": [{ "url": "https://api.example.com/v0.1" }],
        "paths": {
            "/conversations": { "get": { "operationId": "list_conversations", "responses": ok() } },
            "/conversations/{id}/record": {
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
                "put": { "operationId": "record", "servers": [{ "url": "https://api.example.com/v1" }],
                    "responses": ok() } }
        }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    assert_eq!(
        service.info.base_url.default.as_deref(),
        Some("https://api.example.com/v0.1")
    );
    assert!(
        imported.report.approximated.iter().any(|f| f.pointer
            == "#/paths/~1conversations~1{id}~1record/put"
            && f.reason
                .contains("not at the base URL `https://api.example.com/v0.1` the document names")),
        "{}",
        imported.report
    );
}

/// OneSignal's errors are `{"errors": ["..."]}`, its document's `errors` free-form: no message
/// was found, so its client's errors and the sandbox's answers carried none (`{}`).
#[test]
fn messages_listed_as_text_in_errors_are_read_from_the_first() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/notifications": { "get": {
            "operationId": "list_notifications",
            "responses": {
                "200": { "description": "ok" },
                "400": { "description": "bad", "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/GenericError" } } } }
            }
        } } },
        "components": { "schemas": { "GenericError": {
            "type": "object",
            "properties": { "errors": {}, "success": { "type": "boolean" } }
        } } }
    });
    let service = checked(&import(&doc));
    let errors = format!("{:?}", service.errors);
    assert!(errors.contains("\"errors.0\""), "{errors}");
}

/// Bandwidth's media upload lists `application/json` first among its file types, its schema a
/// binary string: the body was imported as a JSON string, so a file could not be sent.
#[test]
fn a_json_media_type_of_bytes_is_a_file_sent_as_it_is() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/media/{name}": { "put": {
            "operationId": "upload_media",
            "parameters": [{ "name": "name", "in": "path", "required": true,
                             "schema": { "type": "string" } }],
            "requestBody": { "required": true, "content": {
                "application/json": { "schema": { "type": "string", "format": "binary" } },
                "image/png": { "schema": { "type": "string", "format": "binary" } }
            } },
            "responses": { "204": { "description": "stored" } }
        } } }
    });
    let imported = import(&doc);
    assert!(
        imported.yaml.contains("body_encoding: binary"),
        "{}",
        imported.yaml
    );
    let service = checked(&imported);
    assert_eq!(service.operations[0].body, Some(Ty::Bytes));
}

/// Schema `default`s were dropped (Bandwidth's `answerMethod`: `POST`, on the enum it names):
/// the spec keeps one that is a value of the field's type, the client's docs say it, the
/// export writes it back, and the checker refuses one of another type.
#[test]
fn a_fields_default_is_kept_shown_exported_and_checked() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/calls": { "post": {
            "operationId": "create_call",
            "requestBody": { "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/Call" } } } },
            "responses": { "201": { "description": "ok", "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/Call" } } } } }
        } } },
        "components": { "schemas": {
            "Method": { "type": "string", "enum": ["GET", "POST"], "default": "POST" },
            "Call": { "type": "object", "properties": {
                "answerMethod": { "$ref": "#/components/schemas/Method" },
                "timeout": { "type": "integer", "default": 30 },
                "label": { "type": "string", "default": "10" },
                "odd": { "type": "integer", "default": "soon" }
            } }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let default = |wire: &str| field(&service, "Call", wire).default.clone();
    assert_eq!(default("answerMethod"), Some(json!("POST")));
    assert_eq!(default("timeout"), Some(json!(30)));
    // Text that reads as a number stays text.
    assert_eq!(default("label"), Some(json!("10")));
    assert_eq!(default("odd"), None);
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    assert!(
        code.contains(r#"/// The service takes `"POST"` when it is left out."#),
        "{code}"
    );
    let exported = tidings_codegen::export::openapi::document(&service);
    let timeout = &exported["components"]["schemas"]["Call"]["properties"]["timeout"];
    assert!(timeout.to_string().contains("\"default\":30"), "{timeout}");

    let wrong = imported.yaml.replacen("default: 30", "default: thirty", 1);
    assert_ne!(wrong, imported.yaml);
    let loaded = load::load_str("found.yaml", &wrong).unwrap();
    let refused = check::check(&loaded).unwrap_err().to_string();
    assert!(refused.contains("is not a value of `integer`"), "{refused}");
}

/// Novu's error `message` is one of a string, a number, a boolean, an object or a list: the
/// message path was `none`, so every error lost its text.
#[test]
fn an_error_message_that_may_be_text_is_read() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/subscribers": { "post": {
            "operationId": "create_subscriber",
            "responses": {
                "201": { "description": "ok" },
                "400": { "description": "bad", "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/ErrorDto" } } } }
            }
        } } },
        "components": { "schemas": { "ErrorDto": {
            "type": "object",
            "required": ["statusCode", "message"],
            "properties": {
                "statusCode": { "type": "number" },
                "message": { "oneOf": [
                    { "type": "string" }, { "type": "number" }, { "type": "boolean" },
                    { "type": "object" }, { "type": "array", "items": { "type": "string" } }
                ] }
            }
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let errors = service.errors.as_ref().unwrap();
    assert_eq!(
        errors.message.as_deref(),
        Some("message"),
        "{}",
        imported.yaml
    );
}

/// Ably's history takes `limit` 100 and `direction` `backwards` when they are left out, Novu's
/// lists `page` 0: a parameter's default was dropped without a word (and the export lost it).
#[test]
fn a_parameters_default_is_kept_shown_exported_and_checked() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/channels/{channel_id}/messages": { "get": {
            "operationId": "get_messages",
            "parameters": [
                { "name": "channel_id", "in": "path", "required": true, "schema": { "type": "string" } },
                { "name": "limit", "in": "query", "schema": { "type": "integer", "default": 100, "maximum": 1000 } },
                { "name": "direction", "in": "query", "schema": { "type": "string", "enum": ["forwards", "backwards"], "default": "backwards" } },
                { "name": "odd", "in": "query", "schema": { "type": "boolean", "default": "yes" } }
            ],
            "responses": { "200": { "description": "ok" } }
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let op = service
        .operations
        .iter()
        .find(|o| o.name == "get_messages")
        .unwrap();
    let default = |wire: &str| {
        op.query
            .iter()
            .find(|p| p.wire == wire)
            .unwrap()
            .default
            .clone()
    };
    assert_eq!(default("limit"), Some(json!(100)));
    assert_eq!(default("direction"), Some(json!("backwards")));
    assert_eq!(default("odd"), None);
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    assert!(
        code.contains(r#"The service takes `"backwards"` when it is left out."#),
        "{code}"
    );
    let exported = tidings_codegen::export::openapi::document(&service);
    let params =
        exported["paths"]["/channels/{channel_id}/messages"]["get"]["parameters"].to_string();
    assert!(params.contains("\"default\":100"), "{params}");

    let wrong = imported.yaml.replacen("default: 100", "default: many", 1);
    assert_ne!(wrong, imported.yaml);
    let loaded = load::load_str("found.yaml", &wrong).unwrap();
    let refused = check::check(&loaded).unwrap_err().to_string();
    assert!(refused.contains("is not a value of `integer`"), "{refused}");
}

/// Novu's lists answer `{"data": {"data": [...], "next": "<cursor>", "totalCount": 3}}` and take
/// the cursor back as `after`: the page one level down was not seen, so thirteen lists had no
/// `pagination` and the report did not count them as lists.
#[test]
fn a_page_the_answer_wraps_is_paged() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/v2/subscribers": { "get": {
            "operationId": "list_subscribers",
            "parameters": [
                { "name": "after", "in": "query", "schema": { "type": "string" } },
                { "name": "limit", "in": "query", "schema": { "type": "number" } }
            ],
            "responses": { "200": { "description": "ok", "content": { "application/json": {
                "schema": { "properties": { "data": { "$ref": "#/components/schemas/ListDto" } } }
            } } } }
        } } },
        "components": { "schemas": {
            "ListDto": { "type": "object", "required": ["data", "next"], "properties": {
                "data": { "type": "array", "items": { "$ref": "#/components/schemas/Subscriber" } },
                "next": { "type": "string", "nullable": true,
                          "description": "The cursor for the next page of results." },
                "totalCount": { "type": "number" }
            } },
            "Subscriber": { "type": "object", "properties": { "subscriberId": { "type": "string" } } }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let op = service
        .operations
        .iter()
        .find(|o| o.name == "list_subscribers")
        .unwrap();
    let pages = op
        .pagination
        .as_ref()
        .unwrap_or_else(|| panic!("{}", imported.yaml));
    assert_eq!(pages.items_field, "data.data");
    assert_eq!(
        format!("{:?}", pages.style),
        r#"Token { token_field: "data.next", token_param: "after" }"#
    );
}

/// Sinch's `msisdn` (`{type: string, format: e.164}`, named by `$ref` from each field that
/// holds a number): the format, bounds and docs were lost on every such field and list item;
/// and `e.164` is the spec's `e164`.
#[test]
fn a_reference_to_a_plain_text_schema_keeps_its_format_bounds_and_docs() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/batches": { "post": {
            "operationId": "send_batch",
            "requestBody": { "content": { "application/json": { "schema": {
                "type": "object", "required": ["to"],
                "properties": {
                    "to": { "type": "array", "items": { "$ref": "#/components/schemas/msisdn" } },
                    "from": { "$ref": "#/components/schemas/msisdn" },
                    "reply_to": { "type": "string", "format": "E.164" }
                }
            } } } },
            "responses": ok()
        } } },
        "components": { "schemas": {
            "msisdn": { "type": "string", "format": "e.164", "maxLength": 15,
                        "description": "A phone number." }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let ty = &service.operations[0].body.as_ref().unwrap().to_string();
    for wire in ["to", "from", "reply_to"] {
        let f = field(&service, ty, wire);
        assert_eq!(
            f.format.map(|f| f.to_string()).as_deref(),
            Some("e164"),
            "{wire}: {}",
            imported.yaml
        );
        if wire != "reply_to" {
            assert_eq!(f.constraints.max_len, Some(15), "{wire}");
        }
    }
    assert_eq!(
        field(&service, ty, "from").doc.as_deref(),
        Some("A phone number.")
    );
    assert!(
        !imported.report.to_string().contains("e.164"),
        "{}",
        imported.report
    );
}

/// Telnyx's nullable scalar components (`WebhookTimeoutSecs: {type: [integer, "null"],
/// maximum: 30}`, `ConferenceSid: {type: [string, "null"], format: uuid}`), named by `$ref`:
/// their format, bounds and docs were lost without a report line (a plain `type: string`
/// kept them).
#[test]
fn a_reference_to_a_nullable_scalar_schema_keeps_its_format_bounds_and_docs() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/fax_applications": { "post": {
            "operationId": "create_fax_application",
            "requestBody": { "content": { "application/json": { "schema": {
                "type": "object",
                "properties": {
                    "conference_sid": { "$ref": "#/components/schemas/ConferenceSid" },
                    "webhook_timeout_secs": { "$ref": "#/components/schemas/WebhookTimeoutSecs" }
                }
            } } } },
            "responses": ok()
        } } },
        "components": { "schemas": {
            "ConferenceSid": { "type": ["string", "null"], "format": "uuid",
                               "description": "The conference's id." },
            "WebhookTimeoutSecs": { "type": ["integer", "null"], "minimum": 0, "maximum": 30 }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let ty = &service.operations[0].body.as_ref().unwrap().to_string();
    let sid = field(&service, ty, "conference_sid");
    assert_eq!(sid.format.map(|f| f.to_string()).as_deref(), Some("uuid"));
    assert_eq!(sid.doc.as_deref(), Some("The conference's id."));
    let secs = field(&service, ty, "webhook_timeout_secs");
    assert_eq!(secs.ty, Ty::Integer, "{}", imported.yaml);
    assert_eq!(
        (secs.constraints.min, secs.constraints.max),
        (Some(0.0), Some(30.0)),
        "{}",
        imported.yaml
    );
}

/// Telnyx's `webhook_urls` (`additionalProperties: {type: string, format: uri}`): the
/// importer wrote a format the checker refused on a map, and dropped the type and the three
/// call operations using it (Dial, Answer, Transfer). The map keeps its values' format.
#[test]
fn a_map_of_formatted_text_keeps_its_format_and_its_operation() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/calls": { "post": {
            "operationId": "dial",
            "requestBody": { "content": { "application/json": { "schema": {
                "$ref": "#/components/schemas/CallRequest"
            } } } },
            "responses": ok()
        } } },
        "components": { "schemas": { "CallRequest": {
            "type": "object",
            "properties": { "webhook_urls": {
                "type": "object",
                "additionalProperties": { "type": "string", "format": "uri" }
            } }
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    assert_eq!(service.operations.len(), 1, "{}", imported.report);
    let urls = field(&service, "CallRequest", "webhook_urls");
    assert_eq!(urls.ty, Ty::Map(Box::new(Ty::String)));
    assert_eq!(urls.format.map(|f| f.to_string()).as_deref(), Some("uri"));
    assert!(imported.report.skipped.is_empty(), "{}", imported.report);
}

/// Telnyx's list filters: `filter` (`deepObject`) with `address_book: {eq}`, an object of
/// operators, and `customer_reference: oneOf[string, {eq, contains}]`. The operators' object
/// was left out, yet its type was kept with no operation naming it, and notes pointed at a
/// `.../properties/<name>/schema` the document has not (was). The operators are parameters of
/// their own (`filter[address_book][eq]`), and no type is made for what is not kept.
#[test]
fn a_deep_object_filter_of_operators_is_a_parameter_per_operator() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/addresses": { "get": {
            "operationId": "find_addresses",
            "parameters": [{
                "name": "filter", "in": "query", "style": "deepObject", "explode": true,
                "schema": { "type": "object", "properties": {
                    "customer_reference": { "oneOf": [
                        { "type": "string" },
                        { "type": "object", "properties": {
                            "eq": { "type": "string" }, "contains": { "type": "string" } } }
                    ] },
                    "address_book": { "type": "object", "properties": { "eq": { "type": "string" } } }
                } }
            }],
            "responses": ok()
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let query: Vec<&str> = service.operations[0]
        .query
        .iter()
        .map(|q| q.wire.as_str())
        .collect();
    assert_eq!(
        query,
        ["filter[address_book][eq]", "filter[customer_reference]"],
        "{}",
        imported.yaml
    );
    assert!(service.types.is_empty(), "{}", imported.yaml);
    let raw: Value = doc;
    for finding in imported
        .report
        .approximated
        .iter()
        .chain(&imported.report.skipped)
    {
        let pointer = finding.pointer.trim_start_matches('#');
        assert!(raw.pointer(pointer).is_some(), "{finding}");
    }
}

/// Telnyx's enums: sort orders list `createdAt` and `-createdAt`, a webhook format `"1"`,
/// `"2"` and `texml`, a filter's comparison `>=`, a `line_type` `""`, a provider `telnyx`
/// and `Telnyx`. Every value with a clashing name or none was left to `Unknown` (241 of
/// them), and a default of one was dropped (was). Each gets a Rust name of its own, reported.
#[test]
fn enum_values_whose_names_clash_or_are_none_are_named() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/brands": { "get": {
            "operationId": "get_brands",
            "parameters": [{ "name": "sort", "in": "query", "schema": {
                "type": "string", "default": "-createdAt",
                "enum": ["createdAt", "-createdAt", "+createdAt"]
            } }],
            "responses": { "200": { "description": "ok", "content": { "application/json": {
                "schema": { "type": "object", "properties": {
                    "version": { "type": "string", "enum": ["1", "2", "texml"] },
                    "op": { "type": "string", "enum": [">=", "<", "=="] },
                    "line_type": { "type": "string", "enum": ["", "Wireline"] },
                    "provider": { "type": "string", "enum": ["telnyx", "Telnyx"] }
                } }
            } } } }
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let values = |ty: &str| -> Vec<(String, String)> {
        let t = service.types.iter().find(|t| t.name == ty).unwrap();
        let TypeKind::Enum(values) = &t.kind else {
            panic!("{ty} is not an enum")
        };
        values
            .iter()
            .map(|v| (v.wire.clone(), v.rust.clone()))
            .collect()
    };
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(w, r)| ((*w).to_owned(), (*r).to_owned()))
            .collect()
    };
    assert_eq!(
        values("GetBrandsSort"),
        pairs(&[
            ("createdAt", "CreatedAt"),
            ("-createdAt", "CreatedAtDesc"),
            ("+createdAt", "CreatedAtAsc")
        ]),
        "{}",
        imported.yaml
    );
    assert_eq!(
        values("GetBrandsResponseVersion"),
        pairs(&[("1", "V1"), ("2", "V2"), ("texml", "Texml")])
    );
    assert_eq!(
        values("GetBrandsResponseOp"),
        pairs(&[(">=", "Ge"), ("<", "Lt"), ("==", "Eq")])
    );
    assert_eq!(
        values("GetBrandsResponseLineType"),
        pairs(&[("", "Empty"), ("Wireline", "Wireline")])
    );
    assert_eq!(
        values("GetBrandsResponseProvider"),
        pairs(&[("telnyx", "Telnyx"), ("Telnyx", "Telnyx2")])
    );
    let sort = &service.operations[0].query[0];
    assert!(
        sort.default.is_some(),
        "the default is kept: {}",
        imported.yaml
    );
    assert!(
        !imported.report.to_string().contains("Unknown"),
        "{}",
        imported.report
    );
}

/// Telnyx's `POST /oauth/token` takes `security: [{oauth: []}, {}]`: credentials optional.
/// The `{}` was dropped without a word, and the sandbox asked for a token to hand one out
/// (was). The operation is public, reported.
#[test]
fn optional_credentials_make_a_public_operation_reported() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": { "title": "Found", "version": "1" },
        "security": [{ "bearer": [] }],
        "paths": {
            "/oauth/token": { "post": {
                "operationId": "token",
                "security": [{ "bearer": [] }, {}],
                "responses": ok()
            } },
            "/balance": { "get": { "operationId": "balance", "responses": ok() } }
        },
        "components": { "securitySchemes": {
            "bearer": { "type": "http", "scheme": "bearer" }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let token = service
        .operations
        .iter()
        .find(|o| o.name == "token")
        .unwrap();
    assert!(imported.yaml.contains("auth: none"), "{}", imported.yaml);
    assert!(
        format!("{:?}", token.auth).contains("Anonymous")
            || format!("{:?}", token.auth).contains("none"),
        "{:?}",
        token.auth
    );
    assert!(
        imported
            .report
            .to_string()
            .contains("credentials are optional")
    );
}

/// Telnyx's `enum: [true]` (a flag that must be set) was reported as an "enum of numbers".
#[test]
fn an_enum_of_booleans_is_reported_as_one() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/consents": { "post": {
            "operationId": "consent",
            "requestBody": { "content": { "application/json": { "schema": {
                "type": "object",
                "properties": { "accepted": { "type": "boolean", "enum": [true] } }
            } } } },
            "responses": ok()
        } } }
    });
    let report = import(&doc).report.to_string();
    assert!(report.contains("enum of booleans"), "{report}");
    assert!(!report.contains("enum of numbers"), "{report}");
}

/// Telnyx names two security schemes `BearerAuth` and `bearerAuth`: both became
/// `bearer_auth`, the checker refused the spec, and the import wrote nothing at all (was).
/// The second is `bearer_auth_2`, and operations name each as the document does.
#[test]
fn security_schemes_whose_names_differ_in_case_get_names_of_their_own() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": { "title": "Found", "version": "1" },
        "security": [{ "bearerAuth": [] }],
        "paths": {
            "/balance": { "get": {
                "operationId": "get_balance",
                "security": [{ "BearerAuth": [] }],
                "responses": ok()
            } },
            "/profiles": { "get": { "operationId": "list_profiles", "responses": ok() } }
        },
        "components": { "securitySchemes": {
            "BearerAuth": { "type": "http", "scheme": "bearer", "description": "API v2 key" },
            "bearerAuth": { "type": "http", "scheme": "bearer" }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let mut names: Vec<&str> = service.auth.iter().map(|a| a.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["bearer_auth", "bearer_auth_2"], "{}", imported.yaml);
    let auth_of = |op: &str| {
        let op = service.operations.iter().find(|o| o.name == op).unwrap();
        format!("{:?}", op.auth)
    };
    assert_ne!(auth_of("get_balance"), auth_of("list_profiles"));
}

/// Sinch's `page`, "The page number starting from 0." with no minimum or default: pages were
/// counted from 1, so a client asked for the second page first and never saw the first.
#[test]
fn a_page_number_its_description_counts_from_zero_starts_at_zero() {
    let list = |description: &str| {
        json!({
            "openapi": "3.0.3",
            "info": { "title": "Found", "version": "1" },
            "paths": { "/batches": { "get": {
                "operationId": "list_batches",
                "parameters": [
                    { "name": "page", "in": "query", "description": description,
                      "schema": { "type": "integer" } },
                    { "name": "page_size", "in": "query", "schema": { "type": "integer" } }
                ],
                "responses": { "200": { "description": "ok", "content": { "application/json": {
                    "schema": { "type": "object", "properties": {
                        "count": { "type": "integer" },
                        "batches": { "type": "array", "items": { "type": "object",
                            "properties": { "id": { "type": "string" } } } }
                    } }
                } } } }
            } } }
        })
    };
    let first_page = |description: &str| {
        let service = checked(&import(&list(description)));
        match &service.operations[0].pagination.as_ref().unwrap().style {
            tidings_codegen::check::PageStyle::Page { first_page, .. } => *first_page,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(first_page("The page number starting from 0."), 0);
    assert_eq!(first_page("Zero-based page index."), 0);
    assert_eq!(first_page("The page to return."), 1);
    assert_eq!(first_page("Starting from page 1; 0 is refused."), 1);
}

/// Stream's `JWT` header and `api_key` query key, required together: both schemes sent the
/// one credential `api_key`, so the JWT header carried the API key.
#[test]
fn two_keys_required_together_are_two_credentials_whatever_the_schemes_are_named() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "security": [{ "JWT": [], "api_key": [] }],
        "components": { "securitySchemes": {
            "JWT": { "type": "apiKey", "in": "header", "name": "Authorization" },
            "api_key": { "type": "apiKey", "in": "query", "name": "api_key" }
        } },
        "paths": { "/things": { "get": { "operationId": "list_things", "responses": ok() } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let AuthScheme::All { schemes } = &service.auth[0].method else {
        panic!("{}", imported.yaml)
    };
    let sent: Vec<&AuthScheme<tidings_codegen::check::Owned>> = schemes.iter().collect();
    assert!(
        matches!(sent[0], AuthScheme::Header { header, credential, .. }
            if header == "Authorization" && credential == "jwt"),
        "{}",
        imported.yaml
    );
    assert!(
        matches!(sent[1], AuthScheme::Query { params } if params[0].1 == "api_key"),
        "{}",
        imported.yaml
    );
    assert!(
        imported
            .yaml
            .contains("The credential of the `api_key` security scheme.")
    );
}

/// Stream's numbers: `layers: {type: integer, enum: [1, 2]}` lost its values without a word,
/// `channels: {type: integer, enum: ["1", "2"]}` became text (so the sandbox refused `2`), and
/// 488 fields `{type: number, format: date-time}` lost their format without a word. A
/// `{type}` path parameter was renamed `param1`, its schema's description lost.
#[test]
fn numbers_keep_their_type_and_what_they_lose_is_reported() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/channels/{type}/{id}": { "post": {
            "operationId": "update_channel",
            "parameters": [
                { "name": "type", "in": "path", "required": true,
                  "schema": { "type": "string", "description": "The channel type." } },
                { "name": "id", "in": "path", "required": true, "schema": { "type": "string" } },
                { "name": "since", "in": "query", "schema": { "type": "string", "format": "ISO-8601" } }
            ],
            "requestBody": { "content": { "application/json": { "schema": {
                "type": "object",
                "properties": {
                    "layers": { "type": "integer", "enum": [1, 2] },
                    "channels": { "type": "integer", "format": "int32", "enum": ["1", "2"] },
                    "created_at": { "type": "number", "format": "date-time" }
                }
            } } } },
            "responses": ok()
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let op = &service.operations[0];
    let ty = &op.body.as_ref().unwrap().to_string();
    assert_eq!(field(&service, ty, "layers").ty, Ty::Integer);
    assert_eq!(
        field(&service, ty, "channels").ty,
        Ty::Integer,
        "{}",
        imported.yaml
    );
    assert_eq!(field(&service, ty, "created_at").ty, Ty::Number);
    let report = imported.report.to_string();
    for pointer in [
        "properties/layers:",
        "properties/channels:",
        "properties/created_at:",
    ] {
        assert!(report.contains(pointer), "{pointer}: {report}");
    }
    assert!(
        report.contains("format `ISO-8601` of a parameter"),
        "{report}"
    );
    assert_eq!(op.path, "/channels/{type_param}/{id}");
    assert_eq!(op.path_params[0].doc.as_deref(), Some("The channel type."));
}

/// Stream's `payload` (one query parameter holding JSON, `content: application/json`) was left
/// out as an "object query parameter", so six operations could not send their filters; then
/// kept as text, which the caller had to write as JSON. It is its type now, sent as its JSON
/// text (`style: json`), and exported back as `content: application/json`.
#[test]
fn a_query_parameter_holding_json_is_typed_and_travels_as_its_json_text() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/users": { "get": {
            "operationId": "query_users",
            "parameters": [{ "name": "payload", "in": "query", "required": true,
                "content": { "application/json": { "schema": { "type": "object",
                    "required": ["filter_conditions"],
                    "properties": { "filter_conditions": { "type": "object" } } } } } }],
            "responses": ok()
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let payload = &service.operations[0].query[0];
    assert_eq!(payload.wire, "payload");
    assert_eq!(
        payload.style,
        Some(tidings_codegen::model::QueryStyle::Json)
    );
    let Ty::Named(name) = &payload.ty else {
        panic!("{:?}\n{}", payload.ty, imported.yaml)
    };
    assert!(field(&service, name, "filter_conditions").required);
    assert!(payload.required);
    assert!(
        !imported.report.to_string().contains("payload"),
        "{}",
        imported.report
    );
    let exported = tidings_codegen::export::openapi::document(&service);
    let param = &exported["paths"]["/users"]["get"]["parameters"][0];
    assert_eq!(param["name"], "payload");
    assert!(param.get("schema").is_none(), "{param}");
    assert_eq!(
        param["content"]["application/json"]["schema"]["$ref"],
        format!("#/components/schemas/{name}")
    );
}

/// Stream's `Stream-Auth-Type` header, an API key scheme whose description lists the values it
/// takes (`jwt` or `anonymous`), was imported as a secret the sandbox made up, so a request
/// sending `jwt` was refused. It is a setting now: not secret, `jwt` unless set. A key whose
/// description lists nothing stays a secret.
#[test]
fn a_key_header_that_lists_its_values_is_a_setting_with_the_first_by_default() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "security": [{ "api_key": [], "stream-auth-type": [] }],
        "components": { "securitySchemes": {
            "api_key": { "type": "apiKey", "in": "query", "name": "api_key",
                "description": "Application API key. One of the keys in `Settings`." },
            "stream-auth-type": { "type": "apiKey", "in": "header", "name": "Stream-Auth-Type",
                "description": "Stream-Auth-Type should be always set. Possible\nvalues: `jwt` or `anonymous`.\n\n`jwt` allows you to authenticate as a user." }
        } },
        "paths": { "/things": { "get": { "operationId": "list_things", "responses": ok() } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let credential = |name: &str| {
        service
            .credentials
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name}\n{}", imported.yaml))
    };
    let mode = credential("stream_auth_type");
    assert!(!mode.secret);
    assert_eq!(mode.value.as_deref(), Some("jwt"));
    let key = credential("api_key");
    assert!(key.secret);
    assert_eq!(key.value, None);
    assert!(
        imported
            .report
            .to_string()
            .contains("lists the values this key takes (`jwt`, `anonymous`)"),
        "{}",
        imported.report
    );
}

/// Ably answers `2XX` with its `link` and `x-ably-serverid` headers: a `200` kept its headers,
/// the range lost them without a word.
#[test]
fn the_headers_of_a_2xx_range_answer_are_kept() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/messages": { "get": {
            "operationId": "get_messages",
            "responses": { "2XX": {
                "description": "ok",
                "headers": { "x-server-id": { "schema": { "type": "string" } } },
                "content": { "application/json": { "schema": { "type": "object",
                    "properties": { "v": { "type": "string" } } } } }
            } }
        } } }
    });
    let service = checked(&import(&doc));
    let headers: Vec<&str> = service.operations[0]
        .response_headers
        .iter()
        .map(|h| h.name.as_str())
        .collect();
    assert_eq!(headers, ["x-server-id"]);
}

/// Mandrill writes its `date-time` examples as `2020-06-01 08:15:01` (no offset). Typed as an
/// RFC 3339 date-time, the sandbox refused the document's own example and the report called
/// every example lossless. Such a field is text now, reported; an RFC 3339 example keeps the
/// date-time.
#[test]
fn a_date_time_whose_example_is_not_rfc_3339_is_text() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/messages/reschedule": { "post": {
            "operationId": "reschedule",
            "requestBody": { "required": true, "content": { "application/json": { "schema": {
                "type": "object", "required": ["send_at"],
                "properties": {
                    "send_at": { "type": "string", "format": "date-time",
                                 "example": "2020-06-01 08:15:01" },
                    "sent_at": { "type": "string", "format": "date-time",
                                 "example": "2020-06-01T08:15:01.25+02:00" },
                    "seen_at": { "type": "string", "format": "date-time" }
                } } } } },
            // An example of the whole answer shows it too (Mandrill's `created_at`).
            "responses": { "200": { "description": "ok", "content": { "application/json": {
                "schema": { "type": "object", "required": ["created_at", "updated_at"],
                    "properties": {
                        "created_at": { "type": "string", "format": "date-time" },
                        "updated_at": { "type": "string", "format": "date-time" }
                    } },
                "example": { "created_at": "2025-08-29 18:47:40.26276",
                             "updated_at": "2025-08-29T18:47:40Z" }
            } } } }
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let body = service.operations[0].body.clone().unwrap();
    let Ty::Named(body) = body else { panic!() };
    assert_eq!(field(&service, &body, "send_at").ty, Ty::String);
    assert_eq!(field(&service, &body, "sent_at").ty, Ty::DateTime);
    assert_eq!(field(&service, &body, "seen_at").ty, Ty::DateTime);
    let Some(Ty::Named(answer)) = service.operations[0].response.clone() else {
        panic!()
    };
    assert_eq!(field(&service, &answer, "created_at").ty, Ty::String);
    assert_eq!(field(&service, &answer, "updated_at").ty, Ty::DateTime);
    assert!(
        imported
            .report
            .to_string()
            .contains("its example `2020-06-01 08:15:01` is not an RFC 3339 date-time"),
        "{}",
        imported.report
    );
}

/// Bandwidth's `to: {uniqueItems: true}` and Ably's `limit: {type: integer, default: "100"}`
/// were dropped without a word. The first is reported (the spec has no such check); a number
/// written as text is that number; a default that is no value of the type is reported.
#[test]
fn unique_items_and_defaults_of_another_json_type_are_not_dropped_silently() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/messages": { "post": {
            "operationId": "send",
            "parameters": [
                { "name": "limit", "in": "query", "schema": { "type": "integer", "default": "100" } },
                { "name": "size", "in": "query", "schema": { "type": "integer", "default": "big" } }
            ],
            "requestBody": { "required": true, "content": { "application/json": { "schema": {
                "type": "object", "required": ["to"],
                "properties": { "to": { "type": "array", "uniqueItems": true,
                                        "items": { "type": "string" } } } } } } },
            "responses": ok()
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let query = &service.operations[0].query;
    assert_eq!(query[0].default, Some(json!(100)));
    assert_eq!(query[1].default, None);
    let report = imported.report.to_string();
    assert!(report.contains("`uniqueItems`"), "{report}");
    assert!(
        report.contains("default `\"big\"` is not a value of the type `integer`"),
        "{report}"
    );
}

/// Mandrill declares no security scheme: every request body is `allOf: [{$ref: ApiKey}, ...]`,
/// `ApiKey` holding `key`, "A valid Mandrill API key". The key stayed a field of 84 request
/// types, a secret passed by hand on every call, and the sandbox took any key. It is a `body`
/// auth scheme now, out of the request types. A `key` that its description does not call an
/// API key stays a field.
#[test]
fn an_api_key_every_body_carries_through_all_of_is_a_body_auth_scheme() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": { "title": "Found", "version": "1" },
        "paths": {
            "/messages/send": { "post": {
                "operationId": "messages/send",
                "requestBody": { "required": true, "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/SendRequest" } } } },
                "responses": ok()
            } },
            "/users/ping": { "post": {
                "operationId": "users/ping",
                "requestBody": { "required": true, "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/ApiKey" } } } },
                "responses": ok()
            } }
        },
        "components": { "schemas": {
            "ApiKey": { "type": "object", "required": ["key"], "properties": {
                "key": { "type": "string", "description": "A valid Mandrill API key" } } },
            "SendRequest": { "allOf": [
                { "$ref": "#/components/schemas/ApiKey" },
                { "type": "object", "properties": { "text": { "type": "string" } } }
            ] }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    assert_eq!(
        service.auth[0].method,
        AuthScheme::Body {
            fields: vec![("key".to_owned(), "key".to_owned())]
        },
        "{}",
        imported.yaml
    );
    assert!(
        service
            .credentials
            .iter()
            .any(|c| c.name == "key" && c.secret)
    );
    let send = service
        .types
        .iter()
        .find(|t| t.name == "SendRequest")
        .unwrap();
    let TypeKind::Object(fields) = &send.kind else {
        panic!()
    };
    let wires: Vec<&str> = fields.iter().map(|f| f.wire.as_str()).collect();
    assert_eq!(wires, ["text"]);
    // The body that is `ApiKey` itself loses the key too (it stayed, required: the sandbox
    // took it out as a credential and then refused every such body as missing it).
    let ping = service
        .operations
        .iter()
        .find(|o| o.path == "/users/ping")
        .unwrap();
    let Some(Ty::Named(body)) = &ping.body else {
        panic!("{:?}", ping.body)
    };
    let ty = service.types.iter().find(|t| &t.name == body).unwrap();
    assert!(
        matches!(&ty.kind, TypeKind::Object(f) if f.is_empty()),
        "{}",
        imported.yaml
    );

    // A record's `key` is no credential.
    let mut kv = doc.clone();
    kv["components"]["schemas"]["ApiKey"]["properties"]["key"]["description"] =
        json!("The record's key.");
    let imported = import(&kv);
    let service = checked(&imported);
    assert!(service.auth.is_empty(), "{}", imported.yaml);
}

/// Mandrill's every operation answers 401 with `InvalidKeyError` (`allOf: [Error, {name: enum
/// [Invalid_Key]}]`) and other statuses with `Error`'s other subtypes. The most shared schema,
/// the 401's, became the service's error type, so every sandbox error said `Invalid_Key`. The
/// base the subtypes extend is the service's error type now.
#[test]
fn the_base_that_error_subtypes_extend_is_the_service_error_type() {
    let error = |status: &str, schema: &str| {
        json!({ "description": status, "content": { "application/json": {
            "schema": { "$ref": format!("#/components/schemas/{schema}") } } } })
    };
    let mut responses = serde_json::Map::new();
    responses.insert("200".into(), json!({ "description": "ok" }));
    responses.insert("401".into(), error("bad key", "InvalidKeyError"));
    responses.insert("500".into(), error("failed", "ServerError"));
    let op = |id: &str| json!({ "operationId": id, "responses": responses.clone() });
    let doc = json!({
        "openapi": "3.1.0",
        "info": { "title": "Found", "version": "1" },
        "paths": {
            "/a": { "post": op("a") },
            "/b": { "post": op("b") },
            "/c": { "post": { "operationId": "c", "responses": {
                "200": { "description": "ok" },
                "401": error("bad key", "InvalidKeyError")
            } } }
        },
        "components": { "schemas": {
            "Error": { "type": "object", "required": ["code", "name", "message"], "properties": {
                "code": { "type": "integer" }, "name": { "type": "string" },
                "message": { "type": "string" } } },
            "InvalidKeyError": { "allOf": [
                { "$ref": "#/components/schemas/Error" },
                { "type": "object", "properties": {
                    "name": { "type": "string", "enum": ["Invalid_Key"] } } }
            ] },
            "ServerError": { "allOf": [{ "$ref": "#/components/schemas/Error" }] }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let errors = service.errors.as_ref().unwrap();
    assert_eq!(
        errors.ty,
        Some(Ty::Named("Error".to_owned())),
        "{}",
        imported.yaml
    );
}

/// Ably's `GET /channels` answers one of two lists (the channels' details, or their names):
/// it was neither paged nor counted among the lists left unpaged.
#[test]
fn a_list_answering_one_of_several_arrays_is_counted_unpaged() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/channels": { "get": {
            "operationId": "list_channels",
            "parameters": [{ "name": "limit", "in": "query", "schema": { "type": "integer" } }],
            "responses": { "200": { "description": "ok", "content": { "application/json": {
                "schema": { "oneOf": [
                    { "type": "array", "items": { "$ref": "#/components/schemas/Channel" } },
                    { "type": "array", "items": { "type": "string" } }
                ] } } } } }
        } } },
        "components": { "schemas": { "Channel": { "type": "object",
            "properties": { "id": { "type": "string" } } } } }
    });
    let imported = import(&doc);
    let report =
        tidings_codegen::import::fidelity_report(&doc.to_string(), &imported, "found.yaml")
            .unwrap();
    assert_eq!(report.lists_paged, 0);
    assert_eq!(report.lists_unpaged.len(), 1, "{report:#?}");
    assert!(
        report.lists_unpaged[0]
            .reason
            .contains("one of several lists"),
        "{report:#?}"
    );
}

/// Knock's lists page with `?after=` and give the next cursor as `page_info.after`, a field
/// named as the parameter it goes back in: it was not read as a token ("the page shows no
/// ... cursor"), and none of its 18 lists was paged. Its `callbacks: {}` on every operation
/// made 118 report lines about nothing; ClickSend's bodies without `required: true` became
/// required with no line.
#[test]
fn a_cursor_named_as_its_parameter_pages_and_an_optional_body_is_reported() {
    let doc = json!({
        "openapi": "3.0.0",
        "info": { "title": "Found", "version": "1" },
        "paths": {
            "/v1/users": {
                "get": {
                    "operationId": "listUsers",
                    "parameters": [
                        { "name": "after", "in": "query", "schema": { "type": "string" } },
                        { "name": "before", "in": "query", "schema": { "type": "string" } },
                        { "name": "page_size", "in": "query", "schema": { "type": "integer" } }
                    ],
                    "callbacks": {},
                    "responses": { "200": { "description": "ok", "content": { "application/json": {
                        "schema": { "type": "object", "required": ["entries", "page_info"], "properties": {
                            "entries": { "type": "array", "items": { "$ref": "#/components/schemas/User" } },
                            "page_info": { "type": "object", "properties": {
                                "after": { "type": "string", "nullable": true },
                                "before": { "type": "string", "nullable": true },
                                "page_size": { "type": "integer" } } } } } } } } }
                },
                "post": {
                    "operationId": "createUser",
                    "requestBody": { "content": { "application/json": {
                        "schema": { "$ref": "#/components/schemas/User" } } } },
                    "responses": ok()
                }
            }
        },
        "components": { "schemas": { "User": { "type": "object", "properties": {
            "id": { "type": "string" }, "name": { "type": "string" } } } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let list = service
        .operations
        .iter()
        .find(|o| o.name == "list_users")
        .unwrap();
    let pages = list
        .pagination
        .as_ref()
        .unwrap_or_else(|| panic!("{}", imported.yaml));
    let PageStyle::Token {
        token_field,
        token_param,
    } = &pages.style
    else {
        panic!("{:?}", pages.style)
    };
    assert_eq!(
        (
            token_field.as_str(),
            token_param.as_str(),
            pages.limit_param.as_deref()
        ),
        ("page_info.after", "after", Some("page_size")),
    );
    let report = &imported.report;
    assert!(
        !report
            .skipped
            .iter()
            .any(|f| f.pointer.contains("callbacks")),
        "{:?}",
        report.skipped
    );
    let optional: Vec<&str> = report
        .approximated
        .iter()
        .filter(|f| f.reason.contains("the body is optional"))
        .map(|f| f.pointer.as_str())
        .collect();
    assert_eq!(optional, ["#/paths/~1v1~1users/post/requestBody"]);
}

/// Knock's user invites other keys (`additionalProperties: true`, "any additional properties
/// you'd like to upsert"), ClickSend's subaccount says nothing of them: both keep other keys
/// in clients (`additional: json`), but only the user's service keeps and answers them back
/// (`keeps_other_keys`), so `--spec` echoes no undeclared key of the subaccount.
#[test]
fn only_a_type_that_invites_other_keys_keeps_them() {
    let doc = json!({
        "openapi": "3.0.0",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/things": { "post": {
            "operationId": "make",
            "requestBody": { "required": true, "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/Silent" } } } },
            "responses": { "200": { "description": "ok", "content": { "application/json": {
                "schema": { "type": "object", "properties": {
                    "user": { "$ref": "#/components/schemas/User" },
                    "typed": { "$ref": "#/components/schemas/Typed" },
                    "closed": { "$ref": "#/components/schemas/Closed" } } } } } } }
        } } },
        "components": { "schemas": {
            "User": { "type": "object", "additionalProperties": true,
                "properties": { "id": { "type": "string" } } },
            "Typed": { "type": "object", "additionalProperties": { "type": "string" },
                "properties": { "id": { "type": "string" } } },
            "Silent": { "type": "object", "properties": { "id": { "type": "string" } } },
            "Closed": { "type": "object", "additionalProperties": false,
                "properties": { "id": { "type": "string" } } }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let keeps = |name: &str| {
        let t = service.types.iter().find(|t| t.name == name).unwrap();
        (t.additional.is_some(), t.keeps_other_keys)
    };
    assert_eq!(keeps("User"), (true, true), "{}", imported.yaml);
    assert_eq!(keeps("Typed"), (true, true));
    assert_eq!(keeps("Silent"), (true, false));
    assert_eq!(keeps("Closed"), (false, false));

    // Written by hand, it needs the type of the other keys.
    let user = "additional: json\n    keeps_other_keys: true";
    assert!(imported.yaml.contains(user), "{}", imported.yaml);
    let text = imported.yaml.replace(user, "keeps_other_keys: true");
    let loaded = load::load_str("found.yaml", &text).unwrap();
    let errors = check::check(&loaded).unwrap_err().to_string();
    assert!(
        errors.contains("`keeps_other_keys` needs `additional`"),
        "{errors}"
    );
}

/// Slack's Web API (slackapi/slack-api-specs, web-api/slack_web_openapi_v2.json) declares an
/// OAuth2 scheme on every operation and, beside it, a `token` parameter ("Authentication
/// token", required in 123 of 174 operations, in a header or the query): a client sending
/// only the bearer, as Slack's own SDKs do, was refused. The scheme sends it; a `token`
/// parameter on an operation without security stays.
#[test]
fn a_token_parameter_the_security_scheme_sends_is_left_to_the_scheme() {
    let token = |place: &str| {
        json!({ "name": "token", "in": place, "required": true, "type": "string",
                "description": "Authentication token. Requires scope: `chat:write`" })
    };
    let doc = json!({
        "swagger": "2.0",
        "info": { "title": "Found", "version": "1" },
        "host": "slack.example.com",
        "securityDefinitions": { "slackAuth": { "type": "oauth2", "flow": "accessCode",
            "authorizationUrl": "https://slack.example.com/oauth", "tokenUrl": "https://slack.example.com/token",
            "scopes": { "chat:write": "chat:write" } } },
        "paths": {
            "/chat.postMessage": { "post": {
                "operationId": "chat_postMessage",
                "security": [{ "slackAuth": ["chat:write"] }],
                "parameters": [token("header"), { "name": "channel", "in": "query", "required": true, "type": "string" }],
                "responses": ok()
            } },
            "/apps.list": { "get": {
                "operationId": "apps_list",
                "security": [{ "slackAuth": ["chat:write"] }],
                "parameters": [token("query")],
                "responses": ok()
            } },
            "/oauth.access": { "get": {
                "operationId": "oauth_access",
                "security": [],
                "parameters": [token("query")],
                "responses": ok()
            } },
            // In a form (15 methods): the conversion folded it into the body, where the check
            // above never saw it; every bearer client had to send its token a second time.
            "/admin.emoji.add": { "post": {
                "operationId": "admin_emoji_add",
                "security": [{ "slackAuth": ["chat:write"] }],
                "consumes": ["application/x-www-form-urlencoded"],
                "parameters": [token("formData"), { "name": "name", "in": "formData", "required": true, "type": "string" }],
                "responses": ok()
            } },
            "/users.deletePhoto": { "post": {
                "operationId": "users_deletePhoto",
                "security": [{ "slackAuth": ["chat:write"] }],
                "consumes": ["application/x-www-form-urlencoded"],
                "parameters": [token("formData")],
                "responses": ok()
            } },
            "/oauth.v2.exchange": { "post": {
                "operationId": "oauth_v2_exchange",
                "security": [],
                "consumes": ["application/x-www-form-urlencoded"],
                "parameters": [token("formData")],
                "responses": ok()
            } }
        }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let op = |name: &str| service.operations.iter().find(|o| o.name == name).unwrap();
    let wires = |name: &str| -> Vec<String> {
        let o = op(name);
        o.query
            .iter()
            .chain(&o.headers)
            .map(|p| p.wire.clone())
            .collect()
    };
    assert_eq!(wires("chat_post_message"), ["channel"], "{}", imported.yaml);
    assert!(wires("apps_list").is_empty(), "{}", imported.yaml);
    assert_eq!(
        wires("oauth_access"),
        ["token"],
        "an operation without security keeps it"
    );
    let body_fields = |name: &str| -> Option<Vec<String>> {
        let Ty::Named(body) = op(name).body.clone()? else {
            panic!("{name}'s body is no named type")
        };
        let t = service.types.iter().find(|t| t.name == body).unwrap();
        let TypeKind::Object(fields) = &t.kind else {
            panic!("{body} is not an object")
        };
        Some(fields.iter().map(|f| f.wire.clone()).collect())
    };
    assert_eq!(
        body_fields("admin_emoji_add"),
        Some(vec!["name".to_owned()])
    );
    assert_eq!(body_fields("users_delete_photo"), None, "{}", imported.yaml);
    assert_eq!(
        body_fields("oauth_v2_exchange"),
        Some(vec!["token".to_owned()]),
        "an operation without security keeps it"
    );
    let said: Vec<&str> = imported
        .report
        .inferred
        .iter()
        .filter(|f| f.reason.contains("security scheme sends"))
        .map(|f| f.pointer.as_str())
        .collect();
    assert_eq!(
        said,
        [
            "#/paths/~1admin.emoji.add/post/parameters",
            "#/paths/~1apps.list/get/parameters/0",
            "#/paths/~1chat.postMessage/post/parameters/0",
            "#/paths/~1users.deletePhoto/post/parameters",
        ],
        "{}",
        imported.report
    );
}

/// Novu (novuhq/novu-ts, sources/json-development.json): `ErrorDto.errorId` is "only available
/// for 500"; read as every error's code, a 404 answered `errorId: "not_found"`. A field of a
/// weak code name described as present on server errors only is no code; without that
/// description it still is.
#[test]
fn an_error_id_present_on_server_errors_only_is_not_the_code() {
    let doc = |described: &str| {
        json!({
            "openapi": "3.0.0",
            "info": { "title": "Found", "version": "1" },
            "paths": { "/things/{id}": { "get": {
                "operationId": "get_thing",
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
                "responses": {
                    "200": { "description": "ok" },
                    "404": { "description": "missing", "content": { "application/json": {
                        "schema": { "$ref": "#/components/schemas/ErrorDto" } } } }
                }
            } } },
            "components": { "schemas": { "ErrorDto": {
                "type": "object",
                "required": ["statusCode", "path"],
                "properties": {
                    "statusCode": { "type": "number" },
                    "path": { "type": "string" },
                    "message": { "type": "string" },
                    "errorId": { "type": "string", "description": described }
                }
            } } }
        })
    };
    let code = |described: &str| {
        let service = checked(&import(&doc(described)));
        service.errors.as_ref().unwrap().code.clone()
    };
    assert_eq!(code("Unique identifier, only available for 500."), None);
    assert_eq!(
        code("Unique identifier of the error."),
        Some("errorId".to_owned())
    );
}

/// An error answer's example is kept up to 2 KiB of JSON (Mandrill's are a few fields); a
/// larger one is left out, not written into every operation that answers it.
#[test]
fn an_error_example_over_its_bound_is_not_kept() {
    let doc = |message: String| {
        json!({
            "openapi": "3.0.0",
            "info": { "title": "Found", "version": "1" },
            "paths": { "/things/{id}": { "get": {
                "operationId": "get_thing",
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
                "responses": {
                    "200": { "description": "ok" },
                    "404": { "description": "missing", "content": { "application/json": {
                        "schema": { "$ref": "#/components/schemas/NotFound" } } } }
                }
            } },
            // Two answers of the service's own error type, so `NotFound` is one operation's.
            "/a": { "get": { "operationId": "get_a", "responses": { "200": { "description": "ok" },
                "400": { "description": "bad", "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/Error" } } } } } } },
            "/b": { "get": { "operationId": "get_b", "responses": { "200": { "description": "ok" },
                "400": { "description": "bad", "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/Error" } } } } } } } },
            "components": { "schemas": {
                "Error": { "type": "object", "properties": {
                    "code": { "type": "integer" }, "message": { "type": "string" } } },
                "NotFound": { "allOf": [{ "$ref": "#/components/schemas/Error" }],
                    "example": { "code": 5, "message": message } }
            } }
        })
    };
    let small = import(&doc("No such thing".into()));
    assert!(small.yaml.contains("example:"), "{}", small.yaml);
    let large = import(&doc("x".repeat(2100)));
    assert!(!large.yaml.contains("example:"), "{}", large.yaml);
    // Left out, and said so.
    let said = |imported: &Imported, words: &str| {
        imported
            .report
            .skipped
            .iter()
            .any(|f| f.pointer.ends_with("/responses/404") && f.reason.contains(words))
    };
    assert!(
        said(&large, "over the 2048 kept"),
        "{:?}",
        large.report.skipped
    );
    assert!(!said(&small, "example"), "{:?}", small.report.skipped);
}

/// An error example of another shape than the answer's schema is left out, and the report
/// names the keys that do not fit (Infobip's 404 example is an older `requestError` shape
/// beside its `ApiError` schema). One of the service's own shape, on an operation whose error
/// answers are all the service's, is kept on that operation (Slack's `channel_not_found` of
/// `conversations.info`, `name_taken` of `conversations.create`).
#[test]
fn an_error_example_is_kept_per_operation_or_reported_left_out() {
    let answer = |example: Value| {
        json!({ "description": "error", "content": { "application/json": {
            "schema": { "$ref": "#/components/schemas/Error" }, "example": example } } })
    };
    let imported = import(&json!({
        "openapi": "3.0.0",
        "info": { "title": "Found", "version": "1" },
        "paths": {
            "/a": { "get": { "operationId": "get_a", "responses": { "200": { "description": "ok" },
                "404": answer(json!({ "ok": false, "error": "channel_not_found" })) } } },
            "/b": { "get": { "operationId": "get_b", "responses": { "200": { "description": "ok" },
                "404": answer(json!({ "requestError": { "text": "gone" } })) } } }
        },
        "components": { "schemas": {
            "Error": { "type": "object", "properties": {
                "ok": { "type": "boolean" }, "error": { "type": "string" } } }
        } }
    }));
    let spec: serde_yaml::Value = serde_yaml::from_str(&imported.yaml).unwrap();
    let example = &spec["operations"]["get_a"]["error_bodies"]["404"]["example"];
    assert_eq!(
        example["error"].as_str(),
        Some("channel_not_found"),
        "{}",
        imported.yaml
    );
    assert!(
        spec["operations"]["get_b"].get("error_bodies").is_none(),
        "{}",
        imported.yaml
    );
    let left_out = imported
        .report
        .skipped
        .iter()
        .find(|f| f.pointer.contains("~1b/get/responses/404"))
        .unwrap_or_else(|| panic!("{:?}", imported.report.skipped));
    assert!(
        left_out
            .reason
            .contains("key `requestError` is not a field of `Error`"),
        "{}",
        left_out.reason
    );
}

/// Intercom (intercom/Intercom-OpenAPI, descriptions/2.16): `create_contact_request` has 12
/// properties and `anyOf: [{required: [email]}, {required: [external_id]}, {required:
/// [role]}]` ("send at least one"). Read as an untagged union of three `json` variants, every
/// property was dropped and `POST /contacts` checked nothing. Alternatives that hold more than
/// a `required` list stay a union.
#[test]
fn alternatives_that_only_require_fields_keep_the_object_s_properties() {
    let doc = json!({
        "openapi": "3.0.1",
        "info": { "title": "Found", "version": "1" },
        "components": { "schemas": {
            "create_contact_request": {
                "type": "object",
                "properties": {
                    "email": { "type": "string" },
                    "external_id": { "type": "string" },
                    "signed_up_at": { "type": "integer" }
                },
                "anyOf": [ { "required": ["email"] }, { "required": ["external_id"] } ]
            },
            "reply": {
                "type": "object",
                "properties": { "body": { "type": "string" } },
                "oneOf": [
                    { "required": ["body"], "properties": { "admin_id": { "type": "string" } } },
                    { "required": ["body"], "properties": { "user_id": { "type": "string" } } }
                ]
            }
        } },
        "paths": {
            "/contacts": { "post": {
                "operationId": "createContact",
                "requestBody": { "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/create_contact_request" } } } },
                "responses": ok()
            } },
            "/replies": { "post": {
                "operationId": "reply",
                "requestBody": { "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/reply" } } } },
                "responses": ok()
            } }
        }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    assert_eq!(
        field(&service, "CreateContactRequest", "signed_up_at").ty,
        Ty::Integer
    );
    assert!(!field(&service, "CreateContactRequest", "email").required);
    let reply = service.types.iter().find(|t| t.name == "Reply").unwrap();
    assert!(
        matches!(reply.kind, TypeKind::Untagged { .. }),
        "a real union stays one: {}",
        imported.yaml
    );
    let said: Vec<&str> = imported
        .report
        .approximated
        .iter()
        .filter(|f| f.reason.contains("only require fields"))
        .map(|f| f.reason.as_str())
        .collect();
    assert_eq!(
        said,
        [
            "`anyOf` of alternatives that only require fields: at least one of `email`, \
          `external_id` must be sent (needs spec construct: one of several fields required); \
          the object keeps its properties, those optional"
        ],
        "{}",
        imported.report
    );
}

/// Intercom (descriptions/2.16): `create_conversation_request.from.id` is `format: uuid` and
/// exactly 24 characters (its example `536e564f316c83104c000020`, a 24-hex id). No value met
/// both: the document's own example was refused, and `POST /conversations` never succeeded.
/// A UUID format its lengths or its example contradict is dropped and reported.
#[test]
fn a_uuid_format_its_lengths_or_example_contradict_is_not_kept() {
    let doc = json!({
        "openapi": "3.0.1",
        "info": { "title": "Found", "version": "1" },
        "components": { "schemas": { "conversation": { "type": "object", "properties": {
            "contact_id": { "type": "string", "format": "uuid", "minLength": 24, "maxLength": 24 },
            "admin_id": { "type": "string", "format": "uuid", "example": "6762f11b1bb69f9f2193bba3" },
            "request_id": { "type": "string", "format": "uuid", "example": "123e4567-e89b-12d3-a456-426614174000" }
        } } } },
        "paths": { "/conversations": { "post": {
            "operationId": "createConversation",
            "requestBody": { "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/conversation" } } } },
            "responses": ok()
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let contact = field(&service, "Conversation", "contact_id");
    assert_eq!(
        (contact.format, contact.constraints.max_len),
        (None, Some(24))
    );
    assert_eq!(field(&service, "Conversation", "admin_id").format, None);
    assert_eq!(
        field(&service, "Conversation", "request_id").format,
        Some(tidings_spec::Format::Uuid),
        "a UUID its example shows stays one"
    );
    let said = imported
        .report
        .approximated
        .iter()
        .filter(|f| f.reason.starts_with("format `uuid` not kept"))
        .count();
    assert_eq!(said, 2, "{}", imported.report);
}

/// Discord (discord/discord-api-spec, specs/openapi.json): a webhook's `type` is `{type:
/// integer, enum: [1], allOf: [WebhookTypes]}`. The values beside `allOf` were dropped with
/// no word in the report.
#[test]
fn values_beside_one_all_of_schema_are_reported_when_not_kept() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": { "title": "Found", "version": "1" },
        "components": { "schemas": {
            "WebhookTypes": { "type": "integer", "minimum": 1, "maximum": 3 },
            "Hook": { "type": "object", "properties": {
                "type": { "type": "integer", "enum": [1],
                          "allOf": [ { "$ref": "#/components/schemas/WebhookTypes" } ] }
            } }
        } },
        "paths": { "/hooks": { "get": {
            "operationId": "getHook",
            "responses": { "200": { "description": "ok", "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/Hook" } } } } }
        } } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    assert_eq!(field(&service, "Hook", "type").ty, Ty::Integer);
    let said: Vec<(&str, &str)> = imported
        .report
        .approximated
        .iter()
        .filter(|f| f.reason.contains("beside `allOf`"))
        .map(|f| (f.pointer.as_str(), f.reason.as_str()))
        .collect();
    assert_eq!(
        said,
        [(
            "#/components/schemas/Hook/properties/type",
            "values [1] beside `allOf` not kept: typed as its schema"
        )],
        "{}",
        imported.report
    );
}

/// Azure's data-plane documents (Communication Services' Chat) refer to shared definitions in
/// other files (`../Common/.../common.json#/definitions/CommunicationIdentifierModel`): read
/// beside the document, they are brought in, so a thread's `owner` and the error shape are
/// kept (every such field was dropped, with "external $ref not followed").
#[test]
fn definitions_in_other_files_are_read_beside_the_document() {
    let root = tempfile::tempdir().unwrap();
    let common = root.path().join("Common/stable");
    std::fs::create_dir_all(&common).unwrap();
    std::fs::create_dir_all(root.path().join("Chat/stable")).unwrap();
    let shared = json!({ "swagger": "2.0", "info": { "title": "c", "version": "1" }, "paths": {},
        "definitions": {
            "Identifier": { "type": "object", "required": ["rawId"], "properties": {
                "rawId": { "type": "string" }, "user": { "$ref": "#/definitions/User" } } },
            "User": { "type": "object", "properties": { "id": { "type": "string" } } },
            "ErrorResponse": { "type": "object", "required": ["error"], "properties": {
                "error": { "type": "object", "required": ["code", "message"], "properties": {
                    "code": { "type": "string" }, "message": { "type": "string" } } } } }
        } });
    std::fs::write(common.join("common.json"), shared.to_string()).unwrap();
    let doc = json!({ "swagger": "2.0", "info": { "title": "chat", "version": "1" },
        "paths": { "/threads": { "post": {
            "parameters": [{ "in": "body", "name": "body", "required": true,
                "schema": { "$ref": "#/definitions/NewThread" } }],
            "responses": {
                "201": { "description": "made", "schema": { "$ref": "#/definitions/NewThread" } },
                "default": { "description": "error",
                    "schema": { "$ref": "../../Common/stable/common.json#/definitions/ErrorResponse" } } } } } },
        "definitions": { "NewThread": { "type": "object", "required": ["topic"], "properties": {
            "topic": { "type": "string" },
            "owner": { "$ref": "../../Common/stable/common.json#/definitions/Identifier" } } } } });
    let options = ImportOptions::new("chat", "chat.json").base_dir(root.path().join("Chat/stable"));
    let imported = import_openapi(&doc.to_string(), &options, None).unwrap();
    let service = checked(&imported);
    assert_eq!(
        field(&service, "NewThread", "owner").ty,
        Ty::Named("Identifier".into()),
        "{}",
        imported.yaml
    );
    assert_eq!(
        field(&service, "Identifier", "user").ty,
        Ty::Named("User".into())
    );
    let report = imported.report.to_string();
    assert!(!report.contains("not followed"), "{report}");
    assert!(imported.yaml.contains("ErrorResponse"), "{}", imported.yaml);
    // Without the directory (text alone), the same references are reported, not dropped in
    // silence.
    let alone = import_openapi(
        &doc.to_string(),
        &ImportOptions::new("chat", "chat.json"),
        None,
    );
    assert!(alone.unwrap().report.to_string().contains("not followed"));
    // The fidelity report reads the same files, and a Swagger 2.0 answer's own `schema`: the
    // error answer of the shared file is typed (Vonage's 22 error answers of
    // `common_errors.yml` were counted as 3; no Swagger 2.0 error answer was counted).
    let text = doc.to_string();
    let typed = |dir: Option<&std::path::Path>| {
        tidings_codegen::import::fidelity_report_in(&text, &imported, "chat.yaml", dir)
            .unwrap()
            .errors_typed
    };
    assert_eq!(typed(Some(&root.path().join("Chat/stable"))), 1);
}

/// Azure's pageable lists (ACS Chat's `GET /chat/threads?maxPageSize=`, `x-ms-pageable` with
/// `nextLink`): `maxPageSize` is the page size, so a client that asks for small pages gets them
/// and follows the next link (it was not read: every list came on one page).
#[test]
fn azure_s_max_page_size_is_the_page_size() {
    let doc = json!({ "swagger": "2.0", "info": { "title": "chat", "version": "1" },
        "paths": { "/chat/threads": { "get": {
            "operationId": "listThreads",
            "parameters": [{ "in": "query", "name": "maxPageSize", "type": "integer" }],
            "x-ms-pageable": { "nextLinkName": "nextLink", "itemName": "value" },
            "responses": { "200": { "description": "ok", "schema": {
                "type": "object", "required": ["value"], "properties": {
                    "value": { "type": "array", "items": { "type": "object",
                        "properties": { "id": { "type": "string" } } } },
                    "nextLink": { "type": "string" } } } } } } } } });
    let imported = import(&doc);
    let service = checked(&imported);
    let pages = service.operations[0]
        .pagination
        .as_ref()
        .unwrap_or_else(|| panic!("{}", imported.yaml));
    assert!(
        matches!(pages.style, PageStyle::NextUrl { .. }),
        "{:?}",
        pages.style
    );
    assert_eq!(pages.limit_param.as_deref(), Some("maxPageSize"));
}

/// Rocket.Chat's user-management document has no security scheme; 8 of its 10 operations here
/// (53 of 59 in the document) take `X-Auth-Token`: that header is the service's key, and the
/// operations that do not take it (`users.register`) are public. Under the old nine-in-ten cut
/// the service had no auth at all: any token, or none, was accepted.
#[test]
fn a_key_header_most_operations_take_is_the_key_and_the_others_are_public() {
    let token = json!({ "name": "X-Auth-Token", "in": "header", "schema": { "type": "string" } });
    let mut paths = serde_json::Map::new();
    for n in 0..8 {
        paths.insert(
            format!("/api/v1/users.op{n}"),
            json!({ "post": { "operationId": format!("op{n}"), "parameters": [token.clone()],
                "responses": ok() } }),
        );
    }
    for public in ["register", "forgotPassword"] {
        paths.insert(
            format!("/api/v1/users.{public}"),
            json!({ "post": { "operationId": public, "responses": ok() } }),
        );
    }
    let doc = json!({ "openapi": "3.0.0", "info": { "title": "rc", "version": "1" },
        "paths": paths });
    let imported = import(&doc);
    let service = checked(&imported);
    assert_eq!(service.auth.len(), 1, "{}", imported.yaml);
    for op in &service.operations {
        let public = op
            .auth
            .as_ref()
            .is_some_and(|a| a.name == tidings_codegen::resolved::ANONYMOUS_AUTH);
        assert_eq!(
            public,
            matches!(op.name.as_str(), "register" | "forgot_password"),
            "{}: {:?}",
            op.name,
            op.auth
        );
    }
}

/// Telnyx's webhooks declare `telnyx-timestamp` and `telnyx-signature-ed25519` header
/// parameters and describe them as compatible with `webhook-signature`: the import signed them
/// as Standard Webhooks and said the document named `webhook-*` headers, which it does not (a
/// Telnyx SDK refuses every such delivery). Declared signature headers of another scheme win
/// over the prose, and the report names them.
#[test]
fn signature_headers_of_another_scheme_are_named_not_taken_for_standard_webhooks() {
    let header = |name: &str| {
        json!({ "name": name, "in": "header", "required": true,
                                      "schema": { "type": "string" } })
    };
    let hook = |headers: Vec<Value>| {
        json!({ "post": {
            "description": "Signed with Ed25519; the headers are compatible with webhook-signature.",
            "parameters": headers,
            "requestBody": { "content": { "application/json": { "schema": {
                "type": "object", "properties": { "id": { "type": "string" } } } } } },
            "responses": ok()
        } })
    };
    let doc = |headers: Vec<Value>| {
        json!({
            "openapi": "3.1.0",
            "info": { "title": "Found", "version": "1" },
            "paths": {},
            "webhooks": { "deliveryUpdate": hook(headers.clone()), "inboundMessage": hook(headers) }
        })
    };
    let telnyx = import(&doc(vec![
        header("telnyx-timestamp"),
        header("telnyx-signature-ed25519"),
    ]));
    checked(&telnyx);
    let signature = |imported: &Imported| {
        let loaded = load::load_str("found.yaml", &imported.yaml).unwrap();
        let events = loaded.spec.events.unwrap();
        events.webhooks["delivery_update"].signature.clone()
    };
    assert_eq!(signature(&telnyx), "none");
    let report = telnyx.report.to_string();
    assert!(
        report.contains("`telnyx-timestamp`, `telnyx-signature-ed25519`"),
        "{report}"
    );
    assert!(!report.contains("signed as Standard Webhooks"), "{report}");
    // The same prose without declared headers still reads as Standard Webhooks.
    let described = import(&doc(vec![]));
    checked(&described);
    assert_eq!(signature(&described), "standard_webhooks");
}

/// Intercom's `GET /contacts` answers `pages.next: {per_page, starting_after}` but declares no
/// query parameter ("see the pagination section"): the list had no pagination, and every
/// contact came on one page. The parameters the next page names are added, and reported.
#[test]
fn the_parameters_an_answer_s_next_page_names_are_added_when_undeclared() {
    let doc = json!({
        "openapi": "3.0.1",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/contacts": { "get": {
            "operationId": "ListContacts",
            "responses": { "200": { "description": "ok", "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/ContactList" } } } } }
        } } },
        "components": { "schemas": {
            "Contact": { "type": "object", "properties": { "id": { "type": "string" } } },
            "ContactList": { "type": "object", "properties": {
                "type": { "type": "string" },
                "data": { "type": "array", "items": { "$ref": "#/components/schemas/Contact" } },
                "pages": { "type": "object", "properties": {
                    "per_page": { "type": "integer" },
                    "next": { "type": "object", "properties": {
                        "per_page": { "type": "integer" },
                        "starting_after": { "type": "string" }
                    } }
                } }
            } }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let op = &service.operations[0];
    let query: Vec<&str> = op.query.iter().map(|p| p.wire.as_str()).collect();
    assert_eq!(query, ["starting_after", "per_page"]);
    assert!(op.query.iter().all(|p| !p.required));
    let pages = op.pagination.as_ref().expect("paged");
    let PageStyle::Token {
        token_field,
        token_param,
    } = &pages.style
    else {
        panic!("{:?}", pages.style)
    };
    assert_eq!(
        (token_field.as_str(), token_param.as_str()),
        ("pages.next.starting_after", "starting_after")
    );
    assert!(
        imported
            .report
            .inferred
            .iter()
            .any(|f| f.reason.contains("`starting_after`, `per_page`")),
        "{}",
        imported.report
    );
}

/// Intercom shows a refused request among a create's examples (`invalid_parameters: {test:
/// invalid}`, beside the 400 example `Invalid parameters`): the import took it as evidence that
/// `name` may be left out, so `POST /tags {}` was accepted. An example named as a refusal's is
/// no such evidence.
#[test]
fn a_request_example_of_a_refusal_does_not_make_a_required_field_optional() {
    let doc = json!({
        "openapi": "3.0.1",
        "info": { "title": "Found", "version": "1" },
        "paths": { "/tags": { "post": {
            "operationId": "createTag",
            "requestBody": { "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/TagRequest" },
                "examples": {
                    "action_successful": { "value": { "name": "test" } },
                    "invalid_parameters": { "value": { "test": "invalid" } }
                }
            } } },
            "responses": {
                "200": { "description": "ok", "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/Tag" } } } },
                "400": { "description": "bad", "content": { "application/json": {
                    "schema": { "type": "object", "properties": { "type": { "type": "string" } } },
                    "examples": { "Invalid parameters": { "value": { "type": "error.list" } } }
                } } }
            }
        } } },
        "components": { "schemas": {
            "TagRequest": { "type": "object", "required": ["name"],
                            "properties": { "name": { "type": "string" } } },
            "Tag": { "type": "object", "properties": { "id": { "type": "string" },
                                                       "name": { "type": "string" } } }
        } }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    assert!(
        field(&service, "TagRequest", "name").required,
        "{}",
        imported.report
    );
}

/// Intercom (intercom/Intercom-OpenAPI 8889625, descriptions/2.16,
/// `create_data_attribute_request`): `name`, `model` (an enum) and `description` beside a
/// `oneOf` of two kinds of attribute, `required: [name, model, data_type]` on the outside.
/// Read as the two alternatives alone, the outer properties and `required` were dropped and
/// `POST /data_attributes {}` was accepted; each alternative now carries them.
#[test]
fn properties_beside_alternatives_belong_to_every_alternative() {
    let doc = json!({
        "openapi": "3.0.1",
        "info": { "title": "Found", "version": "1" },
        "components": { "schemas": {
            "create_data_attribute_request": {
                "type": "object",
                "required": ["name", "model", "data_type"],
                "properties": {
                    "name": { "type": "string" },
                    "model": { "type": "string", "enum": ["contact", "company"] },
                    "description": { "type": "string" }
                },
                "oneOf": [
                    { "title": "list attribute", "required": ["options"], "properties": {
                        "data_type": { "type": "string", "enum": ["options"] },
                        "options": { "type": "array", "items": { "type": "object",
                            "properties": { "value": { "type": "string" } } } } } },
                    { "title": "other type", "properties": {
                        "data_type": { "type": "string", "enum": ["string", "integer"] } } }
                ]
            }
        } },
        "paths": {
            "/data_attributes": { "post": {
                "operationId": "createDataAttribute",
                "requestBody": { "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/create_data_attribute_request" } } } },
                "responses": ok()
            } }
        }
    });
    let imported = import(&doc);
    let service = checked(&imported);
    let request = service
        .types
        .iter()
        .find(|t| t.name == "CreateDataAttributeRequest")
        .unwrap();
    let TypeKind::Untagged { variants } = &request.kind else {
        panic!("still a union of the two kinds: {}", imported.yaml)
    };
    assert_eq!(variants.len(), 2, "{}", imported.yaml);
    // Each alternative keeps the title that names its type.
    let names: Vec<&str> = variants.iter().filter_map(|v| v.ty.as_deref()).collect();
    assert_eq!(
        names,
        [
            "CreateDataAttributeRequestListAttribute",
            "CreateDataAttributeRequestOtherType"
        ],
        "{}",
        imported.yaml
    );
    for v in variants {
        let ty = v.ty.as_deref().unwrap();
        for (wire, required) in [("name", true), ("model", true), ("data_type", true)] {
            assert_eq!(
                field(&service, ty, wire).required,
                required,
                "{ty}.{wire}: {}",
                imported.yaml
            );
        }
        assert!(!field(&service, ty, "description").required);
        assert!(matches!(field(&service, ty, "model").ty, Ty::Named(_)));
    }
    // The list kind keeps its own required `options`.
    let with_options = variants
        .iter()
        .filter_map(|v| v.ty.as_deref())
        .filter(|ty| {
            service.types.iter().any(|t| {
                t.name == *ty
                    && matches!(&t.kind, TypeKind::Object(f) if f.iter().any(|f| f.wire == "options" && f.required))
            })
        })
        .count();
    assert_eq!(with_options, 1, "{}", imported.yaml);
}

/// Vonage's Voice: `bearerFormat: JWT`, a token the application signs with its private key.
/// The client sends the token it is given; the report says so rather than dropping it.
#[test]
fn a_bearer_token_the_application_signs_is_reported() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Found", "version": "1" },
        "security": [{ "bearerAuth": [] }],
        "components": { "securitySchemes": { "bearerAuth": {
            "type": "http", "scheme": "bearer", "bearerFormat": "JWT" } } },
        "paths": { "/calls": { "get": { "operationId": "list_calls", "responses": ok() } } }
    });
    let imported = import(&doc);
    checked(&imported);
    assert!(imported.yaml.contains("kind: bearer"), "{}", imported.yaml);
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.pointer == "#/components/securitySchemes/bearerAuth"
                && f.reason.contains("format `JWT`")),
        "{:#?}",
        imported.report.approximated
    );
}

/// ClickSend's ids: `{list_id}` is a `number` shown as `"442"` and answered as `list_id: 442`.
/// A `number` path parameter shown as a whole number is an integer (reported); one shown as
/// a fraction, or not shown, stays a number.
#[test]
fn a_number_path_parameter_shown_as_a_whole_number_is_an_integer() {
    let param = |example: Value| {
        let mut p = json!({ "name": "list_id", "in": "path", "required": true,
                            "schema": { "type": "number" } });
        if !example.is_null() {
            p["example"] = example;
        }
        json!({
            "openapi": "3.0.3",
            "info": { "title": "Found", "version": "1" },
            "paths": { "/lists/{list_id}": { "get": {
                "operationId": "get_list", "parameters": [p], "responses": ok()
            } } }
        })
    };
    for (example, ty) in [
        (json!("442"), Ty::Integer),
        (json!(442), Ty::Integer),
        (json!(4.5), Ty::Number),
        (Value::Null, Ty::Number),
    ] {
        let imported = import(&param(example.clone()));
        let service = checked(&imported);
        assert_eq!(service.operations[0].path_params[0].ty, ty, "{example}");
    }
    let imported = import(&param(json!("442")));
    assert!(
        imported.report.inferred.iter().any(|f| f
            .reason
            .contains("`list_id` is a `number` shown as a whole number")),
        "{:#?}",
        imported.report.inferred
    );
}
