//! Checking: a loaded [`SpecFile`] becomes a resolved [`Service`], or every problem in it is
//! reported at once.
//!
//! Names, references, duplicates, path parameters, enum values, limits and provenance are all
//! checked here, so that the emitter can trust what it gets and never fails on a spec.

use std::collections::{BTreeSet, HashMap};

/// Names from the standard prelude that generated code uses without a path: a spec type with
/// one of these names would shadow it.
const PRELUDE_NAMES: &[&str] = &[
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "Vec",
    "Box",
    "From",
    "Into",
    "IntoIterator",
    "Iterator",
    "Default",
    "Clone",
    "Send",
    "Sync",
];

use crate::diag::{Diagnostic, Diagnostics};
use crate::load::{Loaded, Locations};
use crate::model::{AuthKind, Format, IdempotencyMode, Method, Source, SpecFile, TypeDef};
use crate::names::{can_be_ident, did_you_mean, is_pascal, is_snake, pascal, snake};

/// A type expression, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// `string`
    String,
    /// `integer` (64-bit signed)
    Integer,
    /// `number` (64-bit float)
    Number,
    /// `boolean`
    Boolean,
    /// `datetime`: an RFC 3339 timestamp, kept as text.
    DateTime,
    /// `json`: any JSON value.
    Json,
    /// A named type of the spec.
    Named(String),
    /// `list<T>`
    List(Box<Ty>),
    /// `map<T>`: string keys.
    Map(Box<Ty>),
    /// `page<T>`: one page of a cursor-paginated list.
    Page(Box<Ty>),
}

const BUILTINS: &[&str] = &["string", "integer", "number", "boolean", "datetime", "json"];

impl Ty {
    /// Parses a type expression; unknown names are kept as [`Ty::Named`] for the checker.
    pub fn parse(text: &str) -> Result<Ty, String> {
        let text = text.trim();
        for (prefix, wrap) in [
            ("list<", Ty::List as fn(Box<Ty>) -> Ty),
            ("map<", Ty::Map as fn(Box<Ty>) -> Ty),
            ("page<", Ty::Page as fn(Box<Ty>) -> Ty),
        ] {
            if let Some(rest) = text.strip_prefix(prefix) {
                let inner = rest
                    .strip_suffix('>')
                    .ok_or_else(|| format!("`{text}` is missing its closing `>`"))?;
                return Ok(wrap(Box::new(Ty::parse(inner)?)));
            }
        }
        Ok(match text {
            "string" => Ty::String,
            "integer" => Ty::Integer,
            "number" => Ty::Number,
            "boolean" => Ty::Boolean,
            "datetime" => Ty::DateTime,
            "json" => Ty::Json,
            "" => return Err("the type is empty".into()),
            name if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                Ty::Named(name.to_owned())
            }
            other => return Err(format!("`{other}` is not a type expression")),
        })
    }

    /// Every named type this expression refers to.
    fn names(&self, out: &mut Vec<String>) {
        match self {
            Ty::Named(n) => out.push(n.clone()),
            Ty::List(t) | Ty::Map(t) | Ty::Page(t) => t.names(out),
            _ => {}
        }
    }

    /// True for scalars (what a query or path parameter may be).
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            Ty::String | Ty::Integer | Ty::Number | Ty::Boolean | Ty::DateTime
        )
    }

    fn contains_page(&self) -> bool {
        match self {
            Ty::Page(_) => true,
            Ty::List(t) | Ty::Map(t) => t.contains_page(),
            _ => false,
        }
    }
}

/// A resolved service.
#[derive(Debug, Clone)]
pub struct Service {
    /// The file it came from, as shown in diagnostics.
    pub file: String,
    /// The spec as written.
    pub spec: SpecFile,
    /// Named types, in spec order.
    pub types: Vec<TypeInfo>,
    /// Operations, in spec order.
    pub operations: Vec<OperationInfo>,
    /// Derived facts the emitter needs more than once, computed on first use.
    pub(crate) derived: std::sync::OnceLock<std::collections::BTreeSet<String>>,
}

impl Service {
    /// The service's short name (`email`).
    pub fn name(&self) -> &str {
        &self.spec.service.name
    }
}

/// A named type, resolved.
#[derive(Debug, Clone)]
pub struct TypeInfo {
    /// PascalCase name.
    pub name: String,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
    /// What kind of type.
    pub kind: TypeKind,
    /// Rules across fields (objects only), checked before sending.
    pub rules: Vec<RuleInfo>,
}

/// The three kinds of named type.
#[derive(Debug, Clone)]
pub enum TypeKind {
    /// A struct.
    Object(Vec<FieldInfo>),
    /// An open enum of strings.
    Enum(Vec<ValueInfo>),
    /// A union told apart by a tag field.
    Union {
        /// Field with the tag.
        tag: String,
        /// Field with the content, if the content does not sit beside the tag.
        content: Option<String>,
        /// Variants.
        variants: Vec<VariantInfo>,
    },
}

/// An object field.
#[derive(Debug, Clone)]
pub struct FieldInfo {
    /// Wire name.
    pub wire: String,
    /// Rust name.
    pub rust: String,
    /// Type.
    pub ty: Ty,
    /// Must be present.
    pub required: bool,
    /// String format.
    pub format: Option<Format>,
    /// Limits checked before sending.
    pub constraints: Constraints,
    /// Redacted in `Debug`.
    pub secret: bool,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
}

/// Limits on a field's value, checked before sending.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constraints {
    /// Longest string in characters.
    pub max_len: Option<u64>,
    /// Shortest string in characters.
    pub min_len: Option<u64>,
    /// Longest string in bytes.
    pub max_bytes: Option<u64>,
    /// Most items.
    pub max_items: Option<u64>,
    /// Fewest items.
    pub min_items: Option<u64>,
    /// Smallest number.
    pub min: Option<f64>,
    /// Largest number.
    pub max: Option<f64>,
}

impl Constraints {
    /// True when nothing is constrained.
    pub fn is_empty(&self) -> bool {
        *self == Constraints::default()
    }
}

/// A rule across an object's fields, by Rust field name.
#[derive(Debug, Clone, PartialEq)]
pub enum RuleInfo {
    /// At most one set.
    Exclusive(Vec<(String, String)>),
    /// At least one set.
    RequireOne(Vec<(String, String)>),
    /// Items of these list fields together at most `max`.
    MaxTotal(Vec<(String, String)>, u64),
}

/// An enum value.
#[derive(Debug, Clone)]
pub struct ValueInfo {
    /// Wire value.
    pub wire: String,
    /// Rust variant name.
    pub rust: String,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
}

/// A union variant.
#[derive(Debug, Clone)]
pub struct VariantInfo {
    /// Tag value.
    pub tag: String,
    /// Rust variant name.
    pub rust: String,
    /// Content type.
    pub ty: Option<String>,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
}

/// An operation, resolved.
#[derive(Debug, Clone)]
pub struct OperationInfo {
    /// snake_case name.
    pub name: String,
    /// HTTP method.
    pub method: Method,
    /// Path template.
    pub path: String,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
    /// Why it is assumed, or what the seed says.
    pub note: Option<String>,
    /// Set when seed facts disagree about it.
    pub conflict: Option<String>,
    /// Path parameters, in path order.
    pub path_params: Vec<ParamInfo>,
    /// Query parameters.
    pub query: Vec<ParamInfo>,
    /// Request body type.
    pub body: Option<Ty>,
    /// Success body type.
    pub response: Option<Ty>,
    /// Retry class.
    pub idempotency: IdempotencyMode,
    /// Auth scheme name, when not the default.
    pub auth: Option<String>,
}

impl OperationInfo {
    /// The item type when the response is a cursor page.
    pub fn page_item(&self) -> Option<&Ty> {
        match &self.response {
            Some(Ty::Page(item)) => Some(item),
            _ => None,
        }
    }
}

/// A path or query parameter.
#[derive(Debug, Clone)]
pub struct ParamInfo {
    /// Wire name.
    pub wire: String,
    /// Rust name.
    pub rust: String,
    /// Type.
    pub ty: Ty,
    /// Must be given.
    pub required: bool,
    /// Filled from this credential instead of an argument.
    pub from_credential: Option<String>,
    /// Limits checked before sending (query parameters).
    pub constraints: Constraints,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
}

/// Loads and checks every spec of a directory, reporting the loader's and the checker's
/// problems together: one run shows every error.
pub fn check_dir(dir: &std::path::Path) -> Result<Vec<Service>, Diagnostics> {
    let mut errors = Diagnostics::default();
    let mut loaded = Vec::new();
    for path in crate::load::spec_files(dir)? {
        let (file, problems) = crate::load::load_file_partial(&path);
        errors.extend(problems);
        loaded.extend(file);
    }
    match check_all(&loaded) {
        Ok(services) if errors.is_empty() => Ok(services),
        Ok(_) => Err(errors.sorted()),
        Err(more) => {
            errors.extend(more);
            Err(errors.sorted())
        }
    }
}

/// Checks several loaded files: each on its own, then across files (unique service names).
pub fn check_all(loaded: &[Loaded]) -> Result<Vec<Service>, Diagnostics> {
    let mut errors = Diagnostics::default();
    let mut services = Vec::new();
    let mut names: HashMap<String, String> = HashMap::new();
    for file in loaded {
        let name = file.spec.service.name.clone();
        if let Some(first) = names.get(&name) {
            errors.push(
                Diagnostic::new(
                    &file.display,
                    file.locations.value("service.name"),
                    format!("duplicate service name `{name}`"),
                )
                .hint(format!(
                    "`{first}` already defines it; each service needs its own name"
                )),
            );
        } else {
            names.insert(name, file.display.clone());
        }
        match check(file) {
            Ok(s) => services.push(s),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(services)
    } else {
        Err(errors.sorted())
    }
}

/// Checks one loaded file.
pub fn check(loaded: &Loaded) -> Result<Service, Diagnostics> {
    let mut c = Checker {
        file: &loaded.display,
        loc: &loaded.locations,
        spec: &loaded.spec,
        broken: &loaded.broken,
        errors: Diagnostics::default(),
    };
    c.service();
    c.auth();
    c.limits();
    let types = c.types();
    let operations = c.operations();
    c.events();
    c.websocket();
    c.gaps();
    if c.errors.is_empty() {
        Ok(Service {
            file: loaded.display.clone(),
            spec: loaded.spec.clone(),
            types,
            operations,
            derived: std::sync::OnceLock::new(),
        })
    } else {
        Err(c.errors.sorted())
    }
}

struct Checker<'a> {
    file: &'a str,
    broken: &'a [String],
    loc: &'a Locations,
    spec: &'a SpecFile,
    errors: Diagnostics,
}

const SOURCE_HINT: &str = "add `source: seed` (stated by the seed), `source: assumed` (our design) or `source: not_shown` (still unknown)";

impl Checker<'_> {
    fn error(&mut self, path: &str, message: impl Into<String>) -> &mut Diagnostic {
        let d = Diagnostic::new(self.file, self.loc.key(path), message);
        self.errors.0.push(d);
        let last = self.errors.0.len() - 1;
        &mut self.errors.0[last]
    }

    fn error_at_value(&mut self, path: &str, message: impl Into<String>) -> &mut Diagnostic {
        let d = Diagnostic::new(self.file, self.loc.value(path), message);
        self.errors.0.push(d);
        let last = self.errors.0.len() - 1;
        &mut self.errors.0[last]
    }

    /// Every top-level item must say where it comes from.
    fn require_source(&mut self, path: &str, source: Option<Source>) -> Source {
        match source {
            Some(s) => s,
            None => {
                let d = self.error(path, format!("`{path}` has no provenance"));
                d.expected = Some("a `source` key".into());
                d.hint = Some(SOURCE_HINT.into());
                Source::NotShown
            }
        }
    }

    fn env_var(&mut self, path: &str, name: &str) {
        let ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            && name.chars().next().is_some_and(|c| c.is_ascii_uppercase());
        if !ok {
            let d = self.error_at_value(
                path,
                format!("`{name}` is not an environment variable name"),
            );
            d.expected = Some("UPPER_SNAKE_CASE, like COMMS_EMAIL_API_KEY".into());
        }
    }

    fn service(&mut self) {
        let s = &self.spec.service;
        self.require_source("service", s.source);
        if !is_snake(&s.name) || crate::names::is_keyword(&s.name) {
            let d = self.error_at_value(
                "service.name",
                format!(
                    "service name `{}` is not a snake_case Rust identifier",
                    s.name
                ),
            );
            d.expected = Some("lower-case letters, digits and `_`, like `email`".into());
        }
        if let Some(p) = &s.pricing {
            self.require_source("service.pricing", p.source);
        }
        if let Some(p) = &s.style {
            self.require_source("service.style", p.source);
        }
        if let Some(v) = &s.version {
            self.require_source("service.version", v.source);
        }
        self.require_source("service.base_url", s.base_url.source);
        let env = s.base_url.env.clone();
        self.env_var("service.base_url.env", &env);
        if let Some(url) = &s.base_url.default {
            if !(url.starts_with("http://") || url.starts_with("https://")) || url.ends_with('/') {
                let d = self.error_at_value(
                    "service.base_url.default",
                    format!("`{url}` is not a base URL"),
                );
                d.expected =
                    Some("http:// or https:// followed by a host, without a trailing `/`".into());
            }
        }
        let creds: Vec<(String, String, Option<Source>)> = self
            .spec
            .credentials
            .iter()
            .map(|(n, c)| (n.clone(), c.env.clone(), c.source))
            .collect();
        for (name, env, source) in creds {
            let path = format!("credentials.{name}");
            self.require_source(&path, source);
            if !is_snake(&name) {
                let d = self.error(&path, format!("credential name `{name}` is not snake_case"));
                d.expected = Some("like `api_key`".into());
            }
            self.env_var(&format!("{path}.env"), &env);
        }
    }

    fn is_broken(&self, section: &str, name: &str) -> bool {
        self.broken
            .iter()
            .any(|b| b.strip_prefix(section).and_then(|r| r.strip_prefix('.')) == Some(name))
    }

    fn credential_ref(&mut self, path: &str, name: &str) {
        if !self.spec.credentials.contains_key(name) && !self.is_broken("credentials", name) {
            let known: Vec<&str> = self.spec.credentials.keys().map(String::as_str).collect();
            let hint =
                did_you_mean(name, known.iter().copied()).map(|h| format!("did you mean `{h}`?"));
            let expected = if known.is_empty() {
                "a `credentials` section that defines it".to_owned()
            } else {
                format!("one of {}", known.join(", "))
            };
            let d = self.error_at_value(path, format!("unknown credential `{name}`"));
            d.expected = Some(expected);
            d.hint = hint;
        }
    }

    fn auth(&mut self) {
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, scheme) in self.spec.auth.iter().enumerate() {
            let path = format!("auth.{i}");
            self.require_source(&path, scheme.source);
            if let Some(first) = seen.insert(scheme.name.clone(), i) {
                let d = self.error(
                    &format!("{path}.name"),
                    format!("duplicate auth scheme `{}`", scheme.name),
                );
                d.hint = Some(format!("`auth.{first}` already has this name"));
            }
            let needs: &[&str] = match scheme.kind {
                AuthKind::Bearer => &["credential"],
                AuthKind::Header => &["credential", "header"],
                AuthKind::Query => &["credential", "param"],
                AuthKind::Signature => &["signing"],
            };
            for need in needs {
                let present = match *need {
                    "credential" => scheme.credential.is_some(),
                    "header" => scheme.header.is_some(),
                    "param" => scheme.param.is_some(),
                    _ => scheme.signing.is_some(),
                };
                if !present {
                    let kind = serde_json::to_string(&scheme.kind).unwrap_or_default();
                    self.error(
                        &path,
                        format!(
                            "auth scheme `{}` of kind {kind} needs `{need}`",
                            scheme.name
                        ),
                    );
                }
            }
            if let Some(cred) = &scheme.credential {
                self.credential_ref(&format!("{path}.credential"), cred);
            }
            if scheme.kind == AuthKind::Signature {
                for role in ["app_id", "key", "secret"] {
                    match scheme.credentials.get(role) {
                        Some(cred) => {
                            let cred = cred.clone();
                            self.credential_ref(&format!("{path}.credentials.{role}"), &cred);
                        }
                        None => {
                            let d = self.error(
                                &path,
                                format!(
                                    "signing scheme `{}` needs the credential for `{role}`",
                                    scheme.name
                                ),
                            );
                            d.expected =
                                Some("credentials: { app_id: ..., key: ..., secret: ... }".into());
                        }
                    }
                }
            }
        }
    }

    fn limits(&mut self) {
        if let Some(limits) = &self.spec.limits {
            if let Some(rate) = &limits.rate {
                self.require_source("limits.rate", rate.source);
                match (rate.requests, rate.per) {
                    (Some(0), _) => {
                        let d = self.error_at_value(
                            "limits.rate.requests",
                            "a rate limit of 0 requests allows nothing",
                        );
                        d.expected = Some("a positive number of requests".into());
                        d.hint = Some("leave `requests` out when the limit is not shown".into());
                    }
                    (Some(_), None) => {
                        let d = self.error("limits.rate", "a rate limit needs its window");
                        d.expected = Some("`per: second`, `per: minute` or `per: hour`".into());
                    }
                    _ => {}
                }
            }
            if let Some(h) = &limits.headers {
                self.require_source("limits.headers", h.source);
            }
            let sizes: Vec<(String, Option<Source>, Option<u64>)> = limits
                .sizes
                .iter()
                .map(|(n, s)| (n.clone(), s.source, s.max))
                .collect();
            for (name, source, max) in sizes {
                self.require_source(&format!("limits.sizes.{name}"), source);
                if max == Some(0) {
                    self.error_at_value(
                        &format!("limits.sizes.{name}.max"),
                        format!("size limit `{name}` of 0 allows nothing"),
                    );
                }
            }
        }
        if let Some(retry) = &self.spec.retry {
            self.require_source("retry", retry.source);
            if retry.max_attempts == 0 {
                let d = self.error_at_value(
                    "retry.max_attempts",
                    "`max_attempts` counts the first attempt, so it is at least 1",
                );
                d.expected = Some("1 or more".into());
            }
            if retry.backoff.base_ms > retry.backoff.cap_ms {
                self.error(
                    "retry.backoff",
                    format!(
                        "backoff base {} ms is above its cap {} ms",
                        retry.backoff.base_ms, retry.backoff.cap_ms
                    ),
                );
            }
            let bad: Vec<u16> = retry
                .statuses
                .iter()
                .copied()
                .filter(|s| !(100..=599).contains(s))
                .collect();
            for s in bad {
                let d = self.error_at_value("retry.statuses", format!("{s} is not an HTTP status"));
                d.expected = Some("a number from 100 to 599".into());
            }
            if retry.budget_percent.is_some_and(|p| p > 100) {
                self.error_at_value(
                    "retry.budget_percent",
                    "a retry budget is a percentage from 0 to 100",
                );
            }
        }
        if let Some(t) = &self.spec.timeouts {
            self.require_source("timeouts", t.source);
            if t.connect_ms == 0 || t.attempt_ms == 0 {
                self.error("timeouts", "timeouts must be above 0 ms");
            }
        }
        if let Some(i) = &self.spec.idempotency {
            self.require_source("idempotency", i.source);
            if i.max_len == 0 {
                self.error_at_value(
                    "idempotency.max_len",
                    "an idempotency key of length 0 cannot be sent",
                );
            }
        }
        if let Some(p) = &self.spec.pagination {
            self.require_source("pagination", p.source);
        }
        if let Some(e) = &self.spec.errors {
            self.require_source("errors", e.source);
            if let Some(ty) = &e.ty {
                let ty = ty.clone();
                self.type_ref("errors.type", &ty);
            }
            let codes: Vec<(String, Vec<u16>)> = e
                .codes
                .iter()
                .map(|(k, v)| (k.clone(), v.status.clone()))
                .collect();
            for (code, statuses) in codes {
                for s in statuses {
                    if !(400..=599).contains(&s) {
                        self.error_at_value(
                            &format!("errors.codes.{code}.status"),
                            format!("{s} is not an error status"),
                        );
                    }
                }
            }
        }
    }

    fn known_types(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.spec.types.keys().map(String::as_str).collect();
        names.extend(BUILTINS);
        names
    }

    /// Parses a type expression at `path` and checks that every name in it exists.
    fn type_ref(&mut self, path: &str, text: &str) -> Option<Ty> {
        match Ty::parse(text) {
            Ok(ty) => {
                let mut names = Vec::new();
                ty.names(&mut names);
                let mut ok = true;
                for name in names {
                    if self.is_broken("types", &name) {
                        ok = false;
                    } else if !self.spec.types.contains_key(&name) {
                        ok = false;
                        let hint = did_you_mean(&name, self.known_types())
                            .map(|h| format!("did you mean `{h}`?"));
                        let d = self.error_at_value(path, format!("unknown type `{name}`"));
                        d.expected = Some("a type defined under `types`, or string, integer, number, boolean, datetime, json, list<T>, map<T>".into());
                        d.hint = hint;
                    }
                }
                ok.then_some(ty)
            }
            Err(message) => {
                let d = self.error_at_value(path, message);
                d.expected = Some("string, integer, number, boolean, datetime, json, a type name, list<T> or map<T>".into());
                None
            }
        }
    }

    fn types(&mut self) -> Vec<TypeInfo> {
        let mut out = Vec::new();
        let spec = self.spec;
        for (name, def) in &spec.types {
            let path = format!("types.{name}");
            let source = self.require_source(&path, def.source);
            if !is_pascal(name) {
                let d = self.error(&path, format!("type name `{name}` is not PascalCase"));
                d.hint = Some(format!("call it `{}`", pascal(name)));
            } else if let Some(owner) = self.generated_name_owner(name) {
                let d = self.error(&path, format!("type name `{name}` is taken by {owner}"));
                d.hint = Some(format!("rename the type, e.g. `{name}Body`"));
            }
            if let Some(kind) = self.type_kind(&path, def, source) {
                let rules = match &kind {
                    TypeKind::Object(fields) => self.rules(&path, def, fields),
                    _ => {
                        if !def.rules.is_empty() {
                            self.error(
                                &format!("{path}.rules"),
                                "`rules` apply to objects (types with `fields`)",
                            );
                        }
                        Vec::new()
                    }
                };
                out.push(TypeInfo {
                    name: name.clone(),
                    doc: def.doc.clone(),
                    source,
                    kind,
                    rules,
                });
            }
        }
        out
    }

    fn type_kind(&mut self, path: &str, def: &TypeDef, source: Source) -> Option<TypeKind> {
        let shapes = [
            def.fields.is_some(),
            def.values.is_some(),
            def.variants.is_some(),
        ];
        if shapes.iter().filter(|x| **x).count() != 1 {
            let d = self.error(
                path,
                format!("`{path}` must have exactly one of `fields`, `values` or `variants`"),
            );
            d.expected = Some(
                "`fields` for an object, `values` for an enum, `variants` (with `tag`) for a union"
                    .into(),
            );
            return None;
        }
        if def.variants.is_none() && (def.tag.is_some() || def.content.is_some()) {
            self.error(
                path,
                "`tag` and `content` belong to unions (types with `variants`)",
            );
        }
        if let Some(fields) = &def.fields {
            let mut out = Vec::new();
            let mut rust_names: HashMap<String, String> = HashMap::new();
            for (wire, field) in fields {
                let fpath = format!("{path}.fields.{wire}");
                let rust = snake(wire);
                if !can_be_ident(&rust) {
                    self.error(&fpath, format!("field `{wire}` has no usable Rust name"));
                    continue;
                }
                if let Some(other) = rust_names.insert(rust.clone(), wire.clone()) {
                    self.error(
                        &fpath,
                        format!("fields `{other}` and `{wire}` both become `{rust}` in Rust"),
                    );
                }
                let Some(ty) = self.type_ref(&format!("{fpath}.type"), &field.ty) else {
                    continue;
                };
                if ty.contains_page() {
                    self.error_at_value(
                        &format!("{fpath}.type"),
                        "`page<T>` is only for operation responses",
                    );
                }
                if field.format.is_some() && !matches!(ty, Ty::String | Ty::DateTime | Ty::List(_))
                {
                    self.error(&fpath, "`format` applies to strings (or lists of strings)");
                }
                let constraints = self.constraints(&fpath, field, &ty);
                out.push(FieldInfo {
                    wire: wire.clone(),
                    rust,
                    ty,
                    required: field.required,
                    format: field.format,
                    constraints,
                    secret: field.secret,
                    doc: field.doc.clone(),
                    source: field.source.unwrap_or(source),
                });
            }
            return Some(TypeKind::Object(out));
        }
        if let Some(values) = &def.values {
            if values.is_empty() {
                self.error(path, "an enum needs at least one value");
            }
            let mut out = Vec::new();
            let mut seen: HashMap<String, String> = HashMap::new();
            for (i, value) in values.iter().enumerate() {
                let vpath = format!("{path}.values.{i}");
                let wire = value.value().to_owned();
                let rust = pascal(&wire);
                if wire.is_empty() || rust.is_empty() || !can_be_ident(&rust) {
                    let d = self.error_at_value(
                        &vpath,
                        format!("enum value `{wire}` has no usable Rust name"),
                    );
                    d.expected = Some("a value with at least one letter, like `delivered`".into());
                    continue;
                }
                if rust == "Unknown" {
                    let d = self.error_at_value(&vpath, "the enum value `unknown` clashes with the variant that keeps unknown values");
                    d.hint = Some(
                        "open enums already keep any unknown value in `Unknown(String)`".into(),
                    );
                    continue;
                }
                if let Some(other) = seen.insert(rust.clone(), wire.clone()) {
                    if other == wire {
                        self.error_at_value(&vpath, format!("duplicate enum value `{wire}`"));
                    } else {
                        self.error_at_value(
                            &vpath,
                            format!(
                                "enum values `{other}` and `{wire}` both become `{rust}` in Rust"
                            ),
                        );
                    }
                    continue;
                }
                let (doc, vsource) = match value {
                    crate::model::EnumValue::Bare(_) => (None, None),
                    crate::model::EnumValue::Documented(d) => (d.doc.clone(), d.source),
                };
                out.push(ValueInfo {
                    wire,
                    rust,
                    doc,
                    source: vsource.unwrap_or(source),
                });
            }
            return Some(TypeKind::Enum(out));
        }
        let variants = def.variants.as_ref()?;
        let Some(tag) = def.tag.clone() else {
            let d = self.error(
                path,
                format!("union `{path}` needs `tag`: the field that tells its variants apart"),
            );
            d.expected = Some("tag: type".into());
            return None;
        };
        let mut out = Vec::new();
        let mut seen: HashMap<String, String> = HashMap::new();
        for (tag_value, variant) in variants {
            let vpath = format!("{path}.variants.{tag_value}");
            let rust = variant.name.clone().unwrap_or_else(|| pascal(tag_value));
            if !is_pascal(&rust) || rust == "Unknown" {
                let d = self.error(
                    &vpath,
                    format!("variant `{tag_value}` has no usable Rust name (`{rust}`)"),
                );
                d.hint = Some("set `name:` to a PascalCase name other than `Unknown`".into());
                continue;
            }
            if let Some(other) = seen.insert(rust.clone(), tag_value.clone()) {
                self.error(
                    &vpath,
                    format!("variants `{other}` and `{tag_value}` both become `{rust}` in Rust"),
                );
                continue;
            }
            if let Some(ty) = &variant.ty {
                let ty_text = ty.clone();
                match self.type_ref(&format!("{vpath}.type"), &ty_text) {
                    Some(Ty::Named(n)) => {
                        // Objects and unions both read and write as JSON objects, so either
                        // can sit beside the tag (a union of unions: channel, then message type).
                        let shape = self.spec.types.get(&n);
                        let is_object =
                            shape.is_some_and(|t| t.fields.is_some() || t.variants.is_some());
                        if def.content.is_none() && !is_object {
                            self.error_at_value(&format!("{vpath}.type"), format!("variant content `{n}` must be an object or a union when it sits beside the tag"));
                        }
                        let same_tag = shape.is_some_and(|t| {
                            t.variants.is_some() && t.tag.as_deref() == Some(tag.as_str())
                        });
                        if def.content.is_none() && same_tag {
                            self.error_at_value(&format!("{vpath}.type"), format!("union `{n}` uses the same tag field `{tag}`, so the two tags would clash"));
                        }
                    }
                    Some(_) if def.content.is_none() => {
                        self.error_at_value(&format!("{vpath}.type"), "variant content must be a named object type when it sits beside the tag");
                    }
                    _ => {}
                }
            }
            out.push(VariantInfo {
                tag: tag_value.clone(),
                rust,
                ty: variant.ty.clone(),
                doc: variant.doc.clone(),
                source: variant.source.unwrap_or(source),
            });
        }
        Some(TypeKind::Union {
            tag,
            content: def.content.clone(),
            variants: out,
        })
    }

    /// What generated item already uses a type name, if any.
    fn generated_name_owner(&self, name: &str) -> Option<String> {
        if name == "Self" {
            return Some("the `Self` keyword".into());
        }
        // Generated code uses the standard prelude's names unqualified.
        if PRELUDE_NAMES.contains(&name) {
            return Some(format!(
                "the standard prelude's `{name}`, which generated code uses"
            ));
        }
        if name == "Page" && self.spec.pagination.is_some() {
            return Some("the generated page type `Page<T>`".into());
        }
        if name == format!("{}Client", pascal(&self.spec.service.name)) {
            return Some("the generated client struct".into());
        }
        // `<Op>Query` is the only other generated type name; check the suffix before looking.
        let op = name.strip_suffix("Query")?;
        self.spec
            .operations
            .iter()
            .find(|(o, def)| !def.query.is_empty() && pascal(o) == op)
            .map(|(o, _)| format!("the generated query struct of `{o}`"))
    }

    fn constraints(&mut self, path: &str, field: &crate::model::Field, ty: &Ty) -> Constraints {
        let c = Constraints {
            max_len: field.max_len,
            min_len: field.min_len,
            max_bytes: field.max_bytes,
            max_items: field.max_items,
            min_items: field.min_items,
            min: field.min,
            max: field.max,
        };
        let strings = match ty {
            Ty::String | Ty::DateTime => true,
            Ty::List(t) | Ty::Map(t) => matches!(**t, Ty::String | Ty::DateTime),
            _ => false,
        };
        let counted = matches!(ty, Ty::List(_) | Ty::Map(_));
        let number = matches!(ty, Ty::Integer | Ty::Number);
        for (name, set, ok, what) in [
            ("max_len", c.max_len.is_some(), strings, "strings"),
            ("min_len", c.min_len.is_some(), strings, "strings"),
            ("max_bytes", c.max_bytes.is_some(), strings, "strings"),
            (
                "max_items",
                c.max_items.is_some(),
                counted,
                "lists and maps",
            ),
            (
                "min_items",
                c.min_items.is_some(),
                counted,
                "lists and maps",
            ),
            ("min", c.min.is_some(), number, "numbers"),
            ("max", c.max.is_some(), number, "numbers"),
        ] {
            if set && !ok {
                self.error(
                    &format!("{path}.{name}"),
                    format!("`{name}` applies to {what}"),
                );
            }
        }
        let pairs = [
            (
                c.min_len.map(|v| v as f64),
                c.max_len.map(|v| v as f64),
                "min_len",
                "max_len",
            ),
            (
                c.min_items.map(|v| v as f64),
                c.max_items.map(|v| v as f64),
                "min_items",
                "max_items",
            ),
            (c.min, c.max, "min", "max"),
        ];
        for (lo, hi, lo_name, hi_name) in pairs {
            if let (Some(lo), Some(hi)) = (lo, hi) {
                if lo > hi {
                    self.error(
                        &format!("{path}.{lo_name}"),
                        format!("`{lo_name}` ({lo}) is above `{hi_name}` ({hi})"),
                    );
                }
            }
        }
        c
    }

    fn rules(&mut self, path: &str, def: &TypeDef, fields: &[FieldInfo]) -> Vec<RuleInfo> {
        let mut out = Vec::new();
        for (i, rule) in def.rules.iter().enumerate() {
            let rpath = format!("{path}.rules.{i}");
            let shapes = [
                rule.exclusive.is_some(),
                rule.require_one.is_some(),
                rule.max_total.is_some(),
            ];
            if shapes.iter().filter(|x| **x).count() != 1 {
                let d = self.error(
                    &rpath,
                    "a rule has exactly one of `exclusive`, `require_one` or `max_total`",
                );
                d.expected = Some("{ exclusive: [a, b] }, { require_one: [a, b] } or { max_total: 50, fields: [to, cc, bcc] }".into());
                continue;
            }
            let names = rule
                .exclusive
                .as_ref()
                .or(rule.require_one.as_ref())
                .or(rule.fields.as_ref());
            let Some(names) = names else {
                let d = self.error(&rpath, "`max_total` needs `fields`: the lists it counts");
                d.expected = Some("fields: [to, cc, bcc]".into());
                continue;
            };
            if names.len() < 2 && rule.max_total.is_none() {
                self.error(&rpath, "a rule across fields names at least two fields");
            }
            let mut resolved = Vec::new();
            for name in names {
                match fields.iter().find(|f| &f.wire == name) {
                    Some(f) => {
                        if rule.max_total.is_some() && !matches!(f.ty, Ty::List(_)) {
                            self.error(
                                &rpath,
                                format!("`max_total` counts lists, and `{name}` is not one"),
                            );
                        }
                        if f.required && rule.max_total.is_none() {
                            self.error(&rpath, format!("`{name}` is required, so a rule about whether it is set never applies"));
                        }
                        resolved.push((f.wire.clone(), f.rust.clone()));
                    }
                    None => {
                        let hint = did_you_mean(name, fields.iter().map(|f| f.wire.as_str()))
                            .map(|h| format!("did you mean `{h}`?"));
                        let d = self.error_at_value(
                            &rpath,
                            format!("rule names the unknown field `{name}`"),
                        );
                        d.hint = hint;
                    }
                }
            }
            out.push(
                match (
                    rule.exclusive.is_some(),
                    rule.require_one.is_some(),
                    rule.max_total,
                ) {
                    (true, _, _) => RuleInfo::Exclusive(resolved),
                    (_, true, _) => RuleInfo::RequireOne(resolved),
                    (_, _, max) => RuleInfo::MaxTotal(resolved, max.unwrap_or_default()),
                },
            );
        }
        out
    }

    fn operations(&mut self) -> Vec<OperationInfo> {
        let mut out = Vec::new();
        let spec = self.spec;
        let mut routes: HashMap<(Method, String), String> = HashMap::new();
        for (name, op) in &spec.operations {
            let path = format!("operations.{name}");
            let source = self.require_source(&path, op.source);
            if !is_snake(name) || crate::names::is_keyword(name) {
                let d = self.error(
                    &path,
                    format!("operation name `{name}` is not a snake_case Rust identifier"),
                );
                d.hint = Some(format!("call it `{}`", snake(name)));
            }
            if name.ends_with("_stream") {
                self.error(&path, "operation names may not end in `_stream`: paginated operations get a `<name>_stream` method");
            }
            // Path shape and parameters.
            let template = op.path.clone();
            let shape = normalised_route(&template);
            if let Some(other) = routes.insert((op.method, shape), name.clone()) {
                let d = self.error_at_value(
                    &format!("{path}.path"),
                    format!(
                        "`{} {}` is already the route of `{other}`",
                        op.method.as_str(),
                        op.path
                    ),
                );
                d.hint = Some("each operation needs its own method and path".into());
            }
            let in_path = match path_params(&template) {
                Ok(p) => p,
                Err(message) => {
                    let d = self.error_at_value(&format!("{path}.path"), message);
                    d.expected = Some("a path like /v1/emails/{id}".into());
                    Vec::new()
                }
            };
            if !template.starts_with('/') {
                let d = self.error_at_value(
                    &format!("{path}.path"),
                    format!("path `{template}` must start with `/`"),
                );
                d.expected = Some("/v1/...".into());
            }
            if let Some(prefix) = spec
                .service
                .version
                .as_ref()
                .and_then(|v| v.prefix.as_deref())
            {
                let wanted = format!("/{prefix}/");
                if !template.starts_with(&wanted) {
                    let d = self.error_at_value(
                        &format!("{path}.path"),
                        format!("path `{template}` does not carry the version prefix `{prefix}`"),
                    );
                    d.expected = Some(format!("a path starting with {wanted}"));
                }
            }
            let declared: BTreeSet<&str> = op.path_params.keys().map(String::as_str).collect();
            for p in &in_path {
                if !declared.contains(p.as_str()) {
                    let d = self.error_at_value(
                        &format!("{path}.path"),
                        format!("path parameter `{{{p}}}` is not declared"),
                    );
                    d.expected = Some(format!("path_params: {{ {p}: {{ type: string }} }}"));
                }
            }
            let mut path_info = Vec::new();
            for (pname, param) in &op.path_params {
                let ppath = format!("{path}.path_params.{pname}");
                if !in_path.contains(pname) {
                    let d = self.error(
                        &ppath,
                        format!("path parameter `{pname}` does not appear in `{template}`"),
                    );
                    d.hint = Some(format!(
                        "add `{{{pname}}}` to the path, or remove the parameter"
                    ));
                }
                if let Some(info) = self.param(&ppath, pname, param, source, true) {
                    path_info.push(info);
                }
            }
            // Keep path order so method arguments read like the URL.
            path_info.sort_by_key(|p| {
                in_path
                    .iter()
                    .position(|x| *x == p.wire)
                    .unwrap_or(usize::MAX)
            });
            let mut query = Vec::new();
            for (qname, param) in &op.query {
                let qpath = format!("{path}.query.{qname}");
                if let Some(info) = self.param(&qpath, qname, param, source, false) {
                    query.push(info);
                }
            }
            // Body and response.
            let body = match &op.body {
                Some(b) => {
                    if op.method == Method::Get {
                        let d = self.error(&format!("{path}.body"), "a GET request has no body");
                        d.hint = Some("use `query` for GET parameters, or another method".into());
                    }
                    let ty = self.type_ref(&format!("{path}.body"), b);
                    if ty.as_ref().is_some_and(Ty::contains_page) {
                        self.error_at_value(
                            &format!("{path}.body"),
                            "`page<T>` is only for responses",
                        );
                    }
                    ty
                }
                None => None,
            };
            let response = match &op.response {
                Some(r) => self.type_ref(&format!("{path}.response"), r),
                None => None,
            };
            if let Some(Ty::Page(item)) = &response {
                self.page(&path, item, &op.query);
            } else if response.as_ref().is_some_and(Ty::contains_page) {
                self.error_at_value(
                    &format!("{path}.response"),
                    "`page<T>` must be the whole response",
                );
            }
            if let Some(status) = op.status {
                if !(200..=299).contains(&status) {
                    let d = self.error_at_value(
                        &format!("{path}.status"),
                        format!("{status} is not a success status"),
                    );
                    d.expected = Some("200 to 299".into());
                }
            }
            for s in &op.errors {
                if !(400..=599).contains(s) {
                    self.error_at_value(
                        &format!("{path}.errors"),
                        format!("{s} is not an error status"),
                    );
                }
            }
            let idempotency = op.idempotency.unwrap_or(match op.method {
                Method::Get | Method::Put | Method::Delete => IdempotencyMode::Safe,
                Method::Post | Method::Patch => IdempotencyMode::None,
            });
            if idempotency == IdempotencyMode::Key && spec.idempotency.is_none() {
                let d = self.error(&format!("{path}.idempotency"), "`idempotency: key` needs an `idempotency` section saying which header carries the key");
                d.expected = Some(
                    "idempotency: { header: Idempotency-Key, max_len: 256, source: assumed }"
                        .into(),
                );
            }
            if let Some(auth) = &op.auth {
                if !spec.auth.iter().any(|a| &a.name == auth) && !self.is_broken("auth", auth) {
                    let names: Vec<&str> = spec.auth.iter().map(|a| a.name.as_str()).collect();
                    let hint = did_you_mean(auth, names.iter().copied())
                        .map(|h| format!("did you mean `{h}`?"));
                    let d = self.error_at_value(
                        &format!("{path}.auth"),
                        format!("unknown auth scheme `{auth}`"),
                    );
                    d.expected = Some(format!("one of {}", names.join(", ")));
                    d.hint = hint;
                }
            }
            out.push(OperationInfo {
                name: name.clone(),
                method: op.method,
                path: template,
                doc: op.doc.clone(),
                source,
                note: op.note.clone(),
                conflict: op.conflict.clone(),
                path_params: path_info,
                query,
                body,
                response,
                idempotency,
                auth: op.auth.clone(),
            });
        }
        out
    }

    fn param_constraints(
        &mut self,
        path: &str,
        param: &crate::model::Param,
        ty: &Ty,
    ) -> Constraints {
        let c = Constraints {
            min: param.min,
            max: param.max,
            max_len: param.max_len,
            ..Constraints::default()
        };
        if (c.min.is_some() || c.max.is_some()) && !matches!(ty, Ty::Integer | Ty::Number) {
            self.error(path, "`min` and `max` apply to numbers");
        }
        if c.max_len.is_some() && !matches!(ty, Ty::String | Ty::DateTime) {
            self.error(&format!("{path}.max_len"), "`max_len` applies to strings");
        }
        if let (Some(lo), Some(hi)) = (c.min, c.max) {
            if lo > hi {
                self.error(
                    &format!("{path}.min"),
                    format!("`min` ({lo}) is above `max` ({hi})"),
                );
            }
        }
        c
    }

    fn param(
        &mut self,
        path: &str,
        name: &str,
        param: &crate::model::Param,
        source: Source,
        in_path: bool,
    ) -> Option<ParamInfo> {
        let rust = snake(name);
        if !can_be_ident(&rust) {
            self.error(path, format!("parameter `{name}` has no usable Rust name"));
            return None;
        }
        let ty = match &param.ty {
            Some(t) => self.type_ref(&format!("{path}.type"), t)?,
            None => Ty::String,
        };
        let enum_ok = matches!(&ty, Ty::Named(n) if self.spec.types.get(n).is_some_and(|t| t.values.is_some()));
        if !ty.is_scalar() && !enum_ok {
            let d = self.error_at_value(
                &format!("{path}.type"),
                format!("parameter `{name}` must be a scalar"),
            );
            d.expected = Some("string, integer, number, boolean, datetime or an enum".into());
        }
        if let Some(cred) = &param.from_credential {
            self.credential_ref(&format!("{path}.from_credential"), cred);
            if self.spec.credentials.get(cred).is_some_and(|c| c.secret) {
                let d = self.error_at_value(
                    &format!("{path}.from_credential"),
                    format!("credential `{cred}` is secret and may not be put in a URL"),
                );
                d.hint =
                    Some("set `secret: false` on it if it is an identifier, not a secret".into());
            }
        }
        let constraints = self.param_constraints(path, param, &ty);
        Some(ParamInfo {
            wire: name.to_owned(),
            rust,
            ty,
            required: in_path || param.required,
            from_credential: param.from_credential.clone(),
            constraints,
            doc: param.doc.clone(),
            source: param.source.unwrap_or(source),
        })
    }

    fn page(
        &mut self,
        path: &str,
        item: &Ty,
        query: &indexmap::IndexMap<String, crate::model::Param>,
    ) {
        let Some(p) = &self.spec.pagination else {
            let d = self.error(
                &format!("{path}.response"),
                "`page<T>` needs a `pagination` section",
            );
            d.expected = Some("pagination: { limit_param, after_param, items_field, has_more_field, cursor_field, source }".into());
            return;
        };
        let (after, limit, cursor) = (
            p.after_param.clone(),
            p.limit_param.clone(),
            p.cursor_field.clone(),
        );
        for needed in [&after, &limit] {
            if !query.contains_key(needed) {
                let d = self.error(
                    path,
                    format!("a paginated operation needs the query parameter `{needed}`"),
                );
                d.expected = Some(format!("query: {{ {needed}: {{ type: ... }} }}"));
            }
        }
        let Ty::Named(n) = item else {
            self.error_at_value(
                &format!("{path}.response"),
                "page items must be a named object type",
            );
            return;
        };
        if let Some(fields) = self.spec.types.get(n).and_then(|t| t.fields.as_ref()) {
            if !fields.contains_key(&cursor) {
                let d = self.error_at_value(
                    &format!("{path}.response"),
                    format!("page items of type `{n}` have no cursor field `{cursor}`"),
                );
                d.hint = Some(format!(
                    "add `{cursor}` to `{n}`, or change `pagination.cursor_field`"
                ));
            }
        } else {
            self.error_at_value(
                &format!("{path}.response"),
                format!("page items `{n}` must be an object type"),
            );
        }
    }

    fn events(&mut self) {
        let Some(events) = &self.spec.events else {
            return;
        };
        self.require_source("events", events.source);
        if let Some(w) = &events.webhook {
            self.require_source("events.webhook", w.source.or(events.source));
            if let Some(ty) = &w.ty {
                let ty = ty.clone();
                self.type_ref("events.webhook.type", &ty);
            }
            if let Some(env) = &w.secret_env {
                let env = env.clone();
                self.env_var("events.webhook.secret_env", &env);
            }
            if w.signature.is_some() && w.secret_env.is_none() {
                let d = self.error(
                    "events.webhook",
                    "a signed webhook needs `secret_env`: where the signing secret is read from",
                );
                d.expected = Some("secret_env: COMMS_<SERVICE>_WEBHOOK_SECRET".into());
            }
        }
    }

    /// The `websocket` section: URL, names, timings, channel kinds, messages and close codes.
    fn websocket(&mut self) {
        let Some(ws) = &self.spec.websocket else {
            return;
        };
        let spec = self.spec;
        self.require_source("websocket", ws.source);
        if !ws.path.starts_with('/') || !ws.path.contains("{key}") {
            let d = self.error_at_value(
                "websocket.path",
                format!("`{}` is not a connection path with the app key", ws.path),
            );
            d.expected =
                Some("a path starting with `/` that contains `{key}`, like /app/{key}".into());
        }
        if ws.protocol == 0 {
            self.error_at_value("websocket.protocol", "the protocol version must be above 0");
        }
        if let Some(names) = &ws.channel_names {
            if names
                .pattern
                .as_deref()
                .is_some_and(|p| !(p.starts_with('^') && p.ends_with('$')))
            {
                let d = self.error_at_value(
                    "websocket.channel_names.pattern",
                    "a channel name pattern must match whole names",
                );
                d.expected = Some("a pattern anchored with `^` and `$`".into());
            }
            if names.max_len == Some(0) {
                self.error_at_value(
                    "websocket.channel_names.max_len",
                    "a longest channel name of 0 allows nothing",
                );
            }
        }
        if ws
            .socket_id_pattern
            .as_deref()
            .is_some_and(|p| !(p.starts_with('^') && p.ends_with('$')))
        {
            let d = self.error_at_value(
                "websocket.socket_id_pattern",
                "a socket id pattern must match whole ids",
            );
            d.expected = Some("a pattern anchored with `^` and `$`".into());
        }
        if let Some(h) = &ws.heartbeat {
            if h.ping_after_ms == 0 || h.pong_timeout_ms == 0 {
                self.error("websocket.heartbeat", "heartbeat times must be above 0 ms");
            }
        }
        if let Some(r) = &ws.reconnect {
            if r.base_ms > r.cap_ms {
                self.error(
                    "websocket.reconnect",
                    format!(
                        "backoff base {} ms is above its cap {} ms",
                        r.base_ms, r.cap_ms
                    ),
                );
            }
        }
        if let Some(c) = &ws.client_events {
            if c.prefix.is_empty() {
                self.error_at_value(
                    "websocket.client_events.prefix",
                    "client events need a name prefix, so they cannot pass for server events",
                );
            }
            if c.max_per_second == Some(0) {
                self.error_at_value(
                    "websocket.client_events.max_per_second",
                    "a rate of 0 client events per second allows nothing",
                );
            }
        }
        // Channel kinds: unique prefixes.
        let mut prefixes: HashMap<&str, &str> = HashMap::new();
        for (name, kind) in &ws.channel_kinds {
            let path = format!("websocket.channel_kinds.{name}");
            if !is_snake(name) {
                let d = self.error(&path, format!("channel kind `{name}` is not snake_case"));
                d.hint = Some(format!("call it `{}`", snake(name)));
            }
            if let Some(other) = prefixes.insert(kind.prefix.as_str(), name.as_str()) {
                let d = self.error_at_value(
                    &format!("{path}.prefix"),
                    format!(
                        "channel kinds `{other}` and `{name}` have the same prefix `{}`",
                        kind.prefix
                    ),
                );
                d.hint = Some("each kind needs its own prefix".into());
            }
            if kind.encrypted && kind.auth == crate::model::ChannelAuthKind::None {
                self.error(
                    &path,
                    format!(
                        "encrypted channel kind `{name}` needs authorization: its key comes with it"
                    ),
                );
            }
        }
        // Messages: unique events per direction, known object payloads, unique roles.
        let mut events: HashMap<(String, bool), String> = HashMap::new();
        let mut roles: HashMap<crate::model::MessageRole, String> = HashMap::new();
        for (name, message) in &ws.messages {
            let path = format!("websocket.messages.{name}");
            if !is_snake(name) || crate::names::is_keyword(name) {
                let d = self.error(&path, format!("message name `{name}` is not snake_case"));
                d.hint = Some(format!("call it `{}`", snake(name)));
            }
            if message.event.is_empty() {
                self.error_at_value(&format!("{path}.event"), "the event name is empty");
            }
            if pascal(name) == "Other" {
                let d = self.error(
                    &path,
                    "the message name `other` clashes with the variant that keeps undefined events",
                );
                d.hint = Some("give the message another name".into());
            }
            use crate::model::Direction;
            let sides: &[bool] = match message.direction {
                Direction::ClientToServer => &[true],
                Direction::ServerToClient => &[false],
                Direction::Both => &[true, false],
            };
            for &client in sides {
                if let Some(other) = events.insert((message.event.clone(), client), name.clone()) {
                    let d = self.error_at_value(
                        &format!("{path}.event"),
                        format!(
                            "messages `{other}` and `{name}` both use the event `{}` in the same direction",
                            message.event
                        ),
                    );
                    d.hint = Some("a receiver could not tell them apart".into());
                }
            }
            if let Some(data) = &message.data {
                let data = data.clone();
                if let Some(ty) = self.type_ref(&format!("{path}.data"), &data) {
                    let is_object = matches!(&ty, Ty::Named(n) if spec.types.get(n).is_some_and(|t| t.fields.is_some()));
                    if !is_object {
                        let d = self.error_at_value(
                            &format!("{path}.data"),
                            format!("message data `{data}` must be an object type"),
                        );
                        d.expected = Some("the name of a type with `fields`".into());
                    }
                }
            } else if message.encoding.is_some() {
                self.error(
                    &format!("{path}.encoding"),
                    "`encoding` applies to messages that carry `data`",
                );
            }
            if let Some(role) = message.role {
                if let Some(other) = roles.insert(role, name.clone()) {
                    self.error_at_value(
                        &format!("{path}.role"),
                        format!(
                            "messages `{other}` and `{name}` both play the role `{}`",
                            role.as_str()
                        ),
                    );
                }
            }
        }
        let missing: Vec<&str> = crate::model::MessageRole::REQUIRED
            .iter()
            .filter(|r| !roles.contains_key(r))
            .map(|r| r.as_str())
            .collect();
        if !missing.is_empty() {
            let d = self.error(
                "websocket.messages",
                format!(
                    "the protocol has no message for the role{} {}",
                    if missing.len() == 1 { "" } else { "s" },
                    missing.join(", ")
                ),
            );
            d.expected = Some("a message with `role: <role>` for each".into());
            d.hint = Some("the runtime's engine finds connection, heartbeat and subscription messages by role".into());
        }
        // Close codes: inside 4000..=4999, ordered ranges, no overlap.
        let mut ranges: Vec<(u16, u16, usize)> = Vec::new();
        for (i, range) in ws.close_codes.iter().enumerate() {
            let path = format!("websocket.close_codes.{i}");
            if range.from > range.to {
                self.error(
                    &path,
                    format!(
                        "close code range {}..{} is empty: `from` is above `to`",
                        range.from, range.to
                    ),
                );
                continue;
            }
            if range.from < 4000 || range.to > 4999 {
                let d = self.error(
                    &path,
                    format!(
                        "close codes {}..{} are outside the application range",
                        range.from, range.to
                    ),
                );
                d.expected = Some("codes from 4000 to 4999".into());
            }
            if range.min_delay_ms.is_some() && range.action != crate::model::CloseAction::Backoff {
                self.error(&path, "`min_delay_ms` applies to `action: backoff`");
            }
            if let Some((from, to, j)) = ranges
                .iter()
                .find(|(from, to, _)| range.from <= *to && *from <= range.to)
            {
                let d = self.error(
                    &path,
                    format!(
                        "close codes {}..{} overlap {from}..{to} (close_codes.{j})",
                        range.from, range.to
                    ),
                );
                d.hint = Some("each code needs one action".into());
            }
            ranges.push((range.from, range.to, i));
        }
        for generated in ["ClientMessage", "ServerMessage"] {
            if spec.types.contains_key(generated) {
                let d = self.error(
                    &format!("types.{generated}"),
                    format!("type name `{generated}` is taken by the generated WebSocket messages"),
                );
                d.hint = Some(format!("rename the type, e.g. `{generated}Body`"));
            }
        }
    }

    fn gaps(&mut self) {
        let gaps: Vec<(String, Option<Source>)> = self
            .spec
            .gaps
            .iter()
            .map(|(k, g)| (k.clone(), g.source))
            .collect();
        for (name, source) in gaps {
            self.require_source(&format!("gaps.{name}"), source);
        }
    }
}

/// The `{name}` parameters of a path template, in order.
pub fn path_params(template: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        if rest.as_bytes()[open] == b'}' {
            return Err(format!("unbalanced `}}` in `{template}`"));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("unclosed `{{` in `{template}`"))?;
        let name = &after[..close];
        if !is_snake(name) {
            return Err(format!(
                "path parameter `{{{name}}}` is not a snake_case name"
            ));
        }
        if out.iter().any(|n| n == name) {
            return Err(format!("path parameter `{{{name}}}` appears twice"));
        }
        out.push(name.to_owned());
        rest = &after[close + 1..];
    }
    Ok(out)
}

/// The path with parameter names erased, so `/a/{id}` and `/a/{uuid}` count as one route.
fn normalised_route(template: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in template.chars() {
        match c {
            '{' => {
                depth += 1;
                out.push_str("{}");
            }
            '}' => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_type_expressions() {
        assert_eq!(
            Ty::parse("list<map<Contact>>"),
            Ok(Ty::List(Box::new(Ty::Map(Box::new(Ty::Named(
                "Contact".into()
            ))))))
        );
        assert!(Ty::parse("list<string").is_err());
        assert!(Ty::parse("a b").is_err());
    }

    #[test]
    fn reads_path_parameters() {
        assert_eq!(
            path_params("/v1/emails/{id}/x/{other}"),
            Ok(vec!["id".to_owned(), "other".to_owned()])
        );
        assert!(path_params("/v1/{id").is_err());
        assert!(path_params("/v1/{id}/{id}").is_err());
        assert_eq!(normalised_route("/a/{id}/b"), "/a/{}/b");
    }
}
