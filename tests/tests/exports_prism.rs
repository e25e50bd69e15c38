//! The exported OpenAPI documents against the generated clients: Prism (a validating mock
//! server built from the document alone) checks every request of every operation of the email
//! and messaging clients. A request the document does not allow is a violation in Prism's log
//! and, with `--errors`, an error answer; the test fails on either, and on any answer that is
//! not a 2xx the client decodes.
//!
//! Prism is installed by `scripts/test` (npm, into `tests/peers/exports`); when it is missing
//! the test fails and says so.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod providers_common;

use std::path::PathBuf;

use providers_common::Prism;

use serde_json::json;
use tidings_runtime::RetryPolicy;

const KEY: &str = "export-test-key-0123456789";
const UUID: &str = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Prism (the copy `scripts/test` installs into `tests/peers/exports`) serving one exported
/// document of this project.
async fn exported(document: &str) -> Prism {
    Prism::serve(
        &root().join("tests/peers/exports/node_modules/.bin/prism"),
        &root().join(document),
    )
    .await
}

/// Counts calls, each of which must succeed (a 2xx answer the client decodes).
struct Calls(usize);

impl Calls {
    fn ok<T, E: std::fmt::Display>(&mut self, what: &str, result: Result<T, E>) -> T {
        self.0 += 1;
        result.unwrap_or_else(|e| panic!("{what}: {e}"))
    }
}

#[tokio::test]
async fn every_email_operation_passes_prism_validation() {
    use tidings::email::*;
    let prism = exported("spec/openapi/email.openapi.json").await;
    let email = EmailClient::builder()
        .base_url(&prism.url)
        .api_key(KEY)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let mut c = Calls(0);

    c.ok(
        "list_resources",
        email.list_resources(&ListResourcesQuery::default()).await,
    );
    let full = tidings_tests::full_send_email_request();
    c.ok("send_email", email.send_email(&full).await);
    let templated = SendEmailRequest::new("team@example.com", ["ada@example.com"]).template(
        TemplateRef::by_alias("welcome")
            .variable("first_name", "Ada")
            .variable("trial_days", 14),
    );
    c.ok("send_email (template)", email.send_email(&templated).await);
    let batch = SendBatchRequest::new([
        templated.clone(),
        SendEmailRequest::new("team@example.com", ["grace@example.com"]).text("Hello"),
    ]);
    c.ok("send_batch", email.send_batch(&batch).await);
    c.ok(
        "list_emails",
        email
            .list_emails(
                &ListEmailsQuery::default()
                    .limit(10)
                    .after("em_1")
                    .before("em_9"),
            )
            .await,
    );
    c.ok("get_email", email.get_email("em_1").await);
    c.ok(
        "reschedule_email",
        email
            .reschedule_email(
                "em_1",
                &RescheduleEmailRequest::new("2026-12-02T09:00:00+01:00"),
            )
            .await,
    );
    c.ok("cancel_email", email.cancel_email("em_1").await);

    let create = CreateTemplateRequest::new("Welcome")
        .alias("welcome")
        .subject("Hi {{{first_name}}}")
        .from("team@example.com")
        .reply_to(["support@example.com"])
        .html("<p>Hi {{{first_name}}}</p>")
        .text("Hi {{{first_name}}}")
        .variables([TemplateVariable::new("first_name")
            .r#type(TemplateVariableType::String)
            .fallback_value(json!("there"))]);
    c.ok("create_template", email.create_template(&create).await);
    c.ok(
        "list_templates",
        email
            .list_templates(&ListTemplatesQuery::default().limit(100))
            .await,
    );
    c.ok("get_template", email.get_template("welcome").await);
    let update = UpdateTemplateRequest::default()
        .name("Welcome 2")
        .subject("Hello {{{first_name}}}");
    c.ok(
        "update_template",
        email.update_template("tpl_1", &update).await,
    );
    c.ok("publish_template", email.publish_template("tpl_1").await);
    c.ok("delete_template", email.delete_template("tpl_1").await);

    let contact = CreateContactRequest::new("grace@example.com")
        .first_name("Grace")
        .last_name("Hopper")
        .attributes([("plan", json!("pro")), ("seats", json!(3))])
        .list_ids(["lst_1"]);
    c.ok("create_contact", email.create_contact(&contact).await);
    c.ok(
        "upsert_contact",
        email
            .upsert_contact(&contact.clone().unsubscribed(false))
            .await,
    );
    c.ok(
        "list_contacts",
        email
            .list_contacts(&ListContactsQuery::default().list_id("lst_1").limit(50))
            .await,
    );
    c.ok("get_contact", email.get_contact("grace@example.com").await);
    c.ok(
        "update_contact",
        email
            .update_contact("ct_1", &UpdateContactRequest::default().unsubscribed(true))
            .await,
    );
    c.ok(
        "delete_contact",
        email.delete_contact("grace@example.com").await,
    );

    c.ok(
        "create_list",
        email
            .create_list(&CreateListRequest::new("Newsletter").description("Monthly"))
            .await,
    );
    c.ok(
        "list_lists",
        email.list_lists(&ListListsQuery::default()).await,
    );
    c.ok("get_list", email.get_list("lst_1").await);
    c.ok(
        "update_list",
        email
            .update_list("lst_1", &UpdateListRequest::default().name("Monthly news"))
            .await,
    );
    c.ok(
        "list_list_contacts",
        email
            .list_list_contacts("lst_1", &ListListContactsQuery::default().limit(1))
            .await,
    );
    c.ok(
        "add_list_contact",
        email
            .add_list_contact("lst_1", &AddListContactRequest::new("grace@example.com"))
            .await,
    );
    c.ok(
        "remove_list_contact",
        email.remove_list_contact("lst_1", "ct_1").await,
    );
    c.ok("delete_list", email.delete_list("lst_1").await);

    c.ok(
        "create_suppression",
        email
            .create_suppression(
                &CreateSuppressionRequest::new("gone@example.com")
                    .reason(SuppressionReason::Manual),
            )
            .await,
    );
    c.ok(
        "list_suppressions",
        email
            .list_suppressions(&ListSuppressionsQuery::default().reason("hard_bounce"))
            .await,
    );
    c.ok(
        "get_suppression",
        email.get_suppression("gone@example.com").await,
    );
    c.ok(
        "delete_suppression",
        email.delete_suppression("gone@example.com").await,
    );

    let hook = CreateWebhookRequest::new(
        "https://hooks.example.com/email",
        [
            WebhookEventType::EmailBounced,
            WebhookEventType::EmailDelivered,
        ],
    )
    .description("bounces to the CRM");
    c.ok("create_webhook", email.create_webhook(&hook).await);
    c.ok(
        "list_webhooks",
        email.list_webhooks(&ListWebhooksQuery::default()).await,
    );
    c.ok("get_webhook", email.get_webhook("wh_1").await);
    c.ok(
        "update_webhook",
        email
            .update_webhook(
                "wh_1",
                &UpdateWebhookRequest::default().status(WebhookEndpointStatus::Disabled),
            )
            .await,
    );
    c.ok("delete_webhook", email.delete_webhook("wh_1").await);

    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn every_messaging_operation_and_message_kind_passes_prism_validation() {
    use tidings::messaging::*;
    let prism = exported("spec/openapi/messaging.openapi.json").await;
    let messaging = MessagingClient::builder()
        .base_url(&prism.url)
        .api_key(KEY)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let mut c = Calls(0);

    c.ok(
        "list_resources",
        messaging
            .list_resources(&ListResourcesQuery::default())
            .await,
    );
    let (wa, to) = ("+14155550100", "+447700900123");
    let (ig_from, ig_to) = ("17841400000000000", "5432109876543210");
    let template = TemplateContent::new("order_shipped", "en_US").components([
        TemplateComponent::new(TemplateComponentType::Header)
            .parameters([
                ImageParameter::new(MediaLink::new("https://example.com/box.jpg")).into(),
            ]),
        TemplateComponent::body(["Ada", "#1042"]),
        TemplateComponent::new(TemplateComponentType::Button)
            .sub_type("quick_reply")
            .index(0)
            .parameters([PayloadParameter::new("track-1042").into()]),
    ]);
    let messages: Vec<Message> = vec![
        Message::sms("Acme", "+44 7700 900123", "Your code is 123456").client_ref("otp-1"),
        SmsText::new("447700900100", to, "Grüße")
            .ttl(3600)
            .webhook_url("https://example.com/hooks/sms")
            .sms(SmsOptions::default().encoding(SmsEncoding::Unicode))
            .into(),
        WhatsappText::new(wa, to, "Thanks, on it!")
            .whatsapp(WhatsappOptions::default().context_message_uuid(UUID))
            .into(),
        Message::whatsapp_image(
            wa,
            to,
            ImageContent::new("https://example.com/r.jpg").caption("Receipt"),
        ),
        Message::whatsapp_audio(wa, to, "https://example.com/v.mp3"),
        Message::whatsapp_video(
            wa,
            to,
            VideoContent::new("https://example.com/h.mp4").caption("How-to"),
        ),
        Message::whatsapp_file(
            wa,
            to,
            FileContent::new("https://example.com/i.pdf")
                .caption("March")
                .name("invoice.pdf"),
        )
        .client_ref("inv-3"),
        Message::whatsapp_template(wa, to, template).webhook_url("https://example.com/hooks/wa"),
        Message::voice_call("+1 415 555 0100", to, "Your code is 1 2 3"),
        VoiceText::new(wa, to, "Your code is 1 2 3")
            .voice(
                VoiceOptions::default()
                    .language("en-GB")
                    .voice_name("Amy")
                    .repeat(2),
            )
            .client_ref("call-7")
            .into(),
        InstagramText::new(ig_from, ig_to, "A person will reply")
            .instagram(InstagramOptions::default().tag(InstagramTag::HumanAgent))
            .into(),
        Message::instagram_image(ig_from, ig_to, "https://example.com/a.jpg"),
        Message::instagram_audio(ig_from, ig_to, "https://example.com/a.mp3"),
        Message::instagram_video(ig_from, ig_to, "https://example.com/a.mp4"),
        Message::instagram_file(ig_from, ig_to, "https://example.com/a.pdf"),
    ];
    for message in &messages {
        c.ok(
            &format!("send_message {message:?}"),
            messaging.send_message(message).await,
        );
    }
    c.ok(
        "list_messages",
        messaging
            .list_messages(
                &ListMessagesQuery::default()
                    .limit(2)
                    .after("m_1")
                    .before("m_9")
                    .channel(Channel::Voice)
                    .status(MessageStatus::Answered),
            )
            .await,
    );
    c.ok("get_message", messaging.get_message(UUID).await);
    c.ok(
        "update_message",
        messaging
            .update_message(UUID, &UpdateMessageRequest::new(UpdateMessageStatus::Read))
            .await,
    );
    c.ok(
        "list_templates",
        messaging
            .list_templates(
                &ListTemplatesQuery::default()
                    .name("order_shipped")
                    .language("en_US")
                    .status(TemplateStatus::Approved),
            )
            .await,
    );

    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn prism_reports_an_invalid_request() {
    // The check above can fail: a body the document forbids (a template and an HTML body
    // together, and a `to` that is not a list) is a violation Prism logs and refuses.
    let prism = exported("spec/openapi/email.openapi.json").await;
    let answer = raw_post(
        &prism.url,
        "/v1/emails",
        r#"{"from": "a@example.com", "to": "b@example.com", "html": "<p>x</p>", "template": {"id": "t"}}"#,
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 4"), "answered: {answer}");
    let log = prism.log();
    assert!(log.contains("Violation"), "no violation logged:\n{log}");
}

/// A raw HTTP/1.1 POST over a TCP socket (the clients refuse to send invalid bodies).
async fn raw_post(base: &str, path: &str, body: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(host).await.unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {KEY}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

// The client of the test-only `tests/specs/shapes.yaml` (every naming and typing construct),
// generated by tests/build.rs.
include!(concat!(env!("OUT_DIR"), "/shapes.rs"));

#[tokio::test]
async fn names_and_types_constructs_pass_prism_validation() {
    use shapes::*;
    // Exported here rather than committed: the spec is a test fixture.
    let service = tidings_codegen::check::check_paths(
        &[&root().join("tests/specs/shapes.yaml")],
        tidings_codegen::ProvenancePolicy::Required,
    )
    .map(|mut services| services.remove(0))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let document = dir.path().join("shapes.openapi.json");
    let text = serde_json::to_string_pretty(&tidings_codegen::export::openapi::document(&service))
        .unwrap();
    std::fs::write(&document, text).unwrap();
    let prism = exported(document.to_str().unwrap()).await;
    let client = ShapesClient::builder()
        .base_url(&prism.url)
        .credential("api_key", KEY)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let mut c = Calls(0);
    let query = ListMessagesQuery::default()
        .date_sent_before("2024-01-02")
        .to(["+15550001", "+15550002"])
        .tag(["a", "b"])
        .ids([1, 22]);
    let headers = ListMessagesHeaders::new("trace-1").page_size(50);
    c.ok(
        "list_messages",
        client.list_messages(&query, &headers).await,
    );
    c.ok("get_answer", client.get_answer("A1").await);
    let sms = SendSms::new("sms", "+15550001")
        .send_at("2024-01-01T00:00:00Z")
        .send_on("2024-02-29");
    c.ok("send_sms", client.send_sms(&sms).await);
    let mms = SendMms {
        channel: "mms".into(),
        to: "+15550002".into(),
        media: vec!["https://example.com/a.png".into()],
    };
    c.ok("send_mms", client.send_mms(&mms).await);
    prism.assert_all_accepted(c.0);
}
