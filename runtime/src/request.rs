//! [`Request`]: what generated code fills in for one call (operation, path parameters, query,
//! JSON body), and how its path template is rendered into a URL path.

use bytes::Bytes;
use serde::Serialize;

use crate::Error;
use crate::spec::OperationSpec;
use crate::validate::{Validate, Validator};

/// What generated code fills in for one call: the operation, path parameters, query and body.
#[derive(Debug, Clone)]
pub struct Request {
    pub(crate) op: &'static OperationSpec,
    pub(crate) path_params: Vec<(&'static str, String)>,
    pub(crate) query: Vec<(String, String)>,
    pub(crate) body: Option<Bytes>,
    /// The body's media type when it is not JSON (form, multipart).
    pub(crate) content_type: Option<String>,
    /// A path (and base-relative) that replaces the operation's template: the next page's URL.
    pub(crate) path_override: Option<String>,
    /// Header parameters of the operation (`headers:` in the spec).
    pub(crate) headers: Vec<(reqwest::header::HeaderName, reqwest::header::HeaderValue)>,
}

impl Request {
    /// An empty request for `op`; an operation that carries a body starts with `{}`.
    pub fn new(op: &'static OperationSpec) -> Request {
        Request {
            op,
            path_params: Vec::new(),
            query: Vec::new(),
            body: op.has_body.then(|| Bytes::from_static(b"{}")),
            content_type: None,
            path_override: None,
            headers: Vec::new(),
        }
    }

    /// The operation.
    pub fn operation(&self) -> &'static OperationSpec {
        self.op
    }

    /// Sets a path parameter; it is percent-encoded into its segment. Missing, empty, unknown
    /// or dot-segment parameters make [`Client::execute`](crate::Client::execute) fail with [`Error::InvalidRequest`].
    #[must_use]
    pub fn path_param(mut self, name: &'static str, value: &str) -> Request {
        self.path_params.push((name, value.to_owned()));
        self
    }

    /// Adds query parameters from a serialisable struct or map (`None` fields skipped; a list
    /// is one pair per item, see [`crate::query::encode`]).
    ///
    /// ```
    /// # use tidings_runtime::*;
    /// # use tidings_runtime::spec::*;
    /// # static LIST: OperationSpec = OperationSpec::get("list_emails", "/v1/emails");
    /// #[derive(serde::Serialize)]
    /// struct ListQuery { limit: Option<u32>, after: Option<String> }
    /// let request = tidings_runtime::Request::new(&LIST).query(&ListQuery { limit: Some(10), after: None })?;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn query<Q: Serialize + ?Sized>(mut self, query: &Q) -> Result<Request, Error> {
        self.query.extend(crate::query::encode("query", query)?);
        Ok(self)
    }

    /// Adds header parameters from a serialisable struct (`None` fields skipped): each field is
    /// one header, named by its wire name. A name or value that is not a valid header is an
    /// [`Error::InvalidRequest`] naming it, and nothing is sent.
    pub fn header_params<H: Serialize + ?Sized>(mut self, headers: &H) -> Result<Request, Error> {
        for (name, value) in crate::query::encode("headers", headers)? {
            let header = reqwest::header::HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| Error::invalid_request(name.clone(), "is not a header name"))?;
            let value = reqwest::header::HeaderValue::from_str(&value)
                .map_err(|_| Error::invalid_request(name.clone(), "is not a valid header value"))?;
            self.headers.push((header, value));
        }
        Ok(self)
    }

    /// [`Self::query`] after checking the parameters' limits ([`Validator::check`]): a query
    /// that breaks them is an [`Error::InvalidRequest`] and nothing is sent.
    pub fn checked_query<Q: Serialize + Validate + ?Sized>(
        self,
        query: &Q,
    ) -> Result<Request, Error> {
        Validator::check(query)?;
        self.query(query)
    }

    /// [`Self::header_params`] after checking the parameters' limits ([`Validator::check`]).
    pub fn checked_header_params<H: Serialize + Validate + ?Sized>(
        self,
        headers: &H,
    ) -> Result<Request, Error> {
        Validator::check(headers)?;
        self.header_params(headers)
    }

    /// Checks that the JSON body's top-level `field` is the text `value`: what selects this
    /// operation among several on one method and path (`when` in the spec). Anything else is an
    /// [`Error::InvalidRequest`] naming the field, and nothing is sent.
    pub fn body_selects(self, field: &'static str, value: &'static str) -> Result<Request, Error> {
        let found = self
            .body
            .as_deref()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(b).ok())
            .and_then(|v| v.get(field).and_then(|f| f.as_str().map(str::to_owned)));
        if found.as_deref() == Some(value) {
            Ok(self)
        } else {
            Err(Error::invalid_request(
                field,
                format!("must be `{value}` for `{}`", self.op.name),
            ))
        }
    }

    /// Sets a query parameter, replacing any earlier value.
    pub(crate) fn set_query_param(&mut self, name: &str, value: &str) {
        self.query.retain(|(k, _)| k != name);
        self.query.push((name.to_owned(), value.to_owned()));
    }

    /// Sets the JSON body; it is serialised once and reused on every attempt. An operation
    /// that carries a body but is given none sends `{}`.
    pub fn json<B: Serialize + ?Sized>(mut self, body: &B) -> Result<Request, Error> {
        let bytes = serde_json::to_vec(body)
            .map_err(|e| Error::invalid_request("body", format!("cannot be serialised ({e})")))?;
        if let Some(max) = self.op.max_body_bytes
            && bytes.len() > max
        {
            return Err(Error::invalid_request(
                "body",
                format!(
                    "is {} bytes, more than the {max} the service accepts",
                    bytes.len()
                ),
            ));
        }
        self.body = Some(Bytes::from(bytes));
        self.content_type = None;
        Ok(self)
    }

    /// [`Self::json`] after the checks the spec gives for the body ([`Validator::check`]): a
    /// body that breaks them is an [`Error::InvalidRequest`] and nothing is sent.
    pub fn checked_json<B: Serialize + Validate + ?Sized>(
        self,
        body: &B,
    ) -> Result<Request, Error> {
        Validator::check(body)?;
        self.json(body)
    }
}

impl Request {
    /// Sets an `application/x-www-form-urlencoded` body, arrays and nested fields written in
    /// `style` ([`crate::form::encode`]).
    ///
    /// ```
    /// # use tidings_runtime::*;
    /// # use tidings_runtime::spec::*;
    /// # static SEND: OperationSpec = OperationSpec::post("create_message", "/Messages.json");
    /// let body = serde_json::json!({"To": "+15558675310", "MediaUrl": ["a", "b"]});
    /// let request = tidings_runtime::Request::new(&SEND).form(&body, FormStyle::DEFAULT)?;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn form<B: Serialize + ?Sized>(
        mut self,
        body: &B,
        style: crate::spec::FormStyle,
    ) -> Result<Request, Error> {
        let text = crate::form::encode(body, style)?;
        self.body = Some(Bytes::from(text));
        self.content_type = Some("application/x-www-form-urlencoded".to_owned());
        Ok(self)
    }

    /// [`Self::form`] after the body's checks ([`Validator::check`]).
    pub fn checked_form<B: Serialize + Validate + ?Sized>(
        self,
        body: &B,
        style: crate::spec::FormStyle,
    ) -> Result<Request, Error> {
        Validator::check(body)?;
        self.form(body, style)
    }

    /// Sets a `multipart/form-data` body ([`crate::form::multipart`]): a part per field, a
    /// file part per [`crate::form::FilePart`].
    pub fn multipart<B: Serialize + ?Sized>(
        mut self,
        body: &B,
        style: crate::spec::FormStyle,
    ) -> Result<Request, Error> {
        let (bytes, content_type) = crate::form::multipart(body, style)?;
        self.body = Some(Bytes::from(bytes));
        self.content_type = Some(content_type);
        Ok(self)
    }

    /// [`Self::multipart`] after the body's checks ([`Validator::check`]).
    pub fn checked_multipart<B: Serialize + Validate + ?Sized>(
        self,
        body: &B,
        style: crate::spec::FormStyle,
    ) -> Result<Request, Error> {
        Validator::check(body)?;
        self.multipart(body, style)
    }

    /// Sets a binary body: the bytes as they are, sent with their media type (a spec's
    /// `body_encoding: binary`). A media type the operation does not take
    /// ([`OperationSpec::takes_media`]), one that is not a valid header value, or a body over
    /// the operation's size bound is an [`Error::InvalidRequest`] naming the body, and nothing
    /// is sent.
    ///
    /// ```
    /// # use tidings_runtime::*;
    /// # use tidings_runtime::spec::*;
    /// static UPLOAD: OperationSpec = OperationSpec::post("upload_media", "/media")
    ///     .with_body_encoding(BodyEncoding::Binary)
    ///     .with_body_media(&["image/png", "image/jpeg"]);
    /// let png = Binary::new("image/png", b"\x89PNG\r\n\x1a\n".to_vec());
    /// let request = Request::new(&UPLOAD).binary(png)?;
    /// assert_eq!(request.content_type(), "image/png");
    /// let text = Binary::new("text/plain", "hello");
    /// assert!(Request::new(&UPLOAD).binary(text).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn binary(mut self, body: Binary) -> Result<Request, Error> {
        if reqwest::header::HeaderValue::from_str(&body.content_type).is_err()
            || !body.content_type.contains('/')
        {
            return Err(Error::invalid_request(
                "body",
                format!(
                    "has the media type `{}`, which is not a valid `Content-Type`",
                    body.content_type.escape_debug()
                ),
            ));
        }
        if !self.op.takes_media(&body.content_type) {
            return Err(Error::invalid_request(
                "body",
                format!(
                    "has the media type `{}`; `{}` takes {}",
                    body.content_type,
                    self.op.name,
                    self.op.body_media.join(", ")
                ),
            ));
        }
        if let Some(max) = self.op.max_body_bytes
            && body.data.len() > max
        {
            return Err(Error::invalid_request(
                "body",
                format!(
                    "is {} bytes, more than the {max} the service accepts",
                    body.data.len()
                ),
            ));
        }
        self.body = Some(body.data);
        self.content_type = Some(body.content_type);
        Ok(self)
    }

    /// The body's `Content-Type`: JSON unless a form or multipart body was set.
    pub fn content_type(&self) -> &str {
        self.content_type.as_deref().unwrap_or("application/json")
    }

    /// The request body as it will be sent, if any.
    pub fn body(&self) -> Option<&[u8]> {
        self.body.as_deref()
    }
}

/// A request body sent as it is: its bytes and their media type (an upload: a spec's
/// `body_encoding: binary`). Cloning it shares the bytes.
///
/// ```
/// let file = tidings_runtime::Binary::new("application/pdf", std::fs::read("Cargo.toml")?);
/// assert_eq!(file.content_type(), "application/pdf");
/// assert_eq!(format!("{file:?}"), format!("Binary {{ content_type: \"application/pdf\", len: {} }}", file.len()));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Binary {
    content_type: String,
    data: Bytes,
}

impl Binary {
    /// `data` of media type `content_type` (`image/png`, `application/octet-stream`).
    pub fn new(content_type: impl Into<String>, data: impl Into<Bytes>) -> Binary {
        Binary {
            content_type: content_type.into(),
            data: data.into(),
        }
    }

    /// `data` as `application/octet-stream` (bytes of no particular type).
    pub fn octet_stream(data: impl Into<Bytes>) -> Binary {
        Binary::new("application/octet-stream", data)
    }

    /// Its media type.
    pub fn content_type(&self) -> &str {
        &self.content_type
    }

    /// Its bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// How many bytes it has.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether it has no bytes.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// The media type and length, not the bytes (a file can be large, or private).
impl std::fmt::Debug for Binary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Binary")
            .field("content_type", &self.content_type)
            .field("len", &self.data.len())
            .finish()
    }
}

/// Fills a path template, percent-encoding each value as one segment.
pub(crate) fn render_path(
    template: &str,
    params: &[(&'static str, String)],
    out: &mut String,
) -> Result<(), Error> {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or_else(|| {
            Error::invalid_request(
                "path",
                format!("unclosed `{{` in path template `{template}`"),
            )
        })?;
        let name = &after[..close];
        let value = params
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| Error::invalid_request(name, "path parameter is missing"))?;
        if value.is_empty() {
            return Err(Error::invalid_request(
                name,
                "path parameter must not be empty",
            ));
        }
        if value == "." || value == ".." {
            return Err(Error::invalid_request(
                name,
                "path parameter must not be `.` or `..`",
            ));
        }
        percent_encode_segment(value, out);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    let in_template = |name: &str| {
        template.match_indices('{').any(|(i, _)| {
            template[i + 1..]
                .strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('}'))
        })
    };
    if let Some((name, _)) = params.iter().find(|(n, _)| !in_template(n)) {
        return Err(Error::invalid_request(
            *name,
            format!("not a parameter of `{template}`"),
        ));
    }
    Ok(())
}

fn percent_encode_segment(value: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in value.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn params(pairs: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
        pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
    }

    #[test]
    fn path_params_are_encoded_as_one_segment() {
        let mut p = String::from("/base");
        render_path(
            "/v1/emails/{id}/cancel",
            &params(&[("id", "a/b c?")]),
            &mut p,
        )
        .expect("renders");
        assert_eq!(p, "/base/v1/emails/a%2Fb%20c%3F/cancel");
    }

    #[test]
    fn bad_path_params_are_invalid_requests_naming_the_field() {
        for (ps, field) in [
            (params(&[]), "id"),
            (params(&[("id", "")]), "id"),
            (params(&[("id", "..")]), "id"),
            (params(&[("id", "x"), ("other", "y")]), "other"),
        ] {
            let err =
                render_path("/v1/emails/{id}", &ps, &mut String::new()).expect_err("rejected");
            assert_eq!(err.kind(), ErrorKind::InvalidRequest);
            match err {
                Error::InvalidRequest { field: f, .. } => assert_eq!(f, field),
                other => panic!("unexpected {other:?}"),
            }
        }
    }
}
