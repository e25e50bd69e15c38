//! `--merge`: an import laid over an existing spec. Hand-written items (`seed`, or `assumed`
//! without the importer's note) win and get a `conflict:` note where the document differs;
//! items imported before are replaced; `not_shown` items are filled. The same document merged
//! twice gives the same spec.

use indexmap::IndexMap;

use super::yaml::Node;
use super::{Finding, Report, is_imported};

/// Keys that say where an item comes from or describe it, not what it is.
const PROVENANCE: &[&str] = &["source", "note", "conflict", "doc"];

/// How a conflict note starts, so a later merge replaces its own notes and no others.
const CONFLICT_PREFIX: &str = "the import of ";

pub(crate) fn merge(existing: Node, imported: Node, report: &mut Report) -> Result<Node, String> {
    let Node::Map(mut out) = existing else {
        return Err("the spec to merge into is not a YAML mapping".into());
    };
    let Node::Map(imported) = imported else {
        return Err("nothing was imported".into());
    };
    for (section, inode) in imported {
        match section.as_str() {
            "service" => {
                out.entry(section).or_insert(inode);
            }
            "gaps" => {
                let entry = out.entry(section).or_insert_with(Node::map);
                if let (Node::Map(e), Node::Map(i)) = (entry, inode) {
                    for (k, v) in i {
                        e.entry(k).or_insert(v);
                    }
                }
            }
            "credentials" | "types" | "operations" => {
                let entry = out.entry(section.clone()).or_insert_with(Node::map);
                if let (Node::Map(e), Node::Map(i)) = (entry, inode) {
                    for (name, iv) in i {
                        merge_item(e, name, iv, &section, report);
                    }
                }
            }
            "auth" => {
                let entry = out
                    .entry(section.clone())
                    .or_insert_with(|| Node::Seq(Vec::new()));
                if let (Node::Seq(e), Node::Seq(i)) = (entry, inode) {
                    for iv in i {
                        let name = iv.get("name").and_then(Node::as_str).map(str::to_owned);
                        match e
                            .iter()
                            .position(|ev| ev.get("name").and_then(Node::as_str) == name.as_deref())
                        {
                            None => e.push(iv),
                            Some(pos) => {
                                if replaceable(&e[pos]) {
                                    e[pos] = iv;
                                } else {
                                    let label = format!("auth.{}", name.unwrap_or_default());
                                    note_conflict(&mut e[pos], &iv, &label, report);
                                }
                            }
                        }
                    }
                }
            }
            "limits" => {
                // Not an item itself: its rate, headers and sizes are.
                let entry = out.entry(section.clone()).or_insert_with(Node::map);
                if let (Node::Map(e), Node::Map(i)) = (entry, inode) {
                    for (name, iv) in i {
                        merge_item(e, name, iv, &section, report);
                    }
                }
            }
            _ => match out.get_mut(&section) {
                None => {
                    out.insert(section, inode);
                }
                Some(ev) if replaceable(ev) => *ev = inode,
                Some(ev) => {
                    let label = section.clone();
                    note_conflict(ev, &inode, &label, report);
                }
            },
        }
    }
    Ok(Node::Map(out))
}

/// Imported before, or still unknown: the document may say more.
fn replaceable(item: &Node) -> bool {
    is_imported(item) || item.get("source").and_then(Node::as_str) == Some("not_shown")
}

fn merge_item(
    section: &mut IndexMap<String, Node>,
    name: String,
    iv: Node,
    label: &str,
    report: &mut Report,
) {
    match section.get_mut(&name) {
        None => {
            section.insert(name, iv);
        }
        Some(ev) if replaceable(ev) => *ev = iv,
        Some(ev) => note_conflict(ev, &iv, &format!("{label}.{name}"), report),
    }
}

/// Puts a conflict note on a hand-written item where the import differs from it.
fn note_conflict(ev: &mut Node, iv: &Node, label: &str, report: &mut Report) {
    // The document says nothing about it: nothing to disagree with.
    if iv.get("source").and_then(Node::as_str) == Some("not_shown") {
        return;
    }
    let mut diffs = Vec::new();
    differences(ev, iv, "", &mut diffs);
    let pointer = iv
        .get("note")
        .and_then(Node::as_str)
        .and_then(|n| n.strip_prefix(super::IMPORTED))
        .unwrap_or(label)
        .to_owned();
    // Earlier notes of this kind are replaced; the seed's own conflicts stay.
    let kept: Vec<String> = ev
        .get("conflict")
        .and_then(Node::as_str)
        .map(|c| {
            c.split("; ")
                .filter(|p| !p.starts_with(CONFLICT_PREFIX))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let mut parts = kept;
    if !diffs.is_empty() {
        let shown: Vec<&str> = diffs.iter().take(6).map(String::as_str).collect();
        let more = diffs.len().saturating_sub(shown.len());
        let mut text = format!(
            "{CONFLICT_PREFIX}{pointer} differs in: {}",
            shown.join(", ")
        );
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
        report.conflicts.push(Finding {
            pointer: pointer
                .split_once('#')
                .map_or_else(|| pointer.clone(), |(_, p)| format!("#{p}")),
            reason: format!("hand-written `{label}` kept; the document differs"),
            detail: Some(shown.join(", ")),
        });
        parts.push(text);
    }
    if parts.is_empty() {
        if let Node::Map(m) = ev {
            m.shift_remove("conflict");
        }
    } else {
        ev.set("conflict", Node::str(parts.join("; ")));
    }
}

/// Paths (`fields.to.type`) where two items differ, provenance and docs aside.
fn differences(a: &Node, b: &Node, at: &str, out: &mut Vec<String>) {
    let join = |k: &str| {
        if at.is_empty() {
            k.to_owned()
        } else {
            format!("{at}.{k}")
        }
    };
    match (a, b) {
        (Node::Map(x), Node::Map(y)) => {
            for (k, v) in x {
                if PROVENANCE.contains(&k.as_str()) {
                    continue;
                }
                match y.get(k) {
                    Some(w) => differences(v, w, &join(k), out),
                    None => out.push(join(k)),
                }
            }
            for k in y.keys() {
                if !PROVENANCE.contains(&k.as_str()) && !x.contains_key(k) {
                    out.push(join(k));
                }
            }
        }
        (x, y) if x != y => out.push(if at.is_empty() {
            "(value)".into()
        } else {
            at.to_owned()
        }),
        _ => {}
    }
}
