//! Issue 30, item 5: for imported documents, `check` passing means the generated code
//! compiles. Seeded OpenAPI documents are built from names that collide once they become Rust
//! (`fooBar`/`foo_bar`/`FooBar`, `User`/`user`/`USER`/`user-item`, operation ids such as
//! `getThings` and `getThingsPages` beside the page spec `GET_THINGS_PAGES`, `list_stream`,
//! methods every client has, keywords, non-ASCII, leading digits, hash-prefixed schema names,
//! enum values that differ by punctuation, path parameters named `body` or `self`), with
//! recursive `$ref`s, enums, maps, unions, paged lists (cursor, token, offset, bare arrays),
//! error bodies per operation and webhooks (whose generated `WebhookPayload` enum a component
//! may be named like). Every document must import (an item the checker refuses is
//! dropped and reported with its JSON pointer and the checker's located message, never an
//! unlocated failure), its import must pass `check`, and every module is generated into one
//! crate that `cargo check` compiles without an error or a warning.
//!
//! CI runs 24 documents in one crate; `COMMS_IMPORT_CASES=200 cargo test -p tidings-codegen
//! --test import_compiles` runs more. The crate builds in `target/rust-names` (shared with
//! `rust_names.rs`), so later runs only check the new code.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Map, Value, json};
use tidings_codegen::import::{ImportOptions, import_openapi};
// The binary's synthetic specs, included (they are not in the library).
#[allow(dead_code)]
#[path = "../src/cli/synthetic.rs"]
mod synthetic;

use synthetic::{HARD_NAMES, Rng};
use tidings_codegen::{check, emit, load};

/// Schema names that collide by case, punctuation, hashes, keywords or the names generated
/// code uses itself.
const SCHEMA_NAMES: &[&str] = &[
    "User",
    "user",
    "USER",
    "user-item",
    "User_Item",
    "userItem",
    "user.item",
    "Thing",
    "thing.v2",
    "Thing2",
    "type",
    "Self",
    "self",
    "Client",
    "Option",
    "String",
    "Vec",
    "Box",
    "Result",
    "Error",
    "ErrorCode",
    "Page",
    "Op",
    "Value",
    "größe",
    "Ünicode",
    "1stThing",
    "__x",
    "20085af3b1c2d4e5f60718293a4b5c6d7e8f9011-SmsEnvelope",
    "20085af3b1c2d4e5f60718293a4b5c6d7e8f9011SmsEnvelope",
    "GetThingsQuery",
    "GetThingsHeaders",
    "ListThingsQuery",
    "ClientMessage",
    "Imp0Client",
    "Imp0Server",
    "WebhookPayload",
    "WebhookPayload2",
];

/// Property names that become one Rust field, or none.
const FIELD_NAMES: &[&str] = &[
    "fooBar", "foo_bar", "FooBar", "foo-bar", "FOO_BAR", "foo.bar", "foo bar", "", "$ref", "@type",
    "+1", "-1", "ä", "new",
];

/// Operation ids that collide with each other, with generated statics and methods, or are not
/// identifiers.
const OP_IDS: &[&str] = &[
    "getThings",
    "get_things",
    "GetThings",
    "get-things",
    "getThingsPages",
    "get_things_pages",
    "getThingsStream",
    "get_things_stream",
    "listThings",
    "list_things_stream",
    "runtime",
    "builder",
    "new",
    "from_env",
    "with_options",
    "type",
    "match",
    "créer",
    "1st",
    "a.b",
    "Self",
    "",
];

/// Enum values that differ only by case or punctuation, or name generated variants.
const ENUM_VALUES: &[&str] = &[
    "a-b", "a_b", "A B", "aB", "AB", "", "1", "Other", "Unknown", "unknown", "type", "ä", "self",
];

/// Path parameter names.
const PATH_PARAMS: &[&str] = &[
    "id", "type", "self", "body", "query", "ctx", "größe", "Id", "ID",
];

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn env_count(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `min` to `min + spread - 1` names of `pool` (repeats allowed).
fn pick_many<'a>(rng: &mut Rng, pool: &[&'a str], min: usize, spread: usize) -> Vec<&'a str> {
    let n = min + rng.below(spread);
    (0..n).map(|_| rng.pick(pool)).collect()
}

/// A property schema: a scalar, a list, a map, an enum, a reference (possibly to the schema
/// itself or to one that refers back), a free-form object or a union.
fn property(rng: &mut Rng, components: &[String]) -> Value {
    let reference = |rng: &mut Rng| json!({"$ref": format!("#/components/schemas/{}", components[rng.below(components.len())].replace('~', "~0").replace('/', "~1"))});
    match rng.below(10) {
        0 => json!({"type": "integer"}),
        1 => json!({"type": "boolean", "nullable": true}),
        2 => json!({"type": "array", "items": {"type": "string"}}),
        3 => json!({"type": "object", "additionalProperties": {"type": "integer"}}),
        4 => json!({"type": "string", "enum": pick_many(rng, ENUM_VALUES, 1, 4)}),
        5 | 6 => reference(rng),
        7 => json!({"type": "array", "items": reference(rng)}),
        8 => json!({"type": "object"}),
        _ => json!({"oneOf": [reference(rng), {"type": "string"}]}),
    }
}

/// A seeded document with hard names everywhere a name goes.
fn document(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut components: Vec<String> = pick_many(&mut rng, SCHEMA_NAMES, 3, 4)
        .into_iter()
        .map(str::to_owned)
        .collect();
    components.push("ErrorBody".into());
    components.sort();
    components.dedup();
    let mut schemas = Map::new();
    for name in &components {
        if name == "ErrorBody" {
            schemas.insert(
                name.clone(),
                json!({"type": "object", "properties": {
                    "error": {"type": "object", "properties": {
                        "code": {"type": "string"}, "message": {"type": "string"}}}}}),
            );
            continue;
        }
        let mut props = Map::new();
        let mut names = pick_many(&mut rng, FIELD_NAMES, 1, 3);
        names.extend(pick_many(&mut rng, HARD_NAMES, 1, 3));
        for p in names {
            props.insert(p.to_owned(), property(&mut rng, &components));
        }
        props.insert("id".into(), json!({"type": "string"}));
        let required: Vec<&String> = props.keys().filter(|_| rng.below(3) == 0).collect();
        schemas.insert(
            name.clone(),
            json!({"type": "object", "properties": props, "required": required}),
        );
    }
    let escape = |n: &str| n.replace('~', "~0").replace('/', "~1");
    let schema_ref = |n: &str| json!({"$ref": format!("#/components/schemas/{}", escape(n))});
    let item = components
        .iter()
        .find(|c| *c != "ErrorBody")
        .unwrap()
        .clone();
    let mut paths = Map::new();
    for (i, id) in pick_many(&mut rng, OP_IDS, 3, 4).into_iter().enumerate() {
        let p = rng.pick(PATH_PARAMS);
        let method = ["get", "get", "post", "put", "delete", "patch"][rng.below(6)];
        let mut params: Vec<Value> = Vec::new();
        let path = if rng.below(2) == 0 {
            params.push(
                json!({"name": p, "in": "path", "required": true, "schema": {"type": "string"}}),
            );
            format!("/v1/things{i}/{{{p}}}")
        } else {
            format!("/v1/things{i}")
        };
        for q in pick_many(&mut rng, HARD_NAMES, 0, 3) {
            params.push(json!({"name": q, "in": "query", "schema": {"type": "string"}}));
        }
        if rng.below(4) == 0 {
            params.push(json!({"name": rng.pick(&["X-Trace", "x-trace", "X-Request-Id", "If-Match"]), "in": "header", "schema": {"type": "string"}}));
        }
        let mut op = json!({"responses": {
            "400": {"description": "refused", "content": {"application/json": {"schema": schema_ref("ErrorBody")}}},
        }});
        if !id.is_empty() {
            op["operationId"] = json!(id);
        }
        let success = if method == "get" {
            match rng.below(4) {
                // A page with a cursor token, which the importer pages.
                0 => {
                    params.push(
                        json!({"name": "page_token", "in": "query", "schema": {"type": "string"}}),
                    );
                    json!({"type": "object", "properties": {
                        "data": {"type": "array", "items": schema_ref(&item)},
                        "next_page_token": {"type": "string"}}})
                }
                // A bare array paged by offset and limit.
                1 => {
                    params.push(
                        json!({"name": "offset", "in": "query", "schema": {"type": "integer"}}),
                    );
                    params.push(
                        json!({"name": "limit", "in": "query", "schema": {"type": "integer"}}),
                    );
                    json!({"type": "array", "items": schema_ref(&item)})
                }
                _ => {
                    schema_ref(rng.pick(&components.iter().map(String::as_str).collect::<Vec<_>>()))
                }
            }
        } else {
            op["requestBody"] =
                json!({"content": {"application/json": {"schema": schema_ref(&item)}}});
            schema_ref(&item)
        };
        op["responses"]["200"] =
            json!({"description": "ok", "content": {"application/json": {"schema": success}}});
        if rng.below(3) == 0 {
            // Another error shape for this operation only, and an error header.
            op["responses"]["404"] = json!({"description": "missing",
                "headers": {"X-Error-Code": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": schema_ref(&item)}}});
        }
        op["parameters"] = Value::Array(params);
        let entry = paths
            .entry(path)
            .or_insert_with(|| Value::Object(Map::new()));
        entry[method] = op;
    }
    // Half the documents deliver webhooks: two or more payload types make the generated
    // `WebhookPayload` enum, whose name a component may already have.
    let mut webhooks = Map::new();
    if rng.below(2) == 0 {
        for name in pick_many(
            &mut rng,
            &["message.sent", "messageSent", "delivered"],
            2,
            2,
        ) {
            let payload = rng.pick(&components.iter().map(String::as_str).collect::<Vec<_>>());
            webhooks.insert(
                name.to_owned(),
                json!({"post": {"requestBody": {"content": {"application/json": {"schema": schema_ref(payload)}}},
                    "responses": {"200": {"description": "ok"}}}}),
            );
        }
    }
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Hard names", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": paths,
        "x-webhooks": webhooks,
        "components": {"schemas": schemas, "securitySchemes": {
            "key": {"type": "http", "scheme": "bearer"}}},
        "security": [{"key": []}],
    })
    .to_string()
}

/// `cargo check` of a crate holding `modules`, against the workspace's runtime.
fn cargo_check(modules: &[String]) -> (bool, String) {
    let ws = workspace();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        format!(
            r#"[package]
name = "rust-names"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
tidings-runtime = {{ path = "{}" }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"

[features]
# The generated code keeps the server's serde direction behind this feature, as a crate of
# its own that includes a client declares it.
server = []

[workspace]
"#,
            ws.join("runtime").display()
        ),
    )
    .unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), modules.join("\n")).unwrap();
    std::fs::copy(ws.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["check", "--quiet", "--offline", "--lib"])
        .current_dir(dir.path())
        .env("CARGO_TARGET_DIR", ws.join("target/rust-names"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn imported_documents_with_colliding_names_check_clean_and_compile() {
    let cases = env_count("COMMS_IMPORT_CASES", 24);
    let mut modules = Vec::new();
    let (mut refused, mut renamed) = (0, 0);
    for seed in 0..cases {
        let service = format!("imp{seed}");
        let text = document(seed);
        let options = ImportOptions::new(&service, "hard.json");
        let imported = import_openapi(&text, &options, None)
            .unwrap_or_else(|e| panic!("seed {seed}: the import failed: {e}\n{text}"));
        // What the checker refused was dropped, with where and why.
        for s in &imported.report.skipped {
            if s.reason == "refused by the checker" {
                refused += 1;
                let detail = s.detail.as_deref().unwrap_or_default();
                assert!(
                    s.pointer.starts_with("#/") && !detail.is_empty(),
                    "seed {seed}: a refusal without its place: {s:?}"
                );
                eprintln!("seed {seed}: {} refused: {detail}", s.pointer);
            }
        }
        renamed += imported
            .report
            .approximated
            .iter()
            .filter(|a| a.reason.contains("rust_name") || a.reason.contains("renamed"))
            .count();
        let loaded = load::load_str(&format!("{service}.yaml"), &imported.yaml)
            .unwrap_or_else(|d| panic!("seed {seed}: {d}\n{}", imported.yaml));
        let checked = check::check(&loaded)
            .unwrap_or_else(|d| panic!("seed {seed}: the import does not check: {d}"));
        let module = emit::emit_service(&checked)
            .unwrap_or_else(|e| panic!("seed {seed}: the emitter failed: {e}"));
        modules.push(module);
    }
    assert!(
        renamed > 0,
        "no name was renamed: the documents no longer collide"
    );
    eprintln!("{cases} documents: {renamed} names renamed, {refused} items refused and dropped");
    let (ok, stderr) = cargo_check(&modules);
    assert!(
        ok,
        "imported documents that check clean do not compile:\n{stderr}"
    );
    assert!(
        !stderr.contains("warning"),
        "the generated code warns:\n{stderr}"
    );
}

#[test]
fn the_documents_differ_by_seed_and_are_stable() {
    assert_eq!(document(7), document(7));
    let distinct: std::collections::BTreeSet<String> = (0..20).map(document).collect();
    assert_eq!(distinct.len(), 20);
}
