//! The email service's whole REST API over real HTTP on loopback: every operation's method,
//! path, bearer auth and JSON body (read back into the spec's own types, with nothing left
//! over), what the client makes of the answers, and what it refuses to send.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use futures_util::StreamExt;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tidings::email::*;
use tidings_runtime::{CallOptions, ErrorKind};
use tidings_tests::{Recorded, Reply, TestServer};

const KEY: &str = "test-api-key-0123456789";
const AT: &str = "2026-11-22T10:00:00Z";

fn client(server: &TestServer) -> EmailClient {
    EmailClient::builder()
        .base_url(server.url())
        .api_key(KEY)
        .retry(tidings_runtime::RetryPolicy::none())
        .build()
        .unwrap()
}

/// Checks method, path and auth of a recorded request.
fn assert_call(r: &Recorded, method: &str, path: &str) {
    assert_eq!((r.method.as_str(), r.path.as_str()), (method, path));
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {KEY}").as_str()),
        "{method} {path} carries the key as a bearer token"
    );
    assert!(!r.query.contains(KEY), "the key never travels in the URL");
}

/// The recorded JSON body read as the spec's type `T`, with deny-unknown semantics: the body
/// must equal `T`'s own serialisation, so a field `T` does not know (dropped when decoding)
/// fails the test.
fn body_as<T: DeserializeOwned + Serialize>(r: &Recorded) -> T {
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("application/json")
    );
    let value: Value = serde_json::from_slice(&r.body).unwrap();
    let typed: T = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(
        serde_json::to_value(&typed).unwrap(),
        value,
        "the body holds something {} does not know",
        std::any::type_name::<T>()
    );
    typed
}

fn no_body(r: &Recorded) {
    assert!(r.body.is_empty(), "{} {} sends no body", r.method, r.path);
}

fn page(items: Vec<Value>, has_more: bool) -> Value {
    json!({"object": "list", "data": items, "has_more": has_more})
}

fn email_json(id: &str, status: &str) -> Value {
    json!({
        "id": id, "from": "Ada <ada@example.com>", "to": ["grace@example.com"],
        "cc": ["alan@example.com"], "subject": "Launch", "status": status, "last_event": "opened",
        "created_at": AT, "scheduled_at": "2026-12-01T09:00:00Z", "tags": [{"name": "campaign", "value": "launch"}],
        "metadata": {"order": "42"}
    })
}

fn template_json(status: &str) -> Value {
    json!({
        "id": "tpl_1", "name": "Welcome", "alias": "welcome", "subject": "Hi {{{first_name}}}",
        "html": "<p>Hi {{{first_name}}}</p>", "status": status, "created_at": AT,
        "variables": [{"key": "first_name", "type": "string", "fallback_value": "there"}]
    })
}

fn contact_json(id: &str) -> Value {
    json!({
        "id": id, "email": "grace@example.com", "first_name": "Grace", "last_name": "Hopper",
        "attributes": {"plan": "pro", "seats": 3}, "list_ids": ["lst_1"], "unsubscribed": false,
        "created_at": AT
    })
}

fn list_json(id: &str) -> Value {
    json!({"id": id, "name": "Newsletter", "description": "Monthly", "contact_count": 2, "created_at": AT})
}

fn suppression_json() -> Value {
    json!({"id": "sup_1", "email": "gone@example.com", "reason": "hard_bounce", "email_id": "em_9", "created_at": AT})
}

fn webhook_json(status: &str) -> Value {
    json!({
        "id": "wh_1", "url": "https://hooks.example.com/email", "events": ["email.bounced", "email.delivered"],
        "status": status, "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "created_at": AT
    })
}

fn deleted(id: &str, object: &str) -> Value {
    json!({"id": id, "object": object, "deleted": true})
}

#[tokio::test]
async fn email_operations_send_batch_list_get_reschedule_and_cancel() {
    let server = TestServer::start(|r| match (r.method.as_str(), r.path.as_str()) {
        ("POST", "/v1/emails") => Reply::json(202, json!({"id": "em_1", "status": "scheduled"})),
        ("POST", "/v1/emails/batch") => Reply::json(
            202,
            json!({"data": [{"id": "em_2", "status": "queued"}, {"id": "em_3", "status": "queued"}]}),
        ),
        ("GET", "/v1/emails") => Reply::json(200, page(vec![email_json("em_1", "sent")], false)),
        ("GET", "/v1/emails/em_1") => Reply::json(200, email_json("em_1", "delivered")),
        ("PATCH", "/v1/emails/em_1") => Reply::json(200, email_json("em_1", "scheduled")),
        ("POST", "/v1/emails/em_1/cancel") => Reply::json(200, email_json("em_1", "canceled")),
        _ => Reply::json(404, json!({"error": {"code": "not_found", "message": "no route"}})),
    })
    .await;
    let email = client(&server);

    // send: every field of the request type.
    let request = tidings_tests::full_send_email_request();
    let sent = email.send_email(&request).await.unwrap();
    assert_eq!(sent.id, "em_1");
    assert_eq!(sent.status, EmailStatus::Scheduled);

    // batch: one with a template, one plain.
    let batch = SendBatchRequest::new([
        SendEmailRequest::new("team@example.com", ["ada@example.com"]).template(
            TemplateRef::by_alias("welcome")
                .variable("first_name", "Ada")
                .variable("trial_days", 14),
        ),
        SendEmailRequest::new("team@example.com", ["grace@example.com"]).text("Hello"),
    ]);
    let accepted = email.send_batch(&batch).await.unwrap();
    let ids: Vec<&str> = accepted.data.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["em_2", "em_3"]);

    let listed = email
        .list_emails(&ListEmailsQuery::default().limit(10).before("em_9"))
        .await
        .unwrap();
    assert_eq!(listed.data[0].last_event, Some(EmailLastEvent::Opened));
    assert!(!listed.has_more);

    let got = email.get_email("em_1").await.unwrap();
    assert_eq!(got.status, EmailStatus::Delivered);
    assert!(got.status.is_final());
    assert_eq!(got.metadata.unwrap()["order"], "42");

    let moved = email
        .reschedule_email(
            "em_1",
            &RescheduleEmailRequest::new("2026-12-02T09:00:00+01:00"),
        )
        .await
        .unwrap();
    assert_eq!(moved.status, EmailStatus::Scheduled);
    let canceled = email.cancel_email("em_1").await.unwrap();
    assert_eq!(canceled.status, EmailStatus::Canceled);

    let rs = server.requests();
    assert_eq!(rs.len(), 6);

    assert_call(&rs[0], "POST", "/v1/emails");
    let key = rs[0].header("idempotency-key").expect("sends carry a key");
    assert!(!key.is_empty() && key.len() <= 256);
    let wire: SendEmailRequest = body_as(&rs[0]);
    assert_eq!(wire, request);
    assert_eq!(
        rs[0].json(),
        json!({
            "from": "Ada <ada@example.com>",
            "to": ["grace@example.com"],
            "cc": ["alan@example.com"],
            "bcc": ["audit@example.com"],
            "reply_to": ["support@example.com"],
            "subject": "Launch",
            "html": "<p>We launched. <img src=\"cid:logo\"></p>",
            "text": "We launched.",
            "attachments": [
                {"filename": "notes.txt", "content": "bGluZSAxCmxpbmUgMgo=", "content_type": "text/plain"},
                {"filename": "logo.png", "content": "iVBORw==", "content_type": "image/png",
                 "content_id": "logo", "disposition": "inline"},
                {"filename": "terms.pdf", "url": "https://files.example.com/terms.pdf", "content_type": "application/pdf"}
            ],
            "headers": {"List-Unsubscribe": "<mailto:unsub@example.com>"},
            "tags": [{"name": "campaign", "value": "launch"}],
            "metadata": {"order": "42"},
            "scheduled_at": "2026-12-01T09:00:00Z",
            "tracking": {"opens": true, "clicks": true}
        })
    );

    assert_call(&rs[1], "POST", "/v1/emails/batch");
    assert!(rs[1].header("idempotency-key").is_some());
    assert_ne!(
        rs[1].header("idempotency-key"),
        rs[0].header("idempotency-key")
    );
    let wire: SendBatchRequest = body_as(&rs[1]);
    assert_eq!(wire, batch);
    assert_eq!(
        rs[1].json()["emails"][0]["template"],
        json!({"alias": "welcome", "variables": {"first_name": "Ada", "trial_days": 14}})
    );

    assert_call(&rs[2], "GET", "/v1/emails");
    let q = rs[2].query_pairs();
    assert_eq!(q.get("limit").map(String::as_str), Some("10"));
    assert_eq!(q.get("before").map(String::as_str), Some("em_9"));
    assert!(!q.contains_key("after"));
    no_body(&rs[2]);

    assert_call(&rs[3], "GET", "/v1/emails/em_1");
    no_body(&rs[3]);
    assert_call(&rs[4], "PATCH", "/v1/emails/em_1");
    let wire: RescheduleEmailRequest = body_as(&rs[4]);
    assert_eq!(wire.scheduled_at, "2026-12-02T09:00:00+01:00");
    assert_call(&rs[5], "POST", "/v1/emails/em_1/cancel");
    // No body in the spec: the runtime sends an empty JSON object, as every POST carries one.
    assert_eq!(rs[5].json(), json!({}));
    assert_eq!(
        rs[5].header("idempotency-key"),
        None,
        "only sends carry a key"
    );
}

#[tokio::test]
async fn template_operations_create_list_get_update_publish_delete() {
    let server = TestServer::start(|r| match (r.method.as_str(), r.path.as_str()) {
        ("POST", "/v1/templates") => Reply::json(201, template_json("draft")),
        ("GET", "/v1/templates") => Reply::json(200, page(vec![template_json("draft")], false)),
        ("GET", "/v1/templates/welcome") | ("PATCH", "/v1/templates/tpl_1") => {
            Reply::json(200, template_json("draft"))
        }
        ("POST", "/v1/templates/tpl_1/publish") => Reply::json(
            200,
            json!({"id": "tpl_1", "name": "Welcome", "status": "published", "published_at": AT, "created_at": AT}),
        ),
        ("DELETE", "/v1/templates/tpl_1") => Reply::json(200, deleted("tpl_1", "template")),
        _ => Reply::json(404, json!({"error": {"code": "not_found", "message": "no route"}})),
    })
    .await;
    let email = client(&server);

    let create = CreateTemplateRequest::new("Welcome")
        .alias("welcome")
        .subject("Hi {{{first_name}}}")
        .html("<p>Hi {{{first_name}}}</p>")
        .variables([TemplateVariable::new("first_name")
            .r#type(TemplateVariableType::String)
            .fallback_value(json!("there"))]);
    let created = email.create_template(&create).await.unwrap();
    assert_eq!(created.status, TemplateStatus::Draft);
    assert_eq!(created.variables.unwrap()[0].key, "first_name");

    let all: Vec<Template> = email
        .list_templates_stream(&ListTemplatesQuery::default())
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(all.len(), 1);
    assert_eq!(
        email
            .get_template("welcome")
            .await
            .unwrap()
            .alias
            .as_deref(),
        Some("welcome")
    );
    let update = UpdateTemplateRequest::default().text("Hi {{{first_name}}}");
    email.update_template("tpl_1", &update).await.unwrap();
    let published = email.publish_template("tpl_1").await.unwrap();
    assert_eq!(published.status, TemplateStatus::Published);
    assert_eq!(published.published_at.as_deref(), Some(AT));
    let gone = email.delete_template("tpl_1").await.unwrap();
    assert!(gone.deleted);

    let rs = server.requests();
    assert_eq!(rs.len(), 6);
    assert_call(&rs[0], "POST", "/v1/templates");
    assert_eq!(body_as::<CreateTemplateRequest>(&rs[0]), create);
    assert_eq!(
        rs[0].json()["variables"],
        json!([{"key": "first_name", "type": "string", "fallback_value": "there"}])
    );
    assert_call(&rs[1], "GET", "/v1/templates");
    assert_call(&rs[2], "GET", "/v1/templates/welcome");
    assert_call(&rs[3], "PATCH", "/v1/templates/tpl_1");
    assert_eq!(
        body_as::<UpdateTemplateRequest>(&rs[3]),
        update,
        "only the changed field is sent"
    );
    assert_eq!(rs[3].json(), json!({"text": "Hi {{{first_name}}}"}));
    assert_call(&rs[4], "POST", "/v1/templates/tpl_1/publish");
    assert_eq!(rs[4].json(), json!({}));
    assert_call(&rs[5], "DELETE", "/v1/templates/tpl_1");
    no_body(&rs[5]);
}

#[tokio::test]
async fn contact_operations_by_id_or_email_and_upsert() {
    let server = TestServer::start(|r| match (r.method.as_str(), r.path.as_str()) {
        ("POST", "/v1/contacts") => Reply::json(201, contact_json("ct_1")),
        ("PUT", "/v1/contacts") => Reply::json(200, contact_json("ct_1")),
        ("GET", "/v1/contacts") => Reply::json(200, page(vec![contact_json("ct_1")], false)),
        ("GET", "/v1/contacts/grace%40example.com") | ("PATCH", "/v1/contacts/ct_1") => {
            Reply::json(200, contact_json("ct_1"))
        }
        ("DELETE", "/v1/contacts/grace%40example.com") => {
            Reply::json(200, deleted("ct_1", "contact"))
        }
        _ => Reply::json(
            404,
            json!({"error": {"code": "not_found", "message": "no route"}}),
        ),
    })
    .await;
    let email = client(&server);

    let create = CreateContactRequest::new("grace@example.com")
        .first_name("Grace")
        .last_name("Hopper")
        .attributes([("plan", json!("pro")), ("seats", json!(3))])
        .list_ids(["lst_1"]);
    let created = email.create_contact(&create).await.unwrap();
    assert_eq!(created.attributes.unwrap()["seats"], 3);
    let upserted = email
        .upsert_contact(&create.clone().unsubscribed(false))
        .await
        .unwrap();
    assert_eq!(upserted.id, "ct_1");
    let listed = email
        .list_contacts(&ListContactsQuery::default().list_id("lst_1").limit(50))
        .await
        .unwrap();
    assert_eq!(listed.data.len(), 1);
    let by_email = email.get_contact("grace@example.com").await.unwrap();
    assert_eq!(by_email.email, "grace@example.com");
    let update = UpdateContactRequest::default().unsubscribed(true);
    email.update_contact("ct_1", &update).await.unwrap();
    assert!(
        email
            .delete_contact("grace@example.com")
            .await
            .unwrap()
            .deleted
    );

    let rs = server.requests();
    assert_eq!(rs.len(), 6);
    assert_call(&rs[0], "POST", "/v1/contacts");
    assert_eq!(body_as::<CreateContactRequest>(&rs[0]), create);
    assert_eq!(
        rs[0].json(),
        json!({"email": "grace@example.com", "first_name": "Grace", "last_name": "Hopper",
               "attributes": {"plan": "pro", "seats": 3}, "list_ids": ["lst_1"]})
    );
    assert_call(&rs[1], "PUT", "/v1/contacts");
    assert_eq!(
        body_as::<CreateContactRequest>(&rs[1]).unsubscribed,
        Some(false)
    );
    assert_call(&rs[2], "GET", "/v1/contacts");
    assert_eq!(
        rs[2].query_pairs().get("list_id").map(String::as_str),
        Some("lst_1")
    );
    assert_call(&rs[3], "GET", "/v1/contacts/grace%40example.com");
    assert_call(&rs[4], "PATCH", "/v1/contacts/ct_1");
    assert_eq!(rs[4].json(), json!({"unsubscribed": true}));
    body_as::<UpdateContactRequest>(&rs[4]);
    assert_call(&rs[5], "DELETE", "/v1/contacts/grace%40example.com");
}

#[tokio::test]
async fn list_operations_and_membership() {
    let server = TestServer::start(|r| match (r.method.as_str(), r.path.as_str()) {
        ("POST", "/v1/lists") => Reply::json(201, list_json("lst_1")),
        ("GET", "/v1/lists") => Reply::json(200, page(vec![list_json("lst_1")], false)),
        ("GET", "/v1/lists/lst_1") | ("PATCH", "/v1/lists/lst_1") => {
            Reply::json(200, list_json("lst_1"))
        }
        ("DELETE", "/v1/lists/lst_1") => Reply::json(200, deleted("lst_1", "list")),
        ("GET", "/v1/lists/lst_1/contacts") => {
            if r.query_pairs().get("after").map(String::as_str) == Some("ct_1") {
                Reply::json(200, page(vec![contact_json("ct_2")], false))
            } else {
                Reply::json(200, page(vec![contact_json("ct_1")], true))
            }
        }
        ("POST", "/v1/lists/lst_1/contacts") => Reply::json(
            200,
            json!({"list_id": "lst_1", "contact_id": "ct_1", "added_at": AT}),
        ),
        ("DELETE", "/v1/lists/lst_1/contacts/ct_1") => Reply {
            status: 204,
            headers: vec![],
            body: vec![],
        },
        _ => Reply::json(
            404,
            json!({"error": {"code": "not_found", "message": "no route"}}),
        ),
    })
    .await;
    let email = client(&server);

    let create = CreateListRequest::new("Newsletter").description("Monthly");
    assert_eq!(email.create_list(&create).await.unwrap().id, "lst_1");
    assert_eq!(
        email
            .list_lists(&ListListsQuery::default())
            .await
            .unwrap()
            .data
            .len(),
        1
    );
    assert_eq!(
        email.get_list("lst_1").await.unwrap().contact_count,
        Some(2)
    );
    let rename = UpdateListRequest::default().name("Monthly news");
    email.update_list("lst_1", &rename).await.unwrap();
    let members: Vec<String> = email
        .list_list_contacts_stream("lst_1", &ListListContactsQuery::default().limit(1))
        .map(|c| c.unwrap().id)
        .collect()
        .await;
    assert_eq!(members, ["ct_1", "ct_2"]);
    let added = email
        .add_list_contact("lst_1", &AddListContactRequest::new("grace@example.com"))
        .await
        .unwrap();
    assert_eq!(added.contact_id, "ct_1");
    email.remove_list_contact("lst_1", "ct_1").await.unwrap();
    assert!(email.delete_list("lst_1").await.unwrap().deleted);

    let rs = server.requests();
    assert_eq!(rs.len(), 9);
    assert_call(&rs[0], "POST", "/v1/lists");
    assert_eq!(body_as::<CreateListRequest>(&rs[0]), create);
    assert_call(&rs[1], "GET", "/v1/lists");
    assert_call(&rs[2], "GET", "/v1/lists/lst_1");
    assert_call(&rs[3], "PATCH", "/v1/lists/lst_1");
    assert_eq!(rs[3].json(), json!({"name": "Monthly news"}));
    body_as::<UpdateListRequest>(&rs[3]);
    assert_call(&rs[4], "GET", "/v1/lists/lst_1/contacts");
    assert_call(&rs[5], "GET", "/v1/lists/lst_1/contacts");
    assert_eq!(
        rs[5].query_pairs().get("after").map(String::as_str),
        Some("ct_1")
    );
    assert_call(&rs[6], "POST", "/v1/lists/lst_1/contacts");
    assert_eq!(rs[6].json(), json!({"contact": "grace@example.com"}));
    body_as::<AddListContactRequest>(&rs[6]);
    assert_call(&rs[7], "DELETE", "/v1/lists/lst_1/contacts/ct_1");
    assert_call(&rs[8], "DELETE", "/v1/lists/lst_1");
}

#[tokio::test]
async fn suppression_and_webhook_endpoint_operations() {
    let server = TestServer::start(|r| match (r.method.as_str(), r.path.as_str()) {
        ("POST", "/v1/suppressions") => Reply::json(201, suppression_json()),
        ("GET", "/v1/suppressions") => Reply::json(200, page(vec![suppression_json()], false)),
        ("GET", "/v1/suppressions/gone%40example.com") => Reply::json(200, suppression_json()),
        ("DELETE", "/v1/suppressions/gone%40example.com") => {
            Reply::json(200, deleted("gone@example.com", "suppression"))
        }
        ("POST", "/v1/webhooks") => Reply::json(201, webhook_json("enabled")),
        ("GET", "/v1/webhooks") => Reply::json(200, page(vec![webhook_json("enabled")], false)),
        ("GET", "/v1/webhooks/wh_1") => Reply::json(200, webhook_json("enabled")),
        ("PATCH", "/v1/webhooks/wh_1") => Reply::json(200, webhook_json("disabled")),
        ("DELETE", "/v1/webhooks/wh_1") => Reply::json(200, deleted("wh_1", "webhook")),
        _ => Reply::json(
            404,
            json!({"error": {"code": "not_found", "message": "no route"}}),
        ),
    })
    .await;
    let email = client(&server);

    let suppress =
        CreateSuppressionRequest::new("gone@example.com").reason(SuppressionReason::Manual);
    assert_eq!(
        email.create_suppression(&suppress).await.unwrap().reason,
        SuppressionReason::HardBounce
    );
    let listed = email
        .list_suppressions(&ListSuppressionsQuery::default().reason("hard_bounce"))
        .await
        .unwrap();
    assert_eq!(listed.data[0].email, "gone@example.com");
    email.get_suppression("gone@example.com").await.unwrap();
    email.delete_suppression("gone@example.com").await.unwrap();

    let create = CreateWebhookRequest::new(
        "https://hooks.example.com/email",
        [
            WebhookEventType::EmailBounced,
            WebhookEventType::EmailDelivered,
        ],
    )
    .description("bounces to the CRM");
    let endpoint = email.create_webhook(&create).await.unwrap();
    assert!(endpoint.secret.unwrap().starts_with("whsec_"));
    assert_eq!(
        email
            .list_webhooks(&ListWebhooksQuery::default())
            .await
            .unwrap()
            .data
            .len(),
        1
    );
    assert_eq!(
        email.get_webhook("wh_1").await.unwrap().status,
        WebhookEndpointStatus::Enabled
    );
    let disable = UpdateWebhookRequest::default().status(WebhookEndpointStatus::Disabled);
    assert_eq!(
        email.update_webhook("wh_1", &disable).await.unwrap().status,
        WebhookEndpointStatus::Disabled
    );
    email.delete_webhook("wh_1").await.unwrap();

    let rs = server.requests();
    assert_eq!(rs.len(), 9);
    assert_call(&rs[0], "POST", "/v1/suppressions");
    assert_eq!(
        rs[0].json(),
        json!({"email": "gone@example.com", "reason": "manual"})
    );
    body_as::<CreateSuppressionRequest>(&rs[0]);
    assert_call(&rs[1], "GET", "/v1/suppressions");
    assert_eq!(
        rs[1].query_pairs().get("reason").map(String::as_str),
        Some("hard_bounce")
    );
    assert_call(&rs[2], "GET", "/v1/suppressions/gone%40example.com");
    assert_call(&rs[3], "DELETE", "/v1/suppressions/gone%40example.com");
    assert_call(&rs[4], "POST", "/v1/webhooks");
    assert_eq!(body_as::<CreateWebhookRequest>(&rs[4]), create);
    assert_eq!(
        rs[4].json(),
        json!({"url": "https://hooks.example.com/email", "events": ["email.bounced", "email.delivered"],
               "description": "bounces to the CRM"})
    );
    assert_call(&rs[5], "GET", "/v1/webhooks");
    assert_call(&rs[6], "GET", "/v1/webhooks/wh_1");
    assert_call(&rs[7], "PATCH", "/v1/webhooks/wh_1");
    assert_eq!(rs[7].json(), json!({"status": "disabled"}));
    body_as::<UpdateWebhookRequest>(&rs[7]);
    assert_call(&rs[8], "DELETE", "/v1/webhooks/wh_1");
}

#[tokio::test]
async fn the_seed_read_request_keeps_its_shape() {
    let server =
        TestServer::start(|_| Reply::json(200, page(vec![json!({"id": "r_1"})], false))).await;
    let page = client(&server)
        .list_resources(&ListResourcesQuery::default())
        .await
        .unwrap();
    assert_eq!(page.data[0].id.as_deref(), Some("r_1"));
    let r = &server.requests()[0];
    assert_call(r, "GET", "/v1/resources");
    assert!(r.query.is_empty());
    no_body(r);
}

#[tokio::test]
async fn client_side_checks_refuse_bad_requests_before_sending() {
    let server =
        TestServer::start(|_| Reply::json(202, json!({"id": "never", "status": "queued"}))).await;
    let email = client(&server);
    let base = || SendEmailRequest::new("ada@example.com", ["grace@example.com"]).text("Hi");
    let fifty_one: Vec<String> = (0..51).map(|i| format!("u{i}@example.com")).collect();
    let too_big = "A".repeat(41_943_044);
    let cases: Vec<(&str, SendEmailRequest)> = vec![
        ("from", base().text("x").clone_with_from("not an address")),
        (
            "to[1]",
            SendEmailRequest::new("ada@example.com", ["grace@example.com", "grace@"]).text("x"),
        ),
        ("cc[0]", base().cc(["@example.com"])),
        (
            "to",
            SendEmailRequest::new("ada@example.com", fifty_one[..40].to_vec())
                .cc(fifty_one[40..].to_vec())
                .text("x"),
        ),
        (
            "html",
            base().template(TemplateRef::by_id("tpl_1")).html("<p>"),
        ),
        (
            "text",
            SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                .template(TemplateRef::by_id("tpl_1"))
                .text("x"),
        ),
        (
            "html",
            SendEmailRequest::new("ada@example.com", ["grace@example.com"]),
        ),
        (
            "template.id",
            SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                .template(TemplateRef::default()),
        ),
        (
            "template.alias",
            SendEmailRequest::new("ada@example.com", ["grace@example.com"])
                .template(TemplateRef::by_id("tpl_1").alias("welcome")),
        ),
        (
            "attachments[0].content",
            base().attach(Attachment::new("big.bin").content(too_big)),
        ),
        (
            "attachments[0].url",
            base().attach(Attachment::from_bytes("a.txt", "a").url("https://example.com/a")),
        ),
        (
            "attachments[0].content",
            base().attach(Attachment::new("empty.txt")),
        ),
        ("scheduled_at", base().scheduled_at("tomorrow morning")),
        ("tags[0].name", base().tag("n".repeat(257), "v")),
    ];
    for (field, request) in &cases {
        let err = email.send_email(request).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{field}: {err}");
        match &err {
            tidings_runtime::Error::InvalidRequest { field: got, .. } => {
                assert_eq!(got, field, "{err}")
            }
            other => panic!("{other:?}"),
        }
    }

    // A batch holds 1 to 100 emails, each checked like a single send.
    let batch = SendBatchRequest::new(vec![base(); 101]);
    assert_eq!(
        email.send_batch(&batch).await.unwrap_err().kind(),
        ErrorKind::InvalidRequest
    );
    let batch = SendBatchRequest::new([base(), base().clone_with_from("nobody")]);
    let err = email.send_batch(&batch).await.unwrap_err();
    assert!(err.to_string().contains("emails[1].from"), "{err}");

    // The idempotency key may hold at most 256 characters (the spec's `max_len`).
    let long = email.with_options(CallOptions::new().idempotency_key("k".repeat(257)));
    let err = long.send_email(&base()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    assert!(err.to_string().contains("idempotency"), "{err}");
    assert!(
        server.requests().is_empty(),
        "nothing invalid may reach the server"
    );

    let exact = "k".repeat(256);
    email
        .with_options(CallOptions::new().idempotency_key(exact.clone()))
        .send_email(&base())
        .await
        .unwrap();
    assert_eq!(
        server.requests()[0].header("idempotency-key"),
        Some(exact.as_str())
    );
}

/// `SendEmailRequest` with another sender (a test helper: fields are public).
trait WithFrom {
    fn clone_with_from(self, from: &str) -> Self;
}

impl WithFrom for SendEmailRequest {
    fn clone_with_from(mut self, from: &str) -> Self {
        self.from = from.into();
        self
    }
}

#[tokio::test]
async fn sends_are_retried_after_429_with_the_same_idempotency_key() {
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = calls.clone();
    let server = TestServer::start(move |_| {
        if seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            Reply::json(
                429,
                json!({"error": {"code": "rate_limit_exceeded", "message": "slow down"}}),
            )
            .header("Retry-After", "0")
            .header("X-RateLimit-Limit", "1000")
            .header("X-RateLimit-Remaining", "0")
            .header("X-RateLimit-Reset", "1")
        } else {
            Reply::json(202, json!({"id": "em_1", "status": "queued"}))
        }
    })
    .await;
    let email = EmailClient::builder()
        .base_url(server.url())
        .api_key(KEY)
        .build()
        .unwrap();
    let request = SendEmailRequest::new("ada@example.com", ["grace@example.com"]).text("Hi");
    assert_eq!(email.send_email(&request).await.unwrap().id, "em_1");
    let rs = server.requests();
    assert_eq!(rs.len(), 2);
    assert_eq!(
        rs[0].header("idempotency-key"),
        rs[1].header("idempotency-key")
    );
    assert_eq!(rs[0].body, rs[1].body);
}

#[tokio::test]
async fn error_bodies_are_typed() {
    let answer = json!({"error": {"code": "idempotency_key_reused", "message": "key used with another body",
                                  "param": "Idempotency-Key", "request_id": "req_7"}});
    let body = answer.clone();
    let server = TestServer::start(move |_| Reply::json(409, body.clone())).await;
    let request = SendEmailRequest::new("ada@example.com", ["grace@example.com"]).text("Hi");
    let err = client(&server).send_email(&request).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Api);
    assert_eq!(err.status(), Some(409));
    assert_eq!(err.request_id(), Some("req_7"));
    let api = err.api_error().unwrap();
    assert_eq!(api.code.as_deref(), Some("idempotency_key_reused"));
    assert_eq!(api.param.as_deref(), Some("Idempotency-Key"));
    assert!(!err.is_retryable());
    // The spec's error body type reads the same answer, field for field.
    let typed: ErrorResponse = serde_json::from_value(answer.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), answer);
    assert_eq!(typed.error.param.as_deref(), Some("Idempotency-Key"));
}

#[test]
fn attachments_from_files_are_encoded_and_typed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Report.CSV");
    std::fs::write(&path, b"a,b\n1,2\n").unwrap();
    let request = SendEmailRequest::new("ada@example.com", ["grace@example.com"])
        .text("see attached")
        .attach_file(&path)
        .unwrap();
    let attachment = &request.attachments.as_ref().unwrap()[0];
    assert_eq!(attachment.filename, "Report.CSV");
    assert_eq!(attachment.content.as_deref(), Some("YSxiCjEsMgo="));
    assert_eq!(attachment.content_type.as_deref(), Some("text/csv"));
    assert_eq!(
        attachment.decoded_content().unwrap().unwrap(),
        b"a,b\n1,2\n"
    );
    assert_eq!(request.attachments_size(), 12);
    assert!(request.check().is_ok());

    let missing = SendEmailRequest::new("ada@example.com", ["grace@example.com"])
        .attach_file(dir.path().join("nope.pdf"))
        .unwrap_err();
    assert_eq!(missing.kind(), ErrorKind::InvalidRequest);

    // 40 MiB of base64 in total, however it is split.
    let part = "A".repeat(21_000_000);
    let two = SendEmailRequest::new("ada@example.com", ["grace@example.com"])
        .text("x")
        .attach(Attachment::new("a.bin").content(part.clone()))
        .attach(Attachment::new("b.bin").content(part));
    let err = two.check().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest);
    assert!(err.to_string().contains("41943040"), "{err}");
}
