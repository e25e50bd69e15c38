//! Import: a provider's OpenAPI 3.0 / 3.1 or Swagger 2.0 document becomes a spec file, with
//! every item marked as imported (its document and JSON pointer) and what OpenAPI cannot say
//! (rate limits, retries, timeouts, idempotency, webhook signing) written as `not_shown`.
//!
//! What the spec language cannot express (cookie parameters, `HEAD`...) is skipped, and what it
//! says only approximately (Basic credential names, untagged unions, renamed wire names) is
//! imported; both are in the [`Report`] with their JSON pointer and reason. The result always
//! passes [`crate::check`]: the importer drops any item the checker refuses, and reports it.
//!
//! ```
//! let doc = r##"{
//!   "openapi": "3.0.3",
//!   "info": { "title": "Pets", "version": "1" },
//!   "servers": [{ "url": "https://pets.example.com/v1" }],
//!   "paths": { "/pets/{id}": { "get": {
//!     "operationId": "getPet",
//!     "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
//!     "responses": { "200": { "description": "ok", "content": { "application/json": {
//!       "schema": { "$ref": "#/components/schemas/Pet" } } } } } } } },
//!   "components": { "schemas": { "Pet": { "type": "object", "required": ["name"],
//!     "properties": { "name": { "type": "string" } } } } }
//! }"##;
//! let options = tidings_codegen::import::ImportOptions::new("pets", "pets.json");
//! let imported = tidings_codegen::import::import_openapi(doc, &options, None).unwrap();
//! assert!(imported.yaml.contains("get_pet:"));
//! assert!(imported.yaml.contains("imported from pets.json#/paths/~1pets~1{id}/get"));
//! assert_eq!(imported.report.operations_imported, 1);
//! ```

mod answer_texts;
mod answers;
mod bundle;
mod checked;
mod document;
mod error_paths;
mod error_shape;
mod errors;
mod example_schema;
mod example_types;
mod fidelity;
mod field_auth;
mod interpret;
mod key_text;
mod listed;
mod lossless;
mod media;
mod merge;
mod one_way;
mod operations;
mod options;
mod out;
mod pagination;
mod query_objects;
mod record;
mod render;
mod report;
mod requirements;
mod routes;
mod schema;
mod security;
mod servers;
mod swagger_pointer;
mod together;
mod webhooks;
mod yaml;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;

use indexmap::IndexMap;
use serde_json::Value;

pub(crate) use checked::is_imported;
use checked::{checked, follow_examples};
pub use document::{MAX_NESTING, Version, parse_document, read_document};
pub use fidelity::{
    FidelityReport, Located, RequestExample, TypedExample, fidelity_report, fidelity_report_in,
    request_examples, typed_examples,
};
pub use interpret::interpret;
pub use lossless::difference;
pub use options::ImportOptions;
pub(crate) use out::{FieldOut, OpOut, ParamOut, TypeOut, VariantOut};
pub use pagination::PaginationCounts;
use record::{record_include, recorded_include};
pub use report::{Finding, ImportError, Report};
use yaml::Node;

use crate::names::{can_be_ident, is_keyword, is_snake, pascal, shouty, snake};

/// Largest document read unless [`ImportOptions::max_document_bytes`] says otherwise (64 MiB;
/// the largest provider documents are a few MiB).
pub const DEFAULT_MAX_DOCUMENT_BYTES: usize = 64 * 1024 * 1024;

/// Most rounds of "check what was written, drop what the checker refuses".
const MAX_CHECK_ROUNDS: usize = 16;

/// The note every imported item carries, before its document and pointer.
const IMPORTED: &str = "imported from ";

/// An imported spec: its YAML text (which passes `check`) and the report.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The spec file.
    pub yaml: String,
    /// What was imported, skipped and approximated.
    pub report: Report,
}

/// Imports an OpenAPI 3.0 / 3.1 or Swagger 2.0 document (JSON or YAML text) as a spec.
///
/// With `existing` (the text of a spec file), the import is merged into it: items written by
/// hand (`seed` or `assumed` without an `imported from` note) win, and where the document
/// differs they get a `conflict:` note; items imported before are replaced; `not_shown` items
/// are filled. Importing the same document again gives the same bytes.
///
/// # Errors
/// When the document is too large, does not parse, is not OpenAPI, or the spec to merge into
/// does not load; see [`ImportError`].
pub fn import_openapi(
    text: &str,
    options: &ImportOptions,
    existing: Option<&str>,
) -> Result<Imported, ImportError> {
    // The schema walk recurses once per nested schema and component (each bounded:
    // `MAX_SCHEMA_DEPTH`, `MAX_COMPONENT_NESTING`); its own stack keeps that independent of
    // the caller's (a test thread has 2 MiB).
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("openapi-import".into())
            .stack_size(IMPORT_STACK_BYTES)
            .spawn_scoped(scope, || import_on_this_thread(text, options, existing));
        match worker {
            Ok(handle) => match handle.join() {
                Ok(result) => result,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => import_on_this_thread(text, options, existing),
        }
    })
}

/// The stack of the thread an import runs on.
const IMPORT_STACK_BYTES: usize = 64 * 1024 * 1024;

fn import_on_this_thread(
    text: &str,
    options: &ImportOptions,
    existing: Option<&str>,
) -> Result<Imported, ImportError> {
    if text.len() > options.max_document_bytes {
        return Err(ImportError::TooLarge {
            size: text.len(),
            limit: options.max_document_bytes,
        });
    }
    if !is_snake(&options.service) || is_keyword(&options.service) {
        return Err(ImportError::Options(format!(
            "--service `{}` is not a snake_case module name (like `sendgrid`)",
            options.service
        )));
    }
    let mut raw = document::parse(text)?;
    let version = document::version(&raw)?;
    let unresolved = match &options.base_dir {
        Some(dir) => bundle::inline_external_refs(&mut raw, dir, version == Version::Swagger2),
        None => Vec::new(),
    };
    let mut converted = (version == Version::Swagger2).then(|| document::swagger_to_openapi(&raw));
    let shown_by_example = example_types::fill(converted.as_mut().unwrap_or(&mut raw));
    let texts_shown = answer_texts::lend(converted.as_mut().unwrap_or(&mut raw));
    let doc = converted.as_ref().unwrap_or(&raw);
    let existing = match existing {
        Some(existing) => {
            document::check_nesting(existing, document::MAX_NESTING)?;
            Some(Node::parse(existing).map_err(ImportError::Merge)?)
        }
        None => None,
    };
    // A merge without `--include` imports what the spec recorded it was made from.
    let recorded = existing.as_ref().map(recorded_include).unwrap_or_default();
    let kept = options.include.is_empty() && !recorded.is_empty();
    let with_recorded;
    let options = if kept {
        with_recorded = ImportOptions {
            include: recorded,
            ..options.clone()
        };
        &with_recorded
    } else {
        options
    };
    let mut conv = Converter::new(doc, options, converted.is_some().then_some(&raw));
    conv.report.version = Some(version);
    for (pointer, examples) in shown_by_example {
        conv.report.inferred.push(Finding {
            pointer,
            reason: format!(
                "the document gives no schema: the type is read off its {examples} example(s) (every field optional, other keys kept)"
            ),
            detail: None,
        });
    }
    if texts_shown > 0 {
        conv.report.inferred.push(Finding {
            pointer: "#".to_owned(),
            reason: format!(
                "{texts_shown} text field(s) with no example of their own take the one their answers' examples show (what the sandbox answers where it makes them up)"
            ),
            detail: None,
        });
    }
    for (what, places) in bundle::not_brought_in(doc, &unresolved) {
        conv.report.approximated.push(Finding {
            pointer: "#".to_owned(),
            reason: "a `$ref` to another file not brought in".to_owned(),
            detail: Some(format!("{what}; {places}")),
        });
    }
    let mut spec = conv.build(options);
    let mut report = std::mem::take(&mut conv.report);
    report.include.clone_from(&options.include);
    report.include_kept = kept;
    if let Some(existing) = existing {
        spec = merge::merge(existing, spec, &mut report).map_err(ImportError::Merge)?;
    }
    record_include(&mut spec, &options.include);
    let (mut yaml, mut service) = checked(&mut spec, &options.service, &mut report)?;
    // Documented examples outrank a field's schema: a field whose examples send another JSON
    // type (a number typed `string`, a price sent as text), or leave out when it is required,
    // would fail every real answer like them.
    for _ in 0..MAX_CHECK_ROUNDS {
        let evidence = fidelity::disagreeing_fields(&raw, &service);
        if evidence.is_empty() || !follow_examples(&mut spec, &evidence, &mut report) {
            break;
        }
        (yaml, service) = checked(&mut spec, &options.service, &mut report)?;
    }
    report.types_imported = spec
        .get("types")
        .map(|t| match t {
            Node::Map(m) => m.values().filter(|v| is_imported(v)).count(),
            _ => 0,
        })
        .unwrap_or(0);
    report.operations_imported = spec
        .get("operations")
        .map(|t| match t {
            Node::Map(m) => m.values().filter(|v| is_imported(v)).count(),
            _ => 0,
        })
        .unwrap_or(0);
    Ok(Imported { yaml, report })
}

/// Whether a server URL names this machine (`localhost`, a loopback address).
fn is_local_url(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    host.eq_ignore_ascii_case("localhost")
        || host.to_ascii_lowercase().ends_with(".localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The conversion of one document: names taken, types made, findings.
pub(crate) struct Converter<'a> {
    pub(crate) doc: &'a Value,
    doc_name: String,
    swagger: bool,
    /// The Swagger 2.0 document as written, which pointers name places of.
    original: Option<&'a Value>,
    pub(crate) used_names: HashSet<String>,
    pub(crate) component_names: HashMap<String, String>,
    /// Shorter name hints for components named by their package path.
    pub(crate) short_names: HashMap<String, String>,
    pub(crate) memo: HashMap<String, String>,
    pub(crate) in_progress: HashSet<String>,
    /// The name of the component being built, taken by its first inline type.
    pub(crate) claim: Option<String>,
    pub(crate) types: IndexMap<String, TypeOut>,
    pub(crate) ops: Vec<OpOut>,
    /// Security scheme names in the document → auth scheme names in the spec.
    pub(crate) auth_names: Vec<(String, String)>,
    /// Header names (lower case) the auth schemes send, which operations need not declare.
    pub(crate) auth_headers: HashSet<String>,
    /// Security schemes left out (already reported).
    pub(crate) unmapped_schemes: HashSet<String>,
    /// Spec schemes sent together by `all` schemes.
    pub(crate) together: together::Together,
    /// Credentials carried as fields, sent by an auth scheme instead.
    pub(crate) field_auth: field_auth::FieldAuth,
    /// Operations (pointers) that do not take the header the service's key was inferred from,
    /// where most do: public.
    pub(crate) public_without_key: HashSet<String>,
    /// Set while a multipart body's type is made: its binary string fields become `bytes`.
    pub(crate) bytes_fields: bool,
    /// [`ImportOptions::keep_undeclared_keys`].
    pub(crate) keep_undeclared_keys: bool,
    /// Set while an object's `allOf` is gathered when a member is a `oneOf`/`anyOf`: the
    /// object then keeps its other keys, the alternatives' fields among them.
    pub(crate) alternatives_in_all_of: bool,
    /// Set when every webhook's signature scheme was read from the document.
    pub(crate) webhooks_signed: bool,
    pub(crate) pagination: Option<Node>,
    pub(crate) idempotency: Option<Node>,
    pub(crate) report: Report,
}

/// Names generated code uses besides the spec's types, on top of the prelude names the checker
/// refuses ([`crate::check::types::PRELUDE_NAMES`]).
const RESERVED_TYPE_NAMES: &[&str] = &["Self", "Page", "Type"];

impl<'a> Converter<'a> {
    /// `original`: the Swagger 2.0 document `doc` was rewritten from.
    fn new(doc: &'a Value, options: &ImportOptions, original: Option<&'a Value>) -> Self {
        let mut used_names: HashSet<String> = crate::check::types::PRELUDE_NAMES
            .iter()
            .chain(RESERVED_TYPE_NAMES)
            .map(|s| (*s).to_owned())
            .collect();
        used_names.insert(format!("{}Client", pascal(&options.service)));
        // A document that delivers webhooks may get the generated enum of their payloads: a
        // component of that name takes another (it was refused by the checker, and dropped).
        if ["webhooks", "x-webhooks"].iter().any(|k| {
            doc.get(*k)
                .and_then(Value::as_object)
                .is_some_and(|m| !m.is_empty())
        }) {
            used_names.insert(crate::check::PAYLOAD_ENUM.to_owned());
        }
        Converter {
            doc,
            doc_name: options.document_name.clone(),
            swagger: original.is_some(),
            original,
            used_names,
            component_names: HashMap::new(),
            short_names: schema::names::package_short_names(
                ["/components/schemas", "/definitions"]
                    .iter()
                    .filter_map(|p| doc.pointer(p).and_then(Value::as_object))
                    .flat_map(|m| m.keys().map(String::as_str)),
            ),
            memo: HashMap::new(),
            in_progress: HashSet::new(),
            claim: None,
            types: IndexMap::new(),
            ops: Vec::new(),
            auth_names: Vec::new(),
            auth_headers: HashSet::new(),
            unmapped_schemes: HashSet::new(),
            together: together::Together::default(),
            field_auth: field_auth::FieldAuth::default(),
            public_without_key: HashSet::new(),
            bytes_fields: false,
            keep_undeclared_keys: options.keep_undeclared_keys,
            alternatives_in_all_of: false,
            webhooks_signed: false,
            pagination: None,
            idempotency: None,
            report: Report::default(),
        }
    }

    /// A pointer as the document's reader knows it (`#/definitions/...`, an operation's
    /// `parameters/1/schema` for Swagger 2.0).
    fn pointer(&self, ptr: &str) -> String {
        match self.original {
            Some(raw) => swagger_pointer::swagger_pointer(raw, ptr),
            None => format!("#{ptr}"),
        }
    }

    pub(crate) fn skip(&mut self, ptr: &str, reason: &str, detail: Option<&str>) {
        let pointer = self.pointer(ptr);
        self.report.skipped.push(Finding {
            pointer,
            reason: reason.to_owned(),
            detail: detail.map(str::to_owned),
        });
    }

    pub(crate) fn approximate(&mut self, ptr: &str, reason: &str) {
        let pointer = self.pointer(ptr);
        let finding = Finding {
            pointer,
            reason: reason.to_owned(),
            detail: None,
        };
        // The same schema reached twice is reported once.
        if !self.report.approximated.contains(&finding) {
            self.report.approximated.push(finding);
        }
    }

    pub(crate) fn inferred(&mut self, ptr: &str, reason: &str) {
        let pointer = self.pointer(ptr);
        self.report.inferred.push(Finding {
            pointer,
            reason: reason.to_owned(),
            detail: None,
        });
    }

    fn note(&self, ptr: &str) -> Node {
        Node::str(format!("{IMPORTED}{}{}", self.doc_name, self.pointer(ptr)))
    }

    fn provenance(&self, node: &mut Node, ptr: &str) {
        node.set("source", Node::str("imported"));
        node.set("note", self.note(ptr));
    }

    /// The whole spec, as a tree.
    fn build(&mut self, options: &ImportOptions) -> Node {
        let doc = self.doc;
        let (base_url, prefix) = self.base_url(&options.service, &options.include);
        let (credentials, auth) = self.security(&options.service);
        self.own_sections();
        self.operations(&options.include, &prefix);
        if options.include.is_empty() {
            self.all_components();
        }
        let errors = self.errors_section();
        let events = self.webhooks(&options.service);
        self.break_cycles();
        self.required_in_answers();

        let mut spec = Node::map();
        let mut service = Node::map();
        service.set("name", Node::str(&options.service));
        let info = doc.get("info");
        let text = |k: &str| {
            info.and_then(|i| i.get(k))
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
        };
        let title = text("title").unwrap_or(&options.service).to_owned();
        let summary = text("summary")
            .or_else(|| text("description").and_then(|d| d.lines().next()))
            .unwrap_or(&title)
            .to_owned();
        service.set("title", Node::str(first_line(&title)));
        service.set("summary", Node::str(first_line(&summary)));
        if let Some(d) = text("description") {
            service.set("doc", Node::str(d));
        }
        if let Some(p) = self.version_prefix() {
            let mut v = Node::map();
            v.set("prefix", Node::str(p));
            self.provenance(&mut v, "/info/version");
            service.set("version", v);
        }
        service.set("base_url", base_url);
        self.provenance(&mut service, "/info");
        spec.set("service", service);
        if let Node::Map(m) = &credentials
            && !m.is_empty()
        {
            spec.set("credentials", credentials);
        }
        if let Node::Seq(s) = &auth
            && !s.is_empty()
        {
            spec.set("auth", auth);
        }
        let mut limits = Node::map();
        let mut rate = Node::map();
        rate.set("source", Node::str("not_shown"));
        rate.set(
            "note",
            Node::str("OpenAPI does not say; fill it in from the provider's documentation."),
        );
        limits.set("rate", rate);
        spec.set("limits", limits);
        if let Some(i) = self.idempotency.clone() {
            spec.set("idempotency", i);
        }
        if let Some(p) = self.pagination.clone()
            && self.ops.iter().any(|o| {
                o.response
                    .as_deref()
                    .is_some_and(|r| r.starts_with("page<"))
            })
        {
            spec.set("pagination", p);
        }
        if let Some(e) = errors {
            spec.set("errors", e);
        }
        spec.set("types", self.render_types());
        spec.set("operations", self.render_operations());
        let has_events = events.is_some();
        if let Some(e) = events {
            spec.set("events", e);
        }
        let error_shape_known = spec.get("errors").is_some() || self.shows_error_bodies();
        spec.set("gaps", self.gaps(has_events, error_shape_known));
        spec
    }

    /// The base URL (`default` only when the document gives an absolute one, its path
    /// included, as OpenAPI reads it: operation paths are relative to the server URL) and, for
    /// a relative server URL, its path, which then goes in front of every operation path.
    fn base_url(&mut self, service: &str, include: &[String]) -> (Node, String) {
        let doc = self.doc;
        let mut node = Node::map();
        let env = format!("COMMS_{}_BASE_URL", shouty(service));
        // Our own exports carry the spec's base URL as written.
        if let Some(b) = doc.get("x-base-url") {
            if let Some(d) = b.get("default").and_then(Value::as_str) {
                node.set("default", Node::str(d));
            }
            node.set("env", Node::str(env));
            self.provenance(&mut node, "/x-base-url");
            return (node, String::new());
        }
        let (server, at) = self.service_server(include);
        let url = server.map(servers::server_url).unwrap_or_default();
        let mut prefix = String::new();
        let absolute = url.starts_with("http://") || url.starts_with("https://");
        if absolute && !url.contains('{') {
            // `https://api.sendgrid.com/v3` stays whole: the runtime keeps a base URL's path,
            // and a mock serving the document (Prism, the sandbox) serves the paths as written.
            node.set("default", Node::str(url.trim_end_matches('/')));
            if url.starts_with("http://") && !is_local_url(&url) {
                // Kept as the document says, and said: the client refuses to send credentials
                // over plain HTTP to another host (SendGrid's `oai.json` lists only `http`).
                self.report.inferred.push(Finding {
                    pointer: self.pointer(&at),
                    reason: "the only server is plain http://: a client of this spec sends no \
                             credentials there until given an https:// base URL (or told \
                             allow_plain_http)"
                        .to_owned(),
                    detail: Some(url.clone()),
                });
            }
        } else if url.starts_with('/') && !url.contains('{') {
            prefix = url.trim_end_matches('/').to_owned();
            self.approximate(&at, "a relative server URL: the base URL is not shown");
        } else if !url.is_empty() {
            self.approximate(
                &at,
                "a server URL that is not absolute: the base URL is not shown",
            );
        }
        node.set("env", Node::str(env));
        self.provenance(&mut node, &at);
        (node, prefix)
    }

    /// The version prefix when every path starts with one segment that looks like a version.
    fn version_prefix(&self) -> Option<String> {
        let first = |p: &str| p.split('/').nth(1).map(str::to_owned);
        let seg = first(&self.ops.first()?.path)?;
        let info_version = self
            .doc
            .get("info")
            .and_then(|i| i.get("version"))
            .and_then(Value::as_str);
        let versionish = Some(seg.as_str()) == info_version
            || (seg.starts_with('v')
                && seg.len() > 1
                && seg[1..].chars().all(|c| c.is_ascii_digit()));
        (versionish
            && !seg.contains('{')
            && self
                .ops
                .iter()
                .all(|o| o.path.starts_with(&format!("/{seg}/"))))
        .then_some(seg)
    }

    /// Pagination and idempotency sections our own exports carry (`x-pagination`,
    /// `x-idempotency`); OpenAPI has no place for them.
    fn own_sections(&mut self) {
        let doc = self.doc;
        if let Some(Value::Object(p)) = doc.get("x-pagination") {
            let mut node = Node::map();
            let keys = [
                "limit_param",
                "max_limit",
                "after_param",
                "before_param",
                "items_field",
                "has_more_field",
                "cursor_field",
            ];
            for k in keys {
                match p.get(k) {
                    Some(Value::String(s)) => node.set(k, Node::str(s)),
                    Some(Value::Number(n)) => node.set(k, Node::Int(n.as_i64().unwrap_or(0))),
                    _ => {}
                }
            }
            self.provenance(&mut node, "/x-pagination");
            self.pagination = Some(node);
        }
        if let Some(Value::Object(i)) = doc.get("x-idempotency")
            && let (Some(h), Some(m)) = (
                i.get("header").and_then(Value::as_str),
                i.get("max_len").and_then(Value::as_u64),
            )
        {
            let mut node = Node::map();
            node.set("header", Node::str(h));
            node.set("max_len", Node::Int(i64::try_from(m).unwrap_or(i64::MAX)));
            if let Some(r) = i.get("retention_hours").and_then(Value::as_u64) {
                node.set("retention_hours", Node::Int(i64::try_from(r).unwrap_or(0)));
            }
            self.provenance(&mut node, "/x-idempotency");
            self.idempotency = Some(node);
        }
    }

    /// Every component schema, whether an operation uses it or not (full imports only).
    fn all_components(&mut self) {
        let doc = self.doc;
        let Some(schemas) = doc
            .get("components")
            .and_then(|c| c.get("schemas"))
            .and_then(Value::as_object)
        else {
            return;
        };
        // Our exports' page and union-variant wrappers are read through their users.
        let mut wrappers = HashSet::new();
        for s in schemas.values() {
            if s.get("x-open-union").is_some() {
                for m in s
                    .get("oneOf")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(c) = m
                        .get("$ref")
                        .and_then(Value::as_str)
                        .and_then(schema::component_of)
                    {
                        wrappers.insert(c);
                    }
                }
            }
        }
        let has_pagination = self.pagination.is_some();
        for name in schemas.keys() {
            if wrappers.contains(name) || (has_pagination && name.starts_with("Page_")) {
                continue;
            }
            if let Err(e) = self.component(name) {
                let ptr = format!("/components/schemas/{}", document::escape(name));
                self.skip(&ptr, "schema not mappable", Some(&e));
            }
        }
    }

    /// What OpenAPI cannot say, as `not_shown` gaps.
    fn gaps(&self, has_events: bool, error_shape_known: bool) -> Node {
        let mut gaps = Node::map();
        let mut add = |name: &str, text: &str| {
            let mut g = Node::map();
            g.set("text", Node::str(text));
            g.set("source", Node::str("not_shown"));
            gaps.set(name, g);
        };
        add(
            "retry_policy",
            "Which failures are retried, how often and with what backoff: OpenAPI does not say.",
        );
        add(
            "timeouts",
            "Connect and request timeouts: OpenAPI does not say.",
        );
        let p = &self.report.pagination;
        let unpaged = (p.page_lists + p.bare_lists).saturating_sub(p.paginated());
        if unpaged > 0 {
            add(
                "pagination",
                &format!(
                    "How {unpaged} list operation(s) page: the document shows no next-page field with its query parameter (or the answer is a bare array); give them `pagination:` where they page."
                ),
            );
        }
        // What the spec language could not say exactly (typed `json`, kept as other keys, an
        // untagged union): the client carries it, typed more loosely than the document.
        let loose: Vec<&Finding> = self
            .report
            .approximated
            .iter()
            .filter(|f| {
                f.reason.contains("typed as json")
                    || f.reason.contains("as other keys")
                    || f.reason.contains("untagged union")
            })
            .collect();
        if !loose.is_empty() {
            let shown: Vec<&str> = loose.iter().take(5).map(|f| f.pointer.as_str()).collect();
            let more = if loose.len() > shown.len() {
                format!(" and {} more", loose.len() - shown.len())
            } else {
                String::new()
            };
            add(
                "loosely_typed",
                &format!(
                    "{} item(s) of the document are typed more loosely than it says (json, other keys, an untagged union): {}{more}; the import report says why for each.",
                    loose.len(),
                    shown.join(", ")
                ),
            );
        }
        if !error_shape_known {
            add(
                "error_body",
                "The shape of an error answer (where its code and message are): the document shows none, so the sandbox answers errors in a shape of its own; give the spec `errors:`.",
            );
        }
        if self.idempotency.is_none() {
            add(
                "idempotency",
                "Whether writes take an idempotency key, and in which header: OpenAPI does not say.",
            );
        }
        let signed = has_events
            && (self.webhooks_signed
                || self
                    .doc
                    .get("webhooks")
                    .or_else(|| self.doc.get("x-webhooks"))
                    .is_some_and(|w| w.to_string().contains("x-signature")));
        if !signed {
            add(
                "webhook_signature",
                "How webhook deliveries are signed: OpenAPI does not say.",
            );
        }
        gaps
    }

    /// Breaks the cycles of unions that hold themselves through their variants alone, which
    /// Rust cannot size: the variant that closes one carries no content (an untagged one is
    /// `json`). A cycle through an object field stays typed: the field is boxed.
    fn break_cycles(&mut self) {
        let names: Vec<String> = self.types.keys().cloned().collect();
        let mut state: HashMap<String, u8> = HashMap::new();
        for n in &names {
            self.visit(n, &mut state, 0);
        }
    }

    fn visit(&mut self, name: &str, state: &mut HashMap<String, u8>, depth: usize) {
        if state.get(name).copied().unwrap_or(0) != 0 || depth > 10_000 {
            return;
        }
        state.insert(name.to_owned(), 1);
        // An object field that leads back is boxed by the generated code (`check` marks it),
        // so only unions going round through their variants alone are cycles here.
        let edges: Vec<(usize, String)> = match self.types.get(name) {
            Some(TypeOut::Union { variants, .. }) => variants
                .iter()
                .enumerate()
                .filter_map(|(i, v)| {
                    v.ty.clone()
                        .filter(|t| self.types.contains_key(t))
                        .map(|t| (i, t))
                })
                .collect(),
            _ => Vec::new(),
        };
        for (i, target) in edges {
            match state.get(&target).copied().unwrap_or(0) {
                1 => {
                    let ptr = match self.types.get_mut(name) {
                        Some(TypeOut::Object {
                            fields, pointer, ..
                        }) => {
                            if let Some(f) = fields.get_mut(i) {
                                f.ty = "json".into();
                            }
                            Some(pointer.clone())
                        }
                        Some(TypeOut::Union {
                            variants,
                            pointer,
                            content,
                            untagged,
                            ..
                        }) => {
                            if content.is_some() {
                                None
                            } else {
                                if let Some(v) = variants.get_mut(i) {
                                    // An untagged variant is its type: it stays, as any JSON.
                                    v.ty = untagged.then(|| "json".to_owned());
                                }
                                Some(pointer.clone())
                            }
                        }
                        _ => None,
                    };
                    if let Some(p) = ptr {
                        self.approximate(&p, "a value that contains itself: needs spec construct: boxed field; typed as json");
                    }
                }
                0 => self.visit(&target, state, depth + 1),
                _ => {}
            }
        }
        state.insert(name.to_owned(), 2);
    }
}

/// The Rust name a wire name needs when the one derived from it is not usable or already
/// `taken` (`DateSent<` beside `DateSent` -> `date_sent_before`, `self` -> `self_value`);
/// `None` when the derived name serves. The name chosen is added to `taken`.
pub(crate) fn rust_rename(wire: &str, taken: &mut BTreeSet<String>) -> Option<String> {
    let derived = snake(wire);
    if can_be_ident(&derived) && taken.insert(derived.clone()) {
        return None;
    }
    let spelled = crate::names::ascii_fold(wire)
        .replace('<', " before ")
        .replace('>', " after ");
    let mut base = snake(&spelled);
    if base.is_empty() {
        base = "field".into();
    }
    if !base.starts_with(|c: char| c.is_ascii_lowercase()) {
        base = format!("n_{base}");
    }
    if !can_be_ident(&base) || crate::names::is_keyword(&base) {
        base = format!("{base}_value");
    }
    let mut candidate = base.clone();
    let mut n = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{base}_{n}");
        n += 1;
    }
    Some(candidate)
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_without_a_usable_rust_name_get_a_distinct_one() {
        let mut taken = BTreeSet::new();
        assert_eq!(rust_rename("DateSent", &mut taken), None);
        assert_eq!(
            rust_rename("DateSent<", &mut taken).as_deref(),
            Some("date_sent_before")
        );
        assert_eq!(
            rust_rename("DateSent>", &mut taken).as_deref(),
            Some("date_sent_after")
        );
        assert_eq!(
            rust_rename("self", &mut taken).as_deref(),
            Some("self_value")
        );
        assert_eq!(rust_rename("", &mut taken).as_deref(), Some("field"));
        assert_eq!(rust_rename("", &mut taken).as_deref(), Some("field_2"));
        assert_eq!(rust_rename("2fa", &mut taken).as_deref(), Some("n_2fa"));
        assert_eq!(rust_rename("ä", &mut taken).as_deref(), Some("ae"));
        assert_eq!(rust_rename("größe", &mut taken).as_deref(), Some("groesse"));
        assert_eq!(rust_rename("名", &mut taken).as_deref(), Some("u540d"));
        // A keyword is a raw identifier, not a rename.
        assert_eq!(rust_rename("type", &mut taken), None);
        assert!(taken.iter().all(|n| can_be_ident(n)));
    }

    #[test]
    fn basic_credentials_are_named_from_a_user_password_scheme_name() {
        assert_eq!(
            security::basic_credential_names("accountSid_authToken", "account_sid_auth_token"),
            ("account_sid".to_owned(), "auth_token".to_owned())
        );
        assert_eq!(
            security::basic_credential_names("basicAuth", "basic_auth"),
            (
                "basic_auth_username".to_owned(),
                "basic_auth_password".to_owned()
            )
        );
    }
}
