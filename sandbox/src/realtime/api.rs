//! The HTTP API under `/apps/{app_id}`: every request's signature is checked first (401 when
//! it does not hold), then the operation runs. Success bodies are JSON objects; errors are
//! plain text, as Pusher answers them.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use tidings_runtime::realtime::WebSocketRules;

use axum::extract::{Path, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use tidings::realtime::WEBSOCKET;
use tidings_runtime::spec::ChannelAuthKind;

use super::hub::{Hub, USER_CHANNEL_PREFIX};
use super::signature::verify_request;
use crate::server::limits::{ShapeError, is_json, json_shape};
use crate::server::{BodyError, read_body};

/// Most bytes of one event's data (UTF-8).
pub(crate) const MAX_DATA_BYTES: usize = 10_240;
/// Most channels of one trigger.
pub(crate) const MAX_CHANNELS: usize = 100;
/// Most events of one batch.
pub(crate) const MAX_BATCH: usize = 10;
/// Longest event name.
const MAX_EVENT_NAME: usize = 200;

type Answer = Result<Value, (StatusCode, String)>;

fn fail<T>(status: StatusCode, message: impl Into<String>) -> Result<T, (StatusCode, String)> {
    Err((status, message.into()))
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Most JSON values in one request body (a trigger names at most 100 channels).
const MAX_JSON_VALUES: usize = 10_000;
/// Deepest nesting in one request body.
const MAX_JSON_DEPTH: usize = 32;

/// Every request under `/apps/{app_id}/...`: the body is read within the listener's limits
/// (413 over the size, 400 when it ends early, 408 when it does not arrive) before anything else.
pub(crate) async fn handle(
    State(hub): State<Arc<Hub>>,
    Path((app_id, rest)): Path<(String, String)>,
    request: Request,
) -> Response {
    let (parts, body) = request.into_parts();
    let (method, uri) = (parts.method, parts.uri);
    let limits = &hub.config.limits;
    let max = limits
        .max_body_bytes
        .unwrap_or(super::DEFAULT_MAX_BODY_BYTES);
    let answer = match read_body(&parts.headers, body, max, limits.body_read_timeout).await {
        Ok(body) => answer(&hub, &app_id, &rest, &method, &uri, &parts.headers, &body),
        Err(BodyError::TooLarge) => fail(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than {max} bytes"),
        ),
        Err(BodyError::Incomplete(reason)) => fail(
            StatusCode::BAD_REQUEST,
            format!("the body ended before its declared length: {reason}"),
        ),
        Err(BodyError::TimedOut) => fail(
            StatusCode::REQUEST_TIMEOUT,
            "the body did not arrive in time",
        ),
    };
    match answer {
        Ok(value) => (
            StatusCode::OK,
            [("content-type", "application/json")],
            value.to_string(),
        )
            .into_response(),
        Err((status, message)) => {
            tracing::info!(%status, "realtime sandbox: {method} {} refused: {message}", uri.path());
            (
                status,
                [("content-type", "text/plain; charset=utf-8")],
                message,
            )
                .into_response()
        }
    }
}

fn answer(
    hub: &Hub,
    app_id: &str,
    rest: &str,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: &[u8],
) -> Answer {
    let config = &hub.config;
    if app_id != config.app_id {
        return fail(StatusCode::NOT_FOUND, format!("unknown app `{app_id}`"));
    }
    verify_request(
        &config.key,
        &config.secret,
        method.as_str(),
        uri.path(),
        uri.query(),
        body,
        now(),
    )
    .map_err(|m| (StatusCode::UNAUTHORIZED, m))?;
    if !body.is_empty() {
        if !headers.get(CONTENT_TYPE).is_some_and(is_json) {
            return fail(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the body must be JSON: send `Content-Type: application/json`",
            );
        }
        json_shape(body, MAX_JSON_VALUES, MAX_JSON_DEPTH).map_err(|e| match e {
            ShapeError::TooManyValues(_) => {
                (StatusCode::PAYLOAD_TOO_LARGE, format!("the body {e}"))
            }
            ShapeError::TooDeep(_) => (StatusCode::BAD_REQUEST, format!("the body {e}")),
        })?;
    }
    let query: BTreeMap<String, String> =
        url::form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
            .into_owned()
            .collect();
    let segments: Vec<&str> = rest.split('/').collect();
    match (method, segments.as_slice()) {
        (&Method::POST, ["events"]) => trigger(hub, body),
        (&Method::POST, ["batch_events"]) => batch(hub, body),
        (&Method::GET, ["channels"]) => channels(hub, &query),
        (&Method::GET, ["channels", name]) => channel(hub, name, &query),
        (&Method::GET, ["channels", name, "users"]) => users(hub, name),
        (&Method::POST, ["users", user, "terminate_connections"]) => {
            hub.terminate_user(user);
            Ok(json!({}))
        }
        (_, ["events" | "batch_events" | "channels"])
        | (_, ["channels", _] | ["channels", _, "users"])
        | (_, ["users", _, "terminate_connections"]) => fail(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{method} is not allowed on {}", uri.path()),
        ),
        _ => fail(
            StatusCode::NOT_FOUND,
            format!("no such resource: {}", uri.path()),
        ),
    }
}

#[derive(Deserialize)]
struct TriggerBody {
    name: Value,
    data: Value,
    #[serde(default)]
    channels: Option<Vec<String>>,
    #[serde(default)]
    channel: Option<String>,
    #[serde(default)]
    socket_id: Option<String>,
    #[serde(default)]
    info: Option<String>,
}

#[derive(Deserialize)]
struct BatchBody {
    batch: Vec<BatchItem>,
}

#[derive(Deserialize)]
struct BatchItem {
    name: Value,
    channel: String,
    data: Value,
    #[serde(default)]
    socket_id: Option<String>,
    #[serde(default)]
    info: Option<String>,
}

/// One checked event, ready to publish.
struct Checked {
    name: String,
    channels: Vec<String>,
    data: String,
    socket_id: Option<String>,
    info: Vec<String>,
}

fn parse<'a, T: Deserialize<'a>>(body: &'a [u8]) -> Result<T, (StatusCode, String)> {
    serde_json::from_slice(body).map_err(|e| {
        (
            StatusCode::BAD_REQUEST,
            format!("the body is not valid JSON for this operation: {e}"),
        )
    })
}

fn check_event(
    name: &Value,
    channels: Vec<String>,
    data: &Value,
    socket_id: Option<String>,
    info: Option<&str>,
) -> Result<Checked, (StatusCode, String)> {
    let Some(name) = name.as_str() else {
        return fail(StatusCode::BAD_REQUEST, "`name` must be a string");
    };
    if name.is_empty() || name.chars().count() > MAX_EVENT_NAME {
        return fail(
            StatusCode::BAD_REQUEST,
            format!("the event name must be 1 to {MAX_EVENT_NAME} characters"),
        );
    }
    let Some(data) = data.as_str() else {
        return fail(
            StatusCode::BAD_REQUEST,
            "`data` must be a string (JSON-encode objects before sending)",
        );
    };
    if data.len() > MAX_DATA_BYTES {
        return fail(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "event data is {} bytes; at most {MAX_DATA_BYTES}",
                data.len()
            ),
        );
    }
    if channels.is_empty() || channels.len() > MAX_CHANNELS {
        return fail(
            StatusCode::BAD_REQUEST,
            format!("name 1 to {MAX_CHANNELS} channels, not {}", channels.len()),
        );
    }
    for channel in &channels {
        WEBSOCKET
            .check_channel_name(channel, true)
            .map_err(|e| (StatusCode::BAD_REQUEST, e.to_string()))?;
    }
    let encrypted = channels
        .iter()
        .any(|c| WEBSOCKET.channel_kind(c).is_some_and(|k| k.encrypted));
    if encrypted && channels.len() > 1 {
        return fail(
            StatusCode::BAD_REQUEST,
            "an event for an encrypted channel must name that channel alone",
        );
    }
    if let Some(socket_id) = &socket_id {
        WEBSOCKET
            .check_socket_id(socket_id)
            .map_err(|e| (StatusCode::BAD_REQUEST, e.to_string()))?;
    }
    let info: Vec<String> = info
        .map(|i| {
            i.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    if info.iter().any(|i| i == "user_count") && channels.iter().any(|c| !is_presence(c)) {
        return fail(
            StatusCode::BAD_REQUEST,
            "user_count may only be asked for on presence channels",
        );
    }
    Ok(Checked {
        name: name.to_owned(),
        channels,
        data: data.to_owned(),
        socket_id,
        info,
    })
}

fn is_presence(channel: &str) -> bool {
    WEBSOCKET
        .channel_kind(channel)
        .is_some_and(|k| k.auth == ChannelAuthKind::Presence)
}

fn is_cache(channel: &str) -> bool {
    WEBSOCKET.channel_kind(channel).is_some_and(|k| k.cache)
}

fn publish(hub: &Hub, event: &Checked) {
    for channel in &event.channels {
        hub.publish(
            channel,
            &event.name,
            &event.data,
            event.socket_id.as_deref(),
            is_cache(channel),
        );
    }
}

/// The attributes asked for in `info`, of one channel.
fn attributes(hub: &Hub, channel: &str, info: &[String]) -> Value {
    let occupancy = hub.occupancy(channel);
    let mut out = serde_json::Map::new();
    for attribute in info {
        match attribute.as_str() {
            "user_count" => {
                out.insert("user_count".into(), occupancy.user_count.into());
            }
            "subscription_count" => {
                out.insert(
                    "subscription_count".into(),
                    occupancy.subscription_count.into(),
                );
            }
            _ => {}
        }
    }
    Value::Object(out)
}

fn trigger(hub: &Hub, body: &[u8]) -> Answer {
    let request: TriggerBody = parse(body)?;
    let channels = match (request.channels, request.channel) {
        (Some(list), None) => list,
        (None, Some(one)) => vec![one],
        (Some(_), Some(_)) => {
            return fail(
                StatusCode::BAD_REQUEST,
                "give `channels` or `channel`, not both",
            );
        }
        (None, None) => return fail(StatusCode::BAD_REQUEST, "give `channels` or `channel`"),
    };
    let event = check_event(
        &request.name,
        channels,
        &request.data,
        request.socket_id,
        request.info.as_deref(),
    )?;
    publish(hub, &event);
    if event.info.is_empty() {
        return Ok(json!({}));
    }
    let channels: serde_json::Map<String, Value> = event
        .channels
        .iter()
        .map(|c| (c.clone(), attributes(hub, c, &event.info)))
        .collect();
    Ok(json!({ "channels": channels }))
}

fn batch(hub: &Hub, body: &[u8]) -> Answer {
    let request: BatchBody = parse(body)?;
    if request.batch.is_empty() || request.batch.len() > MAX_BATCH {
        return fail(
            StatusCode::BAD_REQUEST,
            format!(
                "a batch has 1 to {MAX_BATCH} events, not {}",
                request.batch.len()
            ),
        );
    }
    // Check every event before publishing any.
    let events = request
        .batch
        .into_iter()
        .map(|item| {
            check_event(
                &item.name,
                vec![item.channel],
                &item.data,
                item.socket_id,
                item.info.as_deref(),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    for event in &events {
        publish(hub, event);
    }
    if events.iter().all(|e| e.info.is_empty()) {
        return Ok(json!({}));
    }
    let answers: Vec<Value> = events
        .iter()
        .map(|e| {
            e.channels
                .first()
                .map_or(json!({}), |c| attributes(hub, c, &e.info))
        })
        .collect();
    Ok(json!({ "batch": answers }))
}

fn channels(hub: &Hub, query: &BTreeMap<String, String>) -> Answer {
    let prefix = query.get("filter_by_prefix").map_or("", String::as_str);
    let info: Vec<String> = query
        .get("info")
        .map(|i| i.split(',').map(|s| s.trim().to_owned()).collect())
        .unwrap_or_default();
    let user_count = info.iter().any(|i| i == "user_count");
    if user_count && !prefix.starts_with("presence-") {
        return fail(
            StatusCode::BAD_REQUEST,
            "info=user_count needs filter_by_prefix=presence-",
        );
    }
    let channels: serde_json::Map<String, Value> = hub
        .occupied()
        .into_iter()
        .filter(|(name, _)| name.starts_with(prefix) && !name.starts_with(USER_CHANNEL_PREFIX))
        .map(|(name, occupancy)| {
            let attributes = if user_count {
                json!({"user_count": occupancy.user_count})
            } else {
                json!({})
            };
            (name, attributes)
        })
        .collect();
    Ok(json!({ "channels": channels }))
}

fn channel(hub: &Hub, name: &str, query: &BTreeMap<String, String>) -> Answer {
    WEBSOCKET
        .check_channel_name(name, true)
        .map_err(|e| (StatusCode::BAD_REQUEST, e.to_string()))?;
    let info: Vec<String> = query
        .get("info")
        .map(|i| i.split(',').map(|s| s.trim().to_owned()).collect())
        .unwrap_or_default();
    if info.iter().any(|i| i == "user_count") && !is_presence(name) {
        return fail(
            StatusCode::BAD_REQUEST,
            "user_count may only be asked for on presence channels",
        );
    }
    let occupancy = hub.occupancy(name);
    let mut out = json!({"occupied": occupancy.subscription_count > 0});
    if let (Value::Object(map), Value::Object(extra)) = (&mut out, attributes(hub, name, &info)) {
        map.extend(extra);
    }
    Ok(out)
}

fn users(hub: &Hub, name: &str) -> Answer {
    if !is_presence(name) {
        return fail(
            StatusCode::BAD_REQUEST,
            format!("`{name}` is not a presence channel"),
        );
    }
    let users: Vec<Value> = hub
        .member_ids(name)
        .into_iter()
        .map(|id| json!({ "id": id }))
        .collect();
    Ok(json!({ "users": users }))
}
