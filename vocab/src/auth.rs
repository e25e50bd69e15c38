//! How requests are authenticated.

use crate::storage::opt_text;
use crate::{Intern, Static, Storage, ToStatic};

/// How a request is authenticated.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AuthScheme<S: Storage = Static> {
    /// `Authorization: Bearer <credential>`
    Bearer {
        /// Credential name.
        credential: S::Str,
    },
    /// `<header>: <prefix><credential>`
    Header {
        /// Header name.
        header: S::Str,
        /// Credential name.
        credential: S::Str,
        /// Text before the credential, e.g. `"App "` for `Authorization: App <key>`.
        prefix: Option<S::Str>,
    },
    /// `?<param>=<credential>`, for each pair, all sent together (Vonage's `api_key` and
    /// `api_secret`); only when the caller opts in: keys in URLs leak into logs.
    Query {
        /// `(query parameter, credential name)` pairs, e.g. `[("api_key", "api_key")]`; never
        /// empty in a checked spec.
        params: S::Pairs,
    },
    /// A request-signing scheme implemented in the runtime.
    Signature {
        /// Which scheme, with the names of the credentials it uses.
        scheme: SigningScheme<S>,
    },
    /// HTTP Basic (RFC 7617): `Authorization: Basic base64(<username>:<password>)`.
    Basic {
        /// Credential sent as the user name (an account id, or the key itself).
        username: S::Str,
        /// Credential sent as the password; `None` sends an empty password (key-as-username).
        password: Option<S::Str>,
    },
    /// Credentials as top-level fields of the request body (a JSON object, or a
    /// `application/x-www-form-urlencoded` form), all sent together.
    Body {
        /// `(body field, credential name)` pairs, e.g. `[("api_key", "api_key"),
        /// ("api_secret", "api_secret")]`; never empty in a checked spec.
        fields: S::Pairs,
    },
    /// A token the application mints (a signed JWT ...), sent as `<header>: <prefix><token>`.
    /// The minter is registered on the builder under `minter`
    /// (the runtime's `ClientBuilder::token_minter`) and asked once per attempt.
    Minted {
        /// The name the minter is registered under, e.g. `"jwt"`.
        minter: S::Str,
        /// Header name, e.g. `"Authorization"`.
        header: S::Str,
        /// Text before the token, e.g. `"Bearer "`.
        prefix: Option<S::Str>,
    },
    /// OAuth 2.0 client credentials (RFC 6749 section 4.4): an access token fetched from
    /// `token_url` with the client id and secret (HTTP Basic), sent as
    /// `Authorization: Bearer <token>`; cached per client (clones share it), fetched again
    /// shortly before it expires and after a 401 (the call then tries once more). See
    /// the runtime's `oauth2` module.
    OAuth2ClientCredentials {
        /// The token endpoint: an absolute URL, or a path resolved against the base URL.
        token_url: S::Str,
        /// Credential holding the client id.
        client_id: S::Str,
        /// Credential holding the client secret.
        client_secret: S::Str,
        /// Scopes asked for (`scope`, space-separated); empty: none asked.
        scopes: S::Strs,
    },
    /// Several of the service's other schemes sent together, as one OpenAPI security
    /// requirement naming them all says (an app id in one header and a key in another).
    All {
        /// The schemes sent, each one of the service's own; at least two in a checked spec,
        /// each a bearer, header, query, Basic or body scheme, no two setting the same header.
        schemes: AuthSchemes<S>,
    },
    /// No credentials: a public operation (OpenAPI's `security: []`), sent without any and
    /// served to anyone. Only an operation's own scheme (`OperationSpec::with_auth`); a
    /// service's list of schemes never holds it.
    Anonymous,
}

/// Request-signing schemes implemented by the runtime (the runtime's `sign` module).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SigningScheme<S: Storage = Static> {
    /// Pusher Channels HTTP API signing, `auth_version=1.0`. Fields are credential names.
    PusherHmacSha256 {
        /// Credential holding the app id (not secret).
        app_id: S::Str,
        /// Credential holding the app key (not secret; sent as `auth_key`).
        key: S::Str,
        /// Credential holding the app secret.
        secret: S::Str,
    },
}

impl Copy for AuthScheme<Static> {}

/// The schemes an [`AuthScheme::All`] sends together, in the spec's order.
///
/// ```
/// use tidings_spec::{AuthScheme, AuthSchemes};
///
/// static BOTH: AuthScheme = AuthScheme::All {
///     schemes: AuthSchemes::new(&[
///         AuthScheme::Header { header: "X-App-Id", credential: "app_id", prefix: None },
///         AuthScheme::Header { header: "X-Api-Key", credential: "api_key", prefix: None },
///     ]),
/// };
/// let AuthScheme::All { schemes } = BOTH else { unreachable!() };
/// assert_eq!(schemes.iter().count(), 2);
/// ```
pub struct AuthSchemes<S: Storage = Static>(pub S::Schemes);

impl AuthSchemes {
    /// The schemes, for a `static` (`AuthSchemes::new(&[..])`).
    pub const fn new(schemes: &'static [AuthScheme]) -> AuthSchemes {
        AuthSchemes(schemes)
    }
}

impl<S: Storage> AuthSchemes<S> {
    /// Each scheme, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, AuthScheme<S>> {
        self.0.as_ref().iter()
    }
}

impl<S: Storage> AsRef<[AuthScheme<S>]> for AuthSchemes<S> {
    fn as_ref(&self) -> &[AuthScheme<S>] {
        self.0.as_ref()
    }
}

// Written out, not derived: a derived impl would bound `S::Schemes` by the trait itself,
// which holds `AuthScheme<S>`, whose impl asks the same question again without end.
impl<S: Storage> Clone for AuthSchemes<S> {
    fn clone(&self) -> Self {
        AuthSchemes(self.0.clone())
    }
}

impl Copy for AuthSchemes<Static> {}

impl<S: Storage> PartialEq for AuthSchemes<S> {
    fn eq(&self, other: &Self) -> bool {
        self.as_ref() == other.as_ref()
    }
}

impl<S: Storage> Eq for AuthSchemes<S> {}

impl<S: Storage> std::hash::Hash for AuthSchemes<S> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_ref().hash(state);
    }
}

impl<S: Storage> std::fmt::Debug for AuthSchemes<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Copy for SigningScheme<Static> {}

/// The kinds of auth scheme a spec names (`kind: bearer`): which fields of the scheme it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AuthKind {
    /// `Authorization: Bearer <credential>`.
    Bearer,
    /// `<header>: <credential>`.
    Header,
    /// `?<param>=<credential>`.
    Query,
    /// A request-signing scheme implemented by the runtime (`signing` names it).
    Signature,
    /// HTTP Basic: `username` (and `password`, else empty) credentials.
    Basic,
    /// Credentials as top-level fields of the JSON or form body: one (`field` and
    /// `credential`) or several together (`fields`: body field -> credential).
    Body,
    /// A token the application mints (`minter` names it), sent in `header` after `prefix`.
    Minted,
    /// OAuth 2.0 client credentials (RFC 6749 section 4.4): the runtime fetches an access
    /// token from `token_url` with the `client_id` and `client_secret` credentials, caches it,
    /// refreshes it before it expires and after a 401, and sends it as a bearer token.
    #[cfg_attr(feature = "serde", serde(rename = "oauth2_client_credentials"))]
    OAuth2ClientCredentials,
    /// Several of the service's other schemes (`schemes`), sent together.
    All,
}

/// The request-signing schemes a spec names (`signing: pusher_hmac_sha256`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SigningKind {
    /// Pusher HTTP API signature (auth_version 1.0, HMAC-SHA256).
    PusherHmacSha256,
}

impl<S: Storage> AuthScheme<S> {
    /// The kind a spec writes for this scheme; `None` for [`AuthScheme::Anonymous`], which a
    /// spec writes as an operation's `auth: none`.
    ///
    /// ```
    /// use tidings_spec::{AuthKind, AuthScheme};
    ///
    /// static KEY: AuthScheme = AuthScheme::Bearer { credential: "api_key" };
    /// assert_eq!(KEY.kind(), Some(AuthKind::Bearer));
    /// ```
    pub fn kind(&self) -> Option<AuthKind> {
        Some(match self {
            AuthScheme::Bearer { .. } => AuthKind::Bearer,
            AuthScheme::Header { .. } => AuthKind::Header,
            AuthScheme::Query { .. } => AuthKind::Query,
            AuthScheme::Signature { .. } => AuthKind::Signature,
            AuthScheme::Basic { .. } => AuthKind::Basic,
            AuthScheme::Body { .. } => AuthKind::Body,
            AuthScheme::Minted { .. } => AuthKind::Minted,
            AuthScheme::OAuth2ClientCredentials { .. } => AuthKind::OAuth2ClientCredentials,
            AuthScheme::All { .. } => AuthKind::All,
            AuthScheme::Anonymous => return None,
        })
    }
}

impl<S: Storage> AuthScheme<S> {
    /// The schemes this one sends: an [`AuthScheme::All`]'s, else itself alone.
    ///
    /// ```
    /// use tidings_spec::AuthScheme;
    ///
    /// static KEY: AuthScheme = AuthScheme::Bearer { credential: "api_key" };
    /// assert_eq!(KEY.parts(), &[KEY]);
    /// ```
    pub fn parts(&self) -> &[AuthScheme<S>] {
        match self {
            AuthScheme::All { schemes } => schemes.as_ref(),
            one => std::slice::from_ref(one),
        }
    }

    /// The schemes of a service's list offered on their own: all but those an
    /// [`AuthScheme::All`] listed before them sends, which are sent alone only by an operation
    /// that names one (an app id and a key required together are not each enough). An `All`
    /// listed after its members (an operation's pair beside the service's default key) leaves
    /// them offered.
    ///
    /// ```
    /// use tidings_spec::{AuthScheme, AuthSchemes};
    ///
    /// const APP: AuthScheme = AuthScheme::Header { header: "X-App-Id", credential: "app_id", prefix: None };
    /// const KEY: AuthScheme = AuthScheme::Header { header: "X-Api-Key", credential: "api_key", prefix: None };
    /// static LIST: &[AuthScheme] = &[
    ///     AuthScheme::All { schemes: AuthSchemes::new(&[APP, KEY]) },
    ///     APP,
    ///     KEY,
    ///     AuthScheme::Basic { username: "user", password: Some("password") },
    /// ];
    /// let offered: Vec<_> = AuthScheme::offered_alone(LIST).collect();
    /// assert_eq!(offered, [&LIST[0], &LIST[3]]);
    ///
    /// static KEY_FIRST: &[AuthScheme] = &[KEY, AuthScheme::All { schemes: AuthSchemes::new(&[APP, KEY]) }];
    /// assert_eq!(AuthScheme::offered_alone(KEY_FIRST).count(), 2);
    /// ```
    pub fn offered_alone(list: &[AuthScheme<S>]) -> impl Iterator<Item = &AuthScheme<S>> {
        list.iter().enumerate().filter_map(move |(i, scheme)| {
            let sent_by_an_earlier_all = list[..i].iter().any(|other| {
                matches!(other, AuthScheme::All { .. }) && other.parts().contains(scheme)
            });
            (!sent_by_an_earlier_all).then_some(scheme)
        })
    }
}

impl<S: Storage> SigningScheme<S> {
    /// The name a spec writes for this scheme.
    pub fn kind(&self) -> SigningKind {
        match self {
            SigningScheme::PusherHmacSha256 { .. } => SigningKind::PusherHmacSha256,
        }
    }
}

impl<S: Storage> ToStatic for SigningScheme<S> {
    type Static = SigningScheme;

    fn to_static(&self, intern: &mut impl Intern) -> SigningScheme {
        match self {
            SigningScheme::PusherHmacSha256 {
                app_id,
                key,
                secret,
            } => SigningScheme::PusherHmacSha256 {
                app_id: intern.text(app_id.as_ref()),
                key: intern.text(key.as_ref()),
                secret: intern.text(secret.as_ref()),
            },
        }
    }
}

impl<S: Storage> ToStatic for AuthScheme<S> {
    type Static = AuthScheme;

    fn to_static(&self, intern: &mut impl Intern) -> AuthScheme {
        match self {
            AuthScheme::Bearer { credential } => AuthScheme::Bearer {
                credential: intern.text(credential.as_ref()),
            },
            AuthScheme::Header {
                header,
                credential,
                prefix,
            } => AuthScheme::Header {
                header: intern.text(header.as_ref()),
                credential: intern.text(credential.as_ref()),
                prefix: opt_text(prefix.as_ref(), intern),
            },
            AuthScheme::Query { params } => AuthScheme::Query {
                params: pairs(params.as_ref(), intern),
            },
            AuthScheme::Signature { scheme } => AuthScheme::Signature {
                scheme: scheme.to_static(intern),
            },
            AuthScheme::Basic { username, password } => AuthScheme::Basic {
                username: intern.text(username.as_ref()),
                password: opt_text(password.as_ref(), intern),
            },
            AuthScheme::Body { fields } => AuthScheme::Body {
                fields: pairs(fields.as_ref(), intern),
            },
            AuthScheme::Minted {
                minter,
                header,
                prefix,
            } => AuthScheme::Minted {
                minter: intern.text(minter.as_ref()),
                header: intern.text(header.as_ref()),
                prefix: opt_text(prefix.as_ref(), intern),
            },
            AuthScheme::OAuth2ClientCredentials {
                token_url,
                client_id,
                client_secret,
                scopes,
            } => {
                let scopes = scopes
                    .as_ref()
                    .iter()
                    .map(|s| intern.text(s.as_ref()))
                    .collect();
                AuthScheme::OAuth2ClientCredentials {
                    token_url: intern.text(token_url.as_ref()),
                    client_id: intern.text(client_id.as_ref()),
                    client_secret: intern.text(client_secret.as_ref()),
                    scopes: intern.list(scopes),
                }
            }
            AuthScheme::All { schemes } => {
                let schemes = schemes.iter().map(|s| s.to_static(intern)).collect();
                AuthScheme::All {
                    schemes: AuthSchemes(intern.list(schemes)),
                }
            }
            AuthScheme::Anonymous => AuthScheme::Anonymous,
        }
    }
}

/// `(name, credential)` pairs, interned.
fn pairs<T: AsRef<str>>(
    pairs: &[(T, T)],
    intern: &mut impl Intern,
) -> &'static [(&'static str, &'static str)] {
    let pairs = pairs
        .iter()
        .map(|(n, c)| (intern.text(n.as_ref()), intern.text(c.as_ref())))
        .collect();
    intern.list(pairs)
}
