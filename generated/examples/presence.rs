//! Presence and end-to-end encrypted channels: two users join a presence channel and see each
//! other; the app server publishes on an encrypted channel, which only holders of the master key
//! can read (the realtime server relays ciphertext).
//!
//! ```console
//! $ cargo run -p tidings-sandbox                 # in one terminal; paste its exports in the next
//! $ cargo run -p tidings --example presence
//! ```

use std::time::Duration;

use tidings::pusher::{self, Connection, ConnectionState, MasterKey};
use tidings::realtime::RealtimeClient;
use tidings::serde_json;

const WAIT: Duration = Duration::from_secs(10);

/// A connection acting as `user`: its presence `channel_data` comes from the authorizer, which
/// also holds the master key encrypted channels are derived from.
async fn join(user: &str, master: &MasterKey) -> Result<Connection, Box<dyn std::error::Error>> {
    let key = std::env::var("COMMS_REALTIME_APP_KEY")?;
    let secret = std::env::var("COMMS_REALTIME_APP_SECRET")?;
    let ws_url = std::env::var("COMMS_REALTIME_WS_URL")
        .or_else(|_| std::env::var("COMMS_REALTIME_BASE_URL"))?;
    // A real client asks its app server to authorize; here the app secret signs locally.
    let authorizer = pusher::local_authorizer(&key, &secret)
        .user(user, serde_json::json!({ "name": user }))
        .master_key(master.clone());
    let connection = pusher::connection(&ws_url, &key)
        .authorizer(authorizer)
        .connect()?;
    connection
        .wait_for(ConnectionState::Connected, WAIT)
        .await?;
    Ok(connection)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = RealtimeClient::from_env()?;
    // 32 bytes shared by the app server and its clients, never by the realtime server. A real
    // app loads it from its secret store (`MasterKey::from_base64`).
    let master = MasterKey::new(*b"an example key of 32 bytes long.");

    // Presence: who is in the room, kept current as members come and go.
    let ada = join("ada", &master).await?;
    let mut ada_room = ada.subscribe("presence-room")?;
    ada_room.wait_subscribed(WAIT).await?;
    let grace = join("grace", &master).await?;
    let mut grace_room = grace.subscribe("presence-room")?;
    grace_room.wait_subscribed(WAIT).await?;
    let members = grace_room.members().ok_or("no member list")?;
    let mut names: Vec<String> = members.iter().map(|m| m.user_id).collect();
    names.sort();
    println!("presence-room members: {}", names.join(", "));

    // Encrypted: the server triggers sealed data; the subscriber's channel decrypts it.
    let mut notes = ada.subscribe("private-encrypted-notes")?;
    notes.wait_subscribed(WAIT).await?;
    server
        .trigger_encrypted(
            "private-encrypted-notes",
            "note",
            &serde_json::json!({ "text": "only key holders read this" }),
            &master,
        )
        .await?;
    let event = tokio::time::timeout(WAIT, async {
        while let Some(event) = notes.next_event().await {
            if event.event == "note" {
                return Some(event);
            }
        }
        None
    })
    .await?
    .ok_or("the channel closed")?;
    let data: serde_json::Value = event.data()?;
    println!("decrypted {} on {}: {data}", event.event, event.channel);

    grace.disconnect();
    ada.disconnect();
    Ok(())
}
