//! The email client against the email sandbox, over loopback: contacts and pagination, sends
//! and their lifecycle, signed webhooks (with a retried delivery), auth in header and query
//! form, validation errors with the spec's body, the rate limit, idempotency keys, schedules.

#![allow(clippy::unwrap_used)]

mod email_support;

use std::collections::HashSet;
use std::time::Duration;

use email_support::{Receiver, client_headers, eventually};
use futures_util::StreamExt;
use tidings::email::{
    CreateContactRequest, CreateWebhookRequest, EmailClient, EmailEvent, EmailStatus,
    ErrorResponse, ListContactsQuery, ListEmailsQuery, SendEmailRequest, SuppressionReason,
    UpdateWebhookRequest, WebhookEndpointStatus, WebhookEventType,
};
use tidings_runtime::ratelimit::RateLimit as ClientRateLimit;
use tidings_runtime::{CallOptions, ErrorKind};
use tidings_sandbox::ServiceConfig;
use tidings_sandbox::email::{EmailSandbox, EmailSandboxConfig};
use tidings_sandbox::server::{
    DeliveryOutcome, RateLimit, WebhookRetry, WebhookTarget, generate_secret,
};

const WAIT: Duration = Duration::from_secs(20);

async fn sandbox(config: EmailSandboxConfig) -> (EmailSandbox, EmailClient) {
    let sandbox = EmailSandbox::start(config.smtp(None)).await.unwrap();
    let client = EmailClient::builder()
        .base_url(sandbox.base_url())
        .api_key(sandbox.api_key().to_owned())
        .build()
        .unwrap();
    (sandbox, client)
}

fn hello() -> SendEmailRequest {
    SendEmailRequest::new("Ada <ada@example.com>", ["grace@example.com"])
        .subject("Hello")
        .text("Hi Grace")
}

#[tokio::test]
async fn contacts_are_created_and_paged_through_newest_first() {
    let (sandbox, client) = sandbox(EmailSandboxConfig::default()).await;
    let mut created = Vec::new();
    for i in 0..25 {
        let contact = client
            .create_contact(
                &CreateContactRequest::new(format!("user{i}@example.com"))
                    .first_name(format!("User {i}")),
            )
            .await
            .unwrap();
        assert_eq!(contact.email, format!("user{i}@example.com"));
        created.push(contact.id);
    }
    let first = client
        .list_contacts(&ListContactsQuery::default().limit(10))
        .await
        .unwrap();
    assert_eq!(first.data.len(), 10);
    assert!(first.has_more);
    assert_eq!(first.data[0].id, created[24], "newest first");

    let all: Vec<_> = client
        .list_contacts_stream(&ListContactsQuery::default().limit(10))
        .map(|c| c.unwrap().id)
        .collect()
        .await;
    let mut expected = created.clone();
    expected.reverse();
    assert_eq!(all, expected);
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), 25);

    // A duplicate address is a conflict; lookup by address works.
    let err = client
        .create_contact(&CreateContactRequest::new("user3@example.com"))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(409));
    let by_email = client.get_contact("user3@example.com").await.unwrap();
    assert_eq!(by_email.id, created[3]);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_sent_email_progresses_and_each_change_arrives_as_a_signed_webhook() {
    // The receiver refuses the first delivery: the sandbox must retry it.
    let mut receiver = Receiver::start(1).await;
    let secret = generate_secret();
    let config = EmailSandboxConfig::default()
        .lifecycle_step(Duration::from_millis(150))
        .webhook(WebhookTarget::new(&receiver.url, &secret))
        .webhook_retry(WebhookRetry {
            base: Duration::from_millis(100),
            ..WebhookRetry::default()
        });
    let (sandbox, client) = sandbox(config).await;

    let sent = client.send_email(&hello()).await.unwrap();
    assert_eq!(sent.status, EmailStatus::Queued);

    let delivered = eventually(WAIT, || async {
        let email = client.get_email(&sent.id).await.unwrap();
        (email.status == EmailStatus::Delivered).then_some(email)
    })
    .await;
    assert!(delivered.sent_at.is_some());
    assert_eq!(delivered.subject.as_deref(), Some("Hello"));

    // The first attempt failed with 500; the same webhook-id came again and succeeded.
    let first = receiver.next(WAIT).await;
    assert_eq!(first.answered, 500);
    let retried = receiver.next(WAIT).await;
    assert_eq!(retried.headers["webhook-id"], first.headers["webhook-id"]);
    assert_eq!(retried.body, first.body);
    let event =
        tidings::email::verify_webhook(&secret, &client_headers(&retried.headers), &retried.body)
            .unwrap();
    let EmailEvent::EmailSent(data) = event else {
        panic!("expected email.sent, got {event:?}")
    };
    assert_eq!(data.email_id, sent.id);

    let delivered = receiver.next_of_type("email.delivered", WAIT).await;
    match tidings::email::verify_webhook(
        &secret,
        &client_headers(&delivered.headers),
        &delivered.body,
    )
    .unwrap()
    {
        EmailEvent::EmailDelivered(data) => assert_eq!(data.email_id, sent.id),
        other => panic!("expected email.delivered, got {other:?}"),
    }
    // A wrong secret does not verify.
    assert!(
        tidings::email::verify_webhook(
            &generate_secret(),
            &client_headers(&delivered.headers),
            &delivered.body
        )
        .is_err()
    );

    let log = sandbox.webhook_deliveries();
    let sent_delivery = log.iter().find(|d| d.event_type == "email.sent").unwrap();
    assert_eq!(sent_delivery.attempts, 2);
    assert!(matches!(
        sent_delivery.outcome,
        DeliveryOutcome::Delivered { .. }
    ));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn registered_webhook_endpoints_get_their_events_signed_with_their_own_secret() {
    let mut receiver = Receiver::start(0).await;
    let (sandbox, client) = sandbox(EmailSandboxConfig::default()).await;
    let endpoint = client
        .create_webhook(&CreateWebhookRequest::new(
            &receiver.url,
            [WebhookEventType::ContactCreated],
        ))
        .await
        .unwrap();
    let secret = endpoint.secret.clone().unwrap();
    assert!(secret.starts_with("whsec_"));
    let contact = client
        .create_contact(&CreateContactRequest::new("ada@example.com"))
        .await
        .unwrap();
    // The id of the contact a signed `contact.created` delivery names.
    let created = |received: email_support::Received| {
        let headers = client_headers(&received.headers);
        match tidings::email::verify_webhook(&secret, &headers, &received.body).unwrap() {
            EmailEvent::ContactCreated(data) => data.id,
            other => panic!("expected contact.created, got {other:?}"),
        }
    };
    assert_eq!(created(receiver.next(WAIT).await), contact.id);
    // Endpoints are plain items of the spec-driven store: a disabled one is passed over, an
    // enabled one served again, a deleted one answered with its kind.
    let status = |status: WebhookEndpointStatus| UpdateWebhookRequest::default().status(status);
    let disabled = client
        .update_webhook(&endpoint.id, &status(WebhookEndpointStatus::Disabled))
        .await
        .unwrap();
    assert_eq!(disabled.status, WebhookEndpointStatus::Disabled);
    let passed_over = client
        .create_contact(&CreateContactRequest::new("bo@example.com"))
        .await
        .unwrap();
    client
        .update_webhook(&endpoint.id, &status(WebhookEndpointStatus::Enabled))
        .await
        .unwrap();
    let served = client
        .create_contact(&CreateContactRequest::new("cy@example.com"))
        .await
        .unwrap();
    let next = created(receiver.next(WAIT).await);
    assert_eq!(next, served.id, "not {}", passed_over.id);
    let deleted = client.delete_webhook(&endpoint.id).await.unwrap();
    assert_eq!(
        (
            deleted.id.as_str(),
            deleted.object.as_deref(),
            deleted.deleted
        ),
        (endpoint.id.as_str(), Some("webhook"), true)
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn requests_without_or_with_a_wrong_key_are_refused_in_header_and_query_form() {
    let (sandbox, client) = sandbox(EmailSandboxConfig::default()).await;
    let http = reqwest::Client::new();
    let url = format!("{}/v1/emails", sandbox.base_url());

    let missing = http.get(&url).send().await.unwrap();
    assert_eq!(missing.status(), 401);
    let body: ErrorResponse = missing.json().await.unwrap();
    assert_eq!(body.error.code, "missing_api_key");

    let wrong = http.get(&url).bearer_auth("nope").send().await.unwrap();
    assert_eq!(wrong.status(), 401);
    let body: ErrorResponse = wrong.json().await.unwrap();
    assert_eq!(body.error.code, "invalid_api_key");

    let wrong_query = http
        .get(&url)
        .query(&[("api_key", "nope")])
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_query.status(), 401);
    let right_query = http
        .get(&url)
        .query(&[("api_key", sandbox.api_key())])
        .send()
        .await
        .unwrap();
    assert_eq!(right_query.status(), 200);
    let right_header = http
        .get(&url)
        .bearer_auth(sandbox.api_key())
        .send()
        .await
        .unwrap();
    assert_eq!(right_header.status(), 200);

    // The generated client, with a wrong key in either form.
    for query_form in [false, true] {
        let mut builder = EmailClient::builder()
            .base_url(sandbox.base_url())
            .api_key("wrong");
        if query_form {
            builder = builder.query_auth();
        }
        let err = builder
            .build()
            .unwrap()
            .list_emails(&ListEmailsQuery::default())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Auth, "query form: {query_form}");
    }
    // And the right key in query form.
    let query_client = EmailClient::builder()
        .base_url(sandbox.base_url())
        .api_key(sandbox.api_key().to_owned())
        .query_auth()
        .build()
        .unwrap();
    query_client
        .list_emails(&ListEmailsQuery::default())
        .await
        .unwrap();
    drop(client);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn invalid_bodies_get_422_or_400_with_the_specs_error_body() {
    let (sandbox, _client) = sandbox(EmailSandboxConfig::default()).await;
    let http = reqwest::Client::new();
    let url = format!("{}/v1/emails", sandbox.base_url());
    let post = |body: &'static str| {
        http.post(&url)
            .bearer_auth(sandbox.api_key())
            .header("content-type", "application/json")
            .body(body)
            .send()
    };

    // A bad address: the client's own checks, run by the server.
    let response = post(r#"{"from":"not an address","to":["grace@example.com"],"text":"hi"}"#)
        .await
        .unwrap();
    assert_eq!(response.status(), 422);
    let request_id = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let body: ErrorResponse = response.json().await.unwrap();
    assert_eq!(body.error.code, "validation_error");
    assert_eq!(body.error.param.as_deref(), Some("from"));
    assert_eq!(body.error.request_id.as_deref(), Some(request_id.as_str()));

    // A rule: a template excludes html.
    let response = post(r#"{"from":"ada@example.com","to":["grace@example.com"],"html":"<p>x</p>","template":{"id":"t"}}"#).await.unwrap();
    assert_eq!(response.status(), 422);

    // A wrong type names the field.
    let response = post(r#"{"from":"ada@example.com","to":"grace@example.com","text":"hi"}"#)
        .await
        .unwrap();
    assert_eq!(response.status(), 422);
    let body: ErrorResponse = response.json().await.unwrap();
    assert_eq!(body.error.param.as_deref(), Some("to"));

    // Not JSON at all.
    let response = post("{not json").await.unwrap();
    assert_eq!(response.status(), 400);
    let body: ErrorResponse = response.json().await.unwrap();
    assert_eq!(body.error.code, "validation_error");

    // A query out of the spec's range.
    let response = http
        .get(format!("{}/v1/emails?limit=500", sandbox.base_url()))
        .bearer_auth(sandbox.api_key())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 422);
    let body: ErrorResponse = response.json().await.unwrap();
    assert_eq!(body.error.param.as_deref(), Some("limit"));

    // Unknown ids and paths.
    let response = http
        .get(format!("{}/v1/emails/nope", sandbox.base_url()))
        .bearer_auth(sandbox.api_key())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let body: ErrorResponse = response.json().await.unwrap();
    assert_eq!(body.error.code, "not_found");
    let response = http
        .get(format!("{}/v2/nothing", sandbox.base_url()))
        .bearer_auth(sandbox.api_key())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn over_the_rate_limit_answers_429_with_retry_after_and_the_client_copes() {
    let limit = RateLimit::new(3, Duration::from_secs(1));
    let (sandbox, _client) = sandbox(EmailSandboxConfig::default().rate_limit(Some(limit))).await;
    let http = reqwest::Client::new();
    let url = format!("{}/v1/emails", sandbox.base_url());
    let mut last = None;
    for i in 0..4 {
        let response = http
            .get(&url)
            .bearer_auth(sandbox.api_key())
            .send()
            .await
            .unwrap();
        assert_eq!(response.headers()["x-ratelimit-limit"], "3");
        if i < 3 {
            assert_eq!(response.status(), 200, "request {i}");
            assert_eq!(
                response.headers()["x-ratelimit-remaining"],
                (2 - i).to_string().as_str()
            );
        } else {
            last = Some(response);
        }
    }
    let limited = last.unwrap();
    assert_eq!(limited.status(), 429);
    let retry_after: u64 = limited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=1).contains(&retry_after));
    assert_eq!(limited.headers()["x-ratelimit-remaining"], "0");
    assert!(limited.headers().contains_key("x-ratelimit-reset"));
    let body: ErrorResponse = limited.json().await.unwrap();
    assert_eq!(body.error.code, "rate_limit_exceeded");

    // The client, without its own limiter, retries after Retry-After and gets through.
    let retrying = EmailClient::builder()
        .base_url(sandbox.base_url())
        .api_key(sandbox.api_key().to_owned())
        .rate_limit(None)
        .build()
        .unwrap();
    for _ in 0..5 {
        retrying
            .list_emails(&ListEmailsQuery::default())
            .await
            .unwrap();
    }
    // With its limiter set to the server's limit, it waits instead of being refused.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let paced = EmailClient::builder()
        .base_url(sandbox.base_url())
        .api_key(sandbox.api_key().to_owned())
        .rate_limit(Some(ClientRateLimit::new(3, Duration::from_secs(1))))
        .max_attempts(1)
        .build()
        .unwrap();
    for _ in 0..5 {
        paced
            .list_emails(&ListEmailsQuery::default())
            .await
            .unwrap();
    }
    sandbox.shutdown().await;
}

#[tokio::test]
async fn an_idempotency_key_replays_the_same_answer_and_refuses_another_body() {
    let (sandbox, client) = sandbox(EmailSandboxConfig::default()).await;
    let http = reqwest::Client::new();
    let url = format!("{}/v1/emails", sandbox.base_url());
    let send = |body: &'static str| {
        http.post(&url)
            .bearer_auth(sandbox.api_key())
            .header("idempotency-key", "order-42")
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let body = r#"{"from":"ada@example.com","to":["grace@example.com"],"text":"hi"}"#;
    let first = send(body).await.unwrap();
    assert_eq!(first.status(), 202);
    let first: serde_json::Value = first.json().await.unwrap();
    let again = send(body).await.unwrap();
    assert_eq!(again.status(), 202);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    let again: serde_json::Value = again.json().await.unwrap();
    assert_eq!(first, again);

    let other =
        send(r#"{"from":"ada@example.com","to":["grace@example.com"],"text":"something else"}"#)
            .await
            .unwrap();
    assert_eq!(other.status(), 409);
    let error: ErrorResponse = other.json().await.unwrap();
    assert_eq!(error.error.code, "idempotency_key_reused");

    // Through the client: one key, two calls, one email.
    let keyed = client.with_options(CallOptions::new().idempotency_key("order-43"));
    let a = keyed.send_email(&hello()).await.unwrap();
    let b = keyed.send_email(&hello()).await.unwrap();
    assert_eq!(a.id, b.id);
    let page = client
        .list_emails(&ListEmailsQuery::default())
        .await
        .unwrap();
    assert_eq!(page.data.len(), 2, "one email per key");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_scheduled_email_can_be_rescheduled_and_canceled() {
    let (sandbox, client) = sandbox(EmailSandboxConfig::default()).await;
    let later = tidings_sandbox::server::format_rfc3339(
        std::time::SystemTime::now() + Duration::from_secs(3600),
    );
    let sent = client
        .send_email(&hello().scheduled_at(later))
        .await
        .unwrap();
    assert_eq!(sent.status, EmailStatus::Scheduled);
    let even_later = tidings_sandbox::server::format_rfc3339(
        std::time::SystemTime::now() + Duration::from_secs(7200),
    );
    let moved = client
        .reschedule_email(
            &sent.id,
            &tidings::email::RescheduleEmailRequest::new(even_later.clone()),
        )
        .await
        .unwrap();
    assert_eq!(moved.scheduled_at.as_deref(), Some(even_later.as_str()));
    let canceled = client.cancel_email(&sent.id).await.unwrap();
    assert_eq!(canceled.status, EmailStatus::Canceled);
    let again = client.cancel_email(&sent.id).await.unwrap_err();
    assert_eq!(again.status(), Some(409));
    sandbox.shutdown().await;
}

/// Failures on demand (README, `--help`): a recipient whose local part starts with `bounce`
/// makes the email `bounced` after `sent`, with a signed `email.bounced` webhook, and puts the
/// address on the suppression list (reason `hard_bounce`, naming the email), so the next send
/// to it is `suppressed` at once. Another recipient of the same sandbox is delivered.
#[tokio::test]
async fn a_send_to_a_bounce_address_ends_bounced_with_its_webhook_and_a_suppression() {
    let mut receiver = Receiver::start(0).await;
    let secret = generate_secret();
    let config = EmailSandboxConfig::default()
        .lifecycle_step(Duration::from_millis(100))
        .webhook(WebhookTarget::new(&receiver.url, &secret));
    let (sandbox, client) = sandbox(config).await;
    let to_bounce = SendEmailRequest::new("ada@example.com", ["Bounce.Test@example.com"])
        .subject("Your code")
        .text("123456");
    let sent = client.send_email(&to_bounce).await.unwrap();
    let bounced = eventually(WAIT, || async {
        let email = client.get_email(&sent.id).await.unwrap();
        (email.status == EmailStatus::Bounced).then_some(email)
    })
    .await;
    assert!(bounced.sent_at.is_some(), "bounced after sent: {bounced:?}");

    let webhook = receiver.next_of_type("email.bounced", WAIT).await;
    match tidings::email::verify_webhook(&secret, &client_headers(&webhook.headers), &webhook.body)
        .unwrap()
    {
        EmailEvent::EmailBounced(data) => {
            assert_eq!(data.email_id, sent.id);
            assert!(data.bounce.is_permanent(), "{:?}", data.bounce);
        }
        other => panic!("expected email.bounced, got {other:?}"),
    }

    let suppression = client
        .get_suppression("bounce.test@example.com")
        .await
        .unwrap();
    assert_eq!(suppression.reason, SuppressionReason::HardBounce);
    assert_eq!(suppression.email_id.as_deref(), Some(sent.id.as_str()));
    let again = client.send_email(&to_bounce).await.unwrap();
    assert_eq!(again.status, EmailStatus::Suppressed);

    let fine = client.send_email(&hello()).await.unwrap();
    eventually(WAIT, || async {
        let email = client.get_email(&fine.id).await.unwrap();
        (email.status == EmailStatus::Delivered).then_some(())
    })
    .await;
    sandbox.shutdown().await;
}
