//! Runs calls of every auth scheme with TRACE logging into a buffer and checks that no key or
//! secret appears in the logs, nor in `Debug`/`Display` of clients, builders and errors.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use common::*;
use tidings_runtime::*;

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("buffer").extend_from_slice(buf);
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

#[tokio::test]
async fn no_secret_in_trace_logs_or_debug_output() {
    let buffer = Buffer::default();
    // Global (with the `log` bridge) so reqwest's and hyper's own records are captured too.
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(buffer.clone())
        .with_ansi(false)
        .try_init()
        .expect("first subscriber in this test binary");

    let server = TestServer::script(vec![
        Reply::json(503, "{}"),
        Reply::ok(),
        Reply::json(
            401,
            r#"{"error":{"code":"invalid_api_key","message":"bad key"}}"#,
        ),
        Reply::Reset,
        Reply::ok(),
        Reply::ok(),
        Reply::ok(),
    ])
    .await;

    let builder = email_client(&server);
    let builder_debug = format!("{builder:?}");
    let client = builder.build().expect("client");
    client
        .execute(get_email("em_1"))
        .await
        .expect("retried success");
    let auth_err = client.execute(send_email()).await.expect_err("401");
    client
        .execute(get_email("em_2"))
        .await
        .expect("retried success");

    let query_client = email_client(&server).query_auth().build().expect("client");
    query_client.execute(get_email("em_3")).await.expect("ok");

    let realtime = Client::builder(&REALTIME)
        .base_url(server.base_url())
        .credential("app_id", "3")
        .credential("key", PUSHER_KEY)
        .credential("secret", PUSHER_SECRET)
        .build()
        .expect("client");
    let trigger = tidings_runtime::Request::new(&TRIGGER)
        .path_param("app_id", "3")
        .json(&serde_json::json!({"name": "e", "channels": ["c"], "data": "{}"}))
        .expect("body");
    realtime.execute(trigger).await.expect("ok");

    // A transport error on a query-auth request: its URL would carry the key.
    let dead = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr")
    };
    let dead_client = Client::builder(&EMAIL)
        .base_url(format!("http://{dead}"))
        .api_key(API_KEY)
        .query_auth()
        .max_attempts(1)
        .build()
        .expect("client");
    let transport_err = dead_client
        .execute(get_email("em_4"))
        .await
        .expect_err("refused");

    let logs = String::from_utf8(buffer.0.lock().expect("buffer").clone()).expect("utf-8 logs");
    assert!(
        logs.contains("sending request"),
        "logging was not captured:\n{logs}"
    );
    assert!(logs.contains("tidings.request"), "no span in logs:\n{logs}");

    let outputs = [
        ("logs", logs),
        ("builder Debug", builder_debug),
        ("client Debug", format!("{client:?}")),
        ("query client Debug", format!("{query_client:?}")),
        ("realtime client Debug", format!("{realtime:?}")),
        ("auth error Debug", format!("{auth_err:?}")),
        ("auth error Display", auth_err.to_string()),
        ("transport error Debug", format!("{transport_err:?}")),
        ("transport error Display", transport_err.to_string()),
        ("secret Debug", format!("{:?}", Secret::new(API_KEY))),
    ];
    for (what, text) in outputs {
        for secret in [API_KEY, PUSHER_SECRET] {
            assert!(!text.contains(secret), "{what} contains a secret:\n{text}");
        }
    }
}
