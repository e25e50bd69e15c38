//! Channel authorization and user sign-in, for app servers and for clients that hold the
//! secret: HMAC-SHA256 signatures as protocol 7 defines them, and the [`Authorizer`] the
//! WebSocket client asks before subscribing to a private, presence or encrypted channel.
//!
//! ```
//! use tidings_runtime::Secret;
//! use tidings_runtime::realtime::authorize_channel;
//! let auth = authorize_channel("278d425bdf160c739803", &Secret::new("7ad3773142a6692b25b8"), "1234.1234", "private-foobar");
//! assert_eq!(auth.auth, "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4");
//! ```

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::{Deserialize, Serialize};

use super::crypto::{MasterKey, shared_secret};
use super::{ChannelAuthKind, WebSocketSpec};
use crate::Error;
use crate::secret::Secret;
use crate::sign::hmac_sha256_hex;

/// A boxed future, as [`Authorizer`] methods return.
pub type AuthFuture<T> = Pin<Box<dyn Future<Output = Result<T, Error>> + Send + 'static>>;

/// What an auth endpoint answers for a channel: `{auth, channel_data?, shared_secret?}`.
///
/// Its `Debug` output redacts `shared_secret` (the encrypted channel's key).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ChannelAuth {
    /// `<key>:<hex signature>`.
    pub auth: String,
    /// The presence member, JSON-encoded (presence channels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_data: Option<String>,
    /// The channel's key, base64 (encrypted channels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_secret: Option<String>,
}

impl fmt::Debug for ChannelAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChannelAuth")
            .field("auth", &self.auth)
            .field("channel_data", &self.channel_data)
            .field(
                "shared_secret",
                &self.shared_secret.as_ref().map(|_| "<redacted>"),
            )
            .finish()
    }
}

impl ChannelAuth {
    /// An answer with just `auth`.
    pub fn new(auth: impl Into<String>) -> ChannelAuth {
        ChannelAuth {
            auth: auth.into(),
            channel_data: None,
            shared_secret: None,
        }
    }

    /// Sets `channel_data`.
    #[must_use]
    pub fn with_channel_data(mut self, channel_data: impl Into<String>) -> ChannelAuth {
        self.channel_data = Some(channel_data.into());
        self
    }

    /// Sets `shared_secret`.
    #[must_use]
    pub fn with_shared_secret(mut self, shared_secret: impl Into<String>) -> ChannelAuth {
        self.shared_secret = Some(shared_secret.into());
        self
    }
}

/// What a user-authentication endpoint answers: `{auth, user_data}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct UserAuth {
    /// `<key>:<hex signature of "socket_id::user::user_data">`.
    pub auth: String,
    /// The user, JSON-encoded, with at least `id`.
    pub user_data: String,
}

impl UserAuth {
    /// An answer from its two parts.
    pub fn new(auth: impl Into<String>, user_data: impl Into<String>) -> UserAuth {
        UserAuth {
            auth: auth.into(),
            user_data: user_data.into(),
        }
    }
}

fn sign(key: &str, secret: &Secret, message: &str) -> String {
    format!(
        "{key}:{}",
        hmac_sha256_hex(secret.expose().as_bytes(), message.as_bytes())
    )
}

/// Authorizes a private channel: signs `socket_id:channel`.
pub fn authorize_channel(
    key: &str,
    secret: &Secret,
    socket_id: &str,
    channel: &str,
) -> ChannelAuth {
    ChannelAuth::new(sign(key, secret, &format!("{socket_id}:{channel}")))
}

/// Authorizes a presence channel: signs `socket_id:channel:channel_data`, where
/// `channel_data` is the member as JSON text (`{"user_id": "...", "user_info": {...}}`).
pub fn authorize_presence_channel(
    key: &str,
    secret: &Secret,
    socket_id: &str,
    channel: &str,
    channel_data: &str,
) -> ChannelAuth {
    ChannelAuth::new(sign(
        key,
        secret,
        &format!("{socket_id}:{channel}:{channel_data}"),
    ))
    .with_channel_data(channel_data)
}

/// Authorizes an encrypted channel: the private signature plus the channel's key,
/// SHA-256(channel name ‖ master key), base64.
pub fn authorize_encrypted_channel(
    key: &str,
    secret: &Secret,
    socket_id: &str,
    channel: &str,
    master_key: &MasterKey,
) -> ChannelAuth {
    authorize_channel(key, secret, socket_id, channel)
        .with_shared_secret(BASE64.encode(shared_secret(channel, master_key)))
}

/// Authenticates a user for `pusher:signin`: signs `socket_id::user::user_data`, where
/// `user_data` is the user as JSON text with at least `id`.
pub fn authenticate_user(key: &str, secret: &Secret, socket_id: &str, user_data: &str) -> UserAuth {
    UserAuth::new(
        sign(key, secret, &format!("{socket_id}::user::{user_data}")),
        user_data,
    )
}

/// A request to authorize one subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ChannelAuthRequest {
    /// The connection's socket id.
    pub socket_id: String,
    /// The channel.
    pub channel: String,
}

/// Where the WebSocket client gets authorizations: usually the app's auth endpoint (an HTTP
/// call), or [`LocalAuthorizer`] where the secret is at hand.
///
/// Closures work through [`authorizer_fn`].
pub trait Authorizer: Send + Sync + fmt::Debug {
    /// Authorizes a subscription to a private, presence or encrypted channel.
    fn authorize_channel(&self, request: ChannelAuthRequest) -> AuthFuture<ChannelAuth>;

    /// Authenticates the user for `pusher:signin`; by default, sign-in is not configured.
    fn authenticate_user(&self, socket_id: String) -> AuthFuture<UserAuth> {
        let _ = socket_id;
        Box::pin(async {
            Err(Error::config(
                "this authorizer does not authenticate users; give one that does to sign in",
            ))
        })
    }
}

/// An [`Authorizer`] from an async closure.
pub struct FnAuthorizer<F> {
    f: F,
}

impl<F> fmt::Debug for FnAuthorizer<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FnAuthorizer")
    }
}

/// Wraps an async closure as an [`Authorizer`] for channels.
///
/// ```
/// # use tidings_runtime::realtime::{authorizer_fn, ChannelAuth, ChannelAuthRequest};
/// let authorizer = authorizer_fn(|request: ChannelAuthRequest| async move {
///     // Ask the app's auth endpoint here.
///     Ok(ChannelAuth::new(format!("key:{}", request.channel)))
/// });
/// # let _ = authorizer;
/// ```
pub fn authorizer_fn<F, Fut>(f: F) -> FnAuthorizer<F>
where
    F: Fn(ChannelAuthRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<ChannelAuth, Error>> + Send + 'static,
{
    FnAuthorizer { f }
}

impl<F, Fut> Authorizer for FnAuthorizer<F>
where
    F: Fn(ChannelAuthRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<ChannelAuth, Error>> + Send + 'static,
{
    fn authorize_channel(&self, request: ChannelAuthRequest) -> AuthFuture<ChannelAuth> {
        Box::pin((self.f)(request))
    }
}

/// Signs locally with the app secret: for app servers and trusted processes only (never ship
/// the secret to browsers or apps). Presence channels and sign-in need a user; encrypted
/// channels need the master key.
#[derive(Clone)]
pub struct LocalAuthorizer {
    spec: &'static WebSocketSpec,
    key: String,
    secret: Secret,
    user_id: Option<String>,
    user_info: Option<serde_json::Value>,
    master_key: Option<MasterKey>,
}

impl fmt::Debug for LocalAuthorizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalAuthorizer")
            .field("key", &self.key)
            .field("secret", &self.secret)
            .field("user_id", &self.user_id)
            .field("master_key", &self.master_key)
            .finish()
    }
}

impl LocalAuthorizer {
    /// An authorizer for an app key and secret; `spec` tells the channel kinds apart.
    pub fn new(
        spec: &'static WebSocketSpec,
        key: impl Into<String>,
        secret: impl Into<Secret>,
    ) -> LocalAuthorizer {
        LocalAuthorizer {
            spec,
            key: key.into(),
            secret: secret.into(),
            user_id: None,
            user_info: None,
            master_key: None,
        }
    }

    /// The user this connection acts as (presence `channel_data` and sign-in `user_data`).
    #[must_use]
    pub fn user(mut self, id: impl Into<String>, info: serde_json::Value) -> LocalAuthorizer {
        self.user_id = Some(id.into());
        self.user_info = Some(info);
        self
    }

    /// The master key of encrypted channels.
    #[must_use]
    pub fn master_key(mut self, key: MasterKey) -> LocalAuthorizer {
        self.master_key = Some(key);
        self
    }

    /// Authorizes a channel now.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when a presence channel has no user or an encrypted channel no key.
    pub fn authorize(&self, socket_id: &str, channel: &str) -> Result<ChannelAuth, Error> {
        let kind = self.spec.channel_kind(channel);
        if kind.is_some_and(|k| k.auth == ChannelAuthKind::Presence) {
            let Some(id) = &self.user_id else {
                return Err(Error::config(format!(
                    "presence channel `{channel}` needs a user: call LocalAuthorizer::user"
                )));
            };
            let data = serde_json::json!({"user_id": id, "user_info": self.user_info});
            return Ok(authorize_presence_channel(
                &self.key,
                &self.secret,
                socket_id,
                channel,
                &data.to_string(),
            ));
        }
        if kind.is_some_and(|k| k.encrypted) {
            let Some(master) = &self.master_key else {
                return Err(Error::config(format!(
                    "encrypted channel `{channel}` needs the master key: call LocalAuthorizer::master_key"
                )));
            };
            return Ok(authorize_encrypted_channel(
                &self.key,
                &self.secret,
                socket_id,
                channel,
                master,
            ));
        }
        Ok(authorize_channel(
            &self.key,
            &self.secret,
            socket_id,
            channel,
        ))
    }

    /// Authenticates the configured user now.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when no user is configured.
    pub fn authenticate(&self, socket_id: &str) -> Result<UserAuth, Error> {
        let Some(id) = &self.user_id else {
            return Err(Error::config(
                "sign-in needs a user: call LocalAuthorizer::user",
            ));
        };
        let mut data = serde_json::Map::new();
        data.insert("id".into(), serde_json::Value::String(id.clone()));
        if let Some(serde_json::Value::Object(info)) = &self.user_info {
            for (k, v) in info {
                if k != "id" {
                    data.insert(k.clone(), v.clone());
                }
            }
        }
        Ok(authenticate_user(
            &self.key,
            &self.secret,
            socket_id,
            &serde_json::Value::Object(data).to_string(),
        ))
    }
}

impl Authorizer for LocalAuthorizer {
    fn authorize_channel(&self, request: ChannelAuthRequest) -> AuthFuture<ChannelAuth> {
        let result = self.authorize(&request.socket_id, &request.channel);
        Box::pin(async move { result })
    }

    fn authenticate_user(&self, socket_id: String) -> AuthFuture<UserAuth> {
        let result = self.authenticate(&socket_id);
        Box::pin(async move { result })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "278d425bdf160c739803";
    const SECRET: &str = "7ad3773142a6692b25b8";

    #[test]
    fn private_channel_vector_from_protocols_md() {
        let auth = authorize_channel(KEY, &Secret::new(SECRET), "1234.1234", "private-foobar");
        assert_eq!(
            auth.auth,
            "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4"
        );
        assert_eq!(
            serde_json::to_string(&auth).unwrap(),
            format!(r#"{{"auth":"{}"}}"#, auth.auth)
        );
    }

    #[test]
    fn presence_and_signin_sign_the_documented_strings() {
        let secret = Secret::new(SECRET);
        let data = r#"{"user_id":"10","user_info":{"name":"Mr. Channels"}}"#;
        let auth = authorize_presence_channel(KEY, &secret, "1234.1234", "presence-foobar", data);
        let expected = hmac_sha256_hex(
            SECRET.as_bytes(),
            format!("1234.1234:presence-foobar:{data}").as_bytes(),
        );
        assert_eq!(auth.auth, format!("{KEY}:{expected}"));
        assert_eq!(auth.channel_data.as_deref(), Some(data));

        let user = r#"{"id":"10"}"#;
        let signin = authenticate_user(KEY, &secret, "1234.1234", user);
        let expected = hmac_sha256_hex(
            SECRET.as_bytes(),
            format!("1234.1234::user::{user}").as_bytes(),
        );
        assert_eq!(signin.auth, format!("{KEY}:{expected}"));
        assert_eq!(signin.user_data, user);
    }

    #[test]
    fn local_authorizer_picks_the_scheme_by_channel_kind() {
        let master =
            MasterKey::from_base64("zyrm8pvV2C9fJcBfhyXzvxbJVN/H7QLmbe0xJi1GhPU=").unwrap();
        let local = LocalAuthorizer::new(&crate::realtime::test_spec::SPEC, KEY, SECRET);
        assert!(local.authorize("1.1", "presence-x").is_err());
        assert!(local.authorize("1.1", "private-encrypted-bla").is_err());
        assert!(local.authenticate("1.1").is_err());
        let local = local
            .user("7", serde_json::json!({"name": "Ada"}))
            .master_key(master);
        let enc = local.authorize("1.1", "private-encrypted-bla").unwrap();
        assert_eq!(
            enc.shared_secret.as_deref(),
            Some("nlr49ISQHz91yS3cy/yWmW8wFMNeTnNL5tNHnbPJcLQ=")
        );
        let presence = local.authorize("1.1", "presence-x").unwrap();
        let member: serde_json::Value =
            serde_json::from_str(presence.channel_data.as_deref().unwrap()).unwrap();
        assert_eq!(member["user_id"], "7");
        let user = local.authenticate("1.1").unwrap();
        assert_eq!(user.user_data, r#"{"id":"7","name":"Ada"}"#);
        let debug = format!("{local:?}");
        assert!(
            !debug.contains(SECRET) && !debug.contains("zyrm8"),
            "{debug}"
        );
    }
}
