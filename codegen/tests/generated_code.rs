//! The generated code of each service, pinned as insta snapshots, and its determinism.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

#[test]
fn generated_modules_match_snapshots() {
    let files = tidings_codegen::Generator::new(spec_dir())
        .generate()
        .unwrap();
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["email.rs", "messaging.rs", "realtime.rs"]);
    for file in files {
        insta::assert_snapshot!(file.name.trim_end_matches(".rs"), file.contents);
    }
}

#[test]
fn output_is_deterministic() {
    let a = tidings_codegen::Generator::new(spec_dir())
        .generate()
        .unwrap();
    let b = tidings_codegen::Generator::new(spec_dir())
        .generate()
        .unwrap();
    assert_eq!(a, b);
}

#[test]
fn json_schema_file_is_fresh() {
    let committed = std::fs::read_to_string(spec_dir().join("spec.schema.json")).unwrap();
    assert!(
        committed == tidings_codegen::model::json_schema(),
        "spec/spec.schema.json is stale: run `{}`",
        tidings_build::REFRESH_COMMAND
    );
}

#[test]
fn gaps_report_lists_assumed_unknown_and_conflicts() {
    let services = tidings_codegen::check::check_paths(
        &[&spec_dir()],
        tidings_codegen::ProvenancePolicy::Required,
    )
    .unwrap();
    let report = tidings_codegen::gaps::report(&services);
    for needle in [
        "## Email service",
        "## Messaging service",
        "## Realtime service",
        "### Conflicts in the seed",
        "### Not shown",
        "### Assumed",
    ] {
        assert!(report.contains(needle), "missing {needle}");
    }
    // The realtime seed conflict (Bearer API key versus app id + key + secret) is on record.
    assert!(report.contains("auth.1") && report.contains("App ID + Key + Secret"));
    // Every listed item carries file:line:column.
    assert!(report.contains("(spec/") || report.contains("spec/email.yaml:"));
}

#[test]
fn every_seed_fact_is_marked_from_the_seed() {
    let loaded = tidings_codegen::load::load_dir(&spec_dir()).unwrap();
    for file in &loaded {
        let spec = &file.spec;
        let seed = Some(tidings_codegen::model::Source::Seed);
        assert_eq!(spec.service.source, seed);
        assert_eq!(spec.service.pricing.as_ref().unwrap().source, seed);
        assert!(
            spec.credentials.values().all(|c| c.source == seed),
            "{}: credentials",
            file.display
        );
        if spec.service.name != "realtime" {
            let rate = spec.limits.as_ref().unwrap().rate.as_ref().unwrap();
            assert_eq!((rate.requests, rate.source), (Some(1000), seed));
            assert_eq!(
                spec.service.version.as_ref().unwrap().prefix.as_deref(),
                Some("v1")
            );
            assert_eq!(spec.operations["list_resources"].source, seed);
            assert_eq!(spec.operations["list_resources"].path, "/v1/resources");
        }
    }
}

#[test]
fn webhook_payload_types_generate_tables_enum_and_functions() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/webhooks/spec");
    let files = tidings_codegen::Generator::new(dir).generate().unwrap();
    assert_eq!(files.len(), 1);
    let code = &files[0].contents;
    for item in [
        "pub static TWILIO_SIGNATURE",
        "pub static WEBHOOKS: [rt::spec::WebhookSpec; 4]",
        "pub enum WebhookPayload",
        "pub fn handle_webhook(",
        "pub fn verify_message_status(",
        "pub fn verify_event(",
        "pub fn decode_ping(",
    ] {
        assert!(code.contains(item), "no `{item}` in the generated code");
    }
    assert!(
        !code.contains("pub fn decode_message_status("),
        "signed types get no unverified decoder"
    );
    insta::assert_snapshot!("hooks", code);
}

#[test]
fn an_unsigned_single_webhook_still_generates_a_decoder() {
    let spec = r#"
service:
  name: demo
  title: Demo service
  summary: A small service
  source: assumed
  base_url: { env: DEMO_BASE_URL, source: assumed }
types:
  Event:
    source: assumed
    fields:
      type: { type: string, required: true }
events:
  source: assumed
  webhook: { type: Event }
"#;
    let (loaded, problems) = tidings_codegen::load::load_str_partial("demo.yaml", spec);
    assert!(problems.is_empty(), "{problems}");
    let service = tidings_codegen::check::check(&loaded.unwrap()).unwrap();
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    assert!(
        code.contains("pub fn decode_webhook(body: &[u8]) -> Result<Event, rt::Error>"),
        "{code}"
    );
}

#[test]
fn each_type_gets_the_serde_direction_the_client_moves_it() {
    use tidings_codegen::resolved::Flow;
    let services = tidings_codegen::check::check_paths(
        &[&spec_dir()],
        tidings_codegen::ProvenancePolicy::Required,
    )
    .unwrap();
    let email = services.iter().find(|s| s.name() == "email").unwrap();
    let flow = |name: &str| email.type_named(name).unwrap().flow;
    let sent = Flow {
        sent: true,
        received: false,
    };
    let received = Flow {
        sent: false,
        received: true,
    };
    // A request body and a type only it contains; an answer, an error, a webhook payload.
    assert_eq!(flow("SendEmailRequest"), sent);
    assert_eq!(flow("TrackingSettings"), sent);
    assert_eq!(flow("SendEmailResponse"), received);
    assert_eq!(flow("ErrorResponse"), received);
    assert_eq!(flow("EmailEvent"), received);
    // Contained by a request and by an answer: both.
    assert_eq!(flow("Tag"), Flow::BOTH);

    let gated = tidings_codegen::Generator::new(spec_dir())
        .generate()
        .unwrap();
    let code = &gated
        .iter()
        .find(|f| f.name == "email.rs")
        .unwrap()
        .contents;
    // Whether `ty`'s impl of `imp` is emitted, and whether it is behind the `server` feature.
    let gated = |imp: &str, ty: &str| {
        let end = code
            .find(&format!("{imp} for {ty} {{"))
            .unwrap_or_else(|| panic!("no `{imp} for {ty}`"));
        let before = code[..end].trim_end();
        let before = (before.strip_suffix("impl<'de>"))
            .or_else(|| before.strip_suffix("impl"))
            .unwrap()
            .trim_end();
        let before = before
            .strip_suffix("#[doc(hidden)]")
            .unwrap_or(before)
            .trim_end();
        before.ends_with("#[cfg(feature = \"server\")]")
    };
    assert!(!gated("::serde::Serialize", "SendEmailRequest"));
    assert!(gated("::serde::Deserialize<'de>", "SendEmailRequest"));
    assert!(gated("rt::object::Decode", "SendEmailRequest"));
    assert!(!gated("::serde::Deserialize<'de>", "SendEmailResponse"));
    assert!(!gated("rt::object::Decode", "SendEmailResponse"));
    assert!(gated("::serde::Serialize", "SendEmailResponse"));
    assert!(!gated("::serde::Serialize", "Tag") && !gated("::serde::Deserialize<'de>", "Tag"));
    // A crate that serves its own types gets both, ungated.
    let both = tidings_codegen::Generator::new(spec_dir())
        .serde(tidings_codegen::emit::SerdeDirections::Both)
        .generate()
        .unwrap();
    let code = &both.iter().find(|f| f.name == "email.rs").unwrap().contents;
    assert!(!code.contains("feature = \"server\""));
}
