//! Prism serving one real provider's OpenAPI excerpt (`tests/providers/<provider>/openapi.json`)
//! as a validating mock, for the provider tests: start it on a free loopback port, count the
//! requests it accepted, and build HTTP clients that ask it for a documented answer.

#![allow(dead_code)] // each provider test uses a part

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tidings_runtime::reqwest;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A `prism mock --errors` process serving one provider's excerpt; killed when dropped.
pub struct Prism {
    child: Child,
    log: PathBuf,
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    _dir: tempfile::TempDir,
}

impl Prism {
    /// Starts Prism on the excerpt of `provider` (a directory under `tests/providers/`) and
    /// waits until it listens.
    pub async fn start(provider: &str) -> Prism {
        Prism::serve(
            &root().join("tests/peers/prism/node_modules/.bin/prism"),
            &root()
                .join("tests/providers")
                .join(provider)
                .join("openapi.json"),
        )
        .await
    }

    /// Starts the Prism binary `bin` on `document` and waits until it listens (also used by
    /// `exports_prism.rs` for this project's own exported documents).
    pub async fn serve(bin: &std::path::Path, document: &std::path::Path) -> Prism {
        assert!(
            bin.exists(),
            "Prism is not installed ({} is missing): run scripts/test, which installs it",
            bin.display()
        );
        assert!(document.exists(), "{} is missing", document.display());
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("prism.log");
        let port = free_port();
        let file = std::fs::File::create(&log).unwrap();
        let child = Command::new(bin)
            .args(["mock", "--errors", "--host", "127.0.0.1", "--port"])
            .arg(port.to_string())
            .arg(document)
            .stdin(Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
        let mut prism = Prism {
            child,
            log,
            url: format!("http://127.0.0.1:{port}"),
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if prism.log().contains("Prism is listening") {
                return prism;
            }
            if let Some(status) = prism.child.try_wait().unwrap() {
                panic!("prism exited ({status}) before listening:\n{}", prism.log());
            }
            assert!(
                Instant::now() < deadline,
                "prism did not start within 120 s:\n{}",
                prism.log()
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Prism's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// How many requests Prism received, and how many of them passed its validation against
    /// the document.
    pub fn received_and_accepted(&self) -> (usize, usize) {
        let log = self.log();
        (
            log.matches("Request received").count(),
            log.matches("The request passed the validation rules")
                .count(),
        )
    }

    /// Exactly `calls` requests reached Prism and every one was accepted: no violation of the
    /// document, no unauthorized request.
    pub fn assert_all_accepted(&self, calls: usize) {
        let log = self.log();
        let problems: Vec<&str> = log
            .lines()
            .filter(|l| {
                l.contains("Violation")
                    || l.contains("did not pass")
                    || l.contains("Invalid security scheme")
            })
            .collect();
        assert!(
            problems.is_empty(),
            "Prism rejected requests:\n{}\n\nfull log:\n{log}",
            problems.join("\n")
        );
        // The figure the proof reports (visible with --nocapture).
        eprintln!("prism: {calls} requests received, all accepted");
        assert_eq!(
            self.received_and_accepted(),
            (calls, calls),
            "every call reaches Prism and is accepted; log:\n{log}"
        );
    }
}

impl Drop for Prism {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// An HTTP client whose every request carries `Prefer: <prefer>`, Prism's way to ask for one
/// documented answer (`code=404`, `example=missing_params`). The generated clients take it
/// through `ClientBuilder::http_client`, so no test-only hook is needed in the runtime.
pub fn prefer(prefer: &str) -> reqwest::Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(
        "prefer",
        reqwest::header::HeaderValue::from_str(prefer).unwrap(),
    );
    reqwest::Client::builder()
        .default_headers(headers)
        .build()
        .unwrap()
}

/// Counts the calls a test makes, so the count Prism saw can be checked against it.
#[derive(Debug, Default)]
pub struct Calls(pub usize);

impl Calls {
    /// A call that must succeed (a 2xx answer the client decodes).
    pub fn ok<T, E: std::fmt::Display>(&mut self, what: &str, result: Result<T, E>) -> T {
        self.0 += 1;
        result.unwrap_or_else(|e| panic!("{what}: {e}"))
    }

    /// A call that must fail with an error answer from the server.
    pub fn err<T: std::fmt::Debug>(
        &mut self,
        what: &str,
        result: Result<T, tidings_runtime::Error>,
    ) -> tidings_runtime::Error {
        self.0 += 1;
        match result {
            Ok(value) => panic!("{what}: expected an error answer, got {value:?}"),
            Err(e) => e,
        }
    }
}
