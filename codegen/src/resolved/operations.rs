//! The resolved operations: method, path, parameters, body and response types, retry class,
//! auth scheme and success status, every default applied.

use crate::model::{IdempotencyMode, ListStyle, Method, Source};

use super::{AuthInfo, Constraints, Ty};

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
    /// The success status: the spec's, else 200 with a response body and 204 without.
    pub success_status: u16,
    /// Error statuses the operation is known to return.
    pub errors: Vec<u16>,
    /// A request body is sent: the spec's `body`, or `{}` for PUT, POST and PATCH.
    pub has_body: bool,
    /// The body type has checks to run before sending.
    pub body_checked: bool,
    /// Name of the generated query struct (`<Op>Query`), when there are query parameters.
    pub query_type: Option<String>,
    /// Some query parameter has limits to check before sending.
    pub query_checked: bool,
    /// Header parameters.
    pub headers: Vec<ParamInfo>,
    /// Name of the generated header struct (`<Op>Headers`), when there are header parameters.
    pub headers_type: Option<String>,
    /// What tells this operation apart in the body from others on its method and path.
    pub when: Option<WhenInfo>,
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
    /// The item type when the response is a cursor page.
    pub fn page_item(&self) -> Option<&Ty> {
        match &self.response {
            Some(Ty::Page(item)) => Some(item),
            _ => None,
        }
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
    /// How a list query parameter is written (`Some` for `list<T>` query parameters only).
    pub style: Option<ListStyle>,
}
