//! The server a service's base URL comes from: the document's first, or, when it has none of
//! its own, the one most of its operations name (Bandwidth's document names a server on each
//! path, six hosts in all). Operations served elsewhere are reported: a spec has one base URL.

use serde_json::Value;

use super::Converter;
use super::document::escape;

/// A server's URL with its variables' defaults filled in.
pub(super) fn server_url(server: &Value) -> String {
    let mut url = server
        .get("url")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if let Some(Value::Object(vars)) = server.get("variables") {
        for (k, v) in vars {
            if let Some(d) = v.get("default").and_then(Value::as_str) {
                url = url.replace(&format!("{{{k}}}"), d);
            }
        }
    }
    url
}

impl Converter<'_> {
    /// The document's server and its pointer: its first, else the one most of the imported
    /// operations (`include`) name (an operation's own `servers`, else its path's); each
    /// operation named elsewhere is reported as approximated.
    pub(super) fn service_server(&mut self, include: &[String]) -> (Option<&Value>, String) {
        let doc = self.doc;
        let first = doc
            .get("servers")
            .and_then(Value::as_array)
            .and_then(|s| s.first());
        // Each operation's server: (pointer of the operation, server, pointer of the server).
        let mut named: Vec<(String, &Value, String)> = Vec::new();
        for (path, item) in doc
            .get("paths")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let at = format!("/paths/{}", escape(path));
            let of_path = item
                .get("servers")
                .and_then(Value::as_array)
                .and_then(|s| s.first());
            for (method, op) in item.as_object().into_iter().flatten() {
                if !super::operations::METHODS.contains(&method.as_str())
                    || !super::routes::included(include, path, op)
                {
                    continue;
                }
                let own = op
                    .get("servers")
                    .and_then(Value::as_array)
                    .and_then(|s| s.first());
                let (server, server_at) = match (own, of_path) {
                    (Some(s), _) => (s, format!("{at}/{method}/servers/0")),
                    (None, Some(s)) => (s, format!("{at}/servers/0")),
                    (None, None) => continue,
                };
                named.push((format!("{at}/{method}"), server, server_at));
            }
        }
        let mut counts: Vec<(String, usize)> = Vec::new();
        for (_, server, _) in &named {
            let url = server_url(server);
            match counts.iter_mut().find(|(u, _)| *u == url) {
                Some((_, n)) => *n += 1,
                None => counts.push((url, 1)),
            }
        }
        // The document's own, else the most named; of equals, the first named.
        let Some(chosen) = first.map(server_url).or_else(|| {
            counts
                .iter()
                .rev()
                .max_by_key(|(_, n)| *n)
                .map(|(u, _)| u.clone())
        }) else {
            return (None, "/servers/0".to_owned());
        };
        let mut found = None;
        for (op_at, server, server_at) in named {
            let url = server_url(server);
            if url == chosen {
                found.get_or_insert((server, server_at));
            } else {
                let whose = match first {
                    Some(_) => "the document names",
                    None => "most operations name",
                };
                self.approximate(
                    &op_at,
                    &format!(
                        "served at `{url}`, not at the base URL `{chosen}` {whose}: a spec has \
                         one base URL (import this host's operations as a service of their own, \
                         `--include` naming them)"
                    ),
                );
            }
        }
        // An operation of a server of its own beside the document's is reported, not served
        // at the document's in silence (Vonage's conversation `record`, at `/v1` beside `/v0.1`).
        match (first, found) {
            (Some(first), _) => (Some(first), "/servers/0".to_owned()),
            (None, Some((server, at))) => (Some(server), at),
            (None, None) => (None, "/servers/0".to_owned()),
        }
    }
}
