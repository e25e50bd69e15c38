//! `$ref`s to other files (Azure's data-plane documents: `../../../Common/stable/2025-06-30/
//! common.json#/definitions/CommunicationIdentifierModel`), brought into the document before
//! it is read: each named definition, parameter or response referred to is copied into the
//! document's own section under its name, and the reference points there. What the copies
//! refer to comes along, in their own file's terms. A file that cannot be read, or a pointer
//! that names nothing, is left as it was (the schema reader then reports the `$ref` as not
//! followed) and listed here by path.
//!
//! Bounded: at most [`MAX_FILES`] files of at most [`MAX_FILE_BYTES`] each, references
//! followed [`MAX_DEPTH`] files deep; JSON and YAML files only, named by paths relative to the
//! file that names them (a URL is not fetched, an absolute path not read).

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value};

/// Most files read for one document.
pub const MAX_FILES: usize = 64;
/// Largest file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Deepest chain of files followed.
pub const MAX_DEPTH: usize = 16;

/// What the bundling did not bring in: `(the $ref as written, why)`.
pub type Unresolved = Vec<(String, String)>;

/// Brings every `$ref` to another file of `doc` (read from `dir`) into `doc`; `swagger` says
/// which sections the copies go to (`definitions` or `components/schemas`).
pub fn inline_external_refs(doc: &mut Value, dir: &Path, swagger: bool) -> Unresolved {
    let mut bundler = Bundler {
        swagger,
        files: HashMap::new(),
        placed: HashMap::new(),
        taken: HashMap::new(),
        added: Vec::new(),
        unresolved: Vec::new(),
    };
    for section in SECTIONS {
        let names = section_of(doc, swagger, section).map(|m| m.keys().cloned().collect());
        bundler.taken.insert(section, names.unwrap_or_default());
    }
    bundler.walk(doc, None, dir, 0);
    // Copies are placed after the walk (the walk holds the document).
    while let Some((section, name, value)) = bundler.added.pop() {
        if let Some(map) = section_mut(doc, swagger, section) {
            map.insert(name, value);
        }
    }
    bundler.unresolved
}

/// What the report says of the references to other files left in `doc` (none read, or
/// `unresolved` by the bundling): one finding per file, with how many places refer to it and
/// where the first are (Vonage's applications without `common/common_errors.yml`: 17 error
/// answers kept their status and lost their body, told as one line).
pub fn not_brought_in(doc: &Value, unresolved: &Unresolved) -> Vec<(String, String)> {
    let mut places: Vec<(String, String)> = Vec::new();
    external_places(doc, String::new(), &mut places, 0);
    let mut files: Vec<&str> = Vec::new();
    for (r, _) in &places {
        let file = r.split_once('#').map_or(r.as_str(), |(f, _)| f);
        if !files.contains(&file) {
            files.push(file);
        }
    }
    files
        .into_iter()
        .map(|file| {
            let at: Vec<&str> = places
                .iter()
                .filter(|(r, _)| r.split_once('#').map_or(r.as_str(), |(f, _)| f) == file)
                .map(|(_, p)| p.as_str())
                .collect();
            let why = unresolved
                .iter()
                .find(|(r, _)| r.starts_with(file))
                .map_or("no directory to read it from was given", |(_, why)| why);
            let shown: Vec<String> = at.iter().take(MAX_PLACES_SHOWN).map(|p| format!("`#{p}`")).collect();
            let more = at.len().saturating_sub(MAX_PLACES_SHOWN);
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            (
                format!("`{file}`: {why}"),
                format!(
                    "{} place(s) refer to it, each typed loosely or left out (an answer keeps its status, not its body): {}{more}",
                    at.len(),
                    shown.join(", ")
                ),
            )
        })
        .collect()
}

/// Places of a reference to another file listed in a finding.
const MAX_PLACES_SHOWN: usize = 5;

/// Every `$ref` to another file in `value` (at `pointer`), with where it is.
fn external_places(value: &Value, pointer: String, out: &mut Vec<(String, String)>, depth: usize) {
    if depth > crate::import::document::MAX_NESTING {
        return;
    }
    match value {
        Value::Object(map) => {
            if let Some(r) = map.get("$ref").and_then(Value::as_str)
                && !r.starts_with('#')
            {
                out.push((r.to_owned(), pointer.clone()));
            }
            for (key, inner) in map {
                let at = format!("{pointer}/{}", crate::import::document::escape(key));
                external_places(inner, at, out, depth + 1);
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                external_places(inner, format!("{pointer}/{i}"), out, depth + 1);
            }
        }
        _ => {}
    }
}

/// The sections a named reference can point into.
const SECTIONS: [&str; 3] = ["schemas", "parameters", "responses"];

struct Bundler {
    swagger: bool,
    /// Files read, by path (`None`: unreadable, with why in `unresolved`).
    files: HashMap<PathBuf, Option<Value>>,
    /// `(file, pointer)` → the local `$ref` its copy is at.
    placed: HashMap<(PathBuf, String), String>,
    /// Names in use in each section.
    taken: HashMap<&'static str, Vec<String>>,
    /// Copies to place: section, name, value.
    added: Vec<(&'static str, String, Value)>,
    unresolved: Unresolved,
}

impl Bundler {
    /// Rewrites the references in `value`, which sits in `file` (`None`: the document) read
    /// from `dir`, `depth` files away from the document.
    fn walk(&mut self, value: &mut Value, file: Option<&Path>, dir: &Path, depth: usize) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get("$ref") {
                    let r = r.clone();
                    if let Some(local) = self.reference(&r, file, dir, depth) {
                        map.insert("$ref".to_owned(), Value::String(local));
                    }
                }
                for (key, inner) in map.iter_mut() {
                    if key != "$ref" {
                        self.walk(inner, file, dir, depth);
                    }
                }
            }
            Value::Array(items) => {
                for inner in items {
                    self.walk(inner, file, dir, depth);
                }
            }
            _ => {}
        }
    }

    /// The local `$ref` that `r` (written in `file`) becomes, its target copied in; `None`
    /// where it stays as written (a reference within the document, or one not resolved).
    fn reference(
        &mut self,
        r: &str,
        file: Option<&Path>,
        dir: &Path,
        depth: usize,
    ) -> Option<String> {
        let (path_part, pointer) = r.split_once('#').unwrap_or((r, ""));
        let target = match (path_part.is_empty(), file) {
            // Within the document: as it is.
            (true, None) => return None,
            // Within another file: that file's own definition.
            (true, Some(file)) => file.to_path_buf(),
            (false, _) if path_part.contains("://") => {
                self.unresolved
                    .push((r.to_owned(), "a URL: only files are read".to_owned()));
                return None;
            }
            // A document names other documents: relative paths to JSON or YAML files only, so
            // an imported document cannot pull any file of the machine into the spec.
            (false, _) if Path::new(path_part).is_absolute() || !is_document(path_part) => {
                self.unresolved.push((
                    r.to_owned(),
                    "only relative paths to .json, .yaml or .yml files are read".to_owned(),
                ));
                return None;
            }
            (false, _) => normalize(&dir.join(path_part)),
        };
        let key = (target.clone(), pointer.to_owned());
        if let Some(local) = self.placed.get(&key) {
            return Some(local.clone());
        }
        if depth >= MAX_DEPTH {
            self.unresolved
                .push((r.to_owned(), format!("more than {MAX_DEPTH} files deep")));
            return None;
        }
        let found = self.read(&target, r)?.pointer(pointer).cloned();
        let Some(mut copy) = found else {
            self.unresolved.push((
                r.to_owned(),
                format!("`#{pointer}` names nothing in that file"),
            ));
            return None;
        };
        let Some((section, name)) = named(pointer) else {
            self.unresolved.push((
                r.to_owned(),
                "it points inside a definition, not at one".to_owned(),
            ));
            return None;
        };
        let name = self.free_name(section, name);
        let local = local_ref(self.swagger, section, &name);
        self.placed.insert(key, local.clone());
        let inner_dir = target.parent().map(Path::to_path_buf).unwrap_or_default();
        self.walk(&mut copy, Some(&target), &inner_dir, depth + 1);
        self.added.push((section, name, copy));
        Some(local)
    }

    /// The file at `path` (read once), for the reference `r`.
    fn read(&mut self, path: &Path, r: &str) -> Option<&Value> {
        if !self.files.contains_key(path) {
            let read = if self.files.len() >= MAX_FILES {
                Err(format!("more than {MAX_FILES} files"))
            } else {
                read_document(path)
            };
            let value = read
                .map_err(|why| self.unresolved.push((r.to_owned(), why)))
                .ok();
            self.files.insert(path.to_path_buf(), value);
        }
        self.files.get(path).and_then(Option::as_ref)
    }

    /// `name`, or `name_2`, `name_3`... where the section holds it already.
    fn free_name(&mut self, section: &'static str, name: &str) -> String {
        let taken = self.taken.entry(section).or_default();
        let mut candidate = name.to_owned();
        let mut n = 1;
        while taken.contains(&candidate) {
            n += 1;
            candidate = format!("{name}_{n}");
        }
        taken.push(candidate.clone());
        candidate
    }
}

/// The section and name a pointer into a file names (`/definitions/Foo`,
/// `/components/schemas/Foo`, `/parameters/Bar`, `/responses/Baz`).
fn named(pointer: &str) -> Option<(&'static str, &str)> {
    let parts: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    match parts.as_slice() {
        ["definitions", name] | ["components", "schemas", name] => Some(("schemas", name)),
        ["parameters", name] | ["components", "parameters", name] => Some(("parameters", name)),
        ["responses", name] | ["components", "responses", name] => Some(("responses", name)),
        _ => None,
    }
}

fn local_ref(swagger: bool, section: &str, name: &str) -> String {
    match (swagger, section) {
        (true, "schemas") => format!("#/definitions/{name}"),
        (true, other) => format!("#/{other}/{name}"),
        (false, other) => format!("#/components/{other}/{name}"),
    }
}

fn section_of<'a>(doc: &'a Value, swagger: bool, section: &str) -> Option<&'a Map<String, Value>> {
    let at = match (swagger, section) {
        (true, "schemas") => "/definitions".to_owned(),
        (true, other) => format!("/{other}"),
        (false, other) => format!("/components/{other}"),
    };
    doc.pointer(&at)?.as_object()
}

fn section_mut<'a>(
    doc: &'a mut Value,
    swagger: bool,
    section: &str,
) -> Option<&'a mut Map<String, Value>> {
    let path: Vec<&str> = match (swagger, section) {
        (true, "schemas") => vec!["definitions"],
        (true, other) => vec![other],
        (false, other) => vec!["components", other],
    };
    let mut at = doc;
    for part in path {
        let map = at.as_object_mut()?;
        at = map
            .entry(part.to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    at.as_object_mut()
}

/// A JSON or YAML file, within the size bound.
fn read_document(path: &Path) -> Result<Value, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(format!(
            "`{}` is {size} bytes, over {MAX_FILE_BYTES}",
            path.display()
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    super::document::parse(&text).map_err(|e| format!("cannot parse `{}`: {e}", path.display()))
}

/// Whether `path` names a JSON or YAML document by its extension.
fn is_document(path: &str) -> bool {
    Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "json" | "yaml" | "yml"))
}

/// `a/b/../c` as `a/c` (no file system access: the path need not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;

    #[test]
    fn definitions_of_other_files_are_copied_in_with_what_they_refer_to() {
        let root = tempfile::tempdir().unwrap();
        let common = root.path().join("common/v1");
        std::fs::create_dir_all(&common).unwrap();
        std::fs::create_dir_all(root.path().join("chat")).unwrap();
        std::fs::write(
            common.join("types.json"),
            json!({ "definitions": {
                "Identifier": { "type": "object", "properties": { "user": { "$ref": "#/definitions/User" } } },
                "User": { "type": "object", "properties": { "id": { "type": "string" } } },
                "Error": { "type": "object" }
            } })
            .to_string(),
        )
        .unwrap();
        let mut doc = json!({
            "swagger": "2.0",
            "definitions": {
                "User": { "type": "string" },
                "Thread": { "properties": {
                    "owner": { "$ref": "../common/v1/types.json#/definitions/Identifier" },
                    "again": { "$ref": "../common/v1/types.json#/definitions/Identifier" },
                    "lost": { "$ref": "../common/v1/missing.json#/definitions/X" }
                } }
            }
        });
        let unresolved = inline_external_refs(&mut doc, &root.path().join("chat"), true);
        let defs = &doc["definitions"];
        assert_eq!(
            defs["Thread"]["properties"]["owner"]["$ref"],
            "#/definitions/Identifier"
        );
        assert_eq!(
            defs["Thread"]["properties"]["again"]["$ref"],
            "#/definitions/Identifier"
        );
        // The file's own `User` came along, renamed beside the document's.
        assert_eq!(
            defs["Identifier"]["properties"]["user"]["$ref"],
            "#/definitions/User_2"
        );
        assert_eq!(defs["User_2"]["properties"]["id"]["type"], "string");
        assert_eq!(defs["User"]["type"], "string");
        assert!(defs.get("Error").is_none(), "only what is referred to");
        assert_eq!(unresolved.len(), 1, "{unresolved:?}");
        assert!(unresolved[0].0.contains("missing.json"));
        // Nothing but relative JSON or YAML documents is read.
        let mut other = json!({ "swagger": "2.0", "definitions": { "A": { "properties": {
            "x": { "$ref": "/etc/hosts.json#/definitions/X" },
            "y": { "$ref": "../notes.txt#/definitions/Y" } } } } });
        let refused = inline_external_refs(&mut other, root.path(), true);
        assert_eq!(refused.len(), 2, "{refused:?}");
        assert!(
            refused
                .iter()
                .all(|(_, why)| why.contains("relative paths"))
        );
        assert_eq!(
            defs["Thread"]["properties"]["lost"]["$ref"],
            "../common/v1/missing.json#/definitions/X"
        );
    }

    #[test]
    fn a_reference_cycle_between_files_ends() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(
            root.path().join("a.yaml"),
            "components:\n  schemas:\n    A:\n      properties:\n        b: { $ref: 'b.yaml#/components/schemas/B' }\n",
        )
        .unwrap();
        std::fs::write(
            root.path().join("b.yaml"),
            "components:\n  schemas:\n    B:\n      properties:\n        a: { $ref: 'a.yaml#/components/schemas/A' }\n",
        )
        .unwrap();
        let mut doc = json!({ "openapi": "3.0.0", "components": { "schemas": {
            "Root": { "$ref": "a.yaml#/components/schemas/A" }
        } } });
        let unresolved = inline_external_refs(&mut doc, root.path(), false);
        assert!(unresolved.is_empty(), "{unresolved:?}");
        let schemas = &doc["components"]["schemas"];
        assert_eq!(schemas["Root"]["$ref"], "#/components/schemas/A");
        assert_eq!(
            schemas["B"]["properties"]["a"]["$ref"],
            "#/components/schemas/A"
        );
    }
}
