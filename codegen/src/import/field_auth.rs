//! Credentials a document carries as ordinary fields: no security scheme, but every operation
//! sends `api_key` and `api_secret` as fields of its request body or as query parameters
//! (Vonage's SMS and Verify documents). Imported as they are, each call would take the secret as
//! an argument (and `Debug` of a request would show it); they become auth schemes instead (a
//! `body` scheme with `fields`, a `query` scheme with `params` for operations that carry them in
//! the query), with a credential each, and leave the request types and query parameters.

use std::collections::BTreeSet;

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

/// What the import found of credentials carried as fields.
#[derive(Debug, Default)]
pub(crate) struct FieldAuth {
    /// The wire names the auth schemes send (`api_key`, `api_secret`).
    names: Vec<String>,
    /// The request-body schemas (pointers) the names leave.
    body_schemas: BTreeSet<String>,
    /// The operations (pointers) that carry them as query parameters, and the scheme that
    /// sends them there when it is not the default.
    query_ops: BTreeSet<String>,
    query_scheme: Option<String>,
}

/// Whether a field or parameter name reads as a credential a provider asks for in every call
/// (`key` counts only where its description says it is an API key: see [`body_properties`]).
fn credential_like(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "api_key"
            | "api_secret"
            | "apikey"
            | "apisecret"
            | "api_token"
            | "auth_token"
            | "key"
            | "keyid"
    )
}

/// The top-level property names of a request body schema, through `allOf` and `$ref`s
/// (Mandrill's bodies are `allOf: [{$ref: ApiKey}, {...}]`). A property named `key` is one
/// only when its description calls it an API key (Mandrill's "A valid Mandrill API key"):
/// elsewhere `key` is as likely a record's key.
/// `through` gathers the pointers of the schemas reached by `$ref` on the way: a body that is
/// only `allOf: [{$ref: ApiKey}]` is imported as `ApiKey` itself, whose `key` leaves too.
fn body_properties(
    doc: &Value,
    schema: &Value,
    depth: usize,
    out: &mut Vec<String>,
    through: &mut Vec<String>,
) {
    if depth > 8 {
        return;
    }
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => match document::resolve(doc, r) {
            Some(target) => {
                through.push(r.trim_start_matches('#').to_owned());
                target
            }
            None => return,
        },
        None => schema,
    };
    for member in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        body_properties(doc, member, depth + 1, out, through);
    }
    for (name, property) in schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let described_as_key = || {
            let property = match property.get("$ref").and_then(Value::as_str) {
                Some(r) => document::resolve(doc, r).unwrap_or(property),
                None => property,
            };
            property
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| {
                    let d = d.to_ascii_lowercase();
                    d.contains("api key") || d.contains("api-key")
                })
        };
        if (name != "key" || described_as_key()) && !out.contains(name) {
            out.push(name.clone());
        }
    }
}

/// Credentials by name, each with its spec node.
type Credentials = Vec<(String, Node)>;

/// One operation's request: the top-level property names of its body schema (and the
/// schema's pointer), its query parameter names.
struct Carried {
    body: Vec<String>,
    /// The body schema's pointer and those of the schemas it reaches by `$ref`.
    body_schemas: Vec<String>,
    query: Vec<String>,
}

impl Converter<'_> {
    /// Reports each Swagger 2.0 form field of `op` the conversion left to the security
    /// scheme (the token the scheme sends).
    pub(super) fn form_fields_left_to_scheme(&mut self, op: &Value, ptr: &str) {
        for name in op
            .get(super::document::LEFT_TO_SCHEME)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            self.inferred(
                &format!("{ptr}/parameters"),
                &format!(
                    "form field `{name}` is the token the operation's security scheme sends: left to the scheme"
                ),
            );
        }
    }

    /// Every operation of the document, with what it carries.
    fn carried(&self) -> Vec<(String, Carried)> {
        let doc = self.doc;
        let mut out = Vec::new();
        let Some(paths) = doc.get("paths").and_then(Value::as_object) else {
            return out;
        };
        for (path, item) in paths {
            let item_ptr = format!("/paths/{}", document::escape(path));
            for (method, op) in item.as_object().into_iter().flatten() {
                if !operations::METHODS.contains(&method.as_str()) {
                    continue;
                }
                let op_ptr = format!("{item_ptr}/{method}");
                let mut query = Vec::new();
                for p in [item, op]
                    .iter()
                    .filter_map(|o| o.get("parameters").and_then(Value::as_array))
                    .flatten()
                {
                    let p = match p.get("$ref").and_then(Value::as_str) {
                        Some(r) => document::resolve(doc, r).unwrap_or(p),
                        None => p,
                    };
                    if p.get("in").and_then(Value::as_str) == Some("query")
                        && let Some(name) = p.get("name").and_then(Value::as_str)
                    {
                        query.push(name.to_owned());
                    }
                }
                let (mut body, mut body_schemas) = (Vec::new(), Vec::new());
                let content = op
                    .pointer("/requestBody/content")
                    .and_then(Value::as_object);
                if let Some((media, c)) = content.and_then(|c| c.iter().next()) {
                    let inline = format!(
                        "{op_ptr}/requestBody/content/{}/schema",
                        document::escape(media)
                    );
                    let schema = c.get("schema");
                    let (schema, at) =
                        match schema.and_then(|s| s.get("$ref")).and_then(Value::as_str) {
                            Some(r) => (
                                document::resolve(doc, r),
                                r.trim_start_matches('#').to_owned(),
                            ),
                            None => (schema, inline),
                        };
                    if let Some(schema) = schema {
                        let mut through = Vec::new();
                        body_properties(doc, schema, 0, &mut body, &mut through);
                        if !body.is_empty() {
                            body_schemas.push(at);
                            body_schemas.extend(through);
                        }
                    }
                }
                out.push((
                    op_ptr,
                    Carried {
                        body,
                        body_schemas,
                        query,
                    },
                ));
            }
        }
        out
    }

    /// Credentials every operation carries as fields, made auth schemes: the credentials and
    /// the schemes (a `body` one first when any operation has them in its body). `None` when
    /// some operation carries none of them.
    pub(super) fn field_credentials(&mut self, service: &str) -> Option<(Credentials, Vec<Node>)> {
        let carried = self.carried();
        let mut common: Option<Vec<String>> = None;
        for (_, c) in &carried {
            let names: Vec<String> = c
                .body
                .iter()
                .chain(&c.query)
                .filter(|n| credential_like(n))
                .cloned()
                .collect();
            common = Some(match common {
                None => names,
                Some(so_far) => so_far.into_iter().filter(|n| names.contains(n)).collect(),
            });
        }
        let mut names = common.filter(|n| !n.is_empty())?;
        let mut seen = BTreeSet::new();
        names.retain(|n| seen.insert(n.clone()));
        let in_body = |c: &Carried| names.iter().all(|n| c.body.contains(n));
        let body_ops: Vec<&(String, Carried)> =
            carried.iter().filter(|(_, c)| in_body(c)).collect();
        let query_ops: Vec<&(String, Carried)> = carried
            .iter()
            .filter(|(_, c)| !in_body(c) && names.iter().all(|n| c.query.contains(n)))
            .collect();
        // Each operation carries every name, in its body or in its query.
        if body_ops.len() + query_ops.len() != carried.len() {
            return None;
        }
        let pairs = || {
            let mut m = Node::map();
            for n in &names {
                m.set(n, Node::str(operations::op_name(n)));
            }
            m
        };
        let at = body_ops
            .first()
            .or(query_ops.first())
            .map(|(p, _)| p.clone())
            .unwrap_or_default();
        let mut schemes = Vec::new();
        let listed = names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        if !body_ops.is_empty() {
            let mut node = Node::map();
            node.set("name", Node::str("body_credentials"));
            node.set("kind", Node::str("body"));
            node.set("fields", pairs());
            node.set("doc", Node::str(format!("{listed} as fields of every request body (the document has no security scheme).")));
            self.provenance(&mut node, &at);
            schemes.push(node);
        }
        if !query_ops.is_empty() {
            let mut node = Node::map();
            node.set("name", Node::str("query_credentials"));
            node.set("kind", Node::str("query"));
            node.set("params", pairs());
            node.set(
                "doc",
                Node::str(format!(
                    "{listed} as query parameters, for the operations that take them there."
                )),
            );
            self.provenance(&mut node, &at);
            schemes.push(node);
        }
        let credentials = names
            .iter()
            .map(|n| {
                let c = operations::op_name(n);
                let doc = format!("Sent as `{n}`, which every operation of the document carries.");
                let cred = self.credential_node(service, &c, &doc, &at);
                (c, cred)
            })
            .collect();
        self.approximate(
            &at,
            &format!("no security scheme, but every operation carries {listed}: sent by an auth scheme from credentials (not arguments of each call)"),
        );
        self.field_auth = FieldAuth {
            body_schemas: body_ops
                .iter()
                .flat_map(|(_, c)| c.body_schemas.iter().cloned())
                .collect(),
            query_ops: query_ops.iter().map(|(p, _)| p.clone()).collect(),
            query_scheme: (!body_ops.is_empty() && !query_ops.is_empty())
                .then(|| "query_credentials".to_owned()),
            names,
        };
        Some((credentials, schemes))
    }

    /// Takes the credentials an auth scheme sends out of a request body's fields.
    pub(super) fn drop_sent_fields(
        &self,
        ptr: &str,
        props: &mut IndexMap<String, (Value, String)>,
    ) {
        if self.field_auth.body_schemas.contains(ptr) {
            props.retain(|wire, _| !self.field_auth.names.contains(wire));
        }
    }

    /// Whether the query parameter `name` of the operation at `op_ptr` is a credential an auth
    /// scheme sends.
    pub(super) fn sent_query_param(&self, op_ptr: &str, name: &str) -> bool {
        self.field_auth.query_ops.contains(op_ptr)
            && self.field_auth.names.iter().any(|n| n == name)
    }

    /// The scheme of an operation that carries the credentials in its query when the default
    /// sends them in the body.
    pub(super) fn field_auth_scheme(&self, op_ptr: &str) -> Option<String> {
        self.field_auth
            .query_scheme
            .clone()
            .filter(|_| self.field_auth.query_ops.contains(op_ptr))
    }
}
