//! Mailgun's template answers: `{"message": "...", "template": {...}}` on create, update and
//! get; the list holds the templates themselves.

use super::*;

const TEMPLATE: &[FieldSchema] = &[
    field("name", Ty::String, true),
    field("description", Ty::String, false),
];
const ANSWER: &[FieldSchema] = &[
    field("message", Ty::String, true),
    field("template", Ty::Named("Template"), false),
];
const SCHEMA: ServiceSchema = ServiceSchema {
    types: &[
        TypeSchema {
            name: "Template",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(TEMPLATE),
        },
        TypeSchema {
            name: "TemplateAnswer",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(ANSWER),
        },
    ],
    page: None,
};

fn op(kind: ResourceAction, item: bool) -> ResourceOp {
    ResourceOp {
        name: "op",
        kind,
        collection: "/v3/example.com/templates",
        item_param: item.then_some("id"),
        item_field: None,
        id_field: "id",
        response: Some(if kind == ResourceAction::List {
            Ty::List(&Ty::Named("Template"))
        } else {
            Ty::Named("TemplateAnswer")
        }),
        items: None,
        filters: &[],
    }
}

#[test]
fn an_answer_that_holds_the_item_in_a_field_stores_and_lists_the_item() {
    let store = Resources::default();
    let created = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Create, false),
            &call(None, Value::Null, json!({"name": "welcome"})),
        )
        .unwrap();
    assert_eq!(created["template"]["name"], "welcome", "{created}");
    assert!(created["message"].is_string());
    assert!(
        created.get("name").is_none(),
        "not beside the wrapper: {created}"
    );
    let listed = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::List, false),
            &call(None, Value::Null, Value::Null),
        )
        .unwrap();
    assert_eq!(listed[0]["name"], "welcome", "the item itself: {listed}");
    // Named by its name, as Mailgun's paths name templates (`/templates/{template_name}`).
    let by_name = ResourceOp {
        item_param: Some("template_name"),
        ..op(ResourceAction::Get, true)
    };
    let mut named = call(None, Value::Null, Value::Null);
    named.path = vec![("template_name", "welcome".to_owned())];
    let id = store
        .alias_of(&by_name, &named)
        .expect("the template named `welcome`");
    let merged = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Merge, true),
            &call(Some(&id), Value::Null, json!({"description": "Hello"})),
        )
        .unwrap();
    assert_eq!(merged["template"]["description"], "Hello", "{merged}");
    let got = store
        .serve_now(
            &SCHEMA,
            &op(ResourceAction::Get, true),
            &call(Some(&id), Value::Null, Value::Null),
        )
        .unwrap();
    assert_eq!(
        (&got["template"]["name"], &got["template"]["description"]),
        (&json!("welcome"), &json!("Hello")),
        "{got}"
    );
}
