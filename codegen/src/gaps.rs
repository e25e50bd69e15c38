//! The gaps report: every item of every spec that is assumed or not shown, with its location,
//! so a maintainer can see what is left to learn and fill it in. `check` collects the items
//! ([`items`]) into the resolved model; [`report`] reads only that.

use std::fmt::Write as _;

use crate::load::Loaded;
use crate::model::{Provenance, Source};
pub use crate::resolved::GapItem;
use crate::resolved::Service;

/// Every item of a spec file with its provenance, in file order (`check` calls this once per
/// file and keeps the result in [`crate::check::Service::gaps`]). Nested items (fields, values,
/// variants, parameters) are listed only when they differ from their parent.
pub fn items(file: &Loaded) -> Vec<GapItem> {
    let spec = &file.spec;
    let mut out = Vec::new();
    let mut add = |path: String, p: Provenance<'_>, inherited: Option<Source>| {
        let source = p.source.or(inherited).unwrap_or(Source::NotShown);
        if p.source.is_none() && inherited.is_some() && p.note.is_none() && p.conflict.is_none() {
            return;
        }
        out.push(GapItem {
            position: file.locations.key(&path),
            path,
            source,
            note: p.note.map(str::to_owned),
            conflict: p.conflict.map(str::to_owned),
        });
    };
    let s = &spec.service;
    add("service".into(), s.provenance(), None);
    if let Some(p) = &s.pricing {
        add("service.pricing".into(), p.provenance(), None);
    }
    if let Some(p) = &s.style {
        add("service.style".into(), p.provenance(), None);
    }
    if let Some(p) = &s.version {
        add("service.version".into(), p.provenance(), None);
    }
    add("service.base_url".into(), s.base_url.provenance(), None);
    for (n, c) in &spec.credentials {
        add(format!("credentials.{n}"), c.provenance(), None);
    }
    for (i, a) in spec.auth.iter().enumerate() {
        add(format!("auth.{i}"), a.provenance(), None);
    }
    if let Some(l) = &spec.limits {
        if let Some(r) = &l.rate {
            add("limits.rate".into(), r.provenance(), None);
        }
        if let Some(h) = &l.headers {
            add("limits.headers".into(), h.provenance(), None);
        }
        for (n, sz) in &l.sizes {
            add(format!("limits.sizes.{n}"), sz.provenance(), None);
        }
    }
    if let Some(r) = &spec.retry {
        add("retry".into(), r.provenance(), None);
    }
    if let Some(t) = &spec.timeouts {
        add("timeouts".into(), t.provenance(), None);
    }
    if let Some(i) = &spec.idempotency {
        add("idempotency".into(), i.provenance(), None);
    }
    if let Some(p) = &spec.pagination {
        add("pagination".into(), p.provenance(), None);
    }
    if let Some(e) = &spec.errors {
        add("errors".into(), e.provenance(), None);
        for (code, c) in &e.codes {
            add(format!("errors.codes.{code}"), c.provenance(), e.source);
        }
    }
    for (n, t) in &spec.types {
        let path = format!("types.{n}");
        add(path.clone(), t.provenance(), None);
        for (f, field) in t.fields.iter().flatten() {
            add(format!("{path}.fields.{f}"), field.provenance(), t.source);
        }
        for (i, v) in t.values.iter().flatten().enumerate() {
            if let crate::model::EnumValue::Documented(d) = v {
                add(format!("{path}.values.{i}"), d.provenance(), t.source);
            }
        }
        for (tag, v) in t.variants.iter().flatten() {
            add(format!("{path}.variants.{tag}"), v.provenance(), t.source);
        }
    }
    for (n, op) in &spec.operations {
        let path = format!("operations.{n}");
        add(path.clone(), op.provenance(), None);
        for (p, param) in op.path_params.iter().chain(&op.query) {
            add(format!("{path}.{p}"), param.provenance(), op.source);
        }
    }
    if let Some(e) = &spec.events {
        add("events".into(), e.provenance(), None);
        if let Some(w) = &e.webhook {
            add("events.webhook".into(), w.provenance(), e.source);
        }
        for (n, w) in &e.webhooks {
            add(format!("events.webhooks.{n}"), w.provenance(), e.source);
        }
        for (n, s) in &e.signatures {
            add(format!("events.signatures.{n}"), s.provenance(), e.source);
        }
    }
    if let Some(w) = &spec.websocket {
        add("websocket".into(), w.provenance(), None);
        if let Some(c) = &w.channel_names {
            add("websocket.channel_names".into(), c.provenance(), w.source);
        }
        if let Some(h) = &w.heartbeat {
            add("websocket.heartbeat".into(), h.provenance(), w.source);
        }
        if let Some(c) = &w.client_events {
            add("websocket.client_events".into(), c.provenance(), w.source);
        }
        for (n, k) in &w.channel_kinds {
            add(
                format!("websocket.channel_kinds.{n}"),
                k.provenance(),
                w.source,
            );
        }
        for (n, m) in &w.messages {
            add(format!("websocket.messages.{n}"), m.provenance(), w.source);
        }
        for (i, c) in w.close_codes.iter().enumerate() {
            add(
                format!("websocket.close_codes.{i}"),
                c.provenance(),
                w.source,
            );
        }
    }
    for (n, g) in &spec.gaps {
        add(format!("gaps.{n}"), g.provenance(), None);
    }
    out
}

/// The Markdown report of every assumed or not-shown item and every seed conflict.
pub fn report(services: &[Service]) -> String {
    let mut md = String::from(
        "# Gaps in the specs\n\nWhat the seed does not give: items we *assumed* (our design), items *not shown* \
         (still unknown), and places where seed facts conflict. Fill a gap by editing the spec: `cargo build` regenerates a client built from it, `tidings-sandbox --spec` serves it as it is.\n",
    );
    for service in services {
        let all = &service.gaps;
        let seed = all.iter().filter(|i| i.source == Source::Seed).count();
        let imported = all.iter().filter(|i| i.source == Source::Imported).count();
        let from_documents = if imported == 0 {
            String::new()
        } else {
            format!(", {imported} imported from the provider's document")
        };
        let _ = write!(
            md,
            "\n## {} (`{}`)\n\n{} items: {} from the seed{from_documents}, {} assumed, {} not shown, {} conflicts.\n",
            service.title(),
            service.file,
            all.len(),
            seed,
            all.iter().filter(|i| i.source == Source::Assumed).count(),
            all.iter().filter(|i| i.source == Source::NotShown).count(),
            all.iter().filter(|i| i.conflict.is_some()).count(),
        );
        for (title, pick) in [
            (
                "Conflicts in the seed",
                (|i: &GapItem| i.conflict.is_some()) as fn(&GapItem) -> bool,
            ),
            ("Not shown", |i: &GapItem| i.source == Source::NotShown),
            ("Assumed", |i: &GapItem| i.source == Source::Assumed),
        ] {
            let picked: Vec<&GapItem> = all.iter().filter(|i| pick(i)).collect();
            if picked.is_empty() {
                continue;
            }
            let _ = write!(md, "\n### {title}\n\n");
            for i in picked {
                let _ = write!(
                    md,
                    "- `{}` ({}:{}:{})",
                    i.path, service.file, i.position.0, i.position.1
                );
                let text = if title.starts_with("Conflicts") {
                    i.conflict.as_deref()
                } else {
                    i.note.as_deref()
                };
                if let Some(t) = text {
                    let _ = write!(
                        md,
                        ": {}",
                        t.split_whitespace().collect::<Vec<_>>().join(" ")
                    );
                }
                md.push('\n');
            }
        }
    }
    md
}
