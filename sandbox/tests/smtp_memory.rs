//! Memory bounds of the SMTP listener (issue 14, attack 6), measured by this test binary's own
//! allocator: a counting global allocator records the peak of live heap bytes while an attacker
//! sends one DATA line with no line break, far longer than the message limit.
//! One test per binary run at a time (a lock), so the peak is the attack's alone.

#![allow(clippy::unwrap_used)]

mod smtp_support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tidings_sandbox::email::{EmailSandbox, EmailSandboxConfig};
use tidings_sandbox::smtp::SmtpConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only counters are added.
// (A global allocator cannot be written without `unsafe`.)
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let live = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(live, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        new
    }
}

#[global_allocator]
#[allow(unsafe_code)]
static ALLOCATOR: Counting = Counting;

static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Live heap bytes now; the peak is reset to it.
fn reset_peak() -> usize {
    let live = LIVE.load(Ordering::Relaxed);
    PEAK.store(live, Ordering::Relaxed);
    live
}

const MIB: usize = 1024 * 1024;

/// Sends `total` bytes of `A` as one DATA line (then `<CR><LF>.<CR><LF>`) while reading every
/// reply; returns the replies' text (up to when the server closed) and how long it took.
async fn long_line_attack(sandbox: &EmailSandbox, total: usize) -> (String, Duration) {
    let client = smtp_support::logged_in(sandbox).await;
    let mut client = client;
    client.expect("MAIL FROM:<ada@example.com>", 250).await;
    client.expect("RCPT TO:<grace@example.com>", 250).await;
    client.expect("DATA", 354).await;
    let (mut read, mut write) = tokio::io::split(client.io.into_inner());
    let started = Instant::now();
    let writer = tokio::spawn(async move {
        let chunk = vec![b'A'; 64 * 1024];
        let _ = write.write_all(b"Subject: long\r\n\r\n").await;
        let mut sent = 0;
        while sent < total {
            if write.write_all(&chunk).await.is_err() {
                return; // the server closed: what a bounded server may do
            }
            sent += chunk.len();
        }
        let _ = write.write_all(b"\r\n.\r\n").await;
        let _ = write.flush().await;
    });
    let mut replies = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(Duration::from_secs(30), read.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => {
                replies.extend_from_slice(&buf[..n]);
                if replies.windows(2).any(|w| w == b"\r\n") {
                    break;
                }
            }
            Err(_) => panic!("no reply and no close within 30 s"),
        }
    }
    writer.abort();
    (
        String::from_utf8_lossy(&replies).into_owned(),
        started.elapsed(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_data_line_without_a_line_break_is_never_buffered() {
    let _one = ONE_AT_A_TIME.lock().await;
    let smtp = SmtpConfig::default().max_message_bytes(MIB);
    let sandbox = EmailSandbox::start(EmailSandboxConfig::default().smtp(Some(smtp)))
        .await
        .unwrap();
    let base = reset_peak();
    let (replies, took) = long_line_attack(&sandbox, 64 * MIB).await;
    let growth = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    println!(
        "64 MiB line against a 1 MiB message limit: peak heap +{:.1} MiB, {:.1} s, replies {replies:?}",
        growth as f64 / MIB as f64,
        took.as_secs_f64()
    );
    assert!(
        replies.starts_with("552 "),
        "the message is refused as too big: {replies:?}"
    );
    assert!(
        growth < 4 * MIB,
        "peak heap grew by {growth} bytes for a 64 MiB line against a 1 MiB limit"
    );
    sandbox.shutdown().await;
}
