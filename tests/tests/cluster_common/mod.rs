//! A clustered Pusher-protocol server on loopback for the cluster tests: one `redis-server`,
//! two sockudo nodes sharing it through sockudo's Redis adapter, and HAProxy in front of them,
//! each on a free port and killed on drop.
//!
//! Test files that use it declare `mod realtime_common;` too (the app's credentials).
#![allow(dead_code, clippy::unwrap_used)]

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tidings::pusher::{self, ConnectionState, MasterKey};
use tidings_runtime::realtime::{Channel, Connection};

use crate::realtime_common::{APP_ID, KEY, MASTER_KEY, SECRET};

/// How long the helpers wait for a connection, a subscription or an event.
pub const WAIT: Duration = Duration::from_secs(10);

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `sockudo` from PATH or `~/.cargo/bin` (scripts/test installs it there with the Redis adapter).
fn sockudo_binary() -> PathBuf {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .chain(std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo/bin")))
        .map(|d| d.join("sockudo"))
        .find(|c| c.is_file())
        .expect(
            "sockudo is not installed: run scripts/test (it builds it with features local,redis)",
        )
}

/// Waits until something accepts TCP connections on `port`, or panics with `what` and `log`.
fn wait_listening(port: u16, child: &mut Child, what: &str, log: impl Fn() -> String) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("{what} exited ({status}): {}", log());
        }
        assert!(Instant::now() < deadline, "{what} did not start: {}", log());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stop(child: &mut Option<Child>) {
    if let Some(mut c) = child.take() {
        let _ = c.kill();
        let _ = c.wait();
    }
}

/// Which node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The first.
    A,
    /// The second.
    B,
}

/// One sockudo node of the cluster.
pub struct Node {
    /// Its own port (HTTP API and WebSocket).
    pub port: u16,
    child: Option<Child>,
    config: PathBuf,
    log: PathBuf,
}

impl Node {
    /// Its HTTP API.
    pub fn http_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Its WebSocket endpoint (bypassing the balancer).
    pub fn ws_url(&self) -> String {
        format!("ws://127.0.0.1:{}", self.port)
    }

    /// Our HTTP client of the app, talking to this node only.
    pub fn client(&self) -> tidings::realtime::RealtimeClient {
        api_client(&self.http_url())
    }

    /// What it logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Kills it (SIGKILL: no goodbye to its clients or to Redis).
    pub fn kill(&mut self) {
        stop(&mut self.child);
    }

    /// Whether it is running.
    pub fn is_running(&self) -> bool {
        self.child.is_some()
    }

    fn spawn(&mut self) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .unwrap();
        let mut child = Command::new(sockudo_binary())
            .arg("--config")
            .arg(&self.config)
            .current_dir(self.config.parent().unwrap())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("RUST_LOG", "warn")
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .spawn()
            .unwrap();
        let log_path = self.log.clone();
        wait_listening(self.port, &mut child, "sockudo", || {
            std::fs::read_to_string(&log_path).unwrap_or_default()
        });
        self.child = Some(child);
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Redis, two sockudo nodes (`a`, `b`) and HAProxy on loopback. Dropped: all killed.
pub struct Cluster {
    /// The first node (tests trigger through its HTTP API).
    pub a: Node,
    /// The second node (tests connect clients to it, and kill it).
    pub b: Node,
    /// The balancer's port: HTTP API and WebSocket, round-robin over the live nodes.
    pub balancer_port: u16,
    /// Redis's port.
    pub redis_port: u16,
    haproxy: Option<Child>,
    redis: Option<Child>,
    dir: tempfile::TempDir,
}

impl Cluster {
    /// Starts the whole cluster and waits until the balancer sees both nodes up.
    pub fn start() -> Cluster {
        let dir = tempfile::tempdir().unwrap();
        let redis_port = free_port();
        let mut redis = Command::new("redis-server")
            .args(["--port", &redis_port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server is installed (scripts/test installs it)");
        wait_listening(redis_port, &mut redis, "redis-server", String::new);

        let node = |name: &str| {
            let port = free_port();
            let config = dir.path().join(format!("{name}.json"));
            std::fs::write(&config, node_config(port, redis_port).to_string()).unwrap();
            let mut n = Node {
                port,
                child: None,
                config,
                log: dir.path().join(format!("{name}.log")),
            };
            n.spawn();
            n
        };
        let a = node("a");
        let b = node("b");

        let balancer_port = free_port();
        let cfg = dir.path().join("haproxy.cfg");
        std::fs::write(&cfg, haproxy_config(balancer_port, a.port, b.port)).unwrap();
        let haproxy_log = dir.path().join("haproxy.log");
        let log = std::fs::File::create(&haproxy_log).unwrap();
        // -db: stay in the foreground (so it dies with its handle); -W not needed.
        let mut haproxy = Command::new("haproxy")
            .arg("-db")
            .arg("-f")
            .arg(&cfg)
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("haproxy is installed (scripts/test installs it)");
        wait_listening(balancer_port, &mut haproxy, "haproxy", || {
            std::fs::read_to_string(&haproxy_log).unwrap_or_default()
        });
        let cluster = Cluster {
            a,
            b,
            balancer_port,
            redis_port,
            haproxy: Some(haproxy),
            redis: Some(redis),
            dir,
        };
        cluster.wait_nodes_subscribed();
        cluster
    }

    /// The nodes join Redis's pub/sub after they open their ports: wait until both listen on
    /// the adapter's shared channels, so that a first trigger is not lost.
    fn wait_nodes_subscribed(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let channels = ["#broadcast", "#requests", "#responses"].map(|c| format!("{PREFIX}:{c}"));
        loop {
            let out = Command::new("redis-cli")
                .args(["-p", &self.redis_port.to_string(), "PUBSUB", "NUMSUB"])
                .args(&channels)
                .output()
                .expect("redis-cli is installed with redis-server");
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            // The answer alternates names and counts.
            let counts: Vec<u64> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
            if counts.len() == channels.len() && counts.iter().all(|&n| n >= 2) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the nodes did not both subscribe to Redis ({text:?}):\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// One of the nodes.
    pub fn node_mut(&mut self, which: Which) -> &mut Node {
        match which {
            Which::A => &mut self.a,
            Which::B => &mut self.b,
        }
    }

    /// Starts a killed node again on its port, and waits until it is back in Redis's pub/sub
    /// and in the balancer's pool (HAProxy checks a down server every 500 ms).
    pub fn restart(&mut self, which: Which) {
        let node = self.node_mut(which);
        node.kill();
        node.spawn();
        self.wait_nodes_subscribed();
        std::thread::sleep(Duration::from_millis(1200));
    }

    /// The balancer's HTTP API.
    pub fn balancer_http_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.balancer_port)
    }

    /// The balancer's WebSocket endpoint: what an app's clients are given.
    pub fn balancer_ws_url(&self) -> String {
        format!("ws://127.0.0.1:{}", self.balancer_port)
    }

    /// The logs of the nodes and the balancer, for a failure message.
    pub fn logs(&self) -> String {
        format!(
            "--- node a\n{}\n--- node b\n{}\n--- haproxy\n{}",
            self.a.log(),
            self.b.log(),
            std::fs::read_to_string(self.dir.path().join("haproxy.log")).unwrap_or_default()
        )
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        stop(&mut self.haproxy);
        self.a.kill();
        self.b.kill();
        stop(&mut self.redis);
    }
}

/// The prefix of the adapter's Redis keys and channels.
const PREFIX: &str = "tidings-cluster";

/// A node's sockudo config: the test app, the Redis adapter (no silent fallback to a local
/// adapter when sockudo was built without it) and cache (sockudo refuses a node-local cache
/// when clustered), room for the fan-out benchmark's 1,000+ sockets.
fn node_config(port: u16, redis_port: u16) -> serde_json::Value {
    serde_json::json!({
        "host": "127.0.0.1", "port": port, "debug": false,
        "adapter": {
            "driver": "redis", "fallback_to_local": false,
            "redis": {"prefix": PREFIX, "requests_timeout": 2000}
        },
        "database": {"redis": {"host": "127.0.0.1", "port": redis_port}},
        "cache": {"driver": "redis"}, "queue": {"driver": "memory"},
        "rate_limiter": {"enabled": false}, "metrics": {"enabled": false},
        "webhooks": {"batching": {"enabled": false}},
        "app_manager": {"driver": "memory", "array": {"apps": [{
            "id": APP_ID, "key": KEY, "secret": SECRET, "enabled": true,
            "policy": {
                "limits": {
                    "max_connections": 10000, "max_client_events_per_second": 100,
                    "max_backend_events_per_second": 100000, "max_read_requests_per_second": 100000,
                    "max_presence_members_per_channel": 100, "max_presence_member_size_in_kb": 10,
                    "max_channel_name_length": 200, "max_event_channels_at_once": 100,
                    "max_event_name_length": 200, "max_event_payload_in_kb": 100,
                    "max_event_batch_size": 10
                },
                "features": {"enable_client_messages": true, "enable_user_authentication": true}
            }
        }]}}
    })
}

/// HAProxy in HTTP mode (WebSocket upgrades become tunnels), round-robin, health-checking
/// `/up/<app>` every 200 ms so a dead node leaves the pool within ~0.5 s; a refused connect is
/// retried on the other node at once (`redispatch`).
fn haproxy_config(port: u16, a: u16, b: u16) -> String {
    format!(
        "global
  maxconn 4000
  nbthread 1

defaults
  mode http
  timeout connect 300ms
  timeout client 30s
  timeout server 30s
  timeout tunnel 1h
  timeout http-request 5s
  retries 3
  option redispatch 1

frontend realtime
  bind 127.0.0.1:{port}
  default_backend nodes

backend nodes
  balance roundrobin
  option httpchk GET /up/{APP_ID}
  http-check expect status 200
  default-server inter 200ms fastinter 100ms downinter 500ms fall 2 rise 1
  server a 127.0.0.1:{a} check
  server b 127.0.0.1:{b} check
"
    )
}

/// Our HTTP client of the test app at `base_url`.
pub fn api_client(base_url: &str) -> tidings::realtime::RealtimeClient {
    tidings::realtime::RealtimeClient::builder()
        .base_url(base_url)
        .credential("app_id", APP_ID)
        .credential("key", KEY)
        .credential("secret", SECRET)
        .credential("api_key", "unused")
        .build()
        .unwrap()
}

/// Our WebSocket client at `ws_url`, authorizing private, presence (as `user`) and encrypted
/// channels locally.
pub fn connect(ws_url: &str, user: Option<&str>) -> Connection {
    let mut authorizer = pusher::local_authorizer(KEY, SECRET)
        .master_key(MasterKey::from_base64(MASTER_KEY).unwrap());
    if let Some(id) = user {
        authorizer = authorizer.user(id, serde_json::json!({"name": format!("user {id}")}));
    }
    pusher::connection(ws_url, KEY)
        .authorizer(authorizer)
        .connect()
        .unwrap()
}

/// [`connect`], then wait until connected.
pub async fn connected(ws_url: &str, user: Option<&str>) -> Connection {
    let c = connect(ws_url, user);
    c.wait_for(ConnectionState::Connected, WAIT).await.unwrap();
    c
}

/// Subscribes and waits for the server's confirmation.
pub async fn subscribed(c: &Connection, channel: &str) -> Channel {
    let mut ch = c.subscribe(channel).unwrap();
    ch.wait_subscribed(WAIT).await.unwrap();
    ch
}

/// The next event with this name (protocol events on the way are skipped).
pub async fn next_named(ch: &mut Channel, name: &str) -> pusher::ChannelEvent {
    tokio::time::timeout(WAIT, async {
        loop {
            let e = ch.next_event().await.expect("channel open");
            if e.event == name {
                return e;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no `{name}` on {} in time", ch.name()))
}
