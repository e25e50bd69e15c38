//! The service-wide sections of a spec: identity, credentials, auth schemes, limits, retry,
//! timeouts, idempotency keys, pagination and the error body.

use super::*;

pub use tidings_spec::{AuthKind, PageKind, SigningKind};

item! {
    /// Identity of a service.
    pub struct ServiceInfo {
        /// Short name: a Rust module name and the cargo feature (`email`).
        pub name: String,
        /// Human title (`Email service`).
        pub title: String,
        /// One-line purpose.
        pub summary: String,
        /// Longer description, rendered as the module's rustdoc.
        #[serde(default)]
        pub doc: Option<String>,
        /// The pricing model.
        #[serde(default)]
        pub pricing: Option<Pricing>,
        /// The wire style (REST, JSON, status codes).
        #[serde(default)]
        pub style: Option<Fact>,
        /// The version prefix of request paths.
        #[serde(default)]
        pub version: Option<Version>,
        /// The base URL and the env var that overrides it.
        pub base_url: BaseUrl,
        /// How `import openapi` made this spec, kept so that a later `--merge` imports the
        /// same operations (generation ignores it).
        #[serde(default)]
        pub import: Option<ImportRecord>,
    }
}

/// What `import openapi` was told, written into the spec it makes so that `--merge` keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRecord {
    /// The `--include` filters (tags, path globs, operation ids): a `--merge` without
    /// `--include` imports only these operations; one with `--include` replaces them. Delete
    /// the key to import every operation again.
    #[serde(default)]
    pub include: Vec<String>,
}

item! {
    /// A fact stated in prose.
    pub struct Fact {
        /// The fact.
        pub text: String,
    }
}

item! {
    /// Pricing model.
    pub struct Pricing {
        /// `usage-based`, `freemium`, ...
        pub model: String,
        /// What is free.
        #[serde(default)]
        pub free_tier: Option<String>,
    }
}

item! {
    /// Version prefix of request paths.
    pub struct Version {
        /// `v1`; `null` when not shown.
        #[serde(default)]
        pub prefix: Option<String>,
    }
}

item! {
    /// The service's base URL.
    pub struct BaseUrl {
        /// Default base URL; absent when the seed shows none (the client then requires one).
        #[serde(default)]
        pub default: Option<String>,
        /// Env var that sets or overrides it (`COMMS_EMAIL_BASE_URL`).
        pub env: String,
    }
}

item! {
    /// A named credential.
    pub struct Credential {
        /// Env var the credential is read from.
        pub env: String,
        /// Secret credentials are redacted everywhere and never placed in a URL by default.
        #[serde(default = "yes")]
        pub secret: bool,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
        /// A value fixed by the provider, used when none is set (Mailgun's HTTP Basic user
        /// name is always `api`); only for a credential with `secret: false`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub value: Option<String>,
    }
}

fn yes() -> bool {
    true
}

item! {
    /// One auth scheme.
    pub struct AuthScheme {
        /// Name operations use to pick it (`bearer`).
        pub name: String,
        /// How the credential travels.
        pub kind: AuthKind,
        /// The credential sent (bearer, header, query).
        #[serde(default)]
        pub credential: Option<String>,
        /// Header name (kind `header`).
        #[serde(default)]
        pub header: Option<String>,
        /// Query parameter name (kind `query`).
        #[serde(default)]
        pub param: Option<String>,
        /// Several query parameters sent together, query parameter -> credential (kind
        /// `query`, instead of `param` and `credential`), e.g. `{ api_key: api_key, api_secret:
        /// api_secret }`.
        #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
        pub params: IndexMap<String, String>,
        /// Signing scheme (kind `signature`).
        #[serde(default)]
        pub signing: Option<SigningKind>,
        /// Credentials the signing scheme uses, by role: `app_id`, `key`, `secret`.
        #[serde(default)]
        pub credentials: IndexMap<String, String>,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
        /// The credential sent as the user name (kind `basic`).
        #[serde(default)]
        pub username: Option<String>,
        /// The credential sent as the password (kind `basic`); absent: an empty password.
        #[serde(default)]
        pub password: Option<String>,
        /// Text before the value in the header (kinds `header`, `minted`), e.g. `"App "`.
        #[serde(default)]
        pub prefix: Option<String>,
        /// The body field that carries the credential (kind `body`).
        #[serde(default)]
        pub field: Option<String>,
        /// Several body fields sent together, body field -> credential (kind `body`, instead
        /// of `field` and `credential`), e.g. `{ api_key: api_key, api_secret: api_secret }`.
        #[serde(default)]
        pub fields: IndexMap<String, String>,
        /// The name the application registers its token minter under (kind `minted`).
        #[serde(default)]
        pub minter: Option<String>,
        /// The token endpoint (kind `oauth2_client_credentials`): an absolute `https://` URL,
        /// or a path resolved against the base URL.
        #[serde(default)]
        pub token_url: Option<String>,
        /// The credential holding the OAuth2 client id (kind `oauth2_client_credentials`).
        #[serde(default)]
        pub client_id: Option<String>,
        /// The credential holding the OAuth2 client secret (kind `oauth2_client_credentials`).
        #[serde(default)]
        pub client_secret: Option<String>,
        /// Scopes asked for with each token (kind `oauth2_client_credentials`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub scopes: Vec<String>,
        /// The service's other schemes sent together (kind `all`), e.g. `[app_id, api_key]`
        /// for an app id in one header and a key in another.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub schemes: Vec<String>,
    }
}

/// Limits of a service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Request rate.
    #[serde(default)]
    pub rate: Option<RateLimit>,
    /// Response headers that report limits.
    #[serde(default)]
    pub headers: Option<RateLimitHeaders>,
    /// Named size limits (bytes, counts, lengths).
    #[serde(default)]
    pub sizes: IndexMap<String, SizeLimit>,
}

/// Unit of a rate window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Per {
    /// Per second.
    Second,
    /// Per minute.
    Minute,
    /// Per hour.
    Hour,
}

impl Per {
    /// The window in seconds.
    pub fn seconds(self) -> u32 {
        match self {
            Per::Second => 1,
            Per::Minute => 60,
            Per::Hour => 3600,
        }
    }
}

item! {
    /// A request rate limit.
    pub struct RateLimit {
        /// Requests allowed per window; absent when not shown.
        #[serde(default)]
        pub requests: Option<u32>,
        /// The window.
        #[serde(default)]
        pub per: Option<Per>,
        /// The limit depends on the customer's plan.
        #[serde(default)]
        pub varies_by_plan: bool,
    }
}

item! {
    /// Headers that report rate limits.
    pub struct RateLimitHeaders {
        /// The limit (`X-RateLimit-Limit`).
        #[serde(default)]
        pub limit: Option<String>,
        /// Requests left (`X-RateLimit-Remaining`).
        #[serde(default)]
        pub remaining: Option<String>,
        /// Seconds until the window resets (`X-RateLimit-Reset`).
        #[serde(default)]
        pub reset: Option<String>,
        /// Seconds or HTTP date to wait (`Retry-After`).
        #[serde(default)]
        pub retry_after: Option<String>,
    }
}

item! {
    /// A size limit.
    pub struct SizeLimit {
        /// The largest allowed value; absent when not shown.
        #[serde(default)]
        pub max: Option<u64>,
        /// What is counted (`bytes`, `recipients`, `characters`).
        #[serde(default)]
        pub unit: Option<String>,
        /// What it limits.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

item! {
    /// Retry policy.
    pub struct RetryPolicy {
        /// Attempts in all, the first included.
        pub max_attempts: u32,
        /// Exponential backoff with full jitter.
        pub backoff: Backoff,
        /// HTTP statuses that are retried.
        #[serde(default)]
        pub statuses: Vec<u16>,
        /// Retry when the connection cannot be made.
        #[serde(default)]
        pub connect_errors: bool,
        /// Retry when an attempt times out.
        #[serde(default)]
        pub timeouts: bool,
        /// Longest `Retry-After` honoured, in milliseconds.
        #[serde(default)]
        pub retry_after_cap_ms: Option<u64>,
        /// Retries allowed as a percentage of requests (a budget shared by a client's clones).
        #[serde(default)]
        pub budget_percent: Option<u32>,
    }
}

/// Backoff numbers: delay `n` is `rand[0,1) × min(cap, base × 2^n)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Backoff {
    /// Base delay in milliseconds.
    pub base_ms: u64,
    /// Largest delay in milliseconds.
    pub cap_ms: u64,
}

item! {
    /// Default timeouts.
    pub struct Timeouts {
        /// Connect timeout in milliseconds.
        pub connect_ms: u64,
        /// Per-attempt timeout in milliseconds.
        pub attempt_ms: u64,
        /// Optional total deadline for a call, in milliseconds.
        #[serde(default)]
        pub total_ms: Option<u64>,
    }
}

item! {
    /// Idempotency keys.
    pub struct Idempotency {
        /// Header that carries the key.
        pub header: String,
        /// Longest key accepted.
        pub max_len: usize,
        /// How long the server keeps keys, in hours.
        #[serde(default)]
        pub retention_hours: Option<u32>,
    }
}

item! {
    /// How list operations page: the service's `pagination` section, or an operation's own.
    pub struct Pagination {
        /// Query parameter with the page size (cursor style; the limit of the offset style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub limit_param: Option<String>,
        /// Largest page size.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub max_limit: Option<u32>,
        /// Query parameter that asks for items after a cursor (cursor style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub after_param: Option<String>,
        /// Query parameter that asks for items before a cursor (cursor style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub before_param: Option<String>,
        /// Dot path of the page's item array (`data`, `result.items`).
        pub items_field: String,
        /// Dot path of the boolean saying whether more pages follow (cursor style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub has_more_field: Option<String>,
        /// Field of an item that is its cursor (cursor style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub cursor_field: Option<String>,
        /// How the next page is found: `cursor` (default), `token`, `next_url`, `link_header`,
        /// `offset` or `page`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub style: Option<PageKind>,
        /// Dot path of the next page's token (token style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub token_field: Option<String>,
        /// Query parameter carrying the token (token style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub token_param: Option<String>,
        /// Dot path of the next page's URL, relative or absolute (next_url style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub next_field: Option<String>,
        /// Query parameter with the offset of the first item (offset style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub offset_param: Option<String>,
        /// Dot path of the total number of items (offset style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub total_field: Option<String>,
        /// Query parameter with the page number (page style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub page_param: Option<String>,
        /// Query parameter with the page size (page style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub size_param: Option<String>,
        /// Number of the first page, 0 or 1 (page style; default 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub first_page: Option<u64>,
        /// Dot path of the number of pages (page style).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub total_pages_field: Option<String>,
    }
}

item! {
    /// The error body.
    pub struct Errors {
        /// Type of the error body; absent when not shown.
        #[serde(default, rename = "type")]
        pub ty: Option<String>,
        /// Known error codes and their statuses.
        #[serde(default)]
        pub codes: IndexMap<String, ErrorCode>,
        /// Dot path to the code in the error body (`code`, `errors.0.code`); default
        /// `error.code`; `none` when the body has no code.
        #[serde(default)]
        pub code: Option<String>,
        /// Dot path to the message; default `error.message`; `none` when there is none.
        #[serde(default)]
        pub message: Option<String>,
        /// Errors inside successful (2xx) answers.
        #[serde(default)]
        pub in_success: Option<InSuccess>,
    }
}

/// How a successful answer says it failed: the field at `field` equals one of `equals`, or
/// (`present: true`) is there at all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InSuccess {
    /// Dot path into the success body (`status`, `result.error`).
    pub field: String,
    /// Values (as text) that mean failure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub equals: Vec<String>,
    /// The field's presence (not `null`) means failure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub present: bool,
}

item! {
    /// A known error code.
    pub struct ErrorCode {
        /// HTTP statuses the code comes with.
        pub status: Vec<u16>,
        /// What it means.
        #[serde(default)]
        pub doc: Option<String>,
    }
}
