//! Hand-written additions to `crate::realtime`: triggers that take typed data and check names
//! and sizes before sending, sending to one user, encrypted triggers, and the [`pusher`] helpers
//! for app servers (channel authorization, user sign-in, webhooks) and WebSocket clients
//! (re-exported as `tidings::pusher`).

use serde::Serialize;
use tidings_runtime::realtime::WebSocketRules;

use crate::realtime::{
    BatchEvent, RealtimeClient, TriggerBatchRequest, TriggerEventRequest, WEBSOCKET,
};
use tidings_runtime::Error;
use tidings_runtime::realtime::crypto::MasterKey;
use tidings_runtime::realtime::encode_data;

/// Prefix of the channel that carries events to one signed-in user.
const USER_CHANNEL_PREFIX: &str = "#server-to-user-";

impl TriggerEventRequest {
    /// An event with typed data, serialised to the wire string (a string as is, anything else
    /// as JSON), for the given channels (one channel is sent as `channel`).
    ///
    /// ```
    /// use tidings::realtime::TriggerEventRequest;
    /// let request = TriggerEventRequest::typed(["orders"], "order-placed", &serde_json::json!({"id": 7}))?;
    /// assert_eq!(request.data, r#"{"id":7}"#);
    /// assert_eq!(request.channel.as_deref(), Some("orders"));
    /// # Ok::<(), tidings::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when a channel name breaks the protocol's rules, there are no
    /// channels, or the data cannot be serialised.
    pub fn typed<T: Serialize + ?Sized>(
        channels: impl IntoIterator<Item = impl Into<String>>,
        event: &str,
        data: &T,
    ) -> Result<Self, Error> {
        let mut channels: Vec<String> = channels.into_iter().map(Into::into).collect();
        for channel in &channels {
            WEBSOCKET.check_channel_name(channel, true)?;
        }
        let request = TriggerEventRequest::new(event, encode_data(data)?);
        Ok(match channels.len() {
            0 => {
                return Err(Error::invalid_request(
                    "channels",
                    "name at least one channel",
                ));
            }
            1 => request.channel(channels.remove(0)),
            _ => request.channels(channels),
        })
    }

    /// Leaves out the connection with this socket id (the sender's own).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when it is not a socket id.
    pub fn excluding(self, socket_id: &str) -> Result<Self, Error> {
        WEBSOCKET.check_socket_id(socket_id)?;
        Ok(self.socket_id(socket_id))
    }
}

impl BatchEvent {
    /// One event of a batch with typed data.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] for a channel name the protocol rejects or data that cannot be
    /// serialised.
    pub fn typed<T: Serialize + ?Sized>(
        channel: &str,
        event: &str,
        data: &T,
    ) -> Result<Self, Error> {
        WEBSOCKET.check_channel_name(channel, true)?;
        Ok(BatchEvent::new(event, channel, encode_data(data)?))
    }
}

impl RealtimeClient {
    /// Publishes `event` with typed `data` on 1 to 100 channels.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), tidings::Error> {
    /// let client = tidings::realtime::RealtimeClient::from_env()?;
    /// client.trigger(["orders"], "order-placed", &serde_json::json!({"id": 7})).await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] before sending (names, sizes, counts), or what the server
    /// answered.
    pub async fn trigger<T: Serialize + ?Sized>(
        &self,
        channels: impl IntoIterator<Item = impl Into<String>>,
        event: &str,
        data: &T,
    ) -> Result<serde_json::Value, Error> {
        self.trigger_event(&TriggerEventRequest::typed(channels, event, data)?)
            .await
    }

    /// Sends an event to every connection signed in as `user_id` (a trigger on
    /// `#server-to-user-<user_id>`).
    ///
    /// # Errors
    ///
    /// As [`RealtimeClient::trigger`].
    pub async fn send_to_user<T: Serialize + ?Sized>(
        &self,
        user_id: &str,
        event: &str,
        data: &T,
    ) -> Result<serde_json::Value, Error> {
        let channel = format!("{USER_CHANNEL_PREFIX}{user_id}");
        self.trigger([channel], event, data).await
    }

    /// Publishes on one encrypted channel (`private-encrypted-...`): the data is sealed with
    /// the channel's key, SHA-256(channel ‖ master key), so the server never sees it.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when the channel is not an encrypted one, then as
    /// [`RealtimeClient::trigger`].
    pub async fn trigger_encrypted<T: Serialize + ?Sized>(
        &self,
        channel: &str,
        event: &str,
        data: &T,
        master_key: &MasterKey,
    ) -> Result<serde_json::Value, Error> {
        let sealed = pusher::encrypt_event_data(channel, data, master_key)?;
        self.trigger([channel], event, &sealed).await
    }

    /// Publishes up to 10 events in one request.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] for 0 or more than 10 events, then what the server answered.
    pub async fn trigger_events(&self, batch: Vec<BatchEvent>) -> Result<serde_json::Value, Error> {
        for event in &batch {
            WEBSOCKET.check_channel_name(&event.channel, true)?;
        }
        self.trigger_batch(&TriggerBatchRequest::new(batch)).await
    }

    /// Closes every connection of a signed-in user.
    ///
    /// # Errors
    ///
    /// What the server answered.
    pub async fn terminate_connections(&self, user_id: &str) -> Result<serde_json::Value, Error> {
        self.terminate_user_connections(user_id).await
    }
}

/// Helpers of the realtime protocol for app servers (authorize channels, sign users in, verify
/// webhooks) and for WebSocket clients (connect with this service's protocol).
pub mod pusher {
    use serde::Serialize;
    use tidings_runtime::Error;
    use tidings_runtime::Secret;
    use tidings_runtime::realtime as rt;
    use tidings_runtime::realtime::WebSocketRules;
    use tidings_runtime::realtime::crypto;

    use crate::realtime::{EncryptedData, WEBSOCKET, WebhookBody};

    pub use tidings_runtime::realtime::crypto::MasterKey;
    pub use tidings_runtime::realtime::{
        Authorizer, ChannelAuthRequest, FnAuthorizer, authorizer_fn,
    };
    pub use tidings_runtime::realtime::{
        Channel, ChannelAuth, ChannelEvent, Connection, ConnectionBuilder, ConnectionEvent,
        ConnectionState, Frame, LocalAuthorizer, Member, Members, StateChange, UserAuth,
    };

    /// Header that carries a webhook's signature.
    pub const SIGNATURE_HEADER: &str = "X-Pusher-Signature";
    /// Header that names the app key a webhook is for.
    pub const KEY_HEADER: &str = "X-Pusher-Key";

    fn check(socket_id: &str, channel: &str) -> Result<(), Error> {
        WEBSOCKET.check_socket_id(socket_id)?;
        WEBSOCKET.check_channel_name(channel, false)
    }

    /// Authorizes a private channel subscription: `{"auth": "<key>:<signature>"}`.
    ///
    /// ```
    /// use tidings::pusher::authorize_channel;
    /// let auth = authorize_channel("278d425bdf160c739803", "7ad3773142a6692b25b8", "1234.1234", "private-foobar")?;
    /// assert_eq!(auth.auth, "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4");
    /// # Ok::<(), tidings::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] for a malformed socket id or channel name.
    pub fn authorize_channel(
        key: &str,
        secret: &str,
        socket_id: &str,
        channel: &str,
    ) -> Result<ChannelAuth, Error> {
        check(socket_id, channel)?;
        Ok(rt::authorize_channel(
            key,
            &Secret::new(secret),
            socket_id,
            channel,
        ))
    }

    /// Authorizes a presence channel subscription for a user: `{"auth", "channel_data"}`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] for a malformed socket id or channel name, or user info that
    /// cannot be serialised.
    pub fn authorize_presence<T: Serialize + ?Sized>(
        key: &str,
        secret: &str,
        socket_id: &str,
        channel: &str,
        user_id: &str,
        user_info: &T,
    ) -> Result<ChannelAuth, Error> {
        check(socket_id, channel)?;
        let info = serde_json::to_value(user_info).map_err(|e| {
            Error::invalid_request("user_info", format!("cannot be serialised ({e})"))
        })?;
        let channel_data = serde_json::json!({"user_id": user_id, "user_info": info}).to_string();
        Ok(rt::authorize_presence_channel(
            key,
            &Secret::new(secret),
            socket_id,
            channel,
            &channel_data,
        ))
    }

    /// Authorizes an encrypted channel subscription: `{"auth", "shared_secret"}`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] for a malformed socket id, or a channel that is not encrypted.
    pub fn authorize_encrypted(
        key: &str,
        secret: &str,
        socket_id: &str,
        channel: &str,
        master_key: &MasterKey,
    ) -> Result<ChannelAuth, Error> {
        check(socket_id, channel)?;
        encrypted_kind(channel)?;
        Ok(rt::authorize_encrypted_channel(
            key,
            &Secret::new(secret),
            socket_id,
            channel,
            master_key,
        ))
    }

    /// Authenticates a user for `pusher:signin`; `user` must have a string `id`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] for a malformed socket id or a user without `id`.
    pub fn authenticate_user<T: Serialize + ?Sized>(
        key: &str,
        secret: &str,
        socket_id: &str,
        user: &T,
    ) -> Result<UserAuth, Error> {
        WEBSOCKET.check_socket_id(socket_id)?;
        let user = serde_json::to_value(user)
            .map_err(|e| Error::invalid_request("user", format!("cannot be serialised ({e})")))?;
        if !user.get("id").is_some_and(serde_json::Value::is_string) {
            return Err(Error::invalid_request("user", "needs a string `id`"));
        }
        Ok(rt::authenticate_user(
            key,
            &Secret::new(secret),
            socket_id,
            &user.to_string(),
        ))
    }

    /// Verifies a webhook from its headers (`X-Pusher-Signature`, and `X-Pusher-Key` when
    /// `key` is given) and raw body, then decodes its events.
    ///
    /// # Errors
    ///
    /// [`Error::Webhook`] when a header is missing or the signature does not match;
    /// [`Error::Decode`] when the body is not a webhook.
    pub fn verify_webhook(
        key: Option<&str>,
        secret: &str,
        headers: &tidings_runtime::reqwest::header::HeaderMap,
        body: &[u8],
    ) -> Result<WebhookBody, Error> {
        use tidings_runtime::WebhookFailure;
        let header = |name: &'static str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .ok_or(Error::Webhook(WebhookFailure::MissingHeader(name)))
        };
        if let Some(key) = key
            && header(KEY_HEADER)? != key
        {
            return Err(Error::Webhook(WebhookFailure::SignatureMismatch));
        }
        crate::realtime::verify_webhook(secret, header(SIGNATURE_HEADER)?, body)
    }

    fn encrypted_kind(channel: &str) -> Result<(), Error> {
        if WEBSOCKET.channel_kind(channel).is_some_and(|k| k.encrypted) {
            Ok(())
        } else {
            Err(Error::invalid_request(
                "channel",
                format!("`{channel}` is not an encrypted channel"),
            ))
        }
    }

    /// Seals event data for an encrypted channel: `{"nonce", "ciphertext"}`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when the channel is not encrypted or the data cannot be
    /// serialised.
    pub fn encrypt_event_data<T: Serialize + ?Sized>(
        channel: &str,
        data: &T,
        master_key: &MasterKey,
    ) -> Result<EncryptedData, Error> {
        encrypted_kind(channel)?;
        WEBSOCKET.check_channel_name(channel, false)?;
        let text = rt::encode_data(data)?;
        let sealed = crypto::encrypt(&crypto::shared_secret(channel, master_key), text.as_bytes());
        Ok(EncryptedData::new(sealed.nonce, sealed.ciphertext))
    }

    /// Opens event data of an encrypted channel, given the master key.
    ///
    /// # Errors
    ///
    /// [`Error::Decode`] when the data is not sealed under this channel's key.
    pub fn decrypt_event_data(
        channel: &str,
        data: &EncryptedData,
        master_key: &MasterKey,
    ) -> Result<String, Error> {
        let sealed = crypto::EncryptedData::new(data.nonce.clone(), data.ciphertext.clone());
        let plain = crypto::decrypt(&crypto::shared_secret(channel, master_key), &sealed)?;
        String::from_utf8(plain)
            .map_err(|_| Error::invalid_request("data", "decrypted data is not UTF-8"))
    }

    /// A WebSocket connection to this service (`ws://host:port` or `wss://...`) with the app
    /// key; add an authorizer, then `connect()`.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), tidings::Error> {
    /// use std::time::Duration;
    /// use tidings::pusher::{self, ConnectionState};
    /// let connection = pusher::connection("ws://127.0.0.1:6001", "app-key").connect()?;
    /// connection.wait_for(ConnectionState::Connected, Duration::from_secs(5)).await?;
    /// let mut channel = connection.subscribe("orders")?;
    /// if let Some(event) = channel.next_event().await {
    ///     println!("{} {:?}", event.event, event.data);
    /// }
    /// # Ok(()) }
    /// ```
    pub fn connection(base_url: &str, key: &str) -> ConnectionBuilder {
        ConnectionBuilder::new(&WEBSOCKET, base_url, key)
    }

    /// An authorizer that signs locally with the app secret (trusted processes only).
    pub fn local_authorizer(key: &str, secret: &str) -> LocalAuthorizer {
        LocalAuthorizer::new(&WEBSOCKET, key, secret)
    }

    /// The channel that carries events sent to the signed-in user with `send_to_user`.
    pub fn user_channel(connection: &Connection, user_id: &str) -> Channel {
        connection.listen(&format!("{}{user_id}", super::USER_CHANNEL_PREFIX))
    }
}
