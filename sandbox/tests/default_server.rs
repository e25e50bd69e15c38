//! A server with no hand-written operation at all: only `gateway` and `resource_store`, every
//! email operation served by the spec-driven defaults, over a real loopback socket and the
//! generated client. Pins that the defaults compile for every real operation and that the
//! store's bounds answer with a clear error body.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::sync::Arc;

use tidings::email::{
    CreateTemplateRequest, EmailClient, ListTemplatesQuery, TemplateStatus, UpdateTemplateRequest,
};
use tidings_sandbox::server::email_server::{self, EmailServer};
use tidings_sandbox::server::{Gateway, ResourceLimits, Resources};

struct Bare {
    gateway: Gateway,
    store: Resources,
}

impl EmailServer for Bare {
    fn gateway(&self) -> &Gateway {
        &self.gateway
    }

    fn resource_store(&self) -> &Resources {
        &self.store
    }
}

/// Serves `Bare` on a free loopback port; the client and the serving task.
async fn serve(limits: ResourceLimits) -> (EmailClient, tokio::task::JoinHandle<()>) {
    let key = "sk_default_server_test";
    let server = Bare {
        gateway: Gateway::new(&tidings::email::SERVICE).credential("api_key", key),
        store: Resources::new(limits),
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = email_server::router(Arc::new(server));
    let task = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    let client = EmailClient::builder()
        .base_url(url)
        .api_key(key)
        .build()
        .unwrap();
    (client, task)
}

#[tokio::test]
async fn every_operation_is_served_by_the_defaults_when_nothing_is_hand_written() {
    let (client, task) = serve(ResourceLimits::default()).await;
    let created = client
        .create_template(&CreateTemplateRequest::new("Welcome").subject("Hi"))
        .await
        .unwrap();
    assert_eq!(created.name, "Welcome");
    assert_eq!(created.subject.as_deref(), Some("Hi"));
    assert_eq!(
        created.status,
        TemplateStatus::Draft,
        "the enum's first value"
    );
    assert_eq!(client.get_template(&created.id).await.unwrap(), created);
    let page = client
        .list_templates(&ListTemplatesQuery::default())
        .await
        .unwrap();
    assert_eq!(page.data, vec![created.clone()]);
    let updated = client
        .update_template(
            &created.id,
            &UpdateTemplateRequest::default().subject("Hello"),
        )
        .await
        .unwrap();
    assert_eq!(
        (updated.subject.as_deref(), updated.name.as_str()),
        (Some("Hello"), "Welcome")
    );
    // An action on the item answers with the item's fields.
    let published = client.publish_template(&created.id).await;
    assert_eq!(published.unwrap().id, created.id);
    let deleted = client.delete_template(&created.id).await.unwrap();
    assert!(deleted.deleted && deleted.id == created.id);
    let gone = client.get_template(&created.id).await.unwrap_err();
    assert_eq!(gone.status(), Some(404), "{gone}");
    task.abort();
}

#[tokio::test]
async fn a_full_collection_answers_409_collection_full_with_the_limit_in_the_message() {
    let (client, task) = serve(ResourceLimits {
        max_items_per_collection: 2,
        ..ResourceLimits::default()
    })
    .await;
    for name in ["a", "b"] {
        client
            .create_template(&CreateTemplateRequest::new(name))
            .await
            .unwrap();
    }
    let full = client
        .create_template(&CreateTemplateRequest::new("c"))
        .await
        .unwrap_err();
    assert_eq!(full.status(), Some(409), "{full}");
    let text = full.to_string();
    assert!(text.contains("collection_full"), "{text}");
    assert!(
        text.contains("at most 2 items in `/v1/templates`"),
        "{text}"
    );
    // Reads still work, and nothing past the cap was kept.
    let page = client
        .list_templates(&ListTemplatesQuery::default())
        .await
        .unwrap();
    assert_eq!(page.data.len(), 2);
    task.abort();
}
