//! Checking the operations: names, routes, path and query parameters, body and response
//! types, statuses, retry class and auth scheme (pagination is checked in `pagination.rs`,
//! error bodies in `error_bodies.rs`).

use std::collections::{BTreeSet, HashMap};

use super::{Checker, normalised_route, path_params};
use crate::model::{BodyKind, Operation};
use crate::model::{IdempotencyMode, Method, QueryStyle, Source};
use crate::names::{can_be_ident, did_you_mean, is_snake, pascal, snake};
use crate::resolved::{
    Answer, AuthInfo, BodyEncodingInfo, Constraints, FormStyleInfo, NameKind, OperationInfo,
    PaginationInfo, ParamInfo, ResponseHeaderInfo, Ty, TypeInfo, TypeKind, WhenInfo, defaults,
    rust_name,
};

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Path,
    Query,
    Header,
}

/// Most headers one operation's successful answer may document.
pub const MAX_RESPONSE_HEADERS: usize = 64;

/// A byte of an HTTP header name (an RFC 9110 token).
pub(crate) fn is_header_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

impl Checker<'_> {
    /// Every operation, resolved: defaults applied, its auth scheme found among `auth`, and
    /// whether its body and query have checks.
    pub(super) fn operations(
        &mut self,
        types: &[TypeInfo],
        auth: &[AuthInfo],
        service_pages: Option<&PaginationInfo>,
    ) -> Vec<OperationInfo> {
        let mut out = Vec::new();
        let spec = self.spec;
        let mut routes: HashMap<(Method, String), Vec<String>> = HashMap::new();
        for (name, op) in &spec.operations {
            let path = format!("operations.{name}");
            let source = self.require_source(&path, op.source);
            if !is_snake(name) || crate::names::is_keyword(name) {
                let d = self.error(
                    &path,
                    format!("operation name `{name}` is not a snake_case Rust identifier"),
                );
                d.hint = Some(format!("call it `{}`", snake(name)));
            }
            if name.ends_with("_stream") {
                self.error(&path, "operation names may not end in `_stream`: paginated operations get a `<name>_stream` method");
            }
            // Path shape and parameters.
            let template = op.path.clone();
            let shape = normalised_route(&template);
            let sharing = routes.entry((op.method, shape)).or_default();
            self.shared_route(&path, name, sharing);
            sharing.push(name.clone());
            let in_path = match path_params(&template) {
                Ok(p) => p,
                Err(message) => {
                    let d = self.error_at_value(&format!("{path}.path"), message);
                    d.expected = Some("a path like /v1/emails/{id}".into());
                    Vec::new()
                }
            };
            if !template.starts_with('/') {
                let d = self.error_at_value(
                    &format!("{path}.path"),
                    format!("path `{template}` must start with `/`"),
                );
                d.expected = Some("/v1/...".into());
            }
            if let Some(prefix) = spec
                .service
                .version
                .as_ref()
                .and_then(|v| v.prefix.as_deref())
            {
                let wanted = format!("/{prefix}/");
                if !template.starts_with(&wanted) {
                    let d = self.error_at_value(
                        &format!("{path}.path"),
                        format!("path `{template}` does not carry the version prefix `{prefix}`"),
                    );
                    d.expected = Some(format!("a path starting with {wanted}"));
                }
            }
            let declared: BTreeSet<&str> = op.path_params.keys().map(String::as_str).collect();
            for p in &in_path {
                if !declared.contains(p.as_str()) {
                    let d = self.error_at_value(
                        &format!("{path}.path"),
                        format!("path parameter `{{{p}}}` is not declared"),
                    );
                    d.expected = Some(format!("path_params: {{ {p}: {{ type: string }} }}"));
                }
            }
            let mut path_info = Vec::new();
            for (pname, param) in &op.path_params {
                let ppath = format!("{path}.path_params.{pname}");
                if !in_path.contains(pname) {
                    let d = self.error(
                        &ppath,
                        format!("path parameter `{pname}` does not appear in `{template}`"),
                    );
                    d.hint = Some(format!(
                        "add `{{{pname}}}` to the path, or remove the parameter"
                    ));
                }
                if let Some(info) = self.param(&ppath, pname, param, source, Place::Path) {
                    path_info.push(info);
                }
            }
            // Keep path order so method arguments read like the URL.
            path_info.sort_by_key(|p| {
                in_path
                    .iter()
                    .position(|x| *x == p.wire)
                    .unwrap_or(usize::MAX)
            });
            let mut query = Vec::new();
            for (qname, param) in &op.query {
                let qpath = format!("{path}.query.{qname}");
                if let Some(info) = self.param(&qpath, qname, param, source, Place::Query) {
                    query.push(info);
                }
            }
            let mut headers = Vec::new();
            for (hname, param) in &op.headers {
                let hpath = format!("{path}.headers.{hname}");
                if hname.is_empty() || !hname.bytes().all(is_header_name_byte) {
                    let d = self.error(&hpath, format!("`{hname}` is not an HTTP header name"));
                    d.expected = Some("letters, digits and `-` (like X-Request-Id)".into());
                    continue;
                }
                if let Some(info) = self.param(&hpath, hname, param, source, Place::Header) {
                    headers.push(info);
                }
            }
            // Body and response.
            let body = match &op.body {
                Some(b) => {
                    if op.method == Method::Get {
                        let d = self.error(&format!("{path}.body"), "a GET request has no body");
                        d.hint = Some("use `query` for GET parameters, or another method".into());
                    }
                    let ty = self.type_ref(&format!("{path}.body"), b);
                    if ty.as_ref().is_some_and(Ty::contains_page) {
                        self.error_at_value(
                            &format!("{path}.body"),
                            "`page<T>` is only for responses",
                        );
                    }
                    ty
                }
                None => None,
            };
            let (response, answer) = match op.response.as_deref().map(str::trim) {
                Some("text") => (None, Answer::Text),
                Some("bytes") => (None, Answer::Bytes),
                Some(r) => (self.type_ref(&format!("{path}.response"), r), Answer::Json),
                None => (None, Answer::Ignored),
            };
            let when = op.when.as_ref().map(|w| {
                self.when(&path, w, body.as_ref(), types);
                WhenInfo {
                    field: w.field.clone(),
                    equals: w.equals.clone(),
                }
            });
            let (pagination, stream_item) =
                self.op_pagination(&path, op, response.as_ref(), service_pages);
            if response.as_ref().is_some_and(Ty::contains_page)
                && !matches!(response, Some(Ty::Page(_)))
            {
                self.error_at_value(
                    &format!("{path}.response"),
                    "`page<T>` must be the whole response",
                );
            }
            let body_encoding = self.body_encoding(&path, op, body.as_ref(), types);
            let body_media = self.body_media(&path, op, body_encoding);
            // A HEAD answers as its GET would, without the body: 200.
            let default_status =
                defaults::success_status(answer != Answer::Ignored || op.method == Method::Head);
            let statuses = op
                .status
                .as_ref()
                .map_or_else(|| vec![default_status], |s| s.to_vec());
            if statuses.is_empty() {
                let d = self.error_at_value(&format!("{path}.status"), "no success status");
                d.expected = Some("a status like 200, or a list like [200, 204]".into());
            }
            for (i, &status) in statuses.iter().enumerate() {
                if !(200..=299).contains(&status) {
                    let d = self.error_at_value(
                        &format!("{path}.status"),
                        format!("{status} is not a success status"),
                    );
                    d.expected = Some("200 to 299".into());
                } else if statuses[..i].contains(&status) {
                    self.error_at_value(
                        &format!("{path}.status"),
                        format!("{status} is listed twice"),
                    );
                }
            }
            let empty_statuses: Vec<u16> = if answer == Answer::Json && statuses.len() > 1 {
                statuses
                    .iter()
                    .copied()
                    .filter(|s| defaults::EMPTY_STATUSES.contains(s))
                    .collect()
            } else {
                Vec::new()
            };
            if !empty_statuses.is_empty() && stream_item.is_some() {
                self.error_at_value(
                    &format!("{path}.status"),
                    "a paginated operation always answers with a page",
                );
            }
            for s in &op.errors {
                if !(400..=599).contains(s) {
                    self.error_at_value(
                        &format!("{path}.errors"),
                        format!("{s} is not an error status"),
                    );
                }
            }
            let idempotency = op
                .idempotency
                .unwrap_or_else(|| defaults::idempotency(op.method));
            if idempotency == IdempotencyMode::Key && spec.idempotency.is_none() {
                let d = self.error(&format!("{path}.idempotency"), "`idempotency: key` needs an `idempotency` section saying which header carries the key");
                d.expected = Some(
                    "idempotency: { header: Idempotency-Key, max_len: 256, source: assumed }"
                        .into(),
                );
            }
            if let Some(auth) = &op.auth
                && auth != crate::resolved::ANONYMOUS_AUTH
                && !spec.auth.iter().any(|a| &a.name == auth)
                && !self.is_broken("auth", auth)
            {
                let names: Vec<&str> = spec.auth.iter().map(|a| a.name.as_str()).collect();
                let hint = did_you_mean(auth, names.iter().copied())
                    .map(|h| format!("did you mean `{h}`?"));
                let d = self.error_at_value(
                    &format!("{path}.auth"),
                    format!("unknown auth scheme `{auth}`"),
                );
                d.expected = Some(format!(
                    "one of {}, or `none` for a public operation",
                    names.join(", ")
                ));
                d.hint = hint;
            }
            let error_bodies = self.error_bodies(&path, op);
            let response_headers = self.response_headers(&path, op);
            let body_checked = matches!(&body, Some(Ty::Named(n)) if types.iter().any(|t| &t.name == n && t.checked));
            let query_checked = query.iter().any(|p| p.constraints.client_checks());
            let headers_type = (!headers.is_empty()).then(|| format!("{}Headers", pascal(name)));
            let query_type = (!query.is_empty()).then(|| crate::names::query_type(name));
            let success_status = statuses.first().copied().unwrap_or(default_status);
            out.push(OperationInfo {
                name: name.clone(),
                method: op.method,
                path: template,
                doc: op.doc.clone(),
                source,
                note: op.note.clone(),
                conflict: op.conflict.clone(),
                path_params: path_info,
                query,
                body,
                response,
                idempotency,
                auth: op.auth.as_ref().and_then(|a| {
                    if a == crate::resolved::ANONYMOUS_AUTH {
                        return Some(AuthInfo::anonymous(source, op.note.clone()));
                    }
                    auth.iter().find(|s| &s.name == a).cloned()
                }),
                success_status,
                errors: op.errors.clone(),
                error_bodies,
                has_body: op.body.is_some() || defaults::has_body(op.method),
                body_checked,
                query_type,
                query_checked,
                max_body_bytes: self.body_size(&format!("operations.{name}"), op),
                success_statuses: statuses,
                empty_statuses,
                answer,
                body_encoding,
                body_media,
                pagination,
                stream_item,
                headers,
                headers_type,
                response_headers,
                when,
            });
        }
        self.generated_statics(&out);
        out
    }

    /// The statics generated per operation (its `Op`, `NAME`, and `NAME_PAGES` when it pages
    /// on its own) must not share a name: `get_lists_pages` and the page spec of a paged
    /// `get_lists` are both `GET_LISTS_PAGES`, which rustc refuses (E0428).
    fn generated_statics(&mut self, ops: &[OperationInfo]) {
        let mut owners: HashMap<String, String> = HashMap::new();
        let mut clashes = Vec::new();
        for op in ops {
            let mut names = vec![(
                crate::names::shouty(&op.name),
                format!("the `Op` of operation `{}`", op.name),
            )];
            if op.pagination.as_ref().is_some_and(|p| p.own) {
                names.push((
                    format!("{}_PAGES", crate::names::shouty(&op.name)),
                    format!("the page spec of operation `{}`", op.name),
                ));
            }
            for (name, what) in names {
                match owners.get(&name) {
                    Some(other) => clashes.push((op.name.clone(), name, other.clone(), what)),
                    None => {
                        owners.insert(name, what);
                    }
                }
            }
        }
        for (op, name, first, second) in clashes {
            let d = self.error(
                &format!("operations.{op}"),
                format!("{second} and {first} are both the generated static `{name}`"),
            );
            d.hint = Some("rename one of the operations".into());
        }
    }

    fn param_constraints(
        &mut self,
        path: &str,
        param: &crate::model::Param,
        ty: &Ty,
    ) -> Constraints {
        let c = Constraints {
            min: param.min,
            max: param.max,
            max_len: param.max_len,
            min_len: param.min_len,
            pattern: param.pattern.clone(),
            ..Constraints::default()
        };
        if c.pattern.is_some() && !ty.is_text() {
            self.error(&format!("{path}.pattern"), "`pattern` applies to strings");
        }
        self.pattern(path, c.pattern.as_deref());
        if (c.min.is_some() || c.max.is_some()) && !matches!(ty, Ty::Integer | Ty::Number) {
            self.error(path, "`min` and `max` apply to numbers");
        }
        if c.max_len.is_some() && !ty.is_text() {
            self.error(&format!("{path}.max_len"), "`max_len` applies to strings");
        }
        if c.min_len.is_some() && !ty.is_text() {
            self.error(&format!("{path}.min_len"), "`min_len` applies to strings");
        }
        if let (Some(lo), Some(hi)) = (c.min_len, c.max_len)
            && lo > hi
        {
            self.error(
                &format!("{path}.min_len"),
                format!("`min_len` ({lo}) is above `max_len` ({hi})"),
            );
        }
        if let (Some(lo), Some(hi)) = (c.min, c.max)
            && lo > hi
        {
            self.error(
                &format!("{path}.min"),
                format!("`min` ({lo}) is above `max` ({hi})"),
            );
        }
        c
    }

    fn param(
        &mut self,
        path: &str,
        name: &str,
        param: &crate::model::Param,
        source: Source,
        place: Place,
    ) -> Option<ParamInfo> {
        let rust = rust_name(NameKind::Param, name, param.rust_name.as_deref());
        if let Some(explicit) = &param.rust_name {
            if !is_snake(explicit) || !can_be_ident(explicit) {
                let d = self.error_at_value(
                    &format!("{path}.rust_name"),
                    format!("`rust_name` `{explicit}` is not a snake_case Rust identifier"),
                );
                d.hint = Some(format!("call it `{}`", snake(explicit)));
                return None;
            }
        } else if !can_be_ident(&rust) {
            let d = self.error(path, format!("parameter `{name}` has no usable Rust name"));
            d.hint = Some("give it one with `rust_name: some_name`".into());
            return None;
        }
        let ty = match &param.ty {
            Some(t) => self.type_ref(&format!("{path}.type"), t)?,
            None => Ty::String,
        };
        let is_enum = |ty: &Ty| matches!(ty, Ty::Named(n) if self.spec.types.get(n).is_some_and(|t| t.values.is_some()));
        let list_ok = place == Place::Query
            && matches!(&ty, Ty::List(item) if item.is_scalar() || is_enum(item));
        let as_json = place == Place::Query && param.style == Some(QueryStyle::Json);
        if as_json && matches!(ty, Ty::Page(_) | Ty::Bytes) {
            self.error_at_value(
                &format!("{path}.type"),
                format!(
                    "parameter `{name}` has `style: json`, and a page or bytes has no JSON text"
                ),
            );
        } else if !ty.is_scalar() && !is_enum(&ty) && !list_ok && !as_json {
            let d = self.error_at_value(
                &format!("{path}.type"),
                format!("parameter `{name}` must be a scalar"),
            );
            d.expected = Some(match place {
                Place::Query => {
                    "string, integer, number, boolean, datetime, date, an enum, or list<T> of those; \
                     any type with `style: json`"
                        .into()
                }
                _ => "string, integer, number, boolean, datetime, date or an enum".into(),
            });
        }
        let style = match (&ty, param.style) {
            (_, Some(QueryStyle::Json)) if place == Place::Query => Some(QueryStyle::Json),
            (Ty::List(_), style) if place == Place::Query => {
                Some(style.unwrap_or(QueryStyle::Repeat))
            }
            (_, Some(_)) => {
                self.error_at_value(
                    &format!("{path}.style"),
                    "`style` applies to query parameters: `json` to any, the others to `list<T>`",
                );
                None
            }
            _ => None,
        };
        if let Some(cred) = &param.from_credential {
            self.credential_ref(&format!("{path}.from_credential"), cred);
            if place != Place::Header && self.spec.credentials.get(cred).is_some_and(|c| c.secret) {
                let d = self.error_at_value(
                    &format!("{path}.from_credential"),
                    format!("credential `{cred}` is secret and may not be put in a URL"),
                );
                d.hint =
                    Some("set `secret: false` on it if it is an identifier, not a secret".into());
            }
        }
        let constraints = self.param_constraints(path, param, &ty);
        self.field_default(path, param.default.as_ref(), &ty);
        Some(ParamInfo {
            wire: name.to_owned(),
            rust,
            ty,
            required: place == Place::Path || param.required,
            from_credential: param.from_credential.clone(),
            constraints,
            doc: param.doc.clone(),
            source: param.source.unwrap_or(source),
            style,
            default: param.default.clone(),
        })
    }

    /// A method and path that an earlier operation already has: allowed only when every
    /// operation on it says, by the same body field, which one a request is for (`when`).
    fn shared_route(&mut self, path: &str, name: &str, earlier: &[String]) {
        let spec = self.spec;
        let Some(first) = earlier.first() else {
            return;
        };
        let op = &spec.operations[name];
        let other = &spec.operations[first.as_str()];
        let (Some(mine), Some(theirs)) = (&op.when, &other.when) else {
            let d = self.error_at_value(
                &format!("{path}.path"),
                format!(
                    "`{} {}` is already the route of `{first}`",
                    op.method.as_str(),
                    op.path
                ),
            );
            d.hint = Some(
                "each operation needs its own method and path, or every operation on the route \
                 needs `when: { field, equals }` saying which body selects it"
                    .into(),
            );
            return;
        };
        if mine.field != theirs.field {
            let d = self.error_at_value(
                &format!("{path}.when.field"),
                format!(
                    "operations on one route are told apart by one body field; `{first}` uses `{}`",
                    theirs.field
                ),
            );
            d.expected = Some(format!("field: {}", theirs.field));
            return;
        }
        if let Some(same) = earlier.iter().find(|o| {
            spec.operations[o.as_str()]
                .when
                .as_ref()
                .is_some_and(|w| w.equals == mine.equals)
        }) {
            self.error_at_value(
                &format!("{path}.when.equals"),
                format!(
                    "`{same}` is already selected by `{} = {}` on this route",
                    mine.field, mine.equals
                ),
            );
        }
    }

    /// `when`: the body is an object type that has the field.
    fn when(
        &mut self,
        path: &str,
        when: &crate::model::When,
        body: Option<&Ty>,
        types: &[TypeInfo],
    ) {
        let Some(Ty::Named(body)) = body else {
            let d = self.error(
                &format!("{path}.when"),
                "`when` selects by a body field, and this operation has no object body",
            );
            d.expected = Some("body: SomeRequest".into());
            return;
        };
        let fields = types
            .iter()
            .find(|t| &t.name == body)
            .and_then(|t| match &t.kind {
                crate::resolved::TypeKind::Object(fields) => Some(fields),
                _ => None,
            });
        let Some(fields) = fields else {
            return;
        };
        if !fields.iter().any(|f| f.wire == when.field) {
            let hint = did_you_mean(&when.field, fields.iter().map(|f| f.wire.as_str()))
                .map(|h| format!("did you mean `{h}`?"));
            let d = self.error_at_value(
                &format!("{path}.when.field"),
                format!("the body `{body}` has no field `{}`", when.field),
            );
            d.hint = hint;
        }
    }

    /// The headers a successful answer carries: each an HTTP header name, listed once (case
    /// aside), of a scalar or enum type, at most [`MAX_RESPONSE_HEADERS`].
    fn response_headers(&mut self, path: &str, op: &Operation) -> Vec<ResponseHeaderInfo> {
        let at = format!("{path}.response_headers");
        if op.response_headers.len() > MAX_RESPONSE_HEADERS {
            self.error(
                &at,
                format!(
                    "{} response headers; an operation documents at most {MAX_RESPONSE_HEADERS}",
                    op.response_headers.len()
                ),
            );
            return Vec::new();
        }
        let mut out: Vec<ResponseHeaderInfo> = Vec::new();
        for (name, header) in &op.response_headers {
            let here = format!("{at}.{name}");
            if name.is_empty() || !name.bytes().all(is_header_name_byte) {
                let d = self.error(&here, format!("`{name}` is not an HTTP header name"));
                d.expected = Some("letters, digits and `-` (like Location)".into());
                continue;
            }
            if out.iter().any(|h| h.name.eq_ignore_ascii_case(name)) {
                self.error(&here, format!("response header `{name}` is listed twice"));
                continue;
            }
            let ty = match &header.ty {
                Some(t) => match self.type_ref(&format!("{here}.type"), t) {
                    Some(ty) => ty,
                    None => continue,
                },
                None => Ty::String,
            };
            let is_enum = matches!(&ty, Ty::Named(n) if self.spec.types.get(n).is_some_and(|t| t.values.is_some()));
            if !ty.is_scalar() && !is_enum {
                let d = self.error_at_value(
                    &format!("{here}.type"),
                    format!("response header `{name}` must be a scalar"),
                );
                d.expected =
                    Some("string, integer, number, boolean, datetime, date or an enum".into());
                continue;
            }
            let values = match &ty {
                Ty::Named(n) => self
                    .spec
                    .types
                    .get(n)
                    .and_then(|t| t.values.as_ref())
                    .map(|v| v.iter().map(|e| e.value().to_owned()).collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            out.push(ResponseHeaderInfo {
                name: name.clone(),
                ty,
                doc: header.doc.clone(),
                values,
            });
        }
        out
    }

    /// The media types a body comes in: for a binary body, each a type or range (`image/png`,
    /// `image/*`, `*/*`); for a JSON body, JSON and the forms the service also takes it as
    /// (Mailgun's bounces), which the sandbox takes while the client sends JSON.
    fn body_media(
        &mut self,
        path: &str,
        op: &Operation,
        encoding: BodyEncodingInfo,
    ) -> Vec<String> {
        let Some(media) = &op.body_media else {
            return Vec::new();
        };
        const JSON_OR_FORM: [&str; 3] = [
            "application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ];
        let json_or_forms = media.iter().all(|m| JSON_OR_FORM.contains(&m.as_str()));
        if encoding == BodyEncodingInfo::Json && json_or_forms {
            return media.clone();
        }
        if encoding != BodyEncodingInfo::Binary {
            let d = self.error(
                &format!("{path}.body_media"),
                "`body_media` lists the media types of a binary body, or the JSON and form types of a JSON one",
            );
            d.expected = Some("body_encoding: binary".into());
            return Vec::new();
        }
        let token = |t: &str| !t.is_empty() && t.bytes().all(is_header_name_byte);
        for (i, m) in media.iter().enumerate() {
            let fits = m
                .split_once('/')
                .is_some_and(|(k, s)| token(k) && token(s) && (k != "*" || s == "*"));
            if !fits {
                let d = self.error_at_value(
                    &format!("{path}.body_media.{i}"),
                    format!("`{m}` is not a media type (`type/subtype`, `type/*` or `*/*`)"),
                );
                d.expected = Some("application/octet-stream".into());
            }
        }
        media.clone()
    }

    /// How the body is encoded; a form or multipart body must be an object type.
    fn body_encoding(
        &mut self,
        path: &str,
        op: &Operation,
        body: Option<&Ty>,
        types: &[TypeInfo],
    ) -> BodyEncodingInfo {
        let encoding = op.body_encoding.unwrap_or(BodyKind::Json);
        if encoding == BodyKind::Binary {
            if op.form_style.is_some() {
                let d = self.error(
                    &format!("{path}.form_style"),
                    "`form_style` applies to form and multipart bodies",
                );
                d.expected = Some("body_encoding: form (or multipart)".into());
            }
            if body != Some(&Ty::Bytes) {
                let d = self.error(
                    &format!("{path}.body"),
                    "a binary body is the bytes as they are: its type is `bytes`",
                );
                d.expected = Some("body: bytes".into());
            }
            return BodyEncodingInfo::Binary;
        }
        if body == Some(&Ty::Bytes) {
            let d = self.error(
                &format!("{path}.body"),
                "a `bytes` body is sent as it is: say so with `body_encoding: binary`",
            );
            d.expected = Some("body_encoding: binary".into());
        }
        let style = FormStyleInfo {
            arrays: op
                .form_style
                .and_then(|f| f.arrays)
                .unwrap_or(defaults::FORM_STYLE.arrays),
            nested: op
                .form_style
                .and_then(|f| f.nested)
                .unwrap_or(defaults::FORM_STYLE.nested),
        };
        if encoding != BodyKind::Multipart
            && let Some(Ty::Named(n)) = body
            && let Some(TypeInfo {
                kind: TypeKind::Object(fields),
                ..
            }) = types.iter().find(|t| &t.name == n)
            && let Some(f) = fields.iter().find(|f| {
                matches!(&f.ty, Ty::Bytes) || matches!(&f.ty, Ty::List(t) if **t == Ty::Bytes)
            })
        {
            let d = self.error(
                &format!("{path}.body"),
                format!(
                    "`{n}.{}` is `bytes`, which only a multipart body carries",
                    f.wire
                ),
            );
            d.expected = Some("body_encoding: multipart".into());
        }
        if encoding == BodyKind::Json {
            if op.form_style.is_some() {
                let d = self.error(
                    &format!("{path}.form_style"),
                    "`form_style` applies to form and multipart bodies",
                );
                d.expected = Some("body_encoding: form (or multipart)".into());
            }
            return BodyEncodingInfo::Json;
        }
        match body {
            None => {
                let d = self.error(
                    &format!("{path}.body_encoding"),
                    "`body_encoding` needs a `body` type",
                );
                d.expected = Some("body: CreateMessageRequest".into());
            }
            Some(Ty::Named(n))
                if types
                    .iter()
                    .any(|t| &t.name == n && matches!(t.kind, TypeKind::Object(_))) => {}
            Some(_) => {
                self.error_at_value(
                    &format!("{path}.body"),
                    "a form or multipart body must be a named object type",
                );
            }
        }
        match encoding {
            BodyKind::Multipart => BodyEncodingInfo::Multipart(style),
            _ => BodyEncodingInfo::Form(style),
        }
    }
}
