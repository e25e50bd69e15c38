//! Paths and methods to spec operations: names, path and query parameters, the JSON body,
//! the success body and status, error statuses and the auth scheme. An operation that needs
//! what the spec language cannot say (a form body, a required header) is skipped whole.

use serde_json::{Map, Value};

use super::document::{deref, escape};
use super::media::{
    binary_media, body_reason, deep_object, form_encoding, json_media, own_form_style,
    scalar_enum_texts, t_list_item, takes_text,
};
use super::query_objects::{Kept, object_query_properties};
pub(crate) use super::routes::op_name;
use super::routes::{included, item_suffix, name_from_route, normalised, placeholders};
use super::schema::type_name;
use super::yaml::Node;
use super::{Converter, Finding, OpOut, ParamOut};
use crate::names::pascal;

/// Methods the spec language has.
pub(super) const METHODS: &[&str] = &["get", "put", "post", "delete", "patch", "head"];
/// Methods OpenAPI has and the spec language does not.
const OTHER_METHODS: &[&str] = &["options", "trace"];

/// Header parameters that carry an idempotency key (lower case): the common name and the
/// IETF draft's (`draft-ietf-httpapi-idempotency-key-header`).
const IDEMPOTENCY_HEADERS: &[&str] = &["idempotency-key", "x-idempotency-key"];

/// Longest key when the document does not bound it (our own specs' bound).
const DEFAULT_IDEMPOTENCY_KEY_LEN: u64 = 256;

impl Converter<'_> {
    /// Every operation of the document that the filters take.
    pub(crate) fn operations(&mut self, include: &[String], prefix: &str) {
        let doc = self.doc;
        let Some(paths) = doc.get("paths").and_then(Value::as_object) else {
            return;
        };
        // Names first, so every generated `<Op>Query` struct name is known before types are.
        let mut routes = Vec::new();
        let mut names = std::collections::BTreeSet::new();
        // Route-made names shared by several operations (`GET /apps/{app_id}/rules` and `GET
        // /apps/{app_id}/rules/{rule_id}`): the item route's gets `_by_<param>`.
        let mut route_names = std::collections::BTreeMap::<String, usize>::new();
        for (path, item) in paths {
            for method in METHODS {
                if let Some(op) = item.get(*method).filter(|o| o.is_object())
                    && op.get("operationId").is_none()
                    && included(include, path, op)
                {
                    *route_names
                        .entry(name_from_route(method, path))
                        .or_default() += 1;
                }
            }
        }
        for (path, item) in paths {
            for method in METHODS.iter().chain(OTHER_METHODS) {
                let Some(op) = item.get(*method).filter(|o| o.is_object()) else {
                    continue;
                };
                self.report.operations_in_document += 1;
                let ptr = format!("/paths/{}/{method}", escape(path));
                if OTHER_METHODS.contains(method) {
                    self.skip(
                        &ptr,
                        &format!("needs spec construct: method {}", method.to_uppercase()),
                        None,
                    );
                    continue;
                }
                if !included(include, path, op) {
                    self.report.operations_filtered_out += 1;
                    continue;
                }
                let base = match op.get("operationId").and_then(Value::as_str) {
                    Some(id) => op_name(id),
                    None => {
                        let name = name_from_route(method, path);
                        match item_suffix(path) {
                            Some(by) if route_names.get(&name).is_some_and(|n| *n > 1) => {
                                op_name(&format!("{name}_{by}"))
                            }
                            _ => name,
                        }
                    }
                };
                let mut name = base.clone();
                let mut n = 2;
                while !names.insert(name.clone()) {
                    name = format!("{base}_{n}");
                    n += 1;
                }
                self.used_names.insert(format!("{}Query", pascal(&name)));
                self.used_names.insert(format!("{}Headers", pascal(&name)));
                routes.push((path.clone(), *method, op, item, ptr, name));
            }
        }
        let mut seen_routes = std::collections::BTreeSet::new();
        for (path, method, op, item, ptr, name) in routes {
            let full = format!("{prefix}{path}");
            let shape = (method, normalised(&full));
            if !seen_routes.insert(shape) {
                self.skip(&ptr, "the same method and path as another operation", None);
                continue;
            }
            match self.operation(&name, &full, method, op, item, &ptr) {
                Ok(mut out) => {
                    match self.list_kind(&out) {
                        super::pagination::ListKind::Page => self.report.pagination.page_lists += 1,
                        super::pagination::ListKind::Bare => self.report.pagination.bare_lists += 1,
                        super::pagination::ListKind::NotList => {}
                    }
                    if out
                        .response
                        .as_deref()
                        .is_some_and(|r| r.starts_with("page<"))
                    {
                        // Our own export's `page<T>`, paged by its `x-pagination` section.
                        *self
                            .report
                            .pagination
                            .by_style
                            .entry("section")
                            .or_default() += 1;
                    } else if let Some((style, node)) = self.pagination_of(&mut out, &ptr) {
                        *self.report.pagination.by_style.entry(style).or_default() += 1;
                        out.pagination = Some(node);
                    }
                    self.ops.push(out);
                    self.report.operations_imported += 1;
                }
                Err(reason) => {
                    let (reason, detail) = match reason.split_once(" | ") {
                        Some((r, d)) => (r.to_owned(), Some(d.to_owned())),
                        None => (reason, None),
                    };
                    self.skip(&ptr, &reason, detail.as_deref());
                }
            }
        }
    }

    fn operation(
        &mut self,
        name: &str,
        path: &str,
        method: &str,
        op: &Value,
        item: &Value,
        ptr: &str,
    ) -> Result<OpOut, String> {
        let doc = self.doc;
        let (path, query_in_path) = super::routes::split_query(path);
        let mut template = super::routes::colon_params(path);
        if template != path {
            self.approximate(
                ptr,
                "a `:name` path segment read as the path parameter `{name}` (as Express writes one)",
            );
        }
        let in_path = placeholders(&template)
            .ok_or_else(|| "path template not usable | unbalanced `{` or `}`".to_owned())?;
        if !template.starts_with('/') {
            return Err("path template not usable | it does not start with `/`".into());
        }

        // Parameters: the path item's, overridden by the operation's (same name and place).
        let mut params: Vec<(Value, String)> = Vec::new();
        for (source, base) in [(item, ptr.rsplit_once('/').map_or(ptr, |p| p.0)), (op, ptr)] {
            for (i, p) in source
                .get("parameters")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let pptr = format!("{base}/parameters/{i}");
                let Some((p, at)) = deref(doc, p, &pptr) else {
                    self.skip(&pptr, "parameter $ref not resolvable", None);
                    continue;
                };
                let key = (p.get("name").cloned(), p.get("in").cloned());
                params.retain(|(q, _)| (q.get("name").cloned(), q.get("in").cloned()) != key);
                // Findings point at the operation's own entry; a shared parameter is one place.
                let _ = at;
                params.push((p.clone(), pptr));
            }
        }

        self.form_fields_left_to_scheme(op, ptr);
        if let Some(note) = super::routes::query_in_path(&query_in_path, &mut params, ptr) {
            self.approximate(ptr, &note);
        }

        // What would make the whole operation unusable comes first, before any type is made.
        let idempotency_header = doc
            .get("x-idempotency")
            .and_then(|i| i.get("header"))
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase);
        let mut keep = Vec::new();
        // A documented `Idempotency-Key` header on a POST or PATCH (Resend's sends): the
        // client makes the key and reuses it on every attempt, as `idempotency: key` says.
        let mut documented_key: Option<(String, Option<u64>, String)> = None;
        for (p, at) in params {
            let pname = p
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let place = p.get("in").and_then(Value::as_str).unwrap_or_default();
            let required = p.get("required").and_then(Value::as_bool) == Some(true);
            if matches!(place, "query" | "header")
                && super::security::carries_the_credential(doc, op, &p, &pname.to_ascii_lowercase())
            {
                // Slack's `token` ("Authentication token", required in 123 of 174
                // operations beside an OAuth2 scheme): the scheme sends it; as a required
                // argument a client sending only the bearer was refused.
                self.inferred(
                    &at,
                    &format!(
                        "parameter `{pname}` is the token the operation's security scheme sends: left to the scheme"
                    ),
                );
                continue;
            }
            match place {
                "query"
                    if let Some(each) = object_query_properties(doc, &p, &at, &pname, required) =>
                {
                    let wires: Vec<String> = each.iter().map(|e| format!("`{}`", e.2)).collect();
                    self.approximate(
                        &at,
                        &format!(
                            "object query parameter `{pname}` sent as its properties, as its \
                             style writes them: {}",
                            wires.join(", ")
                        ),
                    );
                    for (q, qat, qname, qrequired) in each {
                        // The property is the parameter's schema.
                        let schema_at = qat.clone();
                        keep.push(Kept {
                            param: q,
                            at: qat,
                            schema_at,
                            name: qname,
                            place: "query".to_owned(),
                            required: qrequired,
                        });
                    }
                }
                "query" if self.sent_query_param(ptr, &pname) => {}
                "path" | "query" => keep.push(Kept::new(p.clone(), at, pname, place, required)),
                "header" | "cookie" => {
                    let lower = pname.to_ascii_lowercase();
                    if place == "header"
                        && matches!(lower.as_str(), "accept" | "content-type" | "authorization")
                    {
                        // OpenAPI 3 ignores these: the client sets them from the body's media
                        // type, the answer it reads and the auth scheme.
                        self.approximate(
                            &at,
                            &format!(
                                "header parameter `{pname}` left to the client (set from the body, the answer and the auth scheme)"
                            ),
                        );
                        continue;
                    }
                    if idempotency_header.as_deref() == Some(lower.as_str())
                        || self.auth_headers.contains(&lower)
                    {
                        // Sent by the client already (the key, the credential).
                        continue;
                    }
                    if idempotency_header.is_none()
                        && place == "header"
                        && matches!(method, "post" | "patch")
                        && IDEMPOTENCY_HEADERS.contains(&lower.as_str())
                        && self.idempotency.as_ref().is_none_or(|i| {
                            i.get("header")
                                .and_then(Node::as_str)
                                .is_some_and(|h| h.eq_ignore_ascii_case(&pname))
                        })
                    {
                        let max_len = p
                            .get("schema")
                            .and_then(|s| s.get("maxLength"))
                            .and_then(Value::as_u64);
                        documented_key = Some((pname, max_len, at));
                        continue;
                    }
                    if place == "header" {
                        keep.push(Kept::new(p.clone(), at, pname, place, required));
                        continue;
                    }
                    if required {
                        return Err(format!(
                            "needs spec construct: {place} parameter | required `{pname}`"
                        ));
                    }
                    self.skip(
                        &at,
                        &format!("needs spec construct: {place} parameter"),
                        Some(&format!("optional `{pname}` left out")),
                    );
                }
                other => self.skip(&at, &format!("unknown parameter place `{other}`"), None),
            }
        }
        let body_media = op
            .get("requestBody")
            .and_then(|b| deref(doc, b, &format!("{ptr}/requestBody")))
            .map(|(b, at)| (b.clone(), at));
        let mut body_schema = None;
        let mut body_encoding = None;
        let mut form_style = None;
        let mut binary = None;
        let mut json_also = Vec::new();
        if let Some((body, at)) = &body_media
            && let Some(content) = body.get("content").and_then(Value::as_object)
            && let Some(media) = binary_media(body, content)
        {
            self.report.inferred.push(Finding {
                pointer: format!("#{}/content", at.trim_start_matches('#')),
                reason: "a body sent as it is (`body_encoding: binary`): the caller gives the bytes and their media type".into(),
                detail: (!media.is_empty()).then(|| format!("one of {}", media.join(", "))),
            });
            binary = Some(media);
        } else if let Some((body, at)) = &body_media
            && let Some(content) = body.get("content").and_then(Value::as_object)
        {
            let found = json_media(content).map(|(k, v)| (k, v, None)).or_else(|| {
                content.iter().find_map(|(k, v)| {
                    let enc = form_encoding(k)?;
                    Some((k.as_str(), v, Some(enc)))
                })
            });
            match found {
                Some((media, m, encoding)) => {
                    let mptr = format!("{at}/content/{}", escape(media));
                    let also = self.other_media(body, content, media, &format!("{at}/content"));
                    if encoding.is_none() {
                        json_also = also;
                    }
                    if media.eq_ignore_ascii_case("application/form-data") {
                        self.approximate(
                            &mptr,
                            "`application/form-data` (not a registered media type) read as `multipart/form-data`",
                        );
                    }
                    if encoding.is_some() {
                        form_style = self.form_style(m, &mptr);
                    }
                    // A multipart body's object fields are parts of type `application/json`
                    // (OpenAPI's default for them), unless its encoding asks for `deepObject`.
                    if encoding == Some("multipart") && !deep_object(m) {
                        let arrays = form_style.map_or("repeat", |(arrays, _)| arrays);
                        form_style = Some((arrays, "json"));
                    }
                    // Our own export says the style outright.
                    if encoding.is_some()
                        && let Some(own) = body.get("x-form-style").and_then(own_form_style)
                    {
                        form_style = Some(own);
                    }
                    body_encoding = encoding;
                    body_schema = Some((
                        m.get("schema")
                            .cloned()
                            .unwrap_or(Value::Object(Map::new())),
                        format!("{mptr}/schema"),
                    ));
                }
                None => {
                    if let Some(media) = content.keys().next() {
                        return Err(body_reason(media));
                    }
                }
            }
        }
        // An optional JSON body that may hold nothing (`maxProperties: 0`) is the `{}` every
        // write sends anyway: no body in the spec.
        let optional = body_media
            .as_ref()
            .is_some_and(|(b, _)| b.get("required") != Some(&Value::Bool(true)));
        if optional
            && body_encoding.is_none()
            && body_schema.as_ref().is_some_and(|(schema, _)| {
                schema.get("maxProperties").and_then(Value::as_u64) == Some(0)
            })
        {
            body_schema = None;
        }
        // Any other optional JSON body: the client sends one with each call.
        if let Some((_, at)) = body_media.as_ref()
            && optional
            && body_encoding.is_none()
            && body_schema.is_some()
        {
            self.approximate(at, "the body is optional (`required` is not `true`): every call sends one, `{}` when no field is set");
        }
        // Path parameters: every `{name}` declared, with a Rust-usable name.
        let mut path_params = Vec::new();
        let mut query = Vec::new();
        let mut headers: Vec<ParamOut> = Vec::new();
        let mut rust_names = std::collections::BTreeSet::new();
        let mut query_names = std::collections::BTreeSet::new();
        let mut header_names = std::collections::BTreeSet::new();
        let declared: Vec<String> = keep
            .iter()
            .filter(|k| k.place == "path")
            .map(|k| k.name.clone())
            .collect();
        for placeholder in &in_path {
            if !declared.contains(placeholder) {
                self.approximate(
                    ptr,
                    &format!("path parameter `{placeholder}` is not declared; typed as string"),
                );
                let mut p = ParamOut::new(placeholder.clone(), "string".into());
                p.required = true;
                let usable =
                    super::routes::usable_path_name(placeholder, &mut template, &mut rust_names);
                p.wire = usable;
                path_params.push(p);
            }
        }
        let op_pascal = pascal(name);
        for Kept {
            param: p,
            at,
            schema_at,
            name: pname,
            place,
            required,
        } in keep
        {
            if place == "path" && !in_path.contains(&pname) {
                self.skip(&at, "path parameter not in the path template", Some(&pname));
                continue;
            }
            // A query parameter holding JSON (Stream's `payload`: `content: application/json`)
            // has its schema under the media type, and travels as its JSON text.
            let json_content = if place == "query" && p.get("schema").is_none() {
                p.pointer("/content/application~1json/schema").cloned()
            } else {
                None
            };
            let as_json = json_content.is_some();
            let mut schema = json_content
                .or_else(|| p.get("schema").cloned())
                .unwrap_or(Value::Object(Map::new()));
            // A parameter is text on the wire: an untyped enum of scalars of several kinds
            // (Vonage's `delivered`: `[true, false, 0, 1]`) is the enum of their texts.
            if let Some(texts) = scalar_enum_texts(&schema) {
                self.approximate(
                    &schema_at,
                    &format!(
                        "an enum of values of several JSON types ({}): sent as their text",
                        texts.join(", ")
                    ),
                );
                schema = serde_json::json!({ "type": "string", "enum": texts });
            }
            let hint = format!("{op_pascal}{}", type_name(&pname));
            // Types made for a parameter left out or sent as text are dropped after.
            let made_from = self.types.len();
            let ty = self.ty(&schema, &schema_at, &hint, 1);
            let scalar = |t: &str, conv: &Self| {
                matches!(
                    t,
                    "string" | "integer" | "number" | "boolean" | "datetime" | "date"
                ) || matches!(conv.types.get(t), Some(super::TypeOut::Enum { .. }))
            };
            let list_item = t_list_item(ty.as_ref().ok());
            let mut style = None;
            let ty = match ty {
                Ok(t) if as_json => {
                    style = Some("json");
                    t
                }
                // A `number` path parameter shown as a whole number is an integer id
                // (ClickSend's `{list_id}`, example `"442"`, answered `list_id: 442`).
                Ok(t)
                    if place == "path"
                        && t == "number"
                        && super::routes::whole_example(&p, &schema) =>
                {
                    self.inferred(
                        &at,
                        &format!("path parameter `{pname}` is a `number` shown as a whole number: an integer"),
                    );
                    "integer".into()
                }
                Ok(t) if scalar(&t, self) => t,
                Ok(t)
                    if place == "query"
                        && list_item.as_deref().is_some_and(|i| scalar(i, self)) =>
                {
                    match self.list_style(&p, &at) {
                        Ok(st) => {
                            style = st;
                            t
                        }
                        Err(reason) => {
                            if required {
                                return Err(format!("{reason} | required `{pname}`"));
                            }
                            self.skip(&at, &reason, Some(&format!("optional `{pname}` left out")));
                            self.forget_types_since(made_from);
                            continue;
                        }
                    }
                }
                Ok(t) if place == "path" => {
                    self.approximate(&at, &format!("path parameter of type `{t}` sent as text"));
                    self.forget_types_since(made_from);
                    "string".into()
                }
                // Text or a structure (Mailgun's `members`: a string, or an array of objects
                // "in JSON array format"): the text form carries either, the structure as the
                // JSON text the document asks for.
                // (Behind a `$ref` too: Zulip's `anchor`, `oneOf [string, integer]`.)
                Ok(_)
                    if place == "query"
                        && takes_text(
                            super::document::deref(self.doc, &schema, "")
                                .map_or(&schema, |(s, _)| s),
                        ) =>
                {
                    self.approximate(
                        &at,
                        &format!("query parameter `{pname}` is text or a structure: typed as text (send a structure as its JSON text)"),
                    );
                    self.forget_types_since(made_from);
                    "string".into()
                }
                Ok(t) => {
                    let reason = if t.starts_with("list<") {
                        "needs spec construct: list query parameter"
                    } else {
                        "needs spec construct: object query parameter"
                    };
                    if required {
                        return Err(format!("{reason} | required `{pname}`"));
                    }
                    self.skip(&at, reason, Some(&format!("optional `{pname}` left out")));
                    self.forget_types_since(made_from);
                    continue;
                }
                Err(e) => {
                    if required || place == "path" {
                        return Err(format!("parameter type not mappable | `{pname}`: {e}"));
                    }
                    self.skip(&at, "parameter type not mappable", Some(&e));
                    continue;
                }
            };
            let (s, _) = super::schema::unwrap_nullable(&schema);
            let s = super::schema::scalar_target(self.doc, &s).unwrap_or(s);
            let ty = super::schema::param_ty(ty, &s);
            let mut out = ParamOut::new(pname.clone(), ty.clone());
            out.style = style;
            out.required = required || place == "path";
            // The parameter's description, else its schema's (Stream writes 135 there).
            out.doc = [&p, &s]
                .into_iter()
                .find_map(|d| d.get("description")?.as_str().map(str::trim))
                .filter(|d| !d.is_empty())
                .map(str::to_owned);
            super::schema::param_format(self, &s, &ty, &at);
            out.from_credential = p
                .get("x-from-credential")
                .and_then(Value::as_str)
                .map(str::to_owned);
            if matches!(ty.as_str(), "integer" | "number") {
                out.min = s
                    .get("minimum")
                    .and_then(Value::as_f64)
                    .filter(|v| v.is_finite());
                out.max = s
                    .get("maximum")
                    .and_then(Value::as_f64)
                    .filter(|v| v.is_finite());
                if let (Some(lo), Some(hi)) = (out.min, out.max)
                    && lo > hi
                {
                    out.min = None;
                    out.max = None;
                }
            }
            out.default = super::schema::default_of(&s, &ty, self, &schema_at);
            // A number's default said in words only (Twilio's `PageSize`: "The default is 50,
            // and the maximum is 100."), where its schema has none.
            if out.default.is_none()
                && ty == "integer"
                && let Some(n) = out.doc.as_deref().and_then(super::schema::default_in_words)
            {
                self.inferred(
                    &at,
                    &format!("`{pname}` defaults to {n}, as its description says"),
                );
                out.default = Some(Value::from(n));
            }
            if ty == "string" {
                out.max_len = s.get("maxLength").and_then(Value::as_u64);
                out.min_len = s
                    .get("minLength")
                    .and_then(Value::as_u64)
                    .filter(|&lo| lo > 0 && out.max_len.is_none_or(|hi| lo <= hi));
                out.pattern = super::schema::pattern(&s, &schema_at, self);
            }
            if place == "path" {
                out.wire = super::routes::usable_path_name(&pname, &mut template, &mut rust_names);
                path_params.push(out);
            } else {
                let taken = if place == "header" {
                    &mut header_names
                } else {
                    &mut query_names
                };
                out.rust_name = super::rust_rename(&pname, taken);
                if let Some(r) = &out.rust_name {
                    self.approximate(
                        &at,
                        &format!(
                            "renamed: `{pname}` has no Rust name of its own; `rust_name: {r}`"
                        ),
                    );
                }
                if place == "header" {
                    headers.push(out);
                } else {
                    query.push(out);
                }
            }
        }
        // Path order, so method arguments read like the URL.
        let order = placeholders(&template).unwrap_or_default();
        path_params.sort_by_key(|p| {
            order
                .iter()
                .position(|x| *x == p.wire)
                .unwrap_or(usize::MAX)
        });

        // Body.
        let body = match body_schema {
            _ if binary.is_some() && method == "get" => {
                self.approximate(
                    ptr,
                    "a GET request body left out (the spec language has none)",
                );
                binary = None;
                None
            }
            _ if binary.is_some() => {
                body_encoding = Some("binary");
                Some("bytes".to_owned())
            }
            Some(_) if method == "get" => {
                self.approximate(
                    ptr,
                    "a GET request body left out (the spec language has none)",
                );
                // With its encoding: a form style without a body is refused by `check`, which
                // would drop the whole operation.
                body_encoding = None;
                form_style = None;
                None
            }
            Some((schema, at)) => {
                self.bytes_fields = body_encoding == Some("multipart");
                let t = self.ty(&schema, &at, &format!("{op_pascal}Request"), 0);
                self.bytes_fields = false;
                let t = t.map_err(|e| format!("request body type not mappable | {e}"))?;
                if body_encoding.is_some()
                    && !matches!(self.types.get(&t), Some(super::TypeOut::Object { .. }))
                {
                    return Err(format!(
                        "a form or multipart body that is not an object | typed `{t}`"
                    ));
                }
                Some(t)
            }
            None => None,
        };

        // Success body and status; error statuses.
        let responses = op.get("responses").and_then(Value::as_object);
        let mut codes: Vec<(u16, &String)> = responses
            .into_iter()
            .flatten()
            .filter_map(|(k, _)| Some((k.parse::<u16>().ok()?, k)))
            .collect();
        codes.sort();
        let success = codes
            .iter()
            .find(|(c, _)| (200..=299).contains(c))
            .map(|(c, k)| (*c, (*k).clone()))
            .or_else(|| {
                responses
                    .and_then(|r| r.keys().find(|k| k.eq_ignore_ascii_case("2XX")))
                    .map(|k| (200, k.clone()))
            });
        // Only a redirect (Twilio's `GET /v1/Deactivations`, a 307 to a file): reported, not
        // dropped in silence.
        if success.is_none()
            && let Some((code, _)) = codes.iter().find(|(c, _)| (300..=399).contains(c))
        {
            self.approximate(ptr, &format!("answers only {code}, a redirect the client follows: no answer of its own is imported"));
        }
        let mut response = None;
        let mut status = Vec::new();
        let mut response_headers = Vec::new();
        if let Some((code, key)) = success {
            status = codes
                .iter()
                .map(|(c, _)| *c)
                .filter(|c| (200..=299).contains(c))
                .collect();
            if status.is_empty() {
                status.push(code);
            }
            self.other_success_bodies(responses, &status, code, ptr);
            response_headers = self.response_headers(responses, &status, ptr, &op_pascal);
            let rptr = format!("{ptr}/responses/{}", escape(&key));
            let mut found = responses
                .and_then(|r| r.get(&key))
                .and_then(|r| deref(doc, r, &rptr));
            // 204 and 205 answers carry no body (RFC 9110 15.3.5, 15.3.6), whatever schema
            // the document gives them (SendGrid's deletes show `{type: object}`).
            // Nor does the answer to a HEAD (RFC 9110 9.3.2): what it tells is in its status
            // and headers.
            if (matches!(code, 204 | 205) || method == "head")
                && found.as_ref().is_some_and(|(r, _)| {
                    r.get("content")
                        .and_then(Value::as_object)
                        .is_some_and(|c| !c.is_empty())
                        || r.get("schema").is_some()
                })
            {
                let what = if method == "head" {
                    "an answer to a HEAD".to_owned()
                } else {
                    format!("a {code} answer")
                };
                self.approximate(
                    &rptr,
                    &format!("{what} carries no body: the schema given for it is dropped"),
                );
                found = None;
            }
            if let Some((r, at)) = found
                && let Some(content) = r
                    .get("content")
                    .and_then(Value::as_object)
                    .filter(|c| !c.is_empty())
            {
                match json_media(content) {
                    Some((media, m)) => {
                        let schema = m
                            .get("schema")
                            .cloned()
                            .unwrap_or(Value::Object(Map::new()));
                        let sptr = format!("{at}/content/{}/schema", escape(media));
                        response = Some(self.response_type(op, &schema, &sptr, &op_pascal)?);
                    }
                    None => {
                        let media = content.keys().next().cloned().unwrap_or_default();
                        response = Some(if media.starts_with("text/") {
                            "text".to_owned()
                        } else {
                            "bytes".to_owned()
                        });
                    }
                }
            }
        }
        let errors: Vec<u16> = codes
            .iter()
            .map(|(c, _)| *c)
            .filter(|c| (400..=599).contains(c))
            .collect();

        // Auth: the operation's own scheme when it differs from the default.
        let auth = self.operation_auth(op, ptr);

        // Our own exports say how an operation is retried.
        let documented_key_taken = documented_key.is_some();
        if let Some((header, max_len, at)) = documented_key {
            if self.idempotency.is_none() {
                let mut node = Node::map();
                node.set("header", Node::str(&header));
                let max_len = max_len.unwrap_or(DEFAULT_IDEMPOTENCY_KEY_LEN);
                node.set(
                    "max_len",
                    Node::Int(i64::try_from(max_len).unwrap_or(i64::MAX)),
                );
                self.provenance(&mut node, &at);
                self.idempotency = Some(node);
            }
            self.report.inferred.push(Finding {
                pointer: at,
                reason: format!(
                    "`{header}` is the idempotency key: the client makes one per call and sends it on every attempt (`idempotency: key`)"
                ),
                detail: None,
            });
        }
        let idempotency = match op.get("x-idempotency").and_then(Value::as_str) {
            _ if documented_key_taken => Some("key"),
            Some("key") if self.idempotency.is_some() => Some("key"),
            Some("safe") if matches!(method, "post" | "patch") => Some("safe"),
            Some("none") if matches!(method, "get" | "put" | "delete") => Some("none"),
            _ => None,
        };

        let mut doc_text = String::new();
        let summary = op
            .get("summary")
            .and_then(Value::as_str)
            .map(str::trim)
            .unwrap_or_default();
        let description = op
            .get("description")
            .and_then(Value::as_str)
            .map(str::trim)
            .unwrap_or_default();
        doc_text.push_str(summary);
        if !description.is_empty() && description != summary {
            if !doc_text.is_empty() {
                doc_text.push_str("\n\n");
            }
            doc_text.push_str(description);
        }
        if op.get("deprecated").and_then(Value::as_bool) == Some(true) {
            doc_text.push_str(if doc_text.is_empty() {
                "Deprecated."
            } else {
                "\n\nDeprecated."
            });
        }
        // Its `callbacks` are webhooks (`webhooks.rs`).
        // 200 goes without saying where there is an answer (a HEAD's default too); an
        // operation that answers nothing is 204 by default, so a documented 200 is kept.
        let says_200 = response.is_some() || method == "head";
        let status = if status == [200] && says_200 {
            Vec::new()
        } else {
            status
        };
        Ok(OpOut {
            name: name.to_owned(),
            method: method.to_ascii_uppercase(),
            path: template,
            doc: (!doc_text.is_empty()).then_some(doc_text),
            path_params,
            query,
            headers,
            body,
            body_encoding,
            form_style,
            body_media: binary.unwrap_or(json_also),
            response,
            status,
            errors,
            error_bodies: Vec::new(),
            response_headers,
            idempotency,
            auth,
            pagination: None,
            pointer: ptr.to_owned(),
        })
    }
}
