//! Issue 30, "accepted by Prism" on the providers' whole documents (`tests/providers/full/`):
//! every request body example a document gives is decoded and encoded again as the imported
//! client's types do ([`request_examples`]), then sent by the runtime with the imported spec's
//! own operation description (its path, auth, body encoding: JSON, form or multipart) to Prism
//! serving the same document, which must accept every request.
//!
//! Path, required query and required header parameters come from the document: a parameter's
//! `example`, `default` or first `enum` value, else a value its schema allows (its `pattern`,
//! `format`, `minimum`, `minLength`); a path parameter the spec fills from a credential
//! (Twilio's `AccountSid`) takes the credential, set to a value the parameter's schema allows.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod providers_common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use providers_common::Prism;
use serde_json::Value;
use tidings_codegen::import::{ImportOptions, import_openapi, request_examples};
use tidings_codegen::resolved::{OperationInfo, Service};
use tidings_codegen::{check, describe, load};
use tidings_runtime::spec::BodyEncoding;
use tidings_runtime::{Client, Request, RetryPolicy};

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sendgrid_s_request_examples_are_accepted_by_prism() {
    let sent = accepted("sendgrid_oai.json", "sendgrid").await;
    // 100 request examples (inline, and the body component's own) of 99 operations.
    assert!(sent >= 100, "{sent}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twilio_s_request_examples_are_accepted_by_prism() {
    let sent = accepted("twilio_api_v2010.json", "twilio").await;
    assert!(sent >= 60, "{sent}");
}

fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn leak_str(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

/// Sends every request example of `document` through Prism serving it; returns how many were
/// sent, after Prism accepted each.
async fn accepted(document: &str, service: &str) -> usize {
    let path = workspace().join("tests/providers/full").join(document);
    let text = std::fs::read_to_string(&path).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let imported = import_openapi(&text, &ImportOptions::new(service, document), None).unwrap();
    let examples = request_examples(&text, &imported, document).unwrap();
    let loaded = load::load_str(document, &imported.yaml).unwrap();
    let spec = check::check(&loaded).unwrap();

    let prism = Prism::serve(
        &workspace().join("tests/peers/prism/node_modules/.bin/prism"),
        &path,
    )
    .await;
    let credentials = credentials(&spec, &doc);
    let client = client(&spec, &credentials, &prism.url);

    let mut sent = 0;
    let mut undecodable = Vec::new();
    let mut breaking = Vec::new();
    let (mut misread, mut refused) = (Vec::new(), Vec::new());
    // Requests Prism refused only for lists of one.
    let mut misread_requests = 0;
    for example in &examples {
        let body = match &example.sent {
            Ok(body) => body,
            // An example that does not decode breaks its own schema (the fidelity report
            // lists each); Prism would refuse it too.
            Err(why) => {
                undecodable.push(format!("{}: {why}", example.pointer));
                continue;
            }
        };
        // An example that breaks its own schema is sent as the document wrote it, and a
        // validating server refuses it: the document disagrees with itself.
        if let Some(why) = &example.breaks_schema {
            breaking.push(format!("{}: {why}", example.pointer));
            continue;
        }
        let op = spec
            .operations
            .iter()
            .find(|o| o.name == example.operation)
            .unwrap();
        let request = request(&credentials, op, &doc, &example.operation_pointer, body)
            .unwrap_or_else(|e| panic!("{}: {e}", example.pointer));
        let form = !matches!(request.operation().body_encoding, BodyEncoding::Json);
        let before = prism.log().len();
        // The answer is whichever Prism picks; what matters is whether it accepted the request.
        let _ = client.call_bytes(request).await;
        sent += 1;
        // Prism writes a request's validation to its log before it answers.
        let log = prism.log();
        let misread_before = misread.len();
        for error in log[before..]
            .lines()
            .filter(|l| l.contains("[VALIDATOR]") && l.contains("error"))
        {
            let what = error.split("error").last().unwrap().trim();
            // Prism reads a form field sent once as text, whatever its schema says: a list of
            // one item is sent as one value (the same bytes the document's example shows),
            // and Prism refuses it as not an array.
            let one_item_list = form
                && what
                    .strip_prefix("Request body property ")
                    .and_then(|rest| rest.strip_suffix(" must be array"))
                    .is_some_and(|field| {
                        body.get(field)
                            .and_then(Value::as_array)
                            .is_some_and(|items| items.len() == 1)
                    });
            if one_item_list {
                misread.push(format!("{}: {what}", example.pointer));
            } else {
                refused.push(format!("{}: {what}", example.pointer));
            }
        }
        if misread.len() > misread_before {
            misread_requests += 1;
        }
    }
    eprintln!(
        "{document}: {sent} request examples sent; {} not decodable: {undecodable:#?}; {} \
         breaking their own schema: {breaking:#?}",
        undecodable.len(),
        breaking.len()
    );
    eprintln!(
        "{document}: {misread_requests} refused by Prism for one value sent for a list of one: \
         {misread:#?}"
    );
    // SendGrid's recipient ids sent as strings where its schema says integers: the only one.
    assert!(undecodable.len() <= 1, "{undecodable:#?}");
    assert!(refused.is_empty(), "Prism refused:\n{}", refused.join("\n"));
    let (received, passed) = prism.received_and_accepted();
    assert_eq!(received, sent, "{}", prism.log());
    assert_eq!(passed + misread_requests, sent, "{}", prism.log());
    sent
}

/// A value for each credential of the spec: one the document allows where the spec puts the
/// credential in a path (Twilio's `AccountSid`), else a placeholder.
fn credentials(spec: &Service, doc: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for credential in &spec.credentials {
        let in_path = spec.operations.iter().find_map(|op| {
            let at = op
                .path_params
                .iter()
                .position(|p| p.from_credential.as_deref() == Some(credential.name.as_str()))?;
            let name = document_path_params(note_pointer(op)).into_iter().nth(at)?;
            Some(sample(parameter(doc, note_pointer(op), "path", &name)?))
        });
        let value = in_path.unwrap_or_else(|| format!("{}-not-a-secret", credential.name));
        out.insert(credential.name.clone(), value);
    }
    out
}

/// A runtime client of the imported spec, pointed at Prism.
fn client(spec: &Service, credentials: &BTreeMap<String, String>, base: &str) -> Client {
    let service = leak(describe::service_spec(spec));
    let mut builder = Client::builder(service)
        .base_url(base)
        .retry(RetryPolicy::none());
    for (name, value) in credentials {
        builder = builder.credential(name, value.clone());
    }
    builder.build().unwrap()
}

/// The request the imported client sends for `op` with `body`.
fn request(
    credentials: &BTreeMap<String, String>,
    op: &OperationInfo,
    doc: &Value,
    op_pointer: &str,
    body: &Value,
) -> Result<Request, tidings_runtime::Error> {
    let spec = leak(describe::operation_spec(op));
    let mut request = Request::new(spec);
    // The import names path parameters in snake case; the document's are found by position.
    let named = document_path_params(op_pointer);
    assert_eq!(named.len(), op.path_params.len(), "{op_pointer}");
    for (p, name) in op.path_params.iter().zip(&named) {
        let value = match &p.from_credential {
            Some(c) => credentials[c].clone(),
            None => sample(
                parameter(doc, op_pointer, "path", name)
                    .unwrap_or_else(|| panic!("{op_pointer}: no path parameter `{name}`")),
            ),
        };
        request = request.path_param(leak_str(&p.wire), &value);
    }
    for place in ["query", "header"] {
        let required: BTreeMap<String, String> = parameters(doc, op_pointer)
            .into_iter()
            .filter(|p| p.get("in").and_then(Value::as_str) == Some(place))
            .filter(|p| p.get("required").and_then(Value::as_bool) == Some(true))
            .map(|p| (p["name"].as_str().unwrap().to_owned(), sample(p)))
            .collect();
        if !required.is_empty() {
            request = match place {
                "query" => request.query(&required)?,
                _ => request.header_params(&required)?,
            };
        }
    }
    match spec.body_encoding {
        BodyEncoding::Json => request.json(body),
        BodyEncoding::Form(style) => request.form(body, style),
        BodyEncoding::Multipart(style) => request.multipart(body, style),
        // The example's text, as bytes of the first media type the operation takes.
        BodyEncoding::Binary => request.binary(tidings_runtime::Binary::new(
            spec.body_media
                .first()
                .copied()
                .unwrap_or("application/octet-stream"),
            serde_json::to_vec(body).unwrap(),
        )),
    }
}

/// The path parameters' names in the document's path (`/paths/~1a~1{Id}/get`), in order.
fn document_path_params(op_pointer: &str) -> Vec<String> {
    let op_pointer = op_pointer.trim_start_matches('#');
    let item = &op_pointer["/paths/".len()..op_pointer.rfind('/').unwrap()];
    let path = item.replace("~1", "/").replace("~0", "~");
    path.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_owned()))
        .collect()
}

/// The document pointer of an imported operation (its note says where it was imported from).
fn note_pointer(op: &OperationInfo) -> &str {
    let note = op.note.as_deref().unwrap();
    note.split_once('#').unwrap().1.trim_end()
}

fn resolve<'a>(doc: &'a Value, pointer: &str) -> &'a Value {
    let pointer = pointer.trim_start_matches('#');
    doc.pointer(pointer)
        .unwrap_or_else(|| panic!("{pointer} is not in the document"))
}

/// The operation's parameters, then its path item's (the operation's parent in the
/// document), `$ref`s followed.
fn parameters<'a>(doc: &'a Value, op_pointer: &str) -> Vec<&'a Value> {
    let op_pointer = op_pointer.trim_start_matches('#');
    let item_pointer = &op_pointer[..op_pointer.rfind('/').unwrap()];
    [op_pointer, item_pointer]
        .into_iter()
        .filter_map(|at| resolve(doc, at).get("parameters").and_then(Value::as_array))
        .flatten()
        .map(|p| match p.get("$ref").and_then(Value::as_str) {
            Some(r) => resolve(doc, r),
            None => p,
        })
        .collect()
}

/// The parameter `name` in `place`: the operation's own, else its path item's.
fn parameter<'a>(doc: &'a Value, op_pointer: &str, place: &str, name: &str) -> Option<&'a Value> {
    parameters(doc, op_pointer).into_iter().find(|p| {
        p.get("in").and_then(Value::as_str) == Some(place)
            && p.get("name").and_then(Value::as_str) == Some(name)
    })
}

/// A value the parameter's schema allows, as text.
fn sample(param: &Value) -> String {
    // Swagger 2.0 writes the schema on the parameter itself.
    let schema = param.get("schema").unwrap_or(param);
    let given = param
        .get("example")
        .or_else(|| schema.get("example"))
        .or_else(|| schema.get("default"))
        .or_else(|| schema.get("enum").and_then(|e| e.get(0)));
    if let Some(v) = given {
        return match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("integer" | "number") => schema
            .get("minimum")
            .and_then(Value::as_i64)
            .unwrap_or(1)
            .max(1)
            .to_string(),
        Some("boolean") => "true".into(),
        _ => {
            if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
                return from_pattern(pattern);
            }
            match schema.get("format").and_then(Value::as_str) {
                Some("date-time") => "2024-05-01T10:00:00Z".into(),
                Some("date") => "2024-05-01".into(),
                Some("email") => "ada@example.com".into(),
                Some("uuid") => "ca7a3796-e8a8-4029-9ccb-df8937940562".into(),
                Some("uri") => "https://example.com/a".into(),
                _ => {
                    let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(1);
                    "x".repeat(usize::try_from(min.max(7)).unwrap())
                }
            }
        }
    }
}

/// A text the simple patterns of the documents match (`^AC[0-9a-fA-F]{32}$`,
/// `^(SM|MM)[0-9a-fA-F]{32}$`): literals, a group's first alternative, a class's first
/// character, `{n}`/`{n,m}` as `n`, `+` as one, `*` and `?` as none.
fn from_pattern(pattern: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    // The last atom written, to repeat for a quantifier.
    let mut atom = String::new();
    while i < chars.len() {
        match chars[i] {
            '^' | '$' => i += 1,
            '(' => {
                let close = i + chars[i..].iter().position(|&c| c == ')').unwrap();
                let group: String = chars[i + 1..close].iter().collect();
                atom = from_pattern(group.split('|').next().unwrap());
                out.push_str(&atom);
                i = close + 1;
            }
            '[' => {
                let close = i + chars[i..].iter().position(|&c| c == ']').unwrap();
                atom = chars[i + 1].to_string();
                out.push_str(&atom);
                i = close + 1;
            }
            '{' => {
                let close = i + chars[i..].iter().position(|&c| c == '}').unwrap();
                let spec: String = chars[i + 1..close].iter().collect();
                let n: usize = spec.split(',').next().unwrap().parse().unwrap();
                out.truncate(out.len() - atom.len());
                out.push_str(&atom.repeat(n));
                i = close + 1;
            }
            '*' | '?' => {
                out.truncate(out.len() - atom.len());
                i += 1;
            }
            '+' => i += 1,
            '\\' => {
                atom = chars[i + 1].to_string();
                out.push_str(&atom);
                i += 2;
            }
            c => {
                atom = c.to_string();
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

#[test]
fn patterns_give_text_they_match() {
    assert_eq!(
        from_pattern("^AC[0-9a-fA-F]{32}$"),
        format!("AC{}", "0".repeat(32))
    );
    assert_eq!(
        from_pattern("^(SM|MM)[0-9a-fA-F]{32}$"),
        format!("SM{}", "0".repeat(32))
    );
    assert_eq!(from_pattern("^a+b?c*$"), "a");
}
