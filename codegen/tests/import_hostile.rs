//! Hostile documents (issue 30, item 8): each ends in bounded time and memory with a clear
//! error or a reported approximation, never a stack overflow, an out-of-memory or minutes of
//! parsing. Every case runs on the test's own 2 MiB thread, as a caller's would.
#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use tidings_codegen::import::{
    ImportError, ImportOptions, MAX_NESTING, import_openapi, read_document,
};

fn options() -> ImportOptions {
    ImportOptions::new("hostile", "hostile.json")
}

/// Runs `f`, which must end within `limit`.
fn within<T>(limit: Duration, what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    assert!(took < limit, "{what} took {took:?}, more than {limit:?}");
    out
}

#[cfg(unix)]
#[test]
fn an_endless_file_is_refused_once_the_limit_is_read() {
    let err = within(Duration::from_secs(5), "reading /dev/zero", || {
        read_document(std::path::Path::new("/dev/zero"), 1024 * 1024).unwrap_err()
    });
    assert_eq!(err, ImportError::TooLargeToRead { limit: 1024 * 1024 });
    assert!(err.to_string().contains("reading stopped"), "{err}");
}

#[test]
fn a_file_one_byte_over_the_limit_is_refused_and_one_at_it_is_read() {
    let dir = std::env::temp_dir().join(format!("tidings-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("doc.json");
    std::fs::write(&path, vec![b' '; 1001]).unwrap();
    assert_eq!(
        read_document(&path, 1000).unwrap_err(),
        ImportError::TooLargeToRead { limit: 1000 }
    );
    assert_eq!(read_document(&path, 1001).unwrap().len(), 1001);
    std::fs::write(&path, [0xff, 0xfe]).unwrap();
    assert!(matches!(
        read_document(&path, 1000),
        Err(ImportError::Read(e)) if e.contains("UTF-8")
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A document whose only operation answers `A0`, where `A<i>` is a `$ref` to `A<i+1>` (or, with
/// `fields`, an object whose field `next` is one), `links` long.
fn chain(links: usize, fields: bool) -> String {
    let mut schemas = String::new();
    for i in 0..links {
        if i > 0 {
            schemas.push(',');
        }
        let next = format!("{{\"$ref\": \"#/components/schemas/A{}\"}}", i + 1);
        if fields {
            write!(
                schemas,
                "\"A{i}\": {{\"type\": \"object\", \"properties\": {{\"n\": {{\"type\": \"integer\"}}, \"next\": {next}}}}}"
            )
            .unwrap();
        } else {
            write!(schemas, "\"A{i}\": {next}").unwrap();
        }
    }
    write!(
        schemas,
        ",\"A{links}\": {{\"type\": \"object\", \"properties\": {{\"end\": {{\"type\": \"string\"}}}}}}"
    )
    .unwrap();
    format!(
        r##"{{"openapi": "3.0.3", "info": {{"title": "Chain", "version": "1"}},
        "paths": {{"/a": {{"get": {{"operationId": "getA", "responses": {{"200": {{"description": "ok",
        "content": {{"application/json": {{"schema": {{"$ref": "#/components/schemas/A0"}}}}}}}}}}}}}}}},
        "components": {{"schemas": {{{schemas}}}}}}}"##
    )
}

#[test]
fn a_ten_thousand_link_ref_chain_ends_in_json_with_the_pointer_reported() {
    let doc = chain(10_000, false);
    let imported = within(Duration::from_secs(30), "a 10,000-link chain", || {
        import_openapi(&doc, &options(), None).unwrap()
    });
    assert!(
        imported
            .report
            .approximated
            .iter()
            .any(|f| f.reason.contains("more than 100 deep")),
        "{}",
        imported.report
    );
    assert_eq!(imported.report.operations_imported, 1);
}

#[test]
fn ten_thousand_components_nested_by_fields_end_in_json_with_the_pointer_reported() {
    let doc = chain(10_000, true);
    let imported = within(Duration::from_secs(60), "10,000 nested components", || {
        import_openapi(&doc, &options(), None).unwrap()
    });
    let finding = imported
        .report
        .approximated
        .iter()
        .find(|f| f.reason.contains("more than 100 deep"))
        .unwrap();
    assert!(
        finding.pointer.starts_with("#/components/schemas/A"),
        "{finding:?}"
    );
    // Everything up to the limit is typed.
    assert!(imported.yaml.contains("  A99:"), "{}", imported.yaml);
}

#[test]
fn deeply_nested_flow_yaml_is_refused_before_parsing() {
    let depth = 100_000;
    let doc = format!(
        "openapi: 3.0.3\nx: {}{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let err = within(Duration::from_secs(2), "100,000 nested brackets", || {
        import_openapi(&doc, &options(), None).unwrap_err()
    });
    assert_eq!(
        err,
        ImportError::TooDeep {
            line: 2,
            limit: MAX_NESTING
        }
    );
    // 200 KB of flow YAML nested 100 deep, many times over: parsed, quickly.
    let chunk = format!("{}1{}", "[".repeat(100), "]".repeat(100));
    let mut doc = String::from("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx:\n");
    while doc.len() < 200_000 {
        writeln!(doc, "  - {chunk}").unwrap();
    }
    within(
        Duration::from_secs(20),
        "200 KB of nested flow YAML",
        || import_openapi(&doc, &options(), None).unwrap(),
    );
    // Brackets in quoted strings and comments do not count.
    let quoted = format!(
        "openapi: 3.0.3\ninfo: {{title: \"{0}\", version: '{0}'}} # {0}\npaths: {{}}\n",
        "[".repeat(1000)
    );
    import_openapi(&quoted, &options(), None).unwrap();
}

#[test]
fn deeply_nested_block_yaml_and_json_are_clear_parse_errors() {
    let mut block = String::from("openapi: 3.0.3\nx:\n");
    for i in 0..5_000 {
        writeln!(block, "{}- ", " ".repeat(i + 2)).unwrap();
    }
    let err = within(
        Duration::from_secs(10),
        "5,000 nested block sequences",
        || import_openapi(&block, &options(), None).unwrap_err(),
    );
    assert!(matches!(err, ImportError::Parse(_)), "{err}");
    let json = format!("{{\"openapi\": {}1{}}}", "[".repeat(120), "]".repeat(120));
    import_openapi(&json, &options(), None).unwrap_err();
}

#[test]
fn a_document_over_the_limit_in_memory_is_refused_by_its_length() {
    let mut small = options();
    small.max_document_bytes = 10;
    assert_eq!(
        import_openapi("{\"openapi\": \"3.0.3\"}", &small, None).unwrap_err(),
        ImportError::TooLarge {
            size: 20,
            limit: 10
        }
    );
}
