//! The maintainer's loop, for real: copy the workspace's specs into a fresh crate whose
//! `build.rs` runs the generator, add an operation to the YAML, `cargo build`, and call the new
//! method from code against a loopback server. Then break the spec and check that the build
//! fails with located diagnostics, not a panic.
//!
//! The crate builds in `target/maintainer-loop`, so later runs are incremental.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

const MAIN_RS: &str = r##"
include!(concat!(env!("OUT_DIR"), "/email.rs"));

use std::io::{Read, Write};

fn main() {
    // A one-shot loopback server that checks the new operation's request.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = std::thread::spawn(move || {
        let (mut socket, _) = listener.accept().unwrap();
        let mut buf = [0u8; 4096];
        let n = socket.read(&mut buf).unwrap();
        let head = String::from_utf8_lossy(&buf[..n]).to_string();
        let body = r#"{"status":"pong","region":"loopback"}"#;
        write!(socket, "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}", body.len(), body).unwrap();
        head
    });
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let client = email::EmailClient::builder().base_url(url).api_key("k-123").build().unwrap();
    let health = runtime.block_on(client.get_health()).unwrap();
    let head = server.join().unwrap();
    assert!(head.starts_with("GET /v1/health "), "{head}");
    assert!(head.to_ascii_lowercase().contains("authorization: bearer k-123"), "{head}");
    println!("new method says: status={} region={}", health.status, health.region.unwrap_or_default());
}
"##;

const NEW_OPERATION: &str = "operations:
  get_health:
    method: GET
    path: /v1/health
    doc: Reports whether the service is up.
    response: Health
    source: assumed
";

const NEW_TYPE: &str = "types:
  Health:
    doc: Service health.
    source: assumed
    fields:
      status: { type: string, required: true }
      region: { type: string }
";

fn write_crate(dir: &Path) {
    let ws = workspace();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("spec")).unwrap();
    let cargo_toml = format!(
        r#"[package]
name = "maintainer-loop"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
comms-runtime = {{ path = "{runtime}" }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
futures-core = "0.3"
tokio = {{ version = "1", features = ["rt", "time"] }}

[build-dependencies]
comms-codegen = {{ path = "{codegen}" }}

[workspace]
"#,
        runtime = ws.join("runtime").display(),
        codegen = ws.join("codegen").display(),
    );
    std::fs::write(dir.join("Cargo.toml"), cargo_toml).unwrap();
    std::fs::write(
        dir.join("build.rs"),
        "fn main() {\n    comms_codegen::Generator::new(\"spec\").out_dir(std::env::var(\"OUT_DIR\").unwrap()).run_build_script();\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN_RS).unwrap();
    // The workspace's lock file keeps the same dependency versions (and works offline).
    std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    // Only the email spec: the new operation goes there.
    let spec = std::fs::read_to_string(ws.join("spec/email.yaml")).unwrap();
    assert!(spec.contains("\noperations:\n") && spec.contains("\ntypes:\n"));
    let edited = spec
        .replacen("\noperations:\n", &format!("\n{NEW_OPERATION}"), 1)
        .replacen("\ntypes:\n", &format!("\n{NEW_TYPE}"), 1);
    std::fs::write(dir.join("spec/email.yaml"), edited).unwrap();
}

fn cargo(dir: &Path, args: &[&str]) -> std::process::Output {
    let target = workspace().join("target/maintainer-loop");
    Command::new(env!("CARGO"))
        .args(args)
        .arg("--offline")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap()
}

#[test]
fn editing_a_spec_and_building_gives_a_new_working_method() {
    let dir = tempfile::tempdir().unwrap();
    write_crate(dir.path());

    let run = cargo(dir.path(), &["run", "--quiet"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "cargo run failed:\n{stderr}");
    assert!(
        stdout.contains("new method says: status=pong region=loopback"),
        "{stdout}"
    );

    // Now break the spec: the build fails with every problem located, and no panic.
    let path = dir.path().join("spec/email.yaml");
    let spec = std::fs::read_to_string(&path).unwrap();
    let broken = spec
        .replacen("    response: Health\n", "    response: Helth\n", 1)
        .replacen(
            "    method: GET\n    path: /v1/health\n",
            "    method: GET\n    path: /v1/health/{region}\n",
            1,
        );
    std::fs::write(&path, broken).unwrap();
    let build = cargo(dir.path(), &["build", "--quiet"]);
    let stderr = String::from_utf8_lossy(&build.stderr);
    assert!(!build.status.success(), "a broken spec must fail the build");
    assert!(stderr.contains("spec/email.yaml:"), "{stderr}");
    assert!(stderr.contains("error: unknown type `Helth`"), "{stderr}");
    assert!(stderr.contains("did you mean `Health`?"), "{stderr}");
    assert!(
        stderr.contains("path parameter `{region}` is not declared"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
