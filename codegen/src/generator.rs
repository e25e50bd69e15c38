//! The library entry point used by build scripts and the CLI: spec directory in, Rust files out.

use std::path::{Path, PathBuf};

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
}

impl Generator {
    /// A generator for the specs in `spec_dir` (every `*.yaml` file).
    pub fn new(spec_dir: impl Into<PathBuf>) -> Self {
        Generator {
            spec_dir: spec_dir.into(),
            out_dir: None,
            options: emit::EmitOptions::default(),
        }
    }

    /// Where [`Generator::write`] puts the files; a build script passes `OUT_DIR`.
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

    /// Also emits the server side of each service, as `<service>_server.rs` holding
    /// `pub mod <service>_server`: a `<Service>Server` trait and an axum `router`, using the
    /// client types of the crate at `types_path` (`::comms`) and the server support at
    /// [`Generator::server_support`] (default `::comms_sandbox::server`).
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
    /// `::comms` unless [`Generator::server`] says otherwise).
    pub fn server_support(mut self, path: impl Into<String>) -> Self {
        let types_path = self
            .options
            .server
            .take()
            .map_or_else(|| "::comms".to_owned(), |s| s.types_path);
        self.options.server = Some(emit::ServerOptions {
            types_path,
            support_path: path.into(),
        });
        self
    }

    /// Loads, checks and emits every spec, in memory. Files come out in service-name order.
    pub fn generate(&self) -> Result<Vec<GeneratedFile>, Diagnostics> {
        let services = check::check_dir(&self.spec_dir)?;
        let mut files = Vec::new();
        let mut errors = Diagnostics::default();
        for service in &services {
            match emit::emit_service_with(service, &self.options) {
                Ok(contents) => files.push(GeneratedFile {
                    name: format!("{}.rs", service.name()),
                    contents,
                }),
                Err(message) => errors.push(
                    Diagnostic::new(&service.file, (1, 1), message)
                        .hint("this is a bug in comms-codegen; please report it with the spec"),
                ),
            }
            if let Some(server) = &self.options.server {
                match emit::emit_server(service, server) {
                    Ok(contents) => files.push(GeneratedFile {
                        name: format!("{}_server.rs", service.name()),
                        contents,
                    }),
                    Err(message) => errors
                        .push(Diagnostic::new(&service.file, (1, 1), message).hint(
                            "this is a bug in comms-codegen; please report it with the spec",
                        )),
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
        let out = self
            .out_dir
            .clone()
            .ok_or_else(|| io_error(&self.spec_dir, "no output directory was set"))?;
        std::fs::create_dir_all(&out)
            .map_err(|e| io_error(&out, &format!("cannot create the output directory: {e}")))?;
        let mut paths = Vec::new();
        for file in self.generate()? {
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
        Ok(self
            .generate()?
            .into_iter()
            .filter(|f| {
                std::fs::read_to_string(dir.join(&f.name)).ok().as_deref()
                    != Some(f.contents.as_str())
            })
            .map(|f| f.name)
            .collect())
    }

    /// For `build.rs`: tells cargo to rerun only when a spec changes, writes the files, and on a
    /// broken spec prints every diagnostic and fails the build (without a panic).
    pub fn run_build_script(&self) {
        println!("cargo:rerun-if-changed={}", self.spec_dir.display());
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
        if let Err(diagnostics) = self.write() {
            eprintln!(
                "error: the service specs in {} have problems:\n",
                self.spec_dir.display()
            );
            eprintln!("{diagnostics}");
            std::process::exit(1);
        }
    }
}

fn io_error(path: &Path, message: &str) -> Diagnostics {
    Diagnostics(vec![Diagnostic::new(
        &path.display().to_string(),
        (1, 1),
        message,
    )])
}
