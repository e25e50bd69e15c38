//! The settings every HTTP service sandbox shares (key, address, rate limit, lifecycle pace,
//! webhooks), written once: [`service_config_setters!`] adds their builder methods to a config
//! type that has the same public fields.

/// Adds the shared builder methods to a sandbox config with the fields `api_key`, `host`,
/// `port`, `rate_limit`, `lifecycle_step`, `webhook`, `webhook_retry`, `deliver_webhooks` and
/// `limits`.
macro_rules! service_config_setters {
    ($config:ty) => {
        impl $config {
            /// Accepts this API key.
            pub fn api_key(mut self, key: impl Into<String>) -> Self {
                self.api_key = key.into();
                self
            }

            /// Listens on this address and port (0: a free port).
            pub fn bind(mut self, host: std::net::IpAddr, port: u16) -> Self {
                self.host = host;
                self.port = port;
                self
            }

            /// Replaces the spec's rate limit (`None`: no limit).
            pub fn rate_limit(mut self, limit: Option<$crate::server::RateLimit>) -> Self {
                self.rate_limit = limit;
                self
            }

            /// Time between two status changes.
            pub fn lifecycle_step(mut self, step: std::time::Duration) -> Self {
                self.lifecycle_step = step;
                self
            }

            /// Posts events to this target (the account's default webhook).
            pub fn webhook(mut self, target: $crate::server::WebhookTarget) -> Self {
                self.webhook = Some(target);
                self
            }

            /// Retries of failed webhook deliveries.
            pub fn webhook_retry(mut self, retry: $crate::server::WebhookRetry) -> Self {
                self.webhook_retry = retry;
                self
            }

            /// Replaces the listener's bounds (connections, timeouts, body size, idempotency
            /// store).
            pub fn limits(mut self, limits: $crate::server::HttpLimits) -> Self {
                self.limits = limits;
                self
            }

            /// Turns webhook delivery on or off (on by default; off, events are logged, not
            /// posted).
            pub fn deliver_webhooks(mut self, on: bool) -> Self {
                self.deliver_webhooks = on;
                self
            }
        }
    };
}

pub(crate) use service_config_setters;
