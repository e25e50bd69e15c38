//! The realtime engine (feature `realtime`): a generic WebSocket client driven by a
//! [`WebSocketSpec`] that generated code describes from the spec's `websocket` section, plus the
//! helpers an app server needs for that protocol: channel authorization and user sign-in
//! ([`authorize_channel`], [`Authorizer`]), end-to-end encrypted channels ([`crypto`]), the
//! connection state machine ([`ConnectionState`]), presence members ([`Members`]) and the
//! connection itself ([`Connection`]).
//!
//! Frames are input: a malformed frame becomes an error event, never a panic. A frame's `data`
//! may be a JSON string holding JSON, an object, or absent; [`Frame::payload`] decodes all three.
//!
//! ```
//! use tidings_runtime::realtime::Frame;
//! let frame = Frame::parse(r#"{"event":"pusher:connection_established","data":"{\"socket_id\":\"1.2\",\"activity_timeout\":120}"}"#)?;
//! let data: serde_json::Value = frame.payload()?;
//! assert_eq!(data["socket_id"], "1.2");
//! # Ok::<(), tidings_runtime::Error>(())
//! ```

mod auth;
pub mod crypto;
mod presence;
mod state;
mod ws;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::error::{DecodeError, excerpt};

pub use auth::{
    AuthFuture, Authorizer, ChannelAuth, ChannelAuthRequest, FnAuthorizer, LocalAuthorizer,
    UserAuth, authenticate_user, authorize_channel, authorize_encrypted_channel,
    authorize_presence_channel, authorizer_fn,
};
pub use presence::{Member, Members};
pub use state::{ConnectionState, StateChange};
pub use ws::{Channel, ChannelEvent, Connection, ConnectionBuilder, ConnectionEvent};

use tidings_spec::{ChannelAuthKind, CloseAction, DataEncoding, MessageRole, WebSocketSpec};

/// The checks a [`WebSocketSpec`] asks of channel names, socket ids and client events.
/// Implemented for the spec; bring it into scope (`use tidings_runtime::realtime::WebSocketRules;`).
pub trait WebSocketRules {
    /// Checks a channel name against the spec's rules; `server_side` allows reserved names
    /// (`#server-to-user-...`), which only the HTTP API may use.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] naming what is wrong.
    fn check_channel_name(&self, channel: &str, server_side: bool) -> Result<(), Error>;

    /// Checks a socket id against the spec's pattern.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when it does not match.
    fn check_socket_id(&self, socket_id: &str) -> Result<(), Error>;

    /// Checks an event name for a client event: the prefix, and a channel kind that allows it.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when the protocol has no client events, the name lacks the
    /// prefix or the channel kind does not allow them.
    fn check_client_event(&self, channel: &str, event: &str) -> Result<(), Error>;
}

impl WebSocketRules for WebSocketSpec {
    /// Checks a channel name against the spec's rules; `server_side` allows reserved names
    /// (`#server-to-user-...`), which only the HTTP API may use.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] naming what is wrong.
    fn check_channel_name(&self, channel: &str, server_side: bool) -> Result<(), Error> {
        let rules = &self.channel_names;
        let bad = |message: String| Err(Error::invalid_request("channel", message));
        if channel.is_empty() {
            return bad("a channel name may not be empty".into());
        }
        if let Some(max) = rules.max_len {
            let len = channel.chars().count();
            if len > max {
                return bad(format!(
                    "`{channel}` is {len} characters long; at most {max}"
                ));
            }
        }
        let body = match rules.reserved_prefix {
            Some(prefix) if channel.starts_with(prefix) => {
                if !server_side {
                    return bad(format!(
                        "`{channel}` is a server channel (prefix `{prefix}`); clients cannot subscribe to it"
                    ));
                }
                &channel[prefix.len()..]
            }
            _ => channel,
        };
        if let Some(pattern) = rules.pattern
            && !matches(pattern, body)?
        {
            return bad(format!("`{channel}` does not match {pattern}"));
        }
        Ok(())
    }

    /// Checks a socket id against the spec's pattern.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when it does not match.
    fn check_socket_id(&self, socket_id: &str) -> Result<(), Error> {
        if let Some(pattern) = self.socket_id_pattern
            && !matches(pattern, socket_id)?
        {
            return Err(Error::invalid_request(
                "socket_id",
                format!("`{socket_id}` does not match {pattern}"),
            ));
        }
        Ok(())
    }

    /// Checks an event name for a client event: the prefix, and a channel kind that allows it.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when the protocol has no client events, the name lacks the
    /// prefix or the channel kind does not allow them.
    fn check_client_event(&self, channel: &str, event: &str) -> Result<(), Error> {
        let Some(spec) = &self.client_events else {
            return Err(Error::invalid_request(
                "event",
                "this protocol has no client events",
            ));
        };
        if !event.starts_with(spec.prefix) {
            return Err(Error::invalid_request(
                "event",
                format!("client event `{event}` must start with `{}`", spec.prefix),
            ));
        }
        match self.channel_kind(channel) {
            Some(kind) if kind.client_events => Ok(()),
            _ => Err(Error::invalid_request(
                "channel",
                format!("client events are not allowed on `{channel}`"),
            )),
        }
    }
}

/// Whole-string match against a spec pattern; patterns are compiled once and kept.
fn matches(pattern: &'static str, text: &str) -> Result<bool, Error> {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, regex_lite::Regex>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(re) = cache.get(pattern) {
        return Ok(re.is_match(text));
    }
    let re = regex_lite::Regex::new(pattern)
        .map_err(|e| Error::config(format!("the spec pattern {pattern} does not compile: {e}")))?;
    let found = re.is_match(text);
    cache.insert(pattern, re);
    Ok(found)
}

/// One WebSocket text frame: `{event, channel?, data?, user_id?}`.
///
/// `data` is kept as received: a JSON string (usually holding JSON), an object, or absent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Frame {
    /// The event name.
    pub event: String,
    /// The channel, when the event is about one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// The data as received.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
    /// The sending user, on client events of signed-in users and presence channels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
}

impl Frame {
    /// A frame with just an event name.
    pub fn new(event: impl Into<String>) -> Frame {
        Frame {
            event: event.into(),
            channel: None,
            data: None,
            user_id: None,
        }
    }

    /// Sets the channel.
    #[must_use]
    pub fn with_channel(mut self, channel: impl Into<String>) -> Frame {
        self.channel = Some(channel.into());
        self
    }

    /// Sets the data as received or to send.
    #[must_use]
    pub fn with_data(mut self, data: serde_json::Value) -> Frame {
        self.data = Some(data);
        self
    }

    /// A frame for a message: `data` written as `encoding` says.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when the data cannot be serialised.
    pub fn encode<T: Serialize + ?Sized>(
        event: &str,
        channel: Option<&str>,
        data: Option<&T>,
        encoding: DataEncoding,
    ) -> Result<Frame, Error> {
        let data = match (data, encoding) {
            (None, _) | (Some(_), DataEncoding::None) => None,
            (Some(d), DataEncoding::Object) => Some(serde_json::to_value(d).map_err(|e| {
                Error::invalid_request("data", format!("cannot be serialised ({e})"))
            })?),
            (Some(d), DataEncoding::JsonString) => Some(serde_json::Value::String(encode_data(d)?)),
        };
        Ok(Frame {
            event: event.to_owned(),
            channel: channel.map(str::to_owned),
            data,
            user_id: None,
        })
    }

    /// Parses one text frame.
    ///
    /// # Errors
    ///
    /// [`Error::Decode`] with an excerpt when the text is not a JSON object with a string
    /// `event`.
    pub fn parse(text: &str) -> Result<Frame, Error> {
        serde_json::from_str(text).map_err(|e| decode_error(format!("frame: {e}"), text.as_bytes()))
    }

    /// The frame as JSON text.
    pub fn to_text(&self) -> String {
        // A struct of strings and JSON values always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The channel, or a decode error for a message that must have one.
    ///
    /// # Errors
    ///
    /// [`Error::Decode`] when the frame names no channel.
    pub fn require_channel(&self) -> Result<String, Error> {
        self.channel.clone().ok_or_else(|| {
            decode_error(
                format!("`{}` has no channel", self.event),
                self.to_text().as_bytes(),
            )
        })
    }

    /// Decodes `data` into `T`: a string holding JSON is parsed, an object is used as is, and
    /// absent data decodes as `{}` (so payloads whose fields are all optional still decode).
    ///
    /// # Errors
    ///
    /// [`Error::Decode`] with an excerpt when the data does not fit `T`.
    pub fn payload<T: DeserializeOwned>(&self) -> Result<T, Error> {
        let fail = |e: serde_json::Error| {
            decode_error(
                format!("data of `{}`: {e}", self.event),
                self.to_text().as_bytes(),
            )
        };
        match &self.data {
            None | Some(serde_json::Value::Null) => {
                serde_json::from_value(serde_json::Value::Object(serde_json::Map::new()))
                    .map_err(fail)
            }
            Some(serde_json::Value::String(s)) => match serde_json::from_str::<T>(s) {
                Ok(v) => Ok(v),
                // Not JSON at all: maybe `T` is a string.
                Err(e) => serde_json::from_value(serde_json::Value::String(s.clone()))
                    .map_err(|_| fail(e)),
            },
            // Straight from the tree: no copy of it first.
            Some(other) => T::deserialize(other).map_err(fail),
        }
    }

    /// The data as text: a string as is, anything else as JSON; `None` when absent.
    pub fn data_text(&self) -> Option<Cow<'_, str>> {
        match &self.data {
            None => None,
            Some(serde_json::Value::String(s)) => Some(Cow::Borrowed(s)),
            Some(other) => Some(Cow::Owned(other.to_string())),
        }
    }
}

/// Serialises event data to the wire string the HTTP API and client events carry: a string
/// is sent as is, anything else as its JSON text.
///
/// ```
/// use tidings_runtime::realtime::encode_data;
/// assert_eq!(encode_data(&serde_json::json!({"a": 1}))?, r#"{"a":1}"#);
/// assert_eq!(encode_data("plain")?, "plain");
/// # Ok::<(), tidings_runtime::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidRequest`] when the data cannot be serialised.
pub fn encode_data<T: Serialize + ?Sized>(data: &T) -> Result<String, Error> {
    let value = serde_json::to_value(data)
        .map_err(|e| Error::invalid_request("data", format!("cannot be serialised ({e})")))?;
    Ok(match value {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    })
}

pub(crate) fn decode_error(message: String, body: &[u8]) -> Error {
    Error::Decode(Box::new(DecodeError {
        message: crate::error::bounded_text(&message, crate::error::MESSAGE_LIMIT),
        status: None,
        request_id: None,
        body_excerpt: excerpt(body),
    }))
}

#[cfg(test)]
pub(crate) mod test_spec {
    //! A protocol-7 spec for unit tests, as generated code would describe it.
    use super::*;
    use tidings_spec::{
        BackoffSpec, ChannelKindSpec, ChannelNameSpec, ClientEventSpec, CloseCodeSpec, Direction,
        HeartbeatSpec, MessageSpec,
    };

    pub static SPEC: WebSocketSpec = WebSocketSpec {
        service: "realtime",
        path: "/app/{key}",
        query: &[
            ("protocol", "7"),
            ("client", "{client}"),
            ("version", "{version}"),
        ],
        protocol: 7,
        socket_id_pattern: Some(r"^\d+\.\d+$"),
        channel_names: ChannelNameSpec {
            pattern: Some("^[-a-zA-Z0-9_=@,.;]+$"),
            max_len: Some(200),
            reserved_prefix: Some("#"),
        },
        heartbeat: HeartbeatSpec {
            ping_after_ms: 120_000,
            pong_timeout_ms: 30_000,
        },
        reconnect: BackoffSpec {
            base_ms: 1000,
            cap_ms: 30_000,
        },
        client_events: Some(ClientEventSpec {
            prefix: "client-",
            max_per_second: Some(10),
        }),
        channel_kinds: &[
            ChannelKindSpec {
                name: "public",
                prefix: "",
                auth: ChannelAuthKind::None,
                encrypted: false,
                cache: false,
                client_events: false,
            },
            ChannelKindSpec {
                name: "private",
                prefix: "private-",
                auth: ChannelAuthKind::Private,
                encrypted: false,
                cache: false,
                client_events: true,
            },
            ChannelKindSpec {
                name: "presence",
                prefix: "presence-",
                auth: ChannelAuthKind::Presence,
                encrypted: false,
                cache: false,
                client_events: true,
            },
            ChannelKindSpec {
                name: "private_encrypted",
                prefix: "private-encrypted-",
                auth: ChannelAuthKind::Private,
                encrypted: true,
                cache: false,
                client_events: false,
            },
        ],
        messages: &[
            MessageSpec {
                name: "connection_established",
                event: "pusher:connection_established",
                direction: Direction::ServerToClient,
                encoding: DataEncoding::JsonString,
                channel: false,
                role: Some(MessageRole::ConnectionEstablished),
            },
            MessageSpec {
                name: "ping",
                event: "pusher:ping",
                direction: Direction::Both,
                encoding: DataEncoding::None,
                channel: false,
                role: Some(MessageRole::Ping),
            },
        ],
        close_codes: &[
            CloseCodeSpec {
                from: 4000,
                to: 4099,
                action: CloseAction::Fail,
                min_delay_ms: 0,
            },
            CloseCodeSpec {
                from: 4100,
                to: 4199,
                action: CloseAction::Backoff,
                min_delay_ms: 1000,
            },
            CloseCodeSpec {
                from: 4200,
                to: 4299,
                action: CloseAction::Reconnect,
                min_delay_ms: 0,
            },
        ],
    };
}

#[cfg(test)]
mod tests {
    use super::test_spec::SPEC;
    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Established {
        socket_id: String,
        activity_timeout: Option<u64>,
    }

    #[derive(Debug, Deserialize, PartialEq, Default)]
    struct AllOptional {
        presence: Option<serde_json::Value>,
    }

    #[test]
    fn data_decodes_from_a_json_string_an_object_or_nothing() {
        let s = Frame::parse(
            r#"{"event":"e","data":"{\"socket_id\":\"1.2\",\"activity_timeout\":30}"}"#,
        )
        .unwrap();
        let o = Frame::parse(r#"{"event":"e","data":{"socket_id":"1.2","activity_timeout":30}}"#)
            .unwrap();
        let expected = Established {
            socket_id: "1.2".into(),
            activity_timeout: Some(30),
        };
        assert_eq!(s.payload::<Established>().unwrap(), expected);
        assert_eq!(o.payload::<Established>().unwrap(), expected);
        let none = Frame::parse(r#"{"event":"e"}"#).unwrap();
        assert_eq!(
            none.payload::<AllOptional>().unwrap(),
            AllOptional::default()
        );
        assert!(none.payload::<Established>().is_err());
        let text = Frame::parse(r#"{"event":"e","data":"hello"}"#).unwrap();
        assert_eq!(text.payload::<String>().unwrap(), "hello");
        assert_eq!(text.data_text().as_deref(), Some("hello"));
    }

    #[test]
    fn malformed_frames_are_decode_errors_with_excerpts() {
        for bad in [
            "",
            "[]",
            "{",
            r#"{"event":3}"#,
            r#"{"channel":"x"}"#,
            "\u{0}garbage",
        ] {
            let err = Frame::parse(bad).unwrap_err();
            assert_eq!(err.kind(), crate::ErrorKind::Decode, "{bad}");
        }
        let frame = Frame::parse(r#"{"event":"e","data":"{\"socket_id\":5}"}"#).unwrap();
        let err = frame.payload::<Established>().unwrap_err();
        assert!(err.to_string().contains("socket_id"), "{err}");
    }

    #[test]
    fn encodes_data_as_the_encoding_says() {
        #[derive(Serialize)]
        struct D {
            channel: &'static str,
        }
        let d = D { channel: "x" };
        let obj = Frame::encode("pusher:subscribe", None, Some(&d), DataEncoding::Object).unwrap();
        assert_eq!(
            obj.to_text(),
            r#"{"event":"pusher:subscribe","data":{"channel":"x"}}"#
        );
        let s = Frame::encode(
            "client-a",
            Some("private-a"),
            Some(&d),
            DataEncoding::JsonString,
        )
        .unwrap();
        assert_eq!(
            s.to_text(),
            r#"{"event":"client-a","channel":"private-a","data":"{\"channel\":\"x\"}"}"#
        );
    }

    #[test]
    fn channel_names_follow_the_spec() {
        SPEC.check_channel_name("private-a_b=c@d,e.f;g-1", false)
            .unwrap();
        assert!(SPEC.check_channel_name("", false).is_err());
        assert!(SPEC.check_channel_name("has space", false).is_err());
        assert!(SPEC.check_channel_name("ünïcode", false).is_err());
        assert!(SPEC.check_channel_name(&"a".repeat(201), false).is_err());
        SPEC.check_channel_name(&"a".repeat(200), false).unwrap();
        assert!(SPEC.check_channel_name("#server-to-user-1", false).is_err());
        SPEC.check_channel_name("#server-to-user-1", true).unwrap();
        SPEC.check_socket_id("123.456").unwrap();
        for bad in ["123", "1.2.3", "a.1", "1.2\n", ""] {
            assert!(SPEC.check_socket_id(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn channel_kinds_use_the_longest_prefix() {
        let kind = |c| SPEC.channel_kind(c).map(|k| k.name);
        assert_eq!(kind("news"), Some("public"));
        assert_eq!(kind("private-a"), Some("private"));
        assert_eq!(kind("private-encrypted-a"), Some("private_encrypted"));
        assert_eq!(kind("presence-a"), Some("presence"));
        assert!(SPEC.check_client_event("private-a", "client-x").is_ok());
        assert!(SPEC.check_client_event("private-a", "x").is_err());
        assert!(SPEC.check_client_event("news", "client-x").is_err());
        assert!(
            SPEC.check_client_event("private-encrypted-a", "client-x")
                .is_err()
        );
    }

    #[test]
    fn close_codes_map_to_actions() {
        assert_eq!(
            SPEC.close_code(4001).map(|c| c.action),
            Some(CloseAction::Fail)
        );
        assert_eq!(
            SPEC.close_code(4100).map(|c| c.action),
            Some(CloseAction::Backoff)
        );
        assert_eq!(
            SPEC.close_code(4201).map(|c| c.action),
            Some(CloseAction::Reconnect)
        );
        assert!(SPEC.close_code(1006).is_none());
    }
}
