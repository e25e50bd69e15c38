//! The email service's templates, contacts, lists, suppressions and webhook endpoints: items of
//! the spec-driven resource store, as any served spec's are. The operations with no behaviour
//! of their own are its defaults; the hand-written ones read it here and write through the
//! spec's own operations, so what they acknowledge is bounded and (with `--data`) committed the
//! same way, and the inbox shows it among the resources.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::*;
use crate::server::email_server::defaults as ops;
use crate::server::resources::{ResourceOp, answer, call};

/// Whether the text field `name` of a stored item is `value`, ignoring ASCII case.
fn text_is(item: &Map<String, Value>, name: &str, value: &str) -> bool {
    item.get(name)
        .and_then(Value::as_str)
        .is_some_and(|v| v.eq_ignore_ascii_case(value))
}

impl EmailService {
    /// `op`'s default behaviour on the item `id` (or its collection) with `body`, its answer
    /// as `T`.
    pub(super) async fn through<T: DeserializeOwned>(
        &self,
        op: &ResourceOp,
        id: Option<&str>,
        body: &impl Serialize,
    ) -> Result<T, ServerError> {
        let path = match (op.item_param, id) {
            (Some(param), Some(id)) => vec![(param, id.to_owned())],
            _ => Vec::new(),
        };
        answer(
            &self.inner.resources,
            &ops::SCHEMA,
            op,
            call(path, &(), body),
        )
        .await
    }

    /// Every item of the collection `op` serves, oldest first.
    pub(super) fn all<T: DeserializeOwned>(&self, op: &ResourceOp) -> Vec<T> {
        self.inner.resources.all_as(op.collection)
    }

    /// The oldest item of `op`'s collection `pick` chooses, as a `T`.
    fn pick<T: DeserializeOwned>(
        &self,
        op: &ResourceOp,
        pick: impl Fn(&Map<String, Value>) -> bool,
    ) -> Option<T> {
        let found = self.inner.resources.find(op.collection, pick)?;
        serde_json::from_value(found).ok()
    }

    /// The template with this id or alias, or 404.
    pub(super) fn template(&self, id_or_alias: &str) -> Result<Template, ServerError> {
        self.pick(&ops::GET_TEMPLATE, |t| {
            t.get("id").and_then(Value::as_str) == Some(id_or_alias)
                || t.get("alias").and_then(Value::as_str) == Some(id_or_alias)
        })
        .ok_or_else(|| ServerError::not_found(format!("template `{id_or_alias}`")))
    }

    /// The contact with this id or address (in any case), or 404.
    pub(super) fn contact(&self, id_or_email: &str) -> Result<Contact, ServerError> {
        let address = bare_address(id_or_email);
        self.pick(&ops::GET_CONTACT, |c| {
            c.get("id").and_then(Value::as_str) == Some(id_or_email)
                || text_is(c, "email", &address)
        })
        .ok_or_else(|| ServerError::not_found(format!("contact `{id_or_email}`")))
    }

    /// The list `id` with its contact count, or 404.
    pub(super) fn list(&self, id: &str) -> Result<ContactList, ServerError> {
        let list: ContactList = self
            .pick(&ops::GET_LIST, |l| {
                l.get("id").and_then(Value::as_str) == Some(id)
            })
            .ok_or_else(|| ServerError::not_found(format!("list `{id}`")))?;
        Ok(self.with_counts(vec![list]).remove(0))
    }

    /// 404 naming `list_ids` for an id in `ids` that names no list: a well-formed id naming
    /// nothing, like an unknown id in a path.
    pub(super) fn check_lists(&self, ids: Option<&Vec<String>>) -> Result<(), ServerError> {
        for id in ids.into_iter().flatten() {
            self.list(id).map_err(|e| e.with_param("list_ids"))?;
        }
        Ok(())
    }

    /// `lists`, each with how many contacts it holds (counted, never stored: a contact's
    /// `list_ids` is the one record of membership).
    pub(super) fn with_counts(&self, mut lists: Vec<ContactList>) -> Vec<ContactList> {
        let contacts: Vec<Contact> = self.all(&ops::LIST_CONTACTS);
        for list in &mut lists {
            let count = contacts
                .iter()
                .filter(|c| c.list_ids.iter().flatten().any(|id| *id == list.id))
                .count();
            list.contact_count = Some(i64::try_from(count).unwrap_or(i64::MAX));
        }
        lists
    }

    /// The suppression of `address` (its bare form, in any case), if any.
    pub(super) fn suppressed(&self, address: &str) -> Option<Suppression> {
        let address = bare_address(address);
        self.pick(&ops::GET_SUPPRESSION, |s| text_is(s, "email", &address))
    }

    /// The registered webhook endpoints.
    pub(super) fn endpoints(&self) -> Vec<WebhookEndpoint> {
        self.all(&ops::LIST_WEBHOOKS)
    }

    /// Serializes the changes that check the store before they write to it (an alias or an
    /// address no other item has), so two of them cannot both pass the check.
    pub(super) async fn writing(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.inner.writes.lock().await
    }
}
