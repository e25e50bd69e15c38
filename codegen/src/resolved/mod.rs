//! The resolved model: what [`crate::check`] makes of a spec, and the only thing the emitters,
//! the exporters and the gaps report read.
//!
//! Every default is applied here once ([`defaults`]), every reference is resolved (an
//! operation's auth scheme is the scheme, not its name) and every derived fact is computed
//! (which types have checks, the success status, the query struct's name). Nothing after
//! `check` looks at the raw [`crate::model::SpecFile`].

pub mod defaults;
mod operations;
mod resources;
mod types;
mod webhooks;
mod websocket;

pub use operations::{
    Answer, BodyEncodingInfo, ErrorBodyInfo, FormStyleInfo, OperationInfo, PaginationInfo,
    ParamInfo, ResponseHeaderInfo, WhenInfo,
};
pub use resources::{ResourceAction, ResourceShape, list_filters, resource_shape};
pub use tidings_spec::{
    AuthScheme, Owned, PageStyle, RateLimitSpec, RetrySpec, Select, SignedContent, SigningScheme,
    TimeoutSpec,
};
pub(crate) use types::BUILTINS;
pub use types::{
    ADDITIONAL_FIELD, Constraints, FieldInfo, Flow, NameKind, RuleInfo, Ty, TypeInfo, TypeKind,
    ValueInfo, VariantInfo, rust_name, untagged_keys,
};
pub use webhooks::{SignatureInfo, WebhookTypeInfo};
pub use websocket::{MessageInfo, WebSocketInfo};

use crate::model::{
    ErrorCode, Idempotency, Pagination, RateLimitHeaders, ServiceInfo, Source, WebhookSignature,
};

/// A resolved service.
#[derive(Debug, Clone)]
pub struct Service {
    /// The file it came from, as shown in diagnostics.
    pub file: String,
    /// Identity: name, title, summary, docs, pricing, version prefix and base URL, with their
    /// provenance (nothing in it has a default).
    pub info: ServiceInfo,
    /// Named credentials, in spec order.
    pub credentials: Vec<CredentialInfo>,
    /// Auth schemes in order of preference; the first is the default.
    pub auth: Vec<AuthInfo>,
    /// The request rate limit, when the spec gives both the count and the window.
    pub rate_limit: Option<RateLimitSpec>,
    /// The response headers that report limits.
    pub rate_limit_headers: Option<RateLimitHeaders>,
    /// The retry policy, defaults applied.
    pub retry: RetrySpec<Owned>,
    /// Timeouts, defaults applied.
    pub timeouts: TimeoutSpec,
    /// Idempotency keys, when operations carry them.
    pub idempotency: Option<Idempotency>,
    /// Cursor pagination, when list operations page.
    pub pagination: Option<Pagination>,
    /// The error body.
    pub errors: Option<ErrorsInfo>,
    /// Named types, in spec order.
    pub types: Vec<TypeInfo>,
    /// Operations, in spec order.
    pub operations: Vec<OperationInfo>,
    /// Webhook delivery.
    pub webhook: Option<WebhookInfo>,
    /// The WebSocket protocol.
    pub websocket: Option<WebSocketInfo>,
    /// Every item that is assumed or not shown (and every seed conflict), with its location.
    pub gaps: Vec<GapItem>,
    /// The service-wide sections as the spec writes them, as JSON (`base_url`, `retry`, ...,
    /// absent sections left out), for documents that reproduce them (`x-` extensions). Code
    /// generation reads the resolved fields above, never these.
    pub as_written: Vec<(&'static str, serde_json::Value)>,
    /// Webhook payload types (`events.webhooks`), in spec order.
    pub webhooks: Vec<WebhookTypeInfo>,
    /// The signature schemes those payload types use (declared or built in), in first-use order.
    pub signatures: Vec<SignatureInfo>,
    /// The service's `pagination` section, resolved (operations may have their own).
    pub page_style: Option<PaginationInfo>,
}

impl Service {
    /// The service's short name (`email`).
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// The service's human title (`Email service`).
    pub fn title(&self) -> &str {
        &self.info.title
    }

    /// The version prefix of request paths (`v1`), if any.
    pub fn version_prefix(&self) -> Option<&str> {
        self.info.version.as_ref().and_then(|v| v.prefix.as_deref())
    }

    /// A named type by name.
    pub fn type_named(&self, name: &str) -> Option<&TypeInfo> {
        self.types.iter().find(|t| t.name == name)
    }

    /// True when the named type has something to check before sending.
    pub fn is_checked(&self, name: &str) -> bool {
        self.type_named(name).is_some_and(|t| t.checked)
    }
}

/// Provenance of a resolved item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Where it comes from.
    pub source: Source,
    /// Why it is assumed, or what the seed says.
    pub note: Option<String>,
    /// Set when seed facts disagree about it.
    pub conflict: Option<String>,
}

/// A named credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CredentialInfo {
    /// Its name (`api_key`).
    pub name: String,
    /// The env var it is read from.
    pub env: String,
    /// Redacted everywhere and never placed in a URL.
    pub secret: bool,
    /// A value fixed by the provider (Mailgun's Basic user name `api`), used when none is set.
    pub value: Option<String>,
}

/// The name an operation gives as its `auth` to be sent without credentials (a public
/// operation); no scheme may take it.
pub const ANONYMOUS_AUTH: &str = "none";

/// An auth scheme, its credentials resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthInfo {
    /// The name operations use to pick it.
    pub name: String,
    /// How the credentials travel.
    pub method: AuthScheme<Owned>,
    /// What it is.
    pub doc: Option<String>,
    /// Where it comes from.
    pub origin: Origin,
}

impl AuthInfo {
    /// An operation's `auth: none`, with the operation's provenance.
    pub fn anonymous(source: crate::model::Source, note: Option<String>) -> AuthInfo {
        AuthInfo {
            name: ANONYMOUS_AUTH.to_owned(),
            method: AuthScheme::Anonymous,
            doc: Some("A public operation: sent without credentials.".to_owned()),
            origin: Origin {
                source,
                note,
                conflict: None,
            },
        }
    }

    /// The credentials (by name) the scheme sends, in order, each once.
    pub fn credentials(&self) -> Vec<&str> {
        fn of<'a>(scheme: &'a AuthScheme<Owned>, out: &mut Vec<&'a str>) {
            let names: Vec<&str> = match scheme {
                AuthScheme::Bearer { credential } | AuthScheme::Header { credential, .. } => {
                    vec![credential]
                }
                AuthScheme::Query { params: pairs } | AuthScheme::Body { fields: pairs } => {
                    pairs.iter().map(|(_, c)| c.as_str()).collect()
                }
                AuthScheme::Basic { username, password } => std::iter::once(username.as_str())
                    .chain(password.as_deref())
                    .collect(),
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
                AuthScheme::All { schemes } => {
                    schemes.iter().for_each(|s| of(s, out));
                    Vec::new()
                }
                AuthScheme::Minted { .. } | AuthScheme::Anonymous => Vec::new(),
            };
            for name in names {
                if !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        let mut out = Vec::new();
        of(&self.method, &mut out);
        out
    }

    /// Whether this is an operation's `auth: none`.
    pub fn is_anonymous(&self) -> bool {
        self.method == AuthScheme::Anonymous
    }
}

/// The error body.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorsInfo {
    /// Its type; absent when not shown.
    pub ty: Option<Ty>,
    /// Known error codes and their statuses.
    pub codes: indexmap::IndexMap<String, ErrorCode>,
    /// Where it comes from.
    pub origin: Origin,
    /// Dot path to the code ([`defaults::ERROR_CODE_PATH`] when the spec does not say);
    /// `None`: the body has no code.
    pub code: Option<String>,
    /// Dot path to the message ([`defaults::ERROR_MESSAGE_PATH`] when the spec does not say);
    /// `None`: the body has no message.
    pub message: Option<String>,
    /// How a successful answer says it failed, when it can.
    pub in_success: Option<InSuccessInfo>,
}

/// An error inside a successful answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InSuccessInfo {
    /// Dot path into the success body.
    pub field: String,
    /// Values (as text) meaning failure; empty: the field's presence means failure.
    pub equals: Vec<String>,
}

/// Webhook delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookInfo {
    /// The payload type (usually a union keyed by event type).
    pub ty: Option<String>,
    /// The signature scheme; absent when not shown.
    pub signature: Option<WebhookSignature>,
    /// The env var holding the signing secret.
    pub secret_env: Option<String>,
    /// What it is.
    pub doc: Option<String>,
    /// Where it comes from: its own provenance, else that of the `events` section.
    pub origin: Origin,
}

/// One item of the gaps report ([`crate::gaps`]): something a spec assumes or does not show,
/// or a seed conflict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GapItem {
    /// Dotted path in the spec (`operations.send_email`).
    pub path: String,
    /// Line and column.
    pub position: (usize, usize),
    /// Its provenance.
    pub source: Source,
    /// Its note.
    pub note: Option<String>,
    /// A seed conflict, if any.
    pub conflict: Option<String>,
}
