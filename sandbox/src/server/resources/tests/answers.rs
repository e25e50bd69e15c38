//! What actions answer: the fields an answer declares, ids made up fresh.

use super::*;

/// Mandrill's `messages/info`: the body carries the API key and an id, the answer is one of
/// two objects. The answer held every body field, the key included; it holds the variants'
/// fields only now.
#[test]
fn an_action_answering_a_union_holds_the_variants_fields_only() {
    const EMAIL: &[FieldSchema] = &[
        field("email", Ty::String, true),
        field("id", Ty::String, false),
    ];
    const SMS: &[FieldSchema] = &[field("phone", Ty::String, true)];
    const UNION: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "EmailInfo",
                shape: ShapeSchema::Object(EMAIL),
            },
            TypeSchema {
                name: "SmsInfo",
                shape: ShapeSchema::Object(SMS),
            },
            TypeSchema {
                name: "Info",
                shape: ShapeSchema::Untagged(&[
                    Ty::Named("EmailInfo"),
                    Ty::Named("SmsInfo"),
                    Ty::String,
                ]),
            },
        ],
        page: None,
    };
    let info = ResourceOp {
        name: "messages_info",
        kind: ResourceAction::Action,
        collection: "/messages/info",
        item_param: None,
        id_field: "id",
        response: Some(Ty::Named("Info")),
        items: None,
        filters: &[],
    };
    let answer = Resources::default()
        .serve_now(
            &UNION,
            &info,
            &call(
                None,
                Value::Null,
                json!({"key": "SECRET-KEY", "id": "abc123"}),
            ),
        )
        .unwrap();
    assert!(answer.get("key").is_none(), "{answer}");
    assert_eq!(answer["id"], "abc123");
    assert!(answer.get("email").is_some(), "{answer}");
}

/// Mandrill's sends answered `"_id": "_id"` every time: an id made up as its field's name.
/// Each made-up id is its own now, and still fits the field's limits.
#[test]
fn a_made_up_id_differs_from_call_to_call() {
    const RESULT: &[FieldSchema] = &[
        field("_id", Ty::String, true),
        FieldSchema {
            max_len: Some(12),
            ..field("message_id", Ty::String, true)
        },
        field("status", Ty::String, true),
    ];
    const SENDS: ServiceSchema = ServiceSchema {
        types: &[TypeSchema {
            name: "Result",
            shape: ShapeSchema::Object(RESULT),
        }],
        page: None,
    };
    let send = ResourceOp {
        name: "messages_send",
        kind: ResourceAction::Action,
        collection: "/messages/send",
        item_param: None,
        id_field: "id",
        response: Some(Ty::List(&Ty::Named("Result"))),
        items: None,
        filters: &[],
    };
    let store = Resources::default();
    let answer = || {
        store
            .serve_now(
                &SENDS,
                &send,
                &call(None, Value::Null, json!({"text": "hi"})),
            )
            .unwrap()
    };
    let (a, b) = (answer(), answer());
    let (a, b) = (&a[0], &b[0]);
    assert_ne!(a["_id"], b["_id"], "{a} {b}");
    assert_ne!(a["_id"], "_id");
    assert!(a["message_id"].as_str().unwrap().len() <= 12, "{a}");
    assert_eq!(a["status"], "status");
}
