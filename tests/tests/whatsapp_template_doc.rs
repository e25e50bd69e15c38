//! Issue 27 item 8: the `Message::whatsapp_template` doc example names a template the sandbox
//! has (the example's template is read from the doc comment and sent to the messaging sandbox
//! over loopback), and the sandbox's 404 for an unknown template says how to list them.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use tidings::messaging::{Message, TemplateContent};
use tidings_sandbox::messaging::{MessagingSandbox, MessagingSandboxConfig};

/// The `TemplateContent::new("name", "language")` of the doc example of `whatsapp_template`.
fn doc_example_template() -> (String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../generated/services/messaging/src/ext/messaging.rs");
    let source = std::fs::read_to_string(path).unwrap();
    let doc = &source[..source.find("pub fn whatsapp_template(").unwrap()];
    let call = &doc[doc.rfind("TemplateContent::new(").unwrap() + "TemplateContent::new(".len()..];
    let args: Vec<String> = call[..call.find(')').unwrap()]
        .split(',')
        .map(|a| a.trim().trim_matches('"').to_owned())
        .collect();
    (args[0].clone(), args[1].clone())
}

#[tokio::test]
async fn the_doc_examples_template_is_accepted_and_an_unknown_one_says_how_to_list_them() {
    let sandbox = MessagingSandbox::start(MessagingSandboxConfig::default())
        .await
        .unwrap();
    let client = sandbox.client().unwrap();

    let (name, language) = doc_example_template();
    let message = Message::whatsapp_template(
        "+14155550100",
        "+447700900123",
        TemplateContent::new(name.as_str(), language.as_str()),
    );
    let sent = client.send_message(&message).await;
    assert!(
        sent.is_ok(),
        "the doc example's `{name}` ({language}): {sent:?}"
    );

    let unknown = Message::whatsapp_template(
        "+14155550100",
        "+447700900123",
        TemplateContent::new("no_such_template", "en_US"),
    );
    let err = client.send_message(&unknown).await.unwrap_err();
    assert_eq!(err.status(), Some(404), "{err}");
    let text = err.to_string();
    assert!(text.contains("does not exist; approved ones"), "{text}");
    assert!(text.contains("(MessagingClient::list_templates)"), "{text}");
    assert!(text.contains("GET /v1/templates"), "{text}");
    assert!(
        text.contains("order_update (en_US)"),
        "names the approved ones: {text}"
    );
    assert!(
        !text.contains("spring_sale"),
        "a pending one is not offered: {text}"
    );
    sandbox.shutdown().await;
}
