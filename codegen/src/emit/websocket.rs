//! The `websocket` section: a static description of the protocol for the runtime's generic
//! engine (`tidings_runtime::spec::WebSocketSpec`), and typed message enums, one for what the
//! client sends and one for what the server sends, each variant carrying its payload type.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Settings, docs};
use crate::model::{DataEncoding, Direction, Source};
use crate::resolved::{MessageInfo, Service, WebSocketInfo};

/// Everything the `websocket` section generates; empty when the spec has none.
pub(super) fn websocket(service: &Service, settings: &Settings) -> TokenStream {
    let Some(ws) = &service.websocket else {
        return TokenStream::new();
    };
    let source = ws.origin.source;
    let spec = spec_static(service, ws, settings);
    let client = messages_enum(ws, source, true, settings);
    let server = messages_enum(ws, source, false, settings);
    quote! { #spec #client #server }
}

fn spec_static(service: &Service, ws: &WebSocketInfo, settings: &Settings) -> TokenStream {
    let mut doc_text =
        String::from("The WebSocket protocol of this service, as the runtime's engine reads it.");
    if let Some(d) = ws.doc.as_deref() {
        doc_text.push_str("\n\n");
        doc_text.push_str(d.trim());
    }
    let doc = settings.item_docs(Some(&doc_text), "", ws.origin.source);
    let spec = crate::describe::websocket_spec(service, ws);
    quote! {
        #doc
        pub static WEBSOCKET: rt::spec::WebSocketSpec = #spec;
    }
}

/// `ClientMessage` (`client == true`) or `ServerMessage`: one variant per message sent that way.
fn messages_enum(
    ws: &WebSocketInfo,
    source: Source,
    client: bool,
    settings: &Settings,
) -> TokenStream {
    let rt = quote!(rt::realtime);
    let picked: Vec<&MessageInfo> = ws
        .messages
        .iter()
        .filter(|m| match m.direction {
            Direction::Both => true,
            Direction::ClientToServer => client,
            Direction::ServerToClient => !client,
        })
        .collect();
    let (name, doc_text) = if client {
        (
            format_ident!("ClientMessage"),
            "A protocol message the client sends.\n\n`to_frame()` encodes it as the protocol says \
             (data as an object or as a JSON string).",
        )
    } else {
        (
            format_ident!("ServerMessage"),
            "A protocol message the server sends.\n\n`from_frame()` decodes a frame whose `data` \
             is a JSON string holding JSON, an object, or absent; events the protocol does not \
             define (app and client events) are kept whole in `Other`.",
        )
    };
    let doc = settings.item_docs(Some(doc_text), "", source);
    let variants = picked.iter().map(|m| {
        let id = format_ident!("{}", m.rust);
        let text = match m.doc.as_deref() {
            Some(d) => format!("`{}`: {}", m.event, d.trim()),
            None => format!("`{}`", m.event),
        };
        let vdoc = settings.item_docs(Some(&text), "", m.origin.source);
        let data = m.data.as_ref().map(|d| format_ident!("{}", d));
        match (m.channel, data) {
            (true, Some(ty)) => quote! {
                #vdoc
                #id {
                    /// The channel it is about.
                    channel: String,
                    /// Its payload.
                    data: #ty,
                },
            },
            (true, None) => quote! {
                #vdoc
                #id {
                    /// The channel it is about.
                    channel: String,
                },
            },
            (false, Some(ty)) => quote!(#vdoc #id(#ty),),
            (false, None) => quote!(#vdoc #id,),
        }
    });
    let events = picked.iter().map(|m| {
        let id = format_ident!("{}", m.rust);
        let event = &m.event;
        match (m.channel, m.data.is_some()) {
            (true, _) => quote!(Self::#id { .. } => #event,),
            (false, true) => quote!(Self::#id(_) => #event,),
            (false, false) => quote!(Self::#id => #event,),
        }
    });
    if client {
        let encode = picked.iter().map(|m| {
            let id = format_ident!("{}", m.rust);
            let event = &m.event;
            let encoding = m.encoding.unwrap_or(DataEncoding::None);
            match (m.channel, m.data.is_some()) {
                (true, true) => quote!(Self::#id { channel, data } => #rt::Frame::encode(#event, Some(channel), Some(data), #encoding),),
                (true, false) => quote!(Self::#id { channel } => #rt::Frame::encode::<()>(#event, Some(channel), None, #encoding),),
                (false, true) => quote!(Self::#id(data) => #rt::Frame::encode(#event, None, Some(data), #encoding),),
                (false, false) => quote!(Self::#id => #rt::Frame::encode::<()>(#event, None, None, #encoding),),
            }
        });
        let to_frame_doc = docs(
            "The frame that carries this message.\n\n# Errors\n\nAn invalid-request error when the payload cannot be serialised.",
        );
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq)]
            #[non_exhaustive]
            pub enum #name {
                #(#variants)*
            }
            impl #name {
                /// The `event` of its frame.
                pub fn event(&self) -> &'static str {
                    match self { #(#events)* }
                }
                #to_frame_doc
                pub fn to_frame(&self) -> Result<#rt::Frame, rt::Error> {
                    match self { #(#encode)* }
                }
            }
        }
    } else {
        let decode = picked.iter().map(|m| {
            let id = format_ident!("{}", m.rust);
            let event = &m.event;
            match (m.channel, m.data.is_some()) {
                (true, true) => quote!(#event => Self::#id { channel: frame.require_channel()?, data: frame.payload()? },),
                (true, false) => quote!(#event => Self::#id { channel: frame.require_channel()? },),
                (false, true) => quote!(#event => Self::#id(frame.payload()?),),
                (false, false) => quote!(#event => Self::#id,),
            }
        });
        let from_doc = docs(
            "Decodes a frame.\n\n# Errors\n\nA decode error, with an excerpt, when a protocol message lacks its channel or its data does not fit its type.",
        );
        let parse_doc = docs(
            "Parses and decodes one text frame.\n\n# Errors\n\nA decode error, with an excerpt, when the text is not a frame or its payload does not fit.",
        );
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq)]
            #[non_exhaustive]
            pub enum #name {
                #(#variants)*
                /// An event the protocol does not define (an app or client event), kept whole.
                Other(#rt::Frame),
            }
            impl #name {
                /// The `event` of its frame.
                pub fn event(&self) -> &str {
                    match self {
                        #(#events)*
                        Self::Other(frame) => &frame.event,
                    }
                }
                #from_doc
                pub fn from_frame(frame: &#rt::Frame) -> Result<Self, rt::Error> {
                    Ok(match frame.event.as_str() {
                        #(#decode)*
                        _ => Self::Other(frame.clone()),
                    })
                }
                #parse_doc
                pub fn parse(text: &str) -> Result<Self, rt::Error> {
                    Self::from_frame(&#rt::Frame::parse(text)?)
                }
            }
        }
    }
}
