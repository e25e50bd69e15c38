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
