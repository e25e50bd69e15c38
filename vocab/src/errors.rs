//! Where an error answer keeps its code and message.

use crate::defaults;

/// Where an error body keeps its code and message, and which successful answers carry an
/// error. Paths are dot paths into the JSON body: `error.code`, `code`, `errors.0.message` (a
/// number indexes an array, so `0.code` reads the first element of a top-level array).
///
/// ```
/// use tidings_spec::ErrorSpec;
///
/// // `{"code": 20404, "message": "not found"}`
/// static TWILIO_LIKE: ErrorSpec =
///     ErrorSpec { code: Some("code"), message: Some("message"), in_success: None };
/// assert_ne!(TWILIO_LIKE, ErrorSpec::DEFAULT);
/// ```
///
/// The runtime's `ApiError::from_body` reads an answer with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorSpec {
    /// Dot path to the code; `None`: the body has no code.
    pub code: Option<&'static str>,
    /// Dot path to the message; `None`: the body has no message.
    pub message: Option<&'static str>,
    /// How a successful (2xx) answer says it failed; `None`: a 2xx is always a success.
    pub in_success: Option<InSuccessSpec>,
}

impl ErrorSpec {
    /// `{"error": {"code": .., "message": ..}}`, and no errors inside 2xx answers.
    pub const DEFAULT: ErrorSpec = ErrorSpec {
        code: Some(defaults::ERROR_CODE_PATH),
        message: Some(defaults::ERROR_MESSAGE_PATH),
        in_success: None,
    };
}

/// The error body of one operation's answers whose status lies in `statuses` (both ends
/// included): where its code and message are, and which documented response headers carry
/// error details (the runtime's `ApiError::header`).
///
/// ```
/// use tidings_spec::{ErrorBodySpec, OperationSpec};
///
/// // v2 answers `{"errors": [{"field": .., "message": ..}]}` and names the code in a header.
/// static SEND_V2: OperationSpec = OperationSpec::post("send_v2", "/v2/send").with_errors(&[
///     ErrorBodySpec {
///         statuses: (400, 499),
///         code: None,
///         message: Some("errors.0.message"),
///         headers: &["X-Error-Code"],
///     },
/// ]);
/// assert_eq!(SEND_V2.error_body(404).unwrap().headers, ["X-Error-Code"]);
/// assert!(SEND_V2.error_body(500).is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorBodySpec {
    /// First and last status it is for: `(404, 404)`, `(400, 499)` for `4XX`, `(400, 599)`
    /// for a document's `default` answer.
    pub statuses: (u16, u16),
    /// Dot path to the code; `None`: the body has no code.
    pub code: Option<&'static str>,
    /// Dot path to the message; `None`: the body has no message.
    pub message: Option<&'static str>,
    /// Response headers that carry error details (`X-Error-Code`), kept on the error.
    pub headers: &'static [&'static str],
}

impl ErrorBodySpec {
    /// Where code and message are, as an [`ErrorSpec`] (no errors inside 2xx answers).
    pub const fn paths(&self) -> ErrorSpec {
        ErrorSpec {
            code: self.code,
            message: self.message,
            in_success: None,
        }
    }
}

/// An error inside a successful answer: the field at `field` (a dot path) means failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InSuccessSpec {
    /// Dot path into the success body, e.g. `"status"` or `"result.error"`.
    pub field: &'static str,
    /// What of the field means failure.
    pub when: FailureWhen,
}

/// What of a field of a successful answer means the call failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureWhen {
    /// The field is there and not `null`.
    Present,
    /// The field's value (as text: a string, a number or a boolean) is one of these.
    Equals(&'static [&'static str]),
}
