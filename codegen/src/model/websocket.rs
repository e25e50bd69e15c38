//! The `websocket` section of a spec: connection URL, timings, channel kinds, protocol
//! messages and close codes.

use super::*;

item! {
    /// The WebSocket protocol of a service: how to connect, what each side sends, which channel
    /// kinds exist and what each close code asks of the client.
    pub struct WebSocket {
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
        /// Path of the connection URL; `{key}` is the app key (`/app/{key}`).
        pub path: String,
        /// Query parameters of the connection URL; `{client}` and `{version}` in a value are
        /// filled with the client's name and version.
        #[serde(default)]
        pub query: IndexMap<String, String>,
        /// Protocol version spoken.
        pub protocol: u32,
        /// Pattern every socket id matches (`^\d+\.\d+$`), checked before it is sent.
        #[serde(default)]
        pub socket_id_pattern: Option<String>,
        /// Rules for channel names.
        #[serde(default)]
        pub channel_names: Option<ChannelNames>,
        /// When the client pings and when it gives up on a silent server.
        #[serde(default)]
        pub heartbeat: Option<Heartbeat>,
        /// Backoff between reconnection attempts (full jitter).
        #[serde(default)]
        pub reconnect: Option<Backoff>,
        /// Events clients send to each other.
        #[serde(default)]
        pub client_events: Option<ClientEvents>,
        /// Kinds of channel, told apart by the longest matching name prefix.
        #[serde(default)]
        pub channel_kinds: IndexMap<String, ChannelKind>,
        /// Protocol messages by name: the event, who sends it, its payload type.
        #[serde(default)]
        pub messages: IndexMap<String, WsMessage>,
        /// What the client does when the server closes with a code in each range.
        #[serde(default)]
        pub close_codes: Vec<CloseCodeRange>,
    }
}

item! {
    /// Rules for channel names.
    pub struct ChannelNames {
        /// Pattern every name matches (`^[-a-zA-Z0-9_=@,.;]+$`).
        #[serde(default)]
        pub pattern: Option<String>,
        /// Longest name, in characters.
        #[serde(default)]
        pub max_len: Option<u64>,
        /// A prefix reserved for server-only channels (`#`).
        #[serde(default)]
        pub reserved_prefix: Option<String>,
        /// What they are.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

item! {
    /// Heartbeat timing.
    pub struct Heartbeat {
        /// Silence after which the client pings, in milliseconds (shortened to the server's
        /// `activity_timeout` when that is smaller).
        pub ping_after_ms: u64,
        /// How long the client waits for the pong before it reconnects, in milliseconds.
        pub pong_timeout_ms: u64,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

item! {
    /// Client events: sent by one client to the other subscribers of a channel.
    pub struct ClientEvents {
        /// Prefix every client event name carries (`client-`).
        pub prefix: String,
        /// Most client events one connection may send per second.
        #[serde(default)]
        pub max_per_second: Option<u32>,
        /// What they are.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

pub use tidings_spec::ChannelAuthKind;

item! {
    /// A kind of channel.
    pub struct ChannelKind {
        /// Name prefix (`private-`); the longest matching prefix wins, `""` matches every name.
        pub prefix: String,
        /// How subscribing is authorized.
        pub auth: ChannelAuthKind,
        /// Event data is end-to-end encrypted with a per-channel key.
        #[serde(default)]
        pub encrypted: bool,
        /// The server keeps the last event and replays it to new subscribers.
        #[serde(default)]
        pub cache: bool,
        /// Clients may send client events on it.
        #[serde(default)]
        pub client_events: bool,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

pub use tidings_spec::Direction;

pub use tidings_spec::DataEncoding;

pub use tidings_spec::MessageRole;

item! {
    /// One protocol message.
    pub struct WsMessage {
        /// The `event` of its frame (`pusher:subscribe`).
        pub event: String,
        /// Who sends it.
        pub direction: Direction,
        /// Type of its `data` (an object type); absent when it carries none.
        #[serde(default)]
        pub data: Option<String>,
        /// How `data` travels; `json_string` by default.
        #[serde(default)]
        pub encoding: Option<DataEncoding>,
        /// The frame names a channel.
        #[serde(default)]
        pub channel: bool,
        /// The part it plays, for the runtime's engine.
        #[serde(default)]
        pub role: Option<MessageRole>,
        /// What it means.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

pub use tidings_spec::CloseAction;

item! {
    /// A range of close codes and what the client does after them.
    pub struct CloseCodeRange {
        /// First code of the range.
        pub from: u16,
        /// Last code of the range (included).
        pub to: u16,
        /// What the client does.
        pub action: CloseAction,
        /// Shortest wait before reconnecting, in milliseconds (`backoff` only).
        #[serde(default)]
        pub min_delay_ms: Option<u64>,
        /// What the codes mean.
        #[serde(default)]
        pub doc: Option<String>,
    }
}
