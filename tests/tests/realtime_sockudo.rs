//! The realtime client against sockudo, the reference server of the Pusher protocol: every
//! HTTP operation, our WebSocket client on every channel kind, client events, presence,
//! sign-in, webhooks, and a server restart mid-stream.
#![allow(clippy::unwrap_used)]

mod realtime_common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use realtime_common::{APP_ID, KEY, MASTER_KEY, SECRET, Sockudo};
use tidings::pusher::{self, ConnectionEvent, ConnectionState, MasterKey};
use tidings::realtime::{BatchEvent, WebhookEvent};
use tidings_runtime::ErrorKind;
use tidings_runtime::realtime::{Channel, Connection};
use tidings_tests::{Reply, TestServer};

const WAIT: Duration = Duration::from_secs(10);

fn connect(s: &Sockudo, user: Option<&str>) -> Connection {
    let mut authorizer = pusher::local_authorizer(KEY, SECRET)
        .master_key(MasterKey::from_base64(MASTER_KEY).unwrap());
    if let Some(id) = user {
        authorizer = authorizer.user(id, serde_json::json!({"name": format!("user {id}")}));
    }
    pusher::connection(&s.ws_url(), KEY)
        .authorizer(authorizer)
        .connect()
        .unwrap()
}

async fn connected(s: &Sockudo, user: Option<&str>) -> Connection {
    let c = connect(s, user);
    c.wait_for(ConnectionState::Connected, WAIT).await.unwrap();
    c
}

async fn subscribed(c: &Connection, channel: &str) -> Channel {
    let mut ch = c.subscribe(channel).unwrap();
    ch.wait_subscribed(WAIT).await.unwrap();
    ch
}

/// The next event with this name (protocol events on the way are skipped).
async fn next_named(ch: &mut Channel, name: &str) -> pusher::ChannelEvent {
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

#[tokio::test]
async fn every_http_operation_is_accepted_and_a_wrong_secret_is_rejected() {
    let s = Sockudo::start(None);
    let client = s.client();
    let listener = connected(&s, Some("7")).await;
    let _presence = subscribed(&listener, "presence-room").await;

    let one = client
        .trigger(["news"], "headline", &serde_json::json!({"t": 1}))
        .await
        .unwrap();
    assert!(one.is_object(), "{one}");
    let many: Vec<String> = (0..100).map(|i| format!("c-{i}")).collect();
    client.trigger(many, "fanout", "x").await.unwrap();
    let batch = (0..10)
        .map(|i| BatchEvent::typed(&format!("b-{i}"), "batched", &i).unwrap())
        .collect();
    client.trigger_events(batch).await.unwrap();
    let channels = client
        .list_channels(
            &tidings::realtime::ListChannelsQuery::default()
                .filter_by_prefix("presence-")
                .info("user_count"),
        )
        .await
        .unwrap();
    assert_eq!(
        channels["channels"]["presence-room"]["user_count"], 1,
        "{channels}"
    );
    let info = client
        .get_channel(
            "presence-room",
            &tidings::realtime::GetChannelQuery::default().info("user_count,subscription_count"),
        )
        .await
        .unwrap();
    assert_eq!(info["occupied"], true, "{info}");
    let users = client.list_presence_users("presence-room").await.unwrap();
    assert_eq!(users["users"][0]["id"], "7", "{users}");
    client
        .send_to_user("7", "note", &serde_json::json!({"hi": true}))
        .await
        .unwrap();
    client.terminate_connections("7").await.unwrap();

    // Checked before sending: nothing reaches the server.
    let err = client.trigger(["bad name"], "e", "x").await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    let too_many: Vec<String> = (0..101).map(|i| format!("c-{i}")).collect();
    assert_eq!(
        client.trigger(too_many, "e", "x").await.unwrap_err().kind(),
        ErrorKind::InvalidRequest
    );
    let big = "x".repeat(10_241);
    assert_eq!(
        client
            .trigger(["news"], "e", &big)
            .await
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidRequest
    );
    let eleven = (0..11)
        .map(|i| BatchEvent::typed("b", "e", &i).unwrap())
        .collect();
    assert_eq!(
        client.trigger_events(eleven).await.unwrap_err().kind(),
        ErrorKind::InvalidRequest
    );

    // A wrong secret: the server refuses, and its own words are kept.
    let wrong = s.client_with_secret("not-the-secret");
    let err = wrong.trigger(["news"], "e", "x").await.unwrap_err();
    assert_eq!(err.status(), Some(401), "{err:?}");
    assert_eq!(err.kind(), ErrorKind::Auth);
    let text = err.to_string();
    assert!(!text.contains("not-the-secret"), "{text}");
    match &err {
        tidings::Error::Auth(api) => assert!(!api.body_excerpt.is_empty(), "{api:?}"),
        other => panic!("{other:?}"),
    }
    let err = wrong.list_channels(&Default::default()).await.unwrap_err();
    assert_eq!(err.status(), Some(401), "{err:?}");
}

#[tokio::test]
async fn our_trigger_reaches_our_client_on_public_private_presence_and_encrypted_channels() {
    let s = Sockudo::start(None);
    let client = s.client();
    let c = connected(&s, Some("42")).await;
    let master = MasterKey::from_base64(MASTER_KEY).unwrap();
    for channel in [
        "news",
        "private-orders",
        "presence-lobby",
        "private-encrypted-vault",
    ] {
        let mut ch = subscribed(&c, channel).await;
        let payload = serde_json::json!({"on": channel, "n": 1});
        if channel.starts_with("private-encrypted-") {
            client
                .trigger_encrypted(channel, "secret-event", &payload, &master)
                .await
                .unwrap();
            let e = next_named(&mut ch, "secret-event").await;
            assert_eq!(e.data::<serde_json::Value>().unwrap(), payload, "decrypted");
        } else {
            client
                .trigger([channel], "app-event", &payload)
                .await
                .unwrap();
            let e = next_named(&mut ch, "app-event").await;
            assert_eq!(e.channel, channel);
            assert_eq!(e.data::<serde_json::Value>().unwrap(), payload);
        }
    }
    // The sender's own socket can be left out.
    let mut news = subscribed(&c, "news-2").await;
    let me = c.socket_id().unwrap();
    let request = tidings::realtime::TriggerEventRequest::typed(["news-2"], "skip-me", "x")
        .unwrap()
        .excluding(&me)
        .unwrap();
    client.trigger_event(&request).await.unwrap();
    client.trigger(["news-2"], "after", "y").await.unwrap();
    assert_eq!(
        next_named(&mut news, "after").await.data.as_deref(),
        Some("y")
    );
}

#[tokio::test]
async fn client_events_travel_between_two_of_our_clients() {
    let s = Sockudo::start(None);
    let a = connected(&s, Some("a")).await;
    let b = connected(&s, Some("b")).await;
    let ch_a = subscribed(&a, "private-chat").await;
    let mut ch_b = subscribed(&b, "private-chat").await;
    ch_a.trigger("client-typing", &serde_json::json!({"who": "a"}))
        .unwrap();
    let e = next_named(&mut ch_b, "client-typing").await;
    assert_eq!(e.data::<serde_json::Value>().unwrap()["who"], "a");
    // Only client- names, only on private and presence channels, at most 10 per second.
    assert_eq!(
        ch_a.trigger("typing", "x").unwrap_err().kind(),
        ErrorKind::InvalidRequest
    );
    let public = subscribed(&a, "public-chat").await;
    assert_eq!(
        public.trigger("client-x", "x").unwrap_err().kind(),
        ErrorKind::InvalidRequest
    );
    let sent = (0..20)
        .filter(|_| ch_a.trigger("client-burst", "x").is_ok())
        .count();
    assert!(sent <= 10, "sent {sent} in one second");
    assert_eq!(
        ch_a.trigger("client-burst", "x").unwrap_err().kind(),
        ErrorKind::RateLimited
    );
}

#[tokio::test]
async fn presence_members_are_tracked_as_users_join_and_leave() {
    let s = Sockudo::start(None);
    let a = connected(&s, Some("alice")).await;
    let mut room = subscribed(&a, "presence-team").await;
    let members = room.members().unwrap();
    assert_eq!(members.count(), 1);
    assert_eq!(members.me().unwrap().user_info["name"], "user alice");

    let b = connected(&s, Some("bob")).await;
    let room_b = subscribed(&b, "presence-team").await;
    assert_eq!(room_b.members().unwrap().count(), 2);
    let joined = next_named(&mut room, "pusher_internal:member_added").await;
    assert_eq!(
        joined.data::<serde_json::Value>().unwrap()["user_id"],
        "bob"
    );
    assert_eq!(
        room.members().unwrap().get("bob").unwrap().user_info["name"],
        "user bob"
    );

    b.disconnect();
    let left = next_named(&mut room, "pusher_internal:member_removed").await;
    assert_eq!(left.data::<serde_json::Value>().unwrap()["user_id"], "bob");
    assert_eq!(room.members().unwrap().count(), 1);
}

#[tokio::test]
async fn signed_in_users_get_their_events_and_can_be_terminated() {
    let s = Sockudo::start(None);
    let c = connected(&s, Some("u-9")).await;
    let user_data = c.signin(WAIT).await.unwrap();
    assert!(user_data.contains("u-9"), "{user_data}");
    let mut mine = pusher::user_channel(&c, "u-9");
    // The server joins the user's channel just after sign-in.
    tokio::time::sleep(Duration::from_millis(300)).await;
    s.client()
        .send_to_user("u-9", "direct", &serde_json::json!({"x": 1}))
        .await
        .unwrap();
    assert_eq!(
        next_named(&mut mine, "direct").await.data.as_deref(),
        Some(r#"{"x":1}"#)
    );
    let mut states = c.state_changes();
    s.client().terminate_connections("u-9").await.unwrap();
    let change = tokio::time::timeout(WAIT, states.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(change.previous, ConnectionState::Connected, "{change:?}");
}

#[tokio::test]
async fn webhooks_from_sockudo_are_received_and_verified() {
    let received = Arc::new(Mutex::new(Vec::new()));
    let store = received.clone();
    let hook = TestServer::start(move |r| {
        store.lock().unwrap().push(r.clone());
        Reply::json(200, serde_json::json!({}))
    })
    .await;
    let s = Sockudo::start(Some(&format!("{}/hooks", hook.url())));
    let a = connected(&s, Some("w1")).await;
    let _room = subscribed(&a, "presence-hooks").await;
    let b = connected(&s, Some("w2")).await;
    let ch_b = subscribed(&b, "presence-hooks").await;
    ch_b.trigger("client-hello", &serde_json::json!({"w": 2}))
        .unwrap();

    let mut names = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while tokio::time::Instant::now() < deadline {
        names.clear();
        for r in received.lock().unwrap().iter() {
            let mut headers = tidings_runtime::reqwest::header::HeaderMap::new();
            for (k, v) in &r.headers {
                headers.insert(
                    tidings_runtime::reqwest::header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                    v.parse().unwrap(),
                );
            }
            let body = pusher::verify_webhook(Some(KEY), SECRET, &headers, &r.body)
                .unwrap_or_else(|e| panic!("webhook does not verify: {e}"));
            assert!(pusher::verify_webhook(Some(KEY), "wrong", &headers, &r.body).is_err());
            for e in body.events {
                names.push(match e {
                    WebhookEvent::ChannelOccupied(c) => format!("occupied {}", c.channel),
                    WebhookEvent::MemberAdded(m) => format!("member_added {}", m.user_id),
                    WebhookEvent::ClientEvent(c) => format!("client_event {} {}", c.event, c.data),
                    other => format!("{other:?}"),
                });
            }
        }
        if names.iter().any(|n| n.starts_with("client_event"))
            && names.iter().any(|n| n == "member_added w2")
            && names.iter().any(|n| n == "occupied presence-hooks")
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("webhooks seen: {names:?}\nsockudo log: {}", s.log());
}

#[tokio::test]
async fn the_client_reconnects_and_resubscribes_after_sockudo_restarts() {
    let mut s = Sockudo::start(None);
    let c = connected(&s, Some("r1")).await;
    let mut public = subscribed(&c, "ticker").await;
    let mut private = subscribed(&c, "private-ticker").await;
    let first_socket = c.socket_id().unwrap();
    let mut states = c.state_changes();
    let mut events = c.events();

    s.kill();
    let lost = tokio::time::timeout(WAIT, states.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(lost.previous, ConnectionState::Connected);
    s.restart();
    c.wait_for(ConnectionState::Connected, Duration::from_secs(40))
        .await
        .unwrap();
    assert_ne!(
        c.socket_id().unwrap(),
        first_socket,
        "a new socket id after reconnecting"
    );
    public.wait_subscribed(WAIT).await.unwrap();
    private.wait_subscribed(WAIT).await.unwrap();
    let client = s.client();
    client.trigger(["ticker"], "tick", "1").await.unwrap();
    client
        .trigger(["private-ticker"], "tick", "2")
        .await
        .unwrap();
    assert_eq!(
        next_named(&mut public, "tick").await.data.as_deref(),
        Some("1")
    );
    assert_eq!(
        next_named(&mut private, "tick").await.data.as_deref(),
        Some("2")
    );
    // The problem was reported, not hidden.
    let mut saw_error = false;
    while let Ok(e) = events.try_recv() {
        saw_error |= matches!(e, ConnectionEvent::Error { .. });
    }
    assert!(
        saw_error,
        "the lost connection is reported as an error event"
    );
}

#[tokio::test]
async fn a_subscription_the_server_refuses_fails_without_breaking_the_connection() {
    let s = Sockudo::start(None);
    // An authorizer that signs with the wrong secret.
    let c = pusher::connection(&s.ws_url(), KEY)
        .authorizer(pusher::local_authorizer(KEY, "wrong-secret"))
        .connect()
        .unwrap();
    c.wait_for(ConnectionState::Connected, WAIT).await.unwrap();
    let mut ch = c.subscribe("private-nope").unwrap();
    let err = ch.wait_subscribed(WAIT).await.unwrap_err();
    assert!(err.to_string().contains("private-nope"), "{err}");
    let _ok = subscribed(&c, "still-fine").await;
    assert_eq!(c.state(), ConnectionState::Connected);
    let _ = APP_ID;
}
