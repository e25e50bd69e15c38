//! Webhooks (3.1 `webhooks`, callbacks): payload types and their `events` section.

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

impl Converter<'_> {
    /// The webhook, when the document has exactly one (3.1 `webhooks`, or `x-webhooks`).
    pub(super) fn webhooks(&mut self) -> Option<Node> {
        let doc = self.doc;
        let (key, hooks) = ["webhooks", "x-webhooks"]
            .iter()
            .find_map(|k| doc.get(*k).and_then(Value::as_object).map(|h| (*k, h)))?;
        let mut found = Vec::new();
        for (name, item) in hooks {
            let ptr = format!("/{key}/{}/post", document::escape(name));
            let Some(post) = item.get("post") else {
                self.skip(
                    &format!("/{key}/{}", document::escape(name)),
                    "needs spec construct: webhook with a method other than POST",
                    None,
                );
                continue;
            };
            let media = post
                .get("requestBody")
                .and_then(|b| document::deref(doc, b, ""))
                .and_then(|(b, _)| b.get("content").cloned())
                .and_then(|c| {
                    c.as_object().and_then(|c| {
                        c.iter()
                            .find(|(k, _)| k.contains("json"))
                            .map(|(_, m)| (m.clone(), false))
                            .or_else(|| {
                                c.iter()
                                    .find(|(k, _)| k.contains("x-www-form-urlencoded"))
                                    .map(|(_, m)| (m.clone(), true))
                            })
                    })
                });
            match media.and_then(|(m, form)| Some((m.get("schema")?.clone(), form))) {
                Some((s, form)) => found.push((ptr, name.clone(), post.clone(), s, form)),
                None => self.skip(&ptr, "webhook without a JSON or form body", None),
            }
        }
        if found.len() > 1 {
            return self.several_webhooks(key, found);
        }
        let (ptr, _, post, schema, form) = found.pop()?;
        if form {
            // `events.webhook` is JSON only; the list form says the encoding.
            return self.several_webhooks(key, vec![(ptr, String::new(), post, schema, true)]);
        }
        let ty = match self.ty(&schema, &format!("{ptr}/requestBody"), "WebhookEvent", 0) {
            Ok(t) if self.types.contains_key(&t) => t,
            Ok(_) | Err(_) => {
                self.skip(&ptr, "webhook payload is not a named type", None);
                return None;
            }
        };
        let mut hook = Node::map();
        hook.set("type", Node::str(ty));
        if let Some(sig) = post.get("x-signature").and_then(Value::as_str)
            && matches!(sig, "standard_webhooks" | "pusher")
        {
            hook.set("signature", Node::str(sig));
        }
        if let Some(env) = post.get("x-secret-env").and_then(Value::as_str) {
            hook.set("secret_env", Node::str(env));
        }
        if let Some(d) = post.get("summary").and_then(Value::as_str) {
            hook.set("doc", Node::str(d));
        }
        self.provenance(&mut hook, &ptr);
        let mut events = Node::map();
        events.set("webhook", hook);
        self.provenance(&mut events, &format!("/{key}"));
        Some(events)
    }

    /// Several payload types (or a form-encoded one) as `events.webhooks`. OpenAPI says
    /// neither how a delivery is told apart nor how it is signed: unless our own export's
    /// `x-select` says so, each is selected by a placeholder path `/<name>`, and each is
    /// `signature: none` (the `webhook_signature` gap stays open); both are reported.
    pub(super) fn several_webhooks(
        &mut self,
        key: &str,
        found: Vec<(String, String, Value, Value, bool)>,
    ) -> Option<Node> {
        let mut hooks = Node::map();
        let mut names = BTreeSet::new();
        for (ptr, raw, post, schema, form) in found {
            let base = match operations::op_name(if raw.is_empty() { "event" } else { &raw }) {
                n if n.is_empty() => "event".to_owned(),
                n => n,
            };
            let mut name = base.clone();
            let mut n = 2;
            while !names.insert(name.clone()) {
                name = format!("{base}_{n}");
                n += 1;
            }
            let hint = format!("{}Webhook", pascal(&name));
            let ty = match self.ty(&schema, &format!("{ptr}/requestBody"), &hint, 0) {
                Ok(t)
                    if matches!(self.types.get(&t), Some(TypeOut::Object { .. }))
                        || (!form && self.types.contains_key(&t)) =>
                {
                    t
                }
                Ok(_) | Err(_) => {
                    self.skip(&ptr, "webhook payload is not a named type", None);
                    continue;
                }
            };
            let mut hook = Node::map();
            hook.set("type", Node::str(ty));
            if form {
                hook.set("encoding", Node::str("form"));
            }
            let mut select = Node::map();
            match post.get("x-select").and_then(Value::as_object) {
                Some(x) => {
                    for k in ["header", "field", "path", "equals"] {
                        if let Some(v) = x.get(k).and_then(Value::as_str) {
                            select.set(k, Node::str(v));
                        }
                    }
                }
                None => {
                    let path = format!("/{name}");
                    self.approximate(
                        &ptr,
                        &format!("webhook `{name}`: what tells it apart is not in the document; selected by the placeholder path `{path}` (set the URL path you register)"),
                    );
                    select.set("path", Node::str(path));
                }
            }
            hook.set("select", select);
            let builtin = post
                .get("x-signature")
                .and_then(Value::as_str)
                .filter(|s| matches!(*s, "standard_webhooks" | "pusher"));
            match builtin {
                Some(sig) => hook.set("signature", Node::str(sig)),
                None => {
                    self.approximate(
                        &ptr,
                        &format!("webhook `{name}`: its signature is not in the document; `signature: none` (decoded only) until `events.signatures` says how it is signed"),
                    );
                    hook.set("signature", Node::str("none"));
                }
            }
            if let Some(d) = post.get("summary").and_then(Value::as_str) {
                hook.set("doc", Node::str(d));
            }
            self.provenance(&mut hook, &ptr);
            hooks.set(&name, hook);
        }
        if matches!(&hooks, Node::Map(m) if m.is_empty()) {
            return None;
        }
        let mut events = Node::map();
        events.set("webhooks", hooks);
        self.provenance(&mut events, &format!("/{key}"));
        Some(events)
    }
}
