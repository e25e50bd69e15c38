//! Hand-written additions to `crate::messaging`: constructors that read like the message they
//! build (`Message::sms(from, to, text)`), phone-number normalisation, the SMS segment
//! calculator ([`sms`], also `tidings::messaging::sms`), status lifecycle helpers and
//! `MessagingClient::mark_read`.

use crate::messaging::{
    AudioContent, Channel, FileContent, ImageContent, InstagramAudio, InstagramFile,
    InstagramImage, InstagramMessage, InstagramText, InstagramVideo, MediaLink, MediaUrl, Message,
    MessageStatus, MessageType, MessagingClient, SmsEncoding, SmsMessage, SmsText,
    TemplateComponent, TemplateComponentType, TemplateContent, TemplateParameter, TextParameter,
    UpdateMessageRequest, UpdateMessageStatus, VideoContent, VoiceMessage, VoiceText,
    WhatsappAudio, WhatsappFile, WhatsappImage, WhatsappMessage, WhatsappTemplate, WhatsappText,
    WhatsappVideo,
};

/// `+447700900123` from `+44 7700 900123`, `+44 (0)7700 900123`, `0044-7700-900123` or
/// `447700900123`: a `(0)` trunk prefix, spaces, dashes, dots and parentheses go, a leading `00`
/// becomes `+`, and a missing `+` is added. Anything that
/// is not then a valid E.164 number (a national number like `07700 900123`, an alphanumeric sender
/// id) is returned unchanged, so the pre-send check reports it as the caller wrote it.
fn e164(input: String) -> String {
    let compact: String = input
        .replace("(0)", "")
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '.' | '(' | ')' | '\u{a0}'))
        .collect();
    let digits = match compact.strip_prefix('+') {
        Some(rest) => rest,
        None => compact.strip_prefix("00").unwrap_or(&compact),
    };
    let candidate = format!("+{digits}");
    if tidings_runtime::validate::matches(tidings_runtime::spec::Format::E164, &candidate) {
        candidate
    } else {
        input
    }
}

/// Runs `$body` with `$leaf` bound to the message's channel-and-type struct (every one of them
/// has `from`, `to`, `client_ref` and `webhook_url`), or evaluates `$unknown` for a message this
/// version does not know.
macro_rules! with_leaf {
    ($message:expr, $leaf:ident => $body:expr, _ => $unknown:expr) => {
        match $message {
            Message::Sms(SmsMessage::Text($leaf)) => $body,
            Message::Whatsapp(WhatsappMessage::Text($leaf)) => $body,
            Message::Whatsapp(WhatsappMessage::Image($leaf)) => $body,
            Message::Whatsapp(WhatsappMessage::Audio($leaf)) => $body,
            Message::Whatsapp(WhatsappMessage::Video($leaf)) => $body,
            Message::Whatsapp(WhatsappMessage::File($leaf)) => $body,
            Message::Whatsapp(WhatsappMessage::Template($leaf)) => $body,
            Message::Voice(VoiceMessage::Text($leaf)) => $body,
            Message::Instagram(InstagramMessage::Text($leaf)) => $body,
            Message::Instagram(InstagramMessage::Image($leaf)) => $body,
            Message::Instagram(InstagramMessage::Audio($leaf)) => $body,
            Message::Instagram(InstagramMessage::Video($leaf)) => $body,
            Message::Instagram(InstagramMessage::File($leaf)) => $body,
            _ => $unknown,
        }
    };
}

/// `From<leaf> for Message`, through the channel's union, so `SmsText::new(..).into()` works.
macro_rules! leaf_into_message {
    ($($leaf:ident => $channel:ident),* $(,)?) => {
        $(
            impl From<$leaf> for Message {
                fn from(leaf: $leaf) -> Self {
                    Message::from($channel::from(leaf))
                }
            }
        )*
    };
}

leaf_into_message! {
    SmsText => SmsMessage,
    WhatsappText => WhatsappMessage,
    WhatsappImage => WhatsappMessage,
    WhatsappAudio => WhatsappMessage,
    WhatsappVideo => WhatsappMessage,
    WhatsappFile => WhatsappMessage,
    WhatsappTemplate => WhatsappMessage,
    VoiceText => VoiceMessage,
    InstagramText => InstagramMessage,
    InstagramImage => InstagramMessage,
    InstagramAudio => InstagramMessage,
    InstagramVideo => InstagramMessage,
    InstagramFile => InstagramMessage,
}

/// Media given by URL alone: `"https://..."` converts into the content type.
macro_rules! media_from_url {
    ($($ty:ident),* $(,)?) => {
        $(
            impl From<&str> for $ty {
                fn from(url: &str) -> Self {
                    $ty::new(url)
                }
            }
            impl From<String> for $ty {
                fn from(url: String) -> Self {
                    $ty::new(url)
                }
            }
        )*
    };
}

media_from_url!(
    ImageContent,
    AudioContent,
    VideoContent,
    FileContent,
    MediaUrl,
    MediaLink
);

impl Message {
    /// An SMS text message. Phone numbers are normalised to E.164 (`+44 7700 900123` →
    /// `+447700900123`); `from` may also be an alphanumeric sender id.
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let sms = Message::sms("Acme", "+44 7700 900123", "Your code is 123456");
    /// assert_eq!(
    ///     serde_json::to_value(&sms).unwrap(),
    ///     serde_json::json!({"channel": "sms", "message_type": "text", "from": "Acme",
    ///                        "to": "+447700900123", "text": "Your code is 123456"})
    /// );
    /// ```
    pub fn sms(from: impl Into<String>, to: impl Into<String>, text: impl Into<String>) -> Self {
        SmsText::new(e164(from.into()), e164(to.into()), text).into()
    }

    /// A WhatsApp text message (inside the 24-hour window after the user's last message).
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let msg = Message::whatsapp_text("+14155550100", "+447700900123", "Your order shipped");
    /// assert_eq!(msg.channel(), tidings::messaging::Channel::Whatsapp);
    /// ```
    pub fn whatsapp_text(
        from: impl Into<String>,
        to: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        WhatsappText::new(e164(from.into()), e164(to.into()), text).into()
    }

    /// A WhatsApp image: a URL, or an [`ImageContent`] with a caption.
    ///
    /// ```
    /// use tidings::messaging::{ImageContent, Message};
    /// let plain = Message::whatsapp_image("+14155550100", "+447700900123", "https://example.com/a.jpg");
    /// let captioned = Message::whatsapp_image(
    ///     "+14155550100",
    ///     "+447700900123",
    ///     ImageContent::new("https://example.com/a.jpg").caption("Your receipt"),
    /// );
    /// assert_ne!(plain, captioned);
    /// ```
    pub fn whatsapp_image(
        from: impl Into<String>,
        to: impl Into<String>,
        image: impl Into<ImageContent>,
    ) -> Self {
        WhatsappImage::new(e164(from.into()), e164(to.into()), image).into()
    }

    /// A WhatsApp audio clip by URL.
    ///
    /// ```
    /// use tidings::messaging::{Message, MessageType};
    /// let msg = Message::whatsapp_audio("+14155550100", "+447700900123", "https://example.com/a.mp3");
    /// assert_eq!(msg.message_type(), Some(MessageType::Audio));
    /// ```
    pub fn whatsapp_audio(
        from: impl Into<String>,
        to: impl Into<String>,
        audio: impl Into<AudioContent>,
    ) -> Self {
        WhatsappAudio::new(e164(from.into()), e164(to.into()), audio).into()
    }

    /// A WhatsApp video: a URL, or a [`VideoContent`] with a caption.
    ///
    /// ```
    /// use tidings::messaging::{Message, VideoContent};
    /// let msg = Message::whatsapp_video(
    ///     "+14155550100",
    ///     "+447700900123",
    ///     VideoContent::new("https://example.com/a.mp4").caption("How to assemble it"),
    /// );
    /// # let _ = msg;
    /// ```
    pub fn whatsapp_video(
        from: impl Into<String>,
        to: impl Into<String>,
        video: impl Into<VideoContent>,
    ) -> Self {
        WhatsappVideo::new(e164(from.into()), e164(to.into()), video).into()
    }

    /// A WhatsApp document: a URL, or a [`FileContent`] with a caption and a file name.
    ///
    /// ```
    /// use tidings::messaging::{FileContent, Message};
    /// let msg = Message::whatsapp_file(
    ///     "+14155550100",
    ///     "+447700900123",
    ///     FileContent::new("https://example.com/i.pdf").name("invoice.pdf").caption("March"),
    /// );
    /// # let _ = msg;
    /// ```
    pub fn whatsapp_file(
        from: impl Into<String>,
        to: impl Into<String>,
        file: impl Into<FileContent>,
    ) -> Self {
        WhatsappFile::new(e164(from.into()), e164(to.into()), file).into()
    }

    /// A WhatsApp template message: an approved template by name and language, with values for
    /// its placeholders. The only WhatsApp message delivered outside the 24-hour window.
    /// `MessagingClient::list_templates` lists the account's templates (the sandbox has
    /// `welcome` and `order_update` approved, in `en_US`).
    ///
    /// ```
    /// use tidings::messaging::{Message, TemplateComponent, TemplateContent};
    /// let msg = Message::whatsapp_template(
    ///     "+14155550100",
    ///     "+447700900123",
    ///     TemplateContent::new("order_update", "en_US")
    ///         .components([TemplateComponent::body(["Ada"])]),
    /// );
    /// # let _ = msg;
    /// ```
    pub fn whatsapp_template(
        from: impl Into<String>,
        to: impl Into<String>,
        template: impl Into<TemplateContent>,
    ) -> Self {
        WhatsappTemplate::new(e164(from.into()), e164(to.into()), template).into()
    }

    /// A text-to-speech voice call: the service calls `to` and speaks `text`. To choose the
    /// language, voice or repeats, build a [`VoiceText`] with [`VoiceText::voice`] and convert it.
    ///
    /// ```
    /// use tidings::messaging::{Message, VoiceOptions, VoiceText};
    /// let simple = Message::voice_call("+14155550100", "+447700900123", "Your code is 1 2 3 4");
    /// let tuned: Message = VoiceText::new("+14155550100", "+447700900123", "Your code is 1 2 3 4")
    ///     .voice(VoiceOptions::default().language("en-GB").voice_name("Amy").repeat(2))
    ///     .into();
    /// assert_ne!(simple, tuned);
    /// ```
    pub fn voice_call(
        from: impl Into<String>,
        to: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        VoiceText::new(e164(from.into()), e164(to.into()), text).into()
    }

    /// An Instagram text message. `from` is your account's id, `to` the user's Instagram-scoped
    /// id (from an inbound message): neither is a phone number, so neither is normalised.
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let msg = Message::instagram_text("17841400000000000", "5432109876543210", "Thanks!");
    /// # let _ = msg;
    /// ```
    pub fn instagram_text(
        from: impl Into<String>,
        to: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        InstagramText::new(from, to, text).into()
    }

    /// An Instagram image by URL.
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let msg = Message::instagram_image("17841400000000000", "5432109876543210", "https://example.com/a.jpg");
    /// # let _ = msg;
    /// ```
    pub fn instagram_image(
        from: impl Into<String>,
        to: impl Into<String>,
        image: impl Into<MediaUrl>,
    ) -> Self {
        InstagramImage::new(from, to, image).into()
    }

    /// An Instagram audio clip by URL.
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let msg = Message::instagram_audio("17841400000000000", "5432109876543210", "https://example.com/a.mp3");
    /// # let _ = msg;
    /// ```
    pub fn instagram_audio(
        from: impl Into<String>,
        to: impl Into<String>,
        audio: impl Into<MediaUrl>,
    ) -> Self {
        InstagramAudio::new(from, to, audio).into()
    }

    /// An Instagram video by URL.
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let msg = Message::instagram_video("17841400000000000", "5432109876543210", "https://example.com/a.mp4");
    /// # let _ = msg;
    /// ```
    pub fn instagram_video(
        from: impl Into<String>,
        to: impl Into<String>,
        video: impl Into<MediaUrl>,
    ) -> Self {
        InstagramVideo::new(from, to, video).into()
    }

    /// An Instagram file by URL.
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let msg = Message::instagram_file("17841400000000000", "5432109876543210", "https://example.com/a.pdf");
    /// # let _ = msg;
    /// ```
    pub fn instagram_file(
        from: impl Into<String>,
        to: impl Into<String>,
        file: impl Into<MediaUrl>,
    ) -> Self {
        InstagramFile::new(from, to, file).into()
    }

    /// Sets your reference (up to 100 characters, checked before sending), returned in status
    /// events. A message of a kind this version does not know is left unchanged.
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let msg = Message::sms("Acme", "+447700900123", "Hi").client_ref("order-1042");
    /// assert_eq!(serde_json::to_value(&msg).unwrap()["client_ref"], "order-1042");
    /// ```
    #[must_use]
    pub fn client_ref(mut self, client_ref: impl Into<String>) -> Self {
        let value = client_ref.into();
        with_leaf!(&mut self, leaf => leaf.client_ref = Some(value), _ => ());
        self
    }

    /// Sets where this message's status events go, instead of the account's default webhook.
    /// A message of a kind this version does not know is left unchanged.
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let msg = Message::voice_call("+14155550100", "+447700900123", "Hello")
    ///     .webhook_url("https://example.com/hooks/messaging");
    /// assert_eq!(serde_json::to_value(&msg).unwrap()["webhook_url"], "https://example.com/hooks/messaging");
    /// ```
    #[must_use]
    pub fn webhook_url(mut self, webhook_url: impl Into<String>) -> Self {
        let value = webhook_url.into();
        with_leaf!(&mut self, leaf => leaf.webhook_url = Some(value), _ => ());
        self
    }

    /// The channel the message goes out on (for an unknown message, its `channel` field as
    /// sent, or `Unknown("")` when it has none).
    ///
    /// ```
    /// use tidings::messaging::{Channel, Message};
    /// assert_eq!(Message::sms("Acme", "+447700900123", "Hi").channel(), Channel::Sms);
    /// ```
    pub fn channel(&self) -> Channel {
        match self {
            Message::Sms(_) => Channel::Sms,
            Message::Whatsapp(_) => Channel::Whatsapp,
            Message::Voice(_) => Channel::Voice,
            Message::Instagram(_) => Channel::Instagram,
            Message::Unknown(value) => Channel::from(
                value
                    .get("channel")
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or_default(),
            ),
        }
    }

    /// The message type, or `None` for a message this version does not know.
    ///
    /// ```
    /// use tidings::messaging::{Message, MessageType};
    /// let msg = Message::instagram_image("1784", "5432", "https://example.com/a.jpg");
    /// assert_eq!(msg.message_type(), Some(MessageType::Image));
    /// ```
    pub fn message_type(&self) -> Option<MessageType> {
        Some(match self {
            Message::Sms(SmsMessage::Text(_))
            | Message::Whatsapp(WhatsappMessage::Text(_))
            | Message::Voice(VoiceMessage::Text(_))
            | Message::Instagram(InstagramMessage::Text(_)) => MessageType::Text,
            Message::Whatsapp(WhatsappMessage::Image(_))
            | Message::Instagram(InstagramMessage::Image(_)) => MessageType::Image,
            Message::Whatsapp(WhatsappMessage::Audio(_))
            | Message::Instagram(InstagramMessage::Audio(_)) => MessageType::Audio,
            Message::Whatsapp(WhatsappMessage::Video(_))
            | Message::Instagram(InstagramMessage::Video(_)) => MessageType::Video,
            Message::Whatsapp(WhatsappMessage::File(_))
            | Message::Instagram(InstagramMessage::File(_)) => MessageType::File,
            Message::Whatsapp(WhatsappMessage::Template(_)) => MessageType::Template,
            _ => return None,
        })
    }

    /// The recipient, or `None` for a message this version does not know.
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let msg = Message::whatsapp_text("+14155550100", "0044 7700 900123", "Hi");
    /// assert_eq!(msg.to(), Some("+447700900123"));
    /// ```
    pub fn to(&self) -> Option<&str> {
        with_leaf!(self, leaf => Some(leaf.to.as_str()), _ => None)
    }

    /// How an SMS splits into segments; `None` for other channels.
    ///
    /// ```
    /// use tidings::messaging::Message;
    /// let sms = Message::sms("Acme", "+447700900123", "x".repeat(161));
    /// assert_eq!(sms.sms_segments().map(|s| s.segments), Some(2));
    /// assert!(Message::voice_call("+14155550100", "+447700900123", "Hi").sms_segments().is_none());
    /// ```
    pub fn sms_segments(&self) -> Option<sms::SegmentCount> {
        match self {
            Message::Sms(SmsMessage::Text(text)) => Some(text.segments()),
            _ => None,
        }
    }
}

impl SmsText {
    /// How this SMS splits into segments, honouring `sms.encoding` when it forces one.
    ///
    /// ```
    /// use tidings::messaging::{SmsEncoding, SmsOptions, SmsText};
    /// use tidings::messaging::sms::Encoding;
    /// let auto = SmsText::new("Acme", "+447700900123", "Hello");
    /// assert_eq!(auto.segments().encoding, Encoding::Gsm7);
    /// let forced = auto.sms(SmsOptions::default().encoding(SmsEncoding::Unicode));
    /// assert_eq!(forced.segments().encoding, Encoding::Ucs2);
    /// ```
    pub fn segments(&self) -> sms::SegmentCount {
        let forced = self.sms.as_ref().and_then(|o| match o.encoding.as_ref()? {
            SmsEncoding::Text => Some(sms::Encoding::Gsm7),
            SmsEncoding::Unicode => Some(sms::Encoding::Ucs2),
            _ => None,
        });
        match forced {
            Some(encoding) => sms::segments_as(&self.text, encoding),
            None => sms::segments(&self.text),
        }
    }
}

impl TemplateComponent {
    /// A `body` component whose placeholders (`{{1}}`, `{{2}}`, ...) get these texts, in order.
    ///
    /// ```
    /// use tidings::messaging::TemplateComponent;
    /// let body = TemplateComponent::body(["Ada", "#1042"]);
    /// assert_eq!(
    ///     serde_json::to_value(&body).unwrap(),
    ///     serde_json::json!({"type": "body", "parameters": [
    ///         {"type": "text", "text": "Ada"}, {"type": "text", "text": "#1042"}]})
    /// );
    /// ```
    pub fn body(texts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        TemplateComponent::new(TemplateComponentType::Body)
            .parameters(texts.into_iter().map(TemplateParameter::text))
    }
}

impl TemplateParameter {
    /// A text value for a placeholder.
    ///
    /// ```
    /// use tidings::messaging::TemplateParameter;
    /// let p = TemplateParameter::text("Ada");
    /// assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"type":"text","text":"Ada"}"#);
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        TextParameter::new(text).into()
    }
}

impl MessageStatus {
    /// Whether no further status is expected for a message on `channel` in this status.
    ///
    /// SMS ends at `delivered`; WhatsApp and Instagram go on to `read`; a voice call ends at
    /// `completed` or any of its failures. `rejected` and `undeliverable` end every channel.
    /// Unknown statuses and channels are not terminal (a later event may still come).
    ///
    /// ```
    /// use tidings::messaging::{Channel, MessageStatus};
    /// assert!(MessageStatus::Delivered.is_terminal(&Channel::Sms));
    /// assert!(!MessageStatus::Delivered.is_terminal(&Channel::Whatsapp));
    /// assert!(MessageStatus::Busy.is_terminal(&Channel::Voice));
    /// assert!(!MessageStatus::Ringing.is_terminal(&Channel::Voice));
    /// ```
    pub fn is_terminal(&self, channel: &Channel) -> bool {
        use MessageStatus as S;
        match channel {
            Channel::Voice => matches!(
                self,
                S::Completed
                    | S::Busy
                    | S::Unanswered
                    | S::Timeout
                    | S::Failed
                    | S::Rejected
                    | S::Cancelled
                    | S::Machine
            ),
            Channel::Sms => matches!(self, S::Delivered | S::Rejected | S::Undeliverable),
            Channel::Whatsapp | Channel::Instagram => {
                matches!(self, S::Read | S::Rejected | S::Undeliverable)
            }
            _ => matches!(self, S::Rejected | S::Undeliverable),
        }
    }
}

impl MessagingClient {
    /// Marks an inbound WhatsApp or Instagram message read (`PATCH /v1/messages/{uuid}` with
    /// `{"status": "read"}`); the sender sees the read receipt.
    ///
    /// # Errors
    ///
    /// As [`MessagingClient::update_message`]: auth, not found, rate limit, timeout, transport.
    ///
    /// ```no_run
    /// # async fn example() -> Result<(), tidings::Error> {
    /// let client = tidings::messaging::MessagingClient::from_env()?;
    /// client.mark_read("aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee").await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn mark_read(&self, message_uuid: &str) -> Result<(), tidings_runtime::Error> {
        self.update_message(
            message_uuid,
            &UpdateMessageRequest::new(UpdateMessageStatus::Read),
        )
        .await
    }
}

/// SMS segment arithmetic: which encoding a text needs and how many segments it is billed as.
///
/// One segment holds 160 GSM-7 characters or 70 UCS-2 code units; a longer message is split
/// into segments of 153 or 67 (the rest of each segment holds the concatenation header). One
/// character outside GSM-7 makes the whole message UCS-2. The GSM-7 extension characters
/// `^ { } \ [ ~ ] | €` (and form feed) take two septets. UCS-2 is counted in UTF-16 code units,
/// so an emoji counts as two; a character is never split across two segments.
///
/// ```
/// use tidings::messaging::sms::{segments, Encoding};
/// let count = segments("Hello 👋");
/// assert_eq!((count.encoding, count.units, count.segments), (Encoding::Ucs2, 8, 1));
/// ```
pub mod sms {
    /// The encoding an SMS is sent in.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum Encoding {
        /// The GSM 03.38 7-bit alphabet: 160 characters in one segment, 153 per segment when split.
        Gsm7,
        /// UCS-2 (counted as UTF-16): 70 code units in one segment, 67 per segment when split.
        Ucs2,
    }

    impl Encoding {
        /// Units that fit in a message of one segment (160 or 70).
        ///
        /// ```
        /// assert_eq!(tidings::messaging::sms::Encoding::Gsm7.single_segment(), 160);
        /// ```
        pub fn single_segment(self) -> usize {
            match self {
                Encoding::Gsm7 => 160,
                Encoding::Ucs2 => 70,
            }
        }

        /// Units per segment of a split message (153 or 67).
        ///
        /// ```
        /// assert_eq!(tidings::messaging::sms::Encoding::Ucs2.per_split_segment(), 67);
        /// ```
        pub fn per_split_segment(self) -> usize {
            match self {
                Encoding::Gsm7 => 153,
                Encoding::Ucs2 => 67,
            }
        }
    }

    /// How a text splits into SMS segments.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    #[non_exhaustive]
    pub struct SegmentCount {
        /// The encoding the text needs (or was forced to).
        pub encoding: Encoding,
        /// Unicode scalar values (Rust `char`s) in the text.
        pub characters: usize,
        /// Encoded units: GSM-7 septets (extension characters count two) or UTF-16 code units.
        pub units: usize,
        /// Segments the text is sent (and usually billed) as; 0 for an empty text.
        pub segments: usize,
        /// Units per segment: 160 or 70 for one segment, 153 or 67 once split.
        pub per_segment: usize,
        /// Units still free in the last segment.
        pub remaining: usize,
    }

    /// Septets `c` takes in GSM-7: 1 for the basic alphabet, 2 for the extension table,
    /// `None` when GSM-7 cannot carry it.
    ///
    /// ```
    /// use tidings::messaging::sms::gsm7_septets;
    /// assert_eq!(gsm7_septets('a'), Some(1));
    /// assert_eq!(gsm7_septets('€'), Some(2));
    /// assert_eq!(gsm7_septets('ş'), None);
    /// ```
    pub fn gsm7_septets(c: char) -> Option<usize> {
        const BASIC: &str = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?\
                             ¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
        const EXTENSION: &str = "\u{c}^{}\\[~]|€";
        if BASIC.contains(c) {
            Some(1)
        } else if EXTENSION.contains(c) {
            Some(2)
        } else {
            None
        }
    }

    /// The encoding `text` needs: GSM-7 when every character fits, otherwise UCS-2.
    ///
    /// ```
    /// use tidings::messaging::sms::{encoding, Encoding};
    /// assert_eq!(encoding("Price: 5€ [net]"), Encoding::Gsm7);
    /// assert_eq!(encoding("Zürich → Genève"), Encoding::Ucs2);
    /// ```
    pub fn encoding(text: &str) -> Encoding {
        if text.chars().all(|c| gsm7_septets(c).is_some()) {
            Encoding::Gsm7
        } else {
            Encoding::Ucs2
        }
    }

    /// How `text` splits into segments in the encoding it needs.
    ///
    /// ```
    /// use tidings::messaging::sms::{segments, Encoding};
    /// let one = segments(&"a".repeat(160));
    /// assert_eq!((one.encoding, one.segments, one.per_segment), (Encoding::Gsm7, 1, 160));
    /// let two = segments(&"a".repeat(161));
    /// assert_eq!((two.segments, two.per_segment, two.remaining), (2, 153, 145));
    /// ```
    pub fn segments(text: &str) -> SegmentCount {
        segments_as(text, encoding(text))
    }

    /// How `text` splits into segments when sent in `encoding`. Forcing GSM-7 on a text that
    /// needs UCS-2 counts each character GSM-7 cannot carry as one septet (it is replaced).
    ///
    /// ```
    /// use tidings::messaging::sms::{segments_as, Encoding};
    /// assert_eq!(segments_as("Hello", Encoding::Ucs2).per_segment, 70);
    /// ```
    pub fn segments_as(text: &str, encoding: Encoding) -> SegmentCount {
        let cost = |c: char| match encoding {
            Encoding::Gsm7 => gsm7_septets(c).unwrap_or(1),
            Encoding::Ucs2 => c.len_utf16(),
        };
        let characters = text.chars().count();
        let units: usize = text.chars().map(cost).sum();
        let single = encoding.single_segment();
        if units <= single {
            return SegmentCount {
                encoding,
                characters,
                units,
                segments: usize::from(units > 0),
                per_segment: single,
                remaining: single - units,
            };
        }
        // Split: fill each segment greedily, never cutting an escape pair or a surrogate pair.
        let per_segment = encoding.per_split_segment();
        let (mut segments, mut used) = (1, 0);
        for c in text.chars() {
            let c = cost(c);
            if used + c > per_segment {
                segments += 1;
                used = 0;
            }
            used += c;
        }
        SegmentCount {
            encoding,
            characters,
            units,
            segments,
            per_segment,
            remaining: per_segment - used,
        }
    }
}
