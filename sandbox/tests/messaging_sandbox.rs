//! The messaging client against the messaging sandbox, over loopback: SMS and WhatsApp template
//! sends with their status lifecycles and signed `message.status` webhooks, inbound messages
//! marked read, failures, listing, auth and validation errors.

#![allow(clippy::unwrap_used)]

#[path = "email_support/mod.rs"]
mod support;

use std::time::Duration;

use futures_util::StreamExt;
use support::{Receiver, client_headers, eventually};
use tidings::messaging::{
    Channel, ErrorResponse, ListMessagesQuery, ListTemplatesQuery, Message, MessageStatus,
    MessagingClient, MessagingEvent, TemplateContent, TemplateStatus, UpdateMessageRequest,
    UpdateMessageStatus,
};
use tidings_runtime::ErrorKind;
use tidings_sandbox::ServiceConfig;
use tidings_sandbox::messaging::{MessagingSandbox, MessagingSandboxConfig};
use tidings_sandbox::server::{WebhookTarget, generate_secret};

const WAIT: Duration = Duration::from_secs(20);

async fn start(config: MessagingSandboxConfig) -> (MessagingSandbox, MessagingClient) {
    let sandbox = MessagingSandbox::start(config.lifecycle_step(Duration::from_millis(100)))
        .await
        .unwrap();
    let client = sandbox.client().unwrap();
    (sandbox, client)
}

async fn wait_for_status(client: &MessagingClient, uuid: &str, status: MessageStatus) {
    eventually(WAIT, || async {
        let record = client.get_message(uuid).await.unwrap();
        (record.status == status).then_some(())
    })
    .await;
}

fn status_event(secret: &str, received: &support::Received) -> tidings::messaging::StatusEvent {
    match tidings::messaging::verify_webhook(
        secret,
        &client_headers(&received.headers),
        &received.body,
    )
    .unwrap()
    {
        MessagingEvent::Status(event) => event,
        other => panic!("expected message.status, got {other:?}"),
    }
}

#[tokio::test]
async fn an_sms_progresses_to_delivered_with_a_signed_status_webhook_per_change() {
    let mut receiver = Receiver::start(0).await;
    let secret = generate_secret();
    let (sandbox, client) = start(
        MessagingSandboxConfig::default().webhook(WebhookTarget::new(&receiver.url, &secret)),
    )
    .await;

    let sms = Message::sms("Acme", "+447700900123", "Your code is 123456").client_ref("signup-1");
    let sent = client.send_message(&sms).await.unwrap();
    let record = client.get_message(&sent.message_uuid).await.unwrap();
    assert_eq!(record.channel, Channel::Sms);
    assert_eq!(record.to, "+447700900123");
    wait_for_status(&client, &sent.message_uuid, MessageStatus::Delivered).await;

    let submitted = status_event(&secret, &receiver.next(WAIT).await);
    assert_eq!(submitted.status, MessageStatus::Submitted);
    assert_eq!(submitted.message_uuid, sent.message_uuid);
    assert_eq!(submitted.client_ref.as_deref(), Some("signup-1"));
    let delivered = status_event(&secret, &receiver.next(WAIT).await);
    assert_eq!(delivered.status, MessageStatus::Delivered);
    assert_eq!(delivered.sms.unwrap().segments, Some(1));
    assert_eq!(delivered.usage.unwrap().currency, "EUR");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_whatsapp_template_is_read_and_its_events_go_to_the_messages_own_webhook_url() {
    let mut own = Receiver::start(0).await;
    let (sandbox, client) = start(MessagingSandboxConfig::default()).await;
    let templates = client
        .list_templates(&ListTemplatesQuery::default().status(TemplateStatus::Approved))
        .await
        .unwrap();
    assert!(templates.data.iter().any(|t| t.name == "welcome"));

    let message = Message::whatsapp_template(
        "+14155550100",
        "+447700900123",
        TemplateContent::new("welcome", "en_US"),
    )
    .webhook_url(&own.url);
    let sent = client.send_message(&message).await.unwrap();
    wait_for_status(&client, &sent.message_uuid, MessageStatus::Read).await;
    let secret = sandbox.webhook_secret().to_owned();
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(status_event(&secret, &own.next(WAIT).await).status);
    }
    assert_eq!(
        statuses,
        [
            MessageStatus::Submitted,
            MessageStatus::Delivered,
            MessageStatus::Read
        ]
    );

    // Unknown (404) and unapproved (409) templates are refused with the field named.
    for (name, status) in [("no_such_template", 404), ("spring_sale", 409)] {
        let message = Message::whatsapp_template(
            "+14155550100",
            "+447700900123",
            TemplateContent::new(name, "en_US"),
        );
        let err = client.send_message(&message).await.unwrap_err();
        assert_eq!(err.status(), Some(status), "{name}");
        assert_eq!(
            err.api_error().unwrap().param.as_deref(),
            Some("template.name")
        );
    }
    sandbox.shutdown().await;
}

#[tokio::test]
async fn calls_and_failures_follow_their_own_lifecycles() {
    let (sandbox, client) = start(MessagingSandboxConfig::default()).await;
    let call = client
        .send_message(&Message::voice_call(
            "+14155550100",
            "+447700900123",
            "Your code is 1 2 3",
        ))
        .await
        .unwrap();
    assert_eq!(
        client.get_message(&call.message_uuid).await.unwrap().status,
        MessageStatus::Started
    );
    wait_for_status(&client, &call.message_uuid, MessageStatus::Completed).await;

    let lost = client
        .send_message(&Message::sms("Acme", "+447700900000", "hello"))
        .await
        .unwrap();
    wait_for_status(&client, &lost.message_uuid, MessageStatus::Undeliverable).await;
    let record = client.get_message(&lost.message_uuid).await.unwrap();
    assert!(record.error.is_some());
    sandbox.shutdown().await;
}

#[tokio::test]
async fn inbound_messages_arrive_as_webhooks_and_can_be_marked_read() {
    let mut receiver = Receiver::start(0).await;
    let secret = generate_secret();
    let (sandbox, client) = start(
        MessagingSandboxConfig::default().webhook(WebhookTarget::new(&receiver.url, &secret)),
    )
    .await;
    let uuid = sandbox.receive(
        Channel::Whatsapp,
        "+447700900123",
        "+14155550100",
        "Hi there",
    );
    let received = receiver.next(WAIT).await;
    match tidings::messaging::verify_webhook(
        &secret,
        &client_headers(&received.headers),
        &received.body,
    )
    .unwrap()
    {
        MessagingEvent::Inbound(inbound) => {
            assert_eq!(inbound.message_uuid, uuid);
            assert_eq!(inbound.text.as_deref(), Some("Hi there"));
        }
        other => panic!("expected message.inbound, got {other:?}"),
    }
    client
        .update_message(&uuid, &UpdateMessageRequest::new(UpdateMessageStatus::Read))
        .await
        .unwrap();
    assert_eq!(
        client.get_message(&uuid).await.unwrap().status,
        MessageStatus::Read
    );

    // Outbound messages cannot be marked read.
    let sent = client
        .send_message(&Message::sms("Acme", "+447700900123", "x"))
        .await
        .unwrap();
    let err = client
        .update_message(
            &sent.message_uuid,
            &UpdateMessageRequest::new(UpdateMessageStatus::Read),
        )
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(409));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn messages_are_listed_newest_first_filtered_and_paged() {
    let (sandbox, client) = start(MessagingSandboxConfig::default()).await;
    let mut sms = Vec::new();
    for i in 0..7 {
        sms.push(
            client
                .send_message(&Message::sms("Acme", "+447700900123", format!("n{i}")))
                .await
                .unwrap()
                .message_uuid,
        );
        client
            .send_message(&Message::whatsapp_text(
                "+14155550100",
                "+447700900123",
                format!("w{i}"),
            ))
            .await
            .unwrap();
    }
    let only_sms: Vec<String> = client
        .list_messages_stream(&ListMessagesQuery::default().limit(3).channel(Channel::Sms))
        .map(|m| m.unwrap().message_uuid)
        .collect()
        .await;
    sms.reverse();
    assert_eq!(only_sms, sms);
    let all = client
        .list_messages(&ListMessagesQuery::default().limit(100))
        .await
        .unwrap();
    assert_eq!(all.data.len(), 14);
    assert!(!all.has_more);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn bad_keys_and_bad_bodies_are_refused_with_the_specs_error_body() {
    let (sandbox, _client) = start(MessagingSandboxConfig::default()).await;
    let wrong = MessagingClient::builder()
        .base_url(sandbox.base_url())
        .api_key("wrong")
        .build()
        .unwrap();
    let err = wrong
        .list_messages(&ListMessagesQuery::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Auth);

    let http = reqwest::Client::new();
    let url = format!("{}/v1/messages", sandbox.base_url());
    let post = |body: &'static str| {
        http.post(&url)
            .bearer_auth(sandbox.api_key())
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let response = post(
        r#"{"channel":"sms","message_type":"text","from":"Acme","to":"not a number","text":"hi"}"#,
    )
    .await
    .unwrap();
    assert_eq!(response.status(), 422);
    let body: ErrorResponse = response.json().await.unwrap();
    assert_eq!(body.error.code, "validation_error");
    assert!(
        body.error.param.as_deref().unwrap().ends_with("to"),
        "{:?}",
        body.error.param
    );

    let response = post(
        r#"{"channel":"fax","message_type":"text","from":"Acme","to":"+447700900123","text":"hi"}"#,
    )
    .await
    .unwrap();
    assert_eq!(response.status(), 422);
    let body: ErrorResponse = response.json().await.unwrap();
    assert_eq!(body.error.param.as_deref(), Some("channel"));

    // SMS takes text only.
    let response = post(r#"{"channel":"sms","message_type":"image","from":"Acme","to":"+447700900123","image":{"url":"https://example.com/a.png"}}"#).await.unwrap();
    assert_eq!(response.status(), 422);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn the_messages_kept_are_bounded_in_bytes_the_oldest_forgotten_first() {
    // Every message was kept for the life of the process, however many were sent.
    let mut config = MessagingSandboxConfig::default();
    config.max_message_bytes = 5_000;
    let (sandbox, client) = start(config).await;
    let mut sent = Vec::new();
    for i in 0..20 {
        let text = format!("message {i} {}", "x".repeat(200));
        let message = Message::sms("Acme", "+447700900123", &text);
        sent.push(client.send_message(&message).await.unwrap().message_uuid);
    }
    let listed: Vec<String> = client
        .list_messages_stream(&ListMessagesQuery::default().limit(50))
        .map(|m| m.unwrap().message_uuid)
        .collect()
        .await;
    assert!(
        (1..20).contains(&listed.len()),
        "{} of 20 kept within 5,000 bytes",
        listed.len()
    );
    // Newest first: the last ones sent, in order.
    let newest: Vec<String> = sent.iter().rev().take(listed.len()).cloned().collect();
    assert_eq!(listed, newest);
    let err = client.get_message(&sent[0]).await.unwrap_err();
    assert_eq!(err.status(), Some(404), "{err}");
    client.get_message(&sent[19]).await.unwrap();
    sandbox.shutdown().await;
}
