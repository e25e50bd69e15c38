//! The spec's descriptions the runtime works from: services, operations, auth, pagination,
//! errors, retry and timeout policy, the WebSocket protocol, the sandbox's schema table, formats
//! and [`defaults`]. They are defined once, in the `tidings-spec` crate, and re-exported here
//! whole (the path generated code names them by) and, the common ones, at the crate root.
//!
//! ```
//! use tidings_runtime::Request;
//! use tidings_runtime::spec::{OperationSpec, RetryClass};
//!
//! static GET_EMAIL: OperationSpec = OperationSpec::get("get_email", "/v1/emails/{id}");
//! static SEND_EMAIL: OperationSpec =
//!     OperationSpec::post("send_email", "/v1/emails").idempotency_key().max_body_bytes(16);
//! assert_eq!(GET_EMAIL.retry, RetryClass::Safe);
//! assert_eq!(SEND_EMAIL.retry, RetryClass::IdempotencyKey);
//! // A body larger than the operation allows is refused before sending.
//! let err = Request::new(&SEND_EMAIL).json(&"a string longer than sixteen bytes").unwrap_err();
//! assert!(err.to_string().contains("16"));
//! ```

// Everything, so that `::tidings_runtime::spec::*` names every description: the path the
// generator writes them by.
pub use tidings_spec::*;

/// The `reqwest` method of a spec's method.
pub(crate) fn http_method(method: Method) -> reqwest::Method {
    match method {
        Method::Get => reqwest::Method::GET,
        Method::Head => reqwest::Method::HEAD,
        Method::Post => reqwest::Method::POST,
        Method::Put => reqwest::Method::PUT,
        Method::Patch => reqwest::Method::PATCH,
        Method::Delete => reqwest::Method::DELETE,
    }
}
