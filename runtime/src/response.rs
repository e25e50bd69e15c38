//! [`Response`] and reading an answer: the body streamed up to its limit, then turned into a
//! [`Response`] (2xx) or the [`Error`] it stands for (the error body parsed into an
//! [`ApiError`]). Header values are read by [`crate::headers`].

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use reqwest::header::HeaderMap;
use serde::de::DeserializeOwned;

use crate::Error;
use crate::error::{ApiError, DecodeError, MESSAGE_LIMIT, TooLarge, bounded_text, excerpt};
use crate::options::BodyLimits;
use crate::spec::{ErrorBodySpec, ErrorSpec, FailureWhen, OperationSpec};

/// A successful (2xx) answer, body read in full.
pub struct Response {
    status: u16,
    headers: HeaderMap,
    body: Bytes,
    request_id: Option<String>,
    /// The service and operation that answered, named in a decode error.
    origin: Option<(&'static str, &'static OperationSpec)>,
}

impl fmt::Debug for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Response")
            .field("status", &self.status)
            .field("request_id", &self.request_id)
            .field("body_len", &self.body.len())
            .finish_non_exhaustive()
    }
}

impl Response {
    /// Decodes the body as JSON. An empty body decodes as JSON `null` (so `()` and `Option`
    /// work for 204s). Fails with [`Error::Decode`] carrying a body excerpt.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, Error> {
        let body: &[u8] = if self.body.iter().all(u8::is_ascii_whitespace) {
            b"null"
        } else {
            &self.body
        };
        serde_json::from_slice(body).map_err(|e| {
            let message = match self.origin {
                Some((service, op)) => format!(
                    "the answer to {service}.{} ({} {}) is not what the spec describes: {e}",
                    op.name, op.method, op.path
                ),
                None => e.to_string(),
            };
            Error::Decode(Box::new(DecodeError {
                message: bounded_text(&message, MESSAGE_LIMIT),
                status: Some(self.status),
                request_id: self.request_id.clone(),
                body_excerpt: excerpt(&self.body),
            }))
        })
    }

    /// HTTP status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The `x-request-id` header, when present.
    pub fn request_id(&self) -> Option<&str> {
        self.request_id.as_deref()
    }

    /// Response headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The headers, the rest dropped.
    pub(crate) fn into_headers(self) -> HeaderMap {
        self.headers
    }

    /// The raw body.
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The body as text (lossy UTF-8), for services that answer in plain text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One attempt's answer, body read up to its limit.
pub(crate) struct RawResponse {
    pub(crate) status: u16,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Body,
}

/// A body as far as it was read.
pub(crate) enum Body {
    /// All of it, within the limit.
    Whole(Bytes),
    /// More than the limit: reading stopped there.
    Over {
        /// The first `limit` bytes when the caller wanted them (error bodies), else empty.
        start: Bytes,
        /// The `Content-Length` that alone refused the body (nothing read), if that was it.
        declared: Option<u64>,
    },
}

impl RawResponse {
    /// Whether the status is 2xx.
    pub(crate) fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The answer as a [`Response`] (a 2xx whose body fit `success_limit`), or the error it
    /// stands for: [`Error::ResponseTooLarge`], the error status classified by
    /// [`Error::from_status`] with the server's `wait`, or an [`Error::Api`] for a 2xx whose
    /// body says it failed (`errors.in_success`). Code and message are read where `errors`
    /// says.
    pub(crate) fn into_response(
        self,
        service: &'static str,
        op: &'static OperationSpec,
        success_limit: usize,
        wait: Option<Duration>,
        errors: &'static ErrorSpec,
    ) -> Result<Response, Error> {
        let request_id = crate::headers::request_id(&self.headers);
        match (self.is_success(), self.body) {
            (true, Body::Whole(body)) if errors.in_success.is_some() => {
                if let Some(api) =
                    error_in_success(self.status, request_id.as_deref(), &body, errors)
                {
                    return Err(Error::Api(Box::new(api)));
                }
                Ok(Response {
                    status: self.status,
                    headers: self.headers,
                    body,
                    request_id,
                    origin: Some((service, op)),
                })
            }
            (true, Body::Whole(body)) => Ok(Response {
                status: self.status,
                headers: self.headers,
                body,
                request_id,
                origin: Some((service, op)),
            }),
            (true, Body::Over { declared, .. }) => {
                Err(Error::ResponseTooLarge(Box::new(TooLarge {
                    service,
                    operation: op.name,
                    status: self.status,
                    limit: u64::try_from(success_limit).unwrap_or(u64::MAX),
                    declared,
                    request_id,
                })))
            }
            (false, body) => {
                let (bytes, truncated) = match body {
                    Body::Whole(bytes) => (bytes, false),
                    Body::Over { start, .. } => (start, true),
                };
                // The operation's own error bodies for this status (its shapes, in order),
                // then the service's.
                let mut paths: Vec<ErrorSpec> = op
                    .error_bodies(self.status)
                    .map(ErrorBodySpec::paths)
                    .collect();
                paths.push(*errors);
                let json = serde_json::from_slice::<serde_json::Value>(&bytes).ok();
                let mut api =
                    ApiError::from_json(self.status, request_id.as_deref(), &bytes, json, &paths);
                api.body_truncated = truncated;
                let names: Vec<&str> = op
                    .error_bodies(self.status)
                    .flat_map(|own| own.headers.iter().copied())
                    .collect();
                if !names.is_empty() {
                    api.headers = error_headers(&self.headers, &names);
                }
                Err(Error::from_status(api, wait))
            }
        }
    }
}

/// The documented error headers (`names`) the answer has, values bounded and escaped.
fn error_headers(headers: &HeaderMap, names: &[&str]) -> Vec<(String, String)> {
    names
        .iter()
        .take(crate::error::MAX_ERROR_HEADERS)
        .filter_map(|name| {
            let value = headers.get(*name)?;
            let text = String::from_utf8_lossy(value.as_bytes());
            Some((
                (*name).to_owned(),
                bounded_text(&text, crate::error::ID_LIMIT),
            ))
        })
        .collect()
}

/// The error a successful answer carries, when the spec's `in_success` test says it failed:
/// code and message read as for an error answer. `None` for a body that is not JSON or passes.
fn error_in_success(
    status: u16,
    request_id: Option<&str>,
    body: &[u8],
    errors: &ErrorSpec,
) -> Option<ApiError> {
    let test = errors.in_success?;
    let json: serde_json::Value = serde_json::from_slice(body).ok()?;
    let failed = match (crate::error::json_at(&json, test.field), test.when) {
        (None | Some(serde_json::Value::Null), _) => false,
        (Some(_), FailureWhen::Present) => true,
        (Some(value), FailureWhen::Equals(values)) => {
            crate::error::scalar_text(value).is_some_and(|text| values.iter().any(|v| *v == text))
        }
    };
    failed.then(|| {
        ApiError::from_json(
            status,
            request_id,
            body,
            Some(json),
            std::slice::from_ref(errors),
        )
    })
}

/// Sends `request` and reads the answer up to `limits`. The request is handed to reqwest now
/// (it only queues it), so the future holds reqwest's small pending handle rather than the
/// request. It is boxed (about 400 bytes, from the allocator's per-thread cache): that keeps
/// the call's own boxed future under the size the allocator serves from that cache too, and
/// each copy of the enclosing futures smaller.
pub(crate) fn send(
    http: &reqwest::Client,
    request: reqwest::Request,
    limits: BodyLimits,
) -> Pin<Box<impl Future<Output = Result<RawResponse, reqwest::Error>> + Send + use<>>> {
    let pending = http.execute(request);
    Box::pin(async move {
        let mut response = pending.await?;
        let status = response.status().as_u16();
        let (limit, keep_start) = if (200..300).contains(&status) {
            (limits.success, false)
        } else {
            (limits.error, true)
        };
        let body = read_body(&mut response, limit, keep_start).await?;
        // Taken after the body, so the future does not hold a second header map meanwhile.
        let headers = std::mem::take(response.headers_mut());
        Ok(RawResponse {
            status,
            headers,
            body,
        })
    })
}

/// Reads the body chunk by chunk, holding at most `limit` bytes. A declared `Content-Length`
/// over the limit refuses the body before reading, unless `keep_start` asks for its first
/// `limit` bytes (error bodies). A body that arrives in one chunk is returned without a copy.
async fn read_body(
    response: &mut reqwest::Response,
    limit: usize,
    keep_start: bool,
) -> Result<Body, reqwest::Error> {
    let declared = response.content_length();
    let over_declared = declared.filter(|&n| n > u64::try_from(limit).unwrap_or(u64::MAX));
    if over_declared.is_some() && !keep_start {
        return Ok(Body::Over {
            start: Bytes::new(),
            declared: over_declared,
        });
    }
    let over = |start: Bytes| Body::Over {
        start: if keep_start { start } else { Bytes::new() },
        declared: None,
    };
    let Some(first) = response.chunk().await? else {
        return Ok(Body::Whole(Bytes::new()));
    };
    if first.len() > limit {
        return Ok(over(first.slice(..limit)));
    }
    let Some(second) = response.chunk().await? else {
        return Ok(Body::Whole(first));
    };
    // Several chunks: gather them, growing the buffer only up to the limit.
    let hint = declared.map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let mut buf = Vec::with_capacity(hint.max(first.len() + second.len()).min(limit));
    buf.extend_from_slice(&first);
    drop(first);
    let mut chunk = second;
    loop {
        let room = limit - buf.len();
        if chunk.len() > room {
            if !keep_start {
                return Ok(over(Bytes::new()));
            }
            buf.extend_from_slice(&chunk[..room]);
            return Ok(over(Bytes::from(buf)));
        }
        let needed = buf.len() + chunk.len();
        if needed > buf.capacity() {
            let target = needed.max(buf.capacity().saturating_mul(2)).min(limit);
            buf.reserve_exact(target - buf.len());
        }
        buf.extend_from_slice(&chunk);
        chunk = match response.chunk().await? {
            Some(chunk) => chunk,
            None => return Ok(Body::Whole(Bytes::from(buf))),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn response_json_decode_error_keeps_excerpt() {
        let response = Response {
            status: 200,
            headers: HeaderMap::new(),
            body: Bytes::from_static(b"<html>oops</html>"),
            request_id: Some("req_1".into()),
            origin: None,
        };
        let err = response.json::<serde_json::Value>().expect_err("not json");
        assert_eq!(err.kind(), ErrorKind::Decode);
        assert_eq!(err.request_id(), Some("req_1"));
        assert!(err.to_string().contains("<html>oops"));
        let empty = Response {
            status: 204,
            headers: HeaderMap::new(),
            body: Bytes::new(),
            request_id: None,
            origin: None,
        };
        empty.json::<()>().expect("empty body is null");
    }

    static IN_SUCCESS_PRESENT: ErrorSpec = ErrorSpec {
        code: Some("error.code"),
        message: Some("error.message"),
        in_success: Some(crate::spec::InSuccessSpec {
            field: "error",
            when: FailureWhen::Present,
        }),
    };

    #[test]
    fn present_means_there_and_not_null() {
        let failed = br#"{"error":{"code":"E1","message":"m"}}"#;
        let api = error_in_success(200, None, failed, &IN_SUCCESS_PRESENT).expect("fails");
        assert_eq!(api.code.as_deref(), Some("E1"));
        for ok in [
            &br#"{"error":null}"#[..],
            br#"{"id":1}"#,
            b"not json",
            b"[]",
        ] {
            assert!(error_in_success(200, None, ok, &IN_SUCCESS_PRESENT).is_none());
        }
    }

    #[test]
    fn an_error_in_a_large_success_body_keeps_no_decoded_body() {
        let padding = "p".repeat(crate::error::BODY_JSON_LIMIT);
        let body = format!(r#"{{"error":{{"code":"E1","message":"m"}},"pad":"{padding}"}}"#);
        let api = error_in_success(200, None, body.as_bytes(), &IN_SUCCESS_PRESENT).expect("fails");
        assert_eq!(api.code.as_deref(), Some("E1"));
        assert!(api.body.is_none());
        assert!(api.body_excerpt.len() <= crate::error::EXCERPT_LIMIT + '…'.len_utf8());
    }
}
