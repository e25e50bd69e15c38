//! One WebSocket connection: the handshake checks (app key, protocol version), then a loop that
//! reads client frames, writes what the hub queued for this connection (its bounded outbox: a
//! client that does not keep up is closed with 4100), and pings a silent client (closing with
//! 4201 when no pong comes).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tidings_runtime::realtime::WebSocketRules;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use serde::Deserialize;
use serde_json::{Value, json};
use tidings::realtime::WEBSOCKET;
use tidings_runtime::realtime::Frame;
use tidings_runtime::spec::ChannelAuthKind;
use tokio::time::Instant;

use super::codes;
use super::hub::{Hub, Joining, ProtocolError, USER_CHANNEL_PREFIX, frame};
use super::outbox::{Next, outbox};
use super::signature::{check_channel_auth, check_user_auth};

/// Most bytes of a client event's data.
const MAX_CLIENT_EVENT_BYTES: usize = 10_240;

/// How long a close frame may take to go out: a slow client that reads meanwhile gets its
/// close code; one that reads nothing gets the TCP connection closed after it.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// Serves one upgraded connection to the end.
pub(crate) async fn serve(
    hub: Arc<Hub>,
    mut ws: WebSocket,
    key: String,
    query: HashMap<String, String>,
) {
    if key != hub.config.key {
        let error = ProtocolError::new(
            Some(codes::APP_DOES_NOT_EXIST),
            format!("App key {key} does not exist"),
        );
        refuse(ws, &error).await;
        return;
    }
    let refusal = match query.get("protocol").map(String::as_str) {
        None => Some((
            codes::NO_PROTOCOL_VERSION,
            "no protocol version given".to_owned(),
        )),
        Some(v) => match v.parse::<u32>() {
            Err(_) => Some((
                codes::INVALID_VERSION_FORMAT,
                format!("protocol version `{v}` is not a number"),
            )),
            Ok(n) if n != WEBSOCKET.protocol => Some((
                codes::UNSUPPORTED_PROTOCOL_VERSION,
                format!(
                    "protocol version {n} is not supported; this server speaks {}",
                    WEBSOCKET.protocol
                ),
            )),
            Ok(_) => None,
        },
    };
    if let Some((code, message)) = refusal {
        refuse(ws, &ProtocolError::new(Some(code), message)).await;
        return;
    }

    let (tx, mut rx) = outbox(hub.config.max_queued_frames, hub.config.max_queued_bytes);
    let socket_id = hub.register(tx);
    let activity = hub.config.activity_timeout;
    let established = frame(
        "pusher:connection_established",
        None,
        Some(Value::String(
            json!({"socket_id": socket_id, "activity_timeout": activity.as_secs().max(1)})
                .to_string(),
        )),
    );
    if ws.send(Message::text(established)).await.is_err() {
        hub.unregister(&socket_id);
        return;
    }
    tracing::debug!(%socket_id, "realtime sandbox: connection established");

    let mut last_seen = Instant::now();
    let mut pong_deadline: Option<Instant> = None;
    loop {
        let wake = pong_deadline.unwrap_or(last_seen + activity);
        tokio::select! {
            incoming = ws.recv() => {
                let Some(Ok(message)) = incoming else { break };
                last_seen = Instant::now();
                pong_deadline = None;
                match message {
                    Message::Text(text) => on_text(&hub, &socket_id, text.as_str()),
                    Message::Binary(_) => hub.send_to(&socket_id, &ProtocolError::new(None, "binary frames are not part of the protocol; send JSON text").frame()),
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) => {}
                }
            }
            next = rx.next() => match next {
                Next::Text(text) => {
                    // A write to a client that stopped reading may never finish: a close
                    // request (the outbox overflowing meanwhile) ends it.
                    let closing = tokio::select! {
                        sent = ws.send(Message::text(text)) => match sent {
                            Ok(()) => None,
                            Err(_) => break,
                        },
                        request = rx.close_requested() => request,
                    };
                    if let Some((code, reason)) = closing {
                        // Out of every channel at once, not after the close frame drains.
                        hub.unregister(&socket_id);
                        close(&mut ws, code, &reason).await;
                        break;
                    }
                }
                Next::Close((code, reason)) => {
                    hub.unregister(&socket_id);
                    close(&mut ws, code, &reason).await;
                    break;
                }
                Next::Gone => break,
            },
            () = tokio::time::sleep_until(wake) => {
                if pong_deadline.is_some() {
                    close(&mut ws, codes::PONG_NOT_RECEIVED, "pong reply not received").await;
                    break;
                }
                if ws.send(Message::text(frame("pusher:ping", None, Some(Value::String("{}".into()))))).await.is_err() {
                    break;
                }
                pong_deadline = Some(Instant::now() + hub.config.pong_timeout);
            }
        }
    }
    tracing::debug!(%socket_id, "realtime sandbox: connection closed");
    hub.unregister(&socket_id);
}

async fn refuse(mut ws: WebSocket, error: &ProtocolError) {
    let _ = ws.send(Message::text(error.frame())).await;
    close(
        &mut ws,
        error.code.unwrap_or(codes::GENERIC_RECONNECT),
        &error.message,
    )
    .await;
}

async fn close(ws: &mut WebSocket, code: u16, reason: &str) {
    // A close reason is at most 123 bytes.
    let mut reason = reason.to_owned();
    while reason.len() > 123 {
        reason.pop();
    }
    let frame = Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }));
    let _ = tokio::time::timeout(CLOSE_WAIT, ws.send(frame)).await;
}

#[derive(Deserialize)]
struct Subscribe {
    channel: String,
    #[serde(default)]
    auth: Option<String>,
    #[serde(default)]
    channel_data: Option<String>,
}

#[derive(Deserialize)]
struct Unsubscribe {
    channel: String,
}

#[derive(Deserialize)]
struct Signin {
    auth: String,
    user_data: String,
}

/// Handles one client frame; every problem is answered with `pusher:error`.
fn on_text(hub: &Hub, socket_id: &str, text: &str) {
    if let Err(error) = dispatch(hub, socket_id, text) {
        hub.send_to(socket_id, &error.frame());
    }
}

fn bad(message: impl Into<String>) -> ProtocolError {
    ProtocolError::new(None, message)
}

fn dispatch(hub: &Hub, socket_id: &str, text: &str) -> Result<(), ProtocolError> {
    let frame_in = Frame::parse(text).map_err(|e| bad(format!("malformed frame: {e}")))?;
    match frame_in.event.as_str() {
        "pusher:ping" => {
            hub.send_to(
                socket_id,
                &frame("pusher:pong", None, Some(Value::String("{}".into()))),
            );
            Ok(())
        }
        "pusher:pong" => Ok(()),
        "pusher:subscribe" => {
            let data: Subscribe = frame_in
                .payload()
                .map_err(|e| bad(format!("pusher:subscribe: {e}")))?;
            subscribe(hub, socket_id, data)
        }
        "pusher:unsubscribe" => {
            let data: Unsubscribe = frame_in
                .payload()
                .map_err(|e| bad(format!("pusher:unsubscribe: {e}")))?;
            hub.unsubscribe(socket_id, &data.channel);
            Ok(())
        }
        CLOSE_ON_DEMAND_EVENT => {
            let data: CloseOnDemand = frame_in
                .payload()
                .map_err(|e| bad(format!("{CLOSE_ON_DEMAND_EVENT}: {e}")))?;
            close_on_demand(hub, socket_id, &data)
        }
        "pusher:signin" => {
            let data: Signin = frame_in
                .payload()
                .map_err(|e| bad(format!("pusher:signin: {e}")))?;
            signin(hub, socket_id, &data)
        }
        event if event.starts_with("client-") => {
            let channel = frame_in
                .channel
                .clone()
                .ok_or_else(|| bad(format!("client event `{event}` names no channel")))?;
            WEBSOCKET
                .check_client_event(&channel, event)
                .map_err(|e| bad(format!("client event rejected: {e}")).on(&channel))?;
            let size = frame_in.data_text().map_or(0, |d| d.len());
            if size > MAX_CLIENT_EVENT_BYTES {
                return Err(bad(format!(
                    "client event data is {size} bytes; at most {MAX_CLIENT_EVENT_BYTES}"
                ))
                .on(&channel));
            }
            hub.client_event(socket_id, &channel, event, frame_in.data.clone())
        }
        other => Err(bad(format!("unknown event `{other}`"))),
    }
}

/// The event that closes the connection on demand: `{"event": "sandbox:close", "data":
/// {"code": 4200}}` closes it with that code, so an app can test what its client does after each
/// kind of close (a client event name would be relayed; this one is the sandbox's own).
pub const CLOSE_ON_DEMAND_EVENT: &str = "sandbox:close";

#[derive(Deserialize)]
struct CloseOnDemand {
    code: u16,
}

/// Closes the connection with the code asked for: one of the protocol's application range,
/// 4000 to 4299 (4000-4099: do not reconnect; 4100-4199: reconnect after a backoff;
/// 4200-4299: reconnect at once).
fn close_on_demand(hub: &Hub, socket_id: &str, data: &CloseOnDemand) -> Result<(), ProtocolError> {
    if !(4000..=4299).contains(&data.code) {
        return Err(bad(format!(
            "{CLOSE_ON_DEMAND_EVENT}: code {} is outside 4000-4299",
            data.code
        )));
    }
    hub.close_socket(socket_id, data.code, "closed on demand");
    Ok(())
}

fn subscribe(hub: &Hub, socket_id: &str, data: Subscribe) -> Result<(), ProtocolError> {
    let channel = data.channel;
    let unauthorized =
        |message: String| ProtocolError::new(Some(codes::UNAUTHORIZED), message).on(&channel);
    // A signed-in user's own channel (pusher-js subscribes to it after sign-in).
    if let Some(user) = channel.strip_prefix(USER_CHANNEL_PREFIX) {
        if hub.user_of(socket_id).as_deref() == Some(user) {
            return hub.subscribe(socket_id, &channel, None, false);
        }
        return Err(unauthorized(format!(
            "`{channel}` is only for the connection signed in as user `{user}`"
        )));
    }
    WEBSOCKET
        .check_channel_name(&channel, false)
        .map_err(|e| bad(e.to_string()).on(&channel))?;
    let kind = WEBSOCKET.channel_kind(&channel);
    let auth_kind = kind.map_or(ChannelAuthKind::None, |k| k.auth);
    let needs_auth = auth_kind != ChannelAuthKind::None || kind.is_some_and(|k| k.encrypted);
    let cache = kind.is_some_and(|k| k.cache);
    let config = &hub.config;
    let mut joining = None;
    if needs_auth {
        let Some(auth) = data.auth.as_deref() else {
            return Err(unauthorized(format!(
                "subscribing to `{channel}` needs `auth`"
            )));
        };
        let channel_data = if auth_kind == ChannelAuthKind::Presence {
            let Some(text) = data.channel_data.as_deref() else {
                return Err(unauthorized(format!(
                    "subscribing to `{channel}` needs `channel_data`"
                )));
            };
            joining = Some(member(text).map_err(|m| bad(m).on(&channel))?);
            Some(text)
        } else {
            None
        };
        check_channel_auth(
            &config.key,
            &config.secret,
            socket_id,
            &channel,
            channel_data,
            auth,
        )
        .map_err(|m| unauthorized(format!("subscription to `{channel}` refused: {m}")))?;
    }
    hub.subscribe(socket_id, &channel, joining, cache)
}

/// The presence member in `channel_data`: `{"user_id": string or number, "user_info"?}`.
fn member(text: &str) -> Result<Joining, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("channel_data is not JSON ({e})"))?;
    let user_id = match value.get("user_id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => return Err("channel_data needs a non-empty `user_id`".into()),
    };
    let info = value.get("user_info").cloned().unwrap_or(Value::Null);
    Ok(Joining { user_id, info })
}

fn signin(hub: &Hub, socket_id: &str, data: &Signin) -> Result<(), ProtocolError> {
    let config = &hub.config;
    let unauthorized = |m: String| ProtocolError::new(Some(codes::UNAUTHORIZED), m);
    check_user_auth(
        &config.key,
        &config.secret,
        socket_id,
        &data.user_data,
        &data.auth,
    )
    .map_err(|m| unauthorized(format!("sign-in refused: {m}")))?;
    let user: Value = serde_json::from_str(&data.user_data)
        .map_err(|e| unauthorized(format!("sign-in refused: user_data is not JSON ({e})")))?;
    let Some(id) = user
        .get("id")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    else {
        return Err(unauthorized(
            "sign-in refused: user_data needs a non-empty string `id`".into(),
        ));
    };
    hub.signin(socket_id, id);
    hub.send_to(
        socket_id,
        &frame(
            "pusher:signin_success",
            None,
            Some(Value::String(
                json!({"user_data": data.user_data}).to_string(),
            )),
        ),
    );
    Ok(())
}
