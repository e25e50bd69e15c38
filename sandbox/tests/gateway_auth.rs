//! The gateway of the generated servers against the runtime's client over loopback, for the
//! auth kinds real providers use (HTTP Basic with two credentials or a key and an empty
//! password, a prefixed header, a key in the JSON body, a minted token) and an error body in
//! the spec's declared shape, decoded back by the client at the same paths.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::response::Response;
use axum::routing::post;
use serde_json::{Value, json};
use tidings_runtime::spec::{
    AuthScheme, AuthSchemes, CredentialSpec, ErrorSpec, OperationSpec, RateLimitHeaders, RetrySpec,
    ServiceSpec, TimeoutSpec,
};
use tidings_runtime::{Client, ErrorKind, MintRequest, Secret};
use tidings_sandbox::server::{Gateway, Incoming};

static CREDENTIALS: &[CredentialSpec] = &[
    CredentialSpec {
        name: "account_sid",
        env: "G_ACCOUNT_SID",
        secret: false,
        value: None,
    },
    CredentialSpec {
        name: "auth_token",
        env: "G_AUTH_TOKEN",
        secret: true,
        value: None,
    },
];

const fn service(auth: &'static [AuthScheme]) -> ServiceSpec {
    ServiceSpec {
        name: "provider",
        title: "A provider",
        base_url: None,
        base_url_env: "G_BASE_URL",
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
        // Twilio's shape: {"code": 20003, "message": "..."}.
        errors: ErrorSpec {
            code: Some("code"),
            message: Some("message"),
            in_success: None,
        },
    }
}

static BASIC: ServiceSpec = service(&[AuthScheme::Basic {
    username: "account_sid",
    password: Some("auth_token"),
}]);
static KEY_ONLY: ServiceSpec = service(&[AuthScheme::Basic {
    username: "auth_token",
    password: None,
}]);
static APP: ServiceSpec = service(&[AuthScheme::Header {
    header: "Authorization",
    credential: "auth_token",
    prefix: Some("App "),
}]);
static IN_BODY: ServiceSpec = service(&[AuthScheme::Body {
    fields: &[("auth_token", "auth_token")],
}]);
static IN_QUERY: ServiceSpec = service(&[AuthScheme::Query {
    params: &[("account_sid", "account_sid"), ("auth_token", "auth_token")],
}]);
static MINTED: ServiceSpec = service(&[AuthScheme::Minted {
    minter: "signed",
    header: "Authorization",
    prefix: Some("Bearer "),
}]);

/// An account id in a header and a token in the body, required together (`kind: all`).
static TOGETHER: ServiceSpec = service(&[AuthScheme::All {
    schemes: AuthSchemes::new(&[
        AuthScheme::Header {
            header: "X-Account",
            credential: "account_sid",
            prefix: None,
        },
        AuthScheme::Body {
            fields: &[("token", "auth_token")],
        },
    ]),
}]);
/// Telnyx's way: several bearer schemes, each an alternative, all sending alike.
static BEARERS: ServiceSpec = service(&[
    AuthScheme::Bearer {
        credential: "auth_token",
    },
    AuthScheme::Bearer {
        credential: "auth_token",
    },
    AuthScheme::Header {
        header: "Authorization",
        credential: "auth_token",
        prefix: Some("App "),
    },
]);
static SEND: OperationSpec = OperationSpec::post("send", "/send");

const SID: &str = "AC42";
const TOKEN: &str = "token-very-secret";

/// A loopback server whose one operation echoes the body the handler sees.
async fn serve(gateway: Gateway) -> String {
    let gateway = Arc::new(gateway);
    let app = Router::new().route(
        "/send",
        post(move |request: Request| {
            let gateway = gateway.clone();
            async move {
                let incoming: Incoming = match Incoming::accept(&gateway, &SEND, request).await {
                    Ok(incoming) => incoming,
                    Err(response) => return response,
                };
                let body = incoming.json::<Value>();
                let response: Response = incoming.finish(body, 200);
                response
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

fn gateway(spec: &'static ServiceSpec) -> Gateway {
    Gateway::new(spec)
        .credential("account_sid", SID)
        .credential("auth_token", TOKEN)
        .token_check("signed", |token| token == format!("minted-for-{TOKEN}"))
}

async fn send(
    spec: &'static ServiceSpec,
    url: &str,
    token: &str,
) -> Result<Value, tidings_runtime::Error> {
    let client = Client::builder(spec)
        .base_url(url)
        .credential("account_sid", SID)
        .credential("auth_token", token)
        .token_minter("signed", |request: MintRequest<'_>| {
            let key = request
                .credential("auth_token")
                .unwrap()
                .expose()
                .to_owned();
            Ok(Secret::new(format!("minted-for-{key}")))
        })
        .build()
        .unwrap();
    client
        .execute(
            tidings_runtime::Request::new(&SEND)
                .json(&json!({"to": "+15550100"}))
                .unwrap(),
        )
        .await?
        .json()
}

#[tokio::test]
async fn every_auth_kind_is_accepted_with_the_right_credential_and_refused_with_a_wrong_one() {
    for spec in [&BASIC, &KEY_ONLY, &APP, &IN_BODY, &MINTED, &TOGETHER] {
        let url = serve(gateway(spec)).await;
        let echoed = send(spec, &url, TOKEN).await.unwrap();
        // The body credential is taken out before the handler sees the body.
        assert_eq!(echoed, json!({"to": "+15550100"}), "{:?}", spec.auth);
        let err = send(spec, &url, "wrong-token").await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Auth, "{:?}", spec.auth);
        assert_eq!(err.code(), Some("invalid_api_key"), "{:?}", spec.auth);
    }
}

#[tokio::test]
async fn a_request_without_credentials_gets_401_in_the_declared_error_shape() {
    let url = serve(gateway(&BASIC)).await;
    let response = reqwest_post(&format!("{url}/send")).await;
    assert_eq!(response.0, 401);
    assert_eq!(response.1["code"], "missing_api_key");
    assert!(
        response.1["message"]
            .as_str()
            .unwrap()
            .contains("Authorization: Basic")
    );
    assert!(response.1.get("error").is_none(), "{}", response.1);
}

/// Schemes that send alike say so once in a 401 (Telnyx's eight bearer schemes said
/// "`Authorization: Bearer <key>` or" eight times).
#[tokio::test]
async fn a_401_names_each_way_of_sending_the_key_once() {
    let url = serve(gateway(&BEARERS)).await;
    let (status, body) = reqwest_post(&format!("{url}/send")).await;
    assert_eq!(status, 401);
    let message = body["message"].as_str().unwrap();
    assert_eq!(message.matches("Bearer").count(), 1, "{message}");
    assert_eq!(message.matches("App").count(), 1, "{message}");
}

#[tokio::test]
async fn basic_with_an_empty_password_refuses_a_non_empty_one() {
    let url = serve(gateway(&KEY_ONLY)).await;
    let client = tidings_runtime::reqwest::Client::new();
    use base64::Engine as _;
    let header = |pair: &str| {
        format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(pair)
        )
    };
    for (pair, status) in [
        (format!("{TOKEN}:"), 200),
        (format!("{TOKEN}:x"), 401),
        (format!("{SID}:"), 401),
    ] {
        let response = client
            .post(format!("{url}/send"))
            .header("authorization", header(&pair))
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), status, "{pair}");
    }
}

async fn reqwest_post(url: &str) -> (u16, Value) {
    let response = tidings_runtime::reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// Query keys sent together (Vonage's `api_key` and `api_secret`): each must be there with its
/// credential's value; one alone, or one wrong, is refused.
#[tokio::test]
async fn query_keys_sent_together_are_each_required() {
    let url = serve(gateway(&IN_QUERY)).await;
    let client = tidings_runtime::reqwest::Client::new();
    for (query, status, code) in [
        (format!("account_sid={SID}&auth_token={TOKEN}"), 200, None),
        (format!("account_sid={SID}"), 401, Some("invalid_api_key")),
        (
            format!("account_sid={SID}&auth_token=wrong"),
            401,
            Some("invalid_api_key"),
        ),
        (format!("auth_token={TOKEN}"), 401, Some("invalid_api_key")),
        (String::new(), 401, Some("missing_api_key")),
    ] {
        let response = client
            .post(format!("{url}/send?{query}"))
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), status, "{query}");
        let body: Value = response.json().await.unwrap();
        if let Some(code) = code {
            assert_eq!(body["code"], code, "{query}: {body}");
        }
    }
    // The client sends both, and is accepted.
    let client = Client::builder(&IN_QUERY)
        .base_url(&url)
        .credential("account_sid", SID)
        .credential("auth_token", TOKEN)
        .query_auth()
        .build()
        .unwrap();
    let echoed: Value = client
        .execute(
            tidings_runtime::Request::new(&SEND)
                .json(&json!({"to": "+15550100"}))
                .unwrap(),
        )
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(echoed, json!({"to": "+15550100"}));
}

/// Schemes required together (`kind: all`): each must be there with its credential's value;
/// one alone is refused, and a request with neither is told what to send.
#[tokio::test]
async fn schemes_required_together_are_each_required() {
    let url = serve(gateway(&TOGETHER)).await;
    let client = tidings_runtime::reqwest::Client::new();
    for (account, body, status, code) in [
        (Some(SID), json!({"token": TOKEN}), 200, None),
        (Some(SID), json!({}), 401, Some("invalid_api_key")),
        (None, json!({"token": TOKEN}), 401, Some("invalid_api_key")),
        (
            Some("AC43"),
            json!({"token": TOKEN}),
            401,
            Some("invalid_api_key"),
        ),
        (None, json!({}), 401, Some("missing_api_key")),
    ] {
        let mut request = client.post(format!("{url}/send")).json(&body);
        if let Some(account) = account {
            request = request.header("x-account", account);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{account:?} {body}");
        let answer: Value = response.json().await.unwrap();
        if let Some(code) = code {
            assert_eq!(answer["code"], code, "{account:?} {body}: {answer}");
        } else {
            assert_eq!(answer, json!({}), "the body credential is taken out");
        }
        if status == 401 && account.is_none() && body == json!({}) {
            let message = answer["message"].as_str().unwrap();
            assert!(
                message.contains("`X-Account: <key>` and the body fields `token`"),
                "{message}"
            );
        }
    }
}
