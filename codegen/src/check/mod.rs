//! Checking: a loaded spec becomes a [`Service`] of the resolved model, or every problem in it
//! is reported at once.
//!
//! Names, references, duplicates, path parameters, enum values, limits and provenance are all
//! checked here, so the emitters can trust what they get and never fail on a spec. One file per
//! section, as in `emit/`: [`service`](self) (identity, credentials, auth, limits, retry),
//! types, operations and the websocket and events sections.

mod auth;
mod error_bodies;
mod flow;
mod operations;
mod pagination;
mod recursion;
mod rust_names;
mod service;
mod sizes;
pub(crate) mod types;
mod webhooks;

pub use operations::MAX_RESPONSE_HEADERS;
pub(crate) use operations::is_header_name_byte;
pub(crate) use webhooks::PAYLOAD_ENUM;
mod websocket;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics};
use crate::load::{Loaded, Locations};
use crate::model::{Source, SpecFile};
use crate::names::did_you_mean;
pub use crate::resolved::*;

/// Loads and checks specs from disk, reporting the loader's and the checker's problems
/// together: one run shows every error. Each path is a spec file or a directory, whose `*.yaml`
/// and `*.yml` files are read in name order; a directory without any is an error.
///
/// The one way from spec files to services: the CLI, the build script ([`crate::Generator`]),
/// the exporters, the gaps report and the sandbox's `--spec` all come through here. A spec held
/// in memory is loaded with [`crate::load::load_str`] and checked with [`check`].
///
/// ```no_run
/// use tidings_codegen::check::{check_paths, ProvenancePolicy};
///
/// let services = check_paths(&["spec"], ProvenancePolicy::Required).unwrap_or_else(|errors| {
///     panic!("{errors}") // every problem, each with its file, line and column
/// });
/// for service in &services {
///     println!("{}: {} operations", service.name(), service.operations.len());
/// }
/// ```
pub fn check_paths<P: AsRef<Path>>(
    paths: &[P],
    policy: ProvenancePolicy,
) -> Result<Vec<Service>, Diagnostics> {
    let mut errors = Diagnostics::default();
    let mut files: Vec<PathBuf> = Vec::new();
    for path in paths.iter().map(AsRef::as_ref) {
        if path.is_dir() {
            match crate::load::spec_files(path) {
                Ok(found) => files.extend(found),
                Err(problems) => errors.extend(problems),
            }
        } else {
            files.push(path.to_path_buf());
        }
    }
    let mut loaded = Vec::new();
    for path in &files {
        let (file, problems) = crate::load::load_file_partial(path);
        errors.extend(problems);
        loaded.extend(file);
    }
    match check_loaded(&loaded, policy) {
        Ok(services) if errors.is_empty() => Ok(services),
        Ok(_) => Err(errors.sorted()),
        Err(more) => {
            errors.extend(more);
            Err(errors.sorted())
        }
    }
}

/// Whether every spec item must say where it comes from (`source: seed | assumed | not_shown |
/// imported`).
///
/// This project's specs describe services known only from a seed document, so each item records
/// its provenance and a missing `source` is an error ([`ProvenancePolicy::Required`], the
/// default). A crate generating from its own specs has no seed: under
/// [`ProvenancePolicy::Optional`] a missing `source` is fine (the item counts as stated by the
/// spec itself) and the generated docs do not mention a seed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ProvenancePolicy {
    /// Every item must carry `source`; docs say which items are assumed and what the seed shows.
    #[default]
    Required,
    /// `source` may be left out; docs describe items without reference to a seed.
    Optional,
}

/// Checks several loaded files: each on its own, then across files (unique service names).
fn check_loaded(loaded: &[Loaded], policy: ProvenancePolicy) -> Result<Vec<Service>, Diagnostics> {
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
        match check_with(file, policy) {
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

/// Checks one spec loaded from text ([`crate::load::load_str`]), under
/// [`ProvenancePolicy::Required`]; specs on disk go through [`check_paths`].
pub fn check(loaded: &Loaded) -> Result<Service, Diagnostics> {
    check_with(loaded, ProvenancePolicy::Required)
}

/// [`check`] under a provenance policy.
fn check_with(loaded: &Loaded, policy: ProvenancePolicy) -> Result<Service, Diagnostics> {
    let mut c = Checker {
        policy,
        file: &loaded.display,
        loc: &loaded.locations,
        spec: &loaded.spec,
        broken: &loaded.broken,
        errors: Diagnostics::default(),
    };
    let credentials = c.service();
    let auth = c.auth();
    let limits = c.limits();
    let mut types = c.types();
    c.box_recursion(&mut types);
    let page_style = c.service_pagination();
    let operations = c.operations(&types, &auth, page_style.as_ref());
    c.error_paths(&types, &operations, limits.errors.as_ref());
    c.error_body_paths(&types, &operations);
    let webhook = c.events();
    let websocket = c.websocket();
    let (webhooks, signatures) = c.webhooks();
    c.gaps();
    c.unbound_sizes();
    c.rust_names(&types, &operations, websocket.as_ref());
    if !c.errors.is_empty() {
        return Err(c.errors.sorted());
    }
    flow::mark(
        &mut types,
        &flow::Uses {
            operations: &operations,
            errors: limits.errors.as_ref(),
            webhook: webhook.as_ref(),
            webhooks: &webhooks,
            websocket: websocket.as_ref(),
        },
    );
    Ok(Service {
        file: loaded.display.clone(),
        info: loaded.spec.service.clone(),
        credentials,
        auth,
        rate_limit: limits.rate_limit,
        rate_limit_headers: limits.rate_limit_headers,
        retry: limits.retry,
        timeouts: limits.timeouts,
        idempotency: limits.idempotency,
        pagination: limits.pagination,
        errors: limits.errors,
        types,
        operations,
        webhook,
        websocket,
        gaps: crate::gaps::items(loaded),
        as_written: service::as_written(&loaded.spec),
        webhooks,
        signatures,
        page_style,
    })
}

struct Checker<'a> {
    policy: ProvenancePolicy,
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

    /// Every top-level item must say where it comes from, unless the policy makes that optional
    /// (then the spec is its own authority: a missing `source` reads as `seed`).
    fn require_source(&mut self, path: &str, source: Option<Source>) -> Source {
        match source {
            Some(s) => s,
            None if self.policy == ProvenancePolicy::Optional => Source::Seed,
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
                        d.expected = Some("a type defined under `types`, or string, integer, number, boolean, datetime, date, json, list<T>, map<T>".into());
                        d.hint = hint;
                    }
                }
                ok.then_some(ty)
            }
            Err(message) => {
                let d = self.error_at_value(path, message);
                d.expected = Some("string, integer, number, boolean, datetime, date, json, a type name, list<T> or map<T>".into());
                None
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
        // Wire names as providers write them (`{AccountSid}`); the Rust name is derived or
        // set with `rust_name`.
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "path parameter `{{{name}}}` is not a name of letters, digits and `_`"
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
