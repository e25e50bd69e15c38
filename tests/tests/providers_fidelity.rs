//! Import fidelity (issue 30, item 1): the document `codegen/tests/import/fidelity_3_0.yaml`
//! holds the shapes providers use for data that must arrive whole (free-form objects,
//! `additionalProperties` as `true` or a schema, beside declared properties too, discriminated
//! `oneOf` with an explicit mapping and by schema name, a base schema with a discriminator
//! extended by `allOf` subtypes, `const`, open and closed enums, nullable and `[T, "null"]`,
//! `allOf` composition, arrays and maps of unions, a recursive type). Its import is checked in
//! as `examples/providers/fidelity/fidelity_imported.yaml` and compiled into
//! `tidings_providers::fidelity_imported`; each `example` of the document is decoded with the
//! compiled type and encoded again, and must come back as the same JSON.
//!
//! The one normalisation: a member whose value is `null` counts as absent (an optional field
//! is `Option<T>`, and `None` is left out when sent).

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tidings_codegen::import::{ImportOptions, import_openapi, interpret, parse_document};
use tidings_codegen::resolved::Ty;
use tidings_providers::fidelity_imported as fi;

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

const DOCUMENT: &str = "codegen/tests/import/fidelity_3_0.yaml";
const IMPORTED: &str = "examples/providers/fidelity/fidelity_imported.yaml";

fn document() -> Value {
    parse_document(&std::fs::read_to_string(root().join(DOCUMENT)).unwrap()).unwrap()
}

/// The `example` of component schema `name`.
fn example(name: &str) -> Value {
    document()["components"]["schemas"][name]["example"].clone()
}

/// The value with `null` members of objects left out, everywhere.
fn without_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

/// Decodes `json` as `T` and encodes it again; the result must equal `json`.
fn round_trip<T: DeserializeOwned + Serialize>(json: &Value) -> T {
    assert!(!json.is_null(), "no example");
    let typed: T = serde_json::from_value(json.clone()).unwrap();
    let back = serde_json::to_value(&typed).unwrap();
    assert_eq!(
        without_nulls(&back),
        without_nulls(json),
        "lost in the round trip"
    );
    typed
}

#[test]
fn every_example_of_the_fidelity_document_round_trips_through_the_compiled_types() {
    let schemas = document()["components"]["schemas"]
        .as_object()
        .unwrap()
        .clone();
    let mut tried = Vec::new();
    for (name, schema) in &schemas {
        let Some(json) = schema.get("example") else {
            continue;
        };
        match name.as_str() {
            "Contact" => drop(round_trip::<fi::Contact>(json)),
            "Message" => drop(round_trip::<fi::Message>(json)),
            "Text" => drop(round_trip::<fi::Text>(json)),
            "Channel" => drop(round_trip::<fi::Channel>(json)),
            "Pet" => drop(round_trip::<fi::Pet>(json)),
            "Dog" => drop(round_trip::<fi::Dog>(json)),
            "Envelope" => drop(round_trip::<fi::Envelope>(json)),
            "Tree" => drop(round_trip::<fi::Tree>(json)),
            "Reply" => drop(round_trip::<fi::Reply>(json)),
            other => panic!("example of `{other}` has no round trip here: add one"),
        }
        tried.push(name.clone());
    }
    assert_eq!(tried.len(), 9, "{tried:?}");
}

#[test]
fn free_form_objects_and_additional_properties_keep_every_key_typed_where_the_schema_says() {
    let contact: fi::Contact = round_trip(&example("Contact"));
    // `type: object` with no properties, and with `properties: {}`: any JSON.
    assert_eq!(contact.attributes.as_ref().unwrap()["nested"]["deep"], true);
    assert_eq!(contact.empty_properties.as_ref().unwrap()["anything"], 1);
    // `additionalProperties: {type: integer}`: a typed map.
    assert_eq!(contact.scores.as_ref().unwrap()["open"], 3);
    // Declared properties and `additionalProperties: {type: string}`: the other keys, typed.
    assert_eq!(contact.additional["nickname"], "ada");
    assert_eq!(contact.additional["plan"], "pro");
    // A property called `additional` keeps its value under another Rust name.
    assert_eq!(contact.additional_field.as_deref(), Some("kept"));
    // Declared properties and `additionalProperties: true`: the other keys as JSON.
    let metadata = contact.metadata.as_ref().unwrap();
    assert_eq!(metadata.source.as_deref(), Some("import"));
    assert_eq!(metadata.additional["flags"]["a"], true);
    // An other key of the wrong type is an error, not a silent drop.
    let mut wrong = example("Contact");
    wrong["plan"] = serde_json::json!(3);
    assert!(serde_json::from_value::<fi::Contact>(wrong).is_err());
    // Built in code, the other keys are sent after the fields; one named like a field is
    // refused rather than sent twice.
    let mut built = fi::Contact::new("grace@example.com");
    built.additional.insert("team".into(), "blue".into());
    let sent = serde_json::to_string(&built).unwrap();
    assert_eq!(sent, r#"{"email":"grace@example.com","team":"blue"}"#);
    built.additional.insert("email".into(), "twice".into());
    let err = serde_json::to_string(&built).unwrap_err();
    assert!(err.to_string().contains("`email`"), "{err}");
}

#[test]
fn discriminated_bodies_carry_every_field_of_their_variant() {
    // Explicit mapping: `message_type: image` selects `Image`, with its nested object.
    match round_trip::<fi::Message>(&example("Message")) {
        fi::Message::Image(image) => {
            assert_eq!(image.image.url, "https://example.com/a.png");
            assert_eq!(image.to.as_deref(), Some("447700900000"));
        }
        other => panic!("{other:?}"),
    }
    // No mapping: the tag values are the schema names.
    match round_trip::<fi::Channel>(&example("Channel")) {
        fi::Channel::Mms(mms) => assert_eq!(mms.media.unwrap().len(), 1),
        other => panic!("{other:?}"),
    }
    // The base holds the discriminator and the subtypes extend it with `allOf`: a union of
    // the subtypes, each with the base's fields and its own.
    match round_trip::<fi::Pet>(&example("Pet")) {
        fi::Pet::Cat(cat) => {
            assert_eq!(cat.name.as_deref(), Some("Tom"));
            assert_eq!(cat.hunting_skill.as_deref(), Some("lazy"));
        }
        other => panic!("{other:?}"),
    }
    match round_trip::<fi::Pet>(&example("Dog")) {
        fi::Pet::Dog(dog) => assert_eq!(dog.pack_size, Some(4)),
        other => panic!("{other:?}"),
    }
    // A tag value the document does not list is kept whole.
    let later = serde_json::json!({"petType": "Parrot", "words": 12});
    assert!(matches!(round_trip::<fi::Pet>(&later), fi::Pet::Unknown(_)));
}

#[test]
fn enums_unions_in_lists_and_maps_composition_and_recursion_keep_their_values() {
    let envelope: fi::Envelope = round_trip(&example("Envelope"));
    // An open enum keeps a value added later; so does a closed one (`enum` without `anyOf`).
    assert!(envelope.status.unwrap().is_unknown());
    assert_eq!(envelope.plain_status.unwrap().as_str(), "delivered");
    assert_eq!(envelope.kind.as_deref(), Some("envelope"));
    assert_eq!(envelope.items.unwrap().len(), 1);
    assert!(matches!(
        envelope.by_id.unwrap()["a"],
        fi::Message::Image(_)
    ));
    assert_eq!(envelope.mixed.unwrap().len(), 3);
    assert_eq!(envelope.audit.unwrap().by.as_deref(), Some("ops"));
    let tree: fi::Tree = round_trip(&example("Tree"));
    // `parent` holds a `Tree` by value: boxed, and typed (not `json`).
    let parent: Box<fi::Tree> = tree.parent.clone().unwrap();
    assert_eq!(parent.value, Some(0));
    assert_eq!(tree.children.unwrap()[0].value, Some(2));
    // Built with the setter, which boxes the value itself.
    let built = fi::Tree::default().parent(fi::Tree::default().value(7));
    assert_eq!(built.parent.unwrap().value, Some(7));
}

#[test]
fn fidelity_spec_is_what_importing_the_document_gives() {
    let text = std::fs::read_to_string(root().join(DOCUMENT)).unwrap();
    let fresh = import_openapi(
        &text,
        &ImportOptions::new("fidelity_imported", "fidelity_3_0.yaml"),
        None,
    )
    .unwrap();
    let checked_in = std::fs::read_to_string(root().join(IMPORTED)).unwrap();
    assert!(
        fresh.yaml == checked_in,
        "{IMPORTED} is stale: run\n  cargo run -p tidings-codegen -- import openapi {DOCUMENT} \
         --service fidelity_imported > {IMPORTED}"
    );
}

/// The compiled round trip of `value` as `T`: the JSON it encodes back to, or the error.
fn compiled<T: DeserializeOwned + Serialize>(value: &Value) -> Result<Value, String> {
    let typed: T = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
    serde_json::to_value(&typed).map_err(|e| e.to_string())
}

/// Each example, and variations of it, two levels deep: every member left out, and replaced
/// by a string, a fraction, an integer, `null`, an array and an object (some decode, some do
/// not); inside nested objects and the first item of arrays too.
fn variations(example: &Value, depth: usize) -> Vec<Value> {
    let mut out = vec![example.clone()];
    if depth == 0 {
        return out;
    }
    match example {
        Value::Object(m) => {
            for (key, inner) in m {
                let mut without = m.clone();
                without.remove(key);
                out.push(Value::Object(without));
                let replacements = [
                    serde_json::json!("x"),
                    serde_json::json!(1.5),
                    serde_json::json!(7),
                    Value::Null,
                    serde_json::json!([1]),
                    serde_json::json!({"k": "v"}),
                ];
                for other in replacements
                    .into_iter()
                    .chain(variations(inner, depth - 1).into_iter().skip(1))
                {
                    let mut changed = m.clone();
                    changed.insert(key.clone(), other);
                    out.push(Value::Object(changed));
                }
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for other in variations(&items[0], depth - 1).into_iter().skip(1) {
                let mut changed = items.clone();
                changed[0] = other;
                out.push(Value::Array(changed));
            }
        }
        _ => {}
    }
    out
}

/// The report's round trip (`tidings_codegen::import::interpret`, what `--report` counts
/// with) agrees with the compiled types on every example of the fidelity document and on
/// variations of each: both decode and give the same JSON, or both refuse.
#[test]
fn the_report_interpreter_agrees_with_the_compiled_types() {
    let yaml = std::fs::read_to_string(root().join(IMPORTED)).unwrap();
    let loaded = tidings_codegen::load::load_str("fidelity_imported.yaml", &yaml).unwrap();
    let service = tidings_codegen::check::check(&loaded).unwrap();
    let schemas = document()["components"]["schemas"]
        .as_object()
        .unwrap()
        .clone();
    let mut compared = 0;
    let mut refused = 0;
    for (name, schema) in &schemas {
        let Some(example) = schema.get("example") else {
            continue;
        };
        let ty_name = if name == "Dog" { "Pet" } else { name.as_str() };
        for value in variations(example, 3) {
            let by_code = match ty_name {
                "Contact" => compiled::<fi::Contact>(&value),
                "Message" => compiled::<fi::Message>(&value),
                "Text" => compiled::<fi::Text>(&value),
                "Channel" => compiled::<fi::Channel>(&value),
                "Pet" => compiled::<fi::Pet>(&value),
                "Envelope" => compiled::<fi::Envelope>(&value),
                "Tree" => compiled::<fi::Tree>(&value),
                "Reply" => compiled::<fi::Reply>(&value),
                other => panic!("no compiled type for `{other}`"),
            };
            let by_interpreter = interpret(&service, &Ty::Named(ty_name.into()), &value);
            match (&by_code, &by_interpreter) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{ty_name}: {value}"),
                (Err(_), Err(_)) => refused += 1,
                _ => panic!(
                    "{ty_name}: {value}\n  compiled: {by_code:?}\n  interpreter: {by_interpreter:?}"
                ),
            }
            compared += 1;
        }
    }
    assert!(compared > 400, "{compared}");
    assert!(
        refused > 60,
        "{refused} of {compared}: variations must include refusals"
    );
}
