//! The maintainer's loop, for real: copy the workspace's specs into a fresh crate whose
//! `build.rs` runs the generator, add an operation to the YAML, `cargo build`, and call the new
//! method from code against a loopback server. Then break the spec and check that the build
//! fails with located diagnostics, not a panic.
//!
//! The second test walks the whole loop in a copy of the workspace: both service specs gain
//! collections, actions, enums and a union, then lose, rename and change some; `tidings` and
//! `tidings-sandbox` are built, the sandbox binary serves the new operations with no sandbox code
//! (the generated defaults), and a small program calls them through the generated clients.
//! Round 2 also adds an optional field to every object type of every spec: hand-written code
//! (sandbox handlers, `tidings`' helpers) builds generated types with constructors, so it still
//! compiles.
//!
//! Both build in `target/maintainer-loop` (the copy in `target/maintainer-loop/workspace`,
//! rewritten only where files differ), so later runs are incremental: about 100 s for the
//! second test on a loaded 2-core machine, several minutes the first time (its dependencies).
//! Under CI the directory goes when both end ([`tidings_tests::ScratchTarget`]).

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
tidings-runtime = {{ path = "{runtime}" }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
futures-core = "0.3"
tokio = {{ version = "1", features = ["rt", "time"] }}

[build-dependencies]
tidings-codegen = {{ path = "{codegen}" }}

[workspace]
"#,
        runtime = ws.join("runtime").display(),
        codegen = ws.join("codegen").display(),
    );
    std::fs::write(dir.join("Cargo.toml"), cargo_toml).unwrap();
    std::fs::write(
        dir.join("build.rs"),
        "fn main() {\n    tidings_codegen::Generator::new(\"spec\").out_dir(std::env::var(\"OUT_DIR\").unwrap()).run_build_script();\n}\n",
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
    let _scratch = tidings_tests::ScratchTarget::enter(workspace().join("target/maintainer-loop"));
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

// ---- The whole loop: a copy of the workspace, its specs edited, the sandbox serving them --------

/// Round 1, email: a domain collection (create, list, get, update, delete), an action
/// (`verify`), a per-item GET that round 2 removes, a new enum and a new union.
const EMAIL_OPS_1: &str = "operations:
  create_domain:
    method: POST
    path: /v1/domains
    doc: Adds a sending domain.
    body: CreateDomainRequest
    response: Domain
    source: assumed

  list_domains:
    method: GET
    path: /v1/domains
    doc: Lists sending domains.
    query:
      limit: { type: integer, min: 1, max: 100 }
      after: { type: string }
      before: { type: string }
    response: page<Domain>
    source: assumed

  get_domain:
    method: GET
    path: /v1/domains/{id}
    doc: Fetches one domain.
    path_params:
      id: { doc: The domain's id. }
    response: Domain
    source: assumed

  update_domain:
    method: PATCH
    path: /v1/domains/{id}
    doc: Changes a domain.
    path_params:
      id: { doc: The domain's id. }
    body: UpdateDomainRequest
    response: Domain
    source: assumed

  delete_domain:
    method: DELETE
    path: /v1/domains/{id}
    doc: Removes a domain.
    path_params:
      id: { doc: The domain's id. }
    response: DeletedObject
    source: assumed

  verify_domain:
    method: POST
    path: /v1/domains/{id}/verify
    doc: Checks a domain's DNS records.
    path_params:
      id: { doc: The domain's id. }
    response: DomainCheck
    source: assumed

  get_domain_stats:
    method: GET
    path: /v1/domains/{id}/stats
    doc: Sending figures of a domain.
    path_params:
      id: { doc: The domain's id. }
    response: DomainStats
    source: assumed

";

const EMAIL_TYPES_1: &str = "types:
  Domain:
    doc: A sending domain.
    source: assumed
    fields:
      id: { type: string, required: true }
      name: { type: string, required: true, min_len: 3, max_len: 253 }
      status: { type: DomainStatus, required: true }
      region: { type: string }
      created_at: { type: datetime, format: rfc3339, required: true }

  DomainStatus:
    doc: Where a domain's verification stands.
    source: assumed
    values: [pending, verified, failed]

  CreateDomainRequest:
    doc: A new domain.
    source: assumed
    fields:
      name: { type: string, required: true, min_len: 3, max_len: 253 }
      region: { type: string }

  UpdateDomainRequest:
    doc: Changes to a domain.
    source: assumed
    fields:
      region: { type: string }

  DomainCheck:
    doc: The outcome of a verification.
    source: assumed
    tag: result
    variants:
      passed: { type: CheckPassed }
      failed: { type: CheckFailed }

  CheckPassed:
    doc: Every record matched.
    source: assumed
    fields:
      checked_at: { type: datetime, format: rfc3339, required: true }
      records: { type: list<string>, min_items: 1, required: true }

  CheckFailed:
    doc: A record did not match.
    source: assumed
    fields:
      reason: { type: string, required: true }

  DomainStats:
    doc: Sending figures.
    source: assumed
    fields:
      sent: { type: integer, min: 0, required: true }
      bounce_rate: { type: number, min: 0, max: 1, required: true }

";

/// Round 1, messaging: a number collection (create, list, get, replace, delete), an action
/// (`release`) and a new enum.
const MESSAGING_OPS_1: &str = "operations:
  create_number:
    method: POST
    path: /v1/numbers
    doc: Rents a number.
    body: CreateNumberRequest
    response: Number
    source: assumed

  list_numbers:
    method: GET
    path: /v1/numbers
    doc: Lists rented numbers.
    query:
      limit: { type: integer, min: 1, max: 100 }
      after: { type: string }
      before: { type: string }
    response: page<Number>
    source: assumed

  get_number:
    method: GET
    path: /v1/numbers/{id}
    doc: Fetches one number.
    path_params:
      id: { doc: The number's id. }
    response: Number
    source: assumed

  replace_number:
    method: PUT
    path: /v1/numbers/{id}
    doc: Replaces a number's settings.
    path_params:
      id: { doc: The number's id. }
    body: CreateNumberRequest
    response: Number
    source: assumed

  delete_number:
    method: DELETE
    path: /v1/numbers/{id}
    doc: Gives a number back.
    path_params:
      id: { doc: The number's id. }
    source: assumed

  release_number:
    method: POST
    path: /v1/numbers/{id}/release
    doc: Releases a number at the end of its term.
    path_params:
      id: { doc: The number's id. }
    response: Number
    source: assumed

";

const MESSAGING_TYPES_1: &str = "types:
  Number:
    doc: A rented number.
    source: assumed
    fields:
      id: { type: string, required: true }
      phone_number: { type: string, format: e164, required: true }
      kind: { type: NumberKind, required: true }
      label: { type: string }

  NumberKind:
    doc: What kind of line a number is.
    source: assumed
    values: [mobile, local, toll_free]

  CreateNumberRequest:
    doc: A number to rent.
    source: assumed
    fields:
      phone_number: { type: string, format: e164, required: true }
      kind: { type: NumberKind }
      label: { type: string, max_len: 64 }

";

/// The client program of round 1: every new operation through the generated clients.
const LOOP_MAIN_1: &str = r#"
use tidings::{email as e, messaging as m};

#[tokio::main]
async fn main() {
    let email = e::EmailClient::from_env().expect("email client");
    let created = email
        .create_domain(&e::CreateDomainRequest::new("mail.example.com").region("eu"))
        .await
        .expect("create_domain");
    assert_eq!(created.name, "mail.example.com");
    assert_eq!(created.status, e::DomainStatus::Pending);
    assert_eq!(email.get_domain(&created.id).await.expect("get_domain"), created);
    let page = email.list_domains(&e::ListDomainsQuery::default()).await.expect("list_domains");
    assert!(page.data.contains(&created), "{page:?}");
    let updated = email
        .update_domain(&created.id, &e::UpdateDomainRequest::default().region("us"))
        .await
        .expect("update_domain");
    assert_eq!((updated.region.as_deref(), updated.name.as_str()), (Some("us"), "mail.example.com"));
    match email.verify_domain(&created.id).await.expect("verify_domain") {
        e::DomainCheck::Passed(passed) => assert!(!passed.records.is_empty()),
        other => panic!("{other:?}"),
    }
    let stats = email.get_domain_stats(&created.id).await.expect("get_domain_stats");
    assert!((0.0..=1.0).contains(&stats.bounce_rate) && stats.sent >= 0);
    let second = email
        .create_domain(&e::CreateDomainRequest::new("news.example.com"))
        .await
        .expect("create_domain");
    assert!(email.delete_domain(&created.id).await.expect("delete_domain").deleted);
    let gone = email.get_domain(&created.id).await.expect_err("deleted");
    assert_eq!(gone.status(), Some(404), "{gone}");
    let page = email.list_domains(&e::ListDomainsQuery::default()).await.expect("list_domains");
    assert_eq!(page.data, vec![second.clone()]);
    // Response types have constructors too.
    let built = e::Domain::new("d_1", "x.example.com", e::DomainStatus::Verified, "2026-01-01T00:00:00Z");
    assert_eq!(built.region, None);

    let messaging = m::MessagingClient::from_env().expect("messaging client");
    let number = messaging
        .create_number(&m::CreateNumberRequest::new("+15555550123").kind(m::NumberKind::Local))
        .await
        .expect("create_number");
    assert_eq!((number.phone_number.as_str(), &number.kind), ("+15555550123", &m::NumberKind::Local));
    assert_eq!(messaging.get_number(&number.id).await.expect("get_number"), number);
    let page = messaging.list_numbers(&m::ListNumbersQuery::default()).await.expect("list_numbers");
    assert!(page.data.contains(&number), "{page:?}");
    let replaced = messaging
        .replace_number(&number.id, &m::CreateNumberRequest::new("+15555550124").label("desk"))
        .await
        .expect("replace_number");
    assert_eq!((replaced.id.as_str(), replaced.label.as_deref()), (number.id.as_str(), Some("desk")));
    let released = messaging.release_number(&number.id).await.expect("release_number");
    assert_eq!(released.phone_number, "+15555550124");
    messaging.delete_number(&number.id).await.expect("delete_number");
    let gone = messaging.get_number(&number.id).await.expect_err("deleted");
    assert_eq!(gone.status(), Some(404), "{gone}");
    println!("round 1 ok: domain {}", second.id);
}
"#;

/// The client program of round 2, after renaming, removing and changing operations and types.
const LOOP_MAIN_2: &str = r#"
use tidings::{email as e, messaging as m};

#[tokio::main]
async fn main() {
    let email = e::EmailClient::from_env().expect("email client");
    let created = email
        .create_domain(&e::CreateDomainRequest::new("mail.example.com").tracking(true))
        .await
        .expect("create_domain");
    assert_eq!(created.tracking, Some(true));
    assert!(created.dkim_selector.is_none());
    assert!(matches!(email.check_domain(&created.id).await.expect("check_domain"), e::DomainCheck::Passed(_)));
    // Every object type gained an optional field; the sandbox, which builds them by hand, still
    // answers, and constructors leave the new field out.
    assert_eq!(created.loop_extra, None);
    assert_eq!(e::Tag::new("k", "v").loop_extra, None);
    let messaging = m::MessagingClient::from_env().expect("messaging client");
    let number = messaging
        .create_number(&m::CreateNumberRequest::new("+15555550125").kind(m::NumberKind::Landline))
        .await
        .expect("create_number");
    assert_eq!(number.kind, m::NumberKind::Landline);
    let sent = messaging
        .send_message(&m::Message::sms("+15555550126", "+15555550127", "hi"))
        .await
        .expect("send_message");
    assert_eq!(sent.loop_extra, None);
    println!("round 2 ok: domain {} number {}", created.id, number.id);
}
"#;

/// Directory names the copy leaves out.
const NOT_COPIED: &[&str] = &["target", ".git", "node_modules", "fuzz"];

/// What the copy holds that the workspace does not, kept between runs.
const COPY_ONLY: &[&str] = &["target", "loop-check"];

/// Copies `from` into `to`, writing only files whose content differs, so that cargo's
/// fingerprints (mtimes) of unchanged crates survive and later runs are incremental; removes
/// what `from` no longer has (a file moved since the last run).
fn sync_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(to).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if COPY_ONLY.iter().any(|n| name == *n) || from.join(&name).symlink_metadata().is_ok() {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            std::fs::remove_dir_all(entry.path()).unwrap();
        } else {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if NOT_COPIED.iter().any(|n| name == *n) {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            sync_tree(&src, &dst);
        } else if kind.is_file() {
            write_if_changed(&dst, &std::fs::read(&src).unwrap());
        } else if kind.is_symlink()
            && std::fs::read_link(&dst).ok() != std::fs::read_link(&src).ok()
        {
            // `sandbox/spec` and each service crate's `spec` point at the workspace's `spec/`.
            let _ = std::fs::remove_file(&dst);
            std::os::unix::fs::symlink(std::fs::read_link(&src).unwrap(), &dst).unwrap();
        }
    }
}

fn write_if_changed(path: &Path, contents: &[u8]) {
    if std::fs::read(path).ok().as_deref() != Some(contents) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
}

/// `spec` with `ops` and `types` (each starting with its section line) at the top of those
/// sections.
fn add_to_spec(spec: &str, ops: &str, types: &str) -> String {
    assert!(spec.contains("\noperations:\n") && spec.contains("\ntypes:\n"));
    spec.replacen("\noperations:\n", &format!("\n{ops}"), 1)
        .replacen("\ntypes:\n", &format!("\n{types}"), 1)
}

/// Removes the YAML block that starts with the line `header` (up to the next blank line).
fn remove_block(spec: &str, header: &str) -> String {
    let start = spec.find(header).unwrap_or_else(|| panic!("no `{header}`"));
    let end = spec[start..]
        .find("\n\n")
        .map_or(spec.len(), |i| start + i + 2);
    format!("{}{}", &spec[..start], &spec[end..])
}

/// `spec` with an optional `loop_extra` string as the first field of every object type (each
/// block-style `fields:` of a type); panics when the spec has none, so the edit cannot vanish.
fn with_field_on_every_object(spec: &str) -> String {
    let fields = "\n    fields:\n";
    assert!(
        spec.contains(fields),
        "no object type with block-style fields"
    );
    spec.replace(
        fields,
        &format!("{fields}      loop_extra: {{ type: string, doc: Added by the loop test. }}\n"),
    )
}

/// Runs cargo in the copy, in the loop's own target dir (kept between runs).
fn cargo_in_copy(dir: &Path, args: &[&str]) -> std::time::Duration {
    let started = std::time::Instant::now();
    let out = cargo(dir, args);
    assert!(
        out.status.success(),
        "cargo {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    started.elapsed()
}

/// A running `tidings-sandbox` binary, killed when dropped (also when the test fails).
struct SandboxProcess {
    child: std::process::Child,
    env: Vec<(String, String)>,
}

impl SandboxProcess {
    fn start(binary: &Path) -> SandboxProcess {
        use std::io::BufRead;
        let mut child = Command::new(binary)
            .args(["--quiet", "--no-ui", "--no-smtp"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut process = SandboxProcess {
            child,
            env: Vec::new(),
        };
        // `--quiet` prints the `export NAME=value` lines of `Sandbox::env`, then serves.
        let wanted = [
            tidings::email::SERVICE.base_url_env,
            credential_env(&tidings::email::SERVICE),
            tidings::messaging::SERVICE.base_url_env,
            credential_env(&tidings::messaging::SERVICE),
        ];
        let mut lines = std::io::BufReader::new(stdout).lines();
        while !wanted
            .iter()
            .all(|w| process.env.iter().any(|(n, _)| n == w))
        {
            let line = lines
                .next()
                .expect("the sandbox printed its exports")
                .unwrap();
            if let Some((name, value)) =
                line.strip_prefix("export ").and_then(|l| l.split_once('='))
            {
                process.env.push((name.to_owned(), value.to_owned()));
            }
        }
        // Keep draining stdout so the sandbox never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        process
    }

    fn var(&self, name: &str) -> &str {
        self.env
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("the sandbox printed no {name}"))
    }

    /// One raw HTTP/1.1 request (no client-side checks): the status and body.
    fn raw(
        &self,
        base_env: &str,
        key_env: &str,
        method: &str,
        path: &str,
        body: &str,
    ) -> (u16, String) {
        use std::io::{Read, Write};
        let base = self.var(base_env);
        let addr = base.trim_start_matches("http://").trim_end_matches('/');
        let mut socket = std::net::TcpStream::connect(addr).unwrap();
        socket
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        write!(
            socket,
            "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nauthorization: Bearer {key}\r\ncontent-type: application/json\r\ncontent-length: {len}\r\nconnection: close\r\n\r\n{body}",
            key = self.var(key_env),
            len = body.len(),
        )
        .unwrap();
        let mut answer = String::new();
        socket.read_to_string(&mut answer).unwrap();
        let status = answer
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("not an HTTP answer: {answer}"));
        let body = answer
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_owned();
        (status, body)
    }
}

impl Drop for SandboxProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn credential_env(service: &tidings_runtime::spec::ServiceSpec) -> &'static str {
    service
        .credentials
        .iter()
        .find(|c| c.name == "api_key")
        .map(|c| c.env)
        .unwrap()
}

fn run_program(binary: &Path, sandbox: &SandboxProcess) -> String {
    let out = Command::new(binary)
        .envs(sandbox.env.iter().map(|(n, v)| (n, v)))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "the client program failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn a_copy_of_the_workspace_serves_new_changed_and_removed_operations_with_no_sandbox_code() {
    let ws = workspace();
    let _scratch = tidings_tests::ScratchTarget::enter(ws.join("target/maintainer-loop"));
    let copy = ws.join("target/maintainer-loop/workspace");
    let started = std::time::Instant::now();
    sync_tree(&ws, &copy);
    // The client program: a crate of its own in the copy's workspace.
    let manifest = std::fs::read_to_string(ws.join("Cargo.toml")).unwrap();
    // The client program is a default member too, so a plain `cargo build` builds it, as it
    // builds everything else a maintainer has: with `tidings-tests` among the default members,
    // `tidings` and the sandbox are generated from the specs (their `codegen` feature).
    let mut manifest_copy = manifest.clone();
    for list in ["members", "default-members"] {
        let start = format!("\n{list} = [");
        assert!(manifest.contains(&start), "the workspace has no `{list}`");
        manifest_copy = manifest_copy.replacen(&start, &format!("{start}\"loop-check\", "), 1);
    }
    write_if_changed(&copy.join("Cargo.toml"), manifest_copy.as_bytes());
    write_if_changed(
        &copy.join("loop-check/Cargo.toml"),
        b"[package]\nname = \"loop-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\ntidings.workspace = true\ntokio.workspace = true\n",
    );
    let email_spec = std::fs::read_to_string(ws.join("spec/email.yaml")).unwrap();
    let messaging_spec = std::fs::read_to_string(ws.join("spec/messaging.yaml")).unwrap();
    let target = ws.join("target/maintainer-loop/debug");
    let build = ["build", "--quiet"];
    let (email_base, messaging_base) = (
        tidings::email::SERVICE.base_url_env,
        tidings::messaging::SERVICE.base_url_env,
    );
    let (email_key, messaging_key) = (
        credential_env(&tidings::email::SERVICE),
        credential_env(&tidings::messaging::SERVICE),
    );

    // Round 1: add collections, actions, enums and a union; no sandbox code is written.
    let email_1 = add_to_spec(&email_spec, EMAIL_OPS_1, EMAIL_TYPES_1);
    let messaging_1 = add_to_spec(&messaging_spec, MESSAGING_OPS_1, MESSAGING_TYPES_1);
    write_if_changed(&copy.join("spec/email.yaml"), email_1.as_bytes());
    write_if_changed(&copy.join("spec/messaging.yaml"), messaging_1.as_bytes());
    write_if_changed(&copy.join("loop-check/src/main.rs"), LOOP_MAIN_1.as_bytes());
    let build_1 = cargo_in_copy(&copy, &build);
    let sandbox = SandboxProcess::start(&target.join("tidings-sandbox"));
    let said = run_program(&target.join("loop-check"), &sandbox);
    assert!(said.contains("round 1 ok: domain "), "{said}");
    // A body the spec refuses (`name` shorter than its `min_len`), sent past the client's checks.
    let (status, body) = sandbox.raw(
        email_base,
        email_key,
        "POST",
        "/v1/domains",
        r#"{"name":"ab"}"#,
    );
    assert!(matches!(status, 400 | 422), "{status} {body}");
    assert!(body.contains("name"), "{body}");
    let (status, body) = sandbox.raw(
        messaging_base,
        messaging_key,
        "POST",
        "/v1/numbers",
        r#"{"phone_number":"not a number"}"#,
    );
    assert!(matches!(status, 400 | 422), "{status} {body}");
    drop(sandbox);

    // Round 2: rename an operation, remove an operation and a type, change a type and an enum.
    let email_2 = remove_block(&email_1, "  get_domain_stats:\n");
    let email_2 = remove_block(&email_2, "  DomainStats:\n")
        .replacen("  verify_domain:\n", "  check_domain:\n", 1)
        .replacen(
            "      region: { type: string }\n      created_at:",
            "      region: { type: string }\n      tracking: { type: boolean }\n      dkim_selector: { type: string }\n      created_at:",
            1,
        )
        .replacen(
            "      name: { type: string, required: true, min_len: 3, max_len: 253 }\n      region: { type: string }\n\n  UpdateDomainRequest",
            "      name: { type: string, required: true, min_len: 3, max_len: 253 }\n      region: { type: string }\n      tracking: { type: boolean }\n\n  UpdateDomainRequest",
            1,
        );
    let messaging_2 = remove_block(&messaging_1, "  release_number:\n").replacen(
        "values: [mobile, local, toll_free]",
        "values: [mobile, local, toll_free, landline]",
        1,
    );
    // Every object type of every spec gains an optional field (issue 15's loop): the sandbox's
    // handlers and `tidings`' own helpers build these types by hand, through their constructors.
    let realtime_2 = with_field_on_every_object(
        &std::fs::read_to_string(ws.join("spec/realtime.yaml")).unwrap(),
    );
    let (email_2, messaging_2) = (
        with_field_on_every_object(&email_2),
        with_field_on_every_object(&messaging_2),
    );
    write_if_changed(&copy.join("spec/email.yaml"), email_2.as_bytes());
    write_if_changed(&copy.join("spec/messaging.yaml"), messaging_2.as_bytes());
    write_if_changed(&copy.join("spec/realtime.yaml"), realtime_2.as_bytes());
    write_if_changed(&copy.join("loop-check/src/main.rs"), LOOP_MAIN_2.as_bytes());
    let build_2 = cargo_in_copy(&copy, &build);
    let sandbox = SandboxProcess::start(&target.join("tidings-sandbox"));
    let said = run_program(&target.join("loop-check"), &sandbox);
    assert!(said.contains("round 2 ok: domain "), "{said}");
    let id = said.split_whitespace().nth(4).unwrap();
    // The removed operations are gone from the sandbox too.
    let (status, body) = sandbox.raw(
        email_base,
        email_key,
        "GET",
        &format!("/v1/domains/{id}/stats"),
        "",
    );
    assert_eq!(status, 404, "{body}");
    let (status, body) = sandbox.raw(
        messaging_base,
        messaging_key,
        "POST",
        "/v1/numbers/n/release",
        "{}",
    );
    assert_eq!(status, 404, "{body}");
    // The renamed one answers under its new name (same path), the sandbox unchanged.
    let (status, body) = sandbox.raw(
        email_base,
        email_key,
        "POST",
        &format!("/v1/domains/{id}/verify"),
        "{}",
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"result\":\"passed\""), "{body}");
    drop(sandbox);
    eprintln!(
        "maintainer loop: build after round 1 {:.1?}, after round 2 {:.1?}, whole test {:.1?}",
        build_1,
        build_2,
        started.elapsed()
    );
}
