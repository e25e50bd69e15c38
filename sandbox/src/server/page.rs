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
/// direction of paging. An unknown cursor is a 422 naming the parameter.
///
/// ```
/// use comms_sandbox::server::{PageRequest, paginate};
/// let items = ["a", "b", "c", "d"];
/// let (page, more) = paginate(&items, |i| i, PageRequest { limit: Some(2), after: Some("a"), before: None })?;
/// assert_eq!((page, more), (vec!["b", "c"], true));
/// let (page, more) = paginate(&items, |i| i, PageRequest { limit: Some(2), after: None, before: Some("b") })?;
/// assert_eq!((page, more), (vec!["a"], false));
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
            .ok_or_else(|| ServerError::validation(param, format!("unknown cursor `{value}`")))
    };
    if let Some(after) = request.after {
        let start = position("after", after)? + 1;
        let end = (start + limit).min(items.len());
        return Ok((items[start..end].to_vec(), end < items.len()));
    }
    if let Some(before) = request.before {
        let end = position("before", before)?;
        let start = end.saturating_sub(limit);
        return Ok((items[start..end].to_vec(), start > 0));
    }
    let end = limit.min(items.len());
    Ok((items[..end].to_vec(), end < items.len()))
}
