//! Reading a captured email's raw source: its top-level headers, its attachments, and a REST
//! email rendered as the MIME message the sandbox would deliver.

use mail_parser::{MessageParser, MimeHeaders};
use serde::{Deserialize, Serialize};

/// One header line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The name as written.
    pub name: String,
    /// The value, unfolded.
    pub value: String,
}

/// An attachment found in a raw email.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachmentInfo {
    /// Its position among the email's attachments (the download URL's index).
    pub index: usize,
    /// The file name (`attachment-N` when it has none).
    pub filename: String,
    /// Its MIME type.
    pub content_type: String,
    /// Decoded size in bytes.
    pub size: usize,
    /// Its `Content-ID`, for inline images.
    pub content_id: Option<String>,
}

/// The top-level headers of `raw`, in order (an unparsable message has none).
pub(crate) fn headers(raw: &[u8]) -> Vec<Header> {
    let Some(message) = MessageParser::default().parse(raw) else {
        return Vec::new();
    };
    message
        .headers_raw()
        .map(|(name, value)| Header {
            name: name.to_owned(),
            value: value.split_whitespace().collect::<Vec<_>>().join(" "),
        })
        .collect()
}

fn content_type(part: &mail_parser::MessagePart<'_>) -> String {
    part.content_type()
        .map(|ct| match ct.subtype() {
            Some(sub) => format!("{}/{}", ct.ctype(), sub),
            None => ct.ctype().to_owned(),
        })
        .unwrap_or_else(|| "application/octet-stream".to_owned())
}

/// The attachments of `raw`.
pub(crate) fn attachments(raw: &[u8]) -> Vec<AttachmentInfo> {
    let Some(message) = MessageParser::default().parse(raw) else {
        return Vec::new();
    };
    message
        .attachments()
        .enumerate()
        .map(|(index, part)| AttachmentInfo {
            index,
            filename: part
                .attachment_name()
                .map_or_else(|| format!("attachment-{}", index + 1), str::to_owned),
            content_type: content_type(part),
            size: part.contents().len(),
            content_id: part.content_id().map(str::to_owned),
        })
        .collect()
}

/// Attachment `index` of `raw`: its description and decoded bytes.
pub(crate) fn attachment(raw: &[u8], index: usize) -> Option<(AttachmentInfo, Vec<u8>)> {
    let message = MessageParser::default().parse(raw)?;
    let part = message.attachments().nth(index)?;
    let info = AttachmentInfo {
        index,
        filename: part
            .attachment_name()
            .map_or_else(|| format!("attachment-{}", index + 1), str::to_owned),
        content_type: content_type(part),
        size: part.contents().len(),
        content_id: part.content_id().map(str::to_owned),
    };
    Some((info, part.contents().to_vec()))
}

/// A REST email as the MIME message the sandbox would deliver: the request with the
/// rendered subject and bodies, without what only the API carries (schedule, metadata,
/// tracking, template reference). Empty when it cannot be expressed.
pub(crate) fn render_rest(
    request: &tidings::email::SendEmailRequest,
    email: &tidings::email::Email,
) -> Result<Vec<u8>, tidings_runtime::Error> {
    use tidings_runtime::smtp::SmtpMessage as _;
    let mut request = request.clone();
    request.scheduled_at = None;
    request.metadata = None;
    request.tracking = None;
    request.template = None;
    // An attachment given by URL is not fetched by the sandbox: the source goes without it.
    if let Some(attachments) = &mut request.attachments {
        attachments.retain(|a| a.content.is_some());
    }
    request.subject = email.subject.clone();
    request.html = email.html.clone();
    request.text = email.text.clone();
    let message = request.to_smtp_message(&email.id)?;
    // The relay's idempotency header means nothing for a REST email.
    let formatted = message.formatted();
    let mut out = Vec::with_capacity(formatted.len());
    let mut in_headers = true;
    for line in formatted.split_inclusive(|b| *b == b'\n') {
        if in_headers && line.starts_with(b"X-Idempotency-Key:") {
            continue;
        }
        if line == b"\r\n" || line == b"\n" {
            in_headers = false;
        }
        out.extend_from_slice(line);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const RAW: &[u8] = b"From: ada@example.com\r\nTo: grace@example.com\r\nSubject: Hi\r\n\
MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\n\
Content-Type: text/plain\r\n\r\nHello\r\n--b\r\nContent-Type: text/csv; name=\"a.csv\"\r\n\
Content-Disposition: attachment; filename=\"a.csv\"\r\nContent-Transfer-Encoding: base64\r\n\r\n\
eCx5DQoxLDINCg==\r\n--b--\r\n";

    #[test]
    fn headers_and_attachments_are_read_from_the_raw_source() {
        let names: Vec<String> = headers(RAW).into_iter().map(|h| h.name).collect();
        assert_eq!(names[..3], ["From", "To", "Subject"]);
        let found = attachments(RAW);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].filename, "a.csv");
        assert_eq!(found[0].content_type, "text/csv");
        let (_, bytes) = attachment(RAW, 0).unwrap();
        assert_eq!(bytes, b"x,y\r\n1,2\r\n");
        assert!(attachment(RAW, 1).is_none());
    }

    #[test]
    fn garbage_has_no_headers_and_no_attachments() {
        assert!(attachments(b"\xff\xfe not mail").is_empty());
        assert!(attachment(b"", 0).is_none());
    }
}
