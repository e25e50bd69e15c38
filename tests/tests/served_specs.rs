//! `tidings-sandbox --spec`: provider specs served at run time, with nothing compiled for them,
//! called by their generated clients over loopback. Each client creates, gets, lists (every
//! page, in the provider's own page style), updates and deletes, and gets the documented error
//! back decodable with code and message.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

use futures_util::StreamExt;
use tidings_runtime::RetryPolicy;
use tidings_sandbox::served::{ServeConfig, ServedService, load};

fn spec(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/providers")
        .join(name)
}

async fn serve(name: &str) -> ServedService {
    let mut services = load(&spec(name)).unwrap();
    assert_eq!(services.len(), 1);
    ServedService::start(services.remove(0), ServeConfig::default())
        .await
        .unwrap()
}

#[tokio::test]
async fn twilio_messages_live_through_create_get_list_update_delete() {
    use tidings_providers::twilio::*;
    let served = serve("twilio.yaml").await;
    let client = TwilioClient::builder()
        .base_url(served.base_url())
        .credential("account_sid", served.credential("account_sid").unwrap())
        .credential("auth_token", served.credential("auth_token").unwrap())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();

    let mut sids = Vec::new();
    for to in ["+15558675310", "+15558675311", "+15558675312"] {
        let created = client
            .create_message(
                &CreateMessageRequest::new(to)
                    .from("+15017122661")
                    .body("Hello from --spec"),
            )
            .await
            .unwrap();
        sids.push(created.sid);
    }
    assert_eq!(
        sids.iter().collect::<std::collections::HashSet<_>>().len(),
        3
    );

    let fetched = client.fetch_message(&sids[1]).await.unwrap();
    assert_eq!(fetched.sid, sids[1]);
    assert_eq!(fetched.to.as_deref(), Some("+15558675311"));

    // Two per page: the stream follows `next_page_uri` to the end.
    let all: Vec<_> = client
        .list_messages_stream(&ListMessagesQuery::default().page_size(2))
        .collect()
        .await;
    let listed: Vec<String> = all.into_iter().map(|m| m.unwrap().sid).collect();
    assert_eq!(
        listed, sids,
        "every message, once, in order, over two pages"
    );

    let updated = client
        .update_message(&sids[0], &UpdateMessageRequest::default().body(""))
        .await
        .unwrap();
    assert_eq!(updated.body.as_deref(), Some(""));

    client.delete_message(&sids[0]).await.unwrap();
    let gone = client.fetch_message(&sids[0]).await.unwrap_err();
    assert_eq!(gone.status(), Some(404));
    assert!(
        gone.code().is_some(),
        "the error decodes with a code: {gone}"
    );
    assert!(
        gone.to_string().contains("does not exist"),
        "and its message: {gone}"
    );

    // Wrong credentials: refused in the spec's error shape.
    let stranger = TwilioClient::builder()
        .base_url(served.base_url())
        .credential("account_sid", served.credential("account_sid").unwrap())
        .credential("auth_token", "not-the-token")
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let refused = stranger.fetch_message(&sids[1]).await.unwrap_err();
    assert_eq!(refused.status(), Some(401));
    assert!(refused.code().is_some(), "{refused}");
    served.shutdown().await;
}

#[tokio::test]
async fn sendgrid_lists_live_through_create_get_list_update_delete() {
    use tidings_providers::sendgrid::*;
    let served = serve("sendgrid.yaml").await;
    let client = SendgridClient::builder()
        .base_url(served.base_url())
        .api_key(served.credential("api_key").unwrap())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();

    let mut ids = Vec::new();
    for name in ["newsletter", "customers", "beta"] {
        let list = client
            .create_list(&CreateListRequest::new(name))
            .await
            .unwrap();
        assert_eq!(list.name.as_deref(), Some(name));
        ids.push(list.id.unwrap());
    }
    let got = client
        .get_list(&ids[2], &GetListQuery::default())
        .await
        .unwrap();
    assert_eq!(got.name.as_deref(), Some("beta"));

    let all: Vec<_> = client
        .list_lists_stream(&ListListsQuery::default().page_size(1))
        .collect()
        .await;
    let names: Vec<String> = all
        .into_iter()
        .map(|l| l.unwrap().name.unwrap_or_default())
        .collect();
    assert_eq!(
        names,
        ["newsletter", "customers", "beta"],
        "three pages of one"
    );

    let renamed = client
        .update_list(&ids[0], &UpdateListRequest::default().name("renamed"))
        .await
        .unwrap();
    assert_eq!(renamed.name.as_deref(), Some("renamed"));
    client
        .delete_list(&ids[0], &DeleteListQuery::default())
        .await
        .unwrap();
    let gone = client
        .get_list(&ids[0], &GetListQuery::default())
        .await
        .unwrap_err();
    assert_eq!(gone.status(), Some(404));
    assert!(gone.to_string().contains("does not exist"), "{gone}");

    // A request the spec refuses (a list needs a name) is answered 4xx, not stored.
    let raw = tidings_runtime::reqwest::Client::new()
        .post(format!("{}/marketing/lists", served.base_url()))
        .bearer_auth(served.credential("api_key").unwrap())
        .json(&serde_json::json!({"contact_count": 3}))
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 422);
    let body: serde_json::Value = raw.json().await.unwrap();
    assert!(body.to_string().contains("name"), "names the field: {body}");
    served.shutdown().await;
}
