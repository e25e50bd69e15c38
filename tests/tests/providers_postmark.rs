//! Postmark's server API against Prism serving Postmark's own document, with the full spec:
//! every operation accepted; the documented 422 answer decodes to Postmark's `ErrorCode` and
//! `Message`; the outbound search streams by count and offset and ends at the declared total
//! (6 messages, 2 a page: three pages, even though Prism answers every page alike).

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod providers_common;

use futures_util::StreamExt;
use providers_common::{Calls, Prism, prefer};
use tidings_providers::postmark::*;
use tidings_runtime::RetryPolicy;

const TOKEN: &str = "server-token-not-a-secret";

fn client(prism: &Prism, http: Option<tidings_runtime::reqwest::Client>) -> PostmarkClient {
    let mut builder = PostmarkClient::builder()
        .base_url(&prism.url)
        .credential("server_token", TOKEN)
        .retry(RetryPolicy::none());
    if let Some(http) = http {
        builder = builder.http_client(http);
    }
    builder.build().unwrap()
}

fn email() -> SendEmailRequest {
    SendEmailRequest::default()
        .from("team@example.com")
        .to("ada@example.com")
        .subject("Hello")
        .text_body("Hi Ada")
}

#[tokio::test]
async fn every_postmark_operation_is_accepted_by_prism() {
    let prism = Prism::start("postmark").await;
    let pm = client(&prism, None);
    let mut c = Calls::default();

    c.ok("send_email", pm.send_email(&email()).await);
    let page = c.ok(
        "search_outbound_messages",
        pm.search_outbound_messages(
            &SearchOutboundMessagesQuery::new(2, 0)
                .fromdate("2024-05-01")
                .todate("2024-05-31"),
        )
        .await,
    );
    assert_eq!(page.items.len(), 2);
    c.ok(
        "get_outbound_message",
        pm.get_outbound_message("07311c54-0687-4ab9-b034-b54b5bad88ba")
            .await,
    );
    c.ok(
        "list_templates",
        pm.list_templates(&ListTemplatesQuery::new(1, 0)).await,
    );
    c.ok(
        "create_template",
        pm.create_template(&CreateTemplateRequest::new("Welcome", "Hi"))
            .await,
    );
    c.ok("get_template", pm.get_template("welcome").await);
    c.ok(
        "update_template",
        pm.update_template("welcome", &EditTemplateRequest::default().subject("Hello"))
            .await,
    );
    c.ok("delete_template", pm.delete_template("welcome").await);
    assert_eq!(c.0, 8);
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn postmark_422_decodes_to_error_code_and_message() {
    let prism = Prism::start("postmark").await;
    let pm = client(&prism, Some(prefer("code=422")));
    let mut c = Calls::default();
    let err = c.err("send_email", pm.send_email(&email()).await);
    assert_eq!(err.status(), Some(422));
    let api = err.api_error().unwrap();
    assert_eq!(api.code.as_deref(), Some("300"), "{api:?}");
    assert_eq!(
        api.message.as_deref(),
        Some("Invalid email request"),
        "{api:?}"
    );
    assert_eq!(ErrorCode::of(&err), Some(ErrorCode::from("300")));
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn postmark_search_stream_walks_three_pages_and_stops_at_the_total() {
    let prism = Prism::start("postmark").await;
    let pm = client(&prism, None);
    let messages: Vec<OutboundMessage> = pm
        .search_outbound_messages_stream(&SearchOutboundMessagesQuery::new(2, 0))
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(messages.len(), 6);
    prism.assert_all_accepted(3);
    // The template listing (3 in all, 1 a page) stops at its total too.
    let templates: Vec<_> = pm
        .list_templates_stream(&ListTemplatesQuery::new(1, 0))
        .collect()
        .await;
    assert_eq!(templates.len(), 3);
    prism.assert_all_accepted(6);
}

#[tokio::test]
async fn prism_rejects_a_request_the_document_does_not_allow() {
    // The check the other tests rely on can fail: without the server token header (a required
    // parameter in Postmark's document) Prism refuses the request and counts it as not accepted.
    let prism = Prism::start("postmark").await;
    let pm = PostmarkClient::builder()
        .base_url(&prism.url)
        .no_auth()
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let err = pm.send_email(&email()).await.unwrap_err();
    assert_eq!(err.status(), Some(422), "Prism's validation answer: {err}");
    assert_eq!(prism.received_and_accepted(), (1, 0), "{}", prism.log());
}
