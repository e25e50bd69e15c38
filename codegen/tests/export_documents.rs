//! The OpenAPI and AsyncAPI exports: the committed documents in `spec/openapi/` and
//! `spec/asyncapi/` are fresh, the export is deterministic, and the documents carry what the
//! specs say (every operation, errors with their headers, security, webhooks, provenance).

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

use serde_json::Value;
use tidings_codegen::check::Service;
use tidings_codegen::export;

fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

fn services() -> Vec<Service> {
    tidings_codegen::check::check_paths(&[&spec_dir()], tidings_codegen::ProvenancePolicy::Required)
        .unwrap()
}

fn service(name: &str) -> Service {
    services().into_iter().find(|s| s.name() == name).unwrap()
}

fn regenerate_hint() -> String {
    format!(
        "{}   (every derived file: the JSON Schema, spec/openapi, spec/asyncapi)",
        tidings_build::REFRESH_COMMAND
    )
}

#[test]
fn committed_documents_are_fresh() {
    let documents = export::documents(&services());
    let names: Vec<String> = documents
        .iter()
        .map(|d| d.path.display().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "openapi/email.openapi.json",
            "openapi/messaging.openapi.json",
            "openapi/realtime.openapi.json",
            "asyncapi/realtime.asyncapi.json",
        ]
    );
    let mut stale = Vec::new();
    for d in &documents {
        let committed = std::fs::read_to_string(spec_dir().join(&d.path)).unwrap_or_default();
        if committed != d.contents {
            stale.push(d.path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale exported documents: {}\nregenerate them with:\n{}",
        stale.join(", "),
        regenerate_hint()
    );
    // Nothing else lies beside them (a document of a removed service would mislead).
    for dir in ["openapi", "asyncapi"] {
        for entry in std::fs::read_dir(spec_dir().join(dir)).unwrap() {
            let name = format!("{dir}/{}", entry.unwrap().file_name().to_string_lossy());
            if name.ends_with(".md") {
                continue;
            }
            assert!(
                names.contains(&name),
                "spec/{name} is not an export of any spec: run `{}`, which removes it",
                tidings_build::REFRESH_COMMAND
            );
        }
    }
}

#[test]
fn export_is_deterministic() {
    assert_eq!(
        export::documents(&services()),
        export::documents(&services())
    );
    // Keys are sorted whatever order the document was built in.
    let a: Value = serde_json::json!({"b": 1, "a": {"d": 2, "c": 3}});
    assert_eq!(
        export::to_json(&a),
        "{\n  \"a\": {\n    \"c\": 3,\n    \"d\": 2\n  },\n  \"b\": 1\n}\n"
    );
}

fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            out.push((path.clone(), method.clone(), op.clone()));
        }
    }
    out
}

#[test]
fn every_operation_is_exported_with_its_parameters_and_responses() {
    for s in services() {
        let doc = export::openapi::document(&s);
        let ops = operations(&doc);
        assert_eq!(ops.len(), s.operations.len(), "{}", s.name());
        for op in &s.operations {
            let (_, method, o) = ops
                .iter()
                .find(|(_, _, o)| o["operationId"] == op.name.as_str())
                .unwrap_or_else(|| panic!("{}: {} missing", s.name(), op.name));
            assert_eq!(method.to_ascii_uppercase(), op.method.as_str());
            assert_eq!(o["x-source"], op.source.as_str(), "{}", op.name);
            let params = o["parameters"].as_array().cloned().unwrap_or_default();
            for p in op.path_params.iter().chain(&op.query) {
                assert!(
                    params.iter().any(|x| x["name"] == p.wire.as_str()),
                    "{}: parameter {}",
                    op.name,
                    p.wire
                );
            }
            let status = op.success_status.to_string();
            assert!(o["responses"][&status].is_object(), "{} {status}", op.name);
            for e in &op.errors {
                assert!(
                    o["responses"][e.to_string()]["$ref"].is_string(),
                    "{} {e}",
                    op.name
                );
            }
            // A write without a body in the spec declares the `{}` the client sends.
            assert_eq!(
                o["requestBody"].is_object(),
                op.body.is_some() || op.has_body,
                "{}",
                op.name
            );
            assert_eq!(
                o["requestBody"]["required"].as_bool(),
                (op.body.is_some() || op.has_body).then_some(op.body.is_some()),
                "{}",
                op.name
            );
        }
    }
}

#[test]
fn email_document_says_auth_limits_idempotency_pages_rules_and_webhooks() {
    let doc = export::openapi::document(&service("email"));
    assert_eq!(doc["openapi"], "3.1.0");
    // Security: bearer by default, the query key as an opt-in alternative.
    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(schemes["bearer"]["scheme"], "bearer");
    assert_eq!(schemes["query_key"]["in"], "query");
    assert_eq!(schemes["query_key"]["name"], "api_key");
    assert_eq!(schemes["query_key"]["x-source"], "assumed");
    // Errors: the error body, rate-limit headers, Retry-After on 429.
    let too_many = &doc["components"]["responses"]["Error429"];
    assert_eq!(
        too_many["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/ErrorResponse"
    );
    for h in [
        "Retry-After",
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
    ] {
        assert!(too_many["headers"][h]["$ref"].is_string(), "{h}");
    }
    assert!(
        doc["components"]["responses"]["Error404"]["headers"]["Retry-After"].is_null(),
        "Retry-After only where a wait is asked for"
    );
    // Sends carry the idempotency key; reads do not.
    let send = &doc["paths"]["/v1/emails"]["post"];
    assert_eq!(send["x-idempotency"], "key");
    assert!(
        send["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["$ref"] == "#/components/parameters/IdempotencyKey")
    );
    assert_eq!(
        doc["components"]["parameters"]["IdempotencyKey"]["schema"]["maxLength"],
        256
    );
    // Pages: the page schema and the pagination parameters with their limits.
    let list = &doc["paths"]["/v1/emails"]["get"];
    assert_eq!(
        list["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Page_Email"
    );
    let limit = list["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "limit")
        .unwrap();
    assert_eq!(
        (&limit["schema"]["minimum"], &limit["schema"]["maximum"]),
        (&Value::from(1), &Value::from(100))
    );
    let page = &doc["components"]["schemas"]["Page_Email"];
    assert_eq!(page["required"], serde_json::json!(["data", "has_more"]));
    // Constraints and rules.
    let send_req = &doc["components"]["schemas"]["SendEmailRequest"];
    assert_eq!(send_req["properties"]["to"]["minItems"], 1);
    // Optional fields also accept `null`: their schema is the first branch of an `anyOf`.
    let subject = &send_req["properties"]["subject"];
    assert_eq!(subject["anyOf"][1], serde_json::json!({ "type": "null" }));
    assert_eq!(subject["anyOf"][0]["maxLength"], 998);
    assert_eq!(
        send_req["properties"]["scheduled_at"]["anyOf"][0]["format"],
        "date-time"
    );
    let from = &send_req["properties"]["from"];
    assert_eq!(from["x-format"], "email");
    // The email check as an anchored pattern (checked against values by schemathesis, in
    // sandbox/tests/schemathesis.rs), with the 254 limit as a length.
    let pattern = from["pattern"].as_str().unwrap();
    assert!(pattern.starts_with('^') && pattern.ends_with('$'));
    assert_eq!(from["maxLength"], 254);
    let rules = send_req["allOf"].as_array().unwrap();
    assert!(
        rules
            .iter()
            .any(|r| r["not"]["required"] == serde_json::json!(["template", "html"]))
    );
    assert!(
        rules
            .iter()
            .any(|r| r["anyOf"].as_array().is_some_and(|a| a.len() == 3))
    );
    assert_eq!(send_req["x-rules"][0]["max_total"], 50);
    let attachment = &doc["components"]["schemas"]["Attachment"];
    assert_eq!(
        attachment["properties"]["content"]["anyOf"][0]["x-max-bytes"],
        41943040
    );
    // Open enums accept unknown values and list the known ones.
    let status = &doc["components"]["schemas"]["EmailStatus"];
    assert_eq!(status["x-open-enum"], true);
    assert_eq!(status["anyOf"][0]["enum"][0], "scheduled");
    // The webhook, with the Standard Webhooks headers.
    let hook = &doc["webhooks"]["EmailEvent"]["post"];
    assert_eq!(
        hook["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/EmailEvent"
    );
    let headers: Vec<&str> = hook["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        headers,
        ["webhook-id", "webhook-timestamp", "webhook-signature"]
    );
    // The union of events: a discriminator whose mapping covers every tag.
    let event = &doc["components"]["schemas"]["EmailEvent"];
    assert_eq!(event["discriminator"]["propertyName"], "type");
    assert_eq!(
        event["discriminator"]["mapping"]["email.bounced"],
        "#/components/schemas/EmailEvent_EmailBounced"
    );
    let bounced = &doc["components"]["schemas"]["EmailEvent_EmailBounced"];
    assert_eq!(bounced["properties"]["type"]["const"], "email.bounced");
    assert_eq!(
        bounced["properties"]["data"]["$ref"],
        "#/components/schemas/EmailBouncedData"
    );
    // Provenance and the sections OpenAPI has no place for.
    assert_eq!(doc["info"]["x-source"], "seed");
    assert_eq!(doc["x-rate-limit"]["requests"], 1000);
    assert_eq!(doc["x-rate-limit"]["source"], "seed");
    assert_eq!(doc["x-retry"]["max_attempts"], 3);
    assert_eq!(doc["servers"][0]["x-source"], "not_shown");
}

#[test]
fn nested_unions_keep_both_tags() {
    let doc = export::openapi::document(&service("messaging"));
    let schemas = &doc["components"]["schemas"];
    let message = &schemas["Message"];
    assert_eq!(message["discriminator"]["propertyName"], "channel");
    let sms = &schemas["Message_Sms"];
    assert_eq!(sms["properties"]["channel"]["const"], "sms");
    assert_eq!(sms["allOf"][0]["$ref"], "#/components/schemas/SmsMessage");
    assert_eq!(
        schemas["SmsMessage"]["discriminator"]["propertyName"],
        "message_type"
    );
    assert_eq!(
        schemas["SmsMessage_Text"]["allOf"][0]["$ref"],
        "#/components/schemas/SmsText"
    );
    assert_eq!(
        schemas["WhatsappText"]["properties"]["to"]["pattern"],
        "^\\+?[1-9][0-9]{1,14}$"
    );
}

#[test]
fn realtime_documents_say_the_signing_scheme_and_the_websocket_protocol() {
    let s = service("realtime");
    let doc = export::openapi::document(&s);
    let signing = &doc["components"]["securitySchemes"]["pusher_signature"];
    assert_eq!(signing["type"], "apiKey");
    assert_eq!(signing["in"], "query");
    assert_eq!(signing["name"], "auth_signature");
    assert_eq!(signing["x-signing"]["scheme"], "pusher_hmac_sha256");
    assert_eq!(
        doc["security"],
        serde_json::json!([{"pusher_signature": []}])
    );
    assert_eq!(
        doc["paths"]["/"]["get"]["security"],
        serde_json::json!([{"bearer": []}])
    );
    assert!(doc["paths"]["/"]["get"]["x-conflict"].is_string());
    let trigger = &doc["paths"]["/apps/{app_id}/events"]["post"];
    assert_eq!(trigger["parameters"][0]["x-from-credential"], "app_id");
    assert!(doc["webhooks"]["WebhookBody"]["post"].is_object());

    let ws = export::asyncapi::document(&s);
    assert_eq!(ws["asyncapi"], "3.1.0");
    assert_eq!(ws["channels"]["connection"]["address"], "/app/{key}");
    let messages = ws["components"]["messages"].as_object().unwrap();
    for m in &s.websocket.as_ref().unwrap().messages {
        assert!(messages.contains_key(&m.name), "{}", m.name);
    }
    assert_eq!(
        messages["subscribe"]["payload"]["properties"]["event"]["const"],
        "pusher:subscribe"
    );
    // Both directions: ping is sent and received.
    assert_eq!(ws["operations"]["send_ping"]["action"], "send");
    assert_eq!(ws["operations"]["receive_ping"]["action"], "receive");
    assert_eq!(ws["operations"]["send_subscribe"]["action"], "send");
    assert!(ws["operations"]["receive_subscribe"].is_null());
    assert_eq!(
        ws["channels"]["connection"]["x-close-codes"][0]["action"],
        "fail"
    );
    assert!(ws["components"]["schemas"]["SubscribeData"].is_object());
    assert!(
        ws["components"]["schemas"]["TriggerEventRequest"].is_null(),
        "only the protocol's payloads"
    );
}

#[test]
fn several_webhook_payload_types_are_exported_with_media_type_selection_and_scheme() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/webhooks/spec/hooks.yaml");
    let doc = export::openapi::document(
        &tidings_codegen::check::check_paths(&[&path], tidings_codegen::ProvenancePolicy::Required)
            .map(|mut services| services.remove(0))
            .unwrap(),
    );
    let hooks = doc["webhooks"].as_object().unwrap();
    let names: Vec<&str> = hooks.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["event", "inbound_message", "message_status", "ping"],
        "one entry per payload type"
    );
    let status = &hooks["message_status"]["post"];
    assert!(status["requestBody"]["content"]["application/x-www-form-urlencoded"].is_object());
    assert_eq!(status["x-signature"]["algorithm"], "hmac_sha1");
    assert_eq!(status["x-signature"]["over"], "url_sorted_params");
    assert_eq!(
        status["x-select"],
        serde_json::json!({ "field": "MessageStatus" })
    );
    assert_eq!(status["parameters"][0]["name"], "X-Twilio-Signature");
    let event = &hooks["event"]["post"];
    assert_eq!(event["x-signature"]["template"], "{id}.{timestamp}.{body}");
    assert_eq!(event["x-signature"]["prefix"], "v1,");
    let headers: Vec<&str> = event["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        headers,
        ["webhook-signature", "webhook-id", "webhook-timestamp"]
    );
    let ping = &hooks["ping"]["post"];
    assert!(ping.get("x-signature").is_none());
    assert_eq!(ping["parameters"][0]["schema"]["const"], "ping");
    assert_eq!(
        hooks["inbound_message"]["post"]["x-select"],
        serde_json::json!({ "path": "/twilio/inbound" })
    );
}
