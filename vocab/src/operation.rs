//! One operation of a service: method, path, retry class, body encoding, and how its answer is
//! read.

use crate::{AuthScheme, ErrorBodySpec};

/// An HTTP method an operation uses.
///
/// ```
/// use tidings_spec::Method;
///
/// assert_eq!(Method::Patch.as_str(), "PATCH");
/// assert!(Method::Put.is_idempotent() && !Method::Post.is_idempotent());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "UPPERCASE"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Method {
    /// `GET`
    Get,
    /// `HEAD`
    Head,
    /// `POST`
    Post,
    /// `PUT`
    Put,
    /// `PATCH`
    Patch,
    /// `DELETE`
    Delete,
}

impl Method {
    /// Its upper-case name, as sent.
    pub const fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }

    /// The method named `name` (upper case, as sent: `"GET"`).
    pub fn from_name(name: &str) -> Option<Method> {
        [
            Method::Get,
            Method::Head,
            Method::Post,
            Method::Put,
            Method::Patch,
            Method::Delete,
        ]
        .into_iter()
        .find(|m| m.as_str() == name)
    }

    /// Whether HTTP calls it idempotent (RFC 9110 section 9.2.2): repeating it has the effect of
    /// sending it once.
    pub const fn is_idempotent(self) -> bool {
        !matches!(self, Method::Post | Method::Patch)
    }

    /// Whether a request of this method carries a body by default.
    pub const fn has_body(self) -> bool {
        matches!(self, Method::Post | Method::Put | Method::Patch)
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One operation of a service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationSpec {
    /// Operation name, e.g. `"send_email"`.
    pub name: &'static str,
    /// HTTP method.
    pub method: Method,
    /// Path template, e.g. `"/v1/emails/{id}"`.
    pub path: &'static str,
    /// Whether and how the operation may be retried.
    pub retry: RetryClass,
    /// Whether the operation sends a JSON body.
    pub has_body: bool,
    /// An auth scheme this operation needs instead of the client's (the realtime service's
    /// seed GET is sent with a bearer key while its HTTP API is signed). `None`: the client's.
    pub auth: Option<AuthScheme>,
    /// Largest encoded request body the service accepts (the spec's `body_size:`): a larger
    /// one is an `Error::InvalidRequest` of the runtime before sending, and a 413 from the
    /// sandbox. `None`: no limit of its own.
    pub max_body_bytes: Option<usize>,
    /// How its body is encoded: JSON unless the spec says form, multipart or binary.
    pub body_encoding: BodyEncoding,
    /// The media types a [`BodyEncoding::Binary`] body may have (`image/*` and `*/*` allowed);
    /// empty: any. For a JSON body, JSON and the forms the service also takes it as (the
    /// sandbox takes them; the client sends JSON).
    pub body_media: &'static [&'static str],
    /// Its own error bodies by status, searched in order (the first whose statuses hold the
    /// answer's); an error answer none of them covers is read as the service's
    /// [`ErrorSpec`](crate::ErrorSpec) says. Empty: every error answer is the service's.
    pub errors: &'static [ErrorBodySpec],
    /// The headers its success answer documents (the spec's `response_headers`), which the
    /// sandbox sends; the client reads any header by name whether documented or not.
    pub response_headers: &'static [ResponseHeaderSpec],
}

/// A header an operation's success answer documents: its name and the type of its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResponseHeaderSpec {
    /// The header's name as the spec writes it (`Location`).
    pub name: &'static str,
    /// Its value's type.
    pub ty: HeaderType,
}

/// The type of a documented header's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderType {
    /// Text.
    Text,
    /// An integer.
    Integer,
    /// A number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// An instant (as the header writes it: an HTTP date for `Last-Modified`, RFC 3339 else).
    DateTime,
    /// A calendar date, `YYYY-MM-DD`.
    Date,
    /// One of these values.
    Enum(&'static [&'static str]),
}

impl OperationSpec {
    /// An operation with its method's defaults: `GET`, `HEAD`, `PUT` and `DELETE` are safe to
    /// repeat, `POST` and `PATCH` are never sent twice; `POST`, `PUT` and `PATCH` carry a JSON
    /// body; the client's own auth. Change them with the `with_*` methods.
    const fn of(
        name: &'static str,
        method: Method,
        path: &'static str,
        safe: bool,
        body: bool,
    ) -> Self {
        OperationSpec {
            name,
            method,
            path,
            retry: if safe {
                RetryClass::Safe
            } else {
                RetryClass::Never
            },
            has_body: body,
            auth: None,
            max_body_bytes: None,
            body_encoding: BodyEncoding::Json,
            body_media: &[],
            errors: &[],
            response_headers: &[],
        }
    }

    /// An operation with its method's defaults (see [`Method::is_idempotent`] and
    /// [`Method::has_body`]).
    pub const fn new(name: &'static str, method: Method, path: &'static str) -> Self {
        Self::of(
            name,
            method,
            path,
            method.is_idempotent(),
            method.has_body(),
        )
    }

    /// A `GET` operation: safe to repeat, no body.
    ///
    /// ```
    /// use tidings_spec::{OperationSpec, RetryClass};
    ///
    /// static GET_EMAIL: OperationSpec = OperationSpec::get("get_email", "/v1/emails/{id}");
    /// static SEND_EMAIL: OperationSpec =
    ///     OperationSpec::post("send_email", "/v1/emails").idempotency_key();
    /// assert_eq!(GET_EMAIL.retry, RetryClass::Safe);
    /// assert_eq!(SEND_EMAIL.retry, RetryClass::IdempotencyKey);
    /// assert!(SEND_EMAIL.has_body && !GET_EMAIL.has_body);
    /// ```
    pub const fn get(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::Get, path, true, false)
    }

    /// A `HEAD` operation: safe to repeat, no body.
    pub const fn head(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::Head, path, true, false)
    }

    /// A `DELETE` operation: safe to repeat, no body.
    pub const fn delete(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::Delete, path, true, false)
    }

    /// A `PUT` operation: safe to repeat, with a JSON body.
    pub const fn put(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::Put, path, true, true)
    }

    /// A `POST` operation: never sent twice, with a JSON body.
    pub const fn post(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::Post, path, false, true)
    }

    /// A `PATCH` operation: never sent twice, with a JSON body.
    pub const fn patch(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::Patch, path, false, true)
    }

    /// The same operation with another retry class.
    pub const fn with_retry(mut self, retry: RetryClass) -> Self {
        self.retry = retry;
        self
    }

    /// The same operation, repeatable with an idempotency key the runtime supplies.
    pub const fn idempotency_key(self) -> Self {
        self.with_retry(RetryClass::IdempotencyKey)
    }

    /// The same operation, with or without a JSON body.
    pub const fn with_body(mut self, has_body: bool) -> Self {
        self.has_body = has_body;
        self
    }

    /// The same operation, its body encoded as `encoding` (form, multipart).
    pub const fn with_body_encoding(mut self, encoding: BodyEncoding) -> Self {
        self.body_encoding = encoding;
        self
    }

    /// The same operation, whose success answer documents `headers` (see
    /// [`OperationSpec::response_headers`]).
    pub const fn with_response_headers(mut self, headers: &'static [ResponseHeaderSpec]) -> Self {
        self.response_headers = headers;
        self
    }

    /// The same operation, whose binary body may have the media types `media` (see
    /// [`OperationSpec::body_media`]).
    pub const fn with_body_media(mut self, media: &'static [&'static str]) -> Self {
        self.body_media = media;
        self
    }

    /// Whether a binary body of media type `content_type` is one the operation takes: any when
    /// [`OperationSpec::body_media`] is empty, else one that a listed type or range
    /// (`image/*`, `*/*`) covers, parameters (`; charset=...`) aside and case ignored.
    ///
    /// ```
    /// use tidings_spec::{BodyEncoding, OperationSpec};
    ///
    /// static UPLOAD: OperationSpec = OperationSpec::post("upload", "/media")
    ///     .with_body_encoding(BodyEncoding::Binary)
    ///     .with_body_media(&["image/*", "application/pdf"]);
    /// assert!(UPLOAD.takes_media("image/PNG"));
    /// assert!(UPLOAD.takes_media("application/pdf; name=a.pdf"));
    /// assert!(!UPLOAD.takes_media("text/plain"));
    /// ```
    pub fn takes_media(&self, content_type: &str) -> bool {
        if self.body_media.is_empty() {
            return true;
        }
        let essence = content_type.split(';').next().unwrap_or_default().trim();
        let Some((kind, sub)) = essence.split_once('/') else {
            return false;
        };
        self.body_media.iter().any(|range| {
            let range = range.split(';').next().unwrap_or_default().trim();
            match range.split_once('/') {
                Some(("*", "*")) => true,
                Some((k, "*")) => k.eq_ignore_ascii_case(kind),
                Some((k, s)) => k.eq_ignore_ascii_case(kind) && s.eq_ignore_ascii_case(sub),
                None => false,
            }
        })
    }

    /// The same operation, sent with `auth` instead of the client's scheme.
    pub const fn with_auth(mut self, auth: AuthScheme) -> Self {
        self.auth = Some(auth);
        self
    }

    /// The same operation, its error answers read as `errors` say (the first entry whose
    /// statuses hold the answer's; the service's [`ErrorSpec`](crate::ErrorSpec) for the
    /// others).
    pub const fn with_errors(mut self, errors: &'static [ErrorBodySpec]) -> Self {
        self.errors = errors;
        self
    }

    /// This operation's own error body for an answer with `status`, if it has one: the first
    /// of [`OperationSpec::error_bodies`].
    pub fn error_body(&self, status: u16) -> Option<&'static ErrorBodySpec> {
        self.error_bodies(status).next()
    }

    /// Every error body of its own that covers `status`, in the order they are tried: the
    /// shapes of the most specific entry first (one status, then its class, then `default`,
    /// as the generator writes them).
    ///
    /// ```
    /// use tidings_spec::{ErrorBodySpec, OperationSpec};
    ///
    /// const fn shape(code: &'static str, message: &'static str) -> ErrorBodySpec {
    ///     ErrorBodySpec { statuses: (400, 400), code: Some(code), message: Some(message), headers: &[] }
    /// }
    /// // One 400, two shapes: `{"errorCode", "errorMessage"}` or an RFC 9457 problem.
    /// static SEND: OperationSpec = OperationSpec::post("send", "/send")
    ///     .with_errors(&[shape("errorCode", "errorMessage"), shape("type", "title")]);
    /// let codes: Vec<_> = SEND.error_bodies(400).map(|b| b.code).collect();
    /// assert_eq!(codes, [Some("errorCode"), Some("type")]);
    /// assert_eq!(SEND.error_bodies(404).count(), 0);
    /// ```
    pub fn error_bodies(&self, status: u16) -> impl Iterator<Item = &'static ErrorBodySpec> {
        let errors: &'static [ErrorBodySpec] = self.errors;
        errors
            .iter()
            .filter(move |e| (e.statuses.0..=e.statuses.1).contains(&status))
    }

    /// The same operation, whose encoded body may be at most `max` bytes.
    pub const fn max_body_bytes(mut self, max: usize) -> Self {
        self.max_body_bytes = Some(max);
        self
    }
}

/// Whether an operation may be sent more than once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RetryClass {
    /// Safe to repeat (GET, HEAD, PUT, DELETE ...).
    Safe,
    /// Repeatable only with an idempotency key, which the runtime supplies.
    IdempotencyKey,
    /// Never sent again once it may have reached the server.
    Never,
}

/// How a request body is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyEncoding {
    /// `application/json` (the default).
    Json,
    /// `application/x-www-form-urlencoded`, nested fields and arrays written in this style.
    Form(FormStyle),
    /// `multipart/form-data`: one part per field (arrays repeat the part; nested fields are
    /// named as `FormStyle::nested` says).
    Multipart(FormStyle),
    /// The body's bytes as they are, of a media type the caller gives (a file upload:
    /// `application/octet-stream`, `image/png`); [`OperationSpec::body_media`] lists the ones
    /// the operation takes.
    Binary,
}

impl BodyEncoding {
    /// The encoding's kind, as a spec names it.
    pub const fn kind(&self) -> BodyKind {
        match self {
            BodyEncoding::Json => BodyKind::Json,
            BodyEncoding::Form(_) => BodyKind::Form,
            BodyEncoding::Multipart(_) => BodyKind::Multipart,
            BodyEncoding::Binary => BodyKind::Binary,
        }
    }
}

/// The body encodings a spec names (`body_encoding: form`); the encoding with
/// its form style is a `BodyEncoding`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "BodyEncoding"))]
pub enum BodyKind {
    /// `application/json`.
    Json,
    /// `application/x-www-form-urlencoded`.
    Form,
    /// `multipart/form-data`.
    Multipart,
    /// The body's bytes as they are, of a media type the caller gives (`body: bytes`).
    Binary,
}

/// How a form body writes arrays and nested objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormStyle {
    /// How an array is written.
    pub arrays: ArrayStyle,
    /// How a nested field's name is written.
    pub nested: NestedStyle,
}

impl FormStyle {
    /// Arrays repeat the name (`To=a&To=b`), nested fields use brackets (`a[b]=1`).
    pub const DEFAULT: FormStyle = FormStyle {
        arrays: ArrayStyle::Repeat,
        nested: NestedStyle::Brackets,
    };
}

/// How a form body writes an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ArrayStyle {
    /// `To=a&To=b`.
    Repeat,
    /// `To[]=a&To[]=b`.
    Brackets,
    /// `To[0]=a&To[1]=b`.
    Indexed,
    /// `To=a,b` (items that are scalars only).
    Comma,
    /// `To=["a","b"]`: a top-level list as its JSON text (OpenAPI's `contentType:
    /// application/json` on a form field: Zulip's `principals=[9,10]`); in a multipart body, a
    /// part of type `application/json`.
    Json,
}

/// How a form body names a nested field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum NestedStyle {
    /// `a[b]=1`.
    Brackets,
    /// `a.b=1`.
    Dots,
    /// `a={"b":1}`: a top-level field that is an object, or a list holding one, goes whole as
    /// its JSON text; in a multipart body, as a part of type `application/json` (OpenAPI's
    /// default for such a property of a multipart body).
    Json,
}

/// How a successful answer is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    /// JSON into the answer type (an empty body as `null`).
    Json,
    /// The body is not read.
    Ignored,
    /// The body as UTF-8 text.
    Text,
    /// The body as bytes.
    Bytes,
}
