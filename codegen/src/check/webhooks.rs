//! Checking `events.webhooks` (payload types: type, encoding, selection, signature) and
//! `events.signatures` (HMAC schemes described as data), resolving both.

use std::collections::BTreeSet;

use super::Checker;
use crate::model::{PayloadEncoding, SecretKind, SignatureEncoding, SignedOver};
use crate::names::{did_you_mean, is_snake};
use crate::resolved::{Origin, Owned, Select, SignatureInfo, SignedContent, WebhookTypeInfo};

/// Signature names that need no declaration.
const BUILTIN_SIGNATURES: [&str; 2] = ["standard_webhooks", "pusher"];

/// The enum `handle_webhook` returns; a spec type may not take its name.
pub(crate) const PAYLOAD_ENUM: &str = "WebhookPayload";

/// Placeholders a signature template may use.
const PLACEHOLDERS: [&str; 4] = ["id", "timestamp", "body", "url"];

impl Checker<'_> {
    /// The payload types of `events.webhooks` and the signature schemes they use.
    pub(super) fn webhooks(&mut self) -> (Vec<WebhookTypeInfo>, Vec<SignatureInfo>) {
        let Some(events) = self.spec.events.as_ref() else {
            return (Vec::new(), Vec::new());
        };
        let spec = self.spec;
        let mut declared = Vec::new();
        for (name, def) in &events.signatures {
            if let Some(info) = self.signature_def(name, def) {
                declared.push(info);
            }
        }
        let mut hooks = Vec::new();
        let mut used: Vec<SignatureInfo> = Vec::new();
        let mut fallbacks = Vec::new();
        for (name, w) in &events.webhooks {
            let path = format!("events.webhooks.{name}");
            let source = self.require_source(&path, w.source.or(events.source));
            if !is_snake(name) {
                let d = self.error(&path, format!("webhook `{name}` is not a snake_case name"));
                d.expected = Some("a snake_case name like message_status".into());
            } else if name == "webhook" && events.webhook.is_some() {
                let d = self.error(
                    &path,
                    "webhook `webhook` clashes with the functions of `events.webhook`",
                );
                d.hint = Some("give it the name of what it carries, like message_status".into());
            }
            let ty_ok = match self.type_ref(&format!("{path}.type"), &w.ty) {
                Some(crate::resolved::Ty::Named(_)) => true,
                // The payload enum holds one named type per webhook (a list would need a name).
                Some(_) => {
                    let d = self.error_at_value(
                        &format!("{path}.type"),
                        format!("webhook payload type `{}` is not a named type", w.ty),
                    );
                    d.expected = Some("the name of an object or union in `types`".into());
                    false
                }
                None => false,
            };
            let encoding = w.encoding.unwrap_or(PayloadEncoding::Json);
            let select = w
                .select
                .as_ref()
                .and_then(|s| self.select(&path, s, &w.ty, ty_ok));
            if w.select.is_none() {
                fallbacks.push(name.clone());
            }
            let signature =
                match w.signature.as_str() {
                    "none" => None,
                    sig => {
                        let found = declared.iter().find(|s| s.name == sig).cloned().or_else(
                            || match sig {
                                "standard_webhooks" => Some(SignatureInfo::standard_webhooks()),
                                "pusher" => Some(SignatureInfo::pusher()),
                                _ => None,
                            },
                        );
                        if found.is_none() && !events.signatures.contains_key(sig) {
                            let mut known: Vec<&str> =
                                events.signatures.keys().map(String::as_str).collect();
                            known.extend(BUILTIN_SIGNATURES);
                            known.push("none");
                            let hint = did_you_mean(sig, known.iter().copied())
                                .map(|h| format!("did you mean `{h}`?"));
                            let d = self.error_at_value(
                                &format!("{path}.signature"),
                                format!("unknown signature scheme `{sig}`"),
                            );
                            d.expected = Some(format!(
                                "one of {}, or a scheme declared under `events.signatures`",
                                known.join(", ")
                            ));
                            d.hint = hint;
                        }
                        found
                    }
                };
            if let Some(env) = &w.secret_env {
                self.env_var(&format!("{path}.secret_env"), env);
            }
            let secret_env = w
                .secret_env
                .clone()
                .or_else(|| signature.as_ref().and_then(|s| s.secret_env.clone()));
            if signature.is_some() && secret_env.is_none() {
                let d = self.error(
                    &path,
                    format!(
                        "signed webhook `{name}` needs `secret_env`: where the signing secret is read from"
                    ),
                );
                d.expected = Some(
                    "secret_env here or on its signature scheme, like COMMS_<SERVICE>_WEBHOOK_SECRET"
                        .into(),
                );
            }
            if let Some(s) = &signature
                && !used.iter().any(|u| u.name == s.name)
            {
                used.push(s.clone());
            }
            hooks.push(WebhookTypeInfo {
                name: name.clone(),
                ty: w.ty.clone(),
                encoding,
                select,
                signature: signature.map(|s| s.name),
                secret_env,
                doc: w.doc.clone(),
                origin: Origin {
                    source,
                    note: w.note.clone().or_else(|| events.note.clone()),
                    conflict: w.conflict.clone(),
                },
            });
        }
        if fallbacks.len() > 1 {
            let d = self.error(
                &format!("events.webhooks.{}", fallbacks[1]),
                format!(
                    "webhooks `{}` have no `select`: only one payload type can take what the others do not",
                    fallbacks.join("`, `")
                ),
            );
            d.expected = Some(
                "select: { header: X-Event, equals: status }, { field: type, equals: status } or { path: /hooks/status }"
                    .into(),
            );
        }
        if !events.webhooks.is_empty() && spec.types.contains_key(PAYLOAD_ENUM) {
            let d = self.error(
                &format!("types.{PAYLOAD_ENUM}"),
                format!("type name `{PAYLOAD_ENUM}` is taken by the enum of `events.webhooks`"),
            );
            d.hint = Some("rename the type".into());
        }
        // Every declared scheme is kept (the exports describe it), used ones first.
        for s in declared {
            if !used.iter().any(|u| u.name == s.name) {
                used.push(s);
            }
        }
        (hooks, used)
    }

    fn select(
        &mut self,
        path: &str,
        s: &crate::model::WebhookSelect,
        ty: &str,
        ty_ok: bool,
    ) -> Option<Select<Owned>> {
        let path = format!("{path}.select");
        let given = [s.header.is_some(), s.field.is_some(), s.path.is_some()]
            .iter()
            .filter(|g| **g)
            .count();
        if given != 1 {
            let d = self.error(
                &path,
                "a `select` names exactly one of `header`, `field` or `path`",
            );
            d.expected = Some(
                "{ header: X-Event, equals: status }, { field: type, equals: status } or { path: /hooks/status }"
                    .into(),
            );
            return None;
        }
        if let Some(p) = &s.path {
            if !p.starts_with('/') || p.contains(['?', '#']) {
                let d = self.error_at_value(
                    &format!("{path}.path"),
                    format!("`{p}` is not a request path"),
                );
                d.expected = Some("a path starting with `/`, without a query".into());
            }
            if s.equals.is_some() {
                self.error(
                    &format!("{path}.equals"),
                    "`equals` goes with `header` or `field`, not `path`",
                );
            }
            return Some(Select::Path(p.clone()));
        }
        if let Some(h) = &s.header {
            if h.is_empty()
                || !h
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            {
                let d = self.error_at_value(
                    &format!("{path}.header"),
                    format!("`{h}` is not a header name"),
                );
                d.expected = Some("letters, digits and `-`, like X-Event-Type".into());
            }
            return Some(Select::Header {
                name: h.clone(),
                equals: s.equals.clone(),
            });
        }
        let field = s.field.clone().unwrap_or_default();
        let first = field.split('.').next().unwrap_or_default();
        if ty_ok && !self.type_has_field(ty, first, 0) {
            let mut known = Vec::new();
            self.fields_of(ty, &mut known, 0);
            let hint = did_you_mean(first, known.iter().map(String::as_str))
                .map(|h| format!("did you mean `{h}`?"));
            let d = self.error_at_value(
                &format!("{path}.field"),
                format!("`{first}` is not a field of `{ty}`"),
            );
            d.expected = Some(if known.is_empty() {
                format!("a field of `{ty}`")
            } else {
                format!("one of {}", known.join(", "))
            });
            d.hint = hint;
        }
        Some(Select::Field {
            name: field,
            equals: s.equals.clone(),
        })
    }

    /// Wire names of a type's top-level fields: an object's fields; a union's tag and its
    /// variants' fields.
    fn fields_of(&self, ty: &str, out: &mut Vec<String>, depth: usize) {
        let Some(def) = self.spec.types.get(ty) else {
            return;
        };
        if depth > 8 {
            return;
        }
        if let Some(fields) = &def.fields {
            out.extend(fields.keys().cloned());
        }
        if let Some(tag) = &def.tag {
            out.push(tag.clone());
        }
        if let Some(content) = &def.content {
            out.push(content.clone());
        } else if let Some(variants) = &def.variants {
            for v in variants.values() {
                if let Some(t) = &v.ty {
                    self.fields_of(t, out, depth + 1);
                }
            }
        }
    }

    fn type_has_field(&self, ty: &str, field: &str, depth: usize) -> bool {
        let mut all = Vec::new();
        self.fields_of(ty, &mut all, depth);
        all.iter().any(|f| f == field)
    }

    fn signature_def(
        &mut self,
        name: &str,
        def: &crate::model::SignatureDef,
    ) -> Option<SignatureInfo> {
        let path = format!("events.signatures.{name}");
        self.require_source(
            &path,
            def.source
                .or(self.spec.events.as_ref().and_then(|e| e.source)),
        );
        let mut ok = true;
        if !is_snake(name) {
            let d = self.error(
                &path,
                format!("signature scheme `{name}` is not a snake_case name"),
            );
            d.expected = Some("a snake_case name like twilio".into());
            ok = false;
        } else if BUILTIN_SIGNATURES.contains(&name) || name == "none" {
            let d = self.error(&path, format!("`{name}` is a built-in signature name"));
            d.hint =
                Some("use it directly as a webhook's `signature`, or choose another name".into());
            ok = false;
        }
        if def.header.is_empty()
            || !def
                .header
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            let d = self.error_at_value(
                &format!("{path}.header"),
                format!("`{}` is not a header name", def.header),
            );
            d.expected = Some("letters, digits and `-`, like X-Signature".into());
            ok = false;
        }
        let headers = def.headers.as_ref();
        let id_header = headers.and_then(|h| h.id.clone());
        let timestamp_header = headers.and_then(|h| h.timestamp.clone());
        let over = match (def.over, &def.template) {
            (SignedOver::Template, Some(t)) => {
                ok &= self.template(&path, t, id_header.is_some(), timestamp_header.is_some());
                SignedContent::Template(t.clone())
            }
            (SignedOver::Template, None) => {
                let d = self.error(&path, "`over: template` needs a `template`");
                d.expected = Some("template: \"{id}.{timestamp}.{body}\"".into());
                ok = false;
                SignedContent::RawBody
            }
            (other, Some(_)) => {
                let d = self.error(
                    &format!("{path}.template"),
                    "a `template` is only read with `over: template`",
                );
                d.hint = Some("set `over: template`, or remove `template`".into());
                ok = false;
                match other {
                    SignedOver::UrlSortedParams => SignedContent::UrlSortedParams,
                    _ => SignedContent::RawBody,
                }
            }
            (SignedOver::RawBody, None) => SignedContent::RawBody,
            (SignedOver::UrlSortedParams, None) => SignedContent::UrlSortedParams,
        };
        if def.tolerance_s.is_some() && timestamp_header.is_none() {
            let d = self.error(
                &format!("{path}.tolerance_s"),
                "`tolerance_s` needs the header the timestamp comes from",
            );
            d.expected = Some("headers: { timestamp: X-Timestamp }".into());
            ok = false;
        }
        if def.tolerance_s == Some(0) {
            self.error_at_value(
                &format!("{path}.tolerance_s"),
                "a tolerance of 0 s refuses every delivery",
            );
            ok = false;
        }
        let separator = match def.separator.as_deref() {
            None => None,
            Some(s) => {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some(c),
                    _ => {
                        let d = self.error_at_value(
                            &format!("{path}.separator"),
                            format!("`{s}` is not one character"),
                        );
                        d.expected = Some("one character, like \" \" or \",\"".into());
                        ok = false;
                        None
                    }
                }
            }
        };
        for (key, header) in [("id", &id_header), ("timestamp", &timestamp_header)] {
            if let Some(h) = header
                && (h.is_empty()
                    || !h
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
            {
                self.error_at_value(
                    &format!("{path}.headers.{key}"),
                    format!("`{h}` is not a header name"),
                );
                ok = false;
            }
        }
        if let Some(env) = &def.secret_env {
            self.env_var(&format!("{path}.secret_env"), env);
        }
        if def.secret_prefix.is_some() && def.secret_format != Some(SecretKind::Base64) {
            let d = self.error(
                &format!("{path}.secret_prefix"),
                "`secret_prefix` is stripped before base64 decoding: it needs `secret_format: base64`",
            );
            d.hint = Some("add `secret_format: base64`, or remove `secret_prefix`".into());
            ok = false;
        }
        ok.then(|| SignatureInfo {
            name: name.to_owned(),
            builtin: false,
            header: def.header.clone(),
            algorithm: def.algorithm,
            over,
            encoding: def.encoding.unwrap_or(SignatureEncoding::Base64),
            prefix: def.prefix.clone().unwrap_or_default(),
            separator,
            id_header,
            timestamp_header,
            tolerance_s: def.tolerance_s,
            secret_format: def.secret_format.unwrap_or(SecretKind::Text),
            secret_prefix: def.secret_prefix.clone().unwrap_or_default(),
            secret_env: def.secret_env.clone(),
            doc: def.doc.clone(),
        })
    }

    /// Checks a template's placeholders: known ones, with the headers they read.
    fn template(&mut self, path: &str, template: &str, has_id: bool, has_ts: bool) -> bool {
        let at = format!("{path}.template");
        let mut rest = template;
        let mut seen = BTreeSet::new();
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                self.error_at_value(&at, format!("unclosed `{{` in `{template}`"));
                return false;
            };
            let name = &after[..close];
            seen.insert(name.to_owned());
            rest = &after[close + 1..];
        }
        let mut ok = true;
        for name in &seen {
            if !PLACEHOLDERS.contains(&name.as_str()) {
                let hint =
                    did_you_mean(name, PLACEHOLDERS).map(|h| format!("did you mean `{{{h}}}`?"));
                let d = self.error_at_value(
                    &at,
                    format!("unknown placeholder `{{{name}}}` in the template"),
                );
                d.expected = Some("{id}, {timestamp}, {body} or {url}".into());
                d.hint = hint;
                ok = false;
            }
        }
        for (name, has, key) in [("id", has_id, "id"), ("timestamp", has_ts, "timestamp")] {
            if seen.contains(name) && !has {
                let d = self.error_at_value(
                    &at,
                    format!(
                        "the template signs `{{{name}}}` but `headers` names no `{key}` header"
                    ),
                );
                d.expected = Some(format!(
                    "headers: {{ {key}: X-Webhook-{} }}",
                    crate::names::pascal(key)
                ));
                ok = false;
            }
        }
        ok
    }
}
