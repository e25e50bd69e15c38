//! The inbox's HTTP server: the web UI (embedded HTML, CSS and JS), the JSON API it and app
//! tests use (list, search, get, delete, wait), the email HTML frame document with its strict
//! CSP, attachment downloads, redelivery, the realtime trigger form's endpoint, and the live
//! change stream (SSE).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{EmailFilter, Inbox, MessageFilter, mail};
use crate::server::{Serving, Writes};

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");

/// Longest wait a `…/wait` request may ask for.
pub const MAX_WAIT: Duration = Duration::from_secs(60);
/// Wait of a `…/wait` request that names none.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(10);
/// Largest page of a list.
pub const MAX_PER_PAGE: usize = 500;
/// Page size when none is asked for.
pub const DEFAULT_PER_PAGE: usize = 50;

/// The UI's CSP: only its own script and style, frames only from itself.
const UI_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
/// The email frame's CSP: nothing runs or loads, but inline styles and `data:` images.
const FRAME_CSP: &str = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'";
/// The same, with remote images allowed (the UI's toggle).
const FRAME_CSP_REMOTE: &str = "default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'";

/// What the inbox UI can reach besides the records: the services' own views and clients.
#[derive(Clone, Default)]
pub(crate) struct Services {
    pub(crate) realtime: Option<Arc<dyn RealtimeApp>>,
    pub(crate) realtime_client: Option<tidings::realtime::RealtimeClient>,
    pub(crate) email_client: Option<tidings::email::EmailClient>,
    pub(crate) inbound: Option<Arc<dyn Inbound>>,
    /// Shown on the overview: service URLs (no secrets).
    pub(crate) info: Value,
}

/// A realtime app's live state as the UI shows it (the realtime service's view implements it, so
/// the inbox does not depend on the realtime service).
pub(crate) trait RealtimeApp: Send + Sync + 'static {
    /// The app id.
    fn app_id(&self) -> &str;
    /// The app key.
    fn key(&self) -> &str;
    /// Occupied channels: name, subscriptions, users, presence member ids.
    fn channels(&self) -> Vec<(String, usize, usize, Vec<String>)>;
}

/// Where the UI's inbound form delivers a user's message (the messaging service implements it).
pub(crate) trait Inbound: Send + Sync + 'static {
    /// Receives the message as the messaging service would from the channel; returns its
    /// `message_uuid`.
    fn receive(
        &self,
        channel: tidings::messaging::Channel,
        from: String,
        to: String,
        text: String,
    ) -> String;
}

#[derive(Clone)]
struct App {
    inbox: Inbox,
    services: Services,
}

/// A running inbox server.
pub struct InboxServer {
    addr: SocketAddr,
    http: Serving,
}

impl std::fmt::Debug for InboxServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InboxServer")
            .field("addr", &self.addr)
            .finish()
    }
}

impl InboxServer {
    pub(crate) async fn start(
        inbox: Inbox,
        services: Services,
        addr: SocketAddr,
        allowed_hosts: &[String],
    ) -> std::io::Result<InboxServer> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        // The inbox reads small JSON bodies; SSE streams and long-polls count as open
        // connections.
        let mut limits = crate::server::HttpLimits::default().max_body_bytes(1024 * 1024);
        limits.allowed_hosts = allowed_hosts.to_vec();
        let app = router(inbox, services);
        let http = Serving::spawn(listener, app, "inbox", &limits, Writes::JsonOnly);
        Ok(InboxServer { addr, http })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The UI's URL (`http://127.0.0.1:PORT/`).
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops the server, waiting a little for open requests (live streams are cut).
    pub async fn shutdown(mut self) {
        self.http.stop_and_wait(Duration::from_millis(500)).await;
    }
}

fn router(inbox: Inbox, services: Services) -> Router {
    Router::new()
        .route("/", get(index))
        .route(
            "/app.js",
            get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/app.css",
            get(|| async { asset(APP_CSS, "text/css; charset=utf-8") }),
        )
        .route("/api/summary", get(summary))
        .route("/api/events", get(events))
        .route("/api/all", delete(clear_all))
        .route("/api/emails", get(list_emails).delete(clear_emails))
        .route("/api/emails/wait", get(wait_email))
        .route("/api/emails/{id}", get(get_email).delete(delete_email))
        .route("/api/emails/{id}/raw", get(raw_email))
        .route("/api/emails/{id}/html", get(html_email))
        .route("/api/emails/{id}/attachments/{index}", get(attachment))
        .route("/api/email/templates", get(templates))
        .route("/api/email/contacts", get(contacts))
        .route("/api/messages", get(list_messages).delete(clear_messages))
        .route("/api/messages/wait", get(wait_message))
        .route("/api/messages/inbound", post(inbound))
        .route(
            "/api/messages/{id}",
            get(get_message).delete(delete_message),
        )
        .route("/api/webhooks", get(list_webhooks).delete(clear_webhooks))
        .route("/api/webhooks/{id}/redeliver", post(redeliver))
        .route("/api/calls", get(list_calls).delete(clear_calls))
        .route("/api/specs", get(specs))
        .route("/api/specs/{name}/items", get(spec_items))
        .route("/api/realtime", get(realtime))
        .route("/api/realtime/trigger", post(trigger))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page") })
        .layer(axum::extract::DefaultBodyLimit::max(64 * 1024))
        .with_state(App { inbox, services })
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

fn asset(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

async fn index() -> Response {
    let mut response = asset(INDEX_HTML, "text/html; charset=utf-8");
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(UI_CSP),
    );
    response
}

/// A page of `items` (1-based `page`).
fn paged<T: serde::Serialize>(
    items: Vec<T>,
    page: Option<usize>,
    per_page: Option<usize>,
) -> Value {
    let per_page = per_page.unwrap_or(DEFAULT_PER_PAGE).clamp(1, MAX_PER_PAGE);
    let page = page.unwrap_or(1).max(1);
    let total = items.len();
    let start = (page - 1).saturating_mul(per_page).min(total);
    let slice: Vec<&T> = items.iter().skip(start).take(per_page).collect();
    json!({ "total": total, "page": page, "per_page": per_page, "items": slice })
}

async fn summary(State(app): State<App>) -> Response {
    // Counted under the lock: nothing of the inbox is copied (it may hold hundreds of MiB).
    let counts = app.inbox.counts();
    axum::Json(json!({
        "counts": { "emails": counts.emails, "messages": counts.messages, "webhooks": counts.webhooks, "realtime": counts.realtime, "calls": counts.calls },
        "email_bytes": counts.email_bytes,
        "max_email_bytes": app.inbox.retention().max_bytes,
        "persistent": app.inbox.is_persistent(),
        "persist_stats": app.inbox.persist_stats(),
        "services": app.services.info,
    }))
    .into_response()
}

async fn events(
    State(app): State<App>,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    let receiver = app.inbox.subscribe();
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        let event = match receiver.recv().await {
            Ok(change) => Event::default()
                .event("change")
                .json_data(&change)
                .unwrap_or_default(),
            // Too slow: tell the page to reload what it shows.
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => Event::default()
                .event("change")
                .data(r#"{"kind":"all","action":"reload","id":""}"#),
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
        };
        Some((Ok(event), receiver))
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

async fn clear_all(State(app): State<App>) -> Response {
    app.inbox.clear(None);
    StatusCode::NO_CONTENT.into_response()
}

/// The query of the email list and wait endpoints.
#[derive(Debug, Deserialize)]
struct EmailQuery {
    q: Option<String>,
    from: Option<String>,
    to: Option<String>,
    subject: Option<String>,
    text: Option<String>,
    after_seq: Option<u64>,
    page: Option<usize>,
    per_page: Option<usize>,
    timeout_ms: Option<u64>,
}

impl EmailQuery {
    fn filter(&self) -> EmailFilter {
        EmailFilter {
            q: self.q.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            subject: self.subject.clone(),
            text: self.text.clone(),
            after_seq: self.after_seq,
        }
    }
}

fn wait_time(timeout_ms: Option<u64>) -> Duration {
    timeout_ms
        .map_or(DEFAULT_WAIT, Duration::from_millis)
        .min(MAX_WAIT)
}

fn email_summary(e: &super::CapturedEmail) -> Value {
    json!({
        "id": e.id, "seq": e.seq, "source": e.source, "from": e.from, "to": e.to,
        "subject": e.subject, "status": e.status, "created_at": e.created_at,
        "attachments": e.attachments.len(),
        "snippet": e.text.as_deref().unwrap_or_default().chars().take(120).collect::<String>(),
    })
}

async fn list_emails(State(app): State<App>, Query(query): Query<EmailQuery>) -> Response {
    let found: Vec<Value> = app
        .inbox
        .emails()
        .search(&query.filter())
        .iter()
        .map(email_summary)
        .collect();
    axum::Json(paged(found, query.page, query.per_page)).into_response()
}

async fn clear_emails(State(app): State<App>) -> Response {
    app.inbox.clear(Some("email"));
    StatusCode::NO_CONTENT.into_response()
}

fn email_detail(app: &App, email: &super::CapturedEmail) -> Value {
    let raw = app.inbox.raw_email(&email.id).unwrap_or_default();
    let mut value = serde_json::to_value(email).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.insert("headers".into(), json!(mail::headers(&raw)));
        map.insert("raw_size".into(), json!(raw.len()));
    }
    value
}

async fn wait_email(State(app): State<App>, Query(query): Query<EmailQuery>) -> Response {
    let filter = query.filter();
    let timeout = wait_time(query.timeout_ms);
    match app
        .inbox
        .emails()
        .wait_for(timeout, |e| filter.matches(e))
        .await
    {
        Ok(email) => axum::Json(email_detail(&app, &email)).into_response(),
        Err(_) => error(
            StatusCode::REQUEST_TIMEOUT,
            "no matching email arrived in time",
        ),
    }
}

async fn get_email(State(app): State<App>, Path(id): Path<String>) -> Response {
    match app.inbox.emails().get(&id) {
        Some(email) => axum::Json(email_detail(&app, &email)).into_response(),
        None => error(StatusCode::NOT_FOUND, "no such email"),
    }
}

async fn delete_email(State(app): State<App>, Path(id): Path<String>) -> Response {
    if app.inbox.delete_email(&id) {
        StatusCode::NO_CONTENT.into_response()
    } else {
        error(StatusCode::NOT_FOUND, "no such email")
    }
}

async fn raw_email(State(app): State<App>, Path(id): Path<String>) -> Response {
    match app.inbox.raw_email(&id) {
        Some(raw) => (
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            raw,
        )
            .into_response(),
        None => error(StatusCode::NOT_FOUND, "no such email"),
    }
}

#[derive(Debug, Deserialize)]
struct FrameQuery {
    remote: Option<String>,
}

/// The HTML body as its own document, for the UI's sandboxed iframe: the CSP forbids every
/// script and every load but `data:` images (and remote images when asked).
async fn html_email(
    State(app): State<App>,
    Path(id): Path<String>,
    Query(query): Query<FrameQuery>,
) -> Response {
    let Some(email) = app.inbox.emails().get(&id) else {
        return error(StatusCode::NOT_FOUND, "no such email");
    };
    let csp = if query.remote.as_deref() == Some("1") {
        FRAME_CSP_REMOTE
    } else {
        FRAME_CSP
    };
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, csp),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        email.html.unwrap_or_default(),
    )
        .into_response()
}

async fn attachment(State(app): State<App>, Path((id, index)): Path<(String, usize)>) -> Response {
    let Some(raw) = app.inbox.raw_email(&id) else {
        return error(StatusCode::NOT_FOUND, "no such email");
    };
    let Some((info, bytes)) = mail::attachment(&raw, index) else {
        return error(StatusCode::NOT_FOUND, "no such attachment");
    };
    // The name goes in a quoted string: keep it to safe characters.
    let safe: String = info
        .filename
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{safe}\""))
        .unwrap_or(HeaderValue::from_static("attachment"));
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_DISPOSITION, disposition);
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

async fn templates(State(app): State<App>) -> Response {
    let Some(client) = app.services.email_client else {
        return axum::Json(json!({ "items": [] })).into_response();
    };
    let query = tidings::email::ListTemplatesQuery::default();
    match client.list_templates(&query).await {
        Ok(page) => axum::Json(json!({ "items": page.data })).into_response(),
        Err(e) => error(StatusCode::BAD_GATEWAY, &e.to_string()),
    }
}

async fn contacts(State(app): State<App>) -> Response {
    let Some(client) = app.services.email_client else {
        return axum::Json(json!({ "items": [] })).into_response();
    };
    let query = tidings::email::ListContactsQuery::default();
    match client.list_contacts(&query).await {
        Ok(page) => axum::Json(json!({ "items": page.data })).into_response(),
        Err(e) => error(StatusCode::BAD_GATEWAY, &e.to_string()),
    }
}

/// The query of the message list and wait endpoints.
#[derive(Debug, Deserialize)]
struct MessageQuery {
    q: Option<String>,
    channel: Option<String>,
    from: Option<String>,
    to: Option<String>,
    text: Option<String>,
    after_seq: Option<u64>,
    page: Option<usize>,
    per_page: Option<usize>,
    timeout_ms: Option<u64>,
}

impl MessageQuery {
    fn filter(&self) -> MessageFilter {
        MessageFilter {
            q: self.q.clone(),
            channel: self.channel.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            text: self.text.clone(),
            after_seq: self.after_seq,
        }
    }
}

async fn list_messages(State(app): State<App>, Query(query): Query<MessageQuery>) -> Response {
    let found = app.inbox.messages().search(&query.filter());
    axum::Json(paged(found, query.page, query.per_page)).into_response()
}

async fn clear_messages(State(app): State<App>) -> Response {
    app.inbox.clear(Some("message"));
    StatusCode::NO_CONTENT.into_response()
}

async fn wait_message(State(app): State<App>, Query(query): Query<MessageQuery>) -> Response {
    let filter = query.filter();
    let timeout = wait_time(query.timeout_ms);
    match app
        .inbox
        .messages()
        .wait_for(timeout, |m| filter.matches(m))
        .await
    {
        Ok(message) => axum::Json(message).into_response(),
        Err(_) => error(
            StatusCode::REQUEST_TIMEOUT,
            "no matching message arrived in time",
        ),
    }
}

async fn get_message(State(app): State<App>, Path(id): Path<String>) -> Response {
    match app.inbox.messages().get(&id) {
        Some(message) => axum::Json(message).into_response(),
        None => error(StatusCode::NOT_FOUND, "no such message"),
    }
}

async fn delete_message(State(app): State<App>, Path(id): Path<String>) -> Response {
    if app.inbox.delete_message(&id) {
        StatusCode::NO_CONTENT.into_response()
    } else {
        error(StatusCode::NOT_FOUND, "no such message")
    }
}

/// The inbound simulation form: a user's message arriving at the app.
#[derive(Debug, Deserialize)]
struct InboundForm {
    channel: String,
    from: String,
    to: String,
    text: String,
}

async fn inbound(State(app): State<App>, body: axum::body::Bytes) -> Response {
    let Some(handle) = app.services.inbound else {
        return error(
            StatusCode::NOT_FOUND,
            "the messaging service is not running here",
        );
    };
    let form: InboundForm = match serde_json::from_slice(&body) {
        Ok(form) => form,
        Err(e) => return error(StatusCode::BAD_REQUEST, &format!("bad inbound form: {e}")),
    };
    let channel = match form.channel.as_str() {
        "sms" => tidings::messaging::Channel::Sms,
        "whatsapp" => tidings::messaging::Channel::Whatsapp,
        _ => {
            return error(
                StatusCode::BAD_REQUEST,
                "channel must be `sms` or `whatsapp`",
            );
        }
    };
    if form.from.is_empty() || form.to.is_empty() || form.text.chars().count() > 4096 {
        return error(
            StatusCode::BAD_REQUEST,
            "from and to are required; text has at most 4096 characters",
        );
    }
    let id = handle.receive(channel, form.from, form.to, form.text);
    (
        StatusCode::CREATED,
        axum::Json(json!({ "message_uuid": id })),
    )
        .into_response()
}

#[derive(Debug, Deserialize)]
struct PageQuery {
    page: Option<usize>,
    per_page: Option<usize>,
}

/// `?service=` picks one served spec's calls.
#[derive(Debug, Deserialize)]
struct CallQuery {
    service: Option<String>,
    page: Option<usize>,
    per_page: Option<usize>,
}

async fn list_calls(State(app): State<App>, Query(query): Query<CallQuery>) -> Response {
    let calls = app.inbox.api_calls(query.service.as_deref());
    axum::Json(paged(calls, query.page, query.per_page)).into_response()
}

async fn clear_calls(State(app): State<App>) -> Response {
    app.inbox.clear(Some("call"));
    StatusCode::NO_CONTENT.into_response()
}

async fn specs(State(app): State<App>) -> Response {
    axum::Json(json!({ "specs": app.inbox.served_specs() })).into_response()
}

/// `?collection=` names the collection; paged as every list.
#[derive(Debug, Deserialize)]
struct ItemsQuery {
    collection: String,
    page: Option<usize>,
    per_page: Option<usize>,
}

async fn spec_items(
    State(app): State<App>,
    Path(name): Path<String>,
    Query(query): Query<ItemsQuery>,
) -> Response {
    let per_page = query
        .per_page
        .unwrap_or(DEFAULT_PER_PAGE)
        .clamp(1, MAX_PER_PAGE);
    let page = query.page.unwrap_or(1).max(1);
    let skip = (page - 1).saturating_mul(per_page);
    match app
        .inbox
        .served_items(&name, &query.collection, skip, per_page)
    {
        Some((total, items)) => axum::Json(
            json!({ "total": total, "page": page, "per_page": per_page, "items": items }),
        )
        .into_response(),
        None => error(
            StatusCode::NOT_FOUND,
            &format!(
                "no collection `{}` in a served spec `{name}`",
                query.collection
            ),
        ),
    }
}

async fn list_webhooks(State(app): State<App>, Query(query): Query<PageQuery>) -> Response {
    axum::Json(paged(app.inbox.webhooks(), query.page, query.per_page)).into_response()
}

async fn clear_webhooks(State(app): State<App>) -> Response {
    app.inbox.clear(Some("webhook"));
    StatusCode::NO_CONTENT.into_response()
}

async fn redeliver(State(app): State<App>, Path(id): Path<String>) -> Response {
    use super::RedeliverError;
    match app.inbox.redeliver(&id) {
        Ok(new_id) => (StatusCode::ACCEPTED, axum::Json(json!({ "id": new_id }))).into_response(),
        Err(e) => {
            let status = match &e {
                RedeliverError::NotFound | RedeliverError::NotRunning(_) => StatusCode::NOT_FOUND,
                RedeliverError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
                _ => StatusCode::CONFLICT,
            };
            error(status, &e.to_string())
        }
    }
}

async fn realtime(State(app): State<App>, Query(query): Query<PageQuery>) -> Response {
    let apps: Vec<Value> = app
        .services
        .realtime
        .iter()
        .map(|view| {
            let channels: Vec<Value> = view
                .channels()
                .into_iter()
                .map(|(name, subscriptions, users, members)| {
                    json!({ "name": name, "subscription_count": subscriptions,
                            "user_count": users, "members": members })
                })
                .collect();
            json!({ "app_id": view.app_id(), "key": view.key(), "channels": channels })
        })
        .collect();
    let mut body = paged(app.inbox.realtime_events(), query.page, query.per_page);
    if let Some(map) = body.as_object_mut() {
        map.insert("apps".into(), Value::Array(apps));
    }
    axum::Json(body).into_response()
}

/// The trigger form.
#[derive(Debug, Deserialize)]
struct TriggerForm {
    channel: String,
    event: String,
    data: String,
}

async fn trigger(State(app): State<App>, body: axum::body::Bytes) -> Response {
    let Some(client) = app.services.realtime_client else {
        return error(
            StatusCode::NOT_FOUND,
            "the realtime service is not running here",
        );
    };
    let form: TriggerForm = match serde_json::from_slice(&body) {
        Ok(form) => form,
        Err(e) => return error(StatusCode::BAD_REQUEST, &format!("bad trigger form: {e}")),
    };
    let request =
        tidings::realtime::TriggerEventRequest::new(form.event, form.data).channel(form.channel);
    // The real signed HTTP API: the event goes where an app's would.
    match client.trigger_event(&request).await {
        Ok(_) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => error(StatusCode::BAD_REQUEST, &e.to_string()),
    }
}
