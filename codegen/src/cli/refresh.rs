//! The binary's `refresh` (not the library's: a chore of this repository; its tests include
//! this file). Every file derived from the specs and committed beside them (the JSON Schema of the spec
//! language, the exported OpenAPI and AsyncAPI documents, and the generated code the crates of
//! [`project::CRATES`] commit in their `src/prebuilt/`), refreshed or checked by one command:
//! [`REFRESH_COMMAND`]. Freshness tests name that command in their failure messages.

use std::path::{Path, PathBuf};

use tidings_codegen::diag::{Diagnostic, Diagnostics};
use tidings_codegen::export::{self, ExportedFile};
use tidings_codegen::project;

/// The one command that rewrites every derived, committed file from the specs.
pub const REFRESH_COMMAND: &str = tidings_build::REFRESH_COMMAND;

/// Directories under the spec directory that hold only exported documents (plus a README).
const EXPORT_DIRS: &[&str] = &["openapi", "asyncapi"];

/// What [`refresh`] found or did, paths relative to the spec directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Refreshed {
    /// Files whose contents changed (written, or stale when only checking).
    pub changed: Vec<PathBuf>,
    /// Exported documents and generated files of no current spec (removed, or stale when only
    /// checking).
    pub orphans: Vec<PathBuf>,
    /// Files already up to date.
    pub unchanged: Vec<PathBuf>,
}

impl Refreshed {
    /// True when nothing was (or would be) changed.
    pub fn is_fresh(&self) -> bool {
        self.changed.is_empty() && self.orphans.is_empty()
    }
}

/// Every derived, committed file, paths relative to the spec directory: `spec.schema.json`,
/// then the exported documents.
pub fn derived_files(spec_dir: &Path) -> Result<Vec<ExportedFile>, Diagnostics> {
    let services = tidings_codegen::check::check_paths(
        &[spec_dir],
        tidings_codegen::ProvenancePolicy::Required,
    )?;
    let mut files = vec![ExportedFile {
        path: PathBuf::from("spec.schema.json"),
        contents: tidings_codegen::model::json_schema(),
    }];
    files.extend(export::documents(&services));
    for dir in prebuilt_dirs(spec_dir) {
        files.extend(prebuilt_files(spec_dir, &dir)?);
    }
    Ok(files)
}

/// The committed generated-code directories of the crates beside the spec directory (each of
/// [`project::CRATES`] that has a `src/prebuilt/`), relative to the spec directory.
fn prebuilt_dirs(spec_dir: &Path) -> Vec<(PathBuf, project::ProjectCrate)> {
    project::CRATES
        .iter()
        .map(|krate| {
            (
                Path::new("..").join(krate.dir).join(project::PREBUILT_DIR),
                *krate,
            )
        })
        .filter(|(dir, _)| spec_dir.join(dir).is_dir())
        .collect()
}

/// What a crate's prebuilt directory holds: the generated files and the fingerprint of the specs
/// they come from.
fn prebuilt_files(
    spec_dir: &Path,
    (dir, krate): &(PathBuf, project::ProjectCrate),
) -> Result<Vec<ExportedFile>, Diagnostics> {
    let generator = (krate.generator)(spec_dir);
    let mut files: Vec<ExportedFile> = generator
        .generate()?
        .into_iter()
        .map(|f| ExportedFile {
            path: dir.join(f.name),
            contents: f.contents,
        })
        .collect();
    // The specs the crate is generated from: the whole directory, or one service's file.
    let fingerprint = tidings_build::fingerprint(generator.spec_dir())
        .map_err(|e| io_error(spec_dir, &format!("cannot read the specs: {e}")))?;
    files.push(ExportedFile {
        path: dir.join(tidings_build::FINGERPRINT_FILE),
        contents: fingerprint + "\n",
    });
    Ok(files)
}

/// Writes every derived file that differs and deletes exported documents of removed services;
/// with `check_only`, changes nothing and reports what is stale.
pub fn refresh(spec_dir: &Path, check_only: bool) -> Result<Refreshed, Diagnostics> {
    let files = derived_files(spec_dir)?;
    let mut out = Refreshed::default();
    for file in &files {
        let path = spec_dir.join(&file.path);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(file.contents.as_str()) {
            out.unchanged.push(file.path.clone());
            continue;
        }
        if !check_only {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| io_error(dir, &format!("cannot create: {e}")))?;
            }
            std::fs::write(&path, &file.contents)
                .map_err(|e| io_error(&path, &format!("cannot write: {e}")))?;
        }
        out.changed.push(file.path.clone());
    }
    let owned_dirs = EXPORT_DIRS
        .iter()
        .map(|dir| (PathBuf::from(dir), "json"))
        .chain(
            prebuilt_dirs(spec_dir)
                .into_iter()
                .map(|(dir, _)| (dir, "rs")),
        );
    for (dir, extension) in owned_dirs {
        let Ok(entries) = std::fs::read_dir(spec_dir.join(&dir)) else {
            continue;
        };
        let mut orphans: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| dir.join(e.file_name()))
            .filter(|p| p.extension().is_some_and(|x| x == extension))
            .filter(|p| !files.iter().any(|f| &f.path == p))
            .collect();
        orphans.sort();
        for orphan in orphans {
            if !check_only {
                let path = spec_dir.join(&orphan);
                std::fs::remove_file(&path)
                    .map_err(|e| io_error(&path, &format!("cannot remove: {e}")))?;
            }
            out.orphans.push(orphan);
        }
    }
    Ok(out)
}

fn io_error(path: &Path, message: &str) -> Diagnostics {
    Diagnostics(vec![Diagnostic::new(
        &path.display().to_string(),
        (1, 1),
        message,
    )])
}
