//! The resolved operations: method, path, parameters, body and response types, retry class,
//! auth scheme and success status, every default applied.

use crate::model::{IdempotencyMode, Method, QueryStyle, Source};

use super::{AuthInfo, Constraints, Owned, PageStyle, Ty};

/// One operation's error body for a range of statuses, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorBodyInfo {
    /// The status key as written (`"404"`, `"4XX"`, `"default"`).
    pub key: String,
    /// Which of the key's shapes it is (0 for the first or only one).
    pub shape: usize,
    /// First and last status it covers (`default`: 400 to 599).
    pub statuses: (u16, u16),
    /// Its type, when the spec names one.
    pub ty: Option<Ty>,
    /// Dot path to the code; `None`: no code.
    pub code: Option<String>,
    /// Dot path to the message; `None`: no message.
    pub message: Option<String>,
    /// Response headers that carry error details.
    pub headers: Vec<String>,
    /// A body this answer is documented with (a JSON object).
    pub example: Option<serde_json::Map<String, serde_json::Value>>,
}

/// A header of a successful answer, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseHeaderInfo {
    /// The header's name as written (`Location`).
    pub name: String,
    /// Its value's type (a scalar or an enum; `string` by default).
    pub ty: Ty,
    /// What it says.
    pub doc: Option<String>,
    /// The wire values of its enum type, in order; empty for a scalar.
    pub values: Vec<String>,
}

/// An operation, resolved.
#[derive(Debug, Clone)]
pub struct OperationInfo {
    /// snake_case name.
    pub name: String,
    /// HTTP method.
    pub method: Method,
    /// Path template.
    pub path: String,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
    /// Why it is assumed, or what the seed says.
    pub note: Option<String>,
    /// Set when seed facts disagree about it.
    pub conflict: Option<String>,
    /// Path parameters, in path order.
    pub path_params: Vec<ParamInfo>,
    /// Query parameters.
    pub query: Vec<ParamInfo>,
    /// Request body type.
    pub body: Option<Ty>,
    /// Success body type.
    pub response: Option<Ty>,
    /// Retry class: the spec's, else safe for GET, PUT and DELETE and none for POST and PATCH.
    pub idempotency: IdempotencyMode,
    /// The operation's own auth scheme, when it is not the service's default.
    pub auth: Option<AuthInfo>,
    /// The success status: the spec's, else 200 with a response body (or for a HEAD) and 204
    /// without.
    pub success_status: u16,
    /// Error statuses the operation is known to return.
    pub errors: Vec<u16>,
    /// Its own error bodies, most specific status first (single statuses, then classes, then
    /// `default`): the service's `errors` reads the answers none of them covers.
    pub error_bodies: Vec<ErrorBodyInfo>,
    /// A request body is sent: the spec's `body`, or `{}` for PUT, POST and PATCH.
    pub has_body: bool,
    /// The body type has checks to run before sending.
    pub body_checked: bool,
    /// Name of the generated query struct (`<Op>Query`), when there are query parameters.
    pub query_type: Option<String>,
    /// Some query parameter has limits to check before sending.
    pub query_checked: bool,
    /// Largest encoded request body in bytes (`body_size:`, bound to a `limits.sizes` entry
    /// that has a value), checked before sending and by the sandbox.
    pub max_body_bytes: Option<u64>,
    /// Every success status, [`Self::success_status`] first.
    pub success_statuses: Vec<u16>,
    /// Success statuses that carry no body (`204` beside a `200`): the answer is then `None`.
    pub empty_statuses: Vec<u16>,
    /// How the success body is read.
    pub answer: Answer,
    /// How the request body is encoded.
    pub body_encoding: BodyEncodingInfo,
    /// The media types a binary body may have (`body_media:`); empty: any.
    pub body_media: Vec<String>,
    /// How the operation pages, when it does: its own `pagination`, else the service's.
    pub pagination: Option<PaginationInfo>,
    /// The type of the items its stream yields, when it pages.
    pub stream_item: Option<Ty>,
    /// Header parameters.
    pub headers: Vec<ParamInfo>,
    /// Name of the generated header struct (`<Op>Headers`), when there are header parameters.
    pub headers_type: Option<String>,
    /// Headers a successful answer carries, in the order written.
    pub response_headers: Vec<ResponseHeaderInfo>,
    /// What tells this operation apart in the body from others on its method and path.
    pub when: Option<WhenInfo>,
}

/// How a success body is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// JSON into the response type.
    Json,
    /// Not read (no `response`).
    Ignored,
    /// UTF-8 text (`response: text`).
    Text,
    /// Bytes (`response: bytes`).
    Bytes,
}

/// How a request body is encoded, every default applied (the runtime's own description).
pub use tidings_spec::BodyEncoding as BodyEncodingInfo;

/// How a form writes arrays and nested fields (the runtime's own description).
pub use tidings_spec::FormStyle as FormStyleInfo;

/// How a list operation pages, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaginationInfo {
    /// Dot path of the items.
    pub items_field: String,
    /// Query parameter with the page size.
    pub limit_param: Option<String>,
    /// The style and its fields.
    pub style: PageStyle<Owned>,
    /// The operation declares it itself (not the service's section).
    pub own: bool,
    /// The page is the generated `Page<T>` (the service's cursor section with top-level
    /// fields); otherwise a `page<T>` answer is the runtime's `Page<T>`.
    pub generated_page: bool,
}

/// A body field value that selects an operation among several on one method and path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhenInfo {
    /// Wire name of the top-level body field.
    pub field: String,
    /// Its value for this operation.
    pub equals: String,
}

impl OperationInfo {
    /// The item type when the operation pages (`page<T>`, or a named page type with its own
    /// `pagination`).
    pub fn page_item(&self) -> Option<&Ty> {
        self.stream_item.as_ref()
    }
}

/// A path, query or header parameter.
#[derive(Debug, Clone)]
pub struct ParamInfo {
    /// Wire name.
    pub wire: String,
    /// Rust name.
    pub rust: String,
    /// Type.
    pub ty: Ty,
    /// Must be given.
    pub required: bool,
    /// Filled from this credential instead of an argument.
    pub from_credential: Option<String>,
    /// Limits checked before sending (query parameters).
    pub constraints: Constraints,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
    /// How a query parameter is written: `Some` for every `list<T>` query parameter, and for
    /// one of any type written as its JSON text ([`QueryStyle::Json`]).
    pub style: Option<QueryStyle>,
    /// The value the service takes when it is left out (a scalar of its type).
    pub default: Option<serde_json::Value>,
}
