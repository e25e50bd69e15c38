//! The messaging service sandbox: every operation of `spec/messaging.yaml`, in memory, behind
//! the generated [`MessagingServer`] router (auth, rate limit, idempotency keys, validation and
//! error bodies come from the spec).
//!
//! **Lifecycle** (on a timer, one [`ServiceSettings::lifecycle_step`] apart, 300 ms by
//! default): SMS `accepted → submitted → delivered`; WhatsApp and Instagram go on to `read`;
//! voice calls `started → ringing → answered → completed`. A recipient whose number ends in
//! `0000` gets `undeliverable` after `submitted` (a call: `unanswered` after `ringing`).
//! WhatsApp templates must be among the sandbox's templates (`list_templates`) and approved.
//!
//! **Webhooks**: each status change is posted as a `message.status` event, signed with
//! Standard Webhooks, to the message's `webhook_url` or else the configured target; inbound
//! messages ([`MessagingSandbox::receive`]) are posted as `message.inbound`. Failed deliveries
//! are retried with backoff.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use tidings_sandbox::messaging::{MessagingSandbox, MessagingSandboxConfig};
//! let sandbox = MessagingSandbox::start(MessagingSandboxConfig::default()).await?;
//! let client = sandbox.client()?;
//! let sent = client
//!     .send_message(&tidings::messaging::Message::sms("Acme", "+447700900123", "Your code is 123456"))
//!     .await?;
//! println!("{}", client.get_message(&sent.message_uuid).await?.status);
//! sandbox.shutdown().await;
//! # Ok(())
//! # }
//! ```
//!
//! [`ServiceSettings::lifecycle_step`]: crate::ServiceSettings::lifecycle_step

use std::fmt;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use indexmap::IndexMap;

use crate::inbox::{Durable, StateWrite};
use crate::server::Serving;
use tidings::messaging::{
    Channel, Direction, InboundMessage, ListMessagesQuery, ListResourcesQuery, ListTemplatesQuery,
    Message, MessageRecord, MessageStatus, MessageType, MessagingEvent, Page, Resource,
    SendMessageResponse, SmsStatusDetails, StatusError, StatusEvent, Template, TemplateCategory,
    TemplateStatus, UpdateMessageRequest, UpdateMessageStatus, Usage,
};

use crate::server::messaging_server::{self, MessagingServer};

mod store;

use crate::server::{
    Background, Delivery, Gateway, PageRequest, RateLimit, RequestContext, ServerError,
    WebhookSender, generate_secret, now_rfc3339, paginate,
};
pub use store::DEFAULT_MAX_MESSAGE_BYTES;
use store::{STATE, SavedMessage, Store, restored};

/// Settings of a [`MessagingSandbox`]; start from `MessagingSandboxConfig::default()`, change
/// the shared ones with the [`ServiceConfig`](crate::ServiceConfig) methods.
#[derive(Clone)]
#[non_exhaustive]
pub struct MessagingSandboxConfig {
    /// Key, address, rate limit (the spec's 1000 per minute by default), lifecycle pace (one
    /// status change of a message every 300 ms), the account's default webhook (where events
    /// go when a message names no `webhook_url`), bounds and inbox.
    pub service: crate::ServiceSettings,
    /// The WhatsApp templates the account has (three by default: `welcome` and
    /// `order_update` approved, `spring_sale` pending).
    pub templates: Vec<Template>,
    /// Most bytes the kept messages may take in memory (records as JSON, webhook URLs);
    /// the oldest are forgotten past it, the newest always stays. Default
    /// [`DEFAULT_MAX_MESSAGE_BYTES`] (64 MiB).
    pub max_message_bytes: usize,
}

impl Default for MessagingSandboxConfig {
    fn default() -> Self {
        MessagingSandboxConfig {
            service: crate::ServiceSettings::new(
                tidings::messaging::SERVICE.rate_limit.map(RateLimit::from),
            ),
            templates: default_templates(),
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        }
    }
}

impl fmt::Debug for MessagingSandboxConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MessagingSandboxConfig")
            .field("service", &self.service)
            .field("templates", &self.templates.len())
            .field("max_message_bytes", &self.max_message_bytes)
            .finish()
    }
}

impl crate::ServiceConfig for MessagingSandboxConfig {
    fn settings_mut(&mut self) -> &mut crate::ServiceSettings {
        &mut self.service
    }
}

impl MessagingSandboxConfig {
    /// The account's WhatsApp templates.
    pub fn templates(mut self, templates: Vec<Template>) -> Self {
        self.templates = templates;
        self
    }
}

fn template(id: &str, name: &str, category: TemplateCategory, status: TemplateStatus) -> Template {
    Template::new(id, name, "en_US", status)
        .category(category)
        .components([serde_json::json!({
            "type": "BODY",
            "text": "Hello {{1}}, this is a sandbox template."
        })])
        .updated_at("2026-01-01T00:00:00.000Z")
}

fn default_templates() -> Vec<Template> {
    vec![
        template(
            "tpl_welcome",
            "welcome",
            TemplateCategory::Utility,
            TemplateStatus::Approved,
        ),
        template(
            "tpl_order_update",
            "order_update",
            TemplateCategory::Utility,
            TemplateStatus::Approved,
        ),
        template(
            "tpl_spring_sale",
            "spring_sale",
            TemplateCategory::Marketing,
            TemplateStatus::Pending,
        ),
    ]
}

/// A running messaging sandbox. Stopped by [`MessagingSandbox::shutdown`] or drop.
pub struct MessagingSandbox {
    addr: SocketAddr,
    base_url: String,
    api_key: String,
    service: MessagingService,
    http: Serving,
}

impl fmt::Debug for MessagingSandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MessagingSandbox")
            .field("base_url", &self.base_url)
            .field("api_key", &"<redacted>")
            .finish_non_exhaustive()
    }
}

impl MessagingSandbox {
    /// Starts the sandbox on loopback (a free port unless configured).
    ///
    /// # Errors
    ///
    /// When the port cannot be bound.
    pub async fn start(config: MessagingSandboxConfig) -> std::io::Result<MessagingSandbox> {
        let background = Background::new();
        let gateway = Gateway::new(&tidings::messaging::SERVICE)
            .credential("api_key", config.service.api_key.clone())
            .rate_limit(config.service.rate_limit)
            .limits(&config.service.limits)
            .idempotency_data(
                config
                    .service
                    .inbox
                    .as_ref()
                    .and_then(crate::inbox::Inbox::data_dir),
                "builtin-messaging",
            )?;
        let secret = config
            .service
            .webhook
            .as_ref()
            .map_or_else(generate_secret, |t| t.secret.clone());
        let service = MessagingService {
            inner: Arc::new(Inner {
                gateway,
                resources: crate::server::Resources::in_data_dir(
                    crate::server::ResourceLimits::default(),
                    config
                        .service
                        .inbox
                        .as_ref()
                        .and_then(crate::inbox::Inbox::data_dir),
                    "builtin-messaging",
                )
                .map_err(std::io::Error::other)?,
                store: Mutex::new({
                    let mut store = Store {
                        messages: IndexMap::new(),
                        message_bytes: 0,
                        templates: config.templates,
                        resources: (1..=3)
                            .map(|i| Resource::default().id(format!("res_{i}")))
                            .collect(),
                    };
                    // What a restart found, within the budget (older ones beyond it are
                    // forgotten, on disk too).
                    let mut forgotten = Vec::new();
                    for (record, url) in restored(config.service.inbox.as_ref()) {
                        forgotten.extend(store.keep_message(record, url, config.max_message_bytes));
                    }
                    if let Some(inbox) = config.service.inbox.as_ref().filter(|i| i.is_persistent())
                    {
                        for uuid in &forgotten {
                            let _ = inbox.save_state(STATE, "message", uuid, None);
                        }
                    }
                    store
                }),
                webhooks: {
                    let sender =
                        WebhookSender::new(background.clone(), config.service.webhook_retry);
                    let sender = match &config.service.inbox {
                        Some(inbox) => inbox.attach_sender("messaging", sender),
                        None => sender,
                    };
                    if config.service.deliver_webhooks {
                        sender
                    } else {
                        sender.deliveries_off()
                    }
                },
                inbox: config.service.inbox,
                max_message_bytes: config.max_message_bytes,
                background,
                step: config.service.lifecycle_step,
                webhook_url: config.service.webhook.map(|t| t.url),
                secret,
            }),
        };
        let listener =
            tokio::net::TcpListener::bind((config.service.host, config.service.port)).await?;
        let addr = listener.local_addr()?;
        let app = messaging_server::router(Arc::new(service.clone()));
        let http = Serving::spawn(
            listener,
            app,
            "messaging",
            &config.service.limits,
            crate::server::Writes::Any,
        );
        Ok(MessagingSandbox {
            addr,
            base_url: format!("http://{addr}"),
            api_key: config.service.api_key,
            service,
            http,
        })
    }

    /// The REST API's base URL, for `MessagingClient::builder().base_url(..)`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The HTTP address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The API key the sandbox accepts.
    pub fn api_key(&self) -> &str {
        &self.api_key
    }

    /// The secret webhooks are signed with (the configured target's, or one made at start).
    pub fn webhook_secret(&self) -> &str {
        &self.service.inner.secret
    }

    /// A client for this sandbox.
    ///
    /// # Errors
    ///
    /// When the client cannot be built.
    pub fn client(&self) -> Result<tidings::messaging::MessagingClient, tidings::Error> {
        tidings::messaging::MessagingClient::builder()
            .base_url(&self.base_url)
            .api_key(self.api_key.clone())
            .build()
    }

    /// Every webhook delivery so far.
    pub fn webhook_deliveries(&self) -> Vec<Delivery> {
        self.service.inner.webhooks.deliveries()
    }

    /// Simulates a user's message arriving: stores it (status `delivered`, direction
    /// `inbound`) and posts a `message.inbound` event. Returns its `message_uuid`.
    pub fn receive(
        &self,
        channel: Channel,
        from: impl Into<String>,
        to: impl Into<String>,
        text: impl Into<String>,
    ) -> String {
        self.service
            .receive(channel, from.into(), to.into(), text.into())
    }

    /// The inbox's handle for simulating inbound messages.
    pub(crate) fn inbound_handle(&self) -> InboundHandle {
        InboundHandle(self.service.clone())
    }

    /// Stops the server and every background task.
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

impl Drop for MessagingSandbox {
    fn drop(&mut self) {
        self.stop();
        self.service.inner.resources.close();
        self.service.inner.gateway.close_idempotency_data();
    }
}

#[derive(Clone)]
struct MessagingService {
    inner: Arc<Inner>,
}

/// Simulates inbound messages for the inbox's form ([`MessagingSandbox::receive`]).
#[derive(Clone)]
pub(crate) struct InboundHandle(MessagingService);

impl crate::inbox::web::Inbound for InboundHandle {
    fn receive(&self, channel: Channel, from: String, to: String, text: String) -> String {
        self.0.receive(channel, from, to, text)
    }
}

struct Inner {
    gateway: Gateway,
    /// Serves the operations this file does not implement (new ones in the spec).
    resources: crate::server::Resources,
    store: Mutex<Store>,
    webhooks: WebhookSender,
    inbox: Option<crate::inbox::Inbox>,
    background: Background,
    /// Most bytes of messages kept in memory.
    max_message_bytes: usize,
    step: Duration,
    webhook_url: Option<String>,
    secret: String,
}

/// What a channel's messages cost in the sandbox, per message (SMS: per segment).
fn price(channel: &Channel) -> &'static str {
    match channel {
        Channel::Sms => "0.0070",
        Channel::Whatsapp => "0.0050",
        Channel::Voice => "0.0120",
        _ => "0.0000",
    }
}

impl MessagingService {
    /// Queues one message for the data directory (call it holding the store's lock, so the
    /// disk sees changes in their order); ready at once in memory.
    /// Drops the saved copies of messages the memory budget forgot (called holding the
    /// store's lock, so the disk sees changes in their order).
    fn forgotten(&self, uuids: &[String]) {
        if uuids.is_empty() {
            return;
        }
        if let Some(inbox) = self.inner.inbox.as_ref().filter(|i| i.is_persistent()) {
            for uuid in uuids {
                let _ = inbox.save_state(STATE, "message", uuid, None);
            }
        }
        tracing::info!(
            forgotten = uuids.len(),
            max_bytes = self.inner.max_message_bytes,
            "messaging sandbox: message memory budget reached; the oldest messages were forgotten"
        );
    }

    fn save(&self, record: &MessageRecord, webhook_url: Option<&String>) -> Durable {
        match (&self.inner.inbox, self.state_write(record, webhook_url)) {
            (_, Err(why)) => Durable::failed(why),
            (Some(inbox), Ok(Some(row))) => {
                inbox.save_state(row.service, row.kind, &row.id, row.doc)
            }
            _ => Durable::ready(),
        }
    }

    /// The message's row of the service's state, when the inbox keeps a data directory.
    fn state_write(
        &self,
        record: &MessageRecord,
        webhook_url: Option<&String>,
    ) -> Result<Option<StateWrite>, String> {
        match &self.inner.inbox {
            Some(inbox) if inbox.is_persistent() => {
                let saved = SavedMessage {
                    record: record.clone(),
                    webhook_url: webhook_url.cloned(),
                };
                let doc = serde_json::to_string(&saved)
                    .map_err(|e| format!("cannot encode the message: {e}"))?;
                Ok(Some(StateWrite {
                    service: STATE,
                    kind: "message",
                    id: record.message_uuid.clone(),
                    doc: Some(doc),
                }))
            }
            _ => Ok(None),
        }
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        self.inner
            .store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn post(&self, url: Option<String>, event: &MessagingEvent) {
        let Some(url) = url.or_else(|| self.inner.webhook_url.clone()) else {
            return;
        };
        let body = match serde_json::to_vec(event) {
            Ok(body) => body,
            Err(e) => {
                tracing::warn!(error = %e, "cannot encode a messaging event");
                return;
            }
        };
        let event_type = match event {
            MessagingEvent::Status(_) => "message.status",
            MessagingEvent::Inbound(_) => "message.inbound",
            _ => "unknown",
        };
        if let Err(e) = self
            .inner
            .webhooks
            .send(&url, &self.inner.secret, event_type, body)
        {
            tracing::warn!(error = %e, "cannot queue a webhook");
        }
    }

    fn receive(&self, channel: Channel, from: String, to: String, text: String) -> String {
        let uuid = uuid::Uuid::new_v4().to_string();
        let now = now_rfc3339();
        let record = MessageRecord::new(
            uuid.clone(),
            uuid.clone(),
            channel.clone(),
            from.clone(),
            to.clone(),
            MessageStatus::Delivered,
        )
        .message_type(MessageType::Text)
        .direction(Direction::Inbound)
        .text(text.clone())
        .timestamp(now.clone())
        .updated_at(now.clone());
        if let Some(inbox) = &self.inner.inbox {
            // With the service's row, in one transaction (an encoding failure cannot happen
            // for a record the service built; nobody waits for this answer).
            let state = self.state_write(&record, None).ok().flatten();
            let _ = inbox.record_message(&record, serde_json::json!({ "text": text }), &[], state);
        }
        {
            let mut store = self.store();
            let forgotten = store.keep_message(record, None, self.inner.max_message_bytes);
            self.forgotten(&forgotten);
        }
        let event = MessagingEvent::Inbound(
            InboundMessage::new(uuid.clone(), channel, MessageType::Text, from, to, now).text(text),
        );
        self.post(None, &event);
        uuid
    }

    async fn lifecycle(&self, uuid: String, steps: Vec<MessageStatus>) {
        for status in steps {
            tokio::time::sleep(self.inner.step).await;
            let (event, url) = {
                let mut store = self.store();
                let Ok((record, url)) = store.message_mut(&uuid) else {
                    return;
                };
                record.status = status.clone();
                record.updated_at = Some(now_rfc3339());
                if let Some(inbox) = &self.inner.inbox {
                    inbox.message_status(&uuid, status.as_str());
                }
                let terminal =
                    matches!(status, MessageStatus::Delivered | MessageStatus::Completed);
                if matches!(
                    status,
                    MessageStatus::Undeliverable | MessageStatus::Unanswered
                ) {
                    record.error = Some(
                        StatusError::new("1320")
                            .title("Undeliverable")
                            .detail("The sandbox never delivers to numbers ending in 0000."),
                    );
                }
                let segments = (record.channel == Channel::Sms)
                    .then(|| {
                        record
                            .text
                            .as_deref()
                            .map(|t| tidings::messaging::sms::segments(t).segments)
                    })
                    .flatten();
                if terminal {
                    let units = segments.unwrap_or(1).max(1);
                    let unit_price: f64 = price(&record.channel).parse().unwrap_or(0.0);
                    record.usage = Some(Usage::new(
                        format!("{:.4}", unit_price * units as f64),
                        "EUR",
                    ));
                }
                let mut status_event = StatusEvent::new(
                    record.message_uuid.clone(),
                    record.to.clone(),
                    record.from.clone(),
                    record.channel.clone(),
                    now_rfc3339(),
                    status.clone(),
                );
                status_event.client_ref.clone_from(&record.client_ref);
                status_event.error.clone_from(&record.error);
                status_event.usage.clone_from(&record.usage);
                status_event.sms = segments.map(|s| {
                    SmsStatusDetails::default().segments(i64::try_from(s).unwrap_or(i64::MAX))
                });
                // Saved without waiting: nobody is answered on a status change.
                let _ = self.save(record, url.as_ref());
                let event = MessagingEvent::Status(status_event);
                (event, url.clone())
            };
            self.post(url, &event);
        }
    }
}

impl MessagingServer for MessagingService {
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
        let (data, has_more) = paginate(
            &store.resources,
            |r| r.id.as_deref().unwrap_or(""),
            PageRequest {
                limit: query.limit,
                after: query.after.as_deref(),
                before: None,
            },
        )?;
        Ok(Page { data, has_more })
    }

    async fn send_message(
        &self,
        _ctx: RequestContext,
        body: Message,
    ) -> Result<SendMessageResponse, ServerError> {
        let channel = body.channel();
        let Some(message_type) = body.message_type() else {
            let param = if matches!(body, Message::Unknown(_)) {
                "channel"
            } else {
                "message_type"
            };
            return Err(ServerError::validation(
                param,
                format!("this {param} is not one the channel `{channel}` takes"),
            ));
        };
        let value = serde_json::to_value(&body)
            .map_err(|e| ServerError::internal(format!("cannot read the message: {e}")))?;
        let text_of = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        if message_type == MessageType::Template {
            let name = value["template"]["name"].as_str().unwrap_or_default();
            let language = value["template"]["language"].as_str().unwrap_or_default();
            let store = self.store();
            let found = store
                .templates
                .iter()
                .find(|t| t.name == name && t.language == language);
            // A template that does not exist is a 404, one not approved a conflict with its
            // state: the request itself is well-formed.
            match found {
                Some(t) if t.status == TemplateStatus::Approved => {}
                Some(t) => {
                    return Err(ServerError::conflict(
                        "conflict",
                        format!(
                            "template `{name}` ({language}) is {}, not approved",
                            t.status
                        ),
                    )
                    .with_param("template.name"));
                }
                None => {
                    let approved: Vec<String> = store
                        .templates
                        .iter()
                        .filter(|t| t.status == TemplateStatus::Approved)
                        .map(|t| format!("{} ({})", t.name, t.language))
                        .collect();
                    let approved = if approved.is_empty() {
                        "none".to_owned()
                    } else {
                        approved.join(", ")
                    };
                    return Err(ServerError::new(
                        404,
                        "not_found",
                        format!(
                            "template `{name}` in `{language}` does not exist; approved ones: \
                             {approved}; list them all with GET /v1/templates \
                             (MessagingClient::list_templates)"
                        ),
                    )
                    .with_param("template.name"));
                }
            }
        }
        let to = body
            .to()
            .map(str::to_owned)
            .or_else(|| text_of("to"))
            .unwrap_or_default();
        let uuid = uuid::Uuid::new_v4().to_string();
        let now = now_rfc3339();
        let voice = channel == Channel::Voice;
        let first = if voice {
            MessageStatus::Started
        } else {
            MessageStatus::Accepted
        };
        let mut record = MessageRecord::new(
            uuid.clone(),
            uuid.clone(),
            channel.clone(),
            text_of("from").unwrap_or_default(),
            to.clone(),
            first,
        )
        .message_type(message_type)
        .direction(Direction::Outbound)
        .timestamp(now.clone())
        .updated_at(now);
        record.client_ref = text_of("client_ref");
        record.text = text_of("text");
        let fails = to.ends_with("0000");
        let steps = match (voice, fails, &channel) {
            (true, false, _) => vec![
                MessageStatus::Ringing,
                MessageStatus::Answered,
                MessageStatus::Completed,
            ],
            (true, true, _) => vec![MessageStatus::Ringing, MessageStatus::Unanswered],
            (false, true, _) => vec![MessageStatus::Submitted, MessageStatus::Undeliverable],
            (false, false, Channel::Whatsapp | Channel::Instagram) => {
                vec![
                    MessageStatus::Submitted,
                    MessageStatus::Delivered,
                    MessageStatus::Read,
                ]
            }
            (false, false, _) => vec![MessageStatus::Submitted, MessageStatus::Delivered],
        };
        let url = text_of("webhook_url");
        // The inbox's record and the service's row, in one transaction: the answer waits for
        // it, and a send that fails leaves neither on disk.
        let durable = match (&self.inner.inbox, self.state_write(&record, url.as_ref())) {
            (_, Err(why)) => Durable::failed(why),
            (Some(inbox), Ok(state)) => {
                let templates = self.store().templates.clone();
                inbox.record_message(&record, value.clone(), &templates, state)
            }
            (None, Ok(_)) => Durable::ready(),
        };
        {
            let mut store = self.store();
            let forgotten = store.keep_message(record, url, self.inner.max_message_bytes);
            self.forgotten(&forgotten);
        }
        if let Err(e) = durable.answer().await {
            // Not on disk: forget it, so nothing lists a message its sender was told failed.
            self.store().forget_message(&uuid);
            if let Some(inbox) = &self.inner.inbox {
                inbox.delete_message(&uuid);
            }
            return Err(e);
        }
        let service = self.clone();
        let task_uuid = uuid.clone();
        self.inner
            .background
            .spawn(async move { service.lifecycle(task_uuid, steps).await });
        Ok(SendMessageResponse::new(uuid))
    }

    async fn list_messages(
        &self,
        _ctx: RequestContext,
        query: ListMessagesQuery,
    ) -> Result<Page<MessageRecord>, ServerError> {
        let items: Vec<MessageRecord> = self
            .store()
            .messages
            .values()
            .rev()
            .map(|(m, _, _)| m)
            .filter(|m| query.channel.as_ref().is_none_or(|c| m.channel == *c))
            .filter(|m| query.status.as_ref().is_none_or(|s| m.status == *s))
            .cloned()
            .collect();
        let (data, has_more) = paginate(
            &items,
            |m| m.id.as_str(),
            PageRequest {
                limit: query.limit,
                after: query.after.as_deref(),
                before: query.before.as_deref(),
            },
        )?;
        Ok(Page { data, has_more })
    }

    async fn get_message(
        &self,
        _ctx: RequestContext,
        message_uuid: String,
    ) -> Result<MessageRecord, ServerError> {
        Ok(self.store().message_mut(&message_uuid)?.0.clone())
    }

    async fn update_message(
        &self,
        _ctx: RequestContext,
        message_uuid: String,
        body: UpdateMessageRequest,
    ) -> Result<(), ServerError> {
        let durable = {
            let mut store = self.store();
            let (record, url) = store.message_mut(&message_uuid)?;
            // `status` is an open enum: a value this server does not know is a transition the
            // message cannot take, like marking an outbound message read.
            if body.status != UpdateMessageStatus::Read {
                return Err(ServerError::conflict(
                    "conflict",
                    format!("a message's status cannot be set to `{}`", body.status),
                )
                .with_param("status"));
            }
            // A well-formed request the message cannot take: a conflict with the resource, not a
            // bad request.
            if record.direction != Some(Direction::Inbound) {
                return Err(ServerError::conflict(
                    "conflict",
                    "only inbound messages can be marked read",
                )
                .with_param("status"));
            }
            if !matches!(record.channel, Channel::Whatsapp | Channel::Instagram) {
                return Err(ServerError::conflict(
                    "conflict",
                    format!("{} messages have no read receipts", record.channel),
                )
                .with_param("status"));
            }
            record.status = MessageStatus::Read;
            record.updated_at = Some(now_rfc3339());
            self.save(record, url.as_ref())
        };
        durable.answer().await
    }

    async fn list_templates(
        &self,
        _ctx: RequestContext,
        query: ListTemplatesQuery,
    ) -> Result<Page<Template>, ServerError> {
        let items: Vec<Template> = self
            .store()
            .templates
            .iter()
            .filter(|t| query.name.as_deref().is_none_or(|n| t.name == n))
            .filter(|t| query.language.as_deref().is_none_or(|l| t.language == l))
            .filter(|t| query.status.as_ref().is_none_or(|s| t.status == *s))
            .cloned()
            .collect();
        let (data, has_more) = paginate(
            &items,
            |t| t.id.as_str(),
            PageRequest {
                limit: query.limit,
                after: query.after.as_deref(),
                before: query.before.as_deref(),
            },
        )?;
        Ok(Page { data, has_more })
    }
}
