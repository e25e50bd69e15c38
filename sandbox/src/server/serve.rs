//! [`Serving`]: the one HTTP/1.1 accept loop the sandboxes share, with graceful shutdown and the
//! connection bounds of [`HttpLimits`]: a cap on open connections per listener (the excess is
//! answered 503 and closed at once) and a lower one per client address
//! ([`super::per_address_cap`]), a header-read timeout that is also the keep-alive idle
//! timeout, a write timeout for clients that stop reading, and the origin checks of
//! [`super::origin`] on every request.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinHandle;
use tokio::time::Sleep;

use super::HttpLimits;
use super::origin::{Allowed, Writes, check};

/// What a connection over the cap is told before it is closed.
const OVER_CAPACITY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\
content-type: text/plain\r\nretry-after: 1\r\ncontent-length: 39\r\n\r\n\
too many connections; retry in a moment";

/// What a connection over its address's cap is told before it is closed.
const OVER_ADDRESS_CAP: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\
content-type: text/plain\r\nretry-after: 1\r\ncontent-length: 51\r\n\r\n\
too many connections from your address; retry later";

/// Pause after a failed `accept` (out of file descriptors, say) before the next one.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// An axum router served on a bound listener in a task, until [`Serving::stop`].
pub(crate) struct Serving {
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
}

impl Serving {
    /// Serves `router` on `listener` within `limits`, closed to other origins
    /// ([`super::origin`]: the names in `limits.allowed_hosts`, and state changes taking the
    /// bodies `writes` says); `name` labels the log lines.
    pub(crate) fn spawn(
        listener: TcpListener,
        router: axum::Router,
        name: &'static str,
        limits: &HttpLimits,
        writes: Writes,
    ) -> Serving {
        let port = listener.local_addr().map_or(0, |a| a.port());
        let allowed = Allowed::new(&limits.allowed_hosts, port, name, writes);
        let router = router.layer(axum::middleware::from_fn_with_state(allowed, check));
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(accept_loop(listener, router, name, limits.clone(), stopped));
        Serving {
            stop,
            task: Some(task),
        }
    }

    /// Stops accepting and lets open requests finish; does not wait. Idempotent.
    pub(crate) fn stop(&mut self) {
        self.stop.send_replace(true);
    }

    /// [`Self::stop`], then waits for open connections to end, at most `limit`.
    pub(crate) async fn stop_and_wait(&mut self, limit: Duration) {
        self.stop();
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(limit, task).await;
        }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        self.stop();
    }
}

async fn accept_loop(
    listener: TcpListener,
    router: axum::Router,
    name: &'static str,
    limits: HttpLimits,
    mut stopped: watch::Receiver<bool>,
) {
    let max = limits.max_connections.max(1);
    let permits = Arc::new(Semaphore::new(max));
    let per_address = super::per_address::PerAddress::for_listener(max);
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true);
    let service = TowerToHyperService::new(router);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stopping(&mut stopped) => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                tracing::warn!(error = %e, "{name} sandbox: accept failed");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            // Never queued: a full server answers at once, without waiting on the client.
            let _ = stream.try_write(OVER_CAPACITY);
            tracing::warn!(
                "{name} sandbox: connection cap reached ({max} open); one more refused with 503"
            );
            continue;
        };
        let Some(slot) = per_address.take(peer.ip()) else {
            let _ = stream.try_write(OVER_ADDRESS_CAP);
            tracing::warn!(
                %peer,
                "{name} sandbox: {} connections open from one address; one more refused with 503",
                per_address.cap()
            );
            continue;
        };
        let io = TokioIo::new(GuardedStream::new(
            stream,
            (permit, slot),
            limits.write_timeout,
        ));
        let connection = builder
            .serve_connection(io, service.clone())
            .with_upgrades();
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            let result = tokio::select! {
                result = connection.as_mut() => result,
                () = stopping(&mut stopped) => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = result {
                tracing::debug!(error = %e, "{name} sandbox: connection ended");
            }
        });
    }
    drop(listener);
    // Every permit back means every connection (upgraded ones included) has ended.
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = permits.acquire_many(all).await;
}

/// Resolves once the server is asked to stop (or its handle is gone).
async fn stopping(stopped: &mut watch::Receiver<bool>) {
    let _ = stopped.wait_for(|stop| *stop).await;
}

/// A TCP stream that holds its connection's permit (so an upgraded WebSocket still counts) and
/// fails a write that makes no progress for `write_timeout`.
struct GuardedStream {
    inner: TcpStream,
    _permit: (OwnedSemaphorePermit, super::per_address::AddressSlot),
    write_timeout: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl GuardedStream {
    fn new(
        inner: TcpStream,
        permit: (OwnedSemaphorePermit, super::per_address::AddressSlot),
        write_timeout: Duration,
    ) -> Self {
        GuardedStream {
            inner,
            _permit: permit,
            write_timeout,
            stalled: None,
        }
    }

    /// Maps a write's readiness: progress clears the stall clock, a pending write starts it,
    /// and a stall past the timeout is an error.
    fn watch_stall<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let timeout = self.write_timeout;
        let stall = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        ready!(stall.as_mut().poll(cx));
        self.stalled = None;
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client stopped reading",
        )))
    }
}

impl AsyncRead for GuardedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for GuardedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.watch_stall(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.watch_stall(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.watch_stall(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
