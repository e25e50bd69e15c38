//! Reading the inbox: the records newest first, filters, one record, and waits for a record
//! that has yet to arrive ([`Emails::wait_for`], [`Messages::wait_for`]).

use super::*;

impl Inbox {
    /// The emails, newest first.
    pub fn emails(&self) -> Emails<'_> {
        Emails { inbox: self }
    }

    /// The messages, newest first.
    pub fn messages(&self) -> Messages<'_> {
        Messages { inbox: self }
    }

    /// Every webhook delivery, newest first.
    pub fn webhooks(&self) -> Vec<WebhookRecord> {
        self.state().webhooks.iter().rev().cloned().collect()
    }

    /// One webhook delivery.
    pub fn webhook(&self, id: &str) -> Option<WebhookRecord> {
        self.state().webhooks.iter().find(|w| w.id == id).cloned()
    }

    /// The realtime event log, newest first.
    pub fn realtime_events(&self) -> Vec<RealtimeRecord> {
        self.state().realtime.iter().rev().cloned().collect()
    }

    /// The raw source of an email.
    pub fn raw_email(&self, id: &str) -> Option<Vec<u8>> {
        self.state().raws.get(id).map(|raw| raw.to_vec())
    }

    /// Sends a recorded webhook again, as a new delivery to the same URL with the same body:
    /// an email or messaging one with a new `webhook-id`, signed with the secret it was sent
    /// with; a realtime one signed again with the app's secret (which the inbox never keeps).
    /// Returns the new delivery's id.
    ///
    /// # Errors
    ///
    /// [`RedeliverError`] when the delivery is unknown, its service is not running in this
    /// process, its queue is full, or it cannot be signed.
    pub fn redeliver(&self, id: &str) -> Result<String, RedeliverError> {
        let (record, secret) = {
            let state = self.state();
            let record = state
                .webhooks
                .iter()
                .find(|w| w.id == id)
                .ok_or(RedeliverError::NotFound)?
                .clone();
            (record, state.secrets.get(id).cloned())
        };
        let sender = self
            .inner
            .senders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&record.service)
            .cloned()
            .ok_or_else(|| RedeliverError::NotRunning(record.service.clone()))?;
        let new_id = sender.redeliver(self, &record, secret.as_deref())?;
        let mut state = self.state();
        if let Some(w) = state.webhooks.iter_mut().rev().find(|w| w.id == new_id) {
            w.redelivery_of = Some(id.to_owned());
            let w = w.clone();
            self.persist(move |db| db.update_webhook(&w));
            drop(state);
            self.changed("webhook", "update", &new_id);
        }
        Ok(new_id)
    }

    /// Forgets one email; false when there was none.
    pub fn delete_email(&self, id: &str) -> bool {
        let mut state = self.state();
        let found = state.remove_email(id);
        if found {
            let gone = [("email", id.to_owned())];
            self.persist(move |db| db.delete_many(&gone));
        }
        drop(state);
        if found {
            self.changed("email", "delete", id);
        }
        found
    }

    /// Forgets one message; false when there was none.
    pub fn delete_message(&self, id: &str) -> bool {
        let mut state = self.state();
        let before = state.messages.len();
        state.messages.retain(|m| m.id != id);
        let found = state.messages.len() != before;
        if found {
            let gone = [("message", id.to_owned())];
            self.persist(move |db| db.delete_many(&gone));
        }
        drop(state);
        if found {
            self.changed("message", "delete", id);
        }
        found
    }

    /// Forgets every record of `kind` (`email`, `message`, `webhook`, `realtime`, `call`), or
    /// of every kind with `None`.
    pub fn clear(&self, kind: Option<&str>) {
        let mut state = self.state();
        let all = kind.is_none();
        let is = |k: &str| all || kind == Some(k);
        if is("email") {
            state.clear_emails();
        }
        if is("message") {
            state.messages.clear();
        }
        if is("webhook") {
            state.webhooks.clear();
            state.secrets.clear();
        }
        if is("realtime") {
            state.realtime.clear();
        }
        if is("call") {
            state.calls.clear();
        }
        let cleared = kind.map(str::to_owned);
        self.persist(move |db| db.clear(cleared.as_deref()));
        drop(state);
        let kind = match kind {
            Some("email") => "email",
            Some("message") => "message",
            Some("webhook") => "webhook",
            Some("realtime") => "realtime",
            Some("call") => "call",
            _ => "all",
        };
        self.changed(kind, "clear", "");
    }

    /// Waits until `find` returns something (checked now and after every change), at most
    /// `timeout`.
    async fn wait<T>(
        &self,
        timeout: Duration,
        mut find: impl FnMut(&State) -> Option<T>,
    ) -> Result<T, InboxError> {
        let mut version = self.inner.version.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            version.borrow_and_update();
            if let Some(found) = find(&self.state()) {
                return Ok(found);
            }
            match tokio::time::timeout_at(deadline, version.changed()).await {
                Ok(Ok(())) => {}
                _ => return Err(InboxError::Timeout(timeout)),
            }
        }
    }
}

/// A filter on emails: every field given must be contained (case-insensitively) in the
/// email's field; `q` in any of from, to, subject or text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct EmailFilter {
    /// Any of from, to, cc, subject or text.
    pub q: Option<String>,
    /// The sender.
    pub from: Option<String>,
    /// A recipient (to, cc or bcc).
    pub to: Option<String>,
    /// The subject.
    pub subject: Option<String>,
    /// The text or HTML body.
    pub text: Option<String>,
    /// Only emails that arrived after this `seq`.
    pub after_seq: Option<u64>,
}

fn contains(haystack: &str, needle: &str) -> bool {
    haystack.to_lowercase().contains(&needle.to_lowercase())
}

impl EmailFilter {
    /// Whether `email` passes.
    pub fn matches(&self, email: &CapturedEmail) -> bool {
        let recipients = || email.to.iter().chain(&email.cc).chain(&email.bcc);
        let subject = email.subject.as_deref().unwrap_or_default();
        let body = || {
            [email.text.as_deref(), email.html.as_deref()]
                .into_iter()
                .flatten()
        };
        let field = |f: &Option<String>, check: &dyn Fn(&str) -> bool| {
            f.as_deref().filter(|s| !s.is_empty()).is_none_or(check)
        };
        field(&self.from, &|n| contains(&email.from, n))
            && field(&self.to, &|n| recipients().any(|r| contains(r, n)))
            && field(&self.subject, &|n| contains(subject, n))
            && field(&self.text, &|n| body().any(|b| contains(b, n)))
            && field(&self.q, &|n| {
                contains(&email.from, n)
                    || recipients().any(|r| contains(r, n))
                    || contains(subject, n)
                    || body().any(|b| contains(b, n))
            })
            && self.after_seq.is_none_or(|s| email.seq > s)
    }
}

/// A filter on messages, like [`EmailFilter`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct MessageFilter {
    /// Any of from, to or text.
    pub q: Option<String>,
    /// The channel, exactly (`sms`).
    pub channel: Option<String>,
    /// The sender.
    pub from: Option<String>,
    /// The recipient.
    pub to: Option<String>,
    /// The text.
    pub text: Option<String>,
    /// Only messages that arrived after this `seq`.
    pub after_seq: Option<u64>,
}

impl MessageFilter {
    /// Whether `message` passes.
    pub fn matches(&self, message: &CapturedMessage) -> bool {
        let text = message.text.as_deref().unwrap_or_default();
        let field = |f: &Option<String>, check: &dyn Fn(&str) -> bool| {
            f.as_deref().filter(|s| !s.is_empty()).is_none_or(check)
        };
        field(&self.channel, &|c| message.channel.eq_ignore_ascii_case(c))
            && field(&self.from, &|n| contains(&message.from, n))
            && field(&self.to, &|n| contains(&message.to, n))
            && field(&self.text, &|n| contains(text, n))
            && field(&self.q, &|n| {
                contains(&message.from, n) || contains(&message.to, n) || contains(text, n)
            })
            && self.after_seq.is_none_or(|s| message.seq > s)
    }
}

/// The inbox's emails (see [`Inbox::emails`]).
#[derive(Debug, Clone, Copy)]
pub struct Emails<'a> {
    inbox: &'a Inbox,
}

impl Emails<'_> {
    /// Every email kept, newest first.
    pub fn all(&self) -> Vec<CapturedEmail> {
        self.inbox.state().emails.iter().rev().cloned().collect()
    }

    /// The emails `filter` passes, newest first.
    pub fn search(&self, filter: &EmailFilter) -> Vec<CapturedEmail> {
        self.inbox
            .state()
            .emails
            .iter()
            .rev()
            .filter(|e| filter.matches(e))
            .cloned()
            .collect()
    }

    /// One email.
    pub fn get(&self, id: &str) -> Option<CapturedEmail> {
        self.inbox
            .state()
            .emails
            .iter()
            .find(|e| e.id == id)
            .cloned()
    }

    /// The newest email `matches` accepts, once there is one: now or after a later arrival or
    /// status change, at most `timeout` from now.
    ///
    /// # Errors
    ///
    /// [`InboxError::Timeout`] when none came in time.
    pub async fn wait_for(
        &self,
        timeout: Duration,
        mut matches: impl FnMut(&CapturedEmail) -> bool,
    ) -> Result<CapturedEmail, InboxError> {
        self.inbox
            .wait(timeout, |s| {
                s.emails.iter().rev().find(|e| matches(e)).cloned()
            })
            .await
    }
}

/// The inbox's messages (see [`Inbox::messages`]).
#[derive(Debug, Clone, Copy)]
pub struct Messages<'a> {
    inbox: &'a Inbox,
}

impl Messages<'_> {
    /// Every message kept, newest first.
    pub fn all(&self) -> Vec<CapturedMessage> {
        self.inbox.state().messages.iter().rev().cloned().collect()
    }

    /// The messages `filter` passes, newest first.
    pub fn search(&self, filter: &MessageFilter) -> Vec<CapturedMessage> {
        self.inbox
            .state()
            .messages
            .iter()
            .rev()
            .filter(|m| filter.matches(m))
            .cloned()
            .collect()
    }

    /// One message.
    pub fn get(&self, id: &str) -> Option<CapturedMessage> {
        self.inbox
            .state()
            .messages
            .iter()
            .find(|m| m.id == id)
            .cloned()
    }

    /// The newest message `matches` accepts, once there is one, at most `timeout` from now.
    ///
    /// # Errors
    ///
    /// [`InboxError::Timeout`] when none came in time.
    pub async fn wait_for(
        &self,
        timeout: Duration,
        mut matches: impl FnMut(&CapturedMessage) -> bool,
    ) -> Result<CapturedMessage, InboxError> {
        self.inbox
            .wait(timeout, |s| {
                s.messages.iter().rev().find(|m| matches(m)).cloned()
            })
            .await
    }
}
