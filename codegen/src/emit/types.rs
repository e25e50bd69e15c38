//! Named types: structs for objects, open enums (an `Unknown(String)` variant keeps any other
//! value), tagged enums for unions, and the
//! `Page<T>` of a paginated service.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Settings, docs, field_type, own_doc_then, push_paragraph, rust_type, usize_lit};
use std::collections::BTreeSet;

use crate::model::{Format, Source};
use crate::names::{ident, snake};
use crate::resolved::{
    ADDITIONAL_FIELD, FieldInfo, RuleInfo, Service, Ty, TypeInfo, TypeKind, ValueInfo, VariantInfo,
};

/// Every named type of a service, plus `Page<T>` when it paginates: one chunk of tokens per
/// type (its definition and impls), made as the iterator is read.
pub(super) fn items<'a>(
    service: &'a Service,
    settings: &'a Settings,
) -> impl Iterator<Item = TokenStream> + 'a {
    let aliases = super::alias::TypeAliases::of(service);
    let types = service.types.iter().map(move |t| {
        if let Some(target) = aliases.target(&t.name) {
            return alias(t, target, settings);
        }
        // A kept type serves its aliases' flows too.
        let merged;
        let t = if aliases.flow(t) == t.flow {
            t
        } else {
            merged = TypeInfo {
                flow: aliases.flow(t),
                ..t.clone()
            };
            &merged
        };
        let def = match &t.kind {
            TypeKind::Object(fields) => {
                let def = object(t, fields, settings);
                // Every object, response types too: handlers and tests build them like requests.
                let ctor = constructors(t, fields, settings);
                quote!(#def #ctor)
            }
            TypeKind::Enum(values) => open_enum(t, values, settings),
            TypeKind::Union {
                tag,
                content,
                variants,
            } => {
                let def = union(t, tag, content.as_deref(), variants, settings);
                let from = union_from_impls(t, variants, &aliases);
                quote!(#def #from)
            }
            TypeKind::Untagged { variants } => {
                super::untagged::untagged_union(service, t, variants, settings, &aliases)
            }
        };
        // Checks run before sending: a type the client only receives has them for servers.
        let validate = t.checked.then(|| {
            let gate = settings.server_gate(t.flow.sent);
            let imp = validate_impl(service, t);
            quote!(#gate #imp)
        });
        quote!(#def #validate)
    });
    // The service's cursor page with top-level fields is a plain struct; every other style
    // answers the runtime's `Page<T>`.
    let page = service.page_style.as_ref().and_then(|p| {
        let crate::resolved::PageStyle::Cursor { has_more, .. } = &p.style else {
            return None;
        };
        if !p.generated_page {
            return None;
        }
        let items = ident(&snake(&p.items_field));
        let has_more_id = ident(&snake(has_more));
        let (items_wire, has_more_wire) = (&p.items_field, has_more);
        let (derives, gated) = settings.serde_derives(crate::resolved::Flow {
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

/// `pub type Name = Target;`: a type of the same shape as one emitted before it, with its own
/// docs and a link to the definition.
fn alias(t: &TypeInfo, target: &str, settings: &Settings) -> TokenStream {
    let name = format_ident!("{}", t.name);
    let target_id = format_ident!("{}", target);
    let text = own_doc_then(
        t,
        &format!(
            "The same shape as [`{target}`] (field for field, on the wire and in Rust), so one \
             definition serves both names."
        ),
    );
    let doc = settings.item_docs(Some(&text), "", t.source);
    quote! {
        #doc
        pub type #name = #target_id;
    }
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
fn field_doc(f: &FieldInfo, parent: Source, settings: &Settings) -> TokenStream {
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
        push_paragraph(&mut doc_text, note);
    }
    push_pattern_note(&mut doc_text, &f.constraints);
    push_default_note(&mut doc_text, f.default.as_ref());
    if f.nullable {
        push_paragraph(
            &mut doc_text,
            "Always on the wire: `None` is sent and received as `null`.",
        );
    }
    settings.member_docs(Some(&doc_text), f.source, parent)
}

/// Appends to `text` the value the service takes for a field or parameter left out.
pub(super) fn push_default_note(text: &mut String, default: Option<&serde_json::Value>) {
    if let Some(default) = default {
        push_paragraph(
            text,
            &format!("The service takes `{default}` when it is left out."),
        );
    }
}

/// Adds to a field's or parameter's docs the pattern its text matches, if it has one: the
/// client does not check it (the service does, and the sandbox).
pub(super) fn push_pattern_note(doc_text: &mut String, c: &crate::resolved::Constraints) {
    let Some(pattern) = &c.pattern else { return };
    if !doc_text.is_empty() {
        doc_text.push_str("\n\n");
    }
    // A pattern holding a backtick needs a longer fence to be shown as code.
    let fence = if pattern.contains('`') { "`` " } else { "`" };
    let close = if pattern.contains('`') { " ``" } else { "`" };
    doc_text.push_str(&format!(
        "Matches the pattern {fence}{pattern}{close} (checked by the service and by the \
         sandbox, not before sending)."
    ));
}

fn field(f: &FieldInfo, parent: Source, settings: &Settings) -> TokenStream {
    let doc = field_doc(f, parent, settings);
    let id = ident(&f.rust);
    let ty = field_type(f);
    if !f.is_option() {
        quote!(#doc pub #id: #ty,)
    } else {
        quote!(#doc pub #id: Option<#ty>,)
    }
}

fn object(t: &TypeInfo, fields: &[FieldInfo], settings: &Settings) -> TokenStream {
    let doc = settings.item_docs(t.doc.as_deref(), "", t.source);
    let name = format_ident!("{}", t.name);
    let default = fields
        .iter()
        .all(FieldInfo::is_option)
        .then(|| quote!(Default,));
    let has_secret = fields.iter().any(|f| f.secret);
    let derive_debug = (!has_secret).then(|| quote!(Debug,));
    let debug = has_secret.then(|| redacting_debug(t, fields));
    let serde = super::object_serde::object_serde(t, fields, settings);
    let additional = t.additional.as_ref().map(|ty| {
        let id = ident(ADDITIONAL_FIELD);
        let ty = rust_type(ty);
        quote! {
            /// The keys besides the fields above, with their values, as received and as sent
            /// (after the fields).
            pub #id: ::std::collections::BTreeMap<String, #ty>,
        }
    });
    let fields = fields.iter().map(|f| field(f, t.source, settings));
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
pub(super) fn open_enum(t: &TypeInfo, values: &[ValueInfo], settings: &Settings) -> TokenStream {
    let mut text = t
        .doc
        .as_deref()
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    if let Some(line) = settings.provenance_line(t.source) {
        push_paragraph(&mut text, line);
    }
    push_paragraph(
        &mut text,
        "Open: a value this version does not know decodes as `Unknown` and is sent back unchanged.",
    );
    let doc = docs(&text);
    let name = format_ident!("{}", t.name);
    let ids: Vec<_> = values.iter().map(|v| format_ident!("{}", v.rust)).collect();
    let wires: Vec<&str> = values.iter().map(|v| v.wire.as_str()).collect();
    let variants = values.iter().zip(&ids).map(|(v, id)| {
        let vdoc = settings.member_docs(v.doc.as_deref(), v.source, t.source);
        quote!(#vdoc #id,)
    });
    let (ser_gate, de_gate) = (
        settings.server_gate(t.flow.sent),
        settings.server_gate(t.flow.received),
    );
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

fn union(
    t: &TypeInfo,
    tag: &str,
    content: Option<&str>,
    variants: &[VariantInfo],
    settings: &Settings,
) -> TokenStream {
    let told = match content {
        Some(c) => format!("Told apart by the `{tag}` field; the content sits in `{c}`."),
        None => format!("Told apart by the `{tag}` field; the content's fields sit beside it."),
    };
    let doc_text = own_doc_then(
        t,
        &format!(
            "{told} Open: a variant this version does not know decodes as `Unknown`, kept whole."
        ),
    );
    let doc = settings.item_docs(Some(&doc_text), "", t.source);
    let name = format_ident!("{}", t.name);
    let content_tokens = match content {
        Some(c) => quote!(Some(#c)),
        None => quote!(None),
    };
    let defs = variants.iter().map(|v| {
        let vdoc = settings.member_docs(v.doc.as_deref(), v.source, t.source);
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
    let (ser_gate, de_gate) = (
        settings.server_gate(t.flow.sent),
        settings.server_gate(t.flow.received),
    );
    let content_binding = if variants.iter().any(|v| v.ty.is_some()) {
        quote!(content)
    } else {
        quote!(_content)
    };
    // Each variant holds its payload by value, as the API's shape is (a box would sit in
    // every match of every user); a big variant is the document's, not a mistake to lint.
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        #[allow(clippy::large_enum_variant)]
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

fn field_checks(f: &FieldInfo) -> TokenStream {
    let id = ident(&f.rust);
    let wire = &f.wire;
    let mut checks = Vec::new();
    if let Some(format) = f.format {
        let format = format_tokens(format);
        checks.push(quote!(v.format(#wire, &self.#id, rt::spec::Format::#format);));
    }
    if f.ty.holds_date() {
        checks.push(quote!(v.format(#wire, &self.#id, rt::spec::Format::Date);));
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

fn presence(fields: &[(String, String)], required: &BTreeSet<&str>) -> Vec<TokenStream> {
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

fn validate_impl(service: &Service, t: &TypeInfo) -> TokenStream {
    let name = format_ident!("{}", t.name);
    let body = match &t.kind {
        TypeKind::Object(fields) => {
            let required: BTreeSet<&str> = fields
                .iter()
                .filter(|f| !f.is_option())
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
fn constructors(t: &TypeInfo, fields: &[FieldInfo], settings: &Settings) -> TokenStream {
    let members: Vec<Member<'_>> = fields
        .iter()
        .map(|f| Member {
            rust: &f.rust,
            ty: &f.ty,
            required: !f.is_option(),
            boxed: f.boxed,
            // The field's own docs, if any: "Sets `x`" would only repeat the method's name.
            doc: field_doc(f, t.source, settings),
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
pub(super) struct Member<'a> {
    pub rust: &'a str,
    pub ty: &'a Ty,
    pub required: bool,
    /// Held in a `Box` (a field of a recursive type): the argument is the value itself.
    pub boxed: bool,
    /// The setter's docs.
    pub doc: TokenStream,
}

/// `impl name { new(required...), one #[must_use] setter per optional member }`, or nothing when
/// there is neither; `what` names the members in the constructor's doc (`fields`,
/// `parameters`). Objects and parameter structs are built the same way.
pub(super) fn builders(
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
                let conv = if m.boxed { quote!(Box::new(#conv)) } else { conv };
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
            let conv = if m.boxed {
                quote!(Box::new(#conv))
            } else {
                conv
            };
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

/// `From<Content> for Union` for each variant whose content type is its own.
fn union_from_impls(
    t: &TypeInfo,
    variants: &[VariantInfo],
    aliases: &super::alias::TypeAliases,
) -> TokenStream {
    let name = format_ident!("{}", t.name);
    // Two variants of one type (or of two names for one shape) can have no `From`: which
    // variant would it build?
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let shared: BTreeSet<&str> = variants
        .iter()
        .filter_map(|v| v.ty.as_deref())
        .map(|ty| aliases.kept(ty))
        .filter(|ty| !seen.insert(ty))
        .collect();
    let impls = variants.iter().filter_map(|v| {
        let ty = v.ty.as_deref()?;
        if shared.contains(aliases.kept(ty)) {
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

/// `Debug` that prints `<redacted>` for secret fields.
fn redacting_debug(t: &TypeInfo, fields: &[FieldInfo]) -> TokenStream {
    let name = format_ident!("{}", t.name);
    let label = &t.name;
    let entries = fields.iter().map(|f| {
        let id = ident(&f.rust);
        let wire = &f.rust;
        match (f.secret, !f.is_option()) {
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
