//! The hooks the services call to record what they send: emails and messages with their
//! statuses, realtime events, webhook deliveries (followed through the senders' observer).

use super::*;

impl Inbox {
    /// Records an email the email service accepted; `raw` is the message as received (SMTP)
    /// or as the sandbox renders it (REST). `service_rows`, the service's own rows of it (the
    /// email, its SMTP idempotency key), are written in the same transaction.
    pub(crate) fn record_email(
        &self,
        email: &tidings::email::Email,
        source: &str,
        raw: Vec<u8>,
        service_rows: Vec<StateWrite>,
    ) -> Durable {
        let (mut raw, truncated) = (raw, false);
        let truncated = truncated || raw.len() > self.inner.retention.max_raw_bytes;
        raw.truncate(self.inner.retention.max_raw_bytes);
        let attachments = if truncated {
            Vec::new()
        } else {
            mail::attachments(&raw)
        };
        let mut state = self.state();
        state.seq += 1;
        let record = CapturedEmail {
            id: email.id.clone(),
            seq: state.seq,
            source: source.to_owned(),
            from: email.from.clone(),
            to: email.to.clone(),
            cc: email.cc.clone().unwrap_or_default(),
            bcc: email.bcc.clone().unwrap_or_default(),
            subject: email.subject.clone(),
            text: email.text.clone(),
            html: email.html.clone(),
            status: email.status.to_string(),
            events: vec![StatusChange {
                status: email.status.to_string(),
                at: email.created_at.clone(),
            }],
            tags: email
                .tags
                .iter()
                .flatten()
                .map(|t| {
                    let v = serde_json::to_value(t).unwrap_or_default();
                    format!(
                        "{}={}",
                        v["name"].as_str().unwrap_or_default(),
                        v["value"].as_str().unwrap_or_default()
                    )
                })
                .collect(),
            attachments,
            raw_truncated: truncated,
            created_at: email.created_at.clone(),
            created_ms: now_ms(),
        };
        let raw: Arc<[u8]> = raw.into();
        let (saved, saved_raw) = (record.clone(), raw.clone());
        let durable = self.persist_durable(move |db| {
            db.put_email(&saved, &saved_raw)?;
            service_rows.iter().try_for_each(|row| row.put(db))
        });
        let id = record.id.clone();
        state.push_email(record, raw);
        self.prune(&mut state);
        drop(state);
        self.changed("email", "new", &id);
        durable
    }

    /// Records an email's new status.
    pub(crate) fn email_status(&self, id: &str, status: &str) {
        let mut state = self.state();
        let Some(record) = state.email_mut(id) else {
            return;
        };
        record.status = status.to_owned();
        record.events.push(StatusChange {
            status: status.to_owned(),
            at: now_rfc3339(),
        });
        let record = record.clone();
        self.persist(move |db| db.update_email(&record));
        drop(state);
        self.changed("email", "update", id);
    }

    /// Records a message sent (or received) by the messaging service.
    pub(crate) fn record_message(
        &self,
        message: &tidings::messaging::MessageRecord,
        content: serde_json::Value,
        templates: &[tidings::messaging::Template],
        service_row: Option<StateWrite>,
    ) -> Durable {
        let mut content = content;
        if let Some(map) = content.as_object_mut() {
            map.remove("webhook_url");
        }
        let channel = message.channel.to_string();
        let sms = (channel == "sms")
            .then(|| {
                message
                    .text
                    .as_deref()
                    .map(tidings::messaging::sms::segments)
            })
            .flatten();
        let template = content.get("template").cloned().map(|t| {
            let mut t = t;
            let name = t["name"].as_str().unwrap_or_default().to_owned();
            let language = t["language"].as_str().unwrap_or_default().to_owned();
            let known = templates
                .iter()
                .find(|k| k.name == name && k.language == language);
            if let (Some(known), Some(map)) = (known, t.as_object_mut()) {
                let body = known
                    .components
                    .iter()
                    .flatten()
                    .find(|c| c["type"] == "BODY")
                    .and_then(|c| c["text"].as_str())
                    .unwrap_or_default()
                    .to_owned();
                let params = template_parameters(&content);
                map.insert("rendered".into(), render_template(&body, &params).into());
            }
            t
        });
        let mut state = self.state();
        state.seq += 1;
        let status = message.status.to_string();
        let at = message.timestamp.clone().unwrap_or_else(now_rfc3339);
        let record = CapturedMessage {
            id: message.message_uuid.clone(),
            seq: state.seq,
            channel,
            message_type: message
                .message_type
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
            direction: message
                .direction
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
            from: message.from.clone(),
            to: message.to.clone(),
            text: message.text.clone(),
            encoding: sms.as_ref().map(|s| match s.encoding {
                tidings::messaging::sms::Encoding::Gsm7 => "GSM-7".to_owned(),
                _ => "UCS-2".to_owned(),
            }),
            segments: sms.map(|s| s.segments),
            template,
            content,
            status: status.clone(),
            events: vec![StatusChange {
                status,
                at: at.clone(),
            }],
            created_at: at,
            created_ms: now_ms(),
        };
        let saved = record.clone();
        let durable = self.persist_durable(move |db| {
            db.put_message(&saved)?;
            service_row.map_or(Ok(()), |row| row.put(db))
        });
        let id = record.id.clone();
        state.messages.push_back(record);
        self.prune(&mut state);
        drop(state);
        self.changed("message", "new", &id);
        durable
    }

    /// Records a message's new status.
    pub(crate) fn message_status(&self, id: &str, status: &str) {
        let mut state = self.state();
        let Some(record) = state.messages.iter_mut().rev().find(|m| m.id == id) else {
            return;
        };
        record.status = status.to_owned();
        record.events.push(StatusChange {
            status: status.to_owned(),
            at: now_rfc3339(),
        });
        let record = record.clone();
        self.persist(move |db| db.update_message(&record));
        drop(state);
        self.changed("message", "update", id);
    }

    /// Records a realtime event.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record_realtime(
        &self,
        app_id: &str,
        kind: &str,
        channel: &str,
        event: Option<&str>,
        data: Option<&str>,
        socket_id: Option<&str>,
    ) {
        let mut state = self.state();
        state.seq += 1;
        let record = RealtimeRecord {
            id: state.seq.to_string(),
            seq: state.seq,
            app_id: app_id.to_owned(),
            kind: kind.to_owned(),
            channel: channel.to_owned(),
            event: event.map(str::to_owned),
            data: data.map(str::to_owned),
            socket_id: socket_id.map(str::to_owned),
            created_at: now_rfc3339(),
            created_ms: now_ms(),
        };
        let saved = record.clone();
        self.persist(move |db| db.put_realtime(&saved));
        let id = record.id.clone();
        state.realtime.push_back(record);
        self.prune(&mut state);
        drop(state);
        self.changed("realtime", "new", &id);
    }

    /// Follows the deliveries of `sender` (the `email` or `messaging` service's), so the inbox
    /// can show and redeliver them.
    pub(crate) fn watch_sender(&self, service: &str, sender: &WebhookSender) {
        self.watch_redeliverer(service, Arc::new(sender.clone()));
    }

    /// Makes `redeliverer` the one that sends `service`'s recorded webhooks again (the
    /// realtime service's hook).
    pub(crate) fn watch_redeliverer(&self, service: &str, redeliverer: Arc<dyn Redeliver>) {
        self.inner
            .senders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(service.to_owned(), redeliverer);
    }

    /// A webhook was queued (the observer hook of [`WebhookSender`], and the realtime
    /// service's). `secret` is kept for redelivery when given (Standard Webhooks secrets);
    /// the realtime app secret is not: its service signs redeliveries itself.
    pub(crate) fn webhook_queued(
        &self,
        service: &str,
        delivery: &Delivery,
        secret: Option<&str>,
        body: &[u8],
    ) {
        let mut state = self.state();
        state.seq += 1;
        let now = now_rfc3339();
        let mut record = WebhookRecord {
            id: delivery.id.clone(),
            seq: state.seq,
            service: service.to_owned(),
            url: delivery.url.clone(),
            event_type: delivery.event_type.clone(),
            attempts: 0,
            status: String::new(),
            response_status: None,
            error: None,
            headers: Vec::new(),
            body: String::from_utf8_lossy(body).into_owned(),
            redelivery_of: None,
            created_at: now.clone(),
            updated_at: now,
            created_ms: now_ms(),
        };
        apply_outcome(&mut record, delivery);
        let (saved, saved_secret) = (record.clone(), secret.map(str::to_owned));
        self.persist(move |db| db.put_webhook(&saved, saved_secret.as_deref()));
        if let Some(secret) = secret {
            state.secrets.insert(record.id.clone(), secret.to_owned());
        }
        let id = record.id.clone();
        state.webhooks.push_back(record);
        self.prune(&mut state);
        drop(state);
        self.changed("webhook", "new", &id);
    }

    /// A webhook attempt ended (the observer hook of [`WebhookSender`]).
    pub(crate) fn webhook_updated(&self, delivery: &Delivery) {
        let mut state = self.state();
        let Some(record) = state
            .webhooks
            .iter_mut()
            .rev()
            .find(|w| w.id == delivery.id)
        else {
            return;
        };
        apply_outcome(record, delivery);
        record.updated_at = now_rfc3339();
        let record = record.clone();
        self.persist(move |db| db.update_webhook(&record));
        drop(state);
        self.changed("webhook", "update", &delivery.id);
    }
}

fn apply_outcome(record: &mut WebhookRecord, delivery: &Delivery) {
    record.attempts = delivery.attempts;
    record.headers = delivery
        .headers
        .iter()
        .map(|(name, value)| Header {
            name: name.clone(),
            value: value.clone(),
        })
        .collect();
    match &delivery.outcome {
        DeliveryOutcome::Delivered { status } => {
            record.status = "delivered".into();
            record.response_status = Some(*status);
            record.error = None;
        }
        DeliveryOutcome::Failed { reason } => {
            record.status = "failed".into();
            record.error = Some(reason.clone());
        }
        DeliveryOutcome::NotSent => record.status = "not_sent".into(),
        _ => {
            record.status = "pending".into();
            record.error = delivery.last_error.clone();
        }
    }
}

/// The text parameters of a WhatsApp template message's body component, in order.
fn template_parameters(content: &serde_json::Value) -> Vec<String> {
    let template = &content["template"];
    let mut out = Vec::new();
    for component in template["components"].as_array().into_iter().flatten() {
        for p in component["parameters"].as_array().into_iter().flatten() {
            if let Some(text) = p["text"].as_str() {
                out.push(text.to_owned());
            }
        }
    }
    for p in template["parameters"].as_array().into_iter().flatten() {
        if let Some(text) = p.as_str().or_else(|| p["text"].as_str()) {
            out.push(text.to_owned());
        }
    }
    out
}

/// Fills `{{1}}`, `{{2}}`... with `params`.
fn render_template(body: &str, params: &[String]) -> String {
    let mut out = body.to_owned();
    for (i, value) in params.iter().enumerate() {
        out = out.replace(&format!("{{{{{}}}}}", i + 1), value);
    }
    out
}

/// The [`DeliveryObserver`] that feeds a service's webhook deliveries into the inbox. Holds the
/// inbox weakly: the inbox holds the sender (for redelivery).
struct SenderHook {
    inbox: std::sync::Weak<Inner>,
    service: &'static str,
    /// Whether the secret is kept for redelivery (the built-in services' `whsec_` secrets);
    /// a served spec's are not (its own scheme signs a redelivery anew).
    keep_secret: bool,
}

impl crate::server::DeliveryObserver for SenderHook {
    fn queued(&self, delivery: &Delivery, secret: &str, body: &[u8]) {
        if let Some(inner) = self.inbox.upgrade() {
            let secret = self.keep_secret.then_some(secret);
            Inbox { inner }.webhook_queued(self.service, delivery, secret, body);
        }
    }

    fn updated(&self, delivery: &Delivery) {
        if let Some(inner) = self.inbox.upgrade() {
            Inbox { inner }.webhook_updated(delivery);
        }
    }
}

impl Inbox {
    /// Makes `sender` report to this inbox and keeps it for redelivery (the services' hook).
    pub(crate) fn attach_sender(
        &self,
        service: &'static str,
        sender: WebhookSender,
    ) -> WebhookSender {
        let sender = sender.observe(Arc::new(SenderHook {
            inbox: Arc::downgrade(&self.inner),
            service,
            keep_secret: true,
        }));
        self.watch_sender(service, &sender);
        sender
    }

    /// Makes `sender` report to this inbox without its secrets (a served spec's: the inbox
    /// keeps no credential of one); its redeliveries go through [`Inbox::watch_redeliverer`].
    pub(crate) fn observe_sender(
        &self,
        service: &'static str,
        sender: WebhookSender,
    ) -> WebhookSender {
        sender.observe(Arc::new(SenderHook {
            inbox: Arc::downgrade(&self.inner),
            service,
            keep_secret: false,
        }))
    }
}

impl Inbox {
    /// Records one of the realtime service's webhook-shaped events (`channel_occupied`,
    /// `member_added`, `client_event`...).
    pub(crate) fn record_realtime_hook(&self, app_id: &str, event: &serde_json::Value) {
        let text = |key: &str| event.get(key).and_then(serde_json::Value::as_str);
        let kind = text("name").unwrap_or("unknown");
        let data = text("data").or_else(|| text("user_id"));
        self.record_realtime(
            app_id,
            kind,
            text("channel").unwrap_or_default(),
            text("event"),
            data,
            text("socket_id"),
        );
    }
}
