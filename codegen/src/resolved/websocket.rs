//! The resolved `websocket` section: connection URL, timings with their defaults applied,
//! channel kinds, messages with their data encoding and close codes.

use indexmap::IndexMap;

use crate::model::{
    ChannelKind, ChannelNames, ClientEvents, CloseCodeRange, DataEncoding, Direction, MessageRole,
};

use tidings_spec::{BackoffSpec, HeartbeatSpec};

use super::Origin;

/// The WebSocket protocol of a service.
#[derive(Debug, Clone, PartialEq)]
pub struct WebSocketInfo {
    /// What it is.
    pub doc: Option<String>,
    /// Where it comes from.
    pub origin: Origin,
    /// Path of the connection URL, `{key}` for the app key.
    pub path: String,
    /// Query parameters of the connection URL.
    pub query: IndexMap<String, String>,
    /// Protocol version spoken.
    pub protocol: u32,
    /// Pattern every socket id matches.
    pub socket_id_pattern: Option<String>,
    /// Rules for channel names.
    pub channel_names: Option<ChannelNames>,
    /// Heartbeat timing, defaults applied.
    pub heartbeat: HeartbeatSpec,
    /// Reconnection backoff, defaults applied.
    pub reconnect: BackoffSpec,
    /// Events clients send to each other.
    pub client_events: Option<ClientEvents>,
    /// Kinds of channel by name.
    pub channel_kinds: IndexMap<String, ChannelKind>,
    /// Protocol messages, in spec order.
    pub messages: Vec<MessageInfo>,
    /// What the client does after each range of close codes.
    pub close_codes: Vec<CloseCodeRange>,
    /// The section's parts as the spec writes them, as JSON (absent parts left out), for
    /// documents that reproduce them.
    pub as_written: Vec<(&'static str, serde_json::Value)>,
}

/// One protocol message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageInfo {
    /// Its name in the spec (`subscribe`).
    pub name: String,
    /// Its variant name in the generated message enums (`Subscribe`).
    pub rust: String,
    /// The `event` of its frame.
    pub event: String,
    /// Who sends it.
    pub direction: Direction,
    /// Type of its `data`, an object type.
    pub data: Option<String>,
    /// How `data` travels: `None` when there is no data, else the spec's encoding or
    /// `json_string`.
    pub encoding: Option<DataEncoding>,
    /// The spec states the encoding.
    pub encoding_stated: bool,
    /// The frame names a channel.
    pub channel: bool,
    /// The part it plays, for the runtime's engine.
    pub role: Option<MessageRole>,
    /// What it means.
    pub doc: Option<String>,
    /// Where it comes from: its own provenance, else the section's.
    pub origin: Origin,
}
