//! An object's serde impls, written out rather than derived.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Settings, field_type, usize_lit, wire_module};
use crate::names::ident;
use crate::resolved::{ADDITIONAL_FIELD, FieldInfo, TypeInfo};

/// An object's `Serialize` and `Deserialize`, written out instead of derived: serialising is a
/// `serialize_struct` call per field (absent optional fields left out), and decoding is a field
/// table the runtime walks (`rt::object`), so each type costs a few lines to compile, not the
/// derive's field enum and visitors. Each is behind the `server` feature when the client does
/// not need it.
pub(super) fn object_serde(t: &TypeInfo, fields: &[FieldInfo], settings: &Settings) -> TokenStream {
    let name = format_ident!("{}", t.name);
    let label = &t.name;
    let (ser_gate, de_gate) = (
        settings.server_gate(t.flow.sent),
        settings.server_gate(t.flow.received),
    );
    // The number of fields written: the required ones (a nullable one as `null` when unset),
    // plus each optional one that is set.
    let required = fields.iter().filter(|f| f.required).count();
    let mut len: Vec<TokenStream> = Vec::new();
    if required > 0 {
        let n = usize_lit(required as u64);
        len.push(quote!(#n));
    }
    len.extend(fields.iter().filter(|f| !f.required).map(|f| {
        let id = ident(&f.rust);
        quote!(usize::from(self.#id.is_some()))
    }));
    let writes = fields.iter().map(|f| {
        let (id, wire) = (ident(&f.rust), &f.wire);
        match always_written(f, &id) {
            Some(value) => quote!(s.serialize_field(#wire, #value)?;),
            None => {
                let value = wire_value(f, quote!(value));
                quote!(if let Some(value) = &self.#id { s.serialize_field(#wire, #value)?; })
            }
        }
    });
    let ser_body = if t.additional.is_some() {
        // Dynamic keys: a map, the fields first, then the other keys (none named like a field).
        let id = ident(ADDITIONAL_FIELD);
        let wires: Vec<&str> = fields.iter().map(|f| f.wire.as_str()).collect();
        let map_writes = fields.iter().map(|f| {
            let (fid, wire) = (ident(&f.rust), &f.wire);
            match always_written(f, &fid) {
                Some(value) => quote!(s.serialize_entry(#wire, #value)?;),
                None => {
                    let value = wire_value(f, quote!(value));
                    quote!(if let Some(value) = &self.#fid { s.serialize_entry(#wire, #value)?; })
                }
            }
        });
        let mut map_len = len.clone();
        map_len.push(quote!(self.#id.len()));
        quote! {
            use ::serde::ser::SerializeMap as _;
            const FIELDS: &[&str] = &[#(#wires),*];
            let mut s = serializer.serialize_map(Some(#(#map_len)+*))?;
            #(#map_writes)*
            for (key, value) in &self.#id {
                if FIELDS.contains(&key.as_str()) {
                    return Err(::serde::ser::Error::custom(format_args!(
                        "`additional` of {} holds `{key}`, which is a field", #label
                    )));
                }
                s.serialize_entry(key, value)?;
            }
            s.end()
        }
    } else if fields.is_empty() {
        quote!(::serde::ser::SerializeStruct::end(serializer.serialize_struct(#label, 0)?))
    } else {
        quote! {
            use ::serde::ser::SerializeStruct as _;
            let mut s = serializer.serialize_struct(#label, #(#len)+*)?;
            #(#writes)*
            s.end()
        }
    };

    let wires: Vec<&str> = fields.iter().map(|f| f.wire.as_str()).collect();
    let slots = fields.iter().map(|f| {
        let ty = field_type(f);
        if !f.is_option() {
            quote!(Option<#ty>,)
        } else {
            quote!(Option<Option<#ty>>,)
        }
    });
    let mut slots: Vec<TokenStream> = slots.collect();
    let mut nones: Vec<TokenStream> = fields.iter().map(|_| quote!(None,)).collect();
    let mut other_fn = TokenStream::new();
    let mut other_init = TokenStream::new();
    if let Some(ty) = &t.additional {
        let ty = super::rust_type(ty);
        let slot = syn::Index::from(fields.len());
        let id = ident(ADDITIONAL_FIELD);
        slots.push(quote!(::std::collections::BTreeMap<String, #ty>,));
        nones.push(quote!(::std::collections::BTreeMap::new(),));
        other_fn = quote! {
            const KEEPS_OTHER_KEYS: bool = true;
            fn other<'de, A: ::serde::de::MapAccess<'de>>(p: &mut Self::Partial, key: String, map: &mut A) -> Result<(), A::Error> {
                rt::object::other_value(&mut p.#slot, key, map)
            }
        };
        other_init = quote!(#id: p.#slot,);
    }
    let reads: Vec<TokenStream> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (slot, wire) = (syn::Index::from(i), &f.wire);
            match (wire_module(f.format), !f.is_option()) {
                (None, _) => quote!(rt::object::value(&mut p.#slot, map, #wire)),
                (Some(m), true) => {
                    quote!(rt::object::value_as::<#m::Wire, _, _>(&mut p.#slot, map, #wire))
                }
                (Some(m), false) => {
                    quote!(rt::object::value_as::<Option<#m::Wire>, _, _>(&mut p.#slot, map, #wire))
                }
            }
        })
        .collect();
    let field_fn = match reads.as_slice() {
        [] => quote! {
            fn field<'de, A: ::serde::de::MapAccess<'de>>(_: &mut Self::Partial, _: usize, _: &mut A) -> Result<(), A::Error> {
                Ok(())
            }
        },
        [read] => quote! {
            fn field<'de, A: ::serde::de::MapAccess<'de>>(p: &mut Self::Partial, _: usize, map: &mut A) -> Result<(), A::Error> {
                #read
            }
        },
        [init @ .., last] => {
            let arms = init.iter().enumerate().map(|(i, read)| {
                let i = usize_lit(i as u64);
                quote!(#i => #read,)
            });
            quote! {
                fn field<'de, A: ::serde::de::MapAccess<'de>>(p: &mut Self::Partial, index: usize, map: &mut A) -> Result<(), A::Error> {
                    match index {
                        #(#arms)*
                        _ => #last,
                    }
                }
            }
        }
    };
    let inits = fields.iter().enumerate().map(|(i, f)| {
        let (id, slot, wire) = (ident(&f.rust), syn::Index::from(i), &f.wire);
        // A nullable field left out of an answer reads as `None`, as its `null` would.
        if !f.is_option() {
            quote!(#id: rt::object::required(p.#slot, #wire)?,)
        } else {
            quote!(#id: p.#slot.flatten(),)
        }
    });
    let partial = if fields.is_empty() && t.additional.is_none() {
        quote!(_: ())
    } else {
        quote!(p: Self::Partial)
    };
    quote! {
        #ser_gate
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                #ser_body
            }
        }

        #de_gate
        #[doc(hidden)]
        impl rt::object::Decode for #name {
            const NAME: &'static str = #label;
            const FIELDS: &'static [&'static str] = &[#(#wires),*];
            type Partial = (#(#slots)*);
            fn start() -> Self::Partial {
                (#(#nones)*)
            }
            #field_fn
            fn finish<E: ::serde::de::Error>(#partial) -> Result<Self, E> {
                Ok(Self { #(#inits)* #other_init })
            }
            #other_fn
        }

        #de_gate
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                rt::object::deserialize(deserializer)
            }
        }
    }
}

/// The value a field holding `value` (a reference) is written as: through its wire form's
/// module, if its format has one.
fn wire_value(f: &FieldInfo, value: TokenStream) -> TokenStream {
    match wire_module(f.format) {
        Some(m) => quote!(&#m::AsWire(#value)),
        None => value,
    }
}

/// The value written for a field that is always on the wire (a required one; a nullable one as
/// `null` when unset), or `None` for an optional one, written only when set.
fn always_written(f: &FieldInfo, id: &proc_macro2::Ident) -> Option<TokenStream> {
    if !f.required {
        return None;
    }
    Some(match (f.nullable, wire_module(f.format)) {
        (false, _) => wire_value(f, quote!(&self.#id)),
        (true, None) => quote!(&self.#id),
        (true, Some(m)) => quote!(&self.#id.as_deref().map(#m::AsWire)),
    })
}
