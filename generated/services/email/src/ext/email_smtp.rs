//! Sending a [`SendEmailRequest`] through the email service's SMTP relay (feature `smtp`): the
//! request becomes a MIME message, with what the relay cannot carry refused rather than dropped.

use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Body as MimeBody, Mailbox, MultiPart, SinglePart};
use tidings_runtime::Error;
use tidings_runtime::smtp::SmtpMessage;
use tidings_runtime::smtp::lettre;

use crate::email::{AttachmentDisposition, SendEmailRequest, Tag};

/// Headers the message structure owns; a request's `headers` may not set them.
const RESERVED_HEADERS: &[&str] = &[
    "from",
    "to",
    "cc",
    "bcc",
    "reply-to",
    "subject",
    "date",
    "message-id",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
    "content-disposition",
    "x-tags",
    "x-template-id",
    "x-idempotency-key",
];

/// Sends a [`SendEmailRequest`] through the service's SMTP relay: `from`, `to`, `cc`, `bcc`
/// (envelope only, never a header), `reply_to`, `subject`, `text` and `html` (as
/// `multipart/alternative` when both are set), attachments (inline ones in
/// `multipart/related`), `headers`, and the relay's option headers: `X-Tags`
/// (`name=value, name=value`), `X-Template-Id` and `X-Idempotency-Key`.
///
/// What the relay cannot carry is refused rather than dropped: `scheduled_at`, `metadata`,
/// `tracking`, URL attachments, and templates by alias or with variables.
///
/// ```no_run
/// use tidings::email::SendEmailRequest;
/// use tidings::smtp::{SmtpRelay, SmtpTls};
/// # async fn demo() -> Result<(), tidings::Error> {
/// let relay = SmtpRelay::builder("smtp.example.com")
///     .tls(SmtpTls::StartTls)
///     .api_key(std::env::var("COMMS_EMAIL_API_KEY").unwrap_or_default())
///     .build()?;
/// let request = SendEmailRequest::new("Ada <ada@example.com>", ["grace@example.com"])
///     .subject("Hello")
///     .text("Sent through the relay.")
///     .tag("campaign", "launch");
/// let receipt = relay.send(&request).await?;
/// println!("accepted: {}", receipt.message);
/// # Ok(()) }
/// ```
impl SmtpMessage for SendEmailRequest {
    fn to_smtp_message(&self, idempotency_key: &str) -> Result<lettre::Message, Error> {
        self.check()?;
        refuse_for_smtp(self)?;

        let mut builder = lettre::Message::builder().from(mailbox("from", &self.from)?);
        for (field, list) in [
            ("to", Some(&self.to)),
            ("cc", self.cc.as_ref()),
            ("bcc", self.bcc.as_ref()),
            ("reply_to", self.reply_to.as_ref()),
        ] {
            for (i, address) in list.into_iter().flatten().enumerate() {
                let mailbox = mailbox(&format!("{field}[{i}]"), address)?;
                builder = match field {
                    "to" => builder.to(mailbox),
                    "cc" => builder.cc(mailbox),
                    "bcc" => builder.bcc(mailbox),
                    _ => builder.reply_to(mailbox),
                };
            }
        }
        if let Some(subject) = &self.subject {
            builder = builder.subject(subject.clone());
        }
        if let Some(tags) = self.tags.as_deref().filter(|t| !t.is_empty()) {
            builder = builder.raw_header(x_header("X-Tags", x_tags(tags)?));
        }
        if let Some(id) = self.template.as_ref().and_then(|t| t.id.as_deref()) {
            check_header_value("template.id", id)?;
            builder = builder.raw_header(x_header("X-Template-Id", id.to_owned()));
        }
        check_header_value("idempotency_key", idempotency_key)?;
        // The same limit as the API's `Idempotency-Key` (the spec's `idempotency.max_len`).
        if let Some(idempotency) = crate::email::SERVICE.idempotency {
            let len = idempotency_key.chars().count();
            if idempotency_key.is_empty() || len > idempotency.max_len {
                return Err(Error::invalid_request(
                    "idempotency_key",
                    format!("must be 1 to {} characters (is {len})", idempotency.max_len),
                ));
            }
        }
        builder = builder.raw_header(x_header("X-Idempotency-Key", idempotency_key.to_owned()));
        for (name, value) in self.headers.iter().flatten() {
            let field = format!("headers.{name}");
            if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                return Err(Error::invalid_request(
                    field,
                    "is set from the request's own fields; use them instead",
                ));
            }
            let header = HeaderName::new_from_ascii(name.clone()).map_err(|_| {
                Error::invalid_request(
                    &field,
                    "is not a valid header name (printable ASCII, no `:`)",
                )
            })?;
            check_header_value(&field, value)?;
            builder = builder.raw_header(HeaderValue::new(header, value.clone()));
        }

        let body = mime_body(self)?;
        let message = match body {
            Body::Single(part) => builder.singlepart(part),
            Body::Multi(part) => builder.multipart(part),
        };
        message.map_err(|e| Error::invalid_request("message", e.to_string()))
    }
}

/// Fields the SMTP relay cannot carry.
fn refuse_for_smtp(request: &SendEmailRequest) -> Result<(), Error> {
    const HINT: &str =
        "is not supported by the SMTP relay; send through the API (EmailClient::send_email)";
    let unsupported = [
        ("scheduled_at", request.scheduled_at.is_some()),
        ("metadata", request.metadata.is_some()),
        ("tracking", request.tracking.is_some()),
    ];
    if let Some((field, _)) = unsupported.iter().find(|(_, set)| *set) {
        return Err(Error::invalid_request(*field, HINT));
    }
    if let Some(template) = &request.template {
        if template.alias.is_some() {
            return Err(Error::invalid_request(
                "template.alias",
                "the SMTP relay names templates by id (X-Template-Id); use TemplateRef::by_id",
            ));
        }
        if template.variables.as_ref().is_some_and(|v| !v.is_empty()) {
            return Err(Error::invalid_request("template.variables", HINT));
        }
    }
    for (i, attachment) in request.attachments.iter().flatten().enumerate() {
        if attachment.content.is_none() {
            return Err(Error::invalid_request(
                format!("attachments[{i}].url"),
                "the SMTP relay needs the attachment's bytes; fetch it and use Attachment::from_bytes",
            ));
        }
    }
    Ok(())
}

fn mailbox(field: &str, address: &str) -> Result<Mailbox, Error> {
    address
        .parse::<Mailbox>()
        .map_err(|e| Error::invalid_request(field, format!("is not a usable address: {e}")))
}

fn x_header(name: &'static str, value: String) -> HeaderValue {
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value)
}

fn check_header_value(field: &str, value: &str) -> Result<(), Error> {
    if value.contains(['\r', '\n']) {
        return Err(Error::invalid_request(field, "may not contain line breaks"));
    }
    Ok(())
}

/// `name=value, name=value`; names and values may not contain `,` `=` or line breaks.
fn x_tags(tags: &[Tag]) -> Result<String, Error> {
    let mut pairs = Vec::with_capacity(tags.len());
    for (i, tag) in tags.iter().enumerate() {
        for (part, text) in [("name", &tag.name), ("value", &tag.value)] {
            if text.contains([',', '=', '\r', '\n']) {
                return Err(Error::invalid_request(
                    format!("tags[{i}].{part}"),
                    "may not contain `,`, `=` or line breaks when sent through the SMTP relay (X-Tags)",
                ));
            }
        }
        pairs.push(format!("{}={}", tag.name.trim(), tag.value.trim()));
    }
    Ok(pairs.join(", "))
}

enum Body {
    Single(SinglePart),
    Multi(MultiPart),
}

impl Body {
    fn into_multipart(self, kind: MultiPart) -> MultiPart {
        match self {
            Body::Single(part) => kind.singlepart(part),
            Body::Multi(part) => kind.multipart(part),
        }
    }
}

fn mime_body(request: &SendEmailRequest) -> Result<Body, Error> {
    let text = request.text.clone().map(SinglePart::plain);
    let html = request.html.clone().map(SinglePart::html);
    let mut body = match (text, html) {
        (Some(text), Some(html)) => {
            Body::Multi(MultiPart::alternative().singlepart(text).singlepart(html))
        }
        (Some(part), None) | (None, Some(part)) => Body::Single(part),
        // A template renders the body at the relay.
        (None, None) => Body::Single(SinglePart::plain(String::new())),
    };
    let mut inline = Vec::new();
    let mut files = Vec::new();
    for (i, attachment) in request.attachments.iter().flatten().enumerate() {
        let field = format!("attachments[{i}]");
        let bytes = attachment
            .decoded_content()
            .map_err(|e| Error::invalid_request(format!("{field}.content"), e.to_string()))?
            .unwrap_or_default();
        let content_type =
            ContentType::parse(attachment.effective_content_type()).map_err(|_| {
                Error::invalid_request(format!("{field}.content_type"), "is not a MIME type")
            })?;
        let is_inline = attachment.disposition == Some(AttachmentDisposition::Inline);
        let mime = match (&attachment.content_id, is_inline) {
            (Some(cid), true) => lettre::message::Attachment::new_inline_with_name(
                cid.clone(),
                attachment.filename.clone(),
            ),
            (None, true) => {
                return Err(Error::invalid_request(
                    format!("{field}.content_id"),
                    "is required for an inline attachment",
                ));
            }
            (_, false) => lettre::message::Attachment::new(attachment.filename.clone()),
        };
        // Always base64: any bytes go through unchanged and every line of it is short and ends
        // in CRLF. Left to choose, lettre sends ASCII bytes as 7bit with their bare LFs (a CSV,
        // a text file, `%PDF-1.7\n`), which relays refuse (RFC 5321 section 2.3.8) and which
        // could not arrive byte for byte anyway.
        let encoded = MimeBody::new_with_encoding(bytes, ContentTransferEncoding::Base64)
            .map_err(|_| Error::invalid_request(format!("{field}.content"), "cannot be encoded"))?;
        let part = mime.body(encoded, content_type);
        if is_inline {
            inline.push(part);
        } else {
            files.push(part);
        }
    }
    if !inline.is_empty() {
        let related = inline.into_iter().fold(
            body.into_multipart(MultiPart::related().build()),
            MultiPart::singlepart,
        );
        body = Body::Multi(related);
    }
    if !files.is_empty() {
        let mixed = files.into_iter().fold(
            body.into_multipart(MultiPart::mixed().build()),
            MultiPart::singlepart,
        );
        body = Body::Multi(mixed);
    }
    Ok(body)
}
