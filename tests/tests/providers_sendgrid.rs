//! SendGrid v3 against Prism serving SendGrid's own document (the excerpt in
//! `tests/providers/sendgrid/`), with the full spec: every operation accepted (including the
//! `on-behalf-of` header parameter and a delete answering 200 or 204); documented error answers
//! decode to the first error's field and message; the marketing lists stream follows
//! `_metadata.next` for three pages. A scripted loopback server pins what Prism cannot: the walk
//! ends when `_metadata.next` is absent, SendGrid's absolute links to its production host are
//! re-rooted onto the configured base URL, and a link to any other host is refused (the API key
//! never goes to a host the client was not configured for).

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod providers_common;

use futures_util::StreamExt;
use providers_common::{Calls, Prism, prefer};
use serde_json::json;
use tidings_providers::sendgrid::*;
use tidings_runtime::RetryPolicy;
use tidings_tests::{Reply, TestServer};

const KEY: &str = "SG.test-key-not-a-secret";
const LIST_ID: &str = "ca7a3796-e8a8-4029-9ccb-df8937940562";
const TEMPLATE_ID: &str = "733ba07f-ead1-41fc-933a-3976baa23716";

fn client(base: &str, http: Option<tidings_runtime::reqwest::Client>) -> SendgridClient {
    let mut builder = SendgridClient::builder()
        .base_url(base)
        .api_key(KEY)
        .retry(RetryPolicy::none());
    if let Some(http) = http {
        builder = builder.http_client(http);
    }
    builder.build().unwrap()
}

fn mail() -> SendMailRequest {
    SendMailRequest::new(
        [
            Personalization::new([EmailAddress::new("ada@example.com").name("Ada")])
                .subject("Hello"),
        ],
        EmailAddress::new("team@example.com"),
        "Hello",
        [Content::new("text/plain", "Hi Ada")],
    )
}

#[tokio::test]
async fn every_sendgrid_operation_is_accepted_by_prism() {
    let prism = Prism::start("sendgrid").await;
    let sg = client(&prism.url, None);
    let mut c = Calls::default();

    c.ok("send_mail", sg.send_mail(&mail()).await);
    c.ok(
        "create_list",
        sg.create_list(&CreateListRequest::new("newsletter")).await,
    );
    let page = c.ok(
        "list_lists",
        sg.list_lists(&ListListsQuery::default().page_size(1)).await,
    );
    assert_eq!(page.items.len(), 1);
    c.ok(
        "get_list",
        sg.get_list(LIST_ID, &GetListQuery::default().contact_sample(true))
            .await,
    );
    c.ok(
        "update_list",
        sg.update_list(LIST_ID, &UpdateListRequest::default().name("renamed"))
            .await,
    );
    let job = c.ok(
        "delete_list (200)",
        sg.delete_list(LIST_ID, &DeleteListQuery::default().delete_contacts(true))
            .await,
    );
    assert!(job.is_some(), "200: the deletion job");
    let sg204 = client(&prism.url, Some(prefer("code=204")));
    let none = c.ok(
        "delete_list (204)",
        sg204
            .delete_list(LIST_ID, &DeleteListQuery::default())
            .await,
    );
    assert!(none.is_none(), "204: no body");
    let template = c.ok(
        "create_template",
        sg.create_template(&CreateTemplateRequest::new("welcome"))
            .await,
    );
    assert!(
        !template.updated_at.is_empty(),
        "the wire name `updated_at ` (with a space) decodes"
    );
    c.ok(
        "list_templates",
        sg.list_templates(
            &ListTemplatesQuery::new(10).generations("dynamic"),
            &ListTemplatesHeaders::default().on_behalf_of("subuser-1"),
        )
        .await,
    );
    c.ok("get_template", sg.get_template(TEMPLATE_ID).await);
    c.ok(
        "update_template",
        sg.update_template(TEMPLATE_ID, &UpdateTemplateRequest::default().name("hello"))
            .await,
    );
    c.ok("delete_template", sg.delete_template(TEMPLATE_ID).await);

    assert_eq!(c.0, 12, "every operation of the spec, delete_list twice");
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn sendgrid_error_answers_decode_to_field_and_message() {
    let prism = Prism::start("sendgrid").await;
    let mut c = Calls::default();
    let cases = [
        (
            400,
            Some("from.email"),
            "The from email does not contain a valid address.",
        ),
        (401, None, "authorization required"),
    ];
    for (status, field, text) in cases {
        let sg = client(&prism.url, Some(prefer(&format!("code={status}"))));
        let err = c.err("send_mail", sg.send_mail(&mail()).await);
        assert_eq!(err.status(), Some(status), "{err}");
        let api = err.api_error().unwrap();
        assert_eq!(api.code.as_deref(), field, "{api:?}");
        assert_eq!(api.message.as_deref(), Some(text), "{api:?}");
    }
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn sendgrid_production_next_link_is_not_followed_from_another_base_url() {
    let prism = Prism::start("sendgrid").await;
    let sg = client(&prism.url, None);
    // Prism's example page carries SendGrid's own absolute link
    // (https://api.sendgrid.com/v3/marketing/lists?...); the client here is configured for
    // loopback, so following it would send the API key to another host: the walk ends with an
    // error after the first page (the three-page walk is `sendgrid_lists_stream_ends_without_metadata_next`).
    let items: Vec<_> = sg
        .list_lists_stream(&ListListsQuery::default().page_size(1))
        .take(3)
        .collect()
        .await;
    assert_eq!(items.len(), 2, "{items:?}");
    assert!(items[0].is_ok(), "{items:?}");
    let err = items[1].as_ref().unwrap_err().to_string();
    assert!(err.contains("another origin"), "{err}");
    prism.assert_all_accepted(1);
}

fn lists_page(n: u32, next: Option<String>) -> serde_json::Value {
    let mut metadata = json!({"self": "https://api.sendgrid.com/v3/marketing/lists", "count": 3});
    if let Some(next) = next {
        metadata["next"] = json!(next);
    }
    json!({"result": [{"id": format!("list-{n}"), "name": format!("list {n}"), "contact_count": n}],
           "_metadata": metadata})
}

#[tokio::test]
async fn sendgrid_lists_stream_ends_without_metadata_next() {
    // Absolute links on the server's own origin, as SendGrid sends them on its host.
    let server = TestServer::start(|r| {
        let origin = format!("http://{}", r.header("host").unwrap_or_default());
        let next = |t: &str| {
            Some(format!(
                "{origin}/v3/marketing/lists?page_size=1&page_token={t}"
            ))
        };
        match r.query_pairs().get("page_token").map(String::as_str) {
            None => Reply::json(200, lists_page(1, next("t2"))),
            Some("t2") => Reply::json(200, lists_page(2, next("t3"))),
            Some("t3") => Reply::json(200, lists_page(3, None)),
            Some(_) => Reply::json(400, json!({"errors": [{"message": "bad token"}]})),
        }
    })
    .await;
    let sg = client(&format!("{}/v3", server.url()), None);
    let lists: Vec<List> = sg
        .list_lists_stream(&ListListsQuery::default().page_size(1))
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(lists.len(), 3);
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    for r in &requests {
        assert_eq!(r.path, "/v3/marketing/lists", "re-rooted onto the base URL");
        assert_eq!(
            r.header("authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
    }
}

#[tokio::test]
async fn sendgrid_next_link_to_another_host_is_refused() {
    let server = TestServer::start(|_| {
        Reply::json(
            200,
            lists_page(
                1,
                Some("https://elsewhere.example/v3/marketing/lists?page_token=t2".into()),
            ),
        )
    })
    .await;
    let sg = client(&format!("{}/v3", server.url()), None);
    let items: Vec<_> = sg
        .list_lists_stream(&ListListsQuery::default())
        .collect()
        .await;
    assert_eq!(
        items.len(),
        2,
        "the first page's list, then an error: {items:?}"
    );
    assert!(items[0].is_ok());
    assert!(
        items[1].is_err(),
        "a next link on an unknown host ends the walk with an error"
    );
    assert_eq!(server.requests().len(), 1);
}
