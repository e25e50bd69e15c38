//! The web inbox in a real headless Chromium (through chromedriver): what the generated clients
//! send shows up within a second, an HTML email's scripts never run, the realtime log shows a
//! triggered event, redelivery works. Screenshots of each page go to
//! `target/inbox-screenshots/`.
#![allow(clippy::unwrap_used)]

mod inbox_support;

use std::time::Duration;

use inbox_support::{Browser, FullList, ONE_BROWSER, SECOND, SLOW, open, time_a_full_list};
use serde_json::json;
use tidings::email::{Attachment, SendEmailRequest};
use tidings::messaging::{Message, TemplateContent};
use tidings_sandbox::server::{WebhookTarget, generate_secret};
use tidings_sandbox::{Sandbox, SandboxConfig};
use tidings_tests::{Reply, TestServer};

async fn sandbox() -> Sandbox {
    let mut config = SandboxConfig::default();
    config.email.service.lifecycle_step = Duration::from_millis(100);
    config.messaging.service.lifecycle_step = Duration::from_millis(100);
    Sandbox::start_with(config).await.unwrap()
}

#[tokio::test]
async fn an_email_sent_through_the_client_appears_in_the_inbox_within_a_second() {
    let _one = ONE_BROWSER.lock().await;
    let sandbox = sandbox().await;
    let browser = Browser::start().await;
    open(&browser, &sandbox, "email").await;

    let request = SendEmailRequest::new("Ada <ada@example.com>", ["grace@example.com"])
        .subject("Your invoice for March")
        .text("Hi Grace, the invoice is attached.")
        .html("<h1 style=\"color:#2f6fdb\">Invoice</h1><p>Hi Grace, the invoice is attached.</p>")
        .attach(Attachment::from_bytes(
            "invoice.csv",
            b"item,total\nwidgets,42\n",
        ));
    sandbox
        .email
        .client()
        .unwrap()
        .send_email(&request)
        .await
        .unwrap();
    let took = browser
        .wait_text("#email-list li", "Your invoice for March", SECOND)
        .await;
    assert!(took < SECOND, "took {took:?}");
    eprintln!("shown in the UI {took:?} after the send returned");
    browser.screenshot("email-list").await;

    browser.click("#email-list li[data-id]").await;
    browser
        .wait_text("#email-subject", "Your invoice for March", SLOW)
        .await;
    browser
        .wait_for(
            "the HTML frame",
            "return !!document.getElementById('email-frame');",
            json!([]),
            SLOW,
        )
        .await;
    // Let the frame paint before the picture.
    tokio::time::sleep(Duration::from_millis(300)).await;
    browser.screenshot("email-html").await;

    browser.click("button[data-part=attachments]").await;
    // Read the link once it is drawn: a live refresh may redraw the part in between.
    let href = browser
        .eval_when(
            "the attachment link",
            "const a = document.querySelector('#email-part a'); return a && a.textContent.includes('invoice.csv') ? a.href : null;",
            json!([]),
            SLOW,
        )
        .await;
    let bytes = reqwest::get(href.as_str().unwrap())
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert_eq!(&bytes[..], b"item,total\nwidgets,42\n");
    browser.screenshot("email-attachments").await;

    browser.click("button[data-part=headers]").await;
    browser.wait_text("#email-part th", "Subject", SLOW).await;
    browser.click("button[data-part=events]").await;
    browser
        .wait_text("#email-part .timeline", "delivered", SLOW)
        .await;
    browser.screenshot("email-events").await;

    // Search narrows the list.
    sandbox
        .email
        .client()
        .unwrap()
        .send_email(
            &SendEmailRequest::new("ops@example.com", ["alan@example.com"])
                .subject("Weekly report")
                .text("All fine."),
        )
        .await
        .unwrap();
    browser
        .wait_text("#email-list li", "Weekly report", SECOND)
        .await;
    browser
        .eval(
            "const s = document.getElementById('search'); s.value = 'alan@'; s.dispatchEvent(new Event('input'));",
            json!([]),
        )
        .await;
    browser
        .wait_for(
            "the search to leave one email",
            "const items = document.querySelectorAll('#email-list li[data-id]'); return items.length === 1 && items[0].textContent.includes('Weekly report');",
            json!([]),
            SLOW,
        )
        .await;
    sandbox.shutdown().await;
}

#[tokio::test]
async fn an_html_email_with_script_and_onerror_runs_nothing_in_the_inbox() {
    let _one = ONE_BROWSER.lock().await;
    let sandbox = sandbox().await;
    let browser = Browser::start().await;
    let payload = "<p>Click here</p>\
        <script>window.pwned = 1; parent.postMessage('script-ran', '*');</script>\
        <img src=\"x\" onerror=\"parent.postMessage('onerror-ran', '*')\">\
        <img src=\"https://example.invalid/track.png\" alt=\"remote\">";

    // The control: the same HTML in an unprotected frame does run, so the check below can fail.
    browser.goto("about:blank").await;
    browser
        .eval(
            "window.got = []; window.addEventListener('message', e => window.got.push(e.data));\
             const f = document.createElement('iframe'); f.srcdoc = arguments[0]; document.body.append(f);",
            json!([payload]),
        )
        .await;
    browser
        .wait_for(
            "the unprotected frame's script and onerror to run",
            "return window.got.includes('script-ran') && window.got.includes('onerror-ran');",
            json!([]),
            SLOW,
        )
        .await;

    open(&browser, &sandbox, "email").await;
    let sent = sandbox
        .email
        .client()
        .unwrap()
        .send_email(
            &SendEmailRequest::new("mallory@example.com", ["grace@example.com"])
                .subject("Totally safe")
                .html(payload),
        )
        .await
        .unwrap();
    browser
        .wait_text("#email-list li", "Totally safe", SECOND)
        .await;
    browser
        .goto(&format!(
            "{}#email/{}",
            sandbox.inbox_url().unwrap(),
            sent.id
        ))
        .await;
    let frame = browser
        .eval_when(
            "the HTML frame",
            "const f = document.getElementById('email-frame'); return f && f.src ? [f.getAttribute('sandbox'), f.src] : null;",
            json!([]),
            SLOW,
        )
        .await;
    assert_eq!(frame[0], "", "the frame is sandboxed with no allowances");
    // Give the frame ample time to load and (not) run.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let ran = browser
        .eval(
            "return [window.inboxFrameMessages, window.pwned === undefined];",
            json!([]),
        )
        .await;
    assert_eq!(ran, json!([[], true]), "the email's script or onerror ran");
    browser.screenshot("email-script-blocked").await;

    // The frame document itself forbids scripts and remote loads by CSP.
    let response = reqwest::get(frame[1].as_str().unwrap()).await.unwrap();
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        csp.contains("default-src 'none'") && csp.contains("img-src data:"),
        "{csp}"
    );
    assert!(!csp.contains("script-src"), "{csp}");
    // The toggle allows remote images, still no scripts.
    browser.click("#remote-images").await;
    browser
        .wait_for(
            "the frame to reload with remote images",
            "const f = document.getElementById('email-frame'); return !!f && f.src.endsWith('?remote=1');",
            json!([]),
            SLOW,
        )
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let ran = browser
        .eval("return window.inboxFrameMessages;", json!([]))
        .await;
    assert_eq!(ran, json!([]));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn messages_appear_per_channel_with_sms_segments_template_text_and_call_timeline() {
    let _one = ONE_BROWSER.lock().await;
    let sandbox = sandbox().await;
    let browser = Browser::start().await;
    open(&browser, &sandbox, "messages").await;
    let client = sandbox.messaging.client().unwrap();

    // 161 GSM-7 characters: two segments.
    let long = "A".repeat(161);
    let sms = client
        .send_message(&Message::sms("+15550100", "+447700900123", long.as_str()))
        .await
        .unwrap();
    let took = browser
        .wait_text("#message-list li", "2 segments", SECOND)
        .await;
    assert!(took < SECOND, "took {took:?}");
    eprintln!("shown in the UI {took:?} after the send returned");

    let component: tidings::messaging::TemplateComponent = serde_json::from_value(json!({
        "type": "body", "parameters": [{"type": "text", "text": "Grace"}]
    }))
    .unwrap();
    let template = TemplateContent::new("welcome", "en_US").components(vec![component]);
    let whatsapp = client
        .send_message(&Message::whatsapp_template(
            "+15550100",
            "+447700900123",
            template,
        ))
        .await
        .unwrap();
    browser
        .wait_text(
            "#message-list li",
            "Hello Grace, this is a sandbox template.",
            SECOND,
        )
        .await;

    let call = client
        .send_message(&Message::voice_call(
            "+15550100",
            "+447700900124",
            "Your code is 1 2 3 4",
        ))
        .await
        .unwrap();
    browser
        .wait_text("#message-list li", "Your code is 1 2 3 4", SECOND)
        .await;
    browser.screenshot("messages-list").await;

    browser
        .goto(&format!(
            "{}#messages/{}",
            sandbox.inbox_url().unwrap(),
            sms.message_uuid
        ))
        .await;
    browser
        .wait_text("#sms-info", "GSM-7, 2 segments, 161 characters", SLOW)
        .await;
    browser
        .goto(&format!(
            "{}#messages/{}",
            sandbox.inbox_url().unwrap(),
            whatsapp.message_uuid
        ))
        .await;
    browser
        .wait_text("#template-rendered", "Hello Grace", SLOW)
        .await;
    browser
        .goto(&format!(
            "{}#messages/{}",
            sandbox.inbox_url().unwrap(),
            call.message_uuid
        ))
        .await;
    // started → ringing → answered → completed, pushed live.
    browser
        .wait_text("#message-timeline", "completed", SLOW)
        .await;
    // A live refresh redraws the detail: read the timeline once it is there.
    let steps = browser
        .eval_when(
            "the call timeline",
            "const b = [...document.querySelectorAll('#message-timeline .badge')]; return b.length ? b.map(x => x.textContent) : null;",
            json!([]),
            SLOW,
        )
        .await;
    assert_eq!(
        steps,
        json!(["started", "ringing", "answered", "completed"])
    );
    browser.screenshot("messages-voice-timeline").await;
    sandbox.shutdown().await;
}

#[tokio::test]
async fn the_realtime_log_shows_an_event_triggered_from_the_form_and_from_the_client() {
    let _one = ONE_BROWSER.lock().await;
    let sandbox = sandbox().await;
    let browser = Browser::start().await;
    open(&browser, &sandbox, "realtime").await;

    sandbox
        .realtime
        .client()
        .unwrap()
        .trigger(["orders"], "order-shipped", &json!({"order": 1042}))
        .await
        .unwrap();
    let took = browser
        .wait_text("#realtime-log", "order-shipped", SECOND)
        .await;
    assert!(took < SECOND, "took {took:?}");
    eprintln!("shown in the UI {took:?} after the send returned");

    browser
        .eval(
            "const f = document.getElementById('trigger-form');\
             f.querySelector('[name=channel]').value = 'news';\
             f.querySelector('[name=event]').value = 'breaking';\
             f.querySelector('[name=data]').value = '{\"headline\":\"from the form\"}';\
             f.requestSubmit();",
            json!([]),
        )
        .await;
    browser
        .wait_text("#realtime-log", "from the form", SECOND * 2)
        .await;
    assert_eq!(
        sandbox.inbox.realtime_events()[0].event.as_deref(),
        Some("breaking")
    );
    browser.screenshot("realtime").await;
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_webhook_delivery_is_listed_with_its_signature_and_redelivered_from_the_ui() {
    let _one = ONE_BROWSER.lock().await;
    let receiver = TestServer::start(|_| Reply::json(200, json!({"ok": true}))).await;
    let secret = generate_secret();
    let mut config = SandboxConfig::default();
    config.email.service.lifecycle_step = Duration::from_millis(100);
    config.email.service.webhook = Some(WebhookTarget::new(
        format!("{}/hooks/email", receiver.url()),
        &secret,
    ));
    let sandbox = Sandbox::start_with(config).await.unwrap();
    let browser = Browser::start().await;
    open(&browser, &sandbox, "webhooks").await;

    sandbox
        .email
        .client()
        .unwrap()
        .send_email(
            &SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                .subject("Hooked")
                .text("x"),
        )
        .await
        .unwrap();
    browser
        .wait_text("#webhook-list", "email.delivered", SLOW)
        .await;
    browser
        .wait_for(
            "the deliveries to be acknowledged",
            "return [...document.querySelectorAll('#webhook-list tr[data-id]')].every(r => r.textContent.includes('200'));",
            json!([]),
            SLOW,
        )
        .await;
    // Expand one row: its signature headers are shown.
    browser.click("#webhook-list tr[data-id]").await;
    browser
        .wait_text("#webhook-list th", "webhook-signature", SLOW)
        .await;
    browser.screenshot("webhooks").await;

    let before = receiver.requests().len();
    let first_id = receiver.requests()[0]
        .header("webhook-id")
        .unwrap()
        .to_owned();
    let newest = browser
        .eval(
            "return document.querySelector('#webhook-list tr[data-id]').dataset.id;",
            json!([]),
        )
        .await;
    browser
        .click("#webhook-list tr[data-id] button.redeliver")
        .await;
    browser.wait_text("#webhook-list", "redelivery", SLOW).await;
    let deadline = tokio::time::Instant::now() + SLOW;
    while receiver.requests().len() == before {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no redelivery arrived"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let again = receiver.requests().last().cloned().unwrap();
    let original = receiver
        .requests()
        .into_iter()
        .find(|r| r.header("webhook-id") == newest.as_str())
        .unwrap();
    assert_eq!(again.body, original.body, "the same event is sent again");
    assert_ne!(again.header("webhook-id").unwrap(), first_id);
    let mut headers = tidings_runtime::reqwest::header::HeaderMap::new();
    for (name, value) in &again.headers {
        headers.insert(
            tidings_runtime::reqwest::header::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            value.parse().unwrap(),
        );
    }
    tidings::email::verify_webhook(&secret, &headers, &again.body).expect("a valid signature");
    sandbox.shutdown().await;
}

/// The receiver's recorded headers as a `HeaderMap` (for the verifiers).
fn header_map(request: &tidings_tests::Recorded) -> tidings_runtime::reqwest::header::HeaderMap {
    let mut headers = tidings_runtime::reqwest::header::HeaderMap::new();
    for (name, value) in &request.headers {
        headers.insert(
            tidings_runtime::reqwest::header::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            value.parse().unwrap(),
        );
    }
    headers
}

#[tokio::test]
async fn a_realtime_webhook_is_recorded_shown_and_redelivered_signed_with_the_app_secret() {
    let _one = ONE_BROWSER.lock().await;
    let receiver = TestServer::start(|_| Reply::json(200, json!({"ok": true}))).await;
    let mut config = SandboxConfig::default();
    config.realtime = config
        .realtime
        .webhook_url(format!("{}/hooks/realtime", receiver.url()));
    let sandbox = Sandbox::start_with(config).await.unwrap();
    let (key, secret) = (
        sandbox.realtime.key().to_owned(),
        sandbox.realtime.secret().to_owned(),
    );
    let browser = Browser::start().await;
    open(&browser, &sandbox, "webhooks").await;

    // A real WebSocket client occupies a channel: the sandbox posts channel_occupied.
    let connection = tidings::pusher::connection(&sandbox.realtime.ws_url(), &key)
        .connect()
        .unwrap();
    connection
        .wait_for(tidings::pusher::ConnectionState::Connected, SLOW)
        .await
        .unwrap();
    let mut channel = connection.subscribe("orders").unwrap();
    channel.wait_subscribed(SLOW).await.unwrap();
    browser
        .wait_for(
            "the realtime delivery, acknowledged",
            "return [...document.querySelectorAll('#webhook-list tr[data-id]')].some(r => r.textContent.includes('channel_occupied') && r.textContent.includes('realtime') && r.textContent.includes('200'));",
            json!([]),
            SLOW,
        )
        .await;
    let first = receiver.requests()[0].clone();
    assert!(first.path.ends_with("/hooks/realtime"), "{}", first.path);
    tidings::pusher::verify_webhook(Some(&key), &secret, &header_map(&first), &first.body)
        .expect("the first delivery verifies");

    // The inbox API has it, with the signature headers sent, and never the secret.
    let api = sandbox.inbox_url().unwrap();
    let listed = reqwest::get(format!("{api}api/webhooks"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        !listed.contains(&secret),
        "the app secret is in the API answer"
    );
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let record = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["service"] == "realtime")
        .unwrap()
        .clone();
    assert_eq!(record["event_type"], "channel_occupied");
    assert_eq!(record["status"], "delivered");
    assert_eq!(record["attempts"], 1);
    assert_eq!(record["response_status"], 200);
    assert_eq!(record["url"], format!("{}/hooks/realtime", receiver.url()));
    assert_eq!(
        record["body"].as_str().unwrap().as_bytes(),
        &first.body[..],
        "the body as sent"
    );
    let headers: Vec<(String, String)> = record["headers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["name"].as_str().unwrap().to_owned(),
                h["value"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        headers,
        [
            ("X-Pusher-Key".to_owned(), key.clone()),
            (
                "X-Pusher-Signature".to_owned(),
                first.header("x-pusher-signature").unwrap().to_owned()
            ),
        ]
    );

    // Its row opens on its signature headers; the page holds no secret either.
    let id = record["id"].as_str().unwrap().to_owned();
    browser
        .click(&format!("#webhook-list tr[data-id='{id}']"))
        .await;
    browser
        .wait_text("#webhook-list th", "X-Pusher-Signature", SLOW)
        .await;
    let page = browser
        .eval("return document.body.innerText;", json!([]))
        .await;
    assert!(!page.as_str().unwrap().contains(&secret));
    browser.screenshot("webhooks-realtime").await;

    // Redeliver from the UI: the same body reaches the receiver again, signed with the secret.
    let before = receiver.requests().len();
    browser
        .click(&format!(
            "#webhook-list tr[data-id='{id}'] button.redeliver"
        ))
        .await;
    let deadline = tokio::time::Instant::now() + SLOW;
    while receiver.requests().len() == before {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no redelivery arrived"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let again = receiver.requests().last().cloned().unwrap();
    assert_eq!(again.body, first.body, "the same events are sent again");
    tidings::pusher::verify_webhook(Some(&key), &secret, &header_map(&again), &again.body)
        .expect("the redelivery verifies with the app secret");
    assert!(
        tidings::pusher::verify_webhook(Some(&key), "wrong", &header_map(&again), &again.body)
            .is_err()
    );
    browser
        .wait_for(
            "the redelivery's row, acknowledged",
            "return [...document.querySelectorAll('#webhook-list tr[data-id]')].some(r => r.textContent.includes('redelivery') && r.textContent.includes('channel_occupied') && r.textContent.includes('200'));",
            json!([]),
            SLOW,
        )
        .await;
    let redelivered = sandbox
        .inbox
        .webhooks()
        .into_iter()
        .find(|w| w.redelivery_of.as_deref() == Some(id.as_str()))
        .expect("the redelivery is recorded");
    assert_eq!(redelivered.service, "realtime");
    assert_eq!(redelivered.event_type, "channel_occupied");
    browser.screenshot("webhooks-realtime-redelivered").await;
    drop(channel);
    connection.disconnect();
    sandbox.shutdown().await;
}

#[tokio::test]
async fn instagram_messages_show_their_text_media_link_recipient_and_tag() {
    use tidings::messaging::{InstagramOptions, InstagramTag, InstagramText};
    let _one = ONE_BROWSER.lock().await;
    let sandbox = sandbox().await;
    let browser = Browser::start().await;
    open(&browser, &sandbox, "messages").await;
    let client = sandbox.messaging.client().unwrap();
    let (account, user) = ("17841400000000000", "5432109876543210");

    let text: Message = InstagramText::new(account, user, "Your order 1042 has shipped")
        .instagram(InstagramOptions::default().tag(InstagramTag::HumanAgent))
        .into();
    let text = client.send_message(&text).await.unwrap();
    let image_url = "https://cdn.example.com/orders/1042/label.jpg";
    let image = client
        .send_message(&Message::instagram_image(account, user, image_url))
        .await
        .unwrap();
    browser
        .wait_text("#message-list li", "Your order 1042 has shipped", SECOND)
        .await;
    browser
        .wait_text("#message-list li", &format!("Image: {image_url}"), SECOND)
        .await;
    browser.click("#main .chips button:nth-child(5)").await;
    browser
        .wait_for(
            "the instagram filter to leave the two",
            "const items = [...document.querySelectorAll('#message-list li[data-id]')]; return items.length === 2 && items.every(i => i.textContent.includes('instagram'));",
            json!([]),
            SLOW,
        )
        .await;

    let inbox = sandbox.inbox_url().unwrap();
    browser
        .goto(&format!("{inbox}#messages/{}", text.message_uuid))
        .await;
    browser
        .wait_text("#message-text", "Your order 1042 has shipped", SLOW)
        .await;
    // The detail's fields may render after its text: wait until all three are there.
    let shown = browser
        .eval_when(
            "the sender, recipient and tag",
            "const els = ['message-from', 'message-recipient', 'message-tag'].map(id => document.getElementById(id)); return els.every(e => e) ? els.map(e => e.textContent) : null;",
            json!([]),
            SLOW,
        )
        .await;
    assert_eq!(shown[0], format!("{account} (professional account id)"));
    assert_eq!(shown[1], format!("{user} (Instagram-scoped id)"));
    assert!(
        shown[2].as_str().unwrap().starts_with("human_agent"),
        "{shown}"
    );
    browser.screenshot("messages-instagram-text").await;

    browser
        .goto(&format!("{inbox}#messages/{}", image.message_uuid))
        .await;
    let media = browser
        .eval_when(
            "the media link",
            "const m = document.querySelector('#message-media a'); return m ? [m.href, m.rel, document.querySelectorAll('#main img').length] : null;",
            json!([]),
            SLOW,
        )
        .await;
    // A link to the media, never fetched by the inbox page.
    assert_eq!(media, json!([image_url, "noopener noreferrer", 0]));
    browser.wait_text("#message-timeline", "read", SLOW).await;
    browser.screenshot("messages-instagram-image").await;
    sandbox.shutdown().await;
}

#[tokio::test]
async fn twelve_hundred_emails_and_sms_page_to_the_oldest_and_search_to_one() {
    use futures_util::StreamExt as _;
    const N: usize = 1_200;
    let _one = ONE_BROWSER.lock().await;
    let mut config = SandboxConfig::default();
    config.email.service.lifecycle_step = Duration::from_millis(10);
    config.email.service.rate_limit = None;
    config.messaging.service.lifecycle_step = Duration::from_millis(10);
    config.messaging.service.rate_limit = None;
    let sandbox = Sandbox::start_with(config).await.unwrap();
    // The clients' own limit (the spec's 1,000 a minute) off too: this is a load on purpose.
    let email = tidings::email::EmailClient::builder()
        .base_url(sandbox.email.base_url())
        .api_key(sandbox.email.api_key())
        .rate_limit(None)
        .build()
        .unwrap();
    let messaging = tidings::messaging::MessagingClient::builder()
        .base_url(sandbox.messaging.base_url())
        .api_key(sandbox.messaging.api_key())
        .rate_limit(None)
        .build()
        .unwrap();
    // In order, so that "newest" and "oldest" are known; through the services' HTTP APIs.
    let started = std::time::Instant::now();
    futures_util::stream::iter(0..N)
        .map(|i| {
            let email = email.clone();
            async move {
                let request = SendEmailRequest::new("load@example.com", ["grace@example.com"])
                    .subject(format!("Bulk {i:04}"))
                    .text("One of many.");
                email.send_email(&request).await.unwrap();
            }
        })
        .buffered(1)
        .collect::<Vec<()>>()
        .await;
    futures_util::stream::iter(0..N)
        .map(|i| {
            let messaging = messaging.clone();
            async move {
                let sms = Message::sms("+15550100", "+447700900123", format!("Bulk sms {i:04}"));
                messaging.send_message(&sms).await.unwrap();
            }
        })
        .buffered(1)
        .collect::<Vec<()>>()
        .await;
    eprintln!("sent {N} emails and {N} SMS in {:?}", started.elapsed());
    assert_eq!(sandbox.inbox.emails().all().len(), N);
    assert_eq!(sandbox.inbox.messages().all().len(), N);
    // Let the status lifecycles settle, so the timings below are of the lists alone.
    sandbox
        .inbox
        .emails()
        .wait_for(SLOW, |m| {
            m.subject.as_deref() == Some("Bulk 1199") && m.status == "delivered"
        })
        .await
        .unwrap();
    sandbox
        .inbox
        .messages()
        .wait_for(SLOW, |m| {
            m.text.as_deref() == Some("Bulk sms 1199") && m.status == "delivered"
        })
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;

    let browser = Browser::start().await;
    let email_ms = time_a_full_list(
        &browser,
        &sandbox,
        FullList {
            tab: "email",
            list: "#email-list",
            total: N,
            newest: "Bulk 1199",
            oldest: "Bulk 0000",
            search: "Bulk 0777",
        },
    )
    .await;
    let sms_ms = time_a_full_list(
        &browser,
        &sandbox,
        FullList {
            tab: "messages",
            list: "#message-list",
            total: N,
            newest: "Bulk sms 1199",
            oldest: "Bulk sms 0000",
            search: "Bulk sms 0777",
        },
    )
    .await;
    for (what, [first, last, search]) in [("emails", email_ms), ("SMS", sms_ms)] {
        eprintln!(
            "inbox at {N} {what}: first render {first:.0} ms after navigation, \
             last page {last:.0} ms after the click, search to one {search:.0} ms after typing \
             (200 ms of it the typing pause)"
        );
    }
    sandbox.shutdown().await;
}

/// A call to a spec served with `--spec` whose body is a form (Twilio's message create): the
/// Served specs tab shows the body as sent and each field decoded (`%2B` is `+`, `+` a space).
#[tokio::test]
async fn a_served_specs_form_body_is_shown_as_sent_and_decoded() {
    use tidings_sandbox::served::{ServeConfig, ServedService, load};
    let _one = ONE_BROWSER.lock().await;
    let sandbox = sandbox().await;
    let spec =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/providers/twilio.yaml");
    let mut config = ServeConfig::default();
    config.inbox = Some(sandbox.inbox.clone());
    let served = ServedService::start(load(&spec).unwrap().remove(0), config)
        .await
        .unwrap();
    let sid = served.credential("account_sid").unwrap().to_owned();
    let token = served.credential("auth_token").unwrap().to_owned();
    let browser = Browser::start().await;
    open(&browser, &sandbox, "apis").await;

    let created = reqwest::Client::new()
        .post(format!(
            "{}/2010-04-01/Accounts/{sid}/Messages.json",
            served.base_url()
        ))
        .basic_auth(&sid, Some(&token))
        .form(&[
            ("To", "+15558675310"),
            ("From", "+15017122661"),
            ("Body", "Hi there"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    browser
        .wait_text("#call-list", "create_message", SLOW)
        .await;
    browser.click("#call-list tr[data-id]").await;
    browser
        .wait_text("#call-list pre.body", "To=%2B15558675310", SLOW)
        .await;
    let shown = browser
        .eval(
            "return document.querySelector('#call-list pre.body').textContent;",
            json!([]),
        )
        .await;
    let shown = shown.as_str().unwrap();
    for line in ["To: +15558675310", "From: +15017122661", "Body: Hi there"] {
        assert!(shown.lines().any(|l| l == line), "no `{line}` in {shown}");
    }
    browser.screenshot("served-form-body").await;
    served.shutdown().await;
    sandbox.shutdown().await;
}
