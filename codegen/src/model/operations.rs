//! Operations of a spec (method, path, parameters, body, response, retry class) and the
//! webhooks of its `events` section.

use super::*;

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
        /// Header parameters by header name (`<Op>Headers` struct).
        #[serde(default)]
        pub headers: IndexMap<String, Param>,
        /// What tells this operation apart in the body when others share its method and path.
        #[serde(default)]
        pub when: Option<When>,
    }
}

item! {
    /// A body field value that selects one of several operations on one method and path.
    pub struct When {
        /// Field of the JSON body (top level).
        pub field: String,
        /// The value it has for this operation.
        pub equals: String,
    }
}

/// How a `list<T>` query parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ListStyle {
    /// One pair per item: `To=a&To=b` (the default).
    Repeat,
    /// One pair, items joined by commas: `To=a,b`.
    Comma,
    /// One pair per item, `[]` after the name: `To[]=a&To[]=b`.
    Brackets,
}

item! {
    /// A path, query or header parameter.
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
        /// Rust name, when the wire name does not make a good one (`DateSent<`).
        #[serde(default)]
        pub rust_name: Option<String>,
        /// How a `list<T>` query parameter is written; `repeat` when absent.
        #[serde(default)]
        pub style: Option<ListStyle>,
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
