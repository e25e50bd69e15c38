//! The `tidings` crate's examples (`generated/examples/`) run against the sandbox as an app would:
//! built by cargo, started as processes with the sandbox's `export` variables, judged by their
//! exit status and what they print. Examples that only compile could drift from the API.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use tidings_sandbox::server::{WebhookTarget, generate_secret};
use tidings_sandbox::{Sandbox, SandboxConfig};

/// Builds the examples (a no-op when `cargo test --workspace` built them) and returns their
/// directory, `target/<profile>/examples`, found from this test binary's own path.
fn examples_dir() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--workspace", "--examples", "--quiet"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .unwrap();
    assert!(status.success(), "the examples do not build");
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().join("examples")
}

fn run(dir: &std::path::Path, name: &str, env: &[(&str, String)]) -> String {
    let out = Command::new(dir.join(name))
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "example `{name}` failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[tokio::test(flavor = "multi_thread")]
async fn the_examples_run_against_the_sandbox_from_its_exported_variables() {
    let dir = tokio::task::spawn_blocking(examples_dir).await.unwrap();

    // The webhook receiver example listens; the sandbox delivers the messaging events to it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let secret = generate_secret();
    let mut config = SandboxConfig::default();
    config.messaging.service.webhook = Some(WebhookTarget::new(
        format!("http://127.0.0.1:{port}/hooks/messaging"),
        &secret,
    ));
    config.messaging.service.lifecycle_step = Duration::from_millis(50);
    let sandbox = Sandbox::start_with(config).await.unwrap();
    let mut env: Vec<(&str, String)> = sandbox.env();
    env.retain(|(k, _)| *k != tidings::messaging::WEBHOOK_SECRET_ENV);
    env.push((tidings::messaging::WEBHOOK_SECRET_ENV, secret.clone()));

    let mut receiver = Command::new(dir.join("webhooks"))
        .arg(format!("127.0.0.1:{port}"))
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until it listens (a loaded machine may take seconds to start a binary).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the webhooks example did not listen on {port} within 60 s"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }

    let d = dir.clone();
    let e = env.clone();
    let (email, messaging, realtime, presence) = tokio::task::spawn_blocking(move || {
        (
            run(&d, "email", &e),
            run(&d, "messaging", &e),
            run(&d, "realtime", &e),
            run(&d, "presence", &e),
        )
    })
    .await
    .unwrap();
    assert!(email.contains("queued "), "{email}");
    assert!(email.contains("refused locally: "), "{email}");
    assert!(email.contains("emails sent so far"), "{email}");
    assert_eq!(messaging.matches("accepted as ").count(), 2, "{messaging}");
    assert!(messaging.contains("fix the request: "), "{messaging}");
    assert!(
        realtime.contains("received order-shipped on private-orders: {\"order\":1042}"),
        "{realtime}"
    );
    assert!(
        presence.contains("presence-room members: ada, grace"),
        "{presence}"
    );
    assert!(
        presence.contains(
            "decrypted note on private-encrypted-notes: {\"text\":\"only key holders read this\"}"
        ),
        "{presence}"
    );

    // The messages' status events reach the receiver, which verifies each one.
    // A record exists from the moment a delivery is queued: wait for the receiver's answers.
    let delivered = || {
        sandbox
            .inbox
            .webhooks()
            .iter()
            .filter(|w| w.status == "delivered")
            .count()
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while delivered() < 2 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let records = sandbox.inbox.webhooks();
    receiver.kill().unwrap();
    let out = receiver.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        printed.contains("verified: "),
        "{printed}\n{}\ndeliveries: {records:#?}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("refused a webhook"));
    sandbox.shutdown().await;
}
