//! AsyncAPI 3 documents of a service's WebSocket protocol (the spec's `websocket` section).
//!
//! The document describes the **client**: `send` operations are the messages a client sends
//! (`client_to_server`), `receive` operations the ones it gets (`server_to_client`); a message
//! of direction `both` has one of each. All messages travel on one channel, the connection
//! (`websocket.path`, with the query of `websocket.query` as a `ws` binding). Each message's
//! payload is the protocol frame `{event, channel?, data?}` with `event` fixed; `data` is the
//! payload type as an object (`encoding: object`) or, for `json_string`, a string holding it as
//! JSON (receivers also accept the object). Besides the protocol messages, two generic ones
//! carry the application's own events: events on subscribed channels, and client events.
//!
//! Heartbeat, reconnection, channel kinds, channel names and close codes have no AsyncAPI
//! fields: they are `x-` extensions of the channel, as the spec writes them.

use serde_json::{Map, Value, json};

use super::{Dialect, describe, origin, provenance, reachable, schema_ref, type_schemas};
use crate::model::{DataEncoding, Direction};
use crate::resolved::{MessageInfo, Service, Ty};

const CHANNEL: &str = "connection";

/// The AsyncAPI 3 document of a service's WebSocket protocol; an empty object when the service
/// has none.
pub fn document(service: &Service) -> Value {
    let Some(ws) = &service.websocket else {
        return json!({});
    };
    let mut doc = Map::new();
    doc.insert("asyncapi".into(), json!("3.1.0"));
    doc.insert("defaultContentType".into(), json!("application/json"));

    let mut info = Map::new();
    info.insert(
        "title".into(),
        json!(format!("{}: WebSocket protocol", service.title())),
    );
    info.insert("version".into(), json!(ws.protocol.to_string()));
    let mut description = ws.doc.clone().unwrap_or_default();
    if !description.is_empty() {
        description.push_str("\n\n");
    }
    description.push_str(&format!(
        "Exported from `{}` by `tidings-codegen asyncapi`. The document describes the client: \
         it sends the `send` operations' messages and receives the `receive` ones. Every item \
         says where it comes from in `x-source` (`seed`, `assumed` or `not_shown`).",
        super::spec_file(service)
    ));
    info.insert("description".into(), json!(description));
    origin(&mut info, &ws.origin);
    doc.insert("info".into(), Value::Object(info));

    let base = &service.info.base_url;
    let host_default = base
        .default
        .as_deref()
        .and_then(|u| u.split_once("://").map(|(_, rest)| rest.to_owned()))
        .unwrap_or_else(|| "localhost:6001".into());
    let mut server = Map::new();
    server.insert("host".into(), json!("{host}"));
    server.insert("protocol".into(), json!("wss"));
    server.insert(
        "description".into(),
        json!(format!(
            "The service's WebSocket endpoint (`ws` without TLS). Its address is the host of the \
             base URL (`{}`){}.",
            base.env,
            if base.default.is_none() {
                ", which is not shown: the default here is a placeholder"
            } else {
                ""
            }
        )),
    );
    server.insert(
        "variables".into(),
        json!({ "host": { "default": host_default, "description": "Host and port." } }),
    );
    provenance(
        &mut server,
        base.source,
        base.note.as_deref(),
        base.conflict.as_deref(),
    );
    doc.insert("servers".into(), json!({ "realtime": server }));

    // Messages: the protocol's, then the application's own events.
    let mut messages = Map::new();
    let mut channel_messages = Map::new();
    let mut operations = Map::new();
    let mut roots: Vec<Ty> = Vec::new();
    for m in &ws.messages {
        if let Some(data) = &m.data {
            roots.push(Ty::Named(data.clone()));
        }
        messages.insert(m.name.clone(), message(m));
        add_operations(&m.name, m.direction, m.doc.as_deref(), &mut operations);
    }
    let channel_pattern = ws.channel_names.as_ref().and_then(|c| c.pattern.clone());
    let channel_max = ws.channel_names.as_ref().and_then(|c| c.max_len);
    let mut channel_schema = Map::new();
    channel_schema.insert("type".into(), json!("string"));
    if let Some(p) = &channel_pattern {
        channel_schema.insert("pattern".into(), json!(p));
    }
    if let Some(m) = channel_max {
        channel_schema.insert("maxLength".into(), json!(m));
    }
    let data_any = json!({ "description": "The event's data: usually a string holding JSON." });
    messages.insert(
        "channel_event".into(),
        json!({
            "name": "channel_event",
            "title": "An event on a subscribed channel",
            "summary": "An event the application published on a channel the client subscribed to (any name outside the protocol's own).",
            "payload": {
                "type": "object",
                "required": ["event", "channel"],
                "properties": {
                    "event": { "type": "string", "not": { "pattern": "^pusher(_internal)?:" } },
                    "channel": channel_schema,
                    "data": data_any,
                    "user_id": { "type": "string", "description": "The sender of a client event, when the server knows it." },
                },
            },
            "x-source": ws.origin.source.as_str(),
        }),
    );
    add_operations(
        "channel_event",
        Direction::ServerToClient,
        Some("Events published on subscribed channels."),
        &mut operations,
    );
    if let Some(c) = &ws.client_events {
        let mut m = Map::new();
        m.insert("name".into(), json!("client_event"));
        m.insert("title".into(), json!("A client event"));
        let limit = c
            .max_per_second
            .map(|n| format!(" At most {n} per second per connection."))
            .unwrap_or_default();
        let doc = c.doc.clone().unwrap_or_default();
        m.insert(
            "summary".into(),
            json!(
                format!(
                    "An event one client sends to the other subscribers of a channel that allows \
                 client events; its name starts with `{}`.{limit} {doc}",
                    c.prefix
                )
                .trim()
                .to_owned()
            ),
        );
        m.insert(
            "payload".into(),
            json!({
                "type": "object",
                "required": ["event", "channel"],
                "properties": {
                    "event": { "type": "string", "pattern": format!("^{}", regex_escape(&c.prefix)) },
                    "channel": channel_schema,
                    "data": data_any,
                },
            }),
        );
        if let Some(n) = c.max_per_second {
            m.insert("x-max-per-second".into(), json!(n));
        }
        provenance(
            &mut m,
            c.source.or(Some(ws.origin.source)),
            c.note.as_deref(),
            c.conflict.as_deref(),
        );
        messages.insert("client_event".into(), Value::Object(m));
        add_operations(
            "client_event",
            Direction::Both,
            Some("Client events: sent to, and received from, other subscribers."),
            &mut operations,
        );
    }
    for name in messages.keys() {
        channel_messages.insert(
            name.clone(),
            json!({ "$ref": format!("#/components/messages/{name}") }),
        );
    }

    // The one channel: the connection.
    let mut channel = Map::new();
    channel.insert("address".into(), json!(ws.path));
    channel.insert("title".into(), json!("The connection"));
    channel.insert(
        "description".into(),
        json!("One WebSocket connection per client; every frame is a JSON text frame `{event, channel?, data?}`."),
    );
    let mut parameters = Map::new();
    for p in crate::check::path_params(&ws.path).unwrap_or_default() {
        let doc = if p == "key" {
            "The app key (public)."
        } else {
            "A parameter of the connection path."
        };
        parameters.insert(p, json!({ "description": doc }));
    }
    if !parameters.is_empty() {
        channel.insert("parameters".into(), Value::Object(parameters));
    }
    channel.insert("messages".into(), Value::Object(channel_messages));
    channel.insert("servers".into(), json!([{ "$ref": "#/servers/realtime" }]));
    if !ws.query.is_empty() {
        let mut props = Map::new();
        for (k, v) in &ws.query {
            let schema = if v.contains('{') {
                json!({ "type": "string", "description": format!("`{v}`: filled with the client's name or version.") })
            } else {
                json!({ "type": "string", "const": v })
            };
            props.insert(k.clone(), schema);
        }
        let required: Vec<&String> = ws.query.keys().collect();
        channel.insert(
            "bindings".into(),
            json!({ "ws": {
                "method": "GET",
                "query": { "type": "object", "properties": props, "required": required },
                "bindingVersion": "0.1.0",
            } }),
        );
    }
    let mut ext = |key: &str, value: Value| {
        if !value.is_null() {
            channel.insert(key.into(), value);
        }
    };
    ext("x-protocol", json!(ws.protocol));
    ext("x-socket-id-pattern", json!(ws.socket_id_pattern));
    for (key, value) in &ws.as_written {
        ext(&format!("x-{key}"), value.clone());
    }
    provenance(&mut channel, Some(ws.origin.source), None, None);
    doc.insert("channels".into(), json!({ CHANNEL: channel }));
    doc.insert("operations".into(), Value::Object(operations));

    let keep = reachable(service, &roots);
    let schemas = type_schemas(service, Dialect::AsyncApi, &|name| keep.contains(name));
    doc.insert(
        "components".into(),
        json!({ "messages": messages, "schemas": schemas }),
    );
    Value::Object(doc)
}

fn value<T: serde::Serialize>(item: &T) -> Value {
    serde_json::to_value(item).unwrap_or(Value::Null)
}

fn regex_escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "\\^$.|?*+()[]{}-".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One message: the frame with its fixed `event`, the channel when it names one, and `data`.
fn message(m: &MessageInfo) -> Value {
    let mut props = Map::new();
    props.insert(
        "event".into(),
        json!({ "type": "string", "const": m.event }),
    );
    let mut required = vec![json!("event")];
    if m.channel {
        props.insert("channel".into(), json!({ "type": "string" }));
        required.push(json!("channel"));
    }
    if let Some(data) = &m.data {
        let schema = match m.encoding.unwrap_or(DataEncoding::JsonString) {
            DataEncoding::Object => json!({ "allOf": [schema_ref(data)] }),
            // `None` cannot be written in a spec (a message with `data` has an encoding).
            DataEncoding::JsonString | DataEncoding::None => json!({
                "description": format!("`{data}`, JSON-encoded in a string (receivers also accept the object)."),
                "oneOf": [
                    {
                        "type": "string",
                        "contentMediaType": "application/json",
                        "x-content-schema": schema_ref(data),
                    },
                    schema_ref(data),
                ],
            }),
        };
        props.insert("data".into(), schema);
        if m.encoding == Some(DataEncoding::Object) {
            required.push(json!("data"));
        }
    }
    let mut msg = Map::new();
    msg.insert("name".into(), json!(m.event));
    msg.insert("title".into(), json!(m.name));
    describe(&mut msg, m.doc.as_deref());
    msg.insert(
        "payload".into(),
        json!({ "type": "object", "required": required, "properties": props }),
    );
    if let Some(role) = m.role {
        msg.insert("x-role".into(), json!(role.as_str()));
    }
    msg.insert("x-direction".into(), value(&m.direction));
    if let Some(e) = m.encoding.filter(|_| m.encoding_stated) {
        msg.insert("x-encoding".into(), value(&e));
    }
    origin(&mut msg, &m.origin);
    Value::Object(msg)
}

fn add_operations(
    name: &str,
    direction: Direction,
    doc: Option<&str>,
    operations: &mut Map<String, Value>,
) {
    let actions: &[&str] = match direction {
        Direction::ClientToServer => &["send"],
        Direction::ServerToClient => &["receive"],
        Direction::Both => &["send", "receive"],
    };
    for action in actions {
        let mut op = Map::new();
        op.insert("action".into(), json!(action));
        op.insert(
            "channel".into(),
            json!({ "$ref": format!("#/channels/{CHANNEL}") }),
        );
        op.insert(
            "messages".into(),
            json!([{ "$ref": format!("#/channels/{CHANNEL}/messages/{name}") }]),
        );
        describe(&mut op, doc);
        op.insert(
            "summary".into(),
            json!(format!(
                "{} `{name}`.",
                if *action == "send" {
                    "The client sends"
                } else {
                    "The client receives"
                }
            )),
        );
        operations.insert(format!("{action}_{name}"), Value::Object(op));
    }
}
