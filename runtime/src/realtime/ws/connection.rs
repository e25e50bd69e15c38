//! The task behind a [`super::Connection`]: connect, wait for `connection_established`,
//! (re)subscribe, read frames, ping when silent, and reconnect as the close code says.

use crate::realtime::WebSocketRules;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::{ChannelEvent, Command, ConnectionEvent, Shared, Subscription};
use crate::realtime::auth::{Authorizer, ChannelAuthRequest};
use crate::realtime::crypto::{EncryptedData, decode_shared_secret, decrypt};
use crate::realtime::presence::{Members, id_text};
use crate::realtime::state::{ConnectionState, Reconnect, after_close};
use crate::realtime::{ChannelAuthKind, Frame, MessageRole};

/// Initial capacity of a socket's read buffer; it grows for larger frames. tungstenite's
/// default (128 KiB) was most of a connection's memory, while protocol frames are small
/// (and its own handshake left 4 KiB, hence our handshake for `ws://`).
const READ_BUFFER: usize = 512;

pub(super) struct Config {
    pub(super) authorizer: Option<Arc<dyn Authorizer>>,
    pub(super) ping_after: Duration,
    pub(super) pong_timeout: Duration,
    pub(super) connect_timeout: Duration,
    /// The TLS connector of `wss://` connections when the application added trusted
    /// certificates; tokio-tungstenite's own (the web roots) when `None`.
    pub(super) connector: Option<tokio_tungstenite::Connector>,
}

/// How a session ended.
enum End {
    /// Disconnect asked for, or every handle dropped.
    Stop,
    /// The socket closed or broke; `code` when the server sent one.
    Closed {
        code: Option<u16>,
        connected: bool,
        at_once: bool,
    },
}

use super::socket::Socket;

/// Refuses commands once the task ends, however it ends (also when the runtime drops it).
struct EndCommands(Arc<Shared>);

impl Drop for EndCommands {
    fn drop(&mut self) {
        self.0.end_commands();
    }
}

pub(super) async fn run(shared: Arc<Shared>, config: Config) {
    let _end = EndCommands(shared.clone());
    let mut failures: u32 = 0;
    loop {
        shared.set_state(ConnectionState::Connecting);
        let end = session(&shared, &config).await;
        let (code, connected, at_once) = match end {
            End::Stop => {
                shared.set_state(ConnectionState::Disconnected);
                break;
            }
            End::Closed {
                code,
                connected,
                at_once,
            } => (code, connected, at_once),
        };
        if connected {
            failures = 0;
        }
        let plan = if at_once {
            Reconnect::After(Duration::ZERO)
        } else {
            after_close(shared.spec, code, failures)
        };
        failures = failures.saturating_add(1);
        let delay = match plan {
            Reconnect::Never => {
                shared.report(
                    format!("closed with code {}; not reconnecting", code.unwrap_or(0)),
                    code.map(i64::from),
                    None,
                );
                shared.set_state(ConnectionState::Failed);
                break;
            }
            Reconnect::After(delay) => delay,
        };
        shared.set_state(if connected {
            ConnectionState::Connecting
        } else {
            ConnectionState::Unavailable
        });
        // Wait out the backoff, still answering a disconnect.
        let sleep = tokio::time::sleep(delay);
        tokio::pin!(sleep);
        loop {
            tokio::select! {
                () = &mut sleep => break,
                // Other commands are dropped: subscriptions live in the shared state and are
                // sent on connect.
                command = shared.next_command() => if let Command::Disconnect = command {
                    shared.set_state(ConnectionState::Disconnected);
                    return;
                },
            }
        }
    }
}

/// Remembers the server's close code and reason for `wait_for`'s error message.
fn note_close(
    shared: &Shared,
    frame: Option<&tokio_tungstenite::tungstenite::protocol::CloseFrame>,
) {
    if let Some(frame) = frame {
        let code = u16::from(frame.code);
        // The reason often repeats the `pusher:error` just noted: then the code is enough.
        if !frame.reason.is_empty() && shared.noted(frame.reason.as_str()) {
            shared.note(format!("the server closed the connection with code {code}"));
            return;
        }
        shared.note(if frame.reason.is_empty() {
            format!("the server closed the connection with code {code}")
        } else {
            format!(
                "the server closed the connection with code {code} ({})",
                frame.reason.as_str()
            )
        });
    }
}

#[derive(Deserialize)]
struct Established {
    socket_id: String,
    #[serde(default)]
    activity_timeout: Option<u64>,
}

async fn session(shared: &Arc<Shared>, config: &Config) -> End {
    let broken = |connected| End::Closed {
        code: None,
        connected,
        at_once: false,
    };
    // Boxed, as are the handlers below: a task's future is as large as its largest state,
    // and connecting (DNS, TLS, HTTP upgrade) would otherwise size every connection's task
    // for good (12.6 KiB per connection before, measured with size_of_val).
    let socket = match tokio::time::timeout(
        config.connect_timeout,
        Box::pin(super::socket::connect(
            &shared.url,
            WebSocketConfig::default().read_buffer_size(READ_BUFFER),
            config.connector.clone(),
        )),
    )
    .await
    {
        Ok(Ok(socket)) => socket,
        Ok(Err(e)) => {
            shared.note(format!("cannot connect: {e}"));
            shared.report(format!("cannot connect: {e}"), None, None);
            return broken(false);
        }
        Err(_) => {
            shared.note(format!(
                "connecting timed out after {:?}",
                config.connect_timeout
            ));
            shared.report("connecting timed out", None, None);
            return broken(false);
        }
    };
    let mut session = Session {
        shared: shared.clone(),
        config,
        socket,
        socket_id: String::new(),
        in_flight: std::collections::VecDeque::new(),
    };
    // Wait for connection_established.
    let established_event = shared.spec.event(MessageRole::ConnectionEstablished);
    let deadline = Instant::now() + config.connect_timeout;
    let activity_timeout = loop {
        let message = tokio::select! {
            m = session.socket.next() => m,
            () = tokio::time::sleep_until(deadline) => {
                shared.report("no connection_established from the server", None, None);
                return broken(false);
            }
            command = shared.next_command() => match command {
                Command::Disconnect => return End::Stop,
                _ => continue,
            },
        };
        match message {
            Some(Ok(Message::Text(text))) => {
                let frame = match Frame::parse(text.as_str()) {
                    Ok(f) => f,
                    Err(e) => {
                        shared.report(e.to_string(), None, None);
                        continue;
                    }
                };
                shared
                    .events
                    .send_with(|| ConnectionEvent::Frame(frame.clone()));
                if Some(frame.event.as_str()) == established_event {
                    match frame.payload::<Established>() {
                        Ok(e) => {
                            session.socket_id = e.socket_id;
                            break e.activity_timeout;
                        }
                        Err(e) => {
                            shared.report(e.to_string(), None, None);
                            return broken(false);
                        }
                    }
                }
                session.handle_error_frame(&frame);
            }
            Some(Ok(Message::Close(frame))) => {
                note_close(shared, frame.as_ref());
                return End::Closed {
                    code: frame.map(|f| u16::from(f.code)),
                    connected: false,
                    at_once: false,
                };
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                shared.report(format!("socket error: {e}"), None, None);
                return broken(false);
            }
            None => return broken(false),
        }
    };
    if let Err(e) = shared.spec.check_socket_id(&session.socket_id) {
        shared.report(e.to_string(), None, None);
    }
    {
        let mut inner = shared.lock();
        inner.socket_id = Some(session.socket_id.clone());
    }
    shared.set_state(ConnectionState::Connected);
    // Socket ids change on reconnect: authorize and subscribe everything again.
    let (channels, signin) = {
        let mut inner = shared.lock();
        // Keep the socket id: set_state cleared it only for other states.
        inner.socket_id = Some(session.socket_id.clone());
        let mut names = Vec::new();
        for (name, slot) in &mut inner.channels {
            slot.status = Subscription::Pending;
            slot.requested = false;
            if let Some(extra) = &mut slot.extra {
                extra.members = None;
            }
            if slot.subscribe {
                names.push(name.clone());
            }
        }
        shared.subscriptions_changed.notify_waiters();
        (names, inner.want_signin)
    };
    for channel in channels {
        if let Some(end) = Box::pin(session.start_subscribe(&channel)).await {
            return end;
        }
    }
    if signin {
        session.start_signin();
    }

    let ping_after = match activity_timeout {
        Some(secs) if secs > 0 => config.ping_after.min(Duration::from_secs(secs)),
        _ => config.ping_after,
    };
    let mut last_activity = Instant::now();
    let mut pong_deadline: Option<Instant> = None;
    loop {
        let tick = pong_deadline.unwrap_or(last_activity + ping_after);
        tokio::select! {
            message = session.socket.next() => {
                last_activity = Instant::now();
                pong_deadline = None;
                match message {
                    Some(Ok(Message::Text(text))) => {
                        if let Some(end) = Box::pin(session.on_text(text.as_str())).await {
                            return end;
                        }
                    }
                    Some(Ok(Message::Ping(payload))) => {
                        if session.socket.send(Message::Pong(payload)).await.is_err() {
                            return broken(true);
                        }
                    }
                    Some(Ok(Message::Close(frame))) => {
                        note_close(shared, frame.as_ref());
                        return End::Closed { code: frame.map(|f| u16::from(f.code)), connected: true, at_once: false };
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        shared.report(format!("socket error: {e}"), None, None);
                        return broken(true);
                    }
                    None => return broken(true),
                }
            }
            command = shared.next_command() => {
                if let Some(end) = Box::pin(session.on_command(command)).await {
                    return end;
                }
            }
            () = tokio::time::sleep_until(tick) => {
                if pong_deadline.is_some() {
                    shared.report("no pong from the server in time; reconnecting", None, None);
                    let _ = session.socket.close(None).await;
                    return End::Closed { code: None, connected: true, at_once: true };
                }
                if let Some(end) = session.send_role(MessageRole::Ping).await {
                    return end;
                }
                pong_deadline = Some(Instant::now() + config.pong_timeout);
            }
        }
    }
}

struct Session<'a> {
    shared: Arc<Shared>,
    config: &'a Config,
    socket: Socket,
    socket_id: String,
    /// Subscriptions sent and not yet confirmed, oldest first: some servers (sockudo) refuse
    /// one with a `pusher:error` that names no channel, which is pinned on the oldest.
    in_flight: std::collections::VecDeque<String>,
}

impl Session<'_> {
    async fn send(&mut self, frame: &Frame) -> Option<End> {
        match self.socket.send(Message::text(frame.to_text())).await {
            Ok(()) => None,
            Err(e) => {
                self.shared.report(format!("cannot send: {e}"), None, None);
                Some(End::Closed {
                    code: None,
                    connected: true,
                    at_once: false,
                })
            }
        }
    }

    async fn send_role(&mut self, role: MessageRole) -> Option<End> {
        let event = self.shared.spec.event(role)?;
        self.send(&Frame::new(event)).await
    }

    async fn on_command(&mut self, command: Command) -> Option<End> {
        match command {
            Command::Disconnect => {
                let _ = self.socket.close(None).await;
                Some(End::Stop)
            }
            Command::Reconnect => {
                let _ = self.socket.close(None).await;
                Some(End::Closed {
                    code: None,
                    connected: true,
                    at_once: true,
                })
            }
            Command::Subscribe(channel) => self.start_subscribe(&channel).await,
            Command::Unsubscribe(channel) => {
                let spec = self.shared.spec;
                let message = spec.message(MessageRole::Unsubscribe)?;
                let data = serde_json::json!({ "channel": channel });
                let frame =
                    Frame::encode(message.event, None, Some(&data), message.encoding).ok()?;
                self.send(&frame).await
            }
            Command::Send(frame) => self.send(&frame).await,
            Command::Signin => {
                self.start_signin();
                None
            }
            Command::Authorized {
                channel,
                socket_id,
                result,
            } => {
                if socket_id != self.socket_id {
                    return None; // for an earlier connection
                }
                match *result {
                    Ok(auth) => self.send_subscribe(&channel, Some(auth)).await,
                    Err(reason) => {
                        self.fail_channel(&channel, format!("authorization failed: {reason}"));
                        None
                    }
                }
            }
            Command::UserAuthenticated { socket_id, result } => {
                if socket_id != self.socket_id {
                    return None;
                }
                match *result {
                    Ok(user) => {
                        let message = self.shared.spec.message(MessageRole::Signin)?;
                        let data =
                            serde_json::json!({"auth": user.auth, "user_data": user.user_data});
                        let frame =
                            Frame::encode(message.event, None, Some(&data), message.encoding)
                                .ok()?;
                        self.send(&frame).await
                    }
                    Err(reason) => {
                        self.shared.report(
                            format!("user authentication failed: {reason}"),
                            None,
                            None,
                        );
                        None
                    }
                }
            }
        }
    }

    fn fail_channel(&mut self, channel: &str, reason: String) {
        {
            let mut inner = self.shared.lock();
            if let Some(slot) = inner.channels.get_mut(channel) {
                // A later subscribe() is a retry and must be sent.
                slot.requested = false;
                self.shared
                    .set_status(slot, Subscription::Failed(reason.clone()));
            }
        }
        self.shared.report(reason, None, Some(channel.to_owned()));
    }

    async fn start_subscribe(&mut self, channel: &str) -> Option<End> {
        {
            let mut inner = self.shared.lock();
            let slot = inner.channels.get_mut(channel)?; // unsubscribed meanwhile
            if slot.requested {
                return None; // already subscribed or on its way in this session
            }
            slot.requested = true;
        }
        let kind = self.shared.spec.channel_kind(channel);
        let needs_auth = kind.is_some_and(|k| k.auth != ChannelAuthKind::None || k.encrypted);
        if !needs_auth {
            return self.send_subscribe(channel, None).await;
        }
        let Some(authorizer) = self.config.authorizer.clone() else {
            self.fail_channel(
                channel,
                format!("`{channel}` needs authorization and no authorizer is configured"),
            );
            return None;
        };
        let request = ChannelAuthRequest {
            socket_id: self.socket_id.clone(),
            channel: channel.to_owned(),
        };
        let shared = self.shared.clone();
        let (channel, socket_id) = (channel.to_owned(), self.socket_id.clone());
        tokio::spawn(async move {
            let result = authorizer
                .authorize_channel(request)
                .await
                .map_err(|e| e.to_string());
            shared.command(Command::Authorized {
                channel,
                socket_id,
                result: Box::new(result),
            });
        });
        None
    }

    fn start_signin(&self) {
        let Some(authorizer) = self.config.authorizer.clone() else {
            self.shared
                .report("sign-in needs an authorizer", None, None);
            return;
        };
        let shared = self.shared.clone();
        let socket_id = self.socket_id.clone();
        tokio::spawn(async move {
            let result = authorizer
                .authenticate_user(socket_id.clone())
                .await
                .map_err(|e| e.to_string());
            shared.command(Command::UserAuthenticated {
                socket_id,
                result: Box::new(result),
            });
        });
    }

    async fn send_subscribe(
        &mut self,
        channel: &str,
        auth: Option<crate::realtime::ChannelAuth>,
    ) -> Option<End> {
        let spec = self.shared.spec;
        let encrypted = spec.channel_kind(channel).is_some_and(|k| k.encrypted);
        let mut data = serde_json::Map::new();
        data.insert("channel".into(), channel.into());
        {
            let mut inner = self.shared.lock();
            let slot = inner.channels.get_mut(channel)?; // unsubscribed meanwhile
            if let Some(auth) = &auth {
                data.insert("auth".into(), auth.auth.clone().into());
                if let Some(cd) = &auth.channel_data {
                    data.insert("channel_data".into(), cd.clone().into());
                    slot.extra().me = serde_json::from_str::<serde_json::Value>(cd)
                        .ok()
                        .and_then(|v| v.get("user_id").and_then(id_text));
                }
                if encrypted {
                    match auth.shared_secret.as_deref().map(decode_shared_secret) {
                        Some(Ok(key)) => slot.extra().key = Some(key),
                        _ => {
                            drop(inner);
                            self.fail_channel(
                                channel,
                                "the authorizer gave no valid shared_secret for an encrypted channel"
                                    .into(),
                            );
                            return None;
                        }
                    }
                }
            }
        }
        self.in_flight.retain(|c| c != channel);
        self.in_flight.push_back(channel.to_owned());
        let message = spec.message(MessageRole::Subscribe)?;
        let frame = Frame::encode(
            message.event,
            None,
            Some(&serde_json::Value::Object(data)),
            message.encoding,
        )
        .ok()?;
        self.send(&frame).await
    }

    /// Reports `pusher:error` frames (with or without a channel).
    fn handle_error_frame(&mut self, frame: &Frame) -> bool {
        if self.shared.spec.role_of(&frame.event) != Some(MessageRole::Error) {
            return false;
        }
        #[derive(Deserialize, Default)]
        struct ProtocolError {
            message: Option<String>,
            code: Option<i64>,
        }
        let error: ProtocolError = frame.payload().unwrap_or_default();
        let message = error
            .message
            .unwrap_or_else(|| "the server reported an error".into());
        let channel = frame.channel.clone().or_else(|| {
            // No channel named: while subscriptions are in flight, the oldest was refused.
            while let Some(oldest) = self.in_flight.pop_front() {
                let pending = self
                    .shared
                    .lock()
                    .channels
                    .get(oldest.as_str())
                    .is_some_and(|s| s.status == Subscription::Pending);
                if pending {
                    return Some(oldest);
                }
            }
            None
        });
        if let Some(channel) = &channel {
            let pending = {
                let inner = self.shared.lock();
                inner
                    .channels
                    .get(channel.as_str())
                    .is_some_and(|s| s.status == Subscription::Pending)
            };
            if pending {
                self.fail_channel(channel, message.clone());
                return true;
            }
        }
        if channel.is_none() {
            self.shared.note(match error.code {
                Some(code) => format!("the server said {message} ({code})"),
                None => format!("the server said {message}"),
            });
        }
        self.shared.report(message, error.code, channel);
        true
    }

    async fn on_text(&mut self, text: &str) -> Option<End> {
        let shared = self.shared.clone();
        let frame = match Frame::parse(text) {
            Ok(f) => f,
            Err(e) => {
                shared.report(e.to_string(), None, None);
                return None;
            }
        };
        shared
            .events
            .send_with(|| ConnectionEvent::Frame(frame.clone()));
        let role = shared.spec.role_of(&frame.event);
        match role {
            Some(MessageRole::Ping) => return self.send_role(MessageRole::Pong).await,
            Some(MessageRole::Pong | MessageRole::ConnectionEstablished) => return None,
            Some(MessageRole::Error) => {
                self.handle_error_frame(&frame);
                return None;
            }
            Some(MessageRole::SigninSuccess) => {
                #[derive(Deserialize, Default)]
                struct Success {
                    user_data: Option<String>,
                }
                let success: Success = frame.payload().unwrap_or_default();
                let user_data = success.user_data.unwrap_or_default();
                shared.lock().user_data = Some(user_data.clone());
                shared
                    .events
                    .send_with(|| ConnectionEvent::SignedIn { user_data });
                return None;
            }
            _ => {}
        }
        let Some(channel) = frame.channel.clone() else {
            return None; // connection-level event: observers see it as ConnectionEvent::Frame
        };
        let mut inner = shared.lock();
        let slot = inner.channels.get_mut(channel.as_str())?;
        let mut data = frame.data_text().map(|d| d.into_owned());
        match role {
            Some(MessageRole::SubscriptionSucceeded) => {
                self.in_flight.retain(|c| *c != channel);
                if self.in_flight.is_empty() {
                    // Give back what the burst of subscriptions took.
                    self.in_flight = std::collections::VecDeque::new();
                }
                if shared.spec.channel_kind(&channel).map(|k| k.auth)
                    == Some(ChannelAuthKind::Presence)
                {
                    let presence = frame
                        .payload::<serde_json::Value>()
                        .ok()
                        .and_then(|v| v.get("presence").cloned())
                        .unwrap_or(serde_json::Value::Null);
                    let extra = slot.extra();
                    extra.members = Some(Members::from_snapshot(&presence, extra.me.clone()));
                }
                shared.set_status(slot, Subscription::Subscribed);
            }
            Some(MessageRole::SubscriptionError) => {
                slot.requested = false;
                shared.set_status(slot, Subscription::Failed(data.clone().unwrap_or_default()));
            }
            Some(MessageRole::MemberAdded) => {
                if let (Some(members), Ok(v)) = (
                    slot.extra.as_mut().and_then(|e| e.members.as_mut()),
                    frame.payload::<serde_json::Value>(),
                ) && let Some(id) = v.get("user_id").and_then(id_text)
                {
                    let info = v
                        .get("user_info")
                        .cloned()
                        .unwrap_or(serde_json::Value::Null);
                    members.add(id, info);
                }
            }
            Some(MessageRole::MemberRemoved) => {
                if let (Some(members), Ok(v)) = (
                    slot.extra.as_mut().and_then(|e| e.members.as_mut()),
                    frame.payload::<serde_json::Value>(),
                ) && let Some(id) = v.get("user_id").and_then(id_text)
                {
                    members.remove(&id);
                }
            }
            Some(_) => {}
            None => {
                if let Some(key) = slot.key() {
                    let opened = frame
                        .payload::<EncryptedData>()
                        .and_then(|sealed| decrypt(key, &sealed))
                        .and_then(|plain| {
                            String::from_utf8(plain).map_err(|_| {
                                crate::realtime::decode_error(
                                    "decrypted data is not UTF-8".into(),
                                    b"",
                                )
                            })
                        });
                    match opened {
                        Ok(plain) => data = Some(plain),
                        Err(e) => {
                            drop(inner);
                            shared.report(
                                format!("cannot decrypt `{}`: {e}", frame.event),
                                None,
                                Some(channel),
                            );
                            return None;
                        }
                    }
                }
            }
        }
        // The subscription's own protocol messages (succeeded, error, count, cache miss) are
        // state, read through `wait_subscribed`, `is_subscribed` and `members`, not app events:
        // only app and client events, and presence members joining or leaving, reach
        // `next_event`. Connection observers still see every frame (`ConnectionEvent::Frame`).
        if role.is_some_and(|r| !matches!(r, MessageRole::MemberAdded | MessageRole::MemberRemoved))
        {
            return None;
        }
        slot.deliver(ChannelEvent {
            event: frame.event.clone(),
            channel,
            data,
            user_id: frame.user_id.clone(),
        });
        None
    }
}
