//! Receive the messaging service's webhooks in an axum handler: verify the signature, decode
//! the typed event, answer 2xx quickly (the service retries anything else).
//!
//! ```console
//! $ cargo run -p tidings --example webhooks      # listens on 127.0.0.1:3000
//! $ cargo run -p tidings-sandbox -- --webhook-url http://127.0.0.1:3000/hooks/messaging
//! ```
//! and set `COMMS_MESSAGING_WEBHOOK_SECRET` to the secret the sandbox prints.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use tidings::http::HeaderMap;
use tidings::messaging::{MessagingEvent, WEBHOOK_SECRET_ENV, verify_webhook};

async fn receive(State(secret): State<Arc<String>>, headers: HeaderMap, body: Bytes) -> StatusCode {
    match verify_webhook(&secret, &headers, &body) {
        Ok(event) => {
            match &event {
                MessagingEvent::Unknown(value) => {
                    println!("an event this client does not know: {value}")
                }
                known => println!("verified: {known:?}"),
            }
            StatusCode::NO_CONTENT
        }
        // A forged, replayed or corrupted delivery: refuse it, and never act on its content.
        Err(e) => {
            eprintln!("refused a webhook: {e}");
            StatusCode::BAD_REQUEST
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let secret = std::env::var(WEBHOOK_SECRET_ENV)
        .map_err(|_| format!("set {WEBHOOK_SECRET_ENV} to the webhook secret"))?;
    let app = Router::new()
        .route("/hooks/messaging", post(receive))
        .with_state(Arc::new(secret));
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3000".into());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("listening on http://{addr}/hooks/messaging");
    axum::serve(listener, app).await?;
    Ok(())
}
