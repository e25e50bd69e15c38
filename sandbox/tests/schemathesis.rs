//! The sandboxes against their exported OpenAPI documents, checked by schemathesis (Python): it
//! generates requests for every operation of `spec/openapi/<service>.openapi.json` (valid ones
//! and deliberately invalid ones), sends them to the email and messaging sandboxes started here
//! in-process, and runs its default checks on every answer (no 5xx, documented status codes,
//! content types, headers and body schemas, invalid input rejected, valid input accepted).
//!
//! The run is bounded (a fixed number of examples per operation, a fixed seed, a hard deadline),
//! the rate limit is off so schemathesis is not throttled, and webhook delivery is off so the
//! sandboxes never post to the URLs schemathesis makes up.
//!
//! `scripts/test` installs schemathesis; when it is missing the test fails and says so.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tidings_sandbox::{EmailSandbox, EmailSandboxConfig, MessagingSandbox, MessagingSandboxConfig};

/// Test cases per operation and phase: enough to reach odd inputs, few enough for CI.
const MAX_EXAMPLES: &str = "25";
/// Fixed, so a failure is reproducible with the command the test prints.
const SEED: &str = "20240817";
/// Longest a whole run may take before it is killed and the test fails.
const DEADLINE: Duration = Duration::from_secs(240);

const INSTALL: &str = "run scripts/test, which installs it";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The schemathesis command, after checking that it runs.
fn schemathesis() -> Command {
    let probe = Command::new("schemathesis")
        .arg("--version")
        .output()
        .unwrap_or_else(|e| panic!("schemathesis cannot be run ({e}): {INSTALL}"));
    assert!(
        probe.status.success(),
        "schemathesis does not run ({}): {INSTALL}",
        text(&probe).trim()
    );
    let mut command = Command::new("schemathesis");
    command
        .env("NO_COLOR", "1")
        .env("COLUMNS", "160")
        .env("PYTHONIOENCODING", "utf-8");
    command
}

/// Runs `schemathesis run` on one exported document against `base_url`, killing it at the
/// deadline; returns its exit status and output.
async fn run(document: &str, base_url: &str, api_key: &str) -> (bool, String) {
    let document = root().join(document);
    assert!(document.exists(), "{} is missing", document.display());
    let mut command = schemathesis();
    // A scratch working directory: nothing (examples database, reports) lands in the tree.
    let scratch = tempfile::tempdir().unwrap();
    command
        .current_dir(scratch.path())
        .args(["--no-color", "run"])
        .arg(&document)
        .args(["--url", base_url])
        .arg("-H")
        .arg(format!("Authorization: Bearer {api_key}"))
        .args(["--max-examples", MAX_EXAMPLES, "--seed", SEED])
        .args(["--generation-database", "none", "--workers", "1"])
        .args(["--request-timeout", "10", "--continue-on-failure"])
        .stdin(Stdio::null());
    let log = scratch.path().join("schemathesis.log");
    let file = std::fs::File::create(&log).unwrap();
    command.stdout(file.try_clone().unwrap()).stderr(file);
    let shown = shown_command(&command, api_key);
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run schemathesis ({e}): {INSTALL}"));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "schemathesis did not finish within {} s: {shown}\n{}",
                DEADLINE.as_secs(),
                read(&log)
            );
        }
        // The sandbox runs on this runtime's other worker: keep it serving while waiting.
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let report = format!(
        "$ {shown}\n(finished in {:.1} s, {status})\n{}",
        started.elapsed().as_secs_f64(),
        read(&log)
    );
    (status.success(), report)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The command line, for the failure message, with the key replaced.
fn shown_command(command: &Command, api_key: &str) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|a| a.to_string_lossy().replace(api_key, "<key>"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The run passed and really tested: every operation of the document was tested, and every
/// generated case passed (schemathesis's summary: `Tested: N`, `G generated, G passed`).
fn assert_passed(service: &str, operations: usize, (success, report): (bool, String)) {
    assert!(
        success,
        "schemathesis reports failures against the {service} sandbox:\n{report}"
    );
    assert!(
        report.contains(&format!("Tested: {operations}\n")),
        "schemathesis did not test the {operations} operations of the {service} document:\n{report}"
    );
    let cases = report.lines().find_map(|line| {
        let (generated, rest) = line.trim().split_once(" generated, ")?;
        let passed = rest
            .strip_suffix(" passed")
            .or_else(|| rest.split_once(" passed,").map(|(passed, _)| passed))?;
        Some((generated.parse::<u64>().ok()?, passed.parse::<u64>().ok()?))
    });
    match cases {
        Some((generated, passed)) if generated > 0 && generated == passed => {
            println!(
                "schemathesis, {service}: {operations} operations, {generated} cases, all passed"
            );
        }
        _ => panic!(
            "schemathesis did not report every generated case passing against the {service} \
             sandbox:\n{report}"
        ),
    }
}

/// Operations (path × method) in an exported document.
fn operations(document: &str) -> usize {
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(document)).unwrap()).unwrap();
    doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| {
            item.as_object()
                .unwrap()
                .keys()
                .filter(|k| {
                    ["get", "put", "post", "patch", "delete", "head", "options"]
                        .contains(&k.as_str())
                })
                .count()
        })
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn email_sandbox_passes_schemathesis() {
    const DOCUMENT: &str = "spec/openapi/email.openapi.json";
    let sandbox = EmailSandbox::start(
        EmailSandboxConfig::default()
            .rate_limit(None)
            .deliver_webhooks(false)
            .smtp(None),
    )
    .await
    .unwrap();
    let result = run(DOCUMENT, sandbox.base_url(), sandbox.api_key()).await;
    sandbox.shutdown().await;
    assert_passed("email", operations(DOCUMENT), result);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messaging_sandbox_passes_schemathesis() {
    const DOCUMENT: &str = "spec/openapi/messaging.openapi.json";
    let sandbox = MessagingSandbox::start(
        MessagingSandboxConfig::default()
            .rate_limit(None)
            .deliver_webhooks(false),
    )
    .await
    .unwrap();
    let result = run(DOCUMENT, sandbox.base_url(), sandbox.api_key()).await;
    sandbox.shutdown().await;
    assert_passed("messaging", operations(DOCUMENT), result);
}
