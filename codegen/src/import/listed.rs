//! Which operations answer lists, for the fidelity report: paged (a `pagination`), or why
//! not; counted as the import report's text counts them.

use crate::resolved::{Service, Ty, TypeKind};

/// The document pointer in an imported item's note (`imported from doc.json#/paths/...`).
pub(super) fn note_pointer(note: Option<&str>) -> Option<&str> {
    let note = note?;
    note.strip_prefix(super::IMPORTED)
        .and_then(|rest| rest.split_once('#'))
        .map(|(_, pointer)| pointer)
}

/// Every list operation: how many are paged (a `pagination`), and the pointer of each other
/// one with why not.
pub(super) fn lists(service: &Service) -> (usize, Vec<(String, String)>) {
    let mut paged = 0;
    let mut unpaged = Vec::new();
    for op in &service.operations {
        if op.method != crate::model::Method::Get {
            continue;
        }
        let pointer = note_pointer(op.note.as_deref())
            .map_or_else(|| format!("operations.{}", op.name), |p| format!("#{p}"));
        if op.pagination.is_some() {
            paged += 1;
            continue;
        }
        let reason = match &op.response {
            Some(Ty::List(_)) => {
                "answers a bare array without an offset and page size (or page number and size) \
                 query parameter pair, and documents no `Link` header"
            }
            Some(Ty::Named(n)) => {
                // A list of records (a server's list of token strings is not a list answer),
                // or one inside a HAL `_embedded` object.
                // The importer's own test (`direct_items`): the one list of records, or the
                // one named as the items; several unnamed ones (a message's recipients and its
                // events) are fields of one record.
                let records = |name: &str| {
                    service.types.iter().any(|t| {
                        t.name == name
                            && matches!(&t.kind, TypeKind::Object(fields) if {
                                let lists: Vec<_> = fields
                                    .iter()
                                    .filter(|f| matches!(&f.ty, Ty::List(item) if !item.is_scalar()))
                                    .collect();
                                lists.len() == 1
                                    || lists.iter().any(|f| {
                                        super::pagination::ITEMS_NAMES
                                            .contains(&f.wire.to_ascii_lowercase().as_str())
                                    })
                            })
                    })
                };
                let embedded = service.types.iter().any(|t| {
                    &t.name == n
                        && matches!(&t.kind, TypeKind::Object(fields)
                            if fields.iter().any(|f| f.wire == "_embedded"
                                && matches!(&f.ty, Ty::Named(inner) if records(inner))))
                });
                // One of several lists (Ably's `/channels`: the channels' details, or their
                // names), which no page style reads.
                let lists_of_one_kind = service.types.iter().any(|t| {
                    &t.name == n
                        && matches!(&t.kind, TypeKind::Untagged { variants }
                        if !variants.is_empty()
                            && variants.iter().all(|v| {
                                v.ty.as_deref().is_some_and(|t| t.starts_with("list<"))
                            }))
                });
                let has_list = records(n) || embedded || lists_of_one_kind;
                if !has_list {
                    continue;
                }
                // An item with a list field, addressed by its id, is not a list.
                if op.path.ends_with('}') {
                    continue;
                }
                if lists_of_one_kind {
                    "answers one of several lists (an untagged union of arrays), which no page \
                     style reads: the page shows no next link"
                } else {
                    "the page shows no next link, token, cursor, total or page count with the \
                     query parameter that goes with it, and the operation takes no offset with a \
                     page size"
                }
            }
            _ => continue,
        };
        unpaged.push((pointer, reason.to_owned()));
    }
    (paged, unpaged)
}
