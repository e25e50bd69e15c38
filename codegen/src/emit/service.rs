//! The static description of a service (`SERVICE`) that the runtime works from: base URL,
//! credentials, auth, limits, retry policy and timeouts, all taken from the spec.

use proc_macro2::TokenStream;
use quote::quote;

use super::{lit, opt_str};
use crate::model::SigningKind;
use crate::resolved::{AuthInfo, AuthMethod, Service, TypeInfo, TypeKind, ValueInfo};

/// A `tidings_runtime::AuthScheme` value for a resolved auth scheme.
pub(super) fn auth_scheme(a: &AuthInfo) -> TokenStream {
    match &a.method {
        AuthMethod::Bearer { credential } => {
            quote!(rt::AuthScheme::Bearer { credential: #credential })
        }
        AuthMethod::Header {
            header,
            credential,
            prefix,
        } => {
            let prefix = opt_str(prefix.as_deref());
            quote!(rt::AuthScheme::Header { header: #header, credential: #credential, prefix: #prefix })
        }
        AuthMethod::Basic { username, password } => {
            let password = opt_str(password.as_deref());
            quote!(rt::AuthScheme::Basic { username: #username, password: #password })
        }
        AuthMethod::Body { fields } => {
            let pairs = fields
                .iter()
                .map(|(field, credential)| quote!((#field, #credential)));
            quote!(rt::AuthScheme::Body { fields: &[#(#pairs),*] })
        }
        AuthMethod::Minted {
            minter,
            header,
            prefix,
        } => {
            let prefix = opt_str(prefix.as_deref());
            quote!(rt::AuthScheme::Minted { minter: #minter, header: #header, prefix: #prefix })
        }
        AuthMethod::Query { param, credential } => {
            quote!(rt::AuthScheme::Query { param: #param, credential: #credential })
        }
        AuthMethod::OAuth2ClientCredentials {
            token_url,
            client_id,
            client_secret,
            scopes,
        } => quote! {
            rt::AuthScheme::OAuth2ClientCredentials {
                token_url: #token_url,
                client_id: #client_id,
                client_secret: #client_secret,
                scopes: &[#(#scopes),*],
            }
        },
        AuthMethod::Signature {
            signing: SigningKind::PusherHmacSha256,
            app_id,
            key,
            secret,
        } => quote! {
            rt::AuthScheme::Signature {
                scheme: rt::SigningScheme::PusherHmacSha256 { app_id: #app_id, key: #key, secret: #secret },
            }
        },
    }
}

/// `pub static SERVICE: ServiceSpec = ...;`
pub(super) fn service_static(service: &Service) -> TokenStream {
    let name = service.name();
    let title = service.title();
    let base_url = opt_str(service.info.base_url.default.as_deref());
    let base_url_env = &service.info.base_url.env;
    let credentials = service.credentials.iter().map(|c| {
        let (cname, env, secret) = (&c.name, &c.env, c.secret);
        quote!(rt::CredentialSpec { name: #cname, env: #env, secret: #secret })
    });
    let auth = service.auth.iter().map(auth_scheme);
    let rate_limit = match service.rate_limit {
        Some(r) => {
            let requests = proc_macro2::Literal::u32_unsuffixed(r.requests);
            let per_seconds = proc_macro2::Literal::u32_unsuffixed(r.per_seconds);
            quote!(Some(rt::RateLimitSpec { requests: #requests, per_seconds: #per_seconds }))
        }
        None => quote!(None),
    };
    let headers = service.rate_limit_headers.as_ref();
    let header = |f: fn(&crate::model::RateLimitHeaders) -> Option<&String>| {
        opt_str(headers.and_then(f).map(String::as_str))
    };
    let (h_limit, h_remaining, h_reset, h_retry_after) = (
        header(|h| h.limit.as_ref()),
        header(|h| h.remaining.as_ref()),
        header(|h| h.reset.as_ref()),
        header(|h| h.retry_after.as_ref()),
    );
    let r = &service.retry;
    let (max_attempts, base_ms, cap_ms) =
        (lit(r.max_attempts.into()), lit(r.base_ms), lit(r.cap_ms));
    let statuses = r.statuses.iter().map(|s| lit((*s).into()));
    let (connect_errors, timeouts) = (r.connect_errors, r.timeouts);
    let cap = lit(r.retry_after_cap_ms);
    let budget = lit(r.budget_percent.into());
    let retry = quote! {
        rt::RetrySpec {
            max_attempts: #max_attempts, base_ms: #base_ms, cap_ms: #cap_ms,
            statuses: &[#(#statuses),*], connect_errors: #connect_errors, timeouts: #timeouts,
            retry_after_cap_ms: #cap, budget_ratio_percent: #budget,
        }
    };
    let t = service.timeouts;
    let (connect_ms, attempt_ms) = (lit(t.connect_ms), lit(t.attempt_ms));
    let total_ms = match t.total_ms.map(lit) {
        Some(t) => quote!(Some(#t)),
        None => quote!(None),
    };
    let idempotency = match &service.idempotency {
        Some(i) => {
            let (header, max_len) = (&i.header, proc_macro2::Literal::usize_unsuffixed(i.max_len));
            quote!(Some(rt::IdempotencySpec { header: #header, max_len: #max_len }))
        }
        None => quote!(None),
    };
    let pagination = service.page_style.as_ref().map(|p| {
        let spec = pagination_spec(p);
        quote! {
            /// How this service's list operations page.
            pub static PAGINATION: rt::PaginationSpec = #spec;
        }
    });
    let errors = error_spec(service);
    let error_code = error_code_enum(service);
    quote! {
        /// What the runtime needs to know about this service, taken from its spec.
        pub static SERVICE: rt::ServiceSpec = rt::ServiceSpec {
            name: #name,
            title: #title,
            base_url: #base_url,
            base_url_env: #base_url_env,
            credentials: &[#(#credentials),*],
            auth: &[#(#auth),*],
            rate_limit: #rate_limit,
            rate_limit_headers: rt::RateLimitHeaders {
                limit: #h_limit, remaining: #h_remaining, reset: #h_reset, retry_after: #h_retry_after,
            },
            retry: #retry,
            timeouts: rt::TimeoutSpec { connect_ms: #connect_ms, attempt_ms: #attempt_ms, total_ms: #total_ms },
            idempotency: #idempotency,
            errors: #errors,
        };
        #pagination
        #error_code
    }
}

/// The `rt::ErrorSpec` of a service: where code and message live, errors inside 2xx answers.
fn error_spec(service: &Service) -> TokenStream {
    let Some(errors) = &service.errors else {
        return quote!(rt::ErrorSpec::DEFAULT);
    };
    let code = opt_str(errors.code.as_deref());
    let message = opt_str(errors.message.as_deref());
    let in_success = match &errors.in_success {
        Some(s) => {
            let field = &s.field;
            let when = if s.equals.is_empty() {
                quote!(rt::FailureWhen::Present)
            } else {
                let values = &s.equals;
                quote!(rt::FailureWhen::Equals(&[#(#values),*]))
            };
            quote!(Some(rt::InSuccessSpec { field: #field, when: #when }))
        }
        None => quote!(None),
    };
    quote!(rt::ErrorSpec { code: #code, message: #message, in_success: #in_success })
}

/// `pub enum ErrorCode`: the spec's `errors.codes` as an open enum, with `ErrorCode::of(&err)`
/// and the statuses each code comes with. Nothing when the spec lists no codes.
fn error_code_enum(service: &Service) -> TokenStream {
    let Some(errors) = service.errors.as_ref().filter(|e| !e.codes.is_empty()) else {
        return TokenStream::new();
    };
    let values: Vec<ValueInfo> = errors
        .codes
        .iter()
        .map(|(code, info)| ValueInfo {
            wire: code.clone(),
            rust: crate::names::error_code_variant(code),
            doc: Some(match info.doc.as_deref() {
                Some(doc) => format!("`{code}`: {}", doc.trim()),
                None => format!("`{code}`."),
            }),
            source: info.source.unwrap_or(errors.origin.source),
        })
        .collect();
    let enum_type = TypeInfo {
        name: "ErrorCode".into(),
        doc: Some(
            "The error codes the spec lists (`errors.codes`), as found in an error answer where \
             the spec says the code is. `ErrorCode::of(&err)` reads one from an error."
                .into(),
        ),
        source: errors.origin.source,
        note: None,
        conflict: None,
        kind: TypeKind::Enum(values.clone()),
        additional: None,
        rules: Vec::new(),
        rules_as_written: Vec::new(),
        checked: false,
        // Read from error answers, and written by servers that answer them.
        flow: crate::resolved::Flow::BOTH,
    };
    let open_enum = super::types::open_enum(&enum_type, &values);
    let statuses = errors.codes.iter().map(|(code, info)| {
        let s = info.status.iter().map(|s| super::lit((*s).into()));
        quote!(#code => &[#(#s),*])
    });
    quote! {
        #open_enum

        impl ErrorCode {
            /// The code of `error`, when it is an answer of the server that carries one.
            pub fn of(error: &rt::Error) -> Option<ErrorCode> {
                error.code().map(ErrorCode::from)
            }

            /// The HTTP statuses the spec says this code comes with (empty when unknown).
            pub fn statuses(&self) -> &'static [u16] {
                match self.as_str() {
                    #(#statuses,)*
                    _ => &[],
                }
            }
        }
    }
}

/// A `tidings_runtime::PaginationSpec` value for a resolved pagination.
pub(super) fn pagination_spec(p: &crate::resolved::PaginationInfo) -> TokenStream {
    use crate::resolved::PageStyleInfo as S;
    let items = &p.items_field;
    let opt = |v: &Option<String>| opt_str(v.as_deref());
    let style = match &p.style {
        S::Cursor {
            has_more,
            cursor_field,
            after_param,
        } => {
            return quote!(rt::PaginationSpec::cursor(#items, #has_more, #cursor_field, #after_param));
        }
        S::Token {
            token_field,
            token_param,
        } => quote!(rt::PageStyle::Token { token_field: #token_field, token_param: #token_param }),
        S::NextUrl { next_field } => quote!(rt::PageStyle::NextUrl { next_field: #next_field }),
        S::LinkHeader => quote!(rt::PageStyle::LinkHeader),
        S::Offset {
            offset_param,
            limit_param,
            total_field,
        } => {
            let (limit, total) = (opt(limit_param), opt(total_field));
            quote!(rt::PageStyle::Offset { offset_param: #offset_param, limit_param: #limit, total_field: #total })
        }
        S::Page {
            page_param,
            size_param,
            first_page,
            total_pages_field,
        } => {
            let (size, total) = (opt(size_param), opt(total_pages_field));
            let first = lit(*first_page);
            quote!(rt::PageStyle::Page {
                page_param: #page_param, size_param: #size, first_page: #first, total_pages_field: #total,
            })
        }
    };
    quote!(rt::PaginationSpec { items: #items, style: #style })
}
