//! A scriptable HTTP/1.1 test server on a raw tokio `TcpListener` (precise control over
//! resets, stalls and truncated bodies), plus hand-built `'static` specs for the tests.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tidings_runtime::spec::*;
use tidings_runtime::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// Path and query as sent.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// When the request head was fully read.
    pub at: Instant,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    pub fn query_pairs(&self) -> Vec<(String, String)> {
        match self.target.split_once('?') {
            Some((_, q)) => url::form_urlencoded::parse(q.as_bytes())
                .into_owned()
                .collect(),
            None => Vec::new(),
        }
    }

    pub fn query(&self, name: &str) -> Option<String> {
        self.query_pairs()
            .into_iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }
}

/// What the server does with one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A complete response (the connection is closed afterwards).
    Response {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// Exactly these bytes, then close.
    Raw(Vec<u8>),
    /// Reset the connection (RST) without answering.
    Reset,
    /// Say nothing for this long, then close.
    Stall(Duration),
}

impl Reply {
    pub fn json(status: u16, body: &str) -> Reply {
        Reply::Response {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.as_bytes().to_vec(),
        }
    }

    pub fn ok() -> Reply {
        Reply::json(200, r#"{"ok":true}"#)
    }

    pub fn html(status: u16, body: &str) -> Reply {
        Reply::Response {
            status,
            headers: vec![("content-type".into(), "text/html".into())],
            body: body.as_bytes().to_vec(),
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        if let Reply::Response { headers, .. } = &mut self {
            headers.push((name.into(), value.into()));
        }
        self
    }
}

type Handler = dyn Fn(usize, &Recorded) -> Reply + Send + Sync;

pub struct TestServer {
    pub addr: SocketAddr,
    log: Arc<Mutex<Vec<Recorded>>>,
    task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    /// Starts a server; `handler(n, request)` decides the reply to the n-th request (from 0).
    pub async fn start(
        handler: impl Fn(usize, &Recorded) -> Reply + Send + Sync + 'static,
    ) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("addr");
        let log = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let task_log = Arc::clone(&log);
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let log = Arc::clone(&task_log);
                let handler = Arc::clone(&handler);
                tokio::spawn(async move {
                    let _ = serve(stream, log, handler).await;
                });
            }
        });
        TestServer { addr, log, task }
    }

    /// A server that answers every request the same way.
    pub async fn always(reply: Reply) -> TestServer {
        TestServer::start(move |_, _| reply.clone()).await
    }

    /// A server that answers from a script, repeating the last entry.
    pub async fn script(replies: Vec<Reply>) -> TestServer {
        TestServer::start(move |n, _| replies[n.min(replies.len() - 1)].clone()).await
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.log.lock().expect("log").clone()
    }

    pub fn count(&self) -> usize {
        self.log.lock().expect("log").len()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(
    mut stream: TcpStream,
    log: Arc<Mutex<Vec<Recorded>>>,
    handler: Arc<Handler>,
) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(4096);
    let head_end = loop {
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let at = Instant::now();
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next().unwrap_or("").split(' ');
    let method = request_line.next().unwrap_or("").to_owned();
    let target = request_line.next().unwrap_or("").to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = buf[head_end..].to_vec();
    while body.len() < length {
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    let recorded = Recorded {
        method,
        target,
        headers,
        body,
        at,
    };
    let n = {
        let mut log = log.lock().expect("log");
        log.push(recorded.clone());
        log.len() - 1
    };
    match handler(n, &recorded) {
        Reply::Response {
            status,
            headers,
            body,
        } => {
            let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status));
            for (k, v) in &headers {
                out.push_str(&format!("{k}: {v}\r\n"));
            }
            out.push_str(&format!(
                "content-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            ));
            stream.write_all(out.as_bytes()).await?;
            stream.write_all(&body).await?;
            stream.shutdown().await?;
        }
        Reply::Raw(bytes) => {
            stream.write_all(&bytes).await?;
            stream.shutdown().await?;
        }
        Reply::Reset => {
            stream.set_zero_linger()?;
            drop(stream);
        }
        Reply::Stall(d) => {
            tokio::time::sleep(d).await;
        }
    }
    Ok(())
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        401 => "Unauthorized",
        413 => "Payload Too Large",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}

pub const API_KEY: &str = "sk_test_SUPERSECRET_4f9a2b";

pub static EMAIL: ServiceSpec = ServiceSpec {
    name: "email",
    title: "Email service",
    base_url: None,
    base_url_env: "COMMS_TEST_EMAIL_BASE_URL",
    credentials: &[CredentialSpec {
        name: "api_key",
        env: "COMMS_TEST_EMAIL_API_KEY",
        secret: true,
        value: None,
    }],
    auth: &[
        AuthScheme::Bearer {
            credential: "api_key",
        },
        AuthScheme::Query {
            params: &[("api_key", "api_key")],
        },
    ],
    rate_limit: Some(RateLimitSpec {
        requests: 1000,
        per_seconds: 60,
    }),
    rate_limit_headers: RateLimitHeaders::STANDARD,
    retry: RetrySpec::DEFAULT,
    timeouts: TimeoutSpec::DEFAULT,
    idempotency: Some(IdempotencySpec {
        header: "Idempotency-Key",
        max_len: 256,
    }),
    errors: ErrorSpec::DEFAULT,
};

pub static GET_EMAIL: OperationSpec = OperationSpec::get("get_email", "/v1/emails/{id}");

pub static LIST_EMAILS: OperationSpec = OperationSpec::get("list_emails", "/v1/emails");

pub static SEND_EMAIL: OperationSpec =
    OperationSpec::post("send_email", "/v1/emails").idempotency_key();

pub static CANCEL_EMAIL: OperationSpec =
    OperationSpec::post("cancel_email", "/v1/emails/{id}/cancel");

pub static PAGES: PaginationSpec = PaginationSpec::cursor("data", "has_more", "id", "after");

pub const PUSHER_KEY: &str = "278d425bdf160c739803";
pub const PUSHER_SECRET: &str = "7ad3773142a6692b25b8";

pub static REALTIME: ServiceSpec = ServiceSpec {
    name: "realtime",
    title: "Realtime service",
    base_url: None,
    base_url_env: "COMMS_TEST_REALTIME_BASE_URL",
    credentials: &[
        CredentialSpec {
            name: "app_id",
            env: "COMMS_TEST_APP_ID",
            secret: false,
            value: None,
        },
        CredentialSpec {
            name: "key",
            env: "COMMS_TEST_KEY",
            secret: false,
            value: None,
        },
        CredentialSpec {
            name: "secret",
            env: "COMMS_TEST_SECRET",
            secret: true,
            value: None,
        },
    ],
    auth: &[AuthScheme::Signature {
        scheme: SigningScheme::PusherHmacSha256 {
            app_id: "app_id",
            key: "key",
            secret: "secret",
        },
    }],
    rate_limit: None,
    rate_limit_headers: RateLimitHeaders::NONE,
    retry: RetrySpec::DEFAULT,
    timeouts: TimeoutSpec::DEFAULT,
    idempotency: None,
    errors: ErrorSpec::DEFAULT,
};

pub static TRIGGER: OperationSpec = OperationSpec::post("trigger_event", "/apps/{app_id}/events");

pub static CHANNELS: OperationSpec = OperationSpec::get("list_channels", "/apps/{app_id}/channels");

/// An email client against `server` with tiny backoff numbers and no client-side rate limit.
pub fn email_client(server: &TestServer) -> ClientBuilder {
    Client::builder(&EMAIL)
        .base_url(server.base_url())
        .api_key(API_KEY)
        .rate_limit(None)
        .retry(
            RetryPolicy::from_spec(&RetrySpec::DEFAULT)
                .backoff(Duration::from_millis(1), Duration::from_millis(5))
                .retry_after_cap(Duration::from_secs(5)),
        )
        .attempt_timeout(Duration::from_secs(5))
}

pub fn get_email(id: &str) -> Request {
    tidings_runtime::Request::new(&GET_EMAIL).path_param("id", id)
}

pub fn send_email() -> Request {
    tidings_runtime::Request::new(&SEND_EMAIL)
        .json(
            &serde_json::json!({"from": "a@example.com", "to": ["b@example.com"], "subject": "hi"}),
        )
        .expect("serialises")
}

pub fn cancel_email(id: &str) -> Request {
    tidings_runtime::Request::new(&CANCEL_EMAIL).path_param("id", id)
}
