//! Static service and operation descriptions: the `'static` spec data that generated code emits
//! as `pub static` items and hands to the runtime.
//!
//! These types are *spec data*, not configuration: their fields are public and they are built
//! with struct literal syntax by generated code, so they are deliberately not
//! `#[non_exhaustive]`. Per-client and per-call overrides live in [`crate::ClientBuilder`] and [`crate::CallOptions`].

use crate::Method;

/// Everything the runtime needs to know about one service.
///
/// # Example
///
/// ```
/// use tidings_runtime::*;
///
/// static EMAIL: ServiceSpec = ServiceSpec {
///     name: "email",
///     title: "Email service",
///     base_url: None,
///     base_url_env: "COMMS_EMAIL_BASE_URL",
///     credentials: &[CredentialSpec { name: "api_key", env: "COMMS_EMAIL_API_KEY", secret: true }],
///     auth: &[
///         AuthScheme::Bearer { credential: "api_key" },
///         AuthScheme::Query { param: "api_key", credential: "api_key" },
///     ],
///     rate_limit: Some(RateLimitSpec { requests: 1000, per_seconds: 60 }),
///     rate_limit_headers: RateLimitHeaders::STANDARD,
///     retry: RetrySpec::DEFAULT,
///     timeouts: TimeoutSpec::DEFAULT,
///     idempotency: Some(IdempotencySpec { header: "Idempotency-Key", max_len: 256 }),
///     errors: ErrorSpec::DEFAULT,
/// };
/// assert_eq!(EMAIL.name, "email");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServiceSpec {
    /// Short machine name, e.g. `"email"`; used in tracing spans.
    pub name: &'static str,
    /// Human title, e.g. `"Email service"`.
    pub title: &'static str,
    /// Default base URL; `None` when the spec shows none and the user must give one.
    pub base_url: Option<&'static str>,
    /// Environment variable that overrides (or supplies) the base URL.
    pub base_url_env: &'static str,
    /// Credentials the service knows about.
    pub credentials: &'static [CredentialSpec],
    /// Auth schemes in preference order; the first one that is not [`AuthScheme::Query`] is the
    /// default.
    pub auth: &'static [AuthScheme],
    /// Client-side rate limit; `None` for no limit.
    pub rate_limit: Option<RateLimitSpec>,
    /// Names of the response headers that report rate-limit state.
    pub rate_limit_headers: RateLimitHeaders,
    /// Retry policy defaults.
    pub retry: RetrySpec,
    /// Timeout defaults.
    pub timeouts: TimeoutSpec,
    /// How idempotency keys are sent, when the service supports them.
    pub idempotency: Option<IdempotencySpec>,
    /// Where an error answer's code and message live, and which successful answers are errors.
    pub errors: ErrorSpec,
}

/// One credential: its name (as used by [`AuthScheme`]), the environment variable it is read
/// from, and whether it is a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CredentialSpec {
    /// Name, e.g. `"api_key"` or `"app_id"`.
    pub name: &'static str,
    /// Environment variable read by [`crate::Client::from_env`].
    pub env: &'static str,
    /// Secret credentials are never logged and never returned by
    /// [`crate::Client::credential_value`].
    pub secret: bool,
}

/// How a request is authenticated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthScheme {
    /// `Authorization: Bearer <credential>`
    Bearer {
        /// Credential name.
        credential: &'static str,
    },
    /// `<header>: <prefix><credential>`
    Header {
        /// Header name.
        header: &'static str,
        /// Credential name.
        credential: &'static str,
        /// Text before the credential, e.g. `"App "` for `Authorization: App <key>`.
        prefix: Option<&'static str>,
    },
    /// `?<param>=<credential>` (only when the caller opts in; keys in URLs leak into logs).
    Query {
        /// Query parameter name.
        param: &'static str,
        /// Credential name.
        credential: &'static str,
    },
    /// A request-signing scheme implemented in the runtime.
    Signature {
        /// Which scheme, with the names of the credentials it uses.
        scheme: SigningScheme,
    },
    /// HTTP Basic (RFC 7617): `Authorization: Basic base64(<username>:<password>)`.
    Basic {
        /// Credential sent as the user name (an account id, or the key itself).
        username: &'static str,
        /// Credential sent as the password; `None` sends an empty password (key-as-username).
        password: Option<&'static str>,
    },
    /// Credentials as top-level fields of the request body (a JSON object, or a
    /// `application/x-www-form-urlencoded` form), all sent together.
    Body {
        /// `(body field, credential name)` pairs, e.g. `[("api_key", "api_key"),
        /// ("api_secret", "api_secret")]`; never empty in a checked spec.
        fields: &'static [(&'static str, &'static str)],
    },
    /// A token the application mints (a signed JWT ...), sent as `<header>: <prefix><token>`.
    /// The minter is registered on the builder under `minter`
    /// ([`crate::ClientBuilder::token_minter`]) and asked once per attempt.
    Minted {
        /// The name the minter is registered under, e.g. `"jwt"`.
        minter: &'static str,
        /// Header name, e.g. `"Authorization"`.
        header: &'static str,
        /// Text before the token, e.g. `"Bearer "`.
        prefix: Option<&'static str>,
    },
    /// OAuth 2.0 client credentials (RFC 6749 section 4.4): an access token fetched from
    /// `token_url` with the client id and secret (HTTP Basic), sent as
    /// `Authorization: Bearer <token>`; cached per client (clones share it), fetched again
    /// shortly before it expires and after a 401 (the call then tries once more). See
    /// [`crate::oauth2`].
    OAuth2ClientCredentials {
        /// The token endpoint: an absolute URL, or a path resolved against the base URL.
        token_url: &'static str,
        /// Credential holding the client id.
        client_id: &'static str,
        /// Credential holding the client secret.
        client_secret: &'static str,
        /// Scopes asked for (`scope`, space-separated); empty: none asked.
        scopes: &'static [&'static str],
    },
}

/// Request-signing schemes implemented by the runtime (see [`crate::sign`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SigningScheme {
    /// Pusher Channels HTTP API signing, `auth_version=1.0`. Fields are credential names.
    PusherHmacSha256 {
        /// Credential holding the app id (not secret).
        app_id: &'static str,
        /// Credential holding the app key (not secret; sent as `auth_key`).
        key: &'static str,
        /// Credential holding the app secret.
        secret: &'static str,
    },
}

/// Where an error body keeps its code and message, and which successful answers carry an
/// error. Paths are dot paths into the JSON body: `error.code`, `code`, `errors.0.message` (a
/// number indexes an array, so `0.code` reads the first element of a top-level array).
///
/// ```
/// use tidings_runtime::{ApiError, ErrorSpec};
///
/// static TWILIO_LIKE: ErrorSpec =
///     ErrorSpec { code: Some("code"), message: Some("message"), in_success: None };
/// let api = ApiError::from_body(404, None, br#"{"code": 20404, "message": "not found"}"#, &TWILIO_LIKE);
/// assert_eq!(api.code.as_deref(), Some("20404"));
/// assert_eq!(api.message.as_deref(), Some("not found"));
/// ```
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
        code: Some("error.code"),
        message: Some("error.message"),
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

/// A request rate: `requests` per `per_seconds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimitSpec {
    /// Requests allowed per window.
    pub requests: u32,
    /// Window length in seconds.
    pub per_seconds: u32,
}

/// Names of the response headers that report rate-limit state (`None`: not reported).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimitHeaders {
    /// e.g. `X-RateLimit-Limit`.
    pub limit: Option<&'static str>,
    /// e.g. `X-RateLimit-Remaining`.
    pub remaining: Option<&'static str>,
    /// e.g. `X-RateLimit-Reset` (seconds until the window resets).
    pub reset: Option<&'static str>,
    /// e.g. `Retry-After` (seconds or an HTTP date).
    pub retry_after: Option<&'static str>,
}

impl RateLimitHeaders {
    /// The `X-RateLimit-*` family plus `Retry-After`.
    pub const STANDARD: RateLimitHeaders = RateLimitHeaders {
        limit: Some("x-ratelimit-limit"),
        remaining: Some("x-ratelimit-remaining"),
        reset: Some("x-ratelimit-reset"),
        retry_after: Some("retry-after"),
    };
    /// No rate-limit headers.
    pub const NONE: RateLimitHeaders = RateLimitHeaders {
        limit: None,
        remaining: None,
        reset: None,
        retry_after: None,
    };
}

/// Retry policy defaults of a service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetrySpec {
    /// Total attempts, including the first (1 means no retry).
    pub max_attempts: u32,
    /// Backoff base in milliseconds.
    pub base_ms: u64,
    /// Backoff cap in milliseconds.
    pub cap_ms: u64,
    /// HTTP statuses that are retried.
    pub statuses: &'static [u16],
    /// Retry connection failures.
    pub connect_errors: bool,
    /// Retry attempts that timed out.
    pub timeouts: bool,
    /// Upper bound on a server-requested wait (`Retry-After`, `retry-after-ms`).
    pub retry_after_cap_ms: u64,
    /// Retry budget: each first attempt earns this percentage of one retry (0 disables the
    /// budget).
    pub budget_ratio_percent: u32,
}

impl RetrySpec {
    /// The defaults from `PROTOCOLS.md`: 3 attempts, 0.5 s base, 8 s cap, 60 s `Retry-After` cap,
    /// statuses 408, 429, 500, 502, 503, 504, a 20 % budget.
    pub const DEFAULT: RetrySpec = RetrySpec {
        max_attempts: 3,
        base_ms: 500,
        cap_ms: 8_000,
        statuses: &[408, 429, 500, 502, 503, 504],
        connect_errors: true,
        timeouts: true,
        retry_after_cap_ms: 60_000,
        budget_ratio_percent: 20,
    };
}

/// Timeout defaults of a service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeoutSpec {
    /// Connect timeout in milliseconds.
    pub connect_ms: u64,
    /// Per-attempt timeout in milliseconds (sending the request and reading the whole response).
    pub attempt_ms: u64,
    /// Deadline for the whole call, retries included. `None`: the runtime's default,
    /// [`crate::DEFAULT_TOTAL_TIMEOUT`] (30 s); only a caller can switch the deadline off
    /// ([`crate::ClientBuilder::total_timeout`] with `None`).
    pub total_ms: Option<u64>,
}

impl TimeoutSpec {
    /// Connect 3 s, per attempt 60 s, the runtime's default total deadline (30 s).
    pub const DEFAULT: TimeoutSpec = TimeoutSpec {
        connect_ms: 3_000,
        attempt_ms: 60_000,
        total_ms: None,
    };
}

/// How large a response body the client reads. Not yet a field of [`ServiceSpec`] (the
/// generator does not emit it): clients start from [`ResponseLimitSpec::DEFAULT`], and a spec
/// that carries its own limits can hand them to the runtime the same way later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResponseLimitSpec {
    /// Largest body of a successful (2xx) answer, in bytes; a larger one is an
    /// [`crate::Error::ResponseTooLarge`].
    pub max_body_bytes: u64,
    /// How much of an error answer's body is read, in bytes; the rest is not read and the
    /// error says so ([`crate::ApiError::body_truncated`]).
    pub max_error_body_bytes: u64,
}

impl ResponseLimitSpec {
    /// 16 MiB for a successful answer, 64 KiB of an error answer.
    pub const DEFAULT: ResponseLimitSpec = ResponseLimitSpec {
        max_body_bytes: 16 * 1024 * 1024,
        max_error_body_bytes: 64 * 1024,
    };
}

/// How idempotency keys are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdempotencySpec {
    /// Header name, e.g. `Idempotency-Key`.
    pub header: &'static str,
    /// Longest key the server accepts.
    pub max_len: usize,
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
    /// one is an [`Error::InvalidRequest`](crate::Error) before sending, and a 413 from the
    /// sandbox. `None`: no limit of its own.
    pub max_body_bytes: Option<usize>,
    /// How its body is encoded: JSON unless the spec says form or multipart.
    pub body_encoding: BodyEncoding,
    /// Its own error bodies by status, searched in order (the first whose statuses hold the
    /// answer's); an error answer none of them covers is read as the service's
    /// [`ErrorSpec`] says. Empty: every error answer is the service's.
    pub errors: &'static [ErrorBodySpec],
}

/// The error body of one operation's answers whose status lies in `statuses` (both ends
/// included): where its code and message are, and which documented response headers carry
/// error details ([`crate::ApiError::header`]).
///
/// ```
/// use tidings_runtime::{ErrorBodySpec, OperationSpec};
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
            errors: &[],
        }
    }

    /// The same operation, its error answers read as `errors` say (the first entry whose
    /// statuses hold the answer's; the service's [`ErrorSpec`] for the others).
    pub const fn with_errors(mut self, errors: &'static [ErrorBodySpec]) -> Self {
        self.errors = errors;
        self
    }

    /// This operation's own error body for an answer with `status`, if it has one.
    pub fn error_body(&self, status: u16) -> Option<&'static ErrorBodySpec> {
        self.errors
            .iter()
            .find(|e| (e.statuses.0..=e.statuses.1).contains(&status))
    }

    /// A `GET` operation: safe to repeat, no body.
    ///
    /// ```
    /// use tidings_runtime::{OperationSpec, RetryClass};
    ///
    /// static GET_EMAIL: OperationSpec = OperationSpec::get("get_email", "/v1/emails/{id}");
    /// static SEND_EMAIL: OperationSpec =
    ///     OperationSpec::post("send_email", "/v1/emails").idempotency_key();
    /// assert_eq!(GET_EMAIL.retry, RetryClass::Safe);
    /// assert_eq!(SEND_EMAIL.retry, RetryClass::IdempotencyKey);
    /// assert!(SEND_EMAIL.has_body && !GET_EMAIL.has_body);
    /// ```
    pub const fn get(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::GET, path, true, false)
    }

    /// A `HEAD` operation: safe to repeat, no body.
    pub const fn head(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::HEAD, path, true, false)
    }

    /// A `DELETE` operation: safe to repeat, no body.
    pub const fn delete(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::DELETE, path, true, false)
    }

    /// A `PUT` operation: safe to repeat, with a JSON body.
    pub const fn put(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::PUT, path, true, true)
    }

    /// A `POST` operation: never sent twice, with a JSON body.
    pub const fn post(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::POST, path, false, true)
    }

    /// A `PATCH` operation: never sent twice, with a JSON body.
    pub const fn patch(name: &'static str, path: &'static str) -> Self {
        Self::of(name, Method::PATCH, path, false, true)
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

    /// The same operation, sent with `auth` instead of the client's scheme.
    pub const fn with_auth(mut self, auth: AuthScheme) -> Self {
        self.auth = Some(auth);
        self
    }

    /// The same operation, whose encoded body may be at most `max` bytes.
    ///
    /// ```
    /// use tidings_runtime::OperationSpec;
    ///
    /// static SEND: OperationSpec = OperationSpec::post("send", "/v1/send").max_body_bytes(16);
    /// let err = SEND.request().json(&"a string longer than sixteen bytes").unwrap_err();
    /// assert!(err.to_string().contains("16"));
    /// ```
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

/// How a list operation pages: where its items live and how the next page is found.
///
/// ```
/// use tidings_runtime::{PaginationSpec, PageStyle};
///
/// // Twilio-like: the items under `messages`, the next page's URL under `next_page_uri`.
/// static MESSAGES: PaginationSpec =
///     PaginationSpec { items: "messages", style: PageStyle::NextUrl { next_field: "next_page_uri" } };
/// // Today's cursor style: `after=<id of the last item>` while `has_more` is true.
/// static EMAILS: PaginationSpec = PaginationSpec::cursor("data", "has_more", "id", "after");
/// assert_eq!(EMAILS.items, "data");
/// # let _ = MESSAGES;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaginationSpec {
    /// Dot path of the page's item array, e.g. `"data"` or `"result.items"`; empty when the
    /// page is the array itself (a bare array paged by the `Link` header).
    pub items: &'static str,
    /// How the next page is found.
    pub style: PageStyle,
}

impl PaginationSpec {
    /// The cursor style: `after_param=<cursor_field of the last item>` while `has_more` is true.
    pub const fn cursor(
        items: &'static str,
        has_more: &'static str,
        cursor_field: &'static str,
        after_param: &'static str,
    ) -> Self {
        PaginationSpec {
            items,
            style: PageStyle::Cursor {
                has_more,
                cursor_field,
                after_param,
            },
        }
    }
}

/// How the next page of a list is found. Every field that names a place in the page body is a
/// dot path (`meta.next_page_token`, `_metadata.next`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageStyle {
    /// `after_param=<cursor_field of the last item>` while the boolean `has_more` is true.
    Cursor {
        /// Boolean field saying whether more pages follow, e.g. `"has_more"`.
        has_more: &'static str,
        /// Field of an item used as the next cursor, e.g. `"id"`.
        cursor_field: &'static str,
        /// Query parameter carrying the cursor, e.g. `"after"`.
        after_param: &'static str,
    },
    /// `token_param=<token_field>` until the token is absent, `null` or empty.
    Token {
        /// Where the next page's token is, e.g. `"meta.next_page_token"`.
        token_field: &'static str,
        /// Query parameter carrying it, e.g. `"PageToken"`.
        token_param: &'static str,
    },
    /// A GET of the URL at `next_field` (relative to the base URL, or absolute on the base
    /// URL's origin) until it is absent, `null` or empty.
    NextUrl {
        /// Where the next page's URL is, e.g. `"next_page_uri"` or `"_metadata.next"`.
        next_field: &'static str,
    },
    /// A GET of the `Link: <...>; rel="next"` header's URL (RFC 8288) until there is none.
    LinkHeader,
    /// `offset_param=<items so far>` until a page is empty or the total is reached.
    Offset {
        /// Query parameter with the offset of the first item, e.g. `"offset"`.
        offset_param: &'static str,
        /// Query parameter with the page size, e.g. `"count"`; a page shorter than the size
        /// the request asked for is the last.
        limit_param: Option<&'static str>,
        /// Where the total number of items is, e.g. `"total"`.
        total_field: Option<&'static str>,
    },
    /// `page_param=<n>` counting from `first_page` until a page is empty or short, or the
    /// last page by `total_pages_field` was read.
    Page {
        /// Query parameter with the page number, e.g. `"page"`.
        page_param: &'static str,
        /// Query parameter with the page size, e.g. `"page_size"`.
        size_param: Option<&'static str>,
        /// Number of the first page: 0 or 1.
        first_page: u64,
        /// Where the number of pages is, e.g. `"total_pages"`.
        total_pages_field: Option<&'static str>,
    },
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
pub enum ArrayStyle {
    /// `To=a&To=b`.
    Repeat,
    /// `To[]=a&To[]=b`.
    Brackets,
    /// `To[0]=a&To[1]=b`.
    Indexed,
    /// `To=a,b` (items that are scalars only).
    Comma,
}

/// How a form body names a nested field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NestedStyle {
    /// `a[b]=1`.
    Brackets,
    /// `a.b=1`.
    Dots,
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
