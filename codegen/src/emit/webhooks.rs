//! The webhooks of `events.webhooks`: a `static` per declared signature scheme, the `WEBHOOKS`
//! table the runtime selects and verifies from, the `WebhookPayload` enum, `handle_webhook`,
//! and per payload type `verify_<name>` (signed) or `decode_<name>` (unsigned).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::docs;
use crate::model::PayloadEncoding;
use crate::names::{ident, pascal, shouty};
use crate::resolved::{Service, SignatureInfo, WebhookTypeInfo};

/// Everything generated for `events.webhooks`; nothing when the spec has none.
pub(super) fn items(service: &Service) -> Option<TokenStream> {
    if service.webhooks.is_empty() {
        return None;
    }
    let schemes = service
        .signatures
        .iter()
        .filter(|s| !s.builtin)
        .map(scheme_static);
    let specs = service.webhooks.iter().map(|w| webhook_spec(service, w));
    let count = proc_macro2::Literal::usize_unsuffixed(service.webhooks.len());
    let variants = service.webhooks.iter().map(|w| {
        let v = format_ident!("{}", pascal(&w.name));
        let ty = format_ident!("{}", w.ty);
        let d = docs(&format!(
            "`{}`{}",
            w.name,
            w.doc
                .as_deref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        ));
        quote!(#d #v(#ty),)
    });
    let arms = service.webhooks.iter().enumerate().map(|(i, w)| {
        let index = proc_macro2::Literal::usize_unsuffixed(i);
        let v = format_ident!("{}", pascal(&w.name));
        let enc = w.encoding;
        quote!(#index => rt::webhook::decode_payload_with(#enc, request.body, secrets.limits()).map(WebhookPayload::#v),)
    });
    let per_type = service.webhooks.iter().map(|w| per_type(service, w));
    let names: Vec<String> = service
        .webhooks
        .iter()
        .map(|w| format!("`{}`", w.name))
        .collect();
    let handle_doc = docs(&format!(
        "Receives a webhook delivery of this service: picks its payload type ({}) by what the \
         spec says tells them apart, verifies its signature with the scheme's secret from \
         `secrets` (unsigned types are only decoded), then decodes the body (JSON or form).\n\n\
         `request.url` must be the full URL the sender called when a scheme signs the URL.\n\n\
         # Errors\n\nA webhook error when no payload type matches, a secret is missing, or the \
         signature, timestamp or body size is wrong; a decode error when the body does not fit \
         the payload type.",
        names.join(", ")
    ));
    Some(quote! {
        #(#schemes)*
        /// The webhook payload types of this service, as the runtime selects and verifies them.
        pub static WEBHOOKS: [rt::spec::WebhookSpec; #count] = [#(#specs),*];

        /// A webhook delivery of this service, by payload type.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        #[allow(clippy::large_enum_variant)]
        pub enum WebhookPayload {
            #(#variants)*
        }

        #handle_doc
        pub fn handle_webhook(
            secrets: &rt::webhook::WebhookSecrets,
            request: &rt::webhook::WebhookRequest<'_>,
        ) -> Result<WebhookPayload, rt::Error> {
            match rt::webhook::receive(&WEBHOOKS, secrets, request)? {
                #(#arms)*
                _ => Err(rt::Error::Webhook(rt::WebhookFailure::UnknownPayload)),
            }
        }

        #(#per_type)*
    })
}

fn scheme_ident(s: &SignatureInfo) -> TokenStream {
    match s.name.as_str() {
        "standard_webhooks" if s.builtin => quote!(rt::spec::STANDARD_WEBHOOKS),
        "pusher" if s.builtin => quote!(rt::spec::PUSHER),
        name => {
            let id = format_ident!("{}_SIGNATURE", shouty(name));
            quote!(#id)
        }
    }
}

fn opt(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(Some(#s)),
        None => quote!(None),
    }
}

fn scheme_static(s: &SignatureInfo) -> TokenStream {
    let id = scheme_ident(s);
    let d = docs(&format!(
        "Webhook signature scheme `{}`: {}.{}",
        s.name,
        s.describe(),
        s.doc
            .as_deref()
            .map(|d| format!("\n\n{d}"))
            .unwrap_or_default()
    ));
    let spec = crate::describe::signature_scheme(s);
    quote! {
        #d
        pub static #id: rt::spec::SignatureScheme = #spec;
    }
}

fn scheme_of<'a>(service: &'a Service, w: &WebhookTypeInfo) -> Option<&'a SignatureInfo> {
    let name = w.signature.as_deref()?;
    service.signatures.iter().find(|s| s.name == name)
}

fn webhook_spec(service: &Service, w: &WebhookTypeInfo) -> TokenStream {
    let name = &w.name;
    let enc = w.encoding;
    let select = match w.select.as_ref().map(crate::describe::webhook_select) {
        Some(select) => quote!(Some(#select)),
        None => quote!(None),
    };
    let signature = match scheme_of(service, w) {
        Some(s) => {
            let id = scheme_ident(s);
            quote!(Some(&#id))
        }
        None => quote!(None),
    };
    let secret_env = opt(w.secret_env.as_deref());
    quote! {
        rt::spec::WebhookSpec {
            name: #name, encoding: #enc, select: #select, signature: #signature, secret_env: #secret_env,
        }
    }
}

fn per_type(service: &Service, w: &WebhookTypeInfo) -> TokenStream {
    let ty = format_ident!("{}", w.ty);
    let enc = w.encoding;
    let what = w
        .doc
        .as_deref()
        .map(|d| format!("{d}\n\n"))
        .unwrap_or_default();
    let form = match w.encoding {
        PayloadEncoding::Json => "JSON",
        PayloadEncoding::Form => "form-encoded",
    };
    match scheme_of(service, w) {
        Some(s) => {
            let f = ident(&format!("verify_{}", w.name));
            let scheme = scheme_ident(s);
            let env = w
                .secret_env
                .as_deref()
                .map(|e| format!(" (the spec reads it from `{e}`)"))
                .unwrap_or_default();
            let d = docs(&format!(
                "{what}Verifies a `{}` delivery signed with `{}` ({}) using `secret`{env}, then \
                 decodes its {form} body as [`{}`].\n\n# Errors\n\nA webhook error when the \
                 signature, timestamp, secret or body size is wrong; a decode error when the body \
                 does not fit the type.",
                w.name,
                s.name,
                s.describe(),
                w.ty
            ));
            quote! {
                #d
                pub fn #f(secret: &str, request: &rt::webhook::WebhookRequest<'_>) -> Result<#ty, rt::Error> {
                    rt::webhook::Verifier::new(&#scheme, secret)?.verify(request)?;
                    rt::webhook::decode_payload(#enc, request.body)
                }
            }
        }
        None => {
            let f = ident(&format!("decode_{}", w.name));
            let d = docs(&format!(
                "{what}Decodes an unsigned `{}` delivery's {form} body as [`{}`]. Nothing proves \
                 who sent it: treat its content as untrusted.\n\n# Errors\n\nA webhook error when \
                 the body is too large; a decode error when it does not fit the type.",
                w.name, w.ty
            ));
            quote! {
                #d
                pub fn #f(body: &[u8]) -> Result<#ty, rt::Error> {
                    rt::webhook::decode_payload(#enc, body)
                }
            }
        }
    }
}
