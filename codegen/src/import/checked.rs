//! The imported spec checked before it is handed out: items the checker refuses are dropped
//! and reported, fields are made to agree with the document's own examples.

use super::yaml::{self, Node};
use super::{IMPORTED, ImportError, MAX_CHECK_ROUNDS, Report};
use crate::import::Finding;
use crate::import::fidelity::FieldEvidence;
use crate::import::interpret::Disagreement;

/// Follows the document's own examples where they disagree with a field's schema (see
/// [`Disagreement`]): a field sent as another JSON type is typed `json` (its constraints, which
/// applied to the scalar, go); a date-time written otherwise than RFC 3339 is text; a required
/// field an example leaves out is optional. Each change
/// is reported with the example that shows it; whether any field changed.
pub(super) fn follow_examples(
    spec: &mut Node,
    evidence: &[FieldEvidence],
    report: &mut Report,
) -> bool {
    let mut changed = false;
    for e in evidence {
        let (ty, field) = (&e.ty, &e.field);
        // Only what the import wrote: a hand-written type keeps its field.
        if !spec
            .get("types")
            .and_then(|t| t.get(ty))
            .is_some_and(is_imported)
        {
            continue;
        }
        let Some(node) = spec
            .get_mut("types")
            .and_then(|t| t.get_mut(ty))
            .and_then(|t| t.get_mut("fields"))
            .and_then(|f| f.get_mut(field))
        else {
            continue;
        };
        let reason = match e.how {
            Disagreement::OtherJsonType => {
                let was = node
                    .get("type")
                    .and_then(Node::as_str)
                    .unwrap_or_default()
                    .to_owned();
                if was == "json" {
                    continue;
                }
                let mut kept = Node::map();
                kept.set("type", Node::str("json"));
                for key in ["required", "read_only", "write_only", "rust_name", "doc"] {
                    if let Some(v) = node.get(key) {
                        kept.set(key, v.clone());
                    }
                }
                *node = kept;
                format!(
                    "this example sends `{field}` of `{ty}` as another JSON type than its schema's `{was}`; typed as json"
                )
            }
            Disagreement::NotRfc3339 => {
                if node.get("type").and_then(Node::as_str) != Some("datetime") {
                    continue;
                }
                if let Node::Map(m) = node {
                    m.insert("type".to_owned(), Node::str("string"));
                    m.shift_remove("format");
                }
                format!(
                    "this example writes `{field}` of `{ty}` otherwise than as an RFC 3339 date-time; typed as text"
                )
            }
            Disagreement::Null => {
                if !matches!(node.get("required"), Some(Node::Bool(true)))
                    || matches!(node.get("nullable"), Some(Node::Bool(true)))
                {
                    continue;
                }
                if let Node::Map(m) = node {
                    m.insert("nullable".to_owned(), Node::Bool(true));
                }
                format!(
                    "this example writes `null` for `{field}` of `{ty}`, which its schema requires; imported as required and nullable"
                )
            }
            Disagreement::LeftOut => {
                if !matches!(node.get("required"), Some(Node::Bool(true))) {
                    continue;
                }
                if let Node::Map(m) = node {
                    m.shift_remove("required");
                }
                format!(
                    "this example leaves out `{field}` of `{ty}`, which its schema requires; imported as optional"
                )
            }
        };
        changed = true;
        report.approximated.push(Finding {
            pointer: e.example.clone(),
            reason,
            detail: None,
        });
    }
    changed
}

/// Whether an item was written by the importer: `source: imported`, or (specs imported before
/// that source existed) `assumed` with the importer's note.
pub(crate) fn is_imported(item: &Node) -> bool {
    let source = item.get("source").and_then(Node::as_str);
    let noted = item
        .get("note")
        .and_then(Node::as_str)
        .is_some_and(|n| n.starts_with(IMPORTED));
    source == Some("imported") || (source == Some("assumed") && noted)
}

/// Writes the spec and checks it; items the checker refuses are dropped (and reported) until
/// it passes. Refusals of anything the importer cannot drop end the import.
pub(super) fn checked(
    spec: &mut Node,
    service: &str,
    report: &mut Report,
) -> Result<(String, crate::check::Service), ImportError> {
    let display = format!("{service}.yaml");
    for _ in 0..MAX_CHECK_ROUNDS {
        let (text, items) = yaml::write(spec);
        let result = crate::load::load_str(&display, &text).and_then(|l| crate::check::check(&l));
        let diagnostics = match result {
            Ok(checked) => return Ok((text, checked)),
            Err(d) => d,
        };
        let mut dropped = false;
        for d in &diagnostics.0 {
            let owner = items
                .iter()
                .filter(|(line, _, _)| *line <= d.line)
                .max_by_key(|(line, _, _)| *line);
            let Some((_, section, name)) = owner else {
                return Err(ImportError::Refused(diagnostics.to_string()));
            };
            // `events` and `errors` are dropped whole (their paths refer to each other's keys).
            let whole = matches!(section.as_str(), "events" | "errors");
            let droppable = matches!(section.as_str(), "types" | "operations") || whole;
            let item = spec.get(section).and_then(|s| s.get(name));
            let imported = item.is_some_and(is_imported)
                || (whole && spec.get(section).is_some_and(is_imported));
            if !droppable || !imported {
                return Err(ImportError::Refused(diagnostics.to_string()));
            }
            let pointer = item
                .filter(|_| !whole)
                .or(spec.get(section))
                .and_then(|i| i.get("note"))
                .and_then(Node::as_str)
                .and_then(|n| n.split_once('#'))
                .map_or_else(|| format!("{section}.{name}"), |(_, p)| format!("#{p}"));
            report.skipped.push(Finding {
                pointer,
                reason: "refused by the checker".into(),
                detail: Some(d.message.clone()),
            });
            if whole {
                if let Node::Map(m) = spec {
                    m.shift_remove(section.as_str());
                }
            } else if let Some(Node::Map(m)) = spec.get_mut(section) {
                m.shift_remove(name.as_str());
            }
            dropped = true;
        }
        if !dropped {
            return Err(ImportError::Refused(diagnostics.to_string()));
        }
    }
    Err(ImportError::Refused(format!(
        "still refused after {MAX_CHECK_ROUNDS} rounds of dropping refused items"
    )))
}
