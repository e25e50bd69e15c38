//! What the messaging sandbox keeps: its messages by uuid within a byte budget, its templates
//! and resources, and the messages a data directory brings back.

use indexmap::IndexMap;
use tidings::messaging::{MessageRecord, Resource, Template};

use crate::server::ServerError;

pub(super) struct Store {
    /// By uuid in creation order, with each message's own webhook URL and what it costs
    /// ([`message_cost`]); the oldest are forgotten past `max_message_bytes`.
    pub(super) messages: IndexMap<String, (MessageRecord, Option<String>, usize)>,
    /// The costs of `messages`, summed.
    pub(super) message_bytes: usize,
    pub(super) templates: Vec<Template>,
    pub(super) resources: Vec<Resource>,
}

/// The service's name in the data directory's state table.
pub(super) const STATE: &str = "messaging";

/// A message as the data directory keeps it.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct SavedMessage {
    pub(super) record: MessageRecord,
    pub(super) webhook_url: Option<String>,
}

/// Default of [`MessagingSandboxConfig::max_message_bytes`](super::MessagingSandboxConfig::max_message_bytes): 64 MiB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// What a kept message costs in memory, roughly: the record as JSON (its text, media and
/// numbers), its webhook URL and a fixed part.
pub(super) fn message_cost(record: &MessageRecord, webhook_url: Option<&String>) -> usize {
    serde_json::to_vec(record).map_or(0, |json| json.len())
        + webhook_url.map_or(0, String::len)
        + 256
}

/// The messages the inbox's data directory kept (none in memory). A message a restart found
/// on its way keeps its last status.
pub(super) fn restored(
    inbox: Option<&crate::inbox::Inbox>,
) -> Vec<(MessageRecord, Option<String>)> {
    let Some(inbox) = inbox else {
        return Vec::new();
    };
    let mut messages = Vec::new();
    for row in inbox.take_state(STATE) {
        if row.kind != "message" {
            continue;
        }
        match serde_json::from_str::<SavedMessage>(&row.doc) {
            Ok(m) => messages.push((m.record, m.webhook_url)),
            Err(e) => tracing::warn!(
                id = row.id,
                error = %e,
                "messaging sandbox: skipping an unreadable stored message"
            ),
        }
    }
    messages
}

impl Store {
    pub(super) fn message_mut(
        &mut self,
        uuid: &str,
    ) -> Result<(&mut MessageRecord, &mut Option<String>), ServerError> {
        self.messages
            .get_mut(uuid)
            .map(|(record, url, _)| (record, url))
            .ok_or_else(|| ServerError::not_found(format!("message `{uuid}`")))
    }

    /// Keeps a new message (the newest), then forgets the oldest while the kept ones cost more
    /// than `max_bytes` (the newest stays); the uuids forgotten.
    pub(super) fn keep_message(
        &mut self,
        record: MessageRecord,
        url: Option<String>,
        max_bytes: usize,
    ) -> Vec<String> {
        let cost = message_cost(&record, url.as_ref());
        self.message_bytes += cost;
        if let Some((_, _, old)) = self
            .messages
            .insert(record.message_uuid.clone(), (record, url, cost))
        {
            self.message_bytes = self.message_bytes.saturating_sub(old);
        }
        let mut forgotten = Vec::new();
        while self.message_bytes > max_bytes && self.messages.len() > 1 {
            let Some((uuid, (_, _, cost))) = self.messages.shift_remove_index(0) else {
                break;
            };
            self.message_bytes = self.message_bytes.saturating_sub(cost);
            forgotten.push(uuid);
        }
        forgotten
    }

    /// Forgets message `uuid`.
    pub(super) fn forget_message(&mut self, uuid: &str) {
        if let Some((_, _, cost)) = self.messages.shift_remove(uuid) {
            self.message_bytes = self.message_bytes.saturating_sub(cost);
        }
    }
}
