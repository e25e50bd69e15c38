//! The inbox without a browser: the Rust wait helpers, the HTTP test API (search, get, delete,
//! long-poll wait with its timeout), SMTP mail with its raw source, retention pruning, SQLite
//! persistence across restarts (in-process and through the `tidings-sandbox` binary with
//! `--data`), and the CLI's `--help`.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tidings::email::SendEmailRequest;
use tidings::messaging::Message;
use tidings_sandbox::{Retention, Sandbox, SandboxConfig};

const WAIT: Duration = Duration::from_secs(10);

async fn get(url: &str) -> (u16, Value) {
    let r = reqwest::get(url).await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn wait_for_returns_an_email_sent_later_and_times_out_when_none_matches() {
    let sandbox = Sandbox::start().await.unwrap();
    let client = sandbox.email.client().unwrap();
    let send = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        client
            .send_email(
                &SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                    .subject("Later")
                    .text("x"),
            )
            .await
            .unwrap()
    });
    let found = sandbox
        .inbox
        .emails()
        .wait_for(WAIT, |m| m.subject.as_deref() == Some("Later"))
        .await
        .unwrap();
    assert_eq!(found.id, send.await.unwrap().id);
    assert_eq!(found.to, ["grace@example.com"]);

    let start = Instant::now();
    let missing = sandbox
        .inbox
        .emails()
        .wait_for(Duration::from_millis(200), |m| {
            m.subject.as_deref() == Some("Never")
        })
        .await;
    assert!(missing.is_err());
    assert!(start.elapsed() >= Duration::from_millis(200));

    // A status reached later wakes a waiter too.
    let delivered = sandbox
        .inbox
        .emails()
        .wait_for(WAIT, |m| m.id == found.id && m.status == "delivered")
        .await
        .unwrap();
    let steps: Vec<&str> = delivered.events.iter().map(|e| e.status.as_str()).collect();
    assert_eq!(steps, ["queued", "sent", "delivered"]);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn the_http_api_searches_gets_waits_and_deletes_emails_and_messages() {
    let sandbox = Sandbox::start().await.unwrap();
    let ui = sandbox.inbox_url().unwrap();
    let email = sandbox.email.client().unwrap();
    for (to, subject) in [
        ("grace@example.com", "Invoice"),
        ("alan@example.com", "Report"),
    ] {
        email
            .send_email(
                &SendEmailRequest::new("ada@example.com", [to])
                    .subject(subject)
                    .text("body text"),
            )
            .await
            .unwrap();
    }
    let (status, page) = get(&format!("{ui}api/emails?to=alan")).await;
    assert_eq!(status, 200);
    assert_eq!(page["total"], 1);
    assert_eq!(page["items"][0]["subject"], "Report");
    let (_, page) = get(&format!("{ui}api/emails?q=invoice")).await;
    assert_eq!(page["total"], 1);
    let (_, page) = get(&format!("{ui}api/emails?per_page=1&page=2")).await;
    assert_eq!(
        (
            page["total"].clone(),
            page["items"].as_array().unwrap().len()
        ),
        (json!(2), 1)
    );

    // Long-poll: the request waits for an email sent after it started.
    let waiter = tokio::spawn({
        let url = format!("{ui}api/emails/wait?subject=welcome&timeout_ms=5000");
        async move { get(&url).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    email
        .send_email(
            &SendEmailRequest::new("ada@example.com", ["new@example.com"])
                .subject("Welcome!")
                .html("<p>hi</p>"),
        )
        .await
        .unwrap();
    let (status, found) = waiter.await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(found["subject"], "Welcome!");
    assert!(
        found["headers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["name"] == "Subject")
    );
    let (status, _) = get(&format!(
        "{ui}api/emails/wait?subject=nothing&timeout_ms=100"
    ))
    .await;
    assert_eq!(status, 408);

    let id = found["id"].as_str().unwrap();
    let (status, one) = get(&format!("{ui}api/emails/{id}")).await;
    assert_eq!((status, one["id"].as_str()), (200, Some(id)));
    let deleted = reqwest::Client::new()
        .delete(format!("{ui}api/emails/{id}"))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);
    assert_eq!(get(&format!("{ui}api/emails/{id}")).await.0, 404);

    sandbox
        .messaging
        .client()
        .unwrap()
        .send_message(&Message::sms("+15550100", "+447700900123", "Ünïcödé text"))
        .await
        .unwrap();
    let (status, sms) = get(&format!(
        "{ui}api/messages/wait?channel=sms&timeout_ms=5000"
    ))
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        (sms["encoding"].as_str(), sms["segments"].as_u64()),
        (Some("UCS-2"), Some(1))
    );
    let inbound = reqwest::Client::new()
        .post(format!("{ui}api/messages/inbound"))
        .json(
            &json!({"channel": "sms", "from": "+447700900123", "to": "+15550100", "text": "STOP"}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(inbound.status(), 201);
    let (_, page) = get(&format!("{ui}api/messages?text=stop")).await;
    assert_eq!(page["items"][0]["direction"], "inbound");

    let cleared = reqwest::Client::new()
        .delete(format!("{ui}api/all"))
        .send()
        .await
        .unwrap();
    assert_eq!(cleared.status(), 204);
    assert!(sandbox.inbox.emails().all().is_empty() && sandbox.inbox.messages().all().is_empty());
    sandbox.shutdown().await;
}

#[tokio::test]
async fn smtp_mail_keeps_its_raw_source_headers_and_attachments() {
    let sandbox = Sandbox::start().await.unwrap();
    let smtp = sandbox.email.smtp_addr().unwrap();
    let relay = tidings_runtime::smtp::SmtpRelay::builder("localhost")
        .port(smtp.port())
        .tls(tidings_runtime::smtp::SmtpTls::StartTls)
        .api_key(sandbox.email.api_key().to_owned())
        .add_root_certificate_pem(
            sandbox
                .email
                .smtp_certificate_pem()
                .unwrap()
                .as_bytes()
                .to_vec(),
        )
        .timeout(WAIT)
        .build()
        .unwrap();
    let request = SendEmailRequest::new("ada@example.com", ["grace@example.com"])
        .subject("Over SMTP")
        .text("see attached")
        .attach(tidings::email::Attachment::from_bytes(
            "notes.txt",
            b"remember the milk",
        ));
    relay.send(&request).await.unwrap();
    let mail = sandbox
        .inbox
        .emails()
        .wait_for(WAIT, |m| m.subject.as_deref() == Some("Over SMTP"))
        .await
        .unwrap();
    assert_eq!(mail.source, "smtp");
    assert_eq!(mail.attachments[0].filename, "notes.txt");
    let raw = String::from_utf8(sandbox.inbox.raw_email(&mail.id).unwrap()).unwrap();
    assert!(raw.contains("Subject: Over SMTP"), "{raw}");
    let ui = sandbox.inbox_url().unwrap();
    let bytes = reqwest::get(format!("{ui}api/emails/{}/attachments/0", mail.id))
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert_eq!(&bytes[..], b"remember the milk");
    assert_eq!(
        get(&format!("{ui}api/emails/{}/attachments/1", mail.id))
            .await
            .0,
        404
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn the_oldest_records_are_pruned_past_the_retention_limit() {
    let mut config = SandboxConfig::default();
    config.inbox.retention = Retention::default().max_records(3);
    config.email.service.rate_limit = None;
    let sandbox = Sandbox::start_with(config).await.unwrap();
    let email = sandbox.email.client().unwrap();
    for i in 0..5 {
        email
            .send_email(
                &SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                    .subject(format!("n{i}"))
                    .text("x"),
            )
            .await
            .unwrap();
    }
    let kept: Vec<String> = sandbox
        .inbox
        .emails()
        .all()
        .into_iter()
        .filter_map(|m| m.subject)
        .collect();
    assert_eq!(kept, ["n4", "n3", "n2"]);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_sandbox_with_a_data_directory_keeps_its_records_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = SandboxConfig::default();
    config.inbox.data = Some(dir.path().to_owned());
    config.inbox.retention = Retention::default().max_records(2);
    let sandbox = Sandbox::start_with(config.clone()).await.unwrap();
    let email = sandbox.email.client().unwrap();
    for subject in ["first", "second", "third"] {
        email
            .send_email(
                &SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                    .subject(subject)
                    .text("x"),
            )
            .await
            .unwrap();
    }
    sandbox
        .messaging
        .client()
        .unwrap()
        .send_message(&Message::sms("+15550100", "+447700900123", "kept"))
        .await
        .unwrap();
    sandbox
        .inbox
        .emails()
        .wait_for(WAIT, |m| {
            m.subject.as_deref() == Some("third") && m.status == "delivered"
        })
        .await
        .unwrap();
    sandbox.shutdown().await;

    let again = Sandbox::start_with(config).await.unwrap();
    let subjects: Vec<String> = again
        .inbox
        .emails()
        .all()
        .into_iter()
        .filter_map(|m| m.subject)
        .collect();
    assert_eq!(subjects, ["third", "second"], "the pruned one stays gone");
    let third = &again.inbox.emails().all()[0];
    assert_eq!(third.status, "delivered");
    assert!(
        again
            .inbox
            .raw_email(&third.id)
            .is_some_and(|r| !r.is_empty())
    );
    assert_eq!(
        again.inbox.messages().all()[0].text.as_deref(),
        Some("kept")
    );
    again.shutdown().await;
}

#[test]
fn the_cli_help_exits_zero_and_names_its_flags() {
    let out = Command::new(env!("CARGO_BIN_EXE_tidings-sandbox"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--email-key",
        "--messaging-key",
        "--realtime-secret",
        "--webhook-url",
        "--ui-port",
        "--data",
        "--json",
        "--quiet",
    ] {
        assert!(help.contains(flag), "{flag} missing from --help");
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_tidings-sandbox"))
        .arg("--email-port=notaport")
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

/// Starts the binary with `args` and reads its `--json` line.
fn start_binary(args: &[&str]) -> (std::process::Child, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tidings-sandbox"))
        .args(args)
        .arg("--json")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (
        child,
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}")),
    )
}

fn stop(mut child: std::process::Child) {
    let _ = Command::new("kill").arg(child.id().to_string()).status();
    let _ = child.wait();
}

#[tokio::test]
async fn the_binary_with_data_keeps_keys_and_emails_across_a_restart_and_fixed_keys_win() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let (child, first) = start_binary(&["--data", data]);
    let key = first["env"]["COMMS_EMAIL_API_KEY"]
        .as_str()
        .unwrap()
        .to_owned();
    let email = tidings::email::EmailClient::builder()
        .base_url(first["email"].as_str().unwrap())
        .api_key(key.clone())
        .build()
        .unwrap();
    email
        .send_email(
            &SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                .subject("Before restart")
                .text("x"),
        )
        .await
        .unwrap();
    stop(child);

    let (child, second) = start_binary(&["--data", data]);
    assert_eq!(
        second["env"]["COMMS_EMAIL_API_KEY"],
        key.as_str(),
        "the key survives"
    );
    assert_eq!(
        second["env"]["COMMS_MESSAGING_API_KEY"],
        first["env"]["COMMS_MESSAGING_API_KEY"]
    );
    let (status, page) = get(&format!(
        "{}api/emails?subject=before",
        second["inbox"].as_str().unwrap()
    ))
    .await;
    assert_eq!((status, page["total"].as_u64()), (200, Some(1)));
    // The old key still works against the new process.
    let email = tidings::email::EmailClient::builder()
        .base_url(second["email"].as_str().unwrap())
        .api_key(key)
        .build()
        .unwrap();
    email
        .send_email(
            &SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                .subject("After")
                .text("x"),
        )
        .await
        .unwrap();
    stop(child);

    let (child, third) = start_binary(&["--data", data, "--email-key", "sk_fixed_1", "--no-ui"]);
    assert_eq!(third["env"]["COMMS_EMAIL_API_KEY"], "sk_fixed_1");
    assert_eq!(third["inbox"], Value::Null);
    stop(child);
}

#[tokio::test]
async fn a_failing_realtime_webhook_is_recorded_with_its_attempts_and_redelivery_answers_typed_errors()
 {
    let receiver = tidings_tests::TestServer::start(|_| {
        tidings_tests::Reply::json(500, json!({"error": "down"}))
    })
    .await;
    let mut config = SandboxConfig::default();
    config.realtime = config
        .realtime
        .webhook_url(format!("{}/hooks", receiver.url()));
    config.realtime.webhook_attempts = 2;
    let sandbox = Sandbox::start_with(config).await.unwrap();
    let connection =
        tidings::pusher::connection(&sandbox.realtime.ws_url(), sandbox.realtime.key())
            .connect()
            .unwrap();
    let mut channel = connection.subscribe("news").unwrap();
    channel.wait_subscribed(WAIT).await.unwrap();

    let deadline = Instant::now() + WAIT;
    let failed = loop {
        let found = sandbox
            .inbox
            .webhooks()
            .into_iter()
            .find(|w| w.service == "realtime" && w.status == "failed");
        if let Some(found) = found {
            break found;
        }
        assert!(Instant::now() < deadline, "{:?}", sandbox.inbox.webhooks());
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(failed.attempts, 2);
    assert_eq!(failed.event_type, "channel_occupied");
    assert_eq!(failed.response_status, None);
    assert_eq!(failed.error.as_deref(), Some("the receiver answered 500"));
    assert_eq!(receiver.requests().len(), 2, "both attempts reached it");

    let api = sandbox.inbox_url().unwrap();
    let http = reqwest::Client::new();
    let redeliver = |id: &str| {
        http.post(format!("{api}api/webhooks/{id}/redeliver"))
            .send()
    };
    let answer = redeliver(&failed.id).await.unwrap();
    assert_eq!(answer.status().as_u16(), 202);
    let new_id = answer.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(new_id, failed.id);
    let again = sandbox.inbox.webhook(&new_id).unwrap();
    assert_eq!(again.redelivery_of.as_deref(), Some(failed.id.as_str()));
    assert_eq!(again.service, "realtime");
    let unknown = redeliver("rt_nope").await.unwrap();
    assert_eq!(unknown.status().as_u16(), 404);
    assert_eq!(
        unknown.json::<Value>().await.unwrap()["error"],
        "no such delivery"
    );
    // The summary shows the (in-memory: zero) persistence counters.
    let (_, summary) = get(&format!("{api}api/summary")).await;
    assert_eq!(
        summary["persist_stats"],
        json!({"waited_full": 0, "failed": 0})
    );
    drop(channel);
    connection.disconnect();
    sandbox.shutdown().await;
}
