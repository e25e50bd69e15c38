//! Named types: structs for objects, `open_enum!` for enums, tagged enums for unions, and the
//! `Page<T>` of a paginated service.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{item_docs, rust_type};
use crate::check::{FieldInfo, Service, TypeInfo, TypeKind, ValueInfo, VariantInfo};
use crate::model::Format;
use crate::names::{ident, snake};

/// Every named type of a service, plus `Page<T>` when it paginates.
pub(super) fn all(service: &Service) -> TokenStream {
    let types = service.types.iter().map(|t| match &t.kind {
        TypeKind::Object(fields) => object(t, fields),
        TypeKind::Enum(values) => open_enum(t, values),
        TypeKind::Union { tag, content, variants } => union(t, tag, content.as_deref(), variants),
    });
    let page = service.spec.pagination.as_ref().map(|p| {
        let items = ident(&snake(&p.items_field));
        let has_more = ident(&snake(&p.has_more_field));
        let (items_wire, has_more_wire) = (&p.items_field, &p.has_more_field);
        quote! {
            /// One page of a list: its items, and whether more pages follow.
            #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
            pub struct Page<T> {
                /// The items of this page.
                #[serde(rename = #items_wire)]
                pub #items: ::std::vec::Vec<T>,
                /// True when another page follows.
                #[serde(rename = #has_more_wire, default)]
                pub #has_more: bool,
            }
        }
    });
    quote! { #(#types)* #page }
}

fn format_note(format: Option<Format>) -> Option<&'static str> {
    Some(match format? {
        Format::Email => "An email address, optionally with a name: `Ada <ada@example.com>`.",
        Format::E164 => "A phone number in E.164 form: `+447700900123`.",
        Format::Rfc3339 => "An RFC 3339 timestamp: `2026-11-22T10:00:00Z`.",
        Format::Uri => "A URI.",
        Format::Uuid => "A UUID.",
    })
}

fn field(f: &FieldInfo) -> TokenStream {
    let mut doc_text = f.doc.as_deref().map(str::trim).unwrap_or_default().to_owned();
    if let Some(note) = format_note(f.format) {
        if !doc_text.is_empty() {
            doc_text.push_str("\n\n");
        }
        doc_text.push_str(note);
    }
    let doc = item_docs(Some(&doc_text).filter(|d| !d.is_empty()).map(String::as_str), &format!("`{}`", f.wire), f.source);
    let id = ident(&f.rust);
    let ty = rust_type(&f.ty);
    let wire = &f.wire;
    let rename = (f.rust != f.wire).then(|| quote!(#[serde(rename = #wire)]));
    if f.required {
        quote!(#doc #rename pub #id: #ty,)
    } else {
        quote! {
            #doc
            #rename
            #[serde(default, skip_serializing_if = "::core::option::Option::is_none")]
            pub #id: ::core::option::Option<#ty>,
        }
    }
}

fn object(t: &TypeInfo, fields: &[FieldInfo]) -> TokenStream {
    let doc = item_docs(t.doc.as_deref(), &format!("`{}`", t.name), t.source);
    let name = format_ident!("{}", t.name);
    let default = fields.iter().all(|f| !f.required).then(|| quote!(Default,));
    let fields = fields.iter().map(field);
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq, #default ::serde::Serialize, ::serde::Deserialize)]
        pub struct #name {
            #(#fields)*
        }
    }
}

fn open_enum(t: &TypeInfo, values: &[ValueInfo]) -> TokenStream {
    let mut doc_text = t.doc.as_deref().map(str::trim).unwrap_or_default().to_owned();
    if !doc_text.is_empty() {
        doc_text.push_str("\n\n");
    }
    doc_text.push_str("Open: a value this version does not know decodes as `Unknown` and is sent back unchanged.");
    let doc = item_docs(Some(&doc_text), "", t.source);
    let name = format_ident!("{}", t.name);
    let variants = values.iter().map(|v| {
        let vdoc = item_docs(v.doc.as_deref(), &format!("`{}`", v.wire), v.source);
        let id = format_ident!("{}", v.rust);
        let wire = &v.wire;
        quote!(#vdoc #id = #wire,)
    });
    quote! {
        ::comms_runtime::open_enum! {
            #doc
            pub enum #name {
                #(#variants)*
            }
        }
    }
}

fn union(t: &TypeInfo, tag: &str, content: Option<&str>, variants: &[VariantInfo]) -> TokenStream {
    let mut doc_text = t.doc.as_deref().map(str::trim).unwrap_or_default().to_owned();
    if !doc_text.is_empty() {
        doc_text.push_str("\n\n");
    }
    doc_text.push_str(&match content {
        Some(c) => format!("Told apart by the `{tag}` field; the content sits in `{c}`."),
        None => format!("Told apart by the `{tag}` field; the content's fields sit beside it."),
    });
    doc_text.push_str(" Open: a variant this version does not know decodes as `Unknown`, kept whole.");
    let doc = item_docs(Some(&doc_text), "", t.source);
    let name = format_ident!("{}", t.name);
    let content_tokens = match content {
        Some(c) => quote!(::core::option::Option::Some(#c)),
        None => quote!(::core::option::Option::None),
    };
    let defs = variants.iter().map(|v| {
        let vdoc = item_docs(v.doc.as_deref(), &format!("`{}`", v.tag), v.source);
        let id = format_ident!("{}", v.rust);
        match &v.ty {
            Some(ty) => {
                let ty = format_ident!("{}", ty);
                quote!(#vdoc #id(#ty),)
            }
            None => quote!(#vdoc #id,),
        }
    });
    let ser = variants.iter().map(|v| {
        let id = format_ident!("{}", v.rust);
        let value = &v.tag;
        match &v.ty {
            Some(_) => quote!(Self::#id(content) => ::comms_runtime::union::serialize(serializer, #tag, #content_tokens, #value, ::core::option::Option::Some(content)),),
            None => quote!(Self::#id => ::comms_runtime::union::serialize::<_, ()>(serializer, #tag, #content_tokens, #value, ::core::option::Option::None),),
        }
    });
    let de = variants.iter().map(|v| {
        let id = format_ident!("{}", v.rust);
        let value = &v.tag;
        match &v.ty {
            Some(_) => quote!(::core::option::Option::Some(#value) => Self::#id(::comms_runtime::union::content(content)?),),
            None => quote!(::core::option::Option::Some(#value) => Self::#id,),
        }
    });
    let content_binding = if variants.iter().any(|v| v.ty.is_some()) { quote!(content) } else { quote!(_content) };
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum #name {
            #(#defs)*
            /// A variant this version does not know: the whole payload, as received.
            Unknown(::serde_json::Value),
        }

        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                match self {
                    #(#ser)*
                    Self::Unknown(value) => ::serde::Serialize::serialize(value, serializer),
                }
            }
        }

        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let (tag, #content_binding, whole) = ::comms_runtime::union::split(deserializer, #tag, #content_tokens)?;
                ::core::result::Result::Ok(match tag.as_deref() {
                    #(#de)*
                    _ => Self::Unknown(whole),
                })
            }
        }
    }
}
