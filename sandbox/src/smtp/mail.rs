//! What the SMTP listener hands on: one received message ([`ReceivedMail`], envelope and raw
//! bytes), its mapping onto the REST API's send request, and the [`MailSink`] that stores it.
//! Recipients come from the envelope only; headers are content.

use tidings::email::{SendEmailRequest, Tag, TemplateRef};

use crate::inbox::Durable;
use crate::server::ServerError;

/// Where accepted messages go.
pub trait MailSink: Send + Sync + 'static {
    /// Stores one message; returns its id. An error is answered with a 4xx/5xx reply.
    ///
    /// # Errors
    ///
    /// A [`ServerError`] when the message is refused (invalid, reused idempotency key...).
    fn deliver(&self, mail: ReceivedMail) -> Result<String, ServerError>;

    /// [`MailSink::deliver`], and when the message is on disk: the session answers `250` only
    /// once that resolves (`452` when it fails). Ready at once unless overridden.
    ///
    /// # Errors
    ///
    /// As [`MailSink::deliver`].
    fn deliver_durable(&self, mail: ReceivedMail) -> Result<(String, Durable), ServerError> {
        self.deliver(mail).map(|id| (id, Durable::ready()))
    }

    /// The message `id` could not be stored ([`MailSink::deliver_durable`] failed): forget it.
    fn not_stored(&self, id: &str) {
        let _ = id;
    }
}

/// One message as received: the envelope and the raw message.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ReceivedMail {
    /// `MAIL FROM` address.
    pub envelope_from: String,
    /// `RCPT TO` addresses: the only recipients.
    pub envelope_to: Vec<String>,
    /// The message as sent (dot-unstuffed, lines ending in CRLF).
    pub raw: Vec<u8>,
    /// The `X-Idempotency-Key` header.
    pub idempotency_key: Option<String>,
}

impl ReceivedMail {
    /// A message from its envelope and raw bytes (reads `X-Idempotency-Key` from the headers).
    pub fn new(envelope_from: String, envelope_to: Vec<String>, raw: Vec<u8>) -> ReceivedMail {
        let idempotency_key = mail_parser::MessageParser::default()
            .parse_headers(&raw)
            .and_then(|m| {
                m.header_raw("X-Idempotency-Key")
                    .map(|k| k.trim().to_owned())
            });
        ReceivedMail {
            envelope_from,
            envelope_to,
            raw,
            idempotency_key,
        }
    }

    /// A byte string that is the same for the same message: envelope and raw message without
    /// headers that differ between sends of one message (`Date`, `Message-ID`).
    pub fn fingerprint(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(self.envelope_from.as_bytes());
        for to in &self.envelope_to {
            out.push(0);
            out.extend_from_slice(to.as_bytes());
        }
        out.push(0);
        for line in self.raw.split(|b| *b == b'\n') {
            let lower = line.to_ascii_lowercase();
            if lower.starts_with(b"date:") || lower.starts_with(b"message-id:") {
                continue;
            }
            out.extend_from_slice(line);
            out.push(b'\n');
        }
        out
    }

    /// The message as the REST API's send request: `From`, `Reply-To`, `Subject`, the text and
    /// HTML bodies, `X-Tags` and `X-Template-Id` from the headers; the recipients are the
    /// envelope's (`RCPT TO`) only. An envelope recipient named in the `To` header is a `to`,
    /// one named in `Cc` a `cc`, any other a `bcc`; an address only in the headers is content
    /// and receives nothing. When `To` names none of the envelope's recipients, the blind ones
    /// (or else the `cc` ones) are stored as `to`, which the record needs.
    ///
    /// # Errors
    ///
    /// A 422 when the message cannot be parsed.
    pub fn to_request(&self) -> Result<SendEmailRequest, ServerError> {
        let message = mail_parser::MessageParser::default()
            .parse(&self.raw)
            .ok_or_else(|| ServerError::validation("message", "not a parseable message"))?;
        let format = |a: &mail_parser::Addr<'_>| -> Option<String> {
            let address = a.address()?;
            Some(match a.name() {
                Some(name) if !name.is_empty() => format!("{name} <{address}>"),
                _ => address.to_owned(),
            })
        };
        let list = |addresses: Option<&mail_parser::Address<'_>>| -> Vec<String> {
            addresses
                .map(|a| a.iter().filter_map(format).collect())
                .unwrap_or_default()
        };
        let from = message
            .from()
            .and_then(|a| a.first())
            .and_then(format)
            .unwrap_or_else(|| self.envelope_from.clone());
        let (header_to, header_cc) = (list(message.to()), list(message.cc()));
        let named = |headers: &[String], recipient: &str| {
            headers
                .iter()
                .find(|h| crate::inbox::bare_address(h).eq_ignore_ascii_case(recipient))
                .cloned()
        };
        let (mut to, mut cc, mut bcc) = (Vec::new(), Vec::new(), Vec::new());
        for recipient in &self.envelope_to {
            if let Some(shown) = named(&header_to, recipient) {
                to.push(shown);
            } else if let Some(shown) = named(&header_cc, recipient) {
                cc.push(shown);
            } else {
                bcc.push(recipient.clone());
            }
        }
        if to.is_empty() {
            to = if bcc.is_empty() {
                std::mem::take(&mut cc)
            } else {
                std::mem::take(&mut bcc)
            };
        }
        let reply_to = list(message.reply_to());
        let text = message
            .text_bodies()
            .find(|p| !p.is_text_html())
            .and_then(|p| p.text_contents())
            .map(str::to_owned);
        let html = message
            .html_bodies()
            .find(|p| p.is_text_html())
            .and_then(|p| p.text_contents())
            .map(str::to_owned);
        let tags: Vec<Tag> = message
            .header_raw("X-Tags")
            .map(|raw| {
                raw.split(',')
                    .filter_map(|pair| {
                        let (name, value) = pair.split_once('=')?;
                        Some(Tag::new(name.trim(), value.trim()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let template = message
            .header_raw("X-Template-Id")
            .map(|id| TemplateRef::default().id(id.trim()));
        let mut request = SendEmailRequest::new(from, to);
        if !cc.is_empty() {
            request.cc = Some(cc);
        }
        if !bcc.is_empty() {
            request.bcc = Some(bcc);
        }
        if !reply_to.is_empty() {
            request.reply_to = Some(reply_to);
        }
        request.subject = message.subject().map(str::to_owned);
        if !tags.is_empty() {
            request.tags = Some(tags);
        }
        if template.is_some() {
            request.template = template;
        } else {
            request.html = html;
            request.text = text;
            if request.html.is_none() && request.text.is_none() {
                request.text = Some(String::new());
            }
        }
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(envelope_to: &[&str], headers: &str) -> ReceivedMail {
        let raw =
            format!("{headers}Subject: Hi\r\nContent-Type: text/plain\r\n\r\nHello there\r\n");
        ReceivedMail::new(
            "ada@example.com".into(),
            envelope_to.iter().map(|s| (*s).to_owned()).collect(),
            raw.into_bytes(),
        )
    }

    #[test]
    fn turns_a_parsed_message_into_a_send_request() {
        let raw = b"From: Ada <ada@example.com>\r\nTo: grace@example.com\r\nSubject: Hi\r\nX-Tags: campaign=launch, tier=gold\r\nX-Idempotency-Key: k-1\r\nContent-Type: text/plain\r\n\r\nHello there\r\n".to_vec();
        let mail = ReceivedMail::new(
            "ada@example.com".into(),
            vec!["grace@example.com".into(), "hidden@example.com".into()],
            raw,
        );
        assert_eq!(mail.idempotency_key.as_deref(), Some("k-1"));
        let request = mail.to_request().unwrap();
        assert_eq!(request.from, "Ada <ada@example.com>");
        assert_eq!(request.to, vec!["grace@example.com".to_owned()]);
        assert_eq!(request.bcc, Some(vec!["hidden@example.com".to_owned()]));
        assert_eq!(request.subject.as_deref(), Some("Hi"));
        assert_eq!(request.text.as_deref().map(str::trim), Some("Hello there"));
        let tags = request.tags.unwrap();
        assert_eq!(
            (tags[1].name.as_str(), tags[1].value.as_str()),
            ("tier", "gold")
        );
    }

    #[test]
    fn header_addresses_outside_the_envelope_never_become_recipients() {
        let request = mail(&["a@x.example"], "To: b@y.example\r\nCc: c@z.example\r\n")
            .to_request()
            .unwrap();
        assert_eq!(request.to, vec!["a@x.example".to_owned()]);
        assert_eq!(request.cc, None);
        assert_eq!(request.bcc, None);
    }

    #[test]
    fn envelope_recipients_take_their_role_from_the_headers_that_name_them() {
        let request = mail(
            &["Grace@Example.com", "carol@example.com", "dave@example.com"],
            "To: Grace <grace@example.com>, eve@example.com\r\nCc: carol@example.com\r\n",
        )
        .to_request()
        .unwrap();
        assert_eq!(request.to, vec!["Grace <grace@example.com>".to_owned()]);
        assert_eq!(request.cc, Some(vec!["carol@example.com".to_owned()]));
        assert_eq!(request.bcc, Some(vec!["dave@example.com".to_owned()]));
    }
}
