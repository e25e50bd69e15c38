//! Throughput of the SMTP relay's pool, in the same run as its peers: lettre's own pooled
//! transport used directly; lettre's transport keeping no connection (`max_size(0)`: a
//! connection, TLS handshake, AUTH and QUIT per message, which is what the relay did before
//! the pool); and our relay with reuse off (`idle_timeout(ZERO)`). All send 1,000 messages to
//! the same STARTTLS sink on loopback (`smtp_common`, a minimal Rust sink), one at a time and
//! 8 in flight. The second test does the same over implicit TLS (port 465 style; lettre's
//! `Tls::Wrapper`), where the relay connects with its own socket and TLS handshake.
//!
//! ```console
//! $ cargo test --release -p tidings-tests --test smtp_bench -- --ignored --nocapture
//! ```

#![allow(clippy::unwrap_used, clippy::print_stdout)]

mod smtp_common;

use std::time::{Duration, Instant};

use futures_util::StreamExt as _;
use lettre::transport::smtp::PoolConfig;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use smtp_common::{KEY, Script, Sink, message};
use tidings_runtime::smtp::{SmtpRelay, SmtpTls};

const MESSAGES: usize = 1_000;
const ROUNDS: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Variant {
    Pooled,
    Lettre,
    PerMessage,
    Before,
}

struct Senders {
    pooled: SmtpRelay,
    per_message: SmtpRelay,
    lettre: AsyncSmtpTransport<Tokio1Executor>,
    before: AsyncSmtpTransport<Tokio1Executor>,
}

fn lettre_transport(sink: &Sink, max: u32, implicit: bool) -> AsyncSmtpTransport<Tokio1Executor> {
    let params = TlsParameters::builder("localhost".to_owned())
        .add_root_certificate(Certificate::from_pem(sink.cert_pem.as_bytes()).unwrap())
        .build_rustls()
        .unwrap();
    AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("localhost")
        .port(sink.port)
        .tls(if implicit {
            Tls::Wrapper(params)
        } else {
            Tls::Required(params)
        })
        .credentials(Credentials::new("apikey".into(), KEY.into()))
        .authentication(vec![Mechanism::Plain, Mechanism::Login])
        .timeout(Some(Duration::from_secs(20)))
        .pool_config(PoolConfig::new().max_size(max))
        .build()
}

/// Sends `MESSAGES` messages with `in_flight` at a time; the time taken.
async fn run(senders: &Senders, variant: Variant, in_flight: usize) -> Duration {
    let messages: Vec<_> = (0..MESSAGES).map(|i| message(&format!("b-{i}"))).collect();
    let start = Instant::now();
    let sends = futures_util::stream::iter(messages.iter().map(|m| async move {
        match variant {
            Variant::Pooled => {
                senders.pooled.send(m).await.unwrap();
            }
            Variant::PerMessage => {
                senders.per_message.send(m).await.unwrap();
            }
            Variant::Lettre => {
                senders.lettre.send(m.clone()).await.unwrap();
            }
            Variant::Before => {
                senders.before.send(m.clone()).await.unwrap();
            }
        }
    }))
    .buffer_unordered(in_flight);
    sends.collect::<Vec<()>>().await;
    start.elapsed()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: run with --release --ignored --nocapture"]
async fn smtp_relay_throughput_pooled_vs_lettre_pool_vs_one_connection_per_message() {
    compare(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: run with --release --ignored --nocapture"]
async fn smtp_relay_over_implicit_tls_pooled_vs_lettre_pool_vs_one_connection_per_message() {
    compare(true).await;
}

async fn compare(implicit: bool) {
    let sink = Sink::start(Script {
        implicit,
        ..Script::default()
    })
    .await;
    let tls = if implicit {
        SmtpTls::Implicit
    } else {
        SmtpTls::StartTls
    };
    for in_flight in [1usize, 8] {
        let senders = Senders {
            pooled: sink.relay().tls(tls).max_connections(8).build().unwrap(),
            per_message: sink
                .relay()
                .tls(tls)
                .max_connections(8)
                .idle_timeout(Duration::ZERO)
                .build()
                .unwrap(),
            lettre: lettre_transport(&sink, 8, implicit),
            before: lettre_transport(&sink, 0, implicit),
        };
        // Warm-up: open the pools' connections, fault in the code.
        for variant in [Variant::Pooled, Variant::Lettre] {
            run(&senders, variant, in_flight).await;
        }
        let mut times = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        let connections_before = sink.connections();
        for round in 0..ROUNDS {
            // Alternate the order so drift in the machine's load hits each side alike.
            let order = if round % 2 == 0 {
                [
                    Variant::Pooled,
                    Variant::Lettre,
                    Variant::PerMessage,
                    Variant::Before,
                ]
            } else {
                [
                    Variant::Before,
                    Variant::PerMessage,
                    Variant::Lettre,
                    Variant::Pooled,
                ]
            };
            for variant in order {
                let took = run(&senders, variant, in_flight).await;
                times[variant as usize].push(took);
            }
        }
        let [pooled, lettre, per_message, before] = times.map(median);
        let rate = |d: Duration| MESSAGES as f64 / d.as_secs_f64();
        println!(
            "{tls:?}, {in_flight} in flight, {MESSAGES} messages, median of {ROUNDS}: \
             pooled {:.0}/s, lettre pool {:.0}/s, ours reuse off {:.0}/s, \
             before (lettre, no reuse) {:.0}/s; pooled / lettre pool {:.2}, \
             pooled / before {:.2}, pooled / ours reuse off {:.2}; \
             connections opened in the timed rounds: {}",
            rate(pooled),
            rate(lettre),
            rate(per_message),
            rate(before),
            lettre.as_secs_f64() / pooled.as_secs_f64(),
            before.as_secs_f64() / pooled.as_secs_f64(),
            per_message.as_secs_f64() / pooled.as_secs_f64(),
            sink.connections() - connections_before,
        );
        senders.lettre.shutdown().await;
        senders.before.shutdown().await;
    }
    let accepted = sink.accepted().len();
    assert_eq!(accepted, 2 * MESSAGES * (2 + 4 * ROUNDS));
}
