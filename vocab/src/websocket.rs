//! The WebSocket protocol of a realtime service (the spec's `websocket` section): connection
//! path, channel kinds, heartbeat, reconnection, messages by role and close codes.

/// A WebSocket protocol, described by generated code from the spec's `websocket` section.
///
/// Spec data: fields are public so generated code can build it as a `static`.
#[derive(Debug)]
pub struct WebSocketSpec {
    /// The service (`realtime`).
    pub service: &'static str,
    /// Connection path; `{key}` is the app key (`/app/{key}`).
    pub path: &'static str,
    /// Query pairs of the connection URL; `{client}` and `{version}` are filled in.
    pub query: &'static [(&'static str, &'static str)],
    /// Protocol version.
    pub protocol: u32,
    /// Pattern of socket ids.
    pub socket_id_pattern: Option<&'static str>,
    /// Channel name rules.
    pub channel_names: ChannelNameSpec,
    /// Heartbeat timing.
    pub heartbeat: HeartbeatSpec,
    /// Backoff between reconnection attempts.
    pub reconnect: BackoffSpec,
    /// Client events, when the protocol has them.
    pub client_events: Option<ClientEventSpec>,
    /// Channel kinds; the longest matching prefix wins.
    pub channel_kinds: &'static [ChannelKindSpec],
    /// Protocol messages.
    pub messages: &'static [MessageSpec],
    /// What each close code range asks of the client.
    pub close_codes: &'static [CloseCodeSpec],
}

/// Channel name rules.
#[derive(Debug, Clone, Copy)]
pub struct ChannelNameSpec {
    /// Pattern every name matches.
    pub pattern: Option<&'static str>,
    /// Longest name in characters.
    pub max_len: Option<usize>,
    /// Prefix of server-only channels, which clients may not subscribe to.
    pub reserved_prefix: Option<&'static str>,
}

/// Heartbeat timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeartbeatSpec {
    /// Silence after which the client pings (shortened to the server's activity timeout).
    pub ping_after_ms: u64,
    /// How long to wait for the pong before reconnecting.
    pub pong_timeout_ms: u64,
}

/// Reconnection backoff (full jitter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackoffSpec {
    /// Base delay.
    pub base_ms: u64,
    /// Largest delay.
    pub cap_ms: u64,
}

/// Client events.
#[derive(Debug, Clone, Copy)]
pub struct ClientEventSpec {
    /// Name prefix (`client-`).
    pub prefix: &'static str,
    /// Most per second per connection.
    pub max_per_second: Option<u32>,
}

/// How subscribing to a kind of channel is authorized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ChannelAuthKind {
    /// Not at all.
    None,
    /// Signs `socket_id:channel`.
    Private,
    /// Signs `socket_id:channel:channel_data`.
    Presence,
}

/// A kind of channel.
#[derive(Debug, Clone, Copy)]
pub struct ChannelKindSpec {
    /// Its name in the spec (`private_encrypted`).
    pub name: &'static str,
    /// Name prefix.
    pub prefix: &'static str,
    /// How subscribing is authorized.
    pub auth: ChannelAuthKind,
    /// Event data is end-to-end encrypted.
    pub encrypted: bool,
    /// The server replays the last event to new subscribers.
    pub cache: bool,
    /// Client events are allowed.
    pub client_events: bool,
}

/// Who sends a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Direction {
    /// The client.
    ClientToServer,
    /// The server.
    ServerToClient,
    /// Either.
    Both,
}

/// How a message's `data` is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum DataEncoding {
    /// No data.
    #[cfg_attr(feature = "serde", serde(skip))]
    None,
    /// A JSON string holding JSON.
    JsonString,
    /// A JSON object.
    Object,
}

/// The part a message plays; the engine finds messages by role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MessageRole {
    /// The server accepted the connection.
    ConnectionEstablished,
    /// An error.
    Error,
    /// Heartbeat ping.
    Ping,
    /// Heartbeat pong.
    Pong,
    /// Join a channel.
    Subscribe,
    /// Leave a channel.
    Unsubscribe,
    /// Subscription succeeded.
    SubscriptionSucceeded,
    /// Subscription failed.
    SubscriptionError,
    /// A presence member joined.
    MemberAdded,
    /// A presence member left.
    MemberRemoved,
    /// Subscriber count.
    SubscriptionCount,
    /// Sign in.
    Signin,
    /// Signed in.
    SigninSuccess,
    /// Nothing cached.
    CacheMiss,
}

impl MessageRole {
    /// Roles every WebSocket protocol must define for the runtime to run it.
    pub const REQUIRED: &[MessageRole] = &[
        MessageRole::ConnectionEstablished,
        MessageRole::Error,
        MessageRole::Ping,
        MessageRole::Pong,
        MessageRole::Subscribe,
        MessageRole::Unsubscribe,
        MessageRole::SubscriptionSucceeded,
    ];

    /// Its name in a spec (`connection_established`).
    pub const fn as_str(self) -> &'static str {
        match self {
            MessageRole::ConnectionEstablished => "connection_established",
            MessageRole::Error => "error",
            MessageRole::Ping => "ping",
            MessageRole::Pong => "pong",
            MessageRole::Subscribe => "subscribe",
            MessageRole::Unsubscribe => "unsubscribe",
            MessageRole::SubscriptionSucceeded => "subscription_succeeded",
            MessageRole::SubscriptionError => "subscription_error",
            MessageRole::MemberAdded => "member_added",
            MessageRole::MemberRemoved => "member_removed",
            MessageRole::SubscriptionCount => "subscription_count",
            MessageRole::Signin => "signin",
            MessageRole::SigninSuccess => "signin_success",
            MessageRole::CacheMiss => "cache_miss",
        }
    }
}

/// One protocol message.
#[derive(Debug, Clone, Copy)]
pub struct MessageSpec {
    /// Its name in the spec.
    pub name: &'static str,
    /// The frame's `event`.
    pub event: &'static str,
    /// Who sends it.
    pub direction: Direction,
    /// How its data is written.
    pub encoding: DataEncoding,
    /// The frame names a channel.
    pub channel: bool,
    /// The part it plays.
    pub role: Option<MessageRole>,
}

/// What the client does after a close code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum CloseAction {
    /// Do not reconnect.
    Fail,
    /// Reconnect after a backoff of at least `min_delay_ms`.
    Backoff,
    /// Reconnect at once.
    Reconnect,
}

/// A range of close codes.
#[derive(Debug, Clone, Copy)]
pub struct CloseCodeSpec {
    /// First code.
    pub from: u16,
    /// Last code (included).
    pub to: u16,
    /// What to do.
    pub action: CloseAction,
    /// Shortest wait for `Backoff`.
    pub min_delay_ms: u64,
}

impl WebSocketSpec {
    /// The event name of the message playing `role`, if the protocol has one.
    pub fn event(&self, role: MessageRole) -> Option<&'static str> {
        self.messages
            .iter()
            .find(|m| m.role == Some(role))
            .map(|m| m.event)
    }

    /// The message playing `role`.
    pub fn message(&self, role: MessageRole) -> Option<&'static MessageSpec> {
        self.messages.iter().find(|m| m.role == Some(role))
    }

    /// The role of an incoming event name.
    pub fn role_of(&self, event: &str) -> Option<MessageRole> {
        self.messages
            .iter()
            .find(|m| m.event == event && m.direction != Direction::ClientToServer)
            .and_then(|m| m.role)
    }

    /// The kind of a channel: the kind with the longest prefix the name starts with.
    pub fn channel_kind(&self, channel: &str) -> Option<&'static ChannelKindSpec> {
        self.channel_kinds
            .iter()
            .filter(|k| channel.starts_with(k.prefix))
            .max_by_key(|k| k.prefix.len())
    }

    /// What the close code asks for; codes outside every range return `None`.
    pub fn close_code(&self, code: u16) -> Option<&'static CloseCodeSpec> {
        self.close_codes
            .iter()
            .find(|c| (c.from..=c.to).contains(&code))
    }
}
