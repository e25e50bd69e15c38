//! Security schemes required together (one OpenAPI security requirement object naming two or
//! more: an app id in one header and a key in another) become a spec scheme of kind `all`
//! that sends them all; operations requiring them name it.

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

/// The spec schemes that `all` schemes send together: each set of names, with the name of the
/// `all` scheme sending it.
#[derive(Debug, Default)]
pub(crate) struct Together {
    sets: Vec<(Vec<String>, String)>,
    /// The `all` scheme the document's default requirement asks for, when it asks for one.
    default: Option<String>,
}

impl Converter<'_> {
    /// `auth` (the spec's schemes, in order) with an `all` scheme for each set of its schemes a
    /// requirement object names together: first when it is the document's default
    /// requirement, else last. A set `all` cannot send (an OAuth2 token with a key, two
    /// schemes in the same header) is reported, and its operations send one of them.
    pub(super) fn schemes_together(&mut self, mut auth: Vec<Node>) -> Vec<Node> {
        let name_of = |node: &Node| {
            node.get("name")
                .and_then(Node::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let mut sets: Vec<(Vec<String>, String)> = Vec::new();
        for (ptr, requirement) in requirement_objects(self.doc) {
            let names = self.spec_names(requirement);
            if names.len() > 1 && !sets.iter().any(|(set, _)| same_set(set, &names)) {
                sets.push((names, ptr));
            }
        }
        for (names, ptr) in sets {
            // The members in the spec's order, each in a place of its own.
            let members: Vec<String> = auth
                .iter()
                .map(name_of)
                .filter(|n| names.contains(n))
                .collect();
            let mut taken: Vec<String> = Vec::new();
            let fits =
                auth.iter()
                    .filter(|n| names.contains(&name_of(n)))
                    .all(|member| match places(member) {
                        Some(places) => {
                            let clash = places.iter().any(|p| taken.contains(p));
                            taken.extend(places);
                            !clash
                        }
                        None => false,
                    });
            if !fits {
                self.approximate(
                    &ptr,
                    &format!(
                        "requires `{}` together, which one spec scheme cannot send (kind all \
                         sends bearer, header, query, basic and body schemes, each in a place of \
                         its own); operations requiring them send one",
                        members.join("`, `")
                    ),
                );
                continue;
            }
            let mut name = members.join("_and_");
            while auth.iter().any(|n| name_of(n) == name) {
                name.push('_');
            }
            let mut node = Node::map();
            node.set("name", Node::str(&name));
            node.set("kind", Node::str("all"));
            node.set(
                "schemes",
                Node::Seq(members.iter().map(Node::str).collect()),
            );
            self.provenance(&mut node, &ptr);
            if ptr.starts_with("/security/") && self.together.default.is_none() {
                auth.insert(0, node);
                self.together.default = Some(name.clone());
            } else {
                auth.push(node);
            }
            self.together.sets.push((members, name));
        }
        auth
    }

    /// The distinct spec scheme names a requirement object's schemes became, in its order.
    fn spec_names(&self, requirement: &serde_json::Map<String, Value>) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for raw in requirement.keys() {
            if let Some((_, name)) = self.auth_names.iter().find(|(r, _)| r == raw)
                && !names.contains(name)
            {
                names.push(name.clone());
            }
        }
        names
    }

    /// The spec scheme a requirement object asks for: its one scheme, the `all` scheme of its
    /// several, or (for a set no `all` scheme sends, already reported) the first of them;
    /// `None` when none of its schemes was kept.
    pub(super) fn requirement_scheme(&self, requirement: &Value) -> Option<String> {
        let names = self.spec_names(requirement.as_object()?);
        self.together
            .sets
            .iter()
            .find(|(set, _)| names.len() > 1 && same_set(set, &names))
            .map(|(_, name)| name.clone())
            .or_else(|| names.into_iter().next())
    }

    /// The service's default scheme: the `all` scheme of the document's default requirement,
    /// else the first scheme.
    pub(super) fn default_scheme(&self) -> Option<String> {
        self.together
            .default
            .clone()
            .or_else(|| self.auth_names.first().map(|(_, name)| name.clone()))
    }
}

fn same_set(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().all(|x| b.contains(x))
}

/// Where a spec scheme puts its credentials (`header authorization`, `query api_key`,
/// `body key`); `None` for the kinds an `all` scheme cannot send.
fn places(node: &Node) -> Option<Vec<String>> {
    let text = |key: &str| node.get(key).and_then(Node::as_str).map(str::to_owned);
    let names = |one: &str, many: &str| -> Vec<String> {
        let many = match node.get(many) {
            Some(Node::Map(m)) => m.keys().cloned().collect(),
            _ => Vec::new(),
        };
        text(one).into_iter().chain(many).collect()
    };
    Some(match text("kind")?.as_str() {
        "bearer" | "basic" => vec!["header authorization".to_owned()],
        "header" => vec![format!("header {}", text("header")?.to_ascii_lowercase())],
        "query" => names("param", "params")
            .into_iter()
            .map(|p| format!("query {p}"))
            .collect(),
        "body" => names("field", "fields")
            .into_iter()
            .map(|f| format!("body {f}"))
            .collect(),
        _ => return None,
    })
}

/// Every security requirement object of the document with its JSON pointer: the document's
/// own (`/security/0`), then each operation's.
fn requirement_objects(doc: &Value) -> Vec<(String, &serde_json::Map<String, Value>)> {
    type Found<'a> = Vec<(String, &'a serde_json::Map<String, Value>)>;
    fn list<'a>(out: &mut Found<'a>, ptr: &str, security: Option<&'a Value>) {
        for (i, requirement) in security
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            if let Some(requirement) = requirement.as_object() {
                out.push((format!("{ptr}/security/{i}"), requirement));
            }
        }
    }
    let mut out = Vec::new();
    list(&mut out, "", doc.get("security"));
    for (path, item) in doc
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        for (method, op) in item.as_object().into_iter().flatten() {
            let ptr = format!("/paths/{}/{method}", document::escape(path));
            list(&mut out, &ptr, op.get("security"));
        }
    }
    out
}
