//! [`ServerError`]: an error answer of a sandboxed service, encoded with the spec's error body:
//! `{"error": {"code", "message", "param", "request_id"}}` by default, or code and message at
//! the paths the spec's `errors` section declares ([`ServerError::body_as`]).

use std::fmt;

use axum::http::StatusCode;
use axum::http::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};

use tidings_runtime::spec::ErrorSpec;

use super::X_REQUEST_ID;

/// An error answer: HTTP status, machine-readable code (from the spec's `errors.codes`), a
/// message, and the request field at fault when there is one.
///
/// ```
/// use tidings_sandbox::server::ServerError;
/// let error = ServerError::not_found("email `em_1`");
/// assert_eq!(error.status(), 404);
/// assert_eq!(error.code(), "not_found");
/// ```
#[derive(Debug, Clone)]
pub struct ServerError {
    // Boxed: handlers return `Result<_, ServerError>` everywhere, so the error stays small.
    inner: Box<Detail>,
}

#[derive(Debug, Clone)]
struct Detail {
    status: StatusCode,
    code: String,
    message: String,
    param: Option<String>,
    headers: HeaderMap,
}

impl ServerError {
    /// An error with this status and code. An invalid status becomes 500.
    pub fn new(status: u16, code: impl Into<String>, message: impl Into<String>) -> Self {
        ServerError {
            inner: Box::new(Detail {
                status: StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                code: code.into(),
                message: message.into(),
                param: None,
                headers: HeaderMap::new(),
            }),
        }
    }

    /// 422 `validation_error` about `param`: the request is well-formed but its values are not.
    pub fn validation(param: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(422, "validation_error", message).with_param(param)
    }

    /// 400 `validation_error`: the request could not be read at all (bad JSON, bad query).
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(400, "validation_error", message)
    }

    /// 404 `not_found`, naming what was looked for.
    pub fn not_found(what: impl fmt::Display) -> Self {
        Self::new(404, "not_found", format!("{what} does not exist"))
    }

    /// 409 with `code`: the request conflicts with the resource's state.
    pub fn conflict(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(409, code, message)
    }

    /// 500 `internal_error`.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(500, "internal_error", message)
    }

    /// Names the request field at fault.
    pub fn with_param(mut self, param: impl Into<String>) -> Self {
        self.inner.param = Some(param.into());
        self
    }

    /// Adds a response header (e.g. `Retry-After`). Invalid names or values are skipped.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            self.inner.headers.insert(name, value);
        }
        self
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        self.inner.status.as_u16()
    }

    /// The error code (`validation_error`, `not_found`, ...).
    pub fn code(&self) -> &str {
        &self.inner.code
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// The request field at fault, when there is one.
    pub fn param(&self) -> Option<&str> {
        self.inner.param.as_deref()
    }

    /// The JSON error body, with `request_id`.
    pub fn body(&self, request_id: &str) -> serde_json::Value {
        let mut error = serde_json::Map::new();
        error.insert("code".into(), self.inner.code.clone().into());
        error.insert("message".into(), self.inner.message.clone().into());
        if let Some(param) = &self.inner.param {
            error.insert("param".into(), param.clone().into());
        }
        error.insert("request_id".into(), request_id.into());
        serde_json::json!({ "error": error })
    }

    /// The error body in the shape `spec` declares: code and message at its paths (a code
    /// made of digits as a JSON number, as providers with numeric codes send it). The default
    /// shape is [`ServerError::body`], with `param` and `request_id`.
    ///
    /// ```
    /// use tidings_runtime::spec::ErrorSpec;
    /// use tidings_sandbox::server::ServerError;
    /// static SHAPE: ErrorSpec =
    ///     ErrorSpec { code: Some("errors.0.code"), message: Some("errors.0.message"), in_success: None };
    /// let body = ServerError::new(404, "20404", "not found").body_as("req_1", &SHAPE);
    /// assert_eq!(body, serde_json::json!({"errors": [{"code": 20404, "message": "not found"}]}));
    /// ```
    pub fn body_as(&self, request_id: &str, spec: &ErrorSpec) -> serde_json::Value {
        if *spec == ErrorSpec::DEFAULT {
            return self.body(request_id);
        }
        let mut body = serde_json::Value::Null;
        let code = match self.inner.code.parse::<u64>() {
            Ok(n) => serde_json::Value::from(n),
            Err(_) => serde_json::Value::from(self.inner.code.clone()),
        };
        if let Some(path) = spec.code {
            put_at(&mut body, path, code);
        }
        if let Some(path) = spec.message {
            put_at(&mut body, path, self.inner.message.clone().into());
        }
        if body.is_null() {
            body = serde_json::json!({});
        }
        body
    }

    /// The whole HTTP answer.
    pub fn to_response(&self, request_id: &str) -> Response {
        self.to_response_as(request_id, &ErrorSpec::DEFAULT)
    }

    /// The whole HTTP answer, its body in the shape `spec` declares ([`ServerError::body_as`]).
    pub fn to_response_as(&self, request_id: &str, spec: &ErrorSpec) -> Response {
        // One line per refused request, with why (the message never carries a credential).
        let status = self.inner.status.as_u16();
        if status >= 500 {
            tracing::warn!(status, code = %self.inner.code, request_id, "request failed: {}", self.inner.message);
        } else {
            tracing::info!(status, code = %self.inner.code, request_id, "request refused: {}", self.inner.message);
        }
        let body = serde_json::to_vec(&self.body_as(request_id, spec)).unwrap_or_default();
        let mut response = (self.inner.status, body).into_response();
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Ok(id) = HeaderValue::from_str(request_id) {
            headers.insert(X_REQUEST_ID, id);
        }
        for (name, value) in &self.inner.headers {
            headers.insert(name.clone(), value.clone());
        }
        // For a spec's error shape that names the refused field (a map keyed by field name,
        // a `field` beside the message): the body written here has no place for it.
        response.extensions_mut().insert(Refusal {
            code: self.inner.code.clone(),
            param: self.inner.param.clone(),
            message: self.inner.message.clone(),
        });
        response
    }
}

/// What an error answer refuses and why, as the gateway said it, carried beside the answer
/// (not in it) to the step that writes the spec's own error shape.
#[derive(Debug, Clone)]
pub(crate) struct Refusal {
    /// The gateway's symbolic code (`validation_error`, `not_found`, `already_exists`).
    pub(crate) code: String,
    /// The request field refused, if one is (a dot path for a nested one).
    pub(crate) param: Option<String>,
    /// Why.
    pub(crate) message: String,
}

impl Refusal {
    /// Whether it refuses the request's values (400 and 422 of the gateway's validation),
    /// which one documented example of the status cannot describe.
    pub(crate) fn is_validation(&self) -> bool {
        self.code == "validation_error"
    }
}

/// Largest array index a path may create (paths come from the spec: `errors.0.code`).
const MAX_PATH_INDEX: usize = 16;

/// Sets the value at a dot path, creating objects (and arrays for number segments) on the way;
/// a step that meets a value of another shape replaces it.
fn put_at(root: &mut serde_json::Value, path: &str, value: serde_json::Value) {
    let mut here = root;
    for segment in path.split('.') {
        here = match segment.parse::<usize>() {
            Ok(index) if index <= MAX_PATH_INDEX => {
                if !here.is_array() {
                    *here = serde_json::Value::Array(Vec::new());
                }
                let serde_json::Value::Array(items) = here else {
                    return;
                };
                if items.len() <= index {
                    items.resize(index + 1, serde_json::Value::Null);
                }
                &mut items[index]
            }
            _ => {
                if !here.is_object() {
                    *here = serde_json::Value::Object(serde_json::Map::new());
                }
                let serde_json::Value::Object(map) = here else {
                    return;
                };
                map.entry(segment.to_owned())
                    .or_insert(serde_json::Value::Null)
            }
        };
    }
    *here = value;
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.inner.status.as_u16(),
            self.inner.code,
            self.inner.message
        )?;
        if let Some(param) = &self.inner.param {
            write!(f, " (`{param}`)")?;
        }
        Ok(())
    }
}

impl std::error::Error for ServerError {}

/// The client's pre-send checks (`Validator::check`) fail with `InvalidRequest`: on the server
/// the same failure is a 422 naming the field.
impl From<tidings_runtime::Error> for ServerError {
    fn from(error: tidings_runtime::Error) -> Self {
        match error {
            tidings_runtime::Error::InvalidRequest { field, message, .. } => {
                ServerError::validation(field, message)
            }
            other => ServerError::internal(other.to_string()),
        }
    }
}
