//! Mutated documents never panic the importer: each fixture is damaged thousands of ways
//! (keys removed, values replaced by other JSON types, `$ref`s pointed at nothing or at
//! themselves, schemas nested deep), and every import either fails with a typed error or gives
//! a spec that `check` accepts.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

use serde_json::{Value, json};
use tidings_codegen::import::{ImportOptions, import_openapi};

/// A small deterministic generator (xorshift), so a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn documents() -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import");
    let mut out = Vec::new();
    for name in ["features_3_0.yaml", "features_3_1.json", "swagger_2_0.yaml"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let value: Value = serde_yaml::from_str(&text).unwrap();
        out.push((name.to_owned(), value));
    }
    out
}

/// Every path to a node of the document.
fn paths(v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                at.push(k.clone());
                paths(c, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                at.push(i.to_string());
                paths(c, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn node<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    let mut cur = v;
    for p in path {
        cur = match cur {
            Value::Object(m) => m.get_mut(p)?,
            Value::Array(a) => a.get_mut(p.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn mutate(doc: &mut Value, rng: &mut Rng) {
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    let path = all[rng.below(all.len())].clone();
    let replacement = match rng.below(12) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(-1),
        3 => json!("{weird} /path ~1 #"),
        4 => json!([]),
        5 => json!({}),
        6 => json!({ "$ref": "#/components/schemas/Nowhere" }),
        7 => json!({ "$ref": format!("#/{}", path.join("/")) }),
        8 => json!({ "$ref": "other.yaml#/x" }),
        9 => {
            // Nesting deeper than the importer follows, within what the parsers read.
            let mut v = json!({ "type": "string" });
            for _ in 0..45 {
                v = json!({ "type": "object", "properties": { "a": v } });
            }
            v
        }
        10 => json!({ "oneOf": [{ "type": "null" }], "discriminator": { "propertyName": 7 } }),
        _ => {
            // Remove the node instead.
            if let Some((last, parent)) = path.split_last() {
                match node(doc, parent) {
                    Some(Value::Object(m)) => {
                        m.remove(last);
                    }
                    Some(Value::Array(a)) => {
                        if let Ok(i) = last.parse::<usize>()
                            && i < a.len()
                        {
                            a.remove(i);
                        }
                    }
                    _ => {}
                }
            }
            return;
        }
    };
    if let Some(n) = node(doc, &path) {
        *n = replacement;
    }
}

#[test]
fn mutated_documents_give_a_checked_spec_or_a_typed_error() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut imported = 0;
    let mut refused = 0;
    for (name, original) in documents() {
        for round in 0..150 {
            let mut doc = original.clone();
            for _ in 0..1 + rng.below(4) {
                mutate(&mut doc, &mut rng);
            }
            let text = serde_json::to_string(&doc).unwrap();
            let options = ImportOptions::new("mutant", name.as_str());
            let result = std::panic::catch_unwind(|| import_openapi(&text, &options, None));
            let result =
                result.unwrap_or_else(|_| panic!("{name} round {round} panicked on:\n{text}"));
            match result {
                Ok(spec) => {
                    let loaded =
                        tidings_codegen::load::load_str("mutant.yaml", &spec.yaml).unwrap();
                    tidings_codegen::check::check(&loaded).unwrap_or_else(|d| {
                        panic!(
                            "{name} round {round}: the spec does not check: {d}\n{}",
                            spec.yaml
                        )
                    });
                    imported += 1;
                }
                Err(_) => refused += 1,
            }
        }
    }
    // Most mutations leave an importable document; some break it outright.
    assert!(imported > 200, "imported {imported}, refused {refused}");
}
