//! `tidings-sandbox --spec`: provider specs served at run time, with nothing compiled for them,
//! called by their generated clients over loopback. Each client creates, gets, lists (every
//! page, in the provider's own page style), updates and deletes, and gets the documented error
//! back decodable with code and message.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

use futures_util::StreamExt;
use tidings_runtime::RetryPolicy;
use tidings_sandbox::served::{ServeConfig, ServedService, load};

/// `text`, a spec, served from a file of its own (the directory lives as long as the guard).
async fn served_text(text: &str) -> (tempfile::TempDir, ServedService) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spec.yaml");
    std::fs::write(&path, text).unwrap();
    let mut services = load(&path).unwrap();
    let served = ServedService::start(services.remove(0), ServeConfig::default())
        .await
        .unwrap();
    (dir, served)
}

/// A spec named `name` served (its title and summary the name capitalized, its base URL read
/// from `<NAME>_BASE_URL`), `rest` the rest of its text: its types and operations.
async fn served_named(name: &str, rest: &str) -> (tempfile::TempDir, ServedService) {
    let mut title = name.to_owned();
    title[..1].make_ascii_uppercase();
    let env = name.to_ascii_uppercase();
    served_text(&format!(
        "service:\n  name: {name}\n  title: {title}\n  summary: {title}\n  \
         base_url: {{ env: {env}_BASE_URL }}\n{rest}"
    ))
    .await
}

/// [`served_named`] with one API key sent as a bearer token (read from `<NAME>_API_KEY`), and
/// the `Authorization` value that sends it.
async fn served_with_key(name: &str, rest: &str) -> (tempfile::TempDir, ServedService, String) {
    let env = name.to_ascii_uppercase();
    let keyed = format!(
        "credentials:\n  api_key: {{ env: {env}_API_KEY }}\nauth:\n  - {{ name: key, kind: bearer, credential: api_key }}\n{rest}"
    );
    let (dir, served) = served_named(name, &keyed).await;
    let auth = format!("Bearer {}", served.credential("api_key").unwrap());
    (dir, served, auth)
}

fn spec(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/providers")
        .join(name)
}

/// A provider's whole document of `tests/providers/full/`, imported with the defaults and
/// served (the spec in a temporary directory kept as long as the service runs).
async fn serve_imported(document: &str, name: &str) -> (ServedService, tempfile::TempDir) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("tests/providers/full").join(document)).unwrap();
    serve_document(&text, document, name).await
}

/// A document's text (named `document` in notes), imported with the defaults and served.
async fn serve_document(
    text: &str,
    document: &str,
    name: &str,
) -> (ServedService, tempfile::TempDir) {
    use tidings_codegen::import::{ImportOptions, import_openapi};
    let imported = import_openapi(text, &ImportOptions::new(name, document), None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.yaml"));
    std::fs::write(&path, &imported.yaml).unwrap();
    let mut services = load(&path).unwrap();
    let served = ServedService::start(services.remove(0), ServeConfig::default())
        .await
        .unwrap();
    (served, dir)
}

/// One call to a served spec with its key in the header `key.0`: the status and the body.
async fn call_with_key(
    served: &ServedService,
    key: (&str, &str),
    method: &str,
    path: &str,
    body: Option<serde_json::Value>,
) -> (u16, String) {
    let mut request = tidings_runtime::reqwest::Client::new()
        .request(
            method.parse().unwrap(),
            format!("{}{path}", served.base_url()),
        )
        .header(key.0, key.1);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let answer = request.send().await.unwrap();
    let status = answer.status().as_u16();
    (status, answer.text().await.unwrap())
}

/// [`call_with_key`] with the answer read as JSON (`null` when it is empty or not JSON); the
/// path is copied, so a closure can pass one it formats.
fn call_json<'a>(
    served: &'a ServedService,
    key: (&'a str, &'a str),
    method: &'static str,
    path: &str,
    body: Option<serde_json::Value>,
) -> impl std::future::Future<Output = (u16, serde_json::Value)> + use<'a> {
    let path = path.to_owned();
    async move {
        let (status, text) = call_with_key(served, key, method, &path, body).await;
        let body = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
        (status, body)
    }
}

/// A form-encoded `POST` of `fields` to a served spec, with `authorization`: the status and
/// the answer as JSON (`null` when it is empty or not JSON).
async fn post_form(
    served: &ServedService,
    authorization: &str,
    path: &str,
    fields: &[(&str, &str)],
) -> (u16, serde_json::Value) {
    let answer = tidings_runtime::reqwest::Client::new()
        .post(format!("{}{path}", served.base_url()))
        .header("authorization", authorization)
        .form(fields)
        .send()
        .await
        .unwrap();
    let status = answer.status().as_u16();
    let text = answer.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or_default())
}

/// A call to a served spec that declares no auth: the status and the answer as JSON (`null`
/// when it is empty or not JSON).
async fn open_call(
    served: &ServedService,
    method: &str,
    path: &str,
    body: Option<serde_json::Value>,
) -> (u16, serde_json::Value) {
    let url = format!("{}{path}", served.base_url());
    let mut request = tidings_runtime::reqwest::Client::new().request(method.parse().unwrap(), url);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let answer = request.send().await.unwrap();
    let status = answer.status().as_u16();
    (status, answer.json().await.unwrap_or_default())
}

/// The `Authorization` value of a spec's `basicAuth` scheme, with its served credentials.
fn basic_auth(served: &ServedService) -> String {
    basic_of(served, "basic_auth_username", "basic_auth_password")
}

/// The `Authorization` value of a Basic scheme whose user name and password are the served
/// credentials `user` and `password`.
fn basic_of(served: &ServedService, user: &str, password: &str) -> String {
    use base64::Engine as _;
    let user = served.credential(user).unwrap();
    let password = served.credential(password).unwrap();
    let pair = format!("{user}:{password}");
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(pair)
    )
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
    // The times Twilio sets, made on create in its wire form (RFC 2822) and decoded.
    let created = fetched
        .date_created
        .as_deref()
        .expect("date_created answered");
    assert!(
        tidings_runtime::dates::rfc3339_to_unix(created).is_some(),
        "{created}"
    );

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

    // A request the spec refuses (a list needs a name) is answered 400, the status the
    // operation documents for bad input (not 422, which it does not), and not stored.
    let raw = tidings_runtime::reqwest::Client::new()
        .post(format!("{}/marketing/lists", served.base_url()))
        .bearer_auth(served.credential("api_key").unwrap())
        .json(&serde_json::json!({"contact_count": 3}))
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 400);
    let body: serde_json::Value = raw.json().await.unwrap();
    assert!(body.to_string().contains("name"), "names the field: {body}");
    served.shutdown().await;
}

/// A spec of its own whose auth is OAuth2 client credentials: the served spec has a token
/// endpoint of its own, and the runtime's client (built from the same run-time description)
/// fetches a token with the client id and secret, then creates and reads a note with it.
#[tokio::test]
async fn an_oauth2_spec_is_served_with_a_token_endpoint_of_its_own_and_public_operations_open() {
    use tidings_runtime::Client;
    use tidings_runtime::spec::OperationSpec;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.yaml");
    std::fs::write(
        &path,
        "service:\n  name: notes\n  title: Notes\n  summary: Notes behind OAuth2\n  \
         base_url: { env: NOTES_BASE_URL }\n\
         credentials:\n  client_id: { env: NOTES_CLIENT_ID }\n  client_secret: { env: NOTES_CLIENT_SECRET }\n\
         auth:\n  - { name: oauth, kind: oauth2_client_credentials, token_url: /oauth/token, \
         client_id: client_id, client_secret: client_secret, scopes: [notes.write] }\n\
         types:\n  Note:\n    fields:\n      id: { type: string, required: true }\n      \
         title: { type: string, required: true }\n\
         operations:\n  create_note:\n    method: POST\n    path: /v1/notes\n    body: Note\n    \
         response: Note\n    status: 201\n  get_note:\n    method: GET\n    path: /v1/notes/{id}\n    \
         path_params: { id: { type: string } }\n    response: Note\n  \
         list_notes:\n    method: GET\n    path: /v1/notes\n    auth: none\n    response: list<Note>\n",
    )
    .unwrap();
    let mut services = load(&path).unwrap();
    let service = services.remove(0);
    let spec: &'static tidings_runtime::spec::ServiceSpec =
        Box::leak(Box::new(tidings_codegen::describe::service_spec(&service)));
    let served = ServedService::start(service, ServeConfig::default())
        .await
        .unwrap();
    let client = |secret: &str| {
        Client::builder(spec)
            .base_url(served.base_url())
            .credential("client_id", served.credential("client_id").unwrap())
            .credential("client_secret", secret.to_owned())
            .retry(RetryPolicy::none())
            .build()
            .unwrap()
    };
    static CREATE: OperationSpec = OperationSpec::post("create_note", "/v1/notes");
    let ok = client(served.credential("client_secret").unwrap());
    let created: serde_json::Value = ok
        .execute(
            tidings_runtime::Request::new(&CREATE)
                .json(&serde_json::json!({"id": "n1", "title": "hello"}))
                .unwrap(),
        )
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(created["title"], "hello");
    let id = created["id"].as_str().unwrap().to_owned();
    let get: &'static OperationSpec = Box::leak(Box::new(OperationSpec::get(
        "get_note",
        Box::leak(format!("/v1/notes/{id}").into_boxed_str()),
    )));
    let got: serde_json::Value = ok
        .execute(tidings_runtime::Request::new(get))
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(got["title"], "hello");

    // A wrong client secret gets no token: an auth error, never a call without one.
    let refused = client("not-the-secret")
        .execute(tidings_runtime::Request::new(get))
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("invalid_client"), "{refused}");
    // And a bearer token the endpoint did not issue is refused by the API.
    let raw = tidings_runtime::reqwest::Client::new()
        .get(format!("{}/v1/notes/{id}", served.base_url()))
        .bearer_auth("made-up")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 401);
    // The public operation (`auth: none`) answers anyone; the others still ask for a token.
    let anyone = tidings_runtime::reqwest::Client::new();
    let listed = anyone
        .get(format!("{}/v1/notes", served.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(listed.status(), 200);
    let listed = listed.text().await.unwrap();
    assert!(listed.contains("hello"), "{listed}");
    let private = anyone
        .get(format!("{}/v1/notes/{id}", served.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(private.status(), 401);
    served.shutdown().await;
}

/// Postmark's whole server document (`tests/providers/full/postmark_server.json`), imported
/// with the defaults and served: its array body, integer path parameters, free-form required
/// field, writes without a body, templates from create to delete, and the token header its
/// every operation requires.
#[tokio::test]
async fn postmark_s_whole_document_is_served_as_it_says() {
    let (served, _dir) = serve_imported("postmark_server.json", "postmark").await;
    let token = served.credential("server_token").unwrap().to_owned();
    let http = tidings_runtime::reqwest::Client::new();
    let call = |method: &'static str, path: &str, body: Option<serde_json::Value>| {
        let (path, key) = (path.to_owned(), ("X-Postmark-Server-Token", token.as_str()));
        let served = &served;
        async move { call_with_key(served, key, method, &path, body).await }
    };
    let message = |to: &str| serde_json::json!({"From": "team@example.com", "To": to, "Subject": "Hi", "TextBody": "Hello"});

    // `POST /email/batch` takes an array of messages.
    let (status, body) = call(
        "POST",
        "/email/batch",
        Some(serde_json::json!([
            message("ada@example.com"),
            message("bob@example.com")
        ])),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = call("POST", "/email/batch", Some(message("ada@example.com"))).await;
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("expected a JSON array"), "{body}");

    // Integer path parameters are integers within the 64-bit range.
    for bad in ["9223372036854775808", "abc"] {
        let (status, body) = call("PUT", &format!("/bounces/{bad}/activate"), None).await;
        assert_eq!(status, 422, "{bad}: {body}");
        assert!(body.contains("path parameter `bounceid`"), "{body}");
    }
    for good in ["12", "12.0"] {
        let (status, body) = call("PUT", &format!("/bounces/{good}/activate"), None).await;
        assert!((200..300).contains(&status), "{good}: {status} {body}");
    }

    // `TemplateModel` (a free-form object, required) may be `null`, a JSON value like any.
    let templated = serde_json::json!({
        "From": "team@example.com", "To": "ada@example.com", "TemplateId": 7, "TemplateAlias": "welcome",
        "TemplateModel": null
    });
    let (status, body) = call("POST", "/email/withTemplate", Some(templated)).await;
    assert!((200..300).contains(&status), "{status} {body}");

    // A write the document gives no body takes `{}` and refuses fields.
    let (status, body) = call(
        "PUT",
        "/messages/inbound/m1/bypass",
        Some(serde_json::json!({"unexpected": 42})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = call(
        "PUT",
        "/messages/inbound/m1/bypass",
        Some(serde_json::json!({})),
    )
    .await;
    assert!((200..300).contains(&status), "{status} {body}");

    // Templates live through create, list, get (by id and by alias), update and delete. The
    // create answers the id in `TemplateId` (`type: number, format: int` in the document, an
    // integer), and that id is the one the item paths take.
    let template = serde_json::json!({"Name": "Welcome", "Subject": "Hi", "HtmlBody": "<p>Hi</p>", "Alias": "welcome"});
    let (status, body) = call("POST", "/templates", Some(template)).await;
    assert_eq!(status, 200, "{body}");
    let made: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = made["TemplateId"]
        .as_i64()
        .unwrap_or_else(|| panic!("no integer id: {body}"));
    assert_eq!(made["Alias"], "welcome", "{body}");
    let (status, body) = call("GET", "/templates?Count=10&Offset=0", None).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(&format!("\"TemplateId\":{id}")), "{body}");
    for by in [id.to_string(), "welcome".to_owned()] {
        let (status, body) = call("GET", &format!("/templates/{by}"), None).await;
        assert_eq!(status, 200, "{by}: {body}");
        assert!(body.contains("\"Subject\":\"Hi\""), "{by}: {body}");
        // The detail type names the id `TemplateID` (the record, `TemplateId`): both are there.
        assert!(
            body.contains(&format!("\"TemplateID\":{id}")),
            "{by}: {body}"
        );
    }
    let changed = serde_json::json!({"Subject": "Changed"});
    let (status, body) = call("PUT", &format!("/templates/{id}"), Some(changed)).await;
    assert_eq!(status, 200, "{body}");
    let (_, body) = call("GET", &format!("/templates/{id}"), None).await;
    assert!(body.contains("\"Subject\":\"Changed\""), "{body}");
    let (status, body) = call("DELETE", &format!("/templates/{id}"), None).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = call("GET", &format!("/templates/{id}"), None).await;
    assert_eq!(status, 404, "{body}");

    // The token header is the API key.
    let refused = http
        .get(format!("{}/server", served.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    served.shutdown().await;
}

/// Vonage's Messages document (v0.1, whole): a send answers a `message_uuid` (no format in the
/// document, the name says it), a fresh UUID for each send, never a made-up word.
#[tokio::test]
async fn vonage_sends_answer_a_fresh_message_uuid_each() {
    let (served, _dir) = serve_imported("vonage_messages.json", "vonage").await;
    let user = served.credential("basic_auth_username").unwrap().to_owned();
    let password = served.credential("basic_auth_password").unwrap().to_owned();
    let sms = serde_json::json!({
        "from": {"type": "sms", "number": "447700900001"},
        "to": {"type": "sms", "number": "447700900000"},
        "message": {"content": {"type": "text", "text": "Hello"}}
    });
    let mut seen = Vec::new();
    for _ in 0..2 {
        let answer = tidings_runtime::reqwest::Client::new()
            .post(format!("{}/", served.base_url()))
            .basic_auth(&user, Some(&password))
            .json(&sms)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 202);
        let body: serde_json::Value = answer.json().await.unwrap();
        let id = body["message_uuid"].as_str().unwrap().to_owned();
        let hex: Vec<usize> = id.split('-').map(str::len).collect();
        assert_eq!(hex, [8, 4, 4, 4, 12], "a UUID: {body}");
        assert!(
            id.chars().all(|c| c == '-' || c.is_ascii_hexdigit()),
            "{body}"
        );
        seen.push(id);
    }
    assert_ne!(seen[0], seen[1]);
    served.shutdown().await;
}

/// SendGrid's whole document: `PUT /marketing/contacts` upserts the contacts its body lists
/// (keyed by email, in any case), answered with a fresh `job_id`; `GET /marketing/contacts`
/// and the get by id show them, a second upsert of the same email updates that contact, and
/// `DELETE /marketing/contacts?ids=` removes the contacts it names.
#[tokio::test]
async fn sendgrid_contacts_upserted_in_bulk_are_listed_updated_by_email_and_deleted_by_ids() {
    let (served, _dir) = serve_imported("sendgrid_oai.json", "sendgrid").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method, path: &str, body| {
        call_json(&served, ("Authorization", key.as_str()), method, path, body)
    };
    let contacts = serde_json::json!({"contacts": [
        {"email": "ada@example.com", "first_name": "Ada", "custom_fields": {"w1": "x"}},
        {"email": "bob@example.com"}
    ]});
    let (status, job) = call("PUT", "/marketing/contacts", Some(contacts)).await;
    assert_eq!(status, 202, "{job}");
    let first_job = job["job_id"].as_str().unwrap().to_owned();
    let again =
        serde_json::json!({"contacts": [{"email": "ADA@example.com", "last_name": "Lovelace"}]});
    let (_, job) = call("PUT", "/marketing/contacts", Some(again)).await;
    assert_ne!(job["job_id"].as_str(), Some(first_job.as_str()), "{job}");

    let (status, listed) = call("GET", "/marketing/contacts", None).await;
    assert_eq!(status, 200, "{listed}");
    let result = listed["result"].as_array().unwrap();
    assert_eq!(result.len(), 2, "one contact per email: {listed}");
    let ada = result
        .iter()
        .find(|c| c["first_name"] == "Ada")
        .unwrap_or_else(|| panic!("{listed}"));
    assert_eq!(ada["last_name"], "Lovelace", "updated by email: {listed}");
    assert_eq!(ada["custom_fields"]["w1"], "x", "{listed}");
    let id = ada["id"].as_str().unwrap();
    let (status, got) = call("GET", &format!("/marketing/contacts/{id}"), None).await;
    assert_eq!(
        (status, &got["last_name"]),
        (200, &serde_json::json!("Lovelace")),
        "{got}"
    );

    // A delete names the contacts it removes by `?ids=` (an id not held is passed over).
    let (status, job) = call(
        "DELETE",
        &format!("/marketing/contacts?ids={id},nope"),
        None,
    )
    .await;
    assert_eq!(status, 202, "{job}");
    let (_, listed) = call("GET", "/marketing/contacts", None).await;
    let result = listed["result"].as_array().unwrap();
    assert_eq!(result.len(), 1, "{listed}");
    assert_eq!(result[0]["email"], "bob@example.com", "{listed}");
    let (status, _) = call("GET", &format!("/marketing/contacts/{id}"), None).await;
    assert_eq!(status, 404);
    served.shutdown().await;
}

/// SendGrid's suppression groups hold sets of addresses: `POST` adds each address of
/// `recipient_emails` once, the `GET` lists the addresses themselves (not made-up ones), and
/// `DELETE .../suppressions/{email}` takes one out. The global suppressions are a set too,
/// read and removed one address at a time.
#[tokio::test]
async fn sendgrid_suppressions_are_sets_of_addresses() {
    let (served, _dir) = serve_imported("sendgrid_oai.json", "sendgrid").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method, path: &str, body| {
        call_json(&served, ("Authorization", key.as_str()), method, path, body)
    };
    // Under a group never made, 404; under one made, a set.
    let add = serde_json::json!({"recipient_emails": ["ada@example.com", "bob@example.com"]});
    let orphan = call("POST", "/asm/groups/7/suppressions", Some(add.clone())).await;
    assert_eq!(orphan.0, 404, "{}", orphan.1);
    let made = |name: &str| {
        let body = serde_json::json!({"name": name, "description": "d"});
        call("POST", "/asm/groups", Some(body))
    };
    let (status, made_group) = made("weekly").await;
    assert_eq!(status, 201, "{made_group}");
    let (_, other_group) = made("monthly").await;
    let group = &format!("/asm/groups/{}/suppressions", made_group["id"]);
    let (status, added) = call("POST", group, Some(add.clone())).await;
    assert_eq!((status, &added), (201, &add), "answered as added");
    let again = serde_json::json!({"recipient_emails": ["bob@example.com", "cy@example.com"]});
    assert_eq!(call("POST", group, Some(again)).await.0, 201);
    let (status, listed) = call("GET", group, None).await;
    assert_eq!(status, 200, "{listed}");
    let mut members: Vec<&str> = listed
        .as_array()
        .unwrap_or_else(|| panic!("{listed}"))
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    members.sort_unstable();
    assert_eq!(
        members,
        ["ada@example.com", "bob@example.com", "cy@example.com"],
        "each address once"
    );
    let (status, _) = call("DELETE", &format!("{group}/bob@example.com"), None).await;
    assert_eq!(status, 204);
    let (_, listed) = call("GET", group, None).await;
    assert_eq!(listed.as_array().map(Vec::len), Some(2), "{listed}");
    let other_group = format!("/asm/groups/{}/suppressions", other_group["id"]);
    let (_, other) = call("GET", &other_group, None).await;
    assert_eq!(
        other,
        serde_json::json!([]),
        "another group holds its own set"
    );

    let global = "/asm/suppressions/global";
    let add = serde_json::json!({"recipient_emails": ["dee@example.com"]});
    assert_eq!(call("POST", global, Some(add)).await.0, 201);
    let (status, got) = call("GET", &format!("{global}/dee@example.com"), None).await;
    assert_eq!(
        (status, got),
        (
            200,
            serde_json::json!({"recipient_email": "dee@example.com"})
        )
    );
    let (status, _) = call("DELETE", &format!("{global}/dee@example.com"), None).await;
    assert_eq!(status, 204);
    let (status, _) = call("GET", &format!("{global}/dee@example.com"), None).await;
    assert_eq!(status, 404, "removed from the set");
    served.shutdown().await;
}

/// Ably's whole Control API document: an app created under its account is listed there,
/// changed and deleted at its own path (`/apps/{id}`), and a key created under it is listed
/// under it, and deleted with it.
#[tokio::test]
async fn ably_control_apps_and_keys_live_through_create_list_update_delete() {
    let (served, _dir) = serve_imported("ably_control.json", "ably_control").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let call = |method, path: &str, body| {
        call_json(
            &served,
            ("Authorization", bearer.as_str()),
            method,
            path,
            body,
        )
    };
    let (status, app) = call(
        "POST",
        "/accounts/acc1/apps",
        Some(serde_json::json!({"name": "Chat", "tlsOnly": true})),
    )
    .await;
    assert_eq!(status, 201, "{app}");
    assert_eq!(
        (&app["name"], &app["tlsOnly"]),
        (&"Chat".into(), &true.into())
    );
    let id = app["id"].as_str().unwrap().to_owned();
    let (_, listed) = call("GET", "/accounts/acc1/apps", None).await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(listed[0]["id"], id.as_str(), "{listed}");

    let (status, changed) = call(
        "PATCH",
        &format!("/apps/{id}"),
        Some(serde_json::json!({"name": "Chat 2"})),
    )
    .await;
    assert_eq!(
        (status, &changed["name"]),
        (200, &"Chat 2".into()),
        "{changed}"
    );
    assert_eq!(
        changed["tlsOnly"], true,
        "kept what the patch did not send: {changed}"
    );

    let capability = serde_json::json!({"room-*": ["publish", "subscribe"]});
    let (status, key) = call(
        "POST",
        &format!("/apps/{id}/keys"),
        Some(serde_json::json!({"name": "server", "capability": capability})),
    )
    .await;
    assert_eq!(status, 201, "{key}");
    assert_eq!(key["capability"], capability, "{key}");
    let (_, keys) = call("GET", &format!("/apps/{id}/keys"), None).await;
    assert_eq!(keys.as_array().map(Vec::len), Some(1), "{keys}");

    let (status, _) = call("DELETE", &format!("/apps/{id}"), None).await;
    assert_eq!(status, 204);
    let (_, listed) = call("GET", "/accounts/acc1/apps", None).await;
    assert_eq!(listed, serde_json::json!([]));
    // Its keys went with it.
    let (_, keys) = call("GET", &format!("/apps/{id}/keys"), None).await;
    assert_eq!(keys, serde_json::json!([]), "{keys}");
    let (status, _) = call(
        "PATCH",
        &format!("/apps/{id}"),
        Some(serde_json::json!({"name": "x"})),
    )
    .await;
    assert_eq!(status, 404, "deleted");
    served.shutdown().await;
}

/// Error answers in each operation's own documented shape: `operations_imported.yaml` (the
/// import of `codegen/tests/import/operations_3_0.yaml`) gives its operations other error
/// bodies than the service's (an RFC 9457 problem, a detail header), and an operation whose
/// error answers are documented without a schema gets its errors as text.
#[tokio::test]
async fn errors_are_answered_in_each_operation_s_own_shape() {
    use tidings_providers::operations_imported as ops;
    let mut services = load(&spec("fidelity/operations_imported.yaml")).unwrap();
    let served = ServedService::start(services.remove(0), ServeConfig::default())
        .await
        .unwrap();
    let client = ops::OperationsImportedClient::builder()
        .base_url(served.base_url())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    // `get_mail`'s 404: the service's `errors.0.message`, and the code in `X-Error-Code`.
    let err = client.get_mail("m-missing").await.unwrap_err();
    let e = err.api_error().unwrap();
    assert_eq!(e.status, 404);
    assert!(
        e.message
            .as_deref()
            .is_some_and(|m| m.contains("m-missing")),
        "{e:?}"
    );
    // `create_template`'s 422 is a problem: code at `type`, message at `detail`.
    let http = tidings_runtime::reqwest::Client::new();
    let answer = http
        .post(format!("{}/v3/templates", served.base_url()))
        .json(&serde_json::json!({"id": "t1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 422);
    let problem: serde_json::Value = answer.json().await.unwrap();
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains("name")),
        "{problem}"
    );
    assert_eq!(
        problem["type"], "https://example.com/problems/validation_error",
        "a URI, as `type` is one, ending in the code: {problem}"
    );
    assert!(problem.get("errors").is_none(), "{problem}");
    served.shutdown().await;

    // Errors documented without a schema (SendGrid's SSO operations) are text.
    let (_dir, served) = served_named(
        "certs",
        "errors: { type: Failure, code: error.code, message: error.message }\n\
         types:\n  Failure:\n    fields:\n      error: { type: FailureError }\n  \
         FailureError:\n    fields:\n      code: { type: string }\n      message: { type: string }\n  \
         Cert:\n    fields:\n      id: { type: string }\n      pem: { type: string, required: true }\n\
         operations:\n  create_cert:\n    method: POST\n    path: /certs\n    body: Cert\n    \
         response: Cert\n    status: 201\n    error_bodies:\n      \"422\": { code: none, message: none }\n  \
         get_cert:\n    method: GET\n    path: /certs/{id}\n    path_params: { id: { type: string } }\n    \
         response: Cert\n",
    )
    .await;
    let answer = http
        .post(format!("{}/certs", served.base_url()))
        .json(&serde_json::json!({"id": "c1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 422);
    assert!(
        answer.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain"),
        "{:?}",
        answer.headers()
    );
    let text = answer.text().await.unwrap();
    assert!(text.contains("pem"), "{text}");
    // Another operation keeps the service's error body.
    let missing: serde_json::Value = http
        .get(format!("{}/certs/c9", served.base_url()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(missing["error"]["code"], "not_found", "{missing}");
    served.shutdown().await;

    // The service keeps its message where no common name is (Infobip's
    // `requestError.serviceException.text`); an operation's own shape still gets it, not the
    // status's name.
    let (_routes_dir, served) = served_named(
        "routes",
        "errors: { type: Legacy, code: requestError.serviceException.messageId, \
         message: requestError.serviceException.text }\n\
         types:\n  Legacy:\n    fields:\n      requestError: { type: RequestError }\n  \
         RequestError:\n    fields:\n      serviceException: { type: ServiceException }\n  \
         ServiceException:\n    fields:\n      messageId: { type: string }\n      text: { type: string }\n  \
         Problem:\n    fields:\n      errorCode: { type: string }\n      description: { type: string }\n  \
         Route:\n    fields:\n      id: { type: string }\n      name: { type: string, required: true }\n\
         operations:\n  create_route:\n    method: POST\n    path: /routes\n    body: Route\n    \
         response: Route\n    status: 201\n    errors: [400]\n    error_bodies:\n      \
         \"400\": { type: Problem, code: errorCode, message: description }\n",
    )
    .await;
    let problem: serde_json::Value = http
        .post(format!("{}/routes", served.base_url()))
        .json(&serde_json::json!({"id": "r1"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        problem["description"]
            .as_str()
            .is_some_and(|d| d.contains("`name`")),
        "{problem}"
    );
    assert_eq!(problem["errorCode"], "validation_error", "{problem}");
    served.shutdown().await;
}

/// A multipart upload (a contacts import, an attachment) is served: the file part of a
/// `bytes` field is accepted, and a required field left out is still refused.
#[tokio::test]
async fn a_multipart_file_part_is_accepted_for_a_bytes_field() {
    let (_dir, served) = served_named(
        "uploads",
        "types:\n  Upload:\n    fields:\n      id: { type: string }\n      \
         title: { type: string, required: true }\n      file: { type: bytes, required: true }\n      \
         meta: { type: Meta }\n      extras: { type: list<bytes> }\n      \
         labels: { type: map<string> }\n  \
         Meta:\n    fields:\n      source: { type: string }\n\
         operations:\n  upload:\n    method: POST\n    path: /uploads\n    body: Upload\n    \
         body_encoding: multipart\n    response: Upload\n    status: 201\n    \
         headers:\n      X-Batch: { required: true, max_len: 8 }\n      X-Attempt: { type: integer, max: 3 }\n  \
         purge:\n    method: DELETE\n    path: /uploads\n    body: json\n  \
         preview:\n    method: POST\n    path: /preview\n    response: text\n",
    )
    .await;
    let send_with = |parts: &[(&str, Option<&str>, &str)], headers: &[(&str, &str)]| {
        let boundary = "x-boundary-7";
        let mut body = String::new();
        for (name, filename, content) in parts {
            body.push_str(&format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\""
            ));
            if let Some(f) = filename {
                body.push_str(&format!("; filename=\"{f}\"\r\nContent-Type: text/csv"));
            }
            body.push_str(&format!("\r\n\r\n{content}\r\n"));
        }
        body.push_str(&format!("--{boundary}--\r\n"));
        let mut request = tidings_runtime::reqwest::Client::new()
            .post(format!("{}/uploads", served.base_url()))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            );
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.body(body).send()
    };
    let send = |parts: &[(&str, Option<&str>, &str)]| send_with(parts, &[("X-Batch", "b1")]);
    let answer = send(&[
        ("title", None, "contacts"),
        ("file", Some("contacts.csv"), "email\nada@example.com\n"),
    ])
    .await
    .unwrap();
    assert_eq!(answer.status(), 201, "{}", answer.text().await.unwrap());
    // A part cannot be `null`: `null` (or nothing) where an optional object or map goes is
    // none.
    let answer = send(&[
        ("title", None, "contacts"),
        ("file", Some("contacts.csv"), "email\n"),
        ("meta", None, "null"),
        ("labels", None, "null"),
    ])
    .await
    .unwrap();
    assert_eq!(answer.status(), 201, "{}", answer.text().await.unwrap());
    // An object's or a map's JSON text in a part without `Content-Type: application/json`
    // (as curl and schemathesis send it) is that object.
    let answer = send(&[
        ("title", None, "contacts"),
        ("file", Some("contacts.csv"), "email\n"),
        ("labels", None, r#"{"team": "crm"}"#),
        ("meta", None, r#"{"source": "import"}"#),
    ])
    .await
    .unwrap();
    assert_eq!(answer.status(), 201);
    let created: serde_json::Value = answer.json().await.unwrap();
    assert_eq!(
        created["labels"],
        serde_json::json!({"team": "crm"}),
        "{created}"
    );
    assert_eq!(
        created["meta"],
        serde_json::json!({"source": "import"}),
        "{created}"
    );
    // A text answer with nothing made up for it is still text, not bytes.
    let preview = tidings_runtime::reqwest::Client::new()
        .post(format!("{}/preview", served.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(preview.status(), 200);
    assert_eq!(
        preview.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    // One file where a `list<bytes>` goes is a list of one (Infobip's `attachment`).
    let answer = send(&[
        ("title", None, "contacts"),
        ("file", Some("contacts.csv"), "email\n"),
        ("extras", Some("a.csv"), "a\n"),
    ])
    .await
    .unwrap();
    assert_eq!(answer.status(), 201, "{}", answer.text().await.unwrap());
    // Several files under one name: a `list<bytes>` field (Mailgun's `attachment`).
    let answer = send(&[
        ("title", None, "contacts"),
        ("file", Some("contacts.csv"), "email\n"),
        ("extras", Some("a.csv"), "a\n"),
        ("extras", Some("b.csv"), "b\n"),
        ("extras", Some("c.csv"), "c\n"),
    ])
    .await
    .unwrap();
    assert_eq!(answer.status(), 201, "{}", answer.text().await.unwrap());
    let answer = send(&[("title", None, "contacts")]).await.unwrap();
    assert_eq!(answer.status(), 422);
    assert!(answer.text().await.unwrap().contains("`file` is required"));
    // A file sent as a plain part (no file name; its bytes are not text) is a file all the same.
    let mut raw =
        b"--b7\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nlogo\r\n".to_vec();
    raw.extend_from_slice(
        b"--b7\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n\x89PNG\xff\r\n--b7--\r\n",
    );
    let answer = tidings_runtime::reqwest::Client::new()
        .post(format!("{}/uploads", served.base_url()))
        .header("content-type", "multipart/form-data; boundary=b7")
        .header("X-Batch", "b1")
        .body(raw)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 201, "{}", answer.text().await.unwrap());
    // No body at all: refused, not taken as an empty form.
    let answer = tidings_runtime::reqwest::Client::new()
        .post(format!("{}/uploads", served.base_url()))
        .header("X-Batch", "b1")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 400);
    assert!(
        answer
            .text()
            .await
            .unwrap()
            .contains("needs a multipart/form-data body"),
        "names what it takes"
    );
    // Header parameters: required, and within their limits.
    let parts = [
        ("title", None, "contacts"),
        ("file", Some("c.csv"), "email\n"),
    ];
    for (headers, expected) in [
        (&[][..], "header `X-Batch` is required"),
        (&[("X-Batch", "b123456789")][..], "at most 8 characters"),
        (&[("X-Batch", "b1"), ("X-Attempt", "9")][..], "at most 3"),
        (
            &[("X-Batch", "b1"), ("X-Attempt", "two")][..],
            "must be an integer",
        ),
    ] {
        let answer = send_with(&parts, headers).await.unwrap();
        assert_eq!(answer.status(), 422, "{headers:?}");
        let text = answer.text().await.unwrap();
        assert!(text.contains(expected), "{headers:?}: {text}");
    }
    // A `body: json` takes any JSON value, `null` and text too; not what is not JSON.
    for (body, status) in [
        ("null", 204),
        ("\"all\"", 204),
        ("[1, 2]", 204),
        ("nope", 400),
    ] {
        let answer = tidings_runtime::reqwest::Client::new()
            .delete(format!("{}/uploads", served.base_url()))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), status, "{body}");
    }
    served.shutdown().await;
}

/// A list answered as a bare array and paged by `Link` headers (Ably's history and presence):
/// served a page at a time with `Link: <...>; rel="next"`, and the runtime's paginator follows
/// it to the last item.
#[tokio::test]
async fn a_bare_list_is_paged_by_link_headers_as_declared() {
    use futures_util::StreamExt;
    use tidings_runtime::Client;
    use tidings_runtime::spec::{OperationSpec, PageStyle, PaginationSpec};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.yaml");
    std::fs::write(
        &path,
        "service:\n  name: history\n  title: History\n  summary: Messages paged by Link headers\n  \
         base_url: { env: HISTORY_BASE_URL }\n\
         credentials:\n  api_key: { env: HISTORY_API_KEY }\n\
         auth:\n  - { name: bearer, kind: bearer, credential: api_key }\n\
         types:\n  Message:\n    fields:\n      id: { type: string }\n      \
         data: { type: string, required: true }\n\
         operations:\n  publish:\n    method: POST\n    path: /channels/{channel}/messages\n    \
         path_params: { channel: { type: string } }\n    body: Message\n    response: Message\n  \
         history:\n    method: GET\n    path: /channels/{channel}/messages\n    \
         path_params: { channel: { type: string } }\n    query:\n      limit: { type: integer }\n    \
         response: list<Message>\n    \
         pagination: { style: link_header, items_field: \"\", limit_param: limit }\n",
    )
    .unwrap();
    let mut services = load(&path).unwrap();
    let service = services.remove(0);
    let spec: &'static tidings_runtime::spec::ServiceSpec =
        Box::leak(Box::new(tidings_codegen::describe::service_spec(&service)));
    let served = ServedService::start(service, ServeConfig::default())
        .await
        .unwrap();
    let client = Client::builder(spec)
        .base_url(served.base_url())
        .credential("api_key", served.credential("api_key").unwrap())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    static PUBLISH: OperationSpec = OperationSpec::post("publish", "/channels/c1/messages");
    for i in 0..5 {
        client
            .execute(
                tidings_runtime::Request::new(&PUBLISH)
                    .json(&serde_json::json!({"data": format!("m{i}")}))
                    .unwrap(),
            )
            .await
            .unwrap();
    }
    static HISTORY: OperationSpec = OperationSpec::get("history", "/channels/c1/messages");
    // One page: two items and the next page's link, nothing else in the body.
    let raw = tidings_runtime::reqwest::Client::new()
        .get(format!(
            "{}/channels/c1/messages?limit=2",
            served.base_url()
        ))
        .bearer_auth(served.credential("api_key").unwrap())
        .send()
        .await
        .unwrap();
    let link = raw.headers()["link"].to_str().unwrap().to_owned();
    assert!(link.ends_with("rel=\"next\""), "{link}");
    let page: Vec<serde_json::Value> = raw.json().await.unwrap();
    assert_eq!(page.len(), 2);
    // Every item, in order, through the Link headers.
    static PAGES: PaginationSpec = PaginationSpec {
        items: "",
        style: PageStyle::LinkHeader,
    };
    let request = tidings_runtime::Request::new(&HISTORY).query(&[("limit", 2)]);
    let items: Vec<serde_json::Value> = tidings_runtime::paginate(client, request, &PAGES)
        .map(Result::unwrap)
        .collect()
        .await;
    let data: Vec<&str> = items.iter().map(|m| m["data"].as_str().unwrap()).collect();
    assert_eq!(data, ["m0", "m1", "m2", "m3", "m4"]);
    served.shutdown().await;
}

/// Infobip's voice API pages by number with its total in `paging.totalPages`, where `paging`
/// is optional but each of its four fields required. The page put `{"totalPages": n}` there
/// alone, an answer its own document refuses; the object is now whole, and the client reads
/// every page.
#[tokio::test]
async fn a_page_total_inside_an_optional_object_comes_with_that_object_s_required_fields() {
    use tidings_runtime::Client;
    use tidings_runtime::spec::{OperationSpec, PageStyle, PaginationSpec};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("routes.yaml");
    std::fs::write(
        &path,
        "service:\n  name: routes\n  title: Routes\n  summary: Routes paged by number\n  \
         base_url: { env: ROUTES_BASE_URL }\n\
         credentials:\n  api_key: { env: ROUTES_API_KEY }\n\
         auth:\n  - { name: app, kind: header, header: Authorization, prefix: \"App \", credential: api_key }\n\
         types:\n  Route:\n    fields:\n      id: { type: string }\n      \
         name: { type: string, required: true }\n  \
         PageInfo:\n    fields:\n      page: { type: integer, required: true }\n      \
         size: { type: integer, required: true }\n      \
         totalPages: { type: integer, required: true }\n      \
         totalResults: { type: integer, required: true }\n  \
         RoutePage:\n    fields:\n      results: { type: list<Route> }\n      paging: { type: PageInfo }\n  \
         CursorInfo:\n    fields:\n      nextCursor: { type: string, required: true }\n      \
         size: { type: integer, required: true }\n  \
         CursorPage:\n    fields:\n      results: { type: list<Route> }\n      paging: { type: CursorInfo }\n\
         operations:\n  create_route:\n    method: POST\n    path: /routes\n    \
         body: Route\n    response: Route\n    status: 201\n  \
         list_routes:\n    method: GET\n    path: /routes\n    \
         query:\n      page: { type: integer }\n      size: { type: integer }\n    \
         response: RoutePage\n    \
         pagination: { style: page, items_field: results, page_param: page, size_param: size, \
         first_page: 0, total_pages_field: paging.totalPages }\n  \
         wake_routes:\n    method: POST\n    path: /routes/wake\n  \
         create_note:\n    method: POST\n    path: /notes\n    \
         body: Route\n    response: Route\n    status: 201\n  \
         list_notes:\n    method: GET\n    path: /notes\n    \
         query:\n      cursor: { type: string }\n      size: { type: integer }\n    \
         response: CursorPage\n    \
         pagination: { style: token, items_field: results, token_field: paging.nextCursor, \
         token_param: cursor, limit_param: size }\n\
",
    )
    .unwrap();
    let mut services = load(&path).unwrap();
    let service = services.remove(0);
    let spec: &'static tidings_runtime::spec::ServiceSpec =
        Box::leak(Box::new(tidings_codegen::describe::service_spec(&service)));
    let served = ServedService::start(service, ServeConfig::default())
        .await
        .unwrap();
    let client = Client::builder(spec)
        .base_url(served.base_url())
        .credential("api_key", served.credential("api_key").unwrap())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    static CREATE: OperationSpec = OperationSpec::post("create_route", "/routes");
    for i in 0..5 {
        client
            .execute(
                tidings_runtime::Request::new(&CREATE)
                    .json(&serde_json::json!({"name": format!("r{i}")}))
                    .unwrap(),
            )
            .await
            .unwrap();
    }
    // An operation without a body takes none, or `{}`; whitespace alone is not JSON
    // (schemathesis sends it), so it is refused.
    for (body, status) in [("", 204), ("{}", 204), (" ", 400)] {
        let answer = tidings_runtime::reqwest::Client::new()
            .post(format!("{}/routes/wake", served.base_url()))
            .header(
                "Authorization",
                format!("App {}", served.credential("api_key").unwrap()),
            )
            .header("Content-Type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), status, "{body:?}");
    }
    let page: serde_json::Value = tidings_runtime::reqwest::Client::new()
        .get(format!("{}/routes?page=0&size=2", served.base_url()))
        .header(
            "Authorization",
            format!("App {}", served.credential("api_key").unwrap()),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let paging = page["paging"].as_object().unwrap();
    for field in ["page", "size", "totalPages", "totalResults"] {
        assert!(paging[field].is_i64(), "{field}: {page}");
    }
    assert_eq!(paging["totalPages"], 3, "{page}");
    assert_eq!(page["results"].as_array().unwrap().len(), 2, "{page}");
    static LIST: OperationSpec = OperationSpec::get("list_routes", "/routes");
    static PAGES: PaginationSpec = PaginationSpec {
        items: "results",
        style: PageStyle::Page {
            page_param: "page",
            size_param: Some("size"),
            first_page: 0,
            total_pages_field: Some("paging.totalPages"),
        },
    };
    let request = tidings_runtime::Request::new(&LIST).query(&[("size", 2)]);
    let items: Vec<serde_json::Value> = tidings_runtime::paginate(client.clone(), request, &PAGES)
        .map(Result::unwrap)
        .collect()
        .await;
    let names: Vec<&str> = items.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["r0", "r1", "r2", "r3", "r4"]);
    // By token, with the next token a required text: the last page says "no more" with an
    // empty one (not `null`, which its type refuses, nor a made-up token).
    static CREATE_NOTE: OperationSpec = OperationSpec::post("create_note", "/notes");
    for i in 0..5 {
        client
            .execute(
                tidings_runtime::Request::new(&CREATE_NOTE)
                    .json(&serde_json::json!({"name": format!("n{i}")}))
                    .unwrap(),
            )
            .await
            .unwrap();
    }
    let last: serde_json::Value = tidings_runtime::reqwest::Client::new()
        .get(format!("{}/notes?size=5", served.base_url()))
        .header(
            "Authorization",
            format!("App {}", served.credential("api_key").unwrap()),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(last["paging"]["nextCursor"], "", "{last}");
    assert_eq!(last["results"].as_array().unwrap().len(), 5, "{last}");
    static SCAN: OperationSpec = OperationSpec::get("list_notes", "/notes");
    static TOKENS: PaginationSpec = PaginationSpec {
        items: "results",
        style: PageStyle::Token {
            token_field: "paging.nextCursor",
            token_param: "cursor",
        },
    };
    let request = tidings_runtime::Request::new(&SCAN).query(&[("size", 2)]);
    let items: Vec<serde_json::Value> = tidings_runtime::paginate(client, request, &TOKENS)
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(items.len(), 5);
    served.shutdown().await;
}

/// A loopback receiver keeping every delivery: `(path, headers, body)`.
async fn receiver() -> (
    String,
    tokio::sync::mpsc::UnboundedReceiver<(String, axum::http::HeaderMap, Vec<u8>)>,
) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let app = axum::Router::new().fallback(move |request: axum::extract::Request| {
        let tx = tx.clone();
        async move {
            let (parts, body) = request.into_parts();
            let body = axum::body::to_bytes(body, 1 << 20).await.unwrap();
            tx.send((parts.uri.path().to_owned(), parts.headers, body.to_vec()))
                .unwrap();
            axum::http::StatusCode::NO_CONTENT
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, rx)
}

/// Twilio's status callback served by `--spec`: delivered to its own path, form-encoded and
/// signed with the auth token over the URL and sorted parameters, and the generated Twilio
/// client's `handle_webhook` picks, verifies and decodes it; a changed byte is refused.
#[tokio::test]
async fn served_webhooks_are_signed_as_declared_and_the_generated_client_accepts_them() {
    use tidings_providers::twilio;
    use tidings_runtime::webhook::{WebhookRequest, WebhookSecrets};
    let (hooks, mut deliveries) = receiver().await;
    let mut services = load(&spec("twilio.yaml")).unwrap();
    let mut config = ServeConfig::default();
    config.webhook_url = Some(hooks.clone());
    let served = ServedService::start(services.remove(0), config)
        .await
        .unwrap();
    let (sid, token) = (
        served.credential("account_sid").unwrap().to_owned(),
        served.credential("auth_token").unwrap().to_owned(),
    );
    // Signed with the auth token, the variable the spec names for both.
    assert_eq!(
        served.webhook_secret("TWILIO_AUTH_TOKEN"),
        Some(token.as_str())
    );
    let http = tidings_runtime::reqwest::Client::new();
    let trigger = |name: &str| format!("{}/__sandbox/webhooks/{name}", served.base_url());
    let payload = serde_json::json!({
        "MessageSid": "SM0123456789abcdef0123456789abcdef",
        "AccountSid": sid,
        "MessageStatus": "delivered",
        "To": "+14155550100",
    });
    let queued = http
        .post(trigger("message_status"))
        .basic_auth(&sid, Some(&token))
        .json(&payload)
        .send()
        .await
        .unwrap();
    assert_eq!(queued.status(), 202);
    let queued: serde_json::Value = queued.json().await.unwrap();
    assert_eq!(queued["url"], format!("{hooks}/twilio/status"));

    let (path, headers, body) =
        tokio::time::timeout(std::time::Duration::from_secs(10), deliveries.recv())
            .await
            .unwrap()
            .unwrap();
    assert_eq!(path, "/twilio/status");
    assert_eq!(headers["content-type"], "application/x-www-form-urlencoded");
    let url = format!("{hooks}{path}");
    let secrets = WebhookSecrets::new().with("twilio", token.clone());
    let received =
        twilio::handle_webhook(&secrets, &WebhookRequest::new(&url, &headers, &body)).unwrap();
    let twilio::WebhookPayload::MessageStatus(status) = received else {
        panic!("{received:?}")
    };
    assert_eq!(status.message_status, twilio::MessageStatus::Delivered);
    assert_eq!(status.to.as_deref(), Some("+14155550100"));
    // The signature covers the body: one changed byte is refused.
    let mut changed = body.clone();
    *changed.last_mut().unwrap() ^= 1;
    assert!(
        twilio::handle_webhook(&secrets, &WebhookRequest::new(&url, &headers, &changed)).is_err()
    );

    // Only as the API is called (its Basic auth), only what the payload type allows, only a
    // declared webhook.
    let anonymous = http
        .post(trigger("message_status"))
        .json(&payload)
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    let missing = http
        .post(trigger("message_status"))
        .basic_auth(&sid, Some(&token))
        .json(&serde_json::json!({"MessageStatus": "sent"}))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 422);
    assert!(missing.text().await.unwrap().contains("MessageSid"));
    let unknown = http
        .post(trigger("message_sent"))
        .basic_auth(&sid, Some(&token))
        .json(&payload)
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);
    assert!(unknown.text().await.unwrap().contains("`incoming_message`"));
    served.shutdown().await;

    // Without a webhook URL there is nowhere to deliver: said so, not dropped.
    let mut services = load(&spec("twilio.yaml")).unwrap();
    let served = ServedService::start(services.remove(0), ServeConfig::default())
        .await
        .unwrap();
    let nowhere = http
        .post(format!(
            "{}/__sandbox/webhooks/message_status",
            served.base_url()
        ))
        .basic_auth(
            served.credential("account_sid").unwrap(),
            served.credential("auth_token"),
        )
        .json(&payload)
        .send()
        .await
        .unwrap();
    assert_eq!(nowhere.status(), 409);
    assert!(nowhere.text().await.unwrap().contains("--webhook-url"));
    served.shutdown().await;
}

/// A spec's own webhooks: one told apart by a body field (filled when the payload leaves it
/// out) and signed with Standard Webhooks under the spec's variable, one by a header and
/// unsigned; the runtime's `receive` picks and verifies each as the generated client would.
#[tokio::test]
async fn served_webhooks_are_told_apart_by_field_or_header_as_declared() {
    use tidings_runtime::spec::{PayloadEncoding, STANDARD_WEBHOOKS, Select, WebhookSpec};
    use tidings_runtime::webhook::{WebhookRequest, WebhookSecrets, receive};
    static SPECS: [WebhookSpec; 2] = [
        WebhookSpec {
            name: "delivered",
            encoding: PayloadEncoding::Json,
            select: Some(Select::Field {
                name: "type",
                equals: Some("email.delivered"),
            }),
            signature: Some(&STANDARD_WEBHOOKS),
            secret_env: Some("HOOKS_WEBHOOK_SECRET"),
        },
        WebhookSpec {
            name: "ping",
            encoding: PayloadEncoding::Json,
            select: Some(Select::Header {
                name: "X-Hook",
                equals: Some("ping"),
            }),
            signature: None,
            secret_env: None,
        },
    ];
    let (hooks, mut deliveries) = receiver().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hooks.yaml");
    std::fs::write(
        &path,
        "service:\n  name: hooks\n  title: Hooks\n  summary: Events by field and header\n  \
         base_url: { env: HOOKS_BASE_URL }\n\
         credentials:\n  api_key: { env: HOOKS_API_KEY }\n\
         auth:\n  - { name: bearer, kind: bearer, credential: api_key }\n\
         types:\n  Delivered:\n    fields:\n      type: { type: string, required: true }\n      \
         email_id: { type: string, required: true }\n  Ping:\n    fields:\n      \
         at: { type: integer }\n\
         operations:\n  get_ping:\n    method: GET\n    path: /v1/pings/{id}\n    \
         path_params: { id: { type: string } }\n    response: Ping\n\
         events:\n  webhooks:\n    delivered:\n      type: Delivered\n      \
         select: { field: type, equals: email.delivered }\n      signature: standard_webhooks\n      \
         secret_env: HOOKS_WEBHOOK_SECRET\n    ping:\n      type: Ping\n      \
         select: { header: X-Hook, equals: ping }\n      signature: none\n",
    )
    .unwrap();
    let mut services = load(&path).unwrap();
    let mut config = ServeConfig::default();
    config.webhook_url = Some(format!("{hooks}/in"));
    let served = ServedService::start(services.remove(0), config)
        .await
        .unwrap();
    let secret = served
        .webhook_secret("HOOKS_WEBHOOK_SECRET")
        .unwrap()
        .to_owned();
    assert!(secret.starts_with("whsec_"), "{secret}");
    assert!(
        served
            .export_lines()
            .contains(&format!("export HOOKS_WEBHOOK_SECRET={secret}"))
    );
    let secrets = WebhookSecrets::new().with("standard_webhooks", secret);
    let http = tidings_runtime::reqwest::Client::new();
    let key = served.credential("api_key").unwrap().to_owned();
    for (name, payload, expected) in [
        ("delivered", serde_json::json!({"email_id": "em_1"}), 0),
        ("ping", serde_json::json!({"at": 7}), 1),
    ] {
        let answer = http
            .post(format!("{}/__sandbox/webhooks/{name}", served.base_url()))
            .bearer_auth(&key)
            .json(&payload)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 202, "{name}");
        let (path, headers, body) =
            tokio::time::timeout(std::time::Duration::from_secs(10), deliveries.recv())
                .await
                .unwrap()
                .unwrap();
        assert_eq!(path, "/in");
        let url = format!("{hooks}{path}");
        let picked = receive(
            &SPECS,
            &secrets,
            &WebhookRequest::new(&url, &headers, &body),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(picked, expected, "{name}");
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        if name == "delivered" {
            assert_eq!(
                body["type"], "email.delivered",
                "the selecting field is filled"
            );
            assert!(headers.contains_key("webhook-signature"));
        } else {
            assert_eq!(headers["x-hook"], "ping");
            assert!(!headers.contains_key("webhook-signature"));
        }
    }
    // Where each delivery stands, listed for the caller of the API.
    let mut listed = serde_json::Value::Null;
    for _ in 0..250 {
        listed = http
            .get(format!("{}/__sandbox/webhooks", served.base_url()))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if listed["deliveries"]
            .as_array()
            .is_some_and(|d| d.len() == 2 && d.iter().all(|d| d["outcome"] == "delivered"))
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let list = listed["deliveries"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{listed}");
    assert_eq!(list[0]["webhook"], "delivered");
    assert_eq!(list[0]["outcome"], "delivered", "{listed}");
    assert_eq!(list[0]["status"], 204);
    assert_eq!(list[1]["webhook"], "ping");
    let anonymous = http
        .get(format!("{}/__sandbox/webhooks", served.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    // A selecting field holding another value would be taken for another type: refused.
    let other = http
        .post(format!(
            "{}/__sandbox/webhooks/delivered",
            served.base_url()
        ))
        .bearer_auth(&key)
        .json(&serde_json::json!({"type": "email.bounced", "email_id": "em_1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 422);
    served.shutdown().await;
}

/// A multipart body's object field goes as a part of type `application/json` (OpenAPI's default
/// for it, `form_style: { nested: json }`), and `--spec` reads that part as the object: the
/// field's own required fields are checked and its values kept whole.
#[tokio::test]
async fn a_multipart_object_field_travels_as_a_json_part() {
    use tidings_runtime::Client;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("imports.yaml");
    std::fs::write(
        &path,
        "service:\n  name: imports\n  title: Imports\n  summary: Contact imports\n  \
         base_url: { env: IMPORTS_BASE_URL }\n\
         types:\n  Meta:\n    fields:\n      source: { type: string, required: true }\n      \
         seats: { type: integer }\n  Import:\n    fields:\n      id: { type: string }\n      \
         file: { type: bytes, required: true }\n      meta: { type: Meta, required: true }\n\
         operations:\n  create_import:\n    method: POST\n    path: /imports\n    body: Import\n    \
         body_encoding: multipart\n    form_style: { nested: json }\n    response: Import\n    \
         status: 201\n",
    )
    .unwrap();
    let mut services = load(&path).unwrap();
    let service = services.remove(0);
    let spec: &'static tidings_runtime::spec::ServiceSpec =
        Box::leak(Box::new(tidings_codegen::describe::service_spec(&service)));
    let op: &'static tidings_runtime::spec::OperationSpec = Box::leak(Box::new(
        tidings_codegen::describe::operation_spec(&service.operations[0]),
    ));
    let served = ServedService::start(service, ServeConfig::default())
        .await
        .unwrap();
    let client = Client::builder(spec)
        .base_url(served.base_url())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let tidings_runtime::spec::BodyEncoding::Multipart(style) = op.body_encoding else {
        panic!("{:?}", op.body_encoding)
    };
    assert_eq!(style.nested, tidings_runtime::spec::NestedStyle::Json);
    let file = tidings_runtime::form::FilePart::new("c.csv", "text/csv", b"email\n".to_vec());
    let send = |meta: serde_json::Value| {
        client.execute(
            tidings_runtime::Request::new(op)
                .multipart(&serde_json::json!({"file": file, "meta": meta}), style)
                .unwrap(),
        )
    };
    let created: serde_json::Value = send(serde_json::json!({"source": "crm", "seats": 3}))
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(
        created["meta"],
        serde_json::json!({"source": "crm", "seats": 3})
    );
    let refused = send(serde_json::json!({"seats": 3})).await.unwrap_err();
    assert_eq!(refused.status(), Some(422));
    assert!(refused.to_string().contains("meta.source"), "{refused}");
    served.shutdown().await;
}

/// A form has no way to write an empty list: a required list field sent empty is no part at
/// all (Mailgun's send with no `to`), read as the empty list; a list that must hold items is
/// still refused.
#[tokio::test]
async fn a_required_list_sent_empty_in_a_form_is_the_empty_list() {
    let (_dir, served) = served_named(
        "sends",
        "types:\n  Outgoing:\n    fields:\n      to: { type: list<string>, required: true }\n      \
         cc: { type: list<string>, required: true, min_items: 1 }\n      \
         subject: { type: string, required: true }\n  Sent:\n    fields:\n      id: { type: string }\n\
         operations:\n  send:\n    method: POST\n    path: /send\n    body: Outgoing\n    \
         body_encoding: multipart\n    response: Sent\n",
    )
    .await;
    let http = tidings_runtime::reqwest::Client::new();
    let send = |parts: &[(&str, &str)]| {
        let mut body = String::new();
        for (name, value) in parts {
            body.push_str(&format!(
                "--b0\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            ));
        }
        body.push_str("--b0--\r\n");
        http.post(format!("{}/send", served.base_url()))
            .header("content-type", "multipart/form-data; boundary=b0")
            .body(body)
            .send()
    };
    let ok = send(&[("subject", "Hi"), ("cc", "ops@example.com")])
        .await
        .unwrap();
    assert_eq!(ok.status(), 200, "{}", ok.text().await.unwrap());
    let refused = send(&[("subject", "Hi")]).await.unwrap();
    assert_eq!(refused.status(), 422);
    let text = refused.text().await.unwrap();
    assert!(
        text.contains("cc") && text.contains("at least 1 item"),
        "{text}"
    );
    served.shutdown().await;
}

/// Brevo's own document (an excerpt, imported unedited, `imported/brevo_imported.yaml`): its
/// contacts live through create, get, list (an offset-paged list answered inside an object,
/// every page), a partial update (`PUT` sends only what changes) and delete; contact ids are
/// integers as the document says; a transactional send answers a `messageId`, not the request.
#[tokio::test]
async fn brevo_contacts_live_through_create_get_list_update_delete() {
    use tidings_providers::brevo_imported::*;
    let served = serve("imported/brevo_imported.yaml").await;
    let client = BrevoImportedClient::builder()
        .base_url(served.base_url())
        .credential("api_key", served.credential("api_key").unwrap())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();

    let mut ids = Vec::new();
    for (email, name) in [
        ("elly@example.com", "Elly"),
        ("bo@example.com", "Bo"),
        ("cy@example.com", "Cy"),
    ] {
        let created = client
            .create_contact(&CreateContact::default().email(email).attributes([
                ("FNAME", CreateContactAttributesValue::from(name.to_owned())),
                (
                    "COUNTRIES",
                    CreateContactAttributesValue::ListString(vec!["India".into(), "China".into()]),
                ),
            ]))
            .await
            .unwrap()
            .expect("201 with a body");
        assert!(
            created.additional.is_empty(),
            "only `id` comes back: {created:?}"
        );
        ids.push(created.id.expect("an id"));
    }
    assert_eq!(ids, [1, 2, 3], "integer ids, as the document types them");

    let got = client
        .get_contact_info(&ids[0].to_string(), &GetContactInfoQuery::default())
        .await
        .unwrap();
    assert_eq!(got.email.as_deref(), Some("elly@example.com"));
    let by_email = client
        .get_contact_info("elly@example.com", &GetContactInfoQuery::default())
        .await
        .unwrap();
    assert_eq!(by_email.id, ids[0], "a contact is named by its email too");
    assert_eq!(
        got.attributes,
        serde_json::json!({"FNAME": "Elly", "COUNTRIES": ["India", "China"]})
    );
    assert!(
        tidings_runtime::dates::rfc3339_to_unix(&got.created_at).is_some(),
        "a made-up time is a time: {:?}",
        got.created_at
    );

    // Two per page: the stream asks for offsets 0 and 2 and stops at the short page.
    let all: Vec<_> = client
        .get_contacts_stream(&GetContactsQuery::default().limit(2))
        .collect()
        .await;
    let emails: Vec<String> = all
        .into_iter()
        .map(|c| c.unwrap().email.unwrap_or_default())
        .collect();
    assert_eq!(
        emails,
        ["elly@example.com", "bo@example.com", "cy@example.com"]
    );
    let first: serde_json::Value = tidings_runtime::reqwest::Client::new()
        .get(format!("{}/contacts?limit=2&offset=0", served.base_url()))
        .header("api-key", served.credential("api_key").unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(first["count"], 3, "the count is of every contact: {first}");
    assert_eq!(first["contacts"].as_array().map(Vec::len), Some(2));

    client
        .update_contact(
            &ids[1].to_string(),
            &UpdateContact::default().attributes([(
                "FNAME",
                UpdateContactAttributesValue::from("Bob".to_owned()),
            )]),
            &UpdateContactQuery::default(),
        )
        .await
        .unwrap();
    let updated = client
        .get_contact_info(&ids[1].to_string(), &GetContactInfoQuery::default())
        .await
        .unwrap();
    assert_eq!(updated.attributes["FNAME"], "Bob");
    assert_eq!(
        updated.email.as_deref(),
        Some("bo@example.com"),
        "what the update did not send is kept"
    );
    assert_eq!(updated.id, ids[1]);

    client
        .delete_contact(&ids[2].to_string(), &DeleteContactQuery::default())
        .await
        .unwrap();
    let gone = client
        .get_contact_info(&ids[2].to_string(), &GetContactInfoQuery::default())
        .await
        .unwrap_err();
    assert_eq!(gone.status(), Some(404));
    assert_eq!(
        gone.code(),
        Some("document_not_found"),
        "a code of the document's own enum: {gone}"
    );
    assert!(gone.to_string().contains("does not exist"), "{gone}");
    // Refused input too (the client refuses it before sending, so sent raw): a limit past the
    // document's maximum, in the enum's words.
    let refused = tidings_runtime::reqwest::Client::new()
        .get(format!("{}/contacts?limit=5000", served.base_url()))
        .header("api-key", served.credential("api_key").unwrap())
        .send()
        .await
        .unwrap();
    let status = refused.status().as_u16();
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(
        (status, &body["code"]),
        (400, &serde_json::json!("invalid_parameter")),
        "{body}"
    );

    let sent = client
        .send_transac_email(
            &SendSmtpEmail::default()
                .sender(SendSmtpEmailSender::default().email("shop@example.com"))
                .to([SendSmtpEmailToItem::new("elly@example.com")])
                .subject("Your order")
                .html_content("<p>Hello {{params.FNAME}}</p>")
                .params(serde_json::json!({"FNAME": "Elly", "ORDER": {"id": 7}})),
        )
        .await
        .unwrap();
    assert!(
        sent.message_id.as_deref().is_some_and(|id| !id.is_empty()),
        "{sent:?}"
    );
    assert!(
        sent.additional.is_empty(),
        "the request is not echoed: {sent:?}"
    );
    served.shutdown().await;
}

/// The imported Twilio and SendGrid excerpts (lists answered inside an object: `messages` with
/// `next_page_uri`, `result` with `_metadata.next`) served with `--spec`: what their generated
/// clients create, their streams list back, every item once, over every page.
#[tokio::test]
async fn imported_lists_inside_objects_stream_what_was_created() {
    use tidings_providers::{sendgrid_imported as sg, twilio_imported as tw};
    let served = serve("imported/twilio_imported.yaml").await;
    let client = tw::TwilioImportedClient::builder()
        .base_url(served.base_url())
        .credential("account_sid", served.credential("account_sid").unwrap())
        .credential("auth_token", served.credential("auth_token").unwrap())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let account = "AC0123456789abcdef0123456789abcdef";
    let mut sids = Vec::new();
    for to in ["+15558675310", "+15558675311", "+15558675312"] {
        let created = client
            .post_2010_04_01_accounts_messages_json(
                account,
                &tw::Post20100401AccountsMessagesJsonRequest::new(to).body("hi"),
            )
            .await
            .unwrap();
        sids.push(created.sid.expect("a sid"));
    }
    let listed: Vec<String> = client
        .get_2010_04_01_accounts_messages_json_stream(
            account,
            &tw::Get20100401AccountsMessagesJsonQuery::default().page_size(2),
        )
        .map(|m| m.unwrap().sid.unwrap_or_default())
        .collect()
        .await;
    assert_eq!(listed, sids, "two pages, by `next_page_uri`");
    served.shutdown().await;

    let served = serve("imported/sendgrid_imported.yaml").await;
    let client = sg::SendgridImportedClient::builder()
        .base_url(served.base_url())
        .api_key(served.credential("api_key").unwrap())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    for name in ["newsletter", "customers", "beta"] {
        client
            .post_marketing_lists(&sg::PostMarketingListsRequest::new(name))
            .await
            .unwrap();
    }
    let names: Vec<String> = client
        .get_marketing_lists_stream(&sg::GetMarketingListsQuery::default().page_size(1.0))
        .map(|l| l.unwrap().name.unwrap_or_default())
        .collect()
        .await;
    assert_eq!(
        names,
        ["newsletter", "customers", "beta"],
        "three pages, by `_metadata.next`"
    );
    // Its `next` is `format: uri`: an absolute URL on the served origin, not a path.
    let page: serde_json::Value = tidings_runtime::reqwest::Client::new()
        .get(format!("{}/marketing/lists?page_size=1", served.base_url()))
        .header("Authorization", served.credential("api_key").unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let next = page["_metadata"]["next"].as_str().unwrap_or_default();
    assert!(
        next.starts_with(&format!("{}/marketing/lists?", served.base_url())),
        "{page}"
    );
    served.shutdown().await;
}

/// Resend's own OpenAPI 3.1 document (an excerpt, imported unedited,
/// `imported/resend_imported.yaml`), served with `--spec` and called by its generated client:
/// a send to one address (`to` is a string or a list) reads back with that address, not `[]`;
/// the imported `Idempotency-Key` makes a repeated send the same email and a reused key with
/// another body a conflict; `GET /contacts` (a list inside `{"data": [...]}`, no paging) lists
/// what was created; `GET /emails` streams by its `after` cursor; and a delivery of the
/// `email.sent` webhook, signed as Standard Webhooks, is picked by its `type` constant and
/// verified by the client's `handle_webhook`.
#[tokio::test]
async fn resend_sends_contacts_and_signed_webhooks_live_as_its_3_1_document_says() {
    use tidings_providers::resend_imported::*;
    use tidings_runtime::webhook::{WebhookRequest, WebhookSecrets};
    let (hooks, mut deliveries) = receiver().await;
    let mut services = load(&spec("imported/resend_imported.yaml")).unwrap();
    let mut config = ServeConfig::default();
    config.webhook_url = Some(hooks.clone());
    let served = ServedService::start(services.remove(0), config)
        .await
        .unwrap();
    let client = ResendImportedClient::builder()
        .base_url(served.base_url())
        .api_key(served.credential("api_key").unwrap())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();

    // `to` is one address or a list (an untagged union): a `&str` is the one address.
    let one = SendEmailRequest::new("a@example.com", "Hi", "b@example.com").text("x");
    let sent = client.emails_send(&one).await.unwrap();
    let id = sent.id.expect("an id");
    let got = client.emails_get(&id).await.unwrap();
    assert_eq!(got.to, Some(vec!["b@example.com".to_owned()]), "{got:?}");
    assert_eq!(got.text.as_deref(), Some("x"));

    // The key the client sends (here chosen by the caller): the same send twice is one email.
    let keyed = client.with_options(tidings_runtime::CallOptions::new().idempotency_key("order-7"));
    let again = keyed.emails_send(&one).await.unwrap();
    let replay = keyed.emails_send(&one).await.unwrap();
    assert_eq!(again.id, replay.id);
    assert_ne!(again.id.as_deref(), Some(id.as_str()));
    let other = SendEmailRequest::new("a@example.com", "Hi", vec!["c@example.com".to_owned()]);
    let reused = keyed.emails_send(&other).await.unwrap_err();
    assert_eq!(reused.status(), Some(409), "{reused}");

    let listed: Vec<String> = client
        .emails_list_stream(&EmailsListQuery::default().limit(1))
        .map(|e| e.unwrap().id.unwrap_or_default())
        .collect()
        .await;
    assert_eq!(listed.len(), 2, "two emails, one per page: {listed:?}");
    assert_eq!(listed[0], id);

    let created = client
        .contacts_create(&CreateContactOptions::new("steve@example.com").first_name("Steve"))
        .await
        .unwrap();
    let contact = created.id.expect("a contact id");
    let contacts = client
        .contacts_list(&ContactsListQuery::default())
        .await
        .unwrap();
    let data = contacts.data.unwrap_or_default();
    assert_eq!(data.len(), 1, "what was created is listed");
    assert_eq!(data[0].id.as_deref(), Some(contact.as_str()));
    assert_eq!(data[0].email.as_deref(), Some("steve@example.com"));
    client.contacts_remove(&contact).await.unwrap();
    let contacts = client
        .contacts_list(&ContactsListQuery::default())
        .await
        .unwrap();
    assert_eq!(contacts.data.unwrap_or_default().len(), 0);

    // `email.sent`, delivered signed; the `type` that selects it is filled in.
    let queued = tidings_runtime::reqwest::Client::new()
        .post(format!(
            "{}/__sandbox/webhooks/email_sent",
            served.base_url()
        ))
        .bearer_auth(served.credential("api_key").unwrap())
        .json(&serde_json::json!({
            "created_at": "2026-11-27T10:00:00Z",
            "data": {
                "created_at": "2026-11-27T10:00:00Z",
                "email_id": id,
                "from": "a@example.com",
                "subject": "Hi",
                "to": ["b@example.com"],
            },
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(queued.status(), 202, "{:?}", queued.text().await);
    let (path, headers, body) =
        tokio::time::timeout(std::time::Duration::from_secs(10), deliveries.recv())
            .await
            .unwrap()
            .unwrap();
    let secret = served
        .webhook_secret("COMMS_RESEND_IMPORTED_WEBHOOK_SECRET")
        .expect("a webhook secret")
        .to_owned();
    let url = format!("{hooks}{path}");
    let received = handle_webhook(
        &WebhookSecrets::all(secret.clone()),
        &WebhookRequest::new(&url, &headers, &body),
    )
    .unwrap();
    let WebhookPayload::EmailSent(event) = received else {
        panic!("{received:?}")
    };
    assert_eq!(event.r#type, "email.sent");
    assert_eq!(event.data.email_id, id);
    let mut changed = body.clone();
    *changed.last_mut().unwrap() ^= 1;
    assert!(
        handle_webhook(
            &WebhookSecrets::all(secret),
            &WebhookRequest::new(&url, &headers, &changed)
        )
        .is_err()
    );
    served.shutdown().await;
}

/// Mailgun's shapes, served: answers that hold the item in a field of their own
/// (`{"list": {...}}`, `{"message": ..., "list": {...}}`), items named by their address, and
/// `GET /v3/lists/pages` listing what `POST /v3/lists` created.
#[tokio::test]
async fn wrapped_items_and_a_pages_listing_live_as_mailgun_answers_them() {
    let (_dir, served) = served_named(
        "lists",
        "types:\n  MailingList:\n    fields:\n      address: { type: string, required: true }\n      \
         name: { type: string }\n      members_count: { type: integer }\n  \
         NewList:\n    fields:\n      address: { type: string, required: true }\n      name: { type: string }\n  \
         ListAnswer:\n    fields:\n      message: { type: string }\n      list: { type: MailingList }\n  \
         Paging:\n    fields:\n      next: { type: string }\n  \
         ListPage:\n    fields:\n      items: { type: list<MailingList> }\n      paging: { type: Paging }\n\
         operations:\n  create_list:\n    method: POST\n    path: /v3/lists\n    body: NewList\n    \
         response: ListAnswer\n  list_pages:\n    method: GET\n    path: /v3/lists/pages\n    \
         response: ListPage\n  get_list:\n    method: GET\n    path: /v3/lists/{list_address}\n    \
         path_params: { list_address: { type: string } }\n    response: ListAnswer\n",
    )
    .await;
    let http = tidings_runtime::reqwest::Client::new();
    let base = served.base_url().to_owned();
    for (address, name) in [("devs@example.com", "Devs"), ("ops@example.com", "Ops")] {
        let created: serde_json::Value = http
            .post(format!("{base}/v3/lists"))
            .json(&serde_json::json!({"address": address, "name": name}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(created["list"]["address"], address, "{created}");
        assert_eq!(created["list"]["name"], name);
        assert!(
            created.get("address").is_none(),
            "inside `list` only: {created}"
        );
    }
    let page: serde_json::Value = http
        .get(format!("{base}/v3/lists/pages"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let addresses: Vec<&str> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["address"].as_str().unwrap())
        .collect();
    assert_eq!(addresses, ["devs@example.com", "ops@example.com"], "{page}");
    let got: serde_json::Value = http
        .get(format!("{base}/v3/lists/ops@example.com"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(got["list"]["name"], "Ops", "{got}");
    served.shutdown().await;
}

/// Infobip's voice document (an excerpt of its call routes, imported unedited,
/// `imported/infobip_voice_imported.yaml`), served with `--spec` and called by its generated
/// client: the key goes as `Authorization: App <key>`; routes whose destinations are a union
/// told apart by `type` are created, read back whole, listed page by page through the
/// optional `paging` object's `totalPages`, replaced and deleted; a refused route comes back
/// with the operation's own code and message, and a missing one with the service's.
#[tokio::test]
async fn infobip_call_routes_live_through_create_get_list_update_delete() {
    use tidings_providers::infobip_voice_imported::*;
    let served = serve("imported/infobip_voice_imported.yaml").await;
    let key = served.credential("api_key").unwrap();
    let client = InfobipVoiceImportedClient::builder()
        .base_url(served.base_url())
        .api_key(key)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let to =
        |url: &str| Destination::Url(UrlDestination::new(DestinationType::Url, url.to_owned()));
    let mut ids = Vec::new();
    for i in 0..5 {
        let route = RouteRequest::new(
            [to(&format!("https://example.com/calls/{i}"))],
            format!("route {i}"),
        );
        let created = client.create_call_route(&route).await.unwrap();
        ids.push(created.id);
    }
    let first = client.get_call_route(&ids[0]).await.unwrap();
    assert_eq!(first.name, "route 0");
    match &first.destinations[..] {
        [Destination::Url(d)] => assert_eq!(d.url, "https://example.com/calls/0"),
        other => panic!("{other:?}"),
    }
    // Three pages of two, by page number, until `paging.totalPages`.
    let names: Vec<String> = client
        .get_call_routes_stream(&GetCallRoutesQuery::default().size(2))
        .map(|r| r.unwrap().name)
        .collect()
        .await;
    assert_eq!(
        names,
        ["route 0", "route 1", "route 2", "route 3", "route 4"]
    );
    let page = client
        .get_call_routes(&GetCallRoutesQuery::default().size(2))
        .await
        .unwrap();
    assert_eq!(page.paging.map(|p| p.total_pages), Some(3));

    let renamed = client
        .update_call_route(
            &ids[1],
            &RouteRequest::new([to("https://example.com/other")], "renamed"),
        )
        .await
        .unwrap();
    assert_eq!(renamed.name, "renamed");
    client.delete_call_route(&ids[2]).await.unwrap();

    // A route without destinations is refused by the client before it is sent (`minItems`);
    // sent anyway, the served API answers the operation's own error body.
    let empty = RouteRequest::new(Vec::<Destination>::new(), "no destinations");
    let err = client.create_call_route(&empty).await.unwrap_err();
    assert!(err.api_error().is_none(), "{err}");
    assert!(err.to_string().contains("destinations"), "{err}");
    let refused: serde_json::Value = tidings_runtime::reqwest::Client::new()
        .post(format!("{}/callrouting/1/routes", served.base_url()))
        .header("Authorization", format!("App {key}"))
        .json(&serde_json::json!({"name": "x", "destinations": []}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    // A refusal of the request's values keeps the gateway's code: the 400's one documented
    // example (`E400`, "Request cannot be processed.") cannot say what each value is.
    assert_eq!(refused["errorCode"], "validation_error", "{refused}");
    assert!(
        refused["description"]
            .as_str()
            .is_some_and(|m| m.contains("destinations")),
        "{refused}"
    );
    let err = client.get_call_route(&ids[2]).await.unwrap_err();
    let e = err.api_error().unwrap();
    assert_eq!(e.status, 404);
    assert_eq!(e.code.as_deref(), Some("not_found"), "{e:?}");
    // Without the `App ` prefix the key is refused.
    let bare = tidings_runtime::reqwest::Client::new()
        .get(format!("{}/callrouting/1/routes", served.base_url()))
        .header("Authorization", key)
        .send()
        .await
        .unwrap();
    assert_eq!(bare.status(), 401);
    served.shutdown().await;
}

/// Mailgun's bounces (an excerpt of its published document, imported unedited,
/// `imported/mailgun_imported.yaml`), served with `--spec` and called by its generated client
/// over HTTP Basic with the user name Mailgun fixes (`api`) and the key as the password: five
/// bounces added in one call (a JSON list), each read back by the address its path is keyed
/// by, listed page by page through the `paging.next` URLs (Mailgun gives one on the empty page
/// after the last, which ends the stream), and deleted.
#[tokio::test]
async fn mailgun_bounces_live_through_a_list_add_get_paged_list_and_delete() {
    use tidings_providers::mailgun_imported::*;
    let served = serve("imported/mailgun_imported.yaml").await;
    let user = served.credential("basic_auth_username").unwrap().to_owned();
    assert_eq!(user, "api", "the user name the document fixes");
    // Only the key is given: the client sends `api` as the user name by itself.
    let client = MailgunImportedClient::builder()
        .base_url(served.base_url())
        .api_key(served.credential("api_key").unwrap())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let domain = "example.com";
    let bounces: Vec<Bounce> = (0..5)
        .map(|i| {
            Bounce::new(
                format!("b{i}@example.com"),
                "550",
                format!("no mailbox {i}"),
            )
        })
        .collect();
    client
        .post_v3_domain_id_bounces(domain, &bounces)
        .await
        .unwrap();
    let got = client
        .get_v3_domain_id_bounces_address(domain, "b3@example.com")
        .await
        .unwrap();
    assert_eq!(
        (got.code.as_str(), got.error.as_str()),
        ("550", "no mailbox 3")
    );

    let query = GetV3DomainIdBouncesQuery::new(2, "", "");
    let page = client
        .get_v3_domain_id_bounces(domain, &query)
        .await
        .unwrap();
    assert_eq!(page.items.len(), 2);
    assert!(page.paging.next.contains("limit=2"), "{:?}", page.paging);
    let addresses: Vec<String> = client
        .get_v3_domain_id_bounces_stream(domain, &query)
        .map(|b| b.unwrap().address)
        .collect()
        .await;
    let all: Vec<String> = (0..5).map(|i| format!("b{i}@example.com")).collect();
    assert_eq!(addresses, all);
    // Walked as Mailgun's own clients walk (follow `paging.next`, which the document requires,
    // until a page has no items): the last page with items links to the empty page past it,
    // whose own link is empty. An empty link on the last page failed each such walk.
    let http = tidings_runtime::reqwest::Client::new();
    let key = served.credential("api_key").unwrap().to_owned();
    let mut next = page.paging.next.clone();
    let mut sizes = vec![page.items.len()];
    while !next.is_empty() && sizes.len() < 10 {
        let url = if next.starts_with("http") {
            next.clone()
        } else {
            format!("{}{next}", served.base_url())
        };
        let at: serde_json::Value = http
            .get(url)
            .basic_auth(&user, Some(&key))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        sizes.push(at["items"].as_array().map_or(99, Vec::len));
        next = at["paging"]["next"].as_str().unwrap_or_default().to_owned();
    }
    assert_eq!(sizes, [2, 2, 1, 0], "pages walked by their links");

    // Mailgun's own clients add one bounce as a form (the document takes JSON and form
    // data): taken as one item of the list, and read back by its address.
    let form = [
        ("address", "f@example.com"),
        ("code", "550"),
        ("error", "full"),
    ];
    let auth = format!(
        "Basic {}",
        base64::Engine::encode(
            &base64::engine::general_purpose::STANDARD,
            format!("{user}:{}", served.credential("api_key").unwrap())
        )
    );
    let (status, added) = post_form(&served, &auth, "/v3/example.com/bounces", &form).await;
    assert_eq!(status, 200, "{added}");
    let got = client
        .get_v3_domain_id_bounces_address(domain, "f@example.com")
        .await
        .unwrap();
    assert_eq!(got.error, "full");
    client
        .delete_v3_domain_id_bounces_address(domain, "b1@example.com")
        .await
        .unwrap();
    let err = client
        .get_v3_domain_id_bounces_address(domain, "b1@example.com")
        .await
        .unwrap_err();
    assert_eq!(err.api_error().map(|e| e.status), Some(404), "{err}");
    // Bounces of another domain are another collection.
    let other = client
        .get_v3_domain_id_bounces("example.org", &query)
        .await
        .unwrap();
    assert!(other.items.is_empty(), "{other:?}");
    // A wrong password is refused.
    let refused = tidings_runtime::reqwest::Client::new()
        .get(format!(
            "{}/v3/{domain}/bounces/b0@example.com",
            served.base_url()
        ))
        .basic_auth(&user, Some("wrong"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    served.shutdown().await;
}

#[tokio::test]
async fn a_head_operation_answers_whether_the_item_is_there_without_a_body() {
    // Infobip's WhatsApp media metadata is a HEAD (its answer is headers): imported now, and
    // served as the store's read, without the body.
    let (_dir, served) = served_named(
        "media",
        "types:\n  Media:\n    fields:\n      id: { type: string }\n      name: { type: string }\n\
         operations:\n  create_media:\n    method: POST\n    path: /media\n    body: Media\n    \
         response: Media\n    status: 201\n    response_headers: { Location: {} }\n  \
         get_media:\n    method: GET\n    path: /media/{id}\n    \
         path_params: { id: { type: string } }\n    response: Media\n  \
         media_metadata:\n    method: HEAD\n    path: /media/{id}\n    \
         path_params: { id: { type: string } }\n    \
         response_headers: { X-Media-Size: { type: integer }, ETag: {} }\n",
    )
    .await;
    let http = tidings_runtime::reqwest::Client::new();
    let created = http
        .post(format!("{}/media", served.base_url()))
        .json(&serde_json::json!({"name": "cat.jpg"}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    // The documented `Location` is the path of the operation that gets the item.
    let location = created.headers()["location"].to_str().unwrap().to_owned();
    let created: serde_json::Value = created.json().await.unwrap();
    let id = created["id"].as_str().unwrap();
    assert_eq!(location, format!("/media/{id}"));
    let got = http
        .get(format!("{}{location}", served.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(got.status(), 200);
    assert!(
        got.headers().get("location").is_none(),
        "not documented there"
    );
    let there = http
        .head(format!("{}/media/{id}", served.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(there.status(), 200);
    // What a HEAD tells is in its documented headers.
    let size: i64 = there.headers()["x-media-size"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(size >= 1);
    assert!(there.headers().contains_key("etag"));
    assert!(there.bytes().await.unwrap().is_empty());
    let missing = http
        .head(format!("{}/media/nothing-here", served.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
}

/// An object query parameter imported as the parameters its style writes (`deepObject`:
/// `filter[status]`) is served that way: required properties are required, each is checked
/// against its own schema (type, maximum), and a call that writes them as the document says
/// is answered.
#[tokio::test]
async fn an_object_query_parameter_is_served_as_the_parameters_its_style_writes() {
    use tidings_codegen::import::{ImportOptions, import_openapi};
    let doc = serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Objects", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": {"/emails": {"get": {
            "operationId": "list_emails",
            "parameters": [{"name": "filter", "in": "query", "required": true,
                "style": "deepObject", "schema": {"type": "object", "required": ["status"],
                "properties": {"status": {"type": "string", "enum": ["sent", "bounced"]},
                               "limit": {"type": "integer", "maximum": 100}}}}],
            "responses": {"200": {"description": "", "content": {"application/json": {"schema": {
                "type": "object", "properties": {"count": {"type": "integer"}}}}}}}
        }}}
    });
    let imported = import_openapi(
        &doc.to_string(),
        &ImportOptions::new("objects", "objects.json"),
        None,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("objects.yaml");
    std::fs::write(&path, &imported.yaml).unwrap();
    let mut services = load(&path).unwrap();
    let served = ServedService::start(services.remove(0), ServeConfig::default())
        .await
        .unwrap();
    let get = |query: &'static str| call_json(&served, ("x-none", ""), "GET", query, None);
    let (status, body) = get("/emails?filter%5Bstatus%5D=sent&filter%5Blimit%5D=10").await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = get("/emails?filter[status]=bounced").await;
    assert_eq!(status, 200, "brackets as written: {body}");
    let (status, body) = get("/emails?filter%5Blimit%5D=10").await;
    assert_eq!(status, 422, "{body}");
    assert!(body.to_string().contains("filter[status]"), "{body}");
    let (status, body) = get("/emails?filter%5Bstatus%5D=sent&filter%5Blimit%5D=ten").await;
    assert_eq!(status, 422, "not an integer: {body}");
    let (status, body) = get("/emails?filter%5Bstatus%5D=sent&filter%5Blimit%5D=1000").await;
    assert_eq!(status, 422, "over the property's maximum: {body}");
}

/// Ably's `DELETE /push/deviceRegistrations?clientId=alice` unregisters Alice's devices. It
/// was served as an action that kept everything and answered 204. It removes the items its
/// filter selects now, and without a filter in the query it removes none.
#[tokio::test]
async fn a_collection_delete_removes_the_items_its_filter_selects() {
    let document = serde_json::json!({
        "openapi": "3.0.3",
        "info": { "title": "Devices", "version": "1" },
        "paths": {
            "/devices": {
                "post": { "operationId": "register_device",
                    "requestBody": { "required": true, "content": { "application/json": {
                        "schema": { "$ref": "#/components/schemas/Device" } } } },
                    "responses": { "201": { "description": "ok", "content": {
                        "application/json": { "schema": { "$ref": "#/components/schemas/Device" } } } } } },
                "delete": { "operationId": "unregister_devices",
                    "parameters": [{ "name": "clientId", "in": "query", "schema": { "type": "string" } }],
                    "responses": { "204": { "description": "gone" } } }
            },
            "/devices/{id}": { "get": { "operationId": "get_device",
                "parameters": [{ "name": "id", "in": "path", "required": true,
                                 "schema": { "type": "string" } }],
                "responses": { "200": { "description": "ok", "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/Device" } } } } } } }
        },
        "components": { "schemas": { "Device": { "type": "object", "properties": {
            "id": { "type": "string" }, "clientId": { "type": "string" } } } } }
    });
    let (served, _dir) = serve_document(&document.to_string(), "devices.json", "devices").await;
    let key = ("x-unused", "none");
    for (id, client) in [("dev1", "alice"), ("dev2", "alice"), ("dev3", "bob")] {
        let body = serde_json::json!({ "id": id, "clientId": client });
        let (status, _) = call_json(&served, key, "POST", "/devices", Some(body)).await;
        assert_eq!(status, 201);
    }
    let (status, _) = call_json(&served, key, "DELETE", "/devices", None).await;
    assert_eq!(status, 204);
    let (status, _) = call_json(&served, key, "DELETE", "/devices?clientId=alice", None).await;
    assert_eq!(status, 204);
    for (id, kept) in [("dev1", false), ("dev2", false), ("dev3", true)] {
        let (status, _) = call_json(&served, key, "GET", &format!("/devices/{id}"), None).await;
        assert_eq!(status == 200, kept, "{id}: {status}");
    }
}

/// An error's code header says the code as its body gives it: Ably documents
/// `x-ably-errorcode` as an integer beside a body whose `code` is one, and the header said
/// `not_found` where the body said 404 (was).
#[tokio::test]
async fn an_error_code_header_says_the_code_as_the_body_gives_it() {
    let (_dir, served) = served_named(
        "channels",
        "types:\n  Channel:\n    fields:\n      id: { type: string }\n  \
         Failure:\n    fields:\n      code: { type: integer }\n      message: { type: string }\n\
         operations:\n  get_channel:\n    method: GET\n    path: /channels/{id}\n    \
         path_params: { id: { type: string } }\n    response: Channel\n    error_bodies:\n      \
         default: { type: Failure, code: code, message: message, headers: [x-error-code] }\n",
    )
    .await;
    let answer = tidings_runtime::reqwest::get(format!("{}/channels/nope", served.base_url()))
        .await
        .unwrap();
    assert_eq!(answer.status(), 404);
    let header = answer.headers()["x-error-code"]
        .to_str()
        .unwrap()
        .to_owned();
    let body: serde_json::Value = answer.json().await.unwrap();
    assert_eq!(body["code"], 404, "{body}");
    assert_eq!(header, "404", "{body}");
    served.shutdown().await;
}

/// Telnyx filters its lists with `deepObject` parameters (`filter[name]=beta`, written by the
/// importer as its properties): the sandbox answered every item (was); it answers those whose
/// `name` is `beta`. `filter[name][contains]` answered every item too (was): it keeps the
/// names that hold the text, in any case, and `[gte]`/`[lt]` compare.
#[tokio::test]
async fn a_deep_object_filter_selects_the_items_its_key_names() {
    let (_dir, served) = served_named(
        "profiles",
        "types:\n  Profile:\n    fields:\n      id: { type: string, read_only: true }\n      \
         name: { type: string }\n  \
         Profiles:\n    fields:\n      data: { type: list<Profile> }\n  \
         Made:\n    fields:\n      data: { type: Profile }\n\
         operations:\n  list_profiles:\n    method: GET\n    path: /messaging_profiles\n    \
         query:\n      filter[name]: {}\n      filter[name][contains]: {}\n      \
         filter[name][gte]: {}\n      filter[name][lt]: {}\n    response: Profiles\n  \
         create_profile:\n    method: POST\n    path: /messaging_profiles\n    body: Profile\n    \
         response: Made\n",
    )
    .await;
    let http = tidings_runtime::reqwest::Client::new();
    let url = format!("{}/messaging_profiles", served.base_url());
    for name in ["alpha", "beta", "gamma"] {
        let made = http
            .post(&url)
            .json(&serde_json::json!({"name": name}))
            .send();
        assert_eq!(made.await.unwrap().status(), 200);
    }
    let names = |query: &'static str| {
        let answer = http.get(format!("{url}?{query}")).send();
        async move {
            let listed: serde_json::Value = answer.await.unwrap().json().await.unwrap();
            listed["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["name"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(names("filter%5Bname%5D=beta").await, ["beta"]);
    assert_eq!(names("filter[name]=gamma").await, ["gamma"]);
    assert_eq!(names("filter[name][contains]=a").await.len(), 3);
    assert_eq!(names("filter[name][contains]=MM").await, ["gamma"]);
    assert!(names("filter[name][contains]=zzz").await.is_empty());
    assert_eq!(names("filter[name][gte]=beta").await, ["beta", "gamma"]);
    assert_eq!(names("filter[name][lt]=beta").await, ["alpha"]);
    served.shutdown().await;
}

/// Telnyx's "cancel a scheduled message" is `DELETE /messages/{id}` (`CancelMessage`), and a
/// cancelled message is still read for days: the sandbox deleted it (a later `GET` answered
/// 404). A `DELETE` named for cancelling keeps the item, its status at the enum's
/// `cancelled`, and answers it; an id never made is still 404.
#[tokio::test]
async fn a_delete_named_for_cancelling_keeps_the_item() {
    let (_dir, served) = served_named(
        "texts",
        "types:\n  Status:\n    values: [scheduled, sent, cancelled]\n  \
         Message:\n    fields:\n      id: { type: string, read_only: true }\n      \
         text: { type: string }\n      status: { type: Status }\n\
         operations:\n  send_message:\n    method: POST\n    path: /messages\n    \
         body: Message\n    response: Message\n  \
         get_message:\n    method: GET\n    path: /messages/{id}\n    \
         path_params: { id: { type: string } }\n    response: Message\n  \
         cancel_message:\n    method: DELETE\n    path: /messages/{id}\n    \
         path_params: { id: { type: string } }\n    response: Message\n",
    )
    .await;
    let http = tidings_runtime::reqwest::Client::new();
    let url = format!("{}/messages", served.base_url());
    let sent = serde_json::json!({"text": "later", "status": "scheduled"});
    let sent: serde_json::Value = http
        .post(&url)
        .json(&sent)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = sent["id"].as_str().unwrap();
    let cancelled = http.delete(format!("{url}/{id}")).send().await.unwrap();
    assert_eq!(cancelled.status(), 200);
    let cancelled: serde_json::Value = cancelled.json().await.unwrap();
    assert_eq!(
        (&cancelled["text"], &cancelled["status"]),
        (&"later".into(), &"cancelled".into()),
        "{cancelled}"
    );
    let read = http.get(format!("{url}/{id}")).send().await.unwrap();
    assert_eq!(read.status(), 200);
    let read: serde_json::Value = read.json().await.unwrap();
    assert_eq!(read["status"], "cancelled", "{read}");
    let unknown = http.delete(format!("{url}/nope")).send().await.unwrap();
    assert_eq!(unknown.status(), 404);
    served.shutdown().await;
}

/// Telnyx documents its error examples once (`10005` "Resource not found" for a 404, `10009`
/// for a 401, on the get of a profile) while every operation answers them in the same type
/// (`4XX`): an update of a profile never made answered the sandbox's own `not_found`. An
/// operation that documents no example of a status answers the one another documents for it.
#[tokio::test]
async fn an_error_example_documented_once_is_what_every_operation_answers_in_its_status() {
    let document = r##"
openapi: 3.1.0
info: { title: Profiles, version: "1" }
security: [ { bearer: [] } ]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
  schemas:
    Error:
      type: object
      required: [code, title]
      properties: { code: { type: string }, title: { type: string }, detail: { type: string } }
    Errors:
      type: object
      properties:
        request_id: { type: string }
        errors: { type: array, items: { $ref: "#/components/schemas/Error" } }
    Profile: { type: object, properties: { id: { type: string, readOnly: true }, name: { type: string } } }
  responses:
    Generic: { description: error, content: { application/json: { schema: { $ref: "#/components/schemas/Errors" } } } }
    NotFound:
      description: not found
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Errors" }
          example: { request_id: fixed-in-the-document, errors: [ { code: "10005", title: Resource not found, detail: The requested resource could not be found. } ] }
    Unauthorized:
      description: unauthorized
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Errors" }
          example: { errors: [ { code: "10009", title: Authentication failed } ] }
paths:
  /profiles:
    post:
      operationId: CreateProfile
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Profile" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Profile" } } } }
        4XX: { $ref: "#/components/responses/Generic" }
  /profiles/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: GetProfile
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Profile" } } } }
        "401": { $ref: "#/components/responses/Unauthorized" }
        "404": { $ref: "#/components/responses/NotFound" }
        4XX: { $ref: "#/components/responses/Generic" }
    patch:
      operationId: UpdateProfile
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Profile" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Profile" } } } }
        4XX: { $ref: "#/components/responses/Generic" }
"##;
    let (served, _dir) = serve_document(document, "profiles.yaml", "profiles").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let body = serde_json::json!({"name": "renamed"});
    let (status, missing) =
        call_json(&served, key, "PATCH", "/profiles/nope", Some(body.clone())).await;
    assert_eq!(status, 404, "{missing}");
    assert_eq!(
        (
            &missing["errors"][0]["code"],
            &missing["errors"][0]["title"]
        ),
        (&"10005".into(), &"Resource not found".into()),
        "{missing}"
    );
    // Its request id is this answer's own, not the document's.
    let request_id = missing["request_id"].as_str().unwrap_or_default();
    assert!(
        !request_id.is_empty() && request_id != "fixed-in-the-document",
        "{missing}"
    );
    let wrong = ("authorization", "Bearer wrong");
    let (status, refused) = call_json(&served, wrong, "PATCH", "/profiles/nope", Some(body)).await;
    assert_eq!(
        (status, &refused["errors"][0]["code"]),
        (401, &"10009".into()),
        "{refused}"
    );
    // A refusal of the request's values says what it refuses, not an example's words.
    let (status, invalid) = call_json(
        &served,
        key,
        "POST",
        "/profiles",
        Some(serde_json::json!({"name": 7})),
    )
    .await;
    assert!(matches!(status, 400 | 422), "{invalid}");
    assert_ne!(invalid["errors"][0]["code"], "10005", "{invalid}");
}

/// Intercom types `{conversation_id}` (get) and `{contact_id}` (a note's create) as integers,
/// while the ids it answers are text: the sandbox made `res_00000001`, which no such path
/// could name (422), so a conversation was never read back and no note ever made. Items an
/// integer path parameter names (in its own operations or above another's) get ids of digits,
/// still text where the answer's id field is.
#[tokio::test]
async fn items_an_integer_path_parameter_names_get_ids_of_digits() {
    let (_dir, served) = served_named(
        "desk",
        "types:\n  Contact:\n    fields:\n      id: { type: string, read_only: true }\n      \
         email: { type: string }\n  \
         Note:\n    fields:\n      id: { type: string, read_only: true }\n      body: { type: string }\n\
         operations:\n  create_contact:\n    method: POST\n    path: /contacts\n    \
         body: Contact\n    response: Contact\n  \
         get_contact:\n    method: GET\n    path: /contacts/{contact_id}\n    \
         path_params: { contact_id: { type: string } }\n    response: Contact\n  \
         create_note:\n    method: POST\n    path: /contacts/{contact_id}/notes\n    \
         path_params: { contact_id: { type: integer } }\n    body: Note\n    response: Note\n",
    )
    .await;
    let http = tidings_runtime::reqwest::Client::new();
    let url = format!("{}/contacts", served.base_url());
    let made: serde_json::Value = http
        .post(&url)
        .json(&serde_json::json!({"email": "ada@example.com"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = made["id"].as_str().expect("a text id");
    assert!(id.chars().all(|c| c.is_ascii_digit()), "{made}");
    let read = http.get(format!("{url}/{id}")).send().await.unwrap();
    assert_eq!(read.status(), 200);
    let note = http
        .post(format!("{url}/{id}/notes"))
        .json(&serde_json::json!({"body": "called"}))
        .send()
        .await
        .unwrap();
    assert_eq!(note.status(), 200);
    served.shutdown().await;
}

/// Intercom's contact answers `type: "contact"` (an example, no enum) and Zulip's answers
/// `msg: ""`: the sandbox made those fields up as their own names (`"type"`, `"msg"`). A text
/// field's example is kept by the import and answered where the field is made up; what a
/// request sends still wins, and an id stays one of its own.
#[tokio::test]
async fn a_text_field_s_example_is_what_a_made_up_answer_says() {
    let document = r##"
openapi: 3.0.1
info: { title: Contacts, version: "1" }
security: [ { bearer: [] } ]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
  schemas:
    Contact:
      type: object
      required: [type, id, role]
      properties:
        type: { type: string, example: contact, readOnly: true }
        id: { type: string, example: 5ba682d23d7cf92bef87bfd4, readOnly: true }
        role: { type: string, example: user }
        email: { type: string }
paths:
  /contacts:
    post:
      operationId: CreateContact
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Contact" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Contact" } } } }
"##;
    let (served, dir) = serve_document(document, "contacts.yaml", "contacts").await;
    let spec = std::fs::read_to_string(dir.path().join("contacts.yaml")).unwrap();
    assert!(spec.contains("example: contact"), "{spec}");
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let body = serde_json::json!({"email": "ada@example.com", "role": "lead"});
    let (status, made) = call_json(&served, key, "POST", "/contacts", Some(body)).await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(
        (&made["type"], &made["role"]),
        (&"contact".into(), &"lead".into()),
        "{made}"
    );
    assert_ne!(made["id"], "5ba682d23d7cf92bef87bfd4", "{made}");
}

/// Intercom attaches a tag to a contact by its id (`POST /contacts/{contact_id}/tags {id}`),
/// answering the tag: the sandbox answered the request's `{id}`, and attached an id no tag
/// has. The attach answers the tag as `/tags` holds it, and refuses an unknown one with the
/// documented 404; the contact's list shows the tag.
#[tokio::test]
async fn an_attach_by_identifier_answers_the_item_it_names_and_refuses_an_unknown_one() {
    let document = r##"
openapi: 3.0.3
info: { title: Tags, version: "1" }
security: [ { bearer: [] } ]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
  schemas:
    contact: { type: object, properties: { id: { type: string }, email: { type: string } } }
    tag: { type: object, properties: { id: { type: string }, name: { type: string } } }
    tag_list: { type: object, properties: { data: { type: array, items: { $ref: "#/components/schemas/tag" } } } }
paths:
  /contacts:
    post:
      operationId: createContact
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/contact" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/contact" } } } } }
  /tags:
    post:
      operationId: createTag
      requestBody: { content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/tag" } } } } }
  /contacts/{contact_id}/tags:
    parameters: [ { name: contact_id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: listTagsForContact
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/tag_list" } } } } }
    post:
      operationId: attachTagToContact
      requestBody: { content: { application/json: { schema: { type: object, required: [id], properties: { id: { type: string } } } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/tag" } } } }
        "404": { description: not found }
  /contacts/{contact_id}/tags/{tag_id}:
    parameters:
      - { name: contact_id, in: path, required: true, schema: { type: string } }
      - { name: tag_id, in: path, required: true, schema: { type: string } }
    delete:
      operationId: detachTagFromContact
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/tag" } } } } }
"##;
    let (served, _dir) = serve_document(document, "tags.yaml", "tags").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let ada = serde_json::json!({"email": "ada@example.com"});
    let (_, contact) = call_json(&served, key, "POST", "/contacts", Some(ada)).await;
    let vip = serde_json::json!({"name": "vip"});
    let (_, tag) = call_json(&served, key, "POST", "/tags", Some(vip)).await;
    let tags = format!("/contacts/{}/tags", contact["id"].as_str().unwrap());
    let attach = serde_json::json!({"id": tag["id"]});
    let (status, attached) = call_json(&served, key, "POST", &tags, Some(attach)).await;
    assert_eq!(
        (status, &attached["name"]),
        (200, &"vip".into()),
        "{attached}"
    );
    assert_eq!(attached["id"], tag["id"], "{attached}");
    // Attaching it again answers it again (it was a 409 no operation documents), listed once.
    let again = serde_json::json!({"id": tag["id"]});
    let (status, twice) = call_json(&served, key, "POST", &tags, Some(again)).await;
    assert_eq!((status, &twice["id"]), (200, &tag["id"]), "{twice}");
    let unknown = serde_json::json!({"id": "no_such_tag"});
    let (status, refused) = call_json(&served, key, "POST", &tags, Some(unknown)).await;
    assert_eq!(status, 404, "{refused}");
    let (_, listed) = call_json(&served, key, "GET", &tags, None).await;
    let names: Vec<&str> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(names, ["vip"], "{listed}");
    // Detaching answers the tag with its fields (it answered `{id}`).
    let one = format!("{tags}/{}", tag["id"].as_str().unwrap());
    let (status, detached) = call_json(&served, key, "DELETE", &one, None).await;
    assert_eq!(
        (status, &detached["name"]),
        (200, &"vip".into()),
        "{detached}"
    );
}

/// An API of verbs (Mandrill's `POST /templates/add`, `/info`, `/update`, `/list`,
/// `/delete`, each naming the template by the body's `name`, and `/webhooks/...` by the `id`
/// the service made) keeps its items as any collection does; its key, a field of every body,
/// is taken from a body that is only `allOf: [{$ref: ApiKey}]` too (was: 422 "`key` is
/// required" for every such body, and `info` answered what it was sent, held or not).
#[tokio::test]
async fn an_api_of_verbs_keeps_its_items_by_the_body_field_that_names_them() {
    let body = |schema: serde_json::Value| serde_json::json!({ "required": true, "content": { "application/json": { "schema": schema } } });
    let with_key = |properties: serde_json::Value, required: serde_json::Value| {
        serde_json::json!({ "allOf": [{ "$ref": "#/components/schemas/ApiKey" },
            { "type": "object", "properties": properties, "required": required }] })
    };
    let answer = |schema: serde_json::Value| {
        serde_json::json!({ "200": { "description": "ok",
            "content": { "application/json": { "schema": schema } } } })
    };
    let template = serde_json::json!({ "$ref": "#/components/schemas/Template" });
    let webhook = serde_json::json!({ "$ref": "#/components/schemas/Webhook" });
    let by_name = with_key(
        serde_json::json!({ "name": { "type": "string" } }),
        serde_json::json!(["name"]),
    );
    let by_id = with_key(
        serde_json::json!({ "id": { "type": "integer" } }),
        serde_json::json!(["id"]),
    );
    let only_key = serde_json::json!({ "$ref": "#/components/schemas/ListRequest" });
    let op = |id: &str, request: &serde_json::Value, response: &serde_json::Value| {
        serde_json::json!({ "post": { "operationId": id, "requestBody": body(request.clone()),
            "responses": answer(response.clone()) } })
    };
    let list_of = |item: &serde_json::Value| serde_json::json!({ "type": "array", "items": item });
    let document = serde_json::json!({
        "openapi": "3.0.3",
        "info": { "title": "Verbs", "version": "1" },
        "paths": {
            "/templates/add": op("templates_add", &with_key(serde_json::json!({
                "name": { "type": "string" }, "subject": { "type": "string" } }),
                serde_json::json!(["name"])), &template),
            "/templates/info": op("templates_info", &by_name, &template),
            "/templates/update": op("templates_update", &with_key(serde_json::json!({
                "name": { "type": "string" }, "subject": { "type": "string" } }),
                serde_json::json!(["name"])), &template),
            "/templates/list": op("templates_list", &only_key, &list_of(&template)),
            "/templates/delete": op("templates_delete", &by_name, &template),
            "/webhooks/add": op("webhooks_add", &with_key(serde_json::json!({
                "url": { "type": "string" } }), serde_json::json!(["url"])), &webhook),
            "/webhooks/info": op("webhooks_info", &by_id, &webhook),
            "/webhooks/delete": op("webhooks_delete", &by_id, &webhook)
        },
        "components": { "schemas": {
            "ApiKey": { "type": "object", "required": ["key"], "additionalProperties": false,
                "properties": { "key": { "type": "string", "description": "A valid API key" } } },
            "ListRequest": { "allOf": [{ "$ref": "#/components/schemas/ApiKey" }] },
            "Template": { "type": "object", "properties": {
                "name": { "type": "string" }, "subject": { "type": "string" } } },
            "Webhook": { "type": "object", "properties": {
                "id": { "type": "integer" }, "url": { "type": "string" } } }
        } }
    });
    let (served, _dir) = serve_document(&document.to_string(), "verbs.json", "verbs").await;
    let secret = served.credential("key").unwrap().to_owned();
    let call = |path: &'static str, mut body: serde_json::Value| {
        body["key"] = serde_json::json!(secret);
        call_json(&served, ("x-unused", "none"), "POST", path, Some(body))
    };
    let names = |list: &serde_json::Value| {
        list.as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    for (name, subject) in [("welcome", "Hi"), ("bye", "Bye")] {
        let (status, made) = call(
            "/templates/add",
            serde_json::json!({ "name": name, "subject": subject }),
        )
        .await;
        assert_eq!((status, made["name"].as_str()), (200, Some(name)), "{made}");
    }
    let (status, got) = call("/templates/info", serde_json::json!({ "name": "welcome" })).await;
    assert_eq!(
        (status, got["subject"].as_str()),
        (200, Some("Hi")),
        "{got}"
    );
    assert_eq!(
        got.get("key"),
        None,
        "the key is not kept nor answered: {got}"
    );
    let (status, _) = call(
        "/templates/info",
        serde_json::json!({ "name": "never-added" }),
    )
    .await;
    assert_eq!(status, 404);
    let (status, changed) = call(
        "/templates/update",
        serde_json::json!({ "name": "welcome", "subject": "Hello" }),
    )
    .await;
    assert_eq!(
        (status, changed["subject"].as_str()),
        (200, Some("Hello")),
        "{changed}"
    );
    let (status, listed) = call("/templates/list", serde_json::json!({})).await;
    assert_eq!(
        (status, names(&listed)),
        (200, vec!["welcome".to_owned(), "bye".to_owned()]),
        "{listed}"
    );
    assert_eq!(listed[0]["subject"], "Hello");
    let (status, _) = call(
        "/templates/delete",
        serde_json::json!({ "name": "welcome" }),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = call("/templates/info", serde_json::json!({ "name": "welcome" })).await;
    assert_eq!(status, 404);
    let (_, listed) = call("/templates/list", serde_json::json!({})).await;
    assert_eq!(names(&listed), vec!["bye".to_owned()]);
    // An id the service makes names the item afterwards.
    let (status, hook) = call(
        "/webhooks/add",
        serde_json::json!({ "url": "https://example.com/a" }),
    )
    .await;
    assert_eq!(status, 200, "{hook}");
    let id = hook["id"].clone();
    assert!(id.is_u64(), "{hook}");
    let (status, got) = call("/webhooks/info", serde_json::json!({ "id": id })).await;
    assert_eq!(
        (status, got["url"].as_str()),
        (200, Some("https://example.com/a")),
        "{got}"
    );
    let (status, _) = call("/webhooks/delete", serde_json::json!({ "id": id })).await;
    assert_eq!(status, 200);
    let (status, _) = call("/webhooks/info", serde_json::json!({ "id": id })).await;
    assert_eq!(status, 404);
    // A wrong key is refused, whatever the verb.
    let (status, _) = call_json(
        &served,
        ("x-unused", "none"),
        "POST",
        "/templates/list",
        Some(serde_json::json!({ "key": "wrong" })),
    )
    .await;
    assert_eq!(status, 401);
}

/// Knock's document, reduced to what the sandbox got wrong: a list of the objects in one
/// collection (`GET /v1/objects/{collection}`, a path ending in a parameter) was read as a
/// get of an item and answered 404; schedules made by a create that answers a list, and
/// workflow runs a trigger made, all had the nil UUID as their id, and what was made up of a
/// stored schedule changed on every read; a user's custom properties
/// (`additionalProperties: true`) were kept and never answered.
#[tokio::test]
async fn knock_s_collections_schedules_runs_and_custom_properties_live_as_it_says() {
    let json = |schema: serde_json::Value| serde_json::json!({ "content": { "application/json": { "schema": schema } } });
    let ok = |schema: serde_json::Value| {
        let mut answer = json(schema);
        answer["description"] = serde_json::json!("ok");
        serde_json::json!({ "200": answer })
    };
    let text = serde_json::json!({ "type": "string" });
    let param = |name: &str| serde_json::json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string" } });
    let schema = |name: &str| serde_json::json!({ "$ref": format!("#/components/schemas/{name}") });
    let entries = |name: &str| {
        serde_json::json!({ "type": "object", "required": ["entries"],
        "properties": { "entries": { "type": "array", "items": schema(name) } } })
    };
    let document = serde_json::json!({
        "openapi": "3.0.0",
        "info": { "title": "Knock", "version": "1" },
        "paths": {
            "/v1/objects/{collection}": { "get": { "operationId": "listObjects",
                "parameters": [param("collection")], "responses": ok(entries("Object")) } },
            "/v1/objects/{collection}/{id}": {
                "parameters": [param("collection"), param("id")],
                "put": { "operationId": "setObject",
                    "requestBody": json(serde_json::json!({ "type": "object", "properties": { "name": text } })),
                    "responses": ok(schema("Object")) },
                "get": { "operationId": "getObject", "responses": ok(schema("Object")) } },
            "/v1/schedules": {
                "post": { "operationId": "createSchedules",
                    "requestBody": json(serde_json::json!({ "type": "object", "required": ["workflow"],
                        "properties": { "workflow": text } })),
                    "responses": ok(serde_json::json!({ "type": "array", "items": schema("Schedule") })) },
                "get": { "operationId": "listSchedules", "responses": ok(entries("Schedule")) } },
            "/v1/workflows/{key}/trigger": { "post": { "operationId": "triggerWorkflow",
                "parameters": [param("key")],
                "requestBody": json(serde_json::json!({ "type": "object", "properties": { "data": text } })),
                "responses": ok(serde_json::json!({ "type": "object", "required": ["workflow_run_id"],
                    "properties": { "workflow_run_id": { "type": "string", "format": "uuid" } } })) } },
            "/v1/users/{user_id}": {
                "parameters": [param("user_id")],
                "put": { "operationId": "identifyUser",
                    "requestBody": json(serde_json::json!({ "type": "object", "additionalProperties": true,
                        "properties": { "name": text } })),
                    "responses": ok(schema("User")) },
                "get": { "operationId": "getUser", "responses": ok(schema("User")) } }
        },
        "components": { "schemas": {
            "Object": { "type": "object", "required": ["id", "collection"],
                "properties": { "id": text, "collection": text, "name": text } },
            "Schedule": { "type": "object", "required": ["id", "workflow", "inserted_at"], "properties": {
                "id": { "type": "string", "format": "uuid" }, "workflow": text,
                "inserted_at": { "type": "string", "format": "date-time" } } },
            "User": { "type": "object", "additionalProperties": true, "required": ["id"],
                "properties": { "id": text, "name": text } }
        } }
    });
    let (served, _dir) = serve_document(&document.to_string(), "knock.json", "knock").await;
    let secret = served.credential("api_key").map(str::to_owned);
    let bearer = format!("Bearer {}", secret.as_deref().unwrap_or("none"));
    let key = ("authorization", bearer.as_str());
    let call = |method: &'static str, path: &str, body: Option<serde_json::Value>| {
        call_json(&served, key, method, path, body)
    };

    let (status, _) = call(
        "PUT",
        "/v1/objects/projects/p1",
        Some(serde_json::json!({ "name": "Apollo" })),
    )
    .await;
    assert_eq!(status, 200);
    let (status, listed) = call("GET", "/v1/objects/projects", None).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["entries"][0]["name"], "Apollo", "{listed}");
    assert_eq!(listed["entries"].as_array().map(Vec::len), Some(1));
    let (status, empty) = call("GET", "/v1/objects/nothing-here", None).await;
    assert_eq!((status, empty), (200, serde_json::json!({ "entries": [] })));

    let mut made = Vec::new();
    for workflow in ["wf1", "wf2"] {
        // A key no type declares, sent to a type that does not invite others: kept, never
        // answered (only Knock's user invites them).
        let body = serde_json::json!({ "workflow": workflow, "secret_extra": "TOPSECRET" });
        let (status, answer) = call("POST", "/v1/schedules", Some(body)).await;
        assert_eq!(status, 200, "{answer}");
        assert!(!answer.to_string().contains("TOPSECRET"), "{answer}");
        made.push(answer[0].clone());
    }
    assert_ne!(made[0]["id"], made[1]["id"], "{made:?}");
    assert_ne!(made[0]["id"], "00000000-0000-4000-8000-000000000000");
    for _ in 0..2 {
        let (_, listed) = call("GET", "/v1/schedules", None).await;
        assert_eq!(
            listed["entries"],
            serde_json::json!(made),
            "what was made, as it was made"
        );
    }

    let mut runs = Vec::new();
    for _ in 0..2 {
        let (status, run) = call(
            "POST",
            "/v1/workflows/wf1/trigger",
            Some(serde_json::json!({})),
        )
        .await;
        assert_eq!(status, 200, "{run}");
        runs.push(run["workflow_run_id"].as_str().unwrap().to_owned());
    }
    assert_ne!(runs[0], runs[1]);

    let custom =
        serde_json::json!({ "name": "Ada", "plan": "gold", "employer": { "name": "ACME" } });
    let (status, user) = call("PUT", "/v1/users/u1", Some(custom)).await;
    assert_eq!(
        (status, &user["plan"]),
        (200, &serde_json::json!("gold")),
        "{user}"
    );
    let (_, user) = call("GET", "/v1/users/u1", None).await;
    assert_eq!(
        user,
        serde_json::json!({ "id": "u1", "name": "Ada", "plan": "gold", "employer": { "name": "ACME" } })
    );
}

/// Verbs that carry their noun (Mandrill's `/inbound/add-domain`, `/inbound/domains`,
/// `/inbound/delete-domain`) and verbs by any method (Loops' `POST /contacts/create`,
/// `PUT /contacts/update`, `GET /contacts/find?email=`, `POST /contacts/delete`) keep their
/// items; a create of an item held is the 409 the document gives it (was: each kept nothing,
/// `find` answered `[]` after a create, a second create 200, deleting nobody 200).
#[tokio::test]
async fn verbs_with_nouns_and_by_any_method_keep_their_items() {
    let json = |schema: serde_json::Value| serde_json::json!({ "content": { "application/json": { "schema": schema } } });
    let answer = |status: &str, schema: serde_json::Value| {
        let mut answer = json(schema);
        answer["description"] = serde_json::json!(status);
        answer
    };
    let schema = |name: &str| serde_json::json!({ "$ref": format!("#/components/schemas/{name}") });
    let by_domain = serde_json::json!({ "type": "object", "required": ["domain"],
        "properties": { "domain": { "type": "string" } } });
    let by_email = serde_json::json!({ "type": "object",
        "properties": { "email": { "type": "string" } } });
    let done = serde_json::json!({ "type": "object", "required": ["success"],
        "properties": { "success": { "type": "boolean" }, "id": { "type": "string" } } });
    let document = serde_json::json!({
        "openapi": "3.1.0",
        "info": { "title": "Verbs", "version": "1" },
        "paths": {
            "/inbound/add-domain": { "post": { "operationId": "addDomain",
                "requestBody": json(by_domain.clone()),
                "responses": { "200": answer("ok", schema("Domain")) } } },
            "/inbound/domains": { "post": { "operationId": "domains",
                "responses": { "200": answer("ok", serde_json::json!({ "type": "array", "items": schema("Domain") })) } } },
            "/inbound/delete-domain": { "post": { "operationId": "deleteDomain",
                "requestBody": json(by_domain),
                "responses": { "200": answer("ok", schema("Domain")) } } },
            "/contacts/create": { "post": { "operationId": "createContact",
                "requestBody": json(schema("Contact")),
                "responses": { "200": answer("ok", done.clone()),
                               "409": answer("Email or userId already exists", schema("Failure")) } } },
            "/contacts/update": { "put": { "operationId": "updateContact",
                "requestBody": json(schema("Contact")),
                "responses": { "200": answer("ok", done.clone()) } } },
            "/contacts/find": { "get": { "operationId": "findContact",
                "parameters": [{ "name": "email", "in": "query", "schema": { "type": "string" } }],
                "responses": { "200": answer("ok", serde_json::json!({ "type": "array", "items": schema("Contact") })) } } },
            "/contacts/delete": { "post": { "operationId": "deleteContact",
                "requestBody": json(by_email),
                "responses": { "200": answer("ok", done),
                               "404": answer("not found", schema("Failure")) } } }
        },
        "components": { "schemas": {
            "Domain": { "type": "object", "required": ["domain"], "properties": {
                "domain": { "type": "string" }, "valid_mx": { "type": "boolean" } } },
            "Contact": { "type": "object", "required": ["email"], "properties": {
                "id": { "type": "string" }, "email": { "type": "string" },
                "firstName": { "type": "string" } } },
            "Failure": { "type": "object", "required": ["success", "message"], "properties": {
                "success": { "type": "boolean" }, "message": { "type": "string" } } }
        } }
    });
    let (served, _dir) = serve_document(&document.to_string(), "verbs.json", "verbs").await;
    let key = ("x-unused", "none");
    let call = |method: &'static str, path: &str, body: Option<serde_json::Value>| {
        call_json(&served, key, method, path, body)
    };
    let domains = || async {
        let (status, listed) = call("POST", "/inbound/domains", Some(serde_json::json!({}))).await;
        assert_eq!(status, 200, "{listed}");
        listed
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["domain"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert!(domains().await.is_empty());
    let (status, made) = call(
        "POST",
        "/inbound/add-domain",
        Some(serde_json::json!({ "domain": "in.example.com" })),
    )
    .await;
    assert_eq!(
        (status, made["domain"].as_str()),
        (200, Some("in.example.com")),
        "{made}"
    );
    assert_eq!(domains().await, ["in.example.com"]);
    let (status, _) = call(
        "POST",
        "/inbound/delete-domain",
        Some(serde_json::json!({ "domain": "in.example.com" })),
    )
    .await;
    assert_eq!(status, 200);
    assert!(domains().await.is_empty());

    let ada = serde_json::json!({ "email": "ada@example.com", "firstName": "Ada" });
    let (status, made) = call("POST", "/contacts/create", Some(ada.clone())).await;
    assert_eq!(
        (status, &made["success"]),
        (200, &serde_json::json!(true)),
        "{made}"
    );
    let (status, again) = call("POST", "/contacts/create", Some(ada)).await;
    assert_eq!(
        (status, &again["success"]),
        (409, &serde_json::json!(false)),
        "{again}"
    );
    let (status, _) = call(
        "PUT",
        "/contacts/update",
        Some(serde_json::json!({ "email": "ada@example.com", "firstName": "Ada L." })),
    )
    .await;
    assert_eq!(status, 200);
    let (status, found) = call("GET", "/contacts/find?email=ada@example.com", None).await;
    assert_eq!(status, 200);
    assert_eq!(found[0]["firstName"], "Ada L.", "{found}");
    let (status, none) = call("GET", "/contacts/find?email=nobody@example.com", None).await;
    assert_eq!((status, none), (200, serde_json::json!([])));
    let (status, _) = call(
        "POST",
        "/contacts/delete",
        Some(serde_json::json!({ "email": "ada@example.com" })),
    )
    .await;
    assert_eq!(status, 200);
    let (status, gone) = call(
        "POST",
        "/contacts/delete",
        Some(serde_json::json!({ "email": "ada@example.com" })),
    )
    .await;
    assert_eq!(
        (status, &gone["success"]),
        (404, &serde_json::json!(false)),
        "{gone}"
    );
    let (_, found) = call("GET", "/contacts/find", None).await;
    assert_eq!(found, serde_json::json!([]));
}

/// Sinch's delivery report of a batch (`GET /batches/{batch_id}/delivery_report`) names the
/// batch by `batch_id`: it is about the batch, not the batch, and took the batch's `type`
/// (`mt_text` where the report's is `delivery_report_sms`). A paged list at a path ending in
/// a parameter (Knock's feed of a user) answers its empty page, not 404. A success flag is
/// made up as `true` in an answer (was `false`: every answer said it failed).
#[tokio::test]
async fn a_report_about_an_item_is_not_the_item_and_a_feed_is_an_empty_page() {
    let yaml = r#"
service:
  name: reports
  title: Reports
  summary: Reports about batches
  base_url: { env: REPORTS_BASE_URL }
credentials:
  api_key: { env: REPORTS_API_KEY }
auth:
  - { name: bearer, kind: bearer, credential: api_key }
types:
  Batch:
    fields:
      id: { type: string }
      body: { type: string }
      type: { type: string }
  DeliveryReport:
    fields:
      batch_id: { type: string }
      type: { type: string, default: delivery_report_sms }
      ok: { type: boolean, required: true }
  FeedItem:
    fields:
      id: { type: string, required: true }
  Feed:
    fields:
      entries: { type: "list<FeedItem>", required: true }
      after: { type: string }
operations:
  send_batch: { method: POST, path: /batches, body: Batch, response: Batch, status: 201 }
  get_batch:
    method: GET
    path: /batches/{batch_id}
    path_params: { batch_id: {} }
    response: Batch
  get_delivery_report:
    method: GET
    path: /batches/{batch_id}/delivery_report
    path_params: { batch_id: {} }
    response: DeliveryReport
  list_feed:
    method: GET
    path: /users/{user_id}/feeds/{id}
    path_params: { user_id: {}, id: {} }
    query: { after: { type: string } }
    response: Feed
    pagination: { style: token, items_field: entries, token_field: after, token_param: after }
"#;
    let (_dir, served) = served_text(yaml).await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let body = serde_json::json!({ "body": "hi", "type": "mt_text" });
    let (status, batch) = call_json(&served, key, "POST", "/batches", Some(body)).await;
    assert_eq!(status, 201, "{batch}");
    let id = batch["id"].as_str().unwrap();
    let path = format!("/batches/{id}/delivery_report");
    let (status, report) = call_json(&served, key, "GET", &path, None).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        report,
        serde_json::json!({ "batch_id": id, "type": "delivery_report_sms", "ok": true })
    );
    let (status, feed) = call_json(&served, key, "GET", "/users/u1/feeds/f1", None).await;
    assert_eq!(
        (status, &feed["entries"]),
        (200, &serde_json::json!([])),
        "{feed}"
    );
}

/// What the readings of verbs and pages must not take: an item get whose answer looks like a
/// page (`GET /reports/{id}` beside `POST /reports`) reads the report, and a report about an
/// item named by a parameter that says what it names (Postmark's `messageid` beside a
/// `MessageID` answer) answers that id, not a fresh one per call.
#[tokio::test]
async fn an_item_that_looks_like_a_page_is_read_and_a_details_answer_keeps_its_id() {
    let yaml = "service:\n  name: looks\n  title: Looks\n  summary: Items that look like pages\n  \
                base_url: { env: LOOKS_BASE_URL }\n\
                types:\n  Track:\n    fields:\n      title: { type: string }\n  \
                Report:\n    fields:\n      id: { type: string }\n      kind: { type: string }\n      \
                data: { type: \"list<Track>\", required: true }\n      next_cursor: { type: string }\n  \
                Details:\n    fields:\n      MessageID: { type: string, required: true }\n      \
                Status: { type: string, required: true }\n\
                operations:\n  create_report:\n    method: POST\n    path: /reports\n    \
                body: Report\n    response: Report\n    status: 201\n  \
                get_report:\n    method: GET\n    path: /reports/{id}\n    path_params: { id: {} }\n    \
                query: { cursor: { type: string } }\n    response: Report\n    \
                pagination: { style: token, items_field: data, token_field: next_cursor, token_param: cursor }\n  \
                details:\n    method: GET\n    path: /messages/outbound/{messageid}/details\n    \
                path_params: { messageid: {} }\n    response: Details\n";
    let (_dir, served) = served_text(yaml).await;
    let key = ("x-unused", "none");
    let body = serde_json::json!({ "kind": "weekly", "data": [{ "title": "a" }] });
    let (status, made) = call_json(&served, key, "POST", "/reports", Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let path = format!("/reports/{}", made["id"].as_str().unwrap());
    let (status, read) = call_json(&served, key, "GET", &path, None).await;
    assert_eq!(
        (status, &read["kind"]),
        (200, &serde_json::json!("weekly")),
        "{read}"
    );
    let (status, _) = call_json(&served, key, "GET", "/reports/nope", None).await;
    assert_eq!(status, 404);
    for _ in 0..2 {
        let path = "/messages/outbound/m-1/details";
        let (status, details) = call_json(&served, key, "GET", path, None).await;
        assert_eq!(
            (status, &details["MessageID"]),
            (200, &serde_json::json!("m-1")),
            "{details}"
        );
    }
}

/// Svix's shapes (facts of its `server/openapi.json`): lists paged by an `iterator` that goes
/// back as `?iterator=` with a `done` flag, event types named by their `name` at
/// `{event_type_name}`, a field's `default` for what a create leaves out, and validation
/// errors as `{"detail": [{loc, msg, type}]}`.
#[tokio::test]
async fn svix_s_iterator_pages_named_event_types_defaults_and_detail_errors_live_as_documented() {
    let document = r##"
openapi: 3.0.2
info: { title: Svix, version: "1" }
components:
  securitySchemes: { HTTPBearer: { type: http, scheme: bearer } }
  schemas:
    AppIn: { type: object, required: [name], properties: { name: { type: string, minLength: 1 } } }
    AppOut: { type: object, required: [id, name], properties: { id: { type: string }, name: { type: string } } }
    ListApps:
      type: object
      required: [data, done]
      properties:
        data: { type: array, items: { $ref: "#/components/schemas/AppOut" } }
        done: { type: boolean }
        iterator: { type: string, nullable: true }
    EventTypeIn: { type: object, required: [name], properties: { name: { type: string }, description: { type: string } } }
    EventTypeOut: { type: object, required: [name, description], properties: { name: { type: string }, description: { type: string } } }
    ListEventTypes:
      type: object
      required: [data, done]
      properties:
        data: { type: array, items: { $ref: "#/components/schemas/EventTypeOut" } }
        done: { type: boolean }
    EndpointIn:
      type: object
      required: [url]
      properties:
        url: { type: string, format: uri }
        description: { type: string, default: "" }
    EndpointOut:
      type: object
      required: [id, url, description]
      properties: { id: { type: string }, url: { type: string, format: uri }, description: { type: string } }
    ValidationErrorItem:
      type: object
      required: [loc, msg, type]
      properties: { loc: { type: array, items: { type: string } }, msg: { type: string }, type: { type: string } }
    HTTPValidationError:
      type: object
      required: [detail]
      properties: { detail: { type: array, items: { $ref: "#/components/schemas/ValidationErrorItem" } } }
security: [ { HTTPBearer: [] } ]
paths:
  /api/v1/app:
    get:
      operationId: v1.application.list
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1 } }
        - { name: iterator, in: query, schema: { type: string, nullable: true } }
      responses:
        "200": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/ListApps" } } } }
    post:
      operationId: v1.application.create
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/AppIn" } } } }
      responses:
        "201": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/AppOut" } } } }
        "422": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/HTTPValidationError" } } } }
  /api/v1/event-type:
    get:
      operationId: v1.event-type.list
      responses:
        "200": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/ListEventTypes" } } } }
    post:
      operationId: v1.event-type.create
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/EventTypeIn" } } } }
      responses:
        "201": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/EventTypeOut" } } } }
  /api/v1/event-type/{event_type_name}:
    parameters: [ { name: event_type_name, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: v1.event-type.get
      responses:
        "200": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/EventTypeOut" } } } }
        "404": { description: Not Found }
    delete:
      operationId: v1.event-type.delete
      responses:
        "204": { description: "" }
        "404": { description: Not Found }
  /api/v1/app/{app_id}/endpoint:
    parameters: [ { name: app_id, in: path, required: true, schema: { type: string } } ]
    post:
      operationId: v1.endpoint.create
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/EndpointIn" } } } }
      responses:
        "201": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/EndpointOut" } } } }
  /api/v1/app/{app_id}/endpoint/{endpoint_id}:
    parameters:
      - { name: app_id, in: path, required: true, schema: { type: string } }
      - { name: endpoint_id, in: path, required: true, schema: { type: string } }
    get:
      operationId: v1.endpoint.get
      responses:
        "200": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/EndpointOut" } } } }
"##;
    let (served, _dir) = serve_document(document, "svix.yaml", "svix").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap_or("none"));
    let key = ("authorization", bearer.as_str());
    let call = |method: &'static str, path: &str, body: Option<serde_json::Value>| {
        call_json(&served, key, method, path, body)
    };

    // Three apps, walked two at a time by the iterator until `done`.
    let mut apps = Vec::new();
    for name in ["one", "two", "three"] {
        let (status, app) = call(
            "POST",
            "/api/v1/app",
            Some(serde_json::json!({ "name": name })),
        )
        .await;
        assert_eq!(status, 201);
        apps.push(app["id"].as_str().unwrap_or_default().to_owned());
    }
    let (mut names, mut path, mut pages) = (Vec::new(), "/api/v1/app?limit=2".to_owned(), 0);
    loop {
        let (status, page) = call("GET", &path, None).await;
        assert_eq!(status, 200, "{page}");
        pages += 1;
        for app in page["data"].as_array().unwrap() {
            names.push(app["name"].as_str().unwrap().to_owned());
        }
        if page["done"] == serde_json::json!(true) {
            break;
        }
        assert!(pages < 5, "never done: {page}");
        let iterator = page["iterator"]
            .as_str()
            .expect("a page that is not done continues");
        path = format!("/api/v1/app?limit=2&iterator={iterator}");
    }
    assert_eq!(
        (names.as_slice(), pages),
        (["one", "two", "three"].map(str::to_owned).as_slice(), 2)
    );

    // An event type is named by its `name`: listed, read, and a second create of the name is
    // refused, as Svix's server does (409 `event_type_exists`), the first one kept.
    let signup = serde_json::json!({ "name": "user.signup", "description": "first" });
    assert_eq!(
        call("POST", "/api/v1/event-type", Some(signup)).await.0,
        201
    );
    let again = serde_json::json!({ "name": "user.signup", "description": "again" });
    assert_eq!(call("POST", "/api/v1/event-type", Some(again)).await.0, 409);
    let (status, listed) = call("GET", "/api/v1/event-type", None).await;
    assert_eq!(status, 200);
    assert_eq!(listed["data"].as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(listed["done"], true, "the whole list is the last page");
    let (status, one) = call("GET", "/api/v1/event-type/user.signup", None).await;
    assert_eq!(
        (status, &one["description"]),
        (200, &serde_json::json!("first"))
    );
    assert_eq!(
        call("DELETE", "/api/v1/event-type/user.signup", None)
            .await
            .0,
        204
    );
    assert_eq!(
        call("GET", "/api/v1/event-type/user.signup", None).await.0,
        404
    );

    // What a create leaves out is the field's default, kept and answered.
    let url = serde_json::json!({ "url": "https://example.com/hook" });
    // Under an app never made, 404: under one made, kept.
    let orphan = call("POST", "/api/v1/app/app_9/endpoint", Some(url.clone())).await;
    assert_eq!(orphan.0, 404, "{}", orphan.1);
    let app = &apps[0];
    let endpoints = format!("/api/v1/app/{app}/endpoint");
    let (status, endpoint) = call("POST", &endpoints, Some(url)).await;
    assert_eq!(
        (status, &endpoint["description"]),
        (201, &serde_json::json!("")),
        "{endpoint}"
    );
    let id = endpoint["id"].as_str().unwrap_or_default();
    let (status, read) = call("GET", &format!("{endpoints}/{id}"), None).await;
    assert_eq!(
        (status, &read["description"]),
        (200, &serde_json::json!("")),
        "{read}"
    );

    // A refused body says why where the document keeps the message: `detail.0.msg`.
    let (status, refused) = call(
        "POST",
        "/api/v1/app",
        Some(serde_json::json!({ "name": "" })),
    )
    .await;
    assert_eq!(status, 422);
    let message = refused["detail"][0]["msg"].as_str().unwrap_or_default();
    assert!(message.contains("`name`"), "{refused}");
}

/// Customer.io's shapes (facts of its Track API document): a union tagged by `action` whose
/// variants fix the tag through `allOf`, operations documented as a bare 200, a delete that
/// documents no 404, and an error body that lists its messages in `meta.errors`.
#[tokio::test]
async fn customer_io_s_actions_bare_200s_forgiving_deletes_and_listed_errors_live_as_documented() {
    let document = r##"
openapi: 3.1.0
info: { title: Customer.io Track, version: "1" }
components:
  securitySchemes: { basic: { type: http, scheme: basic } }
  schemas:
    person_common:
      type: object
      required: [type, identifiers]
      properties:
        type: { type: string, enum: [person] }
        identifiers: { type: object, required: [id], properties: { id: { type: string } } }
    identify_person:
      allOf:
        - $ref: "#/components/schemas/person_common"
        - { type: object, required: [action], properties: { action: { type: string, enum: [identify] }, attributes: { type: object } } }
    person_delete:
      allOf:
        - $ref: "#/components/schemas/person_common"
        - { type: object, required: [action], properties: { action: { type: string, enum: [delete] } } }
    person_operations:
      discriminator: { propertyName: action }
      oneOf:
        - $ref: "#/components/schemas/identify_person"
        - $ref: "#/components/schemas/person_delete"
    errors:
      type: object
      properties: { meta: { type: object, properties: { errors: { type: array, items: { type: string } } } } }
security: [ { basic: [] } ]
paths:
  /api/v2/entity:
    post:
      operationId: entity
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/person_operations" } } } }
      responses:
        "200": { description: "A successful request returns an empty object response." }
        "400": { description: malformed, content: { application/json: { schema: { $ref: "#/components/schemas/errors" } } } }
  /api/v1/customers/{identifier}:
    parameters: [ { name: identifier, in: path, required: true, schema: { type: string } } ]
    put:
      operationId: identify
      requestBody: { content: { application/json: { schema: { type: object, properties: { email: { type: string, format: email } } } } } }
      responses:
        "200": { description: "A successful request returns an empty object response." }
        "400": { description: malformed, content: { application/json: { schema: { $ref: "#/components/schemas/errors" } } } }
    delete:
      operationId: delete
      responses:
        "200": { description: "A successful request returns an empty object response." }
        "401": { description: Unauthorized request. }
"##;
    let (served, _dir) = serve_document(document, "customerio.yaml", "customerio").await;
    use base64::Engine as _;
    let user = served
        .credential("basic_username")
        .unwrap_or("none")
        .to_owned();
    let password = served
        .credential("basic_password")
        .unwrap_or("none")
        .to_owned();
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    );
    let key = ("authorization", basic.as_str());
    let call = |method: &'static str, path: &str, body: Option<serde_json::Value>| {
        call_json(&served, key, method, path, body)
    };

    // The tag values are what each variant fixes (`identify`), not the schemas' names.
    let identify = serde_json::json!({ "type": "person", "identifiers": { "id": "42" },
        "action": "identify", "attributes": { "plan": "pro" } });
    assert_eq!(
        call("POST", "/api/v2/entity", Some(identify)).await,
        (200, serde_json::json!({}))
    );
    let by_schema_name = serde_json::json!({ "type": "person", "identifiers": { "id": "42" },
        "action": "identify_person" });
    let (status, refused) = call("POST", "/api/v2/entity", Some(by_schema_name)).await;
    assert_eq!(status, 400);
    // The message sits where the document lists them.
    let message = refused["meta"]["errors"][0].as_str().unwrap_or_default();
    assert!(message.contains("`action`"), "{refused}");

    // A bare 200 is a 200; a delete of a person never identified is the same 200.
    let email = serde_json::json!({ "email": "ada@example.com" });
    assert_eq!(
        call("PUT", "/api/v1/customers/u1", Some(email)).await.0,
        200
    );
    assert_eq!(call("DELETE", "/api/v1/customers/u1", None).await.0, 200);
    assert_eq!(
        call("DELETE", "/api/v1/customers/never-seen", None).await.0,
        200
    );
}

/// Twilio's dotted form fields (facts of its Conversations document): `Configuration.Url`,
/// `Configuration.Method` and a repeated `Configuration.Filters` are the answer's
/// `configuration: {url, method, filters}`, kept and listed.
#[tokio::test]
async fn dotted_form_fields_are_answered_in_the_object_they_name() {
    let document = r##"
openapi: 3.0.1
info: { title: Twilio Conversations, version: "1" }
components:
  securitySchemes: { accountSid_authToken: { type: http, scheme: basic } }
  schemas:
    ScopedWebhook:
      type: object
      properties:
        sid: { type: string }
        conversation_sid: { type: string }
        target: { type: string }
        configuration: { nullable: true, description: The configuration of this webhook. }
security: [ { accountSid_authToken: [] } ]
paths:
  /v1/Conversations/{ConversationSid}/Webhooks:
    parameters: [ { name: ConversationSid, in: path, required: true, schema: { type: string } } ]
    post:
      operationId: CreateConversationScopedWebhook
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [Target]
              properties:
                Target: { type: string }
                Configuration.Url: { type: string }
                Configuration.Method: { type: string }
                Configuration.Filters: { type: array, items: { type: string } }
      responses:
        "201": { description: Created, content: { application/json: { schema: { $ref: "#/components/schemas/ScopedWebhook" } } } }
    get:
      operationId: ListConversationScopedWebhook
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema: { type: object, properties: { webhooks: { type: array, items: { $ref: "#/components/schemas/ScopedWebhook" } } } }
  /v1/Conversations/{ConversationSid}/Webhooks/{Sid}:
    parameters:
      - { name: ConversationSid, in: path, required: true, schema: { type: string } }
      - { name: Sid, in: path, required: true, schema: { type: string } }
    post:
      operationId: UpdateConversationScopedWebhook
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              properties:
                Configuration.Url: { type: string }
                Configuration.Method: { type: string }
      responses:
        "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/ScopedWebhook" } } } }
"##;
    let (served, _dir) = serve_document(document, "conversations.yaml", "conversations").await;
    let http = tidings_runtime::reqwest::Client::new();
    let url = format!("{}/v1/Conversations/CH1/Webhooks", served.base_url());
    let (user, password) = (
        served.credential("account_sid").unwrap_or("none"),
        served.credential("auth_token"),
    );
    let form = "Target=webhook&Configuration.Url=https%3A%2F%2Fexample.com%2Fhook\
        &Configuration.Method=POST&Configuration.Filters=onMessageAdded\
        &Configuration.Filters=onParticipantAdded";
    let created = http
        .post(&url)
        .basic_auth(user, password)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 201);
    let created: serde_json::Value = created.json().await.unwrap();
    let configuration = serde_json::json!({ "url": "https://example.com/hook", "method": "POST",
        "filters": ["onMessageAdded", "onParticipantAdded"] });
    assert_eq!(created["configuration"], configuration, "{created}");
    let listed: serde_json::Value = http
        .get(&url)
        .basic_auth(user, password)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        listed["webhooks"][0]["configuration"], configuration,
        "{listed}"
    );
    // An update of one of them keeps the others: a form's fields come one by one.
    let sid = created["sid"].as_str().unwrap();
    let updated: serde_json::Value = http
        .post(format!("{url}/{sid}"))
        .basic_auth(user, password)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("Configuration.Method=GET")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let configuration = serde_json::json!({ "url": "https://example.com/hook", "method": "GET",
        "filters": ["onMessageAdded", "onParticipantAdded"] });
    assert_eq!(updated["configuration"], configuration, "{updated}");
}

/// A singleton beneath an item (facts of Svix's `GET`/`PUT`/`PATCH
/// /app/{app_id}/endpoint/{endpoint_id}/headers`): made up until written, kept as written,
/// merged into, and gone with its item.
#[tokio::test]
async fn a_singleton_beneath_an_item_is_kept_read_back_and_goes_with_its_item() {
    let document = r##"
openapi: 3.0.2
info: { title: Svix headers, version: "1" }
components:
  securitySchemes: { HTTPBearer: { type: http, scheme: bearer } }
  schemas:
    EndpointIn: { type: object, required: [url], properties: { url: { type: string, format: uri } } }
    EndpointOut: { type: object, required: [id, url], properties: { id: { type: string }, url: { type: string, format: uri } } }
    Headers:
      type: object
      required: [headers, sensitive]
      properties:
        headers: { type: object, additionalProperties: { type: string } }
        sensitive: { type: array, items: { type: string } }
    HeadersIn: { type: object, required: [headers], properties: { headers: { type: object, additionalProperties: { type: string } } } }
    HeadersPatch: { type: object, properties: { headers: { type: object, additionalProperties: { type: string } } } }
security: [ { HTTPBearer: [] } ]
paths:
  /app/{app_id}/endpoint:
    parameters: [ { name: app_id, in: path, required: true, schema: { type: string } } ]
    post:
      operationId: v1.endpoint.create
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/EndpointIn" } } } }
      responses:
        "201": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/EndpointOut" } } } }
  /app/{app_id}/endpoint/{endpoint_id}:
    parameters:
      - { name: app_id, in: path, required: true, schema: { type: string } }
      - { name: endpoint_id, in: path, required: true, schema: { type: string } }
    get:
      operationId: v1.endpoint.get
      responses:
        "200": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/EndpointOut" } } } }
        "404": { description: Not Found }
    delete:
      operationId: v1.endpoint.delete
      responses: { "204": { description: "" }, "404": { description: Not Found } }
  /app/{app_id}/endpoint/{endpoint_id}/headers:
    parameters:
      - { name: app_id, in: path, required: true, schema: { type: string } }
      - { name: endpoint_id, in: path, required: true, schema: { type: string } }
    get:
      operationId: v1.endpoint.get-headers
      responses:
        "200": { description: "", content: { application/json: { schema: { $ref: "#/components/schemas/Headers" } } } }
    put:
      operationId: v1.endpoint.update-headers
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/HeadersIn" } } } }
      responses: { "204": { description: "" } }
    patch:
      operationId: v1.endpoint.patch-headers
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/HeadersPatch" } } } }
      responses: { "204": { description: "" } }
"##;
    let (served, _dir) = serve_document(document, "svix_headers.yaml", "svix_headers").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap_or("none"));
    let key = ("authorization", bearer.as_str());
    let call = |method: &'static str, path: &str, body: Option<serde_json::Value>| {
        call_json(&served, key, method, path, body)
    };
    let url = serde_json::json!({ "url": "https://example.com/hook" });
    let (status, endpoint) = call("POST", "/app/a1/endpoint", Some(url)).await;
    assert_eq!(status, 201);
    let headers = format!(
        "/app/a1/endpoint/{}/headers",
        endpoint["id"].as_str().unwrap()
    );

    // Not written yet: a valid answer, made up.
    let (status, before) = call("GET", &headers, None).await;
    assert_eq!(status, 200);
    assert!(before["sensitive"].is_array(), "{before}");

    let set = serde_json::json!({ "headers": { "X-Foo": "1" } });
    assert_eq!(call("PUT", &headers, Some(set)).await.0, 204);
    let (_, read) = call("GET", &headers, None).await;
    assert_eq!(
        read["headers"],
        serde_json::json!({ "X-Foo": "1" }),
        "{read}"
    );
    assert!(
        read.get("id").is_none(),
        "a singleton has no id of its own: {read}"
    );

    let patch = serde_json::json!({ "headers": { "X-Bar": "2" } });
    assert_eq!(call("PATCH", &headers, Some(patch)).await.0, 204);
    let (_, read) = call("GET", &headers, None).await;
    assert_eq!(
        read["headers"],
        serde_json::json!({ "X-Bar": "2" }),
        "{read}"
    );

    // The endpoint's delete takes its headers with it.
    let item = headers.trim_end_matches("/headers").to_owned();
    assert_eq!(call("DELETE", &item, None).await.0, 204);
    let (_, after) = call("GET", &headers, None).await;
    assert_ne!(
        after["headers"],
        serde_json::json!({ "X-Bar": "2" }),
        "{after}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn sunshine_s_messages_are_answered_in_a_list_paged_by_after_cursor_and_deleted_all_at_once()
{
    // Sunshine Conversations' messages (zendesk/sunshine-conversations-api-spec, openapi.yaml
    // at 81dc589): a create answers `{"messages": [message]}`, the list pages by
    // `page[after]` with `meta.afterCursor` and `meta.hasMore`. Reduced to those facts.
    let document = r##"
openapi: 3.0.0
info: { title: Sunshine messages, version: "2" }
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  parameters:
    pageQuery:
      name: page
      in: query
      style: deepObject
      explode: true
      schema: { $ref: "#/components/schemas/page" }
  schemas:
    page:
      type: object
      properties:
        after: { type: string }
        before: { type: string }
        size: { type: integer, minimum: 1, maximum: 100 }
    meta:
      type: object
      properties:
        hasMore: { type: boolean }
        afterCursor: { type: string }
        beforeCursor: { type: string }
    content:
      type: object
      required: [type, text]
      properties: { type: { type: string }, text: { type: string } }
    author:
      type: object
      required: [type]
      properties: { type: { type: string }, displayName: { type: string } }
    message:
      type: object
      properties:
        id: { type: string }
        received: { type: string, format: date-time }
        author: { $ref: "#/components/schemas/author" }
        content: { $ref: "#/components/schemas/content" }
    messagePost:
      type: object
      required: [author, content]
      properties:
        author: { $ref: "#/components/schemas/author" }
        content: { $ref: "#/components/schemas/content" }
    messagePostResponse:
      type: object
      properties:
        messages: { type: array, items: { $ref: "#/components/schemas/message" } }
    messageListResponse:
      type: object
      properties:
        messages: { type: array, items: { $ref: "#/components/schemas/message" } }
        meta: { $ref: "#/components/schemas/meta" }
security: [ { basicAuth: [] } ]
paths:
  /v2/apps/{appId}/conversations/{conversationId}/messages:
    parameters:
      - { name: appId, in: path, required: true, schema: { type: string } }
      - { name: conversationId, in: path, required: true, schema: { type: string } }
    post:
      operationId: PostMessage
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/messagePost" } } } }
      responses:
        "201": { description: Created, content: { application/json: { schema: { $ref: "#/components/schemas/messagePostResponse" } } } }
    get:
      operationId: ListMessages
      parameters: [ { $ref: "#/components/parameters/pageQuery" } ]
      responses:
        "200": { description: Ok, content: { application/json: { schema: { $ref: "#/components/schemas/messageListResponse" } } } }
    delete:
      operationId: DeleteAllMessages
      responses:
        "200": { description: Ok, content: { application/json: { schema: { type: object } } } }
"##;
    let (served, _dir) = serve_document(document, "sunshine.yaml", "sunshine").await;
    let basic = basic_auth(&served);
    let key = ("authorization", basic.as_str());
    let messages = "/v2/apps/a1/conversations/c1/messages";
    let mut made = Vec::new();
    for n in 0..3 {
        let body = serde_json::json!({
            "author": { "type": "business" },
            "content": { "type": "text", "text": format!("hello {n}") },
        });
        let (status, answer) = call_json(&served, key, "POST", messages, Some(body)).await;
        assert_eq!(status, 201, "{answer}");
        let listed = answer["messages"]
            .as_array()
            .expect("a list of what was made");
        assert_eq!(listed.len(), 1, "{answer}");
        assert_eq!(
            listed[0]["content"]["text"],
            format!("hello {n}"),
            "{answer}"
        );
        made.push(listed[0]["id"].as_str().expect("an id").to_owned());
    }
    // Every page, in the document's own style: `page[after]` from `meta.afterCursor`.
    let mut seen = Vec::new();
    let mut sizes = Vec::new();
    let mut path = format!("{messages}?page[size]=2");
    for _ in 0..3 {
        let (status, page) = call_json(&served, key, "GET", &path, None).await;
        assert_eq!(status, 200, "{page}");
        sizes.push(page["messages"].as_array().unwrap().len());
        for m in page["messages"].as_array().unwrap() {
            seen.push(m["id"].as_str().unwrap().to_owned());
        }
        if page["meta"]["hasMore"] != serde_json::json!(true) {
            break;
        }
        let after = page["meta"]["afterCursor"].as_str().expect("a cursor");
        path = format!("{messages}?page[size]=2&page[after]={after}");
    }
    assert_eq!(sizes, [2, 1]);
    assert_eq!(seen, made);

    // "Delete all messages": the collection's own `DELETE` empties it, and only it.
    let other = "/v2/apps/a1/conversations/c2/messages";
    let body = serde_json::json!({
        "author": { "type": "user" },
        "content": { "type": "text", "text": "elsewhere" },
    });
    assert_eq!(
        call_json(&served, key, "POST", other, Some(body)).await.0,
        201
    );
    let (status, answer) = call_json(&served, key, "DELETE", messages, None).await;
    assert_eq!(status, 200, "{answer}");
    let (_, page) = call_json(&served, key, "GET", messages, None).await;
    assert_eq!(page["messages"], serde_json::json!([]), "{page}");
    let (_, page) = call_json(&served, key, "GET", other, None).await;
    assert_eq!(page["messages"].as_array().map(Vec::len), Some(1), "{page}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_item_is_answered_in_the_field_named_for_it_and_a_member_with_a_user_is_the_item() {
    // Zulip (zulip/zulip, zerver/openapi/zulip.yaml): answers extend `JsonSuccessBase` with
    // `allOf`, naming `result: {}` and `msg: {}` again without a type, and `GET /users/{id}`
    // answers `{result, msg, user}`. Discord (discord/discord-api-spec, specs/openapi.json):
    // a guild member `{user: {id}, nick, roles: [...]}` is itself the item. Reduced to those
    // facts.
    let document = r##"
openapi: 3.0.1
info: { title: Zulip and Discord shapes, version: "1" }
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  schemas:
    JsonSuccessBase:
      allOf:
        - { type: object, properties: { result: { type: string } } }
        - required: [result, msg]
          properties: { result: { enum: [success] }, msg: { type: string } }
    User:
      type: object
      properties: { user_id: { type: integer }, full_name: { type: string } }
    UserRef:
      type: object
      required: [id]
      properties: { id: { type: string }, username: { type: string } }
    Member:
      type: object
      required: [user, roles]
      properties:
        user: { $ref: "#/components/schemas/UserRef" }
        nick: { type: string }
        roles: { type: array, items: { type: string } }
security: [ { basicAuth: [] } ]
paths:
  /users:
    post:
      operationId: create-user
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [full_name], properties: { full_name: { type: string } } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                allOf:
                  - $ref: "#/components/schemas/JsonSuccessBase"
                  - required: [user_id]
                    properties: { result: {}, msg: {}, user_id: { type: integer } }
  /users/{user_id}:
    parameters: [ { name: user_id, in: path, required: true, schema: { type: integer } } ]
    get:
      operationId: get-user
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                allOf:
                  - $ref: "#/components/schemas/JsonSuccessBase"
                  - properties:
                      result: {}
                      msg: {}
                      user: { $ref: "#/components/schemas/User" }
                      ignored_parameters_unsupported: { type: array, items: { type: string } }
  /guilds/{guild_id}/members/{user_id}:
    parameters:
      - { name: guild_id, in: path, required: true, schema: { type: string } }
      - { name: user_id, in: path, required: true, schema: { type: string } }
    get:
      operationId: get_guild_member
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Member" } } } }
    put:
      operationId: add_guild_member
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, properties: { nick: { type: string }, roles: { type: array, items: { type: string } } } }
      responses:
        "201": { description: added, content: { application/json: { schema: { $ref: "#/components/schemas/Member" } } } }
    patch:
      operationId: update_guild_member
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, properties: { nick: { type: string } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Member" } } } }
"##;
    let (served, _dir) = serve_document(document, "shapes.yaml", "shapes").await;
    let basic = basic_auth(&served);
    let key = ("authorization", basic.as_str());
    let call = |method: &'static str, path: &str, body: Option<serde_json::Value>| {
        call_json(&served, key, method, path, body)
    };

    // The base's types hold: `result` is its one value, `msg` text, the user in `user`.
    let (status, made) = call(
        "POST",
        "/users",
        Some(serde_json::json!({"full_name": "Ada"})),
    )
    .await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(made["result"], "success", "{made}");
    assert!(made["msg"].is_string(), "{made}");
    let id = made["user_id"].as_i64().expect("a numeric id");
    let (status, read) = call("GET", &format!("/users/{id}"), None).await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["result"], "success", "{read}");
    assert_eq!(read["user"]["full_name"], "Ada", "{read}");
    assert_eq!(read["user"]["user_id"], id, "{read}");

    // A member is the item: its own fields are kept and read back.
    let member = "/guilds/g1/members/20";
    let body = serde_json::json!({"nick": "n20", "roles": ["r1"]});
    let (status, added) = call("PUT", member, Some(body)).await;
    assert_eq!(status, 201, "{added}");
    assert_eq!(added["nick"], "n20", "{added}");
    assert_eq!(
        call(
            "PATCH",
            member,
            Some(serde_json::json!({"nick": "renamed"}))
        )
        .await
        .0,
        200
    );
    let (_, read) = call("GET", member, None).await;
    assert_eq!(read["nick"], "renamed", "{read}");
    assert_eq!(read["roles"], serde_json::json!(["r1"]), "{read}");
    // The member's user is the one the path names, in every answer.
    assert_eq!(read["user"]["id"], "20", "{read}");
    assert_eq!(added["user"]["id"], "20", "{added}");
}

#[tokio::test(flavor = "multi_thread")]
async fn form_fields_sent_as_json_text_are_read_as_their_json() {
    // Zulip's subscribe (zulip/zulip, zerver/openapi/zulip.yaml): `encoding:
    // {subscriptions: {contentType: application/json}, principals: ...}`, so
    // `principals=[9,10]`. Reduced to those facts.
    let document = r##"
openapi: 3.0.1
info: { title: Zulip subscribe, version: "1" }
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
security: [ { basicAuth: [] } ]
paths:
  /users/me/subscriptions:
    post:
      operationId: subscribe
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [subscriptions]
              properties:
                subscriptions:
                  type: array
                  items: { type: object, required: [name], properties: { name: { type: string }, description: { type: string } } }
                principals: { type: array, items: { type: integer } }
                invite_only: { type: boolean }
            encoding:
              subscriptions: { contentType: application/json }
              principals: { contentType: application/json }
              invite_only: { contentType: application/json }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties: { result: { type: string }, msg: { type: string } }
"##;
    let (served, _dir) = serve_document(document, "zulip.yaml", "zulip").await;
    let user = served.credential("basic_auth_username").unwrap().to_owned();
    let password = served.credential("basic_auth_password").unwrap().to_owned();
    let send = |body: &'static str| {
        tidings_runtime::reqwest::Client::new()
            .post(format!("{}/users/me/subscriptions", served.base_url()))
            .basic_auth(&user, Some(&password))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    let answer = send("subscriptions=%5B%7B%22name%22%3A%22Denmark%22%7D%5D&principals=%5B9%2C10%5D&invite_only=true")
        .await
        .unwrap();
    let status = answer.status().as_u16();
    assert_eq!(status, 200, "{}", answer.text().await.unwrap());
    // A list item of the wrong type is still refused, by its place in the JSON.
    let answer =
        send("subscriptions=%5B%7B%22name%22%3A%22Denmark%22%7D%5D&principals=%5B%22nine%22%5D")
            .await
            .unwrap();
    assert_eq!(answer.status().as_u16(), 422);
    let text = answer.text().await.unwrap();
    assert!(text.contains("principals.0"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_error_body_that_extends_its_shape_with_notes_is_answered_in_that_shape() {
    // Zulip: `400` bodies are `allOf: [$ref CodedError, {example}]`, or a `oneOf` of such.
    // Reduced to those facts.
    let document = r##"
openapi: 3.0.1
info: { title: Zulip errors, version: "1" }
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  schemas:
    CodedError:
      type: object
      required: [result, msg, code]
      properties: { result: { type: string, enum: [error] }, msg: { type: string }, code: { type: string } }
security: [ { basicAuth: [] } ]
paths:
  /messages:
    post:
      operationId: send-message
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [to, content], properties: { to: { type: string }, content: { type: string } } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { type: object, required: [id], properties: { id: { type: integer } } }
        "400":
          description: Bad request.
          content:
            application/json:
              schema:
                oneOf:
                  - allOf:
                      - $ref: "#/components/schemas/CodedError"
                      - example: { code: BAD_REQUEST, msg: "Invalid email", result: error }
                  - allOf:
                      - $ref: "#/components/schemas/CodedError"
                      - example: { code: STREAM_DOES_NOT_EXIST, msg: "Channel does not exist", result: error }
"##;
    let (served, _dir) = serve_document(document, "zulip_errors.yaml", "zulip_errors").await;
    let user = served.credential("basic_auth_username").unwrap().to_owned();
    let password = served.credential("basic_auth_password").unwrap().to_owned();
    let answer = tidings_runtime::reqwest::Client::new()
        .post(format!("{}/messages", served.base_url()))
        .basic_auth(&user, Some(&password))
        .json(&serde_json::json!({"content": "no recipient"}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 400);
    let body: serde_json::Value = answer.json().await.unwrap();
    assert_eq!(body["result"], "error", "{body}");
    assert!(body["code"].is_string(), "{body}");
    assert!(
        body["msg"].as_str().is_some_and(|m| m.contains("to")),
        "{body}"
    );
    assert!(body.get("error").is_none(), "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_write_only_field_is_required_where_the_document_says_and_never_answered_back() {
    // OneSignal (OneSignal/api, onesignal.yaml): an app's `apns_p12_password` and a
    // notification's `app_id` are `writeOnly`, the latter required. Reduced to those facts.
    let document = r##"
openapi: 3.0.1
info: { title: OneSignal apps, version: "1" }
components:
  securitySchemes: { app_key: { type: http, scheme: bearer } }
  schemas:
    App:
      type: object
      required: [name]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }
        apns_p12_password: { type: string, writeOnly: true }
    Notification:
      type: object
      required: [app_id]
      properties:
        app_id: { type: string, writeOnly: true }
        contents: { type: object, properties: { en: { type: string } } }
    NotificationSent:
      type: object
      properties: { id: { type: string } }
security: [ { app_key: [] } ]
paths:
  /apps:
    post:
      operationId: create_app
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/App" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/App" } } } }
  /apps/{app_id}:
    parameters: [ { name: app_id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: get_app
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/App" } } } }
  /notifications:
    post:
      operationId: create_notification
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Notification" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/NotificationSent" } } } }
"##;
    use tidings_codegen::import::{ImportOptions, import_openapi};
    let imported = import_openapi(
        document,
        &ImportOptions::new("onesignal", "onesignal.yaml"),
        None,
    )
    .unwrap();
    let loaded = tidings_codegen::load::load_str("onesignal.yaml", &imported.yaml).unwrap();
    let field = |ty: &str, name: &str| {
        let fields = loaded.spec.types[ty].fields.as_ref().unwrap();
        let f = &fields[name];
        (f.write_only, f.required)
    };
    assert_eq!(field("App", "apns_p12_password"), (true, false));
    // A type only requests use requires it.
    assert_eq!(field("Notification", "app_id"), (true, true));
    let (served, _dir) = serve_document(document, "onesignal.yaml", "onesignal").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let app = serde_json::json!({"name": "Shop", "apns_p12_password": "hunter2"});
    let (status, made) = call_json(&served, key, "POST", "/apps", Some(app)).await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(made["name"], "Shop", "{made}");
    assert!(made.get("apns_p12_password").is_none(), "{made}");
    let id = made["id"].as_str().unwrap();
    let (_, read) = call_json(&served, key, "GET", &format!("/apps/{id}"), None).await;
    assert_eq!(read["name"], "Shop", "{read}");
    assert!(!read.to_string().contains("hunter2"), "{read}");

    let (status, refused) = call_json(
        &served,
        key,
        "POST",
        "/notifications",
        Some(serde_json::json!({"contents": {"en": "Hi"}})),
    )
    .await;
    assert_eq!(status, 422, "{refused}");
    assert!(refused.to_string().contains("app_id"), "{refused}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_next_link_is_absolute_and_followed_to_the_last_page() {
    // Front (frontapp/front-api-specs, core-api.json): `_pagination.next` is "Link to next
    // page of results" beside a `page_token` parameter. Reduced to those facts.
    let document = r##"
openapi: 3.0.0
info: { title: Front contacts, version: "1" }
components:
  securitySchemes: { http: { type: http, scheme: bearer } }
  schemas:
    Contact: { type: object, properties: { id: { type: string }, name: { type: string } } }
security: [ { http: [] } ]
paths:
  /contacts:
    get:
      operationId: list_contacts
      parameters:
        - { name: limit, in: query, schema: { type: integer, maximum: 100 } }
        - { name: page_token, in: query, schema: { type: string } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  _pagination:
                    type: object
                    properties:
                      next: { type: string, nullable: true, description: Link to next page of results }
                  _results: { type: array, items: { $ref: "#/components/schemas/Contact" } }
    post:
      operationId: create_contact
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Contact" } } } }
      responses:
        "201": { description: created, content: { application/json: { schema: { $ref: "#/components/schemas/Contact" } } } }
"##;
    let (served, _dir) = serve_document(document, "front.yaml", "front").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    for n in 0..3 {
        let body = serde_json::json!({"name": format!("c{n}")});
        assert_eq!(
            call_json(&served, key, "POST", "/contacts", Some(body))
                .await
                .0,
            201
        );
    }
    let (_, first) = call_json(&served, key, "GET", "/contacts?limit=2", None).await;
    assert_eq!(
        first["_results"].as_array().map(Vec::len),
        Some(2),
        "{first}"
    );
    let next = first["_pagination"]["next"].as_str().expect("a next link");
    assert!(
        next.starts_with(served.base_url()),
        "followed as it is, absolute: {next}"
    );
    let answer = tidings_runtime::reqwest::Client::new()
        .get(next)
        .header(key.0, key.1)
        .send()
        .await
        .unwrap();
    let last: serde_json::Value = answer.json().await.unwrap();
    assert_eq!(last["_results"].as_array().map(Vec::len), Some(1), "{last}");
    assert!(last["_pagination"]["next"].is_null(), "{last}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_list_meta_says_its_key_page_size_and_links_to_this_the_first_and_the_previous_page() {
    // Twilio Conversations v1 (twilio/twilio-oai, twilio_conversations_v1.json): every list's
    // `meta` has `first_page_url`, `key`, `next_page_url`, `page`, `page_size`,
    // `previous_page_url` and `url`, all optional; only `next_page_url` was answered.
    // Reduced to those facts.
    let document = r##"
openapi: 3.0.1
info: { title: Twilio conversations, version: "1" }
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  schemas:
    Conversation: { type: object, properties: { sid: { type: string }, friendly_name: { type: string } } }
security: [ { basicAuth: [] } ]
paths:
  /v1/Conversations:
    get:
      operationId: ListConversation
      parameters:
        - { name: PageSize, in: query, schema: { type: integer, minimum: 1, maximum: 1000 } }
        - { name: Page, in: query, schema: { type: integer, minimum: 0 } }
        - { name: PageToken, in: query, schema: { type: string } }
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema:
                type: object
                properties:
                  conversations: { type: array, items: { $ref: "#/components/schemas/Conversation" } }
                  meta:
                    type: object
                    properties:
                      first_page_url: { type: string, format: uri }
                      next_page_url: { type: string, format: uri, nullable: true }
                      page: { type: integer }
                      page_size: { type: integer }
                      previous_page_url: { type: string, format: uri, nullable: true }
                      url: { type: string, format: uri }
                      key: { type: string }
    post:
      operationId: CreateConversation
      requestBody: { content: { application/json: { schema: { type: object, properties: { FriendlyName: { type: string } } } } } }
      responses:
        "201": { description: Created, content: { application/json: { schema: { $ref: "#/components/schemas/Conversation" } } } }
"##;
    let (served, _dir) = serve_document(document, "twilio.yaml", "twilio").await;
    let auth = basic_auth(&served);
    let key = ("authorization", auth.as_str());
    for n in 0..3 {
        let body = serde_json::json!({"FriendlyName": format!("c{n}")});
        let (status, _) = call_json(&served, key, "POST", "/v1/Conversations", Some(body)).await;
        assert_eq!(status, 201);
    }
    let (_, first) = call_json(&served, key, "GET", "/v1/Conversations?PageSize=2", None).await;
    let meta = &first["meta"];
    assert_eq!(meta["key"], "conversations", "{first}");
    assert_eq!(
        (meta["page"].as_u64(), meta["page_size"].as_u64()),
        (Some(0), Some(2))
    );
    assert!(
        meta.get("previous_page_url").is_none(),
        "no page before the first: {meta}"
    );
    let next = meta["next_page_url"].as_str().expect("a next link");
    assert!(next.starts_with(served.base_url()), "{next}");
    for link in ["url", "first_page_url"] {
        assert!(
            meta[link]
                .as_str()
                .is_some_and(|l| l.starts_with(served.base_url())),
            "{link}: {meta}"
        );
    }
    let answer = tidings_runtime::reqwest::Client::new()
        .get(next)
        .header(key.0, key.1)
        .send()
        .await
        .unwrap();
    let last: serde_json::Value = answer.json().await.unwrap();
    let meta = &last["meta"];
    assert_eq!(
        last["conversations"].as_array().map(Vec::len),
        Some(1),
        "{last}"
    );
    assert_eq!(meta["page"].as_u64(), Some(1), "{last}");
    assert_eq!(
        meta["url"].as_str(),
        Some(next),
        "this page is the one asked for"
    );
    assert_eq!(meta["previous_page_url"], first["meta"]["url"], "{last}");
    assert_eq!(meta["first_page_url"], first["meta"]["first_page_url"]);
    // The first page's link reads the first page again.
    let again = tidings_runtime::reqwest::Client::new()
        .get(meta["first_page_url"].as_str().unwrap())
        .header(key.0, key.1)
        .send()
        .await
        .unwrap()
        .json::<serde_json::Value>()
        .await
        .unwrap();
    assert_eq!(again["conversations"], first["conversations"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_send_variant_beside_its_collection_creates_what_the_collection_reads_and_cancels() {
    // Telnyx (team-telnyx/openapi, spec3.yml at 12de4dd): `POST /messages/long_code` and
    // `/messages/schedule` answer `{data: {id, ...}}` as `POST /messages` does, and
    // `GET /messages/{id}` / `DELETE /messages/{id}` (the documented cancel of a scheduled
    // message) read and remove them. They were kept apart, and read back 404. Reduced to
    // those facts.
    let document = r##"
openapi: 3.1.0
info: { title: Telnyx messages, version: "2" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Send: { type: object, properties: { from: { type: string }, to: { type: string }, text: { type: string } } }
    Message: { type: object, properties: { id: { type: string, format: uuid, readOnly: true }, to: { type: string }, text: { type: string } } }
    MessageResponse: { type: object, properties: { data: { $ref: "#/components/schemas/Message" } } }
paths:
  /messages:
    post:
      operationId: SendMessage
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Send" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessageResponse" } } } } }
  /messages/schedule:
    post:
      operationId: ScheduleMessage
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Send" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessageResponse" } } } } }
  /messages/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: string, format: uuid } } ]
    get:
      operationId: GetMessage
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessageResponse" } } } }
        "404": { description: not found }
    delete:
      operationId: CancelMessage
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessageResponse" } } } }
        "404": { description: not found }
"##;
    let (served, _dir) = serve_document(document, "telnyx.yaml", "telnyx").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let body = serde_json::json!({"to": "+15550002", "text": "later"});
    let (status, made) = call_json(&served, key, "POST", "/messages/schedule", Some(body)).await;
    assert_eq!(status, 200, "{made}");
    let id = made["data"]["id"].as_str().expect("an id").to_owned();
    let (status, read) = call_json(&served, key, "GET", &format!("/messages/{id}"), None).await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["data"]["text"], "later");
    let (status, _) = call_json(&served, key, "DELETE", &format!("/messages/{id}"), None).await;
    assert_eq!(status, 200, "cancelled");
    // A cancelled message is still read (see `a_delete_named_for_cancelling_keeps_the_item`).
    let (status, read) = call_json(&served, key, "GET", &format!("/messages/{id}"), None).await;
    assert_eq!(
        (status, &read["data"]["text"]),
        (200, &"later".into()),
        "{read}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_create_of_an_id_already_held_is_refused_not_a_silent_replace() {
    // Mandrill (mailchimp/mailchimp-client-lib-codegen, transactional.openapi.json):
    // `POST /templates/add` of a name held answers 422 (`Invalid_Template`, "already
    // exists"); Sendbird (sendbird/sendbird-platform-sdk-java, api/openapi.yaml): `POST
    // /v3/users` with a `user_id` held, no error documented. Both replaced the item held,
    // losing what was acknowledged. Reduced to those facts.
    let document = r##"
openapi: 3.0.3
info: { title: Mandrill and Sendbird, version: "1" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Error: { type: object, required: [status, code, name, message], properties: { status: { type: string }, code: { type: integer }, name: { type: string }, message: { type: string } } }
    Template: { type: object, properties: { name: { type: string }, subject: { type: string } } }
    User: { type: object, required: [user_id, nickname], properties: { user_id: { type: string }, nickname: { type: string } } }
paths:
  /templates/add:
    post:
      operationId: templates/add
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
        "422": { description: exists, content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
  /templates/info:
    post:
      operationId: templates/info
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
  /v3/users:
    post:
      operationId: createAUser
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } } }
  /v3/users/{user_id}:
    parameters: [ { name: user_id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: viewAUser
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } } }
"##;
    let (served, _dir) = serve_document(document, "held.yaml", "held").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let first = serde_json::json!({"name": "welcome", "subject": "Hi"});
    let (status, _) = call_json(&served, key, "POST", "/templates/add", Some(first)).await;
    assert_eq!(status, 200);
    let again = serde_json::json!({"name": "welcome"});
    let (status, error) = call_json(&served, key, "POST", "/templates/add", Some(again)).await;
    assert_eq!(status, 422, "the documented refusal: {error}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("welcome")),
        "{error}"
    );
    let name = serde_json::json!({"name": "welcome"});
    let (_, held) = call_json(&served, key, "POST", "/templates/info", Some(name)).await;
    assert_eq!(
        held["subject"], "Hi",
        "what was acknowledged is kept: {held}"
    );

    let alice = serde_json::json!({"user_id": "alice", "nickname": "Alice"});
    let (status, _) = call_json(&served, key, "POST", "/v3/users", Some(alice)).await;
    assert_eq!(status, 200);
    let mallory = serde_json::json!({"user_id": "alice", "nickname": "Mallory"});
    let (status, _) = call_json(&served, key, "POST", "/v3/users", Some(mallory)).await;
    assert_eq!(status, 409, "no error documented: a conflict");
    let (_, user) = call_json(&served, key, "GET", "/v3/users/alice", None).await;
    assert_eq!(user["nickname"], "Alice");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replace_of_an_item_never_made_is_404_where_the_collection_has_a_create() {
    // ClickSend (ClickSend/clicksend-go-v2, api/openapi.yaml): `POST /v3/lists` creates and
    // `PUT /v3/lists/{list_id}` (update-list) updates; a `PUT` of an id never made created it.
    // Knock (knocklabs/docs, openapi.yml): `PUT /v1/users/{user_id}` is its only create
    // ("create or update"), and keeps creating. OneSignal (OneSignal/onesignal-go-api,
    // api/openapi.yaml): `PUT /apps/{app_id}` "Update an app" lists 400 and a `default`
    // error, no 404; an update of an app never made created it. Reduced to those facts.
    let document = r##"
openapi: 3.0.0
info: { title: ClickSend, Knock and OneSignal, version: "3" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    List: { type: object, properties: { list_id: { type: integer }, list_name: { type: string } } }
    User: { type: object, properties: { id: { type: string }, name: { type: string } } }
    App: { type: object, properties: { id: { type: string }, name: { type: string } } }
    GenericError: { type: object, properties: { errors: { type: array, items: { type: string } } } }
paths:
  /apps:
    post:
      operationId: create_app
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/App" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/App" } } } } }
  /apps/{app_id}:
    parameters: [ { in: path, name: app_id, required: true, schema: { type: string } } ]
    get:
      operationId: get_app
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/App" } } } } }
    put:
      operationId: update_app
      summary: Update an app
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/App" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/App" } } } }
        "400": { description: bad, content: { application/json: { schema: { $ref: "#/components/schemas/GenericError" } } } }
        default: { description: Unexpected error, content: { application/json: { schema: { $ref: "#/components/schemas/GenericError" } } } }
  /v3/lists:
    post:
      operationId: create-list
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/List" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/List" } } } } }
  /v3/lists/{list_id}:
    parameters: [ { in: path, name: list_id, required: true, schema: { type: integer } } ]
    get:
      operationId: view-list
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/List" } } } } }
    put:
      operationId: update-list
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/List" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/List" } } } } }
  /v1/users/{user_id}:
    parameters: [ { in: path, name: user_id, required: true, schema: { type: string } } ]
    get:
      operationId: getUser
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } } }
    put:
      operationId: updateUser
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } } }
"##;
    let (served, _dir) = serve_document(document, "replace.yaml", "replace").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let ghost = serde_json::json!({"list_name": "Ghost"});
    let (status, _) = call_json(&served, key, "PUT", "/v3/lists/777", Some(ghost)).await;
    assert_eq!(status, 404, "an update of a list never made");
    let (status, _) = call_json(&served, key, "GET", "/v3/lists/777", None).await;
    assert_eq!(status, 404, "and nothing was made");
    let ghost = serde_json::json!({"name": "Ghost"});
    let (status, _) = call_json(&served, key, "PUT", "/apps/no-such-app", Some(ghost)).await;
    assert_eq!(
        status, 404,
        "errors listed without a 404 do not make an update a create"
    );
    let (status, _) = call_json(&served, key, "GET", "/apps/no-such-app", None).await;
    assert_eq!(status, 404, "and nothing was made");
    let made = serde_json::json!({"list_name": "A"});
    let (_, list) = call_json(&served, key, "POST", "/v3/lists", Some(made)).await;
    let id = list["list_id"].as_i64().expect("an id");
    let renamed = serde_json::json!({"list_name": "B"});
    let path = format!("/v3/lists/{id}");
    let (status, list) = call_json(&served, key, "PUT", &path, Some(renamed)).await;
    assert_eq!((status, &list["list_name"]), (200, &"B".into()));
    // No create of its own: the replace is the create.
    let user = serde_json::json!({"name": "Ann"});
    let (status, _) = call_json(&served, key, "PUT", "/v1/users/u1", Some(user)).await;
    assert_eq!(status, 200);
    let (status, user) = call_json(&served, key, "GET", "/v1/users/u1", None).await;
    assert_eq!((status, &user["name"]), (200, &"Ann".into()));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_list_answered_whole_says_it_is_one_page_of_all_its_items() {
    // Telnyx (team-telnyx/openapi, spec3.yml at 12de4dd): `GET
    // /messaging_profiles/{profile_id}/autoresp_configs` takes no page parameter and answers
    // `{data, meta}`, `meta` with `page_number`, `page_size`, `total_pages` and
    // `total_results`, all required: they were zeros beside the items. Reduced to those facts.
    let document = r##"
openapi: 3.1.0
info: { title: Telnyx autoresponses, version: "2" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Meta:
      type: object
      required: [total_pages, total_results, page_size, page_number]
      properties: { page_number: { type: integer }, page_size: { type: integer }, total_pages: { type: integer }, total_results: { type: integer } }
    Config: { type: object, properties: { id: { type: string }, op: { type: string } } }
    One: { type: object, properties: { data: { $ref: "#/components/schemas/Config" } } }
    Many:
      type: object
      required: [data, meta]
      properties: { data: { type: array, items: { $ref: "#/components/schemas/Config" } }, meta: { $ref: "#/components/schemas/Meta" } }
paths:
  /configs:
    get:
      operationId: ListConfigs
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Many" } } } } }
    post:
      operationId: CreateConfig
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Config" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/One" } } } } }
"##;
    let (served, _dir) = serve_document(document, "whole.yaml", "whole").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let (_, empty) = call_json(&served, key, "GET", "/configs", None).await;
    assert_eq!(empty["meta"]["total_pages"], 0, "{empty}");
    for op in ["start", "stop", "again"] {
        let body = serde_json::json!({"op": op});
        let (status, _) = call_json(&served, key, "POST", "/configs", Some(body)).await;
        assert_eq!(status, 200);
    }
    let (_, listed) = call_json(&served, key, "GET", "/configs", None).await;
    assert_eq!(listed["data"].as_array().map(Vec::len), Some(3));
    assert_eq!(
        listed["meta"],
        serde_json::json!({"page_number": 1, "page_size": 3, "total_pages": 1, "total_results": 3})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_message_sent_to_a_channel_and_users_keyed_by_id_are_read_where_they_live() {
    // Stream Chat (GetStream/protocol, openapi/v2/chat-serverside-api.json): `POST
    // /channels/{type}/{id}/message` with `{"message": {"id", "text"}}` answers `{"message":
    // {...}}`, read and deleted at `/messages/{id}` (404 before: kept at the singular path, its
    // body's `message` not unwrapped); `POST /users` upserts `{"users": {"<id>": {...}}}`,
    // listed by `GET /users` (one made-up user per call before). Reduced to those facts.
    let document = r##"
openapi: 3.0.3
info: { title: Stream chat, version: "2" }
security: [ { api_key: [] } ]
components:
  securitySchemes: { api_key: { type: apiKey, in: query, name: api_key } }
  schemas:
    Message: { type: object, required: [id, text], properties: { id: { type: string }, text: { type: string } } }
    MessageRequest: { type: object, properties: { id: { type: string }, text: { type: string } } }
    SendMessageRequest: { type: object, required: [message], properties: { message: { $ref: "#/components/schemas/MessageRequest" } } }
    MessageResponse: { type: object, required: [message], properties: { message: { $ref: "#/components/schemas/Message" } } }
    User: { type: object, required: [id, created_at], properties: { id: { type: string }, name: { type: string }, created_at: { type: string, format: date-time } } }
    UserRequest: { type: object, required: [id], properties: { id: { type: string }, name: { type: string } } }
    UpdateUsersRequest: { type: object, required: [users], properties: { users: { type: object, additionalProperties: { $ref: "#/components/schemas/UserRequest" } } } }
    UpdateUsersResponse: { type: object, required: [users], properties: { users: { type: object, additionalProperties: { $ref: "#/components/schemas/User" } } } }
    QueryUsersResponse: { type: object, required: [users], properties: { users: { type: array, items: { $ref: "#/components/schemas/User" } } } }
paths:
  /channels/{type}/{id}/message:
    post:
      operationId: SendMessage
      parameters: [ { in: path, name: type, required: true, schema: { type: string } }, { in: path, name: id, required: true, schema: { type: string } } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/SendMessageRequest" } } } }
      responses: { "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessageResponse" } } } } }
  /messages/{id}:
    parameters: [ { in: path, name: id, required: true, schema: { type: string } } ]
    get:
      operationId: GetMessage
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessageResponse" } } } } }
    delete:
      operationId: DeleteMessage
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessageResponse" } } } } }
  /users:
    post:
      operationId: UpdateUsers
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/UpdateUsersRequest" } } } }
      responses: { "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/UpdateUsersResponse" } } } } }
    get:
      operationId: QueryUsers
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/QueryUsersResponse" } } } } }
"##;
    let (served, _dir) = serve_document(document, "stream.yaml", "stream").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method: &'static str, path: String, body: Option<serde_json::Value>| {
        let served = &served;
        async move { call_json(served, ("x-unused", ""), method, &path, body).await }
    };
    let sent = serde_json::json!({"message": {"id": "m1", "text": "hello"}});
    let path = format!("/channels/messaging/c1/message?api_key={key}");
    let (status, answer) = call("POST", path, Some(sent)).await;
    assert_eq!((status, &answer["message"]["text"]), (201, &"hello".into()));
    let (status, read) = call("GET", format!("/messages/m1?api_key={key}"), None).await;
    assert_eq!(
        (status, &read["message"]["id"]),
        (200, &"m1".into()),
        "{read}"
    );
    let (status, _) = call("DELETE", format!("/messages/m1?api_key={key}"), None).await;
    assert_eq!(status, 200);
    let (status, _) = call("GET", format!("/messages/m1?api_key={key}"), None).await;
    assert_eq!(status, 404);

    let users = serde_json::json!({"users": {"u1": {"id": "u1", "name": "Alice"}, "u2": {"id": "u2", "name": "Bob"}}});
    let (status, _) = call("POST", format!("/users?api_key={key}"), Some(users)).await;
    assert_eq!(status, 201);
    let again = serde_json::json!({"users": {"u1": {"id": "u1", "name": "Alicia"}}});
    let (status, _) = call("POST", format!("/users?api_key={key}"), Some(again)).await;
    assert_eq!(status, 201, "an upsert of one held");
    let (_, listed) = call("GET", format!("/users?api_key={key}"), None).await;
    let names = |list: &serde_json::Value| -> Vec<(String, String)> {
        let users = list["users"].as_array().unwrap().iter();
        users
            .map(|u| (u["id"].to_string(), u["name"].to_string()))
            .collect()
    };
    assert_eq!(
        names(&listed),
        [
            ("\"u1\"".to_owned(), "\"Alicia\"".to_owned()),
            ("\"u2\"".to_owned(), "\"Bob\"".to_owned())
        ],
        "each user kept under its key: {listed}"
    );
    // What the answer adds is made once, with the item (a new `created_at` on every read).
    tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    let (_, later) = call("GET", format!("/users?api_key={key}"), None).await;
    assert_eq!(
        listed["users"][1]["created_at"], later["users"][1]["created_at"],
        "{later}"
    );
    assert!(listed["users"][1]["created_at"].is_string(), "{listed}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_verb_of_a_family_that_names_the_item_answers_it_or_its_404() {
    // Mandrill (mailchimp/mailchimp-client-lib-codegen, transactional.openapi.json): `POST
    // /templates/publish {name}` answers the template and documents 404 `Unknown_Template`; it
    // answered a made-up template, and 200 for a name never added. Reduced to those facts.
    let document = r##"
openapi: 3.0.3
info: { title: Mandrill templates, version: "1" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Error: { type: object, required: [status, name, message], properties: { status: { type: string }, name: { type: string }, message: { type: string } } }
    Template: { type: object, properties: { name: { type: string }, subject: { type: string } } }
    Named: { type: object, required: [name], properties: { name: { type: string } } }
paths:
  /templates/add:
    post:
      operationId: templates/add
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } } }
  /templates/info:
    post:
      operationId: templates/info
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Named" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
        "404": { description: unknown, content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
  /templates/publish:
    post:
      operationId: templates/publish
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Named" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
        "404": { description: unknown, content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
"##;
    let (served, _dir) = serve_document(document, "mandrill.yaml", "mandrill").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let template = serde_json::json!({"name": "welcome", "subject": "Hi"});
    let (status, _) = call_json(&served, key, "POST", "/templates/add", Some(template)).await;
    assert_eq!(status, 200);
    let name = serde_json::json!({"name": "welcome"});
    let (status, published) =
        call_json(&served, key, "POST", "/templates/publish", Some(name)).await;
    assert_eq!(
        (status, &published["subject"]),
        (200, &"Hi".into()),
        "{published}"
    );
    let never = serde_json::json!({"name": "never-added"});
    let (status, _) = call_json(&served, key, "POST", "/templates/publish", Some(never)).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_create_described_as_an_upsert_updates_unless_asked_to_fail() {
    // Novu (novuhq/novu-ts, sources/json-development.json): `POST /v2/subscribers` "if the
    // subscriber already exists, it will be updated", and fails with 409 when `failIfExists`
    // is true; its 409 is documented with the subscriber's own schema, which was read as an
    // error envelope (the message in `channels.0.credentials.title`). Reduced to those facts.
    let document = r##"
openapi: 3.0.0
info: { title: Novu subscribers, version: "2" }
security: [ { secretKey: [] } ]
components:
  securitySchemes: { secretKey: { type: apiKey, in: header, name: Authorization } }
  schemas:
    Channel: { type: object, properties: { providerId: { type: string }, credentials: { type: object, properties: { title: { type: string } } } } }
    Subscriber: { type: object, required: [subscriberId], properties: { subscriberId: { type: string }, firstName: { type: string }, channels: { type: array, items: { $ref: "#/components/schemas/Channel" } } } }
    Error: { type: object, required: [statusCode, message], properties: { statusCode: { type: number }, message: { type: string } } }
paths:
  /v2/subscribers:
    post:
      operationId: SubscribersController_createSubscriber
      description: Create a subscriber; subscriberId is required, and if the subscriber already exists, it will be updated.
      parameters: [ { name: failIfExists, in: query, schema: { type: boolean } } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Subscriber" } } } }
      responses:
        "201": { description: created, content: { application/json: { schema: { $ref: "#/components/schemas/Subscriber" } } } }
        "400": { description: bad, content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
        "409": { description: exists, content: { application/json: { schema: { $ref: "#/components/schemas/Subscriber" } } } }
  /v2/subscribers/{subscriberId}:
    parameters: [ { name: subscriberId, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: SubscribersController_getSubscriber
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Subscriber" } } } } }
"##;
    let (served, _dir) = serve_document(document, "novu.yaml", "novu").await;
    let secret = served.credential("api_key").unwrap().to_owned();
    let key = ("authorization", secret.as_str());
    let ann = serde_json::json!({"subscriberId": "s1", "firstName": "Ann"});
    let (status, _) = call_json(&served, key, "POST", "/v2/subscribers", Some(ann)).await;
    assert_eq!(status, 201);
    let updated = serde_json::json!({"subscriberId": "s1", "firstName": "Updated"});
    let (status, _) = call_json(&served, key, "POST", "/v2/subscribers", Some(updated)).await;
    assert_eq!(status, 201, "updated, as described");
    let (_, held) = call_json(&served, key, "GET", "/v2/subscribers/s1", None).await;
    assert_eq!(held["firstName"], "Updated");
    let x = serde_json::json!({"subscriberId": "s1", "firstName": "X"});
    let path = "/v2/subscribers?failIfExists=true";
    let (status, refused) = call_json(&served, key, "POST", path, Some(x)).await;
    assert_eq!(status, 409);
    assert!(
        refused.get("channels").is_none(),
        "no made-up subscriber: {refused}"
    );
    assert!(
        refused["message"]
            .as_str()
            .is_some_and(|m| m.contains("s1")),
        "{refused}"
    );
    let (_, held) = call_json(&served, key, "GET", "/v2/subscribers/s1", None).await;
    assert_eq!(held["firstName"], "Updated");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_borrowed_not_found_code_that_names_another_thing_is_not_answered() {
    // Intercom (intercom/Intercom-OpenAPI 8889625, descriptions/2.16): the 404 example of
    // `GET /admins/{id}` is `admin_not_found`; a contact's operations document no 404 example,
    // and a deleted contact answered `admin_not_found`. Reduced to those facts.
    let document = r##"
openapi: 3.0.3
info: { title: Intercom, version: "2.16" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    contact: { type: object, properties: { id: { type: string }, email: { type: string } } }
    admin: { type: object, properties: { id: { type: string }, name: { type: string } } }
    error: { type: object, required: [type, request_id, errors], properties: { type: { type: string }, request_id: { type: string, format: uuid }, errors: { type: array, items: { type: object, required: [code], properties: { code: { type: string }, message: { type: string } } } } } }
paths:
  /admins/{admin_id}:
    get:
      operationId: getAdmin
      parameters: [ { name: admin_id, in: path, required: true, schema: { type: string } } ]
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/admin" } } } }
        "404":
          description: not found
          content:
            application/json:
              schema: { $ref: "#/components/schemas/error" }
              example: { type: error.list, request_id: 8c1f3b0e-6a3e-4d55-9f1e-2b7f0a1c9d42, errors: [ { code: admin_not_found, message: Admin not found } ] }
  /contacts:
    post:
      operationId: createContact
      requestBody: { content: { application/json: { schema: { type: object, properties: { email: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/contact" } } } } }
  /contacts/{contact_id}:
    parameters: [ { name: contact_id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: getContact
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/contact" } } } }
        "404": { description: not found, content: { application/json: { schema: { $ref: "#/components/schemas/error" } } } }
"##;
    let (served, _dir) = serve_document(document, "intercom.yaml", "intercom").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let (status, missing) = call_json(&served, key, "GET", "/contacts/nobody", None).await;
    assert_eq!(status, 404, "{missing}");
    let code = missing["errors"][0]["code"].as_str().unwrap_or_default();
    assert!(
        !code.contains("admin"),
        "a contact is not an admin: {missing}"
    );
    // Each answer's request id is its own UUID, as the format says: it was the same fixed
    // `00000000-...` on every answer.
    let (_, again) = call_json(&served, key, "GET", "/contacts/nobody", None).await;
    let ids = [&missing["request_id"], &again["request_id"]]
        .map(|v| v.as_str().unwrap_or_default().to_owned());
    assert!(
        ids.iter().all(|id| id.len() == 36
            && id
                .char_indices()
                .all(|(i, c)| if [8, 13, 18, 23].contains(&i) {
                    c == '-'
                } else {
                    c.is_ascii_hexdigit()
                })),
        "{ids:?} {missing}"
    );
    assert_ne!(ids[0], ids[1]);
    assert_ne!(ids[0], "00000000-0000-4000-8000-000000000000");
    let (status, admin) = call_json(&served, key, "GET", "/admins/nobody", None).await;
    assert_eq!(status, 404);
    assert_eq!(admin["errors"][0]["code"], "admin_not_found", "{admin}");
    // The example's request id is the example's, not this answer's; a UUID still.
    let id = admin["request_id"].as_str().unwrap_or_default();
    assert_ne!(id, "8c1f3b0e-6a3e-4d55-9f1e-2b7f0a1c9d42");
    assert_eq!((id.len(), id.matches('-').count()), (36, 4), "{admin}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_create_or_update_of_one_value_updates_the_item_that_holds_it() {
    // Intercom (intercom/Intercom-OpenAPI 8889625, descriptions/2.16): `POST /tags` "Create or
    // update a tag", its body `{name}` ("created if not found") or `{id, name}` (a rename).
    // A second `{"name": "vip"}` made a second tag of that name. Reduced to those facts.
    let document = r##"
openapi: 3.0.3
info: { title: Intercom tags, version: "2.16" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    tag: { type: object, properties: { type: { type: string }, id: { type: string }, name: { type: string } } }
    tag_list: { type: object, properties: { type: { type: string }, data: { type: array, items: { $ref: "#/components/schemas/tag" } } } }
paths:
  /tags:
    get:
      operationId: listTags
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/tag_list" } } } } }
    post:
      operationId: createTag
      summary: Create or update a tag
      requestBody:
        content:
          application/json:
            schema: { type: object, required: [name], properties: { name: { type: string }, id: { type: string } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/tag" } } } } }
"##;
    let (served, _dir) = serve_document(document, "intercom.yaml", "intercom").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let vip = serde_json::json!({"name": "vip"});
    let (status, first) = call_json(&served, key, "POST", "/tags", Some(vip.clone())).await;
    assert_eq!(status, 200, "{first}");
    let (status, again) = call_json(&served, key, "POST", "/tags", Some(vip)).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["id"], first["id"], "the tag held, not a second one");
    let gold = serde_json::json!({"name": "gold"});
    let (_, other) = call_json(&served, key, "POST", "/tags", Some(gold)).await;
    assert_ne!(other["id"], first["id"]);
    let (_, list) = call_json(&served, key, "GET", "/tags", None).await;
    let names: Vec<&str> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["vip", "gold"], "{list}");
    // A rename by id updates that tag.
    let rename = serde_json::json!({"id": first["id"], "name": "platinum"});
    let (status, renamed) = call_json(&served, key, "POST", "/tags", Some(rename)).await;
    assert_eq!(status, 200, "{renamed}");
    assert_eq!(renamed["id"], first["id"]);
    assert_eq!(renamed["name"], "platinum");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_item_is_keyed_by_the_key_its_client_chose_and_an_upsert_keeps_the_rest() {
    // Novu (novuhq/novu-ts, sources/json-development.json): `POST /v2/topics {key, name}`
    // "creates ... or updates an existing topic", answered with the service's `_id` beside
    // `key`; `GET|PATCH /v2/topics/{topicKey}` address it by `key`. It was kept under a
    // made-up id: 404 by its key, and a second create added a duplicate. Reduced to those facts.
    let document = r##"
openapi: 3.0.0
info: { title: Novu topics, version: "2" }
security: [ { secretKey: [] } ]
components:
  securitySchemes: { secretKey: { type: apiKey, in: header, name: Authorization } }
  schemas:
    TopicIn: { type: object, required: [key], properties: { key: { type: string }, name: { type: string } } }
    Topic: { type: object, required: [_id, key], properties: { _id: { type: string }, key: { type: string }, name: { type: string } } }
    Topics: { type: object, properties: { data: { type: array, items: { $ref: "#/components/schemas/Topic" } } } }
paths:
  /v2/topics:
    post:
      operationId: TopicsController_upsertTopic
      description: Creates a topic if it does not exist, or updates an existing topic if it already exists.
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/TopicIn" } } } }
      responses: { "201": { description: created, content: { application/json: { schema: { $ref: "#/components/schemas/Topic" } } } } }
    get:
      operationId: TopicsController_listTopics
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Topics" } } } } }
  /v2/topics/{topicKey}:
    parameters: [ { name: topicKey, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: TopicsController_getTopic
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Topic" } } } } }
    patch:
      operationId: TopicsController_updateTopic
      requestBody: { content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Topic" } } } } }
"##;
    let (served, _dir) = serve_document(document, "topics.yaml", "topics").await;
    let secret = served.credential("api_key").unwrap().to_owned();
    let key = ("authorization", secret.as_str());
    let one = serde_json::json!({"key": "t1", "name": "One"});
    let (status, made) = call_json(&served, key, "POST", "/v2/topics", Some(one)).await;
    assert_eq!(status, 201);
    let service_id = made["_id"].clone();
    let renamed = serde_json::json!({"key": "t1", "name": "Renamed"});
    let (status, again) = call_json(&served, key, "POST", "/v2/topics", Some(renamed)).await;
    assert_eq!(status, 201);
    assert_eq!(
        again["_id"], service_id,
        "the upsert keeps what it does not send"
    );
    let (status, read) = call_json(&served, key, "GET", "/v2/topics/t1", None).await;
    assert_eq!((status, &read["name"]), (200, &"Renamed".into()), "{read}");
    let patch = serde_json::json!({"name": "P"});
    let (status, _) = call_json(&served, key, "PATCH", "/v2/topics/t1", Some(patch)).await;
    assert_eq!(status, 200);
    let (_, listed) = call_json(&served, key, "GET", "/v2/topics", None).await;
    assert_eq!(listed["data"].as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(listed["data"][0]["name"], "P");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_created_item_s_link_to_itself_is_where_it_is_read() {
    // Textmagic (textmagic/textmagic-rest-go-v2, api/openapi.yaml): a create answers
    // `ResourceLinkResponse {id, href}`, `href` "a link to this resource" (example
    // `/api/v2/entity_name/1`); it was a made-up `https://example.com/`. Reduced to those facts.
    let document = r##"
openapi: 3.0.0
info: { title: Textmagic templates, version: "2" }
security: [ { BasicAuth: [] } ]
components:
  securitySchemes: { BasicAuth: { type: http, scheme: basic } }
  schemas:
    Link: { type: object, required: [id, href], properties: { id: { type: integer }, href: { type: string } } }
    Template: { type: object, properties: { id: { type: integer }, name: { type: string } } }
paths:
  /api/v2/templates:
    post:
      operationId: createTemplate
      requestBody: { content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } } }
      responses: { "201": { description: created, content: { application/json: { schema: { $ref: "#/components/schemas/Link" } } } } }
  /api/v2/templates/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: integer } } ]
    get:
      operationId: getTemplate
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } } }
"##;
    let (served, _dir) = serve_document(document, "textmagic.yaml", "textmagic").await;
    let auth = basic_auth(&served);
    let key = ("authorization", auth.as_str());
    let body = serde_json::json!({"name": "T1"});
    let (status, link) = call_json(&served, key, "POST", "/api/v2/templates", Some(body)).await;
    assert_eq!(status, 201);
    let href = link["href"].as_str().expect("a link").to_owned();
    assert_eq!(href, format!("/api/v2/templates/{}", link["id"]), "{link}");
    let (status, read) = call_json(&served, key, "GET", &href, None).await;
    assert_eq!(
        (status, &read["name"]),
        (200, &"T1".into()),
        "followed: {read}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_list_asked_by_a_post_filters_by_its_body_and_one_value_of_a_list_field() {
    // Mandrill (mailchimp/mailchimp-client-lib-codegen, transactional.openapi.json): `POST
    // /templates/list {label}` lists the templates whose `labels` hold it; it listed them
    // all. Reduced to those facts.
    let document = r##"
openapi: 3.0.3
info: { title: Mandrill templates, version: "1" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Template: { type: object, properties: { name: { type: string }, labels: { type: array, items: { type: string } } } }
paths:
  /templates/add:
    post:
      operationId: templates/add
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } } }
  /templates/info:
    post:
      operationId: templates/info
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } } }
  /templates/list:
    post:
      operationId: templates/list
      requestBody: { content: { application/json: { schema: { type: object, properties: { label: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Template" } } } } } }
"##;
    let (served, _dir) = serve_document(document, "labels.yaml", "labels").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    for (name, label) in [("one", "a"), ("two", "b"), ("three", "a")] {
        let body = serde_json::json!({"name": name, "labels": [label, "all"]});
        let (status, _) = call_json(&served, key, "POST", "/templates/add", Some(body)).await;
        assert_eq!(status, 200);
    }
    let names = |listed: &serde_json::Value| -> Vec<String> {
        listed
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let by_a = serde_json::json!({"label": "a"});
    let (_, listed) = call_json(&served, key, "POST", "/templates/list", Some(by_a)).await;
    assert_eq!(names(&listed), ["one", "three"], "{listed}");
    let (_, listed) = call_json(
        &served,
        key,
        "POST",
        "/templates/list",
        Some(serde_json::json!({})),
    )
    .await;
    assert_eq!(names(&listed).len(), 3, "no label: every template");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_body_that_wraps_the_item_in_a_root_key_writes_the_item() {
    // Mailtrap (railsware/mailtrap-openapi): every create and update wraps the item in a root
    // key (`{"email_template": {...}}`) and answers it unwrapped; nothing was stored, and every
    // answer was `{"id": 1}`. Reduced to those facts.
    let document = r##"
openapi: 3.0.0
info: { title: Mailtrap templates, version: "1" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Template: { type: object, properties: { id: { type: integer }, name: { type: string }, subject: { type: string } } }
    Fields: { type: object, properties: { name: { type: string }, subject: { type: string } } }
    Wrapped: { type: object, required: [email_template], properties: { email_template: { $ref: "#/components/schemas/Fields" } } }
paths:
  /api/email_templates:
    post:
      operationId: createTemplate
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Wrapped" } } } }
      responses: { "201": { description: created, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } } }
  /api/email_templates/{email_template_id}:
    parameters: [ { name: email_template_id, in: path, required: true, schema: { type: integer } } ]
    get:
      operationId: getTemplate
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } } }
    patch:
      operationId: updateTemplate
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Wrapped" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } } }
"##;
    let (served, _dir) = serve_document(document, "mailtrap.yaml", "mailtrap").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let made = serde_json::json!({"email_template": {"name": "Welcome", "subject": "Hi"}});
    let (status, made) = call_json(&served, key, "POST", "/api/email_templates", Some(made)).await;
    assert_eq!((status, &made["name"]), (201, &"Welcome".into()), "{made}");
    let path = format!("/api/email_templates/{}", made["id"]);
    let change = serde_json::json!({"email_template": {"subject": "Hello"}});
    let (status, _) = call_json(&served, key, "PATCH", &path, Some(change)).await;
    assert_eq!(status, 200);
    let (_, read) = call_json(&served, key, "GET", &path, None).await;
    assert_eq!(
        (&read["name"], &read["subject"]),
        (&"Welcome".into(), &"Hello".into()),
        "{read}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_create_under_a_parent_never_made_is_the_404_the_operation_documents() {
    // Mailtrap (mailtrap/mailtrap-openapi, specs/sandbox.openapi.yml): `POST
    // /api/projects/{project_id}/sandboxes` documents 404, and `POST /api/projects` makes
    // projects; a sandbox under project 999, never made, was created. Where no 404 is
    // documented (Twilio's messages under an account no call made), the child is still made.
    let document = r##"
openapi: 3.0.0
info: { title: Mailtrap sandboxes, version: "1" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Project: { type: object, properties: { id: { type: integer }, name: { type: string } } }
    Sandbox: { type: object, properties: { id: { type: integer }, name: { type: string } } }
    NotFound: { type: object, properties: { error: { type: string, description: Error message } } }
paths:
  /api/projects:
    post:
      operationId: createProject
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Project" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Project" } } } } }
  /api/projects/{project_id}:
    parameters: [ { name: project_id, in: path, required: true, schema: { type: integer } } ]
    get:
      operationId: getProject
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Project" } } } } }
  /api/projects/{project_id}/sandboxes:
    parameters: [ { name: project_id, in: path, required: true, schema: { type: integer } } ]
    post:
      operationId: createSandbox
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Sandbox" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Sandbox" } } } }
        "404": { description: not found, content: { application/json: { schema: { $ref: "#/components/schemas/NotFound" } } } }
  /api/projects/{project_id}/notes:
    parameters: [ { name: project_id, in: path, required: true, schema: { type: integer } } ]
    post:
      operationId: createNote
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Sandbox" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Sandbox" } } } } }
"##;
    let (served, _dir) = serve_document(document, "sandboxes.yaml", "sandboxes").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let orphan = serde_json::json!({"name": "orphan"});
    let path = "/api/projects/999/sandboxes";
    let (status, error) = call_json(&served, key, "POST", path, Some(orphan.clone())).await;
    assert_eq!(status, 404, "{error}");
    assert!(
        error["error"].as_str().is_some_and(|m| m.contains("999")),
        "{error}"
    );
    let project = serde_json::json!({"name": "P"});
    let (_, project) = call_json(&served, key, "POST", "/api/projects", Some(project)).await;
    let path = format!("/api/projects/{}/sandboxes", project["id"]);
    let (status, _) = call_json(&served, key, "POST", &path, Some(orphan.clone())).await;
    assert_eq!(status, 200, "under a project made");
    // Where the operation documents no 404, the same 404, in the service's error shape: an
    // item under no parent was acknowledged where the service has none.
    let note = "/api/projects/999/notes";
    let (status, error) = call_json(&served, key, "POST", note, Some(orphan.clone())).await;
    assert_eq!(status, 404, "{error}");
    let note = format!("/api/projects/{}/notes", project["id"]);
    let (status, _) = call_json(&served, key, "POST", &note, Some(orphan)).await;
    assert_eq!(status, 200, "under a project made");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_update_named_by_a_verb_after_the_item_s_path_is_kept() {
    // Mattermost (mattermost/mattermost, api/v4): `PUT /posts/{post_id}/patch` changes the
    // fields it sends and answers the post. Reduced to those facts (Swagger 2.0, as the
    // bundled document is).
    let document = r##"
swagger: "2.0"
info: { title: Mattermost posts, version: "4" }
host: example.com
basePath: /api/v4
consumes: [application/json]
produces: [application/json]
securityDefinitions: { bearer: { type: apiKey, in: header, name: Authorization } }
security: [ { bearer: [] } ]
definitions:
  Post:
    type: object
    properties:
      id: { type: string }
      channel_id: { type: string }
      message: { type: string }
      is_pinned: { type: boolean }
paths:
  /posts:
    post:
      operationId: CreatePost
      parameters:
        - in: body
          name: post
          required: true
          schema: { type: object, required: [channel_id, message], properties: { channel_id: { type: string }, message: { type: string } } }
      responses:
        "201": { description: created, schema: { $ref: "#/definitions/Post" } }
  /posts/{post_id}:
    get:
      operationId: GetPost
      parameters: [ { in: path, name: post_id, type: string, required: true } ]
      responses:
        "200": { description: ok, schema: { $ref: "#/definitions/Post" } }
  /posts/{post_id}/patch:
    put:
      operationId: PatchPost
      parameters:
        - { in: path, name: post_id, type: string, required: true }
        - in: body
          name: patch
          required: true
          schema: { type: object, properties: { message: { type: string }, is_pinned: { type: boolean } } }
      responses:
        "200": { description: ok, schema: { $ref: "#/definitions/Post" } }
"##;
    let (served, _dir) = serve_document(document, "mattermost.yaml", "mattermost").await;
    // A scheme named for bearer tokens takes `Bearer <token>`, as Mattermost's clients send it.
    let token = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", token.as_str());
    let body = serde_json::json!({"channel_id": "c1", "message": "hello"});
    let (status, post) = call_json(&served, key, "POST", "/posts", Some(body)).await;
    assert_eq!(status, 201, "{post}");
    let id = post["id"].as_str().unwrap();
    let patch = serde_json::json!({"message": "edited", "is_pinned": true});
    let path = format!("/posts/{id}/patch");
    let (status, changed) = call_json(&served, key, "PUT", &path, Some(patch)).await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["message"], "edited", "{changed}");
    let (_, read) = call_json(&served, key, "GET", &format!("/posts/{id}"), None).await;
    assert_eq!(
        (&read["message"], &read["is_pinned"], &read["channel_id"]),
        (
            &serde_json::json!("edited"),
            &serde_json::json!(true),
            &serde_json::json!("c1")
        ),
        "{read}"
    );
    let missing = call_json(
        &served,
        key,
        "PUT",
        "/posts/nope/patch",
        Some(serde_json::json!({})),
    )
    .await;
    assert_eq!(missing.0, 404, "{}", missing.1);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_error_field_of_listed_codes_is_the_code_and_each_refusal_answers_its_own() {
    // Slack (slackapi/slack-api-specs, web-api/slack_web_openapi_v2.json): every method's
    // `default` answer is `{ok: false, error: <one of its codes>}`. Reduced to those facts.
    let document = r##"
swagger: "2.0"
info: { title: Slack rooms, version: "1" }
securityDefinitions: { key: { type: apiKey, in: header, name: Authorization } }
security: [ { key: [] } ]
paths:
  /rooms.create:
    post:
      operationId: rooms_create
      consumes: [application/x-www-form-urlencoded]
      produces: [application/json]
      parameters:
        - { in: formData, name: name, type: string, required: true }
      responses:
        "200":
          description: ok
          schema: { type: object, required: [ok], properties: { ok: { type: boolean } } }
        default:
          description: error
          schema:
            type: object
            required: [ok, error]
            properties:
              ok: { type: boolean }
              error: { type: string, enum: [name_taken, account_inactive, not_authed, invalid_auth, invalid_arg_name] }
"##;
    use tidings_codegen::import::{ImportOptions, import_openapi};
    let imported =
        import_openapi(document, &ImportOptions::new("slack", "slack.yaml"), None).unwrap();
    assert!(
        imported.yaml.contains("code: error") && imported.yaml.contains("message: none"),
        "{}",
        imported.yaml
    );
    let (served, _dir) = serve_document(document, "slack.yaml", "slack").await;
    let url = format!("{}/rooms.create", served.base_url());
    let client = tidings_runtime::reqwest::Client::new();
    let no_key = client
        .post(&url)
        .form(&[("name", "a")])
        .send()
        .await
        .unwrap();
    assert_eq!(no_key.status().as_u16(), 401);
    let body: serde_json::Value = no_key.json().await.unwrap();
    assert_eq!(body["error"], "not_authed", "{body}");
    let wrong = client
        .post(&url)
        .header("authorization", "not-the-key")
        .form(&[("name", "a")])
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status().as_u16(), 401);
    let body: serde_json::Value = wrong.json().await.unwrap();
    assert_eq!(body["error"], "invalid_auth", "{body}");
    let key = served.credential("api_key").unwrap().to_owned();
    let missing = client
        .post(&url)
        .header("authorization", &key)
        .form(&[("other", "a")])
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status().as_u16(), 422);
    let body: serde_json::Value = missing.json().await.unwrap();
    assert_eq!(body["error"], "invalid_arg_name", "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_lookup_by_another_field_finds_the_item_that_has_it() {
    // Intercom (intercom/Intercom-OpenAPI, descriptions/2.14): `GET
    // /contacts/find_by_external_id/{external_id}` reads the contact with that `external_id`.
    let document = r##"
openapi: 3.0.1
info: { title: Intercom contacts, version: "2.14" }
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    contact:
      type: object
      properties: { id: { type: string }, external_id: { type: string }, email: { type: string } }
security: [ { bearerAuth: [] } ]
paths:
  /contacts:
    post:
      operationId: CreateContact
      requestBody: { content: { application/json: { schema: { type: object, properties: { external_id: { type: string }, email: { type: string } } } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/contact" } } } }
  /contacts/{contact_id}:
    parameters: [ { name: contact_id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: ShowContact
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/contact" } } } }
  /contacts/find_by_external_id/{external_id}:
    parameters: [ { name: external_id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: ShowContactByExternalId
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/contact" } } } }
"##;
    let (served, _dir) = serve_document(document, "intercom.yaml", "intercom").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let body = serde_json::json!({"external_id": "crm-42", "email": "ada@example.com"});
    let (status, made) = call_json(&served, key, "POST", "/contacts", Some(body)).await;
    assert_eq!(status, 200, "{made}");
    let (status, found) = call_json(
        &served,
        key,
        "GET",
        "/contacts/find_by_external_id/crm-42",
        None,
    )
    .await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["id"], made["id"], "{found}");
    assert_eq!(found["email"], "ada@example.com", "{found}");
    let (status, _) = call_json(
        &served,
        key,
        "GET",
        "/contacts/find_by_external_id/crm-0",
        None,
    )
    .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_required_field_that_may_be_null_is_answered_as_null_and_asked_of_requests() {
    // Novu (novuhq/novu-ts, sources/json-development.json): every list requires `next` and
    // `previous`, each a string or null; Textmagic's `MessageTemplate` requires a nullable
    // `lastModified`. They were imported as optional and left out of every answer, so a client
    // that validates answers (Novu's own) would fail on each list.
    let document = r##"
openapi: 3.0.0
info: { title: Nullable, version: "1" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Item:
      type: object
      required: [id, name, lastModified, note]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }
        lastModified: { type: string, format: date-time, nullable: true, readOnly: true }
        note: { type: string, nullable: true }
    NewItem:
      type: object
      required: [name, note]
      properties:
        name: { type: string }
        note: { type: string, nullable: true }
    Page:
      type: object
      required: [data, next, previous]
      properties:
        data: { type: array, items: { $ref: "#/components/schemas/Item" } }
        next: { type: string, nullable: true, description: "Cursor of the next page, or null." }
        previous: { type: string, nullable: true, description: "Cursor of the page before, or null." }
paths:
  /items:
    post:
      operationId: createItem
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/NewItem" } } } }
      responses: { "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } } } }
    get:
      operationId: listItems
      parameters:
        - { name: after, in: query, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Page" } } } } }
  /items/{id}:
    get:
      operationId: getItem
      parameters: [ { name: id, in: path, required: true, schema: { type: string } } ]
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } } } }
"##;
    let (served, dir) = serve_document(document, "nullable.yaml", "nullable").await;
    let spec = std::fs::read_to_string(dir.path().join("nullable.yaml")).unwrap();
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());

    // A request must carry the key, and may carry null.
    let left_out = serde_json::json!({"name": "a"});
    let (status, error) = call_json(&served, key, "POST", "/items", Some(left_out)).await;
    assert_eq!(status, 422, "{error} {spec}");
    assert!(error.to_string().contains("note"), "{error}");
    for (name, note) in [("a", serde_json::Value::Null), ("b", "kept".into())] {
        let body = serde_json::json!({"name": name, "note": note});
        let (status, item) = call_json(&served, key, "POST", "/items", Some(body)).await;
        assert_eq!(status, 201, "{item}");
        assert_eq!(item["note"], note, "{item}");
        let got = item.as_object().unwrap();
        assert_eq!(
            got.get("lastModified"),
            Some(&serde_json::Value::Null),
            "{item}"
        );
    }
    let (_, first) = call_json(&served, key, "GET", "/items?limit=1", None).await;
    let page = first.as_object().unwrap();
    assert_eq!(
        page.get("previous"),
        Some(&serde_json::Value::Null),
        "{first}"
    );
    let next = first["next"].as_str().unwrap_or_else(|| panic!("{first}"));
    let path = format!("/items?limit=1&after={next}");
    let (_, last) = call_json(&served, key, "GET", &path, None).await;
    assert_eq!(last["data"][0]["name"], "b", "{last}");
    let page = last.as_object().unwrap();
    assert_eq!(page.get("next"), Some(&serde_json::Value::Null), "{last}");
}

#[tokio::test]
async fn a_validation_error_keyed_by_field_names_the_field_it_refuses() {
    // Novu (novuhq/novu-ts, sources/json-development.json): a 422's `errors` is "a record of
    // validation errors keyed by field name", each `{messages, value}`; Mailtrap
    // (mailtrap/mailtrap-openapi, specs/contacts.openapi.yml): `errors: {"email": ["can't be
    // blank"]}`; SendGrid: `errors: [{field, message}]`. All three answered without the field
    // (`errors: {}`, `"field": "field"`): the client could not tell what to mend.
    let novu = r##"
openapi: 3.0.0
info: { title: Subscribers, version: "1" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    ErrorDto:
      type: object
      required: [statusCode, path]
      properties: { statusCode: { type: number }, path: { type: string }, message: { type: string } }
    ValidationErrorDto:
      type: object
      required: [statusCode, path, errors]
      properties:
        statusCode: { type: number }
        path: { type: string }
        message: { type: string }
        errors:
          type: object
          description: A record of validation errors keyed by field name
          additionalProperties:
            type: object
            required: [messages]
            properties: { messages: { type: array, items: { type: string } }, value: {} }
    Sub:
      type: object
      required: [subscriberId]
      properties: { subscriberId: { type: string } }
paths:
  /v2/subscribers:
    post:
      operationId: createSubscriber
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Sub" } } } }
      responses:
        "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Sub" } } } }
        "404": { description: missing, content: { application/json: { schema: { $ref: "#/components/schemas/ErrorDto" } } } }
        "422": { description: invalid, content: { application/json: { schema: { $ref: "#/components/schemas/ValidationErrorDto" } } } }
"##;
    let mailtrap = r##"
openapi: 3.0.0
info: { title: Lists, version: "1" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Unprocessable:
      type: object
      properties:
        errors:
          type: object
          description: Validation errors per attribute.
          additionalProperties: { type: array, items: { type: string } }
    List: { type: object, required: [name], properties: { id: { type: integer }, name: { type: string } } }
paths:
  /api/lists:
    post:
      operationId: createList
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/List" } } } }
      responses:
        "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/List" } } } }
        "422": { description: invalid, content: { application/json: { schema: { $ref: "#/components/schemas/Unprocessable" } } } }
"##;
    let sendgrid = r##"
openapi: 3.0.0
info: { title: Senders, version: "1" }
security: [ { bearerAuth: [] } ]
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Errors:
      type: object
      properties:
        errors:
          type: array
          items: { type: object, required: [field, message], properties: { field: { type: string }, message: { type: string } } }
    Sender: { type: object, required: [nickname], properties: { id: { type: integer }, nickname: { type: string } } }
paths:
  /v3/senders:
    post:
      operationId: createSender
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Sender" } } } }
      responses:
        "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Sender" } } } }
        "400": { description: invalid, content: { application/json: { schema: { $ref: "#/components/schemas/Errors" } } } }
        "422": { description: invalid, content: { application/json: { schema: { $ref: "#/components/schemas/Errors" } } } }
"##;
    let empty = Some(serde_json::json!({}));
    let (served, _dir) = serve_document(novu, "novu.yaml", "novu").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let (status, error) = call_json(&served, key, "POST", "/v2/subscribers", empty.clone()).await;
    assert_eq!(status, 422, "{error}");
    let messages = &error["errors"]["subscriberId"]["messages"];
    assert!(
        messages[0]
            .as_str()
            .is_some_and(|m| m.contains("subscriberId")),
        "{error}"
    );
    assert_eq!(error["path"], "/v2/subscribers", "{error}");

    let (served, _dir) = serve_document(mailtrap, "mailtrap.yaml", "mailtrap").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let (status, error) = call_json(&served, key, "POST", "/api/lists", empty.clone()).await;
    assert_eq!(status, 422, "{error}");
    let errors = error["errors"]
        .as_object()
        .unwrap_or_else(|| panic!("{error}"));
    assert_eq!(errors.keys().collect::<Vec<_>>(), ["name"], "{error}");
    assert!(
        errors["name"][0]
            .as_str()
            .is_some_and(|m| m.contains("name")),
        "{error}"
    );
    // A body that is not JSON refuses no one field: keyed `base`, as Mailtrap's own examples
    // write it (it answered `{"errors": {}}`, no reason at all).
    let (status, text) = tidings_runtime::reqwest::Client::new()
        .post(format!("{}/api/lists", served.base_url()))
        .header("authorization", &bearer)
        .header("content-type", "application/json")
        .body("{bad")
        .send()
        .await
        .map(|r| (r.status().as_u16(), r))
        .unwrap();
    let error: serde_json::Value = text.json().await.unwrap();
    assert!(matches!(status, 400 | 422), "{status} {error}");
    assert!(
        error["errors"]["base"][0]
            .as_str()
            .is_some_and(|m| m.contains("JSON")),
        "{error}"
    );

    let (served, _dir) = serve_document(sendgrid, "sendgrid.yaml", "sendgrid").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let (status, error) = call_json(&served, key, "POST", "/v3/senders", empty).await;
    assert!(status == 422 || status == 400, "{status} {error}");
    assert_eq!(error["errors"][0]["field"], "nickname", "{error}");
}

#[tokio::test]
async fn a_path_id_outside_its_pattern_names_nothing_held() {
    // Twilio Verify (twilio/twilio-oai, twilio_verify_v2.yaml): `Sid` is 34 characters,
    // `^VA[0-9a-fA-F]{32}$`, and no operation documents a 422; `GET /v2/Services/VAnope`
    // answered 422 where Twilio answers 404. An operation that documents 400 and no 404
    // still refuses the input.
    let document = r##"
openapi: 3.0.0
info: { title: Verify, version: "1" }
security: [ { basicAuth: [] } ]
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  schemas:
    Service: { type: object, properties: { sid: { type: string }, friendly_name: { type: string } } }
paths:
  /v2/Services/{Sid}:
    get:
      operationId: FetchService
      parameters:
        - { name: Sid, in: path, required: true, schema: { type: string, minLength: 34, maxLength: 34, pattern: "^VA[0-9a-fA-F]{32}$" } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Service" } } } } }
  /v2/Checks/{Sid}:
    get:
      operationId: FetchCheck
      parameters:
        - { name: Sid, in: path, required: true, schema: { type: string, pattern: "^VE[0-9a-fA-F]{32}$" } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Service" } } } }
        "400": { description: bad sid }
"##;
    let (served, _dir) = serve_document(document, "verify.yaml", "verify").await;
    let key = basic_auth(&served);
    let key = ("authorization", key.as_str());
    for path in [
        "/v2/Services/VAnope",
        &format!("/v2/Services/MG{}", "0".repeat(32)),
    ] {
        let (status, error) = call_json(&served, key, "GET", path, None).await;
        assert_eq!(status, 404, "{path}: {error}");
        assert!(error.to_string().contains("does not exist"), "{error}");
    }
    let well_formed = format!("/v2/Services/VA{}", "0".repeat(32));
    let (status, _) = call_json(&served, key, "GET", &well_formed, None).await;
    assert_eq!(status, 404, "well formed, never made");
    let (status, error) = call_json(&served, key, "GET", "/v2/Checks/nope", None).await;
    assert_eq!(status, 400, "{error}");
}

#[tokio::test]
async fn an_error_answer_documented_with_an_example_answers_its_code() {
    // Mandrill (mailchimp/mailchimp-client-lib-codegen, spec/transactional.openapi.json): the
    // 404 of `templates/info` is `allOf: [Error]` with the example `code: 5, name:
    // Unknown_Template`, the 422 of `templates/add` `code: 6, name: Invalid_Template`. Both
    // were answered with the status as the code (`code: 404, name: "Not Found"`): a client
    // that branches on `Unknown_Template` took another branch against the sandbox.
    let document = r##"
openapi: 3.0.0
info: { title: Templates, version: "1" }
components:
  schemas:
    Error:
      type: object
      required: [status, code, name, message]
      properties: { status: { type: string }, code: { type: integer }, name: { type: string }, message: { type: string } }
    NotFound:
      example: { status: error, code: 5, name: Unknown_Template, message: "No such template" }
      allOf: [ { $ref: "#/components/schemas/Error" } ]
    Exists:
      example: { status: error, code: 6, name: Invalid_Template, message: "A template of that name exists" }
      allOf: [ { $ref: "#/components/schemas/Error" } ]
    Template: { type: object, properties: { name: { type: string }, subject: { type: string } } }
    AddRequest:
      type: object
      required: [key, name]
      properties: { key: { type: string, description: a valid API key }, name: { type: string }, subject: { type: string } }
    NameRequest:
      type: object
      required: [key, name]
      properties: { key: { type: string, description: a valid API key }, name: { type: string } }
paths:
  /templates/add:
    post:
      operationId: templates/add
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/AddRequest" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
        "422": { description: exists, content: { application/json: { schema: { $ref: "#/components/schemas/Exists" } } } }
  /templates/info:
    post:
      operationId: templates/info
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/NameRequest" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
        "404": { description: missing, content: { application/json: { schema: { $ref: "#/components/schemas/NotFound" } } } }
"##;
    let (served, _dir) = serve_document(document, "templates.yaml", "templates").await;
    let key = served.credential("key").unwrap();
    let none = ("x-none", "none");
    let info = serde_json::json!({"key": key, "name": "never-added"});
    let (status, error) = call_json(&served, none, "POST", "/templates/info", Some(info)).await;
    assert_eq!(status, 404, "{error}");
    assert_eq!(
        (&error["code"], &error["name"]),
        (&5.into(), &"Unknown_Template".into()),
        "{error}"
    );
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("never-added")),
        "{error}"
    );

    let add = serde_json::json!({"key": key, "name": "welcome"});
    let (status, _) = call_json(&served, none, "POST", "/templates/add", Some(add.clone())).await;
    assert_eq!(status, 200);
    let (status, error) = call_json(&served, none, "POST", "/templates/add", Some(add)).await;
    assert_eq!(status, 422, "{error}");
    assert_eq!(
        (&error["code"], &error["name"]),
        (&6.into(), &"Invalid_Template".into()),
        "{error}"
    );
}

#[tokio::test]
async fn a_second_create_of_a_unique_name_is_refused_and_the_name_keeps_its_item() {
    // Twilio Conversations (twilio/twilio-oai, twilio_conversations_v1): `unique_name`
    // "can be used to address the resource in place of the resource's `sid`". Two creates of
    // `UniqueName=room` were both acknowledged, and then `/v1/Conversations/room` named
    // neither (404 for get, update and delete). Twilio refuses the second with a 409.
    let document = r##"
openapi: 3.0.1
info: { title: Conversations, version: "1" }
servers: [ { url: "https://conversations.example.com" } ]
security: [ { basicAuth: [] } ]
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  schemas:
    conversation:
      type: object
      properties:
        sid: { type: string, nullable: true }
        unique_name: { type: string, nullable: true }
        friendly_name: { type: string, nullable: true }
paths:
  /v1/Conversations:
    post:
      operationId: CreateConversation
      requestBody: { content: { application/x-www-form-urlencoded: { schema: { type: object, properties: { FriendlyName: { type: string }, UniqueName: { type: string } } } } } }
      responses: { "201": { description: Created, content: { application/json: { schema: { $ref: "#/components/schemas/conversation" } } } } }
  /v1/Conversations/{Sid}:
    parameters: [ { name: Sid, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: FetchConversation
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/conversation" } } } } }
"##;
    let (served, _dir) = serve_document(document, "conversations.yaml", "conversations").await;
    let auth = basic_auth(&served);
    let create = |name: &'static str| {
        let fields = [("UniqueName", "room"), ("FriendlyName", name)];
        let (served, auth) = (&served, auth.clone());
        async move { post_form(served, &auth, "/v1/Conversations", &fields).await }
    };
    let (status, first) = create("first").await;
    assert_eq!(status, 201, "{first}");
    let (status, error) = create("second").await;
    assert_eq!(status, 409, "{error}");
    assert!(error.to_string().contains("room"), "{error}");
    let key = ("authorization", auth.as_str());
    let (status, room) = call_json(&served, key, "GET", "/v1/Conversations/room", None).await;
    assert_eq!(status, 200, "{room}");
    assert_eq!(room["sid"], first["sid"], "{room}");
    assert_eq!(room["friendly_name"], "first", "{room}");
}

#[tokio::test]
async fn a_page_left_unsized_has_the_size_the_document_says() {
    // Twilio Conversations (twilio/twilio-oai): `PageSize` "The default is 50, and the
    // maximum is 100" (in words only); 25 conversations were answered 20 to a page with a
    // next page the provider would not have.
    let document = r##"
openapi: 3.0.1
info: { title: Conversations, version: "1" }
security: [ { basicAuth: [] } ]
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  schemas:
    conversation: { type: object, properties: { sid: { type: string }, friendly_name: { type: string } } }
    list:
      type: object
      properties:
        conversations: { type: array, items: { $ref: "#/components/schemas/conversation" } }
        meta: { type: object, properties: { page_size: { type: integer }, next_page_url: { type: string, format: uri, nullable: true } } }
paths:
  /v1/Conversations:
    post:
      operationId: CreateConversation
      requestBody: { content: { application/x-www-form-urlencoded: { schema: { type: object, properties: { FriendlyName: { type: string } } } } } }
      responses: { "201": { description: Created, content: { application/json: { schema: { $ref: "#/components/schemas/conversation" } } } } }
    get:
      operationId: ListConversation
      parameters:
        - { name: PageSize, in: query, description: "How many resources to return in each list page. The default is 50, and the maximum is 100.", schema: { type: integer, minimum: 1, maximum: 100 } }
        - { name: Page, in: query, schema: { type: integer, minimum: 0 } }
        - { name: PageToken, in: query, schema: { type: string } }
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/list" } } } } }
"##;
    let (served, _dir) = serve_document(document, "conversations.yaml", "conversations").await;
    let auth = basic_auth(&served);
    let http = tidings_runtime::reqwest::Client::new();
    for n in 0..25 {
        let response = http
            .post(format!("{}/v1/Conversations", served.base_url()))
            .header("authorization", &auth)
            .form(&[("FriendlyName", format!("c{n}"))])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
    }
    let key = ("authorization", auth.as_str());
    let (_, page) = call_json(&served, key, "GET", "/v1/Conversations", None).await;
    let listed = page["conversations"].as_array().map_or(0, Vec::len);
    assert_eq!(listed, 25, "{page}");
    assert!(page["meta"]["next_page_url"].is_null(), "{page}");
    let (_, page) = call_json(&served, key, "GET", "/v1/Conversations?PageSize=10", None).await;
    assert_eq!(
        page["conversations"].as_array().map_or(0, Vec::len),
        10,
        "{page}"
    );
}

#[tokio::test]
async fn a_message_s_index_is_its_place_in_its_conversation() {
    // Twilio Conversations (twilio/twilio-oai): a message's `index` ("always in order of when
    // the message was received", `default: 0`) was 0 for every message, so a client counting
    // unread messages by index saw one.
    let document = r##"
openapi: 3.0.1
info: { title: Conversations, version: "1" }
security: [ { basicAuth: [] } ]
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  schemas:
    message:
      type: object
      properties:
        sid: { type: string }
        index: { type: integer, default: 0 }
        body: { type: string }
paths:
  /v1/Conversations/{ConversationSid}/Messages:
    parameters: [ { name: ConversationSid, in: path, required: true, schema: { type: string } } ]
    post:
      operationId: CreateConversationMessage
      requestBody: { content: { application/json: { schema: { type: object, properties: { body: { type: string } } } } } }
      responses: { "201": { description: Created, content: { application/json: { schema: { $ref: "#/components/schemas/message" } } } } }
  /v1/Conversations/{ConversationSid}/Messages/{Sid}:
    parameters: [ { name: ConversationSid, in: path, required: true, schema: { type: string } }, { name: Sid, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: FetchConversationMessage
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/message" } } } } }
"##;
    let (served, _dir) = serve_document(document, "conversations.yaml", "conversations").await;
    let auth = basic_auth(&served);
    let key = ("authorization", auth.as_str());
    let mut indexes = Vec::new();
    for (conversation, body) in [("CH1", "a"), ("CH1", "b"), ("CH2", "c"), ("CH1", "d")] {
        let path = format!("/v1/Conversations/{conversation}/Messages");
        let sent = serde_json::json!({ "body": body });
        let (status, message) = call_json(&served, key, "POST", &path, Some(sent)).await;
        assert_eq!(status, 201, "{message}");
        indexes.push(message["index"].as_i64());
    }
    assert_eq!(indexes, [Some(0), Some(1), Some(0), Some(2)]);
}

#[tokio::test]
async fn a_list_asked_in_descending_order_answers_the_newest_first() {
    // Twilio Conversations (twilio/twilio-oai): `Order` "`asc` or `desc`, with `asc` as the
    // default" on the message list was ignored.
    let document = r##"
openapi: 3.0.1
info: { title: Conversations, version: "1" }
security: [ { basicAuth: [] } ]
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  schemas:
    message: { type: object, properties: { sid: { type: string }, body: { type: string } } }
paths:
  /v1/Messages:
    post:
      operationId: CreateMessage
      requestBody: { content: { application/json: { schema: { type: object, properties: { body: { type: string } } } } } }
      responses: { "201": { description: Created, content: { application/json: { schema: { $ref: "#/components/schemas/message" } } } } }
    get:
      operationId: ListMessage
      parameters:
        - { name: Order, in: query, schema: { type: string, enum: [asc, desc] } }
      responses: { "200": { description: OK, content: { application/json: { schema: { type: object, properties: { messages: { type: array, items: { $ref: "#/components/schemas/message" } } } } } } } }
"##;
    let (served, _dir) = serve_document(document, "messages.yaml", "messages").await;
    let auth = basic_auth(&served);
    let key = ("authorization", auth.as_str());
    for body in ["a", "b", "c"] {
        let sent = serde_json::json!({ "body": body });
        let (status, _) = call_json(&served, key, "POST", "/v1/Messages", Some(sent)).await;
        assert_eq!(status, 201);
    }
    let bodies = |page: &serde_json::Value| -> Vec<String> {
        page["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["body"].as_str().map(str::to_owned))
            .collect()
    };
    let (_, asc) = call_json(&served, key, "GET", "/v1/Messages", None).await;
    assert_eq!(bodies(&asc), ["a", "b", "c"], "{asc}");
    let (_, desc) = call_json(&served, key, "GET", "/v1/Messages?Order=desc", None).await;
    assert_eq!(bodies(&desc), ["c", "b", "a"], "{desc}");
}

#[tokio::test(flavor = "multi_thread")]
async fn slack_s_noun_dot_verb_methods_keep_what_they_create() {
    // Slack's Web API (slackapi/slack-api-specs, web-api/slack_web_openapi_v2.json @bc08db4),
    // reduced to the facts that matter here: every method is `/<noun>.<verb>`, every answer
    // `{"ok": true, "<name>": {...}}`, the item named in requests after that name or the noun
    // (`channel=`, `reminder=`), a conversation a list of object schemas (read as an untagged
    // union). Every method answered a made-up item and kept nothing: a created channel could
    // not be read back, renamed or listed.
    let document = r##"
swagger: "2.0"
info: { title: Slack Web API, version: "1" }
host: slack.com
basePath: /api
schemes: [https]
securityDefinitions:
  slackAuth: { type: oauth2, flow: accessCode, authorizationUrl: "https://slack.com/oauth/authorize", tokenUrl: "https://slack.com/api/oauth.access", scopes: { "channels:write": write } }
definitions:
  channel: { type: object, additionalProperties: false, required: [id, name], properties: { id: { type: string, pattern: "^[CGD][A-Z0-9]{8,}$" }, name: { type: string }, is_archived: { type: boolean } } }
  group: { type: object, required: [id, is_group], properties: { id: { type: string }, is_group: { type: boolean } } }
  conversation: { items: [ { $ref: "#/definitions/channel" }, { $ref: "#/definitions/group" } ] }
  reminder: { type: object, required: [id, text], properties: { id: { type: string, pattern: "^Rm[A-Z0-9]{8,}$" }, text: { type: string } } }
  error: { type: object, required: [ok, error], properties: { ok: { type: boolean }, error: { type: string } } }
  done: { type: object, required: [ok], properties: { ok: { type: boolean } } }
  one_channel: { type: object, required: [ok, channel], properties: { ok: { type: boolean }, channel: { $ref: "#/definitions/conversation" } } }
  one_reminder: { type: object, required: [ok, reminder], properties: { ok: { type: boolean }, reminder: { $ref: "#/definitions/reminder" } } }
paths:
  /conversations.create:
    post:
      operationId: conversations_create
      security: [ { slackAuth: [ "channels:write" ] } ]
      consumes: [application/x-www-form-urlencoded]
      parameters: [ { name: name, in: formData, type: string } ]
      responses:
        "200": { description: ok, schema: { $ref: "#/definitions/one_channel" } }
        default: { description: error, schema: { $ref: "#/definitions/error" }, examples: { application/json: { ok: false, error: name_taken } } }
  /conversations.info:
    get:
      operationId: conversations_info
      security: [ { slackAuth: [ "channels:write" ] } ]
      parameters: [ { name: channel, in: query, type: string } ]
      responses:
        "200": { description: ok, schema: { $ref: "#/definitions/one_channel" } }
        default: { description: error, schema: { $ref: "#/definitions/error" }, examples: { application/json: { ok: false, error: channel_not_found } } }
  /conversations.list:
    get:
      operationId: conversations_list
      security: [ { slackAuth: [ "channels:write" ] } ]
      responses:
        "200": { description: ok, schema: { type: object, required: [ok, channels], properties: { ok: { type: boolean }, channels: { type: array, items: { $ref: "#/definitions/conversation" } } } } }
  /conversations.rename:
    post:
      operationId: conversations_rename
      security: [ { slackAuth: [ "channels:write" ] } ]
      consumes: [application/x-www-form-urlencoded]
      parameters: [ { name: channel, in: formData, type: string }, { name: name, in: formData, type: string } ]
      responses: { "200": { description: ok, schema: { $ref: "#/definitions/one_channel" } } }
  /conversations.archive:
    post:
      operationId: conversations_archive
      security: [ { slackAuth: [ "channels:write" ] } ]
      consumes: [application/x-www-form-urlencoded]
      parameters: [ { name: channel, in: formData, type: string } ]
      responses:
        "200": { description: ok, schema: { $ref: "#/definitions/done" } }
        default: { description: error, schema: { $ref: "#/definitions/error" }, examples: { application/json: { ok: false, error: channel_not_found } } }
  /reminders.add:
    post:
      operationId: reminders_add
      security: [ { slackAuth: [ "channels:write" ] } ]
      consumes: [application/x-www-form-urlencoded]
      parameters: [ { name: text, in: formData, type: string, required: true } ]
      responses: { "200": { description: ok, schema: { $ref: "#/definitions/one_reminder" } } }
  /reminders.info:
    get:
      operationId: reminders_info
      security: [ { slackAuth: [ "channels:write" ] } ]
      parameters: [ { name: reminder, in: query, type: string } ]
      responses: { "200": { description: ok, schema: { $ref: "#/definitions/one_reminder" } } }
  /reminders.list:
    get:
      operationId: reminders_list
      security: [ { slackAuth: [ "channels:write" ] } ]
      responses: { "200": { description: ok, schema: { type: object, required: [ok, reminders], properties: { ok: { type: boolean }, reminders: { type: array, items: { $ref: "#/definitions/reminder" } } } } } }
  /reminders.delete:
    post:
      operationId: reminders_delete
      security: [ { slackAuth: [ "channels:write" ] } ]
      consumes: [application/x-www-form-urlencoded]
      parameters: [ { name: reminder, in: formData, type: string } ]
      responses: { "200": { description: ok, schema: { $ref: "#/definitions/done" } } }
  /chat.postMessage:
    post:
      operationId: chat_postMessage
      security: [ { slackAuth: [ "channels:write" ] } ]
      consumes: [application/x-www-form-urlencoded]
      parameters: [ { name: channel, in: formData, type: string, required: true }, { name: text, in: formData, type: string } ]
      responses: { "200": { description: ok, schema: { type: object, required: [ok, channel, ts, message], properties: { ok: { type: boolean }, channel: { type: string }, ts: { type: string }, message: { type: object, required: [text, ts], properties: { text: { type: string }, ts: { type: string } } } } } } }
"##;
    let (served, _dir) = serve_document(document, "slack.yaml", "slack").await;
    let bearer = format!("Bearer {}", served.credential("access_token").unwrap());
    let http = tidings_runtime::reqwest::Client::new();
    let call = |method: &'static str, path: String, form: Vec<(&'static str, String)>| {
        let request = match method {
            "GET" => http
                .get(format!("{}{path}", served.base_url()))
                .query(&form),
            _ => http
                .post(format!("{}{path}", served.base_url()))
                .form(&form),
        };
        let request = request.header("authorization", &bearer);
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<serde_json::Value>().await.unwrap())
        }
    };
    let create = |name: &'static str| {
        call(
            "POST",
            "/conversations.create".into(),
            vec![("name", name.into())],
        )
    };
    let (status, general) = create("general").await;
    assert_eq!(status, 200, "{general}");
    assert_eq!(
        general["channel"]["name"], "general",
        "the name sent is kept: {general}"
    );
    let (_, random) = create("random").await;
    let id = general["channel"]["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with('C'), "the id fits its pattern: {id}");
    assert_ne!(
        random["channel"]["id"], general["channel"]["id"],
        "each channel its own id"
    );

    let (status, info) = call(
        "GET",
        "/conversations.info".into(),
        vec![("channel", id.clone())],
    )
    .await;
    assert_eq!(
        (status, &info["channel"]["name"]),
        (200, &"general".into()),
        "{info}"
    );
    let rename = vec![("channel", id.clone()), ("name", "town-square".into())];
    let (status, renamed) = call("POST", "/conversations.rename".into(), rename).await;
    assert_eq!(status, 200, "{renamed}");
    let (_, info) = call(
        "GET",
        "/conversations.info".into(),
        vec![("channel", id.clone())],
    )
    .await;
    assert_eq!(info["channel"]["name"], "town-square", "{info}");
    let (_, list) = call("GET", "/conversations.list".into(), vec![]).await;
    let names: Vec<&str> = list["channels"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["town-square", "random"], "{list}");

    let nope = vec![("channel", "CNOPE00000".to_owned())];
    let (status, error) = call("GET", "/conversations.info".into(), nope.clone()).await;
    assert_eq!(status, 404, "{error}");
    assert_eq!(error["error"], "channel_not_found", "{error}");
    let (status, _) = call("POST", "/conversations.archive".into(), nope).await;
    assert_eq!(status, 404, "a channel never made is not archived");
    let (status, _) = call(
        "POST",
        "/conversations.archive".into(),
        vec![("channel", id)],
    )
    .await;
    assert_eq!(status, 200);

    let add = vec![("text", "water the plants".to_owned())];
    let (status, added) = call("POST", "/reminders.add".into(), add).await;
    assert_eq!(status, 200, "{added}");
    let reminder = added["reminder"]["id"].as_str().unwrap().to_owned();
    let (_, info) = call(
        "GET",
        "/reminders.info".into(),
        vec![("reminder", reminder.clone())],
    )
    .await;
    assert_eq!(info["reminder"]["text"], "water the plants", "{info}");
    let (_, list) = call("GET", "/reminders.list".into(), vec![]).await;
    assert_eq!(list["reminders"][0]["id"], reminder.as_str(), "{list}");
    let gone = vec![("reminder", reminder.clone())];
    let (status, _) = call("POST", "/reminders.delete".into(), gone).await;
    assert_eq!(status, 200);
    let (status, _) = call(
        "GET",
        "/reminders.info".into(),
        vec![("reminder", reminder)],
    )
    .await;
    assert_eq!(status, 404, "a deleted reminder is gone");
    let (_, list) = call("GET", "/reminders.list".into(), vec![]).await;
    assert_eq!(list["reminders"], serde_json::json!([]), "{list}");

    // A send answers what it sent in the object its answer wraps (the text was made up).
    let post = vec![
        ("channel", "C0TOWNSQ00".to_owned()),
        ("text", "hello".into()),
    ];
    let (status, posted) = call("POST", "/chat.postMessage".into(), post).await;
    assert_eq!(status, 200, "{posted}");
    assert_eq!(posted["message"]["text"], "hello", "{posted}");
}

#[tokio::test]
async fn a_conversation_made_at_a_path_of_its_own_is_read_and_listed_with_the_others() {
    // Twilio Conversations (twilio/twilio-oai, spec/json/twilio_conversations_v1.json
    // @d50069b): `POST /v1/ConversationWithParticipants` answers a conversation whose `sid`
    // has the pattern of `/v1/Conversations/{Sid}`'s; it was acknowledged (201) and then
    // never readable nor listed.
    let document = r##"
openapi: 3.0.1
info: { title: Conversations, version: "1" }
security: [ { basicAuth: [] } ]
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  schemas:
    conversation: { type: object, properties: { sid: { type: string, nullable: true, pattern: "^CH[0-9a-fA-F]{32}$", minLength: 34, maxLength: 34 }, friendly_name: { type: string, nullable: true } } }
    conversation_with_participants: { type: object, properties: { sid: { type: string, nullable: true, pattern: "^CH[0-9a-fA-F]{32}$", minLength: 34, maxLength: 34 }, friendly_name: { type: string, nullable: true } } }
paths:
  /v1/Conversations:
    get:
      operationId: ListConversation
      responses: { "200": { description: OK, content: { application/json: { schema: { type: object, properties: { conversations: { type: array, items: { $ref: "#/components/schemas/conversation" } } } } } } } }
  /v1/Conversations/{Sid}:
    get:
      operationId: FetchConversation
      parameters: [ { name: Sid, in: path, required: true, schema: { type: string } } ]
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/conversation" } } } } }
  /v1/ConversationWithParticipants:
    post:
      operationId: CreateConversationWithParticipants
      requestBody: { content: { application/x-www-form-urlencoded: { schema: { type: object, properties: { FriendlyName: { type: string }, Participant: { type: array, items: { type: string } } } } } } }
      responses: { "201": { description: Created, content: { application/json: { schema: { $ref: "#/components/schemas/conversation_with_participants" } } } } }
"##;
    let (served, _dir) = serve_document(document, "conversations.yaml", "conversations").await;
    let auth = basic_auth(&served);
    let response = tidings_runtime::reqwest::Client::new()
        .post(format!(
            "{}/v1/ConversationWithParticipants",
            served.base_url()
        ))
        .header("authorization", &auth)
        .form(&[("FriendlyName", "standup")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let made: serde_json::Value = response.json().await.unwrap();
    let sid = made["sid"].as_str().unwrap();
    let key = ("authorization", auth.as_str());
    let (status, read) = call_json(
        &served,
        key,
        "GET",
        &format!("/v1/Conversations/{sid}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["friendly_name"], "standup", "{read}");
    let (_, list) = call_json(&served, key, "GET", "/v1/Conversations", None).await;
    assert_eq!(list["conversations"][0]["sid"], sid, "{list}");
}

#[tokio::test]
async fn an_answer_holding_the_item_beside_maps_and_other_objects_keeps_the_item() {
    // Stream Chat (GetStream/protocol, openapi/chat-openapi.yaml @e51a64d): `SendMessage`
    // answers `{"message": {...}, "duration", "channel_context"?, "mentioned_members"?,
    // "pending_message_metadata"?}`. One optional map or object beside the message made the
    // send an action that kept nothing: the message it acknowledged was 404 to get, update and
    // delete, and never listed. A message sent with `user_id` answers its sender `user`.
    let document = r##"
openapi: 3.0.3
info: { title: Stream, version: "1" }
security: [ { api_key: [] } ]
components:
  securitySchemes: { api_key: { type: apiKey, in: query, name: api_key } }
  schemas:
    SendMessageRequest: { type: object, required: [message], properties: { message: { $ref: "#/components/schemas/MessageRequest" } } }
    MessageRequest: { type: object, properties: { id: { type: string }, text: { type: string }, user_id: { type: string } } }
    MessageResponse: { type: object, required: [id, text, user], properties: { id: { type: string }, text: { type: string }, user: { $ref: "#/components/schemas/UserResponse" } } }
    UserResponse: { type: object, required: [id], properties: { id: { type: string } } }
    ChannelContext: { type: object, properties: { name: { type: string } } }
    MessageEnvelope:
      type: object
      required: [message, duration]
      properties:
        message: { $ref: "#/components/schemas/MessageResponse" }
        duration: { type: string }
        channel_context: { $ref: "#/components/schemas/ChannelContext" }
        pending_message_metadata: { type: object, additionalProperties: { type: string } }
    MessagesEnvelope: { type: object, required: [messages, duration], properties: { messages: { type: array, items: { $ref: "#/components/schemas/MessageResponse" } }, duration: { type: string } } }
paths:
  /channels/{type}/{id}/message:
    parameters: [ { name: type, in: path, required: true, schema: { type: string } }, { name: id, in: path, required: true, schema: { type: string } } ]
    post:
      operationId: SendMessage
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/SendMessageRequest" } } } }
      responses: { "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessageEnvelope" } } } } }
  /channels/{type}/{id}/messages:
    parameters: [ { name: type, in: path, required: true, schema: { type: string } }, { name: id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: GetManyMessages
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessagesEnvelope" } } } } }
  /messages/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: GetMessage
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessageEnvelope" } } } } }
    delete:
      operationId: DeleteMessage
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/MessageEnvelope" } } } } }
"##;
    let (served, _dir) = serve_document(document, "stream.yaml", "stream").await;
    let key = served.credential("api_key").unwrap();
    let http = tidings_runtime::reqwest::Client::new();
    let url = |path: &str| format!("{}{path}?api_key={key}", served.base_url());
    let sent = http
        .post(url("/channels/messaging/general/message"))
        .json(&serde_json::json!({"message": {"id": "msg-1", "text": "hello", "user_id": "u1"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), 201);
    let read = |path: &'static str| {
        let request = http.get(url(path));
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<serde_json::Value>().await.unwrap())
        }
    };
    let (status, got) = read("/messages/msg-1").await;
    assert_eq!(status, 200, "{got}");
    assert_eq!(got["message"]["text"], "hello", "{got}");
    // Its sender is the user the send named (a made-up user of another id every time).
    assert_eq!(got["message"]["user"]["id"], "u1", "{got}");
    let (_, list) = read("/channels/messaging/general/messages").await;
    assert_eq!(list["messages"][0]["id"], "msg-1", "{list}");
    let gone = http.delete(url("/messages/msg-1")).send().await.unwrap();
    assert_eq!(gone.status(), 200);
    let (status, _) = read("/messages/msg-1").await;
    assert_eq!(status, 404, "deleted");
}

#[tokio::test]
async fn a_reaction_sent_at_its_singular_is_listed_at_its_plural_under_its_message() {
    // Stream Chat (GetStream/protocol, openapi/chat-openapi.yaml @e51a64d): `POST
    // /messages/{id}/reaction`, `GET /messages/{id}/reactions`, `DELETE
    // /messages/{id}/reaction/{type}`; a reaction has no id, its `message_id` is the path's.
    // The reaction was never listed, and its `message_id` was a made-up id.
    let document = r##"
openapi: 3.0.3
info: { title: Stream, version: "1" }
security: [ { api_key: [] } ]
components:
  securitySchemes: { api_key: { type: apiKey, in: query, name: api_key } }
  schemas:
    ReactionRequest: { type: object, required: [type], properties: { type: { type: string }, user_id: { type: string } } }
    SendReactionRequest: { type: object, required: [reaction], properties: { reaction: { $ref: "#/components/schemas/ReactionRequest" } } }
    ReactionResponse: { type: object, required: [message_id, type, user_id], properties: { message_id: { type: string }, type: { type: string }, user_id: { type: string } } }
    ReactionEnvelope: { type: object, required: [duration], properties: { reaction: { $ref: "#/components/schemas/ReactionResponse" }, duration: { type: string } } }
    Reactions: { type: object, required: [reactions, duration], properties: { reactions: { type: array, items: { $ref: "#/components/schemas/ReactionResponse" } }, duration: { type: string } } }
paths:
  /messages/{id}/reaction:
    post:
      operationId: SendReaction
      parameters: [ { name: id, in: path, required: true, schema: { type: string } } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/SendReactionRequest" } } } }
      responses: { "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/ReactionEnvelope" } } } } }
  /messages/{id}/reaction/{type}:
    delete:
      operationId: DeleteReaction
      parameters: [ { name: id, in: path, required: true, schema: { type: string } }, { name: type, in: path, required: true, schema: { type: string } } ]
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/ReactionEnvelope" } } } } }
  /messages/{id}/reactions:
    get:
      operationId: GetReactions
      parameters: [ { name: id, in: path, required: true, schema: { type: string } } ]
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Reactions" } } } } }
"##;
    let (served, _dir) = serve_document(document, "stream.yaml", "stream").await;
    let key = served.credential("api_key").unwrap();
    let http = tidings_runtime::reqwest::Client::new();
    let url = |path: &str| format!("{}{path}?api_key={key}", served.base_url());
    let sent = http
        .post(url("/messages/msg-1/reaction"))
        .json(&serde_json::json!({"reaction": {"type": "like", "user_id": "u1"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), 201);
    let sent: serde_json::Value = sent.json().await.unwrap();
    assert_eq!(sent["reaction"]["message_id"], "msg-1", "{sent}");
    let list = |path: &'static str| {
        let request = http.get(url(path));
        async move {
            let response = request.send().await.unwrap();
            response.json::<serde_json::Value>().await.unwrap()
        }
    };
    let listed = list("/messages/msg-1/reactions").await;
    assert_eq!(listed["reactions"][0]["type"], "like", "{listed}");
    assert_eq!(listed["reactions"][0]["message_id"], "msg-1", "{listed}");
    let other = list("/messages/msg-2/reactions").await;
    assert_eq!(
        other["reactions"],
        serde_json::json!([]),
        "another message's: {other}"
    );
    let gone = http
        .delete(url("/messages/msg-1/reaction/like"))
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), 200);
    let listed = list("/messages/msg-1/reactions").await;
    assert_eq!(listed["reactions"], serde_json::json!([]), "{listed}");
}

#[tokio::test]
async fn a_cancel_of_an_item_with_a_canceled_flag_keeps_it_canceled() {
    // OneSignal (OneSignal/onesignal-go-api, api/openapi.yaml): `DELETE
    // /notifications/{notification_id}` is `cancel_notification` ("Stop a scheduled or
    // currently outgoing notification"), answering `{success}`; the notification read
    // afterwards has `canceled: boolean`. It was removed: 404 to a get, gone from the list.
    let document = r##"
openapi: 3.0.1
info: { title: OneSignal, version: "1" }
security: [ { key: [] } ]
components:
  securitySchemes: { key: { type: http, scheme: bearer } }
  schemas:
    Notification: { type: object, properties: { id: { type: string }, name: { type: string } } }
    NotificationWithMeta: { type: object, properties: { id: { type: string }, name: { type: string }, canceled: { type: boolean } } }
    Success: { type: object, properties: { success: { type: boolean } } }
paths:
  /notifications:
    post:
      operationId: create_notification
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Notification" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Notification" } } } } }
  /notifications/{notification_id}:
    parameters: [ { name: notification_id, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: get_notification
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/NotificationWithMeta" } } } } }
    delete:
      operationId: cancel_notification
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Success" } } } } }
"##;
    let (served, _dir) = serve_document(document, "onesignal.yaml", "onesignal").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let made = serde_json::json!({"name": "later"});
    let (_, made) = call_json(&served, key, "POST", "/notifications", Some(made)).await;
    let path = format!("/notifications/{}", made["id"].as_str().unwrap());
    let (status, cancelled) = call_json(&served, key, "DELETE", &path, None).await;
    assert_eq!(
        (status, &cancelled["success"]),
        (200, &true.into()),
        "{cancelled}"
    );
    let (status, read) = call_json(&served, key, "GET", &path, None).await;
    assert_eq!(
        status, 200,
        "a cancelled notification is still there: {read}"
    );
    assert_eq!(read["canceled"], true, "{read}");
    assert_eq!(read["name"], "later", "{read}");
    let (status, _) = call_json(&served, key, "DELETE", "/notifications/nope", None).await;
    assert_eq!(status, 404, "a notification never made is not cancelled");
}

#[tokio::test]
async fn a_list_asking_again_for_what_each_item_was_made_with_lists_only_those() {
    // OneSignal (OneSignal/onesignal-go-api, api/openapi.yaml): a template is created with
    // `app_id` (required in the body) and listed with `app_id` (required in the query), and
    // a template does not answer it; one app's list showed every app's templates.
    let document = r##"
openapi: 3.0.1
info: { title: OneSignal, version: "1" }
security: [ { key: [] } ]
components:
  securitySchemes: { key: { type: http, scheme: bearer } }
  schemas:
    CreateTemplateRequest: { type: object, required: [app_id, name], properties: { app_id: { type: string }, name: { type: string } } }
    TemplateResource: { type: object, properties: { id: { type: string }, name: { type: string } } }
    TemplatesListResponse: { type: object, properties: { templates: { type: array, items: { $ref: "#/components/schemas/TemplateResource" } } } }
paths:
  /templates:
    get:
      operationId: view_templates
      parameters: [ { name: app_id, in: query, required: true, schema: { type: string } } ]
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/TemplatesListResponse" } } } } }
    post:
      operationId: create_template
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/CreateTemplateRequest" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/TemplateResource" } } } } }
"##;
    let (served, _dir) = serve_document(document, "onesignal.yaml", "onesignal").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    for (app, name) in [("app-A", "a"), ("app-B", "b"), ("app-A", "c")] {
        let made = serde_json::json!({"app_id": app, "name": name});
        let (status, _) = call_json(&served, key, "POST", "/templates", Some(made)).await;
        assert_eq!(status, 200);
    }
    let names = |list: &serde_json::Value| -> Vec<String> {
        list["templates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, a) = call_json(&served, key, "GET", "/templates?app_id=app-A", None).await;
    assert_eq!(names(&a), ["a", "c"], "{a}");
    let (_, b) = call_json(&served, key, "GET", "/templates?app_id=app-B", None).await;
    assert_eq!(names(&b), ["b"], "{b}");
}

#[tokio::test]
async fn a_user_is_read_updated_and_deleted_by_a_label_and_the_alias_it_holds_there() {
    // OneSignal (OneSignal/onesignal-go-api, api/openapi.yaml): `POST /apps/{app_id}/users`
    // creates a user with `identity: {"external_id": ...}`; every other user operation is at
    // `/apps/{app_id}/users/by/{alias_label}/{alias_id}`; a second user of one alias is a 409
    // ("Multiple User Identity Conflict"). The user was never found (404 everywhere).
    let document = r##"
openapi: 3.0.1
info: { title: OneSignal, version: "1" }
security: [ { key: [] } ]
components:
  securitySchemes: { key: { type: http, scheme: bearer } }
  schemas:
    User:
      type: object
      properties:
        identity: { type: object, additionalProperties: { type: string } }
        properties: { type: object, properties: { language: { type: string } } }
    GenericError: { type: object, properties: { errors: { type: array, items: { type: string } } } }
paths:
  /apps/{app_id}/users:
    parameters: [ { name: app_id, in: path, required: true, schema: { type: string } } ]
    post:
      operationId: create_user
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } }
      responses:
        "201": { description: created, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } }
        "409": { description: conflict, content: { application/json: { schema: { $ref: "#/components/schemas/GenericError" } } } }
  /apps/{app_id}/users/by/{alias_label}/{alias_id}:
    parameters:
      - { name: app_id, in: path, required: true, schema: { type: string } }
      - { name: alias_label, in: path, required: true, schema: { type: string } }
      - { name: alias_id, in: path, required: true, schema: { type: string } }
    get:
      operationId: get_user
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } }
        "404": { description: missing, content: { application/json: { schema: { $ref: "#/components/schemas/GenericError" } } } }
    patch:
      operationId: update_user
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } }
      responses: { "202": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } } }
    delete:
      operationId: delete_user
      responses: { "200": { description: ok } }
"##;
    let (served, _dir) = serve_document(document, "onesignal.yaml", "onesignal").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let ann =
        serde_json::json!({"identity": {"external_id": "u-1"}, "properties": {"language": "en"}});
    let (status, _) = call_json(&served, key, "POST", "/apps/a1/users", Some(ann)).await;
    assert_eq!(status, 201);
    let by_alias = "/apps/a1/users/by/external_id/u-1";
    let (status, user) = call_json(&served, key, "GET", by_alias, None).await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["properties"]["language"], "en", "{user}");
    let french = serde_json::json!({"properties": {"language": "fr"}});
    let (status, _) = call_json(&served, key, "PATCH", by_alias, Some(french)).await;
    assert_eq!(status, 202);
    let (_, user) = call_json(&served, key, "GET", by_alias, None).await;
    assert_eq!(user["properties"]["language"], "fr", "{user}");
    let again = serde_json::json!({"identity": {"external_id": "u-1"}});
    let (status, error) = call_json(&served, key, "POST", "/apps/a1/users", Some(again)).await;
    assert_eq!(status, 409, "{error}");
    let (status, _) = call_json(
        &served,
        key,
        "GET",
        "/apps/a1/users/by/external_id/u-2",
        None,
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = call_json(&served, key, "DELETE", by_alias, None).await;
    assert_eq!(status, 200);
    let (status, _) = call_json(&served, key, "GET", by_alias, None).await;
    assert_eq!(status, 404, "deleted");
}

#[tokio::test]
async fn an_item_named_by_its_own_field_keeps_it_through_a_replace() {
    // Elastic Email v4 (ElasticEmail/elasticemail-go, api/openapi.yaml @39ee367): domains
    // are named by `Domain` (`PUT /domains/{domain}` sends only the other fields). The store
    // found the item by that value, put its own id in the path, and the replace wrote that id
    // into `Domain`: the domain was lost at its address after one update.
    let document = r##"
openapi: 3.0.3
info: { title: Domains, version: "1" }
servers: [ { url: "https://api.example.test/v4" } ]
security: [ { key: [] } ]
paths:
  /domains:
    post:
      operationId: domainsPost
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/DomainPayload" } } } }
      responses: { "201": { description: made, content: { application/json: { schema: { $ref: "#/components/schemas/Domain" } } } } }
    get:
      operationId: domainsGet
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Domain" } } } } } }
  /domains/{domain}:
    parameters: [ { name: domain, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: domainGet
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Domain" } } } } }
    put:
      operationId: domainPut
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/DomainUpdatePayload" } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Domain" } } } } }
    delete:
      operationId: domainDelete
      responses: { "200": { description: gone } }
  /domains/{domain}/verification:
    parameters: [ { name: domain, in: path, required: true, schema: { type: string } } ]
    put:
      operationId: domainsVerificationPut
      requestBody: { required: true, content: { application/json: { schema: { type: string, enum: [None, Http, ExternalHttps] } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Domain" } } } } }
components:
  securitySchemes: { key: { type: apiKey, in: header, name: X-ElasticEmail-ApiKey } }
  schemas:
    DomainPayload: { type: object, properties: { Domain: { type: string } } }
    DomainUpdatePayload: { type: object, properties: { CustomBouncesDomain: { type: string } } }
    Domain: { type: object, properties: { Domain: { type: string }, CustomBouncesDomain: { type: string } } }
"##;
    let (served, _dir) = serve_document(document, "domains.yaml", "domains").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method, path: &str, body| {
        call_json(&served, ("X-ElasticEmail-ApiKey", &key), method, path, body)
    };
    let (status, made) = call(
        "POST",
        "/domains",
        Some(serde_json::json!({ "Domain": "example.org" })),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let bounces = serde_json::json!({ "CustomBouncesDomain": "bounces.example.org" });
    let (status, put) = call("PUT", "/domains/example.org", Some(bounces)).await;
    assert_eq!(status, 200, "{put}");
    let kept = serde_json::json!({ "Domain": "example.org", "CustomBouncesDomain": "bounces.example.org" });
    assert_eq!(put, kept, "the replace answers the domain by its name");
    let (status, got) = call("GET", "/domains/example.org", None).await;
    assert_eq!((status, &got), (200, &kept), "read back at its address");
    let (_, listed) = call("GET", "/domains", None).await;
    assert_eq!(listed, serde_json::json!([kept]));
    // A body that is one JSON text (an enum's value) is taken as it is, checked by its type:
    // it was refused as "expected a JSON object", so the operation never succeeded.
    let verify = "/domains/example.org/verification";
    let (status, verified) = call("PUT", verify, Some(serde_json::json!("Http"))).await;
    assert_eq!(
        (status, &verified["Domain"]),
        (200, &"example.org".into()),
        "{verified}"
    );
    let (status, refused) = call("PUT", verify, Some(serde_json::json!({}))).await;
    assert_eq!(status, 422, "an object is no text: {refused}");
    let (status, _) = call("DELETE", "/domains/example.org", None).await;
    assert_eq!(status, 200);
    let (status, _) = call("GET", "/domains/example.org", None).await;
    assert_eq!(status, 404, "deleted");
}

#[tokio::test]
async fn a_cursor_inside_the_next_page_object_pages_every_item() {
    // Intercom (intercom/Intercom-OpenAPI, descriptions/2.16): a list answers `pages: {next:
    // {per_page, starting_after}}` and takes `?starting_after=&per_page=`. The importer looked
    // one object down from the page only, so five lists were unpaged: `per_page` ignored and
    // no cursor to follow.
    let document = r##"
openapi: 3.0.1
info: { title: Items, version: "1" }
security: [ { bearer: [] } ]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
  schemas:
    item: { type: object, properties: { id: { type: string }, name: { type: string } } }
    starting_after_paging: { type: object, nullable: true, properties: { per_page: { type: integer }, starting_after: { type: string, nullable: true } } }
    cursor_pages: { type: object, nullable: true, properties: { type: { type: string, enum: [pages] }, next: { $ref: "#/components/schemas/starting_after_paging" }, per_page: { type: integer }, total_pages: { type: integer } } }
    item_list: { type: object, properties: { type: { type: string, enum: [list] }, data: { type: array, items: { $ref: "#/components/schemas/item" } }, total_count: { type: integer }, pages: { $ref: "#/components/schemas/cursor_pages" } } }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: per_page, in: query, schema: { type: integer, default: 20, maximum: 150 } }
        - { name: starting_after, in: query, schema: { type: string } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/item_list" } } } } }
    post:
      operationId: createItem
      requestBody: { content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/item" } } } } }
"##;
    let (served, _dir) = serve_document(document, "items.yaml", "items").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let call = |method, path: String, body| {
        call_json(&served, ("Authorization", &bearer), method, &path, body)
    };
    for n in 1..=5 {
        let (status, _) = call(
            "POST",
            "/items".into(),
            Some(serde_json::json!({ "name": format!("n{n}") })),
        )
        .await;
        assert_eq!(status, 200);
    }
    let mut names = Vec::new();
    let mut path = "/items?per_page=2".to_owned();
    for _ in 0..5 {
        let (status, page) = call("GET", path.clone(), None).await;
        assert_eq!(status, 200, "{page}");
        let data = page["data"].as_array().unwrap();
        assert!(data.len() <= 2, "per_page is the page's size: {page}");
        names.extend(data.iter().map(|i| i["name"].as_str().unwrap().to_owned()));
        match page["pages"]["next"]["starting_after"].as_str() {
            Some(cursor) => path = format!("/items?per_page=2&starting_after={cursor}"),
            None => {
                // The last page has no next page's object: a client looping while
                // `pages.next` exists started over.
                assert!(page["pages"].get("next").is_none(), "{page}");
                break;
            }
        }
    }
    assert_eq!(names, ["n1", "n2", "n3", "n4", "n5"]);
}

#[tokio::test]
async fn a_search_of_a_collection_lists_its_items() {
    // Intercom (descriptions/2.16): `POST /contacts/search` answers the `contact_list` that
    // `GET /contacts` answers. It was an action answering `{}` whatever the store held.
    let document = r##"
openapi: 3.0.1
info: { title: Contacts, version: "1" }
security: [ { bearer: [] } ]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
  schemas:
    contact: { type: object, properties: { id: { type: string }, email: { type: string } } }
    contact_list: { type: object, properties: { type: { type: string, enum: [list] }, data: { type: array, items: { $ref: "#/components/schemas/contact" } }, total_count: { type: integer } } }
paths:
  /contacts:
    get:
      operationId: listContacts
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/contact_list" } } } } }
    post:
      operationId: createContact
      requestBody: { content: { application/json: { schema: { type: object, properties: { email: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/contact" } } } } }
  /contacts/search:
    post:
      operationId: searchContacts
      requestBody: { required: true, content: { application/json: { schema: { type: object, properties: { query: { type: object, additionalProperties: true } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/contact_list" } } } } }
"##;
    let (served, _dir) = serve_document(document, "contacts.yaml", "contacts").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let call = |method, path: &'static str, body| {
        call_json(&served, ("Authorization", &bearer), method, path, body)
    };
    let (_, made) = call(
        "POST",
        "/contacts",
        Some(serde_json::json!({ "email": "ada@example.org" })),
    )
    .await;
    let other = serde_json::json!({ "email": "bob@example.org" });
    let (_, bob) = call("POST", "/contacts", Some(other)).await;
    let query = serde_json::json!({ "query": { "field": "email", "operator": "=", "value": "ada@example.org" } });
    let (status, found) = call("POST", "/contacts/search", Some(query)).await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["data"], serde_json::json!([made]), "{found}");
    assert_eq!(found["total_count"], 1, "{found}");
    // Its query is applied: `OR`, `~` (contains), `!=`.
    let either = serde_json::json!({ "query": { "operator": "OR", "value": [
        { "field": "email", "operator": "~", "value": "bob" },
        { "field": "email", "operator": "=", "value": "ada@example.org" } ] } });
    let (_, both) = call("POST", "/contacts/search", Some(either)).await;
    assert_eq!(both["data"], serde_json::json!([made, bob]), "{both}");
    let not_ada = serde_json::json!({ "query": { "field": "email", "operator": "!=", "value": "ada@example.org" } });
    let (_, found) = call("POST", "/contacts/search", Some(not_ada)).await;
    assert_eq!(found["data"], serde_json::json!([bob]), "{found}");
    let unknown =
        serde_json::json!({ "query": { "field": "email", "operator": "LIKE", "value": "a" } });
    let (status, refused) = call("POST", "/contacts/search", Some(unknown)).await;
    assert_eq!(status, 400, "{refused}");
}

#[tokio::test]
async fn a_list_parameter_named_as_a_field_s_plural_filters_on_it() {
    // Elastic Email v4: `GET /templates?templateTypes=...` (a list of `TemplateType`) filters
    // on each template's `TemplateType`; it filtered nothing. A list sent `a,b` (`explode:
    // false`) was read as the one value `a,b`.
    let document = r##"
openapi: 3.0.3
info: { title: Templates, version: "1" }
security: [ { key: [] } ]
paths:
  /templates:
    get:
      operationId: templatesGet
      parameters: [ { name: templateTypes, in: query, style: form, explode: false, schema: { type: array, items: { $ref: "#/components/schemas/TemplateType" } } } ]
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Template" } } } } } }
    post:
      operationId: templatesPost
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } }
      responses: { "201": { description: made, content: { application/json: { schema: { $ref: "#/components/schemas/Template" } } } } }
components:
  securitySchemes: { key: { type: apiKey, in: header, name: X-ElasticEmail-ApiKey } }
  schemas:
    TemplateType: { type: string, enum: [RawHTML, DragDropEditor, LandingPageEditor] }
    Template: { type: object, properties: { Name: { type: string }, TemplateType: { $ref: "#/components/schemas/TemplateType" } } }
"##;
    let (served, _dir) = serve_document(document, "templates.yaml", "templates").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method, path: &'static str, body| {
        call_json(&served, ("X-ElasticEmail-ApiKey", &key), method, path, body)
    };
    for (name, ty) in [
        ("a", "RawHTML"),
        ("b", "DragDropEditor"),
        ("c", "LandingPageEditor"),
    ] {
        let body = serde_json::json!({ "Name": name, "TemplateType": ty });
        let (status, made) = call("POST", "/templates", Some(body)).await;
        assert_eq!(status, 201, "{made}");
    }
    let names = |list: serde_json::Value| -> Vec<String> {
        let items = list.as_array().unwrap_or_else(|| panic!("{list}"));
        items
            .iter()
            .map(|t| t["Name"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, one) = call("GET", "/templates?templateTypes=DragDropEditor", None).await;
    assert_eq!(names(one), ["b"]);
    let (_, two) = call(
        "GET",
        "/templates?templateTypes=RawHTML,LandingPageEditor",
        None,
    )
    .await;
    assert_eq!(names(two), ["a", "c"]);
    let (_, all) = call("GET", "/templates", None).await;
    assert_eq!(names(all), ["a", "b", "c"]);
}

#[tokio::test]
async fn a_secret_after_an_item_s_path_acts_on_that_item() {
    // Discord (discord/discord-api-spec, specs/openapi.json): `POST
    // /webhooks/{webhook_id}/{webhook_token}` executes the webhook `GET /webhooks/{webhook_id}`
    // reads. The token was read as the id of an item beneath the webhook, never made: 404
    // for every webhook.
    let document = r##"
openapi: 3.1.0
info: { title: Webhooks, version: "1" }
security: [ { BotToken: [] } ]
components:
  securitySchemes: { BotToken: { type: apiKey, name: Authorization, in: header } }
  schemas:
    Snowflake: { type: string, pattern: "^(0|[1-9][0-9]*)$" }
    Webhook: { type: object, required: [id, channel_id, name], properties: { id: { $ref: "#/components/schemas/Snowflake" }, channel_id: { $ref: "#/components/schemas/Snowflake" }, name: { type: string } } }
    Message: { type: object, required: [id, channel_id, content], properties: { id: { $ref: "#/components/schemas/Snowflake" }, channel_id: { $ref: "#/components/schemas/Snowflake" }, content: { type: string } } }
paths:
  /channels/{channel_id}/webhooks:
    parameters: [ { name: channel_id, in: path, required: true, schema: { $ref: "#/components/schemas/Snowflake" } } ]
    post:
      operationId: create_webhook
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Webhook" } } } } }
  /webhooks/{webhook_id}:
    parameters: [ { name: webhook_id, in: path, required: true, schema: { $ref: "#/components/schemas/Snowflake" } } ]
    get:
      operationId: get_webhook
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Webhook" } } } } }
  /webhooks/{webhook_id}/{webhook_token}:
    parameters:
      - { name: webhook_id, in: path, required: true, schema: { $ref: "#/components/schemas/Snowflake" } }
      - { name: webhook_token, in: path, required: true, schema: { type: string } }
    get:
      operationId: get_webhook_by_token
      security: [ {} ]
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Webhook" } } } } }
    post:
      operationId: execute_webhook
      security: [ {} ]
      requestBody: { required: true, content: { application/json: { schema: { type: object, properties: { content: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Message" } } } } }
"##;
    let (served, _dir) = serve_document(document, "webhooks.yaml", "webhooks").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method, path: String, body| {
        call_json(&served, ("Authorization", &key), method, &path, body)
    };
    let name = serde_json::json!({ "name": "deploys" });
    let (status, hook) = call("POST", "/channels/7/webhooks".into(), Some(name)).await;
    assert_eq!(status, 200, "{hook}");
    let id = hook["id"].as_str().unwrap();
    let (status, read) = call("GET", format!("/webhooks/{id}/its-token"), None).await;
    assert_eq!((status, &read), (200, &hook), "read with its token");
    let content = serde_json::json!({ "content": "shipped" });
    let (status, sent) = call("POST", format!("/webhooks/{id}/its-token"), Some(content)).await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(sent["content"], "shipped", "{sent}");
    assert_eq!(
        sent["channel_id"], "7",
        "posted in the webhook's channel: {sent}"
    );
}

#[tokio::test]
async fn an_action_on_a_held_item_answers_the_item_s_own_fields() {
    // Intercom (descriptions/2.16): `POST /conversations/{id}/reply {type: "admin", body}`
    // answers the conversation. The reply's `type` replaced the conversation's own
    // (`conversation`) in the answer, a value outside its enum.
    let document = r##"
openapi: 3.0.1
info: { title: Conversations, version: "1" }
security: [ { bearer: [] } ]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
  schemas:
    conversation: { type: object, required: [type, id], properties: { type: { type: string, enum: [conversation] }, id: { type: string }, title: { type: string }, source: { type: string, enum: [email, chat] } } }
paths:
  /conversations:
    post:
      operationId: createConversation
      requestBody: { content: { application/json: { schema: { type: object, properties: { title: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/conversation" } } } } }
  /conversations/{conversation_id}:
    get:
      operationId: getConversation
      parameters: [ { name: conversation_id, in: path, required: true, schema: { type: string } } ]
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/conversation" } } } } }
  /conversations/{conversation_id}/reply:
    post:
      operationId: replyConversation
      parameters: [ { name: conversation_id, in: path, required: true, schema: { type: string } } ]
      requestBody: { content: { application/json: { schema: { type: object, properties: { type: { type: string, enum: [admin, user] }, source: { type: string, enum: [admin, user] }, body: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/conversation" } } } } }
"##;
    let (served, _dir) = serve_document(document, "conversations.yaml", "conversations").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let call = |method, path: String, body| {
        call_json(&served, ("Authorization", &bearer), method, &path, body)
    };
    let title = serde_json::json!({ "title": "refund" });
    let (_, made) = call("POST", "/conversations".into(), Some(title)).await;
    assert_eq!(made["type"], "conversation", "{made}");
    let id = made["id"].as_str().unwrap();
    let reply = serde_json::json!({ "type": "admin", "source": "admin", "body": "on its way" });
    let (status, answered) = call("POST", format!("/conversations/{id}/reply"), Some(reply)).await;
    assert_eq!(status, 200, "{answered}");
    assert_eq!(
        (&answered["type"], &answered["id"], &answered["title"]),
        (&"conversation".into(), &made["id"], &"refund".into()),
        "{answered}"
    );
    // Nor a value the conversation's own enum lacks: its `source`, which no create sends, is
    // the one the service set when it was made.
    assert_eq!(answered["source"], made["source"], "{answered}");
    assert_eq!(made["source"], "email", "{made}");
}

#[tokio::test]
async fn a_list_bounded_by_ids_and_a_size_answers_that_window() {
    // Discord (specs/openapi.json): `GET /channels/{channel_id}/messages` answers a bare
    // array and takes `before`, `after` (ids) and `limit` (at most 100). All three were
    // ignored: every call answered every message, and a client paging by `before` never
    // reached an empty page.
    let document = r##"
openapi: 3.1.0
info: { title: Messages, version: "1" }
security: [ { BotToken: [] } ]
components:
  securitySchemes: { BotToken: { type: apiKey, name: Authorization, in: header } }
  schemas:
    Snowflake: { type: string, pattern: "^(0|[1-9][0-9]*)$" }
    Message: { type: object, required: [id, content], properties: { id: { $ref: "#/components/schemas/Snowflake" }, content: { type: string } } }
paths:
  /channels/{channel_id}/messages:
    parameters: [ { name: channel_id, in: path, required: true, schema: { $ref: "#/components/schemas/Snowflake" } } ]
    get:
      operationId: list_messages
      parameters:
        - { name: before, in: query, schema: { $ref: "#/components/schemas/Snowflake" } }
        - { name: after, in: query, schema: { $ref: "#/components/schemas/Snowflake" } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100 } }
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Message" } } } } } }
    post:
      operationId: create_message
      requestBody: { required: true, content: { application/json: { schema: { type: object, properties: { content: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Message" } } } } }
"##;
    let (served, _dir) = serve_document(document, "messages.yaml", "messages").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method, path: String, body| {
        call_json(&served, ("Authorization", &key), method, &path, body)
    };
    let mut ids = Vec::new();
    for n in 1..=5 {
        let content = serde_json::json!({ "content": format!("m{n}") });
        let (status, made) = call("POST", "/channels/7/messages".into(), Some(content)).await;
        assert_eq!(status, 200, "{made}");
        ids.push(made["id"].as_str().unwrap().to_owned());
    }
    let contents = |page: serde_json::Value| -> Vec<String> {
        let items = page.as_array().unwrap_or_else(|| panic!("{page}"));
        items
            .iter()
            .map(|m| m["content"].as_str().unwrap().to_owned())
            .collect()
    };
    // A list that takes `before` pages back from the newest, newest first, as Discord's does.
    let list = |query: String| call("GET", format!("/channels/7/messages?{query}"), None);
    assert_eq!(contents(list("limit=2".into()).await.1), ["m5", "m4"]);
    let (_, after) = list(format!("after={}&limit=2", ids[1])).await;
    assert_eq!(contents(after), ["m4", "m3"], "the two closest after it");
    let (_, before) = list(format!("before={}&limit=2", ids[4])).await;
    assert_eq!(contents(before), ["m4", "m3"], "the two closest before it");
    assert_eq!(contents(list("after=0".into()).await.1).len(), 5);
    // Paging back by the last (oldest) id of each page reaches every message, then an empty
    // page.
    let (mut seen, mut query) = (Vec::new(), "limit=2".to_owned());
    for _ in 0..5 {
        let (_, page) = list(query.clone()).await;
        let Some(oldest) = page.as_array().unwrap().last().map(|m| m["id"].clone()) else {
            break;
        };
        query = format!("before={}&limit=2", oldest.as_str().unwrap());
        seen.extend(contents(page));
    }
    assert_eq!(seen, ["m5", "m4", "m3", "m2", "m1"]);
}

#[tokio::test]
async fn a_sent_value_the_item_cannot_hold_is_refused_not_made_up() {
    // Intercom (descriptions/2.16), where a request field is looser than the item's: a
    // contact created with `email: "not-an-address"` and `size: "12"` was acknowledged and
    // answered (and read back) as `"sample@example.com"` and `0`.
    let document = r##"
openapi: 3.0.1
info: { title: Items, version: "1" }
security: [ { bearer: [] } ]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
  schemas:
    item: { type: object, properties: { id: { type: string }, email: { type: string, format: email }, size: { type: integer } } }
paths:
  /items:
    post:
      operationId: createItem
      requestBody: { content: { application/json: { schema: { type: object, properties: { email: { type: string }, size: {} } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/item" } } } } }
  /items/{id}:
    get:
      operationId: getItem
      parameters: [ { name: id, in: path, required: true, schema: { type: string } } ]
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/item" } } } } }
"##;
    let (served, _dir) = serve_document(document, "items.yaml", "items").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let call = |body| call_json(&served, ("Authorization", &bearer), "POST", "/items", body);
    let (status, refused) = call(Some(serde_json::json!({ "email": "not-an-address" }))).await;
    assert_eq!(status, 422, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("`email`") && message.contains("an email address"),
        "{refused}"
    );
    let (status, refused) = call(Some(serde_json::json!({ "size": "12" }))).await;
    assert_eq!(status, 422, "{refused}");
    let (status, made) = call(Some(
        serde_json::json!({ "email": "ada@example.org", "size": 12 }),
    ))
    .await;
    assert_eq!(
        (status, &made["email"], &made["size"]),
        (200, &"ada@example.org".into(), &12.into())
    );
}

#[tokio::test]
async fn a_made_up_error_says_what_every_documented_error_says_alike() {
    // Intercom (descriptions/2.16): every documented error is `{type: "error.list",
    // request_id, errors: [...]}`. An error of a status an operation does not document (a
    // 404, a 422) answered `type: "Not Found"`, the status's reason, where every documented
    // one says `error.list`.
    let example = |n: u8| {
        format!(
            "{{ description: no, content: {{ application/json: {{ schema: {{ $ref: \"#/components/schemas/error\" }}, examples: {{ no: {{ value: {{ type: error.list, request_id: \"r{n}\", errors: [ {{ code: unauthorized, message: Access Token Invalid }} ] }} }} }} }} }} }}"
        )
    };
    let document = format!(
        r##"
openapi: 3.0.1
info: {{ title: Items, version: "1" }}
security: [ {{ bearer: [] }} ]
components:
  securitySchemes: {{ bearer: {{ type: http, scheme: bearer }} }}
  schemas:
    error: {{ type: object, required: [type, errors], properties: {{ type: {{ type: string }}, request_id: {{ type: string, nullable: true }}, errors: {{ type: array, items: {{ type: object, required: [code], properties: {{ code: {{ type: string }}, message: {{ type: string, nullable: true }} }} }} }} }} }}
    item: {{ type: object, properties: {{ id: {{ type: string }}, email: {{ type: string }} }} }}
paths:
  /items:
    post:
      operationId: createItem
      requestBody: {{ required: true, content: {{ application/json: {{ schema: {{ type: object, properties: {{ email: {{ type: string }} }} }} }} }} }}
      responses: {{ "200": {{ description: ok, content: {{ application/json: {{ schema: {{ $ref: "#/components/schemas/item" }} }} }} }}, "401": {one} }}
  /items/{{id}}:
    get:
      operationId: getItem
      parameters: [ {{ name: id, in: path, required: true, schema: {{ type: string }} }} ]
      responses: {{ "200": {{ description: ok, content: {{ application/json: {{ schema: {{ $ref: "#/components/schemas/item" }} }} }} }}, "401": {two} }}
"##,
        one = example(1),
        two = example(2)
    );
    let (served, _dir) = serve_document(&document, "items.yaml", "items").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let (status, missing) = call_json(
        &served,
        ("Authorization", &bearer),
        "GET",
        "/items/nope",
        None,
    )
    .await;
    assert_eq!(status, 404, "{missing}");
    assert_eq!(missing["type"], "error.list", "{missing}");
    assert_eq!(missing["errors"][0]["code"], "not_found", "{missing}");
    assert_ne!(
        missing["request_id"], "r1",
        "values that differ are not copied: {missing}"
    );
    let refused = serde_json::json!({ "email": 5 });
    let (status, invalid) = call_json(
        &served,
        ("Authorization", &bearer),
        "POST",
        "/items",
        Some(refused),
    )
    .await;
    assert_eq!(
        (status, &invalid["type"]),
        (422, &"error.list".into()),
        "{invalid}"
    );
}

#[tokio::test]
async fn a_send_answers_every_id_it_promises() {
    // Elastic Email v4: `POST /emails/transactional` answers `EmailSend {TransactionID,
    // MessageID}`. Only the one id field the store keys by was given; `TransactionID`, which
    // the status call takes, was left out.
    let document = r##"
openapi: 3.0.3
info: { title: Emails, version: "1" }
security: [ { key: [] } ]
paths:
  /emails/transactional:
    post:
      operationId: emailsTransactionalPost
      requestBody: { required: true, content: { application/json: { schema: { type: object, properties: { Subject: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/EmailSend" } } } } }
components:
  securitySchemes: { key: { type: apiKey, in: header, name: X-ElasticEmail-ApiKey } }
  schemas:
    EmailSend: { type: object, properties: { TransactionID: { type: string }, MessageID: { type: string } } }
"##;
    let (served, _dir) = serve_document(document, "emails.yaml", "emails").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let send = || {
        let body = serde_json::json!({ "Subject": "hello" });
        call_json(
            &served,
            ("X-ElasticEmail-ApiKey", &key),
            "POST",
            "/emails/transactional",
            Some(body),
        )
    };
    let (status, one) = send().await;
    assert_eq!(status, 200, "{one}");
    let (_, two) = send().await;
    for field in ["TransactionID", "MessageID"] {
        assert!(
            one[field].as_str().is_some_and(|id| !id.is_empty()),
            "{field}: {one}"
        );
        assert_ne!(one[field], two[field], "each send its own {field}");
    }
    assert_ne!(one["TransactionID"], one["MessageID"]);
}

#[tokio::test]
async fn a_json_api_update_keeps_the_attributes_it_does_not_send() {
    // Klaviyo (klaviyo/openapi, openapi/stable.json): `PATCH /api/templates/{id}` sends
    // `{data: {type, id, attributes: {name}}}`; JSON:API keeps the attributes not sent. The
    // whole `attributes` object was replaced: the template's `html` and `editor_type` were
    // lost and answered as made-up text.
    let document = r##"
openapi: 3.0.2
info: {title: Templates, version: '1'}
servers: [{url: 'https://api.example.com'}]
security: [{key: []}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Api-Key}
  schemas:
    TemplateEnum: {type: string, enum: [template]}
    TemplateObject:
      type: object
      required: [type, id, attributes]
      properties:
        type: {$ref: '#/components/schemas/TemplateEnum'}
        id: {type: string}
        attributes:
          type: object
          required: [name, editor_type, html]
          properties:
            name: {type: string}
            editor_type: {type: string}
            html: {type: string}
            text: {type: string, nullable: true}
    TemplateResponse:
      type: object
      required: [data]
      properties:
        data: {$ref: '#/components/schemas/TemplateObject'}
paths:
  /api/templates:
    post:
      operationId: create_template
      requestBody:
        required: true
        content:
          application/vnd.api+json:
            schema:
              type: object
              required: [data]
              properties:
                data:
                  type: object
                  required: [type, attributes]
                  properties:
                    type: {$ref: '#/components/schemas/TemplateEnum'}
                    attributes:
                      type: object
                      required: [name, editor_type]
                      properties:
                        name: {type: string}
                        editor_type: {type: string}
                        html: {type: string}
                        text: {type: string, nullable: true}
      responses:
        '201':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/TemplateResponse'}
  /api/templates/{id}:
    parameters:
    - {name: id, in: path, required: true, schema: {type: string}}
    get:
      operationId: get_template
      responses:
        '200':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/TemplateResponse'}
    patch:
      operationId: update_template
      requestBody:
        required: true
        content:
          application/vnd.api+json:
            schema:
              type: object
              required: [data]
              properties:
                data:
                  type: object
                  required: [type, id, attributes]
                  properties:
                    type: {$ref: '#/components/schemas/TemplateEnum'}
                    id: {type: string}
                    attributes:
                      type: object
                      properties:
                        name: {type: string}
                        html: {type: string}
                        text: {type: string, nullable: true}
      responses:
        '200':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/TemplateResponse'}
"##;
    let (served, _dir) = serve_document(document, "templates.yaml", "templates").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call =
        |method, path: String, body| call_json(&served, ("X-Api-Key", &key), method, &path, body);
    let template = serde_json::json!({ "data": { "type": "template", "attributes": {
        "name": "Welcome", "editor_type": "CODE", "html": "<p>Hi</p>", "text": "Hi" } } });
    let (status, made) = call("POST", "/api/templates".into(), Some(template)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["data"]["id"].as_str().unwrap().to_owned();
    let rename = serde_json::json!({ "data": { "type": "template", "id": id, "attributes": { "name": "Welcome v2" } } });
    let (status, patched) = call("PATCH", format!("/api/templates/{id}"), Some(rename)).await;
    assert_eq!(status, 200, "{patched}");
    let (_, read) = call("GET", format!("/api/templates/{id}"), None).await;
    let kept = serde_json::json!({ "name": "Welcome v2", "editor_type": "CODE", "html": "<p>Hi</p>", "text": "Hi" });
    assert_eq!(read["data"]["attributes"], kept, "{read}");
    assert_eq!(patched["data"]["attributes"], kept, "{patched}");
    // A body naming another item is a conflict, not a new id for this one.
    let other = serde_json::json!({ "data": { "type": "template", "id": "T0THER", "attributes": { "name": "x" } } });
    let (status, refused) = call("PATCH", format!("/api/templates/{id}"), Some(other)).await;
    assert_eq!(status, 409, "{refused}");
    let (_, read) = call("GET", format!("/api/templates/{id}"), None).await;
    assert_eq!(
        (&read["data"]["id"], &read["data"]["attributes"]),
        (&id.clone().into(), &kept)
    );
}

#[tokio::test]
async fn a_filter_expression_and_a_sort_select_and_order_a_list() {
    // Klaviyo (klaviyo/openapi, openapi/stable.json): `GET /api/profiles` takes `filter`
    // (`equals(email,"...")`, `any(...)`, `and(...)`) and `sort`; this is how a client finds a
    // profile by email. Both were ignored: every profile was answered, in the order made, and
    // a filter that does not parse was a 200.
    let document = r##"
openapi: 3.0.2
info: {title: Profiles, version: '1'}
servers: [{url: 'https://api.example.com'}]
security: [{key: []}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Api-Key}
  schemas:
    ProfileEnum: {type: string, enum: [profile]}
    ProfileAttrs:
      type: object
      properties:
        email: {type: string, nullable: true}
        first_name: {type: string, nullable: true}
        last_name: {type: string, nullable: true}
        properties: {type: object}
    ProfileObject:
      type: object
      required: [type, id, attributes]
      properties:
        type: {$ref: '#/components/schemas/ProfileEnum'}
        id: {type: string}
        attributes: {$ref: '#/components/schemas/ProfileAttrs'}
    ProfileCreateQuery:
      type: object
      required: [data]
      properties:
        data:
          type: object
          required: [type, attributes]
          properties:
            type: {$ref: '#/components/schemas/ProfileEnum'}
            attributes: {$ref: '#/components/schemas/ProfileAttrs'}
    ProfilePartialUpdateQuery:
      type: object
      required: [data]
      properties:
        data:
          type: object
          required: [type, id, attributes]
          properties:
            type: {$ref: '#/components/schemas/ProfileEnum'}
            id: {type: string}
            attributes: {$ref: '#/components/schemas/ProfileAttrs'}
    ProfileListResponse:
      type: object
      required: [data]
      properties:
        data: {type: array, items: {$ref: '#/components/schemas/ProfileObject'}}
        links:
          type: object
          properties:
            self: {type: string, format: uri}
            next: {type: string, format: uri, nullable: true}
            prev: {type: string, format: uri, nullable: true}
    ProfileResponse:
      type: object
      required: [data]
      properties:
        data: {$ref: '#/components/schemas/ProfileObject'}
paths:
  /api/profiles:
    get:
      operationId: get_profiles
      parameters:
      - {name: filter, in: query, schema: {type: string}}
      - {name: sort, in: query, schema: {type: string, enum: [email, -email]}}
      - {name: 'page[cursor]', in: query, schema: {type: string}}
      - {name: 'page[size]', in: query, schema: {type: integer, default: 20, minimum: 1, maximum: 100}}
      responses:
        '200':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/ProfileListResponse'}
    post:
      operationId: create_profile
      requestBody:
        required: true
        content:
          application/vnd.api+json:
            schema: {$ref: '#/components/schemas/ProfileCreateQuery'}
      responses:
        '201':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/ProfileResponse'}
  /api/profiles/{id}:
    parameters:
    - {name: id, in: path, required: true, schema: {type: string}}
    get:
      operationId: get_profile
      responses:
        '200':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/ProfileResponse'}
    patch:
      operationId: update_profile
      description: Setting a field to null clears it; a field not included is left unchanged.
      requestBody:
        required: true
        content:
          application/vnd.api+json:
            schema: {$ref: '#/components/schemas/ProfilePartialUpdateQuery'}
      responses:
        '200':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/ProfileResponse'}
"##;
    let (served, _dir) = serve_document(document, "profiles.yaml", "profiles").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call =
        |method, path: &str, body| call_json(&served, ("X-Api-Key", &key), method, path, body);
    for email in ["c@example.com", "a@example.com", "b@example.com"] {
        let profile =
            serde_json::json!({ "data": { "type": "profile", "attributes": { "email": email } } });
        let (status, made) = call("POST", "/api/profiles", Some(profile)).await;
        assert!(status < 300, "{made}");
    }
    let emails = |page: serde_json::Value| -> Vec<String> {
        let data = page["data"].as_array().unwrap_or_else(|| panic!("{page}"));
        data.iter()
            .map(|p| p["attributes"]["email"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, one) = call(
        "GET",
        "/api/profiles?filter=equals(email,%22b@example.com%22)",
        None,
    )
    .await;
    assert_eq!(emails(one), ["b@example.com"]);
    let any = "/api/profiles?filter=any(email,%5B%22a@example.com%22,%22c@example.com%22%5D)";
    assert_eq!(
        emails(call("GET", any, None).await.1),
        ["c@example.com", "a@example.com"]
    );
    let (_, sorted) = call("GET", "/api/profiles?sort=-email", None).await;
    assert_eq!(
        emails(sorted),
        ["c@example.com", "b@example.com", "a@example.com"]
    );
    let (status, refused) = call("GET", "/api/profiles?filter=nonsense(((", None).await;
    assert_eq!(status, 400, "{refused}");
    // `links.next` carries the list's own `page[cursor]` (it carried the sandbox's
    // `page_offset`, a parameter of no Klaviyo operation): a client taking the cursor out of
    // the link and sending it back reaches every profile.
    let (mut seen, mut query) = (Vec::new(), "page%5Bsize%5D=2".to_owned());
    for _ in 0..4 {
        let (_, page) = call("GET", &format!("/api/profiles?{query}"), None).await;
        seen.extend(emails(page.clone()));
        let Some(next) = page["links"]["next"].as_str() else {
            break;
        };
        assert!(!next.contains("page_offset"), "{next}");
        let next = tidings_runtime::reqwest::Url::parse(next).unwrap();
        let (_, cursor) = next
            .query_pairs()
            .find(|(k, _)| k == "page[cursor]")
            .unwrap();
        query = format!("page%5Bsize%5D=2&page%5Bcursor%5D={cursor}");
    }
    assert_eq!(seen, ["c@example.com", "a@example.com", "b@example.com"]);
}

#[tokio::test]
async fn a_bare_list_with_no_documented_page_size_is_not_cut_short() {
    // Elastic Email v4: `GET /contacts?limit=&offset=` answers a bare array and documents no
    // default `limit`. Without one the sandbox answered its own 20: a client that asked for no
    // size saw 20 of 30 contacts, and a bare array cannot say that more follow.
    let document = r##"
openapi: 3.0.3
info: { title: Contacts, version: "1" }
security: [ { key: [] } ]
paths:
  /contacts:
    get:
      operationId: contactsGet
      parameters:
        - { name: limit, in: query, schema: { type: integer, format: int32 } }
        - { name: offset, in: query, schema: { type: integer, format: int32 } }
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Contact" } } } } } }
    post:
      operationId: contactsPost
      requestBody: { required: true, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Contact" } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Contact" } } } } } }
components:
  securitySchemes: { key: { type: apiKey, in: header, name: X-ElasticEmail-ApiKey } }
  schemas:
    Contact: { type: object, properties: { Email: { type: string } } }
"##;
    let (served, _dir) = serve_document(document, "contacts.yaml", "contacts").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method, path: &'static str, body| {
        call_json(&served, ("X-ElasticEmail-ApiKey", &key), method, path, body)
    };
    let contacts: Vec<serde_json::Value> = (0..30)
        .map(|n| serde_json::json!({ "Email": format!("c{n}@example.org") }))
        .collect();
    let (status, made) = call("POST", "/contacts", Some(contacts.into())).await;
    assert_eq!(status, 200, "{made}");
    let (_, all) = call("GET", "/contacts", None).await;
    assert_eq!(all.as_array().map(Vec::len), Some(30), "{all}");
    let (_, two) = call("GET", "/contacts?limit=2&offset=28", None).await;
    assert_eq!(
        two.as_array().map(Vec::len),
        Some(2),
        "a size asked for is kept: {two}"
    );
}

#[tokio::test]
async fn a_json_api_relationship_adds_lists_and_removes_its_members() {
    // Klaviyo (klaviyo/openapi, openapi/stable.json): `POST
    // /api/lists/{id}/relationships/profiles {data: [{type, id}]}` adds profiles to a list;
    // its `GET` lists their identifiers, `GET /api/lists/{id}/profiles` the members, `DELETE`
    // with identifiers removes them. Each add stored one entry of a made-up id, and the
    // members' list stayed empty.
    let document = r##"
openapi: 3.0.2
info: {title: Lists, version: '1'}
servers: [{url: 'https://api.example.com'}]
security: [{key: []}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Api-Key}
  schemas:
    ProfileEnum: {type: string, enum: [profile]}
    ProfileAttrs:
      type: object
      properties:
        email: {type: string, nullable: true}
        first_name: {type: string, nullable: true}
        last_name: {type: string, nullable: true}
        properties: {type: object}
    ProfileObject:
      type: object
      required: [type, id, attributes]
      properties:
        type: {$ref: '#/components/schemas/ProfileEnum'}
        id: {type: string}
        attributes: {$ref: '#/components/schemas/ProfileAttrs'}
    ProfileCreateQuery:
      type: object
      required: [data]
      properties:
        data:
          type: object
          required: [type, attributes]
          properties:
            type: {$ref: '#/components/schemas/ProfileEnum'}
            attributes: {$ref: '#/components/schemas/ProfileAttrs'}
    ProfilePartialUpdateQuery:
      type: object
      required: [data]
      properties:
        data:
          type: object
          required: [type, id, attributes]
          properties:
            type: {$ref: '#/components/schemas/ProfileEnum'}
            id: {type: string}
            attributes: {$ref: '#/components/schemas/ProfileAttrs'}
    ListEnum: {type: string, enum: [list]}
    ListObject:
      type: object
      required: [type, id, attributes]
      properties:
        type: {$ref: '#/components/schemas/ListEnum'}
        id: {type: string}
        attributes: {type: object, properties: {name: {type: string}}}
    ListResponse:
      type: object
      required: [data]
      properties:
        data: {$ref: '#/components/schemas/ListObject'}
    ProfileListResponse:
      type: object
      required: [data]
      properties:
        data: {type: array, items: {$ref: '#/components/schemas/ProfileObject'}}
        links: {type: object, properties: {next: {type: string, nullable: true}}}
    ProfileIdentifiers:
      type: object
      required: [data]
      properties:
        data:
          type: array
          items:
            type: object
            required: [type, id]
            properties:
              type: {$ref: '#/components/schemas/ProfileEnum'}
              id: {type: string}
    ProfileResponse:
      type: object
      required: [data]
      properties:
        data: {$ref: '#/components/schemas/ProfileObject'}
paths:
  /api/profiles:
    post:
      operationId: create_profile
      requestBody:
        required: true
        content:
          application/vnd.api+json:
            schema: {$ref: '#/components/schemas/ProfileCreateQuery'}
      responses:
        '201':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/ProfileResponse'}
  /api/profiles/{id}:
    parameters:
    - {name: id, in: path, required: true, schema: {type: string}}
    get:
      operationId: get_profile
      responses:
        '200':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/ProfileResponse'}
    patch:
      operationId: update_profile
      description: Setting a field to null clears it; a field not included is left unchanged.
      requestBody:
        required: true
        content:
          application/vnd.api+json:
            schema: {$ref: '#/components/schemas/ProfilePartialUpdateQuery'}
      responses:
        '200':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/ProfileResponse'}
  /api/lists:
    post:
      operationId: create_list
      requestBody:
        required: true
        content:
          application/vnd.api+json:
            schema:
              type: object
              required: [data]
              properties:
                data:
                  type: object
                  required: [type, attributes]
                  properties:
                    type: {$ref: '#/components/schemas/ListEnum'}
                    attributes: {type: object, required: [name], properties: {name: {type: string}}}
      responses:
        '201':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/ListResponse'}
  /api/lists/{id}/profiles:
    parameters:
    - {name: id, in: path, required: true, schema: {type: string}}
    get:
      operationId: get_profiles_for_list
      parameters:
      - {name: 'page[cursor]', in: query, schema: {type: string}}
      responses:
        '200':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/ProfileListResponse'}
  /api/lists/{id}/relationships/profiles:
    parameters:
    - {name: id, in: path, required: true, schema: {type: string}}
    get:
      operationId: get_profile_ids_for_list
      responses:
        '200':
          description: Success
          content:
            application/vnd.api+json:
              schema: {$ref: '#/components/schemas/ProfileIdentifiers'}
    post:
      operationId: add_profiles_to_list
      requestBody:
        required: true
        content:
          application/vnd.api+json:
            schema: {$ref: '#/components/schemas/ProfileIdentifiers'}
      responses:
        '204': {description: Success}
    delete:
      operationId: remove_profiles_from_list
      requestBody:
        required: true
        content:
          application/vnd.api+json:
            schema: {$ref: '#/components/schemas/ProfileIdentifiers'}
      responses:
        '204': {description: Success}
"##;
    let (served, _dir) = serve_document(document, "lists.yaml", "lists").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call =
        |method, path: String, body| call_json(&served, ("X-Api-Key", &key), method, &path, body);
    let list = serde_json::json!({ "data": { "type": "list", "attributes": { "name": "VIP" } } });
    let (status, made) = call("POST", "/api/lists".into(), Some(list)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["data"]["id"].as_str().unwrap().to_owned();
    let members = |ids: &[&str]| {
        let data: Vec<serde_json::Value> = ids
            .iter()
            .map(|id| serde_json::json!({ "type": "profile", "id": id }))
            .collect();
        Some(serde_json::json!({ "data": data }))
    };
    let ada = serde_json::json!({ "data": { "type": "profile", "attributes": { "email": "ada@example.org" } } });
    let (_, ada) = call("POST", "/api/profiles".into(), Some(ada)).await;
    let p1 = ada["data"]["id"].as_str().unwrap().to_owned();
    let relationship = format!("/api/lists/{id}/relationships/profiles");
    let (status, _) = call("POST", relationship.clone(), members(&[&p1, "p2"])).await;
    assert_eq!(status, 204);
    let (status, _) = call("POST", relationship.clone(), members(&["p2"])).await;
    assert_eq!(status, 204, "adding a member twice keeps one");
    let ids = |page: serde_json::Value| -> Vec<String> {
        let data = page["data"].as_array().unwrap_or_else(|| panic!("{page}"));
        data.iter()
            .map(|m| m["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        ids(call("GET", relationship.clone(), None).await.1),
        [p1.as_str(), "p2"]
    );
    let (_, profiles) = call("GET", format!("/api/lists/{id}/profiles"), None).await;
    assert_eq!(ids(profiles.clone()), [p1.as_str(), "p2"]);
    // A member held as a profile shows that profile as it is now.
    assert_eq!(
        profiles["data"][0]["attributes"]["email"], "ada@example.org",
        "{profiles}"
    );
    let (status, _) = call("DELETE", relationship.clone(), members(&[&p1])).await;
    assert_eq!(status, 204);
    assert_eq!(ids(call("GET", relationship, None).await.1), ["p2"]);
}

/// One call with a form body (or none) and HTTP Basic credentials: the status and the answer
/// read as JSON.
async fn form_call(
    served: &ServedService,
    method: &str,
    path: &str,
    form: Option<&str>,
) -> (u16, serde_json::Value) {
    let mut request = tidings_runtime::reqwest::Client::new()
        .request(
            method.parse().unwrap(),
            format!("{}{path}", served.base_url()),
        )
        .header("authorization", basic_auth(served));
    if let Some(form) = form {
        request = request
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form.to_owned());
    }
    let answer = request.send().await.unwrap();
    let status = answer.status().as_u16();
    let text = answer.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(serde_json::Value::Null),
    )
}

/// Zulip's REST API, reduced to facts (`zerver/openapi/zulip.yaml` of zulip/zulip at 44c4b93f):
/// Basic credentials, form bodies, answers `{result, msg, ...}`.
const ZULIP_HEAD: &str = r##"
openapi: 3.0.1
info: { title: zulip, version: "1" }
servers: [ { url: "http://localhost:9991/api/v1" } ]
security: [ { basicAuth: [] } ]
components:
  securitySchemes:
    basicAuth: { type: http, scheme: basic }
  schemas:
    Success:
      type: object
      required: [result, msg]
      properties: { result: { type: string, enum: [success] }, msg: { type: string } }
"##;

/// Operations on one path may name its parameter differently (Zulip's `PATCH` and `DELETE
/// /users/{user_id}` beside `GET /users/{email}`): each reads the path by its own name, and a
/// number the path carries finds the item holding it.
#[tokio::test]
async fn operations_on_one_path_read_it_by_their_own_parameter_names() {
    let document = format!(
        "{ZULIP_HEAD}{}",
        r##"
paths:
  /users:
    post:
      operationId: create-user
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [email, full_name]
              properties: { email: { type: string }, full_name: { type: string } }
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { allOf: [ { $ref: "#/components/schemas/Success" } ], properties: { user_id: { type: integer } } } } }
  /users/{email}:
    get:
      operationId: get-user-by-email
      parameters: [ { name: email, in: path, required: true, schema: { type: string } } ]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  user: { type: object, properties: { email: { type: string }, full_name: { type: string }, user_id: { type: integer } } }
  /users/{user_id}:
    patch:
      operationId: update-user
      parameters: [ { name: user_id, in: path, required: true, schema: { type: integer } } ]
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, properties: { full_name: { type: string } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Success" } } } }
"##
    );
    let (served, _dir) = serve_document(&document, "zulip.yaml", "zulip").await;
    let form = "email=ada%40example.org&full_name=Ada";
    let (status, made) = form_call(&served, "POST", "/users", Some(form)).await;
    assert_eq!(status, 200);
    // Keyed by the email the client chose, the user still has the number the service makes.
    let number = made["user_id"].as_i64().unwrap_or_else(|| panic!("{made}"));
    let path = format!("/users/{number}");
    let (status, answer) = form_call(&served, "PATCH", &path, Some("full_name=Ada+Lovelace")).await;
    assert_eq!(status, 200, "{answer}");
    let (_, read) = form_call(&served, "GET", "/users/ada@example.org", None).await;
    assert_eq!(read["user"]["full_name"], "Ada Lovelace", "{read}");
}

/// A form field that is an integer or a list of them (Zulip's `to` of `POST
/// /scheduled_messages`: a channel's id, or users' ids) takes `to=9`; an optional form
/// (`DELETE /users/{user_id}` with no required field) may be left out; a create named by its
/// verb (`POST /user_groups/create`) beside a listed collection keeps what it makes there.
#[tokio::test]
async fn zulip_s_union_fields_optional_forms_and_verb_creates_are_served() {
    let document = format!(
        "{ZULIP_HEAD}{}",
        r##"
paths:
  /scheduled_messages:
    post:
      operationId: create-scheduled-message
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [to, content]
              properties:
                to: { oneOf: [ { type: integer }, { type: array, items: { type: integer } } ] }
                content: { type: string }
            encoding: { to: { contentType: application/json } }
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { allOf: [ { $ref: "#/components/schemas/Success" } ], properties: { scheduled_message_id: { type: integer } } } } }
  /notes/{note_id}:
    delete:
      operationId: delete-note
      parameters: [ { name: note_id, in: path, required: true, schema: { type: string } } ]
      requestBody:
        required: false
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, properties: { comment: { type: string } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Success" } } } }
  /drafts:
    post:
      operationId: create-drafts
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [drafts]
              properties:
                drafts: { type: array, items: { type: object, required: [content], properties: { id: { type: integer }, content: { type: string } } } }
            encoding: { drafts: { contentType: application/json } }
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { allOf: [ { $ref: "#/components/schemas/Success" } ], properties: { ids: { type: array, items: { type: integer } } } } } }
    get:
      operationId: get-drafts
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                allOf: [ { $ref: "#/components/schemas/Success" } ]
                properties:
                  count: { type: integer }
                  drafts: { type: array, items: { type: object, required: [content], properties: { id: { type: integer }, content: { type: string } } } }
  /drafts/{draft_id}:
    delete:
      operationId: delete-draft
      parameters: [ { name: draft_id, in: path, required: true, schema: { type: integer } } ]
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Success" } } } }
  /user_groups/create:
    post:
      operationId: create-user-group
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [name]
              properties: { name: { type: string }, description: { type: string } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Success" } } } }
  /user_groups:
    get:
      operationId: get-user-groups
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                allOf: [ { $ref: "#/components/schemas/Success" } ]
                properties:
                  user_groups:
                    type: array
                    items: { type: object, required: [id, name], properties: { id: { type: integer }, name: { type: string }, description: { type: string } } }
  /user_groups/{user_group_id}:
    delete:
      operationId: remove-user-group
      parameters: [ { name: user_group_id, in: path, required: true, schema: { type: integer } } ]
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Success" } } } }
"##
    );
    let (served, _dir) = serve_document(&document, "zulip.yaml", "zulip").await;
    for to in ["9", "%5B9%2C10%5D"] {
        let form = format!("to={to}&content=later");
        let (status, answer) = form_call(&served, "POST", "/scheduled_messages", Some(&form)).await;
        assert_eq!(status, 200, "to={to}: {answer}");
    }
    let (status, answer) = form_call(&served, "DELETE", "/notes/n1", None).await;
    assert_ne!(status, 400, "an optional form left out: {answer}");
    // Each draft of one create is an item of its own, its id answered in order.
    let drafts = "drafts=%5B%7B%22content%22%3A%22a%22%7D%2C%7B%22content%22%3A%22b%22%7D%5D";
    let (status, made) = form_call(&served, "POST", "/drafts", Some(drafts)).await;
    assert_eq!(status, 200, "{made}");
    let ids = made["ids"]
        .as_array()
        .unwrap_or_else(|| panic!("{made}"))
        .clone();
    assert_eq!(ids.len(), 2, "{made}");
    let (status, _) = form_call(&served, "DELETE", &format!("/drafts/{}", ids[0]), None).await;
    assert_eq!(status, 200);
    let (_, listed) = form_call(&served, "GET", "/drafts", None).await;
    let left = serde_json::json!([{ "id": ids[1], "content": "b" }]);
    assert_eq!(listed["drafts"], left, "{listed}");
    let (status, answer) = form_call(
        &served,
        "POST",
        "/user_groups/create",
        Some("name=marketing"),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let (_, listed) = form_call(&served, "GET", "/user_groups", None).await;
    let groups = listed["user_groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{listed}");
    assert_eq!(groups[0]["name"], "marketing");
    // A number, as the path that names it takes (no answer says what the id is).
    let id = groups[0]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{listed}"));
    let (status, _) = form_call(&served, "DELETE", &format!("/user_groups/{id}"), None).await;
    assert_eq!(status, 200);
    let (_, listed) = form_call(&served, "GET", "/user_groups", None).await;
    assert_eq!(listed["user_groups"], serde_json::json!([]), "{listed}");
}

/// Rocket.Chat's `chat.*` methods (facts of `RocketChat/Rocket.Chat-Open-API`'s messaging
/// document): a message posted is read back by `chat.getMessage?msgId=`, edited by
/// `chat.update` and gone after `chat.delete` (each answered a made-up `{}` and kept nothing).
#[tokio::test]
async fn rocket_chat_s_messages_are_posted_read_updated_and_deleted() {
    let document = r##"
openapi: 3.0.1
info: { title: rocket, version: "1" }
servers: [ { url: "http://localhost:3000" } ]
security: [ { token: [] } ]
components:
  securitySchemes:
    token: { type: apiKey, in: header, name: X-Auth-Token }
  schemas:
    Message: { type: object, properties: { _id: { type: string }, rid: { type: string }, msg: { type: string } } }
    Answer: { type: object, properties: { message: { $ref: "#/components/schemas/Message" }, success: { type: boolean } } }
paths:
  /api/v1/chat.postMessage:
    post:
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [roomId], properties: { roomId: { type: string }, text: { type: string } } } } } }
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/Answer" } } } } }
  /api/v1/chat.getMessage:
    get:
      parameters: [ { name: msgId, in: query, required: true, schema: { type: string } } ]
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/Answer" } } } } }
  /api/v1/chat.update:
    post:
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [roomId, msgId, text], properties: { roomId: { type: string }, msgId: { type: string }, text: { type: string } } } } } }
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/Answer" } } } } }
  /api/v1/chat.delete:
    post:
      requestBody: { required: true, content: { application/json: { schema: { type: object, properties: { roomId: { type: string }, msgId: { type: string } } } } } }
      responses: { "200": { description: OK, content: { application/json: { schema: { type: object, properties: { _id: { type: string }, success: { type: boolean } } } } } } }
"##;
    let (served, _dir) = serve_document(document, "messaging.yaml", "rocket").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method: &'static str, path: &str, body: Option<serde_json::Value>| {
        call_json(&served, ("x-auth-token", &key), method, path, body)
    };
    let post = serde_json::json!({ "roomId": "GENERAL", "text": "hello" });
    let (status, posted) = call("POST", "/api/v1/chat.postMessage", Some(post)).await;
    assert_eq!(status, 200, "{posted}");
    // Optional in the document, in every example: a client checks it.
    assert_eq!(posted["success"], true, "{posted}");
    let id = posted["message"]["_id"].as_str().unwrap().to_owned();
    let read = format!("/api/v1/chat.getMessage?msgId={id}");
    let (status, got) = call("GET", &read, None).await;
    assert_eq!(
        (status, &got["message"]["_id"]),
        (200, &posted["message"]["_id"])
    );
    let (status, _) = call("GET", "/api/v1/chat.getMessage?msgId=never-sent", None).await;
    assert_eq!(status, 404);
    let edit = serde_json::json!({ "roomId": "GENERAL", "msgId": id, "text": "edited" });
    let (status, _) = call("POST", "/api/v1/chat.update", Some(edit)).await;
    assert_eq!(status, 200);
    let gone = serde_json::json!({ "roomId": "GENERAL", "msgId": id });
    let (status, _) = call("POST", "/api/v1/chat.delete", Some(gone)).await;
    assert_eq!(status, 200);
    assert_eq!(call("GET", &read, None).await.0, 404);
}

/// Rocket.Chat's users and channels (facts of its `user-management` and `rooms` documents):
/// a user is named by the `_id` the service makes (`userId`) or by its `username`, an update
/// sends its changes inside `data`, a channel is named by its only id parameter (`roomId`) or
/// its name (`roomName`), and an offset page's `count` is the items on it.
#[tokio::test]
async fn rocket_chat_s_users_and_channels_are_named_by_id_or_name_and_paged() {
    let document = r##"
openapi: 3.0.1
info: { title: rocket, version: "1" }
servers: [ { url: "http://localhost:3000" } ]
security: [ { token: [] } ]
components:
  securitySchemes:
    token: { type: apiKey, in: header, name: X-Auth-Token }
  schemas:
    User: { type: object, properties: { _id: { type: string }, username: { type: string }, name: { type: string } } }
    UserAnswer: { type: object, properties: { user: { $ref: "#/components/schemas/User" }, success: { type: boolean } } }
    Channel: { type: object, properties: { _id: { type: string }, name: { type: string } } }
    ChannelAnswer: { type: object, properties: { channel: { $ref: "#/components/schemas/Channel" }, success: { type: boolean } } }
    Done: { type: object, properties: { success: { type: boolean } } }
paths:
  /api/v1/users.create:
    post:
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [name, username], properties: { name: { type: string }, username: { type: string } } } } } }
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/UserAnswer" } } } } }
  /api/v1/users.info:
    get:
      parameters: [ { name: userId, in: query, schema: { type: string } }, { name: username, in: query, schema: { type: string } } ]
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/UserAnswer" } } } } }
  /api/v1/users.update:
    post:
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [userId, data], properties: { userId: { type: string }, data: { type: object, properties: { name: { type: string } } } } } } } }
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/UserAnswer" } } } } }
  /api/v1/users.delete:
    post:
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [userId], properties: { userId: { type: string } } } } } }
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/Done" } } } } }
  /api/v1/channels.create:
    post:
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } } }
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/ChannelAnswer" } } } } }
  /api/v1/channels.info:
    get:
      parameters: [ { name: roomId, in: query, schema: { type: string } }, { name: roomName, in: query, schema: { type: string } } ]
      responses: { "200": { description: OK, content: { application/json: { schema: { $ref: "#/components/schemas/ChannelAnswer" } } } } }
  /api/v1/channels.list:
    get:
      parameters: [ { name: offset, in: query, schema: { type: integer } }, { name: count, in: query, schema: { type: integer } } ]
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema:
                type: object
                properties:
                  channels: { type: array, items: { $ref: "#/components/schemas/Channel" } }
                  count: { type: integer }
                  offset: { type: integer }
                  total: { type: integer }
                  success: { type: boolean }
"##;
    let (served, _dir) = serve_document(document, "rocket.yaml", "rocket").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method: &'static str, path: &str, body: Option<serde_json::Value>| {
        call_json(&served, ("x-auth-token", &key), method, path, body)
    };
    let ada = serde_json::json!({ "name": "Ada", "username": "ada" });
    let (_, made) = call("POST", "/api/v1/users.create", Some(ada)).await;
    let id = made["user"]["_id"]
        .as_str()
        .unwrap_or_else(|| panic!("{made}"));
    let by_id = format!("/api/v1/users.info?userId={id}");
    assert_eq!(call("GET", &by_id, None).await.1["user"]["username"], "ada");
    let renamed = serde_json::json!({ "userId": id, "data": { "name": "Ada Lovelace" } });
    let (status, _) = call("POST", "/api/v1/users.update", Some(renamed)).await;
    assert_eq!(status, 200);
    let (_, read) = call("GET", "/api/v1/users.info?username=ada", None).await;
    assert_eq!(read["user"]["name"], "Ada Lovelace", "{read}");
    let gone = serde_json::json!({ "userId": id });
    assert_eq!(
        call("POST", "/api/v1/users.delete", Some(gone)).await.0,
        200
    );
    assert_eq!(call("GET", &by_id, None).await.0, 404);

    for name in ["alpha", "beta", "gamma"] {
        let channel = serde_json::json!({ "name": name });
        assert_eq!(
            call("POST", "/api/v1/channels.create", Some(channel))
                .await
                .0,
            200
        );
    }
    let (_, beta) = call("GET", "/api/v1/channels.info?roomName=beta", None).await;
    let beta_id = beta["channel"]["_id"]
        .as_str()
        .unwrap_or_else(|| panic!("{beta}"));
    let (_, again) = call(
        "GET",
        &format!("/api/v1/channels.info?roomId={beta_id}"),
        None,
    )
    .await;
    assert_eq!(again["channel"]["name"], "beta");
    let (status, _) = call("GET", "/api/v1/channels.info?roomId=never-made", None).await;
    assert_eq!(status, 404);
    let (_, page) = call("GET", "/api/v1/channels.list?count=2&offset=2", None).await;
    assert_eq!(
        (&page["count"], &page["offset"], &page["total"]),
        (
            &serde_json::json!(1),
            &serde_json::json!(2),
            &serde_json::json!(3)
        ),
        "{page}"
    );
}

/// Zulip's `GET /messages?anchor=&num_before=&num_after=` (facts of its document): the
/// messages around an anchor, with the flags a client pages back by until `found_oldest`.
#[tokio::test]
async fn messages_around_an_anchor_are_answered_with_their_flags() {
    let document = format!(
        "{ZULIP_HEAD}{}",
        r##"
paths:
  /messages:
    post:
      operationId: send-message
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, required: [content], properties: { content: { type: string } } }
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { allOf: [ { $ref: "#/components/schemas/Success" } ], properties: { id: { type: integer } } } } }
    get:
      operationId: get-messages
      parameters:
        - { name: anchor, in: query, schema: { type: string } }
        - { name: num_before, in: query, required: true, schema: { type: integer, minimum: 0 } }
        - { name: num_after, in: query, required: true, schema: { type: integer, minimum: 0 } }
        - { name: include_anchor, in: query, schema: { type: boolean, default: true } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                allOf: [ { $ref: "#/components/schemas/Success" } ]
                properties:
                  anchor: { type: integer }
                  found_anchor: { type: boolean }
                  found_oldest: { type: boolean }
                  found_newest: { type: boolean }
                  messages: { type: array, items: { type: object, properties: { id: { type: integer }, content: { type: string } } } }
"##
    );
    let (served, _dir) = serve_document(&document, "zulip.yaml", "zulip").await;
    for n in 1..=6 {
        let form = format!("content=m{n}");
        assert_eq!(
            form_call(&served, "POST", "/messages", Some(&form)).await.0,
            200
        );
    }
    let window = |query: &'static str| {
        let served = &served;
        async move {
            let (status, page) =
                form_call(served, "GET", &format!("/messages?{query}"), None).await;
            assert_eq!(status, 200, "{page}");
            let ids: Vec<i64> = page["messages"]
                .as_array()
                .unwrap_or_else(|| panic!("{page}"))
                .iter()
                .map(|m| m["id"].as_i64().unwrap())
                .collect();
            let flag = |name: &str| page[name].as_bool().unwrap_or_else(|| panic!("{page}"));
            (
                ids,
                flag("found_oldest"),
                flag("found_newest"),
                flag("found_anchor"),
            )
        }
    };
    // The newest and the two before it; then, paging back, the two before the oldest seen.
    let newest = window("anchor=newest&num_before=2&num_after=0").await;
    assert_eq!(newest, (vec![4, 5, 6], false, true, true));
    let back = window("anchor=4&num_before=2&num_after=0&include_anchor=false").await;
    assert_eq!(back, (vec![2, 3], false, false, false));
    let oldest = window("anchor=2&num_before=2&num_after=0&include_anchor=false").await;
    assert_eq!(oldest, (vec![1], true, false, false));
    let around = window("anchor=3&num_before=1&num_after=1").await;
    assert_eq!(around, (vec![2, 3, 4], false, false, true));
}

/// Azure Communication Services' Chat (facts of its 2025-03-15 document): a thread's create
/// answers `{chatThread, invalidParticipants}`, the list read-only; the thread is the item,
/// named by its own word (`chatThread` of `/chat/threads`), so its id is answered; a message's
/// text sent as `content` is kept in the object the message answers there.
#[tokio::test]
async fn an_item_answered_beside_a_read_only_list_is_the_item() {
    let document = r##"
swagger: "2.0"
info: { title: chat, version: "1" }
securityDefinitions: { key: { type: apiKey, name: Authorization, in: header } }
security: [ { key: [] } ]
paths:
  /chat/threads:
    post:
      parameters: [ { in: body, name: body, required: true, schema: { type: object, required: [topic], properties: { topic: { type: string } } } } ]
      responses: { "201": { description: created, schema: { $ref: "#/definitions/CreateChatThreadResult" } } }
  /chat/threads/{chatThreadId}:
    get:
      parameters: [ { in: path, name: chatThreadId, required: true, type: string } ]
      responses: { "200": { description: ok, schema: { $ref: "#/definitions/ChatThreadProperties" } } }
  /chat/threads/{chatThreadId}/participants/:add:
    post:
      parameters:
        - { in: path, name: chatThreadId, required: true, type: string }
        - { in: body, name: body, required: true, schema: { type: object, required: [participants], properties: { participants: { type: array, items: { $ref: "#/definitions/ChatParticipant" } } } } }
      responses: { "201": { description: added, schema: { type: object, properties: { invalidParticipants: { type: array, readOnly: true, items: { type: object } } } } } }
  /chat/threads/{chatThreadId}/participants:
    get:
      parameters: [ { in: path, name: chatThreadId, required: true, type: string } ]
      responses: { "200": { description: ok, schema: { type: object, required: [value], properties: { value: { type: array, items: { $ref: "#/definitions/ChatParticipant" } } } } } }
  /chat/threads/{chatThreadId}/messages:
    post:
      parameters:
        - { in: path, name: chatThreadId, required: true, type: string }
        - { in: body, name: body, required: true, schema: { type: object, required: [content], properties: { content: { type: string } } } }
      responses: { "201": { description: sent, schema: { type: object, properties: { id: { type: string } } } } }
  /chat/threads/{chatThreadId}/messages/{chatMessageId}:
    get:
      parameters:
        - { in: path, name: chatThreadId, required: true, type: string }
        - { in: path, name: chatMessageId, required: true, type: string }
      responses: { "200": { description: ok, schema: { $ref: "#/definitions/ChatMessage" } } }
definitions:
  ChatParticipant:
    type: object
    properties: { displayName: { type: string }, communicationIdentifier: { type: object, properties: { rawId: { type: string } } } }
  ChatMessage:
    type: object
    required: [id]
    properties:
      id: { type: string }
      content: { type: object, properties: { message: { type: string }, topic: { type: string } } }
  ChatThreadProperties:
    type: object
    required: [id, topic]
    properties: { id: { type: string }, topic: { type: string } }
  CreateChatThreadResult:
    type: object
    properties:
      chatThread: { $ref: "#/definitions/ChatThreadProperties" }
      invalidParticipants: { type: array, readOnly: true, items: { type: object, properties: { code: { type: string } } } }
"##;
    let (served, _dir) = serve_document(document, "chat.yaml", "chat").await;
    let key = served.credential("api_key").unwrap().to_owned();
    let call = |method: &'static str, path: &str, body: Option<serde_json::Value>| {
        call_json(&served, ("authorization", &key), method, path, body)
    };
    let (status, made) = call(
        "POST",
        "/chat/threads",
        Some(serde_json::json!({ "topic": "Lunch" })),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["chatThread"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{made}"));
    let (status, read) = call("GET", &format!("/chat/threads/{id}"), None).await;
    assert_eq!((status, &read["topic"]), (200, &serde_json::json!("Lunch")));
    // A message's text, sent as `content`, is read back as `content.message`.
    let messages = format!("/chat/threads/{id}/messages");
    let (_, sent) = call(
        "POST",
        &messages,
        Some(serde_json::json!({ "content": "hello" })),
    )
    .await;
    let message = sent["id"].as_str().unwrap_or_else(|| panic!("{sent}"));
    let (_, read) = call("GET", &format!("{messages}/{message}"), None).await;
    assert_eq!(read["content"]["message"], "hello", "{read}");
    // A custom method that adds to a collection (`participants/:add`) adds each it is sent,
    // listed though a participant has no id of its own (the list is not paged here).
    let ann = serde_json::json!({ "displayName": "Ann", "communicationIdentifier": { "rawId": "8:acs:u1" } });
    let add = serde_json::json!({ "participants": [ann] });
    let participants = format!("/chat/threads/{id}/participants");
    let (status, _) = call("POST", &format!("{participants}/:add"), Some(add)).await;
    assert_eq!(status, 201);
    let (_, listed) = call("GET", &participants, None).await;
    assert_eq!(listed["value"], serde_json::json!([ann]), "{listed}");
}

/// A document that shows its answers only by example (ClickSend's: 203 of 205 answers have
/// an `examples` and no `schema`; every id a `number` path parameter), imported and served:
/// the answers are typed off the examples, so the store keeps what is created under the ids
/// its examples show (`data.list_id`, an integer), a contact made under a list answers that
/// list's id, and the list walks every page by `data.next_page_url` (shown only as `null` on
/// the lists' own example, a URL on another operation's).
#[tokio::test]
async fn an_api_shown_only_by_example_keeps_pages_and_answers_what_its_examples_show() {
    use serde_json::json;
    let answer = |example: serde_json::Value| {
        json!({ "description": "OK", "content": { "application/json": {
            "examples": { "response": { "value": example } } } } })
    };
    let list = json!({ "list_id": 428, "list_name": "List-a", "_contacts_count": 0 });
    let contact = json!({ "contact_id": 552786, "list_id": 428, "phone_number": "+16783270696",
        "first_name": "Ellen", "email": null });
    let page = |items: serde_json::Value, next: serde_json::Value| {
        json!({ "http_code": 200, "response_code": "SUCCESS", "data": {
            "current_page": 1, "data": items, "next_page_url": next, "per_page": 15,
            "total": 1 } })
    };
    let id = |name: &str| json!({ "name": name, "in": "path", "required": true, "schema": { "type": "number" } });
    let body = |props: serde_json::Value| {
        json!({ "content": { "application/json": { "schema": {
            "type": "object", "properties": props } } } })
    };
    let one = |item: &serde_json::Value| json!({ "http_code": 200, "data": item });
    let document = json!({
        "openapi": "3.0.0",
        "info": { "title": "Example-only", "version": "1" },
        "servers": [{ "url": "https://rest.example.com/v3" }],
        "security": [{ "basicAuth": [] }],
        "components": { "securitySchemes": { "basicAuth": { "type": "http", "scheme": "basic" } } },
        "paths": {
            "/lists": {
                "get": { "operationId": "Get all lists",
                    "responses": { "200": answer(page(json!([list]), json!(null))) } },
                "post": { "operationId": "Create a list",
                    "requestBody": body(json!({ "list_name": { "type": "string" } })),
                    "responses": { "200": answer(one(&list)) } }
            },
            "/lists/{list_id}": {
                "parameters": [id("list_id")],
                "get": { "operationId": "Get a list", "responses": { "200": answer(one(&list)) } },
                "put": { "operationId": "Update a list",
                    "requestBody": body(json!({ "list_name": { "type": "string" } })),
                    "responses": { "200": answer(one(&list)) } },
                "delete": { "operationId": "Delete a list",
                    "responses": { "200": answer(json!({ "http_code": 200, "data": [] })) } }
            },
            "/lists/{list_id}/contacts": {
                "parameters": [id("list_id")],
                "post": { "operationId": "Create a contact",
                    "requestBody": body(json!({ "phone_number": { "type": "string" },
                        "first_name": { "type": "string" } })),
                    "responses": { "200": answer(one(&contact)) } },
                "get": { "operationId": "Get all contacts in a list",
                    "responses": { "200": answer(page(json!([contact]), json!(null))) } }
            },
            "/lists/{list_id}/contacts/{contact_id}": {
                "parameters": [id("list_id"), id("contact_id")],
                "get": { "operationId": "Get a contact",
                    "responses": { "200": answer(one(&contact)) } }
            },
            "/numbers": {
                "get": { "operationId": "Get all numbers", "responses": { "200": answer(page(
                    json!([{ "dedicated_number": "+61411111111" }]),
                    json!("https://rest.example.com/v3/numbers?page=2"))) } }
            }
        }
    });
    let text = document.to_string();
    let imported = tidings_codegen::import::import_openapi(
        &text,
        &tidings_codegen::import::ImportOptions::new("example_only", "example_only.json"),
        None,
    )
    .unwrap();
    assert!(
        imported.yaml.contains("next_field: data.next_page_url"),
        "{}",
        imported.yaml
    );
    assert!(
        imported.report.inferred.iter().any(|f| f
            .pointer
            .starts_with("#/paths/~1lists/get/responses/200")
            && f.reason.contains("no schema")),
        "{:#?}",
        imported.report.inferred
    );
    let (served, _dir) = serve_document(&text, "example_only.json", "example_only").await;
    let auth = basic_auth(&served);
    let key = ("authorization", auth.as_str());

    let (status, made) = call_json(
        &served,
        key,
        "POST",
        "/lists",
        Some(json!({"list_name": "A"})),
    )
    .await;
    assert_eq!(status, 200, "{made}");
    let list_id = made["data"]["list_id"]
        .as_i64()
        .expect("an integer list_id");
    assert_eq!(made["data"]["list_name"], "A");
    let (status, got) = call_json(&served, key, "GET", &format!("/lists/{list_id}"), None).await;
    assert_eq!((status, &got["data"]), (200, &made["data"]));
    let (status, updated) = call_json(
        &served,
        key,
        "PUT",
        &format!("/lists/{list_id}"),
        Some(json!({"list_name": "B"})),
    )
    .await;
    assert_eq!(
        (status, &updated["data"]["list_name"]),
        (200, &json!("B")),
        "{updated}"
    );

    // A contact made under the list answers the list's id, and is found by its own.
    let (status, contact) = call_json(
        &served,
        key,
        "POST",
        &format!("/lists/{list_id}/contacts"),
        Some(json!({"phone_number": "+61411111111", "first_name": "Ellen"})),
    )
    .await;
    assert_eq!(status, 200, "{contact}");
    assert_eq!(contact["data"]["list_id"], list_id, "{contact}");
    let contact_id = contact["data"]["contact_id"].as_i64().unwrap();
    let (status, got) = call_json(
        &served,
        key,
        "GET",
        &format!("/lists/{list_id}/contacts/{contact_id}"),
        None,
    )
    .await;
    assert_eq!(
        (status, &got["data"]["phone_number"]),
        (200, &json!("+61411111111"))
    );

    // Every page, by the next page's URL.
    for n in 0..30 {
        let (status, _) = call_json(
            &served,
            key,
            "POST",
            "/lists",
            Some(json!({"list_name": format!("L{n}")})),
        )
        .await;
        assert_eq!(status, 200);
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut next = Some(format!("{}/lists", served.base_url()));
    let mut pages = 0;
    while let Some(url) = next.take() {
        pages += 1;
        assert!(pages < 10, "the pages never end");
        let path = url.strip_prefix(served.base_url()).unwrap().to_owned();
        let (status, page) = call_json(&served, key, "GET", &path, None).await;
        assert_eq!(status, 200, "{page}");
        for item in page["data"]["data"].as_array().unwrap() {
            assert!(seen.insert(item["list_id"].as_i64().unwrap()), "{item}");
        }
        next = page["data"]["next_page_url"].as_str().map(str::to_owned);
    }
    assert_eq!(seen.len(), 31);
    assert!(pages > 1);

    let (status, _) = call_json(&served, key, "DELETE", &format!("/lists/{list_id}"), None).await;
    assert_eq!(status, 200);
    let (status, _) = call_json(&served, key, "GET", &format!("/lists/{list_id}"), None).await;
    assert_eq!(status, 404);
}

/// An API at the root of its base URL (Vonage's Voice: `POST /` makes a call, `GET /{uuid}`
/// reads it, `PUT /{uuid}` modifies it, at `https://api.nexmo.com/v1/calls`): the create
/// answers the call's own `uuid` (not its `conversation_uuid`), the list's items carry it, a
/// `PUT` of a call never made is the documented 404, and the call's `to`, sent as a list of
/// one endpoint where the answer has one, is that endpoint.
#[tokio::test]
async fn an_api_at_the_root_of_its_base_url_answers_its_items_ids() {
    use serde_json::json;
    let endpoint = json!({ "type": "object", "properties": {
        "type": { "type": "string", "example": "phone" }, "number": { "type": "string" } } });
    let call = json!({ "type": "object", "properties": {
        "uuid": { "type": "string", "format": "uuid" },
        "conversation_uuid": { "type": "string" },
        "to": endpoint, "from": endpoint } });
    let json_answer = |schema: &serde_json::Value| json!({ "description": "OK", "content": { "application/json": { "schema": schema } } });
    let document = json!({
        "openapi": "3.0.0",
        "info": { "title": "Calls", "version": "1" },
        "servers": [{ "url": "https://api.example.com/v1/calls" }],
        "security": [{ "bearerAuth": [] }],
        "components": { "securitySchemes": { "bearerAuth": { "type": "http", "scheme": "bearer" } } },
        "paths": {
            "/": {
                "post": { "operationId": "createCall",
                    "requestBody": { "content": { "application/json": { "schema": {
                        "type": "object", "required": ["to", "from"], "properties": {
                            "to": { "type": "array", "items": endpoint }, "from": endpoint } } } } },
                    "responses": { "201": json_answer(&json!({ "type": "object", "properties": {
                        "uuid": { "type": "string", "format": "uuid" },
                        "conversation_uuid": { "type": "string" } } })) } },
                "get": { "operationId": "getCalls",
                    "parameters": [
                        { "name": "page_size", "in": "query", "schema": { "type": "integer", "maximum": 100 } },
                        { "name": "record_index", "in": "query", "schema": { "type": "integer" } }],
                    "responses": { "200": json_answer(&json!({ "type": "object", "properties": {
                        "count": { "type": "integer" },
                        "_embedded": { "type": "object", "properties": {
                            "calls": { "type": "array", "items": call } } } } })) } }
            },
            "/{uuid}": {
                "parameters": [{ "name": "uuid", "in": "path", "required": true,
                    "schema": { "type": "string", "format": "uuid" } }],
                "get": { "operationId": "getCall", "responses": { "200": json_answer(&call) } },
                "put": { "operationId": "updateCall",
                    "requestBody": { "content": { "application/json": { "schema": {
                        "type": "object", "properties": { "action": { "type": "string" } } } } } },
                    "responses": { "204": { "description": "done" },
                        "404": { "description": "no such call" } } }
            }
        }
    });
    let (served, _dir) = serve_document(&document.to_string(), "calls.json", "calls").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let to = json!([{ "type": "phone", "number": "14155550100" }]);
    let from = json!({ "type": "phone", "number": "14155550101" });
    let (status, made) = call_json(
        &served,
        key,
        "POST",
        "/",
        Some(json!({ "to": to, "from": from })),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let uuid = made["uuid"].as_str().expect("the call's uuid").to_owned();
    let (status, got) = call_json(&served, key, "GET", &format!("/{uuid}"), None).await;
    assert_eq!(status, 200, "{got}");
    assert_eq!(got["uuid"], uuid.as_str());
    assert_eq!(got["to"], to[0], "{got}");
    let (status, listed) = call_json(&served, key, "GET", "/?page_size=10", None).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(
        listed["_embedded"]["calls"][0]["uuid"],
        uuid.as_str(),
        "{listed}"
    );
    let (status, _) = call_json(
        &served,
        key,
        "PUT",
        &format!("/{uuid}"),
        Some(json!({"action": "hangup"})),
    )
    .await;
    assert_eq!(status, 204);
    let never = "63f61863-4a51-4f6b-86e1-46edebcf9356";
    let (status, body) = call_json(
        &served,
        key,
        "PUT",
        &format!("/{never}"),
        Some(json!({"action": "hangup"})),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    let (status, _) = call_json(&served, key, "GET", &format!("/{never}"), None).await;
    assert_eq!(status, 404);
}

/// ClickSend's own document (an excerpt, imported unedited, `imported/clicksend_imported.yaml`),
/// whose answers are given by example only, served with `--spec` and called by its generated
/// client: contact lists and the contacts in one live through create, get, list (every page,
/// by `data.next_page_url`), update and delete, under the integer ids the examples show.
#[tokio::test]
async fn clicksend_lists_and_contacts_live_through_create_get_list_update_delete() {
    use tidings_providers::clicksend_imported::*;
    let served = serve("imported/clicksend_imported.yaml").await;
    let client = ClicksendImportedClient::builder()
        .base_url(served.base_url())
        .credential(
            "basic_username",
            served.credential("basic_username").unwrap(),
        )
        .credential(
            "basic_password",
            served.credential("basic_password").unwrap(),
        )
        .retry(RetryPolicy::none())
        .build()
        .unwrap();

    let mut ids = Vec::new();
    for n in 0..23 {
        let made = client
            .create_a_new_contact_list(&CreateANewContactListRequest::new(format!("List {n}")))
            .await
            .unwrap();
        let data = made.data.expect("the list made");
        assert_eq!(
            data.list_name.as_deref(),
            Some(format!("List {n}").as_str())
        );
        ids.push(data.list_id.expect("an integer list_id"));
    }
    let first = ids[0];
    let got = client.get_a_specific_contact_list(&first).await.unwrap();
    assert_eq!(got.data.and_then(|d| d.list_id), Some(ids[0]));

    // Every page: the stream follows `data.next_page_url` to the last page.
    let listed: Vec<i64> = client
        .get_all_contact_lists_stream()
        .map(|item| item.unwrap().list_id.unwrap())
        .collect()
        .await;
    assert_eq!(listed, ids);

    let updated = client
        .update_a_specific_contact_list(
            &first,
            &UpdateASpecificContactListRequest::default().list_name("Renamed"),
        )
        .await
        .unwrap();
    assert_eq!(
        updated.data.and_then(|d| d.list_name).as_deref(),
        Some("Renamed")
    );

    // A contact made in the list answers the list's id and is listed under it.
    let contact = client
        .create_a_new_contact(
            &first,
            &CreateANewContactRequest::new("+61411111111").first_name("Ellen"),
        )
        .await
        .unwrap()
        .data
        .expect("the contact made");
    assert_eq!(contact.list_id, Some(ids[0]));
    let contact_id = contact.contact_id.expect("an integer contact_id");
    let in_list: Vec<_> = client
        .get_all_contacts_in_a_list_stream(&first)
        .collect()
        .await;
    assert_eq!(in_list.len(), 1);
    let got = client
        .get_a_specific_contact(&first, &contact_id)
        .await
        .unwrap();
    assert_eq!(
        got.data.and_then(|d| d.first_name).as_deref(),
        Some("Ellen")
    );
    client
        .delete_a_specific_contact(&first, &contact_id)
        .await
        .unwrap();
    let gone = client
        .get_a_specific_contact(&first, &contact_id)
        .await
        .unwrap_err();
    assert_eq!(gone.status(), Some(404), "{gone}");

    client.delete_a_specific_contact_list(&first).await.unwrap();
    let gone = client
        .get_a_specific_contact_list(&first)
        .await
        .unwrap_err();
    assert_eq!(gone.status(), Some(404), "{gone}");
}

/// A settings object written by `POST` (Twilio's `POST /v1/Configuration`, answering what its
/// `GET` answers) is one object the store keeps: read back as written, each write merged in.
/// It was an action, answered and forgotten (the next `GET` answered `{}`).
#[tokio::test]
async fn a_settings_object_written_by_post_is_kept_and_read_back() {
    use serde_json::json;
    let settings = json!({ "type": "object", "properties": {
        "default_closed_timer": { "type": "string" },
        "default_chat_service_sid": { "type": "string" } } });
    let answer = json!({ "description": "OK", "content": { "application/json": {
        "schema": { "$ref": "#/components/schemas/Configuration" } } } });
    let document = json!({
        "openapi": "3.0.0",
        "info": { "title": "Settings", "version": "1" },
        "servers": [{ "url": "https://conversations.example.com" }],
        "security": [{ "bearerAuth": [] }],
        "components": {
            "securitySchemes": { "bearerAuth": { "type": "http", "scheme": "bearer" } },
            "schemas": { "Configuration": settings }
        },
        "paths": { "/v1/Configuration": {
            "get": { "operationId": "FetchConfiguration", "responses": { "200": answer } },
            "post": { "operationId": "UpdateConfiguration",
                "requestBody": { "content": { "application/json": { "schema": settings } } },
                "responses": { "200": answer } }
        } }
    });
    let (served, _dir) = serve_document(&document.to_string(), "settings.json", "settings").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let (status, written) = call_json(
        &served,
        key,
        "POST",
        "/v1/Configuration",
        Some(json!({"default_closed_timer": "PT10M"})),
    )
    .await;
    assert_eq!(
        (status, &written["default_closed_timer"]),
        (200, &json!("PT10M"))
    );
    let (status, _) = call_json(
        &served,
        key,
        "POST",
        "/v1/Configuration",
        Some(json!({"default_chat_service_sid": "IS0123"})),
    )
    .await;
    assert_eq!(status, 200);
    let (status, read) = call_json(&served, key, "GET", "/v1/Configuration", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        read,
        json!({"default_closed_timer": "PT10M", "default_chat_service_sid": "IS0123"})
    );
}

/// A yes-or-no in a form body or a query, sent as `yes` or `no` (Mailgun's own clients send
/// `upsert=yes` and `subscribed=yes` to add a list member, and `active=yes`): read as the
/// boolean it is, in any case, where only `true` and `false` were (every such add was a 400).
#[tokio::test]
async fn a_yes_or_no_sent_as_yes_or_no_is_a_boolean() {
    use serde_json::json;
    let member = json!({ "type": "object", "properties": {
        "address": { "type": "string" }, "subscribed": { "type": "boolean" } } });
    let document = json!({
        "openapi": "3.0.0",
        "info": { "title": "Members", "version": "1" },
        "servers": [{ "url": "https://api.example.com" }],
        "security": [{ "bearerAuth": [] }],
        "components": { "securitySchemes": { "bearerAuth": { "type": "http", "scheme": "bearer" } } },
        "paths": { "/members": {
            "post": { "operationId": "addMember",
                "parameters": [{ "name": "notify", "in": "query", "schema": { "type": "boolean" } }],
                "requestBody": { "content": { "application/x-www-form-urlencoded": {
                    "schema": member } } },
                "responses": { "200": { "description": "OK", "content": {
                    "application/json": { "schema": member } } } } }
        } }
    });
    let (served, _dir) = serve_document(&document.to_string(), "members.json", "members").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let add = |subscribed: &'static str, notify: &'static str| {
        let fields = [("address", "a@example.com"), ("subscribed", subscribed)];
        let (served, bearer) = (&served, bearer.clone());
        let path = format!("/members?notify={notify}");
        async move { post_form(served, &bearer, &path, &fields).await }
    };
    let (status, body) = add("yes", "YES").await;
    assert_eq!((status, &body["subscribed"]), (200, &json!(true)), "{body}");
    let (status, body) = add("No", "no").await;
    assert_eq!(
        (status, &body["subscribed"]),
        (200, &json!(false)),
        "{body}"
    );
    let (status, body) = add("maybe", "true").await;
    assert!((400..500).contains(&status), "{status} {body}");
    let (status, body) = add("true", "maybe").await;
    assert!((400..500).contains(&status), "{status} {body}");
}

/// A create that names an item the store holds is the documented conflict, unless its body
/// asks to update it (Mailgun's list member added again with `upsert=yes`, "update member if
/// present"): then the member is updated, not refused.
#[tokio::test]
async fn a_create_with_upsert_updates_the_item_it_names() {
    use serde_json::json;
    let member = json!({ "type": "object", "properties": {
        "address": { "type": "string" }, "name": { "type": "string" } } });
    let document = json!({
        "openapi": "3.0.0",
        "info": { "title": "Lists", "version": "1" },
        "servers": [{ "url": "https://api.example.com" }],
        "security": [{ "bearerAuth": [] }],
        "components": { "securitySchemes": { "bearerAuth": { "type": "http", "scheme": "bearer" } } },
        "paths": {
            "/lists/{list}/members": {
                "parameters": [{ "name": "list", "in": "path", "required": true,
                    "schema": { "type": "string" } }],
                "post": { "operationId": "addMember",
                    "requestBody": { "content": { "application/x-www-form-urlencoded": {
                        "schema": { "type": "object", "required": ["address"], "properties": {
                            "address": { "type": "string" }, "name": { "type": "string" },
                            "upsert": { "type": "boolean" } } } } } },
                    "responses": {
                        "200": { "description": "OK", "content": {
                            "application/json": { "schema": { "type": "object", "properties": {
                                "member": member } } } } },
                        "400": { "description": "duplicate" } } }
            },
            "/lists/{list}/members/{address}": {
                "parameters": [
                    { "name": "list", "in": "path", "required": true, "schema": { "type": "string" } },
                    { "name": "address", "in": "path", "required": true, "schema": { "type": "string" } }],
                "get": { "operationId": "getMember", "responses": { "200": { "description": "OK",
                    "content": { "application/json": { "schema": { "type": "object",
                        "properties": { "member": member } } } } } } }
            }
        }
    });
    let (served, _dir) = serve_document(&document.to_string(), "lists.json", "lists").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let add = |fields: Vec<(&'static str, &'static str)>| {
        let (served, bearer) = (&served, bearer.clone());
        async move {
            post_form(served, &bearer, "/lists/devs/members", &fields)
                .await
                .0
        }
    };
    assert_eq!(
        add(vec![("address", "alice@example.com"), ("name", "Alice")]).await,
        200
    );
    let again = add(vec![("address", "alice@example.com"), ("name", "Alice 2")]).await;
    assert!((400..500).contains(&again), "{again}");
    let upserted = add(vec![
        ("address", "alice@example.com"),
        ("name", "Alice 3"),
        ("upsert", "yes"),
    ])
    .await;
    assert_eq!(upserted, 200);
    let key = ("authorization", bearer.as_str());
    let (status, got) = call_json(
        &served,
        key,
        "GET",
        "/lists/devs/members/alice@example.com",
        None,
    )
    .await;
    assert_eq!(
        (status, &got["member"]["name"]),
        (200, &json!("Alice 3")),
        "{got}"
    );
}

/// A `datetime` travels in its field's wire form (Twilio's RFC 2822 `date_created`, SendGrid's
/// Unix `timestamp`): the sandbox's table dropped it, so a time it made up was RFC 3339, which
/// such a client cannot decode (the whole answer failed), and a request sending the form its
/// spec declares was refused. The service's own times are made on create in that form, a
/// request's times are checked and kept in it, and another form is refused naming it.
#[tokio::test]
async fn a_time_keeps_its_wire_form_in_requests_answers_and_made_up_stamps() {
    let (_dir, served) = served_named(
        "clock",
        "types:\n  Alarm:\n    fields:\n      sid: { type: string, read_only: true }\n      \
         name: { type: string }\n      \
         ring_at: { type: datetime, format: unix }\n      \
         sent_ms: { type: datetime, format: unix_ms }\n      \
         date_created: { type: datetime, format: rfc2822 }\n      \
         date_updated: { type: datetime, format: rfc2822 }\n\
         operations:\n  create_alarm:\n    method: POST\n    path: /alarms\n    \
         body: Alarm\n    response: Alarm\n  \
         get_alarm:\n    method: GET\n    path: /alarms/{sid}\n    \
         path_params: { sid: { type: string } }\n    response: Alarm\n",
    )
    .await;
    let post = |body| open_call(&served, "POST", "/alarms", Some(body));
    let (status, made) = post(serde_json::json!({"name": "wake", "ring_at": 1_282_161_700})).await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(made["ring_at"], 1_282_161_700, "kept as sent: {made}");
    for stamp in ["date_created", "date_updated"] {
        let text = made[stamp].as_str().unwrap_or_default();
        assert!(
            tidings_runtime::dates::rfc2822_to_rfc3339(text).is_some(),
            "`{stamp}` made up in RFC 2822: {made}"
        );
    }
    let sid = made["sid"].as_str().unwrap();
    let (_, read) = open_call(&served, "GET", &format!("/alarms/{sid}"), None).await;
    assert_eq!(
        (&read["ring_at"], &read["date_created"]),
        (&made["ring_at"], &made["date_created"])
    );

    // Another form than the declared one is refused, naming the one declared.
    let (status, refused) = post(serde_json::json!({"ring_at": "2010-08-18T20:01:40Z"})).await;
    assert_eq!(status, 422, "{refused}");
    let said = refused.to_string();
    assert!(
        said.contains("ring_at") && said.contains("seconds since the Unix epoch"),
        "{refused}"
    );
    let (status, refused) = post(serde_json::json!({"date_created": 1_282_161_700})).await;
    assert_eq!(status, 422, "{refused}");
    assert!(refused.to_string().contains("RFC 2822"), "{refused}");
    let (status, kept) = post(serde_json::json!({"sent_ms": 1_282_161_700_123_i64})).await;
    assert_eq!(
        (status, &kept["sent_ms"]),
        (200, &1_282_161_700_123_i64.into()),
        "{kept}"
    );
    served.shutdown().await;
}

/// Mailgun documents its sends and template updates as `multipart/form-data`, and its own
/// samples send URL-encoded forms (and Twilio's form API takes multipart from some clients):
/// each was a 415. A form operation takes a form in either encoding; anything else is still a
/// 415 that names both.
#[tokio::test]
async fn a_form_operation_takes_either_form_encoding() {
    let (_dir, served) = served_named(
        "post",
        "types:\n  Note:\n    fields:\n      id: { type: string, read_only: true }\n      \
         text: { type: string, required: true }\n      pinned: { type: boolean }\n\
         operations:\n  create_note:\n    method: POST\n    path: /notes\n    \
         body: Note\n    body_encoding: multipart\n    response: Note\n  \
         create_memo:\n    method: POST\n    path: /memos\n    \
         body: Note\n    body_encoding: form\n    response: Note\n",
    )
    .await;
    let http = tidings_runtime::reqwest::Client::new();
    let base = served.base_url().to_owned();
    for path in ["/notes", "/memos"] {
        let url = format!("{base}{path}");
        let encoded = http
            .post(&url)
            .form(&[("text", "hello"), ("pinned", "true")])
            .send()
            .await
            .unwrap();
        assert_eq!(encoded.status(), 200, "URL-encoded to {path}");
        let made: serde_json::Value = encoded.json().await.unwrap();
        assert_eq!(
            (&made["text"], &made["pinned"]),
            (&"hello".into(), &true.into())
        );
        let parts = "--b1\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nparts\r\n\
                     --b1\r\nContent-Disposition: form-data; name=\"pinned\"\r\n\r\nfalse\r\n\
                     --b1--\r\n";
        let multipart = http
            .post(&url)
            .header("content-type", "multipart/form-data; boundary=b1")
            .body(parts)
            .send()
            .await
            .unwrap();
        assert_eq!(multipart.status(), 200, "multipart to {path}");
        let made: serde_json::Value = multipart.json().await.unwrap();
        assert_eq!(made["text"], "parts");
        let json = http
            .post(&url)
            .json(&serde_json::json!({"text": "json"}))
            .send()
            .await
            .unwrap();
        assert_eq!(json.status(), 415, "JSON to {path}");
        let said = json.text().await.unwrap();
        assert!(
            said.contains("x-www-form-urlencoded") && said.contains("multipart/form-data"),
            "{said}"
        );
    }
    served.shutdown().await;
}

/// Twilio's whole 2010 API: accounts are created there (`POST /Accounts.json`, subaccounts),
/// and every message lives under one. A message under the account the client signs in as is
/// made (that account is the caller's own, never created through the API); under an account
/// never made, 404; under a subaccount made, kept there.
#[tokio::test]
async fn twilio_s_messages_live_under_the_caller_s_account_or_one_it_made() {
    use base64::Engine as _;
    let (served, _dir) = serve_imported("twilio_api_v2010.json", "twilio").await;
    let own = served.credential("account_sid").unwrap().to_owned();
    let pair = format!("{own}:{}", served.credential("auth_token").unwrap());
    let auth = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(pair)
    );
    let message = [
        ("To", "+15558675310"),
        ("From", "+15017122661"),
        ("Body", "hi"),
    ];
    let messages = |account: &str| format!("/2010-04-01/Accounts/{account}/Messages.json");
    let (status, made) = post_form(&served, &auth, &messages(&own), &message).await;
    assert_eq!(status, 201, "{made}");
    let stranger = format!("AC{}", "0".repeat(32));
    let (status, refused) = post_form(&served, &auth, &messages(&stranger), &message).await;
    assert_eq!(status, 404, "{refused}");
    let (status, sub) = post_form(
        &served,
        &auth,
        "/2010-04-01/Accounts.json",
        &[("FriendlyName", "sub")],
    )
    .await;
    assert_eq!(status, 201, "{sub}");
    let sub = sub["sid"].as_str().unwrap_or_default().to_owned();
    let (status, made) = post_form(&served, &auth, &messages(&sub), &message).await;
    assert_eq!(status, 201, "{made}");
    served.shutdown().await;
}

/// BulkSMS (APIs-guru `openapi-directory`, `APIs/bulksms.com/1.0.0/openapi.yaml` at
/// `98cd072b`, reduced to facts): a send posts a list of entries and answers "the messages
/// that were created". The answer was made up from the body, so its ids were of no message
/// (the read of each was a 404) and its `to` was `"to"`; the messages are answered as kept.
/// A webhook's `id` is a `number` (example `234`): made as text it was answered `0.0`, and no
/// path named the webhook; it is a whole number now.
#[tokio::test]
async fn bulksms_sends_answer_the_messages_kept_and_webhooks_have_whole_number_ids() {
    let document = r##"
swagger: "2.0"
info: { title: BulkSMS, version: "1.0.0" }
basePath: /v1
securityDefinitions: { basicAuth: { type: basic } }
security: [ { basicAuth: [] } ]
definitions:
  SubmissionEntry:
    type: object
    required: [to, body]
    properties:
      to: { type: array, items: { type: object, properties: { address: { type: string } } } }
      body: { type: string, example: "Hi there!" }
  Message:
    type: object
    properties:
      id: { type: string }
      to: { type: string }
      body: { type: string }
      type: { type: string, enum: [SENT, RECEIVED] }
  Webhook:
    type: object
    properties:
      id: { type: number, example: 234 }
      name: { type: string, example: My MT Webhook }
      url: { type: string, example: "https://www.example.com" }
  WebhookEntry:
    type: object
    required: [name, url]
    properties:
      name: { type: string }
      url: { type: string }
paths:
  /messages:
    post:
      operationId: sendMessages
      consumes: [application/json]
      produces: [application/json]
      parameters:
        - { in: body, name: body, required: true, schema: { type: array, items: { $ref: "#/definitions/SubmissionEntry" } } }
      responses:
        "201": { description: created, schema: { type: array, items: { $ref: "#/definitions/Message" } } }
  /messages/{id}:
    get:
      operationId: getMessage
      produces: [application/json]
      parameters: [ { in: path, name: id, required: true, type: string } ]
      responses:
        "200": { description: ok, schema: { $ref: "#/definitions/Message" } }
        "404": { description: not found }
  /webhooks:
    post:
      operationId: createWebhook
      consumes: [application/json]
      produces: [application/json]
      parameters: [ { in: body, name: body, required: true, schema: { $ref: "#/definitions/WebhookEntry" } } ]
      responses:
        "200": { description: ok, schema: { $ref: "#/definitions/Webhook" } }
    get:
      operationId: listWebhooks
      produces: [application/json]
      responses:
        "200": { description: ok, schema: { type: array, items: { $ref: "#/definitions/Webhook" } } }
  /webhooks/{id}:
    parameters: [ { in: path, name: id, required: true, type: string } ]
    get:
      operationId: getWebhook
      produces: [application/json]
      responses:
        "200": { description: ok, schema: { $ref: "#/definitions/Webhook" } }
        "404": { description: not found }
    post:
      operationId: updateWebhook
      consumes: [application/json]
      produces: [application/json]
      parameters: [ { in: body, name: body, required: true, schema: { $ref: "#/definitions/WebhookEntry" } } ]
      responses:
        "200": { description: ok, schema: { $ref: "#/definitions/Webhook" } }
        "404": { description: not found }
"##;
    let (served, _dir) = serve_document(document, "bulksms.yaml", "bulksms").await;
    let auth = basic_auth(&served);
    let key = ("authorization", auth.as_str());
    let send = serde_json::json!([
        {"to": [{"address": "+27001234567"}], "body": "Hello World!"},
        {"to": [{"address": "+27002345678"}], "body": "Hello Universe!"},
    ]);
    let (status, sent) = call_json(&served, key, "POST", "/v1/messages", Some(send)).await;
    assert_eq!(status, 201, "{sent}");
    let sent = sent.as_array().cloned().unwrap_or_default();
    assert_eq!(sent.len(), 2);
    for (message, to) in sent.iter().zip(["+27001234567", "+27002345678"]) {
        assert_eq!(message["to"], to, "the recipient sent: {message}");
        let id = message["id"].as_str().unwrap_or_default();
        let (status, read) =
            call_json(&served, key, "GET", &format!("/v1/messages/{id}"), None).await;
        assert_eq!(status, 200, "the id answered names the message: {read}");
        assert_eq!(read["body"], message["body"]);
    }

    let hook = |name: &str| serde_json::json!({"name": name, "url": "https://example.com/h"});
    let mut ids = Vec::new();
    for name in ["one", "two"] {
        let (status, made) =
            call_json(&served, key, "POST", "/v1/webhooks", Some(hook(name))).await;
        assert_eq!(status, 200, "{made}");
        let id = made["id"]
            .as_i64()
            .unwrap_or_else(|| panic!("a whole number: {made}"));
        ids.push(id);
    }
    assert_ne!(ids[0], ids[1]);
    let second = format!("/v1/webhooks/{}", ids[1]);
    let (status, renamed) = call_json(&served, key, "POST", &second, Some(hook("renamed"))).await;
    assert_eq!(
        (status, &renamed["name"]),
        (200, &"renamed".into()),
        "{renamed}"
    );
    let (_, listed) = call_json(&served, key, "GET", "/v1/webhooks", None).await;
    let names: Vec<&str> = listed
        .as_array()
        .map(|l| l.iter().filter_map(|w| w["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["one", "renamed"], "updated in place: {listed}");
    served.shutdown().await;
}

/// Mailtrap (`mailtrap/mailtrap-openapi`, `specs/email-sending.openapi.yml` at `f96b352e`,
/// reduced to facts): a domain's company info is read by `GET`, written by `POST` and `PATCH`,
/// all three answering one shared response, which the import names once per operation. The
/// path was taken for an action (the answers' type names differ), and nothing was kept: each
/// call answered `{}`. Answers of one shape are one answer: the settings are kept.
#[tokio::test]
async fn settings_whose_writes_answer_the_same_shape_under_other_names_are_kept() {
    let document = r##"
openapi: 3.1.0
info: { title: Mailtrap, version: "1" }
security: [ { BearerAuth: [] } ]
components:
  securitySchemes: { BearerAuth: { type: http, scheme: bearer } }
  schemas:
    Domain: { type: object, properties: { id: { type: integer }, domain_name: { type: string } } }
    CompanyInfo:
      type: object
      properties:
        name: { type: string }
        city: { type: string }
        zip_code: { type: string }
  responses:
    CompanyInfoResponse:
      description: ok
      content:
        application/json:
          schema: { type: object, properties: { data: { $ref: "#/components/schemas/CompanyInfo" } } }
  requestBodies:
    CompanyInfoBody:
      content:
        application/json:
          schema: { type: object, properties: { company_info: { $ref: "#/components/schemas/CompanyInfo" } } }
paths:
  /api/domains:
    post:
      operationId: createDomain
      requestBody: { content: { application/json: { schema: { type: object, properties: { domain: { $ref: "#/components/schemas/Domain" } } } } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Domain" } } } } }
  /api/domains/{domain_id}:
    parameters: [ { name: domain_id, in: path, required: true, schema: { type: integer } } ]
    get:
      operationId: getDomain
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Domain" } } } } }
  /api/domains/{domain_id}/company_info:
    parameters: [ { name: domain_id, in: path, required: true, schema: { type: integer } } ]
    get:
      operationId: getDomainCompanyInfo
      responses: { "200": { $ref: "#/components/responses/CompanyInfoResponse" } }
    post:
      operationId: createDomainCompanyInfo
      requestBody: { $ref: "#/components/requestBodies/CompanyInfoBody" }
      responses: { "200": { $ref: "#/components/responses/CompanyInfoResponse" } }
    patch:
      operationId: updateDomainCompanyInfo
      requestBody: { $ref: "#/components/requestBodies/CompanyInfoBody" }
      responses: { "200": { $ref: "#/components/responses/CompanyInfoResponse" } }
"##;
    let (served, _dir) = serve_document(document, "mailtrap.yaml", "mailtrap").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    let domain = serde_json::json!({"domain": {"domain_name": "example.com"}});
    let (_, domain) = call_json(&served, key, "POST", "/api/domains", Some(domain)).await;
    let info = format!("/api/domains/{}/company_info", domain["id"]);
    let written = serde_json::json!({"company_info": {"name": "Mailtrap", "city": "San Francisco", "zip_code": "94105"}});
    let (status, answered) = call_json(&served, key, "POST", &info, Some(written)).await;
    assert_eq!(status, 200, "{answered}");
    let (_, read) = call_json(&served, key, "GET", &info, None).await;
    assert_eq!(read["data"]["name"], "Mailtrap", "kept: {read}");
    let change = serde_json::json!({"company_info": {"city": "New York"}});
    let (_, changed) = call_json(&served, key, "PATCH", &info, Some(change)).await;
    assert_eq!(
        (&changed["data"]["city"], &changed["data"]["name"]),
        (&"New York".into(), &"Mailtrap".into()),
        "merged: {changed}"
    );
    let (_, read) = call_json(&served, key, "GET", &info, None).await;
    assert_eq!(read["data"]["city"], "New York", "{read}");
    served.shutdown().await;
}

/// What the service sets on a new item is what its create's body cannot send: Vonage's call
/// answers `status` and `direction` (enums no request carries), Mailtrap's template its `uuid`
/// (what a send names it by), Twilio's conversation its `account_sid` (a pattern of the
/// service's own). None was marked read-only, so the new item answered none of them. A field
/// the body can send and left out stays out; text with nothing to make it from stays out.
#[tokio::test]
async fn a_new_item_gets_what_its_create_cannot_send() {
    let (_dir, served) = served_named(
        "calls",
        "types:\n  CallStatus:\n    values: [started, ringing, completed]\n  \
         Direction:\n    values: [outbound, inbound]\n  \
         NewCall:\n    fields:\n      to: { type: string, required: true }\n      \
         direction: { type: Direction }\n  \
         Call:\n    fields:\n      id: { type: string, read_only: true }\n      \
         to: { type: string }\n      status: { type: CallStatus }\n      \
         direction: { type: Direction }\n      uuid: { type: string, format: uuid }\n      \
         account_sid: { type: string, pattern: \"^AC[0-9a-f]{32}$\" }\n      \
         note: { type: string }\n\
         operations:\n  create_call:\n    method: POST\n    path: /calls\n    \
         body: NewCall\n    response: Call\n  \
         get_call:\n    method: GET\n    path: /calls/{id}\n    \
         path_params: { id: { type: string } }\n    response: Call\n",
    )
    .await;
    let to = serde_json::json!({"to": "+15550100"});
    let (_, made) = open_call(&served, "POST", "/calls", Some(to)).await;
    assert_eq!(made["status"], "started", "an enum's first value: {made}");
    let uuid = made["uuid"].as_str().unwrap_or_default();
    assert!(uuid.len() == 36 && uuid.matches('-').count() == 4, "{made}");
    let account = made["account_sid"].as_str().unwrap_or_default();
    assert!(account.starts_with("AC") && account.len() == 34, "{made}");
    assert!(
        made.get("direction").is_none(),
        "sendable, left out: {made}"
    );
    assert!(
        made.get("note").is_none(),
        "nothing to make it from: {made}"
    );
    let id = made["id"].as_str().unwrap_or_default();
    let (_, read) = open_call(&served, "GET", &format!("/calls/{id}"), None).await;
    assert_eq!(
        (&read["uuid"], &read["status"]),
        (&made["uuid"], &made["status"]),
        "kept as made"
    );
    served.shutdown().await;
}

/// BulkSMS's `GET /profile` (read only, the account's own) answered another `id` and
/// `created` at each read, and each read used up an id. A path with no parameter that only
/// answers one object is the one object there: made up when first read, then read back the
/// same. A settings object (read and written) not written yet reads back the same too, and a
/// write merges into what was read.
#[tokio::test]
async fn an_object_read_before_it_is_written_reads_back_the_same() {
    let (_dir, served) = served_named(
        "acct",
        "types:\n  Profile:\n    fields:\n      id: { type: string, required: true }\n      \
         created: { type: datetime, required: true }\n      credits: { type: number, required: true }\n  \
         Settings:\n    fields:\n      id: { type: string, required: true }\n      \
         color: { type: string }\n      size: { type: integer, required: true }\n  \
         SettingsChange:\n    fields:\n      color: { type: string }\n\
         operations:\n  get_profile:\n    method: GET\n    path: /profile\n    response: Profile\n  \
         get_settings:\n    method: GET\n    path: /settings\n    response: Settings\n  \
         update_settings:\n    method: PATCH\n    path: /settings\n    body: SettingsChange\n    \
         response: Settings\n",
    )
    .await;
    let at = &served;
    let get = |path: &'static str| async move { open_call(at, "GET", path, None).await.1 };
    let first = get("/profile").await;
    assert!(first["id"].is_string(), "{first}");
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(get("/profile").await, first, "read back the same");
    let settings = get("/settings").await;
    assert_eq!(get("/settings").await, settings);
    let blue = serde_json::json!({"color": "blue"});
    let (_, changed) = open_call(&served, "PATCH", "/settings", Some(blue)).await;
    assert_eq!(
        (&changed["color"], &changed["id"], &changed["size"]),
        (&"blue".into(), &settings["id"], &settings["size"]),
        "merged into what was read: {changed}"
    );
    served.shutdown().await;
}

/// Mailgun's send answers `{"id", "message"}`, both required, its example `"message":
/// "Queued. Thank you."`: the sandbox, making the text up, answered `"message": "message"` (its
/// own name). A text field with no example of its own takes the one its answer's example
/// shows; an id stays one of its own.
#[tokio::test]
async fn a_made_up_text_says_what_the_answer_s_example_shows() {
    let document = r##"
openapi: 3.0.1
info: { title: Mail, version: "1" }
security: [ { basicAuth: [] } ]
components:
  securitySchemes: { basicAuth: { type: http, scheme: basic } }
  schemas:
    SendMessageResponse:
      type: object
      required: [id, message]
      properties: { id: { type: string }, message: { type: string } }
paths:
  /v3/{domain_name}/messages:
    post:
      operationId: sendMessage
      parameters: [ { name: domain_name, in: path, required: true, schema: { type: string } } ]
      requestBody:
        content:
          multipart/form-data:
            schema: { type: object, required: [from, to], properties: { from: { type: string }, to: { type: string }, text: { type: string } } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: "#/components/schemas/SendMessageResponse" }
              examples: { sent: { value: { id: "<20111114174239.25659.5817@samples.mailgun.org>", message: Queued. Thank you. } } }
"##;
    let (served, _dir) = serve_document(document, "mail.yaml", "mail").await;
    let auth = basic_auth(&served);
    let fields = [
        ("from", "a@example.com"),
        ("to", "b@example.com"),
        ("text", "hi"),
    ];
    let (status, sent) = post_form(&served, &auth, "/v3/example.com/messages", &fields).await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(sent["message"], "Queued. Thank you.", "{sent}");
    let (_, again) = post_form(&served, &auth, "/v3/example.com/messages", &fields).await;
    assert_ne!(sent["id"], again["id"], "each send its own id");
    served.shutdown().await;
}

/// Mailtrap's suppressions (`specs/email-sending.openapi.yml` at `f96b352e`): a bare array,
/// `last_id` "returns records after this suppression, enabling cursor-based pagination". It
/// was ignored: every call answered every suppression, and a client walking by `last_id`
/// until an empty page never stopped.
#[tokio::test]
async fn a_list_walked_by_its_last_id_ends() {
    let document = r##"
openapi: 3.1.0
info: { title: Suppressions, version: "1" }
security: [ { BearerAuth: [] } ]
components:
  securitySchemes: { BearerAuth: { type: http, scheme: bearer } }
  schemas:
    Suppression: { type: object, properties: { id: { type: string, format: uuid }, email: { type: string } } }
paths:
  /api/suppressions:
    get:
      operationId: listSuppressions
      parameters: [ { name: last_id, in: query, schema: { type: string, format: uuid } } ]
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Suppression" } } } } } }
    post:
      operationId: createSuppression
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Suppression" } } } }
      responses: { "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Suppression" } } } } }
"##;
    let (served, _dir) = serve_document(document, "suppressions.yaml", "suppressions").await;
    let bearer = format!("Bearer {}", served.credential("api_key").unwrap());
    let key = ("authorization", bearer.as_str());
    for n in 0..3 {
        let one = serde_json::json!({"email": format!("u{n}@example.com")});
        let (status, _) = call_json(&served, key, "POST", "/api/suppressions", Some(one)).await;
        assert_eq!(status, 201);
    }
    let (_, all) = call_json(&served, key, "GET", "/api/suppressions", None).await;
    let ids: Vec<String> = all
        .as_array()
        .map(|l| {
            l.iter()
                .map(|s| s["id"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(ids.len(), 3, "{all}");
    let after = format!("/api/suppressions?last_id={}", ids[0]);
    let (_, rest) = call_json(&served, key, "GET", &after, None).await;
    assert_eq!(rest.as_array().map(Vec::len), Some(2), "{rest}");
    let after = format!("/api/suppressions?last_id={}", ids[2]);
    let (_, none) = call_json(&served, key, "GET", &after, None).await;
    assert_eq!(none, serde_json::json!([]), "the walk ends");
    served.shutdown().await;
}

/// Mailtrap's send answers `{"success": true, "message_ids": [...]}`, "one per recipient": the
/// sandbox answered `{"success": true}` alone, and a client reading `message_ids[0]` got
/// nothing. A send's list of ids holds a fresh one per recipient (at most 1,000).
#[tokio::test]
async fn a_send_answers_an_id_per_recipient() {
    let (_dir, served) = served_named(
        "sender",
        "types:\n  Address:\n    fields:\n      email: { type: string, required: true }\n  \
         Mail:\n    fields:\n      to: { type: list<Address>, required: true }\n      \
         subject: { type: string }\n  \
         Sent:\n    fields:\n      success: { type: boolean, required: true }\n      \
         message_ids: { type: list<string> }\n\
         operations:\n  send:\n    method: POST\n    path: /api/send\n    \
         body: Mail\n    response: Sent\n",
    )
    .await;
    let at = &served;
    let send = |n: usize| {
        let to: Vec<_> = (0..n)
            .map(|i| serde_json::json!({"email": format!("u{i}@example.com")}))
            .collect();
        let mail = serde_json::json!({"to": to, "subject": "hi"});
        async move { open_call(at, "POST", "/api/send", Some(mail)).await.1 }
    };
    let sent = send(2).await;
    assert_eq!(sent["success"], true, "{sent}");
    let ids = sent["message_ids"].as_array().cloned().unwrap_or_default();
    assert_eq!(ids.len(), 2, "{sent}");
    assert_ne!(ids[0], ids[1]);
    let again = send(1).await;
    assert_ne!(again["message_ids"][0], ids[0], "fresh each send");
    let many = send(1_001).await;
    assert_eq!(many["message_ids"].as_array().map(Vec::len), Some(1_000));
    served.shutdown().await;
}

/// BulkSMS's messages list takes `limit` and `sortOrder` (newest first by default in its
/// prose): with a `limit`, the window sorted the items oldest first again, so no page of the
/// newest could be asked for. Asked newest first, a window keeps that order.
#[tokio::test]
async fn a_window_asked_newest_first_keeps_that_order() {
    let (_dir, served) = served_named(
        "sms",
        "types:\n  Message:\n    fields:\n      id: { type: integer, read_only: true }\n      \
         body: { type: string }\n\
         operations:\n  send:\n    method: POST\n    path: /messages\n    \
         body: Message\n    response: Message\n  \
         list_messages:\n    method: GET\n    path: /messages\n    \
         query: { limit: { type: integer }, sortOrder: { type: string } }\n    \
         response: list<Message>\n",
    )
    .await;
    for n in 1..=4 {
        let message = serde_json::json!({"body": format!("m{n}")});
        assert_eq!(
            open_call(&served, "POST", "/messages", Some(message))
                .await
                .0,
            200
        );
    }
    let at = &served;
    let bodies = |query: &'static str| async move {
        let (_, page) = open_call(at, "GET", &format!("/messages?{query}"), None).await;
        let listed = page.as_array().cloned().unwrap_or_default();
        listed
            .iter()
            .map(|m| m["body"].as_str().unwrap_or_default().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(bodies("limit=2").await, ["m1", "m2"]);
    assert_eq!(bodies("limit=2&sortOrder=DESCENDING").await, ["m4", "m3"]);
    served.shutdown().await;
}

/// Textmagic's creates answer a link (`{id, href}`), its reads the item: the message's
/// `messageTime` and a list's nested `user.country.id`, required by the read and not by the
/// create's answer, were made up anew at each read, and `href` was the document's example
/// (`/api/v2/entity_name/1`), a 404 to follow. What the read requires is made with the item
/// and kept; the link is the item's own path.
#[tokio::test]
async fn what_a_read_requires_is_made_once_and_the_link_leads_to_the_item() {
    let (_dir, served) = served_named(
        "texts",
        "types:\n  Link:\n    fields:\n      id: { type: integer, required: true }\n      \
         href: { type: string, required: true, example: /api/v2/entity_name/1 }\n  \
         NewText:\n    fields:\n      text: { type: string, required: true }\n  \
         Owner:\n    fields:\n      id: { type: string, required: true }\n  \
         Text:\n    fields:\n      id: { type: integer, required: true }\n      \
         text: { type: string, required: true }\n      \
         sentAt: { type: datetime, required: true }\n      owner: { type: Owner, required: true }\n\
         operations:\n  send_text:\n    method: POST\n    path: /api/v2/texts\n    \
         body: NewText\n    response: Link\n  \
         get_text:\n    method: GET\n    path: /api/v2/texts/{id}\n    \
         path_params: { id: { type: integer } }\n    response: Text\n",
    )
    .await;
    let body = serde_json::json!({"text": "Hello"});
    let (_, link) = open_call(&served, "POST", "/api/v2/texts", Some(body)).await;
    let href = link["href"].as_str().unwrap_or_default().to_owned();
    assert_eq!(href, format!("/api/v2/texts/{}", link["id"]), "{link}");
    let (status, first) = open_call(&served, "GET", &href, None).await;
    assert_eq!((status, &first["text"]), (200, &serde_json::json!("Hello")));
    assert!(
        first["sentAt"].is_string() && first["owner"]["id"].is_string(),
        "{first}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let (_, again) = open_call(&served, "GET", &href, None).await;
    assert_eq!(again, first, "made once, read back the same");
    served.shutdown().await;
}

/// Textmagic's contacts: created at `POST /contacts/normalized`, updated at `PUT
/// /contacts/{id}/normalized`, searched at `GET /contacts/search` (a page of its own of the
/// same contacts), removed many at once by `POST /contacts/delete {"ids": "3,4"}`. Each was
/// a collection of its own: the contact made was never read, changed, found or removed.
#[tokio::test]
async fn writes_after_a_word_searches_and_delete_verbs_act_on_the_collection() {
    let page = |name: &str| {
        serde_json::json!({ "type": "object", "required": ["page", "limit", "pageCount", "resources"],
            "properties": { "page": { "type": "integer" }, "limit": { "type": "integer" },
                "pageCount": { "type": "integer" }, "resources": { "type": "array",
                    "items": { "$ref": "#/components/schemas/Contact" } } }, "title": name })
    };
    let json = |schema: &str| {
        serde_json::json!({ "application/json": {
        "schema": { "$ref": format!("#/components/schemas/{schema}") } } })
    };
    let id = serde_json::json!([{ "name": "id", "in": "path", "required": true,
        "schema": { "type": "integer" } }]);
    let paged = serde_json::json!([
        { "name": "page", "in": "query", "schema": { "type": "integer" } },
        { "name": "limit", "in": "query", "schema": { "type": "integer" } },
        { "name": "query", "in": "query", "schema": { "type": "string" } },
        { "name": "ids", "in": "query", "schema": { "type": "string" } }]);
    let document = serde_json::json!({
        "openapi": "3.0.1",
        "info": { "title": "Contacts", "version": "2" },
        "paths": {
            "/contacts": { "get": { "operationId": "getContacts", "parameters": paged,
                "responses": { "200": { "description": "ok", "content": json("ContactsPage") } } } },
            "/contacts/normalized": { "post": { "operationId": "createContact",
                "requestBody": { "required": true, "content": json("NewContact") },
                "responses": { "201": { "description": "ok", "content": json("Link") } } } },
            "/contacts/search": { "get": { "operationId": "searchContacts", "parameters": paged,
                "responses": { "200": { "description": "ok", "content": json("SearchPage") } } } },
            "/contacts/delete": { "post": { "operationId": "deleteContactsBulk",
                "requestBody": { "required": true, "content": json("Ids") },
                "responses": { "204": { "description": "gone" } } } },
            "/contacts/{id}": {
                "get": { "operationId": "getContact", "parameters": id,
                    "responses": { "200": { "description": "ok", "content": json("Contact") } } },
                "delete": { "operationId": "deleteContact", "parameters": id,
                    "responses": { "204": { "description": "gone" } } } },
            "/contacts/{id}/normalized": { "put": { "operationId": "updateContact",
                "parameters": id, "requestBody": { "required": true, "content": json("NewContact") },
                "responses": { "201": { "description": "ok", "content": json("Link") } } } }
        },
        "components": { "schemas": {
            "Contact": { "type": "object", "required": ["id", "phone", "firstName"],
                "properties": { "id": { "type": "integer" }, "phone": { "type": "string" },
                    "firstName": { "type": "string" }, "lastName": { "type": "string" } } },
            "NewContact": { "type": "object", "required": ["phone"],
                "properties": { "phone": { "type": "string" }, "firstName": { "type": "string" },
                    "lastName": { "type": "string" }, "lists": { "type": "string" } } },
            "Link": { "type": "object", "required": ["id", "href"], "properties": {
                "id": { "type": "integer" }, "href": { "type": "string" } } },
            "Ids": { "type": "object", "properties": { "ids": { "type": "string" },
                "all": { "type": "boolean" } } },
            "ContactsPage": page("ContactsPage"),
            "SearchPage": page("SearchPage")
        } }
    });
    let (served, _dir) = serve_document(&document.to_string(), "contacts.json", "contacts").await;
    let at = &served;
    let call = |method: &'static str, path: String, body: Option<serde_json::Value>| async move {
        open_call(at, method, &path, body).await
    };
    let mut ids = Vec::new();
    for name in ["Ann", "Bea", "Cy"] {
        let body = serde_json::json!({ "phone": "447860021130", "firstName": name, "lists": "9" });
        let (status, link) = call("POST", "/contacts/normalized".into(), Some(body)).await;
        assert_eq!(status, 201, "{link}");
        ids.push(link["id"].as_i64().unwrap_or_default());
    }
    let (status, read) = call("GET", format!("/contacts/{}", ids[0]), None).await;
    assert_eq!(
        (status, &read["firstName"]),
        (200, &serde_json::json!("Ann")),
        "{read}"
    );
    let change = serde_json::json!({ "phone": "447860021131", "firstName": "Anna" });
    let (status, _) = call(
        "PUT",
        format!("/contacts/{}/normalized", ids[0]),
        Some(change),
    )
    .await;
    assert_eq!(status, 201);
    let (_, read) = call("GET", format!("/contacts/{}", ids[0]), None).await;
    assert_eq!(read["firstName"], "Anna", "{read}");
    // A search's query and ids pick the items (Textmagic's `query=`, `ids=1,3`).
    let (_, found) = call("GET", "/contacts/search?query=bea".into(), None).await;
    let names: Vec<&serde_json::Value> = found["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| &c["firstName"])
        .collect();
    assert_eq!(names, [&serde_json::json!("Bea")], "{found}");
    let (_, found) = call(
        "GET",
        format!("/contacts/search?ids={},{}", ids[0], ids[2]),
        None,
    )
    .await;
    assert_eq!(
        found["resources"].as_array().map(Vec::len),
        Some(2),
        "{found}"
    );
    let (status, found) = call("GET", "/contacts/search?page=1&limit=10".into(), None).await;
    assert_eq!(
        (status, found["resources"].as_array().map(Vec::len)),
        (200, Some(3)),
        "{found}"
    );
    let gone = serde_json::json!({ "ids": format!("{},{}", ids[1], ids[2]) });
    let (status, _) = call("POST", "/contacts/delete".into(), Some(gone)).await;
    assert_eq!(status, 204);
    let (_, listed) = call("GET", "/contacts?page=1&limit=10".into(), None).await;
    let left: Vec<_> = listed["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| &c["id"])
        .collect();
    assert_eq!(left, [&serde_json::json!(ids[0])], "{listed}");
    served.shutdown().await;
}

/// WhatsApp's answers all extend one envelope, `{"meta", "errors"}`: a group's create answers
/// `{"groups": [{"id"}]}` in it, its read `{"groups": [info]}`. Both answered `{}` (the
/// envelope's `meta` object hid the list of what was made): no id to address the group by,
/// and its subject never read back. Its users, named by their `username`, likewise.
#[tokio::test]
async fn an_answer_in_an_envelope_lists_the_item_made_and_read() {
    let (_dir, served) = served_named(
        "chat",
        "types:\n  Meta:\n    fields:\n      version: { type: string }\n  \
         Error:\n    fields:\n      code: { type: integer }\n      title: { type: string }\n  \
         NewGroup:\n    fields:\n      subject: { type: string, required: true }\n  \
         Group:\n    fields:\n      id: { type: string }\n  \
         GroupInfo:\n    fields:\n      subject: { type: string }\n      creator: { type: string }\n  \
         GroupsResponse:\n    fields:\n      errors: { type: list<Error> }\n      meta: { type: Meta }\n      \
         groups: { type: list<Group> }\n  \
         GroupResponse:\n    fields:\n      errors: { type: list<Error> }\n      meta: { type: Meta }\n      \
         groups: { type: list<GroupInfo> }\n  \
         NewUser:\n    fields:\n      username: { type: string, required: true }\n      \
         password: { type: string, required: true }\n  \
         User:\n    fields:\n      username: { type: string }\n  \
         UserResponse:\n    fields:\n      errors: { type: list<Error> }\n      meta: { type: Meta }\n      \
         users: { type: list<User> }\n\
         operations:\n  create_group:\n    method: POST\n    path: /groups\n    \
         body: NewGroup\n    response: GroupsResponse\n  \
         get_group:\n    method: GET\n    path: /groups/{group_id}\n    \
         path_params: { group_id: { type: string } }\n    response: GroupResponse\n  \
         create_user:\n    method: POST\n    path: /users\n    body: NewUser\n    response: UserResponse\n  \
         get_user:\n    method: GET\n    path: /users/{user_username}\n    \
         path_params: { user_username: { type: string } }\n    response: UserResponse\n",
    )
    .await;
    let body = serde_json::json!({"subject": "Team chat"});
    let (status, made) = open_call(&served, "POST", "/groups", Some(body)).await;
    let id = made["groups"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(status < 300 && !id.is_empty(), "{made}");
    let (status, read) = open_call(&served, "GET", &format!("/groups/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(read["groups"][0]["subject"], "Team chat", "{read}");
    let (status, _) = open_call(&served, "GET", "/groups/nope", None).await;
    assert_eq!(status, 404);
    // Users are named by the `username` their create sends (the path's `{user_username}`):
    // two creates of one name made two users, neither found by it.
    let dave = serde_json::json!({"username": "dave", "password": "Secret123!"});
    let (_, made) = open_call(&served, "POST", "/users", Some(dave.clone())).await;
    assert_eq!(made["users"][0]["username"], "dave", "{made}");
    let (status, _) = open_call(&served, "POST", "/users", Some(dave)).await;
    assert_eq!(status, 409);
    let (status, read) = open_call(&served, "GET", "/users/dave", None).await;
    assert_eq!(
        (status, &read["users"][0]["username"]),
        (200, &serde_json::json!("dave"))
    );
    served.shutdown().await;
}

/// Ably's channel history takes `direction`, `forwards` or `backwards`, `backwards` (newest
/// first) by default: asked for the latest messages, it answered the oldest.
#[tokio::test]
async fn a_history_walked_backwards_by_default_answers_the_newest_first() {
    let (_dir, served) = served_named(
        "history",
        "types:\n  Message:\n    fields:\n      id: { type: string }\n      data: { type: string }\n\
         operations:\n  publish:\n    method: POST\n    path: /channels/{channel}/messages\n    \
         path_params: { channel: { type: string } }\n    body: Message\n    response: Message\n  \
         history:\n    method: GET\n    path: /channels/{channel}/messages\n    \
         path_params: { channel: { type: string } }\n    \
         query: { direction: { type: string, default: backwards } }\n    response: list<Message>\n",
    )
    .await;
    for data in ["m1", "m2", "m3"] {
        let body = serde_json::json!({ "data": data });
        let (status, _) = open_call(&served, "POST", "/channels/c/messages", Some(body)).await;
        assert!(status < 300, "{status}");
    }
    let at = &served;
    let datas = |query: &'static str| async move {
        let (_, page) = open_call(at, "GET", &format!("/channels/c/messages{query}"), None).await;
        let datas: Vec<String> = page
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["data"].as_str().map(str::to_owned))
            .collect();
        datas
    };
    assert_eq!(datas("").await, ["m3", "m2", "m1"], "the default");
    assert_eq!(datas("?direction=forwards").await, ["m1", "m2", "m3"]);
    served.shutdown().await;
}

/// Zenvia's template update took the read-only `status` its body's type does not have: a
/// client approved its own template. And its sent messages were `direction: IN`, the enum's
/// first value. An update writes nothing only the service sets; a made-up direction is out.
#[tokio::test]
async fn an_update_never_writes_what_the_service_sets_and_a_send_goes_out() {
    let (_dir, served) = served_named(
        "tpl",
        "types:\n  Status:\n    values: [PENDING, APPROVED]\n  Direction:\n    values: [IN, OUT]\n  \
         NewTemplate:\n    fields:\n      name: { type: string, required: true }\n  \
         Template:\n    fields:\n      id: { type: string, read_only: true }\n      \
         name: { type: string }\n      status: { type: Status, read_only: true }\n      \
         direction: { type: Direction, required: true }\n\
         operations:\n  create_template:\n    method: POST\n    path: /templates\n    \
         body: NewTemplate\n    response: Template\n  \
         get_template:\n    method: GET\n    path: /templates/{id}\n    \
         path_params: { id: { type: string } }\n    response: Template\n  \
         update_template:\n    method: PATCH\n    path: /templates/{id}\n    \
         path_params: { id: { type: string } }\n    body: json\n    response: Template\n  \
         rename_template:\n    method: PUT\n    path: /templates/{id}\n    \
         path_params: { id: { type: string } }\n    body: NewTemplate\n    response: Template\n",
    )
    .await;
    let body = serde_json::json!({"name": "welcome"});
    let (_, made) = open_call(&served, "POST", "/templates", Some(body)).await;
    assert_eq!(
        (&made["status"], &made["direction"]),
        (&serde_json::json!("PENDING"), &serde_json::json!("OUT")),
        "{made}"
    );
    let id = made["id"].as_str().unwrap_or_default().to_owned();
    let change = serde_json::json!({"name": "hello", "status": "APPROVED"});
    let (status, _) = open_call(&served, "PATCH", &format!("/templates/{id}"), Some(change)).await;
    assert_eq!(status, 200);
    let (_, read) = open_call(&served, "GET", &format!("/templates/{id}"), None).await;
    assert_eq!(
        (&read["name"], &read["status"]),
        (&serde_json::json!("hello"), &serde_json::json!("PENDING")),
        "{read}"
    );
    // Nor what its body's type has not (Zenvia's `channel`).
    let change = serde_json::json!({"name": "again", "direction": "IN"});
    let (status, _) = open_call(&served, "PUT", &format!("/templates/{id}"), Some(change)).await;
    assert_eq!(status, 200);
    let (_, read) = open_call(&served, "GET", &format!("/templates/{id}"), None).await;
    assert_eq!(
        (&read["name"], &read["direction"]),
        (&serde_json::json!("again"), &serde_json::json!("OUT")),
        "{read}"
    );
    served.shutdown().await;
}

/// Vonage's conversation (v1): created as `{id, href}`, read as `{uuid, name}`, both ids the
/// same `conversation_id` in the document. The read made up another `uuid`, so a client that
/// kept the created id never found it in the list.
#[tokio::test]
async fn the_id_a_create_answers_is_the_id_its_read_answers_under_another_name() {
    let (_dir, served) = served_named(
        "conv",
        "types:\n  NewConversation:\n    fields:\n      name: { type: string, required: true }\n  \
         Lite:\n    fields:\n      id: { type: string, required: true }\n  \
         Conversation:\n    fields:\n      uuid: { type: string, required: true }\n      \
         name: { type: string }\n\
         operations:\n  create_conversation:\n    method: POST\n    path: /conversations\n    \
         body: NewConversation\n    response: Lite\n  \
         get_conversation:\n    method: GET\n    path: /conversations/{conversation_id}\n    \
         path_params: { conversation_id: { type: string } }\n    response: Conversation\n  \
         list_conversations:\n    method: GET\n    path: /conversations\n    response: list<Conversation>\n",
    )
    .await;
    let body = serde_json::json!({"name": "chat-1"});
    let (_, made) = open_call(&served, "POST", "/conversations", Some(body)).await;
    let id = made["id"].as_str().unwrap_or_default().to_owned();
    let (_, read) = open_call(&served, "GET", &format!("/conversations/{id}"), None).await;
    assert_eq!(read["uuid"], made["id"], "{read}");
    let (_, listed) = open_call(&served, "GET", "/conversations", None).await;
    assert_eq!(listed[0]["uuid"], made["id"], "{listed}");
    served.shutdown().await;
}

/// Zenvia's error `code` shows `VALIDATION_ERROR`: the sandbox answered `not_found` and
/// `validation_error`, which a client matching the documented style never meets.
#[tokio::test]
async fn error_codes_are_in_capitals_where_the_document_s_example_is() {
    let (_dir, served) = served_named(
        "caps",
        "errors:\n  type: Problem\n  code: code\n  message: message\n\
         types:\n  Problem:\n    fields:\n      code: { type: string, example: VALIDATION_ERROR }\n      \
         message: { type: string }\n  \
         Thing:\n    fields:\n      id: { type: string, read_only: true }\n      name: { type: string, required: true }\n\
         operations:\n  create_thing:\n    method: POST\n    path: /things\n    body: Thing\n    response: Thing\n  \
         get_thing:\n    method: GET\n    path: /things/{id}\n    \
         path_params: { id: { type: string } }\n    response: Thing\n",
    )
    .await;
    let (status, body) = open_call(&served, "GET", "/things/nope", None).await;
    assert_eq!(
        (status, &body["code"]),
        (404, &serde_json::json!("NOT_FOUND")),
        "{body}"
    );
    let (status, body) = open_call(&served, "POST", "/things", Some(serde_json::json!({}))).await;
    assert_eq!(
        (status, &body["code"]),
        (422, &serde_json::json!("VALIDATION_ERROR")),
        "{body}"
    );
    served.shutdown().await;
}

/// Ably's `PUT /push/deviceRegistrations/{id}` "can be upserted": a device registered by its
/// id with a `PUT` was a 404 (a replace beside a create finds what it changes). A replace its
/// description calls an upsert creates; another still finds.
#[tokio::test]
async fn a_replace_described_as_an_upsert_creates_what_it_does_not_find() {
    let (_dir, served) = served_named(
        "push",
        "types:\n  Device:\n    fields:\n      id: { type: string }\n      platform: { type: string }\n\
         operations:\n  register_device:\n    method: POST\n    path: /devices\n    \
         body: Device\n    response: Device\n  \
         get_device:\n    method: GET\n    path: /devices/{id}\n    \
         path_params: { id: { type: string } }\n    response: Device\n  \
         put_device:\n    method: PUT\n    path: /devices/{id}\n    \
         doc: Device registrations can be upserted with a PUT.\n    \
         path_params: { id: { type: string } }\n    body: Device\n    response: Device\n  \
         register_app:\n    method: POST\n    path: /apps\n    body: Device\n    response: Device\n  \
         put_app:\n    method: PUT\n    path: /apps/{id}\n    doc: Update an app.\n    \
         path_params: { id: { type: string } }\n    body: Device\n    response: Device\n",
    )
    .await;
    let device = serde_json::json!({"id": "d1", "platform": "android"});
    let (status, _) = open_call(&served, "PUT", "/devices/d1", Some(device)).await;
    assert_eq!(status, 200);
    let (status, read) = open_call(&served, "GET", "/devices/d1", None).await;
    assert_eq!(
        (status, &read["platform"]),
        (200, &serde_json::json!("android")),
        "{read}"
    );
    let app = serde_json::json!({"platform": "web"});
    let (status, _) = open_call(&served, "PUT", "/apps/a1", Some(app)).await;
    assert_eq!(status, 404, "an update finds what it changes");
    served.shutdown().await;
}

/// Vonage's conversations v2 list in HAL: `{"_embedded": {"data": {"conversations": [...]}},
/// "_links": {"next": {"href": ...}}}`, one object deeper than its older APIs. Every list
/// answered `{}`: no items, no link to walk.
#[tokio::test]
async fn a_hal_list_one_object_deeper_lists_its_items_and_walks_its_links() {
    let link =
        serde_json::json!({ "type": "object", "properties": { "href": { "type": "string" } } });
    let thing = serde_json::json!({ "type": "object", "properties": {
        "id": { "type": "string" }, "name": { "type": "string" } } });
    let document = serde_json::json!({
        "openapi": "3.0.0",
        "info": { "title": "Hal", "version": "2" },
        "paths": { "/things": {
            "post": { "operationId": "createThing",
                "requestBody": { "content": { "application/json": { "schema": thing } } },
                "responses": { "201": { "description": "ok", "content": {
                    "application/json": { "schema": thing } } } } },
            "get": { "operationId": "listThings",
                "parameters": [
                    { "name": "page_size", "in": "query", "schema": { "type": "integer" } },
                    { "name": "cursor", "in": "query", "schema": { "type": "string" } }],
                "responses": { "200": { "description": "ok", "content": { "application/json": {
                    "schema": { "type": "object", "properties": {
                        "page_size": { "type": "integer" },
                        "_embedded": { "type": "object", "properties": { "data": {
                            "type": "object", "properties": { "things": {
                                "type": "array", "items": thing } } } } },
                        "_links": { "type": "object", "properties": {
                            "self": link, "next": link } } } } } } } } } } }
    });
    let (served, _dir) = serve_document(&document.to_string(), "hal.json", "hal").await;
    for name in ["a", "b", "c"] {
        let body = serde_json::json!({ "name": name });
        let (status, _) = open_call(&served, "POST", "/things", Some(body)).await;
        assert_eq!(status, 201);
    }
    let mut path = "/things?page_size=2".to_owned();
    let mut walked = Vec::new();
    for _ in 0..5 {
        let (status, page) = open_call(&served, "GET", &path, None).await;
        assert_eq!(status, 200, "{page}");
        let names: Vec<String> = page["_embedded"]["data"]["things"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["name"].as_str().map(str::to_owned))
            .collect();
        walked.push(names);
        match page["_links"]["next"]["href"].as_str() {
            Some(next) => path = next.trim_start_matches(served.base_url()).to_owned(),
            None => break,
        }
    }
    assert_eq!(walked, [vec!["a", "b"], vec!["c"]], "{walked:?}");
    served.shutdown().await;
}

/// Twilio's clients name a form (`Content-Type: application/x-www-form-urlencoded`) on every
/// `POST`, also one of an operation with no body (Messaging's brand re-submit, `SmsOtp`): each
/// was a 415. No bytes are no body of any type; a body of a type the operation does not take
/// is still refused.
#[tokio::test]
async fn a_media_type_with_no_body_is_no_body_of_the_wrong_type() {
    let (_dir, served) = served_named(
        "brands",
        "types:\n  Brand:\n    fields:\n      id: { type: string }\n      name: { type: string }\n\
         operations:\n  create_brand:\n    method: POST\n    path: /brands\n    body: Brand\n    response: Brand\n  \
         resubmit_brand:\n    method: POST\n    path: /brands/{id}/resubmit\n    \
         path_params: { id: { type: string } }\n    response: Brand\n",
    )
    .await;
    let post = |path: &str, body: &'static str| {
        tidings_runtime::reqwest::Client::new()
            .post(format!("{}{path}", served.base_url()))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    let answer = post("/brands/b1/resubmit", "").await.unwrap();
    assert!(answer.status().is_success(), "{}", answer.status());
    let answer = post("/brands", "name=acme").await.unwrap();
    assert_eq!(answer.status().as_u16(), 415);
    served.shutdown().await;
}

/// Twilio Messaging's `POST /v1/Services/{ServiceSid}/PhoneNumbers` adds the number its
/// `PhoneNumberSid` names: the answer's `sid` is that number's, and it is a 201 (the document
/// lists `[200, 201]`). The sandbox made up another `sid` and answered 200.
#[tokio::test]
async fn a_create_adding_a_thing_by_its_id_keeps_that_id_and_answers_201() {
    let (_dir, served) = served_named(
        "msvc",
        "types:\n  AddNumber:\n    fields:\n      PhoneNumberSid: { type: string, required: true }\n  \
         Number:\n    fields:\n      sid: { type: string }\n      service_sid: { type: string }\n\
         operations:\n  create_phone_number:\n    method: POST\n    \
         path: /v1/Services/{service_sid}/PhoneNumbers\n    \
         path_params: { service_sid: { type: string } }\n    body: AddNumber\n    \
         response: Number\n    status: [200, 201]\n  \
         fetch_phone_number:\n    method: GET\n    path: /v1/Services/{service_sid}/PhoneNumbers/{sid}\n    \
         path_params: { service_sid: { type: string }, sid: { type: string } }\n    response: Number\n",
    )
    .await;
    let body = serde_json::json!({"PhoneNumberSid": "PN0123456789abcdef0123456789abcdef"});
    let (status, made) = open_call(
        &served,
        "POST",
        "/v1/Services/MG1/PhoneNumbers",
        Some(body.clone()),
    )
    .await;
    assert_eq!(
        (status, &made["sid"]),
        (
            201,
            &serde_json::json!("PN0123456789abcdef0123456789abcdef")
        ),
        "{made}"
    );
    let (status, _) = open_call(
        &served,
        "GET",
        "/v1/Services/MG1/PhoneNumbers/PN0123456789abcdef0123456789abcdef",
        None,
    )
    .await;
    assert_eq!(status, 200);
    // The same number added again is refused (Twilio's 21710), not a second one.
    let (status, _) = open_call(&served, "POST", "/v1/Services/MG1/PhoneNumbers", Some(body)).await;
    assert_eq!(status, 409);
    served.shutdown().await;
}

/// Twilio Chat's document has no `{AccountSid}` parameter to give the account SID its form, but
/// its answers' `account_sid` matches `^AC[0-9a-fA-F]{32}$`: the SID printed was
/// `test_account_sid_…`, which Twilio's own clients refuse.
#[tokio::test]
async fn a_made_credential_takes_the_form_of_a_field_named_like_it() {
    let document = serde_json::json!({
        "openapi": "3.0.1",
        "info": { "title": "Chat", "version": "2" },
        "security": [{ "accountSid_authToken": [] }],
        "components": {
            "securitySchemes": { "accountSid_authToken": { "type": "http", "scheme": "basic" } },
            "schemas": { "service": { "type": "object", "properties": {
                "sid": { "type": "string" },
                "account_sid": { "type": "string", "minLength": 34, "maxLength": 34,
                    "pattern": "^AC[0-9a-fA-F]{32}$" } } } } },
        "paths": { "/v2/Services": { "get": { "operationId": "ListService",
            "responses": { "200": { "description": "ok", "content": { "application/json": {
                "schema": { "type": "array",
                    "items": { "$ref": "#/components/schemas/service" } } } } } } } } }
    });
    let (served, _dir) = serve_document(&document.to_string(), "chat.json", "chat").await;
    let sid = served.credential("account_sid").unwrap_or_default();
    assert!(
        sid.len() == 34 && sid.starts_with("AC") && sid[2..].chars().all(|c| c.is_ascii_hexdigit()),
        "{sid}"
    );
    served.shutdown().await;
}

#[tokio::test]
async fn the_one_error_shape_a_document_writes_in_place_is_every_errors() {
    // Twilio's Verify: `{code, message, more_info, status}` written in place on one `429` of
    // 57 operations, nothing required. The sandbox answered every other error in a shape of
    // its own (`{"error": {...}}`), where Twilio's clients read `code` and `status`.
    let document = r##"{
  "openapi": "3.0.1",
  "info": {"title": "Verify", "version": "1"},
  "components": {"securitySchemes": {"basicAuth": {"type": "http", "scheme": "basic"}}},
  "security": [{"basicAuth": []}],
  "paths": {
    "/v2/Services": {
      "post": {
        "operationId": "CreateService",
        "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {
          "type": "object", "required": ["FriendlyName"],
          "properties": {"FriendlyName": {"type": "string"}}}}}},
        "responses": {
          "201": {"description": "Created", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/service"}}}},
          "429": {"description": "Too many", "content": {"application/json": {
            "schema": {"type": "object", "properties": {
              "code": {"type": "integer", "format": "int32"},
              "message": {"type": "string"},
              "more_info": {"type": "string"},
              "status": {"type": "integer", "format": "int32"}}},
            "examples": {"limited": {"value": {"code": 20429, "message": "Too many requests", "more_info": "https://www.twilio.com/docs/errors/20429", "status": 429}}}}},
            "headers": {"Access-Control-Allow-Origin": {"schema": {"type": "string"}}}}
        }
      }
    },
    "/v2/Services/{Sid}": {
      "get": {
        "operationId": "FetchService",
        "parameters": [{"name": "Sid", "in": "path", "required": true, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/service"}}}}}
      }
    }
  }
}"##;
    let document = document.replace(
        r#""components": {"#,
        r#""components": {"schemas": {"service": {"type": "object", "properties": {"sid": {"type": "string"}, "friendly_name": {"type": "string"}}}},"#,
    );
    let (served, _dir) = serve_document(&document, "verify.json", "verify").await;
    let auth = basic_auth(&served);
    let key = ("authorization", auth.as_str());
    let (status, missing) = call_json(&served, key, "GET", "/v2/Services/VA404", None).await;
    assert_eq!(status, 404, "{missing}");
    assert_eq!(missing["status"], 404, "{missing}");
    assert!(missing["code"].is_i64(), "{missing}");
    assert!(
        missing["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{missing}"
    );
    assert!(missing.get("error").is_none(), "{missing}");
    let (status, refused) = post_form(&served, &auth, "/v2/Services", &[]).await;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(refused["status"], 422, "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("FriendlyName"),
        "{refused}"
    );
    let (status, unknown) = post_form(&served, "Basic bm86bm8=", "/v2/Services", &[]).await;
    assert_eq!(
        (status, &unknown["status"]),
        (401, &serde_json::json!(401)),
        "{unknown}"
    );
}

#[tokio::test]
async fn a_documents_callback_is_its_webhook_delivered_as_its_payload_type() {
    // Zenvia documents its webhook only as the subscription's `callbacks.onEvent` (a union of
    // message and status events told apart by `type`); the import skipped it, so `--spec`
    // had no webhook to deliver and a client no type to read one with.
    let document = r##"
openapi: 3.0.3
info: { title: Subscriptions, version: "1" }
components:
  securitySchemes: { key: { type: apiKey, in: header, name: X-API-TOKEN } }
  callbacks:
    event:
      "{$request.body#/webhook/url}":
        post:
          requestBody:
            content:
              application/json:
                schema: { $ref: "#/components/schemas/Event" }
          responses: { "200": { description: ok } }
  schemas:
    Event:
      type: object
      required: [type, id]
      properties:
        type: { type: string, enum: [MESSAGE, MESSAGE_STATUS] }
        id: { type: string }
        status: { type: string }
security: [{ key: [] }]
paths:
  /subscriptions:
    post:
      operationId: createSubscription
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties: { webhook: { type: object, properties: { url: { type: string } } } }
      responses: { "201": { description: created } }
      callbacks: { onEvent: { $ref: "#/components/callbacks/event" } }
  /subscriptions/{id}:
    put:
      operationId: updateSubscription
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { "200": { description: ok } }
      callbacks: { onEvent: { $ref: "#/components/callbacks/event" } }
"##;
    use tidings_codegen::import::{ImportOptions, import_openapi};
    let imported =
        import_openapi(document, &ImportOptions::new("subs", "subs.yaml"), None).unwrap();
    // One webhook, though two operations name it; nothing skipped.
    assert!(
        imported
            .yaml
            .contains("events:\n  webhook:\n    type: Event"),
        "{}",
        imported.yaml
    );
    assert!(
        !imported
            .report
            .skipped
            .iter()
            .any(|f| f.pointer.contains("callbacks")),
        "{}",
        imported.report
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("subs.yaml");
    std::fs::write(&path, &imported.yaml).unwrap();
    let (hooks, mut deliveries) = receiver().await;
    let mut config = ServeConfig::default();
    config.webhook_url = Some(hooks.clone());
    let served = ServedService::start(load(&path).unwrap().remove(0), config)
        .await
        .unwrap();
    let key = served.credential("api_key").unwrap().to_owned();
    let trigger = |payload: serde_json::Value| {
        tidings_runtime::reqwest::Client::new()
            .post(format!("{}/__sandbox/webhooks/webhook", served.base_url()))
            .header("X-API-TOKEN", &key)
            .json(&payload)
            .send()
    };
    let event = serde_json::json!({"type": "MESSAGE_STATUS", "id": "ev1", "status": "DELIVERED"});
    assert_eq!(trigger(event.clone()).await.unwrap().status(), 202);
    let (_, headers, body) =
        tokio::time::timeout(std::time::Duration::from_secs(10), deliveries.recv())
            .await
            .unwrap()
            .unwrap();
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&body).unwrap(),
        event
    );
    // What the payload type refuses is not delivered.
    let refused = trigger(serde_json::json!({"type": "MESSAGE"}))
        .await
        .unwrap();
    assert_eq!(refused.status(), 422);
}

#[tokio::test]
async fn a_new_items_field_named_for_the_callers_identity_is_the_callers() {
    // Twilio's Verify: every resource answers `account_sid`, "the SID of the Account that
    // created" it; made up, it was `AC000…0`, a stranger's account. The Basic user name (no
    // secret) is who calls; the token (a secret) is never written anywhere.
    let (_dir, served) = served_named(
        "verify",
        r#"credentials:
  account_sid: { env: VERIFY_ACCOUNT_SID, secret: false }
  auth_token: { env: VERIFY_AUTH_TOKEN }
auth:
  - { name: basic, kind: basic, username: account_sid, password: auth_token }
types:
  Service:
    fields:
      sid: { type: string }
      account_sid: { type: string, pattern: "^AC[0-9a-fA-F]{32}$" }
      friendly_name: { type: string }
      auth_token: { type: string }
  NewService:
    fields:
      FriendlyName: { type: string, required: true }
operations:
  create_service:
    method: POST
    path: /v2/Services
    body: NewService
    body_encoding: form
    response: Service
    status: [201]
  fetch_service:
    method: GET
    path: /v2/Services/{Sid}
    path_params: { Sid: { type: string } }
    response: Service
"#,
    )
    .await;
    let sid = served.credential("account_sid").unwrap().to_owned();
    let token = served.credential("auth_token").unwrap().to_owned();
    use base64::Engine as _;
    let auth = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{sid}:{token}"))
    );
    let (status, made) = post_form(&served, &auth, "/v2/Services", &[("FriendlyName", "x")]).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["account_sid"], sid.as_str(), "{made}");
    assert_ne!(made["auth_token"], token.as_str(), "{made}");
    let path = format!("/v2/Services/{}", made["sid"].as_str().unwrap());
    let (status, read) = call_json(&served, ("authorization", &auth), "GET", &path, None).await;
    assert_eq!(
        (status, &read["account_sid"]),
        (200, &made["account_sid"]),
        "{read}"
    );
    // A made SID is lower-case hex, as Twilio's are.
    assert!(!sid[2..].chars().any(|c| c.is_ascii_uppercase()), "{sid}");
}

#[tokio::test]
async fn conversations_keep_their_names_unique_their_indexes_in_order_and_lists_under_none() {
    // Twilio's Conversations: an update could give a conversation the `UniqueName` another
    // held (then neither answered to it); a message sent after the newest was deleted took
    // its `index`; the messages of a deleted conversation were an empty page, not a 404.
    let (_dir, served) = served_named(
        "conv",
        r#"credentials:
  api_key: { env: CONV_API_KEY }
auth:
  - { name: key, kind: bearer, credential: api_key }
types:
  Conversation:
    fields:
      sid: { type: string }
      unique_name: { type: string }
      url: { type: string, format: uri, doc: An absolute API resource URL for this conversation. }
  NewConversation:
    fields:
      UniqueName: { type: string }
  ConversationPage:
    fields:
      conversations: { type: "list<Conversation>" }
  Message:
    fields:
      sid: { type: string }
      index: { type: integer }
      body: { type: string }
  NewMessage:
    fields:
      Body: { type: string }
operations:
  create_conversation:
    method: POST
    path: /v1/Conversations
    body: NewConversation
    body_encoding: form
    response: Conversation
    status: [201]
  update_conversation:
    method: POST
    path: /v1/Conversations/{Sid}
    path_params: { Sid: { type: string } }
    body: NewConversation
    body_encoding: form
    response: Conversation
  fetch_conversation:
    method: GET
    path: /v1/Conversations/{Sid}
    path_params: { Sid: { type: string } }
    response: Conversation
  list_conversations:
    method: GET
    path: /v1/Conversations
    response: ConversationPage
  delete_conversation:
    method: DELETE
    path: /v1/Conversations/{Sid}
    path_params: { Sid: { type: string } }
  create_message:
    method: POST
    path: /v1/Conversations/{ConversationSid}/Messages
    path_params: { ConversationSid: { type: string } }
    body: NewMessage
    body_encoding: form
    response: Message
    status: [201]
  list_messages:
    method: GET
    path: /v1/Conversations/{ConversationSid}/Messages
    path_params: { ConversationSid: { type: string } }
    response: list<Message>
  delete_message:
    method: DELETE
    path: /v1/Conversations/{ConversationSid}/Messages/{Sid}
    path_params: { ConversationSid: { type: string }, Sid: { type: string } }
"#,
    )
    .await;
    let auth = format!("Bearer {}", served.credential("api_key").unwrap());
    let (_, alpha) = post_form(
        &served,
        &auth,
        "/v1/Conversations",
        &[("UniqueName", "alpha")],
    )
    .await;
    let (_, beta) = post_form(
        &served,
        &auth,
        "/v1/Conversations",
        &[("UniqueName", "beta")],
    )
    .await;
    let beta_path = format!("/v1/Conversations/{}", beta["sid"].as_str().unwrap());
    // Its `url`, never sent, is where it is read.
    assert_eq!(
        beta["url"],
        format!("{}{beta_path}", served.base_url()),
        "{beta}"
    );
    let (_, read) = call_json(&served, ("authorization", &auth), "GET", &beta_path, None).await;
    assert_eq!(read["url"], beta["url"], "{read}");
    // So is each listed one's, where every item said `https://example.com/`.
    let (_, listed) = call_json(
        &served,
        ("authorization", &auth),
        "GET",
        "/v1/Conversations",
        None,
    )
    .await;
    let urls: Vec<&serde_json::Value> = listed["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["url"])
        .collect();
    assert!(urls.contains(&&beta["url"]), "{listed}");
    let (status, refused) = post_form(&served, &auth, &beta_path, &[("UniqueName", "alpha")]).await;
    assert_eq!(status, 409, "{refused}");
    // Its own name again, and a free one, are fine.
    let (status, _) = post_form(&served, &auth, &beta_path, &[("UniqueName", "beta")]).await;
    assert_eq!(status, 200);
    let (status, renamed) = post_form(&served, &auth, &beta_path, &[("UniqueName", "gamma")]).await;
    assert_eq!(
        (status, &renamed["unique_name"]),
        (200, &serde_json::json!("gamma"))
    );

    let messages = format!(
        "/v1/Conversations/{}/Messages",
        alpha["sid"].as_str().unwrap()
    );
    let (_, first) = post_form(&served, &auth, &messages, &[("Body", "m0")]).await;
    let (_, second) = post_form(&served, &auth, &messages, &[("Body", "m1")]).await;
    assert_eq!(
        (&first["index"], &second["index"]),
        (&serde_json::json!(0), &serde_json::json!(1))
    );
    let key = ("authorization", auth.as_str());
    let newest = format!("{messages}/{}", second["sid"].as_str().unwrap());
    assert_eq!(
        call_json(&served, key, "DELETE", &newest, None).await.0,
        204
    );
    let (_, third) = post_form(&served, &auth, &messages, &[("Body", "m2")]).await;
    assert_eq!(third["index"], 2, "{third}");

    let gone = format!("/v1/Conversations/{}", alpha["sid"].as_str().unwrap());
    assert_eq!(call_json(&served, key, "DELETE", &gone, None).await.0, 204);
    let (status, listed) = call_json(&served, key, "GET", &messages, None).await;
    assert_eq!(status, 404, "{listed}");
}

#[tokio::test]
async fn a_problem_error_says_its_title_and_where_though_neither_is_required() {
    // Vonage's applications: `{type, title, detail, instance}`, nothing required; the sandbox
    // answered `type` and `detail` alone. The title is the status's reason, the instance the
    // request's path: values it knows.
    let (_dir, served) = served_named(
        "apps",
        r#"credentials:
  api_key: { env: APPS_API_KEY }
auth:
  - { name: key, kind: bearer, credential: api_key }
errors:
  type: Problem
  code: type
  message: detail
types:
  Problem:
    fields:
      type: { type: string }
      title: { type: string }
      detail: { type: string }
      instance: { type: string }
  Application:
    fields:
      id: { type: string }
      name: { type: string }
operations:
  get_application:
    method: GET
    path: /v2/applications/{id}
    path_params: { id: { type: string } }
    response: Application
"#,
    )
    .await;
    let auth = format!("Bearer {}", served.credential("api_key").unwrap());
    let (status, problem) = call_json(
        &served,
        ("authorization", &auth),
        "GET",
        "/v2/applications/nope",
        None,
    )
    .await;
    assert_eq!(status, 404, "{problem}");
    assert_eq!(problem["title"], "Not Found", "{problem}");
    assert_eq!(problem["instance"], "/v2/applications/nope", "{problem}");
    assert!(
        problem["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{problem}"
    );
    assert!(problem.get("error").is_none(), "{problem}");
    // A method the path does not take: the same shape.
    let (status, problem) = call_json(
        &served,
        ("authorization", &auth),
        "PATCH",
        "/v2/applications/nope",
        Some(serde_json::json!({})),
    )
    .await;
    assert_eq!(status, 405, "{problem}");
    assert_eq!(problem["title"], "Method Not Allowed", "{problem}");
    assert!(problem.get("error").is_none(), "{problem}");
}

#[tokio::test]
async fn a_verification_check_passes_the_sandboxs_code_and_fails_any_other() {
    // Twilio's Verify: `POST /v2/Services/{sid}/VerificationCheck {To, Code}` answered the
    // body back, no `status`, no `valid`, whatever the code: a client could neither pass nor
    // fail a user. It answers about the verification it names now: the digits counting up
    // from 1 (or the `CustomCode` it was started with) approve it, any other code does not.
    let (_dir, served) = served_named(
        "verify",
        r#"credentials:
  api_key: { env: VERIFY_API_KEY }
auth:
  - { name: key, kind: bearer, credential: api_key }
types:
  Service:
    fields:
      sid: { type: string }
      friendly_name: { type: string }
  NewService:
    fields:
      FriendlyName: { type: string, required: true }
  Verification:
    fields:
      sid: { type: string }
      to: { type: string }
      channel: { type: string }
      status: { type: string }
      valid: { type: boolean }
      custom_code: { type: string }
  NewVerification:
    fields:
      To: { type: string, required: true }
      Channel: { type: string, required: true }
      CustomCode: { type: string }
  Check:
    fields:
      sid: { type: string }
      to: { type: string }
      status: { type: string }
      valid: { type: boolean }
  NewCheck:
    fields:
      To: { type: string }
      VerificationSid: { type: string }
      Code: { type: string, required: true }
operations:
  create_service:
    method: POST
    path: /v2/Services
    body: NewService
    body_encoding: form
    response: Service
    status: [201]
  create_verification:
    method: POST
    path: /v2/Services/{ServiceSid}/Verifications
    path_params: { ServiceSid: { type: string } }
    body: NewVerification
    body_encoding: form
    response: Verification
    status: [201]
  fetch_verification:
    method: GET
    path: /v2/Services/{ServiceSid}/Verifications/{Sid}
    path_params: { ServiceSid: { type: string }, Sid: { type: string } }
    response: Verification
  create_verification_check:
    method: POST
    path: /v2/Services/{ServiceSid}/VerificationCheck
    path_params: { ServiceSid: { type: string } }
    body: NewCheck
    body_encoding: form
    response: Check
"#,
    )
    .await;
    let auth = format!("Bearer {}", served.credential("api_key").unwrap());
    let (_, service) = post_form(&served, &auth, "/v2/Services", &[("FriendlyName", "x")]).await;
    let base = format!("/v2/Services/{}", service["sid"].as_str().unwrap());
    let start = |to: &'static str, custom: Option<&'static str>| {
        let mut form = vec![("To", to), ("Channel", "sms")];
        form.extend(custom.map(|c| ("CustomCode", c)));
        let path = format!("{base}/Verifications");
        let auth = auth.clone();
        let served = &served;
        async move { post_form(served, &auth, &path, &form).await }
    };
    let check_path = format!("{base}/VerificationCheck");
    let check = |form: Vec<(&'static str, String)>| {
        let (auth, path, served) = (auth.clone(), check_path.clone(), &served);
        async move {
            let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
            post_form(served, &auth, &path, &form).await
        }
    };
    let (status, started) = start("+15017122661", None).await;
    assert_eq!(status, 201, "{started}");
    let to = || ("To", "+15017122661".to_owned());
    let (status, wrong) = check(vec![to(), ("Code", "000000".to_owned())]).await;
    assert_eq!(status, 200, "{wrong}");
    assert_eq!(
        (&wrong["valid"], &wrong["status"]),
        (&serde_json::json!(false), &serde_json::json!("pending")),
        "{wrong}"
    );
    assert_eq!(wrong["sid"], started["sid"], "{wrong}");
    let (_, right) = check(vec![to(), ("Code", "123456".to_owned())]).await;
    assert_eq!(
        (&right["valid"], &right["status"]),
        (&serde_json::json!(true), &serde_json::json!("approved")),
        "{right}"
    );
    // The verification says so too, kept.
    let read = format!("{base}/Verifications/{}", started["sid"].as_str().unwrap());
    let (_, kept) = call_json(&served, ("authorization", &auth), "GET", &read, None).await;
    assert_eq!(kept["status"], "approved", "{kept}");
    // Nothing started to that number: 404.
    let (status, none) = check(vec![
        ("To", "+19999999999".to_owned()),
        ("Code", "123456".to_owned()),
    ])
    .await;
    assert_eq!(status, 404, "{none}");
    // Started with a code of its own, by its sid: only that code.
    let (_, custom) = start("+15017122662", Some("4321")).await;
    let by_sid = || {
        (
            "VerificationSid",
            custom["sid"].as_str().unwrap().to_owned(),
        )
    };
    let (_, counting) = check(vec![by_sid(), ("Code", "1234".to_owned())]).await;
    assert_eq!(counting["valid"], false, "{counting}");
    let (_, own) = check(vec![by_sid(), ("Code", "4321".to_owned())]).await;
    assert_eq!(own["valid"], true, "{own}");
}

/// Vonage Verify's API as its document (`Nexmo/api-specification`, `definitions/verify.yml` at
/// `ad04200`) states it, reduced to the facts these calls read: each operation RPC style, the
/// credentials in each body (and the search's query), every answer one `200` whose success and
/// error are told by `status`.
const VONAGE_VERIFY: &str = r##"
openapi: 3.0.3
info: { title: Verify API, version: 1.1.7 }
servers: [{ url: "https://api.nexmo.com/verify" }]
paths:
  /{format}:
    post:
      operationId: verifyRequest
      parameters: [{ $ref: "#/components/parameters/format" }]
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [api_key, api_secret, number, brand]
              properties:
                api_key: { type: string }
                api_secret: { type: string }
                number: { type: string, example: "447700900000" }
                brand: { type: string, maxLength: 18, example: Acme Inc }
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema:
                oneOf:
                  - $ref: "#/components/schemas/requestResponse"
                  - $ref: "#/components/schemas/requestErrorResponse"
  /search/{format}:
    get:
      operationId: verifySearch
      parameters:
        - $ref: "#/components/parameters/format"
        - { name: api_key, in: query, required: true, schema: { type: string } }
        - { name: api_secret, in: query, required: true, schema: { type: string } }
        - { name: request_id, in: query, required: true, schema: { type: string } }
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema:
                oneOf:
                  - $ref: "#/components/schemas/searchResponse"
                  - $ref: "#/components/schemas/searchErrorResponse"
  /check/{format}:
    post:
      operationId: verifyCheck
      parameters: [{ $ref: "#/components/parameters/format" }]
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [api_key, api_secret, request_id, code]
              properties:
                api_key: { type: string }
                api_secret: { type: string }
                request_id: { type: string, maxLength: 32, example: abcdef0123456789abcdef0123456789 }
                code: { type: string, minLength: 4, maxLength: 6, example: "1234" }
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema:
                oneOf:
                  - $ref: "#/components/schemas/checkResponse"
                  - $ref: "#/components/schemas/checkErrorResponse"
  /control/{format}:
    post:
      operationId: verifyControl
      parameters: [{ $ref: "#/components/parameters/format" }]
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [api_key, api_secret, request_id, cmd]
              properties:
                api_key: { type: string }
                api_secret: { type: string }
                request_id: { type: string, example: abcdef0123456789abcdef0123456789 }
                cmd: { type: string, enum: [cancel, trigger_next_event] }
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema:
                oneOf:
                  - $ref: "#/components/schemas/controlResponse"
                  - $ref: "#/components/schemas/controlErrorResponse"
components:
  parameters:
    format: { name: format, in: path, required: true, schema: { type: string, enum: [json, xml] } }
  schemas:
    requestResponse:
      type: object
      properties:
        request_id: { type: string, maxLength: 32, example: abcdef0123456789abcdef0123456789 }
        status: { type: string, example: "0" }
    requestErrorResponse:
      type: object
      properties:
        request_id: { type: string, example: abcdef0123456789abcdef0123456789 }
        status: { type: string, enum: ["0", "1", "2", "3", "4"] }
        error_text: { type: string, example: Your request is incomplete and missing the mandatory parameter `number` }
    searchResponse:
      type: object
      properties:
        request_id: { type: string, example: abcdef0123456789abcdef0123456789 }
        account_id: { type: string, example: abcdef01 }
        status: { type: string, enum: [IN PROGRESS, SUCCESS, FAILED, EXPIRED, CANCELLED] }
        number: { type: string, example: "447700900000" }
    searchErrorResponse:
      type: object
      properties:
        request_id: { type: string, example: abcdef0123456789abcdef0123456789 }
        status: { type: string, enum: ["101"] }
        error_text: { type: string, example: No response found }
    checkResponse:
      type: object
      properties:
        request_id: { type: string, example: abcdef0123456789abcdef0123456789 }
        event_id: { type: string, example: 0A00000012345678 }
        status: { type: string, example: "0" }
    checkErrorResponse:
      type: object
      properties:
        request_id: { type: string, example: abcdef0123456789abcdef0123456789 }
        status: { type: string, enum: ["0", "1", "16", "17"] }
        error_text: { type: string, example: The code inserted does not match the expected value }
    controlResponse:
      type: object
      properties:
        status: { type: string, example: "0" }
        command: { type: string, enum: [cancel, trigger_next_event] }
    controlErrorResponse:
      type: object
      properties:
        status: { type: string, enum: ["6", "19"] }
        error_text: { type: string, example: The requestId does not exist or its no longer active }
"##;

/// Vonage Verify: the `request_id` a start answers is kept, so the search answers that request
/// (its number), a check of its code passes or fails, and an id nothing started is a 404; each
/// answer says how it went as Vonage's clients read it (`status: "0"`, else `error_text`).
/// Nothing was kept: the search answered a made-up request, and a check of the id a start had
/// just answered was a 404.
#[tokio::test]
async fn vonage_verify_s_started_request_is_searched_checked_and_cancelled_by_its_id() {
    let (served, _dir) = serve_document(VONAGE_VERIFY, "verify.yml", "vonage_verify").await;
    let key = served.credential("api_key").unwrap();
    let secret = served.credential("api_secret").unwrap();
    let post = |path: &'static str, fields: Vec<(&'static str, String)>| {
        let mut form = vec![
            ("api_key", key.to_owned()),
            ("api_secret", secret.to_owned()),
        ];
        form.extend(fields);
        let served = &served;
        async move {
            let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
            post_form(served, "", path, &form).await
        }
    };
    let (status, started) = post(
        "/json",
        vec![("number", "447700900001".into()), ("brand", "Acme".into())],
    )
    .await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["status"], "0", "{started}");
    let id = started["request_id"].as_str().unwrap().to_owned();
    let search = |id: String| {
        let path = format!("/search/json?api_key={key}&api_secret={secret}&request_id={id}");
        let served = &served;
        async move { open_call(served, "GET", &path, None).await }
    };
    let (status, found) = search(id.clone()).await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(
        (&found["request_id"], &found["number"]),
        (&serde_json::json!(id), &serde_json::json!("447700900001")),
        "{found}"
    );
    let check = |code: &'static str| {
        post(
            "/check/json",
            vec![("request_id", id.clone()), ("code", code.into())],
        )
    };
    let (status, wrong) = check("0000").await;
    assert_eq!(status, 200, "{wrong}");
    assert_ne!(wrong["status"], "0", "{wrong}");
    assert_eq!(
        wrong["error_text"], "The code inserted does not match the expected value",
        "{wrong}"
    );
    let (_, right) = check("1234").await;
    assert_eq!(
        (&right["status"], &right["request_id"]),
        (&serde_json::json!("0"), &serde_json::json!(id)),
        "{right}"
    );
    assert!(right.get("error_text").is_none(), "{right}");
    let (status, cancelled) = post(
        "/control/json",
        vec![("request_id", id.clone()), ("cmd", "cancel".into())],
    )
    .await;
    assert_eq!(
        (status, &cancelled["status"]),
        (200, &serde_json::json!("0")),
        "{cancelled}"
    );
    // An id nothing started: nothing to search, check or cancel.
    let (status, none) = search("0123456789abcdef0123456789abcdef".into()).await;
    assert_eq!(status, 404, "{none}");
    let (status, none) = post(
        "/check/json",
        vec![
            ("request_id", "0123456789abcdef0123456789abcdef".into()),
            ("code", "1234".into()),
        ],
    )
    .await;
    assert_eq!(status, 404, "{none}");
}

#[tokio::test]
async fn an_action_on_the_callers_own_account_named_in_the_path_is_served() {
    // Vonage's Subaccounts: `POST /{api_key}/transfer-number` acts on the account the caller
    // signs in as (its Basic user name) and documents a 404 for another's; nothing creates
    // accounts, so every transfer was that 404.
    let (_dir, served) = served_named(
        "accounts",
        r#"credentials:
  api_key: { env: ACCOUNTS_API_KEY, secret: false }
  api_secret: { env: ACCOUNTS_API_SECRET }
auth:
  - { name: basic, kind: basic, username: api_key, password: api_secret }
types:
  Transfer:
    fields:
      from: { type: string, required: true }
      to: { type: string, required: true }
      number: { type: string, required: true }
operations:
  transfer_number:
    method: POST
    path: /{api_key}/transfer-number
    path_params: { api_key: { type: string } }
    body: Transfer
    response: Transfer
    errors: [404]
"#,
    )
    .await;
    let key = served.credential("api_key").unwrap().to_owned();
    let auth = basic_of(&served, "api_key", "api_secret");
    let body = serde_json::json!({"from": key, "to": "00000001", "number": "447700900000"});
    let own = format!("/{key}/transfer-number");
    let (status, moved) = call_json(
        &served,
        ("authorization", &auth),
        "POST",
        &own,
        Some(body.clone()),
    )
    .await;
    assert_eq!(
        (status, &moved["number"]),
        (200, &body["number"]),
        "{moved}"
    );
    // Another account, which the caller is not: the documented 404.
    let (status, other) = call_json(
        &served,
        ("authorization", &auth),
        "POST",
        "/someone-else/transfer-number",
        Some(body),
    )
    .await;
    assert_eq!(status, 404, "{other}");
}

#[tokio::test]
async fn a_create_whose_body_is_one_shape_or_another_answers_what_the_service_sets() {
    // Vonage's Voice: a call is created with an `ncco` or with an `answer_url` (an untagged
    // union body); the call's `status` and `direction` are the service's to set, but only an
    // object body said which fields a client sends, so a new call had neither, and a list
    // filtered by `status` was always empty.
    let (_dir, served, auth) = served_with_key(
        "voice",
        r#"types:
  CallWithNcco:
    fields:
      to: { type: string, required: true }
      ncco: { type: "list<json>", required: true }
  CallWithAnswerUrl:
    fields:
      to: { type: string, required: true }
      answer_url: { type: "list<string>", required: true }
  NewCall:
    untagged: true
    variants:
      ncco: { type: CallWithNcco }
      answer_url: { type: CallWithAnswerUrl }
  Call:
    fields:
      uuid: { type: string, format: uuid }
      to: { type: string }
      status: { type: string, example: started }
      direction: { type: CallDirection }
  CallDirection:
    values: [outbound, inbound]
  Calls:
    fields:
      calls: { type: "list<Call>" }
operations:
  create_call:
    method: POST
    path: /calls
    body: NewCall
    response: Call
    status: [201]
  get_call:
    method: GET
    path: /calls/{uuid}
    path_params: { uuid: { type: string } }
    response: Call
  list_calls:
    method: GET
    path: /calls
    query:
      status: { type: string }
    response: Calls
"#,
    )
    .await;
    let body = serde_json::json!({"to": "14155550100", "ncco": [{"action": "talk"}]});
    let (status, made) = call_json(
        &served,
        ("authorization", &auth),
        "POST",
        "/calls",
        Some(body),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(
        (&made["status"], &made["direction"]),
        (
            &serde_json::json!("started"),
            &serde_json::json!("outbound")
        ),
        "{made}"
    );
    let path = format!("/calls/{}", made["uuid"].as_str().unwrap());
    let (_, read) = call_json(&served, ("authorization", &auth), "GET", &path, None).await;
    assert_eq!(read["status"], "started", "{read}");
    let (_, listed) = call_json(
        &served,
        ("authorization", &auth),
        "GET",
        "/calls?status=started",
        None,
    )
    .await;
    assert_eq!(
        listed["calls"].as_array().map(Vec::len),
        Some(1),
        "{listed}"
    );
}

#[tokio::test]
async fn a_send_gives_each_recipient_the_services_id_and_keeps_the_clients_own() {
    // WinSMS: each recipient of a send answers the `apiMessageId` (a number) the service
    // gave it, and the `clientMessageId` the client sent, if any. The sandbox made up a
    // `clientMessageId` for the recipient sent without one, and no `apiMessageId` at all.
    let (_dir, served) = served_named(
        "winsms",
        r#"credentials:
  api_key: { env: WINSMS_API_KEY }
auth:
  - { name: key, kind: header, header: AUTHORIZATION, credential: api_key }
types:
  Recipient:
    fields:
      mobileNumber: { type: string, required: true }
      clientMessageId: { type: string }
  SendRequest:
    fields:
      message: { type: string, required: true }
      recipients: { type: "list<Recipient>", required: true }
  RecipientResult:
    fields:
      mobileNumber: { type: string }
      clientMessageId: { type: string }
      apiMessageId: { type: integer }
  SendResponse:
    fields:
      recipients: { type: "list<RecipientResult>" }
operations:
  send_sms:
    method: POST
    path: /sms/outgoing/send
    body: SendRequest
    response: SendResponse
"#,
    )
    .await;
    let key = served.credential("api_key").unwrap().to_owned();
    let body = serde_json::json!({"message": "Happy holidays", "recipients": [
        {"mobileNumber": "27444444444", "clientMessageId": "mine-1"},
        {"mobileNumber": "27555555555"}
    ]});
    let (status, sent) = call_json(
        &served,
        ("authorization", &key),
        "POST",
        "/sms/outgoing/send",
        Some(body),
    )
    .await;
    assert_eq!(status, 200, "{sent}");
    let recipients = sent["recipients"].as_array().unwrap();
    assert_eq!(recipients.len(), 2, "{sent}");
    assert_eq!(recipients[0]["clientMessageId"], "mine-1", "{sent}");
    assert!(recipients[1].get("clientMessageId").is_none(), "{sent}");
    let ids: Vec<_> = recipients
        .iter()
        .map(|r| r["apiMessageId"].as_u64())
        .collect();
    assert!(
        ids.iter().all(Option::is_some) && ids[0] != ids[1],
        "{sent}"
    );
}

#[tokio::test]
async fn an_item_with_one_object_field_beside_its_id_is_the_item_not_its_holder() {
    // Twilio Proxy's phone number: `{sid, phone_number, capabilities: {sms, voice}}`. Read as
    // an answer holding the item in `capabilities`, a new number's id was `res_N`, answered
    // as the pattern's first sample: every number had the sid `PN000…0`, and none was found
    // by it.
    let (_dir, served, auth) = served_with_key(
        "proxy",
        r#"types:
  Capabilities:
    fields:
      sms: { type: boolean }
      voice: { type: boolean }
  PhoneNumber:
    fields:
      sid: { type: string, pattern: "^PN[0-9a-fA-F]{32}$", min_len: 34, max_len: 34 }
      phone_number: { type: string }
      capabilities: { type: Capabilities }
  NewPhoneNumber:
    fields:
      PhoneNumber: { type: string }
operations:
  create_phone_number:
    method: POST
    path: /v1/PhoneNumbers
    body: NewPhoneNumber
    body_encoding: form
    response: PhoneNumber
    status: [201]
  fetch_phone_number:
    method: GET
    path: /v1/PhoneNumbers/{sid}
    path_params: { sid: { type: string } }
    response: PhoneNumber
  delete_phone_number:
    method: DELETE
    path: /v1/PhoneNumbers/{sid}
    path_params: { sid: { type: string } }
"#,
    )
    .await;
    let (status, first) = post_form(
        &served,
        &auth,
        "/v1/PhoneNumbers",
        &[("PhoneNumber", "+15005550006")],
    )
    .await;
    assert_eq!(status, 201, "{first}");
    let (_, second) = post_form(
        &served,
        &auth,
        "/v1/PhoneNumbers",
        &[("PhoneNumber", "+15005550007")],
    )
    .await;
    assert_ne!(first["sid"], second["sid"], "{first} {second}");
    let path = format!("/v1/PhoneNumbers/{}", second["sid"].as_str().unwrap());
    let (status, read) = call_json(&served, ("authorization", &auth), "GET", &path, None).await;
    assert_eq!(
        (status, &read["phone_number"]),
        (200, &second["phone_number"]),
        "{read}"
    );
    let (status, _) = call_json(&served, ("authorization", &auth), "DELETE", &path, None).await;
    assert_eq!(status, 204);
}

#[tokio::test]
async fn an_actions_result_code_is_the_one_its_document_shows_for_success() {
    // Vonage's Numbers: a buy answers `{"error-code": "200", "error-code-label": "success"}`,
    // nothing required; Vonage's clients raise unless `error-code` is `"200"`. The sandbox
    // answered `{}`.
    let (_dir, served, auth) = served_with_key(
        "numbers",
        r#"types:
  Buy:
    fields:
      country: { type: string, required: true }
      msisdn: { type: string, required: true }
  Response:
    fields:
      error-code: { type: string, example: "200" }
      error-code-label: { type: string, example: success }
operations:
  buy_number:
    method: POST
    path: /number/buy
    body: Buy
    body_encoding: form
    response: Response
"#,
    )
    .await;
    let (status, bought) = post_form(
        &served,
        &auth,
        "/number/buy",
        &[("country", "GB"), ("msisdn", "447700900001")],
    )
    .await;
    assert_eq!(
        (status, &bought["error-code"]),
        (200, &serde_json::json!("200")),
        "{bought}"
    );
}

#[tokio::test]
async fn a_creation_time_written_as_text_is_now_not_the_examples_day() {
    // Vonage's subaccounts: `created_at` is text (no format), its example
    // `2018-03-02T16:34:49Z`; every new subaccount was created that day, and a window around
    // now found none.
    let (_dir, served, auth) = served_with_key(
        "subaccounts",
        r#"types:
  Subaccount:
    fields:
      api_key: { type: string }
      name: { type: string }
      created_at: { type: string, example: "2018-03-02T16:34:49Z" }
  NewSubaccount:
    fields:
      name: { type: string, required: true }
operations:
  create_subaccount:
    method: POST
    path: /subaccounts
    body: NewSubaccount
    response: Subaccount
  get_subaccount:
    method: GET
    path: /subaccounts/{api_key}
    path_params: { api_key: { type: string } }
    response: Subaccount
"#,
    )
    .await;
    let body = serde_json::json!({"name": "Department A"});
    let (status, made) = call_json(
        &served,
        ("authorization", &auth),
        "POST",
        "/subaccounts",
        Some(body),
    )
    .await;
    assert_eq!(status, 200, "{made}");
    let created = made["created_at"].as_str().unwrap();
    let when = tidings_runtime::dates::rfc3339_to_unix(created).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    assert!(now.abs_diff(u64::try_from(when).unwrap()) < 600, "{made}");
    let path = format!("/subaccounts/{}", made["api_key"].as_str().unwrap());
    let (_, read) = call_json(&served, ("authorization", &auth), "GET", &path, None).await;
    assert_eq!(read["created_at"], made["created_at"], "{read}");
}

#[tokio::test]
async fn an_identity_is_unique_among_users_not_among_what_a_user_holds() {
    // Twilio: a Chat user's `Identity` names the user (a second is a 409); Notify's bindings
    // are "up to 20 for the same Identity" (a phone and an app), and the second was a 409.
    let (_dir, served, auth) = served_with_key(
        "chat",
        r#"types:
  Item:
    fields:
      sid: { type: string }
      identity: { type: string }
      address: { type: string }
  NewItem:
    fields:
      Identity: { type: string, required: true }
      Address: { type: string }
operations:
  create_user:
    method: POST
    path: /v1/Users
    body: NewItem
    body_encoding: form
    response: Item
    status: [201]
    errors: [409]
  fetch_user:
    method: GET
    path: /v1/Users/{Sid}
    path_params: { Sid: { type: string } }
    response: Item
  create_binding:
    method: POST
    path: /v1/Bindings
    body: NewItem
    body_encoding: form
    response: Item
    status: [201]
    errors: [409]
  fetch_binding:
    method: GET
    path: /v1/Bindings/{Sid}
    path_params: { Sid: { type: string } }
    response: Item
"#,
    )
    .await;
    let bind = |address: &'static str| {
        let (served, auth) = (&served, auth.clone());
        async move {
            post_form(
                served,
                &auth,
                "/v1/Bindings",
                &[("Identity", "alice"), ("Address", address)],
            )
            .await
        }
    };
    assert_eq!(bind("+15550001111").await.0, 201);
    let (status, second) = bind("apn-token").await;
    assert_eq!(status, 201, "{second}");
    let user = || {
        post_form(
            &served,
            &auth,
            "/v1/Users",
            &[("Identity", "alice"), ("Address", "a@example.com")],
        )
    };
    assert_eq!(user().await.0, 201);
    let (status, again) = user().await;
    assert_eq!(status, 409, "{again}");
}

#[tokio::test]
async fn a_number_bought_is_listed_updated_and_given_back() {
    // Vonage's numbers: `POST /number/buy {country, msisdn}`, `/number/update`,
    // `/number/cancel`, listed at `GET /account/numbers`. Each was an action: a bought number
    // was never listed, and a cancel of one never bought answered success.
    let (_dir, served, auth) = served_with_key(
        "numbers",
        r#"types:
  Details:
    fields:
      country: { type: string, required: true }
      msisdn: { type: string, required: true }
  Update:
    fields:
      country: { type: string, required: true }
      msisdn: { type: string, required: true }
      moHttpUrl: { type: string }
  Response:
    fields:
      error-code: { type: string, example: "200" }
  Number:
    fields:
      country: { type: string }
      msisdn: { type: string }
      moHttpUrl: { type: string }
  Numbers:
    fields:
      count: { type: integer }
      numbers: { type: "list<Number>" }
operations:
  get_owned_numbers:
    method: GET
    path: /account/numbers
    query:
      index: { type: integer }
      size: { type: integer }
    response: Numbers
    pagination: { style: page, items_field: numbers, page_param: index, size_param: size }
  buy_number:
    method: POST
    path: /number/buy
    body: Details
    body_encoding: form
    response: Response
    errors: [404]
  update_number:
    method: POST
    path: /number/update
    body: Update
    body_encoding: form
    response: Response
    errors: [404]
  cancel_number:
    method: POST
    path: /number/cancel
    body: Details
    body_encoding: form
    response: Response
    errors: [404]
"#,
    )
    .await;
    let number = [("country", "GB"), ("msisdn", "447700900001")];
    let (status, bought) = post_form(&served, &auth, "/number/buy", &number).await;
    assert_eq!(
        (status, &bought["error-code"]),
        (200, &serde_json::json!("200")),
        "{bought}"
    );
    let listed = || {
        call_json(
            &served,
            ("authorization", &auth),
            "GET",
            "/account/numbers",
            None,
        )
    };
    let (_, owned) = listed().await;
    assert_eq!(owned["numbers"][0]["msisdn"], "447700900001", "{owned}");
    let mut update = number.to_vec();
    update.push(("moHttpUrl", "https://example.com/inbound"));
    let (status, _) = post_form(&served, &auth, "/number/update", &update).await;
    assert_eq!(status, 200);
    let (_, owned) = listed().await;
    assert_eq!(
        owned["numbers"][0]["moHttpUrl"], "https://example.com/inbound",
        "{owned}"
    );
    let (status, _) = post_form(&served, &auth, "/number/cancel", &number).await;
    assert_eq!(status, 200);
    let (_, owned) = listed().await;
    assert_eq!(
        owned["numbers"].as_array().map(Vec::len),
        Some(0),
        "{owned}"
    );
    let (status, again) = post_form(&served, &auth, "/number/cancel", &number).await;
    assert_eq!(status, 404, "{again}");
}

#[tokio::test]
async fn a_form_sends_free_form_json_as_its_text_and_an_empty_form_is_the_callers_too() {
    // Twilio Sync: `Data={"a":1}` in a form is "a JSON string" of "an arbitrary object",
    // answered as that object (it was answered as the text); `create()` with no arguments
    // sends an empty form, whose new item got the account `AC000…0`, not the caller's.
    let (_dir, served) = served_named(
        "sync",
        r#"credentials:
  account_sid: { env: SYNC_ACCOUNT_SID, secret: false }
  auth_token: { env: SYNC_AUTH_TOKEN }
auth:
  - { name: basic, kind: basic, username: account_sid, password: auth_token }
types:
  Document:
    fields:
      sid: { type: string, pattern: "^ET[0-9a-fA-F]{32}$" }
      account_sid: { type: string, pattern: "^AC[0-9a-fA-F]{32}$" }
      data: { type: json }
  NewDocument:
    fields:
      UniqueName: { type: string }
      Data: { type: json }
operations:
  create_document:
    method: POST
    path: /v1/Documents
    body: NewDocument
    body_encoding: form
    response: Document
    status: [201]
  fetch_document:
    method: GET
    path: /v1/Documents/{Sid}
    path_params: { Sid: { type: string } }
    response: Document
"#,
    )
    .await;
    let sid = served.credential("account_sid").unwrap().to_owned();
    let auth = basic_of(&served, "account_sid", "auth_token");
    let (status, made) = post_form(
        &served,
        &auth,
        "/v1/Documents",
        &[("Data", r#"{"a":1,"b":[1,{"c":null}]}"#)],
    )
    .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(
        made["data"],
        serde_json::json!({"a": 1, "b": [1, {"c": null}]}),
        "{made}"
    );
    let path = format!("/v1/Documents/{}", made["sid"].as_str().unwrap());
    let (_, read) = call_json(&served, ("authorization", &auth), "GET", &path, None).await;
    assert_eq!(read["data"], made["data"], "{read}");
    let (status, empty) = post_form(&served, &auth, "/v1/Documents", &[]).await;
    assert_eq!(
        (status, &empty["account_sid"]),
        (201, &serde_json::json!(sid)),
        "{empty}"
    );
}

#[tokio::test]
async fn an_items_revision_moves_on_at_each_change() {
    // Twilio Sync's document `revision` (text) and Studio's flow `revision` (a number): the
    // word `revision` (the example) and 0, whatever was changed.
    let (_dir, served, auth) = served_with_key(
        "sync",
        r#"types:
  Document:
    fields:
      sid: { type: string }
      revision: { type: string, example: revision }
      data: { type: json }
  Flow:
    fields:
      sid: { type: string }
      revision: { type: integer }
      friendly_name: { type: string }
  NewDocument:
    fields:
      Data: { type: json }
  NewFlow:
    fields:
      FriendlyName: { type: string }
operations:
  create_document:
    method: POST
    path: /v1/Documents
    body: NewDocument
    body_encoding: form
    response: Document
    status: [201]
  update_document:
    method: POST
    path: /v1/Documents/{Sid}
    path_params: { Sid: { type: string } }
    body: NewDocument
    body_encoding: form
    response: Document
  create_flow:
    method: POST
    path: /v2/Flows
    body: NewFlow
    body_encoding: form
    response: Flow
    status: [201]
  update_flow:
    method: POST
    path: /v2/Flows/{Sid}
    path_params: { Sid: { type: string } }
    body: NewFlow
    body_encoding: form
    response: Flow
"#,
    )
    .await;
    let (_, document) = post_form(&served, &auth, "/v1/Documents", &[("Data", "{}")]).await;
    assert_eq!(document["revision"], "0", "{document}");
    let path = format!("/v1/Documents/{}", document["sid"].as_str().unwrap());
    let (_, changed) = post_form(&served, &auth, &path, &[("Data", r#"{"a":1}"#)]).await;
    assert_eq!(changed["revision"], "1", "{changed}");
    let (_, flow) = post_form(&served, &auth, "/v2/Flows", &[("FriendlyName", "a")]).await;
    assert_eq!(flow["revision"], 1, "{flow}");
    let path = format!("/v2/Flows/{}", flow["sid"].as_str().unwrap());
    let (_, changed) = post_form(&served, &auth, &path, &[("FriendlyName", "b")]).await;
    assert_eq!(changed["revision"], 2, "{changed}");
}

#[tokio::test]
async fn a_parent_named_by_its_unique_name_holds_the_same_children_as_by_its_sid() {
    // Twilio Sync: `/v1/Lists/{ListSid}/Items`, where "either the SID or the unique name"
    // names the list; by its unique name, its items were a 404.
    let (_dir, served, auth) = served_with_key(
        "sync",
        r#"types:
  List:
    fields:
      sid: { type: string, pattern: "^ES[0-9a-fA-F]{32}$" }
      unique_name: { type: string }
  NewList:
    fields:
      UniqueName: { type: string }
  Item:
    fields:
      index: { type: integer }
      data: { type: json }
  NewItem:
    fields:
      Data: { type: json, required: true }
operations:
  create_list:
    method: POST
    path: /v1/Lists
    body: NewList
    body_encoding: form
    response: List
    status: [201]
  fetch_list:
    method: GET
    path: /v1/Lists/{Sid}
    path_params: { Sid: { type: string } }
    response: List
  create_item:
    method: POST
    path: /v1/Lists/{ListSid}/Items
    path_params: { ListSid: { type: string } }
    body: NewItem
    body_encoding: form
    response: Item
    status: [201]
  list_items:
    method: GET
    path: /v1/Lists/{ListSid}/Items
    path_params: { ListSid: { type: string } }
    response: list<Item>
  fetch_item:
    method: GET
    path: /v1/Lists/{ListSid}/Items/{Index}
    path_params: { ListSid: { type: string }, Index: { type: integer } }
    response: Item
"#,
    )
    .await;
    let (_, list) = post_form(&served, &auth, "/v1/Lists", &[("UniqueName", "todo")]).await;
    let (status, item) = post_form(
        &served,
        &auth,
        "/v1/Lists/todo/Items",
        &[("Data", r#"{"a":1}"#)],
    )
    .await;
    assert_eq!(status, 201, "{item}");
    // Its place in its list, from 0 in each list (it was the store's counter: 11, then 28).
    assert_eq!(item["index"], 0, "{item}");
    post_form(&served, &auth, "/v1/Lists", &[("UniqueName", "done")]).await;
    let (_, other) = post_form(&served, &auth, "/v1/Lists/done/Items", &[("Data", "{}")]).await;
    let (_, second) = post_form(&served, &auth, "/v1/Lists/done/Items", &[("Data", "{}")]).await;
    assert_eq!(
        (&other["index"], &second["index"]),
        (&serde_json::json!(0), &serde_json::json!(1))
    );
    let by_sid = format!("/v1/Lists/{}/Items", list["sid"].as_str().unwrap());
    for path in [by_sid.as_str(), "/v1/Lists/todo/Items"] {
        let (status, items) = call_json(&served, ("authorization", &auth), "GET", path, None).await;
        assert_eq!(status, 200, "{path}: {items}");
        assert_eq!(
            items[0]["data"],
            serde_json::json!({"a": 1}),
            "{path}: {items}"
        );
    }
}

#[tokio::test]
async fn an_update_is_how_items_are_made_where_nothing_creates_them() {
    // Twilio Sync's permissions: `POST …/Permissions/{Identity}` ("update") is the only write,
    // and grants the permission; it was a 404 for every identity, the list always empty.
    let (_dir, served, auth) = served_with_key(
        "sync",
        r#"types:
  Permission:
    fields:
      identity: { type: string }
      read: { type: boolean }
      write: { type: boolean }
  NewPermission:
    fields:
      Read: { type: boolean, required: true }
      Write: { type: boolean, required: true }
operations:
  update_permission:
    method: POST
    path: /v1/Documents/{DocumentSid}/Permissions/{Identity}
    path_params: { DocumentSid: { type: string }, Identity: { type: string } }
    body: NewPermission
    body_encoding: form
    response: Permission
  fetch_permission:
    method: GET
    path: /v1/Documents/{DocumentSid}/Permissions/{Identity}
    path_params: { DocumentSid: { type: string }, Identity: { type: string } }
    response: Permission
  list_permissions:
    method: GET
    path: /v1/Documents/{DocumentSid}/Permissions
    path_params: { DocumentSid: { type: string } }
    response: list<Permission>
"#,
    )
    .await;
    let path = "/v1/Documents/ET1/Permissions/alice";
    let (status, granted) = post_form(
        &served,
        &auth,
        path,
        &[("Read", "true"), ("Write", "false")],
    )
    .await;
    assert_eq!(
        (status, &granted["identity"]),
        (200, &serde_json::json!("alice")),
        "{granted}"
    );
    let (_, changed) =
        post_form(&served, &auth, path, &[("Read", "true"), ("Write", "true")]).await;
    assert_eq!(changed["write"], true, "{changed}");
    let (_, listed) = call_json(
        &served,
        ("authorization", &auth),
        "GET",
        "/v1/Documents/ET1/Permissions",
        None,
    )
    .await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
}

#[tokio::test]
async fn the_children_a_create_lists_in_its_body_are_created_with_it() {
    // Twilio Events: a subscription is created with `Types=[{type, schema_version}]`, the
    // items its `SubscribedEvents` list; Proxy's session with `Participants=[...]`, its
    // `Participants`. Both were dropped: the lists read back empty.
    let (_dir, served) = served_named(
        "events",
        r#"credentials:
  account_sid: { env: EVENTS_ACCOUNT_SID, secret: false }
  auth_token: { env: EVENTS_AUTH_TOKEN }
auth:
  - { name: basic, kind: basic, username: account_sid, password: auth_token }
types:
  Subscription:
    fields:
      sid: { type: string, pattern: "^DF[0-9a-fA-F]{32}$" }
      description: { type: string }
  NewSubscription:
    fields:
      Description: { type: string, required: true }
      Types: { type: list<json>, required: true }
  Subscriptions:
    fields:
      subscriptions: { type: list<Subscription> }
  SubscribedEvent:
    fields:
      subscription_sid: { type: string, pattern: "^DF[0-9a-fA-F]{32}$" }
      type: { type: string }
      schema_version: { type: integer }
  NewSubscribedEvent:
    fields:
      Type: { type: string, required: true }
      SchemaVersion: { type: integer }
  SubscribedEvents:
    fields:
      types: { type: list<SubscribedEvent> }
  Session:
    fields:
      sid: { type: string, pattern: "^KC[0-9a-fA-F]{32}$" }
      unique_name: { type: string }
  NewSession:
    fields:
      UniqueName: { type: string }
      Participants: { type: list<json> }
  Participant:
    fields:
      sid: { type: string, pattern: "^KP[0-9a-fA-F]{32}$" }
      session_sid: { type: string, pattern: "^KC[0-9a-fA-F]{32}$" }
      identifier: { type: string }
      friendly_name: { type: string }
  NewParticipant:
    fields:
      Identifier: { type: string, required: true }
      FriendlyName: { type: string }
  Participants:
    fields:
      participants: { type: list<Participant> }
  Sessions:
    fields:
      sessions: { type: list<Session> }
operations:
  create_subscription:
    method: POST
    path: /v1/Subscriptions
    body: NewSubscription
    body_encoding: form
    response: Subscription
    status: [201]
  list_subscription:
    method: GET
    path: /v1/Subscriptions
    response: Subscriptions
  fetch_subscription:
    method: GET
    path: /v1/Subscriptions/{Sid}
    path_params: { Sid: { type: string } }
    response: Subscription
  create_subscribed_event:
    method: POST
    path: /v1/Subscriptions/{SubscriptionSid}/SubscribedEvents
    path_params: { SubscriptionSid: { type: string } }
    body: NewSubscribedEvent
    body_encoding: form
    response: SubscribedEvent
    status: [201]
  list_subscribed_event:
    method: GET
    path: /v1/Subscriptions/{SubscriptionSid}/SubscribedEvents
    path_params: { SubscriptionSid: { type: string } }
    response: SubscribedEvents
  fetch_subscribed_event:
    method: GET
    path: /v1/Subscriptions/{SubscriptionSid}/SubscribedEvents/{Type}
    path_params: { SubscriptionSid: { type: string }, Type: { type: string } }
    response: SubscribedEvent
  create_session:
    method: POST
    path: /v1/Sessions
    body: NewSession
    body_encoding: form
    response: Session
    status: [201]
  list_session:
    method: GET
    path: /v1/Sessions
    response: Sessions
  fetch_session:
    method: GET
    path: /v1/Sessions/{Sid}
    path_params: { Sid: { type: string } }
    response: Session
  create_participant:
    method: POST
    path: /v1/Sessions/{SessionSid}/Participants
    path_params: { SessionSid: { type: string } }
    body: NewParticipant
    body_encoding: form
    response: Participant
    status: [201]
  list_participant:
    method: GET
    path: /v1/Sessions/{SessionSid}/Participants
    path_params: { SessionSid: { type: string } }
    response: Participants
"#,
    )
    .await;
    let auth = basic_of(&served, "account_sid", "auth_token");
    let get = |path: String| {
        let auth = auth.clone();
        let served = &served;
        async move { call_json(served, ("authorization", &auth), "GET", &path, None).await }
    };
    let types = [
        ("Description", "s1"),
        (
            "Types",
            r#"{"type":"com.twilio.messaging.message.delivered","schema_version":1}"#,
        ),
        (
            "Types",
            r#"{"type":"com.twilio.messaging.message.failed","schema_version":2}"#,
        ),
    ];
    let (status, made) = post_form(&served, &auth, "/v1/Subscriptions", &types).await;
    assert_eq!(status, 201, "{made}");
    let sid = made["sid"].as_str().unwrap().to_owned();
    let (status, listed) = get(format!("/v1/Subscriptions/{sid}/SubscribedEvents")).await;
    assert_eq!(status, 200, "{listed}");
    let listed = listed["types"].as_array().unwrap().clone();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[1]["type"], "com.twilio.messaging.message.failed");
    assert_eq!(listed[1]["schema_version"], 2);
    assert_eq!(listed[0]["subscription_sid"], sid.as_str());
    let one =
        format!("/v1/Subscriptions/{sid}/SubscribedEvents/com.twilio.messaging.message.delivered");
    let (status, read) = get(one).await;
    assert_eq!(
        (status, &read["schema_version"]),
        (200, &serde_json::json!(1)),
        "{read}"
    );
    // A list matched by its keys alone that the children's create refuses is no list of
    // children: the create stands, and keeps none.
    let loose = [("Description", "s2"), ("Types", r#"{"schema_version":1}"#)];
    let (status, made) = post_form(&served, &auth, "/v1/Subscriptions", &loose).await;
    assert_eq!(status, 201, "{made}");
    let sid = made["sid"].as_str().unwrap().to_owned();
    let (_, listed) = get(format!("/v1/Subscriptions/{sid}/SubscribedEvents")).await;
    assert_eq!(listed["types"], serde_json::json!([]), "{listed}");
    // A list named as the child collection is (Proxy's `Participants`).
    let people = [
        ("UniqueName", "sess1"),
        (
            "Participants",
            r#"{"Identifier":"+15558675310","FriendlyName":"Alice"}"#,
        ),
        ("Participants", r#"{"Identifier":"+15558675311"}"#),
    ];
    let (status, session) = post_form(&served, &auth, "/v1/Sessions", &people).await;
    assert_eq!(status, 201, "{session}");
    let sid = session["sid"].as_str().unwrap();
    let (_, listed) = get(format!("/v1/Sessions/{sid}/Participants")).await;
    let listed = listed["participants"].as_array().unwrap().clone();
    let names: Vec<_> = listed.iter().map(|p| p["identifier"].clone()).collect();
    assert_eq!(names, ["+15558675310", "+15558675311"], "{listed:?}");
    assert_eq!(listed[0]["friendly_name"], "Alice");
    assert!(
        listed[0]["sid"].as_str().unwrap().starts_with("KP"),
        "{listed:?}"
    );
    // A listed child its own create would refuse refuses the whole create, where the list is
    // named as the children's collection, and nothing is kept: no session, no half of its
    // participants.
    let count = || async {
        let (_, all) = get("/v1/Sessions".to_owned()).await;
        all["sessions"].as_array().map(Vec::len)
    };
    let before = count().await;
    let bad = [
        ("UniqueName", "sess2"),
        ("Participants", r#"{"Identifier":"+15558675312"}"#),
        ("Participants", r#"{"FriendlyName":"Bob"}"#),
    ];
    let (status, refused) = post_form(&served, &auth, "/v1/Sessions", &bad).await;
    assert!(matches!(status, 400 | 422), "{status} {refused}");
    assert!(
        refused.to_string().contains("Participants[1].Identifier"),
        "{refused}"
    );
    assert_eq!(count().await, before);
}

#[tokio::test]
async fn a_path_naming_no_item_by_id_is_not_an_item_of_that_name() {
    // Telnyx: `GET /messaging_profiles/p5` answered the profile named `p5`, and `DELETE
    // /outbound_voice_profiles/abc` deleted the one named `abc`: a name is no id. A unique
    // name still stands for its item (Twilio Sync, Postmark's alias).
    let (_dir, served, auth) = served_with_key(
        "tel",
        r#"types:
  Profile:
    fields:
      id: { type: string, format: uuid }
      name: { type: string }
      unique_name: { type: string }
  NewProfile:
    fields:
      name: { type: string, required: true }
      unique_name: { type: string }
operations:
  create_profile:
    method: POST
    path: /profiles
    body: NewProfile
    response: Profile
  get_profile:
    method: GET
    path: /profiles/{id}
    path_params: { id: { type: string } }
    response: Profile
  delete_profile:
    method: DELETE
    path: /profiles/{id}
    path_params: { id: { type: string } }
    response: Profile
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    let body = serde_json::json!({"name": "abc", "unique_name": "office"});
    let (status, made) = call_json(&served, key, "POST", "/profiles", Some(body)).await;
    assert_eq!(status, 200, "{made}");
    let (status, read) = call_json(&served, key, "GET", "/profiles/abc", None).await;
    assert_eq!(status, 404, "{read}");
    let (status, gone) = call_json(&served, key, "DELETE", "/profiles/abc", None).await;
    assert_eq!(status, 404, "{gone}");
    let (status, read) = call_json(&served, key, "GET", "/profiles/office", None).await;
    assert_eq!((status, &read["id"]), (200, &made["id"]), "{read}");
}

#[tokio::test]
async fn an_update_stamps_a_text_time_shown_by_example_with_now() {
    // Telnyx's outbound voice profile: `updated_at` is text with the example
    // `2018-02-02T22:25:27.521Z`; a PATCH set it back to that 2018 example.
    let (_dir, served, auth) = served_with_key(
        "ovp",
        r#"types:
  Profile:
    fields:
      id: { type: string }
      name: { type: string }
      created_at: { type: string, example: "2018-02-02T22:25:27.521Z" }
      updated_at: { type: string, example: "2018-02-02T22:25:27.521Z" }
  NewProfile:
    fields:
      name: { type: string, required: true }
  ProfileChange:
    fields:
      name: { type: string }
operations:
  create_profile:
    method: POST
    path: /profiles
    body: NewProfile
    response: Profile
  get_profile:
    method: GET
    path: /profiles/{id}
    path_params: { id: { type: string } }
    response: Profile
  update_profile:
    method: PATCH
    path: /profiles/{id}
    path_params: { id: { type: string } }
    body: ProfileChange
    response: Profile
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    let body = serde_json::json!({"name": "office"});
    let (_, made) = call_json(&served, key, "POST", "/profiles", Some(body)).await;
    let path = format!("/profiles/{}", made["id"].as_str().unwrap());
    let change = serde_json::json!({"name": "office2"});
    let (status, changed) = call_json(&served, key, "PATCH", &path, Some(change)).await;
    assert_eq!(status, 200, "{changed}");
    let (created, updated) = (
        made["created_at"].as_str().unwrap(),
        changed["updated_at"].as_str().unwrap(),
    );
    assert!(!created.starts_with("2018"), "{made}");
    assert!(updated >= created, "{changed}");
}

#[tokio::test]
async fn a_list_only_collection_keeps_what_was_sent_and_made_once() {
    // An action's config that takes other keys: its `to` (a field of the send request too)
    // was dropped from the list as another type's. Another type's secret stays out of the
    // answer. Mailscript: `createdAt` of a collection with no read of one item was made anew
    // at each list.
    let (_dir, served, auth) = served_with_key(
        "ms",
        r#"types:
  Action:
    fields:
      id: { type: string }
      name: { type: string, required: true }
      createdAt: { type: datetime, required: true }
      config: { type: ActionConfig, required: true }
    additional: json
  ActionConfig:
    fields:
      subject: { type: string, required: true }
      type: { type: string, required: true }
    additional: json
    keeps_other_keys: true
  SendRequest:
    fields:
      to: { type: string, required: true }
      type: { type: string }
      password: { type: string }
  NewAction:
    fields:
      name: { type: string, required: true }
      config: { type: json, required: true }
  Created:
    fields:
      id: { type: string, required: true }
  Actions:
    fields:
      list: { type: list<Action>, required: true }
operations:
  add_action:
    method: POST
    path: /actions
    body: NewAction
    response: Created
    status: [201]
  get_all_actions:
    method: GET
    path: /actions
    response: Actions
  send:
    method: POST
    path: /send
    body: SendRequest
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    let body = serde_json::json!({"name": "a1", "config": {
        "type": "send", "subject": "Hi", "to": "x@example.com", "password": "p"}});
    let (status, made) = call_json(&served, key, "POST", "/actions", Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let (_, first) = call_json(&served, key, "GET", "/actions", None).await;
    let config = &first["list"][0]["config"];
    assert_eq!(
        (&config["to"], &config["subject"], &config["type"]),
        (
            &serde_json::json!("x@example.com"),
            &serde_json::json!("Hi"),
            &serde_json::json!("send")
        ),
        "{first}"
    );
    assert!(config.get("password").is_none(), "{first}");
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let (_, again) = call_json(&served, key, "GET", "/actions", None).await;
    assert_eq!(
        again["list"][0]["createdAt"], first["list"][0]["createdAt"],
        "{again}"
    );
}

#[tokio::test]
async fn a_create_of_many_answers_the_list_of_what_it_made() {
    // CallFire: `POST /contacts` with a list answers `ResourceIdList` (`{"items": [{"id"}]}`);
    // it answered `{}`, and a client could not learn the ids of the contacts it made.
    let (_dir, served, auth) = served_with_key(
        "cf",
        r#"types:
  Contact:
    fields:
      id: { type: integer }
      firstName: { type: string }
  NewContact:
    fields:
      firstName: { type: string }
  ResourceId:
    fields:
      id: { type: integer, required: true }
  ResourceIdList:
    fields:
      items: { type: list<ResourceId> }
operations:
  create_contacts:
    method: POST
    path: /contacts
    body: list<NewContact>
    response: ResourceIdList
  get_contact:
    method: GET
    path: /contacts/{id}
    path_params: { id: { type: integer } }
    response: Contact
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    let body = serde_json::json!([{"firstName": "Ann"}, {"firstName": "Bob"}]);
    let (status, made) = call_json(&served, key, "POST", "/contacts", Some(body)).await;
    assert_eq!(status, 200, "{made}");
    let items = made["items"].as_array().expect("the ids made");
    assert_eq!(items.len(), 2, "{made}");
    for (item, name) in items.iter().zip(["Ann", "Bob"]) {
        let path = format!("/contacts/{}", item["id"]);
        let (status, read) = call_json(&served, key, "GET", &path, None).await;
        assert_eq!(
            (status, &read["firstName"]),
            (200, &serde_json::json!(name)),
            "{read}"
        );
    }
}

#[tokio::test]
async fn an_item_read_and_written_at_a_path_beneath_it_is_the_item() {
    // Vonage Media: `GET`/`PUT /{id}/info` beside `POST /` and `DELETE /{id}` read and
    // wrote a thing of their own: `{}` for the item just made, and for any id at all.
    let (_dir, served, auth) = served_with_key(
        "media",
        r#"types:
  Media:
    fields:
      id: { type: string, format: uuid }
      metadata_primary: { type: string }
      public: { type: boolean }
  NewMedia:
    fields:
      metadata_primary: { type: string }
  MediaChange:
    fields:
      metadata_primary: { type: string }
      public: { type: boolean }
  Embedded:
    fields:
      media: { type: list<Media> }
  MediaList:
    fields:
      _embedded: { type: Embedded }
operations:
  upload_media:
    method: POST
    path: /
    body: NewMedia
    response: Media
    status: [201]
  list_media:
    method: GET
    path: /
    response: MediaList
  retrieve_media:
    method: GET
    path: /{id}/info
    path_params: { id: { type: string } }
    response: Media
  update_media:
    method: PUT
    path: /{id}/info
    path_params: { id: { type: string } }
    body: MediaChange
  delete_media:
    method: DELETE
    path: /{id}
    path_params: { id: { type: string } }
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    let body = serde_json::json!({"metadata_primary": "m1"});
    let (status, made) = call_json(&served, key, "POST", "/", Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let info = format!("/{}/info", made["id"].as_str().unwrap());
    let (status, read) = call_json(&served, key, "GET", &info, None).await;
    assert_eq!((status, &read), (200, &made), "{read}");
    let change = serde_json::json!({"public": true});
    let (status, _) = call_json(&served, key, "PUT", &info, Some(change)).await;
    assert_eq!(status, 204);
    let (_, read) = call_json(&served, key, "GET", &info, None).await;
    assert_eq!(
        (&read["metadata_primary"], &read["public"]),
        (&made["metadata_primary"], &serde_json::json!(true)),
        "{read}"
    );
    let (_, listed) = call_json(&served, key, "GET", "/", None).await;
    assert_eq!(listed["_embedded"]["media"][0], read, "{listed}");
    let (status, _) = call_json(&served, key, "GET", "/nope/info", None).await;
    assert_eq!(status, 404);
    let item = format!("/{}", made["id"].as_str().unwrap());
    let (status, _) = call_json(&served, key, "DELETE", &item, None).await;
    assert_eq!(status, 204);
    let (status, _) = call_json(&served, key, "GET", &info, None).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_thing_of_an_items_own_is_a_404_under_an_item_not_held() {
    // Twilio TaskRouter: `GET /v1/Workspaces/{WorkspaceSid}/Statistics` answered 200 with
    // made-up statistics for a workspace that does not exist.
    let (_dir, served, auth) = served_with_key(
        "tr",
        r#"types:
  Workspace:
    fields:
      sid: { type: string, pattern: "^WS[0-9a-fA-F]{32}$" }
      friendly_name: { type: string }
  NewWorkspace:
    fields:
      FriendlyName: { type: string, required: true }
  Statistics:
    fields:
      workspace_sid: { type: string }
      total_tasks: { type: integer }
operations:
  create_workspace:
    method: POST
    path: /v1/Workspaces
    body: NewWorkspace
    response: Workspace
    status: [201]
  fetch_workspace:
    method: GET
    path: /v1/Workspaces/{Sid}
    path_params: { Sid: { type: string } }
    response: Workspace
  fetch_workspace_statistics:
    method: GET
    path: /v1/Workspaces/{WorkspaceSid}/Statistics
    path_params: { WorkspaceSid: { type: string } }
    response: Statistics
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    let body = serde_json::json!({"FriendlyName": "w"});
    let (status, made) = call_json(&served, key, "POST", "/v1/Workspaces", Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let sid = made["sid"].as_str().unwrap();
    let (status, stats) = call_json(
        &served,
        key,
        "GET",
        &format!("/v1/Workspaces/{sid}/Statistics"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{stats}");
    let unknown = "/v1/Workspaces/WS00000000000000000000000000000000/Statistics";
    let (status, stats) = call_json(&served, key, "GET", unknown, None).await;
    assert_eq!(status, 404, "{stats}");
}

#[tokio::test]
async fn a_batch_answering_a_list_answers_one_entry_per_thing_sent() {
    // Postmark's `POST /email/batch` answers one `{To, MessageID, ...}` per message sent; it
    // answered `[{}]` whatever was sent.
    let (_dir, served, auth) = served_with_key(
        "pm",
        r#"types:
  Email:
    fields:
      From: { type: string, required: true }
      To: { type: string, required: true }
      Subject: { type: string }
  SendResult:
    fields:
      To: { type: string }
      MessageID: { type: string }
      ErrorCode: { type: integer }
  Batch:
    fields:
      Messages: { type: list<Email>, required: true }
operations:
  send_email_batch:
    method: POST
    path: /email/batch
    body: list<Email>
    response: list<SendResult>
  send_email_batch_with_templates:
    method: POST
    path: /email/batchWithTemplates
    body: Batch
    response: list<SendResult>
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    let body = serde_json::json!([
        {"From": "a@example.com", "To": "b@example.com", "Subject": "one"},
        {"From": "a@example.com", "To": "c@example.com", "Subject": "two"},
    ]);
    let (status, sent) = call_json(&served, key, "POST", "/email/batch", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    let sent = sent.as_array().expect("a list").clone();
    let to: Vec<_> = sent.iter().map(|s| s["To"].clone()).collect();
    assert_eq!(to, ["b@example.com", "c@example.com"], "{sent:?}");
    let (first, second) = (&sent[0]["MessageID"], &sent[1]["MessageID"]);
    assert!(first.is_string() && first != second, "{sent:?}");
    // The batch in the body's one list (`/email/batchWithTemplates`, `{"Messages": [...]}`).
    let body = serde_json::json!({"Messages": [
        {"From": "a@example.com", "To": "d@example.com"},
        {"From": "a@example.com", "To": "e@example.com"},
    ]});
    let (status, sent) = call_json(
        &served,
        key,
        "POST",
        "/email/batchWithTemplates",
        Some(body),
    )
    .await;
    assert_eq!(status, 200, "{sent}");
    let to: Vec<_> = sent
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["To"].clone())
        .collect();
    assert_eq!(to, ["d@example.com", "e@example.com"], "{sent}");
}

#[tokio::test]
async fn a_page_says_the_page_and_size_asked_where_its_style_names_no_field_of_them() {
    // Vonage Media: `page_index` ("used in your request") and `page_size` beside
    // `_embedded.media` were always 0, whatever page was asked for.
    let (_dir, served, auth) = served_with_key(
        "vm",
        r#"types:
  Media:
    fields:
      id: { type: string }
      name: { type: string }
  Embedded:
    fields:
      media: { type: list<Media> }
  MediaPage:
    fields:
      _embedded: { type: Embedded }
      page_index: { type: integer, default: 0 }
      page_size: { type: integer, default: 0 }
operations:
  upload_media:
    method: POST
    path: /media
    body: Media
    response: Media
  list_media:
    method: GET
    path: /media
    query:
      page_index: { type: integer }
      page_size: { type: integer }
    response: MediaPage
    pagination: { style: page, items_field: _embedded.media, page_param: page_index, size_param: page_size, first_page: 0 }
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    for n in 0..5 {
        let body = serde_json::json!({"name": format!("m{n}")});
        call_json(&served, key, "POST", "/media", Some(body)).await;
    }
    let (status, page) =
        call_json(&served, key, "GET", "/media?page_index=1&page_size=2", None).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(
        page["_embedded"]["media"].as_array().map(Vec::len),
        Some(2),
        "{page}"
    );
    assert_eq!(
        (&page["page_index"], &page["page_size"]),
        (&serde_json::json!(1), &serde_json::json!(2)),
        "{page}"
    );
}

#[tokio::test]
async fn text_every_server_error_shows_is_not_a_client_errors() {
    // Vonage Messages: each 500 shows `title: "Internal error"` and a fixed `instance`, and
    // so do the fields' own examples; every 401 and 422 answered that title and instance.
    let example = "{ description: no, content: { application/json: { schema: { $ref: \"#/components/schemas/ErrorInternal\" }, example: { type: \"https://example.com/errors#internal\", title: Internal error, detail: Something failed, instance: bf0ca0bf927b3b52e3cb03217e1a1ddf } } } }";
    let document = format!(
        r##"
openapi: 3.0.1
info: {{ title: Messages, version: "1" }}
security: [ {{ bearer: [] }} ]
components:
  securitySchemes: {{ bearer: {{ type: http, scheme: bearer }} }}
  schemas:
    ErrorInternal: {{ type: object, required: [type, title, detail, instance], properties: {{ type: {{ type: string }}, title: {{ type: string, example: Internal error }}, detail: {{ type: string }}, instance: {{ type: string, example: bf0ca0bf927b3b52e3cb03217e1a1ddf }} }} }}
    Sent: {{ type: object, properties: {{ message_uuid: {{ type: string }} }} }}
paths:
  /messages:
    post:
      operationId: sendMessage
      requestBody: {{ required: true, content: {{ application/json: {{ schema: {{ type: object, required: [to], properties: {{ to: {{ type: string }} }} }} }} }} }}
      responses: {{ "202": {{ description: ok, content: {{ application/json: {{ schema: {{ $ref: "#/components/schemas/Sent" }} }} }} }}, "500": {example} }}
  /messages/{{id}}:
    get:
      operationId: getMessage
      parameters: [ {{ name: id, in: path, required: true, schema: {{ type: string }} }} ]
      responses: {{ "200": {{ description: ok, content: {{ application/json: {{ schema: {{ $ref: "#/components/schemas/Sent" }} }} }} }}, "500": {example} }}
"##
    );
    let (served, _dir) = serve_document(&document, "messages.yaml", "messages").await;
    let (status, refused) = call_json(
        &served,
        ("Authorization", "Bearer wrong"),
        "POST",
        "/messages",
        Some(serde_json::json!({"to": "447700900000"})),
    )
    .await;
    assert_eq!(status, 401, "{refused}");
    assert_ne!(refused["title"], "Internal error", "{refused}");
    assert_ne!(
        refused["instance"], "bf0ca0bf927b3b52e3cb03217e1a1ddf",
        "{refused}"
    );
}

#[tokio::test]
async fn a_create_verb_beside_a_list_verb_and_rest_item_paths_keeps_its_items() {
    // ZoomConnect: `POST /contacts/create`, `GET /contacts/all` and `GET`/`POST`/`DELETE
    // /contacts/{contactId}`: the create kept nothing, the list was always empty and the read
    // of the id it answered a 404.
    let (_dir, served, auth) = served_with_key(
        "zc",
        r#"types:
  Contact:
    fields:
      contactId: { type: string }
      firstName: { type: string }
      contactNumber: { type: string }
  Contacts:
    fields:
      webServiceContacts: { type: list<Contact> }
operations:
  create_contact:
    method: POST
    path: /api/rest/v1/contacts/create
    body: Contact
    response: Contact
  all_contacts:
    method: GET
    path: /api/rest/v1/contacts/all
    response: Contacts
  get_contact:
    method: GET
    path: /api/rest/v1/contacts/{contactId}
    path_params: { contactId: { type: string } }
    response: Contact
  update_contact:
    method: POST
    path: /api/rest/v1/contacts/{contactId}
    path_params: { contactId: { type: string } }
    body: Contact
    response: Contact
  delete_contact:
    method: DELETE
    path: /api/rest/v1/contacts/{contactId}
    path_params: { contactId: { type: string } }
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    let body = serde_json::json!({"firstName": "Ann", "contactNumber": "+27821234567"});
    let (status, made) = call_json(
        &served,
        key,
        "POST",
        "/api/rest/v1/contacts/create",
        Some(body),
    )
    .await;
    assert!(status == 200 || status == 201, "{status} {made}");
    let id = made["contactId"].as_str().expect("an id").to_owned();
    let (_, all) = call_json(&served, key, "GET", "/api/rest/v1/contacts/all", None).await;
    assert_eq!(
        all["webServiceContacts"][0]["contactId"],
        id.as_str(),
        "{all}"
    );
    let item = format!("/api/rest/v1/contacts/{id}");
    let change = serde_json::json!({"firstName": "Annie"});
    let (status, changed) = call_json(&served, key, "POST", &item, Some(change)).await;
    assert_eq!(
        (status, &changed["firstName"]),
        (200, &serde_json::json!("Annie")),
        "{changed}"
    );
    let (_, read) = call_json(&served, key, "GET", &item, None).await;
    assert_eq!(read["firstName"], "Annie", "{read}");
    call_json(&served, key, "DELETE", &item, None).await;
    let (status, _) = call_json(&served, key, "GET", &item, None).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_send_is_read_and_listed_where_its_id_is_read() {
    // ZoomConnect: `POST /sms/send` answers `messageId`, read at `GET /messages/{message_id}`
    // (the importer's name for `messageId`) and listed at `GET /messages/all`; a `GET
    // /sms/send` shows what to send. The message was a 404, and the list always empty.
    let (_dir, served, auth) = served_with_key(
        "zs",
        r#"types:
  SendRequest:
    fields:
      recipientNumber: { type: string, required: true }
      message: { type: string, required: true }
  SendResponse:
    fields:
      messageId: { type: string }
  Message:
    fields:
      messageId: { type: string }
      message: { type: string }
      recipientNumber: { type: string }
  Messages:
    fields:
      webServiceMessages: { type: list<Message> }
operations:
  send_example:
    method: GET
    path: /sms/send
    response: SendRequest
  send_sms:
    method: POST
    path: /sms/send
    body: SendRequest
    response: SendResponse
  all_messages:
    method: GET
    path: /messages/all
    response: Messages
  get_message:
    method: GET
    path: /messages/{message_id}
    path_params: { message_id: { type: string } }
    response: Message
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    let body = serde_json::json!({"recipientNumber": "+27821234567", "message": "hello"});
    let (_, sent) = call_json(&served, key, "POST", "/sms/send", Some(body)).await;
    let id = sent["messageId"].as_str().expect("an id").to_owned();
    let (status, read) = call_json(&served, key, "GET", &format!("/messages/{id}"), None).await;
    assert_eq!(
        (status, &read["message"]),
        (200, &serde_json::json!("hello")),
        "{read}"
    );
    let (_, all) = call_json(&served, key, "GET", "/messages/all", None).await;
    assert_eq!(
        all["webServiceMessages"][0]["messageId"],
        id.as_str(),
        "{all}"
    );
}

#[tokio::test]
async fn an_item_view_beside_a_list_that_nests_its_items_is_the_item() {
    // Vonage Media's own document has no upload: `GET /` lists `_embedded.media`, and `GET
    // /{id}/info` answered 200 `{}` for any id at all.
    let (_dir, served, auth) = served_with_key(
        "vmv",
        r#"types:
  Media:
    fields:
      id: { type: string }
      public: { type: boolean }
  Embedded:
    fields:
      media: { type: list<Media> }
  MediaList:
    fields:
      _embedded: { type: Embedded }
operations:
  list_media:
    method: GET
    path: /
    response: MediaList
  retrieve_media:
    method: GET
    path: /{id}/info
    path_params: { id: { type: string } }
    response: Media
  delete_media:
    method: DELETE
    path: /{id}
    path_params: { id: { type: string } }
"#,
    )
    .await;
    let key = ("authorization", auth.as_str());
    let (status, read) = call_json(&served, key, "GET", "/nope/info", None).await;
    assert_eq!(status, 404, "{read}");
}
