//! One call of the client generated from `spec/notes.yaml`, over loopback, against the server
//! generated from the same spec (tidings-sandbox's spec-driven default store): what the guide
//! `docs/OWN_SPECS.md` promises a crate with its own spec, end to end.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod server {
    include!(concat!(env!("OUT_DIR"), "/notes_server.rs"));
}

use std::sync::Arc;

use own_spec::notes::{NewNote, NotesClient, SERVICE};
use server::notes_server::{NotesServer, router};
use tidings_runtime::ErrorKind;
use tidings_sandbox::server::{Gateway, Resources};

const KEY: &str = "notes-test-key";

/// The generated server with no method of its own: every operation answered by the store.
struct Notes {
    gateway: Gateway,
    resources: Resources,
}

impl NotesServer for Notes {
    fn gateway(&self) -> &Gateway {
        &self.gateway
    }
    fn resource_store(&self) -> &Resources {
        &self.resources
    }
}

async fn serve() -> String {
    let notes = Arc::new(Notes {
        gateway: Gateway::new(&SERVICE).credential("api_key", KEY),
        resources: Resources::new(Default::default()),
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, router(notes)).await;
    });
    url
}

fn client(url: &str, key: &str) -> NotesClient {
    NotesClient::builder()
        .base_url(url)
        .credential("api_key", key)
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_created_note_comes_back_by_its_id() {
    let url = serve().await;
    let client = client(&url, KEY);
    let created = client
        .create_note(&NewNote::new("Standup at ten").body("Room 4"))
        .await
        .unwrap();
    assert!(!created.id.is_empty(), "the server gave the note an id");
    assert_eq!(created.title, "Standup at ten");
    let fetched = client.get_note(&created.id).await.unwrap();
    assert_eq!(fetched, created);
}

#[tokio::test]
async fn the_generated_server_refuses_a_wrong_key() {
    let url = serve().await;
    let err = client(&url, "not-the-key")
        .create_note(&NewNote::new("x"))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Auth, "{err}");
}

#[tokio::test]
async fn the_spec_limit_is_checked_before_sending() {
    // Nothing listens here: a request that left the client would be a transport error.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let err = client(&url, KEY)
        .create_note(&NewNote::new("t".repeat(81)))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    assert!(err.to_string().contains("title"), "{err}");
}
