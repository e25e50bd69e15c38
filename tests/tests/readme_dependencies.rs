//! Issue 27 item 9: the README's dependency snippet names every crate the examples of `tidings`
//! use (a new user copies the snippet, then an example), and `serde_json` comes through
//! `tidings` itself.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::path::PathBuf;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The first ```toml block after `## Using a client`.
fn readme_snippet() -> String {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let section = &readme[readme.find("## Using a client").expect("the section")..];
    let start = section.find("```toml").expect("a toml block") + "```toml".len();
    let end = start + section[start..].find("```").unwrap();
    section[start..end].to_owned()
}

/// Crate names an example uses as a path root (`use x::`, `x::y`, `#[x::main]`).
fn crates_used(source: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let bytes = source.as_bytes();
    for (i, _) in source.match_indices("::") {
        let start = source[..i]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |p| p + 1);
        let name = &source[start..i];
        // A path root: not preceded by `::` itself, and a lower-case identifier.
        let rooted = start < 2 || &bytes[start - 2..start] != b"::";
        if rooted
            && !name.is_empty()
            && name.starts_with(|c: char| c.is_ascii_lowercase())
            && !matches!(name, "std" | "core" | "alloc" | "crate" | "self" | "super")
        {
            found.insert(name.to_owned());
        }
    }
    found
}

#[test]
fn the_readme_snippet_names_every_crate_the_examples_use() {
    let snippet = readme_snippet();
    let listed: BTreeSet<String> = snippet
        .lines()
        .map(|l| l.trim_start_matches('#').trim())
        .filter_map(|l| {
            l.split_once('=')
                .map(|(name, _)| name.trim().replace('-', "_"))
        })
        .collect();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(workspace().join("generated/examples")).unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        for name in crates_used(&source) {
            // Module paths of the crate itself or of a `use` alias are not crates.
            let is_module = source.contains(&format!("use tidings::{name}"))
                || source.contains(&format!("use tidings::{{{name}"))
                || source.contains(&format!("{name}::{{self"))
                || source.contains(&format!("::{name};"))
                || source.contains(&format!("{{self, {name}"))
                || source.contains(&format!(", {name}}}"))
                || source.contains(&format!("::{name}::"));
            if !is_module && !listed.contains(&name) {
                missing.push(format!("{}: {name}", path.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "crates the examples use that the README's snippet does not name: {missing:?}\nsnippet:\n{snippet}"
    );
    assert!(listed.contains("tidings"), "{snippet}");
}
