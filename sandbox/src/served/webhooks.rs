//! A served spec's webhooks (`events.webhooks`, and `events.webhook` as `webhook`): each
//! payload type delivered on demand to the webhook URL (`--webhook-url`) as the spec declares
//! it — told apart by its path, header or field, encoded as JSON or a form, signed by its
//! scheme with a secret the sandbox prints under the spec's own variable, so the generated
//! client's `handle_webhook` accepts it.
//!
//! `POST /__sandbox/webhooks/<name>` with the payload as JSON, authenticated as the service's
//! operations are: the payload is checked against the payload type (422 naming the field), a
//! selecting field the payload leaves out is filled with the value that selects it, and the
//! answer (202) holds the delivery's id and URL. Deliveries are bounded and retried as the
//! built-in services' are ([`WebhookSender`]); `GET /__sandbox/webhooks` lists them with where
//! each stands (delivered with the receiver's status, pending, failed and why).

use serde_json::{Value, json};
use tidings_codegen::check::{Owned, Select, Service};
use tidings_codegen::model::PayloadEncoding;
use tidings_runtime::spec::{SecretFormat, SignatureScheme};
use tidings_runtime::webhook::Verifier;

use crate::server::resources::{ServiceSchema, Ty};
use crate::server::{Incoming, Outgoing, ServerError, Signing, WebhookSender};

/// Where deliveries are triggered: `POST <TRIGGER_PREFIX><name>`.
pub const TRIGGER_PREFIX: &str = "/__sandbox/webhooks/";

/// The operation the trigger is served as (auth, limits and body checks of the service).
pub(crate) static TRIGGER_OP: tidings_runtime::spec::OperationSpec =
    tidings_runtime::spec::OperationSpec::post("trigger_webhook", "/__sandbox/webhooks/{name}");

/// The operation the list of deliveries is served as.
pub(crate) static DELIVERIES_OP: tidings_runtime::spec::OperationSpec =
    tidings_runtime::spec::OperationSpec::get("list_webhook_deliveries", "/__sandbox/webhooks");

/// The name the one payload type of `events.webhook` is triggered by.
pub const SINGLE_WEBHOOK: &str = "webhook";

/// One payload type, ready to deliver.
pub(crate) struct ServedWebhook {
    pub(crate) name: String,
    /// The payload type.
    ty: &'static str,
    form: bool,
    select: Option<Select<Owned>>,
    /// Its scheme and secret; `None`: unsigned.
    signing: Option<(&'static SignatureScheme, String)>,
}

/// The spec's webhooks and where they go.
pub(crate) struct Webhooks {
    pub(crate) url: Option<String>,
    pub(crate) hooks: Vec<ServedWebhook>,
    sender: WebhookSender,
}

/// A sandbox-only secret of the form `scheme` reads.
pub(crate) fn made_secret(scheme: &SignatureScheme) -> String {
    use base64::Engine as _;
    let key: [u8; 32] = rand::random();
    match scheme.secret {
        SecretFormat::Base64 { prefix } => format!(
            "{prefix}{}",
            base64::engine::general_purpose::STANDARD.encode(key)
        ),
        SecretFormat::Text => {
            let hex: String = key[..16].iter().map(|b| format!("{b:02x}")).collect();
            format!("test_webhook_secret_{hex}")
        }
    }
}

impl Webhooks {
    /// The webhooks of `service`; `secret(env, scheme)` gives each signed one its secret (the
    /// same for every payload type reading the same variable).
    pub(crate) fn of(
        service: &Service,
        url: Option<String>,
        sender: WebhookSender,
        mut secret: impl FnMut(Option<&str>, &'static SignatureScheme) -> String,
    ) -> Webhooks {
        // The one payload type of `events.webhook` (an imported callback, the built-in specs'
        // event union), triggered as `webhook`, signed by its built-in scheme.
        let single = service.webhook.as_ref().and_then(|w| {
            let scheme: &'static SignatureScheme = match w.signature? {
                tidings_codegen::model::WebhookSignature::StandardWebhooks => {
                    &tidings_runtime::spec::STANDARD_WEBHOOKS
                }
                tidings_codegen::model::WebhookSignature::Pusher => &tidings_runtime::spec::PUSHER,
            };
            Some((w, Some(scheme)))
        });
        let single = single
            .or_else(|| service.webhook.as_ref().map(|w| (w, None)))
            .and_then(|(w, scheme)| {
                Some(ServedWebhook {
                    name: SINGLE_WEBHOOK.to_owned(),
                    ty: Box::leak(w.ty.clone()?.into_boxed_str()),
                    form: false,
                    select: None,
                    signing: scheme.map(|scheme| (scheme, secret(w.secret_env.as_deref(), scheme))),
                })
            });
        let hooks = single
            .into_iter()
            .chain(service.webhooks.iter().map(|w| {
                let signing = w
                    .signature
                    .as_deref()
                    .and_then(|name| service.signatures.iter().find(|s| s.name == name))
                    .map(|s| {
                        let scheme = tidings_codegen::describe::signature_scheme(s);
                        (scheme, secret(w.secret_env.as_deref(), scheme))
                    });
                ServedWebhook {
                    name: w.name.clone(),
                    ty: Box::leak(w.ty.clone().into_boxed_str()),
                    form: w.encoding == PayloadEncoding::Form,
                    select: w.select.clone(),
                    signing,
                }
            }))
            .collect();
        Webhooks { url, hooks, sender }
    }

    /// Delivers the payload `incoming` carries as webhook `name`: its id and URL, or why not.
    pub(crate) fn trigger(
        &self,
        schema: &ServiceSchema,
        name: &str,
        incoming: &Incoming,
    ) -> Result<Value, ServerError> {
        let Some(hook) = self.hooks.iter().find(|h| h.name == name) else {
            let names: Vec<&str> = self.hooks.iter().map(|h| h.name.as_str()).collect();
            return Err(ServerError::not_found(format!(
                "the webhook `{name}` (the spec declares {})",
                if names.is_empty() {
                    "none".to_owned()
                } else {
                    format!("`{}`", names.join("`, `"))
                }
            )));
        };
        let Some(base) = &self.url else {
            return Err(ServerError::conflict(
                "no_webhook_url",
                "no webhook URL: start the sandbox with --webhook-url URL to receive webhooks",
            ));
        };
        let mut payload: Value = incoming.json()?;
        let mut url = base.clone();
        let mut headers = Vec::new();
        match &hook.select {
            Some(Select::Path(path)) => {
                url = format!("{}{path}", base.trim_end_matches('/'));
            }
            Some(Select::Header { name, equals }) => {
                headers.push((
                    name.clone(),
                    equals.clone().unwrap_or_else(|| hook.name.clone()),
                ));
            }
            Some(Select::Field { name, equals }) => {
                select_field(&mut payload, name, equals.as_deref())?
            }
            None => {}
        }
        super::validate::check(schema, &Ty::Named(hook.ty), &payload, "")?;
        let body = if hook.form {
            tidings_runtime::form::encode(&payload, tidings_runtime::spec::FormStyle::DEFAULT)
                .map_err(|e| {
                    ServerError::validation("", format!("the payload is not a form: {e}"))
                })?
                .into_bytes()
        } else {
            serde_json::to_vec(&payload).unwrap_or_default()
        };
        let id = self.send(hook, &url, headers, body)?;
        Ok(json!({"id": id, "webhook": hook.name, "url": url}))
    }

    /// Queues `body` (already encoded) as webhook `hook` to `url`, signed by its scheme: the
    /// delivery's id.
    fn send(
        &self,
        hook: &ServedWebhook,
        url: &str,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    ) -> Result<String, ServerError> {
        let content_type = if hook.form {
            "application/x-www-form-urlencoded"
        } else {
            "application/json"
        };
        let signing = match &hook.signing {
            Some((scheme, secret)) => Signing::Scheme(
                Verifier::new(scheme, secret)
                    .map_err(|e| ServerError::internal(format!("webhook secret: {e}")))?,
            ),
            None => Signing::Unsigned,
        };
        let outgoing = Outgoing {
            content_type,
            headers,
            body,
            signing,
        };
        // The secret is not shown to the sender's observer: the inbox keeps none of a spec's.
        let id = self.sender.send_with(url, "", &hook.name, outgoing);
        tracing::info!(webhook = %hook.name, id, "webhook queued");
        Ok(id)
    }

    /// Sends a recorded delivery of webhook `name` again: the same body to the same URL, with
    /// the header that tells it apart and signed anew by its scheme (the inbox's Redeliver).
    pub(crate) fn resend(&self, name: &str, url: &str, body: &str) -> Result<String, String> {
        let hook = self
            .hooks
            .iter()
            .find(|h| h.name == name)
            .ok_or_else(|| format!("the spec has no webhook `{name}`"))?;
        let headers = match &hook.select {
            Some(Select::Header { name, equals }) => vec![(
                name.clone(),
                equals.clone().unwrap_or_else(|| hook.name.clone()),
            )],
            _ => Vec::new(),
        };
        self.send(hook, url, headers, body.as_bytes().to_vec())
            .map_err(|e| e.message().to_owned())
    }

    /// Every delivery so far, oldest first: id, webhook, URL, attempts and where it stands.
    pub(crate) fn deliveries(&self) -> Value {
        use crate::server::DeliveryOutcome;
        let list: Vec<Value> = self
            .sender
            .deliveries()
            .into_iter()
            .map(|d| {
                let (outcome, status, reason) = match d.outcome {
                    DeliveryOutcome::Pending => ("pending", None, d.last_error),
                    DeliveryOutcome::Delivered { status } => ("delivered", Some(status), None),
                    DeliveryOutcome::Failed { reason } => ("failed", None, Some(reason)),
                    DeliveryOutcome::NotSent => ("not_sent", None, None),
                };
                json!({
                    "id": d.id, "webhook": d.event_type, "url": d.url, "attempts": d.attempts,
                    "outcome": outcome, "status": status, "reason": reason,
                })
            })
            .collect();
        json!({ "deliveries": list })
    }
}

/// The field that selects a payload type: filled when the payload leaves it out, refused when
/// it holds another value (the receiver would take it for another type).
fn select_field(payload: &mut Value, path: &str, equals: Option<&str>) -> Result<(), ServerError> {
    let Some(equals) = equals else {
        return Ok(());
    };
    let mut node = &mut *payload;
    let mut keys = path.split('.').peekable();
    while let Some(key) = keys.next() {
        let Value::Object(map) = node else {
            return Err(ServerError::validation(
                path,
                format!("`{path}` must be `{equals}`"),
            ));
        };
        if keys.peek().is_none() {
            match map.get(key) {
                None | Some(Value::Null) => {
                    map.insert(key.to_owned(), Value::String(equals.to_owned()));
                }
                Some(Value::String(s)) if s == equals => {}
                // A number, boolean or null selects as that JSON value.
                Some(other) if serde_json::from_str::<Value>(equals).is_ok_and(|v| v == *other) => {
                }
                Some(_) => {
                    return Err(ServerError::validation(
                        path,
                        format!("`{path}` selects this webhook: it must be `{equals}`"),
                    ));
                }
            }
            return Ok(());
        }
        node = map
            .entry(key.to_owned())
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
    }
    Ok(())
}
