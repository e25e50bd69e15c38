//! Request bodies that are not JSON (form and multipart, decoded into the client's own request
//! types) and answers that are not a JSON value (text, bytes, optional, a page in a list's
//! pagination style), for the generated server handlers.

use axum::http::HeaderMap;
use axum::http::header::{CONTENT_TYPE, HeaderValue, LINK};
use axum::response::Response;
use bytes::Bytes;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tidings_runtime::spec::{FormStyle, PaginationSpec};
use tidings_runtime::validate::{Validate, Validator};

use super::{
    Incoming, PageWindow, ServerError, StyledPage, page_in_style, page_object_with_window,
};

fn unprocessable(e: &tidings_runtime::Error) -> ServerError {
    // The runtime's decode error reads "decode error: <message>"; the message is what matters.
    let text = e.to_string();
    let message = text.split_once(": ").map_or(text.as_str(), |(_, m)| m);
    ServerError::new(422, "validation_error", format!("invalid body: {message}"))
}

impl Incoming {
    /// Whether the request's body is a form (either encoding), by its `Content-Type`.
    pub(crate) fn sent_a_form(&self) -> bool {
        let content_type = self.context_headers();
        let essence = content_type
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        super::media::is_form_media(&essence)
    }

    /// The form body decoded into `B` (arrays and nested fields in `style`), in whichever
    /// encoding it came, `application/x-www-form-urlencoded` or `multipart/form-data`: a
    /// service that documents one takes both (Mailgun's document says multipart, its own
    /// samples send URL-encoded forms). 415 for another content type, 400 for a malformed
    /// multipart body, 422 when it does not fit the type.
    pub fn form<B: DeserializeOwned>(&self, style: FormStyle) -> Result<B, ServerError> {
        match self.expect_media("multipart/form-data") {
            Ok(content_type) => {
                tidings_runtime::form::decode_multipart(self.raw_body(), &content_type, style)
            }
            Err(_) => {
                self.expect_media("application/x-www-form-urlencoded")?;
                tidings_runtime::form::decode(self.raw_body(), style)
            }
        }
        .map_err(|e| unprocessable(&e))
    }

    /// [`Incoming::form`], then the spec's checks (422 naming the field).
    pub fn form_checked<B: DeserializeOwned + Validate>(
        &self,
        style: FormStyle,
    ) -> Result<B, ServerError> {
        let body: B = self.form(style)?;
        Validator::check(&body)?;
        Ok(body)
    }

    /// The form body decoded into `B`, in either encoding: [`Incoming::form`].
    pub fn multipart<B: DeserializeOwned>(&self, style: FormStyle) -> Result<B, ServerError> {
        self.form(style)
    }

    /// [`Incoming::multipart`], then the spec's checks (422 naming the field).
    pub fn multipart_checked<B: DeserializeOwned + Validate>(
        &self,
        style: FormStyle,
    ) -> Result<B, ServerError> {
        let body: B = self.multipart(style)?;
        Validator::check(&body)?;
        Ok(body)
    }

    /// A binary body: its bytes as they came, with their media type (415 for a type the
    /// operation does not take, or none).
    pub fn binary(&self) -> Result<tidings_runtime::Binary, ServerError> {
        let content_type = self
            .context_headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let op = self.operation();
        if !content_type.contains('/') || !op.takes_media(&content_type) {
            return Err(super::media::unsupported_media(op));
        }
        Ok(tidings_runtime::Binary::new(
            content_type,
            Bytes::copy_from_slice(self.raw_body()),
        ))
    }

    fn expect_media(&self, media: &str) -> Result<String, ServerError> {
        let content_type = self
            .context_headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let essence = content_type.split(';').next().unwrap_or_default().trim();
        if essence.eq_ignore_ascii_case(media) {
            Ok(content_type)
        } else {
            Err(ServerError::new(
                415,
                "unsupported_media_type",
                format!(
                    "`{}` takes a `{media}` body, not `{essence}`",
                    self.operation().name
                ),
            ))
        }
    }

    fn context_headers(&self) -> HeaderMap {
        self.context().headers
    }

    /// Answers `status` with a text body (`text/plain; charset=utf-8`).
    pub fn finish_text(self, result: Result<String, ServerError>, status: u16) -> Response {
        // Empty text is still text (without a type, it would go out as bytes).
        let empty = matches!(&result, Ok(t) if t.is_empty()) && status != 204;
        let mut response = self.finish_encoded(
            result.map(|t| (status, Bytes::from(t))),
            "text/plain; charset=utf-8",
            HeaderMap::new(),
        );
        if empty {
            response.headers_mut().insert(
                CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
        }
        response
    }

    /// Answers `status` with a bytes body (`application/octet-stream`).
    pub fn finish_bytes(self, result: Result<Vec<u8>, ServerError>, status: u16) -> Response {
        self.finish_encoded(
            result.map(|b| (status, Bytes::from(b))),
            "application/octet-stream",
            HeaderMap::new(),
        )
    }

    /// Answers `status` with the JSON body, or `empty_status` with no body for `None`.
    pub fn finish_optional<T: Serialize>(
        self,
        result: Result<Option<T>, ServerError>,
        status: u16,
        empty_status: u16,
    ) -> Response {
        let result = result.and_then(|value| match value {
            None => Ok((empty_status, Bytes::new())),
            Some(value) => serde_json::to_vec(&value)
                .map(|body| (status, Bytes::from(body)))
                .map_err(|e| ServerError::internal(format!("cannot encode the answer: {e}"))),
        });
        self.finish_encoded(result, "application/json", HeaderMap::new())
    }

    /// Answers one page of `items` (the whole list) in `spec`'s pagination style
    /// ([`page_in_style`]), the page size read from `size_param`.
    pub fn finish_page<T: Serialize>(
        self,
        result: Result<Vec<T>, ServerError>,
        spec: &PaginationSpec,
        size_param: Option<&str>,
        status: u16,
    ) -> Response {
        let path = self.request_path();
        let page = result
            .and_then(|items| page_in_style(&items, spec, size_param, self.raw_query(), &path));
        self.finish_styled(page, status)
    }

    /// [`Incoming::finish_page`] of a list answered inside an object: `result` is the whole
    /// object, every item at the pagination's items path ([`page_object_with_window`]). With
    /// `absolute`, next links are absolute URLs on the request's `Host` (a next field whose
    /// format is `uri`), else paths. `complete` finishes the page's body (fills in the
    /// required fields of an object the style's fields were put into, such as a `paging`
    /// object the answer did not have) knowing where the page sits in the list.
    pub fn finish_page_object(
        self,
        result: Result<serde_json::Value, ServerError>,
        spec: &PaginationSpec,
        size_param: Option<&str>,
        status: u16,
        absolute: bool,
        complete: impl FnOnce(serde_json::Value, &PageWindow) -> serde_json::Value,
    ) -> Response {
        let mut path = self.request_path();
        if absolute
            && let Some(host) = self
                .context_headers()
                .get(axum::http::header::HOST)
                .and_then(|h| h.to_str().ok())
        {
            path = format!("http://{host}{path}");
        }
        let page = result.and_then(|answer| {
            page_object_with_window(answer, spec, size_param, self.raw_query(), &path)
        });
        let page = page.map(|(page, window)| StyledPage {
            body: complete(page.body, &window),
            link: page.link,
        });
        self.finish_styled(page, status)
    }

    fn finish_styled(self, page: Result<StyledPage, ServerError>, status: u16) -> Response {
        let mut extra = HeaderMap::new();
        let result = page.and_then(|page| {
            if let Some(link) = page.link
                && let Ok(value) = HeaderValue::from_str(&link)
            {
                extra.insert(LINK, value);
            }
            serde_json::to_vec(&page.body)
                .map(|body| (status, Bytes::from(body)))
                .map_err(|e| ServerError::internal(format!("cannot encode the page: {e}")))
        });
        self.finish_encoded(result, "application/json", extra)
    }

    /// The request's path, for next-page links.
    fn request_path(&self) -> String {
        let op = self.operation();
        let mut path = String::new();
        let mut rest = op.path;
        while let Some(open) = rest.find('{') {
            path.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                break;
            };
            let value: String = self.path_param(&after[..close]).unwrap_or_default();
            path.extend(url::form_urlencoded::byte_serialize(value.as_bytes()));
            rest = &after[close + 1..];
        }
        path.push_str(rest);
        path
    }
}
