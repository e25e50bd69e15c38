//! Hand-written additions to `crate::email`: attachments from bytes or files (base64 and the
//! content type done for the caller), one-at-a-time builders for tags, headers and template
//! variables, the whole-request check (the total attachment size included), and small readers
//! on events and statuses. Sending through the SMTP relay is in `email_smtp.rs` (feature `smtp`).

use std::path::Path;

use base64::Engine as _;
use tidings_runtime::Error;
use tidings_runtime::validate::Validator;

use crate::email::{
    Attachment, AttachmentDisposition, Bounce, BounceType, EmailEvent, EmailStatus,
    SendEmailRequest, Tag, TemplateRef, TrackingSettings,
};

/// See [`SendEmailRequest::ATTACHMENTS_TOTAL_MAX_BYTES`].
const ATTACHMENTS_TOTAL_MAX_BYTES: usize = 41_943_040;

/// The MIME type of a file, guessed from its extension (`application/octet-stream` when the
/// extension is not a common one).
fn guess_content_type(filename: &str) -> &'static str {
    let extension = filename
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "pdf" => "application/pdf",
        "txt" | "text" | "log" => "text/plain",
        "csv" => "text/csv",
        "htm" | "html" => "text/html",
        "ics" => "text/calendar",
        "md" => "text/markdown",
        "json" => "application/json",
        "xml" => "application/xml",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "bmp" => "image/bmp",
        "ico" => "image/x-icon",
        "heic" => "image/heic",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "mp4" => "video/mp4",
        "mov" => "video/quicktime",
        "doc" => "application/msword",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls" => "application/vnd.ms-excel",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt" => "application/vnd.ms-powerpoint",
        "pptx" => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt" => "application/vnd.oasis.opendocument.text",
        "rtf" => "application/rtf",
        "eml" => "message/rfc822",
        _ => "application/octet-stream",
    }
}

/// Length of the padded base64 encoding of `n` bytes.
fn base64_len(n: u64) -> u64 {
    n.div_ceil(3).saturating_mul(4)
}

impl Attachment {
    /// An attachment holding `bytes`, base64-encoded for the wire, with its content type
    /// guessed from `filename`'s extension.
    ///
    /// ```
    /// use tidings::email::Attachment;
    /// let invoice = Attachment::from_bytes("invoice.pdf", b"%PDF-1.7 ...");
    /// assert_eq!(invoice.content_type.as_deref(), Some("application/pdf"));
    /// assert_eq!(invoice.decoded_content().unwrap().unwrap(), b"%PDF-1.7 ...");
    /// ```
    pub fn from_bytes(filename: impl Into<String>, bytes: impl AsRef<[u8]>) -> Attachment {
        let filename = filename.into();
        let content_type = guess_content_type(&filename);
        Attachment::new(filename)
            .content(base64::engine::general_purpose::STANDARD.encode(bytes.as_ref()))
            .content_type(content_type)
    }

    /// An attachment read from a file: named after the file, content type guessed from its
    /// extension.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when the file cannot be read, has no file name, or is larger
    /// than [`SendEmailRequest::ATTACHMENTS_TOTAL_MAX_BYTES`] once base64-encoded (checked before reading).
    pub fn from_path(path: impl AsRef<Path>) -> Result<Attachment, Error> {
        let path = path.as_ref();
        let field = "attachments";
        let filename = path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| {
                Error::invalid_request(field, format!("{} has no file name", path.display()))
            })?
            .to_owned();
        let size = std::fs::metadata(path)
            .map_err(|e| {
                Error::invalid_request(field, format!("cannot read {}: {e}", path.display()))
            })?
            .len();
        if base64_len(size) > ATTACHMENTS_TOTAL_MAX_BYTES as u64 {
            return Err(Error::invalid_request(
                field,
                format!(
                    "{} is {size} bytes; attachments may hold at most {ATTACHMENTS_TOTAL_MAX_BYTES} bytes of base64 (about 30 MiB of files)",
                    path.display()
                ),
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| {
            Error::invalid_request(field, format!("cannot read {}: {e}", path.display()))
        })?;
        Ok(Attachment::from_bytes(filename, bytes))
    }

    /// An attachment the service downloads from `url` when it sends the email (API sends only;
    /// the SMTP relay needs the bytes).
    pub fn from_url(filename: impl Into<String>, url: impl Into<String>) -> Attachment {
        let filename = filename.into();
        let content_type = guess_content_type(&filename);
        Attachment::new(filename)
            .url(url)
            .content_type(content_type)
    }

    /// Shown inside the HTML body rather than as a download: the HTML refers to it as
    /// `<img src="cid:{content_id}">`.
    ///
    /// ```
    /// use tidings::email::{Attachment, AttachmentDisposition};
    /// let logo = Attachment::from_bytes("logo.png", [0x89, b'P', b'N', b'G']).inline("logo");
    /// assert_eq!(logo.disposition, Some(AttachmentDisposition::Inline));
    /// assert_eq!(logo.content_id.as_deref(), Some("logo"));
    /// ```
    #[must_use]
    pub fn inline(self, content_id: impl Into<String>) -> Attachment {
        self.content_id(content_id)
            .disposition(AttachmentDisposition::Inline)
    }

    /// The attachment's bytes, decoded from `content`; `None` for a URL attachment.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when `content` is not valid base64.
    pub fn decoded_content(&self) -> Result<Option<Vec<u8>>, Error> {
        self.content
            .as_deref()
            .map(|content| {
                base64::engine::general_purpose::STANDARD
                    .decode(content.trim())
                    .map_err(|e| {
                        Error::invalid_request("content", format!("is not valid base64: {e}"))
                    })
            })
            .transpose()
    }

    /// The content type to send: the one set, else a guess from the file name.
    pub fn effective_content_type(&self) -> &str {
        self.content_type
            .as_deref()
            .unwrap_or_else(|| guess_content_type(&self.filename))
    }
}

impl TemplateRef {
    /// The template with this id.
    ///
    /// ```
    /// use tidings::email::{SendEmailRequest, TemplateRef};
    /// let welcome = SendEmailRequest::new("team@example.com", ["ada@example.com"])
    ///     .template(TemplateRef::by_alias("welcome").variable("first_name", "Ada").variable("trial_days", 14));
    /// # let _ = welcome;
    /// ```
    pub fn by_id(id: impl Into<String>) -> TemplateRef {
        TemplateRef::default().id(id)
    }

    /// The template with this alias.
    pub fn by_alias(alias: impl Into<String>) -> TemplateRef {
        TemplateRef::default().alias(alias)
    }

    /// Sets one template variable.
    #[must_use]
    pub fn variable(
        mut self,
        key: impl Into<String>,
        value: impl Into<serde_json::Value>,
    ) -> TemplateRef {
        self.variables
            .get_or_insert_with(Default::default)
            .insert(key.into(), value.into());
        self
    }
}

impl TrackingSettings {
    /// Track both opens and clicks.
    pub fn all() -> TrackingSettings {
        TrackingSettings::default().opens(true).clicks(true)
    }

    /// Track neither opens nor clicks.
    pub fn none() -> TrackingSettings {
        TrackingSettings::default().opens(false).clicks(false)
    }
}

impl SendEmailRequest {
    /// Largest total of all attachments' base64 content in one email, in bytes: 40 MiB, about
    /// 30 MiB of files (`limits.sizes.attachments_total` in `spec/email.yaml`; an assumed limit).
    pub const ATTACHMENTS_TOTAL_MAX_BYTES: usize = ATTACHMENTS_TOTAL_MAX_BYTES;

    /// Adds one attachment (the generated `attachments` setter replaces them all).
    ///
    /// ```
    /// use tidings::email::{Attachment, SendEmailRequest};
    /// let request = SendEmailRequest::new("Ada <ada@example.com>", ["grace@example.com"])
    ///     .subject("Your invoice")
    ///     .text("Attached.")
    ///     .attach(Attachment::from_bytes("invoice.csv", "item,amount\nlamp,12\n"))
    ///     .tag("kind", "invoice");
    /// assert!(request.check().is_ok());
    /// ```
    #[must_use]
    pub fn attach(mut self, attachment: Attachment) -> SendEmailRequest {
        self.attachments
            .get_or_insert_with(Vec::new)
            .push(attachment);
        self
    }

    /// Adds `bytes` as an attachment named `filename` (see [`Attachment::from_bytes`]).
    #[must_use]
    pub fn attach_bytes(
        self,
        filename: impl Into<String>,
        bytes: impl AsRef<[u8]>,
    ) -> SendEmailRequest {
        self.attach(Attachment::from_bytes(filename, bytes))
    }

    /// Adds a file as an attachment (see [`Attachment::from_path`]).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] when the file cannot be read or the attachments would exceed
    /// [`SendEmailRequest::ATTACHMENTS_TOTAL_MAX_BYTES`] in total.
    pub fn attach_file(self, path: impl AsRef<Path>) -> Result<SendEmailRequest, Error> {
        let request = self.attach(Attachment::from_path(path)?);
        request.check_attachments_total()?;
        Ok(request)
    }

    /// Adds one tag.
    #[must_use]
    pub fn tag(mut self, name: impl Into<String>, value: impl Into<String>) -> SendEmailRequest {
        self.tags
            .get_or_insert_with(Vec::new)
            .push(Tag::new(name, value));
        self
    }

    /// Sets one extra MIME header.
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> SendEmailRequest {
        self.headers
            .get_or_insert_with(Default::default)
            .insert(name.into(), value.into());
        self
    }

    /// Sets one metadata entry.
    #[must_use]
    pub fn metadata_entry(
        mut self,
        key: impl Into<String>,
        value: impl Into<String>,
    ) -> SendEmailRequest {
        self.metadata
            .get_or_insert_with(Default::default)
            .insert(key.into(), value.into());
        self
    }

    /// Recipients in `to`, `cc` and `bcc` together (at most 50).
    pub fn recipient_count(&self) -> usize {
        self.to.len() + self.cc.as_ref().map_or(0, Vec::len) + self.bcc.as_ref().map_or(0, Vec::len)
    }

    /// Bytes of base64 content in all attachments together.
    pub fn attachments_size(&self) -> usize {
        self.attachments
            .iter()
            .flatten()
            .filter_map(|a| a.content.as_ref())
            .map(String::len)
            .sum()
    }

    /// Every client-side check: the spec's (addresses, recipient count, body or template,
    /// sizes; the ones `send_email` runs) plus the total attachment size
    /// ([`SendEmailRequest::ATTACHMENTS_TOTAL_MAX_BYTES`]), which the spec can only check per attachment.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] naming the first field at fault.
    pub fn check(&self) -> Result<(), Error> {
        Validator::check(self)?;
        self.check_attachments_total()
    }

    fn check_attachments_total(&self) -> Result<(), Error> {
        let total = self.attachments_size();
        if total > ATTACHMENTS_TOTAL_MAX_BYTES {
            return Err(Error::invalid_request(
                "attachments",
                format!(
                    "hold {total} bytes of base64 together; at most {ATTACHMENTS_TOTAL_MAX_BYTES} are allowed"
                ),
            ));
        }
        Ok(())
    }
}

impl EmailEvent {
    /// The id of the email the event is about; `None` for contact events and unknown ones.
    pub fn email_id(&self) -> Option<&str> {
        match self {
            EmailEvent::EmailSent(d)
            | EmailEvent::EmailDelivered(d)
            | EmailEvent::EmailComplained(d)
            | EmailEvent::EmailUnsubscribed(d)
            | EmailEvent::EmailScheduled(d) => Some(&d.email_id),
            EmailEvent::EmailDeliveryDelayed(d) => Some(&d.email_id),
            EmailEvent::EmailBounced(d) => Some(&d.email_id),
            EmailEvent::EmailOpened(d) => Some(&d.email_id),
            EmailEvent::EmailClicked(d) => Some(&d.email_id),
            EmailEvent::EmailFailed(d) => Some(&d.email_id),
            EmailEvent::EmailSuppressed(d) => Some(&d.email_id),
            _ => None,
        }
    }

    /// The event's `type`, e.g. `email.bounced` (for an unknown event, whatever it said).
    pub fn event_type(&self) -> &str {
        match self {
            EmailEvent::EmailSent(_) => "email.sent",
            EmailEvent::EmailDelivered(_) => "email.delivered",
            EmailEvent::EmailDeliveryDelayed(_) => "email.delivery_delayed",
            EmailEvent::EmailBounced(_) => "email.bounced",
            EmailEvent::EmailComplained(_) => "email.complained",
            EmailEvent::EmailOpened(_) => "email.opened",
            EmailEvent::EmailClicked(_) => "email.clicked",
            EmailEvent::EmailUnsubscribed(_) => "email.unsubscribed",
            EmailEvent::EmailFailed(_) => "email.failed",
            EmailEvent::EmailSuppressed(_) => "email.suppressed",
            EmailEvent::EmailScheduled(_) => "email.scheduled",
            EmailEvent::ContactCreated(_) => "contact.created",
            EmailEvent::ContactUpdated(_) => "contact.updated",
            EmailEvent::ContactDeleted(_) => "contact.deleted",
            EmailEvent::Unknown(value) => value
                .get("type")
                .and_then(serde_json::Value::as_str)
                .unwrap_or(""),
        }
    }
}

impl EmailStatus {
    /// Whether the email's life is over: delivered, bounced, failed, suppressed or canceled.
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            EmailStatus::Delivered
                | EmailStatus::Bounced
                | EmailStatus::Failed
                | EmailStatus::Suppressed
                | EmailStatus::Canceled
        )
    }
}

impl Bounce {
    /// A hard bounce: the address does not work, and is now suppressed.
    pub fn is_permanent(&self) -> bool {
        self.r#type == BounceType::Hard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_are_guessed_from_extensions() {
        assert_eq!(guess_content_type("a.PDF"), "application/pdf");
        assert_eq!(guess_content_type("photo.jpeg"), "image/jpeg");
        assert_eq!(guess_content_type("noext"), "application/octet-stream");
        assert_eq!(guess_content_type("archive.tar.gz"), "application/gzip");
    }

    #[test]
    fn base64_length_is_exact() {
        for n in 0..10u64 {
            let encoded = base64::engine::general_purpose::STANDARD.encode(vec![0u8; n as usize]);
            assert_eq!(base64_len(n), encoded.len() as u64);
        }
    }

    #[test]
    fn the_total_attachment_size_is_checked() {
        let half = "A".repeat(ATTACHMENTS_TOTAL_MAX_BYTES / 2 + 4);
        let request = SendEmailRequest::new("a@example.com", ["b@example.com"])
            .text("x")
            .attach(Attachment::new("a.bin").content(half.clone()))
            .attach(Attachment::new("b.bin").content(half));
        let err = request.check().unwrap_err();
        assert!(err.to_string().contains("attachments"), "{err}");
    }
}
