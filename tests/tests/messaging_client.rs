//! The messaging client end to end over real HTTP on loopback, against a server that checks
//! each request the way the spec describes it: method and path, bearer auth, the idempotency key
//! on sends, and a body that decodes as the spec's types, round-trips unchanged (no stray
//! fields) and passes the spec's constraints. Every channel and every message type is sent, and
//! the exact JSON on the wire is asserted.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::StreamExt;
use serde_json::{Value, json};
use tidings::messaging::{
    Channel, FileContent, ImageContent, ImageParameter, InstagramMessage, InstagramOptions,
    InstagramTag, ListMessagesQuery, ListTemplatesQuery, MediaLink, Message, MessageStatus,
    MessageType, MessagingClient, PayloadParameter, SmsEncoding, SmsMessage, SmsOptions, SmsText,
    TemplateComponent, TemplateComponentType, TemplateContent, TemplateStatus,
    UpdateMessageRequest, VideoContent, VoiceOptions, VoiceText, WhatsappOptions, WhatsappText,
};
use tidings_runtime::ErrorKind;
use tidings_runtime::validate::Validator;
use tidings_tests::{Recorded, Reply, TestServer};

const KEY: &str = "msg-test-key-0123456789";
const UUID: &str = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";

fn client(server: &TestServer) -> MessagingClient {
    MessagingClient::builder()
        .base_url(server.url())
        .api_key(KEY)
        .build()
        .unwrap()
}

fn problem(status: u16, code: &str, message: &str) -> Reply {
    Reply::json(
        status,
        json!({"error": {"code": code, "message": message, "request_id": "req_test"}}),
    )
}

/// Checks a body against a spec type: it decodes and encodes back to the same JSON (so it has
/// no field the type lacks).
fn decodes_exactly<T>(body: &Value) -> Result<T, String>
where
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    let typed: T = serde_json::from_value(body.clone()).map_err(|e| e.to_string())?;
    let back = serde_json::to_value(&typed).map_err(|e| e.to_string())?;
    if &back != body {
        return Err(format!("does not round-trip: sent {body}, typed {back}"));
    }
    Ok(typed)
}

/// As [`decodes_exactly`], and the value passes the spec's constraints.
fn conforms<T>(body: &Value) -> Result<T, String>
where
    T: serde::de::DeserializeOwned + serde::Serialize + tidings_runtime::validate::Validate,
{
    let typed = decodes_exactly::<T>(body)?;
    Validator::check(&typed).map_err(|e| e.to_string())?;
    Ok(typed)
}

fn record(uuid: &str, channel: &str, status: &str) -> Value {
    json!({
        "id": uuid, "message_uuid": uuid, "channel": channel, "message_type": "text",
        "direction": "outbound", "from": "+14155550100", "to": "+447700900123",
        "status": status, "timestamp": "2026-11-22T10:00:00Z"
    })
}

/// The service as the spec describes it; anything off-spec is answered with an error, so the
/// client call fails and the test with it.
fn spec_server(r: &Recorded) -> Reply {
    if r.header("authorization") != Some(format!("Bearer {KEY}").as_str()) {
        return problem(401, "invalid_api_key", "bad or missing bearer key");
    }
    let segments: Vec<&str> = r.path.trim_start_matches('/').split('/').collect();
    match (r.method.as_str(), segments.as_slice()) {
        ("POST", ["v1", "messages"]) => {
            if r.header("idempotency-key").is_none_or(str::is_empty) {
                return problem(400, "validation_error", "sends carry an Idempotency-Key");
            }
            if !r
                .header("content-type")
                .is_some_and(|c| c.starts_with("application/json"))
            {
                return problem(400, "validation_error", "JSON body expected");
            }
            match conforms::<Message>(&r.json()) {
                // A channel or message type the spec does not know decodes as Unknown.
                Ok(m) if m.message_type().is_none() => {
                    problem(422, "validation_error", "unknown channel or message type")
                }
                Ok(_) => Reply::json(202, json!({"message_uuid": UUID})),
                Err(e) => problem(422, "validation_error", &e),
            }
        }
        ("GET", ["v1", "messages"]) => {
            let q = r.query_pairs();
            let page = match q.get("after").map(String::as_str) {
                None => json!({"object": "list", "has_more": true, "data": [
                    record("11111111-1111-4111-8111-111111111111", "sms", "delivered"),
                    record("22222222-2222-4222-8222-222222222222", "voice", "answered"),
                ]}),
                Some("22222222-2222-4222-8222-222222222222") => {
                    json!({"object": "list", "has_more": false, "data": [
                        record("33333333-3333-4333-8333-333333333333", "whatsapp", "read"),
                    ]})
                }
                Some(other) => return problem(400, "validation_error", other),
            };
            Reply::json(200, page)
        }
        ("GET", ["v1", "messages", uuid]) => {
            let mut body = record(uuid, "voice", "machine");
            body["usage"] = json!({"price": "0.0125", "currency": "EUR"});
            Reply::json(200, body)
        }
        ("PATCH", ["v1", "messages", _uuid]) => {
            match decodes_exactly::<UpdateMessageRequest>(&r.json()) {
                Ok(_) => Reply::json(200, json!({})),
                Err(e) => problem(422, "validation_error", &e),
            }
        }
        ("GET", ["v1", "templates"]) => Reply::json(
            200,
            json!({"object": "list", "has_more": false, "data": [{
                "id": "tpl_1", "name": "order_shipped", "language": "en_US",
                "category": "utility", "status": "approved",
                "components": [{"type": "BODY", "text": "Hi {{1}}, order {{2}} shipped."}],
                "updated_at": "2026-11-01T08:00:00Z"
            }]}),
        ),
        ("GET", ["v1", "resources"]) => Reply::json(
            200,
            json!({"object": "list", "has_more": false, "data": [{"id": "res_1"}]}),
        ),
        _ => problem(404, "not_found", "no such route"),
    }
}

/// Sends `message`, checks the request line, auth and idempotency key, and returns the JSON
/// that went over the wire.
async fn send_and_capture(message: &Message) -> Value {
    let server = TestServer::start(spec_server).await;
    let sent = client(&server).send_message(message).await.unwrap();
    assert_eq!(sent.message_uuid, UUID);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!(
        (r.method.as_str(), r.path.as_str()),
        ("POST", "/v1/messages")
    );
    assert!(r.query.is_empty(), "the key must not travel in the URL");
    let key = r.header("idempotency-key").unwrap();
    assert!(!key.is_empty() && key.len() <= 256);
    r.json()
}

#[tokio::test]
async fn sms_text_goes_out_with_normalised_numbers_and_its_options() {
    let plain = Message::sms("Acme", "+44 7700 900123", "Your code is 123456").client_ref("otp-1");
    assert_eq!(
        send_and_capture(&plain).await,
        json!({"channel": "sms", "message_type": "text", "from": "Acme",
               "to": "+447700900123", "text": "Your code is 123456", "client_ref": "otp-1"})
    );

    let full: Message = SmsText::new("447700900100", "+447700900123", "Grüße")
        .ttl(3600)
        .webhook_url("https://example.com/hooks/sms")
        .sms(SmsOptions::default().encoding(SmsEncoding::Unicode))
        .into();
    // The leaf's own constructor does not normalise; only the `Message` constructors do.
    assert_eq!(
        send_and_capture(&full).await,
        json!({"channel": "sms", "message_type": "text", "from": "447700900100",
               "to": "+447700900123", "text": "Grüße", "ttl": 3600,
               "webhook_url": "https://example.com/hooks/sms", "sms": {"encoding": "unicode"}})
    );
}

#[tokio::test]
async fn whatsapp_text_and_every_media_type_go_out_typed() {
    let (from, to) = ("+14155550100", "+447700900123");
    let reply: Message = WhatsappText::new(from, to, "Thanks, on it!")
        .whatsapp(WhatsappOptions::default().context_message_uuid(UUID))
        .into();
    let cases = [
        (
            Message::whatsapp_text(from, "+44 (7700) 900-123", "Hello"),
            json!({"channel": "whatsapp", "message_type": "text", "from": from, "to": to, "text": "Hello"}),
        ),
        (
            reply,
            json!({"channel": "whatsapp", "message_type": "text", "from": from, "to": to,
                   "text": "Thanks, on it!", "whatsapp": {"context_message_uuid": UUID}}),
        ),
        (
            Message::whatsapp_image(
                from,
                to,
                ImageContent::new("https://example.com/r.jpg").caption("Receipt"),
            ),
            json!({"channel": "whatsapp", "message_type": "image", "from": from, "to": to,
                   "image": {"url": "https://example.com/r.jpg", "caption": "Receipt"}}),
        ),
        (
            Message::whatsapp_audio(from, to, "https://example.com/v.mp3"),
            json!({"channel": "whatsapp", "message_type": "audio", "from": from, "to": to,
                   "audio": {"url": "https://example.com/v.mp3"}}),
        ),
        (
            Message::whatsapp_video(
                from,
                to,
                VideoContent::new("https://example.com/h.mp4").caption("How-to"),
            ),
            json!({"channel": "whatsapp", "message_type": "video", "from": from, "to": to,
                   "video": {"url": "https://example.com/h.mp4", "caption": "How-to"}}),
        ),
        (
            Message::whatsapp_file(
                from,
                to,
                FileContent::new("https://example.com/i.pdf")
                    .caption("March")
                    .name("invoice.pdf"),
            )
            .client_ref("inv-3"),
            json!({"channel": "whatsapp", "message_type": "file", "from": from, "to": to,
                   "file": {"url": "https://example.com/i.pdf", "caption": "March", "name": "invoice.pdf"},
                   "client_ref": "inv-3"}),
        ),
    ];
    for (message, wire) in cases {
        assert_eq!(send_and_capture(&message).await, wire, "{message:?}");
    }
}

#[tokio::test]
async fn whatsapp_template_carries_name_language_and_typed_components() {
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
    let message = Message::whatsapp_template("+14155550100", "+447700900123", template)
        .webhook_url("https://example.com/hooks/wa");
    assert_eq!(message.message_type(), Some(MessageType::Template));
    assert_eq!(
        send_and_capture(&message).await,
        json!({
            "channel": "whatsapp", "message_type": "template",
            "from": "+14155550100", "to": "+447700900123",
            "template": {
                "name": "order_shipped", "language": "en_US",
                "components": [
                    {"type": "header", "parameters": [{"type": "image", "image": {"link": "https://example.com/box.jpg"}}]},
                    {"type": "body", "parameters": [{"type": "text", "text": "Ada"}, {"type": "text", "text": "#1042"}]},
                    {"type": "button", "sub_type": "quick_reply", "index": 0,
                     "parameters": [{"type": "payload", "payload": "track-1042"}]}
                ]
            },
            "webhook_url": "https://example.com/hooks/wa"
        })
    );
}

#[tokio::test]
async fn voice_call_speaks_the_text_with_the_chosen_voice() {
    let simple = Message::voice_call("+1 415 555 0100", "+447700900123", "Your code is 1 2 3");
    assert_eq!(
        send_and_capture(&simple).await,
        json!({"channel": "voice", "message_type": "text", "from": "+14155550100",
               "to": "+447700900123", "text": "Your code is 1 2 3"})
    );
    let tuned: Message = VoiceText::new("+14155550100", "+447700900123", "Your code is 1 2 3")
        .voice(
            VoiceOptions::default()
                .language("en-GB")
                .voice_name("Amy")
                .repeat(2),
        )
        .client_ref("call-7")
        .into();
    assert_eq!(tuned.channel(), Channel::Voice);
    assert_eq!(
        send_and_capture(&tuned).await,
        json!({"channel": "voice", "message_type": "text", "from": "+14155550100",
               "to": "+447700900123", "text": "Your code is 1 2 3",
               "voice": {"language": "en-GB", "voice_name": "Amy", "repeat": 2},
               "client_ref": "call-7"})
    );
}

#[tokio::test]
async fn instagram_text_and_media_go_out_with_account_ids() {
    let (from, to) = ("17841400000000000", "5432109876543210");
    let tagged: Message = tidings::messaging::InstagramText::new(from, to, "A person will reply")
        .instagram(InstagramOptions::default().tag(InstagramTag::HumanAgent))
        .into();
    let cases = [
        (
            Message::instagram_text(from, to, "Thanks!"),
            json!({"channel": "instagram", "message_type": "text", "from": from, "to": to, "text": "Thanks!"}),
        ),
        (
            tagged,
            json!({"channel": "instagram", "message_type": "text", "from": from, "to": to,
                   "text": "A person will reply", "instagram": {"tag": "human_agent"}}),
        ),
        (
            Message::instagram_image(from, to, "https://example.com/a.jpg"),
            json!({"channel": "instagram", "message_type": "image", "from": from, "to": to,
                   "image": {"url": "https://example.com/a.jpg"}}),
        ),
        (
            Message::instagram_audio(from, to, "https://example.com/a.mp3"),
            json!({"channel": "instagram", "message_type": "audio", "from": from, "to": to,
                   "audio": {"url": "https://example.com/a.mp3"}}),
        ),
        (
            Message::instagram_video(from, to, "https://example.com/a.mp4"),
            json!({"channel": "instagram", "message_type": "video", "from": from, "to": to,
                   "video": {"url": "https://example.com/a.mp4"}}),
        ),
        (
            Message::instagram_file(from, to, "https://example.com/a.pdf"),
            json!({"channel": "instagram", "message_type": "file", "from": from, "to": to,
                   "file": {"url": "https://example.com/a.pdf"}}),
        ),
    ];
    for (message, wire) in cases {
        assert_eq!(send_and_capture(&message).await, wire, "{message:?}");
    }
}

#[tokio::test]
async fn invalid_messages_are_refused_before_sending_naming_the_field() {
    let server = TestServer::start(spec_server).await;
    let client = client(&server);
    let (wa, to) = ("+14155550100", "+447700900123");
    let cases: Vec<(Message, &str)> = vec![
        (Message::sms("Acme", "07700 900123", "Hi"), "to"),
        (Message::sms("Acme", to, ""), "text"),
        (Message::sms("Acme", to, "x".repeat(1601)), "text"),
        (Message::sms("A sender id too long", to, "Hi"), "from"),
        (
            Message::sms("Acme", to, "Hi").client_ref("r".repeat(101)),
            "client_ref",
        ),
        (
            Message::sms("Acme", to, "Hi").webhook_url("not a url"),
            "webhook_url",
        ),
        (SmsText::new("Acme", to, "Hi").ttl(5).into(), "ttl"),
        (Message::whatsapp_text("Acme", to, "Hi"), "from"),
        (Message::whatsapp_text(wa, to, "x".repeat(4097)), "text"),
        (
            Message::whatsapp_image(
                wa,
                to,
                ImageContent::new("https://example.com/a.jpg").caption("c".repeat(1025)),
            ),
            "image.caption",
        ),
        (
            Message::whatsapp_file(wa, to, "no scheme/invoice.pdf"),
            "file.url",
        ),
        (
            WhatsappText::new(wa, to, "Hi")
                .whatsapp(WhatsappOptions::default().context_message_uuid("nope"))
                .into(),
            "whatsapp.context_message_uuid",
        ),
        (
            Message::whatsapp_template(wa, to, TemplateContent::new("", "en_US")),
            "template.name",
        ),
        (Message::voice_call(wa, to, "x".repeat(1501)), "text"),
        (
            VoiceText::new(wa, to, "Hi")
                .voice(VoiceOptions::default().repeat(11))
                .into(),
            "voice.repeat",
        ),
        (
            Message::instagram_text("1784", "5432", "x".repeat(1001)),
            "text",
        ),
        (
            Message::instagram_image("1784", "", "https://example.com/a.jpg"),
            "to",
        ),
    ];
    for (message, field) in &cases {
        let err = client.send_message(message).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{message:?}: {err}");
        assert!(
            err.to_string()
                .starts_with(&format!("invalid request: `{field}`: ")),
            "the error names `{field}` alone: {err}"
        );
    }
    assert!(
        server.requests().is_empty(),
        "nothing invalid may reach the server"
    );
}

#[test]
fn combinations_a_channel_does_not_take_do_not_decode_as_typed_messages() {
    // SMS takes text only: an SMS image can only be an Unknown, never an SmsText.
    let sms_image: Message = serde_json::from_value(json!({
        "channel": "sms", "message_type": "image", "from": "Acme", "to": "+447700900123",
        "image": {"url": "https://example.com/a.jpg"}
    }))
    .unwrap();
    assert!(matches!(sms_image, Message::Sms(SmsMessage::Unknown(_))));
    assert_eq!(sms_image.message_type(), None);
    // Instagram has no templates.
    let ig_template: Message = serde_json::from_value(json!({
        "channel": "instagram", "message_type": "template", "from": "1", "to": "2"
    }))
    .unwrap();
    assert!(matches!(
        ig_template,
        Message::Instagram(InstagramMessage::Unknown(_))
    ));
    // A future channel is kept whole and sent back unchanged.
    let rcs =
        json!({"channel": "rcs", "message_type": "text", "from": "a", "to": "b", "text": "hi"});
    let unknown: Message = serde_json::from_value(rcs.clone()).unwrap();
    assert_eq!(unknown.channel(), Channel::Unknown("rcs".into()));
    assert_eq!(serde_json::to_value(&unknown).unwrap(), rcs);
}

#[tokio::test]
async fn an_off_spec_combination_sent_anyway_is_refused_by_the_spec_server() {
    // The spec server is strict: an Unknown message passes the client's checks (it is open)
    // but the server answers 422, which surfaces as a typed API error.
    let server = TestServer::start(spec_server).await;
    let odd: Message = serde_json::from_value(json!({
        "channel": "voice", "message_type": "image", "from": "+14155550100",
        "to": "+447700900123", "image": {"url": "https://example.com/a.jpg"}
    }))
    .unwrap();
    let err = client(&server).send_message(&odd).await.unwrap_err();
    assert_eq!(err.status(), Some(422));
    assert_eq!(err.kind(), ErrorKind::Api);
    let api = err.api_error().unwrap();
    assert_eq!(api.code.as_deref(), Some("validation_error"));
    assert_eq!(err.request_id(), Some("req_test"));
}

#[tokio::test]
async fn list_messages_filters_and_streams_across_pages() {
    let server = TestServer::start(spec_server).await;
    let client = client(&server);
    let query = ListMessagesQuery::default()
        .limit(2)
        .channel(Channel::Voice)
        .status(MessageStatus::Answered);
    let page = client.list_messages(&query).await.unwrap();
    assert!(page.has_more);
    assert_eq!(page.data[1].status, MessageStatus::Answered);
    assert_eq!(page.data[1].channel, Channel::Voice);

    let statuses: Vec<MessageStatus> = client
        .list_messages_stream(&query)
        .map(|m| m.unwrap().status)
        .collect()
        .await;
    assert_eq!(
        statuses,
        [
            MessageStatus::Delivered,
            MessageStatus::Answered,
            MessageStatus::Read
        ]
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    for r in &requests {
        assert_eq!(
            (r.method.as_str(), r.path.as_str()),
            ("GET", "/v1/messages")
        );
        assert!(r.body.is_empty() && r.header("idempotency-key").is_none());
        let q = r.query_pairs();
        assert_eq!(q.get("limit").map(String::as_str), Some("2"));
        assert_eq!(q.get("channel").map(String::as_str), Some("voice"));
        assert_eq!(q.get("status").map(String::as_str), Some("answered"));
    }
    assert_eq!(
        requests[2].query_pairs().get("after").map(String::as_str),
        Some("22222222-2222-4222-8222-222222222222")
    );
}

#[tokio::test]
async fn get_message_decodes_the_record_with_voice_status_and_usage() {
    let server = TestServer::start(spec_server).await;
    let got = client(&server).get_message(UUID).await.unwrap();
    assert_eq!(got.message_uuid, UUID);
    assert_eq!(got.status, MessageStatus::Machine);
    assert!(got.status.is_terminal(&got.channel));
    assert_eq!(got.usage.unwrap().currency, "EUR");
    let r = &server.requests()[0];
    assert_eq!(
        (r.method.as_str(), r.path.as_str()),
        ("GET", format!("/v1/messages/{UUID}").as_str())
    );
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
}

#[tokio::test]
async fn mark_read_patches_the_status_to_read() {
    let server = TestServer::start(spec_server).await;
    client(&server).mark_read(UUID).await.unwrap();
    let r = &server.requests()[0];
    assert_eq!(
        (r.method.as_str(), r.path.as_str()),
        ("PATCH", format!("/v1/messages/{UUID}").as_str())
    );
    assert_eq!(r.json(), json!({"status": "read"}));
    assert!(
        r.header("idempotency-key").is_none(),
        "PATCH is not a keyed send"
    );
}

#[tokio::test]
async fn list_templates_sends_its_filters_and_decodes_templates() {
    let server = TestServer::start(spec_server).await;
    let query = ListTemplatesQuery::default()
        .name("order_shipped")
        .language("en_US")
        .status(TemplateStatus::Approved);
    let page = client(&server).list_templates(&query).await.unwrap();
    assert_eq!(page.data.len(), 1);
    let template = &page.data[0];
    assert_eq!(
        (template.name.as_str(), &template.status),
        ("order_shipped", &TemplateStatus::Approved)
    );
    let r = &server.requests()[0];
    assert_eq!(
        (r.method.as_str(), r.path.as_str()),
        ("GET", "/v1/templates")
    );
    let q = r.query_pairs();
    assert_eq!(q.get("name").map(String::as_str), Some("order_shipped"));
    assert_eq!(q.get("language").map(String::as_str), Some("en_US"));
    assert_eq!(q.get("status").map(String::as_str), Some("approved"));
}

#[tokio::test]
async fn the_seed_read_request_is_a_bearer_get_on_v1_resources() {
    let server = TestServer::start(spec_server).await;
    let page = client(&server)
        .list_resources(&Default::default())
        .await
        .unwrap();
    assert_eq!(page.data[0].id.as_deref(), Some("res_1"));
    let r = &server.requests()[0];
    assert_eq!(
        (r.method.as_str(), r.path.as_str()),
        ("GET", "/v1/resources")
    );
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
}

#[tokio::test]
async fn a_429_is_retried_with_the_same_idempotency_key() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let server = TestServer::start(move |r| {
        if seen.fetch_add(1, Ordering::SeqCst) == 0 {
            problem(429, "rate_limit_exceeded", "slow down")
                .header("Retry-After", "0")
                .header("X-RateLimit-Limit", "1000")
                .header("X-RateLimit-Remaining", "0")
                .header("X-RateLimit-Reset", "0")
        } else {
            spec_server(r)
        }
    })
    .await;
    let sent = client(&server)
        .send_message(&Message::sms("Acme", "+447700900123", "Hi"))
        .await
        .unwrap();
    assert_eq!(sent.message_uuid, UUID);
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests[0].header("idempotency-key"),
        requests[1].header("idempotency-key")
    );
    assert_eq!(requests[0].body, requests[1].body);
}

#[tokio::test]
async fn a_rejected_key_is_an_auth_error_with_the_service_code() {
    let server = TestServer::start(spec_server).await;
    let bad = MessagingClient::builder()
        .base_url(server.url())
        .api_key("wrong-key")
        .build()
        .unwrap();
    let err = bad
        .send_message(&Message::sms("Acme", "+447700900123", "Hi"))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Auth, "{err}");
    assert_eq!(err.status(), Some(401));
    assert!(
        !format!("{err:?}").contains("wrong-key"),
        "the key never shows in errors"
    );
}

#[test]
fn sms_constructors_expose_their_segment_count() {
    let message = Message::sms("Acme", "+447700900123", "x".repeat(161));
    let count = message.sms_segments().unwrap();
    assert_eq!((count.segments, count.per_segment), (2, 153));
    let forced = SmsText::new("Acme", "+447700900123", "plain ascii")
        .sms(SmsOptions::default().encoding(SmsEncoding::Unicode));
    assert_eq!(
        forced.segments().encoding,
        tidings::messaging::sms::Encoding::Ucs2
    );
    assert!(
        Message::whatsapp_text("+14155550100", "+447700900123", "Hi")
            .sms_segments()
            .is_none()
    );
}

#[test]
fn constructors_normalise_phone_numbers_to_e164_and_leave_the_rest_alone() {
    for (written, normalised) in [
        ("+44 7700 900123", "+447700900123"),
        ("+44 (0)7700 900123", "+447700900123"),
        ("0044-7700-900123", "+447700900123"),
        ("447700900123", "+447700900123"),
        ("+1 (415) 555.0100", "+14155550100"),
        // Not E.164 once cleaned: kept as written, so the pre-send check reports it.
        ("07700 900123", "07700 900123"),
        ("Acme", "Acme"),
    ] {
        let message = Message::sms("Acme", written, "Hi");
        assert_eq!(message.to(), Some(normalised), "{written}");
    }
    // Instagram ids are not phone numbers.
    let ig = Message::instagram_text("1784", "0044 5432", "Hi");
    assert_eq!(ig.to(), Some("0044 5432"));
}
