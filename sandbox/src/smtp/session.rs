//! One SMTP session of the listener: the command loop (EHLO, STARTTLS, AUTH, MAIL, RCPT, DATA,
//! RSET, NOOP, QUIT) with every read and write under a deadline (idle, DATA, whole session),
//! bounded command lines, a recipient cap answered at RCPT time and AUTH failure throttling.

use std::net::IpAddr;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::time::{Instant, timeout, timeout_at};

use super::mail::ReceivedMail;
use super::wire::{self, DataEnd, DataLimits, Ending, Refusal};
use super::{SMTP_USERNAME, Shared};
use crate::server::ServerError;

/// How long the last reply before a close, and the reading that lets the peer see it, may take.
const CLOSING_GRACE: Duration = Duration::from_secs(1);

/// Most bytes read and dropped after the last reply of a refused stream before closing.
const CLOSING_DRAIN: u64 = 16 * 1024 * 1024;

/// How a conversation over one transport ended normally.
enum End {
    Quit,
    StartTls,
}

/// Why the server ends a session before QUIT.
#[derive(Debug)]
enum Stop {
    /// The peer closed the stream.
    Closed,
    Io(std::io::Error),
    /// No complete command or DATA line within the idle timeout.
    Idle,
    /// The whole session's time is up.
    SessionTime,
    /// The message's DATA took longer than the DATA timeout.
    DataTime,
    /// A command line longer than the limit.
    LineTooLong,
    /// A refused message went on past what is read of it.
    TooMuchData,
    /// Too many AUTH failures on this connection.
    AuthFailures,
    /// Too many AUTH failures from this address lately.
    AuthLocked,
}

impl Stop {
    /// The reply sent before closing, if the peer can still read one.
    fn last_reply(&self, shared: &Shared) -> Option<String> {
        let host = &shared.config.hostname;
        let limits = &shared.config;
        Some(match self {
            Stop::Closed | Stop::Io(_) => return None,
            Stop::Idle => format!("421 4.4.2 {host} Idle timeout, closing connection"),
            Stop::SessionTime => format!("421 4.4.2 {host} Session time limit reached, closing"),
            Stop::DataTime => format!("421 4.4.2 {host} DATA time limit reached, closing"),
            Stop::LineTooLong => format!(
                "500 5.5.2 Line too long (limit {} octets), closing",
                limits.max_command_line
            ),
            Stop::TooMuchData => format!(
                "552 5.3.4 Message too big (limit {} bytes), closing",
                limits.max_message_bytes
            ),
            Stop::AuthFailures => "421 4.7.0 Too many authentication failures, closing".to_owned(),
            Stop::AuthLocked => {
                "421 4.7.0 Too many authentication failures from this address; try again later"
                    .to_owned()
            }
        })
    }
}

/// The earlier of the idle deadline and `hard_end`, with the stop each means.
fn deadline(idle: Duration, hard_end: Instant, hard: fn() -> Stop) -> (Instant, Stop) {
    let idle_end = Instant::now() + idle;
    if idle_end < hard_end {
        (idle_end, Stop::Idle)
    } else {
        (hard_end, hard())
    }
}

/// What a session knows between commands.
#[derive(Default)]
struct State {
    authenticated: bool,
    greeted: bool,
    from: Option<String>,
    to: Vec<String>,
}

/// One transport of a session (plain, then TLS after STARTTLS).
struct Conn<'a, S> {
    io: BufReader<S>,
    shared: &'a Shared,
    peer: IpAddr,
    session_end: Instant,
    auth_failures: u32,
    state: State,
    line: Vec<u8>,
}

/// Serves one accepted connection to its end.
pub(super) async fn run(stream: TcpStream, peer: IpAddr, shared: &Shared) {
    let session_end = Instant::now() + shared.config.session_timeout;
    let mut conn = Conn::new(stream, shared, peer, session_end);
    let greeting = format!("220 {} ESMTP tidings-sandbox ready", shared.config.hostname);
    let outcome = match conn.reply(&greeting).await {
        Ok(()) => conn.converse(false).await,
        Err(stop) => Err(stop),
    };
    match outcome {
        Ok(End::Quit) => {}
        Err(stop) => conn.close(stop).await,
        Ok(End::StartTls) => {
            if !conn.io.buffer().is_empty() {
                // Commands pipelined before the TLS handshake would be injected plaintext.
                tracing::debug!(%peer, "SMTP: data sent before the TLS handshake, closing");
                return;
            }
            let tcp = conn.io.into_inner();
            let handshake_end =
                (Instant::now() + shared.config.tls_handshake_timeout).min(session_end);
            let tls = match timeout_at(handshake_end, shared.tls.accept(tcp)).await {
                Ok(Ok(tls)) => tls,
                Ok(Err(e)) => {
                    tracing::debug!(%peer, error = %e, "SMTP: TLS handshake failed");
                    return;
                }
                Err(_) => {
                    tracing::debug!(%peer, "SMTP: TLS handshake timed out, closing");
                    return;
                }
            };
            let mut conn = Conn::new(tls, shared, peer, session_end);
            if let Err(stop) = conn.converse(true).await {
                conn.close(stop).await;
            }
        }
    }
}

impl<'a, S: AsyncRead + AsyncWrite + Unpin> Conn<'a, S> {
    fn new(stream: S, shared: &'a Shared, peer: IpAddr, session_end: Instant) -> Self {
        Conn {
            io: BufReader::new(stream),
            shared,
            peer,
            session_end,
            auth_failures: 0,
            state: State::default(),
            line: Vec::new(),
        }
    }

    /// Sends the stop's last reply (if any), closes, and reads on briefly so the peer sees the
    /// reply rather than a reset.
    async fn close(mut self, stop: Stop) {
        match &stop {
            Stop::Io(e) => tracing::debug!(peer = %self.peer, error = %e, "SMTP session failed"),
            other => tracing::debug!(peer = %self.peer, reason = ?other, "SMTP session closed"),
        }
        let Some(text) = stop.last_reply(self.shared) else {
            return;
        };
        let stream = self.io.get_mut();
        let _ = timeout(CLOSING_GRACE, async {
            stream.write_all(format!("{text}\r\n").as_bytes()).await?;
            stream.flush().await?;
            stream.shutdown().await
        })
        .await;
        let mut sink = tokio::io::sink();
        let _ = timeout(
            CLOSING_GRACE,
            tokio::io::copy(&mut (&mut self.io).take(CLOSING_DRAIN), &mut sink),
        )
        .await;
    }

    /// One reply (`text` may hold several lines joined by CRLF); CRLF is added.
    async fn reply(&mut self, text: &str) -> Result<(), Stop> {
        let (when, why) = deadline(self.shared.config.idle_timeout, self.session_end, || {
            Stop::SessionTime
        });
        let stream = self.io.get_mut();
        // One write per reply (one TLS record, one segment): a reply split in two waits for
        // the client's delayed ACK under Nagle's algorithm.
        let mut line = Vec::with_capacity(text.len() + 2);
        line.extend_from_slice(text.as_bytes());
        line.extend_from_slice(b"\r\n");
        timeout_at(when, async {
            stream.write_all(&line).await?;
            stream.flush().await
        })
        .await
        .map_err(|_| why)?
        .map_err(Stop::Io)
    }

    /// The next command line, without its line break; `None` when the peer closed.
    async fn command(&mut self) -> Result<Option<String>, Stop> {
        let max = self.shared.config.max_command_line;
        let (when, why) = deadline(self.shared.config.idle_timeout, self.session_end, || {
            Stop::SessionTime
        });
        let read = timeout_at(
            when,
            wire::read_line(&mut self.io, &mut self.line, max, max),
        )
        .await
        .map_err(|_| why)?
        .map_err(Stop::Io)?;
        match read.ending {
            Ending::Eof => Ok(None),
            Ending::OverBudget => Err(Stop::LineTooLong),
            _ if read.overflow => Err(Stop::LineTooLong),
            Ending::Crlf | Ending::BareLf => {
                Ok(Some(String::from_utf8_lossy(&self.line).into_owned()))
            }
        }
    }

    async fn converse(&mut self, tls: bool) -> Result<End, Stop> {
        let config = &self.shared.config;
        loop {
            let Some(line) = self.command().await? else {
                return Err(Stop::Closed);
            };
            let (verb, rest) = match line.split_once(' ') {
                Some((verb, rest)) => (verb.to_ascii_uppercase(), rest.to_owned()),
                None => (line.to_ascii_uppercase(), String::new()),
            };
            match verb.as_str() {
                "EHLO" | "HELO" => {
                    self.state = State {
                        authenticated: self.state.authenticated,
                        greeted: true,
                        ..State::default()
                    };
                    if verb == "HELO" {
                        self.reply(&format!("250 {}", config.hostname)).await?;
                        continue;
                    }
                    let mut lines = vec![
                        config.hostname.clone(),
                        format!("SIZE {}", config.max_message_bytes),
                        "8BITMIME".into(),
                        "ENHANCEDSTATUSCODES".into(),
                    ];
                    lines.push(if tls { "AUTH PLAIN LOGIN" } else { "STARTTLS" }.into());
                    let last = lines.len() - 1;
                    let text: Vec<String> = lines
                        .iter()
                        .enumerate()
                        .map(|(i, l)| format!("250{}{l}", if i == last { ' ' } else { '-' }))
                        .collect();
                    self.reply(&text.join("\r\n")).await?;
                }
                "STARTTLS" if tls => self.reply("503 5.5.1 TLS already active").await?,
                "STARTTLS" => {
                    self.reply("220 2.0.0 Ready to start TLS").await?;
                    return Ok(End::StartTls);
                }
                "AUTH" if !tls => {
                    self.reply("530 5.7.0 Must issue a STARTTLS command first")
                        .await?;
                }
                "AUTH" if self.state.authenticated => {
                    self.reply("503 5.5.1 Already authenticated").await?;
                }
                "AUTH" => self.auth(&rest).await?,
                "MAIL" => self.mail(&rest).await?,
                "RCPT" => self.rcpt(&rest).await?,
                "DATA" => self.data().await?,
                "RSET" => {
                    self.state.from = None;
                    self.state.to.clear();
                    self.reply("250 2.0.0 Ok").await?;
                }
                "NOOP" => self.reply("250 2.0.0 Ok").await?,
                "VRFY" => self.reply("252 2.5.0 Cannot verify the user").await?,
                "QUIT" => {
                    self.reply("221 2.0.0 Bye").await?;
                    let _ = timeout(CLOSING_GRACE, self.io.get_mut().shutdown()).await;
                    return Ok(End::Quit);
                }
                _ if !self.state.greeted => self.reply("503 5.5.1 Say EHLO first").await?,
                _ => self.reply("502 5.5.2 Command not recognized").await?,
            }
        }
    }

    async fn auth(&mut self, rest: &str) -> Result<(), Stop> {
        if self.shared.auth_throttle.locked(self.peer) {
            return Err(Stop::AuthLocked);
        }
        let mut words = rest.split_whitespace();
        let mechanism = words.next().unwrap_or("").to_ascii_uppercase();
        let initial = words.next().map(str::to_owned);
        let credentials = match mechanism.as_str() {
            "PLAIN" => self.auth_plain(initial).await?,
            "LOGIN" => self.auth_login(initial).await?,
            _ => {
                return self
                    .reply("504 5.5.4 Unrecognized authentication type")
                    .await;
            }
        };
        match credentials {
            Some((user, password))
                if user == SMTP_USERNAME && self.shared.gateway.accepts("api_key", &password) =>
            {
                self.state.authenticated = true;
                self.reply("235 2.7.0 Authentication successful").await
            }
            Some(_) => {
                self.auth_failed().await?;
                self.reply("535 5.7.8 Authentication credentials invalid")
                    .await
            }
            None => {
                self.auth_failed().await?;
                self.reply("501 5.5.2 Cannot decode the response").await
            }
        }
    }

    /// Counts a failure here and for the address, waits the failure delay, and stops the
    /// session when either limit is reached.
    async fn auth_failed(&mut self) -> Result<(), Stop> {
        let config = &self.shared.config;
        self.auth_failures = self.auth_failures.saturating_add(1);
        let address_locked = self.shared.auth_throttle.fail(self.peer);
        tracing::info!(peer = %self.peer, failures = self.auth_failures, "SMTP: AUTH refused (wrong user or key)");
        tokio::time::sleep_until(
            (Instant::now() + config.auth_failure_delay).min(self.session_end),
        )
        .await;
        if address_locked {
            Err(Stop::AuthLocked)
        } else if self.auth_failures >= config.auth_failures_per_connection {
            Err(Stop::AuthFailures)
        } else {
            Ok(())
        }
    }

    async fn auth_plain(
        &mut self,
        initial: Option<String>,
    ) -> Result<Option<(String, String)>, Stop> {
        let response = match initial {
            Some(initial) => initial,
            None => {
                self.reply("334 ").await?;
                self.command().await?.ok_or(Stop::Closed)?
            }
        };
        let Ok(decoded) = BASE64.decode(response.trim()) else {
            return Ok(None);
        };
        let mut parts = decoded.split(|b| *b == 0);
        let (_authzid, user, password) = (parts.next(), parts.next(), parts.next());
        Ok(match (user, password) {
            (Some(user), Some(password)) => Some((
                String::from_utf8_lossy(user).into_owned(),
                String::from_utf8_lossy(password).into_owned(),
            )),
            _ => None,
        })
    }

    async fn auth_login(
        &mut self,
        initial: Option<String>,
    ) -> Result<Option<(String, String)>, Stop> {
        let user = match initial {
            Some(initial) => initial,
            None => {
                self.reply("334 VXNlcm5hbWU6").await?;
                self.command().await?.ok_or(Stop::Closed)?
            }
        };
        self.reply("334 UGFzc3dvcmQ6").await?;
        let password = self.command().await?.ok_or(Stop::Closed)?;
        let decode = |s: &str| {
            BASE64
                .decode(s.trim())
                .ok()
                .map(|b| String::from_utf8_lossy(&b).into_owned())
        };
        Ok(decode(&user).zip(decode(&password)))
    }

    async fn mail(&mut self, rest: &str) -> Result<(), Stop> {
        if !self.state.authenticated {
            return self.reply("530 5.7.0 Authentication required").await;
        }
        if let Err(wait) = self.shared.gateway.take_rate_limit() {
            let text = format!(
                "452 4.3.1 Rate limit exceeded; try again in {} s",
                wait.as_secs().max(1)
            );
            return self.reply(&text).await;
        }
        let Some(path) = strip_prefix_ignore_case(rest, "FROM:") else {
            return self.reply("501 5.5.4 Syntax: MAIL FROM:<address>").await;
        };
        let Some(from) = path_address(path) else {
            return self.reply("501 5.5.4 Syntax: MAIL FROM:<address>").await;
        };
        let max = self.shared.config.max_message_bytes;
        if size_parameter(path).is_some_and(|size| size > max as u64) {
            let text = format!("552 5.3.4 Message size exceeds the limit of {max} bytes");
            return self.reply(&text).await;
        }
        self.state.from = Some(from);
        self.state.to.clear();
        self.reply("250 2.1.0 Ok").await
    }

    async fn rcpt(&mut self, rest: &str) -> Result<(), Stop> {
        if self.state.from.is_none() {
            return self.reply("503 5.5.1 Need MAIL before RCPT").await;
        }
        let to = strip_prefix_ignore_case(rest, "TO:").and_then(path_address);
        let Some(to) = to.filter(|to| !to.is_empty()) else {
            return self.reply("501 5.5.4 Syntax: RCPT TO:<address>").await;
        };
        // Failures on demand: `smtp-451@...` and the like are refused with that reply.
        if let Some(reply) = fault_reply(&to) {
            return self.reply(&reply).await;
        }
        if self.state.to.iter().any(|r| r.eq_ignore_ascii_case(&to)) {
            // Named twice: one recipient, and it does not count twice against the limit.
            return self.reply("250 2.1.5 Ok").await;
        }
        let max = self.shared.config.max_recipients;
        if self.state.to.len() >= max {
            let text = format!("452 4.5.3 Too many recipients (limit {max} per message)");
            return self.reply(&text).await;
        }
        self.state.to.push(to);
        self.reply("250 2.1.5 Ok").await
    }

    async fn data(&mut self) -> Result<(), Stop> {
        if self.state.from.is_none() || self.state.to.is_empty() {
            return self.reply("503 5.5.1 Need RCPT before DATA").await;
        }
        self.reply("354 End data with <CR><LF>.<CR><LF>").await?;
        let config = &self.shared.config;
        let limits = DataLimits {
            max_message: config.max_message_bytes,
            max_line: config.max_data_line,
            max_read: config.max_message_bytes.saturating_mul(2),
        };
        let data_end = Instant::now() + config.data_timeout;
        let end = wire::read_data(
            &mut self.io,
            limits,
            &self.shared.storage,
            config.idle_timeout,
            data_end.min(self.session_end),
        )
        .await
        .map_err(Stop::Io)?;
        let from = self.state.from.take().unwrap_or_default();
        let to = std::mem::take(&mut self.state.to);
        let answer = match end {
            DataEnd::Eof => return Err(Stop::Closed),
            DataEnd::OverBudget => return Err(Stop::TooMuchData),
            DataEnd::Idle => return Err(Stop::Idle),
            DataEnd::Deadline if data_end < self.session_end => return Err(Stop::DataTime),
            DataEnd::Deadline => return Err(Stop::SessionTime),
            DataEnd::Refused(refusal) => refusal_reply(refusal, config),
            DataEnd::Message(raw, reservation) => {
                let sink = &self.shared.sink;
                let answer = match sink.deliver_durable(ReceivedMail::new(from, to, raw)) {
                    Ok((id, durable)) => match durable.answer().await {
                        Ok(()) => format!("250 2.0.0 Ok: queued as {id}"),
                        Err(e) => {
                            sink.not_stored(&id);
                            smtp_error(&e)
                        }
                    },
                    Err(e) => smtp_error(&e),
                };
                drop(reservation);
                answer
            }
        };
        self.reply(&answer).await
    }
}

fn refusal_reply(refusal: Refusal, config: &super::SmtpConfig) -> String {
    match refusal {
        Refusal::TooBig => format!(
            "552 5.3.4 Message too big (limit {} bytes)",
            config.max_message_bytes
        ),
        Refusal::LineTooLong => format!(
            "552 5.3.4 Message line too long (limit {} octets with CRLF)",
            config.max_data_line
        ),
        Refusal::BareLineBreak => "554 5.6.0 Bare <CR> or <LF> in the message; lines must end \
                                   with <CR><LF> (RFC 5321 section 2.3.8)"
            .to_owned(),
        Refusal::NoStorage => "452 4.3.1 Insufficient system storage; try again later".to_owned(),
    }
}

/// An error of the store as an SMTP reply.
fn smtp_error(error: &ServerError) -> String {
    let message = error.message().replace(['\r', '\n'], " ");
    match error.status() {
        429 | 503 | 507 => format!("452 4.3.1 {message}"),
        401 | 403 => format!("535 5.7.8 {message}"),
        413 => format!("552 5.3.4 {message}"),
        409 => format!("554 5.7.0 {message}"),
        s if s >= 500 => format!("451 4.3.0 {message}"),
        _ => match error.param() {
            Some(param) => format!("554 5.6.0 `{param}`: {message}"),
            None => format!("554 5.6.0 {message}"),
        },
    }
}

fn strip_prefix_ignore_case<'s>(text: &'s str, prefix: &str) -> Option<&'s str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// `<addr>` (with optional parameters after it) → `addr`.
fn path_address(rest: &str) -> Option<String> {
    let rest = rest.trim();
    let start = rest.find('<')?;
    let end = rest[start..].find('>')? + start;
    Some(rest[start + 1..end].trim().to_owned())
}

/// The `SIZE=` parameter of `MAIL FROM:<addr> SIZE=n` (RFC 1870).
fn size_parameter(rest: &str) -> Option<u64> {
    let parameters = &rest[rest.find('>')? + 1..];
    parameters
        .split_whitespace()
        .find_map(|p| strip_prefix_ignore_case(p, "SIZE="))
        .and_then(|n| n.parse().ok())
}

/// Reply codes a recipient can ask for (`smtp-<code>@...`): the transient and permanent
/// refusals RFC 5321 allows at `RCPT` time.
pub const FAULT_CODES: [u16; 8] = [450, 451, 452, 550, 551, 552, 553, 554];

/// The refusal a recipient asks for: `smtp-451@example.com` is answered `451 4.0.0`,
/// `smtp-550@...` `550 5.0.0` (the local part, case-insensitive); `None` for every other
/// recipient and for codes outside [`FAULT_CODES`].
pub fn fault_reply(recipient: &str) -> Option<String> {
    let (local, _) = recipient.rsplit_once('@')?;
    let code: u16 = local
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("smtp-"))
        .and_then(|_| local.get(5..))?
        .parse()
        .ok()?;
    FAULT_CODES.contains(&code).then(|| {
        format!(
            "{code} {}.0.0 Refused on demand (recipient {recipient})",
            code / 100
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_addresses_and_size_from_mail_and_rcpt_paths() {
        assert_eq!(
            path_address("<ada@example.com> SIZE=100").as_deref(),
            Some("ada@example.com")
        );
        assert_eq!(path_address(" <>").as_deref(), Some(""));
        assert_eq!(path_address("ada@example.com"), None);
        assert_eq!(
            size_parameter("<ada@example.com> BODY=8BITMIME size=100"),
            Some(100)
        );
        assert_eq!(size_parameter("<ada@example.com>"), None);
        assert_eq!(strip_prefix_ignore_case("from:<a>", "FROM:"), Some("<a>"));
        assert_eq!(strip_prefix_ignore_case("fr", "FROM:"), None);
        assert_eq!(strip_prefix_ignore_case("fröm:", "FROM:"), None);
    }
}
