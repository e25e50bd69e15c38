//! Filling in a size takes effect: a maintainer who gives `limits.sizes.<name>` a value (or
//! changes it) changes the checks the client runs and the sandbox applies, with no other edit.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

use tidings_codegen::check::{Service, TypeKind};
use tidings_codegen::{check, emit, load};

fn spec(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../spec/{name}.yaml"));
    std::fs::read_to_string(path).unwrap()
}

fn checked(name: &str, text: &str) -> Service {
    let loaded = load::load_str(&format!("spec/{name}.yaml"), text).unwrap();
    check::check(&loaded).unwrap_or_else(|d| panic!("{d}"))
}

fn field_max_len(service: &Service, ty: &str, field: &str) -> Option<u64> {
    let t = service.types.iter().find(|t| t.name == ty).unwrap();
    let TypeKind::Object(fields) = &t.kind else {
        panic!("{ty} is not an object")
    };
    fields
        .iter()
        .find(|f| f.wire == field)
        .unwrap()
        .constraints
        .max_len
}

#[test]
fn giving_message_size_a_value_bounds_the_send_email_body() {
    let text = spec("email");
    let before = checked("email", &text);
    let send = |s: &Service| {
        s.operations
            .iter()
            .find(|o| o.name == "send_email")
            .unwrap()
            .max_body_bytes
    };
    assert_eq!(send(&before), None, "message_size has no value yet");

    let filled = text.replacen(
        "    message_size:\n      unit: bytes\n",
        "    message_size:\n      max: 10485760\n      unit: bytes\n",
        1,
    );
    assert_ne!(
        filled, text,
        "the spec's message_size entry moved; update this test"
    );
    let after = checked("email", &filled);
    assert_eq!(send(&after), Some(10_485_760));
    let code = emit::emit_service(&after).unwrap();
    let flat: String = code.split_whitespace().collect();
    assert!(
        flat.contains(r#"OperationSpec::post("send_email","/v1/emails""#)
            && flat.contains(".max_body_bytes(10485760)"),
        "the operation's static does not carry the limit"
    );
}

#[test]
fn changing_a_size_changes_every_field_bound_to_it() {
    let text = spec("messaging");
    assert_eq!(
        field_max_len(&checked("messaging", &text), "SmsText", "text"),
        Some(1600)
    );
    let changed = text.replacen(
        "    sms_text:\n      max: 1600\n",
        "    sms_text:\n      max: 918\n",
        1,
    );
    assert_ne!(
        changed, text,
        "the spec's sms_text entry moved; update this test"
    );
    let service = checked("messaging", &changed);
    assert_eq!(field_max_len(&service, "SmsText", "text"), Some(918));
    let code = emit::emit_service(&service).unwrap();
    assert!(code.contains(r#"v.max_len("text", &self.text, 918)"#));
    // Every client_ref field follows its one size.
    let refs = text.matches("size: client_ref").count();
    assert!(refs >= 10, "{refs}");
}

#[test]
fn a_size_rule_counts_recipients_from_the_size() {
    let text = spec("email").replacen(
        "    recipients_per_email:\n      max: 50\n",
        "    recipients_per_email:\n      max: 20\n",
        1,
    );
    let service = checked("email", &text);
    let t = service
        .types
        .iter()
        .find(|t| t.name == "SendEmailRequest")
        .unwrap();
    let totals: Vec<String> = t.rules.iter().map(|r| format!("{r:?}")).collect();
    assert!(
        totals
            .iter()
            .any(|r| r.starts_with("MaxTotal") && r.ends_with("20)")),
        "{totals:?}"
    );
}
