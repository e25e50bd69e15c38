//! Reading a captured email's raw source: its top-level headers, its attachments, and a REST
//! email rendered as the MIME message the sandbox would deliver.

use mail_parser::{MessageParser, MimeHeaders};

use crate::records::{AttachmentInfo, Header};

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
    // Content that is not base64 goes into the source as the text that was sent (escaped, not
    // dropped); the record keeps the field as sent.
    if let Some(attachments) = &mut request.attachments {
        attachments.retain(|a| a.content.is_some());
        for attachment in attachments.iter_mut() {
            // A content type a MIME header cannot carry (a space, a line break: a header
            // injection) goes into the source as `application/octet-stream`.
            if tidings_runtime::smtp::lettre::message::header::ContentType::parse(
                attachment.effective_content_type(),
            )
            .is_err()
            {
                attachment.content_type = Some("application/octet-stream".to_owned());
            }
            if attachment.decoded_content().is_err()
                && let Some(content) = attachment.content.take()
            {
                use base64::Engine as _;
                attachment.content =
                    Some(base64::engine::general_purpose::STANDARD.encode(content.as_bytes()));
            }
        }
    }
    request.subject = email.subject.clone();
    request.html = email.html.clone();
    request.text = email.text.clone();
    // An address the API accepted but a MIME header cannot carry (control characters or
    // non-ASCII in a display name or local part) goes into the source escaped; the record keeps
    // it as sent.
    request.from = mime_address(&request.from);
    request.to = request.to.iter().map(|a| mime_address(a)).collect();
    for list in [&mut request.cc, &mut request.bcc, &mut request.reply_to]
        .into_iter()
        .flatten()
    {
        *list = list.iter().map(|a| mime_address(a)).collect();
    }
    // Custom headers and tags the source cannot carry as given are written escaped.
    if let Some(headers) = request.headers.take() {
        let mut kept = std::collections::BTreeMap::new();
        for (i, (name, value)) in headers.into_iter().enumerate() {
            let usable_name = !name.is_empty()
                && name.bytes().all(|b| (33..=126).contains(&b) && b != b':')
                && !RESERVED_NAMES.contains(&name.to_ascii_lowercase().as_str());
            if usable_name {
                kept.insert(name, escaped(&value, &[]));
            } else {
                kept.insert(
                    format!("X-Sandbox-Escaped-Header-{i}"),
                    format!("{}: {}", escaped(&name, &[':']), escaped(&value, &[])),
                );
            }
        }
        request.headers = Some(kept);
    }
    for tag in request.tags.iter_mut().flatten() {
        tag.name = escaped(&tag.name, &[',', '=']);
        tag.value = escaped(&tag.value, &[',', '=']);
    }
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

/// Header names the request's own fields set (written by the relay, never by `headers`).
const RESERVED_NAMES: &[&str] = &[
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

/// `text` with control characters, non-ASCII in names, and `extra` written as `%XX` (UTF-8).
fn escaped(text: &str, extra: &[char]) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || extra.contains(&c) || c == '%' && !extra.is_empty() {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `address` as a MIME header can carry it (a mailbox lettre parses and the spec's email format
/// accepts): unchanged when it is one, else its bare address, else that address with every byte a
/// header cannot hold written as `=XX` (the domain replaced when it is not one).
fn mime_address(address: &str) -> String {
    use std::str::FromStr as _;
    use tidings_runtime::smtp::lettre::message::Mailbox;
    use tidings_runtime::spec::Format;
    let usable = |a: &str| {
        Mailbox::from_str(a).is_ok() && tidings_runtime::validate::matches(Format::Email, a)
    };
    if usable(address) {
        return address.to_owned();
    }
    let bare = bare_address(address);
    if usable(&bare) {
        return bare;
    }
    let (local, domain) = bare.rsplit_once('@').unwrap_or((bare.as_str(), ""));
    let local: String = local
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"!#$%&'*+-/?^_`{|}~.".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("={b:02X}")
            }
        })
        .collect();
    let local = local.trim_matches('.').replace("..", ".");
    let local = if local.is_empty() {
        "unrepresentable".to_owned()
    } else {
        local
    };
    [
        format!("{local}@{domain}"),
        format!("{local}@invalid.example"),
    ]
    .into_iter()
    .find(|a| usable(a))
    .unwrap_or_else(|| "unrepresentable@invalid.example".to_owned())
}

/// `Ada <ada@example.com>` → `ada@example.com`.
pub(crate) fn bare_address(address: &str) -> String {
    let address = address.trim();
    match (address.rfind('<'), address.rfind('>')) {
        (Some(start), Some(end)) if start < end => address[start + 1..end].trim().to_owned(),
        _ => address.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn an_address_a_header_cannot_carry_is_escaped_not_dropped() {
        assert_eq!(
            mime_address("Ada <ada@example.com>"),
            "Ada <ada@example.com>"
        );
        assert_eq!(
            mime_address("\u{2003}\n\u{15}x <ada@example.com>"),
            "ada@example.com"
        );
        assert_eq!(
            mime_address("\u{2003}v\u{fe}{e\u{15}<\u{135}@FH.example>\u{85}"),
            "\u{135}@FH.example"
        );
        assert_eq!(
            mime_address("\u{15}<a\u{7}b@example.com>"),
            "a=07b@example.com"
        );
        assert_eq!(mime_address("a\\b@ex ample"), "a=5Cb@invalid.example");
    }

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
