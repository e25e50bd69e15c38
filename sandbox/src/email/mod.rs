//! The email service sandbox: every operation of `spec/email.yaml`, in memory, behind the
//! generated [`EmailServer`] router (auth, rate limit, idempotency keys, validation and error
//! bodies come from the spec), plus the SMTP relay listener ([`crate::smtp`]) feeding the same
//! store.
//!
//! **Lifecycle** (on a timer, one [`EmailSandboxConfig::lifecycle_step`] apart, 300 ms by
//! default): `queued → sent → delivered`. An email with a future `scheduled_at` is `scheduled`
//! until then (reschedule and cancel work on it). Recipients on the suppression list make it
//! `suppressed` at once; a recipient whose local part starts with `bounce` (`bounce@example.com`)
//! makes it `bounced` (hard) after `sent`, and adds the address to the suppression list.
//!
//! **Webhooks**: every status change (and `contact.*` change) is posted, signed with Standard
//! Webhooks, to [`EmailSandboxConfig::webhook`] (all events) and to every enabled endpoint
//! registered with `create_webhook` (the events it asked for), retried with backoff
//! ([`EmailSandboxConfig::webhook_retry`]).
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
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use crate::server::Serving;
use tidings::email::{
    AddListContactRequest, Bounce, BounceType, Contact, ContactEventData, ContactList,
    CreateContactRequest, CreateListRequest, CreateSuppressionRequest, CreateTemplateRequest,
    CreateWebhookRequest, DeletedObject, Email, EmailBouncedData, EmailEvent, EmailEventData,
    EmailLastEvent, EmailStatus, EmailSuppressedData, ListContactsQuery, ListEmailsQuery,
    ListListContactsQuery, ListListsQuery, ListMembership, ListResourcesQuery,
    ListSuppressionsQuery, ListTemplatesQuery, ListWebhooksQuery, Page, RescheduleEmailRequest,
    Resource, SendBatchRequest, SendEmailRequest, SendEmailResponse, Suppression,
    SuppressionReason, Template, TemplateStatus, UpdateContactRequest, UpdateListRequest,
    UpdateTemplateRequest, UpdateWebhookRequest, WebhookEndpoint, WebhookEndpointStatus,
};

use crate::inbox::{Durable, bare_address};
use crate::server::email_server::{self, EmailServer};
use crate::server::{
    Background, Delivery, Gateway, PageRequest, RateLimit, RequestContext, ServerError,
    WebhookRetry, WebhookSender, WebhookTarget, format_rfc3339, now_rfc3339, paginate,
    parse_rfc3339,
};
use crate::smtp::{MailSink, ReceivedMail, SmtpConfig, SmtpListener};

mod persist;
use persist::{SavedSmtpKey, body_cost};

/// Settings of an [`EmailSandbox`]; start from `EmailSandboxConfig::default()`.
#[derive(Clone)]
#[non_exhaustive]
pub struct EmailSandboxConfig {
    /// The API key the sandbox accepts (a random `sk_sandbox_...` by default).
    pub api_key: String,
    /// Address to listen on (`127.0.0.1` by default).
    pub host: IpAddr,
    /// HTTP port; 0 (the default) picks a free one.
    pub port: u16,
    /// Rate limit; the spec's (1000 per minute) by default, `None` for none.
    pub rate_limit: Option<RateLimit>,
    /// Time between two status changes of an email.
    pub lifecycle_step: Duration,
    /// Where every event goes, signed with its secret.
    pub webhook: Option<WebhookTarget>,
    /// How failed webhook deliveries are retried.
    pub webhook_retry: WebhookRetry,
    /// Whether webhooks are posted at all (on by default). Off, every event is still logged
    /// ([`DeliveryOutcome::NotSent`](crate::server::DeliveryOutcome::NotSent)) but nothing leaves
    /// the process: for fuzzers, whose requests name arbitrary webhook URLs.
    pub deliver_webhooks: bool,
    /// Bounds of the HTTP listener: connections, timeouts, body size, idempotency store
    /// ([`HttpLimits::default`](crate::server::HttpLimits) by default).
    pub limits: crate::server::HttpLimits,
    /// The SMTP relay listener; on by default (a free port, STARTTLS with a self-signed
    /// certificate made at start).
    pub smtp: Option<SmtpConfig>,
    /// Where emails, statuses and webhook deliveries are recorded (none by default).
    pub inbox: Option<crate::inbox::Inbox>,
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
            api_key: format!("sk_sandbox_{}", uuid::Uuid::new_v4().simple()),
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            rate_limit: RateLimit::from_spec(&tidings::email::SERVICE),
            lifecycle_step: Duration::from_millis(300),
            webhook: None,
            webhook_retry: WebhookRetry::default(),
            deliver_webhooks: true,
            limits: crate::server::HttpLimits::default(),
            smtp: Some(SmtpConfig::default()),
            inbox: None,
            max_email_bytes: DEFAULT_MAX_EMAIL_BYTES,
        }
    }
}

impl fmt::Debug for EmailSandboxConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EmailSandboxConfig")
            .field("api_key", &"<redacted>")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("rate_limit", &self.rate_limit)
            .field("lifecycle_step", &self.lifecycle_step)
            .field("webhook", &self.webhook)
            .field("webhook_retry", &self.webhook_retry)
            .field("deliver_webhooks", &self.deliver_webhooks)
            .field("limits", &self.limits)
            .field("smtp", &self.smtp)
            .finish()
    }
}

crate::server::service_config_setters!(EmailSandboxConfig);

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
            .credential("api_key", config.api_key.clone())
            .rate_limit(config.rate_limit)
            .limits(&config.limits);
        let service = EmailService {
            inner: Arc::new(Inner {
                gateway: gateway.clone(),
                resources: crate::server::Resources::default(),
                store: Mutex::new(Store::restored(config.inbox.as_ref())),
                webhooks: {
                    let sender = WebhookSender::new(background.clone(), config.webhook_retry);
                    let sender = match &config.inbox {
                        Some(inbox) => inbox.attach_sender("email", sender),
                        None => sender,
                    };
                    if config.deliver_webhooks {
                        sender
                    } else {
                        sender.deliveries_off()
                    }
                },
                background: background.clone(),
                step: config.lifecycle_step,
                target: config.webhook.clone(),
                inbox: config.inbox.clone(),
                max_email_bytes: config.max_email_bytes,
            }),
        };
        let listener = tokio::net::TcpListener::bind((config.host, config.port)).await?;
        let addr = listener.local_addr()?;
        service.resume();
        let smtp = match config.smtp {
            Some(smtp) => Some(
                SmtpListener::start(
                    smtp,
                    config.host,
                    gateway,
                    Arc::new(service.clone()),
                    background.clone(),
                )
                .await?,
            ),
            None => None,
        };
        let app = email_server::router(Arc::new(service.clone()));
        let http = Serving::spawn(listener, app, "email", &config.limits);
        Ok(EmailSandbox {
            addr,
            base_url: format!("http://{addr}"),
            api_key: config.api_key,
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
    }

    fn stop(&mut self) {
        self.http.stop();
        self.service.inner.background.shutdown();
    }
}

impl Drop for EmailSandbox {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The in-memory email service behind the generated router.
#[derive(Clone)]
struct EmailService {
    inner: Arc<Inner>,
}

struct Inner {
    gateway: Gateway,
    /// Serves the operations this file does not implement (new ones in the spec).
    resources: crate::server::Resources,
    store: Mutex<Store>,
    webhooks: WebhookSender,
    background: Background,
    step: Duration,
    target: Option<WebhookTarget>,
    inbox: Option<crate::inbox::Inbox>,
    max_email_bytes: usize,
}

/// Everything the service keeps, each list in creation order.
#[derive(Default)]
struct Store {
    emails: Vec<Stored>,
    templates: Vec<Template>,
    contacts: Vec<Contact>,
    lists: Vec<ContactList>,
    suppressions: Vec<Suppression>,
    webhooks: Vec<WebhookEndpoint>,
    resources: Vec<Resource>,
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
    fn seeded() -> Self {
        Store {
            resources: (1..=3)
                .map(|i| Resource::default().id(format!("res_{i}")))
                .collect(),
            ..Store::default()
        }
    }

    fn email_mut(&mut self, id: &str) -> Result<&mut Stored, ServerError> {
        self.emails
            .iter_mut()
            .find(|s| s.email.id == id)
            .ok_or_else(|| ServerError::not_found(format!("email `{id}`")))
    }

    fn template_index(&self, id_or_alias: &str) -> Result<usize, ServerError> {
        self.templates
            .iter()
            .position(|t| t.id == id_or_alias || t.alias.as_deref() == Some(id_or_alias))
            .ok_or_else(|| ServerError::not_found(format!("template `{id_or_alias}`")))
    }

    fn contact_index(&self, id_or_email: &str) -> Result<usize, ServerError> {
        self.contacts
            .iter()
            .position(|c| c.id == id_or_email || c.email.eq_ignore_ascii_case(id_or_email))
            .ok_or_else(|| ServerError::not_found(format!("contact `{id_or_email}`")))
    }

    fn list_index(&self, id: &str) -> Result<usize, ServerError> {
        self.lists
            .iter()
            .position(|l| l.id == id)
            .ok_or_else(|| ServerError::not_found(format!("list `{id}`")))
    }

    fn check_lists(&self, ids: Option<&Vec<String>>) -> Result<(), ServerError> {
        for id in ids.into_iter().flatten() {
            // A well-formed id naming nothing: 404, like an unknown id in a path.
            if !self.lists.iter().any(|l| &l.id == id) {
                return Err(ServerError::not_found(format!("list `{id}`")).with_param("list_ids"));
            }
        }
        Ok(())
    }

    fn with_count(&self, list: &ContactList) -> ContactList {
        let mut list = list.clone();
        let count = self
            .contacts
            .iter()
            .filter(|c| c.list_ids.iter().flatten().any(|id| *id == list.id))
            .count();
        list.contact_count = Some(i64::try_from(count).unwrap_or(i64::MAX));
        list
    }

    fn suppressed(&self, address: &str) -> Option<&Suppression> {
        let address = bare_address(address);
        self.suppressions
            .iter()
            .find(|s| s.email.eq_ignore_ascii_case(&address))
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

impl EmailService {
    fn store(&self) -> MutexGuard<'_, Store> {
        self.inner
            .store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Posts `event` to the configured target and to the endpoints that asked for its type.
    fn emit(&self, event: EmailEvent) {
        let mut value = match serde_json::to_value(&event) {
            Ok(value) => value,
            Err(e) => {
                tracing::warn!(error = %e, "cannot encode an email event");
                return;
            }
        };
        let event_type = value
            .get("type")
            .and_then(|t| t.as_str())
            .unwrap_or_default()
            .to_owned();
        if let Some(map) = value.as_object_mut() {
            map.insert("created_at".into(), now_rfc3339().into());
        }
        let body = serde_json::to_vec(&value).unwrap_or_default();
        let mut targets: Vec<(String, String)> = Vec::new();
        if let Some(target) = &self.inner.target {
            targets.push((target.url.clone(), target.secret.clone()));
        }
        for endpoint in &self.store().webhooks {
            let wanted = endpoint.events.iter().any(|e| e.as_str() == event_type);
            if endpoint.status == WebhookEndpointStatus::Enabled
                && wanted
                && let Some(secret) = &endpoint.secret
            {
                targets.push((endpoint.url.clone(), secret.clone()));
            }
        }
        for (url, secret) in targets {
            if let Err(e) = self
                .inner
                .webhooks
                .send(&url, &secret, &event_type, body.clone())
            {
                tracing::warn!(error = %e, "cannot queue a webhook");
            }
        }
    }

    /// Accepts one email (REST or SMTP): renders its template, applies suppressions and the
    /// schedule, stores it and starts its lifecycle.
    async fn accept(&self, request: SendEmailRequest) -> Result<SendEmailResponse, ServerError> {
        let (response, durable) = self.accept_from(request, None)?;
        self.stored(&response.id, durable).await?;
        Ok(response)
    }

    /// Waits until an accepted email is on disk; when it cannot be, forgets it (so nothing
    /// lists an email whose sender was told it failed) and answers 507.
    async fn stored(&self, id: &str, durable: Durable) -> Result<(), ServerError> {
        if let Err(e) = durable.answer().await {
            let mut store = self.store();
            store.emails.retain(|s| s.email.id != id);
            store.body_bytes = store.emails.iter().map(body_cost).sum();
            drop(store);
            if let Some(inbox) = &self.inner.inbox {
                inbox.delete_email(id);
            }
            return Err(e);
        }
        Ok(())
    }

    /// [`Self::accept`], with the raw message when it came over SMTP (for the inbox).
    fn accept_from(
        &self,
        request: SendEmailRequest,
        raw: Option<&[u8]>,
    ) -> Result<(SendEmailResponse, Durable), ServerError> {
        let now = SystemTime::now();
        let mut email = Email::new(
            new_id("em"),
            request.from.clone(),
            request.to.clone(),
            EmailStatus::Queued,
            format_rfc3339(now),
        )
        .last_event(EmailLastEvent::Queued);
        email.cc.clone_from(&request.cc);
        email.bcc.clone_from(&request.bcc);
        email.reply_to.clone_from(&request.reply_to);
        email.subject.clone_from(&request.subject);
        email.html.clone_from(&request.html);
        email.text.clone_from(&request.text);
        email.tags.clone_from(&request.tags);
        email.metadata.clone_from(&request.metadata);
        let mut store = self.store();
        if let Some(template) = &request.template {
            let key = template
                .id
                .as_deref()
                .or(template.alias.as_deref())
                .unwrap_or("");
            let param = if template.id.is_some() {
                "template.id"
            } else {
                "template.alias"
            };
            // A template that does not exist is a 404, one not published yet a conflict with
            // its state: the request itself is well-formed.
            let found = store.template_index(key).map_err(|_| {
                ServerError::not_found(format!("template `{key}`")).with_param(param)
            })?;
            let stored = &store.templates[found];
            if stored.status != TemplateStatus::Published {
                return Err(ServerError::conflict(
                    "conflict",
                    format!("template `{key}` is not published"),
                )
                .with_param(param));
            }
            let mut variables = BTreeMap::new();
            for variable in stored.variables.iter().flatten() {
                if let Some(fallback) = &variable.fallback_value {
                    variables.insert(variable.key.clone(), fallback.clone());
                }
            }
            variables.extend(template.variables.clone().unwrap_or_default());
            email.template_id = Some(stored.id.clone());
            email.subject = email
                .subject
                .or_else(|| stored.subject.as_deref().map(|s| render(s, &variables)));
            email.html = stored.html.as_deref().map(|s| render(s, &variables));
            email.text = stored.text.as_deref().map(|s| render(s, &variables));
        }
        let scheduled = match request.scheduled_at.as_deref() {
            Some(at) => {
                let when = parse_rfc3339(at).ok_or_else(|| {
                    ServerError::validation("scheduled_at", "not an RFC 3339 timestamp")
                })?;
                (when > now).then_some(at.to_owned())
            }
            None => None,
        };
        let recipients = email
            .to
            .iter()
            .chain(email.cc.iter().flatten())
            .chain(email.bcc.iter().flatten());
        let suppressed = recipients
            .clone()
            .find_map(|r| store.suppressed(r).map(|s| s.reason.clone()));
        let bounce = recipients
            .clone()
            .any(|r| bare_address(r).to_ascii_lowercase().starts_with("bounce"));
        let event = if let Some(reason) = suppressed {
            email.status = EmailStatus::Suppressed;
            email.last_event = Some(EmailLastEvent::Suppressed);
            let data = event_data(&email);
            let mut suppressed = EmailSuppressedData::new(data.email_id).reason(reason);
            suppressed.from = data.from;
            suppressed.to = data.to;
            suppressed.subject = data.subject;
            suppressed.tags = data.tags;
            suppressed.created_at = data.created_at;
            Some(EmailEvent::EmailSuppressed(suppressed))
        } else if let Some(at) = scheduled {
            email.status = EmailStatus::Scheduled;
            email.last_event = Some(EmailLastEvent::Scheduled);
            email.scheduled_at = Some(at);
            Some(EmailEvent::EmailScheduled(event_data(&email)))
        } else {
            None
        };
        let response = SendEmailResponse::new(email.id.clone(), email.status.clone());
        let runs = email.status != EmailStatus::Suppressed;
        // Built before anything is kept: an email that cannot be a MIME message (a content
        // type with a space or a line break...) is refused whole, never kept half.
        let (source, raw) = match raw {
            Some(raw) => ("smtp", raw.to_vec()),
            None => ("api", mime_source(&request, &email)?),
        };
        let recorded = match &self.inner.inbox {
            Some(inbox) => inbox.record_email(&email, source, raw),
            None => Durable::ready(),
        };
        let stored = Stored {
            email,
            generation: 0,
            bounce,
        };
        // The inbox's record and the service's: the answer waits for both.
        let durable = recorded.and(self.save_email(&stored));
        store.body_bytes += body_cost(&stored);
        store.emails.push(stored);
        self.forget_oldest(&mut store);
        drop(store);
        if let Some(event) = event {
            self.emit(event);
        }
        if runs {
            self.start_lifecycle(response.id.clone(), 0);
        }
        Ok((response, durable))
    }

    fn start_lifecycle(&self, id: String, generation: u64) {
        let service = self.clone();
        self.inner
            .background
            .spawn(async move { service.lifecycle(id, generation).await });
    }

    /// Moves one email along `scheduled → queued → sent → delivered` (or `bounced`).
    async fn lifecycle(&self, id: String, generation: u64) {
        let scheduled_at = {
            let mut store = self.store();
            let Ok(stored) = store.email_mut(&id) else {
                return;
            };
            if stored.generation != generation {
                return;
            }
            stored
                .email
                .scheduled_at
                .clone()
                .filter(|_| stored.email.status == EmailStatus::Scheduled)
        };
        if let Some(at) = scheduled_at.as_deref().and_then(parse_rfc3339) {
            let wait = at.duration_since(SystemTime::now()).unwrap_or_default();
            tokio::time::sleep(wait).await;
            if !self.advance(
                &id,
                generation,
                &EmailStatus::Scheduled,
                EmailStatus::Queued,
            ) {
                return;
            }
        }
        let sent = self
            .store()
            .email_mut(&id)
            .is_ok_and(|s| s.email.status == EmailStatus::Sent);
        if !sent {
            tokio::time::sleep(self.inner.step).await;
            if !self.advance(&id, generation, &EmailStatus::Queued, EmailStatus::Sent) {
                return;
            }
        }
        tokio::time::sleep(self.inner.step).await;
        let bounce = {
            let mut store = self.store();
            store.email_mut(&id).map(|s| s.bounce).unwrap_or(false)
        };
        let next = if bounce {
            EmailStatus::Bounced
        } else {
            EmailStatus::Delivered
        };
        self.advance(&id, generation, &EmailStatus::Sent, next);
    }

    /// Changes the status when it is still `from` (and the lifecycle still current), then
    /// posts the event. False when the email moved on some other way.
    fn advance(&self, id: &str, generation: u64, from: &EmailStatus, to: EmailStatus) -> bool {
        let mut store = self.store();
        let Ok(stored) = store.email_mut(id) else {
            return false;
        };
        if stored.generation != generation || stored.email.status != *from {
            return false;
        }
        stored.email.status = to.clone();
        stored.email.last_event = Some(EmailLastEvent::from(to.as_str().to_owned()));
        if let Some(inbox) = &self.inner.inbox {
            inbox.email_status(id, to.as_str());
        }
        if to == EmailStatus::Sent {
            stored.email.sent_at = Some(now_rfc3339());
        }
        // A status change is saved without waiting: nobody is answered on it.
        let _ = self.save_email(stored);
        let data = event_data(&stored.email);
        let event = match to {
            EmailStatus::Sent => Some(EmailEvent::EmailSent(data)),
            EmailStatus::Delivered => Some(EmailEvent::EmailDelivered(data)),
            EmailStatus::Bounced => {
                let address = stored
                    .email
                    .to
                    .iter()
                    .chain(stored.email.cc.iter().flatten())
                    .chain(stored.email.bcc.iter().flatten())
                    .map(|a| bare_address(a))
                    .find(|a| a.to_ascii_lowercase().starts_with("bounce"));
                let email_id = stored.email.id.clone();
                if let Some(address) = address
                    && store.suppressed(&address).is_none()
                {
                    let suppression = Suppression::new(
                        new_id("sup"),
                        address,
                        SuppressionReason::HardBounce,
                        now_rfc3339(),
                    )
                    .email_id(email_id);
                    let _ = self.save("suppression", &suppression.id, Some(&suppression));
                    store.suppressions.push(suppression);
                }
                let bounce = Bounce::new(BounceType::Hard)
                    .sub_type("no_email")
                    .diagnostic_code("smtp; 550 5.1.1 user unknown (sandbox)");
                let mut bounced = EmailBouncedData::new(data.email_id, bounce);
                bounced.from = data.from;
                bounced.to = data.to;
                bounced.subject = data.subject;
                bounced.tags = data.tags;
                bounced.created_at = data.created_at;
                Some(EmailEvent::EmailBounced(bounced))
            }
            _ => None,
        };
        drop(store);
        if let Some(event) = event {
            self.emit(event);
        }
        true
    }
}

impl EmailServer for EmailService {
    fn gateway(&self) -> &Gateway {
        &self.inner.gateway
    }

    fn resource_store(&self) -> &crate::server::Resources {
        &self.inner.resources
    }

    async fn list_resources(
        &self,
        _ctx: RequestContext,
        query: ListResourcesQuery,
    ) -> Result<Page<Resource>, ServerError> {
        let store = self.store();
        page(
            &store.resources,
            |r| r.id.as_deref().unwrap_or(""),
            query.limit,
            query.after.as_deref(),
            None,
        )
    }

    async fn send_email(
        &self,
        _ctx: RequestContext,
        body: SendEmailRequest,
    ) -> Result<SendEmailResponse, ServerError> {
        self.accept(body).await
    }

    async fn send_batch(
        &self,
        _ctx: RequestContext,
        body: SendBatchRequest,
    ) -> Result<tidings::email::SendBatchResponse, ServerError> {
        let mut data = Vec::with_capacity(body.emails.len());
        let mut pending = Vec::with_capacity(body.emails.len());
        for (i, email) in body.emails.into_iter().enumerate() {
            let (response, durable) = self.accept_from(email, None).map_err(|e| {
                let param = format!(
                    "emails[{i}]{}",
                    e.param().map(|p| format!(".{p}")).unwrap_or_default()
                );
                ServerError::new(e.status(), e.code().to_owned(), e.message().to_owned())
                    .with_param(param)
            })?;
            pending.push((response.id.clone(), durable));
            data.push(response);
        }
        // One commit covers the batch: wait for all of it before answering.
        let mut failure = None;
        for (id, durable) in pending {
            if let Err(e) = self.stored(&id, durable).await {
                failure = Some(e);
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(tidings::email::SendBatchResponse::new(data)),
        }
    }

    async fn list_emails(
        &self,
        _ctx: RequestContext,
        query: ListEmailsQuery,
    ) -> Result<Page<Email>, ServerError> {
        let emails: Vec<Email> = self
            .store()
            .emails
            .iter()
            .rev()
            .map(|s| s.email.clone())
            .collect();
        page(
            &emails,
            |e| e.id.as_str(),
            query.limit,
            query.after.as_deref(),
            query.before.as_deref(),
        )
    }

    async fn get_email(&self, _ctx: RequestContext, id: String) -> Result<Email, ServerError> {
        Ok(self.store().email_mut(&id)?.email.clone())
    }

    async fn reschedule_email(
        &self,
        _ctx: RequestContext,
        id: String,
        body: RescheduleEmailRequest,
    ) -> Result<Email, ServerError> {
        let when = parse_rfc3339(&body.scheduled_at)
            .ok_or_else(|| ServerError::validation("scheduled_at", "not an RFC 3339 timestamp"))?;
        let email_generation = {
            let mut store = self.store();
            let stored = store.email_mut(&id)?;
            if stored.email.status != EmailStatus::Scheduled {
                return Err(ServerError::conflict(
                    "email_not_scheduled",
                    format!(
                        "email `{id}` is {}; only scheduled emails can be rescheduled",
                        stored.email.status
                    ),
                ));
            }
            stored.generation += 1;
            stored.email.scheduled_at = Some(format_rfc3339(when));
            let stored = &*stored;
            let durable = self.save_email(stored);
            (stored.email.clone(), stored.generation, durable)
        };
        let (email, generation, durable) = email_generation;
        self.start_lifecycle(id, generation);
        durable.answer().await?;
        Ok(email)
    }

    async fn cancel_email(&self, _ctx: RequestContext, id: String) -> Result<Email, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            let stored = store.email_mut(&id)?;
            if stored.email.status != EmailStatus::Scheduled {
                return Err(ServerError::conflict(
                    "email_not_scheduled",
                    format!(
                        "email `{id}` is {}; only scheduled emails can be canceled",
                        stored.email.status
                    ),
                ));
            }
            stored.generation += 1;
            stored.email.status = EmailStatus::Canceled;
            stored.email.last_event = Some(EmailLastEvent::Canceled);
            let stored = &*stored;
            let durable = self.save_email(stored);
            let email = stored.email.clone();
            (email, durable)
        };
        durable.answer().await?;
        Ok(answer)
    }

    async fn create_template(
        &self,
        _ctx: RequestContext,
        body: CreateTemplateRequest,
    ) -> Result<Template, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            if let Some(alias) = &body.alias
                && store.template_index(alias).is_ok()
            {
                return Err(ServerError::conflict(
                    "conflict",
                    format!("a template has the alias `{alias}`"),
                )
                .with_param("alias"));
            }
            let mut template = Template::new(
                new_id("tpl"),
                body.name,
                TemplateStatus::Draft,
                now_rfc3339(),
            );
            template.alias = body.alias;
            template.subject = body.subject;
            template.from = body.from;
            template.reply_to = body.reply_to;
            template.html = body.html;
            template.text = body.text;
            template.variables = body.variables;
            let durable = self.save("template", &template.id, Some(&template));
            store.templates.push(template.clone());
            (template, durable)
        };
        durable.answer().await?;
        Ok(answer)
    }

    async fn list_templates(
        &self,
        _ctx: RequestContext,
        query: ListTemplatesQuery,
    ) -> Result<Page<Template>, ServerError> {
        let templates = newest_first(&self.store().templates);
        page(
            &templates,
            |t| t.id.as_str(),
            query.limit,
            query.after.as_deref(),
            query.before.as_deref(),
        )
    }

    async fn get_template(
        &self,
        _ctx: RequestContext,
        id: String,
    ) -> Result<Template, ServerError> {
        let store = self.store();
        Ok(store.templates[store.template_index(&id)?].clone())
    }

    async fn update_template(
        &self,
        _ctx: RequestContext,
        id: String,
        body: UpdateTemplateRequest,
    ) -> Result<Template, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            let index = store.template_index(&id)?;
            if let Some(alias) = &body.alias
                && store.template_index(alias).is_ok_and(|i| i != index)
            {
                return Err(ServerError::conflict(
                    "conflict",
                    format!("a template has the alias `{alias}`"),
                )
                .with_param("alias"));
            }
            let t = &mut store.templates[index];
            macro_rules! set {
                ($($field:ident),*) => { $( if body.$field.is_some() { t.$field = body.$field; } )* };
            }
            if let Some(name) = body.name {
                t.name = name;
            }
            set!(alias, subject, from, reply_to, html, text, variables);
            t.updated_at = Some(now_rfc3339());
            let t = t.clone();
            let durable = self.save("template", &t.id, Some(&t));
            (t, durable)
        };
        durable.answer().await?;
        Ok(answer)
    }

    async fn delete_template(
        &self,
        _ctx: RequestContext,
        id: String,
    ) -> Result<DeletedObject, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            let index = store.template_index(&id)?;
            let template = store.templates.remove(index);
            let durable = self.save::<Template>("template", &template.id, None);
            (
                DeletedObject::new(template.id, true).object("template"),
                durable,
            )
        };
        durable.answer().await?;
        Ok(answer)
    }

    async fn publish_template(
        &self,
        _ctx: RequestContext,
        id: String,
    ) -> Result<Template, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            let index = store.template_index(&id)?;
            let t = &mut store.templates[index];
            if t.html.is_none() && t.text.is_none() {
                // The request is fine; the template is not ready: a conflict with its state.
                return Err(ServerError::conflict(
                    "conflict",
                    "a template needs `html` or `text` to be published",
                )
                .with_param("html"));
            }
            if t.status != TemplateStatus::Published {
                t.status = TemplateStatus::Published;
                t.published_at = Some(now_rfc3339());
            }
            let t = t.clone();
            let durable = self.save("template", &t.id, Some(&t));
            (t, durable)
        };
        durable.answer().await?;
        Ok(answer)
    }

    async fn create_contact(
        &self,
        _ctx: RequestContext,
        body: CreateContactRequest,
    ) -> Result<Contact, ServerError> {
        let contact = {
            let mut store = self.store();
            if store.contact_index(&body.email).is_ok() {
                return Err(ServerError::conflict(
                    "conflict",
                    format!("a contact has the address `{}`", body.email),
                )
                .with_param("email"));
            }
            store.check_lists(body.list_ids.as_ref())?;
            let mut contact = Contact::new(new_id("ct"), bare_address(&body.email), now_rfc3339());
            contact.first_name = body.first_name;
            contact.last_name = body.last_name;
            contact.attributes = body.attributes;
            contact.list_ids = body.list_ids;
            contact.unsubscribed = body.unsubscribed;
            let durable = self.save("contact", &contact.id, Some(&contact));
            store.contacts.push(contact.clone());
            (contact, durable)
        };
        let (contact, durable) = contact;
        durable.answer().await?;
        self.emit(EmailEvent::ContactCreated(contact_data(&contact)));
        Ok(contact)
    }

    async fn upsert_contact(
        &self,
        ctx: RequestContext,
        body: CreateContactRequest,
    ) -> Result<Contact, ServerError> {
        let existing = self.store().contact_index(&body.email).ok();
        match existing {
            None => self.create_contact(ctx, body).await,
            Some(_) => {
                let mut update = UpdateContactRequest::default();
                update.first_name = body.first_name;
                update.last_name = body.last_name;
                update.attributes = body.attributes;
                update.list_ids = body.list_ids;
                update.unsubscribed = body.unsubscribed;
                self.update_contact(ctx, body.email, update).await
            }
        }
    }

    async fn list_contacts(
        &self,
        _ctx: RequestContext,
        query: ListContactsQuery,
    ) -> Result<Page<Contact>, ServerError> {
        let contacts: Vec<Contact> = {
            let store = self.store();
            // An empty filter (`?list_id=`) is no filter.
            let list_id = query.list_id.as_deref().filter(|l| !l.is_empty());
            if let Some(list) = list_id {
                store
                    .list_index(list)
                    .map_err(|e| e.with_param("list_id"))?;
            }
            store
                .contacts
                .iter()
                .rev()
                .filter(|c| match list_id {
                    Some(list) => c.list_ids.iter().flatten().any(|id| id == list),
                    None => true,
                })
                .cloned()
                .collect()
        };
        page(
            &contacts,
            |c| c.id.as_str(),
            query.limit,
            query.after.as_deref(),
            query.before.as_deref(),
        )
    }

    async fn get_contact(
        &self,
        _ctx: RequestContext,
        id_or_email: String,
    ) -> Result<Contact, ServerError> {
        let store = self.store();
        Ok(store.contacts[store.contact_index(&id_or_email)?].clone())
    }

    async fn update_contact(
        &self,
        _ctx: RequestContext,
        id_or_email: String,
        body: UpdateContactRequest,
    ) -> Result<Contact, ServerError> {
        let contact = {
            let mut store = self.store();
            let index = store.contact_index(&id_or_email)?;
            if let Some(email) = &body.email
                && store.contact_index(email).is_ok_and(|i| i != index)
            {
                return Err(ServerError::conflict(
                    "conflict",
                    format!("a contact has the address `{email}`"),
                )
                .with_param("email"));
            }
            store.check_lists(body.list_ids.as_ref())?;
            let c = &mut store.contacts[index];
            if let Some(email) = body.email {
                c.email = bare_address(&email);
            }
            if body.first_name.is_some() {
                c.first_name = body.first_name;
            }
            if body.last_name.is_some() {
                c.last_name = body.last_name;
            }
            if let Some(attributes) = body.attributes {
                c.attributes
                    .get_or_insert_with(BTreeMap::new)
                    .extend(attributes);
            }
            if body.list_ids.is_some() {
                c.list_ids = body.list_ids;
            }
            if body.unsubscribed.is_some() {
                c.unsubscribed = body.unsubscribed;
            }
            c.updated_at = Some(now_rfc3339());
            let c = c.clone();
            let durable = self.save("contact", &c.id, Some(&c));
            (c, durable)
        };
        let (contact, durable) = contact;
        durable.answer().await?;
        self.emit(EmailEvent::ContactUpdated(contact_data(&contact)));
        Ok(contact)
    }

    async fn delete_contact(
        &self,
        _ctx: RequestContext,
        id_or_email: String,
    ) -> Result<DeletedObject, ServerError> {
        let contact = {
            let mut store = self.store();
            let index = store.contact_index(&id_or_email)?;
            let contact = store.contacts.remove(index);
            let durable = self.save::<Contact>("contact", &contact.id, None);
            (contact, durable)
        };
        let (contact, durable) = contact;
        durable.answer().await?;
        self.emit(EmailEvent::ContactDeleted(contact_data(&contact)));
        Ok(DeletedObject::new(contact.id, true).object("contact"))
    }

    async fn create_list(
        &self,
        _ctx: RequestContext,
        body: CreateListRequest,
    ) -> Result<ContactList, ServerError> {
        let mut list = ContactList::new(new_id("lst"), body.name, now_rfc3339()).contact_count(0);
        list.description = body.description;
        let durable = {
            let mut store = self.store();
            let durable = self.save("list", &list.id, Some(&list));
            store.lists.push(list.clone());
            durable
        };
        durable.answer().await?;
        Ok(list)
    }

    async fn list_lists(
        &self,
        _ctx: RequestContext,
        query: ListListsQuery,
    ) -> Result<Page<ContactList>, ServerError> {
        let lists: Vec<ContactList> = {
            let store = self.store();
            store
                .lists
                .iter()
                .rev()
                .map(|l| store.with_count(l))
                .collect()
        };
        page(
            &lists,
            |l| l.id.as_str(),
            query.limit,
            query.after.as_deref(),
            query.before.as_deref(),
        )
    }

    async fn get_list(&self, _ctx: RequestContext, id: String) -> Result<ContactList, ServerError> {
        let store = self.store();
        Ok(store.with_count(&store.lists[store.list_index(&id)?]))
    }

    async fn update_list(
        &self,
        _ctx: RequestContext,
        id: String,
        body: UpdateListRequest,
    ) -> Result<ContactList, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            let index = store.list_index(&id)?;
            let l = &mut store.lists[index];
            if let Some(name) = body.name {
                l.name = name;
            }
            if body.description.is_some() {
                l.description = body.description;
            }
            l.updated_at = Some(now_rfc3339());
            let l = l.clone();
            let durable = self.save("list", &l.id, Some(&l));
            let answer = store.with_count(&l);
            (answer, durable)
        };
        durable.answer().await?;
        Ok(answer)
    }

    async fn delete_list(
        &self,
        _ctx: RequestContext,
        id: String,
    ) -> Result<DeletedObject, ServerError> {
        let (list, durable) = {
            let mut store = self.store();
            let index = store.list_index(&id)?;
            let list = store.lists.remove(index);
            let mut durable = self.save::<ContactList>("list", &list.id, None);
            for c in &mut store.contacts {
                if let Some(ids) = &mut c.list_ids
                    && ids.contains(&list.id)
                {
                    ids.retain(|l| *l != list.id);
                    durable = durable.and(self.save("contact", &c.id, Some(&*c)));
                }
            }
            (list, durable)
        };
        durable.answer().await?;
        Ok(DeletedObject::new(list.id, true).object("list"))
    }

    async fn list_list_contacts(
        &self,
        ctx: RequestContext,
        id: String,
        query: ListListContactsQuery,
    ) -> Result<Page<Contact>, ServerError> {
        self.store().list_index(&id)?;
        // The same page window, narrowed to the list (`#[non_exhaustive]`: fields, not a literal).
        let mut contacts = ListContactsQuery::default().list_id(id);
        contacts.limit = query.limit;
        contacts.after = query.after;
        contacts.before = query.before;
        let query = contacts;
        self.list_contacts(ctx, query).await
    }

    async fn add_list_contact(
        &self,
        _ctx: RequestContext,
        id: String,
        body: AddListContactRequest,
    ) -> Result<ListMembership, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            store.list_index(&id)?;
            let index = store.contact_index(&body.contact)?;
            let c = &mut store.contacts[index];
            let ids = c.list_ids.get_or_insert_with(Vec::new);
            if !ids.contains(&id) {
                ids.push(id.clone());
                c.updated_at = Some(now_rfc3339());
            }
            let mut membership = ListMembership::new(id, c.id.clone());
            membership.added_at.clone_from(&c.updated_at);
            let durable = self.save("contact", &c.id, Some(&*c));
            (membership, durable)
        };
        durable.answer().await?;
        Ok(answer)
    }

    async fn remove_list_contact(
        &self,
        _ctx: RequestContext,
        id: String,
        contact: String,
    ) -> Result<(), ServerError> {
        let durable = {
            let mut store = self.store();
            store.list_index(&id)?;
            let index = store.contact_index(&contact)?;
            let c = &mut store.contacts[index];
            if let Some(ids) = &mut c.list_ids {
                ids.retain(|l| *l != id);
            }
            self.save("contact", &c.id, Some(&*c))
        };
        durable.answer().await
    }

    async fn create_suppression(
        &self,
        _ctx: RequestContext,
        body: CreateSuppressionRequest,
    ) -> Result<Suppression, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            if store.suppressed(&body.email).is_some() {
                return Err(ServerError::conflict(
                    "conflict",
                    format!("`{}` is already suppressed", body.email),
                )
                .with_param("email"));
            }
            let suppression = Suppression::new(
                new_id("sup"),
                bare_address(&body.email),
                body.reason.unwrap_or(SuppressionReason::Manual),
                now_rfc3339(),
            );
            let durable = self.save("suppression", &suppression.id, Some(&suppression));
            store.suppressions.push(suppression.clone());
            (suppression, durable)
        };
        durable.answer().await?;
        Ok(answer)
    }

    async fn list_suppressions(
        &self,
        _ctx: RequestContext,
        query: ListSuppressionsQuery,
    ) -> Result<Page<Suppression>, ServerError> {
        let items: Vec<Suppression> = self
            .store()
            .suppressions
            .iter()
            .rev()
            .filter(|s| {
                query
                    .reason
                    .as_deref()
                    .is_none_or(|r| s.reason.as_str() == r)
            })
            .cloned()
            .collect();
        page(
            &items,
            |s| s.id.as_str(),
            query.limit,
            query.after.as_deref(),
            query.before.as_deref(),
        )
    }

    async fn get_suppression(
        &self,
        _ctx: RequestContext,
        email: String,
    ) -> Result<Suppression, ServerError> {
        self.store()
            .suppressed(&email)
            .cloned()
            .ok_or_else(|| ServerError::not_found(format!("suppression of `{email}`")))
    }

    async fn delete_suppression(
        &self,
        _ctx: RequestContext,
        email: String,
    ) -> Result<DeletedObject, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            let address = bare_address(&email);
            let index = store
                .suppressions
                .iter()
                .position(|s| s.email.eq_ignore_ascii_case(&address))
                .ok_or_else(|| ServerError::not_found(format!("suppression of `{email}`")))?;
            let s = store.suppressions.remove(index);
            let durable = self.save::<Suppression>("suppression", &s.id, None);
            (
                DeletedObject::new(s.email, true).object("suppression"),
                durable,
            )
        };
        durable.answer().await?;
        Ok(answer)
    }

    async fn create_webhook(
        &self,
        _ctx: RequestContext,
        body: CreateWebhookRequest,
    ) -> Result<WebhookEndpoint, ServerError> {
        let mut endpoint = WebhookEndpoint::new(
            new_id("wh"),
            body.url,
            body.events,
            WebhookEndpointStatus::Enabled,
            now_rfc3339(),
        )
        .secret(crate::server::generate_secret());
        endpoint.description = body.description;
        let durable = {
            let mut store = self.store();
            let durable = self.save("webhook", &endpoint.id, Some(&endpoint));
            store.webhooks.push(endpoint.clone());
            durable
        };
        durable.answer().await?;
        Ok(endpoint)
    }

    async fn list_webhooks(
        &self,
        _ctx: RequestContext,
        query: ListWebhooksQuery,
    ) -> Result<Page<WebhookEndpoint>, ServerError> {
        let items = newest_first(&self.store().webhooks);
        page(
            &items,
            |w| w.id.as_str(),
            query.limit,
            query.after.as_deref(),
            query.before.as_deref(),
        )
    }

    async fn get_webhook(
        &self,
        _ctx: RequestContext,
        id: String,
    ) -> Result<WebhookEndpoint, ServerError> {
        self.store()
            .webhooks
            .iter()
            .find(|w| w.id == id)
            .cloned()
            .ok_or_else(|| ServerError::not_found(format!("webhook endpoint `{id}`")))
    }

    async fn update_webhook(
        &self,
        _ctx: RequestContext,
        id: String,
        body: UpdateWebhookRequest,
    ) -> Result<WebhookEndpoint, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            let w = store
                .webhooks
                .iter_mut()
                .find(|w| w.id == id)
                .ok_or_else(|| ServerError::not_found(format!("webhook endpoint `{id}`")))?;
            if let Some(url) = body.url {
                w.url = url;
            }
            if let Some(events) = body.events {
                w.events = events;
            }
            if let Some(status) = body.status {
                w.status = status;
            }
            if body.description.is_some() {
                w.description = body.description;
            }
            let w = w.clone();
            let durable = self.save("webhook", &w.id, Some(&w));
            (w, durable)
        };
        durable.answer().await?;
        Ok(answer)
    }

    async fn delete_webhook(
        &self,
        _ctx: RequestContext,
        id: String,
    ) -> Result<DeletedObject, ServerError> {
        let (answer, durable) = {
            let mut store = self.store();
            let index = store
                .webhooks
                .iter()
                .position(|w| w.id == id)
                .ok_or_else(|| ServerError::not_found(format!("webhook endpoint `{id}`")))?;
            let w = store.webhooks.remove(index);
            let durable = self.save::<WebhookEndpoint>("webhook", &w.id, None);
            (DeletedObject::new(w.id, true).object("webhook"), durable)
        };
        durable.answer().await?;
        Ok(answer)
    }
}

impl MailSink for EmailService {
    fn deliver(&self, mail: ReceivedMail) -> Result<String, ServerError> {
        self.deliver_durable(mail).map(|(id, _)| id)
    }

    fn deliver_durable(&self, mail: ReceivedMail) -> Result<(String, Durable), ServerError> {
        let request = mail.to_request()?;
        tidings_runtime::validate::Validator::check(&request)?;
        if let Some(key) = &mail.idempotency_key {
            let store = self.store();
            if let Some((fingerprint, id)) = store.smtp_keys.get(key) {
                return if *fingerprint == mail.fingerprint() {
                    Ok((id.clone(), Durable::ready()))
                } else {
                    Err(ServerError::conflict(
                        "idempotency_key_reused",
                        "this X-Idempotency-Key was used with a different message",
                    ))
                };
            }
        }
        let (response, mut durable) = self.accept_from(request, Some(&mail.raw))?;
        let id = response.id;
        if let Some(key) = mail.idempotency_key.clone() {
            let mut store = self.store();
            let saved = SavedSmtpKey {
                fingerprint: mail.fingerprint(),
                email_id: id.clone(),
            };
            durable = durable.and(self.save("smtp_key", &key, Some(&saved)));
            store.smtp_keys.insert(key, (saved.fingerprint, id.clone()));
        }
        Ok((id, durable))
    }

    fn not_stored(&self, id: &str) {
        let mut store = self.store();
        store.emails.retain(|s| s.email.id != id);
        store.body_bytes = store.emails.iter().map(body_cost).sum();
        drop(store);
        if let Some(inbox) = &self.inner.inbox {
            inbox.delete_email(id);
        }
    }
}
