//! The records the inbox keeps and the store persists: captured emails and messages, webhook
//! deliveries, realtime events, calls to specs served with `--spec`, with the headers and attachments read from an email's source.
//! Plain data, shared by [`crate::inbox`] (which re-exports them: their public path is
//! `tidings_sandbox::inbox::...`) and [`crate::store`], so neither depends on the other for them.

use serde::{Deserialize, Serialize};

/// One header line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The name as written.
    pub name: String,
    /// The value, unfolded.
    pub value: String,
}

/// An attachment found in a raw email.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachmentInfo {
    /// Its position among the email's attachments (the download URL's index).
    pub index: usize,
    /// The file name (`attachment-N` when it has none).
    pub filename: String,
    /// Its MIME type.
    pub content_type: String,
    /// Decoded size in bytes.
    pub size: usize,
    /// Its `Content-ID`, for inline images.
    pub content_id: Option<String>,
}

/// One status an email or message reached, and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusChange {
    /// The status (`queued`, `delivered`, `ringing`...).
    pub status: String,
    /// When (RFC 3339).
    pub at: String,
}

/// An email the email service accepted, over REST or SMTP.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CapturedEmail {
    /// The service's id (`em_...`).
    pub id: String,
    /// Arrival order in the inbox (grows by one per record of any kind).
    pub seq: u64,
    /// `api` or `smtp`.
    pub source: String,
    /// The sender.
    pub from: String,
    /// Recipients.
    pub to: Vec<String>,
    /// Copy recipients.
    pub cc: Vec<String>,
    /// Blind copy recipients.
    pub bcc: Vec<String>,
    /// The subject.
    pub subject: Option<String>,
    /// The plain text body.
    pub text: Option<String>,
    /// The HTML body.
    pub html: Option<String>,
    /// The current status.
    pub status: String,
    /// Every status it reached, oldest first.
    pub events: Vec<StatusChange>,
    /// Tags (`name=value`).
    pub tags: Vec<String>,
    /// Attachments found in the raw source.
    pub attachments: Vec<AttachmentInfo>,
    /// Whether the raw source was cut at the retention's `max_raw_bytes`
    /// ([`crate::inbox::Retention`]).
    pub raw_truncated: bool,
    /// When it arrived (RFC 3339).
    pub created_at: String,
    /// Milliseconds since the Unix epoch at arrival (for age-based retention).
    pub created_ms: u64,
}

/// A message the messaging service sent or received.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CapturedMessage {
    /// The `message_uuid`.
    pub id: String,
    /// Arrival order in the inbox.
    pub seq: u64,
    /// `sms`, `whatsapp`, `voice`, `instagram`.
    pub channel: String,
    /// `text`, `template`, `image`...
    pub message_type: String,
    /// `outbound` or `inbound`.
    pub direction: String,
    /// The sender.
    pub from: String,
    /// The recipient.
    pub to: String,
    /// The text (SMS, WhatsApp text, voice text-to-speech).
    pub text: Option<String>,
    /// SMS only: `GSM-7` or `UCS-2`.
    pub encoding: Option<String>,
    /// SMS only: segments the text is sent as.
    pub segments: Option<usize>,
    /// WhatsApp templates: the name, language and parameters, rendered when the template is
    /// known.
    pub template: Option<serde_json::Value>,
    /// The request body as sent (without `webhook_url`).
    pub content: serde_json::Value,
    /// The current status.
    pub status: String,
    /// Every status it reached, oldest first (a call's timeline).
    pub events: Vec<StatusChange>,
    /// When it arrived (RFC 3339).
    pub created_at: String,
    /// Milliseconds since the Unix epoch at arrival.
    pub created_ms: u64,
}

/// One signed webhook sent by the email, messaging or realtime service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct WebhookRecord {
    /// The `webhook-id`.
    pub id: String,
    /// Arrival order in the inbox.
    pub seq: u64,
    /// `email`, `messaging` or `realtime`.
    pub service: String,
    /// The receiving URL.
    pub url: String,
    /// The event type (`email.delivered`, `message.status`); for a realtime delivery, the
    /// names of the events its batch carries (`channel_occupied, member_added`).
    pub event_type: String,
    /// Attempts made so far.
    pub attempts: u32,
    /// `pending`, `delivered`, `failed` or `not_sent`.
    pub status: String,
    /// The receiver's HTTP status, once it answered 2xx.
    pub response_status: Option<u16>,
    /// Why the last attempt failed.
    pub error: Option<String>,
    /// The signature headers of the last attempt (`webhook-id`, `webhook-timestamp`,
    /// `webhook-signature`; for realtime, `X-Pusher-Key` and `X-Pusher-Signature`).
    pub headers: Vec<Header>,
    /// The JSON body.
    pub body: String,
    /// The delivery this one repeats, when it was redelivered from the inbox.
    pub redelivery_of: Option<String>,
    /// When it was queued (RFC 3339).
    pub created_at: String,
    /// When its state last changed (RFC 3339).
    pub updated_at: String,
    /// Milliseconds since the Unix epoch when queued.
    pub created_ms: u64,
}

/// One thing that happened in the realtime service: an event published over the HTTP API, a
/// client event, a channel occupied or vacated, a member added or removed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RealtimeRecord {
    /// The record's id (its `seq`, as text).
    pub id: String,
    /// Arrival order in the inbox.
    pub seq: u64,
    /// The app id.
    pub app_id: String,
    /// `api_event`, `client_event`, `channel_occupied`, `channel_vacated`, `member_added`,
    /// `member_removed`, `cache_miss`.
    pub kind: String,
    /// The channel.
    pub channel: String,
    /// The event name (for events).
    pub event: Option<String>,
    /// The event data (for events) or the user id (for members).
    pub data: Option<String>,
    /// The socket that sent it (client events) or was left out (API events).
    pub socket_id: Option<String>,
    /// When (RFC 3339).
    pub created_at: String,
    /// Milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// One call to a spec served with `--spec`: what was asked and what was answered. Headers are
/// not kept (they carry the credentials), nor a query parameter that carries one; a token
/// endpoint's bodies are not kept either.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ApiCallRecord {
    /// The record's id (its `seq`, as text).
    pub id: String,
    /// Arrival order in the inbox.
    pub seq: u64,
    /// The served spec's service name.
    pub service: String,
    /// The operation the call matched; `None` when no route did (a 404 or 405), or for the
    /// sandbox's own paths (the token endpoint, webhook triggers).
    pub operation: Option<String>,
    /// The HTTP method.
    pub method: String,
    /// The path and query asked, a credential in the query replaced by `<redacted>`; its first
    /// [`MAX_CALL_PATH_BYTES`] bytes (then `…`).
    pub path: String,
    /// The answer's status.
    pub status: u16,
    /// The request body as text (lossy UTF-8), its first [`MAX_CALL_BODY_BYTES`] bytes.
    pub request_body: String,
    /// The answer's body likewise.
    pub response_body: String,
    /// Whether either body was longer than [`MAX_CALL_BODY_BYTES`], or the path longer than
    /// [`MAX_CALL_PATH_BYTES`], and was cut.
    pub truncated: bool,
    /// When (RFC 3339).
    pub created_at: String,
    /// Milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// Bytes of each body an [`ApiCallRecord`] keeps (request and answer each): with the path's
/// [`MAX_CALL_PATH_BYTES`], a record costs at most about 10 KiB, so the inbox's record count
/// bounds their memory.
pub const MAX_CALL_BODY_BYTES: usize = 4096;
/// Bytes of the path and query an [`ApiCallRecord`] keeps (the HTTP server takes paths up to
/// 64 KiB).
pub const MAX_CALL_PATH_BYTES: usize = 2048;
