//! The email API's operations with behaviour of their own, as the generated [`EmailServer`]
//! trait serves them: emails (sending, scheduling, cancelling), templates (aliases, publishing),
//! contacts (unique addresses, list membership, `contact.*` events), suppressions (by address)
//! and webhook endpoints (a secret each). Every other operation is the spec-driven store's
//! default, on the same items ([`super::records`]).

use super::*;
use crate::server::email_server::defaults as ops;

impl EmailServer for EmailService {
    fn gateway(&self) -> &Gateway {
        &self.inner.gateway
    }

    fn resource_store(&self) -> &crate::server::Resources {
        &self.inner.resources
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
        // Newest first, by reference: only the page's emails are copied.
        let store = self.store();
        let emails: Vec<&Email> = store.emails.values().rev().map(|s| &s.email).collect();
        let found = page(
            &emails,
            |e| e.id.as_str(),
            query.limit,
            query.after.as_deref(),
            query.before.as_deref(),
        )?;
        Ok(Page {
            data: found.data.into_iter().cloned().collect(),
            has_more: found.has_more,
        })
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
        let _writing = self.writing().await;
        if let Some(alias) = &body.alias {
            self.alias_free(alias, None)?;
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
        self.through(&ops::CREATE_TEMPLATE, None, &template).await
    }

    async fn list_templates(
        &self,
        _ctx: RequestContext,
        query: ListTemplatesQuery,
    ) -> Result<Page<Template>, ServerError> {
        let templates: Vec<Template> = self.all(&ops::LIST_TEMPLATES);
        page(
            &newest_first(&templates),
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
        self.template(&id)
    }

    async fn update_template(
        &self,
        _ctx: RequestContext,
        id: String,
        body: UpdateTemplateRequest,
    ) -> Result<Template, ServerError> {
        let _writing = self.writing().await;
        let mut t = self.template(&id)?;
        if let Some(alias) = &body.alias {
            self.alias_free(alias, Some(&t.id))?;
        }
        macro_rules! set {
            ($($field:ident),*) => { $( if body.$field.is_some() { t.$field = body.$field; } )* };
        }
        if let Some(name) = body.name {
            t.name = name;
        }
        set!(alias, subject, from, reply_to, html, text, variables);
        t.updated_at = Some(now_rfc3339());
        self.through(&ops::UPDATE_TEMPLATE, Some(&t.id.clone()), &t)
            .await
    }

    async fn publish_template(
        &self,
        _ctx: RequestContext,
        id: String,
    ) -> Result<Template, ServerError> {
        let _writing = self.writing().await;
        let mut t = self.template(&id)?;
        if t.html.is_none() && t.text.is_none() {
            // The request is fine; the template is not ready: a conflict with its state.
            return Err(ServerError::conflict(
                "conflict",
                "a template needs `html` or `text` to be published",
            )
            .with_param("html"));
        }
        if t.status == TemplateStatus::Published {
            return Ok(t);
        }
        t.status = TemplateStatus::Published;
        t.published_at = Some(now_rfc3339());
        self.through(&ops::UPDATE_TEMPLATE, Some(&t.id.clone()), &t)
            .await
    }

    async fn create_contact(
        &self,
        _ctx: RequestContext,
        body: CreateContactRequest,
    ) -> Result<Contact, ServerError> {
        let contact = {
            let _writing = self.writing().await;
            self.address_free(&body.email, None)?;
            self.check_lists(body.list_ids.as_ref())?;
            let mut contact = Contact::new(new_id("ct"), bare_address(&body.email), now_rfc3339());
            contact.first_name = body.first_name;
            contact.last_name = body.last_name;
            contact.attributes = body.attributes;
            contact.list_ids = body.list_ids;
            contact.unsubscribed = body.unsubscribed;
            self.through::<Contact>(&ops::CREATE_CONTACT, None, &contact)
                .await?
        };
        self.emit(EmailEvent::ContactCreated(contact_data(&contact)));
        Ok(contact)
    }

    async fn upsert_contact(
        &self,
        ctx: RequestContext,
        body: CreateContactRequest,
    ) -> Result<Contact, ServerError> {
        if self.contact(&body.email).is_err() {
            return self.create_contact(ctx, body).await;
        }
        let mut update = UpdateContactRequest::default();
        update.first_name = body.first_name;
        update.last_name = body.last_name;
        update.attributes = body.attributes;
        update.list_ids = body.list_ids;
        update.unsubscribed = body.unsubscribed;
        self.update_contact(ctx, body.email, update).await
    }

    async fn list_contacts(
        &self,
        _ctx: RequestContext,
        query: ListContactsQuery,
    ) -> Result<Page<Contact>, ServerError> {
        // An empty filter (`?list_id=`) is no filter.
        let list_id = query.list_id.as_deref().filter(|l| !l.is_empty());
        if let Some(list) = list_id {
            self.list(list).map_err(|e| e.with_param("list_id"))?;
        }
        let mut contacts: Vec<Contact> = self.all(&ops::LIST_CONTACTS);
        if let Some(list) = list_id {
            contacts.retain(|c| c.list_ids.iter().flatten().any(|id| id == list));
        }
        page(
            &newest_first(&contacts),
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
        self.contact(&id_or_email)
    }

    async fn update_contact(
        &self,
        _ctx: RequestContext,
        id_or_email: String,
        body: UpdateContactRequest,
    ) -> Result<Contact, ServerError> {
        let contact = {
            let _writing = self.writing().await;
            let mut c = self.contact(&id_or_email)?;
            if let Some(email) = &body.email {
                self.address_free(email, Some(&c.id))?;
            }
            self.check_lists(body.list_ids.as_ref())?;
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
            self.put_contact(c).await?
        };
        self.emit(EmailEvent::ContactUpdated(contact_data(&contact)));
        Ok(contact)
    }

    async fn delete_contact(
        &self,
        _ctx: RequestContext,
        id_or_email: String,
    ) -> Result<DeletedObject, ServerError> {
        let (contact, deleted) = {
            let _writing = self.writing().await;
            let contact = self.contact(&id_or_email)?;
            let deleted: DeletedObject = self
                .through(&ops::DELETE_CONTACT, Some(&contact.id), &())
                .await?;
            (contact, deleted)
        };
        self.emit(EmailEvent::ContactDeleted(contact_data(&contact)));
        Ok(deleted)
    }

    async fn create_list(
        &self,
        _ctx: RequestContext,
        body: CreateListRequest,
    ) -> Result<ContactList, ServerError> {
        let mut list = ContactList::new(new_id("lst"), body.name, now_rfc3339());
        list.description = body.description;
        let list: ContactList = self.through(&ops::CREATE_LIST, None, &list).await?;
        Ok(list.contact_count(0))
    }

    async fn list_lists(
        &self,
        _ctx: RequestContext,
        query: ListListsQuery,
    ) -> Result<Page<ContactList>, ServerError> {
        let lists = self.with_counts(newest_first(&self.all(&ops::LIST_LISTS)));
        page(
            &lists,
            |l| l.id.as_str(),
            query.limit,
            query.after.as_deref(),
            query.before.as_deref(),
        )
    }

    async fn get_list(&self, _ctx: RequestContext, id: String) -> Result<ContactList, ServerError> {
        self.list(&id)
    }

    async fn update_list(
        &self,
        _ctx: RequestContext,
        id: String,
        body: UpdateListRequest,
    ) -> Result<ContactList, ServerError> {
        let _writing = self.writing().await;
        let mut l = self.list(&id)?;
        if let Some(name) = body.name {
            l.name = name;
        }
        if body.description.is_some() {
            l.description = body.description;
        }
        l.updated_at = Some(now_rfc3339());
        let count = l.contact_count.take();
        let mut l: ContactList = self.through(&ops::UPDATE_LIST, Some(&id), &l).await?;
        l.contact_count = count;
        Ok(l)
    }

    async fn delete_list(
        &self,
        _ctx: RequestContext,
        id: String,
    ) -> Result<DeletedObject, ServerError> {
        let _writing = self.writing().await;
        self.list(&id)?;
        // Its members leave it first: a failure on the way leaves the list, never a contact
        // naming a list that is gone.
        let members: Vec<Contact> = self.all(&ops::LIST_CONTACTS);
        for mut c in members {
            if let Some(ids) = &mut c.list_ids
                && ids.contains(&id)
            {
                ids.retain(|l| *l != id);
                self.put_contact(c).await?;
            }
        }
        self.through(&ops::DELETE_LIST, Some(&id), &()).await
    }

    async fn list_list_contacts(
        &self,
        ctx: RequestContext,
        id: String,
        query: ListListContactsQuery,
    ) -> Result<Page<Contact>, ServerError> {
        self.list(&id)?;
        // The same page window, narrowed to the list (`#[non_exhaustive]`: fields, not a literal).
        let mut contacts = ListContactsQuery::default().list_id(id);
        contacts.limit = query.limit;
        contacts.after = query.after;
        contacts.before = query.before;
        self.list_contacts(ctx, contacts).await
    }

    async fn add_list_contact(
        &self,
        _ctx: RequestContext,
        id: String,
        body: AddListContactRequest,
    ) -> Result<ListMembership, ServerError> {
        let _writing = self.writing().await;
        self.list(&id)?;
        let mut c = self.contact(&body.contact)?;
        let ids = c.list_ids.get_or_insert_with(Vec::new);
        if !ids.contains(&id) {
            ids.push(id.clone());
            c.updated_at = Some(now_rfc3339());
            c = self.put_contact(c).await?;
        }
        let mut membership = ListMembership::new(id, c.id.clone());
        membership.added_at = c.updated_at;
        Ok(membership)
    }

    async fn remove_list_contact(
        &self,
        _ctx: RequestContext,
        id: String,
        contact: String,
    ) -> Result<(), ServerError> {
        let _writing = self.writing().await;
        self.list(&id)?;
        let mut c = self.contact(&contact)?;
        if let Some(ids) = &mut c.list_ids
            && ids.contains(&id)
        {
            ids.retain(|l| *l != id);
            self.put_contact(c).await?;
        }
        Ok(())
    }

    async fn create_suppression(
        &self,
        _ctx: RequestContext,
        body: CreateSuppressionRequest,
    ) -> Result<Suppression, ServerError> {
        let _writing = self.writing().await;
        if self.suppressed(&body.email).is_some() {
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
        self.through(&ops::CREATE_SUPPRESSION, None, &suppression)
            .await
    }

    async fn list_suppressions(
        &self,
        _ctx: RequestContext,
        query: ListSuppressionsQuery,
    ) -> Result<Page<Suppression>, ServerError> {
        let mut items: Vec<Suppression> = self.all(&ops::LIST_SUPPRESSIONS);
        if let Some(reason) = query.reason.as_deref() {
            items.retain(|s| s.reason.as_str() == reason);
        }
        page(
            &newest_first(&items),
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
        self.suppressed(&email)
            .ok_or_else(|| ServerError::not_found(format!("suppression of `{email}`")))
    }

    async fn delete_suppression(
        &self,
        _ctx: RequestContext,
        email: String,
    ) -> Result<DeletedObject, ServerError> {
        let _writing = self.writing().await;
        let s = self
            .suppressed(&email)
            .ok_or_else(|| ServerError::not_found(format!("suppression of `{email}`")))?;
        // Named by the address as it was kept.
        let mut deleted: DeletedObject = self
            .through(&ops::DELETE_SUPPRESSION, Some(&s.email), &())
            .await?;
        deleted.id = s.email;
        Ok(deleted)
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
        self.through(&ops::CREATE_WEBHOOK, None, &endpoint).await
    }

    async fn list_webhooks(
        &self,
        _ctx: RequestContext,
        query: ListWebhooksQuery,
    ) -> Result<Page<WebhookEndpoint>, ServerError> {
        page(
            &newest_first(&self.endpoints()),
            |w| w.id.as_str(),
            query.limit,
            query.after.as_deref(),
            query.before.as_deref(),
        )
    }
}

impl EmailService {
    /// 409 naming `alias` when a template other than `own` has it (as its alias or its id).
    fn alias_free(&self, alias: &str, own: Option<&str>) -> Result<(), ServerError> {
        match self.template(alias) {
            Ok(t) if Some(t.id.as_str()) != own => Err(ServerError::conflict(
                "conflict",
                format!("a template has the alias `{alias}`"),
            )
            .with_param("alias")),
            _ => Ok(()),
        }
    }

    /// 409 naming `email` when a contact other than `own` has this address.
    fn address_free(&self, email: &str, own: Option<&str>) -> Result<(), ServerError> {
        match self.contact(email) {
            Ok(c) if Some(c.id.as_str()) != own => Err(ServerError::conflict(
                "conflict",
                format!("a contact has the address `{email}`"),
            )
            .with_param("email")),
            _ => Ok(()),
        }
    }

    /// Writes the whole contact `c` over the one kept under its id.
    async fn put_contact(&self, c: Contact) -> Result<Contact, ServerError> {
        self.through(&ops::UPDATE_CONTACT, Some(&c.id.clone()), &c)
            .await
    }
}
