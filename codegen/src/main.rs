//! `tidings-codegen`: check specs, generate code, and report gaps.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use tidings_codegen::{Generator, check, gaps};

mod cli;

const USAGE: &str = "\
tidings-codegen: typed Rust clients from the service specs

USAGE:
    tidings-codegen check [PATH...] [--provenance optional]
                                                       check every spec (files, or directories
                                                       of them; default `spec`), print every
                                                       problem;
                                                       `optional`: specs of your own crate need
                                                       no `source:` keys (Generator::provenance)
    tidings-codegen generate [SPEC_DIR] --out DIR        write the generated modules into DIR
                  [--crate PATH] [--serde both|client] [--provenance optional]
                                                       --crate: the path doc examples name the
                                                       modules by (your crate, `my_api`; default
                                                       `tidings`); --serde both (the default):
                                                       every type gets both serde directions;
                                                       client: only what the client needs, the
                                                       rest behind `feature = \"server\"`, which the
                                                       including crate must declare
    tidings-codegen generate [SPEC_DIR] --out DIR --check
                                                       fail when the files in DIR are stale
    tidings-codegen gaps [SPEC_DIR]                      Markdown report of assumed and unknown items
    tidings-codegen refresh [SPEC_DIR] [--check]         rewrite every derived, committed file (the
                                                       JSON Schema, spec/openapi, spec/asyncapi,
                                                       the crates' src/prebuilt code);
                                                       --check: fail when one is stale
    tidings-codegen schema [--out FILE] [--check]        JSON Schema of the spec format
    tidings-codegen openapi SPEC_FILE [--out FILE] [--check]
                                                       OpenAPI 3.1 document of a service's HTTP API
    tidings-codegen openapi SPEC_FILE --openapi-version 3.0
                                                       the same, downgraded to OpenAPI 3.0.3
    tidings-codegen asyncapi SPEC_FILE [--out FILE] [--check]
                                                       AsyncAPI 3 document of its WebSocket protocol
    tidings-codegen synth N                              a synthetic spec of N operations (benchmarks)
    tidings-codegen import openapi DOC --service NAME [--include TAG|PATH-GLOB|OPERATION-ID]...
                  [--merge SPEC_FILE] [--report FILE] [--drop-undeclared-keys]
                                                       a spec from an OpenAPI 3.0/3.1 or Swagger 2.0
                                                       document (JSON or YAML) on stdout, the report
                                                       on stderr; --report: the fidelity report as
                                                       JSON (examples round-tripped, errors decoded,
                                                       lists paged, operations skipped);
                                                       objects keep the keys their schema does not
                                                       declare (`additional: json`), as OpenAPI
                                                       allows them; --drop-undeclared-keys: only
                                                       the declared fields (what else an answer
                                                       sends is dropped when decoded); the
                                                       --include filters are recorded in the spec
                                                       (`service.import`), and a --merge without
                                                       --include keeps them

SPEC_DIR defaults to `spec`.
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

struct Args {
    positional: Vec<String>,
    out: Option<PathBuf>,
    check: bool,
    openapi_version: Option<String>,
    provenance: check::ProvenancePolicy,
    crate_path: Option<String>,
    serde_both: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut parsed = Args {
        positional: Vec::new(),
        out: None,
        check: false,
        openapi_version: None,
        provenance: check::ProvenancePolicy::Required,
        crate_path: None,
        // A crate that includes files written by `generate` has no build script to declare the
        // `server` feature to rustc: both directions, no gate, no `unexpected_cfgs` warnings.
        serde_both: true,
    };
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--out" | "-o" => {
                parsed.out = Some(iter.next().ok_or("--out needs a directory")?.into())
            }
            "--check" => parsed.check = true,
            "--openapi-version" => {
                let v = iter.next().ok_or("--openapi-version needs 3.0 or 3.1")?;
                parsed.openapi_version = Some(v.clone());
            }
            "--provenance" => {
                parsed.provenance = match iter.next().map(String::as_str) {
                    Some("required") => check::ProvenancePolicy::Required,
                    Some("optional") => check::ProvenancePolicy::Optional,
                    _ => return Err("--provenance needs `required` or `optional`".to_owned()),
                };
            }
            "--crate" => {
                let path = iter.next().ok_or("--crate needs a crate name or path")?;
                let valid = path.split("::").all(|part| {
                    let mut chars = part.chars();
                    chars
                        .next()
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
                });
                if !valid {
                    return Err(format!(
                        "--crate `{path}` is not a Rust path (a crate name with `_` for `-`, \
                         like `my_api`, or `my_api::generated`)"
                    ));
                }
                parsed.crate_path = Some(path.clone());
            }
            "--serde" => {
                parsed.serde_both = match iter.next().map(String::as_str) {
                    Some("both") => true,
                    Some("client") => false,
                    _ => return Err("--serde needs `client` or `both`".to_owned()),
                };
            }
            other if other.starts_with('-') => {
                return Err(format!("unknown option `{other}`\n\n{USAGE}"));
            }
            other => parsed.positional.push(other.to_owned()),
        }
    }
    Ok(parsed)
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    // `--help` after any command (`import openapi --help`) is help, on stdout, not an error.
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return Ok(ExitCode::SUCCESS);
    }
    let Some((command, rest)) = args.split_first() else {
        return Err(USAGE.to_owned());
    };
    if command == "import" {
        return import(rest);
    }
    let args = parse(rest)?;
    let spec_dir = PathBuf::from(
        args.positional
            .first()
            .map(String::as_str)
            .unwrap_or("spec"),
    );
    match command.as_str() {
        "check" => {
            let paths = if args.positional.is_empty() {
                vec![spec_dir.clone()]
            } else {
                args.positional.iter().map(PathBuf::from).collect()
            };
            let services =
                check::check_paths(&paths, args.provenance).map_err(|d| d.to_string())?;
            for s in &services {
                println!(
                    "ok: {} ({}): {} operations, {} types",
                    s.name(),
                    s.file,
                    s.operations.len(),
                    s.types.len()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        "generate" => {
            let out = args.out.ok_or("generate needs --out DIR")?;
            let mut generator = Generator::new(&spec_dir)
                .out_dir(&out)
                .provenance(args.provenance);
            if let Some(path) = &args.crate_path {
                generator = generator.crate_path(path);
            }
            if args.serde_both {
                generator = generator.serde(tidings_codegen::emit::SerdeDirections::Both);
            }
            if args.check {
                let stale = generator.stale_files(&out).map_err(|d| d.to_string())?;
                if stale.is_empty() {
                    println!("up to date: {}", out.display());
                    return Ok(ExitCode::SUCCESS);
                }
                eprintln!(
                    "stale in {}: {}\nrun `tidings-codegen generate {} --out {}`",
                    out.display(),
                    stale.join(", "),
                    spec_dir.display(),
                    out.display()
                );
                return Ok(ExitCode::FAILURE);
            }
            for path in generator.write().map_err(|d| d.to_string())? {
                println!("wrote {}", path.display());
            }
            if !args.serde_both {
                eprintln!(
                    "note: the serde direction a client does not need is behind \
                     `#[cfg(feature = \"{0}\")]`; declare `{0} = []` under `[features]` in \
                     the crate that includes these files, else rustc warns `unexpected cfg \
                     condition value` (`--serde both`, the default, writes no gate)",
                    tidings_codegen::emit::SERDE_BOTH_FEATURE
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        "refresh" => {
            let refreshed =
                cli::refresh::refresh(&spec_dir, args.check).map_err(|d| d.to_string())?;
            let show = |p: &std::path::PathBuf| tidy(&spec_dir.join(p)).display().to_string();
            if args.check {
                if refreshed.is_fresh() {
                    println!("up to date: {} derived files", refreshed.unchanged.len());
                    return Ok(ExitCode::SUCCESS);
                }
                for p in &refreshed.changed {
                    eprintln!("stale: {}", show(p));
                }
                for p in &refreshed.orphans {
                    eprintln!("derived from no current spec: {}", show(p));
                }
                eprintln!("run `{}`", cli::refresh::REFRESH_COMMAND);
                return Ok(ExitCode::FAILURE);
            }
            for p in &refreshed.changed {
                println!("wrote {}", show(p));
            }
            for p in &refreshed.orphans {
                println!("removed {}", show(p));
            }
            println!(
                "{} derived files up to date ({} rewritten, {} removed)",
                refreshed.changed.len() + refreshed.unchanged.len(),
                refreshed.changed.len(),
                refreshed.orphans.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        "gaps" => {
            let services =
                check::check_paths(&[&spec_dir], tidings_codegen::ProvenancePolicy::Required)
                    .map_err(|d| d.to_string())?;
            print!("{}", gaps::report(&services));
            Ok(ExitCode::SUCCESS)
        }
        "schema" => {
            let schema = tidings_codegen::model::json_schema();
            match (args.out, args.check) {
                (Some(path), true) => {
                    if std::fs::read_to_string(&path).ok().as_deref() == Some(schema.as_str()) {
                        Ok(ExitCode::SUCCESS)
                    } else {
                        eprintln!(
                            "{} is stale: run `{}`",
                            path.display(),
                            cli::refresh::REFRESH_COMMAND
                        );
                        Ok(ExitCode::FAILURE)
                    }
                }
                (Some(path), false) => {
                    std::fs::write(&path, schema)
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                    println!("wrote {}", path.display());
                    Ok(ExitCode::SUCCESS)
                }
                (None, _) => {
                    print!("{schema}");
                    Ok(ExitCode::SUCCESS)
                }
            }
        }
        "openapi" | "asyncapi" => {
            let file = args
                .positional
                .first()
                .ok_or_else(|| format!("{command} needs a spec file, like spec/email.yaml"))?;
            let service = check::check_paths(
                &[std::path::Path::new(file)],
                tidings_codegen::ProvenancePolicy::Required,
            )
            .map(|mut services| services.remove(0))
            .map_err(|d| d.to_string())?;
            let document = if command == "openapi" {
                let document = tidings_codegen::export::openapi::document(&service);
                match args.openapi_version.as_deref() {
                    None | Some("3.1" | "3.1.0") => document,
                    Some("3.0" | "3.0.3") => {
                        tidings_codegen::export::openapi::downgrade_to_3_0(document)
                    }
                    Some(other) => {
                        return Err(format!("--openapi-version {other}: expected 3.0 or 3.1"));
                    }
                }
            } else if service.websocket.is_some() {
                tidings_codegen::export::asyncapi::document(&service)
            } else {
                return Err(format!("{file} has no `websocket` section to export"));
            };
            let text = tidings_codegen::export::to_json(&document);
            match (args.out, args.check) {
                (Some(path), true) => {
                    if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
                        Ok(ExitCode::SUCCESS)
                    } else {
                        eprintln!(
                            "{} is stale: run `{}` (or `tidings-codegen {command} {file} --out {}`)",
                            path.display(),
                            cli::refresh::REFRESH_COMMAND,
                            path.display()
                        );
                        Ok(ExitCode::FAILURE)
                    }
                }
                (Some(path), false) => {
                    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                        std::fs::create_dir_all(dir)
                            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                    }
                    std::fs::write(&path, text)
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                    println!("wrote {}", path.display());
                    Ok(ExitCode::SUCCESS)
                }
                (None, true) => Err("--check needs --out FILE".to_owned()),
                (None, false) => {
                    print!("{text}");
                    Ok(ExitCode::SUCCESS)
                }
            }
        }
        "synth" => {
            let n: usize = args
                .positional
                .first()
                .and_then(|n| n.parse().ok())
                .ok_or("synth needs a number of operations, like `synth 100`")?;
            print!("{}", cli::synthetic::spec(n));
            Ok(ExitCode::SUCCESS)
        }
        "help" | "-h" | "--help" => {
            print!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    }
}

/// `import openapi DOC --service NAME [--include X]... [--merge SPEC]`: the spec on stdout,
/// the report on stderr.
fn import(args: &[String]) -> Result<ExitCode, String> {
    let mut iter = args.iter();
    match iter.next().map(String::as_str) {
        Some("openapi") => {}
        _ => {
            return Err(format!(
                "import needs a format: `import openapi DOC --service NAME`\n\n{USAGE}"
            ));
        }
    }
    let (mut doc, mut service, mut merge, mut report) = (None, None, None, None);
    let mut include = Vec::new();
    let mut keep_undeclared_keys = true;
    while let Some(arg) = iter.next() {
        let mut value = |what: &str| {
            iter.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs {what}"))
        };
        match arg.as_str() {
            "--service" => service = Some(value("a service name")?),
            "--include" => include.push(value("a tag, path glob or operation id")?),
            "--merge" => merge = Some(value("a spec file")?),
            "--report" => report = Some(value("a file for the JSON report")?),
            "--drop-undeclared-keys" => keep_undeclared_keys = false,
            // The default since undeclared keys are kept; still accepted.
            "--keep-undeclared-keys" => keep_undeclared_keys = true,
            other if other.starts_with('-') => {
                return Err(format!("unknown option `{other}`\n\n{USAGE}"));
            }
            other if doc.is_none() => doc = Some(other.to_owned()),
            other => return Err(format!("unexpected argument `{other}`")),
        }
    }
    let doc = doc.ok_or("import openapi needs a document: DOC.json or DOC.yaml")?;
    let service = service.ok_or("import openapi needs --service NAME")?;
    let text = tidings_codegen::import::read_document(
        std::path::Path::new(&doc),
        tidings_codegen::import::DEFAULT_MAX_DOCUMENT_BYTES,
    )
    .map_err(|e| format!("cannot import {doc}: {e}"))?;
    let name = std::path::Path::new(&doc)
        .file_name()
        .map_or_else(|| doc.clone(), |n| n.to_string_lossy().into_owned());
    let existing = match &merge {
        Some(path) => Some(
            tidings_codegen::import::read_document(
                std::path::Path::new(path),
                tidings_codegen::import::DEFAULT_MAX_DOCUMENT_BYTES,
            )
            .map_err(|e| format!("cannot merge into {path}: {e}"))?,
        ),
        None => None,
    };
    let mut options = tidings_codegen::import::ImportOptions::new(service, name);
    options.include = include;
    options.keep_undeclared_keys = keep_undeclared_keys;
    // `$ref`s to other files are read beside the document.
    options.base_dir = Some(
        std::path::Path::new(&doc)
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default(),
    );
    let imported = tidings_codegen::import::import_openapi(&text, &options, existing.as_deref())
        .map_err(|e| e.to_string())?;
    print!("{}", imported.yaml);
    eprint!("{}", imported.report);
    if let Some(path) = report {
        let fidelity = tidings_codegen::import::fidelity_report_in(
            &text,
            &imported,
            &format!("{}.yaml", options.service),
            options.base_dir.as_deref(),
        )
        .map_err(|e| e.to_string())?;
        let json = serde_json::to_string_pretty(&fidelity).map_err(|e| e.to_string())?;
        std::fs::write(&path, json + "\n").map_err(|e| format!("cannot write {path}: {e}"))?;
        eprintln!(
            "fidelity: {} of {} examples lossless ({} of the others disagree with their own schema), {} error answers typed from their schemas, {} of {} error examples decoded, {} lists paged and {} not (details in {path})",
            fidelity.examples_lossless,
            fidelity.examples_total,
            fidelity.examples_invalid,
            fidelity.errors_typed,
            fidelity.errors_decoded,
            fidelity.errors_documented,
            fidelity.lists_paged,
            fidelity.lists_unpaged.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `spec/../generated/x` as `generated/x`: drops each `..` with the name before it.
fn tidy(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
