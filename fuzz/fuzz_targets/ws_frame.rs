//! One WebSocket text frame as the realtime client decodes it: `Frame::parse`, the generated
//! `ServerMessage::from_frame`, the payload shapes the connection reads (presence snapshots,
//! member events, encrypted data) and the text form. Must never panic.
#![no_main]

use tidings::realtime::ServerMessage;
use tidings_runtime::realtime::crypto::{self, EncryptedData, MasterKey};
use tidings_runtime::realtime::{Frame, Members};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(frame) = Frame::parse(text) else {
        return;
    };
    match ServerMessage::from_frame(&frame) {
        Ok(message) => {
            let _ = format!("{message:?}");
        }
        Err(e) => {
            let _ = (e.to_string(), format!("{e:?}"));
        }
    }
    let _ = frame.require_channel();
    let _ = frame.data_text();
    if let Ok(value) = frame.payload::<serde_json::Value>() {
        let presence = value
            .get("presence")
            .cloned()
            .unwrap_or(serde_json::Value::Null);
        let mut members = Members::from_snapshot(&presence, frame.user_id.clone());
        if let Some(id) = value.get("user_id").and_then(|v| v.as_str()) {
            members.add(
                id.to_owned(),
                value.get("user_info").cloned().unwrap_or_default(),
            );
            let _ = members.get(id);
            let _ = members.remove(id);
        }
        let _ = (members.count(), members.me(), members.iter().count());
    }
    if let Ok(sealed) = frame.payload::<EncryptedData>() {
        let master = MasterKey::new([7; 32]);
        let key = crypto::shared_secret(frame.channel.as_deref().unwrap_or(""), &master);
        let _ = crypto::decrypt(&key, &sealed);
    }
    // The text form is a frame again.
    let again = frame.to_text();
    assert!(Frame::parse(&again).is_ok(), "re-parsing {again:?}");
});
