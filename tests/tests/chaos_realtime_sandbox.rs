//! Chaos for the realtime client against the realtime sandbox: the scenario of
//! `chaos_common/scenario.rs` (as `chaos_realtime.rs` runs it against sockudo). The sandbox
//! is "killed" by shutting it down (every connection closed, the listener gone) and restarted
//! in-process on the same port with the same app credentials; its channels start empty, as a
//! restarted server's would.
#![allow(clippy::unwrap_used)]

mod chaos_common;

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use chaos_common::scenario::{self, ChaosServer};
use tidings_sandbox::{RealtimeConfig, RealtimeSandbox};

struct Sandbox {
    addr: SocketAddr,
    /// What every restart starts with: the same app, so the same (random) secret.
    config: RealtimeConfig,
    running: Option<RealtimeSandbox>,
}

impl Sandbox {
    async fn start() -> Sandbox {
        let config = RealtimeConfig::default();
        let running = RealtimeSandbox::start(config.clone()).await.unwrap();
        Sandbox {
            addr: running.addr(),
            config,
            running: Some(running),
        }
    }

    fn running(&self) -> &RealtimeSandbox {
        self.running.as_ref().expect("the sandbox is running")
    }
}

impl ChaosServer for Sandbox {
    fn port(&self) -> u16 {
        self.addr.port()
    }

    fn key(&self) -> String {
        self.running().key().to_owned()
    }

    fn secret(&self) -> String {
        self.running().secret().to_owned()
    }

    fn api(&self) -> tidings::realtime::RealtimeClient {
        self.running().client().unwrap()
    }

    fn kill(&mut self) -> impl Future<Output = ()> {
        let running = self.running.take();
        async move {
            if let Some(running) = running {
                running.shutdown().await;
            }
        }
    }

    fn restart(&mut self) -> impl Future<Output = ()> {
        let addr = self.addr;
        let config = self.config.clone();
        let slot = &mut self.running;
        async move {
            // The port was just released; binding it again may need a moment.
            for _ in 0..50 {
                match RealtimeSandbox::start(config.clone().addr(addr)).await {
                    Ok(running) => {
                        *slot = Some(running);
                        return;
                    }
                    Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                }
            }
            panic!("the sandbox could not listen on {addr} again");
        }
    }

    fn restart_timeout(&self) -> Duration {
        Duration::from_secs(15)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sandbox_events_survive_drops_delays_garbage_cuts_and_restarts_with_every_loss_accounted() {
    let server = Sandbox::start().await;
    let outcome = scenario::run(server).await;
    println!("realtime sandbox {outcome}");
}
