//! The library entry point used by build scripts and the CLI: spec directory in, Rust files out.

use std::path::{Path, PathBuf};

use crate::check::ProvenancePolicy;
use crate::diag::{Diagnostic, Diagnostics};
use crate::{check, emit};

/// One generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// File name (`email.rs`).
    pub name: String,
    /// Formatted Rust source.
    pub contents: String,
}

/// Generates Rust modules from a directory of spec files, in the manner of `prost-build`.
#[derive(Debug, Clone)]
pub struct Generator {
    spec_dir: PathBuf,
    out_dir: Option<PathBuf>,
    options: emit::EmitOptions,
    reported_by: Option<String>,
    server_only: bool,
    checked_in: Option<PathBuf>,
}

impl Generator {
    /// A generator for the specs in `spec_dir` (every `*.yaml` file).
    pub fn new(spec_dir: impl Into<PathBuf>) -> Self {
        Generator {
            spec_dir: spec_dir.into(),
            out_dir: None,
            options: emit::EmitOptions::default(),
            reported_by: None,
            server_only: false,
            checked_in: None,
        }
    }

    /// For a build script whose crate depends on `krate`, which generates from the same specs:
    /// on a broken spec [`Generator::run_build_script`] prints one line pointing at `krate`'s
    /// report instead of repeating every problem (each problem is printed once per build).
    pub fn problems_reported_by(mut self, krate: impl Into<String>) -> Self {
        self.reported_by = Some(krate.into());
        self
    }

    /// Where [`Generator::write`] puts the files. Unset, they go to `OUT_DIR`, the directory
    /// cargo gives a build script, so a build script need not say it.
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Re-exports the public items of `<path>::<service>` from each generated module, so a crate
    /// can add hand-written items (`crate::ext`) next to the generated ones.
    pub fn extension_module(mut self, path: impl Into<String>) -> Self {
        self.options.extension_module = Some(path.into());
        self
    }

    /// The path by which the generated modules are reached from outside the crate, as the doc
    /// examples write it: `my_api` makes them say `my_api::<service>::Client::from_env()`. Use
    /// `my_api::generated` when the `include!`s sit in a module.
    ///
    /// Default: in [`Generator::run_build_script`], the crate being built (`CARGO_PKG_NAME`
    /// with `-` as `_`); elsewhere `tidings`. Set it when the library's name differs from the
    /// package's (`[lib] name = ...`).
    pub fn crate_path(mut self, path: impl Into<String>) -> Self {
        self.options.crate_path = Some(path.into());
        self
    }

    /// Whether each spec item must carry a `source` key. This project's specs use
    /// [`ProvenancePolicy::Required`] (the default): a missing `source` is an error. A crate with
    /// specs of its own passes [`ProvenancePolicy::Optional`]: `source` may be left out and the
    /// generated docs do not speak of a seed.
    ///
    /// ```no_run
    /// use tidings_codegen::{Generator, ProvenancePolicy};
    /// Generator::new("spec")
    ///     .provenance(ProvenancePolicy::Optional)
    ///     .run_build_script();
    /// ```
    pub fn provenance(mut self, policy: ProvenancePolicy) -> Self {
        self.options.provenance = policy;
        self
    }

    /// Which serde impls the generated types get. Default
    /// [`SerdeDirections::OtherBehindFeature`](crate::emit::SerdeDirections): each type derives
    /// the direction the client needs (`Serialize` for what it sends, `Deserialize` for what it
    /// receives) and the other behind the including crate's `server` feature, which shortens
    /// its build. [`SerdeDirections::Both`](crate::emit::SerdeDirections) derives both always,
    /// as [`Generator::server`] does for the types it serves.
    ///
    /// ```no_run
    /// use tidings_codegen::{Generator, emit::SerdeDirections};
    /// Generator::new("spec")
    ///     .serde(SerdeDirections::Both)
    ///     .run_build_script();
    /// ```
    pub fn serde(mut self, directions: emit::SerdeDirections) -> Self {
        self.options.serde = directions;
        self
    }

    /// Also emits the server side of each service, as `<service>_server.rs` holding
    /// `pub mod <service>_server`: a `<Service>Server` trait and an axum `router`, using the
    /// client types of the crate at `types_path` (`::tidings`) and the server support at
    /// [`Generator::server_support`] (default `::tidings_sandbox::server`).
    pub fn server(mut self, types_path: impl Into<String>) -> Self {
        let support_path = self
            .options
            .server
            .take()
            .map_or_else(|| emit::DEFAULT_SUPPORT_PATH.to_owned(), |s| s.support_path);
        self.options.server = Some(emit::ServerOptions {
            types_path: types_path.into(),
            support_path,
        });
        self
    }

    /// The path of the hand-written server support the generated servers call (`Gateway`,
    /// `Incoming`, `ServerError`, ...). Turns the server emitter on too (client types at
    /// `::tidings` unless [`Generator::server`] says otherwise).
    pub fn server_support(mut self, path: impl Into<String>) -> Self {
        let types_path = self
            .options
            .server
            .take()
            .map_or_else(|| "::tidings".to_owned(), |s| s.types_path);
        self.options.server = Some(emit::ServerOptions {
            types_path,
            support_path: path.into(),
        });
        self
    }

    /// Emits only the server modules (`<service>_server.rs`), for a crate that takes the client
    /// types from another crate. Turns the server emitter on if [`Generator::server`] has not.
    pub fn server_only(mut self) -> Self {
        if self.options.server.is_none() {
            self = self.server("::tidings");
        }
        self.server_only = true;
        self
    }

    /// For [`Generator::run_build_script`]: the directory (relative to the crate) where the
    /// crate commits the same files for builds without the generator (see `tidings-build`).
    /// After generating, the build warns when that copy no longer matches, naming the command
    /// that updates it.
    pub fn checked_in(mut self, dir: impl Into<PathBuf>) -> Self {
        self.checked_in = Some(dir.into());
        self
    }

    /// The spec directory this generator reads.
    pub fn spec_dir(&self) -> &Path {
        &self.spec_dir
    }

    /// Loads, checks and emits every spec, in memory. Files come out in service-name order.
    pub fn generate(&self) -> Result<Vec<GeneratedFile>, Diagnostics> {
        let services = check::check_paths(&[&self.spec_dir], self.options.provenance)?;
        // The server modules' docs follow the same options as the client modules'.
        let settings = emit::Settings::new(&self.options);
        let mut files = Vec::new();
        let mut errors = Diagnostics::default();
        for service in &services {
            match emit::emit_service_with(service, &self.options) {
                Ok(_) if self.server_only => {}
                Ok(contents) => files.push(GeneratedFile {
                    name: format!("{}.rs", service.name()),
                    contents,
                }),
                Err(message) => errors.push(
                    Diagnostic::new(&service.file, (1, 1), message)
                        .hint("this is a bug in tidings-codegen; please report it with the spec"),
                ),
            }
            if let Some(server) = &self.options.server {
                match emit::emit_server_with(service, server, &settings) {
                    Ok(contents) => files.push(GeneratedFile {
                        name: format!("{}_server.rs", service.name()),
                        contents,
                    }),
                    Err(message) => {
                        errors.push(Diagnostic::new(&service.file, (1, 1), message).hint(
                            "this is a bug in tidings-codegen; please report it with the spec",
                        ))
                    }
                }
            }
        }
        files.sort_by(|a, b| a.name.cmp(&b.name));
        if errors.is_empty() {
            Ok(files)
        } else {
            Err(errors)
        }
    }

    /// Generates and writes the files into the output directory, leaving unchanged files alone
    /// (so their timestamps do not trigger rebuilds). Returns the paths written or kept.
    pub fn write(&self) -> Result<Vec<PathBuf>, Diagnostics> {
        self.write_files(&self.generate()?)
    }

    /// [`Generator::write`] of files already generated.
    fn write_files(&self, files: &[GeneratedFile]) -> Result<Vec<PathBuf>, Diagnostics> {
        let out = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or_else(|| {
                io_error(
                    &self.spec_dir,
                    "no output directory: call `out_dir(..)`, or run from a build script (cargo sets `OUT_DIR`)",
                )
            })?,
        };
        std::fs::create_dir_all(&out)
            .map_err(|e| io_error(&out, &format!("cannot create the output directory: {e}")))?;
        let mut paths = Vec::new();
        for file in files {
            let path = out.join(&file.name);
            if std::fs::read_to_string(&path).ok().as_deref() != Some(file.contents.as_str()) {
                std::fs::write(&path, &file.contents)
                    .map_err(|e| io_error(&path, &format!("cannot write: {e}")))?;
            }
            paths.push(path);
        }
        Ok(paths)
    }

    /// Compares freshly generated files with those in `dir`; returns the names that differ or
    /// are missing.
    pub fn stale_files(&self, dir: &Path) -> Result<Vec<String>, Diagnostics> {
        Ok(stale_among(&self.generate()?, dir))
    }

    /// For `build.rs`: tells cargo to rerun only when a spec changes, writes the files, and on a
    /// broken spec reports every problem as a cargo error (`cargo::error`), with paths as typed
    /// from the workspace root (`spec/email.yaml:12:5`), and fails the build (without a panic).
    ///
    /// Doc examples name the crate being built unless [`Generator::crate_path`] says otherwise.
    pub fn run_build_script(&self) {
        let mut this = self.clone();
        if this.options.crate_path.is_none() {
            this.options.crate_path = std::env::var("CARGO_PKG_NAME")
                .ok()
                .filter(|name| !name.is_empty())
                .map(|name| name.replace('-', "_"));
        }
        this.run_build_script_as_is();
    }

    fn run_build_script_as_is(&self) {
        println!("cargo:rerun-if-changed={}", self.spec_dir.display());
        // The generated code names the `server` feature; a crate that does not declare it
        // builds the client's directions only, without an `unexpected_cfgs` warning.
        println!(
            "cargo::rustc-check-cfg=cfg(feature, values(\"{}\"))",
            emit::SERDE_BOTH_FEATURE
        );
        if let Ok(entries) = std::fs::read_dir(&self.spec_dir) {
            let mut specs: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
                .collect();
            specs.sort();
            for spec in specs {
                println!("cargo:rerun-if-changed={}", spec.display());
            }
        }
        // Generated once: written to OUT_DIR and compared with the committed copy.
        let written = self.generate().and_then(|files| {
            self.write_files(&files)?;
            Ok(files)
        });
        if let (Ok(files), Some(dir)) = (&written, &self.checked_in) {
            for line in self.checked_in_warnings(files, dir) {
                println!("cargo::warning={line}");
            }
        }
        if let Err(diagnostics) = written {
            let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
            let shown = workspace_relative(&self.spec_dir, manifest_dir.as_deref());
            let command = check_command(&shown, manifest_dir.as_deref(), self.options.provenance);
            for line in build_script_errors(
                &diagnostics,
                &self.spec_dir,
                &shown,
                self.reported_by.as_deref(),
                &command,
            ) {
                println!("cargo::error={line}");
            }
        }
    }
}

impl Generator {
    /// What differs between the committed copy in `dir` and what the specs generate now.
    fn checked_in_warnings(&self, files: &[GeneratedFile], dir: &Path) -> Vec<String> {
        let mut stale = stale_among(files, dir);
        let fingerprint = tidings_build::fingerprint(&self.spec_dir).ok();
        let recorded = std::fs::read_to_string(dir.join(tidings_build::FINGERPRINT_FILE)).ok();
        if fingerprint.as_deref() != recorded.as_deref().map(str::trim) {
            stale.push(tidings_build::FINGERPRINT_FILE.to_owned());
        }
        if stale.is_empty() {
            return Vec::new();
        }
        vec![format!(
            "built from the specs; the committed copy in {} is out of date ({}): run `{}` and commit it (builds without the `codegen` feature use that copy)",
            dir.display(),
            stale.join(", "),
            tidings_build::REFRESH_COMMAND
        )]
    }
}

/// The command that checks the specs in `shown` without building, as the user can run it:
/// `cargo run -p tidings-codegen -- check ..` inside a workspace that has the generator as a
/// member (this repository), else the installed CLI, which a crate that only build-depends on
/// the generator has no other way to run.
pub(crate) fn check_command(
    shown: &Path,
    manifest_dir: Option<&Path>,
    policy: check::ProvenancePolicy,
) -> String {
    let provenance = match policy {
        check::ProvenancePolicy::Optional => " --provenance optional",
        check::ProvenancePolicy::Required => "",
    };
    let member = manifest_dir
        .and_then(|m| {
            m.ancestors().find(|dir| {
                std::fs::read_to_string(dir.join("Cargo.toml"))
                    .is_ok_and(|toml| toml.lines().any(|l| l.trim() == "[workspace]"))
            })
        })
        .and_then(|root| std::fs::read_dir(root).ok())
        .is_some_and(|entries| {
            entries.filter_map(Result::ok).any(|e| {
                std::fs::read_to_string(e.path().join("Cargo.toml")).is_ok_and(|toml| {
                    toml.lines()
                        .any(|l| l.replace(' ', "") == "name=\"tidings-codegen\"")
                })
            })
        });
    if member {
        format!(
            "`cargo run -p tidings-codegen -- check {}{provenance}`",
            shown.display()
        )
    } else {
        format!(
            "`tidings-codegen check {}{provenance}` (from the workspace root; install the CLI \
             once with `cargo install tidings-codegen --locked`)",
            shown.display()
        )
    }
}

/// The lines a build script reports for `diagnostics` (each becomes one `cargo::error`): every
/// problem with its path under `shown` instead of `spec_dir`, or, when another crate's build
/// reports them, one line that points there. `command` checks the specs without building
/// ([`check_command`]).
pub(crate) fn build_script_errors(
    diagnostics: &Diagnostics,
    spec_dir: &Path,
    shown: &Path,
    reported_by: Option<&str>,
    command: &str,
) -> Vec<String> {
    let n = diagnostics.len();
    let problems = format!("{n} problem{}", if n == 1 { "" } else { "s" });
    if let Some(krate) = reported_by {
        return vec![format!(
            "the specs in {} have {problems}, listed once in the build of `{krate}` (or run {command})",
            shown.display(),
        )];
    }
    let mut lines = Vec::new();
    for d in &diagnostics.0 {
        let mut d = d.clone();
        if let Ok(rest) = Path::new(&d.file).strip_prefix(spec_dir) {
            d.file = shown.join(rest).display().to_string();
        }
        // The same text as `tidings-codegen check` prints: `file:line:column: error: ...`.
        lines.extend(d.to_string().lines().map(str::to_owned));
    }
    lines.push(format!(
        "{problems} in the specs in {}; {command} lists them without building",
        shown.display(),
    ));
    lines
}

/// `spec_dir` as a path from the workspace root (the nearest ancestor of the crate whose
/// `Cargo.toml` has `[workspace]`), which is how a user types it; `spec_dir` itself when that
/// cannot be worked out.
pub(crate) fn workspace_relative(spec_dir: &Path, manifest_dir: Option<&Path>) -> PathBuf {
    let Some(manifest_dir) = manifest_dir else {
        return spec_dir.to_path_buf();
    };
    let (Ok(spec), Ok(manifest)) = (
        manifest_dir.join(spec_dir).canonicalize(),
        manifest_dir.canonicalize(),
    ) else {
        return spec_dir.to_path_buf();
    };
    let root = manifest.ancestors().find(|dir| {
        std::fs::read_to_string(dir.join("Cargo.toml"))
            .is_ok_and(|toml| toml.lines().any(|l| l.trim() == "[workspace]"))
    });
    root.and_then(|root| spec.strip_prefix(root).ok())
        .filter(|rel| !rel.as_os_str().is_empty())
        .map_or_else(|| spec_dir.to_path_buf(), Path::to_path_buf)
}

fn io_error(path: &Path, message: &str) -> Diagnostics {
    Diagnostics(vec![Diagnostic::new(
        &path.display().to_string(),
        (1, 1),
        message,
    )])
}

/// The names of `files` whose copy in `dir` differs or is missing.
fn stale_among(files: &[GeneratedFile], dir: &Path) -> Vec<String> {
    files
        .iter()
        .filter(|f| {
            std::fs::read_to_string(dir.join(&f.name)).ok().as_deref() != Some(f.contents.as_str())
        })
        .map(|f| f.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn one_problem() -> Diagnostics {
        Diagnostics(vec![
            Diagnostic::new("../spec/email.yaml", (505, 23), "unknown type `Contcat`")
                .hint("did you mean `Contact`?"),
        ])
    }

    #[test]
    fn build_script_errors_show_paths_from_the_workspace_root() {
        let lines = build_script_errors(
            &one_problem(),
            Path::new("../spec"),
            Path::new("spec"),
            None,
            "`cargo run -p tidings-codegen -- check spec`",
        );
        assert_eq!(
            lines[0],
            "spec/email.yaml:505:23: error: unknown type `Contcat`"
        );
        assert_eq!(lines[1], "    hint: did you mean `Contact`?");
        assert!(lines[2].starts_with("1 problem in the specs in spec;"));
    }

    #[test]
    fn a_crate_that_shares_the_specs_points_at_the_first_report() {
        let lines = build_script_errors(
            &one_problem(),
            Path::new("../spec"),
            Path::new("spec"),
            Some("tidings"),
            "`cargo run -p tidings-codegen -- check spec`",
        );
        assert_eq!(lines.len(), 1);
        assert!(lines[0].contains("listed once in the build of `tidings`"));
        assert!(!lines[0].contains("Contcat"));
    }

    /// A spec with no `source` key anywhere, an assumed operation and a conflict note.
    const OWN_SPEC: &str = r#"
service:
  name: notes
  title: Notes API
  summary: Short notes
  base_url: { env: NOTES_BASE_URL }
credentials:
  api_key: { env: NOTES_API_KEY }
auth:
  - { name: bearer, kind: bearer, credential: api_key }
types:
  Note:
    fields:
      id: { type: string, required: true }
operations:
  get_note:
    method: GET
    path: /v1/notes/{id}
    path_params: { id: { type: string } }
    response: Note
  delete_note:
    method: DELETE
    path: /v1/notes/{id}
    path_params: { id: { type: string } }
    source: assumed
    conflict: the old API answered 200
"#;

    fn own_spec_dir() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.yaml"), OWN_SPEC).unwrap();
        dir
    }

    #[test]
    fn a_missing_source_is_an_error_under_the_default_policy() {
        let dir = own_spec_dir();
        let err = Generator::new(dir.path()).generate().unwrap_err();
        let text = err.to_string();
        assert!(text.contains("`service` has no provenance"), "{text}");
        assert!(text.contains("`types.Note` has no provenance"), "{text}");
    }

    #[test]
    fn optional_provenance_accepts_specs_without_source_and_docs_name_no_seed() {
        let dir = own_spec_dir();
        let files = Generator::new(dir.path())
            .provenance(ProvenancePolicy::Optional)
            .server("::notes_crate")
            .generate()
            .unwrap();
        assert_eq!(files.len(), 2, "client and server");
        for file in &files {
            assert!(
                !file.contents.to_lowercase().contains("seed"),
                "{} mentions the seed:\n{}",
                file.name,
                file.contents
            );
        }
        let client = &files[0].contents;
        assert!(client.contains("*Assumed*: a design choice."), "{client}");
        assert!(client.contains("**Conflict**: the old API answered 200"));
        assert!(client.contains("Generated from `notes.yaml`."));
    }

    #[test]
    fn the_committed_copy_is_compared_with_the_files_generated_once() {
        let dir = own_spec_dir();
        let generator = Generator::new(dir.path()).provenance(ProvenancePolicy::Optional);
        let files = generator.generate().unwrap();
        let copy = tempfile::tempdir().unwrap();
        // Nothing committed yet: every file and the fingerprint are named.
        let warnings = generator.checked_in_warnings(&files, copy.path());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("out of date (notes.rs, spec.fingerprint)"),
            "{warnings:?}"
        );
        // The same files and fingerprint committed: nothing to say.
        for file in &files {
            std::fs::write(copy.path().join(&file.name), &file.contents).unwrap();
        }
        let fingerprint = tidings_build::fingerprint(dir.path()).unwrap();
        std::fs::write(
            copy.path().join(tidings_build::FINGERPRINT_FILE),
            fingerprint,
        )
        .unwrap();
        assert!(
            generator
                .checked_in_warnings(&files, copy.path())
                .is_empty()
        );
        // One generated file differing from its copy is named alone.
        std::fs::write(copy.path().join("notes.rs"), "// old\n").unwrap();
        let warnings = generator.checked_in_warnings(&files, copy.path());
        assert!(
            warnings[0].contains("out of date (notes.rs)"),
            "{warnings:?}"
        );
    }

    #[test]
    fn doc_examples_name_the_crate_path() {
        let dir = own_spec_dir();
        let files = Generator::new(dir.path())
            .provenance(ProvenancePolicy::Optional)
            .crate_path("my_api::generated")
            .generate()
            .unwrap();
        let client = &files[0].contents;
        assert!(
            client.contains("let client = my_api::generated::notes::NotesClient::from_env()?;"),
            "{client}"
        );
        assert!(!client.contains("tidings::"), "{client}");
        // Without the option (outside a build script) the examples keep naming `tidings`.
        let files = Generator::new(dir.path())
            .provenance(ProvenancePolicy::Optional)
            .generate()
            .unwrap();
        assert!(
            files[0]
                .contents
                .contains("tidings::notes::NotesClient::from_env()")
        );
    }

    #[test]
    fn spec_dir_is_shown_from_the_workspace_root() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(
            root.path().join("Cargo.toml"),
            "[workspace]\nmembers = []\n",
        )
        .unwrap();
        std::fs::create_dir_all(root.path().join("generated")).unwrap();
        std::fs::create_dir_all(root.path().join("spec")).unwrap();
        let shown = workspace_relative(Path::new("../spec"), Some(&root.path().join("generated")));
        assert_eq!(shown, Path::new("spec"));
        // Outside any workspace: as given.
        assert_eq!(
            workspace_relative(Path::new("../spec"), None),
            Path::new("../spec")
        );
    }
    #[test]
    fn the_hint_names_a_command_that_works_where_the_build_runs() {
        // A user's crate: the generator is only a build dependency, so `cargo run -p` would
        // fail there; the hint names the installed CLI, with the crate's provenance policy.
        let user = tempfile::tempdir().unwrap();
        std::fs::write(
            user.path().join("Cargo.toml"),
            "[package]\nname = \"my-api\"\n\n[workspace]\n",
        )
        .unwrap();
        let command = check_command(
            Path::new("spec"),
            Some(user.path()),
            ProvenancePolicy::Optional,
        );
        assert!(
            command.starts_with("`tidings-codegen check spec --provenance optional`")
                && command.contains("cargo install tidings-codegen"),
            "{command}"
        );
        assert!(!command.contains("cargo run -p"), "{command}");
        // This repository, where the generator is a member.
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let command = check_command(Path::new("spec"), Some(here), ProvenancePolicy::Required);
        assert_eq!(command, "`cargo run -p tidings-codegen -- check spec`");
        let lines = build_script_errors(
            &one_problem(),
            Path::new("spec"),
            Path::new("spec"),
            None,
            &command,
        );
        assert!(lines.last().unwrap().contains(&command), "{lines:?}");
    }
}
