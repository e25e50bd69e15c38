//! How the generator writes the descriptions as Rust (feature `tokens`): one
//! [`quote::ToTokens`] per type, each writing the value as an expression that builds it again,
//! by the path generated code reaches it, `::tidings_runtime::spec::*` (the runtime re-exports
//! this crate there; crates holding generated code depend on the runtime).
//!
//! ```
//! use quote::ToTokens;
//! use tidings_spec::{OperationSpec, PageStyle, PaginationSpec};
//!
//! let send = OperationSpec::post("send_email", "/v1/emails").idempotency_key();
//! assert_eq!(
//!     send.to_token_stream().to_string().replace(' ', ""),
//!     r#"::tidings_runtime::spec::OperationSpec::post("send_email","/v1/emails").idempotency_key()"#,
//! );
//! let pages = PaginationSpec { items: "data", style: PageStyle::LinkHeader };
//! assert!(pages.to_token_stream().to_string().contains("LinkHeader"));
//! ```

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, format_ident, quote};

use crate::*;

/// The path generated code names these types by.
fn root() -> TokenStream {
    quote!(::tidings_runtime::spec)
}

/// `Some("x")` / `None` for an optional text.
fn opt_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// `Some(x)` / `None` for any optional value.
fn opt<T: ToTokens>(value: Option<&T>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

fn opt_u64(value: Option<u64>) -> TokenStream {
    opt(value.map(Literal::u64_unsuffixed).as_ref())
}

fn opt_f64(value: Option<f64>) -> TokenStream {
    opt(value.map(Literal::f64_unsuffixed).as_ref())
}

fn u64_lit(value: u64) -> Literal {
    Literal::u64_unsuffixed(value)
}

/// A fieldless enum written as `root::Type::Variant` (its `Debug` name is the variant's).
macro_rules! unit_enum_tokens {
    ($($ty:ident),* $(,)?) => {$(
        impl ToTokens for $ty {
            fn to_tokens(&self, tokens: &mut TokenStream) {
                let root = root();
                let variant = format_ident!("{}", format!("{self:?}"));
                tokens.extend(quote!(#root::$ty::#variant));
            }
        }
    )*};
}

unit_enum_tokens!(
    Format,
    Method,
    RetryClass,
    ArrayStyle,
    NestedStyle,
    AnswerKind,
    ResourceAction,
    ChannelAuthKind,
    Direction,
    DataEncoding,
    MessageRole,
    CloseAction,
    HmacAlgorithm,
    SignatureEncoding,
    PayloadEncoding,
);

impl ToTokens for FormStyle {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (arrays, nested) = (self.arrays, self.nested);
        tokens.extend(quote!(#root::FormStyle { arrays: #arrays, nested: #nested }));
    }
}

impl ToTokens for BodyEncoding {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        tokens.extend(match self {
            BodyEncoding::Json => quote!(#root::BodyEncoding::Json),
            BodyEncoding::Form(s) => quote!(#root::BodyEncoding::Form(#s)),
            BodyEncoding::Multipart(s) => quote!(#root::BodyEncoding::Multipart(#s)),
            BodyEncoding::Binary => quote!(#root::BodyEncoding::Binary),
        });
    }
}

impl<S: Storage> ToTokens for SigningScheme<S> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let SigningScheme::PusherHmacSha256 {
            app_id,
            key,
            secret,
        } = self;
        let (app_id, key, secret) = (app_id.as_ref(), key.as_ref(), secret.as_ref());
        tokens.extend(quote! {
            #root::SigningScheme::PusherHmacSha256 { app_id: #app_id, key: #key, secret: #secret }
        });
    }
}

/// The text of an optional text, whatever its storage.
fn text<S: Storage>(value: Option<&S::Str>) -> Option<&str> {
    value.map(AsRef::as_ref)
}

impl<S: Storage> ToTokens for AuthScheme<S> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let scheme = quote!(#root::AuthScheme);
        tokens.extend(match self {
            AuthScheme::Bearer { credential } => {
                let credential = credential.as_ref();
                quote!(#scheme::Bearer { credential: #credential })
            }
            AuthScheme::Header {
                header,
                credential,
                prefix,
            } => {
                let (header, credential) = (header.as_ref(), credential.as_ref());
                let prefix = opt_str(text::<S>(prefix.as_ref()));
                quote!(#scheme::Header { header: #header, credential: #credential, prefix: #prefix })
            }
            AuthScheme::Query { params } => {
                let pairs = token_pairs(params.as_ref());
                quote!(#scheme::Query { params: &[#(#pairs),*] })
            }
            AuthScheme::Signature { scheme: signing } => {
                quote!(#scheme::Signature { scheme: #signing })
            }
            AuthScheme::Basic { username, password } => {
                let username = username.as_ref();
                let password = opt_str(text::<S>(password.as_ref()));
                quote!(#scheme::Basic { username: #username, password: #password })
            }
            AuthScheme::Body { fields } => {
                let pairs = token_pairs(fields.as_ref());
                quote!(#scheme::Body { fields: &[#(#pairs),*] })
            }
            AuthScheme::Minted {
                minter,
                header,
                prefix,
            } => {
                let (minter, header) = (minter.as_ref(), header.as_ref());
                let prefix = opt_str(text::<S>(prefix.as_ref()));
                quote!(#scheme::Minted { minter: #minter, header: #header, prefix: #prefix })
            }
            AuthScheme::OAuth2ClientCredentials {
                token_url,
                client_id,
                client_secret,
                scopes,
            } => {
                let (token_url, client_id) = (token_url.as_ref(), client_id.as_ref());
                let client_secret = client_secret.as_ref();
                let scopes = scopes.as_ref().iter().map(AsRef::as_ref);
                quote! {
                    #scheme::OAuth2ClientCredentials {
                        token_url: #token_url,
                        client_id: #client_id,
                        client_secret: #client_secret,
                        scopes: &[#(#scopes),*],
                    }
                }
            }
            AuthScheme::All { schemes } => {
                let schemes = schemes.as_ref().iter();
                quote!(#scheme::All { schemes: #root::AuthSchemes::new(&[#(#schemes),*]) })
            }
            AuthScheme::Anonymous => quote!(#scheme::Anonymous),
        });
    }
}

impl ToTokens for CredentialSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (name, env, secret) = (self.name, self.env, self.secret);
        let value = opt_str(self.value);
        tokens.extend(
            quote!(#root::CredentialSpec { name: #name, env: #env, secret: #secret, value: #value }),
        );
    }
}

impl ToTokens for RateLimitSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (requests, per) = (
            u64_lit(self.requests.into()),
            u64_lit(self.per_seconds.into()),
        );
        tokens.extend(quote!(#root::RateLimitSpec { requests: #requests, per_seconds: #per }));
    }
}

impl ToTokens for RateLimitHeaders {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let limit = opt_str(self.limit);
        let remaining = opt_str(self.remaining);
        let reset = opt_str(self.reset);
        let retry_after = opt_str(self.retry_after);
        tokens.extend(quote! {
            #root::RateLimitHeaders {
                limit: #limit, remaining: #remaining, reset: #reset, retry_after: #retry_after,
            }
        });
    }
}

impl<S: Storage> ToTokens for RetrySpec<S> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let d = RetrySpec::DEFAULT;
        if (
            self.max_attempts,
            self.base_ms,
            self.cap_ms,
            self.statuses.as_ref(),
        ) == (d.max_attempts, d.base_ms, d.cap_ms, d.statuses)
            && (self.connect_errors, self.timeouts, self.retry_after_cap_ms)
                == (d.connect_errors, d.timeouts, d.retry_after_cap_ms)
            && self.budget_ratio_percent == d.budget_ratio_percent
        {
            return tokens.extend(quote!(#root::RetrySpec::DEFAULT));
        }
        let max_attempts = u64_lit(self.max_attempts.into());
        let (base, cap) = (u64_lit(self.base_ms), u64_lit(self.cap_ms));
        let statuses = self.statuses.as_ref().iter().map(|s| u64_lit((*s).into()));
        let (connect_errors, timeouts) = (self.connect_errors, self.timeouts);
        let after_cap = u64_lit(self.retry_after_cap_ms);
        let budget = u64_lit(self.budget_ratio_percent.into());
        tokens.extend(quote! {
            #root::RetrySpec {
                max_attempts: #max_attempts, base_ms: #base, cap_ms: #cap,
                statuses: &[#(#statuses),*], connect_errors: #connect_errors, timeouts: #timeouts,
                retry_after_cap_ms: #after_cap, budget_ratio_percent: #budget,
            }
        });
    }
}

impl ToTokens for TimeoutSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        if *self == TimeoutSpec::DEFAULT {
            return tokens.extend(quote!(#root::TimeoutSpec::DEFAULT));
        }
        let (connect, attempt) = (u64_lit(self.connect_ms), u64_lit(self.attempt_ms));
        let total = opt_u64(self.total_ms);
        tokens.extend(quote! {
            #root::TimeoutSpec { connect_ms: #connect, attempt_ms: #attempt, total_ms: #total }
        });
    }
}

impl ToTokens for IdempotencySpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (header, max_len) = (self.header, Literal::usize_unsuffixed(self.max_len));
        tokens.extend(quote!(#root::IdempotencySpec { header: #header, max_len: #max_len }));
    }
}

impl ToTokens for FailureWhen {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        tokens.extend(match self {
            FailureWhen::Present => quote!(#root::FailureWhen::Present),
            FailureWhen::Equals(values) => quote!(#root::FailureWhen::Equals(&[#(#values),*])),
        });
    }
}

impl ToTokens for InSuccessSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (field, when) = (self.field, self.when);
        tokens.extend(quote!(#root::InSuccessSpec { field: #field, when: #when }));
    }
}

impl ToTokens for ErrorSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        if *self == ErrorSpec::DEFAULT {
            return tokens.extend(quote!(#root::ErrorSpec::DEFAULT));
        }
        let (code, message) = (opt_str(self.code), opt_str(self.message));
        let in_success = opt(self.in_success.as_ref());
        tokens.extend(quote! {
            #root::ErrorSpec { code: #code, message: #message, in_success: #in_success }
        });
    }
}

impl ToTokens for ErrorBodySpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (first, last) = (
            u64_lit(self.statuses.0.into()),
            u64_lit(self.statuses.1.into()),
        );
        let (code, message) = (opt_str(self.code), opt_str(self.message));
        let headers = self.headers;
        tokens.extend(quote! {
            #root::ErrorBodySpec {
                statuses: (#first, #last), code: #code, message: #message, headers: &[#(#headers),*],
            }
        });
    }
}

impl ToTokens for ServiceSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (name, title, env) = (self.name, self.title, self.base_url_env);
        let base_url = opt_str(self.base_url);
        let credentials = self.credentials;
        let auth = self.auth;
        let rate_limit = opt(self.rate_limit.as_ref());
        let headers = &self.rate_limit_headers;
        let (retry, timeouts, errors) = (&self.retry, &self.timeouts, &self.errors);
        let idempotency = opt(self.idempotency.as_ref());
        tokens.extend(quote! {
            #root::ServiceSpec {
                name: #name,
                title: #title,
                base_url: #base_url,
                base_url_env: #env,
                credentials: &[#(#credentials),*],
                auth: &[#(#auth),*],
                rate_limit: #rate_limit,
                rate_limit_headers: #headers,
                retry: #retry,
                timeouts: #timeouts,
                idempotency: #idempotency,
                errors: #errors,
            }
        });
    }
}

impl ToTokens for OperationSpec {
    /// The method's constructor (`OperationSpec::post(name, path)`) and only the modifiers that
    /// differ from its defaults.
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let base = OperationSpec::new(self.name, self.method, self.path);
        let constructor = format_ident!("{}", self.method.as_str().to_ascii_lowercase());
        let (name, path) = (self.name, self.path);
        let mut out = quote!(#root::OperationSpec::#constructor(#name, #path));
        if self.retry != base.retry {
            out.extend(match self.retry {
                RetryClass::IdempotencyKey => quote!(.idempotency_key()),
                other => quote!(.with_retry(#other)),
            });
        }
        if self.has_body != base.has_body {
            let has_body = self.has_body;
            out.extend(quote!(.with_body(#has_body)));
        }
        if let Some(auth) = &self.auth {
            out.extend(quote!(.with_auth(#auth)));
        }
        if self.body_encoding != base.body_encoding {
            let encoding = self.body_encoding;
            out.extend(quote!(.with_body_encoding(#encoding)));
        }
        if !self.body_media.is_empty() {
            let media = self.body_media;
            out.extend(quote!(.with_body_media(&[#(#media),*])));
        }
        if let Some(max) = self.max_body_bytes {
            let max = Literal::usize_unsuffixed(max);
            out.extend(quote!(.max_body_bytes(#max)));
        }
        if !self.errors.is_empty() {
            let bodies = self.errors;
            out.extend(quote!(.with_errors(&[#(#bodies),*])));
        }
        if !self.response_headers.is_empty() {
            let headers = self.response_headers;
            out.extend(quote!(.with_response_headers(&[#(#headers),*])));
        }
        tokens.extend(out);
    }
}

impl ToTokens for ResponseHeaderSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (name, ty) = (self.name, self.ty);
        tokens.extend(quote!(#root::ResponseHeaderSpec { name: #name, ty: #ty }));
    }
}

impl ToTokens for HeaderType {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let ty = quote!(#root::HeaderType);
        tokens.extend(match self {
            HeaderType::Text => quote!(#ty::Text),
            HeaderType::Integer => quote!(#ty::Integer),
            HeaderType::Number => quote!(#ty::Number),
            HeaderType::Boolean => quote!(#ty::Boolean),
            HeaderType::DateTime => quote!(#ty::DateTime),
            HeaderType::Date => quote!(#ty::Date),
            HeaderType::Enum(values) => quote!(#ty::Enum(&[#(#values),*])),
        });
    }
}

impl<S: Storage> ToTokens for PageStyle<S> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let style = quote!(#root::PageStyle);
        tokens.extend(match self {
            PageStyle::Cursor {
                has_more,
                cursor_field,
                after_param,
            } => {
                let (has_more, cursor_field) = (has_more.as_ref(), cursor_field.as_ref());
                let after_param = after_param.as_ref();
                quote! {
                    #style::Cursor { has_more: #has_more, cursor_field: #cursor_field, after_param: #after_param }
                }
            }
            PageStyle::Token {
                token_field,
                token_param,
            } => {
                let (token_field, token_param) = (token_field.as_ref(), token_param.as_ref());
                quote!(#style::Token { token_field: #token_field, token_param: #token_param })
            }
            PageStyle::NextUrl { next_field } => {
                let next_field = next_field.as_ref();
                quote!(#style::NextUrl { next_field: #next_field })
            }
            PageStyle::LinkHeader => quote!(#style::LinkHeader),
            PageStyle::Offset {
                offset_param,
                limit_param,
                total_field,
            } => {
                let offset_param = offset_param.as_ref();
                let limit = opt_str(text::<S>(limit_param.as_ref()));
                let total = opt_str(text::<S>(total_field.as_ref()));
                quote!(#style::Offset { offset_param: #offset_param, limit_param: #limit, total_field: #total })
            }
            PageStyle::Page {
                page_param,
                size_param,
                first_page,
                total_pages_field,
            } => {
                let page_param = page_param.as_ref();
                let size = opt_str(text::<S>(size_param.as_ref()));
                let total = opt_str(text::<S>(total_pages_field.as_ref()));
                let first = u64_lit(*first_page);
                quote! {
                    #style::Page {
                        page_param: #page_param, size_param: #size, first_page: #first,
                        total_pages_field: #total,
                    }
                }
            }
        });
    }
}

impl ToTokens for PaginationSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let items = self.items;
        tokens.extend(match self.style {
            PageStyle::Cursor {
                has_more,
                cursor_field,
                after_param,
            } => quote! {
                #root::PaginationSpec::cursor(#items, #has_more, #cursor_field, #after_param)
            },
            style => quote!(#root::PaginationSpec { items: #items, style: #style }),
        });
    }
}

impl ToTokens for Ty {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let ty = quote!(#root::Ty);
        tokens.extend(match self {
            Ty::String => quote!(#ty::String),
            Ty::Integer => quote!(#ty::Integer),
            Ty::Number => quote!(#ty::Number),
            Ty::Boolean => quote!(#ty::Boolean),
            Ty::DateTime => quote!(#ty::DateTime),
            Ty::Date => quote!(#ty::Date),
            Ty::Json => quote!(#ty::Json),
            Ty::Named(name) => quote!(#ty::Named(#name)),
            Ty::List(inner) => quote!(#ty::List(&#inner)),
            Ty::Map(inner) => quote!(#ty::Map(&#inner)),
            Ty::Page(inner) => quote!(#ty::Page(&#inner)),
            Ty::Bytes => quote!(#ty::Bytes),
        });
    }
}

impl ToTokens for FieldSchema {
    /// Only what differs from [`FieldSchema::new`] is written: a provider's table has thousands
    /// of fields, most of them optional and unchecked.
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (name, ty) = (self.name, &self.ty);
        let mut set = Vec::new();
        for (key, on) in [
            ("required", self.required),
            ("nullable", self.nullable),
            ("read_only", self.read_only),
            ("write_only", self.write_only),
        ] {
            if on {
                let key = format_ident!("{key}");
                set.push(quote!(#key: true));
            }
        }
        if let Some(format) = &self.format {
            set.push(quote!(format: ::core::option::Option::Some(#format)));
        }
        for (key, value) in [
            ("min_len", self.min_len),
            ("max_len", self.max_len),
            ("min_items", self.min_items),
            ("max_items", self.max_items),
        ] {
            if value.is_some() {
                let key = format_ident!("{key}");
                let value = opt_u64(value);
                set.push(quote!(#key: #value));
            }
        }
        for (key, value) in [("min", self.min), ("max", self.max)] {
            if value.is_some() {
                let key = format_ident!("{key}");
                let value = opt_f64(value);
                set.push(quote!(#key: #value));
            }
        }
        for (key, value) in [
            ("pattern", self.pattern),
            ("default", self.default),
            ("example", self.example),
        ] {
            if value.is_some() {
                let key = format_ident!("{key}");
                let value = opt_str(value);
                set.push(quote!(#key: #value));
            }
        }
        tokens.extend(if set.is_empty() {
            quote!(#root::FieldSchema::new(#name, #ty))
        } else {
            quote!(#root::FieldSchema { #(#set,)* ..#root::FieldSchema::new(#name, #ty) })
        });
    }
}

impl ToTokens for ShapeSchema {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let shape = quote!(#root::ShapeSchema);
        tokens.extend(match self {
            ShapeSchema::Object(fields) => quote!(#shape::Object(&[#(#fields),*])),
            ShapeSchema::Enum(values) => quote!(#shape::Enum(&[#(#values),*])),
            ShapeSchema::Union {
                tag,
                content,
                variants,
            } => {
                let content = opt_str(*content);
                let variants = variants.iter().map(|(value, ty)| {
                    let ty = opt_str(*ty);
                    quote!((#value, #ty))
                });
                quote!(#shape::Union { tag: #tag, content: #content, variants: &[#(#variants),*] })
            }
            ShapeSchema::Untagged(variants) => quote!(#shape::Untagged(&[#(#variants),*])),
        });
    }
}

impl ToTokens for TypeSchema {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (name, shape, keeps_other_keys) = (self.name, &self.shape, self.keeps_other_keys);
        tokens.extend(
            quote!(#root::TypeSchema { name: #name, shape: #shape, keeps_other_keys: #keeps_other_keys }),
        );
    }
}

impl ToTokens for PageSchema {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (limit, after, items, has_more) = (
            self.limit_param,
            self.after_param,
            self.items_field,
            self.has_more_field,
        );
        let before = opt_str(self.before_param);
        tokens.extend(quote! {
            #root::PageSchema {
                limit_param: #limit, after_param: #after, before_param: #before,
                items_field: #items, has_more_field: #has_more,
            }
        });
    }
}

impl ToTokens for ServiceSchema {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let types = self.types;
        let page = opt(self.page.as_ref());
        tokens.extend(quote!(#root::ServiceSchema { types: &[#(#types),*], page: #page }));
    }
}

impl ToTokens for ResourceOp {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (name, kind, collection, id_field) =
            (self.name, self.kind, self.collection, self.id_field);
        let item = opt_str(self.item_param);
        let item_field = opt_str(self.item_field);
        let response = opt(self.response.as_ref());
        let items = opt_str(self.items);
        let filters = token_pairs(self.filters);
        tokens.extend(quote! {
            #root::ResourceOp {
                name: #name, kind: #kind, collection: #collection, item_param: #item,
                item_field: #item_field, id_field: #id_field, response: #response, items: #items,
                filters: &[#(#filters),*],
            }
        });
    }
}

fn opt_u32(value: Option<u32>) -> TokenStream {
    opt(value.map(Literal::u32_unsuffixed).as_ref())
}

impl ToTokens for ChannelNameSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (pattern, reserved) = (opt_str(self.pattern), opt_str(self.reserved_prefix));
        let max_len = opt(self.max_len.map(Literal::usize_unsuffixed).as_ref());
        tokens.extend(quote! {
            #root::ChannelNameSpec { pattern: #pattern, max_len: #max_len, reserved_prefix: #reserved }
        });
    }
}

impl ToTokens for HeartbeatSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (ping, pong) = (u64_lit(self.ping_after_ms), u64_lit(self.pong_timeout_ms));
        tokens
            .extend(quote!(#root::HeartbeatSpec { ping_after_ms: #ping, pong_timeout_ms: #pong }));
    }
}

impl ToTokens for BackoffSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (base, cap) = (u64_lit(self.base_ms), u64_lit(self.cap_ms));
        tokens.extend(quote!(#root::BackoffSpec { base_ms: #base, cap_ms: #cap }));
    }
}

impl ToTokens for ClientEventSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (prefix, max) = (self.prefix, opt_u32(self.max_per_second));
        tokens.extend(quote!(#root::ClientEventSpec { prefix: #prefix, max_per_second: #max }));
    }
}

impl ToTokens for ChannelKindSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let ChannelKindSpec {
            name,
            prefix,
            auth,
            encrypted,
            cache,
            client_events,
        } = self;
        tokens.extend(quote! {
            #root::ChannelKindSpec {
                name: #name, prefix: #prefix, auth: #auth,
                encrypted: #encrypted, cache: #cache, client_events: #client_events,
            }
        });
    }
}

impl ToTokens for MessageSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let MessageSpec {
            name,
            event,
            direction,
            encoding,
            channel,
            role,
        } = self;
        let role = opt(role.as_ref());
        tokens.extend(quote! {
            #root::MessageSpec {
                name: #name, event: #event, direction: #direction,
                encoding: #encoding, channel: #channel, role: #role,
            }
        });
    }
}

impl ToTokens for CloseCodeSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (from, to) = (
            Literal::u16_unsuffixed(self.from),
            Literal::u16_unsuffixed(self.to),
        );
        let (action, min) = (self.action, u64_lit(self.min_delay_ms));
        tokens.extend(quote! {
            #root::CloseCodeSpec { from: #from, to: #to, action: #action, min_delay_ms: #min }
        });
    }
}

impl ToTokens for WebSocketSpec {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let (service, path) = (self.service, self.path);
        let query = self.query.iter().map(|(k, v)| quote!((#k, #v)));
        let protocol = Literal::u32_unsuffixed(self.protocol);
        let socket_id = opt_str(self.socket_id_pattern);
        let (names, heartbeat, reconnect) = (&self.channel_names, &self.heartbeat, &self.reconnect);
        let client_events = opt(self.client_events.as_ref());
        let (kinds, messages, closes) = (self.channel_kinds, self.messages, self.close_codes);
        tokens.extend(quote! {
            #root::WebSocketSpec {
                service: #service,
                path: #path,
                query: &[#(#query),*],
                protocol: #protocol,
                socket_id_pattern: #socket_id,
                channel_names: #names,
                heartbeat: #heartbeat,
                reconnect: #reconnect,
                client_events: #client_events,
                channel_kinds: &[#(#kinds),*],
                messages: &[#(#messages),*],
                close_codes: &[#(#closes),*],
            }
        });
    }
}

impl<S: Storage> ToTokens for SignedContent<S> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        tokens.extend(match self {
            SignedContent::RawBody => quote!(#root::SignedContent::RawBody),
            SignedContent::UrlSortedParams => quote!(#root::SignedContent::UrlSortedParams),
            SignedContent::Template(t) => {
                let t = t.as_ref();
                quote!(#root::SignedContent::Template(#t))
            }
        });
    }
}

impl ToTokens for SecretFormat {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        tokens.extend(match self {
            SecretFormat::Text => quote!(#root::SecretFormat::Text),
            SecretFormat::Base64 { prefix } => {
                quote!(#root::SecretFormat::Base64 { prefix: #prefix })
            }
        });
    }
}

impl ToTokens for SignatureScheme {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        let SignatureScheme {
            name,
            header,
            algorithm,
            over,
            encoding,
            prefix,
            separator,
            id_header,
            timestamp_header,
            tolerance_s,
            secret,
            aliases,
        } = self;
        let separator = opt(separator.as_ref());
        let (id_header, timestamp_header) = (opt_str(*id_header), opt_str(*timestamp_header));
        let tolerance_s = opt_u64(*tolerance_s);
        let aliases = aliases.iter().map(|(n, a)| quote!((#n, #a)));
        tokens.extend(quote! {
            #root::SignatureScheme {
                name: #name,
                header: #header,
                algorithm: #algorithm,
                over: #over,
                encoding: #encoding,
                prefix: #prefix,
                separator: #separator,
                id_header: #id_header,
                timestamp_header: #timestamp_header,
                tolerance_s: #tolerance_s,
                secret: #secret,
                aliases: &[#(#aliases),*],
            }
        });
    }
}

impl<S: Storage> ToTokens for Select<S> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let root = root();
        tokens.extend(match self {
            Select::Path(p) => {
                let p = p.as_ref();
                quote!(#root::Select::Path(#p))
            }
            Select::Header { name, equals } => {
                let (name, equals) = (name.as_ref(), opt_str(text::<S>(equals.as_ref())));
                quote!(#root::Select::Header { name: #name, equals: #equals })
            }
            Select::Field { name, equals } => {
                let (name, equals) = (name.as_ref(), opt_str(text::<S>(equals.as_ref())));
                quote!(#root::Select::Field { name: #name, equals: #equals })
            }
        });
    }
}

/// `(name, credential)` pairs as tuple literals.
fn token_pairs<T: AsRef<str>>(pairs: &[(T, T)]) -> impl Iterator<Item = TokenStream> + '_ {
    pairs.iter().map(|(name, credential)| {
        let (name, credential) = (name.as_ref(), credential.as_ref());
        quote!((#name, #credential))
    })
}
