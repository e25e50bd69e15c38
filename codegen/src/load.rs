//! Loading: YAML text to [`SpecFile`], keeping the line and column of every key.
//!
//! serde_yaml parses the text; a second pass over the YAML events (yaml-rust2) records where
//! each key and value starts, so that later stages can point at `file:line:column`. Each item is
//! decoded on its own, so one run reports every structural error, not just the first.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::SpecFile;
use crate::names::did_you_mean;

/// A spec file, loaded.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// Where it was read from.
    pub path: PathBuf,
    /// The name used in diagnostics.
    pub display: String,
    /// The decoded spec.
    pub spec: SpecFile,
    /// Where each key sits.
    pub locations: Locations,
    /// Items left out because they did not decode (`types.Contact`, `auth.bearer`), already
    /// reported; references to them are not errors of their own.
    pub broken: Vec<String>,
}

/// A line and column, both 1-based.
pub type Position = (usize, usize);

/// A key that appears twice in one mapping: its path, where it first appears, where again.
pub type Duplicate = (String, Position, Position);

/// Positions of keys and values, by dotted path (`operations.send_email.path`).
///
/// Only diagnostics need positions, so the text is scanned for them the first time one is
/// asked for: a spec without problems (every `cargo build` after an edit) never pays for it.
#[derive(Debug, Clone, Default)]
pub struct Locations {
    text: std::sync::Arc<str>,
    scanned: std::sync::OnceLock<Scanned>,
}

#[derive(Debug, Clone, Default)]
struct Scanned {
    keys: HashMap<String, (usize, usize)>,
    values: HashMap<String, (usize, usize)>,
    duplicates: Vec<Duplicate>,
}

impl Locations {
    /// Scans `text` now; a syntax error yields what was found up to it.
    pub fn scan(text: &str) -> Locations {
        let locations = Locations::lazy(text);
        locations.scanned();
        locations
    }

    /// Keeps `text`, to be scanned when a position is first asked for.
    pub fn lazy(text: &str) -> Locations {
        Locations {
            text: text.into(),
            scanned: std::sync::OnceLock::new(),
        }
    }

    fn scanned(&self) -> &Scanned {
        self.scanned.get_or_init(|| {
            let mut scanner = Scanner::default();
            let mut parser = Parser::new_from_str(&self.text);
            // Syntax errors are reported by serde_yaml, which runs first.
            let _ = parser.load(&mut scanner, false);
            scanner.scanned
        })
    }

    /// Where the key at `path` starts, or the nearest enclosing item's key.
    pub fn key(&self, path: &str) -> (usize, usize) {
        self.find(&self.scanned().keys, path)
    }

    /// Where the value at `path` starts, or the nearest enclosing item's key.
    pub fn value(&self, path: &str) -> (usize, usize) {
        match self.scanned().values.get(path) {
            Some(pos) => *pos,
            None => self.key(path),
        }
    }

    fn find(&self, map: &HashMap<String, (usize, usize)>, path: &str) -> (usize, usize) {
        let mut path = path;
        loop {
            if let Some(pos) = map.get(path).or_else(|| self.scanned().values.get(path)) {
                return *pos;
            }
            match path.rfind('.') {
                Some(i) => path = &path[..i],
                None => return (1, 1),
            }
        }
    }

    /// Keys that appear twice in one mapping: path, first position, second position.
    pub fn duplicates(&self) -> &[Duplicate] {
        &self.scanned().duplicates
    }
}

enum Frame {
    Map {
        path: String,
        key: Option<String>,
        expecting_key: bool,
    },
    Seq {
        path: String,
        index: usize,
    },
}

#[derive(Default)]
struct Scanner {
    stack: Vec<Frame>,
    scanned: Scanned,
}

fn join(parent: &str, child: &str) -> String {
    if parent.is_empty() {
        child.to_owned()
    } else {
        format!("{parent}.{child}")
    }
}

fn position(mark: Marker) -> (usize, usize) {
    (mark.line().max(1), mark.col() + 1)
}

impl Scanner {
    /// Handles a node that starts at `mark`; returns its path when it is a value.
    fn node(&mut self, scalar: Option<&str>, mark: Marker) -> Option<String> {
        let pos = position(mark);
        match self.stack.last_mut() {
            None => Some(String::new()),
            Some(Frame::Map {
                path,
                key,
                expecting_key,
            }) => {
                if *expecting_key {
                    let name = scalar.unwrap_or("?").to_owned();
                    let full = join(path, &name);
                    if let Some(first) = self.scanned.keys.get(&full) {
                        self.scanned.duplicates.push((full.clone(), *first, pos));
                    } else {
                        self.scanned.keys.insert(full, pos);
                    }
                    *key = Some(name);
                    *expecting_key = false;
                    None
                } else {
                    *expecting_key = true;
                    let full = join(path, key.as_deref().unwrap_or("?"));
                    self.scanned.values.entry(full.clone()).or_insert(pos);
                    Some(full)
                }
            }
            Some(Frame::Seq { path, index }) => {
                let full = join(path, &index.to_string());
                *index += 1;
                self.scanned.values.entry(full.clone()).or_insert(pos);
                self.scanned.keys.entry(full.clone()).or_insert(pos);
                Some(full)
            }
        }
    }
}

impl MarkedEventReceiver for Scanner {
    fn on_event(&mut self, event: Event, mark: Marker) {
        match event {
            Event::Scalar(value, ..) => {
                self.node(Some(&value), mark);
            }
            Event::Alias(_) => {
                self.node(None, mark);
            }
            Event::MappingStart(..) => {
                let path = self.node(None, mark).unwrap_or_else(|| "?".into());
                self.stack.push(Frame::Map {
                    path,
                    key: None,
                    expecting_key: true,
                });
            }
            Event::SequenceStart(..) => {
                let path = self.node(None, mark).unwrap_or_else(|| "?".into());
                self.stack.push(Frame::Seq { path, index: 0 });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
            }
            _ => {}
        }
    }
}

/// Sections of a spec file that are maps of named items, decoded item by item.
const MAP_SECTIONS: &[&str] = &["credentials", "types", "operations", "gaps"];
/// Sections that are lists of items.
const LIST_SECTIONS: &[&str] = &["auth"];
/// Every top-level key.
const SECTIONS: &[&str] = &[
    "service",
    "credentials",
    "auth",
    "limits",
    "retry",
    "timeouts",
    "idempotency",
    "pagination",
    "errors",
    "types",
    "operations",
    "events",
    "websocket",
    "gaps",
];

/// Loads one spec file.
pub fn load_file(path: &Path) -> Result<Loaded, Diagnostics> {
    let display = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        Diagnostics(vec![Diagnostic::new(
            &display,
            (1, 1),
            format!("cannot read the spec file: {e}"),
        )])
    })?;
    let mut loaded = load_str(&display, &text)?;
    loaded.path = path.to_owned();
    Ok(loaded)
}

/// Loads one spec file, keeping what decodes (see [`load_str_partial`]).
pub fn load_file_partial(path: &Path) -> (Option<Loaded>, Diagnostics) {
    let display = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let (loaded, errors) = load_str_partial(&display, &text);
            (
                loaded.map(|l| Loaded {
                    path: path.to_owned(),
                    ..l
                }),
                errors,
            )
        }
        Err(e) => (
            None,
            Diagnostics(vec![Diagnostic::new(
                &display,
                (1, 1),
                format!("cannot read the spec file: {e}"),
            )]),
        ),
    }
}

/// Loads every `*.yaml` file of a directory, in name order.
pub fn load_dir(dir: &Path) -> Result<Vec<Loaded>, Diagnostics> {
    let paths = spec_files(dir)?;
    let mut loaded = Vec::new();
    let mut errors = Diagnostics::default();
    for path in paths {
        match load_file(&path) {
            Ok(l) => loaded.push(l),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(loaded)
    } else {
        Err(errors.sorted())
    }
}

/// The spec files of a directory, in name order.
pub fn spec_files(dir: &Path) -> Result<Vec<PathBuf>, Diagnostics> {
    let display = dir.display().to_string();
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Diagnostics(vec![Diagnostic::new(
            &display,
            (1, 1),
            format!("cannot read the spec directory: {e}"),
        )])
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(Diagnostics(vec![Diagnostic::new(
            &display,
            (1, 1),
            "no spec files (*.yaml, *.yml) here",
        )]));
    }
    Ok(paths)
}

/// Loads spec text; `display` names it in diagnostics.
///
/// Fails with every structural problem found; see [`load_str_partial`] to go on checking what
/// did load.
pub fn load_str(display: &str, text: &str) -> Result<Loaded, Diagnostics> {
    match load_str_partial(display, text) {
        (Some(loaded), errors) if errors.is_empty() => Ok(loaded),
        (_, errors) => Err(errors),
    }
}

/// Loads spec text, leaving out the items that do not decode: returns what loaded (if the
/// `service` section did) and the problems found, so the checker can report its own problems
/// in the same run. Items left out are listed in [`Loaded::broken`], so references to them are
/// not reported a second time.
pub fn load_str_partial(display: &str, text: &str) -> (Option<Loaded>, Diagnostics) {
    let mut value: serde_yaml::Value = match serde_yaml::from_str(text) {
        Ok(v) => v,
        Err(e) if e.to_string().contains("duplicate entry") => {
            let mut errors = Diagnostics::default();
            let locations = Locations::scan(text);
            let dups = locations.duplicates();
            let nested = |path: &str| {
                dups.iter().any(|(p, _, _)| {
                    path.len() > p.len()
                        && path.starts_with(p.as_str())
                        && path[p.len()..].starts_with('.')
                })
            };
            for (path, first, second) in dups.iter().filter(|(p, _, _)| !nested(p)) {
                let (section, name) = path.rsplit_once('.').unwrap_or(("the file", path));
                let what = match section {
                    "operations" => "operation",
                    "types" => "type",
                    "credentials" => "credential",
                    _ => "key",
                };
                errors.push(
                    Diagnostic::new(
                        display,
                        *second,
                        format!("duplicate {what} `{name}` in `{section}`"),
                    )
                    .hint(format!(
                        "it is first defined at line {}; names must be unique",
                        first.0
                    )),
                );
            }
            if errors.is_empty() {
                errors.push(Diagnostic::new(
                    display,
                    (1, 1),
                    format!("invalid YAML: {e}"),
                ));
            }
            return (None, errors);
        }
        Err(e) => {
            let pos = e
                .location()
                .map(|l| (l.line(), l.column()))
                .unwrap_or((1, 1));
            let message = e.to_string();
            let message = message
                .split(" at line ")
                .next()
                .unwrap_or(&message)
                .to_owned();
            return (
                None,
                Diagnostics(vec![Diagnostic::new(
                    display,
                    pos,
                    format!("invalid YAML: {message}"),
                )]),
            );
        }
    };
    // serde_yaml refused duplicate keys above, so positions are only needed for diagnostics.
    let locations = Locations::lazy(text);
    let mut errors = Diagnostics::default();
    let Some(root) = value.as_mapping_mut() else {
        errors.push(
            Diagnostic::new(display, (1, 1), "a spec file must be a mapping")
                .expected(format!("the keys {}", SECTIONS.join(", "))),
        );
        return (None, errors);
    };
    let mut broken: Vec<String> = Vec::new();
    let mut drop_sections: Vec<serde_yaml::Value> = Vec::new();
    for (key_value, section) in root.iter_mut() {
        let Some(key) = key_value.as_str() else {
            errors.push(Diagnostic::new(
                display,
                (1, 1),
                "top-level keys must be strings",
            ));
            drop_sections.push(key_value.clone());
            continue;
        };
        if MAP_SECTIONS.contains(&key) {
            if section.is_null() {
                continue;
            }
            let Some(items) = section.as_mapping_mut() else {
                errors.push(
                    Diagnostic::new(
                        display,
                        locations.value(key),
                        format!("`{key}` must be a mapping of named items"),
                    )
                    .expected("name: { ... }"),
                );
                drop_sections.push(key_value.clone());
                continue;
            };
            let mut failed = Vec::new();
            for (name, item) in items.iter() {
                let name_text = name.as_str().unwrap_or("?");
                let path = join(key, name_text);
                let ok = match key {
                    "credentials" => check_item::<crate::model::Credential>(
                        display,
                        &locations,
                        &path,
                        item,
                        &mut errors,
                    ),
                    "types" => check_item::<crate::model::TypeDef>(
                        display,
                        &locations,
                        &path,
                        item,
                        &mut errors,
                    ),
                    "operations" => check_item::<crate::model::Operation>(
                        display,
                        &locations,
                        &path,
                        item,
                        &mut errors,
                    ),
                    _ => check_item::<crate::model::Gap>(
                        display,
                        &locations,
                        &path,
                        item,
                        &mut errors,
                    ),
                };
                if !ok {
                    failed.push(name.clone());
                    broken.push(path);
                }
            }
            for name in failed {
                items.remove(&name);
            }
        } else if LIST_SECTIONS.contains(&key) {
            let Some(items) = section.as_sequence_mut() else {
                errors.push(
                    Diagnostic::new(
                        display,
                        locations.value(key),
                        format!("`{key}` must be a list"),
                    )
                    .expected("- name: ..."),
                );
                drop_sections.push(key_value.clone());
                continue;
            };
            let mut keep = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let path = join(key, &i.to_string());
                if check_item::<crate::model::AuthScheme>(
                    display,
                    &locations,
                    &path,
                    item,
                    &mut errors,
                ) {
                    keep.push(item.clone());
                } else {
                    if let Some(name) = item.get("name").and_then(serde_yaml::Value::as_str) {
                        broken.push(format!("auth.{name}"));
                    }
                    broken.push(path);
                }
            }
            *items = keep;
        } else if SECTIONS.contains(&key) {
            let ok = match key {
                "service" => check_item::<crate::model::ServiceInfo>(
                    display,
                    &locations,
                    key,
                    section,
                    &mut errors,
                ),
                "limits" => check_item::<crate::model::Limits>(
                    display,
                    &locations,
                    key,
                    section,
                    &mut errors,
                ),
                "retry" => check_item::<crate::model::RetryPolicy>(
                    display,
                    &locations,
                    key,
                    section,
                    &mut errors,
                ),
                "timeouts" => check_item::<crate::model::Timeouts>(
                    display,
                    &locations,
                    key,
                    section,
                    &mut errors,
                ),
                "idempotency" => check_item::<crate::model::Idempotency>(
                    display,
                    &locations,
                    key,
                    section,
                    &mut errors,
                ),
                "pagination" => check_item::<crate::model::Pagination>(
                    display,
                    &locations,
                    key,
                    section,
                    &mut errors,
                ),
                "errors" => check_item::<crate::model::Errors>(
                    display,
                    &locations,
                    key,
                    section,
                    &mut errors,
                ),
                "websocket" => check_item::<crate::model::WebSocket>(
                    display,
                    &locations,
                    key,
                    section,
                    &mut errors,
                ),
                _ => check_item::<crate::model::Events>(
                    display,
                    &locations,
                    key,
                    section,
                    &mut errors,
                ),
            };
            if !ok {
                broken.push(key.to_owned());
                drop_sections.push(key_value.clone());
            }
        } else {
            errors.push(
                Diagnostic::new(
                    display,
                    locations.key(key),
                    format!("unknown section `{key}`"),
                )
                .expected(format!("one of {}", SECTIONS.join(", ")))
                .maybe_hint(
                    did_you_mean(key, SECTIONS.iter().copied())
                        .map(|s| format!("did you mean `{s}`?")),
                ),
            );
            drop_sections.push(key_value.clone());
        }
    }
    // A broken `service` section does not hide the rest: a stand-in (its name kept when it is
    // text) lets the checker report the other sections' problems in the same run, unknown
    // types included. The section's own errors are already listed, so the run still fails.
    let service_name = root
        .get("service")
        .and_then(|s| s.get("name"))
        .and_then(serde_yaml::Value::as_str)
        .filter(|n| crate::names::is_snake(n) && !crate::names::is_keyword(n))
        .unwrap_or("service")
        .to_owned();
    for key in &drop_sections {
        root.remove(key);
    }
    if !root.contains_key("service") && broken.iter().any(|b| b == "service") {
        let stand_in = serde_yaml::from_str::<serde_yaml::Value>(&format!(
            "{{ name: {service_name}, title: '-', summary: '-', source: assumed, \
             base_url: {{ env: STAND_IN_BASE_URL, source: assumed }} }}"
        ));
        if let Ok(stand_in) = stand_in {
            root.insert("service".into(), stand_in);
        }
    }
    if !root.contains_key("service") {
        if !broken.iter().any(|b| b == "service") {
            errors.push(
                Diagnostic::new(display, (1, 1), "missing section `service`")
                    .expected("service: { name, title, summary, base_url }"),
            );
        }
        return (None, errors.sorted());
    }
    match serde_yaml::from_value::<SpecFile>(value) {
        Ok(spec) => {
            let loaded = Loaded {
                path: PathBuf::from(display),
                display: display.to_owned(),
                spec,
                locations,
                broken,
            };
            (Some(loaded), errors.sorted())
        }
        Err(e) => {
            errors.push(Diagnostic::new(
                display,
                (1, 1),
                format!("invalid spec: {e}"),
            ));
            (None, errors.sorted())
        }
    }
}

/// Decodes one item on its own, turning a failure into a located diagnostic.
fn check_item<T: DeserializeOwned>(
    display: &str,
    locations: &Locations,
    path: &str,
    value: &serde_yaml::Value,
    errors: &mut Diagnostics,
) -> bool {
    let result: Result<T, _> = serde_path_to_error::deserialize(value.clone());
    let Err(error) = result else { return true };
    let inner = error.path().to_string();
    let mut full = if inner == "." || inner.is_empty() {
        path.to_owned()
    } else {
        join(path, &inner)
    };
    let message = error.inner().to_string();
    let mut diagnostic;
    if let Some(field) = between(&message, "unknown field `", "`") {
        let expected = expected_list(&message);
        if !full.ends_with(field) {
            full = join(&full, field);
        }
        diagnostic = Diagnostic::new(
            display,
            locations.key(&full),
            format!("unknown key `{field}` in `{}`", parent_of(&full, field)),
        );
        if field.contains(' ') {
            diagnostic = diagnostic
                .hint("an unquoted value in `{ ... }` ends at a comma; put the value in quotes");
        }
        if let Some(list) = &expected {
            diagnostic = diagnostic.expected(format!("one of {}", list.join(", ")));
            if diagnostic.hint.is_none() {
                let hint = did_you_mean(field, list.iter().map(String::as_str));
                diagnostic = diagnostic.maybe_hint(hint.map(|h| format!("did you mean `{h}`?")));
            }
        }
    } else if let Some(field) = between(&message, "missing field `", "`") {
        diagnostic = Diagnostic::new(
            display,
            locations.key(&full),
            format!("`{full}` is missing the key `{field}`"),
        );
    } else if let Some(variant) = between(&message, "unknown variant `", "`") {
        let expected = expected_list(&message);
        diagnostic = Diagnostic::new(
            display,
            locations.value(&full),
            format!("`{full}`: unknown value `{variant}`"),
        );
        if let Some(list) = &expected {
            diagnostic = diagnostic.expected(format!("one of {}", list.join(", ")));
            let hint = did_you_mean(variant, list.iter().map(String::as_str));
            diagnostic = diagnostic.maybe_hint(hint.map(|h| format!("did you mean `{h}`?")));
        }
    } else {
        let message = message
            .split(" at line ")
            .next()
            .unwrap_or(&message)
            .to_owned();
        diagnostic = Diagnostic::new(
            display,
            locations.value(&full),
            format!("`{full}`: {message}"),
        );
    }
    errors.push(diagnostic);
    false
}

fn parent_of<'a>(path: &'a str, last: &str) -> &'a str {
    match path.strip_suffix(last).and_then(|p| p.strip_suffix('.')) {
        Some(parent) if !parent.is_empty() => parent,
        _ => "the file",
    }
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = text.find(start)? + start.len();
    let len = text[from..].find(end)?;
    Some(&text[from..from + len])
}

/// The list in serde's "expected one of `a`, `b`" tail.
fn expected_list(message: &str) -> Option<Vec<String>> {
    let tail = message
        .split("expected one of ")
        .nth(1)
        .or_else(|| message.split("expected ").nth(1))?;
    let items: Vec<String> = tail
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    (!items.is_empty()).then_some(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_key_positions() {
        let text = "service:\n  name: x\noperations:\n  send:\n    path: /a\n";
        let locations = Locations::scan(text);
        assert_eq!(locations.key("service"), (1, 1));
        assert_eq!(locations.key("service.name"), (2, 3));
        assert_eq!(locations.key("operations.send.path"), (5, 5));
        assert_eq!(locations.value("operations.send.path"), (5, 11));
        assert_eq!(locations.key("operations.send.path.nothing"), (5, 5));
    }

    #[test]
    fn records_duplicate_keys() {
        let text = "a:\n  b: 1\n  b: 2\n";
        let locations = Locations::scan(text);
        assert_eq!(locations.duplicates().len(), 1);
        assert_eq!(locations.duplicates()[0].0, "a.b");
    }
}
