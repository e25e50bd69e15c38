//! Postmark's server API against Prism serving Postmark's own document (the excerpt in
//! `tests/providers/postmark/`): the client generated from `examples/providers/postmark.yaml`
//! calls every operation and Prism accepts every request; the documented 422 answer reaches the
//! caller with Postmark's `ErrorCode` and `Message`; a search walks three pages by count and
//! offset, up to the total it declares.
//!
//! Prism is installed by `scripts/test` (npm, into `tests/peers/prism`).

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod providers_common;

use comms_providers::postmark::*;
use comms_runtime::RetryPolicy;
use providers_common::{Calls, Prism, prefer};

const TOKEN: &str = "server-token-not-a-secret";

fn client(prism: &Prism, http: Option<comms_runtime::reqwest::Client>) -> PostmarkClient {
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
        .tag("welcome")
        .track_links(TrackLinks::HtmlOnly)
        .headers([MessageHeader::default().name("X-Campaign").value("spring")])
}

#[tokio::test]
async fn every_postmark_operation_is_accepted_by_prism() {
    let prism = Prism::start("postmark").await;
    let pm = client(&prism, None);
    let mut c = Calls::default();

    c.ok("send_email", pm.send_email(&email()).await);
    c.ok(
        "search_outbound_messages",
        pm.search_outbound_messages(&SearchOutboundMessagesQuery {
            count: 2,
            offset: 0,
            recipient: Some("ada@example.com".into()),
            fromemail: None,
            tag: Some("welcome".into()),
            status: Some("sent".into()),
        })
        .await,
    );
    c.ok(
        "get_outbound_message",
        pm.get_outbound_message("07311c54-0687-4ab9-b034-b54b5bad88ba")
            .await,
    );
    c.ok(
        "list_templates",
        pm.list_templates(&ListTemplatesQuery {
            count: 10,
            offset: 0,
        })
        .await,
    );
    c.ok(
        "create_template",
        pm.create_template(&CreateTemplateRequest::new("Welcome", "Hi {{name}}").alias("welcome"))
            .await,
    );
    c.ok("get_template", pm.get_template("welcome").await);
    c.ok(
        "update_template",
        pm.update_template(
            "welcome",
            &EditTemplateRequest::default().subject("Hello {{name}}"),
        )
        .await,
    );
    c.ok("delete_template", pm.delete_template("welcome").await);

    assert_eq!(c.0, 8, "every operation of the spec is called");
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn postmark_documented_422_reaches_the_caller_with_its_code_and_message() {
    let prism = Prism::start("postmark").await;
    let pm = client(&prism, Some(prefer("code=422")));
    let mut c = Calls::default();

    let err = c.err("send_email 422", pm.send_email(&email()).await);
    assert_eq!(err.status(), Some(422), "{err}");
    let api = err.api_error().unwrap();
    // Today the runtime reads only `{"error": {...}}`: Postmark's fields are in the excerpt.
    // (`next/` asserts them decoded, through `errors.code: ErrorCode`.)
    assert!(
        api.body_excerpt.contains("\"ErrorCode\":300")
            && api.body_excerpt.contains("Invalid email request"),
        "{api:?}"
    );
    let err = c.err("get_template 422", pm.get_template("missing").await);
    assert_eq!(err.status(), Some(422), "{err}");

    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn postmark_search_walks_three_pages_by_count_and_offset() {
    let prism = Prism::start("postmark").await;
    let pm = client(&prism, None);
    let mut c = Calls::default();

    // By hand until the `offset` pagination style is merged: offset advances by count until
    // it reaches the total the answer declares (the excerpt's example: 6 messages, 2 a page).
    let count = 2;
    let mut offset = 0;
    let mut messages = Vec::new();
    loop {
        let page = c.ok(
            "search_outbound_messages",
            pm.search_outbound_messages(&SearchOutboundMessagesQuery {
                count,
                offset,
                recipient: None,
                fromemail: None,
                tag: None,
                status: None,
            })
            .await,
        );
        messages.extend(page.messages.unwrap_or_default());
        offset += count;
        if offset >= page.total_count.unwrap() {
            break;
        }
        assert!(c.0 < 10, "the walk ends");
    }
    assert_eq!((c.0, messages.len()), (3, 6), "three pages of two");
    prism.assert_all_accepted(c.0);
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
