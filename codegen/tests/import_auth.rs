//! Auth as documented (issue 30 item 3): the importer reads a key's prefix from the scheme's
//! description or from the document's examples of the header, maps an OAuth2
//! client-credentials flow to `kind: oauth2_client_credentials` (token URL, client id and
//! secret credentials, the scopes the document requires), keeps several schemes and the
//! per-operation choice, and the checker, the emitter and the OpenAPI export carry the scheme.
#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use tidings_codegen::import::{ImportOptions, Imported, import_openapi};
use tidings_codegen::model::{AuthKind, SpecFile};

fn import(doc: &serde_json::Value) -> Imported {
    import_openapi(
        &doc.to_string(),
        &ImportOptions::new("provider", "doc.json"),
        None,
    )
    .unwrap()
}

fn checked(imported: &Imported) -> (SpecFile, tidings_codegen::check::Service) {
    let loaded = tidings_codegen::load::load_str("provider.yaml", &imported.yaml).unwrap();
    let service =
        tidings_codegen::check::check(&loaded).unwrap_or_else(|d| panic!("{d}\n{}", imported.yaml));
    (loaded.spec, service)
}

fn document(schemes: serde_json::Value, header_example: Option<&str>) -> serde_json::Value {
    let mut params = vec![];
    if let Some(example) = header_example {
        params.push(serde_json::json!({
            "name": "Authorization", "in": "header", "required": true,
            "schema": {"type": "string"}, "example": example
        }));
    }
    serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Provider", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "security": [{"first": []}],
        "components": {"securitySchemes": schemes},
        "paths": {
            "/v1/messages": {"get": {
                "operationId": "listMessages",
                "parameters": params,
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}
            }},
            "/v1/reports": {"get": {
                "operationId": "getReport",
                "security": [{"second": ["reports.read"]}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}
            }},
            "/v1/alerts": {"get": {
                "operationId": "getAlerts",
                "security": [{"second": ["reports.read"]}, {"first": []}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}
            }},
            "/v1/time": {"get": {
                "operationId": "getTime",
                "security": [],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"now": {"type": "integer"}}}}}}}
            }}
        }
    })
}

#[test]
fn a_prefix_is_read_from_the_description_in_any_wording() {
    for description in [
        "Send `App {apiKey}` in the Authorization header.",
        "Authorization: App 003026bbc133714df1834b8638bb496e-8f4b3d9a",
        "Use the header value \"App <your key>\".",
        "Format: `Authorization: App [key]`",
    ] {
        let doc = document(
            serde_json::json!({"first": {"type": "apiKey", "in": "header", "name": "Authorization", "description": description}}),
            None,
        );
        let imported = import(&doc);
        let (spec, _) = checked(&imported);
        let scheme = &spec.auth[0];
        assert_eq!(scheme.kind, AuthKind::Header, "{description}");
        assert_eq!(scheme.prefix.as_deref(), Some("App "), "{description}");
    }
}

#[test]
fn two_prefixes_in_one_header_are_two_secrets_and_two_placements_are_one() {
    // Infobip: `Authorization: App <API key>` and `Authorization: IBSSO <session token>` are
    // different secrets; one key accepted in a header or in the query is the same secret.
    let doc = document(
        serde_json::json!({
            "first": {"type": "apiKey", "in": "header", "name": "Authorization", "description": "Send `Authorization: App <key>`."},
            "second": {"type": "apiKey", "in": "header", "name": "Authorization", "description": "Send `Authorization: IBSSO <token>`."},
            "third": {"type": "apiKey", "in": "query", "name": "key"}
        }),
        None,
    );
    let imported = import(&doc);
    let (spec, _) = checked(&imported);
    let by_name = |n: &str| spec.auth.iter().find(|a| a.name == n).unwrap();
    assert_eq!(by_name("first").prefix.as_deref(), Some("App "));
    assert_eq!(by_name("second").prefix.as_deref(), Some("IBSSO "));
    assert_eq!(by_name("first").credential.as_deref(), Some("api_key"));
    assert_eq!(by_name("second").credential.as_deref(), Some("second"));
    assert_eq!(by_name("third").credential.as_deref(), Some("api_key"));
    assert_eq!(
        spec.credentials.keys().collect::<Vec<_>>(),
        ["api_key", "second"],
        "{}",
        imported.yaml
    );
}

#[test]
fn an_authorization_key_of_a_scheme_named_for_bearer_tokens_is_sent_as_one() {
    // WhatsApp's and Ably's Swagger 2.0 `bearerAuth`: an API key in `Authorization` (2.0 has
    // no bearer scheme) that their clients send as `Bearer <token>`; the raw key was sent.
    let doc = document(
        serde_json::json!({
            "bearerAuth": {"type": "apiKey", "in": "header", "name": "Authorization"},
            "keyAuth": {"type": "apiKey", "in": "header", "name": "Authorization"}
        }),
        None,
    );
    let imported = import(&doc);
    let (spec, _) = checked(&imported);
    let by_name = |n: &str| spec.auth.iter().find(|a| a.name == n).unwrap();
    assert_eq!(by_name("bearer_auth").prefix.as_deref(), Some("Bearer "));
    assert_eq!(by_name("key_auth").prefix, None, "nothing says so");
}

#[test]
fn a_prefix_is_read_from_an_example_of_the_header_when_the_description_says_nothing() {
    let doc = document(
        serde_json::json!({"first": {"type": "apiKey", "in": "header", "name": "Authorization", "description": "Your API key."}}),
        Some("App 4f2c9a0b7e1d44c3a9b8e6f1d2c3b4a5"),
    );
    let imported = import(&doc);
    let (spec, _) = checked(&imported);
    assert_eq!(spec.auth[0].prefix.as_deref(), Some("App "));
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("prefix `App ` read from an example")),
        "{}",
        imported.report
    );
    // A bare key is not a prefix.
    let doc = document(
        serde_json::json!({"first": {"type": "apiKey", "in": "header", "name": "X-Api-Key"}}),
        None,
    );
    let (spec, _) = checked(&import(&doc));
    assert_eq!(spec.auth[0].prefix, None);
}

#[test]
fn oauth2_client_credentials_becomes_the_spec_construct_with_its_credentials_and_scopes() {
    let doc = document(
        serde_json::json!({
            "first": {"type": "http", "scheme": "basic"},
            "second": {"type": "oauth2", "flows": {"clientCredentials": {
                "tokenUrl": "https://auth.example.com/oauth2/token",
                "scopes": {"reports.read": "read reports", "admin": "everything"}
            }}}
        }),
        None,
    );
    let imported = import(&doc);
    let (spec, service) = checked(&imported);
    // Both schemes, the document's default first; the report operation names its own.
    assert_eq!(spec.auth.len(), 2, "{}", imported.yaml);
    assert_eq!(spec.auth[0].kind, AuthKind::Basic);
    let oauth = &spec.auth[1];
    assert_eq!(oauth.kind, AuthKind::OAuth2ClientCredentials);
    assert_eq!(
        oauth.token_url.as_deref(),
        Some("https://auth.example.com/oauth2/token")
    );
    assert_eq!(oauth.client_id.as_deref(), Some("client_id"));
    assert_eq!(oauth.client_secret.as_deref(), Some("client_secret"));
    assert_eq!(
        oauth.scopes,
        ["reports.read"],
        "only what the document requires"
    );
    assert_eq!(
        spec.credentials["client_id"].env,
        "COMMS_PROVIDER_CLIENT_ID"
    );
    assert!(!spec.credentials["client_id"].secret);
    assert!(
        spec.credentials["client_secret"].secret,
        "the secret is a secret"
    );
    assert_eq!(
        spec.operations["get_report"].auth.as_deref(),
        Some(oauth.name.as_str())
    );
    assert_eq!(spec.operations["list_messages"].auth, None);
    // Either scheme serves the alerts (OR): the default one, which every call already has.
    assert_eq!(spec.operations["get_alerts"].auth, None);

    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    syn::parse_file(&code).unwrap();
    let flat: String = code.split_whitespace().collect();
    assert!(
        flat.contains(
            "::tidings_runtime::spec::AuthScheme::OAuth2ClientCredentials{token_url:\"https://auth.example.com/oauth2/token\",client_id:\"client_id\",client_secret:\"client_secret\",scopes:&[\"reports.read\"],}"
        ),
        "{code}"
    );
    let exported = tidings_codegen::export::openapi::document(&service);
    let flow =
        &exported["components"]["securitySchemes"][&oauth.name]["flows"]["clientCredentials"];
    assert_eq!(
        flow["tokenUrl"], "https://auth.example.com/oauth2/token",
        "{exported}"
    );
}

#[test]
fn the_checker_refuses_an_incomplete_or_unusable_oauth2_scheme() {
    let doc = document(
        serde_json::json!({
            "first": {"type": "http", "scheme": "basic"},
            "second": {"type": "oauth2", "flows": {"clientCredentials": {
                "tokenUrl": "https://auth.example.com/oauth2/token",
                "scopes": {"reports.read": "read reports"}
            }}}
        }),
        None,
    );
    let yaml = import(&doc).yaml;
    let url = "    token_url: https://auth.example.com/oauth2/token\n";
    assert!(yaml.contains(url), "{yaml}");
    for (from, to, expected) in [
        (url, "", "needs `token_url`"),
        (
            url,
            "    token_url: \"ftp://auth.example.com/t\"\n",
            "neither an http(s) URL nor a path",
        ),
        (
            url,
            "    token_url: \"https://user:pw@auth.example.com/t\"\n",
            "neither an http(s) URL nor a path",
        ),
        (
            "    client_secret: client_secret\n",
            "    client_secret: nope\n",
            "nope",
        ),
        (
            url,
            "    token_url: /oauth/token\n    prefix: \"App \"\n",
            "does not use `prefix`",
        ),
        (
            "    scopes: [reports.read]\n",
            "    scopes: [\"a b\"]\n",
            "scope `a b`",
        ),
    ] {
        let text = yaml.replacen(from, to, 1);
        let err = tidings_codegen::load::load_str("provider.yaml", &text)
            .and_then(|loaded| tidings_codegen::check::check(&loaded).map(|_| ()))
            .expect_err(expected)
            .to_string();
        assert!(err.contains(expected), "{expected}: {err}");
    }
    // A path is resolved against the base URL at run time.
    let text = yaml.replacen(url, "    token_url: /oauth/token\n", 1);
    let loaded = tidings_codegen::load::load_str("provider.yaml", &text).unwrap();
    tidings_codegen::check::check(&loaded).unwrap_or_else(|d| panic!("{d}"));
}

#[test]
fn a_public_operation_is_auth_none_through_check_emit_and_export() {
    let doc = document(
        serde_json::json!({"first": {"type": "http", "scheme": "bearer"}}),
        None,
    );
    let imported = import(&doc);
    let (spec, service) = checked(&imported);
    assert_eq!(
        spec.operations["get_time"].auth.as_deref(),
        Some("none"),
        "{}",
        imported.yaml
    );
    assert_eq!(spec.operations["list_messages"].auth, None);
    let time = service
        .operations
        .iter()
        .find(|o| o.name == "get_time")
        .unwrap();
    assert!(time.auth.as_ref().is_some_and(|a| a.is_anonymous()));

    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    let flat: String = code.split_whitespace().collect();
    assert!(
        flat.contains(".with_auth(::tidings_runtime::spec::AuthScheme::Anonymous)"),
        "{code}"
    );
    assert!(code.contains("Public: sent without credentials."), "{code}");
    let exported = tidings_codegen::export::openapi::document(&service);
    assert_eq!(
        exported["paths"]["/v1/time"]["get"]["security"],
        serde_json::json!([]),
        "{exported}"
    );
    assert!(
        exported["components"]["securitySchemes"]
            .get("none")
            .is_none()
    );
    // And back: the export imports as the same public operation.
    let again = import(&exported);
    let (spec, _) = checked(&again);
    assert_eq!(spec.operations["get_time"].auth.as_deref(), Some("none"));

    // `none` is no scheme's name.
    let first = &spec.auth[0].name;
    let renamed = again
        .yaml
        .replace(&format!("- name: {first}\n"), "- name: none\n");
    assert_ne!(renamed, again.yaml, "{}", again.yaml);
    let err = tidings_codegen::load::load_str("provider.yaml", &renamed)
        .and_then(|loaded| tidings_codegen::check::check(&loaded).map(|_| ()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("`none` names no scheme"), "{err}");
}

#[test]
fn an_operation_without_security_in_a_document_without_any_keeps_the_default_and_says_so() {
    // OneSignal secures each operation by its own list and has no document-wide one; the one
    // operation that names none is more likely an omission than a public operation.
    let mut doc = document(
        serde_json::json!({"first": {"type": "http", "scheme": "bearer"}}),
        None,
    );
    doc.as_object_mut().unwrap().remove("security");
    doc["paths"]["/v1/messages"]["get"]["security"] = serde_json::json!([{"first": []}]);
    doc["paths"]["/v1/reports"]["get"]
        .as_object_mut()
        .unwrap()
        .remove("security");
    let imported = import(&doc);
    let (spec, _) = checked(&imported);
    assert_eq!(spec.operations["list_messages"].auth, None);
    assert_eq!(spec.operations["get_report"].auth, None, "the default");
    assert_eq!(spec.operations["get_time"].auth.as_deref(), Some("none"));
    let reasons: Vec<(&str, &str)> = imported
        .report
        .approximated
        .iter()
        .map(|f| (f.pointer.as_str(), f.reason.as_str()))
        .collect();
    assert!(
        reasons
            .iter()
            .any(|(p, r)| *p == "#/paths/~1v1~1reports/get"
                && r.contains("no security requirement here or for the document")),
        "{reasons:?}"
    );
    // Where the document names one for every operation, inheriting it says nothing.
    let imported = import(&document(
        serde_json::json!({"first": {"type": "http", "scheme": "bearer"}}),
        None,
    ));
    assert!(
        !imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("no security requirement")),
        "{:?}",
        imported.report.approximated
    );
}

#[test]
fn a_key_header_nearly_every_operation_takes_is_the_service_key_where_no_scheme_is_declared() {
    // Sendbird's Platform API declares no security scheme; its `api-token` header is on 88 of
    // 92 operations, required on 2. Was no auth at all (any call accepted), silently.
    let header = |required: bool| {
        serde_json::json!([{"name": "api-token", "in": "header", "required": required,
            "schema": {"type": "string"}}])
    };
    let answer = serde_json::json!({"200": {"description": "ok", "content": {"application/json":
        {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}});
    let mut paths = serde_json::Map::new();
    for n in 0..9 {
        paths.insert(
            format!("/v3/things{n}"),
            serde_json::json!({"get": {"parameters": header(n == 0), "responses": answer}}),
        );
    }
    paths.insert(
        "/v3/health".into(),
        serde_json::json!({"get": {"responses": answer}}),
    );
    let doc = serde_json::json!({"openapi": "3.0.3", "info": {"title": "Chat", "version": "3"},
        "servers": [{"url": "https://api.example.com"}], "paths": paths});
    let imported = import(&doc);
    let (spec, service) = checked(&imported);
    assert_eq!(spec.auth.len(), 1, "{}", imported.yaml);
    assert_eq!(spec.auth[0].header.as_deref(), Some("api-token"));
    let things = service
        .operations
        .iter()
        .find(|o| o.path == "/v3/things3")
        .unwrap();
    assert!(
        things.headers.iter().all(|h| h.wire != "api-token"),
        "sent from the credential, not a parameter"
    );
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("taken by 9 of 10 operations")),
        "{:?}",
        imported.report.approximated
    );
    // Said as it is: nearly every operation takes it, two do not require it.
    assert!(
        imported.yaml.contains(
            "Sent in the `api-token` header, which nearly every operation of the document takes."
        ),
        "{}",
        imported.yaml
    );
    assert!(
        !imported
            .yaml
            .contains("which every operation of the document requires"),
        "{}",
        imported.yaml
    );
    // The one that does not take it is public.
    let health = service
        .operations
        .iter()
        .find(|o| o.path == "/v3/health")
        .unwrap();
    assert_eq!(
        health.auth.as_ref().map(|a| a.name.as_str()),
        Some(tidings_codegen::resolved::ANONYMOUS_AUTH)
    );
    // Fewer than four in five: no key is guessed.
    let mut fewer = doc.clone();
    for unkeyed in ["/v3/things8", "/v3/things7"] {
        fewer["paths"][unkeyed]["get"]
            .as_object_mut()
            .unwrap()
            .remove("parameters");
    }
    let imported = import(&fewer);
    let (spec, _) = checked(&imported);
    assert!(spec.auth.is_empty(), "{}", imported.yaml);
}

#[test]
fn a_basic_user_name_the_description_fixes_is_a_credential_with_that_value() {
    // Mailgun: "HTTP Basic auth using api:YOUR_API_KEY".
    let doc = document(
        serde_json::json!({"first": {"type": "http", "scheme": "basic",
            "description": "HTTP Basic auth using api:YOUR_API_KEY. See [documentation](https://example.com/auth)."}}),
        None,
    );
    let imported = import(&doc);
    let (spec, service) = checked(&imported);
    let user = &spec.credentials["first_username"];
    assert_eq!(user.value.as_deref(), Some("api"), "{}", imported.yaml);
    assert!(!user.secret);
    let key = &spec.credentials["api_key"];
    assert!(key.secret && key.value.is_none());
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    assert!(code.contains(r#"value: ::core::option::Option::Some("api")"#));

    // A URL or prose with a colon fixes nothing.
    for description in [
        "See https://example.com/auth for the details",
        "Use your account: the key is the password",
    ] {
        let doc = document(
            serde_json::json!({"first": {"type": "http", "scheme": "basic", "description": description}}),
            None,
        );
        let (spec, _) = checked(&import(&doc));
        assert!(
            spec.credentials.values().all(|c| c.value.is_none()),
            "{description}"
        );
        assert!(spec.credentials.contains_key("first_password"));
    }

    // The checker keeps a fixed value out of a secret credential.
    let text = imported
        .yaml
        .replacen("    secret: false\n    value: api\n", "    value: api\n", 1);
    assert_ne!(text, imported.yaml);
    let err = tidings_codegen::load::load_str("provider.yaml", &text)
        .and_then(|loaded| tidings_codegen::check::check(&loaded).map(|_| ()))
        .expect_err("a secret with a value")
        .to_string();
    assert!(err.contains("cannot have a fixed value"), "{err}");
}

/// An app id in one header and a key in another, named by one requirement object (required
/// together), as the document's default; a key alone on one operation; and a bearer token
/// with a key, which one spec scheme cannot send.
fn together_document() -> serde_json::Value {
    let ok = serde_json::json!({"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}});
    serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Provider", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "security": [{"appId": [], "apiKey": []}],
        "components": {"securitySchemes": {
            "appId": {"type": "apiKey", "in": "header", "name": "X-App-Id"},
            "apiKey": {"type": "apiKey", "in": "header", "name": "X-Api-Key"},
            "token": {"type": "http", "scheme": "bearer"},
            "admin": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "/oauth/token", "scopes": {}}}}
        }},
        "paths": {
            "/v1/messages": {"get": {"operationId": "listMessages", "responses": ok}},
            "/v1/keys": {"get": {
                "operationId": "listKeys",
                "security": [{"apiKey": []}],
                "responses": ok
            }},
            "/v1/admin": {"get": {
                "operationId": "getAdmin",
                "security": [{"apiKey": [], "token": []}],
                "responses": ok
            }},
            "/v1/mixed": {"get": {
                "operationId": "getMixed",
                "security": [{"admin": [], "apiKey": []}],
                "responses": ok
            }}
        }
    })
}

#[test]
fn schemes_one_requirement_names_together_are_sent_together() {
    let imported = import(&together_document());
    let (spec, service) = checked(&imported);
    let yaml = &imported.yaml;
    let first = &spec.auth[0];
    assert_eq!(first.kind, AuthKind::All, "{yaml}");
    assert_eq!(first.schemes, ["api_key", "app_id"], "{yaml}");
    // The default needs no operation to name it; a key alone, and a bearer token with a key
    // (each in a place of its own), are named.
    assert_eq!(spec.operations["list_messages"].auth, None, "{yaml}");
    assert_eq!(
        spec.operations["list_keys"].auth.as_deref(),
        Some("api_key")
    );
    let admin = spec.operations["get_admin"].auth.clone().unwrap();
    let admin_scheme = spec.auth.iter().find(|a| a.name == admin).unwrap();
    assert_eq!(admin_scheme.kind, AuthKind::All, "{yaml}");
    // An OAuth2 token with a key: reported, not sent as if one were enough without a word.
    assert!(
        imported
            .report
            .to_string()
            .contains("/paths/~1v1~1mixed/get/security/0")
            && imported.report.to_string().contains("together"),
        "{}",
        imported.report
    );

    // The generated client sends both members; the export says they are required together.
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    let flat: String = code.split_whitespace().collect();
    assert!(
        flat.contains("AuthScheme::All{schemes:::tidings_runtime::spec::AuthSchemes::new(&[::tidings_runtime::spec::AuthScheme::Header{header:\"X-Api-Key\""),
        "{code}"
    );
    // An operation's own scheme is named in its docs, with the credentials it needs.
    assert!(
        code.contains(&format!(
            "Sent with the `{admin}` auth scheme (credentials `"
        )),
        "{code}"
    );
    let exported = tidings_codegen::export::openapi::document(&service);
    assert_eq!(
        exported["security"][0],
        serde_json::json!({"api_key": [], "app_id": []}),
        "{exported}"
    );
    assert!(
        exported["components"]["securitySchemes"]
            .get(&first.name)
            .is_none(),
        "an all scheme is a requirement, not a scheme of its own"
    );
    // And back: the export imports as the same schemes sent together.
    let again = import(&exported);
    let (spec, _) = checked(&again);
    assert_eq!(spec.auth[0].kind, AuthKind::All, "{}", again.yaml);
    assert_eq!(spec.auth[0].schemes, ["api_key", "app_id"]);
}

#[test]
fn the_checker_refuses_an_all_scheme_it_cannot_send() {
    let base = "service:\n  name: p\n  title: P\n  summary: P\n  base_url: { default: https://api.example.com, env: P_URL }\n\
                credentials:\n  a: { env: P_A }\n  b: { env: P_B }\n";
    let cases = [
        (
            "  - { name: both, kind: all, schemes: [a] }\n  - { name: a, kind: bearer, credential: a }\n",
            "two schemes or more",
        ),
        (
            "  - { name: both, kind: all, schemes: [a, nope] }\n  - { name: a, kind: bearer, credential: a }\n",
            "no auth scheme is named `nope`",
        ),
        (
            "  - { name: both, kind: all, schemes: [a, b] }\n  - { name: a, kind: bearer, credential: a }\n  - { name: b, kind: basic, username: b }\n",
            "which another of the schemes sets",
        ),
        (
            "  - { name: both, kind: all, schemes: [a, a, b] }\n  - { name: a, kind: bearer, credential: a }\n  - { name: b, kind: header, header: X-B, credential: b }\n",
            "`a` is named twice",
        ),
        (
            "  - { name: both, kind: all, schemes: [a, b] }\n  - { name: a, kind: bearer, credential: a }\n  - { name: b, kind: all, schemes: [a, both] }\n",
            "kind all sends bearer, header, query, basic and body schemes only",
        ),
    ];
    for (auth, expected) in cases {
        let text = format!("{base}auth:\n{auth}operations: {{}}\n");
        let err = tidings_codegen::load::load_str("p.yaml", &text)
            .and_then(|loaded| tidings_codegen::check::check(&loaded).map(|_| ()))
            .unwrap_err()
            .to_string();
        assert!(err.contains(expected), "{expected}: {err}\n{text}");
    }
}
