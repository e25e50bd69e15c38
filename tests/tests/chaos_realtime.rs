//! Chaos for the realtime client against sockudo: the scenario of
//! `chaos_common/scenario.rs` (frames dropped, delayed and malformed while numbered events
//! flow, the network cut, a frame that breaks the WebSocket protocol, sockudo killed and
//! restarted on the same port). The client must reconnect, resubscribe (private channels
//! included), report problems as events, and never panic; every event is accounted for.
//! `chaos_realtime_sandbox.rs` runs the same scenario against the realtime sandbox.
#![allow(clippy::unwrap_used)]

mod chaos_common;
mod realtime_common;

use std::future::Future;
use std::time::Duration;

use chaos_common::scenario::{self, ChaosServer};
use realtime_common::{KEY, SECRET, Sockudo};

impl ChaosServer for Sockudo {
    fn port(&self) -> u16 {
        self.port
    }

    fn key(&self) -> String {
        KEY.to_owned()
    }

    fn secret(&self) -> String {
        SECRET.to_owned()
    }

    fn api(&self) -> tidings::realtime::RealtimeClient {
        self.client()
    }

    fn kill(&mut self) -> impl Future<Output = ()> {
        Sockudo::kill(self);
        std::future::ready(())
    }

    fn restart(&mut self) -> impl Future<Output = ()> {
        Sockudo::restart(self);
        std::future::ready(())
    }

    fn restart_timeout(&self) -> Duration {
        // sockudo takes a while to start.
        Duration::from_secs(40)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_survive_drops_delays_garbage_cuts_and_restarts_with_every_loss_accounted() {
    let outcome = scenario::run(Sockudo::start(None)).await;
    println!("sockudo {outcome}");
}
