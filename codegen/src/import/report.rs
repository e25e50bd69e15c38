//! What an import reports: findings (skipped or approximated items, with their JSON pointer)
//! and the errors that stop it.

#[allow(clippy::wildcard_imports)] // the converter's shared imports and helpers
use super::*;

/// One item of the report: where in the document, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// JSON pointer into the document (`#/paths/~1v1~1emails/post`).
    pub pointer: String,
    /// Why, in words shared by every finding of its kind
    /// (`needs spec construct: form body (issue 16)`).
    pub reason: String,
    /// Specifics (the parameter, the format...).
    pub detail: Option<String>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.reason)?;
        if let Some(d) = &self.detail {
            write!(f, " ({d})")?;
        }
        Ok(())
    }
}

/// What an import did: counts, and every item skipped or approximated with its pointer.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The format of the document.
    pub version: Option<Version>,
    /// Operations (path + method) in the document.
    pub operations_in_document: usize,
    /// Operations `--include` left out.
    pub operations_filtered_out: usize,
    /// The `--include` filters applied: those given, else (with `--merge`) those the spec
    /// recorded (`service.import.include`); empty when every operation was imported.
    pub include: Vec<String>,
    /// Whether [`Report::include`] came from the merged spec rather than the command line.
    pub include_kept: bool,
    /// Operations in the spec written.
    pub operations_imported: usize,
    /// Types in the spec written that came from the document.
    pub types_imported: usize,
    /// Items left out: operations, parameters, fields, schemes.
    pub skipped: Vec<Finding>,
    /// Items imported with a loss (a format kept as text, an untagged union typed as `json`).
    pub approximated: Vec<Finding>,
    /// With `--merge`: hand-written items that differ from the document (kept, with a note).
    pub conflicts: Vec<Finding>,
    /// List operations imported, and the pagination styles inferred for them.
    pub pagination: PaginationCounts,
    /// What the import inferred rather than read: where the error body keeps its code and
    /// message, and operations whose error answers have another shape than the service's.
    pub inferred: Vec<Finding>,
}

impl Report {
    /// The skipped findings that are whole operations.
    pub fn skipped_operations(&self) -> impl Iterator<Item = &Finding> {
        self.skipped.iter().filter(|f| {
            let rest = f.pointer.trim_start_matches('#');
            rest.starts_with("/paths/") && rest.split('/').count() == 4
        })
    }

    /// Skipped operations counted by reason.
    pub fn skipped_operations_by_reason(&self) -> BTreeMap<&str, usize> {
        let mut out = BTreeMap::new();
        for f in self.skipped_operations() {
            *out.entry(f.reason.as_str()).or_default() += 1;
        }
        out
    }

    fn by_reason(findings: &[Finding]) -> BTreeMap<&str, usize> {
        let mut out = BTreeMap::new();
        for f in findings {
            *out.entry(f.reason.as_str()).or_default() += 1;
        }
        out
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(v) = self.version {
            writeln!(f, "document: {}", v.as_str())?;
        }
        let skipped_ops = self.skipped_operations().count();
        writeln!(
            f,
            "operations: {} in the document, {} imported, {} skipped, {} left out by --include",
            self.operations_in_document,
            self.operations_imported,
            skipped_ops,
            self.operations_filtered_out
        )?;
        if !self.include.is_empty() {
            writeln!(
                f,
                "include: {}{}",
                self.include.join(", "),
                if self.include_kept {
                    " (recorded in the merged spec)"
                } else {
                    ""
                }
            )?;
        }
        writeln!(f, "types: {} imported", self.types_imported)?;
        let p = &self.pagination;
        if p.page_lists + p.bare_lists > 0 {
            let styles: Vec<String> = p.by_style.iter().map(|(s, n)| format!("{s} {n}")).collect();
            writeln!(
                f,
                "pagination: {} of {} list operations ({} answer a bare array){}",
                p.paginated(),
                p.page_lists + p.bare_lists,
                p.bare_lists,
                if styles.is_empty() {
                    String::new()
                } else {
                    format!(": {}", styles.join(", "))
                }
            )?;
        }
        for (title, findings) in [
            (
                "skipped operations",
                self.skipped_operations().cloned().collect::<Vec<_>>(),
            ),
            ("all skipped items", self.skipped.clone()),
            ("approximated items", self.approximated.clone()),
        ] {
            if findings.is_empty() {
                continue;
            }
            writeln!(f, "{title}, by reason:")?;
            for (reason, n) in Report::by_reason(&findings) {
                writeln!(f, "  {n:>5}  {reason}")?;
            }
        }
        for (title, findings) in [
            ("inferred", &self.inferred),
            ("skipped", &self.skipped),
            ("approximated", &self.approximated),
            ("conflicts", &self.conflicts),
        ] {
            if findings.is_empty() {
                continue;
            }
            writeln!(f, "{title}:")?;
            for finding in findings {
                writeln!(f, "  {finding}")?;
            }
        }
        Ok(())
    }
}

/// Why an import failed as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportError {
    /// The document is larger than [`ImportOptions::max_document_bytes`].
    TooLarge {
        /// Its size in bytes.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The document being read went past [`ImportOptions::max_document_bytes`]; reading
    /// stopped there.
    TooLargeToRead {
        /// The limit.
        limit: usize,
    },
    /// The document could not be read.
    Read(String),
    /// The document nests arrays and objects deeper than the limit (checked before parsing,
    /// so a hostile document costs no parser time).
    TooDeep {
        /// The line where the limit was passed.
        line: usize,
        /// The limit.
        limit: usize,
    },
    /// The document is neither JSON nor YAML.
    Parse(String),
    /// The document is not OpenAPI 3.0 / 3.1 or Swagger 2.0.
    Unsupported(String),
    /// An option is unusable (a service name that is not a module name).
    Options(String),
    /// The spec to merge into does not load or check.
    Merge(String),
    /// The checker refused part of the spec that the importer cannot drop (a bug, or a
    /// hand-written item that was already broken).
    Refused(String),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::TooLarge { size, limit } => {
                write!(
                    f,
                    "the document is {size} bytes, more than the limit of {limit}"
                )
            }
            ImportError::TooLargeToRead { limit } => write!(
                f,
                "the document is larger than the limit of {limit} bytes (reading stopped there)"
            ),
            ImportError::Read(e) => write!(f, "cannot read the document: {e}"),
            ImportError::TooDeep { line, limit } => write!(
                f,
                "the document nests arrays and objects more than {limit} deep (line {line}); \
                 refused before parsing"
            ),
            ImportError::Parse(e) => write!(f, "the document is neither JSON nor YAML: {e}"),
            ImportError::Unsupported(e) => write!(f, "unsupported document: {e}"),
            ImportError::Options(e) => write!(f, "{e}"),
            ImportError::Merge(e) => write!(f, "cannot merge: {e}"),
            ImportError::Refused(e) => write!(f, "the imported spec does not check:\n{e}"),
        }
    }
}

impl std::error::Error for ImportError {}
