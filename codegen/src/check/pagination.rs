//! Checking pagination: the service's `pagination` section and an operation's own, the
//! style's keys, the page type's fields they name, the query parameters they send, and the
//! type of a paged operation's stream items.

use super::Checker;
use crate::model::{Operation, PageKind, Pagination};
use crate::names::did_you_mean;
use crate::resolved::{PaginationInfo, Ty, defaults};
use tidings_spec::PageStyle as Style;

impl Checker<'_> {
    /// The service's `pagination` section, checked once (its mistakes are reported here, not
    /// again at every operation that uses it).
    pub(super) fn service_pagination(&mut self) -> Option<PaginationInfo> {
        let p = self.spec.pagination.as_ref()?;
        let mut info = self.pagination("pagination", p)?;
        let top_level = |f: &str| !f.contains('.');
        info.generated_page = matches!(&info.style,
            Style::Cursor { has_more, .. } if top_level(has_more))
            && top_level(&info.items_field);
        Some(info)
    }

    /// One `pagination` section: the style's fields present, no field of another style.
    fn pagination(&mut self, path: &str, p: &Pagination) -> Option<PaginationInfo> {
        let style = p.style.unwrap_or(PageKind::Cursor);
        let given: [(&str, bool); 15] = [
            ("limit_param", p.limit_param.is_some()),
            ("max_limit", p.max_limit.is_some()),
            ("after_param", p.after_param.is_some()),
            ("before_param", p.before_param.is_some()),
            ("has_more_field", p.has_more_field.is_some()),
            ("cursor_field", p.cursor_field.is_some()),
            ("token_field", p.token_field.is_some()),
            ("token_param", p.token_param.is_some()),
            ("next_field", p.next_field.is_some()),
            ("offset_param", p.offset_param.is_some()),
            ("total_field", p.total_field.is_some()),
            ("page_param", p.page_param.is_some()),
            ("size_param", p.size_param.is_some()),
            ("first_page", p.first_page.is_some()),
            ("total_pages_field", p.total_pages_field.is_some()),
        ];
        let (required, optional): (&[&str], &[&str]) = match style {
            PageKind::Cursor => (
                &[
                    "limit_param",
                    "after_param",
                    "has_more_field",
                    "cursor_field",
                ],
                &["max_limit", "before_param"],
            ),
            PageKind::Token => (
                &["token_field", "token_param"],
                &["limit_param", "max_limit"],
            ),
            PageKind::NextUrl => (&["next_field"], &["limit_param", "max_limit"]),
            PageKind::LinkHeader => (&[], &["limit_param", "max_limit"]),
            PageKind::Offset => (
                &["offset_param"],
                &["limit_param", "max_limit", "total_field"],
            ),
            PageKind::Page => (
                &["page_param"],
                &["size_param", "first_page", "total_pages_field", "max_limit"],
            ),
        };
        let mut ok = true;
        for (key, present) in given {
            if present && !required.contains(&key) && !optional.contains(&key) {
                ok = false;
                let d = self.error(
                    &format!("{path}.{key}"),
                    format!(
                        "`{key}` is not used by the `{}` pagination style",
                        style.name()
                    ),
                );
                let mut keys: Vec<&str> = required.iter().chain(optional).copied().collect();
                keys.insert(0, "items_field");
                d.expected = Some(format!(
                    "the keys of `{}`: {}",
                    style.name(),
                    keys.join(", ")
                ));
            }
        }
        for key in required {
            if !given.iter().any(|(k, present)| k == key && *present) {
                ok = false;
                let d = self.error(
                    path,
                    format!("the `{}` pagination style needs `{key}`", style.name()),
                );
                d.expected = Some(format!("{key}: ..."));
            }
        }
        if let Some(first) = p.first_page
            && first > 1
        {
            ok = false;
            let d = self.error_at_value(
                &format!("{path}.first_page"),
                format!("pages are counted from 0 or 1, not {first}"),
            );
            d.expected = Some("0 or 1".into());
        }
        for (key, value) in [
            ("items_field", Some(&p.items_field)),
            ("has_more_field", p.has_more_field.as_ref()),
            ("token_field", p.token_field.as_ref()),
            ("next_field", p.next_field.as_ref()),
            ("total_field", p.total_field.as_ref()),
            ("total_pages_field", p.total_pages_field.as_ref()),
        ] {
            // An empty `items_field` is a page that is the array itself (`link_header` on a
            // bare array; the operation's response says whether it is one).
            let bare_items = key == "items_field"
                && value.is_some_and(String::is_empty)
                && matches!(
                    style,
                    PageKind::LinkHeader | PageKind::Offset | PageKind::Page
                );
            if let Some(v) = value
                && !bare_items
                && (v.is_empty() || v.split('.').any(str::is_empty))
            {
                ok = false;
                let d = self.error_at_value(
                    &format!("{path}.{key}"),
                    format!("`{v}` is not a field path"),
                );
                d.expected = Some("a field name, or names joined by dots (`meta.next`)".into());
            }
        }
        if !ok {
            return None;
        }
        let s = |v: &Option<String>| v.clone().unwrap_or_default();
        let style = match style {
            PageKind::Cursor => Style::Cursor {
                has_more: s(&p.has_more_field),
                cursor_field: s(&p.cursor_field),
                after_param: s(&p.after_param),
            },
            PageKind::Token => Style::Token {
                token_field: s(&p.token_field),
                token_param: s(&p.token_param),
            },
            PageKind::NextUrl => Style::NextUrl {
                next_field: s(&p.next_field),
            },
            PageKind::LinkHeader => Style::LinkHeader,
            PageKind::Offset => Style::Offset {
                offset_param: s(&p.offset_param),
                limit_param: p.limit_param.clone(),
                total_field: p.total_field.clone(),
            },
            PageKind::Page => Style::Page {
                page_param: s(&p.page_param),
                size_param: p.size_param.clone(),
                first_page: p.first_page.unwrap_or(defaults::FIRST_PAGE),
                total_pages_field: p.total_pages_field.clone(),
            },
        };
        Some(PaginationInfo {
            items_field: p.items_field.clone(),
            limit_param: p.limit_param.clone(),
            style,
            own: path != "pagination",
            generated_page: false,
        })
    }

    /// How an operation pages, and the type of its stream's items: `page<T>` with its own or
    /// the service's `pagination`, or a named page type with its own.
    pub(super) fn op_pagination(
        &mut self,
        path: &str,
        op: &Operation,
        response: Option<&Ty>,
        service_pages: Option<&PaginationInfo>,
    ) -> (Option<PaginationInfo>, Option<Ty>) {
        let own = match &op.pagination {
            Some(p) => match self.pagination(&format!("{path}.pagination"), p) {
                Some(info) => Some(info),
                // Its mistakes are reported; nothing more to say about the operation.
                None => return (None, None),
            },
            None => None,
        };
        match response {
            Some(Ty::Page(item)) => {
                let pages = match own.or_else(|| service_pages.cloned()) {
                    Some(p) => p,
                    None => {
                        let section_broken = self.spec.pagination.is_some()
                            || self.broken.iter().any(|b| b == "pagination");
                        if !section_broken {
                            let d = self.error(
                                &format!("{path}.response"),
                                "`page<T>` needs a `pagination` section",
                            );
                            d.expected = Some("pagination: { limit_param, after_param, items_field, has_more_field, cursor_field, source }".into());
                        }
                        return (None, None);
                    }
                };
                self.page_query(path, &pages, op);
                let Ty::Named(n) = &**item else {
                    self.error_at_value(
                        &format!("{path}.response"),
                        "page items must be a named object type",
                    );
                    return (None, None);
                };
                if self.spec.types.get(n).is_none_or(|t| t.fields.is_none()) {
                    self.error_at_value(
                        &format!("{path}.response"),
                        format!("page items `{n}` must be an object type"),
                    );
                    return (None, None);
                }
                self.cursor_field(path, &pages, n);
                (Some(pages), Some((**item).clone()))
            }
            Some(Ty::Named(page_type)) if own.is_some() => {
                let Some(pages) = own else {
                    return (None, None);
                };
                self.page_query(path, &pages, op);
                let ppath = format!("{path}.pagination");
                let item = match self.field_path(page_type, &pages.items_field) {
                    Ok(Ty::List(item)) => Some(*item),
                    Ok(other) => {
                        self.error_at_value(
                            &format!("{ppath}.items_field"),
                            format!(
                                "`{}` of `{page_type}` is `{other:?}`, not a list",
                                pages.items_field
                            ),
                        );
                        None
                    }
                    Err(message) => {
                        let d = self.error_at_value(&format!("{ppath}.items_field"), message);
                        d.hint = Some(format!("name a `list<T>` field of `{page_type}`"));
                        None
                    }
                };
                let body_fields: Vec<(&str, &String)> = match &pages.style {
                    Style::Cursor { has_more, .. } => vec![("has_more_field", has_more)],
                    Style::Token { token_field, .. } => vec![("token_field", token_field)],
                    Style::NextUrl { next_field } => vec![("next_field", next_field)],
                    Style::LinkHeader => vec![],
                    Style::Offset { total_field, .. } => {
                        total_field.iter().map(|f| ("total_field", f)).collect()
                    }
                    Style::Page {
                        total_pages_field, ..
                    } => total_pages_field
                        .iter()
                        .map(|f| ("total_pages_field", f))
                        .collect(),
                };
                for (key, field) in body_fields {
                    if let Err(message) = self.field_path(page_type, field) {
                        let d = self.error_at_value(&format!("{ppath}.{key}"), message);
                        d.hint = Some(format!("add the field to `{page_type}`, or fix the path"));
                    }
                }
                if let Some(Ty::Named(n)) = &item {
                    self.cursor_field(path, &pages, n);
                }
                (item.is_some().then_some(pages), item)
            }
            // A bare array paged by the `Link` header (RFC 8288), by offset or by page
            // number: the body is the items (and holds no total).
            Some(Ty::List(item))
                if own.as_ref().is_some_and(|p| {
                    matches!(
                        p.style,
                        Style::LinkHeader
                            | Style::Offset {
                                total_field: None,
                                ..
                            }
                            | Style::Page {
                                total_pages_field: None,
                                ..
                            }
                    )
                }) =>
            {
                let Some(pages) = own else {
                    return (None, None);
                };
                if !pages.items_field.is_empty() {
                    let d = self.error_at_value(
                        &format!("{path}.pagination.items_field"),
                        "the answer is an array: its items are the body, so `items_field` is empty",
                    );
                    d.expected = Some("items_field: \"\"".into());
                    return (None, None);
                }
                self.page_query(path, &pages, op);
                (Some(pages), Some((**item).clone()))
            }
            _ => {
                if own.is_some() {
                    let d = self.error(
                        &format!("{path}.pagination"),
                        "`pagination` needs a `page<T>` response or a named page type",
                    );
                    d.expected = Some("response: page<Message>, or response: MessagePage".into());
                }
                (None, None)
            }
        }
    }

    /// The type at a dot path of fields, starting from a named object type.
    fn field_path(&self, start: &str, path: &str) -> Result<Ty, String> {
        let mut ty = Ty::Named(start.to_owned());
        let mut walked = String::new();
        for key in path.split('.') {
            let Ty::Named(name) = &ty else {
                return Err(format!(
                    "`{walked}` is not an object, so it has no field `{key}`"
                ));
            };
            // An object, or an untagged union read through the first variant with the field
            // (Slack's `response_metadata`, one of two objects, one with `next_cursor`).
            let def = self.spec.types.get(name);
            let in_variant = || {
                let def = def.filter(|d| d.untagged)?;
                def.variants.as_ref()?.values().find_map(|v| {
                    let fields = self.spec.types.get(v.ty.as_deref()?)?.fields.as_ref()?;
                    fields.contains_key(key).then_some(fields)
                })
            };
            let fields = def
                .and_then(|t| t.fields.as_ref())
                .or_else(in_variant)
                .ok_or_else(|| {
                    format!("`{name}` is not an object type, so it has no field `{key}`")
                })?;
            let field = fields.get(key).ok_or_else(|| {
                let known: Vec<&str> = fields.keys().map(String::as_str).collect();
                let hint = did_you_mean(key, known.iter().copied())
                    .map(|h| format!(" (did you mean `{h}`?)"))
                    .unwrap_or_default();
                format!("`{name}` has no field `{key}`{hint}")
            })?;
            ty = Ty::parse(&field.ty).map_err(|e| e.to_string())?;
            if !walked.is_empty() {
                walked.push('.');
            }
            walked.push_str(key);
        }
        Ok(ty)
    }

    /// The query parameters a style sends must be declared, `before_param` included (the
    /// operation's own pagination's, else the service's).
    fn page_query(&mut self, path: &str, pages: &PaginationInfo, op: &Operation) {
        let query = &op.query;
        let section = if pages.own {
            op.pagination.as_ref()
        } else {
            self.spec.pagination.as_ref()
        };
        let before = section.and_then(|p| p.before_param.clone());
        let mut needed: Vec<&String> = match &pages.style {
            Style::Cursor { after_param, .. } => {
                let mut v = vec![after_param];
                v.extend(pages.limit_param.as_ref());
                v
            }
            Style::Token { token_param, .. } => vec![token_param],
            Style::NextUrl { .. } | Style::LinkHeader => vec![],
            Style::Offset { offset_param, .. } => vec![offset_param],
            Style::Page { page_param, .. } => vec![page_param],
        };
        needed.extend(before.as_ref());
        for needed in needed {
            if !query.contains_key(needed) {
                let d = self.error(
                    path,
                    format!("a paginated operation needs the query parameter `{needed}`"),
                );
                d.expected = Some(format!("query: {{ {needed}: {{ type: ... }} }}"));
            }
        }
    }

    /// The cursor style's cursor field must be a field of the items.
    fn cursor_field(&mut self, path: &str, pages: &PaginationInfo, item: &str) {
        let Style::Cursor { cursor_field, .. } = &pages.style else {
            return;
        };
        if let Some(fields) = self.spec.types.get(item).and_then(|t| t.fields.as_ref())
            && !fields.contains_key(cursor_field)
        {
            let d = self.error_at_value(
                &format!("{path}.response"),
                format!("page items of type `{item}` have no cursor field `{cursor_field}`"),
            );
            d.hint = Some(format!(
                "add `{cursor_field}` to `{item}`, or change `pagination.cursor_field`"
            ));
        }
    }
}
