//! Constructors and builder methods: required fields as arguments, optional ones set one by one.

use super::*;

/// The argument type and the conversion for a value of `ty`, so callers can pass `&str`,
/// arrays of `&str` and the like.
pub(super) fn arg_of(ty: &Ty, value: &proc_macro2::Ident) -> (TokenStream, TokenStream) {
    let string = quote!(String);
    match ty {
        Ty::String | Ty::DateTime | Ty::Date => (quote!(impl Into<#string>), quote!(#value.into())),
        Ty::List(inner) if inner.is_text() => (
            quote!(impl IntoIterator<Item = impl Into<#string>>),
            quote!(#value.into_iter().map(Into::into).collect()),
        ),
        Ty::List(inner) => {
            let t = rust_type(inner);
            (
                quote!(impl IntoIterator<Item = #t>),
                quote!(#value.into_iter().collect()),
            )
        }
        Ty::Map(inner) if inner.is_text() => (
            quote!(impl IntoIterator<Item = (impl Into<#string>, impl Into<#string>)>),
            quote!(#value.into_iter().map(|(k, v)| (k.into(), v.into())).collect()),
        ),
        Ty::Map(inner) => {
            let t = rust_type(inner);
            (
                quote!(impl IntoIterator<Item = (impl Into<#string>, #t)>),
                quote!(#value.into_iter().map(|(k, v)| (k.into(), v)).collect()),
            )
        }
        Ty::Named(_) => {
            let t = rust_type(ty);
            (quote!(impl Into<#t>), quote!(#value.into()))
        }
        other => (rust_type(other), quote!(#value)),
    }
}

/// `new(required fields...)` and one chainable setter per optional field.
pub(super) fn constructors(t: &TypeInfo, fields: &[FieldInfo]) -> TokenStream {
    let members: Vec<Member<'_>> = fields
        .iter()
        .map(|f| Member {
            rust: &f.rust,
            ty: &f.ty,
            required: f.required,
            // The field's own docs, if any: "Sets `x`" would only repeat the method's name.
            doc: field_doc(f, t.source),
        })
        .collect();
    // The other keys start empty.
    let extra = t.additional.as_ref().map(|_| {
        let id = ident(ADDITIONAL_FIELD);
        quote!(#id: ::std::collections::BTreeMap::new(),)
    });
    builders(&t.name, &members, "fields", &quote!(#extra))
}

/// A field of a generated struct, as its constructor and setters see it.
pub(in crate::emit) struct Member<'a> {
    pub rust: &'a str,
    pub ty: &'a Ty,
    pub required: bool,
    /// The setter's docs.
    pub doc: TokenStream,
}

/// `impl name { new(required...), one #[must_use] setter per optional member }`, or nothing when
/// there is neither; `what` names the members in the constructor's doc (`fields`,
/// `parameters`). Objects and parameter structs are built the same way.
pub(in crate::emit) fn builders(
    name: &str,
    members: &[Member<'_>],
    what: &str,
    extra_inits: &TokenStream,
) -> TokenStream {
    let required: Vec<&Member<'_>> = members.iter().filter(|m| m.required).collect();
    let new = (!required.is_empty()).then(|| {
        let params = required.iter().map(|m| {
            let id = ident(m.rust);
            let (ty, _) = arg_of(m.ty, &id);
            quote!(#id: #ty)
        });
        let inits = members.iter().map(|m| {
            let id = ident(m.rust);
            if m.required {
                let (_, conv) = arg_of(m.ty, &id);
                // A value taken as is: the shorthand (clippy's `redundant_field_names`).
                if id == conv.to_string() {
                    quote!(#id,)
                } else {
                    quote!(#id: #conv,)
                }
            } else {
                quote!(#id: None,)
            }
        });
        let doc = docs(&format!(
            "{} `{name}` with its required {what}; set the others with the methods named after them.",
            article(name),
        ));
        // One argument per required member: a provider's type can have many.
        let many = (required.len() > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
        quote! {
            #doc
            #many
            pub fn new(#(#params),*) -> Self {
                Self { #(#inits)* #extra_inits }
            }
        }
    });
    let setters: Vec<TokenStream> = members
        .iter()
        .filter(|m| !m.required)
        .map(|m| {
            let id = ident(m.rust);
            let (ty, conv) = arg_of(m.ty, &format_ident!("value"));
            let doc = &m.doc;
            quote! {
                #doc
                #[must_use]
                pub fn #id(mut self, value: #ty) -> Self {
                    self.#id = Some(#conv);
                    self
                }
            }
        })
        .collect();
    if new.is_none() && setters.is_empty() {
        return TokenStream::new();
    }
    let name = format_ident!("{name}");
    quote! {
        impl #name {
            #new
            #(#setters)*
        }
    }
}

/// "An" before a name that starts with a vowel sound, else "A": "an `Update…`" but "a `Usage`",
/// "a `Unit`" (`Us`/`Uni` sound like "you").
pub(super) fn article(name: &str) -> &'static str {
    let vowel = name.starts_with(['A', 'E', 'I', 'O'])
        || (name.starts_with('U') && !name.starts_with("Us") && !name.starts_with("Uni"));
    if vowel { "An" } else { "A" }
}
