//! Accepting an email (over REST or from the SMTP listener) and moving it through its lifecycle
//! on the timer, posting the webhook each status change sends.

use super::*;

impl EmailService {
    pub(super) fn store(&self) -> MutexGuard<'_, Store> {
        self.inner
            .store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Posts `event` to the configured target and to the endpoints that asked for its type.
    pub(super) fn emit(&self, event: EmailEvent) {
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
        for endpoint in &self.endpoints() {
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
    pub(super) async fn accept(
        &self,
        request: SendEmailRequest,
    ) -> Result<SendEmailResponse, ServerError> {
        let (response, durable) = self.accept_from(request, None)?;
        self.stored(&response.id, durable).await?;
        Ok(response)
    }

    /// Waits until an accepted email is on disk; when it cannot be, forgets it (so nothing
    /// lists an email whose sender was told it failed) and answers 507.
    pub(super) async fn stored(&self, id: &str, durable: Durable) -> Result<(), ServerError> {
        if let Err(e) = durable.answer().await {
            let mut store = self.store();
            store.forget_email(id);
            drop(store);
            if let Some(inbox) = &self.inner.inbox {
                inbox.delete_email(id);
            }
            return Err(e);
        }
        Ok(())
    }

    /// [`Self::accept`], with the message as it came over SMTP: its raw form for the inbox,
    /// its idempotency key kept in the same transaction as the email.
    pub(super) fn accept_from(
        &self,
        request: SendEmailRequest,
        smtp: Option<&ReceivedMail>,
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
            let stored = &self.template(key).map_err(|_| {
                ServerError::not_found(format!("template `{key}`")).with_param(param)
            })?;
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
            .find_map(|r| self.suppressed(r).map(|s| s.reason));
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
        let (source, raw) = match smtp {
            Some(mail) => ("smtp", mail.raw.to_vec()),
            None => ("api", mime_source(&request, &email)?),
        };
        // The SMTP idempotency key names this email from now on.
        let key = smtp.and_then(|mail| {
            let key = mail.idempotency_key.clone()?;
            let saved = SavedSmtpKey {
                fingerprint: mail.fingerprint(),
                email_id: email.id.clone(),
            };
            Some((key, saved))
        });
        let rows = self
            .email_state_write(&email, bounce)
            .and_then(|email_row| {
                let key_row = match &key {
                    Some((key, saved)) => self.state_write("smtp_key", key, Some(saved))?,
                    None => None,
                };
                Ok(email_row.into_iter().chain(key_row).collect::<Vec<_>>())
            });
        if let Some((key, saved)) = key {
            store
                .smtp_keys
                .insert(key, (saved.fingerprint, saved.email_id));
        }
        // The inbox's record and the service's rows (the email, its SMTP key), in one
        // transaction: the answer waits for it, and a send that fails leaves none on disk.
        let durable = match (&self.inner.inbox, rows) {
            (_, Err(why)) => Durable::failed(why),
            (Some(inbox), Ok(rows)) => inbox.record_email(&email, source, raw, rows),
            (None, Ok(_)) => Durable::ready(),
        };
        let stored = Stored {
            email,
            generation: 0,
            bounce,
        };
        store.body_bytes += body_cost(&stored);
        store.emails.insert(stored.email.id.clone(), stored);
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

    pub(super) fn start_lifecycle(&self, id: String, generation: u64) {
        let service = self.clone();
        self.inner
            .background
            .spawn(async move { service.lifecycle(id, generation).await });
    }

    /// Moves one email along `scheduled → queued → sent → delivered` (or `bounced`).
    pub(super) async fn lifecycle(&self, id: String, generation: u64) {
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
            if !self
                .advance(
                    &id,
                    generation,
                    &EmailStatus::Scheduled,
                    EmailStatus::Queued,
                )
                .await
            {
                return;
            }
        }
        let sent = self
            .store()
            .email_mut(&id)
            .is_ok_and(|s| s.email.status == EmailStatus::Sent);
        if !sent {
            tokio::time::sleep(self.inner.step).await;
            if !self
                .advance(&id, generation, &EmailStatus::Queued, EmailStatus::Sent)
                .await
            {
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
        self.advance(&id, generation, &EmailStatus::Sent, next)
            .await;
    }

    /// Changes the status when it is still `from` (and the lifecycle still current), then
    /// posts the event (a hard bounce suppresses the address first). False when the email
    /// moved on some other way.
    pub(super) async fn advance(
        &self,
        id: &str,
        generation: u64,
        from: &EmailStatus,
        to: EmailStatus,
    ) -> bool {
        let Some((suppress, event)) = self.change_status(id, generation, from, to) else {
            return false;
        };
        if let Some(suppression) = suppress {
            self.suppress(suppression).await;
        }
        if let Some(event) = event {
            self.emit(event);
        }
        true
    }

    /// [`Self::advance`] in memory: the suppression a hard bounce makes and the event to post,
    /// or `None` when the email moved on some other way.
    fn change_status(
        &self,
        id: &str,
        generation: u64,
        from: &EmailStatus,
        to: EmailStatus,
    ) -> Option<(Option<Suppression>, Option<EmailEvent>)> {
        let mut store = self.store();
        let stored = store.email_mut(id).ok()?;
        if stored.generation != generation || stored.email.status != *from {
            return None;
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
        let mut suppress = None;
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
                suppress = address.map(|address| {
                    Suppression::new(
                        new_id("sup"),
                        address,
                        SuppressionReason::HardBounce,
                        now_rfc3339(),
                    )
                    .email_id(stored.email.id.clone())
                });
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
        Some((suppress, event))
    }

    /// Keeps `suppression` unless its address is suppressed already; a store that cannot
    /// keep it (full, or its disk failing) is logged: the bounce itself stands.
    async fn suppress(&self, suppression: Suppression) {
        let _writing = self.writing().await;
        if self.suppressed(&suppression.email).is_some() {
            return;
        }
        let kept = self
            .through::<Suppression>(
                &crate::server::email_server::defaults::CREATE_SUPPRESSION,
                None,
                &suppression,
            )
            .await;
        if let Err(e) = kept {
            tracing::warn!(address = suppression.email, error = %e, "email sandbox: cannot keep a hard bounce's suppression");
        }
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
        let (response, durable) = self.accept_from(request, Some(&mail))?;
        Ok((response.id, durable))
    }

    fn not_stored(&self, id: &str) {
        let mut store = self.store();
        store.forget_email(id);
        // A retry with the same key is a new send, not an answer naming an email not kept.
        store.smtp_keys.retain(|_, (_, email)| email != id);
        drop(store);
        if let Some(inbox) = &self.inner.inbox {
            inbox.delete_email(id);
        }
    }
}
