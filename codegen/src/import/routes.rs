//! Routes to operations: operation names from ids or routes, `--include` filters, path
//! placeholders and routes compared without parameter names.

use serde_json::Value;

use crate::names::{CLIENT_METHODS, SERVER_METHODS, ascii_fold, can_be_ident, is_keyword, snake};

/// Operation names are snake_case Rust identifiers, never ending in `_stream`.
pub(crate) fn op_name(raw: &str) -> String {
    let mut s: String = snake(&ascii_fold(raw))
        .chars()
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
        .collect();
    while s.contains("__") {
        s = s.replace("__", "_");
    }
    let mut s = s.trim_matches('_').to_owned();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("op_{s}");
    }
    if s.is_empty() {
        s = "operation".into();
    }
    // Keywords, names of methods every client or server has, stream method names.
    let generated = CLIENT_METHODS.contains(&s.as_str()) || SERVER_METHODS.contains(&s.as_str());
    if is_keyword(&s) || generated || s.ends_with("_stream") || !can_be_ident(&s) {
        s.push_str("_op");
    }
    s
}

/// An operation's name when it has no `operationId`: method and fixed path segments.
pub(super) fn name_from_route(method: &str, path: &str) -> String {
    let segments: Vec<&str> = path
        .split('/')
        .filter(|s| !s.is_empty() && !s.starts_with('{'))
        .collect();
    op_name(&format!("{method}_{}", segments.join("_")))
}

/// `by_<param>` for a route that names an item (`/apps/{app_id}/rules/{rule_id}` →
/// `by_rule_id`, `/Messages/{Sid}.json` → `by_sid`), `None` for a collection's route.
pub(super) fn item_suffix(path: &str) -> Option<String> {
    let last = path.trim_end_matches('/').rsplit('/').next()?;
    let param = last.strip_prefix('{')?.split('}').next()?;
    Some(format!("by_{}", snake(&ascii_fold(param))))
}

/// Whether a filter (`--include`) takes an operation: a tag, an operation id, or a path glob.
pub(crate) fn included(filters: &[String], path: &str, op: &Value) -> bool {
    if filters.is_empty() {
        return true;
    }
    let tags: Vec<&str> = op
        .get("tags")
        .and_then(Value::as_array)
        .map(|t| t.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let id = op.get("operationId").and_then(Value::as_str);
    filters.iter().any(|f| {
        tags.iter().any(|t| t.eq_ignore_ascii_case(f))
            || id.is_some_and(|id| id == f || op_name(id) == *f)
            || ((f.starts_with('/') || f.contains('*')) && glob(f, path))
    })
}

/// `*` matches within one path segment, `**` across segments.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // matches[j]: pattern[..i] matches text[..j], row by row (bounded: |p| x |t|).
    let mut row = vec![false; t.len() + 1];
    row[0] = true;
    let mut i = 0;
    while i < p.len() {
        let mut next = vec![false; t.len() + 1];
        if p[i] == '*' {
            let deep = p.get(i + 1) == Some(&'*');
            for j in 0..=t.len() {
                if row[j] {
                    next[j] = true;
                    let mut k = j;
                    while k < t.len() && (deep || t[k] != '/') {
                        k += 1;
                        next[k] = true;
                    }
                }
            }
            i += if deep { 2 } else { 1 };
        } else {
            for j in 0..t.len() {
                if row[j] && t[j] == p[i] {
                    next[j + 1] = true;
                }
            }
            i += 1;
        }
        row = next;
    }
    row[t.len()]
}

/// The `{name}` placeholders of a path template; `None` when braces do not pair up.
/// The pairs of a query string written in the path template become query parameters, all
/// required: a `{placeholder}` one is the path parameter declared for it, moved to the query
/// under the pair's name; a fixed one is a parameter of that one value. The finding to report,
/// if there were any.
pub(super) fn query_in_path(
    pairs: &[(String, String)],
    params: &mut Vec<(Value, String)>,
    ptr: &str,
) -> Option<String> {
    for (key, value) in pairs {
        let braced = |s: &str| {
            s.strip_prefix('{')
                .and_then(|v| v.strip_suffix('}'))
                .map(str::to_owned)
        };
        // A placeholder written as the key (ClickSend's `?{search}=1&{search_type}=2`, with
        // `search` and `search_type` declared): that parameter, under its own name.
        let (key, placeholder) = match (braced(key), braced(value)) {
            (Some(name), None) => (name.clone(), Some(name)),
            (_, placeholder) => (key.clone(), placeholder),
        };
        let placeholder = placeholder.as_deref();
        let declared = placeholder.and_then(|name| {
            params.iter_mut().find(|(p, _)| {
                p.get("name").and_then(Value::as_str) == Some(name)
                    && p.get("in").and_then(Value::as_str) == Some("path")
            })
        });
        match declared {
            Some((p, _)) => {
                if let Some(p) = p.as_object_mut() {
                    p.insert("in".into(), "query".into());
                    p.insert("name".into(), key.as_str().into());
                    p.insert("required".into(), true.into());
                }
            }
            None => {
                let schema = match placeholder {
                    Some(_) => serde_json::json!({ "type": "string" }),
                    None => serde_json::json!({ "type": "string", "enum": [value] }),
                };
                let p = serde_json::json!({
                    "name": key, "in": "query", "required": true, "schema": schema
                });
                params.push((p, ptr.to_owned()));
            }
        }
    }
    let names: Vec<String> = pairs
        .iter()
        .map(|(k, _)| format!("`{}`", k.trim_start_matches('{').trim_end_matches('}')))
        .collect();
    (!pairs.is_empty()).then(|| {
        format!(
            "query string in the path template: {} sent as required query parameters",
            names.join(", ")
        )
    })
}

/// A path template with a query string in it (OneSignal's
/// `/players/csv_export?app_id={app_id}`): the path, and each `name=value` pair of the query
/// (the value a `{placeholder}` or fixed text).
pub(super) fn split_query(template: &str) -> (&str, Vec<(String, String)>) {
    let Some((path, query)) = template.split_once('?') else {
        return (template, Vec::new());
    };
    let pairs = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (k.to_owned(), v.to_owned()),
            None => (p.to_owned(), String::new()),
        })
        .collect();
    (path, pairs)
}

pub(super) fn placeholders(template: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return None;
        }
        let close = rest[open..].find('}')? + open;
        let name = &rest[open + 1..close];
        if name.is_empty() || name.contains('{') {
            return None;
        }
        if !out.iter().any(|n| n == name) {
            out.push(name.to_owned());
        }
        rest = &rest[close + 1..];
    }
    Some(out)
}

/// `path` with each whole segment written `:name` with an id's name (Express's route
/// parameters: Vonage Media's `/:id/info`) as the placeholder `{name}`; kept as literal
/// text, it named no item. A verb so written is a custom method (Azure's
/// `/participants/:add`), kept.
pub(super) fn colon_params(path: &str) -> String {
    path.split('/')
        .map(|segment| match segment.strip_prefix(':') {
            Some(name)
                if tidings_spec::id_like(name)
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                format!("{{{name}}}")
            }
            _ => segment.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A route with parameter names blanked, to find two operations on one route.
pub(super) fn normalised(path: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in path.chars() {
        match c {
            '{' => {
                depth += 1;
                out.push('{');
            }
            '}' => {
                depth -= 1;
                out.push('}');
            }
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A path placeholder's name, renamed in the template when it has no Rust name of its own.
pub(super) fn usable_path_name(
    name: &str,
    template: &mut String,
    taken: &mut std::collections::BTreeSet<String>,
) -> String {
    // Placeholders are only substituted, so they may take the Rust name itself.
    let mut rust = snake(&crate::names::ascii_fold(name));
    // `body`, `query`, `ctx` ... are the generated method's own arguments; `type` is Rust's.
    if crate::names::renamed_for_rust(&rust) {
        rust.push_str("_param");
    }
    if can_be_ident(&rust)
        && crate::names::is_snake(&rust)
        && !is_keyword(&rust)
        && taken.insert(rust.clone())
    {
        if rust != name {
            *template = template.replace(&format!("{{{name}}}"), &format!("{{{rust}}}"));
        }
        return rust;
    }
    let mut n = 1;
    let new = loop {
        let candidate = format!("param{n}");
        if taken.insert(candidate.clone()) {
            break candidate;
        }
        n += 1;
    };
    *template = template.replace(&format!("{{{name}}}"), &format!("{{{new}}}"));
    new
}

/// Whether a parameter's example (its own, or its schema's) is a whole number, written as a
/// number or as text.
pub(super) fn whole_example(param: &Value, schema: &Value) -> bool {
    [param.get("example"), schema.get("example")]
        .into_iter()
        .flatten()
        .any(|e| match e {
            Value::Number(n) => n.is_i64() || n.is_u64(),
            Value::String(s) => s.parse::<i64>().is_ok(),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_segments_and_deep_paths() {
        assert!(glob("/v1/emails/*", "/v1/emails/{id}"));
        assert!(!glob("/v1/emails/*", "/v1/emails/{id}/cancel"));
        assert!(glob("/v1/**", "/v1/emails/{id}/cancel"));
        assert!(glob("/v1/emails", "/v1/emails"));
        assert!(!glob("/v1/email", "/v1/emails"));
    }

    #[test]
    fn operation_ids_become_snake_case_identifiers() {
        assert_eq!(op_name("CreateMessage"), "create_message");
        assert_eq!(op_name("get-user.by-id"), "get_user_by_id");
        assert_eq!(op_name("2fa"), "op_2fa");
        assert_eq!(op_name("type"), "type_op");
        assert_eq!(op_name("list_stream"), "list_stream_op");
        assert_eq!(op_name("***"), "operation");
        assert_eq!(op_name("from_env"), "from_env_op");
        assert_eq!(op_name("runtime"), "runtime_op");
        assert_eq!(op_name("créerGröße"), "creer_groesse");
    }
}
