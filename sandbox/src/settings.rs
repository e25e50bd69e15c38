//! The settings every HTTP service sandbox shares (key, address, rate limit, lifecycle pace,
//! webhooks, bounds, inbox), in one struct each service's config holds as `service`
//! ([`ServiceSettings`]), and their builder methods, written once ([`ServiceConfig`]).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use crate::server::{HttpLimits, RateLimit, WebhookRetry, WebhookTarget};

/// What the email and messaging sandboxes are both configured by
/// ([`EmailSandboxConfig::service`](crate::EmailSandboxConfig),
/// [`MessagingSandboxConfig::service`](crate::MessagingSandboxConfig)).
#[derive(Clone)]
#[non_exhaustive]
pub struct ServiceSettings {
    /// The API key the sandbox accepts (a random `sk_sandbox_...` by default).
    pub api_key: String,
    /// Address to listen on (`127.0.0.1` by default).
    pub host: IpAddr,
    /// HTTP port; 0 (the default) picks a free one.
    pub port: u16,
    /// Rate limit; the service spec's by default, `None` for none.
    pub rate_limit: Option<RateLimit>,
    /// Time between two status changes of what the service sends (300 ms by default).
    pub lifecycle_step: Duration,
    /// The account's default webhook: where every event goes, signed with its secret.
    pub webhook: Option<WebhookTarget>,
    /// How failed webhook deliveries are retried.
    pub webhook_retry: WebhookRetry,
    /// Whether webhooks are posted at all (on by default). Off, every event is still logged
    /// ([`DeliveryOutcome::NotSent`](crate::server::DeliveryOutcome::NotSent)) but nothing leaves
    /// the process: for fuzzers, whose requests name arbitrary webhook URLs.
    pub deliver_webhooks: bool,
    /// Bounds of the HTTP listener: connections, timeouts, body size, idempotency store
    /// ([`HttpLimits::default`] by default).
    pub limits: HttpLimits,
    /// Where what the service sends, its statuses and webhook deliveries are recorded, and
    /// (with a data directory) its state kept (none by default).
    pub inbox: Option<crate::inbox::Inbox>,
}

impl ServiceSettings {
    /// The defaults, with this rate limit (the service spec's) and a fresh random key.
    ///
    /// ```
    /// let settings = tidings_sandbox::ServiceSettings::new(None);
    /// assert!(settings.api_key.starts_with("sk_sandbox_"));
    /// assert_eq!(settings.port, 0);
    /// ```
    pub fn new(rate_limit: Option<RateLimit>) -> Self {
        ServiceSettings {
            api_key: format!("sk_sandbox_{}", uuid::Uuid::new_v4().simple()),
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            rate_limit,
            lifecycle_step: Duration::from_millis(300),
            webhook: None,
            webhook_retry: WebhookRetry::default(),
            deliver_webhooks: true,
            limits: HttpLimits::default(),
            inbox: None,
        }
    }
}

impl fmt::Debug for ServiceSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServiceSettings")
            .field("api_key", &"<redacted>")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("rate_limit", &self.rate_limit)
            .field("lifecycle_step", &self.lifecycle_step)
            .field("webhook", &self.webhook)
            .field("webhook_retry", &self.webhook_retry)
            .field("deliver_webhooks", &self.deliver_webhooks)
            .field("limits", &self.limits)
            .field("inbox", &self.inbox.is_some())
            .finish()
    }
}

/// The builder methods of [`ServiceSettings`], for each service's config.
///
/// ```
/// use tidings_sandbox::{EmailSandboxConfig, ServiceConfig};
/// let config = EmailSandboxConfig::default()
///     .api_key("sk_test")
///     .rate_limit(None)
///     .lifecycle_step(std::time::Duration::from_millis(50));
/// assert_eq!(config.service.api_key, "sk_test");
/// ```
pub trait ServiceConfig: Sized {
    /// The shared settings, to change.
    fn settings_mut(&mut self) -> &mut ServiceSettings;

    /// Accepts this API key.
    fn api_key(mut self, key: impl Into<String>) -> Self {
        self.settings_mut().api_key = key.into();
        self
    }

    /// Listens on this address and port (0: a free port).
    fn bind(mut self, host: IpAddr, port: u16) -> Self {
        let settings = self.settings_mut();
        settings.host = host;
        settings.port = port;
        self
    }

    /// Replaces the spec's rate limit (`None`: no limit).
    fn rate_limit(mut self, limit: Option<RateLimit>) -> Self {
        self.settings_mut().rate_limit = limit;
        self
    }

    /// Time between two status changes.
    fn lifecycle_step(mut self, step: Duration) -> Self {
        self.settings_mut().lifecycle_step = step;
        self
    }

    /// Posts events to this target (the account's default webhook).
    fn webhook(mut self, target: WebhookTarget) -> Self {
        self.settings_mut().webhook = Some(target);
        self
    }

    /// Retries of failed webhook deliveries.
    fn webhook_retry(mut self, retry: WebhookRetry) -> Self {
        self.settings_mut().webhook_retry = retry;
        self
    }

    /// Replaces the listener's bounds (connections, timeouts, body size, idempotency store).
    fn limits(mut self, limits: HttpLimits) -> Self {
        self.settings_mut().limits = limits;
        self
    }

    /// Turns webhook delivery on or off (on by default; off, events are logged, not posted).
    fn deliver_webhooks(mut self, on: bool) -> Self {
        self.settings_mut().deliver_webhooks = on;
        self
    }

    /// Records in (and, with a data directory, keeps state in) this inbox.
    fn inbox(mut self, inbox: crate::inbox::Inbox) -> Self {
        self.settings_mut().inbox = Some(inbox);
        self
    }
}
