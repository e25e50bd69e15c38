//! A served spec's error bodies as its error type has them: every refusal the gateway and the
//! store make (401, 404, 405, 409, 422, 429, 507…) is written with a symbolic code (`not_found`)
//! at the spec's code path and the message at its message path. Two things a provider's type may
//! ask for beyond that:
//!
//! - **a numeric code** (Postmark's `ErrorCode`, Twilio's `code`): the symbolic code becomes
//!   the declared code (`errors.codes`) that comes with the answer's status, preferring the most
//!   specific (the fewest statuses), or the status itself when none is declared for it;
//! - **other required fields** (Twilio's `more_info` and `status`): filled as the store fills
//!   answers, a field named `status` with the HTTP status when it is a number.
//!
//! Applied to the finished response, so every path that refuses a request is covered at once.

use axum::body::Body;
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::response::Response;
use serde_json::{Map, Value};

use crate::server::resources::{ServiceSchema, ShapeSchema, TySchema, fill};

/// Largest error body rewritten (a sandbox's own error bodies are far smaller).
const MAX_ERROR_BODY: usize = 64 * 1024;

/// A numeric code's dot path, and the declared codes: `(status, code, statuses it comes with)`.
type NumericCode = (Vec<String>, Vec<(u16, i64, usize)>);

/// How a served spec's error bodies differ from what the gateway writes.
#[derive(Debug, Default)]
pub(crate) struct ErrorShape {
    /// The code's path and the declared codes `(status, code, statuses it comes with)`, when
    /// the error type's code is an integer.
    numeric_code: Option<NumericCode>,
    /// The error type, when it has required fields besides the code and message.
    filled: Option<TySchema>,
}

/// The type of the field at dot path `path` from the named type `ty`.
fn field_type(schema: &ServiceSchema, ty: &TySchema, path: &[String]) -> Option<TySchema> {
    let Some((first, rest)) = path.split_first() else {
        return Some(*ty);
    };
    let TySchema::Named(name) = ty else {
        return None;
    };
    let ShapeSchema::Object(fields) = schema.named(name)?.shape else {
        return None;
    };
    let field = fields.iter().find(|f| f.name == first)?;
    field_type(schema, &field.ty, rest)
}

impl ErrorShape {
    /// The shape of `service`'s errors, described by `schema`.
    pub(crate) fn of(service: &tidings_codegen::check::Service, schema: &ServiceSchema) -> Self {
        let Some(errors) = &service.errors else {
            return ErrorShape::default();
        };
        let Some(tidings_codegen::check::Ty::Named(name)) = &errors.ty else {
            return ErrorShape::default();
        };
        let Some(named) = schema.named(name.as_str()) else {
            return ErrorShape::default();
        };
        let ty = TySchema::Named(named.name);
        let path = |p: &Option<String>| -> Vec<String> {
            p.as_deref()
                .map(|p| p.split('.').map(str::to_owned).collect())
                .unwrap_or_default()
        };
        let code_path = path(&errors.code);
        let numeric_code = (!code_path.is_empty()
            && field_type(schema, &ty, &code_path) == Some(TySchema::Integer))
        .then(|| {
            let mut codes = Vec::new();
            for (code, info) in &errors.codes {
                if let Ok(n) = code.parse::<i64>() {
                    for status in &info.status {
                        codes.push((*status, n, info.status.len()));
                    }
                }
            }
            (code_path.clone(), codes)
        });
        let message_path = path(&errors.message);
        let others_required = match named.shape {
            ShapeSchema::Object(fields) => fields.iter().any(|f| {
                f.required
                    && code_path.first().map(String::as_str) != Some(f.name)
                    && message_path.first().map(String::as_str) != Some(f.name)
            }),
            _ => false,
        };
        ErrorShape {
            numeric_code,
            filled: others_required.then_some(ty),
        }
    }

    /// Nothing to rewrite.
    pub(crate) fn is_plain(&self) -> bool {
        self.numeric_code.is_none() && self.filled.is_none()
    }

    /// `response` with its error body in the spec's shape (other answers as they are).
    pub(crate) async fn apply(&self, schema: &ServiceSchema, response: Response) -> Response {
        let status = response.status();
        let json = response
            .headers()
            .get(CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
        if self.is_plain() || !(status.is_client_error() || status.is_server_error()) || !json {
            return response;
        }
        let (mut parts, body) = response.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
            return Response::from_parts(parts, Body::empty());
        };
        let Ok(Value::Object(mut object)) = serde_json::from_slice::<Value>(&bytes) else {
            return Response::from_parts(parts, Body::from(bytes));
        };
        if let Some((path, codes)) = &self.numeric_code {
            let code = codes
                .iter()
                .filter(|(s, _, _)| *s == status.as_u16())
                .min_by_key(|(_, _, n)| *n)
                .map_or(i64::from(status.as_u16()), |(_, code, _)| *code);
            set(&mut object, path, Value::from(code));
        }
        if let Some(ty) = &self.filled {
            let given = Value::Object(object.clone());
            if let Value::Object(filled) = fill(schema, ty, Some(&given), 0, None) {
                for (key, value) in filled {
                    object.entry(key.clone()).or_insert_with(|| {
                        // A numeric `status` is the answer's own.
                        if key == "status" && value.is_number() {
                            Value::from(status.as_u16())
                        } else {
                            value
                        }
                    });
                }
            }
        }
        let body = serde_json::to_vec(&Value::Object(object)).unwrap_or_default();
        parts.headers.remove(CONTENT_LENGTH);
        Response::from_parts(parts, Body::from(body))
    }
}

/// Puts `value` at dot path `path` of `object`, making the objects on the way.
fn set(object: &mut Map<String, Value>, path: &[String], value: Value) {
    let Some((last, ancestors)) = path.split_last() else {
        return;
    };
    let mut at = object;
    for key in ancestors {
        let next = at
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if !next.is_object() {
            *next = Value::Object(Map::new());
        }
        let Value::Object(inner) = next else { return };
        at = inner;
    }
    at.insert(last.clone(), value);
}
