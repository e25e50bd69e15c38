//! Issue 27 item 7: after `wait_subscribed`, the first `next_event()` is the app's event, not
//! the protocol's `pusher_internal:subscription_succeeded` (public, private and presence
//! channels, against the realtime sandbox over a loopback WebSocket).
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use tidings::pusher::{self, ConnectionState};
use tidings_sandbox::realtime::{RealtimeConfig, RealtimeSandbox};

const WAIT: Duration = Duration::from_secs(10);

#[tokio::test]
async fn the_first_event_after_wait_subscribed_is_the_apps_own() {
    let s = RealtimeSandbox::start(RealtimeConfig::default())
        .await
        .unwrap();
    let conn = pusher::connection(&s.ws_url(), s.key())
        .authorizer(
            pusher::local_authorizer(s.key(), s.secret())
                .user("u1", serde_json::json!({"name": "Ada"})),
        )
        .connect()
        .unwrap();
    conn.wait_for(ConnectionState::Connected, WAIT)
        .await
        .unwrap();
    let client = s.client().unwrap();
    for name in ["orders", "private-orders", "presence-orders"] {
        let mut channel = conn.subscribe(name).unwrap();
        channel.wait_subscribed(WAIT).await.unwrap();
        client
            .trigger([name], "order-shipped", &serde_json::json!({"id": 7}))
            .await
            .unwrap();
        let first = tokio::time::timeout(WAIT, channel.next_event())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(first.event, "order-shipped", "{name}: {first:?}");
        assert_eq!(first.data::<serde_json::Value>().unwrap()["id"], 7);
        if name.starts_with("presence-") {
            assert_eq!(channel.members().unwrap().count(), 1, "members are state");
        }
        // Nothing else is waiting: no protocol event was queued behind it either.
        assert!(
            tokio::time::timeout(Duration::from_millis(200), channel.next_event())
                .await
                .is_err(),
            "{name}: only the app's event"
        );
    }
}
