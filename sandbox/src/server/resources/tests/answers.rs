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
                keeps_other_keys: false,
                shape: ShapeSchema::Object(EMAIL),
            },
            TypeSchema {
                name: "SmsInfo",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(SMS),
            },
            TypeSchema {
                name: "Info",
                keeps_other_keys: false,
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
        item_field: None,
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
            keeps_other_keys: false,
            shape: ShapeSchema::Object(RESULT),
        }],
        page: None,
    };
    let send = ResourceOp {
        name: "messages_send",
        kind: ResourceAction::Action,
        collection: "/messages/send",
        item_param: None,
        item_field: None,
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

/// An action under an item that answers the id of another thing (Ably's `POST
/// /channels/{channel_id}/messages` with no `GET` beside it, answering `{channel, messageId}`)
/// made that thing: each call a fresh id (every message got the channel's `chat1`, was), and
/// the channel named in the field its parameter names.
#[tokio::test]
async fn an_action_under_an_item_answering_another_things_id_makes_a_fresh_one() {
    const PUBLISHED: &[FieldSchema] = &[
        field("channel", Ty::String, false),
        field("messageId", Ty::String, false),
    ];
    const PUBLISH_SCHEMA: ServiceSchema = ServiceSchema {
        types: &[TypeSchema {
            name: "Published",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(PUBLISHED),
        }],
        page: None,
    };
    let publish = ResourceOp {
        name: "publish",
        kind: ResourceAction::Action,
        collection: "/channels",
        item_param: Some("channel_id"),
        item_field: None,
        id_field: "messageId",
        response: Some(Ty::Named("Published")),
        items: None,
        filters: &[],
    };
    let store = Resources::new(ResourceLimits::default());
    let call = ResourceCall {
        merge_nested: false,
        path: vec![("channel_id", "chat1".to_owned())],
        query: Value::Null,
        body: json!({"name": "greeting"}),
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    let first = store.serve(&PUBLISH_SCHEMA, &publish, &call).await.unwrap();
    let second = store.serve(&PUBLISH_SCHEMA, &publish, &call).await.unwrap();
    assert_eq!(first["channel"], "chat1", "{first}");
    assert_ne!(first["messageId"], "chat1", "{first}");
    assert_ne!(first["messageId"], second["messageId"], "{second}");
    // The item's own id field (`POST /messages/{message_id}/cancel` answering `{id}`) still
    // answers the item's id.
    let cancel = ResourceOp {
        item_param: Some("message_id"),
        item_field: None,
        id_field: "id",
        response: None,
        ..publish
    };
    assert!(!answers_another(&cancel));
}

/// Telnyx's `POST /calls/{call_control_id}/actions/answer` documents 404 "Call not found"
/// and answered 200 for a call never dialled (was). The store tells the router the call is
/// missing, once calls are held here (a parent never created here is no evidence).
#[test]
fn an_action_on_an_item_not_held_is_missing() {
    let dial = ResourceOp {
        name: "dial",
        kind: ResourceAction::Create,
        collection: "/calls",
        item_param: None,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Domain")),
        items: None,
        filters: &[],
    };
    let answer = ResourceOp {
        name: "answer_call",
        kind: ResourceAction::Action,
        collection: "/calls/{call_control_id}/actions/answer",
        ..dial
    };
    let on = |id: &str| ResourceCall {
        merge_nested: false,
        path: vec![("call_control_id", id.to_owned())],
        query: Value::Null,
        body: json!({}),
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    };
    let store = Resources::default();
    assert!(
        store.missing_item(&answer, &on("nope")).is_none(),
        "no call held yet"
    );
    let made = store
        .serve_now(
            &SCHEMA,
            &dial,
            &call(None, Value::Null, json!({"to": "+1"})),
        )
        .unwrap();
    let id = made["id"].as_str().unwrap();
    assert_eq!(
        store.missing_item(&answer, &on("nope")).map(|e| e.status()),
        Some(404)
    );
    assert!(store.missing_item(&answer, &on(id)).is_none());
}

/// Made-up yes/no fields: what an action did is `true` (a send's `sent`, Mandrill's pool
/// `deleted`: every such answer said it had not happened), an item's own state is `false`
/// (a new contact is not `deleted`), a call's `success` is `true`, and a default wins.
#[test]
fn made_up_flags_say_what_an_action_did_and_leave_an_item_s_state() {
    const RESULT: &[FieldSchema] = &[
        field("sent", Ty::Boolean, true),
        field("done", Ty::Boolean, true),
        field("success", Ty::Boolean, true),
    ];
    const CONTACT: &[FieldSchema] = &[
        field("id", Ty::String, false),
        field("deleted", Ty::Boolean, true),
        field("sent", Ty::Boolean, true),
    ];
    const FLAGS: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Result",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(RESULT),
            },
            TypeSchema {
                name: "Contact",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(CONTACT),
            },
        ],
        page: None,
    };
    let send = ResourceOp {
        name: "send",
        kind: ResourceAction::Action,
        collection: "/send",
        item_param: None,
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Result")),
        items: None,
        filters: &[],
    };
    let create = ResourceOp {
        name: "create_contact",
        kind: ResourceAction::Create,
        collection: "/contacts",
        response: Some(Ty::Named("Contact")),
        ..send
    };
    let store = Resources::default();
    let sent = store
        .serve_now(&FLAGS, &send, &call(None, Value::Null, json!({})))
        .unwrap();
    assert_eq!(sent, json!({"sent": true, "done": false, "success": true}));
    let made = store
        .serve_now(&FLAGS, &create, &call(None, Value::Null, json!({})))
        .unwrap();
    assert_eq!(
        (&made["deleted"], &made["sent"]),
        (&json!(false), &json!(false)),
        "{made}"
    );
}

/// Stripe's and Resend's deletes answer `{"object": "contact", "id": ..., "deleted": true}`:
/// the `object` the answer declares is the kind of item removed (it was left out: the item
/// never held it). An item that holds its own `object` keeps it.
#[tokio::test]
async fn a_delete_answers_the_kind_of_item_it_removed_in_object() {
    const CONTACT: &[FieldSchema] = &[
        field("id", Ty::String, true),
        field("email", Ty::String, true),
    ];
    const DELETED: &[FieldSchema] = &[
        field("id", Ty::String, true),
        field("object", Ty::String, false),
        field("deleted", Ty::Boolean, true),
    ];
    const KINDS: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Contact",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(CONTACT),
            },
            TypeSchema {
                name: "Deleted",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(DELETED),
            },
        ],
        page: None,
    };
    let op = |kind, item: bool, response| ResourceOp {
        name: "op",
        kind,
        collection: "/v1/mailing_lists",
        item_param: item.then_some("id"),
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named(response)),
        items: None,
        filters: &[],
    };
    let store = Resources::default();
    let made = store
        .serve(
            &KINDS,
            &op(ResourceAction::Create, false, "Contact"),
            &call(None, Value::Null, json!({"email": "ada@example.com"})),
        )
        .await
        .unwrap();
    let id = made["id"].as_str().unwrap();
    // What a hand-written service reads of the store beside the operations.
    let found = store.find("/v1/mailing_lists", |item| {
        item["email"] == "ada@example.com"
    });
    assert_eq!(found.as_ref().map(|f| &f["id"]), Some(&made["id"]));
    let all: Vec<serde_json::Map<String, Value>> = store.all_as("/v1/mailing_lists");
    assert_eq!(all.len(), 1);
    let gone = store
        .serve(
            &KINDS,
            &op(ResourceAction::Delete, true, "Deleted"),
            &call(Some(id), Value::Null, Value::Null),
        )
        .await
        .unwrap();
    assert_eq!(
        gone,
        json!({"id": id, "object": "mailing_list", "deleted": true})
    );
    assert!(store.find("/v1/mailing_lists", |_| true).is_none());
}

/// Telnyx's messaging profile: every field optional, the ones the service sets `readOnly`.
/// A create answered none of them; now its kind, its times and its counts are made and kept
/// (and the last change moves on an update), while read-only text stays out.
#[tokio::test]
async fn a_new_item_gets_the_read_only_times_numbers_and_kinds_the_service_sets() {
    const PROFILE: &[FieldSchema] = &[
        FieldSchema {
            read_only: true,
            ..field("id", Ty::String, false)
        },
        field("name", Ty::String, false),
        FieldSchema {
            read_only: true,
            ..field("record_type", Ty::Named("Kind"), false)
        },
        FieldSchema {
            read_only: true,
            ..field("created_at", Ty::DateTime, false)
        },
        FieldSchema {
            read_only: true,
            ..field("updated_at", Ty::DateTime, false)
        },
        FieldSchema {
            read_only: true,
            min: Some(1.0),
            ..field("parts", Ty::Integer, false)
        },
        FieldSchema {
            read_only: true,
            ..field("phone_number", Ty::String, false)
        },
    ];
    const TELNYX: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Profile",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(PROFILE),
            },
            TypeSchema {
                name: "Kind",
                keeps_other_keys: false,
                shape: ShapeSchema::Enum(&["messaging_profile"]),
            },
        ],
        page: None,
    };
    let op = |kind, item: bool| ResourceOp {
        name: "op",
        kind,
        collection: "/messaging_profiles",
        item_param: item.then_some("id"),
        item_field: None,
        id_field: "id",
        response: Some(Ty::Named("Profile")),
        items: None,
        filters: &[],
    };
    let store = Resources::default();
    let made = store
        .serve(
            &TELNYX,
            &op(ResourceAction::Create, false),
            &call(None, Value::Null, json!({"name": "alerts"})),
        )
        .await
        .unwrap();
    assert_eq!(made["record_type"], "messaging_profile", "{made}");
    assert_eq!(made["parts"], 1, "{made}");
    let created = made["created_at"].as_str().unwrap().to_owned();
    assert!(created.ends_with('Z'), "{made}");
    assert!(made.get("phone_number").is_none(), "{made}");
    let id = made["id"].as_str().unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let changed = store
        .serve(
            &TELNYX,
            &op(ResourceAction::Merge, true),
            &call(Some(id), Value::Null, json!({"name": "renamed"})),
        )
        .await
        .unwrap();
    assert_eq!(
        (&changed["name"], &changed["created_at"]),
        (&json!("renamed"), &json!(created))
    );
    assert!(
        changed["updated_at"].as_str().unwrap() > made["updated_at"].as_str().unwrap(),
        "{changed}"
    );
}

/// Azure's SMS send answers each recipient's `httpStatusCode` beside `successful: true`: made
/// up as 0, which is no HTTP status (a client checking `< 300` took every recipient as
/// failed). An integer field named for an HTTP status is 200; other integers stay 0.
#[test]
fn a_made_up_http_status_is_a_success() {
    let schema = ServiceSchema {
        types: &[],
        page: None,
    };
    for (name, made) in [
        ("httpStatusCode", 200),
        ("status_code", 200),
        ("http_status", 200),
        ("count", 0),
    ] {
        let f = field(name, Ty::Integer, true);
        assert_eq!(
            fill(&schema, &Ty::Integer, None, 0, Some(&f)),
            made,
            "{name}"
        );
    }
}

/// Telnyx's `GET /phone_numbers/{id}/messaging` before anything was written answered `{}`,
/// where the document promises `{data: {...}}` (every field optional): an answer that only
/// wraps one object gets that object, made up.
#[test]
fn an_answer_that_only_wraps_one_object_is_never_empty() {
    const SETTINGS: &[FieldSchema] = &[field("messaging_profile_id", Ty::String, false)];
    const WRAPPED: &[FieldSchema] = &[field("data", Ty::Named("Settings"), false)];
    const TWO: &[FieldSchema] = &[
        field("data", Ty::Named("Settings"), false),
        field("meta", Ty::Named("Settings"), false),
    ];
    let schema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Settings",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(SETTINGS),
            },
            TypeSchema {
                name: "Wrapped",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(WRAPPED),
            },
            TypeSchema {
                name: "Two",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(TWO),
            },
        ],
        page: None,
    };
    assert_eq!(
        fill(&schema, &Ty::Named("Wrapped"), None, 0, None),
        json!({"data": {}})
    );
    // Not a wrapper: optional fields stay out.
    assert_eq!(fill(&schema, &Ty::Named("Two"), None, 0, None), json!({}));
}

/// Intercom's contact ids are 24 hexadecimal digits (`5ba682d23d7cf92bef87bfd4`, its example),
/// and a conversation's `from.id` must be 24 characters: the sandbox's `res_00000001` could
/// start none. A made id takes its example's shape (prefix kept, digits as many and of the same
/// kind); an example of another shape leaves the usual id.
#[test]
fn a_made_id_takes_the_shape_of_its_example() {
    let id = |example: &'static str| {
        let f = FieldSchema {
            example: Some(example),
            ..field("id", Ty::String, true)
        };
        super::super::shape::field_id(7, &f)
    };
    assert_eq!(id("5ba682d23d7cf92bef87bfd4"), "000000000000000000000007");
    assert_eq!(id("tpl_0123456789"), "tpl_0000000007");
    assert_eq!(id("contact"), "res_00000007");
}

/// Intercom's data attribute: written with `options: [{value: "1-10"}, ...]`, answered as a
/// list of text. Each option was answered `"sample"`, the values written lost.
#[test]
fn text_answered_from_an_object_of_one_text_is_that_text() {
    let list = Ty::List(&Ty::String);
    let written = json!([{"value": "1-10"}, {"value": "11-50"}]);
    assert_eq!(
        fill(&SCHEMA, &list, Some(&written), 0, None),
        json!(["1-10", "11-50"])
    );
    // Two fields, or a value that is not text: nothing says which is meant, so made up.
    let two = json!({"value": "1-10", "label": "small"});
    assert_ne!(fill(&SCHEMA, &Ty::String, Some(&two), 0, None), "1-10");
    assert!(fill(&SCHEMA, &Ty::String, Some(&json!({"n": 3})), 0, None).is_string());
}

/// Twilio's Conversations credential: created with `Sandbox=true` (a boolean in the request),
/// answered `"sandbox": "true"` (text). The write was refused as a value the item cannot hold.
#[test]
fn a_flag_or_a_number_sent_where_the_answer_has_text_is_its_text() {
    assert_eq!(
        fill(&SCHEMA, &Ty::String, Some(&json!(true)), 0, None),
        json!("true")
    );
    assert_eq!(
        fill(&SCHEMA, &Ty::String, Some(&json!(42)), 0, None),
        json!("42")
    );
    const CREDENTIAL: &[FieldSchema] = &[field("sandbox", Ty::String, false)];
    const CREDENTIALS: ServiceSchema = ServiceSchema {
        types: &[TypeSchema {
            name: "Credential",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(CREDENTIAL),
        }],
        page: None,
    };
    let ty = Ty::Named("Credential");
    let sent = json!({"sandbox": true});
    assert_eq!(
        super::super::fill::unheld(&CREDENTIALS, Some(&ty), sent.as_object().unwrap()),
        None
    );
    let object = json!({"sandbox": {"a": 1, "b": 2}});
    assert!(
        super::super::fill::unheld(&CREDENTIALS, Some(&ty), object.as_object().unwrap()).is_some()
    );
}

/// Telnyx's message: `record_type` is an enum of one value (`message`), optional and not
/// read-only, and was never answered; the service always says it.
#[test]
fn a_kind_its_type_allows_one_value_of_is_always_answered() {
    const MESSAGE: &[FieldSchema] = &[
        field("id", Ty::String, false),
        field("record_type", Ty::Named("MessageRecordType"), false),
        field("direction", Ty::Named("Direction"), false),
    ];
    const KINDS: ServiceSchema = ServiceSchema {
        types: &[
            TypeSchema {
                name: "Message",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(MESSAGE),
            },
            TypeSchema {
                name: "MessageRecordType",
                keeps_other_keys: false,
                shape: ShapeSchema::Enum(&["message"]),
            },
            TypeSchema {
                name: "Direction",
                keeps_other_keys: false,
                shape: ShapeSchema::Enum(&["inbound", "outbound"]),
            },
        ],
        page: None,
    };
    let answer = fill(
        &KINDS,
        &Ty::Named("Message"),
        Some(&json!({"id": "m1"})),
        0,
        None,
    );
    assert_eq!(answer["record_type"], "message", "{answer}");
    // Two values: which one holds is the service's to say; left out.
    assert!(answer.get("direction").is_none(), "{answer}");
    // What the client sent stays.
    let sent = json!({"id": "m1", "record_type": "message"});
    assert_eq!(
        fill(&KINDS, &Ty::Named("Message"), Some(&sent), 0, None)["record_type"],
        "message"
    );
}

/// Intercom's contacts: 24-hex ids by their example, and named by an integer `{contact_id}`
/// in one operation, so the store makes numbers; `1` could not start a conversation (`from.id`
/// must be 24 characters). The number takes the example's length; without one it stays bare.
#[test]
fn an_integer_id_takes_the_length_of_its_example() {
    const WITH: &[FieldSchema] = &[FieldSchema {
        example: Some("5ba682d23d7cf92bef87bfd4"),
        ..field("id", Ty::String, false)
    }];
    const WITHOUT: &[FieldSchema] = &[field("id", Ty::String, false)];
    let id = |fields: &'static [FieldSchema]| {
        let schema = ServiceSchema {
            types: Box::leak(Box::new([TypeSchema {
                name: "Contact",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(fields),
            }])),
            page: None,
        };
        let create = ResourceOp {
            response: Some(Ty::Named("Contact")),
            ..op(ResourceAction::Create, false)
        };
        super::super::shape::integer_id(&schema, &create, 7)
    };
    assert_eq!(id(WITH), "000000000000000000000007");
    assert_eq!(id(WITHOUT), "7");
}
