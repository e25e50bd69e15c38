//! The `Validate` impl of a type: the spec's constraints on each field, checked before a request
//! is sent and after a body is decoded.

use super::*;

pub(super) fn field_checks(f: &FieldInfo) -> TokenStream {
    let id = ident(&f.rust);
    let wire = &f.wire;
    let mut checks = Vec::new();
    if let Some(format) = f.format {
        let format = format_tokens(format);
        checks.push(quote!(v.format(#wire, &self.#id, rt::validate::Format::#format);));
    }
    if f.ty.holds_date() {
        checks.push(quote!(v.format(#wire, &self.#id, rt::validate::Format::Date);));
    }
    let c = &f.constraints;
    for (method, value) in [
        ("max_len", c.max_len),
        ("min_len", c.min_len),
        ("max_bytes", c.max_bytes),
        ("max_items", c.max_items),
        ("min_items", c.min_items),
    ] {
        if let Some(n) = value {
            let method = format_ident!("{}", method);
            let n = usize_lit(n);
            checks.push(quote!(v.#method(#wire, &self.#id, #n);));
        }
    }
    if c.min.is_some() || c.max.is_some() {
        let bound = |b: Option<f64>| match b {
            Some(x) => {
                let lit = proc_macro2::Literal::f64_unsuffixed(x);
                quote!(Some(#lit))
            }
            None => quote!(None),
        };
        let (min, max) = (bound(c.min), bound(c.max));
        checks.push(quote!(v.range(#wire, &self.#id, #min, #max);));
    }
    if f.nested_checked {
        checks.push(quote!(v.nested(#wire, &self.#id);));
    }
    quote!(#(#checks)*)
}

pub(super) fn presence(fields: &[(String, String)], required: &BTreeSet<&str>) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|(wire, rust)| {
            let id = ident(rust);
            if required.contains(wire.as_str()) {
                quote!(true)
            } else {
                quote!(self.#id.is_some())
            }
        })
        .collect()
}

pub(super) fn validate_impl(service: &Service, t: &TypeInfo) -> TokenStream {
    let name = format_ident!("{}", t.name);
    let body = match &t.kind {
        TypeKind::Object(fields) => {
            let required: BTreeSet<&str> = fields
                .iter()
                .filter(|f| f.required)
                .map(|f| f.wire.as_str())
                .collect();
            let per_field = fields.iter().map(field_checks);
            let rules = t.rules.iter().map(|rule| match rule {
                RuleInfo::Exclusive(fs) | RuleInfo::RequireOne(fs) => {
                    let names = fs.iter().map(|(w, _)| w.as_str());
                    let present = presence(fs, &required);
                    let method = if matches!(rule, RuleInfo::Exclusive(_)) {
                        quote!(exclusive)
                    } else {
                        quote!(require_one)
                    };
                    quote!(v.#method(&[#(#names),*], &[#(#present),*]);)
                }
                RuleInfo::MaxTotal(fs, max) => {
                    let names = fs.iter().map(|(w, _)| w.as_str());
                    let counts = fs.iter().map(|(_, r)| {
                        let id = ident(r);
                        quote!(rt::validate::Count::count(&self.#id))
                    });
                    let max = usize_lit(*max);
                    quote!(v.max_total(&[#(#names),*], &[#(#counts),*], #max);)
                }
            });
            quote!(#(#per_field)* #(#rules)*)
        }
        TypeKind::Union { variants, .. } | TypeKind::Untagged { variants } => {
            let checked_variants: Vec<_> = variants
                .iter()
                .filter(|v| v.ty.as_ref().is_some_and(|n| service.is_checked(n)))
                .map(|v| format_ident!("{}", v.rust))
                .collect();
            match checked_variants.as_slice() {
                // One variant to check: `if let` (a one-arm `match` is clippy's `single_match`).
                [id] => quote! {
                    if let Self::#id(content) = self {
                        rt::validate::Validate::validate(content, v);
                    }
                },
                ids => quote! {
                    match self {
                        #(Self::#ids(content) => rt::validate::Validate::validate(content, v),)*
                        _ => {}
                    }
                },
            }
        }
        TypeKind::Enum(_) => quote!(let _ = v;),
    };
    quote! {
        impl rt::validate::Validate for #name {
            fn validate(&self, v: &mut rt::validate::Validator) {
                #body
            }
        }
    }
}
