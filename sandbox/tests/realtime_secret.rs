//! The realtime app secret is never a value others know. Any page may open the realtime
//! WebSocket (the Pusher protocol's key is public), so a secret the page knows would let it
//! sign its own way into private and presence channels, and sign triggers.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod binary_support;

use std::time::{SystemTime, UNIX_EPOCH};

use binary_support::{Running, start};
use tidings_runtime::spec::Method;
use tidings_runtime::{PusherSigner, Secret, SignableRequest};
use tidings_sandbox::realtime::{RealtimeConfig, TEST_KEY};

/// What earlier builds gave every sandbox (it was in their documentation).
const PUBLIC_OLD_SECRET: &str = "sandbox-secret";

fn secret(running: &Running) -> String {
    running.info["env"]["COMMS_REALTIME_APP_SECRET"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A trigger signed with `secret`; the status.
async fn trigger(running: &Running, secret: &str) -> u16 {
    let app = running.info["env"]["COMMS_REALTIME_APP_ID"]
        .as_str()
        .unwrap();
    let key = running.info["env"]["COMMS_REALTIME_APP_KEY"]
        .as_str()
        .unwrap();
    let path = format!("/apps/{app}/events");
    let body = br#"{"name":"e","channels":["private-room"],"data":"{}"}"#;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let parts = PusherSigner::new(key, Secret::new(secret)).sign_at(
        &SignableRequest::new(&Method::Post, &path, &[], Some(body)),
        i64::try_from(now).unwrap(),
    );
    reqwest::Client::new()
        .post(format!("{}{path}", running.url("realtime")))
        .query(&parts.query)
        .header("content-type", "application/json")
        .body(body.to_vec())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[test]
fn the_library_makes_a_new_random_secret_for_each_config() {
    let (a, b) = (RealtimeConfig::default(), RealtimeConfig::default());
    let (a, b) = (a.secret.expose(), b.secret.expose());
    assert_ne!(a, b);
    assert_ne!(a, PUBLIC_OLD_SECRET);
    assert_eq!(a.len(), 32, "{a}");
    assert!(a.bytes().all(|c| c.is_ascii_hexdigit()), "{a}");
    // The key stays the documented one: it is public by design.
    assert_eq!(RealtimeConfig::default().key, TEST_KEY);
}

#[tokio::test]
async fn the_binary_makes_its_secret_keeps_it_in_data_and_replaces_the_old_public_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let log = dir.path().join("sandbox.log");

    let first = start(&["--data", data, "--no-smtp"], &log, "", &[]);
    let made = secret(&first);
    assert_ne!(made, PUBLIC_OLD_SECRET);
    assert_eq!(made.len(), 32, "{made}");
    // The printed secret is the one the service checks; the old public one signs nothing.
    assert_eq!(trigger(&first, &made).await, 200);
    assert_eq!(trigger(&first, PUBLIC_OLD_SECRET).await, 401);
    assert!(!first.stderr().contains(&made), "the log shows no secret");
    first.stop();

    // Kept across a restart, so an app's configuration stays valid.
    let second = start(&["--data", data, "--no-smtp"], &log, "", &[]);
    assert_eq!(secret(&second), made);
    second.stop();

    // A data directory from an earlier build that kept the public secret gets a new one.
    tidings_sandbox::store::Db::open(std::path::Path::new(data))
        .unwrap()
        .set_key("realtime_secret", PUBLIC_OLD_SECRET)
        .unwrap();
    let third = start(&["--data", data, "--no-smtp"], &log, "", &[]);
    let renewed = secret(&third);
    assert_ne!(renewed, PUBLIC_OLD_SECRET);
    assert_ne!(renewed, made);
    assert_eq!(trigger(&third, PUBLIC_OLD_SECRET).await, 401);
    assert!(
        third
            .wait_log("was the public one of earlier builds")
            .contains("a new one is made"),
        "{}",
        third.stderr()
    );
    third.stop();

    // Given with the flag, it is used as given (and kept).
    let fourth = start(
        &[
            "--data",
            data,
            "--no-smtp",
            "--realtime-secret",
            "mine-0123",
        ],
        &log,
        "",
        &[],
    );
    assert_eq!(secret(&fourth), "mine-0123");
    assert_eq!(trigger(&fourth, "mine-0123").await, 200);
    fourth.stop();

    // Without --data, each start makes its own.
    let a = start(&["--no-smtp"], &dir.path().join("a.log"), "", &[]);
    let b = start(&["--no-smtp"], &dir.path().join("b.log"), "", &[]);
    assert_ne!(secret(&a), secret(&b));
    a.stop();
    b.stop();
}
