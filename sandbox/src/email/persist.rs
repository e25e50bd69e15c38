//! The email service's own state in the data directory (`--data`): each email and SMTP
//! idempotency key is one row of the store's `state` table, written through the inbox's writer in the order of the changes; loaded at
//! start, with the lifecycle of emails still on their way resumed. Also the byte budget of the
//! bodies the API keeps.

use super::*;

/// The service's name in the data directory's state table.
const STATE: &str = "email";

/// An email as the data directory keeps it.
#[derive(serde::Serialize, serde::Deserialize)]
struct SavedEmail {
    email: Email,
    bounce: bool,
}

/// An SMTP idempotency key as the data directory keeps it.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct SavedSmtpKey {
    pub(super) fingerprint: Vec<u8>,
    pub(super) email_id: String,
}

/// What one kept email costs against [`EmailSandboxConfig::max_email_bytes`].
pub(super) fn body_cost(stored: &Stored) -> usize {
    let e = &stored.email;
    let text = |t: &Option<String>| t.as_ref().map_or(0, String::len);
    let addresses = |list: &[String]| list.iter().map(|a| a.len() + 4).sum::<usize>();
    // Every field a sender sizes counts: the bodies, and the addresses, tags and metadata
    // (a metadata value has no length limit of its own, so megabytes may ride there).
    e.from.len()
        + addresses(&e.to)
        + [&e.cc, &e.bcc, &e.reply_to]
            .into_iter()
            .map(|l| l.as_deref().map_or(0, addresses))
            .sum::<usize>()
        + text(&e.subject)
        + text(&e.html)
        + text(&e.text)
        + text(&e.template_id)
        + e.tags
            .iter()
            .flatten()
            .map(|t| t.name.len() + t.value.len() + 24)
            .sum::<usize>()
        + e.metadata
            .iter()
            .flatten()
            .map(|(k, v)| k.len() + v.len() + 6)
            .sum::<usize>()
        + 1024
}

impl Store {
    /// What the inbox's data directory kept (nothing in memory), and the rows of the kinds the
    /// resource store keeps now (templates, contacts, lists, suppressions, webhook endpoints,
    /// written here by earlier versions), for [`EmailService::adopt`].
    pub(super) fn restored(inbox: Option<&crate::inbox::Inbox>) -> (Self, Vec<Legacy>) {
        let mut store = Store::default();
        let mut legacy = Vec::new();
        let Some(inbox) = inbox else {
            return (store, legacy);
        };
        for row in inbox.take_state(STATE) {
            if let Some(kind) = Legacy::kind(&row.kind) {
                legacy.push(Legacy {
                    kind,
                    id: row.id.clone(),
                    doc: row.doc.clone(),
                });
                continue;
            }
            let doc = row.doc.as_str();
            let result = match row.kind.as_str() {
                "email" => serde_json::from_str::<SavedEmail>(doc).map(|e| {
                    let stored = Stored {
                        email: e.email,
                        generation: 0,
                        bounce: e.bounce,
                    };
                    store.emails.insert(stored.email.id.clone(), stored);
                }),
                "smtp_key" => serde_json::from_str::<SavedSmtpKey>(doc).map(|k| {
                    store
                        .smtp_keys
                        .insert(row.id.clone(), (k.fingerprint, k.email_id));
                }),
                _ => Ok(()),
            };
            if let Err(e) = result {
                tracing::warn!(kind = row.kind, id = row.id, error = %e, "email sandbox: skipping an unreadable stored object");
            }
        }
        store.body_bytes = store.emails.values().map(body_cost).sum();
        (store, legacy)
    }
}

/// A row an earlier version kept in the state table for what the resource store keeps now.
pub(super) struct Legacy {
    kind: &'static str,
    id: String,
    doc: String,
}

impl Legacy {
    /// The row kinds that moved to the resource store.
    fn kind(kind: &str) -> Option<&'static str> {
        ["template", "contact", "list", "suppression", "webhook"]
            .into_iter()
            .find(|k| *k == kind)
    }
}

impl EmailService {
    /// Moves what an earlier version kept in the state table (templates, contacts, lists,
    /// suppressions, webhook endpoints) into the resource store, each row removed once its item
    /// is committed there (or already was): a data directory from before keeps every object it
    /// acknowledged. A row the store refuses stays, logged, for the next start.
    pub(super) async fn adopt(&self, legacy: Vec<Legacy>) {
        use crate::server::email_server::defaults as ops;
        for row in legacy {
            let op = match row.kind {
                "template" => &ops::CREATE_TEMPLATE,
                "contact" => &ops::CREATE_CONTACT,
                "list" => &ops::CREATE_LIST,
                "suppression" => &ops::CREATE_SUPPRESSION,
                _ => &ops::CREATE_WEBHOOK,
            };
            let Ok(value) = serde_json::from_str::<serde_json::Value>(&row.doc) else {
                tracing::warn!(
                    kind = row.kind,
                    id = row.id,
                    "email sandbox: an unreadable kept object stays where it is"
                );
                continue;
            };
            let id = value.get("id").and_then(|v| v.as_str()).unwrap_or(&row.id);
            let held = self
                .inner
                .resources
                .find(op.collection, |v| {
                    v.get("id").and_then(|v| v.as_str()) == Some(id)
                })
                .is_some();
            if !held && let Err(e) = self.through::<serde_json::Value>(op, None, &value).await {
                tracing::warn!(kind = row.kind, id = row.id, error = %e, "email sandbox: a kept object cannot move to the resource store; it stays for the next start");
                continue;
            }
            if let Err(e) = self.save::<()>(row.kind, &row.id, None).answer().await {
                tracing::warn!(kind = row.kind, id = row.id, error = %e, "email sandbox: a moved object's old row stays");
            }
        }
    }

    /// Queues one object of the state for the data directory (call it holding the store's
    /// lock, so the disk sees changes in their order); ready at once in memory.
    pub(super) fn save<T: serde::Serialize>(
        &self,
        kind: &'static str,
        id: &str,
        value: Option<&T>,
    ) -> Durable {
        match (&self.inner.inbox, self.state_write(kind, id, value)) {
            (_, Err(why)) => Durable::failed(why),
            (Some(inbox), Ok(Some(row))) => {
                inbox.save_state(row.service, row.kind, &row.id, row.doc)
            }
            _ => Durable::ready(),
        }
    }

    /// The row [`Self::save`] writes, when the inbox keeps a data directory.
    pub(super) fn state_write<T: serde::Serialize>(
        &self,
        kind: &'static str,
        id: &str,
        value: Option<&T>,
    ) -> Result<Option<StateWrite>, String> {
        match &self.inner.inbox {
            Some(inbox) if inbox.is_persistent() => Ok(Some(StateWrite {
                service: STATE,
                kind,
                id: id.to_owned(),
                doc: value
                    .map(serde_json::to_string)
                    .transpose()
                    .map_err(|e| format!("cannot encode the {kind}: {e}"))?,
            })),
            _ => Ok(None),
        }
    }

    /// Forgets the oldest emails while the bodies kept take more than `max_email_bytes` (the
    /// newest stays). Called holding the store's lock.
    pub(super) fn forget_oldest(&self, store: &mut Store) {
        let mut forgotten = 0;
        while store.body_bytes > self.inner.max_email_bytes && store.emails.len() > 1 {
            let Some((_, old)) = store.emails.shift_remove_index(0) else {
                break;
            };
            store.body_bytes = store.body_bytes.saturating_sub(body_cost(&old));
            let _ = self.save::<SavedEmail>("email", &old.email.id, None);
            forgotten += 1;
        }
        if forgotten > 0 {
            tracing::info!(
                forgotten,
                max_bytes = self.inner.max_email_bytes,
                "email sandbox: email memory budget reached; the oldest emails were forgotten"
            );
        }
    }

    pub(super) fn save_email(&self, stored: &Stored) -> Durable {
        let saved = SavedEmail {
            email: stored.email.clone(),
            bounce: stored.bounce,
        };
        self.save("email", &stored.email.id, Some(&saved))
    }

    /// The row [`Self::save_email`] writes, for the transaction that records a new email.
    pub(super) fn email_state_write(
        &self,
        email: &Email,
        bounce: bool,
    ) -> Result<Option<StateWrite>, String> {
        let saved = SavedEmail {
            email: email.clone(),
            bounce,
        };
        self.state_write("email", &email.id, Some(&saved))
    }

    /// Restarts the lifecycle of every email a restart found on its way (scheduled, queued
    /// or sent).
    pub(super) fn resume(&self) {
        let pending: Vec<String> = self
            .store()
            .emails
            .values()
            .filter(|s| {
                matches!(
                    s.email.status,
                    EmailStatus::Scheduled | EmailStatus::Queued | EmailStatus::Sent
                )
            })
            .map(|s| s.email.id.clone())
            .collect();
        for id in pending {
            self.start_lifecycle(id, 0);
        }
    }
}
