//! The environment the sandbox prints for `from_env()`: every name comes from the specs (the
//! generated `SERVICE` data), so renaming a variable in a spec renames it here too.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use tidings_sandbox::Sandbox;

#[tokio::test]
async fn sandbox_env_names_come_from_the_specs() {
    let sandbox = Sandbox::start().await.unwrap();
    let env = sandbox.env();
    let names: Vec<&str> = env.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names,
        [
            "COMMS_EMAIL_BASE_URL",
            "COMMS_EMAIL_API_KEY",
            "COMMS_MESSAGING_BASE_URL",
            "COMMS_MESSAGING_API_KEY",
            "COMMS_MESSAGING_WEBHOOK_SECRET",
            "COMMS_REALTIME_BASE_URL",
            "COMMS_REALTIME_APP_ID",
            "COMMS_REALTIME_APP_KEY",
            "COMMS_REALTIME_APP_SECRET",
        ]
    );
    // Each is what the spec names, and each has a value.
    for spec in [
        &tidings::email::SERVICE,
        &tidings::messaging::SERVICE,
        &tidings::realtime::SERVICE,
    ] {
        assert!(names.contains(&spec.base_url_env), "{}", spec.name);
    }
    assert!(names.contains(&tidings::messaging::WEBHOOK_SECRET_ENV));
    assert!(env.iter().all(|(_, value)| !value.is_empty()), "{env:?}");
    sandbox.shutdown().await;
}
