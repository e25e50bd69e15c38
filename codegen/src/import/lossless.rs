//! What "lossless" means for an example: the same JSON back, key order aside, a `null`
//! member counting as absent.

use serde_json::Value;

use super::document;

/// The first difference between `a` and `b`, ignoring key order, counting a `null` member as
/// absent and numbers as equal when their values are (`1` and `1.0`).
pub fn difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let here = format!("{at}/{}", document::escape(k));
                match (
                    x.get(k).filter(|v| !v.is_null()),
                    y.get(k).filter(|v| !v.is_null()),
                ) {
                    (Some(v), Some(w)) => {
                        if let Some(d) = difference(v, w, &here) {
                            return Some(d);
                        }
                    }
                    (Some(v), None) => return Some(format!("{here}: {v} is lost")),
                    (None, Some(w)) => return Some(format!("{here}: {w} is added")),
                    (None, None) => {}
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{at}: {} items become {}", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (v, w))| difference(v, w, &format!("{at}/{i}")))
        }
        (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => None,
        _ if a == b => None,
        _ => Some(format!(
            "{}: {a} becomes {b}",
            if at.is_empty() { "/" } else { at }
        )),
    }
}
