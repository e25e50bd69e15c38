//! Auth schemes: choosing one (the spec's default, a caller's choice, or the query fallback
//! only on opt-in) and turning it into what each attempt sends: a header (bearer, a named
//! header with a prefix, HTTP Basic), a query parameter, a body field, a signature, or a token
//! an application-registered [`TokenMinter`] makes.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use base64::Engine as _;
use reqwest::header::{AUTHORIZATION, HeaderName, HeaderValue};

use crate::Error;
use crate::oauth2::OAuth2Tokens;
use crate::secret::Secret;
use crate::sign::{PusherSigner, Signer};
use crate::spec::{AuthScheme, CredentialSpec, ServiceSpec, SigningScheme};

/// What the builder was told about auth.
#[derive(Clone, Default)]
pub(crate) enum AuthChoice {
    /// The spec's first non-query scheme (`build` picks the first one whose credentials are
    /// all set, when there is one).
    #[default]
    Default,
    /// A specific scheme.
    Scheme(AuthScheme),
    /// The spec's query-parameter scheme (explicit opt-in).
    Query,
    /// A custom signer.
    Signer(Arc<dyn Signer>),
    /// No auth.
    None,
}

impl fmt::Debug for AuthChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthChoice::Default => f.write_str("Default"),
            AuthChoice::Scheme(s) => write!(f, "Scheme({s:?})"),
            AuthChoice::Query => f.write_str("Query"),
            AuthChoice::Signer(s) => write!(f, "Signer({s:?})"),
            AuthChoice::None => f.write_str("None"),
        }
    }
}

/// The future a [`TokenMinter`] returns.
pub type MintFuture<'a> = Pin<Box<dyn Future<Output = Result<Secret, Error>> + Send + 'a>>;

/// Makes the token of an [`AuthScheme::Minted`] scheme (a JWT signed with a private key, a
/// token fetched from an identity provider ...). Registered on the builder under the name the
/// spec's `minter` gives ([`crate::ClientBuilder::token_minter`]) and asked once per attempt, so
/// a short-lived token is always fresh; cache inside the minter when minting is costly.
///
/// A closure `Fn(MintRequest<'_>) -> Result<Secret, Error>` is a minter.
///
/// ```
/// use tidings_runtime::{Error, MintRequest, Secret, TokenMinter};
///
/// fn minter() -> impl TokenMinter {
///     |request: MintRequest<'_>| -> Result<Secret, Error> {
///         let key = request.credential("api_key").ok_or_else(|| Error::config("no key"))?;
///         Ok(Secret::new(format!("{}.{}", request.operation, key.expose().len())))
///     }
/// }
/// # let _ = minter();
/// ```
pub trait TokenMinter: Send + Sync + 'static {
    /// A token for one attempt of `request.operation`. An error ends the call (not retried).
    fn mint<'a>(&'a self, request: MintRequest<'a>) -> MintFuture<'a>;
}

impl<F> TokenMinter for F
where
    F: Fn(MintRequest<'_>) -> Result<Secret, Error> + Send + Sync + 'static,
{
    fn mint<'a>(&'a self, request: MintRequest<'a>) -> MintFuture<'a> {
        let token = self(request);
        Box::pin(std::future::ready(token))
    }
}

/// What a [`TokenMinter`] is told about the attempt it mints for.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct MintRequest<'a> {
    /// The service, e.g. `"messaging"`.
    pub service: &'static str,
    /// The operation, e.g. `"send_message"`.
    pub operation: &'static str,
    /// The name the minter is registered under.
    pub minter: &'static str,
    credentials: &'a [(&'static CredentialSpec, Secret)],
}

impl MintRequest<'_> {
    /// A credential the client was given (by spec name), e.g. the private key to sign with.
    pub fn credential(&self, name: &str) -> Option<&Secret> {
        self.credentials
            .iter()
            .find(|(c, _)| c.name == name)
            .map(|(_, value)| value)
    }
}

impl fmt::Debug for MintRequest<'_> {
    // Names the credentials only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MintRequest")
            .field("service", &self.service)
            .field("operation", &self.operation)
            .field("minter", &self.minter)
            .finish_non_exhaustive()
    }
}

/// The minters a builder was given, by name.
pub(crate) type Minters = Vec<(String, Arc<dyn TokenMinter>)>;

/// What a client keeps for the auth schemes that hold state: the application's token minters,
/// and one token cache per OAuth2 client-credentials scheme (shared by clones and operations).
#[derive(Default)]
pub(crate) struct AuthState {
    pub(crate) minters: Minters,
    pub(crate) oauth2: Vec<Arc<OAuth2Tokens>>,
}

impl AuthState {
    /// The token caches of the spec's client-credentials schemes whose credentials were given;
    /// `base` resolves a token URL that is a path. A token URL on plain HTTP to another host
    /// is refused unless `allow_plain_http` (the client secret would go there in clear text).
    pub(crate) fn with_oauth2(
        minters: Minters,
        spec: &'static ServiceSpec,
        credentials: &[(&'static CredentialSpec, Secret)],
        base: &url::Url,
        allow_plain_http: bool,
    ) -> Result<AuthState, Error> {
        let mut oauth2 = Vec::new();
        for scheme in spec.auth {
            let AuthScheme::OAuth2ClientCredentials {
                token_url,
                client_id,
                client_secret,
                scopes,
            } = *scheme
            else {
                continue;
            };
            let given = |name: &str| {
                credentials
                    .iter()
                    .find(|(c, _)| c.name == name)
                    .map(|(_, v)| v.clone())
            };
            let (Some(id), Some(secret)) = (given(client_id), given(client_secret)) else {
                continue; // resolving the scheme, if chosen, names what is missing
            };
            let url = token_url_at(token_url, spec.base_url, base).map_err(|e| {
                Error::config(format!(
                    "the {} service's OAuth2 token URL `{token_url}` is not a URL: {e}",
                    spec.name
                ))
            })?;
            if !matches!(url.scheme(), "http" | "https") || !url.username().is_empty() {
                return Err(Error::config(format!(
                    "the {} service's OAuth2 token URL must be http(s) without user info",
                    spec.name
                )));
            }
            if url.scheme() == "http"
                && !allow_plain_http
                && !crate::base_url::is_this_machine(&url)
            {
                return Err(Error::config(format!(
                    "the {} service's OAuth2 token URL `{}` is plain HTTP to a host other than \
                     this machine: the client secret would cross the network unencrypted. Use \
                     https://, or set {}=1 or call allow_plain_http(true) for a server on a \
                     private network",
                    spec.name,
                    crate::base_url::shown_url(url.as_str()),
                    crate::base_url::plain_http_env(spec)
                )));
            }
            oauth2.push(Arc::new(OAuth2Tokens::new(
                url,
                (token_url, client_id),
                id,
                secret,
                scopes,
            )));
        }
        Ok(AuthState { minters, oauth2 })
    }
}

/// Where a client-credentials scheme asks for tokens: `token_url` (a path is on `base`, the
/// base URL the client calls). A token URL on the host of the spec's own base URL
/// (`default_base`: Telnyx's `https://api.telnyx.com/v2/oauth/token`) follows the base URL
/// when the client is pointed elsewhere (a sandbox, a proxy): the same place beneath the
/// given base URL when it is beneath the spec's, else its path on the given host. The
/// client's id and secret go where its calls go, not to the provider.
fn token_url_at(
    token_url: &str,
    default_base: Option<&str>,
    base: &url::Url,
) -> Result<url::Url, url::ParseError> {
    let mut url = base.join(token_url)?;
    let provider = default_base.and_then(|d| url::Url::parse(d).ok());
    // Beneath the spec's base URL (`.../v2` + `/oauth/token`): the same place beneath this one.
    if let Some(default) = default_base.map(|d| d.trim_end_matches('/'))
        && base.as_str().trim_end_matches('/') != default
        && let Some(rest) = token_url
            .strip_prefix(default)
            .filter(|r| r.starts_with('/'))
    {
        return url::Url::parse(&format!("{}{rest}", base.as_str().trim_end_matches('/')));
    }
    if let Some(provider) = provider
        && url.origin() == provider.origin()
        && base.origin() != provider.origin()
    {
        let moved = url.set_scheme(base.scheme()).is_ok()
            && url.set_host(base.host_str()).is_ok()
            && url.set_port(base.port()).is_ok();
        if !moved {
            return base.join(url.path());
        }
    }
    Ok(url)
}

/// Auth ready to apply: header values are built (and marked sensitive) once.
#[derive(Clone)]
pub(crate) enum ResolvedAuth {
    None,
    Header {
        name: HeaderName,
        value: HeaderValue,
    },
    /// Query parameters added to the URL, in the spec's order.
    Query {
        params: Arc<[(&'static str, Secret)]>,
    },
    Signer(Arc<dyn Signer>),
    /// Fields added to the request body, in the spec's order.
    Body {
        fields: Arc<[(&'static str, Secret)]>,
    },
    /// An OAuth2 access token from the client's cache, per attempt.
    OAuth2(Arc<OAuth2Tokens>),
    /// A header whose value a minter makes per attempt.
    Minted {
        name: HeaderName,
        prefix: &'static str,
        minter_name: &'static str,
        minter: Arc<dyn TokenMinter>,
        credentials: Arc<[(&'static CredentialSpec, Secret)]>,
    },
    /// Several of the above sent together (a spec's `kind: all`): headers, query parameters
    /// and body fields, never two in the same place.
    All(Arc<[ResolvedAuth]>),
}

impl fmt::Debug for ResolvedAuth {
    // Names the scheme only: header values and query values are credentials.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolvedAuth::None => f.write_str("None"),
            ResolvedAuth::Header { name, .. } => write!(f, "Header({name})"),
            ResolvedAuth::Query { params } => {
                let names: Vec<&str> = params.iter().map(|(param, _)| *param).collect();
                write!(f, "Query({})", names.join(", "))
            }
            ResolvedAuth::Signer(s) => write!(f, "Signer({s:?})"),
            ResolvedAuth::Body { fields } => {
                let names: Vec<&str> = fields.iter().map(|(field, _)| *field).collect();
                write!(f, "Body({})", names.join(", "))
            }
            ResolvedAuth::Minted {
                name, minter_name, ..
            } => write!(f, "Minted({name}, {minter_name})"),
            ResolvedAuth::OAuth2(tokens) => write!(f, "OAuth2({})", tokens.token_url),
            ResolvedAuth::All(parts) => f.debug_tuple("All").field(parts).finish(),
        }
    }
}

impl ResolvedAuth {
    /// Resolves the builder's choice against the spec and the credentials that were set.
    pub(crate) fn resolve(
        choice: AuthChoice,
        spec: &'static ServiceSpec,
        credentials: &[(&'static CredentialSpec, Secret)],
        state: &AuthState,
    ) -> Result<ResolvedAuth, Error> {
        let minters = &state.minters;
        let scheme = match choice {
            AuthChoice::None => return Ok(ResolvedAuth::None),
            AuthChoice::Signer(signer) => return Ok(ResolvedAuth::Signer(signer)),
            choice => match chosen_scheme(&choice, spec)? {
                Some(scheme) => scheme,
                None => return Ok(ResolvedAuth::None),
            },
        };
        let lookup = |name: &'static str| -> Result<Secret, Error> {
            if let Some((_, value)) = credentials.iter().find(|(c, _)| c.name == name) {
                return Ok(value.clone());
            }
            let env = spec
                .credentials
                .iter()
                .find(|c| c.name == name)
                .map(|c| c.env);
            Err(Error::config(match env {
                Some(env) => format!(
                    "missing credential `{name}` for the {} service: set {env} or call credential(\"{name}\", ..)",
                    spec.name
                ),
                None => format!(
                    "the auth scheme needs credential `{name}`, which the {} spec does not declare",
                    spec.name
                ),
            }))
        };
        Ok(match scheme {
            AuthScheme::Anonymous => ResolvedAuth::None,
            AuthScheme::All { schemes } => {
                // Body fields and query parameters are gathered into one part each, so the
                // pipeline finds each kind of place once.
                let (mut parts, mut fields, mut params) = (Vec::new(), Vec::new(), Vec::new());
                for member in schemes.iter() {
                    let choice = AuthChoice::Scheme(*member);
                    match ResolvedAuth::resolve(choice, spec, credentials, state)? {
                        ResolvedAuth::Body { fields: more } => fields.extend(more.iter().cloned()),
                        ResolvedAuth::Query { params: more } => {
                            params.extend(more.iter().cloned());
                        }
                        part => parts.push(part),
                    }
                }
                if !fields.is_empty() {
                    parts.push(ResolvedAuth::Body {
                        fields: fields.into(),
                    });
                }
                if !params.is_empty() {
                    parts.push(ResolvedAuth::Query {
                        params: params.into(),
                    });
                }
                ResolvedAuth::All(parts.into())
            }
            AuthScheme::Bearer { credential } => {
                let value = lookup(credential)?;
                ResolvedAuth::Header {
                    name: AUTHORIZATION,
                    value: sensitive_header(&format!("Bearer {}", value.expose()), credential)?,
                }
            }
            AuthScheme::Header {
                header,
                credential,
                prefix,
            } => {
                let name = header_name(header)?;
                let value = lookup(credential)?;
                let value = format!("{}{}", prefix.unwrap_or(""), value.expose());
                ResolvedAuth::Header {
                    name,
                    value: sensitive_header(&value, credential)?,
                }
            }
            AuthScheme::Basic { username, password } => {
                let user = lookup(username)?;
                if user.expose().contains(':') {
                    return Err(Error::config(format!(
                        "credential `{username}` is sent as an HTTP Basic user name, which may not contain `:`"
                    )));
                }
                let pass = match password {
                    Some(password) => lookup(password)?,
                    None => Secret::new(""),
                };
                let pair = format!("{}:{}", user.expose(), pass.expose());
                let encoded = base64::engine::general_purpose::STANDARD.encode(pair);
                ResolvedAuth::Header {
                    name: AUTHORIZATION,
                    value: sensitive_header(&format!("Basic {encoded}"), username)?,
                }
            }
            AuthScheme::Body { fields } => ResolvedAuth::Body {
                fields: fields
                    .iter()
                    .map(|(field, credential)| Ok((*field, lookup(credential)?)))
                    .collect::<Result<Vec<_>, Error>>()?
                    .into(),
            },
            AuthScheme::Query { params } => ResolvedAuth::Query {
                params: params
                    .iter()
                    .map(|(param, credential)| Ok((*param, lookup(credential)?)))
                    .collect::<Result<Vec<_>, Error>>()?
                    .into(),
            },
            AuthScheme::Minted {
                minter,
                header,
                prefix,
            } => {
                let Some((_, registered)) = minters.iter().find(|(name, _)| name == minter) else {
                    return Err(Error::config(format!(
                        "the {} service mints its tokens with `{minter}`: register one with \
                         token_minter(\"{minter}\", ..)",
                        spec.name
                    )));
                };
                ResolvedAuth::Minted {
                    name: header_name(header)?,
                    prefix: prefix.unwrap_or(""),
                    minter_name: minter,
                    minter: Arc::clone(registered),
                    credentials: credentials.iter().cloned().collect(),
                }
            }
            AuthScheme::OAuth2ClientCredentials {
                token_url,
                client_id,
                client_secret,
                ..
            } => {
                // Missing credentials are named first; the cache exists when both were given.
                lookup(client_id)?;
                lookup(client_secret)?;
                let tokens = state
                    .oauth2
                    .iter()
                    .find(|t| t.key == (token_url, client_id))
                    .ok_or_else(|| {
                        Error::config(format!(
                            "the {} service's OAuth2 scheme (token URL `{token_url}`) has no \
                             token cache: build the client with it in the spec's auth list",
                            spec.name
                        ))
                    })?;
                ResolvedAuth::OAuth2(Arc::clone(tokens))
            }
            AuthScheme::Signature {
                scheme:
                    SigningScheme::PusherHmacSha256 {
                        app_id,
                        key,
                        secret,
                    },
            } => {
                // app_id is checked here so a missing one fails at build, not at the first call.
                lookup(app_id)?;
                let key = lookup(key)?;
                let secret = lookup(secret)?;
                ResolvedAuth::Signer(Arc::new(PusherSigner::new(key.expose(), secret)))
            }
        })
    }

    /// What is sent: the schemes of an [`ResolvedAuth::All`], else this one alone.
    pub(crate) fn parts(&self) -> &[ResolvedAuth] {
        match self {
            ResolvedAuth::All(parts) => parts,
            one => std::slice::from_ref(one),
        }
    }

    /// Whether each attempt mints its token ([`ResolvedAuth::minted_header`] has work to do).
    pub(crate) fn is_minted(&self) -> bool {
        matches!(self, ResolvedAuth::Minted { .. } | ResolvedAuth::OAuth2(_))
    }

    /// The OAuth2 token cache, for the scheme that has one.
    pub(crate) fn oauth2(&self) -> Option<&OAuth2Tokens> {
        match self {
            ResolvedAuth::OAuth2(tokens) => Some(tokens),
            _ => None,
        }
    }

    /// The scheme's name, for logs.
    pub(crate) fn scheme_name(&self) -> &'static str {
        match self {
            ResolvedAuth::None => "none",
            ResolvedAuth::Header { .. } => "header",
            ResolvedAuth::Query { .. } => "query",
            ResolvedAuth::Signer(_) => "signature",
            ResolvedAuth::Body { .. } => "body",
            ResolvedAuth::Minted { .. } => "minted",
            ResolvedAuth::OAuth2(_) => "oauth2",
            ResolvedAuth::All(_) => "all",
        }
    }

    /// The minted header of one attempt, when the scheme is [`ResolvedAuth::Minted`] or
    /// [`ResolvedAuth::OAuth2`] (with the OAuth2 token's generation; 0 for a minted one).
    pub(crate) async fn minted_header(
        &self,
        service: &'static str,
        operation: &'static str,
        http: &reqwest::Client,
        timeout: std::time::Duration,
    ) -> Result<Option<(HeaderName, HeaderValue, u64)>, Error> {
        if let ResolvedAuth::OAuth2(tokens) = self {
            let (header, generation) = tokens.header(http, timeout).await?;
            return Ok(Some((AUTHORIZATION, header, generation)));
        }
        let ResolvedAuth::Minted {
            name,
            prefix,
            minter_name,
            minter,
            credentials,
        } = self
        else {
            return Ok(None);
        };
        let token = minter
            .mint(MintRequest {
                service,
                operation,
                minter: minter_name,
                credentials,
            })
            .await?;
        let value = sensitive_header(&format!("{prefix}{}", token.expose()), minter_name)?;
        Ok(Some((name.clone(), value, 0)))
    }
}

/// `body` (a JSON object) with the credential added as the top-level `field`; the value a form
/// body is encoded from works the same way before encoding. Anything but an object is an
/// [`Error::InvalidRequest`]: there is nowhere to put the field.
pub(crate) fn add_body_credential(
    body: &mut serde_json::Value,
    field: &str,
    value: &Secret,
) -> Result<(), Error> {
    match body {
        serde_json::Value::Object(map) => {
            map.insert(field.to_owned(), value.expose().into());
            Ok(())
        }
        _ => Err(Error::invalid_request(
            "body",
            format!(
                "the credential goes into the body's `{field}` field, so the body must be an object"
            ),
        )),
    }
}

/// A body's bytes with the credentials added: appended as `field=value` pairs to a form
/// (`form` true), else set on the JSON object (see [`add_body_credential`]).
pub(crate) fn body_with_credentials(
    body: &[u8],
    form: bool,
    fields: &[(&'static str, Secret)],
) -> Result<bytes::Bytes, Error> {
    if form {
        let mut out = body.to_vec();
        let mut pairs = url::form_urlencoded::Serializer::new(String::new());
        for (field, value) in fields {
            pairs.append_pair(field, value.expose());
        }
        let pairs = pairs.finish();
        if !out.is_empty() && !pairs.is_empty() {
            out.push(b'&');
        }
        out.extend_from_slice(pairs.as_bytes());
        return Ok(out.into());
    }
    let mut json: serde_json::Value = serde_json::from_slice(body)
        .map_err(|e| Error::invalid_request("body", format!("is not JSON ({e})")))?;
    for (field, value) in fields {
        add_body_credential(&mut json, field, value)?;
    }
    serde_json::to_vec(&json)
        .map(bytes::Bytes::from)
        .map_err(|e| Error::invalid_request("body", format!("cannot be serialised ({e})")))
}

fn header_name(header: &str) -> Result<HeaderName, Error> {
    HeaderName::from_bytes(header.as_bytes()).map_err(|_| {
        Error::config(format!(
            "auth header name `{header}` is not a valid header name"
        ))
    })
}

/// The spec scheme a choice stands for: `None` when it needs no spec scheme (no auth, a custom
/// signer, a spec without auth).
fn chosen_scheme(
    choice: &AuthChoice,
    spec: &'static ServiceSpec,
) -> Result<Option<AuthScheme>, Error> {
    Ok(Some(match choice {
        AuthChoice::None | AuthChoice::Signer(_) => return Ok(None),
        AuthChoice::Scheme(scheme) => *scheme,
        AuthChoice::Query => *AuthScheme::offered_alone(spec.auth)
            .find(|s| in_url(s))
            .ok_or_else(|| {
                Error::config(format!(
                    "the {} service has no query-parameter auth scheme",
                    spec.name
                ))
            })?,
        AuthChoice::Default => {
            if spec.auth.is_empty() {
                return Ok(None);
            }
            *AuthScheme::offered_alone(spec.auth).find(|s| !in_url(s)).ok_or_else(|| {
                Error::config(format!(
                    "the {} service only offers query-parameter auth, which puts the key in URLs: \
                     opt in with ClientBuilder::query_auth()",
                    spec.name
                ))
            })?
        }
    }))
}

/// Whether a scheme puts a credential in the URL (a query scheme, or an `all` scheme that
/// sends one), which only a caller's opt-in chooses.
pub(crate) fn in_url(scheme: &AuthScheme) -> bool {
    match scheme {
        AuthScheme::Query { .. } => true,
        AuthScheme::All { schemes } => schemes.iter().any(in_url),
        _ => false,
    }
}

/// Whether the chosen scheme puts a secret on the wire as it is (a key, a password, a token),
/// so that plain HTTP would show it to the network; a signing scheme sends only a signature.
pub(crate) fn sends_a_secret(choice: &AuthChoice, spec: &'static ServiceSpec) -> bool {
    match chosen_scheme(choice, spec) {
        Ok(Some(AuthScheme::Signature { .. } | AuthScheme::Anonymous)) | Ok(None) | Err(_) => false,
        Ok(Some(_)) => true,
    }
}

/// The credentials (by spec name) the auth a builder chose needs; empty when the choice
/// itself is invalid (building reports that).
pub(crate) fn required_credentials(
    choice: &AuthChoice,
    spec: &'static ServiceSpec,
) -> Vec<&'static str> {
    match chosen_scheme(choice, spec) {
        Ok(Some(scheme)) => scheme_credentials(&scheme),
        Ok(None) | Err(_) => Vec::new(),
    }
}

/// The credentials (by spec name) a scheme sends.
fn scheme_credentials(scheme: &AuthScheme) -> Vec<&'static str> {
    match *scheme {
        AuthScheme::Bearer { credential } | AuthScheme::Header { credential, .. } => {
            vec![credential]
        }
        AuthScheme::Body { fields: pairs } | AuthScheme::Query { params: pairs } => {
            pairs.iter().map(|(_, c)| *c).collect()
        }
        AuthScheme::Basic { username, password } => {
            std::iter::once(username).chain(password).collect()
        }
        AuthScheme::Minted { .. } | AuthScheme::Anonymous => Vec::new(),
        AuthScheme::OAuth2ClientCredentials {
            client_id,
            client_secret,
            ..
        } => vec![client_id, client_secret],
        AuthScheme::Signature {
            scheme:
                SigningScheme::PusherHmacSha256 {
                    app_id,
                    key,
                    secret,
                },
        } => vec![app_id, key, secret],
        AuthScheme::All { schemes } => schemes.iter().flat_map(scheme_credentials).collect(),
    }
}

fn sensitive_header(value: &str, credential: &str) -> Result<HeaderValue, Error> {
    let mut value = HeaderValue::from_str(value).map_err(|_| {
        Error::config(format!(
            "credential `{credential}` contains characters not allowed in a header"
        ))
    })?;
    value.set_sensitive(true);
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::*;

    static CREDS: &[CredentialSpec] = &[CredentialSpec {
        name: "api_key",
        env: "KEY_ENV",
        secret: true,
        value: None,
    }];

    static QUERY_ONLY: ServiceSpec = ServiceSpec {
        name: "q",
        title: "Q",
        base_url: None,
        base_url_env: "Q_URL",
        credentials: CREDS,
        auth: &[AuthScheme::Query {
            params: &[("api_key", "api_key")],
        }],
        rate_limit: None,
        rate_limit_headers: RateLimitHeaders::NONE,
        retry: RetrySpec::DEFAULT,
        timeouts: TimeoutSpec::DEFAULT,
        idempotency: None,
        errors: ErrorSpec::DEFAULT,
    };

    #[test]
    fn query_auth_needs_opt_in() {
        let creds = [(&CREDS[0], Secret::new("k"))];
        let err = ResolvedAuth::resolve(
            AuthChoice::Default,
            &QUERY_ONLY,
            &creds,
            &AuthState::default(),
        )
        .expect_err("no opt-in");
        assert!(err.to_string().contains("query_auth"));
        let auth = ResolvedAuth::resolve(
            AuthChoice::Query,
            &QUERY_ONLY,
            &creds,
            &AuthState::default(),
        )
        .expect("opted in");
        assert_eq!(auth.scheme_name(), "query");
        assert!(!format!("{auth:?}").contains('k') || !format!("{auth:?}").contains("\"k\""));
    }

    static BASIC_CREDS: &[CredentialSpec] = &[
        CredentialSpec {
            name: "sid",
            env: "SID_ENV",
            secret: false,
            value: None,
        },
        CredentialSpec {
            name: "token",
            env: "TOKEN_ENV",
            secret: true,
            value: None,
        },
    ];

    fn basic(sid: &str, token: &str) -> Result<ResolvedAuth, Error> {
        let creds = [
            (&BASIC_CREDS[0], Secret::new(sid)),
            (&BASIC_CREDS[1], Secret::new(token)),
        ];
        let mut spec = QUERY_ONLY;
        spec.credentials = BASIC_CREDS;
        let spec: &'static ServiceSpec = Box::leak(Box::new(spec));
        ResolvedAuth::resolve(
            AuthChoice::Scheme(AuthScheme::Basic {
                username: "sid",
                password: Some("token"),
            }),
            spec,
            &creds,
            &AuthState::default(),
        )
    }

    #[test]
    fn basic_encodes_user_and_password_and_refuses_a_colon_in_the_user() {
        let auth = basic("AC1", "tok:en").expect("resolves");
        match &auth {
            ResolvedAuth::Header { name, value } => {
                assert_eq!(name, AUTHORIZATION);
                assert!(value.is_sensitive());
                // base64("AC1:tok:en"): a colon in the password is allowed (RFC 7617).
                assert_eq!(value.to_str().ok(), Some("Basic QUMxOnRvazplbg=="));
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(format!("{auth:?}"), "Header(authorization)");
        let err = basic("A:C1", "t").expect_err("colon in the user name");
        assert_eq!(err.kind(), crate::ErrorKind::Config);
        assert!(!err.to_string().contains("A:C1"));
    }

    #[test]
    fn a_body_credential_needs_an_object_body() {
        let key = Secret::new("k1");
        let mut body = serde_json::json!({"to": "x"});
        add_body_credential(&mut body, "api_key", &key).expect("object");
        assert_eq!(body, serde_json::json!({"to": "x", "api_key": "k1"}));
        let mut list = serde_json::json!([1]);
        let err = add_body_credential(&mut list, "api_key", &key).expect_err("array");
        assert_eq!(err.kind(), crate::ErrorKind::InvalidRequest);
        assert!(!err.to_string().contains("k1"));
        let fields = [("api_key", key.clone())];
        assert!(body_with_credentials(b"not json", false, &fields).is_err());
    }

    #[test]
    fn form_bodies_take_every_body_credential_as_an_encoded_pair() {
        let fields = [
            ("api_key", Secret::new("k1")),
            ("api_secret", Secret::new("s 2&x")),
        ];
        let body = body_with_credentials(b"to=447700900000", true, &fields).expect("form");
        assert_eq!(&body[..], b"to=447700900000&api_key=k1&api_secret=s+2%26x");
        let json = body_with_credentials(br#"{"to":"1"}"#, false, &fields).expect("json");
        let json: serde_json::Value = serde_json::from_slice(&json).expect("json");
        assert_eq!(json["api_secret"], "s 2&x");
        assert_eq!(json["to"], "1");
    }

    #[test]
    fn bearer_value_is_sensitive_and_not_in_debug() {
        let creds = [(&CREDS[0], Secret::new("sk_very_secret"))];
        let auth = ResolvedAuth::resolve(
            AuthChoice::Scheme(AuthScheme::Bearer {
                credential: "api_key",
            }),
            &QUERY_ONLY,
            &creds,
            &AuthState::default(),
        )
        .expect("resolves");
        match &auth {
            ResolvedAuth::Header { value, .. } => assert!(value.is_sensitive()),
            other => panic!("unexpected {other:?}"),
        }
        assert!(!format!("{auth:?}").contains("sk_very_secret"));
    }

    /// Telnyx's token URL is absolute, on the provider's host: a client pointed at a sandbox
    /// sent its client id and secret to the provider (was); it asks the sandbox. A token URL
    /// on another host (an identity provider) stays where it is, and a path is on the base.
    #[test]
    fn a_token_url_on_the_provider_s_host_follows_the_base_url() {
        let provider = Some("https://api.telnyx.com/v2");
        let sandbox = url::Url::parse("http://127.0.0.1:4010").unwrap();
        let at = |token_url: &str, base: &url::Url| {
            token_url_at(token_url, provider, base).unwrap().to_string()
        };
        // Beneath the base URL: the same place beneath the sandbox's, where it serves tokens.
        assert_eq!(
            at("https://api.telnyx.com/v2/oauth/token", &sandbox),
            "http://127.0.0.1:4010/oauth/token"
        );
        // Elsewhere on the provider's host: that path on the sandbox's host.
        assert_eq!(
            at("https://api.telnyx.com/oauth2/token", &sandbox),
            "http://127.0.0.1:4010/oauth2/token"
        );
        let real = url::Url::parse("https://api.telnyx.com/v2").unwrap();
        assert_eq!(
            at("https://api.telnyx.com/v2/oauth/token", &real),
            "https://api.telnyx.com/v2/oauth/token"
        );
        assert_eq!(
            at("https://auth.example.com/token", &sandbox),
            "https://auth.example.com/token"
        );
        assert_eq!(
            at("/oauth2/token", &sandbox),
            "http://127.0.0.1:4010/oauth2/token"
        );
    }
}
