//! The client struct of a service and one method per operation.
//!
//! Each method is a plain function: it fills a `tidings_runtime::Request` (path parameters, query,
//! JSON body, the spec's checks) and returns a `tidings_runtime::Call`, which sends it through
//! `Client::execute`, the runtime's one non-generic entry point, when awaited. No `async fn`
//! per operation: the generated crate compiles no state machines.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Settings, docs, rust_type};
use crate::model::{IdempotencyMode, QueryStyle, WebhookSignature};
use crate::names::{ident, shouty};
use crate::resolved::{Answer, BodyEncodingInfo, OperationInfo, ParamInfo, Service, Ty};

/// The operation statics, the client struct with its methods, the query structs and the webhook
/// check: one chunk of tokens per item, made as the iterator is read.
pub(super) fn items<'a>(
    service: &'a Service,
    settings: &'a Settings,
) -> impl Iterator<Item = TokenStream> + 'a {
    // Operations with the same parameters share one struct; the others' names are aliases.
    let queries = super::alias::param_aliases(service, |op| {
        Some((op.query_type.clone()?, op.query.as_slice()))
    });
    let headers = super::alias::param_aliases(service, |op| {
        Some((op.headers_type.clone()?, op.headers.as_slice()))
    });
    std::iter::once_with(|| client(service, settings))
        .chain(service.operations.iter().filter_map(move |op| {
            let name = op.query_type.as_deref()?;
            match queries.get(name) {
                Some(kept) => Some(param_alias(op, "Query", name, kept)),
                None => query_struct(op, settings),
            }
        }))
        .chain(service.operations.iter().filter_map(move |op| {
            let name = op.headers_type.as_deref()?;
            match headers.get(name) {
                Some(kept) => Some(param_alias(op, "Header", name, kept)),
                None => headers_struct(op, settings),
            }
        }))
        .chain(std::iter::once_with(|| webhook(service)).flatten())
        .chain(std::iter::once_with(|| super::webhooks::items(service)).flatten())
}

/// The operation statics and the client struct with one method per operation.
fn client(service: &Service, settings: &Settings) -> TokenStream {
    let name = client_name(service);
    let title = service.title();
    let service_name = service.name();
    let krate = settings.crate_path();
    // One runnable example for the whole client, calling its first operation: every method has
    // the same shape (arguments, `.await?`, a typed answer), so one example teaches them all.
    // An operation with its own auth or a conflict in its spec is a poor first lesson.
    let call = service
        .operations
        .iter()
        .find(|op| op.auth.is_none() && op.conflict.is_none())
        .or(service.operations.first())
        .map(|op| format!("{}\n", example(service, op, settings)))
        .unwrap_or_default();
    let struct_doc = docs(&format!(
        "Client for the {title}: one async method per operation.\n\n\
         Cheap to clone: clones share one connection pool, rate limiter and retry budget. Each \
         method checks its input against the spec before sending and fails with \
         [`Error`](rt::Error): invalid input, auth, rate limit, API error, timeout, transport \
         or decode.\n\n\
         # Example\n\n\
         ```no_run\n\
         # async fn example() -> Result<(), tidings_runtime::Error> {{\n\
         let client = {krate}::{service_name}::{name}::from_env()?;\n\
         {call}\
         # Ok(())\n\
         # }}\n\
         ```"
    ));
    // An operation with its own pagination names the runtime's `PaginationSpec`.
    let rt_import = service
        .operations
        .iter()
        .any(|op| op.pagination.as_ref().is_some_and(|p| p.own))
        .then(|| {
            quote!(
                use ::tidings_runtime as rt;
            )
        });
    let statics = service.operations.iter().map(operation_static);
    let methods = service.operations.iter().map(|op| method(op, settings));
    quote! {
        /// Static descriptions of every operation, as the runtime sees them.
        pub mod operations {
            use ::tidings_runtime::spec::OperationSpec as Op;
            #rt_import

            #(#statics)*
        }

        #struct_doc
        #[derive(Clone, Debug)]
        pub struct #name {
            inner: rt::Client,
        }

        impl From<rt::Client> for #name {
            fn from(inner: rt::Client) -> Self {
                Self { inner }
            }
        }

        impl #name {
            /// A builder with this service's defaults: set the base URL, credentials, timeouts,
            /// retry policy or rate limit, then `build()`.
            pub fn builder() -> rt::ClientBuilder<Self> {
                rt::ClientBuilder::for_service(&SERVICE)
            }

            /// A client configured from the environment variables the spec names.
            pub fn from_env() -> rt::Result<Self> {
                Self::builder().env().build()
            }

            /// A clone whose calls use `options` (timeouts, idempotency key, retries).
            pub fn with_options(&self, options: rt::CallOptions) -> Self {
                Self { inner: self.inner.with_options(options) }
            }

            /// The runtime client underneath.
            pub fn runtime(&self) -> &rt::Client {
                &self.inner
            }

            #(#methods)*
        }
    }
}

fn client_name(service: &Service) -> proc_macro2::Ident {
    format_ident!("{}", crate::names::client_type(service.name()))
}

/// The query struct of an operation, when it has query parameters.
pub(super) fn query_name(op: &OperationInfo) -> Option<proc_macro2::Ident> {
    op.query_type.as_ref().map(|q| format_ident!("{}", q))
}

/// The header struct of an operation, when it has header parameters.
pub(super) fn headers_name(op: &OperationInfo) -> Option<proc_macro2::Ident> {
    op.headers_type.as_ref().map(|h| format_ident!("{}", h))
}

/// Some header parameter has limits to check before sending.
pub(super) fn headers_checked(op: &OperationInfo) -> bool {
    op.headers.iter().any(|p| p.constraints.client_checks())
}

fn operation_static(op: &OperationInfo) -> TokenStream {
    let id = format_ident!("{}", crate::names::op_static(&op.name));
    // The method's constructor and only what differs from its defaults (`OperationSpec`'s
    // `ToTokens`).
    let spec = crate::describe::operation_spec(op);
    // An operation with its own pagination has its own `PaginationSpec`.
    let pages = op.pagination.as_ref().filter(|p| p.own).map(|p| {
        let pages_id = pages_static(op);
        let spec = super::service::pagination_spec(p);
        quote! {
            /// How this operation's pages are read and followed.
            pub static #pages_id: rt::spec::PaginationSpec = #spec;
        }
    });
    quote! {
        pub static #id: Op = #spec;
        #pages
    }
}

fn pages_static(op: &OperationInfo) -> proc_macro2::Ident {
    format_ident!("{}_PAGES", shouty(&op.name))
}

/// The `PaginationSpec` an operation pages with, as a path from the client's module.
fn pages_path(op: &OperationInfo) -> TokenStream {
    match &op.pagination {
        Some(p) if p.own => {
            let id = pages_static(op);
            quote!(operations::#id)
        }
        _ => quote!(PAGINATION),
    }
}

/// A `tidings_runtime::spec::FormStyle` value.
fn form_style(style: &crate::resolved::FormStyleInfo) -> TokenStream {
    form_style_tokens(style, &quote!(rt))
}

/// A `tidings_runtime::spec::FormStyle` value, the runtime crate at `rt`.
pub(super) fn form_style_tokens(
    style: &crate::resolved::FormStyleInfo,
    rt: &TokenStream,
) -> TokenStream {
    use crate::model::{FormArrays, FormNested};
    let arrays = match style.arrays {
        FormArrays::Repeat => quote!(Repeat),
        FormArrays::Brackets => quote!(Brackets),
        FormArrays::Indexed => quote!(Indexed),
        FormArrays::Comma => quote!(Comma),
        FormArrays::Json => quote!(Json),
    };
    let nested = match style.nested {
        FormNested::Brackets => quote!(Brackets),
        FormNested::Dots => quote!(Dots),
        FormNested::Json => quote!(Json),
    };
    quote!(#rt::spec::FormStyle { arrays: #rt::spec::ArrayStyle::#arrays, nested: #rt::spec::NestedStyle::#nested })
}

/// The Rust type of a method argument for a parameter.
fn param_arg_type(p: &ParamInfo) -> TokenStream {
    match &p.ty {
        Ty::String | Ty::DateTime | Ty::Date => quote!(&str),
        other => {
            let t = rust_type(other);
            quote!(&#t)
        }
    }
}

fn method_doc(op: &OperationInfo, settings: &Settings) -> TokenStream {
    let mut text = String::new();
    if let Some(doc) = op.doc.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        text.push_str(doc);
        text.push_str("\n\n");
    }
    text.push_str(&format!("`{} {}`. ", op.method.as_str(), op.path));
    text.push_str(match op.idempotency {
        IdempotencyMode::Safe => "Retried on transient failures.",
        IdempotencyMode::Key => {
            "Retried safely with an idempotency key (one per call, or the one in `CallOptions`)."
        }
        IdempotencyMode::None => "Never sent twice once it may have reached the server.",
    });
    match &op.auth {
        Some(a) if a.is_anonymous() => text.push_str(" Public: sent without credentials."),
        Some(a) => {
            let credentials: Vec<String> =
                a.credentials().iter().map(|c| format!("`{c}`")).collect();
            text.push_str(&format!(
                " Sent with the `{}` auth scheme (credential{} {}).",
                a.name,
                if credentials.len() == 1 { "" } else { "s" },
                credentials.join(" and ")
            ));
        }
        None => {}
    }
    if let Some(line) = settings.provenance_line(op.source) {
        text.push(' ');
        text.push_str(line);
    }
    if let Some(note) = &op.note {
        text.push_str(&format!("\n\nNote: {}", note.trim()));
    }
    if let Some(conflict) = &op.conflict {
        text.push_str(&format!(
            "\n\n{}: {}",
            settings.conflict_heading(),
            conflict.trim()
        ));
    }
    if !op.response_headers.is_empty() {
        text.push_str(
            "\n\nThe answer's headers (read them with `.with_headers()`, whose `header(name)` \
             gives a value):",
        );
        for h in &op.response_headers {
            text.push_str(&format!("\n- `{}`", h.name));
            let summary = h
                .doc
                .as_deref()
                .and_then(|d| d.lines().map(str::trim).find(|l| !l.is_empty()));
            if let Some(summary) = summary {
                text.push_str(": ");
                text.push_str(summary);
            }
        }
    }
    docs(&text)
}

/// A compiling example call of the service's first operation, for the client's docs.
fn example(service: &Service, op: &OperationInfo, settings: &Settings) -> String {
    let module = format!("{}::{}", settings.crate_path(), service.name());
    let mut args: Vec<String> = Vec::new();
    let mut setup = String::new();
    for p in op
        .path_params
        .iter()
        .filter(|p| p.from_credential.is_none())
    {
        args.push(match &p.ty {
            Ty::String | Ty::DateTime | Ty::Date => format!("\"{}\"", example_value(&p.wire)),
            Ty::Integer => "&1".into(),
            Ty::Number => "&1.0".into(),
            Ty::Boolean => "&true".into(),
            _ => format!("&{}", p.rust),
        });
        if !matches!(
            p.ty,
            Ty::String | Ty::DateTime | Ty::Date | Ty::Integer | Ty::Number | Ty::Boolean
        ) {
            setup.push_str(&format!(
                "# let {}: {module}::{} = todo!();\n",
                p.rust,
                rust_type(&p.ty)
            ));
        }
    }
    if op.body_encoding == BodyEncodingInfo::Binary {
        let media = op
            .body_media
            .first()
            .filter(|m| !m.contains('*'))
            .map_or("application/octet-stream", String::as_str);
        setup.push_str(&format!(
            "# let data: Vec<u8> = todo!();\nlet body = tidings_runtime::Binary::new({media:?}, data);\n"
        ));
        args.push("body".into());
    } else if let Some(body) = &op.body {
        setup.push_str(&format!(
            "# let body: {} = todo!();\n",
            qualified(&module, body)
        ));
        args.push("&body".into());
    }
    if let Some(query) = &op.query_type {
        // Every parameter optional: the empty query; else its `new` needs values to invent.
        if op.query.iter().all(|p| !p.required) {
            setup.push_str(&format!("let query = {module}::{query}::default();\n"));
        } else {
            setup.push_str(&format!("# let query: {module}::{query} = todo!();\n"));
        }
        args.push("&query".into());
    }
    if let Some(headers) = &op.headers_type {
        setup.push_str(&format!("# let headers: {module}::{headers} = todo!();\n"));
        args.push("&headers".into());
    }
    let call = format!("client.{}({})", op.name, args.join(", "));
    let items_field = match (&op.response, &op.pagination) {
        (Some(Ty::Page(_)), Some(p)) if p.generated_page => Some(page_items_field(service)),
        (Some(Ty::Page(_)), Some(_)) => Some("items".to_owned()),
        _ => None,
    };
    if let Some(items) = items_field {
        format!("{setup}let page = {call}.await?;\nprintln!(\"{{}} items\", page.{items}.len());")
    } else if op.response.is_some() || matches!(op.answer, Answer::Text | Answer::Bytes) {
        format!("{setup}let response = {call}.await?;\nprintln!(\"{{response:?}}\");")
    } else {
        format!("{setup}{call}.await?;")
    }
}

fn page_items_field(service: &Service) -> String {
    service
        .page_style
        .as_ref()
        .map(|p| crate::names::snake(&p.items_field))
        .unwrap_or_else(|| "data".into())
}

/// A type as a doc example writes it, named types under `module` (`tidings::email`).
fn qualified(module: &str, ty: &Ty) -> String {
    super::rust_type_with(ty, &|name| {
        let path: TokenStream = format!("{module}::{name}").parse().unwrap_or_default();
        path
    })
    .to_string()
    .replace(' ', "")
}

fn example_value(name: &str) -> &'static str {
    match name {
        "id" => "id_123",
        "email" => "ada@example.com",
        _ => "value",
    }
}

fn method(op: &OperationInfo, settings: &Settings) -> TokenStream {
    let doc = method_doc(op, settings);
    let name = ident(&op.name);
    let op_static = format_ident!("{}", crate::names::op_static(&op.name));
    let mut path_args = Vec::new();
    let mut path_fill = Vec::new();
    for p in &op.path_params {
        let wire = &p.wire;
        match &p.from_credential {
            Some(cred) => path_fill.push(
                quote!(.path_param(#wire, self.inner.credential_value(#cred).unwrap_or_default())),
            ),
            None => {
                let arg = ident(&p.rust);
                let ty = param_arg_type(p);
                path_args.push(quote!(#arg: #ty));
                path_fill.push(match &p.ty {
                    Ty::String | Ty::DateTime | Ty::Date => quote!(.path_param(#wire, #arg)),
                    _ => quote!(.path_param(#wire, &#arg.to_string())),
                });
            }
        }
    }
    let mut args = path_args.clone();
    // Steps that can fail (serialising, the spec's checks): the first returns a `Result`, the
    // next ones go through `and_then`.
    let mut fallible = Vec::new();
    if let Some(body) = &op.body {
        let ty = rust_type(body);
        args.push(match op.body_encoding {
            // The bytes as they are, with the media type the caller gives.
            BodyEncodingInfo::Binary => quote!(body: rt::Binary),
            _ => quote!(body: &#ty),
        });
        fallible.push(match (&op.body_encoding, op.body_checked) {
            (BodyEncodingInfo::Json, true) => quote!(checked_json(body)),
            (BodyEncodingInfo::Json, false) => quote!(json(body)),
            (BodyEncodingInfo::Form(style), checked) => {
                let style = form_style(style);
                if checked {
                    quote!(checked_form(body, #style))
                } else {
                    quote!(form(body, #style))
                }
            }
            (BodyEncodingInfo::Multipart(style), checked) => {
                let style = form_style(style);
                if checked {
                    quote!(checked_multipart(body, #style))
                } else {
                    quote!(multipart(body, #style))
                }
            }
            (BodyEncodingInfo::Binary, _) => quote!(binary(body)),
        });
    }
    // The body field that selects this operation on a shared route must say so.
    if let Some(when) = &op.when {
        let (field, value) = (&when.field, &when.equals);
        fallible.push(quote!(body_selects(#field, #value)));
    }
    // A write without a body in the spec sends `{}`: the runtime starts such requests with it.
    let query_arg = query_name(op).map(|q| quote!(query: &#q));
    let query_fill = if op.query_checked {
        quote!(checked_query(query))
    } else {
        quote!(query(query))
    };
    if let Some(arg) = &query_arg {
        args.push(arg.clone());
        fallible.push(query_fill.clone());
    }
    let headers_arg = headers_name(op).map(|h| quote!(headers: &#h));
    let headers_fill = if headers_checked(op) {
        quote!(checked_header_params(headers))
    } else {
        quote!(header_params(headers))
    };
    if let Some(arg) = &headers_arg {
        args.push(arg.clone());
        fallible.push(headers_fill.clone());
    }
    let steps = fallible.iter().enumerate().map(|(i, step)| {
        if i == 0 {
            quote!(.#step)
        } else {
            quote!(.and_then(|request| request.#step))
        }
    });
    let (ret, call) = answer(op);
    // `#[inline]`: compiled (with the serde code it reaches) in the crate that calls it, not
    // in this one, so an application pays the compiler for the operations it calls only.
    let main = quote! {
        #doc
        #[inline]
        pub fn #name(&self, #(#args),*) -> rt::Call<#ret> {
            let request = rt::Request::new(&operations::#op_static) #(#path_fill)* #(#steps)*;
            self.inner.#call
        }
    };
    let Some(item) = op.page_item() else {
        return main;
    };
    let item_ty = rust_type(item);
    let pages = pages_path(op);
    let stream_name = format_ident!("{}", crate::names::stream_method(&op.name));
    let stream_doc = docs(&format!(
        "Every item of every page of [`Self::{}`], fetched page by page as the stream is read.",
        op.name
    ));
    let mut stream_args = path_args;
    let mut stream_steps = Vec::new();
    if let Some(arg) = query_arg {
        stream_args.push(arg);
        stream_steps.push(query_fill);
    }
    if let Some(arg) = headers_arg {
        stream_args.push(arg);
        stream_steps.push(headers_fill);
    }
    let stream_steps = stream_steps.iter().enumerate().map(|(i, step)| {
        if i == 0 {
            quote!(.#step)
        } else {
            quote!(.and_then(|request| request.#step))
        }
    });
    quote! {
        #main

        #stream_doc
        #[inline]
        pub fn #stream_name(&self, #(#stream_args),*) -> rt::ItemStream<#item_ty> {
            let request = rt::Request::new(&operations::#op_static) #(#path_fill)* #(#stream_steps)*;
            self.inner.paginate(request, &#pages)
        }
    }
}

/// The answer type of an operation's method and the runtime call that reads it.
fn answer(op: &OperationInfo) -> (TokenStream, TokenStream) {
    match (op.answer, &op.response) {
        (Answer::Text, _) => (quote!(String), quote!(call_text(request))),
        (Answer::Bytes, _) => (quote!(Vec<u8>), quote!(call_bytes(request))),
        (Answer::Ignored, _) | (_, None) => (quote!(()), quote!(call_ignoring_body(request))),
        (Answer::Json, Some(Ty::Page(item)))
            if op.pagination.as_ref().is_some_and(|p| !p.generated_page) =>
        {
            let item = rust_type(item);
            let pages = pages_path(op);
            (quote!(rt::Page<#item>), quote!(call_page(request, &#pages)))
        }
        (Answer::Json, Some(ty)) if !op.empty_statuses.is_empty() => {
            let ty = rust_type(ty);
            let empty = op
                .empty_statuses
                .iter()
                .map(|s| proc_macro2::Literal::u16_unsuffixed(*s));
            (
                quote!(Option<#ty>),
                quote!(call_optional(request, &[#(#empty),*])),
            )
        }
        (Answer::Json, Some(ty)) => (rust_type(ty), quote!(call(request))),
    }
}

fn query_struct(op: &OperationInfo, settings: &Settings) -> Option<TokenStream> {
    let name = query_name(op)?;
    let doc = docs(&format!("Query parameters of `{}`.", op.name));
    Some(param_struct(
        op,
        settings,
        &name,
        doc,
        &op.query,
        op.query_checked,
        |p| p.wire.clone(),
    ))
}

fn headers_struct(op: &OperationInfo, settings: &Settings) -> Option<TokenStream> {
    let name = headers_name(op)?;
    let doc = docs(&format!("Header parameters of `{}`.", op.name));
    // Header names are case-insensitive and travel in lower case.
    Some(param_struct(
        op,
        settings,
        &name,
        doc,
        &op.headers,
        headers_checked(op),
        |p| p.wire.to_ascii_lowercase(),
    ))
}

/// `pub type Name = Kept;`: an operation's query or header parameters, the same as another
/// operation's.
fn param_alias(op: &OperationInfo, what: &str, name: &str, kept: &str) -> TokenStream {
    let doc = docs(&format!(
        "{what} parameters of `{}`: the same as [`{kept}`], so one struct serves both.",
        op.name
    ));
    let (name, kept) = (format_ident!("{}", name), format_ident!("{}", kept));
    quote! {
        #doc
        pub type #name = #kept;
    }
}

/// A struct of query or header parameters, with its checks; `wire_of` gives each field's name
/// on the wire.
fn param_struct(
    op: &OperationInfo,
    settings: &Settings,
    name: &proc_macro2::Ident,
    doc: TokenStream,
    params: &[ParamInfo],
    checked: bool,
    wire_of: impl Fn(&ParamInfo) -> String,
) -> TokenStream {
    let all_optional = params.iter().all(|p| !p.required);
    let default = all_optional.then(|| quote!(Default,));
    let fields = params.iter().map(|p| {
        let fdoc = settings.member_docs(Some(&param_doc(p)), p.source, op.source);
        let id = ident(&p.rust);
        let ty = rust_type(&p.ty);
        let mut wire = wire_of(p);
        if p.style == Some(QueryStyle::Brackets) {
            wire.push_str("[]");
        }
        let rename = (p.rust != wire).then(|| quote!(#[serde(rename = #wire)]));
        let with = match p.style {
            Some(QueryStyle::Comma) if p.required => quote!(#[serde(with = "rt::query::comma")]),
            Some(QueryStyle::Comma) => {
                quote!(#[serde(default, with = "rt::query::comma::option")])
            }
            Some(QueryStyle::Json) if p.required => quote!(#[serde(with = "rt::query::json")]),
            Some(QueryStyle::Json) => quote!(#[serde(default, with = "rt::query::json::option")]),
            _ => quote!(),
        };
        // The runtime's encoder leaves out `None` parameters by itself.
        if p.required {
            quote!(#fdoc #rename #with pub #id: #ty,)
        } else {
            quote!(#fdoc #rename #with pub #id: Option<#ty>,)
        }
    });
    let checks = checked.then(|| {
        let per_param = params
            .iter()
            .filter(|p| p.constraints.client_checks())
            .map(|p| {
                let id = ident(&p.rust);
                let wire = &p.wire;
                let c = &p.constraints;
                let max_len = c.max_len.map(|n| {
                    let n = super::usize_lit(n);
                    quote!(v.max_len(#wire, &self.#id, #n);)
                });
                let min_len = c.min_len.map(|n| {
                    let n = super::usize_lit(n);
                    quote!(v.min_len(#wire, &self.#id, #n);)
                });
                let range = (c.min.is_some() || c.max.is_some()).then(|| {
                    let bound = |b: Option<f64>| match b {
                        Some(x) => {
                            let lit = proc_macro2::Literal::f64_unsuffixed(x);
                            quote!(Some(#lit))
                        }
                        None => quote!(None),
                    };
                    let (min, max) = (bound(c.min), bound(c.max));
                    quote!(v.range(#wire, &self.#id, #min, #max);)
                });
                quote!(#max_len #min_len #range)
            });
        quote! {
            impl rt::validate::Validate for #name {
                fn validate(&self, v: &mut rt::validate::Validator) {
                    #(#per_param)*
                }
            }
        }
    });
    let builders = param_builders(op, settings, name, params);
    // Sent by the client; servers read them back.
    let (derives, gated) = settings.serde_derives(crate::resolved::Flow {
        sent: true,
        received: false,
    });
    // `#[non_exhaustive]`, as the objects: other crates build it with `new` + setters (or
    // `Default`), so a parameter added to the spec does not break their build.
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq, #default #derives)]
        #gated
        #[non_exhaustive]
        pub struct #name {
            #(#fields)*
        }
        #builders
        #checks
    }
}

/// `new(required parameters...)` (none when every parameter is optional: `Default` is the
/// constructor then) and one chainable setter per optional parameter, as the objects have.
fn param_builders(
    op: &OperationInfo,
    settings: &Settings,
    name: &proc_macro2::Ident,
    params: &[ParamInfo],
) -> TokenStream {
    let members: Vec<super::types::Member<'_>> = params
        .iter()
        .map(|p| super::types::Member {
            rust: &p.rust,
            ty: &p.ty,
            required: p.required,
            boxed: false,
            doc: settings.member_docs(Some(&param_doc(p)), p.source, op.source),
        })
        .collect();
    super::types::builders(
        &name.to_string(),
        &members,
        "parameters",
        &TokenStream::new(),
    )
}

fn webhook(service: &Service) -> Option<TokenStream> {
    let webhook = service.webhook.as_ref()?;
    let secret_env = webhook.secret_env.as_deref().map(|env| {
        quote! {
            /// The environment variable the spec names for the webhook signing secret.
            pub const WEBHOOK_SECRET_ENV: &str = #env;
        }
    });
    let verify = verify_webhook(webhook)?;
    Some(quote!(#secret_env #verify))
}

/// `verify_webhook(...)`, when the spec gives the payload type and the signature scheme.
fn verify_webhook(webhook: &crate::resolved::WebhookInfo) -> Option<TokenStream> {
    let ty = webhook.ty.as_deref()?;
    let ty = format_ident!("{}", ty);
    let doc = webhook
        .doc
        .as_deref()
        .unwrap_or("Verifies a webhook delivery and decodes its payload.");
    let Some(signature) = webhook.signature else {
        // An unsigned webhook is still decoded (nothing proves its sender).
        let text = format!(
            "{doc}\n\nDecodes the JSON body; the spec gives no signature, so nothing proves who sent it.\n\n\
             # Errors\n\nA webhook error when the body is too large; a decode error when it is not a valid event."
        );
        let d = docs(&text);
        return Some(quote! {
            #d
            pub fn decode_webhook(body: &[u8]) -> Result<#ty, rt::Error> {
                rt::webhook::decode_event(body)
            }
        });
    };
    match signature {
        WebhookSignature::StandardWebhooks => {
            let text = format!(
                "{doc}\n\nChecks the Standard Webhooks signature (`webhook-id`, `webhook-timestamp`, \
                 `webhook-signature`) over the raw body with `secret` (`whsec_...`), then decodes the body.\n\n\
                 # Errors\n\nA webhook error when the signature, timestamp or secret is wrong; a decode error when the body is not a valid event."
            );
            let d = docs(&text);
            Some(quote! {
                #d
                pub fn verify_webhook(
                    secret: &str,
                    headers: &rt::reqwest::header::HeaderMap,
                    body: &[u8],
                ) -> Result<#ty, rt::Error> {
                    rt::webhook::StandardWebhooks::new(secret)?.verify(headers, body)?;
                    rt::webhook::decode_event(body)
                }
            })
        }
        WebhookSignature::Pusher => {
            let text = format!(
                "{doc}\n\nChecks `X-Pusher-Signature` (hex HMAC-SHA256 of the raw body with the app secret), then decodes the body.\n\n\
                 # Errors\n\nA webhook error when the signature is wrong; a decode error when the body is not a valid event."
            );
            let d = docs(&text);
            Some(quote! {
                #d
                pub fn verify_webhook(
                    secret: &str,
                    signature: &str,
                    body: &[u8],
                ) -> Result<#ty, rt::Error> {
                    rt::webhook::verify_pusher(secret, signature, body)?;
                    rt::webhook::decode_event(body)
                }
            })
        }
    }
}

/// A parameter's docs: the spec's text and the pattern its value matches.
fn param_doc(p: &ParamInfo) -> String {
    let mut text = p
        .doc
        .as_deref()
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    super::types::push_pattern_note(&mut text, &p.constraints);
    super::types::push_default_note(&mut text, p.default.as_ref());
    if p.style == Some(QueryStyle::Json) {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str("Sent in the query string as its JSON text.");
    }
    text
}
