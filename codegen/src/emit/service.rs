//! The static description of a service (`SERVICE`) that the runtime works from: base URL,
//! credentials, auth, limits, retry policy and timeouts, all taken from the spec.

use proc_macro2::TokenStream;
use quote::quote;

use crate::check::Service;
use crate::model::{AuthKind, SigningKind};

/// Defaults used where a spec says nothing (PROTOCOLS.md, "Retry and timeout defaults").
const DEFAULT_CONNECT_MS: u64 = 3_000;
const DEFAULT_ATTEMPT_MS: u64 = 60_000;
const DEFAULT_RETRY_AFTER_CAP_MS: u64 = 60_000;

/// An integer literal without a type suffix, so the output reads like hand-written code.
fn lit(n: u64) -> proc_macro2::Literal {
    proc_macro2::Literal::u64_unsuffixed(n)
}

fn opt_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(v) => quote!(Some(#v)),
        None => quote!(None),
    }
}

/// A `comms_runtime::AuthScheme` value for a spec auth scheme.
pub(super) fn auth_scheme(a: &crate::model::AuthScheme) -> TokenStream {
    let credential = a.credential.as_deref().unwrap_or_default();
    match a.kind {
        AuthKind::Bearer => quote!(rt::AuthScheme::Bearer { credential: #credential }),
        AuthKind::Header => {
            let header = a.header.as_deref().unwrap_or_default();
            quote!(rt::AuthScheme::Header { header: #header, credential: #credential })
        }
        AuthKind::Query => {
            let param = a.param.as_deref().unwrap_or_default();
            quote!(rt::AuthScheme::Query { param: #param, credential: #credential })
        }
        AuthKind::Signature => {
            let role = |r: &str| {
                a.credentials
                    .get(r)
                    .map(String::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let (app_id, key, secret) = (role("app_id"), role("key"), role("secret"));
            match a.signing {
                Some(SigningKind::PusherHmacSha256) | None => quote! {
                    rt::AuthScheme::Signature {
                        scheme: rt::SigningScheme::PusherHmacSha256 { app_id: #app_id, key: #key, secret: #secret },
                    }
                },
            }
        }
    }
}

/// `pub static SERVICE: ServiceSpec = ...;`
pub(super) fn service_static(service: &Service) -> TokenStream {
    let spec = &service.spec;
    let name = &spec.service.name;
    let title = &spec.service.title;
    let base_url = opt_str(spec.service.base_url.default.as_deref());
    let base_url_env = &spec.service.base_url.env;
    let credentials = spec.credentials.iter().map(|(cname, c)| {
        let env = &c.env;
        let secret = c.secret;
        quote!(rt::CredentialSpec { name: #cname, env: #env, secret: #secret })
    });
    let auth = spec.auth.iter().map(auth_scheme);
    let limits = spec.limits.as_ref();
    let rate = limits.and_then(|l| l.rate.as_ref());
    let rate_limit = match rate.and_then(|r| Some((r.requests?, r.per?))) {
        Some((requests, per)) => {
            let requests = proc_macro2::Literal::u32_unsuffixed(requests);
            let per_seconds = proc_macro2::Literal::u32_unsuffixed(per.seconds());
            quote!(Some(rt::RateLimitSpec { requests: #requests, per_seconds: #per_seconds }))
        }
        None => quote!(None),
    };
    let headers = limits.and_then(|l| l.headers.as_ref());
    let header = |f: fn(&crate::model::RateLimitHeaders) -> Option<&String>| {
        opt_str(headers.and_then(f).map(String::as_str))
    };
    let (h_limit, h_remaining, h_reset, h_retry_after) = (
        header(|h| h.limit.as_ref()),
        header(|h| h.remaining.as_ref()),
        header(|h| h.reset.as_ref()),
        header(|h| h.retry_after.as_ref()),
    );
    let retry = match &spec.retry {
        Some(r) => {
            let (max_attempts, base_ms, cap_ms) = (
                lit(r.max_attempts.into()),
                lit(r.backoff.base_ms),
                lit(r.backoff.cap_ms),
            );
            let statuses = r.statuses.iter().map(|s| lit((*s).into()));
            let (connect_errors, timeouts) = (r.connect_errors, r.timeouts);
            let cap = lit(r.retry_after_cap_ms.unwrap_or(DEFAULT_RETRY_AFTER_CAP_MS));
            let budget = lit(r.budget_percent.unwrap_or(0).into());
            quote! {
                rt::RetrySpec {
                    max_attempts: #max_attempts, base_ms: #base_ms, cap_ms: #cap_ms,
                    statuses: &[#(#statuses),*], connect_errors: #connect_errors, timeouts: #timeouts,
                    retry_after_cap_ms: #cap, budget_ratio_percent: #budget,
                }
            }
        }
        None => quote! {
            rt::RetrySpec {
                max_attempts: 1, base_ms: 0, cap_ms: 0, statuses: &[], connect_errors: false, timeouts: false,
                retry_after_cap_ms: 60000, budget_ratio_percent: 0,
            }
        },
    };
    let (connect_ms, attempt_ms, total_ms) = match &spec.timeouts {
        Some(t) => (t.connect_ms, t.attempt_ms, t.total_ms),
        None => (DEFAULT_CONNECT_MS, DEFAULT_ATTEMPT_MS, None),
    };
    let (connect_ms, attempt_ms) = (lit(connect_ms), lit(attempt_ms));
    let total_ms = match total_ms.map(lit) {
        Some(t) => quote!(Some(#t)),
        None => quote!(None),
    };
    let idempotency = match &spec.idempotency {
        Some(i) => {
            let (header, max_len) = (&i.header, proc_macro2::Literal::usize_unsuffixed(i.max_len));
            quote!(Some(rt::IdempotencySpec { header: #header, max_len: #max_len }))
        }
        None => quote!(None),
    };
    let pagination = spec.pagination.as_ref().map(|p| {
        let (items, has_more, cursor, after) = (
            &p.items_field,
            &p.has_more_field,
            &p.cursor_field,
            &p.after_param,
        );
        quote! {
            /// How this service's list operations page.
            pub static PAGINATION: rt::PaginationSpec = rt::PaginationSpec {
                items: #items, has_more: #has_more, cursor_field: #cursor, after_param: #after,
            };
        }
    });
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
        };
        #pagination
    }
}
