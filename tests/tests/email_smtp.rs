//! The SMTP relay against a real SMTP server on loopback (Python's `aiosmtpd`, started by each
//! test from `tests/peers/smtp_peer.py` with a throwaway CA): STARTTLS and implicit TLS, AUTH
//! with the API key, the typed request turned into MIME (recipients, subject, both bodies, an
//! attachment, the option headers) checked as the server received it, and how 4xx and 5xx
//! answers come back.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use tidings::email::{Attachment, SendEmailRequest, TemplateRef};
use tidings_runtime::smtp::{SmtpRelay, SmtpRelayBuilder, SmtpTls};
use tidings_runtime::{ErrorKind, RetryPolicy};

const KEY: &str = "smtp-test-key-7f3a9c";

/// One `aiosmtpd` relay, stopped when dropped.
struct Peer {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
}

impl Peer {
    fn start(mode: &str) -> Peer {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/smtp_peer.py");
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new("python3")
            .arg(&script)
            .arg("--dir")
            .arg(dir.path())
            .args(["--mode", mode])
            .env("SMTP_PEER_PASSWORD", KEY)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3 runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let Some(port) = line.trim().strip_prefix("READY ") else {
            let _ = child.kill();
            panic!(
                "the SMTP peer did not start (it needs Python's aiosmtpd and cryptography; scripts/test installs them): {line:?}"
            );
        };
        Peer {
            port: port.parse().unwrap(),
            child,
            dir,
        }
    }

    fn ca_pem(&self) -> Vec<u8> {
        std::fs::read(self.dir.path().join("ca.pem")).unwrap()
    }

    /// A relay for this peer, trusting its CA.
    fn relay(&self, tls: SmtpTls) -> SmtpRelayBuilder {
        SmtpRelay::builder("127.0.0.1")
            .port(self.port)
            .tls(tls)
            .api_key(KEY)
            .timeout(Duration::from_secs(10))
            .add_root_certificate_pem(self.ca_pem())
    }

    /// Every message the peer accepted, as it recorded them.
    fn messages(&self) -> Vec<Value> {
        std::fs::read_to_string(self.dir.path().join("messages.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Every `RCPT TO` address the peer was offered, attempts included.
    fn rcpts(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("rcpt.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        drop(self.child.stdin.take()); // the peer exits when its stdin closes
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn header<'a>(message: &'a Value, name: &str) -> Vec<&'a str> {
    message["headers"][name]
        .as_array()
        .map(|v| v.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn decoded(part: &Value) -> Vec<u8> {
    let hex = part["payload_hex"].as_str().unwrap().as_bytes();
    hex.chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
        .collect()
}

fn part<'a>(message: &'a Value, content_type: &str) -> &'a Value {
    message["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["content_type"] == content_type)
        .unwrap_or_else(|| panic!("no {content_type} part in {}", message["parts"]))
}

#[tokio::test]
async fn starttls_relay_delivers_the_typed_message_with_auth_and_option_headers() {
    let peer = Peer::start("starttls");
    let relay = peer.relay(SmtpTls::StartTls).build().unwrap();
    let attachment: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
    let text = "Hello Grace — the Q3 report is attached.";
    let html = "<p>Hello <b>Grace</b> — the Q3 report is attached.</p>";
    let request = SendEmailRequest::new("Ada Lovelace <ada@example.com>", ["grace@example.com"])
        .cc(["alan@example.com"])
        .bcc(["audit@example.com"])
        .reply_to(["support@example.com"])
        .subject("Q3 report ✓")
        .text(text)
        .html(html)
        .attach_bytes("report.bin", &attachment)
        .tag("campaign", "q3")
        .tag("tier", "gold")
        .header("X-Campaign-Owner", "finance");
    let receipt = relay
        .send_with_key(&request, "order-42-receipt")
        .await
        .unwrap();
    assert_eq!(receipt.code, 250);
    assert!(receipt.message.contains("queued as TEST1"), "{receipt:?}");
    assert_eq!(receipt.idempotency_key, "order-42-receipt");

    let messages = peer.messages();
    assert_eq!(messages.len(), 1);
    let m = &messages[0];
    assert_eq!(m["auth_user"], "apikey");
    assert_eq!(m["tls"], true, "STARTTLS before AUTH and DATA");
    assert_eq!(m["mail_from"], "ada@example.com");
    let mut rcpts: Vec<&str> = m["rcpt_tos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    rcpts.sort_unstable();
    assert_eq!(
        rcpts,
        ["alan@example.com", "audit@example.com", "grace@example.com"]
    );
    assert_eq!(header(m, "subject"), ["Q3 report ✓"]);
    assert_eq!(header(m, "from"), ["Ada Lovelace <ada@example.com>"]);
    assert_eq!(header(m, "to"), ["grace@example.com"]);
    assert_eq!(header(m, "cc"), ["alan@example.com"]);
    assert_eq!(header(m, "reply-to"), ["support@example.com"]);
    assert!(
        header(m, "bcc").is_empty() && !m["raw"].as_str().unwrap().contains("audit@"),
        "Bcc goes in the envelope only"
    );
    assert_eq!(header(m, "x-tags"), ["campaign=q3, tier=gold"]);
    assert_eq!(header(m, "x-idempotency-key"), ["order-42-receipt"]);
    assert_eq!(header(m, "x-campaign-owner"), ["finance"]);
    assert!(header(m, "x-template-id").is_empty());
    assert!(
        !m["raw"].as_str().unwrap().contains(KEY),
        "the key is not in the message"
    );

    let kinds: Vec<&str> = m["parts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["multipart"].as_str())
        .collect();
    assert_eq!(kinds, ["multipart/mixed", "multipart/alternative"]);
    assert_eq!(decoded(part(m, "text/plain")), text.as_bytes());
    assert_eq!(decoded(part(m, "text/html")), html.as_bytes());
    let file = part(m, "application/octet-stream");
    assert_eq!(file["filename"], "report.bin");
    assert_eq!(file["disposition"], "attachment");
    assert_eq!(
        decoded(file),
        attachment,
        "the attachment arrives byte for byte"
    );
}

#[tokio::test]
async fn implicit_tls_with_a_self_signed_certificate_accepted_and_a_template() {
    let peer = Peer::start("implicit");
    // Not trusting the CA: the test-only switch accepts the peer's certificate anyway.
    let relay = SmtpRelay::builder("127.0.0.1")
        .port(peer.port)
        .tls(SmtpTls::Implicit)
        .api_key(KEY)
        .danger_accept_invalid_certs(true)
        .build()
        .unwrap();
    let request = SendEmailRequest::new("team@example.com", ["ada@example.com"])
        .subject("Welcome")
        .template(TemplateRef::by_id("tpl_42"))
        .attach(Attachment::from_bytes("logo.png", b"\x89PNG\r\n\x1a\n").inline("logo"));
    let receipt = relay.send(&request).await.unwrap();
    assert_eq!(receipt.code, 250);

    let m = &peer.messages()[0];
    assert_eq!(m["tls"], true);
    assert_eq!(m["auth_user"], "apikey");
    assert_eq!(header(m, "x-template-id"), ["tpl_42"]);
    // A generated key: a UUID, reported back in the receipt.
    let key = header(m, "x-idempotency-key");
    assert_eq!(key, [receipt.idempotency_key.as_str()]);
    assert_eq!(key[0].len(), 36);
    let logo = part(m, "image/png");
    assert_eq!(logo["disposition"], "inline");
    assert_eq!(logo["content_id"], "<logo>");
    assert_eq!(decoded(logo), b"\x89PNG\r\n\x1a\n");
}

#[tokio::test]
async fn an_untrusted_certificate_is_refused_before_the_key_is_sent() {
    let peer = Peer::start("starttls");
    let relay = SmtpRelay::builder("127.0.0.1")
        .port(peer.port)
        .api_key(KEY)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let request = SendEmailRequest::new("ada@example.com", ["grace@example.com"]).text("Hi");
    let err = relay.send(&request).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config, "{err}");
    assert!(!err.is_retryable());
    assert!(peer.messages().is_empty() && peer.rcpts().is_empty());
}

#[tokio::test]
async fn implicit_tls_trusts_the_added_ca_and_refuses_an_unknown_one_before_the_key_is_sent() {
    let peer = Peer::start("implicit");
    // The relay's own TLS connect verifies the chain against the added CA and the name.
    let trusted = peer.relay(SmtpTls::Implicit).build().unwrap();
    let request = SendEmailRequest::new("ada@example.com", ["grace@example.com"]).text("Hi");
    let receipt = trusted.send(&request).await.unwrap();
    assert_eq!(receipt.code, 250);
    assert_eq!(peer.messages().len(), 1);
    assert_eq!(peer.messages()[0]["tls"], true);

    // Without the CA: refused during the handshake, so no AUTH and no message.
    let untrusted = SmtpRelay::builder("127.0.0.1")
        .port(peer.port)
        .tls(SmtpTls::Implicit)
        .api_key(KEY)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let err = untrusted.send(&request).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config, "{err}");
    assert!(!err.is_retryable(), "{err}");
    assert!(err.to_string().contains("certificate"), "{err}");
    assert_eq!(peer.messages().len(), 1);
}

#[tokio::test]
async fn a_wrong_api_key_is_an_auth_error() {
    let peer = Peer::start("starttls");
    let relay = peer
        .relay(SmtpTls::StartTls)
        .api_key("wrong")
        .build()
        .unwrap();
    let request = SendEmailRequest::new("ada@example.com", ["grace@example.com"]).text("Hi");
    let err = relay.send(&request).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Smtp, "{err}");
    let reply = err.smtp_reply().unwrap();
    assert_eq!(reply.code, 535);
    assert!(reply.is_auth_failure());
    assert_eq!(err.status(), None, "an SMTP reply is not an HTTP status");
    assert!(!err.is_retryable());
    assert!(err.to_string().contains("check the API key"), "{err}");
    assert!(
        !format!("{err:?} {err}").contains("wrong"),
        "no key in errors"
    );
    assert!(peer.messages().is_empty());
}

#[tokio::test]
async fn a_4xx_answer_is_retryable_and_retried_by_the_relay() {
    let peer = Peer::start("starttls");
    let relay = peer
        .relay(SmtpTls::StartTls)
        .retry(
            RetryPolicy::none()
                .max_attempts(2)
                .backoff(Duration::from_millis(1), Duration::from_millis(5)),
        )
        .build()
        .unwrap();
    let request = SendEmailRequest::new("ada@example.com", ["tempfail-1@example.com"]).text("Hi");
    let err = relay.send(&request).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Smtp, "{err}");
    assert!(err.is_retryable());
    let reply = err.smtp_reply().unwrap();
    assert_eq!(reply.code, 452);
    assert!(reply.is_transient());
    assert_eq!(reply.enhanced.as_deref(), Some("4.3.1"));
    assert_eq!(reply.message, "Insufficient system storage");
    assert_eq!(
        err.to_string(),
        format!(
            "SMTP relay refused for now (transient): 452 4.3.1 Insufficient system storage: \
             smtp.send (SMTP smtp://127.0.0.1:{}) failed after 2 attempts, the most the retry \
             policy allows; the relay may accept it later: send it again with the same \
             idempotency key (send_with_key)",
            peer.port
        )
    );
    assert_eq!(err.context().map(|c| c.attempts), Some(2));
    assert_eq!(
        peer.rcpts(),
        ["tempfail-1@example.com", "tempfail-1@example.com"],
        "tried twice"
    );
    assert!(peer.messages().is_empty());
}

#[tokio::test]
async fn a_5xx_answer_is_a_typed_permanent_error_and_not_retried() {
    let peer = Peer::start("starttls");
    let relay = peer
        .relay(SmtpTls::StartTls)
        .retry(RetryPolicy::none().max_attempts(3))
        .build()
        .unwrap();
    let request = SendEmailRequest::new("ada@example.com", ["reject-1@example.com"]).text("Hi");
    let err = relay.send(&request).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Smtp, "{err}");
    assert!(!err.is_retryable());
    assert_eq!(err.status(), None);
    let reply = err.smtp_reply().unwrap();
    assert_eq!(
        (
            reply.code,
            reply.enhanced.as_deref(),
            reply.message.as_str()
        ),
        (550, Some("5.1.1"), "User unknown")
    );
    assert_eq!(
        err.to_string(),
        format!(
            "SMTP relay refused (permanent): 550 5.1.1 User unknown: smtp.send (SMTP \
             smtp://127.0.0.1:{}) failed after 1 attempt; the relay will not take this message \
             as it is: check the sender, the recipients and the message",
            peer.port
        )
    );
    assert_eq!(peer.rcpts(), ["reject-1@example.com"], "sent once");
}

#[tokio::test]
async fn what_the_relay_cannot_carry_is_refused_without_connecting() {
    let peer = Peer::start("starttls");
    let relay = peer.relay(SmtpTls::StartTls).build().unwrap();
    let base = || SendEmailRequest::new("ada@example.com", ["grace@example.com"]).text("Hi");
    let cases = [
        ("scheduled_at", base().scheduled_at("2026-12-01T09:00:00Z")),
        ("metadata", base().metadata_entry("order", "42")),
        (
            "attachments[0].url",
            base().attach(Attachment::from_url("a.pdf", "https://example.com/a.pdf")),
        ),
        (
            "template.alias",
            SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                .template(TemplateRef::by_alias("welcome")),
        ),
        ("headers.Subject", base().header("Subject", "sneaky")),
        (
            "headers.X-Note",
            base().header("X-Note", "a\r\nBcc: evil@example.com"),
        ),
        ("headers.Bad Name", base().header("Bad Name", "x")),
        ("tags[0].value", base().tag("campaign", "a,b")),
        (
            "to[0]",
            SendEmailRequest::new("ada@example.com", ["nope"]).text("Hi"),
        ),
    ];
    for (field, request) in &cases {
        let err = relay.send(request).await.unwrap_err();
        match &err {
            tidings_runtime::Error::InvalidRequest { field: got, .. } => {
                assert_eq!(got, field, "{err}")
            }
            other => panic!("{field}: {other:?}"),
        }
    }
    let err = relay
        .send_with_key(&base(), &"k".repeat(257))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    assert!(peer.rcpts().is_empty(), "nothing reached the relay");
}

/// Attachments whose bytes are ASCII with bare line feeds (a text file, a CSV, a PDF's first
/// line) and a binary one, as a user attaches them.
fn files_with_bare_line_feeds() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let mut pdf = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n%%EOF\n".to_vec();
    pdf.extend_from_slice(b"stream\r\nmixed\rendings\n\n");
    vec![
        (
            "notes.txt",
            "text/plain",
            b"line one\nline two\n\nlast".to_vec(),
        ),
        (
            "report.csv",
            "text/csv",
            b"id,name\n1,Ada\n2,Grace\n".to_vec(),
        ),
        ("invoice.pdf", "application/pdf", pdf),
        (
            "blob.bin",
            "application/octet-stream",
            (0..=255u8).rev().cycle().take(700).collect(),
        ),
    ]
}

fn request_with(files: &[(&str, &str, Vec<u8>)], subject: &str) -> SendEmailRequest {
    files.iter().fold(
        SendEmailRequest::new("ada@example.com", ["grace@example.com"])
            .subject(subject)
            .text("Files attached.\nSecond line."),
        |request, (name, _, bytes)| request.attach_bytes(*name, bytes),
    )
}

/// Every line of `raw` ends in CRLF: no bare LF and no bare CR (RFC 5321 section 2.3.8).
fn assert_crlf_only(raw: &[u8]) {
    for (i, &b) in raw.iter().enumerate() {
        let bare_lf = b == b'\n' && (i == 0 || raw[i - 1] != b'\r');
        let bare_cr = b == b'\r' && raw.get(i + 1) != Some(&b'\n');
        assert!(
            !bare_lf && !bare_cr,
            "bare line break at byte {i}: {:?}",
            String::from_utf8_lossy(&raw[i.saturating_sub(40)..(i + 10).min(raw.len())])
        );
    }
}

#[tokio::test]
async fn text_csv_pdf_and_binary_attachments_arrive_byte_for_byte_at_aiosmtpd() {
    let peer = Peer::start("starttls");
    let relay = peer.relay(SmtpTls::StartTls).build().unwrap();
    let files = files_with_bare_line_feeds();
    let receipt = relay
        .send(&request_with(&files, "Line feeds"))
        .await
        .unwrap();
    assert_eq!(receipt.code, 250);

    let messages = peer.messages();
    let m = &messages[0];
    assert_crlf_only(m["raw"].as_str().unwrap().as_bytes());
    for (name, _, bytes) in &files {
        let file = m["parts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["filename"] == *name)
            .unwrap_or_else(|| panic!("no part named {name}"));
        assert_eq!(file["disposition"], "attachment");
        assert_eq!(&decoded(file), bytes, "{name} arrives byte for byte");
    }
    assert_eq!(
        decoded(part(m, "text/plain")),
        b"Files attached.\r\nSecond line.",
        "the text body's line endings are CRLF on the wire"
    );
}

#[tokio::test]
async fn text_csv_pdf_and_binary_attachments_are_accepted_by_the_sandbox_relay_unchanged() {
    let sandbox = tidings_sandbox::Sandbox::start().await.unwrap();
    let smtp = sandbox.email.smtp_addr().unwrap();
    let relay = SmtpRelay::builder("localhost")
        .port(smtp.port())
        .tls(SmtpTls::StartTls)
        .api_key(sandbox.email.api_key().to_owned())
        .add_root_certificate_pem(
            sandbox
                .email
                .smtp_certificate_pem()
                .unwrap()
                .as_bytes()
                .to_vec(),
        )
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let files = files_with_bare_line_feeds();
    // Refused before with `554 5.6.0 Bare <CR> or <LF> in the message`.
    let receipt = relay
        .send(&request_with(&files, "Line feeds to the sandbox"))
        .await
        .unwrap();
    assert_eq!(receipt.code, 250, "{receipt:?}");

    let mail = sandbox
        .inbox
        .emails()
        .wait_for(Duration::from_secs(20), |m| {
            m.subject.as_deref() == Some("Line feeds to the sandbox")
        })
        .await
        .unwrap();
    assert_crlf_only(&sandbox.inbox.raw_email(&mail.id).unwrap());
    let names: Vec<&str> = mail
        .attachments
        .iter()
        .map(|a| a.filename.as_str())
        .collect();
    assert_eq!(
        names,
        ["notes.txt", "report.csv", "invoice.pdf", "blob.bin"]
    );
    let ui = sandbox.inbox_url().unwrap();
    for (i, (name, _, bytes)) in files.iter().enumerate() {
        let got = reqwest::get(format!("{ui}api/emails/{}/attachments/{i}", mail.id))
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        assert_eq!(&got[..], &bytes[..], "{name} arrives byte for byte");
    }
    sandbox.shutdown().await;
}
