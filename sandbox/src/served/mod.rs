//! `--spec`: serves any spec at run time, with nothing to compile — this repository's specs, an
//! application's own, or one imported from a provider's OpenAPI document.
//!
//! A spec is loaded and checked by `tidings-codegen` (every problem reported at once), its
//! resolved model becomes the same descriptions a compiled client and server use
//! (`tidings_codegen::describe`), and one generic handler (its `router` module) serves every operation: auth as declared,
//! the declared rate limit and idempotency keys, requests checked against the spec's types
//! ([`validate`]), state kept by the spec-driven resource store (create, list, get, update,
//! replace, delete, actions; bounded in items and bytes), lists paged in the declared style,
//! errors in the spec's own error shape.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use tidings_sandbox::served::{ServedService, load};
//! for service in load(std::path::Path::new("spec/messaging.yaml"))? {
//!     let served = ServedService::start(service, Default::default()).await?;
//!     println!("{}", served.base_url());
//! }
//! # Ok(()) }
//! ```

mod body;
mod build;
mod children;
mod documented;
mod files;
mod form_fields;
mod held;
mod keys;
mod ops;
mod pages;
mod params;
mod router;
mod shape;
pub mod validate;
mod webhooks;
mod window;

use tidings_codegen::describe as vocab;
pub use webhooks::TRIGGER_PREFIX;

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tidings_codegen::ProvenancePolicy;
use tidings_codegen::check::{Constraints, Service};

use crate::server::{
    Background, Gateway, HttpLimits, RateLimit, ResourceLimits, Resources, Serving, WebhookRetry,
    WebhookSender,
};

/// Loads and checks the specs at `path` (a spec file, or a directory of them): every problem
/// of every file in one error, each with `file:line:column`.
///
/// # Errors
///
/// The loader's and checker's diagnostics, rendered.
pub fn load(path: &Path) -> Result<Vec<Service>, SpecError> {
    tidings_codegen::check::check_paths(&[path], ProvenancePolicy::Optional)
        .map_err(|d| SpecError(d.to_string()))
}

/// A spec that could not be served: its diagnostics.
#[derive(Debug, Clone)]
pub struct SpecError(String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.trim_end())
    }
}

impl std::error::Error for SpecError {}

/// Where and how a served spec listens.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServeConfig {
    /// Address to bind; loopback on a free port by default.
    pub addr: SocketAddr,
    /// Connection and body bounds.
    pub limits: HttpLimits,
    /// Bounds of the resource store.
    pub resources: ResourceLimits,
    /// Credential values by credential name; a credential not named here is read from the
    /// environment variable the spec gives it, else made at start.
    pub credentials: Vec<(String, String)>,
    /// The rate limit: `None` keeps the spec's own, `Some(None)` lifts it (bulk loads,
    /// benchmarks), `Some(Some(limit))` sets another.
    pub rate_limit: Option<Option<RateLimit>>,
    /// The data directory (`--data`): the resource store is kept in
    /// `DIR/resources/served-<service>.sqlite3`, every change committed before it is answered,
    /// and loaded back at start. In memory only when `None` (the default).
    pub data: Option<PathBuf>,
    /// Where the spec's webhooks (`events.webhooks`) are delivered (`--webhook-url`), each
    /// payload type at its own path when its `select` says one; `None`: triggering one is a 409.
    pub webhook_url: Option<String>,
    /// The inbox that shows the spec: every call it answers (never a credential: no headers,
    /// no credential in a query), its webhook deliveries (redeliverable) and its resources.
    /// `None` by default; the binary gives its own.
    pub inbox: Option<crate::inbox::Inbox>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            addr: SocketAddr::from((IpAddr::V4(Ipv4Addr::LOCALHOST), 0)),
            limits: HttpLimits::default(),
            resources: ResourceLimits::default(),
            credentials: Vec::new(),
            rate_limit: None,
            data: None,
            webhook_url: None,
            inbox: None,
        }
    }
}

/// One spec, served.
pub struct ServedService {
    name: String,
    base_url: String,
    base_url_env: String,
    /// `(credential name, environment variable, value)`.
    credentials: Vec<(String, String, String)>,
    /// Webhook secrets: `(environment variable, value)`, one per variable.
    webhook_secrets: Vec<(String, String)>,
    operations: usize,
    http: Serving,
    served: Arc<ops::Served>,
}

impl fmt::Debug for ServedService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServedService")
            .field("name", &self.name)
            .field("base_url", &self.base_url)
            .field("operations", &self.operations)
            .field(
                "credentials",
                &self.credentials.iter().map(|(n, ..)| n).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl ServedService {
    /// Serves `service` as `config` says.
    ///
    /// # Errors
    ///
    /// When the address cannot be bound, or the resource store's file in
    /// [`ServeConfig::data`] cannot be opened.
    pub async fn start(service: Service, config: ServeConfig) -> std::io::Result<ServedService> {
        let store = Resources::in_data_dir(
            config.resources,
            config.data.as_deref(),
            &format!("served-{}", service.name()),
        )
        .map_err(std::io::Error::other)?;
        let spec: &'static tidings_runtime::spec::ServiceSpec =
            Box::leak(Box::new(vocab::service_spec(&service)));
        let schema = Box::leak(Box::new(vocab::service_schema(&service)));
        let mut gateway = Gateway::new(spec).limits(&config.limits).idempotency_data(
            config.data.as_deref(),
            &format!("served-{}", service.name()),
        )?;
        if let Some(limit) = config.rate_limit {
            gateway = gateway.rate_limit(limit);
        }
        let mut credentials = Vec::new();
        for c in &service.credentials {
            // Given, else from the environment, else the value the provider fixes (Mailgun's
            // Basic user name `api`), else kept in the data directory, else made (and kept
            // there, so a restart accepts the same).
            let setting = format!("credential:{}", c.name);
            let value = config
                .credentials
                .iter()
                .find(|(name, _)| *name == c.name)
                .map(|(_, v)| v.clone())
                .or_else(|| std::env::var(&c.env).ok().filter(|v| !v.is_empty()))
                .or_else(|| c.value.clone())
                .or_else(|| store.setting(&setting))
                .unwrap_or_else(|| made_credential(&c.name, &credential_limits(&service, &c.name)));
            store.keep_setting(&setting, &value).await.map_err(|e| {
                std::io::Error::other(format!(
                    "cannot keep the credential `{}` in the data directory: {}",
                    c.name,
                    e.message()
                ))
            })?;
            gateway = gateway.credential(c.name.clone(), value.clone());
            credentials.push((c.name.clone(), c.env.clone(), value));
        }
        let token_endpoint = spec
            .auth
            .iter()
            .chain(
                service
                    .operations
                    .iter()
                    .filter_map(|o| o.auth.as_ref())
                    .map(|a| &*Box::leak(Box::new(vocab::auth_scheme(a)))),
            )
            .find_map(|scheme| match scheme {
                tidings_runtime::spec::AuthScheme::OAuth2ClientCredentials {
                    token_url,
                    client_id,
                    client_secret,
                    ..
                } => Some(ops::TokenEndpoint {
                    path: token_path(token_url, spec.base_url),
                    client_id,
                    client_secret,
                    token: made_credential("access_token", &Constraints::default()),
                }),
                _ => None,
            });
        if let Some(endpoint) = &token_endpoint {
            gateway = gateway.credential(
                crate::server::OAUTH2_TOKEN_CREDENTIAL,
                endpoint.token.clone(),
            );
        }
        // Webhook secrets: a credential's value when it is the same variable (Twilio signs with
        // its auth token), else the variable's, else the one kept, else made (and kept).
        let mut secrets: Vec<(String, String)> = Vec::new();
        let name: &'static str = Box::leak(service.name().to_owned().into_boxed_str());
        let mut sender = WebhookSender::new(Background::new(), WebhookRetry::default());
        if let Some(inbox) = &config.inbox {
            sender = inbox.observe_sender(name, sender);
        }
        let hooks = webhooks::Webhooks::of(
            &service,
            config.webhook_url.clone(),
            sender,
            |env, scheme| {
                let key = env.map_or_else(|| format!("scheme:{}", scheme.name), str::to_owned);
                if let Some((_, value)) = secrets.iter().find(|(k, _)| *k == key) {
                    return value.clone();
                }
                let value = env
                    .and_then(|e| credentials.iter().find(|(_, ce, _)| ce == e))
                    .map(|(.., v): &(String, String, String)| v.clone())
                    .or_else(|| env.and_then(|e| std::env::var(e).ok().filter(|v| !v.is_empty())))
                    .or_else(|| store.setting(&format!("webhook_secret:{key}")))
                    .unwrap_or_else(|| webhooks::made_secret(scheme));
                secrets.push((key, value.clone()));
                value
            },
        );
        for (key, value) in &secrets {
            store
                .keep_setting(&format!("webhook_secret:{key}"), value)
                .await
                .map_err(|e| {
                    std::io::Error::other(format!(
                        "cannot keep a webhook secret in the data directory: {}",
                        e.message()
                    ))
                })?;
        }
        // Printed under the spec's variables (a credential's variable is printed already).
        let webhook_secrets: Vec<(String, String)> = secrets
            .into_iter()
            .filter(|(key, _)| {
                !key.starts_with("scheme:") && !credentials.iter().any(|(_, env, _)| env == key)
            })
            .collect();
        let mut operations = build::operations(&service);
        build::read_types(schema, &mut operations);
        build::made_and_named(&service, &mut operations);
        children::listed(&service, &mut operations);
        // The collections an integer (or number) path parameter names the items of: the one
        // an operation acts on by it, and the ones above it in its path (Intercom's `POST
        // /contacts/{contact_id}/notes`, the contact named by an integer).
        store.key_by_integers(operations.iter().flat_map(|op| {
            let path = op.info.path.as_str();
            op.info
                .path_params
                .iter()
                .filter(|p| {
                    use tidings_codegen::check::Ty;
                    // ClickSend types every id `number` (`{list_id}`, shown as `437`).
                    matches!(p.ty, Ty::Integer | Ty::Number)
                })
                .filter_map(move |p| {
                    let above = path.split_once(&format!("/{{{}}}", p.wire))?.0;
                    let acted_on = op.resource.item_param == Some(p.wire.as_str());
                    Some(match acted_on {
                        true => op.resource.collection.to_owned(),
                        false => above.to_owned(),
                    })
                })
        }));
        let count = operations.len();
        let secret_params = spec
            .auth
            .iter()
            .chain(operations.iter().filter_map(|o| o.spec.auth.as_ref()))
            .flat_map(tidings_runtime::spec::AuthScheme::parts)
            .flat_map(|scheme| match scheme {
                tidings_runtime::spec::AuthScheme::Query { params } => {
                    params.iter().map(|(p, _)| *p).collect()
                }
                _ => Vec::new(),
            })
            .collect();
        let served = Arc::new(ops::Served {
            gateway,
            token_endpoint,
            schema,
            ops: operations,
            store,
            error_shape: shape::ErrorShape::of(&service, schema),
            webhooks: hooks,
            name,
            inbox: config.inbox.clone(),
            secret_params,
            caller: credentials
                .iter()
                .filter(|(name, ..)| {
                    service
                        .credentials
                        .iter()
                        .any(|c| c.name == *name && !c.secret)
                })
                .map(|(name, _, value)| (name.clone(), value.clone()))
                .collect(),
        });
        let kept = served.clone();
        let app = axum::Router::new().fallback(move |request: axum::extract::Request| {
            router::handle(served.clone(), request)
        });
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        if let Some(inbox) = &config.inbox {
            let view = ops::View {
                served: Arc::downgrade(&kept),
                base_url: format!("http://{addr}"),
            };
            inbox.serve_spec(name, Arc::new(view));
            let again = ops::Redelivery {
                served: Arc::downgrade(&kept),
            };
            inbox.watch_redeliverer(name, Arc::new(again));
        }
        let http = Serving::spawn(
            listener,
            app,
            name,
            &config.limits,
            crate::server::Writes::Any,
        );
        tracing::info!(service = name, %addr, operations = count, "serving spec");
        Ok(ServedService {
            name: service.name().to_owned(),
            base_url: format!("http://{addr}"),
            base_url_env: service.info.base_url.env.clone(),
            credentials,
            webhook_secrets,
            operations: count,
            http,
            served: kept,
        })
    }

    /// The service's name, as its spec gives it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The base URL to give its client.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Operations served.
    pub fn operations(&self) -> usize {
        self.operations
    }

    /// The names of the spec's webhooks (`events.webhooks`), each delivered on demand by
    /// `POST <base URL>/__sandbox/webhooks/<name>` ([`TRIGGER_PREFIX`]).
    pub fn webhooks(&self) -> Vec<&str> {
        self.served
            .webhooks
            .hooks
            .iter()
            .map(|h| h.name.as_str())
            .collect()
    }

    /// The value of credential `name` the server accepts.
    pub fn credential(&self, name: &str) -> Option<&str> {
        self.credentials
            .iter()
            .find(|(n, ..)| n == name)
            .map(|(.., v)| v.as_str())
    }

    /// The secret webhooks are signed with that the spec reads from variable `env` (what the
    /// app's `WebhookSecrets::from_env` reads there).
    pub fn webhook_secret(&self, env: &str) -> Option<&str> {
        let own = self.webhook_secrets.iter().find(|(e, _)| e == env);
        let credential = || self.credentials.iter().find(|(_, e, _)| e == env);
        own.map(|(_, v)| v.as_str())
            .or_else(|| credential().map(|(.., v)| v.as_str()))
    }

    /// `export NAME=value` lines for the spec's own environment variables: its base URL,
    /// every credential and webhook secret (sandbox-only values), as its client's `from_env()`
    /// and `WebhookSecrets::from_env` read them.
    pub fn export_lines(&self) -> Vec<String> {
        let mut lines = vec![format!("export {}={}", self.base_url_env, self.base_url)];
        for (_, env, value) in &self.credentials {
            lines.push(format!("export {env}={value}"));
        }
        for (env, value) in &self.webhook_secrets {
            lines.push(format!("export {env}={value}"));
        }
        lines
    }

    /// The same as JSON: `{"name", "base_url", "operations", "env": {NAME: value}, "webhooks":
    /// [name]}`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut env = serde_json::Map::new();
        env.insert(self.base_url_env.clone(), self.base_url.clone().into());
        for (_, name, value) in &self.credentials {
            env.insert(name.clone(), value.clone().into());
        }
        for (name, value) in &self.webhook_secrets {
            env.insert(name.clone(), value.clone().into());
        }
        serde_json::json!({
            "name": self.name,
            "base_url": self.base_url,
            "operations": self.operations,
            "env": env,
            "webhooks": self.webhooks(),
        })
    }

    /// Whether the resource store is kept in a data directory ([`ServeConfig::data`]).
    pub fn is_durable(&self) -> bool {
        self.served.store.is_durable()
    }

    /// Stops serving, waits for open requests (a short while), then closes the resource
    /// store's file (releasing it for the next start).
    pub async fn shutdown(mut self) {
        self.http.stop_and_wait(crate::server::SHUTDOWN_WAIT).await;
        self.served.store.close();
        self.served.gateway.close_idempotency_data();
    }
}

impl Drop for ServedService {
    fn drop(&mut self) {
        // Released for the next start on the same data directory.
        self.served.store.close();
        self.served.gateway.close_idempotency_data();
    }
}

/// The shortest and longest a credential may be, and the pattern it must match, where the spec
/// sends it: a path or query parameter filled from it or named like it (Twilio's `AccountSid`
/// path parameter, 34 characters matching `^AC[0-9a-fA-F]{32}$`, is its account SID), else a
/// text field named like it.
fn credential_limits(service: &Service, credential: &str) -> Constraints {
    let mut limits = Constraints::default();
    let params = service
        .operations
        .iter()
        .flat_map(|op| op.path_params.iter().chain(&op.query));
    for p in params {
        if p.from_credential.as_deref() == Some(credential) || p.rust == credential {
            let c = &p.constraints;
            if let Some(m) = c.min_len {
                limits.min_len = Some(limits.min_len.map_or(m, |v| v.max(m)));
            }
            if let Some(m) = c.max_len {
                limits.max_len = Some(limits.max_len.map_or(m, |v| v.min(m)));
            }
            limits.pattern = limits.pattern.or_else(|| c.pattern.clone());
        }
    }
    // Where no parameter carries it, a field of its name with a pattern says its form
    // (Twilio Chat's answers' `account_sid`, `^AC[0-9a-fA-F]{32}$`: the account SID printed was
    // `test_account_sid_…`, which Twilio's own clients refuse).
    if limits.pattern.is_none() {
        use tidings_codegen::check::TypeKind;
        let named = service.types.iter().find_map(|t| match &t.kind {
            TypeKind::Object(fields) => fields.iter().find(|f| {
                f.rust == credential
                    && f.ty == tidings_codegen::check::Ty::String
                    && f.constraints.pattern.is_some()
            }),
            _ => None,
        });
        if let Some(f) = named {
            limits.pattern = f.constraints.pattern.clone();
            limits.min_len = limits.min_len.or(f.constraints.min_len);
            limits.max_len = limits.max_len.or(f.constraints.max_len);
        }
    }
    limits
}

/// A sandbox-only credential value for `name`: random, and made to fit where the spec sends
/// it. With a pattern, a random value that matches it (when the pattern is one
/// `pattern::example` makes); else `test_<name>_` and 24 random hex digits, as long as the
/// lengths allow: the name is shortened or the random part lengthened to fit. At least 12
/// random digits stay when the longest allows them.
fn made_credential(name: &str, limits: &Constraints) -> String {
    let random: [u8; 32] = rand::random();
    if let Some(made) = limits.pattern.as_deref().and_then(|p| {
        let n = u64::from_le_bytes(random[..8].try_into().unwrap_or_default());
        crate::pattern::example(p, n, limits.min_len, limits.max_len)
    }) {
        return made;
    }
    let hex: String = random.iter().map(|b| format!("{b:02x}")).collect();
    let prefix = format!("test_{}_", name.to_ascii_lowercase());
    let natural = prefix.len() + 24;
    let min = limits
        .min_len
        .map_or(0, |m| usize::try_from(m).unwrap_or(usize::MAX));
    let max = limits
        .max_len
        .map_or(usize::MAX, |m| usize::try_from(m).unwrap_or(usize::MAX));
    // Lengths that cannot both hold (min above max) are the spec's problem: the shortest wins.
    let want = natural.max(min).min(max.max(1));
    let value = format!("{prefix}{hex}{hex}");
    if want >= prefix.len() + 12 {
        // The prefix and enough random digits; past 64 random digits, more of them.
        let mut value = value;
        while value.len() < want {
            value.push_str(&hex);
        }
        value.truncate(want);
        value
    } else {
        // Too short for the prefix: random digits alone.
        let mut digits = format!("{hex}{hex}");
        digits.truncate(want);
        digits
    }
}

#[cfg(test)]
mod made_credentials {
    use super::{Constraints, made_credential};

    fn lengths(min_len: Option<u64>, max_len: Option<u64>) -> Constraints {
        Constraints {
            min_len,
            max_len,
            ..Constraints::default()
        }
    }

    #[test]
    fn a_made_credential_fits_the_lengths_of_the_parameters_that_carry_it() {
        let natural = made_credential("account_sid", &lengths(None, None));
        assert!(natural.starts_with("test_account_sid_"), "{natural}");
        assert_eq!(natural.len(), "test_account_sid_".len() + 24);
        // Twilio's account SID: exactly 34 characters.
        let sid = made_credential("account_sid", &lengths(Some(34), Some(34)));
        assert_eq!(sid.len(), 34, "{sid}");
        assert!(sid.starts_with("test_account_sid_"), "{sid}");
        // Longer than the natural form: more random digits.
        let long = made_credential("key", &lengths(Some(200), None));
        assert_eq!(long.len(), 200);
        // Too short for the name: random digits only, still different each time.
        let short = made_credential("account_sid", &lengths(None, Some(16)));
        assert_eq!(short.len(), 16);
        assert!(short.chars().all(|c| c.is_ascii_hexdigit()), "{short}");
        assert_ne!(
            short,
            made_credential("account_sid", &lengths(None, Some(16)))
        );
    }

    #[test]
    fn a_made_credential_matches_the_pattern_of_the_parameters_that_carry_it() {
        let sid = Constraints {
            pattern: Some("^AC[0-9a-fA-F]{32}$".into()),
            ..lengths(Some(34), Some(34))
        };
        let one = made_credential("account_sid", &sid);
        assert!(
            crate::pattern::matches("^AC[0-9a-fA-F]{32}$", &one),
            "{one}"
        );
        assert_ne!(one, made_credential("account_sid", &sid));
        // A pattern beyond what is made: the lengths still hold.
        let odd = Constraints {
            pattern: Some("\\bAC\\b".into()),
            ..lengths(Some(34), Some(34))
        };
        assert_eq!(made_credential("account_sid", &odd).len(), 34);
    }
}

/// The `--spec` flag of the `tidings-sandbox` binary (a `clap` argument with the `cli` feature).
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct SpecArgs {
    /// Serve this spec at run time, with nothing to compile: a spec file or a directory of them
    /// (repeatable), e.g. one written by `tidings-codegen import openapi`. Each is served on its
    /// own free port with its auth, limits, state and error shape, and its base URL and
    /// credentials are printed as `export` lines named by the spec's own environment variables
    /// (credentials already set in those variables are kept). The inbox shows each one's calls,
    /// webhook deliveries and resources ("Served specs").
    #[cfg_attr(feature = "cli", arg(long = "spec", value_name = "PATH"))]
    pub specs: Vec<std::path::PathBuf>,
}

impl SpecArgs {
    /// Loads every spec named and serves each as `config` says, on its own free port of
    /// `config.addr`'s address: its rate limit ([`ServeConfig::rate_limit`]), resource stores
    /// ([`ServeConfig::data`]), webhooks ([`ServeConfig::webhook_url`]) and listener bounds
    /// and host names ([`ServeConfig::limits`]).
    ///
    /// # Errors
    ///
    /// The diagnostics of a spec that does not check, or a bind failure.
    pub async fn start(&self, config: &ServeConfig) -> Result<Vec<ServedService>, String> {
        let mut services = Vec::new();
        for path in &self.specs {
            services.extend(load(path).map_err(|e| e.to_string())?);
        }
        let mut served = Vec::new();
        for service in services {
            let config = ServeConfig {
                addr: SocketAddr::new(config.addr.ip(), 0),
                ..config.clone()
            };
            let name = service.name().to_owned();
            served.push(
                ServedService::start(service, config)
                    .await
                    .map_err(|e| format!("cannot serve `{name}`: {e}"))?,
            );
        }
        Ok(served)
    }
}

#[cfg(test)]
mod tests;

/// Where this server hands out OAuth2 tokens for `token_url`: beneath the spec's base URL
/// (`default_base`: Telnyx's `https://api.telnyx.com/v2` + `/oauth/token`), that place
/// beneath this server's (`/oauth/token`, where a client pointed here asks, and where the
/// document's own token operation is); another absolute URL, its path.
fn token_path(token_url: &str, default_base: Option<&str>) -> String {
    if let Some(rest) = default_base
        .map(|d| d.trim_end_matches('/'))
        .and_then(|d| token_url.strip_prefix(d))
        .filter(|r| r.starts_with('/'))
    {
        return rest.to_owned();
    }
    url::Url::parse(token_url).map_or_else(|_| token_url.to_owned(), |u| u.path().to_owned())
}
