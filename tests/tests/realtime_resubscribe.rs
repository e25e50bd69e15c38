//! Regression test of issue 18: `wait_for(Connected)` then `subscribe()` sent the subscription
//! twice (the connect path resubscribed every known channel while the queued subscribe
//! command was also sent), so `pusher_internal:subscription_succeeded` arrived twice. Repeats
//! the sequence against sockudo and counts the confirmations per channel.
#![allow(clippy::unwrap_used)]

mod realtime_common;

use std::time::Duration;

use realtime_common::{KEY, SECRET, Sockudo};
use tidings::pusher::{self, ConnectionEvent, ConnectionState, Frame};
use tokio::sync::broadcast;

const WAIT: Duration = Duration::from_secs(10);
const RUNS: usize = 60;

/// `subscription_succeeded` frames for `channel` until the pong that answers our ping: the
/// server answers a connection's frames in order, so by then any second one has come.
async fn confirmations_until_pong(
    events: &mut broadcast::Receiver<ConnectionEvent>,
    channel: &str,
) -> usize {
    let mut count = 0;
    tokio::time::timeout(WAIT, async {
        loop {
            match events.recv().await {
                Ok(ConnectionEvent::Frame(frame)) => {
                    if frame.event == "pusher_internal:subscription_succeeded"
                        && frame.channel.as_deref() == Some(channel)
                    {
                        count += 1;
                    }
                    if frame.event == "pusher:pong" {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => panic!("connection events: {e}"),
            }
        }
    })
    .await
    .expect("a pong in time");
    count
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribing_right_after_connected_is_confirmed_exactly_once() {
    let s = Sockudo::start(None);
    let mut counts = Vec::new();
    for run in 0..RUNS {
        // Public and private channels alternate: private ones go through the authorizer.
        let channel = if run % 2 == 0 {
            format!("race-{run}")
        } else {
            format!("private-race-{run}")
        };
        let connection = pusher::connection(&s.ws_url(), KEY)
            .authorizer(pusher::local_authorizer(KEY, SECRET))
            .connect()
            .unwrap();
        let mut events = connection.events();
        connection
            .wait_for(ConnectionState::Connected, WAIT)
            .await
            .unwrap();
        let mut handle = connection.subscribe(&channel).unwrap();
        handle.wait_subscribed(WAIT).await.unwrap();
        connection.send_frame(Frame::new("pusher:ping")).unwrap();
        counts.push(confirmations_until_pong(&mut events, &channel).await);
        connection.disconnect();
    }
    let doubled = counts.iter().filter(|&&c| c != 1).count();
    assert_eq!(
        doubled, 0,
        "{doubled} of {RUNS} subscriptions were not confirmed exactly once: {counts:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resubscribing_after_a_failed_or_left_channel_still_sends_the_subscription() {
    let s = Sockudo::start(None);
    let connection = pusher::connection(&s.ws_url(), KEY)
        .authorizer(pusher::local_authorizer(KEY, SECRET))
        .connect()
        .unwrap();
    connection
        .wait_for(ConnectionState::Connected, WAIT)
        .await
        .unwrap();
    let mut events = connection.events();
    // Subscribe, leave, subscribe again: the second subscription must go out.
    let mut first = connection.subscribe("again").unwrap();
    first.wait_subscribed(WAIT).await.unwrap();
    connection.unsubscribe("again");
    let mut second = connection.subscribe("again").unwrap();
    second.wait_subscribed(WAIT).await.unwrap();
    connection.send_frame(Frame::new("pusher:ping")).unwrap();
    assert_eq!(confirmations_until_pong(&mut events, "again").await, 2);
    // A second handle on a subscribed channel shares the subscription: nothing is resent.
    let mut third = connection.subscribe("again").unwrap();
    third.wait_subscribed(WAIT).await.unwrap();
    connection.send_frame(Frame::new("pusher:ping")).unwrap();
    assert_eq!(confirmations_until_pong(&mut events, "again").await, 0);
    // After a reconnect every channel is subscribed once more, once.
    connection.reconnect();
    tokio::time::sleep(Duration::from_millis(50)).await;
    connection
        .wait_for(ConnectionState::Connected, WAIT)
        .await
        .unwrap();
    third.wait_subscribed(WAIT).await.unwrap();
    connection.send_frame(Frame::new("pusher:ping")).unwrap();
    assert_eq!(confirmations_until_pong(&mut events, "again").await, 1);
}
