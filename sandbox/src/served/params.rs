//! Parameters as the spec types them: a path, header or query parameter's text read as its
//! type and checked against its limits; a query parameter written as JSON text (`style:
//! json`) read as JSON and checked as a body is.

use serde_json::{Map, Value};
use tidings_spec::Owned;

use super::ops::ServedOp;
use super::validate;
use crate::server::resources::{ServiceSchema, Ty};
use crate::server::{Incoming, ServerError};
use tidings_codegen::model::QueryStyle;

/// The query string as the operation's query parameters: typed as declared, a missing
/// required one a 422, a missing one with a `default` that value (a list's page size, a
/// filter). One written as its JSON text (`style: json`) is that JSON, checked as a body is.
pub(super) fn query(
    schema: &ServiceSchema,
    op: &ServedOp,
    incoming: &Incoming,
) -> Result<Map<String, Value>, ServerError> {
    let raw: Map<String, Value> = incoming.query()?;
    let mut out = Map::new();
    for p in &op.info.query {
        // A list written `To[]=a&To[]=b` is read under its name.
        let bracketed = matches!(p.style, Some(QueryStyle::Brackets))
            .then(|| raw.get(&format!("{}[]", p.wire)))
            .flatten();
        let Some(value) = raw.get(&p.wire).or(bracketed) else {
            if p.required && p.from_credential.is_none() {
                return Err(ServerError::validation(
                    p.wire.clone(),
                    format!("query parameter `{}` is required", p.wire),
                ));
            }
            if let Some(default) = &p.default {
                out.insert(p.wire.clone(), default.clone());
            }
            continue;
        };
        if let Some((_, ty)) = op.json_query.iter().find(|(wire, _)| *wire == p.wire) {
            let json = value
                .as_str()
                .and_then(|text| serde_json::from_str::<Value>(text).ok())
                .ok_or_else(|| {
                    ServerError::validation(
                        p.wire.clone(),
                        format!("query parameter `{}` must be JSON text", p.wire),
                    )
                })?;
            // Named as the query's, not the body's.
            validate::check(schema, ty, &json, &p.wire).map_err(|e| {
                let message = e
                    .message()
                    .replacen("invalid body", "invalid query parameter", 1);
                ServerError::validation(e.param().unwrap_or(&p.wire).to_owned(), message)
            })?;
            out.insert(p.wire.clone(), json);
            continue;
        }
        // A list written `To=a,b` (`style: comma`, OpenAPI's `explode: false`): its items.
        let split;
        let value = match (value, &p.style, &p.ty) {
            (Value::String(text), Some(QueryStyle::Comma), Ty::List(_)) => {
                split = Value::Array(
                    text.split(',')
                        .map(|item| Value::String(item.to_owned()))
                        .collect(),
                );
                &split
            }
            _ => value,
        };
        let value = typed(&p.ty, value, &p.wire, "query")?;
        in_range(&value, &p.constraints, &p.wire, "query")?;
        out.insert(p.wire.clone(), value);
    }
    Ok(out)
}

/// The call's path parameters typed and within their limits, as the query's. Text outside
/// its pattern or length (Twilio Verify's `VAnope` for a 34-character `VA...` sid) names
/// nothing held: 404, as the provider answers, unless the operation documents a refusal of
/// input (400 or 422) and no 404.
pub(super) fn path(
    op: &tidings_codegen::check::OperationInfo,
    path: &[(&'static str, String)],
) -> Result<(), ServerError> {
    let documented = |s: u16| op.errors.contains(&s);
    let refuses_input = (documented(400) || documented(422)) && !documented(404);
    for ((name, text), p) in path.iter().zip(&op.path_params) {
        let value = typed(&p.ty, &Value::String(text.clone()), name, "path")?;
        match in_range(&value, &p.constraints, name, "path") {
            Err(e) if !refuses_input && value.is_string() => {
                let why = format!("`{text}` does not exist: {}", e.message());
                return Err(ServerError::new(404, "not_found", why).with_param(*name));
            }
            other => other?,
        }
    }
    Ok(())
}

/// A query or path parameter's number or text within the spec's limits (each item of a
/// list).
pub(super) fn in_range(
    value: &Value,
    limits: &tidings_codegen::check::Constraints,
    name: &str,
    place: &str,
) -> Result<(), ServerError> {
    let fail = |what: String| {
        Err(ServerError::validation(
            name.to_owned(),
            format!("{place} parameter `{name}` {what}"),
        ))
    };
    match value {
        Value::Array(items) => {
            if let Some(max) = limits.max_items.filter(|m| items.len() as u64 > *m) {
                return fail(format!("takes at most {max} values"));
            }
            items
                .iter()
                .try_for_each(|v| in_range(v, limits, name, place))
        }
        Value::Number(n) => match n.as_f64() {
            Some(n) if limits.min.is_some_and(|m| n < m) => fail(format!(
                "must be at least {}",
                limits.min.unwrap_or_default()
            )),
            Some(n) if limits.max.is_some_and(|m| n > m) => fail(format!(
                "must be at most {}",
                limits.max.unwrap_or_default()
            )),
            _ => Ok(()),
        },
        Value::String(text) => {
            let chars = text.chars().count() as u64;
            match (limits.min_len, limits.max_len) {
                (Some(min), _) if chars < min => {
                    fail(format!("must be at least {min} characters long"))
                }
                (_, Some(max)) if chars > max => {
                    fail(format!("must be at most {max} characters long"))
                }
                _ => match &limits.pattern {
                    Some(pattern) if !crate::pattern::matches(pattern, text) => {
                        fail(format!("must match the pattern `{pattern}`"))
                    }
                    _ => Ok(()),
                },
            }
        }
        _ => Ok(()),
    }
}

pub(super) fn typed(
    ty: &Ty<Owned>,
    value: &Value,
    name: &str,
    place: &str,
) -> Result<Value, ServerError> {
    let bad = |what: &str| {
        ServerError::validation(
            name.to_owned(),
            format!("{place} parameter `{name}` must be {what}"),
        )
    };
    let text = match value {
        Value::String(text) => text.as_str(),
        Value::Array(items) => {
            let inner = match ty {
                Ty::List(inner) => inner,
                other => other,
            };
            return items
                .iter()
                .map(|v| typed(inner, v, name, place))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array);
        }
        other => return Ok(other.clone()),
    };
    Ok(match ty {
        Ty::Integer => Value::from(integer(text).ok_or_else(|| bad("an integer"))?),
        Ty::Number => Value::from(text.parse::<f64>().map_err(|_| bad("a number"))?),
        Ty::Boolean => Value::Bool(yes_or_no(text).ok_or_else(|| bad("true or false"))?),
        Ty::List(inner) => Value::Array(vec![typed(inner, value, name, place)?]),
        Ty::DateTime if tidings_runtime::dates::rfc3339_to_unix(text).is_none() => {
            return Err(bad("an RFC 3339 date and time"));
        }
        Ty::Date if !tidings_runtime::dates::is_date(text) => {
            return Err(bad("a date (YYYY-MM-DD)"));
        }
        _ => Value::String(text.to_owned()),
    })
}

/// An integer parameter's text: digits, or a number with a zero fraction that a float holds
/// exactly (`0.0`, `12.0`: integers to JSON Schema, as the body's validation reads them).
pub(super) fn integer(text: &str) -> Option<i64> {
    if let Ok(n) = text.parse::<i64>() {
        return Some(n);
    }
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    let f = text.parse::<f64>().ok()?;
    // Integral and within 2^53, so the cast is exact.
    #[allow(clippy::cast_possible_truncation)]
    (f.is_finite() && f.fract() == 0.0 && f.abs() <= EXACT).then_some(f as i64)
}

/// A yes-or-no sent as text, in a query or a form: `true` and `false` in any case, and the
/// `yes` and `no` some APIs' own clients send (Mailgun's `upsert=yes`, `active=yes`).
pub(super) fn yes_or_no(text: &str) -> Option<bool> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("yes") {
        Some(true)
    } else if text.eq_ignore_ascii_case("false") || text.eq_ignore_ascii_case("no") {
        Some(false)
    } else {
        None
    }
}
