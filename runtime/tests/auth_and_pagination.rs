//! Auth schemes on the wire (bearer, query opt-in, Pusher signing, a custom signer, the
//! caller's own `reqwest::Client`) and cursor pagination against a loopback server.

mod common;

use std::sync::Arc;

use common::*;
use futures_util::StreamExt;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use tidings_runtime::spec::*;
use tidings_runtime::*;

#[tokio::test]
async fn bearer_header_is_the_default_and_the_key_stays_out_of_the_url() {
    let server = TestServer::always(Reply::ok()).await;
    let client = email_client(&server).build().expect("client");
    client.execute(get_email("em_1")).await.expect("ok");
    let r = &server.requests()[0];
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {API_KEY}").as_str())
    );
    assert!(!r.target.contains(API_KEY));
    assert_eq!(r.header("accept"), Some("application/json"));
    assert!(
        r.header("user-agent")
            .is_some_and(|ua| ua.starts_with("tidings-runtime/"))
    );
}

#[tokio::test]
async fn query_auth_only_on_opt_in() {
    let server = TestServer::always(Reply::ok()).await;
    let client = email_client(&server).query_auth().build().expect("client");
    client.execute(get_email("em_1")).await.expect("ok");
    let r = &server.requests()[0];
    assert_eq!(r.query("api_key").as_deref(), Some(API_KEY));
    assert!(r.header("authorization").is_none());
}

/// Two query keys sent together (Vonage's `api_key` and `api_secret`).
static KEY_AND_SECRET: ServiceSpec = ServiceSpec {
    name: "numbers",
    title: "Numbers",
    base_url: None,
    base_url_env: "NUMBERS_BASE_URL",
    credentials: &[
        CredentialSpec {
            name: "api_key",
            env: "NUMBERS_API_KEY",
            secret: true,
            value: None,
        },
        CredentialSpec {
            name: "api_secret",
            env: "NUMBERS_API_SECRET",
            secret: true,
            value: None,
        },
    ],
    auth: &[AuthScheme::Query {
        params: &[("api_key", "api_key"), ("api_secret", "api_secret")],
    }],
    rate_limit: None,
    rate_limit_headers: RateLimitHeaders::NONE,
    retry: RetrySpec::DEFAULT,
    timeouts: TimeoutSpec::DEFAULT,
    idempotency: None,
    errors: ErrorSpec::DEFAULT,
};

#[tokio::test]
async fn query_keys_sent_together_each_travel_and_each_is_cut_out_of_an_error() {
    let (key, secret) = ("numbers-key-1", "numbers-secret-2");
    let server = TestServer::always(Reply::ok()).await;
    let builder = || {
        Client::builder(&KEY_AND_SECRET)
            .base_url(server.base_url())
            .credential("api_key", key)
            .credential("api_secret", secret)
    };
    // Query auth is still an opt-in: keys in URLs reach logs.
    assert!(builder().build().is_err());
    let client = builder().query_auth().build().expect("client");
    client.execute(get_email("em_1")).await.expect("ok");
    let r = &server.requests()[0];
    assert_eq!(r.query("api_key").as_deref(), Some(key));
    assert_eq!(r.query("api_secret").as_deref(), Some(secret));
    // One missing is named at build.
    let missing = Client::builder(&KEY_AND_SECRET)
        .base_url(server.base_url())
        .credential("api_key", key)
        .query_auth()
        .build()
        .unwrap_err();
    assert!(missing.to_string().contains("api_secret"), "{missing}");

    let refused =
        TestServer::always(Reply::json(401, r#"{"error":{"code":"invalid_api_key"}}"#)).await;
    let client = Client::builder(&KEY_AND_SECRET)
        .base_url(refused.base_url())
        .credential("api_key", key)
        .credential("api_secret", secret)
        .query_auth()
        .build()
        .unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    let url = &err.context().unwrap().url;
    assert!(url.ends_with("api_key=***&api_secret=***"), "{url}");
    let text = format!("{err} {err:?}");
    assert!(!text.contains(key) && !text.contains(secret), "{text}");
}

#[tokio::test]
async fn path_params_and_query_are_encoded() {
    let server = TestServer::always(Reply::ok()).await;
    let client = email_client(&server).build().expect("client");
    let request = get_email("a/b c");
    #[derive(serde::Serialize)]
    struct Q<'a> {
        limit: Option<u32>,
        after: Option<&'a str>,
        tag: &'a str,
    }
    let request = request
        .query(&Q {
            limit: Some(10),
            after: None,
            tag: "a&b=c",
        })
        .expect("query");
    client.execute(request).await.expect("ok");
    let r = &server.requests()[0];
    assert_eq!(r.path(), "/v1/emails/a%2Fb%20c");
    assert_eq!(
        r.query_pairs(),
        vec![
            ("limit".to_owned(), "10".to_owned()),
            ("tag".to_owned(), "a&b=c".to_owned())
        ]
    );
}

fn realtime_client(server: &TestServer) -> Client {
    Client::builder(&REALTIME)
        .base_url(server.base_url())
        .credential("app_id", "3")
        .credential("key", PUSHER_KEY)
        .credential("secret", PUSHER_SECRET)
        .build()
        .expect("client")
}

/// Recomputes a Pusher signature the way a server does, from what arrived.
fn server_side_signature(r: &Recorded) -> String {
    let mut params: Vec<(String, String)> = r
        .query_pairs()
        .into_iter()
        .filter(|(k, _)| k != "auth_signature")
        .map(|(k, v)| (k.to_lowercase(), v))
        .collect();
    params.sort();
    let query = params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&");
    let mut mac = Hmac::<Sha256>::new_from_slice(PUSHER_SECRET.as_bytes()).expect("any key length");
    mac.update(format!("{}\n{}\n{}", r.method, r.path(), query).as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

#[tokio::test]
async fn pusher_signature_is_accepted_by_a_server_side_check() {
    let server = TestServer::always(Reply::json(200, "{}")).await;
    let client = realtime_client(&server);
    assert_eq!(client.credential_value("app_id"), Some("3"));
    assert_eq!(client.credential_value("secret"), None);

    let trigger = tidings_runtime::Request::new(&TRIGGER)
        .path_param("app_id", client.credential_value("app_id").expect("app id"))
        .json(&serde_json::json!({"name": "foo", "channels": ["project-3"], "data": "{\"some\":\"data\"}"}))
        .expect("body");
    client.execute(trigger).await.expect("ok");

    let channels = tidings_runtime::Request::new(&CHANNELS)
        .path_param("app_id", "3")
        .query(&[("filter_by_prefix", "presence-"), ("info", "user_count")])
        .expect("query");
    client.execute(channels).await.expect("ok");

    let reqs = server.requests();
    let post = &reqs[0];
    assert_eq!(post.path(), "/apps/3/events");
    assert_eq!(post.query("auth_key").as_deref(), Some(PUSHER_KEY));
    assert_eq!(post.query("auth_version").as_deref(), Some("1.0"));
    let md5 = post.query("body_md5").expect("body_md5 on POST");
    assert_eq!(md5.len(), 32);
    assert_eq!(
        post.query("auth_signature"),
        Some(server_side_signature(post))
    );
    assert!(!post.target.contains(PUSHER_SECRET));

    let get = &reqs[1];
    assert!(get.query("body_md5").is_none(), "no body_md5 on GET");
    assert_eq!(get.query("info").as_deref(), Some("user_count"));
    assert_eq!(
        get.query("auth_signature"),
        Some(server_side_signature(get))
    );
}

#[tokio::test]
async fn missing_signing_credential_fails_at_build() {
    let err = Client::builder(&REALTIME)
        .base_url("http://127.0.0.1:9")
        .credential("app_id", "3")
        .credential("key", PUSHER_KEY)
        .build()
        .expect_err("no secret");
    assert_eq!(err.kind(), ErrorKind::Config);
    assert!(err.to_string().contains("COMMS_TEST_SECRET"), "{err}");
}

#[derive(Debug)]
struct HeaderSigner;

impl Signer for HeaderSigner {
    fn sign(&self, request: &SignableRequest<'_>) -> Result<SignedParts, Error> {
        let mut parts = SignedParts::with_query(vec![(
            "sig".into(),
            format!("{}:{}", request.method, request.path),
        )]);
        parts.headers.insert(
            "x-signed-body-len",
            request
                .body
                .map_or(0, <[u8]>::len)
                .to_string()
                .parse()
                .expect("ascii"),
        );
        Ok(parts)
    }
}

#[tokio::test]
async fn custom_signer_is_called_per_attempt() {
    let server = TestServer::script(vec![Reply::json(503, "{}"), Reply::ok()]).await;
    let client = email_client(&server)
        .signer(Arc::new(HeaderSigner))
        .build()
        .expect("client");
    client.execute(get_email("em_1")).await.expect("ok");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    for r in &reqs {
        assert_eq!(r.query("sig").as_deref(), Some("GET:/v1/emails/em_1"));
        assert_eq!(r.header("x-signed-body-len"), Some("0"));
        assert!(r.header("authorization").is_none());
    }
}

#[tokio::test]
async fn callers_own_reqwest_client_is_used() {
    let server = TestServer::always(Reply::ok()).await;
    let mut defaults = reqwest::header::HeaderMap::new();
    defaults.insert("x-from-own-client", "yes".parse().expect("ascii"));
    let own = reqwest::Client::builder()
        .default_headers(defaults)
        .build()
        .expect("reqwest");
    let client = email_client(&server)
        .http_client(own)
        .build()
        .expect("client");
    client.execute(get_email("em_1")).await.expect("ok");
    assert_eq!(
        server.requests()[0].header("x-from-own-client"),
        Some("yes")
    );
}

fn page_server(
    pages: Vec<&'static str>,
) -> impl Fn(usize, &Recorded) -> Reply + Send + Sync + 'static {
    move |_, r| {
        let index = match r.query("after").as_deref() {
            None => 0,
            Some("em_2") => 1,
            Some("em_4") => 2,
            Some(_) => 2,
        };
        Reply::json(200, pages[index.min(pages.len() - 1)])
    }
}

#[tokio::test]
async fn paginate_streams_every_item_of_every_page() {
    let server = TestServer::start(page_server(vec![
        r#"{"object":"list","data":[{"id":"em_1"},{"id":"em_2"}],"has_more":true}"#,
        r#"{"object":"list","data":[{"id":"em_3"},{"id":"em_4"}],"has_more":true}"#,
        r#"{"object":"list","data":[{"id":"em_5"}],"has_more":false}"#,
    ]))
    .await;
    let client = email_client(&server).build().expect("client");
    let request = tidings_runtime::Request::new(&LIST_EMAILS)
        .query(&[("limit", "2")])
        .expect("query");
    #[derive(serde::Deserialize)]
    struct Item {
        id: String,
    }
    let items: Vec<Result<Item, Error>> = paginate(client, request, &PAGES).collect().await;
    let ids: Vec<String> = items.into_iter().map(|i| i.expect("item").id).collect();
    assert_eq!(ids, ["em_1", "em_2", "em_3", "em_4", "em_5"]);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    assert!(
        reqs.iter()
            .all(|r| r.query("limit").as_deref() == Some("2"))
    );
    assert_eq!(reqs[2].query("after").as_deref(), Some("em_4"));
}

#[tokio::test]
async fn paginate_stops_on_a_repeated_cursor() {
    // The server ignores `after` and always sends the same page.
    let server = TestServer::always(Reply::json(
        200,
        r#"{"data":[{"id":"em_1"}],"has_more":true}"#,
    ))
    .await;
    let client = email_client(&server).build().expect("client");
    let items: Vec<Result<serde_json::Value, Error>> =
        paginate(client, tidings_runtime::Request::new(&LIST_EMAILS), &PAGES)
            .collect()
            .await;
    assert_eq!(items.len(), 3, "two items, then the error");
    let err = items
        .into_iter()
        .last()
        .expect("last")
        .expect_err("repeated cursor");
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert!(err.to_string().contains("repeated"), "{err}");
    assert_eq!(server.count(), 2);
}

#[tokio::test]
async fn paginate_stops_when_has_more_comes_without_items() {
    let server = TestServer::always(Reply::json(200, r#"{"data":[],"has_more":true}"#)).await;
    let client = email_client(&server).build().expect("client");
    let items: Vec<Result<serde_json::Value, Error>> =
        paginate(client, tidings_runtime::Request::new(&LIST_EMAILS), &PAGES)
            .collect()
            .await;
    assert_eq!(items.len(), 1);
    assert!(items[0].is_err());
}

#[tokio::test]
async fn paginate_yields_an_api_error_and_ends() {
    let server = TestServer::always(Reply::json(
        401,
        r#"{"error":{"code":"invalid_api_key","message":"no"}}"#,
    ))
    .await;
    let client = email_client(&server).build().expect("client");
    let items: Vec<Result<serde_json::Value, Error>> =
        paginate(client, tidings_runtime::Request::new(&LIST_EMAILS), &PAGES)
            .collect()
            .await;
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].as_ref().expect_err("401").kind(), ErrorKind::Auth);
}

#[tokio::test]
async fn base_url_path_prefix_is_kept() {
    let server = TestServer::always(Reply::ok()).await;
    let client = Client::builder(&EMAIL)
        .base_url(format!("{}/proxy/api/", server.base_url()))
        .api_key(API_KEY)
        .build()
        .expect("client");
    client.execute(get_email("em_1")).await.expect("ok");
    assert_eq!(server.requests()[0].path(), "/proxy/api/v1/emails/em_1");
}

#[tokio::test]
async fn empty_credential_path_param_is_an_invalid_request() {
    // Generated code fills `app_id` from `credential_value`, which is "" when unset.
    let server = TestServer::always(Reply::ok()).await;
    let client = realtime_client(&server);
    let channels = tidings_runtime::Request::new(&CHANNELS).path_param(
        "app_id",
        client.credential_value("missing").unwrap_or_default(),
    );
    let err = client.execute(channels).await.expect_err("empty app id");
    assert!(
        matches!(err, Error::InvalidRequest { ref field, .. } if field == "app_id"),
        "{err}"
    );
    assert_eq!(server.count(), 0);
}

/// Several schemes are alternatives (Infobip: an `App` API key or HTTP Basic): the client
/// takes the first whose credentials are all set, and names the first's when none is.
#[tokio::test]
async fn the_default_scheme_is_the_first_whose_credentials_are_set() {
    static EITHER: ServiceSpec = ServiceSpec {
        name: "either",
        title: "Either",
        base_url: None,
        base_url_env: "COMMS_TEST_EITHER_BASE_URL",
        credentials: &[
            CredentialSpec {
                name: "api_key",
                env: "COMMS_TEST_EITHER_API_KEY",
                secret: true,
                value: None,
            },
            CredentialSpec {
                name: "username",
                env: "COMMS_TEST_EITHER_USERNAME",
                secret: false,
                value: None,
            },
            CredentialSpec {
                name: "password",
                env: "COMMS_TEST_EITHER_PASSWORD",
                secret: true,
                value: None,
            },
        ],
        auth: &[
            AuthScheme::Header {
                header: "Authorization",
                prefix: Some("App "),
                credential: "api_key",
            },
            AuthScheme::Basic {
                username: "username",
                password: Some("password"),
            },
        ],
        rate_limit: None,
        rate_limit_headers: RateLimitHeaders::STANDARD,
        retry: RetrySpec::DEFAULT,
        timeouts: TimeoutSpec::DEFAULT,
        idempotency: None,
        errors: ErrorSpec::DEFAULT,
    };
    let server = TestServer::always(Reply::ok()).await;
    let basic = Client::builder(&EITHER)
        .base_url(server.base_url())
        .credential("username", "ada")
        .credential("password", "s3cret")
        .build()
        .expect("Basic alone is enough");
    basic.execute(get_email("em_1")).await.expect("ok");
    let keyed = Client::builder(&EITHER)
        .base_url(server.base_url())
        .api_key("k1")
        .credential("username", "ada")
        .credential("password", "s3cret")
        .build()
        .unwrap();
    keyed.execute(get_email("em_1")).await.expect("ok");
    let requests = server.requests();
    assert_eq!(
        requests[0].header("authorization"),
        Some("Basic YWRhOnMzY3JldA==")
    );
    assert_eq!(
        requests[1].header("authorization"),
        Some("App k1"),
        "both set: the first scheme"
    );
    let none = Client::builder(&EITHER)
        .base_url(server.base_url())
        .credential("username", "ada")
        .build()
        .unwrap_err();
    assert!(
        none.to_string().contains("COMMS_TEST_EITHER_API_KEY"),
        "the first scheme's credential is named: {none}"
    );
}

/// A user name the provider fixes (Mailgun's HTTP Basic user is always `api`): the client
/// sends it when none is set, and one set replaces it.
#[tokio::test]
async fn a_credential_the_provider_fixes_is_sent_unless_set() {
    static FIXED: ServiceSpec = ServiceSpec {
        name: "fixed",
        title: "Fixed",
        base_url: None,
        base_url_env: "COMMS_TEST_FIXED_BASE_URL",
        credentials: &[
            CredentialSpec {
                name: "user",
                env: "COMMS_TEST_FIXED_USER",
                secret: false,
                value: Some("api"),
            },
            CredentialSpec {
                name: "api_key",
                env: "COMMS_TEST_FIXED_API_KEY",
                secret: true,
                value: None,
            },
        ],
        auth: &[AuthScheme::Basic {
            username: "user",
            password: Some("api_key"),
        }],
        rate_limit: None,
        rate_limit_headers: RateLimitHeaders::STANDARD,
        retry: RetrySpec::DEFAULT,
        timeouts: TimeoutSpec::DEFAULT,
        idempotency: None,
        errors: ErrorSpec::DEFAULT,
    };
    let server = TestServer::always(Reply::ok()).await;
    let client = Client::builder(&FIXED)
        .base_url(server.base_url())
        .api_key("key-1")
        .build()
        .expect("the key alone is enough");
    client.execute(get_email("em_1")).await.expect("ok");
    assert_eq!(client.credential_value("user"), Some("api"));
    let other = Client::builder(&FIXED)
        .base_url(server.base_url())
        .api_key("key-1")
        .credential("user", "ops")
        .build()
        .unwrap();
    other.execute(get_email("em_1")).await.expect("ok");
    let requests = server.requests();
    // base64("api:key-1") and base64("ops:key-1").
    assert_eq!(
        requests[0].header("authorization"),
        Some("Basic YXBpOmtleS0x")
    );
    assert_eq!(
        requests[1].header("authorization"),
        Some("Basic b3BzOmtleS0x")
    );
    let missing = Client::builder(&FIXED)
        .base_url(server.base_url())
        .build()
        .unwrap_err();
    assert!(
        missing.to_string().contains("COMMS_TEST_FIXED_API_KEY")
            && !missing.to_string().contains("COMMS_TEST_FIXED_USER"),
        "only the key is missing: {missing}"
    );
}

/// An app id in one header and a key in another, required together (a spec's `kind: all`),
/// beside a Basic alternative, and one `all` that puts a key in the URL.
static BOTH: ServiceSpec = ServiceSpec {
    name: "both",
    title: "Both",
    base_url: None,
    base_url_env: "COMMS_TEST_BOTH_BASE_URL",
    credentials: &[
        CredentialSpec {
            name: "app_id",
            env: "COMMS_TEST_BOTH_APP_ID",
            secret: false,
            value: None,
        },
        CredentialSpec {
            name: "api_key",
            env: "COMMS_TEST_BOTH_API_KEY",
            secret: true,
            value: None,
        },
    ],
    auth: &[
        AuthScheme::All {
            schemes: AuthSchemes::new(&[
                AuthScheme::Header {
                    header: "X-App-Id",
                    credential: "app_id",
                    prefix: None,
                },
                AuthScheme::Header {
                    header: "X-Api-Key",
                    credential: "api_key",
                    prefix: None,
                },
            ]),
        },
        AuthScheme::All {
            schemes: AuthSchemes::new(&[
                AuthScheme::Header {
                    header: "X-App-Id",
                    credential: "app_id",
                    prefix: None,
                },
                AuthScheme::Query {
                    params: &[("key", "api_key")],
                },
            ]),
        },
        // Members are listed too (operations may name one), but none is enough on its own.
        AuthScheme::Header {
            header: "X-Api-Key",
            credential: "api_key",
            prefix: None,
        },
    ],
    rate_limit: None,
    rate_limit_headers: RateLimitHeaders::NONE,
    retry: RetrySpec::DEFAULT,
    timeouts: TimeoutSpec::DEFAULT,
    idempotency: None,
    errors: ErrorSpec::DEFAULT,
};

#[tokio::test]
async fn schemes_required_together_each_travel_and_each_is_asked_for() {
    let server = TestServer::always(Reply::ok()).await;
    let builder = || Client::builder(&BOTH).base_url(server.base_url());
    let client = builder()
        .credential("app_id", "app-7")
        .api_key("key-8")
        .build()
        .expect("both set");
    client.execute(get_email("em_1")).await.expect("ok");
    let r = &server.requests()[0];
    assert_eq!(r.header("x-app-id"), Some("app-7"));
    assert_eq!(r.header("x-api-key"), Some("key-8"));
    assert!(
        !r.target.contains("key-8"),
        "the default sends no key in the URL"
    );
    assert!(
        !format!("{client:?}").contains("key-8"),
        "the key stays out of Debug"
    );

    // Either one missing is named at build, whichever is given: a member alone is not an
    // alternative.
    let missing = builder().api_key("key-8").build().unwrap_err();
    assert!(
        missing.to_string().contains("COMMS_TEST_BOTH_APP_ID"),
        "{missing}"
    );
    let missing = builder().credential("app_id", "app-7").build().unwrap_err();
    assert!(
        missing.to_string().contains("COMMS_TEST_BOTH_API_KEY"),
        "{missing}"
    );

    // The one with a query member is taken on opt-in only, and its key is cut out of errors.
    let refused = TestServer::always(Reply::json(401, r#"{"error":{"code":"nope"}}"#)).await;
    let client = Client::builder(&BOTH)
        .base_url(refused.base_url())
        .credential("app_id", "app-7")
        .api_key("key-8")
        .query_auth()
        .build()
        .unwrap();
    let err = client.execute(get_email("em_1")).await.unwrap_err();
    let r = &refused.requests()[0];
    assert_eq!(r.header("x-app-id"), Some("app-7"));
    assert_eq!(r.query("key").as_deref(), Some("key-8"));
    assert!(r.header("x-api-key").is_none());
    let url = &err.context().unwrap().url;
    assert!(url.ends_with("key=***"), "{url}");
    assert!(!format!("{err} {err:?}").contains("key-8"));
}
