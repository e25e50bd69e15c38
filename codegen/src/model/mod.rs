//! The spec model: serde structs that mirror `spec/*.yaml` one to one.
//!
//! Nothing here is interpreted; [`crate::check`] turns a [`SpecFile`] into a resolved
//! [`crate::resolved::Service`]. One file per part of a spec: `service` (the service-wide
//! sections), `types`, `operations` (and webhooks), `websocket`. The JSON Schema in `spec/spec.schema.json` is derived from these
//! types (see [`json_schema`]), so editors complete and validate spec files.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where a fact comes from.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Stated by the seed document (`shared/seed/`).
    Seed,
    /// Our design, modeled on public providers; the seed does not show it.
    Assumed,
    /// Still unknown: the seed says "not shown" and we have not filled it in.
    NotShown,
    /// Taken from the provider's published API document (`tidings-codegen import`, or written
    /// from it by hand); `note` names the document and the JSON pointer it came from.
    Imported,
}

impl Source {
    /// The word used in YAML and in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Seed => "seed",
            Source::Assumed => "assumed",
            Source::NotShown => "not_shown",
            Source::Imported => "imported",
        }
    }
}

/// Provenance of one item: where it comes from, and why.
///
/// Every spec item carries the three keys `source`, `note` and `conflict`. Items nested in a
/// type or operation (fields, enum values, variants, parameters) inherit the `source` of their
/// parent unless they set their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Provenance<'a> {
    /// `seed`, `assumed` or `not_shown`; `None` when the item does not say.
    pub source: Option<Source>,
    /// Why it is assumed, or what the seed says word for word.
    pub note: Option<&'a str>,
    /// Set when seed facts disagree about this item: what it conflicts with.
    pub conflict: Option<&'a str>,
}

/// Declares a spec item: a serde struct that rejects unknown keys and carries provenance.
macro_rules! item {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$field_meta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
            /// Where this item comes from: `seed`, `assumed` or `not_shown`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub source: Option<Source>,
            /// Why it is assumed, or what the seed says word for word.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub note: Option<String>,
            /// Set when seed facts disagree about this item: what it conflicts with.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub conflict: Option<String>,
        }

        impl $name {
            /// Provenance of this item.
            pub fn provenance(&self) -> Provenance<'_> {
                Provenance {
                    source: self.source,
                    note: self.note.as_deref(),
                    conflict: self.conflict.as_deref(),
                }
            }
        }
    };
}

mod operations;
mod service;
mod types;
mod websocket;

pub use operations::*;
pub use service::*;
pub use types::*;
pub use websocket::*;

/// One spec file: one service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "tidings service spec")]
pub struct SpecFile {
    /// Identity of the service.
    pub service: ServiceInfo,
    /// Named credentials (API keys, app ids, secrets) and the env vars they are read from.
    #[serde(default)]
    pub credentials: IndexMap<String, Credential>,
    /// Auth schemes in order of preference; the first is the default.
    #[serde(default)]
    pub auth: Vec<AuthScheme>,
    /// Rate and size limits, and the headers that report them.
    #[serde(default)]
    pub limits: Option<Limits>,
    /// How failed requests are retried.
    #[serde(default)]
    pub retry: Option<RetryPolicy>,
    /// Connect and per-attempt timeouts.
    #[serde(default)]
    pub timeouts: Option<Timeouts>,
    /// How non-idempotent requests are made safe to retry.
    #[serde(default)]
    pub idempotency: Option<Idempotency>,
    /// How list endpoints page.
    #[serde(default)]
    pub pagination: Option<Pagination>,
    /// The error body every failed request carries.
    #[serde(default)]
    pub errors: Option<Errors>,
    /// Named types: objects, open enums and tagged unions.
    #[serde(default)]
    pub types: IndexMap<String, TypeDef>,
    /// Operations: one client method each.
    #[serde(default)]
    pub operations: IndexMap<String, Operation>,
    /// Events the service delivers to the app (webhooks).
    #[serde(default)]
    pub events: Option<Events>,
    /// The WebSocket protocol: connection URL, messages, channel kinds, close codes.
    #[serde(default)]
    pub websocket: Option<WebSocket>,
    /// Facts the seed leaves open that have no other place in the spec.
    #[serde(default)]
    pub gaps: IndexMap<String, Gap>,
}

item! {
    /// A fact the seed leaves open.
    pub struct Gap {
        /// What is unknown, or what we assumed for it.
        pub text: String,
    }
}

/// The JSON Schema of spec files, pretty-printed, as committed in `spec/spec.schema.json`.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(SpecFile);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
