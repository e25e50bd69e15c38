//! Shared by the realtime tests: starts sockudo (the reference server of the Pusher protocol)
//! on a free loopback port with a test app, and finds the Node peers.
#![allow(dead_code, clippy::unwrap_used)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const APP_ID: &str = "4242";
pub const KEY: &str = "test-key-6a2b";
pub const SECRET: &str = "test-secret-0f7c91";
/// Base64 of 32 bytes: the encrypted channels' master key of the tests.
pub const MASTER_KEY: &str = "zyrm8pvV2C9fJcBfhyXzvxbJVN/H7QLmbe0xJi1GhPU=";

/// The sockudo version scripts/test installs.
pub const SOCKUDO_VERSION: &str = "5.2.0";

fn sockudo_binary() -> PathBuf {
    let candidates = std::env::var_os("PATH")
        .map(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join("sockudo"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter()
        .chain(std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo/bin/sockudo")));
    for c in candidates {
        if c.is_file() {
            return c;
        }
    }
    panic!(
        "sockudo {SOCKUDO_VERSION} is not installed, so the realtime tests cannot run against the reference server: run scripts/test (it installs it with cargo install)"
    );
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A running sockudo with one app (`APP_ID`/`KEY`/`SECRET`): client events and user
/// authentication on, webhooks (when asked) to `webhook_url`. Killed on drop.
pub struct Sockudo {
    child: Option<Child>,
    pub port: u16,
    dir: tempfile::TempDir,
    config: PathBuf,
}

impl Sockudo {
    pub fn start(webhook_url: Option<&str>) -> Sockudo {
        Sockudo::start_with_max_connections(webhook_url, 1000)
    }

    /// As [`Sockudo::start`], allowing `max_connections` connections to the app.
    pub fn start_with_max_connections(webhook_url: Option<&str>, max_connections: u32) -> Sockudo {
        let binary = sockudo_binary();
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let webhooks = match webhook_url {
            Some(url) => serde_json::json!([{ "url": url, "event_types": [
                "channel_occupied", "channel_vacated", "member_added", "member_removed", "client_event"
            ]}]),
            None => serde_json::json!([]),
        };
        let config = serde_json::json!({
            "host": "127.0.0.1", "port": port, "debug": false,
            "adapter": {"driver": "local"}, "cache": {"driver": "memory"},
            "queue": {"driver": "memory"},
            "rate_limiter": {"enabled": false}, "metrics": {"enabled": false},
            "webhooks": {"batching": {"enabled": false}},
            "app_manager": {"driver": "memory", "array": {"apps": [{
                "id": APP_ID, "key": KEY, "secret": SECRET, "enabled": true,
                "policy": {
                    "limits": {
                        "max_connections": max_connections, "max_client_events_per_second": 100,
                        "max_backend_events_per_second": 100000, "max_read_requests_per_second": 100000,
                        "max_presence_members_per_channel": 100, "max_presence_member_size_in_kb": 10,
                        "max_channel_name_length": 200, "max_event_channels_at_once": 100,
                        "max_event_name_length": 200, "max_event_payload_in_kb": 100,
                        "max_event_batch_size": 10
                    },
                    "features": {"enable_client_messages": true, "enable_user_authentication": true},
                    "webhooks": webhooks
                }
            }]}}
        });
        let path = dir.path().join("config.json");
        std::fs::write(&path, config.to_string()).unwrap();
        let _ = binary;
        let mut s = Sockudo {
            child: None,
            port,
            dir,
            config: path,
        };
        s.spawn();
        s
    }

    fn spawn(&mut self) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.path().join("sockudo.log"))
            .unwrap();
        let child = Command::new(sockudo_binary())
            .arg("--config")
            .arg(&self.config)
            .current_dir(self.dir.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("RUST_LOG", "warn")
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .spawn()
            .unwrap();
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                break;
            }
            if let Some(status) = self.child.as_mut().unwrap().try_wait().unwrap() {
                panic!("sockudo exited ({status}): {}", self.log());
            }
            assert!(
                Instant::now() < deadline,
                "sockudo did not start: {}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("sockudo.log")).unwrap_or_default()
    }

    /// Kills the server (the port stays reserved for `restart`).
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port.
    pub fn restart(&mut self) {
        self.kill();
        self.spawn();
    }

    pub fn http_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn ws_url(&self) -> String {
        format!("ws://127.0.0.1:{}", self.port)
    }

    pub fn client(&self) -> tidings::realtime::RealtimeClient {
        self.client_with_secret(SECRET)
    }

    pub fn client_with_secret(&self, secret: &str) -> tidings::realtime::RealtimeClient {
        tidings::realtime::RealtimeClient::builder()
            .base_url(self.http_url())
            .credential("app_id", APP_ID)
            .credential("key", KEY)
            .credential("secret", secret)
            .credential("api_key", "unused")
            .build()
            .unwrap()
    }
}

impl Drop for Sockudo {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The Node peers' directory, with `node_modules` installed by scripts/test.
pub fn node_peers() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/realtime");
    for package in ["pusher-js", "pusher"] {
        assert!(
            dir.join("node_modules").join(package).is_dir(),
            "the npm package `{package}` is missing from {}: run scripts/test (it installs pusher-js and pusher there)",
            dir.display()
        );
    }
    dir
}
