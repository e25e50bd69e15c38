//! The realtime chaos scenario, run against any Pusher-protocol server behind the
//! [`ChaosProxy`]: while numbered events flow, frames are dropped, delayed and malformed frames
//! injected, the network is cut, a frame that breaks the WebSocket protocol is injected, and the
//! server is killed and restarted on the same port. The client must reconnect, resubscribe
//! (private channels included), report problems as events, and never panic; every event is
//! accounted for: received, dropped by the proxy, or published while the client was away (the
//! protocol does not replay).

use std::collections::BTreeSet;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tidings::pusher::{self, ConnectionEvent, ConnectionState, StateChange};
use tidings_runtime::realtime::{Channel, Connection};

use super::{ChaosProxy, MALFORMED, Policy, encode_frame};

const WAIT: Duration = Duration::from_secs(10);
/// Rounds of (frame chaos, network cut, protocol garbage, server restart).
pub const ROUNDS: usize = 3;
/// Events published within this margin of an outage count as published during it.
const MARGIN: Duration = Duration::from_millis(300);
const CHANNEL: &str = "chaos";
const PRIVATE: &str = "private-chaos";

/// The server under test: where it listens, its app credentials and HTTP API, and how to
/// kill it and bring it back on the same port.
pub trait ChaosServer {
    /// The port the proxy forwards to.
    fn port(&self) -> u16;
    /// The app key and secret (private channels are authorized locally with them).
    fn key(&self) -> String;
    fn secret(&self) -> String;
    /// A client of its HTTP API (the publisher).
    fn api(&self) -> tidings::realtime::RealtimeClient;
    /// Stops the server; its port stays free for [`ChaosServer::restart`].
    fn kill(&mut self) -> impl Future<Output = ()>;
    /// Starts it again on the same port.
    fn restart(&mut self) -> impl Future<Output = ()>;
    /// How long the client may take to be back after a restart.
    fn restart_timeout(&self) -> Duration;
}

/// What a run counted.
#[derive(Debug)]
pub struct Outcome {
    pub elapsed: Duration,
    pub last_seq: u64,
    pub published: usize,
    pub received: usize,
    /// The client's gap counter.
    pub missed: u64,
    pub never_published: usize,
    pub dropped: usize,
    pub outage_lost: usize,
    pub outages: usize,
    pub connections: u64,
    pub ticks: u64,
    pub delayed: u64,
    pub injected: u64,
    pub cuts: u64,
    pub problems: usize,
    pub malformed_reports: usize,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "chaos: {ROUNDS} rounds in {:?}; seq 1..={}, published {}, received {}, client \
             missed {} (never published {}, proxy-dropped {}, lost in {} outages {}); proxy: {} \
             connections, {} ticks, {} delayed, {} malformed injected, {} cuts; {} problems \
             reported ({} about frames)",
            self.elapsed,
            self.last_seq,
            self.published,
            self.received,
            self.missed,
            self.never_published,
            self.dropped,
            self.outages,
            self.outage_lost,
            self.connections,
            self.ticks,
            self.delayed,
            self.injected,
            self.cuts,
            self.problems,
            self.malformed_reports,
        )
    }
}

/// What the client saw on the chaos channel, with a gap counter on the `seq` in the data.
#[derive(Debug, Default)]
struct Seen {
    seqs: Vec<u64>,
    /// Sequence numbers skipped between consecutive events (the client's "missed" count).
    missed: u64,
    duplicates_or_reordered: u64,
}

#[derive(Debug, Clone, Copy)]
struct Published {
    seq: u64,
    started: Instant,
    ended: Instant,
}

async fn resubscribed(c: &Connection, channels: &mut [&mut Channel], timeout: Duration) {
    c.wait_for(ConnectionState::Connected, timeout)
        .await
        .unwrap_or_else(|e| panic!("no reconnect: {e}"));
    for ch in channels.iter_mut() {
        ch.wait_subscribed(timeout)
            .await
            .unwrap_or_else(|e| panic!("{} not resubscribed: {e}", ch.name()));
    }
}

/// Waits until the client has noticed the connection is gone: a state change away from
/// Connected, on `changes` taken before the fault. (Polling the state missed it once: the client
/// can drop and reconnect on loopback between two looks.)
async fn lost(changes: &mut tokio::sync::broadcast::Receiver<StateChange>) {
    use tokio::sync::broadcast::error::RecvError;
    tokio::time::timeout(WAIT, async {
        loop {
            match changes.recv().await {
                Ok(change) if change.previous == ConnectionState::Connected => return,
                Ok(_) => continue,
                // Many changes since the fault, or the connection is gone: it noticed.
                Err(RecvError::Lagged(_) | RecvError::Closed) => return,
            }
        }
    })
    .await
    .expect("the client notices the lost connection");
}

/// Runs the scenario against `server` and checks every property; panics on a failure.
pub async fn run<S: ChaosServer>(mut server: S) -> Outcome {
    // A panic in the client's background task would not fail the test by itself: count them.
    static PANICS: AtomicUsize = AtomicUsize::new(0);
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default_hook(info);
    }));
    let started = Instant::now();
    let (key, secret) = (server.key(), server.secret());
    let proxy = ChaosProxy::start(server.port()).await;
    let connection = pusher::connection(&proxy.ws_url(), &key)
        .authorizer(pusher::local_authorizer(&key, &secret))
        .connect()
        .unwrap();
    connection
        .wait_for(ConnectionState::Connected, WAIT)
        .await
        .unwrap();
    let mut public = connection.subscribe(CHANNEL).unwrap();
    let mut private = connection.subscribe(PRIVATE).unwrap();
    public.wait_subscribed(WAIT).await.unwrap();
    private.wait_subscribed(WAIT).await.unwrap();

    // Problems the client reports (malformed frames, lost connections).
    let problems = Arc::new(Mutex::new(Vec::<String>::new()));
    let mut events = connection.events();
    let sink = problems.clone();
    let reporter = tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(ConnectionEvent::Error { message, .. }) => sink.lock().unwrap().push(message),
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(_) => break,
            }
        }
    });

    // The receiver: keeps every seq and counts gaps as the client sees them.
    let seen = Arc::new(Mutex::new(Seen::default()));
    let into = seen.clone();
    let mut stream = connection.listen(CHANNEL);
    let receiver = tokio::spawn(async move {
        while let Some(e) = stream.next_event().await {
            if e.event != "tick" {
                continue;
            }
            // A tick with a broken seq is one of the injected frames: reported, not counted.
            let Ok(data) = e.data::<serde_json::Value>() else {
                continue;
            };
            let Some(seq) = data["seq"].as_u64() else {
                continue;
            };
            let mut s = into.lock().unwrap();
            match s.seqs.last().copied() {
                Some(last) if seq <= last => s.duplicates_or_reordered += 1,
                Some(last) => s.missed += seq - last - 1,
                None => s.missed += seq - 1,
            }
            s.seqs.push(seq);
        }
    });

    // The publisher: one event every 10 ms through the HTTP API, straight to the server.
    let stop = Arc::new(AtomicBool::new(false));
    let published = Arc::new(Mutex::new(Vec::<Published>::new()));
    let api = server.api();
    let (halt, log) = (stop.clone(), published.clone());
    let publisher = tokio::spawn(async move {
        let mut seq = 0u64;
        while !halt.load(Ordering::Relaxed) {
            seq += 1;
            let started = Instant::now();
            let sent = api
                .trigger([CHANNEL], "tick", &serde_json::json!({"seq": seq}))
                .await;
            if sent.is_ok() {
                log.lock().unwrap().push(Published {
                    seq,
                    started,
                    ended: Instant::now(),
                });
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        seq
    });

    let mut outages: Vec<(Instant, Instant)> = Vec::new();
    for round in 0..ROUNDS {
        // 1. Frame chaos: drops, delays and malformed frames while events flow.
        proxy.set_policy(Policy {
            drop_every: 7,
            delay_every: 5,
            delay: Duration::from_millis(20 + 30 * round as u64),
            inject_every: 11,
        });
        tokio::time::sleep(Duration::from_millis(1500)).await;
        proxy.set_policy(Policy::default());

        // 2. The network fails: every proxied connection is cut.
        let from = Instant::now();
        let mut changes = connection.state_changes();
        proxy.cut();
        lost(&mut changes).await;
        resubscribed(&connection, &mut [&mut public, &mut private], WAIT).await;
        outages.push((from, Instant::now()));
        tokio::time::sleep(Duration::from_millis(500)).await;

        // 3. A frame that breaks the WebSocket protocol (a text frame that is not UTF-8).
        let from = Instant::now();
        let mut changes = connection.state_changes();
        proxy.inject_raw(encode_frame(1, &[0xff, 0xfe, 0x7b]));
        lost(&mut changes).await;
        resubscribed(&connection, &mut [&mut public, &mut private], WAIT).await;
        outages.push((from, Instant::now()));
        tokio::time::sleep(Duration::from_millis(500)).await;

        // 4. The server dies and comes back on the same port.
        let from = Instant::now();
        let mut changes = connection.state_changes();
        server.kill().await;
        lost(&mut changes).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        server.restart().await;
        resubscribed(
            &connection,
            &mut [&mut public, &mut private],
            server.restart_timeout(),
        )
        .await;
        outages.push((from, Instant::now()));
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    // Calm: the last events must all arrive.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    stop.store(true, Ordering::Relaxed);
    let last_seq = publisher.await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;

    // The private channel works after all of it (re-authorized on every resubscribe).
    server
        .api()
        .trigger([PRIVATE], "after", "ok")
        .await
        .unwrap();
    let after = tokio::time::timeout(WAIT, async {
        loop {
            let e = private.next_event().await.expect("private channel open");
            if e.event == "after" {
                return e;
            }
        }
    })
    .await
    .expect("an event on the private channel after the chaos");
    assert_eq!(after.data.as_deref(), Some("ok"));
    assert_eq!(connection.state(), ConnectionState::Connected);

    // Accounting: every published event was received, dropped by the proxy, or published
    // while the client was away.
    let published = published.lock().unwrap().clone();
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    let received: BTreeSet<u64> = seen.seqs.iter().copied().collect();
    let dropped: BTreeSet<u64> = proxy.dropped().into_iter().collect();
    assert_eq!(
        seen.duplicates_or_reordered, 0,
        "events arrive once, in order"
    );
    assert_eq!(received.len(), seen.seqs.len());
    let sent: BTreeSet<u64> = published.iter().map(|p| p.seq).collect();
    assert!(received.is_subset(&sent), "only published events arrive");
    assert!(
        dropped.is_disjoint(&received),
        "a dropped frame never arrives"
    );
    let in_outage = |p: &Published| {
        outages
            .iter()
            .any(|(from, to)| p.ended + MARGIN >= *from && p.started <= *to + MARGIN)
    };
    let mut outage_lost = 0;
    let mut unexplained = Vec::new();
    for p in &published {
        if received.contains(&p.seq) || dropped.contains(&p.seq) {
            continue;
        }
        if in_outage(p) {
            outage_lost += 1;
        } else {
            unexplained.push(p.seq);
        }
    }
    assert!(
        unexplained.is_empty(),
        "events lost outside any outage and not dropped by the proxy: {unexplained:?}"
    );
    // The client's gap counter matches the missing seqs below the last one received; each is
    // either never published (the server was down), dropped by the proxy, or lost in an outage.
    let last_received = *received.last().unwrap();
    let missing: Vec<u64> = (1..=last_received)
        .filter(|s| !received.contains(s))
        .collect();
    assert_eq!(seen.missed, missing.len() as u64, "the gap counter");
    let never_published = missing.iter().filter(|s| !sent.contains(s)).count();
    assert!(
        published
            .iter()
            .rev()
            .take(20)
            .all(|p| received.contains(&p.seq) || dropped.contains(&p.seq)),
        "the final events all arrive"
    );

    // The chaos happened, and the problems were reported rather than hidden.
    let stats = &proxy.stats;
    let injected = stats.injected.load(Ordering::Relaxed);
    assert!(injected >= 3 * ROUNDS as u64, "{stats:?}");
    assert!(
        stats.delayed.load(Ordering::Relaxed) >= 3 * ROUNDS as u64,
        "{stats:?}"
    );
    assert!(dropped.len() >= 3 * ROUNDS, "{stats:?}");
    assert!(
        stats.connections.load(Ordering::Relaxed) > 3 * ROUNDS as u64,
        "{stats:?}"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    let problems = problems.lock().unwrap().clone();
    let malformed_reports = problems.iter().filter(|m| m.contains("frame")).count();
    assert!(
        malformed_reports >= injected.min(MALFORMED.len() as u64) as usize / 2,
        "malformed frames are reported: {problems:#?}"
    );
    reporter.abort();
    receiver.abort();
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "nothing panicked");
    Outcome {
        elapsed: started.elapsed(),
        last_seq,
        published: published.len(),
        received: received.len(),
        missed: seen.missed,
        never_published,
        dropped: dropped.len(),
        outage_lost,
        outages: outages.len(),
        connections: stats.connections.load(Ordering::Relaxed),
        ticks: stats.ticks.load(Ordering::Relaxed),
        delayed: stats.delayed.load(Ordering::Relaxed),
        injected,
        cuts: stats.cuts.load(Ordering::Relaxed),
        problems: problems.len(),
        malformed_reports,
    }
}
