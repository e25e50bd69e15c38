//! Named types of a spec: objects with their fields and rules, open enums and tagged unions.

use super::*;

item! {
    /// A named type: an object (`fields`), an open enum (`values`) or a tagged union (`variants`).
    pub struct TypeDef {
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
        /// Object fields by wire name, in wire order.
        #[serde(default)]
        pub fields: Option<IndexMap<String, Field>>,
        /// Open enum values (an unknown value still decodes).
        #[serde(default)]
        pub values: Option<Vec<EnumValue>>,
        /// Union variants by tag value.
        #[serde(default)]
        pub variants: Option<IndexMap<String, Variant>>,
        /// Field that holds a union's tag.
        #[serde(default)]
        pub tag: Option<String>,
        /// Field that holds a union variant's content; absent: the content's fields sit beside the tag.
        #[serde(default)]
        pub content: Option<String>,
        /// Rules across an object's fields (exclusive, require one, a total count).
        #[serde(default)]
        pub rules: Vec<Rule>,
        /// Object types whose fields come first, in order (like OpenAPI's `allOf`).
        #[serde(default)]
        pub include: Vec<String>,
        /// A union without a tag: the first variant whose type fits the payload's shape wins.
        #[serde(default)]
        pub untagged: bool,
        /// The type of every key an object has besides its `fields` (OpenAPI's
        /// `additionalProperties`): kept in the Rust field `additional`, a map, and sent back.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub additional: Option<String>,
        /// The service keeps the other keys a client sends (`additional`) and answers them back:
        /// the document invites them (`additionalProperties: true` or a schema, Knock's "any
        /// additional properties you'd like to upsert"). `tidings-sandbox --spec` answers them
        /// back; without it, an answer holds its declared fields only.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub keeps_other_keys: bool,
    }
}

item! {
    /// A field of an object.
    pub struct Field {
        /// Type expression: `string`, `integer`, `number`, `boolean`, `datetime`, `json`, a type
        /// name, `list<T>` or `map<T>` (string keys).
        #[serde(rename = "type")]
        pub ty: String,
        /// Must be present.
        #[serde(default)]
        pub required: bool,
        /// With `required`: always present, but may be `null` (OpenAPI's `nullable` on a
        /// required property: `next: null` on a list's last page). The client's field is an
        /// `Option` that is written as `null` when unset; the sandbox answers `null` for it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub nullable: bool,
        /// Set by the server only.
        #[serde(default)]
        pub read_only: bool,
        /// Sent by clients only (a password): the service never answers it back.
        #[serde(default)]
        pub write_only: bool,
        /// Holds a secret (a signing secret, a token): redacted in `Debug` output.
        #[serde(default)]
        pub secret: bool,
        /// Extra meaning of a string: `email`, `e164`, `rfc3339`, `uri`, `uuid`.
        #[serde(default)]
        pub format: Option<Format>,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
        /// Longest string, in characters (each string of a list).
        #[serde(default)]
        pub max_len: Option<u64>,
        /// Shortest string, in characters; `1` forbids empty strings.
        #[serde(default)]
        pub min_len: Option<u64>,
        /// Longest string, in UTF-8 bytes.
        #[serde(default)]
        pub max_bytes: Option<u64>,
        /// A regular expression the string (each string of a list) matches somewhere, as
        /// JSON Schema's `pattern` (anchor it with `^` and `$`). The field's documentation
        /// shows it and the sandbox refuses what does not match; the client does not check it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub pattern: Option<String>,
        /// Most items in a list or map.
        #[serde(default)]
        pub max_items: Option<u64>,
        /// Fewest items in a list or map (when present).
        #[serde(default)]
        pub min_items: Option<u64>,
        /// Smallest number.
        #[serde(default)]
        pub min: Option<f64>,
        /// Largest number.
        #[serde(default)]
        pub max: Option<f64>,
        /// Takes its limit from `limits.sizes.<name>`, by the size's unit: `characters` sets
        /// `max_len`, `bytes` sets `max_bytes`, any other unit (a count) sets `max_items`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub size: Option<String>,
        /// The value the service takes when the field is left out (OpenAPI's `default`): a
        /// string, number or boolean of the field's type. The field's docs say it; the sandbox
        /// answers it for a field a request left out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub default: Option<serde_json::Value>,
        /// A value the provider's document shows for a text field (OpenAPI's `example`:
        /// Intercom's `type: "contact"`). The sandbox answers it where it makes the field up.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub example: Option<String>,
        /// Rust name of the field, when the wire name does not make a good one (`self`, `DateSent<`).
        #[serde(default)]
        pub rust_name: Option<String>,
    }
}

item! {
    /// A rule across fields of an object, checked before sending.
    pub struct Rule {
        /// At most one of these fields may be set.
        #[serde(default)]
        pub exclusive: Option<Vec<String>>,
        /// At least one of these fields must be set.
        #[serde(default)]
        pub require_one: Option<Vec<String>>,
        /// The items of `fields` together are at most this many.
        #[serde(default)]
        pub max_total: Option<u64>,
        /// The list fields `max_total` counts.
        #[serde(default)]
        pub fields: Option<Vec<String>>,
        /// Why the rule exists.
        #[serde(default)]
        pub doc: Option<String>,
        /// A `max_total` taken from `limits.sizes.<name>` (with `fields`: the lists it counts).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub size: Option<String>,
    }
}

pub use tidings_spec::Format;

/// An enum value: a bare string, or an object with docs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum EnumValue {
    /// Just the wire value.
    Bare(String),
    /// The wire value with docs and provenance.
    Documented(DocumentedValue),
}

item! {
    /// An enum value with docs.
    pub struct DocumentedValue {
        /// The wire value.
        pub value: String,
        /// What it means.
        #[serde(default)]
        pub doc: Option<String>,
        /// Rust variant name, when the value does not make a good one.
        #[serde(default)]
        pub rust_name: Option<String>,
    }
}

impl EnumValue {
    /// The wire value.
    pub fn value(&self) -> &str {
        match self {
            EnumValue::Bare(v) => v,
            EnumValue::Documented(d) => &d.value,
        }
    }

    /// The Rust name the spec gives it, if any.
    pub fn rust_name(&self) -> Option<&str> {
        match self {
            EnumValue::Bare(_) => None,
            EnumValue::Documented(d) => d.rust_name.as_deref(),
        }
    }
}

item! {
    /// A union variant.
    pub struct Variant {
        /// The object type this variant carries; absent for a variant with no content.
        #[serde(default, rename = "type")]
        pub ty: Option<String>,
        /// Rust name of the variant; derived from the tag when absent.
        #[serde(default)]
        pub name: Option<String>,
        /// What it is.
        #[serde(default)]
        pub doc: Option<String>,
        /// The same as `name` (the key every other item uses for its Rust name).
        #[serde(default)]
        pub rust_name: Option<String>,
    }
}
