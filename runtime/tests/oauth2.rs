//! OAuth2 client credentials against a local token endpoint and a local API, over loopback:
//! one token fetch for concurrent callers and clones, a refresh before the token expires, a
//! 401 answered by one new token and one more attempt (not more), a refused client as an auth
//! error, and the secret and tokens in no `Debug` output or error.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod common;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use common::{Recorded, Reply, TestServer};
use tidings_runtime::spec::*;
use tidings_runtime::*;

const CLIENT_ID: &str = "client-7";
/// Characters that must be form-encoded before Basic (RFC 6749 section 2.3.1).
const CLIENT_SECRET: &str = "s3cr+t/with:colon";

#[derive(Default)]
struct Issuer {
    /// Token -> (issued at, lifetime).
    issued: Vec<(String, Instant, Duration)>,
    revoked: HashSet<String>,
    lifetime: Duration,
    refuse_all: bool,
}

struct Endpoints {
    token: TestServer,
    api: TestServer,
    issuer: Arc<Mutex<Issuer>>,
    spec: &'static ServiceSpec,
}

static OP: OperationSpec = OperationSpec::get("get_thing", "/v1/things/1");

async fn endpoints(lifetime: Duration) -> Endpoints {
    let issuer = Arc::new(Mutex::new(Issuer {
        lifetime,
        ..Issuer::default()
    }));
    let state = Arc::clone(&issuer);
    let token = TestServer::start(move |_, r: &Recorded| {
        let expected = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD
                .encode(format!("{CLIENT_ID}:s3cr%2Bt%2Fwith%3Acolon"))
        );
        if r.method != "POST" || r.header("authorization") != Some(expected.as_str()) {
            return Reply::json(
                401,
                r#"{"error":"invalid_client","error_description":"unknown client"}"#,
            );
        }
        let form: Vec<(String, String)> =
            url::form_urlencoded::parse(&r.body).into_owned().collect();
        let has = |k: &str, v: &str| form.iter().any(|(a, b)| a == k && b == v);
        if !has("grant_type", "client_credentials") || !has("scope", "things.read things.write") {
            return Reply::json(400, r#"{"error":"invalid_request"}"#);
        }
        let mut issuer = state.lock().unwrap();
        let token = format!("tok_{}", issuer.issued.len() + 1);
        let life = issuer.lifetime;
        issuer.issued.push((token.clone(), Instant::now(), life));
        Reply::json(
            200,
            &format!(
                r#"{{"access_token":"{token}","token_type":"bearer","expires_in":{}}}"#,
                life.as_secs_f64()
            ),
        )
    })
    .await;
    let state = Arc::clone(&issuer);
    let api = TestServer::start(move |_, r: &Recorded| {
        let issuer = state.lock().unwrap();
        let token = r
            .header("authorization")
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or_default();
        let valid = !issuer.refuse_all
            && !issuer.revoked.contains(token)
            && issuer
                .issued
                .iter()
                .any(|(t, at, life)| t == token && at.elapsed() < *life);
        if valid {
            Reply::json(200, &format!(r#"{{"token":"{token}"}}"#))
        } else {
            Reply::json(
                401,
                r#"{"error":{"code":"invalid_token","message":"expired"}}"#,
            )
        }
    })
    .await;
    let token_url: &'static str = Box::leak(format!("{}/oauth/token", token.base_url()).into());
    let spec = things_spec(token_url, &["things.read", "things.write"]);
    Endpoints {
        token,
        api,
        issuer,
        spec,
    }
}

/// The "things" service: OAuth2 client credentials at `token_url` (leaked: a spec is static).
fn things_spec(token_url: &'static str, scopes: &'static [&'static str]) -> &'static ServiceSpec {
    let auth: &'static [AuthScheme] = Box::leak(Box::new([AuthScheme::OAuth2ClientCredentials {
        token_url,
        client_id: "client_id",
        client_secret: "client_secret",
        scopes,
    }]));
    Box::leak(Box::new(ServiceSpec {
        name: "things",
        title: "Things",
        base_url: None,
        base_url_env: "COMMS_TEST_THINGS_BASE_URL",
        credentials: &[
            CredentialSpec {
                name: "client_id",
                env: "COMMS_TEST_THINGS_CLIENT_ID",
                secret: false,
                value: None,
            },
            CredentialSpec {
                name: "client_secret",
                env: "COMMS_TEST_THINGS_CLIENT_SECRET",
                secret: true,
                value: None,
            },
        ],
        auth,
        rate_limit: None,
        rate_limit_headers: RateLimitHeaders::NONE,
        retry: RetrySpec::DEFAULT,
        timeouts: TimeoutSpec::DEFAULT,
        idempotency: None,
        errors: ErrorSpec::DEFAULT,
    }))
}

fn client(e: &Endpoints, secret: &str) -> Client {
    Client::builder(e.spec)
        .base_url(e.api.base_url())
        .credential("client_id", CLIENT_ID)
        .credential("client_secret", secret.to_owned())
        .retry(RetryPolicy::none())
        .attempt_timeout(Duration::from_secs(5))
        .build()
        .unwrap()
}

async fn token_used(client: &Client) -> Result<String, Error> {
    let body: serde_json::Value = client
        .execute(tidings_runtime::Request::new(&OP))
        .await?
        .json()?;
    Ok(body["token"].as_str().unwrap().to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_callers_and_clones_share_one_token_fetch() {
    let e = endpoints(Duration::from_secs(3600)).await;
    let client = client(&e, CLIENT_SECRET);
    let calls: Vec<_> = (0..24)
        .map(|_| {
            let clone = client.clone();
            tokio::spawn(async move { token_used(&clone).await })
        })
        .collect();
    for call in calls {
        assert_eq!(call.await.unwrap().unwrap(), "tok_1");
    }
    assert_eq!(e.token.count(), 1, "one fetch for 24 concurrent callers");
    assert_eq!(token_used(&client).await.unwrap(), "tok_1", "cached");
    assert_eq!(e.token.count(), 1);
    let debug = format!("{client:?}");
    assert!(
        !debug.contains(CLIENT_SECRET) && !debug.contains("tok_1"),
        "{debug}"
    );
}

#[tokio::test]
async fn the_token_is_refreshed_before_it_expires() {
    let e = endpoints(Duration::from_secs(2)).await;
    let client = client(&e, CLIENT_SECRET);
    assert_eq!(token_used(&client).await.unwrap(), "tok_1");
    // Still valid for 0.3 s more, but within the last fifth of its life: replaced.
    tokio::time::sleep(Duration::from_millis(1700)).await;
    assert_eq!(token_used(&client).await.unwrap(), "tok_2");
    assert_eq!(e.token.count(), 2);
    assert_eq!(e.api.count(), 2, "no attempt was refused on the way");
}

#[tokio::test]
async fn a_401_fetches_a_new_token_and_tries_once_more_and_only_once() {
    let e = endpoints(Duration::from_secs(3600)).await;
    let client = client(&e, CLIENT_SECRET);
    assert_eq!(token_used(&client).await.unwrap(), "tok_1");
    e.issuer.lock().unwrap().revoked.insert("tok_1".into());
    assert_eq!(token_used(&client).await.unwrap(), "tok_2");
    assert_eq!((e.token.count(), e.api.count()), (2, 3));

    e.issuer.lock().unwrap().refuse_all = true;
    let err = token_used(&client).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Auth, "{err}");
    assert_eq!(err.status(), Some(401));
    assert_eq!(
        (e.token.count(), e.api.count()),
        (3, 5),
        "one new token and one more attempt, no loop"
    );
    let shown = format!("{err} {err:?} {err:#?}");
    assert!(
        !shown.contains("tok_") && !shown.contains(CLIENT_SECRET),
        "{shown}"
    );
}

#[tokio::test]
async fn a_refused_client_is_an_auth_error_that_names_the_token_endpoint_not_the_secret() {
    let e = endpoints(Duration::from_secs(3600)).await;
    let client = client(&e, "wrong-secret-value");
    let err = token_used(&client).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Auth, "{err}");
    assert_eq!(err.code(), Some("invalid_client"));
    let shown = format!("{err} {err:#?}");
    assert!(shown.contains("/oauth/token"), "{shown}");
    assert!(shown.contains("unknown client"), "{shown}");
    assert!(!shown.contains("wrong-secret-value"), "{shown}");
    assert_eq!(e.api.count(), 0, "nothing reached the API without a token");
}

#[test]
fn missing_client_credentials_are_named_with_their_variables() {
    let spec = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(endpoints(Duration::from_secs(1)))
        .spec;
    let err = Client::builder(spec)
        .base_url("http://127.0.0.1:9")
        .build()
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("COMMS_TEST_THINGS_CLIENT_ID")
            && text.contains("COMMS_TEST_THINGS_CLIENT_SECRET"),
        "{text}"
    );
}

#[tokio::test]
async fn schemes_are_alternatives_and_an_operation_can_name_its_own_with_one_shared_token() {
    let e = endpoints(Duration::from_secs(3600)).await;
    // The client's default: a key with a prefix (`Authorization: App <key>`); one operation
    // names the OAuth2 scheme instead.
    let schemes: &'static [AuthScheme] = Box::leak(Box::new([
        AuthScheme::Header {
            header: "Authorization",
            credential: "api_key",
            prefix: Some("App "),
        },
        e.spec.auth[0],
    ]));
    let mut spec = *e.spec;
    spec.auth = schemes;
    spec.credentials = Box::leak(Box::new([
        spec.credentials[0],
        spec.credentials[1],
        CredentialSpec {
            name: "api_key",
            env: "COMMS_TEST_THINGS_API_KEY",
            secret: true,
            value: None,
        },
    ]));
    let spec: &'static ServiceSpec = Box::leak(Box::new(spec));
    let report: &'static OperationSpec = Box::leak(Box::new(
        OperationSpec::get("get_report", "/v1/reports/1").with_auth(e.spec.auth[0]),
    ));
    let client = Client::builder(spec)
        .base_url(e.api.base_url())
        .credential("api_key", "key-42")
        .credential("client_id", CLIENT_ID)
        .credential("client_secret", CLIENT_SECRET)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    // The default scheme: the API refuses it (it knows only tokens), which shows what was sent.
    let err = client
        .execute(tidings_runtime::Request::new(&OP))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(401));
    assert_eq!(
        e.api.requests()[0].header("authorization"),
        Some("App key-42")
    );
    assert_eq!(e.token.count(), 0, "the default scheme fetches no token");
    // The operation's own scheme, twice, and from a clone: one token.
    for c in [client.clone(), client.clone(), client.clone()] {
        let body: serde_json::Value = c
            .execute(tidings_runtime::Request::new(report))
            .await
            .unwrap()
            .json()
            .unwrap();
        assert_eq!(body["token"], "tok_1");
    }
    assert_eq!(
        e.token.count(),
        1,
        "per-call resolution shares the client's cache"
    );
    // A public operation (`auth: none`) goes without any credential: no key, no token.
    let public: &'static OperationSpec = Box::leak(Box::new(
        OperationSpec::get("get_time", "/v1/time").with_auth(AuthScheme::Anonymous),
    ));
    let err = client
        .execute(tidings_runtime::Request::new(public))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(401), "the API here knows only tokens");
    let sent = e.api.requests();
    let last = sent.last().unwrap();
    assert_eq!(last.path(), "/v1/time");
    assert_eq!(last.header("authorization"), None);
    assert_eq!(e.token.count(), 1, "no token fetched for it");
}

#[test]
fn a_token_url_on_plain_http_to_another_host_is_refused_unless_allowed() {
    // An absolute token URL on another host (an identity provider), without TLS.
    let spec = things_spec("http://login.example.com/oauth/token", &[]);
    let builder = || {
        Client::builder(spec)
            // The API itself on this machine: only the token URL is at stake.
            .base_url("http://127.0.0.1:9")
            .credential("client_id", CLIENT_ID)
            .credential("client_secret", "s3cret-value")
    };
    let err = builder().build().unwrap_err();
    let text = err.to_string();
    assert_eq!(err.kind(), ErrorKind::Config);
    assert!(
        text.contains("OAuth2 token URL `http://login.example.com/oauth/token` is plain HTTP")
            && text.contains("COMMS_TEST_THINGS_ALLOW_PLAIN_HTTP=1")
            && !text.contains("s3cret-value"),
        "{text}"
    );
    builder().allow_plain_http(true).build().unwrap();
}
