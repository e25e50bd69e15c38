//! [`ApiError`]: an error answer of an HTTP API, read from its status, headers and body.

use super::*;

/// An error answer from the server: status plus whatever the body said.
///
/// The text fields come from the server, so they are bounded ([`Self::CODE_LIMIT`], [`Self::MESSAGE_LIMIT`],
/// [`Self::ID_LIMIT`]) and their control characters (CR, LF, ESC and the other C0 and C1 controls,
/// Unicode line separators and bidi overrides) are escaped as `\r`, `\n`, `\u{1b}` ...: they
/// are safe to print and to log.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApiError {
    /// HTTP status.
    pub status: u16,
    /// The code, read where the spec says ([`crate::spec::ErrorSpec::code`], by default
    /// `error.code`), e.g. `"validation_error"`; a number is kept as its text (`"20404"`).
    pub code: Option<String>,
    /// The message, read where the spec says (by default `error.message`).
    pub message: Option<String>,
    /// `error.param`: the request field the error is about.
    pub param: Option<String>,
    /// `error.request_id`, else the `x-request-id` header.
    pub request_id: Option<String>,
    /// The start of the raw body (at most [`Self::EXCERPT_LIMIT`] bytes), e.g. a proxy's HTML page.
    /// Escaped when displayed.
    pub body_excerpt: String,
    /// The body was longer than the client reads for an error answer
    /// ([`crate::ClientBuilder::max_error_body_bytes`]): only its start was read, so the fields
    /// above may be empty.
    pub body_truncated: bool,
    /// The whole body decoded as JSON (the spec's error type, as data), when it is JSON and at
    /// most [`Self::BODY_JSON_LIMIT`] bytes. Server data: its text is not escaped, so escape it
    /// before logging.
    pub body: Option<serde_json::Value>,
    /// The response headers the operation documents as carrying error details
    /// ([`crate::spec::ErrorBodySpec::headers`], e.g. `X-Error-Code`) that the answer had: name as
    /// documented, value bounded to [`Self::ID_LIMIT`] bytes and escaped like the fields above (at
    /// most [`Self::MAX_ERROR_HEADERS`]). Read one with [`ApiError::header`].
    pub headers: Vec<(String, String)>,
    /// The call it ended and what to do, when it came from a call. Not part of this type's
    /// `Display`; [`Error`]'s shows it.
    pub context: Option<Box<CallContext>>,
}

impl ApiError {
    /// Longest body excerpt kept ([`ApiError::body_excerpt`]), in bytes.
    pub const EXCERPT_LIMIT: usize = 512;

    /// Longest server-provided error message kept ([`ApiError::message`],
    /// [`DecodeError::message`]), in bytes after escaping; longer ones are cut and end with `…`.
    pub const MESSAGE_LIMIT: usize = 2048;

    /// Longest server-provided error code ([`ApiError::code`]) kept, in bytes after escaping.
    pub const CODE_LIMIT: usize = 128;

    /// Longest server-provided `param` and request id kept, in bytes after escaping.
    pub const ID_LIMIT: usize = 256;

    /// Largest body kept decoded in [`ApiError::body`], in bytes (a longer one, e.g. a 2xx
    /// answer that carries an error, keeps its code, message and excerpt only).
    pub const BODY_JSON_LIMIT: usize = 64 * 1024;

    /// Most documented error headers an [`ApiError`] keeps ([`ApiError::headers`]).
    pub const MAX_ERROR_HEADERS: usize = 16;

    /// Parses an error answer with the default shape, `{"error": {"code", "message", ...}}`.
    /// Never fails: a body that is not the expected JSON leaves the fields empty and is kept
    /// as an excerpt.
    pub fn from_response(status: u16, header_request_id: Option<&str>, body: &[u8]) -> ApiError {
        ApiError::from_body(
            status,
            header_request_id,
            body,
            &crate::spec::ErrorSpec::DEFAULT,
        )
    }

    /// Parses an error answer, reading the code and message at the paths `spec` gives (a
    /// number in a path indexes an array). A code that is a number or a boolean is kept as its
    /// text. `error.param` and `error.request_id` are read as well when present. Never fails.
    pub fn from_body(
        status: u16,
        header_request_id: Option<&str>,
        body: &[u8],
        spec: &crate::spec::ErrorSpec,
    ) -> ApiError {
        let json = serde_json::from_slice::<serde_json::Value>(body).ok();
        ApiError::from_json(
            status,
            header_request_id,
            body,
            json,
            std::slice::from_ref(spec),
        )
    }

    /// [`ApiError::from_body`] for a body already decoded as `json` (`None`: not JSON). The
    /// paths of `specs` are tried in order, the first that finds a code or a message wins: an
    /// operation's own error bodies first (one answer in several shapes, as Infobip's Moments
    /// documents), the service's after them (a provider whose endpoints answer in a newer
    /// shape still answers some errors in its older one, as Infobip's voice API documents).
    pub(crate) fn from_json(
        status: u16,
        header_request_id: Option<&str>,
        body: &[u8],
        json: Option<serde_json::Value>,
        specs: &[crate::spec::ErrorSpec],
    ) -> ApiError {
        let text_at = |path: Option<&str>, limit: usize| {
            let value = json_at(json.as_ref()?, path?)?;
            scalar_text(value).map(|t| bounded_text(&t, limit))
        };
        // The first shape whose paths find a code or a message.
        let (mut code, mut message) = (None, None);
        for spec in specs {
            code = text_at(spec.code, CODE_LIMIT);
            message = text_at(spec.message, MESSAGE_LIMIT);
            if code.is_some() || message.is_some() {
                break;
            }
        }
        // An answer that is only text (a JSON string, or one line of plain text: Mailgun's
        // `Forbidden`) is its own message.
        if let (None, None) = (&code, &message) {
            message = match &json {
                Some(serde_json::Value::String(s)) if !s.trim().is_empty() => {
                    Some(bounded_text(s.trim(), MESSAGE_LIMIT))
                }
                None => text_line(body),
                Some(_) => None,
            };
        }
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
            headers: Vec::new(),
            context: None,
        }
    }

    /// The value of documented error header `name` (any case) on the answer, e.g.
    /// `err.header("x-error-code")`; `None` when the operation documents no such header or
    /// the answer did not carry it.
    ///
    /// ```
    /// let mut api = tidings_runtime::ApiError::from_response(400, None, b"{}");
    /// api.headers.push(("X-Error-Code".into(), "E123".into()));
    /// assert_eq!(api.header("x-error-code"), Some("E123"));
    /// assert_eq!(api.header("x-other"), None);
    /// ```
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A body of one short line of text (not markup), trimmed: what a plain-text error answer says.
fn text_line(body: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(body).ok()?.trim();
    (!text.is_empty()
        && text.len() <= 200
        && !text.starts_with('<')
        && !text.chars().any(char::is_control))
    .then(|| text.to_owned())
}

/// The value at a dot path (`error.code`, `errors.0.message`, `0.code`): each segment is an
/// object key, or an array index when the value there is an array. `None` when any step is
/// missing.
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
