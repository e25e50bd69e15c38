//! The email service sandbox: every operation of `spec/email.yaml`, behind the generated
//! [`EmailServer`] router (auth, rate limit, idempotency keys, validation and error bodies come
//! from the spec), plus the SMTP relay listener ([`crate::smtp`]) feeding the same emails.
//! Templates, contacts, lists, suppressions and webhook endpoints are items of the spec-driven
//! resource store, as a served spec's are; `api.rs` gives the operations with behaviour of
//! their own.
//!
//! **Lifecycle** (on a timer, one [`ServiceSettings::lifecycle_step`] apart, 300 ms by
//! default): `queued → sent → delivered`. An email with a future `scheduled_at` is `scheduled`
//! until then (reschedule and cancel work on it). Recipients on the suppression list make it
//! `suppressed` at once; a recipient whose local part starts with `bounce` (`bounce@example.com`)
//! makes it `bounced` (hard) after `sent`, and adds the address to the suppression list.
//!
//! **Webhooks**: every status change (and `contact.*` change) is posted, signed with Standard
//! Webhooks, to [`ServiceSettings::webhook`] (all events) and to every enabled endpoint
//! registered with `create_webhook` (the events it asked for), retried with backoff
//! ([`ServiceSettings::webhook_retry`]).
//!
//! [`ServiceSettings::lifecycle_step`]: crate::ServiceSettings::lifecycle_step
//! [`ServiceSettings::webhook`]: crate::ServiceSettings::webhook
//! [`ServiceSettings::webhook_retry`]: crate::ServiceSettings::webhook_retry
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use tidings_sandbox::email::{EmailSandbox, EmailSandboxConfig};
//! let sandbox = EmailSandbox::start(EmailSandboxConfig::default()).await?;
//! let client = sandbox.client()?;
//! let request = tidings::email::SendEmailRequest::new("ada@example.com", ["grace@example.com"])
//!     .subject("Hello")
//!     .text("Hi");
//! let sent = client.send_email(&request).await?;
//! let email = client.get_email(&sent.id).await?;
//! println!("{} is {}", email.id, email.status);
//! sandbox.shutdown().await;
//! # Ok(())
//! # }
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use crate::server::Serving;
use tidings::email::{
    AddListContactRequest, Bounce, BounceType, Contact, ContactEventData, ContactList,
    CreateContactRequest, CreateListRequest, CreateSuppressionRequest, CreateTemplateRequest,
    CreateWebhookRequest, DeletedObject, Email, EmailBouncedData, EmailEvent, EmailEventData,
    EmailLastEvent, EmailStatus, EmailSuppressedData, ListContactsQuery, ListEmailsQuery,
    ListListContactsQuery, ListListsQuery, ListMembership, ListSuppressionsQuery,
    ListTemplatesQuery, ListWebhooksQuery, Page, RescheduleEmailRequest, SendBatchRequest,
    SendEmailRequest, SendEmailResponse, Suppression, SuppressionReason, Template, TemplateStatus,
    UpdateContactRequest, UpdateListRequest, UpdateTemplateRequest, WebhookEndpoint,
    WebhookEndpointStatus,
};

use crate::inbox::{Durable, StateWrite, bare_address};
use crate::server::email_server::{self, EmailServer};
use crate::server::{
    Background, Delivery, Gateway, PageRequest, RateLimit, RequestContext, ServerError,
    WebhookSender, WebhookTarget, format_rfc3339, now_rfc3339, paginate, parse_rfc3339,
};
use crate::smtp::{MailSink, ReceivedMail, SmtpConfig, SmtpListener};

mod api;
mod lifecycle;
mod persist;
mod records;
use persist::{SavedSmtpKey, body_cost};

/// Settings of an [`EmailSandbox`]; start from `EmailSandboxConfig::default()`, change the
/// shared ones with the [`ServiceConfig`](crate::ServiceConfig) methods.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct EmailSandboxConfig {
    /// Key, address, rate limit (the spec's 1000 per minute by default), lifecycle pace (one
    /// status change of an email every 300 ms), the account's webhook (every event), bounds
    /// and inbox.
    pub service: crate::ServiceSettings,
    /// The SMTP relay listener; on by default (a free port, STARTTLS with a self-signed
    /// certificate made at start).
    pub smtp: Option<SmtpConfig>,
    /// Most bytes of email bodies (text and HTML) the API keeps
    /// ([`DEFAULT_MAX_EMAIL_BYTES`]); past it the oldest emails are forgotten (`404`), from
    /// the data directory too.
    pub max_email_bytes: usize,
}

/// Default of [`EmailSandboxConfig::max_email_bytes`]: 256 MiB.
pub const DEFAULT_MAX_EMAIL_BYTES: usize = 256 * 1024 * 1024;

impl Default for EmailSandboxConfig {
    fn default() -> Self {
        EmailSandboxConfig {
            service: crate::ServiceSettings::new(
                tidings::email::SERVICE.rate_limit.map(RateLimit::from),
            ),
            smtp: Some(SmtpConfig::default()),
            max_email_bytes: DEFAULT_MAX_EMAIL_BYTES,
        }
    }
}

impl crate::ServiceConfig for EmailSandboxConfig {
    fn settings_mut(&mut self) -> &mut crate::ServiceSettings {
        &mut self.service
    }
}

impl EmailSandboxConfig {
    /// The SMTP listener's settings; `None` turns it off.
    pub fn smtp(mut self, smtp: Option<SmtpConfig>) -> Self {
        self.smtp = smtp;
        self
    }
}

/// A running email sandbox: an HTTP server for the REST API and, unless turned off, an SMTP
/// relay listener, sharing one in-memory store. Stopped by [`EmailSandbox::shutdown`] or drop.
pub struct EmailSandbox {
    addr: SocketAddr,
    base_url: String,
    api_key: String,
    smtp: Option<SmtpListener>,
    service: EmailService,
    http: Serving,
}

impl fmt::Debug for EmailSandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EmailSandbox")
            .field("base_url", &self.base_url)
            .field("api_key", &"<redacted>")
            .field("smtp", &self.smtp)
            .finish()
    }
}

impl EmailSandbox {
    /// Starts the sandbox on loopback (free ports unless configured).
    ///
    /// # Errors
    ///
    /// When a port cannot be bound or the TLS certificate cannot be made.
    pub async fn start(config: EmailSandboxConfig) -> std::io::Result<EmailSandbox> {
        let background = Background::new();
        let gateway = Gateway::new(&tidings::email::SERVICE)
            .credential("api_key", config.service.api_key.clone())
            .rate_limit(config.service.rate_limit)
            .limits(&config.service.limits)
            .idempotency_data(
                config
                    .service
                    .inbox
                    .as_ref()
                    .and_then(crate::inbox::Inbox::data_dir),
                "builtin-email",
            )?;
        let (restored, legacy) = Store::restored(config.service.inbox.as_ref());
        let service = EmailService {
            inner: Arc::new(Inner {
                gateway: gateway.clone(),
                resources: crate::server::Resources::in_data_dir(
                    crate::server::ResourceLimits::default(),
                    config
                        .service
                        .inbox
                        .as_ref()
                        .and_then(crate::inbox::Inbox::data_dir),
                    "builtin-email",
                )
                .map_err(std::io::Error::other)?,
                writes: tokio::sync::Mutex::new(()),
                store: Mutex::new(restored),
                webhooks: {
                    let sender =
                        WebhookSender::new(background.clone(), config.service.webhook_retry);
                    let sender = match &config.service.inbox {
                        Some(inbox) => inbox.attach_sender("email", sender),
                        None => sender,
                    };
                    if config.service.deliver_webhooks {
                        sender
                    } else {
                        sender.deliveries_off()
                    }
                },
                background: background.clone(),
                step: config.service.lifecycle_step,
                target: config.service.webhook.clone(),
                inbox: config.service.inbox.clone(),
                max_email_bytes: config.max_email_bytes,
            }),
        };
        let listener =
            tokio::net::TcpListener::bind((config.service.host, config.service.port)).await?;
        let addr = listener.local_addr()?;
        service.adopt(legacy).await;
        service.resume();
        let smtp = match config.smtp {
            Some(smtp) => Some(
                SmtpListener::start(
                    smtp,
                    config.service.host,
                    gateway,
                    Arc::new(service.clone()),
                    background.clone(),
                )
                .await?,
            ),
            None => None,
        };
        let app = email_server::router(Arc::new(service.clone()));
        let http = Serving::spawn(
            listener,
            app,
            "email",
            &config.service.limits,
            crate::server::Writes::Any,
        );
        Ok(EmailSandbox {
            addr,
            base_url: format!("http://{addr}"),
            api_key: config.service.api_key,
            smtp,
            service,
            http,
        })
    }

    /// The REST API's base URL (`http://127.0.0.1:PORT`), for `EmailClient::builder().base_url(..)`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The HTTP address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The API key the sandbox accepts (REST and SMTP).
    pub fn api_key(&self) -> &str {
        &self.api_key
    }

    /// The SMTP relay listener's address, when it runs.
    pub fn smtp_addr(&self) -> Option<SocketAddr> {
        self.smtp.as_ref().map(SmtpListener::addr)
    }

    /// The SMTP listener's self-signed certificate (PEM), for clients to trust.
    pub fn smtp_certificate_pem(&self) -> Option<&str> {
        self.smtp.as_ref().map(SmtpListener::certificate_pem)
    }

    /// A client for this sandbox: its base URL and API key, the spec's other defaults.
    ///
    /// # Errors
    ///
    /// When the client cannot be built.
    pub fn client(&self) -> Result<tidings::email::EmailClient, tidings::Error> {
        tidings::email::EmailClient::builder()
            .base_url(&self.base_url)
            .api_key(self.api_key.clone())
            .build()
    }

    /// Every webhook delivery so far (to the configured target and to registered endpoints).
    pub fn webhook_deliveries(&self) -> Vec<Delivery> {
        self.service.inner.webhooks.deliveries()
    }

    /// Stops the servers and every background task (lifecycles, deliveries, SMTP sessions).
    pub async fn shutdown(mut self) {
        self.stop();
        self.http.stop_and_wait(crate::server::SHUTDOWN_WAIT).await;
        // Released for the next start on the same data directory.
        self.service.inner.resources.close();
        self.service.inner.gateway.close_idempotency_data();
    }

    fn stop(&mut self) {
        self.http.stop();
        self.service.inner.background.shutdown();
    }
}

#[cfg(test)]
mod durable_tests;

impl Drop for EmailSandbox {
    fn drop(&mut self) {
        self.stop();
        self.service.inner.resources.close();
        self.service.inner.gateway.close_idempotency_data();
    }
}

/// The in-memory email service behind the generated router.
#[derive(Clone)]
struct EmailService {
    inner: Arc<Inner>,
}

struct Inner {
    gateway: Gateway,
    /// Templates, contacts, lists, suppressions, webhook endpoints, and what serves every
    /// operation `api.rs` does not implement.
    resources: crate::server::Resources,
    /// Held by a change that checks the resources before it writes them ([`records`]).
    writes: tokio::sync::Mutex<()>,
    store: Mutex<Store>,
    webhooks: WebhookSender,
    background: Background,
    step: Duration,
    target: Option<WebhookTarget>,
    inbox: Option<crate::inbox::Inbox>,
    max_email_bytes: usize,
}

/// What the service keeps beside the resource store: the emails it accepted and the SMTP
/// idempotency keys that name them (templates, contacts, lists, suppressions and webhook
/// endpoints are items of [`Inner::resources`], see [`records`]).
#[derive(Default)]
struct Store {
    /// By id, oldest first: found by id on each status change, listed newest first.
    emails: indexmap::IndexMap<String, Stored>,
    /// SMTP `X-Idempotency-Key` → (message fingerprint, email id).
    smtp_keys: BTreeMap<String, (Vec<u8>, String)>,
    /// What the kept emails' bodies take ([`body_cost`] summed).
    body_bytes: usize,
}

/// An email and the generation of its lifecycle task (bumped by reschedule and cancel, so a
/// stale task stops).
struct Stored {
    email: Email,
    generation: u64,
    bounce: bool,
}

impl Store {
    /// Forgets email `id`, its body's cost with it.
    fn forget_email(&mut self, id: &str) -> Option<Stored> {
        let gone = self.emails.shift_remove(id)?;
        self.body_bytes = self.body_bytes.saturating_sub(body_cost(&gone));
        Some(gone)
    }

    fn email_mut(&mut self, id: &str) -> Result<&mut Stored, ServerError> {
        self.emails
            .get_mut(id)
            .ok_or_else(|| ServerError::not_found(format!("email `{id}`")))
    }
}

/// The MIME source of an email sent over REST, or 400 `validation_error` naming the field
/// that makes it impossible (a content type with a space or CR/LF, a header with a line break).
fn mime_source(request: &SendEmailRequest, email: &Email) -> Result<Vec<u8>, ServerError> {
    crate::inbox::render_rest(request, email).map_err(|e| match e {
        tidings_runtime::Error::InvalidRequest { field, message, .. } => ServerError::bad_request(
            format!("`{field}` {message}; the email cannot be built as a MIME message"),
        )
        .with_param(field),
        other => ServerError::internal(format!("cannot build the email's MIME source: {other}")),
    })
}

fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", uuid::Uuid::new_v4().simple())
}

fn newest_first<T: Clone>(items: &[T]) -> Vec<T> {
    items.iter().rev().cloned().collect()
}

fn page<T: Clone>(
    items: &[T],
    cursor: impl Fn(&T) -> &str,
    limit: Option<i64>,
    after: Option<&str>,
    before: Option<&str>,
) -> Result<Page<T>, ServerError> {
    let (data, has_more) = paginate(
        items,
        cursor,
        PageRequest {
            limit,
            after,
            before,
        },
    )?;
    Ok(Page { data, has_more })
}

/// Fills `{{{name}}}` and `{{name}}` placeholders.
fn render(text: &str, variables: &BTreeMap<String, serde_json::Value>) -> String {
    let mut out = text.to_owned();
    for (key, value) in variables {
        let value = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out = out
            .replace(&format!("{{{{{{{key}}}}}}}", key = key), &value)
            .replace(&format!("{{{{{key}}}}}", key = key), &value);
    }
    out
}

fn contact_data(contact: &Contact) -> ContactEventData {
    let mut data = ContactEventData::new(contact.id.clone(), contact.email.clone())
        .created_at(contact.created_at.clone());
    data.first_name.clone_from(&contact.first_name);
    data.last_name.clone_from(&contact.last_name);
    data.list_ids.clone_from(&contact.list_ids);
    data.unsubscribed = contact.unsubscribed;
    data.updated_at.clone_from(&contact.updated_at);
    data
}

fn event_data(email: &Email) -> EmailEventData {
    let mut data = EmailEventData::new(email.id.clone())
        .from(email.from.clone())
        .to(email.to.clone())
        .created_at(email.created_at.clone());
    data.subject.clone_from(&email.subject);
    data.tags.clone_from(&email.tags);
    data
}
