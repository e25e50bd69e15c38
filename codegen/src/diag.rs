//! Diagnostics: every problem found in a spec, with its file, line and column.

use std::fmt;

/// One problem in a spec file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file, as given to the loader.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// What was expected there.
    pub expected: Option<String>,
    /// How to fix it, when there is a likely fix.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at a position.
    pub fn new(file: &str, (line, column): (usize, usize), message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_owned(),
            line,
            column,
            message: message.into(),
            expected: None,
            hint: None,
        }
    }

    /// Adds what was expected.
    pub fn expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    /// Adds a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Adds a hint when there is one.
    pub fn maybe_hint(self, hint: Option<String>) -> Self {
        match hint {
            Some(h) => self.hint(h),
            None => self,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.column, self.message
        )?;
        if let Some(expected) = &self.expected {
            write!(f, "\n    expected: {expected}")?;
        }
        if let Some(hint) = &self.hint {
            write!(f, "\n    hint: {hint}")?;
        }
        Ok(())
    }
}

/// Every problem found in one run, sorted by file and position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Adds one.
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }

    /// Adds all of another set.
    pub fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }

    /// True when nothing is wrong.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many problems.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Sorts by file, line, column and message, and drops exact repeats.
    pub fn sorted(mut self) -> Self {
        self.0.sort_by(|a, b| {
            (&a.file, a.line, a.column, &a.message).cmp(&(&b.file, b.line, b.column, &b.message))
        });
        self.0.dedup();
        self
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        let n = self.0.len();
        write!(f, "{n} error{} in the spec", if n == 1 { "" } else { "s" })
    }
}

impl std::error::Error for Diagnostics {}
