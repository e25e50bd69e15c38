//! The error body of a service's non-2xx answer ([`ApiError`]), read by the spec's paths, with
//! the call it answered ([`CallContext`]).

use super::*;

/// An error answer from the server: status plus whatever the body said.
///
/// The text fields come from the server, so they are bounded ([`CODE_LIMIT`], [`MESSAGE_LIMIT`],
/// [`ID_LIMIT`]) and their control characters (CR, LF, ESC and the other C0 and C1 controls,
/// Unicode line separators and bidi overrides) are escaped as `\r`, `\n`, `\u{1b}` ...: they
/// are safe to print and to log.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApiError {
    /// HTTP status.
    pub status: u16,
    /// The code, read where the spec says ([`crate::ErrorSpec::code`], by default
    /// `error.code`), e.g. `"validation_error"`; a number is kept as its text (`"20404"`).
    pub code: Option<String>,
    /// The message, read where the spec says (by default `error.message`).
    pub message: Option<String>,
    /// `error.param`: the request field the error is about.
    pub param: Option<String>,
    /// `error.request_id`, else the `x-request-id` header.
    pub request_id: Option<String>,
    /// The start of the raw body (at most [`EXCERPT_LIMIT`] bytes), e.g. a proxy's HTML page.
    /// Escaped when displayed.
    pub body_excerpt: String,
    /// The body was longer than the client reads for an error answer
    /// ([`crate::ClientBuilder::max_error_body_bytes`]): only its start was read, so the fields
    /// above may be empty.
    pub body_truncated: bool,
    /// The whole body decoded as JSON (the spec's error type, as data), when it is JSON and at
    /// most [`BODY_JSON_LIMIT`] bytes. Server data: its text is not escaped, so escape it
    /// before logging.
    pub body: Option<serde_json::Value>,
    /// The call it ended and what to do, for a refused credential ([`Error::Auth`]) that came
    /// from a call. Not part of this type's `Display`; [`Error`]'s shows it.
    pub context: Option<Box<CallContext>>,
}

/// The call an error ended, as [`Error`]'s `Display` shows it: service, operation, method and
/// URL (a query credential's value shown as `***`), the attempts made and why there was no
/// other, and what to check or change. Carried by timeouts, refused credentials and rate
/// limits ([`Error::context`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallContext {
    /// The service, e.g. `"email"`.
    pub service: &'static str,
    /// The operation, e.g. `"get_email"`.
    pub operation: &'static str,
    /// The HTTP method, e.g. `"GET"`.
    pub method: String,
    /// The first attempt's URL, the value of a query credential replaced by `***`.
    pub url: String,
    /// Attempts made, the last one included.
    pub attempts: u32,
    /// Why no other attempt was made, as it reads after `failed after N attempts, `: `the most
    /// the retry policy allows`, `not retried: the request may have reached the server and is
    /// not safe to repeat`, ...; `None` when the failure is not retryable at all.
    pub not_retried: Option<String>,
    /// What to check or change, naming the setting or environment variable.
    pub advice: String,
}

impl fmt::Display for CallContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{} ({} {}) failed after {} attempt{}",
            self.service,
            self.operation,
            self.method,
            self.url,
            self.attempts,
            if self.attempts == 1 { "" } else { "s" }
        )?;
        if let Some(reason) = &self.not_retried {
            write!(f, ", {reason}")?;
        }
        Ok(())
    }
}

impl ApiError {
    /// Parses an error answer with the default shape, `{"error": {"code", "message", ...}}`.
    /// Never fails: a body that is not the expected JSON leaves the fields empty and is kept
    /// as an excerpt.
    pub fn from_response(status: u16, header_request_id: Option<&str>, body: &[u8]) -> ApiError {
        ApiError::from_body(status, header_request_id, body, &crate::ErrorSpec::DEFAULT)
    }

    /// Parses an error answer, reading the code and message at the paths `spec` gives (a
    /// number in a path indexes an array). A code that is a number or a boolean is kept as its
    /// text. `error.param` and `error.request_id` are read as well when present. Never fails.
    pub fn from_body(
        status: u16,
        header_request_id: Option<&str>,
        body: &[u8],
        spec: &crate::ErrorSpec,
    ) -> ApiError {
        let json = serde_json::from_slice::<serde_json::Value>(body).ok();
        ApiError::from_json(status, header_request_id, body, json, spec)
    }

    /// [`ApiError::from_body`] for a body already decoded as `json` (`None`: not JSON).
    pub(crate) fn from_json(
        status: u16,
        header_request_id: Option<&str>,
        body: &[u8],
        json: Option<serde_json::Value>,
        spec: &crate::ErrorSpec,
    ) -> ApiError {
        let text_at = |path: Option<&str>, limit: usize| {
            let value = json_at(json.as_ref()?, path?)?;
            scalar_text(value).map(|t| bounded_text(&t, limit))
        };
        let code = text_at(spec.code, CODE_LIMIT);
        let message = text_at(spec.message, MESSAGE_LIMIT);
        let param = text_at(Some("error.param"), ID_LIMIT);
        let body_request_id = text_at(Some("error.request_id"), ID_LIMIT);
        ApiError {
            status,
            code,
            message,
            param,
            request_id: body_request_id
                .or_else(|| header_request_id.map(|r| bounded_text(r, ID_LIMIT))),
            body_excerpt: excerpt(body),
            body_truncated: false,
            body: json.filter(|_| body.len() <= BODY_JSON_LIMIT),
            context: None,
        }
    }
}

/// The value at a dot path (`error.code`, `errors.0.message`, `0.code`): each segment is an
/// object key, or an array index when the value there is an array. `None` when any step is
/// missing.
///
/// ```
/// let body = serde_json::json!({"errors": [{"message": "bad from"}]});
/// let found = tidings_runtime::error::json_at(&body, "errors.0.message");
/// assert_eq!(found, Some(&serde_json::json!("bad from")));
/// assert_eq!(tidings_runtime::error::json_at(&body, "errors.1.message"), None);
/// ```
pub fn json_at<'a>(value: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    path.split('.')
        .try_fold(value, |value, segment| match value {
            serde_json::Value::Object(map) => map.get(segment),
            serde_json::Value::Array(items) => items.get(segment.parse::<usize>().ok()?),
            _ => None,
        })
}

/// A string as is, a number or a boolean as its JSON text; `None` for `null`, arrays and
/// objects.
pub(crate) fn scalar_text(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The fields are escaped when parsed, but they are public: escape (and bound) again.
        write!(f, "HTTP {}", self.status)?;
        if let Some(code) = &self.code {
            write!(f, " {}", Escaped(code, CODE_LIMIT))?;
        }
        match &self.message {
            Some(message) => write!(f, ": {}", Escaped(message, MESSAGE_LIMIT))?,
            None if !self.body_excerpt.is_empty() => {
                write!(
                    f,
                    ": {}",
                    Escaped(&self.body_excerpt, EXCERPT_LIMIT + '…'.len_utf8())
                )?;
            }
            None => {}
        }
        if let Some(param) = &self.param {
            write!(f, " (param `{}`)", Escaped(param, ID_LIMIT))?;
        }
        if let Some(id) = &self.request_id {
            write!(f, " [request id {}]", Escaped(id, ID_LIMIT))?;
        }
        if self.body_truncated {
            f.write_str(" (error body cut at the client's limit)")?;
        }
        Ok(())
    }
}
