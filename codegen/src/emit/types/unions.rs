//! Unions: tagged enums (internally or adjacently tagged), untagged ones, and a `From` per
//! variant type.

use super::*;

pub(super) fn union(
    t: &TypeInfo,
    tag: &str,
    content: Option<&str>,
    variants: &[VariantInfo],
) -> TokenStream {
    let mut doc_text = t
        .doc
        .as_deref()
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    if !doc_text.is_empty() {
        doc_text.push_str("\n\n");
    }
    doc_text.push_str(&match content {
        Some(c) => format!("Told apart by the `{tag}` field; the content sits in `{c}`."),
        None => format!("Told apart by the `{tag}` field; the content's fields sit beside it."),
    });
    doc_text
        .push_str(" Open: a variant this version does not know decodes as `Unknown`, kept whole.");
    let doc = item_docs(Some(&doc_text), "", t.source);
    let name = format_ident!("{}", t.name);
    let content_tokens = match content {
        Some(c) => quote!(Some(#c)),
        None => quote!(None),
    };
    let defs = variants.iter().map(|v| {
        let vdoc = member_docs(v.doc.as_deref(), v.source, t.source);
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
            Some(_) => quote!(Self::#id(content) => rt::union::serialize(serializer, #tag, #content_tokens, #value, Some(content)),),
            None => quote!(Self::#id => rt::union::serialize::<_, ()>(serializer, #tag, #content_tokens, #value, None),),
        }
    });
    let de = variants.iter().map(|v| {
        let id = format_ident!("{}", v.rust);
        let value = &v.tag;
        match &v.ty {
            Some(_) => quote!(Some(#value) => Self::#id(rt::union::content(content)?),),
            None => quote!(Some(#value) => Self::#id,),
        }
    });
    let (ser_gate, de_gate) = (server_gate(t.flow.sent), server_gate(t.flow.received));
    let content_binding = if variants.iter().any(|v| v.ty.is_some()) {
        quote!(content)
    } else {
        quote!(_content)
    };
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum #name {
            #(#defs)*
            /// A variant this version does not know: the whole payload, as received.
            Unknown(::serde_json::Value),
        }

        #ser_gate
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    #(#ser)*
                    Self::Unknown(value) => ::serde::Serialize::serialize(value, serializer),
                }
            }
        }

        #de_gate
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let (tag, #content_binding, whole) = rt::union::split(deserializer, #tag, #content_tokens)?;
                Ok(match tag.as_deref() {
                    #(#de)*
                    _ => Self::Unknown(whole),
                })
            }
        }
    }
}

/// `From<Content> for Union` for each variant whose content type is its own.
pub(super) fn union_from_impls(t: &TypeInfo, variants: &[VariantInfo]) -> TokenStream {
    let name = format_ident!("{}", t.name);
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let shared: BTreeSet<&str> = variants
        .iter()
        .filter_map(|v| v.ty.as_deref())
        .filter(|ty| !seen.insert(ty))
        .collect();
    let impls = variants.iter().filter_map(|v| {
        let ty = v.ty.as_deref()?;
        if shared.contains(ty) {
            return None;
        }
        let id = format_ident!("{}", v.rust);
        let ty = format_ident!("{}", ty);
        Some(quote! {
            impl From<#ty> for #name {
                fn from(content: #ty) -> Self {
                    Self::#id(content)
                }
            }
        })
    });
    quote!(#(#impls)*)
}

/// An untagged union: serde tries the variants in spec order and the first whose type fits
/// wins; a payload that fits none is kept whole in `Unknown`.
pub(super) fn untagged_union(t: &TypeInfo, variants: &[VariantInfo]) -> TokenStream {
    let mut doc_text = t
        .doc
        .as_deref()
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    if !doc_text.is_empty() {
        doc_text.push_str("\n\n");
    }
    doc_text.push_str(
        "Untagged: decoded as the first variant whose shape fits, in the order listed; a \
         payload that fits none decodes as `Unknown`, kept whole.",
    );
    let doc = item_docs(Some(&doc_text), "", t.source);
    let name = format_ident!("{}", t.name);
    let types: Vec<Option<Ty>> = variants
        .iter()
        .map(|v| v.ty.as_deref().and_then(|ty| Ty::parse(ty).ok()))
        .collect();
    let defs = variants.iter().zip(&types).map(|(v, ty)| {
        let vdoc = member_docs(v.doc.as_deref(), v.source, t.source);
        let id = format_ident!("{}", v.rust);
        let ty = ty
            .as_ref()
            .map(rust_type)
            .unwrap_or_else(|| quote!(::serde_json::Value));
        quote!(#vdoc #id(#ty),)
    });
    // `From` for each variant whose content type is its own.
    let mut counts: Vec<(&Ty, usize)> = Vec::new();
    for ty in types.iter().flatten() {
        match counts.iter_mut().find(|(t, _)| *t == ty) {
            Some((_, n)) => *n += 1,
            None => counts.push((ty, 1)),
        }
    }
    let from = variants.iter().zip(&types).filter_map(|(v, ty)| {
        let ty = ty.as_ref()?;
        if counts.iter().any(|(t, n)| *t == ty && *n > 1) || *ty == Ty::Json {
            return None;
        }
        let id = format_ident!("{}", v.rust);
        let rty = rust_type(ty);
        Some(quote! {
            impl From<#rty> for #name {
                fn from(content: #rty) -> Self {
                    Self::#id(content)
                }
            }
        })
    });
    let (derives, gated) = serde_derives(t.flow);
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq, #derives)]
        #gated
        #[serde(untagged)]
        #[non_exhaustive]
        pub enum #name {
            #(#defs)*
            /// A payload that fits no variant, as received.
            Unknown(::serde_json::Value),
        }
        #(#from)*
    }
}
