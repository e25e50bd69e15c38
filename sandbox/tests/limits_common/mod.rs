//! Support for the resource-limit tests: a counting global allocator (the process's own
//! account of the heap it holds now and at its peak), a lock so that only one measuring test
//! runs at a time, and raw HTTP/1.1 over a `TcpStream` for requests a client library would not
//! send (truncated bodies, slow heads, idle connections).
#![allow(dead_code, clippy::unwrap_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The system allocator, counting the bytes held now and the most held since the last reset.
#[derive(Debug)]
pub struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = CURRENT.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// Counting only: every call goes to `System` unchanged.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (see `alloc`).
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

/// Bytes held on the heap now.
pub fn heap_now() -> usize {
    CURRENT.load(Ordering::Relaxed)
}

/// Starts a new peak measurement; returns the bytes held now.
pub fn reset_peak() -> usize {
    let now = CURRENT.load(Ordering::Relaxed);
    PEAK.store(now, Ordering::Relaxed);
    now
}

/// The most bytes held since [`reset_peak`].
pub fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

/// One measuring test at a time (tests of one binary share the allocator).
pub static MEASURING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub const MIB: usize = 1024 * 1024;

/// Connects to `addr`.
pub async fn tcp(addr: std::net::SocketAddr) -> TcpStream {
    TcpStream::connect(addr).await.unwrap()
}

/// Reads until the peer closes or `within` passes; what arrived, and whether it closed.
pub async fn read_until_closed(stream: &mut TcpStream, within: Duration) -> (String, bool) {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    let closed = tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await
    .is_ok();
    (String::from_utf8_lossy(&out).into_owned(), closed)
}

/// Reads one response head (up to the blank line), at most `within`.
pub async fn read_head(stream: &mut TcpStream, within: Duration) -> String {
    let mut out = Vec::new();
    let mut byte = [0u8; 1];
    let _ = tokio::time::timeout(within, async {
        while !out.ends_with(b"\r\n\r\n") {
            match stream.read(&mut byte).await {
                Ok(0) | Err(_) => return,
                Ok(_) => out.push(byte[0]),
            }
        }
    })
    .await;
    String::from_utf8_lossy(&out).into_owned()
}

/// Sends `bytes` as is.
pub async fn send(stream: &mut TcpStream, bytes: &[u8]) {
    stream.write_all(bytes).await.unwrap();
}

/// The status code of a response head (`HTTP/1.1 413 ...` → 413), 0 when there is none.
pub fn status_of(head: &str) -> u16 {
    head.split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}
