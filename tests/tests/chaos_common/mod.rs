//! A chaos proxy for the realtime tests: a loopback TCP proxy between our WebSocket client and
//! the server (sockudo, or the realtime sandbox) that understands the server-to-client WebSocket framing, so it can drop or delay
//! whole frames, inject malformed ones, and cut every connection at once.
//!
//! Client-to-server bytes pass through untouched (they are masked frames the proxy has no need
//! to read). Server-to-client: the HTTP upgrade answer passes through, then each frame is
//! parsed (RFC 6455 §5.2, unmasked as servers send) and handed to the [`Policy`].
#![allow(dead_code, clippy::unwrap_used)]

pub mod scenario;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::broadcast;

/// What the proxy does to the app events (`"event":"tick"` text frames) it forwards, counted
/// in order across connections: every `drop_every`-th is dropped, every `delay_every`-th held
/// back for `delay`, and before every `inject_every`-th a malformed text frame is sent. Zero
/// turns a rule off.
#[derive(Debug, Clone, Copy, Default)]
pub struct Policy {
    pub drop_every: u64,
    pub delay_every: u64,
    pub delay: Duration,
    pub inject_every: u64,
}

/// Frames that are valid WebSocket text but not valid protocol messages.
pub const MALFORMED: &[&str] = &[
    "{not json",
    r#"{"event":42}"#,
    "[]",
    r#"{"channel":"chaos"}"#,
    r#"{"event":"pusher_internal:subscription_succeeded"}"#,
    r#"{"event":"pusher:error","data":"{\"code\":\"not a number\"}"}"#,
    r#"{"event":"pusher_internal:member_added","channel":"chaos","data":"nope"}"#,
    r#"{"event":"pusher:connection_established","data":"{}"}"#,
    r#"{"event":"tick","channel":"chaos","data":{"seq":"not a number"}}"#,
    "\u{0}\u{1}\u{2}",
];

/// What happened, for the test's accounting.
#[derive(Debug, Default)]
pub struct Stats {
    pub connections: AtomicU64,
    pub ticks: AtomicU64,
    pub delayed: AtomicU64,
    pub injected: AtomicU64,
    pub cuts: AtomicU64,
    /// `seq` of every dropped app event.
    pub dropped: Mutex<Vec<u64>>,
}

#[derive(Debug, Clone)]
enum Control {
    Cut,
    Raw(Vec<u8>),
}

/// A running proxy; stops with the test's runtime.
pub struct ChaosProxy {
    pub port: u16,
    pub stats: Arc<Stats>,
    policy: Arc<Mutex<Policy>>,
    control: broadcast::Sender<Control>,
}

impl ChaosProxy {
    /// Listens on a free loopback port and forwards to `127.0.0.1:upstream`.
    pub async fn start(upstream: u16) -> ChaosProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let stats = Arc::new(Stats::default());
        let policy = Arc::new(Mutex::new(Policy::default()));
        let (control, _) = broadcast::channel(64);
        let (s, p, c) = (stats.clone(), policy.clone(), control.clone());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)).await else {
                    // The server is down: the client sees the connection close.
                    continue;
                };
                s.connections.fetch_add(1, Ordering::Relaxed);
                tokio::spawn(pipe(client, server, s.clone(), p.clone(), c.subscribe()));
            }
        });
        ChaosProxy {
            port,
            stats,
            policy,
            control,
        }
    }

    pub fn ws_url(&self) -> String {
        format!("ws://127.0.0.1:{}", self.port)
    }

    pub fn set_policy(&self, policy: Policy) {
        *self.policy.lock().unwrap() = policy;
    }

    /// Closes every proxied connection at once (a network failure).
    pub fn cut(&self) {
        self.stats.cuts.fetch_add(1, Ordering::Relaxed);
        let _ = self.control.send(Control::Cut);
    }

    /// Sends raw bytes to every connected client, e.g. a broken frame.
    pub fn inject_raw(&self, bytes: Vec<u8>) {
        let _ = self.control.send(Control::Raw(bytes));
    }

    pub fn dropped(&self) -> Vec<u64> {
        self.stats.dropped.lock().unwrap().clone()
    }
}

/// An unmasked server frame.
pub fn encode_frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0x80 | opcode];
    match payload.len() {
        n if n < 126 => out.push(n as u8),
        n if n <= 0xffff => {
            out.push(126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(payload);
    out
}

/// The length of the first complete frame in `buf`, with its opcode, FIN and payload range.
fn next_frame(buf: &[u8]) -> Option<(usize, u8, bool, std::ops::Range<usize>)> {
    if buf.len() < 2 {
        return None;
    }
    let fin = buf[0] & 0x80 != 0;
    let opcode = buf[0] & 0x0f;
    let masked = buf[1] & 0x80 != 0;
    let (len, mut at) = match buf[1] & 0x7f {
        126 if buf.len() >= 4 => (u16::from_be_bytes([buf[2], buf[3]]) as usize, 4),
        127 if buf.len() >= 10 => (
            u64::from_be_bytes(buf[2..10].try_into().unwrap()) as usize,
            10,
        ),
        126 | 127 => return None,
        n => (n as usize, 2),
    };
    if masked {
        at += 4;
    }
    let end = at + len;
    (buf.len() >= end).then_some((end, opcode, fin, at..end))
}

/// The `seq` of an app event frame: `{"event":"tick","data":"{\"seq\":N}"}`.
fn tick_seq(text: &str) -> Option<u64> {
    let frame: serde_json::Value = serde_json::from_str(text).ok()?;
    if frame["event"] != "tick" {
        return None;
    }
    let data: serde_json::Value = serde_json::from_str(frame["data"].as_str()?).ok()?;
    data["seq"].as_u64()
}

async fn pipe(
    client: TcpStream,
    server: TcpStream,
    stats: Arc<Stats>,
    policy: Arc<Mutex<Policy>>,
    mut control: broadcast::Receiver<Control>,
) {
    let (mut client_read, mut client_write) = client.into_split();
    let (mut server_read, mut server_write) = server.into_split();
    let upstream = tokio::spawn(async move {
        let _ = tokio::io::copy(&mut client_read, &mut server_write).await;
        let _ = server_write.shutdown().await;
    });
    let mut buf: Vec<u8> = Vec::new();
    let mut upgraded = false;
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        let n = tokio::select! {
            read = server_read.read(&mut chunk) => match read {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            },
            message = control.recv() => match message {
                Ok(Control::Cut) | Err(broadcast::error::RecvError::Closed) => break,
                Ok(Control::Raw(bytes)) => {
                    if upgraded && client_write.write_all(&bytes).await.is_err() {
                        break;
                    }
                    continue;
                }
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
            },
        };
        buf.extend_from_slice(&chunk[..n]);
        if !upgraded {
            let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
                continue;
            };
            let head: Vec<u8> = buf.drain(..end + 4).collect();
            if client_write.write_all(&head).await.is_err() {
                break;
            }
            upgraded = true;
        }
        let mut failed = false;
        while let Some((len, opcode, fin, payload)) = next_frame(&buf) {
            let frame: Vec<u8> = buf.drain(..len).collect();
            let mut out = Vec::new();
            let mut hold = None;
            let seq = if opcode == 1 && fin {
                std::str::from_utf8(&frame[payload]).ok().and_then(tick_seq)
            } else {
                None
            };
            match seq {
                Some(seq) => {
                    let n = stats.ticks.fetch_add(1, Ordering::Relaxed) + 1;
                    let p = *policy.lock().unwrap();
                    if p.inject_every > 0 && n.is_multiple_of(p.inject_every) {
                        let i = stats.injected.fetch_add(1, Ordering::Relaxed) as usize;
                        out.extend(encode_frame(1, MALFORMED[i % MALFORMED.len()].as_bytes()));
                    }
                    if p.drop_every > 0 && n.is_multiple_of(p.drop_every) {
                        stats.dropped.lock().unwrap().push(seq);
                    } else {
                        if p.delay_every > 0 && n.is_multiple_of(p.delay_every) {
                            stats.delayed.fetch_add(1, Ordering::Relaxed);
                            hold = Some(p.delay);
                        }
                        out.extend(frame);
                    }
                }
                None => out.extend(frame),
            }
            if let Some(delay) = hold {
                tokio::time::sleep(delay).await;
            }
            if client_write.write_all(&out).await.is_err() {
                failed = true;
                break;
            }
        }
        if failed {
            break;
        }
    }
    upstream.abort();
    // Dropping both halves closes the client's and the server's sockets.
}
