//! A provider-style spec with every auth kind and a declared error body, through check, the
//! generator and the OpenAPI export: what each stage makes of `auth` and `errors`.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use serde_json::json;
use tidings_codegen::check::{AuthScheme, Service};

const SPEC: &str = r#"
service:
  name: provider
  title: Provider
  summary: A provider with several auth kinds
  source: assumed
  base_url: { env: PROVIDER_BASE_URL, source: assumed }
credentials:
  account_sid: { env: PROVIDER_ACCOUNT_SID, secret: false, source: assumed }
  auth_token: { env: PROVIDER_AUTH_TOKEN, source: assumed }
auth:
  - { name: basic, kind: basic, username: account_sid, password: auth_token, source: assumed }
  - { name: key_only, kind: basic, username: auth_token, source: assumed }
  - { name: app, kind: header, header: Authorization, prefix: "App ", credential: auth_token, source: assumed }
  - { name: in_body, kind: body, field: api_key, credential: auth_token, source: assumed }
  - { name: jwt, kind: minted, minter: jwt, prefix: "Bearer ", source: assumed }
errors:
  type: ProviderError
  code: code
  message: message
  in_success: { field: status, equals: [failed, undelivered] }
  codes:
    "20404": { status: [404], doc: Not found., source: assumed }
    invalid_to: { status: [400], source: assumed }
  source: assumed
types:
  Message:
    source: assumed
    fields:
      sid: { type: string, required: true }
      status: { type: string }
  ProviderError:
    source: assumed
    fields:
      code: { type: integer }
      message: { type: string }
      more_info: { type: string }
operations:
  get_message:
    method: GET
    path: /v1/messages/{sid}
    path_params: { sid: { doc: The id } }
    response: Message
    errors: [404]
    source: assumed
"#;

fn service() -> Service {
    let loaded = tidings_codegen::load::load_str("provider.yaml", SPEC).unwrap();
    tidings_codegen::check::check(&loaded).unwrap()
}

#[test]
fn check_resolves_every_auth_kind_and_the_error_paths() {
    let s = service();
    assert_eq!(
        s.auth[0].method,
        AuthScheme::Basic {
            username: "account_sid".into(),
            password: Some("auth_token".into())
        }
    );
    assert_eq!(
        s.auth[1].method,
        AuthScheme::Basic {
            username: "auth_token".into(),
            password: None
        }
    );
    // The minted scheme's header defaults to Authorization.
    assert_eq!(
        s.auth[4].method,
        AuthScheme::Minted {
            minter: "jwt".into(),
            header: "Authorization".into(),
            prefix: Some("Bearer ".into())
        }
    );
    let errors = s.errors.as_ref().unwrap();
    assert_eq!(errors.code.as_deref(), Some("code"));
    assert_eq!(
        errors.in_success.as_ref().unwrap().equals,
        ["failed", "undelivered"]
    );
}

#[test]
fn each_resolved_scheme_is_of_the_kind_the_spec_wrote_and_is_made_static_whole() {
    let loaded = tidings_codegen::load::load_str("provider.yaml", SPEC).unwrap();
    let s = service();
    assert_eq!(s.auth.len(), loaded.spec.auth.len());
    for (written, resolved) in loaded.spec.auth.iter().zip(&s.auth) {
        assert_eq!(resolved.name, written.name);
        assert_eq!(
            resolved.method.kind(),
            Some(written.kind),
            "{}",
            written.name
        );
        // The static form the runtime reads is the same scheme, text for text.
        let made = tidings_codegen::describe::auth_scheme(resolved);
        assert_eq!(made.kind(), Some(written.kind));
        assert_eq!(
            format!("{made:?}").replace('"', ""),
            format!("{:?}", resolved.method).replace('"', ""),
        );
    }
}

#[test]
fn generated_code_carries_the_schemes_the_error_spec_and_the_error_code_enum() {
    let code = tidings_codegen::emit::emit_service(&service()).unwrap();
    for expected in [
        r#"::tidings_runtime::spec::AuthScheme::Basic {
                username: "account_sid",
                password: ::core::option::Option::Some("auth_token"),
            }"#,
        r#"prefix: ::core::option::Option::Some("App ")"#,
        r#"::tidings_runtime::spec::AuthScheme::Body {
                fields: &[("api_key", "auth_token")],
            }"#,
        r#"minter: "jwt""#,
        r#"when: ::tidings_runtime::spec::FailureWhen::Equals(
                    &["failed", "undelivered"],
                ),"#,
        "pub enum ErrorCode",
        "Code20404,",
        "InvalidTo,",
        "pub fn of(error: &rt::Error) -> Option<ErrorCode>",
        r#""20404" => &[404]"#,
    ] {
        assert!(code.contains(expected), "missing {expected} in\n{code}");
    }
}

#[test]
fn openapi_says_basic_prefix_minted_body_auth_and_where_errors_live() {
    let doc = tidings_codegen::export::openapi::document(&service());
    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(schemes["basic"]["scheme"], "basic");
    assert_eq!(
        schemes["basic"]["x-credentials"],
        json!({"username": "account_sid", "password": "auth_token"})
    );
    assert_eq!(schemes["app"]["x-prefix"], "App ");
    assert_eq!(schemes["jwt"]["scheme"], "bearer");
    assert_eq!(schemes["jwt"]["x-minter"], "jwt");
    // No OpenAPI scheme can say "in the body": an extension does, and nothing refers to it.
    assert!(schemes.get("in_body").is_none());
    assert_eq!(
        doc["x-body-auth"],
        json!([{"name": "in_body", "field": "api_key", "credential": "auth_token"}])
    );
    assert_eq!(doc["security"], json!([{"basic": []}]));
    let not_found = &doc["components"]["responses"]["Error404"];
    assert_eq!(
        not_found["x-error-fields"],
        json!({"code": "code", "message": "message"})
    );
    assert!(
        not_found["description"]
            .as_str()
            .unwrap()
            .contains("`20404`")
    );
    assert_eq!(
        doc["x-errors-in-success"],
        json!({"field": "status", "equals": ["failed", "undelivered"], "present": false})
    );
}

#[test]
fn import_finds_where_an_error_schema_keeps_code_and_message() {
    let fixture = |name: &str| {
        std::fs::read_to_string(
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("tests/import")
                .join(name),
        )
        .unwrap()
    };
    use tidings_codegen::import::{ImportOptions, import_openapi};
    // `{"errors": [{"message", "field"}]}`: a message in the first element, no code.
    let shop = import_openapi(
        &fixture("swagger_2_0.yaml"),
        &ImportOptions::new("shop", "swagger_2_0.yaml"),
        None,
    )
    .unwrap();
    assert!(
        shop.yaml
            .contains("  code: none\n  message: errors.0.message\n"),
        "{}",
        shop.yaml
    );
    // `{"code", "message"}` at the top.
    let parcels = import_openapi(
        &fixture("features_3_0.yaml"),
        &ImportOptions::new("parcels", "features_3_0.yaml"),
        None,
    )
    .unwrap();
    assert!(
        parcels.yaml.contains("  code: code\n  message: message\n"),
        "{}",
        parcels.yaml
    );
}

/// Mailscript's only error is `{"error": "..."}`: its one text field is why, not a code (the
/// reason was lost, `{"error": "validation_error"}`). Vonage's `invalid_parameters[].name`
/// names the parameter refused, not the error's code.
#[test]
fn a_lone_text_field_is_the_message_and_a_listed_name_no_code() {
    use tidings_codegen::import::{ImportOptions, import_openapi};
    let document = |error: serde_json::Value| {
        json!({
            "swagger": "2.0",
            "info": { "title": "E", "version": "1" },
            "host": "api.example.com",
            "paths": { "/things": { "get": {
                "operationId": "list_things",
                "responses": {
                    "200": { "description": "ok", "schema": { "type": "object",
                        "properties": { "id": { "type": "string" } } } },
                    "400": { "description": "bad", "schema": { "$ref": "#/definitions/ErrorResponse" } }
                }
            } } },
            "definitions": { "ErrorResponse": error }
        })
        .to_string()
    };
    let imported = |error| {
        import_openapi(&document(error), &ImportOptions::new("e", "e.json"), None)
            .unwrap()
            .yaml
    };
    let lone = imported(json!({ "type": "object", "required": ["error"],
        "properties": { "error": { "type": "string" } } }));
    assert!(lone.contains("  code: none\n  message: error\n"), "{lone}");
    let listed = imported(json!({ "type": "object", "properties": {
        "title": { "type": "string" },
        "invalid_parameters": { "type": "array", "items": { "type": "object",
            "properties": { "name": { "type": "string" }, "reason": { "type": "string" } } } }
    } }));
    assert!(
        listed.contains("  code: none\n  message: title\n"),
        "{listed}"
    );
}

/// `SPEC` with `edit` applied to its text, through check: the service or the diagnostics.
fn check_edited(edit: impl Fn(&str) -> String) -> Result<Service, String> {
    let loaded = tidings_codegen::load::load_str("provider.yaml", &edit(SPEC)).unwrap();
    tidings_codegen::check::check(&loaded).map_err(|d| d.to_string())
}

#[test]
fn body_auth_fields_send_several_credentials_together() {
    let s = check_edited(|spec| {
        spec.replace(
            "kind: body, field: api_key, credential: auth_token,",
            "kind: body, fields: { api_key: account_sid, api_secret: auth_token },",
        )
    })
    .unwrap();
    assert_eq!(
        s.auth[3].method,
        AuthScheme::Body {
            fields: vec![
                ("api_key".into(), "account_sid".into()),
                ("api_secret".into(), "auth_token".into()),
            ]
        }
    );
    let code = tidings_codegen::emit::emit_service(&s).unwrap();
    let flat: String = code.split_whitespace().collect();
    assert!(
        flat.contains(r#"fields:&[("api_key","account_sid"),("api_secret","auth_token")]"#),
        "{code}"
    );
}

#[test]
fn body_auth_with_both_field_and_fields_or_an_unknown_credential_is_refused() {
    let both = check_edited(|spec| {
        spec.replace(
            "kind: body, field: api_key, credential: auth_token,",
            "kind: body, field: api_key, credential: auth_token, fields: { api_secret: auth_token },",
        )
    })
    .unwrap_err();
    assert!(
        both.contains("takes `fields`, or `field` and `credential`, not both"),
        "{both}"
    );
    let unknown = check_edited(|spec| {
        spec.replace(
            "kind: body, field: api_key, credential: auth_token,",
            "kind: body, fields: { api_key: auth_tokn },",
        )
    })
    .unwrap_err();
    assert!(
        unknown.contains("unknown credential `auth_tokn`"),
        "{unknown}"
    );
    let missing = check_edited(|spec| {
        spec.replace(
            "kind: body, field: api_key, credential: auth_token,",
            "kind: body,",
        )
    })
    .unwrap_err();
    assert!(
        missing.contains("of kind \"body\" needs `field`"),
        "{missing}"
    );
}

#[test]
fn query_auth_params_send_several_credentials_together_and_not_beside_param() {
    let body = "kind: body, field: api_key, credential: auth_token,";
    let s = check_edited(|spec| {
        spec.replace(
            body,
            "kind: query, params: { api_key: account_sid, api_secret: auth_token },",
        )
    })
    .unwrap();
    assert_eq!(
        s.auth[3].method,
        AuthScheme::Query {
            params: vec![
                ("api_key".into(), "account_sid".into()),
                ("api_secret".into(), "auth_token".into()),
            ]
        }
    );
    let code = tidings_codegen::emit::emit_service(&s).unwrap();
    let flat: String = code.split_whitespace().collect();
    assert!(
        flat.contains(r#"Query{params:&[("api_key","account_sid"),("api_secret","auth_token")]"#),
        "{code}"
    );
    let both = check_edited(|spec| {
        spec.replace(
            body,
            "kind: query, param: api_key, credential: auth_token, params: { api_secret: auth_token },",
        )
    })
    .unwrap_err();
    assert!(
        both.contains("takes `params`, or `param` and `credential`, not both"),
        "{both}"
    );
    let missing = check_edited(|spec| spec.replace(body, "kind: query, credential: auth_token,"))
        .unwrap_err();
    assert!(
        missing.contains("of kind \"query\" needs `param`"),
        "{missing}"
    );
}

#[test]
fn error_codes_may_arrive_in_200_answers_only_with_in_success() {
    let in_200 =
        |spec: &str| spec.replace("invalid_to: { status: [400]", "invalid_to: { status: [200]");
    assert!(check_edited(in_200).is_ok());
    let without = check_edited(|spec| {
        in_200(spec).replace(
            "  in_success: { field: status, equals: [failed, undelivered] }\n",
            "",
        )
    })
    .unwrap_err();
    assert!(without.contains("200 is not an error status"), "{without}");
}
