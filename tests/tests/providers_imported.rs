//! Clients of specs made by `tidings-codegen import openapi` (no hand edits) from the Twilio and
//! SendGrid excerpts in `tests/providers/`, checked in under `examples/providers/imported/`:
//! called against Prism serving the same excerpt, every request is accepted (form and JSON
//! bodies, a list, a header parameter, 201/202/204 answers) and a documented error answer
//! decodes to its code and message. The list operations' inferred `pagination` (`next_url`
//! on `next_page_uri` and `_metadata.next`) drives their streams: through Prism, and for a
//! three-page walk that ends, on a scripted loopback server. SendGrid's server URL has a path
//! (`/v3`): the import keeps it in the base URL and the operation paths as the document writes
//! them, so a client pointed at Prism (which serves the paths as written) calls it directly.
//! The freshness tests import each excerpt again and expect
//! the checked-in spec byte for byte, and `--merge` into it to change nothing.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod providers_common;

use futures_util::StreamExt;
use providers_common::{Calls, Prism, prefer};
use tidings_codegen::import::{ImportOptions, import_openapi};
use tidings_providers::{sendgrid_imported as sg, twilio_imported as tw};
use tidings_runtime::RetryPolicy;
use tidings_tests::{Reply, TestServer};

const SID: &str = "ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const TOKEN: &str = "auth-token-not-a-secret";
const MESSAGE: &str = "SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const KEY: &str = "Bearer SG.test-key-not-a-secret";
const LIST_ID: &str = "ca7a3796-e8a8-4029-9ccb-df8937940562";
const TEMPLATE_ID: &str = "733ba07f-ead1-41fc-933a-3976baa23716";

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn twilio(base: &str, http: Option<tidings_runtime::reqwest::Client>) -> tw::TwilioImportedClient {
    let mut builder = tw::TwilioImportedClient::builder()
        .base_url(base)
        .credential("account_sid", SID)
        .credential("auth_token", TOKEN)
        .retry(RetryPolicy::none());
    if let Some(http) = http {
        builder = builder.http_client(http);
    }
    builder.build().unwrap()
}

fn sendgrid(
    base: &str,
    http: Option<tidings_runtime::reqwest::Client>,
) -> sg::SendgridImportedClient {
    let mut builder = sg::SendgridImportedClient::builder()
        .base_url(base)
        .api_key(KEY)
        .retry(RetryPolicy::none());
    if let Some(http) = http {
        builder = builder.http_client(http);
    }
    builder.build().unwrap()
}

fn twilio_message() -> tw::Post20100401AccountsMessagesJsonRequest {
    tw::Post20100401AccountsMessagesJsonRequest::new("+15558675310")
        .from("+15017122661")
        .body("Hello from the imported client")
        .media_url(["https://example.com/a.png", "https://example.com/b.png"])
        .status_callback("https://example.com/twilio/status")
}

fn sendgrid_mail() -> sg::PostMailSendRequest {
    sg::PostMailSendRequest::new(
        [sg::PostMailSendRequestContentItem::new(
            "text/plain",
            "Hi Ada",
        )],
        sg::FromEmailObject::new("team@example.com"),
        [sg::PostMailSendRequestPersonalizationsItem::new([
            sg::ToEmailArrayItem::new("ada@example.com").name("Ada"),
        ])],
        "Hello",
    )
}

#[tokio::test]
async fn imported_twilio_client_calls_are_accepted_by_prism() {
    let prism = Prism::start("twilio").await;
    let client = twilio(&prism.url, None);
    let mut c = Calls::default();

    // A form body with a repeated field, answered 201.
    let created = c.ok(
        "create (form body)",
        client
            .post_2010_04_01_accounts_messages_json(SID, &twilio_message())
            .await,
    );
    assert_eq!(created.sid.as_deref(), Some(MESSAGE));
    // A list with renamed query parameters (`DateSent<`).
    let page = c.ok(
        "list",
        client
            .get_2010_04_01_accounts_messages_json(
                SID,
                &tw::Get20100401AccountsMessagesJsonQuery::default()
                    .to("+123456789")
                    .date_sent_before("2008-01-02")
                    .page_size(2),
            )
            .await,
    );
    assert_eq!(page.messages.map(|m| m.len()), Some(2), "the example page");
    assert!(
        page.next_page_uri.is_some(),
        "the example offers a next page"
    );
    c.ok(
        "fetch",
        client.get_2010_04_01_accounts_messages(SID, MESSAGE).await,
    );
    c.ok(
        "update (form body)",
        client
            .post_2010_04_01_accounts_messages(
                SID,
                MESSAGE,
                &tw::Post20100401AccountsMessagesRequest::default().body(""),
            )
            .await,
    );
    // Prism picks the first documented answer with a body unless asked: ask for the 204.
    let client204 = twilio(&prism.url, Some(prefer("code=204")));
    c.ok(
        "delete (204)",
        client204
            .delete_2010_04_01_accounts_messages(SID, MESSAGE)
            .await,
    );

    // The documented error answer: Twilio's numeric code and its message.
    let client404 = twilio(&prism.url, Some(prefer("code=404")));
    let err = c.err(
        "fetch (404)",
        client404
            .get_2010_04_01_accounts_messages(SID, MESSAGE)
            .await,
    );
    assert_eq!(err.status(), Some(404), "{err}");
    let api = err.api_error().unwrap();
    assert_eq!(api.code.as_deref(), Some("20404"), "{api:?}");
    assert_eq!(
        api.message.as_deref(),
        Some("The requested resource was not found"),
        "{api:?}"
    );

    assert_eq!(c.0, 6, "every operation of the excerpt, and one error");
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn imported_sendgrid_client_calls_are_accepted_by_prism() {
    let prism = Prism::start("sendgrid").await;
    let client = sendgrid(&prism.url, None);
    const ON_BEHALF_OF: &str = "subuser-1";
    let mut c = Calls::default();

    c.ok(
        "mail send (202)",
        client.post_mail_send(&sendgrid_mail()).await,
    );
    c.ok(
        "create list",
        client
            .post_marketing_lists(&sg::PostMarketingListsRequest::new("newsletter"))
            .await,
    );
    let lists = c.ok(
        "list lists",
        client
            .get_marketing_lists(&sg::GetMarketingListsQuery::default().page_size(1.0))
            .await,
    );
    assert_eq!(lists.result.map(|r| r.len()), Some(1), "the example page");
    c.ok(
        "get list",
        client
            .get_marketing_lists_by_id(
                LIST_ID,
                &sg::GetMarketingListsByIdQuery::default().contact_sample(true),
            )
            .await,
    );
    c.ok(
        "update list",
        client
            .patch_marketing_lists(
                LIST_ID,
                &sg::PatchMarketingListsRequest::default().name("renamed"),
            )
            .await,
    );
    let job = c.ok(
        "delete list (200)",
        client
            .delete_marketing_lists(
                LIST_ID,
                &sg::DeleteMarketingListsQuery::default().delete_contacts(true),
            )
            .await,
    );
    assert!(job.is_some(), "200: the deletion job");
    // The `on-behalf-of` header parameter, on a list with a required page size.
    c.ok(
        "list templates (header)",
        client
            .get_templates(
                &sg::GetTemplatesQuery::new(10.0).generations("dynamic"),
                &sg::GetTemplatesHeaders::default().on_behalf_of(ON_BEHALF_OF),
            )
            .await,
    );
    let template = c.ok(
        "create template (201, header)",
        client
            .post_templates(
                &sg::PostTemplatesRequest::new("welcome"),
                &sg::PostTemplatesHeaders::default().on_behalf_of(ON_BEHALF_OF),
            )
            .await,
    );
    assert!(
        !template.updated_at.is_empty(),
        "the wire name `updated_at ` (with a space) decodes"
    );
    c.ok(
        "get template",
        client
            .get_templates_by_template_id(
                TEMPLATE_ID,
                &sg::GetTemplatesByTemplateIdHeaders::default(),
            )
            .await,
    );
    c.ok(
        "update template",
        client
            .patch_templates(
                TEMPLATE_ID,
                &sg::PatchTemplatesRequest::default().name("hello"),
                &sg::PatchTemplatesHeaders::default(),
            )
            .await,
    );
    c.ok(
        "delete template (204)",
        client
            .delete_templates(TEMPLATE_ID, &sg::DeleteTemplatesHeaders::default())
            .await,
    );

    // Documented error answers: SendGrid's body has no code field (the import says
    // `code: none`), and the message is the first error's.
    let client400 = sendgrid(&prism.url, Some(prefer("code=400")));
    let err = c.err(
        "mail send (400)",
        client400.post_mail_send(&sendgrid_mail()).await,
    );
    assert_eq!(err.status(), Some(400), "{err}");
    let api = err.api_error().unwrap();
    assert_eq!(api.code, None, "{api:?}");
    assert_eq!(
        api.message.as_deref(),
        Some("The from email does not contain a valid address."),
        "{api:?}"
    );

    assert_eq!(c.0, 12, "eleven operations of the excerpt, and one error");
    prism.assert_all_accepted(c.0);
}

#[tokio::test]
async fn imported_list_streams_follow_the_inferred_next_links_through_prism() {
    // Twilio: Prism answers every page with the example, whose `next_page_uri` is the one just
    // followed on the second page, and the stream stops there rather than loop.
    let prism = Prism::start("twilio").await;
    let client = twilio(&prism.url, None);
    let query = tw::Get20100401AccountsMessagesJsonQuery::default().page_size(2);
    let items: Vec<_> = client
        .get_2010_04_01_accounts_messages_json_stream(SID, &query)
        .take(6)
        .collect()
        .await;
    assert_eq!(items.len(), 5, "two pages, then the error: {items:?}");
    assert!(items[..4].iter().all(Result::is_ok), "{items:?}");
    let err = items[4].as_ref().unwrap_err().to_string();
    assert!(err.contains("repeated the next page"), "{err}");
    prism.assert_all_accepted(2);

    // SendGrid: the example's `_metadata.next` is absolute on api.sendgrid.com, another
    // origin than the configured base URL: not followed (the key stays home).
    let prism = Prism::start("sendgrid").await;
    let client = sendgrid(&prism.url, None);
    let items: Vec<_> = client
        .get_marketing_lists_stream(&sg::GetMarketingListsQuery::default().page_size(1.0))
        .take(3)
        .collect()
        .await;
    assert_eq!(items.len(), 2, "{items:?}");
    assert!(items[0].is_ok(), "{items:?}");
    let err = items[1].as_ref().unwrap_err().to_string();
    assert!(err.contains("another origin"), "{err}");
    prism.assert_all_accepted(1);
}

#[tokio::test]
async fn imported_twilio_stream_walks_three_pages_and_ends_at_a_null_next_page_uri() {
    let server = TestServer::start(|r| {
        let n: u32 = r
            .query_pairs()
            .get("Page")
            .map_or(0, |p| p.parse().unwrap());
        let next = (n < 2).then(|| {
            format!(
                "/2010-04-01/Accounts/{SID}/Messages.json?PageSize=2&Page={}&PageToken=PA{}",
                n + 1,
                n + 1
            )
        });
        let message = |i: u32| serde_json::json!({"sid": format!("SM{i:032}"), "status": "sent"});
        Reply::json(
            200,
            serde_json::json!({
                "messages": [message(2 * n), message(2 * n + 1)],
                "page": n, "page_size": 2, "next_page_uri": next,
            }),
        )
    })
    .await;
    let client = twilio(&server.url(), None);
    let query = tw::Get20100401AccountsMessagesJsonQuery::default().page_size(2);
    let items: Vec<tw::ApiV2010AccountMessage> = client
        .get_2010_04_01_accounts_messages_json_stream(SID, &query)
        .map(Result::unwrap)
        .collect()
        .await;
    let sids: Vec<String> = items.into_iter().filter_map(|m| m.sid).collect();
    assert_eq!(sids.len(), 6, "{sids:?}");
    assert_eq!(sids[5], format!("SM{:032}", 5));
    let requests = server.requests();
    assert_eq!(
        requests.len(),
        3,
        "one request per page, none after the last"
    );
    assert_eq!(
        requests[2]
            .query_pairs()
            .get("PageToken")
            .map(String::as_str),
        Some("PA2")
    );
}

/// Imports `tests/providers/<provider>/openapi.json` as the CLI does
/// (`tidings-codegen import openapi tests/providers/<provider>/openapi.json --service
/// <provider>_imported`), plainly and merged into the checked-in spec.
fn reimport(provider: &str) -> (String, String, String) {
    let doc = root()
        .join("tests/providers")
        .join(provider)
        .join("openapi.json");
    let spec = root()
        .join("examples/providers/imported")
        .join(format!("{provider}_imported.yaml"));
    let doc = std::fs::read_to_string(doc).unwrap();
    let checked_in = std::fs::read_to_string(&spec).unwrap();
    let options = ImportOptions::new(format!("{provider}_imported"), "openapi.json");
    let fresh = import_openapi(&doc, &options, None).unwrap().yaml;
    let merged = import_openapi(&doc, &options, Some(&checked_in)).unwrap();
    assert!(
        merged.report.conflicts.is_empty(),
        "{:?}",
        merged.report.conflicts
    );
    (checked_in, fresh, merged.yaml)
}

fn assert_fresh(provider: &str) {
    let (checked_in, fresh, merged) = reimport(provider);
    assert!(
        checked_in == fresh,
        "examples/providers/imported/{provider}_imported.yaml is stale: run\n  \
         cargo run -p tidings-codegen -- import openapi tests/providers/{provider}/openapi.json \
         --service {provider}_imported > examples/providers/imported/{provider}_imported.yaml"
    );
    assert!(
        merged == checked_in,
        "merging the excerpt into the checked-in spec changes it"
    );
}

#[test]
fn imported_twilio_spec_is_what_importing_the_excerpt_gives() {
    assert_fresh("twilio");
}

#[test]
fn imported_sendgrid_spec_is_what_importing_the_excerpt_gives() {
    assert_fresh("sendgrid");
}

#[test]
fn imported_brevo_spec_is_what_importing_the_excerpt_gives() {
    assert_fresh("brevo");
}

#[test]
fn imported_resend_spec_is_what_importing_the_excerpt_gives() {
    assert_fresh("resend");
}

#[test]
fn imported_infobip_voice_spec_is_what_importing_the_excerpt_gives() {
    assert_fresh("infobip_voice");
}

#[test]
fn imported_clicksend_spec_is_what_importing_the_excerpt_gives() {
    assert_fresh("clicksend");
}

#[test]
fn imported_mailgun_spec_is_what_importing_the_excerpt_gives() {
    assert_fresh("mailgun");
}
