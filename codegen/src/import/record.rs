//! What an import records in the spec it writes, for the next `--merge`: the `--include`
//! filters (`service.import.include`).

use super::yaml::Node;

/// The `--include` filters a spec recorded (`service.import.include`).
pub(super) fn recorded_include(spec: &Node) -> Vec<String> {
    match spec
        .get("service")
        .and_then(|s| s.get("import"))
        .and_then(|i| i.get("include"))
    {
        Some(Node::Seq(items)) => items
            .iter()
            .filter_map(Node::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// Writes the filters applied into `service.import.include` (so a later `--merge` keeps them),
/// or removes the record when every operation was imported.
pub(super) fn record_include(spec: &mut Node, include: &[String]) {
    let Some(Node::Map(service)) = spec.get_mut("service") else {
        return;
    };
    if include.is_empty() {
        service.shift_remove("import");
        return;
    }
    let mut record = Node::map();
    record.set(
        "include",
        Node::Seq(include.iter().map(|f| Node::str(f.as_str())).collect()),
    );
    // After the base URL, before the provenance keys, where a reader of the spec looks.
    service.shift_remove("import");
    let at = service.get_index_of("source").unwrap_or(service.len());
    service.shift_insert(at, "import".to_owned(), record);
}
