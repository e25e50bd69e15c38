//! The sandbox's shared state: connections, channels, presence members, signed-in users, and
//! the fan-out of events to them. Every method takes the lock briefly and never awaits while
//! holding it; frames go to each connection's own queue, written by its socket task.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::RealtimeConfig;
use super::outbox::OutboxSender;
use super::webhooks::Webhooks;

/// Prefix of the channel that carries events to one signed-in user.
pub(crate) const USER_CHANNEL_PREFIX: &str = "#server-to-user-";

/// One protocol error to send as `pusher:error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProtocolError {
    pub(crate) message: String,
    pub(crate) code: Option<u16>,
    pub(crate) channel: Option<String>,
}

impl ProtocolError {
    pub(crate) fn new(code: Option<u16>, message: impl Into<String>) -> ProtocolError {
        ProtocolError {
            message: message.into(),
            code,
            channel: None,
        }
    }

    pub(crate) fn on(mut self, channel: &str) -> ProtocolError {
        self.channel = Some(channel.to_owned());
        self
    }

    /// The `pusher:error` frame; the channel, when the error is about one, is named so clients
    /// can pin it on the subscription.
    pub(crate) fn frame(&self) -> String {
        let mut frame = json!({
            "event": "pusher:error",
            "data": {"message": self.message, "code": self.code},
        });
        if let (Some(channel), Some(map)) = (&self.channel, frame.as_object_mut()) {
            map.insert("channel".into(), Value::String(channel.clone()));
        }
        frame.to_string()
    }
}

/// A frame as JSON text: `data` given as a string is sent as is (protocol 7 sends JSON text).
pub(crate) fn frame(event: &str, channel: Option<&str>, data: Option<Value>) -> String {
    let mut map = serde_json::Map::new();
    map.insert("event".into(), Value::String(event.to_owned()));
    if let Some(channel) = channel {
        map.insert("channel".into(), Value::String(channel.to_owned()));
    }
    if let Some(data) = data {
        map.insert("data".into(), data);
    }
    Value::Object(map).to_string()
}

struct SocketEntry {
    outbox: OutboxSender,
    /// The signed-in user.
    user: Option<String>,
    channels: BTreeSet<String>,
    client_events: VecDeque<Instant>,
}

struct Member {
    info: Value,
    /// Connections of this user subscribed to the channel.
    sockets: usize,
}

#[derive(Default)]
struct ChannelEntry {
    /// Socket id → the presence user id it joined as (presence channels only).
    subscribers: BTreeMap<String, Option<String>>,
    members: BTreeMap<String, Member>,
    /// The last event (name, data) of a cache channel.
    cached: Option<(String, Value)>,
}

#[derive(Default)]
struct Inner {
    sockets: HashMap<String, SocketEntry>,
    channels: BTreeMap<String, ChannelEntry>,
    /// Signed-in user id → its connections.
    users: HashMap<String, BTreeSet<String>>,
}

impl Inner {
    fn send(&self, socket_id: &str, text: &str) {
        if let Some(socket) = self.sockets.get(socket_id) {
            socket.outbox.push(text);
        }
    }
}

/// A presence member joining with a subscription.
#[derive(Debug, Clone)]
pub(crate) struct Joining {
    pub(crate) user_id: String,
    pub(crate) info: Value,
}

/// Occupancy of one channel, for the HTTP API.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Occupancy {
    pub(crate) subscription_count: usize,
    pub(crate) user_count: usize,
}

/// The state of one sandbox app.
pub(crate) struct Hub {
    pub(crate) config: RealtimeConfig,
    next_id: AtomicU64,
    prefix: u64,
    inner: Mutex<Inner>,
    webhooks: Option<Webhooks>,
}

impl Hub {
    pub(crate) fn new(config: RealtimeConfig, webhooks: Option<Webhooks>) -> Hub {
        Hub {
            config,
            next_id: AtomicU64::new(1),
            prefix: u64::from(rand::random::<u32>()),
            inner: Mutex::new(Inner::default()),
            webhooks,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn webhook(&self, event: Value) {
        if let Some(inbox) = &self.config.inbox {
            inbox.record_realtime_hook(&self.config.app_id, &event);
        }
        // Server-only channels (a user's `#server-to-user-<id>`) are not reported.
        let reserved = event
            .get("channel")
            .and_then(Value::as_str)
            .is_some_and(|c| c.starts_with('#'));
        if reserved {
            return;
        }
        if let Some(hooks) = &self.webhooks {
            hooks.push(event);
        }
    }

    /// Registers a connection and gives it a fresh socket id (`<random>.<counter>`).
    pub(crate) fn register(&self, outbox: OutboxSender) -> String {
        let n = self.next_id.fetch_add(1, Ordering::Relaxed);
        let socket_id = format!("{}.{n}", self.prefix);
        self.lock().sockets.insert(
            socket_id.clone(),
            SocketEntry {
                outbox,
                user: None,
                channels: BTreeSet::new(),
                client_events: VecDeque::new(),
            },
        );
        socket_id
    }

    /// Forgets a connection: it leaves every channel (members removed, channels vacated).
    pub(crate) fn unregister(&self, socket_id: &str) {
        let channels: Vec<String> = {
            let inner = self.lock();
            inner
                .sockets
                .get(socket_id)
                .map(|s| s.channels.iter().cloned().collect())
                .unwrap_or_default()
        };
        for channel in channels {
            self.unsubscribe(socket_id, &channel);
        }
        let mut inner = self.lock();
        if let Some(socket) = inner.sockets.remove(socket_id)
            && let Some(user) = socket.user
            && let Some(set) = inner.users.get_mut(&user)
        {
            set.remove(socket_id);
            if set.is_empty() {
                inner.users.remove(&user);
            }
        }
    }

    /// Sends a frame to one connection.
    pub(crate) fn send_to(&self, socket_id: &str, text: &str) {
        self.lock().send(socket_id, text);
    }

    /// Number of open connections.
    pub(crate) fn connection_count(&self) -> usize {
        self.lock().sockets.len()
    }

    /// The signed-in user of a connection.
    pub(crate) fn user_of(&self, socket_id: &str) -> Option<String> {
        self.lock()
            .sockets
            .get(socket_id)
            .and_then(|s| s.user.clone())
    }

    /// Subscribes a connection (authorization already checked) and sends
    /// `subscription_succeeded`, then `member_added` to the others and, on cache channels, the
    /// last event or `pusher:cache_miss`.
    pub(crate) fn subscribe(
        &self,
        socket_id: &str,
        channel: &str,
        joining: Option<Joining>,
        cache: bool,
    ) -> Result<(), ProtocolError> {
        let mut hooks = Vec::new();
        {
            let mut inner = self.lock();
            let Some(socket) = inner.sockets.get(socket_id) else {
                return Ok(()); // closed meanwhile
            };
            let max = self.config.max_subscriptions_per_connection;
            if socket.channels.len() >= max && !socket.channels.contains(channel) {
                return Err(ProtocolError::new(
                    Some(super::codes::OVER_CAPACITY),
                    format!(
                        "this connection already has {max} subscriptions, the most it may have"
                    ),
                )
                .on(channel));
            }
            let entry = inner.channels.entry(channel.to_owned()).or_default();
            let already = entry.subscribers.contains_key(socket_id);
            if !already {
                if let Some(j) = &joining
                    && !entry.members.contains_key(&j.user_id)
                    && entry.members.len() >= self.config.max_presence_members
                {
                    if entry.subscribers.is_empty() {
                        inner.channels.remove(channel);
                    }
                    return Err(ProtocolError::new(
                        Some(super::codes::OVER_CAPACITY),
                        format!(
                            "`{channel}` already has {} members, the most it may have",
                            self.config.max_presence_members
                        ),
                    )
                    .on(channel));
                }
                if entry.subscribers.is_empty() {
                    hooks.push(json!({"name": "channel_occupied", "channel": channel}));
                }
                entry.subscribers.insert(
                    socket_id.to_owned(),
                    joining.as_ref().map(|j| j.user_id.clone()),
                );
                let mut added = None;
                if let Some(j) = &joining {
                    let member = entry.members.entry(j.user_id.clone()).or_insert(Member {
                        info: j.info.clone(),
                        sockets: 0,
                    });
                    member.sockets += 1;
                    if member.sockets == 1 {
                        added = Some(j.clone());
                    }
                }
                if let Some(j) = added {
                    hooks.push(
                        json!({"name": "member_added", "channel": channel, "user_id": j.user_id}),
                    );
                    let text = frame(
                        "pusher_internal:member_added",
                        Some(channel),
                        Some(Value::String(
                            json!({"user_id": j.user_id, "user_info": j.info}).to_string(),
                        )),
                    );
                    let others: Vec<String> = entry
                        .subscribers
                        .keys()
                        .filter(|s| *s != socket_id)
                        .cloned()
                        .collect();
                    for other in &others {
                        inner.send(other, &text);
                    }
                }
                if let Some(socket) = inner.sockets.get_mut(socket_id) {
                    socket.channels.insert(channel.to_owned());
                }
            }
            let Some(entry) = inner.channels.get(channel) else {
                return Ok(());
            };
            let data = if joining.is_some() {
                let ids: Vec<&String> = entry.members.keys().collect();
                let hash: serde_json::Map<String, Value> = entry
                    .members
                    .iter()
                    .map(|(id, m)| (id.clone(), m.info.clone()))
                    .collect();
                json!({"presence": {"ids": ids, "hash": hash, "count": ids.len()}})
            } else {
                json!({})
            };
            let cached = entry.cached.clone();
            inner.send(
                socket_id,
                &frame(
                    "pusher_internal:subscription_succeeded",
                    Some(channel),
                    Some(Value::String(data.to_string())),
                ),
            );
            if cache {
                match cached {
                    Some((event, data)) => {
                        inner.send(socket_id, &frame(&event, Some(channel), Some(data)));
                    }
                    None => {
                        inner.send(socket_id, &frame("pusher:cache_miss", Some(channel), None));
                        hooks.push(json!({"name": "cache_miss", "channel": channel}));
                    }
                }
            }
        }
        for hook in hooks {
            self.webhook(hook);
        }
        Ok(())
    }

    /// Takes a connection off a channel: `member_removed` to the others when its user has no
    /// other connection there, `channel_vacated` when nobody is left.
    pub(crate) fn unsubscribe(&self, socket_id: &str, channel: &str) {
        let mut hooks = Vec::new();
        {
            let mut inner = self.lock();
            if let Some(socket) = inner.sockets.get_mut(socket_id) {
                socket.channels.remove(channel);
            }
            let Some(entry) = inner.channels.get_mut(channel) else {
                return;
            };
            let Some(member) = entry.subscribers.remove(socket_id) else {
                return;
            };
            let mut removed = None;
            if let Some(user_id) = member
                && let Some(m) = entry.members.get_mut(&user_id)
            {
                m.sockets = m.sockets.saturating_sub(1);
                if m.sockets == 0 {
                    entry.members.remove(&user_id);
                    removed = Some(user_id);
                }
            }
            let empty = entry.subscribers.is_empty();
            let others: Vec<String> = entry.subscribers.keys().cloned().collect();
            if let Some(user_id) = removed {
                let text = frame(
                    "pusher_internal:member_removed",
                    Some(channel),
                    Some(Value::String(json!({"user_id": user_id}).to_string())),
                );
                for other in &others {
                    inner.send(other, &text);
                }
                hooks.push(
                    json!({"name": "member_removed", "channel": channel, "user_id": user_id}),
                );
            }
            if empty {
                // A cache channel keeps its last event while vacant; others are forgotten.
                let keep = inner
                    .channels
                    .get(channel)
                    .is_some_and(|c| c.cached.is_some());
                if !keep {
                    inner.channels.remove(channel);
                }
                hooks.push(json!({"name": "channel_vacated", "channel": channel}));
            }
        }
        for hook in hooks {
            self.webhook(hook);
        }
    }

    /// Publishes an app event on a channel (or to a user's connections for
    /// `#server-to-user-<id>`), leaving out `exclude`. Cache channels keep it.
    pub(crate) fn publish(
        &self,
        channel: &str,
        event: &str,
        data: &str,
        exclude: Option<&str>,
        cache: bool,
    ) {
        if let Some(inbox) = &self.config.inbox {
            let app = &self.config.app_id;
            inbox.record_realtime(app, "api_event", channel, Some(event), Some(data), exclude);
        }
        let text = frame(event, Some(channel), Some(Value::String(data.to_owned())));
        let mut inner = self.lock();
        if let Some(user) = channel.strip_prefix(USER_CHANNEL_PREFIX) {
            let targets: Vec<String> = inner
                .users
                .get(user)
                .map(|s| s.iter().cloned().collect())
                .unwrap_or_default();
            for socket in targets.iter().filter(|s| Some(s.as_str()) != exclude) {
                inner.send(socket, &text);
            }
            return;
        }
        if cache {
            inner.channels.entry(channel.to_owned()).or_default().cached =
                Some((event.to_owned(), Value::String(data.to_owned())));
        }
        if let Some(entry) = inner.channels.get(channel) {
            for socket in entry.subscribers.keys() {
                if Some(socket.as_str()) != exclude {
                    inner.send(socket, &text);
                }
            }
        }
    }

    /// Relays a client event from `socket_id` to the channel's other subscribers, after the
    /// checks a client cannot be trusted with: subscribed, and at most the per-second limit.
    pub(crate) fn client_event(
        &self,
        socket_id: &str,
        channel: &str,
        event: &str,
        data: Option<Value>,
    ) -> Result<(), ProtocolError> {
        let user_id;
        {
            let mut inner = self.lock();
            let Some(socket) = inner.sockets.get_mut(socket_id) else {
                return Ok(());
            };
            if !socket.channels.contains(channel) {
                return Err(ProtocolError::new(
                    Some(super::codes::UNAUTHORIZED),
                    format!("client event `{event}` rejected: not subscribed to `{channel}`"),
                )
                .on(channel));
            }
            let now = Instant::now();
            let window = Duration::from_secs(1);
            while socket
                .client_events
                .front()
                .is_some_and(|t| now.duration_since(*t) >= window)
            {
                socket.client_events.pop_front();
            }
            if socket.client_events.len() >= self.config.client_events_per_second as usize {
                return Err(ProtocolError::new(
                    Some(super::codes::CLIENT_EVENT_RATE_LIMIT),
                    format!(
                        "client event `{event}` rejected: more than {} per second",
                        self.config.client_events_per_second
                    ),
                )
                .on(channel));
            }
            socket.client_events.push_back(now);
            let signed_in = socket.user.clone();
            let Some(entry) = inner.channels.get(channel) else {
                return Ok(());
            };
            user_id = entry
                .subscribers
                .get(socket_id)
                .cloned()
                .flatten()
                .or(signed_in);
            let mut out = serde_json::Map::new();
            out.insert("event".into(), Value::String(event.to_owned()));
            out.insert("channel".into(), Value::String(channel.to_owned()));
            if let Some(data) = &data {
                out.insert("data".into(), data.clone());
            }
            if let Some(user) = &user_id {
                out.insert("user_id".into(), Value::String(user.clone()));
            }
            let text = Value::Object(out).to_string();
            for other in entry.subscribers.keys().filter(|s| *s != socket_id) {
                inner.send(other, &text);
            }
        }
        let data_text = match data {
            Some(Value::String(s)) => s,
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let mut hook = json!({
            "name": "client_event", "channel": channel, "event": event,
            "data": data_text, "socket_id": socket_id,
        });
        if let (Some(user), Some(map)) = (user_id, hook.as_object_mut()) {
            map.insert("user_id".into(), Value::String(user));
        }
        self.webhook(hook);
        Ok(())
    }

    /// Marks a connection as signed in as `user_id`.
    pub(crate) fn signin(&self, socket_id: &str, user_id: &str) {
        let mut inner = self.lock();
        let previous = match inner.sockets.get_mut(socket_id) {
            Some(socket) => socket.user.replace(user_id.to_owned()),
            None => return,
        };
        if let Some(previous) = previous
            && let Some(set) = inner.users.get_mut(&previous)
        {
            set.remove(socket_id);
        }
        inner
            .users
            .entry(user_id.to_owned())
            .or_default()
            .insert(socket_id.to_owned());
    }

    /// Closes every connection signed in as `user_id` (close code 4009); returns how many.
    pub(crate) fn terminate_user(&self, user_id: &str) -> usize {
        let inner = self.lock();
        let Some(sockets) = inner.users.get(user_id) else {
            return 0;
        };
        for socket in sockets {
            if let Some(s) = inner.sockets.get(socket) {
                s.outbox.close(
                    super::codes::UNAUTHORIZED,
                    "connections of this user were terminated by the app",
                );
            }
        }
        sockets.len()
    }

    /// Closes one connection with `code` (its outbox's close request, as for a slow reader).
    pub(crate) fn close_socket(&self, socket_id: &str, code: u16, reason: &str) {
        if let Some(s) = self.lock().sockets.get(socket_id) {
            s.outbox.close(code, reason);
        }
    }

    /// Closes every connection (the sandbox is shutting down).
    pub(crate) fn close_all(&self, code: u16, reason: &str) {
        let inner = self.lock();
        for socket in inner.sockets.values() {
            socket.outbox.close(code, reason);
        }
    }

    /// Occupied channels (with at least one subscriber) and their counts, by name.
    pub(crate) fn occupied(&self) -> BTreeMap<String, Occupancy> {
        self.lock()
            .channels
            .iter()
            .filter(|(_, c)| !c.subscribers.is_empty())
            .map(|(name, c)| {
                (
                    name.clone(),
                    Occupancy {
                        subscription_count: c.subscribers.len(),
                        user_count: c.members.len(),
                    },
                )
            })
            .collect()
    }

    /// One channel's counts (zeros when vacant).
    pub(crate) fn occupancy(&self, channel: &str) -> Occupancy {
        self.lock()
            .channels
            .get(channel)
            .map(|c| Occupancy {
                subscription_count: c.subscribers.len(),
                user_count: c.members.len(),
            })
            .unwrap_or_default()
    }

    /// The member ids of a presence channel.
    pub(crate) fn member_ids(&self, channel: &str) -> Vec<String> {
        self.lock()
            .channels
            .get(channel)
            .map(|c| c.members.keys().cloned().collect())
            .unwrap_or_default()
    }
}
