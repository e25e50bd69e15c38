//! `spec/README.md` is the reference of the spec language: every key of the JSON Schema
//! (`spec/spec.schema.json`, derived from the model) must be mentioned there, as a code span
//! (`` `max_len` ``) or as a YAML key in an example (`max_len: 998`). A key added to the model
//! without its documentation fails here.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

/// Every property name anywhere in the schema.
fn keys(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get("properties") {
                out.extend(props.keys().cloned());
            }
            for v in map.values() {
                keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

/// True when `text` mentions `key` as the start of a code span or as a YAML key.
fn mentions(text: &str, key: &str) -> bool {
    let span = ["`", " ", ".", "{", ":", "<", "["]
        .iter()
        .any(|after| text.contains(&format!("`{key}{after}")));
    let yaml_key = text.match_indices(&format!("{key}:")).any(|(i, _)| {
        text[..i]
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || c == '{' || c == ',')
    });
    span || yaml_key
}

#[test]
fn every_schema_key_is_documented_in_the_spec_reference() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(spec_dir().join("spec.schema.json")).unwrap(),
    )
    .unwrap();
    let mut all = BTreeSet::new();
    keys(&schema, &mut all);
    assert!(
        all.len() > 50,
        "only {} keys found in the schema",
        all.len()
    );
    let reference = std::fs::read_to_string(spec_dir().join("README.md")).unwrap();
    let missing: Vec<&String> = all.iter().filter(|k| !mentions(&reference, k)).collect();
    assert!(
        missing.is_empty(),
        "spec/README.md does not document these keys of spec/spec.schema.json: {missing:?}\n\
         add each to spec/README.md with an example (as `key` or in a YAML example)"
    );
}

#[test]
fn mention_rules_need_the_key_itself() {
    assert!(mentions("a `max_len` b", "max_len"));
    assert!(mentions("  max_len: 5", "max_len"));
    assert!(mentions("{ max_len: 5 }", "max_len"));
    assert!(!mentions("`min_max_len` and xmax_len: 3", "max_len"));
    assert!(!mentions("nothing here", "max_len"));
}
