//! Our realtime clients against the sandbox: the generated HTTP client (`RealtimeClient`) and
//! the runtime's WebSocket client (`tidings::pusher`), over real loopback sockets. Events reach
//! every channel kind, client events travel between clients, presence is tracked, sign-in and
//! termination work, and what the protocol forbids is refused by the server itself (frames
//! sent raw, past our client's own checks).
#![allow(clippy::unwrap_used)]

mod realtime_common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use realtime_common::*;
use tidings::pusher::{self, ConnectionEvent, ConnectionState, Frame, MasterKey};
use tidings::realtime::{BatchEvent, GetChannelQuery, ListChannelsQuery, TriggerEventRequest};
use tidings_runtime::reqwest;
use tidings_runtime::spec::Method;
use tidings_runtime::{ErrorKind, PusherSigner, Secret, SignableRequest};
use tidings_sandbox::realtime::{RealtimeConfig, RealtimeSandbox, codes};

#[tokio::test]
async fn our_trigger_reaches_our_client_on_public_private_presence_and_encrypted_channels() {
    let s = sandbox().await;
    let client = s.client().unwrap();
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
            let answer = client
                .trigger([channel], "app-event", &payload)
                .await
                .unwrap();
            assert!(answer.is_object(), "{answer}");
            let e = next_named(&mut ch, "app-event").await;
            assert_eq!(e.channel, channel);
            assert_eq!(e.data::<serde_json::Value>().unwrap(), payload);
        }
    }
    // The sender's own socket can be left out; others still get it.
    let other = connected(&s, None).await;
    let mut mine = subscribed(&c, "news-2").await;
    let mut theirs = subscribed(&other, "news-2").await;
    let request = TriggerEventRequest::typed(["news-2"], "skip-me", "x")
        .unwrap()
        .excluding(&c.socket_id().unwrap())
        .unwrap();
    client.trigger_event(&request).await.unwrap();
    client.trigger(["news-2"], "after", "y").await.unwrap();
    assert_eq!(
        next_named(&mut theirs, "skip-me").await.data.as_deref(),
        Some("x")
    );
    let first_after = tokio::time::timeout(WAIT, async {
        loop {
            let e = mine.next_event().await.unwrap();
            if !e.event.starts_with("pusher") {
                return e;
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(
        first_after.event, "after",
        "the excluded socket got {first_after:?}"
    );
    // Many channels at once, and a batch.
    let many: Vec<String> = (0..100).map(|i| format!("fan-{i}")).collect();
    let mut last = subscribed(&other, "fan-99").await;
    client.trigger(many, "fanout", "z").await.unwrap();
    assert_eq!(
        next_named(&mut last, "fanout").await.data.as_deref(),
        Some("z")
    );
    let batch = (0..10)
        .map(|i| BatchEvent::typed("fan-99", &format!("batched-{i}"), &i).unwrap())
        .collect();
    client.trigger_events(batch).await.unwrap();
    assert_eq!(
        next_named(&mut last, "batched-9").await.data.as_deref(),
        Some("9")
    );
    s.shutdown().await;
}

#[tokio::test]
async fn the_http_api_reports_channels_and_members() {
    let s = sandbox().await;
    let client = s.client().unwrap();
    let a = connected(&s, Some("7")).await;
    let b = connected(&s, Some("8")).await;
    let _pa = subscribed(&a, "presence-room").await;
    let _pb = subscribed(&b, "presence-room").await;
    let _pub = subscribed(&a, "lobby").await;

    let all = client
        .list_channels(&ListChannelsQuery::default())
        .await
        .unwrap();
    assert_eq!(all["channels"]["lobby"], serde_json::json!({}), "{all}");
    assert!(all["channels"]["presence-room"].is_object(), "{all}");
    let presence = client
        .list_channels(
            &ListChannelsQuery::default()
                .filter_by_prefix("presence-")
                .info("user_count"),
        )
        .await
        .unwrap();
    assert_eq!(
        presence["channels"]["presence-room"]["user_count"], 2,
        "{presence}"
    );
    assert!(presence["channels"].get("lobby").is_none(), "{presence}");
    // user_count is for presence channels only.
    let err = client
        .list_channels(&ListChannelsQuery::default().info("user_count"))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(400), "{err:?}");

    let info = client
        .get_channel(
            "presence-room",
            &GetChannelQuery::default().info("user_count,subscription_count"),
        )
        .await
        .unwrap();
    assert_eq!(
        info,
        serde_json::json!({"occupied": true, "user_count": 2, "subscription_count": 2})
    );
    let vacant = client
        .get_channel("nobody-here", &GetChannelQuery::default())
        .await
        .unwrap();
    assert_eq!(vacant, serde_json::json!({"occupied": false}));
    let users = client.list_presence_users("presence-room").await.unwrap();
    assert_eq!(
        users,
        serde_json::json!({"users": [{"id": "7"}, {"id": "8"}]})
    );
    let err = client.list_presence_users("lobby").await.unwrap_err();
    assert_eq!(err.status(), Some(400), "{err:?}");
    s.shutdown().await;
}

/// Sends a request signed by the runtime's signer, with our own query and body: for what the
/// generated client refuses to send.
async fn signed(
    s: &RealtimeSandbox,
    secret: &str,
    method: Method,
    path: &str,
    body: Option<&str>,
    timestamp_offset: i64,
) -> (u16, String) {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let signer = PusherSigner::new(s.key(), Secret::new(secret));
    let parts = signer.sign_at(
        &SignableRequest::new(&method, path, &[], body.map(str::as_bytes)),
        now + timestamp_offset,
    );
    let mut request = reqwest::Client::new()
        .request(
            reqwest::Method::from_bytes(method.as_str().as_bytes()).unwrap(),
            format!("{}{path}", s.http_url()),
        )
        .query(&parts.query);
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_owned());
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn every_request_is_signature_checked_and_limits_are_enforced() {
    let s = sandbox().await;
    let path = format!("/apps/{}/events", s.app_id());
    let body = r#"{"name":"e","channel":"news","data":"x"}"#;
    assert_eq!(
        signed(&s, s.secret(), Method::Post, &path, Some(body), 0)
            .await
            .0,
        200
    );

    // A wrong secret: the generated client gets a 401 Auth error with the server's words.
    let wrong = tidings::realtime::RealtimeClient::builder()
        .base_url(s.http_url())
        .credential("app_id", s.app_id())
        .credential("key", s.key())
        .credential("secret", "not-the-secret")
        .credential("api_key", "unused")
        .build()
        .unwrap();
    let err = wrong.trigger(["news"], "e", "x").await.unwrap_err();
    assert_eq!(err.status(), Some(401), "{err:?}");
    assert_eq!(err.kind(), ErrorKind::Auth);
    assert!(!err.to_string().contains("not-the-secret"));
    match &err {
        tidings::Error::Auth(api) => {
            assert!(api.body_excerpt.contains("auth_signature"), "{api:?}")
        }
        other => panic!("{other:?}"),
    }
    for (status, what) in [
        (
            wrong
                .list_channels(&Default::default())
                .await
                .unwrap_err()
                .status(),
            "list",
        ),
        (
            wrong
                .list_presence_users("presence-x")
                .await
                .unwrap_err()
                .status(),
            "users",
        ),
        (
            wrong.terminate_connections("u").await.unwrap_err().status(),
            "terminate",
        ),
    ] {
        assert_eq!(status, Some(401), "{what}");
    }

    // Stale or future timestamps, a body that is not the signed one, no signature at all.
    let (status, text) = signed(&s, s.secret(), Method::Post, &path, Some(body), -601).await;
    assert_eq!(status, 401, "{text}");
    assert!(text.contains("600"), "{text}");
    assert_eq!(
        signed(&s, s.secret(), Method::Post, &path, Some(body), 700)
            .await
            .0,
        401
    );
    assert_eq!(
        signed(&s, s.secret(), Method::Post, &path, Some(body), 500)
            .await
            .0,
        200
    );
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let parts = PusherSigner::new(s.key(), Secret::new(s.secret())).sign_at(
        &SignableRequest::new(&Method::Post, &path, &[], Some(body.as_bytes())),
        now,
    );
    let tampered = reqwest::Client::new()
        .post(format!("{}{path}", s.http_url()))
        .query(&parts.query)
        .body(r#"{"name":"e","channel":"news","data":"y"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(tampered.status().as_u16(), 401);
    assert!(tampered.text().await.unwrap().contains("body_md5"));
    let unsigned = reqwest::Client::new()
        .get(format!("{}/apps/{}/channels", s.http_url(), s.app_id()))
        .send()
        .await
        .unwrap();
    assert_eq!(unsigned.status().as_u16(), 401);
    // Another app id is unknown.
    assert_eq!(
        signed(&s, s.secret(), Method::Get, "/apps/999/channels", None, 0)
            .await
            .0,
        404
    );

    // Limits the generated client checks before sending, enforced by the server too.
    let big =
        serde_json::json!({"name": "e", "channel": "news", "data": "x".repeat(10_241)}).to_string();
    let (status, text) = signed(&s, s.secret(), Method::Post, &path, Some(&big), 0).await;
    assert_eq!(status, 413, "{text}");
    let fits =
        serde_json::json!({"name": "e", "channel": "news", "data": "é".repeat(5_120)}).to_string();
    assert_eq!(
        signed(&s, s.secret(), Method::Post, &path, Some(&fits), 0)
            .await
            .0,
        200
    );
    let channels: Vec<String> = (0..101).map(|i| format!("c{i}")).collect();
    let too_many = serde_json::json!({"name": "e", "channels": channels, "data": "x"}).to_string();
    assert_eq!(
        signed(&s, s.secret(), Method::Post, &path, Some(&too_many), 0)
            .await
            .0,
        400
    );
    let batch_path = format!("/apps/{}/batch_events", s.app_id());
    let eleven: Vec<_> = (0..11)
        .map(|i| serde_json::json!({"name": "e", "channel": format!("b{i}"), "data": "x"}))
        .collect();
    let eleven = serde_json::json!({ "batch": eleven }).to_string();
    assert_eq!(
        signed(&s, s.secret(), Method::Post, &batch_path, Some(&eleven), 0)
            .await
            .0,
        400
    );
    let bad_name = r#"{"name":"e","channel":"has space","data":"x"}"#;
    assert_eq!(
        signed(&s, s.secret(), Method::Post, &path, Some(bad_name), 0)
            .await
            .0,
        400
    );
    let not_json = "{nope";
    assert_eq!(
        signed(&s, s.secret(), Method::Post, &path, Some(not_json), 0)
            .await
            .0,
        400
    );
    let object_data = r#"{"name":"e","channel":"news","data":{"a":1}}"#;
    assert_eq!(
        signed(&s, s.secret(), Method::Post, &path, Some(object_data), 0)
            .await
            .0,
        400
    );
    assert_eq!(
        signed(&s, s.secret(), Method::Get, &path, None, 0).await.0,
        405
    );
    s.shutdown().await;
}

#[tokio::test]
async fn client_events_travel_between_two_of_our_clients_and_the_server_enforces_the_rules() {
    let s = sandbox().await;
    let a = connected(&s, Some("a")).await;
    let b = connected(&s, Some("b")).await;
    let mut ch_a = subscribed(&a, "presence-chat").await;
    let mut ch_b = subscribed(&b, "presence-chat").await;
    ch_a.trigger("client-typing", &serde_json::json!({"who": "a"}))
        .unwrap();
    let e = next_named(&mut ch_b, "client-typing").await;
    assert_eq!(e.data::<serde_json::Value>().unwrap()["who"], "a");
    assert_eq!(
        e.user_id.as_deref(),
        Some("a"),
        "presence client events name the sender"
    );
    // Not echoed to the sender.
    none_named(&mut ch_a, "client-typing", Duration::from_millis(300)).await;

    // Raw frames, past our client's own checks: the server refuses them itself.
    let mut errors = a.events();
    let _public = subscribed(&a, "public-chat").await;
    a.send_frame(
        Frame::new("client-x")
            .with_channel("public-chat")
            .with_data(serde_json::json!({})),
    )
    .unwrap();
    let (message, _code, channel) = next_error(&mut errors).await;
    assert!(message.contains("public-chat"), "{message}");
    assert_eq!(channel.as_deref(), Some("public-chat"));
    a.send_frame(
        Frame::new("client-x")
            .with_channel("private-not-joined")
            .with_data(serde_json::json!({})),
    )
    .unwrap();
    let (message, code, _) = next_error(&mut errors).await;
    assert_eq!(code, Some(i64::from(codes::UNAUTHORIZED)), "{message}");

    // At most 10 per second per connection: the rest are dropped with error 4301.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    for i in 0..15 {
        a.send_frame(
            Frame::new("client-burst")
                .with_channel("presence-chat")
                .with_data(serde_json::json!({ "i": i })),
        )
        .unwrap();
    }
    let (message, code, _) = next_error(&mut errors).await;
    assert_eq!(
        code,
        Some(i64::from(codes::CLIENT_EVENT_RATE_LIMIT)),
        "{message}"
    );
    let mut received = 0;
    while tokio::time::timeout(
        Duration::from_millis(300),
        next_named(&mut ch_b, "client-burst"),
    )
    .await
    .is_ok()
    {
        received += 1;
    }
    assert_eq!(
        received, 10,
        "10 of 15 client events in one second get through"
    );
    assert_eq!(a.state(), ConnectionState::Connected);
    s.shutdown().await;
}

#[tokio::test]
async fn presence_members_are_tracked_as_users_join_and_leave() {
    let s = sandbox().await;
    let a = connected(&s, Some("alice")).await;
    let mut room = subscribed(&a, "presence-team").await;
    let members = room.members().unwrap();
    assert_eq!(members.count(), 1);
    assert_eq!(members.me().unwrap().user_info["name"], "user alice");

    let b = connected(&s, Some("bob")).await;
    let room_b = subscribed(&b, "presence-team").await;
    assert_eq!(room_b.members().unwrap().count(), 2);
    assert_eq!(
        room_b.members().unwrap().get("alice").unwrap().user_info["name"],
        "user alice"
    );
    let joined = next_named(&mut room, "pusher_internal:member_added").await;
    assert_eq!(
        joined.data::<serde_json::Value>().unwrap()["user_id"],
        "bob"
    );
    assert_eq!(
        room.members().unwrap().get("bob").unwrap().user_info["name"],
        "user bob"
    );

    // A second connection of bob is not a second member; its leaving removes nobody.
    let b2 = connected(&s, Some("bob")).await;
    let room_b2 = subscribed(&b2, "presence-team").await;
    assert_eq!(room_b2.members().unwrap().count(), 2);
    b2.disconnect();
    none_named(
        &mut room,
        "pusher_internal:member_removed",
        Duration::from_millis(300),
    )
    .await;

    b.disconnect();
    let left = next_named(&mut room, "pusher_internal:member_removed").await;
    assert_eq!(left.data::<serde_json::Value>().unwrap()["user_id"], "bob");
    assert_eq!(room.members().unwrap().count(), 1);

    // Unsubscribing leaves too.
    let c = connected(&s, Some("carol")).await;
    let _room_c = subscribed(&c, "presence-team").await;
    next_named(&mut room, "pusher_internal:member_added").await;
    c.unsubscribe("presence-team");
    let left = next_named(&mut room, "pusher_internal:member_removed").await;
    assert_eq!(
        left.data::<serde_json::Value>().unwrap()["user_id"],
        "carol"
    );
    s.shutdown().await;
}

#[tokio::test]
async fn refused_subscriptions_fail_without_breaking_the_connection() {
    let s = sandbox().await;
    // An authorizer that signs with the wrong secret.
    let c = connect_with_secret(&s, Some("x"), "wrong-secret");
    c.wait_for(ConnectionState::Connected, WAIT).await.unwrap();
    for channel in ["private-nope", "presence-nope", "private-encrypted-nope"] {
        let mut ch = c.subscribe(channel).unwrap();
        let err = ch.wait_subscribed(WAIT).await.unwrap_err();
        assert!(err.to_string().contains(channel), "{err}");
    }
    let _ok = subscribed(&c, "still-fine").await;
    assert_eq!(c.state(), ConnectionState::Connected);

    // Raw subscribe frames: no auth, a presence subscription without channel_data, another
    // user's channel, a reserved name.
    let mut errors = c.events();
    for data in [
        serde_json::json!({"channel": "private-raw"}),
        serde_json::json!({"channel": "presence-raw", "auth": format!("{}:00", s.key())}),
        serde_json::json!({"channel": "#server-to-user-someone"}),
        serde_json::json!({"channel": "bad name"}),
    ] {
        let channel = data["channel"].as_str().unwrap().to_owned();
        c.send_frame(Frame::new("pusher:subscribe").with_data(data))
            .unwrap();
        let (message, _code, on) = next_error(&mut errors).await;
        assert_eq!(on.as_deref(), Some(channel.as_str()), "{message}");
    }
    assert_eq!(c.state(), ConnectionState::Connected);
    s.shutdown().await;
}

#[tokio::test]
async fn a_wrong_key_is_refused_with_4001() {
    let s = sandbox().await;
    let c = pusher::connection(&s.ws_url(), "not-the-key")
        .connect()
        .unwrap();
    let mut events = c.events();
    let err = c
        .wait_for(ConnectionState::Connected, WAIT)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("failed"), "{err}");
    let mut codes_seen = Vec::new();
    while let Ok(e) = events.try_recv() {
        if let ConnectionEvent::Error {
            code: Some(code), ..
        } = e
        {
            codes_seen.push(code);
        }
    }
    assert!(
        codes_seen.contains(&i64::from(codes::APP_DOES_NOT_EXIST)),
        "{codes_seen:?}"
    );
    assert_eq!(s.connection_count(), 0);
    s.shutdown().await;
}

#[tokio::test]
async fn signed_in_users_get_their_events_and_can_be_terminated() {
    let s = sandbox().await;
    let c = connected(&s, Some("u-9")).await;
    let user_data = c.signin(WAIT).await.unwrap();
    assert!(user_data.contains("u-9"), "{user_data}");
    let mut mine = pusher::user_channel(&c, "u-9");
    let client = s.client().unwrap();
    client
        .send_to_user("u-9", "direct", &serde_json::json!({"x": 1}))
        .await
        .unwrap();
    assert_eq!(
        next_named(&mut mine, "direct").await.data.as_deref(),
        Some(r#"{"x":1}"#)
    );
    // Someone else's direct events do not arrive.
    client.send_to_user("u-10", "not-mine", "x").await.unwrap();
    none_named(&mut mine, "not-mine", Duration::from_millis(300)).await;

    // A forged sign-in is refused.
    let other = connected(&s, None).await;
    let mut errors = other.events();
    other
        .send_frame(Frame::new("pusher:signin").with_data(serde_json::json!({
            "auth": format!("{}:deadbeef", s.key()), "user_data": r#"{"id":"u-9"}"#
        })))
        .unwrap();
    let (message, code, _) = next_error(&mut errors).await;
    assert_eq!(code, Some(i64::from(codes::UNAUTHORIZED)), "{message}");

    let mut states = c.state_changes();
    client.terminate_connections("u-9").await.unwrap();
    let change = tokio::time::timeout(WAIT, states.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(change.previous, ConnectionState::Connected, "{change:?}");
    assert_eq!(
        other.state(),
        ConnectionState::Connected,
        "only u-9 is terminated"
    );
    s.shutdown().await;
}

#[tokio::test]
async fn pings_are_answered_both_ways_and_silent_clients_are_closed() {
    let s = RealtimeSandbox::start(
        RealtimeConfig::default()
            .activity_timeout(Duration::from_secs(1))
            .pong_timeout(Duration::from_millis(500)),
    )
    .await
    .unwrap();
    // Our client pings after 200 ms of silence and gets pongs; the server's pings are answered.
    let c = pusher::connection(&s.ws_url(), s.key())
        .ping_after(Duration::from_millis(200))
        .connect()
        .unwrap();
    let mut events = c.events();
    c.wait_for(ConnectionState::Connected, WAIT).await.unwrap();
    let pong = tokio::time::timeout(WAIT, async {
        loop {
            if let ConnectionEvent::Frame(f) = events.recv().await.unwrap()
                && f.event == "pusher:pong"
            {
                return f;
            }
        }
    })
    .await;
    assert!(pong.is_ok(), "a pong for our ping");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(c.state(), ConnectionState::Connected);

    // A client that never answers (our client always does: a bare socket plays it) is
    // pinged, then closed with 4201.
    let raw = mute_client(&s).await;
    assert_eq!(raw, Some(codes::PONG_NOT_RECEIVED));
    s.shutdown().await;
}

/// Opens a WebSocket with a bare TCP handshake, reads frames without ever answering, and
/// returns the close code the server ends with.
async fn mute_client(s: &RealtimeSandbox) -> Option<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    let request = format!(
        "GET /app/{}?protocol=7 HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        s.key(),
        s.addr()
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let n = tokio::time::timeout_at(deadline, tcp.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        // Parse unmasked server frames after the HTTP head; look for a close frame (0x88).
        let Some(head_end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let mut i = head_end + 4;
        while i + 2 <= buf.len() {
            let opcode = buf[i] & 0x0f;
            let mut len = usize::from(buf[i + 1] & 0x7f);
            let mut start = i + 2;
            if len == 126 {
                if start + 2 > buf.len() {
                    break;
                }
                len = usize::from(u16::from_be_bytes([buf[start], buf[start + 1]]));
                start += 2;
            }
            if start + len > buf.len() {
                break;
            }
            if opcode == 0x8 && len >= 2 {
                return Some(u16::from_be_bytes([buf[start], buf[start + 1]]));
            }
            i = start + len;
        }
    }
    None
}

#[tokio::test]
async fn cache_channels_replay_the_last_event_or_report_a_miss() {
    let s = sandbox().await;
    let c = connected(&s, None).await;
    let mut events = c.events();
    let _empty = subscribed(&c, "cache-empty").await;
    let miss = tokio::time::timeout(WAIT, async {
        loop {
            if let ConnectionEvent::Frame(f) = events.recv().await.unwrap()
                && f.event == "pusher:cache_miss"
            {
                return f;
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(miss.channel.as_deref(), Some("cache-empty"));
    s.client()
        .unwrap()
        .trigger(["cache-prices"], "price", "42")
        .await
        .unwrap();
    let mut late = c.subscribe("cache-prices").unwrap();
    assert_eq!(
        next_named(&mut late, "price").await.data.as_deref(),
        Some("42")
    );
    s.shutdown().await;
}

#[tokio::test]
async fn shutdown_closes_connections_and_stops_listening() {
    let s = sandbox().await;
    let c = connected(&s, None).await;
    assert_eq!(s.connection_count(), 1);
    let addr = s.addr();
    let mut states = c.state_changes();
    s.shutdown().await;
    let change = tokio::time::timeout(WAIT, states.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(change.previous, ConnectionState::Connected);
    c.disconnect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "still listening"
    );
}

/// Close codes on demand: `sandbox:close` closes the connection with the code asked for, and
/// our client does what the protocol says for it: reconnect at once (42xx), after a backoff
/// (41xx), or not at all (40xx); a code outside 4000-4299 is a protocol error.
#[tokio::test]
async fn close_codes_on_demand_make_the_client_reconnect_or_fail_as_the_protocol_says() {
    let s = sandbox().await;
    let close =
        |code: i64| Frame::new("sandbox:close").with_data(serde_json::json!({"code": code}));
    let states_after = |c: &tidings::pusher::Connection, code: i64| {
        let mut states = c.state_changes();
        c.send_frame(close(code)).unwrap();
        async move {
            let mut seen = Vec::new();
            while let Ok(Ok(change)) = tokio::time::timeout(WAIT, states.recv()).await {
                seen.push(change.current);
                if matches!(
                    change.current,
                    ConnectionState::Connected | ConnectionState::Failed
                ) {
                    break;
                }
            }
            seen
        }
    };
    // 4200: reconnect at once; 4100: reconnect after a backoff.
    for code in [4200, 4100] {
        let c = connected(&s, None).await;
        let before = c.socket_id().unwrap();
        let seen = states_after(&c, code).await;
        assert_eq!(
            seen.last(),
            Some(&ConnectionState::Connected),
            "{code}: {seen:?}"
        );
        assert_ne!(c.socket_id().unwrap(), before, "{code}: a new connection");
    }
    // 4001: the client gives up.
    let c = connected(&s, None).await;
    let seen = states_after(&c, 4001).await;
    assert_eq!(seen.last(), Some(&ConnectionState::Failed), "{seen:?}");
    // Outside the range: an error frame, the connection stays.
    let c = connected(&s, None).await;
    let mut errors = c.events();
    c.send_frame(close(1000)).unwrap();
    let (message, _, _) = next_error(&mut errors).await;
    assert!(message.contains("outside 4000-4299"), "{message}");
    assert_eq!(c.state(), ConnectionState::Connected);
    s.shutdown().await;
}
