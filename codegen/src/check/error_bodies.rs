//! An operation's own error bodies (`error_bodies:`): the status each is for, its type, the
//! paths to its code and message in that type, and the headers that carry error details.

use crate::model::{ErrorBodies, ErrorBody, Operation};
use crate::resolved::{ErrorBodyInfo, OperationInfo, Ty, TypeInfo};

use super::Checker;
use super::service::path_misfit;

/// Most headers one error body may name (the runtime keeps as many).
const MAX_HEADERS: usize = 16;

/// Most shapes one status's error answer may have.
const MAX_SHAPES: usize = 8;

/// The statuses a key stands for: `"404"`, `"4XX"` (any case), `"default"` (every error
/// status), with its rank (single statuses first, then classes, then `default`).
fn statuses(key: &str) -> Option<((u16, u16), u8)> {
    if key == "default" {
        return Some(((400, 599), 2));
    }
    let bytes = key.as_bytes();
    if bytes.len() == 3 && matches!(bytes[0], b'4' | b'5') && key[1..].eq_ignore_ascii_case("xx") {
        let first = u16::from(bytes[0] - b'0') * 100;
        return Some(((first, first + 99), 1));
    }
    let status: u16 = key.parse().ok().filter(|_| bytes.len() == 3)?;
    (400..=599)
        .contains(&status)
        .then_some(((status, status), 0))
}

/// A dot path as given: `none` for no path, else the path, else the service default.
fn path_or(given: Option<&str>, default: &str) -> Option<String> {
    match given {
        Some("none") => None,
        Some(p) => Some(p.to_owned()),
        None => Some(default.to_owned()),
    }
}

impl Checker<'_> {
    /// One error body (at `at`) of status key `key`, the `shape`-th of its list.
    fn error_body(
        &mut self,
        at: &str,
        key: &str,
        shape: usize,
        range: (u16, u16),
        body: &ErrorBody,
    ) -> ErrorBodyInfo {
        let ty = match &body.ty {
            Some(text) => {
                let text = text.clone();
                self.type_ref(&format!("{at}.type"), &text)
            }
            None => None,
        };
        if body.headers.len() > MAX_HEADERS {
            self.error_at_value(
                &format!("{at}.headers"),
                format!(
                    "{} headers; an error keeps at most {MAX_HEADERS}",
                    body.headers.len()
                ),
            );
        }
        for (i, h) in body.headers.iter().enumerate() {
            if h.is_empty() || !h.bytes().all(super::is_header_name_byte) {
                self.error_at_value(
                    &format!("{at}.headers"),
                    format!("`{h}` is not a header name"),
                );
            } else if body.headers[..i].iter().any(|o| o.eq_ignore_ascii_case(h)) {
                self.error_at_value(
                    &format!("{at}.headers"),
                    format!("header `{h}` is listed twice"),
                );
            }
        }
        let example = match &body.example {
            Some(serde_json::Value::Object(map)) => {
                self.example_keys(&format!("{at}.example"), ty.as_ref(), map);
                Some(map.clone())
            }
            Some(_) => {
                self.error_at_value(
                    &format!("{at}.example"),
                    "an error body's example is a JSON object, as the body is",
                );
                None
            }
            None => None,
        };
        ErrorBodyInfo {
            key: key.to_owned(),
            shape,
            statuses: range,
            ty,
            code: path_or(
                body.code.as_deref(),
                crate::resolved::defaults::ERROR_CODE_PATH,
            ),
            message: path_or(
                body.message.as_deref(),
                crate::resolved::defaults::ERROR_MESSAGE_PATH,
            ),
            headers: body.headers.clone(),
            example,
        }
    }

    /// An error example's keys, each a field of the body's type: the sandbox answers the
    /// example's values, and a key the type lacks would be answered as nothing.
    fn example_keys(
        &mut self,
        at: &str,
        ty: Option<&Ty>,
        example: &serde_json::Map<String, serde_json::Value>,
    ) {
        let Some(Ty::Named(name)) = ty else { return };
        let Some(def) = self.spec.types.get(name) else {
            return;
        };
        let Some(fields) = def.fields.as_ref().filter(|_| !def.keeps_other_keys) else {
            return;
        };
        for key in example.keys().filter(|k| !fields.contains_key(*k)) {
            self.error_at_value(
                at,
                format!("the example's key `{key}` is not a field of `{name}`"),
            );
        }
    }

    /// The `error_bodies` of operation `name` (at `path`), most specific status first (the
    /// shapes of one status in their order).
    pub(super) fn error_bodies(&mut self, path: &str, op: &Operation) -> Vec<ErrorBodyInfo> {
        let mut out: Vec<(u8, ErrorBodyInfo)> = Vec::new();
        for (key, bodies) in &op.error_bodies {
            let Some((range, rank)) = statuses(key) else {
                let d = self.error(
                    &format!("{path}.error_bodies"),
                    format!("`{key}` is not an error status"),
                );
                d.expected = Some(
                    "a status from 400 to 599 (`404`), a class (`4XX`, `5XX`) or `default`".into(),
                );
                continue;
            };
            let shapes = bodies.shapes();
            if shapes.is_empty() || shapes.len() > MAX_SHAPES {
                let d = self.error_at_value(
                    &format!("{path}.error_bodies.{key}"),
                    format!("{} error bodies for `{key}`", shapes.len()),
                );
                d.expected = Some(format!("one to {MAX_SHAPES} shapes, tried in order"));
                continue;
            }
            for (shape, body) in shapes.iter().enumerate() {
                let at = match bodies {
                    ErrorBodies::One(_) => format!("{path}.error_bodies.{key}"),
                    ErrorBodies::Many(_) => format!("{path}.error_bodies.{key}.{shape}"),
                };
                let info = self.error_body(&at, key, shape, range, body);
                out.push((rank, info));
            }
        }
        // A status listed twice (`4XX` and `4xx`) is a mistake; a status inside a class is
        // the class's exception and comes first.
        for i in 0..out.len() {
            if let Some(j) = (0..i)
                .find(|&j| out[j].1.statuses == out[i].1.statuses && out[j].1.key != out[i].1.key)
            {
                let (first, second) = (out[j].1.key.clone(), out[i].1.key.clone());
                self.error(
                    &format!("{path}.error_bodies.{second}"),
                    format!("`{second}` covers the same statuses as `{first}`"),
                );
            }
        }
        out.sort_by_key(|(rank, _)| *rank);
        out.into_iter().map(|(_, b)| b).collect()
    }

    /// The code and message paths of every operation's error bodies, in their types.
    pub(super) fn error_body_paths(&mut self, types: &[TypeInfo], operations: &[OperationInfo]) {
        for op in operations {
            let Some(spec_op) = self.spec.operations.get(&op.name) else {
                continue;
            };
            for body in &op.error_bodies {
                let Some(ty) = &body.ty else { continue };
                let given = spec_op
                    .error_bodies
                    .get(&body.key)
                    .and_then(|b| b.shapes().get(body.shape));
                for (key, path, written) in [
                    ("code", &body.code, given.is_some_and(|g| g.code.is_some())),
                    (
                        "message",
                        &body.message,
                        given.is_some_and(|g| g.message.is_some()),
                    ),
                ] {
                    let Some(path) = path else { continue };
                    let segments: Vec<&str> = path.split('.').collect();
                    let Some(why) = path_misfit(types, ty, &segments) else {
                        continue;
                    };
                    let at = match spec_op.error_bodies.get(&body.key) {
                        Some(ErrorBodies::Many(_)) => format!(
                            "operations.{}.error_bodies.{}.{}",
                            op.name, body.key, body.shape
                        ),
                        _ => format!("operations.{}.error_bodies.{}", op.name, body.key),
                    };
                    let message = format!("`{path}` is not a path in the error type: {why}");
                    let d = if written {
                        self.error_at_value(&format!("{at}.{key}"), message)
                    } else {
                        self.error(&format!("{at}.type"), message)
                    };
                    d.hint = Some(format!(
                        "a dot path to the {key} (`errors.0.{key}` for the first of an array), or `none`"
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::statuses;

    #[test]
    fn status_keys_are_statuses_classes_or_default() {
        assert_eq!(statuses("404"), Some(((404, 404), 0)));
        assert_eq!(statuses("4XX"), Some(((400, 499), 1)));
        assert_eq!(statuses("5xx"), Some(((500, 599), 1)));
        assert_eq!(statuses("default"), Some(((400, 599), 2)));
        for bad in ["200", "3XX", "600", "40", "4000", "+40", "", "XXX"] {
            assert_eq!(statuses(bad), None, "{bad}");
        }
    }
}
