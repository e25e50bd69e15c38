//! A list's `filter` written as an expression (Klaviyo's JSON:API lists:
//! `filter=equals(email,"ada@example.org")`, `any(id,["a","b"])`, `and(...)`,
//! `greater-than(created,2024-01-01T00:00:00Z)`): parsed, bounded, and applied to the items,
//! a field found at the item's top or in its `attributes`.

use serde_json::Value;

/// Longest filter read (bytes) and deepest nesting: a filter past them is refused.
const MAX_FILTER_BYTES: usize = 4096;
const MAX_DEPTH: usize = 16;

/// A parsed filter.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Filter {
    /// `and(a, b, ...)`, `or(...)`, `not(a)`.
    All(Vec<Filter>),
    Any(Vec<Filter>),
    Not(Box<Filter>),
    /// An operator on a field and its values (`equals`, `any`, `contains`, `greater-than`...).
    Test(String, String, Vec<Value>),
}

/// Whether `text` is written as an expression (`name(`), so a parse failure is a refusal, not
/// a plain value.
pub(super) fn is_expression(text: &str) -> bool {
    let name = text.split('(').next().unwrap_or_default();
    text.contains('(')
        && !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
}

/// Parses a filter; `Err` says what is wrong.
pub(super) fn parse(text: &str) -> Result<Filter, String> {
    if text.len() > MAX_FILTER_BYTES {
        return Err(format!("a filter is at most {MAX_FILTER_BYTES} bytes"));
    }
    let mut p = Parser {
        text: text.as_bytes(),
        at: 0,
    };
    let filter = p.filter(0)?;
    p.space();
    if p.at != p.text.len() {
        let rest = text.get(p.at..).unwrap_or_default();
        return Err(format!("unexpected text at byte {}: `{rest}`", p.at));
    }
    Ok(filter)
}

struct Parser<'t> {
    text: &'t [u8],
    at: usize,
}

impl Parser<'_> {
    fn space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Result<(), String> {
        self.space();
        if self.text.get(self.at) == Some(&byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected `{}` at {}", byte as char, self.at))
        }
    }

    fn word(&mut self) -> String {
        self.space();
        let start = self.at;
        while self.text.get(self.at).is_some_and(|c| {
            !matches!(c, b'(' | b')' | b',' | b'[' | b']' | b'"') && !c.is_ascii_whitespace()
        }) {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }

    fn filter(&mut self, depth: usize) -> Result<Filter, String> {
        if depth > MAX_DEPTH {
            return Err(format!("a filter nests at most {MAX_DEPTH} deep"));
        }
        let name = self.word().to_ascii_lowercase();
        if name.is_empty() {
            return Err(format!("expected an operator at {}", self.at));
        }
        self.eat(b'(')?;
        let filter = match name.as_str() {
            "and" | "or" | "not" => {
                let mut each = vec![self.filter(depth + 1)?];
                while self.eat(b',').is_ok() {
                    each.push(self.filter(depth + 1)?);
                }
                match (name.as_str(), each.len()) {
                    ("and", _) => Filter::All(each),
                    ("or", _) => Filter::Any(each),
                    (_, 1) => Filter::Not(Box::new(each.remove(0))),
                    _ => return Err("`not` takes one filter".into()),
                }
            }
            _ => {
                let field = self.word();
                if field.is_empty() {
                    return Err(format!("`{name}` names no field"));
                }
                let mut values = Vec::new();
                while self.eat(b',').is_ok() {
                    values.push(self.value()?);
                }
                if values.is_empty() && name != "has" {
                    return Err(format!("`{name}({field})` compares with nothing"));
                }
                Filter::Test(name, field, values)
            }
        };
        self.eat(b')')?;
        Ok(filter)
    }

    fn value(&mut self) -> Result<Value, String> {
        self.space();
        match self.text.get(self.at) {
            Some(b'"') => {
                self.at += 1;
                let mut out = Vec::new();
                loop {
                    match self.text.get(self.at) {
                        None => return Err("a quoted value does not end".into()),
                        Some(b'"') => break,
                        Some(b'\\') => {
                            let next = *self
                                .text
                                .get(self.at + 1)
                                .ok_or("a quoted value does not end")?;
                            out.push(next);
                            self.at += 2;
                        }
                        Some(c) => {
                            out.push(*c);
                            self.at += 1;
                        }
                    }
                }
                self.at += 1;
                Ok(Value::String(String::from_utf8_lossy(&out).into_owned()))
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.text.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    if self.eat(b',').is_err() {
                        break;
                    }
                }
                self.eat(b']')?;
                Ok(Value::Array(items))
            }
            _ => {
                let word = self.word();
                if word.is_empty() {
                    return Err(format!("expected a value at {}", self.at));
                }
                Ok(match word.as_str() {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    "null" => Value::Null,
                    _ => word
                        .parse::<i64>()
                        .map(Value::from)
                        .or_else(|_| word.parse::<f64>().map(Value::from))
                        .unwrap_or(Value::String(word)),
                })
            }
        }
    }
}

/// Whether `item` (with its id `id`) passes `filter`.
pub(super) fn passes(filter: &Filter, id: &str, item: &serde_json::Map<String, Value>) -> bool {
    match filter {
        Filter::All(each) => each.iter().all(|f| passes(f, id, item)),
        Filter::Any(each) => each.iter().any(|f| passes(f, id, item)),
        Filter::Not(inner) => !passes(inner, id, item),
        Filter::Test(op, field, values) => {
            let held = field_of(item, field)
                .or_else(|| (field == "id").then(|| Value::String(id.to_owned())));
            test(op, held.as_ref(), values)
        }
    }
}

/// A field at the item's top, else in its `attributes` (dot paths followed).
fn field_of(item: &serde_json::Map<String, Value>, field: &str) -> Option<Value> {
    let at = |root: &serde_json::Map<String, Value>| {
        let mut parts = field.split('.');
        let mut v = root.get(parts.next()?)?;
        for part in parts {
            v = v.get(part)?;
        }
        Some(v.clone())
    };
    at(item).or_else(|| item.get("attributes")?.as_object().and_then(at))
}

/// Two items in the order of their `field` (numbers as numbers, else as text; an item
/// without it first).
pub(super) fn compare(
    a: &serde_json::Map<String, Value>,
    b: &serde_json::Map<String, Value>,
    field: &str,
) -> std::cmp::Ordering {
    match (field_of(a, field), field_of(b, field)) {
        (Some(a), Some(b)) => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
            _ => a.to_string().cmp(&b.to_string()),
        },
        (a, b) => a.is_some().cmp(&b.is_some()),
    }
}

fn test(op: &str, held: Option<&Value>, values: &[Value]) -> bool {
    let text = super::text_of;
    let first = values.first();
    let order = |held: &Value, given: &Value| match (held.as_f64(), given.as_f64()) {
        (Some(a), Some(b)) => a.partial_cmp(&b),
        _ => Some(text(held).cmp(&text(given))),
    };
    let Some(held) = held.filter(|h| !h.is_null()) else {
        return op == "equals" && first.is_some_and(Value::is_null);
    };
    let listed = |given: &Value| match given {
        Value::Array(items) => items.clone(),
        one => vec![one.clone()],
    };
    match op {
        "has" => true,
        "equals" => first.is_some_and(|v| text(held) == text(v)),
        "any" => first.is_some_and(|v| listed(v).iter().any(|v| text(held) == text(v))),
        "contains" => match held {
            Value::Array(items) => first.is_some_and(|v| items.iter().any(|i| text(i) == text(v))),
            _ => first.is_some_and(|v| text(held).contains(&text(v))),
        },
        "contains-any" | "contains-all" => {
            let items = match held {
                Value::Array(items) => items.iter().map(text).collect::<Vec<_>>(),
                other => vec![text(other)],
            };
            let wanted = first.map(listed).unwrap_or_default();
            let has = |v: &Value| items.contains(&text(v));
            if op == "contains-any" {
                wanted.iter().any(has)
            } else {
                wanted.iter().all(has)
            }
        }
        "starts-with" => first.is_some_and(|v| text(held).starts_with(&text(v))),
        "ends-with" => first.is_some_and(|v| text(held).ends_with(&text(v))),
        "greater-than" => first
            .and_then(|v| order(held, v))
            .is_some_and(|o| o.is_gt()),
        "greater-or-equal" => first
            .and_then(|v| order(held, v))
            .is_some_and(|o| o.is_ge()),
        "less-than" => first
            .and_then(|v| order(held, v))
            .is_some_and(|o| o.is_lt()),
        "less-or-equal" => first
            .and_then(|v| order(held, v))
            .is_some_and(|o| o.is_le()),
        // An operator this reading does not know filters nothing out.
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn item(value: Value) -> serde_json::Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_filter_expression_reads_and_tests_the_item_s_attributes() {
        let ada = item(
            json!({"type": "profile", "id": "p1", "attributes": {"email": "ada@example.org", "created": "2024-03-01T00:00:00Z", "tags": ["vip"]}}),
        );
        let cases = [
            (r#"equals(email,"ada@example.org")"#, true),
            (r#"equals(email,"bob@example.org")"#, false),
            (r#"any(id,["p2","p1"])"#, true),
            (
                r#"and(equals(email,"ada@example.org"),greater-than(created,2024-01-01T00:00:00Z))"#,
                true,
            ),
            (
                r#"or(equals(email,"x"),less-than(created,2024-01-01T00:00:00Z))"#,
                false,
            ),
            (r#"not(equals(id,"p1"))"#, false),
            (r#"contains(tags,"vip")"#, true),
            (r#"equals(email, "ada@example.org" )"#, true),
        ];
        for (text, want) in cases {
            let filter = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(passes(&filter, "p1", &ada), want, "{text}");
        }
    }

    #[test]
    fn a_broken_filter_is_refused_with_why() {
        for text in [
            "nonsense(((",
            "equals(email)",
            r#"equals(email,"open"#,
            "and()",
            "equals(a,1) tail",
        ] {
            assert!(is_expression(text), "{text}");
            assert!(parse(text).is_err(), "{text}");
        }
        let deep = format!("{}equals(a,1){}", "not(".repeat(40), ")".repeat(40));
        assert!(parse(&deep).unwrap_err().contains("nests"));
        assert!(parse(&"a".repeat(5000)).unwrap_err().contains("bytes"));
        assert!(!is_expression("gold") && !is_expression("(x)"));
        // Text past the expression, in any script, is named, not sliced mid-character.
        let why = parse("equals(名前,\"ü\\é\") 尾").unwrap_err();
        assert!(why.contains("尾"), "{why}");
    }
}
