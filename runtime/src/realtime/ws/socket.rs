//! The socket of a connection: for `ws://`, a TCP stream upgraded by our own small HTTP
//! handshake so the WebSocket's read buffer starts small; for `wss://`, tokio-tungstenite's TLS
//! stream, boxed so that plain connections do not carry its size.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Longest handshake response head read; a server sending more is refused.
pub(super) const MAX_RESPONSE_HEAD: usize = 16 * 1024;

/// An open WebSocket.
// The plain variant is the common one and stays inline; boxing it would only add an allocation.
#[allow(clippy::large_enum_variant)]
pub(super) enum Socket {
    /// `ws://`.
    Plain(WebSocketStream<TcpStream>),
    /// `wss://` (rustls state is about 1 KiB).
    Tls(Box<WebSocketStream<MaybeTlsStream<TcpStream>>>),
}

/// Opens a WebSocket to `url` (`ws` or `wss`); the error says why not, for the connection's
/// problem log.
pub(super) async fn connect(
    url: &url::Url,
    config: WebSocketConfig,
    connector: Option<tokio_tungstenite::Connector>,
) -> Result<Socket, String> {
    if url.scheme() != "ws" {
        // Boxed on its own: this future is 9.5 KiB, and inline it would size the connect of
        // every plain connection too (a peak that left the allocator fragmented).
        #[cfg(feature = "tls")]
        let connecting = tokio_tungstenite::connect_async_tls_with_config(
            url.as_str(),
            Some(config),
            false,
            connector,
        );
        // Without TLS there is no connector to pass: a `wss://` URL fails to connect, saying so.
        #[cfg(not(feature = "tls"))]
        let connecting = {
            let _ = connector;
            tokio_tungstenite::connect_async_with_config(url.as_str(), Some(config), false)
        };
        let (socket, _response) = Box::pin(connecting).await.map_err(|e| e.to_string())?;
        return Ok(Socket::Tls(Box::new(socket)));
    }
    let port = url.port_or_known_default().unwrap_or(80);
    let tcp = match url.host() {
        Some(url::Host::Domain(domain)) => TcpStream::connect((domain, port)).await,
        Some(url::Host::Ipv4(ip)) => TcpStream::connect((ip, port)).await,
        Some(url::Host::Ipv6(ip)) => TcpStream::connect((ip, port)).await,
        None => return Err(format!("the URL {url} names no host")),
    }
    .map_err(|e| format!("IO error: {e}"))?;
    let (tcp, rest) = upgrade(tcp, url).await?;
    Ok(Socket::Plain(
        WebSocketStream::from_partially_read(tcp, rest, Role::Client, Some(config)).await,
    ))
}

/// The client's side of the HTTP upgrade (RFC 6455, section 4.1). Returns the stream and the
/// bytes the server sent after the response head (frames already on their way).
async fn upgrade(mut tcp: TcpStream, url: &url::Url) -> Result<(TcpStream, Vec<u8>), String> {
    use tokio_tungstenite::tungstenite::handshake::{client::generate_key, derive_accept_key};
    let key = generate_key();
    let request = format!(
        "GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n\r\n",
        target = &url[url::Position::BeforePath..url::Position::AfterQuery],
        host = &url[url::Position::BeforeHost..url::Position::AfterPort],
    );
    tcp.write_all(request.as_bytes())
        .await
        .map_err(|e| format!("IO error: {e}"))?;
    drop(request);
    let mut head = Vec::new();
    let mut chunk = [0u8; 512];
    let end = loop {
        let n = tcp
            .read(&mut chunk)
            .await
            .map_err(|e| format!("IO error: {e}"))?;
        if n == 0 {
            return Err("the server closed the connection during the WebSocket handshake".into());
        }
        let from = head.len().saturating_sub(3);
        head.extend_from_slice(&chunk[..n]);
        if let Some(at) = head[from..].windows(4).position(|w| w == b"\r\n\r\n") {
            break from + at + 4;
        }
        if head.len() > MAX_RESPONSE_HEAD {
            return Err(format!(
                "the server's handshake response head is longer than {MAX_RESPONSE_HEAD} bytes"
            ));
        }
    };
    check_response(&head[..end], &derive_accept_key(key.as_bytes()))?;
    Ok((tcp, head[end..].to_vec()))
}

/// Checks a handshake response head: status 101, the upgrade headers and the accept key.
fn check_response(head: &[u8], accept: &str) -> Result<(), String> {
    let text = std::str::from_utf8(head)
        .map_err(|_| "the server's handshake response is not text".to_owned())?;
    let mut lines = text.split("\r\n");
    let status = lines.next().unwrap_or_default();
    let mut parts = status.splitn(3, ' ');
    let (version, code, reason) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
    if !version.is_some_and(|v| v.starts_with("HTTP/1.")) {
        return Err(format!(
            "the server's handshake response is not HTTP: {}",
            crate::error::bounded_text(status, 100)
        ));
    }
    if code != Some("101") {
        return Err(format!(
            "HTTP error: {} {}",
            code.unwrap_or(""),
            crate::error::bounded_text(reason, 100)
        ));
    }
    let header = |name: &str| {
        text.split("\r\n").skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    };
    if !header("upgrade").is_some_and(|v| v.eq_ignore_ascii_case("websocket")) {
        return Err("the server's handshake response lacks `Upgrade: websocket`".into());
    }
    if !header("connection").is_some_and(|v| {
        v.split(',')
            .any(|t| t.trim().eq_ignore_ascii_case("upgrade"))
    }) {
        return Err("the server's handshake response lacks `Connection: Upgrade`".into());
    }
    if header("sec-websocket-accept") != Some(accept) {
        return Err("the server's handshake response has a wrong Sec-WebSocket-Accept".into());
    }
    Ok(())
}

impl Socket {
    /// Sends a close frame.
    pub(super) async fn close(&mut self, frame: Option<CloseFrame>) -> Result<(), WsError> {
        match self {
            Socket::Plain(s) => s.close(frame).await,
            Socket::Tls(s) => WebSocketStream::close(s, frame).await,
        }
    }
}

impl Stream for Socket {
    type Item = Result<Message, WsError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.get_mut() {
            Socket::Plain(s) => s.poll_next_unpin(cx),
            Socket::Tls(s) => s.poll_next_unpin(cx),
        }
    }
}

impl Sink<Message> for Socket {
    type Error = WsError;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), WsError>> {
        match self.get_mut() {
            Socket::Plain(s) => s.poll_ready_unpin(cx),
            Socket::Tls(s) => s.poll_ready_unpin(cx),
        }
    }

    fn start_send(self: Pin<&mut Self>, item: Message) -> Result<(), WsError> {
        match self.get_mut() {
            Socket::Plain(s) => s.start_send_unpin(item),
            Socket::Tls(s) => s.start_send_unpin(item),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), WsError>> {
        match self.get_mut() {
            Socket::Plain(s) => s.poll_flush_unpin(cx),
            Socket::Tls(s) => s.poll_flush_unpin(cx),
        }
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), WsError>> {
        match self.get_mut() {
            Socket::Plain(s) => s.poll_close_unpin(cx),
            Socket::Tls(s) => s.poll_close_unpin(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACCEPT: &str = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

    #[test]
    fn a_101_with_the_upgrade_headers_and_the_right_key_is_accepted() {
        let head = format!(
            "HTTP/1.1 101 Switching Protocols\r\nupgrade: WebSocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Accept: {ACCEPT}\r\n\r\n"
        );
        check_response(head.as_bytes(), ACCEPT).unwrap();
    }

    #[test]
    fn refused_or_malformed_handshakes_say_why() {
        let cases = [
            (
                "HTTP/1.1 404 Not Found\r\n\r\n",
                "HTTP error: 404 Not Found",
            ),
            ("SSH-2.0-OpenSSH\r\n\r\n", "not HTTP"),
            (
                "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n\r\n",
                "Upgrade: websocket",
            ),
            (
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n",
                "Connection: Upgrade",
            ),
            (
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: x\r\n\r\n",
                "Sec-WebSocket-Accept",
            ),
            ("HTTP/1.1 101 \u{fffd}\r\n\r\n", "Upgrade"),
        ];
        for (head, expected) in cases {
            let err = check_response(head.as_bytes(), ACCEPT).unwrap_err();
            assert!(err.contains(expected), "{head:?}: {err}");
        }
        assert!(
            check_response(b"HTTP/1.1 101 \xff\r\n\r\n", ACCEPT)
                .unwrap_err()
                .contains("not text")
        );
    }

    #[test]
    fn the_connect_future_is_small_so_many_connects_at_once_leave_no_fragmented_heap() {
        let url = url::Url::parse("ws://127.0.0.1:1/app/k").unwrap();
        let future = connect(&url, WebSocketConfig::default(), None);
        let size = std::mem::size_of_val(&future);
        println!("connect future: {size} bytes");
        // The TLS connect inline made it 9.5 KiB.
        assert!(size <= 2048, "{size}");
    }

    #[tokio::test]
    async fn a_response_head_longer_than_the_limit_is_refused() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut request = [0u8; 1024];
            let _ = s.read(&mut request).await;
            let mut head = b"HTTP/1.1 101 Switching Protocols\r\n".to_vec();
            while head.len() <= MAX_RESPONSE_HEAD + 1024 {
                head.extend_from_slice(b"X-Filler: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n");
            }
            let _ = s.write_all(&head).await;
        });
        let url = url::Url::parse(&format!("ws://{addr}/app/k")).unwrap();
        let Err(err) = connect(&url, WebSocketConfig::default(), None).await else {
            panic!("an endless head is refused");
        };
        assert!(err.contains("longer than"), "{err}");
        server.await.unwrap();
    }

    #[tokio::test]
    async fn frames_sent_right_after_the_response_head_are_kept() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut request = vec![0u8; 4096];
            let n = s.read(&mut request).await.unwrap();
            let request = String::from_utf8_lossy(&request[..n]).into_owned();
            assert!(
                request.starts_with("GET /app/k?protocol=7 HTTP/1.1\r\n"),
                "{request}"
            );
            assert!(
                request.contains(&format!("\r\nHost: {addr}\r\n")),
                "{request}"
            );
            let key = request
                .lines()
                .find_map(|l| l.strip_prefix("Sec-WebSocket-Key: "))
                .unwrap();
            let accept =
                tokio_tungstenite::tungstenite::handshake::derive_accept_key(key.as_bytes());
            // The head and a first text frame ("hi", unmasked) in one write.
            let mut reply = format!(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
            )
            .into_bytes();
            reply.extend_from_slice(&[0x81, 0x02, b'h', b'i']);
            s.write_all(&reply).await.unwrap();
        });
        let url = url::Url::parse(&format!("ws://{addr}/app/k?protocol=7")).unwrap();
        let Ok(mut socket) = connect(&url, WebSocketConfig::default(), None).await else {
            panic!("the handshake succeeds");
        };
        let first = socket.next().await.unwrap().unwrap();
        assert_eq!(first, Message::text("hi"));
        server.await.unwrap();
    }
}
