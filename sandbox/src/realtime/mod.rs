//! The realtime service sandbox: an in-memory server of the Pusher Channels protocol 7 subset
//! the realtime client uses, on loopback, for tests, examples and the quickstart. The official
//! clients work against it too (pusher-js subscribes to it, the Node `pusher` library triggers
//! through it).
//!
//! What it serves, for one app (id, key, secret):
//!
//! - **WebSocket** at `/app/{key}?protocol=7`: `pusher:connection_established` with a socket
//!   id like `123.456` and the activity timeout; `pusher:subscribe` to public, `private-`
//!   (auth checked), `presence-` (auth and `channel_data` checked; the snapshot
//!   `{presence: {ids, hash, count}}` on success, `pusher_internal:member_added` /
//!   `member_removed` to the others), `private-encrypted-` (auth checked; the data is never
//!   decrypted here) and `cache-` channels (the last event, or `pusher:cache_miss`);
//!   `pusher:unsubscribe`; `pusher:ping` → `pusher:pong` (and a ping to silent clients, closed
//!   with 4201 when no pong comes); client events (`client-` names, private and presence
//!   channels only, subscribers only, not echoed to the sender, at most 10 per second per
//!   connection); `pusher:signin` (user auth checked) → `pusher:signin_success`, after which
//!   `#server-to-user-<id>` events reach that user's connections.
//! - **HTTP API** under `/apps/{app_id}`, every request signature-checked (401 when the
//!   signature, key, timestamp (±600 s) or `body_md5` does not hold): `POST /events` (1 to 100
//!   channels, data ≤ 10240 bytes else 413, `socket_id` left out, `info`), `POST /batch_events`
//!   (1 to 10), `GET /channels` (`filter_by_prefix`, `info=user_count`), `GET /channels/{name}`
//!   (`info=user_count,subscription_count`), `GET /channels/{name}/users` (presence),
//!   `POST /users/{id}/terminate_connections`. Errors are plain text with the status.
//! - **Webhooks** (when a URL is configured): `channel_occupied`, `channel_vacated`,
//!   `member_added`, `member_removed`, `client_event` and `cache_miss`, gathered for a short
//!   window and POSTed as `{"time_ms", "events": [...]}` with `X-Pusher-Key` and
//!   `X-Pusher-Signature` (hex HMAC-SHA256 of the body with the secret), retried on failure;
//!   with an inbox, each POST is recorded there and can be redelivered from it.
//!
//! Protocol errors are `pusher:error {message, code}` frames; those about a channel also name
//! it (`channel`), so a client can tell which subscription failed. The codes are in [`codes`].
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use tidings::pusher::{self, ConnectionState};
//! use tidings_sandbox::realtime::{RealtimeConfig, RealtimeSandbox};
//!
//! let sandbox = RealtimeSandbox::start(RealtimeConfig::default()).await?;
//! // A WebSocket client of the sandbox...
//! let connection = pusher::connection(&sandbox.ws_url(), sandbox.key()).connect()?;
//! connection.wait_for(ConnectionState::Connected, Duration::from_secs(5)).await?;
//! let mut news = connection.subscribe("news")?;
//! news.wait_subscribed(Duration::from_secs(5)).await?;
//! // ... receives what the HTTP client triggers.
//! sandbox.client()?.trigger(["news"], "headline", &serde_json::json!({"n": 1})).await?;
//! let event = news.next_event().await;
//! sandbox.shutdown().await;
//! # let _ = event; Ok(()) }
//! ```

mod api;
mod hub;
mod outbox;
mod signature;
mod socket;
mod webhooks;

use std::collections::HashMap;
use std::fmt;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use crate::server::{HttpLimits, Serving};
use axum::Router;
use axum::extract::{Path, Query, State, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::{any, get};
use tidings_runtime::Secret;
use tokio::task::JoinHandle;

use hub::Hub;

/// The app id of [`RealtimeConfig::default`].
pub const TEST_APP_ID: &str = "1";
/// The app key of [`RealtimeConfig::default`] (a test value, not a credential of any service).
pub const TEST_KEY: &str = "sandbox-key";

/// Close and error codes the sandbox sends, as protocol 7 defines them.
pub mod codes {
    /// The app key in the URL is unknown (the connection is closed).
    pub const APP_DOES_NOT_EXIST: u16 = 4001;
    /// The URL names no protocol version (closed).
    pub const NO_PROTOCOL_VERSION: u16 = 4008;
    /// The protocol version is not a number (closed).
    pub const INVALID_VERSION_FORMAT: u16 = 4006;
    /// The protocol version is not 7 (closed).
    pub const UNSUPPORTED_PROTOCOL_VERSION: u16 = 4007;
    /// Unauthorized: a subscription or sign-in whose signature does not hold, a client event
    /// on a channel the connection is not subscribed to (`pusher:error`); and the close code
    /// of connections terminated through the HTTP API.
    pub const UNAUTHORIZED: u16 = 4009;
    /// A presence channel is full (`pusher:error`).
    pub const OVER_CAPACITY: u16 = 4100;
    /// Generic "reconnect now" (the sandbox shutting down closes connections with it).
    pub const GENERIC_RECONNECT: u16 = 4200;
    /// The client did not answer a ping in time (closed).
    pub const PONG_NOT_RECEIVED: u16 = 4201;
    /// A client event over the per-second limit was dropped (`pusher:error`).
    pub const CLIENT_EVENT_RATE_LIMIT: u16 = 4301;
}

/// Settings of a [`RealtimeSandbox`]. `Default` gives the documented test app ([`TEST_APP_ID`],
/// [`TEST_KEY`], a random secret) on a free loopback port, without webhooks.
///
/// ```
/// use tidings_sandbox::realtime::RealtimeConfig;
/// let config = RealtimeConfig::default()
///     .credentials("42", "my-key", "my-secret")
///     .webhook_url("http://127.0.0.1:9000/hooks");
/// assert_eq!(config.key, "my-key");
/// assert!(!format!("{config:?}").contains("my-secret"));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct RealtimeConfig {
    /// Where to listen; port 0 picks a free one (default `127.0.0.1:0`).
    pub addr: SocketAddr,
    /// The app id (the HTTP API's `/apps/{app_id}`).
    pub app_id: String,
    /// The app key (the WebSocket path and `auth_key`).
    pub key: String,
    /// The app secret: signs channel auth, the HTTP API and webhooks. Redacted in `Debug`.
    pub secret: Secret,
    /// Where webhooks are POSTed; none are sent without it.
    pub webhook_url: Option<String>,
    /// How long events are gathered into one webhook request (default 50 ms).
    pub webhook_batch_window: Duration,
    /// Delivery attempts per webhook request (default 5; backoff 100 ms doubling, up to 2 s).
    pub webhook_attempts: u32,
    /// Silence after which the server pings a client; sent as `activity_timeout` (default
    /// 120 s).
    pub activity_timeout: Duration,
    /// How long a pinged client has to answer before it is closed with 4201 (default 30 s).
    pub pong_timeout: Duration,
    /// Client events per second per connection (default 10).
    pub client_events_per_second: u32,
    /// Members per presence channel (default 100).
    pub max_presence_members: usize,
    /// Where events and channel changes are recorded for the inbox (none by default).
    pub inbox: Option<crate::inbox::Inbox>,
    /// Channels one connection may be subscribed to (default 1000; past it `pusher:error`
    /// 4100).
    pub max_subscriptions_per_connection: usize,
    /// Frames waiting to be written to one connection (default 1024); a client that lets more
    /// pile up is closed with 4100.
    pub max_queued_frames: usize,
    /// Bytes waiting to be written to one connection (default 1 MiB), likewise.
    pub max_queued_bytes: usize,
    /// Bounds of the listener (WebSockets included, at most half of its connections:
    /// [`websocket_cap`]) and of HTTP API bodies (default [`HttpLimits::default`] with 512
    /// connections and bodies of at most [`DEFAULT_MAX_BODY_BYTES`]).
    pub limits: HttpLimits,
}

/// Largest HTTP API request body by default (a batch is at most 10 events of 10 KiB).
pub const DEFAULT_MAX_BODY_BYTES: usize = 1024 * 1024;

impl fmt::Debug for RealtimeConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RealtimeConfig")
            .field("addr", &self.addr)
            .field("app_id", &self.app_id)
            .field("key", &self.key)
            .field("secret", &self.secret)
            .field("webhook_url", &self.webhook_url)
            .field("activity_timeout", &self.activity_timeout)
            .field(
                "max_subscriptions_per_connection",
                &self.max_subscriptions_per_connection,
            )
            .field("max_queued_frames", &self.max_queued_frames)
            .field("max_queued_bytes", &self.max_queued_bytes)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Default for RealtimeConfig {
    fn default() -> RealtimeConfig {
        RealtimeConfig {
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            app_id: TEST_APP_ID.into(),
            key: TEST_KEY.into(),
            // Made at random, never a documented value: any page may open the WebSocket, and
            // with a secret it knows it could sign its own way into private channels.
            secret: Secret::new(format!("{:032x}", rand::random::<u128>())),
            webhook_url: None,
            webhook_batch_window: Duration::from_millis(50),
            webhook_attempts: 5,
            activity_timeout: Duration::from_secs(120),
            pong_timeout: Duration::from_secs(30),
            client_events_per_second: 10,
            max_presence_members: 100,
            inbox: None,
            max_subscriptions_per_connection: 1000,
            max_queued_frames: 1024,
            max_queued_bytes: 1024 * 1024,
            // Twice the other listeners' cap: half of it for WebSockets ([`websocket_cap`]:
            // 256, what the whole listener served before), half for the HTTP API.
            limits: HttpLimits::default()
                .max_body_bytes(DEFAULT_MAX_BODY_BYTES)
                .max_connections(2 * crate::server::DEFAULT_MAX_CONNECTIONS),
        }
    }
}

impl RealtimeConfig {
    /// Listens on this address (port 0 for a free one).
    #[must_use]
    pub fn addr(mut self, addr: SocketAddr) -> RealtimeConfig {
        self.addr = addr;
        self
    }

    /// Uses this app id, key and secret instead of the test values.
    #[must_use]
    pub fn credentials(
        mut self,
        app_id: impl Into<String>,
        key: impl Into<String>,
        secret: impl Into<Secret>,
    ) -> RealtimeConfig {
        self.app_id = app_id.into();
        self.key = key.into();
        self.secret = secret.into();
        self
    }

    /// Sends webhooks to this URL.
    #[must_use]
    pub fn webhook_url(mut self, url: impl Into<String>) -> RealtimeConfig {
        self.webhook_url = Some(url.into());
        self
    }

    /// Gathers webhook events for this long before each request.
    #[must_use]
    pub fn webhook_batch_window(mut self, window: Duration) -> RealtimeConfig {
        self.webhook_batch_window = window;
        self
    }

    /// Pings clients after this much silence (and tells them so in `activity_timeout`, whole
    /// seconds, at least 1).
    #[must_use]
    pub fn activity_timeout(mut self, timeout: Duration) -> RealtimeConfig {
        self.activity_timeout = timeout;
        self
    }

    /// Closes a pinged client that has not answered after this long.
    #[must_use]
    pub fn pong_timeout(mut self, timeout: Duration) -> RealtimeConfig {
        self.pong_timeout = timeout;
        self
    }

    /// Allows this many client events per second per connection.
    #[must_use]
    pub fn client_events_per_second(mut self, n: u32) -> RealtimeConfig {
        self.client_events_per_second = n;
        self
    }

    /// Allows this many subscriptions per connection.
    #[must_use]
    pub fn max_subscriptions_per_connection(mut self, n: usize) -> RealtimeConfig {
        self.max_subscriptions_per_connection = n;
        self
    }

    /// Bounds each connection's outbound queue: a client that lets more than `frames` frames
    /// or `bytes` bytes pile up is closed with 4100 (over capacity).
    #[must_use]
    pub fn outbound_queue(mut self, frames: usize, bytes: usize) -> RealtimeConfig {
        self.max_queued_frames = frames;
        self.max_queued_bytes = bytes;
        self
    }

    /// Replaces the listener's bounds (connections, timeouts, HTTP API body size).
    #[must_use]
    pub fn limits(mut self, limits: HttpLimits) -> RealtimeConfig {
        self.limits = limits;
        self
    }

    fn check(&self) -> std::io::Result<()> {
        let invalid = |m: &str| Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, m));
        if self.app_id.is_empty() || self.app_id.contains('/') {
            return invalid("the app id must be non-empty and contain no `/`");
        }
        if self.key.is_empty() || self.key.contains(['/', '?', '#']) {
            return invalid("the app key must be non-empty and contain no `/`, `?` or `#`");
        }
        if self.secret.is_empty() {
            return invalid("the app secret must not be empty");
        }
        if let Some(url) = &self.webhook_url
            && url::Url::parse(url).is_err()
        {
            return invalid("the webhook URL is not a URL");
        }
        Ok(())
    }
}

/// A running realtime sandbox. Stop it with [`RealtimeSandbox::shutdown`]; dropping the handle
/// stops it too (without waiting).
pub struct RealtimeSandbox {
    hub: Arc<Hub>,
    addr: SocketAddr,
    http: Serving,
    webhooks: Option<JoinHandle<()>>,
}

impl fmt::Debug for RealtimeSandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RealtimeSandbox")
            .field("addr", &self.addr)
            .field("app_id", &self.hub.config.app_id)
            .field("key", &self.hub.config.key)
            .finish_non_exhaustive()
    }
}

/// Largest WebSocket message a client may send (events carry at most 10 KiB of data).
const MAX_FRAME_BYTES: usize = 256 * 1024;

/// WebSockets the realtime listener serves at once when it serves `max` connections: half
/// (rounded up). The other half stays for the signed HTTP API, also from the address that
/// holds the WebSockets (an address holds at most three quarters,
/// [`crate::server::per_address_cap`]).
pub fn websocket_cap(max: usize) -> usize {
    max.div_ceil(2).max(1)
}

#[derive(Clone)]
struct AppState {
    hub: Arc<Hub>,
    /// WebSockets open at once, at most ([`websocket_cap`]): the rest of the listener's
    /// connections stay for the signed HTTP API.
    sockets: Arc<tokio::sync::Semaphore>,
}

async fn websocket(
    State(state): State<AppState>,
    Path(key): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let hub = state.hub.clone();
    let Ok(permit) = state.sockets.clone().try_acquire_owned() else {
        tracing::warn!(
            "realtime sandbox: WebSocket cap reached; one more refused with 503 (the rest of \
             the listener's connections are kept for the HTTP API)"
        );
        let mut response = Response::new(axum::body::Body::from(
            "too many WebSocket connections; the rest are kept for the HTTP API",
        ));
        *response.status_mut() = axum::http::StatusCode::SERVICE_UNAVAILABLE;
        return response;
    };
    upgrade
        .max_message_size(MAX_FRAME_BYTES)
        .on_upgrade(move |ws| async move {
            socket::serve(hub, ws, key, query).await;
            drop(permit);
        })
}

async fn api_handler(
    State(state): State<AppState>,
    path: Path<(String, String)>,
    request: axum::extract::Request,
) -> Response {
    api::handle(State(state.hub), path, request).await
}

impl RealtimeSandbox {
    /// Binds the address and starts serving in the background (needs a tokio runtime).
    ///
    /// # Errors
    ///
    /// An [`std::io::Error`] when the configuration is invalid (empty key or secret, a
    /// malformed webhook URL) or the address cannot be bound.
    pub async fn start(config: RealtimeConfig) -> std::io::Result<RealtimeSandbox> {
        config.check()?;
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        let (hooks, webhook_task) = match &config.webhook_url {
            Some(url) => {
                let (hooks, task) = webhooks::start(webhooks::Delivery {
                    url: url.clone(),
                    key: config.key.clone(),
                    secret: config.secret.clone(),
                    window: config.webhook_batch_window,
                    attempts: config.webhook_attempts,
                    inbox: config.inbox.clone(),
                });
                if let Some(inbox) = &config.inbox {
                    inbox.watch_redeliverer("realtime", hooks.redeliverer());
                }
                (Some(hooks), Some(task))
            }
            None => (None, None),
        };
        let config_limits = config.limits.clone();
        let hub = Arc::new(Hub::new(config, hooks));
        let router = Router::new()
            .route("/app/{key}", get(websocket))
            .route("/apps/{app_id}/{*rest}", any(api_handler))
            .with_state(AppState {
                hub: hub.clone(),
                sockets: Arc::new(tokio::sync::Semaphore::new(websocket_cap(
                    config_limits.max_connections,
                ))),
            });
        let http = Serving::spawn(
            listener,
            router,
            "realtime",
            &config_limits,
            crate::server::Writes::Any,
        );
        tracing::info!(%addr, "realtime sandbox listening");
        Ok(RealtimeSandbox {
            hub,
            addr,
            http,
            webhooks: webhook_task,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The HTTP API's base URL (`http://127.0.0.1:<port>`), as the realtime client's
    /// `base_url`.
    pub fn http_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The WebSocket base URL (`ws://127.0.0.1:<port>`); clients connect to
    /// `<ws_url>/app/<key>?protocol=7`.
    pub fn ws_url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// The app id.
    pub fn app_id(&self) -> &str {
        &self.hub.config.app_id
    }

    /// The app key.
    pub fn key(&self) -> &str {
        &self.hub.config.key
    }

    /// The app secret (to configure clients and authorizers of the sandbox).
    pub fn secret(&self) -> &str {
        self.hub.config.secret.expose()
    }

    /// Where webhooks go, if anywhere.
    pub fn webhook_url(&self) -> Option<&str> {
        self.hub.config.webhook_url.as_deref()
    }

    /// The connections open now.
    pub fn connection_count(&self) -> usize {
        self.hub.connection_count()
    }

    /// A read-only view of the app, for the inbox.
    pub(crate) fn view(&self) -> RealtimeView {
        RealtimeView(self.hub.clone())
    }

    /// A realtime HTTP client of this sandbox's app (`api_key` is set to a placeholder: the
    /// HTTP API is signed with the key and secret).
    ///
    /// # Errors
    ///
    /// What the client builder reports.
    pub fn client(&self) -> Result<tidings::realtime::RealtimeClient, tidings::Error> {
        tidings::realtime::RealtimeClient::builder()
            .base_url(self.http_url())
            .credential("app_id", self.app_id())
            .credential("key", self.key())
            .credential("secret", self.secret())
            .credential("api_key", "sandbox-unused")
            .build()
    }

    /// Closes every connection (code 4200), stops listening and waits for the server to end.
    /// Webhooks not yet delivered are dropped.
    pub async fn shutdown(mut self) {
        self.stop_now();
        self.http.stop_and_wait(crate::server::SHUTDOWN_WAIT).await;
    }

    fn stop_now(&mut self) {
        self.hub
            .close_all(codes::GENERIC_RECONNECT, "the sandbox is shutting down");
        self.http.stop();
        if let Some(task) = self.webhooks.take() {
            task.abort();
        }
    }
}

/// The inbox's read-only view of a running app: its credentials' public half and channels.
#[derive(Clone)]
pub(crate) struct RealtimeView(Arc<Hub>);

impl crate::inbox::web::RealtimeApp for RealtimeView {
    fn app_id(&self) -> &str {
        &self.0.config.app_id
    }

    fn key(&self) -> &str {
        &self.0.config.key
    }

    fn channels(&self) -> Vec<(String, usize, usize, Vec<String>)> {
        self.0
            .occupied()
            .into_iter()
            .map(|(name, o)| {
                let members = self.0.member_ids(&name);
                (name, o.subscription_count, o.user_count, members)
            })
            .collect()
    }
}

impl Drop for RealtimeSandbox {
    fn drop(&mut self) {
        self.stop_now();
    }
}
