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

use tidings_sandbox::ServiceConfig;
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

/// Runs `schemathesis run` on one exported document against `base_url` with a bearer key,
/// killing it at the deadline; returns its exit status and output.
async fn run(document: &str, base_url: &str, api_key: &str) -> (bool, String) {
    let auth = ["-H".to_owned(), format!("Authorization: Bearer {api_key}")];
    run_with(&root().join(document), base_url, &auth, api_key, &[]).await
}

/// [`run`] with the document at `document`, `auth` as schemathesis arguments (`secret` masked
/// in the command shown) and `extra` arguments.
async fn run_with(
    document: &Path,
    base_url: &str,
    auth: &[String],
    secret: &str,
    extra: &[&str],
) -> (bool, String) {
    assert!(document.exists(), "{} is missing", document.display());
    let mut command = schemathesis();
    // A scratch working directory: nothing (examples database, reports) lands in the tree.
    let scratch = tempfile::tempdir().unwrap();
    command
        .current_dir(scratch.path())
        .args(["--no-color", "run"])
        .arg(document)
        .args(["--url", base_url])
        .args(auth)
        .args(extra)
        .args(["--max-examples", MAX_EXAMPLES, "--seed", SEED])
        .args(["--generation-database", "none", "--workers", "1"])
        .args(["--request-timeout", "10", "--continue-on-failure"])
        .stdin(Stdio::null());
    let log = scratch.path().join("schemathesis.log");
    let file = std::fs::File::create(&log).unwrap();
    command.stdout(file.try_clone().unwrap()).stderr(file);
    let shown = shown_command(&command, secret);
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
    operations_in(&root().join(document))
}

/// [`operations`] of the document at `path`.
fn operations_in(path: &Path) -> usize {
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
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

/// A provider spec of `examples/providers/` served with `--spec`'s server (no code compiled for
/// it), against the OpenAPI document exported from the same spec: every answer, refusals
/// included, in the document's shapes (the provider's own error body: Postmark's numeric
/// `ErrorCode`, Twilio's `code`, `more_info` and `status`), documented statuses, no 5xx.
async fn served_provider_passes(
    file: &str,
    auth: impl Fn(&tidings_sandbox::served::ServedService) -> (Vec<String>, String),
    extra: &[&str],
) {
    use tidings_sandbox::served::{ServeConfig, ServedService, load};
    let path = root().join("examples/providers").join(file);
    let service = load(&path).unwrap().pop().unwrap();
    let document =
        tidings_codegen::export::to_json(&tidings_codegen::export::openapi::document(&service));
    let scratch = tempfile::tempdir().unwrap();
    let document_path = scratch.path().join("openapi.json");
    std::fs::write(&document_path, document).unwrap();
    let mut config = ServeConfig::default();
    config.rate_limit = Some(None);
    let served = ServedService::start(service, config).await.unwrap();
    let (auth, secret) = auth(&served);
    let result = run_with(&document_path, served.base_url(), &auth, &secret, extra).await;
    let name = served.name().to_owned();
    served.shutdown().await;
    assert_passed(
        &format!("served {name}"),
        operations_in(&document_path),
        result,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_postmark_passes_schemathesis() {
    served_provider_passes(
        "postmark.yaml",
        |s| {
            let token = s.credential("server_token").unwrap().to_owned();
            (
                vec!["-H".to_owned(), format!("X-Postmark-Server-Token: {token}")],
                token,
            )
        },
        &[],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_sendgrid_passes_schemathesis() {
    served_provider_passes(
        "sendgrid.yaml",
        |s| {
            let key = s.credential("api_key").unwrap().to_owned();
            (
                vec!["-H".to_owned(), format!("Authorization: Bearer {key}")],
                key,
            )
        },
        &[],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_twilio_passes_schemathesis() {
    served_provider_passes(
        "twilio.yaml",
        |s| {
            let (sid, token) = (
                s.credential("account_sid").unwrap(),
                s.credential("auth_token").unwrap(),
            );
            (
                vec!["--auth".to_owned(), format!("{sid}:{token}")],
                token.to_owned(),
            )
        },
        // Two of schemathesis's input checks misread a form body: a list sent as one value
        // (`PersistentAction=A`, how a one-item list is written in a form) is "not a list", and
        // it does not check the `uri` format the server does (`StatusCallback`). The answer
        // checks (shapes, statuses, no 5xx) all run.
        &[
            "--exclude-checks",
            "positive_data_acceptance,negative_data_rejection",
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_vonage_passes_schemathesis() {
    // Vonage's credentials are body fields: schemathesis makes them up, so this run checks the
    // refusals' shapes and statuses (the client tests in `served_cli.rs` cover the accepted path).
    served_provider_passes("vonage.yaml", |_| (Vec::new(), "-".to_owned()), &[]).await;
}

/// Brevo's contacts and send, imported unedited from Brevo's own document: lists answered
/// inside an object, integer ids, error codes from the document's enum.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_brevo_imported_passes_schemathesis() {
    served_provider_passes(
        "imported/brevo_imported.yaml",
        |s| {
            let key = s.credential("api_key").unwrap().to_owned();
            (vec!["-H".to_owned(), format!("api-key: {key}")], key)
        },
        &[],
    )
    .await;
}
