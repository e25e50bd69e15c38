//! Webhooks (3.1 `webhooks`, callbacks): payload types and their `events` section.

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

impl<'a> Converter<'a> {
    /// The document's webhooks (3.1 `webhooks`, or `x-webhooks`) and its operations'
    /// `callbacks` (Zenvia's subscription `onEvent`, WhatsApp's `incomingWebhook`): one as
    /// `events.webhook`, several as `events.webhooks`.
    pub(super) fn webhooks(&mut self, service: &str) -> Option<Node> {
        let doc = self.doc;
        let declared = ["webhooks", "x-webhooks"]
            .iter()
            .find_map(|k| doc.get(*k).and_then(Value::as_object).map(|h| (*k, h)));
        let mut items: Vec<(String, String, &Value)> = declared
            .iter()
            .flat_map(|(key, hooks)| {
                hooks.iter().map(move |(name, item)| {
                    (
                        format!("/{key}/{}", document::escape(name)),
                        name.clone(),
                        item,
                    )
                })
            })
            .collect();
        items.extend(self.callbacks());
        let key = match (declared, items.first()) {
            (Some((key, _)), _) => format!("/{key}"),
            (None, Some((at, _, _))) => at.clone(),
            (None, None) => return None,
        };
        let mut found = Vec::new();
        for (at, name, item) in items {
            let ptr = format!("{at}/post");
            let Some(post) = item.get("post") else {
                self.skip(
                    &at,
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
            return self.several_webhooks(&key, found, service);
        }
        let (ptr, _, post, schema, form) = found.pop()?;
        if form {
            // `events.webhook` is JSON only; the list form says the encoding.
            return self.several_webhooks(
                &key,
                vec![(ptr, String::new(), post, schema, true)],
                service,
            );
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
        self.provenance(&mut events, &key);
        Some(events)
    }

    /// Every operation's callbacks, once each (a callback of `components.callbacks` that
    /// several operations name is one): where each is (a JSON pointer), its name, and its
    /// path item (the expression's URL is where the client registers it, not the spec's).
    fn callbacks(&self) -> Vec<(String, String, &'a Value)> {
        let doc = self.doc;
        let mut out: Vec<(String, String, &'a Value)> = Vec::new();
        for (path, item) in doc
            .get("paths")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            for (method, op) in item.as_object().into_iter().flatten() {
                let Some(callbacks) = op.get("callbacks").and_then(Value::as_object) else {
                    continue;
                };
                for (name, callback) in callbacks {
                    let at = format!(
                        "/paths/{}/{method}/callbacks/{}",
                        document::escape(path),
                        document::escape(name)
                    );
                    let Some((callback, at)) = document::deref(doc, callback, &at) else {
                        continue;
                    };
                    for (expression, item) in callback.as_object().into_iter().flatten() {
                        let at = format!("{at}/{}", document::escape(expression));
                        let Some((item, at)) = document::deref(doc, item, &at) else {
                            continue;
                        };
                        if !out.iter().any(|(seen, _, _)| *seen == at) {
                            out.push((at, name.clone(), item));
                        }
                    }
                }
            }
        }
        out
    }

    /// Several payload types (or a form-encoded one) as `events.webhooks`. OpenAPI says
    /// neither how a delivery is told apart nor how it is signed: unless our own export's
    /// `x-select` says so, each is selected by a placeholder path `/<name>`, and each is
    /// `signature: none` (the `webhook_signature` gap stays open); both are reported.
    pub(super) fn several_webhooks(
        &mut self,
        origin: &str,
        found: Vec<(String, String, Value, Value, bool)>,
        service: &str,
    ) -> Option<Node> {
        let mut hooks = Node::map();
        let mut names = BTreeSet::new();
        let told_apart = self.told_apart_by_a_constant(&found);
        let signed = found
            .iter()
            .all(|(_, _, post, _, _)| self.names_standard_webhook_headers(post));
        for (i, (ptr, raw, post, schema, form)) in found.into_iter().enumerate() {
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
                None if let Some((field, values)) = &told_apart => {
                    select.set("field", Node::str(field));
                    select.set("equals", Node::str(&values[i]));
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
                None if signed => {
                    self.report.inferred.push(Finding {
                        pointer: ptr.clone(),
                        reason: format!("webhook `{name}`: signed as Standard Webhooks (the document names its `webhook-*` or `svix-*` headers)"),
                        detail: None,
                    });
                    hook.set("signature", Node::str("standard_webhooks"));
                    let env = format!("COMMS_{}_WEBHOOK_SECRET", shouty(service));
                    hook.set("secret_env", Node::str(env));
                }
                None => {
                    let why = match self.other_signature_headers(&post) {
                        Some(headers) => format!(
                            "webhook `{name}`: signed in headers of a scheme this spec language has no name for (`{headers}`); `signature: none` (decoded only, sent without them)"
                        ),
                        None => format!(
                            "webhook `{name}`: its signature is not in the document; `signature: none` (decoded only) until `events.signatures` says how it is signed"
                        ),
                    };
                    self.approximate(&ptr, &why);
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
        self.webhooks_signed = signed;
        let mut events = Node::map();
        events.set("webhooks", hooks);
        self.provenance(&mut events, origin);
        Some(events)
    }

    /// The body field every payload sets to a constant of its own (Resend's `type: { const:
    /// email.sent }`), with each payload's value in order: what tells the deliveries apart
    /// when they all come to one URL.
    fn told_apart_by_a_constant(
        &self,
        found: &[(String, String, Value, Value, bool)],
    ) -> Option<(String, Vec<String>)> {
        let constants: Vec<BTreeMap<String, String>> = found
            .iter()
            .map(|(_, _, _, schema, _)| self.constant_fields(schema))
            .collect();
        let first = constants.first()?;
        first.keys().find_map(|field| {
            let values: Vec<String> = constants
                .iter()
                .map(|c| c.get(field).cloned())
                .collect::<Option<_>>()?;
            let distinct: BTreeSet<&String> = values.iter().collect();
            (distinct.len() == values.len()).then(|| (field.clone(), values))
        })
    }

    /// A payload schema's top-level fields whose value is one fixed string (`const`, or an
    /// `enum` of one value), through `$ref` and `allOf`.
    fn constant_fields(&self, schema: &Value) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let Some((s, _)) = document::deref(self.doc, schema, "") else {
            return out;
        };
        for part in s
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.extend(self.constant_fields(part));
        }
        for (name, prop) in s
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let Some((p, _)) = document::deref(self.doc, prop, "") else {
                continue;
            };
            let one = p.get("const").and_then(Value::as_str).or_else(|| {
                match p.get("enum").and_then(Value::as_array).map(Vec::as_slice) {
                    Some([Value::String(v)]) => Some(v.as_str()),
                    _ => None,
                }
            });
            if let Some(v) = one {
                out.insert(name.clone(), v.to_owned());
            }
        }
        out
    }

    /// The header parameters a webhook declares.
    fn header_params<'d>(&'d self, post: &'d Value) -> impl Iterator<Item = &'d str> + 'd {
        post.get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| document::deref(self.doc, p, "").map(|(p, _)| p))
            .filter(|p| p.get("in").and_then(Value::as_str) == Some("header"))
            .filter_map(|p| p.get("name").and_then(Value::as_str))
    }

    /// The signature headers a webhook declares when none of them is Standard Webhooks' (Telnyx's
    /// `telnyx-signature-ed25519` and `telnyx-timestamp`), comma-separated.
    fn other_signature_headers(&self, post: &Value) -> Option<String> {
        let headers: Vec<&str> = self.header_params(post).collect();
        let signed = |h: &&str| {
            let h = h.to_ascii_lowercase();
            h.contains("signature") || h.ends_with("-timestamp")
        };
        let standard = |h: &&str| {
            let h = h.to_ascii_lowercase();
            h.starts_with("webhook-") || h.starts_with("svix-")
        };
        let other: Vec<&str> = headers.iter().copied().filter(signed).collect();
        (!other.is_empty() && !headers.iter().any(standard)).then(|| other.join("`, `"))
    }

    /// Whether a webhook's own header parameters, description or tags' descriptions name the
    /// Standard Webhooks signature headers (`webhook-signature`, or Svix's `svix-signature`).
    /// Signature headers of another scheme it declares win over its prose (Telnyx describes
    /// its `telnyx-signature-ed25519` as "compatible with" `webhook-signature`).
    fn names_standard_webhook_headers(&self, post: &Value) -> bool {
        if self.other_signature_headers(post).is_some() {
            return false;
        }
        let names = |text: &str| {
            let t = text.to_ascii_lowercase();
            t.contains("webhook-signature") || t.contains("svix-signature")
        };
        let params = self.header_params(post);
        let described = post.get("description").and_then(Value::as_str);
        let tagged: Vec<&str> = post
            .get("tags")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter_map(|tag| {
                self.doc
                    .get("tags")
                    .and_then(Value::as_array)?
                    .iter()
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(tag))?
                    .get("description")
                    .and_then(Value::as_str)
            })
            .collect();
        params.chain(described).chain(tagged).any(names)
    }
}
