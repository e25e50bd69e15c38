//! Realtime publish and subscribe: a WebSocket client subscribes to a private channel, the app
//! server triggers an event through the signed HTTP API, the client receives it.
//!
//! ```console
//! $ cargo run -p tidings-sandbox                 # in one terminal; paste its exports in the next
//! $ cargo run -p tidings --example realtime
//! ```

use std::time::Duration;

use tidings::pusher::{self, ConnectionState};
use tidings::realtime::RealtimeClient;
use tidings::serde_json;

const WAIT: Duration = Duration::from_secs(10);

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The app server: COMMS_REALTIME_BASE_URL, _APP_ID, _APP_KEY, _APP_SECRET.
    let server = RealtimeClient::from_env()?;
    let key = std::env::var("COMMS_REALTIME_APP_KEY")?;
    let secret = std::env::var("COMMS_REALTIME_APP_SECRET")?;
    // The WebSocket endpoint: COMMS_REALTIME_WS_URL, else the HTTP base URL (the same server).
    let ws_url = std::env::var("COMMS_REALTIME_WS_URL")
        .or_else(|_| std::env::var("COMMS_REALTIME_BASE_URL"))?;

    // The client side (what a browser or app runs). Here it signs private channels locally
    // with the app secret; a real client asks its app server through an `Authorizer`.
    let connection = pusher::connection(&ws_url, &key)
        .authorizer(pusher::local_authorizer(&key, &secret))
        .connect()?;
    connection
        .wait_for(ConnectionState::Connected, WAIT)
        .await?;
    let mut channel = connection.subscribe("private-orders")?;
    channel.wait_subscribed(WAIT).await?;
    println!(
        "subscribed to private-orders as {:?}",
        connection.socket_id()
    );

    server
        .trigger(
            ["private-orders"],
            "order-shipped",
            &serde_json::json!({"order": 1042}),
        )
        .await?;

    let event = tokio::time::timeout(WAIT, async {
        while let Some(event) = channel.next_event().await {
            if event.event == "order-shipped" {
                return Some(event);
            }
        }
        None
    })
    .await?
    .ok_or("the channel closed")?;
    let data: serde_json::Value = event.data()?;
    println!("received {} on {}: {data}", event.event, event.channel);
    connection.disconnect();
    Ok(())
}
