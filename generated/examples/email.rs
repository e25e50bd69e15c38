//! Send an email over REST, follow its status, and page through the emails sent so far.
//!
//! Against the sandbox: start it in one terminal, paste its `export` lines into another, run:
//!
//! ```console
//! $ cargo run -p tidings-sandbox
//! $ cargo run -p tidings --example email
//! ```

use futures_util::TryStreamExt;
use tidings::ErrorKind;
use tidings::email::{EmailClient, ListEmailsQuery, SendEmailRequest};

#[tokio::main]
async fn main() -> Result<(), tidings::Error> {
    // COMMS_EMAIL_BASE_URL and COMMS_EMAIL_API_KEY (every missing variable is named at once).
    let email = EmailClient::from_env()?;

    let request = SendEmailRequest::new("Ada <ada@example.com>", ["grace@example.com"])
        .subject("Your order shipped")
        .text("It is on its way.")
        .html("<p>It is on <b>its way</b>.</p>")
        .tag("kind", "shipping");
    let sent = email.send_email(&request).await?;
    println!("queued {} ({})", sent.id, sent.status);

    let fetched = email.get_email(&sent.id).await?;
    println!("{} is now {:?}", fetched.id, fetched.status);

    // A request the client refuses before sending: nothing goes over the wire.
    let invalid = SendEmailRequest::new("not an address", ["grace@example.com"]).text("x");
    match email.send_email(&invalid).await {
        Err(e) if e.kind() == ErrorKind::InvalidRequest => println!("refused locally: {e}"),
        other => println!("unexpected: {other:?}"),
    }

    // Every page, one item at a time: the stream follows the service's cursors.
    let query = ListEmailsQuery::default().limit(10);
    let emails: Vec<_> = email.list_emails_stream(&query).try_collect().await?;
    println!("{} emails sent so far", emails.len());
    Ok(())
}
