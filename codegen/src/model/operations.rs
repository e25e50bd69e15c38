//! Operations of a spec (method, path, parameters, body, response, retry class) and the
//! webhooks of its `events` section.

use super::*;

pub use tidings_spec::Method;

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
        /// Success status: one number, or a list (`[200, 204]`: a status without a body makes the
        /// answer optional).
        #[serde(default)]
        pub status: Option<Statuses>,
        /// Error statuses this operation is known to return.
        #[serde(default)]
        pub errors: Vec<u16>,
        /// Error bodies of its own, by status (`"404"`, `"4XX"`, `default`): their type, where
        /// their code and message are, and the response headers that carry error details; a
        /// list when the answer comes in several shapes (tried in order). An error answer none
        /// of them covers is read as the service's `errors` section says.
        #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
        pub error_bodies: IndexMap<String, ErrorBodies>,
        /// Retry class; defaults from the method.
        #[serde(default)]
        pub idempotency: Option<IdempotencyMode>,
        /// Name of the auth scheme; the service's first scheme when absent.
        #[serde(default)]
        pub auth: Option<String>,
        /// Largest encoded request body, from `limits.sizes.<name>` (unit `bytes`): checked
        /// before sending and by the sandbox (413).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub body_size: Option<String>,
        /// How the body is encoded: `json` (default), `form`, `multipart` or `binary` (the
        /// bytes as they are, `body: bytes`).
        #[serde(default)]
        pub body_encoding: Option<BodyKind>,
        /// How a form or multipart body writes arrays and nested fields.
        #[serde(default)]
        pub form_style: Option<FormStyle>,
        /// The media types a `binary` body may have (`image/png`, `image/*`); absent: any.
        #[serde(default)]
        pub body_media: Option<Vec<String>>,
        /// This operation's own pagination, instead of the service's `pagination` section.
        #[serde(default)]
        pub pagination: Option<Pagination>,
        /// Header parameters by header name (`<Op>Headers` struct).
        #[serde(default)]
        pub headers: IndexMap<String, Param>,
        /// Headers a successful answer carries (`Location`, `ETag`, a `HEAD`'s
        /// `Content-Length`), by name: documented on the method, read with the runtime's
        /// `Call::with_headers`, and sent by the sandbox.
        #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
        pub response_headers: IndexMap<String, ResponseHeader>,
        /// What tells this operation apart in the body when others share its method and path.
        #[serde(default)]
        pub when: Option<When>,
    }
}

/// One success status or several.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Statuses {
    /// One status.
    One(u16),
    /// Several statuses (`[200, 204]`).
    Many(Vec<u16>),
}

impl Statuses {
    /// The statuses, in the order written.
    pub fn to_vec(&self) -> Vec<u16> {
        match self {
            Statuses::One(s) => vec![*s],
            Statuses::Many(v) => v.clone(),
        }
    }
}

/// How a form writes arrays and nested fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormStyle {
    /// `repeat` (`To=a&To=b`, the default), `brackets` (`To[]=a`), `indexed` (`To[0]=a`) or
    /// `comma` (`To=a,b`).
    #[serde(default)]
    pub arrays: Option<FormArrays>,
    /// `brackets` (`a[b]=1`, the default) or `dots` (`a.b=1`).
    #[serde(default)]
    pub nested: Option<FormNested>,
}

pub use tidings_spec::ArrayStyle as FormArrays;
pub use tidings_spec::{
    BodyKind, HmacAlgorithm, PayloadEncoding, SecretKind, SignatureEncoding, SignedOver,
};

pub use tidings_spec::NestedStyle as FormNested;

item! {
    /// One operation's error body for a status, a status class or its other error answers.
    pub struct ErrorBody {
        /// Type of the error body; absent when the document shows none.
        #[serde(default, rename = "type")]
        pub ty: Option<String>,
        /// Dot path to the code (`code`, `errors.0.field`); default `error.code`; `none` when
        /// the body has no code.
        #[serde(default)]
        pub code: Option<String>,
        /// Dot path to the message; default `error.message`; `none` when there is none.
        #[serde(default)]
        pub message: Option<String>,
        /// Response headers that carry error details (`X-Error-Code`), kept on the error
        /// (`ApiError::header`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub headers: Vec<String>,
        /// A body this answer is documented with (a JSON object): the sandbox answers its
        /// values (Mandrill's 404 `code: 5, name: Unknown_Template`) with a message of its
        /// own, and the exported document shows it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub example: Option<serde_json::Value>,
    }
}

/// A header of a successful answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResponseHeader {
    /// Its value's type: a scalar (`string`, the default; `integer`, `datetime`, ...) or an
    /// enum.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    /// What it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// The error body of one status key: one shape, or several tried in order (Infobip's Moments
/// answers a 400 as an RFC 9457 problem, as its own `errorCode`/`errorMessage`, or as the
/// platform's `requestError`).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ErrorBodies {
    /// One shape.
    One(ErrorBody),
    /// Several shapes, the first whose paths find a code or a message wins.
    Many(Vec<ErrorBody>),
}

impl ErrorBodies {
    /// The shapes, in the order they are tried.
    pub fn shapes(&self) -> &[ErrorBody] {
        match self {
            ErrorBodies::One(body) => std::slice::from_ref(body),
            ErrorBodies::Many(bodies) => bodies,
        }
    }
}

/// A map is one shape, a sequence several; each read by `ErrorBody`'s own rules, so a
/// misspelled key is reported where it is (an untagged enum would only say that nothing
/// matched).
impl<'de> Deserialize<'de> for ErrorBodies {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Shapes;
        impl<'de> serde::de::Visitor<'de> for Shapes {
            type Value = ErrorBodies;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an error body (`{ type, code, message }`) or a list of them")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<ErrorBodies, A::Error> {
                ErrorBody::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(ErrorBodies::One)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<ErrorBodies, A::Error> {
                Vec::<ErrorBody>::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))
                    .map(ErrorBodies::Many)
            }
        }
        deserializer.deserialize_any(Shapes)
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

/// How a query parameter travels: a `list<T>` one in one of three ways, any one as its JSON
/// text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum QueryStyle {
    /// One pair per item: `To=a&To=b` (the default for a list).
    Repeat,
    /// One pair, items joined by commas: `To=a,b`.
    Comma,
    /// One pair per item, `[]` after the name: `To[]=a&To[]=b`.
    Brackets,
    /// The value as its JSON text, whatever its type: `filter={"name":{"$eq":"ann"}}`
    /// (OpenAPI's `content: application/json` on a parameter).
    Json,
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
        /// Shortest string (query parameters), checked before sending.
        #[serde(default)]
        pub min_len: Option<u64>,
        /// A regular expression the value matches somewhere (JSON Schema's `pattern`):
        /// documented, and checked by the sandbox, not by the client.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub pattern: Option<String>,
        /// The value the service takes when the parameter is left out (OpenAPI's `default`):
        /// a string, number or boolean of the parameter's type, shown in its docs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub default: Option<serde_json::Value>,
        /// Rust name, when the wire name does not make a good one (`DateSent<`).
        #[serde(default)]
        pub rust_name: Option<String>,
        /// How a query parameter is written: for a `list<T>`, `repeat` when absent; `json`
        /// for any type (its JSON text).
        #[serde(default)]
        pub style: Option<QueryStyle>,
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
        /// Several payload types, by name (snake_case): what each carries, how it is encoded,
        /// what tells it apart and how it is signed. One `handle_webhook` dispatches them.
        #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
        pub webhooks: IndexMap<String, WebhookType>,
        /// Signature schemes the payload types use, by name (snake_case); `standard_webhooks`
        /// and `pusher` are built in.
        #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
        pub signatures: IndexMap<String, SignatureDef>,
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
    /// One webhook payload type of a service.
    pub struct WebhookType {
        /// The payload type (an object type, or a union keyed by event type).
        #[serde(rename = "type")]
        pub ty: String,
        /// How the body is encoded; `json` by default.
        #[serde(default)]
        pub encoding: Option<PayloadEncoding>,
        /// What tells it apart from the service's other payload types; absent: every delivery
        /// the others do not take (at most one may leave it out).
        #[serde(default)]
        pub select: Option<WebhookSelect>,
        /// A name in `signatures`, `standard_webhooks`, `pusher`, or `none` (unsigned: decoded
        /// only, accepted from anyone).
        pub signature: String,
        /// Env var holding the signing secret; defaults to the signature scheme's.
        #[serde(default)]
        pub secret_env: Option<String>,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
    }
}

/// What tells a payload type apart: exactly one of `header`, `field` or `path`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookSelect {
    /// A request header (present, or equal to `equals`).
    #[serde(default)]
    pub header: Option<String>,
    /// A body field of the payload type (present, or equal to `equals`); a dot path for nested
    /// JSON fields.
    #[serde(default)]
    pub field: Option<String>,
    /// The request path the sender posts this type to (`/hooks/status`).
    #[serde(default)]
    pub path: Option<String>,
    /// The value the header or field must have; absent: present is enough.
    #[serde(default)]
    pub equals: Option<String>,
}

/// Headers a signature template reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SignatureHeaders {
    /// The header with the message id (`{id}`).
    #[serde(default)]
    pub id: Option<String>,
    /// The header with the Unix timestamp in seconds (`{timestamp}`, and `tolerance_s`).
    #[serde(default)]
    pub timestamp: Option<String>,
}

item! {
    /// A webhook signature scheme: which header, which HMAC, over what, how encoded.
    pub struct SignatureDef {
        /// The header that carries the signature(s).
        pub header: String,
        /// The HMAC.
        pub algorithm: HmacAlgorithm,
        /// What is signed.
        pub over: SignedOver,
        /// With `over: template`: the signed text, like `{id}.{timestamp}.{body}`.
        #[serde(default)]
        pub template: Option<String>,
        /// Headers the template's `{id}` and `{timestamp}` come from.
        #[serde(default)]
        pub headers: Option<SignatureHeaders>,
        /// How signatures are written; `base64` by default.
        #[serde(default)]
        pub encoding: Option<SignatureEncoding>,
        /// Written before each signature (`v1,`, `sha256=`).
        #[serde(default)]
        pub prefix: Option<String>,
        /// One character between several signatures in the header (key rotation).
        #[serde(default)]
        pub separator: Option<String>,
        /// How the secret becomes the key; `text` by default.
        #[serde(default)]
        pub secret_format: Option<SecretKind>,
        /// Stripped from the secret before decoding (`whsec_`).
        #[serde(default)]
        pub secret_prefix: Option<String>,
        /// Env var holding the signing secret.
        #[serde(default)]
        pub secret_env: Option<String>,
        /// Largest distance between the timestamp header and now, in seconds.
        #[serde(default)]
        pub tolerance_s: Option<u64>,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
    }
}
