//! The 3.1 `webhooks` section: the service's webhook payloads with their signature headers and
//! schemes.

#[allow(clippy::wildcard_imports)] // the document's shared helpers and imports
use super::*;

/// The 3.1 `webhooks` section: the single `events.webhook`, then each `events.webhooks` type.
pub(super) fn webhooks(service: &Service) -> Option<Value> {
    let mut all = match single_webhook(service) {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    for hook in &service.webhooks {
        all.insert(hook.name.clone(), typed_webhook(service, hook));
    }
    (!all.is_empty()).then_some(Value::Object(all))
}

/// One payload type of `events.webhooks`: its body (JSON or form), the headers its signature
/// scheme reads, `x-signature` (the scheme as data) and `x-select` (what tells it apart).
fn typed_webhook(service: &Service, hook: &crate::resolved::WebhookTypeInfo) -> Value {
    use crate::resolved::{Select, SignedContent};
    let scheme = hook
        .signature
        .as_deref()
        .and_then(|name| service.signatures.iter().find(|s| s.name == name));
    let mut params = Vec::new();
    if let Some(s) = scheme {
        params.push(json!({
            "name": s.header, "in": "header", "required": true,
            "description": format!("The signature: {}.", s.describe()),
            "schema": { "type": "string" },
        }));
        for (header, what) in [
            (&s.id_header, "The message id the signature covers."),
            (
                &s.timestamp_header,
                "Unix seconds when it was sent; the signature covers it.",
            ),
        ] {
            if let Some(h) = header {
                params.push(json!({
                    "name": h, "in": "header", "required": true, "description": what,
                    "schema": { "type": "string" },
                }));
            }
        }
    }
    if let Some(Select::Header { name, equals }) = &hook.select
        && !params.iter().any(|p| p["name"] == json!(name))
    {
        let mut schema = json!({ "type": "string" });
        if let Some(e) = equals {
            schema["const"] = json!(e);
        }
        params.push(json!({
            "name": name, "in": "header", "required": true,
            "description": "Tells this payload type apart.", "schema": schema,
        }));
    }
    let mut post = Map::new();
    post.insert(
        "operationId".into(),
        json!(format!("webhook_{}", hook.name)),
    );
    post.insert(
        "summary".into(),
        json!(
            hook.doc
                .clone()
                .unwrap_or_else(|| format!("A `{}` delivery.", hook.name))
        ),
    );
    let mut description = format!("The service posts `{}`", hook.ty);
    match &hook.select {
        Some(Select::Path(p)) => {
            description.push_str(&format!(" to the URL you register for `{p}`"))
        }
        Some(Select::Header {
            name,
            equals: Some(e),
        }) => description.push_str(&format!(" with `{name}: {e}`")),
        Some(Select::Header { name, equals: None }) => {
            description.push_str(&format!(" with a `{name}` header"))
        }
        Some(Select::Field {
            name,
            equals: Some(e),
        }) => description.push_str(&format!(" with `{name}` = `{e}`")),
        Some(Select::Field { name, equals: None }) => {
            description.push_str(&format!(" with a `{name}` field"))
        }
        None => {}
    }
    match scheme {
        Some(s) => description.push_str(&format!(
            ". Clients verify it with `handle_webhook` or `verify_{}` ({}){}.",
            hook.name,
            s.name,
            hook.secret_env
                .as_deref()
                .map(|e| format!(", the secret read from `{e}`"))
                .unwrap_or_default()
        )),
        None => description.push_str(&format!(
            ", unsigned: clients decode it with `handle_webhook` or `decode_{}`.",
            hook.name
        )),
    }
    post.insert("description".into(), json!(description));
    if !params.is_empty() {
        post.insert("parameters".into(), Value::Array(params));
    }
    let media = hook.encoding.media_type();
    post.insert(
        "requestBody".into(),
        json!({ "required": true, "content": { media: { "schema": schema_ref(&hook.ty) } } }),
    );
    post.insert(
        "responses".into(),
        json!({ "200": { "description": "Any 2xx status acknowledges the delivery; anything else asks for a retry." } }),
    );
    if let Some(s) = scheme {
        let mut sig = json!({
            "name": s.name, "header": s.header,
            "algorithm": serde_json::to_value(s.algorithm).unwrap_or(Value::Null),
            "encoding": serde_json::to_value(s.encoding).unwrap_or(Value::Null),
        });
        match &s.over {
            SignedContent::RawBody => sig["over"] = json!("raw_body"),
            SignedContent::UrlSortedParams => sig["over"] = json!("url_sorted_params"),
            SignedContent::Template(t) => {
                sig["over"] = json!("template");
                sig["template"] = json!(t);
            }
        }
        if !s.prefix.is_empty() {
            sig["prefix"] = json!(s.prefix);
        }
        if let Some(c) = s.separator {
            sig["separator"] = json!(c.to_string());
        }
        if let Some(t) = s.tolerance_s {
            sig["tolerance_s"] = json!(t);
        }
        post.insert("x-signature".into(), sig);
    }
    if let Some(select) = &hook.select {
        let mut value = match select {
            Select::Header { name, .. } => json!({ "header": name }),
            Select::Field { name, .. } => json!({ "field": name }),
            Select::Path(p) => json!({ "path": p }),
        };
        if let Select::Header {
            equals: Some(e), ..
        }
        | Select::Field {
            equals: Some(e), ..
        } = select
        {
            value["equals"] = json!(e);
        }
        post.insert("x-select".into(), value);
    }
    if let Some(env) = &hook.secret_env {
        post.insert("x-secret-env".into(), json!(env));
    }
    post.insert("security".into(), json!([]));
    origin(&mut post, &hook.origin);
    json!({ "post": post })
}

fn single_webhook(service: &Service) -> Option<Value> {
    let hook = service.webhook.as_ref()?;
    let ty = hook.ty.as_deref()?;
    let headers: Vec<(&str, &str)> = match hook.signature {
        Some(WebhookSignature::StandardWebhooks) => vec![
            (
                "webhook-id",
                "The message id: the same on every retry of one delivery.",
            ),
            (
                "webhook-timestamp",
                "Unix seconds when it was sent; old deliveries are refused.",
            ),
            (
                "webhook-signature",
                "Space-separated `v1,<base64 HMAC-SHA256 of \"id.timestamp.body\">` signatures, keyed with the endpoint's secret.",
            ),
        ],
        Some(WebhookSignature::Pusher) => vec![
            ("X-Pusher-Key", "The app key the delivery is for."),
            (
                "X-Pusher-Signature",
                "Hex HMAC-SHA256 of the body, keyed with the app secret.",
            ),
        ],
        None => Vec::new(),
    };
    let params: Vec<Value> = headers
        .iter()
        .map(|(name, doc)| {
            json!({
                "name": name, "in": "header", "required": true, "description": doc,
                "schema": { "type": "string" },
            })
        })
        .collect();
    let mut post = Map::new();
    post.insert("operationId".into(), json!(format!("webhook_{ty}")));
    post.insert(
        "summary".into(),
        json!(
            hook.doc
                .clone()
                .unwrap_or_else(|| "A webhook delivery.".into())
        ),
    );
    let mut description = format!(
        "The service posts `{ty}` to the URL you register. Clients verify it with `verify_webhook`"
    );
    if let Some(env) = &hook.secret_env {
        description.push_str(&format!(", the secret read from `{env}`"));
    }
    description.push('.');
    post.insert("description".into(), json!(description));
    if !params.is_empty() {
        post.insert("parameters".into(), Value::Array(params));
    }
    post.insert(
        "requestBody".into(),
        json!({ "required": true, "content": { "application/json": { "schema": schema_ref(ty) } } }),
    );
    post.insert(
        "responses".into(),
        json!({ "200": { "description": "Any 2xx status acknowledges the delivery; anything else asks for a retry." } }),
    );
    if let Some(sig) = hook.signature {
        post.insert(
            "x-signature".into(),
            serde_json::to_value(sig).unwrap_or(Value::Null),
        );
    }
    if let Some(env) = &hook.secret_env {
        post.insert("x-secret-env".into(), json!(env));
    }
    post.insert("security".into(), json!([]));
    origin(&mut post, &hook.origin);
    Some(json!({ ty: { "post": post } }))
}
