//! A small W3C WebDriver client over HTTP (reqwest) driving Debian's headless Chromium through
//! `chromedriver`, for the inbox's browser tests: navigate, run a script, wait for a condition,
//! click, screenshot.
#![allow(clippy::unwrap_used, dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Browser tests share two cores with everything else: one browser at a time.
pub static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A headless Chromium session, ended (and its driver killed) on drop.
pub struct Browser {
    http: reqwest::Client,
    base: String,
    session: String,
    driver: Child,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    pub async fn start() -> Browser {
        for path in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                std::path::Path::new(path).exists(),
                "{path} is missing: scripts/test installs Debian's chromium and chromium-driver"
            );
        }
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let http = reqwest::Client::new();
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ready = http.get(format!("{base}/status")).send().await;
            if let Ok(r) = ready {
                let body: Value = r.json().await.unwrap_or_default();
                if body["value"]["ready"] == true {
                    break;
                }
            }
            assert!(Instant::now() < deadline, "chromedriver never became ready");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--disable-background-networking", "--disable-component-update",
                         "--disable-sync", "--no-first-run", "--window-size=1366,860"]
            }
        }}});
        let created: Value = http
            .post(format!("{base}/session"))
            .json(&caps)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let session = created["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {created}"))
            .to_owned();
        Browser {
            http,
            base,
            session,
            driver,
        }
    }

    async fn command(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}/session/{}{}", self.base, self.session, path);
        let mut request = self.http.request(method, url);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let reply: Value = request.send().await.unwrap().json().await.unwrap();
        if reply["value"]["error"].is_string() {
            panic!("WebDriver {path}: {}", reply["value"]);
        }
        reply["value"].clone()
    }

    pub async fn goto(&self, url: &str) {
        self.command(reqwest::Method::POST, "/url", Some(json!({ "url": url })))
            .await;
    }

    /// Runs `script` (a function body; `arguments` are `args`) in the page; its return value.
    pub async fn eval(&self, script: &str, args: Value) -> Value {
        self.command(
            reqwest::Method::POST,
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
        .await
    }

    /// Polls `script` until it returns a truthy value; how long that took. Panics after
    /// `timeout` with `what`.
    pub async fn wait_for(
        &self,
        what: &str,
        script: &str,
        args: Value,
        timeout: Duration,
    ) -> Duration {
        let start = Instant::now();
        self.eval_when(what, script, args, timeout).await;
        start.elapsed()
    }

    /// The first truthy value `script` returns, polled until `timeout`. Read what a live page
    /// shows in the same script that finds it: the page may re-render between two scripts.
    pub async fn eval_when(
        &self,
        what: &str,
        script: &str,
        args: Value,
        timeout: Duration,
    ) -> Value {
        let start = Instant::now();
        loop {
            let value = self.eval(script, args.clone()).await;
            let truthy = !matches!(value, Value::Null | Value::Bool(false))
                && value != json!(0)
                && value != json!("");
            if truthy {
                return value;
            }
            assert!(
                start.elapsed() < timeout,
                "timed out after {timeout:?} waiting for {what}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Whether some element matching `selector` has `text` in its text.
    pub async fn wait_text(&self, selector: &str, text: &str, timeout: Duration) -> Duration {
        self.wait_for(
            &format!("`{text}` in `{selector}`"),
            "return [...document.querySelectorAll(arguments[0])].some(e => e.textContent.includes(arguments[1]));",
            json!([selector, text]),
            timeout,
        )
        .await
    }

    /// Clicks the first element matching `selector` (through the DOM).
    pub async fn click(&self, selector: &str) {
        let found = self
            .eval(
                "const e = document.querySelector(arguments[0]); if (e) e.click(); return !!e;",
                json!([selector]),
            )
            .await;
        assert_eq!(found, json!(true), "nothing matches `{selector}` to click");
    }

    /// Saves a PNG of the viewport as `target/inbox-screenshots/<name>.png`.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let data = self
            .command(reqwest::Method::GET, "/screenshot", None)
            .await;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().unwrap())
            .unwrap();
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/inbox-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Best effort: ending the session closes Chromium; then the driver goes.
        let url = format!("{}/session/{}", self.base, self.session);
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build();
            if let Ok(rt) = rt {
                rt.block_on(async {
                    let _ = tokio::time::timeout(
                        Duration::from_secs(5),
                        reqwest::Client::new().delete(url).send(),
                    )
                    .await;
                });
            }
        })
        .join();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// One second, and the longest wait for something the page should show.
pub const SECOND: Duration = Duration::from_secs(1);
/// See [`SECOND`].
pub const SLOW: Duration = Duration::from_secs(10);

/// Opens `tab` and waits until the live stream is connected, so what follows is pushed.
pub async fn open(browser: &Browser, sandbox: &tidings_sandbox::Sandbox, tab: &str) {
    browser
        .goto(&format!("{}#{tab}", sandbox.inbox_url().unwrap()))
        .await;
    browser
        .wait_for(
            "the live stream",
            "return document.getElementById('live').classList.contains('on');",
            json!([]),
            SLOW,
        )
        .await;
}

/// A list tab to time, and what its first page, last page and a search must show.
pub struct FullList<'a> {
    pub tab: &'a str,
    pub list: &'a str,
    pub total: usize,
    pub newest: &'a str,
    pub oldest: &'a str,
    pub search: &'a str,
}

/// In-page times (ms, `performance.now()`) of a list tab holding `total` records: the first
/// render after navigation, paging to the last page, and a search down to one record. Checks
/// what each shows; the caller prints the figures (not a timed assertion).
pub async fn time_a_full_list(
    browser: &Browser,
    sandbox: &tidings_sandbox::Sandbox,
    case: FullList<'_>,
) -> [f64; 3] {
    let FullList {
        tab,
        list,
        total,
        newest,
        oldest,
        search,
    } = case;
    let inbox = sandbox.inbox_url().unwrap();
    // A fresh page load (a hash change alone would keep the last page's timings).
    browser.goto("about:blank").await;
    browser.goto(&format!("{inbox}#{tab}")).await;
    // The first render: the first page of 50, the newest first.
    let first = browser
        .eval_when(
            "the first page",
            "const r = window.inboxRenders && window.inboxRenders[0];\
             const items = [...document.querySelectorAll(arguments[0] + ' li[data-id]')];\
             return r && items.length ? [r.at, items.length, items[0].textContent, document.querySelector('.pager').textContent] : null;",
            json!([list]),
            SLOW,
        )
        .await;
    let pages = total.div_ceil(50);
    assert_eq!(first[1], 50);
    assert!(first[2].as_str().unwrap().contains(newest), "{first}");
    assert!(
        first[3]
            .as_str()
            .unwrap()
            .contains(&format!("{total} in all · page 1 of {pages}")),
        "{first}"
    );
    // Wait for the live stream (its connection re-renders once) before timing a click.
    browser
        .wait_for(
            "the live stream",
            "return document.getElementById('live').classList.contains('on');",
            json!([]),
            SLOW,
        )
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Paging to the oldest page: the oldest record is its last item.
    browser
        .eval(
            "window.t0 = performance.now(); window.n0 = window.inboxRenders.length;\
             document.querySelector('.pager button.last').click();",
            json!([]),
        )
        .await;
    let last = browser
        .eval_when(
            "the last page",
            "const r = window.inboxRenders.slice(window.n0).find(r => r.page === arguments[1]);\
             const items = [...document.querySelectorAll(arguments[0] + ' li[data-id]')];\
             return r ? [r.at - window.t0, items.length, items[items.length - 1].textContent, document.querySelector('.pager').textContent] : null;",
            json!([list, pages]),
            SLOW,
        )
        .await;
    assert!(last[2].as_str().unwrap().contains(oldest), "{last}");
    assert!(
        last[3]
            .as_str()
            .unwrap()
            .contains(&format!("page {pages} of {pages}")),
        "{last}"
    );
    browser.screenshot(&format!("{tab}-1200-last-page")).await;

    // A search down to one record (the time includes the 200 ms typing pause).
    browser
        .eval(
            "window.t0 = performance.now(); window.n0 = window.inboxRenders.length;\
             const s = document.getElementById('search'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
            json!([search]),
        )
        .await;
    let found = browser
        .eval_when(
            "the search result",
            "const r = window.inboxRenders.slice(window.n0).find(r => r.q === arguments[1]);\
             const items = [...document.querySelectorAll(arguments[0] + ' li[data-id]')];\
             return r ? [r.at - window.t0, items.length, items.map(i => i.textContent).join('|')] : null;",
            json!([list, search]),
            SLOW,
        )
        .await;
    assert_eq!(found[1], 1, "{found}");
    assert!(found[2].as_str().unwrap().contains(search), "{found}");
    browser.screenshot(&format!("{tab}-1200-search")).await;
    let ms = |v: &serde_json::Value| v.as_f64().unwrap();
    [ms(&first[0]), ms(&last[0]), ms(&found[0])]
}
