//! Shared helpers for the workspace integration tests: a scripted HTTP/1.1 server on loopback
//! that records every request it receives.
//!
//! It is deliberately small and strict: it parses what it gets (request line, headers,
//! `Content-Length` body), answers from a script (a closure per request) and closes each
//! connection, so tests can assert exactly what went over the wire.

mod scratch;

pub use scratch::ScratchTarget;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The raw query string (without `?`), empty when there is none.
    pub query: String,
    /// Headers, names lower-cased.
    pub headers: BTreeMap<String, String>,
    /// The body bytes.
    pub body: Vec<u8>,
}

impl Recorded {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// The query parameters, decoded.
    pub fn query_pairs(&self) -> BTreeMap<String, String> {
        url::form_urlencoded::parse(self.query.as_bytes())
            .into_owned()
            .collect()
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// A scripted answer.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Extra headers.
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: Vec<u8>,
}

impl Reply {
    /// A JSON answer.
    pub fn json(status: u16, body: serde_json::Value) -> Reply {
        Reply {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string().into_bytes(),
        }
    }

    /// Adds a header.
    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }
}

type Script = dyn Fn(&Recorded) -> Reply + Send + Sync;

/// A loopback HTTP server answering from a script and recording requests.
pub struct TestServer {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<Recorded>>>,
    task: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for TestServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestServer")
            .field("addr", &self.addr)
            .finish()
    }
}

impl TestServer {
    /// Starts a server on a free loopback port.
    pub async fn start(script: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("local addr");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let script: Arc<Script> = Arc::new(script);
        let seen = requests.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let script = script.clone();
                let seen = seen.clone();
                tokio::spawn(async move {
                    let Some(request) = read_request(&mut socket).await else {
                        return;
                    };
                    let reply = script(&request);
                    seen.lock().expect("lock").push(request);
                    let mut head = format!(
                        "HTTP/1.1 {} X\r\ncontent-length: {}\r\nconnection: close\r\n",
                        reply.status,
                        reply.body.len()
                    );
                    for (k, v) in &reply.headers {
                        head.push_str(&format!("{k}: {v}\r\n"));
                    }
                    head.push_str("\r\n");
                    let _ = socket.write_all(head.as_bytes()).await;
                    let _ = socket.write_all(&reply.body).await;
                    let _ = socket.shutdown().await;
                });
            }
        });
        TestServer {
            addr,
            requests,
            task,
        }
    }

    /// `http://127.0.0.1:<port>`
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().expect("lock").clone()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn read_request(socket: &mut tokio::net::TcpStream) -> Option<Recorded> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let header_end = loop {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).to_string();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_owned();
    let target = first.next()?.to_owned();
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p.to_owned(), q.to_owned()),
        None => (target, String::new()),
    };
    let headers: BTreeMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[header_end + 4..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Recorded {
        method,
        path,
        query,
        headers,
        body,
    })
}

/// A `SendEmailRequest` with every field set (recipients of each kind, both bodies, three kinds
/// of attachment, a header, tags, metadata, a send time, tracking): for tests that check the
/// whole request on the wire or against the exported OpenAPI document.
pub fn full_send_email_request() -> tidings::email::SendEmailRequest {
    use tidings::email::{Attachment, SendEmailRequest, TrackingSettings};
    SendEmailRequest::new("Ada <ada@example.com>", ["grace@example.com"])
        .cc(["alan@example.com"])
        .bcc(["audit@example.com"])
        .reply_to(["support@example.com"])
        .subject("Launch")
        .html("<p>We launched. <img src=\"cid:logo\"></p>")
        .text("We launched.")
        .attach_bytes("notes.txt", "line 1\nline 2\n")
        .attach(Attachment::from_bytes("logo.png", [0x89, b'P', b'N', b'G']).inline("logo"))
        .attach(Attachment::from_url(
            "terms.pdf",
            "https://files.example.com/terms.pdf",
        ))
        .header("List-Unsubscribe", "<mailto:unsub@example.com>")
        .tag("campaign", "launch")
        .metadata_entry("order", "42")
        .scheduled_at("2026-12-01T09:00:00Z")
        .tracking(TrackingSettings::all())
}

/// A loopback port whose listener accepts every connection and never says a word (a relay or
/// server that hangs): its port. The connections stay open while the runtime runs.
pub async fn silent_listener() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let port = listener.local_addr().expect("its address").port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    port
}
