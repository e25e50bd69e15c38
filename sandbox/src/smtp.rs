//! The SMTP relay listener of the email sandbox: a small SMTP server (RFC 5321 subset: EHLO/HELO,
//! STARTTLS with a self-signed certificate made at start, AUTH PLAIN and LOGIN with user
//! `apikey` and the API key as password, MAIL/RCPT/DATA, RSET, NOOP, QUIT) that parses each
//! message and hands it to a [`MailSink`] (the email sandbox's store, so `get_email` and
//! `list_emails` show it).
//!
//! As the spec's `gaps.smtp_relay` describes: `X-Tags` (`name=value` pairs, comma-separated),
//! `X-Template-Id` and `X-Idempotency-Key` headers are honoured; throttling (the gateway's rate
//! limit) is answered with 452. AUTH is only offered after STARTTLS: the API key is the password.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use comms::email::{SendEmailRequest, Tag, TemplateRef};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;

use crate::server::{Background, Gateway, ServerError};

/// The SMTP user name; the password is the API key.
pub const SMTP_USERNAME: &str = comms_runtime::smtp::DEFAULT_USERNAME;

/// Longest command line accepted.
const MAX_LINE: u64 = 4096;

/// Most recipients per message (the spec's `recipients_per_email`).
const MAX_RECIPIENTS: usize = 50;

/// How long a session may stay silent.
const IDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// Settings of the SMTP listener.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SmtpConfig {
    /// Port; 0 (the default) picks a free one.
    pub port: u16,
    /// The name the server greets with and puts in its certificate (`localhost`).
    pub hostname: String,
    /// Largest message accepted, in bytes (advertised as `SIZE`).
    pub max_message_bytes: usize,
}

impl Default for SmtpConfig {
    fn default() -> Self {
        SmtpConfig {
            port: 0,
            hostname: "localhost".into(),
            max_message_bytes: crate::server::DEFAULT_MAX_BODY_BYTES,
        }
    }
}

impl SmtpConfig {
    /// Listens on this port (0: a free one).
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }
}

/// Where accepted messages go.
pub trait MailSink: Send + Sync + 'static {
    /// Stores one message; returns its id. An error is answered with a 4xx/5xx reply.
    ///
    /// # Errors
    ///
    /// A [`ServerError`] when the message is refused (invalid, reused idempotency key...).
    fn deliver(&self, mail: ReceivedMail) -> Result<String, ServerError>;
}

/// One message as received: the envelope and the raw message.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ReceivedMail {
    /// `MAIL FROM` address.
    pub envelope_from: String,
    /// `RCPT TO` addresses.
    pub envelope_to: Vec<String>,
    /// The message as sent (dot-unstuffed).
    pub raw: Vec<u8>,
    /// The `X-Idempotency-Key` header.
    pub idempotency_key: Option<String>,
}

impl ReceivedMail {
    /// A byte string that is the same for the same message: envelope and raw message without
    /// headers that differ between sends of one message (`Date`, `Message-ID`).
    pub fn fingerprint(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(self.envelope_from.as_bytes());
        for to in &self.envelope_to {
            out.push(0);
            out.extend_from_slice(to.as_bytes());
        }
        out.push(0);
        for line in self.raw.split(|b| *b == b'\n') {
            let lower = line.to_ascii_lowercase();
            if lower.starts_with(b"date:") || lower.starts_with(b"message-id:") {
                continue;
            }
            out.extend_from_slice(line);
            out.push(b'\n');
        }
        out
    }

    /// The message as the REST API's send request: headers `From`, `To`, `Cc`, `Reply-To`,
    /// `Subject`, the text and HTML bodies, `X-Tags`, `X-Template-Id`; envelope recipients not
    /// named in `To`/`Cc` are `bcc`.
    ///
    /// # Errors
    ///
    /// A 422 when the message cannot be parsed.
    pub fn to_request(&self) -> Result<SendEmailRequest, ServerError> {
        let message = mail_parser::MessageParser::default()
            .parse(&self.raw)
            .ok_or_else(|| ServerError::validation("message", "not a parseable message"))?;
        let format = |a: &mail_parser::Addr<'_>| -> Option<String> {
            let address = a.address()?;
            Some(match a.name() {
                Some(name) if !name.is_empty() => format!("{name} <{address}>"),
                _ => address.to_owned(),
            })
        };
        let list = |addresses: Option<&mail_parser::Address<'_>>| -> Vec<String> {
            addresses
                .map(|a| a.iter().filter_map(format).collect())
                .unwrap_or_default()
        };
        let from = message
            .from()
            .and_then(|a| a.first())
            .and_then(format)
            .unwrap_or_else(|| self.envelope_from.clone());
        let mut to = list(message.to());
        let cc = list(message.cc());
        let reply_to = list(message.reply_to());
        let named: Vec<String> = to
            .iter()
            .chain(&cc)
            .map(|a| crate::email::bare_address(a).to_ascii_lowercase())
            .collect();
        let bcc: Vec<String> = self
            .envelope_to
            .iter()
            .filter(|r| !named.contains(&r.to_ascii_lowercase()))
            .cloned()
            .collect();
        let bcc = if to.is_empty() {
            to = bcc;
            Vec::new()
        } else {
            bcc
        };
        let text = message
            .text_bodies()
            .find(|p| !p.is_text_html())
            .and_then(|p| p.text_contents())
            .map(str::to_owned);
        let html = message
            .html_bodies()
            .find(|p| p.is_text_html())
            .and_then(|p| p.text_contents())
            .map(str::to_owned);
        let tags: Vec<Tag> = message
            .header_raw("X-Tags")
            .map(|raw| {
                raw.split(',')
                    .filter_map(|pair| {
                        let (name, value) = pair.split_once('=')?;
                        Some(Tag {
                            name: name.trim().to_owned(),
                            value: value.trim().to_owned(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let template = message.header_raw("X-Template-Id").map(|id| TemplateRef {
            id: Some(id.trim().to_owned()),
            alias: None,
            variables: None,
        });
        let mut request = SendEmailRequest::new(from, to);
        if !cc.is_empty() {
            request.cc = Some(cc);
        }
        if !bcc.is_empty() {
            request.bcc = Some(bcc);
        }
        if !reply_to.is_empty() {
            request.reply_to = Some(reply_to);
        }
        request.subject = message.subject().map(str::to_owned);
        if !tags.is_empty() {
            request.tags = Some(tags);
        }
        if template.is_some() {
            request.template = template;
        } else {
            request.html = html;
            request.text = text;
            if request.html.is_none() && request.text.is_none() {
                request.text = Some(String::new());
            }
        }
        Ok(request)
    }
}

/// A running SMTP listener.
pub struct SmtpListener {
    addr: SocketAddr,
    certificate_pem: String,
}

impl fmt::Debug for SmtpListener {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpListener")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

struct Shared {
    config: SmtpConfig,
    gateway: Gateway,
    sink: Arc<dyn MailSink>,
    tls: TlsAcceptor,
}

impl SmtpListener {
    /// Binds `host:config.port`, makes a self-signed certificate for the host name, `localhost`
    /// and the address, and serves sessions on `background` until it shuts down. Credentials
    /// are checked with `gateway` (credential `api_key`).
    ///
    /// # Errors
    ///
    /// When the port cannot be bound or the certificate cannot be made.
    pub async fn start(
        config: SmtpConfig,
        host: IpAddr,
        gateway: Gateway,
        sink: Arc<dyn MailSink>,
        background: Background,
    ) -> std::io::Result<SmtpListener> {
        let names = vec![
            config.hostname.clone(),
            "localhost".into(),
            host.to_string(),
        ];
        let certified = rcgen::generate_simple_self_signed(names)
            .map_err(|e| std::io::Error::other(format!("cannot make the certificate: {e}")))?;
        let certificate_pem = certified.cert.pem();
        let key =
            rustls::pki_types::PrivateKeyDer::Pkcs8(certified.key_pair.serialize_der().into());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(std::io::Error::other)?
            .with_no_client_auth()
            .with_single_cert(vec![certified.cert.der().clone()], key)
            .map_err(std::io::Error::other)?;
        let listener = TcpListener::bind((host, config.port)).await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            config,
            gateway,
            sink,
            tls: TlsAcceptor::from(Arc::new(tls)),
        });
        let sessions = background.clone();
        background.spawn(async move {
            loop {
                match listener.accept().await {
                    Ok((stream, peer)) => {
                        let shared = Arc::clone(&shared);
                        sessions.spawn(async move {
                            if let Err(e) = session(stream, &shared).await {
                                tracing::debug!(%peer, error = %e, "SMTP session ended with an error");
                            }
                        });
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "SMTP accept failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
            }
        });
        Ok(SmtpListener {
            addr,
            certificate_pem,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its self-signed certificate, PEM, for clients to trust.
    pub fn certificate_pem(&self) -> &str {
        &self.certificate_pem
    }
}

/// How a conversation over one transport ended.
enum End {
    Quit,
    StartTls,
}

/// What a session knows between commands.
#[derive(Default)]
struct State {
    authenticated: bool,
    greeted: bool,
    from: Option<String>,
    to: Vec<String>,
}

async fn session(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream);
    let greeting = format!(
        "220 {} ESMTP comms-sandbox ready\r\n",
        shared.config.hostname
    );
    reader.get_mut().write_all(greeting.as_bytes()).await?;
    let mut state = State::default();
    match converse(&mut reader, shared, &mut state, false).await? {
        End::Quit => Ok(()),
        End::StartTls => {
            if !reader.buffer().is_empty() {
                // Commands pipelined before the TLS handshake would be injected plaintext.
                return Err(std::io::Error::other("data sent before the TLS handshake"));
            }
            let tls = shared.tls.accept(reader.into_inner()).await?;
            let mut reader = BufReader::new(tls);
            let mut state = State::default();
            converse(&mut reader, shared, &mut state, true).await?;
            Ok(())
        }
    }
}

async fn reply<S: AsyncWrite + Unpin>(stream: &mut S, text: &str) -> std::io::Result<()> {
    stream.write_all(text.as_bytes()).await?;
    stream.write_all(b"\r\n").await?;
    stream.flush().await
}

/// One line, without its line break; `None` at the end of the stream.
async fn read_line<S: AsyncRead + Unpin>(
    reader: &mut BufReader<S>,
) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    let read = tokio::time::timeout(
        IDLE_TIMEOUT,
        (&mut *reader).take(MAX_LINE).read_until(b'\n', &mut line),
    )
    .await
    .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "SMTP session idle"))??;
    if read == 0 {
        return Ok(None);
    }
    if !line.ends_with(b"\n") {
        return Err(std::io::Error::other("command line too long"));
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// `<addr>` (with optional parameters after it) → `addr`.
fn path_address(rest: &str) -> Option<String> {
    let rest = rest.trim();
    let start = rest.find('<')?;
    let end = rest[start..].find('>')? + start;
    Some(rest[start + 1..end].trim().to_owned())
}

async fn converse<S: AsyncRead + AsyncWrite + Unpin>(
    reader: &mut BufReader<S>,
    shared: &Shared,
    state: &mut State,
    tls: bool,
) -> std::io::Result<End> {
    loop {
        let Some(line) = read_line(reader).await? else {
            return Ok(End::Quit);
        };
        let (verb, rest) = match line.split_once(' ') {
            Some((verb, rest)) => (verb.to_ascii_uppercase(), rest.to_owned()),
            None => (line.to_ascii_uppercase(), String::new()),
        };
        let stream = reader.get_mut();
        match verb.as_str() {
            "EHLO" | "HELO" => {
                *state = State {
                    authenticated: state.authenticated,
                    greeted: true,
                    ..State::default()
                };
                if verb == "HELO" {
                    reply(stream, &format!("250 {}", shared.config.hostname)).await?;
                    continue;
                }
                let mut lines = vec![
                    shared.config.hostname.clone(),
                    format!("SIZE {}", shared.config.max_message_bytes),
                    "8BITMIME".into(),
                    "ENHANCEDSTATUSCODES".into(),
                ];
                if tls {
                    lines.push("AUTH PLAIN LOGIN".into());
                } else {
                    lines.push("STARTTLS".into());
                }
                let last = lines.len() - 1;
                let mut text = String::new();
                for (i, l) in lines.iter().enumerate() {
                    text.push_str(&format!("250{}{l}\r\n", if i == last { ' ' } else { '-' }));
                }
                stream.write_all(text.as_bytes()).await?;
                stream.flush().await?;
            }
            "STARTTLS" if tls => reply(stream, "503 5.5.1 TLS already active").await?,
            "STARTTLS" => {
                reply(stream, "220 2.0.0 Ready to start TLS").await?;
                return Ok(End::StartTls);
            }
            "AUTH" if !tls => {
                reply(stream, "530 5.7.0 Must issue a STARTTLS command first").await?;
            }
            "AUTH" if state.authenticated => {
                reply(stream, "503 5.5.1 Already authenticated").await?;
            }
            "AUTH" => {
                let mut words = rest.split_whitespace();
                let mechanism = words.next().unwrap_or("").to_ascii_uppercase();
                let initial = words.next().map(str::to_owned);
                let credentials = match mechanism.as_str() {
                    "PLAIN" => auth_plain(reader, initial).await?,
                    "LOGIN" => auth_login(reader, initial).await?,
                    _ => {
                        reply(
                            reader.get_mut(),
                            "504 5.5.4 Unrecognized authentication type",
                        )
                        .await?;
                        continue;
                    }
                };
                let stream = reader.get_mut();
                match credentials {
                    Some((user, password))
                        if user == SMTP_USERNAME
                            && shared.gateway.accepts("api_key", &password) =>
                    {
                        state.authenticated = true;
                        reply(stream, "235 2.7.0 Authentication successful").await?;
                    }
                    Some(_) => {
                        reply(stream, "535 5.7.8 Authentication credentials invalid").await?
                    }
                    None => reply(stream, "501 5.5.2 Cannot decode the response").await?,
                }
            }
            "MAIL" => {
                if !state.authenticated {
                    reply(stream, "530 5.7.0 Authentication required").await?;
                    continue;
                }
                if let Err(wait) = shared.gateway.take_rate_limit() {
                    let text = format!(
                        "452 4.3.1 Rate limit exceeded; try again in {} s",
                        wait.as_secs().max(1)
                    );
                    reply(stream, &text).await?;
                    continue;
                }
                let upper = rest.to_ascii_uppercase();
                match upper
                    .strip_prefix("FROM:")
                    .and_then(|_| path_address(&rest[5..]))
                {
                    Some(from) => {
                        state.from = Some(from);
                        state.to.clear();
                        reply(stream, "250 2.1.0 Ok").await?;
                    }
                    None => reply(stream, "501 5.5.4 Syntax: MAIL FROM:<address>").await?,
                }
            }
            "RCPT" => {
                if state.from.is_none() {
                    reply(stream, "503 5.5.1 Need MAIL before RCPT").await?;
                    continue;
                }
                let upper = rest.to_ascii_uppercase();
                match upper
                    .strip_prefix("TO:")
                    .and_then(|_| path_address(&rest[3..]))
                {
                    Some(_) if state.to.len() >= MAX_RECIPIENTS => {
                        reply(stream, "452 4.5.3 Too many recipients").await?;
                    }
                    Some(to) if !to.is_empty() => {
                        state.to.push(to);
                        reply(stream, "250 2.1.5 Ok").await?;
                    }
                    _ => reply(stream, "501 5.5.4 Syntax: RCPT TO:<address>").await?,
                }
            }
            "DATA" => {
                if state.from.is_none() || state.to.is_empty() {
                    reply(stream, "503 5.5.1 Need RCPT before DATA").await?;
                    continue;
                }
                reply(stream, "354 End data with <CR><LF>.<CR><LF>").await?;
                let Some(raw) = read_data(reader, shared.config.max_message_bytes).await? else {
                    reply(reader.get_mut(), "552 5.3.4 Message too big").await?;
                    state.from = None;
                    state.to.clear();
                    continue;
                };
                let idempotency_key = mail_parser::MessageParser::default()
                    .parse_headers(&raw)
                    .and_then(|m| {
                        m.header_raw("X-Idempotency-Key")
                            .map(|k| k.trim().to_owned())
                    });
                let mail = ReceivedMail {
                    envelope_from: state.from.take().unwrap_or_default(),
                    envelope_to: std::mem::take(&mut state.to),
                    raw,
                    idempotency_key,
                };
                let answer = match shared.sink.deliver(mail) {
                    Ok(id) => format!("250 2.0.0 Ok: queued as {id}"),
                    Err(e) => smtp_error(&e),
                };
                reply(reader.get_mut(), &answer).await?;
            }
            "RSET" => {
                state.from = None;
                state.to.clear();
                reply(stream, "250 2.0.0 Ok").await?;
            }
            "NOOP" => reply(stream, "250 2.0.0 Ok").await?,
            "VRFY" => reply(stream, "252 2.5.0 Cannot verify the user").await?,
            "QUIT" => {
                reply(stream, "221 2.0.0 Bye").await?;
                let _ = stream.shutdown().await;
                return Ok(End::Quit);
            }
            _ if !state.greeted => reply(stream, "503 5.5.1 Say EHLO first").await?,
            _ => reply(stream, "502 5.5.2 Command not recognized").await?,
        }
    }
}

/// An error of the store as an SMTP reply.
fn smtp_error(error: &ServerError) -> String {
    let message = error.message().replace(['\r', '\n'], " ");
    match error.status() {
        429 => format!("452 4.3.1 {message}"),
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

/// The message up to the lone `.`, dot-unstuffed; `None` when it is larger than `max` (the
/// rest is read and dropped so the session can go on).
async fn read_data<S: AsyncRead + Unpin>(
    reader: &mut BufReader<S>,
    max: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    let mut data = Vec::new();
    let mut too_big = false;
    loop {
        let mut line = Vec::new();
        let read = tokio::time::timeout(IDLE_TIMEOUT, reader.read_until(b'\n', &mut line))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "SMTP DATA idle"))??;
        if read == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "connection closed during DATA",
            ));
        }
        if line == b".\r\n" || line == b".\n" {
            return Ok((!too_big).then_some(data));
        }
        let line = line.strip_prefix(b".").unwrap_or(&line);
        if data.len() + line.len() > max {
            too_big = true;
            data.clear();
        }
        if !too_big {
            data.extend_from_slice(line);
        }
    }
}

async fn auth_plain<S: AsyncRead + AsyncWrite + Unpin>(
    reader: &mut BufReader<S>,
    initial: Option<String>,
) -> std::io::Result<Option<(String, String)>> {
    let response = match initial {
        Some(initial) => initial,
        None => {
            reply(reader.get_mut(), "334 ").await?;
            read_line(reader).await?.unwrap_or_default()
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

async fn auth_login<S: AsyncRead + AsyncWrite + Unpin>(
    reader: &mut BufReader<S>,
    initial: Option<String>,
) -> std::io::Result<Option<(String, String)>> {
    let user = match initial {
        Some(initial) => initial,
        None => {
            reply(reader.get_mut(), "334 VXNlcm5hbWU6").await?;
            read_line(reader).await?.unwrap_or_default()
        }
    };
    reply(reader.get_mut(), "334 UGFzc3dvcmQ6").await?;
    let password = read_line(reader).await?.unwrap_or_default();
    let decode = |s: &str| {
        BASE64
            .decode(s.trim())
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    Ok(decode(&user).zip(decode(&password)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_addresses_from_mail_and_rcpt_paths() {
        assert_eq!(
            path_address("<ada@example.com> SIZE=100").as_deref(),
            Some("ada@example.com")
        );
        assert_eq!(path_address(" <>").as_deref(), Some(""));
        assert_eq!(path_address("ada@example.com"), None);
    }

    #[test]
    fn turns_a_parsed_message_into_a_send_request() {
        let raw = b"From: Ada <ada@example.com>\r\nTo: grace@example.com\r\nSubject: Hi\r\nX-Tags: campaign=launch, tier=gold\r\nContent-Type: text/plain\r\n\r\nHello there\r\n".to_vec();
        let mail = ReceivedMail {
            envelope_from: "ada@example.com".into(),
            envelope_to: vec!["grace@example.com".into(), "hidden@example.com".into()],
            raw,
            idempotency_key: None,
        };
        let request = mail.to_request().unwrap();
        assert_eq!(request.from, "Ada <ada@example.com>");
        assert_eq!(request.to, vec!["grace@example.com".to_owned()]);
        assert_eq!(request.bcc, Some(vec!["hidden@example.com".to_owned()]));
        assert_eq!(request.subject.as_deref(), Some("Hi"));
        assert_eq!(request.text.as_deref().map(str::trim), Some("Hello there"));
        let tags = request.tags.unwrap();
        assert_eq!(
            (tags[1].name.as_str(), tags[1].value.as_str()),
            ("tier", "gold")
        );
    }
}
