//! The quickstart: starts the sandbox in-process and walks the generated clients through all
//! three services, printing what happens as it goes. No credentials, no network.
//!
//! ```console
//! $ cargo run --example quickstart
//! $ cargo run --example quickstart -- --keep   # then browse the web inbox it prints
//! ```

use std::time::Duration;

use tidings::email::{
    CreateContactRequest, CreateTemplateRequest, EmailStatus, SendEmailRequest, TemplateRef,
};
use tidings::messaging::{Message, MessagingEvent, TemplateContent};
use tidings::pusher;
use tidings_runtime::realtime::ConnectionState;
use tidings_runtime::smtp::{SmtpRelay, SmtpTls};
use tidings_sandbox::server::{WebhookTarget, generate_secret};
use tidings_sandbox::{Sandbox, SandboxConfig};
use tidings_tests::{Reply, TestServer};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const WAIT: Duration = Duration::from_secs(10);

#[tokio::main]
async fn main() -> Result<()> {
    // Our app's webhook endpoint: a loopback HTTP server that records what it receives.
    let inbox = TestServer::start(|_| Reply::json(200, serde_json::json!({"ok": true}))).await;
    let webhook_secret = generate_secret();
    let mut config = SandboxConfig::default();
    config.messaging.service.webhook = Some(WebhookTarget::new(
        format!("{}/hooks/messaging", inbox.url()),
        &webhook_secret,
    ));
    config.messaging.service.lifecycle_step = Duration::from_millis(150);
    let sandbox = Sandbox::start_with(config).await?;
    println!("sandbox started:\n{}", indent(&sandbox.describe()));

    email(&sandbox).await?;
    messaging(&sandbox, &inbox, &webhook_secret).await?;
    realtime(&sandbox).await?;

    println!(
        "done: every step above went over real HTTP, SMTP and WebSocket connections on loopback"
    );
    // `--keep` leaves the sandbox running so its web inbox can be browsed.
    let keep = std::env::args().any(|a| a == "--keep");
    let counts = format!(
        "{} emails, {} messages, {} webhook deliveries, {} realtime events",
        sandbox.inbox.emails().all().len(),
        sandbox.inbox.messages().all().len(),
        sandbox.inbox.webhooks().len(),
        sandbox.inbox.realtime_events().len()
    );
    let url = sandbox.inbox_url().unwrap_or_default();
    if keep {
        println!("everything it sent ({counts}) is in the web inbox: {url} (Ctrl-C to stop)");
        tokio::signal::ctrl_c().await?;
    } else {
        println!(
            "everything it sent ({counts}) was in the web inbox at {url}; \
             `cargo run --example quickstart -- --keep` keeps it open"
        );
    }
    sandbox.shutdown().await;
    Ok(())
}

async fn email(sandbox: &Sandbox) -> Result<()> {
    println!("== email");
    let email = sandbox.email.client()?;

    let sent = email
        .send_email(
            &SendEmailRequest::new("Ada <ada@example.com>", ["grace@example.com"])
                .subject("Hello from Rust")
                .text("Sent through the REST API."),
        )
        .await?;
    println!("  REST: sent {} ({})", sent.id, sent.status);

    // The same key signs in to the SMTP relay (STARTTLS; the sandbox's certificate is trusted).
    let smtp = sandbox
        .email
        .smtp_addr()
        .ok_or("the email sandbox has no SMTP listener")?;
    let relay = SmtpRelay::builder("localhost")
        .port(smtp.port())
        .tls(SmtpTls::StartTls)
        .api_key(sandbox.email.api_key().to_owned())
        .add_root_certificate_pem(
            sandbox
                .email
                .smtp_certificate_pem()
                .unwrap_or_default()
                .as_bytes()
                .to_vec(),
        )
        .timeout(WAIT)
        .build()?;
    let receipt = relay
        .send(
            &SendEmailRequest::new("ada@example.com", ["alan@example.com"])
                .subject("Hello over SMTP")
                .text("Sent through the SMTP relay."),
        )
        .await?;
    println!("  SMTP: relay accepted the message ({receipt:?})");

    let template = email
        .create_template(
            &CreateTemplateRequest::new("Welcome")
                .alias("welcome")
                .subject("Welcome, {{{first_name}}}")
                .text("Hi {{{first_name}}}, welcome aboard."),
        )
        .await?;
    email.publish_template(&template.id).await?;
    let templated = email
        .send_email(
            &SendEmailRequest::new("team@example.com", ["grace@example.com"])
                .template(TemplateRef::by_alias("welcome").variable("first_name", "Grace")),
        )
        .await?;
    println!(
        "  template `{}` published and used for {}",
        template.id, templated.id
    );

    let contact = email
        .create_contact(
            &CreateContactRequest::new("grace@example.com")
                .first_name("Grace")
                .last_name("Hopper"),
        )
        .await?;
    println!("  contact {} added ({})", contact.id, contact.email);

    // Statuses move on in the sandbox: queued → sent → delivered.
    let delivered = wait_until(|| async {
        let got = email.get_email(&sent.id).await.ok()?;
        (got.status == EmailStatus::Delivered).then_some(got.status)
    })
    .await?;
    println!("  {} is now {delivered:?}", sent.id);
    Ok(())
}

async fn messaging(sandbox: &Sandbox, inbox: &TestServer, secret: &str) -> Result<()> {
    println!("== messaging");
    let messaging = sandbox.messaging.client()?;
    let sms = messaging
        .send_message(&Message::sms(
            "+15550100",
            "+44 7700 900123",
            "Your code is 123456",
        ))
        .await?;
    println!("  SMS accepted: {}", sms.message_uuid);
    let whatsapp = messaging
        .send_message(&Message::whatsapp_template(
            "+15550100",
            "+447700900123",
            TemplateContent::new("welcome", "en_US"),
        ))
        .await?;
    println!("  WhatsApp template accepted: {}", whatsapp.message_uuid);

    // The sandbox posts signed status webhooks to our inbox; verify one and decode it.
    let (status, message_uuid) = wait_until(|| async {
        inbox.requests().iter().find_map(|r| {
            let mut headers = tidings_runtime::reqwest::header::HeaderMap::new();
            for (name, value) in &r.headers {
                let name =
                    tidings_runtime::reqwest::header::HeaderName::from_bytes(name.as_bytes())
                        .ok()?;
                headers.insert(name, value.parse().ok()?);
            }
            match tidings::messaging::verify_webhook(secret, &headers, &r.body).ok()? {
                MessagingEvent::Status(event) if event.message_uuid == sms.message_uuid => {
                    Some((event.status, event.message_uuid))
                }
                _ => None,
            }
        })
    })
    .await?;
    println!(
        "  verified status webhook: {message_uuid} is {status:?} (Standard Webhooks signature checked)"
    );
    Ok(())
}

async fn realtime(sandbox: &Sandbox) -> Result<()> {
    println!("== realtime");
    let rt = &sandbox.realtime;
    // A WebSocket client (what a browser or app would run), authorizing private channels
    // locally with the app secret.
    let connection = pusher::connection(&rt.ws_url(), rt.key())
        .authorizer(pusher::local_authorizer(rt.key(), rt.secret()))
        .connect()?;
    connection
        .wait_for(ConnectionState::Connected, WAIT)
        .await?;
    let mut channel = connection.subscribe("private-orders")?;
    channel.wait_subscribed(WAIT).await?;
    println!("  WebSocket connected and subscribed to private-orders");

    // The app server triggers through the signed HTTP API.
    let server = rt.client()?;
    server
        .trigger(
            ["private-orders"],
            "order-shipped",
            &serde_json::json!({"order": 1042}),
        )
        .await?;
    let event = tokio::time::timeout(WAIT, async {
        loop {
            match channel.next_event().await {
                Some(e) if e.event == "order-shipped" => return Some(e),
                Some(_) => continue,
                None => return None,
            }
        }
    })
    .await?
    .ok_or("the channel closed")?;
    println!(
        "  received `{}` on {}: {}",
        event.event,
        event.channel,
        event.data.as_deref().unwrap_or("")
    );
    Ok(())
}

/// Polls `check` until it gives a value, for up to `WAIT`.
async fn wait_until<T, F, Fut>(mut check: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        if let Some(value) = check().await {
            return Ok(value);
        }
        if tokio::time::Instant::now() > deadline {
            return Err("timed out waiting".into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}
