//! The emit options are a value each emit carries: two emits read in turns each follow their
//! own, which options kept in ambient state (set for one call, read deep inside) could not
//! promise once an emit is lazy. Also the doc text the emitter writes.

use super::*;

fn email() -> Service {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    crate::check::check_paths(&[&dir], crate::ProvenancePolicy::Required)
        .expect("the specs check")
        .into_iter()
        .find(|s| s.name() == "email")
        .expect("the email spec")
}

/// Examples under `alpha_api`, both serde directions, provenance against a seed.
fn alpha() -> Settings {
    Settings::new(&EmitOptions {
        crate_path: Some("alpha_api".into()),
        serde: SerdeDirections::Both,
        ..EmitOptions::default()
    })
}

/// Examples under `beta_api::generated`, the direction a client does not need behind the
/// feature, provenance without a seed.
fn beta() -> Settings {
    Settings::new(&EmitOptions {
        crate_path: Some("beta_api::generated".into()),
        provenance: ProvenancePolicy::Optional,
        ..EmitOptions::default()
    })
}

fn read_alone(service: &Service, settings: &Settings) -> Vec<String> {
    chunks(service, settings).map(|c| c.to_string()).collect()
}

#[test]
fn two_lazy_emits_read_in_turns_each_follow_their_own_settings() {
    let service = email();
    let (a, b) = (alpha(), beta());
    let (alone_a, alone_b) = (read_alone(&service, &a), read_alone(&service, &b));
    // Each chunk is made when it is read: one of `a`, then one of `b`, and so on.
    let (mut chunks_a, mut chunks_b) = (chunks(&service, &a), chunks(&service, &b));
    let (mut read_a, mut read_b) = (Vec::new(), Vec::new());
    loop {
        let (next_a, next_b) = (chunks_a.next(), chunks_b.next());
        if next_a.is_none() && next_b.is_none() {
            break;
        }
        read_a.extend(next_a.map(|c| c.to_string()));
        read_b.extend(next_b.map(|c| c.to_string()));
    }
    assert_eq!(read_a, alone_a);
    assert_eq!(read_b, alone_b);

    let (text_a, text_b) = (alone_a.concat(), alone_b.concat());
    // The crate path of the doc examples.
    assert!(text_a.contains("alpha_api::email::EmailClient::from_env()"));
    assert!(!text_a.contains("beta_api"));
    assert!(text_b.contains("beta_api::generated::email::EmailClient::from_env()"));
    assert!(!text_b.contains("alpha_api"));
    // The serde directions: both always, or the other one behind the feature.
    let gate = format!("feature = \"{SERDE_BOTH_FEATURE}\"");
    assert!(!text_a.contains(&gate));
    assert!(text_b.contains(&gate));
    // The provenance wording.
    assert!(text_a.contains("*Assumed*: not shown by the seed; our design."));
    assert!(text_b.contains("*Assumed*: a design choice."));
    assert!(!text_b.contains("by the seed"));
}

#[test]
fn default_settings_are_those_of_the_default_options() {
    let settings = Settings::default();
    assert_eq!(settings.crate_path(), "tidings");
    assert_eq!(settings.policy, ProvenancePolicy::Required);
    assert_eq!(settings.serde, SerdeDirections::OtherBehindFeature);
    // A crate that serves its types gets both directions whatever `serde` says.
    let served = Settings::new(&EmitOptions {
        server: Some(ServerOptions {
            types_path: "::tidings".into(),
            support_path: DEFAULT_SUPPORT_PATH.into(),
        }),
        ..EmitOptions::default()
    });
    assert_eq!(served.serde, SerdeDirections::Both);
}

#[test]
fn a_list_item_continued_without_indentation_is_indented_under_it() {
    // Infobip's RCS docs: "- Item text\nFor best experience, ..." (clippy's
    // `doc_lazy_continuation` in the crate that includes the client).
    let text = "Suggestions:\n- Up to 11 items.\nFor best experience, keep them short.\n\nAfter.\n1. One\ntwo\n```\n- a\nb\n```";
    assert_eq!(
        super::list_continuations(text),
        [
            "Suggestions:",
            "- Up to 11 items.",
            "  For best experience, keep them short.",
            "",
            "After.",
            "1. One",
            "   two",
            "```",
            "- a",
            "b",
            "```",
        ]
    );
}

#[test]
fn a_tab_in_a_doc_text_is_four_spaces() {
    // Mailgun's descriptions hold tabs (clippy's `tabs_in_doc_comments`).
    let docs = super::docs("Columns:\n\taddress\tcode").to_string();
    assert!(!docs.contains("\\t"), "{docs}");
    assert!(docs.contains("\"     address    code\""), "{docs}");
}

#[test]
fn a_bare_url_in_a_doc_text_is_an_autolink_outside_code() {
    // Infobip's and Mailgun's descriptions hold bare URLs (`rustdoc::bare_urls` in the crate
    // that includes the client, an error under `-D warnings`).
    let docs = super::docs(
        "See https://a.example/docs.\n```\ncurl https://a.example/x\n```\n    https://a.example/y",
    )
    .to_string();
    assert!(
        docs.contains("\" See <https://a.example/docs>.\""),
        "{docs}"
    );
    assert!(docs.contains("\" curl https://a.example/x\""), "{docs}");
    assert!(docs.contains("\"     https://a.example/y\""), "{docs}");
}
