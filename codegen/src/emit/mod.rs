//! Emitting: a resolved [`Service`] becomes one Rust module, built with `quote!` into a
//! `syn::File` and formatted with prettyplease.
//!
//! Generated code is thin: types, static descriptions of the service and its operations, and one
//! method per operation that fills a `tidings_runtime::Request` and calls the runtime's single
//! entry point. The runtime is imported as `rt` and the standard prelude's names (`Option`,
//! `String`, `Vec`, `Result`, ...) are used as is: the checker refuses spec types that would
//! shadow them.
//!
//! What the output depends on besides the spec ([`EmitOptions`]: the crate path of doc examples,
//! the provenance wording, the serde directions) is resolved once per emit into a `Settings`
//! value, which every emitter that reads an option takes as a parameter, never thread-local or
//! global state: emits with different options never see each other's.

mod alias;
mod client;
mod doc_links;
mod object_serde;
mod server;
mod service;
mod types;
mod untagged;
mod webhooks;
mod websocket;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::check::ProvenancePolicy;
use crate::model::Source;
use crate::resolved::{Service, Ty};

/// Options of the emitter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmitOptions {
    /// A module path (`crate::ext`) whose `<service>` submodule holds hand-written items to
    /// re-export from each generated module, so `tidings::messaging::sms` can be hand-written.
    pub extension_module: Option<String>,
    /// When set, a server module (`<service>_server.rs`) is emitted per service too; see
    /// [`ServerOptions`].
    pub server: Option<ServerOptions>,
    /// The path doc examples name the generated modules by (`my_crate` gives
    /// `my_crate::<service>::...`); `tidings` when unset.
    pub crate_path: Option<String>,
    /// Whether docs speak of provenance against a seed ([`ProvenancePolicy::Required`]) or
    /// describe items on their own ([`ProvenancePolicy::Optional`]).
    pub provenance: ProvenancePolicy,
    /// Where the serde direction a client does not need goes; see [`SerdeDirections`].
    pub serde: SerdeDirections,
}

/// Which serde impls the generated types get. A client needs `Serialize` only on what it sends
/// and `Deserialize` only on what it receives (each type's [`crate::resolved::Flow`]); a
/// server built from the same types needs the other direction too.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SerdeDirections {
    /// The direction the client needs, and the other behind the cargo feature
    /// [`SERDE_BOTH_FEATURE`] of the crate that includes the code (`tidings`'s `server`, which
    /// the sandbox turns on).
    #[default]
    OtherBehindFeature,
    /// Both directions on every type, always (a crate that serves its own types).
    Both,
}

/// The cargo feature that gives every generated type both serde directions under
/// [`SerdeDirections::OtherBehindFeature`].
pub const SERDE_BOTH_FEATURE: &str = "server";

/// What the emitted code depends on besides the spec: facts of the crate that includes it (the
/// path doc examples start with, the provenance wording, the serde directions), resolved once
/// from [`EmitOptions`] per emit call and handed to every emitter that reads one. A value, never
/// ambient state: two emits with different options, on one thread or several, cannot see each
/// other's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Settings {
    /// The crate path doc examples start with (`tidings`).
    crate_path: String,
    /// The provenance policy the docs are written under.
    policy: ProvenancePolicy,
    /// Where the serde direction a client does not need goes (not docs, but as much a fact
    /// of the consuming crate).
    serde: SerdeDirections,
}

impl Default for Settings {
    /// The settings of [`EmitOptions::default`]: examples under `tidings`, provenance against a
    /// seed, the direction a client does not need behind [`SERDE_BOTH_FEATURE`].
    fn default() -> Self {
        Settings::new(&EmitOptions::default())
    }
}

impl Settings {
    /// The settings `options` give.
    pub(crate) fn new(options: &EmitOptions) -> Self {
        Settings {
            crate_path: options
                .crate_path
                .clone()
                .unwrap_or_else(|| "tidings".to_owned()),
            policy: options.provenance,
            // A crate that serves the types it generates needs both directions on them.
            serde: if options.server.is_some() {
                SerdeDirections::Both
            } else {
                options.serde
            },
        }
    }

    /// The crate path doc examples start with (`tidings`).
    pub(crate) fn crate_path(&self) -> &str {
        &self.crate_path
    }

    /// The serde derives of a type that travels `flow`: the derive list's entries the client
    /// needs, and an attribute adding the others under [`SERDE_BOTH_FEATURE`] (or in the list,
    /// with [`SerdeDirections::Both`]).
    pub(crate) fn serde_derives(&self, flow: crate::resolved::Flow) -> (TokenStream, TokenStream) {
        let both = self.serde == SerdeDirections::Both;
        let ser = quote!(::serde::Serialize,);
        let de = quote!(::serde::Deserialize,);
        let (mut now, mut later) = (TokenStream::new(), TokenStream::new());
        for (needed, derive) in [(flow.sent, ser), (flow.received, de)] {
            if needed || both {
                now.extend(derive);
            } else {
                later.extend(derive);
            }
        }
        let gated = (!later.is_empty())
            .then(|| quote!(#[cfg_attr(feature = #SERDE_BOTH_FEATURE, derive(#later))]));
        (now, quote!(#gated))
    }

    /// `#[cfg(feature = "server")]` for an impl (serde, `Validate`) the client does not need
    /// (nothing when it does, or under [`SerdeDirections::Both`]).
    pub(crate) fn server_gate(&self, needed: bool) -> TokenStream {
        if needed || self.serde == SerdeDirections::Both {
            TokenStream::new()
        } else {
            quote!(#[cfg(feature = #SERDE_BOTH_FEATURE)])
        }
    }

    /// The provenance line added to docs of items that are not from the seed (under
    /// [`ProvenancePolicy::Optional`], worded without one).
    pub(crate) fn provenance_line(&self, source: Source) -> Option<&'static str> {
        match (source, self.policy) {
            (Source::Seed | Source::Imported, _) => None,
            (Source::Assumed, ProvenancePolicy::Required) => {
                Some("*Assumed*: not shown by the seed; our design.")
            }
            (Source::NotShown, ProvenancePolicy::Required) => {
                Some("*Not shown*: the seed leaves this unknown.")
            }
            (Source::Assumed, ProvenancePolicy::Optional) => Some("*Assumed*: a design choice."),
            (Source::NotShown, ProvenancePolicy::Optional) => {
                Some("*Not shown*: not known yet; may change.")
            }
        }
    }

    /// The heading of an item's `conflict` note.
    pub(crate) fn conflict_heading(&self) -> &'static str {
        match self.policy {
            ProvenancePolicy::Required => "**Conflict in the seed**",
            ProvenancePolicy::Optional => "**Conflict**",
        }
    }

    /// Docs of an item: its own text plus its provenance.
    pub(crate) fn item_docs(
        &self,
        doc: Option<&str>,
        fallback: &str,
        source: Source,
    ) -> TokenStream {
        let mut text = doc
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .unwrap_or(fallback)
            .to_owned();
        if let Some(line) = self.provenance_line(source) {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(line);
        }
        docs(&text)
    }

    /// Docs of a member (field, variant, parameter): its own text, and its provenance when that
    /// differs from its parent's (the parent's docs already say it). Nothing when both are
    /// absent: a doc that only repeats the member's name says nothing.
    pub(crate) fn member_docs(
        &self,
        doc: Option<&str>,
        source: Source,
        parent: Source,
    ) -> TokenStream {
        let mut text = doc.map(str::trim).unwrap_or_default().to_owned();
        if source != parent
            && let Some(line) = self.provenance_line(source)
        {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(line);
        }
        docs(&text)
    }

    /// The doc comment of a service's module: its title, summary and docs, and where it was
    /// generated from.
    fn module_doc(&self, service: &Service) -> TokenStream {
        let info = &service.info;
        let mut text = format!("{}: {}.", info.title, info.summary.trim_end_matches('.'));
        if let Some(doc) = &info.doc {
            text.push_str("\n\n");
            text.push_str(doc.trim());
        }
        text.push_str(&match self.policy {
            ProvenancePolicy::Required => format!(
                "\n\nGenerated from `{}`. Items marked *assumed* are our design where the seed shows nothing; \
                 `tidings-codegen gaps` lists them.",
                file_name(&service.file)
            ),
            ProvenancePolicy::Optional => {
                format!("\n\nGenerated from `{}`.", file_name(&service.file))
            }
        });
        docs(&text)
    }
}

pub(crate) use server::emit_server_with;
pub use server::{DEFAULT_SUPPORT_PATH, ServerOptions, emit_server};

/// Emits the module of one service, formatted. The text starts with `pub mod <name> { ... }`.
pub fn emit_service(service: &Service) -> Result<String, String> {
    emit_service_with(service, &EmitOptions::default())
}

/// [`emit_service`] with options.
///
/// The module is emitted and formatted a chunk (one item, or a type with its impls) at a time,
/// so memory holds the text so far and one chunk's tokens and syntax tree, not the whole
/// module three times over: peak memory, and with it time on large specs, stays proportional
/// to the output. Each chunk is formatted inside an empty copy of the module, so the text is
/// the same as formatting the whole module at once.
pub fn emit_service_with(service: &Service, options: &EmitOptions) -> Result<String, String> {
    let settings = Settings::new(options);
    let module = format_ident!("{}", service.name());
    let extension = match &options.extension_module {
        Some(path) => Some(extension_use(service, path)?),
        None => None,
    };
    let mut out = format!(
        "// @generated by tidings-codegen from {} — do not edit: change the spec and rebuild.\n\n",
        file_name(&service.file)
    );
    let doc = settings.module_doc(service);
    let opening = format_file(service, quote!(#doc pub mod #module {}))?;
    out.push_str(opening.strip_suffix("{}\n").unwrap_or(&opening));
    out.push_str("{\n");
    let wrapper = format!("pub mod {module} {{\n");
    for chunk in chunks(service, &settings).chain(extension) {
        if chunk.is_empty() {
            continue;
        }
        let text = format_file(service, quote!(pub mod #module { #chunk }))?;
        let inner = text
            .strip_prefix(&wrapper)
            .and_then(|t| t.strip_suffix("}\n"))
            .ok_or_else(|| format!("formatted chunk of `{}` is not one module", service.name()))?;
        out.push_str(inner);
    }
    out.push_str("}\n");
    Ok(out)
}

/// Parses and formats tokens that make a file.
fn format_file(service: &Service, tokens: TokenStream) -> Result<String, String> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| {
        format!(
            "generated code for `{}` does not parse: {e}",
            service.name()
        )
    })?;
    Ok(prettyplease::unparse(&file))
}

/// The items of a service module in order, a chunk at a time, made as the iterator is read.
fn chunks<'a>(
    service: &'a Service,
    settings: &'a Settings,
) -> impl Iterator<Item = TokenStream> + 'a {
    std::iter::once(quote!(
        use ::tidings_runtime as rt;
    ))
    .chain(std::iter::once_with(|| {
        service::service_static(service, settings)
    }))
    .chain(client::items(service, settings))
    .chain(types::items(service, settings))
    .chain(std::iter::once_with(|| {
        websocket::websocket(service, settings)
    }))
}

/// The tokens of one service module under the default [`EmitOptions`], all at once (the
/// benchmarks time emitting apart from formatting with it).
pub fn service_tokens(service: &Service) -> TokenStream {
    let settings = Settings::default();
    let module = format_ident!("{}", service.name());
    let doc = settings.module_doc(service);
    let chunks = chunks(service, &settings);
    quote! {
        #doc
        pub mod #module {
            #(#chunks)*
        }
    }
}

/// `pub use <path>::<service>::*;`: the hand-written items, inside the service module.
fn extension_use(service: &Service, path: &str) -> Result<TokenStream, String> {
    let module = format_ident!("{}", service.name());
    let path: syn::Path = syn::parse_str(path)
        .map_err(|e| format!("extension module `{path}` is not a path: {e}"))?;
    // The extension may have no items yet.
    Ok(quote! {
        #[doc(inline)]
        #[allow(unused_imports)]
        pub use #path::#module::*;
    })
}

fn file_name(path: &str) -> String {
    let p = path.replace('\\', "/");
    match p.rfind("spec/") {
        Some(i) => p[i..].to_owned(),
        None => p.rsplit('/').next().unwrap_or(&p).to_owned(),
    }
}

/// Appends `more` to `text` as a paragraph of its own.
pub(super) fn push_paragraph(text: &mut String, more: &str) {
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(more);
}

/// A type's own doc, trimmed, then a paragraph the emitter adds.
pub(super) fn own_doc_then(t: &crate::resolved::TypeInfo, more: &str) -> String {
    let mut text = t
        .doc
        .as_deref()
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    push_paragraph(&mut text, more);
    text
}

/// `#[doc = "..."]` attributes, one per line, so prettyplease prints `///` comments; nothing for
/// an empty text. A tab is four spaces (as Markdown reads it; no `clippy::tabs_in_doc_comments`
/// warning in the crate that includes it).
pub(crate) fn docs(text: &str) -> TokenStream {
    if text.trim().is_empty() {
        return TokenStream::new();
    }
    let text = text.replace('\t', "    ");
    let mut fenced = false;
    let lines = list_continuations(text.trim_end()).into_iter().map(|l| {
        // Outside code (a fence, or a block indented four spaces), a bare URL is linked.
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let code = fenced || l.starts_with("    ");
        let l = if code {
            l
        } else {
            doc_links::link_bare_urls(&l)
        };
        format!(" {l}").trim_end().to_owned()
    });
    quote! { #( #[doc = #lines] )* }
}

/// The lines of a Markdown text, a line that continues a list item without indentation (a
/// "lazy continuation", as provider documents write them) indented under the item: the same
/// rendering, and no `clippy::doc_lazy_continuation` warning in the crate that includes it.
fn list_continuations(text: &str) -> Vec<String> {
    // The width of a list item's marker (`- `, `* `, `+ `, `1. `), when the line starts one.
    fn marker(line: &str) -> Option<usize> {
        let rest = line.trim_start_matches(' ');
        let lead = line.len() - rest.len();
        if lead > 3 {
            return None;
        }
        let width = if rest.starts_with(['-', '*', '+']) && rest[1..].starts_with(' ') {
            2
        } else {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let after = &rest[digits..];
            if digits == 0 || digits > 9 || !(after.starts_with(". ") || after.starts_with(") ")) {
                return None;
            }
            digits + 2
        };
        Some(lead + width)
    }
    let mut out = Vec::new();
    let mut item: Option<usize> = None;
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            item = None;
        }
        if fenced || line.trim().is_empty() {
            if line.trim().is_empty() {
                item = None;
            }
            out.push(line.to_owned());
            continue;
        }
        if let Some(width) = marker(line) {
            item = Some(width);
            out.push(line.to_owned());
        } else if let (Some(width), false) = (item, line.starts_with([' ', '\t'])) {
            out.push(format!("{}{line}", " ".repeat(width)));
        } else {
            out.push(line.to_owned());
        }
    }
    out
}

/// An integer literal without a type suffix, so the output reads like hand-written code.
pub(crate) fn lit(n: u64) -> proc_macro2::Literal {
    proc_macro2::Literal::u64_unsuffixed(n)
}

/// A `usize` literal without a suffix (saturating on 32-bit hosts).
pub(crate) fn usize_lit(n: u64) -> proc_macro2::Literal {
    proc_macro2::Literal::usize_unsuffixed(usize::try_from(n).unwrap_or(usize::MAX))
}

/// `Some("...")` or `None`.
pub(crate) fn opt_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(v) => quote!(Some(#v)),
        None => quote!(None),
    }
}

/// The Rust type of a field's value: its type, boxed when the field closes a cycle of types
/// held by value.
pub(crate) fn field_type(f: &crate::resolved::FieldInfo) -> TokenStream {
    let ty = rust_type(&f.ty);
    if f.boxed { quote!(Box<#ty>) } else { ty }
}

/// The runtime module converting a date-time's wire form, for formats that are not RFC 3339.
pub(crate) fn wire_module(format: Option<crate::model::Format>) -> Option<TokenStream> {
    match format? {
        crate::model::Format::Rfc2822 => Some(quote!(rt::dates::rfc2822)),
        crate::model::Format::Unix => Some(quote!(rt::dates::unix)),
        crate::model::Format::UnixMs => Some(quote!(rt::dates::unix_ms)),
        _ => None,
    }
}

/// The Rust type of a type expression, named types as they are in scope.
pub(crate) fn rust_type(ty: &Ty) -> TokenStream {
    rust_type_with(ty, &|name| {
        let id = format_ident!("{}", name);
        quote!(#id)
    })
}

/// The Rust type of a type expression, `named` giving the path of each named type (and of
/// `Page`): the one mapping from spec types to Rust types, for the client and the server.
pub(crate) fn rust_type_with(ty: &Ty, named: &dyn Fn(&str) -> TokenStream) -> TokenStream {
    match ty {
        Ty::String | Ty::DateTime | Ty::Date => quote!(String),
        Ty::Integer => quote!(i64),
        Ty::Number => quote!(f64),
        Ty::Boolean => quote!(bool),
        Ty::Json => quote!(::serde_json::Value),
        Ty::Bytes => quote!(::tidings_runtime::form::FilePart),
        Ty::Named(n) => named(n),
        Ty::List(t) => {
            let t = rust_type_with(t, named);
            quote!(Vec<#t>)
        }
        Ty::Map(t) => {
            let t = rust_type_with(t, named);
            quote!(::std::collections::BTreeMap<String, #t>)
        }
        Ty::Page(t) => {
            let t = rust_type_with(t, named);
            let page = named("Page");
            quote!(#page<#t>)
        }
    }
}

#[cfg(test)]
mod tests;
