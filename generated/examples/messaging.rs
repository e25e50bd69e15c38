//! Send on every channel of the messaging service, and tell errors apart by kind.
//!
//! ```console
//! $ cargo run -p tidings-sandbox                 # in one terminal; paste its exports in the next
//! $ cargo run -p tidings --example messaging
//! ```

use tidings::ErrorKind;
use tidings::messaging::{Message, MessagingClient};

#[tokio::main]
async fn main() -> Result<(), tidings::Error> {
    let messaging = MessagingClient::from_env()?;

    let sends = [
        Message::sms("+15550100", "+447700900123", "Your code is 123456"),
        Message::whatsapp_text("+15550100", "+447700900123", "Your table is ready."),
    ];
    for message in &sends {
        let sent = messaging.send_message(message).await?;
        println!("accepted as {}", sent.message_uuid);
    }

    // What an app does with each kind of failure.
    // A national number (no country code) is not E.164: refused before sending.
    let bad = Message::sms("+15550100", "07700 900123", "Your code is 123456");
    match messaging.send_message(&bad).await {
        Ok(sent) => println!("sent {}", sent.message_uuid),
        Err(e) => match e.kind() {
            ErrorKind::InvalidRequest => println!("fix the request: {e}"),
            ErrorKind::Auth => println!("check COMMS_MESSAGING_API_KEY: {e}"),
            ErrorKind::RateLimited => println!("slow down (retried already): {e}"),
            _ if e.is_retryable() => println!("try again later: {e}"),
            _ => println!("failed: {e}"),
        },
    }
    Ok(())
}
