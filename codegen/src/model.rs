//! The spec model: serde structs that mirror `spec/*.yaml` one to one.
//!
//! Nothing here is interpreted; [`crate::check`] turns a [`SpecFile`] into a resolved
//! [`crate::check::Service`]. The JSON Schema in `spec/spec.schema.json` is derived from these
//! types (see [`json_schema`]), so editors complete and validate spec files.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where a fact comes from.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Stated by the seed document (`shared/seed/`).
    Seed,
    /// Our design, modeled on public providers; the seed does not show it.
    Assumed,
    /// Still unknown: the seed says "not shown" and we have not filled it in.
    NotShown,
}

impl Source {
    /// The word used in YAML and in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Seed => "seed",
            Source::Assumed => "assumed",
            Source::NotShown => "not_shown",
        }
    }
}

/// Provenance of one item: where it comes from, and why.
///
/// Every spec item carries the three keys `source`, `note` and `conflict`. Items nested in a
/// type or operation (fields, enum values, variants, parameters) inherit the `source` of their
/// parent unless they set their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Provenance<'a> {
    /// `seed`, `assumed` or `not_shown`; `None` when the item does not say.
    pub source: Option<Source>,
    /// Why it is assumed, or what the seed says word for word.
    pub note: Option<&'a str>,
    /// Set when seed facts disagree about this item: what it conflicts with.
    pub conflict: Option<&'a str>,
}

/// Declares a spec item: a serde struct that rejects unknown keys and carries provenance.
macro_rules! item {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$field_meta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
            /// Where this item comes from: `seed`, `assumed` or `not_shown`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub source: Option<Source>,
            /// Why it is assumed, or what the seed says word for word.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub note: Option<String>,
            /// Set when seed facts disagree about this item: what it conflicts with.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub conflict: Option<String>,
        }

        impl $name {
            /// Provenance of this item.
            pub fn provenance(&self) -> Provenance<'_> {
                Provenance {
                    source: self.source,
                    note: self.note.as_deref(),
                    conflict: self.conflict.as_deref(),
                }
            }
        }
    };
}

/// One spec file: one service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "comms service spec")]
pub struct SpecFile {
    /// Identity of the service.
    pub service: ServiceInfo,
    /// Named credentials (API keys, app ids, secrets) and the env vars they are read from.
    #[serde(default)]
    pub credentials: IndexMap<String, Credential>,
    /// Auth schemes in order of preference; the first is the default.
    #[serde(default)]
    pub auth: Vec<AuthScheme>,
    /// Rate and size limits, and the headers that report them.
    #[serde(default)]
    pub limits: Option<Limits>,
    /// How failed requests are retried.
    #[serde(default)]
    pub retry: Option<RetryPolicy>,
    /// Connect and per-attempt timeouts.
    #[serde(default)]
    pub timeouts: Option<Timeouts>,
    /// How non-idempotent requests are made safe to retry.
    #[serde(default)]
    pub idempotency: Option<Idempotency>,
    /// How list endpoints page.
    #[serde(default)]
    pub pagination: Option<Pagination>,
    /// The error body every failed request carries.
    #[serde(default)]
    pub errors: Option<Errors>,
    /// Named types: objects, open enums and tagged unions.
    #[serde(default)]
    pub types: IndexMap<String, TypeDef>,
    /// Operations: one client method each.
    #[serde(default)]
    pub operations: IndexMap<String, Operation>,
    /// Events the service delivers to the app (webhooks).
    #[serde(default)]
    pub events: Option<Events>,
    /// The WebSocket protocol: connection URL, messages, channel kinds, close codes.
    #[serde(default)]
    pub websocket: Option<WebSocket>,
    /// Facts the seed leaves open that have no other place in the spec.
    #[serde(default)]
    pub gaps: IndexMap<String, Gap>,
}

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
    }
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
    }
}

fn yes() -> bool {
    true
}

/// How a credential is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AuthKind {
    /// `Authorization: Bearer <credential>`.
    Bearer,
    /// `<header>: <credential>`.
    Header,
    /// `?<param>=<credential>`.
    Query,
    /// A request-signing scheme implemented by the runtime (`signing` names it).
    Signature,
}

/// Request-signing schemes the runtime implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SigningKind {
    /// Pusher HTTP API signature (auth_version 1.0, HMAC-SHA256).
    PusherHmacSha256,
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
        /// Signing scheme (kind `signature`).
        #[serde(default)]
        pub signing: Option<SigningKind>,
        /// Credentials the signing scheme uses, by role: `app_id`, `key`, `secret`.
        #[serde(default)]
        pub credentials: IndexMap<String, String>,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
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
    /// Cursor pagination.
    pub struct Pagination {
        /// Query parameter with the page size.
        pub limit_param: String,
        /// Largest page size.
        #[serde(default)]
        pub max_limit: Option<u32>,
        /// Query parameter that asks for items after a cursor.
        pub after_param: String,
        /// Query parameter that asks for items before a cursor.
        #[serde(default)]
        pub before_param: Option<String>,
        /// Field of a page that holds the items.
        pub items_field: String,
        /// Field of a page that says whether more pages follow.
        pub has_more_field: String,
        /// Field of an item that is its cursor.
        pub cursor_field: String,
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
    }
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

item! {
    /// A named type: an object (`fields`), an open enum (`values`) or a tagged union (`variants`).
    pub struct TypeDef {
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
        /// Object fields by wire name, in wire order.
        #[serde(default)]
        pub fields: Option<IndexMap<String, Field>>,
        /// Open enum values (an unknown value still decodes).
        #[serde(default)]
        pub values: Option<Vec<EnumValue>>,
        /// Union variants by tag value.
        #[serde(default)]
        pub variants: Option<IndexMap<String, Variant>>,
        /// Field that holds a union's tag.
        #[serde(default)]
        pub tag: Option<String>,
        /// Field that holds a union variant's content; absent: the content's fields sit beside the tag.
        #[serde(default)]
        pub content: Option<String>,
        /// Rules across an object's fields (exclusive, require one, a total count).
        #[serde(default)]
        pub rules: Vec<Rule>,
    }
}

item! {
    /// A field of an object.
    pub struct Field {
        /// Type expression: `string`, `integer`, `number`, `boolean`, `datetime`, `json`, a type
        /// name, `list<T>` or `map<T>` (string keys).
        #[serde(rename = "type")]
        pub ty: String,
        /// Must be present.
        #[serde(default)]
        pub required: bool,
        /// Set by the server only.
        #[serde(default)]
        pub read_only: bool,
        /// Holds a secret (a signing secret, a token): redacted in `Debug` output.
        #[serde(default)]
        pub secret: bool,
        /// Extra meaning of a string: `email`, `e164`, `rfc3339`, `uri`, `uuid`.
        #[serde(default)]
        pub format: Option<Format>,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
        /// Longest string, in characters (each string of a list).
        #[serde(default)]
        pub max_len: Option<u64>,
        /// Shortest string, in characters; `1` forbids empty strings.
        #[serde(default)]
        pub min_len: Option<u64>,
        /// Longest string, in UTF-8 bytes.
        #[serde(default)]
        pub max_bytes: Option<u64>,
        /// Most items in a list or map.
        #[serde(default)]
        pub max_items: Option<u64>,
        /// Fewest items in a list or map (when present).
        #[serde(default)]
        pub min_items: Option<u64>,
        /// Smallest number.
        #[serde(default)]
        pub min: Option<f64>,
        /// Largest number.
        #[serde(default)]
        pub max: Option<f64>,
    }
}

item! {
    /// A rule across fields of an object, checked before sending.
    pub struct Rule {
        /// At most one of these fields may be set.
        #[serde(default)]
        pub exclusive: Option<Vec<String>>,
        /// At least one of these fields must be set.
        #[serde(default)]
        pub require_one: Option<Vec<String>>,
        /// The items of `fields` together are at most this many.
        #[serde(default)]
        pub max_total: Option<u64>,
        /// The list fields `max_total` counts.
        #[serde(default)]
        pub fields: Option<Vec<String>>,
        /// Why the rule exists.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

/// String formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// An email address, optionally `Name <addr>`.
    Email,
    /// An E.164 phone number.
    E164,
    /// An RFC 3339 timestamp.
    Rfc3339,
    /// A URI.
    Uri,
    /// A UUID.
    Uuid,
}

/// An enum value: a bare string, or an object with docs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum EnumValue {
    /// Just the wire value.
    Bare(String),
    /// The wire value with docs and provenance.
    Documented(DocumentedValue),
}

item! {
    /// An enum value with docs.
    pub struct DocumentedValue {
        /// The wire value.
        pub value: String,
        /// What it means.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

impl EnumValue {
    /// The wire value.
    pub fn value(&self) -> &str {
        match self {
            EnumValue::Bare(v) => v,
            EnumValue::Documented(d) => &d.value,
        }
    }
}

item! {
    /// A union variant.
    pub struct Variant {
        /// The object type this variant carries; absent for a variant with no content.
        #[serde(default, rename = "type")]
        pub ty: Option<String>,
        /// Rust name of the variant; derived from the tag when absent.
        #[serde(default)]
        pub name: Option<String>,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

/// HTTP methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Method {
    /// GET
    Get,
    /// POST
    Post,
    /// PUT
    Put,
    /// PATCH
    Patch,
    /// DELETE
    Delete,
}

impl Method {
    /// Upper-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

/// How an operation may be retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum IdempotencyMode {
    /// Safe to repeat as is (the default for GET, PUT and DELETE).
    Safe,
    /// Carries an idempotency key, generated once per call and reused on every attempt.
    Key,
    /// Never repeated once it may have reached the server (the default for POST and PATCH).
    None,
}

item! {
    /// One operation.
    pub struct Operation {
        /// HTTP method.
        pub method: Method,
        /// Path template, `{name}` for path parameters (`/v1/emails/{id}`).
        pub path: String,
        /// What it does; the first line becomes the method's summary.
        #[serde(default)]
        pub doc: Option<String>,
        /// Path parameters by name.
        #[serde(default)]
        pub path_params: IndexMap<String, Param>,
        /// Query parameters by name.
        #[serde(default)]
        pub query: IndexMap<String, Param>,
        /// Type of the JSON request body.
        #[serde(default)]
        pub body: Option<String>,
        /// Type of the success body: a type expression, `page<T>` for a cursor page, `json` for an
        /// open object; absent when the body is ignored.
        #[serde(default)]
        pub response: Option<String>,
        /// Success status.
        #[serde(default)]
        pub status: Option<u16>,
        /// Error statuses this operation is known to return.
        #[serde(default)]
        pub errors: Vec<u16>,
        /// Retry class; defaults from the method.
        #[serde(default)]
        pub idempotency: Option<IdempotencyMode>,
        /// Name of the auth scheme; the service's first scheme when absent.
        #[serde(default)]
        pub auth: Option<String>,
    }
}

item! {
    /// A path or query parameter.
    pub struct Param {
        /// Type expression (scalars only); `string` when absent.
        #[serde(default, rename = "type")]
        pub ty: Option<String>,
        /// Must be given (path parameters always are).
        #[serde(default)]
        pub required: bool,
        /// Filled from a credential of the client's configuration instead of a method argument.
        #[serde(default)]
        pub from_credential: Option<String>,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
        /// Smallest number (query parameters), checked before sending.
        #[serde(default)]
        pub min: Option<f64>,
        /// Largest number (query parameters), checked before sending.
        #[serde(default)]
        pub max: Option<f64>,
        /// Longest string (query parameters), checked before sending.
        #[serde(default)]
        pub max_len: Option<u64>,
    }
}

/// Webhook signature schemes the runtime verifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookSignature {
    /// Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
    StandardWebhooks,
    /// Pusher (`X-Pusher-Signature`: hex HMAC-SHA256 of the body).
    Pusher,
}

item! {
    /// Events the service sends.
    pub struct Events {
        /// Webhooks: how they are signed and what they carry.
        #[serde(default)]
        pub webhook: Option<Webhook>,
    }
}

item! {
    /// Webhook delivery.
    pub struct Webhook {
        /// Signature scheme; absent when not shown.
        #[serde(default)]
        pub signature: Option<WebhookSignature>,
        /// Env var holding the signing secret.
        #[serde(default)]
        pub secret_env: Option<String>,
        /// Type of the payload (usually a union keyed by event type).
        #[serde(default, rename = "type")]
        pub ty: Option<String>,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

item! {
    /// The WebSocket protocol of a service: how to connect, what each side sends, which channel
    /// kinds exist and what each close code asks of the client.
    pub struct WebSocket {
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
        /// Path of the connection URL; `{key}` is the app key (`/app/{key}`).
        pub path: String,
        /// Query parameters of the connection URL; `{client}` and `{version}` in a value are
        /// filled with the client's name and version.
        #[serde(default)]
        pub query: IndexMap<String, String>,
        /// Protocol version spoken.
        pub protocol: u32,
        /// Pattern every socket id matches (`^\d+\.\d+$`), checked before it is sent.
        #[serde(default)]
        pub socket_id_pattern: Option<String>,
        /// Rules for channel names.
        #[serde(default)]
        pub channel_names: Option<ChannelNames>,
        /// When the client pings and when it gives up on a silent server.
        #[serde(default)]
        pub heartbeat: Option<Heartbeat>,
        /// Backoff between reconnection attempts (full jitter).
        #[serde(default)]
        pub reconnect: Option<Backoff>,
        /// Events clients send to each other.
        #[serde(default)]
        pub client_events: Option<ClientEvents>,
        /// Kinds of channel, told apart by the longest matching name prefix.
        #[serde(default)]
        pub channel_kinds: IndexMap<String, ChannelKind>,
        /// Protocol messages by name: the event, who sends it, its payload type.
        #[serde(default)]
        pub messages: IndexMap<String, WsMessage>,
        /// What the client does when the server closes with a code in each range.
        #[serde(default)]
        pub close_codes: Vec<CloseCodeRange>,
    }
}

item! {
    /// Rules for channel names.
    pub struct ChannelNames {
        /// Pattern every name matches (`^[-a-zA-Z0-9_=@,.;]+$`).
        #[serde(default)]
        pub pattern: Option<String>,
        /// Longest name, in characters.
        #[serde(default)]
        pub max_len: Option<u64>,
        /// A prefix reserved for server-only channels (`#`).
        #[serde(default)]
        pub reserved_prefix: Option<String>,
        /// What they are.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

item! {
    /// Heartbeat timing.
    pub struct Heartbeat {
        /// Silence after which the client pings, in milliseconds (shortened to the server's
        /// `activity_timeout` when that is smaller).
        pub ping_after_ms: u64,
        /// How long the client waits for the pong before it reconnects, in milliseconds.
        pub pong_timeout_ms: u64,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

item! {
    /// Client events: sent by one client to the other subscribers of a channel.
    pub struct ClientEvents {
        /// Prefix every client event name carries (`client-`).
        pub prefix: String,
        /// Most client events one connection may send per second.
        #[serde(default)]
        pub max_per_second: Option<u32>,
        /// What they are.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

/// How subscribing to a channel kind is authorized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChannelAuthKind {
    /// No authorization.
    None,
    /// `auth` signs `socket_id:channel`.
    Private,
    /// `auth` signs `socket_id:channel:channel_data`, and `channel_data` names the member.
    Presence,
}

item! {
    /// A kind of channel.
    pub struct ChannelKind {
        /// Name prefix (`private-`); the longest matching prefix wins, `""` matches every name.
        pub prefix: String,
        /// How subscribing is authorized.
        pub auth: ChannelAuthKind,
        /// Event data is end-to-end encrypted with a per-channel key.
        #[serde(default)]
        pub encrypted: bool,
        /// The server keeps the last event and replays it to new subscribers.
        #[serde(default)]
        pub cache: bool,
        /// Clients may send client events on it.
        #[serde(default)]
        pub client_events: bool,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

/// Who sends a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// The client sends it.
    ClientToServer,
    /// The server sends it.
    ServerToClient,
    /// Either side.
    Both,
}

/// How a message's `data` travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DataEncoding {
    /// A JSON string holding JSON (receivers also accept an object).
    JsonString,
    /// A JSON object.
    Object,
}

/// The part a message plays in the protocol, so the runtime's engine knows it by role rather
/// than by event name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MessageRole {
    /// The server accepted the connection and names its socket id.
    ConnectionEstablished,
    /// An error on the connection (or on one channel).
    Error,
    /// A heartbeat ping.
    Ping,
    /// The answer to a ping.
    Pong,
    /// Join a channel.
    Subscribe,
    /// Leave a channel.
    Unsubscribe,
    /// A subscription succeeded.
    SubscriptionSucceeded,
    /// A subscription failed.
    SubscriptionError,
    /// A presence member joined.
    MemberAdded,
    /// A presence member left.
    MemberRemoved,
    /// A channel's subscriber count.
    SubscriptionCount,
    /// Sign the connection in as a user.
    Signin,
    /// Sign-in succeeded.
    SigninSuccess,
    /// A cache channel had nothing cached.
    CacheMiss,
}

impl MessageRole {
    /// Roles every WebSocket protocol must define for the runtime to run it.
    pub const REQUIRED: &[MessageRole] = &[
        MessageRole::ConnectionEstablished,
        MessageRole::Error,
        MessageRole::Ping,
        MessageRole::Pong,
        MessageRole::Subscribe,
        MessageRole::Unsubscribe,
        MessageRole::SubscriptionSucceeded,
    ];

    /// The word used in YAML.
    pub fn as_str(self) -> &'static str {
        match self {
            MessageRole::ConnectionEstablished => "connection_established",
            MessageRole::Error => "error",
            MessageRole::Ping => "ping",
            MessageRole::Pong => "pong",
            MessageRole::Subscribe => "subscribe",
            MessageRole::Unsubscribe => "unsubscribe",
            MessageRole::SubscriptionSucceeded => "subscription_succeeded",
            MessageRole::SubscriptionError => "subscription_error",
            MessageRole::MemberAdded => "member_added",
            MessageRole::MemberRemoved => "member_removed",
            MessageRole::SubscriptionCount => "subscription_count",
            MessageRole::Signin => "signin",
            MessageRole::SigninSuccess => "signin_success",
            MessageRole::CacheMiss => "cache_miss",
        }
    }
}

item! {
    /// One protocol message.
    pub struct WsMessage {
        /// The `event` of its frame (`pusher:subscribe`).
        pub event: String,
        /// Who sends it.
        pub direction: Direction,
        /// Type of its `data` (an object type); absent when it carries none.
        #[serde(default)]
        pub data: Option<String>,
        /// How `data` travels; `json_string` by default.
        #[serde(default)]
        pub encoding: Option<DataEncoding>,
        /// The frame names a channel.
        #[serde(default)]
        pub channel: bool,
        /// The part it plays, for the runtime's engine.
        #[serde(default)]
        pub role: Option<MessageRole>,
        /// What it means.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

/// What the client does after a close code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CloseAction {
    /// Do not reconnect: the connection fails.
    Fail,
    /// Reconnect after a backoff of at least `min_delay_ms`.
    Backoff,
    /// Reconnect at once.
    Reconnect,
}

item! {
    /// A range of close codes and what the client does after them.
    pub struct CloseCodeRange {
        /// First code of the range.
        pub from: u16,
        /// Last code of the range (included).
        pub to: u16,
        /// What the client does.
        pub action: CloseAction,
        /// Shortest wait before reconnecting, in milliseconds (`backoff` only).
        #[serde(default)]
        pub min_delay_ms: Option<u64>,
        /// What the codes mean.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

item! {
    /// A fact the seed leaves open.
    pub struct Gap {
        /// What is unknown, or what we assumed for it.
        pub text: String,
    }
}

/// The JSON Schema of spec files, pretty-printed, as committed in `spec/spec.schema.json`.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(SpecFile);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
