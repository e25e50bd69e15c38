//! The resolved named types: type expressions ([`Ty`]), objects with their fields, limits and
//! rules, open enums and tagged unions, as `check` leaves them for the emitters and exporters.

use crate::model::{Format, Rule, Source};
use tidings_spec::Owned;

/// A type expression, resolved: the vocabulary's [`tidings_spec::Ty`] with owned text.
pub type Ty = tidings_spec::Ty<Owned>;

/// The built-in type names.
pub(crate) use tidings_spec::BUILTIN_TYPES as BUILTINS;

/// The Rust field of an object with `additional: T` that holds its other keys.
pub const ADDITIONAL_FIELD: &str = "additional";

/// A named type, resolved.
#[derive(Debug, Clone)]
pub struct TypeInfo {
    /// PascalCase name.
    pub name: String,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
    /// Why it is assumed, or what the seed says.
    pub note: Option<String>,
    /// Set when seed facts disagree about it.
    pub conflict: Option<String>,
    /// What kind of type.
    pub kind: TypeKind,
    /// Rules across fields (objects only), checked before sending.
    pub rules: Vec<RuleInfo>,
    /// The rules as the spec writes them, with their docs, for documents that reproduce them.
    pub rules_as_written: Vec<Rule>,
    /// It has something to check before sending, directly or through a field or variant.
    pub checked: bool,
    /// Which ways the client moves it over the wire, so it derives only the serde direction
    /// it needs.
    pub flow: Flow,
    /// Objects only: the type of the keys besides the fields (`additional: T`), kept in the
    /// Rust field `additional` (a map).
    pub additional: Option<Ty>,
    /// Objects only: the service keeps the other keys a client sends and answers them back
    /// (`keeps_other_keys`).
    pub keeps_other_keys: bool,
}

/// Which ways a client moves a type over the wire: sent (request bodies, query, path and
/// header parameters, client WebSocket messages) needs `Serialize`, received (responses,
/// errors, pages, webhook payloads, server WebSocket messages) needs `Deserialize`. A type
/// reached from neither counts as both, as does everything a server built from the same
/// types needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flow {
    /// The client sends it: `Serialize`.
    pub sent: bool,
    /// The client receives it: `Deserialize`.
    pub received: bool,
}

impl Flow {
    /// Both ways.
    pub const BOTH: Flow = Flow {
        sent: true,
        received: true,
    };
}

/// The three kinds of named type.
#[derive(Debug, Clone)]
pub enum TypeKind {
    /// A struct.
    Object(Vec<FieldInfo>),
    /// An open enum of strings.
    Enum(Vec<ValueInfo>),
    /// A union told apart by a tag field.
    Union {
        /// Field with the tag.
        tag: String,
        /// Field with the content, if the content does not sit beside the tag.
        content: Option<String>,
        /// Variants.
        variants: Vec<VariantInfo>,
    },
    /// A union without a tag: the first variant whose type fits the payload wins.
    Untagged {
        /// Variants, in the order they are tried; `tag` is the spec's variant key.
        variants: Vec<VariantInfo>,
    },
}

/// What a Rust name is for: fields and parameters are snake_case, enum values and union
/// variants PascalCase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    /// An object field.
    Field,
    /// A path, query or header parameter.
    Param,
    /// An open enum value.
    EnumValue,
    /// A union variant.
    Variant,
}

/// The final Rust name of a spec item: its `rust_name` (or a variant's `name`) when the spec
/// gives one, else derived from the wire name. The one place every Rust name is decided, so the
/// emitters and the name checks agree.
pub fn rust_name(kind: NameKind, wire: &str, explicit: Option<&str>) -> String {
    if let Some(name) = explicit {
        return name.to_owned();
    }
    match kind {
        NameKind::Field | NameKind::Param => crate::names::snake(wire),
        NameKind::EnumValue | NameKind::Variant => crate::names::pascal(wire),
    }
}

/// An object field.
#[derive(Debug, Clone)]
pub struct FieldInfo {
    /// Wire name.
    pub wire: String,
    /// Rust name.
    pub rust: String,
    /// Type.
    pub ty: Ty,
    /// Must be present.
    pub required: bool,
    /// Required, but may be `null`: the Rust field is an `Option` written as `null` when unset.
    pub nullable: bool,
    /// String format.
    pub format: Option<Format>,
    /// Limits checked before sending.
    pub constraints: Constraints,
    /// Redacted in `Debug`.
    pub secret: bool,
    /// Set by the server only.
    pub read_only: bool,
    /// Sent by clients only: never answered back.
    pub write_only: bool,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from (its own, else its type's).
    pub source: Source,
    /// Why it is assumed, or what the seed says.
    pub note: Option<String>,
    /// Set when seed facts disagree about it.
    pub conflict: Option<String>,
    /// The value the service takes when it is left out (a scalar of its type).
    pub default: Option<serde_json::Value>,
    /// A value the provider's document shows for it (a text field's only).
    pub example: Option<String>,
    /// Its value (or an item of it) is a named type that has checks of its own.
    pub nested_checked: bool,
    /// Its type holds this field's object again by value (a recursive type): the field is a
    /// `Box` in Rust, so the type has a size. Set by the checker.
    pub boxed: bool,
}

impl FieldInfo {
    /// Whether the Rust field is an `Option`: the field may be left out, or it is required
    /// but may be `null`.
    pub fn is_option(&self) -> bool {
        !self.required || self.nullable
    }
}

/// Limits on a field's value, checked before sending.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constraints {
    /// Longest string in characters.
    pub max_len: Option<u64>,
    /// Shortest string in characters.
    pub min_len: Option<u64>,
    /// Longest string in bytes.
    pub max_bytes: Option<u64>,
    /// A regular expression a string matches somewhere (JSON Schema's `pattern`): documented
    /// on the field, checked by the sandbox, not by the client.
    pub pattern: Option<String>,
    /// Most items.
    pub max_items: Option<u64>,
    /// Fewest items.
    pub min_items: Option<u64>,
    /// Smallest number.
    pub min: Option<f64>,
    /// Largest number.
    pub max: Option<f64>,
}

impl Constraints {
    /// True when the client checks something before sending: a length, count or bound (a
    /// `pattern` is the sandbox's to check, not the client's).
    pub fn client_checks(&self) -> bool {
        Constraints {
            pattern: None,
            ..self.clone()
        } != Constraints::default()
    }
}

/// A rule across an object's fields, by Rust field name.
#[derive(Debug, Clone, PartialEq)]
pub enum RuleInfo {
    /// At most one set.
    Exclusive(Vec<(String, String)>),
    /// At least one set.
    RequireOne(Vec<(String, String)>),
    /// Items of these list fields together at most `max`.
    MaxTotal(Vec<(String, String)>, u64),
}

/// An enum value.
#[derive(Debug, Clone)]
pub struct ValueInfo {
    /// Wire value.
    pub wire: String,
    /// Rust variant name.
    pub rust: String,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
}

/// A union variant.
#[derive(Debug, Clone)]
pub struct VariantInfo {
    /// Tag value.
    pub tag: String,
    /// Rust variant name.
    pub rust: String,
    /// Content type.
    pub ty: Option<String>,
    /// Docs.
    pub doc: Option<String>,
    /// Where it comes from.
    pub source: Source,
}

/// The wire names of each untagged variant's fields where its type is an object (`None` for
/// another type), when two variants or more are objects: then a client reads an object payload
/// as the variant that fits it best ([`tidings_spec::untagged_fit_order`]). `None` when fewer
/// are (the variants are tried in the order written). `named` finds a type by name.
pub fn untagged_keys<'a>(
    variants: &[VariantInfo],
    named: impl Fn(&str) -> Option<&'a TypeInfo>,
) -> Option<Vec<Option<Vec<&'a str>>>> {
    let keys: Vec<Option<Vec<&'a str>>> = variants
        .iter()
        .map(|v| match Ty::parse(v.ty.as_deref()?).ok()? {
            Ty::Named(name) => match &named(&name)?.kind {
                TypeKind::Object(fields) => Some(fields.iter().map(|f| f.wire.as_str()).collect()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    (keys.iter().flatten().count() >= 2).then_some(keys)
}
