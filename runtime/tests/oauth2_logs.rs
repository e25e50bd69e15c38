//! The OAuth2 client secret and the access tokens stay out of TRACE logs (the runtime's, and
//! reqwest's and hyper's through the `log` bridge) and out of `Debug` output, through a token
//! fetch, a refused token (401) and a second fetch.
#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{Recorded, Reply, TestServer};
use tidings_runtime::spec::*;
use tidings_runtime::*;

const SECRET: &str = "cs_live_NEVER_LOGGED_9f2e";

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Buffer {
    type Writer = Buffer;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

static OP: OperationSpec = OperationSpec::get("get_thing", "/v1/things/1");

#[tokio::test]
async fn neither_the_secret_nor_a_token_is_logged() {
    let buffer = Buffer::default();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(buffer.clone())
        .with_ansi(false)
        .try_init()
        .unwrap();

    let token = TestServer::start(|n, _: &Recorded| {
        Reply::json(
            200,
            &format!(
                r#"{{"access_token":"at_PRIVATE_{n}_x7","token_type":"Bearer","expires_in":3600}}"#
            ),
        )
    })
    .await;
    // The first token is refused (401), the second accepted.
    let api = TestServer::script(vec![
        Reply::json(200, "{}"),
        Reply::json(
            401,
            r#"{"error":{"code":"invalid_token","message":"revoked"}}"#,
        ),
        Reply::json(200, "{}"),
    ])
    .await;
    let token_url: &'static str = Box::leak(format!("{}/token", token.base_url()).into());
    let auth: &'static [AuthScheme] = Box::leak(Box::new([
        AuthScheme::<spec::Static>::OAuth2ClientCredentials {
            token_url,
            client_id: "client_id",
            client_secret: "client_secret",
            scopes: &[],
        },
    ]));
    let spec: &'static ServiceSpec = Box::leak(Box::new(ServiceSpec {
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
    }));
    let builder = Client::builder(spec)
        .base_url(api.base_url())
        .credential("client_id", "client-1")
        .credential("client_secret", SECRET)
        .attempt_timeout(Duration::from_secs(5));
    let builder_debug = format!("{builder:?}");
    let client = builder.build().unwrap();
    client
        .execute(tidings_runtime::Request::new(&OP))
        .await
        .unwrap();
    client
        .execute(tidings_runtime::Request::new(&OP))
        .await
        .unwrap();
    assert_eq!(
        (token.count(), api.count()),
        (2, 3),
        "a 401, a new token, one more try"
    );

    let logs = String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap();
    assert!(
        logs.contains("fetching an OAuth2 access token"),
        "the fetch is logged"
    );
    let shown = format!("{logs}\n{builder_debug}\n{client:?}");
    use base64::Engine as _;
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("client-1:{SECRET}"));
    for secret in [SECRET, basic.as_str(), "at_PRIVATE_0_x7", "at_PRIVATE_1_x7"] {
        assert!(!shown.contains(secret), "`{secret}` appears:\n{shown}");
    }
}
