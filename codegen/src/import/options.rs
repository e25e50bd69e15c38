//! What an import reads and keeps: [`ImportOptions`].

use super::DEFAULT_MAX_DOCUMENT_BYTES;

/// What to import and how.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// The service name: a snake_case Rust module name (`sendgrid`).
    pub service: String,
    /// How notes name the document (its file name), as in `imported from <name>#<pointer>`.
    pub document_name: String,
    /// Keep only operations with one of these tags, operation ids or path globs (`*` within a
    /// segment, `**` across); every operation when empty.
    pub include: Vec<String>,
    /// Largest document accepted, in bytes.
    pub max_document_bytes: usize,
    /// Keep the keys an object schema does not declare (`additionalProperties` absent, which
    /// OpenAPI reads as "any other key allowed"): every such object gets `additional: json`,
    /// so an answer's undocumented fields survive a decode and re-encode. On by default (no
    /// silent loss); off (`--drop-undeclared-keys`), the declared fields are the object and the
    /// `--report` lists the examples that lose keys.
    pub keep_undeclared_keys: bool,
    /// The directory the document was read from: its `$ref`s to other files (Azure's shared
    /// `common.json`) are read from there and brought in. `None` (text without a file) leaves
    /// them unfollowed, each reported.
    pub base_dir: Option<std::path::PathBuf>,
}

impl ImportOptions {
    /// Options for importing every operation into service `service`.
    pub fn new(service: impl Into<String>, document_name: impl Into<String>) -> Self {
        ImportOptions {
            service: service.into(),
            document_name: document_name.into(),
            include: Vec::new(),
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
            keep_undeclared_keys: true,
            base_dir: None,
        }
    }

    /// Reads `$ref`s to other files from `dir` (see [`ImportOptions::base_dir`]).
    pub fn base_dir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.base_dir = Some(dir.into());
        self
    }

    /// Adds an `--include` filter.
    pub fn include(mut self, filter: impl Into<String>) -> Self {
        self.include.push(filter.into());
        self
    }
}
