//! The runtime's SMTP relay client (`tidings_runtime::smtp::SmtpRelay`, STARTTLS, AUTH with the
//! API key) against the email sandbox's SMTP listener: the mail lands in the same store as REST
//! sends, with its tags; wrong keys are refused; an idempotency key is honoured.

#![allow(clippy::unwrap_used)]

mod email_support;

use std::time::Duration;

use email_support::eventually;
use tidings::email::{EmailStatus, ListEmailsQuery, SendEmailRequest};
use tidings_runtime::ErrorKind;
use tidings_runtime::smtp::{SmtpRelay, SmtpTls};
use tidings_sandbox::ServiceConfig;
use tidings_sandbox::email::{EmailSandbox, EmailSandboxConfig};

fn relay(sandbox: &EmailSandbox, key: &str) -> SmtpRelay {
    let addr = sandbox.smtp_addr().unwrap();
    SmtpRelay::builder("localhost")
        .port(addr.port())
        .tls(SmtpTls::StartTls)
        .api_key(key.to_owned())
        .add_root_certificate_pem(sandbox.smtp_certificate_pem().unwrap().as_bytes().to_vec())
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

fn queued_id(message: &str) -> String {
    message
        .rsplit("queued as ")
        .next()
        .unwrap()
        .trim()
        .to_owned()
}

#[tokio::test]
async fn a_mail_sent_through_the_relay_shows_up_in_the_api() {
    let sandbox = EmailSandbox::start(
        EmailSandboxConfig::default().lifecycle_step(Duration::from_millis(100)),
    )
    .await
    .unwrap();
    let client = sandbox.client().unwrap();
    let request = SendEmailRequest::new("Ada <ada@example.com>", ["grace@example.com"])
        .bcc(["hidden@example.com"])
        .subject("Through SMTP")
        .text("Plain body")
        .html("<p>HTML body</p>")
        .tag("campaign", "launch");
    let receipt = relay(&sandbox, sandbox.api_key())
        .send(&request)
        .await
        .unwrap();
    assert_eq!(receipt.code, 250);
    let id = queued_id(&receipt.message);

    let email = client.get_email(&id).await.unwrap();
    assert_eq!(email.from, "Ada <ada@example.com>");
    assert_eq!(email.to, vec!["grace@example.com".to_owned()]);
    assert_eq!(email.bcc, Some(vec!["hidden@example.com".to_owned()]));
    assert_eq!(email.subject.as_deref(), Some("Through SMTP"));
    assert_eq!(email.text.as_deref().map(str::trim), Some("Plain body"));
    assert_eq!(
        email.html.as_deref().map(str::trim),
        Some("<p>HTML body</p>")
    );
    let tags = email.tags.unwrap();
    assert_eq!(
        (tags[0].name.as_str(), tags[0].value.as_str()),
        ("campaign", "launch")
    );

    let listed = client
        .list_emails(&ListEmailsQuery::default())
        .await
        .unwrap();
    assert!(listed.data.iter().any(|e| e.id == id));
    eventually(Duration::from_secs(20), || async {
        (client.get_email(&id).await.unwrap().status == EmailStatus::Delivered).then_some(())
    })
    .await;
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_wrong_key_is_refused_and_an_idempotency_key_is_honoured() {
    let sandbox = EmailSandbox::start(EmailSandboxConfig::default())
        .await
        .unwrap();
    let request = SendEmailRequest::new("ada@example.com", ["grace@example.com"])
        .subject("Once")
        .text("Hi");

    let err = relay(&sandbox, "wrong-key")
        .send(&request)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Smtp, "{err}");
    assert!(err.smtp_reply().unwrap().is_auth_failure(), "{err}");

    let relay = relay(&sandbox, sandbox.api_key());
    let first = relay.send_with_key(&request, "smtp-key-1").await.unwrap();
    let again = relay.send_with_key(&request, "smtp-key-1").await.unwrap();
    assert_eq!(queued_id(&first.message), queued_id(&again.message));
    let other = SendEmailRequest::new("ada@example.com", ["grace@example.com"])
        .subject("Other")
        .text("Hi");
    let err = relay.send_with_key(&other, "smtp-key-1").await.unwrap_err();
    assert_eq!(err.smtp_reply().map(|r| r.code), Some(554), "{err}");

    let listed = sandbox
        .client()
        .unwrap()
        .list_emails(&ListEmailsQuery::default())
        .await
        .unwrap();
    assert_eq!(listed.data.len(), 1);
    sandbox.shutdown().await;
}

/// Failures on demand: a recipient `smtp-<code>@...` is refused at RCPT with that reply, so an
/// app can test its handling of a transient (4xx, retried by SMTP's rules) and a permanent
/// (5xx, never retried) refusal; nothing is stored.
#[tokio::test]
async fn smtp_refusals_on_demand_reach_the_app_as_typed_transient_or_permanent_errors() {
    let sandbox = EmailSandbox::start(EmailSandboxConfig::default())
        .await
        .unwrap();
    let relay = SmtpRelay::builder("localhost")
        .port(sandbox.smtp_addr().unwrap().port())
        .tls(SmtpTls::StartTls)
        .api_key(sandbox.api_key().to_owned())
        .add_root_certificate_pem(sandbox.smtp_certificate_pem().unwrap().as_bytes().to_vec())
        .retry(tidings_runtime::RetryPolicy::none())
        .build()
        .unwrap();
    for (recipient, code, transient) in [
        ("smtp-451@example.com", 451, true),
        ("SMTP-452@example.com", 452, true),
        ("smtp-550@example.com", 550, false),
        ("smtp-554@example.com", 554, false),
    ] {
        let request = SendEmailRequest::new("ada@example.com", [recipient])
            .subject("Refused on demand")
            .text("x");
        let err = relay.send(&request).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Smtp, "{err}");
        let reply = err.smtp_reply().unwrap();
        assert_eq!(reply.code, code, "{err}");
        assert_eq!(
            reply.enhanced.as_deref(),
            Some(&*format!("{}.0.0", code / 100))
        );
        assert_eq!(reply.is_transient(), transient, "{err}");
        assert_eq!(err.is_retryable(), transient, "{err}");
        // The send it ended: the relay, the attempts, and what to do.
        let context = err.context().unwrap_or_else(|| panic!("no context: {err}"));
        let port = sandbox.smtp_addr().unwrap().port();
        assert_eq!(
            (context.service, context.operation, context.method.as_str()),
            ("smtp", "send", "SMTP")
        );
        assert_eq!(context.url, format!("smtp://localhost:{port}"));
        assert_eq!(context.attempts, 1);
        assert!(
            err.to_string().contains(&format!(
                "smtp.send (SMTP smtp://localhost:{port}) failed after 1 attempt"
            )),
            "{err}"
        );
        let advice = if transient {
            "accept it later"
        } else {
            "check the sender, the recipients"
        };
        assert!(context.advice.contains(advice), "{err}");
    }
    // A code outside the RCPT refusals is an ordinary recipient.
    let request = SendEmailRequest::new("ada@example.com", ["smtp-250@example.com"])
        .subject("Kept")
        .text("x");
    assert_eq!(relay.send(&request).await.unwrap().code, 250);
    let client = sandbox.client().unwrap();
    let page = client
        .list_emails(&ListEmailsQuery::default())
        .await
        .unwrap();
    assert_eq!(page.data.len(), 1, "only the accepted mail is stored");
}
