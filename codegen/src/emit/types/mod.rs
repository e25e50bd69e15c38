//! Named types: structs for objects, open enums (an `Unknown(String)` variant keeps any other
//! value), tagged enums for unions, and the
//! `Page<T>` of a paginated service.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{docs, item_docs, member_docs, rust_type, serde_derives, server_gate, usize_lit};
use std::collections::BTreeSet;

use crate::model::{Format, Source};
use crate::names::{ident, snake};
use crate::resolved::{
    ADDITIONAL_FIELD, FieldInfo, RuleInfo, Service, Ty, TypeInfo, TypeKind, ValueInfo, VariantInfo,
};

mod builders;
mod object_serde;
mod unions;
mod validate;

use builders::constructors;
pub(super) use builders::{Member, builders};
use object_serde::object_serde;
use unions::{union, union_from_impls, untagged_union};
use validate::validate_impl;

/// Every named type of a service, plus `Page<T>` when it paginates: one chunk of tokens per
/// type (its definition and impls), made as the iterator is read.
pub(super) fn items(service: &Service) -> impl Iterator<Item = TokenStream> + '_ {
    let types = service.types.iter().map(move |t| {
        let def = match &t.kind {
            TypeKind::Object(fields) => {
                let def = object(t, fields);
                // Every object, response types too: handlers and tests build them like requests.
                let ctor = constructors(t, fields);
                quote!(#def #ctor)
            }
            TypeKind::Enum(values) => open_enum(t, values),
            TypeKind::Union {
                tag,
                content,
                variants,
            } => {
                let def = union(t, tag, content.as_deref(), variants);
                let from = union_from_impls(t, variants);
                quote!(#def #from)
            }
            TypeKind::Untagged { variants } => untagged_union(t, variants),
        };
        // Checks run before sending: a type the client only receives has them for servers.
        let validate = t.checked.then(|| {
            let gate = server_gate(t.flow.sent);
            let imp = validate_impl(service, t);
            quote!(#gate #imp)
        });
        quote!(#def #validate)
    });
    // The service's cursor page with top-level fields is a plain struct; every other style
    // answers the runtime's `Page<T>`.
    let page = service.page_style.as_ref().and_then(|p| {
        let crate::resolved::PageStyleInfo::Cursor { has_more, .. } = &p.style else {
            return None;
        };
        if !p.generated_page {
            return None;
        }
        let items = ident(&snake(&p.items_field));
        let has_more_id = ident(&snake(has_more));
        let (items_wire, has_more_wire) = (&p.items_field, has_more);
        let (derives, gated) = serde_derives(crate::resolved::Flow {
            sent: false,
            received: true,
        });
        Some(quote! {
            /// One page of a list: its items, and whether more pages follow.
            #[derive(Debug, Clone, PartialEq, #derives)]
            #gated
            pub struct Page<T> {
                /// The items of this page.
                #[serde(rename = #items_wire)]
                pub #items: Vec<T>,
                /// True when another page follows.
                #[serde(rename = #has_more_wire, default)]
                pub #has_more_id: bool,
            }
        })
    });
    types.chain(page)
}

fn format_note(format: Option<Format>) -> Option<&'static str> {
    Some(match format? {
        Format::Email => "An email address, optionally with a name: `Ada <ada@example.com>`.",
        Format::E164 => "A phone number in E.164 form: `+447700900123`.",
        Format::Rfc3339 => "An RFC 3339 timestamp: `2026-11-22T10:00:00Z`.",
        Format::Uri => "A URI.",
        Format::Uuid => "A UUID.",
        Format::Date => "A calendar date: `2026-11-22`.",
        Format::Rfc2822 => {
            "An RFC 3339 timestamp here; on the wire an RFC 2822 date: `Wed, 18 Aug 2010 20:01:40 +0000`."
        }
        Format::Unix => {
            "An RFC 3339 timestamp here; on the wire whole seconds since the Unix epoch."
        }
        Format::UnixMs => {
            "An RFC 3339 timestamp here; on the wire milliseconds since the Unix epoch."
        }
    })
}

/// A field's docs: the spec's text, a note on its format, and its provenance when it differs
/// from its type's.
fn field_doc(f: &FieldInfo, parent: Source) -> TokenStream {
    let mut doc_text = f
        .doc
        .as_deref()
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    let date_note =
        f.ty.holds_date()
            .then_some("A calendar date: `2026-11-22`.");
    if let Some(note) = format_note(f.format).or(date_note) {
        if !doc_text.is_empty() {
            doc_text.push_str("\n\n");
        }
        doc_text.push_str(note);
    }
    member_docs(Some(&doc_text), f.source, parent)
}

fn field(f: &FieldInfo, parent: Source) -> TokenStream {
    let doc = field_doc(f, parent);
    let id = ident(&f.rust);
    let ty = rust_type(&f.ty);
    if f.required {
        quote!(#doc pub #id: #ty,)
    } else {
        quote!(#doc pub #id: Option<#ty>,)
    }
}

fn object(t: &TypeInfo, fields: &[FieldInfo]) -> TokenStream {
    let doc = item_docs(t.doc.as_deref(), "", t.source);
    let name = format_ident!("{}", t.name);
    let default = fields.iter().all(|f| !f.required).then(|| quote!(Default,));
    let has_secret = fields.iter().any(|f| f.secret);
    let derive_debug = (!has_secret).then(|| quote!(Debug,));
    let debug = has_secret.then(|| redacting_debug(t, fields));
    let serde = object_serde(t, fields);
    let additional = t.additional.as_ref().map(|ty| {
        let id = ident(ADDITIONAL_FIELD);
        let ty = rust_type(ty);
        quote! {
            /// The keys besides the fields above, with their values, as received and as sent
            /// (after the fields).
            pub #id: ::std::collections::BTreeMap<String, #ty>,
        }
    });
    let fields = fields.iter().map(|f| field(f, t.source));
    // `#[non_exhaustive]`: other crates build it with `new` + setters (or `Default`), never a
    // struct literal, so a field added to the spec does not break their build.
    quote! {
        #doc
        #[derive(#derive_debug Clone, PartialEq, #default)]
        #[non_exhaustive]
        pub struct #name {
            #(#fields)*
            #additional
        }
        #debug
        #serde
    }
}

/// An open string enum: the known values plus `Unknown(String)`, which keeps any other value
/// (decoded and sent back unchanged), with `as_str`, `Display`, `FromStr` and `From` strings.
pub(super) fn open_enum(t: &TypeInfo, values: &[ValueInfo]) -> TokenStream {
    let mut text = t
        .doc
        .as_deref()
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    if let Some(line) = super::provenance_line(t.source) {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(line);
    }
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(
        "Open: a value this version does not know decodes as `Unknown` and is sent back unchanged.",
    );
    let doc = docs(&text);
    let name = format_ident!("{}", t.name);
    let ids: Vec<_> = values.iter().map(|v| format_ident!("{}", v.rust)).collect();
    let wires: Vec<&str> = values.iter().map(|v| v.wire.as_str()).collect();
    let variants = values.iter().zip(&ids).map(|(v, id)| {
        let vdoc = member_docs(v.doc.as_deref(), v.source, t.source);
        quote!(#vdoc #id,)
    });
    let (ser_gate, de_gate) = (server_gate(t.flow.sent), server_gate(t.flow.received));
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum #name {
            #(#variants)*
            /// A value this version does not know, kept verbatim.
            Unknown(String),
        }

        impl #name {
            /// Every value this version knows, as sent on the wire.
            pub const KNOWN: &'static [&'static str] = &[#(#wires),*];

            /// The value as sent on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    #(Self::#ids => #wires,)*
                    Self::Unknown(value) => value,
                }
            }

            /// Whether this is a value this version does not know.
            pub fn is_unknown(&self) -> bool {
                matches!(self, Self::Unknown(_))
            }
        }

        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::core::str::FromStr for #name {
            type Err = ::core::convert::Infallible;
            fn from_str(value: &str) -> Result<Self, Self::Err> {
                Ok(Self::from(value))
            }
        }

        impl From<&str> for #name {
            fn from(value: &str) -> Self {
                match value {
                    #(#wires => Self::#ids,)*
                    other => Self::Unknown(other.to_owned()),
                }
            }
        }

        impl From<String> for #name {
            fn from(value: String) -> Self {
                match Self::from(value.as_str()) {
                    Self::Unknown(_) => Self::Unknown(value),
                    known => known,
                }
            }
        }

        #ser_gate
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        #de_gate
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value: String = ::serde::Deserialize::deserialize(deserializer)?;
                Ok(Self::from(value))
            }
        }
    }
}

/// The runtime module converting a date-time's wire form, for formats that are not RFC 3339.
fn wire_module(format: Option<Format>) -> Option<TokenStream> {
    match format? {
        Format::Rfc2822 => Some(quote!(rt::dates::rfc2822)),
        Format::Unix => Some(quote!(rt::dates::unix)),
        Format::UnixMs => Some(quote!(rt::dates::unix_ms)),
        _ => None,
    }
}

/// The runtime check of a format; a date-time's wire forms hold RFC 3339 text in Rust.
fn format_tokens(format: Format) -> TokenStream {
    match format {
        Format::Email => quote!(Email),
        Format::E164 => quote!(E164),
        Format::Rfc3339 | Format::Rfc2822 | Format::Unix | Format::UnixMs => quote!(Rfc3339),
        Format::Uri => quote!(Uri),
        Format::Uuid => quote!(Uuid),
        Format::Date => quote!(Date),
    }
}

/// `Debug` that prints `<redacted>` for secret fields.
fn redacting_debug(t: &TypeInfo, fields: &[FieldInfo]) -> TokenStream {
    let name = format_ident!("{}", t.name);
    let label = &t.name;
    let entries = fields.iter().map(|f| {
        let id = ident(&f.rust);
        let wire = &f.rust;
        match (f.secret, f.required) {
            (false, _) => quote!(.field(#wire, &self.#id)),
            (true, true) => quote!(.field(#wire, &"<redacted>")),
            (true, false) => quote!(.field(#wire, &self.#id.as_ref().map(|_| "<redacted>"))),
        }
    });
    let additional = t.additional.as_ref().map(|_| {
        let id = ident(ADDITIONAL_FIELD);
        quote!(.field(#ADDITIONAL_FIELD, &self.#id))
    });
    quote! {
        impl ::core::fmt::Debug for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#label) #(#entries)* #additional .finish()
            }
        }
    }
}
