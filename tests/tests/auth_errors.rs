//! Real providers' auth and error bodies over loopback: HTTP Basic (two credentials, or a key
//! with an empty password), a named header with a prefix, a credential inside the JSON body, a
//! client-minted HS256 JWT; error code and message read at the spec's paths (an array body,
//! numeric codes, `ErrorCode`/`Message`, a message without a code), errors inside 2xx answers,
//! and the generated `ErrorCode` enum. The service descriptions are the static data the
//! generator emits for such specs.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use base64::Engine as _;
use hmac::{Hmac, Mac};
use serde_json::json;
use tidings_runtime::spec::{
    AuthScheme, CredentialSpec, ErrorSpec, FailureWhen, InSuccessSpec, OperationSpec,
    RateLimitHeaders, RetrySpec, ServiceSpec, TimeoutSpec,
};
use tidings_runtime::{Client, Error, ErrorKind, MintRequest, Secret};
use tidings_tests::{Reply, TestServer};

const SID: &str = "AC0123456789abcdef";
const TOKEN: &str = "auth-token-very-secret";
const KEY: &str = "key-very-secret-42";

static CREDENTIALS: &[CredentialSpec] = &[
    CredentialSpec {
        name: "account_sid",
        env: "T_ACCOUNT_SID",
        secret: false,
        value: None,
    },
    CredentialSpec {
        name: "auth_token",
        env: "T_AUTH_TOKEN",
        secret: true,
        value: None,
    },
    CredentialSpec {
        name: "api_key",
        env: "T_API_KEY",
        secret: true,
        value: None,
    },
];

/// A service with `auth` and `errors`, the rest defaults; retries off so each test sees one
/// attempt per call unless it says otherwise.
const fn service(auth: &'static [AuthScheme], errors: ErrorSpec) -> ServiceSpec {
    ServiceSpec {
        name: "provider",
        title: "A provider",
        base_url: None,
        base_url_env: "T_BASE_URL",
        credentials: CREDENTIALS,
        auth,
        rate_limit: None,
        rate_limit_headers: RateLimitHeaders::NONE,
        retry: RetrySpec {
            max_attempts: 1,
            ..RetrySpec::DEFAULT
        },
        timeouts: TimeoutSpec::DEFAULT,
        idempotency: None,
        errors,
    }
}

static BASIC: ServiceSpec = service(
    &[AuthScheme::Basic {
        username: "account_sid",
        password: Some("auth_token"),
    }],
    ErrorSpec {
        code: Some("code"),
        message: Some("message"),
        in_success: None,
    },
);
static KEY_ONLY: ServiceSpec = service(
    &[AuthScheme::Basic {
        username: "api_key",
        password: None,
    }],
    ErrorSpec {
        code: Some("0.code"),
        message: Some("0.message"),
        in_success: None,
    },
);
static APP_HEADER: ServiceSpec = service(
    &[AuthScheme::Header {
        header: "Authorization",
        credential: "api_key",
        prefix: Some("App "),
    }],
    ErrorSpec {
        code: Some("ErrorCode"),
        message: Some("Message"),
        in_success: None,
    },
);
static IN_BODY: ServiceSpec = service(
    &[AuthScheme::Body {
        fields: &[("api_key", "api_key")],
    }],
    ErrorSpec {
        code: Some("errors.0.code"),
        message: Some("errors.0.message"),
        in_success: Some(InSuccessSpec {
            field: "status",
            when: FailureWhen::Equals(&["failed", "error"]),
        }),
    },
);
static MINTED: ServiceSpec = service(
    &[AuthScheme::Minted {
        minter: "jwt",
        header: "Authorization",
        prefix: Some("Bearer "),
    }],
    ErrorSpec::DEFAULT,
);

static GET: OperationSpec = OperationSpec::get("get_message", "/messages/{id}");
static SEND: OperationSpec = OperationSpec::post("send_message", "/messages");

fn client(spec: &'static ServiceSpec, server: &TestServer) -> tidings_runtime::ClientBuilder {
    Client::builder(spec)
        .base_url(server.url())
        .credential("account_sid", SID)
        .credential("auth_token", TOKEN)
        .credential("api_key", KEY)
}

fn basic(user: &str, pass: &str) -> String {
    let pair = format!("{user}:{pass}");
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(pair)
    )
}

#[tokio::test]
async fn basic_auth_sends_account_sid_and_token_and_keeps_them_out_of_debug() {
    let server = TestServer::start(|_| Reply::json(200, json!({"sid": "SM1"}))).await;
    let client = client(&BASIC, &server).build().unwrap();
    let shown = format!("{client:?}");
    assert!(
        !shown.contains(TOKEN) && !shown.contains(&basic(SID, TOKEN)[6..]),
        "{shown}"
    );
    client
        .execute(tidings_runtime::Request::new(&GET).path_param("id", "SM1"))
        .await
        .unwrap();
    let r = &server.requests()[0];
    assert_eq!(r.header("authorization"), Some(basic(SID, TOKEN).as_str()));
    assert!(r.query.is_empty());
}

#[tokio::test]
async fn basic_auth_without_password_sends_the_key_with_an_empty_password() {
    let server = TestServer::start(|_| Reply::json(200, json!({}))).await;
    client(&KEY_ONLY, &server)
        .build()
        .unwrap()
        .execute(tidings_runtime::Request::new(&GET).path_param("id", "1"))
        .await
        .unwrap();
    assert_eq!(
        server.requests()[0].header("authorization"),
        Some(basic(KEY, "").as_str())
    );
}

#[tokio::test]
async fn basic_auth_reports_the_missing_password_credential_by_its_env_var() {
    let err = Client::builder(&BASIC)
        .base_url("http://127.0.0.1:9")
        .credential("account_sid", SID)
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config);
    assert!(err.to_string().contains("T_AUTH_TOKEN"), "{err}");
}

#[tokio::test]
async fn header_auth_puts_the_prefix_before_the_key() {
    let server = TestServer::start(|_| Reply::json(200, json!({}))).await;
    client(&APP_HEADER, &server)
        .build()
        .unwrap()
        .execute(tidings_runtime::Request::new(&GET).path_param("id", "1"))
        .await
        .unwrap();
    assert_eq!(
        server.requests()[0].header("authorization"),
        Some(format!("App {KEY}").as_str())
    );
}

#[tokio::test]
async fn body_auth_adds_the_key_to_the_json_body_and_not_to_headers_or_url() {
    let server = TestServer::start(|_| Reply::json(200, json!({"status": "queued"}))).await;
    let client = client(&IN_BODY, &server).build().unwrap();
    client
        .execute(
            tidings_runtime::Request::new(&SEND)
                .json(&json!({"to": "+15550100"}))
                .unwrap(),
        )
        .await
        .unwrap();
    let r = &server.requests()[0];
    assert_eq!(r.json(), json!({"to": "+15550100", "api_key": KEY}));
    assert_eq!(r.header("authorization"), None);
    assert!(r.query.is_empty());
    // A GET has no body to carry the key: refused before anything is sent.
    let err = client
        .execute(tidings_runtime::Request::new(&GET).path_param("id", "1"))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest);
    assert_eq!(server.requests().len(), 1);
}

/// A compact HS256 JWT (RFC 7519) signed with `secret`.
fn hs256_jwt(secret: &str, claims: &serde_json::Value) -> String {
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let header = b64.encode(json!({"alg": "HS256", "typ": "JWT"}).to_string());
    let payload = b64.encode(claims.to_string());
    let input = format!("{header}.{payload}");
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(input.as_bytes());
    format!("{input}.{}", b64.encode(mac.finalize().into_bytes()))
}

/// Verifies an HS256 JWT as a server would: the signature over `header.payload`.
fn hs256_valid(secret: &str, token: &str) -> Option<serde_json::Value> {
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let (input, signature) = token.rsplit_once('.')?;
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).ok()?;
    mac.update(input.as_bytes());
    mac.verify_slice(&b64.decode(signature).ok()?).ok()?;
    let payload = input.split_once('.')?.1;
    serde_json::from_slice(&b64.decode(payload).ok()?).ok()
}

#[tokio::test]
async fn minted_scheme_sends_a_fresh_hs256_jwt_per_attempt_from_the_registered_minter() {
    let server = TestServer::start(|r| {
        let token = r
            .header("authorization")
            .and_then(|v| v.strip_prefix("Bearer "));
        match token.and_then(|t| hs256_valid(TOKEN, t)) {
            Some(_) => Reply::json(200, json!({"ok": true})),
            None => Reply::json(401, json!({"error": {"code": "bad_jwt", "message": "no"}})),
        }
    })
    .await;
    let counter = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
    let minted = counter.clone();
    let client = client(&MINTED, &server)
        .token_minter("jwt", move |request: MintRequest<'_>| {
            let n = minted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let secret = request
                .credential("auth_token")
                .ok_or_else(|| Error::config("no signing key"))?;
            let claims = json!({"iss": SID, "op": request.operation, "jti": n});
            Ok(Secret::new(hs256_jwt(secret.expose(), &claims)))
        })
        .build()
        .unwrap();
    for _ in 0..2 {
        client
            .execute(tidings_runtime::Request::new(&GET).path_param("id", "1"))
            .await
            .unwrap();
    }
    let requests = server.requests();
    let tokens: Vec<&str> = requests
        .iter()
        .map(|r| r.header("authorization").unwrap())
        .collect();
    assert_ne!(tokens[0], tokens[1], "each attempt mints its own token");
    let claims = hs256_valid(TOKEN, tokens[0].strip_prefix("Bearer ").unwrap()).unwrap();
    assert_eq!(claims["op"], "get_message");
    assert_eq!(counter.load(std::sync::atomic::Ordering::SeqCst), 2);
}

#[tokio::test]
async fn minted_scheme_without_a_registered_minter_is_a_config_error_naming_it() {
    let err = Client::builder(&MINTED)
        .base_url("http://127.0.0.1:9")
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config);
    assert!(err.to_string().contains("token_minter(\"jwt\""), "{err}");
}

#[tokio::test]
async fn a_minter_error_ends_the_call_before_anything_is_sent() {
    let server = TestServer::start(|_| Reply::json(200, json!({}))).await;
    let client = client(&MINTED, &server)
        .token_minter("jwt", |_: MintRequest<'_>| -> Result<Secret, Error> {
            Err(Error::config("signing key expired"))
        })
        .build()
        .unwrap();
    let err = client
        .execute(tidings_runtime::Request::new(&GET).path_param("id", "1"))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("signing key expired"));
    assert!(server.requests().is_empty());
}

async fn error_of(spec: &'static ServiceSpec, status: u16, body: serde_json::Value) -> Error {
    let server = TestServer::start(move |_| Reply::json(status, body.clone())).await;
    let client = client(spec, &server)
        .token_minter("jwt", |_: MintRequest<'_>| Ok(Secret::new("t")))
        .build()
        .unwrap();
    client
        .execute(
            tidings_runtime::Request::new(&SEND)
                .json(&json!({"to": "x"}))
                .unwrap(),
        )
        .await
        .unwrap_err()
}

#[tokio::test]
async fn a_numeric_code_is_kept_as_text_and_the_body_is_decoded() {
    let body = json!({"code": 20404, "message": "The requested resource was not found",
        "more_info": "https://example.com/docs/errors/20404", "status": 404});
    let err = error_of(&BASIC, 404, body.clone()).await;
    assert_eq!(err.kind(), ErrorKind::Api);
    assert_eq!(err.code(), Some("20404"));
    let api = err.api_error().unwrap();
    assert_eq!(
        api.message.as_deref(),
        Some("The requested resource was not found")
    );
    assert_eq!(api.body.as_ref(), Some(&body));
    // The answer first, then the call it ended and what to check.
    let text = err.to_string();
    assert!(
        text.starts_with("HTTP 404 20404: The requested resource was not found: "),
        "{text}"
    );
    assert!(
        text.ends_with("; nothing at that path: check the ids in it"),
        "{text}"
    );
}

#[tokio::test]
async fn an_array_error_body_gives_the_first_errors_code_and_message() {
    let err = error_of(
        &KEY_ONLY,
        400,
        json!([{"code": "invalid_to", "message": "bad number"}, {"code": "other", "message": "x"}]),
    )
    .await;
    assert_eq!(err.code(), Some("invalid_to"));
    assert_eq!(
        err.api_error().unwrap().message.as_deref(),
        Some("bad number")
    );
}

#[tokio::test]
async fn pascal_case_error_fields_are_read_where_the_spec_says() {
    let err = error_of(
        &APP_HEADER,
        401,
        json!({"ErrorCode": 300, "Message": "Invalid API key"}),
    )
    .await;
    assert_eq!(err.kind(), ErrorKind::Auth);
    assert_eq!(err.code(), Some("300"));
    assert_eq!(
        err.api_error().unwrap().message.as_deref(),
        Some("Invalid API key")
    );
}

#[tokio::test]
async fn a_message_without_a_code_leaves_the_code_absent() {
    let err = error_of(
        &IN_BODY,
        400,
        json!({"errors": [{"message": "The from address does not match a verified Sender Identity.", "field": "from"}]}),
    )
    .await;
    assert_eq!(err.code(), None);
    assert_eq!(
        err.api_error().unwrap().message.as_deref(),
        Some("The from address does not match a verified Sender Identity.")
    );
}

#[tokio::test]
async fn an_error_inside_a_200_body_is_raised_as_an_api_error() {
    let err = error_of(
        &IN_BODY,
        200,
        json!({"status": "failed", "errors": [{"code": "30007", "message": "filtered"}]}),
    )
    .await;
    assert_eq!(err.kind(), ErrorKind::Api);
    assert_eq!(err.status(), Some(200));
    assert_eq!(err.code(), Some("30007"));
    assert!(!err.is_retryable());
    // Another status value is a success.
    let server = TestServer::start(|_| Reply::json(200, json!({"status": "sent"}))).await;
    let ok = client(&IN_BODY, &server)
        .build()
        .unwrap()
        .execute(
            tidings_runtime::Request::new(&SEND)
                .json(&json!({}))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(ok.json::<serde_json::Value>().unwrap()["status"], "sent");
}

#[tokio::test]
async fn an_error_body_past_the_limit_keeps_its_start_and_no_decoded_body() {
    let long = "m".repeat(200 * 1024);
    let err = error_of(&BASIC, 400, json!({"code": 1, "message": long})).await;
    let api = err.api_error().unwrap();
    assert!(api.body_truncated);
    assert!(api.body.is_none());
    assert!(api.body_excerpt.len() <= tidings_runtime::ApiError::EXCERPT_LIMIT + 3);
}

#[tokio::test]
async fn generated_error_code_enum_reads_the_code_of_an_error() {
    use tidings::messaging::{ErrorCode, MessagingClient};
    let server = TestServer::start(|_| {
        Reply::json(
            404,
            json!({"error": {"code": "not_found", "message": "no such message"}}),
        )
    })
    .await;
    let client = MessagingClient::builder()
        .base_url(server.url())
        .api_key(KEY)
        .build()
        .unwrap();
    let err = client.get_message("msg_1").await.unwrap_err();
    assert_eq!(ErrorCode::of(&err), Some(ErrorCode::NotFound));
    assert_eq!(ErrorCode::NotFound.statuses(), &[404]);
    let unknown = ErrorCode::from("teleport_failed");
    assert_eq!(unknown, ErrorCode::Unknown("teleport_failed".into()));
}

/// A `tracing` writer into a shared buffer.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn no_auth_kind_puts_its_secret_in_trace_logs_debug_or_errors() {
    // A global subscriber (a scoped one misses events when other tests of this binary register
    // the same callsites concurrently); it captures every test's logs, which must be clean too.
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::set_global_default(subscriber)
        .expect("this test installs the only subscriber of its binary");
    let jwt = hs256_jwt(TOKEN, &json!({"iss": SID}));
    let minted = jwt.clone();
    let server = TestServer::start(|r| {
        if r.path.ends_with("/fail") {
            Reply::json(401, json!({"code": 20003, "message": "Authenticate"}))
        } else {
            Reply::json(200, json!({"status": "queued"}))
        }
    })
    .await;
    let mut texts = Vec::new();
    for spec in [&BASIC, &KEY_ONLY, &APP_HEADER, &IN_BODY, &MINTED] {
        let token = minted.clone();
        let client = client(spec, &server)
            .token_minter("jwt", move |_: MintRequest<'_>| {
                Ok(Secret::new(token.clone()))
            })
            .build()
            .unwrap();
        texts.push(format!("{client:?}"));
        let ok = client
            .execute(
                tidings_runtime::Request::new(&SEND)
                    .json(&json!({"to": "x"}))
                    .unwrap(),
            )
            .await
            .unwrap();
        texts.push(format!("{ok:?}"));
        static FAIL: OperationSpec = OperationSpec::post("fail", "/messages/fail");
        let err = client
            .execute(
                tidings_runtime::Request::new(&FAIL)
                    .json(&json!({"to": "x"}))
                    .unwrap(),
            )
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Auth);
        texts.push(format!("{err} {err:?}"));
    }
    texts.push(String::from_utf8_lossy(&captured.0.lock().unwrap()).into_owned());
    let basic_pair = &basic(SID, TOKEN)["Basic ".len()..];
    let key_pair = &basic(KEY, "")["Basic ".len()..];
    for text in &texts {
        for secret in [TOKEN, KEY, basic_pair, key_pair, jwt.as_str()] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
    }
    assert!(
        texts.last().unwrap().contains("sending request"),
        "the capture saw the runtime"
    );
}
