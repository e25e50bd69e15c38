//! [`ConnectionBuilder`]: a connection's settings (auth, buffers, timeouts, reconnects) before it
//! starts.

use super::*;

/// Settings of a connection; [`ConnectionBuilder::connect`] starts it.
pub struct ConnectionBuilder {
    spec: &'static WebSocketSpec,
    base_url: String,
    key: String,
    authorizer: Option<Arc<dyn Authorizer>>,
    client: String,
    version: String,
    ping_after: Option<Duration>,
    pong_timeout: Option<Duration>,
    connect_timeout: Duration,
    /// Certificates trusted beside the web roots for `wss://` (PEM).
    #[cfg(feature = "tls")]
    extra_roots_pem: Vec<Vec<u8>>,
}

impl fmt::Debug for ConnectionBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnectionBuilder")
            .field("service", &self.spec.service)
            .field("base_url", &self.base_url)
            .field("key", &self.key)
            .field("authorizer", &self.authorizer)
            .finish()
    }
}

impl ConnectionBuilder {
    /// A connection to `base_url` (`ws://`, `wss://`, `http://` or `https://` host and port)
    /// with an app key.
    pub fn new(
        spec: &'static WebSocketSpec,
        base_url: impl Into<String>,
        key: impl Into<String>,
    ) -> ConnectionBuilder {
        ConnectionBuilder {
            spec,
            base_url: base_url.into(),
            key: key.into(),
            authorizer: None,
            client: "tidings-rust".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            ping_after: None,
            pong_timeout: None,
            connect_timeout: Duration::from_millis(crate::spec::defaults::WS_CONNECT_TIMEOUT_MS),
            #[cfg(feature = "tls")]
            extra_roots_pem: Vec::new(),
        }
    }

    /// Where subscriptions to private, presence and encrypted channels (and sign-in) get
    /// their authorization: an app's auth endpoint, or a [`LocalAuthorizer`](crate::realtime::LocalAuthorizer).
    #[must_use]
    pub fn authorizer(mut self, authorizer: impl Authorizer + 'static) -> ConnectionBuilder {
        self.authorizer = Some(Arc::new(authorizer));
        self
    }

    /// The client name and version sent in the connection URL.
    #[must_use]
    pub fn client(
        mut self,
        name: impl Into<String>,
        version: impl Into<String>,
    ) -> ConnectionBuilder {
        self.client = name.into();
        self.version = version.into();
        self
    }

    /// Pings after this much silence instead of the spec's time (still shortened to the
    /// server's activity timeout).
    #[must_use]
    pub fn ping_after(mut self, after: Duration) -> ConnectionBuilder {
        self.ping_after = Some(after);
        self
    }

    /// Waits this long for a pong instead of the spec's time.
    #[must_use]
    pub fn pong_timeout(mut self, timeout: Duration) -> ConnectionBuilder {
        self.pong_timeout = Some(timeout);
        self
    }

    /// Gives up on one connection attempt after this long (default 10 s).
    #[must_use]
    pub fn connect_timeout(mut self, timeout: Duration) -> ConnectionBuilder {
        self.connect_timeout = timeout;
        self
    }

    /// Also trusts this CA certificate (PEM) for `wss://`, beside the built-in web roots: for
    /// a server with a private CA, or a local one in tests. [`ConnectionBuilder::connect`]
    /// refuses text without a certificate in it.
    #[cfg(feature = "tls")]
    #[cfg_attr(docsrs, doc(cfg(feature = "tls")))]
    #[must_use]
    pub fn add_root_certificate_pem(mut self, pem: impl Into<Vec<u8>>) -> ConnectionBuilder {
        self.extra_roots_pem.push(pem.into());
        self
    }

    /// The connection URL (`ws://host/app/<key>?protocol=7&client=...&version=...`).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when the base URL is not a URL of a supported scheme (`wss`/`https`
    /// need the crate's `tls` feature).
    pub fn url(&self) -> Result<url::Url, Error> {
        let mut url = url::Url::parse(&self.base_url)
            .map_err(|e| Error::config(format!("realtime URL `{}`: {e}", self.base_url)))?;
        let scheme = match url.scheme() {
            "ws" | "http" => "ws",
            "wss" | "https" => "wss",
            other => {
                return Err(Error::config(format!(
                    "realtime URL scheme `{other}`: expected ws, wss, http or https"
                )));
            }
        };
        #[cfg(not(feature = "tls"))]
        if scheme == "wss" {
            return Err(Error::tls_not_compiled_in(
                "a wss:// or https:// realtime URL",
            ));
        }
        url.set_scheme(scheme)
            .map_err(|()| Error::config("realtime URL scheme cannot be set"))?;
        let path = self.spec.path.replace("{key}", &self.key);
        let base = url.path().trim_end_matches('/').to_owned();
        url.set_path(&format!("{base}{path}"));
        url.set_query(None);
        {
            let mut query = url.query_pairs_mut();
            for (k, v) in self.spec.query {
                let v = v
                    .replace("{client}", &self.client)
                    .replace("{version}", &self.version);
                query.append_pair(k, &v);
            }
        }
        Ok(url)
    }

    /// Starts connecting in the background and returns the handle at once (state
    /// `Initialized`, then `Connecting`). Needs a tokio runtime.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when the URL is invalid, an added certificate does not parse, or
    /// there is no tokio runtime.
    pub fn connect(self) -> Result<Connection, Error> {
        let url = self.url()?;
        // The web roots (tokio-tungstenite's own connector) unless certificates were added.
        #[cfg(feature = "tls")]
        let connector = if self.extra_roots_pem.is_empty() {
            None
        } else {
            let config = crate::trust::client_config(&self.extra_roots_pem, false)?;
            Some(tokio_tungstenite::Connector::Rustls(config))
        };
        #[cfg(not(feature = "tls"))]
        let connector = None;
        let handle = tokio::runtime::Handle::try_current()
            .map_err(|_| Error::config("a realtime connection needs a tokio runtime"))?;
        let shared = Arc::new(Shared {
            spec: self.spec,
            url,
            inner: Mutex::new(Inner {
                state: ConnectionState::Initialized,
                socket_id: None,
                channels: HashMap::new(),
                next_slot: 0,
                commands: VecDeque::new(),
                ended: false,
                want_signin: false,
                user_data: None,
                client_events: VecDeque::new(),
                problems: VecDeque::new(),
            }),
            command_ready: Notify::new(),
            subscriptions_changed: Notify::new(),
            states: LazyBroadcast::new(),
            state_watch: watch::channel(ConnectionState::Initialized).0,
            events: LazyBroadcast::new(),
        });
        let heartbeat = self.spec.heartbeat;
        let config = connection::Config {
            authorizer: self.authorizer,
            ping_after: self
                .ping_after
                .unwrap_or(Duration::from_millis(heartbeat.ping_after_ms)),
            pong_timeout: self
                .pong_timeout
                .unwrap_or(Duration::from_millis(heartbeat.pong_timeout_ms)),
            connect_timeout: self.connect_timeout,
            connector,
        };
        handle.spawn(connection::run(shared.clone(), config));
        Ok(Connection { shared })
    }
}
