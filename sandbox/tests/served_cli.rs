//! The binary's `--spec`: a provider spec served with nothing compiled for it, its base URL and
//! credentials printed as `export` lines named by the spec's own variables, and a spec that does
//! not check refused at start with every located problem.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn providers(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/providers")
        .join(name)
}

/// Starts the binary and reads its `export` lines until `last` is printed.
fn start(args: &[&str], last: &str) -> (Running, Vec<(String, String)>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tidings-sandbox"))
        .args(["--quiet", "--no-ui", "--no-smtp"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let running = Running(child);
    let mut exports = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let (name, value) = line
            .strip_prefix("export ")
            .and_then(|l| l.split_once('='))
            .unwrap_or_else(|| panic!("not an export line: {line}"));
        exports.push((name.to_owned(), value.to_owned()));
        if name == last {
            return (running, exports);
        }
    }
    panic!("the sandbox ended before printing {last}: {exports:?}");
}

fn env<'e>(exports: &'e [(String, String)], name: &str) -> &'e str {
    &exports.iter().find(|(n, _)| n == name).unwrap().1
}

#[tokio::test]
async fn a_provider_spec_is_served_with_its_own_variables_and_auth() {
    let spec = providers("twilio.yaml");
    let (_running, exports) = start(&["--spec", spec.to_str().unwrap()], "TWILIO_AUTH_TOKEN");
    let base = env(&exports, "TWILIO_BASE_URL");
    let (sid, token) = (
        env(&exports, "TWILIO_ACCOUNT_SID"),
        env(&exports, "TWILIO_AUTH_TOKEN"),
    );
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    let http = reqwest::Client::new();
    let url = format!("{base}/2010-04-01/Accounts/{sid}/Messages.json");
    let created = http
        .post(&url)
        .basic_auth(sid, Some(token))
        .form(&[
            ("To", "+15558675310"),
            ("From", "+15017122661"),
            ("Body", "hi"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let message: serde_json::Value = created.json().await.unwrap();
    assert_eq!(message["to"], "+15558675310", "{message}");

    // The declared auth (Basic with the account SID and token) is enforced.
    let refused = http
        .post(&url)
        .basic_auth(sid, Some("wrong"))
        .form(&[("To", "+15558675310")])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    // A method the path does not have.
    let wrong_method = http
        .put(&url)
        .basic_auth(sid, Some(token))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_method.status(), 405);
    assert_eq!(wrong_method.headers()["allow"], "POST, GET");
}

#[test]
fn a_spec_that_does_not_check_is_refused_with_every_located_problem() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.yaml");
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(
        b"service:\n  name: broken\n  title: Broken\n  summary: A spec with a typo\n  \
          base_url: { env: BROKEN_BASE_URL }\ncredentials:\n  api_key: { env: BROKEN_API_KEY }\n\
          auth:\n  - { name: bearer, kind: bearer, credential: api_key }\noperations:\n  \
          get_thing:\n    method: GET\n    path: /things/{id}\n    \
          path_params: { id: { type: string } }\n    response: Thnig\n",
    )
    .unwrap();
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_tidings-sandbox"))
        .args(["--quiet", "--no-ui", "--no-smtp", "--spec"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("broken.yaml:"), "located: {stderr}");
    assert!(stderr.contains("Thnig"), "names the unknown type: {stderr}");
}
