//! SendGrid v3 against Prism serving SendGrid's own OpenAPI document (the excerpt in
//! `tests/providers/sendgrid/`): the client generated from `examples/providers/sendgrid.yaml`
//! calls every operation and Prism accepts every request; documented error answers reach the
//! caller; the marketing lists walk three pages by the token in `_metadata.next`.
//!
//! Prism is installed by `scripts/test` (npm, into `tests/peers/prism`).

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod providers_common;

use comms_providers::sendgrid::*;
use comms_runtime::RetryPolicy;
use providers_common::{Calls, Prism, prefer};

const KEY: &str = "SG.test-key-not-a-secret";
const LIST_ID: &str = "ca7a3796-e8a8-4029-9ccb-df8937940562";
const TEMPLATE_ID: &str = "733ba07f-ead1-41fc-933a-3976baa23716";

fn client(prism: &Prism, http: Option<comms_runtime::reqwest::Client>) -> SendgridClient {
    let mut builder = SendgridClient::builder()
        .base_url(&prism.url)
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
                .subject("Hello")
                .dynamic_template_data(serde_json::json!({"first_name": "Ada"})),
        ],
        EmailAddress::new("team@example.com"),
        "Hello",
        [Content::new("text/plain", "Hi Ada")],
    )
    .categories(["welcome"])
}

#[tokio::test]
async fn every_sendgrid_operation_is_accepted_by_prism() {
    let prism = Prism::start("sendgrid").await;
    let sg = client(&prism, None);
    let mut c = Calls::default();

    c.ok("send_mail", sg.send_mail(&mail()).await);
    let list = c.ok(
        "create_list",
        sg.create_list(&CreateListRequest::new("newsletter")).await,
    );
    assert_eq!(
        list.name.as_deref(),
        Some("list-name"),
        "Prism's documented example"
    );
    c.ok(
        "list_lists",
        sg.list_lists(&ListListsQuery {
            page_size: Some(1),
            page_token: None,
        })
        .await,
    );
    c.ok(
        "get_list",
        sg.get_list(
            LIST_ID,
            &GetListQuery {
                contact_sample: Some(true),
            },
        )
        .await,
    );
    c.ok(
        "update_list",
        sg.update_list(LIST_ID, &UpdateListRequest::default().name("renamed"))
            .await,
    );
    let job = c.ok(
        "delete_list",
        sg.delete_list(
            LIST_ID,
            &DeleteListQuery {
                delete_contacts: Some(false),
            },
        )
        .await,
    );
    assert!(
        job.job_id.is_some(),
        "the 200 answer carries the deletion job"
    );
    let template = c.ok(
        "create_template",
        sg.create_template(
            &CreateTemplateRequest::new("welcome").generation(TemplateGeneration::Dynamic),
        )
        .await,
    );
    assert!(!template.id.is_empty() && template.generation == TemplateGeneration::Legacy);
    c.ok(
        "list_templates",
        sg.list_templates(&ListTemplatesQuery {
            generations: Some("dynamic".into()),
            page_size: 10,
            page_token: None,
        })
        .await,
    );
    c.ok("get_template", sg.get_template(TEMPLATE_ID).await);
    c.ok(
        "update_template",
        sg.update_template(TEMPLATE_ID, &UpdateTemplateRequest::default().name("hello"))
            .await,
    );
    c.ok("delete_template", sg.delete_template(TEMPLATE_ID).await);

    assert_eq!(c.0, 11, "every operation of the spec is called");
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn sendgrid_documented_error_answers_reach_the_caller() {
    let prism = Prism::start("sendgrid").await;
    let mut c = Calls::default();

    // Mail send's documented 400: `{"errors": [{"field", "message"}]}`.
    let sg = client(&prism, Some(prefer("code=400")));
    let err = c.err("send_mail 400", sg.send_mail(&mail()).await);
    assert_eq!(err.status(), Some(400), "{err}");
    let api = err.api_error().unwrap();
    assert!(
        api.body_excerpt
            .contains("The from email does not contain a valid address."),
        "the provider's message is in the answer: {api:?}"
    );

    // The global 401 (documented on mail send).
    let sg = client(&prism, Some(prefer("code=401")));
    let err = c.err("send_mail 401", sg.send_mail(&mail()).await);
    assert_eq!(err.status(), Some(401), "{err}");
    assert!(
        err.api_error()
            .unwrap()
            .body_excerpt
            .contains("authorization required")
    );

    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn sendgrid_lists_walk_three_pages_by_the_metadata_next_token() {
    let prism = Prism::start("sendgrid").await;
    let sg = client(&prism, None);
    let mut c = Calls::default();

    // Until the `next_url` pagination style is merged, the walk is by hand: the token of the
    // next page is the `page_token` query parameter of `_metadata.next`.
    let mut token = None;
    let mut items = 0;
    for _ in 0..3 {
        let page = c.ok(
            "list_lists",
            sg.list_lists(&ListListsQuery {
                page_size: Some(1),
                page_token: token.clone(),
            })
            .await,
        );
        items += page.result.unwrap_or_default().len();
        let next = page.metadata.and_then(|m| m.next).expect("a next link");
        let url = url::Url::parse(&next).unwrap();
        token = url
            .query_pairs()
            .find(|(k, _)| k == "page_token")
            .map(|(_, v)| v.into_owned());
        assert_eq!(token.as_deref(), Some("cGFnZTI"));
    }
    assert_eq!(items, 3);
    prism.assert_all_accepted(c.0);
}
