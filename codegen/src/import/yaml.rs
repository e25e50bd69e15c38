//! The importer's YAML: an ordered value tree ([`Node`]) and a writer that lays it out the way
//! the hand-written specs are (block sections, one-line `{ ... }` items when they fit), so an
//! imported spec reads like the others and the same tree always gives the same bytes.

use indexmap::IndexMap;

/// An ordered YAML value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
    Seq(Vec<Node>),
    Map(IndexMap<String, Node>),
}

impl Node {
    pub(crate) fn map() -> Node {
        Node::Map(IndexMap::new())
    }

    pub(crate) fn str(s: impl Into<String>) -> Node {
        Node::Str(s.into())
    }

    /// Sets `key` (a no-op on a non-map).
    pub(crate) fn set(&mut self, key: &str, value: Node) {
        if let Node::Map(m) = self {
            m.insert(key.to_owned(), value);
        }
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(m) => m.get(key),
            _ => None,
        }
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        match self {
            Node::Map(m) => m.get_mut(key),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }

    fn is_scalar(&self) -> bool {
        !matches!(self, Node::Seq(_) | Node::Map(_))
    }

    /// Reads YAML text into a tree, keeping key order (for `--merge`).
    pub(crate) fn parse(text: &str) -> Result<Node, String> {
        let value: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
        Ok(Node::from_yaml(&value))
    }

    /// A JSON value as a tree (an example kept in the spec), through its YAML form.
    pub(crate) fn from_json(value: &serde_json::Value) -> Node {
        serde_yaml::to_value(value).map_or(Node::Null, |v| Node::from_yaml(&v))
    }

    fn from_yaml(value: &serde_yaml::Value) -> Node {
        use serde_yaml::Value as V;
        match value {
            V::Null => Node::Null,
            V::Bool(b) => Node::Bool(*b),
            V::Number(n) => match n.as_i64() {
                Some(i) => Node::Int(i),
                None => Node::Float(n.as_f64().unwrap_or(0.0)),
            },
            V::String(s) => Node::Str(s.clone()),
            V::Sequence(items) => Node::Seq(items.iter().map(Node::from_yaml).collect()),
            V::Mapping(m) => Node::Map(
                m.iter()
                    .map(|(k, v)| (key_text(k), Node::from_yaml(v)))
                    .collect(),
            ),
            V::Tagged(t) => Node::from_yaml(&t.value),
        }
    }
}

fn key_text(key: &serde_yaml::Value) -> String {
    match key {
        serde_yaml::Value::String(s) => s.clone(),
        serde_yaml::Value::Number(n) => n.to_string(),
        serde_yaml::Value::Bool(b) => b.to_string(),
        other => serde_yaml::to_string(other)
            .unwrap_or_default()
            .trim()
            .to_owned(),
    }
}

/// Widest line a `{ ... }` or `[ ... ]` item may make before it is written as a block.
const FLOW_WIDTH: usize = 100;

/// Where each top-level item starts: `(section, item name) → line` (1-based), so a checker
/// diagnostic can be traced back to the item it is about.
pub(crate) type ItemLines = Vec<(usize, String, String)>;

/// Writes a document: the schema comment line, then the top-level map in block style.
pub(crate) fn write(doc: &Node) -> (String, ItemLines) {
    let mut w = Writer {
        out: String::from("# yaml-language-server: $schema=spec.schema.json\n"),
        line: 2,
        items: Vec::new(),
    };
    if let Node::Map(m) = doc {
        for (key, value) in m {
            w.entry(0, key, value, Some(key));
        }
    }
    (w.out, w.items)
}

struct Writer {
    out: String,
    line: usize,
    items: ItemLines,
}

impl Writer {
    fn push_line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
        self.line += 1 + text.matches('\n').count();
    }

    /// `key: value` at `indent`; `section` names the top-level section whose items are recorded.
    fn entry(&mut self, indent: usize, key: &str, value: &Node, section: Option<&str>) {
        let pad = " ".repeat(indent);
        let k = scalar_key(key);
        match value {
            Node::Map(m) if m.is_empty() => self.push_line(&format!("{pad}{k}: {{}}")),
            Node::Seq(s) if s.is_empty() => self.push_line(&format!("{pad}{k}: []")),
            Node::Str(s) if s.contains('\n') && literal_ok(s) => {
                self.push_line(&format!("{pad}{k}: |-"));
                let inner = " ".repeat(indent + 2);
                for line in s.split('\n') {
                    if line.is_empty() {
                        self.push_line("");
                    } else {
                        self.push_line(&format!("{inner}{line}"));
                    }
                }
            }
            v if v.is_scalar() => self.push_line(&format!("{pad}{k}: {}", scalar(v, false))),
            v => {
                if section.is_none()
                    && let Some(flow) = flow(v)
                    && indent + k.len() + 2 + flow.len() <= FLOW_WIDTH
                {
                    self.push_line(&format!("{pad}{k}: {flow}"));
                    return;
                }
                self.push_line(&format!("{pad}{k}:"));
                match v {
                    Node::Map(m) => {
                        for (ck, cv) in m {
                            if let Some(s) = section {
                                self.items.push((self.line, s.to_owned(), ck.clone()));
                            }
                            self.entry(indent + 2, ck, cv, None);
                        }
                    }
                    Node::Seq(items) => {
                        for (i, item) in items.iter().enumerate() {
                            if let Some(s) = section {
                                let name = item
                                    .get("name")
                                    .and_then(Node::as_str)
                                    .map_or_else(|| i.to_string(), str::to_owned);
                                self.items.push((self.line, s.to_owned(), name));
                            }
                            self.seq_item(indent + 2, item);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn seq_item(&mut self, indent: usize, item: &Node) {
        let pad = " ".repeat(indent);
        if let Some(flow) = flow(item).filter(|f| indent + 2 + f.len() <= FLOW_WIDTH) {
            self.push_line(&format!("{pad}- {flow}"));
            return;
        }
        match item {
            Node::Map(m) if !m.is_empty() => {
                // `- first: ...` then the other keys under it.
                let mut first = true;
                for (k, v) in m {
                    if first {
                        let start = self.out.len();
                        self.entry(indent + 2, k, v, None);
                        // Replace the indentation of the first key with `- `.
                        self.out
                            .replace_range(start + indent..start + indent + 2, "- ");
                        first = false;
                    } else {
                        self.entry(indent + 2, k, v, None);
                    }
                }
            }
            other => {
                let text = flow(other).unwrap_or_else(|| scalar(other, true));
                self.push_line(&format!("{pad}- {text}"));
            }
        }
    }
}

/// A one-line rendering of a map or list of scalars (or of small maps), if it has one.
fn flow(node: &Node) -> Option<String> {
    match node {
        Node::Map(m) => {
            if m.is_empty() {
                return Some("{}".into());
            }
            let mut parts = Vec::new();
            for (k, v) in m {
                let value = match v {
                    Node::Str(s) if s.contains('\n') => return None,
                    v if v.is_scalar() => scalar(v, true),
                    Node::Seq(items) if items.iter().all(Node::is_scalar) => flow(v)?,
                    _ => return None,
                };
                parts.push(format!("{}: {value}", scalar_key_flow(k)));
            }
            Some(format!("{{ {} }}", parts.join(", ")))
        }
        Node::Seq(items) => {
            if items.iter().any(|i| !i.is_scalar()) {
                return None;
            }
            let parts: Vec<String> = items.iter().map(|i| scalar(i, true)).collect();
            Some(format!("[{}]", parts.join(", ")))
        }
        _ => None,
    }
}

fn literal_ok(s: &str) -> bool {
    !s.starts_with([' ', '\t', '\n'])
        && !s.ends_with(['\n', ' ', '\t'])
        && s.chars()
            .all(|c| c == '\n' || c == '\t' || !(c.is_control() || c == '\u{feff}'))
        && s.split('\n').all(|l| !l.ends_with([' ', '\t']))
}

fn scalar_key(key: &str) -> String {
    if plain_ok(key, false) && !key.contains(':') {
        key.to_owned()
    } else {
        quoted(key)
    }
}

fn scalar_key_flow(key: &str) -> String {
    if plain_ok(key, true) {
        key.to_owned()
    } else {
        quoted(key)
    }
}

fn scalar(node: &Node, in_flow: bool) -> String {
    match node {
        Node::Str(s) => {
            if plain_ok(s, in_flow) {
                s.clone()
            } else {
                quoted(s)
            }
        }
        Node::Int(i) => i.to_string(),
        Node::Float(f) => {
            if f.is_finite() {
                let text = format!("{f:?}");
                if text.contains(['.', 'e', 'E']) {
                    text
                } else {
                    format!("{text}.0")
                }
            } else {
                "0.0".into()
            }
        }
        Node::Bool(b) => b.to_string(),
        Node::Null => "null".into(),
        Node::Seq(_) | Node::Map(_) => flow(node).unwrap_or_else(|| "null".into()),
    }
}

/// Whether a string can be written without quotes and read back as the same string.
fn plain_ok(s: &str, in_flow: bool) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if !(first.is_ascii_alphabetic() || first == '/' || first == '_') {
        return false;
    }
    if s.ends_with(' ') || s.contains("  ") {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n" | "nan" | "inf"
    ) {
        return false;
    }
    let bytes = s.as_bytes();
    for (i, c) in s.chars().enumerate() {
        let ok = c.is_ascii_alphanumeric()
            || matches!(
                c,
                '_' | '.' | '/' | '-' | ' ' | '<' | '>' | '+' | '(' | ')' | '@'
            )
            || (!in_flow && matches!(c, '{' | '}' | '[' | ']' | ','))
            || (!in_flow && c == ':' && bytes.get(i + 1).is_some_and(|b| *b != b' '));
        if !ok {
            return false;
        }
    }
    true
}

/// A double-quoted YAML scalar.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || c == '\u{feff}' || ('\u{2028}'..='\u{2029}').contains(&c) => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(s: &str) {
        let mut doc = Node::map();
        let mut inner = Node::map();
        inner.set("doc", Node::str(s));
        inner.set("type", Node::str("string"));
        doc.set("k", Node::str(s));
        doc.set("m", inner);
        let (text, _) = write(&doc);
        let back = Node::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, doc, "{text}");
    }

    #[test]
    fn awkward_strings_read_back_unchanged() {
        for s in [
            "plain",
            "yes",
            "No",
            "123",
            "1e5",
            "a: b",
            "a #b",
            "- x",
            "{x}",
            "/v1/a/{id}",
            "https://example.com/x",
            "a, b",
            "quote \" and \\ back",
            "line\nbreak",
            "trailing ",
            " lead",
            "tab\there",
            "\u{7}bell",
            "ünïcode ✓",
            "",
            "~",
            "null",
            "@at",
            "`tick`",
            "%pct",
            "&anchor",
            "*alias",
            "!tag",
            "|pipe",
            ">gt",
            "'single'",
            "two\n\nparagraphs",
        ] {
            round_trip(s);
        }
    }
}
