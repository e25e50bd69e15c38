//! Runs the `tidings-sandbox` binary for the tests that need a real process (logs on stderr,
//! `--data` across restarts and `kill -9`, the data directory's lock, a full disk).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A running binary, its `--json` description and the file its stderr goes to.
pub struct Running {
    pub child: Child,
    pub info: Value,
    pub log: PathBuf,
}

pub fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_tidings-sandbox")
}

/// Starts the binary with `args` (plus `--json`), its stderr into `log`; `shell` is a prefix
/// run by `sh -c` before `exec` (e.g. `ulimit -f 64;`), empty for none.
pub fn start(args: &[&str], log: &Path, shell: &str, env: &[(&str, &str)]) -> Running {
    let mut command = if shell.is_empty() {
        Command::new(exe())
    } else {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(format!("{shell} exec \"$0\" \"$@\""))
            .arg(exe());
        c
    };
    command.args(args).arg("--json");
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::from(File::create(log).unwrap()))
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let info = serde_json::from_str(&line).unwrap_or_else(|e| {
        let log = std::fs::read_to_string(log).unwrap_or_default();
        panic!("{e}: stdout {line:?}, stderr {log}")
    });
    Running {
        child,
        info,
        log: log.to_owned(),
    }
}

impl Running {
    pub fn email_key(&self) -> String {
        self.info["env"]["COMMS_EMAIL_API_KEY"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    pub fn messaging_key(&self) -> String {
        self.info["env"]["COMMS_MESSAGING_API_KEY"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    pub fn url(&self, service: &str) -> String {
        self.info[service]
            .as_str()
            .unwrap()
            .trim_end_matches('/')
            .to_owned()
    }

    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until stderr holds `needle` (the log is written as events happen).
    pub fn wait_log(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let log = self.stderr();
            if log.contains(needle) || Instant::now() > deadline {
                return log;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// SIGTERM, then waits for the exit.
    pub fn stop(mut self) {
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.wait();
    }

    /// SIGKILL (`kill -9`), then waits.
    pub fn kill9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Running {
    /// A test that fails half-way leaves no process behind.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A blocking HTTP call with `reqwest` (JSON body when given); the status and the body.
pub async fn call(
    method: reqwest::Method,
    url: &str,
    key: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let client = reqwest::Client::new();
    let mut request = client.request(method, url).bearer_auth(key);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}
