//! The static description of a service (`SERVICE`) that the runtime works from: base URL,
//! credentials, auth, limits, retry policy and timeouts, all taken from the spec.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use super::Settings;
use crate::describe;
use crate::resolved::{Service, TypeInfo, TypeKind, ValueInfo};

/// `pub static SERVICE: ServiceSpec = ...;`, the service's pagination and its error codes.
pub(super) fn service_static(service: &Service, settings: &Settings) -> TokenStream {
    let spec = describe::service_spec(service);
    let pagination = service.page_style.as_ref().map(|p| {
        let spec = pagination_spec(p);
        quote! {
            /// How this service's list operations page.
            pub static PAGINATION: rt::spec::PaginationSpec = #spec;
        }
    });
    let error_code = error_code_enum(service, settings);
    quote! {
        /// What the runtime needs to know about this service, taken from its spec.
        pub static SERVICE: rt::spec::ServiceSpec = #spec;
        #pagination
        #error_code
    }
}

/// `pub enum ErrorCode`: the spec's `errors.codes` as an open enum, with `ErrorCode::of(&err)`
/// and the statuses each code comes with. Nothing when the spec lists no codes.
fn error_code_enum(service: &Service, settings: &Settings) -> TokenStream {
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
        keeps_other_keys: false,
        rules: Vec::new(),
        rules_as_written: Vec::new(),
        checked: false,
        // Read from error answers, and written by servers that answer them.
        flow: crate::resolved::Flow::BOTH,
    };
    let open_enum = super::types::open_enum(&enum_type, &values, settings);
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

/// A `tidings_runtime::spec::PaginationSpec` value for a resolved pagination.
pub(super) fn pagination_spec(p: &crate::resolved::PaginationInfo) -> TokenStream {
    describe::pagination_spec(p).into_token_stream()
}
