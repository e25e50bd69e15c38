//! The SMTP relay's connection pool against a real STARTTLS sink on loopback: reuse, the
//! connection bound, the idle timeout, and replacing connections the relay closed without
//! ever delivering a message twice.

#![allow(clippy::unwrap_used)]

mod smtp_common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use smtp_common::{Script, Sink, message};
use tidings_runtime::{ErrorKind, RetryPolicy};

#[tokio::test]
async fn messages_sent_one_after_another_share_one_connection() {
    let sink = Sink::start(Script::default()).await;
    let relay = sink.relay().build().unwrap();
    for i in 0..5 {
        let receipt = relay.send(&message(&format!("m-{i}"))).await.unwrap();
        assert_eq!(receipt.code, 250);
    }
    assert_eq!(sink.accepted(), ["m-0", "m-1", "m-2", "m-3", "m-4"]);
    assert_eq!(
        sink.connections(),
        1,
        "one TLS handshake and AUTH for five messages"
    );
    assert_eq!(sink.stats.quits.load(Ordering::SeqCst), 0, "kept open");
}

#[tokio::test]
async fn concurrent_sends_never_open_more_than_max_connections() {
    let sink = Sink::start(Script {
        data_delay: Duration::from_millis(40),
        ..Script::default()
    })
    .await;
    let relay = sink.relay().max_connections(2).build().unwrap();
    let sends = (0..10).map(|i| {
        let relay = relay.clone();
        tokio::spawn(async move { relay.send(&message(&format!("c-{i}"))).await })
    });
    for send in futures_util::future::join_all(sends).await {
        assert_eq!(send.unwrap().unwrap().code, 250);
    }
    assert_eq!(sink.accepted().len(), 10);
    assert_eq!(sink.stats.max_open.load(Ordering::SeqCst), 2);
    assert_eq!(sink.connections(), 2, "the waiting sends reused the two");
}

#[tokio::test]
async fn max_connections_outside_1_to_the_limit_is_a_config_error() {
    let sink = Sink::start(Script::default()).await;
    for max in [0, tidings_runtime::smtp::MAX_CONNECTIONS_LIMIT + 1] {
        let err = sink.relay().max_connections(max).build().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Config, "{err}");
        assert!(err.to_string().contains("max_connections"), "{err}");
    }
}

#[tokio::test]
async fn a_connection_idle_past_the_timeout_is_closed_with_quit() {
    let sink = Sink::start(Script::default()).await;
    let relay = sink
        .relay()
        .idle_timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    relay.send(&message("before")).await.unwrap();
    assert_eq!(sink.stats.open.load(Ordering::SeqCst), 1);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        sink.stats.quits.load(Ordering::SeqCst),
        1,
        "closed politely"
    );
    assert_eq!(sink.stats.open.load(Ordering::SeqCst), 0);
    relay.send(&message("after")).await.unwrap();
    assert_eq!(sink.connections(), 2);
    assert_eq!(sink.accepted(), ["before", "after"]);
}

#[tokio::test]
async fn a_connection_the_relay_closed_is_replaced_and_each_message_delivered_once() {
    // The sink hangs up after every message, as a relay whose idle timer fired.
    let sink = Sink::start(Script {
        close_after: Some(1),
        ..Script::default()
    })
    .await;
    // No retry policy: the replacement alone must carry the message.
    let relay = sink.relay().retry(RetryPolicy::none()).build().unwrap();
    for i in 0..3 {
        relay.send(&message(&format!("r-{i}"))).await.unwrap();
    }
    assert_eq!(sink.accepted(), ["r-0", "r-1", "r-2"]);
    assert_eq!(sink.connections(), 3);
    assert_eq!(
        sink.stats.contents.load(Ordering::SeqCst),
        3,
        "no content sent twice"
    );
}

#[tokio::test]
async fn a_421_on_a_reused_connection_is_replaced_transparently() {
    let sink = Sink::start(Script {
        mail_421_on_reuse: true,
        ..Script::default()
    })
    .await;
    // No retry policy: 421 is transient, but the replacement alone must carry the message.
    let relay = sink.relay().retry(RetryPolicy::none()).build().unwrap();
    relay.send(&message("first")).await.unwrap();
    let receipt = relay.send(&message("second")).await.unwrap();
    assert_eq!(receipt.code, 250);
    assert_eq!(sink.accepted(), ["first", "second"]);
    assert_eq!(sink.connections(), 2);
}

#[tokio::test]
async fn a_connection_lost_after_the_content_went_out_is_not_retried() {
    // The sink reads the second message in full, then hangs up without answering: it may
    // have been accepted, so sending it again could deliver it twice.
    let sink = Sink::start(Script {
        drop_after_content_on_reuse: true,
        ..Script::default()
    })
    .await;
    let relay = sink.relay().build().unwrap();
    relay.send(&message("first")).await.unwrap();
    let err = relay.send(&message("second")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Transport, "{err}");
    assert_eq!(sink.stats.contents.load(Ordering::SeqCst), 2, "sent once");
    assert_eq!(sink.connections(), 1);
    // The broken connection was not put back: the next message gets a new one.
    relay.send(&message("third")).await.unwrap();
    assert_eq!(sink.accepted(), ["first", "third"]);
    assert_eq!(sink.connections(), 2);
}

#[tokio::test]
async fn a_zero_idle_timeout_opens_and_quits_a_connection_per_message() {
    let sink = Sink::start(Script::default()).await;
    let relay = sink.relay().idle_timeout(Duration::ZERO).build().unwrap();
    for i in 0..3 {
        relay.send(&message(&format!("p-{i}"))).await.unwrap();
    }
    assert_eq!(sink.accepted().len(), 3);
    assert_eq!(sink.connections(), 3);
    assert_eq!(sink.stats.quits.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn a_refused_connection_is_a_retryable_transport_error() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let relay = tidings_runtime::smtp::SmtpRelay::builder("127.0.0.1")
        .port(port)
        .api_key(smtp_common::KEY)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let err = relay.send(&message("nowhere")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Transport, "{err}");
    assert!(err.is_retryable());
    assert!(
        err.to_string().contains(&format!("127.0.0.1:{port}")),
        "{err}"
    );
}
