//! Untagged unions: an enum of the variants, written as its content, read as the first variant
//! that fits (an object, with two object variants or more, best fit first).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Settings, own_doc_then, rust_type};
use crate::resolved::{Service, Ty, TypeInfo, VariantInfo};

/// An untagged union: the variants are tried in spec order and the first whose type fits
/// wins; with two object variants or more, an object payload tries them best fit first
/// (`rt::union::fit_order`: the one naming what it holds). A payload that fits none is kept
/// whole in `Unknown`.
pub(super) fn untagged_union(
    service: &Service,
    t: &TypeInfo,
    variants: &[VariantInfo],
    settings: &Settings,
    aliases: &super::alias::TypeAliases,
) -> TokenStream {
    let types: Vec<Option<Ty>> = variants
        .iter()
        .map(|v| v.ty.as_deref().and_then(|ty| Ty::parse(ty).ok()))
        .collect();
    let keys = crate::resolved::untagged_keys(variants, |name| {
        service.types.iter().find(|t| t.name == name)
    });
    let best_fit = keys.is_some();
    let doc_text = own_doc_then(
        t,
        if best_fit {
            "Untagged: an object is decoded as the object variant naming most of its keys (of \
             those that fit, the one leaving fewest keys undeclared, then the one declaring \
             fewest fields, then the first listed); any other payload as the first variant \
             whose shape fits, in the order listed. A payload that fits none decodes as \
             `Unknown`, kept whole."
        } else {
            "Untagged: decoded as the first variant whose shape fits, in the order listed; a \
             payload that fits none decodes as `Unknown`, kept whole."
        },
    );
    let doc = settings.item_docs(Some(&doc_text), "", t.source);
    let name = format_ident!("{}", t.name);
    let defs = variants.iter().zip(&types).map(|(v, ty)| {
        let vdoc = settings.member_docs(v.doc.as_deref(), v.source, t.source);
        let id = format_ident!("{}", v.rust);
        let ty = ty
            .as_ref()
            .map(rust_type)
            .unwrap_or_else(|| quote!(::serde_json::Value));
        quote!(#vdoc #id(#ty),)
    });
    // `From` for each variant whose content type is its own (two names of one shape are one
    // type).
    let kept: Vec<Option<Ty>> = types
        .iter()
        .map(|t| t.as_ref().map(|t| aliases.kept_ty(t)))
        .collect();
    let mut counts: Vec<(&Ty, usize)> = Vec::new();
    for ty in kept.iter().flatten() {
        match counts.iter_mut().find(|(t, _)| *t == ty) {
            Some((_, n)) => *n += 1,
            None => counts.push((ty, 1)),
        }
    }
    let from = variants
        .iter()
        .zip(&types)
        .zip(&kept)
        .filter_map(|((v, ty), kept)| {
            let (ty, kept) = (ty.as_ref()?, kept.as_ref()?);
            if counts.iter().any(|(t, n)| *t == kept && *n > 1) || *ty == Ty::Json {
                return None;
            }
            let id = format_ident!("{}", v.rust);
            let rty = rust_type(ty);
            // A text variant takes a `&str` too (`SendEmailRequest::new(from, subject, "a@b.c")`
            // for Resend's `to`: one address or a list).
            let text = (*ty == Ty::String).then(|| {
                quote! {
                    impl From<&str> for #name {
                        fn from(content: &str) -> Self {
                            Self::#id(content.to_owned())
                        }
                    }
                }
            });
            Some(quote! {
                impl From<#rty> for #name {
                    fn from(content: #rty) -> Self {
                        Self::#id(content)
                    }
                }
                #text
            })
        });
    // Two object variants or more: written as its content, read best fit first (impls of
    // its own); else serde's untagged derive.
    let (derives, attrs, impls) = match keys {
        Some(keys) => (
            TokenStream::new(),
            TokenStream::new(),
            best_fit_impls(t, variants, &keys, settings),
        ),
        None => {
            let (derives, gated) = settings.serde_derives(t.flow);
            (
                derives,
                quote!(#gated #[serde(untagged)]),
                TokenStream::new(),
            )
        }
    };
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq, #derives)]
        #attrs
        #[non_exhaustive]
        #[allow(clippy::large_enum_variant)]
        pub enum #name {
            #(#defs)*
            /// A payload that fits no variant, as received.
            Unknown(::serde_json::Value),
        }
        #(#from)*
        #impls
    }
}

/// `Serialize` (the content as it is) and `Deserialize` (the variants in
/// `rt::union::fit_order`, the first that decodes) of an untagged union whose object variants
/// have the fields `keys`.
fn best_fit_impls(
    t: &TypeInfo,
    variants: &[VariantInfo],
    keys: &[Option<Vec<&str>>],
    settings: &Settings,
) -> TokenStream {
    let name = format_ident!("{}", t.name);
    let keys = keys.iter().map(|k| match k {
        Some(k) => quote!(Some(&[#(#k),*])),
        None => quote!(None),
    });
    let tries = variants.iter().enumerate().map(|(i, v)| {
        let id = format_ident!("{}", v.rust);
        quote!(#i => rt::union::fits(&whole).map(Self::#id),)
    });
    let writes = variants.iter().map(|v| {
        let id = format_ident!("{}", v.rust);
        quote!(Self::#id(content) => ::serde::Serialize::serialize(content, serializer),)
    });
    let (ser_gate, de_gate) = (
        settings.server_gate(t.flow.sent),
        settings.server_gate(t.flow.received),
    );
    quote! {
        #ser_gate
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    #(#writes)*
                    Self::Unknown(value) => ::serde::Serialize::serialize(value, serializer),
                }
            }
        }

        #de_gate
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let whole = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                for i in rt::union::fit_order(&whole, &[#(#keys),*]) {
                    let found = match i {
                        #(#tries)*
                        _ => None,
                    };
                    if let Some(found) = found {
                        return Ok(found);
                    }
                }
                Ok(Self::Unknown(whole))
            }
        }
    }
}
