//! The email API's operations, as the generated [`EmailServer`] trait serves them: emails,
//! templates, contacts, lists, suppressions and webhook endpoints.

use super::*;

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
