//! Reading the SMTP wire with bounds: one line at a time with a cap on what is kept and on what
//! is read at all, and the DATA phase, which ends only at `<CR><LF>.<CR><LF>` and refuses bare
//! `<CR>` or `<LF>` (RFC 5321 §2.3.8) instead of guessing where a line ends.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};
use tokio::time::Instant;

/// How a line read ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ending {
    /// At `<CR><LF>`.
    Crlf,
    /// At an `<LF>` with no `<CR>` before it.
    BareLf,
    /// The peer closed the stream (a partial line is dropped).
    Eof,
    /// The read budget ran out before the line ended.
    OverBudget,
}

/// What [`read_line`] saw.
#[derive(Debug, Clone, Copy)]
pub(super) struct LineRead {
    pub ending: Ending,
    /// The line was longer than the kept part: only its start is in the buffer.
    pub overflow: bool,
    /// A `<CR>` not followed by `<LF>` inside the line (only tracked in the kept part).
    pub bare_cr: bool,
    /// Bytes taken off the stream, line break included.
    pub consumed: usize,
}

/// Reads one line into `out` (cleared first; line break not kept). A line is at most `max`
/// octets including its `<CR><LF>`; past that only the start is kept and the rest is read and
/// dropped (`overflow`). At most `budget` bytes are taken off the stream in all, so a line with
/// no break never holds more than `max` bytes of memory nor reads forever.
pub(super) async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    out: &mut Vec<u8>,
    max: usize,
    budget: usize,
) -> std::io::Result<LineRead> {
    out.clear();
    // The `<CR>` before the `<LF>` is kept while it fits, so `max - 1` bytes: content + CR.
    let keep = max.saturating_sub(1);
    let mut read = LineRead {
        ending: Ending::Eof,
        overflow: false,
        bare_cr: false,
        consumed: 0,
    };
    let mut last_was_cr = false;
    loop {
        let room = budget - read.consumed;
        if room == 0 {
            read.ending = Ending::OverBudget;
            return Ok(read);
        }
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            read.ending = Ending::Eof;
            return Ok(read);
        }
        let window = &buf[..buf.len().min(room)];
        let (chunk, found_lf) = match window.iter().position(|b| *b == b'\n') {
            Some(i) => (&window[..i], true),
            None => (window, false),
        };
        if !read.overflow && !chunk.is_empty() {
            // A CR followed by anything inside this chunk is bare (the chunk holds no LF).
            if last_was_cr || chunk[..chunk.len() - 1].contains(&b'\r') {
                read.bare_cr = true;
            }
        }
        if let Some(last) = chunk.last() {
            last_was_cr = *last == b'\r';
        }
        let kept = chunk.len().min(keep - out.len().min(keep));
        out.extend_from_slice(&chunk[..kept]);
        if kept < chunk.len() {
            read.overflow = true;
        }
        let used = chunk.len() + usize::from(found_lf);
        reader.consume(used);
        read.consumed += used;
        if found_lf {
            read.ending = if last_was_cr {
                if !read.overflow {
                    out.pop();
                }
                Ending::Crlf
            } else {
                Ending::BareLf
            };
            return Ok(read);
        }
    }
}

/// Why a message was read to its end but not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refusal {
    /// Over the message size limit.
    TooBig,
    /// A line over the DATA line limit.
    LineTooLong,
    /// A bare `<CR>` or `<LF>`.
    BareLineBreak,
    /// The listener's memory for messages in flight is used up.
    NoStorage,
}

/// Bytes of messages being received, over all sessions, against one cap.
#[derive(Debug)]
pub(super) struct Storage {
    used: AtomicUsize,
    cap: usize,
}

impl Storage {
    pub(super) fn new(cap: usize) -> Arc<Storage> {
        Arc::new(Storage {
            used: AtomicUsize::new(0),
            cap,
        })
    }
}

/// A share of [`Storage`], given back when dropped.
#[derive(Debug)]
pub(super) struct Reservation {
    storage: Arc<Storage>,
    held: usize,
}

impl Reservation {
    pub(super) fn new(storage: &Arc<Storage>) -> Reservation {
        Reservation {
            storage: Arc::clone(storage),
            held: 0,
        }
    }

    /// Takes `bytes` more; false (and nothing taken) when the cap would be passed.
    fn grow(&mut self, bytes: usize) -> bool {
        let cap = self.storage.cap;
        let taken = self
            .storage
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|total| *total <= cap)
            })
            .is_ok();
        if taken {
            self.held += bytes;
        }
        taken
    }

    fn release(&mut self) {
        self.storage.used.fetch_sub(self.held, Ordering::AcqRel);
        self.held = 0;
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.release();
    }
}

/// Limits of one DATA phase.
#[derive(Debug, Clone, Copy)]
pub(super) struct DataLimits {
    /// Largest message kept, in bytes.
    pub max_message: usize,
    /// Longest line, octets with `<CR><LF>`.
    pub max_line: usize,
    /// Most bytes read before giving up on the connection (a refused message is read and
    /// dropped up to its end so the session can go on, but not without end).
    pub max_read: usize,
}

/// How a DATA phase ended.
#[derive(Debug)]
pub(super) enum DataEnd {
    /// `<CR><LF>.<CR><LF>` after a message that may be delivered.
    Message(Vec<u8>, Reservation),
    /// `<CR><LF>.<CR><LF>` after a message that is refused.
    Refused(Refusal),
    /// The peer closed the stream.
    Eof,
    /// `max_read` bytes were read and the message has not ended.
    OverBudget,
    /// No line within the idle timeout.
    Idle,
    /// The message did not end by the hard deadline.
    Deadline,
}

/// Reads one message after `354`, dot-unstuffed, lines kept with `<CR><LF>`. Only a line `.`
/// between two `<CR><LF>` ends it; a bare `<LF>` or `<CR>` anywhere refuses the message (it is
/// read on to the real end, so `<LF>.<CR><LF>` can never start a second, smuggled message).
/// Each line must come within `idle`, the whole message by `hard_end`.
pub(super) async fn read_data<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    limits: DataLimits,
    storage: &Arc<Storage>,
    idle: Duration,
    hard_end: Instant,
) -> std::io::Result<DataEnd> {
    let mut data = Vec::new();
    let mut reservation = Reservation::new(storage);
    let mut refusal = None;
    let mut line = Vec::new();
    let mut read_so_far = 0usize;
    // The DATA command's own line break starts the first line.
    let mut after_crlf = true;
    loop {
        let idle_end = Instant::now() + idle;
        let budget = limits.max_read - read_so_far;
        let read = tokio::time::timeout_at(
            idle_end.min(hard_end),
            read_line(reader, &mut line, limits.max_line, budget),
        )
        .await;
        let Ok(read) = read else {
            return Ok(if idle_end < hard_end {
                DataEnd::Idle
            } else {
                DataEnd::Deadline
            });
        };
        let read = read?;
        read_so_far += read.consumed;
        match read.ending {
            Ending::Eof => return Ok(DataEnd::Eof),
            Ending::OverBudget => return Ok(DataEnd::OverBudget),
            Ending::Crlf | Ending::BareLf => {}
        }
        let clean = read.ending == Ending::Crlf && !read.bare_cr && !read.overflow;
        if clean && after_crlf && line == b"." {
            return Ok(match refusal {
                Some(refusal) => DataEnd::Refused(refusal),
                None => DataEnd::Message(data, reservation),
            });
        }
        if refusal.is_none() {
            refusal = if read.overflow {
                Some(Refusal::LineTooLong)
            } else if !clean {
                Some(Refusal::BareLineBreak)
            } else {
                let content = match line.strip_prefix(b".") {
                    Some(rest) if after_crlf => rest,
                    _ => &line[..],
                };
                let grown = data.len() + content.len() + 2;
                if grown > limits.max_message {
                    Some(Refusal::TooBig)
                } else if !reservation.grow(content.len() + 2) {
                    Some(Refusal::NoStorage)
                } else {
                    data.extend_from_slice(content);
                    data.extend_from_slice(b"\r\n");
                    None
                }
            };
            if refusal.is_some() {
                data = Vec::new();
                reservation.release();
            }
        }
        after_crlf = read.ending == Ending::Crlf;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: DataLimits = DataLimits {
        max_message: 1024,
        max_line: 128,
        max_read: 4096,
    };

    async fn data(input: &[u8]) -> (DataEnd, usize) {
        let mut reader = input;
        let hour = Duration::from_secs(3600);
        let end = read_data(
            &mut reader,
            LIMITS,
            &Storage::new(1 << 20),
            hour,
            Instant::now() + hour,
        )
        .await
        .unwrap();
        (end, reader.len())
    }

    fn message(end: &DataEnd) -> &[u8] {
        match end {
            DataEnd::Message(data, _) => data,
            other => panic!("expected a message, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_line_is_kept_up_to_its_limit_and_read_to_its_end() {
        let mut reader: &[u8] = b"0123456789abcdef\r\nnext\r\n";
        let mut out = Vec::new();
        let read = read_line(&mut reader, &mut out, 8, 1000).await.unwrap();
        assert_eq!(read.ending, Ending::Crlf);
        assert!(read.overflow);
        assert_eq!(out, b"0123456");
        assert_eq!(reader, b"next\r\n");
        let read = read_line(&mut reader, &mut out, 8, 1000).await.unwrap();
        assert_eq!(
            (read.ending, read.overflow, &out[..]),
            (Ending::Crlf, false, &b"next"[..])
        );
    }

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_with_its_crlf_fits() {
        let mut reader: &[u8] = b"123456\r\n";
        let mut out = Vec::new();
        let read = read_line(&mut reader, &mut out, 8, 1000).await.unwrap();
        assert_eq!(
            (read.ending, read.overflow, &out[..]),
            (Ending::Crlf, false, &b"123456"[..])
        );
    }

    #[tokio::test]
    async fn a_line_without_a_break_stops_at_the_budget() {
        let mut reader: &[u8] = &[b'A'; 10_000];
        let mut out = Vec::new();
        let read = read_line(&mut reader, &mut out, 8, 100).await.unwrap();
        assert_eq!(
            (read.ending, read.consumed, out.len()),
            (Ending::OverBudget, 100, 7)
        );
    }

    #[tokio::test]
    async fn bare_line_breaks_are_seen() {
        let mut out = Vec::new();
        let mut reader: &[u8] = b"a\rb\r\n";
        let read = read_line(&mut reader, &mut out, 100, 100).await.unwrap();
        assert!(read.bare_cr);
        let mut reader: &[u8] = b"ab\n";
        let read = read_line(&mut reader, &mut out, 100, 100).await.unwrap();
        assert_eq!((read.ending, read.bare_cr), (Ending::BareLf, false));
    }

    #[tokio::test]
    async fn data_ends_only_at_crlf_dot_crlf_and_is_dot_unstuffed() {
        let (end, left) = data(b"Subject: x\r\n\r\n..dot\r\n.\r\nQUIT\r\n").await;
        assert_eq!(message(&end), b"Subject: x\r\n\r\n.dot\r\n");
        assert_eq!(
            left, 6,
            "the command after the message is left for the session"
        );
    }

    #[tokio::test]
    async fn smuggled_ends_of_data_refuse_the_message_and_never_end_it() {
        for smuggled in [
            &b"\n.\r\n"[..],
            b"\n.\n",
            b"\r.\r",
            b"\r\n.\n",
            b"\r\n.\r",
            b"\r.\r\n",
        ] {
            let mut input = b"Subject: x\r\n\r\nbody".to_vec();
            input.extend_from_slice(smuggled);
            input.extend_from_slice(b"MAIL FROM:<evil@example.com>\r\nRCPT TO:<victim@example.com>\r\nDATA\r\nSubject: smuggled\r\n\r\nhi\r\n.\r\nNOOP\r\n");
            let (end, left) = data(&input).await;
            assert!(
                matches!(end, DataEnd::Refused(Refusal::BareLineBreak)),
                "{smuggled:?}: {end:?}"
            );
            assert_eq!(left, 6, "{smuggled:?}: one message, up to the real end");
        }
    }

    #[tokio::test]
    async fn an_overlong_or_oversized_message_is_read_to_its_end_and_refused() {
        let mut input = vec![b'A'; 200];
        input.extend_from_slice(b"\r\n.\r\n");
        assert!(matches!(
            data(&input).await.0,
            DataEnd::Refused(Refusal::LineTooLong)
        ));
        let input = "0123456789\r\n".repeat(200) + ".\r\n";
        assert!(matches!(
            data(input.as_bytes()).await.0,
            DataEnd::Refused(Refusal::TooBig)
        ));
        let input = "0123456789\r\n".repeat(400);
        assert!(matches!(
            data(input.as_bytes()).await.0,
            DataEnd::OverBudget
        ));
        assert!(matches!(data(b"no end\r\n").await.0, DataEnd::Eof));
    }

    #[tokio::test]
    async fn messages_in_flight_share_one_storage_cap() {
        let storage = Storage::new(100);
        let mut first = Reservation::new(&storage);
        assert!(first.grow(80));
        let mut second = Reservation::new(&storage);
        assert!(!second.grow(30));
        drop(first);
        assert!(second.grow(30));
    }
}
