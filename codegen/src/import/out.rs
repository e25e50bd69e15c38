//! What the conversion builds before it is written: types, fields, variants, parameters and
//! operations.

use super::yaml::Node;

/// A type being built.
#[derive(Debug, Clone)]
pub(crate) enum TypeOut {
    /// Its name is taken and its fields are being converted.
    Pending,
    Object {
        doc: Option<String>,
        fields: Vec<FieldOut>,
        /// The type of the keys besides the fields (`additionalProperties`).
        additional: Option<String>,
        /// The document invites the other keys (`keeps_other_keys`).
        keeps_other_keys: bool,
        /// Pairs of fields each required only without the other (a `require_one` rule).
        either: Vec<[String; 2]>,
        pointer: String,
    },
    Enum {
        doc: Option<String>,
        values: Vec<String>,
        /// The Rust names given to values whose own name is taken or none (`-createdAt` →
        /// `CreatedAtDesc`), by value.
        rust_names: Vec<(String, String)>,
        pointer: String,
    },
    Union {
        doc: Option<String>,
        /// Told apart by shape, not by `tag` (which is then empty).
        untagged: bool,
        tag: String,
        content: Option<String>,
        variants: Vec<VariantOut>,
        pointer: String,
    },
}

#[derive(Debug, Clone)]
pub(crate) struct FieldOut {
    pub(crate) wire: String,
    pub(crate) ty: String,
    pub(crate) required: bool,
    /// Required by the document, which lets it be `null` (`nullable`, a `"null"` type): written
    /// where the field is required.
    pub(crate) nullable: bool,
    pub(crate) read_only: bool,
    pub(crate) write_only: bool,
    /// Required by the document and write-only: sent in every request, so required in a type
    /// only requests use ([`super::one_way`]).
    pub(crate) required_in_requests: bool,
    /// Required by the document and read-only: present in every answer, so required in a type
    /// only answers use ([`super::one_way`]).
    pub(crate) required_in_answers: bool,
    pub(crate) format: Option<&'static str>,
    pub(crate) doc: Option<String>,
    pub(crate) max_len: Option<u64>,
    pub(crate) min_len: Option<u64>,
    /// A regular expression the text matches (kept only when the sandbox can check it).
    pub(crate) pattern: Option<String>,
    /// The value the service takes when the field is left out.
    pub(crate) default: Option<serde_json::Value>,
    /// The document's example of a text field.
    pub(crate) example: Option<String>,
    pub(crate) max_items: Option<u64>,
    pub(crate) min_items: Option<u64>,
    pub(crate) min: Option<f64>,
    pub(crate) max: Option<f64>,
    /// The Rust name, when the wire name gives none of its own.
    pub(crate) rust_name: Option<String>,
}

impl FieldOut {
    pub(crate) fn new(ty: String) -> Self {
        FieldOut {
            wire: String::new(),
            ty,
            required: false,
            nullable: false,
            read_only: false,
            write_only: false,
            required_in_requests: false,
            required_in_answers: false,
            format: None,
            doc: None,
            max_len: None,
            min_len: None,
            pattern: None,
            default: None,
            example: None,
            max_items: None,
            min_items: None,
            min: None,
            max: None,
            rust_name: None,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct VariantOut {
    pub(crate) tag: String,
    pub(crate) ty: Option<String>,
    pub(crate) name: Option<String>,
}

#[derive(Debug, Clone)]
pub(crate) struct ParamOut {
    pub(crate) wire: String,
    pub(crate) ty: String,
    pub(crate) required: bool,
    pub(crate) doc: Option<String>,
    pub(crate) from_credential: Option<String>,
    pub(crate) min: Option<f64>,
    pub(crate) max: Option<f64>,
    /// The value the service takes when the parameter is left out, a scalar of its type
    /// (`page_index` defaulting to 0 counts pages from 0).
    pub(crate) default: Option<serde_json::Value>,
    pub(crate) max_len: Option<u64>,
    pub(crate) min_len: Option<u64>,
    /// A regular expression the text matches (kept only when the sandbox can check it).
    pub(crate) pattern: Option<String>,
    /// The Rust name, when the wire name gives none of its own.
    pub(crate) rust_name: Option<String>,
    /// How a list query parameter travels (`comma`, `brackets`); `None`: `repeat`.
    pub(crate) style: Option<&'static str>,
}

impl ParamOut {
    pub(crate) fn new(wire: String, ty: String) -> Self {
        ParamOut {
            wire,
            ty,
            required: false,
            doc: None,
            from_credential: None,
            min: None,
            max: None,
            default: None,
            max_len: None,
            min_len: None,
            pattern: None,
            rust_name: None,
            style: None,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct OpOut {
    pub(crate) name: String,
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) doc: Option<String>,
    pub(crate) path_params: Vec<ParamOut>,
    pub(crate) query: Vec<ParamOut>,
    pub(crate) headers: Vec<ParamOut>,
    pub(crate) body: Option<String>,
    /// `form`, `multipart` or `binary`; `None`: JSON.
    pub(crate) body_encoding: Option<&'static str>,
    /// `(arrays, nested)` of a form body when not the defaults.
    pub(crate) form_style: Option<(&'static str, &'static str)>,
    /// The media types of a binary body; empty: any.
    pub(crate) body_media: Vec<String>,
    pub(crate) response: Option<String>,
    /// Success statuses; empty: 200 alone.
    pub(crate) status: Vec<u16>,
    pub(crate) errors: Vec<u16>,
    /// Its own error bodies by status key (`404`, `4XX`, `default`), when an error answer
    /// has another schema than the service's or documents headers with error details.
    pub(crate) error_bodies: Vec<(String, Node)>,
    /// The headers its success answers document, by name.
    pub(crate) response_headers: Vec<(String, Node)>,
    pub(crate) idempotency: Option<&'static str>,
    pub(crate) auth: Option<String>,
    /// The operation's own `pagination:`, inferred from its page's shape.
    pub(crate) pagination: Option<Node>,
    pub(crate) pointer: String,
}
