//! Emit options are a value each call carries, not ambient state: emits with different options,
//! interleaved on one thread or run on two threads at once, each follow their own, and the
//! server modules' docs follow the generator's options.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

use tidings_codegen::emit::{self, EmitOptions, SerdeDirections, ServerOptions};
use tidings_codegen::resolved::Service;
use tidings_codegen::{Generator, ProvenancePolicy};

fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

fn email() -> Service {
    tidings_codegen::check::check_paths(&[&spec_dir()], tidings_codegen::ProvenancePolicy::Required)
        .unwrap()
        .into_iter()
        .find(|s| s.name() == "email")
        .unwrap()
}

/// Examples under `alpha_api`, both serde directions always.
fn alpha() -> EmitOptions {
    EmitOptions {
        crate_path: Some("alpha_api".into()),
        serde: SerdeDirections::Both,
        ..EmitOptions::default()
    }
}

/// Examples under `beta_api::generated`, docs without a seed.
fn beta() -> EmitOptions {
    EmitOptions {
        crate_path: Some("beta_api::generated".into()),
        provenance: ProvenancePolicy::Optional,
        ..EmitOptions::default()
    }
}

const GATE: &str = "#[cfg(feature = \"server\")]";

/// Checks that `code` is what `options` ask for, on the points options decide.
fn assert_follows(code: &str, options: &EmitOptions) {
    let krate = options.crate_path.as_deref().unwrap_or("tidings");
    assert!(
        code.contains(&format!(
            "let client = {krate}::email::EmailClient::from_env()?;"
        )),
        "doc examples not under `{krate}`"
    );
    for other in ["alpha_api", "beta_api"] {
        if !krate.starts_with(other) {
            assert!(
                !code.contains(other),
                "`{other}` leaked into `{krate}`'s code"
            );
        }
    }
    assert_eq!(
        code.contains(GATE),
        options.serde == SerdeDirections::OtherBehindFeature,
        "serde directions of `{krate}`"
    );
    assert_eq!(
        code.contains("by the seed"),
        options.provenance == ProvenancePolicy::Required,
        "provenance wording of `{krate}`"
    );
}

#[test]
fn emits_interleaved_on_one_thread_each_follow_their_own_options() {
    let service = email();
    let all = [alpha(), beta(), EmitOptions::default()];
    let first: Vec<String> = all
        .iter()
        .map(|o| emit::emit_service_with(&service, o).unwrap())
        .collect();
    for (code, options) in first.iter().zip(&all) {
        assert_follows(code, options);
    }
    // Again in another order, with `emit_service` (the defaults) between them.
    for i in [1, 0, 2, 0, 1] {
        assert_eq!(
            emit::emit_service_with(&service, &all[i]).unwrap(),
            first[i]
        );
        assert_eq!(emit::emit_service(&service).unwrap(), first[2]);
    }
}

#[test]
fn emits_on_two_threads_at_once_each_follow_their_own_options() {
    let service = email();
    let (a, b) = (alpha(), beta());
    let expected_a = emit::emit_service_with(&service, &a).unwrap();
    let expected_b = emit::emit_service_with(&service, &b).unwrap();
    assert_ne!(expected_a, expected_b);
    let start = std::sync::Barrier::new(2);
    std::thread::scope(|scope| {
        for (options, expected) in [(&a, &expected_a), (&b, &expected_b)] {
            let (service, start) = (&service, &start);
            scope.spawn(move || {
                start.wait();
                for _ in 0..3 {
                    let code = emit::emit_service_with(service, options).unwrap();
                    assert_follows(&code, options);
                    assert_eq!(&code, expected);
                }
            });
        }
    });
}

#[test]
fn server_docs_follow_the_generator_provenance_and_emit_server_alone_the_default() {
    let server_file = |files: Vec<tidings_codegen::GeneratedFile>| {
        files
            .into_iter()
            .find(|f| f.name == "email_server.rs")
            .unwrap()
            .contents
    };
    let optional = server_file(
        Generator::new(spec_dir())
            .server_only()
            .provenance(ProvenancePolicy::Optional)
            .generate()
            .unwrap(),
    );
    assert!(optional.contains("*Assumed*: a design choice."));
    assert!(!optional.contains("by the seed"));
    let required = server_file(Generator::new(spec_dir()).server_only().generate().unwrap());
    assert!(required.contains("*Assumed*: not shown by the seed; our design."));
    // Called on its own, after a generator with other options: the default wording.
    let alone = emit::emit_server(
        &email(),
        &ServerOptions {
            types_path: "::tidings".into(),
            support_path: emit::DEFAULT_SUPPORT_PATH.into(),
        },
    )
    .unwrap();
    assert_eq!(alone, required);
}
