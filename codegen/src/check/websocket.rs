//! Checking the `events` section (webhooks) and the `websocket` section: URL, names, timings,
//! channel kinds, messages and close codes.

use std::collections::HashMap;

use super::Checker;
use crate::model::DataEncoding;
use crate::names::{is_snake, pascal, snake};
use crate::resolved::{MessageInfo, Origin, Ty, WebSocketInfo, WebhookInfo, defaults};
use tidings_spec::{BackoffSpec, HeartbeatSpec};

impl Checker<'_> {
    /// The webhook of the `events` section.
    pub(super) fn events(&mut self) -> Option<WebhookInfo> {
        let events = self.spec.events.as_ref()?;
        self.require_source("events", events.source);
        let w = events.webhook.as_ref()?;
        {
            let source = self.require_source("events.webhook", w.source.or(events.source));
            if let Some(ty) = &w.ty {
                let ty = ty.clone();
                self.type_ref("events.webhook.type", &ty);
            }
            if let Some(env) = &w.secret_env {
                let env = env.clone();
                self.env_var("events.webhook.secret_env", &env);
            }
            if w.signature.is_some() && w.secret_env.is_none() {
                let d = self.error(
                    "events.webhook",
                    "a signed webhook needs `secret_env`: where the signing secret is read from",
                );
                d.expected = Some("secret_env: COMMS_<SERVICE>_WEBHOOK_SECRET".into());
            }
            Some(WebhookInfo {
                ty: w.ty.clone(),
                signature: w.signature,
                secret_env: w.secret_env.clone(),
                doc: w.doc.clone(),
                origin: Origin {
                    source,
                    note: w.note.clone().or_else(|| events.note.clone()),
                    conflict: w.conflict.clone(),
                },
            })
        }
    }

    /// The `websocket` section: URL, names, timings, channel kinds, messages and close codes.
    pub(super) fn websocket(&mut self) -> Option<WebSocketInfo> {
        let ws = self.spec.websocket.as_ref()?;
        let spec = self.spec;
        let source = self.require_source("websocket", ws.source);
        if !ws.path.starts_with('/') || !ws.path.contains("{key}") {
            let d = self.error_at_value(
                "websocket.path",
                format!("`{}` is not a connection path with the app key", ws.path),
            );
            d.expected =
                Some("a path starting with `/` that contains `{key}`, like /app/{key}".into());
        }
        if ws.protocol == 0 {
            self.error_at_value("websocket.protocol", "the protocol version must be above 0");
        }
        if let Some(names) = &ws.channel_names {
            if names
                .pattern
                .as_deref()
                .is_some_and(|p| !(p.starts_with('^') && p.ends_with('$')))
            {
                let d = self.error_at_value(
                    "websocket.channel_names.pattern",
                    "a channel name pattern must match whole names",
                );
                d.expected = Some("a pattern anchored with `^` and `$`".into());
            }
            if names.max_len == Some(0) {
                self.error_at_value(
                    "websocket.channel_names.max_len",
                    "a longest channel name of 0 allows nothing",
                );
            }
        }
        if ws
            .socket_id_pattern
            .as_deref()
            .is_some_and(|p| !(p.starts_with('^') && p.ends_with('$')))
        {
            let d = self.error_at_value(
                "websocket.socket_id_pattern",
                "a socket id pattern must match whole ids",
            );
            d.expected = Some("a pattern anchored with `^` and `$`".into());
        }
        if let Some(h) = &ws.heartbeat
            && (h.ping_after_ms == 0 || h.pong_timeout_ms == 0)
        {
            self.error("websocket.heartbeat", "heartbeat times must be above 0 ms");
        }
        if let Some(r) = &ws.reconnect
            && r.base_ms > r.cap_ms
        {
            self.error(
                "websocket.reconnect",
                format!(
                    "backoff base {} ms is above its cap {} ms",
                    r.base_ms, r.cap_ms
                ),
            );
        }
        if let Some(c) = &ws.client_events {
            if c.prefix.is_empty() {
                self.error_at_value(
                    "websocket.client_events.prefix",
                    "client events need a name prefix, so they cannot pass for server events",
                );
            }
            if c.max_per_second == Some(0) {
                self.error_at_value(
                    "websocket.client_events.max_per_second",
                    "a rate of 0 client events per second allows nothing",
                );
            }
        }
        // Channel kinds: unique prefixes.
        let mut prefixes: HashMap<&str, &str> = HashMap::new();
        for (name, kind) in &ws.channel_kinds {
            let path = format!("websocket.channel_kinds.{name}");
            if !is_snake(name) {
                let d = self.error(&path, format!("channel kind `{name}` is not snake_case"));
                d.hint = Some(format!("call it `{}`", snake(name)));
            }
            if let Some(other) = prefixes.insert(kind.prefix.as_str(), name.as_str()) {
                let d = self.error_at_value(
                    &format!("{path}.prefix"),
                    format!(
                        "channel kinds `{other}` and `{name}` have the same prefix `{}`",
                        kind.prefix
                    ),
                );
                d.hint = Some("each kind needs its own prefix".into());
            }
            if kind.encrypted && kind.auth == crate::model::ChannelAuthKind::None {
                self.error(
                    &path,
                    format!(
                        "encrypted channel kind `{name}` needs authorization: its key comes with it"
                    ),
                );
            }
        }
        // Messages: unique events per direction, known object payloads, unique roles.
        let mut events: HashMap<(String, bool), String> = HashMap::new();
        let mut roles: HashMap<crate::model::MessageRole, String> = HashMap::new();
        for (name, message) in &ws.messages {
            let path = format!("websocket.messages.{name}");
            if !is_snake(name) || crate::names::is_keyword(name) {
                let d = self.error(&path, format!("message name `{name}` is not snake_case"));
                d.hint = Some(format!("call it `{}`", snake(name)));
            }
            if message.event.is_empty() {
                self.error_at_value(&format!("{path}.event"), "the event name is empty");
            }
            if pascal(name) == "Other" {
                let d = self.error(
                    &path,
                    "the message name `other` clashes with the variant that keeps undefined events",
                );
                d.hint = Some("give the message another name".into());
            }
            use crate::model::Direction;
            let sides: &[bool] = match message.direction {
                Direction::ClientToServer => &[true],
                Direction::ServerToClient => &[false],
                Direction::Both => &[true, false],
            };
            for &client in sides {
                if let Some(other) = events.insert((message.event.clone(), client), name.clone()) {
                    let d = self.error_at_value(
                        &format!("{path}.event"),
                        format!(
                            "messages `{other}` and `{name}` both use the event `{}` in the same direction",
                            message.event
                        ),
                    );
                    d.hint = Some("a receiver could not tell them apart".into());
                }
            }
            if let Some(data) = &message.data {
                let data = data.clone();
                if let Some(ty) = self.type_ref(&format!("{path}.data"), &data) {
                    let is_object = matches!(&ty, Ty::Named(n) if spec.types.get(n).is_some_and(|t| t.fields.is_some()));
                    if !is_object {
                        let d = self.error_at_value(
                            &format!("{path}.data"),
                            format!("message data `{data}` must be an object type"),
                        );
                        d.expected = Some("the name of a type with `fields`".into());
                    }
                }
            } else if message.encoding.is_some() {
                self.error(
                    &format!("{path}.encoding"),
                    "`encoding` applies to messages that carry `data`",
                );
            }
            if let Some(role) = message.role
                && let Some(other) = roles.insert(role, name.clone())
            {
                self.error_at_value(
                    &format!("{path}.role"),
                    format!(
                        "messages `{other}` and `{name}` both play the role `{}`",
                        role.as_str()
                    ),
                );
            }
        }
        let missing: Vec<&str> = crate::model::MessageRole::REQUIRED
            .iter()
            .filter(|r| !roles.contains_key(r))
            .map(|r| r.as_str())
            .collect();
        if !missing.is_empty() {
            let d = self.error(
                "websocket.messages",
                format!(
                    "the protocol has no message for the role{} {}",
                    if missing.len() == 1 { "" } else { "s" },
                    missing.join(", ")
                ),
            );
            d.expected = Some("a message with `role: <role>` for each".into());
            d.hint = Some("the runtime's engine finds connection, heartbeat and subscription messages by role".into());
        }
        // Close codes: inside 4000..=4999, ordered ranges, no overlap.
        let mut ranges: Vec<(u16, u16, usize)> = Vec::new();
        for (i, range) in ws.close_codes.iter().enumerate() {
            let path = format!("websocket.close_codes.{i}");
            if range.from > range.to {
                self.error(
                    &path,
                    format!(
                        "close code range {}..{} is empty: `from` is above `to`",
                        range.from, range.to
                    ),
                );
                continue;
            }
            if range.from < 4000 || range.to > 4999 {
                let d = self.error(
                    &path,
                    format!(
                        "close codes {}..{} are outside the application range",
                        range.from, range.to
                    ),
                );
                d.expected = Some("codes from 4000 to 4999".into());
            }
            if range.min_delay_ms.is_some() && range.action != crate::model::CloseAction::Backoff {
                self.error(&path, "`min_delay_ms` applies to `action: backoff`");
            }
            if let Some((from, to, j)) = ranges
                .iter()
                .find(|(from, to, _)| range.from <= *to && *from <= range.to)
            {
                let d = self.error(
                    &path,
                    format!(
                        "close codes {}..{} overlap {from}..{to} (close_codes.{j})",
                        range.from, range.to
                    ),
                );
                d.hint = Some("each code needs one action".into());
            }
            ranges.push((range.from, range.to, i));
        }
        for generated in ["ClientMessage", "ServerMessage"] {
            if spec.types.contains_key(generated) {
                let d = self.error(
                    &format!("types.{generated}"),
                    format!("type name `{generated}` is taken by the generated WebSocket messages"),
                );
                d.hint = Some(format!("rename the type, e.g. `{generated}Body`"));
            }
        }
        let messages = ws
            .messages
            .iter()
            .map(|(name, m)| MessageInfo {
                name: name.clone(),
                rust: pascal(name),
                event: m.event.clone(),
                direction: m.direction,
                data: m.data.clone(),
                encoding: m
                    .data
                    .as_ref()
                    .map(|_| m.encoding.unwrap_or(DataEncoding::JsonString)),
                encoding_stated: m.encoding.is_some(),
                channel: m.channel,
                role: m.role,
                doc: m.doc.clone(),
                origin: Origin {
                    source: m.source.unwrap_or(source),
                    note: m.note.clone(),
                    conflict: m.conflict.clone(),
                },
            })
            .collect();
        fn to<T: serde::Serialize>(item: &T) -> serde_json::Value {
            serde_json::to_value(item).unwrap_or(serde_json::Value::Null)
        }
        let as_written = [
            ("channel-names", to(&ws.channel_names)),
            ("heartbeat", to(&ws.heartbeat)),
            ("reconnect", to(&ws.reconnect)),
            ("client-events", to(&ws.client_events)),
            ("channel-kinds", to(&ws.channel_kinds)),
            ("close-codes", to(&ws.close_codes)),
        ]
        .into_iter()
        .filter(|(_, v)| !v.is_null())
        .collect();
        Some(WebSocketInfo {
            doc: ws.doc.clone(),
            origin: Origin {
                source,
                note: ws.note.clone(),
                conflict: ws.conflict.clone(),
            },
            path: ws.path.clone(),
            query: ws.query.clone(),
            protocol: ws.protocol,
            socket_id_pattern: ws.socket_id_pattern.clone(),
            channel_names: ws.channel_names.clone(),
            heartbeat: ws.heartbeat.as_ref().map_or(
                HeartbeatSpec {
                    ping_after_ms: defaults::PING_AFTER_MS,
                    pong_timeout_ms: defaults::PONG_TIMEOUT_MS,
                },
                |h| HeartbeatSpec {
                    ping_after_ms: h.ping_after_ms,
                    pong_timeout_ms: h.pong_timeout_ms,
                },
            ),
            reconnect: ws.reconnect.as_ref().map_or(
                BackoffSpec {
                    base_ms: defaults::RECONNECT_BASE_MS,
                    cap_ms: defaults::RECONNECT_CAP_MS,
                },
                |r| BackoffSpec {
                    base_ms: r.base_ms,
                    cap_ms: r.cap_ms,
                },
            ),
            client_events: ws.client_events.clone(),
            channel_kinds: ws.channel_kinds.clone(),
            messages,
            close_codes: ws.close_codes.clone(),
            as_written,
        })
    }
}
