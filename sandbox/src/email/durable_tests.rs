//! With a data directory, the email service's default resource store (what serves an operation
//! the spec gains before `api.rs` implements it) keeps what it acknowledged across a restart.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use super::*;
use crate::ServiceConfig;
use crate::server::email_server::defaults;
use crate::server::resources::ResourceCall;

async fn start(dir: &std::path::Path) -> (EmailSandbox, crate::inbox::Inbox) {
    let db = crate::store::Db::open(dir).unwrap();
    let inbox = crate::inbox::Inbox::persistent(crate::Retention::default(), db).unwrap();
    let config = EmailSandboxConfig::default()
        .smtp(None)
        .inbox(inbox.clone());
    (EmailSandbox::start(config).await.unwrap(), inbox)
}

#[tokio::test]
async fn with_data_the_default_resource_store_keeps_what_it_acknowledged_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (sandbox, inbox) = start(dir.path()).await;
    let store = &sandbox.service.inner.resources;
    assert!(store.is_durable());
    let created = store
        .serve(
            &defaults::SCHEMA,
            &defaults::CREATE_TEMPLATE,
            &ResourceCall {
                merge_nested: false,
                body: serde_json::json!({"name": "kept", "subject": "Hi"}),
                ..ResourceCall::default()
            },
        )
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    sandbox.shutdown().await;
    inbox.close();
    assert!(
        crate::server::resources::store_path(dir.path(), "builtin-email").exists(),
        "its own file in the data directory"
    );

    let (sandbox, inbox) = start(dir.path()).await;
    let store = &sandbox.service.inner.resources;
    let got = store
        .serve(
            &defaults::SCHEMA,
            &defaults::GET_TEMPLATE,
            &ResourceCall {
                merge_nested: false,
                path: vec![("id", id.clone())],
                ..ResourceCall::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (got["name"].as_str(), got["subject"].as_str()),
        (Some("kept"), Some("Hi"))
    );
    let again = store
        .serve(
            &defaults::SCHEMA,
            &defaults::CREATE_TEMPLATE,
            &ResourceCall {
                merge_nested: false,
                body: serde_json::json!({"name": "second"}),
                ..ResourceCall::default()
            },
        )
        .await
        .unwrap();
    assert_ne!(again["id"].as_str(), Some(id.as_str()), "a new id");
    // Dropped without shutdown: the file is released too.
    drop(sandbox);
    inbox.close();
    let (_sandbox, _inbox) = start(dir.path()).await;
}

/// Templates, contacts, lists, suppressions and endpoints used to be rows of the inbox's state
/// table; a data directory from then keeps them: each moves to the resource store at start, and
/// its row goes once it is committed there, so the next start neither loses nor repeats it.
#[tokio::test]
async fn what_an_earlier_version_kept_in_the_state_table_moves_to_the_resource_store() {
    let dir = tempfile::tempdir().unwrap();
    {
        let db = crate::store::Db::open(dir.path()).unwrap();
        let inbox = crate::inbox::Inbox::persistent(crate::Retention::default(), db).unwrap();
        let template = serde_json::json!({
            "id": "tpl_old", "name": "kept", "status": "published",
            "created_at": "2026-01-01T00:00:00Z", "text": "Hi"
        });
        let contact = serde_json::json!({
            "id": "ct_old", "email": "ada@example.com", "created_at": "2026-01-01T00:00:00Z"
        });
        let kept = inbox.save_state("email", "template", "tpl_old", Some(template.to_string()));
        kept.answer().await.unwrap();
        let kept = inbox.save_state("email", "contact", "ct_old", Some(contact.to_string()));
        kept.answer().await.unwrap();
        inbox.close();
    }
    for _ in 0..2 {
        let (sandbox, inbox) = start(dir.path()).await;
        let client = sandbox.client().unwrap();
        let template = client.get_template("tpl_old").await.unwrap();
        assert_eq!(template.name, "kept");
        let contact = client.get_contact("ada@example.com").await.unwrap();
        assert_eq!(contact.id, "ct_old");
        let listed = client
            .list_templates(&tidings::email::ListTemplatesQuery::default())
            .await
            .unwrap();
        assert_eq!(listed.data.len(), 1, "moved once");
        sandbox.shutdown().await;
        inbox.close();
    }
}
