//! Specs served with `--spec`, shown in the inbox (issue 31, item 1): every call each one
//! answers (request and answer, never a credential), its webhook deliveries and its resources,
//! kept in `--data` across a restart. Real sockets on loopback, the inbox read over its HTTP
//! API as its page reads it.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::{Path, PathBuf};

use serde_json::Value;
use tidings_runtime::RetryPolicy;
use tidings_sandbox::served::{ServeConfig, ServedService, load};
use tidings_sandbox::{Sandbox, SandboxConfig};

fn twilio_spec() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/providers/twilio.yaml")
}

async fn sandbox(data: &Path) -> Sandbox {
    let mut config = SandboxConfig::default();
    config.inbox.data = Some(data.to_path_buf());
    config.email.smtp = None;
    Sandbox::start_with(config).await.unwrap()
}

async fn serve(
    spec: &Path,
    sandbox: &Sandbox,
    data: &Path,
    webhook_url: Option<String>,
) -> ServedService {
    let mut config = ServeConfig::default();
    config.inbox = Some(sandbox.inbox.clone());
    config.data = Some(data.to_path_buf());
    config.webhook_url = webhook_url;
    ServedService::start(load(spec).unwrap().remove(0), config)
        .await
        .unwrap()
}

async fn inbox_get(sandbox: &Sandbox, path: &str) -> Value {
    let url = format!(
        "{}{}",
        sandbox.inbox_url().unwrap().trim_end_matches('/'),
        path
    );
    let answer = reqwest::get(&url).await.unwrap();
    assert_eq!(answer.status(), 200, "{url}");
    answer.json().await.unwrap()
}

#[tokio::test]
async fn a_served_specs_calls_webhooks_and_resources_show_in_the_inbox_and_survive_a_restart() {
    use tidings_providers::twilio::*;
    let data = tempfile::tempdir().unwrap();
    // Nothing listens there: the delivery is recorded, and fails as it would.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let hooks = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);

    let first = sandbox(data.path()).await;
    let served = serve(&twilio_spec(), &first, data.path(), Some(hooks)).await;
    let token = served.credential("auth_token").unwrap().to_owned();
    let sid = served.credential("account_sid").unwrap().to_owned();
    let client = TwilioClient::builder()
        .base_url(served.base_url())
        .credential("account_sid", sid.as_str())
        .credential("auth_token", token.as_str())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let created = client
        .create_message(
            &CreateMessageRequest::new("+15558675310")
                .from("+15017122661")
                .body("Shown in the inbox"),
        )
        .await
        .unwrap();
    let missing = client
        .fetch_message("SM00000000000000000000000000000000")
        .await;
    assert!(missing.is_err());
    let http = reqwest::Client::new();
    let queued = http
        .post(format!(
            "{}/__sandbox/webhooks/message_status",
            served.base_url()
        ))
        .basic_auth(&sid, Some(&token))
        .json(&serde_json::json!({
            "MessageSid": created.sid,
            "AccountSid": sid,
            "MessageStatus": "delivered",
            "To": "+15558675310",
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(queued.status(), 202);

    // Every call, newest first, with what was sent and answered.
    let calls = inbox_get(&first, "/api/calls?service=twilio").await;
    let items = calls["items"].as_array().unwrap();
    assert_eq!(items.len(), 3, "{calls:#}");
    let create = &items[2];
    assert_eq!(create["operation"], "create_message");
    assert_eq!(create["method"], "POST");
    assert_eq!(create["status"], 201);
    assert!(create["path"].as_str().unwrap().ends_with("/Messages.json"));
    assert!(
        create["request_body"]
            .as_str()
            .unwrap()
            .contains("Shown+in+the+inbox")
    );
    assert!(
        create["response_body"]
            .as_str()
            .unwrap()
            .contains(&created.sid)
    );
    assert_eq!(items[1]["operation"], "fetch_message");
    assert_eq!(items[1]["status"], 404);
    assert!(items[1]["response_body"].as_str().unwrap().contains("code"));
    assert_eq!(items[0]["path"], "/__sandbox/webhooks/message_status");
    assert!(
        !calls.to_string().contains(&token),
        "no credential is shown"
    );

    // The webhook delivery, under the spec's name; the resources the calls left.
    let webhooks = inbox_get(&first, "/api/webhooks").await;
    assert_eq!(webhooks["items"][0]["service"], "twilio", "{webhooks:#}");
    // Redelivered from the inbox: signed anew by the spec's own scheme (the inbox keeps no
    // secret of a spec's: Twilio signs with the auth token).
    let id = webhooks["items"][0]["id"].as_str().unwrap().to_owned();
    let ui = first.inbox_url().unwrap();
    let again = http
        .post(format!(
            "{}/api/webhooks/{id}/redeliver",
            ui.trim_end_matches('/')
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 202, "{}", again.text().await.unwrap());
    let webhooks = inbox_get(&first, "/api/webhooks").await;
    assert_eq!(
        webhooks["items"][0]["redelivery_of"],
        id.as_str(),
        "{webhooks:#}"
    );
    assert!(webhooks["items"][0]["headers"].as_array().is_some());
    let specs = inbox_get(&first, "/api/specs").await;
    let spec = &specs["specs"][0];
    assert_eq!(spec["name"], "twilio");
    assert_eq!(spec["base_url"], served.base_url());
    let collection = spec["collections"][0]["name"].as_str().unwrap().to_owned();
    assert_eq!(spec["collections"][0]["items"], 1, "{specs:#}");
    let query = format!(
        "/api/specs/twilio/items?collection={}",
        url::form_urlencoded::byte_serialize(collection.as_bytes()).collect::<String>()
    );
    let stored = inbox_get(&first, &query).await;
    assert_eq!(
        stored["items"][0]["sid"],
        created.sid.as_str(),
        "{stored:#}"
    );
    served.shutdown().await;
    first.inbox.flush();
    first.shutdown().await;
    // The served store keeps its credentials in its own file under `resources/`; the inbox's
    // files hold none of them.
    for file in std::fs::read_dir(data.path()).unwrap() {
        let path = file.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            let held = |secret: &str| bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
            assert!(!held(&token), "the auth token is in {}", path.display());
        }
    }

    // `--data` keeps the calls and the resources.
    let second = sandbox(data.path()).await;
    let served = serve(&twilio_spec(), &second, data.path(), None).await;
    let calls = inbox_get(&second, "/api/calls").await;
    assert_eq!(calls["total"], 3, "{calls:#}");
    let specs = inbox_get(&second, "/api/specs").await;
    assert_eq!(specs["specs"][0]["collections"][0]["items"], 1);
    served.shutdown().await;
    second.shutdown().await;
}

/// A key sent in the query (`?api_key=`) is shown as `<redacted>`, in the inbox and in its
/// data directory; a token endpoint's bodies (client secret, access token) are not kept.
#[tokio::test]
async fn a_credential_in_the_query_or_a_token_answer_is_never_shown_nor_kept() {
    let data = tempfile::tempdir().unwrap();
    let specs = tempfile::tempdir().unwrap();
    let keyed = specs.path().join("keyed.yaml");
    std::fs::write(
        &keyed,
        "service:\n  name: keyed\n  title: Keyed\n  summary: A key in the query\n  \
         base_url: { env: KEYED_BASE_URL }\n\
         credentials:\n  api_key: { env: KEYED_API_KEY }\n\
         auth:\n  - { name: query_key, kind: query, param: api_key, credential: api_key }\n\
         types:\n  Note:\n    fields:\n      id: { type: string }\n      \
         title: { type: string, required: true }\n\
         operations:\n  list_notes:\n    method: GET\n    path: /v1/notes\n    \
         response: list<Note>\n",
    )
    .unwrap();
    let sandbox = sandbox(data.path()).await;
    let served = serve(&keyed, &sandbox, data.path(), None).await;
    let key = served.credential("api_key").unwrap().to_owned();
    let answer = reqwest::get(format!(
        "{}/v1/notes?limit=2&api_key={key}",
        served.base_url()
    ))
    .await
    .unwrap();
    assert_eq!(answer.status(), 200);
    let calls = inbox_get(&sandbox, "/api/calls").await;
    assert_eq!(
        calls["items"][0]["path"],
        "/v1/notes?limit=2&api_key=<redacted>"
    );
    assert!(!calls.to_string().contains(&key));
    served.shutdown().await;
    sandbox.inbox.flush();
    // The served store keeps its credentials in its own file under `resources/` (so a
    // restart accepts the same key); the inbox's files hold none.
    for file in std::fs::read_dir(data.path()).unwrap() {
        let path = file.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            assert!(
                !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
                "the key is in {}",
                path.display()
            );
        }
    }

    // A token endpoint: asked with the client's secret, answered with a token.
    let oauth = specs.path().join("notes.yaml");
    std::fs::write(
        &oauth,
        "service:\n  name: notes\n  title: Notes\n  summary: Notes behind OAuth2\n  \
         base_url: { env: NOTES_BASE_URL }\n\
         credentials:\n  client_id: { env: NOTES_CLIENT_ID }\n  client_secret: { env: NOTES_CLIENT_SECRET }\n\
         auth:\n  - { name: oauth, kind: oauth2_client_credentials, token_url: /oauth/token, \
         client_id: client_id, client_secret: client_secret, scopes: [notes.write] }\n\
         types:\n  Note:\n    fields:\n      id: { type: string }\n\
         operations:\n  list_notes:\n    method: GET\n    path: /v1/notes\n    response: list<Note>\n",
    )
    .unwrap();
    let served = serve(&oauth, &sandbox, data.path(), None).await;
    let secret = served.credential("client_secret").unwrap().to_owned();
    let answer = reqwest::Client::new()
        .post(format!("{}/oauth/token", served.base_url()))
        .basic_auth(served.credential("client_id").unwrap(), Some(&secret))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let token: Value = answer.json().await.unwrap();
    let token = token["access_token"].as_str().unwrap().to_owned();
    let calls = inbox_get(&sandbox, "/api/calls?service=notes").await;
    let call = &calls["items"][0];
    assert_eq!(
        (call["path"].as_str(), call["status"].as_u64()),
        (Some("/oauth/token"), Some(200))
    );
    assert!(
        call["response_body"]
            .as_str()
            .unwrap()
            .starts_with("(not kept")
    );
    assert!(!calls.to_string().contains(&token) && !calls.to_string().contains(&secret));
    served.shutdown().await;
    sandbox.shutdown().await;
}
