//! Cursor pagination as the specs describe it: `limit`, `after`, `before` over a list in
//! listing order, the cursor being each item's id.

use super::ServerError;

/// Page size when a request gives no `limit`.
pub const DEFAULT_PAGE_LIMIT: usize = 20;

/// The cursor parameters of a list request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageRequest<'a> {
    /// Page size; [`DEFAULT_PAGE_LIMIT`] when absent. Its range is checked by the spec.
    pub limit: Option<i64>,
    /// Items after this cursor.
    pub after: Option<&'a str>,
    /// Items before this cursor.
    pub before: Option<&'a str>,
}

/// One page of `items` (already in listing order): the items and whether more follow in the
/// direction of paging. An empty cursor (`?after=`) is no cursor; a cursor naming no item is a
/// 404 `not_found` naming the parameter (the request is well-formed, the item it points at does
/// not exist).
///
/// ```
/// use comms_sandbox::server::{PageRequest, paginate};
/// let items = ["a", "b", "c", "d"];
/// let (page, more) = paginate(&items, |i| i, PageRequest { limit: Some(2), after: Some("a"), before: None })?;
/// assert_eq!((page, more), (vec!["b", "c"], true));
/// let (page, more) = paginate(&items, |i| i, PageRequest { limit: Some(2), after: None, before: Some("b") })?;
/// assert_eq!((page, more), (vec!["a"], false));
/// let (page, _) = paginate(&items, |i| i, PageRequest { limit: Some(1), after: Some(""), before: None })?;
/// assert_eq!(page, vec!["a"]);
/// let unknown = paginate(&items, |i| i, PageRequest { limit: None, after: Some("z"), before: None });
/// assert_eq!(unknown.unwrap_err().status(), 404);
/// # Ok::<(), comms_sandbox::server::ServerError>(())
/// ```
pub fn paginate<T: Clone>(
    items: &[T],
    cursor: impl Fn(&T) -> &str,
    request: PageRequest<'_>,
) -> Result<(Vec<T>, bool), ServerError> {
    let limit = request.limit.map_or(DEFAULT_PAGE_LIMIT, |l| {
        usize::try_from(l.max(1)).unwrap_or(1)
    });
    let position = |param: &str, value: &str| {
        items
            .iter()
            .position(|item| cursor(item) == value)
            .ok_or_else(|| {
                ServerError::not_found(format!("the item of cursor `{value}`")).with_param(param)
            })
    };
    if let Some(after) = request.after.filter(|c| !c.is_empty()) {
        let start = position("after", after)? + 1;
        let end = (start + limit).min(items.len());
        return Ok((items[start..end].to_vec(), end < items.len()));
    }
    if let Some(before) = request.before.filter(|c| !c.is_empty()) {
        let end = position("before", before)?;
        let start = end.saturating_sub(limit);
        return Ok((items[start..end].to_vec(), start > 0));
    }
    let end = limit.min(items.len());
    Ok((items[..end].to_vec(), end < items.len()))
}
